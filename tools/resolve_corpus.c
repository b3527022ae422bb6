/* Conformance report over a game's whole .des corpus (built by `make
 * bench`, run by hand): loads the corpus the way its Lua library does
 * (Crawl: dat/dlua with loadmaps.lua), compiles every map, then resolves
 * each map at the places its own DEPTH names (the first, middle and last
 * level of each range it allows, less the levels it excludes) for a few
 * seeds, and at three fixed places. Prints the figures, then every map
 * that resolves nowhere it is meant to go, grouped by the reason given,
 * each with its file:line.
 *   resolve_corpus [-s SEEDS] [-q | -v] [-m NAME] [-p] [-i N] [-g GAME] [DATDIR [LUADIR]]
 * DATDIR defaults to /usr/share/crawl/dat, LUADIR to DATDIR/dlua; -q
 * leaves out the per-map lists, -v adds each map's whole message; -m
 * resolves only the maps whose name contains NAME, -p prints the levels
 * they resolve to, -i sets the instruction budget of a chunk run, -g
 * names the game whose branch table places are read with (crawl-0.28;
 * default: the newest, as questgrid's --game). Exit
 * status 0 when every map compiles and resolves at one of its own places,
 * 1 otherwise. */
#define _POSIX_C_SOURCE 200809L
#include "questgrid.h"
#include "core/file.h"
#include "core/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OWN_PLACES 12
#define MAX_REASONS 1024
#define MAX_SHOWN 200

typedef struct reason {
    char *text;
    int maps;
    char *where[MAX_SHOWN];   /* "file:line name" of the first maps */
} reason;

typedef struct reasons {
    reason items[MAX_REASONS];
    int count, other;
} reasons;

/* The message with what varies between maps taken out: its first line,
 * the "file:line: " in front, " (map NAME)" and the map's name. */
static void reason_key(const char *msg, const char *map, char *key, size_t size)
{
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(msg, "\n"), msg);
    const char *p = line;
    const char *colon = strstr(p, ": ");
    while (colon && colon - p < 200 && strchr(p, ':') < colon &&
           strspn(strchr(p, ':') + 1, "0123456789") > 0) {
        p = colon + 2;
        colon = strstr(p, ": ");
    }
    snprintf(key, size, "%s", p);
    char *m = strstr(key, " (map ");
    if (m)
        *m = '\0';
    size_t len = strlen(map);
    char *name = strstr(key, map);
    int word = name && len > 3 && (name == key || name[-1] == ' ') &&
               (name[len] == ' ' || !name[len]);
    if (word) {
        memmove(name + 3, name + len, strlen(name + len) + 1);
        memcpy(name, "MAP", 3);
    }
}

/* -v: each map listed with its whole message (traceback included). */
static int verbose;

static void add_reason(reasons *r, const qg_diags *d, const qg_mapdef *def)
{
    const qg_diag *first = NULL;
    for (size_t i = 0; i < qg_diags_count(d) && !first; i++)
        if (qg_diags_get(d, i)->severity == QG_ERROR)
            first = qg_diags_get(d, i);
    char key[512];
    reason_key(first ? first->message : "(no diagnostic)", qg_mapdef_name(def), key,
               sizeof key);
    reason *it = NULL;
    for (int i = 0; i < r->count && !it; i++)
        if (strcmp(r->items[i].text, key) == 0)
            it = &r->items[i];
    if (!it && r->count == MAX_REASONS) {
        r->other++;
        return;
    }
    if (!it) {
        it = &r->items[r->count++];
        it->text = qg_strdup(key);
    }
    if (it->maps < MAX_SHOWN) {
        qg_buf where;
        qg_buf_init(&where);
        qg_buf_printf(&where, "%s:%d %s", qg_mapdef_file(def), qg_mapdef_line(def),
                      qg_mapdef_name(def));
        for (size_t i = 0; verbose && i < qg_diags_count(d); i++) {
            const qg_diag *g = qg_diags_get(d, i);
            if (g == first || g->severity == QG_NOTE)
                qg_buf_printf(&where, "\n%s:%d: %s", g->file, g->line, g->message);
        }
        it->where[it->maps] = qg_buf_take(&where);
    }
    it->maps++;
}

static int by_maps(const void *a, const void *b)
{
    return ((const reason *)b)->maps - ((const reason *)a)->maps;
}

