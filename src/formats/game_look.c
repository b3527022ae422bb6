/* A thing's look (its glyph and colour) in its game's tables, for the
 * renderers: the entry of its index, else of its name, a Crawl spec read
 * for its base name as the translator reads it (translate.c). */
#include "formats/game_tables.h"

#include <stdlib.h>
#include <string.h>

/* The entry of an index, else of a name (a Crawl spec's base name, then
 * without its first words: "orc zombie", a zombie). */
static const game_entry *entry_of(const qg_game *game, int kind, int32_t index,
                                  const char *name)
{
    const game_entry *e = index >= 0 ? game_by_index(game, kind, index) : NULL;
    char *key = !e && name ? game_spec_key(name) : NULL;
    for (const char *at = key; !e && at;) {
        e = game_by_key(game, kind, at);
        at = strchr(at, ' ');
        at = at ? at + 1 : NULL;
    }
    free(key);
    return e;
}

int qg_game_look(const qg_game *game, qg_vocab_kind kind, int32_t index, const char *name,
                 const char **glyph, const char **colour)
{
    if (!game)
        return 0;
    const game_entry *e = entry_of(game, game_kind_of(kind), index, name);
    if (!e || !e->glyph[0] || e->glyph[0] == ' ')
        return 0;
    if (glyph)
        *glyph = e->glyph;
    if (colour)
        *colour = e->colour;
    return 1;
}
