/* The .qgc cache: round trips, lookups, damage, staleness, atomic writes
 * and concurrent readers. Map definitions come from a tiny stand-in front
 * end below, so these tests depend on no other module. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "cache/format.h"
#include "cache/depth.h"
#include "cache/reader.h"
#include "cache/zblob.h"
#include "core/buf.h"
#include "core/mapdef.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char des_text[] =
    "# a file comment\n"
    "{{ function helper() return 1 end }}\n"
    "\n"
    "NAME: alpha\n"
    "TAGS: minivault transparent\n"
    "DEPTH: D:2-8, Lair\n"
    "WEIGHT: 5\n"
    "MAP\n"
    "xxx\n"
    "x.x  \n"
    "xxx\n"
    "ENDMAP\n"
    "\n"
    "default-depth: Orc\n"
    "{{ global_after_default = 2 }}\n"
    "NAME: beta\n"
    "TAGS: layout\n"
    "PLACE: Temple\n"
    "ORIENT: encompass\n"
    "MAP\n"
    "  @@\n"
    " @..@\n"
    "ENDMAP\n"
    "NAME: gamma\n"
    "DEPTH: D:5, !D:6, Depths:3-\n"
    "CHANCE: 1%\n"
    "DESC: a \"quoted\" desc\n"
    "QUEST: 12\n"
    "MAP\n"
    "ab\\\xff\n"
    "ENDMAP";

/* Reads des_text's maps: NAME starts a map, KEY: value lines become
 * properties (lower-cased key), rows sit between MAP and ENDMAP. */
static size_t fake_parse(const char *path, const char *text, qg_mapdef **defs, size_t max)
{
    size_t n = 0;
    int line = 0, in_map = 0;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        line++;
        qg_mapdef *def = n ? defs[n - 1] : NULL;
        if (len > 6 && memcmp(p, "NAME: ", 6) == 0 && n < max) {
            char *name = qg_strndup(p + 6, len - 6);
            defs[n] = qg_mapdef_new(QG_FORMAT_DES, name);
            qg_mapdef_set_file(defs[n], path, line);
            qg_mapdef_set_kind(defs[n], QG_KIND_VAULT);
            free(name);
            n++;
        } else if (len == 3 && memcmp(p, "MAP", 3) == 0) {
            in_map = 1;
        } else if (len == 6 && memcmp(p, "ENDMAP", 6) == 0) {
            in_map = 0;
        } else if (in_map && def) {
            qg_mapdef_add_row(def, p, len, line);
        } else if (def && len > 2 && p[0] >= 'A' && p[0] <= 'Z' && memchr(p, ':', len)) {
            const char *colon = memchr(p, ':', len);
            char key[32] = "";
            size_t klen = (size_t)(colon - p);
            for (size_t i = 0; i < klen && i < 31; i++)
                key[i] = (char)(p[i] - 'A' + 'a');
            key[klen < 31 ? klen : 31] = '\0';
            char *value = qg_strndup(colon + 2, len - klen - 2);
            qg_mapdef_add_property(def, key, value);
            free(value);
        }
        p = nl ? nl + 1 : p + len;
    }
    return n;
}

static void free_defs(qg_mapdef **defs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        qg_mapdef_free(defs[i]);
}

static qg_status write_cache(const char *cache_path, const char *src_path,
                             const char *text, size_t len, int64_t mtime,
                             qg_diags *diags)
{
    qg_mapdef *defs[8];
    size_t n = fake_parse(src_path, text, defs, 8);
    qg_cache_writer *w = qg_cache_writer_new();
    qg_cache_source src = {src_path, QG_FORMAT_DES, text, len, mtime, 0};
    qg_status st = qg_cache_writer_add_file(w, &src, (const qg_mapdef *const *)defs, n, diags);
    if (st == QG_OK)
        st = qg_cache_writer_write(w, cache_path, NULL, diags);
    qg_cache_writer_free(w);
    free_defs(defs, n);
    if (st != QG_OK)
        qg_diags_print(diags, stderr);
    return st;
}

static const char *small_cache(void)
{
    const char *path = test_temp_path("small.qgc");
    qg_diags *d = qg_diags_new();
    assert_int_equal(write_cache(path, "maps/sample.des", des_text, sizeof des_text - 1, 0, d), QG_OK);
    qg_diags_free(d);
    return path;
}

static void check_same_def(const qg_mapdef *a, const qg_mapdef *b)
{
    assert_string_equal(qg_mapdef_name(a), qg_mapdef_name(b));
    assert_string_equal(qg_mapdef_file(a), qg_mapdef_file(b));
    assert_int_equal(qg_mapdef_line(a), qg_mapdef_line(b));
    assert_int_equal(qg_mapdef_kind(a), qg_mapdef_kind(b));
    assert_int_equal(qg_mapdef_format(a), qg_mapdef_format(b));
    assert_int_equal(qg_mapdef_row_count(a), qg_mapdef_row_count(b));
    for (size_t i = 0; i < qg_mapdef_row_count(a); i++) {
        size_t la, lb;
        int na, nb;
        const char *ra = qg_mapdef_row(a, i, &la, &na), *rb = qg_mapdef_row(b, i, &lb, &nb);
        assert_int_equal(la, lb);
        assert_int_equal(na, nb);
        assert_memory_equal(ra, rb, la);
    }
    assert_int_equal(qg_mapdef_property_count(a), qg_mapdef_property_count(b));
    for (size_t i = 0; i < qg_mapdef_property_count(a); i++) {
        const char *va, *vb;
        assert_string_equal(qg_mapdef_property(a, i, &va), qg_mapdef_property(b, i, &vb));
        assert_string_equal(va, vb);
    }
}

