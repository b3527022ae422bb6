/* Splits a source file into one text slice per map plus the context (the
 * file with those slices blanked), and serialises each map's fields. */
#include "cache/pack.h"
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

static void put_rows(qg_buf *b, const qg_mapdef *def, const char *slice_text,
                     size_t slice_len)
{
    const char *end = slice_text + slice_len, *from = slice_text;
    qgc_put_varint(b, def->row_count);
    for (size_t i = 0; i < def->row_count; i++) {
        const qg_row *row = &def->rows[i];
        qgc_put_varint(b, (uint64_t)(row->line < 0 ? 0 : row->line));
        qgc_put_varint(b, row->len);
        /* Rows are usually verbatim in the slice, in order: store where,
         * not what. */
        const char *hit = find_bytes(from, end, row->text, row->len);
        if (!hit)
            hit = find_bytes(slice_text, end, row->text, row->len);
        if (hit) {
            qgc_put_varint(b, (uint64_t)(hit - slice_text) + 1);
            from = hit + row->len;
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

static int same_as_index(const qgc_map_rec *map, const char *key, const char *value)
{
    for (int f = 0; f < 7; f++)
        if (strcmp(qgc_field_keys[f], key) == 0)
            return strcmp(map->fields[f], value) == 0;
    if (strcmp(key, "quest") == 0 && map->quest >= 0) {
        char text[24];
        snprintf(text, sizeof text, "%d", map->quest);
        return strcmp(text, value) == 0;
    }
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
        int same = same_as_index(map, p->key, p->value);
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

static void put_map(qgc_map_rec *map, const qg_mapdef *def, const char *text,
                    const lines *ln, slice s, size_t ctx_pos, size_t ctx_blank)
{
    qg_buf *b = &map->blob.raw;
    const char *st = s.first_line ? text + ln->start[s.first_line - 1] : "";
    size_t sl = s.first_line ? ln->start[s.last_line] - ln->start[s.first_line - 1] : 0;
    qgc_put_varint(b, s.first_line);
    qgc_put_bytes(b, st, sl);
    qgc_put_varint(b, ctx_pos);
    qgc_put_varint(b, ctx_blank);
    qgc_put_varint(b, (uint64_t)(def->line < 0 ? 0 : def->line));
    put_rows(b, def, st, sl);
    put_props(b, def, map);
}

/* The context keeps every line outside the slices; a sliced line becomes
 * its bare newline so that line numbers do not move. */
static void build_context(qgc_file_rec *file, const lines *ln, const slice *sl,
                          const size_t *order, size_t count, size_t *ctx_pos,
                          size_t *ctx_blank)
{
    qg_buf *ctx = &file->blob.raw;
    size_t line = 1;
    for (size_t k = 0; k <= count; k++) {
        size_t m = k < count ? order[k] : 0;
        size_t until = k < count && sl[m].first_line ? sl[m].first_line : ln->count + 1;
        if (k < count && !sl[m].first_line) {
            ctx_pos[m] = ctx_blank[m] = 0;
            continue;
        }
        qg_buf_append(ctx, file->text + ln->start[line - 1],
                      ln->start[until - 1] - ln->start[line - 1]);
        if (k == count)
            break;
        ctx_pos[m] = ctx->len;
        for (size_t l = sl[m].first_line; l <= sl[m].last_line; l++)
            if (file->text[ln->start[l] - 1] == '\n')
                qg_buf_putc(ctx, '\n');
        ctx_blank[m] = ctx->len - ctx_pos[m];
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
    size_t *ctx_pos = malloc((count + 1) * sizeof *ctx_pos);
    size_t *ctx_blank = malloc((count + 1) * sizeof *ctx_blank);
    qg_status st = def_lines && order && sl && ctx_pos && ctx_blank ? QG_OK : QG_ERR_NOMEM;
    for (size_t i = 0; st == QG_OK && i < count; i++) {
        def_lines[i] = defs[i]->line;
        order[i] = i;
        st = fill_index(&maps[i], defs[i], file_index);
    }
    if (st == QG_OK) {
        sort_by_line(order, count, def_lines);
        find_slices(file->text, &ln, file->format, def_lines, order, count, sl);
        build_context(file, &ln, sl, order, count, ctx_pos, ctx_blank);
        for (size_t i = 0; i < count; i++)
            put_map(&maps[i], defs[i], file->text, &ln, sl[i], ctx_pos[i], ctx_blank[i]);
        int failed = file->blob.raw.failed;
        for (size_t i = 0; i < count; i++)
            failed |= maps[i].blob.raw.failed;
        if (failed)
            st = QG_ERR_NOMEM;
    }
    free(ln.start);
    free(def_lines);
    free(order);
    free(sl);
    free(ctx_pos);
    free(ctx_blank);
    return st;
}

static void blob_free(qgc_blob *blob)
{
    qg_buf_free(&blob->raw);
    qg_buf_free(&blob->z);
}

void qgc_map_rec_free(qgc_map_rec *map)
{
    free(map->name);
    for (int f = 0; f < 7; f++)
        free(map->fields[f]);
    blob_free(&map->blob);
}

void qgc_file_rec_free(qgc_file_rec *file)
{
    free(file->path);
    free(file->text);
    blob_free(&file->blob);
}
