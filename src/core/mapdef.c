#include "core/mapdef.h"
#include "core/buf.h"

#include <stdlib.h>
#include <string.h>

qg_mapdef *qg_mapdef_new(qg_format format, const char *name)
{
    qg_mapdef *def = calloc(1, sizeof *def);
    if (!def)
        return NULL;
    def->format = format;
    def->name = qg_strdup(name ? name : "");
    if (!def->name) {
        free(def);
        return NULL;
    }
    return def;
}

void qg_mapdef_free(qg_mapdef *def)
{
    if (!def)
        return;
    if (def->payload_free)
        def->payload_free(def->payload);
    free(def->rows);
    qg_arena_free(&def->row_text);
    qg_props_free(&def->props);
    free(def->name);
    free(def->file);
    free(def);
}

qg_format qg_mapdef_format(const qg_mapdef *def) { return def->format; }
const char *qg_mapdef_name(const qg_mapdef *def) { return def->name; }
qg_map_kind qg_mapdef_kind(const qg_mapdef *def) { return def->kind; }
const char *qg_mapdef_file(const qg_mapdef *def) { return def->file ? def->file : ""; }
int qg_mapdef_line(const qg_mapdef *def) { return def->line; }
size_t qg_mapdef_row_count(const qg_mapdef *def) { return def->row_count; }
void qg_mapdef_set_kind(qg_mapdef *def, qg_map_kind kind) { def->kind = kind; }

const char *qg_mapdef_row(const qg_mapdef *def, size_t index, size_t *len, int *line)
{
    if (index >= def->row_count)
        return NULL;
    if (len)
        *len = def->rows[index].len;
    if (line)
        *line = def->rows[index].line;
    return def->rows[index].text;
}

int qg_mapdef_width(const qg_mapdef *def)
{
    size_t width = 0;
    for (size_t i = 0; i < def->row_count; i++)
        if (def->rows[i].len > width)
            width = def->rows[i].len;
    return (int)width;
}

size_t qg_mapdef_property_count(const qg_mapdef *def)
{
    return def->props.count;
}

const char *qg_mapdef_property(const qg_mapdef *def, size_t index, const char **value)
{
    return qg_props_at(&def->props, index, value);
}

const char *qg_mapdef_get_property(const qg_mapdef *def, const char *key)
{
    return qg_props_get(&def->props, key);
}

qg_status qg_mapdef_set_file(qg_mapdef *def, const char *file, int line)
{
    char *copy = qg_strdup(file);
    if (file && !copy)
        return QG_ERR_NOMEM;
    free(def->file);
    def->file = copy;
    def->line = line;
    return QG_OK;
}

qg_status qg_mapdef_add_row(qg_mapdef *def, const char *text, size_t len, int line)
{
    char *copy = qg_arena_strndup(&def->row_text, text, len);
    qg_row *row = copy ? QG_PUSH(def->rows, def->row_count, def->row_cap) : NULL;
    if (!row)
        return QG_ERR_NOMEM;
    row->text = copy;
    row->len = len;
    row->line = line;
    return QG_OK;
}

qg_status qg_mapdef_add_property(qg_mapdef *def, const char *key, const char *value)
{
    return qg_props_add(&def->props, key, value);
}

void qg_mapdef_set_payload(qg_mapdef *def, void *payload, void (*payload_free)(void *))
{
    if (def->payload_free)
        def->payload_free(def->payload);
    def->payload = payload;
    def->payload_free = payload_free;
}
