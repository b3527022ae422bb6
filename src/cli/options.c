/* The options subcommands share, parsed one way for all of them. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "core/buf.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct option_spec {
    unsigned flag;
    struct option long_opt;
    int short_opt;
} option_spec;

enum { KEY_EDIT_DIR = 256, KEY_DIALECT, KEY_VAR, KEY_QUEST, KEY_MAP, KEY_SEED,
       KEY_PLACE, KEY_LUA_PATH, KEY_TO, KEY_JOBS, KEY_SIZE, KEY_STRICT,
       KEY_LEGACY, KEY_KEEP_GOING, KEY_HELP, KEY_GAME };

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
    {OPT_GAME, {"game", required_argument, NULL, KEY_GAME}, 0},
};

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

static int bad_value(const char *option, const char *value)
{
    fprintf(stderr, "questgrid: bad value '%s' for %s\n", value, option);
    return -1;
}

static int take_option(int key, const char *arg, cli_opts *opts)
{
    long v;
    switch (key) {
    case KEY_EDIT_DIR: opts->edit_dir = arg; return 0;
    case KEY_DIALECT: opts->dialect = arg; return 0;
    case KEY_MAP: opts->map = arg; return 0;
    case KEY_PLACE: opts->place = arg; return 0;
    case KEY_TO: opts->to = arg; return 0;
    case 'o': opts->output = arg; return 0;
    case KEY_STRICT: opts->strict = 1; return 0;
    case KEY_LEGACY: opts->legacy = 1; return 0;
    case KEY_GAME: opts->game = arg; return 0;
    case 'q': opts->quiet = 1; return 0;
    case KEY_KEEP_GOING: opts->keep_going = 1; return 0;
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

static void build_tables(unsigned accepted, struct option *longs, char *shorts)
{
    size_t n = 0, s = 0;
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
    longs[n] = (struct option){NULL, 0, NULL, 0};
    shorts[s++] = 'h';
    shorts[s] = '\0';
}

int cli_parse(int argc, char **argv, unsigned accepted, const char *usage,
              cli_opts *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->quest = -1;
    opts->count = 1000;
    opts->jobs = 1;
    opts->vars = qg_vars_new();
    if (!opts->vars)
        return -1;
    struct option longs[SPEC_COUNT + 2];
    char shorts[2 * SPEC_COUNT + 2];
    build_tables(accepted, longs, shorts);
    optind = 1;
    opterr = 1;
    int key;
    while ((key = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        int r;
        if (key == 'h' || key == KEY_HELP) {
            fputs(usage, stdout);
            r = 1;
        } else if (key == '?' || key == ':') {
            fputs(usage, stderr);
            r = -1;
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
    return 0;
}

int cli_parse_files(int argc, char **argv, unsigned accepted, int min_files,
                    int max_files, const char *usage, cli_opts *opts)
{
    int r = cli_parse(argc, argv, accepted, usage, opts);
    if (r)
        return r;
    if (opts->file_count < min_files || opts->file_count > max_files) {
        fputs(usage, stderr);
        cli_opts_free(opts);
        return -1;
    }
    return 0;
}

void cli_opts_free(cli_opts *opts)
{
    qg_vars_free(opts->vars);
    free(opts->lua_paths);
    opts->vars = NULL;
    opts->lua_paths = NULL;
}

size_t cli_report(const qg_diags *diags)
{
    qg_diags_print(diags, stderr);
    return qg_diags_count_severity(diags, QG_ERROR);
}

qg_vocab *cli_load_vocab(const cli_opts *opts, qg_diags *diags)
{
    qg_vocab *vocab = qg_vocab_new();
    if (!vocab)
        return NULL;
    const char *dir = opts->edit_dir ? opts->edit_dir : qg_default_edit_dir();
    if (qg_vocab_load_dir(vocab, dir, diags) != QG_OK) {
        qg_vocab_free(vocab);
        return NULL;
    }
    return vocab;
}
