/* Compiling .des files on several threads. Maps may look up maps of any
 * other file (subvaults by tag, for instance), so each thread loads every
 * file into a runtime of its own before any map runs; the threads then
 * share the maps out one at a time, and each map's result is taken from the
 * runtime that compiled it. Results do not depend on the thread count. */
#include "cache/compile.h"
#include "questgrid/des.h"
#include "questgrid/lua.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct worker {
    qg_runtime *rt;
    qg_diags *diags;     /* loading problems (kept from worker 0 only) */
    size_t *first;       /* first runtime map of each input; [count] = total */
    qg_status status;
} worker;

typedef struct des_job {
    qgc_inputs *in;
    const qg_compile_options *opt;
    worker *workers;
    pthread_mutex_t lock;
    size_t next, done;
    int *owner;          /* per map: the worker that compiled it, or -1 */
    qg_diags **map_diags;
} des_job;

static qg_status load_all(des_job *job, worker *wk)
{
    qg_runtime_options ro = {job->opt->lua_paths, job->opt->lua_path_count, 0, 0};
    wk->rt = qg_runtime_new(&ro, wk->diags);
    if (!wk->rt)   /* the game's Lua library failed: the diagnostics say why */
        return QG_ERR_LUA;
    qg_des_names *names = qg_des_names_new();
    if (!names)
        return QG_ERR_NOMEM;
    qg_status worst = QG_OK;
    for (size_t f = 0; f < job->in->count; f++) {
        const qgc_input *item = &job->in->items[f];
        wk->first[f] = qg_runtime_map_count(wk->rt);
        if (item->format != QG_FORMAT_DES)
            continue;
        qg_des_file *file = NULL;
        qg_status st = qg_des_parse(item->io_path, item->data, item->len, NULL, names,
                                    &file, wk->diags);
        if (file) {
            qg_status added = qg_runtime_add_file(wk->rt, file, wk->diags);
            if (st == QG_OK)
                st = added;
        }
        if (st != QG_OK)
            worst = st;
        if (st == QG_ERR_NOMEM)
            break;
    }
    wk->first[job->in->count] = qg_runtime_map_count(wk->rt);
    qg_des_names_free(names);
    return worst;
}

typedef struct worker_arg {
    des_job *job;
    worker *wk;
} worker_arg;

static void *load_worker(void *p)
{
    worker_arg *arg = p;
    arg->wk->status = load_all(arg->job, arg->wk);
    return NULL;
}

static void *compile_worker(void *p)
{
    worker_arg *arg = p;
    des_job *job = arg->job;
    worker *wk = arg->wk;
    int id = (int)(wk - job->workers);
    size_t total = wk->first[job->in->count];
    for (;;) {
        pthread_mutex_lock(&job->lock);
        size_t j = job->next++;
        int stop = j >= total || (job->opt->cancel && *job->opt->cancel);
        pthread_mutex_unlock(&job->lock);
        if (stop)
            return NULL;
        qg_diags *md = qg_diags_new();
        qg_status st = md ? qg_runtime_compile_map(wk->rt, qg_runtime_map(wk->rt, j), md)
                          : QG_ERR_NOMEM;
        pthread_mutex_lock(&job->lock);
        job->owner[j] = st == QG_OK ? id : -1;
        job->map_diags[j] = md;
        job->done++;
        if (job->opt->progress)
            job->opt->progress(job->opt->user, job->done, total);
        pthread_mutex_unlock(&job->lock);
    }
}

/* Hands each file's compiled maps to the writer; maps that failed are left
 * out (the caller decides whether that is acceptable). */
static qg_status collect(des_job *job, qg_cache_writer *w, qg_compile_stats *stats,
                         qg_diags *diags)
{
    const worker *w0 = &job->workers[0];
    qg_status st = QG_OK;
    for (size_t f = 0; f < job->in->count && st == QG_OK; f++) {
        qgc_input *item = &job->in->items[f];
        if (item->format != QG_FORMAT_DES)
            continue;
        size_t from = w0->first[f], to = w0->first[f + 1], n = 0;
        const qg_mapdef **defs = malloc((to - from + 1) * sizeof *defs);
        if (!defs)
            return QG_ERR_NOMEM;
        for (size_t j = from; j < to; j++) {
            if (job->owner[j] >= 0)
                defs[n++] = qg_runtime_map(job->workers[job->owner[j]].rt, j);
            else
                stats->failed++;
        }
        qg_cache_source src = {item->path, QG_FORMAT_DES, item->data, item->len,
                               item->mtime_sec, item->mtime_nsec};
        st = qg_cache_writer_add_file(w, &src, defs, n, diags);
        stats->files++;
        stats->source_bytes += item->len;
        free(defs);
        free(item->data);
        item->data = NULL;
    }
    return st;
}