static void print_reasons(reasons *r, const char *what, int quiet)
{
    qsort(r->items, (size_t)r->count, sizeof *r->items, by_maps);
    printf("%s, by reason (maps):\n", what);
    for (int i = 0; i < r->count; i++) {
        reason *it = &r->items[i];
        printf("  %5d  %s\n", it->maps, it->text);
        for (int k = 0; k < it->maps && k < MAX_SHOWN; k++) {
            if (!quiet)
                printf("           %s\n", it->where[k]);
            free(it->where[k]);
        }
        if (!quiet && it->maps > MAX_SHOWN)
            printf("           … and %d more\n", it->maps - MAX_SHOWN);
        free(it->text);
    }
    if (r->other)
        printf("  %5d  (further reasons not listed)\n", r->other);
}

/* ---- the places a map is made for --------------------------------------- */

typedef struct places {
    char name[MAX_OWN_PLACES][48];
    int count;
} places;

/* -g GAME: the game's branch table (default: the newest game's). */
static qg_branches *branches;

static int place_ok(const char *place)
{
    qg_diags *d = qg_diags_new();
    int ok = d && qg_branches_check_place(branches, place, d) == QG_OK;
    qg_diags_free(d);
    return ok;
}

/* The last level of a branch, found by asking which places exist. */
static int last_level(const char *branch)
{
    char place[64];
    int n = 1;
    for (; n < 64; n++) {
        snprintf(place, sizeof place, "%s:%d", branch, n + 1);
        if (!place_ok(place))
            break;
    }
    return n;
}

static void add_place(places *p, const char *branch, int depth)
{
    char place[48];
    snprintf(place, sizeof place, "%s:%d", branch, depth);
    if (!place_ok(place) || p->count == MAX_OWN_PLACES)
        return;
    for (int i = 0; i < p->count; i++)
        if (strcmp(p->name[i], place) == 0)
            return;
    strcpy(p->name[p->count++], place);
}

/* One DEPTH entry ("D", "D:3", "D:2-5", "D:4-", "Zot:$", "3-7", or one
 * of them excluded: "!D:$"): its branch and levels. */
typedef struct depth_entry {
    char branch[48];
    int lo, hi, excluded;
} depth_entry;

static int parse_entry(const char *s, size_t len, depth_entry *e)
{
    char text[48];
    e->excluded = len && s[0] == '!';
    s += e->excluded;
    len -= (size_t)e->excluded;
    if (!len || len >= sizeof text)
        return 0;
    memcpy(text, s, len);
    text[len] = '\0';
    char *colon = strchr(text, ':');
    const char *range = colon ? colon + 1 : "";
    if (colon)
        *colon = '\0';
    if (text[0] >= '0' && text[0] <= '9') {   /* a bare depth range is the Dungeon's */
        range = text;
        strcpy(e->branch, "D");
    } else {
        snprintf(e->branch, sizeof e->branch, "%s", text);
    }
    int last = last_level(e->branch);
    e->lo = 1;
    e->hi = last;
    if (*range) {
        e->lo = range[0] == '$' ? last : atoi(range);
        const char *dash = strchr(range, '-');
        e->hi = !dash ? e->lo : dash[1] == '$' || !dash[1] ? last : atoi(dash + 1);
    }
    e->lo = e->lo < 1 ? 1 : e->lo;
    e->hi = e->hi > last ? last : e->hi;
    return e->lo <= e->hi;
}

static int excluded(const depth_entry *entries, int count, const char *branch, int depth)
{
    for (int i = 0; i < count; i++)
        if (entries[i].excluded && strcmp(entries[i].branch, branch) == 0 &&
            depth >= entries[i].lo && depth <= entries[i].hi)
            return 1;
    return 0;
}

/* Of an entry's levels, the first, middle and last that no excluded
 * entry takes out; the first level left when all three are. */
static void add_entry(places *p, const depth_entry *e, const depth_entry *entries, int count)
{
    const int tries[3] = {e->lo, (e->lo + e->hi) / 2, e->hi};
    int added = 0;
    for (int i = 0; i < 3; i++)
        if (!excluded(entries, count, e->branch, tries[i])) {
            add_place(p, e->branch, tries[i]);
            added = 1;
        }
    for (int depth = e->lo; !added && depth <= e->hi; depth++)
        if (!excluded(entries, count, e->branch, depth)) {
            add_place(p, e->branch, depth);
            added = 1;
        }
}

