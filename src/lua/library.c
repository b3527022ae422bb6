/* The game's Lua library, found rather than listed. Crawl's C++ runs a few
 * dlua files by name (CLua::init_lua: macro, util, iter, tags, init;
 * init_dungeon_lua: dungeon, luamark, mapinit; maps.cc: loadmaps) and
 * those files crawl_require the rest. Which of the named files a release
 * has changes (tags.lua is 0.28's and gone from current master), so the
 * named files are a table of rows, each required or optional, and a
 * missing optional file is skipped with a note; every crawl_require is
 * then followed from the library directories given. A game with a Lua
 * library of its own lists its entry files, in order, in a file
 * "questgrid.load" in its library directory, which replaces the table. */
#define _DEFAULT_SOURCE
#include "lua/builder.h"
#include "lua/level.h"
#include "core/file.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_LIBRARY_FILE (4u * 1024u * 1024u)
#define MANIFEST "questgrid.load"
/* directories datadir_files_recursive walks into, and names it returns */
#define MAX_LISTING_DEPTH 16
#define MAX_LISTING_NAMES 100000

typedef struct entry_file {
    const char *file;
    int required;
    const char *role;   /* what the file is for, said when it is missing */
} entry_file;

/* The files Crawl's C++ runs by name, in its order, 0.28 to master. */
static const entry_file crawl_entries[] = {
    {"dlua/macro.lua", 0, "key macros of the game's own interface"},
    {"dlua/util.lua", 1, "utilities"},
    {"dlua/iter.lua", 1, "iterators"},
    {"dlua/tags.lua", 0, "save-file version constants (Crawl 0.28 has them, "
                         "current master does not)"},
    {"dlua/init.lua", 1, "the interpreter's set-up"},
    {"dlua/dungeon.lua", 1, "the map environment"},
    {"dlua/luamark.lua", 1, "Lua markers"},
    {"dlua/mapinit.lua", 0, "map flag registration"},
};

/* ---- finding files ------------------------------------------------------- */

/* DIR/x.lua (DIR being a dlua directory) or DIR/dlua/x.lua, for
 * "dlua/x.lua"; the first library directory that has it. */
static char *find_library_file(const qg_runtime *rt, const char *name)
{
    const char *rest = strncmp(name, "dlua/", 5) == 0 ? name + 5 : name;
    for (size_t i = 0; i < rt->lua_path_count; i++) {
        const char *tries[2] = {rest, name};
        for (int t = 0; t < 2; t++) {
            char *path = qg_path_join(rt->lua_paths[i], tries[t]);
            struct stat sb;
            if (path && stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
                return path;
            free(path);
        }
    }
    return NULL;
}

/* A file name the library may ask for: relative, no "..", of safe
 * characters, so that nothing outside the library directories is read. */
static int safe_name(const char *name, const char *suffix)
{
    size_t len = strlen(name), slen = strlen(suffix);
    if (len <= slen || name[0] == '/' || strcmp(name + len - slen, suffix) != 0)
        return 0;
    for (const char *p = name; *p; p++) {
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || strchr("_-./", *p)))
            return 0;
        if (p[0] == '.' && p[1] == '.')
            return 0;
    }
    return 1;
}

/* Pushes the library file name, compiled. */
static void load_library_file(lua_State *L, qg_runtime *rt, const char *name)
{
    char *path = find_library_file(rt, name);
    if (!path) {
        rt->unprovided = !rt->lua_path_count;
        luaL_error(L, "crawl_require: %s not found on the Lua path%s", name,
                   lrt_no_library_hint(rt));
    }
    char *data = NULL;
    size_t len = 0;
    qg_status st = qg_read_file(path, MAX_LIBRARY_FILE, &data, &len, NULL);
    lua_pushfstring(L, "@%s", path);
    free(path);
    if (st != QG_OK)
        luaL_error(L, "crawl_require: cannot read %s", name);
    int status = lrt_load(L, data, len, lua_tostring(L, -1), 0);
    free(data);
    if (status != LUA_OK)
        lua_error(L);
    lua_remove(L, -2);
}

/* crawl_require(name): runs a library file once, as Crawl's does; a file
 * that is not there is an error at the call. Its compiled chunk is kept
 * (saved.c): after a return to a saved state, requiring it again runs it
 * without reading or compiling it. */
