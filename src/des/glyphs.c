#include "des/glyphs.h"

#include <stddef.h>

static const des_glyph glyphs[] = {
    {'x', DES_GLYPH_FEATURE, "rock_wall", "rock wall", -1, NULL, DES_PICK_FIXED},
    {'X', DES_GLYPH_FEATURE, "permarock_wall", "permanent rock wall", -1, NULL, DES_PICK_FIXED},
    {'c', DES_GLYPH_FEATURE, "stone_wall", "stone wall", -1, NULL, DES_PICK_FIXED},
    {'v', DES_GLYPH_FEATURE, "metal_wall", "metal wall", -1, NULL, DES_PICK_FIXED},
    {'b', DES_GLYPH_FEATURE, "crystal_wall", "crystal wall", -1, NULL, DES_PICK_FIXED},
    {'m', DES_GLYPH_FEATURE, "clear_rock_wall", "clear rock wall", -1, NULL, DES_PICK_FIXED},
    {'n', DES_GLYPH_FEATURE, "clear_stone_wall", "clear stone wall", -1, NULL, DES_PICK_FIXED},
    {'o', DES_GLYPH_FEATURE, "clear_permarock_wall", "clear permanent rock wall", -1, NULL, DES_PICK_FIXED},
    {'t', DES_GLYPH_FEATURE, "tree", "tree (mangrove in Swamp, demonic tree in Abyss/Pan)", -1, NULL, DES_PICK_FIXED},
    {'+', DES_GLYPH_FEATURE, "closed_door", "closed door", -1, NULL, DES_PICK_FIXED},
    {'=', DES_GLYPH_FEATURE, "runed_clear_door", "runed clear door", -1, NULL, DES_PICK_FIXED},
    {'w', DES_GLYPH_FEATURE, "deep_water", "deep water", -1, NULL, DES_PICK_FIXED},
    {'W', DES_GLYPH_FEATURE, "shallow_water", "shallow water", -1, NULL, DES_PICK_FIXED},
    {'l', DES_GLYPH_FEATURE, "lava", "lava", -1, NULL, DES_PICK_FIXED},
    {'>', DES_GLYPH_FEATURE, "escape_hatch_down", "escape hatch down", -1, NULL, DES_PICK_FIXED},
    {'<', DES_GLYPH_FEATURE, "escape_hatch_up", "escape hatch up", -1, NULL, DES_PICK_FIXED},
    {'}', DES_GLYPH_FEATURE, "stone_stairs_down_i", "stone stairs down I", -1, NULL, DES_PICK_FIXED},
    {'{', DES_GLYPH_FEATURE, "stone_stairs_up_i", "stone stairs up I", -1, NULL, DES_PICK_FIXED},
    {')', DES_GLYPH_FEATURE, "stone_stairs_down_ii", "stone stairs down II", -1, NULL, DES_PICK_FIXED},
    {'(', DES_GLYPH_FEATURE, "stone_stairs_up_ii", "stone stairs up II", -1, NULL, DES_PICK_FIXED},
    {']', DES_GLYPH_FEATURE, "stone_stairs_down_iii", "stone stairs down III", -1, NULL, DES_PICK_FIXED},
    {'[', DES_GLYPH_FEATURE, "stone_stairs_up_iii", "stone stairs up III", -1, NULL, DES_PICK_FIXED},
    {'A', DES_GLYPH_FEATURE, "stone_arch", "stone arch", -1, NULL, DES_PICK_FIXED},
    {'B', DES_GLYPH_FEATURE, "altar", "temple altar (next god of the temple list)", -1, NULL, DES_PICK_FIXED},
    {'C', DES_GLYPH_FEATURE, "altar", "random altar", -1, NULL, DES_PICK_FIXED},
    {'I', DES_GLYPH_FEATURE, "orcish_idol", "orcish idol", -1, NULL, DES_PICK_FIXED},
    {'G', DES_GLYPH_FEATURE, "granite_statue", "granite statue", -1, NULL, DES_PICK_FIXED},
    {'T', DES_GLYPH_FEATURE, "fountain_blue", "blue fountain", -1, NULL, DES_PICK_FIXED},
    {'U', DES_GLYPH_FEATURE, "fountain_sparkling", "sparkling fountain", -1, NULL, DES_PICK_FIXED},
    {'V', DES_GLYPH_FEATURE, "dry_fountain", "dry fountain", -1, NULL, DES_PICK_FIXED},
    {'Y', DES_GLYPH_FEATURE, "fountain_blood", "blood fountain", -1, NULL, DES_PICK_FIXED},
    {'^', DES_GLYPH_FEATURE, "trap", "random trap for the place", -1, NULL, DES_PICK_FIXED},
    {'@', DES_GLYPH_FEATURE, "floor", "floor, an exit of the vault", -1, NULL, DES_PICK_FIXED},
    {'.', DES_GLYPH_FEATURE, "floor", "floor", -1, NULL, DES_PICK_FIXED},
    {'$', DES_GLYPH_ITEM, "floor", "gold", -1, NULL, DES_PICK_FIXED},
    {'%', DES_GLYPH_ITEM, "floor", "random item", -1, NULL, DES_PICK_FIXED},
    {'*', DES_GLYPH_ITEM, "floor", "good item (level 5 + 2 x depth)", -1, NULL, DES_PICK_FIXED},
    {'|', DES_GLYPH_ITEM, "floor", "superb item", -1, NULL, DES_PICK_FIXED},
    {'d', DES_GLYPH_ITEM, "floor", "ITEM slot 1", 0, NULL, DES_PICK_FIXED},
    {'e', DES_GLYPH_ITEM, "floor", "ITEM slot 2", 1, NULL, DES_PICK_FIXED},
    {'f', DES_GLYPH_ITEM, "floor", "ITEM slot 3", 2, NULL, DES_PICK_FIXED},
    {'g', DES_GLYPH_ITEM, "floor", "ITEM slot 4", 3, NULL, DES_PICK_FIXED},
    {'h', DES_GLYPH_ITEM, "floor", "ITEM slot 5", 4, NULL, DES_PICK_FIXED},
    {'i', DES_GLYPH_ITEM, "floor", "ITEM slot 6", 5, NULL, DES_PICK_FIXED},
    {'j', DES_GLYPH_ITEM, "floor", "ITEM slot 7", 6, NULL, DES_PICK_FIXED},
    {'k', DES_GLYPH_ITEM, "floor", "ITEM slot 8", 7, NULL, DES_PICK_FIXED},
    {'0', DES_GLYPH_MONSTER, "floor", "random monster", -1, NULL, DES_PICK_FIXED},
    {'1', DES_GLYPH_MONSTER, "floor", "MONS slot 1", 0, NULL, DES_PICK_FIXED},
    {'2', DES_GLYPH_MONSTER, "floor", "MONS slot 2", 1, NULL, DES_PICK_FIXED},
    {'3', DES_GLYPH_MONSTER, "floor", "MONS slot 3", 2, NULL, DES_PICK_FIXED},
    {'4', DES_GLYPH_MONSTER, "floor", "MONS slot 4", 3, NULL, DES_PICK_FIXED},
    {'5', DES_GLYPH_MONSTER, "floor", "MONS slot 5", 4, NULL, DES_PICK_FIXED},
    {'6', DES_GLYPH_MONSTER, "floor", "MONS slot 6", 5, NULL, DES_PICK_FIXED},
    {'7', DES_GLYPH_MONSTER, "floor", "MONS slot 7", 6, NULL, DES_PICK_FIXED},
    {'8', DES_GLYPH_MONSTER, "floor", "super out-of-depth monster", -1, NULL, DES_PICK_FIXED},
    {'9', DES_GLYPH_MONSTER, "floor", "out-of-depth monster", -1, NULL, DES_PICK_FIXED},
    {' ', DES_GLYPH_OUTSIDE, NULL, "not part of the map", -1, NULL, DES_PICK_FIXED},
};

