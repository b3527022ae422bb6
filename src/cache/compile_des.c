/* Compiling .des files on the run's threads, each thread with a runtime
 * of its own (the game's Lua library loaded once), the files handed out
 * largest first.
 *
 * Crawl's compiler reads the files one after another in one Lua state: a
 * file's global prelude runs when its parser reaches its first map, and
 * each map is validated as it is read, so a map sees the globals of its
 * own file and of the files before it, never those of a later file. Here
 * a thread returns its runtime to the state the library left before each
 * file (qg_runtime_restore) and runs the preludes of the .des files before
 * it (kept compiled, so a run costs no compile) and then the file's own:
 * a file's maps see what Crawl's would, and what one file's Lua changes
 * reaches no other file, so the cache is the same for any number of
 * threads. A prelude that runs out of its instruction budget defines
 * nothing for the files after it (it is not run for each of them again).
 *
 * Each file is added to the writer once compiled, at its place in file
 * order. What a file reports is taken in in file order, and so are its
 * map names: a file is parsed with a table of its own names only, and
 * when one of them was defined by a file before it, the file is compiled
 * again on the thread taking it in, with the table of every earlier
 * file's names, for Crawl's report of the name given twice (its cache
 * entries are the same either way). */
#include "cache/compile.h"
#include "cache/previous.h"
#include "core/file.h"
#include "core/buf.h"
#include "core/diag.h"
#include "des/scan.h"
#include "questgrid/lua.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A compiled file's report, kept until the files before it are taken in. */
typedef struct unit {
    int done;
    qg_diags *diags;
    qg_status file_status;   /* an error in the file: its parse or prelude */
    qg_status fatal;         /* a failure of the whole compile */
    size_t failed;           /* maps whose Lua failed */
    char **names;            /* every map's name as parsed, and its line */
    int *lines;
    size_t name_count;
} unit;

typedef struct worker {
    qg_runtime *rt;
    char *spent;             /* per input: its prelude ran out of its budget */
    qg_buf prelude;          /* a prelude's code read from the store */
} worker;

typedef struct des_run {
    qgc_run *run;
    qgc_inputs *in;
    const qgc_preludes *store;
    pthread_mutex_t lock;
    size_t *order;           /* the .des inputs, largest first */
    size_t order_count, next;
    size_t *place;           /* per input: its place in the writer */
    unit *units;             /* per input */
    size_t commit;           /* the next input to take in */
    qg_des_names *names;     /* the names of the files taken in */
    worker *workers;
    int stop;                /* a failure of the whole compile */
    qg_status fatal;
    qg_status worst;         /* the last error of a file taken in */
} des_run;

static int map_error(qg_status st)
{
    return st == QG_ERR_PARSE || st == QG_ERR_LUA || st == QG_ERR_LIMIT;
}

static void unit_free(unit *u)
{
    qg_diags_free(u->diags);
    for (size_t i = 0; i < u->name_count; i++)
        free(u->names[i]);
    free(u->names);
    free(u->lines);
    memset(u, 0, sizeof *u);
}

/* ---- the preludes of the files before ------------------------------------ */

/* Parses text as input j from its start state into wk->prelude; 1 when
 * its prelude has the hash the scan found. */
static int parse_prelude(des_run *dr, worker *wk, size_t j, const char *text, size_t len,
                         int *line)
{
    const qgc_input *item = &dr->in->items[j];
    qg_des_names *names = qg_des_names_new();
    qg_des_file *file = NULL;
    if (names) {
        des_names_set_state(names, item->start_state);
        des_skim(item->io_path, text, len, names, &file);
    }
    const qg_des_chunk *prelude = file ? qg_des_global_prelude(file) : NULL;
    int found = prelude && prelude->len &&
                qgc_prelude_hash(prelude) == item->prelude_hash;
    qg_buf_reset(&wk->prelude);
    if (found) {
        qg_buf_append(&wk->prelude, prelude->code, prelude->len);
        *line = prelude->first_line;
        found = !wk->prelude.failed;
    }
    qg_des_file_free(file);
    qg_des_names_free(names);
    return found;
}

/* Input j's prelude into wk->prelude: from the store, else (a file the
 * scan found unchanged) from its context in the previous cache, else from
 * the file. */
