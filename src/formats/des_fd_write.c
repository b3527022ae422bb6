/* .des from an F:/D: definition: the D: rows become the MAP, every F: line
 * becomes KFEAT/KMONS/KITEM lines for its letter, and a ?: condition in
 * force (with those of the %: lines that led to the file) becomes a Lua
 * `: if … then` around them, evaluated as the dialect's games do. */
#include "formats/des_fd.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct fd_des {
    const qg_mapdef *def;
    const qg_write_options *options;
    qg_diags *diags;
    qg_buf *out;
    qg_fd_dialect dialect;
    long *parent;          /* per file: the %: record that first read it, or -1 */
    unsigned char glyph[256]; /* letter -> .des glyph */
    qg_reported reported;
    int failed;
} fd_des;

static void report(fd_des *w, qg_severity severity, const qg_fd_record *rec,
                   const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void report(fd_des *w, qg_severity severity, const qg_fd_record *rec,
                   const char *fmt, ...)
{
    qg_buf message;
    qg_buf_init(&message);
    va_list ap;
    va_start(ap, fmt);
    qg_buf_vprintf(&message, fmt, ap);
    va_end(ap);
    const char *file = rec ? qg_fd_file_path(w->def, rec->file) : qg_mapdef_file(w->def);
    qg_diags_add(w->diags, severity, file ? file : "", rec ? rec->line : 0, rec ? 1 : 0,
                 rec ? rec->text : NULL, rec ? rec->len : 0, "%s",
                 message.data ? message.data : "");
    qg_buf_free(&message);
    if (severity == QG_ERROR)
        w->failed = 1;
}

/* ---- conditions -------------------------------------------------------- */

static const qg_fd_record *cond_of(const fd_des *w, const qg_fd_record *rec)
{
    return rec->cond >= 0 ? qg_fd_record_at(w->def, (size_t)rec->cond) : NULL;
}

/* "?:1" and the like always hold. */
static int always(const qg_fd_record *cond)
{
    if (!cond)
        return 1;
    const char *e = cond->text + 2;
    size_t n = cond->len - 2;
    while (n && (e[n - 1] == ' ' || e[n - 1] == '\r'))
        n--;
    return n == 1 && e[0] == '1';
}

/* Whether every condition that must hold for rec to be read always does. */
static int trivial_chain(const fd_des *w, const qg_fd_record *rec)
{
    for (int depth = 0; rec && depth < 64; depth++) {
        if (!always(cond_of(w, rec)))
            return 0;
        long parent = w->parent[rec->file];
        rec = parent >= 0 ? qg_fd_record_at(w->def, (size_t)parent) : NULL;
    }
    return 1;
}

static void put_chain(fd_des *w, const qg_fd_record *rec)
{
    int first = 1;
    qg_buf_puts(w->out, ": if ");
    for (int depth = 0; rec && depth < 64; depth++) {
        const qg_fd_record *cond = cond_of(w, rec);
        if (!always(cond)) {
            if (!first)
                qg_buf_puts(w->out, " and ");
            des_fd_condition(w->out, cond->text + 2, cond->len - 2, w->dialect);
            first = 0;
        }
        long parent = w->parent[rec->file];
        rec = parent >= 0 ? qg_fd_record_at(w->def, (size_t)parent) : NULL;
    }
    qg_buf_puts(w->out, " then\n");
}

/* ---- names ------------------------------------------------------------- */

/* The target game's name through the translator (which reports what it
 * refuses); NULL when refused. */
static const char *translated(qg_translator *tr, qg_vocab_kind kind, const qg_thing *t)
{
    if (kind == QG_VOCAB_FEATURE) {
        int32_t index;
        const char *name;
        return qg_translate_feature(tr, t->kind == QG_THING_INDEX || t->index >= 0 ? t->index : -1,
                                    t->name, &index, &name) ? name : NULL;
    }
    qg_slot slot = kind == QG_VOCAB_MONSTER    ? QG_SLOT_MONSTER
                   : kind == QG_VOCAB_ARTIFACT ? QG_SLOT_ARTIFACT
                                               : QG_SLOT_OBJECT;
    qg_thing out;
    return qg_translate_thing(tr, slot, t, &out) && out.kind == QG_THING_NAME ? out.name : NULL;
}

static const char *crawl_name(fd_des *w, const qg_fd_record *rec, qg_vocab_kind kind,
                              const qg_thing *t, const char *what)
{
    if (w->options && w->options->translator)
        return translated(w->options->translator, kind, t);
    const qg_mapping *m = w->options ? w->options->mapping : NULL;
    const qg_mapping_entry *e = NULL;
    if (m && t->index >= 0)
        e = qg_mapping_by_index(m, kind, t->index);
    if (m && !e && t->name)
        e = qg_mapping_by_edit_name(m, kind, t->name);
    if (e && e->crawl_name[0])
        return e->crawl_name;
    if (qg_reported_first(&w->reported, kind, t->index))
        report(w, QG_WARNING, rec, "unmapped %s %d%s%s: %s", what, (int)t->index,
               t->name ? " " : "", t->name ? t->name : "",
               e ? "the mapping gives it no Crawl name" : "no mapping entry");
    return NULL;
}

static const char *feature_text(fd_des *w, const qg_fd_record *rec, const qg_fd_spec *s)
{
    if (s->feature.kind == QG_THING_RANDOM) {
        report(w, QG_WARNING, rec, ".des has no random feature; letter '%c' is floor",
               s->letter);
        return "floor";
    }
    const char *name = crawl_name(w, rec, QG_VOCAB_FEATURE, &s->feature, "feature");
    return name ? name : "floor";
}

static void monster_text(fd_des *w, const qg_fd_record *rec, const qg_thing *t, qg_buf *out)
{
    const char *name = NULL;
    switch (t->kind) {
    case QG_THING_NONE: name = "nothing"; break;
    case QG_THING_RANDOM: name = t->index == 0 ? "0" : t->index == 5 ? "9" : "8"; break;
    case QG_THING_INDEX: name = crawl_name(w, rec, QG_VOCAB_MONSTER, t, "monster"); break;
    default:
        report(w, QG_WARNING, rec, ".des has no %s monster", qg_thing_kind_name(t->kind));
        break;
    }
    qg_buf_puts(out, name ? name : "nothing");
}

static void item_text(fd_des *w, const qg_fd_record *rec, const qg_fd_spec *s, qg_buf *out)
{
    const qg_thing *obj = &s->things[QG_SLOT_OBJECT], *art = &s->things[QG_SLOT_ARTIFACT];
    const char *name = NULL;
    if (art->kind == QG_THING_INDEX)
        name = crawl_name(w, rec, QG_VOCAB_ARTIFACT, art, "artifact");
    else if (obj->kind == QG_THING_RANDOM)
        name = obj->index > 0 ? "star_item" : "any";
    else if (obj->kind == QG_THING_INDEX)
        name = crawl_name(w, rec, QG_VOCAB_OBJECT, obj, "object");
    else if (obj->kind != QG_THING_NONE || (art->kind != QG_THING_NONE))
        report(w, QG_WARNING, rec, ".des has no form for this object of letter '%c'",
               s->letter);
    if (s->things[QG_SLOT_TRAP].kind != QG_THING_NONE || s->things[QG_SLOT_EGO].kind != QG_THING_NONE)
        report(w, QG_WARNING, rec, ".des has no trap or ego field (letter '%c')", s->letter);
    qg_buf_puts(out, name ? name : "nothing");
}

/* ---- the file ---------------------------------------------------------- */

static int find_parents(fd_des *w)
{
    size_t files = qg_fd_file_count(w->def);
    w->parent = malloc(files * sizeof *w->parent);
    if (!w->parent)
        return 0;
    for (size_t f = 0; f < files; f++)
        w->parent[f] = -1;
    for (size_t i = 0; i < qg_fd_record_count(w->def); i++) {
        const qg_fd_record *rec = qg_fd_record_at(w->def, i);
        if (rec->kind == QG_FD_INCLUDE && rec->include > 0 &&
            (size_t)rec->include < files && w->parent[rec->include] < 0)
            w->parent[rec->include] = (long)i;
    }
    return 1;
}

/* D: rows: unconditional, from one file, before no later F: line. */
static int check_rows(fd_des *w, size_t *first_row)
{
    long file = -1;
    *first_row = SIZE_MAX;
    for (size_t i = 0; i < qg_fd_record_count(w->def); i++) {
        const qg_fd_record *rec = qg_fd_record_at(w->def, i);
        if (rec->kind == QG_FD_FEATURE && *first_row != SIZE_MAX && rec->spec)
            report(w, QG_ERROR, rec, "an F: line after the D: rows cannot become .des "
                                     "(convert with --var or --quest)");
        if (rec->kind != QG_FD_ROW)
            continue;
        if (*first_row == SIZE_MAX)
            *first_row = i;
        if (!trivial_chain(w, rec))
            report(w, QG_ERROR, rec, "D: rows under a ?: condition cannot become one .des "
                                     "MAP (convert with --var or --quest)");
        if (file >= 0 && (long)rec->file != file)
            report(w, QG_ERROR, rec, "D: rows from two files cannot become one .des MAP");
        if (rec->len <= 2)
            report(w, QG_ERROR, rec, "an empty D: row cannot become a .des MAP line");
        file = (long)rec->file;
    }
    if (*first_row == SIZE_MAX)
        report(w, QG_ERROR, NULL, "no D: rows: nothing to write as .des");
    return !w->failed;
}

/* Letters keep their glyph; a space (outside the map in .des) moves to a
 * glyph no row uses. */
static void choose_glyphs(fd_des *w)
{
    int used[256] = {0};
    for (size_t i = 0; i < qg_fd_record_count(w->def); i++) {
        const qg_fd_record *rec = qg_fd_record_at(w->def, i);
        for (size_t j = 2; rec->kind == QG_FD_ROW && j < rec->len; j++)
            used[(unsigned char)rec->text[j]] = 1;
    }
    for (int c = 0; c < 256; c++)
        w->glyph[c] = (unsigned char)c;
    static const char pool[] = "aDEFHJKLMNOPQRSZpqrsuyz&~!?_-;'`#\"";
    for (const char *p = pool; *p; p++)
        if (!used[(unsigned char)*p]) {
            w->glyph[' '] = (unsigned char)*p;
            return;
        }
    if (used[' '])
        report(w, QG_ERROR, NULL, "no glyph is free for the letter ' '");
}

static void put_letter(fd_des *w, const qg_fd_record *rec)
{
    const qg_fd_spec *s = rec->spec;
    unsigned char g = w->glyph[s->letter];
    int conditional = !trivial_chain(w, rec);
    if (conditional)
        put_chain(w, rec);
    qg_buf_printf(w->out, "KFEAT: %c = %s\nKMONS: %c = ", g, feature_text(w, rec, s), g);
    monster_text(w, rec, &s->things[QG_SLOT_MONSTER], w->out);
    qg_buf_printf(w->out, "\nKITEM: %c = ", g);
    item_text(w, rec, s, w->out);
    qg_buf_putc(w->out, '\n');
    if (conditional)
        qg_buf_puts(w->out, ": end\n");
}

static void put_header(fd_des *w)
{
    qg_buf_puts(w->out, "NAME: ");
    const char *name = qg_mapdef_name(w->def);
    const char *dot = name ? strrchr(name, '.') : NULL;
    for (const char *p = name; p && *p && p != dot; p++)
        qg_buf_putc(w->out, *p == ' ' || *p == '/' || (unsigned char)*p < ' ' ? '_' : *p);
    qg_buf_puts(w->out, "\nTAGS: converted no_rotate no_hmirror no_vmirror\n"
                        "ORIENT: encompass\n");
}

static void put_body(fd_des *w, size_t first_row)
{
    int conditions = 0;
    for (size_t i = 0; i < qg_fd_record_count(w->def); i++) {
        const qg_fd_record *rec = qg_fd_record_at(w->def, i);
        if (rec->skipped)
            continue;
        if (rec->kind == QG_FD_QUEST || rec->kind == QG_FD_OTHER)
            qg_buf_printf(w->out, "# %.*s\n", (int)rec->len, rec->text);
        else if (rec->kind == QG_FD_PLAYER)
            report(w, QG_WARNING, rec, ".des has no player start");
        conditions |= rec->kind == QG_FD_FEATURE && rec->spec && !trivial_chain(w, rec);
    }
    if (conditions)
        des_fd_prelude(w->out, w->dialect);
    for (size_t i = 0; i < first_row; i++) {
        const qg_fd_record *rec = qg_fd_record_at(w->def, i);
        if (rec->kind == QG_FD_FEATURE && rec->spec && !rec->skipped)
            put_letter(w, rec);
    }
    qg_buf_puts(w->out, "MAP\n");
    for (size_t i = first_row; i < qg_fd_record_count(w->def); i++) {
        const qg_fd_record *rec = qg_fd_record_at(w->def, i);
        if (rec->kind != QG_FD_ROW)
            continue;
        size_t len = rec->len;
        while (len > 2 && (rec->text[len - 1] == '\r'))
            len--;
        for (size_t j = 2; j < len; j++)
            qg_buf_putc(w->out, w->glyph[(unsigned char)rec->text[j]]);
        qg_buf_putc(w->out, '\n');
    }
    qg_buf_puts(w->out, "ENDMAP\n");
}

qg_status qg_des_write_fd(const qg_mapdef *def, const qg_write_options *options,
                          char **out, size_t *len, qg_diags *diags)
{
    fd_des w;
    memset(&w, 0, sizeof w);
    w.def = def;
    w.options = options;
    w.diags = diags;
    w.dialect = qg_fd_mapdef_dialect(def);
    if (w.dialect == QG_FD_AUTO) {
        report(&w, QG_ERROR, NULL, "not an F:/D: definition");
        return QG_ERR_INVALID;
    }
    qg_buf buf;
    qg_buf_init(&buf);
    w.out = &buf;
    size_t first_row;
    qg_status status = QG_OK;
    if (!find_parents(&w))
        status = QG_ERR_NOMEM;
    else if (!check_rows(&w, &first_row))
        status = QG_ERR_INVALID;
    else {
        choose_glyphs(&w);
        put_header(&w);
        put_body(&w, first_row);
        status = w.failed ? QG_ERR_INVALID : buf.failed ? QG_ERR_NOMEM : QG_OK;
    }
    /* what the translator refused is reported by its caller: no file */
    if (status == QG_OK && options && options->translator &&
        qg_translator_refused(options->translator))
        status = QG_ERR_INVALID;
    if (status == QG_OK) {
        *len = buf.len;
        *out = qg_buf_take(&buf);
    }
    qg_buf_free(&buf);
    free(w.parent);
    qg_reported_free(&w.reported);
    return status;
}
