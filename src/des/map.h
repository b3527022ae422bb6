/* The .des payload of a qg_mapdef (format QG_FORMAT_DES): its lowered Lua
 * chunks and its directives in textual order, each with its argument
 * parsed into structure. */
#ifndef QG_DES_MAP_H
#define QG_DES_MAP_H

#include "questgrid/des.h"
#include "core/mapdef.h"
#include "core/arena.h"
#include "des/chunk.h"
#include "des/directives.h"
#include "des/lex.h"
#include "des/scan.h"

typedef struct des_directive {
    des_dir dir;
    int line, col;       /* where the argument starts in the .des file */
    char *arg;           /* one argument as handed to Lua (NUL-terminated) */
    size_t arg_len;
    double number;       /* CHANCE (already x100 for N%), WEIGHT, ORDER */
    char *range;         /* CHANCE/WEIGHT "(range)" text, or NULL */
    int priority;        /* Crawl 0.5 "CHANCE: <priority> : <chance>", or -1 */
    des_spec spec;       /* the argument parsed (DES_SPEC_NONE if it failed) */
} des_directive;

typedef struct des_map {
    qg_des_chunk chunks[QG_CHUNK_KINDS]; /* code in the arena; len 0: none */
    des_directive *dirs;
    size_t dir_count, dir_cap;
    qg_arena arena;     /* chunk code, directive texts and parsed arguments */
    int legacy;
    int has_lua;         /* ':' lines or {{ }} blocks */
} des_map;

des_map *des_map_new(int legacy);
void des_map_free(void *payload);
/* The payload of a .des definition, or NULL for another format. */
des_map *des_map_of(const qg_mapdef *def);
/* Takes each chunk's code from the working chunks (which are emptied for
 * the next map), naming file; 0 when out of memory. */
int des_map_finish(des_map *map, des_chunk *work, const char *file);

struct qg_des_file {
    char *path;
    qg_mapdef **maps;
    size_t map_count, map_cap;
    /* when set, each map read is handed to it (qg_des_parse_each) */
    qg_des_each_map each;
    void *each_user;
    des_chunk prelude;
    qg_des_chunk prelude_view;
    char *default_depth; /* the default-depth in force at the end, or NULL */
};

/* Map names across files, and the scanner state one file leaves behind
 * (flex keeps its start condition from one .des file to the next). A
 * compile keeps the table from its first file to its last, so its names
 * are kept deflated, in blocks of a few kilobytes: a slot holds a name's
 * hash and its block, and a hash that matches is confirmed against the
 * block's text, which also says where the name was defined. A name thus
 * costs 8 bytes of slot and a few of deflated text, and a lookup inflates
 * no more than a block whatever the files' sizes. */
typedef struct des_name_slot {
    uint32_t hash;       /* des_name_hash of the name */
    uint32_t block;      /* 1 + its index in blocks; 0: the slot is empty */
} des_name_slot;

/* Names of one file as records (the line, then the name NUL-terminated):
 * the last block's are the table's open buffer, the others' deflated. */
typedef struct des_name_block {
    size_t file;            /* index in paths */
    unsigned char *packed;  /* NULL while its records are the open ones */
    size_t packed_len, len; /* len: of its records unpacked */
    int stored;             /* packed holds the records as they are */
} des_name_block;

struct qg_des_names {
    des_name_slot *slots;
    size_t slot_count, used;
    char **paths;        /* the files that defined names, in order */
    size_t path_count, path_cap;
    des_name_block *blocks;
    size_t block_count, block_cap;
    qg_buf open;         /* the last block's records */
    size_t stored_bytes; /* of the blocks kept as they are */
    des_state carry_state;
};

uint32_t des_name_hash(const char *name);

#endif
