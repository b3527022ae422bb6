/* The dialects, one table each. The facts come from each game's own
 * loader (init1.c process_dungeon_file_aux / parse_line_feature, Hengband
 * 3's fixed-map-parser.cpp and general-parser.cpp, PosChengband's and
 * FrogComposband's parse_room_line and parse_room_grid, Angband 4.2's
 * generate.c and gen-room.c) and the files they read; see
 * doc/dialects.md. */
#include "fd/fd_internal.h"

#include <stddef.h>

/* ---- record forms ------------------------------------------------------ */

static const fd_form classic_forms[] = {
    {"?", FD_REC_COND, NULL},     {"%", FD_REC_INCLUDE, NULL}, {"F", FD_REC_LETTER, NULL},
    {"D", FD_REC_ROW, NULL},      {"Q", FD_REC_QUEST, NULL},   {"P", FD_REC_PLAYER, NULL},
    {"B", FD_REC_KEPT, NULL},     {"W", FD_REC_KEPT, NULL},    {"M", FD_REC_KEPT, NULL},
    {NULL, FD_REC_UNKNOWN, NULL}};

/* Zangband 2.3.5 compiles its P: handling out. */
static const fd_form zangband235_forms[] = {
    {"?", FD_REC_COND, NULL},     {"%", FD_REC_INCLUDE, NULL}, {"F", FD_REC_LETTER, NULL},
    {"D", FD_REC_ROW, NULL},      {"Q", FD_REC_QUEST, NULL},
    {"P", FD_REC_IGNORED, "Zangband 2.3.5 reads no P: lines (their code is disabled); "
                          "the game chooses the player start"},
    {"B", FD_REC_KEPT, NULL},     {"W", FD_REC_KEPT, NULL},    {"M", FD_REC_KEPT, NULL},
    {NULL, FD_REC_UNKNOWN, NULL}};

/* ToME adds N: (monsters asleep or not) and f: (dungeon flags). */
static const fd_form tome_forms[] = {
    {"?", FD_REC_COND, NULL},     {"%", FD_REC_INCLUDE, NULL}, {"F", FD_REC_LETTER, NULL},
    {"D", FD_REC_ROW, NULL},      {"Q", FD_REC_QUEST, NULL},   {"P", FD_REC_PLAYER, NULL},
    {"B", FD_REC_KEPT, NULL},     {"W", FD_REC_KEPT, NULL},    {"M", FD_REC_KEPT, NULL},
    {"N", FD_REC_KEPT, NULL},     {"f", FD_REC_KEPT, NULL},    {NULL, FD_REC_UNKNOWN, NULL}};

/* PosChengband's quest files moved to room-template letters (T:, L:,
 * !:SCRAMBLE as in PoschengbandR's q_vault.txt) while keeping Q: records
 * and D: rows. */
static const fd_form poschengband_forms[] = {
    {"?", FD_REC_COND, NULL},     {"%", FD_REC_INCLUDE, NULL}, {"F", FD_REC_LETTER, NULL},
    {"L", FD_REC_GRID, NULL},     {"D", FD_REC_ROW, NULL},     {"Q", FD_REC_QUEST, NULL},
    {"P", FD_REC_PLAYER, NULL},   {"T", FD_REC_ROOM_TYPE, "type"},
    {"!", FD_REC_SCRAMBLE, "scramble"},
    {"B", FD_REC_KEPT, NULL},     {"W", FD_REC_KEPT, NULL},    {"M", FD_REC_KEPT, NULL},
    {NULL, FD_REC_UNKNOWN, NULL}};

/* FrogComposband: q_info.txt holds N:id:level:name records naming each
 * quest's file (F:); a quest file is a room template (D: text, T:, L:,
 * M: rows, R: rewards, !:SCRAMBLE); a town file (t_info.txt and what it
 * includes) a room template with the B: lines of its buildings (shop.c
 * _parse_town hands B: to _parse_building, the rest to parse_room_line). */
static const fd_form frog_forms[] = {
    {"?", FD_REC_COND, NULL},          {"%", FD_REC_INCLUDE, NULL},
    {"N", FD_REC_QUEST_HEAD, NULL},    {"F", FD_REC_QUEST_FILE, NULL},
    {"T", FD_REC_ROOM_TYPE, "type"},   {"G", FD_REC_PROPERTY, "quest_goal"},
    {"W", FD_REC_PROPERTY, "where"},   {"D", FD_REC_PROPERTY, "quest_text"},
    {"L", FD_REC_GRID, NULL},          {"M", FD_REC_ROW, NULL},
    {"R", FD_REC_PROPERTY, "reward"},  {"!", FD_REC_SCRAMBLE, "scramble"},
    {"K", FD_REC_PROPERTY, "K"},       {"B", FD_REC_KEPT, NULL},
    {NULL, FD_REC_UNKNOWN, NULL}};

/* ---- what tells the kind of level --------------------------------------- */

/* Q: records make a load a quest, B: buildings a town, W: lines a piece of
 * wilderness. */
static const fd_kind_sign classic_kinds[] = {
    {"Q", QG_KIND_QUEST}, {"B", QG_KIND_TOWN}, {"W", QG_KIND_WILDERNESS}, {NULL, QG_KIND_UNKNOWN}};
/* FrogComposband's quest records (N:id:level:name) open quests. */
static const fd_kind_sign frog_kinds[] = {{"N", QG_KIND_QUEST}, {NULL, QG_KIND_UNKNOWN}};
/* The room types of PosChengband's and FrogComposband's room templates
 * (v_info.txt's T:type:subtype, their quest files' T:QUEST:NORMAL). */
static const fd_kind_sign room_template_kinds[] = {
    {"QUEST", QG_KIND_QUEST}, {"TOWN", QG_KIND_TOWN},         {"ROOM", QG_KIND_ROOM},
    {"VAULT", QG_KIND_VAULT}, {"WILD", QG_KIND_WILDERNESS}, {"AMBUSH", QG_KIND_WILDERNESS},
    {NULL, QG_KIND_UNKNOWN}};

/* Angband 4.2's vault.txt and room_template.txt (parser_reg rows). */
static const fd_form angband4_forms[] = {
    {"name", FD_REC_MAP_HEAD, NULL},           {"type", FD_REC_PROPERTY, "type"},
    {"rating", FD_REC_PROPERTY, "rating"},     {"rows", FD_REC_MAP_ROWS, "rows"},
    {"columns", FD_REC_MAP_COLUMNS, "columns"}, {"min-depth", FD_REC_PROPERTY, "min-depth"},
    {"max-depth", FD_REC_PROPERTY, "max-depth"}, {"flags", FD_REC_PROPERTY, "flags"},
    {"doors", FD_REC_PROPERTY, "doors"},       {"tval", FD_REC_PROPERTY, "tval"},
    {"D", FD_REC_ROW, NULL},                   {NULL, FD_REC_UNKNOWN, NULL}};

