/* questgrid convert IN -o OUT: reads a level, a quest file or a .des map in
 * one format and writes it in another; the output appears only when all
 * went well. */
#include "cli/cli_lua.h"
#include "core/buf.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: questgrid convert IN -o OUT [--to des|fd|tmx|xp] [--dialect D] [--edit-dir DIR]\n"
    "                         [--quest N] [--var NAME=VALUE]... [--map NAME] [--seed N]\n"
    "                         [--place D:5] [--lua-path DIR]... [--strict] [--oversize]\n"
    "                         [--kind quest|town|wilderness|vault|room]\n"
    "\n"
    "Converts Angband-family F:/D: files, Crawl .des maps, Tiled maps (.tmx) and\n"
    "REXPaint images (.xp) into one another. A .des map is resolved first (its\n"
    "Lua run with --seed at --place), so its randomness is settled by the seed;\n"
    ".des to .des without --seed copies the map as written.\n"
    "The input format comes from the\n"
    "file itself, the output format from --to or OUT's extension (.txt/.map:\n"
    "F:/D:). For .des, F:/D: indices become Crawl names through lib/edit's\n"
    "mapping.txt (and --edit-dir's own mapping.txt); what is unmapped is warned.\n"
    "\n"
    "What .des cannot say (cave_info, indices, specials, the player start, the\n"
    "quest records) is written in #qg: comment lines that Crawl skips and\n"
    "questgrid reads back, so a level converted to .des and back is the same.\n"
    "F:/D: to F:/D: keeps the file as written (?: conditions, %: includes),\n"
    "rewriting F:, Q: and P: lines for the output dialect; F:/D: to .des keeps\n"
    "its ?: conditions as Lua. With --var or --quest (and for TMX and .xp) an\n"
    "F:/D: file is resolved first.\n"
    "A TMX file is written with its tileset image, " QG_TILESET_IMAGE ", beside it.\n"
    "\n"
    "  -o, --output OUT   the file to write (written whole or not at all)\n"
    "  --follow-symlinks  replace the file a symbolic link at OUT names, not the link\n"
    "  --to FORMAT        des, fd, tmx or xp\n"
    "  --dialect D        a dialect (see show --help) or auto; FROM:TO converts\n"
    "                     between dialects (D alone is the output's dialect\n"
    "                     when writing F:/D:, else the input's)\n"
    "  --edit-dir DIR     lib/edit directory for includes, tags and names\n"
    "  --allow-include-outside  follow %: includes outside the edit directory\n"
    "                     and IN's own directory (refused by default)\n"
    "  --quest N          IN is a hub such as q_info.txt: convert quest N\n"
    "  --var NAME=VALUE   set $NAME for ?: conditions, you.NAME for .des (repeatable)\n"
    "  --map NAME         the .des map to convert (default: the file's first)\n"
    "  --seed N           the seed a .des map is resolved with (default 0)\n"
    "  --place D:5        where a .des map is resolved (default D:1)\n"
    "  --game G           the game whose branches --place and the map's Lua know:\n"
    "                     crawl-0.28, crawl-master, ... (default: the newest)\n"
    "  --lua-path DIR     a game Lua library for .des maps, e.g. Crawl's dat/dlua\n"
    "  --strict           treat warnings (what the output cannot carry) as errors\n"
    "  --oversize         write a .des map larger than Crawl's 80x70 (for questgrid,\n"
    "                     which reads it back; Crawl will not load it)\n"
    "  --kind K           the kind of level an F:/D: file is (quest, town,\n"
    "                     wilderness, vault, room): default, what its records say\n"
    "                     (Q: a quest, B: a town, a room template's T:, …)\n"
    "  --max-errors N     report N errors at most (default 50; 0: no limit)\n"
    "Exit status: 0 written, 1 errors (nothing written), 2 bad usage.\n";

typedef struct job {
    cli_opts opts;
    cli_fd fd;
    qg_diags *diags;
    qg_format from, to;
    qg_fd_dialect in_dialect, out_dialect;
    qg_mapping *mapping;  /* for .des output */
    qg_palette *palette;  /* for .xp output: Crawl feature colours */
    char *text;     /* the output */
    size_t len;
} job;

