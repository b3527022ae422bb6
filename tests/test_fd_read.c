/* F:/D: reading and resolving: tokenizer, every F: field form per
 * dialect, Q:/P: records, includes and cycles, the level, rendering and
 * the diagnostics of bad input with their exact lines. */
#define _GNU_SOURCE
#include "testutil.h"
#include "fd/fd_internal.h"
#include "core/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *temp(const char *name, const char *text)
{
    return test_write_temp(name, text, strlen(text));
}

static qg_mapdef *parse_as(qg_fd_dialect d, const char *text, qg_diags *diags)
{
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.dialect = d;
    qg_mapdef *def = NULL;
    qg_fd_parse("mem.txt", text, strlen(text), &opt, &def, diags);
    assert_non_null(def);
    return def;
}

static const qg_fd_spec *nth_spec(const qg_mapdef *def, size_t n)
{
    for (size_t i = 0; i < qg_fd_record_count(def); i++) {
        const qg_fd_record *rec = qg_fd_record_at(def, i);
        if (rec->kind == QG_FD_FEATURE && n-- == 0)
            return rec->spec;
    }
    return NULL;
}

static const qg_fd_spec *first_spec(const qg_mapdef *def)
{
    return nth_spec(def, 0);
}

static int line_of(const qg_diags *d, qg_severity severity, const char *text)
{
    for (size_t i = 0; i < qg_diags_count(d); i++) {
        const qg_diag *g = qg_diags_get(d, i);
        if (g->severity == severity && strstr(g->message, text))
            return g->line;
    }
    return -1;
}

static void tokenizer_rules(void **state)
{
    (void)state;
    fd_tok t[10];
    const char *s = "a:b/c:rest:of/line";
    assert_int_equal(fd_tokenize(s, strlen(s), 3, 4, t), 4);
    assert_int_equal((int)t[1].len, 1);
    assert_memory_equal(t[2].p, "c", 1);
    assert_int_equal((int)t[3].len, 12);
    assert_int_equal(t[3].col, 9);
    const char *esc = "x\\:y:z";
    assert_int_equal(fd_tokenize(esc, strlen(esc), 1, 9, t), 2);
    assert_int_equal((int)t[0].len, 4);
    assert_int_equal(fd_tokenize("", 0, 1, 9, t), 1);
    assert_int_equal((int)t[0].len, 0);
    assert_int_equal(fd_tokenize("a:", 2, 1, 9, t), 2);
    assert_int_equal((int)t[1].len, 0);
    const char *tail = "a\\";
    assert_int_equal(fd_tokenize(tail, 2, 1, 9, t), 1);
}

static void zangband_fields(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_mapdef *def = parse_as(QG_FD_ZANGBAND, "F:b:1:12:*9:*:0:3:*:7\n", d);
    const qg_fd_spec *s = first_spec(def);
    assert_int_equal(qg_diags_count(d), 0);
    assert_int_equal(s->letter, 'b');
    assert_int_equal(s->fields, 9);
    assert_int_equal(s->feature.kind, QG_THING_INDEX);
    assert_int_equal(s->feature.index, 1);
    assert_int_equal(s->cave_info, 12);
    assert_int_equal(s->things[QG_SLOT_MONSTER].kind, QG_THING_RANDOM);
    assert_int_equal(s->things[QG_SLOT_MONSTER].index, 9);
    assert_int_equal(s->things[QG_SLOT_OBJECT].kind, QG_THING_RANDOM);
    assert_int_equal(s->things[QG_SLOT_OBJECT].index, 0);
    assert_int_equal(s->things[QG_SLOT_EGO].kind, QG_THING_NONE);
    assert_int_equal(s->things[QG_SLOT_ARTIFACT].index, 3);
    assert_int_equal(s->things[QG_SLOT_TRAP].kind, QG_THING_RANDOM);
    assert_int_equal(s->special, 7);
    qg_mapdef_free(def);
    /* Trailing fields are optional; trailing spaces are what atoi allows. */
    def = parse_as(QG_FD_ZANGBAND, "F:m:1:12:557 \n", d);
    s = first_spec(def);
    assert_int_equal(qg_diags_count(d), 0);
    assert_int_equal(s->things[QG_SLOT_MONSTER].index, 557);
    assert_int_equal(s->things[QG_SLOT_OBJECT].kind, QG_THING_NONE);
    qg_mapdef_free(def);
    qg_diags_free(d);
}