static int l_crawl_require(lua_State *L)
{
    qg_runtime *rt = lrt_runtime(L);
    const char *name = luaL_checkstring(L, 1);
    if (!safe_name(name, ".lua"))
        return luaL_error(L, "crawl_require: '%s' is not a library file name", name);
    lua_getfield(L, LUA_REGISTRYINDEX, "questgrid.required");
    if (lua_getfield(L, -1, name) != LUA_TNIL)
        return 0;
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, name);
    lrt_push_kept(L, "library");
    if (lua_getfield(L, -1, name) != LUA_TFUNCTION) {
        lua_pop(L, 1);
        load_library_file(L, rt, name);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, name);
    }
    lua_call(L, 0, 0);
    lua_pushboolean(L, 1);
    return 1;
}

/* ---- the entry files ----------------------------------------------------- */

/* The manifest's entry files as rows (a leading '?' marks one optional),
 * in a userdata on the stack; NULL when no library directory has one. */
static entry_file *read_manifest(lua_State *L, qg_runtime *rt, size_t *count)
{
    char *path = NULL;
    for (size_t i = 0; i < rt->lua_path_count && !path; i++) {
        path = qg_path_join(rt->lua_paths[i], MANIFEST);
        struct stat sb;
        if (path && (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))) {
            free(path);
            path = NULL;
        }
    }
    if (!path)
        return NULL;
    char *data = NULL;
    size_t len = 0;
    qg_status st = qg_read_file(path, MAX_LIBRARY_FILE, &data, &len, NULL);
    lua_pushstring(L, path);
    free(path);
    if (st != QG_OK)
        luaL_error(L, "%s: cannot read the load order", lua_tostring(L, -1));
    /* the text, kept on the stack; rows point into it */
    char *text = lua_newuserdatauv(L, len + 1, 0);
    memcpy(text, data, len + 1);
    free(data);
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    entry_file *rows = lua_newuserdatauv(L, lines * sizeof *rows, 0);
    *count = 0;
    int line = 0;
    for (char *p = text, *next; p && *p; p = next) {
        line++;
        next = strchr(p, '\n');
        if (next)
            *next++ = '\0';
        while (*p == ' ' || *p == '\t')
            p++;
        char *end = p + strcspn(p, "#\r");
        while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
            end--;
        *end = '\0';
        if (!*p)
            continue;
        int optional = *p == '?';
        p += optional;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!safe_name(p, ".lua"))
            luaL_error(L, "%s:%d: '%s' is not a library file name", lua_tostring(L, -3),
                       line, p);
        rows[(*count)++] = (entry_file){p, !optional, "listed in " MANIFEST};
    }
    return rows;
}

int lrt_load_library(lua_State *L)
{
    library_load *load = lua_touserdata(L, 1);
    qg_runtime *rt = load->rt;
    lua_settop(L, 0);
    size_t count = sizeof crawl_entries / sizeof *crawl_entries;
    const entry_file *rows = read_manifest(L, rt, &count);
    if (!rows)
        rows = crawl_entries;
    const char *where = rt->lua_paths[0];
    for (size_t i = 0; i < count; i++) {
        char *path = find_library_file(rt, rows[i].file);
        free(path);
        if (!path && rows[i].required)
            return luaL_error(L, "%s: %s (%s) is not in the Lua library%s", where,
                              rows[i].file, rows[i].role,
                              rows == crawl_entries
                                  ? "; is --lua-path the game's dat/dlua directory?" : "");
        if (!path) {
            qg_diags_add(load->diags, QG_NOTE, where, 0, 0, NULL, 0,
                         "%s (%s) is not in this Lua library; skipped", rows[i].file,
                         rows[i].role);
            continue;
        }
        lua_pushcfunction(L, l_crawl_require);
        lua_pushstring(L, rows[i].file);
        lua_call(L, 1, 0);
    }
    lrt_watch_place_hooks(L);
    return 0;
}

/* ---- file.datadir_files_recursive ------------------------------------ */

/* The data directory (holding dlua/ and des/) of library directory i:
 * the directory itself when it has dlua/ in it, else its parent, taken
 * from the path as written (through "..", a dlua that is a symbolic link
 * would lead to where the link points). */
static char *data_dir(const qg_runtime *rt, size_t i)
{
    char *dlua = qg_path_join(rt->lua_paths[i], "dlua");
    struct stat sb;
    int has = dlua && stat(dlua, &sb) == 0 && S_ISDIR(sb.st_mode);
    free(dlua);
    if (has)
        return qg_strdup(rt->lua_paths[i]);
    char *path = qg_strdup(rt->lua_paths[i]);
    for (size_t len = path ? strlen(path) : 0; len > 1 && path[len - 1] == '/'; len--)
        path[len - 1] = '\0';
    char *parent = path ? qg_path_dirname(path) : NULL;
    free(path);
    return parent;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t len = strlen(s), slen = strlen(suffix);
    return len >= slen && strcmp(s + len - slen, suffix) == 0;
}

