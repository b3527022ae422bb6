/* questgrid check, for .des files: the file's syntax and directives, then
 * each map resolved once and checked as placement would see it. */
#include "cli/cli_des.h"

#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first line of why's message (Lua errors carry a traceback). */
static const char *first_line(const qg_diag *why)
{
    return why ? why->message : "out of memory";
}

static int first_line_len(const qg_diag *why)
{
    return (int)strcspn(first_line(why), "\n");
}

static int diags_mention(const qg_diags *diags, const char *text)
{
    for (size_t i = 0; diags && i < qg_diags_count(diags); i++)
        if (strstr(qg_diags_get(diags, i)->message, text))
            return 1;
    return 0;
}

/* Seeds a validate chunk is given before check calls it one that never
 * succeeds: each resolution already has Crawl's 25 tries. */
enum { VALIDATE_SEEDS = 4 };

static int validate_failed(const qg_diags *run)
{
    return diags_mention(run, "failed its validate chunk");
}

/* Crawl 0.4.5 and 0.5.2 levcomp.ypp, at the end of each map: "if
 * (lc_map.map.height() == 0) yyerror(\"Must define map.\");" -- the
 * seed-era rule, checked with --legacy once the map's Lua has run at
 * compile time. Crawl 0.28 loads such a map (crawl -builddb accepts a NAME
 * with no MAP: the Abyss's dummy maps are made so), which a note says. */
static int must_define_map(const qg_mapdef *def, int legacy, qg_diags *diags)
{
    const char *height = qg_mapdef_get_property(def, "height");
    if (height && strcmp(height, "0") != 0)
        return 0;
    if (!legacy) {
        qg_diags_add(diags, QG_NOTE, qg_mapdef_file(def), qg_mapdef_line(def), 0, NULL, 0,
                     "map '%s' has no MAP: Crawl 0.5 refused that (\"Must define map.\"), "
                     "Crawl 0.28 loads it as a map with no grid",
                     qg_mapdef_name(def));
        return 1;
    }
    qg_diags_add(diags, QG_ERROR, qg_mapdef_file(def), qg_mapdef_line(def), 0, NULL, 0,
                 "map '%s': Must define map. (no MAP ... ENDMAP, and its Lua made none)",
                 qg_mapdef_name(def));
    return 1;
}

/* A map that cannot be resolved here (a Lua library it needs was not
 * given with --lua-path) is said in a note: that is not an error of the
 * file. A validate chunk that fails every try of every seed is. */
static void check_map_placement(qg_runtime *rt, const qg_branches *branches, qg_mapdef *def,
                                int legacy, qg_diags *diags)
{
    qg_diags *run = qg_diags_new();
    qg_level *level = NULL;
    qg_context context = {NULL, 0, NULL};
    int compiled = run && qg_runtime_compile_map(rt, def, run) == QG_OK;
    if (compiled && must_define_map(def, legacy, diags)) {
        qg_diags_free(run);
        return;
    }
    int resolved = 0;
    for (unsigned long long seed = 1; compiled && seed <= VALIDATE_SEEDS && !resolved; seed++) {
        qg_diags_clear(run);
        resolved = qg_runtime_resolve(rt, def, seed, &context, &level, run) == QG_OK && level;
        if (!resolved && !validate_failed(run))
            break;
    }
    if (resolved && qg_des_map_is_legacy(def)) {
        qg_level_check_placement(level, diags);
    } else if (resolved) {
        qg_level_check_placement_at(level, branches, qg_mapdef_get_property(def, "depth"),
                                    qg_mapdef_get_property(def, "place"), diags);
    } else if (compiled && validate_failed(run)) {
        qg_diags_add(diags, QG_ERROR, qg_mapdef_file(def), qg_mapdef_line(def), 0, NULL, 0,
                     "map '%s': its validate chunk never succeeds (%d seeds of 25 tries "
                     "each), so Crawl would throw away every level it is picked for",
                     qg_mapdef_name(def), VALIDATE_SEEDS);
    } else {
        const qg_diag *why = run ? qg_diags_get(run, 0) : NULL;
        qg_diags_add(diags, QG_NOTE, qg_mapdef_file(def), qg_mapdef_line(def), 0, NULL, 0,
                     "map '%s' not resolved, so its placement is not checked: %.*s",
                     qg_mapdef_name(def), first_line_len(why), first_line(why));
    }
    qg_level_free(level);
    qg_diags_free(run);
}

/* Takes the file over. */
static void check_placement(cli_opts *opts, const qg_branches *branches, const char *path,
                            qg_des_file *file, qg_diags *diags)
{
    qg_runtime_options options = {opts->lua_paths, opts->lua_path_count, 0, 0, branches};
    qg_diags *run = qg_diags_new();
    qg_runtime *rt = run ? qg_runtime_new(&options, run) : NULL;
    if (!rt)
        qg_des_file_free(file);
    if (!rt || qg_runtime_add_file(rt, file, run) != QG_OK) {
        const qg_diag *why = run ? qg_diags_get(run, 0) : NULL;
        qg_diags_add(diags, QG_NOTE, path, 0, 0, NULL, 0,
                     "the file's Lua prelude did not run, so no placement is checked: %.*s",
                     first_line_len(why), first_line(why));
    } else {
        /* every map compiled first: SUBVAULT and dgn.map_by_tag find maps
         * by the tags their compile-time Lua gives */
        for (size_t i = 0; i < qg_runtime_map_count(rt); i++) {
            qg_diags_clear(run);
            qg_runtime_compile_map(rt, qg_runtime_map(rt, i), run);
        }
        for (size_t i = 0; i < qg_runtime_map_count(rt); i++)
            check_map_placement(rt, branches, qg_runtime_map(rt, i), opts->legacy, diags);
    }
    qg_runtime_free(rt);
    qg_diags_free(run);
}

int cli_check_des(cli_opts *opts, const char *path, qg_des_names *names,
                  const qg_des_vocab *vocab, qg_diags *diags)
{
    qg_des_options options = {opts->legacy};
    qg_des_file *file = NULL;
    size_t before = qg_diags_count_severity(diags, QG_ERROR);
    char *data = NULL;
    size_t len = 0;
    qg_status st = qg_read_file(path, QG_MAX_TEXT_FILE, &data, &len, diags);
    if (st == QG_OK)
        st = qg_des_parse(path, data, len, &options, names, &file, diags);
    if (file && vocab)
        qg_des_check_names(vocab, file, data, len, opts->game != NULL, diags);
    free(data);
    size_t maps = file ? qg_des_map_count(file) : 0;
    if (st == QG_OK && file && qg_diags_count_severity(diags, QG_ERROR) == before)
        check_placement(opts, vocab ? qg_des_vocab_branches(vocab) : NULL, path, file, diags);
    else
        qg_des_file_free(file);
    size_t errors = qg_diags_count_severity(diags, QG_ERROR) - before;
    if (!opts->quiet && file)
        printf("%s: %zu map%s, %zu error%s\n", path, maps, maps == 1 ? "" : "s",
               errors, errors == 1 ? "" : "s");
    return st == QG_OK && errors == 0 ? 0 : 1;
}
