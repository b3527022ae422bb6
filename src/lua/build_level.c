/* The resolved map as a level: features from the glyph table or KFEAT,
 * monsters and items from MONS/ITEM slots or KMONS/KITEM (weights
 * resolved), vault masks from tags, KMASK and KPROP, markers, exits. */
#include "lua/run.h"
#include "des/directives.h"
#include "des/glyphs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A keyed spec or MONS/ITEM slot parsed once per level, with the picks of
 * a fixed (':') spec. */
typedef struct spec_cache {
    int parsed, failed, fixed;
    const des_slot *slots;
    size_t slot_count;
    int *frozen;
} spec_cache;

static int cache_keyed(qg_arena *arena, spec_cache *c, des_dir dir, const char *text)
{
    if (c->parsed)
        return !c->failed;
    c->parsed = 1;
    des_keyed k;
    des_spec_error err;
    des_slot *slot = NULL;
    int r;
    if (dir == DES_DIR_MONS || dir == DES_DIR_ITEM) {
        slot = qg_arena_alloc(arena, sizeof *slot);
        r = slot ? des_parse_slot(arena, text, strlen(text), slot, &err) : DES_PARSE_NOMEM;
        c->slots = slot;
        c->slot_count = 1;
    } else {
        r = des_parse_keyed(arena, dir, text, strlen(text), &k, &err);
        c->slots = k.slots;
        c->slot_count = k.slot_count;
        c->fixed = k.fixed;
    }
    c->frozen = r == DES_PARSE_OK ? qg_arena_array(arena, c->slot_count + 1, sizeof *c->frozen)
                                  : NULL;
    c->failed = !c->frozen;
    for (size_t i = 0; c->frozen && i < c->slot_count; i++)
        c->frozen[i] = -1;
    return !c->failed;
}

/* Picks every slot; the picks are joined with ", " into buf ("nothing"
 * places nothing). NULL when nothing is placed. */
static const char *cache_pick(qg_runtime *rt, spec_cache *c, qg_buf *buf)
{
    qg_buf_reset(buf);
    for (size_t i = 0; i < c->slot_count; i++) {
        const des_slot *slot = &c->slots[i];
        int pick = c->frozen[i] >= 0 ? c->frozen[i]
                                     : lrt_pick_weighted(&rt->rng, &slot->alts[0].weight,
                                                         sizeof *slot->alts, slot->count);
        if (c->fixed)
            c->frozen[i] = pick;
        if (pick < 0)
            continue;
        const char *text = slot->alts[pick].text;
        if (!*text || strcmp(text, "nothing") == 0)
            continue;
        qg_buf_printf(buf, "%s%s", buf->len ? ", " : "", text);
    }
    return buf->len ? buf->data : NULL;
}

/* The parsed specs of one map (the level's, or a subvault merged in). */
typedef struct spec_set {
    spec_cache feat[LRT_GLYPHS], mons[LRT_GLYPHS], item[LRT_GLYPHS];
    spec_cache mons_slots[7], item_slots[8];
} spec_set;

typedef struct builder {
    qg_runtime *rt;
    lrt_map *map;
    qg_level *level;
    spec_set *sets;        /* [0] the map's, [1 + i] subvault i's */
    uint32_t base_mask;
    qg_buf text;
    qg_arena arena;
} builder;

/* Whose keyed specs and slots a cell's glyph uses. */
typedef struct source {
    lrt_map *map;
    spec_set *set;
} source;

static source source_at(builder *b, int x, int y)
{
    size_t sub = b->map->cell_sub ? b->map->cell_sub[(size_t)y * b->map->width + x] : 0;
    source src = {sub ? b->map->subs[sub - 1] : b->map, &b->sets[sub]};
    return src;
}

