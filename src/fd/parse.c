/* Reading an F:/D: file and everything it includes into records. Every
 * line becomes a record (comments and blank lines too), so a writer can
 * reproduce the files; every %: include is followed whatever the ?: lines
 * say, so one definition holds a whole load. */
#define _GNU_SOURCE
#include "fd/fd_internal.h"
#include "core/buf.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct parser {
    fd_reader r;
    fd_roots *roots;
    size_t included;  /* bytes the includes have read */
    int over_limit;   /* FD_INCLUDED_LIMIT reached: no include is read */
} parser;

static size_t parse_file(parser *p, const char *path, const char *data, size_t size);

static qg_fd_record *new_record(parser *p, size_t file, qg_fd_kind kind, fd_rec form,
                                const char *text, size_t len, int line)
{
    fd_payload *pl = p->r.pl;
    fd_file *f = &pl->files[file];
    qg_fd_record **slot = QG_PUSH(pl->records, pl->record_count, pl->record_cap);
    if (!slot)
        return NULL;
    qg_fd_record *rec = &f->lines[f->record_count++];
    *slot = rec;
    *rec = (qg_fd_record){.kind = kind, .form = (int)form, .line = line, .text = text,
                          .len = len, .file = file, .cond = -1, .include = -1};
    return rec;
}

/* What the line is: blank, a comment, or a record of the dialect. */
static qg_fd_kind classify(const fd_dialect_row *row, const char *text, size_t len,
                           fd_rec *rec, const fd_form **form)
{
    *rec = FD_REC_KEPT;
    *form = NULL;
    if (len == 0 || text[0] == ' ' || text[0] == '\t' || text[0] == '\r' ||
        text[0] == '\v' || text[0] == '\f')
        return QG_FD_BLANK;
    if (text[0] == '#')
        return QG_FD_COMMENT;
    switch ((*rec = fd_record_of(row, text, len, form))) {
    case FD_REC_COND: return QG_FD_COND;
    case FD_REC_INCLUDE:
    case FD_REC_QUEST_FILE: return QG_FD_INCLUDE;
    case FD_REC_LETTER:
    case FD_REC_GRID: return QG_FD_FEATURE;
    case FD_REC_ROW: return QG_FD_ROW;
    case FD_REC_QUEST:
    case FD_REC_QUEST_HEAD: return QG_FD_QUEST;
    case FD_REC_PLAYER: return QG_FD_PLAYER;
    default: return QG_FD_OTHER;
    }
}

/* Hengband keeps two languages in one file: Q:$/B:$ lines are English,
 * plain Q:/B: lines Japanese; a game reads one of them. */
static int language_skips(const parser *p, const char *text, size_t len)
{
    if (!p->r.row->bilingual || len < 2 || (text[0] != 'Q' && text[0] != 'B'))
        return 0;
    int english = len > 2 && text[2] == '$';
    return p->r.opt->japanese ? english : !english;
}

static int file_exists(const qg_fd_options *opt, const char *path)
{
    if (opt->source) {
        const char *data;
        size_t len;
        return opt->source(opt->source_user, path, &data, &len);
    }
    /* stat, not open: opening a FIFO would block. */
    struct stat st;
    return stat(path, &st) == 0;
}

/* Where an include was looked for and what was found. */
typedef struct include_search {
    char *path;     /* the file, or NULL */
    char *tried;    /* not found: the places looked at */
    char *outside;  /* refused: the place outside the roots it names */
} include_search;

static void search_free(include_search *s)
{
    free(s->path);
    free(s->tried);
    free(s->outside);
}

/* One place an include may be at: a place outside the roots is never
 * looked at (not even whether it exists). 0 when memory ran out. */