static qg_status earlier_prelude(des_run *dr, worker *wk, size_t j, int *line)
{
    qgc_input *item = &dr->in->items[j];
    qg_buf_reset(&wk->prelude);
    if (item->prelude.len) {
        *line = item->prelude_line;
        if (!qg_buf_reserve(&wk->prelude, item->prelude.len))
            return QG_ERR_NOMEM;
        if (!qgc_spill_read(&dr->store->store, item->prelude.at, wk->prelude.data,
                            item->prelude.len))
            return QG_ERR_IO;
        wk->prelude.len = item->prelude.len;
        return QG_OK;
    }
    unsigned char *context = NULL;
    size_t len = 0;
    int found = qgc_previous_context(dr->run->previous, item->previous, &context, &len,
                                     NULL) == QG_OK &&
                parse_prelude(dr, wk, j, (const char *)context, len, line);
    free(context);
    char *data = NULL;
    if (!found && qg_read_file(item->io_path, QG_MAX_TEXT_FILE, &data, &len, NULL) == QG_OK)
        found = parse_prelude(dr, wk, j, data, len, line);
    free(data);
    return found ? QG_OK : QG_ERR_IO;
}

/* Runs prelude j, read the first time this runtime runs it. */
static qg_status run_earlier_prelude(des_run *dr, worker *wk, size_t j)
{
    qg_status st = qg_runtime_run_kept_prelude(wk->rt, j, NULL, NULL);
    if (st != QG_ERR_NOTFOUND)
        return st;
    const qgc_input *item = &dr->in->items[j];
    int line = 0;
    st = earlier_prelude(dr, wk, j, &line);
    if (st != QG_OK)
        return st;
    qg_des_chunk chunk = {wk->prelude.data, wk->prelude.len, line, item->io_path};
    return qg_runtime_run_kept_prelude(wk->rt, j, &chunk, NULL);
}

/* The runtime as the library left it, then the preludes of the .des
 * files before input i, in order; their errors are their own files'. */
static qg_status prepare(des_run *dr, worker *wk, size_t i)
{
    for (;;) {
        qg_status st = qg_runtime_restore(wk->rt, NULL);
        int again = 0;
        for (size_t j = 0; j < i && st == QG_OK && !again; j++) {
            const qgc_input *item = &dr->in->items[j];
            if (item->format != QG_FORMAT_DES || !item->prelude_hash || wk->spent[j])
                continue;
            st = run_earlier_prelude(dr, wk, j);
            if (st == QG_ERR_LIMIT) {
                wk->spent[j] = 1;
                again = 1;
            }
            st = st == QG_ERR_NOMEM || st == QG_ERR_IO ? st : QG_OK;
        }
        if (!again || st != QG_OK)
            return st;
    }
}

static qg_runtime *runtime_for(des_run *dr, qg_diags *diags)
{
    const qg_compile_options *opt = dr->run->opt;
    qg_runtime_options ro = {opt->lua_paths, opt->lua_path_count, 0, 0, opt->branches};
    qg_runtime *rt = qg_runtime_new(&ro, diags);
    if (rt && qg_runtime_save(rt, diags) != QG_OK) {
        qg_runtime_free(rt);
        rt = NULL;
    }
    return rt;
}

/* ---- one file ------------------------------------------------------------ */

static int cancelled(const des_run *dr)
{
    volatile sig_atomic_t *cancel = dr->run->opt->cancel;
    return cancel && *cancel;
}

/* Runs every map of the file; the ones that compiled go in defs[0..*n),
 * and with keep_going the ones whose Lua failed too, as skipped entries. */
static qg_status run_maps(des_run *dr, worker *wk, qg_des_file *file, const qg_mapdef **defs,
                          size_t *n, unit *u)
{
    size_t count = file ? qg_des_map_count(file) : 0;
    qg_diags *map = qg_diags_new();
    qg_status st = map ? QG_OK : QG_ERR_NOMEM;
    *n = 0;
    for (size_t i = 0; st == QG_OK && i < count; i++) {
        if (cancelled(dr)) {
            st = QG_ERR_IO;
            break;
        }
        qg_mapdef *def = qg_des_map(file, i);
        qg_diags_clear(map);
        qg_status ms = qg_runtime_compile_map(wk->rt, def, map);
        qg_diags_take(u->diags, map);
        if (ms == QG_OK) {
            defs[(*n)++] = def;
        } else if (map_error(ms)) {
            u->failed++;
            if (dr->run->opt->keep_going && (st = qgc_mark_skipped(def, map)) == QG_OK)
                defs[(*n)++] = def;
        } else {
            st = ms;
        }
    }
    qg_diags_free(map);
    return st;
}

