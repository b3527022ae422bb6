/* Resolving a definition into a level, as process_dungeon_file() does:
 * each file has its own ?: bypass flag and row cursor, the legend is the
 * load's own (includes share it), and D: rows are laid out with the
 * letters defined at that moment. A first walk over the files' outlines
 * sizes the level; the second places the cells and reports. Every file of
 * a load starts at the same origin (the games pass the includer's origin
 * on), which for a whole load is (0, 0). */
#include "fd/fd_internal.h"
#include "fd/room.h"
#include "core/buf.h"
#include "core/diag.h"
#include "core/level.h"
#include "core/strpool.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A letter's F: line and its things' names interned in the level; valid
 * while the letter is defined (rows.use[letter] != 0). */
typedef struct legend_entry {
    const qg_fd_spec *spec;
    uint32_t thing_name[QG_SLOTS];
} legend_entry;

typedef struct resolver {
    const fd_payload *pl;
    const fd_dialect_row *row;
    const qg_fd_options *opt;
    const qg_vars *vars;
    qg_diags *diags;          /* NULL while sizing */
    qg_diags *measure_diags;  /* ?: evaluation reports while sizing */
    qg_level *level;          /* NULL while sizing */
    size_t *others;           /* room for a row: its bytes put_row left */
    unsigned char *open;      /* files being processed */
    unsigned char *seen;      /* files laid out at least once */
    int again;                /* laying out a file a second time: what it
                                 has to say was said the first time */
    unsigned char *cond;      /* per outline entry: 0 not evaluated, 1 skip,
                                 2 read */
    int width, height;
    int depth;
    size_t walked;            /* records passed by the walk, includes each time */
    int gate_pending, gate_y, gate_x;
    int has_quest, has_name;
    int quest_read;           /* a record of that quest was read */
    qg_map_kind kind;         /* what the first record read that tells says */
    int32_t quest;            /* the quest whose Q: records the level takes */
    long wanted;              /* the quest or map a record head must name to
                                 be read ($QUEST_NUMBER), or -1 */
    int formation;            /* a FORMATION room: undefined digits are its
                                 formation monsters */
    /* a room template (the row's room rules): its rows are laid out once
     * the file is read, with the letters as it leaves them */
    fd_room room;
    const qg_fd_record **room_rows;
    size_t room_row_count, room_row_cap;
    qg_rng rng;               /* the game's random choices, when seeded */
    qg_status failed;
    unsigned char reported[256];
    /* Not cleared (a resolve would spend more on that than on its rows):
     * only rows.use says which letters are defined. */
    legend_entry legend[256];
    qg_row_legend rows;          /* what letters put in a row; use 2: more
                                    than a feature (things, special) */
} resolver;

static void at_record(const resolver *r, const qg_fd_record *rec, fd_line *at)
{
    at->file = r->pl->files[rec->file].path;
    at->line = rec->line;
    at->text = rec->text;
    at->len = rec->len;
    while (at->len && at->text[at->len - 1] == '\r')
        at->len--;
    at->diags = r->again ? NULL : r->diags;
}

static void report_at(const resolver *r, const qg_fd_record *rec, qg_severity severity,
                      const char *message)
{
    fd_line at;
    at_record(r, rec, &at);
    int col = rec->kind == QG_FD_INCLUDE ? 3 : 1;
    if (severity == QG_ERROR)
        fd_error(&at, col, "%s", message);
    else
        fd_warning(&at, col, "%s", message);
}

static void note(resolver *r, qg_status st)
{
    if (st != QG_OK && r->failed == QG_OK)
        r->failed = st;
}

static void property(resolver *r, const char *key, const char *value)
{
    note(r, qg_level_add_property(r->level, key, value));
}

static void property_int(resolver *r, const char *key, long value)
{
    char text[QG_DECIMAL_SIZE];
    property(r, key, qg_decimal(text, value));
}

/* The feature index and name a letter's F: line gives its cells. */
static int32_t feature_of(const resolver *r, const qg_fd_spec *spec, const char **name)
{
    const qg_vocab *vocab = r->opt->vocab;
    int32_t feature = spec->feature.index;
    switch (spec->feature.kind) {
    case QG_THING_RANDOM:
        *name = "random feature";
        return -1;
    case QG_THING_TAG:
        *name = feature >= 0 ? qg_vocab_name(vocab, QG_VOCAB_FEATURE, feature) : NULL;
        if (!*name)
            *name = spec->feature.name;
        return feature;
    default:
        *name = qg_vocab_name(vocab, QG_VOCAB_FEATURE, feature);
        return feature;
    }
}

static uint32_t intern(resolver *r, const char *name)
{
    uint32_t id = qg_level_intern(r->level, name);
    if (id != QG_STRPOOL_FAIL)
        return id;
    note(r, QG_ERR_NOMEM);
    return 0;
}

