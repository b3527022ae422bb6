/* What a level's cell is, for collision checks, exits and validation: from
 * Crawl's glyph table, or from the feature's name when the level has one. */
#include "place/internal.h"

#include <ctype.h>
#include <string.h>

#define WALL (QG_FEAT_WALL | QG_FEAT_SOLID | QG_FEAT_OPAQUE)
#define CLEAR_WALL (QG_FEAT_WALL | QG_FEAT_SOLID)

uint32_t qg_glyph_class(unsigned char glyph)
{
    switch (glyph) {
    case 'x': case 'c': case 'v': return WALL;
    case 'X': return WALL | QG_FEAT_PERMANENT;
    case 'b': case 'm': case 'n': return CLEAR_WALL;
    case 'o': return CLEAR_WALL | QG_FEAT_PERMANENT;
    case 't': return QG_FEAT_TREE | QG_FEAT_SOLID | QG_FEAT_OPAQUE;
    case '+': case '=': return QG_FEAT_DOOR | QG_FEAT_OPAQUE;
    case 'w': return QG_FEAT_DEEP_WATER;
    case 'W': return QG_FEAT_SHALLOW;
    case 'l': return QG_FEAT_LAVA;
    case '<': case '>': case '{': case '}': case '(': case ')':
    case '[': case ']': return QG_FEAT_STAIRS;
    case 'G': case 'I': case 'T': case 'U': case 'V': case 'Y':
        return QG_FEAT_SOLID;
    case 'A': case 'B': case 'C': case '^': case ' ': return 0;
    }
    return QG_FEAT_FLOOR; /* "any other glyph is floor" */
}

typedef struct name_rule {
    const char *word;
    uint32_t cls;
} name_rule;

/* First match wins: the more specific words come first. */
static const name_rule name_rules[] = {
    {"statue", QG_FEAT_SOLID}, {"idol", QG_FEAT_SOLID},
    {"fountain", QG_FEAT_SOLID}, {"pillar", QG_FEAT_SOLID},
    {"open door", QG_FEAT_DOOR}, {"broken door", QG_FEAT_DOOR},
    {"door", QG_FEAT_DOOR | QG_FEAT_OPAQUE},
    {"clear perm", CLEAR_WALL | QG_FEAT_PERMANENT},
    {"perm", WALL | QG_FEAT_PERMANENT},
    {"clear", CLEAR_WALL}, {"crystal", CLEAR_WALL},
    {"rock stair", QG_FEAT_STAIRS}, /* seed-era rock_stairs_up/down */
    {"tree", QG_FEAT_TREE | QG_FEAT_SOLID | QG_FEAT_OPAQUE},
    {"mangrove", QG_FEAT_TREE | QG_FEAT_SOLID | QG_FEAT_OPAQUE},
    {"wall", WALL}, {"granite", WALL}, {"rock", WALL}, {"magma", WALL},
    {"quartz", WALL}, {"rubble", WALL}, {"mountain", WALL},
    {"deep water", QG_FEAT_DEEP_WATER}, {"shallow water", QG_FEAT_SHALLOW},
    {"water", QG_FEAT_SHALLOW}, {"lava", QG_FEAT_LAVA},
    {"stair", QG_FEAT_STAIRS}, {"hatch", QG_FEAT_STAIRS},
    {"portal", QG_FEAT_STAIRS}, {"shaft", QG_FEAT_STAIRS},
    {"enter ", QG_FEAT_STAIRS}, {"exit ", QG_FEAT_STAIRS},
    {"floor", QG_FEAT_FLOOR}, {"grass", QG_FEAT_FLOOR}, {"dirt", QG_FEAT_FLOOR},
    {"road", QG_FEAT_FLOOR}, {"sand", QG_FEAT_FLOOR},
};

uint32_t qg_feature_name_class(const char *name)
{
    char low[64];
    size_t n = 0;
    for (; name[n] && n < sizeof low - 2; n++) {
        unsigned char c = (unsigned char)name[n];
        low[n] = c == '_' ? ' ' : (char)tolower(c);
    }
    low[n++] = ' '; /* so that "exit " matches a trailing word too */
    low[n] = '\0';
    for (size_t i = 0; i < sizeof name_rules / sizeof *name_rules; i++)
        if (strstr(low, name_rules[i].word))
            return name_rules[i].cls;
    return 0;
}

uint32_t qg_cell_class(const qg_cell *cell)
{
    if (cell->feature_name && *cell->feature_name)
        return qg_feature_name_class(cell->feature_name);
    return qg_glyph_class(cell->glyph);
}
