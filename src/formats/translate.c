/* Translating things between games (see questgrid/games.h): what a
 * source thing is (its entry in the source game's tables, through the
 * source vocabulary when the indices may differ), then the target's entry
 * of the same name, else exact.txt's, else the nearest of its class, else
 * of its family; each answer is kept, so that a level's hundred walls
 * cost one look-up and are reported once. */
#include "formats/game_tables.h"
#include "core/buf.h"
#include "des/glyphs.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* How a source thing was taken: as the same thing, the nearest of its
 * class or family, a wall or floor or nothing (lossy: LOSSY, LEFT_OUT),
 * not at all (REFUSED), or as a random thing (RANDOMISED). */
typedef enum outcome { EXACT, NEAREST, FAMILY, LOSSY, LEFT_OUT, REFUSED, RANDOMISED } outcome;

typedef struct answer {
    int kind;
    int32_t index;        /* the source's index, or -1 */
    char *name;           /* the source's name as given, or NULL */
    outcome how;
    char *what;           /* the source as reports name it */
    const char *class_name; /* the source's class, or NULL when unknown */
    const game_entry *to; /* the target's entry, or NULL */
} answer;

struct qg_translator {
    const qg_game *from, *to;
    const qg_vocab *vocab;
    int lossy;
    answer *answers;
    size_t count, cap;
    int failed;
};

qg_translator *qg_translator_new(const qg_game *from, const qg_vocab *from_vocab,
                                 const qg_game *to, int lossy)
{
    qg_translator *t = calloc(1, sizeof *t);
    if (t) {
        t->from = from;
        t->to = to;
        t->vocab = from_vocab;
        t->lossy = lossy;
    }
    return t;
}

void qg_translator_free(qg_translator *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->count; i++) {
        free(t->answers[i].name);
        free(t->answers[i].what);
    }
    free(t->answers);
    free(t);
}

const qg_game *qg_translator_target(const qg_translator *t)
{
    return t ? t->to : NULL;
}

const qg_game *qg_translator_source(const qg_translator *t)
{
    return t ? t->from : NULL;
}

/* ---- what the source thing is ------------------------------------------ */

/* Words of a Crawl spec that say how, not what (mapdef.cc's
 * mons_list::mons_by_name strip_tag, item_list::parse_single_spec). */
static int spec_flag(const char *word, size_t len)
{
    static const char *const flags[] = {
        "generate_awake", "patrolling", "band", "hostile", "friendly", "neutral",
        "good_neutral", "strict_neutral", "fully_neutral", "seen", "always_corpse",
        "never_corpse", "summoned", "actual", "mimic", "no_mimic", "no_pickup",
        "good_item", "star_item", "superb_item", "randart", "unrand", "cursed", "not_cursed",
        "useful", "mundane", "ident", "no_uniq", "allow_uniq", "corpse", "unidentified",
        "identified", "damaged", "more_items", "never_decay", "no_exp", "use_all",
        "unobtainable", NULL};
    /* key:value, and the name flags (name_adjective, n_adj, ...) */
    if (memchr(word, ':', len) || (len > 5 && memcmp(word, "name_", 5) == 0) ||
        (len > 2 && memcmp(word, "n_", 2) == 0))
        return 1;
    for (int i = 0; flags[i]; i++)
        if (strlen(flags[i]) == len && memcmp(flags[i], word, len) == 0)
            return 1;
    return 0;
}

/* The end of a spec's first part: before the equipment (;), the
 * alternatives (/ |) and the rest of a pile (,). */
static size_t spec_end(const char *spec)
{
    return strcspn(spec, ";/|,");
}

/* The next word of spec[*i..end) that is not a flag: its start in *start
 * and its length, 0 when none is left. */
static size_t next_word(const char *spec, size_t end, size_t *i, size_t *start)
{
    while (*i < end) {
        while (*i < end && isspace((unsigned char)spec[*i]))
            (*i)++;
        *start = *i;
        while (*i < end && !isspace((unsigned char)spec[*i]))
            (*i)++;
        if (*i > *start && !spec_flag(spec + *start, *i - *start))
            return *i - *start;
    }
    return 0;
}

/* The first character of a spec's first word that is not a flag. */
static unsigned char first_word(const char *spec)
{
    size_t i = 0, start = 0;
    return next_word(spec, spec_end(spec), &i, &start) ? (unsigned char)spec[start] : 0;
}

