/* The .des reader: Crawl's lexical rules, the lowering to chunks with
 * line alignment, legacy spellings, properties and diagnostics. */
#define _GNU_SOURCE
#include "testutil.h"
#include "des/map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses src as "t.des" and returns every map's dump. */
static char *dump_src(const char *src, qg_des_names *names, qg_diags *diags,
                      qg_status *status)
{
    qg_des_file *file;
    qg_status st = qg_des_parse("t.des", src, strlen(src), NULL, names, &file, diags);
    if (status)
        *status = st;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    for (size_t i = 0; i < qg_des_map_count(file); i++)
        qg_des_dump_map(qg_des_map(file, i), out);
    fclose(out);
    qg_des_file_free(file);
    return text;
}

#define HEAD "\n----------------------------------------\nMap: "

static void expect_dump(const char *src, const char *want)
{
    qg_diags *diags = qg_diags_new();
    qg_status st;
    char *got = dump_src(src, NULL, diags, &st);
    if (qg_diags_count_severity(diags, QG_ERROR))
        qg_diags_print(diags, stderr);
    assert_int_equal(st, QG_OK);
    assert_string_equal(got, want);
    free(got);
    qg_diags_free(diags);
}

/* Expects exactly one error at line:col whose message contains text. */
static void expect_error(const char *src, int line, int col, const char *text)
{
    qg_diags *diags = qg_diags_new();
    qg_status st;
    free(dump_src(src, NULL, diags, &st));
    assert_int_equal(st, QG_ERR_PARSE);
    int found = 0;
    for (size_t i = 0; i < qg_diags_count(diags); i++) {
        const qg_diag *d = qg_diags_get(diags, i);
        if (d->severity == QG_ERROR && d->line == line && d->col == col &&
            strstr(d->message, text))
            found = 1;
    }
    if (!found)
        qg_diags_print(diags, stderr);
    assert_true(found);
    qg_diags_free(diags);
}

static void literal_s_quirk(void **state)
{
    (void)state;
    /* flex reads \s as the letter s: "sMAP" opens a map, "ss}}" closes a block */
    expect_dump("NAME: a\nsMAP\nx.\nENDMAP\n{{\nf()\nss}}\n",
                HEAD "a\nfunction mapchunk()\n map(\"x.\")\nend\n"
                "function main()\n f()\nend\n\n");
    /* an indented MAP is not a MAP line */
    expect_error("NAME: a\n MAP\n", 2, 2, "unexpected character 'M'");
}

static void block_end_rule(void **state)
{
    (void)state;
    /* "  }}" leaves "  "; "code }}" keeps its trailing space */
    expect_dump("NAME: a\n{{\nx = 1\n  }}\nepilogue {{\ny() }}\n",
                HEAD "a\nfunction main()\n x = 1\n   \nend\n"
                "function epilogue()\n y() \nend\n\n");
    /* a Lua line ending in }} closes the block early */
    expect_error("NAME: a\n{{\nt = {{1}}\n}}\n", 4, 1, "unexpected character '}'");
}

static void blank_lines_in_blocks(void **state)
{
    (void)state;
    expect_dump("NAME: a\n{{\nf()\n\n\ng()\n}}\n",
                HEAD "a\nfunction main()\n f()\n\n\n g()\nend\n\n");
}

static void continuation_without_separator(void **state)
{
    (void)state;
    expect_dump("NAME: a\nMONS: orc wiz\\\n   ard, gob\\\nlin\nKFEAT: x = orc \\\n  altar\n",
                HEAD "a\nfunction main()\n mons(\"orc wizard\")\n mons(\"goblin\")\n"
                "\n kfeat(\"x = orc altar\")\nend\n\n");
}

static void comma_splitting_and_quoting(void **state)
{
    (void)state;
    expect_dump("NAME: a\nSUBST: a = b, c = \"d\\e\nTAGS: t1 t2\n",
                HEAD "a\nfunction main()\n subst(\"a = b\") subst(\"c = \\\"d\\\\e\")\n"
                " tags(\"t1\") tags(\"t2\")\nend\n\n");
}

static void one_character_items(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    qg_status st;
    char *got = dump_src("NAME: a\nITEM: x\nTAGS: t\n", NULL, diags, &st);
    assert_int_equal(st, QG_OK);
    assert_string_equal(got, HEAD "a\nfunction main()\n tags(\"t\")\nend\n\n");
    assert_true(test_diags_contain(diags, QG_WARNING, "echoes and drops"));
    free(got);
    qg_diags_free(diags);
    expect_error("NAME: a\nSHUFFLE: ab, c\n", 3, 1, "syntax error");
    expect_error("NAME: a\nMONS: orc, g\n", 2, 12, "unexpected character 'g'");
}