static void hengband_fields(void **state)
{
    (void)state;
    qg_vocab *vocab = qg_vocab_new();
    qg_vocab_add(vocab, QG_VOCAB_FEATURE, 0, "NONE", "nothing");
    qg_vocab_add(vocab, QG_VOCAB_FEATURE, 1, "FLOOR", "open floor");
    qg_vocab_add(vocab, QG_VOCAB_FEATURE, 7, "TRAP_PIT", "pit");
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.dialect = QG_FD_HENGBAND;
    opt.vocab = vocab;
    qg_diags *d = qg_diags_new();
    const char *text = "F:c:FLOOR:8:c44:!:0:!:TRAP_PIT:0\nF:n:FLOOR:8:0:0:0:0:NONE\nF:x:NOWHERE:8\n";
    qg_mapdef *def = NULL;
    qg_fd_parse("h.txt", text, strlen(text), &opt, &def, d);
    const qg_fd_spec *s = first_spec(def);
    assert_int_equal(s->feature.kind, QG_THING_TAG);
    assert_int_equal(s->feature.index, 1);
    assert_int_equal(s->things[QG_SLOT_MONSTER].kind, QG_THING_CLONE);
    assert_int_equal(s->things[QG_SLOT_MONSTER].index, 44);
    assert_int_equal(s->things[QG_SLOT_OBJECT].kind, QG_THING_REWARD);
    assert_int_equal(s->things[QG_SLOT_ARTIFACT].kind, QG_THING_REWARD);
    assert_int_equal(s->things[QG_SLOT_TRAP].kind, QG_THING_TAG);
    assert_int_equal(s->things[QG_SLOT_TRAP].index, 7);
    assert_int_equal(s[1].things[QG_SLOT_TRAP].kind, QG_THING_NONE);
    assert_int_equal(line_of(d, QG_ERROR, "unknown terrain tag 'NOWHERE'"), 3);
    assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 1);
    qg_mapdef_free(def);
    qg_diags_free(d);
    qg_vocab_free(vocab);
}

/* Tag lookups (hashed in the vocabulary) keep a linear scan's answers. */
static void vocab_tag_lookup(void **state)
{
    (void)state;
    qg_vocab *v = qg_vocab_new();
    char tag[16];
    for (int i = 0; i < 600; i++) {
        snprintf(tag, sizeof tag, "TAG_%d", i % 300);
        assert_int_equal(qg_vocab_add(v, QG_VOCAB_FEATURE, i, tag, NULL), QG_OK);
    }
    assert_int_equal(qg_vocab_lookup(v, QG_VOCAB_FEATURE, "TAG_7"), 7);
    assert_int_equal(qg_vocab_lookup(v, QG_VOCAB_FEATURE, "tag_299"), 299);
    qg_vocab_add(v, QG_VOCAB_FEATURE, 7, "RENAMED", NULL);
    assert_int_equal(qg_vocab_lookup(v, QG_VOCAB_FEATURE, "TAG_7"), 307);
    assert_int_equal(qg_vocab_lookup(v, QG_VOCAB_FEATURE, "RENAMED"), 7);
    qg_vocab_add(v, QG_VOCAB_FEATURE, 3, "RENAMED", NULL);
    assert_int_equal(qg_vocab_lookup(v, QG_VOCAB_FEATURE, "RENAMED"), 3);
    assert_int_equal(qg_vocab_lookup(v, QG_VOCAB_FEATURE, "NOWHERE"), -1);
    qg_vocab_free(v);
}

static void tome_fields(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_mapdef *def = parse_as(QG_FD_TOME, "F:z:8:3:0:0:0:0:\"Old Mages quest\"\nF:a:1:6:44:0:0:0:-1:5:2\n", d);
    const qg_fd_spec *s = first_spec(def);
    const qg_fd_spec *gate = nth_spec(def, 1);
    assert_int_equal(qg_diags_count(d), 0);
    assert_string_equal(s->special_name, "Old Mages quest");
    assert_int_equal(gate->special, -1);
    assert_int_equal(gate->mimic, 5);
    assert_int_equal(gate->mflag, 2);
    assert_int_equal(gate->fields, 10);
    qg_mapdef_free(def);
    qg_diags_free(d);
}

