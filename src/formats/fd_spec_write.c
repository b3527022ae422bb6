/* Letters in each dialect: F: lines laid out as the dialect's row says
 * (numbers or f_info tags for features and traps, cN clones and '!'
 * rewards where the dialect has them, ToME's special:mimic:mflag), or L:
 * room-template letters. What a dialect cannot say is warned about, never
 * silently dropped. */
#include "formats/fd_out.h"
#include "fd/dialect.h"

#include <stdarg.h>
#include <stdio.h>
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

/* A feature's f_info tag: its own, else the vocabulary's for its index. */
static const char *feature_tag(const fd_out *o, const qg_thing *f)
{
    if (f->kind == QG_THING_TAG && f->name)
        return f->name;
    return o->vocab && f->index >= 0 ? qg_vocab_tag(o->vocab, QG_VOCAB_FEATURE, f->index) : NULL;
}

static void put_feature(fd_out *o, const qg_thing *f)
{
    int tags = fd_row(o->dialect)->tag_features;
    if (f->kind == QG_THING_RANDOM) {
        put_random(o, f, tags);
        return;
    }
    const char *tag = f->kind == QG_THING_TAG ? f->name : NULL;
    int32_t index = f->index;
    if (f->kind == QG_THING_TAG && index < 0)
        index = index_of_name(o, QG_VOCAB_FEATURE, f->name);
    if (tags) {
        if (!tag)
            tag = feature_tag(o, f);
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
    const fd_dialect_row *row = fd_row(o->dialect);
    int32_t index;
    switch (t->kind) {
    case QG_THING_NONE:
        qg_buf_putc(o->buf, '0');
        return;
    case QG_THING_RANDOM:
        put_random(o, t, 0);
        return;
    case QG_THING_CLONE:
        if (row->clones) {
            qg_buf_printf(o->buf, "c%d", (int)t->index);
            return;
        }
        fd_out_warn(o, "%s has no clones (cN); %s %d is written as itself", dialect(o),
                    what, (int)t->index);
        break;
    case QG_THING_REWARD:
        if (row->rewards) {
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
    int hengband = fd_row(o->dialect)->tag_features;
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

/* Whether a field holds something other than its default. */
static int field_used(fd_field field, const qg_fd_spec *s)
{
    switch (field) {
    case FD_F_FEATURE: return 1;
    case FD_F_INFO: return s->cave_info != 0;
    case FD_F_MONSTER: return s->things[QG_SLOT_MONSTER].kind != QG_THING_NONE;
    case FD_F_OBJECT: return s->things[QG_SLOT_OBJECT].kind != QG_THING_NONE;
    case FD_F_EGO: return s->things[QG_SLOT_EGO].kind != QG_THING_NONE;
    case FD_F_ARTIFACT: return s->things[QG_SLOT_ARTIFACT].kind != QG_THING_NONE;
    case FD_F_TRAP: return s->things[QG_SLOT_TRAP].kind != QG_THING_NONE;
    case FD_F_SPECIAL: return s->special != 0;
    case FD_F_QUEST_SPECIAL: return s->special != 0 || s->special_name;
    case FD_F_MIMIC: return s->mimic != 0;
    case FD_F_MFLAG: return s->mflag != 0;
    default: return 0;
    }
}

static int has_field(const fd_dialect_row *row, fd_field field)
{
    for (int i = 0; i < FD_MAX_FIELDS && row->f_fields[i]; i++)
        if (row->f_fields[i] == field)
            return 1;
    return 0;
}

/* What the output dialect's F: line has no field for. */
static void warn_lost(fd_out *o, const qg_fd_spec *s)
{
    const fd_dialect_row *row = fd_row(o->dialect);
    if (s->things[QG_SLOT_TRAP].kind != QG_THING_NONE && !has_field(row, FD_F_TRAP))
        fd_out_warn(o, "%s has no trap field; the trap of letter '%c' is dropped", dialect(o),
                    s->letter);
    if ((s->mimic || s->mflag) && !has_field(row, FD_F_MIMIC))
        fd_out_warn(o, "%s has no mimic or mflag fields (letter '%c' has %d and %u)",
                    dialect(o), s->letter, (int)s->mimic, (unsigned)s->mflag);
    if (s->special_name && !has_field(row, FD_F_QUEST_SPECIAL))
        fd_out_warn(o, "%s has no quest names as specials (\"%s\"); written as 0",
                    dialect(o), s->special_name);
}

static void put_field(fd_out *o, fd_field field, const qg_fd_spec *s)
{
    switch (field) {
    case FD_F_FEATURE: put_feature(o, &s->feature); break;
    case FD_F_INFO: qg_buf_printf(o->buf, "%u", (unsigned)s->cave_info); break;
    case FD_F_MONSTER:
        put_thing(o, &s->things[QG_SLOT_MONSTER], QG_VOCAB_MONSTER, "monster");
        break;
    case FD_F_OBJECT:
        put_thing(o, &s->things[QG_SLOT_OBJECT], QG_VOCAB_OBJECT, "object");
        break;
    case FD_F_EGO: put_thing(o, &s->things[QG_SLOT_EGO], QG_VOCAB_KINDS, "ego"); break;
    case FD_F_ARTIFACT:
        put_thing(o, &s->things[QG_SLOT_ARTIFACT], QG_VOCAB_ARTIFACT, "artifact");
        break;
    case FD_F_TRAP: put_trap(o, &s->things[QG_SLOT_TRAP]); break;
    case FD_F_QUEST_SPECIAL:
        if (s->special_name) {
            qg_buf_printf(o->buf, "\"%s\"", s->special_name);
            break;
        }
        /* fall through */
    case FD_F_SPECIAL: qg_buf_printf(o->buf, "%d", (int)s->special); break;
    case FD_F_MIMIC: qg_buf_printf(o->buf, "%d", (int)s->mimic); break;
    case FD_F_MFLAG: qg_buf_printf(o->buf, "%u", (unsigned)s->mflag); break;
    default: break;
    }
}

void fd_put_spec(fd_out *o, const qg_fd_spec *s, int keep_fields)
{
    const fd_field *fields = fd_row(o->dialect)->f_fields;
    int n = 1;
    for (int i = 0; i < FD_MAX_FIELDS && fields[i]; i++)
        if (field_used(fields[i], s) || (keep_fields && i + 2 <= s->fields))
            n = i + 1;
    warn_lost(o, s);
    qg_buf_printf(o->buf, "F:%c", s->letter);
    for (int i = 0; i < n; i++) {
        qg_buf_putc(o->buf, ':');
        put_field(o, fields[i], s);
    }
}

/* ---- L: room-template letters ---------------------------------------- */

/* An option of a directive's second argument: ", A" then " | B". */
static void put_option(fd_out *o, int *options, const char *option)
{
    qg_buf_puts(o->buf, (*options)++ ? " | " : ", ");
    qg_buf_puts(o->buf, option);
}

/* A thing as a directive's arguments (parse_room_grid's forms): "*" or a
 * kind a random one is of, an index, the text it was read from; then
 * DEPTH+n, CLONE, the placing options and the chance. */
static void put_grid_args(fd_out *o, const qg_thing *t)
{
    static const struct {
        uint32_t flag;
        const char *option;
    } monster_options[] = {{QG_THING_ALONE, "NO_GROUP"}, {QG_THING_AWAKE, "NO_SLEEP"},
                           {QG_THING_NO_UNIQUE, "NO_UNIQUE"}, {QG_THING_FRIENDLY, "FRIENDLY"},
                           {QG_THING_HASTED, "HASTE"}};
    int options = 0, depth = t->depth;
    switch (t->kind) {
    case QG_THING_RANDOM:
        qg_buf_puts(o->buf, t->name ? t->name : "*");
        depth = t->index;
        break;
    case QG_THING_NAME:
    case QG_THING_TAG: qg_buf_puts(o->buf, t->name ? t->name : ""); break;
    case QG_THING_REWARD:
        fd_out_warn(o, "%s has no quest reward '!'; written as *", dialect(o));
        qg_buf_putc(o->buf, '*');
        break;
    default:
        /* an object of an index with a device's effect (WAND_ROCKET) or a
           pile's or statue's extra (NUMBER=…, TYPE=…) in its name */
        if (t->name && (!strncmp(t->name, "WAND_", 5) || !strncmp(t->name, "ROD_", 4) ||
                        !strncmp(t->name, "STAFF_", 6)))
            qg_buf_puts(o->buf, t->name);
        else
            qg_buf_printf(o->buf, "%d", (int)t->index);
        if (t->name && (!strncmp(t->name, "NUMBER=", 7) || !strncmp(t->name, "TYPE=", 5)))
            put_option(o, &options, t->name);
        break;
    }
    char number[32];
    if (depth) {
        snprintf(number, sizeof number, "DEPTH+%d", depth);
        put_option(o, &options, number);
    }
    if (t->kind == QG_THING_CLONE)
        put_option(o, &options, "CLONE");
    for (size_t i = 0; i < sizeof monster_options / sizeof *monster_options; i++)
        if (t->flags & monster_options[i].flag)
            put_option(o, &options, monster_options[i].option);
    if (t->chance) {
        snprintf(number, sizeof number, "%d%%", (int)t->chance);
        put_option(o, &options, number);
    }
}

/* The feature with its cave_info flags and special. */
static void put_grid_feature(fd_out *o, const qg_fd_spec *s)
{
    const char *tag = feature_tag(o, &s->feature);
    if (s->feature.kind == QG_THING_NONE)
        return;
    if (!tag) {
        fd_out_warn(o, "feature %d has no f_info tag for %s (give --edit-dir); written as its "
                    "number", (int)s->feature.index, dialect(o));
        qg_buf_printf(o->buf, ":%d", (int)s->feature.index);
    } else {
        qg_buf_printf(o->buf, ":%s", tag);
    }
    if (!s->cave_info && !s->special && !s->feature_chance)
        return;
    qg_buf_putc(o->buf, '(');
    const char *sep = "";
    if (s->feature_chance) {
        qg_buf_printf(o->buf, "%d%%", (int)s->feature_chance);
        sep = " | ";
    }
    uint32_t other = 0;
    for (int bit = 0; bit < 32; bit++) {
        uint32_t b = 1u << bit;
        if (!(s->cave_info & b))
            continue;
        if (qg_info_name(b)) {
            qg_buf_printf(o->buf, "%s%s", sep, qg_info_name(b));
            sep = " | ";
        } else {
            other |= b;
        }
    }
    if (other)
        fd_out_warn(o, "%s names cave_info flags only (ROOM, ICKY, GLOW, MARK, INNER, OUTER); "
                    "bits 0x%X of letter '%c' are dropped", dialect(o), (unsigned)other,
                    s->letter);
    if (s->special)
        qg_buf_printf(o->buf, ", %d", (int)s->special);
    qg_buf_putc(o->buf, ')');
}

void fd_put_grid(fd_out *o, const qg_fd_spec *s)
{
    static const char *const directives[QG_SLOTS] = {"MON", "OBJ", "EGO", "ART", "TRAP"};
    qg_buf_printf(o->buf, "L:%c", s->letter);
    put_grid_feature(o, s);
    for (int slot = 0; slot < QG_SLOTS; slot++) {
        const qg_thing *t = &s->things[slot];
        /* a FORMATION room's members come from its '0' letter */
        if (t->kind == QG_THING_NONE || t->kind == QG_THING_FORMATION)
            continue;
        if (slot == QG_SLOT_TRAP && t->kind == QG_THING_NAME && t->name &&
            !strncmp(t->name, "SECRET(", 7)) {
            qg_buf_printf(o->buf, ":%s", t->name);
            continue;
        }
        qg_buf_printf(o->buf, ":%s(", directives[slot]);
        put_grid_args(o, t);
        qg_buf_putc(o->buf, ')');
    }
    if (s->mimic || s->mflag || s->special_name)
        fd_out_warn(o, "%s letters have no mimic, mflag or quest name (letter '%c')", dialect(o),
                    s->letter);
}

int fd_translate_spec(fd_out *o, qg_fd_spec *s)
{
    qg_translator *tr = o->translator;
    qg_thing *f = &s->feature;
    int ok = 1;
    if (f->kind == QG_THING_INDEX || f->kind == QG_THING_TAG) {
        int32_t index;
        const char *name;
        if (qg_translate_feature(tr, f->index, f->kind == QG_THING_TAG ? f->name : NULL, &index,
                                 &name)) {
            int tags = fd_row(o->dialect)->tag_features;
            f->kind = tags ? QG_THING_TAG : QG_THING_INDEX;
            f->index = index;
            f->name = tags ? name : NULL;
        } else {
            f->kind = QG_THING_NONE;
            ok = 0;
        }
    }
    for (int slot = 0; slot < QG_SLOTS; slot++) {
        qg_thing in = s->things[slot];
        if (!qg_translate_thing(tr, (qg_slot)slot, &in, &s->things[slot]))
            s->things[slot].kind = QG_THING_NONE;
    }
    return ok;
}
