/* JSON with comments and trailing commas: Hengband 3's *Definitions.jsonc,
 * which the game reads with nlohmann::json::parse(..., ignore_comments,
 * ignore_trailing_commas) (main/info-initializer.cpp init_json). */
#ifndef QG_CORE_JSONC_H
#define QG_CORE_JSONC_H

#include "questgrid/core.h"

#include <jansson.h>

/* Parses data (len bytes) into *out (the caller json_decref()s it): '//'
 * and '/' '*' comments and a ',' before '}' or ']' are read as the game
 * reads them, then the rest is JSON. A syntax error is a diagnostic at its
 * line and column of path; *out is NULL then. */
qg_status qg_jsonc_parse(const char *path, const char *data, size_t len, json_t **out,
                         qg_diags *diags);

#endif
