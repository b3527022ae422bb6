/* Crawl's built-in glyph meanings (research notes §3.2, dungeon.cc
 * _glyph_to_feat): any glyph not listed is floor. */
#include "lua/run.h"

const char *lrt_glyph_feature(unsigned char glyph)
{
    switch (glyph) {
    case 'x': return "rock_wall";
    case 'X': return "permarock_wall";
    case 'c': return "stone_wall";
    case 'v': return "metal_wall";
    case 'b': return "crystal_wall";
    case 'm': return "clear_rock_wall";
    case 'n': return "clear_stone_wall";
    case 'o': return "clear_permarock_wall";
    case 't': return "tree";
    case '+': return "closed_door";
    case '=': return "runed_clear_door";
    case 'w': return "deep_water";
    case 'W': return "shallow_water";
    case 'l': return "lava";
    case '>': return "escape_hatch_down";
    case '<': return "escape_hatch_up";
    case '}': return "stone_stairs_down_i";
    case '{': return "stone_stairs_up_i";
    case ')': return "stone_stairs_down_ii";
    case '(': return "stone_stairs_up_ii";
    case ']': return "stone_stairs_down_iii";
    case '[': return "stone_stairs_up_iii";
    case 'A': return "stone_arch";
    case 'B': return "altar";
    case 'C': return "random_altar";
    case 'I': return "orcish_idol";
    case 'G': return "granite_statue";
    case 'T': return "fountain_blue";
    case 'U': return "fountain_sparkling";
    case 'V': return "dry_fountain_blue";
    case 'Y': return "fountain_blood";
    case '^': return "random_trap";
    default: return "floor";
    }
}
