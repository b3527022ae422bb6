#include "core/heap.h"

#include <string.h>

/* A chunk at a time: the byte loop was a fifth of sorting a run of
 * records. */
static void swap_items(unsigned char *a, unsigned char *b, size_t size)
{
    unsigned char held[64];
    while (size) {
        size_t n = size < sizeof held ? size : sizeof held;
        memcpy(held, a, n);
        memcpy(a, b, n);
        memcpy(b, held, n);
        a += n;
        b += n;
        size -= n;
    }
}

void qg_heap_sift_down(void *items, size_t size, size_t n, size_t i, qg_order_fn order)
{
    unsigned char *at = items;
    for (;;) {
        size_t last = i, l = 2 * i + 1, r = l + 1;
        if (l < n && order(at + l * size, at + last * size) > 0)
            last = l;
        if (r < n && order(at + r * size, at + last * size) > 0)
            last = r;
        if (last == i)
            return;
        swap_items(at + i * size, at + last * size, size);
        i = last;
    }
}

void qg_heap_sift_up(void *items, size_t size, size_t i, qg_order_fn order)
{
    unsigned char *at = items;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (order(at + up * size, at + i * size) >= 0)
            return;
        swap_items(at + up * size, at + i * size, size);
        i = up;
    }
}

void qg_heap_make(void *items, size_t size, size_t n, qg_order_fn order)
{
    for (size_t i = n / 2; i-- > 0;)
        qg_heap_sift_down(items, size, n, i, order);
}

void qg_heap_sort(void *items, size_t size, size_t n, qg_order_fn order)
{
    unsigned char *at = items;
    for (; n > 1; n--) {
        swap_items(at, at + (n - 1) * size, size);
        qg_heap_sift_down(items, size, n - 1, 0, order);
    }
}

void qg_sort_in_place(void *items, size_t size, size_t n, qg_order_fn order)
{
    qg_heap_make(items, size, n, order);
    qg_heap_sort(items, size, n, order);
}
