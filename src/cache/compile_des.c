/* Compiling .des files on several threads. The threads parse the files
 * between them, once (des_units.c makes that the parse in file order), and
 * each loads the game's Lua library into a runtime of its own. Every
 * runtime then runs every file's global prelude, in file order, so that a
 * map may call the functions of any file. A map's compile-time run reads
 * its own chunks and the globals, never other maps (those are looked up
 * when a level is resolved), so the maps exist once and any runtime may
 * compile any of them: results do not depend on the thread count.
 *
 * Each thread compiles the maps of the files it parsed and only then helps
 * with the others': a map's run rewrites its properties, and memory that
 * another thread allocated is freed under that thread's allocator lock,
 * which costs the two threads more than the run itself. The thread that
 * compiles a file's last map packs the file for the writer and frees it. */
#include "cache/compile.h"
#include "cache/pack.h"
#include "questgrid/lua.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_JOBS = 256 };

typedef struct worker {
    qg_runtime *rt;
    qg_diags *diags;     /* setting the runtime up; preludes (worker > 0) */
    size_t *queue;       /* the maps of the files it parsed, in order */
    size_t head, tail;
    int running;
    pthread_t thread;
} worker;

typedef struct des_unit_state {
    int parsed_by;       /* the worker whose allocator holds the file */
    size_t first, left;  /* its first map; maps not yet compiled */
    int packed;
    qg_status pack_status;
    qgc_packed pack;
} des_unit_state;

typedef struct des_job {
    const qg_compile_options *opt;
    worker *workers;
    int jobs;
    qgc_des_unit *units; /* the .des inputs in input order */
    des_unit_state *state;
    size_t unit_count;
    qg_mapdef **maps;    /* every map, file after file */
    size_t *map_unit;
    qg_status *map_status;
    qg_diags **map_diags;
    size_t map_count;
    pthread_mutex_t lock;
    pthread_cond_t stage_changed;
    int running;         /* workers that run (threads that started) */
    int arrived;         /* workers that finished parsing */
    int preluded;        /* workers that ran every prelude */
    int stage;           /* 0: parsing; 1: compiling; -1: stop */
    qg_status setup_status;
    size_t next, done;
} des_job;

typedef struct worker_arg {
    des_job *job;
    int id;
} worker_arg;

/* ---- stage 0: runtimes and the parse ------------------------------------ */

static void set_up(des_job *job, int id)
{
    worker *wk = &job->workers[id];
    qg_runtime_options ro = {job->opt->lua_paths, job->opt->lua_path_count, 0, 0, NULL};
    wk->rt = qg_runtime_new(&ro, wk->diags);
    for (;;) {
        pthread_mutex_lock(&job->lock);
        size_t f = job->next++;
        pthread_mutex_unlock(&job->lock);
        if (f >= job->unit_count)
            return;
        qgc_des_unit_parse(&job->units[f]);
        job->state[f].parsed_by = id;
    }
}

/* The maps of every parsed file, in file order, each queued for the
 * worker that parsed its file. */
static qg_status list_maps(des_job *job)
{
    size_t total = 0;
    for (size_t f = 0; f < job->unit_count; f++)
        total += job->units[f].file ? qg_des_map_count(job->units[f].file) : 0;
    job->maps = malloc((total + 1) * sizeof *job->maps);
    job->map_unit = malloc((total + 1) * sizeof *job->map_unit);
    job->map_status = malloc((total + 1) * sizeof *job->map_status);
    job->map_diags = calloc(total + 1, sizeof *job->map_diags);
    for (int i = 0; i < job->jobs; i++)
        if (job->workers[i].running &&
            !(job->workers[i].queue = malloc((total + 1) * sizeof(size_t))))
            return QG_ERR_NOMEM;
    if (!job->maps || !job->map_unit || !job->map_status || !job->map_diags)
        return QG_ERR_NOMEM;
    for (size_t f = 0; f < job->unit_count; f++) {
        const qg_des_file *file = job->units[f].file;
        des_unit_state *s = &job->state[f];
        s->first = job->map_count;
        s->left = file ? qg_des_map_count(file) : 0;
        worker *owner = &job->workers[s->parsed_by];
        for (size_t i = 0; i < s->left; i++) {
            job->map_unit[job->map_count] = f;
            owner->queue[owner->tail++] = job->map_count;
            job->maps[job->map_count++] = qg_des_map(file, i);
        }
    }
    return QG_OK;
}