/* The kind property a text resolves to in a dialect (asked: --kind). */
static const char *kind_of(qg_fd_dialect dialect, const char *text, qg_map_kind asked,
                           char *out, size_t size)
{
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.dialect = dialect;
    opt.kind = asked;
    qg_diags *d = qg_diags_new();
    qg_mapdef *def = NULL;
    qg_level *level = NULL;
    assert_int_equal(qg_fd_parse("anywhere.txt", text, strlen(text), &opt, &def, d), QG_OK);
    assert_int_equal(qg_fd_resolve(def, &opt, NULL, &level, d), QG_OK);
    const char *kind = qg_level_get_property(level, "kind");
    snprintf(out, size, "%s", kind ? kind : "(none)");
    qg_level_free(level);
    qg_mapdef_free(def);
    qg_diags_free(d);
    return out;
}

/* The kind of level comes from the records the dialect reads, never from
 * the file's name; --kind overrides it; no record, no kind. */
static void kind_from_records(void **state)
{
    (void)state;
    char k[32];
    assert_string_equal(kind_of(QG_FD_ZANGBAND, "Q:1:N:x\nF:.:1\nD:..\n", 0, k, 32), "quest");
    assert_string_equal(kind_of(QG_FD_ZANGBAND, "F:.:1\nD:..\nB:1:N:shop:a:b\n", 0, k, 32),
                        "town");
    assert_string_equal(kind_of(QG_FD_ZANGBAND, "W:D:x\nF:.:1\nD:..\n", 0, k, 32),
                        "wilderness");
    assert_string_equal(kind_of(QG_FD_ZANGBAND, "F:.:1\nD:..\n", 0, k, 32), "(none)");
    assert_string_equal(kind_of(QG_FD_ZANGBAND, "F:.:1\nD:..\n", QG_KIND_TOWN, k, 32), "town");
    assert_string_equal(kind_of(QG_FD_FROGCOMPOSBAND, "T:ROOM:NORMAL\nL:.:FLOOR\nM:..\n", 0, k,
                                32), "room");
    assert_string_equal(kind_of(QG_FD_FROGCOMPOSBAND, "T:VAULT:LESSER\nL:.:FLOOR\nM:..\n", 0, k,
                                32), "vault");
    assert_string_equal(kind_of(QG_FD_POSCHENGBAND, "T:QUEST:NORMAL\nL:.:FLOOR\nD:..\n", 0, k,
                                32), "quest");
    assert_string_equal(kind_of(QG_FD_ANGBAND4_ROOMS, "name:x\nrows:1\ncolumns:2\nD:..\n", 0, k,
                                32), "room");
    assert_string_equal(kind_of(QG_FD_ANGBAND4, "name:x\nrows:1\ncolumns:2\nD:..\n", 0, k, 32),
                        "vault");
}

static void dialect_detection(void **state)
{
    (void)state;
    const char *z = "F:a:1:8:44\n";
    const char *h = "F:a:FLOOR:8:44\n";
    const char *t = "N:1\nF:a:1:8\n";
    assert_int_equal(qg_fd_detect_dialect("q.txt", z, strlen(z)), QG_FD_ZANGBAND);
    assert_int_equal(qg_fd_detect_dialect("q.txt", h, strlen(h)), QG_FD_HENGBAND);
    assert_int_equal(qg_fd_detect_dialect("q.txt", t, strlen(t)), QG_FD_TOME);
    assert_int_equal(qg_fd_detect_dialect("thieves.map", z, strlen(z)), QG_FD_TOME);
    assert_int_equal(qg_fd_dialect_from_name("hengband"), QG_FD_HENGBAND);
    assert_int_equal(qg_fd_dialect_from_name("angband"), -1);
    assert_string_equal(qg_fd_dialect_name(QG_FD_TOME), "tome");
}

