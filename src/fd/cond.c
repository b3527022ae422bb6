/* Parse-time checks of ?: expressions: the same evaluator, run without
 * variables, reporting what the games would silently read as true. */
#include "fd/fd_internal.h"

void fd_check_expr(fd_reader *r, const fd_line *at)
{
    char value[64];
    fd_eval_sink sink = {at, 1, 3};
    fd_eval(at->text + 2, at->len - 2, r->dialect, NULL, value, sizeof value, &sink);
}