static void own_places(const qg_mapdef *def, places *p)
{
    p->count = 0;
    const char *keys[] = {"depth", "place"};
    for (int k = 0; k < 2 && !p->count; k++) {
        depth_entry entries[MAX_OWN_PLACES];
        int count = 0;
        const char *list = qg_mapdef_get_property(def, keys[k]);
        for (const char *s = list; s && *s && count < MAX_OWN_PLACES;) {
            s += strspn(s, ", ");
            size_t len = strcspn(s, ", ");
            count += parse_entry(s, len, &entries[count]);
            s += len;
        }
        for (int i = 0; i < count; i++)
            if (!entries[i].excluded)
                add_entry(p, &entries[i], entries, count);
    }
}

/* ---- the run ------------------------------------------------------------- */

typedef struct corpus {
    qg_runtime *rt;
    qg_des_names *names;
    size_t files, load_errors;
} corpus;

/* -i N: the instruction budget of a chunk run (0 = the runtime's). */
static unsigned long instructions;

static int load_corpus(corpus *c, const char *dat, const char *dlua, qg_diags *diags)
{
    const char *paths[1] = {dlua};
    qg_runtime_options opts = {paths, 1, 0, instructions, branches};
    c->rt = qg_runtime_new(&opts, diags);
    char **files;
    if (!c->rt || qg_runtime_library_des_files(c->rt, &files, &c->files, diags) != QG_OK)
        return 0;
    c->names = qg_des_names_new();
    for (size_t i = 0; i < c->files; i++) {
        char *path = qg_path_join(dat, files[i]);
        qg_des_file *file = NULL;
        qg_diags_clear(diags);
        if (qg_des_load(path, NULL, c->names, &file, diags) != QG_OK)
            c->load_errors++;
        if (file && qg_runtime_add_file(c->rt, file, diags) != QG_OK)
            c->load_errors++;
        if (qg_diags_count_severity(diags, QG_ERROR))
            qg_diags_print(diags, stderr);
        free(path);
        free(files[i]);
    }
    free(files);
    return 1;
}

/* -p: the levels of the maps resolved at their own places, printed. */
static int print_levels;

static int resolves(qg_runtime *rt, const qg_mapdef *def, const char *place,
                    unsigned long long seed, qg_diags *diags, int print)
{
    qg_context ctx = {place, 10, NULL};
    qg_level *level = NULL;
    qg_diags_clear(diags);
    if (qg_runtime_resolve(rt, def, seed, &ctx, &level, diags) != QG_OK)
        return 0;
    if (print && print_levels) {
        printf("%s at %s, seed %llu:\n", qg_mapdef_name(def), place, seed);
        qg_render_text(level, NULL, stdout);
    }
    qg_level_free(level);
    return 1;
}