static uint32_t tag_masks(const lrt_map *map, int *transparent)
{
    static const char *const names[] = {"no_monster_gen", "no_item_gen", "no_pool_fixup",
                                        "no_wall_fixup", "no_trap_gen", "no_secret_doors",
                                        NULL};
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

/* "enter_<branch>" for a map tagged "<branch>_entry" (seed 000: "O -
 * stairs to the Temple" in a temple_entry vault), or NULL. */
static const char *branch_entrance(const lrt_map *map, char *buf, size_t size)
{
    static const char suffix[] = "_entry";
    for (size_t i = 0; i < map->tags.count; i++) {
        const char *tag = map->tags.items[i];
        size_t len = strlen(tag);
        if (len > sizeof suffix - 1 && strcmp(tag + len - (sizeof suffix - 1), suffix) == 0) {
            snprintf(buf, size, "enter_%.*s", (int)(len - (sizeof suffix - 1)), tag);
            return buf;
        }
    }
    return NULL;
}

/* What a seed-era statue glyph F turned out to be, rolled once per cell:
 * the statue monster, or NULL for the granite statue. */
static const char *statue_monster(builder *b)
{
    static const char *const statues[] = {"orange crystal statue", "silver statue",
                                          "ice statue"};
    if (!qg_rng_one_chance_in(&b->rt->rng, 100))
        return NULL;
    return statues[qg_rng_below(&b->rt->rng, 3)];
}

static qg_status place_feature(builder *b, int x, int y, unsigned char g)
{
    source src = source_at(b, x, y);
    lrt_keyed *k = src.map->keyed[g];
    const des_glyph *info = des_glyph_info_for(g, src.map->legacy);
    const char *name = info->feature;
    char entrance[80];
    if (k && k->feat) {
        if (!cache_keyed(&b->arena, &src.set->feat[g], DES_DIR_KFEAT, k->feat))
            return QG_ERR_NOMEM;
        name = cache_pick(b->rt, &src.set->feat[g], &b->text);
        if (name && strlen(name) == 1)
            name = des_glyph_info_for((unsigned char)name[0], src.map->legacy)->feature;
        if (!name)
            name = info->feature;
    } else if (k && (k->mons || k->item)) {
        /* keyed_mapspec::get_feat(): feat.get_feat('.') */
        name = "floor";
    } else if (info->pick == DES_PICK_BRANCH) {
        const char *enter = branch_entrance(src.map, entrance, sizeof entrance);
        if (enter)
            name = enter;
    } else if (info->pick == DES_PICK_STATUE) {
        const char *statue = statue_monster(b);
        if (statue) {
            qg_status st = qg_level_set_thing(b->level, x, y, QG_SLOT_MONSTER,
                                              QG_THING_NAME, 0, statue);
            if (st)
                return st;
            name = "floor";
        }
    }
    return qg_level_set_feature(b->level, x, y, -1, name);
}

static qg_status place_slot(builder *b, int x, int y, qg_slot slot, spec_cache *cache,
                            des_dir dir, const char *spec)
{
    if (!spec || !*spec)
        return QG_OK;
    if (!cache_keyed(&b->arena, cache, dir, spec))
        return QG_ERR_NOMEM;
    const char *name = cache_pick(b->rt, cache, &b->text);
    if (!name)
        return QG_OK;
    return qg_level_set_thing(b->level, x, y, slot, QG_THING_NAME, 0, name);
}

static qg_status place_monster(builder *b, int x, int y, unsigned char g)
{
    source src = source_at(b, x, y);
    lrt_keyed *k = src.map->keyed[g];
    if (k && k->mons)
        return place_slot(b, x, y, QG_SLOT_MONSTER, &src.set->mons[g], DES_DIR_KMONS, k->mons);
    const des_glyph *info = des_glyph_info_for(g, src.map->legacy);
    if (info->kind == DES_GLYPH_MONSTER && info->thing)
        return qg_level_set_thing(b->level, x, y, QG_SLOT_MONSTER, QG_THING_NAME, 0,
                                  info->thing);
    if (g >= '1' && g <= '7') {
        size_t i = (size_t)(g - '1');
        /* mons_list::get_monster: no slot is mons_spec(RANDOM_MONSTER) */
        if (i < src.map->mons.count && *src.map->mons.items[i])
            return place_slot(b, x, y, QG_SLOT_MONSTER, &src.set->mons_slots[i],
                              DES_DIR_MONS, src.map->mons.items[i]);
    }
    int ood = g == '0' || (g >= '1' && g <= '7') ? 0
            : g == '9' ? 5 : g == '8' ? 4 + lrt_absdepth(b->rt) : -1;
    if (ood < 0)
        return QG_OK;
    return qg_level_set_thing(b->level, x, y, QG_SLOT_MONSTER, QG_THING_RANDOM, ood, NULL);
}

/* The item glyphs of the seed documents: O (a rune, outside branch entry
 * vaults), P (a rune one time in two), R (honeycomb or royal jelly), Z. */
static qg_status place_seed_item(builder *b, int x, int y, const lrt_map *map,
                                 const des_glyph *info)
{
    char entrance[80];
    const char *name = info->thing;
    switch (info->pick) {
    case DES_PICK_BRANCH:
        if (branch_entrance(map, entrance, sizeof entrance))
            return QG_OK;
        break;
    case DES_PICK_HALF:
        if (qg_rng_coinflip(&b->rt->rng))
            return QG_OK;
        break;
    case DES_PICK_JELLY:
        if (qg_rng_one_chance_in(&b->rt->rng, 3))
            name = "royal jelly";
        break;
    default:
        break;
    }
    return qg_level_set_thing(b->level, x, y, QG_SLOT_OBJECT, QG_THING_NAME, 0, name);
}

static qg_status place_item(builder *b, int x, int y, unsigned char g)
{
    source src = source_at(b, x, y);
    lrt_keyed *k = src.map->keyed[g];
    if (k && k->item)
        return place_slot(b, x, y, QG_SLOT_OBJECT, &src.set->item[g], DES_DIR_KITEM, k->item);
    const des_glyph *info = des_glyph_info_for(g, src.map->legacy);
    if (info->thing && info->kind != DES_GLYPH_MONSTER)
        return place_seed_item(b, x, y, src.map, info);
    if (g >= 'd' && g <= 'k') {
        size_t i = (size_t)(g - 'd');
        if (i >= src.map->items.count)
            return QG_OK;
        return place_slot(b, x, y, QG_SLOT_OBJECT, &src.set->item_slots[i], DES_DIR_ITEM,
                          src.map->items.items[i]);
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

static uint32_t cell_mask(builder *b, int x, int y, unsigned char g, int transparent)
{
    uint32_t mask = b->base_mask;
    if (!transparent && g != '@')
        mask |= QG_MASK_OPAQUE;
    if (g == '@')
        mask |= QG_MASK_EXIT;
    if (strchr("$%*|", g) && g)
        mask |= QG_MASK_NO_TRAP_GEN;
    lrt_keyed *k = source_at(b, x, y).map->keyed[g];
    if (k)
        mask = (mask | k->mask_set) & ~k->mask_clear;
    return mask;
}

/* Seed 000, section E: "non-rectangular maps will be padded with rock
 * walls for the smallest rectangle containing them" (rows are stored
 * right-trimmed, so the spaces after a row's last glyph are that padding). */
static void pad_ragged_rows_with_rock(lrt_map *map)
{
    for (int y = 0; y < map->height; y++) {
        char *row = map->grid + (size_t)y * map->width;
        int end = map->width;
        while (end > 0 && row[end - 1] == ' ')
            end--;
        if (end > 0)
            memset(row + end, 'x', (size_t)(map->width - end));
    }
}

static qg_status place_cells(builder *b)
{
    if (b->map->legacy)
        pad_ragged_rows_with_rock(b->map);
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
                (st = qg_level_set_vault_mask(b->level, x, y, cell_mask(b, x, y, g, transparent))))
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
    for (size_t i = 0; i < b->map->mark_count; i++) {
        const lrt_mark *m = &b->map->marks[i];
        qg_status st = qg_level_add_marker(b->level, m->x, m->y, m->spec);
        if (st)
            return st;
        qg_cell cell;
        if (strcmp(m->spec, "kprop:no_tele_into") == 0 &&
            qg_level_cell(b->level, m->x, m->y, &cell) == QG_OK)
            st = qg_level_set_vault_mask(b->level, m->x, m->y,
                                         cell.vault_mask | QG_MASK_NO_TELE_INTO);
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
    char line[16];
    snprintf(line, sizeof line, "%d", map->line);
    qg_status st = qg_level_add_property(b->level, "orient", map->orient);
    if (!st)
        st = qg_level_add_property(b->level, "tags", tags);
    if (!st && map->file)
        st = qg_level_add_property(b->level, "file", map->file);
    if (!st && map->file)
        st = qg_level_add_property(b->level, "line", line);
    free(tags);
    const char *keys[] = {"lfloorcol", "lrockcol", "lfloortile", "lrocktile"};
    const char *values[] = {map->lfloorcol, map->lrockcol, map->lfloortile, map->lrocktile};
    for (int i = 0; i < 4 && !st; i++)
        if (values[i])
            st = qg_level_add_property(b->level, keys[i], values[i]);
    for (size_t i = 0; i < map->level_keys.count && !st; i++)
        st = qg_level_add_property(b->level, map->level_keys.items[i], map->level_values.items[i]);
    for (size_t i = 0; i < map->sub_count && !st; i++)
        st = qg_level_add_property(b->level, "subvault", map->subs[i]->name);
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
    spec_set *sets = b ? calloc(1 + map->sub_count, sizeof *sets) : NULL;
    if (!sets) {
        free(b);
        return QG_ERR_NOMEM;
    }
    b->sets = sets;
    b->rt = rt;
    b->map = map;
    qg_buf_init(&b->text);
    qg_arena_init(&b->arena);
    b->level = qg_level_new(map->width, map->height);
    qg_status st = b->level ? place_cells(b) : QG_ERR_NOMEM;
    if (!st)
        st = place_marks(b);
    if (!st)
        st = add_properties(b);
    qg_arena_free(&b->arena);
    free(b->sets);
    qg_buf_free(&b->text);
    if (st)
        qg_level_free(b->level);
    else
        *out = b->level;
    free(b);
    return st;
}