static void empty_arguments(void **state)
{
    (void)state;
    expect_dump("NAME: a\nDEPTH:\nLROCKCOL:   \n",
                HEAD "a\nfunction main()\n depth(\"\")\n lrockcol(\"\")\nend\n\n");
    /* lowered all the same, but a keyed spec needs a key */
    expect_error("NAME: a\nKFEAT:\n", 2, 7, "must use = or :");
}

static void chance_weight_lookahead(void **state)
{
    (void)state;
    /* without a range the entry lands on the next token's line */
    expect_dump("NAME: a\nWEIGHT: 9\nTAGS: t\n",
                HEAD "a\nfunction main()\n weight(9) tags(\"t\")\nend\n\n");
    /* MAP returns no token: the first map row is the lookahead */
    expect_dump("NAME: a\nTAGS: t\nCHANCE: 0.5%\n# c\nMAP\nx\nENDMAP\n",
                HEAD "a\nfunction mapchunk()\n map(\"x\")\nend\n"
                "function main()\n tags(\"t\")\n\n\n\n chance(50)\nend\n\n");
    /* ranges stay on their own line, spaces kept */
    expect_dump("NAME: a\nCHANCE: 33% ( D:13 ), 5\nORDER: 7\n",
                HEAD "a\nfunction main()\n depth_chance(\" D:13 \", 3300)\n"
                " chance(5) order(7)\nend\n\n");
    /* at the end of the file: EOF+1 */
    expect_dump("NAME: a\nTAGS: t\nWEIGHT: 3\n",
                HEAD "a\nfunction main()\n tags(\"t\")\n\n weight(3)\nend\n\n");
}

static void every_directive_lowers(void **state)
{
    (void)state;
    expect_dump("NAME: a\nDESC: d\nPLACE: Temple\nWELCOME: hi\nORIENT: float\n"
                "LFLOORCOL: blue\nLROCKCOL: red\nLFLOORTILE: f\nLROCKTILE: r\n"
                "COLOUR: x = red\nFTILE: x = t1\nRTILE: x = t2\nTILE: x = t3\n"
                "FHEIGHT: x = 5\nCLEAR: x\nKFEAT: x = floor\nKITEM: x = gold\n"
                "KMONS: x = rat\nKMASK: x = vault\nKPROP: x = bloody\n"
                "SUBVAULT: x : tag\nNSUBST: x = 1=y\nSHUFFLE: xy\nITEM: stone\n",
                HEAD "a\nfunction main()\n desc(\"d\")\n place(\"Temple\")\n"
                " welcome(\"hi\")\n orient(\"float\")\n lfloorcol(\"blue\")\n"
                " lrockcol(\"red\")\n lfloortile(\"f\")\n lrocktile(\"r\")\n"
                " colour(\"x = red\")\n ftile(\"x = t1\")\n rtile(\"x = t2\")\n"
                " tile(\"x = t3\")\n fheight(\"x = 5\")\n clear(\"x\")\n"
                " kfeat(\"x = floor\")\n kitem(\"x = gold\")\n kmons(\"x = rat\")\n"
                " kmask(\"x = vault\")\n kprop(\"x = bloody\")\n subvault(\"x : tag\")\n"
                " nsubst(\"x = 1=y\")\n shuffle(\"xy\")\n item(\"stone\")\nend\n\n");
}

static void marker_lowering(void **state)
{
    (void)state;
    expect_dump("NAME: a\nMARKER: O = lua:one_way_stair { desc = \"x\" }\nMARKER: P = feat:floor\n",
                HEAD "a\nfunction main()\n lua_marker(\"O\", function ()   return "
                "one_way_stair { desc = \"x\" } end)\n marker(\"P = feat:floor\")\nend\n\n");
}