/* ---- built-in legends, as L: letters ------------------------------------ */

/* vault.txt's symbols (generate.c build_vault): '%' is outside the vault,
 * every other symbol is a vault square. */
static const char *const angband4_vault_legend[] = {
    "%:GRANITE(OUTER)",
    "#:GRANITE(ROOM | ICKY | INNER)",
    "@:PERM(ROOM | ICKY)",
    "*:MAGMA_K(ROOM | ICKY)",
    "::PASS_RUBBLE(ROOM | ICKY)",
    "`:LAVA(ROOM | ICKY)",
    "/:FLOOR(ROOM | ICKY)",
    ";:FLOOR(ROOM | ICKY)",
    ".:FLOOR(ROOM | ICKY)",
    "&:FLOOR(ROOM | ICKY):OBJ(*, 75%):TRAP(*, 6.25%)",
    "+:SECRET(ROOM | ICKY)",
    "^:FLOOR(ROOM | ICKY):TRAP(*, 25%)",
    "<:LESS(ROOM | ICKY)",
    ">:MORE(ROOM | ICKY)",
    "1:FLOOR(ROOM | ICKY):MON(*, 50%):OBJ(*, 25%):TRAP(*, 6.25%)",
    "2:FLOOR(ROOM | ICKY):MON(*, DEPTH+5)",
    "3:FLOOR(ROOM | ICKY):OBJ(*, DEPTH+3)",
    "4:FLOOR(ROOM | ICKY):MON(*, DEPTH+3, 50%):OBJ(*, DEPTH+7, 50%)",
    "5:FLOOR(ROOM | ICKY):OBJ(*, DEPTH+7)",
    "6:FLOOR(ROOM | ICKY):MON(*, DEPTH+11)",
    "7:FLOOR(ROOM | ICKY):OBJ(*, DEPTH+15)",
    "0:FLOOR(ROOM | ICKY):MON(*, DEPTH+20)",
    "9:FLOOR(ROOM | ICKY):MON(*, DEPTH+9):OBJ(*, DEPTH+7)",
    "8:FLOOR(ROOM | ICKY):MON(*, DEPTH+40):OBJ(*, DEPTH+20)",
    "~:FLOOR(ROOM | ICKY):OBJ(CHEST, DEPTH+5)",
    "$:FLOOR(ROOM | ICKY):OBJ(GOLD)",
    "]:FLOOR(ROOM | ICKY):OBJ(ARMOR, DEPTH+3)",
    "|:FLOOR(ROOM | ICKY):OBJ(WEAPON, DEPTH+3)",
    "=:FLOOR(ROOM | ICKY):OBJ(RING, DEPTH+3)",
    "\":FLOOR(ROOM | ICKY):OBJ(AMULET, DEPTH+3)",
    "!:FLOOR(ROOM | ICKY):OBJ(POTION, DEPTH+3)",
    "?:FLOOR(ROOM | ICKY):OBJ(SCROLL, DEPTH+3)",
    "_:FLOOR(ROOM | ICKY):OBJ(STAFF, DEPTH+3)",
    "-:FLOOR(ROOM | ICKY):OBJ(ROD or WAND, DEPTH+3)",
    ",:FLOOR(ROOM | ICKY):OBJ(FOOD, DEPTH+3)",
    NULL};

/* room_template.txt's symbols (gen-room.c build_room_template); a digit
 * 1-6 is a secret door candidate, kept as the square's special. */
static const char *const angband4_room_legend[] = {
    "%:GRANITE(OUTER)",
    "#:GRANITE(ROOM | INNER)",
    ".:FLOOR(ROOM)",
    "^:FLOOR(ROOM):TRAP(*, 25%)",
    "+:CLOSED(ROOM)",
    "1:GRANITE(ROOM | INNER, 1)",
    "2:GRANITE(ROOM | INNER, 2)",
    "3:GRANITE(ROOM | INNER, 3)",
    "4:GRANITE(ROOM | INNER, 4)",
    "5:GRANITE(ROOM | INNER, 5)",
    "6:GRANITE(ROOM | INNER, 6)",
    "x:GRANITE(ROOM | INNER, 50%)",
    "(:SECRET(ROOM, if-walls)",
    "):SECRET(ROOM, unless-walls)",
    "8:FLOOR(ROOM):OBJ(*, 80%):MON(*, guardian)",
    "9:FLOOR(ROOM):MON(*, nearby):OBJ(*, nearby)",
    "[:FLOOR(ROOM):OBJ(tval)",
    NULL};

/* The letters PosChengband 3.4.5's room templates (v_info.txt) may use
 * without an L: line: the symbols its rooms.c build_room_template_aux
 * gives a meaning in code ('*', '^', '&', '9', '8' and ',' with chances
 * and depths, walls and doors). Its quest files have no L: lines. */
static const char *const pos345_room_legend[] = {
    ".:FLOOR",
    "%:GRANITE(OUTER)",
    "#:GRANITE(INNER)",
    "$:GLASS_WALL",
    "X:PERMANENT(INNER)",
    "Y:PERMANENT_GLASS_WALL",
    "*:FLOOR:TRAP(*, 25):OBJ(*)",
    "+:GRANITE:SECRET(CLOSED_DOOR)",
    "-:GLASS_WALL:SECRET(CLOSED_GLASS_DOOR)",
    "':CLOSED_CURTAIN",
    "^:FLOOR:TRAP(*)",
    "&:FLOOR:MON(*, DEPTH+5)",
    "9:FLOOR:MON(*, DEPTH+9):OBJ(*, DEPTH+7)",
    "8:FLOOR:MON(*, DEPTH+40):OBJ(*, DEPTH+20)",
    ",:FLOOR:MON(*, DEPTH+3):OBJ(*, DEPTH+7)",
    NULL};

/* The letters every FrogComposband room and quest map may use without an
 * L: line: v_info.txt's L: lines before its first N: record
 * (parse_v_info's room_letters), read from the edit directory's
 * v_info.txt when it has one; these are FrogComposband 7.2's. */
