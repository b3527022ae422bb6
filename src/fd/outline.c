/* A file's outline: resolving sizes the level before laying it out, and
 * most files lay every row they have, so their extent is known once read.
 * Only the records that can change the size are walked at resolve time. */
#include "fd/fd_internal.h"

#include <limits.h>
#include <stdlib.h>

size_t fd_row_len(const qg_fd_record *row)
{
    size_t len = row->len - 2;
    while (len && row->text[2 + len - 1] == '\r')
        len--;
    return len;
}

static int in_outline(const qg_fd_record *rec, int rows_vary)
{
    return rec->kind == QG_FD_COND || rec->kind == QG_FD_INCLUDE ||
           (rec->kind == QG_FD_ROW && rows_vary);
}

/* A ?: line before a row may skip it: then rows are counted at resolve
 * time. Rows a game never reads (the other language) never count. */
static void measure_rows(const fd_payload *pl, fd_file *f)
{
    int seen_cond = 0, y = 0;
    for (size_t i = 0; i < f->record_count; i++) {
        const qg_fd_record *rec = &f->lines[i];
        seen_cond |= rec->kind == QG_FD_COND;
        if (rec->kind != QG_FD_ROW || rec->skipped)
            continue;
        if (seen_cond)
            f->rows_vary = 1;
        size_t len = fd_row_len(rec);
        if (y < INT_MAX)
            y++;
        if (len && len > (size_t)f->width)
            f->width = len < INT_MAX ? (int)len : INT_MAX;
        if (len)
            f->height = y;
    }
}

int fd_outline_file(fd_payload *pl, size_t file)
{
    fd_file *f = &pl->files[file];
    measure_rows(pl, f);
    size_t n = 0;
    for (size_t i = 0; i < f->record_count; i++)
        n += in_outline(&f->lines[i], f->rows_vary);
    f->outline = malloc((n ? n : 1) * sizeof *f->outline);
    if (!f->outline)
        return 0;
    for (size_t i = 0; i < f->record_count; i++)
        if (in_outline(&f->lines[i], f->rows_vary))
            f->outline[f->outline_count++] = i;
    return 1;
}
