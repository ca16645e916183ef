/* SPDX-License-Identifier: Apache-2.0 */
/* visibility.h - the placement checks beyond capacity: where code runs and what it can see.
 *
 * The facts lowering recorded of the program's function bodies (model.h: vxp_vis_fact),
 * checked against the merged machine view:
 *   E6001  a call of a function bound to a topology (`fn f() on Topology::T`) made where
 *          T does not run (host code, or a region on another topology);
 *   E6003  an element of a placed tensor read or written from a topology that cannot see
 *          the space the tensor lives in;
 *   E6029  a pointer into device memory (`t.as_ptr()` of a placed tensor) passed where a
 *          function of the program wants a pointer into host memory or another space;
 *   E6030  a `spawn` region on a device that hands out a tensor it creates, where that
 *          tensor cannot be made before the region;
 *   E8002  a `comptime` assertion over `.topology()` that is false (E3026 when the
 *          placement is not known to the walk, so the query cannot be decided). */
#ifndef VXP_VISIBILITY_H
#define VXP_VISIBILITY_H

#include "array.h"
#include "diag.h"
#include "machine.h"
#include "model.h"
#include "source.h"

/* The length of a diagnostic list after each top-level item's checks, one per item of the
 * tree in order (an analysis keeps them so that a later one can take over its items). */
typedef Array(uint32_t) vxp_item_ends;

/* Diagnostics an earlier check of an earlier version of the program found in items whose
 * text and inputs have not changed (reuse.c decides which): `take(arg, item, diags)` appends
 * those of top-level item `item` of the new tree and returns 1, returns 0 when the item must
 * be walked afresh, or a negative error code. */
typedef struct vxp_visibility_reuse {
  int (*take)(void *arg, uint32_t item, vxp_diag_list *diags);
  void *arg;
} vxp_visibility_reuse;

/* Append the diagnostics above for the program whose model is `m` (its facts,
 * m->visibility, as lowering recorded them; positions in `src`), checked against `view`,
 * to `diags`, in the order of the top-level items, each item's in the order of its facts.
 * Reads neither the syntax tree nor the source text. `reuse`, when not NULL, may supply an
 * item's diagnostics in place of its check (by its position among the root's children,
 * vxp_model_item.top); `ends`, when not NULL, receives the length of `diags` after each of
 * the root's top_count children. Returns VXP_OK or VXP_ENOMEM. */
int vxp_visibility__check(vxp_context *ctx, const vxp_source *src, const vxp_model *m,
                          size_t top_count, const vxp_machine_view *view, vxp_diag_list *diags,
                          const vxp_visibility_reuse *reuse, vxp_item_ends *ends);

#endif /* VXP_VISIBILITY_H */
