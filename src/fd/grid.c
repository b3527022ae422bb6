/* Room-template letters (PosChengband, FrogComposband, and the built-in
 * legends of vault files): L:c:FEATURE(flags[, special]):MON(…):OBJ(…):
 * EGO(…):ART(…):TRAP(…) with the directives in any order. A directive's
 * arguments become a thing: "*" a random one, "*, DEPTH+n" a random one n
 * levels out of depth, a number an index, "n, CLONE" a clone; any other
 * form (a name, a summon type, a symbol, a chance) is kept as written. */
#include "fd/fd_internal.h"

#include <string.h>

typedef struct span {
    const char *p;
    size_t len;
    int col;
} span;

static int is_space(char c)
{
    return c == ' ' || c == '\t';
}

static span trimmed(span s)
{
    while (s.len && is_space(s.p[0])) {
        s.p++;
        s.len--;
        s.col++;
    }
    while (s.len && (is_space(s.p[s.len - 1]) || s.p[s.len - 1] == '\r'))
        s.len--;
    return s;
}

static int is_digits(span s)
{
    if (!s.len)
        return 0;
    for (size_t i = 0; i < s.len; i++)
        if (s.p[i] < '0' || s.p[i] > '9')
            return 0;
    return 1;
}

/* The next piece of s up to sep outside parentheses; s advances past it. */
static span next_piece(span *s, char sep)
{
    span piece = {s->p, 0, s->col};
    int depth = 0;
    while (piece.len < s->len) {
        char c = s->p[piece.len];
        if (c == '(')
            depth++;
        else if (c == ')' && depth)
            depth--;
        else if (c == sep && !depth)
            break;
        piece.len++;
    }
    size_t used = piece.len < s->len ? piece.len + 1 : piece.len;
    s->p += used;
    s->len -= used;
    s->col += (int)used;
    return piece;
}

static void set_thing(qg_thing *t, qg_thing_kind kind, int32_t index, const char *name)
{
    t->kind = kind;
    t->index = index;
    t->name = name;
}

/* "DEPTH+n" → n; 0 when not that form. */
static int depth_offset(span s, int32_t *n)
{
    static const char lead[] = "DEPTH+";
    span rest = {s.p + 6, s.len >= 6 ? s.len - 6 : 0, s.col + 6};
    if (s.len <= 6 || memcmp(s.p, lead, 6) != 0 || !is_digits(rest))
        return 0;
    *n = fd_atoi(rest.p, rest.len);
    return 1;
}

static int thing_of(fd_reader *r, span args, int tag_slot, qg_thing *t)
{
    span all = trimmed(args);
    span rest = all;
    span first = trimmed(next_piece(&rest, ','));
    span second = trimmed(next_piece(&rest, ','));
    int32_t n = 0;
    int lone = rest.len == 0 && !second.len;
    int star = first.len == 1 && first.p[0] == '*';
    if (lone && star) {
        set_thing(t, QG_THING_RANDOM, 0, NULL);
    } else if (star && rest.len == 0 && depth_offset(second, &n)) {
        set_thing(t, QG_THING_RANDOM, n, NULL);
    } else if (lone && is_digits(first)) {
        set_thing(t, QG_THING_INDEX, fd_atoi(first.p, first.len), NULL);
    } else if (rest.len == 0 && is_digits(first) && second.len == 5 &&
               memcmp(second.p, "CLONE", 5) == 0) {
        set_thing(t, QG_THING_CLONE, fd_atoi(first.p, first.len), NULL);
    } else {
        const char *name = fd_keep(r, all.p, all.len);
        int32_t index = -1;
        if (tag_slot && lone && r->vocab_has_tags && name)
            index = qg_vocab_lookup_tag(r->opt->vocab, QG_VOCAB_FEATURE, name);
        set_thing(t, tag_slot && lone ? QG_THING_TAG : QG_THING_NAME, index, name);
    }
    return !r->failed;
}

/* FLAG | FLAG … into cave_info; a chance ("50%") stays in the feature's
 * name. Where the dialect says so, a number is the feature's special
 * (FrogComposband's _parse_room_grid_feature: "QUEST_ENTER(1) or
 * QUEST_ENTER(GLOW, 1)"), read after the ", special" argument and so
 * winning over it. */
static int read_flags(const fd_reader *r, const fd_line *at, span flags, qg_fd_spec *spec,
                      int *chance)
{
    int ok = 1;
    while (flags.len) {
        span flag = trimmed(next_piece(&flags, '|'));
        if (!flag.len)
            continue;
        char name[16];
        uint32_t bit = 0;
        if (flag.len < sizeof name) {
            memcpy(name, flag.p, flag.len);
            name[flag.len] = '\0';
            bit = qg_info_from_name(name);
        }
        if (bit) {
            spec->cave_info |= bit;
        } else if (flag.p[flag.len - 1] == '%') {
            *chance = 1;
        } else if (r->row->flag_specials && is_digits(flag)) {
            spec->special = fd_atoi(flag.p, flag.len);
        } else {
            fd_error(at, flag.col, "unknown feature flag '%.*s' (ROOM, ICKY, GLOW, MARK, INNER, "
                     "OUTER or a chance such as 50%%)", (int)(flag.len > 20 ? 20 : flag.len), flag.p);
            ok = 0;
        }
    }
    return ok;
}