static void round_trip_definitions(void **state)
{
    (void)state;
    const char *path = small_cache();
    qg_diags *d = qg_diags_new();
    qg_cache *c;
    assert_int_equal(qg_cache_open(path, NULL, &c, d), QG_OK);
    assert_int_equal(qg_cache_verify(c, d), QG_OK);
    qg_mapdef *defs[8];
    size_t n = fake_parse("maps/sample.des", des_text, defs, 8);
    assert_int_equal(qg_cache_map_count(c), n);
    for (size_t i = 0; i < n; i++) {
        size_t at = qg_cache_find(c, qg_mapdef_name(defs[i]));
        assert_int_not_equal(at, QG_CACHE_NONE);
        qg_mapdef *back;
        assert_int_equal(qg_cache_load_map(c, at, &back, d), QG_OK);
        check_same_def(defs[i], back);
        qg_mapdef_free(back);
    }
    free_defs(defs, n);
    qg_cache_close(c);
    qg_diags_free(d);
}

static void index_fields(void **state)
{
    (void)state;
    const char *path = small_cache();
    qg_diags *d = qg_diags_new();
    qg_cache *c;
    assert_int_equal(qg_cache_open(path, NULL, &c, d), QG_OK);
    const qg_cache_entry *a = qg_cache_entry_at(c, qg_cache_find(c, "alpha"));
    assert_string_equal(a->tags, "minivault transparent");
    assert_string_equal(a->depth, "D:2-8, Lair");
    assert_string_equal(a->weight, "5");
    assert_string_equal(a->place, "");
    assert_int_equal(a->quest, -1);
    assert_int_equal(a->line, 4);
    assert_int_equal(a->kind, QG_KIND_VAULT);
    assert_int_equal(a->format, QG_FORMAT_DES);
    const qg_cache_entry *b = qg_cache_entry_at(c, qg_cache_find(c, "beta"));
    assert_string_equal(b->place, "Temple");
    assert_string_equal(b->orient, "encompass");
    const qg_cache_entry *g = qg_cache_entry_at(c, qg_cache_find(c, "gamma"));
    assert_string_equal(g->chance, "1%");
    assert_string_equal(g->desc, "a \"quoted\" desc");
    assert_int_equal(g->quest, 12);
    assert_int_equal(qg_cache_file_count(c), 1);
    const qg_cache_file *f = qg_cache_file_at(c, g->file);
    assert_string_equal(f->path, "maps/sample.des");
    assert_int_equal(f->size, sizeof des_text - 1);
    assert_int_equal(f->hash, qg_cache_hash(des_text, sizeof des_text - 1));
    assert_int_equal(f->map_count, 3);
    qg_cache_info info;
    qg_cache_get_info(c, &info);
    assert_int_equal(info.format_version, QG_CACHE_FORMAT_VERSION);
    assert_int_equal(info.questgrid_version, QG_VERSION_NUMBER);
    assert_int_equal(info.lua_version, 504);
    assert_int_equal(info.map_count, 3);
    assert_true(info.mapped);
    qg_cache_close(c);
    qg_diags_free(d);
}