static int bad_usage(const char *what, const char *arg)
{
    fprintf(stderr, "questgrid convert: %s '%s'\n", what, arg);
    return 2;
}

/* "D" or "FROM:TO"; 0 when parsed. */
static int parse_dialects(job *j)
{
    const char *text = j->opts.dialect;
    if (!text)
        return 0;
    char from[32] = "", to[32] = "";
    const char *colon = strchr(text, ':');
    if (colon && (size_t)(colon - text) < sizeof from) {
        memcpy(from, text, (size_t)(colon - text));
        snprintf(to, sizeof to, "%s", colon + 1);
    } else {
        snprintf(j->to == QG_FORMAT_FD ? to : from, sizeof to, "%s", text);
    }
    int in = from[0] ? qg_fd_dialect_from_name(from) : QG_FD_AUTO;
    int out = to[0] ? qg_fd_dialect_from_name(to) : QG_FD_AUTO;
    if (in < 0 || out < 0)
        return bad_usage("unknown dialect (see show --help) in", text);
    j->in_dialect = (qg_fd_dialect)in;
    j->out_dialect = (qg_fd_dialect)out;
    return 0;
}

static void write_options(const job *j, qg_write_options *wo)
{
    memset(wo, 0, sizeof *wo);
    wo->vocab = j->fd.vocab;
    wo->fd_dialect = j->out_dialect;
    wo->mapping = j->mapping;
    wo->palette = j->palette;
    wo->des_oversize = j->opts.oversize;
}

/* The bundled mapping.txt, then --edit-dir's own (which overrides it). */
static void load_mapping(job *j)
{
    j->mapping = qg_mapping_new();
    if (!j->mapping)
        return;
    qg_mapping_load_bundled(j->mapping, j->diags);
    char *own = j->opts.edit_dir ? qg_path_join(j->opts.edit_dir, "mapping.txt") : NULL;
    FILE *f = own ? fopen(own, "rb") : NULL;
    if (f) {
        fclose(f);
        qg_mapping_load_file(j->mapping, own, j->diags);
    }
    free(own);
}

static void convert_level(job *j, qg_level *level)
{
    qg_write_options wo;
    write_options(j, &wo);
    /* F:/D: without a dialect asked for: the level's own, else the edit
     * directory's, so that the file reads back where it will be used */
    if (j->to == QG_FORMAT_FD && wo.fd_dialect == QG_FD_AUTO &&
        !qg_level_get_property(level, "dialect"))
        wo.fd_dialect = j->fd.options.dialect;
    qg_level_write(level, j->to, &wo, &j->text, &j->len, j->diags);
}

static int has_conditions(const qg_mapdef *def)
{
    for (size_t i = 0; i < qg_fd_record_count(def); i++)
        if (qg_fd_record_at(def, i)->kind == QG_FD_COND)
            return 1;
    return 0;
}

/* F:/D: to F:/D: without variables keeps the file as written, its ?:
 * conditions included; so does F:/D: to .des when there are conditions
 * (as Lua). Otherwise the file is resolved and its level written, which
 * loses nothing. */
static void convert_fd(job *j, const char *path)
{
    if (j->in_dialect != QG_FD_AUTO)
        j->fd.options.dialect = j->in_dialect;
    int plain = j->opts.quest < 0 && qg_vars_count(j->opts.vars) == 0;
    qg_mapdef *def = NULL;
    if (plain && (j->to == QG_FORMAT_FD || j->to == QG_FORMAT_DES))
        qg_fd_read(path, &j->fd.options, &def, j->diags);
    if (def && (j->to == QG_FORMAT_FD || has_conditions(def))) {
        qg_write_options wo;
        write_options(j, &wo);
        if (!qg_diags_count_severity(j->diags, QG_ERROR)) {
            if (j->to == QG_FORMAT_FD)
                qg_fd_write(def, &wo, &j->text, &j->len, j->diags);
            else
                qg_des_write_fd(def, &wo, &j->text, &j->len, j->diags);
        }
        qg_mapdef_free(def);
        return;
    }
    qg_level *level = NULL;
    if (def)
        qg_fd_resolve(def, &j->fd.options, j->opts.vars, &level, j->diags);
    else if (j->opts.quest >= 0)
        qg_fd_load_quest(path, (int)j->opts.quest, &j->fd.options, j->opts.vars, &level,
                         j->diags);
    else
        qg_fd_load_file(path, &j->fd.options, j->opts.vars, &level, j->diags);
    if (level && !qg_level_get_property(level, "kind"))
        qg_diags_add(j->diags, QG_WARNING, path, 0, 0, NULL, 0,
                     "no record tells what kind of level this is (a quest's Q:, a town's B:, "
                     "a room template's T:, …): it is written as a level of no kind%s; "
                     "--kind quest|town|wilderness|vault|room says which",
                     j->to == QG_FORMAT_DES ? " (no ORIENT: encompass)" : "");
    if (level && !qg_diags_count_severity(j->diags, QG_ERROR))
        convert_level(j, level);
    qg_level_free(level);
    qg_mapdef_free(def);
}

