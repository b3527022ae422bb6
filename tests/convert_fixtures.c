#include "convert_fixtures.h"

#include <string.h>

static const char *const rich_rows[] = {
    "#######",
    "#.a.\x80.#",
    "#..+..#",
    "##.^.##",
    "  ###  ",
};

qg_level *fixture_rich_level(void)
{
    return fixture_rich_level_ordered(0);
}

/* Tiled keeps properties sorted by name: Q, Q#2, desc, quest, tags. */
static void add_properties(qg_level *l, int sorted)
{
    static const char *const props[][2] = {
        {"tags", "no_rotate transparent"},
        {"quest", "1"},
        {"Q", "1:N:Thieves\tden"},
        {"Q", "1:Q:6:0:0:0:5:0:0:0:6"},
        {"desc", "line one\nline two \xe9t\xe9"},
    };
    static const int order[] = {2, 3, 4, 1, 0};
    for (int i = 0; i < 5; i++) {
        int at = sorted ? order[i] : i;
        qg_level_add_property(l, props[at][0], props[at][1]);
    }
}

qg_level *fixture_rich_level_ordered(int sorted_properties)
{
    qg_level *l = qg_level_new(7, 5);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 7; x++) {
            unsigned char g = (unsigned char)rich_rows[y][x];
            if (g == ' ')
                continue;
            qg_level_set_glyph(l, x, y, g);
            if (g == '#')
                qg_level_set_feature(l, x, y, 57, "PERMANENT");
            else if (g == '+')
                qg_level_set_feature(l, x, y, 32, NULL);
            else if (g != 0x80)
                qg_level_set_feature(l, x, y, 1, "FLOOR");
            qg_level_set_cave_info(l, x, y, g == '#' ? 0 : QG_INFO_ROOM | QG_INFO_ICKY);
        }
    /* the same glyph with another terrain */
    qg_level_set_feature(l, 5, 2, 7, "GRASS \"tall\" & <green>");
    qg_level_set_vault_mask(l, 5, 2, QG_MASK_VAULT | QG_MASK_NO_ITEM_GEN);
    qg_level_set_special(l, 3, 3, -1, 5, 2);
    qg_level_set_thing(l, 2, 1, QG_SLOT_MONSTER, QG_THING_INDEX, 44, NULL);
    qg_level_set_thing(l, 2, 1, QG_SLOT_OBJECT, QG_THING_RANDOM, 3, NULL);
    qg_level_set_thing(l, 1, 2, QG_SLOT_MONSTER, QG_THING_CLONE, 12, NULL);
    qg_level_set_thing(l, 1, 2, QG_SLOT_ARTIFACT, QG_THING_REWARD, 0, NULL);
    qg_level_set_thing(l, 2, 2, QG_SLOT_MONSTER, QG_THING_NAME, 0, "orc warrior / w:5");
    qg_level_set_thing(l, 3, 3, QG_SLOT_TRAP, QG_THING_TAG, 0, "TRAP_PIT");
    qg_level_set_thing(l, 4, 2, QG_SLOT_EGO, QG_THING_INDEX, 9, "back\\slash \xff\x01");
    qg_level_add_marker(l, 3, 2, "lua:fog_machine { cloud_type = \"flame\" }");
    qg_level_add_marker(l, 3, 2, "feat:closed_door");
    qg_level_set_player_start(l, 4, 1);
    qg_level_set_name(l, "Thieves' <Hideout> & co");
    add_properties(l, sorted_properties);
    return l;
}

qg_level *fixture_glyph_level(void)
{
    static const char *const rows[] = {"xxxxx", "x.1.x", "x%@$x", "xx xx"};
    qg_level *l = qg_level_new(5, 4);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 5; x++)
            if (rows[y][x] != ' ')
                qg_level_set_glyph(l, x, y, (unsigned char)rows[y][x]);
    qg_level_set_glyph(l, 1, 1, 0xB0);
    qg_level_set_thing(l, 2, 1, QG_SLOT_MONSTER, QG_THING_INDEX, 44, NULL);
    qg_level_set_thing(l, 1, 2, QG_SLOT_OBJECT, QG_THING_RANDOM, 5, NULL);
    qg_level_set_thing(l, 3, 2, QG_SLOT_ARTIFACT, QG_THING_INDEX, 0x123456, NULL);
    qg_level_set_thing(l, 3, 1, QG_SLOT_TRAP, QG_THING_RANDOM, 0, NULL);
    qg_level_set_player_start(l, 2, 2);
    return l;
}
