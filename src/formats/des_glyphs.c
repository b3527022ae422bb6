/* The .des writer's glyphs: a feature's built-in glyph, a MONS or ITEM
 * slot, a built-in item or random glyph, or a free glyph given K* lines. */
#include "formats/des_write.h"
#include "des/glyphs.h"

#include <string.h>

/* Glyphs with no meaning of their own in a .des map, for K* lines. */
static const char pool[] = "aDEFHJKLMNOPQRSZpqrsuyz&~!?_-;'`#\"";

static int reserved_glyph(unsigned char g)
{
    return g <= ' ' || g >= 0x7F || (g >= '0' && g <= '9') || (g >= 'd' && g <= 'k') ||
           strchr("$%*|@", g);
}

int des_builtin(unsigned char g, const char *feature)
{
    return strcmp(des_glyph_info(g)->feature, feature) == 0;
}

/* A glyph belongs to one key only, so KMASK and MARKER lines may go with
 * any glyph; KFEAT, KMONS and KITEM are what the built-in glyphs spare. */
static int plain(const cell_key *k)
{
    return !k->monster && !k->item && !k->random_monster && !k->random_item &&
           k->unmapped < 0;
}

static unsigned char take(des_writer *w, unsigned char g)
{
    w->used[g] = 1;
    return g;
}

/* The feature's own glyph, the cell's glyph first. */
static unsigned char builtin_glyph(des_writer *w, const cell_key *k)
{
    static const char table[] = ".xXcvbmnot+=wWl><}{)(][ABCIGTUVY^";
    if (!reserved_glyph(k->own) && !w->used[k->own] && des_builtin(k->own, k->feature))
        return take(w, k->own);
    for (const char *g = table; *g; g++)
        if (!w->used[(unsigned char)*g] && des_builtin((unsigned char)*g, k->feature))
            return take(w, (unsigned char)*g);
    return 0;
}

/* A spec that is itself a glyph ("0", "%", …) means something else in a
 * MONS or ITEM list than under KMONS or KITEM, so it stays keyed. */
static int glyph_spec(const char *spec)
{
    return spec && spec[0] && !spec[1];
}

/* Item names the runtime gives the built-in item glyphs. */
unsigned char des_item_glyph(const cell_key *k)
{
    if (k->random_item)
        return (unsigned char)k->random_item;
    if (k->item && strcmp(k->item, "gold") == 0)
        return '$';
    if (k->item && strcmp(k->item, "superb item") == 0)
        return '|';
    return 0;
}

/* An exit, or a MONS or ITEM slot (or built-in glyph) for a lone monster
 * or item on floor. */
static unsigned char slot_glyph(des_writer *w, const cell_key *k)
{
    if (strcmp(k->feature, "floor") != 0 || k->unmapped >= 0)
        return 0;
    int things = (k->monster || k->random_monster) + (k->item || k->random_item);
    if (k->exit)
        return !things && !w->used['@'] ? take(w, '@') : 0;
    unsigned char builtin_item = des_item_glyph(k);
    if (things != 1 || glyph_spec(k->monster) || glyph_spec(k->item))
        return 0;
    /* a built-in thing glyph goes first to a cell that needs no KMASK */
    unsigned char builtin_thing = k->random_monster ? (unsigned char)k->random_monster
                                                    : builtin_item;
    if (builtin_thing)
        return k->masks == des_automatic_masks(w, builtin_thing) && !w->used[builtin_thing]
                   ? take(w, builtin_thing)
                   : 0;
    char **slots = k->monster ? w->mons : w->items;
    int *count = k->monster ? &w->mons_count : &w->item_count;
    int max = k->monster ? MONS_SLOTS : ITEM_SLOTS;
    const char *spec = k->monster ? k->monster : k->item;
    if (*count == max || strchr(spec, ','))
        return 0;
    slots[*count] = qg_strdup(spec);
    return take(w, (unsigned char)((k->monster ? '1' : 'd') + (*count)++));
}

static unsigned char free_glyph(des_writer *w, const cell_key *k)
{
    if (k->exit && !w->used['@'])
        return take(w, '@');
    if (k->exit)
        w->lost_exits++;
    /* a built-in thing glyph keeps its thing under KFEAT and KMONS */
    unsigned char things[] = {(unsigned char)k->random_item, des_item_glyph(k),
                              (unsigned char)k->random_monster};
    for (size_t i = 0; i < sizeof things; i++)
        if (things[i] && !w->used[things[i]])
            return take(w, things[i]);
    if (k->random_item || k->random_monster)
        w->lost_random++;
    if (!reserved_glyph(k->own) && !w->used[k->own] && k->own != ',' && k->own != ':')
        return take(w, k->own);
    for (const char *g = pool; *g; g++)
        if (!w->used[(unsigned char)*g])
            return take(w, (unsigned char)*g);
    return 0;
}

int des_assign_glyphs(des_writer *w)
{
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < w->key_count; i++) {
            cell_key *k = &w->keys[i];
            if (k->glyph)
                continue;
            if (pass == 0 && plain(k) && !k->exit)
                k->glyph = builtin_glyph(w, k);
            else if (pass == 1)
                k->glyph = slot_glyph(w, k);
            else if (pass == 2 && !(k->glyph = free_glyph(w, k)))
                return 0;
        }
    return 1;
}


unsigned char des_spare_glyph(des_writer *w)
{
    for (const char *g = pool; *g; g++)
        if (!w->used[(unsigned char)*g])
            return take(w, (unsigned char)*g);
    return 0;
}
