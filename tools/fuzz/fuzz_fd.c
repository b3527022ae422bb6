/* libFuzzer harness: the F:/D: reader with its %: includes and ?:
 * expressions, then resolving and rendering what it read.
 *
 * Input: one flag byte, then the top file. A line "====" splits off a
 * second file served as "extra.txt", so the fuzzer mutates an included
 * file too. Includes are served from memory (qg_fd_options.source): a few
 * fixed files, among them one that includes itself and a chain, so the
 * cycle and depth checks are reached without touching the disk.
 * Flag bits: 0-1 dialect, 2 no_includes, 3 japanese, 4 a .map name (ToME
 * detection), 5 a vocabulary with Hengband tags. */
#define _GNU_SOURCE
#include "questgrid.h"
#include "questgrid/fd.h"
#include "questgrid/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

typedef struct memfile {
    const char *name;
    const char *text;
    size_t len;
} memfile;

static const char feat_txt[] =
    "F:#:2:8\nF:.:1:8\nF:r:1:8:7\n?:[EQU $QUEST_NUMBER 1]\nF:o:1:8:0:5\n?:1\n";
static const char self_txt[] = "F:x:1:8\n%:self.txt\n";
static const char deep_txt[] = "%:deeper.txt\nF:d:1:8\n";
static const char deeper_txt[] = "%:deep.txt\n%:feat.txt\n";
static const char hub_txt[] =
    "?:[EQU $QUEST_NUMBER 1]\n%:feat.txt\n?:[AND [GEQ $LEVEL 5] [NOT [EQU $CLASS Warrior]]]\n"
    "%:extra.txt\n?:1\n";

typedef struct input {
    const char *extra;
    size_t extra_len;
} input;

static int serve(void *user, const char *path, const char **data, size_t *len)
{
    const input *in = user;
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    const memfile files[] = {
        {"feat.txt", feat_txt, sizeof feat_txt - 1},
        {"self.txt", self_txt, sizeof self_txt - 1},
        {"deep.txt", deep_txt, sizeof deep_txt - 1},
        {"deeper.txt", deeper_txt, sizeof deeper_txt - 1},
        {"hub.txt", hub_txt, sizeof hub_txt - 1},
        {"extra.txt", in->extra, in->extra_len},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (files[i].text && strcmp(files[i].name, name) == 0) {
            *data = files[i].text;
            *len = files[i].len;
            return 1;
        }
    return 0;
}

static qg_vocab *tag_vocab(void)
{
    static const char *const tags[] = {"FLOOR", "GRANITE", "OPEN_DOOR", "TRAP_PIT", "TREE"};
    qg_vocab *vocab = qg_vocab_new();
    for (int i = 0; vocab && i < 5; i++)
        qg_vocab_add(vocab, QG_VOCAB_FEATURE, i + 1, tags[i], tags[i]);
    if (vocab)
        qg_vocab_add(vocab, QG_VOCAB_MONSTER, 7, "Grip", "Grip, Farmer Maggot's Dog");
    return vocab;
}

static void evaluate_conditions(const qg_mapdef *def, qg_fd_dialect dialect, const qg_vars *vars)
{
    char value[64];
    for (size_t i = 0; i < qg_fd_record_count(def); i++) {
        const qg_fd_record *rec = qg_fd_record_at(def, i);
        if (rec->kind == QG_FD_COND && rec->len >= 2)
            qg_fd_eval(rec->text + 2, rec->len - 2, dialect, vars, value, sizeof value,
                       "fuzz", rec->line, NULL);
    }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static qg_vocab *vocab;
    static FILE *sink;
    if (!vocab)
        vocab = tag_vocab();
    if (!sink)
        sink = fopen("/dev/null", "w");
    if (size < 1)
        return 0;
    unsigned flags = data[0];
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    input in = {NULL, 0};
    const char *split = memmem(text, len, "\n====\n", 6);
    if (split) {
        in.extra = split + 6;
        in.extra_len = len - (size_t)(in.extra - text);
        len = (size_t)(split - text) + 1;
    }

    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.dialect = (qg_fd_dialect)(flags & 3);
    opt.no_includes = (flags >> 2) & 1;
    opt.japanese = (flags >> 3) & 1;
    opt.vocab = (flags & 32) ? vocab : NULL;
    opt.edit_dir = "edit";
    opt.max_include_depth = 8;
    opt.source = serve;
    opt.source_user = &in;

    qg_diags *diags = qg_diags_new();
    qg_vars *vars = qg_vars_new();
    qg_vars_set_int(vars, "QUEST_NUMBER", 1);
    qg_vars_set_int(vars, "LEVEL", 7);
    qg_vars_set(vars, "CLASS", "Mage");
    qg_mapdef *def = NULL;
    qg_fd_parse((flags & 16) ? "fuzz/main.map" : "fuzz/main.txt", text, len, &opt, &def, diags);
    if (def) {
        qg_fd_check_letters(def, diags);
        evaluate_conditions(def, qg_fd_mapdef_dialect(def), vars);
        qg_level *level = NULL;
        qg_fd_resolve(def, &opt, vars, &level, diags);
        if (level && sink)
            qg_render_text(level, opt.vocab, sink);
        qg_level_free(level);
        qg_mapdef_free(def);
    }
    if (sink)
        qg_diags_print(diags, sink);
    qg_vars_free(vars);
    qg_diags_free(diags);
    return 0;
}