/* Once every worker has parsed: the runtimes must exist, the parse
 * becomes the one in file order (a file parsed again is held by this
 * thread, worker 0), and the maps are queued. */
static qg_status settle(des_job *job)
{
    for (int i = 0; i < job->jobs; i++)
        if (job->workers[i].running && !job->workers[i].rt)
            return QG_ERR_LUA;   /* the game's Lua library failed: the diagnostics say why */
    qg_status st = qgc_des_settle(job->units, job->unit_count);
    for (size_t f = 0; f < job->unit_count; f++) {
        if (job->units[f].status == QG_ERR_NOMEM)
            st = QG_ERR_NOMEM;
        if (job->units[f].reparsed)
            job->state[f].parsed_by = 0;
    }
    return st == QG_OK ? list_maps(job) : st;
}

/* Workers wait here for the stage that follows the parse; worker 0 makes
 * it. Returns 1 when the maps are to be compiled. */
static int next_stage(des_job *job, int id)
{
    pthread_mutex_lock(&job->lock);
    job->arrived++;
    if (id == 0) {
        while (job->arrived < job->running)
            pthread_cond_wait(&job->stage_changed, &job->lock);
        pthread_mutex_unlock(&job->lock);
        qg_status st = settle(job);
        pthread_mutex_lock(&job->lock);
        job->setup_status = st;
        job->stage = st == QG_OK ? 1 : -1;
        pthread_cond_broadcast(&job->stage_changed);
    } else {
        pthread_cond_broadcast(&job->stage_changed);
        while (job->stage == 0)
            pthread_cond_wait(&job->stage_changed, &job->lock);
    }
    int go = job->stage == 1;
    pthread_mutex_unlock(&job->lock);
    return go;
}

/* ---- stage 1: preludes, maps, packing ------------------------------------ */

/* Worker 0's prelude reports go with their file's; the other runtimes
 * run the same preludes and would only repeat them. */
static void run_preludes(des_job *job, int id)
{
    worker *wk = &job->workers[id];
    for (size_t f = 0; f < job->unit_count; f++) {
        qgc_des_unit *u = &job->units[f];
        if (!u->file)
            continue;
        qg_status st = qg_runtime_run_prelude(wk->rt, u->file, id == 0 ? u->diags : wk->diags);
        if (id == 0 && u->status == QG_OK)
            u->status = st;
    }
}

/* The next map of the worker's own files, else the last one queued for
 * the worker with the most left (called with the lock held). */
static int take_map(des_job *job, int id, size_t *j)
{
    worker *own = &job->workers[id];
    if (own->head < own->tail) {
        *j = own->queue[own->head++];
        return 1;
    }
    worker *most = NULL;
    for (int i = 0; i < job->jobs; i++) {
        worker *w = &job->workers[i];
        if (w->running && w->head < w->tail && (!most || w->tail - w->head > most->tail - most->head))
            most = w;
    }
    if (!most)
        return 0;
    *j = most->queue[--most->tail];
    return 1;
}

/* Packs a file whose maps have all run (those that failed are left out)
 * and frees its parse, once no worker reads its prelude any more. */