static void define_letter(resolver *r, const qg_fd_spec *spec)
{
    unsigned char c = spec->letter;
    legend_entry *e = &r->legend[c];
    const char *name;
    int plain = !spec->special && !spec->mimic && !spec->mflag && !spec->special_name;
    e->spec = spec;
    for (int slot = 0; slot < QG_SLOTS; slot++) {
        int has = spec->things[slot].kind != QG_THING_NONE;
        e->thing_name[slot] = has ? intern(r, spec->things[slot].name) : 0;
        plain &= !has;
    }
    r->rows.use[c] = plain ? 1 : 2;
    r->room.letter[c] = spec;
    r->room.scramble[c] = 0;
    r->rows.feature[c] = feature_of(r, spec, &name);
    r->rows.name_id[c] = intern(r, name);
    r->rows.info[c] = spec->cave_info;
}

/* ToME pairs special -1 gates in reading order and links them both ways
 * as (y << 8) + x. */
static void link_gate(resolver *r, int x, int y)
{
    if (!r->gate_pending) {
        r->gate_pending = 1;
        r->gate_y = y;
        r->gate_x = x;
        return;
    }
    r->gate_pending = 0;
    qg_cell first;
    qg_level_cell(r->level, r->gate_x, r->gate_y, &first);
    note(r, qg_level_set_special(r->level, r->gate_x, r->gate_y, (y << 8) + x,
                                 first.mimic, first.mflag));
    qg_cell second;
    qg_level_cell(r->level, x, y, &second);
    note(r, qg_level_set_special(r->level, x, y, (r->gate_y << 8) + r->gate_x,
                                 second.mimic, second.mflag));
    char spec[64];
    snprintf(spec, sizeof spec, "gate %d %d", r->gate_y, r->gate_x);
    note(r, qg_level_add_marker(r->level, x, y, spec));
    snprintf(spec, sizeof spec, "gate %d %d", y, x);
    note(r, qg_level_add_marker(r->level, r->gate_x, r->gate_y, spec));
}

/* What a letter puts on its cell beyond feature and cave_info. */
static void place_extras(resolver *r, const legend_entry *e, int x, int y)
{
    const qg_fd_spec *s = e->spec;
    qg_level *level = r->level;
    for (int slot = 0; slot < QG_SLOTS; slot++)
        if (s->things[slot].kind != QG_THING_NONE)
            note(r, qg_level_set_thing_id(level, x, y, (qg_slot)slot, s->things[slot].kind,
                                          s->things[slot].index, e->thing_name[slot]));
    if (s->special || s->mimic || s->mflag)
        note(r, qg_level_set_special(level, x, y, s->special, s->mimic, s->mflag));
    if (s->special_name) {
        qg_buf spec;
        qg_buf_init(&spec);
        qg_buf_printf(&spec, "quest \"%s\"", s->special_name);
        note(r, spec.failed ? QG_ERR_NOMEM : qg_level_add_marker(level, x, y, spec.data));
        qg_buf_free(&spec);
    }
    if (s->special == -1 && r->row->gate_pairs)
        link_gate(r, x, y);
}

/* A letter no letter line of the load defines. The F: letter games keep
 * one static letter table that no load clears (init1.c's letter[],
 * Hengband 3's general-parser.cpp letter[]): the square gets what an
 * earlier file left for the letter, on a fresh game a zeroed entry, that
 * is feature 0 and nothing else. questgrid places that and warns; ToME
 * warns too ("not defined but used"). The room and vault builders lay
 * room floor before they look at a letter. Told once per letter, on any
 * pass: a letter undefined the second time a file is laid out may have
 * been defined the first. */
static void undefined_letter(resolver *r, const fd_line *row, unsigned char c, int col, int y)
{
    if (r->reported[c] || !r->diags)
        return;
    r->reported[c] = 1;
    fd_line told = *row;
    told.diags = r->diags;
    const fd_line *at = &told;
    if (c >= 0x80)
        fd_error(at, col, "non-ASCII letter \\x%02X is not defined", c);
    else if (r->row->f_fields[0])
        fd_warning(at, col, "letter '%c' (first at map row %d, column %d) is not defined by any F: "
                   "line read so far: %s places what an earlier load left in its letter table, "
                   "on a fresh game feature 0 and nothing else, as questgrid does", c, y,
                   col - 3, r->row->title);
    else
        fd_error(at, col, "letter '%c' (first at map row %d, column %d) is not defined by any L: "
                 "line read so far: the game lays room floor there before it reads a letter; "
                 "questgrid leaves the square unplaced", c, y, col - 3);
}

