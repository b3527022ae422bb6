/* Checking a file's names against a game's vocabulary, with the spec
 * grammar of Crawl's parsers (mapdef.cc: feature_slot::parse_feature,
 * mons_list::parse_mons_spec and mons_by_name, item_list::
 * parse_single_spec): modifiers are taken off, the forms the parsers build
 * names from (zombies, draconian colours, "any <class>") are unwound, and
 * what is left must be a name of the game. Where games differ (which
 * undead a name can be made, the "-shaped" and "-headed" forms, the item
 * classes) the game's grammar.txt says; the shapes common to all stay here. */
#include "des/vocab_internal.h"
#include "des/branches.h"
#include "des/keywords.h"
#include "des/map.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct checker {
    const qg_des_vocab *vocab;
    const char *path;
    const char *data;
    size_t len;
    size_t *line_starts;
    size_t line_count;
    qg_diags *diags;
    size_t errors;
    const des_directive *dir;
    size_t cursor;            /* offset in data past the last name reported */
    int cursor_line;          /* the directive line the cursor belongs to */
} checker;

enum verdict { NAME_OK, NAME_UNKNOWN, NAME_REFUSED };

static const char *const kind_words[DES_VOCAB_KINDS] = {"feature", "monster", "item"};

/* ---- words ------------------------------------------------------------- */

static int word_in(const char *w, size_t n, const char *const *list)
{
    for (; *list; list++)
        if (strlen(*list) == n && memcmp(*list, w, n) == 0)
            return 1;
    return 0;
}

/* Drops the words of s that are flags or "tag:value" modifiers and the
 * spaces around them, lowercases, and turns '_' into ' ' when asked
 * (mons_by_name does; item names keep theirs). */
