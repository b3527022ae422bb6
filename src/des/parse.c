/* The .des grammar (levcomp.ypp) and its lowering to Lua chunks. The
 * parser reads tokens the way bison does, so that each statement lands on
 * the line Crawl gives it: a CHANCE/WEIGHT entry without "(range)" is
 * added once the next token has been read (bison needs that lookahead to
 * choose between its two productions). */
#define _GNU_SOURCE /* memmem */
#include "des/parse.h"
#include "des/lex.h"
#include "des/map.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    des_lexer lx;
    des_token look;          /* the lookahead, when have_look */
    qg_buf look_text;
    int have_look;
    des_token cur;           /* the token last taken */
    qg_buf cur_text;
    const char *path;
    const char *data;
    size_t len;
    qg_des_file *file;
    qg_diags *diags;
    qg_des_names *names;
    qg_mapdef *def;          /* the map being read */
    des_map *map;
    qg_buf code;             /* scratch for one Lua statement */
    des_chunk work[QG_CHUNK_KINDS]; /* the current map's chunks while read */
    int legacy;
    int nomem;
    size_t map_offset;       /* where the last MAP line began */
    size_t block_offset;     /* where the last {{ block began */
} parser;

/* ---- diagnostics ------------------------------------------------------ */

static void diag_line(parser *p, qg_severity sev, int line, int col,
                      size_t line_start, const char *msg)
{
    const char *s = p->data + line_start, *end = p->data + p->len;
    const char *nl = line_start < p->len ? memchr(s, '\n', (size_t)(end - s)) : NULL;
    size_t n = line_start < p->len ? (size_t)((nl ? nl : end) - s) : 0;
    qg_diags_add(p->diags, sev, p->path, line, col, n ? s : "", n, "%s", msg);
}

static void diag_offset(parser *p, qg_severity sev, size_t offset, const char *msg)
{
    int line, col;
    size_t start;
    des_position(p->data, p->len, offset, &line, &col, &start);
    diag_line(p, sev, line, col, start, msg);
}

static void diag_token(parser *p, qg_severity sev, const des_token *t, const char *msg)
{
    diag_offset(p, sev, t->start_offset, msg);
}

static void on_lex_event(void *user, des_lex_event ev, size_t offset)
{
    parser *p = user;
    switch (ev) {
    case DES_EV_ECHO:
        diag_offset(p, QG_WARNING, offset,
                    "character ignored (Crawl's scanner echoes and drops it)");
        break;
    case DES_EV_MAP_TAB:
        diag_offset(p, QG_ERROR, offset, "TAB inside MAP");
        break;
    case DES_EV_MAP_NONASCII:
        diag_offset(p, QG_WARNING, offset, "byte that is not ASCII inside MAP (kept)");
        break;
    case DES_EV_MAP_START:
        p->map_offset = offset;
        break;
    }
}

/* ---- tokens ----------------------------------------------------------- */

static const des_token *peek(parser *p)
{
    if (!p->have_look) {
        if (!des_lex(&p->lx, &p->look)) {
            p->nomem = 1;
            p->look.kind = DES_T_EOF;
        }
        qg_buf_reset(&p->look_text);
        if (p->look.text) {
            qg_buf_append(&p->look_text, p->look.text, p->look.len);
            qg_buf_reserve(&p->look_text, 1);
            if (p->look_text.failed)
                p->nomem = 1;
            p->look.text = p->look_text.data ? p->look_text.data : "";
        }
        p->have_look = 1;
    }
    return &p->look;
}

static const des_token *take(parser *p)
{
    peek(p);
    qg_buf swap = p->cur_text;
    p->cur_text = p->look_text;
    p->look_text = swap;
    p->cur = p->look;
    p->have_look = 0;
    return &p->cur;
}

static int starts_statement(const des_token *t)
{
    return t->kind == DES_T_EOF || t->kind == DES_T_KEYWORD || t->kind == DES_T_MAIN ||
           t->kind == DES_T_PRELUDE || t->kind == DES_T_VALIDATE ||
           t->kind == DES_T_VETO || t->kind == DES_T_EPILOGUE;
}

