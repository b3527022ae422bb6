/* .des writer from a level. Every distinct cell (feature, monster, item,
 * extra masks, markers) gets one glyph: the feature's built-in glyph, a
 * MONS or ITEM slot, or a free glyph with K* lines. The header follows the
 * order Crawl's reviewers ask for. */
#include "formats/formats.h"
#include "des/glyphs.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEYS 255
#define MONS_SLOTS 7
#define ITEM_SLOTS 8

/* The masks KMASK can set or clear (Crawl's MMT bits). */
#define KMASK_BITS 0xFFu

typedef struct cell_key {
    char *feature;     /* Crawl feature name */
    char *monster;     /* MONS spec, or NULL */
    char *item;        /* ITEM spec, or NULL */
    int random_monster; /* glyph '0' or '9' for a random monster, else 0 */
    int random_item;    /* '%' or '*', else 0 */
    uint32_t masks;    /* the cell's KMASK bits */
    char *markers;     /* MARKER specs, '\n'-separated, or NULL */
    int32_t unmapped;  /* a feature index with no Crawl name (written as
                          floor under its own glyph), or -1 */
    int exit;          /* an exit cell: glyph '@' */
    unsigned char own; /* the glyph of its first cell */
    unsigned char glyph;
} cell_key;

typedef struct des_writer {
    const qg_level *level;
    const qg_write_options *options;
    qg_diags *diags;
    qg_buf *out;
    cell_key keys[MAX_KEYS];
    int key_count;
    unsigned char *cells;      /* per cell: 1 + key index, 0 outside */
    char *mons[MONS_SLOTS];
    int mons_count;
    char *items[ITEM_SLOTS];
    int item_count;
    int used[256];
    size_t lost_info, lost_special, lost_things, lost_exits, lost_random;
    uint32_t tag_masks;        /* masks the level's tags give every cell */
    int transparent;           /* the level has the "transparent" tag */
    int32_t *warned;           /* (kind << 24 | index) already reported */
    size_t warned_count, warned_cap;
    int failed;
} des_writer;

