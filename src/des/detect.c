/* Which Crawl a data tree is, from the tree itself: the markers of each
 * game of games.txt (lib/des/vocab/<game>/markers.txt), one a line:
 *
 *     has|lacks file PATH            PATH below the data tree (des/…, dlua/…)
 *     has|lacks function NAME        a Lua file of the library defines NAME
 *     has|lacks text PATH WORD       the file PATH holds WORD
 *
 * A game's markers are what its release, and every release since the game
 * before it in games.txt, added (has) or dropped (lacks): a marker that
 * holds puts the tree at that game or later, one that fails before it. A
 * marker whose part of the tree is missing (no dlua beside the .des files)
 * says nothing. The game is the one every marker leaves. */
#define _XOPEN_SOURCE 700
#include "des/games.h"
#include "questgrid/des.h"
#include "core/buf.h"
#include "core/file.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { MAX_UP = 16, MAX_LUA_DEPTH = 4, MAX_WHY = 1 };

static int is_dir(const char *dir, const char *name)
{
    char *path = name ? qg_path_join(dir, name) : qg_strdup(dir);
    struct stat st;
    int yes = path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    free(path);
    return yes;
}

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

/* A dlua/ directory with the file Crawl's dungeon start-up runs first
 * (CLua::init_dungeon_lua's dungeon.lua): a test's own dlua is not one. */
static int is_crawl_library(const char *dir)
{
    char *path = qg_path_join(dir, "dlua/dungeon.lua");
    struct stat st;
    int yes = path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
    free(path);
    return yes;
}

/* The tree above path: the nearest directory holding des/ and dlua/, and
 * the .des directory path lies in (the nearest named des, or the tree's). */
static qg_status find_tree(const char *path, qg_des_game *out)
{
    char *at = realpath(path, NULL);
    if (!at)
        at = qg_strdup(path);
    if (at && !is_dir(at, NULL)) {
        char *dir = qg_path_dirname(at);
        free(at);
        at = dir;
    }
    for (int up = 0; at && up < MAX_UP; up++) {
        if (!out->des_dir && strcmp(base_of(at), "des") == 0 && !(out->des_dir = qg_strdup(at)))
            break;
        if (is_dir(at, "des") && is_crawl_library(at)) {
            out->data_dir = at;
            if (!out->des_dir)
                out->des_dir = qg_path_join(at, "des");
            return out->des_dir ? QG_OK : QG_ERR_NOMEM;
        }
        char *parent = qg_path_dirname(at);
        if (!parent || strcmp(parent, at) == 0) {
            free(parent);
            break;
        }
        free(at);
        at = parent;
    }
    free(at);
    return QG_OK;
}

/* ---- the Lua library's text ---- */

typedef struct lua_texts {
    char **items;
    size_t count, cap;
} lua_texts;

static void read_lua_dir(lua_texts *t, const char *dir, int depth)
{
    DIR *d = depth <= MAX_LUA_DEPTH ? opendir(dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        char *path = qg_path_join(dir, e->d_name);
        char *text = NULL;
        size_t len;
        if (path && n > 4 && strcmp(e->d_name + n - 4, ".lua") == 0 &&
            qg_read_file(path, QG_MAX_TEXT_FILE, &text, &len, NULL) == QG_OK) {
            char **slot = QG_PUSH(t->items, t->count, t->cap);
            if (slot)
                *slot = text;
            else
                free(text);
        } else if (path && is_dir(path, NULL)) {
            read_lua_dir(t, path, depth + 1);
        }
        free(path);
    }
    if (d)
        closedir(d);
}

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.' || c == ':';
}

static const char *skip_spaces(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* "function NAME(" or "NAME = function" in text. */
static int defines(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        if ((p > text && word_char(p[-1])) || word_char(p[n]))
            continue;
        const char *before = p;
        while (before > text && (before[-1] == ' ' || before[-1] == '\t'))
            before--;
        if (before - text >= 8 && strncmp(before - 8, "function", 8) == 0 &&
            (before - 8 == text || !word_char(before[-9])) && *skip_spaces(p + n) == '(')
            return 1;
        const char *after = skip_spaces(p + n);
        if (*after == '=' && strncmp(skip_spaces(after + 1), "function", 8) == 0)
            return 1;
    }
    return 0;
}

/* ---- markers ---- */

typedef struct tree {
    const qg_des_game *game;
    const char *const *lua_dirs;
    size_t lua_dir_count;
    lua_texts lua;
    int lua_read;
    int held;         /* some file, function or text a game has is there */
} tree;

enum { UNKNOWN = -1, FAILS = 0, HOLDS = 1 };

/* The file PATH of the tree (des/… in its .des directory, dlua/… in each
 * Lua library); NULL when that part of the tree is not there. */
