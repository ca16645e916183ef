/* SPDX-License-Identifier: Apache-2.0 */
/* lowering_body.h - what a transfer lowering (`impl Transfer<Memory::A, Memory::B> for
 * Topology::X { fn ... }`) declares and moves, read from its body once, with the
 * declarations: how many functions it has and whether one is generic (vxc's E6015), the
 * first function's two tiles as declared (E6023 compares them with each transfer's tile),
 * and the elements its raw:: calls move per end of the edge (vxc's `traffic_source:
 * lowering_body`). */
#ifndef VXP_LOWERING_BODY_H
#define VXP_LOWERING_BODY_H

#include <tree_sitter/api.h>

#include "machine.h"

/* Fill the body facts of `l` (machine.h) from `item`, a transfer_impl_item of `src`.
 * Returns VXP_OK or VXP_ENOMEM (l->generic_method is then NULL). */
int vxp_lowering__read_body(vxp_context *ctx, struct vxp_arena *arena, const vxp_source *src,
                            TSNode item, vxp_lowering *l);

/* The tile a parameter's declared type `type` describes (a tensor, or a reference to one). */
void vxp_lowering__read_tile(vxp_context *ctx, const vxp_source *src, TSNode type,
                             vxp_lowering_tile *t);

#endif /* VXP_LOWERING_BODY_H */
