/* Finding the files to read: named files and the files below named
 * directories (entries sorted, so that the same tree always gives the
 * same order), each told its kind once. Game data that is not a level is
 * left out with a note; a named file that questgrid does not read is an
 * error. The compiler and every command take their files from here. */
#define _POSIX_C_SOURCE 200809L
#include "cache/compile.h"
#include "cache/format.h"
#include "core/buf.h"
#include "core/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_DIR_DEPTH = 32, KIND_HEAD = 8192 };

typedef struct place {
    const char *path;     /* as recorded */
    const char *io_path;  /* as opened */
} place;

/* The dialect each directory's files are read in, asked once per
 * directory. */
typedef struct dir_dialect {
    char *dir;
    qg_fd_dialect dialect;
} dir_dialect;

typedef struct walker {
    qgc_visit visit;
    void *user;
    qg_diags *diags;
    dir_dialect *dirs;
    size_t dir_count, dir_cap;
    qg_buf *skipped;      /* the game data of the directory being walked */
    size_t skipped_count;
    qg_buf *unread;       /* its files the game never reads */
    size_t unread_count;
    qg_fd_dialect unread_dialect;
} walker;

/* A directory's own dialect, else its parent's when it is a folder a
 * dialect keeps quest files in (Hengband 3's lib/edit/quests). */
static qg_fd_dialect detect_dir(const char *dir)
{
    qg_fd_dialect d = qg_fd_detect_edit_dir(dir, NULL);
    if (d != QG_FD_AUTO || !qg_fd_is_quest_folder(dir))
        return d;
    char *parent = qg_path_dirname(dir);
    d = parent ? qg_fd_detect_edit_dir(parent, NULL) : QG_FD_AUTO;
    free(parent);
    return d;
}

static qg_fd_dialect dialect_of(walker *w, const char *io_path)
{
    char *dir = qg_path_dirname(io_path);
    if (!dir)
        return QG_FD_AUTO;
    for (size_t i = 0; i < w->dir_count; i++)
        if (strcmp(w->dirs[i].dir, dir) == 0) {
            free(dir);
            return w->dirs[i].dialect;
        }
    qg_fd_dialect d = detect_dir(dir);
    dir_dialect *slot = QG_PUSH(w->dirs, w->dir_count, w->dir_cap);
    if (slot)
        *slot = (dir_dialect){dir, d};
    else
        free(dir);
    return d;
}

/* Whether a file found in a directory is worth opening: a name of a
 * format questgrid reads, or game data its edit directory's dialect
 * names (which a note then mentions). */
static int candidate(const char *path, qg_fd_dialect dialect)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (qg_fd_is_game_data(dialect, path))
        return 1;
    if (!dot || (slash && dot < slash))
        return 0;
    return qg_format_from_path(path) != QG_FORMAT_UNKNOWN || strcasecmp(dot, ".qgc") == 0;
}

static void list_name(qg_buf *list, size_t *count, const char *path)
{
    const char *slash = strrchr(path, '/');
    qg_buf_printf(list, "%s%s", (*count)++ ? ", " : "", slash ? slash + 1 : path);
}

/* Why a file is not read: a note for game data and for a file the game
 * never reads (for a file found in a directory, its name is kept for the
 * directory's one note), an error for a named file that questgrid does
 * not read (QG_ERR_INVALID). */
static qg_status explain(walker *w, const char *path, qg_file_kind kind, qg_fd_dialect dialect,
                         size_t entries, int named)
{
    int data = kind == QG_FILE_VOCABULARY || kind == QG_FILE_GAME_DATA;
    if (data && !named && w->skipped) {
        list_name(w->skipped, &w->skipped_count, path);
    } else if (kind == QG_FILE_UNREAD && !named && w->unread) {
        list_name(w->unread, &w->unread_count, path);
        w->unread_dialect = dialect;
    } else if (kind == QG_FILE_UNREAD) {
        qg_diags_add(w->diags, QG_NOTE, path, 0, 0, NULL, 0,
                     "skipped: %s never reads this file (%s)", qg_fd_dialect_title(dialect),
                     qg_fd_unread_reason(dialect));
    } else if (kind == QG_FILE_VOCABULARY) {
        qg_diags_add(w->diags, QG_NOTE, path, 0, 0, NULL, 0,
                     "skipped: a lib/edit vocabulary (%zu N:index:name entries), not a level",
                     entries);
    } else if (kind == QG_FILE_GAME_DATA) {
        qg_diags_add(w->diags, QG_NOTE, path, 0, 0, NULL, 0,
                     "skipped: game data %s reads with its own parser, not a level",
                     dialect == QG_FD_AUTO ? "an Angband variant" : qg_fd_dialect_title(dialect));
    } else if (named) {
        qg_diags_add(w->diags, QG_ERROR, path, 0, 0, NULL, 0,
                     "not a level: questgrid reads .des files, F:/D: files (.txt, .map), "
                     "Tiled .tmx, REXPaint .xp and compiled .qgc caches%s",
                     qg_format_from_path(path) == QG_FORMAT_UNKNOWN
                         ? ""
                         : ", and this one holds none of their records");
    }
    return named && kind == QG_FILE_OTHER ? QG_ERR_INVALID : QG_OK;
}