char *game_spec_key(const char *spec)
{
    size_t end = spec_end(spec), i = 0, start = 0, len;
    qg_buf b;
    qg_buf_init(&b);
    while ((len = next_word(spec, end, &i, &start)) > 0)
        qg_buf_printf(&b, "%s%.*s", b.len ? " " : "", (int)len, spec + start);
    char *key = game_key(b.data ? b.data : "");
    qg_buf_free(&b);
    return key;
}

typedef struct source {
    const game_entry *entry;  /* in the source game's tables, or NULL */
    char *keys[2];            /* names to match exactly (malloc'd) */
    int cls;                  /* in the source game's classes, or -1 */
    int level, max_level, unique;
    int random;               /* a random thing of the class (a symbol, a type) */
} source;

static void source_free(source *s)
{
    free(s->keys[0]);
    free(s->keys[1]);
}

static void take_entry(const qg_game *g, int kind, const game_entry *e, source *s)
{
    s->entry = e;
    s->cls = e->cls;
    s->level = e->level;
    s->max_level = g->kinds[kind].max_level;
    s->unique = e->unique;
    if (!s->keys[0] && e->tag_key)
        s->keys[0] = qg_strdup(e->tag_key);
    if (!s->keys[1])
        s->keys[1] = qg_strdup(e->name_key);
}

/* FrogComposband's MON(name) and OBJ(name) find the first entry whose
 * lowercase name, between '^' and '$', holds the text (parse_lookup_monster,
 * _lookup_kind). */
static const game_entry *by_fragment(const qg_game *g, int kind, const char *text)
{
    const game_kind *t = &g->kinds[kind];
    char *want = game_key(text);
    const game_entry *found = NULL;
    qg_buf framed;
    qg_buf_init(&framed);
    for (size_t i = 0; want && *want && i < t->count && !found; i++) {
        qg_buf_reset(&framed);
        qg_buf_printf(&framed, "^%s$", t->items[i].name_key);
        if (framed.data && strstr(framed.data, want))
            found = &t->items[i];
    }
    qg_buf_free(&framed);
    free(want);
    return found;
}

/* The object class a word names: a kind of item in Crawl's and the
 * Angband family's own words, their OBJ() types (SWORD, HARD_ARMOR,
 * WAND_TELEPORT, HI_BOOK) and the words names are made of ("mithril
 * shield", "potion of sight"). */
static const char *object_word_class(const char *word)
{
    static const struct {
        const char *word, *cls;
    } words[] = {
        {"sword", "sword"}, {"blade", "sword"}, {"dagger", "sword"}, {"weapon", "sword"},
        {"axe", "axe"}, {"hafted", "hafted"}, {"mace", "hafted"}, {"hammer", "hafted"},
        {"flail", "hafted"}, {"whip", "hafted"}, {"club", "hafted"}, {"polearm", "polearm"},
        {"spear", "polearm"}, {"lance", "polearm"}, {"halberd", "polearm"},
        {"quarterstaff", "polearm"}, {"digging", "digger"}, {"digger", "digger"},
        {"shovel", "digger"}, {"pick", "digger"}, {"bow", "launcher"},
        {"crossbow", "launcher"}, {"sling", "launcher"}, {"arrow", "ammo"}, {"bolt", "ammo"},
        {"shot", "ammo"}, {"missile", "ammo"}, {"armor", "body"}, {"armour", "body"},
        {"mail", "body"}, {"robe", "body"}, {"shield", "shield"}, {"buckler", "shield"},
        {"helm", "helmet"}, {"helmet", "helmet"}, {"cap", "helmet"}, {"crown", "helmet"},
        {"hat", "helmet"}, {"boots", "boots"}, {"gloves", "gloves"}, {"gauntlets", "gloves"},
        {"cloak", "cloak"}, {"potion", "potion"}, {"flask", "potion"}, {"scroll", "scroll"},
        {"wand", "wand"}, {"device", "wand"}, {"staff", "staff"}, {"rod", "rod"},
        {"ring", "ring"}, {"jewelry", "ring"}, {"jewellery", "ring"}, {"amulet", "amulet"},
        {"book", "book"}, {"food", "food"}, {"ration", "food"}, {"mushroom", "food"},
        {"lite", "light"}, {"light", "light"}, {"torch", "light"}, {"lantern", "light"},
        {"gold", "gold"}, {"chest", "chest"}, {"junk", "misc"}, {"misc", "misc"},
        {"miscellaneous", "misc"}, {"skeleton", "misc"}, {"statue", "misc"},
        {"figurine", "misc"}, {"corpse", "misc"}, {"bones", "misc"}, {"randbook", "book"},
        {"orb", "misc"}, {"rune", "misc"}, {"manual", "book"}};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strcmp(word, words[i].word) == 0)
            return words[i].cls;
    return NULL;
}