static const char quest_text[] =
    "# A test quest\n"
    "Q:7:N:Test Cave\n"
    "Q:7:Q:6:0:0:0:5:0:0:6\n"
    "?:[EQU $LEVEL 3]\n"
    "F:a:1:8:44\n"
    "?:1\n"
    "F:X:61:8\n"
    "F:.:1:8\n"
    "F:T:1:1027:0:*5\n"
    "D:XXXX\n"
    "D:X.aT\n"
    "D:XXXX\n"
    "P:1:1\n"
    "B:1:N:shop:owner:race\n";

static void resolve_quest(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_mapdef *def = parse_as(QG_FD_ZANGBAND, quest_text, d);
    assert_int_equal(qg_diags_count(d), 0);
    assert_int_equal(qg_mapdef_kind(def), QG_KIND_QUEST);
    assert_int_equal(qg_mapdef_row_count(def), 3);
    assert_string_equal(qg_mapdef_get_property(def, "quest"), "7");
    assert_int_equal(qg_fd_record_count(def), 14);
    assert_int_equal(qg_fd_record_at(def, 4)->cond, 3);
    assert_int_equal(qg_fd_record_at(def, 13)->kind, QG_FD_OTHER);
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "LEVEL", "3");
    qg_level *level = NULL;
    assert_int_equal(qg_fd_resolve(def, NULL, vars, &level, d), QG_OK);
    assert_int_equal(qg_level_width(level), 4);
    assert_int_equal(qg_level_height(level), 3);
    qg_cell cell;
    qg_level_cell(level, 2, 1, &cell);
    assert_int_equal(cell.glyph, 'a');
    assert_int_equal(cell.things[QG_SLOT_MONSTER].kind, QG_THING_INDEX);
    assert_int_equal(cell.things[QG_SLOT_MONSTER].index, 44);
    qg_level_cell(level, 3, 1, &cell);
    assert_int_equal(cell.cave_info, 1027);
    assert_int_equal(cell.things[QG_SLOT_OBJECT].kind, QG_THING_RANDOM);
    assert_int_equal(cell.things[QG_SLOT_OBJECT].index, 5);
    int x, y;
    assert_true(qg_level_player_start(level, &x, &y));
    assert_int_equal(x, 1);
    assert_int_equal(y, 1);
    assert_string_equal(qg_level_get_property(level, "cur_hgt"), "22");
    assert_string_equal(qg_level_get_property(level, "cur_wid"), "66");
    assert_string_equal(qg_level_get_property(level, "name"), "Test Cave");
    assert_string_equal(qg_level_get_property(level, "quest_type"), "6");
    assert_string_equal(qg_level_get_property(level, "quest_level"), "5");
    /* B: tells a town: it goes with the level, for writers to give back */
    assert_string_equal(qg_level_get_property(level, "record"), "B:1:N:shop:owner:race");
    qg_level_free(level);
    /* Without $LEVEL = 3 the 'a' line is bypassed: 'a' is undefined.
     * Zangband's loader (init1.c process_dungeon_file_aux, case 'D') reads
     * its static letter[] table, which no load clears: on a fresh game the
     * square gets feature 0 and nothing else, with a warning. */
    qg_vars_set(vars, "LEVEL", "4");
    assert_int_equal(qg_fd_resolve(def, NULL, vars, &level, d), QG_OK);
    assert_int_equal(line_of(d, QG_WARNING, "letter 'a' (first at map row 1, column 2) is not defined"), 11);
    qg_level_cell(level, 2, 1, &cell);
    assert_int_equal(cell.glyph, 'a');
    assert_true(cell.in_map);
    assert_int_equal(cell.feature, 0);
    assert_int_equal(cell.cave_info, 0);
    assert_int_equal(cell.things[QG_SLOT_MONSTER].kind, QG_THING_NONE);
    qg_level_free(level);
    qg_vars_free(vars);
    qg_mapdef_free(def);
    qg_diags_free(d);
}