/* Every map's name and line, for the check against the earlier files. */
static qg_status keep_names(const qg_des_file *file, unit *u)
{
    size_t count = file ? qg_des_map_count(file) : 0;
    u->names = calloc(count + 1, sizeof *u->names);
    u->lines = calloc(count + 1, sizeof *u->lines);
    if (!u->names || !u->lines)
        return QG_ERR_NOMEM;
    for (size_t i = 0; i < count; i++) {
        const qg_mapdef *def = qg_des_map(file, i);
        if (!(u->names[i] = qg_strdup(qg_mapdef_name(def))))
            return QG_ERR_NOMEM;
        u->lines[i] = qg_mapdef_line(def);
        u->name_count++;
    }
    return QG_OK;
}

/* Parses the read file with names, runs its prelude and maps, and packs
 * it. */
static qg_status compile_text(des_run *dr, worker *wk, size_t i, qg_des_names *names,
                              unit *u, qgc_packed *packed)
{
    qgc_input *item = &dr->in->items[i];
    qg_des_file *file = NULL;
    u->file_status = qg_des_parse(item->io_path, item->data, item->len, NULL, names, &file,
                                  u->diags);
    qg_status st = u->file_status == QG_ERR_NOMEM ? QG_ERR_NOMEM : keep_names(file, u);
    const qg_des_chunk *prelude = file ? qg_des_global_prelude(file) : NULL;
    if (st == QG_OK && prelude && prelude->len) {
        qg_status ps = qg_runtime_run_kept_prelude(wk->rt, i, prelude, u->diags);
        if (ps == QG_ERR_NOMEM)
            st = ps;
        else if (u->file_status == QG_OK)
            u->file_status = ps;
    }
    size_t count = file ? qg_des_map_count(file) : 0, n = 0;
    const qg_mapdef **defs = st == QG_OK ? malloc((count + 1) * sizeof *defs) : NULL;
    if (st == QG_OK && !defs)
        st = QG_ERR_NOMEM;
    if (st == QG_OK)
        st = run_maps(dr, wk, file, defs, &n, u);
    if (st == QG_OK) {
        qg_cache_source src = {item->path, QG_FORMAT_DES, item->data, item->len,
                               item->mtime_sec, item->mtime_nsec};
        st = qgc_pack_source(&src, defs, n, packed);
        if (st != QG_OK)
            qg_diags_add(u->diags, QG_ERROR, item->path, 0, 0, NULL, 0, "out of memory");
        int clean = u->file_status == QG_OK && !u->failed;
        packed->file.meta.reuse = (qgc_reuse){clean ? item->key : 0, item->prelude_hash,
                                              item->start_state, item->end_state};
    }
    free(defs);
    qg_des_file_free(file);
    return st;
}

/* Compiles input i into *packed, parsing it with names (set to the state
 * the file before left); a failure of the whole compile is returned. */
static qg_status compile_file(des_run *dr, worker *wk, size_t i, qg_des_names *names, unit *u,
                              qgc_packed *packed)
{
    qgc_input *item = &dr->in->items[i];
    memset(packed, 0, sizeof *packed);
    des_names_set_state(names, item->start_state);
    if (!wk->rt) {
        qg_diags *ignored = qg_diags_new();
        wk->rt = runtime_for(dr, ignored);
        qg_diags_free(ignored);
        if (!wk->rt)
            return QG_ERR_LUA;
    }
    qg_status st = cancelled(dr) ? QG_ERR_IO : prepare(dr, wk, i);
    if (st == QG_OK)
        st = qgc_read_input(item, u->diags);
    if (st == QG_OK)
        st = compile_text(dr, wk, i, names, u, packed);
    qgc_input_drop(item);
    return st;
}

/* Input i's entries as the previous cache holds them, and its names. */
static qg_status unpack(des_run *dr, size_t i, unit *u, qgc_packed *packed)
{
    const qgc_input *item = &dr->in->items[i];
    qg_cache_file now = {item->path, QG_FORMAT_DES, 0, item->mtime_sec, item->mtime_nsec, 0, 0};
    qg_status st = qgc_previous_unpack(dr->run->previous, item->previous, &now, packed,
                                       u->diags);
    if (st == QG_OK)
        st = qgc_previous_names(dr->run->previous, item->previous, &u->names, &u->lines,
                                &u->name_count);
    return st;
}

/* ---- taking files in, in file order ------------------------------------- */

static void account(des_run *dr, size_t i, unit *u)
{
    qg_compile_stats *stats = dr->run->stats;
    qg_diags_take(dr->run->diags, u->diags);
    stats->files++;
    stats->reused += dr->in->items[i].reused;
    stats->source_bytes += dr->in->items[i].size;
    stats->failed += u->failed;
    if (u->file_status != QG_OK)
        dr->worst = u->file_status;
    qgc_file_done(dr->run);
}

