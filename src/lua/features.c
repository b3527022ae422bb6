/* Feature-name tests, by the words Crawl's feature names carry: what the
 * level's layouts, the walkable flood and feat.* ask of a feature. */
#include "lua/level.h"

#include <string.h>

static int contains_any(const char *name, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (strstr(name, words[i]))
            return 1;
    return 0;
}

int lrt_feature_is_wall(const char *name)
{
    return strstr(name, "wall") != NULL;
}

int lrt_feature_is_solid(const char *name)
{
    static const char *const solid[] = {"wall", "statue", "idol", "tree", "mangrove",
                                        "grate", "closed_door", "runed", "sealed",
                                        "open_sea", "endless", "malign_gateway", NULL};
    return contains_any(name, solid);
}