static void render_legend(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_mapdef *def = parse_as(QG_FD_ZANGBAND, quest_text, d);
    qg_vars *vars = qg_vars_new();
    qg_vars_set(vars, "LEVEL", "3");
    qg_level *level = NULL;
    qg_fd_resolve(def, NULL, vars, &level, d);
    qg_vocab *vocab = qg_vocab_new();
    qg_vocab_add(vocab, QG_VOCAB_FEATURE, 1, "open floor", NULL);
    qg_vocab_add(vocab, QG_VOCAB_MONSTER, 44, "Novice rogue", NULL);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(qg_render_text(level, vocab, out), QG_OK);
    fclose(out);
    assert_string_equal(text,
        "Test Cave (4x3)\n"
        "XXXX\n"
        "X.aT\n"
        "XXXX\n"
        "legend:\n"
        "  .  open floor (1), cave_info 8 (ROOM)\n"
        "  T  open floor (1), cave_info 1027 (MARK|GLOW|0x400), object: random object +5\n"
        "  X  feature 61, cave_info 8 (ROOM)\n"
        "  a  open floor (1), cave_info 8 (ROOM), monster: Novice rogue (44)\n"
        "player start: row 1, column 1\n");
    free(text);
    qg_vocab_free(vocab);
    qg_level_free(level);
    qg_vars_free(vars);
    qg_mapdef_free(def);
    qg_diags_free(d);
}

static void hengband_language(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    const char *text = "Q:$3:N:Dragon Lair\nQ:3:N:\xe7\xab\x9c\nF:.:FLOOR:8\nD:.\nP:0:0\n";
    qg_mapdef *def = parse_as(QG_FD_HENGBAND, text, d);
    qg_level *level = NULL;
    qg_fd_resolve(def, NULL, NULL, &level, d);
    assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 0);
    assert_string_equal(qg_level_get_property(level, "name"), "Dragon Lair");
    assert_true(qg_fd_record_at(def, 1)->skipped);
    qg_level_free(level);
    qg_mapdef_free(def);
    qg_diags_free(d);
}

static void includes_and_cycles(void **state)
{
    (void)state;
    temp("pref.txt", "F:X:61:8\nF:.:1:8\n");
    const char *hub = temp("hub.txt", "%:pref.txt\n?:[EQU $QUEST_NUMBER 1]\n%:one.txt\n?:[EQU $QUEST_NUMBER 2]\n%:two.txt\n");
    temp("one.txt", "Q:1:N:One\nD:X.X\nP:0:1\n");
    temp("two.txt", "Q:2:N:Two\n%:missing.txt\nD:XX\n");
    qg_diags *d = qg_diags_new();
    qg_level *level = NULL;
    /* Quest 1 never reaches quest 2's missing include, as in the games. */
    assert_int_equal(qg_fd_load_quest(hub, 1, NULL, NULL, &level, d), QG_OK);
    assert_non_null(level);
    assert_string_equal(qg_level_get_property(level, "name"), "One");
    assert_int_equal(qg_level_width(level), 3);
    assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 0);
    qg_level_free(level);
    /* Quest 2 reaches it: reported with its file and line. */
    assert_int_equal(qg_fd_load_quest(hub, 2, NULL, NULL, &level, d), QG_ERR_PARSE);
    const qg_diag *miss = NULL;
    for (size_t i = 0; i < qg_diags_count(d); i++)
        if (strstr(qg_diags_get(d, i)->message, "cannot find include 'missing.txt'"))
            miss = qg_diags_get(d, i);
    assert_non_null(miss);
    assert_int_equal(miss->line, 2);
    assert_non_null(strstr(miss->file, "two.txt"));
    qg_level_free(level);
    qg_diags_clear(d);
    /* The static check lists it whatever the variables. */
    qg_mapdef *hub_def = NULL;
    assert_int_equal(qg_fd_read(hub, NULL, &hub_def, d), QG_OK);
    assert_int_equal(qg_fd_check_includes(hub_def, d), QG_OK);
    assert_int_equal(line_of(d, QG_ERROR, "cannot find include 'missing.txt'"), 2);
    qg_mapdef_free(hub_def);
    qg_diags_clear(d);
    const char *a = temp("a.txt", "F:.:1:8\n%:b.txt\n");
    temp("b.txt", "D:.\n%:a.txt\n");
    qg_mapdef *def = NULL;
    assert_int_equal(qg_fd_read(a, NULL, &def, d), QG_ERR_PARSE);
    assert_int_equal(line_of(d, QG_ERROR, "include cycle"), 2);
    assert_int_equal(qg_fd_file_count(def), 2);
    qg_level *l2 = NULL;
    qg_fd_resolve(def, NULL, NULL, &l2, d);
    assert_non_null(l2);
    qg_level_free(l2);
    qg_mapdef_free(def);
    qg_diags_free(d);
}

