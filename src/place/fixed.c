/* Fixed and quest levels, placed as the Angband loaders do: every cell of
 * the map at origin + (x, y), the feature written, cave_info assigned
 * exactly as written, specials kept; ICKY cells are vault cells. */
#include "place/internal.h"

#include <stdlib.h>
#include <string.h>

enum { SCREEN_HGT = 22, SCREEN_WID = 66 };

typedef struct fixed_job {
    qg_cave *cave;
    const qg_level *level;
    int ox, oy;
    request_sink sink;
    unsigned char *special_rows; /* per level row: a special was written */
} fixed_job;

static int inside(const qg_cave *cave, int x, int y)
{
    return x >= 0 && y >= 0 && x < cave->width && y < cave->height;
}

/* The level's plain arrays, fetched once: quest levels are large. Specials
 * and masks are NULL when the level has none. */
typedef struct source {
    const unsigned char *in_map;
    const int32_t *feature, *special;
    const uint32_t *info, *mask;
} source;

static int32_t translated(const fixed_job *job, int src)
{
    qg_cell cell;
    int lw = qg_level_width(job->level);
    qg_level_cell(job->level, src % lw, src / lw, &cell);
    return job->cave->translate(job->cave->user, &cell);
}

static void write_cell(fixed_job *job, const source *s, int src, int at)
{
    qg_cave *cave = job->cave;
    int32_t feat = cave->translate ? translated(job, src) : s->feature[src];
    uint32_t info = s->info[src];
    if (feat >= 0)
        cave_set_feature(cave, at, feat);
    if (cave_has_info(cave))
        cave_set_info(cave, at, info);
    cave_set_mask(cave, at, cave_mask(cave, at) | (s->mask ? s->mask[src] : 0u) |
                                ((info & QG_INFO_ICKY) ? QG_MASK_VAULT : 0u));
    cave_set_special(cave, at, s->special ? s->special[src] : 0);
}

/* The level's masks (from may be NULL: none), and vault marking for its
 * ICKY cells. */
static void or_masks(uint32_t *restrict mask, const uint32_t *restrict from,
                     const uint32_t *restrict info, int n)
{
    /* two cells per 64-bit word: the bit moves stay inside each half */
    const uint64_t icky = (uint64_t)QG_INFO_ICKY << 32 | QG_INFO_ICKY;
    int i = 0;
    for (; i + 2 <= n; i += 2) {
        uint64_t m, f = 0, in;
        memcpy(&m, mask + i, sizeof m);
        if (from)
            memcpy(&f, from + i, sizeof f);
        memcpy(&in, info + i, sizeof in);
        m |= f | (in & icky) / QG_INFO_ICKY * QG_MASK_VAULT;
        memcpy(mask + i, &m, sizeof m);
    }
    for (; i < n; i++)
        mask[i] |= (from ? from[i] : 0u) | (info[i] & QG_INFO_ICKY) / QG_INFO_ICKY * QG_MASK_VAULT;
}

/* A row wholly in the map, with the level's own feature indices, is
 * copied array by array. */
static void copy_row(fixed_job *job, const source *s, int src, int at, int n)
{
    qg_cave *cave = job->cave;
    memcpy(cave->feature + at, s->feature + src, (size_t)n * sizeof *cave->feature);
    if (cave->cave_info)
        memcpy(cave->cave_info + at, s->info + src, (size_t)n * sizeof *cave->cave_info);
    if (cave->special && s->special)
        memcpy(cave->special + at, s->special + src, (size_t)n * sizeof *cave->special);
    else if (cave->special)
        memset(cave->special + at, 0, (size_t)n * sizeof *cave->special);
    or_masks(cave->vault_mask + at, s->mask ? s->mask + src : NULL, s->info + src, n);
}

/* OR of the values: the sign bit says whether one is negative, zero
 * whether all are. Eight lanes so that it runs at memory speed. */
static uint32_t or_all(const int32_t *restrict v, int n)
{
    uint32_t acc[8] = {0};
    int i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++)
            acc[k] |= (uint32_t)v[i + k];
    for (; i < n; i++)
        acc[0] |= (uint32_t)v[i];
    return acc[0] | acc[1] | acc[2] | acc[3] | acc[4] | acc[5] | acc[6] | acc[7];
}

/* Returns whether the part written has a special (its row is hot now). */
static int write_row(fixed_job *job, const source *s, int src, int at, int n)
{
    int all_features = !memchr(s->in_map + src, 0, (size_t)n) &&
                       !(or_all(s->feature + src, n) & 0x80000000u);
    if (all_features && !job->cave->translate && !job->cave->access) {
        copy_row(job, s, src, at, n);
    } else {
        for (int i = 0; i < n; i++)
            if (s->in_map[src + i])
                write_cell(job, s, src + i, at + i);
    }
    return s->special && or_all(s->special + src, n) != 0;
}

static size_t count_in_map(const unsigned char *in_map, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += in_map[i];
    return count;
}

