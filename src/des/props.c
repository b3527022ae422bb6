/* The declarative properties of a .des map, as far as they are known
 * without running its Lua (the Lua runtime overwrites them after its
 * compile-time run). */
#include "des/map.h"
#include "des/parse.h"

#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Decimal text of v (snprintf costs more than the rest of a map). */
static const char *int_text(long v, char buf[24])
{
    char *p = buf + 23;
    unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
    *p = '\0';
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--p = '-';
    return p;
}

/* TAGS words, sorted, each once, space-separated. */
static int tags_value(const des_map *map, qg_buf *out)
{
    const char *local[64];
    const char **words = local;
    size_t count = 0;
    for (size_t i = 0; i < map->dir_count; i++)
        count += map->dirs[i].dir == DES_DIR_TAGS;
    if (count > sizeof local / sizeof *local && !(words = malloc(count * sizeof *words)))
        return 0;
    count = 0;
    for (size_t i = 0; i < map->dir_count; i++)
        if (map->dirs[i].dir == DES_DIR_TAGS)
            words[count++] = map->dirs[i].arg;
    if (count)
        qsort(words, count, sizeof *words, cmp_str);
    for (size_t i = 0; i < count; i++) {
        if (i && strcmp(words[i], words[i - 1]) == 0)
            continue;
        if (out->len)
            qg_buf_putc(out, ' ');
        qg_buf_puts(out, words[i]);
    }
    if (words != local)
        free(words);
    return !out->failed;
}

/* Every entry of dir joined with ", "; CHANCE/WEIGHT entries show their
 * depth range as "N (range)". */
static void joined_value(const des_map *map, des_dir dir, qg_buf *out)
{
    for (size_t i = 0; i < map->dir_count; i++) {
        const des_directive *d = &map->dirs[i];
        if (d->dir != dir || (d->arg_len == 0 && d->dir != DES_DIR_CHANCE &&
                              d->dir != DES_DIR_WEIGHT && d->dir != DES_DIR_ORDER))
            continue;
        if (out->len)
            qg_buf_puts(out, ", ");
        char num[24];
        if (dir == DES_DIR_CHANCE || dir == DES_DIR_WEIGHT || dir == DES_DIR_ORDER)
            qg_buf_puts(out, int_text((long)d->number, num));
        else
            qg_buf_append(out, d->arg, d->arg_len);
        if (d->range) {
            qg_buf_puts(out, " (");
            qg_buf_puts(out, d->range);
            qg_buf_putc(out, ')');
        }
        if (d->priority >= 0) {
            qg_buf_puts(out, " (priority ");
            qg_buf_puts(out, int_text(d->priority, num));
            qg_buf_putc(out, ')');
        }
    }
}

static const char *last_value(const des_map *map, des_dir dir)
{
    const char *value = NULL;
    for (size_t i = 0; i < map->dir_count; i++)
        if (map->dirs[i].dir == dir)
            value = map->dirs[i].arg;
    return value;
}

static qg_status add(qg_mapdef *def, const char *key, const char *value)
{
    if (!value || !*value)
        return QG_OK;
    return qg_mapdef_add_property(def, key, value);
}

qg_status des_map_properties(qg_mapdef *def, const des_map *map, const char *default_depth)
{
    qg_buf v;
    qg_buf_init(&v);
    qg_status st = add(def, "name", def->name);
    if (st == QG_OK && !tags_value(map, &v))
        st = QG_ERR_NOMEM;
    if (st == QG_OK)
        st = add(def, "tags", v.data);
    static const struct { des_dir dir; const char *key; } joined[] = {
        {DES_DIR_DEPTH, "depth"}, {DES_DIR_CHANCE, "chance"},
        {DES_DIR_WEIGHT, "weight"}, {DES_DIR_ORDER, "order"},
        {DES_DIR_LFLAGS, "lflags"}, {DES_DIR_BFLAGS, "bflags"},
    };
    for (size_t i = 0; st == QG_OK && i < sizeof joined / sizeof *joined; i++) {
        qg_buf_reset(&v);
        joined_value(map, joined[i].dir, &v);
        if (v.failed)
            st = QG_ERR_NOMEM;
        else if (joined[i].dir == DES_DIR_DEPTH && v.len == 0)
            st = add(def, "depth", default_depth);
        else
            st = add(def, joined[i].key, v.data);
    }
    static const struct { des_dir dir; const char *key; } last[] = {
        {DES_DIR_PLACE, "place"}, {DES_DIR_ORIENT, "orient"}, {DES_DIR_DESC, "desc"},
    };
    for (size_t i = 0; st == QG_OK && i < sizeof last / sizeof *last; i++)
        st = add(def, last[i].key, last_value(map, last[i].dir));
    if (st == QG_OK && def->row_count) {
        char num[24];
        st = add(def, "width", int_text(qg_mapdef_width(def), num));
        if (st == QG_OK)
            st = add(def, "height", int_text((long)def->row_count, num));
    }
    int layout = 0;
    for (size_t i = 0; i < map->dir_count; i++)
        layout |= map->dirs[i].dir == DES_DIR_TAGS && strcmp(map->dirs[i].arg, "layout") == 0;
    if (layout)
        qg_mapdef_set_kind(def, QG_KIND_LAYOUT);
    else
        qg_mapdef_set_kind(def, qg_mapdef_get_property(def, "orient") ? QG_KIND_VAULT
                                                                     : QG_KIND_MINIVAULT);
    qg_buf_free(&v);
    return st;
}
