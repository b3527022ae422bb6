/* One map of a .des file, as written: its lines from NAME up to the next
 * map's NAME (or the end of the file). */
#include "formats/formats.h"

#include <stdlib.h>
#include <string.h>

/* The byte offset where 1-based line starts, or len past the end. */
static size_t line_start(const char *data, size_t len, int line)
{
    size_t at = 0;
    for (int l = 1; l < line && at < len; l++) {
        const char *nl = memchr(data + at, '\n', len - at);
        at = nl ? (size_t)(nl - data) + 1 : len;
    }
    return at;
}

qg_status qg_des_extract_map(const char *data, size_t len, const qg_des_file *file,
                             size_t index, char **out, size_t *out_len)
{
    if (index >= qg_des_map_count(file))
        return QG_ERR_NOTFOUND;
    int first = qg_mapdef_line(qg_des_map(file, index));
    size_t from = line_start(data, len, first);
    size_t to = len;
    if (index + 1 < qg_des_map_count(file))
        to = line_start(data, len, qg_mapdef_line(qg_des_map(file, index + 1)));
    if (to < from)
        return QG_ERR_INVALID;
    char *text = malloc(to - from + 2);
    if (!text)
        return QG_ERR_NOMEM;
    memcpy(text, data + from, to - from);
    size_t n = to - from;
    if (n && text[n - 1] != '\n')
        text[n++] = '\n';
    text[n] = '\0';
    *out = text;
    *out_len = n;
    return QG_OK;
}
