/* Building a room template's map (FrogComposband's rooms.c): see room.c. */
#ifndef QG_FD_ROOM_H
#define QG_FD_ROOM_H

#include "fd/fd_internal.h"
#include "core/rng.h"

typedef struct fd_room {
    const fd_dialect_row *row;   /* its room rules */
    const qg_fd_options *opt;    /* the vocabulary */
    const qg_fd_spec *letter[256]; /* the room's L: letters as the file leaves them */
    unsigned char scramble[256]; /* the letter a letter's definition stands for */
    const qg_fd_spec *global[256]; /* v_info.txt's global letters */
    const qg_fd_spec *fixed_things; /* per fixed letter of the rules, the
                                   thing of one with a second-pass thing */
    const qg_fd_record *const *rows; /* the M: rows */
    size_t row_count;
    unsigned type;               /* FD_ROOM_* */
    int formation;               /* a FORMATION room */
    int no_rotate;               /* a NO_ROTATE room */
    qg_level *level;             /* as wide as the rows, as tall as their count */
    int32_t floor;               /* set by fd_room_build */
    const char *floor_name;
} fd_room;

/* T:type:subtype[:flags] (the text after "T:"): the room's type and its
 * FORMATION and NO_ROTATE flags (init1.c _parse_room_type). */
void fd_room_type(fd_room *room, const char *text, size_t len);
/* !:SCRAMBLE(a,b,…) or SHUFFLE (the text after "!:"): each letter stands
 * for another of the list, drawn as parse_room_line draws them when rng is
 * given (drawn receives "ab ba": each letter and the one it stands for),
 * else for itself. An error and 0 when a letter of the list is not a
 * letter of the room yet, where the game stops reading the file. */
int fd_room_scramble(fd_room *room, const fd_line *at, const char *text, size_t len,
                     qg_rng *rng, char *drawn, size_t size);
/* The transforms transform_alloc_room may pick for a room of that size
 * (qg_level_turns' bits), and one picked as transform_alloc_random picks. */
unsigned fd_room_turns(const fd_room *room, int width, int height);
int fd_room_pick_turn(const fd_room *room, int width, int height, qg_rng *rng);
/* The transforms Angband 4.2's get_random_symmetry_transform may give a
 * vault or room template of that size (gen-chunk.c: the four without a
 * transposition always, the four with one only when
 * calc_default_transpose_weight gives them a weight), and one drawn with the
 * same weights. */
unsigned fd_symmetry_turns(int width, int height);
int fd_symmetry_pick_turn(int width, int height, qg_rng *rng);
/* Lays out the rows on room->level: terrain, things, the player start. */
qg_status fd_room_build(fd_room *room);

#endif