static const char *token_name(const des_token *t)
{
    switch (t->kind) {
    case DES_T_EOF: return "end of file";
    case DES_T_KEYWORD: return t->keyword->word;
    case DES_T_PRELUDE: return "prelude {{";
    case DES_T_MAIN: return "Lua";
    case DES_T_VALIDATE: return "validate {{";
    case DES_T_VETO: return "veto {{";
    case DES_T_EPILOGUE: return "epilogue {{";
    case DES_T_COMMA: return "','";
    case DES_T_COLON: return "':'";
    case DES_T_PERC: return "'%'";
    case DES_T_DASH: return "'-'";
    case DES_T_NUMBER: return "a number";
    case DES_T_STRING: return "a string";
    case DES_T_MAP_LINE: return "a map row";
    case DES_T_MONSTER_NAME: return "a monster";
    case DES_T_ITEM_INFO: return "an item";
    case DES_T_LUA_LINE: return "a Lua line";
    case DES_T_CHARACTER: return "a character";
    }
    return "?";
}

/* Reports the lookahead as unexpected and skips the rest of its line. */
static void syntax_error(parser *p, const char *expected)
{
    const des_token *t = peek(p);
    char msg[200];
    if (t->kind == DES_T_CHARACTER) {
        unsigned char c = (unsigned char)p->data[t->start_offset];
        if (p->lx.state == DES_ST_MAPDEF)
            snprintf(msg, sizeof msg, "%s",
                     c == '#' ? "'#' after a TAB inside MAP"
                     : c == ' ' && t->start_offset + 1 < p->len &&
                               p->data[t->start_offset + 1] != '\n' &&
                               p->data[t->start_offset + 1] != ' '
                         ? "space after a TAB inside MAP"
                         : "blank line inside MAP");
        else if (c >= 0x21 && c < 0x7f)
            snprintf(msg, sizeof msg, "unexpected character '%c'", c);
        else
            snprintf(msg, sizeof msg, "unexpected character \\x%02x", c);
    } else if (expected) {
        snprintf(msg, sizeof msg, "syntax error: expected %s, found %s", expected,
                 token_name(t));
    } else {
        snprintf(msg, sizeof msg, "syntax error: unexpected %s", token_name(t));
    }
    diag_token(p, QG_ERROR, t, msg);
    /* A missing argument leaves the next statement to be read; anything
     * else unexpected takes the rest of its line with it. */
    if (expected && starts_statement(t))
        return;
    int line = t->start_line;
    take(p);
    while (!p->nomem && peek(p)->kind != DES_T_EOF && p->look.start_line == line)
        take(p);
}

/* ---- lowering --------------------------------------------------------- */

static void emit(parser *p, des_chunk *chunk, int line)
{
    if (p->code.failed || !des_chunk_add(chunk, line, p->code.data, p->code.len))
        p->nomem = 1;
}

/* lua("arg") into a chunk. */
static void emit_call_to(parser *p, qg_chunk_kind kind, const char *lua,
                         const char *arg, size_t len, int line)
{
    qg_buf *code = des_chunk_begin(&p->work[kind], line);
    qg_buf_puts(code, lua);
    qg_buf_append(code, "(\"", 2);
    des_quote_lua(code, arg, len);
    qg_buf_append(code, "\")", 2);
    if (code->failed)
        p->nomem = 1;
}

static void emit_call(parser *p, const char *lua, const char *arg, size_t len, int line)
{
    emit_call_to(p, QG_CHUNK_MAIN, lua, arg, len, line);
}

static int to_int(double v)
{
    if (v != v)
        return 0;
    if (v >= (double)INT_MAX)
        return INT_MAX;
    if (v <= (double)INT_MIN)
        return INT_MIN;
    return (int)v;
}

