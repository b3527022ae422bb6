/* Reading a game's name lists: one name per line, '#' comments, '!' for a
 * name the game knows but refuses in a map; and its grammar.txt, the
 * forms the game's spec parsers build names from. */
#include "des/vocab_internal.h"
#include "des/games.h"
#include "core/file.h"
#include "core/suggest.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const list_files[DES_VOCAB_KINDS] = {"features.txt", "monsters.txt",
                                                        "items.txt"};

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const des_vocab_entry *)a)->name, ((const des_vocab_entry *)b)->name);
}

/* The lines of text (modified in place): each non-comment line's start. */
static int add_lines(des_vocab_list *list, char *text)
{
    for (char *line = text; line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        size_t len = strlen(line);
        while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
            line[--len] = '\0';
        if (len && line[0] != '#') {
            des_vocab_entry *e = QG_PUSH(list->entries, list->count, list->cap);
            if (!e)
                return 0;
            e->refused = line[0] == '!';
            e->name = line + e->refused;
            for (char *p = e->name; *p; p++)
                *p = (char)tolower((unsigned char)*p);
        }
        line = next;
    }
    return 1;
}

static qg_status load_list(qg_des_vocab *vocab, int kind, const char *dir, qg_diags *diags)
{
    char *path = qg_path_join(dir, list_files[kind]);
    if (!path)
        return QG_ERR_NOMEM;
    char *data;
    size_t len;
    qg_status st = qg_read_file(path, QG_MAX_TEXT_FILE, &data, &len, diags);
    free(path);
    if (st != QG_OK)
        return st;
    des_vocab_list *list = &vocab->lists[kind];
    list->text = data;
    if (!add_lines(list, data))
        return QG_ERR_NOMEM;
    qsort(list->entries, list->count, sizeof *list->entries, cmp_entry);
    return QG_OK;
}

/* grammar.txt: "<rule> <text>" per line ('#' comments). */
static qg_status load_grammar(qg_des_vocab *vocab, const char *dir, qg_diags *diags)
{
    static const char *const rule_words[DES_RULE_KINDS] = {
        "monster", "undead", "shaped", "headed", "item-class", "item-word", "item-pair"};
    char *path = qg_path_join(dir, "grammar.txt");
    if (!path)
        return QG_ERR_NOMEM;
    size_t len;
    qg_status st = qg_read_file(path, QG_MAX_TEXT_FILE, &vocab->grammar_text, &len, diags);
    int line_no = 0;
    for (char *line = st == QG_OK ? vocab->grammar_text : NULL; line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line_no++;
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
            line[--n] = '\0';
        if (n && line[0] != '#') {
            size_t w = strcspn(line, " ");
            char *text = line + w;
            while (*text == ' ')
                text++;
            for (char *p = text; *p; p++)
                *p = (char)tolower((unsigned char)*p);
            int rule = -1;
            for (int r = 0; r < DES_RULE_KINDS; r++)
                if (strlen(rule_words[r]) == w && memcmp(line, rule_words[r], w) == 0)
                    rule = r;
            if (w == strlen("unrand-key") && memcmp(line, "unrand-key", w) == 0 &&
                strcmp(text, "drop-apostrophes") == 0) {
                vocab->unrand_drop_apostrophes = 1;
            } else if (rule < 0 || !*text) {
                qg_diags_add(diags, QG_ERROR, path, line_no, 1, NULL, 0,
                             "grammar.txt: unknown rule '%.*s'", (int)w, line);
                st = QG_ERR_PARSE;
                break;
            } else {
                des_rule_list *list = &vocab->rules[rule];
                char **slot = QG_PUSH(list->texts, list->count, list->cap);
                if (!slot) {
                    st = QG_ERR_NOMEM;
                    break;
                }
                *slot = text;
            }
        }
        line = next;
    }
    free(path);
    return st;
}

int des_vocab_rule_has(const qg_des_vocab *vocab, int rule, const char *text, size_t len)
{
    const des_rule_list *list = &vocab->rules[rule];
    for (size_t i = 0; i < list->count; i++)
        if (strlen(list->texts[i]) == len && memcmp(list->texts[i], text, len) == 0)
            return 1;
    return 0;
}

qg_status qg_des_vocab_load(const char *dir, const char *game, qg_des_vocab **out,
                         qg_diags *diags)
{
    *out = NULL;
    char *chosen = NULL, *game_dir = NULL;
    qg_status st = des_game_pick(dir, game, "vocabulary", &chosen, &game_dir, diags);
    qg_des_vocab *vocab = st == QG_OK ? calloc(1, sizeof *vocab) : NULL;
    if (st == QG_OK && !vocab)
        st = QG_ERR_NOMEM;
    if (vocab) {
        vocab->game = chosen;
        chosen = NULL;
    }
    for (int k = 0; st == QG_OK && k < DES_VOCAB_KINDS; k++)
        st = load_list(vocab, k, game_dir, diags);
    if (st == QG_OK)
        st = load_grammar(vocab, game_dir, diags);
    if (st == QG_OK)
        st = qg_branches_load(dir, vocab->game, &vocab->branches, diags);
    free(game_dir);
    free(chosen);
    if (st != QG_OK) {
        qg_des_vocab_free(vocab);
        return st;
    }
    *out = vocab;
    return QG_OK;
}

void qg_des_vocab_free(qg_des_vocab *vocab)
{
    if (!vocab)
        return;
    for (int k = 0; k < DES_VOCAB_KINDS; k++) {
        free(vocab->lists[k].entries);
        free(vocab->lists[k].text);
    }
    for (int r = 0; r < DES_RULE_KINDS; r++)
        free(vocab->rules[r].texts);
    free(vocab->grammar_text);
    qg_branches_free(vocab->branches);
    free(vocab->game);
    free(vocab);
}

const char *qg_des_vocab_game(const qg_des_vocab *vocab)
{
    return vocab->game;
}

const qg_branches *qg_des_vocab_branches(const qg_des_vocab *vocab)
{
    return vocab->branches;
}

const des_vocab_entry *des_vocab_find(const qg_des_vocab *vocab, int kind, const char *name,
                                      size_t len)
{
    char key[256];
    if (len >= sizeof key)
        return NULL;
    for (size_t i = 0; i < len; i++)
        key[i] = (char)tolower((unsigned char)name[i]);
    key[len] = '\0';
    des_vocab_entry probe = {key, 0};
    return bsearch(&probe, vocab->lists[kind].entries, vocab->lists[kind].count,
                   sizeof probe, cmp_entry);
}

const char *des_vocab_closest(const qg_des_vocab *vocab, int kind, const char *name,
                              size_t len, size_t *best_len)
{
    qg_suggest s;
    qg_suggest_init(&s, name, len);
    const des_vocab_list *list = &vocab->lists[kind];
    for (size_t i = 0; i < list->count; i++)
        if (!list->entries[i].refused)
            qg_suggest_offer(&s, list->entries[i].name, strlen(list->entries[i].name));
    *best_len = s.best_len;
    return qg_suggest_best(&s);
}
