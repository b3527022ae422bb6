/* SUBVAULT: a map picked by tag is fitted into the box of a key glyph and
 * merged into the parent before the parent is placed
 * (map_def::apply_subvault, resolve_subvault, merge_subvault). */
#include "place/internal.h"

#include <stdlib.h>
#include <string.h>

enum { SUBVAULT_TRIES = 100, DEFAULT_WEIGHT = 10, MAX_CHOICES = 32, MAX_DEPTH = 8 };

typedef struct choice {
    char tag[64];
    int weight;
} choice;

typedef struct spec {
    unsigned char keys[256];  /* 1 for each glyph the subvault replaces */
    choice choices[MAX_CHOICES];
    int count;
} spec;

static const char *skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* One alternative: "tag", "tag:20", "tag w:20" or "tag weight:20". */
static int parse_choice(const char *p, const char *end, choice *c)
{
    p = skip_space(p);
    while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    c->weight = DEFAULT_WEIGHT;
    const char *colon = memchr(p, ':', (size_t)(end - p));
    const char *tag_end = end;
    if (colon) {
        c->weight = atoi(colon + 1);
        tag_end = colon;
        const char *word = tag_end;
        while (word > p && word[-1] != ' ' && word[-1] != '\t')
            word--;
        size_t wlen = (size_t)(tag_end - word);
        if (word > p && ((wlen == 1 && *word == 'w') || (wlen == 6 && !memcmp(word, "weight", 6))))
            tag_end = word;
        while (tag_end > p && (tag_end[-1] == ' ' || tag_end[-1] == '\t'))
            tag_end--;
    }
    size_t len = (size_t)(tag_end - p);
    if (len == 0 || len >= sizeof c->tag)
        return 0;
    memcpy(c->tag, p, len);
    c->tag[len] = '\0';
    return 1;
}

/* "XY : tag / other_tag:20": the glyphs replaced, then weighted tags. */
static int parse_spec(const char *text, spec *out)
{
    memset(out->keys, 0, sizeof out->keys);
    const char *p = skip_space(text);
    int keys = 0;
    for (; *p && *p != ':'; p++)
        if (*p != ' ' && *p != '\t')
            keys += out->keys[(unsigned char)*p] = 1;
    if (*p++ != ':' || !keys)
        return 0;
    out->count = 0;
    while (*p) {
        const char *end = strchr(p, '/');
        if (!end)
            end = p + strlen(p);
        if (out->count == MAX_CHOICES || !parse_choice(p, end, &out->choices[out->count++]))
            return 0;
        p = *end ? end + 1 : end;
    }
    return out->count > 0;
}

static const char *pick_tag(const spec *s, qg_rng *rng)
{
    int total = 0;
    for (int i = 0; i < s->count; i++)
        total += s->choices[i].weight > 0 ? s->choices[i].weight : 0;
    int roll = qg_rng_below(rng, total);
    for (int i = 0; i < s->count; i++) {
        int w = s->choices[i].weight > 0 ? s->choices[i].weight : 0;
        if (roll < w)
            return s->choices[i].tag;
        roll -= w;
    }
    return s->choices[0].tag;
}

typedef struct box {
    int x, y, w, h;
} box;

static int key_box(const qg_level *level, const spec *s, box *b)
{
    int lw = qg_level_width(level), lh = qg_level_height(level);
    const unsigned char *g = qg_level_glyphs(level);
    const unsigned char *in = qg_level_in_map(level);
    int x0 = lw, y0 = lh, x1 = -1, y1 = -1;
    for (int y = 0; y < lh; y++)
        for (int x = 0; x < lw; x++)
            if (in[y * lw + x] && s->keys[g[y * lw + x]]) {
                if (x < x0) x0 = x;
                if (x > x1) x1 = x;
                if (y < y0) y0 = y;
                if (y > y1) y1 = y;
            }
    *b = (box){x0, y0, x1 - x0 + 1, y1 - y0 + 1};
    return x1 >= 0;
}

static int part_of(const qg_level *l, int x, int y)
{
    int at = y * qg_level_width(l) + x;
    return qg_level_in_map(l)[at] && qg_level_glyphs(l)[at] != ' ';
}