static int try_place(const qg_fd_options *opt, fd_roots *roots, char *place,
                     include_search *s, qg_buf *tried)
{
    char *where;
    int admitted = fd_roots_admit(roots, place, &where);
    if (admitted < 0) {
        free(place);
        return 0;
    }
    if (!admitted) {
        if (!s->outside)
            s->outside = where;
        else
            free(where);
        free(place);
    } else if (file_exists(opt, place)) {
        s->path = place;
    } else {
        qg_buf_printf(tried, "%s%s", tried->len ? " and " : "", place);
        free(place);
    }
    return 1;
}

/* The including file's directory, then the edit directory; 0 when memory
 * ran out. */
static int find_include(const qg_fd_options *opt, fd_roots *roots, const char *from,
                        const char *name, include_search *s)
{
    memset(s, 0, sizeof *s);
    const char *edit = opt->edit_dir;
    char *dir = qg_path_dirname(from);
    char *first = dir ? qg_path_join(dir, name) : NULL;
    free(dir);
    if (!first)
        return 0;
    char *second = NULL;
    if (edit && edit[0]) {
        if (!(second = qg_path_join(edit, name))) {
            free(first);
            return 0;
        }
        if (strcmp(first, second) == 0) {
            free(second);
            second = NULL;
        }
    }
    qg_buf tried;
    qg_buf_init(&tried);
    int ok = try_place(opt, roots, first, s, &tried);
    if (ok && !s->path && second)
        ok = try_place(opt, roots, second, s, &tried);
    else
        free(second);
    ok = ok && !tried.failed;
    if (ok && !s->path && !s->outside)
        ok = (s->tried = qg_buf_take(&tried)) != NULL;
    qg_buf_free(&tried);
    if (!ok) {
        search_free(s);
        memset(s, 0, sizeof *s);
    }
    return ok;
}

/* Reads a file through the options' source, or from disk; *owned is set
 * when the caller must free *data. */
static qg_status read_source(const qg_fd_options *opt, const char *path, const char **data,
                             size_t *len, char **owned, qg_diags *diags)
{
    *owned = NULL;
    if (opt->source)
        return opt->source(opt->source_user, path, data, len) ? QG_OK : QG_ERR_NOTFOUND;
    qg_status st = qg_read_file(path, QG_MAX_TEXT_FILE, owned, len, diags);
    *data = *owned;
    return st;
}

/* A hub (q_info.txt) tells nothing itself: the files it includes do.
 * *failed is set when memory ran out (the answer would be a guess). */
static qg_fd_dialect detect_load(const char *path, const char *data, size_t len,
                                 const qg_fd_options *opt, fd_roots *roots, int depth,
                                 int *failed)
{
    qg_fd_dialect d = fd_detect(path, data, len);
    const char *end = data + len;
    for (const char *line = data; d == QG_FD_AUTO && depth < 4 && line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
        while (n && line[n - 1] == '\r')
            n--;
        int include = n > 2 && line[0] == '%' && line[1] == ':';
        char *name = include ? qg_strndup(line + 2, n - 2) : NULL;
        include_search found = {0};
        int searched = name && find_include(opt, roots, path, name, &found);
        const char *text;
        char *owned;
        size_t size;
        qg_status st = found.path ? read_source(opt, found.path, &text, &size, &owned, NULL)
                                  : QG_ERR_NOTFOUND;
        if (st == QG_OK) {
            d = detect_load(found.path, text, size, opt, roots, depth + 1, failed);
            free(owned);
        }
        if ((include && !searched) || st == QG_ERR_NOMEM)
            *failed = 1;
        free(name);
        search_free(&found);
        line = nl ? nl + 1 : end;
    }
    return d;
}

static long known_file(const fd_payload *pl, const char *path)
{
    for (size_t i = 0; i < pl->file_count; i++)
        if (strcmp(pl->files[i].path, path) == 0)
            return (long)i;
    return -1;
}

/* Past a limit on what a load's includes read in all: one error, and no
 * include is read after it. */
static void stop_including(parser *p, const fd_line *at, const char *what, const char *path)
{
    fd_error(at, 3, "includes have read %s: '%s' and every include after it are not read", what,
             path);
    p->over_limit = 1;
}