static void global_prelude_and_chunks(void **state)
{
    (void)state;
    const char *src = "# c\n: require('x')\n{{\nfunction f(e) end\n}}\nNAME: a\n"
                      ": f(_G)\nvalidate {{ return true }}\nveto {{\nreturn false\n}}\n"
                      "default-depth: D:2-\n: g = 1\nNAME: b\nMAP\n.\nENDMAP\n";
    qg_diags *diags = qg_diags_new();
    qg_des_file *file;
    assert_int_equal(qg_des_parse("t.des", src, strlen(src), NULL, NULL, &file, diags), QG_OK);
    const qg_des_chunk *pre = qg_des_global_prelude(file);
    assert_non_null(pre);
    assert_int_equal(pre->first_line, 2);
    assert_string_equal(pre->code, "  require('x')\n\n function f(e) end\n\n\n\n\n\n\n\n\n  g = 1");
    assert_int_equal(qg_des_map_count(file), 2);
    const qg_mapdef *a = qg_des_map(file, 0);
    const qg_des_chunk *main_chunk = qg_des_map_chunk(a, QG_CHUNK_MAIN);
    assert_int_equal(main_chunk->first_line, 7);
    assert_string_equal(qg_des_map_chunk(a, QG_CHUNK_VALIDATE)->code, "  return true ");
    assert_int_equal(qg_des_map_chunk(a, QG_CHUNK_VETO)->first_line, 10);
    assert_null(qg_des_map_chunk(a, QG_CHUNK_MAPCHUNK));
    const qg_mapdef *b = qg_des_map(file, 1);
    assert_string_equal(qg_mapdef_get_property(b, "depth"), "D:2-");
    assert_int_equal(qg_des_map_chunk(b, QG_CHUNK_MAPCHUNK)->first_line, 16);
    qg_des_file_free(file);
    qg_diags_free(diags);
}

static void properties_and_rows(void **state)
{
    (void)state;
    const char *src = "NAME: v\nTAGS: zed alpha zed\nDEPTH: D:2-4, Lair\nORIENT: float\n"
                      "PLACE: Temple\nWEIGHT: 3 (Vaults), 10\nMAP\nxx\nx.x\nENDMAP\nMAP\n.\nENDMAP\n";
    qg_diags *diags = qg_diags_new();
    qg_des_file *file;
    assert_int_equal(qg_des_parse("t.des", src, strlen(src), NULL, NULL, &file, diags), QG_OK);
    const qg_mapdef *def = qg_des_map(file, 0);
    assert_int_equal(qg_mapdef_format(def), QG_FORMAT_DES);
    assert_int_equal(qg_mapdef_kind(def), QG_KIND_VAULT);
    assert_int_equal(qg_mapdef_line(def), 1);
    assert_string_equal(qg_mapdef_get_property(def, "tags"), "alpha zed");
    assert_string_equal(qg_mapdef_get_property(def, "depth"), "D:2-4, Lair");
    assert_string_equal(qg_mapdef_get_property(def, "orient"), "float");
    assert_string_equal(qg_mapdef_get_property(def, "place"), "Temple");
    assert_string_equal(qg_mapdef_get_property(def, "weight"), "3 (Vaults), 10");
    assert_string_equal(qg_mapdef_get_property(def, "width"), "3");
    assert_string_equal(qg_mapdef_get_property(def, "height"), "3");
    assert_int_equal(qg_mapdef_row_count(def), 3);
    int line;
    size_t len;
    assert_string_equal(qg_mapdef_row(def, 2, &len, &line), ".");
    assert_int_equal(line, 12);
    qg_des_file_free(file);
    qg_diags_free(diags);
}

static void legacy_syntax(void **state)
{
    (void)state;
    /* detected per file: FLAGS is TAGS, plain CHANCE is a weight */
    expect_dump("NAME: old\nCHANCE: 5\nFLAGS: no_rotate\nFLOORCOL: blue\n"
                "LFLAGS: no_tele_control\nMAP\nx\nENDMAP\n",
                HEAD "old\nfunction mapchunk()\n map(\"x\")\nend\n"
                "function main()\n weight(5) tags(\"no_rotate\")\n lfloorcol(\"blue\")\n"
                " lflags(\"no_tele_control\")\nend\n\n");
    /* CHANCE with '%' keeps its modern meaning in an old file */
    expect_dump("NAME: old\nFLAGS: x\nCHANCE: 5%\n",
                HEAD "old\nfunction main()\n tags(\"x\")\n\n chance(500)\nend\n\n");
    /* forced by the option on a file that has no legacy spelling */
    const char *src = "NAME: x\nCHANCE: 5\n";
    qg_des_options legacy = {1};
    qg_diags *diags = qg_diags_new();
    qg_des_file *file;
    assert_int_equal(qg_des_parse("t.des", src, strlen(src), &legacy, NULL, &file, diags), QG_OK);
    assert_string_equal(qg_des_map_chunk(qg_des_map(file, 0), QG_CHUNK_MAIN)->code, " weight(5)");
    qg_des_file_free(file);
    assert_int_equal(qg_des_parse("t.des", src, strlen(src), NULL, NULL, &file, diags), QG_OK);
    assert_string_equal(qg_des_map_chunk(qg_des_map(file, 0), QG_CHUNK_MAIN)->code, " chance(5)");
    qg_des_file_free(file);
    qg_diags_free(diags);
}

