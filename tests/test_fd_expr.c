/* ?: expressions: every function per dialect, the games' odd values. */
#include "testutil.h"
#include "fd/fd_internal.h"

#include <stdio.h>
#include <string.h>

static const char *eval_in(qg_fd_dialect d, const qg_vars *vars, const char *expr)
{
    static char out[64];
    qg_fd_eval(expr, strlen(expr), d, vars, out, sizeof out, "t", 1, NULL);
    return out;
}

static qg_vars *sample_vars(void)
{
    qg_vars *v = qg_vars_new();
    qg_vars_set(v, "QUEST1", "2");
    qg_vars_set(v, "QUEST2", "5");
    qg_vars_set(v, "LEVEL", "10");
    qg_vars_set(v, "CLASS", "Warrior");
    qg_vars_set(v, "WILDERNESS", "LITE");
    return v;
}

static void boolean_functions(void **state)
{
    (void)state;
    qg_vars *v = sample_vars();
    for (qg_fd_dialect d = QG_FD_ZANGBAND; d <= QG_FD_TOME; d++) {
        assert_string_equal(eval_in(d, v, "1"), "1");
        assert_string_equal(eval_in(d, v, "[AND 1 1]"), "1");
        assert_string_equal(eval_in(d, v, "[AND 1 0]"), "0");
        assert_string_equal(eval_in(d, v, "[IOR 0 0]"), "0");
        assert_string_equal(eval_in(d, v, "[IOR 0 7]"), "1");
        assert_string_equal(eval_in(d, v, "[NOT 0]"), "1");
        assert_string_equal(eval_in(d, v, "[NOT 0 1]"), "0");
        assert_string_equal(eval_in(d, v, "[AND [EQU $CLASS Warrior] [NOT [EQU $LEVEL 3]] ]"), "1");
        assert_string_equal(eval_in(d, v, "$CLASS"), "Warrior");
    }
    qg_vars_free(v);
}

static void equ_chain_versus_set(void **state)
{
    (void)state;
    qg_vars *v = sample_vars();
    /* Zangband: all adjacent arguments equal; Hengband: a set test. */
    assert_string_equal(eval_in(QG_FD_ZANGBAND, v, "[EQU $WILDERNESS NONE LITE]"), "0");
    assert_string_equal(eval_in(QG_FD_HENGBAND, v, "[EQU $WILDERNESS NONE LITE]"), "1");
    assert_string_equal(eval_in(QG_FD_TOME, v, "[EQU $WILDERNESS NONE LITE]"), "0");
    assert_string_equal(eval_in(QG_FD_ZANGBAND, v, "[EQU LITE LITE LITE]"), "1");
    assert_string_equal(eval_in(QG_FD_ZANGBAND, v, "[EQU 1]"), "1");
    assert_string_equal(eval_in(QG_FD_HENGBAND, v, "[EQU 1]"), "0");
    /* Numeric variables share one static buffer: two always compare equal. */
    assert_string_equal(eval_in(QG_FD_ZANGBAND, v, "[EQU $QUEST1 $QUEST2]"), "1");
    assert_string_equal(eval_in(QG_FD_HENGBAND, v, "[EQU $QUEST1 $QUEST2]"), "1");
    assert_string_equal(eval_in(QG_FD_ZANGBAND, v, "[EQU $QUEST1 5]"), "0");
    qg_vars_free(v);
}

static void leq_strcmp_versus_atoi(void **state)
{
    (void)state;
    qg_vars *v = sample_vars();
    /* "10" <= "9" as strings (Zangband), not as numbers (Hengband). */
    assert_string_equal(eval_in(QG_FD_ZANGBAND, v, "[LEQ $LEVEL 9]"), "1");
    assert_string_equal(eval_in(QG_FD_HENGBAND, v, "[LEQ $LEVEL 9]"), "0");
    assert_string_equal(eval_in(QG_FD_ZANGBAND, v, "[GEQ $LEVEL 9]"), "0");
    assert_string_equal(eval_in(QG_FD_HENGBAND, v, "[GEQ $LEVEL 9]"), "1");
    assert_string_equal(eval_in(QG_FD_ZANGBAND, v, "[LEQ $QUEST1 2]"), "1");
    assert_string_equal(eval_in(QG_FD_HENGBAND, v, "[LEQ 1 2 3]"), "1");
    assert_string_equal(eval_in(QG_FD_HENGBAND, v, "[LEQ 1 3 2]"), "0");
    /* ToME has no LEQ: an unknown function, which counts as true. */
    assert_string_equal(eval_in(QG_FD_TOME, v, "[LEQ 5 1]"), "?o?o?");
    qg_vars_free(v);
}

