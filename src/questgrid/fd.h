/* Angband-family F:/D: files (quest, town and wilderness maps): reading
 * them losslessly into a map definition, and resolving one into a level
 * the way Zangband, Hengband and ToME do.
 *
 * A file is read with every %: include it names (whatever the ?:
 * conditions say), so one definition holds a whole load: the hub, its
 * preferences and every map. Resolving evaluates the ?: conditions with
 * the caller's variables and lays out the D: rows with the legend the F:
 * lines in force define. Each load owns its legend; includes share it. */
#ifndef QUESTGRID_FD_H
#define QUESTGRID_FD_H

#include <questgrid/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The dialects: one table each (src/fd/dialects.c) telling which records
 * a game reads and what they mean, how its F: line is laid out, how its
 * ?: expressions compare and which files its edit directory holds. The
 * constants name the table's rows; a row added to the table needs no new
 * constant (qg_fd_dialect_from_name finds it). See doc/dialects.md.
 * zangband: numeric features, 9-field F: lines, EQU = all adjacent
 *   arguments equal, LEQ/GEQ = strcmp chains;
 * hengband, hengband3: f_info tag names for features and traps, cN
 *   clones, '!' quest rewards, bilingual Q:$ lines, EQU = set test,
 *   LEQ/GEQ = atoi; hengband3 under its English file names;
 * tome: 10-field F: lines ending special:mimic:mflag, "quest name"
 *   specials, -1 gate pairs, N: and f: records, no LEQ/GEQ;
 * zangband235: zangband without P: lines;
 * poschengband: tags, English-only Q: lines, L: room-template letters
 *   beside F:, OR and MOD;
 * frogcomposband: q_info.txt N:/F: records naming each quest's room
 *   template file (T:, L:, M: rows, R:, !:SCRAMBLE);
 * angband4, angband4-rooms: Angband 4.2's vault.txt and
 *   room_template.txt, maps with a built-in legend;
 * poschengband7: PosChengband 7, FrogComposband's q_info.txt and quest
 *   files with PosChengband's ?: evaluator. */
typedef enum qg_fd_dialect {
    QG_FD_AUTO = 0,
    QG_FD_ZANGBAND,
    QG_FD_HENGBAND,
    QG_FD_TOME,
    QG_FD_ZANGBAND235,
    QG_FD_HENGBAND3,
    QG_FD_POSCHENGBAND,
    QG_FD_FROGCOMPOSBAND,
    QG_FD_ANGBAND4,
    QG_FD_ANGBAND4_ROOMS,
    QG_FD_POSCHENGBAND7
} qg_fd_dialect;

/* Rows of the table (AUTO included): dialects are 1 … count-1. */
size_t qg_fd_dialect_count(void);
/* "auto", "zangband", "hengband", "tome", …; "unknown" past the table. */
const char *qg_fd_dialect_name(qg_fd_dialect dialect);
/* "Hengband 3.x", … for messages. */
const char *qg_fd_dialect_title(qg_fd_dialect dialect);
/* What an edit directory of the dialect holds, by which
 * qg_fd_detect_edit_dir tells it: space-separated entries, "file" (it is
 * there) or "file~TEXT" (a line of it starts with TEXT); "" for AUTO. */
const char *qg_fd_dialect_signature(qg_fd_dialect dialect);
/* A dialect's name or alias; -1 when the name is not a dialect. */
int qg_fd_dialect_from_name(const char *name);
/* The dialect names, comma-separated ("auto, zangband, …"), for usage
 * messages. */
const char *qg_fd_dialect_names(void);
/* What the file itself tells: a .map name, N:/f: records, 10-field F:
 * lines or quoted specials mean tome; tag names in the feature field or
 * Q:$ lines mean hengband; L:/M: room templates, N:/F: quest records and
 * name: vault records their dialects; anything else is zangband. */
qg_fd_dialect qg_fd_detect_dialect(const char *path, const char *data, size_t len);
/* The dialect whose edit directory dir is (its files' names and first
 * lines, per the table's signatures); file, when given, breaks a tie
 * (vault.txt against room_template.txt). QG_FD_AUTO when none matches. */
qg_fd_dialect qg_fd_detect_edit_dir(const char *dir, const char *file);
/* Whether a dialect's signature names file's base name, that is whether
 * qg_fd_detect_edit_dir can answer for it otherwise than for NULL (a host
 * detecting many files of one directory asks once for the others). */
