/* Hengband 3's definition lists, read as the game reads them
 * (main/info-initializer.cpp init_json: the root object's list; each
 * entry's "id", "name" {"ja", "en"} and "symbol" {"character", "color"}:
 * info-reader/race-reader.cpp parse_monraces_info, baseitem-reader.cpp,
 * artifact-reader.cpp). */
#include "core/definitions.h"
#include "core/jsonc.h"

#include <string.h>

/* term/gameterm.cpp color_list, as the colour letters of Angband's G:
 * lines ("dwsorgbuDWvyRGBU"). */
static char colour_letter(const char *name)
{
    static const struct {
        const char *name;
        char letter;
    } colours[] = {
        {"Black", 'd'},      {"White", 'w'},       {"Gray", 's'},        {"Orange", 'o'},
        {"Red", 'r'},        {"Green", 'g'},       {"Blue", 'b'},        {"Brown", 'u'},
        {"Dark Gray", 'D'},  {"Light Gray", 'W'},  {"Violet", 'v'},      {"Yellow", 'y'},
        {"Light Red", 'R'},  {"Light Green", 'G'}, {"Light Blue", 'B'},  {"Light Brown", 'U'},
    };
    for (size_t i = 0; name && i < sizeof colours / sizeof *colours; i++)
        if (strcmp(name, colours[i].name) == 0)
            return colours[i].letter;
    return 0;
}

/* The list the game reads: the root's first member that is an array
 * ("monsters", "baseitems", "artifacts"). */
static json_t *entry_list(json_t *root)
{
    const char *key;
    json_t *value;
    json_object_foreach(root, key, value)
        if (json_is_array(value))
            return value;
    return NULL;
}

static void read_symbol(json_t *symbol, qg_definition *def)
{
    const char *character = json_string_value(json_object_get(symbol, "character"));
    def->colour = colour_letter(json_string_value(json_object_get(symbol, "color")));
    def->glyph = def->colour && character && character[0] ? character[0] : 0;
    if (!def->glyph)
        def->colour = 0;
}

qg_status qg_definitions_read(const char *path, const char *data, size_t len,
                              qg_status (*fn)(void *user, const qg_definition *def),
                              void *user, qg_diags *diags)
{
    json_t *root = NULL;
    qg_status st = qg_jsonc_parse(path, data, len, &root, diags);
    if (st != QG_OK)
        return st;
    json_t *list = json_is_object(root) ? entry_list(root) : NULL;
    if (!list) {
        qg_diags_add(diags, QG_ERROR, path, 1, 1, NULL, 0,
                     "no list of definitions: the root object holds no array");
        json_decref(root);
        return QG_ERR_PARSE;
    }
    size_t i;
    json_t *item;
    json_array_foreach(list, i, item) {
        json_t *id = json_object_get(item, "id");
        if (!json_is_integer(id)) {
            qg_diags_add(diags, QG_ERROR, path, 0, 0, NULL, 0,
                         "entry %zu of the list has no integer \"id\" (the game refuses it)", i + 1);
            st = QG_ERR_PARSE;
            continue;
        }
        json_t *name = json_object_get(item, "name");
        qg_definition def = {(long)json_integer_value(id),
                             json_string_value(json_object_get(name, "ja")),
                             json_string_value(json_object_get(name, "en")), 0, 0};
        read_symbol(json_object_get(item, "symbol"), &def);
        qg_status added = fn(user, &def);
        if (added != QG_OK) {
            st = added;
            break;
        }
    }
    json_decref(root);
    return st;
}
