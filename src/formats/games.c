/* Loading a game's tables: lib/games/classes.txt (classes, families,
 * monster symbols), lib/games/exact.txt (names meaning the same, what
 * stands for a class, what is never chosen) and lib/games/<game>/'s
 * features.txt, monsters.txt and objects.txt (tab-separated rows written
 * by tools/games/gen). */
#include "formats/game_tables.h"
#include "core/buf.h"
#include "core/file.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INDEX 1000000
#define MAX_FIELDS 6

static const char *const kind_files[GAME_KINDS] = {"features.txt", "monsters.txt",
                                                   "objects.txt", "artifacts.txt"};
static const char *const kind_words[GAME_KINDS] = {"feature", "monster", "object", "artifact"};

char *game_key(const char *text)
{
    qg_buf b;
    qg_buf_init(&b);
    int space = 0;
    for (const char *p = text ? text : ""; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '&' || c == '~')
            continue;
        if (c == '_' || isspace(c)) {
            space = b.len > 0;
            continue;
        }
        if (space)
            qg_buf_putc(&b, ' ');
        space = 0;
        qg_buf_putc(&b, tolower(c));
    }
    if (!b.data)
        qg_buf_puts(&b, "");
    return qg_buf_take(&b);
}

int game_kind_of(qg_vocab_kind kind)
{
    return kind == QG_VOCAB_FEATURE    ? GAME_FEATURE
           : kind == QG_VOCAB_MONSTER  ? GAME_MONSTER
           : kind == QG_VOCAB_ARTIFACT ? GAME_ARTIFACT
                                       : GAME_OBJECT;
}

int game_class_kind(int kind)
{
    return kind == GAME_ARTIFACT ? GAME_OBJECT : kind;
}

static void free_entry(game_entry *e)
{
    free(e->tag);
    free(e->name);
    free(e->tag_key);
    free(e->name_key);
    free(e->colour);
}

void qg_game_free(qg_game *game)
{
    if (!game)
        return;
    for (int k = 0; k < GAME_KINDS; k++) {
        game_kind *t = &game->kinds[k];
        for (size_t i = 0; i < t->count; i++)
            free_entry(&t->items[i]);
        free(t->items);
        free(t->by_index);
        free(t->keys);
    }
    for (size_t i = 0; i < game->class_count; i++)
        free(game->classes[i].name);
    free(game->classes);
    for (size_t i = 0; i < game->family_count; i++)
        free(game->families[i]);
    free(game->families);
    for (size_t i = 0; i < game->same_count; i++) {
        for (size_t j = 0; j < game->same[i].count; j++)
            free(game->same[i].keys[j]);
        free(game->same[i].keys);
    }
    free(game->same);
    free(game->name);
    free(game);
}

const char *qg_game_name(const qg_game *game)
{
    return game ? game->name : NULL;
}

int qg_game_is_crawl(const qg_game *game)
{
    return game && game->crawl;
}

/* ---- reading lines ------------------------------------------------------ */

typedef struct reader {
    qg_game *game;
    const char *path;
    int line_no;
    const char *line;
    size_t len;
    qg_diags *diags;
    int failed;  /* memory ran out */
} reader;

static void bad_line(reader *r, const char *what)
{
    qg_diags_add(r->diags, QG_ERROR, r->path, r->line_no, 1, r->line, r->len, "%s", what);
}

/* Calls fn for each line that is not blank or a comment. */
static qg_status each_line(qg_game *game, const char *path, qg_diags *diags,
                           void (*fn)(reader *r, void *user), void *user)
{
    char *data;
    size_t size;
    qg_status status = qg_read_file(path, QG_MAX_TEXT_FILE, &data, &size, diags);
    if (status != QG_OK)
        return status;
    size_t errors = qg_diags_count_severity(diags, QG_ERROR);
    reader r = {game, path, 0, NULL, 0, diags, 0};
    for (const char *line = data, *end = data + size; line < end && !r.failed;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);
        r.line_no++;
        while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
            len--;
        if (len && line[0] != '#') {
            r.line = line;
            r.len = len;
            fn(&r, user);
        }
        line = nl ? nl + 1 : end;
    }
    free(data);
    if (r.failed)
        return QG_ERR_NOMEM;
    return qg_diags_count_severity(diags, QG_ERROR) > errors ? QG_ERR_PARSE : QG_OK;
}

