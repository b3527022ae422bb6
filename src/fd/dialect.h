/* A dialect of the Angband-family fixed-map format as data: which records
 * a game reads and what each means, how its F: line is laid out, which
 * forms its fields take, how its ?: expressions compare, which files its
 * edit directory holds. The readers, the resolver and the writers consult
 * the row of the dialect at hand; none of them names a game. A new variant
 * is a new row in dialects.c. */
#ifndef QG_FD_DIALECT_H
#define QG_FD_DIALECT_H

#include "questgrid/fd.h"

/* What a record means. */
typedef enum fd_rec {
    FD_REC_UNKNOWN = 0, /* the game stops reading the file there */
    FD_REC_COND,        /* ?:expression */
    FD_REC_INCLUDE,     /* %:file */
    FD_REC_LETTER,      /* F:letter:fields (the row's f_fields) */
    FD_REC_GRID,        /* L:c:directives, a room-template letter */
    FD_REC_ROW,         /* one map row */
    FD_REC_QUEST,       /* Q:n:sub:… */
    FD_REC_PLAYER,      /* P:y:x */
    FD_REC_KEPT,        /* read by the game, no effect on the map (B:, W:, …) */
    FD_REC_IGNORED,     /* the game skips it (warned) */
    FD_REC_PROPERTY,    /* its text becomes a level property (the form's) */
    FD_REC_QUEST_HEAD,  /* N:id:level:name opens a quest's records */
    FD_REC_QUEST_FILE,  /* F:file, the quest's own file */
    FD_REC_ROOM_TYPE,   /* T:type:subtype[:flags] of a room template */
    FD_REC_SCRAMBLE,    /* !:SCRAMBLE(a,b,…) */
    FD_REC_MAP_HEAD,    /* name:…, the first line of one map of a file */
    FD_REC_MAP_ROWS,    /* rows:n of that map */
    FD_REC_MAP_COLUMNS  /* columns:n of that map */
} fd_rec;

/* One record form: the key before the first ':' and its meaning. */
typedef struct fd_form {
    const char *key;
    fd_rec rec;
    const char *property; /* FD_REC_PROPERTY, FD_REC_ROOM_TYPE, …: the level
                             property its text sets; FD_REC_IGNORED: why */
} fd_form;

/* What makes a load a kind of level: a record's key (Q: a quest, B: a
 * town), or a room template's T:type (its first field). */
typedef struct fd_kind_sign {
    const char *key;
    qg_map_kind kind;
} fd_kind_sign;

/* The fields of an F: line after the letter. */
typedef enum fd_field {
    FD_F_END = 0,
    FD_F_FEATURE,
    FD_F_INFO,
    FD_F_MONSTER,
    FD_F_OBJECT,
    FD_F_EGO,
    FD_F_ARTIFACT,
    FD_F_TRAP,
    FD_F_SPECIAL,       /* a number */
    FD_F_QUEST_SPECIAL, /* a number or "quest name" */
    FD_F_MIMIC,
    FD_F_MFLAG
} fd_field;

#define FD_MAX_FIELDS 10

typedef enum fd_equ {
    FD_EQU_CHAIN = 0,   /* every adjacent pair equal */
    FD_EQU_SET          /* the first argument equals any later one */
} fd_equ;

typedef enum fd_order {
    FD_ORDER_NONE = 0,  /* no LEQ/GEQ */
    FD_ORDER_STRCMP,
    FD_ORDER_NUMBER
} fd_order;

/* A quest type whose level the dungeon generator makes (the quest has no
 * map of its own): the value a quest's records give it (a Q:n:Q type
 * number, a flag of a record head's T: line) and what to call it. */
typedef struct fd_quest_kind {
    const char *value;
    const char *what;
} fd_quest_kind;

/* An object type OBJ() names instead of an object (init1.c's
 * _object_types): its tval, and the e_info.txt T: type of the egos an
 * object of it may have (EGO() looks names up among those), or NULL. */
typedef struct fd_object_type {
    const char *name;
    int tval;
    const char *ego_type;
} fd_object_type;

/* The room types of a room template's T: line (rooms.c ROOM_*). */
enum {
    FD_ROOM_NORMAL = 1, FD_ROOM_VAULT = 2, FD_ROOM_QUEST = 4, FD_ROOM_TOWN = 8,
    FD_ROOM_WILDERNESS = 16, FD_ROOM_AMBUSH = 32
};

