/* Reading one .des file into a qg_des_file (maps, chunks, directives). */
#ifndef QG_DES_PARSE_H
#define QG_DES_PARSE_H

#include "questgrid/des.h"

struct des_map;

/* Parses data into file (whose path is set); legacy forces the 0.3-0.4
 * spellings, which are otherwise detected per file; skim passes over the
 * maps (des_skim). */
qg_status des_parse_into(qg_des_file *file, const char *data, size_t len, int legacy,
                         int skim, qg_des_names *names, qg_diags *diags);

/* Sets the definition's rows-derived and declarative properties (name,
 * tags, depth, place, orient, chance, weight, order, desc, width, height)
 * and its kind, from what is known without running Lua. */
qg_status des_map_properties(qg_mapdef *def, const struct des_map *map,
                             const char *default_depth);

#endif