/* Splits the line at sep into at most max fields (copies, malloc'd). */
static size_t split(const char *line, size_t len, char sep, char **fields, size_t max)
{
    size_t n = 0;
    const char *p = line, *end = line + len;
    while (n < max) {
        const char *at = n + 1 == max ? end : memchr(p, sep, (size_t)(end - p));
        if (!at)
            at = end;
        fields[n++] = qg_strndup(p, (size_t)(at - p));
        if (at == end)
            break;
        p = at + 1;
    }
    return n;
}

static void free_fields(char **fields, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(fields[i]);
}

static int kind_named(const char *word)
{
    for (int k = 0; k < GAME_KINDS; k++)
        if (strcmp(word, kind_words[k]) == 0)
            return k;
    return -1;
}

/* ---- classes.txt -------------------------------------------------------- */

int game_class_named(const qg_game *game, int kind, const char *name)
{
    for (size_t i = 0; i < game->class_count; i++)
        if (game->classes[i].kind == kind && strcmp(game->classes[i].name, name) == 0)
            return (int)i;
    return -1;
}

static size_t words_of(const char *line, size_t len, char **words, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < len && n < max;) {
        while (i < len && isspace((unsigned char)line[i]))
            i++;
        size_t start = i;
        while (i < len && !isspace((unsigned char)line[i]))
            i++;
        if (i > start)
            words[n++] = qg_strndup(line + start, i - start);
    }
    return n;
}

/* Whether a comma-separated list of games names this one: *priority 2
 * by its name, 1 by its family ("angband", "crawl"). */
static int names_game(const qg_game *game, const char *list, int *priority)
{
    const char *family = game->crawl ? "crawl" : "angband";
    *priority = 0;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n == strlen(game->name) && strncmp(p, game->name, n) == 0)
            *priority = 2;
        else if (!*priority && n == strlen(family) && strncmp(p, family, n) == 0)
            *priority = 1;
        p += n + (p[n] == ',');
    }
    return *priority > 0;
}

static void class_line(reader *r, void *user)
{
    (void)user;
    qg_game *g = r->game;
    char *words[64];
    size_t n = words_of(r->line, r->len, words, 64);
    int kind = n >= 4 ? kind_named(words[1]) : -1;
    if (n >= 4 && strcmp(words[0], "family") == 0 && kind >= 0) {
        char **family = QG_PUSH(g->families, g->family_count, g->family_cap);
        if (!family || !(*family = qg_strdup(words[2]))) {
            r->failed = 1;
        } else {
            for (size_t i = 3; i < n && !r->failed; i++) {
                game_class *c = QG_PUSH(g->classes, g->class_count, g->class_cap);
                if (!c || !(c->name = qg_strdup(words[i])))
                    r->failed = 1;
                else {
                    c->kind = kind;
                    c->family = (int)g->family_count - 1;
                }
            }
        }
    } else if (!(n == 4 && strcmp(words[0], "symbols") == 0)) {
        /* symbols lines are tools/games/gen's: the tables hold their classes */
        bad_line(r, "want 'family KIND FAMILY CLASS...' or 'symbols GAMES CLASS CHARS'");
    }
    free_fields(words, n);
}

/* ---- exact.txt ---------------------------------------------------------- */

/* "a ; b ; c" as keys into a new line of the table. */
static game_same *add_same(reader *r, int kind, int cls, const char *list, size_t len)
{
    qg_game *g = r->game;
    game_same *s = QG_PUSH(g->same, g->same_count, g->same_cap);
    if (!s) {
        r->failed = 1;
        return NULL;
    }
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->cls = cls;
    size_t cap = 0;
    for (size_t i = 0; i <= len;) {
        size_t end = i;
        while (end < len && list[end] != ';')
            end++;
        char *name = qg_strndup(list + i, end - i);
        char *key = name ? game_key(name) : NULL;
        char **slot = key && *key ? QG_PUSH(s->keys, s->count, cap) : NULL;
        if (slot)
            *slot = key;
        else
            free(key);
        r->failed |= !name || !key;
        free(name);
        i = end + 1;
    }
    return s;
}

