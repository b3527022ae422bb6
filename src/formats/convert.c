/* The converter's dispatch: which reader or writer a format means. */
#include "formats/formats.h"

#include <string.h>

qg_format qg_format_detect(const char *path, const void *data, size_t len)
{
    const unsigned char *b = data;
    size_t i = 0;
    if (len >= 2 && b[0] == 0x1F && b[1] == 0x8B)
        return QG_FORMAT_XP;
    if (len >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF)
        i = 3;
    while (i < len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n'))
        i++;
    if (i < len && b[i] == '<')
        return QG_FORMAT_TMX;
    return path ? qg_format_from_path(path) : QG_FORMAT_UNKNOWN;
}

qg_status qg_level_read(const char *path, const void *data, size_t len, qg_format format,
                        qg_level **out, qg_diags *diags)
{
    *out = NULL;
    switch (format) {
    case QG_FORMAT_TMX:
        return qg_tmx_read(path, data, len, out, diags);
    case QG_FORMAT_XP:
        return qg_xp_read(path, data, len, out, diags);
    default:
        qg_diags_add(diags, QG_ERROR, path ? path : "", 0, 0, NULL, 0,
                     "%s files are read by their own front end, not as levels",
                     qg_format_name(format));
        return QG_ERR_INVALID;
    }
}

qg_status qg_level_write(const qg_level *level, qg_format format,
                         const qg_write_options *options, char **out, size_t *len,
                         qg_diags *diags)
{
    switch (format) {
    case QG_FORMAT_FD:
        return qg_fd_write_level(level, options, out, len, diags);
    case QG_FORMAT_TMX:
        return qg_tmx_write(level, options, out, len, diags);
    case QG_FORMAT_XP:
        return qg_xp_write(level, options, (unsigned char **)out, len, diags);
    case QG_FORMAT_DES:
        return qg_des_write_level(level, options, out, len, diags);
    default:
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0, "no writer for %s files",
                     qg_format_name(format));
        return QG_ERR_INVALID;
    }
}
