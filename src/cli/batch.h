/* The batch of every command over many maps (render, show, check):
 * each map is resolved where it belongs (a .des map at its own DEPTH and
 * PLACE, a subvault inside a map that uses it: qg_runtime_resolve_home),
 * and what became of it follows the one rule of core/outcome.h (which
 * compile --keep-going follows too): resolved, described as what it is,
 * or failed as an entry saying why (its diagnostics reported as they
 * are), and the rest goes on. The exit status says whether any map
 * failed; the output holds the rest. */
#ifndef QG_CLI_BATCH_H
#define QG_CLI_BATCH_H

#include "cli/cli.h"

/* One map of a batch, as a command gets it. */
typedef struct cli_entry {
    const char *name;      /* the map's, the quest's ("quest 3: Name") or the file's */
    const char *file;
    int line;              /* where the map is defined; 0 when not known */
    qg_level *level;       /* resolved, or NULL; the command may take it
                              (setting it NULL), else it is freed */
    const char *what;      /* no level by design: what the map is */
    const char *why;       /* it failed: the first line of its first error */
    const char *place;     /* a .des map: the level it was resolved at */
    const char *inside;    /* a subvault: the map it was resolved inside */
    const qg_mapdef *def;  /* its definition when the batch read one */
} cli_entry;

/* What the command does with an entry; 1 when it could not use it (its
 * own error said why), which counts the map as failed. */
typedef int (*cli_entry_fn)(void *user, cli_entry *entry);

typedef struct cli_batch {
    const cli_opts *opts;
    const char *command;
    qg_diags *diags;       /* the run's: each map's diagnostics end here */
    cli_entry_fn take;
    void *user;
    int one;               /* the first map only (one picture) */
    int parse_told;        /* the command reports the parse of the files
                              itself (check): only their compile is the
                              batch's to say */
    size_t resolved, described, failed;
    struct world *world;   /* the .des maps of the inputs added */
} cli_batch;

void cli_batch_init(cli_batch *b, const cli_opts *opts, const char *command, qg_diags *diags,
                    cli_entry_fn take, void *user);

/* Names an input of the batch before any is walked: the .des files among
 * them are read into one Lua state (as Crawl builds its map database:
 * the global Lua of every file of the game's library in its order, and
 * the maps of every file given), so that a SUBVAULT finds its maps in any
 * of them. */
void cli_batch_add(cli_batch *b, const qg_input *input);
void cli_batch_free(cli_batch *b);

/* With --verbose, a note of the work the batch's .des maps took to
 * resolve: the runtime's map runs (qg_runtime_map_runs), a count rather
 * than a time, the same on every machine. */
void cli_batch_tell_work(const cli_batch *b);

/* The maps of a .des input added, in the one runtime of all the inputs'
 * maps (made on first use), each handed to fn with what its compile and
 * the search for SUBVAULT cycles reported of it (and whether its compile
 * failed for want of the game's Lua library, not given); what was said of the
 * file outside its maps (its global Lua) goes to diags. -1 when the
 * file's maps could not be had (its text, or its global Lua), 1 when
 * its global Lua needs the game's Lua library, which was not given. */
typedef void (*cli_map_fn)(void *user, qg_runtime *rt, const qg_mapdef *def,
                           qg_diags *compiled, int lacks_library);
int cli_batch_each_map(cli_batch *b, const char *path, cli_map_fn fn, void *user,
                       qg_diags *diags);

/* Every map of an input handed to take, each resolved where it belongs:
 * each map of a .des file (or the one --map names), each quest of a hub
 * (or --quest's), each map of a compiled cache (its .des maps with the
 * other maps of their file, so that subvaults are found), the level of
 * an F:/D:, .tmx or .xp file. A file that cannot be read at all is one
 * failed entry. */
void cli_batch_input(cli_batch *b, const qg_input *input);

/* One .des map of a runtime holding its file's maps, compiled: resolved
 * where it belongs with seed, classified and handed to take. The
 * outcome: 0 resolved or described, 1 failed. */
int cli_batch_des_map(cli_batch *b, qg_runtime *rt, const qg_mapdef *def,
                      unsigned long long seed);

/* Hands take one entry made from what a run of one map reported into
 * run (taken into the run's diagnostics): resolved when level is not
 * NULL, described when the run added no error (what: home_what, else
 * its last note), failed otherwise. Returns 1 when it failed. */
int cli_batch_entry(cli_batch *b, cli_entry *entry, qg_diags *run, const char *home_what);

/* The last word of the rule: one line on stderr counting what was done,
 * described and failed (not with -q, nor when there was one map), and
 * the exit status: 1 when any map failed, else 0. */
int cli_batch_finish(const cli_batch *b, const char *done);

#endif
