#include "core/diag.h"
#include "core/buf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct qg_diags {
    qg_diag *items;
    size_t count;
    size_t cap;
    size_t by_severity[3];
    qg_diag_sink sink;
    void *sink_user;
    qg_severity min;
    size_t max_errors;      /* 0: no limit */
    size_t max_others;      /* warnings and notes; 0: no limit */
    size_t passed_errors;   /* kept or passed on */
    size_t passed_others;
    size_t dropped;
    size_t dropped_others;  /* warnings and notes past max_others */
    int over_limit;
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
    diags->passed_errors = diags->passed_others = 0;
    diags->dropped = diags->dropped_others = 0;
    diags->over_limit = 0;
}

void qg_diags_set_sink(qg_diags *diags, qg_diag_sink fn, void *user)
{
    diags->sink = fn;
    diags->sink_user = user;
}

void qg_diags_set_filter(qg_diags *diags, qg_severity min, size_t max_errors)
{
    diags->min = min;
    diags->max_errors = max_errors;
}

void qg_diags_set_other_limit(qg_diags *diags, size_t max_others)
{
    diags->max_others = max_others;
}

size_t qg_diags_dropped_others(const qg_diags *diags)
{
    return diags ? diags->dropped_others : 0;
}

size_t qg_diags_dropped(const qg_diags *diags)
{
    return diags ? diags->dropped : 0;
}

int qg_diags_over_limit(const qg_diags *diags)
{
    return diags && diags->over_limit;
}

/* Counts the diagnostic; 1 when the filter lets it through. */
static int admit(qg_diags *diags, qg_severity severity)
{
    diags->by_severity[severity]++;
    int limited = severity == QG_ERROR && diags->max_errors &&
                  diags->passed_errors >= diags->max_errors;
    int other_limited = severity != QG_ERROR && severity >= diags->min && diags->max_others &&
                        diags->passed_others >= diags->max_others;
    if (severity < diags->min || limited || other_limited ||
        (diags->max_errors && diags->over_limit)) {
        diags->over_limit |= limited;
        diags->dropped_others += other_limited;
        diags->dropped++;
        return 0;
    }
    diags->passed_errors += severity == QG_ERROR;
    diags->passed_others += severity != QG_ERROR;
    return 1;
}

/* The part of a line a diagnostic keeps: all of it, or QG_DIAG_SOURCE_MAX
 * bytes around the column. */
typedef struct excerpt {
    const char *text;
    size_t len, from;
} excerpt;

static excerpt excerpt_of(const char *line, size_t len, int col)
{
    excerpt e = {line, line ? len : 0, 0};
    if (!line || len <= QG_DIAG_SOURCE_MAX)
        return e;
    size_t at = col > 0 ? (size_t)col - 1 : 0;
    e.from = at > QG_DIAG_SOURCE_MAX / 2 ? at - QG_DIAG_SOURCE_MAX / 2 : 0;
    if (e.from > len - QG_DIAG_SOURCE_MAX)
        e.from = len - QG_DIAG_SOURCE_MAX;
    e.text = line + e.from;
    e.len = QG_DIAG_SOURCE_MAX;
    return e;
}

static void pass_on(qg_diags *diags, qg_severity severity, const char *file, int line,
                    int col, excerpt source, char *message)
{
    qg_diag d = {severity, file ? file : "", line, col, message, source.text,
                 source.len, source.from};
    diags->sink(diags->sink_user, &d);
    free(message);
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
    if (!diags || severity < QG_NOTE || severity > QG_ERROR || !admit(diags, severity))
        return;
    qg_buf message;
    qg_buf_init(&message);
    qg_buf_vprintf(&message, fmt, ap);
    if (message.len > QG_DIAG_MESSAGE_MAX && !message.failed) {
        size_t whole = message.len;
        message.len = QG_DIAG_MESSAGE_MAX;
        qg_buf_printf(&message, " [... %zu more bytes]", whole - QG_DIAG_MESSAGE_MAX);
    }
    excerpt source = excerpt_of(source_line, len, col);
    if (diags->sink) {
        char *text = printable(&message);
        if (text)
            pass_on(diags, severity, file, line, col, source, text);
        return;
    }
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
    d->source_line = source.text ? qg_strndup(source.text, source.len) : NULL;
    d->source_len = source.len;
    d->source_from = source.from;
    if (!d->file || !d->message || (source_line && !d->source_line)) {
        free((char *)d->file);
        free((char *)d->message);
        free((char *)d->source_line);
        diags->count--;
        return;
    }
}