/* Reads and parses an include found at path; its file index, or -1. A
 * file served by the options' source has nothing to report. */
static long read_include(parser *p, const fd_line *at, const char *path)
{
    if (p->over_limit)  /* the error said so for every later include */
        return -1;
    char what[64];
    if (p->r.pl->file_count >= FD_FILE_LIMIT) {
        snprintf(what, sizeof what, "%d files", FD_FILE_LIMIT);
        stop_including(p, at, what, path);
        return -1;
    }
    qg_diags *local = p->r.opt->source ? NULL : qg_diags_new();
    if (!p->r.opt->source && !local) {
        p->r.failed = 1;
        return -1;
    }
    const char *data;
    char *owned;
    size_t size;
    long index = -1;
    qg_status st = read_source(p->r.opt, path, &data, &size, &owned, local);
    if (st == QG_OK && size > FD_INCLUDED_LIMIT - p->included) {
        snprintf(what, sizeof what, "more than %zu MiB in all", (size_t)FD_INCLUDED_LIMIT >> 20);
        stop_including(p, at, what, path);
        free(owned);
    } else if (st == QG_OK) {
        p->included += size;
        p->r.depth++;
        size_t file = parse_file(p, path, data, size);
        p->r.depth--;
        free(owned);
        if (file == (size_t)-1)
            p->r.failed = 1;
        else
            index = (long)file;
    } else if (st == QG_ERR_NOMEM) {
        p->r.failed = 1;
    } else {
        const qg_diag *d = qg_diags_get(local, 0);
        fd_error(at, 3, "cannot read include '%s': %s", path, d ? d->message : "error");
    }
    qg_diags_free(local);
    return index;
}

/* A file that cannot be found is reported where a load reaches its %:
 * line, as the games only open the includes they follow
 * (qg_fd_check_includes lists them all). */
static long include_file(parser *p, const fd_line *at, qg_fd_record *rec, size_t from,
                         const char *name, size_t name_len)
{
    fd_payload *pl = p->r.pl;
    char *wanted = qg_strndup(name, name_len);
    include_search found;
    long index = -1;
    if (!wanted || !find_include(p->r.opt, p->roots, pl->files[from].path, wanted, &found)) {
        free(wanted);
        p->r.failed = 1;
        return -1;
    }
    const char *path = found.path;
    if (found.outside) {
        char *why = fd_roots_refusal(p->roots, wanted, found.outside);
        if (why)
            fd_error(at, 3, "%s", why);
        p->r.failed |= !why;
        free(why);
    } else if (!path) {
        qg_buf why;
        qg_buf_init(&why);
        qg_buf_printf(&why, "cannot find include '%s' (looked for %s)", wanted, found.tried);
        rec->missing = why.failed ? NULL : fd_keep(&p->r, why.data, why.len);
        p->r.failed |= why.failed;
        qg_buf_free(&why);
    } else if ((index = known_file(pl, path)) >= 0) {
        if (pl->files[index].open) {
            fd_error(at, 3, "include cycle: '%s' is already being read", path);
            index = -1;
        }
    } else if (p->r.depth >= p->r.opt->max_include_depth) {
        fd_error(at, 3, "includes nested deeper than %d files", p->r.opt->max_include_depth);
    } else {
        index = read_include(p, at, path);
    }
    free(wanted);
    search_free(&found);
    return index;
}

/* A row wider than the game lays: what it drops, named. */
static void wide_row(const fd_dialect_row *dialect, const fd_line *at, size_t len)
{
    int stop = dialect->row_stop;
    if (!stop) {
        /* room templates (parse_room_line) and Angband 4's vaults keep the
         * row whole: the level is as wide, past any the games build */
        if (len > QG_FD_MAX_WID)
            fd_warning(at, QG_FD_MAX_WID + 3,
                       "row of %zu columns, wider than the %d columns of any level the games "
                       "build: the game (%s) reads the row whole",
                       len, QG_FD_MAX_WID, dialect->title);
        return;
    }
    if (len <= (size_t)stop)
        return;
    char dropped[2 * QG_DECIMAL_SIZE + 16];
    if (len == (size_t)stop + 1)
        snprintf(dropped, sizeof dropped, "column %d", stop);
    else
        snprintf(dropped, sizeof dropped, "columns %d-%zu", stop, len - 1);
    fd_warning(at, stop + 3,
               "row of %zu columns: %s lays a row only up to its map's width (%d columns, "
               "MAX_WID) and drops map %s, as questgrid does",
               len, dialect->title, stop, dropped);
}

