/* Building a room template's map as FrogComposband's rooms.c
 * build_room_template_aux does, once the whole file is read (quest_get_map
 * parses it all before quest_generate builds it): a letter means what the
 * room's last L: line for it says (through its SCRAMBLE partner), else
 * what v_info.txt's global letters say (never for a FORMATION room's
 * digits, nor for '@' outside vaults), else what the builder's own code
 * says (the row's fixed letters).
 *
 * The first pass lays the dungeon's floor on every square (not in the
 * wilderness), then the '.' letter's terrain, marks the square part of the
 * room, then lays the letter's own terrain: a letter without a feature
 * keeps the '.' terrain and CAVE_ROOM; one with a feature takes its flags,
 * keeping only the wall bits (INNER, OUTER) the square had. The second
 * pass puts monsters and objects: a FORMATION room's digits are its
 * formation members, '@' (else '<') is the player's start in a quest, an
 * object comes only where the final terrain takes one (FF_DROP), so a
 * trap (which takes none) keeps it away. */
#include "fd/room.h"
#include "fd/lookup.h"

#include <stdio.h>
#include <string.h>

/* The game's generator bits a wall or door clears (CAVE_MASK's). */
#define WALL_BITS (QG_INFO_INNER | QG_INFO_OUTER)

/* What the first pass leaves on a square. */
typedef struct square {
    int32_t feature;
    const char *feature_name;
    int32_t feature_chance;
    uint32_t info;
    int32_t mimic, special;
    qg_thing trap;
    const char *door;
} square;

static int room_has(unsigned rooms, unsigned type)
{
    return !rooms || (rooms & type);
}

/* _find_room_grid */
static const qg_fd_spec *find(const fd_room *room, unsigned char c)
{
    const qg_fd_spec *own = room->letter[c];
    if (own && room->scramble[c] && room->letter[room->scramble[c]])
        return room->letter[room->scramble[c]];
    if (room->formation && c >= '0' && c <= '9')
        return own;
    if (room->type != FD_ROOM_VAULT && c == '@')
        return own;
    return own ? own : room->global[c];
}

static const fd_fixed_letter *fixed(const fd_room *room, unsigned char c)
{
    for (const fd_fixed_letter *f = room->row->room->fixed; f && f->letter; f++)
        if (f->letter == c && room_has(f->rooms, room->type))
            return f;
    return NULL;
}

/* What a fixed letter's code puts there, read from its L: text. */
static const qg_fd_spec *fixed_things(const fd_room *room, const fd_fixed_letter *f)
{
    return f->thing ? &room->fixed_things[f - room->row->room->fixed] : NULL;
}

static int32_t tag_index(const fd_room *room, const char *tag, const char **name)
{
    const qg_vocab *vocab = room->opt->vocab;
    int32_t index = tag ? qg_vocab_lookup(vocab, QG_VOCAB_FEATURE, tag) : -1;
    const char *shown = index >= 0 ? qg_vocab_name(vocab, QG_VOCAB_FEATURE, index) : NULL;
    *name = shown ? shown : tag;
    return index;
}

static int feature_has(const fd_room *room, int32_t feature, const char *flag)
{
    return feature >= 0 && qg_vocab_has_word(room->opt->vocab, QG_VOCAB_FEATURE, feature, flag);
}

/* Whether the vocabulary tells features' flags (FLOOR, DROP). */
static int knows_flags(const fd_room *room)
{
    return feature_has(room, room->floor, "FLOOR");
}

/* _apply_room_grid_feat: the letter's feature and flags, then its trap
 * (a tag: the feature hidden under it; a random one only on a floor). */
static void apply_terrain(const fd_room *room, square *sq, const qg_fd_spec *g)
{
    if (g->feature.kind != QG_THING_NONE) {
        const qg_vocab *vocab = room->opt->vocab;
        const char *name = g->feature.index >= 0
                               ? qg_vocab_name(vocab, QG_VOCAB_FEATURE, g->feature.index)
                               : NULL;
        sq->feature = g->feature.index;
        sq->feature_name = name ? name : g->feature.name;
        sq->feature_chance = g->feature_chance;
        sq->info = (sq->info & WALL_BITS) | g->cave_info;
        if (g->special)
            sq->special = g->special;
        sq->trap.kind = QG_THING_NONE;
        sq->door = NULL;
    }
    const qg_thing *trap = &g->things[QG_SLOT_TRAP];
    if (trap->kind == QG_THING_TAG ||
        (trap->kind == QG_THING_RANDOM &&
         (!knows_flags(room) || feature_has(room, sq->feature, "FLOOR"))))
        sq->trap = *trap;
}

