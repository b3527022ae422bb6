/* What a .des file's compile depends on besides the .des files: the
 * versions of questgrid, of the cache format and of Lua, what questgrid's
 * compile makes of a file (QGC_COMPILE_REVISION), the game's Lua library
 * (every .lua file and load order under the library directories, which is
 * all crawl_require and the entry files can read) and questgrid's branch
 * tables and which of them the compile uses (the places a map is
 * checked against). Its hash goes into every
 * file's key, so a cache made with another library or questgrid has
 * nothing reused. A file that cannot be read counts as a difference. */
#define _DEFAULT_SOURCE
#include "cache/compile.h"
#include "cache/format.h"
#include "core/buf.h"
#include "core/file.h"

#include <dirent.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* As the library's own reader bounds them (src/lua/library.c). */
enum { MAX_DEPTH = 16, MAX_NAMES = 100000, MAX_FILE = 4 * 1024 * 1024 };

typedef struct walk {
    uint64_t h;
    size_t names;
    int only_lua;       /* .lua files and questgrid.load only */
} walk;

static int wanted(const walk *w, const char *name)
{
    size_t len = strlen(name);
    return !w->only_lua || strcmp(name, "questgrid.load") == 0 ||
           (len > 4 && strcmp(name + len - 4, ".lua") == 0);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_file(walk *w, const char *rel, const char *path, const struct stat *sb)
{
    w->h = qgc_hash_more(w->h, rel, strlen(rel) + 1);
    w->h = qgc_hash_u64(w->h, (uint64_t)sb->st_size);
    char *data = NULL;
    size_t len = 0;
    if (sb->st_size <= MAX_FILE && qg_read_file(path, MAX_FILE, &data, &len, NULL) == QG_OK)
        w->h = qgc_hash_more(w->h, data, len);
    else
        w->h = qgc_hash_u64(w->h, 1);
    free(data);
}

/* The files under dir/rel (rel "" for dir itself), in name order. */
static void add_dir(walk *w, const char *dir, const char *rel, int depth)
{
    char *path = rel[0] ? qg_path_join(dir, rel) : qg_strdup(dir);
    DIR *d = path ? opendir(path) : NULL;
    char **names = NULL;
    size_t count = 0, cap = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) && w->names < MAX_NAMES) {
        char **slot = e->d_name[0] != '.' ? QG_PUSH(names, count, cap) : NULL;
        if (slot && (*slot = qg_strdup(e->d_name)))
            w->names++;
        else if (slot)
            count--;
    }
    if (d)
        closedir(d);
    if (names)
        qsort(names, count, sizeof *names, by_name);
    for (size_t i = 0; i < count; i++) {
        char *sub = rel[0] ? qg_path_join(rel, names[i]) : qg_strdup(names[i]);
        char *full = sub ? qg_path_join(dir, sub) : NULL;
        struct stat sb;
        if (!full || stat(full, &sb) != 0)
            w->h = qgc_hash_u64(w->h, 2);
        else if (S_ISDIR(sb.st_mode) && depth < MAX_DEPTH)
            add_dir(w, dir, sub, depth + 1);
        else if (S_ISREG(sb.st_mode) && wanted(w, names[i]))
            add_file(w, sub, full, &sb);
        free(full);
        free(sub);
        free(names[i]);
    }
    free(names);
    free(path);
}

uint64_t qgc_environment(const qg_compile_options *opt)
{
    walk w = {QGC_HASH_START, 0, 1};
    static const char tag[] = "questgrid compile";
    w.h = qgc_hash_more(w.h, tag, sizeof tag);
    w.h = qgc_hash_u64(w.h, QG_CACHE_FORMAT_VERSION);
    w.h = qgc_hash_u64(w.h, QG_VERSION_NUMBER);
    w.h = qgc_hash_u64(w.h, QGC_COMPILE_REVISION);
    w.h = qgc_hash_u64(w.h, LUA_VERSION_RELEASE_NUM);
    for (size_t i = 0; i < opt->lua_path_count; i++) {
        w.h = qgc_hash_u64(w.h, 3 + i);
        add_dir(&w, opt->lua_paths[i], "", 0);
    }
    char *vocab = NULL;
    w.only_lua = 0;
    w.h = qgc_hash_u64(w.h, 4);
    if (qg_data_find("des/vocab", &vocab, NULL) == QG_OK)
        add_dir(&w, vocab, "", 0);
    free(vocab);
    /* which of those tables the maps are checked against */
    const char *game = opt->branches ? qg_branches_game(opt->branches) : "";
    w.h = qgc_hash_u64(w.h, 5);
    w.h = qgc_hash_more(w.h, game, strlen(game) + 1);
    return w.h ? w.h : 1;
}
