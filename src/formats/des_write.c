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

/* The properties a .des map states itself: in the header (no directive
 * here), by a directive of their own, or as the .des front end's
 * provenance (""). */
static const struct {
    const char *key, *directive;
} des_properties[] = {
    {"tags", NULL}, {"depth", NULL}, {"place", NULL}, {"orient", NULL},
    {"lfloorcol", "LFLOORCOL"}, {"lrockcol", "LROCKCOL"}, {"lfloortile", "LFLOORTILE"},
    {"lrocktile", "LROCKTILE"}, {"desc", "DESC"}, {"chance", "CHANCE"}, {"weight", "WEIGHT"},
    {"order", "ORDER"}, {"subvault", ""}, {"name", ""}, {"kind", ""}, {"file", ""},
    {"line", ""}};

static int des_property(const char *key)
{
    for (size_t i = 0; i < sizeof des_properties / sizeof *des_properties; i++)
        if (strcmp(key, des_properties[i].key) == 0)
            return (int)i;
    return -1;
}

/* Properties with a directive of their own; the others travel in #qg:prop
 * lines (comments when no #qg: lines are written). */
static void put_other_properties(des_writer *w)
{
    size_t commented = 0;
    for (size_t i = 0; i < qg_level_property_count(w->level); i++) {
        const char *value;
        const char *key = qg_level_property(w->level, i, &value);
        int at = des_property(key);
        if (at >= 0 && !des_properties[at].directive)
            continue;
        char *one_line = des_folded(value);
        if (at >= 0 && des_properties[at].directive[0]) {
            qg_buf_printf(w->out, "%s: %s\n", des_properties[at].directive,
                          one_line ? one_line : "");
        } else if (!w->ext) {
            qg_buf_printf(w->out, "# %s: %s\n", key, one_line ? one_line : "");
            /* a resolved level holds its subvaults already: they are noted */
            commented += strcmp(key, "subvault") != 0;
        }
        free(one_line);
    }
    if (commented)
        des_warn(w, ".des has no directive for %zu level properties (quest records, …); "
                "they are written as comments", commented);
}

/* Properties no .des directive carries (those of other formats). */
static size_t foreign_properties(const des_writer *w)
{
    size_t count = 0;
    for (size_t i = 0; i < qg_level_property_count(w->level); i++) {
        const char *value;
        count += des_property(qg_level_property(w->level, i, &value)) < 0;
    }
    return count;
}

static int row_empty(const des_writer *w, int y)
{
    const unsigned char *row = w->cells + (size_t)y * (size_t)qg_level_width(w->level);
    for (int x = 0; x < qg_level_width(w->level); x++)
        if (row[x])
            return 0;
    return 1;
}

/* The MAP block's extent: the rows from the first to the last that hold
 * a cell of the map, the columns up to the rightmost such cell. */
static int plan_map(des_writer *w)
{
    int width = qg_level_width(w->level), height = qg_level_height(w->level);
    int top = 0, bottom = height, gaps = 0;
    while (top < height && row_empty(w, top))
        top++;
    while (bottom > top && row_empty(w, bottom - 1))
        bottom--;
    for (int y = top; y < bottom; y++)
        gaps += row_empty(w, y);
    int right = width;
    while (right > 0) {
        int used = 0;
        for (int y = 0; y < height && !used; y++)
            used = w->cells[(size_t)y * (size_t)width + (size_t)right - 1] != 0;
        if (used)
            break;
        right--;
    }
    /* a level with no cell of the map still needs a MAP line */
    if (top == bottom) {
        top = 0;
        bottom = 1;
        gaps = 1;
    }
    w->top = top;
    w->bottom = bottom;
    w->right = right;
    return gaps;
}

/* Crawl's limit of a map (GXM x GYM). */
#define CRAWL_WIDTH 80
#define CRAWL_HEIGHT 70

static int fits_crawl(des_writer *w)
{
    int width = w->right, height = w->bottom - w->top;
    if (width <= CRAWL_WIDTH && height <= CRAWL_HEIGHT)
        return 1;
    if (w->options && w->options->des_oversize) {
        qg_diags_add(w->diags, QG_NOTE, "", 0, 0, NULL, 0,
                     "the map is %d x %d, larger than Crawl's %d x %d: written for questgrid, "
                     "Crawl will not load it", width, height, CRAWL_WIDTH, CRAWL_HEIGHT);
        return 1;
    }
    qg_diags_add(w->diags, QG_ERROR, "", 0, 0, NULL, 0,
                 "the map is %d x %d, larger than Crawl's %d x %d: Crawl cannot load it (give "
                 "--oversize to write it anyway, for questgrid, which reads it back)",
                 width, height, CRAWL_WIDTH, CRAWL_HEIGHT);
    return 0;
}

