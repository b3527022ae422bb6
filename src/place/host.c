/* A small seeded host dungeon (rooms joined by corridors inside a frame of
 * permanent rock) for the command line and the tests. Its feature ids
 * carry their class and display glyph: (class << 8) | glyph. */
#include "place/internal.h"

#include <stdlib.h>
#include <string.h>

enum { ROOM_TRIES_PER_CELL = 150, ROOM_MIN_W = 4, ROOM_MAX_W = 12,
       ROOM_MIN_H = 3, ROOM_MAX_H = 7, MAX_ROOMS = 64 };

#define ROCK ((int32_t)(((QG_FEAT_WALL | QG_FEAT_SOLID | QG_FEAT_OPAQUE) << 8) | '#'))
#define FRAME ((int32_t)(((QG_FEAT_WALL | QG_FEAT_SOLID | QG_FEAT_OPAQUE | QG_FEAT_PERMANENT) << 8) | 'X'))
#define FLOOR ((int32_t)((QG_FEAT_FLOOR << 8) | '.'))

struct qg_host {
    qg_cave cave;
    int32_t *feature;
    uint32_t *cave_info, *vault_mask;
    int32_t *special;
};

static uint32_t host_classify(void *user, int32_t feature)
{
    (void)user;
    return (uint32_t)feature >> 8;
}

static int32_t host_translate(void *user, const qg_cell *cell)
{
    (void)user;
    unsigned char g = cell->glyph == '@' ? '.' : cell->glyph;
    return (int32_t)((qg_cell_class(cell) << 8) | g);
}

typedef struct room {
    int x, y, w, h;
} room;

static int overlaps(const room *a, const room *b)
{
    return a->x - 1 <= b->x + b->w && b->x - 1 <= a->x + a->w &&
           a->y - 1 <= b->y + b->h && b->y - 1 <= a->y + a->h;
}

static void carve(qg_host *h, int x, int y)
{
    if (x > 0 && y > 0 && x < h->cave.width - 1 && y < h->cave.height - 1)
        h->feature[y * h->cave.width + x] = FLOOR;
}

static void corridor(qg_host *h, qg_rng *rng, const room *a, const room *b)
{
    int x0 = a->x + a->w / 2, y0 = a->y + a->h / 2;
    int x1 = b->x + b->w / 2, y1 = b->y + b->h / 2;
    int horizontal_first = qg_rng_coinflip(rng);
    int cx = horizontal_first ? x1 : x0, cy = horizontal_first ? y0 : y1;
    for (int x = x0 < x1 ? x0 : x1; x <= (x0 < x1 ? x1 : x0); x++)
        carve(h, x, cy);
    for (int y = y0 < y1 ? y0 : y1; y <= (y0 < y1 ? y1 : y0); y++)
        carve(h, cx, y);
}

static void generate(qg_host *h, qg_rng *rng)
{
    int W = h->cave.width, H = h->cave.height;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            h->feature[y * W + x] = (x == 0 || y == 0 || x == W - 1 || y == H - 1) ? FRAME : ROCK;
    room rooms[MAX_ROOMS];
    int count = 0;
    int tries = W * H / ROOM_TRIES_PER_CELL + 8;
    for (int t = 0; t < tries && count < MAX_ROOMS; t++) {
        room r;
        r.w = qg_rng_range(rng, ROOM_MIN_W, ROOM_MAX_W);
        r.h = qg_rng_range(rng, ROOM_MIN_H, ROOM_MAX_H);
        r.x = qg_rng_range(rng, 2, W - 3 - r.w);
        r.y = qg_rng_range(rng, 2, H - 3 - r.h);
        if (r.x < 2 || r.y < 2 || r.x + r.w > W - 2 || r.y + r.h > H - 2)
            continue;
        int clear = 1;
        for (int i = 0; i < count && clear; i++)
            clear = !overlaps(&r, &rooms[i]);
        if (!clear)
            continue;
        for (int y = r.y; y < r.y + r.h; y++)
            for (int x = r.x; x < r.x + r.w; x++)
                carve(h, x, y);
        if (count)
            corridor(h, rng, &rooms[count - 1], &r);
        rooms[count++] = r;
    }
}

