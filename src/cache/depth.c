/* Crawl's rule (level_range::parse, depth_ranges::is_usable_in): a place
 * matches when some range holds it and no deny range ("!") holds it. "$"
 * is the branch's last level: a numbered place is never known to be past
 * it, so "Br:a-$" holds every level from a on, and "Br:$" only "Br:$". */
#include "cache/depth.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct place {
    char branch[64];
    int depth;      /* -1: the last level ("$"), 0: the whole branch */
} place;

static int parse_level(const char *s, size_t len, int *out)
{
    if (len == 1 && *s == '$') {
        *out = -1;
        return 1;
    }
    if (len == 0 || len > 6)
        return 0;
    int v = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return 0;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 1;
}

static int parse_place(const char *text, place *out)
{
    const char *colon = strchr(text, ':');
    size_t blen = colon ? (size_t)(colon - text) : strlen(text);
    if (blen >= sizeof out->branch)
        return 0;
    memcpy(out->branch, text, blen);
    out->branch[blen] = '\0';
    out->depth = 0;
    if (!colon) {
        int v;
        if (parse_level(text, blen, &v)) {   /* a bare number: absolute depth */
            strcpy(out->branch, "Any");
            out->depth = v;
        }
        return 1;
    }
    return parse_level(colon + 1, strlen(colon + 1), &out->depth);
}

/* One range ("Br", "Br:n", "Br:a-b", "Br:a-", "a-b", "*"), trimmed. */
static int range_holds(const char *r, size_t len, const place *p)
{
    if (len == 1 && r[0] == '*')
        return 1;
    const char *colon = memchr(r, ':', len);
    const char *nums = colon ? colon + 1 : r;
    size_t blen = colon ? (size_t)(colon - r) : 0;
    if (!colon && !isdigit((unsigned char)r[0]))
        blen = len, nums = r + len;
    const char *branch = blen ? r : "Any";
    size_t branch_len = blen ? blen : 3;
    if (strlen(p->branch) != branch_len || strncasecmp(p->branch, branch, branch_len) != 0)
        return 0;
    size_t nlen = (size_t)(r + len - nums);
    if (nlen == 0)
        return 1;
    const char *dash = memchr(nums, '-', nlen);
    int lo, hi;
    if (!dash) {
        if (!parse_level(nums, nlen, &lo))
            return 0;
        return lo == p->depth;
    }
    if (!parse_level(nums, (size_t)(dash - nums), &lo))
        return 0;
    size_t hlen = (size_t)(nums + nlen - dash - 1);
    if (hlen == 0)
        hi = -1;
    else if (!parse_level(dash + 1, hlen, &hi))
        return 0;
    if (p->depth == -1)
        return hi == -1;
    if (p->depth == 0)
        return 0;
    return p->depth >= lo && (hi == -1 || p->depth <= hi);
}

int qgc_depth_matches(const char *ranges, const char *place_text)
{
    place p;
    if (!ranges || !place_text || !parse_place(place_text, &p))
        return 0;
    int held = 0;
    const char *s = ranges;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == ',')
            s++;
        const char *end = s;
        while (*end && *end != ',')
            end++;
        const char *e = end;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        int deny = s < e && *s == '!';
        const char *r = s + deny;
        if (r < e && range_holds(r, (size_t)(e - r), &p)) {
            if (deny)
                return 0;
            held = 1;
        }
        s = end;
    }
    return held;
}
