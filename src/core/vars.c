/* Caller-supplied variables: $LEVEL, $CLASS, $QUEST1, … */
#include "questgrid/core.h"
#include "core/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct var {
    char *name;
    char *value;
} var;

struct qg_vars {
    var *items;
    size_t count;
    size_t cap;
};

qg_vars *qg_vars_new(void)
{
    return calloc(1, sizeof(qg_vars));
}

void qg_vars_free(qg_vars *vars)
{
    if (!vars)
        return;
    for (size_t i = 0; i < vars->count; i++) {
        free(vars->items[i].name);
        free(vars->items[i].value);
    }
    free(vars->items);
    free(vars);
}

/* The first byte is compared inline: ?: lines look variables up by the
 * thousand when a hub is resolved. */
static var *find(const qg_vars *vars, const char *name)
{
    for (size_t i = 0; vars && i < vars->count; i++)
        if (vars->items[i].name[0] == name[0] && strcmp(vars->items[i].name, name) == 0)
            return &vars->items[i];
    return NULL;
}

qg_status qg_vars_set(qg_vars *vars, const char *name, const char *value)
{
    if (!vars || !name || !value)
        return QG_ERR_INVALID;
    if (name[0] == '$')
        name++;
    char *copy = qg_strdup(value);
    if (!copy)
        return QG_ERR_NOMEM;
    var *v = find(vars, name);
    if (v) {
        free(v->value);
        v->value = copy;
        return QG_OK;
    }
    char *name_copy = qg_strdup(name);
    v = name_copy ? QG_PUSH(vars->items, vars->count, vars->cap) : NULL;
    if (!v) {
        free(copy);
        free(name_copy);
        return QG_ERR_NOMEM;
    }
    v->name = name_copy;
    v->value = copy;
    return QG_OK;
}

qg_status qg_vars_set_int(qg_vars *vars, const char *name, long value)
{
    char text[32];
    snprintf(text, sizeof text, "%ld", value);
    return qg_vars_set(vars, name, text);
}

const char *qg_vars_get(const qg_vars *vars, const char *name)
{
    if (name && name[0] == '$')
        name++;
    const var *v = find(vars, name);
    return v ? v->value : NULL;
}

size_t qg_vars_count(const qg_vars *vars)
{
    return vars ? vars->count : 0;
}

const char *qg_vars_name_at(const qg_vars *vars, size_t index)
{
    return vars && index < vars->count ? vars->items[index].name : NULL;
}

qg_status qg_vars_set_assignment(qg_vars *vars, const char *assignment)
{
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment)
        return QG_ERR_INVALID;
    char *name = qg_strndup(assignment, (size_t)(eq - assignment));
    if (!name)
        return QG_ERR_NOMEM;
    qg_status status = qg_vars_set(vars, name, eq + 1);
    free(name);
    return status;
}
