#include "questgrid/core.h"
#include "core/buf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct qg_diags {
    qg_diag *items;
    size_t count;
    size_t cap;
    size_t by_severity[3];
};

qg_diags *qg_diags_new(void)
{
    return calloc(1, sizeof(qg_diags));
}

static void free_items(qg_diags *diags)
{
    for (size_t i = 0; i < diags->count; i++) {
        free((char *)diags->items[i].file);
        free((char *)diags->items[i].message);
        free((char *)diags->items[i].source_line);
    }
}

void qg_diags_clear(qg_diags *diags)
{
    if (!diags)
        return;
    free_items(diags);
    diags->count = 0;
    memset(diags->by_severity, 0, sizeof diags->by_severity);
}

void qg_diags_free(qg_diags *diags)
{
    if (!diags)
        return;
    free_items(diags);
    free(diags->items);
    free(diags);
}

size_t qg_diags_count(const qg_diags *diags)
{
    return diags ? diags->count : 0;
}

size_t qg_diags_count_severity(const qg_diags *diags, qg_severity severity)
{
    if (!diags || severity < QG_NOTE || severity > QG_ERROR)
        return 0;
    return diags->by_severity[severity];
}

const qg_diag *qg_diags_get(const qg_diags *diags, size_t index)
{
    return diags && index < diags->count ? &diags->items[index] : NULL;
}

/* The message with its control bytes (a NUL or an escape sequence from a
 * hostile file, formatted by %c) written as \xNN; newlines and tabs stay
 * (a Lua traceback has them). NULL when out of memory. Frees message. */
static int is_control(unsigned char c)
{
    return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
}

static char *printable(qg_buf *message)
{
    size_t controls = 0;
    for (size_t i = 0; i < message->len; i++)
        controls += is_control((unsigned char)message->data[i]);
    if (!controls || message->failed)
        return qg_buf_take(message);
    qg_buf out;
    qg_buf_init(&out);
    for (size_t i = 0; i < message->len; i++) {
        unsigned char c = (unsigned char)message->data[i];
        if (is_control(c))
            qg_buf_printf(&out, "\\x%02X", c);
        else
            qg_buf_putc(&out, c);
    }
    qg_buf_free(message);
    return qg_buf_take(&out);
}

void qg_diags_add(qg_diags *diags, qg_severity severity, const char *file,
                  int line, int col, const char *source_line, size_t len,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    qg_diags_vadd(diags, severity, file, line, col, source_line, len, fmt, ap);
    va_end(ap);
}

void qg_diags_vadd(qg_diags *diags, qg_severity severity, const char *file,
                   int line, int col, const char *source_line, size_t len,
                   const char *fmt, va_list ap)
{
    if (!diags)
        return;
    qg_buf message;
    qg_buf_init(&message);
    qg_buf_vprintf(&message, fmt, ap);
    qg_diag *d = QG_PUSH(diags->items, diags->count, diags->cap);
    if (!d) {
        qg_buf_free(&message);
        return;
    }
    d->severity = severity;
    d->file = qg_strdup(file ? file : "");
    d->line = line;
    d->col = col;
    d->message = printable(&message);
    d->source_line = source_line ? qg_strndup(source_line, len) : NULL;
    d->source_len = source_line ? len : 0;
    if (!d->file || !d->message || (source_line && !d->source_line)) {
        free((char *)d->file);
        free((char *)d->message);
        free((char *)d->source_line);
        diags->count--;
        return;
    }
    diags->by_severity[severity]++;
}

static const char *severity_word(qg_severity severity)
{
    switch (severity) {
    case QG_ERROR: return "error";
    case QG_WARNING: return "warning";
    default: return "note";
    }
}

/* Shows a line byte-exactly but safely: a control or non-ASCII byte is
 * written as \xNN, and the caret is moved by the same amount. */
static void print_source(const char *line, size_t len, int col, FILE *out)
{
    size_t caret = 0;
    size_t shown = 0;
    fputs("  ", out);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        size_t width = 1;
        if (c == '\t') {
            fputc(' ', out);
        } else if (c < 0x20 || c >= 0x7f) {
            fprintf(out, "\\x%02X", c);
            width = 4;
        } else {
            fputc(c, out);
        }
        if ((int)i < col - 1)
            caret += width;
        shown += width;
        if (shown > 512) {
            fputs("...", out);
            break;
        }
    }
    fputc('\n', out);
    if (col <= 0)
        return;
    fputs("  ", out);
    for (size_t i = 0; i < caret && i < 512; i++)
        fputc(' ', out);
    fputs("^\n", out);
}

void qg_diag_print(const qg_diag *d, FILE *out)
{
    if (d->file && d->file[0]) {
        fputs(d->file, out);
        if (d->line > 0)
            fprintf(out, ":%d", d->line);
        if (d->line > 0 && d->col > 0)
            fprintf(out, ":%d", d->col);
        fputs(": ", out);
    }
    fprintf(out, "%s: %s\n", severity_word(d->severity), d->message);
    if (d->source_line)
        print_source(d->source_line, d->source_len, d->col, out);
}

void qg_diags_print(const qg_diags *diags, FILE *out)
{
    for (size_t i = 0; i < qg_diags_count(diags); i++)
        qg_diag_print(&diags->items[i], out);
}