static void strip_modifiers(char *s, const char *const *flags, int underscores)
{
    char *out = s;
    for (char *w = s; *w;) {
        while (*w == ' ' || *w == '\t')
            w++;
        size_t n = strcspn(w, " \t");
        if (!n)
            break;
        if (!memchr(w, ':', n) && !word_in(w, n, flags)) {
            if (out != s)
                *out++ = ' ';
            memmove(out, w, n);
            out += n;
        }
        w += n;
    }
    *out = '\0';
    for (char *p = s; *p; p++) {
        *p = (char)tolower((unsigned char)*p);
        if (underscores && *p == '_')
            *p = ' ';
    }
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

static int starts_with(const char *s, const char *head)
{
    return strncmp(s, head, strlen(head)) == 0;
}

static enum verdict lookup(const checker *c, int kind, const char *s)
{
    const des_vocab_entry *e = des_vocab_find(c->vocab, kind, s, strlen(s));
    return !e ? NAME_UNKNOWN : e->refused ? NAME_REFUSED : NAME_OK;
}

/* ---- monsters (mons_list::mons_by_name) -------------------------------------- */

static enum verdict monster_name(const checker *c, char *s);

/* "[any] [base|nonbase] [<colour>] draconian [<job>]" (drac_monspec). */
static enum verdict draconian(const checker *c, char *s)
{
    if (lookup(c, DES_VOCAB_MONSTER, s) == NAME_OK)
        return NAME_OK;
    if (starts_with(s, "any "))
        s += 4;
    if (starts_with(s, "base "))
        return NAME_OK;
    if (starts_with(s, "nonbase "))
        s += 8;
    if (strcmp(s, "draconian") == 0 || lookup(c, DES_VOCAB_MONSTER, s) == NAME_OK)
        return NAME_OK;
    char *space = strchr(s, ' ');
    if (!space)
        return NAME_UNKNOWN;
    char colour[64];
    snprintf(colour, sizeof colour, "%.*s draconian", (int)(space - s), s);
    if (lookup(c, DES_VOCAB_MONSTER, colour) != NAME_OK)
        return NAME_UNKNOWN;
    return lookup(c, DES_VOCAB_MONSTER, space + 1);
}

static int has_rule(const checker *c, int rule, const char *text, size_t len)
{
    return des_vocab_rule_has(c->vocab, rule, text, len);
}

/* The rule text s ends with after "<sep>" (e.g. "-shaped "): its length
 * from that separator on, 0 when none does. */
static size_t ends_with_rule(const checker *c, int rule, const char *s, const char *sep)
{
    const des_rule_list *list = &c->vocab->rules[rule];
    size_t n = strlen(s), k = strlen(sep);
    for (size_t i = 0; i < list->count; i++) {
        size_t t = strlen(list->texts[i]);
        if (n > t + k && strcmp(s + n - t, list->texts[i]) == 0 &&
            memcmp(s + n - t - k, sep, k) == 0)
            return t + k;
    }
    return 0;
}

static enum verdict monster_name(const checker *c, char *s)
{
    static const char *const specials[] = {"", "0", "8", "9", "random", NULL};
    size_t n = strlen(s);
    if (word_in(s, n, specials) || has_rule(c, DES_RULE_MONSTER, s, n))
        return NAME_OK;
    /* "<n>-headed hydra" (get_hydra_spec) */
    if (ends_with_rule(c, DES_RULE_HEADED, s, "-headed ") && !starts_with(s, "spectral "))
        return NAME_OK;
    if (ends_with(s, " slime creature") || ends_with(s, " apostle") ||
        strstr(s, " mutant beast") || strstr(s, "serpent of hell "))
        return NAME_OK;
    /* "<monster>-shaped pillar of salt" (get_shaped_spec) */
    size_t shaped = ends_with_rule(c, DES_RULE_SHAPED, s, "-shaped ");
    if (shaped) {
        s[n - shaped] = '\0';
        return monster_name(c, s);
    }
    enum verdict v = lookup(c, DES_VOCAB_MONSTER, s);
    if (v != NAME_UNKNOWN)
        return v;
    /* "<monster> zombie" (get_zombie_type) */
    size_t undead = ends_with_rule(c, DES_RULE_UNDEAD, s, " ");
    if (undead) {
        s[n - undead] = '\0';
        return monster_name(c, s);
    }
    if (starts_with(s, "spectral "))
        return monster_name(c, s + 9);
    /* "<colour> [very ]ugly thing" (mons_by_name's ugly-thing colours) */
    char *thing = strstr(s, " very ugly thing");
    if (!thing)
        thing = strstr(s, " ugly thing");
    if (thing && strchr(s, ' ') == thing)
        return monster_name(c, thing + 1);
    /* "demonspawn <job>" names the nonbase demonspawn (_demonspawn_monspec) */
    if (starts_with(s, "demonspawn ") && lookup(c, DES_VOCAB_MONSTER, s + 11) == NAME_OK)
        return NAME_OK;
    if (strstr(s, "draconian"))
        return draconian(c, s);
    return NAME_UNKNOWN;
}

/* ---- items (item_list::parse_single_spec) -------------------------------------- */

static enum verdict item_class(const checker *c, const char *s)
{
    return has_rule(c, DES_RULE_ITEM_CLASS, s, strlen(s)) ? NAME_OK : NAME_UNKNOWN;
}

/* Whether one of s's words is an item-word ("parchment": parse_single_spec
 * strips the tag and makes a parchment of whatever is left, a random one
 * when no spell is named so). */
static int has_item_word(const checker *c, const char *s)
{
    for (const char *w = s; *w;) {
        while (*w == ' ')
            w++;
        size_t n = strcspn(w, " ");
        if (n && has_rule(c, DES_RULE_ITEM_WORD, w, n))
            return 1;
        w += n;
    }
    return 0;
}

static enum verdict item_name(const checker *c, char *s)
{
    static const char *const specials[] = {"", "random", "any", "%", "*", "star_item", "|",
                                           "superb_item", "$", "gold", "nothing", NULL};
    if (word_in(s, strlen(s), specials) || has_item_word(c, s))
        return NAME_OK;
    if (ends_with(s, "corpse") || ends_with(s, "skeleton")) {
        s[strlen(s) - (ends_with(s, "corpse") ? 6 : 8)] = '\0';
        size_t n = strlen(s);
        while (n && s[n - 1] == ' ')
            s[--n] = '\0';
        for (char *p = s; *p; p++)
            if (*p == '_')
                *p = ' ';
        return monster_name(c, s);
    }
    if (starts_with(s, "any "))
        return item_class(c, s + 4);
    if (starts_with(s, "random "))
        return item_class(c, s + 7);
    if (starts_with(s, "pair of ") && has_rule(c, DES_RULE_ITEM_PAIR, s + 8, strlen(s + 8)))
        return lookup(c, DES_VOCAB_ITEM, s + 8);
    enum verdict v = lookup(c, DES_VOCAB_ITEM, s);
    if (v == NAME_UNKNOWN && strchr(s, '_')) {
        /* unrandarts are matched with '_' for ' ' (get_unrandart_num) */
        for (char *p = s; *p; p++)
            if (*p == '_')
                *p = ' ';
        v = lookup(c, DES_VOCAB_ITEM, s);
    }
    if (v == NAME_UNKNOWN && c->vocab->unrand_drop_apostrophes && strchr(s, '\'')) {
        /* ... and, in games whose get_unrandart_num says so, without "'" */
        char *out = s;
        for (char *p = s; *p; p++)
            if (*p != '\'')
                *out++ = *p;
        *out = '\0';
        v = lookup(c, DES_VOCAB_ITEM, s);
    }
    return v;
}

/* ---- features (feature_slot::parse_feature) --------------------------------------- */

static enum verdict feature_name(const checker *c, char *s, int glyphs)
{
    if (glyphs && strlen(s) == 1)
        return NAME_OK;
    if (strstr(s, "shop") && strcmp(s, "abandoned_shop") != 0)
        return NAME_OK;
    if (strstr(s, "trap") && lookup(c, DES_VOCAB_FEATURE, s) != NAME_OK) {
        /* A trap spec (feature_slot::parse_trap): the word "trap" goes and
         * the rest is a trap name for str_to_trap -- "random", "any", or
         * the trap's name less " trap". (Crawl 0.28 keeps "known": its
         * -builddb says "bad trap name: 'known web'" for "known web trap".) */
        char rest[256] = "";
        for (char *w = s; *w;) {
            while (*w == ' ')
                w++;
            size_t n = strcspn(w, " ");
            if (n && !(n == 4 && memcmp(w, "trap", 4) == 0))
                snprintf(rest + strlen(rest), sizeof rest - strlen(rest), "%s%.*s",
                         *rest ? " " : "", (int)n, w);
            w += n;
        }
        if (strcmp(rest, "random") == 0 || strcmp(rest, "any") == 0)
            return NAME_OK;
        snprintf(rest + strlen(rest), sizeof rest - strlen(rest), " trap");
        return lookup(c, DES_VOCAB_FEATURE, rest);
    }
    return lookup(c, DES_VOCAB_FEATURE, s);
}

/* ---- reporting --------------------------------------------------------------------- */

static void line_of(const checker *c, int line, const char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    if (line < 1 || (size_t)line > c->line_count)
        return;
    size_t start = c->line_starts[line - 1];
    size_t end = start;
    while (end < c->len && c->data[end] != '\n')
        end++;
    *text = c->data + start;
    *len = end - start;
}

/* Where the name is: its first occurrence in the file's text from the
 * directive's line on (past the names already reported for it), so that
 * a name on a continuation line ("\\" at the end of the line before) is
 * shown on its own line. Falls back to the directive's line. */
static int same_text(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int x = tolower((unsigned char)a[i]), y = tolower((unsigned char)b[i]);
        if (x == '_')
            x = ' ';
        if (y == '_')
            y = ' ';
        if (x != y)
            return 0;
    }
    return 1;
}

