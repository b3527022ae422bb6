/* questgrid compile: inputs → compiled maps → one cache, written
 * atomically. Errors in maps stop the write unless keep_going is set, in
 * which case the maps that compiled are written and the rest reported.
 * F:/D: files are compiled first, then .des files, each in input order
 * (on the threads asked for, the cache the same for any number). */
#include "cache/compile.h"
#include "cache/previous.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int map_errors_only(qg_status st)
{
    return st == QG_ERR_PARSE || st == QG_ERR_LUA || st == QG_ERR_LIMIT;
}

enum { MAX_JOBS = 256 };

static size_t des_inputs(const qgc_inputs *in)
{
    size_t n = 0;
    for (size_t i = 0; i < in->count; i++)
        n += in->items[i].format == QG_FORMAT_DES;
    return n;
}

/* Whether the compile is the cache written over file for file, only
 * their mtimes perhaps changed: every input a .des file reused, in the
 * place it has there. */
static int every_file_reused(const qgc_inputs *in, const qgc_previous *previous)
{
    if (!previous->cache || in->count != previous->cache->header.file_count)
        return 0;
    for (size_t i = 0; i < in->count; i++)
        if (!in->items[i].reused || in->items[i].previous != i)
            return 0;
    return 1;
}

/* The cache written over, written again with the files' mtimes. */
static qg_status write_restamped(const qgc_previous *previous, const qgc_inputs *in,
                                 const char *output, const qg_compile_options *opt,
                                 qg_compile_stats *s, qg_diags *diags)
{
    qg_cache_file *stamps = calloc(in->count + 1, sizeof *stamps);
    if (!stamps) {
        qg_diags_add(diags, QG_ERROR, output, 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    for (size_t i = 0; i < in->count; i++) {
        stamps[i].mtime_sec = in->items[i].mtime_sec;
        stamps[i].mtime_nsec = in->items[i].mtime_nsec;
        s->source_bytes += in->items[i].size;
        if (opt->progress)
            opt->progress(opt->user, i + 1, in->count);
    }
    qgc_write_how how = {opt->follow_symlinks, opt->cancel};
    qg_status st = qgc_previous_restamp(previous, stamps, output, &how, diags);
    free(stamps);
    s->files = s->reused = in->count;
    s->maps = previous->cache->header.map_count;
    return st;
}

static int jobs_for(const qg_compile_options *opt)
{
    int jobs = opt->jobs < 1 ? qgc_cores_available() : opt->jobs;
    return jobs > MAX_JOBS ? MAX_JOBS : jobs;
}

/* The .des inputs: the cache written over opened for reuse, the scan,
 * the keys; then either every file reused as it is (*restamp) or the
 * files compiled into the writer. */
static qg_status compile_des_inputs(qgc_inputs *in, qgc_run *run, const char *output,
                                    qgc_preludes *preludes, qgc_previous *previous,
                                    int *restamp, int *fatal)
{
    uint64_t environment = des_inputs(in) ? qgc_environment(run->opt) : 0;
    qg_status st = environment ? qgc_previous_open(previous, output, environment, run->diags)
                               : QG_OK;
    if (st == QG_OK)
        st = qgc_scan_des(in, run, preludes);
    *fatal = st != QG_OK;
    if (*fatal)
        return st;
    qgc_des_keys(in, environment);
    qgc_des_reuse(in, previous);
    for (size_t i = 0; i < in->count; i++)
        if (in->items[i].reused)
            qgc_previous_set_source(previous, in->items[i].previous, in->items[i].io_path);
    qgc_writer_set_environment(run->w, environment);
    qgc_previous_lend(previous, run->w);
    *restamp = every_file_reused(in, previous);
    return *restamp ? QG_OK : qgc_compile_des(in, run, preludes, fatal);
}

/* F:/D: files, then .des files; the status of the whole compile in *st
 * (errors in maps only when keep_going writes past them). */
static qg_status compile_inputs(qgc_inputs *in, qgc_run *run, const char *output,
                                qgc_previous *previous, int *restamp, qg_status *st)
{
    int fatal = 0;
    qg_status compiled = qgc_compile_fd(in, run, &fatal);
    if (!fatal) {
        qgc_preludes preludes = {{-1, 0, NULL, 0, 0}};
        qg_status des = compile_des_inputs(in, run, output, &preludes, previous, restamp,
                                           &fatal);
        qgc_spill_close(&preludes.store);
        if (compiled == QG_OK || fatal)
            compiled = des;
    }
    if (compiled != QG_OK && (fatal || !run->opt->keep_going || !map_errors_only(compiled)))
        *st = compiled;
    return compiled;
}

qg_status qg_cache_compile(const char *const *inputs, size_t count,
                           const char *output, const qg_compile_options *options,
                           qg_compile_stats *stats, qg_diags *diags)
{
    qg_compile_options none;
    memset(&none, 0, sizeof none);
    const qg_compile_options *opt = options ? options : &none;
    qg_compile_stats local;
    qg_compile_stats *s = stats ? stats : &local;
    memset(s, 0, sizeof *s);
    qgc_inputs in = {NULL, 0, 0};
    qg_cache_writer *w = qg_cache_writer_new();
    qg_status st = w ? qgc_collect_inputs(opt->base_dir, inputs, count, &in, diags) : QG_ERR_NOMEM;
    qg_status compiled = QG_OK;
    if (st == QG_OK && in.count == 0)
        qg_diags_add(diags, QG_WARNING, output, 0, 0, NULL, 0,
                     "no .des or F:/D: map files among the inputs; the cache is empty");
    qgc_previous previous;
    memset(&previous, 0, sizeof previous);
    int restamp = 0;
    int jobs = jobs_for(opt);
    if (st == QG_OK) {
        qgc_run run = {opt, w, s, diags, 0, in.count, jobs, &previous};
        compiled = compile_inputs(&in, &run, output, &previous, &restamp, &st);
    }
    if (st == QG_OK && restamp) {
        st = write_restamped(&previous, &in, output, opt, s, diags);
    } else if (st == QG_OK) {
        qg_cache_write_options wo = {jobs, opt->cancel, opt->follow_symlinks};
        st = qg_cache_writer_write(w, output, &wo, diags);
        if (st == QG_OK)
            s->maps = qg_cache_writer_map_count(w) - (opt->keep_going ? s->failed : 0);
    }
    qgc_previous_close(&previous);
    if (st == QG_OK) {
        struct stat sb;
        if (stat(output, &sb) == 0)
            s->cache_bytes = (uint64_t)sb.st_size;
        st = compiled;
    }
    if (st == QG_ERR_NOMEM && !w)
        qg_diags_add(diags, QG_ERROR, output, 0, 0, NULL, 0, "out of memory");
    qg_cache_writer_free(w);
    qgc_inputs_free(&in);
    return st;
}
