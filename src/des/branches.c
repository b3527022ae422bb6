/* Reading a game's branch table (branches.txt: "NAME LEVELS ABSDEPTH
 * STAIRS ALIAS|ALIAS" per line, '#' comments, as tools/des_vocab/branches
 * writes it from Crawl's branch-data.h) and answering from it. */
#include "des/branches.h"
#include "des/directives.h"
#include "des/games.h"
#include "core/arena.h"
#include "core/buf.h"
#include "core/file.h"
#include "core/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The next space-separated field of *p (NUL-terminated in place). */
static char *field(char **p)
{
    char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s)
        return NULL;
    char *end = s + strcspn(s, " \t");
    *p = *end ? end + 1 : end;
    *end = '\0';
    return s;
}

static int number(const char *s, int *out)
{
    char *end;
    long v = s ? strtol(s, &end, 10) : -1;
    if (!s || end == s || *end || v < 0 || v > 1000)
        return 0;
    *out = (int)v;
    return 1;
}

/* One row; QG_ERR_PARSE after an error naming what is wrong with it. */
static qg_status parse_row(qg_branches *t, char *line, const char *path, int line_no, qg_diags *diags)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", line);
    des_branch b = {0};
    char *p = line, *stairs;
    b.name = field(&p);
    const char *why = NULL;
    if (!number(field(&p), &b.levels) || !number(field(&p), &b.absdepth))
        why = "want NAME LEVELS ABSDEPTH STAIRS [ALIAS|ALIAS...]";
    else if (!(stairs = field(&p)) ||
             (strcmp(stairs, "stone") && strcmp(stairs, "hell") && strcmp(stairs, "islanded") &&
              strcmp(stairs, "none")))
        why = "STAIRS is 'stone', 'hell', 'islanded' or 'none'";
    else if (des_branch_by_abbrev(t, b.name, strlen(b.name)))
        why = "a branch named twice";
    if (why) {
        qg_diags_add(diags, QG_ERROR, path, line_no, 1, copy, strlen(copy),
                     "branches.txt: bad row: %s", why);
        return QG_ERR_PARSE;
    }
    b.stairs = strcmp(stairs, "none") == 0    ? DES_STAIRS_NONE
               : strcmp(stairs, "stone") == 0 ? DES_STAIRS_STONE
               : strcmp(stairs, "hell") == 0  ? DES_STAIRS_HELL
                                              : DES_STAIRS_ISLANDED;
    while (*p == ' ' || *p == '\t')
        p++;
    for (char *alias = *p ? p : NULL; alias && b.alias_count < 4;) {
        char *bar = strchr(alias, '|');
        if (bar)
            *bar++ = '\0';
        b.aliases[b.alias_count++] = alias;
        alias = bar;
    }
    des_branch *slot = QG_PUSH(t->items, t->count, t->cap);
    if (!slot)
        return QG_ERR_NOMEM;
    *slot = b;
    return QG_OK;
}

qg_status qg_branches_parse(const char *path, const char *text, size_t len, qg_branches **out,
                            qg_diags *diags)
{
    *out = NULL;
    qg_branches *t = calloc(1, sizeof *t);
    if (!t || !(t->text = qg_strndup(text, len)) || !(t->label = qg_strdup(path))) {
        qg_branches_free(t);
        return QG_ERR_NOMEM;
    }
    qg_status st = QG_OK;
    int line_no = 0;
    for (char *line = t->text; line && *line && st == QG_OK;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line_no++;
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
            line[--n] = '\0';
        if (n && line[0] != '#')
            st = parse_row(t, line, path, line_no, diags);
        line = next;
    }
    if (st == QG_OK && !t->count) {
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "branches.txt names no branch");
        st = QG_ERR_PARSE;
    }
    if (st != QG_OK) {
        qg_branches_free(t);
        return st;
    }
    *out = t;
    return QG_OK;
}

