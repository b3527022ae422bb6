/* A map resolved where it belongs, as the game would come to place it:
 * at the levels its PLACE and DEPTH name (a SUBVAULT finds its maps only
 * where they may be used: float.des's terramorphic vaults at D:14, never
 * at D:1), a map that takes its shape from the SUBVAULT placing it inside
 * a map that uses it, and a map with no grid by design (a dummy, a map
 * whose post_place hook places others on the game's level) said to be
 * what it is instead of failing; a map its veto chunk refuses in a fresh
 * game is resolved without it, and the level says so. */
#define _GNU_SOURCE
#include "lua/run.h"
#include "core/diag.h"
#include "des/branches.h"
#include "des/directives.h"

#include <stdio.h>
#include <string.h>

/* Levels tried, the first that resolves taken: a map that fails at its
 * first level for want of what only its level has fails at a handful. */
#define HOME_PLACES 4
/* Maps tried as the one a subvault is resolved inside. */
#define HOME_PARENTS 4

/* A failure of a map that asked which tag it was picked by. */
enum { HOME_PARAMETERS = 100 };
/* Tags tried as that answer. */
#define HOME_TAGS 8

static int asked_parameters(const qg_runtime *rt)
{
    for (size_t i = 0; i < rt->asked_count; i++)
        if (strcmp(rt->asked[i], "dgn.map_parameters") == 0)
            return !rt->context || !rt->context->vars ||
                   !qg_vars_get(rt->context->vars, "dgn.map_parameters");
    return 0;
}

static const char *what_it_is(int no_grid)
{
    switch (no_grid) {
    case LRT_NO_GRID_DUMMY:
        return "a dummy (TAGS: dummy): Crawl picks it to place nothing, and it has no grid";
    case LRT_NO_GRID_POST_PLACE:
        return "no grid of its own: its post_place hook places other maps on the game's level "
               "once the map is placed there";
    default:
        return NULL;
    }
}

/* The map at each of its levels until one resolves. A failure keeps the
 * diagnostics of the first level (the map's own home), and *kind says
 * why it gave no level there when the map is not at fault (LRT_*). */
static qg_status at_home(qg_runtime *rt, const qg_mapdef *def, unsigned long long seed,
                         const qg_context *context, qg_home *home, qg_level **out, int *kind,
                         qg_diags *diags)
{
    char places[HOME_PLACES][DES_PLACE_SIZE];
    size_t count = 0;
    if (context && context->place)
        snprintf(places[count++], DES_PLACE_SIZE, "%s", context->place);
    else
        count = des_branches_home_levels(rt->branches, qg_mapdef_get_property(def, "depth"),
                                         qg_mapdef_get_property(def, "place"), places,
                                         HOME_PLACES);
    if (!count)
        snprintf(places[count++], DES_PLACE_SIZE, "D:1");
    qg_context here = context ? *context : (qg_context){NULL, 0, NULL};
    qg_diags *first = NULL;
    qg_status first_st = QG_OK;
    *kind = 0;
    for (size_t i = 0; i < count; i++) {
        qg_diags *run = qg_diags_new_like(diags);
        if (!run)
            break;
        here.place = places[i];
        qg_status st = qg_runtime_resolve(rt, def, seed, &here, out, run);
        const char *what = st ? what_it_is(rt->no_level) : NULL;
        if (st == QG_OK || what) {
            snprintf(home->place, sizeof home->place, "%s", places[i]);
            home->what = what;
            if (st == QG_OK)
                qg_diags_take(diags, run);
            qg_diags_free(run);
            qg_diags_free(first);
            return QG_OK;
        }
        if (!first) {
            first = run;
            first_st = st;
            *kind = rt->no_level ? rt->no_level : asked_parameters(rt) ? HOME_PARAMETERS : 0;
            home->unprovided = rt->unprovided;
            snprintf(home->place, sizeof home->place, "%s", places[i]);
        } else {
            qg_diags_free(run);
        }
        if (st == QG_ERR_NOMEM || *kind == LRT_NO_GRID_SHAPE)
            break;
    }
    qg_diags_take(diags, first);
    qg_diags_free(first);
    return first ? first_st : QG_ERR_NOMEM;
}

