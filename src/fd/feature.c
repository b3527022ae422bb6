/* F:letter:feature:cave_info:monster:object:ego:artifact:trap:special
 * (ToME: …:artifact:special:mimic:mflag), every form each field takes. */
#include "fd/fd_internal.h"

#include <string.h>

static int dialect_is(const fd_reader *r, qg_fd_dialect d)
{
    return r->dialect == d;
}

static void set_thing(qg_thing *t, qg_thing_kind kind, int32_t index, const char *name)
{
    t->kind = kind;
    t->index = index;
    t->name = name;
}

/* "*" or "*N": random, N levels out of depth. */
static int random_form(const fd_line *at, const fd_tok *tok, const char *what, qg_thing *t)
{
    fd_tok rest = {tok->p + 1, tok->len - 1, tok->col + 1};
    int32_t offset = 0;
    int ok = rest.len == 0 || fd_number(at, &rest, what, &offset);
    set_thing(t, QG_THING_RANDOM, offset, NULL);
    return ok;
}

/* A plain index: 0 means nothing; negative indices are undefined in the
 * games (Zangband reads r_info[-n]). */
static int index_form(const fd_line *at, const fd_tok *tok, const char *what, qg_thing *t)
{
    int32_t index;
    int ok = fd_number(at, tok, what, &index);
    if (ok && index < 0) {
        fd_error(at, tok->col, "negative %s index %ld", what, (long)index);
        ok = 0;
    }
    set_thing(t, index ? QG_THING_INDEX : QG_THING_NONE, index, NULL);
    return ok;
}

static int read_monster(fd_reader *r, const fd_line *at, const fd_tok *tok, qg_thing *t)
{
    if (tok->len && tok->p[0] == '*')
        return random_form(at, tok, "random monster depth", t);
    if (tok->len && tok->p[0] == 'c' && dialect_is(r, QG_FD_HENGBAND)) {
        fd_tok rest = {tok->p + 1, tok->len - 1, tok->col + 1};
        int32_t index = 0;
        if (rest.len == 0) {
            fd_error(at, tok->col, "clone 'c' needs a monster index (cN)");
            return 0;
        }
        int ok = fd_number(at, &rest, "clone monster", &index);
        set_thing(t, QG_THING_CLONE, index, NULL);
        return ok;
    }
    return index_form(at, tok, "monster", t);
}

/* Objects, egos and artifacts; Hengband's '!' (the quest's reward) is
 * accepted for objects and artifacts. */
static int read_item(fd_reader *r, const fd_line *at, const fd_tok *tok,
                     const char *what, int reward, qg_thing *t)
{
    if (tok->len && tok->p[0] == '*')
        return random_form(at, tok, what, t);
    if (reward && tok->len == 1 && tok->p[0] == '!' && dialect_is(r, QG_FD_HENGBAND)) {
        set_thing(t, QG_THING_REWARD, 0, NULL);
        return 1;
    }
    return index_form(at, tok, what, t);
}

/* A Hengband f_info tag; -1 without a vocabulary of tags. */
static int read_tag(fd_reader *r, const fd_line *at, const fd_tok *tok,
                    const char *what, int32_t *index, const char **name)
{
    *name = fd_keep(r, tok->p, tok->len);
    *index = -1;
    if (!r->vocab_has_tags)
        return 1;
    *index = qg_vocab_lookup(r->opt->vocab, QG_VOCAB_FEATURE, *name ? *name : "");
    if (*index >= 0)
        return 1;
    fd_error(at, tok->col, "unknown %s tag '%.*s' (not an N: tag of f_info.txt)",
             what, (int)(tok->len > 40 ? 40 : tok->len), tok->p);
    return 0;
}

static int read_feature_field(fd_reader *r, const fd_line *at, const fd_tok *tok, qg_thing *t)
{
    if (dialect_is(r, QG_FD_HENGBAND)) {
        if (tok->len == 1 && tok->p[0] == '*') {
            set_thing(t, QG_THING_RANDOM, 0, NULL);
            return 1;
        }
        int32_t index;
        const char *name;
        int ok = read_tag(r, at, tok, "terrain", &index, &name);
        set_thing(t, QG_THING_TAG, index, name);
        return ok;
    }
    if (tok->len && tok->p[0] == '*')
        return random_form(at, tok, "random feature depth", t);
    int32_t index;
    int ok = fd_number(at, tok, "feature", &index);
    if (ok && index < 0) {
        fd_error(at, tok->col, "negative feature index %ld", (long)index);
        ok = 0;
    }
    set_thing(t, QG_THING_INDEX, index, NULL);
    return ok;
}

