/* Plain directive calls run without compiling them (src/lua/direct.c) must
 * do exactly what Lua does with the same text: every chunk below is run
 * as written and again behind a leading `do end`, which makes Lua compile
 * all of it, and the index, the diagnostics and a resolved level must be
 * the same. */
#include "testutil.h"
#include "lua_harness.h"
#include "core/mapdef.h"

#include <stdio.h>
#include <string.h>

static const char *const chunks[] = {
    "tags(\"arrival\") tags(\"no_rotate\")\norient(\"float\")\n\nweight(2) shuffle(\"ab\")\n"
    "subst(\"a = x\")\nkfeat(\"b = altar_zin\")\n",
    "tags('single') tags(\"a\\\"b\") tags('c\\'d') tags(\"e\\\\f\")\n",
    "tags(\"x\\ny\")\n",
    "weight(-3)\n", "weight(2.5)\n", "weight(99999999999999999999)\n", "weight(007)\n",
    "depth(\"D:1-3\") chance(10) order(3)\n",
    "tags(\"a\");tags(\"b\") ; weight(4);\n",
    "tags ( \"spaced\" , \"args\" )\n",
    "tags(\"a\", 1, 2, 3, 4, 5, 6, 7, 8, 9)\n",
    /* handed to Lua part of the way */
    "tags(\"a\") -- a comment\ntags(\"z\")\n",
    "tags(\"q\")\nlocal x = 3\nweight(x)\n",
    "tags(\"q\")\nif true then weight(4) end\n",
    "tags(\"d\") (\"e\")\n",
    "tags(\"q\") tags \"c\"\n",
    "tags(\"q\") end\n",
    "tags(\"q\")\n\n  nosuch(\"x\")\n",
    "tags(\"q\")\nerror(\"boom\")\n",
    "tags(\"q\")\nerror(\"boom\", 2)\n",
    "tags = function() error(\"mine\", 2) end\ntags(\"a\")\n",
    /* directives that fail are reported as Lua reports them */
    "tags(\"q\")\nsubst(\"x\")\nweight(5)\n",
    "tags(\"q\")\n\nweight(\"abc\")\n",
    "tags(\"q\")\nweight()\n",
    "orient(\"nowhere\")\n",
    "tags(\"q\")\r\nweight(3)\n",
};

typedef struct outcome {
    qg_status status;
    char fields[512];
    qg_diags *diags;
    char glyphs[256];
} outcome;

static void run(const char *code, outcome *out)
{
    qg_diags *setup = qg_diags_new();
    qg_runtime *rt = qg_runtime_new(NULL, setup);
    assert_non_null(rt);
    th_map *m = th_map_new("direct", "map(\"xab.\")\nmap(\"x..x\")", code);
    out->diags = qg_diags_new();
    out->status = th_compile(rt, m, out->diags);
    static const char *const keys[] = {"tags", "depth", "orient", "chance", "weight",
                                       "order", "width", "height"};
    size_t n = 0;
    for (size_t k = 0; out->status == QG_OK && k < sizeof keys / sizeof *keys; k++) {
        const char *v = qg_mapdef_get_property(m->def, keys[k]);
        n += (size_t)snprintf(out->fields + n, sizeof out->fields - n, "%s=%s;", keys[k],
                              v ? v : "-");
    }
    out->fields[n] = '\0';
    out->glyphs[0] = '\0';
    qg_level *level = NULL;
    if (out->status == QG_OK && th_resolve(rt, m, 7, NULL, &level, out->diags) == QG_OK) {
        snprintf(out->glyphs, sizeof out->glyphs, "%s", th_glyphs(level));
        qg_level_free(level);
    }
    th_map_free(m);
    qg_runtime_free(rt);
    qg_diags_free(setup);
}

static void same_outcome(const outcome *a, const outcome *b, const char *code)
{
    if (a->status != b->status || strcmp(a->fields, b->fields) != 0 ||
        strcmp(a->glyphs, b->glyphs) != 0 || qg_diags_count(a->diags) != qg_diags_count(b->diags))
        fail_msg("chunk %s: direct %d [%s] [%s], compiled %d [%s] [%s]", code, a->status,
                 a->fields, a->glyphs, b->status, b->fields, b->glyphs);
    for (size_t i = 0; i < qg_diags_count(a->diags); i++) {
        const qg_diag *x = qg_diags_get(a->diags, i), *y = qg_diags_get(b->diags, i);
        assert_int_equal(x->line, y->line);
        assert_string_equal(x->message, y->message);
    }
}

static void test_direct_calls_match_lua(void **state)
{
    (void)state;
    size_t failures = 0;
    for (size_t i = 0; i < sizeof chunks / sizeof *chunks; i++) {
        char compiled[512];
        snprintf(compiled, sizeof compiled, "do end %s", chunks[i]);
        outcome direct, lua;
        run(chunks[i], &direct);
        run(compiled, &lua);
        same_outcome(&direct, &lua, chunks[i]);
        failures += direct.status != QG_OK;
        qg_diags_free(direct.diags);
        qg_diags_free(lua.diags);
    }
    /* the list holds chunks that fail as well as chunks that run */
    assert_true(failures >= 8 && failures < sizeof chunks / sizeof *chunks);
}

/* The calls run directly keep their effects when Lua takes over. */
static void test_prefix_effects_kept(void **state)
{
    (void)state;
    outcome out;
    run("tags(\"one\") weight(6)\nlocal w = 1\ntags(\"two\")\n", &out);
    assert_int_equal(out.status, QG_OK);
    assert_non_null(strstr(out.fields, "tags=minivault one two;"));
    assert_non_null(strstr(out.fields, "weight=6;"));
    qg_diags_free(out.diags);
}

/* A mapchunk of map("row") lines adds its rows without calling Lua only
 * while map is still the runtime's own: a map's prelude may define its own. */
static void test_mapchunk_rows_honour_a_prelude_map(void **state)
{
    (void)state;
    static const char *const mapchunks[] = {"map(\"xy\")\nmap(\"yx\")\n",
                                            "do end map(\"xy\")\nmap(\"yx\")\n"};
    char kept[2][128];
    for (int k = 0; k < 2; k++) {
        qg_diags *d = qg_diags_new();
        qg_runtime *rt = qg_runtime_new(NULL, d);
        th_map *m = th_map_new("own_map", mapchunks[k], "tags(\"t\")");
        th_map_set(m, QG_CHUNK_PRELUDE, "function map(s) tags('row_' .. s) end\n", 1);
        th_compile(rt, m, d);
        const char *tags = qg_mapdef_get_property(m->def, "tags");
        snprintf(kept[k], sizeof kept[k], "%s", tags ? tags : "-");
        th_map_free(m);
        qg_runtime_free(rt);
        qg_diags_free(d);
    }
    assert_string_equal(kept[0], kept[1]);
    assert_non_null(strstr(kept[0], "row_xy"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_direct_calls_match_lua),
        cmocka_unit_test(test_prefix_effects_kept),
        cmocka_unit_test(test_mapchunk_rows_honour_a_prelude_map),
    };
    return cmocka_run_group_tests_name("lua_direct", tests, NULL, NULL);
}