static void unexpected_characters(void **state)
{
    (void)state;
    expect_error("NAME: a\nTAGS: t\nfoo\n", 3, 1, "unexpected character 'f'");
}

static void map_diagnostics(void **state)
{
    (void)state;
    expect_error("NAME: a\nMAP\nxx\n\nxx\nENDMAP\n", 4, 1, "blank line inside MAP");
    expect_error("NAME: a\nMAP\nx\tx\nENDMAP\n", 3, 2, "TAB inside MAP");
    expect_error("NAME: a\nTAGS: t\nMAP\nxx\n", 3, 1, "MAP without ENDMAP");
    qg_diags *diags = qg_diags_new();
    free(dump_src("NAME: a\nMAP\nx\xc2\xa0\nENDMAP\n", NULL, diags, NULL));
    assert_int_equal(qg_diags_count_severity(diags, QG_ERROR), 0);
    const qg_diag *d = qg_diags_get(diags, 0);
    assert_non_null(d);
    assert_int_equal(d->severity, QG_WARNING);
    assert_int_equal(d->line, 3);
    assert_int_equal(d->col, 2);
    qg_diags_free(diags);
}

static void duplicate_names_across_files(void **state)
{
    (void)state;
    qg_des_names *names = qg_des_names_new();
    qg_diags *diags = qg_diags_new();
    qg_des_file *f1, *f2;
    const char *a = "NAME: one\nNAME: two\n", *b = "# x\nNAME:  two\n";
    assert_int_equal(qg_des_parse("a.des", a, strlen(a), NULL, names, &f1, diags), QG_OK);
    assert_int_equal(qg_des_parse("b.des", b, strlen(b), NULL, names, &f2, diags), QG_ERR_PARSE);
    const qg_diag *d = qg_diags_get(diags, 0);
    assert_string_equal(d->file, "b.des");
    assert_int_equal(d->line, 2);
    assert_int_equal(d->col, 8);
    assert_string_equal(d->message, "map 'two' already defined at a.des:2");
    qg_des_file_free(f1);
    qg_des_file_free(f2);
    qg_diags_free(diags);
    qg_des_names_free(names);
}

/* Parses src as path into names; the status, with the file freed. */
static qg_status parse_named(const char *path, const char *src, qg_des_names *names,
                             qg_diags *diags)
{
    qg_des_file *file;
    qg_status st = qg_des_parse(path, src, strlen(src), NULL, names, &file, diags);
    qg_des_file_free(file);
    return st;
}

/* Parses a file of count maps named prefix0, prefix1, ..., one a line. */
static qg_status parse_numbered(const char *path, const char *prefix, int count,
                                qg_des_names *names, qg_diags *diags)
{
    qg_buf src;
    qg_buf_init(&src);
    for (int m = 0; m < count; m++)
        qg_buf_printf(&src, "NAME: %s%d\n", prefix, m);
    assert_false(src.failed);
    qg_status st = parse_named(path, src.data, names, diags);
    qg_buf_free(&src);
    return st;
}

/* An earlier file's names are packed once the next file adds one: a
 * duplicate of them is still found, at its own line. */
static void duplicate_names_of_a_packed_file(void **state)
{
    (void)state;
    qg_des_names *names = qg_des_names_new();
    qg_diags *diags = qg_diags_new();
    assert_int_equal(parse_named("a.des", "NAME: one\n\nNAME: two\n", names, diags), QG_OK);
    assert_int_equal(parse_named("b.des", "NAME: three\n", names, diags), QG_OK);
    assert_int_equal(parse_named("c.des", "NAME: one\nNAME: three\nNAME: two\n", names, diags),
                     QG_ERR_PARSE);
    assert_int_equal(qg_diags_count(diags), 3);
    assert_string_equal(qg_diags_get(diags, 0)->message, "map 'one' already defined at a.des:1");
    assert_string_equal(qg_diags_get(diags, 1)->message,
                        "map 'three' already defined at b.des:1");
    assert_string_equal(qg_diags_get(diags, 2)->message, "map 'two' already defined at a.des:3");
    qg_diags_free(diags);
    qg_des_names_free(names);
}