static void warn(des_writer *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void warn(des_writer *w, const char *fmt, ...)
{
    qg_buf message;
    qg_buf_init(&message);
    va_list ap;
    va_start(ap, fmt);
    qg_buf_vprintf(&message, fmt, ap);
    va_end(ap);
    qg_diags_add(w->diags, QG_WARNING, "", 0, 0, NULL, 0, "%s",
                 message.data ? message.data : "");
    qg_buf_free(&message);
}

/* A spec on one line: a line break and the indentation after it go, as
 * Crawl's backslash continuation joins lines. NULL stays NULL. */
static char *folded(const char *s)
{
    if (!s)
        return NULL;
    qg_buf out;
    qg_buf_init(&out);
    for (const char *p = s; *p; p++) {
        if (*p != '\n' && *p != '\r') {
            qg_buf_putc(&out, *p);
            continue;
        }
        while (p[1] == ' ' || p[1] == '\t' || p[1] == '\n' || p[1] == '\r')
            p++;
    }
    if (!out.data)
        qg_buf_puts(&out, "");
    return qg_buf_take(&out);
}

static int same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* Each unmapped index is reported once. */
static int first_report(des_writer *w, qg_vocab_kind kind, int32_t index)
{
    int32_t id = (int32_t)((uint32_t)kind << 24 | ((uint32_t)index & 0xFFFFFF));
    for (size_t i = 0; i < w->warned_count; i++)
        if (w->warned[i] == id)
            return 0;
    int32_t *slot = QG_PUSH(w->warned, w->warned_count, w->warned_cap);
    if (slot)
        *slot = id;
    return 1;
}

/* A Crawl name for an indexed thing, through the mapping. */
static const char *mapped(des_writer *w, qg_vocab_kind kind, int32_t index, const char *what,
                          const char *name)
{
    const qg_mapping *m = w->options ? w->options->mapping : NULL;
    const qg_mapping_entry *e = m ? qg_mapping_by_index(m, kind, index) : NULL;
    if (e && e->crawl_name[0])
        return e->crawl_name;
    if (first_report(w, kind, index))
        warn(w, "unmapped %s %d%s%s%s: %s", what, (int)index, name ? " (" : "",
             name ? name : "", name ? ")" : "",
             e ? "the mapping gives it no Crawl name" : "no mapping entry");
    return NULL;
}

static const char *feature_of(des_writer *w, const qg_cell *c, cell_key *k)
{
    k->unmapped = -1;
    if (c->feature < 0)
        return c->feature_name ? c->feature_name : des_glyph_info(c->glyph)->feature;
    const char *name = mapped(w, QG_VOCAB_FEATURE, c->feature, "feature", c->feature_name);
    if (!name)
        k->unmapped = c->feature;
    return name ? name : "floor";
}

static void monster_of(des_writer *w, const qg_thing *t, cell_key *k)
{
    if (t->kind == QG_THING_NAME) {
        k->monster = folded(t->name);
    } else if (t->kind == QG_THING_RANDOM) {
        /* '0' at depth, '9' five levels deeper, '8' 4 + absdepth deeper */
        k->random_monster = t->index == 0 ? '0' : t->index == 5 ? '9' : '8';
    } else if (t->kind == QG_THING_INDEX) {
        const char *name = mapped(w, QG_VOCAB_MONSTER, t->index, "monster", t->name);
        k->monster = folded(name);
    } else if (t->kind != QG_THING_NONE) {
        warn(w, ".des has no form for a %s monster (%d)", qg_thing_kind_name(t->kind),
             (int)t->index);
        w->lost_things++;
    }
}

static void item_of(des_writer *w, const qg_cell *c, cell_key *k)
{
    const qg_thing *art = &c->things[QG_SLOT_ARTIFACT];
    const qg_thing *obj = &c->things[QG_SLOT_OBJECT];
    if (art->kind == QG_THING_INDEX) {
        const char *name = mapped(w, QG_VOCAB_ARTIFACT, art->index, "artifact", art->name);
        k->item = folded(name);
    } else if (obj->kind == QG_THING_NAME) {
        k->item = folded(obj->name);
    } else if (obj->kind == QG_THING_RANDOM) {
        k->random_item = obj->index > 0 ? '*' : '%';
    } else if (obj->kind == QG_THING_INDEX) {
        const char *name = mapped(w, QG_VOCAB_OBJECT, obj->index, "object", obj->name);
        k->item = folded(name);
    }
    if ((art->kind != QG_THING_NONE && art->kind != QG_THING_INDEX) ||
        (art->kind == QG_THING_INDEX && obj->kind != QG_THING_NONE) ||
        c->things[QG_SLOT_EGO].kind != QG_THING_NONE ||
        (obj->kind != QG_THING_NONE && obj->kind != QG_THING_NAME &&
         obj->kind != QG_THING_RANDOM && obj->kind != QG_THING_INDEX))
        w->lost_things++;
}

static char *markers_at(const qg_level *level, int x, int y)
{
    qg_buf specs;
    qg_buf_init(&specs);
    for (size_t i = 0; i < qg_level_marker_count(level); i++) {
        int mx, my;
        const char *spec = qg_level_marker(level, i, &mx, &my);
        char *one = mx == x && my == y ? folded(spec) : NULL;
        if (one)
            qg_buf_printf(&specs, "%s%s", specs.len ? "\n" : "", one);
        free(one);
    }
    return specs.len ? qg_buf_take(&specs) : (qg_buf_free(&specs), NULL);
}

static void key_free(cell_key *k)
{
    free(k->feature);
    free(k->monster);
    free(k->item);
    free(k->markers);
}

static int same_key(const cell_key *a, const cell_key *b)
{
    return same_text(a->feature, b->feature) && same_text(a->monster, b->monster) &&
           same_text(a->item, b->item) && a->random_monster == b->random_monster &&
           a->random_item == b->random_item && a->masks == b->masks &&
           a->unmapped == b->unmapped && a->exit == b->exit &&
           same_text(a->markers, b->markers);
}

static int add_cell(void *user, int x, int y, const qg_cell *c)
{
    des_writer *w = user;
    cell_key k;
    memset(&k, 0, sizeof k);
    k.feature = folded(feature_of(w, c, &k));
    monster_of(w, &c->things[QG_SLOT_MONSTER], &k);
    item_of(w, c, &k);
    if (c->things[QG_SLOT_TRAP].kind != QG_THING_NONE)
        w->lost_things++;
    k.masks = c->vault_mask & KMASK_BITS;
    k.exit = (c->vault_mask & QG_MASK_EXIT) != 0;
    k.markers = markers_at(w->level, x, y);
    k.own = c->glyph;
    w->lost_info += c->cave_info != 0;
    w->lost_special += c->special || c->mimic || c->mflag;
    int i = 0;
    while (i < w->key_count && !same_key(&w->keys[i], &k))
        i++;
    if (i < w->key_count) {
        key_free(&k);
    } else if (w->key_count == MAX_KEYS || !k.feature) {
        key_free(&k);
        w->failed = 1;
        return 1;
    } else {
        w->keys[w->key_count++] = k;
    }
    w->cells[(size_t)y * (size_t)qg_level_width(w->level) + (size_t)x] = (unsigned char)(i + 1);
    return 0;
}

static void read_tags(des_writer *w)
{
    const char *tags = qg_level_get_property(w->level, "tags");
    w->tag_masks = QG_MASK_VAULT;
    while (tags && *tags) {
        size_t n = strcspn(tags, " ");
        char word[64];
        if (n < sizeof word) {
            memcpy(word, tags, n);
            word[n] = '\0';
            w->tag_masks |= qg_mask_from_name(word) & KMASK_BITS;
            w->transparent |= strcmp(word, "transparent") == 0;
        }
        tags += n + (tags[n] == ' ');
    }
}

/* The KMASK bits a placed map gives a glyph by itself (Crawl's vault
 * masks: the tags' flags, opaque unless transparent or an exit, no traps
 * under the built-in items). */
static uint32_t automatic_masks(const des_writer *w, unsigned char g)
{
    uint32_t m = w->tag_masks;
    if (!w->transparent && g != '@')
        m |= QG_MASK_OPAQUE;
    if (g && strchr("$%*|", g))
        m |= QG_MASK_NO_TRAP_GEN;
    return m;
}

static int reserved_glyph(unsigned char g)
{
    return g <= ' ' || g >= 0x7F || (g >= '0' && g <= '9') || (g >= 'd' && g <= 'k') ||
           strchr("$%*|@", g);
}

static int builtin(unsigned char g, const char *feature)
{
    return strcmp(des_glyph_info(g)->feature, feature) == 0;
}

/* A glyph belongs to one key only, so KMASK and MARKER lines may go with
 * any glyph; KFEAT, KMONS and KITEM are what the built-in glyphs spare. */
static int plain(const cell_key *k)
{
    return !k->monster && !k->item && !k->random_monster && !k->random_item &&
           k->unmapped < 0;
}

static unsigned char take(des_writer *w, unsigned char g)
{
    w->used[g] = 1;
    return g;
}

/* The feature's own glyph, the cell's glyph first. */
static unsigned char builtin_glyph(des_writer *w, const cell_key *k)
{
    static const char table[] = ".xXcvbmnot+=wWl><}{)(][ABCIGTUVY^";
    if (!reserved_glyph(k->own) && !w->used[k->own] && builtin(k->own, k->feature))
        return take(w, k->own);
    for (const char *g = table; *g; g++)
        if (!w->used[(unsigned char)*g] && builtin((unsigned char)*g, k->feature))
            return take(w, (unsigned char)*g);
    return 0;
}

/* A spec that is itself a glyph ("0", "%", …) means something else in a
 * MONS or ITEM list than under KMONS or KITEM, so it stays keyed. */
static int glyph_spec(const char *spec)
{
    return spec && spec[0] && !spec[1];
}

/* Item names the runtime gives the built-in item glyphs. */
static unsigned char item_glyph(const cell_key *k)
{
    if (k->random_item)
        return (unsigned char)k->random_item;
    if (k->item && strcmp(k->item, "gold") == 0)
        return '$';
    if (k->item && strcmp(k->item, "superb item") == 0)
        return '|';
    return 0;
}

/* An exit, or a MONS or ITEM slot (or built-in glyph) for a lone monster
 * or item on floor. */
static unsigned char slot_glyph(des_writer *w, const cell_key *k)
{
    if (strcmp(k->feature, "floor") != 0 || k->unmapped >= 0)
        return 0;
    int things = (k->monster || k->random_monster) + (k->item || k->random_item);
    if (k->exit)
        return !things && !w->used['@'] ? take(w, '@') : 0;
    unsigned char builtin_item = item_glyph(k);
    if (things != 1 || glyph_spec(k->monster) || glyph_spec(k->item))
        return 0;
    /* a built-in thing glyph goes first to a cell that needs no KMASK */
    unsigned char builtin_thing = k->random_monster ? (unsigned char)k->random_monster
                                                    : builtin_item;
    if (builtin_thing)
        return k->masks == automatic_masks(w, builtin_thing) && !w->used[builtin_thing]
                   ? take(w, builtin_thing)
                   : 0;
    char **slots = k->monster ? w->mons : w->items;
    int *count = k->monster ? &w->mons_count : &w->item_count;
    int max = k->monster ? MONS_SLOTS : ITEM_SLOTS;
    const char *spec = k->monster ? k->monster : k->item;
    if (*count == max || strchr(spec, ','))
        return 0;
    slots[*count] = qg_strdup(spec);
    return take(w, (unsigned char)((k->monster ? '1' : 'd') + (*count)++));
}

static unsigned char free_glyph(des_writer *w, const cell_key *k)
{
    static const char pool[] = "aDEFHJKLMNOPQRSZpqrsuyz&~!?_-;'`#\"";
    if (k->exit && !w->used['@'])
        return take(w, '@');
    if (k->exit)
        w->lost_exits++;
    /* a built-in thing glyph keeps its thing under KFEAT and KMONS */
    unsigned char things[] = {(unsigned char)k->random_item, item_glyph(k),
                              (unsigned char)k->random_monster};
    for (size_t i = 0; i < sizeof things; i++)
        if (things[i] && !w->used[things[i]])
            return take(w, things[i]);
    if (k->random_item || k->random_monster)
        w->lost_random++;
    if (!reserved_glyph(k->own) && !w->used[k->own] && k->own != ',' && k->own != ':')
        return take(w, k->own);
    for (const char *g = pool; *g; g++)
        if (!w->used[(unsigned char)*g])
            return take(w, (unsigned char)*g);
    return 0;
}

static int assign_glyphs(des_writer *w)
{
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < w->key_count; i++) {
            cell_key *k = &w->keys[i];
            if (k->glyph)
                continue;
            if (pass == 0 && plain(k) && !k->exit)
                k->glyph = builtin_glyph(w, k);
            else if (pass == 1)
                k->glyph = slot_glyph(w, k);
            else if (pass == 2 && !(k->glyph = free_glyph(w, k)))
                return 0;
        }
    return 1;
}

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
        if (k->item && !(k->glyph >= 'd' && k->glyph <= 'k') && k->glyph != item_glyph(k))
            qg_buf_printf(w->out, "KITEM: %c = %s\n", k->glyph, k->item);
        else if (k->random_item && k->glyph != k->random_item)
            qg_buf_printf(w->out, "KITEM: %c = %s\n", k->glyph,
                          k->random_item == '*' ? "star_item" : "any");
    }
}

