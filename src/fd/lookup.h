/* Finding what a room-template letter names in the variant's vocabulary,
 * as its game does (init1.c parse_lookup_monster and the like). Each
 * returns the index, or 0 when nothing matches. */
#ifndef QG_FD_LOOKUP_H
#define QG_FD_LOOKUP_H

#include "fd/dialect.h"

/* MON(name): the first monster whose name contains name; a DEPRECATED one
 * only when no other does (where the rules say so). */
int fd_lookup_monster(const qg_vocab *vocab, const fd_room_rules *rules, const char *name);
/* Whether text is one byte that is some monster's symbol (_is_d_char). */
int fd_monster_symbol(const qg_vocab *vocab, const char *text);
/* OBJ(name): mushrooms, potions and scrolls go by "mushroom of …" and the
 * like (_lookup_kind). */
int fd_lookup_kind(const qg_vocab *vocab, const fd_room_rules *rules, const char *name);
/* The object of that tval and sval (lookup_kind; the sv_any sval takes the
 * first of the tval). */
int fd_kind_of(const qg_vocab *vocab, const fd_room_rules *rules, int tval, int sval);
/* OBJ(TYPE): the object type of that name, or NULL. */
const fd_object_type *fd_object_type_named(const fd_room_rules *rules, const char *name);
/* The ego type (an e_info.txt T: word) of objects of a tval, or NULL
 * (_lookup_ego_type). */
const char *fd_ego_type_of(const fd_room_rules *rules, int tval);
/* EGO(name) among the egos of ego_type (NULL: all). */
int fd_lookup_ego(const qg_vocab *vocab, const char *name, const char *ego_type);
/* ART(name): by its full name, or its kind's name and its own (its own
 * first for a PREFIX_NAME one, where the rules say so). */
int fd_lookup_artifact(const qg_vocab *vocab, const fd_room_rules *rules, const char *name);

#endif