static void pack_unit(des_job *job, size_t f)
{
    qgc_des_unit *u = &job->units[f];
    des_unit_state *s = &job->state[f];
    size_t count = u->file ? qg_des_map_count(u->file) : 0, n = 0;
    const qg_mapdef **defs = malloc((count + 1) * sizeof *defs);
    if (defs) {
        for (size_t i = 0; i < count; i++)
            if (job->map_status[s->first + i] == QG_OK)
                defs[n++] = job->maps[s->first + i];
        const qgc_input *item = u->input;
        qg_cache_source src = {item->path, QG_FORMAT_DES, item->data, item->len,
                               item->mtime_sec, item->mtime_nsec};
        s->pack_status = qgc_pack_source(&src, defs, n, &s->pack);
    } else {
        s->pack_status = QG_ERR_NOMEM;
    }
    free(defs);
    s->packed = 1;
    pthread_mutex_lock(&job->lock);
    while (job->preluded < job->running)
        pthread_cond_wait(&job->stage_changed, &job->lock);
    pthread_mutex_unlock(&job->lock);
    qg_des_file_free(u->file);
    u->file = NULL;
}

static void compile_maps(des_job *job, int id)
{
    worker *wk = &job->workers[id];
    for (;;) {
        size_t j;
        pthread_mutex_lock(&job->lock);
        int have = take_map(job, id, &j) && !(job->opt->cancel && *job->opt->cancel);
        pthread_mutex_unlock(&job->lock);
        if (!have)
            return;
        qg_diags *md = qg_diags_new();
        qg_status st = md ? qg_runtime_compile_map(wk->rt, job->maps[j], md) : QG_ERR_NOMEM;
        pthread_mutex_lock(&job->lock);
        job->map_status[j] = st;
        job->map_diags[j] = md;
        job->done++;
        if (job->opt->progress)
            job->opt->progress(job->opt->user, job->done, job->map_count);
        int last = --job->state[job->map_unit[j]].left == 0;
        pthread_mutex_unlock(&job->lock);
        if (last)
            pack_unit(job, job->map_unit[j]);
    }
}

static void *run_worker(void *p)
{
    worker_arg *arg = p;
    set_up(arg->job, arg->id);
    if (next_stage(arg->job, arg->id)) {
        run_preludes(arg->job, arg->id);
        pthread_mutex_lock(&arg->job->lock);
        arg->job->preluded++;
        pthread_cond_broadcast(&arg->job->stage_changed);
        pthread_mutex_unlock(&arg->job->lock);
        compile_maps(arg->job, arg->id);
    }
    /* done with its runtime: freed here, in parallel with the others */
    qg_runtime_free(arg->job->workers[arg->id].rt);
    arg->job->workers[arg->id].rt = NULL;
    return NULL;
}

/* ---- the whole --------------------------------------------------------- */

/* Hands the packed files to the writer in file order (a file without maps
 * is packed here) and counts the maps left out. */
static qg_status collect(des_job *job, qg_cache_writer *w, qg_compile_stats *stats,
                         qg_diags *diags)
{
    qg_status st = QG_OK;
    for (size_t f = 0; f < job->unit_count && st == QG_OK; f++) {
        des_unit_state *s = &job->state[f];
        if (!s->packed)
            pack_unit(job, f);
        qgc_input *item = job->units[f].input;
        st = s->pack_status;
        if (st == QG_OK)
            st = qgc_writer_add_packed(w, &s->pack, diags);
        else
            qg_diags_add(diags, QG_ERROR, item->path, 0, 0, NULL, 0, "out of memory");
        stats->files++;
        stats->source_bytes += item->len;
        free(item->data);
        item->data = NULL;
    }
    for (size_t j = 0; j < job->map_count; j++)
        stats->failed += job->map_status[j] != QG_OK;
    return st;
}

