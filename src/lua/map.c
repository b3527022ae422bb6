/* The map being built: its grid (kept padded with spaces to a rectangle,
 * as Crawl's normalise() leaves it), header fields, keyed specs and marks. */
#include "lua/rt.h"
#include "des/directives.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

lrt_map *lrt_map_new(const char *name, const char *file, int line)
{
    lrt_map *map = calloc(1, sizeof *map);
    if (!map)
        return NULL;
    map->name = name;
    map->file = file;
    map->line = line;
    map->chance = -1;
    map->weight = -1;
    return map;
}

int lrt_strs_add(lrt_strs *strs, const char *s, size_t len)
{
    if (strs->count >= LRT_MAX_ENTRIES)
        return 0;
    char *copy = qg_strndup(s, len);
    if (!copy)
        return 0;
    char **slot = QG_PUSH(strs->items, strs->count, strs->cap);
    if (!slot) {
        free(copy);
        return 0;
    }
    *slot = copy;
    return 1;
}

void lrt_strs_free(lrt_strs *strs)
{
    for (size_t i = 0; i < strs->count; i++)
        free(strs->items[i]);
    free(strs->items);
    memset(strs, 0, sizeof *strs);
}

void lrt_map_free(lrt_map *map)
{
    if (!map)
        return;
    free(map->grid);
    lrt_strs_free(&map->tags);
    lrt_strs_free(&map->depths);
    lrt_strs_free(&map->places);
    lrt_strs_free(&map->mons);
    lrt_strs_free(&map->items);
    lrt_strs_free(&map->subvaults);
    lrt_strs_free(&map->level_keys);
    lrt_strs_free(&map->level_values);
    free(map->orient);
    free(map->desc);
    lrt_strs_free(&map->chance_ranges);
    lrt_strs_free(&map->weight_ranges);
    free(map->lfloorcol);
    free(map->lrockcol);
    free(map->lfloortile);
    free(map->lrocktile);
    for (int i = 0; i < LRT_GLYPHS; i++) {
        if (map->keyed[i]) {
            free(map->keyed[i]->feat);
            free(map->keyed[i]->mons);
            free(map->keyed[i]->item);
            free(map->keyed[i]);
        }
    }
    lrt_map_clear_marks(map);
    free(map->mark_specs);
    free(map->marks);
    for (size_t i = 0; i < map->sub_count; i++)
        lrt_map_free(map->subs[i]);
    free(map->subs);
    free(map->cell_sub);
    free(map->sv_mask);
    free(map);
}

int lrt_map_resize(lrt_map *map, int width, int height, char fill)
{
    if (width == map->width && height == map->height)
        return 1;
    if (width < 0 || height < 0 || width > LRT_MAX_WIDTH || height > LRT_MAX_HEIGHT)
        return 0;
    size_t need = (size_t)width * (size_t)height + 1;
    if (width == map->width) {
        /* rows added or dropped: grow in place, by doubling */
        if (need > map->grid_cap) {
            size_t cap = map->grid_cap ? map->grid_cap * 2 : 256;
            while (cap < need)
                cap *= 2;
            char *grid = realloc(map->grid, cap);
            if (!grid)
                return 0;
            map->grid = grid;
            map->grid_cap = cap;
        }
        if (height > map->height)
            memset(map->grid + (size_t)map->height * width, fill,
                   (size_t)(height - map->height) * width);
        map->height = height;
        return 1;
    }
    size_t cap = need > map->grid_cap ? need : map->grid_cap;
    char *grid = malloc(cap);
    if (!grid)
        return 0;
    memset(grid, fill, need - 1);
    for (int y = 0; y < height && y < map->height; y++)
        memcpy(grid + (size_t)y * width, map->grid + (size_t)y * map->width,
               (size_t)(width < map->width ? width : map->width));
    free(map->grid);
    map->grid = grid;
    map->grid_cap = cap;
    map->width = width;
    map->height = height;
    return 1;
}

int lrt_map_add_row(lrt_map *map, const char *row, size_t len)
{
    int width = (int)len > map->width ? (int)len : map->width;
    if (len > LRT_MAX_WIDTH || map->height >= LRT_MAX_HEIGHT)
        return 0;
    if (width != map->width && !lrt_map_resize(map, width, map->height, ' '))
        return 0;
    if (!lrt_map_resize(map, width, map->height + 1, ' '))
        return 0;
    memcpy(map->grid + (size_t)(map->height - 1) * map->width, row, len);
    return 1;
}

void lrt_set_cell(lrt_map *map, int x, int y, char glyph)
{
    if (x >= 0 && y >= 0 && x < map->width && y < map->height)
        map->grid[(size_t)y * map->width + x] = glyph;
}

/* Moves every cell (and mark) of the map to where(x, y) in a grid of
 * new_w x new_h. */
