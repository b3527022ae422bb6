/* Level comparison: what round-trip tests and fidelity reports measure. */
#include "formats/formats.h"

#include <stdio.h>
#include <string.h>

static int same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static int differ(char *what, size_t what_len, const char *thing)
{
    if (what && what_len)
        snprintf(what, what_len, "%s", thing);
    return 0;
}

static int differ_at(char *what, size_t what_len, const char *thing, int x, int y)
{
    if (what && what_len)
        snprintf(what, what_len, "%s at (%d,%d)", thing, x, y);
    return 0;
}

static int same_things(const qg_cell *a, const qg_cell *b)
{
    for (int s = 0; s < QG_SLOTS; s++)
        if (a->things[s].kind != b->things[s].kind ||
            a->things[s].index != b->things[s].index ||
            !same_text(a->things[s].name, b->things[s].name) ||
            a->things[s].chance != b->things[s].chance || a->things[s].flags != b->things[s].flags ||
            a->things[s].depth != b->things[s].depth)
            return 0;
    return 1;
}

static int same_cells(const qg_level *a, const qg_level *b, char *what, size_t what_len)
{
    for (int y = 0; y < qg_level_height(a); y++)
        for (int x = 0; x < qg_level_width(a); x++) {
            qg_cell ca, cb;
            qg_level_cell(a, x, y, &ca);
            qg_level_cell(b, x, y, &cb);
            if (ca.in_map != cb.in_map || ca.glyph != cb.glyph)
                return differ_at(what, what_len, "glyph or extent", x, y);
            if (ca.feature != cb.feature || !same_text(ca.feature_name, cb.feature_name) ||
                ca.feature_chance != cb.feature_chance)
                return differ_at(what, what_len, "feature", x, y);
            if (ca.cave_info != cb.cave_info || ca.vault_mask != cb.vault_mask)
                return differ_at(what, what_len, "cell flags", x, y);
            if (ca.special != cb.special || ca.mimic != cb.mimic || ca.mflag != cb.mflag)
                return differ_at(what, what_len, "special/mimic/mflag", x, y);
            if (!same_things(&ca, &cb))
                return differ_at(what, what_len, "things", x, y);
        }
    return 1;
}

static int same_markers(const qg_level *a, const qg_level *b, char *what, size_t what_len)
{
    if (qg_level_marker_count(a) != qg_level_marker_count(b))
        return differ(what, what_len, "marker count");
    for (size_t i = 0; i < qg_level_marker_count(a); i++) {
        int ax, ay, bx, by;
        const char *sa = qg_level_marker(a, i, &ax, &ay);
        const char *sb = qg_level_marker(b, i, &bx, &by);
        if (ax != bx || ay != by || !same_text(sa, sb))
            return differ_at(what, what_len, "marker", ax, ay);
    }
    return 1;
}

static int same_properties(const qg_level *a, const qg_level *b, char *what,
                           size_t what_len)
{
    if (qg_level_property_count(a) != qg_level_property_count(b))
        return differ(what, what_len, "property count");
    for (size_t i = 0; i < qg_level_property_count(a); i++) {
        const char *va, *vb;
        const char *ka = qg_level_property(a, i, &va);
        const char *kb = qg_level_property(b, i, &vb);
        if (!same_text(ka, kb) || !same_text(va, vb))
            return differ(what, what_len, ka);
    }
    return 1;
}

int qg_level_equal(const qg_level *a, const qg_level *b, char *what, size_t what_len)
{
    if (qg_level_width(a) != qg_level_width(b) || qg_level_height(a) != qg_level_height(b))
        return differ(what, what_len, "size");
    if (!same_cells(a, b, what, what_len) || !same_markers(a, b, what, what_len))
        return 0;
    int ha, hb, ax = 0, ay = 0, bx = 0, by = 0;
    ha = qg_level_player_start(a, &ax, &ay);
    hb = qg_level_player_start(b, &bx, &by);
    if (ha != hb || ax != bx || ay != by)
        return differ(what, what_len, "player start");
    if (!same_text(qg_level_name(a), qg_level_name(b)))
        return differ(what, what_len, "name");
    return same_properties(a, b, what, what_len);
}
