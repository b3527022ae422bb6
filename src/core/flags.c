/* The one flag vocabulary: Angband cave_info bits and Crawl vault masks,
 * and how a thing is placed. */
#include "questgrid/core.h"

#include <string.h>

typedef struct flag_name {
    const char *name;
    uint32_t bit;
} flag_name;

static const flag_name mask_names[] = {
    {"vault", QG_MASK_VAULT},
    {"no_item_gen", QG_MASK_NO_ITEM_GEN},
    {"no_monster_gen", QG_MASK_NO_MONSTER_GEN},
    {"no_pool_fixup", QG_MASK_NO_POOL_FIXUP},
    {"allow_tele_closets", QG_MASK_NO_TELE_CLOSET},
    {"no_wall_fixup", QG_MASK_NO_WALL_FIXUP},
    {"opaque", QG_MASK_OPAQUE},
    {"no_trap_gen", QG_MASK_NO_TRAP_GEN},
    {"passable", QG_MASK_PASSABLE},
    {"no_tele_into", QG_MASK_NO_TELE_INTO},
    {"exit", QG_MASK_EXIT},
    {"no_secret_doors", QG_MASK_NO_SECRET_DOORS},
};

static const flag_name info_names[] = {
    {"MARK", QG_INFO_MARK},
    {"GLOW", QG_INFO_GLOW},
    {"ICKY", QG_INFO_ICKY},
    {"ROOM", QG_INFO_ROOM},
    {"INNER", QG_INFO_INNER},
    {"OUTER", QG_INFO_OUTER},
};

static const flag_name thing_names[] = {
    {"AWAKE", QG_THING_AWAKE},
    {"ALONE", QG_THING_ALONE},
    {"FRIENDLY", QG_THING_FRIENDLY},
    {"HASTED", QG_THING_HASTED},
    {"NO_UNIQUE", QG_THING_NO_UNIQUE},
    {"UNTRAPPED", QG_THING_UNTRAPPED},
};

#define COUNT(a) (sizeof(a) / sizeof *(a))

static uint32_t bit_of(const flag_name *table, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(table[i].name, name) == 0)
            return table[i].bit;
    return 0;
}

static const char *name_of(const flag_name *table, size_t n, uint32_t bit)
{
    for (size_t i = 0; i < n; i++)
        if (table[i].bit == bit)
            return table[i].name;
    return NULL;
}

uint32_t qg_mask_from_name(const char *name)
{
    return bit_of(mask_names, COUNT(mask_names), name);
}

const char *qg_mask_name(uint32_t bit)
{
    return name_of(mask_names, COUNT(mask_names), bit);
}

uint32_t qg_info_from_name(const char *name)
{
    return bit_of(info_names, COUNT(info_names), name);
}

const char *qg_info_name(uint32_t bit)
{
    return name_of(info_names, COUNT(info_names), bit);
}

uint32_t qg_thing_flag_from_name(const char *name)
{
    return bit_of(thing_names, COUNT(thing_names), name);
}

const char *qg_thing_flag_name(uint32_t bit)
{
    return name_of(thing_names, COUNT(thing_names), bit);
}
