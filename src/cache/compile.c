/* questgrid compile: inputs → compiled maps → one cache, written
 * atomically. Errors in maps stop the write unless keep_going is set, in
 * which case the maps that compiled are written and the rest reported.
 * F:/D: files are compiled first, then .des files, each in input order. */
#include "cache/compile.h"

#include <string.h>
#include <sys/stat.h>

static int map_errors_only(qg_status st)
{
    return st == QG_ERR_PARSE || st == QG_ERR_LUA || st == QG_ERR_LIMIT;
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
    if (st == QG_OK) {
        qgc_run run = {opt, w, s, diags, 0, in.count};
        int fatal = 0;
        compiled = qgc_compile_fd(&in, &run, &fatal);
        qg_status des = fatal ? compiled : qgc_compile_des(&in, &run, &fatal);
        if (compiled == QG_OK)
            compiled = des;
        if (compiled != QG_OK && (fatal || !opt->keep_going || !map_errors_only(compiled)))
            st = compiled;
    }
    if (st == QG_OK) {
        qg_cache_write_options wo = {opt->jobs, opt->cancel, opt->follow_symlinks};
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