int qg_fd_edit_dir_names(const char *file);
/* Whether path is a folder a dialect keeps its quest or town files in,
 * below its edit directory (Hengband 3's quests/ and towns/). */
int qg_fd_is_quest_folder(const char *path);
/* The name of a dialect's vocabulary file of a kind (f_info.txt,
 * TerrainDefinitions.txt, terrain.txt, …), or NULL; alternatives are
 * separated by '|', the first present being read
 * ("MonraceDefinitions.jsonc|MonsterRaceDefinitions.txt"). */
const char *qg_fd_vocab_file(qg_fd_dialect dialect, qg_vocab_kind kind);
/* The dialect's quest hub (q_info.txt, QuestDefinitionList.txt), or NULL. */
const char *qg_fd_quest_hub(qg_fd_dialect dialect);
/* Reads the dialect's vocabulary files from dir, each in the format the
 * dialect writes it in. */
qg_status qg_fd_load_vocab(qg_vocab *vocab, qg_fd_dialect dialect, const char *dir,
                           qg_diags *diags);

#define QG_FD_MAX_WID 198          /* the games' MAX_WID */
#define QG_FD_MAX_HGT 66           /* the games' MAX_HGT */
#define QG_FD_INCLUDE_DEPTH 16     /* default limit of nested %: includes */

typedef struct qg_fd_options {
    qg_fd_dialect dialect;     /* QG_FD_AUTO: detect from the top file */
    const char *edit_dir;      /* searched for %: files after the including
                                  file's own directory; may be NULL */
    const qg_vocab *vocab;     /* names of indices, Hengband tags; may be NULL */
    int japanese;              /* Hengband: read the plain (Japanese) Q:/B:
                                  lines instead of the Q:$/B:$ English ones */
    int max_include_depth;     /* 0: QG_FD_INCLUDE_DEPTH */
    int no_includes;           /* keep %: records but read no other file
                                  (one file on its own, as a writer needs) */
    int check_vocab;           /* vocab is the variant's own: an index or
                                  name it does not have is an error */
    qg_map_kind kind;          /* the kind of level (quest, town, room, …);
                                  QG_KIND_UNKNOWN: what the records say */
    /* Where included files come from; NULL: the file system. Returns 1 and
     * sets *data and *len (kept by the caller, copied by the reader) when
     * path exists, else 0. Lets a host serve files from memory or a pack. */
    int (*source)(void *user, const char *path, const char **data, size_t *len);
    void *source_user;
    /* 0: a %: include is read only when it lies below edit_dir or the top
     * file's own directory, compared after symbolic links are followed
     * (names from a source are compared as text); one outside is an error
     * that names it and reads nothing of it. 1: includes are read from
     * anywhere. */
    int allow_include_outside;
    /* 1: the game's random choices in laying a level out (a room
     * template's turn and SCRAMBLE) are drawn from seed; 0: none is made
     * (the level says which turns it may take, qg_level_turns). */
    int seeded;
    unsigned long long seed;
} qg_fd_options;

void qg_fd_options_init(qg_fd_options *options);

/* ---- reading -------------------------------------------------------- */

/* Reads a file held in memory and every file it includes (from disk).
 * Every error of every file is reported; *out is set whenever memory
 * allows, even with errors. The definition's format is QG_FORMAT_FD. */
qg_status qg_fd_parse(const char *path, const char *data, size_t len,
                      const qg_fd_options *options, qg_mapdef **out,
                      qg_diags *diags);
qg_status qg_fd_read(const char *path, const qg_fd_options *options,
                     qg_mapdef **out, qg_diags *diags);

/* Warns about letters used in D: rows that no F: line of the load
 * defines (they may come from a file that includes this one; resolving
 * reports what is really undefined). */
qg_status qg_fd_check_letters(const qg_mapdef *def, qg_diags *diags);

/* Reports every %: include of the load whose file cannot be found, and
 * every room letter line its game cannot read (a resolve reports only
 * those it reaches, as the games meet them only there). */
qg_status qg_fd_check_includes(const qg_mapdef *def, qg_diags *diags);

/* The dialect a definition was read in (never QG_FD_AUTO). */
qg_fd_dialect qg_fd_mapdef_dialect(const qg_mapdef *def);

