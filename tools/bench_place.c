/* Placement throughput, run by hand:
 *   make bench && ./tools/bench_place [seconds]
 * 1. a median-size vault (15 × 12 minivault with exits and things) into an
 *    80 × 70 host dungeon; the host is restored after every placement and
 *    the restore alone is timed too, so the net figure is placement only;
 * 2. a 198 × 66 quest level placed at (0, 0) into a 198 × 66 cave.
 * Times are process CPU time, steadier than wall time on a shared machine. */
#define _POSIX_C_SOURCE 200809L
#include "questgrid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const vault_rows[] = {
    "xxxxxxx@xxxxxxx", "x.............x", "x..1.......2..x", "x....xxxxx....x",
    "x....x$$$x....x", "@....x$|$+....@", "x....x$$$x....x", "x....xxxxx....x",
    "x..3.......4..x", "x.............x", "x.............x", "xxxxxxx@xxxxxxx"};

static qg_level *make_vault(void)
{
    qg_level *l = qg_level_new(15, 12);
    for (int y = 0; y < 12; y++)
        for (int x = 0; x < 15; x++) {
            char g = vault_rows[y][x];
            qg_level_set_glyph(l, x, y, (unsigned char)g);
            if (g >= '1' && g <= '4')
                qg_level_set_thing(l, x, y, QG_SLOT_MONSTER, QG_THING_NAME, 0, "orc");
            if (g == '$' || g == '|')
                qg_level_set_thing(l, x, y, QG_SLOT_OBJECT, QG_THING_RANDOM, 0, NULL);
        }
    qg_level_add_property(l, "tags", "no_monster_gen");
    return l;
}

static qg_level *make_quest(void)
{
    qg_level *l = qg_level_new(198, 66);
    for (int y = 0; y < 66; y++)
        for (int x = 0; x < 198; x++) {
            int wall = x == 0 || y == 0 || x == 197 || y == 65 || (x % 20 == 0 && y % 7);
            qg_level_set_glyph(l, x, y, wall ? '#' : '.');
            qg_level_set_feature(l, x, y, wall ? 61 : 1, NULL);
            qg_level_set_cave_info(l, x, y, wall ? 8 : 12);
        }
    for (int i = 0; i < 40; i++)
        qg_level_set_thing(l, 5 + i * 4, 10 + i % 40, QG_SLOT_MONSTER, QG_THING_RANDOM, i % 5, NULL);
    qg_level_set_player_start(l, 3, 3);
    return l;
}

static uint32_t quest_classify(void *user, int32_t f)
{
    (void)user;
    return f == 1 ? QG_FEAT_FLOOR : QG_FEAT_WALL | QG_FEAT_SOLID | QG_FEAT_OPAQUE;
}

typedef struct snapshot {
    int32_t *feature;
    uint32_t *info, *mask;
    int32_t *special;
    size_t n;
} snapshot;

static void take(snapshot *s, const qg_cave *c)
{
    s->n = (size_t)c->width * (size_t)c->height;
    s->feature = malloc(s->n * sizeof *s->feature);
    s->info = malloc(s->n * sizeof *s->info);
    s->mask = malloc(s->n * sizeof *s->mask);
    s->special = malloc(s->n * sizeof *s->special);
    memcpy(s->feature, c->feature, s->n * sizeof *s->feature);
    memcpy(s->info, c->cave_info, s->n * sizeof *s->info);
    memcpy(s->mask, c->vault_mask, s->n * sizeof *s->mask);
    memcpy(s->special, c->special, s->n * sizeof *s->special);
}

static void restore(const snapshot *s, qg_cave *c)
{
    memcpy(c->feature, s->feature, s->n * sizeof *s->feature);
    memcpy(c->cave_info, s->info, s->n * sizeof *s->info);
    memcpy(c->vault_mask, s->mask, s->n * sizeof *s->mask);
    memcpy(c->special, s->special, s->n * sizeof *s->special);
}

static void bench_vault(double seconds)
{
    qg_host *host = qg_host_generate(80, 70, 42);
    qg_cave *cave = qg_host_cave(host);
    qg_level *vault = make_vault();
    snapshot snap;
    take(&snap, cave);
    long n = 0, placed = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < 1000; i++, n++) {
            qg_place_options o = {.seed = (unsigned long long)n};
            qg_placement p = {0};
            placed += qg_place_vault(cave, vault, &o, &p, NULL) == QG_OK;
            qg_placement_clear(&p);
            restore(&snap, cave);
        }
        t = now() - t0;
    } while (t < seconds);
    long r = 0;
    double r0 = now();
    for (; r < n; r++)
        restore(&snap, cave);
    double rt = now() - r0;
    printf("vault 15x12 into 80x70: %ld placements (%ld placed) in %.3f s: "
           "%.0f/s gross, restore %.2f us each, %.0f/s net\n",
           n, placed, t, (double)n / t, rt / (double)r * 1e6, (double)n / (t - rt));
    free(snap.feature); free(snap.info); free(snap.mask); free(snap.special);
    qg_level_free(vault);
    qg_host_free(host);
}

static void bench_quest(double seconds)
{
    size_t cells = 198 * 66;
    int32_t *feature = calloc(cells, sizeof *feature), *special = calloc(cells, sizeof *special);
    uint32_t *info = calloc(cells, sizeof *info), *mask = calloc(cells, sizeof *mask);
    qg_cave cave = {198, 66, feature, info, mask, special, quest_classify, NULL, NULL, 1, NULL, NULL};
    qg_level *quest = make_quest();
    long n = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < 100; i++, n++) {
            qg_placement p = {0};
            if (qg_place_fixed(&cave, quest, NULL, &p, NULL) != QG_OK)
                abort();
            qg_placement_clear(&p);
        }
        t = now() - t0;
    } while (t < seconds);
    printf("quest 198x66 at 0,0: %ld placements in %.3f s: %.0f/s (%.1f ns per cell)\n",
           n, t, (double)n / t, t / (double)n / (double)cells * 1e9);
    qg_level_free(quest);
    free(feature); free(special); free(info); free(mask);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 2.0;
    bench_vault(seconds);
    bench_quest(seconds);
    return 0;
}