typedef struct hashed {
    uint32_t hash, n;
} hashed;

static int by_hash(const void *a, const void *b)
{
    const hashed *x = a, *y = b;
    return (x->hash > y->hash) - (x->hash < y->hash);
}

/* Two names "m<n>" whose hashes are equal (a million names hold a few
 * such pairs). */
static void colliding_names(char first[32], char second[32])
{
    enum { TRIES = 1 << 20 };
    hashed *all = malloc(TRIES * sizeof *all);
    assert_non_null(all);
    for (uint32_t n = 0; n < TRIES; n++) {
        snprintf(first, 32, "m%u", (unsigned)n);
        all[n] = (hashed){des_name_hash(first), n};
    }
    qsort(all, TRIES, sizeof *all, by_hash);
    size_t i = 1;
    while (i < TRIES && all[i - 1].hash != all[i].hash)
        i++;
    assert_true(i < TRIES);
    snprintf(first, 32, "m%u", (unsigned)all[i - 1].n);
    snprintf(second, 32, "m%u", (unsigned)all[i].n);
    free(all);
}

/* The table keeps hashes, not names: a name whose hash an earlier name
 * has is told apart by its text, in the open file and in a packed one. */
static void equal_hashes_are_not_duplicates(void **state)
{
    (void)state;
    char first[32], second[32], src[128];
    colliding_names(first, second);
    assert_string_not_equal(first, second);
    qg_des_names *names = qg_des_names_new();
    qg_diags *diags = qg_diags_new();
    snprintf(src, sizeof src, "NAME: %s\nNAME: %s\n", first, second);
    assert_int_equal(parse_named("a.des", src, names, diags), QG_OK);
    snprintf(src, sizeof src, "NAME: other\nNAME: %s\n", second);
    assert_int_equal(parse_named("b.des", src, names, diags), QG_ERR_PARSE);
    char want[128];
    snprintf(want, sizeof want, "map '%s' already defined at a.des:2", second);
    assert_int_equal(qg_diags_count(diags), 1);
    assert_string_equal(qg_diags_get(diags, 0)->message, want);
    qg_diags_free(diags);
    qg_des_names_free(names);
}

/* Enough names for the table to grow several times, every one found
 * where it was defined after the files before it were packed. */
static void many_names_across_files(void **state)
{
    (void)state;
    qg_des_names *names = qg_des_names_new();
    qg_diags *diags = qg_diags_new();
    enum { FILES = 20, PER_FILE = 200 };
    for (int f = 0; f < FILES; f++) {
        char path[32], prefix[32];
        snprintf(path, sizeof path, "f%d.des", f);
        snprintf(prefix, sizeof prefix, "f%d_m", f);
        assert_int_equal(parse_numbered(path, prefix, PER_FILE, names, diags), QG_OK);
    }
    for (int f = 0; f < FILES; f++)
        for (int m = 0; m < PER_FILE; m += 37) {
            char name[32], want[64];
            const char *file;
            int line;
            snprintf(name, sizeof name, "f%d_m%d", f, m);
            snprintf(want, sizeof want, "f%d.des", f);
            assert_int_equal(des_names_find(names, name, &file, &line), 1);
            assert_string_equal(file, want);
            assert_int_equal(line, m + 1);
        }
    const char *file;
    int line;
    assert_int_equal(des_names_find(names, "f0_m200", &file, &line), 0);
    assert_int_equal(qg_diags_count(diags), 0);
    qg_diags_free(diags);
    qg_des_names_free(names);
}

/* A file's names are kept in blocks of at most 4 KiB, so a duplicate in a
 * file of 100,000 names costs one block's reading, not the file's; the
 * first MiB of them as they are, the rest deflated (names found in
 * both). */
