/* Reading a file as its game reads it. A game reads the quest and town
 * files of its edit directory only through the loads its code starts (the
 * row's loads: q_info.txt, t_info.txt, …), and the F: letter games never
 * clear their letter table between the files of a load: a quest file's
 * rows see the letters q_info.txt's q_pref.txt defined before. So a level
 * file of an edit directory is read with the letters of the load that
 * reaches it, and a file that no load reaches is said to be one the game
 * never reads. The loads are read once for the files of a run
 * (qg_fd_hubs). */
#include "fd/fd_internal.h"
#include "core/buf.h"
#include "core/diag.h"
#include "core/file.h"
#include "core/path.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A load's top file, read (def NULL when it is absent or unreadable),
 * with the paths of its files in the form they are compared in. */
typedef struct hub {
    char *key;
    qg_fd_dialect dialect;
    qg_mapdef *def;
    char **files;
    size_t file_count;
} hub;

/* An edit directory, and whether its files are a game's (its signature
 * names the dialect). */
typedef struct tree {
    char *key;
    qg_fd_dialect dialect;
    int game;
} tree;

struct qg_fd_hubs {
    hub *hubs;
    size_t hub_count, hub_cap;
    tree *trees;
    size_t tree_count, tree_cap;
};

qg_fd_hubs *qg_fd_hubs_new(void)
{
    return calloc(1, sizeof(qg_fd_hubs));
}

static void hub_free(hub *h)
{
    for (size_t i = 0; i < h->file_count; i++)
        free(h->files[i]);
    free(h->files);
    free(h->key);
    qg_mapdef_free(h->def);
}

void qg_fd_hubs_free(qg_fd_hubs *hubs)
{
    if (!hubs)
        return;
    for (size_t i = 0; i < hubs->hub_count; i++)
        hub_free(&hubs->hubs[i]);
    for (size_t i = 0; i < hubs->tree_count; i++)
        free(hubs->trees[i].key);
    free(hubs->hubs);
    free(hubs->trees);
    free(hubs);
}

/* A path in the form paths are compared in: links followed on disk, the
 * text alone for files a host serves. */
static char *path_key(const qg_fd_options *opt, const char *path)
{
    return opt->source ? qg_path_lexical(path) : qg_path_canonical(path);
}