static void check_row(const fd_dialect_row *dialect, const fd_line *at, const char *row,
                      size_t len)
{
    size_t i = 0;
    /* Eight bytes at a time: rows are long and almost always ASCII. */
    for (uint64_t word; i + 8 <= len; i += 8) {
        memcpy(&word, row + i, 8);
        if (word & UINT64_C(0x8080808080808080))
            break;
    }
    for (; i < len; i++)
        if ((unsigned char)row[i] >= 0x80) {
            fd_error(at, (int)i + 3, "non-ASCII byte \\x%02X in a D: row (letters are ASCII)",
                     (unsigned char)row[i]);
            break;
        }
    wide_row(dialect, at, len);
}

static void read_player(const fd_line *at, const char *s, size_t len, qg_fd_record *rec)
{
    fd_tok tok[3];
    size_t n = fd_tokenize(s, len, 3, 2, tok);
    rec->y = rec->x = -1;
    if (n < 2) {
        fd_error(at, 1, "too few fields: a P: line needs y:x");
        return;
    }
    int32_t y, x;
    int ok = fd_number(at, &tok[0], "player row", &y);
    ok &= fd_number(at, &tok[1], "player column", &x);
    if (ok && (y < 0 || x < 0)) {
        fd_error(at, y < 0 ? tok[0].col : tok[1].col, "negative player position");
        ok = 0;
    }
    if (ok) {
        rec->y = y;
        rec->x = x;
    }
}

static int add_spec(parser *p, const fd_line *at, const char *s, size_t len, qg_fd_record *rec,
                    int grid)
{
    qg_fd_spec *spec = qg_arena_alloc(&p->r.pl->store, sizeof *spec);
    if (!spec)
        return 0;
    if (grid && p->r.row->room)
        fd_read_room_grid(&p->r, at, s, len, spec, rec, 0);
    else if (grid)
        fd_read_grid(&p->r, at, s, len, spec);
    else
        fd_read_feature(&p->r, at, s, len, spec);
    rec->spec = spec;
    return !p->r.failed;
}

static int add_quest(parser *p, const fd_line *at, const char *s, size_t len, qg_fd_record *rec,
                     int head)
{
    qg_fd_quest *quest = qg_arena_alloc(&p->r.pl->store, sizeof *quest);
    if (!quest)
        return 0;
    if (head)
        fd_read_quest_head(&p->r, at, s, len, quest);
    else
        fd_read_quest(&p->r, at, s, len, quest);
    rec->quest = quest;
    return !p->r.failed;
}

/* Records that change nothing on the map: checked, kept. */
static void other_record(const fd_dialect_row *row, const fd_line *at, const char *text,
                         size_t len, fd_rec form, const fd_form *record_form)
{
    switch (form) {
    case FD_REC_MAP_ROWS:
    case FD_REC_MAP_COLUMNS: {
        fd_tok tok[2];
        size_t key = strlen(record_form->key) + 1;
        fd_tokenize(text + key, len - key, (int)key + 1, 1, tok);
        int32_t value;
        if (fd_number(at, &tok[0], record_form->key, &value) && value < 0)
            fd_error(at, tok[0].col, "negative %s", record_form->key);
        return;
    }
    case FD_REC_UNKNOWN:
        if (len >= 2 && text[1] == ':' && row->skips_unknown)
            fd_warning(at, 1, "unknown record '%c:': the game skips the line (its "
                       "parse_room_line reads no such record)", text[0]);
        else if (len >= 2 && text[1] == ':')
            fd_warning(at, 1, "unknown record '%c:': the games stop reading the file here unless "
                       "?: skips it", text[0]);
        else
            fd_error(at, 2, "expected a record 'X:' at the start of the line");
        return;
    default:
        return;
    }
}

