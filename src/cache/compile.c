/* questgrid compile: inputs → compiled maps → one cache, written
 * atomically. Errors in maps stop the write unless keep_going is set, in
 * which case the maps that compiled are written and the rest reported.
 * F:/D: files are compiled first, then .des files, each in input order
 * (on the threads asked for, the cache the same for any number). */
#include "cache/compile.h"
#include "cache/previous.h"

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

static int jobs_for(const qg_compile_options *opt)
{
    return opt->jobs < 1 ? 1 : opt->jobs > MAX_JOBS ? MAX_JOBS : opt->jobs;
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
    qgc_preludes preludes = {{-1, 0, NULL, 0, 0}};
    qgc_previous previous;
    memset(&previous, 0, sizeof previous);
    if (st == QG_OK) {
        qgc_run run = {opt, w, s, diags, 0, in.count, jobs_for(opt), &previous};
        int fatal = 0;
        compiled = qgc_compile_fd(&in, &run, &fatal);
        if (!fatal) {
            uint64_t environment = des_inputs(&in) ? qgc_environment(opt) : 0;
            qg_status des = environment ? qgc_previous_open(&previous, output, environment,
                                                            diags)
                                        : QG_OK;
            if (des == QG_OK)
                des = qgc_scan_des(&in, &run, &preludes);
            fatal = des != QG_OK;
            if (!fatal) {
                qgc_des_keys(&in, environment);
                qgc_des_reuse(&in, &previous);
                qgc_writer_set_environment(w, environment);
                des = qgc_compile_des(&in, &run, &preludes, &fatal);
            }
            if (compiled == QG_OK || fatal)
                compiled = des;
        }
        if (compiled != QG_OK && (fatal || !opt->keep_going || !map_errors_only(compiled)))
            st = compiled;
    }
    qgc_spill_close(&preludes.store);
    qgc_previous_close(&previous);
    if (st == QG_OK) {
        qg_cache_write_options wo = {opt->jobs, opt->cancel};
        st = qg_cache_writer_write(w, output, &wo, diags);
    }
    if (st == QG_OK) {
        s->maps = qg_cache_writer_map_count(w);
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
