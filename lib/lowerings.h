/* SPDX-License-Identifier: Apache-2.0 */
/* lowerings.h - the checks on a transfer lowering (`impl Transfer<Memory::A, Memory::B> for
 * Topology::X { fn ... }`) that concern memory: the spaces its body moves bytes between.
 *
 * For a lowering whose body calls the `raw::` primitives (one that never does is carried
 * code, not checked, as in vxc):
 *   VXP0043 (warning) X declares no edge A -> B, so nothing executes the lowering;
 *   E6022   X declares the edge but cannot see A or B (CPU_DRAM excepted: every topology
 *           reaches host memory), so the lowering would run on a part that cannot address
 *           a space it moves bytes through. */
#ifndef VXP_LOWERINGS_H
#define VXP_LOWERINGS_H

#include <tree_sitter/api.h>

#include "diag.h"
#include "machine.h"

/* Append the diagnostics above for the lowerings written in `root` (parsed from `src`).
 * Returns VXP_OK or VXP_ENOMEM. */
int vxp_lowerings__check(vxp_context *ctx, const vxp_source *src, TSNode root,
                         const vxp_machine_view *view, vxp_diag_list *diags);

/* vxp_lowerings__check over the root's children `items` (`count` of them, in order; a
 * program's `top`), or over the children of `root` with a cursor when `items` is NULL. */
int vxp_lowerings__check_items(vxp_context *ctx, const vxp_source *src, TSNode root,
                               const TSNode *items, size_t count, const vxp_machine_view *view,
                               vxp_diag_list *diags);

#endif /* VXP_LOWERINGS_H */
