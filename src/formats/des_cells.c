/* The .des writer's keys: each distinct cell of a level (Crawl feature
 * name, monster and item specs, masks, markers, exit), with F:/D: indices
 * named through the mapping. */
#include "formats/des_write.h"
#include "des/glyphs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void des_warn(des_writer *w, const char *fmt, ...)
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
char *des_folded(const char *s)
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

/* A Crawl name for an indexed thing, through the mapping. */
static const char *mapped(des_writer *w, qg_vocab_kind kind, int32_t index, const char *what,
                          const char *name)
{
    const qg_mapping *m = w->options ? w->options->mapping : NULL;
    const qg_mapping_entry *e = m ? qg_mapping_by_index(m, kind, index) : NULL;
    if (e && e->crawl_name[0])
        return e->crawl_name;
    if (qg_reported_first(&w->reported, kind, index))
        des_warn(w, "unmapped %s %d%s%s%s: %s", what, (int)index, name ? " (" : "",
             name ? name : "", name ? ")" : "",
             e ? "the mapping gives it no Crawl name" : "no mapping entry");
    return NULL;
}

/* The target game's name for a feature or thing, through the translator
 * (which reports what it cannot map); NULL when it refuses. */
static qg_translator *translator_of(const des_writer *w)
{
    return w->options ? w->options->translator : NULL;
}

static const char *feature_of(des_writer *w, const qg_cell *c, cell_key *k)
{
    k->unmapped = -1;
    qg_translator *tr = translator_of(w);
    /* a cell an Angband-family letter gives no feature is floor: its glyph
     * is that file's letter, not Crawl's */
    if (tr && c->feature < 0 && !c->feature_name &&
        !qg_game_is_crawl(qg_translator_source(tr)))
        return "floor";
    if (tr && (c->feature >= 0 || c->feature_name)) {
        int32_t index;
        const char *name;
        if (qg_translate_feature(tr, c->feature, c->feature_name, &index, &name))
            return name;
        k->unmapped = c->feature;
        return "floor";
    }
    if (c->feature < 0)
        return c->feature_name ? c->feature_name : des_glyph_info(c->glyph)->feature;
    const char *name = mapped(w, QG_VOCAB_FEATURE, c->feature, "feature", c->feature_name);
    if (!name)
        k->unmapped = c->feature;
    return name ? name : "floor";
}

/* A thing as the target game names it: NULL when the translator refuses
 * it (it is reported), the name when there is no translator. */
static const char *thing_name(des_writer *w, qg_slot slot, const qg_thing *t)
{
    qg_thing out;
    if (!qg_translate_thing(translator_of(w), slot, t, &out))
        return NULL;
    return out.kind == QG_THING_RANDOM ? "" : out.name;
}

static void monster_of(des_writer *w, const qg_thing *t, cell_key *k)
{
    if (translator_of(w) && (t->kind == QG_THING_NAME || t->kind == QG_THING_INDEX ||
                             t->kind == QG_THING_CLONE)) {
        const char *name = thing_name(w, QG_SLOT_MONSTER, t);
        if (name && !*name)
            k->random_monster = '0';
        else
            k->monster = des_folded(name);
    } else if (t->kind == QG_THING_NAME) {
        k->monster = des_folded(t->name);
    } else if (t->kind == QG_THING_RANDOM) {
        /* '0' at depth, '9' five levels deeper, '8' 4 + absdepth deeper */
        k->random_monster = t->index == 0 ? '0' : t->index == 5 ? '9' : '8';
    } else if (t->kind == QG_THING_INDEX) {
        const char *name = mapped(w, QG_VOCAB_MONSTER, t->index, "monster", t->name);
        k->monster = des_folded(name);
    } else if (t->kind != QG_THING_NONE) {
        des_warn(w, ".des has no form for a %s monster (%d)", qg_thing_kind_name(t->kind),
             (int)t->index);
        w->lost_things++;
    }
}

/* An item the translator names; an artifact becomes a random artifact of
 * its class, for Crawl. */
static void translated_item(des_writer *w, qg_slot slot, const qg_thing *t, cell_key *k)
{
    const char *name = thing_name(w, slot, t);
    if (name && !*name) {
        k->random_item = '%';
    } else if (name && slot == QG_SLOT_ARTIFACT) {
        char spec[256];
        snprintf(spec, sizeof spec, "%s randart", name);
        k->item = des_folded(spec);
    } else {
        k->item = des_folded(name);
    }
}