static void record(parser *p, des_dir dir, const des_token *t, const char *arg,
                   size_t len, double number, const char *range, size_t range_len)
{
    des_map *m = p->map;
    des_directive *d = QG_PUSH(m->dirs, m->dir_count, m->dir_cap);
    if (!d) {
        p->nomem = 1;
        return;
    }
    memset(d, 0, sizeof *d);
    d->dir = dir;
    d->line = t->start_line;
    d->col = t->start_col;
    d->number = number;
    d->arg = des_arena_strndup(&m->arena, arg ? arg : "", arg ? len : 0);
    d->arg_len = arg ? len : 0;
    d->range = range ? des_arena_strndup(&m->arena, range, range_len) : NULL;
    if (!d->arg || (range && !d->range)) {
        p->nomem = 1;
        return;
    }
    des_spec_error err;
    int r = DES_PARSE_OK;
    if (dir == DES_DIR_CHANCE || dir == DES_DIR_WEIGHT) {
        if (range) {
            d->spec.kind = DES_SPEC_RANGES;
            r = des_parse_ranges(&m->arena, range, range_len, &d->spec.u.ranges, &err);
        }
    } else {
        r = des_parse_spec(&m->arena, dir, d->arg, d->arg_len, &d->spec, &err);
    }
    if (r == DES_PARSE_NOMEM) {
        p->nomem = 1;
    } else if (r == DES_PARSE_BAD) {
        d->spec.kind = DES_SPEC_NONE;
        size_t line_start = t->start_offset - (size_t)(t->start_col - 1);
        size_t eol = t->start_offset;
        while (eol < p->len && p->data[eol] != '\n')
            eol++;
        int col = t->start_col + (int)err.offset;
        if ((size_t)col > eol - line_start + 1)
            col = (int)(eol - line_start) + 1;
        char msg[260];
        snprintf(msg, sizeof msg, "%s: %s", des_dir_name(dir), err.message);
        diag_line(p, QG_ERROR, t->start_line, col, line_start, msg);
    }
}

static void lua_lines(parser *p, des_chunk *chunk)
{
    while (!p->nomem && peek(p)->kind == DES_T_LUA_LINE) {
        const des_token *t = take(p);
        if (!des_chunk_add(chunk, t->line, t->text, t->len))
            p->nomem = 1;
    }
}

/* ---- directives ------------------------------------------------------- */

static void string_directive(parser *p, const des_keyword *kw)
{
    if (peek(p)->kind != DES_T_STRING) {
        if (kw->form != DES_FORM_STRING_OPT)
            syntax_error(p, "an argument");
        return;
    }
    const des_token *t = take(p);
    emit_call(p, kw->lua, t->text, t->len, t->line);
    record(p, kw->dir, t, t->text, t->len, 0, NULL, 0);
}

static void marker_directive(parser *p, const des_keyword *kw)
{
    if (peek(p)->kind != DES_T_STRING) {
        syntax_error(p, "an argument");
        return;
    }
    const des_token *t = take(p);
    const char *key, *value;
    size_t key_len, value_len;
    int sep;
    des_spec_error err;
    if (des_split_key_item(t->text, t->len, 1, &key, &key_len, &sep, &value,
                           &value_len, &err) != DES_PARSE_OK) {
        record(p, kw->dir, t, t->text, t->len, 0, NULL, 0);
        return;
    }
    if (value_len >= 4 && memcmp(value, "lua:", 4) == 0) {
        qg_buf_reset(&p->code);
        qg_buf_puts(&p->code, "lua_marker(\"");
        des_quote_lua(&p->code, key, key_len);
        qg_buf_puts(&p->code, "\", function ()   return ");
        qg_buf_append(&p->code, value + 4, value_len - 4);
        qg_buf_puts(&p->code, " end)");
        emit(p, &p->work[QG_CHUNK_MAIN], t->line);
    } else {
        emit_call(p, kw->lua, t->text, t->len, t->line);
    }
    record(p, kw->dir, t, t->text, t->len, 0, NULL, 0);
}

static void subvault_directive(parser *p, const des_keyword *kw)
{
    for (;;) {
        if (peek(p)->kind != DES_T_STRING) {
            syntax_error(p, "an argument");
            return;
        }
        const des_token *t = take(p);
        emit_call(p, kw->lua, t->text, t->len, t->line);
        record(p, kw->dir, t, t->text, t->len, 0, NULL, 0);
        if (peek(p)->kind != DES_T_COMMA)
            return;
        take(p);
    }
}

static void list_directive(parser *p, const des_keyword *kw, des_tok item, int optional)
{
    if (peek(p)->kind != item) {
        if (!optional)
            syntax_error(p, "an argument");
        return;
    }
    for (;;) {
        if (peek(p)->kind != item) {
            syntax_error(p, "an argument after ','");
            return;
        }
        const des_token *t = take(p);
        emit_call(p, kw->lua, t->text, t->len, t->line);
        record(p, kw->dir, t, t->text, t->len, 0, NULL, 0);
        if (peek(p)->kind != DES_T_COMMA)
            return;
        take(p);
    }
}