static void place_of(checker *c, const char *name, int *line, int *col)
{
    const des_directive *d = c->dir;
    *line = d->line;
    *col = d->col;
    if (d->line < 1 || (size_t)d->line > c->line_count)
        return;
    size_t from = c->line_starts[d->line - 1];
    if (c->cursor > from)
        from = c->cursor;
    size_t limit = from + d->arg_len + 4096;
    if (limit > c->len)
        limit = c->len;
    size_t n = strlen(name);
    for (size_t i = from; n && i + n <= limit; i++)
        if (same_text(c->data + i, name, n)) {
            c->cursor = i + n;
            size_t lo = 0, hi = c->line_count;
            while (hi - lo > 1) {
                size_t mid = (lo + hi) / 2;
                if (c->line_starts[mid] <= i)
                    lo = mid;
                else
                    hi = mid;
            }
            *line = (int)lo + 1;
            *col = (int)(i - c->line_starts[lo]) + 1;
            return;
        }
}

static void report(checker *c, int kind, const char *shown, const char *base, enum verdict v)
{
    const des_directive *d = c->dir;
    int line, col;
    place_of(c, shown, &line, &col);
    const char *text;
    size_t len;
    line_of(c, line, &text, &len);
    const char *game = qg_des_vocab_game(c->vocab);
    c->errors++;
    if (v == NAME_REFUSED) {
        qg_diags_add(c->diags, QG_ERROR, c->path, line, col, text, len,
                     "%s: %s '%s' cannot be placed by a map in %s", des_dir_name(d->dir),
                     kind_words[kind], base, game);
        return;
    }
    size_t best_len;
    const char *best = des_vocab_closest(c->vocab, kind, base, strlen(base), &best_len);
    if (best)
        qg_diags_add(c->diags, QG_ERROR, c->path, line, col, text, len,
                     "%s: unknown %s '%s' in %s; did you mean '%.*s'?", des_dir_name(d->dir),
                     kind_words[kind], base, game, (int)best_len, best);
    else
        qg_diags_add(c->diags, QG_ERROR, c->path, line, col, text, len,
                     "%s: unknown %s '%s' in %s", des_dir_name(d->dir), kind_words[kind],
                     base, game);
    if (strstr(base, " = ") && line > d->line)
        qg_diags_add(c->diags, QG_NOTE, c->path, line, col, NULL, 0,
                     "the line before ends with '\\', so this line goes on the %s line "
                     "above it rather than starting a directive of its own",
                     des_dir_name(d->dir));
}

