#define _GNU_SOURCE
/* Dialect names, the records of a dialect, and detection: from what a
 * file itself tells, and from the files an edit directory holds. */
#include "fd/fd_internal.h"
#include "core/buf.h"
#include "core/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *qg_fd_dialect_name(qg_fd_dialect dialect)
{
    if ((size_t)dialect < qg_fd_dialect_count())
        return fd_row_at((size_t)dialect)->name;
    return "unknown";
}

const char *qg_fd_dialect_title(qg_fd_dialect dialect)
{
    if ((size_t)dialect < qg_fd_dialect_count())
        return fd_row_at((size_t)dialect)->title;
    return "unknown";
}

const char *qg_fd_dialect_signature(qg_fd_dialect dialect)
{
    const fd_dialect_row *row = fd_row_at((size_t)dialect);
    return row && row->signature ? row->signature : "";
}

/* Whether word is one of the space-separated words of list. */
static int in_list(const char *list, const char *word, size_t len)
{
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, " ");
        if (n == len && strncasecmp(p, word, len) == 0)
            return 1;
        p += n + (p[n] == ' ');
    }
    return 0;
}

static const char *base_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path ? path : "";
}

/* Whether an entry of n bytes (a name, or a pattern with one '*' standing
 * for any bytes) names base (len bytes), without case. */
static int entry_names(const char *entry, size_t n, const char *base, size_t len)
{
    const char *star = memchr(entry, '*', n);
    if (!star)
        return n == len && strncasecmp(entry, base, len) == 0;
    size_t head = (size_t)(star - entry), tail = n - head - 1;
    return head + tail <= len && strncasecmp(entry, base, head) == 0 &&
           strncasecmp(star + 1, base + len - tail, tail) == 0;
}

int fd_list_names(const char *list, const char *path)
{
    const char *base = base_name(path);
    size_t len = strlen(base);
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, " ");
        if (entry_names(p, n, base, len))
            return 1;
        p += n + (p[n] == ' ');
    }
    return 0;
}

int qg_fd_dialect_from_name(const char *name)
{
    for (size_t i = 0; name && i < qg_fd_dialect_count(); i++) {
        const fd_dialect_row *row = fd_row_at(i);
        if (strcasecmp(name, row->name) == 0 || in_list(row->aliases, name, strlen(name)))
            return (int)i;
    }
    return -1;
}

const char *qg_fd_dialect_names(void)
{
    static const char names[] =
        "auto, zangband, hengband, tome, zangband235, hengband3, poschengband, "
        "frogcomposband, angband4, angband4-rooms, poschengband7";
    return names;
}

const char *qg_fd_vocab_file(qg_fd_dialect dialect, qg_vocab_kind kind)
{
    if ((unsigned)kind >= QG_VOCAB_KINDS)
        return NULL;
    return fd_row(dialect)->vocab.file[kind];
}

const char *qg_fd_quest_hub(qg_fd_dialect dialect)
{
    return fd_row(dialect)->quest_hub;
}

qg_status qg_fd_load_vocab(qg_vocab *vocab, qg_fd_dialect dialect, const char *dir,
                           qg_diags *diags)
{
    const fd_dialect_row *row = fd_row(dialect);
    return qg_vocab_load_files(vocab, dir, row->vocab.file, row->vocab.format, diags);
}

/* ---- records ------------------------------------------------------------ */

fd_rec fd_record_of(const fd_dialect_row *row, const char *line, size_t len,
                    const fd_form **form)
{
    *form = NULL;
    const char *colon = memchr(line, ':', len);
    if (!colon || colon == line)
        return FD_REC_UNKNOWN;
    size_t key = (size_t)(colon - line);
    /* the first byte rules out most forms without a call; the key is
     * compared by length, as a line may hold NUL bytes */
    for (const fd_form *f = row->forms; f && f->key; f++)
        if (f->key[0] == line[0] && strlen(f->key) == key && memcmp(f->key, line, key) == 0) {
            *form = f;
            return f->rec;
        }
    return FD_REC_UNKNOWN;
}

