/* Vocabulary mapping files: "kind:index:edit name:crawl name:glyph" lines
 * tying Angband-family indices and names to Crawl names and glyphs.
 *
 * Each loaded file is a layer: a later layer overrides an earlier one,
 * while inside one layer an index or lib/edit name may appear once and the
 * first line naming a Crawl name or glyph is the preferred one for reverse
 * lookups. Forward tables are filled as entries are added; the reverse
 * tables are rebuilt after each file, from the entries nothing overrides.
 * Every lookup is then one hash probe or one array read. */
#include "questgrid/mapping.h"
#include "core/buf.h"
#include "core/file.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_INDEX 1000000
#define FIELDS 5

typedef struct record {
    qg_mapping_entry pub;
    int layer;
    int shadowed; /* a later file maps its index or name anew */
} record;

/* Open addressing over record numbers + 1 (0 marks an empty slot). */
typedef struct name_table {
    size_t *slots;
    size_t cap; /* a power of two, or 0 */
    size_t used;
} name_table;

typedef enum name_field { EDIT_NAME, CRAWL_NAME } name_field;

struct qg_mapping {
    record **records;
    size_t count;
    size_t cap;
    char **files; /* file names the records point at */
    size_t file_count;
    size_t file_cap;
    int layers;
    name_table names[2];               /* by name_field */
    size_t *by_index[QG_VOCAB_KINDS];  /* record number + 1 per index */
    size_t index_cap[QG_VOCAB_KINDS];
    size_t by_glyph[QG_VOCAB_KINDS][256];
};

static const char *const kind_names[QG_VOCAB_KINDS] = {
    "feature", "monster", "object", "artifact", "ego"};

const char *qg_mapping_kind_name(qg_vocab_kind kind)
{
    return (unsigned)kind < QG_VOCAB_KINDS ? kind_names[kind] : NULL;
}

qg_mapping *qg_mapping_new(void)
{
    return calloc(1, sizeof(qg_mapping));
}

static void free_record(record *rec)
{
    if (!rec)
        return;
    free((char *)rec->pub.edit_name);
    free((char *)rec->pub.crawl_name);
    free(rec);
}

void qg_mapping_free(qg_mapping *mapping)
{
    if (!mapping)
        return;
    for (size_t i = 0; i < mapping->count; i++)
        free_record(mapping->records[i]);
    free(mapping->records);
    for (size_t i = 0; i < mapping->file_count; i++)
        free(mapping->files[i]);
    free(mapping->files);
    for (int f = 0; f < 2; f++)
        free(mapping->names[f].slots);
    for (int k = 0; k < QG_VOCAB_KINDS; k++)
        free(mapping->by_index[k]);
    free(mapping);
}

size_t qg_mapping_count(const qg_mapping *mapping)
{
    return mapping ? mapping->count : 0;
}

const qg_mapping_entry *qg_mapping_entry_at(const qg_mapping *mapping,
                                            size_t index)
{
    return mapping && index < mapping->count ? &mapping->records[index]->pub
                                             : NULL;
}

/* ---- name hash tables ------------------------------------------------- */

static const char *field_of(const record *rec, name_field field)
{
    return field == EDIT_NAME ? rec->pub.edit_name : rec->pub.crawl_name;
}

/* lib/edit names and tags are matched byte for byte (Hengband's FLOOR is
 * not the floor of another vocabulary); Crawl names ignore case, as Crawl
 * does. */
static int names_equal(name_field field, const char *a, const char *b)
{
    return field == EDIT_NAME ? strcmp(a, b) == 0 : strcasecmp(a, b) == 0;
}

static size_t hash_name(name_field field, qg_vocab_kind kind, const char *name)
{
    uint32_t h = 2166136261u ^ (uint32_t)kind;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        h ^= (uint32_t)(field == EDIT_NAME ? *p : tolower(*p));
        h *= 16777619u;
    }
    return h;
}

/* The slot holding (kind, name), or the empty slot where it would go. */
static size_t *probe(const qg_mapping *mapping, name_field field,
                     qg_vocab_kind kind, const char *name)
{
    const name_table *t = &mapping->names[field];
    size_t mask = t->cap - 1;
    for (size_t i = hash_name(field, kind, name) & mask;; i = (i + 1) & mask) {
        size_t *slot = &t->slots[i];
        if (!*slot)
            return slot;
        const record *rec = mapping->records[*slot - 1];
        if (rec->pub.kind == kind && names_equal(field, field_of(rec, field), name))
            return slot;
    }
}