static int remap(lrt_map *map, int new_w, int new_h, int kind)
{
    size_t cells = (size_t)map->width * map->height;
    char *grid = malloc(cells + 1);
    unsigned char *sub = map->cell_sub ? malloc(cells) : NULL;
    if (!grid || (map->cell_sub && !sub)) {
        free(grid);
        free(sub);
        return 0;
    }
    int w = map->width, h = map->height;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            /* kind 0: clockwise, 1: anticlockwise, 2: left-right, 3: top-bottom */
            int nx = kind == 0 ? h - 1 - y : kind == 1 ? y : kind == 2 ? w - 1 - x : x;
            int ny = kind == 0 ? x : kind == 1 ? w - 1 - x : kind == 2 ? y : h - 1 - y;
            grid[(size_t)ny * new_w + nx] = map->grid[(size_t)y * w + x];
            if (sub)
                sub[(size_t)ny * new_w + nx] = map->cell_sub[(size_t)y * w + x];
        }
    for (size_t i = 0; i < map->mark_count; i++) {
        int x = map->marks[i].x, y = map->marks[i].y;
        map->marks[i].x = kind == 0 ? h - 1 - y : kind == 1 ? y : kind == 2 ? w - 1 - x : x;
        map->marks[i].y = kind == 0 ? x : kind == 1 ? w - 1 - x : kind == 2 ? y : h - 1 - y;
    }
    free(map->grid);
    free(map->cell_sub);
    map->grid = grid;
    map->grid_cap = cells + 1;
    map->cell_sub = sub;
    map->width = new_w;
    map->height = new_h;
    return 1;
}

int lrt_map_rotate(lrt_map *map, int clockwise)
{
    return remap(map, map->height, map->width, clockwise ? 0 : 1);
}

int lrt_map_mirror(lrt_map *map, int horizontal)
{
    return remap(map, map->width, map->height, horizontal ? 2 : 3);
}

void lrt_map_clear_marks(lrt_map *map)
{
    for (size_t i = 0; i < map->mark_spec_count; i++)
        free(map->mark_specs[i]);
    map->mark_spec_count = 0;
    map->mark_count = 0;
}

int lrt_map_add_mark(lrt_map *map, int x, int y, const char *spec)
{
    if (map->mark_count >= LRT_MAX_MARKS)
        return 0;
    const char *last = map->mark_spec_count ? map->mark_specs[map->mark_spec_count - 1] : NULL;
    if (!last || strcmp(last, spec) != 0) {
        char *copy = qg_strdup(spec);
        char **slot = copy ? QG_PUSH(map->mark_specs, map->mark_spec_count,
                                     map->mark_spec_cap) : NULL;
        if (!slot) {
            free(copy);
            return 0;
        }
        *slot = copy;
        last = copy;
    }
    lrt_mark *mark = QG_PUSH(map->marks, map->mark_count, map->mark_cap);
    if (!mark)
        return 0;
    mark->x = x;
    mark->y = y;
    mark->spec = last;
    return 1;
}

lrt_keyed *lrt_map_keyed(lrt_map *map, unsigned char glyph)
{
    if (!map->keyed[glyph])
        map->keyed[glyph] = calloc(1, sizeof **map->keyed);
    return map->keyed[glyph];
}

/* The position of the innermost Lua caller (bound functions are called
 * through a C wrapper, so level 1 may have no line). */
static void push_where(lua_State *L)
{
    lua_Debug ar;
    for (int level = 1; lua_getstack(L, level, &ar); level++) {
        lua_getinfo(L, "Sl", &ar);
        if (ar.currentline > 0) {
            lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
    lua_pushliteral(L, "");
}

int lrt_map_error(lua_State *L, lrt_map *map, const char *fmt, ...)
{
    va_list ap;
    push_where(L);
    va_start(ap, fmt);
    lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    lua_pushfstring(L, " (map %s)", map ? map->name : "?");
    lua_concat(L, 3);
    return lua_error(L);
}

int lrt_parse_error(lua_State *L, lrt_map *map, const char *what, int result,
                    const struct des_spec_error *err)
{
    if (result == DES_PARSE_NOMEM)
        return lrt_map_error(L, map, "%s: out of memory", what);
    return lrt_map_error(L, map, "%s: %s", what, err->message);
}

int lrt_pick_weighted(qg_rng *rng, const void *first_weight, size_t stride, size_t n)
{
    int pick = -1, total = 0;
    for (size_t i = 0; i < n; i++) {
        int w;
        memcpy(&w, (const char *)first_weight + i * stride, sizeof w);
        if (w <= 0)
            continue;
        total += w;
        if (qg_rng_x_chance_in_y(rng, w, total))
            pick = (int)i;
    }
    return pick;
}
