/* What a file is, told one way for the compiler and every command. */
#include "cache/format.h"
#include "questgrid/convert.h"

#include <string.h>

/* Text never holds NUL bytes, nor many control bytes: a file of a text
 * format that does is not one (a binary file misnamed). A compile reads
 * this much of every file it walks, so the count takes no branch. */
static int looks_binary(const unsigned char *b, size_t len)
{
    size_t n = len < 8192 ? len : 8192, control = 0;
    if (memchr(b, 0, n))
        return 1;
    for (size_t i = 0; i < n; i++)
        control += (b[i] < 0x20) & (b[i] != '\t') & (b[i] != '\n') & (b[i] != '\r') &
                   (b[i] != '\f');
    return control * 10 > n;
}

qg_file_kind qg_file_kind_of(const char *path, const void *data, size_t len,
                             qg_fd_dialect dialect, size_t *entries)
{
    if (entries)
        *entries = 0;
    if (len >= QGC_MAGIC_LEN && memcmp(data, QGC_MAGIC, QGC_MAGIC_LEN) == 0)
        return QG_FILE_CACHE;
    qg_format format = qg_format_detect(path, data, len);
    if ((format == QG_FORMAT_DES || format == QG_FORMAT_FD) && looks_binary(data, len))
        return QG_FILE_OTHER;
    switch (format) {
    case QG_FORMAT_XP:
        return QG_FILE_XP;
    case QG_FORMAT_TMX:
        return QG_FILE_TMX;
    case QG_FORMAT_DES:
        return QG_FILE_DES;
    case QG_FORMAT_FD:
        break;
    default:
        return qg_fd_is_game_data(dialect, path) ? QG_FILE_GAME_DATA : QG_FILE_OTHER;
    }
    switch (qg_fd_sniff(path, data, len, dialect, entries)) {
    case QG_FD_CONTENT_LEVEL: return QG_FILE_LEVEL;
    case QG_FD_CONTENT_PART: return QG_FILE_PART;
    case QG_FD_CONTENT_HUB: return QG_FILE_HUB;
    case QG_FD_CONTENT_VOCABULARY: return QG_FILE_VOCABULARY;
    case QG_FD_CONTENT_DATA: return QG_FILE_GAME_DATA;
    case QG_FD_CONTENT_UNREAD: return QG_FILE_UNREAD;
    case QG_FD_CONTENT_NONE: break;
    }
    return QG_FILE_OTHER;
}

const char *qg_file_kind_name(qg_file_kind kind)
{
    switch (kind) {
    case QG_FILE_DES: return "a .des file";
    case QG_FILE_LEVEL: return "an F:/D: level";
    case QG_FILE_PART: return "F:/D: lines that levels include";
    case QG_FILE_HUB: return "a quest or town hub";
    case QG_FILE_VOCABULARY: return "a lib/edit vocabulary";
    case QG_FILE_GAME_DATA: return "game data, not a level";
    case QG_FILE_CACHE: return "a compiled cache";
    case QG_FILE_TMX: return "a Tiled map";
    case QG_FILE_XP: return "a REXPaint image";
    case QG_FILE_UNREAD: return "a file its game never reads";
    case QG_FILE_OTHER: break;
    }
    return "not a level";
}
