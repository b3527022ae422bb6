/* Q:<n>:<sub>:… records: N name, T text, Q definition, R rewards. */
#include "fd/fd_internal.h"

#include <string.h>

static void read_values(const fd_line *at, const fd_tok *tok, size_t n, qg_fd_quest *quest, int *ok)
{
    for (size_t i = 2; i < n && quest->value_count < 32; i++)
        *ok &= fd_number(at, &tok[i], "quest field", &quest->values[quest->value_count++]);
}

int fd_read_quest(fd_reader *r, const fd_line *at, const char *s, size_t len,
                  qg_fd_quest *quest)
{
    memset(quest, 0, sizeof *quest);
    int col = 3;
    if (len && s[0] == '$') {
        quest->english = 1;
        s++;
        len--;
        col++;
    }
    fd_tok tok[34];
    size_t n = fd_tokenize(s, len, col, 33, tok);
    if (n < 3) {
        fd_error(at, 1, "too few fields: a Q: line needs a quest number, a subtype and a value");
        return 0;
    }
    int32_t number;
    int ok = fd_number(at, &tok[0], "quest number", &number);
    if (ok && number < 0) {
        fd_error(at, tok[0].col, "negative quest number %ld", (long)number);
        ok = 0;
    }
    quest->number = number;
    quest->sub = tok[1].len ? tok[1].p[0] : '\0';
    switch (quest->sub) {
    case 'N':
    case 'T':
        quest->text = fd_keep(r, tok[2].p, tok[2].len);
        if (n > 3)
            fd_warning(at, tok[3].col - 1,
                       "the games keep Q:%c text only up to the first ':' or '/'", quest->sub);
        break;
    case 'Q':
        if (n < 9) {
            fd_error(at, 1, "too few fields: Q:%d:Q needs type, num_mon, cur_num, max_num, level, r_idx and k_idx",
                     quest->number);
            ok = 0;
        }
        read_values(at, tok, n, quest, &ok);
        break;
    case 'R':
        read_values(at, tok, n, quest, &ok);
        break;
    default:
        fd_warning(at, tok[1].col, "unknown quest record Q:%d:%.*s (the games ignore it)",
                   quest->number, (int)(tok[1].len > 8 ? 8 : tok[1].len), tok[1].p);
        quest->text = fd_keep(r, tok[2].p, (size_t)(s + len - tok[2].p));
        break;
    }
    return ok;
}

int fd_read_quest_head(fd_reader *r, const fd_line *at, const char *s, size_t len,
                       qg_fd_quest *quest)
{
    memset(quest, 0, sizeof *quest);
    quest->sub = 'N';
    quest->head = 1;
    fd_tok tok[3];
    size_t n = fd_tokenize(s, len, 3, 3, tok);
    if (n < 3) {
        fd_error(at, 1, "too few fields: a quest record starts N:id:level:name");
        return 0;
    }
    int32_t number;
    int ok = fd_number(at, &tok[0], "quest id", &number);
    ok &= fd_number(at, &tok[1], "quest level", &quest->values[0]);
    quest->value_count = 1;
    if (ok && number < 0) {
        fd_error(at, tok[0].col, "negative quest id %ld", (long)number);
        ok = 0;
    }
    quest->number = number;
    quest->text = fd_keep(r, tok[2].p, tok[2].len);
    return ok && quest->text;
}