/* ---- branches of DEPTH and PLACE ------------------------------------------------------------ */

/* mapdef.cc level_range::set: "any" / "Any" or a branch's abbreviation
 * (branch_by_abbrevname, exact case); anything else is "Unknown branch". */
static void check_range(checker *c, const des_range *r)
{
    const qg_branches *t = qg_des_vocab_branches(c->vocab);
    if (!r->branch || strcmp(r->branch, "any") == 0 || strcmp(r->branch, "Any") == 0)
        return;
    const des_branch *b = des_branch_by_abbrev(t, r->branch, strlen(r->branch));
    int line, col;
    place_of(c, r->branch, &line, &col);
    const char *text;
    size_t len;
    line_of(c, line, &text, &len);
    const char *dir = des_dir_name(c->dir->dir);
    if (!b) {
        size_t best_len;
        const char *best = des_branch_closest(t, r->branch, strlen(r->branch), &best_len);
        c->errors++;
        if (best)
            qg_diags_add(c->diags, QG_ERROR, c->path, line, col, text, len,
                         "%s: unknown branch '%s' in %s; did you mean '%.*s'?", dir, r->branch,
                         qg_branches_game(t), (int)best_len, best);
        else
            qg_diags_add(c->diags, QG_ERROR, c->path, line, col, text, len,
                         "%s: unknown branch '%s' in %s", dir, r->branch, qg_branches_game(t));
    } else if (r->lo > b->levels || (b->levels == 0 && !r->deny)) {
        qg_diags_add(c->diags, QG_WARNING, c->path, line, col, text, len,
                     "%s: %s has %d level%s in %s, so '%s:%d' holds none", dir, b->name,
                     b->levels, b->levels == 1 ? "" : "s", qg_branches_game(t), b->name,
                     r->lo < 1 ? 1 : r->lo);
    }
}

/* ---- one alternative of each kind ---------------------------------------------------------- */

static void check_monster_alt(checker *c, const char *alt);

static void check_item_alt(checker *c, const char *alt)
{
    static const char *const flags[] = {
        "good_item", "mundane", "damaged", "randart", "useful", "unobtainable", "no_exclude",
        "chaotic", "mimic", "no_pickup", "no_uniq", "allow_uniq", "randbook", "acquire",
        "cursed", "not_cursed", "uncursed", "pre_id", "identified", "unidentified",
        "never_decay", "unique", NULL};
    char buf[512];
    snprintf(buf, sizeof buf, "%s", alt);
    /* "acquire", "acquire:<god>": what follows is "any" or a class name
     * (parse_single_spec hands it to parse_random_by_class). */
    int acquire = 0;
    for (const char *w = buf; (w = strstr(w, "acquire")); w += 7)
        if ((w == buf || w[-1] == ' ') && (w[7] == '\0' || w[7] == ' ' || w[7] == ':'))
            acquire = 1;
    strip_modifiers(buf, flags, 0);
    char shown[512];
    snprintf(shown, sizeof shown, "%s", buf);
    enum verdict v = acquire ? (strcmp(buf, "any") == 0 ? NAME_OK : item_class(c, buf))
                             : item_name(c, buf);
    if (v != NAME_OK)
        report(c, DES_VOCAB_ITEM, shown, shown, v);
}

