#include "des/glyphs.h"

#include <stddef.h>

static const des_glyph glyphs[] = {
    {'x', DES_GLYPH_FEATURE, "rock_wall", "rock wall", -1},
    {'X', DES_GLYPH_FEATURE, "permarock_wall", "permanent rock wall", -1},
    {'c', DES_GLYPH_FEATURE, "stone_wall", "stone wall", -1},
    {'v', DES_GLYPH_FEATURE, "metal_wall", "metal wall", -1},
    {'b', DES_GLYPH_FEATURE, "crystal_wall", "crystal wall", -1},
    {'m', DES_GLYPH_FEATURE, "clear_rock_wall", "clear rock wall", -1},
    {'n', DES_GLYPH_FEATURE, "clear_stone_wall", "clear stone wall", -1},
    {'o', DES_GLYPH_FEATURE, "clear_permarock_wall", "clear permanent rock wall", -1},
    {'t', DES_GLYPH_FEATURE, "tree", "tree (mangrove in Swamp, demonic tree in Abyss/Pan)", -1},
    {'+', DES_GLYPH_FEATURE, "closed_door", "closed door", -1},
    {'=', DES_GLYPH_FEATURE, "runed_clear_door", "runed clear door", -1},
    {'w', DES_GLYPH_FEATURE, "deep_water", "deep water", -1},
    {'W', DES_GLYPH_FEATURE, "shallow_water", "shallow water", -1},
    {'l', DES_GLYPH_FEATURE, "lava", "lava", -1},
    {'>', DES_GLYPH_FEATURE, "escape_hatch_down", "escape hatch down", -1},
    {'<', DES_GLYPH_FEATURE, "escape_hatch_up", "escape hatch up", -1},
    {'}', DES_GLYPH_FEATURE, "stone_stairs_down_i", "stone stairs down I", -1},
    {'{', DES_GLYPH_FEATURE, "stone_stairs_up_i", "stone stairs up I", -1},
    {')', DES_GLYPH_FEATURE, "stone_stairs_down_ii", "stone stairs down II", -1},
    {'(', DES_GLYPH_FEATURE, "stone_stairs_up_ii", "stone stairs up II", -1},
    {']', DES_GLYPH_FEATURE, "stone_stairs_down_iii", "stone stairs down III", -1},
    {'[', DES_GLYPH_FEATURE, "stone_stairs_up_iii", "stone stairs up III", -1},
    {'A', DES_GLYPH_FEATURE, "stone_arch", "stone arch", -1},
    {'B', DES_GLYPH_FEATURE, "altar", "temple altar (next god of the temple list)", -1},
    {'C', DES_GLYPH_FEATURE, "altar", "random altar", -1},
    {'I', DES_GLYPH_FEATURE, "orcish_idol", "orcish idol", -1},
    {'G', DES_GLYPH_FEATURE, "granite_statue", "granite statue", -1},
    {'T', DES_GLYPH_FEATURE, "fountain_blue", "blue fountain", -1},
    {'U', DES_GLYPH_FEATURE, "fountain_sparkling", "sparkling fountain", -1},
    {'V', DES_GLYPH_FEATURE, "dry_fountain", "dry fountain", -1},
    {'Y', DES_GLYPH_FEATURE, "fountain_blood", "blood fountain", -1},
    {'^', DES_GLYPH_FEATURE, "trap", "random trap for the place", -1},
    {'@', DES_GLYPH_FEATURE, "floor", "floor, an exit of the vault", -1},
    {'.', DES_GLYPH_FEATURE, "floor", "floor", -1},
    {'$', DES_GLYPH_ITEM, "floor", "gold", -1},
    {'%', DES_GLYPH_ITEM, "floor", "random item", -1},
    {'*', DES_GLYPH_ITEM, "floor", "good item (level 5 + 2 x depth)", -1},
    {'|', DES_GLYPH_ITEM, "floor", "superb item", -1},
    {'d', DES_GLYPH_ITEM, "floor", "ITEM slot 1", 0},
    {'e', DES_GLYPH_ITEM, "floor", "ITEM slot 2", 1},
    {'f', DES_GLYPH_ITEM, "floor", "ITEM slot 3", 2},
    {'g', DES_GLYPH_ITEM, "floor", "ITEM slot 4", 3},
    {'h', DES_GLYPH_ITEM, "floor", "ITEM slot 5", 4},
    {'i', DES_GLYPH_ITEM, "floor", "ITEM slot 6", 5},
    {'j', DES_GLYPH_ITEM, "floor", "ITEM slot 7", 6},
    {'k', DES_GLYPH_ITEM, "floor", "ITEM slot 8", 7},
    {'0', DES_GLYPH_MONSTER, "floor", "random monster", -1},
    {'1', DES_GLYPH_MONSTER, "floor", "MONS slot 1", 0},
    {'2', DES_GLYPH_MONSTER, "floor", "MONS slot 2", 1},
    {'3', DES_GLYPH_MONSTER, "floor", "MONS slot 3", 2},
    {'4', DES_GLYPH_MONSTER, "floor", "MONS slot 4", 3},
    {'5', DES_GLYPH_MONSTER, "floor", "MONS slot 5", 4},
    {'6', DES_GLYPH_MONSTER, "floor", "MONS slot 6", 5},
    {'7', DES_GLYPH_MONSTER, "floor", "MONS slot 7", 6},
    {'8', DES_GLYPH_MONSTER, "floor", "super out-of-depth monster", -1},
    {'9', DES_GLYPH_MONSTER, "floor", "out-of-depth monster", -1},
    {' ', DES_GLYPH_OUTSIDE, NULL, "not part of the map", -1},
};

static const des_glyph floor_fallback = {0, DES_GLYPH_FEATURE, "floor",
                                         "floor (no built-in meaning)", -1};

static const des_glyph *lookup(unsigned char glyph)
{
    for (size_t i = 0; i < sizeof glyphs / sizeof *glyphs; i++)
        if (glyphs[i].glyph == glyph)
            return &glyphs[i];
    return NULL;
}

const des_glyph *des_glyph_info(unsigned char glyph)
{
    const des_glyph *g = lookup(glyph);
    return g ? g : &floor_fallback;
}

int des_glyph_is_builtin(unsigned char glyph)
{
    return lookup(glyph) != NULL;
}