/* Writes the rows' parts inside the cave; returns the cells left out. */
static size_t write_cells(fixed_job *job)
{
    const qg_level *level = job->level;
    source s = {qg_level_in_map(level), qg_level_features(level), qg_level_specials(level),
                qg_level_cave_info(level), qg_level_vault_masks(level)};
    int lw = qg_level_width(level), lh = qg_level_height(level);
    int x0 = job->ox < 0 ? -job->ox : 0;
    int x1 = job->cave->width - job->ox < lw ? job->cave->width - job->ox : lw;
    int clipping = job->ox < 0 || job->oy < 0 || x1 < lw ||
                   job->oy + lh > job->cave->height;
    size_t written = 0;
    for (int y = 0; y < lh; y++) {
        int hy = job->oy + y;
        if (hy < 0 || hy >= job->cave->height || x1 <= x0)
            continue;
        if (clipping)
            written += count_in_map(s.in_map + y * lw + x0, (size_t)(x1 - x0));
        job->special_rows[y] = (unsigned char)write_row(job, &s, y * lw + x0,
                                                        hy * job->cave->width + job->ox + x0,
                                                        x1 - x0);
    }
    return clipping ? count_in_map(s.in_map, (size_t)lw * (size_t)lh) - written : 0;
}

static int request_content(void *user, int x, int y, const qg_cell *cell)
{
    fixed_job *job = user;
    int hx = job->ox + x, hy = job->oy + y;
    if (!inside(job->cave, hx, hy))
        return 0;
    if (!request_things(&job->sink, cell, hx, hy))
        return 1;
    /* cells with a special are requested by request_specials */
    if (!cell->special && !request_special(&job->sink, cell, hx, hy))
        return 1;
    return 0;
}

static int request_specials(fixed_job *job)
{
    const int32_t *special = qg_level_specials(job->level);
    const unsigned char *in_map = qg_level_in_map(job->level);
    if (!special)
        return 1;
    int lw = qg_level_width(job->level), lh = qg_level_height(job->level);
    qg_cell cell;
    for (int y = 0; y < lh; y++) {
        if (!job->special_rows[y])
            continue;
        for (int x = 0; x < lw; x++) {
            int i = y * lw + x, hx = job->ox + x, hy = job->oy + y;
            if (!special[i] || !in_map[i] || !inside(job->cave, hx, hy))
                continue;
            qg_level_cell(job->level, x, y, &cell);
            if (!request_special(&job->sink, &cell, hx, hy))
                return 0;
        }
    }
    return 1;
}

static void map_marker(const void *ctx, int lx, int ly, int *hx, int *hy)
{
    const fixed_job *job = ctx;
    *hx = job->ox + lx;
    *hy = job->oy + ly;
}

/* P: sizes the level in whole screens of 22 rows and 66 columns; the fd
 * loader records the games' own figures as "cur_wid" and "cur_hgt". */
static void level_size(const qg_level *level, qg_placement *out)
{
    const char *w = qg_level_get_property(level, "cur_wid");
    const char *h = qg_level_get_property(level, "cur_hgt");
    if (w && h) {
        out->level_width = atoi(w);
        out->level_height = atoi(h);
        return;
    }
    out->level_width = qg_level_width(level);
    out->level_height = qg_level_height(level);
    if (out->has_player_start) {
        out->level_width = (out->level_width + SCREEN_WID - 1) / SCREEN_WID * SCREEN_WID;
        out->level_height = (out->level_height + SCREEN_HGT - 1) / SCREEN_HGT * SCREEN_HGT;
    }
}

/* Angband places quest monsters asleep; ToME's N:0 / N:1 records (kept by
 * the loader as "record" properties) set it, the last one winning. */
static int default_asleep(const qg_level *level)
{
    int asleep = 1;
    for (size_t i = 0; i < qg_level_property_count(level); i++) {
        const char *value;
        const char *key = qg_level_property(level, i, &value);
        if (strcmp(key, "record") == 0 && value[0] == 'N' && value[1] == ':')
            asleep = atoi(value + 2) != 0;
    }
    return asleep;
}

qg_status qg_place_fixed(qg_cave *cave, const qg_level *level,
                         const qg_place_options *options, qg_placement *out,
                         qg_diags *diags)
{
    static const qg_place_options defaults;
    if (!cave || !level || !out || !cave_usable(cave))
        return QG_ERR_INVALID;
    if (!options)
        options = &defaults;
    fixed_job job = {cave, level, 0, 0, {options, out, default_asleep(level), 0},
                     calloc((size_t)qg_level_height(level), 1)};
    if (!job.special_rows)
        return QG_ERR_NOMEM;
    if (options->has_position) {
        job.ox = options->x;
        job.oy = options->y;
    }
    out->x = job.ox;
    out->y = job.oy;
    out->width = qg_level_width(level);
    out->height = qg_level_height(level);
    out->orient = "fixed";
    size_t clipped = write_cells(&job);
    if (clipped)
        place_diag(diags, QG_WARNING, level,
                   "%zu cells of level '%s' at %d,%d fall outside the %dx%d dungeon and were left out",
                   clipped, qg_level_name(level) ? qg_level_name(level) : "",
                   job.ox, job.oy, cave->width, cave->height);
    int ok = !qg_level_foreach_content(level, request_content, &job) &&
             request_specials(&job) && request_markers(&job.sink, level, map_marker, &job);
    free(job.special_rows);
    if (!ok)
        return job.sink.failed ? QG_ERR_INVALID : QG_ERR_NOMEM;
    int sx, sy;
    if (qg_level_player_start(level, &sx, &sy)) {
        out->has_player_start = 1;
        out->player_x = job.ox + sx;
        out->player_y = job.oy + sy;
    }
    level_size(level, out);
    return QG_OK;
}
