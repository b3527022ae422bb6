/* Telling a level file from the other files of a lib/edit directory. The
 * vocabularies (f_info, r_info, k_info, a_info, v_info, ...) share the
 * letter-colon line shape, F: and D: lines included (flags and
 * descriptions), so only their repeated N:index:name records tell them
 * apart (a level file has at most one N: line: ToME .map files name
 * themselves with one). Other data files are known by name, per dialect,
 * from the parser the game reads them with (its row's data_files); a hub
 * by its name too, when it has no map rows. What is left is told by its
 * records: map rows make a level; a file without rows that picks its
 * includes by quest or town number, or holds quest records, is a hub; any
 * other record makes a part that levels include. */
#include "fd/fd_internal.h"

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

/* N:id:level:name, a quest record head. */
static int is_quest_head(const char *line, size_t len)
{
    if (len < 6 || line[0] != 'N' || line[1] != ':')
        return 0;
    size_t n = digits_at(line, len, 2);
    if (!n || 2 + n >= len || line[2 + n] != ':')
        return 0;
    size_t m = digits_at(line, len, 3 + n);
    return m && 3 + n + m < len && line[3 + n + m] == ':';
}

/* A ?: line testing $QUEST_NUMBER or $TOWN, as hubs choose their
 * includes. */
static int picks_by_number(const char *line, size_t len)
{
    static const char *const vars[] = {"$QUEST_NUMBER", "$TOWN"};
    if (len < 2 || line[0] != '?' || line[1] != ':')
        return 0;
    for (size_t v = 0; v < 2; v++) {
        size_t n = strlen(vars[v]);
        for (const char *p = line, *end = line + len; p + n <= end; p++) {
            p = memchr(p, '$', (size_t)(end - p));
            if (!p || p + n > end)
                break;
            if (memcmp(p, vars[v], n) == 0 &&
                (p + n == end || !(isalnum((unsigned char)p[n]) || p[n] == '_')))
                return 1;
        }
    }
    return 0;
}

typedef struct tally {
    size_t numbered, records, rows, includes, quest_heads, picks;
} tally;

static void count_line(const fd_dialect_row *row, const char *line, size_t len, tally *t)
{
    t->numbered += (size_t)is_numbered_record(line, len);
    const fd_form *form;
    fd_rec rec = fd_record_of(row, line, len, &form);
    if (rec == FD_REC_UNKNOWN)
        return;
    t->records++;
    t->rows += rec == FD_REC_ROW;
    t->includes += rec == FD_REC_INCLUDE || rec == FD_REC_QUEST_FILE;
    t->quest_heads += rec == FD_REC_QUEST_HEAD && is_quest_head(line, len);
    t->picks += rec == FD_REC_COND && picks_by_number(line, len);
}

int qg_fd_is_game_data(qg_fd_dialect dialect, const char *path)
{
    const fd_dialect_row *row = fd_row_at((size_t)dialect);
    return row && fd_list_names(row->data_files, path) && !fd_list_names(row->map_files, path);
}

int qg_fd_is_unread(qg_fd_dialect dialect, const char *path)
{
    const fd_dialect_row *row = fd_row_at((size_t)dialect);
    return row && fd_list_names(row->unread_files, path);
}

const char *qg_fd_unread_reason(qg_fd_dialect dialect)
{
    const fd_dialect_row *row = fd_row_at((size_t)dialect);
    return row ? row->unread_why : NULL;
}

static int is_hub_name(const fd_dialect_row *row, const char *path)
{
    return (row->quest_hub && fd_list_names(row->quest_hub, path)) ||
           (row->town_hub && fd_list_names(row->town_hub, path));
}

qg_fd_content qg_fd_sniff(const char *path, const char *data, size_t len,
                          qg_fd_dialect dialect, size_t *entries)
{
    const fd_dialect_row *named = fd_row_at((size_t)dialect);
    if (!named)
        named = fd_row_at(QG_FD_AUTO);
    /* records are read in the dialect the file's own text says when the
     * directory says none */
    const fd_dialect_row *row =
        dialect == QG_FD_AUTO ? fd_row(fd_detect(path, data, len)) : named;
    tally t = {0};
    for (const char *line = data, *end = data + len; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
        while (n && line[n - 1] == '\r')
            n--;
        count_line(row, line, n, &t);
        line = nl ? nl + 1 : end;
    }
    if (entries)
        *entries = t.numbered;
    if (t.numbered >= 2)
        return QG_FD_CONTENT_VOCABULARY;
    if (t.records && qg_fd_is_unread(dialect, path))
        return QG_FD_CONTENT_UNREAD;
    if (!t.rows && is_hub_name(named, path))
        return QG_FD_CONTENT_HUB;
    if (qg_fd_is_game_data(dialect, path))
        return QG_FD_CONTENT_DATA;
    if (!t.rows && ((t.picks && t.includes) || t.quest_heads))
        return QG_FD_CONTENT_HUB;
    if (t.rows)
        return QG_FD_CONTENT_LEVEL;
    return t.records ? QG_FD_CONTENT_PART : QG_FD_CONTENT_NONE;
}