static void put_keyed(des_writer *w)
{
    for (int i = 0; i < w->key_count; i++) {
        const cell_key *k = &w->keys[i];
        if (k->unmapped >= 0)
            qg_buf_printf(w->out, "# '%c' stands for feature %d, which has no Crawl name\n",
                          k->glyph, (int)k->unmapped);
        if (!builtin(k->glyph, k->feature) || k->unmapped >= 0)
            qg_buf_printf(w->out, "KFEAT: %c = %s\n", k->glyph, k->feature);
    }
    static const char *const kmask_names[] = {
        "vault", "no_item_gen", "no_monster_gen", "no_pool_fixup", "allow_tele_closets",
        "no_wall_fixup", "opaque", "no_trap_gen"};
    for (int i = 0; i < w->key_count; i++) {
        const cell_key *k = &w->keys[i];
        uint32_t differ = k->masks ^ automatic_masks(w, k->glyph);
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
        char *one_line = folded(value);
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
        warn(w, ".des has no directive for %zu level properties (quest records, …); "
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
        warn(w, "%d empty rows above and %d below the map are left out (.des has no "
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
        warn(w, "%d empty columns right of the map are left out (.des trims MAP lines)",
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
        warn(w, ".des has no cave_info flags (%zu cells have some)", w->lost_info);
    if (w->lost_special)
        warn(w, ".des has no special, mimic or mflag values (%zu cells)", w->lost_special);
    if (w->lost_things)
        warn(w, ".des has no form for traps, egos, clones, rewards or a second item "
                "(%zu cells)", w->lost_things);
    if (w->lost_exits)
        warn(w, "exit cells of %zu more kinds are left out of '@' (only one kind of cell "
                "can be '@')", w->lost_exits);
    if (w->lost_random)
        warn(w, "random things on %zu more kinds of cells are left out of their built-in "
                "glyphs and written as KMONS 0 or KITEM any", w->lost_random);
    if (qg_level_player_start(w->level, NULL, NULL))
        warn(w, ".des has no player start");
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
    read_tags(w);
    qg_level_foreach(level, add_cell, w);
    qg_status status = QG_OK;
    if (w->failed || !assign_glyphs(w)) {
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
        key_free(&w->keys[i]);
    for (int i = 0; i < w->mons_count; i++)
        free(w->mons[i]);
    for (int i = 0; i < w->item_count; i++)
        free(w->items[i]);
    free(w->warned);
    free(cells);
    free(w);
    return status;
}
