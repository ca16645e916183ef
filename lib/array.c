/* SPDX-License-Identifier: Apache-2.0 */
/* array.c - growth of the typed arrays of array.h. */
#include "array.h"

bool vxp_array__reserve(vxp_context *ctx, void **items, size_t *cap, size_t len, size_t extra,
                        size_t elem_size) {
  size_t need;
  if (__builtin_add_overflow(len, extra, &need)) return false;
  if (need <= *cap) return true;
  /* The first growth reserves 8 small elements, but only what is asked for of large ones
   * (more than 32 bytes: a function's events, 72 bytes each): a model keeps many such
   * arrays of one to three elements, and 8 each was the larger part of a dense program's
   * model (5.6 of 13.7 MB for 10^4 functions of one tile). Doubling from there keeps the
   * growth amortised. */
  size_t new_cap = *cap ? *cap : elem_size > 32 ? need : 8;
  while (new_cap < need) {
    if (__builtin_mul_overflow(new_cap, (size_t)2, &new_cap)) return false;
  }
  size_t bytes;
  if (__builtin_mul_overflow(new_cap, elem_size, &bytes)) return false;
  void *grown = vxp_ctx__realloc(ctx, *items, bytes);
  if (!grown) return false;
  *items = grown;
  *cap = new_cap;
  return true;
}
