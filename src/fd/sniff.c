/* Telling a level file from the other files of a lib/edit directory: the
 * vocabularies (f_info, r_info, k_info, a_info, v_info, ...) share the
 * letter-colon line shape, F: and D: lines included (flags and
 * descriptions), so only their repeated N:index:name records tell them
 * apart. A level file has at most one N: line (ToME .map files name
 * themselves with one). */
#include "questgrid/fd.h"

#include <ctype.h>
#include <string.h>

static size_t digits_at(const char *line, size_t len, size_t i)
{
    size_t start = i;
    while (i < len && isdigit((unsigned char)line[i]))
        i++;
    return i - start;
}

/* N:index:name; a quest record head N:id:level:name (FrogComposband's
 * q_info.txt) is not one. */
static int is_numbered_record(const char *line, size_t len)
{
    if (len < 4 || line[0] != 'N' || line[1] != ':')
        return 0;
    size_t n = digits_at(line, len, 2);
    if (!n || 2 + n >= len || line[2 + n] != ':')
        return 0;
    size_t m = digits_at(line, len, 3 + n);
    return !(m && 3 + n + m < len && line[3 + n + m] == ':');
}

/* The records a level, an include or a hub is made of. */
static int is_level_record(const char *line, size_t len)
{
    return len >= 2 && line[1] == ':' && strchr("FDPQ%?BWMTLN", line[0]) && line[0];
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