static void words_directive(parser *p, const des_keyword *kw)
{
    while (!p->nomem && peek(p)->kind == DES_T_STRING) {
        const des_token *t = take(p);
        emit_call(p, kw->lua, t->text, t->len, t->line);
        record(p, DES_DIR_TAGS, t, t->text, t->len, 0, NULL, 0);
    }
}

/* One CHANCE or WEIGHT entry: NUMBER [%] [(range)]. */
static void weighted_entry(parser *p, int is_chance)
{
    des_token num = *take(p);
    int value = to_int(num.number), percent = 0;
    if (is_chance && peek(p)->kind == DES_T_PERC) {
        take(p);
        value = to_int(num.number * 100);
        percent = 1;
    }
    /* Old files give a plain CHANCE the meaning WEIGHT has today. */
    int as_weight = !is_chance || (p->legacy && !percent);
    const char *plain = as_weight ? "weight" : "chance";
    const char *ranged = as_weight ? "depth_weight" : "depth_chance";
    des_dir dir = as_weight ? DES_DIR_WEIGHT : DES_DIR_CHANCE;
    qg_buf_reset(&p->code);
    if (peek(p)->kind == DES_T_STRING) {
        const des_token *t = take(p);
        qg_buf_printf(&p->code, "%s(\"", ranged);
        des_quote_lua(&p->code, t->text, t->len);
        qg_buf_printf(&p->code, "\", %d)", value);
        emit(p, &p->work[QG_CHUNK_MAIN], t->line);
        record(p, dir, &num, NULL, 0, value, t->text, t->len);
    } else {
        qg_buf_printf(&p->code, "%s(%d)", plain, value);
        emit(p, &p->work[QG_CHUNK_MAIN], p->look.line);
        record(p, dir, &num, NULL, 0, value, NULL, 0);
    }
}

static void weighted_directive(parser *p, int is_chance)
{
    if (peek(p)->kind != DES_T_NUMBER) {
        if (!is_chance)
            syntax_error(p, "a number");
        return;
    }
    for (;;) {
        if (peek(p)->kind != DES_T_NUMBER) {
            syntax_error(p, "a number after ','");
            return;
        }
        weighted_entry(p, is_chance);
        if (peek(p)->kind != DES_T_COMMA)
            return;
        take(p);
    }
}

static void order_directive(parser *p, const des_keyword *kw)
{
    if (peek(p)->kind != DES_T_NUMBER) {
        syntax_error(p, "a number");
        return;
    }
    const des_token *t = take(p);
    int value = to_int(t->number);
    qg_buf_reset(&p->code);
    qg_buf_printf(&p->code, "%s(%d)", kw->lua, value);
    emit(p, &p->work[QG_CHUNK_MAIN], t->line);
    record(p, kw->dir, t, NULL, 0, value, NULL, 0);
}

static void directive(parser *p, const des_keyword *kw)
{
    switch (kw->form) {
    case DES_FORM_STRING: case DES_FORM_STRING_OPT: string_directive(p, kw); break;
    case DES_FORM_MARKER: marker_directive(p, kw); break;
    case DES_FORM_SUBVAULT: subvault_directive(p, kw); break;
    case DES_FORM_LIST: list_directive(p, kw, DES_T_ITEM_INFO, 0); break;
    case DES_FORM_LIST_OPT: list_directive(p, kw, DES_T_ITEM_INFO, 1); break;
    case DES_FORM_MONS: list_directive(p, kw, DES_T_MONSTER_NAME, 1); break;
    case DES_FORM_WORDS: words_directive(p, kw); break;
    case DES_FORM_CHANCE: weighted_directive(p, 1); break;
    case DES_FORM_WEIGHT: weighted_directive(p, 0); break;
    case DES_FORM_ORDER: order_directive(p, kw); break;
    case DES_FORM_NAME: case DES_FORM_DEFDEPTH: break;
    }
}

/* ---- maps ------------------------------------------------------------- */

static void map_row(parser *p)
{
    const des_token *t = take(p);
    emit_call_to(p, QG_CHUNK_MAPCHUNK, "map", t->text, t->len, t->line);
    if (qg_mapdef_add_row(p->def, t->text, t->len, t->line) != QG_OK)
        p->nomem = 1;
}

/* Hands the chunks read into the map, each in a buffer of its own size
 * (the working buffers keep their capacity for the next map). */