/* The kind a sign of the row gives: a record key, or a room template's
 * T:type:subtype first field. */
static qg_map_kind sign_kind(const fd_kind_sign *signs, const char *text, size_t len)
{
    for (const fd_kind_sign *k = signs; k && k->key; k++)
        if (strlen(k->key) == len && memcmp(k->key, text, len) == 0)
            return k->kind;
    return QG_KIND_UNKNOWN;
}

qg_map_kind fd_kind_of_record(const fd_dialect_row *row, const qg_fd_record *rec)
{
    const fd_form *form = NULL;
    if (rec->kind == QG_FD_BLANK || rec->kind == QG_FD_COMMENT ||
        fd_record_of(row, rec->text, rec->len, &form) == FD_REC_UNKNOWN || !form)
        return QG_KIND_UNKNOWN;
    size_t key = strlen(form->key);
    if (form->rec == FD_REC_ROOM_TYPE)
        return sign_kind(row->room_kinds, rec->text + key + 1,
                         strcspn(rec->text + key + 1, ":\r"));
    if (form->rec == FD_REC_MAP_HEAD)
        return row->map_kind;
    return sign_kind(row->kind_records, rec->text, key);
}

const char *fd_letter_record(const fd_dialect_row *row)
{
    return row->f_fields[0] ? "F:" : "L:";
}

int fd_has_function(const fd_dialect_row *row, const char *name)
{
    static const char base[] = "AND IOR NOT EQU";
    size_t n = strlen(name);
    if (in_list(base, name, n) || in_list(row->functions, name, n))
        return 1;
    return row->order != FD_ORDER_NONE && (strcmp(name, "LEQ") == 0 || strcmp(name, "GEQ") == 0);
}

/* name against a table entry: "=" (shared buffer) is skipped, a trailing
 * '#' takes digits, a trailing '*' anything (the games' prefix()). */
static int variable_matches(const char *entry, const char *name)
{
    if (entry[0] == '=')
        entry++;
    size_t n = strlen(entry);
    if (n && entry[n - 1] == '*')
        return strncmp(entry, name, n - 1) == 0;
    if (n && entry[n - 1] == '#') {
        if (strncmp(entry, name, n - 1) != 0 || !name[n - 1])
            return 0;
        for (const char *p = name + n - 1; *p; p++)
            if (*p < '0' || *p > '9')
                return 0;
        return 1;
    }
    return strcmp(entry, name) == 0;
}

static const char *variable_entry(const fd_dialect_row *row, const char *name)
{
    for (size_t i = 0; row->variables && row->variables[i]; i++)
        if (variable_matches(row->variables[i], name))
            return row->variables[i];
    return NULL;
}

int fd_has_variable(const fd_dialect_row *row, const char *name)
{
    if (variable_entry(row, name))
        return 1;
    size_t n = strlen(name);
    /* ToME's $QUEST"name" */
    return row->quoted_atoms && n > 7 && strncmp(name, "QUEST\"", 6) == 0 && name[n - 1] == '"';
}

int qg_fd_knows_variable(qg_fd_dialect dialect, const char *name)
{
    return fd_has_variable(fd_row(dialect), name);
}

const char *qg_fd_variable_at(qg_fd_dialect dialect, size_t index, char *buf, size_t size)
{
    const char *const *vars = fd_row(dialect)->variables;
    for (size_t i = 0; vars && vars[i]; i++)
        if (i == index) {
            const char *entry = vars[i] + (vars[i][0] == '=');
            size_t n = strlen(entry);
            if (n && entry[n - 1] == '#')
                snprintf(buf, size, "%.*s<n>", (int)(n - 1), entry);
            else
                snprintf(buf, size, "%s", entry);
            return buf;
        }
    return NULL;
}

int fd_shared_variable(const fd_dialect_row *row, const char *name)
{
    const char *entry = row->shared_buffer ? variable_entry(row, name) : NULL;
    return entry && entry[0] == '=';
}

/* ---- what a file itself tells ----------------------------------------- */

typedef struct clues {
    int vault, room_template, frog_head, rows_m, letters_l, tome, q_dollar, q_plain, tags;
} clues;

