/* The C functions of Lua's own libraries, charged: each library table's
 * functions are replaced by closures that charge a call (budget.h) and
 * the work its arguments ask for, call the original directly (no second
 * dispatch through the interpreter), and charge each value it returns
 * past a few.
 * Every C function of those tables without upvalues is wrapped, so none
 * is missed; the runtime's own replacements (pcall, load, resume, the
 * pattern functions, ...) charge themselves. */
#include "lua/rt.h"

#include <math.h>
#include <string.h>

/* Work a call asks for beyond LRT_CALL_UNITS and its arguments, from its
 * arguments (before) or from what it returned (after, n results on top). */
typedef size_t (*work_before)(lua_State *L);
typedef size_t (*work_after)(lua_State *L, int n);

typedef struct charge_rule {
    const char *table, *name;
    work_before before;
    work_after after;
} charge_rule;

static size_t scanned(size_t bytes)
{
    return lrt_units_of((double)bytes, LRT_SCAN_BYTES);
}

static size_t string_length(lua_State *L, int index)
{
    return lua_type(L, index) == LUA_TSTRING ? lua_rawlen(L, index) : 0;
}

/* The first argument read through (upper, lower, reverse). */
static size_t first_string(lua_State *L)
{
    return scanned(string_length(L, 1));
}

/* Every string argument read through (string.pack checks 'z' strings
 * with strlen). */
static size_t all_strings(lua_State *L)
{
    size_t n = 0;
    for (int i = 1; i <= lua_gettop(L); i++)
        n += string_length(L, i);
    return scanned(n);
}

/* string.rep: a copy a piece (and a separator); the bytes are the
 * allocator's to charge. A result over the memory cap is Lua's own error
 * to give. */
static size_t rep_work(lua_State *L)
{
    if (lua_type(L, 1) != LUA_TSTRING || !lua_isinteger(L, 2))
        return 0;
    double n = (double)lua_tointeger(L, 2);
    double len = (double)lua_rawlen(L, 1), sep = (double)string_length(L, 3);
    if (n <= 0 || n * (len + sep) > (double)lrt_runtime(L)->mem_limit)
        return 0;
    return lrt_units_of(n * (sep > 0 ? 2 : 1), 2);
}

/* string.format: each conversion may format a number (snprintf). */
static size_t format_work(lua_State *L)
{
    size_t len = 0, items = 0;
    const char *fmt = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &len) : NULL;
    for (size_t i = 0; fmt && i < len; i++)
        items += fmt[i] == '%';
    return scanned(len) + items * LRT_NUMBER_UNITS;
}

/* The position string.unpack stopped at, against where it started. */
static size_t unpack_after(lua_State *L, int n)
{
    lua_Integer from = lua_isinteger(L, 3) ? lua_tointeger(L, 3) : 1;
    lua_Integer to = n > 0 && lua_isinteger(L, -1) ? lua_tointeger(L, -1) : from;
    return scanned(to > from ? (size_t)(to - from) : 0);
}

static size_t format_string(lua_State *L)
{
    return scanned(string_length(L, 1));
}

static double table_length(lua_State *L, int index)
{
    return lua_type(L, index) == LUA_TTABLE ? (double)lua_rawlen(L, index) : 0;
}

/* table.concat: an element looked up and appended each. */
static size_t concat_work(lua_State *L)
{
    double first = lua_isinteger(L, 3) ? (double)lua_tointeger(L, 3) : 1;
    double last = lua_isinteger(L, 4) ? (double)lua_tointeger(L, 4) : table_length(L, 1);
    return last >= first ? lrt_units_of(last - first + 1, 1) : 0;
}

/* table.insert and table.remove: the elements moved to make or close the
 * gap (none at the end). */
static size_t shift_work(lua_State *L, int with_position)
{
    double n = table_length(L, 1);
    if (lua_gettop(L) >= with_position && lua_isinteger(L, 2) &&
        (double)lua_tointeger(L, 2) <= n)
        return lrt_units_of(n - (double)lua_tointeger(L, 2) + 1, 1);
    return 1;
}

static size_t insert_work(lua_State *L)
{
    return shift_work(L, 3);
}

static size_t remove_work(lua_State *L)
{
    return shift_work(L, 2);
}

/* table.move: the elements copied. */
static size_t move_work(lua_State *L)
{
    if (!lua_isinteger(L, 2) || !lua_isinteger(L, 3))
        return 0;
    double n = (double)lua_tointeger(L, 3) - (double)lua_tointeger(L, 2) + 1;
    return lrt_units_of(n, 1);
}