/* A fresh game's letter table entry: feature 0, cave_info 0. */
static void place_fresh(resolver *r, unsigned char c, int x, int y)
{
    const char *name = qg_vocab_name(r->opt->vocab, QG_VOCAB_FEATURE, 0);
    note(r, qg_level_set_glyph(r->level, x, y, c));
    note(r, qg_level_set_feature(r->level, x, y, 0, name));
    note(r, qg_level_set_cave_info(r->level, x, y, 0));
}

/* A glyph the dialect gives a meaning without a letter: the player start
 * of a room map, a FORMATION room's monsters. 0 when it has none. */
static int builtin_glyph(resolver *r, unsigned char c, int x, int y)
{
    static const char *const formation[] = {
        "formation monster 1", "formation monster 2", "formation monster 3",
        "formation monster 4", "formation monster 5", "formation monster 6",
        "formation monster 7", "formation monster 8", "formation monster 9"};
    if (c && c == r->row->player_glyph) {
        note(r, qg_level_set_glyph(r->level, x, y, c));
        qg_level_set_player_start(r->level, x, y);
        return 1;
    }
    if (!r->formation || c < '1' || c > '9')
        return 0;
    note(r, qg_level_set_glyph(r->level, x, y, c));
    note(r, qg_level_set_thing_id(r->level, x, y, QG_SLOT_MONSTER, QG_THING_NAME, 0,
                                  intern(r, formation[c - '1'])));
    return 1;
}

/* The column cursor the games leave after a row: they stop at MAX_WID. */
static int next_column(size_t len)
{
    return len < QG_FD_MAX_WID ? (int)len : QG_FD_MAX_WID;
}

/* One D: row at cursor y; returns the column cursor the games leave. */
static int place_row(resolver *r, const qg_fd_record *rec, int y, int file_rows)
{
    fd_line at;
    at_record(r, rec, &at);
    size_t len = fd_row_laid(r->row, rec);
    if (file_rows == QG_FD_MAX_HGT)
        fd_error(&at, 1, "more than %d rows: the games write past the end of their map",
                 QG_FD_MAX_HGT);
    const unsigned char *bytes = (const unsigned char *)rec->text + 2;
    size_t others = qg_level_put_row(r->level, y, 0, bytes, len, &r->rows, r->others);
    for (size_t k = 0; k < others; k++) {
        size_t i = r->others[k];
        unsigned char c = bytes[i];
        if (r->rows.use[c])
            place_extras(r, &r->legend[c], (int)i, y);
        else if (!builtin_glyph(r, c, (int)i, y) && !(c == ' ' && r->row->space_passes)) {
            undefined_letter(r, &at, c, (int)i + 3, y);
            if (r->row->f_fields[0] && c < 0x80)
                place_fresh(r, c, (int)i, y);
        }
    }
    return next_column(len);
}

/* P:y:x. Zangband and Hengband first size the level from the cursors:
 * whole screens of 22 rows and 66 columns. */
static void player_start(resolver *r, const qg_fd_record *rec, int y, int x)
{
    if (rec->y < 0)
        return;
    qg_level_set_player_start(r->level, rec->x, rec->y);
    if (r->row->player_sizes) {
        property_int(r, "cur_hgt", (long)((y + 21) / 22) * 22);
        property_int(r, "cur_wid", (long)((x + 65) / 66) * 66);
    }
    if (rec->x >= qg_level_width(r->level) || rec->y >= qg_level_height(r->level)) {
        fd_line at;
        at_record(r, rec, &at);
        fd_warning(&at, 3, "player start (row %d, column %d) is outside the map", rec->y, rec->x);
    }
}

static void quest_record(resolver *r, const qg_fd_quest *q)
{
    /* A hub may define many quests: the level takes the records of the
     * quest asked for ($QUEST_NUMBER), else of the first one named. */
    if (!r->has_quest) {
        r->has_quest = 1;
        r->quest = r->wanted >= 0 ? (int32_t)r->wanted : q->number;
        property_int(r, "quest", r->quest);
    }
    if (q->number != r->quest)
        return;
    r->quest_read = 1;
    static const char *const zangband_q[] = {
        "quest_type", "quest_num_mon", "quest_cur_num", "quest_max_num",
        "quest_level", "quest_monster", "quest_artifact", "quest_flags"};
    static const char *const hengband_q[] = {
        "quest_type", "quest_num_mon", "quest_cur_num", "quest_max_num",
        "quest_level", "quest_monster", "quest_artifact", "quest_dungeon", "quest_flags"};
    switch (q->sub) {
    case 'N':
        property(r, "name", q->text);
        if (q->head)
            property_int(r, "quest_level", q->values[0]);
        if (!r->has_name) {
            r->has_name = 1;
            note(r, qg_level_set_name(r->level, q->text));
        }
        break;
    case 'T':
        property(r, "quest_text", q->text);
        break;
    case 'Q': {
        int dungeon = r->row->quest_dungeon;
        const char *const *keys = dungeon ? hengband_q : zangband_q;
        int count = dungeon ? 9 : 8;
        for (int i = 0; i < count; i++)
            property_int(r, keys[i], i < q->value_count ? q->values[i] : 0);
        break;
    }
    case 'R':
        for (int i = 0; i < q->value_count; i++)
            property_int(r, "quest_reward", q->values[i]);
        break;
    default:
        break;
    }
}

