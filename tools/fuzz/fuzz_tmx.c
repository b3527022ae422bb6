/* libFuzzer harness: the TMX reader (expat, layer data, objects) and, for
 * what it reads, every level writer. */
#include "questgrid.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    qg_diags *diags = qg_diags_new();
    qg_level *level = NULL;
    if (qg_tmx_read("fuzz.tmx", (const char *)data, size, &level, diags) == QG_OK) {
        static const qg_format formats[] = {QG_FORMAT_TMX, QG_FORMAT_XP, QG_FORMAT_FD,
                                            QG_FORMAT_DES};
        for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
            char *out = NULL;
            size_t len = 0;
            qg_level_write(level, formats[i], NULL, &out, &len, diags);
            free(out);
        }
        qg_level_free(level);
    }
    qg_diags_free(diags);
    return 0;
}