static int exists(const qg_fd_options *opt, const char *path)
{
    if (opt->source) {
        const char *data;
        size_t len;
        return opt->source(opt->source_user, path, &data, &len);
    }
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static qg_status read_load(const char *path, const qg_fd_options *opt, qg_mapdef **out)
{
    char *owned = NULL;
    const char *data;
    size_t len;
    qg_diags *quiet = qg_diags_new();  /* the load's own check reports them */
    qg_status st = quiet ? QG_OK : QG_ERR_NOMEM;
    if (st == QG_OK && opt->source)
        st = opt->source(opt->source_user, path, &data, &len) ? QG_OK : QG_ERR_NOTFOUND;
    else if (st == QG_OK)
        st = qg_read_file(path, QG_MAX_TEXT_FILE, &owned, &len, quiet);
    if (st == QG_OK)
        st = fd_parse(path, opt->source ? data : owned, len, opt, out, quiet);
    free(owned);
    qg_diags_free(quiet);
    return st;
}

/* The paths of a load's files, compared with the file read; 0 when
 * memory ran out. */
static int key_files(hub *h, const qg_fd_options *opt)
{
    size_t n = qg_fd_file_count(h->def);
    h->files = calloc(n ? n : 1, sizeof *h->files);
    if (!h->files)
        return 0;
    for (h->file_count = 0; h->file_count < n; h->file_count++)
        if (!(h->files[h->file_count] = path_key(opt, qg_fd_file_path(h->def, h->file_count))))
            return 0;
    return 1;
}

/* The load whose top file is path, read once; NULL when memory ran out. */
static const hub *find_hub(qg_fd_hubs *hubs, const qg_fd_options *opt, qg_fd_dialect dialect,
                           const char *path)
{
    char *key = path_key(opt, path);
    if (!key)
        return NULL;
    for (size_t i = 0; i < hubs->hub_count; i++)
        if (hubs->hubs[i].dialect == dialect && strcmp(hubs->hubs[i].key, key) == 0) {
            free(key);
            return &hubs->hubs[i];
        }
    hub *h = QG_PUSH(hubs->hubs, hubs->hub_count, hubs->hub_cap);
    if (!h) {
        free(key);
        return NULL;
    }
    *h = (hub){key, dialect, NULL, NULL, 0};
    qg_fd_options own = *opt;
    own.dialect = dialect;
    own.alone = 1;
    own.hubs = NULL;
    qg_status st = exists(opt, path) ? read_load(path, &own, &h->def) : QG_ERR_NOTFOUND;
    if (st == QG_ERR_NOMEM || (h->def && !key_files(h, opt))) {
        hub_free(h);
        hubs->hub_count--;
        return NULL;
    }
    return h;
}

/* Whether dir (as compared) is a game's edit directory of the dialect;
 * -1 when memory ran out. */
static int game_tree(qg_fd_hubs *hubs, const qg_fd_options *opt, qg_fd_dialect dialect,
                     const char *key)
{
    for (size_t i = 0; i < hubs->tree_count; i++)
        if (hubs->trees[i].dialect == dialect && strcmp(hubs->trees[i].key, key) == 0)
            return hubs->trees[i].game;
    tree *t = QG_PUSH(hubs->trees, hubs->tree_count, hubs->tree_cap);
    if (!t || !(t->key = qg_strdup(key))) {
        if (t)
            hubs->tree_count--;
        return -1;
    }
    t->dialect = dialect;
    t->game = !opt->source && qg_fd_detect_edit_dir(opt->edit_dir, NULL) == dialect;
    return t->game;
}

/* Whether the file (its directory dir_key) is one of the edit
 * directory's: in it, or in a folder of its quest or town files. */
static int in_edit_dir(const fd_dialect_row *row, const char *dir_key, const char *edit_key)
{
    if (strcmp(dir_key, edit_key) == 0)
        return 1;
    char *parent = qg_path_dirname(dir_key);
    int in = parent && strcmp(parent, edit_key) == 0 && row->level_folders &&
             fd_list_names(row->level_folders, dir_key);
    free(parent);
    return in;
}

static const char *kept(fd_payload *pl, const char *text)
{
    return text ? qg_arena_strndup(&pl->store, text, strlen(text)) : NULL;
}

/* A copy of a letter line of the load in pl's own store (the load is
 * freed before it); NULL when memory ran out. */
static const qg_fd_spec *copy_spec(fd_payload *pl, const qg_fd_spec *from)
{
    qg_fd_spec *spec = qg_arena_alloc(&pl->store, sizeof *spec);
    if (!spec)
        return NULL;
    *spec = *from;
    int ok = 1;
    if (from->feature.name)
        ok &= (spec->feature.name = kept(pl, from->feature.name)) != NULL;
    for (int slot = 0; slot < QG_SLOTS; slot++)
        if (from->things[slot].name)
            ok &= (spec->things[slot].name = kept(pl, from->things[slot].name)) != NULL;
    if (from->special_name)
        ok &= (spec->special_name = kept(pl, from->special_name)) != NULL;
    return ok ? spec : NULL;
}

/* The letters the load h has defined when it reaches its file target;
 * 0 when memory ran out. */
static int take_letters(fd_payload *pl, const hub *h, size_t target, const qg_fd_options *opt)
{
    const qg_fd_spec *letters[256];
    size_t budget = FD_WALK_LIMIT;
    const fd_payload *load = fd_payload_of(h->def);
    if (fd_letters_at(load, target, NULL, letters, &budget, opt->max_include_depth) < 0)
        return budget == 0;  /* past the budget: no letters are known */
    for (int c = 0; c < 256; c++)
        if (letters[c] && !(pl->context[c] = copy_spec(pl, letters[c])))
            return 0;
    return 1;
}

static size_t index_in(const hub *h, const char *key)
{
    for (size_t i = 1; i < h->file_count; i++)
        if (strcmp(h->files[i], key) == 0)
            return i;
    return 0;
}

/* Whether the load whose top file is the edit directory's name reaches
 * the file (key): 1 when it does (its letters taken), 0 when not, -1 when
 * memory ran out. */
static int try_load(fd_payload *pl, qg_fd_hubs *hubs, const qg_fd_options *opt,
                    const char *key, const char *name)
{
    char *path = qg_path_join(opt->edit_dir, name);
    const hub *h = path ? find_hub(hubs, opt, pl->dialect, path) : NULL;
    free(path);
    if (!h)
        return -1;
    size_t target = h->def ? index_in(h, key) : 0;
    if (!target)
        return 0;
    const fd_dialect_row *row = fd_row(pl->dialect);
    int letters = row->f_fields[0] != FD_F_END && !row->room;
    if (!(pl->context_hub = kept(pl, name)) || (letters && !take_letters(pl, h, target, opt)))
        return -1;
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the edit directory a pattern of the loads names (ToME's
 * *.map, each a load its code or d_info.txt names), sorted; 0 when memory
 * ran out. A directory that cannot be read names none. */
static int pattern_names(const char *dir, const char *pattern, char ***names, size_t *count)
{
    size_t cap = 0;
    *names = NULL;
    *count = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 1;
    int ok = 1;
    struct dirent *e;
    while (ok && (e = readdir(d))) {
        if (e->d_name[0] == '.' || !fd_list_names(pattern, e->d_name))
            continue;
        char **slot = QG_PUSH(*names, *count, cap);
        ok = slot && (*slot = qg_strdup(e->d_name)) != NULL;
        if (slot && !ok)
            --*count;
    }
    closedir(d);
    if (*count)
        qsort(*names, *count, sizeof **names, by_name);
    return ok;
}

/* The loads of a pattern: the first that reaches the file gives its
 * letters. Files a host serves are not listed: their patterns reach
 * nothing. */
static int try_pattern(fd_payload *pl, qg_fd_hubs *hubs, const qg_fd_options *opt,
                       const char *key, const char *pattern)
{
    char **names;
    size_t count;
    if (opt->source)
        return 0;
    int result = pattern_names(opt->edit_dir, pattern, &names, &count) ? 0 : -1;
    for (size_t i = 0; i < count; i++) {
        if (result == 0)
            result = try_load(pl, hubs, opt, key, names[i]);
        free(names[i]);
    }
    free(names);
    return result;
}

/* Each load of the row that the game's code starts itself: the first
 * that reaches the file gives its letters. 1 when one does, 0 when none,
 * -1 when memory ran out. */
static int reach(fd_payload *pl, qg_fd_hubs *hubs, const qg_fd_options *opt, const char *key)
{
    int result = 0;
    for (const char *p = fd_row(pl->dialect)->loads; *p && result == 0;) {
        size_t n = strcspn(p, " ");
        char *entry = qg_strndup(p, n);
        if (!entry)
            return -1;
        result = strchr(entry, '*') ? try_pattern(pl, hubs, opt, key, entry)
                                    : try_load(pl, hubs, opt, key, entry);
        free(entry);
        p += n + (p[n] == ' ');
    }
    return result;
}

/* The loads that reach a level file of a game's edit directory; a note
 * when none does. 0 when memory ran out. */
static int find_context(qg_mapdef *def, const char *path, const qg_fd_options *opt,
                        qg_diags *diags)
{
    fd_payload *pl = def->payload;
    const fd_dialect_row *row = fd_row(pl->dialect);
    if (!row->loads || opt->alone || opt->no_includes || !opt->edit_dir ||
        !opt->edit_dir[0] || fd_list_names(row->loads, path))
        return 1;
    char *dir = qg_path_dirname(path);
    char *dir_key = dir ? path_key(opt, dir) : NULL;
    char *edit_key = path_key(opt, opt->edit_dir);
    char *key = path_key(opt, path);
    qg_fd_hubs *hubs = opt->hubs ? opt->hubs : qg_fd_hubs_new();
    int ok = dir_key && edit_key && key && hubs;
    if (ok && in_edit_dir(row, dir_key, edit_key)) {
        int reached = reach(pl, hubs, opt, key);
        int game = reached == 0 ? game_tree(hubs, opt, pl->dialect, edit_key) : 0;
        ok = reached >= 0 && game >= 0;
        pl->unreached = game > 0;
        if (game > 0)
            qg_diags_add(diags, QG_NOTE, path, 0, 0, NULL, 0,
                         "no file %s's code loads (%s) includes or names this file: the game "
                         "never reads it; read as a load of its own",
                         row->title, row->loads);
    }
    if (hubs != opt->hubs)
        qg_fd_hubs_free(hubs);
    free(dir);
    free(dir_key);
    free(edit_key);
    free(key);
    return ok;
}

/* A file the game never reads keeps its errors (what the game's parser
 * refuses whichever load would read it) but not its warnings, which say
 * what the game does when it lays the file out: it never does. */
qg_status qg_fd_parse(const char *path, const char *data, size_t len,
                      const qg_fd_options *options, qg_mapdef **out, qg_diags *diags)
{
    qg_fd_options defaults;
    if (!options) {
        qg_fd_options_init(&defaults);
        options = &defaults;
    }
    qg_diags *own = diags ? qg_diags_new_like(diags) : NULL;
    qg_status st = fd_parse(path, data, len, options, out, own ? own : diags);
    int unreached = 0;
    if (*out) {
        const fd_payload *pl = fd_payload_of(*out);
        if (!find_context(*out, path, options, own ? own : diags)) {
            qg_mapdef_free(*out);
            *out = NULL;
            st = QG_ERR_NOMEM;
        } else {
            unreached = pl->unreached;
        }
    }
    qg_diags_take_without(diags, own, unreached ? QG_WARNING : -1);
    qg_diags_free(own);
    return st;
}

qg_status qg_fd_read(const char *path, const qg_fd_options *options,
                     qg_mapdef **out, qg_diags *diags)
{
    char *data;
    size_t size;
    *out = NULL;
    qg_status st = qg_read_file(path, QG_MAX_TEXT_FILE, &data, &size, diags);
    if (st != QG_OK)
        return st;
    st = qg_fd_parse(path, data, size, options, out, diags);
    free(data);
    return st;
}
