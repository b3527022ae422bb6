/* The games' tokenize(), over a byte span instead of a mutable string. */
#include "fd/fd_internal.h"

size_t fd_tokenize(const char *s, size_t len, int first_col, size_t num, fd_tok *out)
{
    size_t count = 0;
    size_t start = 0;
    while (count + 1 < num) {
        size_t t = start;
        while (t < len && s[t] != ':' && s[t] != '/') {
            /* The original steps over the byte after a backslash, even a
             * NUL at the end of the line; here the line's end stops it. */
            if (s[t] == '\\' && t + 1 < len)
                t++;
            t++;
        }
        if (t >= len)
            break;
        out[count].p = s + start;
        out[count].len = t - start;
        out[count].col = first_col + (int)start;
        count++;
        start = t + 1;
    }
    out[count].p = s + start;
    out[count].len = len - start;
    out[count].col = first_col + (int)start;
    return count + 1;
}
