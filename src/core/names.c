/* Names of the core enumerations. */
#include "questgrid/core.h"

#include <string.h>
#include <strings.h>

const char *qg_version(void)
{
    return QG_VERSION_STRING;
}

const char *qg_status_string(qg_status status)
{
    switch (status) {
    case QG_OK: return "success";
    case QG_ERR_PARSE: return "input has errors";
    case QG_ERR_NOMEM: return "out of memory";
    case QG_ERR_IO: return "input/output error";
    case QG_ERR_NOTFOUND: return "not found";
    case QG_ERR_INVALID: return "invalid argument";
    case QG_ERR_LIMIT: return "limit exceeded";
    case QG_ERR_LUA: return "Lua error";
    case QG_ERR_CORRUPT: return "corrupt data";
    }
    return "unknown status";
}

static const char *const format_names[] = {"unknown", "fd", "des", "tmx", "xp"};

const char *qg_format_name(qg_format format)
{
    if ((unsigned)format < sizeof format_names / sizeof *format_names)
        return format_names[format];
    return "unknown";
}

qg_format qg_format_from_name(const char *name)
{
    for (unsigned i = 1; i < sizeof format_names / sizeof *format_names; i++)
        if (strcmp(name, format_names[i]) == 0)
            return (qg_format)i;
    return QG_FORMAT_UNKNOWN;
}

qg_format qg_format_from_path(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return QG_FORMAT_UNKNOWN;
    dot++;
    if (strcasecmp(dot, "des") == 0)
        return QG_FORMAT_DES;
    if (strcasecmp(dot, "txt") == 0 || strcasecmp(dot, "map") == 0 ||
        strcasecmp(dot, "fd") == 0)
        return QG_FORMAT_FD;
    if (strcasecmp(dot, "tmx") == 0)
        return QG_FORMAT_TMX;
    if (strcasecmp(dot, "xp") == 0)
        return QG_FORMAT_XP;
    return QG_FORMAT_UNKNOWN;
}

const char *qg_map_kind_name(qg_map_kind kind)
{
    switch (kind) {
    case QG_KIND_QUEST: return "quest";
    case QG_KIND_TOWN: return "town";
    case QG_KIND_WILDERNESS: return "wilderness";
    case QG_KIND_VAULT: return "vault";
    case QG_KIND_MINIVAULT: return "minivault";
    case QG_KIND_LAYOUT: return "layout";
    case QG_KIND_OTHER: return "other";
    case QG_KIND_ROOM: return "room";
    case QG_KIND_SKIPPED: return "skipped";
    default: return "unknown";
    }
}

qg_map_kind qg_map_kind_from_name(const char *name)
{
    for (int k = QG_KIND_QUEST; name && k <= QG_KIND_SKIPPED; k++)
        if (strcmp(name, qg_map_kind_name((qg_map_kind)k)) == 0)
            return (qg_map_kind)k;
    return QG_KIND_UNKNOWN;
}