/* .des to .des without --seed: the map as written (its Lua kept). */
static void extract_des(job *j, const char *path, const char *data, size_t len)
{
    qg_des_file *file = NULL;
    qg_des_options options = {j->opts.legacy};
    qg_des_parse(path, data, len, &options, NULL, &file, j->diags);
    size_t index = 0;
    while (file && j->opts.map && index < qg_des_map_count(file) &&
           strcmp(qg_mapdef_name(qg_des_map(file, index)), j->opts.map) != 0)
        index++;
    if (file && !qg_diags_count_severity(j->diags, QG_ERROR) &&
        qg_des_extract_map(data, len, file, index, &j->text, &j->len) != QG_OK)
        qg_diags_add(j->diags, QG_ERROR, path, 0, 0, NULL, 0, "no map %s%s%s in the file",
                     j->opts.map ? "named '" : "", j->opts.map ? j->opts.map : "",
                     j->opts.map ? "'" : "");
    qg_des_file_free(file);
}

/* A .des map resolved with its Lua: its randomness is settled by --seed.
 * A map questgrid wrote with #qg: lines is read back from them instead. */
static void convert_des(job *j, const char *path, const char *data, size_t len)
{
    qg_level *written = NULL;
    qg_status st = qg_des_read_level(path, data, len, j->opts.map, &written, j->diags);
    if (st != QG_ERR_NOTFOUND) {
        if (st == QG_OK)
            convert_level(j, written);
        qg_level_free(written);
        return;
    }
    cli_lua lua;
    if (cli_lua_setup(&j->opts, path, &lua, j->diags) == 0) {
        qg_context context = {j->opts.place, 0, j->opts.vars};
        qg_level *level = NULL;
        if (qg_runtime_resolve(lua.rt, lua.def, j->opts.seed, &context, &level, j->diags) ==
            QG_OK)
            convert_level(j, level);
        qg_level_free(level);
    }
    cli_lua_free(&lua);
}

static void convert_file_level(job *j, const char *path, const char *data, size_t len)
{
    qg_level *level = NULL;
    if (qg_level_read(path, data, len, j->from, &level, j->diags) == QG_OK)
        convert_level(j, level);
    qg_level_free(level);
}

/* The tileset image a TMX refers to, beside it. */
static int write_tileset(const cli_opts *opts, const char *output, qg_diags *diags)
{
    char *dir = qg_path_dirname(output);
    char *path = dir ? qg_path_join(dir, QG_TILESET_IMAGE) : NULL;
    unsigned char *png = NULL;
    size_t len = 0;
    int ok = path && qg_tileset_png(&png, &len) == QG_OK &&
             cli_write_output(opts, path, png, len, diags);
    free(png);
    free(path);
    free(dir);
    return ok;
}

static int finish(job *j)
{
    size_t errors = qg_diags_count_severity(j->diags, QG_ERROR);
    size_t warnings = qg_diags_count_severity(j->diags, QG_WARNING);
    cli_report(j->diags);
    if (errors || !j->text || (j->opts.strict && warnings)) {
        if (j->opts.strict && warnings && !errors)
            fprintf(stderr, "questgrid convert: %zu warnings with --strict: %s not written\n",
                    warnings, j->opts.output);
        return 1;
    }
    qg_diags_clear(j->diags);
    int ok = cli_write_output(&j->opts, j->opts.output, j->text, j->len, j->diags) &&
             (j->to != QG_FORMAT_TMX || write_tileset(&j->opts, j->opts.output, j->diags));
    cli_report(j->diags);
    return ok ? 0 : 1;
}

