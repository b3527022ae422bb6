/* Placing a vault with Crawl's rules: transforms by seed, position by
 * ORIENT, collision rules, drawing, registration (vault masks and ICKY),
 * exits and corridors. */
#include "place/internal.h"

#include <stdlib.h>
#include <string.h>

enum { VAULT_TRIES = 25 };

static void rotate_unless_forbidden(xform *t, orient *o, unsigned tags,
                                    const qg_cave *cave, int clockwise)
{
    int side = cave->width < cave->height ? cave->width : cave->height;
    if ((tags & TAG_NO_ROTATE) || t->w > side || t->h > side)
        return;
    unsigned op = clockwise ? QG_XFORM_ROTATE_CW : QG_XFORM_ROTATE_CCW;
    xform_apply(t, op);
    *o = orient_after(*o, op);
}

static void mirror_unless_forbidden(xform *t, orient *o, unsigned tags, unsigned op)
{
    unsigned forbidden = op == QG_XFORM_HMIRROR ? TAG_NO_HMIRROR : TAG_NO_VMIRROR;
    if (tags & forbidden)
        return;
    xform_apply(t, op);
    *o = orient_after(*o, op);
}

/* _resolve_map: the coins are flipped even when a tag forbids the change. */
static void choose_transform(const vault_job *job, const qg_level *level,
                             xform *t, orient *o)
{
    const qg_place_options *opt = job->options;
    xform_identity(t, qg_level_width(level), qg_level_height(level));
    if (t->w == 1 && t->h == 1)
        return;
    if (opt->fixed_transform) {
        if (opt->transform & QG_XFORM_HMIRROR)
            mirror_unless_forbidden(t, o, job->tags, QG_XFORM_HMIRROR);
        if (opt->transform & QG_XFORM_VMIRROR)
            mirror_unless_forbidden(t, o, job->tags, QG_XFORM_VMIRROR);
        if (opt->transform & (QG_XFORM_ROTATE_CW | QG_XFORM_ROTATE_CCW))
            rotate_unless_forbidden(t, o, job->tags, job->cave,
                                    (opt->transform & QG_XFORM_ROTATE_CW) != 0);
        return;
    }
    if (qg_rng_coinflip(job->rng))
        mirror_unless_forbidden(t, o, job->tags, QG_XFORM_HMIRROR);
    if (qg_rng_coinflip(job->rng))
        mirror_unless_forbidden(t, o, job->tags, QG_XFORM_VMIRROR);
    if (qg_rng_coinflip(job->rng)) {
        int clockwise = qg_rng_coinflip(job->rng);
        rotate_unless_forbidden(t, o, job->tags, job->cave, clockwise);
    }
}

typedef struct marker_map {
    const xform *t;
    int px, py;
} marker_map;

static void map_marker(const void *ctx, int lx, int ly, int *hx, int *hy)
{
    const marker_map *m = ctx;
    xform_inverse(m->t, lx, ly, hx, hy);
    *hx += m->px;
    *hy += m->py;
}

static int draw(const vault_job *job, int px, int py, request_sink *sink)
{
    const vmap *m = job->map;
    qg_cave *cave = job->cave;
    int overwritable = (job->tags & TAG_OVERWRITABLE) != 0;
    uint32_t mask = tags_mask(job->tags) | (overwritable ? 0u : QG_MASK_VAULT) |
                    ((job->tags & TAG_TRANSPARENT) ? 0u : QG_MASK_OPAQUE);
    int lw = qg_level_width(m->level);
    qg_cell cell;
    for (size_t i = 0; i < m->count; i++) {
        int vx = m->cells[i] % m->w, vy = m->cells[i] / m->w;
        int at = (py + vy) * cave->width + (px + vx);
        uint32_t old_mask = cave_mask(cave, at);
        if (overwritable && (old_mask & QG_MASK_VAULT))
            continue;
        int src = xform_src(&m->t, vx, vy, lw);
        qg_level_cell(m->level, src % lw, src / lw, &cell);
        int32_t feat = cave->translate ? cave->translate(cave->user, &cell) : cell.feature;
        if (feat >= 0)
            cave_set_feature(cave, at, feat);
        if (cave_has_info(cave))
            cave_set_info(cave, at, cave_info(cave, at) | cell.cave_info |
                                        (overwritable ? 0u : QG_INFO_ICKY));
        cave_set_mask(cave, at, old_mask | cell.vault_mask | mask);
        if (cell.special)
            cave_set_special(cave, at, cell.special);
        if (!request_things(sink, &cell, px + vx, py + vy) ||
            !request_special(sink, &cell, px + vx, py + vy))
            return 0;
    }
    return 1;
}

