/* libFuzzer harness: the REXPaint .xp reader (gzip or plain, capped) and,
 * for what it reads, the .xp and TMX writers. */
#include "questgrid.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    qg_diags *diags = qg_diags_new();
    qg_level *level = NULL;
    if (qg_xp_read("fuzz.xp", data, size, &level, diags) == QG_OK) {
        char *out = NULL;
        size_t len = 0;
        qg_level_write(level, QG_FORMAT_XP, NULL, &out, &len, diags);
        free(out);
        out = NULL;
        qg_level_write(level, QG_FORMAT_TMX, NULL, &out, &len, diags);
        free(out);
        qg_level_free(level);
    }
    qg_diags_free(diags);
    return 0;
}