qg_host *qg_host_generate(int width, int height, unsigned long long seed)
{
    if (width < 3 || height < 3 || width > 4096 || height > 4096)
        return NULL;
    size_t n = (size_t)width * (size_t)height;
    qg_host *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->feature = malloc(n * sizeof *h->feature);
    h->cave_info = calloc(n, sizeof *h->cave_info);
    h->vault_mask = calloc(n, sizeof *h->vault_mask);
    h->special = calloc(n, sizeof *h->special);
    if (!h->feature || !h->cave_info || !h->vault_mask || !h->special) {
        qg_host_free(h);
        return NULL;
    }
    h->cave = (qg_cave){width, height, h->feature, h->cave_info, h->vault_mask,
                        h->special, host_classify, host_translate, NULL, FLOOR, h, NULL};
    qg_rng rng;
    qg_rng_seed(&rng, seed, 0x686f7374ull);
    generate(h, &rng);
    return h;
}

void qg_host_free(qg_host *host)
{
    if (!host)
        return;
    free(host->feature);
    free(host->cave_info);
    free(host->vault_mask);
    free(host->special);
    free(host);
}

qg_cave *qg_host_cave(qg_host *host)
{
    return &host->cave;
}

unsigned char qg_host_glyph(const qg_host *host, int x, int y)
{
    if (x < 0 || y < 0 || x >= host->cave.width || y >= host->cave.height)
        return ' ';
    return (unsigned char)(host->feature[y * host->cave.width + x] & 0xff);
}

static const char *describe(int32_t feature)
{
    uint32_t cls = (uint32_t)feature >> 8;
    if (feature == FRAME) return "permanent rock (the dungeon's frame)";
    if (feature == ROCK) return "rock";
    if (feature == FLOOR) return "floor";
    if (cls & QG_FEAT_PERMANENT) return "permanent wall";
    if (cls & QG_FEAT_WALL) return "wall";
    if (cls & QG_FEAT_TREE) return "tree";
    if (cls & QG_FEAT_DOOR) return "door";
    if (cls & QG_FEAT_DEEP_WATER) return "deep water";
    if (cls & QG_FEAT_SHALLOW) return "shallow water";
    if (cls & QG_FEAT_LAVA) return "lava";
    if (cls & QG_FEAT_STAIRS) return "stairs";
    if (cls & QG_FEAT_SOLID) return "statue or fountain";
    if (cls & QG_FEAT_FLOOR) return "floor with a thing";
    return "feature";
}

/* The ANSI colour of a host feature, after Crawl's feature colours:
 * the frame white, walls light grey, rock brown, doors brown, water blue
 * or cyan, lava red, stairs yellow, trees green, floor the default. */
static int feature_sgr(int32_t feature)
{
    uint32_t cls = (uint32_t)feature >> 8;
    if (feature == FRAME || (cls & QG_FEAT_PERMANENT)) return 97;
    if (feature == ROCK) return 33;
    if (cls & QG_FEAT_WALL) return 37;
    if (cls & QG_FEAT_TREE) return 92;
    if (cls & QG_FEAT_DOOR) return 33;
    if (cls & QG_FEAT_DEEP_WATER) return 34;
    if (cls & QG_FEAT_SHALLOW) return 36;
    if (cls & QG_FEAT_LAVA) return 31;
    if (cls & QG_FEAT_STAIRS) return 93;
    if (cls & QG_FEAT_SOLID) return 90;
    return 0;
}

void qg_host_print(const qg_host *host, FILE *out)
{
    qg_host_print_with(host, 0, out);
}

void qg_host_print_with(const qg_host *host, int colour, FILE *out)
{
    const qg_cave *c = &host->cave;
    int32_t first[256];
    memset(first, 0xff, sizeof first);
    for (int y = 0; y < c->height; y++) {
        int current = 0;
        for (int x = 0; x < c->width; x++) {
            int32_t f = c->feature[y * c->width + x];
            unsigned char g = (unsigned char)(f & 0xff);
            if (first[g] == -1)
                first[g] = f;
            int sgr = colour ? feature_sgr(f) : 0;
            if (sgr != current) {
                fprintf(out, "\033[%dm", sgr);
                current = sgr;
            }
            fputc(g, out);
        }
        if (current)
            fputs("\033[0m", out);
        fputc('\n', out);
    }
    fputs("\nLegend:\n", out);
    for (int g = 0; g < 256; g++)
        if (first[g] != -1)
            fprintf(out, "  %c  %s\n", g, describe(first[g]));
}