static void check_monster_alt(checker *c, const char *alt)
{
    static const char *const flags[] = {
        "generate_awake", "patrolling", "band", "seen", "always_corpse", "never_corpse",
        "fix_slot", "god_gift", "name_suffix", "n_suf", "name_adjective", "n_adj",
        "name_replace", "n_rpl", "name_definite", "n_the", "name_descriptor", "n_des",
        "name_species", "n_spe", "name_zombie", "n_zom", "name_nocorpse", "n_noc", NULL};
    char buf[512];
    snprintf(buf, sizeof buf, "%s", alt);
    /* "spells:a.11.wizard;b.30.wizard" tags go first: their ';' is not the
     * one before the monster's items (strip_multiple_tag_prefix in
     * mons_list::parse_mons_spec runs before the split). */
    for (char *sp; (sp = strstr(buf, "spells:"));) {
        size_t n = strcspn(sp, " \t");
        memmove(sp, sp + n, strlen(sp + n) + 1);
    }
    char *items = strchr(buf, ';');
    if (items) {
        *items++ = '\0';
        /* the monster's own items: "|" between alternatives, "." between slots */
        for (char *seg = items; seg && *seg;) {
            char *next = strpbrk(seg, "|.");
            if (next)
                *next++ = '\0';
            char *w = seg;
            while (*w == ' ')
                w++;
            size_t n = strlen(w);
            while (n && w[n - 1] == ' ')
                w[--n] = '\0';
            if (*w)
                check_item_alt(c, w);
            seg = next;
        }
    }
    char *place = strstr(buf, "place:");
    strip_modifiers(buf, flags, 1);
    char *s = buf;
    if (isdigit((unsigned char)*s)) {
        char *p = s;
        while (isdigit((unsigned char)*p))
            p++;
        if (*p == ' ')
            s = p + 1;
    }
    if (place)
        return; /* "place:Orc:4 zombie": the level decides the monster */
    char base[512];
    snprintf(base, sizeof base, "%s", s);
    char *r;
    while ((r = strstr(base, "random ")))
        memmove(r, r + 3, strlen(r + 3) + 1), memcpy(r, "any", 3);
    enum verdict v = monster_name(c, base);
    if (v != NAME_OK)
        report(c, DES_VOCAB_MONSTER, s, s, v);
}

static void check_feature_alt(checker *c, const char *alt, int glyphs)
{
    static const char *const flags[] = {"mimic", "no_mimic", NULL};
    char buf[512];
    snprintf(buf, sizeof buf, "%s", alt);
    strip_modifiers(buf, flags, 0);
    enum verdict v = feature_name(c, buf, glyphs);
    if (v != NAME_OK)
        report(c, DES_VOCAB_FEATURE, buf, buf, v);
}

static void check_slot(checker *c, const des_slot *slot,
                       void (*check)(checker *c, const char *alt))
{
    for (size_t a = 0; a < slot->count; a++)
        check(c, slot->alts[a].text);
}

/* The directive keyword an alternative starts with ("KITEM:" in "KITEM:
 * e = rapier ..."), or NULL. */
static const des_keyword *keyword_at(const char *alt)
{
    while (*alt == ' ' || *alt == '\t')
        alt++;
    return des_keyword_match(alt, alt + strlen(alt), 0);
}

/* A directive line that the line before it, ending in '\\', took into its
 * own argument (levcomp.lpp: in ARGUMENT and ITEM_LIST state a trailing
 * backslash joins the next line, whatever it holds), read by Crawl as one
 * more alternative of the item list above: item_list::parse_item_spec
 * cannot parse it and drops it ("Failed to parse"), an error only when no
 * alternative follows (parse_single_spec clears it for the next one). So
 * the directive never takes effect, which a warning says. */
static void tell_swallowed(checker *c, const des_keyword *kw, const char *alt)
{
    int line, col;
    while (*alt == ' ' || *alt == '\t')
        alt++;
    place_of(c, alt, &line, &col);
    const char *text;
    size_t len;
    line_of(c, line, &text, &len);
    qg_diags_add(c->diags, QG_WARNING, c->path, line, col, text, len,
                 "this %s line goes on the %s line above it, whose last line ends with '\\': "
                 "Crawl reads it as one more item of that list, cannot parse it and drops it "
                 "(mapdef.cc item_list::parse_item_spec), so it never takes effect",
                 des_dir_name(kw->dir), des_dir_name(c->dir->dir));
}