static void mark_avoided(reader *r, int kind, const char *list, size_t len)
{
    game_same *s = add_same(r, kind, -1, list, len);
    if (!s)
        return;
    game_kind *t = &r->game->kinds[kind];
    for (size_t i = 0; i < t->count; i++)
        for (size_t j = 0; j < s->count; j++)
            if ((t->items[i].name_key && strcmp(t->items[i].name_key, s->keys[j]) == 0) ||
                (t->items[i].tag_key && strcmp(t->items[i].tag_key, s->keys[j]) == 0))
                t->items[i].avoid = 1;
    /* the line has done its work */
    for (size_t j = 0; j < s->count; j++)
        free(s->keys[j]);
    free(s->keys);
    r->game->same_count--;
}

/* Where the text after the first n words of the line starts. */
static size_t after_words(const char *line, size_t len, int n)
{
    size_t i = 0;
    for (int w = 0; w < n; w++) {
        while (i < len && isspace((unsigned char)line[i]))
            i++;
        while (i < len && !isspace((unsigned char)line[i]))
            i++;
    }
    return i;
}

static void exact_line(reader *r, void *user)
{
    (void)user;
    qg_game *g = r->game;
    char *words[4];
    size_t n = words_of(r->line, r->len, words, 4);
    int kind = n >= 3 ? kind_named(words[strcmp(words[0], "avoid") == 0 ? 2 : 1]) : -1;
    int priority;
    if (n >= 3 && strcmp(words[0], "same") == 0 && kind >= 0) {
        size_t at = after_words(r->line, r->len, 2);
        add_same(r, kind, -1, r->line + at, r->len - at);
    } else if (n >= 4 && strcmp(words[0], "class") == 0 && kind >= 0) {
        int cls = game_class_named(g, kind, words[2]);
        size_t at = after_words(r->line, r->len, 3);
        if (cls < 0)
            bad_line(r, "classes.txt has no such class");
        else
            add_same(r, kind, cls, r->line + at, r->len - at);
    } else if (n >= 4 && strcmp(words[0], "avoid") == 0 && kind >= 0) {
        size_t at = after_words(r->line, r->len, 3);
        if (names_game(g, words[1], &priority))
            mark_avoided(r, kind, r->line + at, r->len - at);
    } else {
        bad_line(r, "want 'same KIND NAME ; ...', 'class KIND CLASS NAME ; ...' or "
                    "'avoid GAME KIND NAME ; ...'");
    }
    free_fields(words, n);
}

/* ---- the game's own tables ---------------------------------------------- */

typedef struct table_ctx {
    int kind;
} table_ctx;

/* index tag class look name / index look level unique class name /
 * index class look level name / index class level name */