static void lookups(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_cache *c;
    assert_int_equal(qg_cache_open(small_cache(), NULL, &c, d), QG_OK);
    assert_int_equal(qg_cache_find(c, "delta"), QG_CACHE_NONE);
    assert_string_equal(qg_cache_entry_at(c, qg_cache_find_quest(c, 12))->name, "gamma");
    assert_int_equal(qg_cache_find_quest(c, 13), QG_CACHE_NONE);
    struct { qg_cache_query q; const char *first; } cases[] = {
        {{"transparent", NULL, NULL, 0}, "alpha"},
        {{"minivault transparent", NULL, NULL, 0}, "alpha"},
        {{"minivault layout", NULL, NULL, 0}, NULL},
        {{NULL, "D:5", NULL, 0}, "alpha"},
        {{NULL, "D:9", NULL, 0}, NULL},
        {{NULL, "d:6", NULL, 0}, "alpha"},
        {{NULL, "Lair:3", NULL, 0}, "alpha"},
        {{NULL, "Depths:4", NULL, 0}, "gamma"},
        {{NULL, "Depths:2", NULL, 0}, NULL},
        {{NULL, NULL, "Temple", 0}, "beta"},
        {{"layout", NULL, "Temple", QG_KIND_VAULT}, "beta"},
        {{NULL, NULL, NULL, QG_KIND_QUEST}, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t at = qg_cache_next(c, &cases[i].q, 0);
        if (!cases[i].first)
            assert_int_equal(at, QG_CACHE_NONE);
        else
            assert_string_equal(qg_cache_entry_at(c, at)->name, cases[i].first);
    }
    qg_cache_query all = {NULL, "D:5", NULL, 0};
    size_t hits = 0;
    for (size_t i = qg_cache_next(c, &all, 0); i != QG_CACHE_NONE; i = qg_cache_next(c, &all, i + 1))
        hits++;
    assert_int_equal(hits, 2);
    qg_cache_close(c);
    qg_diags_free(d);
}

static void depth_ranges(void **state)
{
    (void)state;
    struct { const char *ranges, *place; int usable; } cases[] = {
        {"D:2-8, Lair", "D:8", 1}, {"D:2-8, Lair", "D:9", 0}, {"D:2-8, Lair", "Lair:4", 1},
        {"D:2-", "D:27", 1}, {"D:2-$", "D:$", 1}, {"Zot:$", "Zot:5", 0}, {"Zot:$", "Zot:$", 1},
        {"*, !Abyss", "Abyss:2", 0}, {"*", "Elf:1", 1}, {"3-7", "5", 1}, {"3-7", "D:5", 0},
        {"D, !D:1", "D:1", 0}, {"D, !D:1", "D:2", 1}, {"Crypt:1-3", "Crypt", 1},
        {"", "D:1", 0}, {"D:x", "D:1", 0}, {"D:1", "not a place!", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (qgc_depth_matches(cases[i].ranges, cases[i].place) != cases[i].usable)
            fail_msg("'%s' in '%s' should be %d", cases[i].place, cases[i].ranges,
                     cases[i].usable);
}

static void source_text_back_out(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_cache *c;
    assert_int_equal(qg_cache_open(small_cache(), NULL, &c, d), QG_OK);
    char *text;
    size_t len;
    int first;
    assert_int_equal(qg_cache_map_source(c, qg_cache_find(c, "alpha"), &text, &len, &first, d), QG_OK);
    assert_int_equal(first, 4);
    const char *want = strstr(des_text, "NAME: alpha");
    size_t want_len = (size_t)(strstr(des_text, "default-depth") - want);
    assert_int_equal(len, want_len);
    assert_memory_equal(text, want, len);
    free(text);
    /* the blob itself leaves the name out (the index has it) */
    const qg_cache_entry *e = qg_cache_entry_at(c, qg_cache_find(c, "alpha"));
    qgc_blob_ref ref = {e->blob_offset, e->blob_size, e->raw_size, e->crc32};
    unsigned char *raw;
    assert_int_equal(qgc_read_blob(c, &ref, NULL, "alpha", &raw, d), QG_OK);
    assert_memory_equal(raw, "NAME: \nTAGS:", 12);
    free(raw);
    assert_int_equal(qg_cache_map_source(c, qg_cache_find(c, "gamma"), &text, &len, &first, d), QG_OK);
    assert_string_equal(text, strstr(des_text, "NAME: gamma"));
    free(text);
    /* The file text keeps the context and this map, blanks the others. */
    assert_int_equal(qg_cache_map_file_text(c, qg_cache_find(c, "beta"), &text, &len, d), QG_OK);
    assert_non_null(strstr(text, "{{ function helper() return 1 end }}\n"));
    assert_non_null(strstr(text, "\n\n\n\n\n\n\n\n\n\ndefault-depth: Orc\n{{ global_after_default = 2 }}\nNAME: beta\n"));
    assert_null(strstr(text, "alpha"));
    assert_null(strstr(text, "gamma"));
    int lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    assert_int_equal(lines, 30);
    assert_string_equal(strstr(text, "NAME: beta"), "NAME: beta\nTAGS: layout\nPLACE: Temple\n"
                        "ORIENT: encompass\nMAP\n  @@\n @..@\nENDMAP\n\n\n\n\n\n\n\n");
    free(text);
    qg_cache_close(c);
    qg_diags_free(d);
}

/* Rows that are lines of the slice from some column on (F:/D: "D:" rows)
 * and rows that are not lines of the slice at all both come back exactly. */
static void row_shapes(void **state)
{
    (void)state;
    static const char text[] = "Q:7:N:Test\nD:#.#\nD:.@.  \nD:###\n";
    qg_mapdef *fd = qg_mapdef_new(QG_FORMAT_FD, "q7");
    qg_mapdef_set_file(fd, "q7.txt", 1);
    qg_mapdef_set_kind(fd, QG_KIND_QUEST);
    qg_mapdef_add_row(fd, "#.#", 3, 2);
    qg_mapdef_add_row(fd, ".@.", 3, 3);
    qg_mapdef_add_row(fd, "###", 3, 4);
    qg_mapdef_add_property(fd, "quest", "7");
    qg_mapdef_add_property(fd, "width", "3");
    qg_mapdef_add_property(fd, "height", "4");
    qg_mapdef *odd = qg_mapdef_new(QG_FORMAT_FD, "odd");
    qg_mapdef_set_file(odd, "odd.txt", 1);
    qg_mapdef_add_row(odd, "not in the text", 15, 9);
    qg_mapdef_add_row(odd, "#.#", 3, 2);
    qg_mapdef_add_row(odd, "", 0, 0);
    qg_mapdef_add_property(odd, "width", "15");
    qg_mapdef_add_property(odd, "height", "3");
    qg_diags *d = qg_diags_new();
    qg_cache_writer *w = qg_cache_writer_new();
    qg_cache_source a = {"q7.txt", QG_FORMAT_FD, text, sizeof text - 1, 0, 0};
    qg_cache_source b = {"odd.txt", QG_FORMAT_FD, text, sizeof text - 1, 0, 0};
    const qg_mapdef *one[1] = {fd}, *two[1] = {odd};
    assert_int_equal(qg_cache_writer_add_file(w, &a, one, 1, d), QG_OK);
    assert_int_equal(qg_cache_writer_add_file(w, &b, two, 1, d), QG_OK);
    const char *path = test_temp_path("rows.qgc");
    assert_int_equal(qg_cache_writer_write(w, path, NULL, d), QG_OK);
    qg_cache_writer_free(w);
    qg_cache *c;
    assert_int_equal(qg_cache_open(path, NULL, &c, d), QG_OK);
    const qg_mapdef *want[2] = {fd, odd};
    for (int i = 0; i < 2; i++) {
        qg_mapdef *back;
        assert_int_equal(qg_cache_load_map(c, qg_cache_find(c, qg_mapdef_name(want[i])), &back, d),
                         QG_OK);
        check_same_def(want[i], back);
        qg_mapdef_free(back);
    }
    assert_int_equal(qg_cache_entry_at(c, qg_cache_find(c, "q7"))->quest, 7);
    assert_int_equal(qg_cache_find_quest(c, 7), qg_cache_find(c, "q7"));
    qg_cache_close(c);
    qg_mapdef_free(fd);
    qg_mapdef_free(odd);
    qg_diags_free(d);
}

/* The full check; a blob the writer's CRC check refuses must fail it too,
 * with the same report first. */
static qg_status verify_both_ways(const qg_cache *c, qg_diags *d)
{
    qg_diags *crcs = qg_diags_new();
    size_t before = qg_diags_count(d);
    qg_status st = qg_cache_verify(c, d);
    if (qgc_verify_crcs(c, crcs) != QG_OK) {
        assert_int_equal(st, QG_ERR_CORRUPT);
        assert_true(qg_diags_count(d) > before);
        assert_string_equal(qg_diags_get(crcs, 0)->message, qg_diags_get(d, before)->message);
    }
    qg_diags_free(crcs);
    return st;
}

/* Opening, verifying and loading every map of a damaged file: each step
 * must fail cleanly or succeed; returns 1 when the damage was caught. */
static int damage_caught(const char *path, int no_mmap)
{
    qg_diags *d = qg_diags_new();
    qg_cache *c;
    qg_cache_open_options opt = {.no_mmap = no_mmap};
    qg_status st = qg_cache_open(path, &opt, &c, d);
    int caught = st != QG_OK;
    if (st == QG_OK) {
        caught = verify_both_ways(c, d) != QG_OK;
        for (size_t i = 0; i < qg_cache_map_count(c); i++) {
            qg_mapdef *def;
            char *text;
            size_t len;
            if (qg_cache_load_map(c, i, &def, d) == QG_OK)
                qg_mapdef_free(def);
            if (qg_cache_map_file_text(c, i, &text, &len, d) == QG_OK)
                free(text);
        }
        qg_cache_close(c);
    } else {
        assert_int_equal(st, QG_ERR_CORRUPT);
        assert_true(test_diags_contain(d, QG_ERROR, "corrupt cache"));
    }
    if (caught)
        assert_true(qg_diags_count_severity(d, QG_ERROR) > 0);
    qg_diags_free(d);
    return caught;
}

static void truncation_at_every_offset(void **state)
{
    (void)state;
    size_t len;
    unsigned char *data = test_read_file(small_cache(), &len);
    const char *cut = test_temp_path("cut.qgc");
    for (size_t n = 0; n < len; n++) {
        test_write_file(cut, data, n);
        assert_true(damage_caught(cut, (int)(n & 1)));
    }
    free(data);
}

static void bit_flips_everywhere(void **state)
{
    (void)state;
    size_t len;
    unsigned char *data = test_read_file(small_cache(), &len);
    const char *bad = test_temp_path("flip.qgc");
    for (size_t i = 0; i < len; i++) {
        data[i] ^= (unsigned char)(1u << (i % 8));
        test_write_file(bad, data, len);
        assert_true(damage_caught(bad, 0));
        data[i] ^= (unsigned char)(1u << (i % 8));
    }
    free(data);
}

static void rewrite_header(unsigned char *data, void (*change)(qgc_header *))
{
    qgc_header h;
    h.format_version = qgc_load_u32(data + 8);
    h.questgrid_version = qgc_load_u32(data + 12);
    h.lua_version = qgc_load_u32(data + 16);
    h.header_size = qgc_load_u32(data + 20);
    h.file_count = qgc_load_u32(data + 24);
    h.map_count = qgc_load_u32(data + 28);
    h.file_size = qgc_load_u64(data + 32);
    h.blobs_offset = qgc_load_u64(data + 40);
    h.index_size = qgc_load_u32(data + 48);
    h.index_raw_size = qgc_load_u32(data + 52);
    h.index_crc = qgc_load_u32(data + 56);
    change(&h);
    qgc_header_encode(&h, data);
}

static void set_version(qgc_header *h) { h->format_version = 99; }
static void set_huge_index(qgc_header *h) { h->index_raw_size = 0xfffffff0u; }
static void set_huge_size(qgc_header *h) { h->file_size = 1ull << 62; }
static void set_more_maps(qgc_header *h) { h->map_count = 0x7fffffff; }

static void header_damage_is_named(void **state)
{
    (void)state;
    struct { void (*change)(qgc_header *); const char *message; } cases[] = {
        {set_version, "unsupported cache format version"},
        {set_huge_index, "absurd index size"},
        {set_huge_size, "file size differs"},
        {set_more_maps, "map count differs"},
    };
    size_t len;
    unsigned char *orig = test_read_file(small_cache(), &len);
    unsigned char *data = malloc(len);
    const char *bad = test_temp_path("header.qgc");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        memcpy(data, orig, len);
        rewrite_header(data, cases[i].change);
        test_write_file(bad, data, len);
        qg_diags *d = qg_diags_new();
        qg_cache *c;
        assert_int_equal(qg_cache_open(bad, NULL, &c, d), QG_ERR_CORRUPT);
        assert_true(test_diags_contain(d, QG_ERROR, cases[i].message));
        qg_diags_free(d);
    }
    memcpy(data, orig, len);
    memcpy(data, "\x89QGX", 4);
    test_write_file(bad, data, len);
    qg_diags *d = qg_diags_new();
    qg_cache *c;
    assert_int_equal(qg_cache_open(bad, NULL, &c, d), QG_ERR_CORRUPT);
    assert_true(test_diags_contain(d, QG_ERROR, "bad magic"));
    qg_diags_free(d);
    free(data);
    free(orig);
}

static void inflate_is_capped(void **state)
{
    (void)state;
    size_t big = 8u << 20;
    char *zeros = calloc(1, big);
    qg_buf z;
    qg_buf_init(&z);
    assert_int_equal(qgc_deflate(zeros, big, NULL, 0, &z), QG_OK);
    assert_true(z.len < 16384);
    unsigned char small[1000];
    assert_false(qgc_inflate(z.data, z.len, NULL, 0, small, sizeof small));
    assert_false(qgc_inflate(z.data, z.len, NULL, 0, zeros, big - 1));
    assert_true(qgc_inflate(z.data, z.len, NULL, 0, zeros, big));
    char *more = malloc(big + 1);
    assert_false(qgc_inflate(z.data, z.len, NULL, 0, more, big + 1));
    assert_false(qgc_inflate(z.data, z.len - 1, NULL, 0, zeros, big));
    free(more);
    qg_buf_free(&z);
    free(zeros);
}

/* The stream of pieces as one call and as many odd-sized ones. */
static void stream_in_bits(const char *text, size_t len, size_t bit, qg_buf *out)
{
    qgc_piece_stream z;
    qgc_piece_stream_init(&z, out);
    qg_buf b;
    qg_buf_init(&b);
    for (size_t at = 0; at < len; at += bit) {
        assert_true(qg_buf_append(&b, text + at, len - at < bit ? len - at : bit));
        assert_true(qgc_piece_stream_take(&z, &b));
        assert_int_equal(b.len, 0);
        /* a piece, its window and the bit last handed over */
        if (bit < 4096)
            assert_true(z.raw.cap <= 256u * 1024u);
    }
    assert_int_equal(z.total, len);
    assert_int_equal(qgc_piece_stream_finish(&z), QG_OK);
    qg_buf_free(&b);
}

/* A stream compressed in pieces is one stream: it inflates whole, and how
 * the data was handed over does not change a byte of it; the streaming
 * state holds a piece and its window, not the data. */
static void pieces_make_one_stream(void **state)
{
    (void)state;
    size_t sizes[] = {700u * 1024u + 123u, 256u * 1024u, 0};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t len = sizes[k];
        char *text = malloc(len + 1);
        uint32_t x = 12345;
        for (size_t i = 0; i < len; i++) {
            x = x * 1103515245u + 12345u;
            text[i] = (char)("abcdefgh\n.#"[(x >> 16) % 12]);
        }
        qg_buf whole, bits;
        qg_buf_init(&whole);
        qg_buf_init(&bits);
        stream_in_bits(text, len, len ? len : 1, &whole);
        stream_in_bits(text, len, 1000, &bits);
        assert_int_equal(whole.len, bits.len);
        assert_memory_equal(whole.data, bits.data, whole.len);
        char *back = malloc(len + 1);
        assert_true(qgc_inflate(whole.data, whole.len, NULL, 0, back, len));
        assert_memory_equal(back, text, len);
        if (len)
            assert_false(qgc_inflate(whole.data, whole.len - 1, NULL, 0, back, len));
        qg_buf_free(&whole);
        qg_buf_free(&bits);
        free(back);
        free(text);
    }
}

/* text compressed in pieces, with prior's pieces where they fit. */
static void stream_with_prior(const char *text, size_t len, const qgc_piece_prior *prior,
                              qg_buf *out)
{
    qgc_piece_stream z;
    qgc_piece_stream_init(&z, out);
    qgc_piece_stream_use_prior(&z, prior);
    qg_buf b;
    qg_buf_init(&b);
    assert_true(qg_buf_append(&b, text, len));
    assert_true(qgc_piece_stream_take(&z, &b));
    assert_int_equal(qgc_piece_stream_finish(&z), QG_OK);
    qg_buf_free(&b);
}

/* A stream made with the pieces of an earlier one is the stream made
 * without them, whatever changed: a byte in a piece (that piece and the
 * next, whose window holds it, are compressed again; the others are
 * copied), the length (every piece after the change), the end. */
static void pieces_of_a_prior_stream(void **state)
{
    (void)state;
    size_t len = 5u * QGC_PIECE + QGC_PIECE / 2 + 123u;
    char *was = malloc(len + 2), *now = malloc(len + 2);
    uint32_t x = 777;
    for (size_t i = 0; i < len; i++) {
        x = x * 1103515245u + 12345u;
        was[i] = (char)("abcdefgh\n.#"[(x >> 16) % 12]);
    }
    qg_buf z_was;
    qg_buf_init(&z_was);
    stream_in_bits(was, len, len, &z_was);
    qgc_piece_prior prior;
    assert_true(qgc_piece_prior_init(&prior, (const unsigned char *)was, len,
                                     (const unsigned char *)z_was.data, z_was.len));
    assert_int_equal(prior.count, 6);
    struct { size_t at; int insert; } changes[] = {
        {10, 0}, {QGC_PIECE + 5, 0}, {len - 1, 0}, {QGC_PIECE * 2 + 9, 1}, {len, 1}};
    for (size_t k = 0; k < sizeof changes / sizeof *changes; k++) {
        size_t at = changes[k].at, n = len + (size_t)changes[k].insert;
        memcpy(now, was, at);
        now[at] = 'Z';
        memcpy(now + at + changes[k].insert, was + at + !changes[k].insert,
               len - at - !changes[k].insert);
        qg_buf cold, warm;
        qg_buf_init(&cold);
        qg_buf_init(&warm);
        stream_in_bits(now, n, n, &cold);
        stream_with_prior(now, n, &prior, &warm);
        assert_int_equal(cold.len, warm.len);
        assert_memory_equal(cold.data, warm.data, cold.len);
        qg_buf_free(&cold);
        qg_buf_free(&warm);
    }
    /* the pieces left as they were are the prior's bytes, not compressed
     * again: one marked in the prior's stream comes out marked (where the
     * first piece, compressed again, moved it) */
    size_t mark = prior.starts[4] + 3;
    z_was.data[mark] ^= 0x55;
    memcpy(now, was, len);
    now[10] = 'Z';
    qg_buf warm;
    qg_buf_init(&warm);
    stream_with_prior(now, len, &prior, &warm);
    size_t moved = mark + warm.len - z_was.len;
    assert_true(warm.len > moved);
    assert_int_equal((unsigned char)warm.data[moved], (unsigned char)z_was.data[mark]);
    qg_buf_free(&warm);
    qgc_piece_prior_free(&prior);
    qg_buf_free(&z_was);
    free(was);
    free(now);
}

/* A cache made by hand: one file, one map whose blob inflates to 8 MiB of
 * zeros while the index says raw_size. */
static size_t bomb_cache(unsigned char **image, uint32_t raw_size)
{
    size_t big = 8u << 20;
    char *zeros = calloc(1, big);
    qg_buf ctx, blob, idx, zidx, out;
    qg_buf_init(&ctx);
    qg_buf_init(&blob);
    qg_buf_init(&idx);
    qg_buf_init(&zidx);
    qg_buf_init(&out);
    assert_int_equal(qgc_deflate("", 0, NULL, 0, &ctx), QG_OK);
    assert_int_equal(qgc_deflate(zeros, big, NULL, 0, &blob), QG_OK);
    free(zeros);
    qgc_put_varint(&idx, 1);                 /* one file */
    qgc_put_cstr(&idx, "bomb.des");
    qgc_put_varint(&idx, QG_FORMAT_DES);
    qgc_put_varint(&idx, 0);
    qgc_put_svarint(&idx, 0);
    qgc_put_varint(&idx, 0);
    qgc_put_u64(&idx, 0);
    qgc_put_varint(&idx, 1);
    qgc_put_varint(&idx, ctx.len);
    qgc_put_varint(&idx, 0);
    qgc_put_u32(&idx, qgc_crc32(ctx.data, ctx.len));
    qgc_put_varint(&idx, 1);                 /* one map */
    qgc_put_varint(&idx, 0);
    qgc_put_str(&idx, "bomb");
    qgc_put_svarint(&idx, -1);
    qgc_put_varint(&idx, QG_KIND_VAULT);
    qgc_put_varint(&idx, QG_FORMAT_DES);
    qgc_put_varint(&idx, 0);
    qgc_put_varint(&idx, 1);
    for (int f = 0; f < 7; f++)
        qgc_put_cstr(&idx, "");
    qg_buf meta;
    qg_buf_init(&meta);
    qgc_put_svarint(&meta, 0);               /* the slice starts at line 1 */
    qgc_put_varint(&meta, 0);                /* with the name left in it */
    qgc_put_varint(&meta, QGC_ROWS_PLAIN);   /* no rows */
    qgc_put_varint(&meta, 0);
    qgc_put_svarint(&meta, 0);
    qgc_put_varint(&meta, 0);
    qgc_put_varint(&meta, 0);                /* no properties */
    qgc_put_bytes(&idx, meta.data, meta.len);
    qg_buf_free(&meta);
    qgc_put_varint(&idx, blob.len);
    qgc_put_varint(&idx, raw_size);
    qgc_put_u32(&idx, qgc_crc32(blob.data, blob.len));
    qgc_put_bytes(&idx, "", 0);              /* no dictionary */
    assert_int_equal(qgc_deflate(idx.data, idx.len, NULL, 0, &zidx), QG_OK);
    /* a version 2 index (without what a compile reuses files by), which
     * a reader still reads */
    qgc_header h = {2, QG_VERSION_NUMBER, 504, QGC_HEADER_SIZE, 1, 1,
                    0, QGC_HEADER_SIZE + zidx.len, (uint32_t)zidx.len, (uint32_t)idx.len,
                    qgc_crc32(zidx.data, zidx.len), 0};
    h.file_size = h.blobs_offset + ctx.len + blob.len;
    unsigned char head[QGC_HEADER_SIZE];
    qgc_header_encode(&h, head);
    qg_buf_append(&out, head, sizeof head);
    qg_buf_append(&out, zidx.data, zidx.len);
    qg_buf_append(&out, ctx.data, ctx.len);
    qg_buf_append(&out, blob.data, blob.len);
    qg_buf_free(&ctx);
    qg_buf_free(&blob);
    qg_buf_free(&idx);
    qg_buf_free(&zidx);
    size_t len = out.len;
    *image = (unsigned char *)qg_buf_take(&out);
    return len;
}

/* A blob that inflates past its recorded size is refused after at most
 * that many bytes; a recorded size past the limit is refused at open. */
static void bomb_blobs(void **state)
{
    (void)state;
    unsigned char *image;
    size_t len = bomb_cache(&image, 100);
    qg_diags *d = qg_diags_new();
    qg_cache *c;
    assert_int_equal(qg_cache_open_memory(image, len, "bomb.qgc", &c, d), QG_OK);
    free(image);
    qg_mapdef *def;
    assert_int_equal(qg_cache_load_map(c, 0, &def, d), QG_ERR_CORRUPT);
    assert_true(test_diags_contain(d, QG_ERROR, "does not inflate to its recorded size"));
    assert_int_equal(qg_cache_verify(c, d), QG_ERR_CORRUPT);
    qg_cache_close(c);
    len = bomb_cache(&image, QGC_MAX_BLOB_RAW + 1);
    assert_int_equal(qg_cache_open_memory(image, len, "bomb.qgc", &c, d), QG_ERR_CORRUPT);
    free(image);
    len = bomb_cache(&image, 8u << 20);   /* told the truth: it loads */
    assert_int_equal(qg_cache_open_memory(image, len, "bomb.qgc", &c, d), QG_OK);
    free(image);
    assert_int_equal(qg_cache_load_map(c, 0, &def, d), QG_OK);
    qg_mapdef_free(def);
    char *text;
    assert_int_equal(qg_cache_map_source(c, 0, &text, &len, NULL, d), QG_OK);
    assert_int_equal(len, 8u << 20);
    free(text);
    qg_cache_close(c);
    qg_diags_free(d);
}

static void set_mtime(const char *path, time_t sec)
{
    struct timespec times[2] = {{sec, 0}, {sec, 0}};
    assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
}

static qg_source_state state_of(const char *cache_path, unsigned flags)
{
    qg_diags *d = qg_diags_new();
    qg_cache *c;
    assert_int_equal(qg_cache_open(cache_path, NULL, &c, d), QG_OK);
    qg_source_state states[1];
    size_t changed;
    assert_int_equal(qg_cache_check_sources(c, NULL, flags, states, &changed, d), QG_OK);
    assert_int_equal(changed, states[0] == QG_SOURCE_CHANGED);
    qg_cache_close(c);
    qg_diags_free(d);
    return states[0];
}

static void staleness(void **state)
{
    (void)state;
    const char *src = test_temp_path("stale.des");
    test_write_file(src, des_text, sizeof des_text - 1);
    set_mtime(src, 1000000000);
    const char *cache = test_temp_path("stale.qgc");
    qg_diags *d = qg_diags_new();
    assert_int_equal(write_cache(cache, src, des_text, sizeof des_text - 1, 1000000000, d), QG_OK);
    assert_int_equal(state_of(cache, 0), QG_SOURCE_FRESH);
    set_mtime(src, 1000000500);           /* touched: the hash says fresh */
    assert_int_equal(state_of(cache, 0), QG_SOURCE_FRESH);
    char *changed = malloc(sizeof des_text);
    memcpy(changed, des_text, sizeof des_text);
    changed[strstr(changed, "D:2-8") - changed + 2] = '3';
    test_write_file(src, changed, sizeof des_text - 1);
    set_mtime(src, 1000000000);           /* same size and mtime: shortcut */
    assert_int_equal(state_of(cache, 0), QG_SOURCE_FRESH);
    assert_int_equal(state_of(cache, QG_CACHE_CHECK_HASH), QG_SOURCE_CHANGED);
    set_mtime(src, 1000000001);
    assert_int_equal(state_of(cache, 0), QG_SOURCE_CHANGED);
    test_write_file(src, "x", 1);
    assert_int_equal(state_of(cache, 0), QG_SOURCE_CHANGED);
    unlink(src);
    assert_int_equal(state_of(cache, 0), QG_SOURCE_MISSING);
    free(changed);
    qg_diags_free(d);
}

static size_t temp_files_in(const char *dir, const char *prefix)
{
    DIR *dp = opendir(dir);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(dp)))
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0 && strstr(e->d_name, ".tmp");
    closedir(dp);
    return n;
}

