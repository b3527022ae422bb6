/* Splits a source file into one text slice per map plus the context (the
 * file with those slices blanked), and serialises each map's fields. */
#include "cache/pack.h"
#include "cache/rows.h"
#include "core/mapdef.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const qgc_field_keys[7] = {
    "tags", "depth", "place", "orient", "chance", "weight", "desc"
};

typedef struct slice {
    size_t first_line;  /* 1-based; 0 when the map has no slice */
    size_t last_line;
} slice;

typedef struct lines {
    size_t *start;      /* start[i] = offset of line i + 1; start[n] = len */
    size_t count;
} lines;

static qg_status index_lines(const char *text, size_t len, lines *out)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    if (len > 0 && text[len - 1] != '\n')
        n++;
    out->start = malloc((n + 1) * sizeof *out->start);
    if (!out->start)
        return QG_ERR_NOMEM;
    out->count = n;
    size_t line = 0;
    out->start[0] = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' && ++line < n)
            out->start[line] = i + 1;
    out->start[n] = len;
    return QG_OK;
}

static int starts_default_depth(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t'))
        i++;
    return len - i >= 14 && memcmp(text + i, "default-depth:", 14) == 0;
}

static int by_line(const void *a, const void *b, const int *def_lines)
{
    int la = def_lines[*(const size_t *)a], lb = def_lines[*(const size_t *)b];
    if (la != lb)
        return la < lb ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Insertion sort: files hold few maps next to each other in line order. */
static void sort_by_line(size_t *order, size_t count, const int *def_lines)
{
    for (size_t i = 1; i < count; i++)
        for (size_t j = i; j > 0 && by_line(&order[j - 1], &order[j], def_lines) > 0; j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

/* A map's slice runs from its first line to the line before the next map
 * (or before a .des default-depth line, whose Lua is file context). */
static void find_slices(const char *text, const lines *ln, qg_format format,
                        const int *def_lines, const size_t *order, size_t count,
                        slice *out)
{
    size_t taken = 0;
    for (size_t k = 0; k < count; k++) {
        size_t m = order[k];
        out[m] = (slice){0, 0};
        if (def_lines[m] < 1 || (size_t)def_lines[m] > ln->count ||
            (size_t)def_lines[m] <= taken)
            continue;
        size_t first = (size_t)def_lines[m], last = ln->count;
        for (size_t j = k + 1; j < count; j++)
            if ((size_t)def_lines[order[j]] > first) {
                last = (size_t)def_lines[order[j]] - 1;
                break;
            }
        if (format == QG_FORMAT_DES)
            for (size_t l = first + 1; l <= last; l++)
                if (starts_default_depth(text + ln->start[l - 1],
                                         ln->start[l] - ln->start[l - 1])) {
                    last = l - 1;
                    break;
                }
        out[m] = (slice){first, last};
        taken = last;
    }
}

static const char *find_bytes(const char *from, const char *end,
                              const char *needle, size_t len)
{
    for (const char *p = from; len > 0 && p + len <= end; p++) {
        p = memchr(p, needle[0], (size_t)(end - p));
        if (!p || p + len > end)
            return NULL;
        if (memcmp(p, needle, len) == 0)
            return p;
    }
    return NULL;
}

/* Rows that are consecutive lines of the slice, each from one column to
 * its last non-blank byte, are stored as three numbers: the usual case. */
static int rows_are_plain(const qg_mapdef *def, const char *slice_text,
                          size_t slice_len, size_t first_line, size_t *column)
{
    const char *end = slice_text + slice_len;
    const char *start = def->row_count && def->rows[0].line > 0
        ? qgc_slice_line(slice_text, end, first_line, (size_t)def->rows[0].line) : NULL;
    for (*column = 0; start && *column < 8; (*column)++) {
        const char *p = start;
        size_t i = 0;
        for (; i < def->row_count && p && p < end; i++) {
            const qg_row *row = &def->rows[i];
            const char *text;
            size_t len;
            p = row->line == def->rows[0].line + (int)i ? qgc_plain_row(p, end, *column, &text, &len)
                                                        : NULL;
            if (!p || len != row->len || memcmp(text, row->text, len) != 0)
                break;
        }
        if (i == def->row_count)
            return 1;
    }
    return 0;
}

/* Other rows are stored one by one: where each sits relative to where the
 * previous one ended (or its bytes), its line and length relative to the
 * previous row's. */
static void put_rows(qg_buf *meta, qg_buf *b, const qg_mapdef *def,
                     const char *slice_text, size_t slice_len, size_t first_line)
{
    size_t column;
    if (rows_are_plain(def, slice_text, slice_len, first_line, &column)) {
        qgc_put_varint(meta, QGC_ROWS_PLAIN);
        qgc_put_varint(meta, def->row_count);
        qgc_put_svarint(meta, (int64_t)def->rows[0].line - def->line);
        qgc_put_varint(meta, column);
        return;
    }
    const char *end = slice_text + slice_len;
    int64_t line = def->line, len = 0, expected = 0;
    qgc_put_varint(meta, QGC_ROWS_LISTED);
    qgc_put_varint(meta, slice_len);   /* the listed rows follow the slice */
    qgc_put_varint(meta, def->row_count);
    for (size_t i = 0; i < def->row_count; i++) {
        const qg_row *row = &def->rows[i];
        qgc_put_svarint(b, (int64_t)row->line - line);
        qgc_put_svarint(b, (int64_t)row->len - len);
        line = row->line;
        len = (int64_t)row->len;
        const char *from = slice_text + (expected < (int64_t)slice_len ? expected : 0);
        const char *hit = find_bytes(from, end, row->text, row->len);
        if (!hit)
            hit = find_bytes(slice_text, end, row->text, row->len);
        if (hit) {
            int64_t at = hit - slice_text;
            qgc_put_varint(b, (((uint64_t)(at - expected) << 1) ^
                               (uint64_t)(at < expected ? -1 : 0)) + 1);
            expected = at + (int64_t)row->len + 1;
        } else {
            qgc_put_varint(b, 0);
            qg_buf_append(b, row->text, row->len);
        }
    }
}

static int key_code(const char *key)
{
    for (int i = 0; i < QGC_KEY_COUNT; i++)
        if (strcmp(qgc_known_keys[i], key) == 0)
            return i + 1;
    return 0;
}

/* A value the reader can rebuild (from the index, or the rows for width
 * and height) is stored as a flag. */
static int same_as_implied(const qgc_map_rec *map, const qg_mapdef *def, const char *key,
                           const char *value)
{
    char text[QG_DECIMAL_SIZE];
    if (strcmp(key, "width") == 0 || strcmp(key, "height") == 0)
        return strcmp(qg_decimal(text, key[0] == 'w' ? (long long)qg_mapdef_width(def)
                                                     : (long long)def->row_count),
                      value) == 0;
    if (strcmp(key, "name") == 0)
        return strcmp(map->name, value) == 0;
    for (int f = 0; f < 7; f++)
        if (strcmp(qgc_field_keys[f], key) == 0)
            return strcmp(map->fields[f], value) == 0;
    if (strcmp(key, "quest") == 0 && map->quest >= 0)
        return strcmp(qg_decimal(text, map->quest), value) == 0;
    return 0;
}

static void put_props(qg_buf *b, const qg_mapdef *def, const qgc_map_rec *map)
{
    qgc_put_varint(b, def->props.count);
    for (size_t i = 0; i < def->props.count; i++) {
        const qg_prop *p = &def->props.items[i];
        int code = key_code(p->key);
        qgc_put_varint(b, (uint64_t)code);
        if (!code)
            qgc_put_str(b, p->key);
        int same = same_as_implied(map, def, p->key, p->value);
        qgc_put_varint(b, (uint64_t)same);
        if (!same)
            qgc_put_str(b, p->value);
    }
}

static int parse_quest(const char *text)
{
    if (!text || !*text)
        return -1;
    long v = 0;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9' || v > 100000000)
            return -1;
        v = v * 10 + (*p - '0');
    }
    return (int)v;
}

static qg_status fill_index(qgc_map_rec *map, const qg_mapdef *def, size_t file_index)
{
    map->name = qg_strdup(def->name);
    map->quest = parse_quest(qg_props_get(&def->props, "quest"));
    map->kind = def->kind;
    map->format = def->format;
    map->file = file_index;
    map->line = def->line;
    int ok = map->name != NULL;
    for (int f = 0; f < 7; f++) {
        const char *v = qg_props_get(&def->props, qgc_field_keys[f]);
        map->fields[f] = qg_strdup(v ? v : "");
        ok = ok && map->fields[f];
    }
    return ok ? QG_OK : QG_ERR_NOMEM;
}

/* Where the map's name starts when it ends the slice's first line (a .des
 * NAME: line), else len + 1. The index holds the name: the blob need not,
 * and unique names are what deflate compresses worst. */
static size_t name_at(const char *slice_text, size_t len, const char *name)
{
    const char *nl = memchr(slice_text, '\n', len);
    size_t line = nl ? (size_t)(nl - slice_text) : len, n = strlen(name);
    if (n == 0 || n > line || memcmp(slice_text + line - n, name, n) != 0)
        return len + 1;
    return line - n;
}

static void put_map(qgc_map_rec *map, const qg_mapdef *def, const char *text,
                    const lines *ln, slice s)
{
    const char *st = s.first_line ? text + ln->start[s.first_line - 1] : "";
    size_t sl = s.first_line ? ln->start[s.last_line] - ln->start[s.first_line - 1] : 0;
    size_t at = name_at(st, sl, def->name), name_len = at <= sl ? strlen(def->name) : 0;
    qgc_put_svarint(&map->meta, (int64_t)s.first_line - def->line);
    qgc_put_varint(&map->meta, at <= sl ? at + 1 : 0);
    qg_buf_append(&map->blob.raw, st, at <= sl ? at : sl);
    if (at <= sl)
        qg_buf_append(&map->blob.raw, st + at + name_len, sl - at - name_len);
    map->slice_len = sl - name_len;
    put_rows(&map->meta, &map->blob.raw, def, st, sl, s.first_line);
    put_props(&map->meta, def, map);
}

/* The context keeps every line outside the slices; a sliced line becomes
 * its bare newline so that line numbers do not move. */
static void build_context(qgc_file_rec *file, const lines *ln, const slice *sl,
                          const size_t *order, size_t count)
{
    qg_buf *ctx = &file->blob.raw;
    size_t line = 1;
    for (size_t k = 0; k <= count; k++) {
        size_t m = k < count ? order[k] : 0;
        if (k < count && !sl[m].first_line)
            continue;
        size_t until = k < count ? sl[m].first_line : ln->count + 1;
        qg_buf_append(ctx, file->text + ln->start[line - 1],
                      ln->start[until - 1] - ln->start[line - 1]);
        if (k == count)
            break;
        for (size_t l = sl[m].first_line; l <= sl[m].last_line; l++)
            if (file->text[ln->start[l] - 1] == '\n')
                qg_buf_putc(ctx, '\n');
        line = sl[m].last_line + 1;
    }
}

qg_status qgc_pack_file(qgc_file_rec *file, size_t file_index,
                        const qg_mapdef *const *defs, qgc_map_rec *maps,
                        size_t count)
{
    lines ln;
    if (index_lines(file->text, file->len, &ln) != QG_OK)
        return QG_ERR_NOMEM;
    int *def_lines = malloc((count + 1) * sizeof *def_lines);
    size_t *order = malloc((count + 1) * sizeof *order);
    slice *sl = malloc((count + 1) * sizeof *sl);
    qg_status st = def_lines && order && sl ? QG_OK : QG_ERR_NOMEM;
    for (size_t i = 0; st == QG_OK && i < count; i++) {
        def_lines[i] = defs[i]->line;
        order[i] = i;
        st = fill_index(&maps[i], defs[i], file_index);
    }
    if (st == QG_OK) {
        sort_by_line(order, count, def_lines);
        find_slices(file->text, &ln, file->meta.format, def_lines, order, count, sl);
        build_context(file, &ln, sl, order, count);
        for (size_t i = 0; i < count; i++)
            put_map(&maps[i], defs[i], file->text, &ln, sl[i]);
        int failed = file->blob.raw.failed;
        for (size_t i = 0; i < count; i++)
            failed |= maps[i].blob.raw.failed | maps[i].meta.failed;
        if (failed)
            st = QG_ERR_NOMEM;
    }
    free(ln.start);
    free(def_lines);
    free(order);
    free(sl);
    return st;
}


void qgc_map_rec_free(qgc_map_rec *map)
{
    free(map->name);
    for (int f = 0; f < 7; f++)
        free(map->fields[f]);
    qg_buf_free(&map->meta);
    qg_buf_free(&map->blob.raw);
}

void qgc_file_rec_free(qgc_file_rec *file)
{
    free((char *)file->meta.path);
    free(file->text);
    qg_buf_free(&file->blob.raw);
}