/* Appends to the table on top the files under dir/rel ending in ext,
 * named relative to dir; symbolic links are not followed. */
static void list_files(lua_State *L, const char *dir, const char *rel, const char *ext,
                       int depth)
{
    char *path = rel[0] ? qg_path_join(dir, rel) : qg_strdup(dir);
    DIR *d = path ? opendir(path) : NULL;
    if (!d) {
        free(path);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *name = rel[0] ? qg_path_join(rel, e->d_name) : qg_strdup(e->d_name);
        char *full = name ? qg_path_join(dir, name) : NULL;
        struct stat sb;
        if (full && lstat(full, &sb) == 0) {
            if (S_ISDIR(sb.st_mode) && depth < MAX_LISTING_DEPTH)
                list_files(L, dir, name, ext, depth + 1);
            else if (S_ISREG(sb.st_mode) && ends_with(name, ext) &&
                     lua_rawlen(L, -1) < MAX_LISTING_NAMES) {
                lrt_charge(L, 100);
                lua_pushstring(L, name);
                lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
            }
        }
        free(full);
        free(name);
    }
    closedir(d);
    free(path);
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* file.datadir_files_recursive(dir, ext): the files under the game's
 * data directory's dir (e.g. "dat/des") ending in ext, relative to it and
 * sorted, as current Crawl's loadmaps.lua lists the .des files. */
static int l_datadir_files_recursive(lua_State *L)
{
    qg_runtime *rt = lrt_runtime(L);
    const char *dir = luaL_checkstring(L, 1);
    const char *ext = luaL_optstring(L, 2, "");
    const char *rel = strncmp(dir, "dat/", 4) == 0 ? dir + 4 : dir;
    if (strcmp(dir, "dat") == 0)
        rel = "";
    if (rel[0] && !safe_name(rel, ""))
        return luaL_error(L, "datadir_files_recursive: '%s' is not a data directory name",
                          dir);
    lua_newtable(L);
    for (size_t i = 0; i < rt->lua_path_count; i++) {
        char *data = data_dir(rt, i);
        char *root = data ? (rel[0] ? qg_path_join(data, rel) : qg_strdup(data)) : NULL;
        free(data);
        if (!root)
            return luaL_error(L, "not enough memory");
        struct stat sb;
        int found = stat(root, &sb) == 0 && S_ISDIR(sb.st_mode);
        if (found)
            list_files(L, root, "", ext, 0);
        free(root);
        if (found)
            break;
    }
    size_t n = lua_rawlen(L, -1);
    const char **names = lrt_scratch(L, n, sizeof *names);
    for (size_t i = 0; i < n; i++) {
        lua_rawgeti(L, -2, (lua_Integer)i + 1);
        names[i] = lua_tostring(L, -1);
        lua_pop(L, 1);   /* the list keeps the string */
    }
    qsort(names, n, sizeof *names, by_bytes);
    lua_createtable(L, (int)n, 0);
    for (size_t i = 0; i < n; i++) {
        lua_pushstring(L, names[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

void lrt_open_library(lua_State *L)
{
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "questgrid.required");
    lua_register(L, "crawl_require", l_crawl_require);
    if (lua_getglobal(L, "file") != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setglobal(L, "file");
    }
    lua_pushcfunction(L, l_datadir_files_recursive);
    lua_setfield(L, -2, "datadir_files_recursive");
    lua_pop(L, 1);
    /* loadmaps.lua names the .des files: load_des_file up to 0.28,
     * register_des_file since */
    lua_getglobal(L, "dgn");
    lua_getfield(L, -1, "load_des_file");
    lua_setfield(L, -2, "register_des_file");
    lua_pop(L, 1);
}

int lrt_load_loadmaps(lua_State *L)
{
    lua_settop(L, 0);
    lua_pushcfunction(L, l_crawl_require);
    lua_pushliteral(L, "dlua/loadmaps.lua");
    lua_call(L, 1, 0);
    return 0;
}

char *qg_runtime_library_data_dir(const qg_runtime *rt)
{
    return rt->lua_path_count ? data_dir(rt, 0) : NULL;
}