static void check_item_slot(checker *c, const des_slot *slot)
{
    for (size_t a = 0; a < slot->count; a++) {
        const des_keyword *kw = keyword_at(slot->alts[a].text);
        if (kw && a + 1 < slot->count)
            tell_swallowed(c, kw, slot->alts[a].text);
        else
            check_item_alt(c, slot->alts[a].text);
    }
}

static void check_features(checker *c, const des_slot *slot)
{
    for (size_t a = 0; a < slot->count; a++)
        check_feature_alt(c, slot->alts[a].text, 1);
}

static void check_directive(checker *c, const des_directive *d)
{
    c->dir = d;
    /* MONS: a, b gives a directive per slot, all on one line: the names
     * of the later ones are looked for past those reported before them */
    if (d->line != c->cursor_line)
        c->cursor = 0;
    c->cursor_line = d->line;
    const des_spec *spec = &d->spec;
    switch (d->dir) {
    case DES_DIR_KFEAT:
        if (spec->kind == DES_SPEC_KEYED && spec->u.keyed.slot_count)
            check_features(c, &spec->u.keyed.slots[0]);
        break;
    case DES_DIR_KMONS:
        if (spec->kind == DES_SPEC_KEYED)
            for (size_t i = 0; i < spec->u.keyed.slot_count; i++)
                check_slot(c, &spec->u.keyed.slots[i], check_monster_alt);
        break;
    case DES_DIR_KITEM:
        if (spec->kind == DES_SPEC_KEYED)
            for (size_t i = 0; i < spec->u.keyed.slot_count; i++)
                check_item_slot(c, &spec->u.keyed.slots[i]);
        break;
    case DES_DIR_MONS:
        if (spec->kind == DES_SPEC_SLOT)
            check_slot(c, &spec->u.slot, check_monster_alt);
        break;
    case DES_DIR_ITEM:
        if (spec->kind == DES_SPEC_SLOT)
            check_item_slot(c, &spec->u.slot);
        break;
    case DES_DIR_MARKER:
        if (spec->kind == DES_SPEC_MARKER && spec->u.marker.kind == DES_MARKER_FEAT)
            check_feature_alt(c, spec->u.marker.value, 0);
        break;
    case DES_DIR_DEPTH: case DES_DIR_PLACE:
        if (spec->kind == DES_SPEC_RANGES)
            for (size_t i = 0; i < spec->u.ranges.count; i++)
                check_range(c, &spec->u.ranges.items[i]);
        break;
    default:
        break;
    }
}

static int index_lines(checker *c)
{
    size_t cap = 64;
    c->line_starts = malloc(cap * sizeof *c->line_starts);
    if (!c->line_starts)
        return 0;
    c->line_starts[c->line_count++] = 0;
    for (size_t i = 0; i < c->len; i++)
        if (c->data[i] == '\n') {
            if (c->line_count == cap) {
                size_t *grown = realloc(c->line_starts, 2 * cap * sizeof *grown);
                if (!grown)
                    return 0;
                c->line_starts = grown;
                cap *= 2;
            }
            c->line_starts[c->line_count++] = i + 1;
        }
    return 1;
}

size_t qg_des_check_names(const qg_des_vocab *vocab, const qg_des_file *file,
                          const char *data, size_t len, int seed_era, qg_diags *diags)
{
    checker c = {vocab, qg_des_file_path(file), data, len, NULL, 0, diags, 0, NULL, 0, 0};
    if (!index_lines(&c)) {
        free(c.line_starts);
        qg_diags_add(diags, QG_ERROR, c.path, 0, 0, NULL, 0, "out of memory");
        return 1;
    }
    size_t skipped = 0;
    for (size_t m = 0; m < qg_des_map_count(file); m++) {
        const des_map *map = des_map_of(qg_des_map(file, m));
        if (map && map->legacy && !seed_era) {
            skipped++;
            continue;
        }
        for (size_t i = 0; map && i < map->dir_count; i++)
            check_directive(&c, &map->dirs[i]);
    }
    if (skipped)
        qg_diags_add(diags, QG_NOTE, c.path, 0, 0, NULL, 0,
                     "the names of %zu seed-era map%s are not checked against %s (give "
                     "--game to check them anyway)", skipped, skipped == 1 ? "" : "s",
                     qg_des_vocab_game(vocab));
    free(c.line_starts);
    return c.errors;
}
