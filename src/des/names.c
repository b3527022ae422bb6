#include "des/map.h"

#include <stdlib.h>
#include <string.h>

qg_des_names *qg_des_names_new(void)
{
    return calloc(1, sizeof(qg_des_names));
}

void qg_des_names_free(qg_des_names *names)
{
    if (!names)
        return;
    for (size_t i = 0; i < names->slot_count; i++)
        free(names->slots[i].name);
    for (size_t i = 0; i < names->file_count; i++)
        free(names->files[i]);
    free(names->files);
    free(names->slots);
    free(names);
}

static size_t hash_name(const char *s)
{
    size_t h = 1469598103934665603ull & (size_t)-1;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * (size_t)1099511628211ull;
    return h;
}

static des_name_entry *slot_for(des_name_entry *slots, size_t count, const char *name)
{
    size_t i = hash_name(name) & (count - 1);
    while (slots[i].name && strcmp(slots[i].name, name) != 0)
        i = (i + 1) & (count - 1);
    return &slots[i];
}

const des_name_entry *des_names_find(const qg_des_names *names, const char *name)
{
    if (!names || !names->slot_count)
        return NULL;
    const des_name_entry *e = slot_for(names->slots, names->slot_count, name);
    return e->name ? e : NULL;
}

static int grow(qg_des_names *names)
{
    size_t count = names->slot_count ? names->slot_count * 2 : 256;
    des_name_entry *slots = calloc(count, sizeof *slots);
    if (!slots)
        return 0;
    for (size_t i = 0; i < names->slot_count; i++)
        if (names->slots[i].name)
            *slot_for(slots, count, names->slots[i].name) = names->slots[i];
    free(names->slots);
    names->slots = slots;
    names->slot_count = count;
    return 1;
}

/* The table's copy of file (maps of one file come one after another). */
static const char *intern_file(qg_des_names *names, const char *file)
{
    if (names->file_count && strcmp(names->files[names->file_count - 1], file) == 0)
        return names->files[names->file_count - 1];
    char *copy = qg_strdup(file);
    char **slot = copy ? QG_PUSH(names->files, names->file_count, names->file_cap) : NULL;
    if (!slot) {
        free(copy);
        return NULL;
    }
    *slot = copy;
    return copy;
}

int des_names_add(qg_des_names *names, const char *name, const char *file, int line)
{
    if ((names->used + 1) * 2 > names->slot_count && !grow(names))
        return 0;
    const char *f = intern_file(names, file);
    if (!f)
        return 0;
    des_name_entry *e = slot_for(names->slots, names->slot_count, name);
    if (!e->name) {
        e->name = qg_strdup(name);
        if (!e->name)
            return 0;
        names->used++;
    }
    e->file = f;
    e->line = line;
    return 1;
}