static qg_status start_job(des_job *job, qgc_inputs *in)
{
    job->workers = calloc((size_t)job->jobs, sizeof *job->workers);
    job->units = calloc(in->count + 1, sizeof *job->units);
    job->state = calloc(in->count + 1, sizeof *job->state);
    if (!job->workers || !job->units || !job->state)
        return QG_ERR_NOMEM;
    for (int i = 0; i < job->jobs; i++)
        if (!(job->workers[i].diags = qg_diags_new()))
            return QG_ERR_NOMEM;
    for (size_t f = 0; f < in->count; f++)
        if (in->items[f].format == QG_FORMAT_DES)
            job->units[job->unit_count++].input = &in->items[f];
    return QG_OK;
}

/* Worker 0 runs on this thread; a worker whose thread cannot start is
 * left out. */
static void run_workers(des_job *job)
{
    worker_arg args[MAX_JOBS];
    job->workers[0].running = 1;
    job->running = 1;
    for (int i = 1; i < job->jobs; i++) {
        args[i] = (worker_arg){job, i};
        job->workers[i].running =
            pthread_create(&job->workers[i].thread, NULL, run_worker, &args[i]) == 0;
        job->running += job->workers[i].running;
    }
    args[0] = (worker_arg){job, 0};
    run_worker(&args[0]);
    for (int i = 1; i < job->jobs; i++)
        if (job->workers[i].running)
            pthread_join(job->workers[i].thread, NULL);
}

static void job_free(des_job *job)
{
    for (int i = 0; job->workers && i < job->jobs; i++) {
        qg_runtime_free(job->workers[i].rt);
        qg_diags_free(job->workers[i].diags);
        free(job->workers[i].queue);
    }
    for (size_t f = 0; f < job->unit_count; f++) {
        qgc_des_unit_free(&job->units[f]);
        qgc_packed_free(&job->state[f].pack);
    }
    for (size_t j = 0; job->map_diags && j < job->map_count; j++)
        qg_diags_free(job->map_diags[j]);
    free(job->workers);
    free(job->units);
    free(job->state);
    free(job->maps);
    free(job->map_unit);
    free(job->map_status);
    free(job->map_diags);
    pthread_mutex_destroy(&job->lock);
    pthread_cond_destroy(&job->stage_changed);
}

/* Errors in files are not fatal: the last one is the status. */
static qg_status last_failure(const des_job *job)
{
    qg_status worst = QG_OK;
    for (size_t f = 0; f < job->unit_count; f++)
        if (job->units[f].status != QG_OK)
            worst = job->units[f].status;
    return worst;
}

qg_status qgc_compile_des(qgc_inputs *in, const qg_compile_options *opt,
                          qg_cache_writer *w, qg_compile_stats *stats, int *fatal,
                          qg_diags *diags)
{
    des_job job;
    memset(&job, 0, sizeof job);
    job.opt = opt;
    job.jobs = opt->jobs < 1 ? 1 : opt->jobs > MAX_JOBS ? MAX_JOBS : opt->jobs;
    pthread_mutex_init(&job.lock, NULL);
    pthread_cond_init(&job.stage_changed, NULL);
    qg_status st = start_job(&job, in);
    if (st == QG_OK) {
        run_workers(&job);
        qgc_diags_merge(diags, job.workers[0].diags);
        st = job.setup_status;
    }
    if (st == QG_OK) {
        for (size_t f = 0; f < job.unit_count; f++)
            qgc_diags_merge(diags, job.units[f].diags);
        for (size_t j = 0; j < job.map_count; j++)
            qgc_diags_merge(diags, job.map_diags[j]);
        if (opt->cancel && *opt->cancel)
            st = QG_ERR_IO;
    }
    qg_status loaded = st == QG_OK ? last_failure(&job) : st;
    if (st == QG_OK)
        st = collect(&job, w, stats, diags);
    *fatal = st != QG_OK;
    if (st == QG_OK && loaded != QG_OK)
        st = loaded;
    if (st == QG_OK && stats->failed)
        st = QG_ERR_LUA;
    if (st == QG_ERR_NOMEM)
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0, "out of memory");
    job_free(&job);
    return st;
}