qg_diags *qg_diags_new_like(const qg_diags *model)
{
    qg_diags *diags = qg_diags_new();
    if (diags && model)
        qg_diags_set_filter(diags, model->min, model->max_errors);
    return diags;
}

void qg_diags_take(qg_diags *to, const qg_diags *from)
{
    if (!to || !from)
        return;
    size_t kept[3] = {0, 0, 0};
    for (size_t i = 0; i < from->count; i++) {
        const qg_diag *d = &from->items[i];
        kept[d->severity]++;
        qg_diags_add(to, d->severity, d->file, d->line, d->col, d->source_line,
                     d->source_len, "%s", d->message);
    }
    for (int s = QG_NOTE; s <= QG_ERROR; s++) {
        size_t dropped = from->by_severity[s] - kept[s];
        to->by_severity[s] += dropped;
        to->dropped += dropped;
    }
    to->over_limit |= from->over_limit && to->max_errors;
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
 * written as \xNN, and the caret is moved by the same amount. A line kept
 * from its middle starts with "...". */
static void put_source(qg_buf *out, const char *line, size_t len, size_t from, int col)
{
    size_t caret = 0;
    size_t shown = 0;
    qg_buf_puts(out, "  ");
    if (from) {
        qg_buf_puts(out, "...");
        caret = 3;
        col = col > 0 && (size_t)col > from ? col - (int)from : 0;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        size_t width = 1;
        if (c == '\t') {
            qg_buf_putc(out, ' ');
        } else if (c < 0x20 || c >= 0x7f) {
            qg_buf_printf(out, "\\x%02X", c);
            width = 4;
        } else {
            qg_buf_putc(out, c);
        }
        if ((int)i < col - 1)
            caret += width;
        shown += width;
        if (shown > 512) {
            qg_buf_puts(out, "...");
            break;
        }
    }
    qg_buf_putc(out, '\n');
    if (col <= 0)
        return;
    qg_buf_puts(out, "  ");
    for (size_t i = 0; i < caret && i < 512; i++)
        qg_buf_putc(out, ' ');
    qg_buf_puts(out, "^\n");
}

void qg_diag_print(const qg_diag *d, FILE *out)
{
    char number[QG_DECIMAL_SIZE];
    qg_buf b;
    qg_buf_init(&b);
    if (d->file && d->file[0]) {
        qg_buf_puts(&b, d->file);
        if (d->line > 0) {
            qg_buf_putc(&b, ':');
            qg_buf_puts(&b, qg_decimal(number, d->line));
        }
        if (d->line > 0 && d->col > 0) {
            qg_buf_putc(&b, ':');
            qg_buf_puts(&b, qg_decimal(number, d->col));
        }
        qg_buf_puts(&b, ": ");
    }
    qg_buf_puts(&b, severity_word(d->severity));
    qg_buf_puts(&b, ": ");
    qg_buf_puts(&b, d->message);
    qg_buf_putc(&b, '\n');
    if (d->source_line)
        put_source(&b, d->source_line, d->source_len, d->source_from, d->col);
    if (!b.failed)
        fwrite(b.data, 1, b.len, out);
    qg_buf_free(&b);
}

void qg_diags_print(const qg_diags *diags, FILE *out)
{
    for (size_t i = 0; i < qg_diags_count(diags); i++)
        qg_diag_print(&diags->items[i], out);
}
