/* Vocabularies: the names lib/edit files give to feature, monster, object
 * and artifact indices. Only N: (index and tag or name), E: (English
 * name, Hengband) and G: (the glyph and colour the game draws) lines
 * matter here, or in Hengband 3's .jsonc lists the same facts of each
 * entry. */
#include "questgrid/core.h"
#include "core/buf.h"
#include "core/definitions.h"
#include "core/file.h"
#include "core/suggest.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_INDEX 1000000

typedef struct entry {
    char *tag;   /* the N: text */
    char *name;  /* the E: text, or NULL */
    char glyph;  /* the G: character and colour letter, or 0 */
    char colour;
    unsigned char has_numbers;
    int32_t numbers[2];
    uint32_t words;  /* bit i: the table's word i */
} entry;

typedef struct table {
    entry *by_index;
    size_t cap;   /* entries allocated (indices 0..cap-1) */
    size_t count; /* defined entries */
    uint32_t *tag_slots;  /* open-addressing hash of tags: index + 1 */
    size_t slot_count;    /* a power of two, or 0 */
    size_t slot_used;
    char *words;          /* the words entries keep, space-separated */
} table;

struct qg_vocab {
    table tables[QG_VOCAB_KINDS];
    char *sources[QG_VOCAB_KINDS]; /* the file each kind was read from */
};

static const char *const file_names[QG_VOCAB_KINDS] = {
    "f_info.txt", "r_info.txt", "k_info.txt", "a_info.txt", "e_info.txt"};

qg_vocab *qg_vocab_new(void)
{
    return calloc(1, sizeof(qg_vocab));
}

void qg_vocab_free(qg_vocab *vocab)
{
    if (!vocab)
        return;
    for (int k = 0; k < QG_VOCAB_KINDS; k++) {
        table *t = &vocab->tables[k];
        for (size_t i = 0; i < t->cap; i++) {
            free(t->by_index[i].tag);
            free(t->by_index[i].name);
        }
        free(t->by_index);
        free(t->tag_slots);
        free(vocab->sources[k]);
        free(t->words);
    }
    free(vocab);
}

static entry *slot(table *t, int index)
{
    if ((size_t)index >= t->cap) {
        size_t cap = t->cap;
        if (!qg_grow((void **)&t->by_index, &cap, (size_t)index + 1, sizeof(entry)))
            return NULL;
        memset(t->by_index + t->cap, 0, (cap - t->cap) * sizeof(entry));
        t->cap = cap;
    }
    return &t->by_index[index];
}

