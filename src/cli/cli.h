/* Shared pieces of the questgrid command line: the subcommands, the options
 * they have in common and diagnostics output. */
#ifndef QG_CLI_H
#define QG_CLI_H

#include "questgrid.h"

#define QG_COMMAND(name, summary) int cmd_##name(int argc, char **argv);
#include "cli/commands.def"
#undef QG_COMMAND

/* Options a subcommand may accept; each command passes the set it takes. */
enum {
    OPT_EDIT_DIR = 1 << 0,  /* --edit-dir DIR */
    OPT_DIALECT = 1 << 1,   /* --dialect D */
    OPT_VAR = 1 << 2,       /* --var NAME=VALUE (repeatable) */
    OPT_QUEST = 1 << 3,     /* --quest N */
    OPT_MAP = 1 << 4,       /* --map NAME */
    OPT_SEED = 1 << 5,      /* --seed N */
    OPT_PLACE = 1 << 6,     /* --place D:5 */
    OPT_LUA_PATH = 1 << 7,  /* --lua-path DIR (repeatable) */
    OPT_OUTPUT = 1 << 8,    /* -o FILE */
    OPT_TO = 1 << 9,        /* --to FORMAT */
    OPT_JOBS = 1 << 10,     /* --jobs N */
    OPT_COUNT = 1 << 11,    /* -n N */
    OPT_SIZE = 1 << 12,     /* --size WxH */
    OPT_STRICT = 1 << 13,   /* --strict */
    OPT_LEGACY = 1 << 14,   /* --legacy */
    OPT_QUIET = 1 << 15,    /* -q, --quiet */
    OPT_KEEP_GOING = 1 << 16, /* --keep-going */
    OPT_COLOR = 1 << 17,    /* --color=auto|always|never */
    OPT_FORMAT = 1 << 18,   /* --format text|json */
    OPT_GAME = 1 << 19,     /* --game NAME (a .des vocabulary and branch table) */
    OPT_OVERSIZE = 1 << 20, /* --oversize */
    OPT_KIND = 1 << 21,     /* --kind quest|town|… */
    OPT_MAX_ERRORS = 1 << 22, /* --max-errors N */
    OPT_LOSSY = 1 << 23,    /* --lossy */
    OPT_CELL = 1 << 24,     /* --cell N */
    OPT_VERBOSE = 1 << 25   /* --verbose */
};

typedef struct cli_opts {
    const char *edit_dir;
    const char *dialect;
    qg_vars *vars;
    long quest;             /* -1 when not given */
    const char *map;
    unsigned long long seed;
    int has_seed;
    const char *place;
    const char **lua_paths;
    size_t lua_path_count;
    size_t lua_path_cap;
    const char *output;
    const char *to;
    int jobs;             /* 0 when --jobs is not given */
    long count;
    int width, height;
    int strict;
    int legacy;
    int quiet;
    long max_errors;        /* --max-errors; 0: no limit */
    int keep_going;
    int color;              /* 1: colour the output (--color, NO_COLOR, a terminal) */
    int json;               /* --format json */
    const char *game;       /* --game, else the game detected (cli_settle_game) */
    int game_given;         /* --game was given */
    qg_branches *branches;  /* the game's branch table, for commands taking --place */
    int oversize;
    int lossy;              /* --lossy: convert what has no counterpart anyway */
    int cell;               /* --cell: pixels a cell of a picture (0: the default) */
    qg_map_kind kind;       /* --kind; QG_KIND_UNKNOWN when not given */
    int allow_include_outside;  /* --allow-include-outside (with --edit-dir) */
    int verbose;            /* --verbose */
    int follow_symlinks;    /* --follow-symlinks (with -o): replace the file a
                               link at -o names, not the link */
    char **files;           /* the positional arguments */
    int file_count;
    unsigned accepted;      /* the options the command takes */
    char *detected_game;    /* what game and lua_paths point to once */
    char *detected_lua;     /* detected (owned) */
} cli_opts;

/* write_out.c: -o written as every output is (core/output.h): 1 when
 * written. While it is, and while cli_catch_interrupts holds (until
 * cli_restore_interrupts), SIGINT, SIGTERM and SIGHUP set cli_interrupted,
 * which the writer polls: nothing is replaced and no temporary file is
 * left. */
