/* Compiling .des files one after another, as Crawl's compiler reads them:
 * a file is read and parsed (the map names seen and the scanner's state
 * carry from file to file), its global Lua runs in the one runtime, then
 * each of its maps' compile-time Lua; the file is packed for the writer
 * and freed before the next one is read. A map thus sees the globals of
 * its own file and of the files before it, never those of a later file:
 * Crawl runs a file's global prelude when its parser reaches the file's
 * first map, and validates each map as it is read. */
#include "cache/compile.h"
#include "questgrid/lua.h"

#include <stdlib.h>

static int map_error(qg_status st)
{
    return st == QG_ERR_PARSE || st == QG_ERR_LUA || st == QG_ERR_LIMIT;
}

/* Runs every map of the file and hands the ones that compiled to the
 * writer. Returns a failure of the whole compile, else QG_OK. */
static qg_status compile_maps(qg_runtime *rt, qgc_input *item, qg_des_file *file,
                              qgc_run *run)
{
    size_t count = file ? qg_des_map_count(file) : 0, n = 0;
    const qg_mapdef **defs = malloc((count + 1) * sizeof *defs);
    if (!defs)
        return QG_ERR_NOMEM;
    qg_status st = QG_OK;
    for (size_t i = 0; i < count && st == QG_OK; i++) {
        if (run->opt->cancel && *run->opt->cancel) {
            st = QG_ERR_IO;
            break;
        }
        qg_mapdef *def = qg_des_map(file, i);
        qg_status ms = qg_runtime_compile_map(rt, def, run->diags);
        if (ms == QG_OK)
            defs[n++] = def;
        else if (map_error(ms))
            run->stats->failed++;
        else
            st = ms;
    }
    if (st == QG_OK) {
        qg_cache_source src = {item->path, QG_FORMAT_DES, item->data, item->len,
                               item->mtime_sec, item->mtime_nsec};
        st = qg_cache_writer_add_file(run->w, &src, defs, n, run->diags);
        run->stats->files++;
        run->stats->source_bytes += item->len;
    }
    free(defs);
    return st;
}

/* One file: read, parse, its prelude, its maps. *file_status gets an
 * error in the file (parse or prelude); the result is a failure of the
 * whole compile. */
static qg_status compile_file(qg_runtime *rt, qg_des_names *names, qgc_input *item,
                              qgc_run *run, qg_status *file_status)
{
    qg_status st = qgc_read_input(item, run->diags);
    if (st != QG_OK)
        return st;
    qg_des_file *file = NULL;
    *file_status = qg_des_parse(item->io_path, item->data, item->len, NULL, names, &file,
                                run->diags);
    if (*file_status == QG_ERR_NOMEM)
        st = QG_ERR_NOMEM;
    if (st == QG_OK && file) {
        qg_status prelude = qg_runtime_run_prelude(rt, file, run->diags);
        if (prelude == QG_ERR_NOMEM)
            st = prelude;
        else if (*file_status == QG_OK)
            *file_status = prelude;
    }
    if (st == QG_OK)
        st = compile_maps(rt, item, file, run);
    qg_des_file_free(file);
    qgc_input_drop(item);
    qgc_file_done(run);
    return st;
}

static size_t des_inputs(const qgc_inputs *in)
{
    size_t n = 0;
    for (size_t f = 0; f < in->count; f++)
        n += in->items[f].format == QG_FORMAT_DES;
    return n;
}

qg_status qgc_compile_des(qgc_inputs *in, qgc_run *run, int *fatal)
{
    *fatal = 0;
    if (!des_inputs(in))
        return QG_OK;
    const qg_compile_options *opt = run->opt;
    qg_runtime_options ro = {opt->lua_paths, opt->lua_path_count, 0, 0, opt->branches};
    qg_runtime *rt = qg_runtime_new(&ro, run->diags);
    qg_des_names *names = qg_des_names_new();
    /* without a runtime the diagnostics say why (the game's Lua library) */
    qg_status st = !names ? QG_ERR_NOMEM : rt ? QG_OK : QG_ERR_LUA;
    qg_status worst = QG_OK;
    for (size_t f = 0; f < in->count && st == QG_OK; f++) {
        if (in->items[f].format != QG_FORMAT_DES)
            continue;
        qg_status file_status = QG_OK;
        st = compile_file(rt, names, &in->items[f], run, &file_status);
        if (file_status != QG_OK)
            worst = file_status;
    }
    qg_runtime_free(rt);
    qg_des_names_free(names);
    if (st == QG_OK && opt->cancel && *opt->cancel)
        st = QG_ERR_IO;
    *fatal = st != QG_OK;
    if (st == QG_ERR_NOMEM)
        qg_diags_add(run->diags, QG_ERROR, "", 0, 0, NULL, 0, "out of memory");
    if (st == QG_OK)
        st = worst != QG_OK ? worst : run->stats->failed ? QG_ERR_LUA : QG_OK;
    return st;
}
