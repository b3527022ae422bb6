/* The F:/D: front end's shared pieces: the tokenizer, field readers, the
 * payload a definition carries and the per-line parsers. */
#ifndef QG_FD_INTERNAL_H
#define QG_FD_INTERNAL_H

#include "questgrid/fd.h"
#include "fd/dialect.h"
#include "core/mapdef.h"
#include "core/arena.h"
#include "core/file.h"
#include "core/buf.h"

/* ---- tokens ---- */

typedef struct fd_tok {
    const char *p;
    size_t len;
    int col;        /* 1-based column of the token's first byte in the line */
} fd_tok;

/* The games' tokenize(): ':' and '/' delimit, a backslash skips the next
 * byte (and stays in the token), at most num tokens, the last keeping the
 * rest. Always returns at least one token. first_col is the column of s. */
size_t fd_tokenize(const char *s, size_t len, int first_col, size_t num, fd_tok *out);

/* ---- the line being read, for diagnostics ---- */

typedef struct fd_line {
    const char *file;
    int line;
    const char *text;   /* the raw line */
    size_t len;
    qg_diags *diags;
} fd_line;

void fd_error(const fd_line *at, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void fd_warning(const fd_line *at, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void fd_note(const fd_line *at, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A number as atoi reads it; a token that is not a number (trailing
 * spaces aside) is reported and still gets atoi's value. Returns 0 when
 * reported. */
int fd_number(const fd_line *at, const fd_tok *tok, const char *what, int32_t *value);
/* atoi exactly (leading spaces, sign, digits; the rest ignored). */
int32_t fd_atoi(const char *p, size_t len);

/* What one file's text tells of its dialect; QG_FD_AUTO when nothing. */
qg_fd_dialect fd_detect(const char *path, const char *data, size_t len);
/* The row at an index of the table (AUTO is 0), or NULL. */
const fd_dialect_row *fd_row_at(size_t index);
/* Whether the games format the variable into their one shared buffer. */
int fd_shared_variable(const fd_dialect_row *row, const char *name);

/* A copy of vars with name set to value; NULL when memory fails. */
qg_vars *fd_vars_with(const qg_vars *vars, const char *name, long value);

/* Says why a load gives no map (a quest the dungeon generator makes the
 * level of is a note; a quest that should have a map, a quest the hub
 * does not define, a file without rows are errors). wanted is the quest
 * asked for or -1, quest the one whose records were read or -1. */
void fd_report_no_map(const fd_dialect_row *row, const qg_level *level, const char *path,
                      long wanted, long quest, qg_diags *diags);

/* ---- the payload of a definition ---- */

typedef struct fd_file {
    char *path;
    char *data;          /* the file's bytes, each '\n' replaced by '\0' */
    size_t size;
    qg_fd_record *lines; /* this file's records, one per line, in order */
    size_t record_count;
    int open;            /* being read (for cycle detection) */
    /* What sizing a level needs of the file: the fixed_rows rows before
     * its first ?: line always lay (extent: width columns, height rows);
     * the outline lists (as indices into lines) its ?: and %: records and
     * the rows after the first ?: line. */
    int fixed_rows, width, height;
    int seen_cond;
    size_t *outline;
    size_t outline_count, outline_cap;
    size_t outline_base; /* where its outline starts in per-outline tables */
} fd_file;

/* Records, F: and Q: lines and the texts they keep live in one arena: they
 * never move, so the pointers between them hold from the moment they are
 * read. */
typedef struct fd_payload {
    qg_fd_dialect dialect;
    fd_file *files;
    size_t file_count, file_cap;
    qg_fd_record **records;  /* every record in reading order */
    size_t record_count, record_cap;
    size_t outline_total;    /* entries of a per-outline table */
    qg_fd_spec *builtin;     /* the dialect's built-in letters */
    size_t builtin_count;
    qg_fd_spec *fixed_things; /* per fixed letter of the room rules, what
                                 its second pass puts there */
    /* The letters the game has defined when the load that reaches the
     * top file (context_hub, a file of its edit directory) gets to it:
     * those it defines whichever way it gets there (copies); NULL when
     * none is known. */
    const qg_fd_spec *context[256];
    const char *context_hub;
    /* A level file of a game's edit directory that no load of the game
     * reaches: the game never lays it out. */
    int unreached;
    qg_arena store;
} fd_payload;

void fd_payload_free(void *payload);
const fd_payload *fd_payload_of(const qg_mapdef *def);
/* The quests whose state ($QUESTn) a load's ?: lines test and vars
 * leaves unset, sorted; at most FD_STATE_QUESTS (the games' quest tables
 * hold 100, misc.txt's M:Q:). */
enum { FD_STATE_QUESTS = 256 };
typedef struct fd_state_quests {
    long number[FD_STATE_QUESTS];
    size_t count;
} fd_state_quests;
/* Fills set; 0 when the lines test more quests than it holds. */
int fd_state_quests_find(const fd_payload *pl, const qg_vars *vars, fd_state_quests *set);
/* A copy of vars with each quest of set at state; NULL when set is empty
 * or memory ran out. */
qg_vars *fd_state_vars(const fd_state_quests *set, const qg_vars *vars, int state);
/* "$QUEST17, $QUEST18" (the first few, and how many more). */
void fd_state_names(const fd_state_quests *set, qg_buf *out);
/* Adds a record just read (lines[index]) to its file's outline; 0 when
 * memory ran out. */
int fd_outline_add(fd_file *f, const fd_dialect_row *row, const qg_fd_record *rec, size_t index);
/* The bytes of a D: row, trailing carriage returns left out. */
size_t fd_row_len(const qg_fd_record *row);
/* The cells of a D: row the game lays: its bytes, up to the dialect's
 * row_stop. */
size_t fd_row_laid(const fd_dialect_row *row, const qg_fd_record *rec);

/* ---- where includes may come from ---- */

/* The directories a load's includes must lie below (the edit directory and
 * the top file's own): as given, and in canonical form (lexical form when
 * the options' source serves the files) once a path needs it. */
typedef struct fd_roots {
    char *given[2];
    char *dir[2];
    size_t count;
    int open;        /* allow_include_outside: every path is admitted */
    int lexical;
} fd_roots;

/* 0 when memory ran out. */
int fd_roots_init(fd_roots *roots, const qg_fd_options *opt, const char *top);
void fd_roots_free(fd_roots *roots);
/* 1 when path lies below a root; 0 when not (*where is then the form it
 * was compared in, to be freed); -1 when memory ran out. */
int fd_roots_admit(fd_roots *roots, const char *path, char **where);
/* The error for an include refused (name as written, where as admit gave
 * it); NULL on no memory. */
char *fd_roots_refusal(const fd_roots *roots, const char *name, const char *where);

/* A load's includes read at most this much text in all (the cap on one
 * text file): the files a host's source serves under ever new names would
 * otherwise be read without end, ... */
#define FD_INCLUDED_LIMIT QG_MAX_TEXT_FILE
/* ... and at most this many files (a game's hub names a few hundred). */
#define FD_FILE_LIMIT 4096
/* Laying a level out reads an include anew each time it is reached, as
 * the games do: real loads pass tens of thousands of records, an include
 * bomb (files each including the next several times) billions. A walk
 * stops past this many. */
#define FD_WALK_LIMIT ((size_t)4 << 20)

/* ---- per-line readers (parse time) ---- */

typedef struct fd_reader {
    fd_payload *pl;
    const qg_fd_options *opt;
    qg_fd_dialect dialect;
    const fd_dialect_row *row;
    qg_diags *diags;
    int vocab_has_tags;  /* the vocabulary's features are tag names */
    unsigned unchecked;  /* vocabulary kinds already noted as not checkable */
    int depth;
    int failed;          /* memory ran out: the reading stops */
} fd_reader;

/* Fills spec from an F: line (text after "F:"); 0 when unreadable. */
int fd_read_feature(fd_reader *r, const fd_line *at, const char *s, size_t len,
                    qg_fd_spec *spec);
/* Fills spec from a room-template letter (text after "L:"): the letter,
 * then directives FEATURE(flags[, special]), MON(…), OBJ(…), EGO(…),
 * ART(…), TRAP(…), SECRET(…); 0 when unreadable. */
int fd_read_grid(fd_reader *r, const fd_line *at, const char *s, size_t len,
                 qg_fd_spec *spec);
/* Fills spec from a room-template letter as the game's parse_room_grid
 * reads it (the row's room rules; names looked up in the vocabulary); 0
 * when the game would stop reading the file there: the error is reported,
 * or, when rec is given, kept in rec->fails for a load that reaches it.
 * ours: a letter of questgrid's own tables, whose every form is read. */
int fd_read_room_grid(fd_reader *r, const fd_line *at, const char *s, size_t len,
                      qg_fd_spec *spec, qg_fd_record *rec, int ours);
/* Fills quest from a Q: line; 0 when unreadable. */
int fd_read_quest(fd_reader *r, const fd_line *at, const char *s, size_t len,
                  qg_fd_quest *quest);
/* Fills quest from an N:id:level:name record head; 0 when unreadable. */
int fd_read_quest_head(fd_reader *r, const fd_line *at, const char *s, size_t len,
                       qg_fd_quest *quest);
/* Reports what is wrong with a ?: expression (functions and variables the
 * dialect does not know, a missing ']', MOD by 0). */
void fd_check_expr(fd_reader *r, const fd_line *at);
/* A token's text, kept as long as the definition; NULL (and r->failed set)
 * when memory runs out. */
const char *fd_keep(fd_reader *r, const char *p, size_t len);

/* ---- reading ---- */

/* Reads a file held in memory and every file it includes, as the file
 * itself says (qg_fd_parse adds what the load that reaches it defines). */
qg_status fd_parse(const char *path, const char *data, size_t len,
                   const qg_fd_options *options, qg_mapdef **out, qg_diags *diags);

/* ---- the loads that reach a file ---- */

/* The letters in force when a load of pl gets to file target (start: the
 * letters before the load, or NULL): out[c] is the letter line that
 * defines c whichever include of the file the load reaches it by, NULL
 * when some way leaves c undefined. The walk evaluates each ?: line with
 * the values that make the conditions on the way to the include hold
 * (fd_expr_bindings). Every record passed is charged to *budget. 1 when
 * the load reaches the file, 0 when nothing includes it, -1 when the
 * budget or memory ran out. */
int fd_letters_at(const fd_payload *pl, size_t target, const qg_fd_spec *const *start,
                  const qg_fd_spec **out, size_t *budget, int max_depth);

/* ---- expressions ---- */

typedef struct fd_eval_sink {
    const fd_line *at;   /* NULL: no diagnostics */
    int checking;        /* parse-time check: report unknown names */
    int first_col;       /* the column of the expression's first byte */
} fd_eval_sink;

/* Evaluates the expression text (len bytes) into out (size bytes). */
void fd_eval(const char *expr, size_t len, qg_fd_dialect dialect,
             const qg_vars *vars, char *out, size_t size, const fd_eval_sink *sink);
/* [EQU $NAME value], the form hubs choose their files with, answered
 * without the general evaluator (every dialect gives it the same value,
 * and it has nothing to report): sets *equal and returns 1, or returns 0
 * for any other form. */
int fd_eval_equ(const char *expr, size_t len, const qg_vars *vars, int *equal);
/* The values that make a condition hold as far as its form says: each
 * [EQU $NAME value] that must hold for the whole to (alone, under AND,
 * the first alternative of IOR or OR) sets NAME in vars, unless vars has
 * it already. 0 when memory ran out. */
int fd_expr_bindings(const char *expr, size_t len, qg_vars *vars);

#endif