/* The switch after _find_room_grid: walls, secret doors, the Pattern;
 * (PosChengband 7's) traps. */
static void apply_fixed(const fd_room *room, square *sq, const fd_fixed_letter *f)
{
    const qg_fd_spec *things = fixed_things(room, f);
    if (!f->feature) {
        if (things)
            apply_terrain(room, sq, things);
        return;
    }
    sq->feature = tag_index(room, f->feature, &sq->feature_name);
    sq->feature_chance = 0;
    sq->trap.kind = QG_THING_NONE;
    if (f->walls == 1)
        sq->info = (sq->info & ~WALL_BITS) | f->info;
    else if (f->walls == 2)
        sq->info &= ~WALL_BITS;
    const char *mimic_name;
    sq->mimic = f->mimic ? tag_index(room, f->mimic, &mimic_name) : 0;
    sq->door = f->door;
}

static qg_status put_square(fd_room *room, int x, int y, unsigned char c, const square *sq)
{
    qg_level *level = room->level;
    qg_status st = qg_level_set_glyph(level, x, y, c);
    if (st == QG_OK)
        st = qg_level_set_feature(level, x, y, sq->feature, sq->feature_name);
    if (st == QG_OK)
        st = qg_level_set_cave_info(level, x, y, sq->info);
    if (st == QG_OK)
        st = qg_level_set_feature_chance(level, x, y, sq->feature_chance);
    if (st == QG_OK && (sq->special || sq->mimic))
        st = qg_level_set_special(level, x, y, sq->special, sq->mimic, 0);
    if (st == QG_OK && sq->trap.kind != QG_THING_NONE)
        st = qg_level_put_thing(level, x, y, QG_SLOT_TRAP, &sq->trap);
    if (st == QG_OK && sq->door) {
        char spec[160];
        snprintf(spec, sizeof spec, "random door: %s", sq->door);
        st = qg_level_add_marker(level, x, y, spec);
    }
    return st;
}

/* The first pass over one square. */
static qg_status lay_square(fd_room *room, int x, int y, unsigned char c)
{
    const qg_fd_spec *g = find(room, c);
    if (c == ' ' && !g)
        return QG_OK;  /* a transparency: the square is left as it was */
    square sq;
    memset(&sq, 0, sizeof sq);
    sq.feature = -1;
    int wild = room->type & (FD_ROOM_WILDERNESS | FD_ROOM_AMBUSH);
    if (!wild) {
        sq.feature = room->floor;
        sq.feature_name = room->floor_name;
        const qg_fd_spec *dot = find(room, '.');
        if (dot)
            apply_terrain(room, &sq, dot);
    }
    if (room->type == FD_ROOM_VAULT)
        sq.info |= QG_INFO_ROOM | QG_INFO_ICKY;
    else if (!wild)
        sq.info |= QG_INFO_ROOM;
    const fd_fixed_letter *f = g ? NULL : fixed(room, c);
    if (g)
        apply_terrain(room, &sq, g);
    else if (f)
        apply_fixed(room, &sq, f);
    return put_square(room, x, y, c, &sq);
}

/* _apply_room_grid_obj: an object only where the terrain takes one; a
 * trap that may come keeps it away when it does. */
static qg_status put_objects(fd_room *room, int x, int y, const qg_fd_spec *g)
{
    qg_cell cell;
    qg_level_cell(room->level, x, y, &cell);
    const qg_thing *trap = &cell.things[QG_SLOT_TRAP];
    int trapped = trap->kind != QG_THING_NONE && !trap->chance;
    /* every trap the games choose at random is terrain without DROP */
    if (knows_flags(room) &&
        (trapped ? trap->kind == QG_THING_RANDOM || !feature_has(room, trap->index, "DROP")
                 : !feature_has(room, cell.feature, "DROP")))
        return QG_OK;
    qg_status st = QG_OK;
    for (int s = QG_SLOT_OBJECT; s <= QG_SLOT_ARTIFACT && st == QG_OK; s++) {
        qg_thing t = g->things[s];
        if (t.kind == QG_THING_NONE)
            continue;
        if (trap->kind != QG_THING_NONE && !trapped && knows_flags(room))
            t.flags |= QG_THING_UNTRAPPED;
        st = qg_level_put_thing(room->level, x, y, (qg_slot)s, &t);
    }
    return st;
}