static void include_depth_limit(void **state)
{
    (void)state;
    char name[32], text[64];
    const char *top = NULL;
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "deep%d.txt", i);
        snprintf(text, sizeof text, "# level %d\n%%:deep%d.txt\n", i, i + 1);
        const char *path = temp(name, text);
        if (i == 0)
            top = path;
    }
    temp("deep6.txt", "F:.:1:8\n");
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.max_include_depth = 3;
    qg_diags *d = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(qg_fd_read(top, &opt, &def, d), QG_ERR_PARSE);
    assert_true(test_diags_contain(d, QG_ERROR, "includes nested deeper than 3 files"));
    assert_int_equal(qg_fd_file_count(def), 4);
    qg_mapdef_free(def);
    qg_diags_free(d);
}

static void bad_input_lines(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    char text[4096];
    snprintf(text, sizeof text,
             "P:1:1\n"              /* 1: P: before D: */
             "F:a:1x:8\n"           /* 2: bad number */
             "F:b\n"                /* 3: too few fields */
             "F:\xc3:1:8\n"         /* 4: non-ASCII letter */
             "?:[MOD 5 0]\n"        /* 5: unknown function MOD (zangband) */
             "garbage line\n"       /* 6: not a record */
             "D:%0200d\n"           /* 7: row longer than 198 */
             "Q:1\n"                /* 8: too few fields */
             "F:c:1:-8\n",          /* 9: negative cave_info */
             0);
    qg_mapdef *def = parse_as(QG_FD_ZANGBAND, text, d);
    assert_int_equal(line_of(d, QG_ERROR, "P: before any D:"), 1);
    assert_int_equal(line_of(d, QG_ERROR, "bad number '1x'"), 2);
    assert_int_equal(line_of(d, QG_ERROR, "too few fields: an F: line"), 3);
    assert_int_equal(line_of(d, QG_ERROR, "non-ASCII letter"), 4);
    assert_int_equal(line_of(d, QG_WARNING, "unknown function MOD"), 5);
    assert_int_equal(line_of(d, QG_ERROR, "expected a record"), 6);
    assert_int_equal(line_of(d, QG_WARNING, "drops map columns 198-199"), 7);
    assert_int_equal(line_of(d, QG_ERROR, "too few fields: a Q: line"), 8);
    assert_int_equal(line_of(d, QG_ERROR, "negative cave_info"), 9);
    const qg_diag *bad = qg_diags_get(d, 1);
    assert_int_equal(bad->col, 5);
    assert_int_equal(qg_diags_count_severity(d, QG_ERROR), 7);
    qg_mapdef_free(def);
    qg_diags_clear(d);
    def = parse_as(QG_FD_POSCHENGBAND, "?:[MOD $LEVEL 0]\n?:[AND 1\n", d);
    assert_int_equal(line_of(d, QG_ERROR, "[MOD x 0]"), 1);
    assert_int_equal(line_of(d, QG_WARNING, "missing ']'"), 2);
    qg_mapdef_free(def);
    qg_diags_free(d);
}

static void crlf_lines(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_mapdef *def = parse_as(QG_FD_ZANGBAND, "F:.:1:8 \r\nD:..\r\nP:0:1\r\n", d);
    assert_int_equal(qg_diags_count(d), 0);
    size_t len;
    assert_string_equal(qg_mapdef_row(def, 0, &len, NULL), "..");
    assert_int_equal(qg_fd_record_at(def, 1)->len, 5);
    qg_level *level = NULL;
    assert_int_equal(qg_fd_resolve(def, NULL, NULL, &level, d), QG_OK);
    assert_int_equal(qg_level_width(level), 2);
    qg_level_free(level);
    qg_mapdef_free(def);
    qg_diags_free(d);
}