qg_status qg_branches_load(const char *dir, const char *game, qg_branches **out,
                           qg_diags *diags)
{
    *out = NULL;
    char *name, *game_dir;
    qg_status st = des_game_pick(dir, game, "branch table", &name, &game_dir, diags);
    char *path = st == QG_OK ? qg_path_join(game_dir, "branches.txt") : NULL;
    char *data = NULL;
    size_t len = 0;
    if (st == QG_OK)
        st = path ? qg_read_file(path, QG_MAX_TEXT_FILE, &data, &len, diags) : QG_ERR_NOMEM;
    if (st == QG_OK)
        st = qg_branches_parse(path, data, len, out, diags);
    if (st == QG_OK) {
        free((*out)->label);
        (*out)->label = name;
        name = NULL;
    }
    free(data);
    free(path);
    free(game_dir);
    free(name);
    return st;
}

void qg_branches_free(qg_branches *t)
{
    if (!t)
        return;
    free(t->items);
    free(t->text);
    free(t->label);
    free(t);
}

const char *qg_branches_game(const qg_branches *t)
{
    return t->label;
}

const des_branch *des_branch_by_abbrev(const qg_branches *t, const char *name, size_t len)
{
    for (size_t i = 0; i < t->count; i++)
        if (strlen(t->items[i].name) == len && memcmp(t->items[i].name, name, len) == 0)
            return &t->items[i];
    return NULL;
}

static int same_name(const char *known, const char *name, size_t len)
{
    return strlen(known) == len && strncasecmp(known, name, len) == 0;
}

const des_branch *des_branch_by_any_name(const qg_branches *t, const char *name, size_t len)
{
    for (size_t i = 0; i < t->count; i++) {
        const des_branch *b = &t->items[i];
        if (same_name(b->name, name, len))
            return b;
        for (size_t a = 0; a < b->alias_count; a++)
            if (same_name(b->aliases[a], name, len))
                return b;
    }
    return NULL;
}

const char *des_branch_closest(const qg_branches *t, const char *name, size_t len,
                               size_t *best_len)
{
    qg_suggest s;
    qg_suggest_init(&s, name, len);
    for (size_t i = 0; i < t->count; i++)
        qg_suggest_offer(&s, t->items[i].name, strlen(t->items[i].name));
    *best_len = s.best_len;
    return qg_suggest_best(&s);
}

qg_status qg_branches_check_place(const qg_branches *t, const char *place, qg_diags *diags)
{
    size_t len = strcspn(place, ":");
    const des_branch *b = des_branch_by_any_name(t, place, len);
    if (!b) {
        size_t best_len;
        const char *best = des_branch_closest(t, place, len, &best_len);
        if (best)
            qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                         "unknown branch '%.*s' in place '%s' (%s); did you mean '%.*s'?",
                         (int)len, place, place, t->label, (int)best_len, best);
        else
            qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                         "unknown branch '%.*s' in place '%s' (%s; a place is BRANCH or "
                         "BRANCH:N, as D:5, Lair:2 or Zot)", (int)len, place, place, t->label);
        return QG_ERR_INVALID;
    }
    if (!place[len] && b->levels > 0)
        return QG_OK;
    char *end;
    long depth = place[len] ? strtol(place + len + 1, &end, 10) : 0;
    if (b->levels < 1) {
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                     "bad place '%s': %s has no levels in %s", place, b->name, t->label);
        return QG_ERR_INVALID;
    }
    if (end == place + len + 1 || *end || depth < 1 || depth > b->levels) {
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                     "bad depth in place '%s': %s has levels 1 to %d in %s", place, b->name,
                     b->levels, t->label);
        return QG_ERR_INVALID;
    }
    return QG_OK;
}

/* dungeon.cc _fixup_stone_stairs: a level of a connected branch needs
 * three up stairs, one on its first level (the stair the branch's exit is
 * made of), and three down stairs except on the branch's last level. */
unsigned des_branch_stairs(const des_branch *b, int depth)
{
    if (b->stairs == DES_STAIRS_NONE || b->stairs == DES_STAIRS_ISLANDED)
        return 0;
    int hell = b->stairs == DES_STAIRS_HELL;
    unsigned up = depth == 1 || hell ? DES_UP_I : DES_UP_ALL;
    unsigned down = depth >= b->levels ? 0u : hell ? DES_DOWN_I : DES_DOWN_ALL;
    return up | down;
}

