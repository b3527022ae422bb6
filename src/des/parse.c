/* The .des grammar (levcomp.ypp): files of maps, each a NAME and its
 * directives, MAP rows and Lua, plus the file's global prelude. Tokens are
 * read when bison reads them (see lower.c for why that matters). */
#include "des/parse.h"
#include "des/parser.h"

#include <stdlib.h>
#include <string.h>

/* ---- maps ------------------------------------------------------------- */

static void map_row(parser *p)
{
    const des_token *t = des_take(p);
    des_emit_call_to(p, QG_CHUNK_MAPCHUNK, "map", t->text, t->len, t->line);
    if (qg_mapdef_add_row(p->def, t->text, t->len, t->line) != QG_OK)
        p->nomem = 1;
}

static void end_map(parser *p)
{
    if (!p->def)
        return;
    if (p->skim) {
        qg_mapdef_free(p->def);
        p->def = NULL;
        p->map = NULL;
        return;
    }
    if (!des_map_finish(p->map, p->work, p->def->file) ||
        des_map_properties(p->def, p->map, p->file->default_depth) != QG_OK)
        p->nomem = 1;
    if (p->file->each) {
        p->file->each(p->file->each_user, p->def);
        p->def = NULL;
        p->map = NULL;
        return;
    }
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
    if (des_peek(p)->kind != DES_T_STRING) {
        des_syntax_error(p, "a map name");
        return;
    }
    const des_token *t = des_take(p);
    if (memchr(t->text, '\0', t->len)) {
        /* the name would end at the NUL: another map's name, or none */
        des_diag_token(p, QG_ERROR, t, "a NUL byte in a map name");
    }
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
    const char *seen_file;
    int seen_line;
    int seen = des_names_find(p->names, def->name, &seen_file, &seen_line);
    if (seen < 0) {
        p->nomem = 1;
    } else if (seen) {
        char msg[512];
        snprintf(msg, sizeof msg, "map '%.200s' already defined at %.200s:%d",
                 def->name, seen_file, seen_line);
        des_diag_token(p, QG_ERROR, t, msg);
    } else if (!des_names_add(p->names, def->name, p->path, t->line)) {
        p->nomem = 1;
    }
}

static void default_depth(parser *p)
{
    end_map(p);
    if (des_peek(p)->kind != DES_T_STRING) {
        des_syntax_error(p, "a depth");
        return;
    }
    const des_token *t = des_take(p);
    free(p->file->default_depth);
    p->file->default_depth = t->len ? qg_strndup(t->text, t->len) : NULL;
    if (t->len && !p->file->default_depth) {
        p->nomem = 1;
        return;
    }
    des_ranges ranges;
    des_spec_error err;
    qg_arena arena;
    qg_arena_init(&arena);
    int r = des_parse_ranges(&arena, t->text, t->len, &ranges, &err);
    qg_arena_free(&arena);
    if (r == DES_PARSE_OK)
        return;
    if (r == DES_PARSE_NOMEM)
        p->nomem = 1;
    else {
        char msg[260];
        snprintf(msg, sizeof msg, "bad default-depth: %s", err.message);
        des_diag_offset(p, QG_ERROR, t->start_offset + err.offset, msg);
    }
}

/* A line of a map passed over unread, for a skim: the token that starts
 * it and every token that is not the start of another. */
static void skim_line(parser *p)
{
    if (des_take(p)->kind == DES_T_MAP_LINE)
        return;
    for (;;) {
        des_tok next = des_peek(p)->kind;
        if (next == DES_T_EOF || next == DES_T_KEYWORD || next == DES_T_MAP_LINE ||
            next == DES_T_MAIN || next == DES_T_PRELUDE || next == DES_T_VALIDATE ||
            next == DES_T_VETO || next == DES_T_EPILOGUE)
            return;
        des_take(p);
    }
}

static void metaline(parser *p)
{
    if (p->skim) {
        skim_line(p);
        return;
    }
    const des_token *t = des_peek(p);
    if (t->kind == DES_T_MAIN || t->kind == DES_T_PRELUDE || t->kind == DES_T_VALIDATE ||
        t->kind == DES_T_VETO || t->kind == DES_T_EPILOGUE)
        p->map->has_lua = 1;
    switch (t->kind) {
    case DES_T_KEYWORD: {
        const des_keyword *kw = t->keyword;
        des_take(p);
        des_directive_args(p, kw);
        return;
    }
    case DES_T_MAIN: des_take(p); des_lua_lines(p, &p->work[QG_CHUNK_MAIN]); return;
    case DES_T_PRELUDE:
        p->block_offset = t->start_offset;
        des_take(p);
        des_lua_lines(p, &p->work[QG_CHUNK_PRELUDE]);
        return;
    case DES_T_VALIDATE: des_take(p); des_lua_lines(p, &p->work[QG_CHUNK_VALIDATE]); return;
    case DES_T_VETO: des_take(p); des_lua_lines(p, &p->work[QG_CHUNK_VETO]); return;
    case DES_T_EPILOGUE: des_take(p); des_lua_lines(p, &p->work[QG_CHUNK_EPILOGUE]); return;
    case DES_T_MAP_LINE: map_row(p); return;
    default: des_syntax_error(p, NULL); return;
    }
}

static void parse_all(parser *p)
{
    while (!p->nomem) {
        const des_token *t = des_peek(p);
        if (t->kind == DES_T_EOF)
            break;
        if (t->kind == DES_T_MAIN || t->kind == DES_T_PRELUDE || t->kind == DES_T_VALIDATE ||
            t->kind == DES_T_VETO || t->kind == DES_T_EPILOGUE)
            p->block_offset = t->start_offset;
        if (t->kind == DES_T_KEYWORD && t->keyword->dir == DES_DIR_NAME) {
            des_take(p);
            begin_map(p);
        } else if (t->kind == DES_T_KEYWORD && t->keyword->dir == DES_DIR_DEFAULT_DEPTH) {
            des_take(p);
            default_depth(p);
        } else if (p->def) {
            metaline(p);
        } else if (t->kind == DES_T_MAIN) {
            des_take(p);
            des_lua_lines(p, &p->file->prelude);
        } else {
            des_syntax_error(p, NULL);
        }
    }
    end_map(p);
}

static void check_end_state(parser *p)
{
    if (p->lx.state == DES_ST_MAPDEF)
        des_diag_offset(p, QG_ERROR, p->map_offset, "MAP without ENDMAP at end of file");
    else if (p->lx.state == DES_ST_LUA)
        des_diag_offset(p, QG_ERROR, p->block_offset, "Lua block without }} at end of file");
}

qg_status des_parse_into(qg_des_file *file, const char *data, size_t len, int legacy,
                         int skim, qg_des_names *names, qg_diags *diags)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.path = file->path;
    p.data = data;
    p.len = len;
    p.file = file;
    p.diags = diags;
    p.names = skim ? NULL : names;
    p.skim = skim;
    p.legacy = legacy || des_looks_legacy(data, len);
    qg_buf_init(&p.look_text);
    qg_buf_init(&p.cur_text);
    qg_buf_init(&p.code);
    for (int k = 0; k < QG_CHUNK_KINDS; k++)
        des_chunk_init(&p.work[k]);
    des_lexer_init(&p.lx, data, len, names ? names->carry_state : DES_ST_INITIAL, p.legacy);
    p.lx.on_event = des_on_lex_event;
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