static uint32_t hash_tag(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The slot of tag: where it is, or the empty slot it would take. Slots
 * whose entry no longer has that tag (retagged since) are passed over. */
static size_t tag_slot(const table *t, const char *tag)
{
    size_t mask = t->slot_count - 1;
    size_t at = hash_tag(tag) & mask;
    while (t->tag_slots[at]) {
        const char *have = t->by_index[t->tag_slots[at] - 1].tag;
        if (have && strcmp(have, tag) == 0)
            return at;
        at = (at + 1) & mask;
    }
    return at;
}

static int rehash_tags(table *t)
{
    size_t n = t->slot_count ? t->slot_count * 2 : 256;
    uint32_t *slots = calloc(n, sizeof *slots);
    if (!slots)
        return 0;
    free(t->tag_slots);
    t->tag_slots = slots;
    t->slot_count = n;
    t->slot_used = 0;
    for (size_t i = 0; i < t->cap; i++) {
        const char *tag = t->by_index[i].tag;
        if (!tag)
            continue;
        size_t at = tag_slot(t, tag);
        if (!t->tag_slots[at]) {
            t->tag_slots[at] = (uint32_t)i + 1;
            t->slot_used++;
        }
    }
    return 1;
}

/* Tags are looked up by the thousand (Hengband F: lines): a hash keeps
 * the lowest index of each tag, as a scan from 0 would find it. */
static int index_tag(table *t, int index)
{
    const char *tag = t->by_index[index].tag;
    if (!tag)
        return 1;
    if ((t->slot_used + 1) * 2 > t->slot_count && !rehash_tags(t))
        return 0;
    size_t at = tag_slot(t, tag);
    if (!t->tag_slots[at]) {
        t->tag_slots[at] = (uint32_t)index + 1;
        t->slot_used++;
    } else if ((uint32_t)index + 1 < t->tag_slots[at]) {
        t->tag_slots[at] = (uint32_t)index + 1;
    }
    return 1;
}

qg_status qg_vocab_add(qg_vocab *vocab, qg_vocab_kind kind, int index,
                       const char *tag, const char *name)
{
    if ((unsigned)kind >= QG_VOCAB_KINDS || index < 0 || index > MAX_INDEX)
        return QG_ERR_INVALID;
    table *t = &vocab->tables[kind];
    entry *e = slot(t, index);
    char *tag_copy = qg_strdup(tag);
    char *name_copy = qg_strdup(name);
    if (!e || (tag && !tag_copy) || (name && !name_copy)) {
        free(tag_copy);
        free(name_copy);
        return QG_ERR_NOMEM;
    }
    if (!e->tag && !e->name)
        t->count++;
    int retagged = e->tag && (!tag_copy || strcmp(e->tag, tag_copy) != 0);
    free(e->tag);
    free(e->name);
    e->tag = tag_copy;
    e->name = name_copy;
    /* A changed tag leaves a stale slot behind: rebuild from the entries. */
    if (retagged && t->slot_count && !rehash_tags(t))
        return QG_ERR_NOMEM;
    return index_tag(t, index) ? QG_OK : QG_ERR_NOMEM;
}

static const entry *get(const qg_vocab *vocab, qg_vocab_kind kind, int index)
{
    if (!vocab || (unsigned)kind >= QG_VOCAB_KINDS || index < 0)
        return NULL;
    const table *t = &vocab->tables[kind];
    if ((size_t)index >= t->cap)
        return NULL;
    const entry *e = &t->by_index[index];
    return e->tag || e->name ? e : NULL;
}

const char *qg_vocab_name(const qg_vocab *vocab, qg_vocab_kind kind, int index)
{
    const entry *e = get(vocab, kind, index);
    return e ? (e->name ? e->name : e->tag) : NULL;
}

const char *qg_vocab_tag(const qg_vocab *vocab, qg_vocab_kind kind, int index)
{
    const entry *e = get(vocab, kind, index);
    return e ? e->tag : NULL;
}

int qg_vocab_lookup(const qg_vocab *vocab, qg_vocab_kind kind, const char *text)
{
    if (!vocab || (unsigned)kind >= QG_VOCAB_KINDS || !text)
        return -1;
    const table *t = &vocab->tables[kind];
    if (t->slot_count) {
        size_t at = tag_slot(t, text);
        if (t->tag_slots[at])
            return (int)t->tag_slots[at] - 1;
    }
    for (size_t i = 0; i < t->cap; i++) {
        const entry *e = &t->by_index[i];
        if ((e->name && strcasecmp(e->name, text) == 0) ||
            (e->tag && strcasecmp(e->tag, text) == 0))
            return (int)i;
    }
    return -1;
}

int qg_vocab_lookup_tag(const qg_vocab *vocab, qg_vocab_kind kind, const char *tag)
{
    if (!vocab || (unsigned)kind >= QG_VOCAB_KINDS || !tag)
        return -1;
    const table *t = &vocab->tables[kind];
    if (!t->slot_count)
        return -1;
    size_t at = tag_slot(t, tag);
    return t->tag_slots[at] ? (int)t->tag_slots[at] - 1 : -1;
}

qg_status qg_vocab_set_look(qg_vocab *vocab, qg_vocab_kind kind, int index, char glyph,
                            char colour)
{
    if (!vocab || (unsigned)kind >= QG_VOCAB_KINDS || index < 0 || index > MAX_INDEX)
        return QG_ERR_INVALID;
    entry *e = slot(&vocab->tables[kind], index);
    if (!e)
        return QG_ERR_NOMEM;
    e->glyph = glyph;
    e->colour = colour;
    return QG_OK;
}

int qg_vocab_max_index(const qg_vocab *vocab, qg_vocab_kind kind)
{
    if (!vocab || (unsigned)kind >= QG_VOCAB_KINDS)
        return -1;
    const table *t = &vocab->tables[kind];
    for (size_t i = t->cap; i > 0; i--)
        if (t->by_index[i - 1].tag || t->by_index[i - 1].name)
            return (int)i - 1;
    return -1;
}

const char *qg_vocab_closest(const qg_vocab *vocab, qg_vocab_kind kind, const char *text)
{
    if (!vocab || (unsigned)kind >= QG_VOCAB_KINDS || !text)
        return NULL;
    const table *t = &vocab->tables[kind];
    qg_suggest s;
    qg_suggest_init(&s, text, strlen(text));
    for (size_t i = 0; i < t->cap; i++) {
        const entry *e = &t->by_index[i];
        if (e->tag)
            qg_suggest_offer(&s, e->tag, strlen(e->tag));
        if (e->name)
            qg_suggest_offer(&s, e->name, strlen(e->name));
    }
    const char *best = qg_suggest_best(&s);
    return best && s.best_len == strlen(best) ? best : NULL;
}

size_t qg_vocab_size(const qg_vocab *vocab, qg_vocab_kind kind)
{
    if (!vocab || (unsigned)kind >= QG_VOCAB_KINDS)
        return 0;
    return vocab->tables[kind].count;
}

static size_t trimmed_len(const char *s, size_t len)
{
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\r' || s[len - 1] == '\t'))
        len--;
    return len;
}

/* "12:text" → index 12, text (also "*:text" → the index after previous,
 * where the format allows it); returns 0 when the index is not a number. */
static int parse_index(const char *p, size_t len, const qg_vocab_format *format, int previous,
                       int *index, const char **text, size_t *text_len)
{
    size_t i = 0;
    long value = 0;
    size_t digits = 0;
    if (format->star_next && len && p[0] == '*') {
        value = (long)previous + 1;
        i = digits = 1;
    } else {
        while (i < len && isdigit((unsigned char)p[i]) && digits < 8) {
            value = value * 10 + (p[i] - '0');
            i++;
            digits++;
        }
    }
    if (!digits || (i < len && p[i] != ':'))
        return 0;
    *index = (int)value;
    *text = i < len ? p + i + 1 : p + len;
    *text_len = (size_t)(p + len - *text);
    return 1;
}

static qg_status add_entry(qg_vocab *vocab, qg_vocab_kind kind, int index,
                           const char *text, size_t len, int is_name)
{
    char *copy = qg_strndup(text, len);
    if (!copy)
        return QG_ERR_NOMEM;
    qg_status status;
    if (is_name)
        status = qg_vocab_add(vocab, kind, index, qg_vocab_tag(vocab, kind, index), copy);
    else
        status = qg_vocab_add(vocab, kind, index, copy, NULL);
    free(copy);
    return status;
}

static int key_is(const char *line, size_t len, const char *key)
{
    size_t n = key ? strlen(key) : 0;
    return n && len > n && line[n] == ':' && memcmp(line, key, n) == 0;
}

/* One record line: the entry it starts (*current), its tag. */
static qg_status record_line(qg_vocab *vocab, qg_vocab_kind kind, const qg_vocab_format *format,
                             const char *line, size_t len, int *current, int *ordinal,
                             int *bad)
{
    size_t key = strlen(format->record) + 1;
    const char *text = line + key;
    size_t text_len = len - key;
    if (format->ordinal) {
        *current = (*ordinal)++;
    } else if (!parse_index(line + key, len - key, format, *current, current, &text, &text_len) ||
               *current > MAX_INDEX) {
        *current = -1;
        *bad = 1;
        return QG_OK;
    }
    if (format->name_ends_at_colon) {
        const char *colon = memchr(text, ':', text_len);
        if (colon)
            text_len = (size_t)(colon - text);
    }
    return add_entry(vocab, kind, *current, text, trimmed_len(text, text_len), 0);
}

static const qg_vocab_format classic_format = {"N", 0, 0, 0, "E", NULL, NULL, NULL};

/* The position of word (len bytes) in the space-separated list, or -1. */
static int word_position(const char *list, const char *word, size_t len)
{
    int at = 0;
    for (const char *p = list; p && *p; at++) {
        size_t n = strcspn(p, " ");
        if (n == len && memcmp(p, word, len) == 0)
            return at < 32 ? at : -1;
        p += n + (p[n] == ' ');
    }
    return -1;
}

/* The words of a words_keys line ("F:A | B", "T:WEAPON | BOW") the table
 * keeps. */
static void note_words(entry *e, const char *list, const char *text, size_t len)
{
    for (size_t i = 0; i < len;) {
        while (i < len && (text[i] == ' ' || text[i] == '|'))
            i++;
        size_t start = i;
        while (i < len && text[i] != ' ' && text[i] != '|')
            i++;
        int at = i > start ? word_position(list, text + start, i - start) : -1;
        if (at >= 0)
            e->words |= 1u << at;
    }
}

/* "tval:sval:…" → the first two numbers. */
static void note_numbers(entry *e, const char *text, size_t len)
{
    long value[2] = {0, 0};
    size_t i = 0;
    for (int k = 0; k < 2; k++) {
        int negative = i < len && text[i] == '-';
        i += (size_t)negative;
        for (; i < len && text[i] >= '0' && text[i] <= '9'; i++)
            if (value[k] < 1000000)
                value[k] = value[k] * 10 + (text[i] - '0');
        value[k] = negative ? -value[k] : value[k];
        if (i < len && text[i] == ':')
            i++;
    }
    e->has_numbers = 1;
    e->numbers[0] = (int32_t)value[0];
    e->numbers[1] = (int32_t)value[1];
}

/* A line the format reads for an entry beside its name: its numbers or its
 * words. */
static qg_status entry_line(qg_vocab *vocab, qg_vocab_kind kind, const qg_vocab_format *format,
                            int current, const char *line, size_t len)
{
    int numbers = key_is(line, len, format->numbers_key);
    int words = !numbers && format->words && len > 2 && line[1] == ':' &&
                word_position(format->words_keys, line, 1) >= 0;
    if ((!numbers && !words) || current < 0)
        return QG_OK;
    entry *e = slot(&vocab->tables[kind], current);
    if (!e)
        return QG_ERR_NOMEM;
    size_t key = numbers ? strlen(format->numbers_key) + 1 : 2;
    if (numbers)
        note_numbers(e, line + key, len - key);
    else
        note_words(e, format->words, line + key, len - key);
    return QG_OK;
}

static qg_status parse_vocab_text(qg_vocab *vocab, qg_vocab_kind kind,
                                  const char *path, const char *data, size_t size,
                                  const qg_vocab_format *format, qg_diags *diags)
{
    int current = -1, ordinal = 0;
    int line_no = 0;
    const char *end = data + size;
    for (const char *line = data; line < end; line_no++) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);
        const char *next = nl ? nl + 1 : end;
        while (len && line[len - 1] == '\r')
            len--;
        qg_status status = QG_OK;
        if (key_is(line, len, format->record)) {
            int bad = 0;
            status = record_line(vocab, kind, format, line, len, &current, &ordinal, &bad);
            if (bad)
                qg_diags_add(diags, QG_ERROR, path, line_no + 1, (int)strlen(format->record) + 2,
                             line, len, "bad index in %s: line", format->record);
        } else if (len >= 5 && line[0] == 'G' && line[1] == ':' && line[3] == ':' &&
                   current >= 0) {
            entry *e = slot(&vocab->tables[kind], current);
            if (!e)
                return QG_ERR_NOMEM;
            e->glyph = line[2];
            e->colour = line[4];
        } else if (key_is(line, len, format->name_key) && current >= 0) {
            size_t key = strlen(format->name_key) + 1;
            status = add_entry(vocab, kind, current, line + key,
                               trimmed_len(line + key, len - key), 1);
        } else {
            status = entry_line(vocab, kind, format, current, line, len);
        }
        if (status != QG_OK)
            return status;
        line = next;
    }
    return qg_diags_count_severity(diags, QG_ERROR) ? QG_ERR_PARSE : QG_OK;
}

