/* F:/D: writer from a definition: the top file's records in order, with
 * F:, Q: and P: lines written anew for the output dialect and everything
 * else (comments, ?:, %:, D:, B:, W:, M:, …) carried byte for byte. */
#include "formats/fd_out.h"
#include "fd/dialect.h"

#include <string.h>

/* Zangband's Q:n:Q has flags where Hengband has the dungeon, then flags. */
#define QUEST_DUNGEON_FIELD 7

static void put_quest_values(fd_out *o, const qg_fd_quest *q, qg_fd_dialect from)
{
    int32_t values[33];
    int count = q->value_count;
    memcpy(values, q->values, sizeof q->values);
    int to_dungeon = fd_row(o->dialect)->quest_dungeon, from_dungeon = fd_row(from)->quest_dungeon;
    int to_hengband = to_dungeon && !from_dungeon;
    int from_hengband = from_dungeon && !to_dungeon;
    if (q->sub == 'Q' && to_hengband && count > QUEST_DUNGEON_FIELD) {
        memmove(values + QUEST_DUNGEON_FIELD + 1, values + QUEST_DUNGEON_FIELD,
                (size_t)(count - QUEST_DUNGEON_FIELD) * sizeof *values);
        values[QUEST_DUNGEON_FIELD] = 0;
        count++;
    } else if (q->sub == 'Q' && from_hengband && count > QUEST_DUNGEON_FIELD) {
        if (values[QUEST_DUNGEON_FIELD])
            fd_out_warn(o, "%s has no quest dungeon field (dungeon %d is dropped)",
                        qg_fd_dialect_name(o->dialect), (int)values[QUEST_DUNGEON_FIELD]);
        memmove(values + QUEST_DUNGEON_FIELD, values + QUEST_DUNGEON_FIELD + 1,
                (size_t)(count - QUEST_DUNGEON_FIELD - 1) * sizeof *values);
        count--;
    }
    for (int i = 0; i < count; i++)
        qg_buf_printf(o->buf, ":%d", (int)values[i]);
}

/* Returns 0 when the record is better carried verbatim. */
static int put_quest(fd_out *o, const qg_fd_record *rec, qg_fd_dialect from)
{
    const qg_fd_quest *q = rec->quest;
    if (!q || !strchr("NTQR", q->sub))
        return 0;
    const fd_dialect_row *row = fd_row(o->dialect);
    if (q->sub == 'R' && !row->quest_rewards)
        fd_out_warn(o, "%s has no Q:%d:R reward lists", qg_fd_dialect_name(o->dialect),
                    q->number);
    if (!row->quest_hub)
        fd_out_warn(o, "%s has no quest records (its quests are code)",
                    qg_fd_dialect_name(o->dialect));
    qg_buf_puts(o->buf, "Q:");
    if (q->english && row->bilingual)
        qg_buf_putc(o->buf, '$');
    if (q->sub == 'N' || q->sub == 'T') {
        /* the text as written, even past the ':' or '/' the games stop at */
        size_t skip = 2 + (size_t)q->english;
        qg_buf_append(o->buf, rec->text + skip, rec->len - skip);
        return 1;
    }
    qg_buf_printf(o->buf, "%d:%c", q->number, q->sub);
    put_quest_values(o, q, from);
    return 1;
}

static void put_verbatim(fd_out *o, const qg_fd_record *rec)
{
    qg_buf_append(o->buf, rec->text, rec->len);
}

/* A record the output dialect does not know. */
static int unknown_to(const fd_out *o, const qg_fd_record *rec)
{
    const fd_form *form;
    return fd_record_of(fd_row(o->dialect), rec->text, rec->len, &form) == FD_REC_UNKNOWN;
}

static void put_record(fd_out *o, const qg_fd_record *rec, qg_fd_dialect from)
{
    int same = o->dialect == from;
    switch (rec->kind) {
    case QG_FD_FEATURE:
        if (rec->spec) {
            qg_fd_spec spec = *rec->spec;
            if (o->translator)
                fd_translate_spec(o, &spec);
            fd_put_spec(o, &spec, !memcmp(fd_row(from)->f_fields, fd_row(o->dialect)->f_fields,
                                          sizeof fd_row(from)->f_fields));
            return;
        }
        break;
    case QG_FD_QUEST:
        if (!same && rec->skipped) {
            fd_out_warn(o, "the other language's Q: line is left out (%s reads one language)",
                        qg_fd_dialect_name(o->dialect));
            return;
        }
        if (!rec->skipped && put_quest(o, rec, from))
            return;
        break;
    case QG_FD_PLAYER:
        if (rec->y >= 0) {
            qg_buf_printf(o->buf, "P:%d:%d", rec->y, rec->x);
            return;
        }
        break;
    case QG_FD_OTHER:
        if (!same && unknown_to(o, rec))
            fd_out_warn(o, "%s has no %c: records; carried as they are",
                        qg_fd_dialect_name(o->dialect), rec->text[0]);
        break;
    default:
        break;
    }
    put_verbatim(o, rec);
}

qg_status qg_fd_write(const qg_mapdef *def, const qg_write_options *options,
                      char **out, size_t *len, qg_diags *diags)
{
    qg_fd_dialect from = qg_fd_mapdef_dialect(def);
    if (from == QG_FD_AUTO) {
        qg_diags_add(diags, QG_ERROR, qg_mapdef_file(def) ? qg_mapdef_file(def) : "", 0, 0,
                     NULL, 0, "not an F:/D: definition: write its level instead");
        return QG_ERR_INVALID;
    }
    qg_buf buf;
    qg_buf_init(&buf);
    fd_out o;
    memset(&o, 0, sizeof o);
    o.buf = &buf;
    o.dialect = options && options->fd_dialect != QG_FD_AUTO ? options->fd_dialect : from;
    o.vocab = options ? options->vocab : NULL;
    o.mapping = options ? options->mapping : NULL;
    o.translator = options ? options->translator : NULL;
    o.diags = diags;
    for (size_t i = 0; i < qg_fd_record_count(def); i++) {
        const qg_fd_record *rec = qg_fd_record_at(def, i);
        if (rec->file != 0)
            continue;
        o.file = qg_fd_file_path(def, rec->file);
        o.line = rec->line;
        o.source = rec->text;
        o.source_len = rec->len;
        put_record(&o, rec, from);
        qg_buf_putc(&buf, '\n');
    }
    if (buf.failed) {
        qg_buf_free(&buf);
        return QG_ERR_NOMEM;
    }
    /* what the translator refused is reported by its caller: no file */
    if (o.translator && qg_translator_refused(o.translator)) {
        qg_buf_free(&buf);
        return QG_ERR_INVALID;
    }
    *len = buf.len;
    *out = qg_buf_take(&buf);
    return QG_OK;
}