static void failed_write_keeps_previous(void **state)
{
    (void)state;
    const char *path = test_temp_path("keep.qgc");
    qg_diags *d = qg_diags_new();
    assert_int_equal(write_cache(path, "one.des", des_text, sizeof des_text - 1, 0, d), QG_OK);
    size_t len;
    unsigned char *before = test_read_file(path, &len);
    /* The same maps twice: duplicate names fail the write. */
    qg_mapdef *defs[8];
    size_t n = fake_parse("two.des", des_text, defs, 8);
    qg_cache_writer *w = qg_cache_writer_new();
    qg_cache_source src = {"two.des", QG_FORMAT_DES, des_text, sizeof des_text - 1, 0, 0};
    assert_int_equal(qg_cache_writer_add_file(w, &src, (const qg_mapdef *const *)defs, n, d), QG_OK);
    assert_int_equal(qg_cache_writer_add_file(w, &src, (const qg_mapdef *const *)defs, n, d), QG_OK);
    assert_int_equal(qg_cache_writer_write(w, path, NULL, d), QG_ERR_INVALID);
    assert_true(test_diags_contain(d, QG_ERROR, "map 'alpha' is already defined at two.des:4"));
    qg_cache_writer_free(w);
    /* A cancelled write leaves nothing behind either. */
    w = qg_cache_writer_new();
    assert_int_equal(qg_cache_writer_add_file(w, &src, (const qg_mapdef *const *)defs, n, d), QG_OK);
    volatile sig_atomic_t cancel = 1;
    qg_cache_write_options opt = {.jobs = 2, .cancel = &cancel};
    assert_int_not_equal(qg_cache_writer_write(w, path, &opt, d), QG_OK);
    qg_cache_writer_free(w);
    /* An unwritable destination fails without touching anything. */
    w = qg_cache_writer_new();
    assert_int_equal(qg_cache_writer_add_file(w, &src, (const qg_mapdef *const *)defs, n, d), QG_OK);
    assert_int_equal(qg_cache_writer_write(w, "/nonexistent-dir/x.qgc", NULL, d), QG_ERR_IO);
    qg_cache_writer_free(w);
    free_defs(defs, n);
    size_t after_len;
    unsigned char *after = test_read_file(path, &after_len);
    assert_int_equal(len, after_len);
    assert_memory_equal(before, after, len);
    assert_int_equal(temp_files_in(test_temp_dir(), "keep.qgc"), 0);
    free(before);
    free(after);
    qg_diags_free(d);
}

