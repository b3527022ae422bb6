/* Parsing the .des inputs on several threads with the result of parsing
 * them one after another. A serial parse threads two things from file to
 * file: the map names seen (a name defined again is an error naming the
 * first definition) and the scanner's start condition (flex keeps it from
 * one file to the next). Each file is first parsed alone, as if it came
 * first; qgc_des_settle then walks the files in order and parses again,
 * in order, the rare file whose parse the earlier files change. */
#include "cache/compile.h"
#include "des/map.h"

#include <stdlib.h>

void qgc_des_unit_parse(qgc_des_unit *u)
{
    qg_des_names *alone = qg_des_names_new();
    u->diags = qg_diags_new();
    if (!alone || !u->diags) {
        qg_des_names_free(alone);
        u->status = QG_ERR_NOMEM;
        return;
    }
    u->status = qg_des_parse(u->input->io_path, u->input->data, u->input->len, NULL, alone,
                             &u->file, u->diags);
    u->end_state = (int)alone->carry_state;
    qg_des_names_free(alone);
}

void qgc_des_unit_free(qgc_des_unit *u)
{
    qg_des_file_free(u->file);
    qg_diags_free(u->diags);
    u->file = NULL;
    u->diags = NULL;
}

/* Whether a map of the file was named in an earlier file: its parse in
 * order reports that, against the earlier definition. */
static int names_seen_before(const qg_des_file *file, const qg_des_names *names)
{
    for (size_t i = 0; i < qg_des_map_count(file); i++)
        if (des_names_find(names, qg_mapdef_name(qg_des_map(file, i))))
            return 1;
    return 0;
}

/* What the file's parse in order would have added: first definitions. */
static int note_names(const qg_des_file *file, qg_des_names *names)
{
    for (size_t i = 0; i < qg_des_map_count(file); i++) {
        const qg_mapdef *def = qg_des_map(file, i);
        if (!des_names_find(names, qg_mapdef_name(def)) &&
            !des_names_add(names, qg_mapdef_name(def), qg_des_file_path(file),
                           qg_mapdef_line(def)))
            return 0;
    }
    return 1;
}

qg_status qgc_des_settle(qgc_des_unit *units, size_t count)
{
    qg_des_names *names = qg_des_names_new();
    if (!names)
        return QG_ERR_NOMEM;
    qg_status st = QG_OK;
    for (size_t f = 0; f < count && st == QG_OK; f++) {
        qgc_des_unit *u = &units[f];
        if (u->status == QG_ERR_NOMEM) {
            st = QG_ERR_NOMEM;
        } else if (names->carry_state != DES_ST_INITIAL ||
                   (u->file && names_seen_before(u->file, names))) {
            qgc_des_unit_free(u);
            u->reparsed = 1;
            u->diags = qg_diags_new();
            u->status = u->diags ? qg_des_parse(u->input->io_path, u->input->data,
                                                u->input->len, NULL, names, &u->file,
                                                u->diags)
                                 : QG_ERR_NOMEM;
            st = u->status == QG_ERR_NOMEM ? QG_ERR_NOMEM : QG_OK;
        } else {
            names->carry_state = (des_state)u->end_state;
            if (u->file && !note_names(u->file, names))
                st = QG_ERR_NOMEM;
        }
    }
    qg_des_names_free(names);
    return st;
}