/* The game's rock, as its translate callback names a map's 'x' cell; -1
 * when the cave has no callback to ask. */
static int32_t cave_rock(const qg_cave *cave)
{
    qg_cell rock;
    memset(&rock, 0, sizeof rock);
    rock.glyph = 'x';
    rock.in_map = 1;
    rock.feature = -1;
    rock.feature_name = "rock_wall";
    return cave->translate ? cave->translate(cave->user, &rock) : -1;
}

/* Seed 000, section D "ORIENT": "encompass: the vault completely occupies
 * the entire level". Crawl builds no layout around it (dungeon.cc), so the
 * level outside the map is rock, and every cell is the vault's. Permanent
 * and protected features (the level's frame) stay. */
static qg_status fill_encompass(const vault_job *job, int px, int py, const qg_level *level,
                                qg_diags *diags)
{
    qg_cave *cave = job->cave;
    int n = cave->width * cave->height;
    unsigned char *covered = calloc((size_t)n, 1);
    if (!covered)
        return QG_ERR_NOMEM;
    const vmap *m = job->map;
    for (size_t i = 0; i < m->count; i++)
        covered[(py + m->cells[i] / m->w) * cave->width + px + m->cells[i] % m->w] = 1;
    int32_t rock = cave_rock(cave);
    if (rock < 0)
        place_diag(diags, QG_WARNING, level,
                   "encompass map '%s': the cave has no translate callback to name its "
                   "rock, so the cells around the map keep their features",
                   qg_level_name(level) ? qg_level_name(level) : "");
    for (int i = 0; i < n; i++) {
        cave_set_mask(cave, i, cave_mask(cave, i) | QG_MASK_VAULT);
        if (cave_has_info(cave))
            cave_set_info(cave, i, cave_info(cave, i) | QG_INFO_ICKY);
        if (!covered[i] && rock >= 0 &&
            !(cave_class(cave, i) & (QG_FEAT_PERMANENT | QG_FEAT_PROTECTED)))
            cave_set_feature(cave, i, rock);
    }
    free(covered);
    return QG_OK;
}

static qg_status connect_exits(const vault_job *job, qg_placement *out,
                               const qg_level *level, qg_diags *diags)
{
    qg_cave *cave = job->cave;
    path_scratch s;
    if (!path_scratch_init(&s, cave))
        return QG_ERR_NOMEM;
    size_t connected = 0;
    for (size_t i = 0; i < out->exit_count; i++) {
        out->exits[i].connected = exit_connect(cave, &s, out->exits[i].x, out->exits[i].y);
        connected += (size_t)out->exits[i].connected;
    }
    path_scratch_free(&s);
    if (!connected)
        place_diag(diags, QG_WARNING, level,
                   "no exit of map '%s' placed at %d,%d could be joined to the level",
                   qg_level_name(level) ? qg_level_name(level) : "", out->x, out->y);
    return QG_OK;
}

static qg_status register_exits(const vault_job *job, qg_placement *out,
                                const qg_level *level, qg_diags *diags)
{
    qg_status st = exits_find(job, out->x, out->y, out);
    if (st != QG_OK)
        return st;
    for (size_t i = 0; i < out->exit_count; i++) {
        int at = out->exits[i].y * job->cave->width + out->exits[i].x;
        cave_set_mask(job->cave, at, (cave_mask(job->cave, at) | QG_MASK_EXIT) & ~QG_MASK_OPAQUE);
    }
    if (job->options->no_connect || job->orient == OR_ENCOMPASS ||
        (job->tags & (TAG_NO_EXITS | TAG_OVERWRITABLE)) || !out->exit_count)
        return QG_OK;
    return connect_exits(job, out, level, diags);
}

