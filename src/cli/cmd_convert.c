/* questgrid convert IN -o OUT: reads a level, a quest file or a .des map in
 * one format and writes it in another; the output appears only when all
 * went well. */
#include "cli/cli_lua.h"
#include "cli/source.h"
#include "core/buf.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: questgrid convert IN -o OUT [--to des|fd|tmx|xp] [--dialect D] [--edit-dir DIR]\n"
    "                         [--quest N] [--var NAME=VALUE]... [--map NAME] [--seed N]\n"
    "                         [--place D:5] [--lua-path DIR]... [--strict] [--oversize]\n"
    "                         [--kind quest|town|wilderness|vault|room] [--game G] [--lossy]\n"
    "\n"
    "Converts Angband-family F:/D: files, Crawl .des maps, Tiled maps (.tmx) and\n"
    "REXPaint images (.xp) into one another. A .des map is resolved first (its\n"
    "Lua run with --seed at --place), so its randomness is settled by the seed;\n"
    ".des to .des without --seed copies the map as written.\n"
    "The input format comes from the\n"
    "file itself, the output format from --to or OUT's extension (.txt/.map:\n"
    "F:/D:). Every feature, monster and object becomes the output game's own\n"
    "(lib/games): the same thing by name, else the nearest of its class (a\n"
    "warning names both), else the file is refused with the list of what has\n"
    "nothing of its class there, unless --lossy. The output game is --game for\n"
    ".des (default: the newest Crawl), the output dialect for F:/D:.\n"
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
    "                     crawl-0.28, crawl-master (default: told from the file's\n"
    "                     Crawl data tree, else the newest)\n"
    "  --lua-path DIR     a game Lua library for .des maps, e.g. Crawl's dat/dlua\n"
    "  --lossy            write what has nothing of its class in the output game\n"
    "                     anyway: a wall for what is in the way, a floor for what\n"
    "                     is not, things left out (each warned)\n"
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
    qg_game *from_game, *to_game;   /* the level's game and the output's */
    qg_translator *translator;
    qg_vocab *to_vocab;             /* the output game's indices (F:/D:) */
    qg_des_vocab *des_vocab;        /* the output game's names (.des) */
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
    wo->vocab = j->to_vocab ? j->to_vocab : j->fd.vocab;
    wo->translator = j->translator;
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

/* ---- the games a conversion goes between ---------------------------------- */

/* The Crawl version of --game (else the newest) and its names. */
static const char *crawl_game(job *j)
{
    if (!j->des_vocab) {
        char *dir = NULL;
        if (qg_data_find("des/vocab", &dir, j->diags) == QG_OK)
            qg_des_vocab_load(dir, j->opts.game, &j->des_vocab, j->diags);
        free(dir);
    }
    return j->des_vocab ? qg_des_vocab_game(j->des_vocab) : NULL;
}

/* The game whose indices an F:/D: level holds: its variant's when the
 * vocabulary is the variant's own or the dialect was given, else
 * questgrid's own (the bundled lib/edit). */
static const char *fd_game(const job *j, qg_fd_dialect given)
{
    qg_fd_dialect d = given != QG_FD_AUTO ? given : j->fd.options.dialect;
    if (j->fd.own_vocab || given != QG_FD_AUTO)
        return cli_dialect_game(d);
    return "questgrid";
}

/* Whether a level's cells are known by index (an F:/D: level, or one
 * read from TMX or .xp that came from one). */
static int by_index(void *user, int x, int y, const qg_cell *cell)
{
    (void)user;
    (void)x;
    (void)y;
    return cell->feature >= 0;
}

/* The game a level's things belong to: an F:/D: file's (its variant's,
 * or questgrid's own), the game a level converted before recorded (its
 * "game" property, kept in .des #qg: lines and TMX), else the variant's
 * when its cells are indices, else --game's Crawl. */
static const char *level_game(job *j, const qg_level *level)
{
    const char *recorded = level ? qg_level_get_property(level, "game") : NULL;
    if (j->from == QG_FORMAT_FD)
        return fd_game(j, j->in_dialect);
    if (recorded)
        return recorded;
    if (level && qg_level_foreach(level, by_index, NULL))
        return fd_game(j, j->in_dialect);
    return crawl_game(j);
}

/* The translator from the level's game to the output's (.des and F:/D:
 * output only: TMX and .xp carry everything). Games questgrid has no
 * tables of (Angband 4.2) are written as before, through the mapping. */
static void prepare_translation(job *j, const qg_level *level)
{
    if (j->translator || (j->to != QG_FORMAT_DES && j->to != QG_FORMAT_FD))
        return;
    const char *from = level_game(j, level);
    const char *recorded = level ? qg_level_get_property(level, "game") : NULL;
    /* F:/D: is written for the dialect asked for, else the edit
     * directory's game, else the game the level came from (a level goes
     * back to its own game unchanged), else questgrid's own */
    const char *to = j->to == QG_FORMAT_DES                 ? crawl_game(j)
                     : j->out_dialect != QG_FD_AUTO         ? cli_dialect_game(j->out_dialect)
                     : j->from == QG_FORMAT_FD              ? fd_game(j, j->in_dialect)
                     : j->fd.own_vocab                       ? fd_game(j, QG_FD_AUTO)
                     : recorded                              ? recorded
                                                             : fd_game(j, QG_FD_AUTO);
    if (!from || !to)
        return;
    j->from_game = cli_game_tables(from);
    j->to_game = strcmp(from, to) == 0 ? NULL : cli_game_tables(to);
    const qg_game *target = j->to_game ? j->to_game : j->from_game;
    if (!j->from_game || !target)
        return;
    int own = j->from == QG_FORMAT_FD ? j->fd.own_vocab : 0;
    j->translator = qg_translator_new(j->from_game, own ? j->fd.vocab : NULL, target,
                                      j->opts.lossy);
    /* indices are checked against the target's tables, unless the edit
     * directory given is the target game's own */
    int own_target = j->fd.own_vocab && strcmp(to, fd_game(j, QG_FD_AUTO)) == 0;
    if (j->to == QG_FORMAT_FD && !qg_game_is_crawl(target) && !own_target)
        j->to_vocab = qg_game_vocab(target);
}

