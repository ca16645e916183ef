/* SPDX-License-Identifier: Apache-2.0 */
/* reuse.h - what an analysis takes over from an earlier analysis of an earlier version of
 * the same program (vxp_analyze_incremental): the results of the top-level items whose text
 * and inputs have not changed, their positions moved past the edit. Anything this cannot
 * prove unchanged is computed afresh, so the result is always the one a from-scratch
 * analysis gives.
 *
 * This module is the texts' part, below the model: where two versions differ and how a
 * position moves. The plan over two programs' items is the program's
 * (vxp_program__plan_reuse), the taking over of an earlier analysis' diagnostics the
 * analysis' (reuse_walk.h). */
#ifndef VXP_REUSE_H
#define VXP_REUSE_H

#include "diag.h"
#include "source.h"

/* Invariant (when planned): the earlier text's [prefix, old_end) became the new text's
 * [prefix, new_end), the rest is the same; both trees have `items` top-level items, pairwise
 * of one kind, and side[i] says where item i lies: before the middle (same offsets), after
 * it (moved by new_end - old_end), or touched by it (recomputed: a function, or a `const`
 * item, which changed_sig marks with every function whose signature text changed). */
enum { VXP_REUSE_BEFORE, VXP_REUSE_AFTER, VXP_REUSE_FRESH };

typedef struct vxp_reuse {
  const vxp_analysis *prev;
  const vxp_source *old_src, *new_src;
  uint32_t prefix, old_end, new_end;
  uint32_t items;
  uint8_t *side;
  /* Per item, or NULL when none is set: `changed_sig`, a touched function whose signature
   * (the text before its body) is not the earlier one's, or a touched `const` item (the plan
   * lets the splice decide whether it can take that over: program.h); `again`, an item
   * outside the middle that the splice lowered again from its node because what it read of
   * a callee changed: its signature record (a nominal return type, a tensor return type's
   * contents) or its visibility index entry (its analysis walks it again and makes its
   * visibility diagnostics again). */
  uint8_t *changed_sig, *again;
  bool consts_changed;  /* a `const` item is among the touched ones */
  bool again_unread;    /* the splice failed only for want of the nodes of an `again` item */
  bool names_moved;     /* the splice brought names in: the earlier ids moved (no walk lent) */
  size_t taken, walked; /* items taken over and items recomputed (for the tests) */
} vxp_reuse;

/* Where two texts (of at most UINT32_MAX bytes) differ: the first `prefix` bytes are the
 * same, and the earlier text's [old_end, end) is the new one's [new_end, end); prefix <=
 * old_end and prefix <= new_end. Compared from both ends, so the middle is one span even when
 * several edits made the change. */
void vxp_reuse__diff(const vxp_source *old_src, const vxp_source *new_src, uint32_t *prefix,
                     uint32_t *old_end, uint32_t *new_end);

/* Offset `at` of the earlier text in the new one, for an item on `side` of the changed
 * middle; false when it is not on that side (then the result cannot be moved). */
static inline bool vxp_reuse__map(const vxp_reuse *R, uint8_t side, uint32_t at, uint32_t *out) {
  /* inline: a splice moves every offset of every unchanged item through it */
  if (side == VXP_REUSE_BEFORE && at <= R->prefix)
    *out = at;
  else if (side == VXP_REUSE_AFTER && at >= R->old_end)
    *out = at - R->old_end + R->new_end;
  else
    return false;
  return true;
}

/* Append copies of `count` diagnostics of the earlier version, of an item on `side`, moved
 * to the new text. Returns 1, 0 when a position cannot be moved (nothing appended), or
 * VXP_ENOMEM. */
int vxp_reuse__copy_diags(const vxp_reuse *R, uint8_t side, const vxp_diagnostic *from,
                          size_t count, vxp_diag_list *diags);

/* Whether every position of `d` (and of its notes) in the earlier text maps to the new one
 * from `side`; a diagnostic naming its function (borrowed from the earlier analysis) only
 * when `named` (the caller names it anew). */
bool vxp_reuse__mappable(const vxp_reuse *R, uint8_t side, const vxp_diagnostic *d, bool named);

/* Move `d`'s positions (and its notes') from the earlier text to the new one, from `side`
 * (vxp_reuse__mappable said they map). */
void vxp_reuse__move_positions(const vxp_reuse *R, uint8_t side, vxp_diagnostic *d);

void vxp_reuse__free(vxp_context *ctx, vxp_reuse *R);

#endif /* VXP_REUSE_H */