static int put_map(des_writer *w)
{
    int width = qg_level_width(w->level), height = qg_level_height(w->level);
    if (w->top || w->bottom < height)
        des_warn(w, "%d empty rows above and %d below the map are left out (.des has no "
                "empty MAP lines)", w->top, height - w->bottom);
    if (w->right < width)
        des_warn(w, "%d empty columns right of the map are left out (.des trims MAP lines)",
             width - w->right);
    qg_buf_puts(w->out, "MAP\n");
    for (int y = w->top; y < w->bottom; y++) {
        const unsigned char *row = w->cells + (size_t)y * (size_t)width;
        if (row_empty(w, y)) {
            if (!w->outside) {
                qg_diags_add(w->diags, QG_ERROR, "", 0, 0, NULL, 0,
                             "row %d has no cell of the map: .des cannot write an empty MAP "
                             "line", y);
                return 0;
            }
            qg_buf_putc(w->out, (char)w->outside);
            des_warn(w, "row %d has no cell of the map: written as '%c' (floor in Crawl), "
                    "which questgrid reads back as outside the map", y, w->outside);
        }
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

/* With #qg: lines nothing is lost for questgrid: one note says what
 * Crawl, which skips them, will not see. */
static void note_crawl_losses(des_writer *w)
{
    qg_buf what;
    qg_buf_init(&what);
    if (w->lost_info)
        qg_buf_printf(&what, ", cave_info on %zu cells", w->lost_info);
    if (w->lost_special)
        qg_buf_printf(&what, ", specials on %zu cells", w->lost_special);
    if (w->lost_things)
        qg_buf_printf(&what, ", traps, egos, clones or second items on %zu cells", w->lost_things);
    if (w->lost_indices)
        qg_buf_printf(&what, ", F:/D: indices on %zu cells", w->lost_indices);
    if (qg_level_player_start(w->level, NULL, NULL))
        qg_buf_puts(&what, ", the player start");
    size_t props = foreign_properties(w);
    if (props)
        qg_buf_printf(&what, ", %zu level properties", props);
    if (what.len)
        qg_diags_add(w->diags, QG_NOTE, "", 0, 0, NULL, 0,
                     "Crawl skips the #qg: lines, so it does not see%s; questgrid reads them "
                     "back", what.data + 1);
    qg_buf_free(&what);
}

static void report_losses(des_writer *w)
{
    if (w->ext) {
        note_crawl_losses(w);
        if (w->lost_exits)
            des_warn(w, "exit cells of %zu more kinds are left out of '@' (only one kind of "
                    "cell can be '@')", w->lost_exits);
        return;
    }
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

static int says_more(void *user, int x, int y, const qg_cell *c)
{
    (void)user;
    (void)x;
    (void)y;
    if (c->feature >= 0 || c->cave_info || c->special || c->mimic || c->mflag)
        return 1;
    for (int s = 0; s < QG_SLOTS; s++)
        if (c->things[s].kind != QG_THING_NONE && c->things[s].kind != QG_THING_NAME &&
            c->things[s].kind != QG_THING_RANDOM)
            return 1;
    return c->things[QG_SLOT_TRAP].kind != QG_THING_NONE;
}

/* Whether the cells or the start hold what Crawl's directives cannot
 * say. */
static int cells_need_extensions(const des_writer *w)
{
    return qg_level_player_start(w->level, NULL, NULL) ||
           qg_level_foreach(w->level, says_more, NULL);
}

static void free_keys(des_writer *w)
{
    for (int i = 0; i < w->key_count; i++)
        des_key_free(&w->keys[i]);
    for (int i = 0; i < w->mons_count; i++)
        free(w->mons[i]);
    for (int i = 0; i < w->item_count; i++)
        free(w->items[i]);
    w->key_count = w->mons_count = w->item_count = 0;
    memset(w->used, 0, sizeof w->used);
    w->lost_info = w->lost_special = w->lost_things = w->lost_exits = w->lost_random = 0;
    w->lost_indices = 0;
    w->outside = 0;
    w->failed = 0;
}

/* The keys of the level's cells and their glyphs; 0 when the glyphs ran
 * out (w->failed). */
static int collect_keys(des_writer *w, int split)
{
    const qg_level *level = w->level;
    w->split = split;
    qg_level_foreach(level, des_add_cell, w);
    int gaps = plan_map(w);
    if (w->failed || !des_assign_glyphs(w) ||
        (gaps && w->ext && !(w->outside = des_spare_glyph(w))))
        w->failed = 1;
    return !w->failed;
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
    qg_status status = QG_OK;
    int own_glyphs = cells_need_extensions(w);
    w->ext = own_glyphs || foreign_properties(w) || (options && options->des_oversize);
    /* Keys of one glyph each give the cells their own glyphs back; when
     * .des runs out of glyphs, cells share keys and #qg:cell lines carry
     * what differs. A level that Crawl's directives say whole keeps
     * Crawl's own sharing. */
    if (!collect_keys(w, own_glyphs) && own_glyphs) {
        free_keys(w);
        collect_keys(w, 0);
    }
    if (w->failed) {
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                     "the level has more distinct cells than .des has glyphs for");
        status = QG_ERR_LIMIT;
    } else if (!fits_crawl(w)) {
        status = QG_ERR_LIMIT;
    } else {
        put_header(w);
        put_lists(w);
        put_keyed(w);
        if (w->outside)
            qg_buf_printf(w->out, "KFEAT: %c = floor\n", w->outside);
        put_other_properties(w);
        if (w->ext)
            des_put_extensions(w);
        if (!put_map(w))
            status = QG_ERR_LIMIT;
        report_losses(w);
        if (buf.failed)
            status = QG_ERR_NOMEM;
    }
    /* what the translator refused is reported by its caller: no file */
    if (status == QG_OK && options && options->translator &&
        qg_translator_refused(options->translator))
        status = QG_ERR_INVALID;
    if (status == QG_OK) {
        *len = buf.len;
        *out = qg_buf_take(&buf);
    }
    qg_buf_free(&buf);
    free_keys(w);
    qg_reported_free(&w->reported);
    free(cells);
    free(w);
    return status;
}