static const char *const frog_global_letters[] = {
    "*:TRAP(*, 25%):OBJ(*, DEPTH+1)",
    "^:TRAP(*)",
    "&:MON(*, DEPTH+5)",
    ",:MON(*, DEPTH+3 | 50%):OBJ(*, DEPTH+7 | 50%)",
    "1:MON(*, DEPTH+3)",
    "2:MON(*, DEPTH+5)",
    "3:MON(*, DEPTH+9)",
    "4:MON(*, DEPTH+11)",
    "5:MON(*):OBJ(*, DEPTH+1)",
    "6:MON(*, NO_GROUP | DEPTH+5):OBJ(*, DEPTH+5)",
    "7:MON(*, NO_GROUP | DEPTH+9):OBJ(*, DEPTH+7)",
    "8:MON(*, NO_GROUP | DEPTH+10):OBJ(*, DEPTH+5):EGO(*)",
    "9:MON(*, NO_GROUP | DEPTH+15):OBJ(*, DEPTH+20):EGO(*)",
    NULL};

/* The letters rooms.c's build_room_template_aux gives a meaning in its
 * code, after the room's and the global letters (the switch after
 * _find_room_grid): walls of the surface's dungeon (d_info.txt entry 0:
 * granite), secret doors hidden as its inner wall, the Pattern; on the
 * second pass a meaner monster for '@' and the Pattern walk's reward. */