/* A thing given by a symbol (MON(o)) or by a class or type (MON(DRAGON),
 * OBJ(HARD_ARMOR, DEPTH+10), "any weapon"), or whose name says no more
 * than its class ("mithril shield"): a random one of that class. */
/* The class of the game's first entry drawn with the character. */
static int class_of_symbol(const qg_game *g, int kind, const char *glyph)
{
    const game_kind *t = &g->kinds[kind];
    for (size_t i = 0; i < t->count; i++)
        if (strcmp(t->items[i].glyph, glyph) == 0 && t->items[i].cls >= 0)
            return t->items[i].cls;
    return -1;
}

static int class_of_word(const qg_game *g, int kind, const char *text)
{
    if (kind == GAME_MONSTER && text[0] && !text[1])
        return class_of_symbol(g, kind, text);
    size_t head = strcspn(text, ",");
    char *first = qg_strndup(text, head);
    char *key = first ? game_key(first) : NULL;
    free(first);
    int cls = -1;
    const char *rest = key;
    if (rest && !strncmp(rest, "any ", 4))
        rest += 4;
    else if (rest && !strncmp(rest, "random ", 7))
        rest += 7;
    for (const char *w = rest; key && w && cls < 0;) {
        size_t n = strcspn(w, " ");
        char word[32];
        if (n < sizeof word) {
            memcpy(word, w, n);
            word[n] = '\0';
            /* a monster or a feature by its class's own word ("undead", "a
             * teleport trap", "any shop"), an object by its kind's */
            const char *named = kind == GAME_OBJECT || kind == GAME_ARTIFACT
                                    ? object_word_class(word)
                                    : word;
            if (named)
                cls = game_class_named(g, game_class_kind(kind), named);
            /* a monster type may name a family ("undead") */
            for (size_t i = 0; kind == GAME_MONSTER && cls < 0 && i < g->class_count; i++)
                if (g->classes[i].kind == kind && strcmp(g->families[g->classes[i].family], word) == 0)
                    cls = (int)i;
        }
        w = w[n] ? w + n + 1 : NULL;
    }
    free(key);
    return cls;
}

/* A Crawl name, then without its first words ("orc zombie": a zombie). */
static const game_entry *by_words(const qg_game *g, int kind, const char *key)
{
    for (const char *k = key; k;) {
        const game_entry *e = game_by_key(g, kind, k);
        if (e)
            return e;
        k = strchr(k, ' ');
        k = k ? k + 1 : NULL;
    }
    return NULL;
}

/* An Angband-family name as a room template gives it (MON(name, DEPTH+5),
 * MON("fang, farmer maggot's dog", CLONE)): the whole name, else what
 * comes before the options. */
static const game_entry *by_name(const qg_game *g, int kind, const char *name)
{
    char *key = game_key(name);
    const game_entry *e = key ? game_by_key(g, kind, key) : NULL;
    free(key);
    const char *close = name[0] == '"' ? strchr(name + 1, '"') : NULL;
    size_t head = close ? (size_t)(close - name - 1) : strcspn(name, ",");
    char *first = e ? NULL : qg_strndup(name + (close != NULL), head);
    if (first && kind != GAME_FEATURE) {
        char *k = game_key(first);
        e = k ? game_by_key(g, kind, k) : NULL;
        free(k);
        if (!e)
            e = by_fragment(g, kind, first);
    }
    free(first);
    return e;
}

static void source_of_name(const qg_game *g, int kind, const char *name, source *s)
{
    s->keys[1] = g && g->crawl ? game_spec_key(name) : game_key(name);
    /* a Crawl map's glyph as a spec: what the glyph stands for ("C
     * mimic", a random altar that is a mimic; "$", gold) */
    const char *glyph_meaning = NULL;
    unsigned char glyph = first_word(name);
    if (g && g->crawl && s->keys[1] && s->keys[1][0] && !s->keys[1][1])
        glyph_meaning = kind == GAME_FEATURE ? des_glyph_info(glyph)->feature
                        : glyph == '$' ? "gold" : NULL;
    if (glyph_meaning) {
        free(s->keys[1]);
        s->keys[1] = game_key(glyph_meaning);
    }
    const game_entry *e = NULL;
    if (g && s->keys[1])
        e = g->crawl ? by_words(g, kind, s->keys[1]) : by_name(g, kind, name);
    if (e) {
        take_entry(g, kind, e, s);
    } else if (g && (s->cls = class_of_word(g, kind, name)) >= 0) {
        s->random = 1;
    }
}

