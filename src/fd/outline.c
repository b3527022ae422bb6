/* A file's outline: resolving sizes the level before laying it out, and a
 * file lays every row it has until its first ?: line, so the extent of
 * those rows is known once read. Only the records that can change the
 * size are walked at resolve time. */
#include "fd/fd_internal.h"
#include "core/buf.h"

#include <limits.h>

size_t fd_row_len(const qg_fd_record *row)
{
    size_t len = row->len - 2;
    while (len && row->text[2 + len - 1] == '\r')
        len--;
    return len;
}

size_t fd_row_laid(const fd_dialect_row *row, const qg_fd_record *rec)
{
    size_t len = fd_row_len(rec);
    return row->row_stop && len > (size_t)row->row_stop ? (size_t)row->row_stop : len;
}

int fd_outline_add(fd_file *f, const fd_dialect_row *row, const qg_fd_record *rec, size_t index)
{
    if (rec->kind == QG_FD_ROW && !f->seen_cond) {
        if (rec->skipped)
            return 1;
        size_t len = fd_row_laid(row, rec);
        if (f->fixed_rows < INT_MAX)
            f->fixed_rows++;
        if (len && len > (size_t)f->width)
            f->width = len < INT_MAX ? (int)len : INT_MAX;
        if (len)
            f->height = f->fixed_rows;
        return 1;
    }
    /* A record head (a quest's N:, a map's name:) chooses which rows are
     * read, as a ?: line does. */
    int head = rec->form == FD_REC_QUEST_HEAD || rec->form == FD_REC_MAP_HEAD;
    if (rec->kind != QG_FD_COND && rec->kind != QG_FD_INCLUDE && rec->kind != QG_FD_ROW && !head)
        return 1;
    f->seen_cond |= rec->kind == QG_FD_COND || head;
    size_t *slot = QG_PUSH(f->outline, f->outline_count, f->outline_cap);
    if (!slot)
        return 0;
    *slot = index;
    return 1;
}
