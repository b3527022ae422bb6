/* Answers to a name the user gave that the data does not have (--map,
 * --var): the closest as a hint and the names there are. */
#include "cli/cli.h"
#include "core/buf.h"
#include "core/suggest.h"

#include <stdio.h>
#include <string.h>

/* The names listed in a message; the rest are counted. */
enum { LISTED = 24 };

static void list_names(qg_buf *out, const char *const *names, size_t count)
{
    for (size_t i = 0; i < count && i < LISTED; i++)
        qg_buf_printf(out, "%s%s", i ? ", " : "", names[i]);
    if (count > LISTED)
        qg_buf_printf(out, " and %zu more", count - LISTED);
}

/* The names an unknown --map is compared with, one source at a time. */
typedef const char *(*name_at)(const void *from, size_t index);

static void unknown_map(const char *where, const char *name, name_at at, const void *from,
                        size_t first, size_t count, qg_diags *diags)
{
    qg_suggest s;
    qg_suggest_init(&s, name, strlen(name));
    const char *listed[LISTED];
    for (size_t i = 0; i < count; i++) {
        const char *candidate = at(from, first + i);
        qg_suggest_offer(&s, candidate, strlen(candidate));
        if (i < LISTED)
            listed[i] = candidate;
    }
    qg_buf text;
    qg_buf_init(&text);
    qg_buf_printf(&text, "no map named '%s'", name);
    if (qg_suggest_best(&s))
        qg_buf_printf(&text, "; did you mean '%.*s'?", (int)s.best_len, qg_suggest_best(&s));
    if (count) {
        qg_buf_printf(&text, " (%zu map%s: ", count, count == 1 ? "" : "s");
        list_names(&text, listed, count);
        qg_buf_putc(&text, ')');
    } else {
        qg_buf_puts(&text, " (no maps)");
    }
    qg_diags_add(diags, QG_ERROR, where, 0, 0, NULL, 0, "%s", text.data ? text.data : name);
    qg_buf_free(&text);
}

static const char *listed_name(const void *from, size_t index)
{
    return ((const char *const *)from)[index];
}

static const char *file_map_name(const void *from, size_t index)
{
    return qg_mapdef_name(qg_des_map(from, index));
}

static const char *runtime_map_name(const void *from, size_t index)
{
    return qg_mapdef_name(qg_runtime_map(from, index));
}

static const char *cache_map_name(const void *from, size_t index)
{
    return qg_cache_entry_at(from, index)->name;
}

void cli_unknown_map(const char *where, const char *name, const char *const *names, size_t count,
                     qg_diags *diags)
{
    unknown_map(where, name, listed_name, names, 0, count, diags);
}

void cli_unknown_file_map(const char *where, const char *name, const qg_des_file *file,
                          qg_diags *diags)
{
    unknown_map(where, name, file_map_name, file, 0, qg_des_map_count(file), diags);
}

void cli_unknown_runtime_map(const char *where, const char *name, const qg_runtime *rt,
                             size_t first, qg_diags *diags)
{
    unknown_map(where, name, runtime_map_name, rt, first, qg_runtime_map_count(rt) - first,
                diags);
}

void cli_unknown_cache_map(const char *where, const char *name, const qg_cache *cache,
                           qg_diags *diags)
{
    unknown_map(where, name, cache_map_name, cache, 0, qg_cache_map_count(cache), diags);
}

enum { MAX_VARIABLES = 64 };

/* The dialect's variables, as --var sets them; names ends with NULL. */
static size_t variables(qg_fd_dialect dialect, char buf[][32], const char **names)
{
    size_t n = 0;
    while (n < MAX_VARIABLES && qg_fd_variable_at(dialect, n, buf[n], sizeof buf[n])) {
        names[n] = buf[n];
        n++;
    }
    names[n] = NULL;
    return n;
}

void cli_check_vars(const cli_opts *opts, qg_fd_dialect dialect, qg_diags *diags)
{
    char buf[MAX_VARIABLES][32];
    const char *names[MAX_VARIABLES + 1];
    size_t count = variables(dialect, buf, names);
    for (size_t i = 0; i < qg_vars_count(opts->vars); i++) {
        const char *name = qg_vars_name_at(opts->vars, i);
        if (qg_fd_knows_variable(dialect, name))
            continue;
        qg_suggest s;
        qg_suggest_init(&s, name, strlen(name));
        qg_suggest_offer_all(&s, names);
        qg_buf text;
        qg_buf_init(&text);
        qg_buf_printf(&text, "--var %s: %s gives ?: lines no variable $%s", name,
                      qg_fd_dialect_title(dialect), name);
        if (qg_suggest_best(&s))
            qg_buf_printf(&text, "; did you mean %.*s?", (int)s.best_len, qg_suggest_best(&s));
        qg_buf_puts(&text, " (its variables: ");
        list_names(&text, names, count);
        qg_buf_putc(&text, ')');
        qg_diags_add(diags, QG_WARNING, "", 0, 0, NULL, 0, "%s", text.data ? text.data : name);
        qg_buf_free(&text);
    }
}
