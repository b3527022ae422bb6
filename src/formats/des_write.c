/* .des writer from a level. Every distinct cell (feature, monster, item,
 * extra masks, markers) gets one glyph: the feature's built-in glyph, a
 * MONS or ITEM slot, or a free glyph with K* lines. The header follows the
 * order Crawl's reviewers ask for. */
#include "formats/des_write.h"

#include <stdlib.h>
#include <string.h>

/* A level name as a .des NAME: no spaces. */
static void put_name(des_writer *w)
{
    const char *name = qg_level_name(w->level);
    qg_buf_puts(w->out, "NAME: ");
    for (const char *p = name && *name ? name : "converted_level"; *p; p++)
        qg_buf_putc(w->out, *p == ' ' || (unsigned char)*p < ' ' ? '_' : *p);
    qg_buf_putc(w->out, '\n');
}

static void put_header(des_writer *w)
{
    const qg_level *l = w->level;
    put_name(w);
    const char *tags = qg_level_get_property(l, "tags");
    const char *depth = qg_level_get_property(l, "depth");
    const char *place = qg_level_get_property(l, "place");
    const char *orient = qg_level_get_property(l, "orient");
    if (tags && *tags)
        qg_buf_printf(w->out, "TAGS: %s\n", tags);
    else if (!tags)
        /* a level that is not from .des keeps its cells where they are */
        qg_buf_puts(w->out, "TAGS: converted no_rotate no_hmirror no_vmirror\n");
    if (depth)
        qg_buf_printf(w->out, "DEPTH: %s\n", depth);
    if (place)
        qg_buf_printf(w->out, "PLACE: %s\n", place);
    const char *kind = qg_level_get_property(l, "kind");
    if (orient && *orient)
        qg_buf_printf(w->out, "ORIENT: %s\n", orient);
    else if (!orient && kind && (!strcmp(kind, "quest") || !strcmp(kind, "town")))
        qg_buf_puts(w->out, "ORIENT: encompass\n");
}

static void put_lists(des_writer *w)
{
    if (w->mons_count) {
        qg_buf_puts(w->out, "MONS: ");
        for (int i = 0; i < w->mons_count; i++)
            qg_buf_printf(w->out, "%s%s", i ? ", " : "", w->mons[i]);
        qg_buf_putc(w->out, '\n');
    }
    for (int i = 0; i < w->key_count; i++) {
        const cell_key *k = &w->keys[i];
        if (k->monster && !(k->glyph >= '1' && k->glyph <= '7'))
            qg_buf_printf(w->out, "KMONS: %c = %s\n", k->glyph, k->monster);
        else if (k->random_monster && k->glyph != k->random_monster)
            qg_buf_printf(w->out, "KMONS: %c = %c\n", k->glyph, k->random_monster);
    }
    if (w->item_count) {
        qg_buf_puts(w->out, "ITEM: ");
        for (int i = 0; i < w->item_count; i++)
            qg_buf_printf(w->out, "%s%s", i ? ", " : "", w->items[i]);
        qg_buf_putc(w->out, '\n');
    }
    for (int i = 0; i < w->key_count; i++) {
        const cell_key *k = &w->keys[i];
        if (k->item && !(k->glyph >= 'd' && k->glyph <= 'k') && k->glyph != des_item_glyph(k))
            qg_buf_printf(w->out, "KITEM: %c = %s\n", k->glyph, k->item);
        else if (k->random_item && k->glyph != k->random_item)
            qg_buf_printf(w->out, "KITEM: %c = %s\n", k->glyph,
                          k->random_item == '*' ? "star_item" : "any");
    }
}

/* The glyph carries a KMONS or KITEM line (see put_lists). */
static int keyed_thing(const cell_key *k)
{
    return (k->monster && !(k->glyph >= '1' && k->glyph <= '7')) ||
           (k->random_monster && k->glyph != k->random_monster) ||
           (k->item && !(k->glyph >= 'd' && k->glyph <= 'k') && k->glyph != des_item_glyph(k)) ||
           (k->random_item && k->glyph != k->random_item);
}