typedef struct definition_sink {
    qg_vocab *vocab;
    qg_vocab_kind kind;
    const char *path;
    qg_diags *diags;
} definition_sink;

/* The Japanese name is the entry's tag, as the N: text of the .txt lists
 * the .jsonc ones replaced; the English one its name. */
static qg_status add_definition(void *user, const qg_definition *def)
{
    definition_sink *sink = user;
    if (def->id < 0 || def->id > MAX_INDEX) {
        qg_diags_add(sink->diags, QG_ERROR, sink->path, 0, 0, NULL, 0,
                     "an entry's id %ld is out of range (0 to %d)", def->id, MAX_INDEX);
        return QG_OK;
    }
    int index = (int)def->id;
    qg_status st = qg_vocab_add(sink->vocab, sink->kind, index, def->ja ? def->ja : def->en,
                                def->ja ? def->en : NULL);
    if (st == QG_OK && def->glyph) {
        entry *e = slot(&sink->vocab->tables[sink->kind], index);
        e->glyph = def->glyph;
        e->colour = def->colour;
    }
    return st;
}

static int is_jsonc(const char *path)
{
    size_t n = strlen(path);
    return (n > 6 && strcmp(path + n - 6, ".jsonc") == 0) ||
           (n > 5 && strcmp(path + n - 5, ".json") == 0);
}

