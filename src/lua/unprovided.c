/* A function a map calls that questgrid does not provide: what the error
 * adds when no game library was given, and marking the run as failed for
 * want of it rather than by the map's fault. */
#include "lua/rt.h"

#include <string.h>

const char *lrt_no_library_hint(const qg_runtime *rt)
{
    return rt->lua_path_count ? ""
                              : "; the game's Lua library may provide it: give --lua-path DIR "
                                "(Crawl's dat/dlua)";
}

/* What Lua's own libraries define and the sandbox withholds: a map that
 * reaches for one is at fault whatever library is given. */
static int withheld(const char *name, size_t len)
{
    static const char *const names[] = {"os", "io", "debug", "package", "require", "dofile",
                                        "loadfile", "load", "collectgarbage"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
            return 1;
    return 0;
}

void lrt_mark_unprovided(qg_runtime *rt, int status, const char *msg)
{
    static const char *const forms[] = {"a nil value (global '", "call a nil value (field '",
                                        "call a nil value (method '"};
    for (size_t i = 0; !rt->lua_path_count && status == LUA_ERRRUN && msg && i < 3; i++) {
        const char *name = strstr(msg, forms[i]);
        if (!name)
            continue;
        name += strlen(forms[i]);
        if (!withheld(name, strcspn(name, "'")))
            rt->unprovided = 1;
        return;
    }
}