/* table.sort: n log n comparisons; each an entry into Lua when a
 * comparator (or an element's __lt) decides, else as long as the longest
 * string compared. */
static size_t sort_work(lua_State *L)
{
    double n = table_length(L, 1);
    if (n < 2)
        return 1;
    double each = 1;
    if (!lua_isnoneornil(L, 2)) {
        each = LRT_ENTRY_UNITS;
    } else {
        size_t longest = 0;
        for (lua_Integer i = 1; i <= (lua_Integer)n; i++) {
            int type = lua_rawgeti(L, 1, i);
            if (type == LUA_TSTRING && lua_rawlen(L, -1) > longest)
                longest = lua_rawlen(L, -1);
            else if (type == LUA_TTABLE || type == LUA_TUSERDATA)
                each = LRT_ENTRY_UNITS;
            lua_pop(L, 1);
        }
        each += (double)longest / LRT_SCAN_BYTES;
    }
    return lrt_units_of(n * log2(n) * each + n, 1);
}

/* utf8.len: the bytes between its bounds. */
static size_t utf8_len_work(lua_State *L)
{
    double len = (double)string_length(L, 1);
    double from = lua_isinteger(L, 2) ? (double)lua_tointeger(L, 2) : 1;
    double to = lua_isinteger(L, 3) ? (double)lua_tointeger(L, 3) : -1;
    if (from < 0)
        from += len + 1;
    if (to < 0)
        to += len + 1;
    return to >= from ? lrt_units_of(to - from + 1, LRT_SCAN_BYTES) : 0;
}

/* utf8.offset: the bytes between where it started and what it found
 * (the whole string when nothing). */
static size_t utf8_offset_after(lua_State *L, int n)
{
    double len = (double)string_length(L, 1);
    if (n < 1 || !lua_isinteger(L, -1))
        return lrt_units_of(len, LRT_SCAN_BYTES);
    double from = lua_isinteger(L, 3) ? (double)lua_tointeger(L, 3) : 1;
    return lrt_units_of(fabs((double)lua_tointeger(L, -1) - from), LRT_SCAN_BYTES);
}

static size_t number_text(lua_State *L)
{
    switch (lua_type(L, 1)) {
    case LUA_TNUMBER:
        return LRT_NUMBER_UNITS;
    case LUA_TSTRING:
        return LRT_NUMBER_UNITS + scanned(lua_rawlen(L, 1));
    case LUA_TTABLE:
    case LUA_TUSERDATA:
        return LRT_ENTRY_UNITS;   /* __tostring, __name */
    default:
        return 0;
    }
}

static size_t coroutine_switch(lua_State *L)
{
    (void)L;
    return LRT_SWITCH_UNITS;
}

static const charge_rule rules[] = {
    {"string", "upper", first_string, NULL},
    {"string", "lower", first_string, NULL},
    {"string", "reverse", first_string, NULL},
    {"string", "rep", rep_work, NULL},
    {"string", "format", format_work, NULL},
    {"string", "pack", all_strings, NULL},
    {"string", "packsize", format_string, NULL},
    {"string", "unpack", format_string, unpack_after},
    {"table", "concat", concat_work, NULL},
    {"table", "insert", insert_work, NULL},
    {"table", "remove", remove_work, NULL},
    {"table", "move", move_work, NULL},
    {"table", "sort", sort_work, NULL},
    {"utf8", "len", utf8_len_work, NULL},
    {"utf8", "offset", NULL, utf8_offset_after},
    {NULL, "tostring", number_text, NULL},
    {NULL, "tonumber", number_text, NULL},
    {"coroutine", "yield", coroutine_switch, NULL},
    {NULL, NULL, NULL, NULL}};

static const charge_rule *rule_for(const char *table, const char *name)
{
    static const charge_rule plain = {NULL, NULL, NULL, NULL};
    for (const charge_rule *r = rules; r->name; r++)
        if ((r->table == table || (r->table && table && strcmp(r->table, table) == 0)) &&
            strcmp(r->name, name) == 0)
            return r;
    return &plain;
}

/* table.remove(t, pos) with pos outside the table: Lua 5.4 raises
 * "position out of bounds", Lua 5.1 (which Crawl 0.28's library was
 * written for, and relies on: v_paint.lua removes by stale indices)
 * removes nothing. */
