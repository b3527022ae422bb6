/* The names formats use for thing kinds and slots. */
#include "formats/formats.h"

#include <string.h>

static const char *const kind_names[] = {
    [QG_THING_INDEX] = "index", [QG_THING_RANDOM] = "random",
    [QG_THING_CLONE] = "clone", [QG_THING_REWARD] = "reward",
    [QG_THING_NAME] = "name",   [QG_THING_TAG] = "tag",
    [QG_THING_FORMATION] = "formation",
};

static const char *const slot_names[QG_SLOTS] = {
    [QG_SLOT_MONSTER] = "monster", [QG_SLOT_OBJECT] = "object",
    [QG_SLOT_EGO] = "ego",         [QG_SLOT_ARTIFACT] = "artifact",
    [QG_SLOT_TRAP] = "trap",
};

#define KIND_COUNT (sizeof kind_names / sizeof *kind_names)

const char *qg_thing_kind_name(qg_thing_kind kind)
{
    return (unsigned)kind < KIND_COUNT ? kind_names[kind] : NULL;
}

qg_thing_kind qg_thing_kind_from_name(const char *name)
{
    for (size_t k = 1; k < KIND_COUNT; k++)
        if (name && strcmp(name, kind_names[k]) == 0)
            return (qg_thing_kind)k;
    return QG_THING_NONE;
}

const char *qg_slot_name(qg_slot slot)
{
    return (unsigned)slot < QG_SLOTS ? slot_names[slot] : NULL;
}

qg_slot qg_slot_from_name(const char *name)
{
    for (int s = 0; s < QG_SLOTS; s++)
        if (name && strcmp(name, slot_names[s]) == 0)
            return (qg_slot)s;
    return QG_SLOTS;
}
