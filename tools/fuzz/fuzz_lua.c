/* libFuzzer harness: the sandboxed Lua runtime running map programs.
 *
 * The first byte picks the form and the seed:
 *   bit 0 set:   the rest is a whole .des file (front end and runtime);
 *   bits 0-1 00: the rest is Lua, placed in a {{ }} block of a small map
 *                (the map's main chunk), so most inputs reach the runtime;
 *   bits 0-1 10: the rest is Lua placed before the map, at file level (the
 *                global prelude, run with the real globals: _G metatables,
 *                library poisoning), then the map's own set-up meets it.
 * Every map found is compiled (index fields) and resolved with a seed
 * from bits 2-7, at the runtime's real budgets (the defaults: memory,
 * instructions, CPU time): a budget escape shows up as a libFuzzer
 * timeout, and one that only a full budget reaches is not missed. */
#include "questgrid.h"
#include "questgrid/des.h"
#include "questgrid/lua.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static const char map_head[] = "NAME: fuzz_map\nTAGS: fuzz\nDEPTH: D:1-20\n{{\n";
static const char map_tail[] =
    "\n}}\nKFEAT: Z = altar_zin\nMONS: kobold\nITEM: any\nMAP\nxxxxxxx\nx.1.%.x\nx..Z..x\n"
    "x+xxxxx\nENDMAP\n";

static const char prelude_head[] = "{{\n";
static const char prelude_tail[] =
    "\n}}\nNAME: fuzz_map\nTAGS: fuzz\nDEPTH: D:1-20\n"
    "{{\nextend_map{width = 12, height = 8, fill = 'x'}\n"
    "spotty_map{iterations = 20, boxy = false}\n}}\n";

static char *wrap(const char *head, size_t head_len, const unsigned char *code, size_t len,
                  const char *tail, size_t tail_len, size_t *out_len)
{
    char *text = malloc(head_len + len + tail_len);
    if (!text)
        return NULL;
    memcpy(text, head, head_len);
    memcpy(text + head_len, code, len);
    memcpy(text + head_len + len, tail, tail_len);
    *out_len = head_len + len + tail_len;
    return text;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size < 1 || size > 16384)
        return 0;
    unsigned flags = data[0];
    size_t len;
    char *text = NULL;
    if (flags & 1) {
        len = size - 1;
        text = malloc(len ? len : 1);
        if (text && len)
            memcpy(text, data + 1, len);
    } else if (flags & 2) {
        text = wrap(prelude_head, sizeof prelude_head - 1, data + 1, size - 1, prelude_tail,
                    sizeof prelude_tail - 1, &len);
    } else {
        text = wrap(map_head, sizeof map_head - 1, data + 1, size - 1, map_tail,
                    sizeof map_tail - 1, &len);
    }
    if (!text)
        return 0;

    qg_diags *diags = qg_diags_new();
    qg_des_names *names = qg_des_names_new();
    qg_des_file *file = NULL;
    qg_des_options des_options = {0};
    qg_des_parse("fuzz.des", text, len, &des_options, names, &file, diags);
    free(text);
    qg_runtime *rt = file ? qg_runtime_new(NULL, diags) : NULL;
    if (rt && qg_runtime_add_file(rt, file, diags) == QG_OK) {
        qg_context context = {"D:5", 10, NULL};
        for (size_t i = 0; i < qg_runtime_map_count(rt) && i < 8; i++) {
            qg_mapdef *def = qg_runtime_map(rt, i);
            if (qg_runtime_compile_map(rt, def, diags) != QG_OK)
                continue;
            qg_level *level = NULL;
            qg_runtime_resolve(rt, def, flags >> 2, &context, &level, diags);
            qg_level_free(level);
        }
    } else if (!rt) {
        qg_des_file_free(file);
    }
    qg_runtime_free(rt);
    qg_des_names_free(names);
    qg_diags_free(diags);
    return 0;
}