/* One line; returns 0 only when memory ran out. */
static int parse_line(parser *p, size_t file, const char *text, size_t raw_len,
                      int line_no, long *cond, int *seen_row)
{
    size_t len = raw_len;
    while (len && text[len - 1] == '\r')
        len--;
    fd_line at = {p->r.pl->files[file].path, line_no, text, len, p->r.diags};
    fd_rec form;
    const fd_form *record_form;
    qg_fd_kind kind = classify(p->r.row, text, len, &form, &record_form);
    qg_fd_record *rec = new_record(p, file, kind, form, text, raw_len, line_no);
    if (!rec)
        return 0;
    rec->skipped = language_skips(p, text, len);
    if (kind == QG_FD_COND)
        *cond = (long)(p->r.pl->record_count - 1);
    rec->cond = *cond;
    fd_file *f = &p->r.pl->files[file];
    if (!fd_outline_add(f, p->r.row, rec, f->record_count - 1))
        return 0;
    if (rec->skipped)
        return 1;
    switch (kind) {
    case QG_FD_COND:
        if (p->r.diags)
            fd_check_expr(&p->r, &at);
        return 1;
    case QG_FD_INCLUDE: {
        if (p->r.opt->no_includes)
            return 1;
        size_t name_len = len - 2;
        while (p->r.row->trims_includes && name_len && text[2 + name_len - 1] == ' ')
            name_len--;
        rec->include = include_file(p, &at, rec, file, text + 2, name_len);
        return !p->r.failed;
    }
    case QG_FD_FEATURE:
        return add_spec(p, &at, text + 2, len - 2, rec, form == FD_REC_GRID);
    case QG_FD_QUEST:
        return add_quest(p, &at, text + 2, len - 2, rec, form == FD_REC_QUEST_HEAD);
    case QG_FD_ROW:
        *seen_row = 1;
        check_row(p->r.row, &at, text + 2, len - 2);
        return 1;
    case QG_FD_PLAYER:
        /* ToME only places the player; the others size the level here. */
        if (!*seen_row && p->r.row->player_sizes)
            fd_error(&at, 1, "P: before any D: row: the games size the level from the rows read so far");
        read_player(&at, text + 2, len - 2, rec);
        return 1;
    case QG_FD_OTHER:
        other_record(p->r.row, &at, text, len, form, record_form);
        return 1;
    default:
        return 1;
    }
}

/* Lines in the text (one more than its newlines). Sixteen byte counters
 * that cannot overflow within a block of 255 steps: compilers turn the
 * inner loop into a vector compare and subtract. */
static size_t count_lines(const char *text, size_t size)
{
    enum { LANES = 16, STEPS = 255 };
    size_t lines = 1, i = 0;
    while (size - i >= LANES) {
        size_t steps = (size - i) / LANES < STEPS ? (size - i) / LANES : STEPS;
        unsigned char lane[LANES] = {0};
        for (size_t end = i + steps * LANES; i < end; i += LANES)
            for (int k = 0; k < LANES; k++)
                lane[k] += text[i + k] == '\n';
        for (int k = 0; k < LANES; k++)
            lines += lane[k];
    }
    for (; i < size; i++)
        lines += text[i] == '\n';
    return lines;
}