static void property_text(resolver *r, const char *key, const char *text, size_t len)
{
    char *value = qg_strndup(text, len);
    if (!value)
        note(r, QG_ERR_NOMEM);
    else
        property(r, key, value);
    free(value);
}

/* Whether the flags field (the third) of T:type:subtype:flags names flag. */
static int room_flag(const char *text, size_t len, const char *flag)
{
    fd_tok tok[3];
    size_t n = fd_tokenize(text, len, 1, 3, tok);
    size_t flag_len = strlen(flag);
    for (size_t i = 0; n == 3 && i + flag_len <= tok[2].len; i++)
        if (memcmp(tok[2].p + i, flag, flag_len) == 0)
            return 1;
    return 0;
}

/* A FORMATION room's digits are its formation monsters: the dialect's
 * global letters for them (v_info.txt's 8 and 9) do not apply. */
static void formation_room(resolver *r)
{
    const fd_payload *pl = r->pl;
    r->formation = 1;
    for (unsigned char c = '0'; c <= '9'; c++) {
        const qg_fd_spec *spec = r->rows.use[c] ? r->legend[c].spec : NULL;
        if (spec && spec >= pl->builtin && spec < pl->builtin + pl->builtin_count)
            r->rows.use[c] = 0;
    }
}

static int tells_kind(const fd_dialect_row *row, const fd_form *form)
{
    for (const fd_kind_sign *k = row->kind_records; k && k->key; k++)
        if (strcmp(k->key, form->key) == 0)
            return 1;
    return 0;
}

/* Records that leave the map alone: B:, W:, M:, N:, f: stay in the
 * definition's records; properties, room types and vault sizes become
 * level properties; a record no game knows stops the games' reading of
 * the file. */
static void other_record(resolver *r, const qg_fd_record *rec)
{
    const fd_form *form;
    fd_rec kind = fd_record_of(r->row, rec->text, rec->len, &form);
    size_t key = form ? strlen(form->key) + 1 : 0;
    const char *text = rec->text + key;
    size_t len = rec->len - key;
    while (len && text[len - 1] == '\r')
        len--;
    fd_line at;
    char drawn[64];
    switch (kind) {
    case FD_REC_ROOM_TYPE:
        if (r->row->room)
            fd_room_type(&r->room, text, len);
        else if (room_flag(text, len, "FORMATION"))
            formation_room(r);
        property_text(r, form->property, text, len);
        break;
    case FD_REC_SCRAMBLE:
        at_record(r, rec, &at);
        property_text(r, form->property, text, len);
        if (!r->row->room)
            break;
        if (!fd_room_scramble(&r->room, &at, text, len, r->opt->seeded ? &r->rng : NULL, drawn,
                              sizeof drawn))
            note(r, QG_ERR_PARSE);
        else if (r->opt->seeded)
            property(r, "scrambled", drawn);
        break;
    case FD_REC_PROPERTY:
    case FD_REC_MAP_ROWS:
    case FD_REC_MAP_COLUMNS:
        property_text(r, form->property, text, len);
        break;
    case FD_REC_IGNORED:
        report_at(r, rec, QG_WARNING, form->property);
        break;
    case FD_REC_KEPT:
        /* a record that tells the kind of level (a town's B: lines) goes
         * with the level, so that what is written from it tells it too */
        if (form && tells_kind(r->row, form))
            property_text(r, "record", rec->text, key + len);
        break;
    case FD_REC_UNKNOWN:
        /* told when the file was read; a game that skips it reads on */
        if (!r->row->skips_unknown)
            report_at(r, rec, QG_ERROR, "unknown record: the games stop reading the file here");
        break;
    default:
        break;
    }
}

/* The first line of one map of a vault file: the level takes its name. */
static void map_head(resolver *r, const qg_fd_record *rec)
{
    const char *text = memchr(rec->text, ':', rec->len);
    size_t len = (size_t)(rec->text + rec->len - text) - 1;
    while (len && text[len] == '\r')
        len--;
    char *name = qg_strndup(text + 1, len);
    if (!name) {
        note(r, QG_ERR_NOMEM);
        return;
    }
    property(r, "name", name);
    if (!r->has_name) {
        r->has_name = 1;
        note(r, qg_level_set_name(r->level, name));
    }
    free(name);
}

/* Whether a record head (a quest's N: in a hub, a map's name: in a vault
 * file) opens the records the level is made of: the quest asked for, or
 * the map of that number; the first when none is asked for. */
