/* The quest states a load's ?: lines choose among. The classic games
 * format $QUESTn as quest n's status (process_dungeon_file_expr:
 * quest[n].status), and every game has one: QUEST_STATUS_UNTAKEN (0) in a
 * new game, up to its last QUEST_STATUS_*. So a file whose map rows all
 * lie under lines on those variables (Zangband 2.3.0's t0000005.txt, a
 * town drawn one way while quest 17 is taken and another otherwise) is a
 * level in the states the game sets, not a file without a map. */
#include "fd/fd_internal.h"
#include "core/buf.h"

#include <stdio.h>
#include <string.h>

/* Calls fn with each quest number a $QUESTn of the record names. */
static int each_quest(const qg_fd_record *rec, int (*fn)(void *, long), void *user)
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
        if (q > digits && (q == end || (*q != '_' && (*q < 'A' || *q > 'Z')))) {
            if (!fn(user, (long)fd_atoi(digits, (size_t)(q - digits))))
                return 0;
        }
        p = q - 1;
    }
    return 1;
}

typedef struct naming {
    const qg_vars *vars;  /* what the caller set: left alone */
    qg_vars *out;         /* a copy of vars with the states, once one is set */
    int state;
    qg_buf *said;
} naming;

/* 0 when memory ran out. */
static int name_one(void *user, long quest)
{
    naming *n = user;
    char name[QG_DECIMAL_SIZE + 8];
    snprintf(name, sizeof name, "QUEST%ld", quest);
    if (qg_vars_get(n->vars, name) || (n->out && qg_vars_get(n->out, name)))
        return 1;
    if (!n->out)
        n->out = fd_vars_with(n->vars, name, n->state);
    else if (qg_vars_set_int(n->out, name, n->state) != QG_OK)
        return 0;
    qg_buf_printf(n->said, "%s$%s", n->said->len ? ", " : "", name);
    return n->out != NULL && !n->said->failed;
}

qg_status fd_state_vars(const fd_payload *pl, const qg_vars *vars, int state, qg_vars **out,
                        qg_buf *said)
{
    naming n = {vars, NULL, state, said};
    int ok = 1;
    for (size_t i = 0; i < pl->record_count && ok; i++)
        if (pl->records[i]->kind == QG_FD_COND)
            ok = each_quest(pl->records[i], name_one, &n);
    if (!ok) {
        qg_vars_free(n.out);
        n.out = NULL;
    }
    *out = n.out;
    return ok ? QG_OK : QG_ERR_NOMEM;
}