/* 1 when one of u's names was defined by an earlier file; -1 on no
 * memory. */
static int defined_before(des_run *dr, const unit *u)
{
    for (size_t k = 0; k < u->name_count; k++) {
        const char *file;
        int line;
        int seen = des_names_find(dr->names, u->names[k], &file, &line);
        if (seen)
            return seen;
    }
    return 0;
}

static qg_status add_names(des_run *dr, size_t i, const unit *u)
{
    for (size_t k = 0; k < u->name_count; k++) {
        const char *file;
        int line;
        int seen = des_names_find(dr->names, u->names[k], &file, &line);
        if (seen < 0 ||
            (!seen && !des_names_add(dr->names, u->names[k], dr->in->items[i].io_path,
                                      u->lines[k])))
            return QG_ERR_NOMEM;
    }
    return QG_OK;
}

/* The file compiled again with every earlier file's names, for what its
 * parse reports; its cache entries are the ones already added. */
static qg_status recompile(des_run *dr, worker *wk, size_t i, unit *u)
{
    unit again = {0};
    again.diags = qg_diags_new_like(dr->run->diags);
    if (!again.diags)
        return QG_ERR_NOMEM;
    qgc_packed packed;
    qg_status st = compile_file(dr, wk, i, dr->names, &again, &packed);
    qgc_packed_free(&packed);
    unit_free(u);
    *u = again;
    return st;
}

/* Takes in every compiled file whose turn has come; with the lock. */
static void take_in(des_run *dr, worker *wk)
{
    while (dr->commit < dr->in->count && !dr->stop) {
        size_t i = dr->commit;
        unit *u = &dr->units[i];
        if (dr->in->items[i].format != QG_FORMAT_DES) {
            dr->commit++;
            continue;
        }
        if (!u->done)
            return;
        qg_status st = u->fatal;
        int before = st == QG_OK ? defined_before(dr, u) : 0;
        if (before < 0)
            st = QG_ERR_NOMEM;
        else if (before > 0)
            st = recompile(dr, wk, i, u);
        else if (st == QG_OK)
            st = add_names(dr, i, u);
        if (st != QG_OK) {
            u->fatal = st;
            dr->stop = 1;
            return;
        }
        account(dr, i, u);
        unit_free(u);
        dr->commit++;
    }
}

/* ---- the threads ------------------------------------------------------- */

/* Compiles input i on wk and adds it to the writer; with the lock held
 * only for the adding. */
static void compile_turn(des_run *dr, worker *wk, size_t i)
{
    unit u = {0};
    u.diags = qg_diags_new_like(dr->run->diags);
    qg_des_names *own = qg_des_names_new();
    qgc_packed packed;
    memset(&packed, 0, sizeof packed);
    if (!u.diags || !own)
        u.fatal = QG_ERR_NOMEM;
    if (!u.fatal)
        u.fatal = dr->in->items[i].reused ? unpack(dr, i, &u, &packed)
                                          : compile_file(dr, wk, i, own, &u, &packed);
    qg_des_names_free(own);
    pthread_mutex_lock(&dr->lock);
    if (!u.fatal)
        u.fatal = qgc_writer_add_packed_at(dr->run->w, &packed, dr->place[i], u.diags);
    else
        qgc_packed_free(&packed);
    u.done = 1;
    dr->units[i] = u;
    if (u.fatal)
        dr->stop = 1;
    take_in(dr, wk);
    pthread_mutex_unlock(&dr->lock);
}

static void des_turn(void *user, int k)
{
    des_run *dr = user;
    worker *wk = &dr->workers[k];
    for (;;) {
        pthread_mutex_lock(&dr->lock);
        int stop = dr->stop || dr->next >= dr->order_count;
        size_t i = stop ? 0 : dr->order[dr->next++];
        pthread_mutex_unlock(&dr->lock);
        if (stop)
            return;
        compile_turn(dr, wk, i);
    }
}

/* ---- the whole ----------------------------------------------------------- */

typedef struct by_size {
    int reused;
    uint64_t size;
    size_t input;
} by_size;

/* The files to compile, largest first, then those whose entries are
 * reused (quick to unpack): the longest runs start first. */
static int largest_first(const void *a, const void *b)
{
    const by_size *x = a, *y = b;
    if (x->reused != y->reused)
        return x->reused - y->reused;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return (x->input > y->input) - (x->input < y->input);
}

/* The .des inputs in the order they are handed out, and the writer's
 * places reserved for them in file order. */
