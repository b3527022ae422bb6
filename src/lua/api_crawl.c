/* crawl.*: random numbers from the project's generator (never libc or
 * Lua's own state), string helpers, and the message functions, which a
 * level tool has no player to show to and so drops. */
#include "lua/rt.h"

#include <ctype.h>
#include <string.h>

static qg_rng *rng_of(lua_State *L)
{
    return &lrt_runtime(L)->rng;
}

static int32_t check_int32(lua_State *L, int index)
{
    lua_Number n = luaL_checknumber(L, index);
    if (n > INT32_MAX)
        return INT32_MAX;
    if (n < INT32_MIN)
        return INT32_MIN;
    return (int32_t)n;
}

static int l_random2(lua_State *L)
{
    lua_pushinteger(L, qg_rng_below(rng_of(L), check_int32(L, 1)));
    return 1;
}

/* random_range(lo, hi[, rolls]): the mean of rolls uniform draws. */
static int l_random_range(lua_State *L)
{
    int32_t lo = check_int32(L, 1), hi = check_int32(L, 2);
    lua_Integer rolls = lua_isnoneornil(L, 3) ? 1 : lrt_checkint(L, 3);
    if (rolls < 1 || rolls > 100)
        rolls = 1;
    if (hi < lo) {
        int32_t t = lo;
        lo = hi;
        hi = t;
    }
    int64_t sum = 0;
    for (lua_Integer i = 0; i < rolls; i++)
        sum += qg_rng_range(rng_of(L), lo, hi);
    lua_pushinteger(L, (lua_Integer)(sum / rolls));
    return 1;
}

static int l_random_real(lua_State *L)
{
    lua_pushnumber(L, qg_rng_real(rng_of(L)));
    return 1;
}

static int l_coinflip(lua_State *L)
{
    lua_pushboolean(L, qg_rng_coinflip(rng_of(L)));
    return 1;
}

static int l_one_chance_in(lua_State *L)
{
    lua_pushboolean(L, qg_rng_one_chance_in(rng_of(L), check_int32(L, 1)));
    return 1;
}

static int l_x_chance_in_y(lua_State *L)
{
    lua_pushboolean(L, qg_rng_x_chance_in_y(rng_of(L), check_int32(L, 1),
                                            check_int32(L, 2)));
    return 1;
}

static int l_roll_dice(lua_State *L)
{
    int one = lua_isnone(L, 2);
    int32_t n = one ? 1 : check_int32(L, 1), sides = check_int32(L, one ? 1 : 2);
    int64_t sum = 0;
    for (int32_t i = 0; i < n && i < 1000; i++)
        sum += sides > 0 ? 1 + qg_rng_below(rng_of(L), sides) : 0;
    lua_pushinteger(L, (lua_Integer)sum);
    return 1;
}

static int l_div_rand_round(lua_State *L)
{
    int32_t num = check_int32(L, 1), den = check_int32(L, 2);
    if (den == 0)
        return luaL_error(L, "div_rand_round: division by zero");
    int32_t q = num / den, r = num % den;
    if (r && qg_rng_below(rng_of(L), den < 0 ? -den : den) < (r < 0 ? -r : r))
        q += (r < 0) != (den < 0) ? -1 : 1;
    lua_pushinteger(L, q);
    return 1;
}

static int l_random_element(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    int total = 0;
    lua_pushnil(L);
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        int w = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : 1;
        lua_pop(L, 1);
        if (w <= 0)
            continue;
        total += w;
        if (qg_rng_x_chance_in_y(rng_of(L), w, total)) {
            lua_pushvalue(L, -1);
            lua_replace(L, -3);
        }
    }
    return 1;
}

static int l_random2avg(lua_State *L)
{
    int32_t max = check_int32(L, 1);
    lua_Integer rolls = lua_isnoneornil(L, 2) ? 1 : lrt_checkint(L, 2);
    if (rolls < 1 || rolls > 100)
        rolls = 1;
    int64_t sum = 0;
    for (lua_Integer i = 0; i < rolls; i++)
        sum += qg_rng_below(rng_of(L), max);
    lua_pushinteger(L, (lua_Integer)(sum / rolls));
    return 1;
}

static int l_string_compare(lua_State *L)
{
    int c = strcmp(luaL_checkstring(L, 1), luaL_checkstring(L, 2));
    lua_pushinteger(L, c < 0 ? -1 : c > 0);
    return 1;
}