static void table_line(reader *r, void *user)
{
    table_ctx *ctx = user;
    qg_game *g = r->game;
    char *f[MAX_FIELDS] = {0};
    size_t n = split(r->line, r->len, '\t', f, MAX_FIELDS);
    static const size_t want[GAME_KINDS] = {5, 6, 5, 4};
    game_entry e;
    memset(&e, 0, sizeof e);
    e.index = -1;
    e.cls = -1;
    const char *look = NULL, *cls = NULL;
    if (n != want[ctx->kind]) {
        bad_line(r, "wrong number of fields");
        free_fields(f, n);
        return;
    }
    if (strcmp(f[0], "-") != 0) {
        char *end;
        long index = strtol(f[0], &end, 10);
        if (*end || index < 0 || index > MAX_INDEX) {
            bad_line(r, "bad index");
            free_fields(f, n);
            return;
        }
        e.index = (int32_t)index;
    }
    if (ctx->kind == GAME_FEATURE) {
        e.tag = strcmp(f[1], "-") != 0 ? qg_strdup(f[1]) : NULL;
        cls = f[2];
        look = f[3];
        e.name = qg_strdup(f[4]);
    } else if (ctx->kind == GAME_MONSTER) {
        look = f[1];
        e.level = atoi(f[2]);
        e.unique = atoi(f[3]) != 0;
        cls = f[4];
        e.name = qg_strdup(f[5]);
    } else if (ctx->kind == GAME_OBJECT) {
        cls = f[1];
        look = f[2];
        e.level = atoi(f[3]);
        e.name = qg_strdup(f[4]);
    } else {
        cls = f[1];
        look = " ";
        e.level = atoi(f[2]);
        e.name = qg_strdup(f[3]);
    }
    if (g->crawl && !e.tag)
        e.tag = e.name ? qg_strdup(e.name) : NULL;
    /* the look: a character (UTF-8), a space, a colour; Angband's tables
     * write the character and its colour letter together */
    size_t glyph_len = look[0] ? 1 : 0;
    while (glyph_len < sizeof e.glyph - 1 && ((unsigned char)look[glyph_len] & 0xC0) == 0x80)
        glyph_len++;
    memcpy(e.glyph, look, glyph_len);
    const char *colour = look + glyph_len;
    e.colour = qg_strdup(*colour == ' ' ? colour + 1 : *colour ? colour : "w");
    e.cls = strcmp(cls, "-") != 0 ? game_class_named(g, game_class_kind(ctx->kind), cls) : -1;
    e.tag_key = e.tag ? game_key(e.tag) : NULL;
    e.name_key = e.name ? game_key(e.name) : NULL;
    game_kind *t = &g->kinds[ctx->kind];
    game_entry *slot = e.name && e.colour && e.name_key && (!e.tag || e.tag_key)
                           ? QG_PUSH(t->items, t->count, t->cap)
                           : NULL;
    if (!slot) {
        free_entry(&e);
        r->failed = 1;
    } else {
        *slot = e;
    }
    if (strcmp(cls, "-") != 0 && e.cls < 0)
        bad_line(r, "classes.txt has no such class");
    free_fields(f, n);
}

static int compare_keys(const void *a, const void *b)
{
    const game_key_ref *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->entry > y->entry) - (x->entry < y->entry);
}

/* The index and key tables of one kind. */
static int index_kind(game_kind *t)
{
    size_t top = 0;
    for (size_t i = 0; i < t->count; i++)
        if (t->items[i].index >= 0 && (size_t)t->items[i].index + 1 > top)
            top = (size_t)t->items[i].index + 1;
    if (top && !(t->by_index = calloc(top, sizeof *t->by_index)))
        return 0;
    t->index_cap = top;
    for (size_t i = t->count; i-- > 0;)
        if (t->items[i].index >= 0)
            t->by_index[t->items[i].index] = i + 1;
    if (t->count && !(t->keys = malloc(2 * t->count * sizeof *t->keys)))
        return 0;
    for (size_t i = 0; i < t->count; i++) {
        t->keys[t->key_count++] = (game_key_ref){t->items[i].name_key, i};
        if (t->items[i].tag_key && strcmp(t->items[i].tag_key, t->items[i].name_key) != 0)
            t->keys[t->key_count++] = (game_key_ref){t->items[i].tag_key, i};
        if (!t->items[i].avoid && t->items[i].level > t->max_level && t->items[i].level < 1000)
            t->max_level = t->items[i].level;
    }
    if (t->key_count)
        qsort(t->keys, t->key_count, sizeof *t->keys, compare_keys);
    return 1;
}

const game_entry *game_by_index(const qg_game *game, int kind, int32_t index)
{
    const game_kind *t = &game->kinds[kind];
    if (index < 0 || (size_t)index >= t->index_cap || !t->by_index[index])
        return NULL;
    return &t->items[t->by_index[index] - 1];
}

