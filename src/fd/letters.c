/* The static checks of `questgrid check`: includes whose file is missing,
 * and letters used in map rows that nothing defines where the game lays
 * them out.
 *
 * F: letter games keep one letter table that a load fills as it reads:
 * a row's letters are those the load defined before it, the load that
 * reaches the file (q_info.txt through q_pref.txt) included; a letter
 * still undefined is what an earlier load left in the table, a real
 * dependence on the order the game read its files in (a warning). The
 * ?: lines inside a file are not followed: a letter any branch before
 * the row defines counts.
 *
 * Room templates (FrogComposband, PosChengband 7) are built once the
 * whole file is read: a letter means what any L: line of the file says,
 * else the edit directory's global letters, else the letters the room
 * builder's code gives a meaning; '.' left undefined is the floor the
 * builder lays under every letter (rooms.c build_room_template_aux). */
#define _GNU_SOURCE
#include "fd/fd_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct row_check {
    const fd_payload *pl;
    const unsigned char *defined;
    unsigned char reported[256];
    const char *before;   /* the load read before the file, or NULL */
    qg_diags *diags;
} row_check;

static void warn_row(row_check *k, const qg_fd_record *rec)
{
    const fd_dialect_row *row = fd_row(k->pl->dialect);
    for (size_t x = 2; x < rec->len && rec->text[x] != '\r'; x++) {
        unsigned char c = (unsigned char)rec->text[x];
        if (k->defined[c] || k->reported[c] || c >= 0x80)
            continue;
        if (c == ' ' && row->space_passes)
            continue;
        k->reported[c] = 1;
        fd_line at = {k->pl->files[rec->file].path, rec->line, rec->text, rec->len, k->diags};
        if (row->room)
            fd_warning(&at, (int)x + 1, "letter '%c' is defined by no L: line of this file or "
                       "its includes, nor by the game: the room builder lays only the floor there "
                       "(what '.' means, else plain floor)",
                       c);
        else if (k->before)
            fd_warning(&at, (int)x + 1, "letter '%c' is defined by no F: line before it, of "
                       "this file or of what %s reads before it: %s places what an earlier "
                       "load left in its letter table (in a fresh game feature 0)", c, k->before,
                       row->title);
        else
            fd_warning(&at, (int)x + 1, "letter '%c' is defined by no F: line before it, of "
                       "this file or its includes: %s places what an earlier load left in its "
                       "letter table (in a fresh game feature 0)", c, row->title);
    }
}

/* ---- room templates ---- */

/* The room type's kind, as the load's first T: line says. */
static qg_map_kind room_kind(const fd_payload *pl, const fd_dialect_row *row)
{
    for (size_t i = 0; i < pl->record_count; i++)
        if (pl->records[i]->form == FD_REC_ROOM_TYPE)
            return fd_kind_of_record(row, pl->records[i]);
    return QG_KIND_UNKNOWN;
}

static void check_room(const fd_payload *pl, qg_diags *diags)
{
    const fd_dialect_row *row = fd_row(pl->dialect);
    unsigned char defined[256] = {0};
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
    for (const fd_fixed_letter *f = row->room->fixed; f->letter; f++)
        defined[f->letter] = 1;
    if (row->player_glyph)
        defined[row->player_glyph] = 1;
    /* wilderness rooms lay no floor first (they keep the ground) */
    defined['.'] |= room_kind(pl, row) != QG_KIND_WILDERNESS;
    row_check k = {pl, defined, {0}, NULL, diags};
    for (size_t i = 0; i < pl->record_count; i++)
        if (pl->records[i]->kind == QG_FD_ROW && !pl->records[i]->skipped)
            warn_row(&k, pl->records[i]);
}

/* ---- letter tables ---- */

typedef struct table_check {
    const fd_payload *pl;
    unsigned char (*below)[256]; /* per file: the letters it and its
                                    includes define */
    unsigned char *done;          /* below[] computed */
    size_t budget;
} table_check;

