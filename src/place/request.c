/* Placement requests: what the game is asked to create, collected in the
 * placement and handed to the caller's callback as they come. */
#include "place/internal.h"
#include "core/buf.h"

#include <stdarg.h>
#include <stdlib.h>

int request_emit(request_sink *sink, const qg_request *request)
{
    qg_placement *out = sink->out;
    qg_request *slot = QG_PUSH(out->requests, out->request_count, out->request_cap);
    if (!slot) {
        sink->failed = 1;
        return 0;
    }
    *slot = *request;
    const qg_place_options *o = sink->options;
    if (o && o->request && o->request(o->request_user, request) != 0) {
        sink->failed = 1;
        return 0;
    }
    return 1;
}

int request_things(request_sink *sink, const qg_cell *cell, int hx, int hy)
{
    for (int s = 0; s < QG_SLOTS; s++) {
        if (cell->things[s].kind == QG_THING_NONE)
            continue;
        qg_request r = {(qg_request_kind)s, hx, hy, cell->things[s],
                        s == QG_SLOT_MONSTER ? sink->default_asleep : -1,
                        0, 0, s == QG_SLOT_MONSTER ? cell->mflag : 0u, NULL};
        if (!request_emit(sink, &r))
            return 0;
    }
    return 1;
}

int request_special(request_sink *sink, const qg_cell *cell, int hx, int hy)
{
    if (!cell->special && !cell->mimic && !cell->mflag)
        return 1;
    qg_request r = {QG_REQ_SPECIAL, hx, hy, {QG_THING_NONE, 0, NULL, 0, 0, 0}, -1,
                    cell->special, cell->mimic, cell->mflag, NULL};
    return request_emit(sink, &r);
}

int request_markers(request_sink *sink, const qg_level *level,
                    void (*map)(const void *ctx, int lx, int ly, int *hx, int *hy),
                    const void *ctx)
{
    for (size_t i = 0; i < qg_level_marker_count(level); i++) {
        int lx, ly;
        qg_request r = {QG_REQ_MARKER, 0, 0, {QG_THING_NONE, 0, NULL, 0, 0, 0}, -1, 0, 0, 0,
                        qg_level_marker(level, i, &lx, &ly)};
        map(ctx, lx, ly, &r.x, &r.y);
        if (!request_emit(sink, &r))
            return 0;
    }
    return 1;
}

int placement_add_exit(qg_placement *out, int x, int y)
{
    qg_exit *e = QG_PUSH(out->exits, out->exit_count, out->exit_cap);
    if (!e)
        return 0;
    *e = (qg_exit){x, y, 0};
    return 1;
}

void qg_placement_clear(qg_placement *placement)
{
    free(placement->exits);
    free(placement->requests);
    qg_level_free(placement->owned);
    *placement = (qg_placement){0};
}

void place_diag(qg_diags *diags, qg_severity sev, const qg_level *level,
                const char *fmt, ...)
{
    if (!diags)
        return;
    qg_buf msg;
    qg_buf_init(&msg);
    va_list ap;
    va_start(ap, fmt);
    qg_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    const char *file = qg_level_get_property(level, "file");
    const char *line = qg_level_get_property(level, "line");
    qg_diags_add(diags, sev, file ? file : "", line ? atoi(line) : 0, 0, NULL, 0,
                 "%s", msg.data ? msg.data : "out of memory");
    qg_buf_free(&msg);
}