static size_t parse_file(parser *p, const char *path, const char *data, size_t size)
{
    fd_payload *pl = p->r.pl;
    fd_file *f = QG_PUSH(pl->files, pl->file_count, pl->file_cap);
    if (!f)
        return (size_t)-1;
    memset(f, 0, sizeof *f);
    size_t file = pl->file_count - 1;
    f->path = qg_strdup(path);
    f->data = malloc(size + 1);
    if (!f->path || !f->data)
        return (size_t)-1;
    memcpy(f->data, data, size);
    f->data[size] = '\0';
    f->size = size;
    f->open = 1;
    char *text = f->data;
    char *end = text + size;
    size_t lines = count_lines(text, size);
    f->lines = qg_arena_array_uncleared(&pl->store, lines, sizeof *f->lines);
    if (!f->lines)
        return (size_t)-1;
    long cond = -1;
    int seen_row = 0;
    for (int line_no = 1; text < end; line_no++) {
        char *nl = memchr(text, '\n', (size_t)(end - text));
        size_t len = nl ? (size_t)(nl - text) : (size_t)(end - text);
        if (nl)
            *nl = '\0';
        if (!parse_line(p, file, text, len, line_no, &cond, &seen_row))
            return (size_t)-1;
        text += len + 1;
    }
    f = &pl->files[file];
    f->open = 0;
    f->outline_base = pl->outline_total;
    pl->outline_total += f->outline_count;
    return file;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* What the load is: the first record in reading order that tells. */
static qg_map_kind kind_of_load(const fd_payload *pl, const fd_dialect_row *row)
{
    qg_map_kind kind = QG_KIND_UNKNOWN;
    for (size_t i = 0; i < pl->record_count && kind == QG_KIND_UNKNOWN; i++)
        kind = fd_kind_of_record(row, pl->records[i]);
    return kind;
}

static qg_status describe(qg_mapdef *def, const fd_payload *pl, const char *path,
                          qg_map_kind asked)
{
    const fd_file *f = &pl->files[0];
    qg_status st = qg_mapdef_set_file(def, path, 1);
    qg_mapdef_set_kind(def, asked != QG_KIND_UNKNOWN ? asked
                                                     : kind_of_load(pl, fd_row(pl->dialect)));
    const qg_fd_quest *first = NULL;
    const char *name = NULL;
    for (size_t i = 0; i < f->record_count && st == QG_OK; i++) {
        const qg_fd_record *rec = &f->lines[i];
        if (rec->kind == QG_FD_ROW) {
            st = qg_mapdef_add_row(def, rec->text + 2, fd_row_len(rec), rec->line);
        } else if (rec->kind == QG_FD_QUEST && rec->quest) {
            if (!first)
                first = rec->quest;
            if (!name && rec->quest->sub == 'N' && rec->quest->number == first->number)
                name = rec->quest->text;
        }
    }
    char number[QG_DECIMAL_SIZE];
    if (st == QG_OK)
        st = qg_mapdef_add_property(def, "dialect", qg_fd_dialect_name(pl->dialect));
    if (st == QG_OK && first)
        st = qg_mapdef_add_property(def, "quest", qg_decimal(number, first->number));
    if (st == QG_OK && name)
        st = qg_mapdef_add_property(def, "desc", name);
    if (st == QG_OK && def->row_count) {
        st = qg_mapdef_add_property(def, "width", qg_decimal(number, qg_mapdef_width(def)));
        if (st == QG_OK)
            st = qg_mapdef_add_property(def, "height",
                                        qg_decimal(number, (long long)def->row_count));
    }
    return st;
}

/* The global letters of the edit directory's file (FrogComposband's
 * v_info.txt): the L: lines parse_v_info reads before the first N: record
 * starts a room, counted (0 when there is no such file, or when memory
 * ran out: *failed). v_info.txt's first %: include (rooms.txt) starts
 * with an N: record, so they are the lines before that include. */
typedef struct globals {
    char *path;
    const char *data;
    char *owned;
    size_t len, lines;
} globals;

static void find_globals(parser *p, globals *g)
{
    const qg_fd_options *opt = p->r.opt;
    memset(g, 0, sizeof *g);
    if (!p->r.row->global_letters || !opt->edit_dir || !opt->edit_dir[0])
        return;
    g->path = qg_path_join(opt->edit_dir, p->r.row->global_letters);
    if (!g->path || !file_exists(opt, g->path) ||
        read_source(opt, g->path, &g->data, &g->len, &g->owned, NULL) != QG_OK) {
        p->r.failed |= !g->path;
        g->data = NULL;
        return;
    }
    for (const char *s = g->data, *end = g->data + g->len; s < end;) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        if (end - s >= 2 && (s[0] == 'N' || s[0] == '%') && s[1] == ':')
            break;
        g->lines += end - s > 2 && s[0] == 'L' && s[1] == ':';
        s = nl ? nl + 1 : end;
    }
}