static int head_opens(const resolver *r, const qg_fd_record *rec, long *ordinal)
{
    ++*ordinal;
    if (rec->form == FD_REC_MAP_HEAD || r->wanted < 0)
        return *ordinal == (r->wanted >= 0 ? r->wanted : 1);
    return rec->quest && rec->quest->number == r->wanted;
}

static int is_head(const qg_fd_record *rec)
{
    return rec->form == FD_REC_MAP_HEAD || rec->form == FD_REC_QUEST_HEAD;
}

/* The variables do not change during a resolve, so each ?: line is
 * evaluated once (reporting then) and its answer kept at its place in the
 * outlines (index). */
static int bypassed(resolver *r, const qg_fd_record *rec, size_t index)
{
    if (r->cond[index])
        return r->cond[index] == 1;
    int equal;
    if (fd_eval_equ(rec->text + 2, rec->len - 2, r->vars, &equal)) {
        r->cond[index] = equal ? 2 : 1;
        return !equal;
    }
    qg_diags *diags = r->level ? r->diags : r->measure_diags;
    char value[64];
    fd_line at;
    at_record(r, rec, &at);
    at.diags = diags;
    fd_eval_sink sink = {diags ? &at : NULL, 0, 3};
    fd_eval(rec->text + 2, rec->len - 2, r->pl->dialect, r->vars, value, sizeof value, &sink);
    int skip = value[0] == '0' && value[1] == '\0';
    r->cond[index] = skip ? 1 : 2;
    return skip;
}

/* Counts a record the walk passes; past FD_WALK_LIMIT the walk stops,
 * with one error at the record where it did. */
static int walk_on(resolver *r, const qg_fd_record *rec)
{
    if (++r->walked <= FD_WALK_LIMIT)
        return 1;
    if (r->failed == QG_OK) {
        fd_line at;
        at_record(r, rec, &at);
        at.diags = r->measure_diags;
        fd_error(&at, 1,
                 "the includes would be read over and over: laying the level out passes "
                 "more than %zu lines, each %%: reading its file anew; not laid out",
                 FD_WALK_LIMIT);
        r->failed = QG_ERR_LIMIT;
    }
    return 0;
}

/* Whether an include is followed: not into a file being read, and no
 * deeper than the options allow. */
static int enters(const resolver *r, const qg_fd_record *rec)
{
    return rec->include >= 0 && !r->open[rec->include] &&
           r->depth < r->opt->max_include_depth;
}

static void extend(resolver *r, int width, int height)
{
    if (width > r->width)
        r->width = width;
    if (height > r->height)
        r->height = height;
}

/* Sizes the level: the extent of the rows before a file's first ?: line,
 * then the rows after it that the ?: lines let through. */
static void measure_file(resolver *r, size_t file)
{
    const fd_file *f = &r->pl->files[file];
    int y = f->fixed_rows, bypass = 0, in_scope = 1;
    long heads = 0;
    r->open[file] = 1;
    extend(r, f->width, f->height);
    for (size_t i = 0; i < f->outline_count; i++) {
        const qg_fd_record *rec = &f->lines[f->outline[i]];
        if (!walk_on(r, rec))
            break;
        if (rec->kind == QG_FD_COND) {
            bypass = bypassed(r, rec, f->outline_base + i);
            continue;
        }
        if (bypass || rec->skipped)
            continue;
        if (is_head(rec)) {
            in_scope = head_opens(r, rec, &heads);
            continue;
        }
        if (!in_scope)
            continue;
        if (rec->kind == QG_FD_INCLUDE && enters(r, rec)) {
            r->depth++;
            measure_file(r, (size_t)rec->include);
            r->depth--;
        } else if (rec->kind == QG_FD_ROW) {
            size_t len = fd_row_laid(r->row, rec);
            y++;
            if (len)
                extend(r, len < INT_MAX ? (int)len : INT_MAX, y);
        }
    }
    r->open[file] = 0;
}

/* A letter line the game cannot read, where a load reaches it: a room
 * template the game cannot read gives no level (quest_get_map returns
 * none). */
static void report_fails(resolver *r, const qg_fd_record *rec)
{
    fd_line at;
    at_record(r, rec, &at);
    fd_error(&at, rec->fails_col, "%s", rec->fails);
    if (r->row->room)
        note(r, QG_ERR_PARSE);
}

/* A room template's rows must all be as wide as its first
 * (parse_room_line: "Inconsistent map widths"). */
static void room_row(resolver *r, const qg_fd_record *rec)
{
    size_t len = fd_row_len(rec);
    if (r->room_row_count && len != fd_row_len(r->room_rows[0])) {
        fd_line at;
        at_record(r, rec, &at);
        fd_error(&at, 3, "a room's rows are all as wide as its first (%zu columns), this one "
                 "has %zu (the game stops reading the file here)", fd_row_len(r->room_rows[0]),
                 len);
    }
    const qg_fd_record **slot = QG_PUSH(r->room_rows, r->room_row_count, r->room_row_cap);
    if (!slot)
        note(r, QG_ERR_NOMEM);
    else
        *slot = rec;
}

