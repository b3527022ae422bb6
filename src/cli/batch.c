/* The one rule of a batch over many maps: see batch.h. */
#include "cli/batch.h"
#include "cli/source.h"
#include "core/buf.h"
#include "core/diag.h"
#include "core/file.h"
#include "core/outcome.h"
#include "core/path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_batch_init(cli_batch *b, const cli_opts *opts, const char *command, qg_diags *diags,
                    cli_entry_fn take, void *user)
{
    memset(b, 0, sizeof *b);
    b->opts = opts;
    b->command = command;
    b->diags = diags;
    b->take = take;
    b->user = user;
}

/* Why a map failed, copied; NULL when out of memory. */
static char *first_line(const qg_diags *run)
{
    size_t len;
    const char *message = qg_outcome_why(run, "no level, and nothing said why", &len);
    char *line = malloc(len + 1);
    if (line) {
        memcpy(line, message, len);
        line[len] = '\0';
    }
    return line;
}

static const char *last_note(const qg_diags *run)
{
    for (size_t i = qg_diags_count(run); i > 0; i--)
        if (qg_diags_get(run, i - 1)->severity == QG_NOTE)
            return qg_diags_get(run, i - 1)->message;
    return NULL;
}

int cli_batch_entry(cli_batch *b, cli_entry *e, qg_diags *run, const char *home_what)
{
    char *why = NULL;
    const char *what = home_what ? home_what : run ? last_note(run) : NULL;
    qg_outcome outcome = qg_outcome_of(e->level != NULL, run, what);
    if (outcome == QG_OUTCOME_DESCRIBED)
        e->what = what;
    else if (outcome == QG_OUTCOME_FAILED)
        e->why = why = first_line(run);
    qg_diags_take(b->diags, run);
    if (b->take && b->take(b->user, e))
        outcome = QG_OUTCOME_FAILED;
    b->failed += outcome == QG_OUTCOME_FAILED;
    b->resolved += outcome == QG_OUTCOME_RESOLVED;
    b->described += outcome == QG_OUTCOME_DESCRIBED;
    qg_level_free(e->level);
    e->level = NULL;
    free(why);
    return outcome == QG_OUTCOME_FAILED;
}

/* A batch for one picture ends with its first map. */
static int enough(const cli_batch *b)
{
    return b->one && b->resolved + b->described + b->failed > 0;
}

/* A file none of whose maps can be had: one failed entry, named for it. */
static void file_failed(cli_batch *b, const char *path, qg_diags *run)
{
    const char *slash = strrchr(path, '/');
    cli_entry e = {slash ? slash + 1 : path, path, 0, NULL, NULL, NULL, NULL, NULL, NULL};
    cli_batch_entry(b, &e, run, NULL);
}

int cli_batch_des_map(cli_batch *b, qg_runtime *rt, const qg_mapdef *def,
                      unsigned long long seed)
{
    qg_diags *run = qg_diags_new();
    if (!run)
        return 1;
    qg_home home;
    qg_level *level = NULL;
    qg_context context = {b->opts->place, 0, b->opts->vars};
    qg_runtime_resolve_home(rt, def, seed, &context, &home, &level, run);
    cli_entry e = {qg_mapdef_name(def), qg_mapdef_file(def), qg_mapdef_line(def), level, NULL,
                   NULL, home.place[0] ? home.place : NULL, home.inside, def};
    int failed = cli_batch_entry(b, &e, run, home.what);
    qg_diags_free(run);
    return failed;
}

/* ---- .des maps: the world they are resolved in ---------------------------- */

/* As Crawl builds its map database: one Lua state in which every .des
 * file's global Lua runs, in the order the game's library loads them
 * (dlua/loadmaps.lua; so v_rooms.lua finds what ghost.lua, required by an
 * earlier file, defines), and every map of the batch's files, compiled,
 * so that a SUBVAULT finds its maps whatever file they are in. The files
 * of the library that the batch does not draw are skimmed for their
 * global Lua only. */

