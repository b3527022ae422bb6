/* The quests a hub defines, for a host that lists them or checks a quest
 * number before loading it. */
#include "fd/fd_internal.h"
#include "core/buf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct quests {
    qg_fd_hub_quest *items;
    size_t count, cap;
} quests;

static qg_fd_hub_quest *quest_numbered(quests *q, int number)
{
    for (size_t i = 0; i < q->count; i++)
        if (q->items[i].number == number)
            return &q->items[i];
    qg_fd_hub_quest *item = QG_PUSH(q->items, q->count, q->cap);
    if (item)
        *item = (qg_fd_hub_quest){number, NULL, NULL};
    return item;
}

/* n of a ?: line choosing by [EQU $QUEST_NUMBER n]; -1 for any other. */
static long chosen_number(const qg_fd_record *rec)
{
    static const char key[] = "$QUEST_NUMBER";
    const char *end = rec->text + rec->len;
    const char *p = rec->len > sizeof key ? strstr(rec->text, key) : NULL;
    if (!p || !strstr(rec->text, "EQU"))
        return -1;
    p += sizeof key - 1;
    while (p < end && *p == ' ')
        p++;
    if (p == end || !isdigit((unsigned char)*p))
        return -1;
    long n = 0;
    while (p < end && isdigit((unsigned char)*p) && n < 1000000)
        n = n * 10 + (*p++ - '0');
    return n;
}

static int by_number(const void *a, const void *b)
{
    int x = ((const qg_fd_hub_quest *)a)->number, y = ((const qg_fd_hub_quest *)b)->number;
    return (x > y) - (x < y);
}

/* What a record of the hub says of its quests: a ?: choice or a quest
 * record head opens a quest (*current) whose includes follow; a name
 * record names one. 0 when memory ran out. */
static int take(quests *q, const qg_mapdef *hub, const qg_fd_record *rec, long *current)
{
    const qg_fd_quest *quest = rec->quest;
    qg_fd_hub_quest *item;
    if (rec->kind == QG_FD_COND && rec->file == 0) {
        *current = chosen_number(rec);
        return *current < 0 || quest_numbered(q, (int)*current);
    }
    if (rec->kind == QG_FD_INCLUDE && rec->file == 0 && *current >= 0) {
        if (!(item = quest_numbered(q, (int)*current)))
            return 0;
        if (!item->file && rec->include >= 0)
            item->file = qg_fd_file_path(hub, (size_t)rec->include);
        return 1;
    }
    if (!quest || quest->sub != 'N' || !quest->text)
        return 1;
    if (quest->head && rec->file == 0)
        *current = quest->number;
    if (!(item = quest_numbered(q, quest->number)))
        return 0;
    if (!item->name || quest->english)
        item->name = quest->text;
    if (!item->file || rec->file)
        item->file = qg_fd_file_path(hub, rec->file);
    return 1;
}

qg_status qg_fd_hub_quests(const qg_mapdef *hub, qg_fd_hub_quest **out, size_t *count)
{
    quests q = {NULL, 0, 0};
    long current = -1;
    int ok = 1;
    for (size_t i = 0; ok && i < qg_fd_record_count(hub); i++)
        ok = take(&q, hub, qg_fd_record_at(hub, i), &current);
    if (!ok) {
        free(q.items);
        q = (quests){NULL, 0, 0};
    }
    if (q.count)
        qsort(q.items, q.count, sizeof *q.items, by_number);
    *out = q.items;
    *count = q.count;
    return ok ? QG_OK : QG_ERR_NOMEM;
}