/* level_range::matches: a bare "a-b" (or "Any:a-b") is a range of
 * absolute depths, taken as you.absdepth(). */
static int range_holds(const des_range *r, const des_branch *b, int depth)
{
    if (r->any_branch)
        return 1;
    int absolute = r->absolute || (r->branch && (strcmp(r->branch, "any") == 0 ||
                                                 strcmp(r->branch, "Any") == 0));
    int at = absolute ? b->absdepth + depth : depth;
    if (!absolute && (!r->branch || strcmp(r->branch, b->name) != 0))
        return 0;
    int last = absolute ? 1 << 20 : b->levels;
    int lo = r->lo < 0 ? last : r->lo, hi = r->hi < 0 ? last : r->hi;
    return at >= lo && at <= hi;
}

/* depth_ranges::is_usable_in: some range holds the level, no "!" range. */
static int usable(const des_ranges *ranges, const des_branch *b, int depth)
{
    int held = 0;
    for (size_t i = 0; i < ranges->count; i++)
        if (range_holds(&ranges->items[i], b, depth)) {
            if (ranges->items[i].deny)
                return 0;
            held = 1;
        }
    return held;
}

static void parse_list(qg_arena *arena, const char *text, des_ranges *out)
{
    des_spec_error err;
    memset(out, 0, sizeof *out);
    if (text && *text &&
        des_parse_ranges(arena, text, strlen(text), out, &err) != DES_PARSE_OK)
        out->count = 0;
}

unsigned des_branches_common_stairs(const qg_branches *t, const char *depth, const char *place,
                                    size_t *levels)
{
    qg_arena arena;
    qg_arena_init(&arena);
    des_ranges lists[2];
    parse_list(&arena, depth, &lists[0]);
    parse_list(&arena, place, &lists[1]);
    unsigned common = DES_STAIRS_ALL;
    *levels = 0;
    for (size_t i = 0; i < t->count; i++)
        for (int d = 1; d <= t->items[i].levels; d++)
            if (usable(&lists[0], &t->items[i], d) || usable(&lists[1], &t->items[i], d)) {
                common &= des_branch_stairs(&t->items[i], d);
                ++*levels;
            }
    qg_arena_free(&arena);
    return common;
}

/* The first level of r usable under the whole list, or 0. */
static int first_level(const qg_branches *t, const des_ranges *list, const des_range *r,
                       char *out, size_t size)
{
    for (size_t i = 0; i < t->count; i++)
        for (int d = 1; d <= t->items[i].levels; d++)
            if (range_holds(r, &t->items[i], d) && usable(list, &t->items[i], d)) {
                snprintf(out, size, "%s:%d", t->items[i].name, d);
                return 1;
            }
    return 0;
}

static size_t add_levels(const qg_branches *t, const des_ranges *list, char (*out)[DES_PLACE_SIZE],
                         size_t count, size_t max)
{
    for (size_t i = 0; i < list->count && count < max; i++) {
        char place[DES_PLACE_SIZE];
        if (list->items[i].deny || !first_level(t, list, &list->items[i], place, sizeof place))
            continue;
        size_t k = 0;
        while (k < count && strcmp(out[k], place) != 0)
            k++;
        if (k == count)
            memcpy(out[count++], place, sizeof place);
    }
    return count;
}

size_t des_branches_home_levels(const qg_branches *t, const char *depth, const char *place,
                                char (*out)[DES_PLACE_SIZE], size_t max)
{
    qg_arena arena;
    qg_arena_init(&arena);
    des_ranges lists[2];
    parse_list(&arena, place, &lists[0]);
    parse_list(&arena, depth, &lists[1]);
    size_t count = add_levels(t, &lists[0], out, 0, max);
    count = add_levels(t, &lists[1], out, count, max);
    qg_arena_free(&arena);
    return count;
}
