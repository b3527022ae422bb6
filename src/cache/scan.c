/* Before the .des files compile: what each file's compile needs of the
 * files before it, found by parsing every file once, on all threads. The
 * parse's own diagnostics are left to the compile, which parses the file
 * again. */
#define _POSIX_C_SOURCE 200809L
#include "cache/compile.h"
#include "cache/previous.h"
#include "des/scan.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct scan {
    qgc_inputs *in;
    qgc_preludes *store;
    const qgc_previous *previous;
    pthread_mutex_t lock;
    size_t next;        /* the next input to take */
    qg_status st;       /* the first failure of the whole scan */
} scan;

/* Whether item's text is the previous cache's: size and mtime as
 * recorded, else the same hash (then its text is kept in item->data). */
static int unchanged(const qgc_previous *previous, qgc_input *item)
{
    const qg_cache_file *old = &previous->cache->files[item->previous];
    struct stat sb;
    if (stat(item->io_path, &sb) != 0)
        return 0;
    item->mtime_sec = (int64_t)sb.st_mtim.tv_sec;
    item->mtime_nsec = (long)sb.st_mtim.tv_nsec;
    if (old->mtime_sec && (uint64_t)sb.st_size == old->size &&
        old->mtime_sec == item->mtime_sec && old->mtime_nsec == item->mtime_nsec)
        return 1;
    return (uint64_t)sb.st_size == old->size && qgc_read_input(item, NULL) == QG_OK &&
           item->len == old->size && qg_cache_hash(item->data, item->len) == old->hash;
}

/* An unchanged file the previous cache holds, starting in the state it
 * started in there: what it leaves is what it left. */
static int known(const qgc_previous *previous, qgc_input *item)
{
    if (item->previous == QG_CACHE_NONE)
        return 0;
    item->unchanged = unchanged(previous, item);
    const qgc_reuse *old = &previous->cache->reuse[item->previous];
    if (!item->unchanged || !old->key || old->start_state != item->start_state)
        return 0;
    item->size = previous->cache->files[item->previous].size;
    item->end_state = old->end_state;
    item->prelude = (qgc_span){0, 0};
    item->prelude_hash = old->prelude;
    return 1;
}

/* Parses item from its start state: its end state and its prelude. */
static qg_status scan_one(scan *s, qgc_input *item)
{
    if (known(s->previous, item)) {
        qgc_input_drop(item);
        return QG_OK;
    }
    qg_des_names *names = qg_des_names_new();
    qg_status st = names ? QG_OK : QG_ERR_NOMEM;
    qg_des_file *file = NULL;
    item->end_state = item->start_state;
    if (st == QG_OK && (item->data || qgc_read_input(item, NULL) == QG_OK)) {
        des_names_set_state(names, item->start_state);
        st = des_skim(item->io_path, item->data, item->len, names, &file);
        st = st == QG_ERR_NOMEM ? st : QG_OK;
        item->size = item->len;
        item->end_state = des_names_state(names);
    }
    const qg_des_chunk *prelude = file ? qg_des_global_prelude(file) : NULL;
    item->prelude = (qgc_span){0, 0};
    item->prelude_hash = 0;
    if (st == QG_OK && prelude && prelude->len) {
        item->prelude_hash = qgc_prelude_hash(prelude);
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
    scan s = {in, store, run->previous, PTHREAD_MUTEX_INITIALIZER, 0, QG_OK};
    if (!qgc_spill_open(&store->store))
        s.st = QG_ERR_IO;
    for (size_t i = 0; i < in->count; i++) {
        qgc_input *item = &in->items[i];
        item->start_state = 0;
        item->previous = item->format == QG_FORMAT_DES
                             ? qgc_previous_find(run->previous, item->path) : QG_CACHE_NONE;
    }
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

uint64_t qgc_prelude_hash(const qg_des_chunk *prelude)
{
    uint64_t h = qgc_hash_u64(QGC_HASH_START, (uint64_t)prelude->first_line);
    h = qgc_hash_more(h, prelude->code, prelude->len);
    return h ? h : 1;
}

void qgc_des_keys(qgc_inputs *in, uint64_t environment)
{
    uint64_t chain = QGC_HASH_START;
    for (size_t i = 0; i < in->count; i++) {
        qgc_input *item = &in->items[i];
        if (item->format != QG_FORMAT_DES)
            continue;
        uint64_t key = qgc_hash_u64(QGC_HASH_START, environment);
        key = qgc_hash_u64(key, (uint64_t)item->start_state);
        key = qgc_hash_u64(key, chain);
        item->key = key ? key : 1;
        if (item->prelude_hash) {
            chain = qgc_hash_more(chain, item->path, strlen(item->path) + 1);
            chain = qgc_hash_u64(chain, item->prelude_hash);
        }
    }
}

void qgc_des_reuse(qgc_inputs *in, const qgc_previous *previous)
{
    for (size_t i = 0; i < in->count; i++) {
        qgc_input *item = &in->items[i];
        item->reused = item->format == QG_FORMAT_DES && item->previous != QG_CACHE_NONE &&
                       item->unchanged &&
                       previous->cache->reuse[item->previous].key == item->key;
    }
}
