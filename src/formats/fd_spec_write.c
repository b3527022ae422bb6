/* F: lines in each dialect: numbers or f_info tags for features and traps,
 * cN clones and '!' rewards in Hengband, ToME's special:mimic:mflag. What
 * a dialect cannot say is warned about, never silently dropped. */
#include "formats/fd_out.h"

#include <stdarg.h>
#include <string.h>

void fd_out_warn(fd_out *o, const char *fmt, ...)
{
    qg_buf message;
    qg_buf_init(&message);
    va_list ap;
    va_start(ap, fmt);
    qg_buf_vprintf(&message, fmt, ap);
    va_end(ap);
    qg_diags_add(o->diags, QG_WARNING, o->file ? o->file : "", o->line, o->line ? 1 : 0,
                 o->source, o->source_len, "%s", message.data ? message.data : "");
    qg_buf_free(&message);
    o->warnings++;
}

static const char *dialect(const fd_out *o)
{
    return qg_fd_dialect_name(o->dialect);
}

static void put_random(fd_out *o, const qg_thing *t, int bare_only)
{
    if (t->index && bare_only) {
        fd_out_warn(o, "%s reads only a bare '*' here; the depth offset %d is dropped",
                    dialect(o), (int)t->index);
        qg_buf_putc(o->buf, '*');
    } else if (t->index) {
        qg_buf_printf(o->buf, "*%d", (int)t->index);
    } else {
        qg_buf_putc(o->buf, '*');
    }
}

/* An index from a name: a vocabulary tag or name, else a Crawl name or
 * lib/edit name of the mapping; -1 when unknown. */
static int32_t index_of_name(const fd_out *o, qg_vocab_kind kind, const char *name)
{
    if (!name || kind >= QG_VOCAB_KINDS)
        return -1;
    int32_t index = o->vocab ? qg_vocab_lookup(o->vocab, kind, name) : -1;
    const qg_mapping_entry *e = NULL;
    if (index < 0 && o->mapping)
        e = qg_mapping_by_crawl_name(o->mapping, kind, name);
    if (index < 0 && o->mapping && (!e || e->index < 0))
        e = qg_mapping_by_edit_name(o->mapping, kind, name);
    return e && e->index >= 0 ? e->index : index;
}

static void put_feature(fd_out *o, const qg_thing *f)
{
    int tags = o->dialect == QG_FD_HENGBAND;
    if (f->kind == QG_THING_RANDOM) {
        put_random(o, f, tags);
        return;
    }
    const char *tag = f->kind == QG_THING_TAG ? f->name : NULL;
    int32_t index = f->index;
    if (f->kind == QG_THING_TAG && index < 0)
        index = index_of_name(o, QG_VOCAB_FEATURE, f->name);
    if (tags) {
        if (!tag && o->vocab)
            tag = qg_vocab_tag(o->vocab, QG_VOCAB_FEATURE, index);
        if (tag) {
            qg_buf_puts(o->buf, tag);
            return;
        }
        fd_out_warn(o, "feature %d has no f_info tag for hengband (give --edit-dir); "
                       "written as a number", (int)index);
    } else if (index < 0) {
        fd_out_warn(o, "feature tag '%s' has no f_info index for %s (give --edit-dir); "
                       "written as 0", tag ? tag : "", dialect(o));
        index = 0;
    }
    qg_buf_printf(o->buf, "%d", (int)index);
}

static void put_thing(fd_out *o, const qg_thing *t, qg_vocab_kind kind, const char *what)
{
    int hengband = o->dialect == QG_FD_HENGBAND;
    int32_t index;
    switch (t->kind) {
    case QG_THING_NONE:
        qg_buf_putc(o->buf, '0');
        return;
    case QG_THING_RANDOM:
        put_random(o, t, 0);
        return;
    case QG_THING_CLONE:
        if (hengband) {
            qg_buf_printf(o->buf, "c%d", (int)t->index);
            return;
        }
        fd_out_warn(o, "%s has no clones (cN); %s %d is written as itself", dialect(o),
                    what, (int)t->index);
        break;
    case QG_THING_REWARD:
        if (hengband) {
            qg_buf_putc(o->buf, '!');
            return;
        }
        fd_out_warn(o, "%s has no quest reward '!' for the %s; written as 0", dialect(o), what);
        qg_buf_putc(o->buf, '0');
        return;
    case QG_THING_NAME:
    case QG_THING_TAG:
        index = index_of_name(o, kind, t->name);
        if (index < 0) {
            fd_out_warn(o, "unmapped %s '%s': no index in the vocabulary; written as 0",
                        what, t->name ? t->name : "");
            index = 0;
        }
        qg_buf_printf(o->buf, "%d", (int)index);
        return;
    default:
        break;
    }
    qg_buf_printf(o->buf, "%d", (int)t->index);
}

