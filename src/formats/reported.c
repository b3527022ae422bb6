#include "formats/formats.h"

#include <stdlib.h>

int qg_reported_first(qg_reported *r, qg_vocab_kind kind, int32_t index)
{
    int32_t id = (int32_t)((uint32_t)kind << 24 | ((uint32_t)index & 0xFFFFFF));
    for (size_t i = 0; i < r->count; i++)
        if (r->ids[i] == id)
            return 0;
    int32_t *slot = QG_PUSH(r->ids, r->count, r->cap);
    if (slot)
        *slot = id;
    return 1;
}

void qg_reported_free(qg_reported *r)
{
    free(r->ids);
    r->ids = NULL;
    r->count = r->cap = 0;
}