static int run(job *j)
{
    const char *path = j->opts.files[0];
    static const char *const formats[] = {"des", "fd", "tmx", "xp", NULL};
    if (j->opts.to && cli_choice("convert", "--to", j->opts.to, formats) < 0)
        return 2;
    j->to = j->opts.to ? qg_format_from_name(j->opts.to) : qg_format_from_path(j->opts.output);
    if (j->to == QG_FORMAT_UNKNOWN)
        return bad_usage("cannot tell the output format (use --to des|fd|tmx|xp) of",
                         j->opts.to ? j->opts.to : j->opts.output);
    if (parse_dialects(j))
        return 2;
    /* the dialects are this command's own (FROM:TO) */
    const char *dialects = j->opts.dialect;
    j->opts.dialect = NULL;
    int setup = cli_fd_setup(&j->opts, path, &j->fd, j->diags);
    j->opts.dialect = dialects;
    if (setup) {
        cli_report(j->diags);
        return 2;
    }
    char *data = NULL;
    size_t len = 0;
    if (qg_read_file(path, QG_MAX_TEXT_FILE, &data, &len, j->diags) != QG_OK)
        return finish(j);
    j->from = qg_format_detect(path, data, len);
    /* indices and Crawl names meet through the mapping */
    if (j->to == QG_FORMAT_DES || (j->to == QG_FORMAT_FD && j->from != QG_FORMAT_FD))
        load_mapping(j);
    if (j->to == QG_FORMAT_XP && (j->palette = qg_palette_new()))
        qg_palette_load_bundled(j->palette, j->diags);
    if (j->opts.kind != QG_KIND_UNKNOWN && j->from != QG_FORMAT_FD)
        qg_diags_add(j->diags, QG_ERROR, path, 0, 0, NULL, 0,
                     "--kind sets the kind of an F:/D: file; a %s file says its own",
                     qg_format_name(j->from));
    else if (j->from == QG_FORMAT_FD)
        convert_fd(j, path);
    else if (j->from == QG_FORMAT_DES && j->to == QG_FORMAT_DES && !j->opts.has_seed)
        extract_des(j, path, data, len);
    else if (j->from == QG_FORMAT_DES)
        convert_des(j, path, data, len);
    else if (j->from == QG_FORMAT_TMX || j->from == QG_FORMAT_XP)
        convert_file_level(j, path, data, len);
    else
        qg_diags_add(j->diags, QG_ERROR, path, 0, 0, NULL, 0,
                     "cannot tell the format of this file (F:/D: .txt/.map, .des, .tmx "
                     "and .xp can be read)");
    free(data);
    return finish(j);
}

int cmd_convert(int argc, char **argv)
{
    job j;
    memset(&j, 0, sizeof j);
    int r = cli_parse(argc, argv, OPT_OUTPUT | OPT_TO | OPT_DIALECT | OPT_EDIT_DIR |
                      OPT_QUEST | OPT_VAR | OPT_STRICT | OPT_MAP | OPT_SEED | OPT_PLACE |
                      OPT_LUA_PATH | OPT_OVERSIZE | OPT_GAME | OPT_KIND | OPT_MAX_ERRORS,
                      usage, &j.opts);
    if (r)
        return r > 0 ? 0 : 2;
    int status = 2;
    if (j.opts.file_count != 1 || !j.opts.output) {
        cli_usage_error("convert", usage, "%s", !j.opts.output ? "no -o OUT given"
                                                : j.opts.file_count ? "one input file at a time"
                                                                    : "no input file given");
    } else if ((j.diags = cli_diags_new(&j.opts, 1))) {
        status = run(&j);
    }
    free(j.text);
    qg_mapping_free(j.mapping);
    qg_palette_free(j.palette);
    cli_fd_free(&j.fd);
    qg_diags_free(j.diags);
    cli_opts_free(&j.opts);
    return status;
}