static int is_key(const qg_level *l, const box *b, const spec *s, int x, int y)
{
    int at = (b->y + y) * qg_level_width(l) + b->x + x;
    return qg_level_in_map(l)[at] && s->keys[qg_level_glyphs(l)[at]];
}

static unsigned fewest_mismatches(const qg_level *parent, const box *b,
                                  const spec *sp, const qg_level *sub,
                                  unsigned tags)
{
    static const unsigned combos[4] = {0, QG_XFORM_HMIRROR, QG_XFORM_VMIRROR,
                                       QG_XFORM_HMIRROR | QG_XFORM_VMIRROR};
    unsigned best = 0;
    long best_count = -1;
    for (int c = 0; c < 4; c++) {
        if (((combos[c] & QG_XFORM_HMIRROR) && (tags & TAG_NO_HMIRROR)) ||
            ((combos[c] & QG_XFORM_VMIRROR) && (tags & TAG_NO_VMIRROR)))
            continue;
        long count = 0;
        for (int y = 0; y < b->h; y++)
            for (int x = 0; x < b->w; x++) {
                int sx = (combos[c] & QG_XFORM_HMIRROR) ? b->w - 1 - x : x;
                int sy = (combos[c] & QG_XFORM_VMIRROR) ? b->h - 1 - y : y;
                count += part_of(sub, sx, sy) != is_key(parent, b, sp, x, y);
            }
        if (best_count < 0 || count < best_count) {
            best_count = count;
            best = combos[c];
        }
    }
    return best;
}

/* The transform that fits sub into the box, or -1 when it cannot fit. */
static long fit_transform(const qg_level *parent, const box *b, const spec *sp,
                          const qg_level *sub, qg_rng *rng)
{
    unsigned tags = tags_parse(qg_level_get_property(sub, "tags"));
    int w = qg_level_width(sub), h = qg_level_height(sub);
    int fits = w <= b->w && h <= b->h;
    int fits_rotated = h <= b->w && w <= b->h && !(tags & TAG_NO_ROTATE);
    unsigned t = 0;
    if (!fits && !fits_rotated)
        return -1;
    if (!fits || (fits_rotated && qg_rng_coinflip(rng))) {
        t = qg_rng_coinflip(rng) ? QG_XFORM_ROTATE_CW : QG_XFORM_ROTATE_CCW;
        int tmp = w;
        w = h;
        h = tmp;
    }
    if (w == b->w && h == b->h) {
        if (!t)
            return (long)fewest_mismatches(parent, b, sp, sub, tags);
        qg_level *turned = qg_level_transformed(sub, t);
        if (!turned)
            return -1;
        unsigned m = fewest_mismatches(parent, b, sp, turned, tags);
        qg_level_free(turned);
        return (long)(t | m);
    }
    if (qg_rng_coinflip(rng) && !(tags & TAG_NO_HMIRROR))
        t |= QG_XFORM_HMIRROR;
    if (qg_rng_coinflip(rng) && !(tags & TAG_NO_VMIRROR))
        t |= QG_XFORM_VMIRROR;
    return (long)t;
}

static qg_status merge(qg_level *parent, const box *b, const spec *sp,
                       const qg_level *sub, qg_rng *rng)
{
    int sw = qg_level_width(sub), sh = qg_level_height(sub);
    int ox = b->x + qg_rng_below(rng, b->w - sw + 1);
    int oy = b->y + qg_rng_below(rng, b->h - sh + 1);
    uint32_t mask = tags_mask(tags_parse(qg_level_get_property(sub, "tags")));
    qg_status st = QG_OK;
    qg_cell c;
    for (int y = 0; y < sh && st == QG_OK; y++)
        for (int x = 0; x < sw && st == QG_OK; x++) {
            if (!part_of(sub, x, y) || !is_key(parent, &(box){ox, oy, 0, 0}, sp, x, y))
                continue;
            qg_level_cell(sub, x, y, &c);
            qg_level_clear_cell(parent, ox + x, oy + y);
            st = qg_level_set_glyph(parent, ox + x, oy + y, c.glyph);
            if (st == QG_OK)
                st = qg_level_set_feature(parent, ox + x, oy + y, c.feature, c.feature_name);
            if (st == QG_OK)
                st = qg_level_set_cave_info(parent, ox + x, oy + y, c.cave_info);
            if (st == QG_OK)
                st = qg_level_set_vault_mask(parent, ox + x, oy + y, c.vault_mask | mask);
            if (st == QG_OK)
                st = qg_level_set_special(parent, ox + x, oy + y, c.special, c.mimic, c.mflag);
            for (int s = 0; s < QG_SLOTS && st == QG_OK; s++)
                if (c.things[s].kind != QG_THING_NONE)
                    st = qg_level_set_thing(parent, ox + x, oy + y, (qg_slot)s,
                                            c.things[s].kind, c.things[s].index,
                                            c.things[s].name);
        }
    for (size_t i = 0; i < qg_level_marker_count(sub) && st == QG_OK; i++) {
        int mx, my;
        const char *m = qg_level_marker(sub, i, &mx, &my);
        st = qg_level_add_marker(parent, ox + mx, oy + my, m);
    }
    return st;
}