static qg_status put_things(fd_room *room, int x, int y, const qg_fd_spec *g)
{
    qg_status st = QG_OK;
    if (g->things[QG_SLOT_MONSTER].kind != QG_THING_NONE)
        st = qg_level_put_thing(room->level, x, y, QG_SLOT_MONSTER, &g->things[QG_SLOT_MONSTER]);
    return st == QG_OK ? put_objects(room, x, y, g) : st;
}

/* The second pass over one square. */
static qg_status fill_square(fd_room *room, int x, int y, unsigned char c)
{
    const qg_fd_spec *g = find(room, c);
    if (c == ' ' && !g)
        return QG_OK;
    if (room->formation && c >= '0' && c <= '9') {
        qg_status st = QG_OK;
        /* _init_formation draws the ten from the room's '0' letter: of
           its kind (a summon type or symbol), at its depth */
        const qg_fd_spec *zero = room->letter['0'];
        if (zero) {
            const qg_thing *kind = &zero->things[QG_SLOT_MONSTER];
            int random = kind->kind == QG_THING_RANDOM;
            qg_thing member = {QG_THING_FORMATION, c - '0', random ? kind->name : NULL, 0,
                               kind->flags, random ? kind->index : kind->depth};
            st = qg_level_put_thing(room->level, x, y, QG_SLOT_MONSTER, &member);
        }
        return st == QG_OK && g && room->row->room->formation_objects
                   ? put_objects(room, x, y, g)
                   : st;
    }
    if (g) {
        qg_status st = put_things(room, x, y, g);
        int start = c == '@' || (c == '<' && !find(room, '@'));
        if (start && room->type == FD_ROOM_QUEST)
            qg_level_set_player_start(room->level, x, y);
        return st;
    }
    const fd_fixed_letter *f = fixed(room, c);
    return f && f->thing ? put_things(room, x, y, fixed_things(room, f)) : QG_OK;
}

qg_status fd_room_build(fd_room *room)
{
    room->floor = tag_index(room, room->row->room->floor, &room->floor_name);
    qg_status st = QG_OK;
    for (int pass = 0; pass < 2 && st == QG_OK; pass++)
        for (size_t y = 0; y < room->row_count && st == QG_OK; y++) {
            const unsigned char *bytes = (const unsigned char *)room->rows[y]->text + 2;
            size_t len = fd_row_len(room->rows[y]);
            for (size_t x = 0; x < len && st == QG_OK; x++)
                st = pass ? fill_square(room, (int)x, (int)y, bytes[x])
                          : lay_square(room, (int)x, (int)y, bytes[x]);
        }
    return st;
}

void fd_room_type(fd_room *room, const char *text, size_t len)
{
    static const struct {
        const char *name;
        unsigned type;
    } types[] = {{"VAULT", FD_ROOM_VAULT},     {"ROOM", FD_ROOM_NORMAL},
                 {"QUEST", FD_ROOM_QUEST},     {"TOWN", FD_ROOM_TOWN},
                 {"WILD", FD_ROOM_WILDERNESS}, {"AMBUSH", FD_ROOM_AMBUSH}};
    fd_tok tok[3];
    size_t n = fd_tokenize(text, len, 1, 3, tok);
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (tok[0].len == strlen(types[i].name) && !memcmp(tok[0].p, types[i].name, tok[0].len))
            room->type = types[i].type;
    if (n < 3)
        return;
    for (size_t i = 0; i < tok[2].len;) {
        size_t start = i;
        while (i < tok[2].len && tok[2].p[i] != '|')
            i++;
        size_t end = i++;
        while (start < end && tok[2].p[start] == ' ')
            start++;
        while (end > start && (tok[2].p[end - 1] == ' ' || tok[2].p[end - 1] == '\r'))
            end--;
        if (end - start == 9 && !memcmp(tok[2].p + start, "FORMATION", 9))
            room->formation = 1;
        if (end - start == 9 && !memcmp(tok[2].p + start, "NO_ROTATE", 9))
            room->no_rotate = 1;
    }
}