#include <signal.h>
extern volatile sig_atomic_t cli_interrupted;
void cli_catch_interrupts(void);
void cli_restore_interrupts(void);
int cli_write_output(const cli_opts *opts, const char *path, const void *data, size_t len,
                     qg_diags *diags);

/* Parses argv for a subcommand that accepts the options in `accepted`.
 * Prints usage (the text given) for --help and returns 1 (exit 0 wanted),
 * -1 on a bad option (message printed, exit 2 wanted), 0 when parsed. */
int cli_parse(int argc, char **argv, unsigned accepted, const char *usage,
              cli_opts *opts);
/* cli_parse, then requires min_files to max_files positional arguments
 * (usage printed to stderr and -1 returned when outside). */
int cli_parse_files(int argc, char **argv, unsigned accepted, int min_files,
                    int max_files, const char *usage, cli_opts *opts);
void cli_opts_free(cli_opts *opts);

/* Loads the branch table of opts->game (the newest when none) into
 * opts->branches and checks --place against it; -1 after printing why. */
int cli_load_branches(cli_opts *opts);

/* The index of value in the NULL-terminated choices; -1 after printing
 * "bad value ... for option (choices); did you mean ...?" to stderr. */
int cli_choice(const char *command, const char *option, const char *value,
               const char *const *choices);
/* Prints "questgrid COMMAND: message" and the first line of usage to
 * stderr: what a wrong command line gets (exit 2). */