/* Whether spec (a SUBVAULT's "K : tag / tag:20") picks among maps with
 * one of tags. */
static int spec_picks(const char *spec, size_t len, const char *tags)
{
    qg_arena arena;
    qg_arena_init(&arena);
    des_keyed k;
    des_spec_error err;
    int hit = 0;
    if (des_parse_keyed(&arena, DES_DIR_SUBVAULT, spec, len, &k, &err) == DES_PARSE_OK)
        for (size_t s = 0; s < k.slot_count && !hit; s++)
            for (size_t a = 0; a < k.slots[s].count && !hit; a++)
                hit = lrt_has_tag(tags, k.slots[s].alts[a].text);
    qg_arena_free(&arena);
    return hit;
}

/* Whether a chunk calls subvault("K : tag") with a literal spec picking
 * one of tags: SUBVAULT directives are lowered to such calls, and maps
 * that choose their subvaults in Lua write them so. */
static int chunk_uses(const qg_des_chunk *chunk, const char *tags)
{
    static const char call[] = "subvault(";
    const char *p = chunk ? chunk->code : NULL, *end = p ? p + chunk->len : NULL;
    while (p && (p = memmem(p, (size_t)(end - p), call, sizeof call - 1)) != NULL) {
        p += sizeof call - 1;
        while (p < end && *p == ' ')
            p++;
        if (p >= end || (*p != '"' && *p != '\''))
            continue;
        const char *close = memchr(p + 1, *p, (size_t)(end - p - 1));
        if (close && spec_picks(p + 1, (size_t)(close - p - 1), tags))
            return 1;
        p = close ? close : end;
    }
    return 0;
}

static int uses(const qg_mapdef *parent, const char *tags)
{
    for (int k = 0; k < QG_CHUNK_KINDS; k++)
        if (chunk_uses(qg_des_map_chunk(parent, (qg_chunk_kind)k), tags))
            return 1;
    return 0;
}

/* A map that takes its shape from the SUBVAULT placing it, resolved in
 * the first of the maps using it that resolves with it picked: the level
 * is that map's, named for the subvault. */
static qg_status inside_parent(qg_runtime *rt, const qg_mapdef *def, unsigned long long seed,
                               const qg_context *context, qg_home *home, qg_level **out,
                               qg_diags *diags)
{
    const char *tags = qg_mapdef_get_property(def, "tags");
    size_t tried = 0;
    qg_status st = QG_ERR_NOTFOUND;
    for (size_t i = 0; tags && i < rt->map_count && tried < HOME_PARENTS; i++) {
        const qg_mapdef *parent = rt->maps[i];
        if (parent == def || !uses(parent, tags))
            continue;
        tried++;
        qg_diags *run = qg_diags_new_like(diags);
        if (!run)
            return QG_ERR_NOMEM;
        qg_home there = {{0}, NULL, NULL, 0};
        int kind;
        rt->forced = def;
        st = at_home(rt, parent, seed, context, &there, out, &kind, run);
        rt->forced = NULL;
        if (st == QG_OK && *out) {
            qg_diags_take(diags, run);
            qg_diags_free(run);
            memcpy(home->place, there.place, sizeof home->place);
            home->inside = qg_mapdef_name(parent);
            st = qg_level_set_name(*out, qg_mapdef_name(def));
            if (st == QG_OK)
                st = qg_level_add_property(*out, "placed in", qg_mapdef_name(parent));
            return st;
        }
        qg_level_free(*out);
        *out = NULL;
        qg_diags_free(run);
        if (st == QG_ERR_NOMEM)
            return st;
    }
    return st;
}

/* A map its veto chunk refuses wherever it was tried (the game so far
 * answered as for a fresh game): resolved without the veto at its home,
 * and said so. */