static void process_file(resolver *r, size_t file)
{
    const fd_file *f = &r->pl->files[file];
    int y = 0, x = 0, rows = 0, bypass = 0, in_scope = 1;
    long heads = 0;
    size_t at = 0;  /* the outline entry of the next ?: line */
    int again = r->again;
    r->again |= r->seen[file];
    r->seen[file] = 1;
    r->open[file] = 1;
    for (size_t i = 0; i < f->record_count; i++) {
        const qg_fd_record *rec = &f->lines[i];
        if (!walk_on(r, rec))
            break;
        if (rec->kind == QG_FD_COND) {
            while (f->outline[at] < i)
                at++;
            bypass = bypassed(r, rec, f->outline_base + at);
            continue;
        }
        if (bypass || rec->skipped)
            continue;
        if (is_head(rec))
            in_scope = head_opens(r, rec, &heads);
        if (!in_scope)
            continue;
        if (r->kind == QG_KIND_UNKNOWN)
            r->kind = fd_kind_of_record(r->row, rec);
        if (rec->form == FD_REC_MAP_HEAD) {
            map_head(r, rec);
            continue;
        }
        switch (rec->kind) {
        case QG_FD_INCLUDE:
            if (rec->missing)
                report_at(r, rec, QG_ERROR, rec->missing);
            if (enters(r, rec)) {
                r->depth++;
                process_file(r, (size_t)rec->include);
                r->depth--;
            }
            break;
        case QG_FD_FEATURE:
            /* the game reads no further in this file */
            if (rec->fails) {
                report_fails(r, rec);
                i = f->record_count;
            } else if (rec->spec) {
                define_letter(r, rec->spec);
            }
            break;
        case QG_FD_ROW:
            if (r->row->room)
                room_row(r, rec);
            else
                x = place_row(r, rec, y++, rows++);
            break;
        case QG_FD_PLAYER: player_start(r, rec, y, x); break;
        case QG_FD_QUEST: if (rec->quest) quest_record(r, rec->quest); break;
        case QG_FD_OTHER: other_record(r, rec); break;
        default: break;
        }
    }
    r->open[file] = 0;
    r->again = again;
}

/* The level turned by turn (none when it is not above 0); 0 when memory
 * ran out (said). */
static int turn_level(resolver *r, int turn)
{
    if (turn <= 0)
        return 1;
    qg_level *turned = qg_level_turned(r->level, turn);
    if (!turned) {
        note(r, QG_ERR_NOMEM);
        return 0;
    }
    qg_level_free(r->level);
    r->level = turned;
    return 1;
}

/* The room template laid out, turned as the game may turn it (by the
 * seed's pick when seeded), and sized as quest_generate sizes a quest
 * level: whole screens around it. */
static void build_room(resolver *r)
{
    fd_room *room = &r->room;
    const fd_room_rules *rules = r->row->room;
    room->row = r->row;
    room->opt = r->opt;
    room->level = r->level;
    room->rows = r->room_rows;
    room->row_count = r->room_row_count;
    room->fixed_things = r->pl->fixed_things;
    for (size_t i = 0; i < r->pl->builtin_count; i++)
        room->global[r->pl->builtin[i].letter] = &r->pl->builtin[i];
    note(r, fd_room_build(room));
    int w = qg_level_width(r->level), h = qg_level_height(r->level);
    int turn = r->opt->seeded ? fd_room_pick_turn(room, w, h, &r->rng) : -1;
    qg_level_set_turns(r->level, fd_room_turns(room, w, h), -1);
    if (!turn_level(r, turn))
        return;
    qg_level_set_turns(r->level, fd_room_turns(room, w, h), turn);
    if (room->type == FD_ROOM_QUEST) {
        int cw = qg_level_width(r->level), ch = qg_level_height(r->level);
        property_int(r, "cur_wid", (long)(cw + rules->screen_wid - 1) / rules->screen_wid *
                                       rules->screen_wid);
        property_int(r, "cur_hgt", (long)(ch + rules->screen_hgt - 1) / rules->screen_hgt *
                                       rules->screen_hgt);
    }
}

/* An Angband 4.2 vault or room template: turned as build_vault and
 * build_room_template turn it where find_space chooses the place
 * (get_random_symmetry_transform with calc_default_transpose_weight), by
 * the seed's draw when seeded. */