/* A letter the room builder gives a meaning in its code when neither the
 * room nor the global letters define it (the switch after
 * _find_room_grid in build_room_template_aux). */
typedef struct fd_fixed_letter {
    unsigned char letter;
    unsigned rooms;         /* FD_ROOM_* types it applies in; 0: all */
    const char *feature;    /* its feature's tag, or NULL */
    int walls;              /* 1: the wall bits (INNER, OUTER) are cleared
                               and info set; 2: a door, they are cleared */
    uint32_t info;          /* cave_info bits set */
    const char *mimic;      /* what a secret door looks like, or NULL */
    const char *door;       /* a random door's kind ("closed 300/400, …") */
    const char *thing;      /* what the second pass puts there, in L:
                               syntax (MON(*, DEPTH+11)), or NULL */
} fd_fixed_letter;

/* How a variant builds a room template (its quest maps included):
 * rooms.c's build_room_template_aux and init1.c's parse_room_grid. */
typedef struct fd_room_rules {
    const char *floor;      /* the dungeon's floor laid under every square
                               first (floor_type[] of the surface, FLOOR) */
    const fd_fixed_letter *fixed; /* ends with letter 0 */
    const char *const *summon_types; /* MON() summon types; NULL ends */
    const fd_object_type *object_types; /* NULL name ends */
    int tv_food, sv_last_mushroom, tv_potion, tv_scroll, tv_gold;
    int sv_any;             /* the sval lookup_kind takes for any */
    int screen_wid, screen_hgt; /* a quest level is whole screens of these */
    /* what its parse_room_grid reads beyond the first version's forms */
    int chances;            /* n% options of MON(), OBJ() and features */
    int wall_flags;         /* INNER and OUTER feature flags */
    int pile_options;       /* OBJ()'s NUMBER= and TYPE= */
    int prefix_names;       /* artifacts named before their kind (PREFIX_NAME) */
    int deprecated;         /* DEPRECATED monsters found last */
    int formation_objects;  /* a FORMATION digit's letter puts objects */
} fd_room_rules;

/* How a vocabulary file numbers and names its entries. */
typedef struct fd_vocab_form {
    const char *file[QG_VOCAB_KINDS]; /* per kind; NULL: none */
    qg_vocab_format format[QG_VOCAB_KINDS];
} fd_vocab_form;

