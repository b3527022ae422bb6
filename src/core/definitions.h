/* Hengband 3's definition lists (MonraceDefinitions.jsonc,
 * BaseitemDefinitions.jsonc, ArtifactDefinitions.jsonc, since 3.0.2): one
 * JSON object per monster race, base item or artifact. */
#ifndef QG_CORE_DEFINITIONS_H
#define QG_CORE_DEFINITIONS_H

#include "questgrid/core.h"

/* What one entry says that a vocabulary keeps: its id, its Japanese and
 * English names (either may be NULL), and the glyph and colour letter the
 * game draws it with (0 when not given). */
typedef struct qg_definition {
    long id;
    const char *ja, *en;
    char glyph, colour;
} qg_definition;

/* Reads the .jsonc text (len bytes) and calls fn for each entry of its
 * list, in order; fn's non-QG_OK status stops the read and is returned.
 * An entry the game would refuse (no integer "id") is a diagnostic. */
qg_status qg_definitions_read(const char *path, const char *data, size_t len,
                              qg_status (*fn)(void *user, const qg_definition *def),
                              void *user, qg_diags *diags);

#endif
