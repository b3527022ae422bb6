/* The parser's one token of lookahead, read from the scanner when first
 * asked for (as bison reads it: see lower.c for why that matters), and
 * taking it. The grammar (parse.c), the directives' arguments (lower.c)
 * and syntax-error recovery (parse_diag.c) all read tokens through it. */
#include "des/parser.h"

const des_token *des_peek(parser *p)
{
    if (!p->have_look) {
        if (!des_lex(&p->lx, &p->look)) {
            p->nomem = 1;
            p->look.kind = DES_T_EOF;
        }
        if (p->look.text) {
            if (!des_lex_take_text(&p->lx, &p->look, &p->look_text))
                p->nomem = 1;
            p->look.text = p->look_text.data ? p->look_text.data : "";
        }
        p->have_look = 1;
    }
    return &p->look;
}

const des_token *des_take(parser *p)
{
    des_peek(p);
    qg_buf swap = p->cur_text;
    p->cur_text = p->look_text;
    p->look_text = swap;
    p->cur = p->look;
    p->have_look = 0;
    return &p->cur;
}