static void put_trap(fd_out *o, const qg_thing *t)
{
    int hengband = o->dialect == QG_FD_HENGBAND;
    if (t->kind == QG_THING_RANDOM) {
        put_random(o, t, 0);
    } else if (t->kind == QG_THING_NONE) {
        qg_buf_puts(o->buf, hengband ? "NONE" : "0");
    } else if (hengband) {
        const char *tag = t->kind == QG_THING_TAG ? t->name : NULL;
        if (!tag && o->vocab)
            tag = qg_vocab_tag(o->vocab, QG_VOCAB_FEATURE, t->index);
        if (tag) {
            qg_buf_puts(o->buf, tag);
        } else {
            fd_out_warn(o, "trap %d has no f_info tag for hengband; written as NONE",
                        (int)t->index);
            qg_buf_puts(o->buf, "NONE");
        }
    } else if (t->kind == QG_THING_INDEX) {
        qg_buf_printf(o->buf, "%d", (int)t->index);
    } else {
        fd_out_warn(o, "%s places only random traps ('*'); trap %s is written as 0",
                    dialect(o), t->name ? t->name : "");
        qg_buf_putc(o->buf, '0');
    }
}

/* The last field (1-based count) that holds something other than its
 * default in the output layout. */
static int fields_needed(const fd_out *o, const qg_fd_spec *s)
{
    int tome = o->dialect == QG_FD_TOME;
    int n = 2;
    if (s->cave_info) n = 3;
    for (int slot = 0; slot <= QG_SLOT_ARTIFACT; slot++)
        if (s->things[slot].kind != QG_THING_NONE)
            n = 4 + slot;
    if (tome) {
        if (s->special || s->special_name) n = 8;
        if (s->mimic) n = 9;
        if (s->mflag) n = 10;
    } else {
        if (s->things[QG_SLOT_TRAP].kind != QG_THING_NONE) n = 8;
        if (s->special) n = 9;
    }
    return n;
}

static void warn_lost(fd_out *o, const qg_fd_spec *s)
{
    if (o->dialect == QG_FD_TOME) {
        if (s->things[QG_SLOT_TRAP].kind != QG_THING_NONE)
            fd_out_warn(o, "tome has no trap field; the trap of letter '%c' is dropped",
                        s->letter);
        return;
    }
    if (s->mimic || s->mflag)
        fd_out_warn(o, "%s has no mimic or mflag fields (letter '%c' has %d and %u)",
                    dialect(o), s->letter, (int)s->mimic, (unsigned)s->mflag);
    if (s->special_name)
        fd_out_warn(o, "%s has no quest names as specials (\"%s\"); written as 0",
                    dialect(o), s->special_name);
}

void fd_put_spec(fd_out *o, const qg_fd_spec *s, int keep_fields)
{
    int tome = o->dialect == QG_FD_TOME;
    int n = fields_needed(o, s);
    if (keep_fields && s->fields > n)
        n = s->fields;
    warn_lost(o, s);
    qg_buf_printf(o->buf, "F:%c:", s->letter);
    put_feature(o, &s->feature);
    static const qg_vocab_kind kinds[] = {QG_VOCAB_MONSTER, QG_VOCAB_OBJECT, QG_VOCAB_KINDS,
                                          QG_VOCAB_ARTIFACT};
    static const char *const names[] = {"monster", "object", "ego", "artifact"};
    for (int field = 3; field <= n; field++) {
        qg_buf_putc(o->buf, ':');
        if (field == 3)
            qg_buf_printf(o->buf, "%u", (unsigned)s->cave_info);
        else if (field <= 7)
            put_thing(o, &s->things[field - 4], kinds[field - 4], names[field - 4]);
        else if (tome && field == 8 && s->special_name)
            qg_buf_printf(o->buf, "\"%s\"", s->special_name);
        else if (tome && field == 8)
            qg_buf_printf(o->buf, "%d", (int)s->special);
        else if (tome && field == 9)
            qg_buf_printf(o->buf, "%d", (int)s->mimic);
        else if (tome)
            qg_buf_printf(o->buf, "%u", (unsigned)s->mflag);
        else if (field == 8)
            put_trap(o, &s->things[QG_SLOT_TRAP]);
        else
            qg_buf_printf(o->buf, "%d", (int)s->special);
    }
}
