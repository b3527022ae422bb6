/* questgrid cache info|list|verify|extract FILE.qgc [NAME]: looking into a
 * compiled cache. */
#include "cli/cli.h"
#include "cli/json.h"
#include "core/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: questgrid cache info FILE.qgc      header, counts and sizes\n"
    "       questgrid cache list FILE.qgc      every map with its index fields\n"
    "                                          (--format json: as a JSON document)\n"
    "       questgrid cache verify FILE.qgc    check every offset, size and CRC\n"
    "                                          and whether the sources changed\n"
    "       questgrid cache extract FILE.qgc NAME   print a map's source text\n"
    "                                          (or --map NAME)\n"
    "  --max-errors N   report N errors at most (default 50; 0: no limit)\n";

static void print_version(const char *what, uint32_t v, int lua)
{
    if (lua)
        printf("%-18s %u.%u\n", what, v / 100, v % 100);
    else
        printf("%-18s %u.%u.%u\n", what, v >> 16, (v >> 8) & 0xff, v & 0xff);
}

static int show_info(const qg_cache *c)
{
    qg_cache_info info;
    qg_cache_get_info(c, &info);
    printf("%-18s %s\n", "cache", qg_cache_path(c));
    printf("%-18s %u\n", "format version", info.format_version);
    print_version("questgrid version", info.questgrid_version, 0);
    print_version("Lua version", info.lua_version, 1);
    printf("%-18s %zu\n", "maps", info.map_count);
    printf("%-18s %zu\n", "source files", info.file_count);
    printf("%-18s %llu bytes\n", "file size", (unsigned long long)info.file_size);
    printf("%-18s %llu bytes (%llu inflated)\n", "index",
           (unsigned long long)info.index_size, (unsigned long long)info.index_raw_size);
    printf("%-18s %llu bytes (%llu inflated)\n", "blobs",
           (unsigned long long)info.blob_size, (unsigned long long)info.blob_raw_size);
    printf("%-18s %zu bytes\n", "dictionary", info.dictionary_size);
    printf("%-18s %s\n", "access", info.mapped ? "mmap" : "read");
    return 0;
}

/* Why the compile left a skipped entry's map out (its "skipped"
 * property); NULL for any other entry. Free with free(). */
static char *skipped_why(const qg_cache *c, size_t index)
{
    if (qg_cache_entry_at(c, index)->kind != QG_KIND_SKIPPED)
        return NULL;
    qg_diags *quiet = qg_diags_new();
    qg_mapdef *def = NULL;
    char *why = NULL;
    if (quiet && qg_cache_load_map(c, index, &def, quiet) == QG_OK) {
        const char *text = qg_mapdef_get_property(def, "skipped");
        why = qg_strdup(text ? text : "");
    }
    qg_mapdef_free(def);
    qg_diags_free(quiet);
    return why;
}

static int show_list(const qg_cache *c)
{
    printf("# name\tquest\tkind\tsource\ttags\tdepth\tplace\torient\tchance\tweight\tbytes\n");
    for (size_t i = 0; i < qg_cache_map_count(c); i++) {
        const qg_cache_entry *e = qg_cache_entry_at(c, i);
        printf("%s\t%d\t%s\t%s:%d\t%s\t%s\t%s\t%s\t%s\t%s\t%u\n", e->name, e->quest,
               qg_map_kind_name(e->kind), qg_cache_file_at(c, e->file)->path, e->line,
               e->tags, e->depth, e->place, e->orient, e->chance, e->weight,
               e->blob_size);
    }
    for (size_t i = 0; i < qg_cache_map_count(c); i++) {
        char *why = skipped_why(c, i);
        if (why)
            printf("# skipped %s: %s\n", qg_cache_entry_at(c, i)->name, why);
        free(why);
    }
    return 0;
}

