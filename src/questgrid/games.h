/* What each game has and how one game's things become another's.
 *
 * A game's tables (lib/games/<game>/, made from the game's own files by
 * tools/games/gen) list its features, monsters and objects: the index an
 * F: line holds (Angband family) or the name a .des map writes (Crawl),
 * the tag, the class (wall, door, kobold, sword, ...), how the game draws
 * it and its depth. lib/games/classes.txt groups classes into families and
 * gives monster symbols their class; lib/games/exact.txt says which names
 * of different games mean the same.
 *
 * A translator takes things of one game to another: an entry the target
 * game has by the same name (or exact.txt's), else the nearest entry of
 * the same class (a monster or object of the closest relative depth), else
 * of the same family; what has none of its class is refused, unless the
 * translator is lossy (then a wall stands for what is in the way and a
 * floor for what is not, and a thing is left out). Every pick that is not
 * exact, and every refusal, is reported with both names. */
#ifndef QUESTGRID_GAMES_H
#define QUESTGRID_GAMES_H

#include <questgrid/core.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct qg_game qg_game;

/* Loads the tables of game (a dialect's name such as "poschengband", or
 * "crawl-0.28") from dir, a directory like lib/games (NULL: questgrid's
 * own, qg_data_find("games")). QG_ERR_NOTFOUND with an error naming the
 * games there when it has none of that name. */
qg_status qg_game_load(const char *dir, const char *game, qg_game **out, qg_diags *diags);
void qg_game_free(qg_game *game);
const char *qg_game_name(const qg_game *game);
/* 1 for a Crawl version (things known by name), 0 for the Angband family
 * (things known by index). */
int qg_game_is_crawl(const qg_game *game);

/* How the game draws a monster or object (QG_VOCAB_MONSTER or
 * QG_VOCAB_OBJECT) known by index (Angband) or by name (Crawl, the
 * base name of a spec: "orc warrior" of "orc warrior ; club"): 1 and its
 * character (UTF-8: Crawl draws some with characters beyond ASCII) and
 * colour (an Angband colour letter, or one of Crawl's sixteen colour
 * names), or 0 when the table has no such entry. */
int qg_game_look(const qg_game *game, qg_vocab_kind kind, int32_t index, const char *name,
                 const char **glyph, const char **colour);

/* The class of a feature, monster, object or artifact known by index or
 * by name (a Crawl spec, a room template's MON(name)), as a translator
 * takes it: "wall", "kobold", "sword", ...; NULL when it has none. */
const char *qg_game_class(const qg_game *game, qg_vocab_kind kind, int32_t index,
                          const char *name);

/* A vocabulary of the game's indices, tags, names and looks, for an
 * Angband-family game whose own edit directory is not at hand (free it
 * with qg_vocab_free). NULL when memory runs out. */
qg_vocab *qg_game_vocab(const qg_game *game);

typedef struct qg_translator qg_translator;

/* Things of from (whose indices the vocabulary from_vocab names, when
 * given: a variant's own edit directory may differ from the tables) into
 * to. lossy: see above. NULL when memory runs out. */
qg_translator *qg_translator_new(const qg_game *from, const qg_vocab *from_vocab,
                                 const qg_game *to, int lossy);
void qg_translator_free(qg_translator *translator);
const qg_game *qg_translator_target(const qg_translator *translator);
const qg_game *qg_translator_source(const qg_translator *translator);

/* The target's feature for a source feature known by index (-1: by name)
 * or name: 1 and *out_index (the target's index, -1 for a Crawl name) and
 * *out_name (the target's tag or name, owned by its game), else 0 (the
 * feature is refused, or a lossy translator has nothing for it). */
int qg_translate_feature(qg_translator *translator, int32_t index, const char *name,
                         int32_t *out_index, const char **out_name);
/* The target's thing for a source monster, object or artifact (slot
 * QG_SLOT_MONSTER, QG_SLOT_OBJECT or QG_SLOT_ARTIFACT); egos and traps,
 * random things and things of no kind come back as they are. 1 and *out
 * (a name owned by the target game), else 0 (refused, or left out). An
 * artifact comes back as an object of its class (for Crawl, with
 * "randart"). */
int qg_translate_thing(qg_translator *translator, qg_slot slot, const qg_thing *in,
                       qg_thing *out);

/* How many source things the translations so far refused (0 when lossy,
 * or when memory ran out: then 1 more). A writer with a translator writes
 * nothing once it is not 0. */
size_t qg_translator_refused(const qg_translator *translator);
/* Reports what the translations so far took: one warning per source
 * thing that became the nearest of its class (both names), and, when
 * anything was refused, one error listing all of it (a warning listing
 * what was left out, when lossy). Returns qg_translator_refused. */
size_t qg_translator_report(const qg_translator *translator, qg_diags *diags);

#ifdef __cplusplus
}
#endif
#endif
