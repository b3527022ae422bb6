/* A hub's quests (qg_fd_hub_quests) for the commands that load a quest
 * through one, and for list. */
#include "cli/cli.h"
#include "core/buf.h"
#include "core/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The quests listed in a message; the rest are counted. */
enum { LISTED = 40 };

typedef struct hub {
    qg_mapdef *def;
    qg_fd_hub_quest *quests;
    size_t count;
} hub;

/* The hub and its quests; what reading it reports goes to diags. */
static qg_status read_hub(const char *path, const qg_fd_options *options, hub *h,
                          qg_diags *diags)
{
    memset(h, 0, sizeof *h);
    qg_status st = qg_fd_read(path, options, &h->def, diags);
    if (h->def)
        st = qg_fd_hub_quests(h->def, &h->quests, &h->count);
    if (st == QG_ERR_NOMEM)
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "out of memory");
    return h->def ? st : QG_ERR_IO;
}

static void hub_free(hub *h)
{
    free(h->quests);
    qg_mapdef_free(h->def);
}

static const char *base(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path;
}

static void list_quests(qg_buf *out, const hub *h)
{
    for (size_t i = 0; i < h->count && i < LISTED; i++) {
        const qg_fd_hub_quest *q = &h->quests[i];
        qg_buf_printf(out, "%s%d", i ? ", " : "", q->number);
        if (q->name)
            qg_buf_printf(out, " %s", q->name);
    }
    if (h->count > LISTED)
        qg_buf_printf(out, " and %zu more", h->count - LISTED);
}

int cli_hub_check(const cli_opts *opts, const char *path, const qg_fd_options *options,
                  qg_diags *diags)
{
    hub h = {NULL, NULL, 0};
    qg_diags *quiet = qg_diags_new();   /* the load reports the file's own errors */
    qg_status st = quiet ? read_hub(path, options, &h, quiet) : QG_ERR_NOMEM;
    qg_diags_free(quiet);
    if (st != QG_OK) {
        hub_free(&h);
        return 0;
    }
    int found = 0;
    char wanted[24], numbers[LISTED][24];
    const char *offered[LISTED + 1];
    snprintf(wanted, sizeof wanted, "%ld", opts->quest);
    for (size_t i = 0; i < h.count; i++)
        found |= h.quests[i].number == opts->quest;
    if (opts->quest < 0 || !found) {
        qg_buf text;
        qg_buf_init(&text);
        size_t n = 0;
        for (; n < h.count && n < LISTED; n++) {
            snprintf(numbers[n], sizeof numbers[n], "%d", h.quests[n].number);
            offered[n] = numbers[n];
        }
        offered[n] = NULL;
        /* a number of one digit is not a typo of another */
        qg_suggest s;
        qg_suggest_init(&s, wanted, strlen(wanted));
        if (strlen(wanted) > 1)
            qg_suggest_offer_all(&s, offered);
        if (opts->quest < 0)
            qg_buf_printf(&text, "a quest hub: give --quest N to load one of its %zu quests (",
                          h.count);
        else if (qg_suggest_best(&s))
            qg_buf_printf(&text, "no quest %ld in this hub; did you mean %.*s? (its %zu quests: ",
                          opts->quest, (int)s.best_len, qg_suggest_best(&s), h.count);
        else
            qg_buf_printf(&text, "no quest %ld in this hub (its %zu quests: ", opts->quest,
                          h.count);
        list_quests(&text, &h);
        qg_buf_puts(&text, "); questgrid list shows them with their files");
        qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "%s", text.data ? text.data : "");
        qg_buf_free(&text);
    }
    hub_free(&h);
    return opts->quest < 0 || !found ? -1 : 0;
}

int cli_hub_list(const char *path, const qg_fd_options *options, qg_diags *diags)
{
    hub h;
    qg_status st = read_hub(path, options, &h, diags);
    for (size_t i = 0; st == QG_OK && i < h.count; i++) {
        const qg_fd_hub_quest *q = &h.quests[i];
        printf("%s\tquest %d\t%s\t%s\n", path, q->number, q->name ? q->name : "-",
               q->file ? base(q->file) : "-");
    }
    if (st == QG_OK && !h.count)
        qg_diags_add(diags, QG_NOTE, path, 0, 0, NULL, 0, "a hub that names no quest");
    hub_free(&h);
    return st == QG_OK ? 0 : -1;
}

int cli_hub_each(const char *path, const qg_fd_options *options,
                 void (*fn)(void *user, const qg_fd_hub_quest *quest), void *user,
                 qg_diags *diags)
{
    hub h;
    qg_status st = read_hub(path, options, &h, diags);
    for (size_t i = 0; st == QG_OK && i < h.count; i++)
        fn(user, &h.quests[i]);
    hub_free(&h);
    return st == QG_OK ? 0 : -1;
}
