/* F:letter:feature:cave_info:monster:object:ego:artifact:trap:special
 * (ToME: …:artifact:special:mimic:mflag): the fields the dialect's row
 * lays out, every form each field takes. */
#include "fd/fd_internal.h"

#include <string.h>

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

static int read_monster_form(fd_reader *r, const fd_line *at, const fd_tok *tok, qg_thing *t);

/* The vocabulary file of a kind as a message names it: the one read, else
 * the row's names ("A|B" said "A or B"). */
static const char *vocab_file_said(const fd_reader *r, qg_vocab_kind kind, char *buf,
                                   size_t size)
{
    const char *read = qg_vocab_source(r->opt->vocab, kind);
    const char *names = r->row->vocab.file[kind];
    if (read || !names)
        return read;
    size_t n = 0;
    for (const char *p = names; *p && n + 5 < size; p++) {
        if (*p == '|') {
            memcpy(buf + n, " or ", 4);
            n += 4;
        } else {
            buf[n++] = *p;
        }
    }
    buf[n] = '\0';
    return buf;
}

/* An index the variant's vocabulary does not have (checked when the
 * vocabulary is the variant's own). */
static int check_index(fd_reader *r, const fd_line *at, const fd_tok *tok, qg_vocab_kind kind,
                       const char *what, const qg_thing *t)
{
    const qg_vocab *vocab = r->opt->vocab;
    if (!r->opt->check_vocab || (t->kind != QG_THING_INDEX && t->kind != QG_THING_CLONE))
        return 1;
    char names[128];
    const char *file = vocab_file_said(r, kind, names, sizeof names);
    if (!qg_vocab_size(vocab, kind)) {
        /* said once a load: the index is not known to be wrong */
        if (!(r->unchecked & (1u << kind)))
            fd_note(at, tok->col, "%s indices are not checked: %s is not in the edit directory",
                    what, file ? file : "the variant's vocabulary file");
        r->unchecked |= 1u << kind;
        return 1;
    }
    if (qg_vocab_name(vocab, kind, t->index))
        return 1;
    fd_error(at, tok->col, "%s %ld is not in %s (its entries go up to %d)", what, (long)t->index,
             file ? file : "the vocabulary", qg_vocab_max_index(vocab, kind));
    return 0;
}

static int read_monster(fd_reader *r, const fd_line *at, const fd_tok *tok, qg_thing *t)
{
    int ok = read_monster_form(r, at, tok, t);
    return ok && check_index(r, at, tok, QG_VOCAB_MONSTER, "monster", t);
}

static int read_monster_form(fd_reader *r, const fd_line *at, const fd_tok *tok, qg_thing *t)
{
    if (tok->len && tok->p[0] == '*')
        return random_form(at, tok, "random monster depth", t);
    if (tok->len && tok->p[0] == 'c' && r->row->clones) {
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
    if (reward && tok->len == 1 && tok->p[0] == '!' && r->row->rewards) {
        set_thing(t, QG_THING_REWARD, 0, NULL);
        return 1;
    }
    return index_form(at, tok, what, t);
}

static int read_object(fd_reader *r, const fd_line *at, const fd_tok *tok, qg_slot slot,
                       qg_thing *t)
{
    static const char *const what[] = {"monster", "object", "ego", "artifact"};
    static const qg_vocab_kind kinds[] = {QG_VOCAB_MONSTER, QG_VOCAB_OBJECT, QG_VOCAB_KINDS,
                                          QG_VOCAB_ARTIFACT};
    int ok = read_item(r, at, tok, what[slot], slot != QG_SLOT_EGO, t);
    return ok && (kinds[slot] == QG_VOCAB_KINDS ||
                  check_index(r, at, tok, kinds[slot], what[slot], t));
}

/* A Hengband f_info tag; -1 without a vocabulary of tags. */
static int read_tag(fd_reader *r, const fd_line *at, const fd_tok *tok,
                    const char *what, int32_t *index, const char **name)
{
    *name = fd_keep(r, tok->p, tok->len);
    *index = -1;
    if (!r->vocab_has_tags)
        return 1;
    *index = qg_vocab_lookup_tag(r->opt->vocab, QG_VOCAB_FEATURE, *name ? *name : "");
    if (*index >= 0)
        return 1;
    const char *file = r->row->vocab.file[QG_VOCAB_FEATURE];
    const char *closest = qg_vocab_closest(r->opt->vocab, QG_VOCAB_FEATURE, *name ? *name : "");
    fd_error(at, tok->col, "unknown %s tag '%.*s' (not an N: tag of %s)%s%s%s", what,
             (int)(tok->len > 40 ? 40 : tok->len), tok->p, file ? file : "the vocabulary",
             closest ? "; did you mean " : "", closest ? closest : "", closest ? "?" : "");
    return 0;
}

static int read_feature_field(fd_reader *r, const fd_line *at, const fd_tok *tok, qg_thing *t)
{
    if (r->row->tag_features) {
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
    return ok && check_index(r, at, tok, QG_VOCAB_FEATURE, "feature", t);
}

static int read_trap(fd_reader *r, const fd_line *at, const fd_tok *tok, qg_thing *t)
{
    if (tok->len && tok->p[0] == '*')
        return random_form(at, tok, "random trap depth", t);
    if (!r->row->tag_features)
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

static int read_field(fd_reader *r, const fd_line *at, fd_field field, const fd_tok *tok,
                      qg_fd_spec *spec)
{
    switch (field) {
    case FD_F_FEATURE: return read_feature_field(r, at, tok, &spec->feature);
    case FD_F_INFO: return read_unsigned(at, tok, "cave_info", &spec->cave_info);
    case FD_F_MONSTER: return read_monster(r, at, tok, &spec->things[QG_SLOT_MONSTER]);
    case FD_F_OBJECT: return read_object(r, at, tok, QG_SLOT_OBJECT, &spec->things[QG_SLOT_OBJECT]);
    case FD_F_EGO: return read_object(r, at, tok, QG_SLOT_EGO, &spec->things[QG_SLOT_EGO]);
    case FD_F_ARTIFACT:
        return read_object(r, at, tok, QG_SLOT_ARTIFACT, &spec->things[QG_SLOT_ARTIFACT]);
    case FD_F_TRAP: return read_trap(r, at, tok, &spec->things[QG_SLOT_TRAP]);
    case FD_F_SPECIAL: return fd_number(at, tok, "special", &spec->special);
    case FD_F_QUEST_SPECIAL: return read_tome_special(r, at, tok, spec);
    case FD_F_MIMIC: return fd_number(at, tok, "mimic", &spec->mimic);
    case FD_F_MFLAG: return read_unsigned(at, tok, "mflag", &spec->mflag);
    default: return 1;
    }
}

int fd_read_feature(fd_reader *r, const fd_line *at, const char *s, size_t len,
                    qg_fd_spec *spec)
{
    const fd_field *fields = r->row->f_fields;
    size_t count = 0;
    while (count < FD_MAX_FIELDS && fields[count] != FD_F_END)
        count++;
    fd_tok tok[FD_MAX_FIELDS + 1];
    size_t n = fd_tokenize(s, len, 3, count + 1, tok);
    memset(spec, 0, sizeof *spec);
    spec->fields = (int)n;
    if (n < 2) {
        fd_error(at, 1, "too few fields: an F: line needs at least a letter and a feature");
        return 0;
    }
    int ok = read_letter(at, &tok[0], spec);
    for (size_t i = 1; i < n; i++)
        ok &= read_field(r, at, fields[i - 1], &tok[i], spec);
    return ok;
}