/* One .des file of the world. */
typedef struct des_source {
    char *path;            /* as named (a cache's: as it recorded it) */
    char *real;            /* canonical, to match the library's names */
    char *text;            /* its text when given (a cache's), else NULL */
    size_t len;
    int input;             /* its maps are the batch's */
    int added;             /* its maps are in the world */
    size_t first, count;   /* its maps: the world's maps [first, first + count) */
    qg_diags *rest;        /* what was said of the file outside its maps */
    int failed;            /* its text or global Lua could not be had */
    int unprovided;        /* because the game's Lua library was not given */
} des_source;

typedef struct world {
    qg_runtime *rt;
    des_source *sources;
    size_t count, cap;
    const qg_mapdef **defs;  /* every map of the inputs, in the order added */
    qg_diags **own;          /* and what its lines and compile got */
    unsigned char *lacks;    /* its compile failed for want of the game's
                                Lua library (qg_runtime_lacks_library) */
    size_t maps, maps_cap;
} world;

static void world_free(world *w)
{
    for (size_t i = 0; i < w->count; i++) {
        free(w->sources[i].path);
        free(w->sources[i].real);
        free(w->sources[i].text);
        qg_diags_free(w->sources[i].rest);
    }
    for (size_t i = 0; i < w->maps; i++)
        qg_diags_free(w->own[i]);
    free(w->sources);
    free(w->defs);
    free(w->own);
    free(w->lacks);
    qg_runtime_free(w->rt);
    memset(w, 0, sizeof *w);
}

static des_source *world_source(world *w, const char *path, char *text, size_t len, int input)
{
    des_source *s = QG_PUSH(w->sources, w->count, w->cap);
    if (!s) {
        free(text);
        return NULL;
    }
    memset(s, 0, sizeof *s);
    s->path = qg_strdup(path);
    s->real = qg_path_canonical(path);
    s->text = text;
    s->len = len;
    s->input = input;
    s->rest = qg_diags_new();
    return s->path && s->real && s->rest ? s : NULL;
}

/* The map of src whose lines hold line (from its NAME to the next map's),
 * or src->count when it is before the first. */