static void put_keyed(des_writer *w)
{
    for (int i = 0; i < w->key_count; i++) {
        const cell_key *k = &w->keys[i];
        if (k->unmapped >= 0)
            qg_buf_printf(w->out, "# '%c' stands for feature %d, which has no Crawl name\n",
                          k->glyph, (int)k->unmapped);
        /* a KMONS or KITEM glyph without KFEAT is floor (mapdef.cc
         * keyed_mapspec::get_feat) */
        if (!des_builtin(k->glyph, k->feature) || k->unmapped >= 0 ||
            (keyed_thing(k) && strcmp(k->feature, "floor") != 0))
            qg_buf_printf(w->out, "KFEAT: %c = %s\n", k->glyph, k->feature);
    }
    static const char *const kmask_names[] = {
        "vault", "no_item_gen", "no_monster_gen", "no_pool_fixup", "allow_tele_closets",
        "no_wall_fixup", "opaque", "no_trap_gen"};
    for (int i = 0; i < w->key_count; i++) {
        const cell_key *k = &w->keys[i];
        uint32_t differ = k->masks ^ des_automatic_masks(w, k->glyph);
        if (!differ)
            continue;
        qg_buf_printf(w->out, "KMASK: %c = ", k->glyph);
        for (int bit = 0, first = 1; bit < 8; bit++)
            if (differ & (1u << bit)) {
                qg_buf_printf(w->out, "%s%s%s", first ? "" : " / ",
                              k->masks & (1u << bit) ? "" : "!", kmask_names[bit]);
                first = 0;
            }
        qg_buf_putc(w->out, '\n');
    }
    for (int i = 0; i < w->key_count; i++) {
        const char *m = w->keys[i].markers;
        while (m && *m) {
            const char *end = strchr(m, '\n');
            size_t len = end ? (size_t)(end - m) : strlen(m);
            if (len > 6 && strncmp(m, "kprop:", 6) == 0)
                qg_buf_printf(w->out, "KPROP: %c = %.*s\n", w->keys[i].glyph, (int)len - 6, m + 6);
            else
                qg_buf_printf(w->out, "MARKER: %c = %.*s\n", w->keys[i].glyph, (int)len, m);
            m = end ? end + 1 : NULL;
        }
    }
}

/* Properties .des has no directive for become comments. */
static void put_other_properties(des_writer *w)
{
    static const char *const written[] = {"tags", "depth", "place", "orient", NULL};
    static const char *const directives[][2] = {
        {"lfloorcol", "LFLOORCOL"}, {"lrockcol", "LROCKCOL"}, {"lfloortile", "LFLOORTILE"},
        {"lrocktile", "LROCKTILE"}, {"desc", "DESC"},
        {"chance", "CHANCE"}, {"weight", "WEIGHT"}, {"order", "ORDER"}};
    size_t commented = 0;
    for (size_t i = 0; i < qg_level_property_count(w->level); i++) {
        const char *value;
        const char *key = qg_level_property(w->level, i, &value);
        int done = 0;
        for (int j = 0; written[j] && !done; j++)
            done = strcmp(key, written[j]) == 0;
        char *one_line = des_folded(value);
        for (size_t j = 0; j < sizeof directives / sizeof *directives && !done; j++)
            if (strcmp(key, directives[j][0]) == 0) {
                qg_buf_printf(w->out, "%s: %s\n", directives[j][1], one_line ? one_line : "");
                done = 1;
            }
        /* a resolved level holds its subvaults already: they are noted */
        if (!done) {
            qg_buf_printf(w->out, "# %s: %s\n", key, one_line ? one_line : "");
            commented += strcmp(key, "subvault") != 0;
        }
        free(one_line);
    }
    if (commented)
        des_warn(w, ".des has no directive for %zu level properties (quest records, …); "
                "they are written as comments", commented);
}

static int row_empty(const des_writer *w, int y)
{
    const unsigned char *row = w->cells + (size_t)y * (size_t)qg_level_width(w->level);
    for (int x = 0; x < qg_level_width(w->level); x++)
        if (row[x])
            return 0;
    return 1;
}