/* ---- the records of a definition, in reading order -------------------- */

typedef enum qg_fd_kind {
    QG_FD_BLANK = 0,   /* empty or indented line */
    QG_FD_COMMENT,     /* # … */
    QG_FD_COND,        /* ?: expression */
    QG_FD_INCLUDE,     /* %: file */
    QG_FD_FEATURE,     /* F: letter definition */
    QG_FD_ROW,         /* D: map row */
    QG_FD_QUEST,       /* Q: quest record */
    QG_FD_PLAYER,      /* P: player start */
    QG_FD_OTHER        /* B:, W:, M:, N:, f:, T:, R: … kept verbatim */
} qg_fd_kind;

/* An F: line. Things use QG_THING_INDEX (N), QG_THING_RANDOM (* or *N:
 * index = out-of-depth offset), QG_THING_CLONE (cN), QG_THING_REWARD (!)
 * and QG_THING_TAG (a Hengband trap or feature tag; index is its f_info
 * index, or -1 without a vocabulary). Absent fields are QG_THING_NONE. */
typedef struct qg_fd_spec {
    unsigned char letter;
    int fields;                 /* fields written, the letter included */
    qg_thing feature;
    uint32_t cave_info;
    qg_thing things[QG_SLOTS];  /* monster, object, ego, artifact, trap */
    int32_t special;
    const char *special_name;   /* ToME "quest name", else NULL */
    int32_t mimic;              /* ToME */
    uint32_t mflag;             /* ToME */
    int32_t feature_chance;     /* a room letter's FEATURE(n%): the percent
                                   chance of the feature, else floor */
} qg_fd_spec;

/* A Q:n:sub:… line. */
typedef struct qg_fd_quest {
    int number;
    char sub;                   /* 'N', 'Q', 'T', 'R' or another letter */
    int english;                /* Hengband Q:$ line */
    int head;                   /* an N:id:level:name record head (values[0]
                                   is the level) */
    const char *text;           /* N: the name, T: the text line (as the
                                   games keep it: up to the first : or /) */
    int32_t values[32];         /* Q: and R: numbers after the subtype */
    int value_count;
} qg_fd_quest;

typedef struct qg_fd_record {
    qg_fd_kind kind;
    int form;                   /* what the record is in its dialect (the
                                   table's own codes; F: and L: letters are
                                   both QG_FD_FEATURE, %: and F:file both
                                   QG_FD_INCLUDE, …) */
    int line;                   /* 1-based */
    int skipped;                /* the language setting skips this line */
    int y, x;                   /* QG_FD_PLAYER; -1 when unreadable */
    const char *text;           /* the raw line, without its newline */
    size_t len;
    size_t file;                /* index into the definition's files */
    long cond;                  /* the ?: record in force in this file, or -1 */
    long include;               /* QG_FD_INCLUDE: the included file, or -1 */
    const char *missing;        /* QG_FD_INCLUDE: why the file could not be
                                   read ("cannot find include …"), or NULL */
    const char *fails;          /* QG_FD_FEATURE: why the game cannot read
                                   this letter line (a name its vocabulary
                                   lacks), where it stops reading the file;
                                   reported where a load reaches it */
    int fails_col;
    const qg_fd_spec *spec;     /* QG_FD_FEATURE (fields atoi would give
                                   when the line has errors) */
    const qg_fd_quest *quest;   /* QG_FD_QUEST; NULL when skipped */
} qg_fd_record;

size_t qg_fd_file_count(const qg_mapdef *def);
/* The path of file i (0 is the file read; includes follow in the order
 * they were first named). */
const char *qg_fd_file_path(const qg_mapdef *def, size_t index);
size_t qg_fd_record_count(const qg_mapdef *def);
const qg_fd_record *qg_fd_record_at(const qg_mapdef *def, size_t index);

/* ---- the quests of a hub ----------------------------------------------- */

/* A quest a hub defines: its number, its name (the English one of a
 * bilingual game when there is one, else as written; NULL when no record
 * names it) and the file that names it or that the hub includes for it
 * (NULL when neither). Both point into the hub's definition. */
typedef struct qg_fd_hub_quest {
    int number;
    const char *name;
    const char *file;
} qg_fd_hub_quest;