/* Whether a vocabulary's name is an entry's: its tag, its name, or what
 * its name is made of (the vocabulary's "*Healing*:Oily Yellow" of the
 * table's "Potion of *Healing*"). */
static int same_thing(const char *key, const game_entry *e)
{
    if (!key)
        return 0;
    if ((e->tag_key && !strcmp(key, e->tag_key)) || !strcmp(key, e->name_key))
        return 1;
    size_t n = strcspn(key, ":");
    char *head = qg_strndup(key, n);
    int found = head && n && strstr(e->name_key, head) != NULL;
    free(head);
    return found;
}

/* An index of the source vocabulary: the tables' entry when the names
 * agree (or the vocabulary does not say), else the tables' entry of the
 * vocabulary's name. */
static void source_of_index(const qg_translator *t, int kind, qg_vocab_kind vk, int32_t index,
                            source *s)
{
    const qg_game *g = t->from;
    const char *tag = t->vocab ? qg_vocab_tag(t->vocab, vk, (int)index) : NULL;
    const char *name = t->vocab ? qg_vocab_name(t->vocab, vk, (int)index) : NULL;
    s->keys[0] = tag ? game_key(tag) : NULL;
    s->keys[1] = name && name != tag ? game_key(name) : NULL;
    const game_entry *e = g ? game_by_index(g, kind, index) : NULL;
    int agree = !tag || (e && (same_thing(s->keys[0], e) || same_thing(s->keys[1], e)));
    if (!agree && g) {
        e = s->keys[0] ? game_by_key(g, kind, s->keys[0]) : NULL;
        if (!e && s->keys[1])
            e = game_by_key(g, kind, s->keys[1]);
    }
    char glyph[2] = {0, 0};
    if (e)
        take_entry(g, kind, e, s);
    else if (g && qg_vocab_look(t->vocab, vk, (int)index, &glyph[0], NULL))
        /* a variant's own thing the tables lack: of the class its
         * character draws in the game */
        s->cls = class_of_symbol(g, kind, glyph);
}

const char *qg_game_class(const qg_game *game, qg_vocab_kind kind, int32_t index,
                          const char *name)
{
    if (!game)
        return NULL;
    qg_translator t = {.from = game};
    source s;
    memset(&s, 0, sizeof s);
    s.cls = -1;
    if (index >= 0)
        source_of_index(&t, game_kind_of(kind), kind, index, &s);
    else if (name)
        source_of_name(game, game_kind_of(kind), name, &s);
    source_free(&s);
    return s.cls >= 0 ? game->classes[s.cls].name : NULL;
}

/* ---- the target's entry ------------------------------------------------- */

static const game_entry *exact_in(const qg_game *to, int kind, const source *s)
{
    for (int k = 0; k < 2; k++) {
        const game_entry *e = s->keys[k] ? game_by_key(to, kind, s->keys[k]) : NULL;
        if (e)
            return e;
    }
    /* exact.txt's lines are the same in every game's copy */
    for (size_t i = 0; i < to->same_count; i++) {
        const game_same *line = &to->same[i];
        int listed = 0;
        for (size_t j = 0; line->cls < 0 && line->kind == kind && j < line->count && !listed; j++)
            for (int k = 0; k < 2; k++)
                listed |= s->keys[k] && strcmp(s->keys[k], line->keys[j]) == 0;
        for (size_t j = 0; listed && j < line->count; j++) {
            const game_entry *e = game_by_key(to, kind, line->keys[j]);
            if (e)
                return e;
        }
    }
    return NULL;
}

/* The target's class of the source's class name, or -1. */
static int target_class(const qg_translator *t, int kind, const source *s)
{
    if (s->cls < 0 || !t->from)
        return -1;
    return game_class_named(t->to, game_class_kind(kind), t->from->classes[s->cls].name);
}

