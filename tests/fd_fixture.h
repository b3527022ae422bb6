/* A dialect's fixture (tests/data/fd/dialects/NAME, written for
 * questgrid): its edit directory, vocabulary and options, and quests
 * loaded from its hub with their round trips through .des and TMX. */
#ifndef QG_TESTS_FD_FIXTURE_H
#define QG_TESTS_FD_FIXTURE_H

#include "roundtrip_util.h"

typedef struct fixture {
    char dir[4096];
    qg_fd_dialect dialect;
    qg_vocab *vocab;
    qg_fd_options opt;
    qg_diags *diags;
    qg_runtime *rt;
} fixture;

void open_fixture(fixture *f, const char *name);
void close_fixture(fixture *f);
/* The path of a file of the fixture (static storage, overwritten). */
const char *file_of(const fixture *f, const char *name);
/* A quest through the hub, with its round trips; errors fail. */
qg_level *quest(fixture *f, const char *hub, int number, qg_vars *vars);
/* A quest the hub defines without a map: no level, and a note saying why
 * (text) rather than an error. */
void no_map(fixture *f, const char *hub, int number, const char *text);
qg_cell cell_at(const qg_level *l, int x, int y);

#endif
