/* What a compile that parses .des files apart needs of the front end:
 * the map names seen across files and the scanner state a file leaves
 * behind (qg_des_names), so that each file is parsed with a table of its
 * own and checked in file order against one table of every file before;
 * and a file skimmed for what the files after it need. */
#ifndef QG_DES_SCAN_H
#define QG_DES_SCAN_H

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
/* The file as qg_des_parse reads it from the scanner state of names
 * (which gets the state it leaves), but only what lies outside its maps:
 * its global prelude and default-depth lines. The maps' directives and
 * Lua are passed over unread, the file holds no map, nothing is reported
 * and no name is added to names. */
qg_status des_skim(const char *path, const char *data, size_t len, qg_des_names *names,
                   qg_des_file **out);

#endif
