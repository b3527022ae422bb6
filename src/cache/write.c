#define _POSIX_C_SOURCE 200809L
#include "cache/write.h"
#include "cache/reader.h"
#include "core/output.h"

static qg_status verify_temp(const char *tmp, void *user, qg_diags *diags)
{
    const char *path = user;
    qg_diags *found = qg_diags_new();
    qg_cache *cache = NULL;
    qg_status st = found ? qgc_open_file(tmp, NULL, &cache, found) : QG_ERR_NOMEM;
    if (st == QG_OK)
        st = qgc_verify_crcs(cache, found);
    qg_cache_close(cache);
    if (st != QG_OK)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                     "the cache just written fails verification (%s); not installed",
                     found && qg_diags_count(found) ? qg_diags_get(found, 0)->message
                                                    : qg_status_string(st));
    qg_diags_free(found);
    return st;
}

/* A cache is only ever a regular file, checked before it replaces the
 * old one (core/output.h has the rest of the rule). */
qg_status qgc_write_verified(const char *path, qgc_fill_fn fill, void *user,
                             const qgc_write_how *how, qg_diags *diags)
{
    qg_output out = {how->follow_symlinks, 1, verify_temp, (void *)path, how->cancel};
    return qg_output_write(path, &out, fill, user, diags);
}