static void move_chunks(parser *p)
{
    for (int k = 0; k < QG_CHUNK_KINDS; k++) {
        des_chunk *from = &p->work[k], *to = &p->map->chunks[k];
        if (from->code.len && !qg_buf_append(&to->code, from->code.data, from->code.len))
            p->nomem = 1;
        to->first = from->first;
        to->last = from->last;
        qg_buf_reset(&from->code);
        from->first = from->last = -1;
    }
}

static void end_map(parser *p)
{
    if (!p->def)
        return;
    move_chunks(p);
    if (!des_map_finish(p->map, p->def->file) || des_map_properties(p->def, p->map, p->file->default_depth) != QG_OK)
        p->nomem = 1;
    qg_mapdef **slot = QG_PUSH(p->file->maps, p->file->map_count, p->file->map_cap);
    if (!slot) {
        qg_mapdef_free(p->def);
        p->nomem = 1;
    } else {
        *slot = p->def;
    }
    p->def = NULL;
    p->map = NULL;
}

static void begin_map(parser *p)
{
    end_map(p);
    if (peek(p)->kind != DES_T_STRING) {
        syntax_error(p, "a map name");
        return;
    }
    const des_token *t = take(p);
    qg_mapdef *def = qg_mapdef_new(QG_FORMAT_DES, t->text);
    des_map *map = def ? des_map_new(p->legacy) : NULL;
    if (!map || qg_mapdef_set_file(def, p->path, t->line) != QG_OK) {
        qg_mapdef_free(def);
        des_map_free(map);
        p->nomem = 1;
        return;
    }
    qg_mapdef_set_payload(def, map, des_map_free);
    p->def = def;
    p->map = map;
    if (!p->names)
        return;
    const des_name_entry *seen = des_names_find(p->names, def->name);
    if (seen) {
        char msg[512];
        snprintf(msg, sizeof msg, "map '%.200s' already defined at %.200s:%d",
                 def->name, seen->file, seen->line);
        diag_token(p, QG_ERROR, t, msg);
    } else if (!des_names_add(p->names, def->name, p->path, t->line)) {
        p->nomem = 1;
    }
}

static void default_depth(parser *p)
{
    end_map(p);
    if (peek(p)->kind != DES_T_STRING) {
        syntax_error(p, "a depth");
        return;
    }
    const des_token *t = take(p);
    free(p->file->default_depth);
    p->file->default_depth = t->len ? qg_strndup(t->text, t->len) : NULL;
    if (t->len && !p->file->default_depth) {
        p->nomem = 1;
        return;
    }
    des_ranges ranges;
    des_spec_error err;
    des_arena arena;
    des_arena_init(&arena);
    int r = des_parse_ranges(&arena, t->text, t->len, &ranges, &err);
    des_arena_free(&arena);
    if (r == DES_PARSE_OK)
        return;
    if (r == DES_PARSE_NOMEM)
        p->nomem = 1;
    else {
        char msg[260];
        snprintf(msg, sizeof msg, "bad default-depth: %s", err.message);
        diag_offset(p, QG_ERROR, t->start_offset + err.offset, msg);
    }
}

static void metaline(parser *p)
{
    const des_token *t = peek(p);
    if (t->kind == DES_T_MAIN || t->kind == DES_T_PRELUDE || t->kind == DES_T_VALIDATE ||
        t->kind == DES_T_VETO || t->kind == DES_T_EPILOGUE)
        p->map->has_lua = 1;
    switch (t->kind) {
    case DES_T_KEYWORD: {
        const des_keyword *kw = t->keyword;
        take(p);
        directive(p, kw);
        return;
    }
    case DES_T_MAIN: take(p); lua_lines(p, &p->work[QG_CHUNK_MAIN]); return;
    case DES_T_PRELUDE:
        p->block_offset = t->start_offset;
        take(p);
        lua_lines(p, &p->work[QG_CHUNK_PRELUDE]);
        return;
    case DES_T_VALIDATE: take(p); lua_lines(p, &p->work[QG_CHUNK_VALIDATE]); return;
    case DES_T_VETO: take(p); lua_lines(p, &p->work[QG_CHUNK_VETO]); return;
    case DES_T_EPILOGUE: take(p); lua_lines(p, &p->work[QG_CHUNK_EPILOGUE]); return;
    case DES_T_MAP_LINE: map_row(p); return;
    default: syntax_error(p, NULL); return;
    }
}