static void too_many_rows(void **state)
{
    (void)state;
    qg_buf text;
    qg_buf_init(&text);
    qg_buf_puts(&text, "F:.:1:8\n");
    for (int i = 0; i < 70; i++)
        qg_buf_puts(&text, "D:...\n");
    qg_diags *d = qg_diags_new();
    qg_mapdef *def = parse_as(QG_FD_ZANGBAND, text.data, d);
    qg_level *level = NULL;
    assert_int_equal(qg_fd_resolve(def, NULL, NULL, &level, d), QG_ERR_PARSE);
    assert_int_equal(line_of(d, QG_ERROR, "more than 66 rows"), 68);
    assert_int_equal(qg_level_height(level), 70);
    qg_level_free(level);
    qg_mapdef_free(def);
    qg_diags_free(d);
    qg_buf_free(&text);
}

/* A later file's rows overlay the earlier ones; ToME leaves a cell whose
 * letter is undefined (a space) as it was. Rows a ?: line skips do not
 * size the level. */
static void overlaid_rows_and_sizing(void **state)
{
    (void)state;
    const char *main_file = temp("overlay.txt",
                                 "F:#:1:8\nF:.:2:8\nF:m:2:8:5\nD:#####\nD:#...#\n%:over.txt\n"
                                 "?:[EQU $TOWN 9]\nD:###########\n?:1\n");
    temp("over.txt", "D:  m\nD:.\n");
    qg_vocab *vocab = qg_vocab_new();
    qg_vocab_add(vocab, QG_VOCAB_FEATURE, 1, NULL, "granite wall");
    qg_vocab_add(vocab, QG_VOCAB_FEATURE, 2, NULL, "open floor");
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.dialect = QG_FD_TOME;
    opt.vocab = vocab;
    qg_diags *d = qg_diags_new();
    qg_mapdef *def = NULL;
    assert_int_equal(qg_fd_read(main_file, &opt, &def, d), QG_OK);
    qg_level *level = NULL;
    assert_int_equal(qg_fd_resolve(def, &opt, NULL, &level, d), QG_OK);
    assert_int_equal(qg_level_width(level), 5);
    assert_int_equal(qg_level_height(level), 2);
    qg_cell c;
    /* Every cell of a letter carries its feature's name, the first row
     * that uses the letter included. */
    for (int x = 0; x < 5; x++) {
        qg_level_cell(level, x, 0, &c);
        assert_string_equal(c.feature_name, x == 2 ? "open floor" : "granite wall");
    }
    qg_level_cell(level, 1, 0, &c);
    assert_int_equal(c.glyph, '#');
    assert_int_equal(c.feature, 1);
    qg_level_cell(level, 2, 0, &c);
    assert_int_equal(c.glyph, 'm');
    assert_int_equal(c.things[QG_SLOT_MONSTER].index, 5);
    qg_level_cell(level, 0, 1, &c);
    assert_int_equal(c.glyph, '.');
    assert_int_equal(c.feature, 2);
    assert_string_equal(c.feature_name, "open floor");
    qg_level_cell(level, 4, 1, &c);
    assert_string_equal(c.feature_name, "granite wall");
    qg_level_free(level);
    qg_vars *vars = qg_vars_new();
    qg_vars_set_int(vars, "TOWN", 9);
    assert_int_equal(qg_fd_resolve(def, &opt, vars, &level, d), QG_OK);
    assert_int_equal(qg_level_width(level), 11);
    assert_int_equal(qg_level_height(level), 3);
    qg_level_free(level);
    qg_vars_free(vars);
    qg_mapdef_free(def);
    qg_vocab_free(vocab);
    assert_int_equal(qg_diags_count(d), 0);
    qg_diags_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tokenizer_rules),
        cmocka_unit_test(zangband_fields),
        cmocka_unit_test(hengband_fields),
        cmocka_unit_test(vocab_tag_lookup),
        cmocka_unit_test(tome_fields),
        cmocka_unit_test(dialect_detection),
        cmocka_unit_test(resolve_quest),
        cmocka_unit_test(kind_from_records),
        cmocka_unit_test(render_legend),
        cmocka_unit_test(hengband_language),
        cmocka_unit_test(includes_and_cycles),
        cmocka_unit_test(include_depth_limit),
        cmocka_unit_test(bad_input_lines),
        cmocka_unit_test(crlf_lines),
        cmocka_unit_test(too_many_rows),
        cmocka_unit_test(overlaid_rows_and_sizing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