static void read_globals(parser *p, const globals *g)
{
    fd_payload *pl = p->r.pl;
    int line = 1;
    for (const char *s = g->data, *end = g->data + g->len; s < end; line++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
        while (n && s[n - 1] == '\r')
            n--;
        if (n >= 2 && (s[0] == 'N' || s[0] == '%') && s[1] == ':')
            break;
        if (n > 2 && s[0] == 'L' && s[1] == ':') {
            fd_line at = {g->path, line, s, n, p->r.diags};
            qg_fd_spec *spec = &pl->builtin[pl->builtin_count++];
            if (p->r.row->room)
                fd_read_room_grid(&p->r, &at, s + 2, n - 2, spec, NULL, 0);
            else
                fd_read_grid(&p->r, &at, s + 2, n - 2, spec);
        }
        s = nl ? nl + 1 : end;
    }
}

/* The dialect's built-in letters (a vault file's legend, the letters any
 * room template may use), read with the L: reader; the edit directory's
 * global letters replace the table's. A symbol that stands for a monster
 * of that symbol is the legend's '.' with that monster on it. */
static int read_builtin(parser *p)
{
    const fd_dialect_row *row = p->r.row;
    size_t count = 0, monsters = row->glyph_monsters ? strlen(row->glyph_monsters) : 0;
    globals g;
    find_globals(p, &g);
    while (!g.lines && row->legend && row->legend[count])
        count++;
    fd_payload *pl = p->r.pl;
    if (count + g.lines + monsters)
        pl->builtin = qg_arena_alloc(&pl->store,
                                     (count + g.lines + monsters) * sizeof *pl->builtin);
    if (g.lines && pl->builtin)
        read_globals(p, &g);
    free(g.owned);
    free(g.path);
    if (!count && !monsters)
        return !p->r.failed && (!g.lines || pl->builtin);
    if (!pl->builtin)
        return 0;
    const qg_fd_spec *floor = NULL;
    for (size_t i = 0; i < count; i++) {
        /* a tag of the table the variant's vocabulary lacks is no fault of
         * the file; a map using it shows the tag as the feature's name */
        const char *text = row->legend[i];
        fd_line at = {"(built-in legend)", (int)i + 1, text, strlen(text), NULL};
        qg_fd_spec *spec = &pl->builtin[pl->builtin_count++];
        if (row->room)
            fd_read_room_grid(&p->r, &at, text, strlen(text), spec, NULL, 1);
        else
            fd_read_grid(&p->r, &at, text, strlen(text), spec);
        if (spec->letter == '.')
            floor = spec;
    }
    for (size_t i = 0; i < monsters; i++) {
        qg_fd_spec *spec = &pl->builtin[pl->builtin_count++];
        if (floor)
            *spec = *floor;
        else
            memset(spec, 0, sizeof *spec);
        spec->letter = (unsigned char)row->glyph_monsters[i];
        spec->things[QG_SLOT_MONSTER] =
            (qg_thing){QG_THING_NAME, -1, fd_keep(&p->r, row->glyph_monsters + i, 1), 0, 0, 0};
    }
    return !p->r.failed;
}

/* What the room builder's own code puts on its fixed letters in the second
 * pass (a meaner monster, the Pattern's reward), read with the L: reader
 * like the legend. */