static const game_entry *class_stand_in(const qg_game *to, int kind, int cls)
{
    for (size_t i = 0; i < to->same_count; i++)
        if (to->same[i].kind == kind && to->same[i].cls == cls)
            for (size_t j = 0; j < to->same[i].count; j++) {
                const game_entry *e = game_by_key(to, kind, to->same[i].keys[j]);
                if (e && e->cls == cls)
                    return e;
            }
    return NULL;
}

/* An entry that may be chosen: a unique for a unique, anything else for
 * anything else; on the second pass, anything. */
static int usable(const game_entry *e, int pass, int unique)
{
    return !e->avoid && (pass > 0 || e->unique == unique) && e->level < 1000;
}

/* The entry of a class (family: any class of the family) whose depth,
 * relative to the deepest of its game, is closest to the source's, a
 * unique for a unique when the class has one; the class's stand-in (or
 * first entry) when there are no depths to compare. */
static const game_entry *nearest(const qg_game *to, int kind, int cls, int family,
                                 const source *s)
{
    if (!family && !(kind != GAME_FEATURE && s->max_level > 0 && to->kinds[kind].max_level > 0)) {
        const game_entry *stand_in = class_stand_in(to, kind, cls);
        if (stand_in)
            return stand_in;
    }
    const game_kind *t = &to->kinds[kind];
    int want_family = to->classes[cls].family;
    const game_entry *best = NULL;
    double best_gap = 0;
    for (int pass = 0; pass < 2 && !best; pass++)
        for (size_t i = 0; i < t->count; i++) {
            const game_entry *e = &t->items[i];
            if (e->cls < 0 || !usable(e, pass, s->unique) ||
                (family ? to->classes[e->cls].family != want_family : e->cls != cls))
                continue;
            double gap = 0;
            if (s->max_level > 0 && t->max_level > 0)
                gap = (double)s->level / s->max_level - (double)e->level / t->max_level;
            gap = gap < 0 ? -gap : gap;
            if (!best || gap < best_gap) {
                best = e;
                best_gap = gap;
            }
        }
    return best;
}

/* What stands in for a feature with no class of its own in a lossy
 * translation: a wall for what is in the way, a floor for what is not. */
static const game_entry *lossy_feature(const qg_translator *t, const source *s)
{
    const char *family = s->cls >= 0 && t->from ? t->from->families[t->from->classes[s->cls].family]
                                                : "open";
    int cls = game_class_named(t->to, GAME_FEATURE, strcmp(family, "solid") == 0 ? "wall" : "floor");
    return cls >= 0 ? nearest(t->to, GAME_FEATURE, cls, 0, s) : NULL;
}

static void describe(const qg_translator *t, int kind, qg_vocab_kind vk, int32_t index,
                     const char *name, const source *s, answer *a)
{
    qg_buf b;
    qg_buf_init(&b);
    /* a Crawl feature by the name its maps give it */
    const char *shown = !s->entry ? name
                        : t->from->crawl && s->entry->tag ? s->entry->tag
                                                          : s->entry->name;
    if (!shown && t->vocab && index >= 0)
        shown = qg_vocab_name(t->vocab, vk, (int)index);
    if (shown)
        qg_buf_printf(&b, "'%s'", shown);
    static const char *const kinds[GAME_KINDS] = {"feature", "monster", "object", "artifact"};
    if (index >= 0)
        qg_buf_printf(&b, "%s%s %d", shown ? " (" : "", kinds[kind], (int)index);
    if (index >= 0 && shown)
        qg_buf_putc(&b, ')');
    a->what = qg_buf_take(&b);
    a->class_name = s->cls >= 0 && t->from ? t->from->classes[s->cls].name : NULL;
}

static const answer *known(const qg_translator *t, int kind, int32_t index, const char *name)
{
    for (size_t i = 0; i < t->count; i++) {
        const answer *a = &t->answers[i];
        if (a->kind == kind && a->index == index &&
            (a->name == name || (a->name && name && strcmp(a->name, name) == 0)))
            return a;
    }
    return NULL;
}

