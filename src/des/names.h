/* The map names seen across .des files and the scanner state a file
 * leaves behind (qg_des_names), for a compile that parses files apart,
 * each with a table of its own, and then checks them in file order
 * against one table of every file before. */
#ifndef QG_DES_NAMES_H
#define QG_DES_NAMES_H

#include "questgrid/des.h"

/* The scanner state a parse with names starts in and leaves (flex keeps
 * its start condition from one file to the next); 0 is the initial one. */
int des_names_state(const qg_des_names *names);
void des_names_set_state(qg_des_names *names, int state);
/* 1 when name was added, with *file and *line saying where; 0 when not;
 * -1 when there was no memory to read an earlier file's names. */
int des_names_find(const qg_des_names *names, const char *name, const char **file,
                   int *line);
/* Adds a name des_names_find did not find; 0 on no memory. */
int des_names_add(qg_des_names *names, const char *name, const char *file, int line);

#endif
