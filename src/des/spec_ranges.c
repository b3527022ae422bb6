/* DEPTH, PLACE and default-depth ranges (depth_ranges::parse_depth_ranges,
 * level_range::parse): [!](*|Br|Br:n|Br:a-b|Br:a-|Br:$|Br:*|a-b). */
#include "des/spec_util.h"
#include <ctype.h>
#include <string.h>

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* "n", "a-b", "a-", "$", "*" into lo/hi (hi -1: to the end; lo -1: the
 * last level). */
static int depth_part(des_span sp, des_range *r, des_spec_error *err)
{
    sp = des_span_trim(sp);
    if (des_span_eq(sp, "*") || !sp.len) {
        r->lo = 1;
        r->hi = -1;
        return DES_PARSE_OK;
    }
    if (des_span_eq(sp, "$")) {
        r->lo = r->hi = -1;
        return DES_PARSE_OK;
    }
    const char *dash = memchr(sp.s, '-', sp.len);
    des_span a = {sp.s, dash ? (size_t)(dash - sp.s) : sp.len, sp.offset};
    a = des_span_trim(a);
    if (!des_span_int(a, &r->lo) || r->lo < 1)
        return des_fail(err, sp.offset, "bad depth '%.*s'", (int)sp.len, sp.s);
    if (!dash) {
        r->hi = r->lo;
        return DES_PARSE_OK;
    }
    size_t after_dash = (size_t)(dash + 1 - sp.s);
    des_span b = des_span_trim((des_span){dash + 1, sp.len - after_dash, sp.offset + after_dash});
    if (!b.len || des_span_eq(b, "$")) {
        r->hi = -1;
        return DES_PARSE_OK;
    }
    if (!des_span_int(b, &r->hi) || r->hi < r->lo)
        return des_fail(err, sp.offset, "bad depth range '%.*s'", (int)sp.len, sp.s);
    return DES_PARSE_OK;
}

static int branch_name(des_span sp)
{
    if (!sp.len || !isalpha((unsigned char)sp.s[0]))
        return 0;
    for (size_t i = 1; i < sp.len; i++)
        if (!isalnum((unsigned char)sp.s[i]) && sp.s[i] != '_')
            return 0;
    return 1;
}

static int one_range(qg_arena *arena, des_span sp, des_range *r, des_spec_error *err)
{
    memset(r, 0, sizeof *r);
    if (sp.len && sp.s[0] == '!') {
        r->deny = 1;
        sp = des_span_trim((des_span){sp.s + 1, sp.len - 1, sp.offset + 1});
    }
    if (des_span_eq(sp, "*")) {
        r->any_branch = 1;
        r->lo = 1;
        r->hi = -1;
        return DES_PARSE_OK;
    }
    const char *colon = memchr(sp.s, ':', sp.len);
    if (!colon && sp.len && is_digit(sp.s[0])) {
        r->absolute = 1;
        return depth_part(sp, r, err);
    }
    des_span br = des_span_trim((des_span){sp.s, colon ? (size_t)(colon - sp.s) : sp.len,
                                           sp.offset});
    if (!branch_name(br))
        return des_fail(err, br.offset, "bad branch '%.*s'", (int)br.len, br.s);
    r->branch = qg_arena_strndup(arena, br.s, br.len);
    if (!r->branch)
        return DES_PARSE_NOMEM;
    if (!colon) {
        r->lo = 1;
        r->hi = -1;
        return DES_PARSE_OK;
    }
    size_t at = (size_t)(colon + 1 - sp.s);
    return depth_part((des_span){colon + 1, sp.len - at, sp.offset + at}, r, err);
}

int des_parse_ranges(qg_arena *arena, const char *s, size_t len, des_ranges *out,
                     des_spec_error *err)
{
    memset(out, 0, sizeof *out);
    des_span *parts;
    size_t n = des_span_split(arena, (des_span){s, len, 0}, ',', &parts);
    out->items = parts ? qg_arena_array(arena, n ? n : 1, sizeof *out->items) : NULL;
    if (!out->items)
        return DES_PARSE_NOMEM;
    for (size_t i = 0; i < n; i++) {
        int r = one_range(arena, parts[i], &out->items[i], err);
        if (r != DES_PARSE_OK)
            return r;
        out->count = i + 1;
    }
    return DES_PARSE_OK;
}
