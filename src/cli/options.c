/* The options subcommands share, parsed one way for all of them. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "core/buf.h"
#include "core/suggest.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct option_spec {
    unsigned flag;
    struct option long_opt;
    int short_opt;
} option_spec;

enum { KEY_EDIT_DIR = 256, KEY_DIALECT, KEY_VAR, KEY_QUEST, KEY_MAP, KEY_SEED,
       KEY_PLACE, KEY_LUA_PATH, KEY_TO, KEY_JOBS, KEY_SIZE, KEY_STRICT,
       KEY_LEGACY, KEY_KEEP_GOING, KEY_COLOR, KEY_FORMAT, KEY_GAME, KEY_HELP,
       KEY_LIST_OPTIONS, KEY_OVERSIZE, KEY_KIND, KEY_MAX_ERRORS, KEY_ALLOW_INCLUDE_OUTSIDE,
       KEY_LOSSY, KEY_CELL, KEY_VERBOSE, KEY_FOLLOW_SYMLINKS };

static const option_spec specs[] = {
    {OPT_EDIT_DIR, {"edit-dir", required_argument, NULL, KEY_EDIT_DIR}, 0},
    {OPT_DIALECT, {"dialect", required_argument, NULL, KEY_DIALECT}, 0},
    {OPT_VAR, {"var", required_argument, NULL, KEY_VAR}, 0},
    {OPT_QUEST, {"quest", required_argument, NULL, KEY_QUEST}, 0},
    {OPT_MAP, {"map", required_argument, NULL, KEY_MAP}, 0},
    {OPT_SEED, {"seed", required_argument, NULL, KEY_SEED}, 0},
    {OPT_PLACE, {"place", required_argument, NULL, KEY_PLACE}, 0},
    {OPT_LUA_PATH, {"lua-path", required_argument, NULL, KEY_LUA_PATH}, 0},
    {OPT_OUTPUT, {"output", required_argument, NULL, 'o'}, 'o'},
    {OPT_TO, {"to", required_argument, NULL, KEY_TO}, 0},
    {OPT_JOBS, {"jobs", required_argument, NULL, KEY_JOBS}, 'j'},
    {OPT_COUNT, {"count", required_argument, NULL, 'n'}, 'n'},
    {OPT_SIZE, {"size", required_argument, NULL, KEY_SIZE}, 0},
    {OPT_STRICT, {"strict", no_argument, NULL, KEY_STRICT}, 0},
    {OPT_LEGACY, {"legacy", no_argument, NULL, KEY_LEGACY}, 0},
    {OPT_QUIET, {"quiet", no_argument, NULL, 'q'}, 'q'},
    {OPT_KEEP_GOING, {"keep-going", no_argument, NULL, KEY_KEEP_GOING}, 0},
    {OPT_COLOR, {"color", required_argument, NULL, KEY_COLOR}, 0},
    {OPT_FORMAT, {"format", required_argument, NULL, KEY_FORMAT}, 0},
    {OPT_GAME, {"game", required_argument, NULL, KEY_GAME}, 0},
    {OPT_OVERSIZE, {"oversize", no_argument, NULL, KEY_OVERSIZE}, 0},
    {OPT_KIND, {"kind", required_argument, NULL, KEY_KIND}, 0},
    {OPT_MAX_ERRORS, {"max-errors", required_argument, NULL, KEY_MAX_ERRORS}, 0},
    {OPT_LOSSY, {"lossy", no_argument, NULL, KEY_LOSSY}, 0},
    {OPT_CELL, {"cell", required_argument, NULL, KEY_CELL}, 0},
    {OPT_VERBOSE, {"verbose", no_argument, NULL, KEY_VERBOSE}, 0},
    /* Every command that reads F:/D: includes takes --edit-dir. */
    {OPT_EDIT_DIR, {"allow-include-outside", no_argument, NULL, KEY_ALLOW_INCLUDE_OUTSIDE}, 0},
    /* Every command that writes -o takes --follow-symlinks. */
    {OPT_OUTPUT, {"follow-symlinks", no_argument, NULL, KEY_FOLLOW_SYMLINKS}, 0},
};

static const char *const color_values[] = {"auto", "always", "never", NULL};
static const char *const format_values[] = {"text", "json", NULL};
static const char *const kind_values[] = {"quest", "town", "wilderness", "vault", "room", NULL};

#define SPEC_COUNT (sizeof specs / sizeof *specs)