typedef struct reader_arg {
    const qg_cache *cache;
    int failures;
} reader_arg;

/* Enough maps for the writer's records to fill several sorted runs (a
 * run is 256 KiB), given in reverse name order. */
static char *many_maps_text(size_t count)
{
    qg_buf b;
    qg_buf_init(&b);
    for (size_t i = count; i-- > 0;)
        qg_buf_printf(&b, "NAME: m%05zu\nTAGS: t%zu\nMAP\nx.x\nENDMAP\n", i, i % 7);
    assert_false(b.failed);
    return b.data;
}

static void add_text(qg_cache_writer *w, const char *path, const char *text, qg_diags *d)
{
    size_t max = strlen(text) / 20 + 1, n;
    qg_mapdef **defs = malloc(max * sizeof *defs);
    n = fake_parse(path, text, defs, max);
    qg_cache_source src = {path, QG_FORMAT_DES, text, strlen(text), 0, 0};
    assert_int_equal(qg_cache_writer_add_file(w, &src, (const qg_mapdef *const *)defs, n, d),
                     QG_OK);
    free_defs(defs, n);
    free(defs);
}

static void many_maps_across_runs(void **state)
{
    (void)state;
    enum { COUNT = 20000 };
    const char *path = test_temp_path("many.qgc");
    char *text = many_maps_text(COUNT);
    qg_diags *d = qg_diags_new();
    qg_cache_writer *w = qg_cache_writer_new();
    add_text(w, "many.des", text, d);
    qg_cache_write_options opt = {.jobs = 3};
    assert_int_equal(qg_cache_writer_write(w, path, &opt, d), QG_OK);
    qg_cache_writer_free(w);
    qg_cache *c = NULL;
    assert_int_equal(qg_cache_open(path, NULL, &c, d), QG_OK);
    assert_int_equal(c->header.map_count, COUNT);
    for (size_t i = 0; i < COUNT; i++) {
        char want[16];
        snprintf(want, sizeof want, "m%05zu", i);
        assert_string_equal(c->maps[i].name, want);
    }
    assert_int_equal(qg_cache_verify(c, d), QG_OK);
    qg_cache_close(c);
    /* A name given again in a later file is reported there, against the
     * first definition, though the two sit in different runs. */
    w = qg_cache_writer_new();
    add_text(w, "many.des", text, d);
    add_text(w, "late.des", "NAME: m19999\nMAP\nx\nENDMAP\n", d);
    assert_int_equal(qg_cache_writer_write(w, path, NULL, d), QG_ERR_INVALID);
    assert_true(test_diags_contain(d, QG_ERROR, "map 'm19999' is already defined at many.des:1"));
    qg_cache_writer_free(w);
    free(text);
    qg_diags_free(d);
}