#define FD_SECRET_DOOR "closed 300/400, locked 99/400 (LOCKED_DOOR_1-7), jammed 1/400 (JAMMED_DOOR_0-7)"
static const fd_fixed_letter frog_fixed_letters[] = {
    {'%', 0, "GRANITE", 1, QG_INFO_OUTER, NULL, NULL, NULL},
    {'#', 0, "GRANITE", 1, QG_INFO_INNER, NULL, NULL, NULL},
    {'$', 0, "GLASS_WALL", 1, QG_INFO_INNER, NULL, NULL, NULL},
    {'X', 0, "PERMANENT", 1, QG_INFO_INNER, NULL, NULL, NULL},
    {'Y', 0, "PERMANENT_GLASS_WALL", 1, QG_INFO_INNER, NULL, NULL, NULL},
    {'+', FD_ROOM_WILDERNESS, "LOCKED_DOOR_1", 0, 0, NULL, "locked, LOCKED_DOOR_1-7", NULL},
    {'+', FD_ROOM_NORMAL | FD_ROOM_VAULT | FD_ROOM_QUEST | FD_ROOM_TOWN | FD_ROOM_AMBUSH,
     "CLOSED_DOOR", 2, 0, "GRANITE", FD_SECRET_DOOR, NULL},
    {'-', 0, "CLOSED_GLASS_DOOR", 2, 0, "GLASS_WALL",
     "closed 300/400, locked 99/400 (LOCKED_GLASS_DOOR_1-7), jammed 1/400 (JAMMED_GLASS_DOOR_0-7)",
     NULL},
    {'\'', 0, "CLOSED_CURTAIN", 2, 0, NULL, NULL, NULL},
    {'p', 0, "PATTERN_START", 0, 0, NULL, NULL, NULL},
    {'a', 0, "PATTERN_1", 0, 0, NULL, NULL, NULL},
    {'b', 0, "PATTERN_2", 0, 0, NULL, NULL, NULL},
    {'c', 0, "PATTERN_3", 0, 0, NULL, NULL, NULL},
    {'d', 0, "PATTERN_4", 0, 0, NULL, NULL, NULL},
    {'P', 0, "PATTERN_END", 0, 0, NULL, NULL, NULL},
    {'B', 0, "PATTERN_EXIT", 0, 0, NULL, NULL, NULL},
    {'@', FD_ROOM_NORMAL | FD_ROOM_VAULT | FD_ROOM_QUEST | FD_ROOM_TOWN | FD_ROOM_WILDERNESS, NULL,
     0, 0, NULL, NULL, "MON(*, DEPTH+11)"},
    {'A', 0, NULL, 0, 0, NULL, NULL, "OBJ(*, DEPTH+12):EGO(*)"},
    {0, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* MON()'s summon types (init1.c _summon_type_tbl). */
static const char *const frog_summon_types[] = {
    "MONSTER", "ANT", "SPIDER", "HOUND", "HYDRA", "ANGEL", "DEMON", "UNDEAD", "DRAGON",
    "HI_UNDEAD", "HI_DRAGON", "HI_DEMON", "AMBERITE", "UNIQUE", "BIZARRE1", "BIZARRE2",
    "BIZARRE3", "BIZARRE4", "BIZARRE5", "BIZARRE6", "CYBER", "KIN", "DAWN", "ANIMAL",
    "ANIMAL_RANGER", "PHANTOM", "BLUE_HORROR", "LIVING", "HI_DRAGON_LIVING", "GOLEM",
    "ELEMENTAL", "VORTEX", "HYBRID", "BIRD", "KAMIKAZE", "KAMIKAZE_LIVING", "MANES", "LOUSE",
    "GUARDIAN", "KNIGHT", "EAGLE", "PIRANHA", "ARMAGE_GOOD", "ARMAGE_EVIL", "SOFTWARE_BUG",
    "PANTHEON", "RAT", "BAT", "WOLF", "DREAD", "ZOMBIE", "SKELETON", "GHOST", "VAMPIRE", "WIGHT",
    "LICH", "KRAKEN", "THIEF", "ENT", "CAMELOT", "NIGHTMARE", "YEEK", "ORC", "DARK_ELF", "GIANT",
    "UNDEAD_SUMMONER", "MATURE_DRAGON", "DRAGON_SUMMONER", "CLUBBER_DEMON", "BALROG",
    "DEMON_SUMMONER", "ULTIMATE", "HUMAN", "HORSE", "MAGICAL", "TROLL", "CHAPEL_GOOD",
    "CHAPEL_EVIL", "RING_BEARER", "ARCHER", "MONK", "MAGE", "SPECIAL", "REPTILE", "DEAD_UNIQ",
    "CAT", "VANARA", "SERPENT", "NAGA", NULL};

/* OBJ()'s object types (init1.c _object_types, defines.h TV_*). */
static const fd_object_type frog_object_types[] = {
    {"JUNK", 3, NULL}, {"SKELETON", 1, NULL}, {"STATUE", 9, NULL}, {"FIGURINE", 8, NULL},
    {"CHEST", 7, NULL}, {"SHOT", 16, "AMMO"}, {"ARROW", 17, "AMMO"}, {"BOLT", 18, "AMMO"},
    {"BOW", 19, "BOW"}, {"DIGGING", 20, "DIGGER"}, {"HAFTED", 21, "WEAPON"},
    {"POLEARM", 22, "WEAPON"}, {"SWORD", 23, "WEAPON"}, {"BOOTS", 30, "BOOTS"},
    {"GLOVES", 31, "GLOVES"}, {"HELM", 32, "HELMET"}, {"CROWN", 33, "CROWN"},
    {"SHIELD", 34, "SHIELD"}, {"CLOAK", 35, "CLOAK"}, {"SOFT_ARMOR", 36, "BODY_ARMOR"},
    {"HARD_ARMOR", 37, "BODY_ARMOR"}, {"DRAG_ARMOR", 38, "BODY_ARMOR"}, {"LITE", 39, "LITE"},
    {"AMULET", 40, "AMULET"}, {"RING", 45, "RING"}, {"STAFF", 55, "DEVICE"},
    {"WAND", 65, "DEVICE"}, {"ROD", 66, "DEVICE"}, {"SCROLL", 70, NULL}, {"POTION", 75, NULL},
    {"FOOD", 80, NULL}, {"LIFE_BOOK", 90, NULL}, {"SORCERY_BOOK", 91, NULL},
    {"NATURE_BOOK", 92, NULL}, {"CHAOS_BOOK", 93, NULL}, {"DEATH_BOOK", 94, NULL},
    {"TRUMP_BOOK", 95, NULL}, {"ARCANE_BOOK", 96, NULL}, {"CRAFT_BOOK", 97, NULL},
    {"DAEMON_BOOK", 98, NULL}, {"CRUSADE_BOOK", 99, NULL}, {"NECROMANCY_BOOK", 100, NULL},
    {"ARMAGEDDON_BOOK", 101, NULL}, {"LAW_BOOK", 104, NULL}, {"MUSIC_BOOK", 105, NULL},
    {"HISSATSU_BOOK", 106, NULL}, {"HEX_BOOK", 107, NULL}, {"RAGE_BOOK", 108, NULL},
    {"BURGLARY_BOOK", 109, NULL}, {"GOLD", 127, NULL}, {"DEVICE", 256, "DEVICE"},
    {"JEWELRY", 257, NULL}, {"BOOK", 258, NULL}, {"HI_BOOK", 259, NULL},
    {"BODY_ARMOR", 260, "BODY_ARMOR"}, {"OTHER_ARMOR", 261, NULL}, {"WEAPON", 262, "WEAPON"},
    {"BOW_AMMO", 263, "AMMO"}, {"MISC", 264, NULL}, {NULL, 0, NULL}};

static const fd_room_rules frog_rooms = {
    .floor = "FLOOR", .fixed = frog_fixed_letters, .summon_types = frog_summon_types,
    .object_types = frog_object_types, .tv_food = 80, .sv_last_mushroom = 31, .tv_potion = 75,
    .tv_scroll = 70, .tv_gold = 127, .sv_any = 255, .screen_wid = 66, .screen_hgt = 22,
    .chances = 1, .wall_flags = 1, .pile_options = 1, .prefix_names = 1, .deprecated = 1,
    .formation_objects = 1};

/* PosChengband 7 (PoschengbandR's merging_nightmare branch, the quest
 * rewrite FrogComposband took up): no global letters (its _find_room_grid
 * reads the room's only), more letters in code ('*' an object or else a
 * trap, '^' a trap, '&', '9', '8' and ',' monsters and objects out of
 * depth, rooms.c build_room_template_aux), and the directives' first
 * forms (no n% options, no INNER or OUTER flags, no NUMBER= or TYPE=). */
static const fd_fixed_letter pos7_fixed_letters[] = {
    {'%', 0, "GRANITE", 1, QG_INFO_OUTER, NULL, NULL, NULL},
    {'#', 0, "GRANITE", 1, QG_INFO_INNER, NULL, NULL, NULL},
    {'$', 0, "GLASS_WALL", 1, QG_INFO_INNER, NULL, NULL, NULL},
    {'X', 0, "PERMANENT", 1, QG_INFO_INNER, NULL, NULL, NULL},
    {'Y', 0, "PERMANENT_GLASS_WALL", 1, QG_INFO_INNER, NULL, NULL, NULL},
    {'*', 0, NULL, 0, 0, NULL, NULL, "TRAP(*, 25%):OBJ(*)"},
    {'+', FD_ROOM_WILDERNESS, "LOCKED_DOOR_1", 0, 0, NULL, "locked, LOCKED_DOOR_1-7", NULL},
    {'+', FD_ROOM_NORMAL | FD_ROOM_VAULT | FD_ROOM_QUEST | FD_ROOM_TOWN | FD_ROOM_AMBUSH,
     "CLOSED_DOOR", 2, 0, "GRANITE", FD_SECRET_DOOR, NULL},
    {'-', 0, "CLOSED_GLASS_DOOR", 2, 0, "GLASS_WALL",
     "closed 300/400, locked 99/400 (LOCKED_GLASS_DOOR_1-7), jammed 1/400 (JAMMED_GLASS_DOOR_0-7)",
     NULL},
    {'\'', 0, "CLOSED_CURTAIN", 2, 0, NULL, NULL, NULL},
    {'^', 0, NULL, 0, 0, NULL, NULL, "TRAP(*)"},
    {'p', 0, "PATTERN_START", 0, 0, NULL, NULL, NULL},
    {'a', 0, "PATTERN_1", 0, 0, NULL, NULL, NULL},
    {'b', 0, "PATTERN_2", 0, 0, NULL, NULL, NULL},
    {'c', 0, "PATTERN_3", 0, 0, NULL, NULL, NULL},
    {'d', 0, "PATTERN_4", 0, 0, NULL, NULL, NULL},
    {'P', 0, "PATTERN_END", 0, 0, NULL, NULL, NULL},
    {'B', 0, "PATTERN_EXIT", 0, 0, NULL, NULL, NULL},
    {'&', 0, NULL, 0, 0, NULL, NULL, "MON(*, DEPTH+5)"},
    {'@', FD_ROOM_NORMAL | FD_ROOM_VAULT | FD_ROOM_QUEST | FD_ROOM_TOWN | FD_ROOM_WILDERNESS, NULL,
     0, 0, NULL, NULL, "MON(*, DEPTH+11)"},
    {'9', 0, NULL, 0, 0, NULL, NULL, "MON(*, DEPTH+9 | NO_GROUP):OBJ(*, DEPTH+9)"},
    {'8', 0, NULL, 0, 0, NULL, NULL, "MON(*, DEPTH+40 | NO_GROUP):OBJ(*, DEPTH+40):EGO(*)"},
    {',', 0, NULL, 0, 0, NULL, NULL, "MON(*, DEPTH+3 | 50%):OBJ(*, DEPTH+7 | 50%)"},
    {'A', 0, NULL, 0, 0, NULL, NULL, "OBJ(*, DEPTH+12):EGO(*)"},
    {0, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* Its MON() summon types (init1.c _summon_specific_types, the summon
 * number their place). */
static const char *const pos7_summon_types[] = {
    "XXX", "ANT", "SPIDER", "HOUND", "HYDRA", "ANGEL", "DEMON", "UNDEAD", "DRAGON",
    "HI_UNDEAD", "HI_DRAGON", "HI_DEMON", "AMBERITE", "UNIQUE", "BIZARRE1", "BIZARRE2",
    "BIZARRE3", "BIZARRE4", "BIZARRE5", "BIZARRE6", "CYBER", "KIN", "DAWN", "ANIMAL",
    "ANIMAL_RANGER", "PHANTOM", "BLUE_HORROR", "LIVING", "HI_DRAGON_LIVING", "GOLEM",
    "ELEMENTAL", "VORTEX", "HYBRID", "BIRD", "KAMIKAZE", "KAMIKAZE_LIVING", "MANES", "LOUSE",
    "GUARDIAN", "KNIGHT", "EAGLE", "PIRANHA", "ARMAGE_GOOD", "ARMAGE_EVIL", "SOFTWARE_BUG",
    "OLYMPIAN", "RAT", "BAT", "WOLF", "DREAD", "ZOMBIE", "SKELETON", "GHOST", "VAMPIRE",
    "WIGHT", "LICH", "KRAKEN", "THIEF", "ENT", "CAMELOT", "NIGHTMARE", "YEEK", "ORC",
    "DARK_ELF", "GIANT", "UNDEAD_SUMMONER", "MATURE_DRAGON", "DRAGON_SUMMONER",
    "CLUBBER_DEMON", "BALROG", "DEMON_SUMMONER", "ULTIMATE", "HUMAN", "HORSE", "MAGICAL",
    "TROLL", "CHAPEL_GOOD", "CHAPEL_EVIL", "RING_BEARER", "ARCHER", "MONK", "MAGE", NULL};

/* Its OBJ() object types: FrogComposband's but LAW_BOOK and HI_BOOK, the
 * grouped types numbered from 256 (rooms.h obj_types_e). */
static const fd_object_type pos7_object_types[] = {
    {"JUNK", 3, NULL}, {"SKELETON", 1, NULL}, {"STATUE", 9, NULL}, {"FIGURINE", 8, NULL},
    {"CHEST", 7, NULL}, {"SHOT", 16, "AMMO"}, {"ARROW", 17, "AMMO"}, {"BOLT", 18, "AMMO"},
    {"BOW", 19, "BOW"}, {"DIGGING", 20, "DIGGER"}, {"HAFTED", 21, "WEAPON"},
    {"POLEARM", 22, "WEAPON"}, {"SWORD", 23, "WEAPON"}, {"BOOTS", 30, "BOOTS"},
    {"GLOVES", 31, "GLOVES"}, {"HELM", 32, "HELMET"}, {"CROWN", 33, "CROWN"},
    {"SHIELD", 34, "SHIELD"}, {"CLOAK", 35, "CLOAK"}, {"SOFT_ARMOR", 36, "BODY_ARMOR"},
    {"HARD_ARMOR", 37, "BODY_ARMOR"}, {"DRAG_ARMOR", 38, "BODY_ARMOR"}, {"LITE", 39, "LITE"},
    {"AMULET", 40, "AMULET"}, {"RING", 45, "RING"}, {"STAFF", 55, "DEVICE"},
    {"WAND", 65, "DEVICE"}, {"ROD", 66, "DEVICE"}, {"SCROLL", 70, NULL}, {"POTION", 75, NULL},
    {"FOOD", 80, NULL}, {"LIFE_BOOK", 90, NULL}, {"SORCERY_BOOK", 91, NULL},
    {"NATURE_BOOK", 92, NULL}, {"CHAOS_BOOK", 93, NULL}, {"DEATH_BOOK", 94, NULL},
    {"TRUMP_BOOK", 95, NULL}, {"ARCANE_BOOK", 96, NULL}, {"CRAFT_BOOK", 97, NULL},
    {"DAEMON_BOOK", 98, NULL}, {"CRUSADE_BOOK", 99, NULL}, {"NECROMANCY_BOOK", 100, NULL},
    {"ARMAGEDDON_BOOK", 101, NULL}, {"MUSIC_BOOK", 105, NULL}, {"HISSATSU_BOOK", 106, NULL},
    {"HEX_BOOK", 107, NULL}, {"RAGE_BOOK", 108, NULL}, {"BURGLARY_BOOK", 109, NULL},
    {"GOLD", 127, NULL}, {"DEVICE", 256, "DEVICE"}, {"JEWELRY", 257, NULL}, {"BOOK", 258, NULL},
    {"BODY_ARMOR", 259, "BODY_ARMOR"}, {"OTHER_ARMOR", 260, NULL}, {"WEAPON", 261, "WEAPON"},
    {"BOW_AMMO", 262, "AMMO"}, {"MISC", 263, NULL}, {NULL, 0, NULL}};

static const fd_room_rules pos7_rooms = {
    .floor = "FLOOR", .fixed = pos7_fixed_letters, .summon_types = pos7_summon_types,
    .object_types = pos7_object_types, .tv_food = 80, .sv_last_mushroom = 31, .tv_potion = 75,
    .tv_scroll = 70, .tv_gold = 127, .sv_any = 255, .screen_wid = 66, .screen_hgt = 22};

/* ---- ?: variables ------------------------------------------------------ */
/* A trailing '#' takes a number (QUEST12); a leading '=' marks a variable
 * the games format into their one shared buffer. */

static const char *const zangband_vars[] = {
    "SYS", "GRAF", "MONOCHROME", "RACE", "CLASS", "REALM1", "REALM2", "PLAYER",
    "=TOWN", "=LEVEL", "=QUEST_NUMBER", "=LEAVING_QUEST", "=LEAVING_DUNGEON", "VARIANT",
    "WILDERNESS", "=QUEST#", NULL};
static const char *const hengband_vars[] = {
    "SYS", "GRAF", "MONOCHROME", "RACE", "CLASS", "REALM1", "REALM2", "PLAYER",
    "=TOWN", "=LEVEL", "=QUEST_NUMBER", "=LEAVING_QUEST", "VARIANT", "WILDERNESS",
    "=QUEST#", "=QUEST_TYPE#", "=RANDOM#", NULL};
static const char *const hengband3_vars[] = {
    "SYS", "GRAF", "MONOCHROME", "RACE", "CLASS", "REALM1", "REALM2", "PLAYER",
    "=TOWN", "=LEVEL", "=QUEST_NUMBER", "=LEAVING_QUEST", "VARIANT", "WILDERNESS",
    "IRONMAN_DOWNWARD", "=QUEST#", "=QUEST_TYPE#", "=RANDOM#", NULL};
static const char *const poschengband_vars[] = {
    "SYS", "GRAF", "MONOCHROME", "RACE", "CLASS", "REALM1", "REALM2", "PLAYER",
    "=TOWN", "=LEVEL", "=QUEST_NUMBER", "=LEAVING_QUEST", "VARIANT", "WILDERNESS",
    "SPECIALITY", "=QUEST#", "=QUEST_TYPE#", "=RANDOM#", NULL};
/* FrogComposband 7's process_dungeon_file_expr (src/init1.c), in its
 * order: $QUEST..., $DUNGEON... and $RANDOM... are prefixes (a quest's
 * state name, "Active" or "Suppressed", a quest's seed), $SPEED the
 * coffee-break setting; every value it formats goes into one static tmp. */
static const char *const frog_vars[] = {
    "SYS", "GRAF", "MONOCHROME", "RACE", "SUBRACE", "CLASS", "SUBCLASS", "REALM1",
    "REALM2", "PLAYER", "=TOWN", "=LEVEL", "=QUEST*", "=DUNGEON*", "=RANDOM*", "VARIANT",
    "=WILDERNESS", "=SPEED", "=SPECIALITY", NULL};
/* PosChengband 7 (PoschengbandR's src/init1.c) names a quest's state
 * ($QUEST1 is "Taken", "Completed", "Failed" in its quest files) instead
 * of a number; it has FrogComposband's $SUBRACE and $SUBCLASS, not its
 * $DUNGEON... and $SPEED. */
static const char *const poschengband7_vars[] = {
    "SYS", "GRAF", "MONOCHROME", "RACE", "SUBRACE", "CLASS", "SUBCLASS", "REALM1", "REALM2",
    "PLAYER", "=TOWN", "=LEVEL", "=QUEST*", "=RANDOM*", "VARIANT", "=WILDERNESS",
    "=SPECIALITY", NULL};
static const char *const tome_vars[] = {"TOWN", "LEAVING_QUEST", "DAYTIME", "QUEST#",
                                        "TOWN_DESTROY#", NULL};

/* ---- quests the dungeon generator makes the level of --------------------- */

/* Zangband's and Hengband's QUEST_TYPE_* (defines.h) that take place on a
 * generated dungeon level; FIND_ARTIFACT, FIND_EXIT, KILL_ALL and TOWER
 * quests have maps of their own. */
static const fd_quest_kind classic_generated[] = {
    {"1", "a kill-level quest"}, {"2", "a kill-any-level quest"},
    {"5", "a kill-number quest"}, {"7", "a random quest"}, {NULL, NULL}};
/* FrogComposband's q_info.txt T: flags: RANDOM quests; any quest without
 * GENERATE is played on a level of the dungeon W: names. */
static const fd_quest_kind frog_generated[] = {{"RANDOM", "a random quest"}, {NULL, NULL}};

/* The random quests are 40 (MIN_RANDOM_QUEST) and up; the games read
 * their records once, init_dungeon_quests setting $QUEST_NUMBER to 40. */
#define CLASSIC_QUESTS                                                                   \
    .kind_records = classic_kinds, .quest_type_key = "quest_type",                       \
    .generated_quests = classic_generated, .random_quests = 40
#define FROG_QUESTS                                                                      \
    .kind_records = frog_kinds, .quest_type_key = "type", .generated_quests = frog_generated, \
    .fixed_flag = "GENERATE"

/* ---- the other files of an edit directory ------------------------------- */

/* The classic variants read their *_info.txt files with init_info
 * (init2.c), and misc.txt for the sizes of their arrays before any level;
 * their map loader, process_dungeon_file, reads the quest and town hubs
 * and the wilderness, w_info.txt (dungeon.c, wild.c). */
#define CLASSIC_FILES .data_files = "*_info.txt misc.txt", .map_files = "w_info.txt"
/* The loads the classic variants start: the quest hub (birth.c, bldg.c,
 * generate.c, load.c), the town hub and the wilderness (dungeon.c and
 * wild.c): Zangband 2.3.0, Hengband 2.2.1 and PosChengband 3.4.5 alike. */
#define CLASSIC_LOADS .loads = "q_info.txt t_info.txt w_info.txt"
/* FrogComposband reads misc.txt and help_upd.txt with parse_edit_file
 * (init2.c), and v_info.txt's room templates with parse_v_info (init1.c),
 * rooms.txt and vaults.txt through its %: lines. */
#define FROG_FILES                                                                       \
    .data_files = "*_info.txt misc.txt help_upd.txt rooms.txt vaults.txt",               \
    .map_files = "w_info.txt"
/* FrogComposband's loads: q_info.txt (quest.c quest_init, and each
 * quest's F: file read by quest_get_map), t_info.txt (shop.c
 * towns_get_map) and w_info.txt (dungeon.c process_dungeon_file). */
#define FROG_LOADS .loads = "q_info.txt t_info.txt w_info.txt"

/* ---- the rows ---------------------------------------------------------- */

#define CLASSIC_FIELDS                                                                   \
    {FD_F_FEATURE, FD_F_INFO, FD_F_MONSTER, FD_F_OBJECT, FD_F_EGO, FD_F_ARTIFACT,        \
     FD_F_TRAP, FD_F_SPECIAL, FD_F_END}
#define N_RECORDS {"N", 0, 0, 0, "E"}
/* ToME's E: lines are body parts (r_info) and the like, not names. */
#define TOME_RECORDS {"N", 0, 0, 0, NULL}
#define CLASSIC_VOCAB                                                                    \
    {{"f_info.txt", "r_info.txt", "k_info.txt", "a_info.txt"},                           \
     {N_RECORDS, N_RECORDS, N_RECORDS, N_RECORDS}}
/* FrogComposband numbers an entry N:* (the previous one's plus one) and
 * follows the name with a flavour (N:1:Poison:Red). Its room builder
 * needs a feature's FLOOR (a random trap's ground) and DROP (an object's)
 * flags; its name lookups
 * (init1.c parse_lookup_monster, _lookup_kind, _lookup_ego,
 * parse_lookup_artifact) need a monster's DEPRECATED flag, an object's
 * and an artifact's tval and sval (I:), an artifact's FULL_NAME and
 * PREFIX_NAME flags and an ego's types (T:). */
#define FROG_RECORDS {"N", 0, 1, 1, "E", NULL, NULL, NULL}
#define FROG_VOCAB                                                                       \
    {{"f_info.txt", "r_info.txt", "k_info.txt", "a_info.txt", "e_info.txt"},             \
     {{"N", 0, 1, 1, "E", NULL, "F", "FLOOR DROP"},                                     \
      {"N", 0, 1, 1, "E", NULL, "F", "DEPRECATED"},                                      \
      {"N", 0, 1, 1, "E", "I", NULL, NULL},                                              \
      {"N", 0, 1, 1, "E", "I", "F", "FULL_NAME PREFIX_NAME"},                            \
      {"N", 0, 1, 1, "E", NULL, "T", "WEAPON DIGGER SHIELD BODY_ARMOR ROBE DRAGON_ARMOR "  \
       "CLOAK HELMET CROWN GLOVES BOOTS BOW AMMO HARP QUIVER RING AMULET LITE DEVICE BAG "   \
       "SPECIAL"}}}
/* Angband 4.2 numbers entries in file order; terrain has a code: tag and
 * a name:, the other files a name: only. */
#define ANGBAND4_VOCAB                                                                   \
    {{"terrain.txt", "monster.txt", "object.txt", "artifact.txt"},                       \
     {{"code", 1, 0, 0, "name"}, {"name", 1, 0, 0, NULL}, {"name", 1, 0, 0, NULL},         \
      {"name", 1, 0, 0, NULL}}}

static const fd_dialect_row rows[] = {
    /* A directory no signature names: the hubs, the info files every
     * classic variant reads with init_info, misc.txt, Hengband 3's
     * definitions (only sniff.c reads this row; fd_row gives AUTO the
     * zangband row). */
    [QG_FD_AUTO] = {.name = "auto", .title = "auto", .aliases = "",
                    .quest_hub = "q_info.txt QuestDefinitionList.txt",
                    .town_hub = "t_info.txt TownDefinitionList.txt",
                    .data_files = "*_info.txt misc.txt *Definitions.txt *.jsonc *.json"},
    [QG_FD_ZANGBAND] = {
        .name = "zangband", .title = "Zangband 2.3.0", .aliases = "zangband230",
        .quest_hub = "q_info.txt", .town_hub = "t_info.txt", .vocab = CLASSIC_VOCAB,
        .signature = "q_info.txt f_info.txt~N:1:open", .forms = classic_forms, .row_stop = QG_FD_MAX_WID, .quest_states = 7, .f_fields = CLASSIC_FIELDS,
        .player_sizes = 1, .equ = FD_EQU_CHAIN, .order = FD_ORDER_STRCMP, .functions = "",
        .variables = zangband_vars, .shared_buffer = 1, CLASSIC_QUESTS,
        CLASSIC_FILES, CLASSIC_LOADS},
    [QG_FD_HENGBAND] = {
        .name = "hengband", .title = "Hengband 1.x-2.x", .aliases = "hengband2",
        .quest_hub = "q_info.txt", .town_hub = "t_info.txt", .vocab = CLASSIC_VOCAB,
        .signature = "q_info.txt f_info.txt~N:1:FLOOR", .forms = classic_forms, .row_stop = QG_FD_MAX_WID, .quest_states = 8, .f_fields = CLASSIC_FIELDS,
        .tag_features = 1, .clones = 1, .rewards = 1, .bilingual = 1, .quest_dungeon = 1,
        .quest_rewards = 1, .player_sizes = 1, .equ = FD_EQU_SET, .order = FD_ORDER_NUMBER,
        .functions = "", .variables = hengband_vars, .shared_buffer = 1, CLASSIC_QUESTS,
        CLASSIC_FILES, CLASSIC_LOADS},
    [QG_FD_TOME] = {
        .name = "tome", .title = "ToME 2", .aliases = "tome2",
        .town_hub = "t_info.txt",
        .vocab = {{"f_info.txt", "r_info.txt", "k_info.txt", "a_info.txt"},
                  {TOME_RECORDS, TOME_RECORDS, TOME_RECORDS, TOME_RECORDS}},
        .signature = "ab_info.txt f_info.txt",
        .map_suffix = ".map", .forms = tome_forms, .row_stop = QG_FD_MAX_WID, .quest_states = 7,
        .f_fields = {FD_F_FEATURE, FD_F_INFO, FD_F_MONSTER, FD_F_OBJECT, FD_F_EGO,
                     FD_F_ARTIFACT, FD_F_QUEST_SPECIAL, FD_F_MIMIC, FD_F_MFLAG, FD_F_END},
        .space_passes = 1, .gate_pairs = 1, .kind_records = classic_kinds,
        .equ = FD_EQU_CHAIN,
        .order = FD_ORDER_NONE, .functions = "", .variables = tome_vars, .quoted_atoms = 1,
        CLASSIC_FILES,
        /* wild.cc reads t_info.txt and w_info.txt; every .map is named by
         * the code (q_*.cc, q_rand.cc's qrand<n>.map, load_map) or by
         * d_info.txt's @: lines (generate.cc) */
        .loads = "t_info.txt w_info.txt *.map"},
    [QG_FD_ZANGBAND235] = {
        .name = "zangband235", .title = "Zangband 2.3.5", .aliases = "",
        .quest_hub = "q_info.txt", .town_hub = "t_info.txt", .vocab = CLASSIC_VOCAB,
        .signature = "q_info.txt f_info.txt~N:1:open q0willow.txt", .forms = zangband235_forms, .row_stop = QG_FD_MAX_WID, .quest_states = 7,
        .f_fields = CLASSIC_FIELDS, .equ = FD_EQU_CHAIN, .order = FD_ORDER_STRCMP,
        .functions = "", .variables = zangband_vars, .shared_buffer = 1, CLASSIC_QUESTS,
        /* w_info.txt is no map here: init2.c init_w_info reads it with
         * init1.c init_w_info_txt (the wilderness generator's W: records) */
        .data_files = "*_info.txt misc.txt", .loads = "q_info.txt",
        .unread_files = "t_info.txt t_pref.txt t_lite.txt t_basic.txt t0*.txt *.map",
        .unread_why = "dungeon.c's one process_dungeon_file(\"t_info.txt\") is inside #if 0, "
                      "and the .map files are read only by the Python scripts of a USE_SCRIPT "
                      "build, which z-config.h leaves off"},
    [QG_FD_HENGBAND3] = {
        .name = "hengband3", .title = "Hengband 3.x", .aliases = "",
        .quest_hub = "QuestDefinitionList.txt", .town_hub = "TownDefinitionList.txt",
        /* 3.0.2 moved monsters, base items and artifacts to .jsonc lists
         * (main/info-initializer.cpp init_json); 3.0.1 has them as .txt */
        .vocab = {{"TerrainDefinitions.txt", "MonraceDefinitions.jsonc|MonsterRaceDefinitions.txt",
                   "BaseitemDefinitions.jsonc|BaseitemDefinitions.txt",
                   "ArtifactDefinitions.jsonc|ArtifactDefinitions.txt"},
                  {N_RECORDS, N_RECORDS, N_RECORDS, N_RECORDS}},
        .signature = "QuestDefinitionList.txt", .level_folders = "quests towns",
        .forms = classic_forms, .row_stop = QG_FD_MAX_WID, .quest_states = 8, .f_fields = CLASSIC_FIELDS, .tag_features = 1, .clones = 1,
        .rewards = 1, .bilingual = 1, .quest_dungeon = 1, .quest_rewards = 1,
        .player_sizes = 1, .trims_includes = 1, .equ = FD_EQU_SET, .order = FD_ORDER_NUMBER,
        .functions = "", .variables = hengband3_vars, .shared_buffer = 1, CLASSIC_QUESTS,
        /* info-initializer.cpp reads the *Definitions.txt with init_info and
         * the *.jsonc with its JSON readers */
        .data_files = "*Definitions.txt *.jsonc",
        /* parse_fixed_map's callers: floor-generator.cpp and the quest
         * texts (QuestDefinitionList.txt), wild.cpp (TownDefinitionList.txt,
         * WildernessDefinition.txt) */
        .loads = "QuestDefinitionList.txt TownDefinitionList.txt WildernessDefinition.txt"},
    [QG_FD_POSCHENGBAND] = {
        .name = "poschengband", .title = "PosChengband", .aliases = "pos",
        .quest_hub = "q_info.txt", .town_hub = "t_info.txt", .vocab = CLASSIC_VOCAB,
        .signature = "q_info.txt f_info.txt~N:1:FLOOR b_info.txt", .forms = poschengband_forms, .row_stop = QG_FD_MAX_WID, .quest_states = 7, .f_fields = CLASSIC_FIELDS,
        .tag_features = 1, .clones = 1, .quest_dungeon = 1, .player_sizes = 1,
        .player_glyph = '@', .legend = pos345_room_legend, .global_letters = "v_info.txt",
        .secret_directive = 1, .room_kinds = room_template_kinds, .equ = FD_EQU_SET,
        .order = FD_ORDER_NUMBER, .functions = "OR MOD", .variables = poschengband_vars,
        .shared_buffer = 1, CLASSIC_QUESTS,
        CLASSIC_FILES, CLASSIC_LOADS},
    [QG_FD_FROGCOMPOSBAND] = {
        .name = "frogcomposband", .title = "FrogComposband", .aliases = "frog",
        .quest_hub = "q_info.txt", .town_hub = "t_info.txt",
        .vocab = FROG_VOCAB,
        .signature = "q_info.txt q_info.txt~N: f_info.txt~N:1:FLOOR b_info.txt",
        .forms = frog_forms, .f_fields = {FD_F_END}, .tag_features = 1,
        .legend = frog_global_letters, .global_letters = "v_info.txt", .room = &frog_rooms,
        .space_passes = 1,
        .secret_directive = 1, .flag_specials = 1, .skips_unknown = 1,
        .room_kinds = room_template_kinds,
        .equ = FD_EQU_SET, .order = FD_ORDER_NUMBER, .functions = "OR NEQ MOD", .variables = frog_vars,
        .shared_buffer = 1, FROG_QUESTS, FROG_FILES, FROG_LOADS},
    /* PosChengband 7 (PoschengbandR's lib/edit): the q_info.txt records
     * and room-template quest files FrogComposband took over (q_info's
     * N:id:level:name, T:, W:, G:, F:file; a quest file's D: text, T:,
     * L:, M:, R:), with the ?: functions of PosChengband's own evaluator.
     * Its edit directory keeps the old town files (t0000001.txt) that
     * FrogComposband's, which has an m_info.txt too, renamed. */
    [QG_FD_POSCHENGBAND7] = {
        .name = "poschengband7", .title = "PosChengband 7", .aliases = "pos7",
        .quest_hub = "q_info.txt", .town_hub = "t_info.txt",
        .vocab = FROG_VOCAB,
        .signature = "q_info.txt q_info.txt~N: f_info.txt~N:1:FLOOR b_info.txt m_info.txt "
                     "t0000001.txt",
        .forms = frog_forms, .f_fields = {FD_F_END}, .tag_features = 1,
        .room = &pos7_rooms,
        .space_passes = 1,
        .secret_directive = 1, .flag_specials = 1, .skips_unknown = 1,
        .room_kinds = room_template_kinds,
        .equ = FD_EQU_SET, .order = FD_ORDER_NUMBER, .functions = "OR MOD",
        .variables = poschengband7_vars,
        .shared_buffer = 1, FROG_QUESTS, FROG_FILES},
    [QG_FD_ANGBAND4] = {
        .name = "angband4", .title = "Angband 4.2 vaults", .aliases = "vault",
        .vocab = ANGBAND4_VOCAB,
        .signature = "vault.txt terrain.txt", .forms = angband4_forms, .f_fields = {FD_F_END},
        .tag_features = 1, .space_passes = 1, .legend = angband4_vault_legend,
        .map_kind = QG_KIND_VAULT, .symmetry = 1,
        .glyph_monsters = "abcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNOPQRSTUVWYZ",
        .equ = FD_EQU_CHAIN, .order = FD_ORDER_NONE, .functions = "",
        /* gamedata's other files are read by their own parser_reg tables */
        .data_files = "*.txt", .map_files = "vault.txt room_template.txt"},
    [QG_FD_ANGBAND4_ROOMS] = {
        .name = "angband4-rooms", .title = "Angband 4.2 room templates",
        .aliases = "room_template",
        .vocab = ANGBAND4_VOCAB,
        .signature = "room_template.txt terrain.txt", .forms = angband4_forms, .f_fields = {FD_F_END},
        .tag_features = 1, .space_passes = 1, .legend = angband4_room_legend,
        .map_kind = QG_KIND_ROOM, .symmetry = 1,
        .equ = FD_EQU_CHAIN, .order = FD_ORDER_NONE, .functions = "",
        /* gamedata's other files are read by their own parser_reg tables */
        .data_files = "*.txt", .map_files = "vault.txt room_template.txt"},
};

size_t qg_fd_dialect_count(void)
{
    return sizeof rows / sizeof *rows;
}

const fd_dialect_row *fd_row(qg_fd_dialect dialect)
{
    if (dialect <= QG_FD_AUTO || (size_t)dialect >= sizeof rows / sizeof *rows)
        return &rows[QG_FD_ZANGBAND];
    return &rows[dialect];
}

const fd_dialect_row *fd_row_at(size_t index)
{
    return index < sizeof rows / sizeof *rows ? &rows[index] : NULL;
}
