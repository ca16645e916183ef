/* SPDX-License-Identifier: Apache-2.0 */
/* array.c - growth of the typed arrays of array.h. */
#include "array.h"

bool vxp_array__reserve(vxp_context *ctx, void **items, size_t *cap, size_t len, size_t extra,
                        size_t elem_size) {
  size_t need;
  if (__builtin_add_overflow(len, extra, &need)) return false;
  if (need <= *cap) return true;
  size_t new_cap = *cap ? *cap : 8;
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