static void turn_symmetric(resolver *r)
{
    int w = qg_level_width(r->level), h = qg_level_height(r->level);
    int turn = r->opt->seeded ? fd_symmetry_pick_turn(w, h, &r->rng) : -1;
    if (turn_level(r, turn))
        qg_level_set_turns(r->level, fd_symmetry_turns(w, h), turn);
}

static void finish(resolver *r, const qg_mapdef *def)
{
    property(r, "dialect", qg_fd_dialect_name(r->pl->dialect));
    qg_map_kind kind = r->opt->kind != QG_KIND_UNKNOWN ? r->opt->kind : r->kind;
    /* a kind no record tells is left unsaid (convert says so) */
    if (kind != QG_KIND_UNKNOWN)
        property(r, "kind", qg_map_kind_name(kind));
    if (!r->has_name)
        note(r, qg_level_set_name(r->level, qg_mapdef_name(def)));
    if (r->gate_pending)
        qg_diags_add(r->diags, QG_WARNING, r->pl->files[0].path, 0, 0, NULL, 0,
                     "a between gate (special -1) at row %d, column %d has no partner",
                     r->gate_y, r->gate_x);
}

/* The level the sizing walk asked for, or a diagnostic saying why
 * there is none. */
static qg_status new_level(resolver *r)
{
    int width = r->width > 0 ? r->width : 1, height = r->height > 0 ? r->height : 1;
    const char *path = r->pl->files[0].path;
    if ((size_t)width * (size_t)height > QG_LEVEL_MAX_CELLS) {
        qg_diags_add(r->measure_diags, QG_ERROR, path, 0, 0, NULL, 0,
                     "the map needs %d x %d cells, more than the limit of %u",
                     width, height, QG_LEVEL_MAX_CELLS);
        return QG_ERR_LIMIT;
    }
    r->level = qg_level_new(width, height);
    r->others = r->level ? malloc((size_t)width * sizeof *r->others) : NULL;
    if (!r->others) {
        qg_level_free(r->level);
        r->level = NULL;
        qg_diags_add(r->measure_diags, QG_ERROR, path, 0, 0, NULL, 0,
                     "out of memory for a level of %d x %d cells", width, height);
        return QG_ERR_NOMEM;
    }
    return QG_OK;
}

/* One resolution under vars. A file without rows that reads no quest
 * sets *rowless and, unless quiet, says so. */
static qg_status resolve_once(const qg_mapdef *def, const qg_fd_options *options,
                              const qg_vars *vars, qg_level **out, qg_diags *diags, int quiet,
                              int *rowless)
{
    *out = NULL;
    *rowless = 0;
    const fd_payload *pl = fd_payload_of(def);
    if (!pl || !pl->file_count)
        return QG_ERR_INVALID;
    qg_fd_options defaults;
    qg_fd_options_init(&defaults);
    qg_fd_options opt = options ? *options : defaults;
    if (opt.max_include_depth <= 0)
        opt.max_include_depth = QG_FD_INCLUDE_DEPTH;
    /* open, seen and cond share one block: two flags per file, then one
     * per outline entry. */
    unsigned char *flags = calloc(2 * pl->file_count + pl->outline_total, 1);
    if (!flags)
        return QG_ERR_NOMEM;
    resolver state, *r = &state;
    memset(r, 0, offsetof(resolver, legend));
    memset(r->rows.use, 0, sizeof r->rows.use);
    r->open = flags;
    r->seen = flags + pl->file_count;
    r->cond = flags + 2 * pl->file_count;
    r->measure_diags = diags;
    r->pl = pl;
    r->row = fd_row(pl->dialect);
    r->opt = &opt;
    r->vars = vars;
    const char *asked = qg_vars_get(vars, "QUEST_NUMBER");
    r->wanted = asked ? fd_atoi(asked, strlen(asked)) : -1;
    /* a random quest is read as the game reads it: in the one load of all
     * of them, $QUEST_NUMBER at the first */
    qg_vars *random_load = NULL;
    if (r->row->random_quests && r->wanted >= r->row->random_quests) {
        random_load = fd_vars_with(vars, "QUEST_NUMBER", r->row->random_quests);
        if (!random_load) {
            free(flags);
            return QG_ERR_NOMEM;
        }
        r->vars = random_load;
    }
    size_t errors = qg_diags_count_severity(diags, QG_ERROR);
    measure_file(r, 0);
    qg_status st = r->failed != QG_OK ? r->failed : new_level(r);
    if (st == QG_OK) {
        r->diags = diags;
        r->walked = 0;
        for (size_t i = 0; !r->row->room && i < pl->builtin_count; i++)
            define_letter(r, &pl->builtin[i]);
        /* what the load the game reads this file through defined before */
        for (int c = 0; c < 256; c++)
            if (pl->context[c])
                define_letter(r, pl->context[c]);
        if (opt.seeded)
            qg_rng_seed(&r->rng, opt.seed, 0);
        process_file(r, 0);
        if (r->row->room && r->failed == QG_OK)
            build_room(r);
        else if (r->row->symmetry && r->failed == QG_OK)
            turn_symmetric(r);
        else
            qg_level_set_turns(r->level, QG_TURNS_NONE, -1);
        finish(r, def);
        st = r->failed;
        /* no rows: no level, and a note or an error saying why */
        if (st == QG_OK && (r->width <= 0 || r->height <= 0)) {
            *rowless = r->wanted < 0 && !r->quest_read;
            if (!*rowless || !quiet)
                fd_report_no_map(r->row, r->level, pl->files[0].path, r->wanted,
                                 r->quest_read ? (long)r->quest : -1, diags);
            st = QG_ERR_NOTFOUND;
        }
    }
    if (st != QG_OK) {
        qg_level_free(r->level);
    } else {
        *out = r->level;
        if (qg_diags_count_severity(diags, QG_ERROR) > errors)
            st = QG_ERR_PARSE;
    }
    free(flags);
    free(r->others);
    free(r->room_rows);
    qg_vars_free(random_load);
    return st;
}

