/* Lowering: each directive's arguments become Lua statements in the main
 * chunk, on the line Crawl's parser gives them, and are recorded with
 * their parsed structure. A CHANCE/WEIGHT entry without "(range)" is added
 * once the next token has been read: bison needs that lookahead to choose
 * between its two productions, and Crawl takes the line from the scanner. */
#include "des/parser.h"

#include <limits.h>
#include <string.h>

static void emit(parser *p, des_chunk *chunk, int line)
{
    if (p->code.failed || !des_chunk_add(chunk, line, p->code.data, p->code.len))
        p->nomem = 1;
}

/* lua("arg") into a chunk. */
void des_emit_call_to(parser *p, qg_chunk_kind kind, const char *lua, const char *arg,
                      size_t len, int line)
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
    des_emit_call_to(p, QG_CHUNK_MAIN, lua, arg, len, line);
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

static int kmask_has(const des_spec *spec, uint32_t mask)
{
    for (size_t i = 0; i < spec->u.keyed.slot_count; i++)
        for (size_t a = 0; a < spec->u.keyed.slots[i].count; a++)
            if (spec->u.keyed.slots[i].alts[a].mask == mask)
                return 1;
    return 0;
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
    d->priority = -1;
    d->dir = dir;
    d->line = t->start_line;
    d->col = t->start_col;
    d->number = number;
    d->arg = qg_arena_strndup(&m->arena, arg ? arg : "", arg ? len : 0);
    d->arg_len = arg ? len : 0;
    d->range = range ? qg_arena_strndup(&m->arena, range, range_len) : NULL;
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
    if (r == DES_PARSE_OK && dir == DES_DIR_MARKER && d->spec.u.marker.next && !p->legacy)
        des_diag_token(p, QG_ERROR, t,
                       "MARKER: Crawl reads the whole line as one marker (since 0.5), so "
                       "this names no feature: write one MARKER: line per marker "
                       "(seed-era files, read with --legacy, may list several)");
    if (r == DES_PARSE_OK && dir == DES_DIR_KMASK && !p->legacy && kmask_has(&d->spec,
                                                                           QG_MASK_NO_SECRET_DOORS))
        des_diag_token(p, QG_WARNING, t,
                       "KMASK: no_secret_doors is a seed-era flag (seed 002); Crawl since "
                       "0.8 has no secret doors and refuses it");
    if (r == DES_PARSE_NOMEM) {
        p->nomem = 1;
    } else if (r == DES_PARSE_BAD) {
        d->spec.kind = DES_SPEC_NONE;
        size_t line_start = t->start_offset - (size_t)(t->start_col - 1);
        /* the column of the error, kept on its line (read as far as it) */
        size_t at = t->start_offset;
        while (at < p->len && at - t->start_offset < err.offset && p->data[at] != '\n')
            at++;
        int col = (int)(at - line_start) + 1;
        char msg[260];
        snprintf(msg, sizeof msg, "%s: %s", des_dir_name(dir), err.message);
        des_diag_line(p, QG_ERROR, t->start_line, col, line_start, msg);
    }
}

void des_lua_lines(parser *p, des_chunk *chunk)
{
    while (!p->nomem && des_peek(p)->kind == DES_T_LUA_LINE) {
        const des_token *t = des_take(p);
        if (!des_chunk_add(chunk, t->line, t->text, t->len))
            p->nomem = 1;
    }
}

static void string_directive(parser *p, const des_keyword *kw)
{
    if (des_peek(p)->kind != DES_T_STRING) {
        if (kw->form != DES_FORM_STRING_OPT)
            des_syntax_error(p, "an argument");
        return;
    }
    const des_token *t = des_take(p);
    emit_call(p, kw->lua, t->text, t->len, t->line);
    record(p, kw->dir, t, t->text, t->len, 0, NULL, 0);
}

static void marker_directive(parser *p, const des_keyword *kw)
{
    if (des_peek(p)->kind != DES_T_STRING) {
        des_syntax_error(p, "an argument");
        return;
    }
    const des_token *t = des_take(p);
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
        if (des_peek(p)->kind != DES_T_STRING) {
            des_syntax_error(p, "an argument");
            return;
        }
        const des_token *t = des_take(p);
        emit_call(p, kw->lua, t->text, t->len, t->line);
        record(p, kw->dir, t, t->text, t->len, 0, NULL, 0);
        if (des_peek(p)->kind != DES_T_COMMA)
            return;
        des_take(p);
    }
}

static void list_directive(parser *p, const des_keyword *kw, des_tok item, int optional)
{
    if (des_peek(p)->kind != item) {
        if (!optional)
            des_syntax_error(p, "an argument");
        return;
    }
    for (;;) {
        if (des_peek(p)->kind != item) {
            des_syntax_error(p, "an argument after ','");
            return;
        }
        const des_token *t = des_take(p);
        emit_call(p, kw->lua, t->text, t->len, t->line);
        record(p, kw->dir, t, t->text, t->len, 0, NULL, 0);
        if (des_peek(p)->kind != DES_T_COMMA)
            return;
        des_take(p);
    }
}