static int put_map(des_writer *w)
{
    int width = qg_level_width(w->level), height = qg_level_height(w->level);
    int top = 0, bottom = height;
    while (top < height && row_empty(w, top))
        top++;
    while (bottom > top && row_empty(w, bottom - 1))
        bottom--;
    if (top || bottom < height)
        des_warn(w, "%d empty rows above and %d below the map are left out (.des has no "
                "empty MAP lines)", top, height - bottom);
    int right = width;
    while (right > 0) {
        int used = 0;
        for (int y = 0; y < height && !used; y++)
            used = w->cells[(size_t)y * (size_t)width + (size_t)right - 1] != 0;
        if (used)
            break;
        right--;
    }
    if (right < width)
        des_warn(w, "%d empty columns right of the map are left out (.des trims MAP lines)",
             width - right);
    qg_buf_puts(w->out, "MAP\n");
    for (int y = top; y < bottom; y++) {
        if (row_empty(w, y)) {
            qg_diags_add(w->diags, QG_ERROR, "", 0, 0, NULL, 0,
                         "row %d has no cell of the map: .des cannot write an empty MAP line", y);
            return 0;
        }
        const unsigned char *row = w->cells + (size_t)y * (size_t)width;
        int end = width;
        while (end > 0 && !row[end - 1])
            end--;
        for (int x = 0; x < end; x++)
            qg_buf_putc(w->out, row[x] ? w->keys[row[x] - 1].glyph : ' ');
        qg_buf_putc(w->out, '\n');
    }
    qg_buf_puts(w->out, "ENDMAP\n");
    return 1;
}

static void report_losses(des_writer *w)
{
    if (w->lost_info)
        des_warn(w, ".des has no cave_info flags (%zu cells have some)", w->lost_info);
    if (w->lost_special)
        des_warn(w, ".des has no special, mimic or mflag values (%zu cells)", w->lost_special);
    if (w->lost_things)
        des_warn(w, ".des has no form for traps, egos, clones, rewards or a second item "
                "(%zu cells)", w->lost_things);
    if (w->lost_exits)
        des_warn(w, "exit cells of %zu more kinds are left out of '@' (only one kind of cell "
                "can be '@')", w->lost_exits);
    if (w->lost_random)
        des_warn(w, "random things on %zu more kinds of cells are left out of their built-in "
                "glyphs and written as KMONS 0 or KITEM any", w->lost_random);
    if (qg_level_player_start(w->level, NULL, NULL))
        des_warn(w, ".des has no player start");
}

qg_status qg_des_write_level(const qg_level *level, const qg_write_options *options,
                             char **out, size_t *len, qg_diags *diags)
{
    des_writer *w = calloc(1, sizeof *w);
    size_t n = (size_t)qg_level_width(level) * (size_t)qg_level_height(level);
    unsigned char *cells = calloc(n, 1);
    qg_buf buf;
    qg_buf_init(&buf);
    if (!w || !cells) {
        free(w);
        free(cells);
        return QG_ERR_NOMEM;
    }
    w->level = level;
    w->options = options;
    w->diags = diags;
    w->out = &buf;
    w->cells = cells;
    des_read_tags(w);
    qg_level_foreach(level, des_add_cell, w);
    qg_status status = QG_OK;
    if (w->failed || !des_assign_glyphs(w)) {
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                     "the level has more distinct cells than .des has glyphs for");
        status = QG_ERR_LIMIT;
    } else {
        put_header(w);
        put_lists(w);
        put_keyed(w);
        put_other_properties(w);
        if (!put_map(w))
            status = QG_ERR_LIMIT;
        report_losses(w);
        if (buf.failed)
            status = QG_ERR_NOMEM;
    }
    if (status == QG_OK) {
        *len = buf.len;
        *out = qg_buf_take(&buf);
    }
    qg_buf_free(&buf);
    for (int i = 0; i < w->key_count; i++)
        des_key_free(&w->keys[i]);
    for (int i = 0; i < w->mons_count; i++)
        free(w->mons[i]);
    for (int i = 0; i < w->item_count; i++)
        free(w->items[i]);
    qg_reported_free(&w->reported);
    free(cells);
    free(w);
    return status;
}

