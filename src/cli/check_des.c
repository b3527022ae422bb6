/* questgrid check, for .des files: the file's syntax and directives, then
 * each map resolved once and checked as placement would see it. */
#include "cli/cli_des.h"
#include "cli/batch.h"

#include "core/diag.h"
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
static int must_define_map(const qg_mapdef *def, int legacy, cli_hidden *hidden,
                           qg_diags *diags)
{
    const char *height = qg_mapdef_get_property(def, "height");
    if (height && strcmp(height, "0") != 0)
        return 0;
    if (!legacy) {
        if (hidden)
            hidden->no_map++;
        else
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

/* A map the game's Lua library (not given) would resolve: a note. */
static void not_resolved(const qg_mapdef *def, const qg_diags *run, qg_diags *diags)
{
    const qg_diag *why = run && qg_diags_count(run) ? qg_diags_get(run, 0) : NULL;
    qg_diags_add(diags, QG_NOTE, qg_mapdef_file(def), qg_mapdef_line(def), 0, NULL, 0,
                 "map '%s' not resolved, so its placement is not checked: %.*s",
                 qg_mapdef_name(def), first_line_len(why), first_line(why));
}

/* A map resolved where it belongs (qg_runtime_resolve_home), with more
 * seeds while its validate chunk fails, and checked as the game places
 * it. What keeps it from resolving is an error of the map (its Lua
 * failing at run time, its budget spent, a SUBVAULT cycle), as it is for
 * every command that resolves it, except a function of the game that
 * questgrid lacks (a note). A map resolved inside a map that uses it is
 * placed as part of that map. */
/* The placement check of a map by the branch table; its notes (the table
 * holds none of the map's levels) are hidden's when it counts them. */
static void check_at(const qg_level *level, const qg_branches *branches, const qg_mapdef *def,
                     cli_hidden *hidden, qg_diags *diags)
{
    qg_diags *placed = hidden ? qg_diags_new_like(diags) : NULL;
    qg_level_check_placement_at(level, branches, qg_mapdef_get_property(def, "depth"),
                                qg_mapdef_get_property(def, "place"), placed ? placed : diags);
    if (!placed)
        return;
    hidden->unknown_stairs += qg_diags_count_severity(placed, QG_NOTE);
    qg_diags_take_without(diags, placed, QG_NOTE);
    qg_diags_free(placed);
}

static void check_map_placement(qg_runtime *rt, const qg_branches *branches,
                                const qg_mapdef *def, cli_hidden *hidden, qg_diags *diags)
{
    qg_diags *run = qg_diags_new();
    qg_level *level = NULL;
    qg_home home;
    int resolved = 0;
    for (unsigned long long seed = 1; run && seed <= VALIDATE_SEEDS && !resolved; seed++) {
        qg_diags_clear(run);
        resolved = qg_runtime_resolve_home(rt, def, seed, NULL, &home, &level, run) == QG_OK;
        if (!resolved && !validate_failed(run))
            break;
    }
    if (resolved && level && home.inside) {
        /* its placement is that of the map it was resolved inside */
    } else if (resolved && level && qg_des_map_is_legacy(def)) {
        qg_level_check_placement(level, diags);
    } else if (resolved && level) {
        check_at(level, branches, def, hidden, diags);
    } else if (!resolved && validate_failed(run)) {
        qg_diags_add(diags, QG_ERROR, qg_mapdef_file(def), qg_mapdef_line(def), 0, NULL, 0,
                     "map '%s': its validate chunk never succeeds (%d seeds of 25 tries "
                     "each), so Crawl would throw away every level it is picked for",
                     qg_mapdef_name(def), VALIDATE_SEEDS);
    } else if (!resolved && home.unprovided) {
        not_resolved(def, run, diags);
    } else if (!resolved) {
        qg_diags_take(diags, run);
    }
    qg_level_free(level);
    qg_diags_free(run);
}

typedef struct placement {
    const cli_opts *opts;
    const qg_branches *branches;
    cli_hidden *hidden;     /* NULL: every note printed */
    qg_diags *diags;
} placement;

/* A map of the file: what its compile said (its Lua failing is its
 * error, as it fails the compile), then its resolution. */
static void check_map(void *user, qg_runtime *rt, const qg_mapdef *def, qg_diags *compiled,
                      int lacks_library)
{
    placement *p = user;
    int failed = qg_diags_count_severity(compiled, QG_ERROR) > 0;
    if (lacks_library) {
        not_resolved(def, compiled, p->diags);
        return;
    }
    qg_diags_take(p->diags, compiled);
    if (!failed && !must_define_map(def, p->opts->legacy, p->hidden, p->diags))
        check_map_placement(rt, p->branches, def, p->hidden, p->diags);
}

/* The file's maps from the batch's one runtime of every .des file the
 * run checks. */
static void check_placement(cli_opts *opts, const qg_branches *branches, const char *path,
                            cli_batch *batch, cli_hidden *hidden, qg_diags *diags)
{
    placement p = {opts, branches, hidden, diags};
    qg_diags *file = qg_diags_new();
    int got = file ? cli_batch_each_map(batch, path, check_map, &p, file) : 0;
    if (got == 1 || (got && !qg_diags_count_severity(file, QG_ERROR))) {
        /* not the file's fault: said in a note */
        const qg_diag *why = qg_diags_count(file) ? qg_diags_get(file, 0) : NULL;
        qg_diags_add(diags, QG_NOTE, path, 0, 0, NULL, 0,
                     "the file's Lua prelude did not run, so no placement is checked: %.*s",
                     first_line_len(why), first_line(why));
        qg_diags_clear(file);
    }
    qg_diags_take(diags, file);
    qg_diags_free(file);
}

static size_t hidden_count(const cli_hidden *hidden)
{
    return hidden ? hidden->no_map + hidden->unknown_stairs : 0;
}

void cli_hidden_print(const cli_hidden *hidden)
{
    size_t count = hidden_count(hidden);
    if (!count)
        return;
    printf("%zu note%s hidden (--verbose prints them): %zu map%s with no MAP, which Crawl 0.5 "
           "refused and Crawl 0.28 loads; %zu encompass map%s whose DEPTH and PLACE hold no "
           "level of the game, so how many stairs each must place is not known\n",
           count, count == 1 ? "" : "s", hidden->no_map, hidden->no_map == 1 ? "" : "s",
           hidden->unknown_stairs, hidden->unknown_stairs == 1 ? "" : "s");
}

int cli_check_des(cli_opts *opts, const char *path, qg_des_names *names,
                  const qg_des_vocab *vocab, cli_batch *batch, cli_hidden *hidden,
                  qg_diags *diags)
{
    size_t hidden_before = hidden_count(hidden);
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
    int read = file != NULL;
    qg_des_file_free(file);
    if (st == QG_OK && read && qg_diags_count_severity(diags, QG_ERROR) == before)
        check_placement(opts, vocab ? qg_des_vocab_branches(vocab) : NULL, path, batch,
                        hidden, diags);
    size_t errors = qg_diags_count_severity(diags, QG_ERROR) - before;
    size_t notes = hidden_count(hidden) - hidden_before;
    if (!opts->quiet && read && notes)
        printf("%s: %zu map%s, %zu error%s, %zu note%s hidden\n", path, maps,
               maps == 1 ? "" : "s", errors, errors == 1 ? "" : "s", notes,
               notes == 1 ? "" : "s");
    else if (!opts->quiet && read)
        printf("%s: %zu map%s, %zu error%s\n", path, maps, maps == 1 ? "" : "s",
               errors, errors == 1 ? "" : "s");
    return st == QG_OK && errors == 0 ? 0 : 1;
}