static void names_of_a_large_file_in_blocks(void **state)
{
    (void)state;
    qg_des_names *names = qg_des_names_new();
    qg_diags *diags = qg_diags_new();
    enum { COUNT = 100000 };
    assert_int_equal(parse_numbered("big.des", "m", COUNT, names, diags), QG_OK);
    assert_true(names->block_count > COUNT * 8 / 4096);
    size_t stored = 0, deflated = 0, stored_bytes = 0;
    for (size_t b = 0; b < names->block_count; b++) {
        const des_name_block *block = &names->blocks[b];
        size_t len = block->packed ? block->len : names->open.len;
        assert_true(len > 0 && len <= 4096);
        assert_int_equal(block->file, 0);
        stored += block->packed && block->stored;
        deflated += block->packed && !block->stored;
        stored_bytes += block->stored ? block->len : 0;
    }
    assert_true(stored > 0 && deflated > 0);
    assert_true(stored_bytes <= 1024 * 1024);
    assert_int_equal(parse_named("dup.des", "NAME: m54321\nNAME: m0\nNAME: m99999\n", names,
                                 diags),
                     QG_ERR_PARSE);
    assert_int_equal(qg_diags_count(diags), 3);
    assert_string_equal(qg_diags_get(diags, 0)->message,
                        "map 'm54321' already defined at big.des:54322");
    assert_string_equal(qg_diags_get(diags, 1)->message, "map 'm0' already defined at big.des:1");
    assert_string_equal(qg_diags_get(diags, 2)->message,
                        "map 'm99999' already defined at big.des:100000");
    qg_diags_free(diags);
    qg_des_names_free(names);
}

static void directive_diagnostics(void **state)
{
    (void)state;
    expect_error("NAME: a\nORIENT: float # x\n", 2, 9, "unknown orientation 'float # x'");
    expect_error("NAME: a\nNSUBST: x = 1=a / two=b / c\n", 2, 19, "count must be a number");
    expect_error("NAME: a\nMARKER: AB = feat:floor\n", 2, 10, "must be <= 1 characters");
    expect_error("NAME: a\nSHUFFLE: ab/cde\n", 2, 16, "segment length mismatch");
    expect_error("NAME: a\nSUBST: x = a:0\n", 2, 14, "bad weight");
    expect_error("NAME: a\nKMASK: x = vault / !no_such\n", 2, 20, "unknown mask flag");
    expect_error("NAME: a\nDEPTH: D:4-2\n", 2, 10, "bad depth range");
}

static void all_errors_of_a_file(void **state)
{
    (void)state;
    qg_diags *diags = qg_diags_new();
    free(dump_src("NAME: a\nORIENT: up\n?\nNAME: b\nORIENT: down\n", NULL, diags, NULL));
    assert_int_equal(qg_diags_count_severity(diags, QG_ERROR), 3);
    qg_diags_free(diags);
}

static void start_condition_carries_over(void **state)
{
    (void)state;
    /* a file ending inside MAP leaves the scanner in its map state for
     * the next file, as flex does */
    qg_des_names *names = qg_des_names_new();
    qg_diags *diags = qg_diags_new();
    char *first = dump_src("NAME: a\nMAP\nx\n", names, diags, NULL);
    free(first);
    qg_diags_clear(diags);
    qg_status st;
    char *second = dump_src("x\nENDMAP\n", names, diags, &st);
    assert_int_equal(st, QG_ERR_PARSE);
    assert_true(test_diags_contain(diags, QG_ERROR, "a map row is not expected here"));
    free(second);
    qg_diags_free(diags);
    qg_des_names_free(names);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(literal_s_quirk),
        cmocka_unit_test(block_end_rule),
        cmocka_unit_test(blank_lines_in_blocks),
        cmocka_unit_test(continuation_without_separator),
        cmocka_unit_test(comma_splitting_and_quoting),
        cmocka_unit_test(one_character_items),
        cmocka_unit_test(empty_arguments),
        cmocka_unit_test(chance_weight_lookahead),
        cmocka_unit_test(every_directive_lowers),
        cmocka_unit_test(marker_lowering),
        cmocka_unit_test(global_prelude_and_chunks),
        cmocka_unit_test(properties_and_rows),
        cmocka_unit_test(legacy_syntax),
        cmocka_unit_test(unexpected_characters),
        cmocka_unit_test(map_diagnostics),
        cmocka_unit_test(duplicate_names_across_files),
        cmocka_unit_test(duplicate_names_of_a_packed_file),
        cmocka_unit_test(equal_hashes_are_not_duplicates),
        cmocka_unit_test(many_names_across_files),
        cmocka_unit_test(names_of_a_large_file_in_blocks),
        cmocka_unit_test(directive_diagnostics),
        cmocka_unit_test(all_errors_of_a_file),
        cmocka_unit_test(start_condition_carries_over),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
