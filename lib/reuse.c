/* SPDX-License-Identifier: Apache-2.0 */
/* reuse.c - what an analysis takes over from an earlier one (see reuse.h).
 *
 * The two texts are compared byte for byte from both ends: what lies outside the changed
 * middle is the same text, at the same offset before it and moved by the edit's length
 * after it. A top-level item entirely outside the middle, of the same kind and at the
 * matching offsets in both trees, has the same text; its results depend on that text and
 * on the program's other items only through what the unchanged items and the function
 * signatures say, so they are the earlier ones, moved. The items the middle touches are
 * recomputed, and only when they are functions or `const` items; a function whose signature
 * changed, and a const, are marked (changed_sig) for the splice (lower.c), which takes them
 * over only when what the other items read of them is unchanged (a callee's signature is what
 * its callers' lowering and visibility facts read) or lowers those readers again; anything
 * else is no reuse at all. */
#include <string.h>

#include "context.h"
#include "reuse.h"
#include "source.h"

void vxp_reuse__diff(const vxp_source *old_src, const vxp_source *new_src, uint32_t *prefix,
                     uint32_t *old_end, uint32_t *new_end) {
  const char *a = old_src->text, *b = new_src->text;
  size_t la = old_src->len, lb = new_src->len, min = la < lb ? la : lb;
  size_t p = 0;
  while (p + 64 <= min && memcmp(a + p, b + p, 64) == 0)
    p += 64;
  while (p < min && a[p] == b[p])
    p++;
  size_t s = 0;
  while (s + 64 <= min - p && memcmp(a + la - s - 64, b + lb - s - 64, 64) == 0)
    s += 64;
  while (s < min - p && a[la - s - 1] == b[lb - s - 1])
    s++;
  *prefix = (uint32_t)p;
  *old_end = (uint32_t)(la - s);
  *new_end = (uint32_t)(lb - s);
}

void vxp_reuse__free(vxp_context *ctx, vxp_reuse *R) {
  vxp_ctx__free(ctx, R->side);
  vxp_ctx__free(ctx, R->changed_sig);
  vxp_ctx__free(ctx, R->again);
  R->side = R->changed_sig = R->again = NULL;
}

bool vxp_reuse__mappable(const vxp_reuse *R, uint8_t side, const vxp_diagnostic *d, bool named) {
  uint32_t x;
  if (d->function && !named) return false; /* borrowed from the earlier analysis */
  if (d->has_range && d->source == R->old_src &&
      (!vxp_reuse__map(R, side, d->range.start_byte, &x) ||
       !vxp_reuse__map(R, side, d->range.end_byte, &x)))
    return false;
  for (size_t i = 0; i < d->notes.len; i++)
    if (!vxp_reuse__mappable(R, side, &d->notes.items[i], named)) return false;
  return true;
}

static bool mappable(const vxp_reuse *R, uint8_t side, const vxp_diagnostic *d) {
  return vxp_reuse__mappable(R, side, d, false);
}

void vxp_reuse__move_positions(const vxp_reuse *R, uint8_t side, vxp_diagnostic *d) {
  if (d->has_range && d->source == R->old_src) {
    uint32_t s = 0, e = 0;
    vxp_reuse__map(R, side, d->range.start_byte, &s);
    vxp_reuse__map(R, side, d->range.end_byte, &e);
    d->source = R->new_src;
    d->range = vxp_source__range(R->new_src, s, e);
  }
  for (size_t i = 0; i < d->notes.len; i++)
    vxp_reuse__move_positions(R, side, &d->notes.items[i]);
}

int vxp_reuse__copy_diags(const vxp_reuse *R, uint8_t side, const vxp_diagnostic *from,
                          size_t count, vxp_diag_list *diags) {
  for (size_t i = 0; i < count; i++)
    if (!mappable(R, side, &from[i])) return 0;
  for (size_t i = 0; i < count; i++) {
    if (!vxp_diag__copy(R->new_src->ctx, diags, &from[i])) return VXP_ENOMEM;
    vxp_reuse__move_positions(R, side, array_last(diags));
  }
  return 1;
}