/* Runs fn for every worker: on threads of their own and this one; a
 * worker whose thread cannot start runs here afterwards. */
static void run_phase(des_job *job, int jobs, void *(*fn)(void *))
{
    pthread_t threads[256];
    worker_arg args[256];
    int started[256] = {0};
    for (int i = 0; i < jobs; i++)
        args[i] = (worker_arg){job, &job->workers[i]};
    for (int i = 1; i < jobs; i++)
        started[i] = pthread_create(&threads[i], NULL, fn, &args[i]) == 0;
    fn(&args[0]);
    for (int i = 1; i < jobs; i++) {
        if (started[i])
            pthread_join(threads[i], NULL);
        else
            fn(&args[i]);
    }
}

static qg_status load_phase(des_job *job, int jobs, size_t *total)
{
    run_phase(job, jobs, load_worker);
    *total = job->workers[0].first[job->in->count];
    for (int i = 0; i < jobs; i++) {
        if (job->workers[i].status == QG_ERR_NOMEM || !job->workers[i].rt)
            return job->workers[i].status;
        /* Every runtime must hold the same maps, or owners would mix them. */
        if (job->workers[i].first[job->in->count] != *total)
            return QG_ERR_INVALID;
    }
    job->owner = malloc((*total + 1) * sizeof *job->owner);
    job->map_diags = calloc(*total + 1, sizeof *job->map_diags);
    return job->owner && job->map_diags ? QG_OK : QG_ERR_NOMEM;
}

static void job_free(des_job *job, int jobs, size_t total)
{
    for (int i = 0; i < jobs; i++) {
        qg_runtime_free(job->workers[i].rt);
        qg_diags_free(job->workers[i].diags);
        free(job->workers[i].first);
    }
    for (size_t j = 0; job->map_diags && j < total; j++)
        qg_diags_free(job->map_diags[j]);
    free(job->workers);
    free(job->owner);
    free(job->map_diags);
    pthread_mutex_destroy(&job->lock);
}

qg_status qgc_compile_des(qgc_inputs *in, const qg_compile_options *opt,
                          qg_cache_writer *w, qg_compile_stats *stats, int *fatal,
                          qg_diags *diags)
{
    int jobs = opt->jobs < 1 ? 1 : opt->jobs > 256 ? 256 : opt->jobs;
    des_job job = {in, opt, calloc((size_t)jobs, sizeof(worker)),
                   PTHREAD_MUTEX_INITIALIZER, 0, 0, NULL, NULL};
    size_t total = 0;
    qg_status st = job.workers ? QG_OK : QG_ERR_NOMEM;
    for (int i = 0; st == QG_OK && i < jobs; i++) {
        job.workers[i].diags = qg_diags_new();
        job.workers[i].first = calloc(in->count + 1, sizeof(size_t));
        if (!job.workers[i].diags || !job.workers[i].first)
            st = QG_ERR_NOMEM;
    }
    if (st == QG_OK)
        st = load_phase(&job, jobs, &total);
    qgc_diags_merge(diags, job.workers ? job.workers[0].diags : NULL);
    qg_status loaded = st == QG_OK ? job.workers[0].status : st;
    if (st == QG_OK) {
        run_phase(&job, jobs, compile_worker);
        for (size_t j = 0; j < total; j++)
            qgc_diags_merge(diags, job.map_diags[j]);
        if (opt->cancel && *opt->cancel)
            st = QG_ERR_IO;
    }
    if (st == QG_OK)
        st = collect(&job, w, stats, diags);
    *fatal = st != QG_OK;
    if (st == QG_OK && loaded != QG_OK)
        st = loaded;
    if (st == QG_OK && stats->failed)
        st = QG_ERR_LUA;
    if (st == QG_ERR_INVALID)
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                     "the compile threads read different maps from the same files");
    else if (st == QG_ERR_NOMEM)
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0, "out of memory");
    if (job.workers)
        job_free(&job, jobs, total);
    return st;
}
