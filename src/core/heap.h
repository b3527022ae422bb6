/* Binary heaps and a heapsort over an array in place, of items of any
 * size: a sort that mallocs nothing (glibc's qsort is a merge sort that
 * mallocs a copy of the array), for arrays that grow with a corpus. A heap
 * holds at its root the item that comes last in its order. */
#ifndef QG_CORE_HEAP_H
#define QG_CORE_HEAP_H

#include <stddef.h>

typedef int (*qg_order_fn)(const void *a, const void *b);

/* Moves item i of the heap items[0..n) down to its place. */
void qg_heap_sift_down(void *items, size_t size, size_t n, size_t i, qg_order_fn order);
/* Moves item i (just added, the heap being items[0..i)) up to its place. */
void qg_heap_sift_up(void *items, size_t size, size_t i, qg_order_fn order);
/* Makes items[0..n) a heap. */
void qg_heap_make(void *items, size_t size, size_t n, qg_order_fn order);
/* Takes the heap items[0..n) apart into order. */
void qg_heap_sort(void *items, size_t size, size_t n, qg_order_fn order);
/* Sorts items[0..n) in place (not stable: for a total order). */
void qg_sort_in_place(void *items, size_t size, size_t n, qg_order_fn order);

#endif
