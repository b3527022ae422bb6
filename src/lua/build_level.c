/* The resolved map as a level: features from the glyph table or KFEAT,
 * monsters and items from MONS/ITEM slots or KMONS/KITEM (weights
 * resolved), vault masks from tags, KMASK and KPROP, markers, exits. */
#include "lua/run.h"
#include "des/dspec.h"
#include "des/glyphs.h"

#include <stdlib.h>
#include <string.h>

static int rng_chance(void *rng, int x, int y)
{
    return qg_rng_x_chance_in_y(rng, x, y);
}

/* A parsed spec with its fixed pick (for ':' keyed specs). */
typedef struct spec_cache {
    dspec_choices slots[8];
    size_t slot_count;
    int parsed, fixed;
    int frozen[8];
} spec_cache;

static void cache_free(spec_cache *c)
{
    for (size_t i = 0; i < c->slot_count; i++)
        dspec_choices_free(&c->slots[i]);
}

static qg_status cache_parse(spec_cache *c, const char *spec, int fixed, int comma_slots)
{
    if (c->parsed)
        return QG_OK;
    c->parsed = 1;
    c->fixed = fixed;
    const char *s = spec;
    while (*s && c->slot_count < 8) {
        size_t len = comma_slots ? strcspn(s, ",") : strlen(s);
        if (dspec_alternatives(s, len, 0, 0, &c->slots[c->slot_count]))
            return QG_ERR_NOMEM;
        c->frozen[c->slot_count] = -1;
        c->slot_count++;
        s += len + (s[len] == ',');
    }
    return QG_OK;
}

/* Picks every slot; the picks are joined with ", " into buf. */
static const char *cache_pick(qg_runtime *rt, spec_cache *c, qg_buf *buf)
{
    qg_buf_reset(buf);
    for (size_t i = 0; i < c->slot_count; i++) {
        int pick = c->frozen[i] >= 0 ? c->frozen[i]
                                     : dspec_pick(&c->slots[i], rng_chance, &rt->rng);
        if (c->fixed)
            c->frozen[i] = pick;
        if (pick < 0)
            continue;
        const char *text = c->slots[i].items[pick].text;
        if (!*text || strcmp(text, "nothing") == 0)
            continue;
        qg_buf_printf(buf, "%s%s", buf->len ? ", " : "", text);
    }
    return buf->len ? buf->data : NULL;
}

typedef struct builder {
    qg_runtime *rt;
    lrt_map *map;
    qg_level *level;
    spec_cache feat[LRT_GLYPHS], mons[LRT_GLYPHS], item[LRT_GLYPHS];
    spec_cache mons_slots[7], item_slots[8];
    uint32_t base_mask;
    qg_buf text;
} builder;

static uint32_t tag_masks(const lrt_map *map, int *transparent)
{
    static const char *const names[] = {"no_monster_gen", "no_item_gen", "no_pool_fixup",
                                        "no_wall_fixup", "no_trap_gen", NULL};
    uint32_t mask = QG_MASK_VAULT;
    *transparent = 0;
    for (size_t i = 0; i < map->tags.count; i++) {
        for (int k = 0; names[k]; k++)
            if (strcmp(map->tags.items[i], names[k]) == 0)
                mask |= qg_mask_from_name(names[k]);
        *transparent |= strcmp(map->tags.items[i], "transparent") == 0;
    }
    return mask;
}

static qg_status place_feature(builder *b, int x, int y, unsigned char g)
{
    lrt_keyed *k = b->map->keyed[g];
    const char *name = NULL;
    if (k && k->feat) {
        if (cache_parse(&b->feat[g], k->feat, k->feat_fixed, 0))
            return QG_ERR_NOMEM;
        name = cache_pick(b->rt, &b->feat[g], &b->text);
        if (name && strlen(name) == 1)
            name = des_glyph_info((unsigned char)name[0])->feature;
    }
    return qg_level_set_feature(b->level, x, y, -1, name ? name : des_glyph_info(g)->feature);
}

static qg_status place_slot(builder *b, int x, int y, qg_slot slot, spec_cache *cache,
                            const char *spec, int fixed, int comma_slots)
{
    if (!spec || !*spec)
        return QG_OK;
    if (cache_parse(cache, spec, fixed, comma_slots))
        return QG_ERR_NOMEM;
    const char *name = cache_pick(b->rt, cache, &b->text);
    if (!name)
        return QG_OK;
    return qg_level_set_thing(b->level, x, y, slot, QG_THING_NAME, 0, name);
}

static qg_status place_monster(builder *b, int x, int y, unsigned char g)
{
    lrt_keyed *k = b->map->keyed[g];
    if (k && k->mons)
        return place_slot(b, x, y, QG_SLOT_MONSTER, &b->mons[g], k->mons, k->mons_fixed, 1);
    if (g >= '1' && g <= '7') {
        size_t i = (size_t)(g - '1');
        if (i >= b->map->mons.count)
            return QG_OK;
        return place_slot(b, x, y, QG_SLOT_MONSTER, &b->mons_slots[i],
                          b->map->mons.items[i], 0, 0);
    }
    int ood = g == '0' ? 0 : g == '9' ? 5 : g == '8' ? 4 + lrt_absdepth(b->rt) : -1;
    if (ood < 0)
        return QG_OK;
    return qg_level_set_thing(b->level, x, y, QG_SLOT_MONSTER, QG_THING_RANDOM, ood, NULL);
}

