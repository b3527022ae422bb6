/* libFuzzer harness: the .des reader and its lowering to Lua chunks. */
#include "questgrid.h"
#include "questgrid/des.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    qg_diags *diags = qg_diags_new();
    qg_des_names *names = qg_des_names_new();
    qg_des_file *file = NULL;
    qg_des_options options = {0};
    qg_des_parse("fuzz.des", (const char *)data, size, &options, names, &file, diags);
    if (file) {
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
        qg_des_file_free(file);
    }
    qg_des_names_free(names);
    qg_diags_free(diags);
    return 0;
}