static const answer *translate(qg_translator *t, qg_vocab_kind vk, int32_t index,
                               const char *name)
{
    int kind = game_kind_of(vk);
    /* Crawl has no artifacts of its own to match: a random one of a class */
    int to_kind = kind == GAME_ARTIFACT && t->to->crawl ? GAME_OBJECT : kind;
    const answer *seen = known(t, kind, index, name);
    if (seen)
        return seen;
    source s;
    memset(&s, 0, sizeof s);
    s.cls = -1;
    if (index >= 0)
        source_of_index(t, kind, vk, index, &s);
    else if (name)
        source_of_name(t->from, kind, name, &s);
    answer a = {kind, index, name ? qg_strdup(name) : NULL, REFUSED, NULL, NULL, NULL};
    int cls = target_class(t, kind, &s);
    if (!s.random && to_kind == kind && (a.to = exact_in(t->to, kind, &s)))
        a.how = EXACT;
    else if (cls >= 0 && (a.to = nearest(t->to, to_kind, cls, 0, &s)))
        a.how = NEAREST;
    else if (cls >= 0 && kind != GAME_FEATURE && (a.to = nearest(t->to, to_kind, cls, 1, &s)))
        a.how = FAMILY;
    else if (t->lossy)
        a.how = (a.to = kind == GAME_FEATURE ? lossy_feature(t, &s) : NULL) ? LOSSY : LEFT_OUT;
    /* a random thing of a class comes back as the class's nearest */
    describe(t, kind, vk, index, name, &s, &a);
    source_free(&s);
    answer *slot = QG_PUSH(t->answers, t->count, t->cap);
    if (!slot || !a.what) {
        free(a.name);
        free(a.what);
        t->failed = 1;
        return NULL;
    }
    *slot = a;
    return slot;
}

int qg_translate_feature(qg_translator *t, int32_t index, const char *name, int32_t *out_index,
                         const char **out_name)
{
    if (t->from == t->to && (index >= 0 || t->to->crawl)) {
        *out_index = index;
        *out_name = name;
        return 1;
    }
    const answer *a = translate(t, QG_VOCAB_FEATURE, index, name);
    if (!a || !a->to)
        return 0;
    *out_index = a->to->index;
    *out_name = a->to->tag ? a->to->tag : a->to->name;
    return 1;
}

/* A name that stands for a random thing: Crawl's "any", "random",
 * "star_item" (which the spec reader leaves empty); a room template's
 * "*, DEPTH+5 | NO_GROUP" (*ood: its depth); FrogComposband's FORMATION
 * digits ("formation monster 2"), random monsters of the room's formation
 * (*told: 1, a warning says so). */
static int random_name(const char *name, int *told, int32_t *ood)
{
    *ood = 0;
    *told = 0;
    if (name[0] == '*' && (name[1] == '\0' || name[1] == ',' || name[1] == ' ')) {
        const char *depth = strstr(name, "DEPTH+");
        *ood = depth ? (int32_t)atoi(depth + 6) : 0;
        return 1;
    }
    char *key = game_spec_key(name);
    *told = key && strncmp(key, "formation monster", 17) == 0;
    /* Crawl's glyphs of random things, kept in a KMONS or KITEM spec: 0
     * at depth, 9 five levels deeper, 8 deeper still; % any item, * a good
     * one, the | of "superb item" */
    static const struct {
        const char *key;
        int ood;
    } glyphs[] = {{"0", 0}, {"9", 5}, {"8", 9}, {"%", 0}, {"*", 5}, {"superb item", 10},
                  {"good item", 5}, {"any", 0}, {"random", 0}, {"any monster", 0},
                  {"random monster", 0}, {"any item", 0}, {"random item", 0}};
    int random = key && (*told || !*key);
    for (size_t i = 0; key && !random && i < sizeof glyphs / sizeof *glyphs; i++)
        if (strcmp(key, glyphs[i].key) == 0) {
            random = 1;
            *ood = glyphs[i].ood;
        }
    free(key);
    return random;
}

static void note_randomised(qg_translator *t, int kind, const char *name)
{
    if (known(t, kind, -1, name))
        return;
    answer a = {kind, -1, qg_strdup(name), RANDOMISED, NULL, NULL, NULL};
    qg_buf b;
    qg_buf_init(&b);
    qg_buf_printf(&b, "'%s'", name);
    a.what = qg_buf_take(&b);
    answer *slot = a.name && a.what ? QG_PUSH(t->answers, t->count, t->cap) : NULL;
    if (slot) {
        *slot = a;
    } else {
        free(a.name);
        free(a.what);
        t->failed = 1;
    }
}

