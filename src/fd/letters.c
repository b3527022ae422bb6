/* The static checks of `questgrid check`: includes whose file is missing,
 * and letters used in map rows that no letter line (nor the dialect's
 * built-in legend) of the load defines. Only a warning: a file read on its
 * own may get its letters from the file that includes it (q_pref.txt
 * through q_info.txt); resolving reports what is really undefined. */
#define _GNU_SOURCE
#include "fd/fd_internal.h"

#include <string.h>

static void warn_row(const fd_payload *pl, const qg_fd_record *rec, const unsigned char *defined,
                     unsigned char *reported, qg_diags *diags)
{
    for (size_t x = 2; x < rec->len && rec->text[x] != '\r'; x++) {
        unsigned char c = (unsigned char)rec->text[x];
        if (defined[c] || reported[c] || c >= 0x80)
            continue;
        if (c == ' ' && fd_row(pl->dialect)->space_passes)
            continue;
        reported[c] = 1;
        fd_line at = {pl->files[rec->file].path, rec->line, rec->text, rec->len, diags};
        fd_warning(&at, (int)x + 1, "letter '%c' is defined by no %s line of this file or its includes",
                   c, fd_letter_record(fd_row(pl->dialect)));
    }
}

qg_status qg_fd_check_letters(const qg_mapdef *def, qg_diags *diags)
{
    const fd_payload *pl = fd_payload_of(def);
    if (!pl)
        return QG_ERR_INVALID;
    unsigned char defined[256] = {0};
    unsigned char reported[256] = {0};
    const fd_dialect_row *row = fd_row(pl->dialect);
    for (size_t i = 0; i < pl->record_count; i++) {
        const qg_fd_record *rec = pl->records[i];
        if (rec->spec)
            defined[rec->spec->letter] = 1;
        /* a FORMATION room's digits are its formation monsters */
        if (rec->form == FD_REC_ROOM_TYPE && memmem(rec->text, rec->len, "FORMATION", 9))
            memset(&defined['1'], 1, 9);
    }
    for (size_t i = 0; i < pl->builtin_count; i++)
        defined[pl->builtin[i].letter] = 1;
    if (row->player_glyph)
        defined[row->player_glyph] = 1;
    for (size_t i = 0; i < pl->record_count; i++)
        if (pl->records[i]->kind == QG_FD_ROW && !pl->records[i]->skipped)
            warn_row(pl, pl->records[i], defined, reported, diags);
    return QG_OK;
}

qg_status qg_fd_check_includes(const qg_mapdef *def, qg_diags *diags)
{
    const fd_payload *pl = fd_payload_of(def);
    if (!pl)
        return QG_ERR_INVALID;
    for (size_t i = 0; i < pl->record_count; i++) {
        const qg_fd_record *rec = pl->records[i];
        if (rec->skipped || !(rec->kind == QG_FD_INCLUDE ? rec->missing : rec->fails))
            continue;
        fd_line at = {pl->files[rec->file].path, rec->line, rec->text, rec->len, diags};
        if (rec->kind == QG_FD_INCLUDE)
            fd_error(&at, 3, "%s", rec->missing);
        else
            fd_error(&at, rec->fails_col, "%s", rec->fails);
    }
    return QG_OK;
}