static qg_status place_item(builder *b, int x, int y, unsigned char g)
{
    lrt_keyed *k = b->map->keyed[g];
    if (k && k->item)
        return place_slot(b, x, y, QG_SLOT_OBJECT, &b->item[g], k->item, k->item_fixed, 1);
    if (g >= 'd' && g <= 'k') {
        size_t i = (size_t)(g - 'd');
        if (i >= b->map->items.count)
            return QG_OK;
        return place_slot(b, x, y, QG_SLOT_OBJECT, &b->item_slots[i],
                          b->map->items.items[i], 0, 0);
    }
    switch (g) {
    case '$':
        return qg_level_set_thing(b->level, x, y, QG_SLOT_OBJECT, QG_THING_NAME, 0, "gold");
    case '%':
        return qg_level_set_thing(b->level, x, y, QG_SLOT_OBJECT, QG_THING_RANDOM, 0, NULL);
    case '*':
        return qg_level_set_thing(b->level, x, y, QG_SLOT_OBJECT, QG_THING_RANDOM,
                                  5 + lrt_absdepth(b->rt), NULL);
    case '|':
        return qg_level_set_thing(b->level, x, y, QG_SLOT_OBJECT, QG_THING_NAME, 0,
                                  "superb item");
    }
    return QG_OK;
}

static uint32_t cell_mask(builder *b, unsigned char g, int transparent)
{
    uint32_t mask = b->base_mask;
    if (!transparent && g != '@')
        mask |= QG_MASK_OPAQUE;
    if (g == '@')
        mask |= QG_MASK_EXIT;
    if (strchr("$%*|", g) && g)
        mask |= QG_MASK_NO_TRAP_GEN;
    lrt_keyed *k = b->map->keyed[g];
    if (k)
        mask = (mask | k->mask_set) & ~k->mask_clear;
    return mask;
}

static qg_status place_cells(builder *b)
{
    int transparent;
    b->base_mask = tag_masks(b->map, &transparent);
    qg_status st = QG_OK;
    for (int y = 0; y < b->map->height && !st; y++) {
        for (int x = 0; x < b->map->width && !st; x++) {
            unsigned char g = (unsigned char)lrt_cell(b->map, x, y);
            if (g == ' ')
                continue;
            if ((st = qg_level_set_glyph(b->level, x, y, g)) ||
                (st = place_feature(b, x, y, g)) ||
                (st = place_item(b, x, y, g)) ||
                (st = qg_level_set_vault_mask(b->level, x, y, cell_mask(b, g, transparent))))
                break;
        }
    }
    /* monsters in a second pass, as Crawl places them after the grid */
    for (int y = 0; y < b->map->height && !st; y++)
        for (int x = 0; x < b->map->width && !st; x++) {
            unsigned char g = (unsigned char)lrt_cell(b->map, x, y);
            if (g != ' ')
                st = place_monster(b, x, y, g);
        }
    return st;
}

static qg_status place_marks(builder *b)
{
    const uint32_t *masks = qg_level_vault_masks(b->level);
    int w = qg_level_width(b->level);
    for (size_t i = 0; i < b->map->mark_count; i++) {
        const lrt_mark *m = &b->map->marks[i];
        qg_status st = qg_level_add_marker(b->level, m->x, m->y, m->spec);
        if (st)
            return st;
        if (strcmp(m->spec, "kprop:no_tele_into") == 0)
            st = qg_level_set_vault_mask(b->level, m->x, m->y,
                                         masks[(size_t)m->y * w + m->x] |
                                             QG_MASK_NO_TELE_INTO);
        if (st)
            return st;
    }
    return QG_OK;
}

static qg_status add_properties(builder *b)
{
    lrt_map *map = b->map;
    char *tags = lrt_sorted_tags(map);
    if (!tags)
        return QG_ERR_NOMEM;
    qg_status st = qg_level_add_property(b->level, "orient", map->orient);
    if (!st)
        st = qg_level_add_property(b->level, "tags", tags);
    free(tags);
    const char *keys[] = {"lfloorcol", "lrockcol", "lfloortile", "lrocktile"};
    const char *values[] = {map->lfloorcol, map->lrockcol, map->lfloortile, map->lrocktile};
    for (int i = 0; i < 4 && !st; i++)
        if (values[i])
            st = qg_level_add_property(b->level, keys[i], values[i]);
    for (size_t i = 0; i < map->subvaults.count && !st; i++)
        st = qg_level_add_property(b->level, "subvault", map->subvaults.items[i]);
    if (!st)
        st = qg_level_set_name(b->level, map->name);
    return st;
}

qg_status lrt_build_level(qg_runtime *rt, lrt_map *map, qg_level **out)
{
    *out = NULL;
    if (map->width < 1 || map->height < 1)
        return QG_ERR_INVALID;
    builder *b = calloc(1, sizeof *b);
    if (!b)
        return QG_ERR_NOMEM;
    b->rt = rt;
    b->map = map;
    qg_buf_init(&b->text);
    b->level = qg_level_new(map->width, map->height);
    qg_status st = b->level ? place_cells(b) : QG_ERR_NOMEM;
    if (!st)
        st = place_marks(b);
    if (!st)
        st = add_properties(b);
    for (int i = 0; i < LRT_GLYPHS; i++) {
        cache_free(&b->feat[i]);
        cache_free(&b->mons[i]);
        cache_free(&b->item[i]);
    }
    for (int i = 0; i < 7; i++)
        cache_free(&b->mons_slots[i]);
    for (int i = 0; i < 8; i++)
        cache_free(&b->item_slots[i]);
    qg_buf_free(&b->text);
    if (st)
        qg_level_free(b->level);
    else
        *out = b->level;
    free(b);
    return st;
}