int qg_translate_thing(qg_translator *t, qg_slot slot, const qg_thing *in, qg_thing *out)
{
    *out = *in;
    int indexed = in->kind == QG_THING_INDEX || in->kind == QG_THING_CLONE;
    if ((slot != QG_SLOT_MONSTER && slot != QG_SLOT_OBJECT && slot != QG_SLOT_ARTIFACT) ||
        (!indexed && in->kind != QG_THING_NAME) || (t->from == t->to && indexed))
        return 1;
    int told;
    int32_t ood;
    if (in->kind == QG_THING_NAME && in->name && random_name(in->name, &told, &ood)) {
        if (told)
            note_randomised(t, slot == QG_SLOT_MONSTER ? GAME_MONSTER : GAME_OBJECT, in->name);
        out->kind = QG_THING_RANDOM;
        out->index = ood;
        out->name = NULL;
        return 1;
    }
    if (t->from == t->to && t->to->crawl)
        return 1;
    qg_vocab_kind vk = slot == QG_SLOT_MONSTER    ? QG_VOCAB_MONSTER
                       : slot == QG_SLOT_ARTIFACT ? QG_VOCAB_ARTIFACT
                                                  : QG_VOCAB_OBJECT;
    const answer *a = translate(t, vk, indexed ? in->index : -1,
                                in->kind == QG_THING_NAME ? in->name : NULL);
    if (!a || !a->to)
        return 0;
    if (t->to->crawl) {
        out->kind = QG_THING_NAME;
        out->index = 0;
        out->name = a->to->name;
    } else {
        out->kind = in->kind == QG_THING_CLONE ? QG_THING_CLONE : QG_THING_INDEX;
        out->index = a->to->index;
        out->name = a->to->name;
    }
    return 1;
}

/* ---- reports ------------------------------------------------------------ */

static const char *target_text(const game_entry *e, char *buf, size_t len)
{
    if (e->index >= 0)
        snprintf(buf, len, "'%s' (%d)", e->tag ? e->tag : e->name, (int)e->index);
    else
        snprintf(buf, len, "'%s'", e->tag ? e->tag : e->name);
    return buf;
}

size_t qg_translator_refused(const qg_translator *t)
{
    size_t n = 0;
    for (size_t i = 0; t && i < t->count; i++)
        n += t->answers[i].how == REFUSED;
    return n + (t && t->failed);
}

size_t qg_translator_report(const qg_translator *t, qg_diags *diags)
{
    static const char *const kinds[GAME_KINDS] = {"feature", "monster", "object", "artifact"};
    size_t refused = 0;
    qg_buf list;
    qg_buf_init(&list);
    for (size_t i = 0; i < t->count; i++) {
        const answer *a = &t->answers[i];
        char to[256];
        if (a->how == NEAREST || a->how == FAMILY || a->how == LOSSY) {
            const char *cls = a->to->cls >= 0 ? t->to->classes[a->to->cls].name : "?";
            qg_diags_add(diags, QG_WARNING, "", 0, 0, NULL, 0,
                         "%s has no %s %s: %s is taken, the nearest %s%s", t->to->name,
                         kinds[a->kind], a->what, target_text(a->to, to, sizeof to),
                         a->how == NEAREST ? "of its class, " : a->how == FAMILY
                                                                ? "of its family, "
                                                                : "thing in --lossy, ",
                         a->how == LOSSY ? "whatever its class" : cls);
        } else if (a->how == RANDOMISED) {
            qg_diags_add(diags, QG_WARNING, "", 0, 0, NULL, 0,
                         "%s stands for a monster its room's formation picks: in %s it becomes "
                         "a random %s at the level's depth", a->what, t->to->name,
                         kinds[a->kind]);
        } else if (a->how == REFUSED || a->how == LEFT_OUT) {
            refused++;
            qg_buf_printf(&list, "\n  %s %s%s%s%s", kinds[a->kind], a->what,
                          a->class_name ? " (" : " (of no class questgrid knows",
                          a->class_name ? a->class_name : "", ")");
        }
    }
    if (refused)
        qg_diags_add(diags, t->lossy ? QG_WARNING : QG_ERROR, "", 0, 0, NULL, 0,
                     "%zu %s nothing of %s class in %s%s:%s", refused,
                     refused == 1 ? "thing has" : "things have", refused == 1 ? "its" : "their",
                     t->to->name, t->lossy ? " and left out (--lossy)"
                                           : "; nothing is written (--lossy converts anyway: "
                                             "a wall or a floor for a feature, things left out)",
                     list.data ? list.data : "");
    if (t->failed)
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0, "out of memory while converting");
    qg_buf_free(&list);
    return qg_translator_refused(t);
}