/* The first quest state (a new game's first) in which the file lays rows:
 * its level and diagnostics, and a note saying which state. When its ?:
 * lines test no quest's state, the first run's diagnostics and the error
 * that it has no map; when no state lays rows, a note saying so. */
static qg_status in_states(const qg_mapdef *def, const qg_fd_options *options,
                           const qg_vars *vars, qg_level **out, qg_diags *diags,
                           const qg_diags *first)
{
    const fd_payload *pl = fd_payload_of(def);
    const fd_dialect_row *row = fd_row(pl->dialect);
    const char *path = pl->files[0].path;
    fd_state_quests *set = malloc(sizeof *set);
    /* more quests tested than the games' tables hold: no state is tried */
    if (set && !fd_state_quests_find(pl, vars, set))
        set->count = 0;
    qg_buf said;
    qg_buf_init(&said);
    if (set)
        fd_state_names(set, &said);
    qg_status st = set && !said.failed ? QG_ERR_NOTFOUND : QG_ERR_NOMEM;
    int taken = 0;
    for (int state = 0; set && set->count && state < row->quest_states && !taken; state++) {
        qg_vars *state_vars = fd_state_vars(set, vars, state);
        qg_diags *run = state_vars ? qg_diags_new_like(diags) : NULL;
        int rowless = 0;
        st = run ? resolve_once(def, options, state_vars, out, run, 1, &rowless) : QG_ERR_NOMEM;
        if (*out) {
            qg_buf value;
            qg_buf_init(&value);
            qg_buf_printf(&value, "%s = %d%s", said.data, state,
                          state ? "" : " (a new game's: not taken)");
            qg_diags_add(diags, QG_NOTE, path, 0, 0, NULL, 0,
                         "its map rows lie only under ?: lines on quest states, which the game "
                         "sets ($QUESTn is quest n's status): drawn with %s; --var chooses "
                         "another state", value.data ? value.data : "");
            if (value.failed || qg_level_add_property(*out, "quest state", value.data) != QG_OK) {
                qg_level_free(*out);
                *out = NULL;
                st = QG_ERR_NOMEM;
            }
            qg_buf_free(&value);
        }
        /* drawn, or refused for another reason: that run says what */
        taken = run && (*out || !rowless);
        if (taken)
            qg_diags_take(diags, run);
        qg_diags_free(run);
        qg_vars_free(state_vars);
        if (st == QG_ERR_NOMEM)
            break;
    }
    if (!taken) {
        qg_diags_take(diags, first);
        if (st == QG_ERR_NOTFOUND && set && set->count)
            qg_diags_add(diags, QG_NOTE, path, 0, 0, NULL, 0,
                         "its map rows lie only under ?: lines on %s that no quest status "
                         "(0 to %d) opens: the game never lays them",
                         said.data, row->quest_states - 1);
        else if (st == QG_ERR_NOTFOUND)
            fd_report_no_map(row, NULL, path, -1, -1, diags);
    }
    qg_buf_free(&said);
    free(set);
    return st;
}

qg_status qg_fd_resolve(const qg_mapdef *def, const qg_fd_options *options,
                        const qg_vars *vars, qg_level **out, qg_diags *diags)
{
    const fd_payload *pl = fd_payload_of(def);
    int states = pl && fd_row(pl->dialect)->quest_states > 0;
    qg_diags *first = states ? qg_diags_new_like(diags) : NULL;
    int rowless = 0;
    qg_status st = resolve_once(def, options, vars, out, first ? first : diags, first != NULL,
                                &rowless);
    if (!first)
        return st;
    if (rowless)
        st = in_states(def, options, vars, out, diags, first);
    else
        qg_diags_take(diags, first);
    qg_diags_free(first);
    return st;
}