static qg_status finish(const vault_job *job, const qg_level *level, int px, int py,
                        qg_placement *out, qg_diags *diags)
{
    request_sink sink = {job->options, out, -1, 0};
    out->x = px;
    out->y = py;
    out->width = job->map->w;
    out->height = job->map->h;
    out->orient = job->minivault ? "minivault" : orient_name(job->orient);
    out->transform = job->map->t.applied;
    if (!draw(job, px, py, &sink))
        return sink.failed ? QG_ERR_INVALID : QG_ERR_NOMEM;
    if (job->orient == OR_ENCOMPASS && !(job->tags & TAG_OVERWRITABLE)) {
        qg_status st = fill_encompass(job, px, py, level, diags);
        if (st != QG_OK)
            return st;
    }
    marker_map mm = {&job->map->t, px, py};
    if (!request_markers(&sink, level, map_marker, &mm))
        return QG_ERR_INVALID;
    int sx, sy;
    if (qg_level_player_start(level, &sx, &sy)) {
        out->has_player_start = 1;
        map_marker(&mm, sx, sy, &out->player_x, &out->player_y);
    }
    return register_exits(job, out, level, diags);
}

static int too_large(const qg_cave *cave, int w, int h)
{
    return (w > cave->width || h > cave->height) &&
           (h > cave->width || w > cave->height);
}

static qg_status place_resolved(qg_cave *cave, const qg_level *level,
                                const qg_place_options *options,
                                qg_placement *out, qg_diags *diags)
{
    vault_job job = {cave, NULL, OR_FLOAT, 0, 0, options, NULL};
    orient base;
    if (!orient_parse(qg_level_get_property(level, "orient"), &base, &job.minivault)) {
        place_diag(diags, QG_ERROR, level, "unknown ORIENT '%s'",
                   qg_level_get_property(level, "orient"));
        return QG_ERR_INVALID;
    }
    job.tags = tags_parse(qg_level_get_property(level, "tags"));
    if (job.tags & TAG_MINIVAULT)
        job.minivault = 1;
    if (too_large(cave, qg_level_width(level), qg_level_height(level))) {
        place_diag(diags, QG_ERROR, level, "map '%s' (%dx%d) is larger than the dungeon (%dx%d)",
                   qg_level_name(level) ? qg_level_name(level) : "",
                   qg_level_width(level), qg_level_height(level), cave->width, cave->height);
        return QG_ERR_LIMIT;
    }
    qg_rng rng;
    qg_rng_seed(&rng, options->seed, 0x7161706c616365ull);
    job.rng = &rng;
    int tries = options->tries > 0 ? options->tries : VAULT_TRIES;
    for (int attempt = 1; attempt <= tries; attempt++) {
        xform t;
        vmap m;
        job.orient = base;
        choose_transform(&job, level, &t, &job.orient);
        if (!vmap_build(&m, level, &t))
            return QG_ERR_NOMEM;
        job.map = &m;
        int px, py;
        qg_status st = QG_ERR_NOTFOUND;
        if (place_find_position(&job, &px, &py)) {
            out->tries_used = attempt;
            st = finish(&job, level, px, py, out, diags);
        }
        vmap_free(&m);
        if (st != QG_ERR_NOTFOUND)
            return st;
    }
    return QG_ERR_NOTFOUND;
}

qg_status qg_place_vault(qg_cave *cave, const qg_level *level,
                         const qg_place_options *options, qg_placement *out,
                         qg_diags *diags)
{
    static const qg_place_options defaults;
    if (!cave || !level || !out || !cave_usable(cave))
        return QG_ERR_INVALID;
    if (!options)
        options = &defaults;
    if (!options->subvault || !qg_level_get_property(level, "subvault"))
        return place_resolved(cave, level, options, out, diags);
    qg_level *merged = qg_level_transformed(level, 0);
    if (!merged)
        return QG_ERR_NOMEM;
    qg_status st = qg_level_resolve_subvaults(merged, options->subvault,
                                              options->subvault_user, options->seed, diags);
    if (st == QG_OK)
        st = place_resolved(cave, merged, options, out, diags);
    if (st == QG_OK) {
        qg_level_free(out->owned);
        out->owned = merged;
    } else {
        qg_level_free(merged);
    }
    return st;
}

qg_status qg_place(qg_cave *cave, const qg_level *level,
                   const qg_place_options *options, qg_placement *out,
                   qg_diags *diags)
{
    if (level && (qg_level_get_property(level, "orient") ||
                  qg_level_get_property(level, "tags")))
        return qg_place_vault(cave, level, options, out, diags);
    return qg_place_fixed(cave, level, options, out, diags);
}