static int remove_outside(lua_State *L)
{
    if (lua_gettop(L) < 2 || lua_type(L, 1) != LUA_TTABLE || !lua_isinteger(L, 2))
        return 0;
    lua_Integer size = (lua_Integer)lua_rawlen(L, 1), pos = lua_tointeger(L, 2);
    return !(size == 0 && pos == 0) && (pos < 1 || pos > size + 1);
}

static int charged_call(lua_State *L)
{
    const charge_rule *rule = lua_touserdata(L, lua_upvalueindex(1));
    lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(2));
    if (rule->before == remove_work && remove_outside(L))
        return 0;
    size_t work = LRT_CALL_UNITS + (size_t)lua_gettop(L) / LRT_VALUES;
    if (rule->before)
        work += rule->before(L);
    lrt_charge(L, work);
    int n = original(L);
    if (n >= LRT_VALUES || rule->after)
        lrt_charge(L, (size_t)n + (rule->after ? rule->after(L, n) : 0));
    return n;
}

static int has_upvalues(lua_State *L, int index)
{
    if (!lua_getupvalue(L, index, 1))
        return 0;
    lua_pop(L, 1);
    return 1;
}

static void charge_table(lua_State *L, const char *table)
{
    if (table)
        lua_getglobal(L, table);
    else
        lua_pushglobaltable(L);
    int t = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_type(L, -2) == LUA_TSTRING && lua_iscfunction(L, -1) &&
            !has_upvalues(L, -1)) {
            const charge_rule *rule = rule_for(table, lua_tostring(L, -2));
            lua_pushvalue(L, -2);
            lua_pushlightuserdata(L, (void *)rule);
            lua_pushvalue(L, -3);
            lua_pushcclosure(L, charged_call, 2);
            lua_rawset(L, t);   /* an existing key: next goes on */
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

void lrt_charge_libraries(lua_State *L)
{
    static const char *const tables[] = {"string", "table", "math", "utf8", "coroutine"};
    charge_table(L, NULL);
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
        charge_table(L, tables[i]);
}

/* ---- iterators the libraries hand out ---------------------------------- */

/* ipairs, as Lua 5.4's, with each step charged. */
static int ipairs_step(lua_State *L)
{
    lua_Integer i = luaL_checkinteger(L, 2);
    i = (lua_Integer)((lua_Unsigned)i + 1);
    lrt_charge(L, LRT_CALL_UNITS);
    lua_pushinteger(L, i);
    return lua_geti(L, 1, i) == LUA_TNIL ? 1 : 2;
}

static int charged_ipairs(lua_State *L)
{
    luaL_checkany(L, 1);
    lrt_charge(L, LRT_CALL_UNITS);
    lua_pushcfunction(L, ipairs_step);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, 0);
    return 3;
}

/* utf8.codes' step skips any number of continuation bytes: charged by
 * how far it moved. */
static int codes_step(lua_State *L)
{
    lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(1));
    lua_Integer from = lua_isinteger(L, 2) ? lua_tointeger(L, 2) : 0;
    lrt_charge(L, LRT_CALL_UNITS);
    int n = original(L);
    if (n > 0 && lua_isinteger(L, -n) && lua_tointeger(L, -n) > from)
        lrt_charge(L, scanned((size_t)(lua_tointeger(L, -n) - from)));
    return n;
}

static int charged_codes(lua_State *L)
{
    lrt_charge(L, LRT_CALL_UNITS);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 3);
    lua_pushvalue(L, 1);
    lua_pushcclosure(L, codes_step, 1);
    lua_replace(L, 1);
    return 3;
}

/* coroutine.wrap's function: a switch a call. */
static int wrapped_resume(lua_State *L)
{
    lrt_charge(L, LRT_SWITCH_UNITS + (size_t)lua_gettop(L) / LRT_VALUES);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static int charged_wrap(lua_State *L)
{
    lrt_charge(L, LRT_CALL_UNITS);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    lua_pushcclosure(L, wrapped_resume, 1);
    return 1;
}

static void replace_with_closure(lua_State *L, const char *table, const char *name,
                                 lua_CFunction fn)
{
    lua_getglobal(L, table);
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, fn, 1);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

void lrt_charge_iterators(lua_State *L)
{
    lua_pushcfunction(L, charged_ipairs);
    lua_setglobal(L, "ipairs");
    replace_with_closure(L, "utf8", "codes", charged_codes);
    replace_with_closure(L, "coroutine", "wrap", charged_wrap);
}