static size_t map_at(const world *w, const des_source *src, int line)
{
    size_t lo = 0, hi = src->count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (qg_mapdef_line(w->defs[src->first + mid]) <= line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? lo - 1 : src->count;
}

/* The parse's diagnostics, each given to the map its line is in; the
 * file's own to src->rest. */
static void share_out(const cli_batch *b, world *w, des_source *src, const qg_diags *parse)
{
    for (size_t i = 0; !b->parse_told && i < qg_diags_count(parse); i++) {
        const qg_diag *d = qg_diags_get(parse, i);
        size_t at = d->line > 0 ? map_at(w, src, d->line) : src->count;
        qg_diags *to = at < src->count ? w->own[src->first + at] : src->rest;
        qg_diags_add(to, d->severity, d->file, d->line, d->col, d->source_line, d->source_len,
                     "%s", d->message);
    }
}

/* An input's maps into the world: parsed, its global Lua run, its maps
 * added (each with its own list of diagnostics). */
static void add_input(const cli_batch *b, world *w, des_source *src)
{
    qg_des_options options = {b->opts->legacy};
    qg_diags *parse = qg_diags_new();
    qg_des_file *file = NULL;
    src->added = 1;
    if (!src->text && qg_read_file(src->path, QG_MAX_TEXT_FILE, &src->text, &src->len,
                                   src->rest) != QG_OK) {
        src->failed = 1;
        qg_diags_free(parse);
        return;
    }
    if (parse)
        qg_des_parse(src->path, src->text, src->len, &options, NULL, &file, parse);
    size_t count = file ? qg_des_map_count(file) : 0, cap = w->maps_cap, cap2 = w->maps_cap;
    int ok = file && qg_grow((void **)&w->defs, &w->maps_cap, w->maps + count + 1,
                             sizeof *w->defs) &&
             qg_grow((void **)&w->own, &cap, w->maps_cap, sizeof *w->own) &&
             qg_grow((void **)&w->lacks, &cap2, w->maps_cap, sizeof *w->lacks);
    src->first = w->maps;
    for (size_t i = 0; ok && i < count; i++) {
        w->defs[w->maps] = qg_des_map(file, i);
        w->lacks[w->maps] = 0;
        ok = (w->own[w->maps] = qg_diags_new()) != NULL;
        w->maps += ok;
        src->count += ok;
    }
    if (ok)
        share_out(b, w, src, parse);
    /* the runtime takes the file and its maps over; the world keeps
     * pointers to them */
    if (ok) {
        qg_status st = qg_runtime_add_file(w->rt, file, src->rest);
        src->failed = st != QG_OK;
        src->unprovided = st == QG_ERR_NOTFOUND;
    } else {
        src->failed = 1;
        qg_des_file_free(file);
    }
    qg_diags_free(parse);
}

/* A library file the batch does not draw: its global Lua only. */
static void run_prelude(world *w, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    qg_diags *quiet = qg_diags_new();
    if (quiet && qg_read_file(path, QG_MAX_TEXT_FILE, &data, &len, quiet) == QG_OK)
        qg_runtime_run_text_prelude(w->rt, path, data, len, quiet);
    qg_diags_free(quiet);
    free(data);
}

static des_source *input_named(world *w, const char *real)
{
    for (size_t i = 0; real && i < w->count; i++)
        if (w->sources[i].real && strcmp(w->sources[i].real, real) == 0)
            return &w->sources[i];
    return NULL;
}

/* The SUBVAULT lines that would place their map inside itself: each an
 * error of its map. */
static void cycles_to_maps(world *w)
{
    qg_diags *found = qg_diags_new();
    if (!found || !qg_runtime_check_cycles(w->rt, found)) {
        qg_diags_free(found);
        return;
    }
    for (size_t i = 0; i < qg_diags_count(found); i++) {
        const qg_diag *d = qg_diags_get(found, i);
        for (size_t k = 0; k < w->count; k++) {
            des_source *src = &w->sources[k];
            size_t at = strcmp(src->path, d->file) == 0 ? map_at(w, src, d->line) : src->count;
            if (at < src->count)
                qg_diags_add(w->own[src->first + at], d->severity, d->file, d->line, d->col,
                             d->source_line, d->source_len, "%s", d->message);
        }
    }
    qg_diags_free(found);
}

/* The library's .des files in its order, each an input's maps or a
 * prelude; then the inputs it does not load, in their order. */
static void load_world(const cli_batch *b, world *w)
{
    char **names = NULL;
    size_t count = 0;
    char *data = qg_runtime_library_data_dir(w->rt);
    qg_diags *quiet = qg_diags_new();
    if (data && quiet)
        qg_runtime_library_des_files(w->rt, &names, &count, quiet);
    for (size_t i = 0; i < count; i++) {
        char *path = qg_path_join(data, names[i]);
        char *real = path ? qg_path_canonical(path) : NULL;
        des_source *src = input_named(w, real);
        if (src && !src->added)
            add_input(b, w, src);
        else if (!src && path)
            run_prelude(w, path);
        free(real);
        free(path);
        free(names[i]);
    }
    free(names);
    free(data);
    qg_diags_free(quiet);
    for (size_t i = 0; i < w->count; i++)
        if (!w->sources[i].added)
            add_input(b, w, &w->sources[i]);
    for (size_t i = 0; i < w->maps; i++)
        if (qg_runtime_compile_map(w->rt, (qg_mapdef *)w->defs[i], w->own[i]) != QG_OK)
            w->lacks[i] = (unsigned char)qg_runtime_lacks_library(w->rt);
    cycles_to_maps(w);
}

static int world_open(const cli_batch *b, world *w, qg_diags *diags)
{
    const cli_opts *o = b->opts;
    qg_runtime_options ro = {o->lua_paths, o->lua_path_count, 0, 0, o->branches};
    w->rt = qg_runtime_new(&ro, diags);
    return w->rt ? 0 : -1;
}

static int wanted(const cli_batch *b, const qg_mapdef *def)
{
    return !b->opts->map || strcmp(qg_mapdef_name(def), b->opts->map) == 0;
}

/* A source's entries: the file failed when what lies outside its maps
 * has errors; each of its maps resolved, or failed when its lines or its
 * compile had errors. */
static void source_entries(cli_batch *b, world *w, des_source *src)
{
    if (src->failed || qg_diags_count_severity(src->rest, QG_ERROR))
        file_failed(b, src->path, src->rest);
    else
        qg_diags_take(b->diags, src->rest);
    qg_diags_clear(src->rest);
    for (size_t i = src->first; i < src->first + src->count && !enough(b); i++) {
        const qg_mapdef *def = w->defs[i];
        if (!wanted(b, def))
            continue;
        if (qg_diags_count_severity(w->own[i], QG_ERROR)) {
            cli_entry e = {qg_mapdef_name(def), qg_mapdef_file(def), qg_mapdef_line(def),
                           NULL, NULL, NULL, NULL, NULL, def};
            cli_batch_entry(b, &e, w->own[i], NULL);
            continue;
        }
        qg_diags_take(b->diags, w->own[i]);
        cli_batch_des_map(b, w->rt, def, b->opts->seed);
    }
}

/* ---- F:/D:, hubs, pictures ---------------------------------------------- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The one level of a file (a hub's --quest). */
static void one_level(cli_batch *b, const qg_input *input)
{
    qg_diags *run = qg_diags_new();
    if (!run)
        return;
    cli_source s;
    qg_level *level = NULL;
    if (cli_source_open(&s, b->opts, b->command, input, 0, run) == 0)
        cli_source_level(&s, b->opts->seed, &level, run);
    const char *name = level ? qg_level_get_property(level, "name") : NULL;
    cli_entry e = {name && *name ? name : base_name(input->path), input->path, 0, level, NULL,
                   NULL, NULL, NULL, NULL};
    cli_batch_entry(b, &e, run, NULL);
    cli_source_close(&s);
    qg_diags_free(run);
}

typedef struct hub_walk {
    cli_batch *b;
    const char *path;
    const qg_fd_options *options;
} hub_walk;

static void one_quest(void *user, const qg_fd_hub_quest *q)
{
    hub_walk *w = user;
    if (enough(w->b))
        return;
    qg_diags *run = qg_diags_new();
    if (!run)
        return;
    qg_level *level = NULL;
    qg_fd_load_quest(w->path, q->number, w->options, w->b->opts->vars, &level, run);
    char name[200];
    snprintf(name, sizeof name, "quest %d%s%s", q->number, q->name ? ": " : "",
             q->name ? q->name : "");
    cli_entry e = {name, q->file ? q->file : w->path, 0, level, NULL, NULL, NULL, NULL, NULL};
    cli_batch_entry(w->b, &e, run, NULL);
    qg_diags_free(run);
}

/* Every quest of a hub, each loaded through it as the game loads it. */
static void hub_quests(cli_batch *b, const qg_input *input)
{
    qg_diags *run = qg_diags_new();
    cli_fd fd = {.vocab = NULL, .dir = NULL};
    if (!run)
        return;
    int ok = cli_fd_setup(b->opts, input->path, &fd, run) == 0;
    if (ok) {
        cli_check_vars(b->opts, fd.options.dialect, run);
        qg_diags_take(b->diags, run);
        qg_diags_clear(run);
        hub_walk w = {b, input->path, &fd.options};
        ok = cli_hub_each(input->path, &fd.options, one_quest, &w, run) == 0;
    }
    if (ok)
        qg_diags_take(b->diags, run);
    else
        file_failed(b, input->path, run);
    cli_fd_free(&fd);
    qg_diags_free(run);
}

/* ---- caches -------------------------------------------------------------- */

/* Whether file holds a map of the batch (--map's, else any). */
static int holds_wanted(const cli_batch *b, const qg_cache *c, size_t file)
{
    for (size_t i = 0; i < qg_cache_map_count(c); i++) {
        const qg_cache_entry *e = qg_cache_entry_at(c, i);
        if (e->file == file && (!b->opts->map || strcmp(e->name, b->opts->map) == 0))
            return 1;
    }
    return 0;
}

/* A cached F:/D: file's map, read with its own directory's vocabulary. */
static void cache_fd(cli_batch *b, const qg_cache *c, size_t file)
{
    const char *path = qg_cache_file_at(c, file)->path;
    cli_fd fd = {.vocab = NULL, .dir = NULL};
    qg_diags *run = qg_diags_new();
    if (!run || cli_fd_setup(b->opts, path, &fd, run) != 0) {
        if (run)
            file_failed(b, path, run);
        qg_diags_free(run);
        return;
    }
    qg_diags_take(b->diags, run);
    qg_cache_resolve_options ro = {b->opts->seed, NULL, NULL, &fd.options, b->opts->vars};
    for (size_t i = 0; i < qg_cache_map_count(c); i++) {
        const qg_cache_entry *e = qg_cache_entry_at(c, i);
        if (e->file != file || (b->opts->map && strcmp(e->name, b->opts->map) != 0))
            continue;
        if (enough(b))
            break;
        qg_diags_clear(run);
        qg_level *level = NULL;
        qg_cache_resolve(c, i, &ro, &level, run);
        cli_entry en = {e->name, path, e->line, level, NULL, NULL, NULL, NULL, NULL};
        cli_batch_entry(b, &en, run, NULL);
    }
    cli_fd_free(&fd);
    qg_diags_free(run);
}

/* A cache's .des files into a world of their own, from their texts. */
static void cache_world(const cli_batch *b, const qg_cache *c, world *w, qg_diags *diags)
{
    for (size_t f = 0; f < qg_cache_file_count(c); f++) {
        if (qg_cache_file_at(c, f)->format != QG_FORMAT_DES)
            continue;
        char *text = NULL;
        size_t len = 0;
        const char *path = qg_cache_file_at(c, f)->path;
        qg_diags *run = qg_diags_new();
        qg_status st = run ? qg_cache_file_text(c, f, &text, &len, run) : QG_ERR_NOMEM;
        des_source *src = world_source(w, path, text, len, 1);
        if (src && st != QG_OK) {
            src->failed = src->added = 1;
            qg_diags_take(src->rest, run);
        }
        qg_diags_free(run);
    }
    load_world(b, w);
    (void)diags;
}

/* Every map of a cache, file by file; its .des maps resolved together. */
static void cache_maps(cli_batch *b, const qg_input *input)
{
    qg_diags *run = qg_diags_new();
    qg_cache *c = NULL;
    world w = {0};
    if (!run)
        return;
    if (qg_cache_open(input->path, NULL, &c, run) != QG_OK || world_open(b, &w, run) != 0) {
        file_failed(b, input->path, run);
        qg_cache_close(c);
        world_free(&w);
        qg_diags_free(run);
        return;
    }
    qg_diags_take(b->diags, run);
    cache_world(b, c, &w, run);
    int found = 0;
    size_t des = 0;
    for (size_t f = 0; f < qg_cache_file_count(c) && !enough(b); f++) {
        int is_des = qg_cache_file_at(c, f)->format == QG_FORMAT_DES;
        des_source *src = is_des ? &w.sources[des++] : NULL;
        if (!holds_wanted(b, c, f))
            continue;
        found = 1;
        if (is_des)
            source_entries(b, &w, src);
        else
            cache_fd(b, c, f);
    }
    if (b->opts->map && !found)
        cli_unknown_cache_map(input->path, b->opts->map, c, b->diags);
    world_free(&w);
    qg_cache_close(c);
    qg_diags_free(run);
}

void cli_batch_add(cli_batch *b, const qg_input *input)
{
    if (input->kind != QG_FILE_DES)
        return;
    if (!b->world && !(b->world = calloc(1, sizeof(world))))
        return;
    world_source(b->world, input->path, NULL, 0, 1);
}

/* The world's source of an input, the world made when the first of them
 * is walked; NULL when the input was not added. */
static des_source *source_of(cli_batch *b, const char *path)
{
    world *w = b->world;
    if (w && !w->rt && world_open(b, w, b->diags) == 0)
        load_world(b, w);
    for (size_t i = 0; w && w->rt && i < w->count; i++)
        if (strcmp(w->sources[i].path, path) == 0)
            return &w->sources[i];
    return NULL;
}

int cli_batch_each_map(cli_batch *b, const char *path, cli_map_fn fn, void *user,
                       qg_diags *diags)
{
    des_source *src = source_of(b, path);
    if (src) {
        qg_diags_take(diags, src->rest);
        qg_diags_clear(src->rest);
    }
    if (!src || src->failed)
        return src && src->unprovided ? 1 : -1;
    world *w = b->world;
    for (size_t i = src->first; i < src->first + src->count; i++)
        fn(user, w->rt, w->defs[i], w->own[i], w->lacks[i]);
    return 0;
}

/* A --map that the one file of a picture does not define: a failed
 * entry naming the file's maps. */
static void unknown_map(cli_batch *b, const world *w, const des_source *src)
{
    qg_diags *run = qg_diags_new();
    const char **names = malloc((src->count + 1) * sizeof *names);
    if (run && names) {
        for (size_t i = 0; i < src->count; i++)
            names[i] = qg_mapdef_name(w->defs[src->first + i]);
        cli_unknown_map(src->path, b->opts->map, names, src->count, run);
    }
    free(names);
    file_failed(b, src->path, run);
    qg_diags_free(run);
}

static void des_input(cli_batch *b, const qg_input *input)
{
    des_source *src = source_of(b, input->path);
    if (src) {
        size_t before = b->resolved + b->described + b->failed;
        source_entries(b, b->world, src);
        if (b->one && b->opts->map && !src->failed &&
            b->resolved + b->described + b->failed == before)
            unknown_map(b, b->world, src);
        return;
    }
    qg_diags *run = qg_diags_new();
    if (run)
        qg_diags_add(run, QG_ERROR, input->path, 0, 0, NULL, 0,
                     "questgrid %s: the file was not given to the batch (cli_batch_add)",
                     b->command);
    file_failed(b, input->path, run);
    qg_diags_free(run);
}

void cli_batch_tell_work(const cli_batch *b)
{
    if (b->opts->verbose && b->world && b->world->rt)
        qg_diags_add(b->diags, QG_NOTE, "", 0, 0, NULL, 0,
                     "questgrid %s: %zu map runs resolved the .des maps (each map's and each "
                     "subvault's every try)", b->command, qg_runtime_map_runs(b->world->rt));
}

void cli_batch_free(cli_batch *b)
{
    if (b->world)
        world_free(b->world);
    free(b->world);
    b->world = NULL;
}

void cli_batch_input(cli_batch *b, const qg_input *input)
{
    switch (input->kind) {
    case QG_FILE_DES:
        des_input(b, input);
        return;
    case QG_FILE_CACHE:
        cache_maps(b, input);
        return;
    case QG_FILE_HUB:
        if (b->opts->quest < 0) {
            hub_quests(b, input);
            return;
        }
        one_level(b, input);
        return;
    default:
        one_level(b, input);
    }
}

int cli_batch_finish(const cli_batch *b, const char *done)
{
    size_t total = b->resolved + b->described + b->failed;
    if (!b->opts->quiet && total > 1) {
        fprintf(stderr, "questgrid %s: %zu maps: %zu %s", b->command, total, b->resolved, done);
        if (b->described)
            fprintf(stderr, ", %zu without a level of their own (said what they are)",
                    b->described);
        if (b->failed)
            fprintf(stderr, ", %zu failed (each said why)", b->failed);
        fputc('\n', stderr);
    }
    return b->failed ? 1 : 0;
}
