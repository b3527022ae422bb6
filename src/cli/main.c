/* questgrid: the command-line front of libquestgrid. Each subcommand lives
 * in its own file; this one only dispatches. */
#include "cli/cli.h"
#include "core/suggest.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

typedef struct command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
} command;

static const command commands[] = {
#define QG_COMMAND(name, summary) {#name, summary, cmd_##name},
#include "cli/commands.def"
#undef QG_COMMAND
};

/* Command names are C identifiers in commands.def; on the command line an
 * underscore is spelled '-' (dump_lua is "dump-lua"). */
static int same_command(const char *arg, const char *name)
{
    for (; *arg && *name; arg++, name++)
        if (*arg != *name && !(*arg == '-' && *name == '_'))
            return 0;
    return *arg == *name;
}

/* A command's name as typed ('-' for the identifier's '_'). */
static void print_name(FILE *out, const char *name, const char *after)
{
    for (const char *c = name; *c; c++)
        fputc(*c == '_' ? '-' : *c, out);
    fputs(after, out);
}

static void usage(FILE *out)
{
    fputs("usage: questgrid COMMAND [OPTIONS] [FILE...]\n\ncommands:\n", out);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        fputs("  ", out);
        print_name(out, commands[i].name, "");
        fprintf(out, "%*s %s\n", (int)(10 - strlen(commands[i].name)), "", commands[i].summary);
    }
    fputs("\n'questgrid COMMAND --help' describes a command.\n", out);
}

/* A misspelt command gets a hint and one usage line, not the whole list. */
static void unknown_command(const char *arg)
{
    char names[sizeof commands / sizeof *commands][32];
    qg_suggest s;
    qg_suggest_init(&s, arg, strlen(arg));
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        snprintf(names[i], sizeof names[i], "%s", commands[i].name);
        for (char *c = names[i]; *c; c++)
            if (*c == '_')
                *c = '-';
        qg_suggest_offer(&s, names[i], strlen(names[i]));
    }
    if (qg_suggest_best(&s))
        fprintf(stderr, "questgrid: unknown command '%s'; did you mean '%.*s'?\n", arg,
                (int)s.best_len, qg_suggest_best(&s));
    else
        fprintf(stderr, "questgrid: unknown command '%s'\n", arg);
    fputs("usage: questgrid COMMAND [OPTIONS] [FILE...] ('questgrid help' lists the commands)\n",
          stderr);
}

/* Output that could not be written (a full disk, a closed pipe, /dev/full)
 * is an error, not a silent success. */
static int flushed(int status)
{
    cli_report_end();
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "questgrid: cannot write the output: %s\n", strerror(errno));
        return status == 2 ? 2 : 1;
    }
    return status;
}

/* "questgrid help CMD" is "questgrid CMD --help". */
static int help_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (same_command(name, commands[i].name)) {
            char *args[] = {(char *)name, "--help", NULL};
            return flushed(commands[i].run(2, args));
        }
    unknown_command(name);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "help") == 0 && argc > 2)
        return help_command(argv[2]);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return flushed(0);
    }
    if (strcmp(argv[1], "--list-commands") == 0) {
        for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
            print_name(stdout, commands[i].name, "\n");
        return flushed(0);
    }
    if (strcmp(argv[1], "--version") == 0)
        return flushed(cmd_version(argc - 1, argv + 1));
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (same_command(argv[1], commands[i].name))
            return flushed(commands[i].run(argc - 1, argv + 1));
    unknown_command(argv[1]);
    return 2;
}