static void add_letters(unsigned char *to, const unsigned char *from)
{
    for (int c = 0; c < 256; c++)
        to[c] |= from[c];
}

/* The letters file and its includes define, anywhere in them (includes
 * form no cycle: the reader refuses one). */
static const unsigned char *letters_below(table_check *t, size_t file)
{
    unsigned char *set = t->below[file];
    if (t->done[file])
        return set;
    t->done[file] = 1;
    const fd_file *f = &t->pl->files[file];
    for (size_t i = 0; i < f->record_count; i++) {
        const qg_fd_record *rec = &f->lines[i];
        if (rec->kind == QG_FD_FEATURE && rec->spec)
            set[rec->spec->letter] = 1;
        else if (rec->kind == QG_FD_INCLUDE && rec->include >= 0)
            add_letters(set, letters_below(t, (size_t)rec->include));
    }
    return set;
}

/* One file's rows, with the letters in force when the load gets to it
 * (context) and those its lines define as they come. */
static void check_file(table_check *t, size_t file, const qg_fd_spec *const *context,
                       qg_diags *diags)
{
    const fd_payload *pl = t->pl;
    const fd_dialect_row *row = fd_row(pl->dialect);
    unsigned char defined[256];
    for (int c = 0; c < 256; c++)
        defined[c] = context[c] != NULL;
    for (size_t i = 0; i < pl->builtin_count; i++)
        defined[pl->builtin[i].letter] = 1;
    if (row->player_glyph)
        defined[row->player_glyph] = 1;
    const char *top = strrchr(pl->files[0].path, '/');
    row_check k = {pl, defined, {0}, file ? (top ? top + 1 : pl->files[0].path) : pl->context_hub,
                   diags};
    const fd_file *f = &pl->files[file];
    for (size_t i = 0; i < f->record_count; i++) {
        const qg_fd_record *rec = &f->lines[i];
        if (rec->kind == QG_FD_FEATURE && rec->spec)
            defined[rec->spec->letter] = 1;
        else if (rec->kind == QG_FD_INCLUDE && rec->include >= 0)
            add_letters(defined, letters_below(t, (size_t)rec->include));
        else if (rec->kind == QG_FD_ROW && !rec->skipped)
            warn_row(&k, rec);
    }
}

static qg_status check_table(const fd_payload *pl, qg_diags *diags)
{
    table_check t = {pl, calloc(pl->file_count, sizeof *t.below),
                     calloc(pl->file_count, 1), FD_WALK_LIMIT};
    qg_status st = t.below && t.done ? QG_OK : QG_ERR_NOMEM;
    const qg_fd_spec *context[256];
    for (size_t file = 0; st == QG_OK && file < pl->file_count; file++) {
        int reached = fd_letters_at(pl, file, pl->context, context, &t.budget,
                                    QG_FD_INCLUDE_DEPTH);
        if (reached < 0 && t.budget) {
            st = QG_ERR_NOMEM;
        } else if (reached < 0) {
            qg_diags_add(diags, QG_NOTE, pl->files[file].path, 0, 0, NULL, 0,
                         "the letters of this file and of the %zu after it are not checked: "
                         "following the includes to them passes more than %zu lines",
                         pl->file_count - file - 1, FD_WALK_LIMIT);
            break;
        } else {
            check_file(&t, file, context, diags);
        }
    }
    free(t.below);
    free(t.done);
    return st;
}

qg_status qg_fd_check_letters(const qg_mapdef *def, qg_diags *diags)
{
    const fd_payload *pl = fd_payload_of(def);
    if (!pl)
        return QG_ERR_INVALID;
    /* the game never lays out a file no load of it reaches */
    if (pl->unreached)
        return QG_OK;
    if (fd_row(pl->dialect)->room) {
        check_room(pl, diags);
        return QG_OK;
    }
    return check_table(pl, diags);
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