/* The quests of a hub read with qg_fd_read (the files it includes read
 * with it): every quest a Q:n:N: name record, a quest record head
 * (N:id:level:name) or a ?:[EQU $QUEST_NUMBER n] choice of includes
 * names, once each, by number. *out is NULL when there are none; free it
 * with free(). */
qg_status qg_fd_hub_quests(const qg_mapdef *hub, qg_fd_hub_quest **out, size_t *count);

/* ---- ?: expressions -------------------------------------------------- */

/* Whether the dialect's games give ?: expressions the variable name
 * ($CLASS, $QUEST12, …); QG_FD_AUTO asks Zangband's. */
int qg_fd_knows_variable(qg_fd_dialect dialect, const char *name);
/* The index-th variable of the dialect, as --var sets it ("QUEST<n>" for
 * a numbered family), written to buf; NULL past the last. */
const char *qg_fd_variable_at(qg_fd_dialect dialect, size_t index, char *buf, size_t size);

/* Evaluates one expression (the text after "?:") as the dialect's game
 * does and writes its value (NUL-terminated, truncated to size) to out.
 * Unknown variables give "?o?o?", unknown functions keep that value and a
 * missing ']' gives "?x?x?"; the games skip lines only for "0". diags may
 * be NULL; file and line place its warnings. */
qg_status qg_fd_eval(const char *expr, size_t len, qg_fd_dialect dialect,
                     const qg_vars *vars, char *out, size_t size,
                     const char *file, int line, qg_diags *diags);

/* ---- resolving -------------------------------------------------------- */

/* Evaluates the definition with vars (may be NULL) and lays out its rows.
 * The level holds every placed cell (features with index and name,
 * cave_info exactly as written, things, special, ToME mimic/mflag), the
 * player start, and properties: "dialect", "kind", "quest", "name",
 * "quest_type", "quest_level", … from the Q: records, "cur_hgt" and
 * "cur_wid" as the games compute them at P:. Other records (B:, W:, M:,
 * …) stay in the definition's records. A load that reads no map rows
 * gives no level and QG_ERR_NOTFOUND: a note says so for a quest whose
 * level the dungeon generator makes (a random quest), an error for a
 * quest that should have a map, a quest the hub lacks or a file without
 * rows. */
qg_status qg_fd_resolve(const qg_mapdef *def, const qg_fd_options *options,
                        const qg_vars *vars, qg_level **out, qg_diags *diags);

/* Reads path and resolves it. */
qg_status qg_fd_load_file(const char *path, const qg_fd_options *options,
                          const qg_vars *vars, qg_level **out, qg_diags *diags);

/* Loads quest number through a q_info.txt-style hub: the hub is evaluated
 * with $QUEST_NUMBER = number (over vars), as the games do. */
qg_status qg_fd_load_quest(const char *hub_path, int number,
                           const qg_fd_options *options, const qg_vars *vars,
                           qg_level **out, qg_diags *diags);

/* What a file of the F:/D: family is, in the dialect of its edit
 * directory (QG_FD_AUTO when unknown): by its records, and by its name
 * where the game reads it with another parser than its map loader. */
typedef enum qg_fd_content {
    QG_FD_CONTENT_LEVEL = 0,  /* map rows: a quest, town or wilderness level */
    QG_FD_CONTENT_PART,       /* records but no map rows: letters or lines
                                 that levels include (q_pref.txt) */
    QG_FD_CONTENT_HUB,        /* a quest or town hub: the dialect's
                                 q_info.txt, or a file without rows that
                                 picks its includes by $QUEST_NUMBER or
                                 $TOWN, or holds quest records */
    QG_FD_CONTENT_VOCABULARY, /* two or more N:index:name entries, as
                                 f_info.txt, r_info.txt, v_info.txt have
                                 (*entries counts them when not NULL) */
    QG_FD_CONTENT_DATA,       /* other game data (misc.txt, s_info.txt,
                                 Hengband 3's *.jsonc, …) */
    QG_FD_CONTENT_NONE        /* no record of the family at all */
} qg_fd_content;
qg_fd_content qg_fd_sniff(const char *path, const char *data, size_t len,
                          qg_fd_dialect dialect, size_t *entries);
/* Whether the dialect's game reads path (by its base name) as data of
 * its own, with another parser than its map loader. */
int qg_fd_is_game_data(qg_fd_dialect dialect, const char *path);

#ifdef __cplusplus
}
#endif
#endif