static void unknown_and_unclosed(void **state)
{
    (void)state;
    qg_vars *v = sample_vars();
    assert_string_equal(eval_in(QG_FD_ZANGBAND, v, "$NO_SUCH"), "?o?o?");
    assert_string_equal(eval_in(QG_FD_ZANGBAND, v, "[FOO 1 2]"), "?o?o?");
    assert_string_equal(eval_in(QG_FD_ZANGBAND, v, "[EQU 1 1"), "?x?x?");
    assert_string_equal(eval_in(QG_FD_ZANGBAND, v, "[EQU $NO_SUCH 0]"), "0");
    assert_string_equal(eval_in(QG_FD_ZANGBAND, v, "[MOD 7 2]"), "?o?o?");
    /* MOD and OR are PosChengband's, NEQ FrogComposband's: Hengband's
     * loader knows none of them. */
    assert_string_equal(eval_in(QG_FD_HENGBAND, v, "[MOD 7 2]"), "?o?o?");
    assert_string_equal(eval_in(QG_FD_HENGBAND, v, "[OR 0 1]"), "?o?o?");
    assert_string_equal(eval_in(QG_FD_POSCHENGBAND, v, "[MOD 7 2]"), "1");
    assert_string_equal(eval_in(QG_FD_POSCHENGBAND, v, "[OR 0 1]"), "1");
    assert_string_equal(eval_in(QG_FD_POSCHENGBAND, v, "[NEQ 1 2 3]"), "?o?o?");
    assert_string_equal(eval_in(QG_FD_FROGCOMPOSBAND, v, "[NEQ 1 2 3]"), "1");
    assert_string_equal(eval_in(QG_FD_FROGCOMPOSBAND, v, "[NEQ 1 2 1]"), "0");
    qg_vars_free(v);
}

/* FrogComposband's process_dungeon_file_expr (src/init1.c) evaluates
 * $SPEED, $SUBCLASS, $DUNGEONn and NEQ; $QUEST..., $DUNGEON... and
 * $RANDOM... are prefixes (prefix()), and every value it formats lands in
 * one static tmp, so that two of them always compare equal. (That check
 * knows the names is tests/cli_dialects.sh's.) */
static void frogcomposband_variables(void **state)
{
    (void)state;
    qg_vars *v = qg_vars_new();
    qg_vars_set(v, "SPEED", "1");
    qg_vars_set(v, "SUBCLASS", "None");
    qg_vars_set(v, "DUNGEON3", "Active");
    qg_vars_set(v, "QUEST_NUMBER", "Unknown");
    assert_string_equal(eval_in(QG_FD_FROGCOMPOSBAND, v,
                                "[AND [EQU $SPEED 1] [EQU $SUBCLASS None] [EQU $DUNGEON3 Active] "
                                "[NEQ $QUEST_NUMBER 2] ]"), "1");
    assert_string_equal(eval_in(QG_FD_FROGCOMPOSBAND, v, "[EQU $SPEED $DUNGEON3]"), "1");
    assert_string_equal(eval_in(QG_FD_FROGCOMPOSBAND, v, "[EQU $SUBCLASS $DUNGEON3]"), "0");
    assert_string_equal(eval_in(QG_FD_FROGCOMPOSBAND, v, "[LEQ $SPEED 1]"), "1");
    qg_vars_free(v);
}

static void tome_quoted_quest_variable(void **state)
{
    (void)state;
    qg_vars *v = qg_vars_new();
    qg_vars_set(v, "QUEST\"Old Mages quest\"", "1");
    assert_string_equal(eval_in(QG_FD_TOME, v, "[EQU $QUEST\"Old Mages quest\" 1]"), "1");
    qg_vars_free(v);
}

static void diagnostics(void **state)
{
    (void)state;
    qg_diags *d = qg_diags_new();
    char out[16];
    const char *mod = "[MOD 7 0]";
    assert_int_equal(qg_fd_eval(mod, strlen(mod), QG_FD_POSCHENGBAND, NULL, out, sizeof out, "x.txt", 4, d),
                     QG_ERR_PARSE);
    assert_true(test_diags_contain(d, QG_ERROR, "MOD"));
    assert_int_equal(qg_diags_get(d, 0)->line, 4);
    char deep[1200];
    memset(deep, '[', 600);
    deep[600] = '\0';
    assert_int_equal(qg_fd_eval(deep, 600, QG_FD_ZANGBAND, NULL, out, sizeof out, "x.txt", 5, d),
                     QG_ERR_PARSE);
    assert_true(test_diags_contain(d, QG_ERROR, "nested deeper"));
    qg_diags_free(d);
}