static char *tree_file(const tree *t, const char *path, size_t lib)
{
    if (strncmp(path, "des/", 4) == 0)
        return t->game->des_dir && lib == 0 ? qg_path_join(t->game->des_dir, path + 4) : NULL;
    if (strncmp(path, "dlua/", 5) == 0)
        return lib < t->lua_dir_count ? qg_path_join(t->lua_dirs[lib], path + 5) : NULL;
    return t->game->data_dir && lib == 0 ? qg_path_join(t->game->data_dir, path) : NULL;
}

/* HOLDS when some copy of PATH exists (and holds word, when given). */
static int file_marker(const tree *t, const char *path, const char *word)
{
    int seen = UNKNOWN;
    for (size_t lib = 0; lib < (t->lua_dir_count ? t->lua_dir_count : 1); lib++) {
        char *file = tree_file(t, path, lib);
        if (!file)
            continue;
        seen = FAILS;
        char *text = NULL;
        size_t len;
        int found = 0;
        if (!word) {
            struct stat st;
            found = stat(file, &st) == 0;
        } else if (qg_read_file(file, QG_MAX_TEXT_FILE, &text, &len, NULL) == QG_OK) {
            found = strstr(text, word) != NULL;
        }
        free(text);
        free(file);
        if (found)
            return HOLDS;
    }
    return seen;
}

static int function_marker(tree *t, const char *name)
{
    if (!t->lua_dir_count)
        return UNKNOWN;
    if (!t->lua_read) {
        for (size_t i = 0; i < t->lua_dir_count; i++)
            read_lua_dir(&t->lua, t->lua_dirs[i], 0);
        t->lua_read = 1;
    }
    for (size_t i = 0; i < t->lua.count; i++)
        if (defines(t->lua.items[i], name))
            return HOLDS;
    return FAILS;
}

typedef struct marker {
    int has;
    char *words[3];
    size_t word_count;
    int line;
} marker;

/* A line split into its words (in place); 0 when it is blank. */
static size_t split(char *line, char **words, size_t max)
{
    size_t n = 0;
    for (char *p = strtok(line, " \t\r"); p && n < max; p = strtok(NULL, " \t\r"))
        words[n++] = p;
    return n;
}

/* HOLDS, FAILS or UNKNOWN; -2 for a line that is not a marker. */
static int evaluate(tree *t, const marker *m)
{
    const char *kind = m->words[0];
    int found;
    if (strcmp(kind, "file") == 0 && m->word_count == 2)
        found = file_marker(t, m->words[1], NULL);
    else if (strcmp(kind, "text") == 0 && m->word_count == 3)
        found = file_marker(t, m->words[1], m->words[2]);
    else if (strcmp(kind, "function") == 0 && m->word_count == 2)
        found = function_marker(t, m->words[1]);
    else
        return -2;
    return found == UNKNOWN ? UNKNOWN : found == m->has;
}

static void describe(qg_buf *b, const marker *m, int held)
{
    int present = held == m->has;
    if (b->len)
        qg_buf_puts(b, ", ");
    if (strcmp(m->words[0], "text") == 0)
        qg_buf_printf(b, "%s%s in %s", present ? "" : "no ", m->words[2], m->words[1]);
    else
        qg_buf_printf(b, "%s%s%s", present ? "" : "no ",
                      strcmp(m->words[0], "function") == 0 ? "function " : "", m->words[1]);
}

/* What the markers of the games say: the range [*lo, *hi] of games they
 * leave (-1: older than the first), and the markers that set each end. */
typedef struct verdict {
    int lo, hi;
    int known;
    qg_buf lo_why, hi_why;
    size_t lo_count, hi_count;
} verdict;

static qg_status judge_game(tree *t, const char *dir, const char *game, int index,
                            verdict *v, qg_diags *diags)
{
    char *game_dir = qg_path_join(dir, game);
    char *path = game_dir ? qg_path_join(game_dir, "markers.txt") : NULL;
    free(game_dir);
    if (!path)
        return QG_ERR_NOMEM;
    char *text = NULL;
    size_t len;
    struct stat st;
    qg_status status = stat(path, &st) != 0
                           ? QG_OK
                           : qg_read_file(path, QG_MAX_TEXT_FILE, &text, &len, diags);
    int line_no = 0;
    for (char *line = text, *next; status == QG_OK && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line_no++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *words[5];
        size_t n = split(line, words, 5);
        if (!n)
            continue;
        marker m = {strcmp(words[0], "has") == 0, {NULL, NULL, NULL}, n - 1, line_no};
        for (size_t i = 1; i < n && i < 4; i++)
            m.words[i - 1] = words[i];
        int held = (m.has || strcmp(words[0], "lacks") == 0) && n >= 2 && n <= 4
                       ? evaluate(t, &m) : -2;
        if (held == -2) {
            qg_diags_add(diags, QG_ERROR, path, line_no, 0, NULL, 0,
                         "not a marker: want has|lacks file PATH, function NAME or text PATH WORD");
            status = QG_ERR_PARSE;
        } else if (held == HOLDS) {
            v->known++;
            t->held |= m.has;
            if (index > v->lo) {
                v->lo = index;
                qg_buf_reset(&v->lo_why);
                v->lo_count = 0;
            }
            if (index == v->lo && v->lo_count++ < MAX_WHY)
                describe(&v->lo_why, &m, held);
        } else if (held == FAILS) {
            v->known++;
            if (index - 1 < v->hi) {
                v->hi = index - 1;
                qg_buf_reset(&v->hi_why);
                v->hi_count = 0;
            }
            if (index - 1 == v->hi && v->hi_count++ < MAX_WHY)
                describe(&v->hi_why, &m, held);
        }
    }
    free(text);
    free(path);
    return status;
}

