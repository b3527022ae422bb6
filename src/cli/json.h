/* --format json: the documents of doc/json.md, written with jansson. */
#ifndef QG_CLI_JSON_H
#define QG_CLI_JSON_H

#include "cli/cli.h"

#include <jansson.h>

/* A JSON string of text as valid UTF-8 (bytes that are not UTF-8 become
 * U+FFFD); JSON null for NULL. */
json_t *cli_json_text(const char *text);
/* A glyph byte as its CP437 character. */
json_t *cli_json_glyph(unsigned char glyph);
/* {"schema": name, ...}: a document's first member. */
json_t *cli_json_document(const char *schema);
/* The level: size, rows, cells, things by kind, markers, player start. */
json_t *cli_json_level(const qg_level *level, const qg_vocab *vocab);
/* The level document of a map with no level of its own by design (a
 * dummy): every member empty, and "what" saying what the map is. */
json_t *cli_json_no_level(const char *name, const char *what);
/* Every diagnostic as an object (file, line, column, severity, ...). */
void cli_json_add_diags(json_t *array, const qg_diags *diags);
/* Writes the document to stdout (indented) and frees it; 0 on failure. */
int cli_json_print(json_t *document);

#endif