typedef struct fd_dialect_row {
    const char *name;         /* as --dialect takes it */
    const char *title;        /* for messages */
    const char *aliases;      /* other names, space-separated, or "" */
    /* ---- the edit directory ---- */
    const char *quest_hub;    /* the quest hub (q_info.txt), or NULL */
    const char *town_hub;     /* the town hub, or NULL */
    fd_vocab_form vocab;
    const char *signature;    /* what its edit directory holds, space-separated:
                                 "file" (present) or "file~TEXT" (a line of
                                 it starts with TEXT); the row whose every
                                 entry matches, with the most entries, wins */
    const char *map_suffix;   /* a map file's own suffix (".map"), or NULL */
    const char *level_folders; /* the folders of its quest and town files
                                 under the edit directory, space-separated
                                 ("quests towns"), or NULL */
    const char *data_files;   /* files of its edit directory the game reads
                                 with other parsers than its map loader
                                 (init_info, parse_edit_file, JSON): names,
                                 or "*suffix" patterns, space-separated */
    const char *map_files;    /* names data_files' patterns match that the
                                 map loader reads all the same (w_info.txt) */
    const char *loads;        /* the files the game's code hands its map
                                 loader itself (its hubs, its wilderness,
                                 maps it names): names or patterns, space-
                                 separated; a level file of the edit
                                 directory that none of them includes is
                                 never read. NULL: not known */
    const char *unread_files; /* level files of the edit directory whose
                                 loading code the game does not build (names
                                 or patterns), or NULL ... */
    const char *unread_why;   /* ... and why, for the note that skips them */
    /* ---- records ---- */
    const fd_form *forms;     /* ends with a NULL key */
    fd_field f_fields[FD_MAX_FIELDS]; /* after the letter; FD_F_END ends */
    int tag_features;         /* features and traps are f_info tags */
    int clones;               /* cN monsters */
    int rewards;              /* '!' objects and artifacts */
    int bilingual;            /* Q:$/B:$ English lines beside Japanese ones */
    int quest_dungeon;        /* Q:n:Q has a dungeon before its flags */
    int quest_rewards;        /* Q:n:R reward lists */
    int player_sizes;         /* P: sizes the level from the rows read */
    int row_stop;             /* the column a D: row's reading stops at
                                 (process_dungeon_file_aux lays a row while
                                 x < xmax, MAX_WID): the cells past it are
                                 dropped; 0: rows are read whole */
    int quest_states;         /* $QUESTn is quest n's status, which the
                                 game always sets: QUEST_STATUS_UNTAKEN (0,
                                 a new game's) to quest_states - 1; 0: the
                                 variable is no status number */
    int space_passes;         /* an undefined ' ' leaves its cell alone */
    int gate_pairs;           /* special -1 links pairs of gates */
    int trims_includes;       /* %:name loses trailing spaces */
    int player_glyph;         /* an undefined glyph that marks the player
                                 start in a room map, or 0 */
    const char *const *legend; /* built-in letters in L: syntax, or NULL */
    const char *global_letters; /* an edit-directory file whose L: lines
                                 before its first N: record are letters any
                                 map may use undefined (v_info.txt); they
                                 replace the legend's letters, or NULL */
    const char *glyph_monsters; /* undefined glyphs that each stand for a
                                 monster of that symbol, or NULL */
    int secret_directive;     /* L: letters take SECRET(…) (else SECRET is a
                                 feature name) */
    int flag_specials;        /* a number among an L: feature's flags is its
                                 special (QUEST_ENTER(1), BUILDING_1(14)) */
    int skips_unknown;        /* a record the game does not know is skipped
                                 (parse_room_line), not the end of the file */
    int symmetry;             /* the game turns the maps it builds as Angband
                                 4.2's get_random_symmetry_transform does
                                 (else, room templates aside, never) */
    const fd_room_rules *room; /* maps are room templates, read and built as
                                 the game's parse_room_grid and rooms.c do:
                                 the letters as the whole file leaves them,
                                 the room's floor first, its hard-coded
                                 letters, '@'/'<' the start; or NULL */
    /* ---- the kind of level ---- */
    const fd_kind_sign *kind_records; /* records that tell the kind; ends
                                 with a NULL key */
    const fd_kind_sign *room_kinds; /* T:type of a room template; ends with
                                 a NULL key */
    qg_map_kind map_kind;     /* what a map head (name:) makes */
    /* ---- quests without a map ---- */
    const char *quest_type_key; /* the level property holding a quest's
                                 type ("quest_type", "type"), or NULL */
    const fd_quest_kind *generated_quests; /* types whose level the dungeon
                                 generator makes; ends with a NULL value */
    const char *fixed_flag;   /* the type flag of a quest with a level of
                                 its own ("GENERATE"), or NULL */
    int random_quests;        /* the first random quest (MIN_RANDOM_QUEST):
                                 the game reads every random quest's records
                                 in one load, $QUEST_NUMBER set to it; a
                                 quest from it up is read that way; 0: none */
    /* ---- ?: expressions ---- */
    fd_equ equ;
    fd_order order;
    const char *functions;    /* beyond AND IOR NOT EQU, space-separated */
    const char *const *variables; /* names; "NAME#" takes a number, "NAME*"
                                     any suffix */
    int quoted_atoms;         /* $QUEST"name": a quoted part is one atom */
    int shared_buffer;        /* numeric variables share one buffer */
} fd_dialect_row;

/* Whether list (space-separated names and patterns with one '*',
 * "*.map", "t0*.txt", compared without case) names the base name of
 * path. */
int fd_list_names(const char *list, const char *path);
/* The row of a dialect (AUTO gives the zangband row). */
const fd_dialect_row *fd_row(qg_fd_dialect dialect);
/* The meaning of the record a line starts with; *form receives the form
 * (NULL for comments and blank lines, which are FD_REC_KEPT). */
fd_rec fd_record_of(const fd_dialect_row *row, const char *line, size_t len,
                    const fd_form **form);
/* The kind of level a record makes its load (a quest record, a town's
 * buildings, a room template's type, a vault file's map head), or
 * QG_KIND_UNKNOWN. */
qg_map_kind fd_kind_of_record(const fd_dialect_row *row, const qg_fd_record *rec);
/* The record that defines a map's letters: "F:" where F: lines carry
 * fields, else the room-template "L:". */
const char *fd_letter_record(const fd_dialect_row *row);
/* Whether the dialect's ?: language has a function or variable. */
int fd_has_function(const fd_dialect_row *row, const char *name);
int fd_has_variable(const fd_dialect_row *row, const char *name);

#endif
