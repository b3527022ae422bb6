#include "des/map.h"

#include <stdlib.h>
#include <string.h>

qg_des_names *qg_des_names_new(void)
{
    qg_des_names *names = calloc(1, sizeof(qg_des_names));
    if (names)
        qg_buf_init(&names->text);
    return names;
}

void qg_des_names_free(qg_des_names *names)
{
    if (!names)
        return;
    for (size_t i = 0; i < names->file_count; i++)
        free(names->files[i]);
    free(names->files);
    free(names->slots);
    qg_buf_free(&names->text);
    free(names);
}

static size_t hash_name(const char *s)
{
    size_t h = 1469598103934665603ull & (size_t)-1;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * (size_t)1099511628211ull;
    return h;
}

static des_name_slot *slot_for(const qg_des_names *names, des_name_slot *slots, size_t count,
                               const char *name)
{
    size_t i = hash_name(name) & (count - 1);
    while (slots[i].name && strcmp(names->text.data + slots[i].name - 1, name) != 0)
        i = (i + 1) & (count - 1);
    return &slots[i];
}

int des_names_find(const qg_des_names *names, const char *name, const char **file,
                   int *line)
{
    if (!names || !names->slot_count)
        return 0;
    const des_name_slot *e = slot_for(names, names->slots, names->slot_count, name);
    if (!e->name)
        return 0;
    *file = names->files[e->file];
    *line = e->line;
    return 1;
}

static int grow(qg_des_names *names)
{
    size_t count = names->slot_count ? names->slot_count * 2 : 256;
    des_name_slot *slots = calloc(count, sizeof *slots);
    if (!slots)
        return 0;
    for (size_t i = 0; i < names->slot_count; i++)
        if (names->slots[i].name)
            *slot_for(names, slots, count, names->text.data + names->slots[i].name - 1) =
                names->slots[i];
    free(names->slots);
    names->slots = slots;
    names->slot_count = count;
    return 1;
}

/* The table's copy of file (maps of one file come one after another). */
static int intern_file(qg_des_names *names, const char *file, uint32_t *index)
{
    if (!names->file_count || strcmp(names->files[names->file_count - 1], file) != 0) {
        char *copy = qg_strdup(file);
        char **slot = copy && names->file_count < UINT32_MAX
            ? QG_PUSH(names->files, names->file_count, names->file_cap) : NULL;
        if (!slot) {
            free(copy);
            return 0;
        }
        *slot = copy;
    }
    *index = (uint32_t)(names->file_count - 1);
    return 1;
}

int des_names_add(qg_des_names *names, const char *name, const char *file, int line)
{
    if ((names->used + 1) * 2 > names->slot_count && !grow(names))
        return 0;
    uint32_t f;
    if (!intern_file(names, file, &f))
        return 0;
    des_name_slot *e = slot_for(names, names->slots, names->slot_count, name);
    if (!e->name) {
        size_t at = names->text.len;
        if (at >= UINT32_MAX || !qg_buf_append(&names->text, name, strlen(name) + 1))
            return 0;
        e->name = (uint32_t)at + 1;
        names->used++;
    }
    e->file = f;
    e->line = line;
    return 1;
}