static int l_game_started(lua_State *L)
{
    qg_runtime *rt = lrt_runtime(L);
    lua_pushboolean(L, !(rt->map && rt->map->validating));
    return 1;
}

static int l_ignore(lua_State *L)
{
    (void)L;
    return 0;
}

static int l_false(lua_State *L)
{
    lua_pushboolean(L, 0);
    return 1;
}

static int l_zero(lua_State *L)
{
    lua_pushinteger(L, 0);
    return 1;
}

static int l_split(lua_State *L)
{
    size_t len, slen;
    const char *s = luaL_checklstring(L, 1, &len);
    const char *sep = luaL_checklstring(L, 2, &slen);
    lua_newtable(L);
    lua_Integer n = 0;
    const char *end = s + len;
    while (s <= end) {
        const char *hit = slen ? NULL : end;
        for (const char *p = s; slen && p + slen <= end; p++)
            if (memcmp(p, sep, slen) == 0) {
                hit = p;
                break;
            }
        if (!hit)
            hit = end;
        const char *a = s, *b = hit;
        while (a < b && isspace((unsigned char)*a))
            a++;
        while (b > a && isspace((unsigned char)b[-1]))
            b--;
        lua_pushlstring(L, a, (size_t)(b - a));
        lua_rawseti(L, -2, ++n);
        s = hit + (slen ? slen : 1);
    }
    return 1;
}

static int l_trim(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    const char *e = s + len;
    while (s < e && isspace((unsigned char)*s))
        s++;
    while (e > s && isspace((unsigned char)e[-1]))
        e--;
    lua_pushlstring(L, s, (size_t)(e - s));
    return 1;
}

static int l_article_a(lua_State *L)
{
    const char *s = luaL_checkstring(L, 1);
    int vowel = strchr("aeiouAEIOU", s[0]) != NULL && s[0];
    lua_pushfstring(L, "%s%s", vowel ? "an " : "a ", s);
    return 1;
}

static int l_err_trace(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static int l_make_name(lua_State *L)
{
    static const char syllables[][4] = {"ka", "ri", "mo", "zu", "tel", "an", "or", "vy"};
    char name[32] = "";
    int n = 2 + qg_rng_below(rng_of(L), 2);
    for (int i = 0; i < n; i++)
        strcat(name, syllables[qg_rng_below(rng_of(L), 8)]);
    name[0] = (char)toupper((unsigned char)name[0]);
    lua_pushstring(L, name);
    return 1;
}

void lrt_open_crawl(lua_State *L)
{
    static const luaL_Reg fns[] = {
        {"random2", l_random2}, {"random_range", l_random_range},
        {"random_real", l_random_real}, {"coinflip", l_coinflip},
        {"one_chance_in", l_one_chance_in}, {"x_chance_in_y", l_x_chance_in_y},
        {"roll_dice", l_roll_dice}, {"div_rand_round", l_div_rand_round},
        {"random_element", l_random_element}, {"game_started", l_game_started},
        {"random2avg", l_random2avg}, {"string_compare", l_string_compare},
        {"rng_wrap", l_err_trace}, {"unavailable_god", l_false},
        {"split", l_split}, {"trim", l_trim}, {"article_a", l_article_a},
        {"err_trace", l_err_trace}, {"make_name", l_make_name},
        {"mpr", l_ignore}, {"dpr", l_ignore}, {"god_speaks", l_ignore},
        {"more", l_ignore}, {"clear_messages", l_ignore}, {"take_note", l_ignore},
        {"mark_milestone", l_ignore}, {"tutorial_msg", l_ignore},
        {"tutorial_hint", l_ignore}, {"stderr", l_ignore}, {"delay", l_ignore},
        {"flush_prev_message", l_ignore}, {"redraw_view", l_ignore},
        {"redraw_stats", l_ignore}, {"message", l_ignore},
        {"set_max_runes", l_ignore}, {"yesno", l_false}, {"millis", l_zero},
        {"msgch_num", l_zero}, {NULL, NULL}};
    lua_newtable(L);
    luaL_setfuncs(L, fns, 0);
    lua_setglobal(L, "crawl");
    lua_pushcfunction(L, l_ignore);
    lua_setglobal(L, "print");
}
