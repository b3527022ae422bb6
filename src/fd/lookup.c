/* The monster, object, ego and artifact a room-template letter names, found
 * as FrogComposband's init1.c finds them: each entry's name is lowered,
 * stripped of its article and plural marks and wrapped in '^' and '$'
 * (_prep_name), and the first entry whose wrapped name contains the text
 * wins (parse_lookup_monster, _lookup_kind, _lookup_ego,
 * parse_lookup_artifact). The vocabulary must be the variant's own. */
#include "fd/lookup.h"

#include <string.h>

#define NAME_MAX_BYTES 256

/* _prep_name_aux: leading ' ', '&', '[', '(' skipped, '~', ']', ')'
 * dropped, upper case lowered; appended to out. */
static void prep(char *out, size_t cap, const char *name)
{
    size_t n = strlen(out);
    while (*name == ' ' || *name == '&' || *name == '[' || *name == '(')
        name++;
    for (; *name && n + 1 < cap; name++) {
        char c = *name;
        if (c == '~' || c == ']' || c == ')')
            continue;
        out[n++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
    }
    out[n] = '\0';
}

static void append(char *out, size_t cap, const char *text)
{
    size_t n = strlen(out), len = strlen(text);
    if (n + len >= cap)
        len = cap - n - 1;
    memcpy(out + n, text, len);
    out[n + len] = '\0';
}

/* "^" prefix name "$" */
static void wrapped(char *out, size_t cap, const char *prefix, const char *name)
{
    out[0] = '\0';
    append(out, cap, "^");
    append(out, cap, prefix);
    prep(out, cap, name ? name : "");
    append(out, cap, "$");
}

int fd_lookup_monster(const qg_vocab *vocab, const fd_room_rules *rules, const char *name)
{
    int deprecated = 0, max = qg_vocab_max_index(vocab, QG_VOCAB_MONSTER);
    char buf[NAME_MAX_BYTES];
    for (int i = 1; i <= max; i++) {
        const char *entry = qg_vocab_tag(vocab, QG_VOCAB_MONSTER, i);
        if (!entry)
            continue;
        wrapped(buf, sizeof buf, "", entry);
        if (!strstr(buf, name))
            continue;
        /* a deprecated monster is taken only when no other one matches */
        if (rules->deprecated && !deprecated &&
            qg_vocab_has_word(vocab, QG_VOCAB_MONSTER, i, "DEPRECATED")) {
            deprecated = i;
            continue;
        }
        return i;
    }
    return deprecated;
}

int fd_monster_symbol(const qg_vocab *vocab, const char *text)
{
    if (strlen(text) != 1)
        return 0;
    int max = qg_vocab_max_index(vocab, QG_VOCAB_MONSTER);
    for (int i = 0; i <= max; i++) {
        char glyph;
        if (qg_vocab_look(vocab, QG_VOCAB_MONSTER, i, &glyph, NULL) && glyph == text[0])
            return 1;
    }
    return 0;
}

static int tval_of(const qg_vocab *vocab, int k, int32_t *sval)
{
    int32_t n[2] = {0, 0};
    qg_vocab_numbers(vocab, QG_VOCAB_OBJECT, k, n);
    *sval = n[1];
    return n[0];
}

int fd_lookup_kind(const qg_vocab *vocab, const fd_room_rules *rules, const char *name)
{
    int max = qg_vocab_max_index(vocab, QG_VOCAB_OBJECT);
    char buf[NAME_MAX_BYTES];
    for (int k = 1; k <= max; k++) {
        const char *entry = qg_vocab_tag(vocab, QG_VOCAB_OBJECT, k);
        if (!entry)
            continue;
        int32_t sval;
        int tval = tval_of(vocab, k, &sval);
        const char *prefix = "";
        if (tval == rules->tv_food && sval <= rules->sv_last_mushroom)
            prefix = "mushroom of ";
        else if (tval == rules->tv_potion)
            prefix = "potion of ";
        else if (tval == rules->tv_scroll)
            prefix = "scroll of ";
        wrapped(buf, sizeof buf, prefix, entry);
        if (strstr(buf, name))
            return k;
    }
    return 0;
}

int fd_kind_of(const qg_vocab *vocab, const fd_room_rules *rules, int tval, int sval)
{
    int max = qg_vocab_max_index(vocab, QG_VOCAB_OBJECT), any = 0;
    for (int k = 1; k <= max; k++) {
        int32_t s;
        if (!qg_vocab_tag(vocab, QG_VOCAB_OBJECT, k) || tval_of(vocab, k, &s) != tval)
            continue;
        if (s == sval)
            return k;
        /* lookup_kind picks one of several at random; the games have one
           kind a device type */
        if (sval == rules->sv_any && !any)
            any = k;
    }
    return sval == rules->sv_any ? any : 0;
}

const fd_object_type *fd_object_type_named(const fd_room_rules *rules, const char *name)
{
    for (const fd_object_type *t = rules->object_types; t && t->name; t++)
        if (strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

const char *fd_ego_type_of(const fd_room_rules *rules, int tval)
{
    for (const fd_object_type *t = rules->object_types; t && t->name; t++)
        if (t->tval == tval)
            return t->ego_type;
    return NULL;
}

int fd_lookup_ego(const qg_vocab *vocab, const char *name, const char *ego_type)
{
    int max = qg_vocab_max_index(vocab, QG_VOCAB_EGO);
    char buf[NAME_MAX_BYTES];
    for (int e = 1; e <= max; e++) {
        const char *entry = qg_vocab_tag(vocab, QG_VOCAB_EGO, e);
        if (!entry || (ego_type && !qg_vocab_has_word(vocab, QG_VOCAB_EGO, e, ego_type)))
            continue;
        wrapped(buf, sizeof buf, "", entry);
        if (strstr(buf, name))
            return e;
    }
    return 0;
}

int fd_lookup_artifact(const qg_vocab *vocab, const fd_room_rules *rules, const char *name)
{
    int max = qg_vocab_max_index(vocab, QG_VOCAB_ARTIFACT);
    char buf[NAME_MAX_BYTES];
    for (int a = 1; a <= max; a++) {
        const char *entry = qg_vocab_tag(vocab, QG_VOCAB_ARTIFACT, a);
        if (!entry)
            continue;
        if (qg_vocab_has_word(vocab, QG_VOCAB_ARTIFACT, a, "FULL_NAME")) {
            wrapped(buf, sizeof buf, "", entry);
        } else {
            /* "long bow of bard": the kind's name and the artifact's, the
               artifact's first when it is a prefix */
            int32_t n[2] = {0, 0};
            qg_vocab_numbers(vocab, QG_VOCAB_ARTIFACT, a, n);
            int k = fd_kind_of(vocab, rules, n[0], n[1]);
            const char *kind = qg_vocab_tag(vocab, QG_VOCAB_OBJECT, k);
            int prefix = rules->prefix_names &&
                         qg_vocab_has_word(vocab, QG_VOCAB_ARTIFACT, a, "PREFIX_NAME");
            strcpy(buf, "^");
            prep(buf, sizeof buf, prefix ? entry : kind ? kind : "");
            append(buf, sizeof buf, " ");
            prep(buf, sizeof buf, prefix ? (kind ? kind : "") : entry);
            append(buf, sizeof buf, "$");
        }
        if (strstr(buf, name))
            return a;
    }
    return 0;
}