static int is_tag_start(char c)
{
    return c >= 'A' && c <= 'Z';
}

static int all_digits(const char *p, size_t n)
{
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (p[i] < '0' || p[i] > '9')
            return 0;
    return 1;
}

static void line_clues(const char *line, size_t len, clues *c)
{
    if (len > 5 && (!strncmp(line, "name:", 5) || !strncmp(line, "rows:", 5)))
        c->vault = 1;
    if (len > 6 && !strncmp(line, "doors:", 6))
        c->room_template = 1;
    if (len < 2 || line[1] != ':')
        return;
    fd_tok tok[10];
    size_t n;
    switch (line[0]) {
    case 'N':
        n = fd_tokenize(line + 2, len - 2, 3, 4, tok);
        if (n >= 3 && all_digits(tok[0].p, tok[0].len) && all_digits(tok[1].p, tok[1].len))
            c->frog_head = 1;
        else
            c->tome = 1;
        break;
    case 'f': c->tome = 1; break;
    case 'M': c->rows_m = 1; break;
    case 'L': c->letters_l = 1; break;
    case 'Q':
        if (len > 2 && line[2] == '$')
            c->q_dollar = 1;
        else
            c->q_plain = 1;
        break;
    case '?':
        if (memmem(line, len, "$QUEST\"", 7))
            c->tome = 1;
        break;
    case 'F':
        n = fd_tokenize(line + 2, len - 2, 3, 10, tok);
        if (n >= 2 && tok[1].len && is_tag_start(tok[1].p[0]))
            c->tags = 1;
        if (n == 10 || (n >= 8 && tok[7].len && (tok[7].p[0] == '"' || tok[7].p[0] == '-')))
            c->tome = 1;
        break;
    default:
        break;
    }
}

qg_fd_dialect fd_detect(const char *path, const char *data, size_t len)
{
    const char *base = base_name(path);
    size_t plen = strlen(base);
    for (size_t i = 1; i < qg_fd_dialect_count(); i++) {
        const char *suffix = fd_row_at(i)->map_suffix;
        size_t n = suffix ? strlen(suffix) : 0;
        if (n && plen >= n && strcasecmp(base + plen - n, suffix) == 0)
            return (qg_fd_dialect)i;
    }
    clues c;
    memset(&c, 0, sizeof c);
    const char *end = data + len;
    for (const char *line = data; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
        while (n && line[n - 1] == '\r')
            n--;
        line_clues(line, n, &c);
        line = nl ? nl + 1 : end;
    }
    if (c.vault)
        return c.room_template || !strcmp(base, "room_template.txt") ? QG_FD_ANGBAND4_ROOMS
                                                                     : QG_FD_ANGBAND4;
    if (c.rows_m || c.frog_head)
        return QG_FD_FROGCOMPOSBAND;
    if (c.letters_l)
        return QG_FD_POSCHENGBAND;
    if (c.tome)
        return QG_FD_TOME;
    if (c.q_dollar)
        return QG_FD_HENGBAND;
    if (c.tags && c.q_plain)
        return QG_FD_POSCHENGBAND;
    if (c.tags)
        return QG_FD_HENGBAND;
    return QG_FD_AUTO;
}

qg_fd_dialect qg_fd_detect_dialect(const char *path, const char *data, size_t len)
{
    qg_fd_dialect d = fd_detect(path, data, len);
    return d == QG_FD_AUTO ? QG_FD_ZANGBAND : d;
}

/* ---- what an edit directory holds ------------------------------------- */

#define SIGNATURE_PREFIX 65536

/* The files of one edit directory that signatures name: each is opened,
 * and its head read, once for all the rows that name it. */
typedef struct dir_file {
    char *name;
    int exists;
    char *head;     /* the first SIGNATURE_PREFIX bytes, once read */
    size_t len;
} dir_file;

typedef struct dir_heads {
    const char *dir;
    dir_file *files;
    size_t count, cap;
} dir_heads;

static void heads_free(dir_heads *h)
{
    for (size_t i = 0; i < h->count; i++) {
        free(h->files[i].name);
        free(h->files[i].head);
    }
    free(h->files);
}