static int parse_long(const char *text, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

static const char *command_name = "questgrid";

static int bad_value(const char *option, const char *value)
{
    fprintf(stderr, "questgrid %s: bad value '%s' for %s\n", command_name, value, option);
    return -1;
}

int cli_choice(const char *command, const char *option, const char *value,
               const char *const *choices)
{
    for (int i = 0; choices[i]; i++)
        if (strcmp(value, choices[i]) == 0)
            return i;
    qg_suggest s;
    qg_suggest_init(&s, value, strlen(value));
    qg_suggest_offer_all(&s, choices);
    fprintf(stderr, "questgrid %s: bad value '%s' for %s (", command, value, option);
    for (int i = 0; choices[i]; i++)
        fprintf(stderr, "%s%s", i ? ", " : "", choices[i]);
    fputc(')', stderr);
    if (qg_suggest_best(&s))
        fprintf(stderr, "; did you mean '%.*s'?", (int)s.best_len, qg_suggest_best(&s));
    fputc('\n', stderr);
    return -1;
}

void cli_usage_error(const char *command, const char *usage, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "questgrid %s: ", command);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n%.*s\n", (int)strcspn(usage, "\n"), usage);
}

/* A dialect's name or alias; the table's names are the choices shown. */
static int check_dialect(const char *name, size_t len, int may_be_empty)
{
    char part[32];
    if (len == 0 && may_be_empty)
        return 0;
    snprintf(part, sizeof part, "%.*s", (int)len, name);
    if (len < sizeof part && qg_fd_dialect_from_name(part) >= 0)
        return 0;
    const char *names[64];
    size_t count = qg_fd_dialect_count() < 63 ? qg_fd_dialect_count() : 63;
    for (size_t i = 0; i < count; i++)
        names[i] = qg_fd_dialect_name((qg_fd_dialect)i);
    names[count] = NULL;
    return cli_choice(command_name, "--dialect", part, names) >= 0 ? 0 : -1;
}

/* "D", or "FROM:TO" for convert (either side may be left empty). */
static int check_dialects(const char *arg)
{
    const char *colon = strchr(arg, ':');
    if (!colon)
        return check_dialect(arg, strlen(arg), 0);
    return check_dialect(arg, (size_t)(colon - arg), 1) ||
                   check_dialect(colon + 1, strlen(colon + 1), 1) ? -1 : 0;
}

static int colour_wanted(int choice)
{
    if (choice != 0)
        return choice == 1;
    const char *no_color = getenv("NO_COLOR");
    const char *term = getenv("TERM");
    return isatty(STDOUT_FILENO) && !(no_color && no_color[0]) &&
           !(term && strcmp(term, "dumb") == 0);
}

static int take_option(int key, const char *arg, cli_opts *opts)
{
    long v;
    int choice;
    switch (key) {
    case KEY_EDIT_DIR: opts->edit_dir = arg; return 0;
    case KEY_DIALECT:
        opts->dialect = arg;
        return check_dialects(arg);
    case KEY_MAP: opts->map = arg; return 0;
    case KEY_PLACE: opts->place = arg; return 0;
    case KEY_COLOR:
        if ((choice = cli_choice(command_name, "--color", arg, color_values)) < 0)
            return -1;
        opts->color = colour_wanted(choice);
        return 0;
    case KEY_FORMAT:
        if ((choice = cli_choice(command_name, "--format", arg, format_values)) < 0)
            return -1;
        opts->json = choice == 1;
        return 0;
    case KEY_TO: opts->to = arg; return 0;
    case 'o': opts->output = arg; return 0;
    case KEY_STRICT: opts->strict = 1; return 0;
    case KEY_LEGACY: opts->legacy = 1; return 0;
    case KEY_GAME:
        opts->game = arg;
        opts->game_given = 1;
        return 0;
    case KEY_VERBOSE: opts->verbose = 1; return 0;
    case 'q': opts->quiet = 1; return 0;
    case KEY_KEEP_GOING: opts->keep_going = 1; return 0;
    case KEY_OVERSIZE: opts->oversize = 1; return 0;
    case KEY_LOSSY: opts->lossy = 1; return 0;
    case KEY_CELL:
        if (!parse_long(arg, QG_PNG_CELL_MIN, QG_PNG_CELL_MAX, &v))
            return bad_value("--cell (want 8 to 64 pixels)", arg);
        opts->cell = (int)v;
        return 0;
    case KEY_KIND:
        if (cli_choice(command_name, "--kind", arg, kind_values) < 0)
            return -1;
        opts->kind = qg_map_kind_from_name(arg);
        return 0;
    case KEY_ALLOW_INCLUDE_OUTSIDE: opts->allow_include_outside = 1; return 0;
    case KEY_FOLLOW_SYMLINKS: opts->follow_symlinks = 1; return 0;
    case KEY_VAR:
        if (qg_vars_set_assignment(opts->vars, arg) != QG_OK)
            return bad_value("--var (want NAME=VALUE)", arg);
        return 0;
    case KEY_QUEST:
        if (!parse_long(arg, 0, 1000000, &opts->quest))
            return bad_value("--quest", arg);
        return 0;
    case KEY_SEED: {
        char *end;
        errno = 0;
        opts->seed = strtoull(arg, &end, 0);
        if (errno || end == arg || *end || arg[0] == '-')
            return bad_value("--seed", arg);
        opts->has_seed = 1;
        return 0;
    }
    case KEY_LUA_PATH: {
        const char **slot = QG_PUSH(opts->lua_paths, opts->lua_path_count,
                                    opts->lua_path_cap);
        if (!slot)
            return bad_value("--lua-path", arg);
        *slot = arg;
        return 0;
    }
    case KEY_JOBS: case 'j':
        if (!parse_long(arg, 1, 256, &v))
            return bad_value("--jobs", arg);
        opts->jobs = (int)v;
        return 0;
    case KEY_MAX_ERRORS:
        if (!parse_long(arg, 0, 1000000000, &opts->max_errors))
            return bad_value("--max-errors", arg);
        return 0;
    case 'n':
        if (!parse_long(arg, 1, 100000000, &opts->count))
            return bad_value("-n", arg);
        return 0;
    case KEY_SIZE:
        if (sscanf(arg, "%dx%d", &opts->width, &opts->height) != 2 ||
            opts->width < 1 || opts->height < 1 || opts->width > 4096 ||
            opts->height > 4096)
            return bad_value("--size (want WxH)", arg);
        return 0;
    }
    return -1;
}