static void parse_all(parser *p)
{
    while (!p->nomem) {
        const des_token *t = peek(p);
        if (t->kind == DES_T_EOF)
            break;
        if (t->kind == DES_T_MAIN || t->kind == DES_T_PRELUDE || t->kind == DES_T_VALIDATE ||
            t->kind == DES_T_VETO || t->kind == DES_T_EPILOGUE)
            p->block_offset = t->start_offset;
        if (t->kind == DES_T_KEYWORD && t->keyword->dir == DES_DIR_NAME) {
            take(p);
            begin_map(p);
        } else if (t->kind == DES_T_KEYWORD && t->keyword->dir == DES_DIR_DEFAULT_DEPTH) {
            take(p);
            default_depth(p);
        } else if (p->def) {
            metaline(p);
        } else if (t->kind == DES_T_MAIN) {
            take(p);
            lua_lines(p, &p->file->prelude);
        } else {
            syntax_error(p, NULL);
        }
    }
    end_map(p);
}

static void check_end_state(parser *p)
{
    if (p->lx.state == DES_ST_MAPDEF)
        diag_offset(p, QG_ERROR, p->map_offset, "MAP without ENDMAP at end of file");
    else if (p->lx.state == DES_ST_LUA)
        diag_offset(p, QG_ERROR, p->block_offset, "Lua block without }} at end of file");
}

/* Old files spell some directives differently (FLAGS:, LFLAGS:, BFLAGS:,
 * FLOORCOL:, ROCKCOL:): one of them starting a line marks the file. */
static int starts_line(const char *data, size_t at)
{
    while (at > 0 && (data[at - 1] == ' ' || data[at - 1] == '\t'))
        at--;
    return at == 0 || data[at - 1] == '\n';
}

static int looks_legacy(const char *data, size_t len)
{
    /* "FLAGS:" finds FLAGS/LFLAGS/BFLAGS, "COL:" FLOORCOL/ROCKCOL */
    static const struct { const char *word; const char *prefixes[2]; } words[] = {
        {"FLAGS:", {"L", "B"}}, {"COL:", {"FLOOR", "ROCK"}},
    };
    for (size_t w = 0; w < sizeof words / sizeof *words; w++) {
        size_t wl = strlen(words[w].word);
        for (const char *p = data, *end = data + len;
             (p = memmem(p, (size_t)(end - p), words[w].word, wl)) != NULL; p++) {
            size_t at = (size_t)(p - data);
            if (w == 0 && starts_line(data, at))
                return 1;
            for (int k = 0; k < 2; k++) {
                size_t pl = strlen(words[w].prefixes[k]);
                if (at >= pl && memcmp(p - pl, words[w].prefixes[k], pl) == 0 &&
                    starts_line(data, at - pl))
                    return 1;
            }
        }
    }
    return 0;
}

qg_status des_parse_into(qg_des_file *file, const char *data, size_t len, int legacy,
                         qg_des_names *names, qg_diags *diags)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.path = file->path;
    p.data = data;
    p.len = len;
    p.file = file;
    p.diags = diags;
    p.names = names;
    p.legacy = legacy || looks_legacy(data, len);
    qg_buf_init(&p.look_text);
    qg_buf_init(&p.cur_text);
    qg_buf_init(&p.code);
    for (int k = 0; k < QG_CHUNK_KINDS; k++)
        des_chunk_init(&p.work[k]);
    des_lexer_init(&p.lx, data, len, names ? names->carry_state : DES_ST_INITIAL, p.legacy);
    p.lx.on_event = on_lex_event;
    p.lx.user = &p;
    size_t errors_before = qg_diags_count_severity(diags, QG_ERROR);
    parse_all(&p);
    if (!p.nomem)
        check_end_state(&p);
    if (names)
        names->carry_state = p.lx.state;
    des_lexer_free(&p.lx);
    qg_buf_free(&p.look_text);
    qg_buf_free(&p.cur_text);
    qg_buf_free(&p.code);
    for (int k = 0; k < QG_CHUNK_KINDS; k++)
        des_chunk_free(&p.work[k]);
    if (p.nomem) {
        qg_diags_add(diags, QG_ERROR, file->path, 0, 0, NULL, 0, "out of memory");
        return QG_ERR_NOMEM;
    }
    return qg_diags_count_severity(diags, QG_ERROR) > errors_before ? QG_ERR_PARSE : QG_OK;
}