int main(int argc, char **argv)
{
    int seeds = 3, quiet = 0, arg = 1;
    const char *only = NULL, *game = NULL;
    for (; arg < argc && argv[arg][0] == '-'; arg++) {
        if (strcmp(argv[arg], "-s") == 0 && arg + 1 < argc)
            seeds = atoi(argv[++arg]);
        else if (strcmp(argv[arg], "-q") == 0)
            quiet = 1;
        else if (strcmp(argv[arg], "-v") == 0)
            verbose = 1;
        else if (strcmp(argv[arg], "-i") == 0 && arg + 1 < argc)
            instructions = strtoul(argv[++arg], NULL, 10);
        else if (strcmp(argv[arg], "-p") == 0)
            print_levels = 1;
        else if (strcmp(argv[arg], "-m") == 0 && arg + 1 < argc)
            only = argv[++arg];
        else if (strcmp(argv[arg], "-g") == 0 && arg + 1 < argc)
            game = argv[++arg];
        else {
            fprintf(stderr, "usage: resolve_corpus [-s SEEDS] [-q | -v] [-m NAME] [-p] [-i N] "
                            "[-g GAME] [DATDIR [LUADIR]]\n");
            return 2;
        }
    }
    if (seeds < 1)
        seeds = 1;
    const char *dat = arg < argc ? argv[arg] : "/usr/share/crawl/dat";
    char *dlua = arg + 1 < argc ? qg_strdup(argv[arg + 1]) : qg_path_join(dat, "dlua");
    qg_diags *diags = qg_diags_new();
    char *vocab = NULL;
    if (qg_data_find("des/vocab", &vocab, diags) != QG_OK ||
        qg_branches_load(vocab, game, &branches, diags) != QG_OK) {
        qg_diags_print(diags, stderr);
        return 1;
    }
    free(vocab);
    corpus c = {0};
    if (!load_corpus(&c, dat, dlua, diags)) {
        qg_diags_print(diags, stderr);
        return 1;
    }
    size_t n = qg_runtime_map_count(c.rt), compiled = 0;
    reasons *compile_fail = calloc(1, sizeof *compile_fail);
    reasons *own_fail = calloc(1, sizeof *own_fail);
    char *ok = calloc(n ? n : 1, 1);
    for (size_t i = 0; i < n; i++) {
        qg_mapdef *def = qg_runtime_map(c.rt, i);
        qg_diags_clear(diags);
        if (qg_runtime_compile_map(c.rt, def, diags) == QG_OK)
            ok[i] = 1, compiled++;
        else
            add_reason(compile_fail, diags, def);
    }
    static const char *const fixed[] = {"D:5", "Lair:3", "Depths:2"};
    size_t fixed_tries = 0, fixed_ok = 0, own_tries = 0, own_ok_tries = 0, own_maps = 0;
    size_t placeless = 0, considered = 0;
    for (size_t i = 0; i < n; i++) {
        qg_mapdef *def = qg_runtime_map(c.rt, i);
        if (only && !strstr(qg_mapdef_name(def), only))
            continue;
        for (int s = 0; s < seeds; s++, fixed_tries++)
            fixed_ok += resolves(c.rt, def, fixed[s % 3], (unsigned long long)s + 1, diags, 0);
        if (!ok[i])
            continue;
        considered++;
        places p;
        own_places(def, &p);
        if (!p.count) {   /* placed only by name or tag: the fixed places */
            placeless++;
            for (int k = 0; k < 3; k++)
                strcpy(p.name[p.count++], fixed[k]);
        }
        int any = 0;
        qg_diags *first = qg_diags_new();
        for (int k = 0; k < p.count; k++)
            for (int s = 0; s < seeds; s++) {
                int r = resolves(c.rt, def, p.name[k], (unsigned long long)s + 1, diags, 1);
                own_tries++;
                own_ok_tries += r;
                if (!r && !any && !qg_diags_count(first))
                    for (size_t d = 0; d < qg_diags_count(diags); d++) {
                        const qg_diag *g = qg_diags_get(diags, d);
                        qg_diags_add(first, g->severity, g->file, g->line, g->col, NULL, 0,
                                     "%s", g->message);
                    }
                any |= r;
            }
        if (any)
            own_maps++;
        else
            add_reason(own_fail, first, def);
        qg_diags_free(first);
    }
    printf("corpus: %s (Lua library %s)\n", dat, dlua);
    printf("files: %zu (%zu with load errors), maps: %zu\n", c.files, c.load_errors, n);
    printf("compile-time run: %zu/%zu\n", compiled, n);
    printf("at D:5, Lair:3, Depths:2 (%d seeds): %zu/%zu tries resolve (%.2f%%)\n", seeds,
           fixed_ok, fixed_tries, fixed_tries ? 100.0 * fixed_ok / fixed_tries : 0.0);
    printf("at their own places (%d seeds each; %zu maps without DEPTH or PLACE tried at the "
           "fixed places): %zu/%zu tries resolve (%.2f%%)\n",
           seeds, placeless, own_ok_tries, own_tries,
           own_tries ? 100.0 * own_ok_tries / own_tries : 0.0);
    printf("maps resolving at one of their own places at least: %zu/%zu (%.2f%%)\n", own_maps,
           considered, considered ? 100.0 * own_maps / considered : 0.0);
    print_reasons(compile_fail, "maps that do not compile", quiet);
    print_reasons(own_fail, "maps that resolve at none of their places", quiet);
    int status = own_maps == considered && compiled == n ? 0 : 1;
    free(compile_fail);
    free(own_fail);
    free(ok);
    qg_des_names_free(c.names);
    qg_runtime_free(c.rt);
    qg_branches_free(branches);
    qg_diags_free(diags);
    free(dlua);
    return status;
}