static qg_status without_veto(qg_runtime *rt, const qg_mapdef *def, unsigned long long seed,
                              const qg_context *context, qg_home *home, qg_level **out,
                              qg_diags *diags)
{
    qg_context here = context ? *context : (qg_context){NULL, 0, NULL};
    here.place = home->place;
    rt->ignore_veto = 1;
    qg_status st = qg_runtime_resolve(rt, def, seed, &here, out, diags);
    rt->ignore_veto = 0;
    if (st == QG_OK)
        st = qg_level_add_property(*out, "veto", "its veto chunk refuses it here in a fresh "
                                                 "game: resolved without it");
    return st;
}

/* A map that asked which tag it was picked by (dgn.map_parameters: the
 * game's overflow temples) and failed without the answer: resolved at its
 * home as picked by each of its tags in turn, the first that resolves. */
static qg_status by_its_tags(qg_runtime *rt, const qg_mapdef *def, unsigned long long seed,
                             const qg_context *context, qg_home *home, qg_level **out,
                             qg_diags *diags)
{
    const char *tags = qg_mapdef_get_property(def, "tags");
    qg_vars *vars = qg_vars_new();
    qg_context here = context ? *context : (qg_context){NULL, 0, NULL};
    here.place = home->place;
    here.vars = vars;
    qg_status st = vars ? QG_ERR_NOTFOUND : QG_ERR_NOMEM;
    for (size_t i = 0; vars && context && context->vars && i < qg_vars_count(context->vars);
         i++) {
        const char *name = qg_vars_name_at(context->vars, i);
        qg_vars_set(vars, name, qg_vars_get(context->vars, name));
    }
    char tag[128];
    for (int n = 0; vars && tags && *tags && n < HOME_TAGS && st != QG_OK; n++) {
        size_t len = strcspn(tags, " ");
        snprintf(tag, sizeof tag, "%.*s", (int)len, tags);
        tags += len + (tags[len] == ' ');
        if (qg_vars_set(vars, "dgn.map_parameters", tag) != QG_OK)
            break;
        qg_diags *run = qg_diags_new_like(diags);
        st = run ? qg_runtime_resolve(rt, def, seed, &here, out, run) : QG_ERR_NOMEM;
        if (st == QG_OK) {
            qg_diags_take(diags, run);
            st = qg_level_add_property(*out, "map parameters", tag);
        }
        qg_diags_free(run);
    }
    qg_vars_free(vars);
    return st;
}

qg_status qg_runtime_resolve_home(qg_runtime *rt, const qg_mapdef *def, unsigned long long seed,
                                  const qg_context *context, qg_home *home, qg_level **out,
                                  qg_diags *diags)
{
    *out = NULL;
    memset(home, 0, sizeof *home);
    if (qg_mapdef_format(def) != QG_FORMAT_DES)
        return QG_ERR_INVALID;
    qg_diags *alone = qg_diags_new_like(diags), *again = qg_diags_new_like(diags);
    if (!alone || !again) {
        qg_diags_free(alone);
        qg_diags_free(again);
        return QG_ERR_NOMEM;
    }
    int kind = 0;
    qg_status st = at_home(rt, def, seed, context, home, out, &kind, alone), other = st;
    if (st != QG_OK && kind == LRT_NO_GRID_SHAPE && !rt->forced)
        other = inside_parent(rt, def, seed, context, home, out, again);
    else if (st != QG_OK && kind == LRT_VETOED)
        other = without_veto(rt, def, seed, context, home, out, again);
    else if (st != QG_OK && kind == HOME_PARAMETERS)
        other = by_its_tags(rt, def, seed, context, home, out, again);
    if (st == QG_OK) {
        qg_diags_take(diags, alone);
    } else if (kind == LRT_NO_GRID_SHAPE && other == QG_ERR_NOTFOUND) {
        home->what = "no grid of its own: it takes its shape from the SUBVAULT that places "
                     "it, and no map here uses it";
        st = QG_OK;
    } else if (other == QG_OK || other == QG_ERR_NOMEM) {
        qg_diags_take(diags, again);
        st = other;
    } else {
        qg_level_free(*out);
        *out = NULL;
        qg_diags_take(diags, alone);
    }
    qg_diags_free(alone);
    qg_diags_free(again);
    return st;
}
