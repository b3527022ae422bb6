/* The letters a load has defined when it gets to one of its files. The
 * F: letter games keep one letter table (init1.c's letter[], Hengband
 * 3's general-parser.cpp) that a load fills as it reads, through its
 * includes, and no file clears: a file's rows see what the load defined
 * before it reached the file (q_info.txt's q_pref.txt for every quest).
 * The walk goes the way the game goes: it reads the load from its top
 * file, skipping what the ?: lines bypass, and the values of the ?:
 * variables are the ones that make the conditions on the way to the file
 * hold ([EQU $QUEST_NUMBER 3] before %:q0000003.txt). */
#include "fd/fd_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct walk {
    const fd_payload *pl;
    const qg_fd_record **path; /* the includes from the top file to the target */
    size_t path_len;
    qg_vars *vars;
    unsigned char *open;       /* files being read */
    const qg_fd_spec *legend[256];
    size_t *budget;
    int depth, max_depth;
} walk;

static int holds(const walk *w, const qg_fd_record *rec)
{
    int equal;
    if (fd_eval_equ(rec->text + 2, rec->len - 2, w->vars, &equal))
        return equal;
    char value[64];
    fd_eval(rec->text + 2, rec->len - 2, w->pl->dialect, w->vars, value, sizeof value, NULL);
    return !(value[0] == '0' && value[1] == '\0');
}

/* Reads file as the game does; path[k] (when k < path_len) is the next
 * include on the way to the target, taken whatever the ?: lines say. 1
 * when the target is reached, 0 when the file ends first, -1 when the
 * budget ran out. */
static int walk_file(walk *w, size_t file, size_t k)
{
    const fd_file *f = &w->pl->files[file];
    int bypass = 0, result = 0;
    w->open[file] = 1;
    for (size_t i = 0; i < f->record_count && result == 0; i++) {
        const qg_fd_record *rec = &f->lines[i];
        if (!*w->budget) {
            result = -1;
            break;
        }
        --*w->budget;
        if (k < w->path_len && rec == w->path[k]) {
            result = k + 1 == w->path_len ? 1 : walk_file(w, (size_t)rec->include, k + 1);
            break;
        }
        if (rec->kind == QG_FD_COND) {
            bypass = !holds(w, rec);
            continue;
        }
        if (bypass || rec->skipped)
            continue;
        if (rec->kind == QG_FD_INCLUDE && rec->include >= 0 && !w->open[rec->include] &&
            w->depth < w->max_depth) {
            w->depth++;
            result = walk_file(w, (size_t)rec->include, w->path_len);
            w->depth--;
        } else if (rec->kind == QG_FD_FEATURE && rec->spec && !rec->fails) {
            w->legend[rec->spec->letter] = rec->spec;
        }
    }
    w->open[file] = 0;
    return result;
}

/* For each file, the include by which a breadth-first reading from the
 * top file first gets to it (NULL for the top file and for files it
 * does not get to); seen[] marks the files it gets to. */
static void first_includes(const fd_payload *pl, const qg_fd_record **parent,
                           unsigned char *seen, size_t *queue, size_t *budget)
{
    size_t head = 0, tail = 0;
    queue[tail++] = 0;
    seen[0] = 1;
    while (head < tail && *budget) {
        const fd_file *f = &pl->files[queue[head++]];
        for (size_t i = 0; i < f->record_count && *budget; i++, --*budget) {
            const qg_fd_record *rec = &f->lines[i];
            if (rec->kind != QG_FD_INCLUDE || rec->include < 0 || seen[rec->include])
                continue;
            seen[rec->include] = 1;
            parent[rec->include] = rec;
            queue[tail++] = (size_t)rec->include;
        }
    }
}

/* The includes from the top file to rec (rec last) into path; their
 * count. */
static size_t way_to(const qg_fd_record *rec, const qg_fd_record *const *parent,
                     const qg_fd_record **path)
{
    size_t len = 0;
    for (const qg_fd_record *at = rec; at; at = parent[at->file])
        len++;
    size_t i = len;
    for (const qg_fd_record *at = rec; at; at = parent[at->file])
        path[--i] = at;
    return len;
}

/* The values that make the conditions on the way hold, the outer ones
 * first; NULL when memory ran out. */
static qg_vars *way_values(const fd_payload *pl, const qg_fd_record *const *path, size_t len)
{
    qg_vars *vars = qg_vars_new();
    for (size_t i = 0; vars && i < len; i++) {
        if (path[i]->cond < 0)
            continue;
        const qg_fd_record *cond = pl->records[path[i]->cond];
        if (!fd_expr_bindings(cond->text + 2, cond->len - 2, vars)) {
            qg_vars_free(vars);
            vars = NULL;
        }
    }
    return vars;
}

/* The letters after one way to the target: 1, 0 or -1 as walk_file. */
static int walk_way(walk *w, const qg_fd_spec *const *start)
{
    if (start)
        memcpy(w->legend, start, sizeof w->legend);
    else
        memset(w->legend, 0, sizeof w->legend);
    w->vars = way_values(w->pl, w->path, w->path_len);
    if (!w->vars)
        return -1;
    w->depth = 0;
    int result = walk_file(w, 0, 0);
    qg_vars_free(w->vars);
    return result;
}

static void take_way(const walk *w, const qg_fd_spec **out, int first)
{
    for (int c = 0; c < 256; c++)
        if (first)
            out[c] = w->legend[c];
        else if (!w->legend[c])
            out[c] = NULL;
}

int fd_letters_at(const fd_payload *pl, size_t target, const qg_fd_spec *const *start,
                  const qg_fd_spec **out, size_t *budget, int max_depth)
{
    for (int c = 0; c < 256; c++)
        out[c] = start ? start[c] : NULL;
    if (target == 0)
        return 1;
    size_t files = pl->file_count;
    const qg_fd_record **parent = calloc(2 * files, sizeof *parent);
    unsigned char *seen = calloc(2 * files, 1);
    size_t *queue = malloc(files * sizeof *queue);
    int result = parent && seen && queue ? 0 : -1;
    walk w = {.pl = pl, .path = parent + files, .open = seen + files, .budget = budget,
              .max_depth = max_depth};
    if (result == 0)
        first_includes(pl, parent, seen, queue, budget);
    for (size_t i = 0; result >= 0 && i < pl->record_count; i++) {
        const qg_fd_record *rec = pl->records[i];
        if (!*budget)
            result = -1;
        else
            --*budget;
        if (result < 0 || rec->kind != QG_FD_INCLUDE || rec->include != (long)target ||
            !seen[rec->file])
            continue;
        w.path_len = way_to(rec, parent, w.path);
        int reached = walk_way(&w, start);
        if (reached < 0)
            result = -1;
        else if (reached)
            take_way(&w, out, result++ == 0);
    }
    free(parent);
    free(seen);
    free(queue);
    return result < 0 ? -1 : result > 0;
}
