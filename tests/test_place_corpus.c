/* The whole crawl-common corpus (with its dlua) placed into 80 × 70 hosts
 * for several seeds, MAPS_PER_HOST maps to a host so that they compete for
 * room: no crash, no failure other than "no place", and a count of the
 * maps that found a place and of the exits joined. Skips when
 * /usr/share/crawl (or QG_CRAWL_DIR) is absent or the Lua runtime cannot
 * start. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "questgrid/lua.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { SEEDS = 3, MAX_FILES = 512, MAPS_PER_HOST = 8 };

static const char *crawl_dir(void)
{
    const char *env = getenv("QG_CRAWL_DIR");
    return env && *env ? env : "/usr/share/crawl";
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every .des file under dir, sorted (Crawl reads them in this order). */
static size_t find_des(const char *dir, char **out, size_t n)
{
    DIR *d = opendir(dir);
    if (!d)
        return n;
    struct dirent *e;
    while ((e = readdir(d)) && n < MAX_FILES) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        size_t len = strlen(e->d_name);
        if (S_ISDIR(st.st_mode))
            n = find_des(path, out, n);
        else if (len > 4 && strcmp(e->d_name + len - 4, ".des") == 0)
            out[n++] = strdup(path);
    }
    closedir(d);
    return n;
}

static void corpus_places_without_crashing(void **state)
{
    (void)state;
    char des_dir[4096], lua_dir[4096];
    snprintf(des_dir, sizeof des_dir, "%s/dat/des", crawl_dir());
    snprintf(lua_dir, sizeof lua_dir, "%s/dat/dlua", crawl_dir());
    struct stat st;
    if (stat(des_dir, &st) != 0 || stat(lua_dir, &st) != 0)
        test_skip("Crawl's des and dlua directories under %s are not installed (tools/test-deps)",
                  crawl_dir());
    qg_diags *diags = qg_diags_new();
    const char *paths[] = {lua_dir};
    qg_runtime_options options = {paths, 1, 0, 0, NULL};
    qg_runtime *rt = qg_runtime_new(&options, diags);
    if (!rt) {
        qg_diags_free(diags);
        test_skip("the Lua runtime could not be made");
    }
    static char *files[MAX_FILES];
    size_t nfiles = find_des(des_dir, files, 0);
    qsort(files, nfiles, sizeof *files, by_name);
    qg_des_names *names = qg_des_names_new();
    for (size_t i = 0; i < nfiles; i++) {
        qg_des_file *file = NULL;
        qg_des_load(files[i], NULL, names, &file, diags);
        if (file)
            qg_runtime_add_file(rt, file, diags);
        free(files[i]);
    }
    size_t maps = qg_runtime_map_count(rt), resolved = 0, placed = 0, tried = 0;
    size_t exits = 0, joined = 0;
    for (unsigned long long seed = 1; seed <= SEEDS; seed++) {
        qg_host *host = NULL;
        int on_host = MAPS_PER_HOST;
        for (size_t m = 0; m < maps; m++) {
            qg_level *level = NULL;
            qg_diags_clear(diags);
            if (qg_runtime_resolve(rt, qg_runtime_map(rt, m), seed, NULL, &level, diags) != QG_OK ||
                !level) {
                qg_level_free(level);
                continue;
            }
            resolved++;
            if (on_host == MAPS_PER_HOST) {
                qg_host_free(host);
                host = qg_host_generate(80, 70, seed * 7919u + m);
                on_host = 0;
            }
            on_host++;
            qg_place_options o = {.seed = seed * 104729u + m};
            qg_placement p = {0};
            qg_status s = qg_place_vault(qg_host_cave(host), level, &o, &p, diags);
            assert_true(s == QG_OK || s == QG_ERR_NOTFOUND);
            tried++;
            placed += s == QG_OK;
            for (size_t e = 0; e < p.exit_count; e++)
                joined += (size_t)p.exits[e].connected;
            exits += p.exit_count;
            qg_placement_clear(&p);
            qg_level_free(level);
        }
        qg_host_free(host);
    }
    print_message("%zu maps, %d seeds, %d maps to a host: %zu resolved, %zu placed, "
                  "%zu of %zu exits joined\n", maps, SEEDS, MAPS_PER_HOST, resolved, placed,
                  joined, exits);
    assert_true(maps > 0);
    assert_true(placed * 2 > tried);
    qg_des_names_free(names);
    qg_runtime_free(rt);
    qg_diags_free(diags);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_places_without_crashing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