static qg_status resolve_all(qg_level *level, qg_subvault_fn fn, void *user,
                             qg_rng *rng, int depth, qg_diags *diags);

/* The map picked is resolved (its own subvaults first), fitted and merged. */
static qg_status apply_one(qg_level *level, const spec *s, const char *text,
                           qg_subvault_fn fn, void *user, qg_rng *rng, int depth,
                           qg_diags *diags)
{
    box b;
    if (!key_box(level, s, &b)) {
        place_diag(diags, QG_ERROR, level, "SUBVAULT '%s': its glyphs are not in the map", text);
        return QG_ERR_INVALID;
    }
    for (int tries = 0; tries < SUBVAULT_TRIES; tries++) {
        const char *tag = pick_tag(s, rng);
        unsigned long long seed = ((unsigned long long)qg_rng_next(rng) << 32) | qg_rng_next(rng);
        qg_level *sub = fn(user, tag, b.w, b.h, seed);
        if (!sub)
            continue;
        qg_status st = resolve_all(sub, fn, user, rng, depth + 1, diags);
        long t = st == QG_OK ? fit_transform(level, &b, s, sub, rng) : -1;
        qg_level *fitted = t < 0 ? NULL : qg_level_transformed(sub, (unsigned)t);
        qg_level_free(sub);
        if (st == QG_ERR_LIMIT)
            return st;
        if (!fitted)
            continue;
        st = merge(level, &b, s, fitted, rng);
        qg_level_free(fitted);
        return st;
    }
    place_diag(diags, QG_ERROR, level, "SUBVAULT '%s': no map fits the %dx%d box", text, b.w, b.h);
    return QG_ERR_NOTFOUND;
}

static qg_status resolve_all(qg_level *level, qg_subvault_fn fn, void *user,
                             qg_rng *rng, int depth, qg_diags *diags)
{
    qg_status result = QG_OK;
    for (size_t i = 0; i < qg_level_property_count(level); i++) {
        const char *value;
        const char *key = qg_level_property(level, i, &value);
        if (strcmp(key, "subvault") != 0)
            continue;
        if (depth >= MAX_DEPTH) {
            place_diag(diags, QG_ERROR, level,
                       "SUBVAULT '%s': subvaults nested more than %d deep (a cycle?)",
                       value, MAX_DEPTH);
            return QG_ERR_LIMIT;
        }
        spec s;
        if (!parse_spec(value, &s)) {
            place_diag(diags, QG_ERROR, level, "bad SUBVAULT spec '%s'", value);
            result = QG_ERR_PARSE;
            continue;
        }
        qg_status st = apply_one(level, &s, value, fn, user, rng, depth, diags);
        if (st == QG_ERR_LIMIT)
            return st;
        if (st != QG_OK)
            result = st;
    }
    return result;
}

qg_status qg_level_resolve_subvaults(qg_level *level, qg_subvault_fn fn,
                                     void *user, unsigned long long seed,
                                     qg_diags *diags)
{
    if (!level || !fn)
        return QG_ERR_INVALID;
    qg_rng rng;
    qg_rng_seed(&rng, seed, 0x7375627661756c74ull);
    return resolve_all(level, fn, user, &rng, 0, diags);
}