static qg_status plan(des_run *dr)
{
    qgc_inputs *in = dr->in;
    dr->order = malloc((in->count + 1) * sizeof *dr->order);
    dr->place = calloc(in->count + 1, sizeof *dr->place);
    dr->units = calloc(in->count + 1, sizeof *dr->units);
    by_size *sizes = malloc((in->count + 1) * sizeof *sizes);
    qg_status st = dr->order && dr->place && dr->units && sizes ? QG_OK : QG_ERR_NOMEM;
    size_t first = qgc_writer_file_count(dr->run->w);
    for (size_t i = 0; st == QG_OK && i < in->count; i++)
        if (in->items[i].format == QG_FORMAT_DES) {
            dr->place[i] = first + dr->order_count;
            sizes[dr->order_count++] = (by_size){in->items[i].reused, in->items[i].size, i};
        }
    if (st == QG_OK) {
        qsort(sizes, dr->order_count, sizeof *sizes, largest_first);
        for (size_t k = 0; k < dr->order_count; k++)
            dr->order[k] = sizes[k].input;
        st = qgc_writer_reserve(dr->run->w, dr->order_count);
    }
    free(sizes);
    return st;
}

static qg_status start_workers(des_run *dr, int count)
{
    dr->workers = calloc((size_t)count, sizeof *dr->workers);
    if (!dr->workers)
        return QG_ERR_NOMEM;
    for (int k = 0; k < count; k++) {
        qg_buf_init(&dr->workers[k].prelude);
        dr->workers[k].spent = calloc(dr->in->count + 1, 1);
        if (!dr->workers[k].spent)
            return QG_ERR_NOMEM;
    }
    /* the first runtime here, so that what loading the library says is
     * said once (and not at all when every file is reused) */
    size_t compiled = 0;
    for (size_t i = 0; i < dr->in->count; i++)
        compiled += dr->in->items[i].format == QG_FORMAT_DES && !dr->in->items[i].reused;
    if (!compiled)
        return QG_OK;
    dr->workers[0].rt = runtime_for(dr, dr->run->diags);
    return dr->workers[0].rt ? QG_OK : QG_ERR_LUA;
}

static void stop_workers(des_run *dr, int count)
{
    for (int k = 0; dr->workers && k < count; k++) {
        qg_runtime_free(dr->workers[k].rt);
        free(dr->workers[k].spent);
        qg_buf_free(&dr->workers[k].prelude);
    }
    free(dr->workers);
}

/* After a failure: what the files compiled and not taken in reported, in
 * file order, the failing one among them. */
static qg_status report_rest(des_run *dr)
{
    qg_status st = QG_OK;
    for (size_t i = dr->commit; i < dr->in->count; i++) {
        unit *u = &dr->units[i];
        if (!u->done)
            continue;
        qg_diags_take(dr->run->diags, u->diags);
        if (st == QG_OK)
            st = u->fatal;
        unit_free(u);
    }
    return st;
}

qg_status qgc_compile_des(qgc_inputs *in, qgc_run *run, const qgc_preludes *store,
                          int *fatal)
{
    *fatal = 0;
    des_run dr;
    memset(&dr, 0, sizeof dr);
    dr.run = run;
    dr.in = in;
    dr.store = store;
    pthread_mutex_init(&dr.lock, NULL);
    qg_status st = plan(&dr);
    int jobs = run->jobs < (int)dr.order_count ? run->jobs : (int)dr.order_count;
    dr.names = dr.order_count ? qg_des_names_new() : NULL;
    if (st == QG_OK && dr.order_count && !dr.names)
        st = QG_ERR_NOMEM;
    if (st == QG_OK && dr.order_count)
        st = start_workers(&dr, jobs);
    if (st == QG_OK && dr.order_count)
        qgc_run_threads(jobs, des_turn, &dr);
    if (st == QG_OK && dr.stop)
        st = report_rest(&dr);
    stop_workers(&dr, jobs);
    qg_des_names_free(dr.names);
    for (size_t i = 0; dr.units && i < in->count; i++)
        unit_free(&dr.units[i]);
    free(dr.units);
    free(dr.order);
    free(dr.place);
    pthread_mutex_destroy(&dr.lock);
    if (st == QG_OK && cancelled(&dr))
        st = QG_ERR_IO;
    *fatal = st != QG_OK;
    if (st == QG_ERR_NOMEM)
        qg_diags_add(run->diags, QG_ERROR, "", 0, 0, NULL, 0, "out of memory");
    if (st == QG_OK)
        st = dr.worst != QG_OK ? dr.worst : run->stats->failed ? QG_ERR_LUA : QG_OK;
    return st;
}
