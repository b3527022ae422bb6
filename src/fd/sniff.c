/* Telling a level file from the other files of a lib/edit directory: the
 * vocabularies (f_info, r_info, k_info, a_info, v_info, ...) share the
 * letter-colon line shape, F: and D: lines included (flags and
 * descriptions), so only their repeated N:index:name records tell them
 * apart. A level file has at most one N: line (ToME .map files name
 * themselves with one). */
#include "questgrid/fd.h"

#include <ctype.h>
#include <string.h>

static int is_numbered_record(const char *line, size_t len)
{
    if (len < 4 || line[0] != 'N' || line[1] != ':' || !isdigit((unsigned char)line[2]))
        return 0;
    size_t i = 2;
    while (i < len && isdigit((unsigned char)line[i]))
        i++;
    return i < len && line[i] == ':';
}

/* The records a level, an include or a hub is made of. */
static int is_level_record(const char *line, size_t len)
{
    return len >= 2 && line[1] == ':' && strchr("FDPQ%?BWMT", line[0]) && line[0];
}

qg_fd_content qg_fd_sniff(const char *data, size_t len, size_t *entries)
{
    size_t numbered = 0, level = 0;
    for (const char *line = data, *end = data + len; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
        numbered += (size_t)is_numbered_record(line, n);
        level += (size_t)is_level_record(line, n);
        line = nl ? nl + 1 : end;
    }
    if (entries)
        *entries = numbered;
    if (numbered >= 2)
        return QG_FD_CONTENT_VOCABULARY;
    return level ? QG_FD_CONTENT_LEVEL : QG_FD_CONTENT_NONE;
}