int fd_room_scramble(fd_room *room, const fd_line *at, const char *text, size_t len,
                     qg_rng *rng, char *drawn, size_t size)
{
    drawn[0] = '\0';
    enum { MAX_SCRAMBLE = 20 };
    const char *open = memchr(text, '(', len);
    const char *close = open ? memchr(open, ')', len - (size_t)(open - text)) : NULL;
    if (!close) {
        fd_error(at, 3, "malformed SCRAMBLE: missing ')' (the game stops reading the file here)");
        return 0;
    }
    unsigned char letters[MAX_SCRAMBLE], scrambled[MAX_SCRAMBLE];
    int n = 0;
    for (const char *p = open + 1; p < close;) {
        while (p < close && *p == ' ')
            p++;
        if (n == MAX_SCRAMBLE) {
            fd_error(at, (int)(p - at->text) + 1, "SCRAMBLE takes at most %d letters (the game "
                     "stops reading the file here)", MAX_SCRAMBLE);
            return 0;
        }
        letters[n] = scrambled[n] = p < close ? (unsigned char)*p : ' ';
        n++;
        const char *comma = memchr(p, ',', (size_t)(close - p));
        p = comma ? comma + 1 : close;
    }
    /* parse_room_line's shuffle: rand_range(i, n - 1) for each i < n - 1 */
    for (int i = 0; rng && i < n - 1; i++) {
        int j = qg_rng_range(rng, i, n - 1);
        unsigned char keep = scrambled[i];
        scrambled[i] = scrambled[j];
        scrambled[j] = keep;
    }
    for (int i = 0; i < n; i++) {
        if (!room->letter[letters[i]]) {
            fd_error(at, 3, "SCRAMBLE: letter '%c' is not a letter of this room yet (the game "
                     "stops reading the file here: \"Undefined letter\")", letters[i]);
            return 0;
        }
        room->scramble[letters[i]] = scrambled[i];
        size_t used = strlen(drawn);
        if (used + 4 < size)
            snprintf(drawn + used, size - used, "%s%c%c", used ? " " : "", letters[i],
                     scrambled[i]);
    }
    return 1;
}

/* Angband 4.2 gen-chunk.c calc_default_transpose_weight: the weight of the
 * transforms that swap width and height, SYMTR_MAX_WEIGHT for the others. */
enum { SYMTR_MAX_WEIGHT = 32768 };
static int transpose_weight(int width, int height)
{
    if (width <= 0)
        return 0;
    int w = 128 * height / width - 64;
    return SYMTR_MAX_WEIGHT / 64 * (w < 0 ? 0 : w > 64 ? 64 : w);
}

unsigned fd_symmetry_turns(int width, int height)
{
    return transpose_weight(width, height) > 0 ? QG_TURNS_ANY : 0x55u;
}

int fd_symmetry_pick_turn(int width, int height, qg_rng *rng)
{
    /* get_random_symmetry_transform without flags: the weights of
       transforms 0..3, then 4..7 (rotation t & 3, reflection t & 4) */
    int tw = transpose_weight(width, height);
    int32_t draw = qg_rng_below(rng, 4 * SYMTR_MAX_WEIGHT + 4 * tw);
    for (int t = 0; t < 8; t++) {
        int weight = t & 1 ? tw : SYMTR_MAX_WEIGHT;
        if (draw < weight)
            return t;
        draw -= weight;
    }
    return 0;
}

unsigned fd_room_turns(const fd_room *room, int width, int height)
{
    if (room->no_rotate)
        return QG_TURNS_NONE;
    /* odd turns only where the turned room fits the dungeon and keeps its
       look (transform_alloc_random, transform_alloc) */
    int odd = width <= QG_FD_MAX_HGT - 2 && height <= QG_FD_MAX_WID - 2 && width > 0 &&
              height * 100 / width > 70;
    return odd ? QG_TURNS_ANY : 0x55u;
}

int fd_room_pick_turn(const fd_room *room, int width, int height, qg_rng *rng)
{
    if (room->no_rotate)
        return 0;
    int t = 0;
    if ((fd_room_turns(room, width, height) & 0x2u) && qg_rng_coinflip(rng))
        t |= 1;
    if (qg_rng_coinflip(rng))
        t |= 2;
    if (qg_rng_coinflip(rng))
        t |= 4;
    return t;
}
