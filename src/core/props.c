#include "core/props.h"
#include "core/buf.h"

#include <stdlib.h>
#include <string.h>

void qg_props_free(qg_props *props)
{
    free(props->items);
    qg_arena_free(&props->text);
    memset(props, 0, sizeof *props);
}

qg_status qg_props_add(qg_props *props, const char *key, const char *value)
{
    if (!value)
        value = "";
    char *k = qg_arena_strndup(&props->text, key, strlen(key));
    char *v = k ? qg_arena_strndup(&props->text, value, strlen(value)) : NULL;
    qg_prop *p = v ? QG_PUSH(props->items, props->count, props->cap) : NULL;
    if (!p)
        return QG_ERR_NOMEM;
    p->key = k;
    p->value = v;
    return QG_OK;
}

qg_status qg_props_set(qg_props *props, const char *key, const char *value)
{
    if (!value)
        value = "";
    for (size_t i = 0; i < props->count; i++) {
        if (strcmp(props->items[i].key, key) != 0)
            continue;
        char *v = qg_arena_strndup(&props->text, value, strlen(value));
        if (!v)
            return QG_ERR_NOMEM;
        props->items[i].value = v;
        return QG_OK;
    }
    return qg_props_add(props, key, value);
}

const char *qg_props_get(const qg_props *props, const char *key)
{
    for (size_t i = 0; i < props->count; i++)
        if (strcmp(props->items[i].key, key) == 0)
            return props->items[i].value;
    return NULL;
}

const char *qg_props_at(const qg_props *props, size_t index, const char **value)
{
    if (index >= props->count)
        return NULL;
    if (value)
        *value = props->items[index].value;
    return props->items[index].key;
}