static void *read_everything(void *p)
{
    reader_arg *arg = p;
    for (int round = 0; round < 200; round++)
        for (size_t i = 0; i < qg_cache_map_count(arg->cache); i++) {
            qg_diags *d = qg_diags_new();
            qg_mapdef *def;
            const qg_cache_entry *e = qg_cache_entry_at(arg->cache, i);
            if (qg_cache_find(arg->cache, e->name) != i ||
                qg_cache_load_map(arg->cache, i, &def, d) != QG_OK)
                arg->failures++;
            else if (strcmp(qg_mapdef_name(def), e->name) != 0)
                arg->failures++;
            else
                qg_mapdef_free(def);
            qg_diags_free(d);
        }
    return NULL;
}

static void concurrent_readers(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_cache *c;
    assert_int_equal(qg_cache_open(small_cache(), NULL, &c, d), QG_OK);
    pthread_t threads[4];
    reader_arg args[4];
    for (int i = 0; i < 4; i++) {
        args[i] = (reader_arg){c, 0};
        assert_int_equal(pthread_create(&threads[i], NULL, read_everything, &args[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        assert_int_equal(args[i].failures, 0);
    }
    qg_cache_close(c);
    qg_diags_free(d);
}

static void read_without_mmap(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    qg_cache *c;
    qg_cache_open_options opt = {.no_mmap = 1};
    assert_int_equal(qg_cache_open(small_cache(), &opt, &c, d), QG_OK);
    qg_cache_info info;
    qg_cache_get_info(c, &info);
    assert_false(info.mapped);
    assert_int_equal(qg_cache_verify(c, d), QG_OK);
    qg_cache_close(c);
    size_t len;
    unsigned char *bytes = test_read_file(small_cache(), &len);
    assert_int_equal(qg_cache_open_memory(bytes, len, "in memory", &c, d), QG_OK);
    free(bytes);
    assert_int_equal(qg_cache_verify(c, d), QG_OK);
    assert_string_equal(qg_cache_entry_at(c, qg_cache_find(c, "beta"))->place, "Temple");
    qg_cache_close(c);
    assert_int_equal(qg_cache_open_memory("\x89QGC", 4, "short", &c, d), QG_ERR_CORRUPT);
    assert_true(test_diags_contain(d, QG_ERROR, "shorter than a cache header"));
    assert_int_equal(qg_cache_open(test_temp_dir(), &opt, &c, d), QG_ERR_IO);
    assert_int_equal(qg_cache_open("/nonexistent.qgc", &opt, &c, d), QG_ERR_NOTFOUND);
    qg_diags_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_definitions),
        cmocka_unit_test(index_fields),
        cmocka_unit_test(lookups),
        cmocka_unit_test(depth_ranges),
        cmocka_unit_test(source_text_back_out),
        cmocka_unit_test(row_shapes),
        cmocka_unit_test(truncation_at_every_offset),
        cmocka_unit_test(bit_flips_everywhere),
        cmocka_unit_test(header_damage_is_named),
        cmocka_unit_test(inflate_is_capped),
        cmocka_unit_test(pieces_make_one_stream),
        cmocka_unit_test(pieces_of_a_prior_stream),
        cmocka_unit_test(bomb_blobs),
        cmocka_unit_test(staleness),
        cmocka_unit_test(failed_write_keeps_previous),
        cmocka_unit_test(many_maps_across_runs),
        cmocka_unit_test(concurrent_readers),
        cmocka_unit_test(read_without_mmap),
    };
    return cmocka_run_group_tests_name("cache", tests, NULL, NULL);
}