/* NAME or NAME(flags[, special]). A feature with a chance or a special
 * that is not a number keeps what follows its tag in its name. */
static int read_feature(fd_reader *r, const fd_line *at, span name, span args, int has_args,
                        qg_fd_spec *spec)
{
    span rest = args;
    span flags = next_piece(&rest, ',');
    span special = trimmed(rest);
    int chance = 0;
    int numeric = is_digits(special);
    if (numeric)
        spec->special = fd_atoi(special.p, special.len);
    int ok = !has_args || read_flags(r, at, flags, spec, &chance);
    const char *tag = fd_keep(r, name.p, name.len);
    int32_t index = -1;
    if (tag && r->vocab_has_tags)
        index = qg_vocab_lookup_tag(r->opt->vocab, QG_VOCAB_FEATURE, tag);
    if (tag && r->vocab_has_tags && index < 0) {
        const char *file = r->row->vocab.file[QG_VOCAB_FEATURE];
        const char *closest = qg_vocab_closest(r->opt->vocab, QG_VOCAB_FEATURE, tag);
        fd_error(at, name.col, "unknown feature '%s' (not a tag of %s)%s%s%s", tag,
                 file ? file : "the vocabulary", closest ? "; did you mean " : "",
                 closest ? closest : "", closest ? "?" : "");
        ok = 0;
    }
    else if (tag && !r->row->tag_features && is_digits(name))
        index = fd_atoi(name.p, name.len);
    const char *shown = tag;
    if (chance || (special.len && !numeric))
        shown = fd_keep(r, name.p, (size_t)(args.p + args.len - name.p) + 1);
    set_thing(&spec->feature, QG_THING_TAG, index, shown);
    return ok && !r->failed;
}

static int read_directive(fd_reader *r, const fd_line *at, span d, qg_fd_spec *spec,
                          int *features)
{
    d = trimmed(d);
    const char *paren = memchr(d.p, '(', d.len);
    span name = {d.p, paren ? (size_t)(paren - d.p) : d.len, d.col};
    name = trimmed(name);
    span args = {paren ? paren + 1 : d.p + d.len, 0, d.col};
    if (paren) {
        args.col = d.col + (int)(args.p - d.p);
        if (d.p[d.len - 1] != ')') {
            fd_error(at, d.col, "'%.*s': missing ')'", (int)(name.len > 20 ? 20 : name.len), name.p);
            return 0;
        }
        args.len = (size_t)(d.p + d.len - 1 - args.p);
    }
    static const struct {
        const char *name;
        int slot;
    } things[] = {{"MON", QG_SLOT_MONSTER}, {"OBJ", QG_SLOT_OBJECT}, {"EGO", QG_SLOT_EGO},
                  {"ART", QG_SLOT_ARTIFACT}, {"TRAP", QG_SLOT_TRAP}};
    for (size_t i = 0; i < sizeof things / sizeof *things; i++)
        if (name.len == strlen(things[i].name) && memcmp(name.p, things[i].name, name.len) == 0)
            return thing_of(r, args, things[i].slot == QG_SLOT_TRAP,
                            &spec->things[things[i].slot]);
    if (r->row->secret_directive && name.len == 6 && memcmp(name.p, "SECRET", 6) == 0) {
        const char *text = fd_keep(r, d.p, d.len);
        set_thing(&spec->things[QG_SLOT_TRAP], QG_THING_NAME, -1, text);
        return text != NULL;
    }
    if (!name.len) {
        fd_error(at, d.col, "empty directive");
        return 0;
    }
    if ((*features)++) {
        fd_error(at, d.col, "a second feature '%.*s' (a letter has one feature; the directives "
                 "are MON, OBJ, EGO, ART, TRAP and SECRET)", (int)(name.len > 20 ? 20 : name.len),
                 name.p);
        return 0;
    }
    return read_feature(r, at, name, args, paren != NULL, spec);
}

int fd_read_grid(fd_reader *r, const fd_line *at, const char *s, size_t len, qg_fd_spec *spec)
{
    memset(spec, 0, sizeof *spec);
    spec->feature.index = -1;
    if (len < 2 || s[1] != ':') {
        fd_error(at, 3, "an L: line needs a letter and its directives (L:x:FLOOR)");
        return 0;
    }
    spec->letter = (unsigned char)s[0];
    if (spec->letter >= 0x80) {
        fd_error(at, 3, "non-ASCII letter \\x%02X", spec->letter);
        return 0;
    }
    span rest = {s + 2, len - 2, 5};
    int ok = 1, features = 0, count = 0;
    while (rest.len && ok) {
        ok = read_directive(r, at, next_piece(&rest, ':'), spec, &features);
        count++;
    }
    spec->fields = count + 1;
    return ok;
}