static void item_of(des_writer *w, const qg_cell *c, cell_key *k)
{
    const qg_thing *art = &c->things[QG_SLOT_ARTIFACT];
    const qg_thing *obj = &c->things[QG_SLOT_OBJECT];
    int named = obj->kind == QG_THING_NAME || obj->kind == QG_THING_INDEX;
    if (translator_of(w) && art->kind == QG_THING_INDEX)
        translated_item(w, QG_SLOT_ARTIFACT, art, k);
    else if (translator_of(w) && named)
        translated_item(w, QG_SLOT_OBJECT, obj, k);
    else if (art->kind == QG_THING_INDEX) {
        const char *name = mapped(w, QG_VOCAB_ARTIFACT, art->index, "artifact", art->name);
        k->item = des_folded(name);
    } else if (obj->kind == QG_THING_NAME) {
        k->item = des_folded(obj->name);
    } else if (obj->kind == QG_THING_RANDOM) {
        k->random_item = obj->index > 0 ? '*' : '%';
    } else if (obj->kind == QG_THING_INDEX) {
        const char *name = mapped(w, QG_VOCAB_OBJECT, obj->index, "object", obj->name);
        k->item = des_folded(name);
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
        char *one = mx == x && my == y ? des_folded(spec) : NULL;
        if (one)
            qg_buf_printf(&specs, "%s%s", specs.len ? "\n" : "", one);
        free(one);
    }
    return specs.len ? qg_buf_take(&specs) : (qg_buf_free(&specs), NULL);
}

void des_key_free(cell_key *k)
{
    free(k->feature);
    free(k->monster);
    free(k->item);
    free(k->markers);
}

static int same_key(const des_writer *w, const cell_key *a, const cell_key *b)
{
    return (!w->split || a->own == b->own) && same_text(a->feature, b->feature) &&
           same_text(a->monster, b->monster) &&
           same_text(a->item, b->item) && a->random_monster == b->random_monster &&
           a->random_item == b->random_item && a->masks == b->masks &&
           a->unmapped == b->unmapped && a->exit == b->exit &&
           same_text(a->markers, b->markers);
}

/* Things Crawl's specs cannot name: indices, clones, rewards, tags. */
static int indexed_things(const qg_cell *c)
{
    for (int s = 0; s < QG_SLOTS; s++)
        if (c->things[s].kind != QG_THING_NONE && c->things[s].kind != QG_THING_NAME &&
            c->things[s].kind != QG_THING_RANDOM)
            return 1;
    return 0;
}

int des_add_cell(void *user, int x, int y, const qg_cell *c)
{
    des_writer *w = user;
    cell_key k;
    memset(&k, 0, sizeof k);
    k.feature = des_folded(feature_of(w, c, &k));
    monster_of(w, &c->things[QG_SLOT_MONSTER], &k);
    item_of(w, c, &k);
    if (c->things[QG_SLOT_TRAP].kind != QG_THING_NONE)
        w->lost_things++;
    k.masks = c->vault_mask & KMASK_BITS;
    k.exit = (c->vault_mask & QG_MASK_EXIT) != 0;
    k.markers = markers_at(w->level, x, y);
    k.own = c->glyph;
    k.exact = *c;
    w->lost_info += c->cave_info != 0;
    w->lost_special += c->special || c->mimic || c->mflag;
    w->lost_indices += c->feature >= 0 || indexed_things(c);
    int i = 0;
    while (i < w->key_count && !same_key(w, &w->keys[i], &k))
        i++;
    if (i < w->key_count) {
        des_key_free(&k);
    } else if (w->key_count == MAX_KEYS || !k.feature) {
        des_key_free(&k);
        w->failed = 1;
        return 1;
    } else {
        w->keys[w->key_count++] = k;
    }
    w->cells[(size_t)y * (size_t)qg_level_width(w->level) + (size_t)x] = (unsigned char)(i + 1);
    return 0;
}

void des_read_tags(des_writer *w)
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
uint32_t des_automatic_masks(const des_writer *w, unsigned char g)
{
    uint32_t m = w->tag_masks;
    if (!w->transparent && g != '@')
        m |= QG_MASK_OPAQUE;
    if (g && strchr("$%*|", g))
        m |= QG_MASK_NO_TRAP_GEN;
    return m;
}