static int read_trap(fd_reader *r, const fd_line *at, const fd_tok *tok, qg_thing *t)
{
    if (tok->len && tok->p[0] == '*')
        return random_form(at, tok, "random trap depth", t);
    if (!dialect_is(r, QG_FD_HENGBAND))
        return index_form(at, tok, "trap", t);
    if (tok->len == 0) {
        set_thing(t, QG_THING_NONE, 0, NULL);
        return 1;
    }
    int32_t index;
    const char *name;
    int ok = read_tag(r, at, tok, "trap", &index, &name);
    /* Index 0 (NONE) places no trap. */
    if (index == 0 || (index < 0 && name && strcmp(name, "NONE") == 0))
        set_thing(t, QG_THING_NONE, 0, NULL);
    else
        set_thing(t, QG_THING_TAG, index, name);
    return ok;
}

static int read_unsigned(const fd_line *at, const fd_tok *tok, const char *what, uint32_t *out)
{
    int32_t value;
    int ok = fd_number(at, tok, what, &value);
    if (ok && value < 0) {
        fd_error(at, tok->col, "negative %s %ld", what, (long)value);
        ok = 0;
    }
    *out = (uint32_t)value;
    return ok;
}

/* ToME: a number, or "quest name". */
static int read_tome_special(fd_reader *r, const fd_line *at, const fd_tok *tok, qg_fd_spec *spec)
{
    if (tok->len && tok->p[0] == '"') {
        size_t n = 1;
        while (n < tok->len && tok->p[n] != '"')
            n++;
        if (n == tok->len)
            fd_warning(at, tok->col, "quest name without its closing '\"'");
        spec->special_name = fd_keep(r, tok->p + 1, n - 1);
        return spec->special_name != NULL;
    }
    return fd_number(at, tok, "special", &spec->special);
}

static int read_letter(const fd_line *at, const fd_tok *tok, qg_fd_spec *spec)
{
    if (tok->len == 0) {
        fd_error(at, tok->col, "F: line without a letter");
        return 0;
    }
    spec->letter = (unsigned char)tok->p[0];
    if (spec->letter >= 0x80) {
        fd_error(at, tok->col, "non-ASCII letter \\x%02X (the games index a 255-entry table with a signed char)",
                 spec->letter);
        return 0;
    }
    if (tok->len > 1)
        fd_warning(at, tok->col + 1, "the letter field has %zu bytes; the games use only '%c'",
                   tok->len, spec->letter);
    return 1;
}

int fd_read_feature(fd_reader *r, const fd_line *at, const char *s, size_t len,
                    qg_fd_spec *spec)
{
    fd_tok tok[10];
    int tome = dialect_is(r, QG_FD_TOME);
    size_t n = fd_tokenize(s, len, 3, tome ? 10 : 9, tok);
    memset(spec, 0, sizeof *spec);
    spec->fields = (int)n;
    if (n < 2) {
        fd_error(at, 1, "too few fields: an F: line needs at least a letter and a feature");
        return 0;
    }
    int ok = read_letter(at, &tok[0], spec);
    ok &= read_feature_field(r, at, &tok[1], &spec->feature);
    if (n > 2)
        ok &= read_unsigned(at, &tok[2], "cave_info", &spec->cave_info);
    if (n > 3)
        ok &= read_monster(r, at, &tok[3], &spec->things[QG_SLOT_MONSTER]);
    if (n > 4)
        ok &= read_item(r, at, &tok[4], "object", 1, &spec->things[QG_SLOT_OBJECT]);
    if (n > 5)
        ok &= read_item(r, at, &tok[5], "ego", 0, &spec->things[QG_SLOT_EGO]);
    if (n > 6)
        ok &= read_item(r, at, &tok[6], "artifact", 1, &spec->things[QG_SLOT_ARTIFACT]);
    if (tome) {
        if (n > 7)
            ok &= read_tome_special(r, at, &tok[7], spec);
        if (n > 8)
            ok &= fd_number(at, &tok[8], "mimic", &spec->mimic);
        if (n > 9)
            ok &= read_unsigned(at, &tok[9], "mflag", &spec->mflag);
        return ok;
    }
    if (n > 7)
        ok &= read_trap(r, at, &tok[7], &spec->things[QG_SLOT_TRAP]);
    if (n > 8)
        ok &= fd_number(at, &tok[8], "special", &spec->special);
    return ok;
}
