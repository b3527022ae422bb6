/* JSONC for jansson: comments become spaces (their newlines kept, so a
 * line and column jansson reports are the file's) and a trailing comma a
 * space, in one pass over a copy of the text. */
#include "core/jsonc.h"

#include <stdlib.h>
#include <string.h>

typedef struct cleaner {
    char *text;
    size_t len, at;
    size_t comma;       /* the last ',' not yet followed by a value, or len */
} cleaner;

static void blank(cleaner *c, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (c->text[i] != '\n')
            c->text[i] = ' ';
}

/* Past a string at c->at (its opening quote); 0 when it never closes. */
static int skip_string(cleaner *c)
{
    for (c->at++; c->at < c->len; c->at++) {
        if (c->text[c->at] == '\\')
            c->at++;
        else if (c->text[c->at] == '"') {
            c->at++;
            return 1;
        }
    }
    return 0;
}

/* Blanks the comment at c->at; 0 for a block comment that never ends. */
static int blank_comment(cleaner *c)
{
    size_t start = c->at;
    if (c->text[c->at + 1] == '/') {
        while (c->at < c->len && c->text[c->at] != '\n')
            c->at++;
    } else {
        const char *end = NULL;
        for (size_t i = c->at + 2; i + 1 < c->len && !end; i++)
            if (c->text[i] == '*' && c->text[i + 1] == '/')
                end = c->text + i;
        if (!end)
            return 0;
        c->at = (size_t)(end - c->text) + 2;
    }
    blank(c, start, c->at);
    return 1;
}

/* Returns 0, with *why, at a comment or string that never ends. */
static int clean(cleaner *c, const char **why)
{
    c->comma = c->len;
    while (c->at < c->len) {
        char ch = c->text[c->at];
        if (ch == '"') {
            c->comma = c->len;
            if (!skip_string(c)) {
                *why = "a string that never ends";
                return 0;
            }
            continue;
        }
        if (ch == '/' && c->at + 1 < c->len &&
            (c->text[c->at + 1] == '/' || c->text[c->at + 1] == '*')) {
            if (!blank_comment(c)) {
                *why = "a comment that never ends";
                return 0;
            }
            continue;
        }
        if ((ch == '}' || ch == ']') && c->comma < c->len)
            c->text[c->comma] = ' ';
        if (ch == ',')
            c->comma = c->at;
        else if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n')
            c->comma = c->len;
        c->at++;
    }
    return 1;
}

static int line_of(const char *text, size_t at, int *col)
{
    int line = 1;
    size_t start = 0;
    for (size_t i = 0; i < at; i++)
        if (text[i] == '\n') {
            line++;
            start = i + 1;
        }
    *col = (int)(at - start) + 1;
    return line;
}

qg_status qg_jsonc_parse(const char *path, const char *data, size_t len, json_t **out,
                         qg_diags *diags)
{
    *out = NULL;
    cleaner c = {malloc(len + 1), len, 0, len};
    if (!c.text)
        return QG_ERR_NOMEM;
    memcpy(c.text, data, len);
    c.text[len] = '\0';
    const char *why = NULL;
    if (!clean(&c, &why)) {
        int col, line = line_of(data, c.at < len ? c.at : len, &col);
        qg_diags_add(diags, QG_ERROR, path, line, col, NULL, 0, "%s", why);
        free(c.text);
        return QG_ERR_PARSE;
    }
    json_error_t error;
    *out = json_loadb(c.text, len, 0, &error);
    free(c.text);
    if (!*out) {
        qg_diags_add(diags, QG_ERROR, path, error.line, error.column, NULL, 0, "%s", error.text);
        return QG_ERR_PARSE;
    }
    return QG_OK;
}