/* Without --place or --game, a table that cannot be loaded is left for
 * the runtime to report, should a .des map be resolved. */
int cli_load_branches(cli_opts *opts)
{
    qg_branches_free(opts->branches);
    opts->branches = NULL;
    qg_diags *diags = qg_diags_new();
    if (!diags)
        return -1;
    char *dir = NULL;
    if (qg_data_find("des/vocab", &dir, diags) == QG_OK)
        qg_branches_load(dir, opts->game, &opts->branches, diags);
    free(dir);
    int bad = 0;
    if (!opts->branches && opts->game && qg_diags_count(diags)) {
        fprintf(stderr, "questgrid %s: bad value '%s' for --game: %s\n", command_name,
                opts->game, qg_diags_get(diags, qg_diags_count(diags) - 1)->message);
        bad = 1;
    } else if (!opts->branches && opts->place) {
        cli_report(diags);
        bad = 1;
    } else if (opts->place && qg_branches_check_place(opts->branches, opts->place, diags)) {
        fprintf(stderr, "questgrid %s: bad value '%s' for --place: %s\n", command_name,
                opts->place, qg_diags_get(diags, qg_diags_count(diags) - 1)->message);
        bad = 1;
    }
    qg_diags_free(diags);
    return bad ? -1 : 0;
}

static void build_tables(unsigned accepted, struct option *longs, char *shorts)
{
    size_t n = 0, s = 0;
    shorts[s++] = ':';  /* a missing value is told apart from an unknown option */
    for (size_t i = 0; i < SPEC_COUNT; i++) {
        if (!(accepted & specs[i].flag))
            continue;
        longs[n++] = specs[i].long_opt;
        if (specs[i].short_opt) {
            shorts[s++] = (char)specs[i].short_opt;
            if (specs[i].long_opt.has_arg == required_argument)
                shorts[s++] = ':';
        }
    }
    longs[n++] = (struct option){"help", no_argument, NULL, KEY_HELP};
    longs[n++] = (struct option){"list-options", no_argument, NULL, KEY_LIST_OPTIONS};
    longs[n] = (struct option){NULL, 0, NULL, 0};
    shorts[s++] = 'h';
    shorts[s] = '\0';
}

/* For the shell completions: the command's options, one a line, "=" after
 * those that take a value. */
static void list_options(unsigned accepted)
{
    for (size_t i = 0; i < SPEC_COUNT; i++)
        if (accepted & specs[i].flag)
            printf("--%s%s\n", specs[i].long_opt.name,
                   specs[i].long_opt.has_arg == required_argument ? "=" : "");
    puts("--help");
}

/* The option as the user wrote it ("--sede" of "--sede=3", or "-x"). */
static void written_option(char **argv, int key, char *out, size_t size)
{
    const char *arg = optind > 0 ? argv[optind - 1] : "";
    if (key > 0 && key < 256 && (arg[0] != '-' || arg[1] == '-'))
        snprintf(out, size, "-%c", key);
    else
        snprintf(out, size, "%.*s", (int)strcspn(arg, "="), arg);
}

