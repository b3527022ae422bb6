#define _GNU_SOURCE
/* Dialect names and detection from what a file itself tells. */
#include "fd/fd_internal.h"

#include <string.h>
#include <strings.h>

static const char *const names[] = {"auto", "zangband", "hengband", "tome"};

const char *qg_fd_dialect_name(qg_fd_dialect dialect)
{
    if ((unsigned)dialect < sizeof names / sizeof *names)
        return names[dialect];
    return "unknown";
}

int qg_fd_dialect_from_name(const char *name)
{
    for (unsigned i = 0; name && i < sizeof names / sizeof *names; i++)
        if (strcasecmp(name, names[i]) == 0)
            return (int)i;
    return -1;
}

static int is_tag_start(char c)
{
    return c >= 'A' && c <= 'Z';
}

/* What one line says: 0 nothing, else the dialect. */
static qg_fd_dialect line_dialect(const char *line, size_t len)
{
    if (len < 2 || line[1] != ':')
        return QG_FD_AUTO;
    if (line[0] == 'N' || line[0] == 'f')
        return QG_FD_TOME;
    if (line[0] == 'Q' && len > 2 && line[2] == '$')
        return QG_FD_HENGBAND;
    if (line[0] == '?' && memmem(line, len, "$QUEST\"", 7))
        return QG_FD_TOME;
    if (line[0] != 'F')
        return QG_FD_AUTO;
    fd_tok tok[10];
    size_t n = fd_tokenize(line + 2, len - 2, 3, 10, tok);
    if (n >= 2 && tok[1].len && is_tag_start(tok[1].p[0]))
        return QG_FD_HENGBAND;
    if (n == 10 || (n >= 8 && tok[7].len && (tok[7].p[0] == '"' || tok[7].p[0] == '-')))
        return QG_FD_TOME;
    return QG_FD_AUTO;
}

qg_fd_dialect fd_detect(const char *path, const char *data, size_t len)
{
    size_t plen = path ? strlen(path) : 0;
    if (plen >= 4 && strcasecmp(path + plen - 4, ".map") == 0)
        return QG_FD_TOME;
    const char *end = data + len;
    for (const char *line = data; line && line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
        qg_fd_dialect d = line_dialect(line, n);
        if (d != QG_FD_AUTO)
            return d;
        line = nl ? nl + 1 : NULL;
    }
    return QG_FD_AUTO;
}

qg_fd_dialect qg_fd_detect_dialect(const char *path, const char *data, size_t len)
{
    qg_fd_dialect d = fd_detect(path, data, len);
    return d == QG_FD_AUTO ? QG_FD_ZANGBAND : d;
}