static int read_fixed_things(parser *p)
{
    const fd_dialect_row *row = p->r.row;
    fd_payload *pl = p->r.pl;
    size_t count = 0;
    while (row->room && row->room->fixed[count].letter)
        count++;
    if (!count)
        return 1;
    pl->fixed_things = qg_arena_alloc(&pl->store, count * sizeof *pl->fixed_things);
    if (!pl->fixed_things)
        return 0;
    for (size_t i = 0; i < count; i++) {
        const fd_fixed_letter *f = &row->room->fixed[i];
        memset(&pl->fixed_things[i], 0, sizeof pl->fixed_things[i]);
        if (!f->thing)
            continue;
        char text[64];
        snprintf(text, sizeof text, "%c:%s", f->letter, f->thing);
        fd_line at = {"(built-in letters)", (int)i + 1, text, strlen(text), NULL};
        fd_read_room_grid(&p->r, &at, text, strlen(text), &pl->fixed_things[i], NULL, 1);
    }
    return !p->r.failed;
}

static int vocab_has_tags(const qg_vocab *vocab)
{
    size_t n = qg_vocab_size(vocab, QG_VOCAB_FEATURE);
    for (int i = 0; n && i < 4096; i++) {
        const char *tag = qg_vocab_tag(vocab, QG_VOCAB_FEATURE, i);
        if (!tag)
            continue;
        for (const char *c = tag; *c; c++)
            if (!((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'))
                return 0;
        return 1;
    }
    return 0;
}

qg_status fd_parse(const char *path, const char *data, size_t len,
                   const qg_fd_options *options, qg_mapdef **out, qg_diags *diags)
{
    *out = NULL;
    qg_fd_options defaults;
    if (!options) {
        qg_fd_options_init(&defaults);
        options = &defaults;
    }
    qg_fd_options opt = *options;
    if (opt.max_include_depth <= 0)
        opt.max_include_depth = QG_FD_INCLUDE_DEPTH;
    fd_payload *pl = calloc(1, sizeof *pl);
    qg_mapdef *def = pl ? qg_mapdef_new(QG_FORMAT_FD, base_name(path)) : NULL;
    if (!def) {
        free(pl);
        return QG_ERR_NOMEM;
    }
    qg_arena_init(&pl->store);
    qg_mapdef_set_payload(def, pl, fd_payload_free);
    pl->dialect = opt.dialect;
    fd_roots roots;
    int failed = !fd_roots_init(&roots, &opt, path);
    if (!failed && pl->dialect == QG_FD_AUTO)
        pl->dialect = opt.no_includes ? fd_detect(path, data, len)
                                      : detect_load(path, data, len, &opt, &roots, 0, &failed);
    if (failed) {
        fd_roots_free(&roots);
        qg_mapdef_free(def);
        return QG_ERR_NOMEM;
    }
    if (pl->dialect == QG_FD_AUTO)
        pl->dialect = QG_FD_ZANGBAND;
    parser p;
    memset(&p, 0, sizeof p);
    p.r.pl = pl;
    p.r.opt = &opt;
    p.r.dialect = pl->dialect;
    p.r.row = fd_row(pl->dialect);
    p.r.diags = diags;
    p.r.vocab_has_tags = p.r.row->tag_features && vocab_has_tags(opt.vocab);
    p.roots = &roots;
    size_t errors = qg_diags_count_severity(diags, QG_ERROR);
    int read = read_builtin(&p) && read_fixed_things(&p) &&
               parse_file(&p, path, data, len) != (size_t)-1 && !p.r.failed;
    fd_roots_free(&roots);
    if (!read) {
        qg_mapdef_free(def);
        return QG_ERR_NOMEM;
    }
    if (describe(def, pl, path, opt.kind) != QG_OK) {
        qg_mapdef_free(def);
        return QG_ERR_NOMEM;
    }
    *out = def;
    return qg_diags_count_severity(diags, QG_ERROR) > errors ? QG_ERR_PARSE : QG_OK;
}
