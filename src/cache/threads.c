/* Threads for a compile: the calling thread takes a turn of its own, so
 * one job starts no thread at all. */
#define _GNU_SOURCE
#include "cache/compile.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct turn {
    void (*fn)(void *user, int k);
    void *user;
    int k;
} turn;

static void *run_turn(void *arg)
{
    turn *t = arg;
    t->fn(t->user, t->k);
    return NULL;
}

int qgc_cores_available(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)online : 1;
}

void qgc_run_threads(int n, void (*fn)(void *user, int k), void *user)
{
    pthread_t *threads = n > 1 ? calloc((size_t)n, sizeof *threads) : NULL;
    turn *turns = n > 1 ? calloc((size_t)n, sizeof *turns) : NULL;
    char *started = n > 1 ? calloc((size_t)n, 1) : NULL;
    int spawn = threads && turns && started;
    for (int k = 1; spawn && k < n; k++) {
        turns[k] = (turn){fn, user, k};
        started[k] = pthread_create(&threads[k], NULL, run_turn, &turns[k]) == 0;
    }
    fn(user, 0);
    for (int k = 1; k < n; k++) {
        if (spawn && started[k])
            pthread_join(threads[k], NULL);
        else
            fn(user, k);
    }
    free(threads);
    free(turns);
    free(started);
}