/* The directory's file of that name, its head read when want_head; NULL
 * when memory ran out. */
static dir_file *file_of(dir_heads *h, const char *name, size_t name_len, int want_head)
{
    dir_file *file = NULL;
    for (size_t i = 0; i < h->count && !file; i++)
        if (strlen(h->files[i].name) == name_len && memcmp(h->files[i].name, name, name_len) == 0)
            file = &h->files[i];
    if (!file) {
        char *copy = qg_strndup(name, name_len);
        if (!copy || !(file = QG_PUSH(h->files, h->count, h->cap))) {
            free(copy);
            return NULL;
        }
        *file = (dir_file){copy, -1, NULL, 0};
    }
    if (file->exists == 0 || (file->exists == 1 && (file->head || !want_head)))
        return file;
    char *path = qg_path_join(h->dir, file->name);
    FILE *f = path ? fopen(path, "rb") : NULL;
    free(path);
    file->exists = f != NULL;
    if (f && want_head && (file->head = malloc(SIGNATURE_PREFIX + 1)))
        file->len = fread(file->head, 1, SIGNATURE_PREFIX, f);
    if (f)
        fclose(f);
    return file;
}

/* Whether the directory holds the file of a signature entry ("file" or
 * "file~TEXT": a line of the file starts with TEXT). */
static int entry_matches(dir_heads *h, const char *entry, size_t len)
{
    const char *tilde = memchr(entry, '~', len);
    size_t name_len = tilde ? (size_t)(tilde - entry) : len;
    const dir_file *file = file_of(h, entry, name_len, tilde != NULL);
    if (!file || !file->exists)
        return 0;
    if (!tilde)
        return 1;
    const char *text = tilde + 1;
    size_t text_len = len - name_len - 1;
    if (!file->head || file->len < text_len)
        return 0;
    if (memcmp(file->head, text, text_len) == 0)
        return 1;
    /* a line start is a newline before the text: one memmem, not a call
     * per line */
    char *needle = malloc(text_len + 1);
    if (!needle)
        return 0;
    needle[0] = '\n';
    memcpy(needle + 1, text, text_len);
    int found = memmem(file->head, file->len, needle, text_len + 1) != NULL;
    free(needle);
    return found;
}

/* The number of entries of the row's signature, or 0 when one fails. */
static int signature_score(const fd_dialect_row *row, dir_heads *h)
{
    int score = 0;
    for (const char *p = row->signature; p && *p;) {
        size_t n = strcspn(p, " ");
        if (!entry_matches(h, p, n))
            return 0;
        score++;
        p += n + (p[n] == ' ');
    }
    return score;
}

static int names_file(const fd_dialect_row *row, const char *file)
{
    const char *base = base_name(file);
    return file && in_list(row->signature, base, strlen(base));
}

int qg_fd_edit_dir_names(const char *file)
{
    for (size_t i = 1; file && i < qg_fd_dialect_count(); i++)
        if (names_file(fd_row_at(i), file))
            return 1;
    return 0;
}

qg_fd_dialect qg_fd_detect_edit_dir(const char *dir, const char *file)
{
    qg_fd_dialect best = QG_FD_AUTO;
    int best_score = 0, best_named = 0;
    dir_heads heads = {.dir = dir};
    for (size_t i = 1; dir && i < qg_fd_dialect_count(); i++) {
        const fd_dialect_row *row = fd_row_at(i);
        int score = signature_score(row, &heads);
        int named = names_file(row, file);
        if (score && (score > best_score || (score == best_score && named && !best_named))) {
            best = (qg_fd_dialect)i;
            best_score = score;
            best_named = named;
        }
    }
    heads_free(&heads);
    return best;
}

int qg_fd_is_quest_folder(const char *path)
{
    const char *base = base_name(path);
    for (size_t i = 1; base && i < qg_fd_dialect_count(); i++) {
        const char *folders = fd_row_at(i)->level_folders;
        if (folders && in_list(folders, base, strlen(base)))
            return 1;
    }
    return 0;
}