/* An option the command does not take: a hint at the closest it takes,
 * or the commands that take it, and one usage line. */
static void unknown_option(const char *written, unsigned accepted, const char *usage)
{
    qg_suggest s;
    qg_suggest_init(&s, written, strlen(written));
    char names[SPEC_COUNT + 1][24];
    int other = 0;
    for (size_t i = 0; i <= SPEC_COUNT; i++) {
        const char *name = i < SPEC_COUNT ? specs[i].long_opt.name : "help";
        snprintf(names[i], sizeof names[i], "--%s", name);
        if (i == SPEC_COUNT || (accepted & specs[i].flag))
            qg_suggest_offer(&s, names[i], strlen(names[i]));
        else if (strcmp(names[i], written) == 0)
            other = 1;
    }
    if (other)
        cli_usage_error(command_name, usage, "%s is not an option of this command", written);
    else if (qg_suggest_best(&s))
        cli_usage_error(command_name, usage, "unknown option '%s'; did you mean '%.*s'?", written,
                        (int)s.best_len, qg_suggest_best(&s));
    else
        cli_usage_error(command_name, usage, "unknown option '%s'", written);
}

static int option_error(char **argv, int key, unsigned accepted, const char *usage)
{
    char written[64];
    written_option(argv, optopt, written, sizeof written);
    if (key == ':')
        cli_usage_error(command_name, usage, "%s needs a value", written);
    else
        unknown_option(written, accepted, usage);
    return -1;
}

int cli_parse(int argc, char **argv, unsigned accepted, const char *usage,
              cli_opts *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->quest = -1;
    opts->count = 1000;
    opts->max_errors = 50;
    opts->vars = qg_vars_new();
    if (!opts->vars)
        return -1;
    struct option longs[SPEC_COUNT + 3];
    char shorts[2 * SPEC_COUNT + 3];
    build_tables(accepted, longs, shorts);
    command_name = argc > 0 ? argv[0] : "questgrid";
    if (accepted & OPT_COLOR)
        opts->color = colour_wanted(0);
    optind = 1;
    opterr = 0;
    int key;
    while ((key = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        int r;
        if (key == 'h' || key == KEY_HELP) {
            fputs(usage, stdout);
            r = 1;
        } else if (key == KEY_LIST_OPTIONS) {
            list_options(accepted);
            r = 1;
        } else if (key == '?' || key == ':') {
            r = option_error(argv, key, accepted, usage);
        } else {
            r = take_option(key, optarg, opts);
        }
        if (r) {
            cli_opts_free(opts);
            return r;
        }
    }
    opts->files = argv + optind;
    opts->file_count = argc - optind;
    opts->accepted = accepted;
    /* --place is checked against the game's branches, and --game itself
     * against the games there are, before any file is read */
    if (((accepted & OPT_PLACE) || opts->game) && cli_load_branches(opts) != 0) {
        cli_opts_free(opts);
        return -1;
    }
    return 0;
}

int cli_parse_files(int argc, char **argv, unsigned accepted, int min_files,
                    int max_files, const char *usage, cli_opts *opts)
{
    int r = cli_parse(argc, argv, accepted, usage, opts);
    if (r)
        return r;
    if (opts->file_count < min_files || opts->file_count > max_files) {
        if (opts->file_count < min_files)
            cli_usage_error(command_name, usage, "%s", opts->file_count ? "too few files"
                                                                         : "no file given");
        else
            cli_usage_error(command_name, usage, "too many files (%d)", opts->file_count);
        cli_opts_free(opts);
        return -1;
    }
    return 0;
}

void cli_opts_free(cli_opts *opts)
{
    qg_branches_free(opts->branches);
    opts->branches = NULL;
    qg_vars_free(opts->vars);
    free(opts->lua_paths);
    free(opts->detected_game);
    free(opts->detected_lua);
    opts->vars = NULL;
    opts->lua_paths = NULL;
    opts->detected_game = opts->detected_lua = NULL;
}

char *cli_edit_dir(const cli_opts *opts, qg_diags *diags)
{
    if (opts->edit_dir)
        return qg_strdup(opts->edit_dir);
    char *dir;
    qg_data_find("edit", &dir, diags);
    return dir;
}

qg_vocab *cli_load_vocab(const cli_opts *opts, qg_diags *diags)
{
    char *dir = cli_edit_dir(opts, diags);
    qg_vocab *vocab = dir ? qg_vocab_new() : NULL;
    if (vocab && qg_vocab_load_dir(vocab, dir, diags) != QG_OK) {
        qg_vocab_free(vocab);
        vocab = NULL;
    }
    free(dir);
    return vocab;
}