static void words_directive(parser *p, const des_keyword *kw)
{
    while (!p->nomem && des_peek(p)->kind == DES_T_STRING) {
        const des_token *t = des_take(p);
        emit_call(p, kw->lua, t->text, t->len, t->line);
        record(p, DES_DIR_TAGS, t, t->text, t->len, 0, NULL, 0);
    }
}

/* A CHANCE without '%' in a seed-era file is read as a weight, as the
 * seed documents (000, 001: "CHANCE: 5 makes the map appear less often
 * (default is 10)") mean it, which a note says. In a file of Crawl 0.5 or
 * later it is a roll of N in 10000 (maps.cc map_chance::roll), which is
 * what its author meant: nothing is said. */
static void tell_seed_era_chance(parser *p, const des_token *num, int value)
{
    char msg[320];
    snprintf(msg, sizeof msg,
             "CHANCE: %d without '%%' is read as a weight, as in the seed documents "
             "(Crawl 0.5 and later read it as %d in 10000)", value, value);
    des_diag_token(p, QG_NOTE, num, msg);
}

/* One CHANCE or WEIGHT entry: NUMBER [%] [(range)], and Crawl 0.5's
 * CHANCE NUMBER ':' NUMBER [%] (priority, then chance). */
static void weighted_entry(parser *p, int is_chance)
{
    des_token num = *des_take(p);
    int value = to_int(num.number), percent = 0, priority = -1;
    if (is_chance && des_peek(p)->kind == DES_T_COLON) {
        des_take(p);
        if (des_peek(p)->kind != DES_T_NUMBER) {
            des_syntax_error(p, "a chance after 'CHANCE: <priority> :'");
            return;
        }
        priority = value;
        num = *des_take(p);
        value = to_int(num.number);
    }
    if (is_chance && des_peek(p)->kind == DES_T_PERC) {
        des_take(p);
        value = to_int(num.number * 100);
        percent = 1;
    }
    if (is_chance && !percent && priority < 0 && p->legacy)
        tell_seed_era_chance(p, &num, value);
    /* Old files give a plain CHANCE the meaning WEIGHT has today. */
    int as_weight = !is_chance || (p->legacy && !percent && priority < 0);
    if (!as_weight && (value < 0 || value > 10000)) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "CHANCE: %g%s is out of range: a chance is 0 to 10000 (0%% to 100%%), as "
                 "dgn.chance requires", num.number, percent ? "%" : "");
        des_diag_token(p, QG_ERROR, &num, msg);
    }
    const char *plain = as_weight ? "weight" : "chance";
    const char *ranged = as_weight ? "depth_weight" : "depth_chance";
    des_dir dir = as_weight ? DES_DIR_WEIGHT : DES_DIR_CHANCE;
    qg_buf_reset(&p->code);
    if (des_peek(p)->kind == DES_T_STRING) {
        const des_token *t = des_take(p);
        qg_buf_printf(&p->code, "%s(\"", ranged);
        des_quote_lua(&p->code, t->text, t->len);
        qg_buf_printf(&p->code, "\", %d)", value);
        emit(p, &p->work[QG_CHUNK_MAIN], t->line);
        record(p, dir, &num, NULL, 0, value, t->text, t->len);
    } else {
        if (priority >= 0)
            qg_buf_printf(&p->code, "%s(%d, %d)", plain, priority, value);
        else
            qg_buf_printf(&p->code, "%s(%d)", plain, value);
        emit(p, &p->work[QG_CHUNK_MAIN], p->look.line);
        record(p, dir, &num, NULL, 0, value, NULL, 0);
    }
    if (priority >= 0 && !p->nomem)
        p->map->dirs[p->map->dir_count - 1].priority = priority;
}

static void weighted_directive(parser *p, int is_chance)
{
    if (des_peek(p)->kind != DES_T_NUMBER) {
        if (!is_chance)
            des_syntax_error(p, "a number");
        return;
    }
    for (;;) {
        if (des_peek(p)->kind != DES_T_NUMBER) {
            des_syntax_error(p, "a number after ','");
            return;
        }
        weighted_entry(p, is_chance);
        if (des_peek(p)->kind != DES_T_COMMA)
            return;
        des_take(p);
    }
}

static void order_directive(parser *p, const des_keyword *kw)
{
    if (des_peek(p)->kind != DES_T_NUMBER) {
        des_syntax_error(p, "a number");
        return;
    }
    const des_token *t = des_take(p);
    int value = to_int(t->number);
    qg_buf_reset(&p->code);
    qg_buf_printf(&p->code, "%s(%d)", kw->lua, value);
    emit(p, &p->work[QG_CHUNK_MAIN], t->line);
    record(p, kw->dir, t, NULL, 0, value, NULL, 0);
}

void des_directive_args(parser *p, const des_keyword *kw)
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
