/* SPDX-License-Identifier: Apache-2.0 */
/* visibility.h - the placement checks beyond capacity: where code runs and what it can see.
 *
 * One walk over the program's tree, against the merged machine view:
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

#include <tree_sitter/api.h>

#include "diag.h"
#include "machine.h"

/* Append the diagnostics above for the program `root` (parsed from `src`) to `diags`.
 * Returns VXP_OK or VXP_ENOMEM. */
int vxp_visibility__check(vxp_context *ctx, const vxp_source *src, TSNode root,
                          const vxp_machine_view *view, vxp_diag_list *diags);

#endif /* VXP_VISIBILITY_H */
