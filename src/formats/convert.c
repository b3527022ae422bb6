/* The converter's dispatch: which reader or writer a format means. */
#include "formats/formats.h"

#include <stdlib.h>
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

/* The first error of what a reader said, for the writer's own error. */
static const qg_diag *first_error(const qg_diags *d)
{
    for (size_t i = 0; i < qg_diags_count(d); i++)
        if (qg_diags_get(d, i)->severity == QG_ERROR)
            return qg_diags_get(d, i);
    return NULL;
}

static void read_back_fd(const char *text, size_t len, const qg_read_back *back, qg_diags *d)
{
    qg_fd_options opt;
    qg_fd_options_init(&opt);
    opt.dialect = back->dialect;
    opt.vocab = back->vocab;
    opt.no_includes = 1;
    qg_mapdef *def = NULL;
    qg_level *level = NULL;
    if (qg_fd_parse("written", text, len, &opt, &def, d) == QG_OK && back->resolve)
        qg_fd_resolve(def, &opt, NULL, &level, d);
    qg_level_free(level);
    qg_mapdef_free(def);
}

static void read_back_des(const char *text, size_t len, const qg_read_back *back, qg_diags *d)
{
    qg_des_file *file = NULL;
    qg_des_options opt = {0};
    if (qg_des_parse("written", text, len, &opt, NULL, &file, d) == QG_OK && back->des_vocab)
        qg_des_check_names(back->des_vocab, file, text, len, 0, d);
    qg_level *level = NULL;
    if (file && qg_des_map_count(file))
        qg_des_read_level("written", text, len, NULL, &level, d);
    qg_level_free(level);
    qg_des_file_free(file);
}

qg_status qg_read_written(qg_format format, const char *text, size_t len, const qg_read_back *back,
                       qg_diags *diags)
{
    qg_diags *d = qg_diags_new();
    if (!d)
        return QG_ERR_NOMEM;
    qg_level *level = NULL;
    if (format == QG_FORMAT_FD)
        read_back_fd(text, len, back, d);
    else if (format == QG_FORMAT_DES)
        read_back_des(text, len, back, d);
    else
        qg_level_read("written", text, len, format, &level, d);
    qg_level_free(level);
    const qg_diag *e = first_error(d);
    if (e)
        qg_diags_add(diags, QG_ERROR, "", 0, 0, NULL, 0,
                     "the %s writer wrote what %s rejects (line %d: %s): nothing is written",
                     qg_format_name(format), back->des_vocab || back->vocab ? "the game"
                                                                            : "its own reader",
                     e->line, e->message);
    qg_diags_free(d);
    return e ? QG_ERR_INVALID : QG_OK;
}

static qg_status write_level(const qg_level *level, qg_format format,
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

/* The dialect the F:/D: writer writes a level in (see qg_fd_write_level). */
static qg_fd_dialect written_dialect(const qg_level *level, const qg_write_options *options)
{
    if (options && options->fd_dialect != QG_FD_AUTO)
        return options->fd_dialect;
    const char *own = qg_level_get_property(level, "dialect");
    int from = own ? qg_fd_dialect_from_name(own) : -1;
    return from > QG_FD_AUTO ? (qg_fd_dialect)from : QG_FD_ZANGBAND;
}

qg_status qg_level_write(const qg_level *level, qg_format format,
                         const qg_write_options *options, char **out, size_t *len,
                         qg_diags *diags)
{
    qg_status status = write_level(level, format, options, out, len, diags);
    if (status != QG_OK)
        return status;
    /* a writer never hands out what its own reader rejects */
    qg_read_back back = {written_dialect(level, options), options ? options->vocab : NULL,
                         NULL, 1};
    status = qg_read_written(format, *out, *len, &back, diags);
    if (status != QG_OK) {
        free(*out);
        *out = NULL;
        *len = 0;
    }
    return status;
}