/* The [EQU $NAME value] shortcut resolving takes answers as the general
 * evaluator does, in every dialect, and leaves other forms to it. */
static void equ_shortcut_agrees(void **state)
{
    (void)state;
    static const char *const handled[] = {
        "[EQU $QUEST1 2]", "[EQU $QUEST1 5]", "[EQU $LEVEL 10]", "[EQU $LEVEL 010]",
        "[EQU $CLASS Warrior]", "[EQU $CLASS warrior]", "[EQU $NOPE 1]",
        "[EQU $WILDERNESS LITE]\r", "[EQU $EMPTY 0]", "[EQU $LONG x]", NULL};
    static const char *const other[] = {
        "[EQU $QUEST1 2 2]", "[EQU  $QUEST1 2]", "[EQU $QUEST1 2] ", "[EQU $QUEST1 2",
        "[EQU QUEST1 2]", "[EQU $QUEST1 [NOT 0]]", "[EQU $QUEST\"a\" 1]", "[EQU $ 1]",
        "[NEQ $QUEST1 2]", "[EQU $LEVEL -1]", NULL};
    qg_vars *v = sample_vars();
    qg_vars_set(v, "EMPTY", "");
    char long_value[80];
    memset(long_value, 'x', sizeof long_value - 1);
    long_value[sizeof long_value - 1] = '\0';
    qg_vars_set(v, "LONG", long_value);
    for (qg_fd_dialect d = QG_FD_ZANGBAND; d <= QG_FD_TOME; d++) {
        for (size_t i = 0; handled[i]; i++) {
            int equal = -1;
            int took = fd_eval_equ(handled[i], strlen(handled[i]), v, &equal);
            if (strstr(handled[i], "LONG")) {
                assert_false(took);
                continue;
            }
            assert_true(took);
            assert_string_equal(eval_in(d, v, handled[i]), equal ? "1" : "0");
        }
        for (size_t i = 0; other[i]; i++) {
            int equal;
            assert_false(fd_eval_equ(other[i], strlen(other[i]), v, &equal));
        }
    }
    qg_vars_free(v);
}

/* The values that make a condition on the way to an include hold: what
 * must hold binds (alone, under AND, IOR's first alternative), what a
 * NOT or a comparison other than EQU says binds nothing, and a value
 * given first is kept. */
static const char *bound(const char *expr, const char *name)
{
    static char out[64];
    qg_vars *v = qg_vars_new();
    assert_non_null(v);
    qg_vars_set(v, "KEPT", "9");
    assert_int_equal(fd_expr_bindings(expr, strlen(expr), v), 1);
    const char *value = qg_vars_get(v, name);
    snprintf(out, sizeof out, "%s", value ? value : "-");
    qg_vars_free(v);
    return out;
}

static void bindings_make_the_way_hold(void **state)
{
    (void)state;
    assert_string_equal(bound("[EQU $QUEST_NUMBER 3]", "QUEST_NUMBER"), "3");
    assert_string_equal(bound("[AND [EQU $A 1] [EQU $B town]]", "A"), "1");
    assert_string_equal(bound("[AND [EQU $A 1] [EQU $B town]]", "B"), "town");
    assert_string_equal(bound("[IOR [EQU $A 1] [EQU $A 2]]", "A"), "1");
    assert_string_equal(bound("[IOR [EQU $A 1] [EQU $B 2]]", "B"), "-");
    assert_string_equal(bound("[NOT [EQU $A 1]]", "A"), "-");
    assert_string_equal(bound("[LEQ $A 1]", "A"), "-");
    assert_string_equal(bound("[EQU $A $B]", "A"), "-");
    assert_string_equal(bound("[EQU $KEPT 4]", "KEPT"), "9");
    assert_string_equal(bound("[AND [EQU $A", "A"), "-");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(boolean_functions),
        cmocka_unit_test(equ_chain_versus_set),
        cmocka_unit_test(leq_strcmp_versus_atoi),
        cmocka_unit_test(unknown_and_unclosed),
        cmocka_unit_test(frogcomposband_variables),
        cmocka_unit_test(tome_quoted_quest_variable),
        cmocka_unit_test(diagnostics),
        cmocka_unit_test(equ_shortcut_agrees),
        cmocka_unit_test(bindings_make_the_way_hold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
