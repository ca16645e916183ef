/* SPDX-License-Identifier: Apache-2.0 */
/* reuse.c - what an analysis takes over from an earlier one (see reuse.h).
 *
 * The two texts are compared byte for byte from both ends: what lies outside the changed
 * middle is the same text, at the same offset before it and moved by the edit's length
 * after it. A top-level item entirely outside the middle, of the same kind and at the
 * matching offsets in both trees, has the same text; its results depend on that text and
 * on the program's other items only through what the unchanged items and the function
 * signatures say, so they are the earlier ones, moved. The items the middle touches are
 * recomputed, and only when they are functions whose signatures did not change (a callee's
 * signature is what the checks of its callers read); anything else is no reuse at all. */
#include <string.h>

#include "context.h"
#include "program.h"
#include "reuse.h"
#include "source.h"
#include "symbols.h"

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

/* Whether the last line of the item [start, end) of `text` starts with `}`: a `// role:`
 * comment inside the item then cannot name the role of a placement below it (roles.h: a
 * line that closes a block ends the comment's paragraph), so the item's text decides
 * nothing outside it. */
static bool closes_on_its_own_line(const char *text, uint32_t start, uint32_t end) {
  if (end <= start) return false;
  uint32_t at = end - 1;
  while (at > start && text[at - 1] != '\n')
    at--;
  while (at < end && (text[at] == ' ' || text[at] == '\t'))
    at++;
  return at < end && text[at] == '}';
}

int vxp_reuse__plan(vxp_reuse *R, vxp_context *ctx, const vxp_program *old,
                    const vxp_program *prog) {
  memset(R, 0, sizeof(*R));
  if (!old || old->ctx != ctx) return 0;
  R->old_src = old->src;
  R->new_src = prog->src;
  if (R->old_src->len > UINT32_MAX || R->new_src->len > UINT32_MAX) return 0;
  if (prog->diff_src && prog->diff_src == old->src->id) { /* the reparse compared them */
    R->prefix = prog->diff[0];
    R->old_end = prog->diff[1];
    R->new_end = prog->diff[2];
  } else {
    vxp_reuse__diff(R->old_src, R->new_src, &R->prefix, &R->old_end, &R->new_end);
  }
  const vxp_top_item *old_items = old->items.items, *new_items = prog->items.items;
  uint32_t new_n = (uint32_t)prog->items.len;
  bool ok = old->items.len == prog->items.len && new_n > 0;
  int rc = VXP_OK;
  if (ok) {
    R->items = new_n;
    R->side = vxp_ctx__calloc(ctx, new_n, sizeof(uint8_t));
    if (!R->side) rc = VXP_ENOMEM;
  }
  uint32_t shift_from = R->new_end;
  for (uint32_t i = 0; ok && rc == VXP_OK && i < new_n; i++) {
    const vxp_top_item *o = &old_items[i], *n = &new_items[i];
    if (o->sym != n->sym) {
      ok = false;
    } else if (n->end <= R->prefix || n->start >= shift_from) {
      /* outside the middle: the same text, at the matching place */
      uint8_t side = n->end <= R->prefix ? VXP_REUSE_BEFORE : VXP_REUSE_AFTER;
      uint32_t s, e;
      ok = vxp_reuse__map(R, side, o->start, &s) && vxp_reuse__map(R, side, o->end, &e) &&
           s == n->start && e == n->end && o->has_error == n->has_error;
      R->side[i] = side;
    } else {
      /* touched: a function whose signature (everything before its body) is unchanged */
      uint32_t o_body = o->body, n_body = n->body;
      uint32_t sig = n_body - n->start;
      ok = n->sym == ctx->syms.function_item && o_body && n_body && o_body - o->start == sig &&
           memcmp(R->old_src->text + o->start, R->new_src->text + n->start, sig) == 0 &&
           closes_on_its_own_line(R->old_src->text, o->start, o->end) &&
           closes_on_its_own_line(R->new_src->text, n->start, n->end);
      R->side[i] = VXP_REUSE_FRESH;
    }
  }
  if (rc != VXP_OK || !ok) {
    vxp_reuse__free(ctx, R);
    return rc == VXP_OK ? 0 : rc;
  }
  return 1;
}

void vxp_reuse__free(vxp_context *ctx, vxp_reuse *R) {
  vxp_ctx__free(ctx, R->side);
  R->side = NULL;
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

/* Item `item`'s diagnostics among prev->diags[start ..] with per-item `ends`, copied. */
static int take(vxp_reuse *R, size_t start, const vxp_item_ends *ends, uint32_t item,
                vxp_diag_list *diags, bool count) {
  const vxp_analysis *prev = R->prev;
  uint8_t side = item < R->items ? R->side[item] : VXP_REUSE_FRESH;
  if (!prev || ends->len != R->items || side == VXP_REUSE_FRESH) {
    R->walked += count;
    return 0;
  }
  size_t from = item ? ends->items[item - 1] : start;
  size_t to = ends->items[item];
  for (size_t i = from; i < to; i++) {
    if (!mappable(R, side, &prev->diags.items[i])) {
      R->walked += count;
      return 0;
    }
  }
  for (size_t i = from; i < to; i++) {
    if (!vxp_diag__copy(R->new_src->ctx, diags, &prev->diags.items[i])) return VXP_ENOMEM;
    vxp_reuse__move_positions(R, side, array_last(diags));
  }
  R->taken += count;
  return 1;
}

int vxp_reuse__take_visibility(void *arg, uint32_t item, vxp_diag_list *diags) {
  vxp_reuse *R = arg;
  return R->prev ? take(R, R->prev->vis_start, &R->prev->vis_ends, item, diags, true) : 0;
}

int vxp_reuse__take_raw(void *arg, uint32_t item, vxp_diag_list *diags) {
  vxp_reuse *R = arg;
  return R->prev ? take(R, R->prev->raw_start, &R->prev->raw_ends, item, diags, false) : 0;
}
