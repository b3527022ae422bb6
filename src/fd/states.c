/* The quest states a load's ?: lines choose among. The classic games
 * format $QUESTn as quest n's status (process_dungeon_file_expr:
 * quest[n].status), and every game has one: QUEST_STATUS_UNTAKEN (0) in a
 * new game, up to its last QUEST_STATUS_*. So a file whose map rows all
 * lie under lines on those variables (Zangband 2.3.0's t0000005.txt, a
 * town drawn one way while quest 17 is taken and another otherwise) is a
 * level in the states the game sets, not a file without a map. */
#include "fd/fd_internal.h"

#include <stdio.h>
#include <string.h>

/* Adds quest to the sorted set unless the caller's vars set it; 0 when
 * the set is full. */
static int add_quest(fd_state_quests *set, const qg_vars *vars, long quest)
{
    size_t lo = 0, hi = set->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (set->number[mid] == quest)
            return 1;
        if (set->number[mid] < quest)
            lo = mid + 1;
        else
            hi = mid;
    }
    char name[QG_DECIMAL_SIZE + 8];
    snprintf(name, sizeof name, "QUEST%ld", quest);
    if (qg_vars_get(vars, name))
        return 1;
    if (set->count == FD_STATE_QUESTS)
        return 0;
    memmove(set->number + lo + 1, set->number + lo, (set->count - lo) * sizeof *set->number);
    set->number[lo] = quest;
    set->count++;
    return 1;
}

/* Adds each quest number a $QUESTn of the record names; 0 when the set
 * is full. */
static int record_quests(fd_state_quests *set, const qg_vars *vars, const qg_fd_record *rec)
{
    static const char key[] = "$QUEST";
    const char *end = rec->text + rec->len;
    for (const char *p = rec->text; (size_t)(end - p) > sizeof key - 1; p++) {
        if (memcmp(p, key, sizeof key - 1) != 0)
            continue;
        const char *digits = p + sizeof key - 1;
        const char *q = digits;
        while (q < end && *q >= '0' && *q <= '9')
            q++;
        /* $QUEST17, not $QUEST_NUMBER nor $QUEST17X */
        int whole = q > digits && (q == end || (*q != '_' && (*q < 'A' || *q > 'Z')));
        if (whole && !add_quest(set, vars, (long)fd_atoi(digits, (size_t)(q - digits))))
            return 0;
        p = q - 1;
    }
    return 1;
}

int fd_state_quests_find(const fd_payload *pl, const qg_vars *vars, fd_state_quests *set)
{
    set->count = 0;
    for (size_t i = 0; i < pl->record_count; i++)
        if (pl->records[i]->kind == QG_FD_COND && !record_quests(set, vars, pl->records[i]))
            return 0;
    return 1;
}

qg_vars *fd_state_vars(const fd_state_quests *set, const qg_vars *vars, int state)
{
    char name[QG_DECIMAL_SIZE + 8];
    qg_vars *out = NULL;
    for (size_t i = 0; i < set->count; i++) {
        snprintf(name, sizeof name, "QUEST%ld", set->number[i]);
        if (!out) {
            out = fd_vars_with(vars, name, state);
            if (!out)
                return NULL;
        } else if (qg_vars_set_int(out, name, state) != QG_OK) {
            qg_vars_free(out);
            return NULL;
        }
    }
    return out;
}

void fd_state_names(const fd_state_quests *set, qg_buf *out)
{
    enum { SHOWN = 8 };
    for (size_t i = 0; i < set->count && i < SHOWN; i++)
        qg_buf_printf(out, "%s$QUEST%ld", i ? ", " : "", set->number[i]);
    if (set->count > SHOWN)
        qg_buf_printf(out, " and %zu more", set->count - SHOWN);
}
