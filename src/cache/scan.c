/* Before the .des files compile: what each file's compile needs of the
 * files before it, found by parsing every file once, on all threads. The
 * parse's own diagnostics are left to the compile, which parses the file
 * again. */
#include "cache/compile.h"
#include "des/names.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct scan {
    qgc_inputs *in;
    qgc_preludes *store;
    pthread_mutex_t lock;
    size_t next;        /* the next input to take */
    qg_status st;       /* the first failure of the whole scan */
} scan;

/* Parses item from its start state: its end state and its prelude. */
static qg_status scan_one(scan *s, qgc_input *item)
{
    qg_diags *ignored = qg_diags_new();
    qg_des_names *names = qg_des_names_new();
    qg_status st = ignored && names ? QG_OK : QG_ERR_NOMEM;
    qg_des_file *file = NULL;
    item->end_state = item->start_state;
    if (st == QG_OK && qgc_read_input(item, ignored) == QG_OK) {
        des_names_set_state(names, item->start_state);
        st = qg_des_parse(item->io_path, item->data, item->len, NULL, names, &file, ignored);
        st = st == QG_ERR_NOMEM ? st : QG_OK;
        item->size = item->len;
        item->end_state = des_names_state(names);
    }
    const qg_des_chunk *prelude = file ? qg_des_global_prelude(file) : NULL;
    item->prelude = (qgc_span){0, 0};
    if (st == QG_OK && prelude && prelude->len) {
        pthread_mutex_lock(&s->lock);
        item->prelude.at = qgc_spill_append(&s->store->store, prelude->code, prelude->len);
        item->prelude.len = prelude->len;
        item->prelude_line = prelude->first_line;
        if (s->store->store.err)
            st = QG_ERR_IO;
        pthread_mutex_unlock(&s->lock);
    }
    qg_des_file_free(file);
    qgc_input_drop(item);
    qg_des_names_free(names);
    qg_diags_free(ignored);
    return st;
}

static void scan_turn(void *user, int k)
{
    (void)k;
    scan *s = user;
    for (;;) {
        pthread_mutex_lock(&s->lock);
        while (s->next < s->in->count && s->in->items[s->next].format != QG_FORMAT_DES)
            s->next++;
        size_t at = s->next++;
        int stop = at >= s->in->count || s->st != QG_OK;
        pthread_mutex_unlock(&s->lock);
        if (stop)
            return;
        qg_status st = scan_one(s, &s->in->items[at]);
        if (st != QG_OK) {
            pthread_mutex_lock(&s->lock);
            if (s->st == QG_OK)
                s->st = st;
            pthread_mutex_unlock(&s->lock);
        }
    }
}

qg_status qgc_scan_des(qgc_inputs *in, qgc_run *run, qgc_preludes *store)
{
    scan s = {in, store, PTHREAD_MUTEX_INITIALIZER, 0, QG_OK};
    if (!qgc_spill_open(&store->store))
        s.st = QG_ERR_IO;
    for (size_t i = 0; i < in->count; i++)
        in->items[i].start_state = 0;
    if (s.st == QG_OK)
        qgc_run_threads(run->jobs, scan_turn, &s);
    int state = 0;
    for (size_t i = 0; i < in->count && s.st == QG_OK; i++) {
        qgc_input *item = &in->items[i];
        if (item->format != QG_FORMAT_DES)
            continue;
        if (item->start_state != state) {
            item->start_state = state;
            s.st = scan_one(&s, item);
        }
        state = item->end_state;
    }
    if (s.st == QG_OK && !qgc_spill_flush(&store->store))
        s.st = QG_ERR_IO;
    if (s.st == QG_ERR_IO)
        qgc_spill_report(&store->store, "", run->diags);
    else if (s.st == QG_ERR_NOMEM)
        qg_diags_add(run->diags, QG_ERROR, "", 0, 0, NULL, 0, "out of memory");
    pthread_mutex_destroy(&s.lock);
    return s.st;
}