static int grow_names(qg_mapping *mapping, name_field field)
{
    name_table *t = &mapping->names[field];
    if ((t->used + 1) * 2 <= t->cap)
        return 1;
    name_table old = *t;
    t->cap = old.cap ? old.cap * 2 : 64;
    t->slots = calloc(t->cap, sizeof *t->slots);
    if (!t->slots) {
        *t = old;
        return 0;
    }
    for (size_t i = 0; i < old.cap; i++) {
        if (!old.slots[i])
            continue;
        const record *rec = mapping->records[old.slots[i] - 1];
        *probe(mapping, field, rec->pub.kind, field_of(rec, field)) = old.slots[i];
    }
    free(old.slots);
    return 1;
}

/* ---- adding entries --------------------------------------------------- */

static size_t *index_slot(qg_mapping *mapping, qg_vocab_kind kind, int index)
{
    size_t need = (size_t)index + 1;
    if (need > mapping->index_cap[kind]) {
        size_t cap = mapping->index_cap[kind];
        if (!qg_grow((void **)&mapping->by_index[kind], &cap, need, sizeof(size_t)))
            return NULL;
        memset(mapping->by_index[kind] + mapping->index_cap[kind], 0,
               (cap - mapping->index_cap[kind]) * sizeof(size_t));
        mapping->index_cap[kind] = cap;
    }
    return &mapping->by_index[kind][index];
}

/* The record a later entry with the same key would clash with: one of the
 * same layer, which is a duplicate in the file being read. */
static const record *same_layer(const qg_mapping *mapping, size_t slot_value)
{
    if (!slot_value)
        return NULL;
    const record *rec = mapping->records[slot_value - 1];
    return rec->layer == mapping->layers ? rec : NULL;
}

/* Claims a reverse-lookup slot unless an entry of the same or a later
 * file already holds it. */
static void prefer(const qg_mapping *mapping, size_t *slot, const record *rec,
                   size_t number)
{
    if (!*slot || mapping->records[*slot - 1]->layer < rec->layer)
        *slot = number;
}

static void shadow(qg_mapping *mapping, size_t slot_value)
{
    if (slot_value)
        mapping->records[slot_value - 1]->shadowed = 1;
}

static qg_status insert(qg_mapping *mapping, record *rec)
{
    record **stored = QG_PUSH(mapping->records, mapping->count, mapping->cap);
    if (!stored)
        return QG_ERR_NOMEM;
    *stored = rec;
    size_t number = mapping->count;
    qg_vocab_kind kind = rec->pub.kind;
    if (rec->pub.index >= 0) {
        size_t *slot = index_slot(mapping, kind, rec->pub.index);
        if (!slot)
            return QG_ERR_NOMEM;
        shadow(mapping, *slot);
        *slot = number;
    }
    if (!grow_names(mapping, EDIT_NAME))
        return QG_ERR_NOMEM;
    size_t *slot = probe(mapping, EDIT_NAME, kind, rec->pub.edit_name);
    mapping->names[EDIT_NAME].used += !*slot;
    shadow(mapping, *slot);
    *slot = number;
    return QG_OK;
}

/* Rebuilds the Crawl name and glyph tables from the entries no later file
 * overrides: the latest file wins, and inside a file the first line. */
static qg_status index_reverse(qg_mapping *mapping)
{
    name_table *t = &mapping->names[CRAWL_NAME];
    if (t->cap)
        memset(t->slots, 0, t->cap * sizeof *t->slots);
    t->used = 0;
    memset(mapping->by_glyph, 0, sizeof mapping->by_glyph);
    for (size_t i = 0; i < mapping->count; i++) {
        const record *rec = mapping->records[i];
        if (rec->shadowed)
            continue;
        qg_vocab_kind kind = rec->pub.kind;
        if (rec->pub.crawl_name[0]) {
            if (!grow_names(mapping, CRAWL_NAME))
                return QG_ERR_NOMEM;
            size_t *slot = probe(mapping, CRAWL_NAME, kind, rec->pub.crawl_name);
            t->used += !*slot;
            prefer(mapping, slot, rec, i + 1);
        }
        if (rec->pub.glyph >= 0)
            prefer(mapping, &mapping->by_glyph[kind][rec->pub.glyph], rec, i + 1);
    }
    return QG_OK;
}

/* ---- reading mapping files -------------------------------------------- */

typedef struct line_ctx {
    qg_diags *diags;
    const char *file;
    int line_no;
    const char *line;
    size_t len;
    int errors;
} line_ctx;

