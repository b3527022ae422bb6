/* F:/D: definitions as .des: the ?: conditions in Lua. */
#ifndef QG_FORMATS_DES_FD_H
#define QG_FORMATS_DES_FD_H

#include "formats/formats.h"

/* The prelude {{ }} block that defines qg_fd_var and qg_fd_call. */
void des_fd_prelude(qg_buf *out, qg_fd_dialect dialect);
/* A Lua condition, true when the expression is not "0" as the games read it. */
void des_fd_condition(qg_buf *out, const char *text, size_t len, qg_fd_dialect dialect);

#endif
