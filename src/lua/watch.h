/* The CPU time of each operation of a runtime (a compile or resolve of a
 * map), watched from a thread of its own: the last line of the budget.
 * Charges are counted where work is done; what the interpreter does
 * inside one instruction (comparing two long strings, copying a long
 * list of arguments) no count sees, and this catches it. The thread only
 * reads clocks and sets a flag that the runtime polls where it charges:
 * it never touches the Lua state. */
#ifndef QG_LUA_WATCH_H
#define QG_LUA_WATCH_H

typedef struct lrt_watch lrt_watch;

/* NULL when the thread cannot be started (or no memory). */
lrt_watch *lrt_watch_new(void);
void lrt_watch_free(lrt_watch *watch);

/* A new operation on the calling thread, allowed limit_ms milliseconds
 * of that thread's CPU time while it runs Lua (0: no limit). */
void lrt_watch_operation(lrt_watch *watch, unsigned long limit_ms);
/* Lua starts (entered from C) and stops running; calls nest. */
void lrt_watch_enter(lrt_watch *watch);
void lrt_watch_leave(lrt_watch *watch);
/* Whether the current operation passed its limit. */
int lrt_watch_expired(const lrt_watch *watch);

#endif