/* An F:/D: level written to another format says whose indices it holds,
 * so that reading it back takes them for that game's. */
static void record_game(job *j, qg_level *level)
{
    if (j->from == QG_FORMAT_FD && j->to != QG_FORMAT_FD && !qg_level_get_property(level, "game"))
        qg_level_add_property(level, "game", fd_game(j, j->in_dialect));
}

static void convert_level(job *j, qg_level *level)
{
    prepare_translation(j, level);
    record_game(j, level);
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
        prepare_translation(j, NULL);
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
    size_t count = file ? qg_des_map_count(file) : 0;
    if (file && j->opts.map && index == count) {
        cli_unknown_file_map(path, j->opts.map, file, j->diags);
    } else if (file && !qg_diags_count_severity(j->diags, QG_ERROR) &&
               qg_des_extract_map(data, len, file, index, &j->text, &j->len) != QG_OK) {
        qg_diags_add(j->diags, QG_ERROR, path, 0, 0, NULL, 0, "no map in the file");
    }
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
    if (cli_lua_setup(&j->opts, path, 1, &lua, j->diags) == 0) {
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

/* What the translation took and refused, and the written file read back
 * as the output game reads it (its tags, its names). */
static void check_output(job *j)
{
    if (j->translator)
        qg_translator_report(j->translator, j->diags);
    if (!j->text || qg_diags_count_severity(j->diags, QG_ERROR))
        return;
    qg_read_back back = {j->out_dialect != QG_FD_AUTO ? j->out_dialect : j->fd.options.dialect,
                         j->to_vocab, j->to == QG_FORMAT_DES ? j->des_vocab : NULL, 0};
    if ((j->to == QG_FORMAT_FD && j->to_vocab) || (j->to == QG_FORMAT_DES && j->des_vocab))
        qg_read_written(j->to, j->text, j->len, &back, j->diags);
}

static int finish(job *j)
{
    check_output(j);
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

/* The one input: its path and format; NULL after an error. */
static const qg_input *pick_input(job *j, cli_inputs *in)
{
    if (cli_inputs_find(&j->opts, in, j->diags) != 0)
        return NULL;
    const qg_input *input = cli_inputs_one(&j->opts, in, j->diags);
    if (input && cli_kind_format(input->kind) == QG_FORMAT_UNKNOWN) {
        cli_input_refuse("convert", CLI_SOURCE_READS, input, j->diags);
        return NULL;
    }
    return input;
}

/* A hub's --quest and --var against what the game has. */
static int check_fd_names(job *j, const qg_input *input, const char *data, size_t len)
{
    qg_fd_dialect dialect = j->in_dialect != QG_FD_AUTO ? j->in_dialect : j->fd.options.dialect;
    if (dialect == QG_FD_AUTO)
        dialect = qg_fd_detect_dialect(input->path, data, len);
    cli_check_vars(&j->opts, dialect, j->diags);
    return input->kind == QG_FILE_HUB && cli_hub_check(&j->opts, input->path, &j->fd.options,
                                                       j->diags);
}

static int run(job *j, cli_inputs *in)
{
    const qg_input *input = pick_input(j, in);
    if (!input)
        return finish(j);
    const char *path = input->path;
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
    j->from = cli_kind_format(input->kind);
    if (j->from == QG_FORMAT_FD && check_fd_names(j, input, data, len) != 0) {
        free(data);
        return finish(j);
    }
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
    else
        convert_file_level(j, path, data, len);
    free(data);
    return finish(j);
}

int cmd_convert(int argc, char **argv)
{
    job j;
    memset(&j, 0, sizeof j);
    int r = cli_parse(argc, argv, OPT_OUTPUT | OPT_TO | OPT_DIALECT | OPT_EDIT_DIR |
                      OPT_QUEST | OPT_VAR | OPT_STRICT | OPT_MAP | OPT_SEED | OPT_PLACE |
                      OPT_LUA_PATH | OPT_OVERSIZE | OPT_GAME | OPT_KIND | OPT_MAX_ERRORS |
                      OPT_LOSSY,
                      usage, &j.opts);
    if (r)
        return r > 0 ? 0 : 2;
    int status = 2;
    cli_inputs in = {NULL, 0};
    if (!j.opts.file_count || !j.opts.output) {
        cli_usage_error("convert", usage, "%s", !j.opts.output ? "no -o OUT given"
                                                               : "no input file given");
    } else if ((j.diags = cli_diags_new(&j.opts, 1))) {
        status = run(&j, &in);
    }
    cli_inputs_free(&in);
    free(j.text);
    qg_mapping_free(j.mapping);
    qg_translator_free(j.translator);
    qg_game_free(j.from_game);
    qg_game_free(j.to_game);
    qg_vocab_free(j.to_vocab);
    qg_des_vocab_free(j.des_vocab);
    qg_palette_free(j.palette);
    cli_fd_free(&j.fd);
    qg_diags_free(j.diags);
    cli_opts_free(&j.opts);
    return status;
}