static int list_json(const qg_cache *c)
{
    json_t *doc = cli_json_document("questgrid-cache-list/1");
    json_object_set_new(doc, "cache", cli_json_text(qg_cache_path(c)));
    json_t *maps = json_array();
    for (size_t i = 0; i < qg_cache_map_count(c); i++) {
        const qg_cache_entry *e = qg_cache_entry_at(c, i);
        json_t *m = json_object();
        json_object_set_new(m, "name", cli_json_text(e->name));
        json_object_set_new(m, "quest", json_integer(e->quest));
        json_object_set_new(m, "kind", json_string(qg_map_kind_name(e->kind)));
        json_object_set_new(m, "source", cli_json_text(qg_cache_file_at(c, e->file)->path));
        json_object_set_new(m, "line", json_integer(e->line));
        json_object_set_new(m, "tags", cli_json_text(e->tags));
        json_object_set_new(m, "depth", cli_json_text(e->depth));
        json_object_set_new(m, "place", cli_json_text(e->place));
        json_object_set_new(m, "orient", cli_json_text(e->orient));
        json_object_set_new(m, "chance", cli_json_text(e->chance));
        json_object_set_new(m, "weight", cli_json_text(e->weight));
        json_object_set_new(m, "bytes", json_integer(e->blob_size));
        char *why = skipped_why(c, i);
        if (why)
            json_object_set_new(m, "skipped", cli_json_text(why));
        free(why);
        json_array_append_new(maps, m);
    }
    json_object_set_new(doc, "maps", maps);
    return cli_json_print(doc) ? 0 : 1;
}

static int do_verify(const qg_cache *c, qg_diags *diags)
{
    if (qg_cache_verify(c, diags) != QG_OK)
        return 1;
    size_t n = qg_cache_file_count(c), changed = 0, missing = 0;
    qg_source_state *states = calloc(n + 1, sizeof *states);
    if (!states || qg_cache_check_sources(c, NULL, QG_CACHE_CHECK_HASH, states,
                                          &changed, diags) != QG_OK) {
        free(states);
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        missing += states[i] == QG_SOURCE_MISSING;
    free(states);
    printf("%s: ok: %zu maps from %zu files; %zu sources changed, %zu not found\n",
           qg_cache_path(c), qg_cache_map_count(c), n, changed, missing);
    return 0;
}

static int do_extract(const qg_cache *c, const char *name, qg_diags *diags)
{
    size_t at = qg_cache_find(c, name);
    if (at == QG_CACHE_NONE) {
        qg_diags_add(diags, QG_ERROR, qg_cache_path(c), 0, 0, NULL, 0,
                     "no map named '%s' in the cache", name);
        return 1;
    }
    char *text;
    size_t len;
    if (qg_cache_map_source(c, at, &text, &len, NULL, diags) != QG_OK)
        return 1;
    int ok = fwrite(text, 1, len, stdout) == len;
    free(text);
    return ok ? 0 : 1;
}

int cmd_cache(int argc, char **argv)
{
    cli_opts opts;
    int r = cli_parse(argc, argv, OPT_MAP | OPT_FORMAT | OPT_MAX_ERRORS, usage, &opts);
    if (r)
        return r > 0 ? 0 : 2;
    static const char *const actions[] = {"info", "list", "verify", "extract", NULL};
    const char *action = opts.file_count > 0 ? opts.files[0] : "";
    int want = strcmp(action, "extract") == 0 && !opts.map ? 3 : 2;
    if (!opts.file_count) {
        cli_usage_error("cache", usage, "no action given (info, list, verify or extract)");
    } else if (cli_choice("cache", "the action", action, actions) < 0) {
        fprintf(stderr, "%.*s\n", (int)strcspn(usage, "\n"), usage);
    } else if (opts.file_count != want) {
        cli_usage_error("cache", usage, "%s", opts.file_count < want ? "no cache file given"
                                                                     : "too many arguments");
    } else {
        want = 0;
    }
    if (want) {
        cli_opts_free(&opts);
        return 2;
    }
    qg_diags *diags = cli_diags_new(&opts, 0);
    qg_cache *cache = NULL;
    int status = 1;
    if (diags && qg_cache_open(opts.files[1], NULL, &cache, diags) == QG_OK) {
        if (strcmp(action, "info") == 0)
            status = show_info(cache);
        else if (strcmp(action, "list") == 0)
            status = opts.json ? list_json(cache) : show_list(cache);
        else if (strcmp(action, "verify") == 0)
            status = do_verify(cache, diags);
        else
            status = do_extract(cache, opts.map ? opts.map : opts.files[2], diags);
    }
    if (diags && cli_report(diags) && status == 0)
        status = 1;
    qg_cache_close(cache);
    qg_diags_free(diags);
    cli_opts_free(&opts);
    return status;
}
