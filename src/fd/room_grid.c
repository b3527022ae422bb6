/* A room-template letter (L:c:DIRECTIVE:DIRECTIVE…) as FrogComposband's
 * init1.c parse_room_grid reads it: the directives, split at ':' outside
 * double quotes and trimmed (z_string_split), each NAME(args) with its
 * arguments up to the first ')' split at ',' (parse_args), fill one room
 * grid in order, later ones overwriting what earlier ones share (ART()'s
 * artifact and OBJ()'s object are one field, EGO()'s ego and a feature's
 * special another). Names are looked up as the game looks them up; a
 * name it cannot find is the error that stops its reading of the file. */
#include "fd/fd_internal.h"
#include "fd/lookup.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 10

/* What parse_room_grid sets (room_grid_t). */
enum {
    G_MON_RANDOM = 1 << 0, G_MON_CHAR = 1 << 1, G_MON_TYPE = 1 << 2, G_CLONED = 1 << 3,
    G_OBJ_RANDOM = 1 << 4, G_OBJ_TYPE = 1 << 5, G_OBJ_ARTIFACT = 1 << 6, G_OBJ_EGO = 1 << 7,
    G_EGO_RANDOM = 1 << 8, G_ART_RANDOM = 1 << 9, G_OBJ_EFFECT = 1 << 10,
    G_TRAP_RANDOM = 1 << 11, G_SPECIAL = 1 << 12
};

typedef struct room_grid {
    unsigned flags;
    uint32_t mon_flags;     /* QG_THING_AWAKE … */
    int32_t feature;        /* f_info index, -1 none */
    const char *feature_tag;
    uint32_t info;
    int32_t feat_pct, mon_pct, obj_pct, trap_pct;
    int32_t monster, monster_level;
    const char *monster_name; /* a summon type or symbol */
    int32_t object, object_level;
    const char *object_name;  /* an object type, a device's effect */
    const char *object_extra; /* NUMBER=…, TYPE=…, kept as written */
    int32_t extra;            /* the ego, the feature's special */
    int32_t trap;
    const char *trap_tag;
} room_grid;

typedef struct grid_reader {
    fd_reader *r;
    const fd_line *at;
    qg_fd_record *rec;        /* where a failure waits for a load, or NULL */
    const fd_room_rules *rules;
    room_grid *g;
    int col;                  /* the column of the directive read */
    int ours;                 /* questgrid's own table: every form read */
} grid_reader;

static int chances(const grid_reader *gr)
{
    return gr->rules->chances || gr->ours;
}

/* ---- the game's splitting ---------------------------------------------- */

/* z_string_split: up to max pieces at any byte of delims outside double
 * quotes, the last keeping the rest; each trimmed of spaces and of one pair
 * of enclosing quotes. Pieces are NUL-terminated in buf; cols their
 * columns (col the first byte's). */
static int split(char *buf, int col, const char *delims, char **out, int *cols, int max)
{
    int n = 0, quote = 0;
    char *s = buf;
    while (n < max - 1) {
        char *t = s;
        for (; *t; t++) {
            if (*t == '"')
                quote = !quote;
            if (!quote && strchr(delims, *t))
                break;
        }
        if (!*t)
            break;
        *t = '\0';
        cols[n] = col + (int)(s - buf);
        out[n++] = s;
        s = t + 1;
    }
    cols[n] = col + (int)(s - buf);
    out[n++] = s;
    for (int i = 0; i < n; i++) {
        char *p = out[i], *end = p + strlen(p);
        while (*p == ' ')
            p++;
        while (end > p + 1 && end[-1] == ' ')
            end--;
        if (end - p >= 2 && *p == '"' && end[-1] == '"') {
            p++;
            end--;
        }
        *end = '\0';
        cols[i] += (int)(p - out[i]);
        out[i] = p;
    }
    return n;
}

