#include "core/props.h"
#include "core/buf.h"

#include <stdlib.h>
#include <string.h>

void qg_props_free(qg_props *props)
{
    for (size_t i = 0; i < props->count; i++) {
        free(props->items[i].key);
        free(props->items[i].value);
    }
    free(props->items);
    memset(props, 0, sizeof *props);
}

qg_status qg_props_add(qg_props *props, const char *key, const char *value)
{
    char *k = qg_strdup(key);
    char *v = qg_strdup(value ? value : "");
    qg_prop *p = k && v ? QG_PUSH(props->items, props->count, props->cap) : NULL;
    if (!p) {
        free(k);
        free(v);
        return QG_ERR_NOMEM;
    }
    p->key = k;
    p->value = v;
    return QG_OK;
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
