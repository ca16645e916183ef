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

#include "diag.h"
#include "machine.h"

/* Append the diagnostics above for the lowerings `decls` read from `src` when its
 * declarations were read (vxp_machine__read; the tree is not read again), in their order.
 * Returns VXP_OK or VXP_ENOMEM. */
int vxp_lowerings__check(vxp_context *ctx, const vxp_source *src, const vxp_machine *decls,
                         const vxp_machine_view *view, vxp_diag_list *diags);

#endif /* VXP_LOWERINGS_H */
