/* Which cells of a map a creature can walk over, as Crawl's flood through
 * a map judges them for has_exit_from and points_connected: by the
 * feature a cell will be (its glyph's KFEAT, else the glyph's own), so
 * that shallow water ('W') and keyed traps ('~' = zot trap / …) connect,
 * and by Crawl's traversable glyphs for the glyphs that place things
 * (monsters, items, '@', stairs). */
#include "lua/level.h"
#include "lua/builder.h"
#include "des/directives.h"
#include "des/glyphs.h"
#include "core/arena.h"

#include <stdio.h>
#include <string.h>

static int walkable_feature(const char *name)
{
    return !lrt_feature_is_solid(name) && strcmp(name, "lava") != 0 &&
           strcmp(name, "open_sea") != 0;
}

/* A KFEAT spec's alternatives all walkable (a one-glyph alternative being
 * that glyph's feature). -1 when the spec does not parse. */
static int keyed_walkable(const char *spec)
{
    qg_arena arena;
    qg_arena_init(&arena);
    des_keyed k;
    des_spec_error err;
    int ok = -1;
    if (des_parse_keyed(&arena, DES_DIR_KFEAT, spec, strlen(spec), &k, &err) == DES_PARSE_OK &&
        k.slot_count) {
        ok = 1;
        for (size_t a = 0; a < k.slots[0].count && ok; a++) {
            const char *text = k.slots[0].alts[a].text;
            const char *name = strlen(text) == 1
                                   ? des_glyph_info((unsigned char)text[0])->feature : text;
            ok = name && walkable_feature(name);
        }
    }
    qg_arena_free(&arena);
    return ok;
}

static void fill_table(const lrt_map *map, unsigned char *table)
{
    for (int g = 1; g < LRT_GLYPHS; g++) {
        const lrt_keyed *k = map->keyed[g];
        /* KMONS and KITEM glyphs stand on floor (keyed_mapspec::get_feat) */
        int keyed = k && k->feat ? keyed_walkable(k->feat) : k && (k->mons || k->item) ? 1 : -1;
        if (keyed >= 0) {
            table[g] = (unsigned char)keyed;
            continue;
        }
        const des_glyph *info = des_glyph_info_for((unsigned char)g, map->legacy);
        table[g] = strchr(LRT_TRAVERSABLE, g) ||
                   (des_glyph_is_builtin((unsigned char)g) && info->kind == DES_GLYPH_FEATURE &&
                    info->feature && walkable_feature(info->feature));
    }
    table[0] = 0;
    table[' '] = 0;
}

unsigned char *lrt_walkable_tables(lua_State *L, const lrt_map *map)
{
    size_t n = 1 + map->sub_count;
    unsigned char *tables = lrt_scratch(L, n * LRT_GLYPHS, 1);
    lrt_charge(L, n * LRT_GLYPHS * 4);
    fill_table(map, tables);
    for (size_t i = 0; i < map->sub_count; i++)
        fill_table(map->subs[i], tables + (i + 1) * LRT_GLYPHS);
    return tables;
}

int lrt_walkable(const lrt_map *map, const unsigned char *tables, int x, int y)
{
    unsigned char g = (unsigned char)lrt_cell(map, x, y);
    if (!g)
        return 0;
    size_t sub = map->cell_sub ? map->cell_sub[(size_t)y * map->width + x] : 0;
    return tables[sub * LRT_GLYPHS + g];
}

const char *lrt_glyph_feature(const lrt_map *map, unsigned char glyph, char *buf,
                              size_t size)
{
    const lrt_keyed *k = map->keyed[glyph];
    if (k && k->feat) {
        qg_arena arena;
        qg_arena_init(&arena);
        des_keyed spec;
        des_spec_error err;
        const char *name = NULL;
        if (des_parse_keyed(&arena, DES_DIR_KFEAT, k->feat, strlen(k->feat), &spec, &err) ==
                DES_PARSE_OK &&
            spec.slot_count && spec.slots[0].count) {
            const char *text = spec.slots[0].alts[0].text;
            name = strlen(text) == 1
                       ? des_glyph_info_for((unsigned char)text[0], map->legacy)->feature : text;
            snprintf(buf, size, "%s", name ? name : "floor");
        }
        qg_arena_free(&arena);
        if (name)
            return buf;
    }
    if (k && (k->mons || k->item))
        return "floor";
    const char *name = des_glyph_info_for(glyph, map->legacy)->feature;
    return name ? name : "floor";
}