static int is_number(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

/* sscanf(s, "PREFIX%d…"): 1 and the number when s starts with prefix and
 * a number. */
static int number_after(const char *s, const char *prefix, int32_t *n)
{
    size_t len = strlen(prefix);
    if (strncmp(s, prefix, len) != 0)
        return 0;
    char *end;
    long v = strtol(s + len, &end, 10);
    if (end == s + len)
        return 0;
    *n = (int32_t)v;
    return 1;
}

/* sscanf(s, "%d%%") == 1: a number first (what follows is not checked). */
static int percent(const char *s, int32_t *n)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s)
        return 0;
    *n = (int32_t)v;
    return 1;
}

static const char *kept(grid_reader *gr, const char *text)
{
    return fd_keep(gr->r, text, strlen(text));
}

static int fail(grid_reader *gr, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail(grid_reader *gr, int col, const char *fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    if (!gr->rec) {
        fd_error(gr->at, col, "%s", message);
    } else if (!gr->rec->fails) {
        gr->rec->fails = kept(gr, message);
        gr->rec->fails_col = col;
    }
    return 0;
}


/* Whether the vocabulary has the file a lookup needs; said once a load. */
static int can_look_up(grid_reader *gr, qg_vocab_kind kind, int col)
{
    const qg_vocab *vocab = gr->r->opt->vocab;
    if (qg_vocab_size(vocab, kind))
        return 1;
    const char *file = gr->r->row->vocab.file[kind];
    if (!(gr->r->unchecked & (1u << kind)))
        fd_note(gr->at, col, "names are not looked up: %s is not in the edit directory",
                file ? file : "the variant's vocabulary file");
    gr->r->unchecked |= 1u << kind;
    return 0;
}

/* ---- MON() ------------------------------------------------------------- */

static int summon_type(const fd_room_rules *rules, const char *name)
{
    for (size_t i = 0; rules->summon_types && rules->summon_types[i]; i++)
        if (strcmp(rules->summon_types[i], name) == 0)
            return 1;
    return 0;
}

static int monster_options(grid_reader *gr, char *text, int col)
{
    static const struct {
        const char *name;
        uint32_t flag;
    } options[] = {{"NO_GROUP", QG_THING_ALONE}, {"NO_SLEEP", QG_THING_AWAKE},
                   {"NO_UNIQUE", QG_THING_NO_UNIQUE}, {"FRIENDLY", QG_THING_FRIENDLY},
                   {"HASTE", QG_THING_HASTED}};
    char *flags[MAX_TOKENS];
    int cols[MAX_TOKENS];
    int n = split(text, col, "|", flags, cols, MAX_TOKENS);
    for (int i = 0; i < n; i++) {
        size_t k = 0;
        while (k < sizeof options / sizeof *options && strcmp(flags[i], options[k].name) != 0)
            k++;
        if (k < sizeof options / sizeof *options)
            gr->g->mon_flags |= options[k].flag;
        else if (strcmp(flags[i], "CLONE") == 0)
            gr->g->flags |= G_CLONED;
        else if (!number_after(flags[i], "DEPTH+", &gr->g->monster_level) &&
                 !(chances(gr) && percent(flags[i], &gr->g->mon_pct)))
            return fail(gr, cols[i], "invalid monster option '%s' (the game stops reading the "
                        "file here)", flags[i]);
    }
    return 1;
}

static int monster(grid_reader *gr, char **args, int *cols, int n)
{
    room_grid *g = gr->g;
    if (n < 1 || n > 2)
        return fail(gr, gr->col, "%s: MON(<which> [,<options>]) (the game stops reading the "
                    "file here)", "invalid MON() directive");
    const qg_vocab *vocab = gr->r->opt->vocab;
    if (strcmp(args[0], "*") == 0) {
        g->flags |= G_MON_RANDOM;
    } else if (is_number(args[0])) {
        if (!(g->monster = atoi(args[0])))
            return fail(gr, cols[0], "%s is not a monster index (the game stops reading the "
                        "file here)", args[0]);
    } else if (!can_look_up(gr, QG_VOCAB_MONSTER, cols[0])) {
        g->monster_name = kept(gr, args[0]);
    } else if (fd_monster_symbol(vocab, args[0])) {
        g->flags |= G_MON_CHAR;
        g->monster_name = kept(gr, args[0]);
    } else if (summon_type(gr->rules, args[0])) {
        g->flags |= G_MON_TYPE;
        g->monster_name = kept(gr, args[0]);
    } else if (!(g->monster = fd_lookup_monster(vocab, gr->rules, args[0]))) {
        return fail(gr, cols[0], "no monster of r_info.txt is named '%s', nor is it a summon "
                    "type or a monster symbol (the game stops reading the file here)", args[0]);
    }
    return n < 2 || monster_options(gr, args[1], cols[1]);
}

/* ---- OBJ(), EGO(), ART() ----------------------------------------------- */

static int object_options(grid_reader *gr, char *text, int col)
{
    char *flags[MAX_TOKENS];
    int cols[MAX_TOKENS];
    int n = split(text, col, "|", flags, cols, MAX_TOKENS);
    for (int i = 0; i < n; i++) {
        int32_t v;
        if (number_after(flags[i], "DEPTH+", &gr->g->object_level))
            continue;
        if (gr->rules->pile_options &&
            (!strncmp(flags[i], "NUMBER=", 7) || !strncmp(flags[i], "TYPE=", 5)))
            gr->g->object_extra = kept(gr, flags[i]);
        else if (chances(gr) && percent(flags[i], &v))
            gr->g->obj_pct = v;
        else
            return fail(gr, cols[i], "invalid object option '%s' (the game stops reading the "
                        "file here)", flags[i]);
    }
    return 1;
}

/* OBJ(WAND_ROCKET): a device of that effect (the kind lookup_kind gives
 * for any sval of the device's tval). */
static int device(grid_reader *gr, const char *arg)
{
    static const struct {
        const char *prefix, *type;
    } devices[] = {{"WAND_", "WAND"}, {"ROD_", "ROD"}, {"STAFF_", "STAFF"}};
    for (size_t i = 0; i < sizeof devices / sizeof *devices; i++) {
        size_t len = strlen(devices[i].prefix);
        const fd_object_type *t = fd_object_type_named(gr->rules, devices[i].type);
        if (strncmp(arg, devices[i].prefix, len) != 0 || !t)
            continue;
        gr->g->object = fd_kind_of(gr->r->opt->vocab, gr->rules, t->tval, gr->rules->sv_any);
        gr->g->object_name = kept(gr, arg);
        gr->g->flags |= G_OBJ_EFFECT;
        return 1;
    }
    return 0;
}

static int object(grid_reader *gr, char **args, int *cols, int n)
{
    room_grid *g = gr->g;
    if (n < 1 || n > 2)
        return fail(gr, gr->col, "%s: OBJ(<which> [,<flags>]) (the game stops reading the file "
                    "here)", "invalid OBJ() directive");
    if (n == 2 && !object_options(gr, args[1], cols[1]))
        return 0;
    if (strcmp(args[0], "*") == 0) {
        g->flags |= G_OBJ_RANDOM;
        return 1;
    }
    const fd_object_type *type = fd_object_type_named(gr->rules, args[0]);
    int devices = !strncmp(args[0], "WAND_", 5) || !strncmp(args[0], "ROD_", 4) ||
                  !strncmp(args[0], "STAFF_", 6);
    if (type && !devices) {
        g->object = type->tval;
        g->object_name = kept(gr, args[0]);
        g->flags |= G_OBJ_TYPE;
        return 1;
    }
    if (!can_look_up(gr, QG_VOCAB_OBJECT, cols[0])) {
        g->object_name = kept(gr, args[0]);
        return 1;
    }
    if (device(gr, args[0]))
        return 1;
    g->object = fd_lookup_kind(gr->r->opt->vocab, gr->rules, args[0]);
    if (!g->object && !(g->object = atoi(args[0])))
        return fail(gr, cols[0], "no object of k_info.txt is named '%s' (the game stops reading "
                    "the file here: \"Invalid object\")", args[0]);
    return 1;
}

static int ego(grid_reader *gr, char **args, int *cols, int n)
{
    room_grid *g = gr->g;
    if (n != 1)
        return fail(gr, gr->col, "%s: EGO(<which>) (the game stops reading the file here)",
                    "invalid EGO() directive");
    if (strcmp(args[0], "*") == 0) {
        g->flags |= G_EGO_RANDOM;
        return 1;
    }
    const qg_vocab *vocab = gr->r->opt->vocab;
    if (is_number(args[0])) {
        g->extra = atoi(args[0]);
    } else if (!can_look_up(gr, QG_VOCAB_EGO, cols[0])) {
        return 1;
    } else {
        /* among the egos of the object's type, when an object came first */
        const char *type = NULL;
        if (g->flags & G_OBJ_TYPE) {
            type = fd_ego_type_of(gr->rules, g->object);
        } else if (g->object && !(g->flags & G_OBJ_RANDOM)) {
            int32_t n2[2] = {0, 0};
            qg_vocab_numbers(vocab, QG_VOCAB_OBJECT, g->object, n2);
            type = fd_ego_type_of(gr->rules, n2[0]);
        }
        g->extra = fd_lookup_ego(vocab, args[0], type);
    }
    if (!g->extra)
        return fail(gr, cols[0], "no ego of e_info.txt is named '%s' for this object (the game "
                    "stops reading the file here: \"Unknown Ego\")", args[0]);
    g->flags |= G_OBJ_EGO;
    return 1;
}

static int artifact(grid_reader *gr, char **args, int *cols, int n)
{
    room_grid *g = gr->g;
    if (n != 1)
        return fail(gr, gr->col, "%s: ART(<which>) (the game stops reading the file here)",
                    "invalid ART() directive");
    if (strcmp(args[0], "*") == 0) {
        g->flags |= G_ART_RANDOM;
        return 1;
    }
    if (is_number(args[0]))
        g->object = atoi(args[0]);
    else if (can_look_up(gr, QG_VOCAB_ARTIFACT, cols[0]))
        g->object = fd_lookup_artifact(gr->r->opt->vocab, gr->rules, args[0]);
    else
        return 1;
    if (!g->object)
        return fail(gr, cols[0], "no artifact of a_info.txt is named '%s' (the game stops "
                    "reading the file here: \"Unknown Artifact\")", args[0]);
    g->flags |= G_OBJ_ARTIFACT;
    return 1;
}

/* ---- TRAP(), SECRET() and the feature ---------------------------------- */

/* A feature tag's index; -1 (reported when checked) when unknown. */
static int32_t tag_index(grid_reader *gr, const char *tag, int col, const char *what)
{
    const qg_vocab *vocab = gr->r->opt->vocab;
    if (!gr->r->vocab_has_tags)
        return -1;
    int32_t index = qg_vocab_lookup(vocab, QG_VOCAB_FEATURE, tag);
    if (index >= 0)
        return index;
    const char *closest = qg_vocab_closest(vocab, QG_VOCAB_FEATURE, tag);
    fail(gr, col, "unknown %s '%s' (not a tag of %s; the game stops reading the file here)%s%s%s",
         what, tag, gr->r->row->vocab.file[QG_VOCAB_FEATURE], closest ? "; did you mean " : "",
         closest ? closest : "", closest ? "?" : "");
    return -2;
}

static int trap(grid_reader *gr, char **args, int *cols, int n)
{
    room_grid *g = gr->g;
    if (n < 1 || n > 2)
        return fail(gr, gr->col, "%s: TRAP(<which> [,<pct odds>]) (the game stops reading the "
                    "file here)", "invalid TRAP() directive");
    if (n == 2)
        percent(args[1], &g->trap_pct);
    if (strcmp(args[0], "*") == 0) {
        g->flags |= G_TRAP_RANDOM;
        return 1;
    }
    g->trap = tag_index(gr, args[0], cols[0], "trap");
    g->trap_tag = kept(gr, args[0]);
    return g->trap != -2;
}

static int feature_flags(grid_reader *gr, char *text, int col)
{
    room_grid *g = gr->g;
    char *flags[MAX_TOKENS];
    int cols[MAX_TOKENS];
    int n = split(text, col, "|", flags, cols, MAX_TOKENS);
    for (int i = 0; i < n; i++) {
        uint32_t bit = qg_info_from_name(flags[i]);
        if (!gr->rules->wall_flags && !gr->ours && (bit & (QG_INFO_INNER | QG_INFO_OUTER)))
            bit = 0;
        if (bit) {
            g->info |= bit;
        } else if (is_number(flags[i])) {
            g->flags |= G_SPECIAL;
            g->extra = atoi(flags[i]);
        } else if (!(chances(gr) && percent(flags[i], &g->feat_pct))) {
            return fail(gr, cols[i], "unknown feature option '%s' (ROOM, ICKY, GLOW, MARK, INNER, "
                        "OUTER, a special number or a chance; the game stops reading the file "
                        "here)", flags[i]);
        }
    }
    return 1;
}

static int feature(grid_reader *gr, const char *name, char **args, int *cols, int n)
{
    room_grid *g = gr->g;
    g->feature = tag_index(gr, name, gr->col, "feature");
    g->feature_tag = kept(gr, name);
    if (g->feature == -2)
        return 0;
    if (n > 2)
        return fail(gr, gr->col, "%s: <Name>[(<flags> [,<special info>])] (the game stops "
                    "reading the file here)", "invalid feature directive");
    if (n >= 2) {
        g->flags |= G_SPECIAL;
        g->extra = atoi(args[1]);
    }
    return n < 1 || feature_flags(gr, args[0], cols[0]);
}

/* ---- one directive ------------------------------------------------------ */

static int directive(grid_reader *gr, char *command, int col, int *features)
{
    char *paren = strchr(command, '(');
    char *args[MAX_TOKENS];
    int cols[MAX_TOKENS];
    int n = 0;
    gr->col = col;
    if (paren) {
        char *close = strchr(paren + 1, ')');
        *paren = '\0';
        if (!close)
            return fail(gr, col, "'%s(': missing ')' (the game stops reading the file here)",
                        command);
        *close = '\0';
        n = split(paren + 1, col + (int)(paren + 1 - command), ",", args, cols, MAX_TOKENS);
    }
    if (!strcmp(command, "MON"))
        return monster(gr, args, cols, n);
    if (!strcmp(command, "OBJ"))
        return object(gr, args, cols, n);
    if (!strcmp(command, "EGO"))
        return ego(gr, args, cols, n);
    if (!strcmp(command, "ART"))
        return artifact(gr, args, cols, n);
    if (!strcmp(command, "TRAP") || !strcmp(command, "SECRET"))
        return trap(gr, args, cols, n);
    if ((*features)++)
        return fail(gr, col, "unknown directive '%s' (a letter has one feature; the directives "
                    "are MON, OBJ, EGO, ART, TRAP and SECRET; the game stops reading the file "
                    "here)", command);
    return feature(gr, command, args, cols, n);
}

/* ---- the spec the grid gives -------------------------------------------- */

static void set(qg_thing *t, qg_thing_kind kind, int32_t index, const char *name,
                int32_t chance)
{
    *t = (qg_thing){kind, index, name, chance > 0 && chance < 100 ? chance : 0, 0, 0};
}

static void monster_of(const room_grid *g, qg_thing *t)
{
    if (g->flags & (G_MON_RANDOM | G_MON_CHAR | G_MON_TYPE))
        set(t, QG_THING_RANDOM, g->monster_level, g->monster_name, g->mon_pct);
    else if (g->monster)
        set(t, g->flags & G_CLONED ? QG_THING_CLONE : QG_THING_INDEX, g->monster, NULL,
            g->mon_pct);
    else if (g->monster_name)
        set(t, QG_THING_NAME, -1, g->monster_name, g->mon_pct);
    else
        return;
    t->flags = g->mon_flags;
    if (t->kind != QG_THING_RANDOM)
        t->depth = g->monster_level;
}

/* room_grid_make_obj's order: an artifact, a random object, gold, an
 * object or an object type; random egos and artifacts and a named ego
 * only go with an object. */
static void objects_of(const room_grid *g, int gold, qg_thing *things)
{
    qg_thing *obj = &things[QG_SLOT_OBJECT];
    if (g->flags & G_OBJ_ARTIFACT) {
        set(&things[QG_SLOT_ARTIFACT], QG_THING_INDEX, g->object, NULL, g->obj_pct);
        return;
    }
    if (g->flags & G_OBJ_RANDOM) {
        set(obj, QG_THING_RANDOM, g->object_level, NULL, g->obj_pct);
    } else if ((g->flags & G_OBJ_TYPE) && g->object == gold) {
        set(obj, QG_THING_RANDOM, g->object_level, g->object_name, g->obj_pct);
        return;
    } else if (g->flags & G_OBJ_TYPE)
        set(obj, QG_THING_RANDOM, g->object_level, g->object_name, g->obj_pct);
    else if (g->object)
        set(obj, QG_THING_INDEX, g->object, g->object_name ? g->object_name : g->object_extra,
            g->obj_pct);
    else if (g->object_name)
        set(obj, QG_THING_NAME, -1, g->object_name, g->obj_pct);
    else
        return;
    if (obj->kind == QG_THING_INDEX)
        obj->depth = g->object_level;
    if (g->flags & G_ART_RANDOM)
        set(&things[QG_SLOT_ARTIFACT], QG_THING_RANDOM, 0, NULL, 0);
    else if (g->flags & G_EGO_RANDOM)
        set(&things[QG_SLOT_EGO], QG_THING_RANDOM, 0, NULL, 0);
    else if ((g->flags & G_OBJ_EGO) && !(g->flags & G_OBJ_RANDOM))
        set(&things[QG_SLOT_EGO], QG_THING_INDEX, g->extra, NULL, 0);
}

static void spec_of(const room_grid *g, const fd_room_rules *rules, qg_fd_spec *spec)
{
    if (g->feature_tag) {
        spec->feature = (qg_thing){QG_THING_TAG, g->feature, g->feature_tag, 0, 0, 0};
        spec->cave_info = g->info;
        spec->feature_chance = g->feat_pct > 0 && g->feat_pct < 100 ? g->feat_pct : 0;
        if (g->flags & G_SPECIAL)
            spec->special = g->extra;
    }
    monster_of(g, &spec->things[QG_SLOT_MONSTER]);
    objects_of(g, rules->tv_gold, spec->things);
    if (g->trap_tag)
        set(&spec->things[QG_SLOT_TRAP], QG_THING_TAG, g->trap, g->trap_tag, g->trap_pct);
    else if (g->flags & G_TRAP_RANDOM)
        set(&spec->things[QG_SLOT_TRAP], QG_THING_RANDOM, 0, NULL, g->trap_pct);
}

int fd_read_room_grid(fd_reader *r, const fd_line *at, const char *s, size_t len,
                      qg_fd_spec *spec, qg_fd_record *rec, int ours)
{
    memset(spec, 0, sizeof *spec);
    spec->feature.index = -1;
    if (len < 2 || s[1] != ':') {
        fd_error(at, 3, "an L: line needs a letter and its directives (L:x:FLOOR)");
        return 0;
    }
    spec->letter = (unsigned char)s[0];
    char *buf = malloc(len - 1);
    if (!buf) {
        r->failed = 1;
        return 0;
    }
    memcpy(buf, s + 2, len - 2);
    buf[len - 2] = '\0';
    room_grid g;
    memset(&g, 0, sizeof g);
    g.feature = -1;
    grid_reader gr = {r, at, rec, r->row->room, &g, 5, ours};
    char *commands[MAX_TOKENS];
    int cols[MAX_TOKENS];
    int n = split(buf, 5, ":", commands, cols, MAX_TOKENS), features = 0, ok = 1;
    for (int i = 0; i < n && ok; i++)
        ok = directive(&gr, commands[i], cols[i], &features);
    free(buf);
    spec_of(&g, gr.rules, spec);
    spec->fields = n + 1;
    return ok && !r->failed;
}
