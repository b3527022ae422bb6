/* questgrid show, for .des files: one declarative map with its legend. */
#include "cli/cli_des.h"

#include <stdio.h>
#include <string.h>

static void print_property(const qg_mapdef *def, const char *key)
{
    const char *value = qg_mapdef_get_property(def, key);
    if (value)
        printf("%s: %s\n", key, value);
}

static void print_legend_entry(void *user, unsigned char glyph, const char *meaning)
{
    (void)user;
    if (glyph >= 0x20 && glyph < 0x7f)
        printf("  '%c'  %s\n", glyph, meaning);
    else
        printf("  \\x%02x %s\n", glyph, meaning);
}

static const qg_mapdef *pick_map(const qg_des_file *file, const char *name)
{
    for (size_t i = 0; i < qg_des_map_count(file); i++) {
        const qg_mapdef *def = qg_des_map(file, i);
        if (!name || strcmp(qg_mapdef_name(def), name) == 0)
            return def;
    }
    return NULL;
}

static void show_map(const qg_mapdef *def)
{
    printf("map: %s (%s:%d)\n", qg_mapdef_name(def), qg_mapdef_file(def),
           qg_mapdef_line(def));
    static const char *const keys[] = {"orient", "tags", "depth", "place", "chance",
                                       "weight", "order", "desc", "lflags", "bflags"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        print_property(def, keys[i]);
    printf("size: %dx%zu\n", qg_mapdef_width(def), qg_mapdef_row_count(def));
    if (qg_des_map_has_lua(def))
        puts("lua: yes (shown as declared; its Lua may change it)");
    putchar('\n');
    for (size_t r = 0; r < qg_mapdef_row_count(def); r++) {
        size_t len;
        const char *row = qg_mapdef_row(def, r, &len, NULL);
        fwrite(row, 1, len, stdout);
        putchar('\n');
    }
    puts("\nlegend:");
    qg_des_legend(def, print_legend_entry, NULL);
}

int cli_show_des(cli_opts *opts, const char *path)
{
    qg_des_options options = {opts->legacy};
    qg_diags *diags = qg_diags_new();
    if (!diags)
        return 1;
    qg_des_file *file;
    qg_status st = qg_des_load(path, &options, NULL, &file, diags);
    int status = cli_report(diags) ? 1 : 0;
    const qg_mapdef *def = file ? pick_map(file, opts->map) : NULL;
    if (def) {
        show_map(def);
    } else if (st == QG_OK || file) {
        if (opts->map)
            cli_unknown_file_map(path, opts->map, file, diags);
        else
            qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0, "the file defines no map");
        cli_report(diags);
        status = 1;
    }
    qg_des_file_free(file);
    qg_diags_free(diags);
    return status;
}