static void explain(qg_des_game *out, const des_games *g, const verdict *v)
{
    qg_buf why;
    qg_buf_init(&why);
    if (!v->known)
        qg_buf_puts(&why, "none of the games' markers can be looked for here");
    else if (v->lo > v->hi)
        qg_buf_printf(&why, "its markers disagree: %s says %s or later, %s says before %s",
                      v->lo_why.data, g->names[v->lo], v->hi_why.data, g->names[v->hi + 1]);
    else if (v->hi < 0)
        qg_buf_printf(&why, "it is older than %s (%s)", g->names[0], v->hi_why.data);
    else if (v->lo < v->hi)
        qg_buf_printf(&why, "its markers leave more than one game, from %s%s to %s",
                      v->lo < 0 ? "one older than " : "", g->names[v->lo < 0 ? 0 : v->lo],
                      g->names[v->hi]);
    else
        out->game = qg_strdup(g->names[v->lo]);
    if (out->game) {
        qg_buf_puts(&why, v->lo_count ? v->lo_why.data : "");
        if (v->hi_count)
            qg_buf_printf(&why, "%s%s", v->lo_count ? ", " : "", v->hi_why.data);
    }
    out->why = qg_buf_take(&why);
}

static qg_status judge(tree *t, const char *dir, qg_des_game *out, qg_diags *diags)
{
    des_games g;
    qg_status st = des_games_read(dir, &g, diags);
    verdict v = {-1, (int)g.count - 1, 0, {0}, {0}, 0, 0};
    qg_buf_init(&v.lo_why);
    qg_buf_init(&v.hi_why);
    for (size_t i = 0; st == QG_OK && i < g.count; i++)
        st = judge_game(t, dir, g.names[i], (int)i, &v, diags);
    if (st == QG_OK && g.count)
        explain(out, &g, &v);
    qg_buf_free(&v.lo_why);
    qg_buf_free(&v.hi_why);
    des_games_free(&g);
    return st;
}

qg_status qg_des_detect_game(const char *dir, const char *path, const char *const *lua_paths,
                             size_t lua_path_count, qg_des_game *out, qg_diags *diags)
{
    memset(out, 0, sizeof *out);
    qg_status st = find_tree(path, out);
    char **libs = calloc(lua_path_count + 1, sizeof *libs);
    size_t lib_count = 0;
    if (!libs)
        st = QG_ERR_NOMEM;
    /* a library given as the dat directory or as its dlua */
    for (size_t i = 0; st == QG_OK && i < lua_path_count; i++)
        libs[lib_count++] = is_dir(lua_paths[i], "dlua") ? qg_path_join(lua_paths[i], "dlua")
                                                         : qg_strdup(lua_paths[i]);
    if (st == QG_OK && !lua_path_count && out->data_dir)
        libs[lib_count++] = qg_path_join(out->data_dir, "dlua");
    for (size_t i = 0; i < lib_count; i++)
        if (!libs[i])
            st = QG_ERR_NOMEM;
    if (st == QG_OK && lib_count)
        out->lua_dir = qg_strdup(lua_path_count ? lua_paths[0] : libs[0]);
    tree t = {out, (const char *const *)libs, lib_count, {NULL, 0, 0}, 0, 0};
    if (st == QG_OK && (out->des_dir || lib_count))
        st = judge(&t, dir, out, diags);
    /* a directory named des with no Crawl library beside it is Crawl's
     * only when something a game has is there: a designer's own des/ is
     * not (and lacks what every game dropped) */
    if (st == QG_OK && !out->data_dir && !t.held) {
        free(out->des_dir);
        free(out->why);
        free(out->lua_dir);
        out->des_dir = out->why = out->lua_dir = NULL;
    }
    for (size_t i = 0; i < t.lua.count; i++)
        free(t.lua.items[i]);
    free(t.lua.items);
    for (size_t i = 0; i < lib_count; i++)
        free(libs[i]);
    free(libs);
    if (st == QG_ERR_NOMEM)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "out of memory");
    return st;
}

void qg_des_game_clear(qg_des_game *game)
{
    free(game->game);
    free(game->data_dir);
    free(game->des_dir);
    free(game->lua_dir);
    free(game->why);
    memset(game, 0, sizeof *game);
}