void cli_usage_error(const char *command, const char *usage, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The diagnostics of a command: with stream set (text output), each is
 * written to stderr as it comes, not kept; either way only errors under
 * -q, and none past --max-errors errors in the run. */
qg_diags *cli_diags_new(const cli_opts *opts, int stream);
/* Prints the diagnostics kept, and once "too many errors, stopping" when
 * the run's limit was passed; returns the number of errors (all counted). */
size_t cli_report(const qg_diags *diags);
/* Whether the run passed --max-errors: the command stops there. */
int cli_stopped(void);
/* 1 the first time the run meets a diagnostic (severity, place and
 * message), 0 after: a file read again as another file's include says
 * what it has once (also when memory runs out). */
int cli_diag_first(const qg_diag *diag);
/* At the end of a run: the line counting the warnings and notes not shown
 * (main calls it). */
void cli_report_end(void);
/* --edit-dir, else the bundled edit directory (qg_data_find); NULL after
 * an error naming every place looked. Free with free(). */
char *cli_edit_dir(const cli_opts *opts, qg_diags *diags);
/* Loads the vocabulary of --edit-dir, or the bundled one. */
qg_vocab *cli_load_vocab(const cli_opts *opts, qg_diags *diags);

/* The F:/D: setup of show, check and demo: options from --dialect and
 * --edit-dir (default: the file's own directory when it holds f_info.txt,
 * else the bundled vocabulary) and the vocabulary read from there. */
typedef struct cli_fd {
    qg_fd_options options;
    qg_vocab *vocab;
    char *dir;
    int own_vocab;      /* the vocabulary is the variant's own (--edit-dir,
                           or an edit directory its files identify) */
    int shared;         /* vocab belongs to a cli_vocabs */
} cli_fd;

/* The vocabularies a run has read, one per edit directory and dialect, so
 * that a run over many files reads each once. */
typedef struct cli_vocab_entry {
    char *dir;
    qg_fd_dialect dialect;
    qg_vocab *vocab;
    qg_diags *load;     /* what reading it reported */
    qg_status status;
} cli_vocab_entry;
typedef struct cli_detected {
    char *dir;
    char *named;        /* the file's base name when a signature names it,
                           else "" (the answer for every other file) */
    qg_fd_dialect dialect;
} cli_detected;
typedef struct cli_vocabs {
    cli_vocab_entry *items;
    size_t count, cap;
    cli_detected *detected;
    size_t detected_count, detected_cap;
    qg_fd_hubs *hubs;   /* the games' loads read for the run's files */
} cli_vocabs;
void cli_vocabs_free(cli_vocabs *vocabs);

/* 0 on success; -1 after printing why (exit 2 wanted). */
int cli_fd_setup(const cli_opts *opts, const char *file, cli_fd *out, qg_diags *diags);
/* cli_fd_setup taking the vocabulary from vocabs (read into it when it
 * is not there yet); out must not outlive vocabs. */
int cli_fd_setup_shared(const cli_opts *opts, const char *file, cli_vocabs *vocabs,
                        cli_fd *out, qg_diags *diags);
void cli_fd_free(cli_fd *fd);
/* The game whose tables (lib/games) a dialect's files go with. */
const char *cli_dialect_game(qg_fd_dialect dialect);
/* The Crawl version a run's .des maps go with: --game's (or the one
 * detected from the data), else the newest. */
const char *cli_crawl_game(const cli_opts *opts);
/* The tables of game name (lib/games), or NULL, nothing said, when
 * questgrid has none (or name is NULL). */
qg_game *cli_game_tables(const char *name);

/* ---- the files a command reads (inputs.c, game.c) ---- */

/* A command's arguments expanded by the library's one walk (directories
 * recursively), each file with its kind; game data is left out with a
 * note, a named file questgrid does not read is an error (in diags). */
typedef struct cli_inputs {
    qg_input *items;
    size_t count;
} cli_inputs;

/* Finds the inputs of opts->files, then settles the Crawl game of the
 * .des files among them (cli_settle_game). 0 on success; -1 when the run
 * cannot go on (why is in diags or was printed): exit 2. */
int cli_inputs_find(cli_opts *opts, cli_inputs *out, qg_diags *diags);
void cli_inputs_free(cli_inputs *in);
/* The one file of the inputs a command that reads one level takes: the
 * only level file, else the .des file defining --map, else the hub when
 * --quest is given; NULL after an error saying how to pick one. */
const qg_input *cli_inputs_one(const cli_opts *opts, const cli_inputs *in, qg_diags *diags);
/* The error for a file of a kind the command does not read; reads says
 * what it reads. */
void cli_input_refuse(const char *command, const char *reads, const qg_input *input,
                      qg_diags *diags);

/* When .des files are among paths and --game or --lua-path leave their
 * game open: detects their Crawl data tree and game (qg_des_detect_game),
 * sets opts->game and opts->lua_paths as the options would and says so in
 * one note, reloading the branch table. A tree whose game cannot be told
 * is an error naming --game. 0 on success, -1 after an error in diags. */
int cli_settle_game(cli_opts *opts, const char *const *paths, size_t count, qg_diags *diags);

/* ---- hubs, maps and variables by name (hub.c, names.c) ---- */

/* For a hub, before a level is loaded from it: without --quest an error
 * listing its quests, with a --quest it lacks an error with a hint and
 * the list. 0 when the load may go on. */
int cli_hub_check(const cli_opts *opts, const char *path, const qg_fd_options *options,
                  qg_diags *diags);
/* Hands each quest of a hub to fn; 0 on success, -1 when the hub cannot
 * be read (why in diags). */
int cli_hub_each(const char *path, const qg_fd_options *options,
                 void (*fn)(void *user, const qg_fd_hub_quest *quest), void *user,
                 qg_diags *diags);
/* Prints a hub's quests, one a line (number, name, file); 0 on success. */
int cli_hub_list(const char *path, const qg_fd_options *options, qg_diags *diags);
/* The error for --map NAME that none of names (count of them) is: the
 * closest as a hint and the names there are. The same for the maps of a
 * file, of a runtime from its map first on, of a cache. */
void cli_unknown_map(const char *where, const char *name, const char *const *names, size_t count,
                     qg_diags *diags);
void cli_unknown_file_map(const char *where, const char *name, const qg_des_file *file,
                          qg_diags *diags);
void cli_unknown_runtime_map(const char *where, const char *name, const qg_runtime *rt,
                             size_t first, qg_diags *diags);
void cli_unknown_cache_map(const char *where, const char *name, const qg_cache *cache,
                           qg_diags *diags);
/* A warning for each --var the dialect's games do not give ?: lines,
 * with a hint and the variables there are. */
void cli_check_vars(const cli_opts *opts, qg_fd_dialect dialect, qg_diags *diags);

#endif
