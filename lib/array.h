/* SPDX-License-Identifier: Apache-2.0 */
/* array.h - a typed growable array whose memory comes from a context's allocator. */
#ifndef VXP_ARRAY_H
#define VXP_ARRAY_H

#include "internal.h"

/* Array(T) is a struct with `items`, `len` and `cap`; a zeroed one is empty and valid.
 * Invariant: len <= cap, and items holds cap elements (NULL when cap == 0). */
#define Array(T)                                                                                   \
  struct {                                                                                         \
    T *items;                                                                                      \
    size_t len;                                                                                    \
    size_t cap;                                                                                    \
  }

/* Make room for `extra` more elements; false on allocation failure or size overflow. */
bool vxp_array__reserve(vxp_context *ctx, void **items, size_t *cap, size_t len, size_t extra,
                        size_t elem_size);

/* vxp_array__reserve with the common case, room enough already, decided inline: a splice and
 * an incremental analysis append to reserved tables some hundred thousand times per edit. */
static inline bool vxp_array__room(vxp_context *ctx, void **items, size_t *cap, size_t len,
                                   size_t extra, size_t elem_size) {
  if (extra <= *cap - len) return true; /* len <= cap: no wrap */
  return vxp_array__reserve(ctx, items, cap, len, extra, elem_size);
}

#define array_reserve(ctx, a, extra)                                                               \
  vxp_array__room((ctx), (void **)&(a)->items, &(a)->cap, (a)->len, (extra), sizeof(*(a)->items))

/* Append one element (an expression of the element type); false on allocation failure. */
#define array_push(ctx, a, value)                                                                  \
  (array_reserve((ctx), (a), 1) ? ((a)->items[(a)->len++] = (value), true) : false)

#define array_free(ctx, a)                                                                         \
  do {                                                                                             \
    vxp_ctx__free((ctx), (a)->items);                                                              \
    (a)->items = NULL;                                                                             \
    (a)->len = (a)->cap = 0;                                                                       \
  } while (0)

#define array_last(a) (&(a)->items[(a)->len - 1])

/* The array's invariant, as an assertion (VXP__ASSERT: the assertion builds only): len <= cap,
 * and storage exactly when there is capacity. */
#define VXP__CHECK_ARRAY(a)                                                                        \
  VXP__ASSERT((a)->len <= (a)->cap && ((a)->cap == 0) == ((a)->items == NULL))

#endif /* VXP_ARRAY_H */
