/* A load that reads no map rows gives no level: why, said from the
 * quest's own records and the dialect's table of the quest types whose
 * level the dungeon generator makes. */
#include "fd/fd_internal.h"

#include <stdio.h>
#include <string.h>

/* Whether the type text names value: the whole text (a Q:n:Q number) or
 * one of its flags ("TOWN | GENERATE"). */
static int names_value(const char *type, const char *value)
{
    size_t n = strlen(value);
    for (const char *p = type; (p = strstr(p, value)) != NULL; p += n) {
        int starts = p == type || p[-1] == ' ' || p[-1] == '|';
        int ends = !p[n] || p[n] == ' ' || p[n] == '|';
        if (starts && ends)
            return 1;
    }
    return 0;
}

static const fd_quest_kind *generated_kind(const fd_dialect_row *row, const char *type)
{
    for (const fd_quest_kind *k = row->generated_quests; type && k && k->value; k++)
        if (names_value(type, k->value))
            return k;
    return NULL;
}

/* ", in dungeon 'angband' at level 10" from what the records say. */
static void where(const qg_level *level, char *out, size_t size)
{
    const char *dungeon = qg_level_get_property(level, "where");
    const char *depth = qg_level_get_property(level, "quest_level");
    if (dungeon && depth)
        snprintf(out, size, ", in dungeon '%s' at level %s", dungeon, depth);
    else if (depth)
        snprintf(out, size, ", at dungeon level %s", depth);
    else
        out[0] = '\0';
}

void fd_report_no_map(const fd_dialect_row *row, const qg_level *level, const char *path,
                      long wanted, long quest, qg_diags *diags)
{
    if (quest < 0) {
        if (wanted >= 0)
            qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                         "quest %ld is not defined by this hub (no quest record and no map)",
                         wanted);
        else
            qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                         "no map: neither the file nor what it includes gives map rows");
        return;
    }
    const char *name = qg_level_get_property(level, "name");
    const char *type = row->quest_type_key ? qg_level_get_property(level, row->quest_type_key)
                                           : NULL;
    const fd_quest_kind *kind = generated_kind(row, type);
    char place[160];
    where(level, place, sizeof place);
    char title[200];
    snprintf(title, sizeof title, "quest %ld%s%s%s", quest, name ? " (" : "", name ? name : "",
             name ? ")" : "");
    if (kind)
        qg_diags_add(diags, QG_NOTE, path, 0, 0, NULL, 0,
                     "%s has no map: it is %s (type %s), and the dungeon generator makes its "
                     "level%s", title, kind->what, type, place);
    else if (row->fixed_flag && type && !names_value(type, row->fixed_flag))
        qg_diags_add(diags, QG_NOTE, path, 0, 0, NULL, 0,
                     "%s has no map: its type (%s) lacks %s, so the dungeon generator makes its "
                     "level%s", title, type, row->fixed_flag, place);
    else
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                     "%s has no map: its type (%s) calls for a level of its own, but no map "
                     "rows are read for it", title, type ? type : "not given");
}