static void line_error(line_ctx *ctx, size_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void line_error(line_ctx *ctx, size_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    qg_diags_vadd(ctx->diags, QG_ERROR, ctx->file, ctx->line_no, (int)offset + 1, ctx->line,
                  ctx->len, fmt, ap);
    va_end(ap);
    ctx->errors++;
}

typedef struct span {
    const char *text;
    size_t len;
    size_t offset; /* from the start of the line */
} span;

/* Splits at the first four ':'; the fifth field keeps the rest. Returns
 * the number of fields found. */
static int split_fields(const char *line, size_t len, span out[FIELDS])
{
    int n = 0;
    size_t start = 0;
    for (size_t i = 0; i <= len && n < FIELDS; i++) {
        if (i == len || (line[i] == ':' && n < FIELDS - 1)) {
            out[n].text = line + start;
            out[n].len = i - start;
            out[n].offset = start;
            n++;
            start = i + 1;
        }
    }
    return n;
}

static int parse_kind(line_ctx *ctx, const span *f, qg_vocab_kind *kind)
{
    for (int k = 0; k < QG_VOCAB_KINDS; k++) {
        if (strlen(kind_names[k]) == f->len &&
            memcmp(kind_names[k], f->text, f->len) == 0) {
            *kind = (qg_vocab_kind)k;
            return 1;
        }
    }
    line_error(ctx, f->offset, "unknown kind '%.*s' (expected feature, monster, "
               "object or artifact)", (int)f->len, f->text);
    return 0;
}

static int parse_index(line_ctx *ctx, const span *f, int *index)
{
    if (f->len == 1 && f->text[0] == '-') {
        *index = -1;
        return 1;
    }
    long value = 0;
    size_t i = 0;
    while (i < f->len && isdigit((unsigned char)f->text[i]) && value <= MAX_INDEX)
        value = value * 10 + (f->text[i++] - '0');
    if (f->len == 0 || i < f->len || value > MAX_INDEX) {
        line_error(ctx, f->offset + i, "bad index '%.*s': expected a number up "
                   "to %d, or '-'", (int)f->len, f->text, MAX_INDEX);
        return 0;
    }
    *index = (int)value;
    return 1;
}

static int check_name(line_ctx *ctx, const span *f, const char *what,
                      int may_be_empty)
{
    if (f->len == 0 && !may_be_empty) {
        line_error(ctx, f->offset, "the %s is empty", what);
        return 0;
    }
    if (f->len && (isspace((unsigned char)f->text[0]) ||
                   isspace((unsigned char)f->text[f->len - 1]))) {
        size_t at = isspace((unsigned char)f->text[0]) ? 0 : f->len - 1;
        line_error(ctx, f->offset + at, "the %s '%.*s' starts or ends with a space",
                   what, (int)f->len, f->text);
        return 0;
    }
    return 1;
}

static int parse_glyph(line_ctx *ctx, const span *f, int *glyph)
{
    if (f->len == 0) {
        *glyph = -1;
        return 1;
    }
    unsigned char c = (unsigned char)f->text[0];
    if (f->len > 1 || c <= ' ' || c >= 0x7f) {
        line_error(ctx, f->offset, "the glyph '%.*s' is not one printable "
                   "character", (int)f->len, f->text);
        return 0;
    }
    *glyph = c;
    return 1;
}

/* An entry this file already gives for the same index or lib/edit name. */
static int is_duplicate(line_ctx *ctx, const qg_mapping *m, qg_vocab_kind kind,
                        int index, const char *edit_name)
{
    const record *earlier = NULL;
    if (index >= 0 && (size_t)index < m->index_cap[kind])
        earlier = same_layer(m, m->by_index[kind][index]);
    if (earlier) {
        line_error(ctx, 0, "%s %d is already mapped on line %d", kind_names[kind],
                   index, earlier->pub.line);
        return 1;
    }
    if (m->names[EDIT_NAME].cap)
        earlier = same_layer(m, *probe(m, EDIT_NAME, kind, edit_name));
    if (earlier) {
        line_error(ctx, 0, "%s '%s' is already mapped on line %d", kind_names[kind],
                   edit_name, earlier->pub.line);
        return 1;
    }
    return 0;
}

static qg_status parse_line(qg_mapping *mapping, line_ctx *ctx, const char *file)
{
    span f[FIELDS];
    const char *nul = memchr(ctx->line, '\0', ctx->len);
    if (nul) {
        line_error(ctx, (size_t)(nul - ctx->line), "NUL byte in the line");
        return QG_OK;
    }
    if (split_fields(ctx->line, ctx->len, f) < FIELDS) {
        line_error(ctx, ctx->len, "too few fields: expected "
                   "kind:index:edit name:crawl name:glyph");
        return QG_OK;
    }
    qg_vocab_kind kind = QG_VOCAB_FEATURE;
    int index = -1, glyph = -1;
    int ok = parse_kind(ctx, &f[0], &kind);
    ok &= parse_index(ctx, &f[1], &index);
    ok &= check_name(ctx, &f[2], "lib/edit name", 0);
    ok &= check_name(ctx, &f[3], "Crawl name", 1);
    ok &= parse_glyph(ctx, &f[4], &glyph);
    if (!ok)
        return QG_OK;
    record *rec = calloc(1, sizeof *rec);
    char *edit_name = qg_strndup(f[2].text, f[2].len);
    char *crawl_name = qg_strndup(f[3].text, f[3].len);
    if (!rec || !edit_name || !crawl_name) {
        free(rec);
        free(edit_name);
        free(crawl_name);
        return QG_ERR_NOMEM;
    }
    *rec = (record){{kind, index, edit_name, crawl_name, glyph, file, ctx->line_no},
                    mapping->layers, 0};
    if (is_duplicate(ctx, mapping, kind, index, edit_name)) {
        free_record(rec);
        return QG_OK;
    }
    qg_status status = insert(mapping, rec);
    if (status != QG_OK && (mapping->count == 0 ||
                            mapping->records[mapping->count - 1] != rec))
        free_record(rec);
    return status;
}

static size_t trimmed_len(const char *s, size_t len)
{
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
        len--;
    return len;
}

static const char *remember_file(qg_mapping *mapping, const char *name)
{
    char *copy = qg_strdup(name);
    char **slot = copy ? QG_PUSH(mapping->files, mapping->file_count,
                                 mapping->file_cap)
                       : NULL;
    if (!slot) {
        free(copy);
        return NULL;
    }
    *slot = copy;
    return copy;
}

qg_status qg_mapping_load_text(qg_mapping *mapping, const char *name,
                               const char *text, size_t len, qg_diags *diags)
{
    if (!mapping || (!text && len))
        return QG_ERR_INVALID;
    const char *file = remember_file(mapping, name ? name : "");
    if (!file)
        return QG_ERR_NOMEM;
    mapping->layers++;
    line_ctx ctx = {diags, file, 0, NULL, 0, 0};
    const char *end = text + len;
    for (const char *line = text; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        ctx.line_no++;
        ctx.line = line;
        ctx.len = trimmed_len(line, nl ? (size_t)(nl - line) : (size_t)(end - line));
        if (ctx.len && line[0] != '#') {
            qg_status status = parse_line(mapping, &ctx, file);
            if (status != QG_OK) {
                index_reverse(mapping);
                return status;
            }
        }
        line = nl ? nl + 1 : end;
    }
    qg_status status = index_reverse(mapping);
    if (status != QG_OK)
        return status;
    return ctx.errors ? QG_ERR_PARSE : QG_OK;
}

qg_status qg_mapping_load_file(qg_mapping *mapping, const char *path,
                               qg_diags *diags)
{
    if (!mapping || !path)
        return QG_ERR_INVALID;
    char *data;
    size_t size;
    qg_status status = qg_read_file(path, QG_MAX_TEXT_FILE, &data, &size, diags);
    if (status != QG_OK)
        return status;
    status = qg_mapping_load_text(mapping, path, data, size, diags);
    free(data);
    return status;
}

qg_status qg_mapping_load_bundled(qg_mapping *mapping, qg_diags *diags)
{
    char *path;
    qg_status status = qg_data_find("edit/mapping.txt", &path, diags);
    if (status != QG_OK)
        return status;
    status = qg_mapping_load_file(mapping, path, diags);
    free(path);
    return status;
}

/* ---- lookups ------------------------------------------------------------ */

static const qg_mapping_entry *entry_of(const qg_mapping *mapping, size_t number)
{
    return number ? &mapping->records[number - 1]->pub : NULL;
}

const qg_mapping_entry *qg_mapping_by_index(const qg_mapping *mapping,
                                            qg_vocab_kind kind, int index)
{
    if (!mapping || (unsigned)kind >= QG_VOCAB_KINDS || index < 0 ||
        (size_t)index >= mapping->index_cap[kind])
        return NULL;
    return entry_of(mapping, mapping->by_index[kind][index]);
}

static const qg_mapping_entry *by_name(const qg_mapping *mapping, name_field field,
                                       qg_vocab_kind kind, const char *name)
{
    if (!mapping || (unsigned)kind >= QG_VOCAB_KINDS || !name || !name[0] ||
        !mapping->names[field].cap)
        return NULL;
    return entry_of(mapping, *probe(mapping, field, kind, name));
}

const qg_mapping_entry *qg_mapping_by_edit_name(const qg_mapping *mapping,
                                                qg_vocab_kind kind,
                                                const char *name)
{
    return by_name(mapping, EDIT_NAME, kind, name);
}

const qg_mapping_entry *qg_mapping_by_crawl_name(const qg_mapping *mapping,
                                                 qg_vocab_kind kind,
                                                 const char *name)
{
    return by_name(mapping, CRAWL_NAME, kind, name);
}

const qg_mapping_entry *qg_mapping_by_glyph(const qg_mapping *mapping,
                                            qg_vocab_kind kind,
                                            unsigned char glyph)
{
    if (!mapping || (unsigned)kind >= QG_VOCAB_KINDS)
        return NULL;
    return entry_of(mapping, mapping->by_glyph[kind][glyph]);
}
