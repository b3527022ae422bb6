/* Where a map is resolved: the place "Branch:depth" and what Crawl 0.28's
 * branch table says about it (levels per branch, absolute depth of its
 * first level), answered to you.* and dgn.br_depth. */
#include "lua/rt.h"
#include "core/suggest.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct branch_info {
    const char *name;
    int depth;     /* levels in the branch */
    int absdepth;  /* absolute depth of its first level */
} branch_info;

static const branch_info branches[] = {
    {"D", 15, 1}, {"Temple", 1, 5}, {"Orc", 2, 10}, {"Elf", 3, 13},
    {"Lair", 6, 9}, {"Swamp", 4, 12}, {"Shoals", 4, 12}, {"Snake", 4, 12},
    {"Spider", 4, 12}, {"Slime", 5, 15}, {"Vaults", 5, 14}, {"Crypt", 3, 19},
    {"Tomb", 3, 21}, {"Depths", 4, 16}, {"Zot", 5, 20}, {"Hell", 1, 28},
    {"Dis", 7, 28}, {"Geh", 7, 28}, {"Coc", 7, 28}, {"Tar", 7, 28},
    {"Abyss", 7, 24}, {"Pan", 1, 28}, {"Zig", 27, 28}, {"Lab", 1, 12},
    {"Bazaar", 1, 10}, {"Trove", 1, 12}, {"Sewer", 1, 4}, {"Ossuary", 1, 6},
    {"Bailey", 1, 5}, {"IceCv", 1, 10}, {"Volcano", 1, 15}, {"WizLab", 1, 13},
    {"Desolation", 1, 16}, {"Gauntlet", 1, 10}, {"Arena", 1, 1},
};

static const branch_info *find_branch(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof branches / sizeof *branches; i++)
        if (strlen(branches[i].name) == len && strncasecmp(branches[i].name, name, len) == 0)
            return &branches[i];
    return NULL;
}

static const char *place_of(const qg_runtime *rt)
{
    return rt->place ? rt->place : "D:1";
}

const char *lrt_branch(const qg_runtime *rt, char *buf, size_t size)
{
    const char *place = place_of(rt);
    size_t len = strcspn(place, ":");
    if (len >= size)
        len = size - 1;
    memcpy(buf, place, len);
    buf[len] = '\0';
    const branch_info *b = find_branch(buf, len);
    return b ? b->name : buf;
}

int lrt_depth(const qg_runtime *rt)
{
    const char *colon = strchr(place_of(rt), ':');
    int depth = colon ? atoi(colon + 1) : 1;
    return depth > 0 ? depth : 1;
}

int lrt_branch_depth(const char *branch)
{
    const branch_info *b = find_branch(branch, strlen(branch));
    return b ? b->depth : 1;
}

int lrt_absdepth(const qg_runtime *rt)
{
    char buf[32];
    const char *name = lrt_branch(rt, buf, sizeof buf);
    const branch_info *b = find_branch(name, strlen(name));
    return (b ? b->absdepth : 1) + lrt_depth(rt) - 1;
}

static void branch_hint(const char *name, size_t len, qg_diags *diags, const char *place)
{
    qg_suggest s;
    qg_suggest_init(&s, name, len);
    for (size_t i = 0; i < sizeof branches / sizeof *branches; i++)
        qg_suggest_offer(&s, branches[i].name, strlen(branches[i].name));
    const char *best = qg_suggest_best(&s);
    if (best)
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                     "unknown branch '%.*s' in place '%s'; did you mean '%.*s'?", (int)len,
                     name, place, (int)s.best_len, best);
    else
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                     "unknown branch '%.*s' in place '%s' (a place is BRANCH or BRANCH:N, as "
                     "D:5, Lair:2 or Zot)", (int)len, name, place);
}

qg_status qg_place_check(const char *place, qg_diags *diags)
{
    size_t len = strcspn(place, ":");
    const branch_info *b = find_branch(place, len);
    if (!b) {
        branch_hint(place, len, diags, place);
        return QG_ERR_INVALID;
    }
    if (!place[len])
        return QG_OK;
    char *end;
    long depth = strtol(place + len + 1, &end, 10);
    if (end == place + len + 1 || *end || depth < 1 || depth > b->depth) {
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                     "bad depth in place '%s': %s has levels 1 to %d", place, b->name, b->depth);
        return QG_ERR_INVALID;
    }
    return QG_OK;
}
