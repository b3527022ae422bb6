/* libFuzzer harness: the .des reader and its lowering to Lua chunks. The
 * input is read as two files with one names table, as a compile reads a
 * corpus: the second file's names are looked up among the first's, which
 * the table keeps deflated once another file begins. */
#include "questgrid.h"
#include "questgrid/des.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void lower_all(const qg_des_file *file)
{
    FILE *sink = fopen("/dev/null", "w");
    for (size_t i = 0; i < qg_des_map_count(file); i++) {
        qg_mapdef *def = qg_des_map(file, i);
        for (int k = 0; k < QG_CHUNK_KINDS; k++)
            qg_des_map_chunk(def, (qg_chunk_kind)k);
        if (sink)
            qg_des_dump_map(def, sink);
    }
    if (sink)
        fclose(sink);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    qg_diags *diags = qg_diags_new();
    qg_des_names *names = qg_des_names_new();
    qg_des_options options = {0};
    const char *paths[2] = {"first.des", "second.des"};
    for (int pass = 0; pass < 2; pass++) {
        qg_des_file *file = NULL;
        qg_des_parse(paths[pass], (const char *)data, size, &options, names, &file, diags);
        if (file && pass == 0)
            lower_all(file);
        qg_des_file_free(file);
    }
    qg_des_names_free(names);
    qg_diags_free(diags);
    return 0;
}