/* Seed document 000 (level-design.txt), section D "Map symbols", where it
 * differs from today's table: wax wall, secret door, branch trap, the
 * statues, the rune/portal/jelly/Orb item glyphs and the "extra rock
 * stairs" that later became escape hatches. */
static const des_glyph seed_glyphs[] = {
    {'a', DES_GLYPH_FEATURE, "wax_wall", "wax wall", -1, NULL, DES_PICK_FIXED},
    {'=', DES_GLYPH_FEATURE, "secret_door", "secret door", -1, NULL, DES_PICK_FIXED},
    {'~', DES_GLYPH_FEATURE, "trap", "random trap suitable for the branch and depth", -1,
     NULL, DES_PICK_FIXED},
    {'F', DES_GLYPH_FEATURE, "granite_statue",
     "granite statue; 1 in 100 an orange crystal, silver or ice statue", -1, NULL,
     DES_PICK_STATUE},
    {'H', DES_GLYPH_MONSTER, "floor", "orange crystal statue (attacks minds)", -1,
     "orange crystal statue", DES_PICK_FIXED},
    {'S', DES_GLYPH_MONSTER, "floor", "silver statue (summons demons)", -1,
     "silver statue", DES_PICK_FIXED},
    {'O', DES_GLYPH_FEATURE, "floor",
     "the branch entrance of a *_entry vault, else an appropriate rune", -1,
     "rune of Zot", DES_PICK_BRANCH},
    {'P', DES_GLYPH_ITEM, "floor", "maybe a rune (50%)", -1, "rune of Zot", DES_PICK_HALF},
    {'R', DES_GLYPH_ITEM, "floor", "honeycomb (2/3) or royal jelly (1/3)", -1, "honeycomb",
     DES_PICK_JELLY},
    {'Z', DES_GLYPH_ITEM, "floor", "the Orb of Zot", -1, "Orb of Zot", DES_PICK_FIXED},
    {'>', DES_GLYPH_FEATURE, "rock_stairs_down", "extra rock stairs down", -1, NULL,
     DES_PICK_FIXED},
    {'<', DES_GLYPH_FEATURE, "rock_stairs_up", "extra rock stairs up", -1, NULL,
     DES_PICK_FIXED},
};

static const des_glyph floor_fallback = {0, DES_GLYPH_FEATURE, "floor",
                                         "floor (no built-in meaning)", -1,
                                         NULL, DES_PICK_FIXED};

static const des_glyph *find(const des_glyph *table, size_t n, unsigned char glyph)
{
    for (size_t i = 0; i < n; i++)
        if (table[i].glyph == glyph)
            return &table[i];
    return NULL;
}

static const des_glyph *lookup(unsigned char glyph)
{
    return find(glyphs, sizeof glyphs / sizeof *glyphs, glyph);
}

const des_glyph *des_glyph_info(unsigned char glyph)
{
    const des_glyph *g = lookup(glyph);
    return g ? g : &floor_fallback;
}

const des_glyph *des_glyph_info_for(unsigned char glyph, int legacy)
{
    const des_glyph *g =
        legacy ? find(seed_glyphs, sizeof seed_glyphs / sizeof *seed_glyphs, glyph) : NULL;
    return g ? g : des_glyph_info(glyph);
}

int des_glyph_is_builtin(unsigned char glyph)
{
    return lookup(glyph) != NULL;
}