const game_entry *game_by_key(const qg_game *game, int kind, const char *key)
{
    const game_kind *t = &game->kinds[kind];
    size_t lo = 0, hi = t->key_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(t->keys[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->key_count && strcmp(t->keys[lo].key, key) == 0
               ? &t->items[t->keys[lo].entry]
               : NULL;
}

/* ---- loading ------------------------------------------------------------ */

static qg_status read_one(qg_game *g, const char *dir, const char *file,
                          void (*fn)(reader *r, void *user), void *user, qg_diags *diags)
{
    char *path = qg_path_join(dir, file);
    if (!path)
        return QG_ERR_NOMEM;
    qg_status status = each_line(g, path, diags, fn, user);
    free(path);
    return status;
}

static qg_status load_game(qg_game *g, const char *dir, qg_diags *diags)
{
    qg_status st = read_one(g, dir, "classes.txt", class_line, NULL, diags);
    char *own = st == QG_OK ? qg_path_join(dir, g->name) : NULL;
    if (st == QG_OK && !own)
        st = QG_ERR_NOMEM;
    for (int k = 0; k < GAME_KINDS && st == QG_OK; k++) {
        table_ctx ctx = {k};
        if (k != GAME_ARTIFACT || !g->crawl)
            st = read_one(g, own, kind_files[k], table_line, &ctx, diags);
        /* Crawl's maps name features: its table has no indices */
        if (k == GAME_FEATURE)
            g->crawl = g->kinds[k].count > 0 && g->kinds[k].items[0].index < 0;
    }
    free(own);
    if (st == QG_OK)
        st = read_one(g, dir, "exact.txt", exact_line, NULL, diags);
    for (int k = 0; k < GAME_KINDS && st == QG_OK; k++)
        if (!index_kind(&g->kinds[k]))
            st = QG_ERR_NOMEM;
    return st;
}

qg_status qg_game_load(const char *dir, const char *game, qg_game **out, qg_diags *diags)
{
    *out = NULL;
    char *found = NULL;
    if (!dir) {
        qg_status st = qg_data_find("games", &found, diags);
        if (st != QG_OK)
            return st;
        dir = found;
    }
    char *tables = game && !strchr(game, '/') && game[0] != '.' ? qg_path_join(dir, game)
                                                                 : NULL;
    char *probe = tables ? qg_path_join(tables, kind_files[0]) : NULL;
    FILE *f = probe ? fopen(probe, "rb") : NULL;
    qg_status status = QG_OK;
    if (!f) {
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                     "questgrid has no tables of the game '%s' (%s): convert knows its "
                     "features, monsters and objects only for the games there",
                     game ? game : "", dir);
        status = QG_ERR_NOTFOUND;
    } else {
        fclose(f);
        qg_game *g = calloc(1, sizeof *g);
        if (!g || !(g->name = qg_strdup(game))) {
            free(g);
            status = QG_ERR_NOMEM;
        } else {
            status = load_game(g, dir, diags);
            if (status == QG_OK)
                *out = g;
            else
                qg_game_free(g);
        }
    }
    free(probe);
    free(tables);
    free(found);
    return status;
}

/* ---- what other modules ask ----------------------------------------------- */

qg_vocab *qg_game_vocab(const qg_game *game)
{
    qg_vocab *vocab = qg_vocab_new();
    static const qg_vocab_kind kinds[GAME_KINDS] = {QG_VOCAB_FEATURE, QG_VOCAB_MONSTER,
                                                    QG_VOCAB_OBJECT, QG_VOCAB_ARTIFACT};
    for (int k = 0; vocab && k < GAME_KINDS; k++) {
        const game_kind *t = &game->kinds[k];
        for (size_t i = 0; i < t->count; i++) {
            const game_entry *e = &t->items[i];
            if (e->index < 0)
                continue;
            if (qg_vocab_add(vocab, kinds[k], e->index, e->tag ? e->tag : e->name,
                             e->tag ? e->name : NULL) != QG_OK ||
                qg_vocab_set_look(vocab, kinds[k], e->index, e->glyph[0],
                                  e->colour[0] && !e->colour[1] ? e->colour[0] : 0) != QG_OK) {
                qg_vocab_free(vocab);
                return NULL;
            }
        }
    }
    return vocab;
}
