/* The operation watch: a thread that, while Lua runs, reads the CPU
 * clock of the thread running it every tick and flags the operation that
 * has used more than its limit. CPU time rather than wall time, so that a
 * loaded machine does not fail a map an idle one passes. It sleeps when
 * no Lua has run for a while, so an idle runtime costs nothing. */
#define _POSIX_C_SOURCE 200809L
#include "lua/watch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

enum {
    TICK_MS = 20,
    IDLE_TICKS = 50   /* a second without Lua: sleep until the next entry */
};

struct lrt_watch {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int stop;                   /* under lock */
    atomic_int sleeping;
    /* written by the thread running Lua */
    atomic_uint operation;
    atomic_ulong limit_ms;
    atomic_int inside;
    atomic_int clock;           /* CPU clock of the thread running Lua */
    int depth;
    /* written by the watch: 1 + the operation that passed its limit */
    atomic_uint expired;
};

static double seconds_of(clockid_t clock)
{
    struct timespec t;
    if (clock_gettime(clock, &t) != 0)
        return -1;
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* What the watch remembers between ticks. */
typedef struct sample {
    unsigned operation;
    int inside;
    double last, used;
} sample;

static void tick(lrt_watch *w, sample *s)
{
    unsigned op = atomic_load(&w->operation);
    int inside = atomic_load(&w->inside);
    double now = inside ? seconds_of((clockid_t)atomic_load(&w->clock)) : -1;
    if (op != s->operation)
        s->used = 0;
    else if (inside && s->inside && now >= s->last)
        s->used += now - s->last;
    s->operation = op;
    s->inside = inside && now >= 0;
    s->last = now;
    unsigned long limit = atomic_load(&w->limit_ms);
    if (limit && s->used * 1000.0 > (double)limit)
        atomic_store(&w->expired, op + 1);
}

/* Waits a tick; after IDLE_TICKS without Lua, until the next entry. 0
 * when told to stop. */
static int wait_tick(lrt_watch *w, int *idle)
{
    pthread_mutex_lock(&w->lock);
    if (*idle >= IDLE_TICKS) {
        atomic_store(&w->sleeping, 1);
        while (!w->stop && !atomic_load(&w->inside))
            pthread_cond_wait(&w->wake, &w->lock);
        atomic_store(&w->sleeping, 0);
        *idle = 0;
    }
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += TICK_MS * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    while (!w->stop && pthread_cond_timedwait(&w->wake, &w->lock, &until) == 0)
        ;
    int go_on = !w->stop;
    pthread_mutex_unlock(&w->lock);
    return go_on;
}

static void *watch_main(void *arg)
{
    lrt_watch *w = arg;
    sample s = {0, 0, -1, 0};
    int idle = 0;
    while (wait_tick(w, &idle)) {
        tick(w, &s);
        idle = s.inside ? 0 : idle + 1;
    }
    return NULL;
}

lrt_watch *lrt_watch_new(void)
{
    lrt_watch *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    if (pthread_create(&w->thread, NULL, watch_main, w) != 0) {
        pthread_cond_destroy(&w->wake);
        pthread_mutex_destroy(&w->lock);
        free(w);
        return NULL;
    }
    return w;
}

void lrt_watch_free(lrt_watch *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->stop = 1;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

void lrt_watch_operation(lrt_watch *w, unsigned long limit_ms)
{
    atomic_store(&w->limit_ms, limit_ms);
    atomic_fetch_add(&w->operation, 1);
}

void lrt_watch_enter(lrt_watch *w)
{
    if (w->depth++)
        return;
    clockid_t clock;
    /* a clock no read succeeds on: the operation goes unwatched */
    if (pthread_getcpuclockid(pthread_self(), &clock) != 0)
        clock = (clockid_t)-1;
    atomic_store(&w->clock, (int)clock);
    atomic_store(&w->inside, 1);
    if (atomic_load(&w->sleeping)) {
        pthread_mutex_lock(&w->lock);
        pthread_cond_signal(&w->wake);
        pthread_mutex_unlock(&w->lock);
    }
}

void lrt_watch_leave(lrt_watch *w)
{
    if (--w->depth == 0)
        atomic_store(&w->inside, 0);
}

int lrt_watch_expired(const lrt_watch *w)
{
    return atomic_load_explicit(&w->expired, memory_order_relaxed) ==
           atomic_load_explicit(&w->operation, memory_order_relaxed) + 1;
}