/* A .jsonc list is held whole as jansson's tree while it is read, about
 * 7 times its size (MonraceDefinitions.jsonc, 2.1 MB: 15 MB more at the
 * peak); its size is capped to keep that bounded. Hengband 3's largest is
 * 2.1 MB. */
#define MAX_DEFINITIONS_FILE (16u * 1024u * 1024u)

static qg_status load_file(qg_vocab *vocab, qg_vocab_kind kind, const char *path,
                           const qg_vocab_format *format, qg_diags *diags)
{
    table *t = &vocab->tables[kind];
    if (format->words && !t->words && !(t->words = qg_strdup(format->words)))
        return QG_ERR_NOMEM;
    char *data;
    size_t size;
    qg_status status = qg_read_file(path, is_jsonc(path) ? MAX_DEFINITIONS_FILE : QG_MAX_TEXT_FILE,
                                    &data, &size, diags);
    if (status != QG_OK)
        return status;
    if (is_jsonc(path)) {
        definition_sink sink = {vocab, kind, path, diags};
        status = qg_definitions_read(path, data, size, add_definition, &sink, diags);
    } else {
        status = parse_vocab_text(vocab, kind, path, data, size, format, diags);
    }
    free(data);
    if (status == QG_OK) {
        const char *slash = strrchr(path, '/');
        free(vocab->sources[kind]);
        vocab->sources[kind] = qg_strdup(slash ? slash + 1 : path);
    }
    return status;
}