/* Whether head[0..len) holds a byte that is not a blank (past a UTF-8
 * BOM): where a text format's kind shows (qg_format_detect). */
static int shows_kind(const unsigned char *head, size_t len)
{
    size_t i = len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF ? 3 : 0;
    while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
        i++;
    return i < len;
}

/* The head of a .des file, all that tells its kind (a cache's magic, a
 * TMX's '<' after blanks, a binary file's first bytes: qg_file_kind_of)
 * and a fifth of Crawl 0.28's .des bytes: 1 with *len bytes in
 * head, 0 when the whole file is to be read (and any failure reported):
 * it cannot be read here, is too large, or is blank throughout the head. */
static int read_head(const char *io_path, unsigned char *head, size_t *len)
{
    int fd = open(io_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat sb;
    int ok = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
             (uint64_t)sb.st_size <= QG_MAX_TEXT_FILE;
    *len = 0;
    while (ok && *len < KIND_HEAD) {
        ssize_t n = read(fd, head + *len, KIND_HEAD - *len);
        if (n < 0 && errno == EINTR)
            continue;
        ok = n >= 0;
        if (n <= 0)
            break;
        *len += (size_t)n;
    }
    close(fd);
    return ok && (*len < KIND_HEAD || shows_kind(head, *len));
}

/* The file's kind, from its head when that tells it, else from all of
 * it; QG_FILE_OTHER with *st set when it cannot be read (reported). */
static qg_file_kind kind_of(walker *w, place at, qg_fd_dialect dialect, size_t *entries,
                            qg_status *st)
{
    unsigned char head[KIND_HEAD];
    size_t len = 0;
    *st = QG_OK;
    if (qg_format_from_path(at.path) == QG_FORMAT_DES && read_head(at.io_path, head, &len))
        return qg_file_kind_of(at.path, head, len, dialect, entries);
    char *data = NULL;
    *st = qg_read_file(at.io_path, QG_MAX_TEXT_FILE, &data, &len, w->diags);
    qg_file_kind kind = *st == QG_OK ? qg_file_kind_of(at.path, data, len, dialect, entries)
                                     : QG_FILE_OTHER;
    free(data);
    return kind;
}

static qg_status visit_file(walker *w, place at, int named)
{
    qg_fd_dialect dialect = dialect_of(w, at.io_path);
    if (!named && !candidate(at.path, dialect))
        return QG_OK;
    size_t entries = 0;
    qg_status st;
    qg_file_kind kind = kind_of(w, at, dialect, &entries, &st);
    if (st != QG_OK) /* reported; too large a file ends no walk */
        return st == QG_ERR_LIMIT ? QG_ERR_IO : st;
    if (kind == QG_FILE_OTHER || kind == QG_FILE_VOCABULARY || kind == QG_FILE_GAME_DATA ||
        kind == QG_FILE_UNREAD)
        return explain(w, at.path, kind, dialect, entries, named);
    return w->visit(w->user, at.path, at.io_path, kind, named);
}

/* A failure that ends the walk; any other is reported and the walk goes
 * on to the next file. */
static int fatal(qg_status st)
{
    return st == QG_ERR_NOMEM || st == QG_ERR_LIMIT;
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static qg_status walk(walker *w, place dir, int depth);

static qg_status visit(walker *w, place at, int depth)
{
    struct stat st;
    if (stat(at.io_path, &st) != 0)
        return QG_OK;   /* vanished or a dangling link: nothing to read */
    if (S_ISDIR(st.st_mode))
        return walk(w, at, depth + 1);
    return S_ISREG(st.st_mode) ? visit_file(w, at, 0) : QG_OK;
}

static qg_status walk(walker *w, place dir, int depth)
{
    if (depth > MAX_DIR_DEPTH) {
        qg_diags_add(w->diags, QG_ERROR, dir.io_path, 0, 0, NULL, 0,
                     "directories nested deeper than %d levels", MAX_DIR_DEPTH);
        return QG_ERR_LIMIT;
    }
    DIR *d = opendir(dir.io_path);
    if (!d) {
        qg_diags_add(w->diags, QG_ERROR, dir.io_path, 0, 0, NULL, 0,
                     "cannot read directory: %s", strerror(errno));
        return QG_ERR_IO;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    qg_status st = QG_OK;
    struct dirent *e;
    while (st == QG_OK && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char **slot = QG_PUSH(names, count, cap);
        if (!slot || !(*slot = qg_strdup(e->d_name)))
            st = QG_ERR_NOMEM;
    }
    closedir(d);
    if (st == QG_OK)
        qsort(names, count, sizeof *names, by_string);
    qg_status worst = QG_OK;
    qg_buf skipped, *outer = w->skipped, unread, *outer_unread = w->unread;
    size_t outer_count = w->skipped_count, outer_unread_count = w->unread_count;
    qg_fd_dialect outer_dialect = w->unread_dialect;
    qg_buf_init(&skipped);
    qg_buf_init(&unread);
    w->skipped = &skipped;
    w->skipped_count = 0;
    w->unread = &unread;
    w->unread_count = 0;
    for (size_t i = 0; i < count; i++) {
        char *path = st == QG_OK ? qg_path_join(dir.path, names[i]) : NULL;
        char *io_path = st == QG_OK ? qg_path_join(dir.io_path, names[i]) : NULL;
        if (st == QG_OK && (!path || !io_path))
            st = QG_ERR_NOMEM;
        qg_status one = st == QG_OK ? visit(w, (place){path, io_path}, depth) : QG_OK;
        if (fatal(one))
            st = one;
        else if (worst == QG_OK)
            worst = one;
        free(path);
        free(io_path);
        free(names[i]);
    }
    free(names);
    if (w->skipped_count)
        qg_diags_add(w->diags, QG_NOTE, dir.path, 0, 0, NULL, 0,
                     "skipped %zu game data file%s, not level%s: %s", w->skipped_count,
                     w->skipped_count == 1 ? "" : "s", w->skipped_count == 1 ? "" : "s",
                     skipped.data ? skipped.data : "");
    if (w->unread_count)
        qg_diags_add(w->diags, QG_NOTE, dir.path, 0, 0, NULL, 0,
                     "skipped %zu file%s %s never reads: %s (%s)", w->unread_count,
                     w->unread_count == 1 ? "" : "s", qg_fd_dialect_title(w->unread_dialect),
                     unread.data ? unread.data : "", qg_fd_unread_reason(w->unread_dialect));
    qg_buf_free(&skipped);
    qg_buf_free(&unread);
    w->skipped = outer;
    w->skipped_count = outer_count;
    w->unread = outer_unread;
    w->unread_count = outer_unread_count;
    w->unread_dialect = outer_dialect;
    return st != QG_OK ? st : worst;
}

qg_status qgc_walk(const char *base_dir, const char *const *paths, size_t count,
                   qgc_visit fn, void *user, qg_diags *diags)
{
    walker w = {fn, user, diags, NULL, 0, 0, NULL, 0, NULL, 0, QG_FD_AUTO};
    qg_status st = QG_OK, worst = QG_OK;
    for (size_t i = 0; i < count && !fatal(st); i++) {
        char *io_path = qg_path_join(base_dir, paths[i]);
        struct stat sb;
        if (!io_path) {
            st = QG_ERR_NOMEM;
        } else if (stat(io_path, &sb) != 0) {
            qg_diags_add(diags, QG_ERROR, io_path, 0, 0, NULL, 0, "cannot open: %s",
                         strerror(errno));
            st = errno == ENOENT ? QG_ERR_NOTFOUND : QG_ERR_IO;
        } else if (S_ISDIR(sb.st_mode)) {
            st = walk(&w, (place){paths[i], io_path}, 0);
        } else {
            st = visit_file(&w, (place){paths[i], io_path}, 1);
        }
        if (worst == QG_OK)
            worst = st;
        free(io_path);
    }
    st = fatal(st) ? st : worst;
    for (size_t i = 0; i < w.dir_count; i++)
        free(w.dirs[i].dir);
    free(w.dirs);
    if (st == QG_ERR_NOMEM)
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0, "out of memory");
    return st;
}

/* ---- the list every command takes ---- */

typedef struct found {
    qg_input *items;
    size_t count, cap;
} found;

static qg_status keep(void *user, const char *path, const char *io_path, qg_file_kind kind,
                      int named)
{
    (void)io_path;
    found *f = user;
    qg_input *item = QG_PUSH(f->items, f->count, f->cap);
    if (!item)
        return QG_ERR_NOMEM;
    *item = (qg_input){qg_strdup(path), kind, named};
    return item->path ? QG_OK : QG_ERR_NOMEM;
}

qg_status qg_inputs_find(const char *const *paths, size_t count, qg_input **out,
                         size_t *out_count, qg_diags *diags)
{
    found f = {NULL, 0, 0};
    qg_status st = qgc_walk(NULL, paths, count, keep, &f, diags);
    *out = f.items;
    *out_count = f.count;
    return st;
}

void qg_inputs_free(qg_input *inputs, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(inputs[i].path);
    free(inputs);
}

/* ---- the files of a compile ---- */

/* What compile reads: .des files and F:/D: levels; a file named is
 * compiled when it is of the F:/D: family at all, as it was asked for. A
 * picture or a cache named is not compiled, which a warning says. */
typedef struct collecting {
    qgc_inputs *in;
    qg_diags *diags;
} collecting;

static qg_status add_input(void *user, const char *path, const char *io_path,
                           qg_file_kind kind, int named)
{
    collecting *c = user;
    qgc_inputs *in = c->in;
    qg_format format = kind == QG_FILE_DES ? QG_FORMAT_DES : QG_FORMAT_FD;
    int fd_family = kind == QG_FILE_LEVEL || kind == QG_FILE_PART || kind == QG_FILE_HUB;
    if (kind != QG_FILE_DES && kind != QG_FILE_LEVEL && !(named && fd_family)) {
        if (named)
            qg_diags_add(c->diags, QG_WARNING, path, 0, 0, NULL, 0,
                         "not compiled: %s (compile reads .des and F:/D: files)",
                         qg_file_kind_name(kind));
        return QG_OK;
    }
    qgc_input *item = QG_PUSH(in->items, in->count, in->cap);
    if (!item)
        return QG_ERR_NOMEM;
    memset(item, 0, sizeof *item);
    item->path = qg_strdup(path);
    item->io_path = qg_strdup(io_path);
    item->format = format;
    return item->path && item->io_path ? QG_OK : QG_ERR_NOMEM;
}

qg_status qgc_collect_inputs(const char *base_dir, const char *const *paths,
                             size_t count, qgc_inputs *out, qg_diags *diags)
{
    collecting c = {out, diags};
    return qgc_walk(base_dir, paths, count, add_input, &c, diags);
}

qg_status qgc_read_input(qgc_input *item, qg_diags *diags)
{
    struct stat sb;
    if (stat(item->io_path, &sb) == 0) {
        item->mtime_sec = (int64_t)sb.st_mtim.tv_sec;
        item->mtime_nsec = (long)sb.st_mtim.tv_nsec;
    }
    return qg_read_file(item->io_path, QG_MAX_TEXT_FILE, &item->data, &item->len, diags);
}

void qgc_input_drop(qgc_input *item)
{
    free(item->data);
    item->data = NULL;
}

void qgc_file_done(qgc_run *run)
{
    run->files_done++;
    if (run->opt->progress)
        run->opt->progress(run->opt->user, run->files_done, run->file_count);
}

void qgc_inputs_free(qgc_inputs *in)
{
    for (size_t i = 0; i < in->count; i++) {
        free(in->items[i].path);
        free(in->items[i].io_path);
        free(in->items[i].data);
    }
    free(in->items);
    in->items = NULL;
    in->count = in->cap = 0;
}