qg_status qg_vocab_load_file(qg_vocab *vocab, qg_vocab_kind kind,
                             const char *path, qg_diags *diags)
{
    if ((unsigned)kind >= QG_VOCAB_KINDS)
        return QG_ERR_INVALID;
    return load_file(vocab, kind, path, &classic_format, diags);
}

/* The path of the first of names ("A|B": the one present) found in dir:
 * *path NULL when none is. */
static qg_status first_present(const char *dir, const char *names, char **path)
{
    *path = NULL;
    for (const char *p = names; *p;) {
        size_t n = strcspn(p, "|");
        char *name = qg_strndup(p, n);
        char *candidate = name ? qg_path_join(dir, name) : NULL;
        free(name);
        if (!candidate)
            return QG_ERR_NOMEM;
        FILE *probe = fopen(candidate, "rb");
        if (probe) {
            fclose(probe);
            *path = candidate;
            return QG_OK;
        }
        free(candidate);
        p += n + (p[n] == '|');
    }
    return QG_OK;
}

qg_status qg_vocab_load_files(qg_vocab *vocab, const char *dir,
                              const char *const files[QG_VOCAB_KINDS],
                              const qg_vocab_format formats[QG_VOCAB_KINDS], qg_diags *diags)
{
    int found = 0;
    qg_buf names;
    qg_buf_init(&names);
    for (int k = 0; k < QG_VOCAB_KINDS; k++) {
        if (!files[k])
            continue;
        qg_buf_printf(&names, "%s%s", names.len ? ", " : "", files[k]);
        char *path;
        qg_status status = first_present(dir, files[k], &path);
        if (status == QG_OK && path) {
            found++;
            status = load_file(vocab, (qg_vocab_kind)k, path,
                               formats ? &formats[k] : &classic_format, diags);
        }
        free(path);
        if (status != QG_OK) {
            qg_buf_free(&names);
            return status;
        }
    }
    if (!found)
        qg_diags_add(diags, QG_ERROR, dir, 0, 0, NULL, 0, "none of %s is here",
                     names.data ? names.data : "the vocabulary files");
    qg_buf_free(&names);
    return found ? QG_OK : QG_ERR_NOTFOUND;
}

qg_status qg_vocab_load_dir(qg_vocab *vocab, const char *dir, qg_diags *diags)
{
    static const qg_vocab_format formats[QG_VOCAB_KINDS] = {
        {"N", 0, 0, 0, "E", NULL, NULL, NULL}, {"N", 0, 0, 0, "E", NULL, NULL, NULL},
        {"N", 0, 0, 0, "E", NULL, NULL, NULL}, {"N", 0, 0, 0, "E", NULL, NULL, NULL},
        {"N", 0, 0, 0, "E", NULL, NULL, NULL}};
    return qg_vocab_load_files(vocab, dir, file_names, formats, diags);
}

const char *qg_vocab_source(const qg_vocab *vocab, qg_vocab_kind kind)
{
    return vocab && (unsigned)kind < QG_VOCAB_KINDS ? vocab->sources[kind] : NULL;
}

int qg_vocab_look(const qg_vocab *vocab, qg_vocab_kind kind, int index, char *glyph,
                  char *colour)
{
    if (!vocab || (unsigned)kind >= QG_VOCAB_KINDS || index < 0 ||
        (size_t)index >= vocab->tables[kind].cap || !vocab->tables[kind].by_index[index].colour)
        return 0;
    const entry *e = &vocab->tables[kind].by_index[index];
    if (glyph)
        *glyph = e->glyph;
    if (colour)
        *colour = e->colour;
    return 1;
}

int qg_vocab_numbers(const qg_vocab *vocab, qg_vocab_kind kind, int index, int32_t out[2])
{
    if (!vocab || (unsigned)kind >= QG_VOCAB_KINDS || index < 0 ||
        (size_t)index >= vocab->tables[kind].cap ||
        !vocab->tables[kind].by_index[index].has_numbers)
        return 0;
    const entry *e = &vocab->tables[kind].by_index[index];
    out[0] = e->numbers[0];
    out[1] = e->numbers[1];
    return 1;
}

int qg_vocab_has_word(const qg_vocab *vocab, qg_vocab_kind kind, int index, const char *word)
{
    if (!vocab || (unsigned)kind >= QG_VOCAB_KINDS || index < 0 || !word ||
        (size_t)index >= vocab->tables[kind].cap)
        return 0;
    const table *t = &vocab->tables[kind];
    int at = word_position(t->words, word, strlen(word));
    return at >= 0 && (t->by_index[index].words >> at) & 1u;
}
