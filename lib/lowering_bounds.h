/* SPDX-License-Identifier: Apache-2.0 */
/* lowering_bounds.h - the bounds obligation of a lowering's `raw::` primitives (vxc's
 * E6018): `raw::load(t, i)`, `raw::store(t, i, v)` and `raw::async_copy(d, s, i)` need
 * 0 <= i < extent(t) for each tile they touch. vxc discharges it with an SMT solver (z3)
 * over the facts in scope; this decides the part that needs none:
 *   E6018    a tile whose extent is not static (not every dimension a literal), or an index
 *            that leaves the tile on some run the constant `let`s and `for` ranges allow
 *            (the index's variables used once each, outside any `if`/`match`/loop arm, in a
 *            function without `assert`s or invariants: where vxc's facts are exactly
 *            these, the solver refutes it too);
 *   VXP0045  a warning where this cannot decide (a run-time value such as `raw::lane()`,
 *            a branch or invariant vxc may draw facts from), and vxc's "asserted, not
 *            proven" warning inside `unsafe`.
 * An index whose every value lies in the tile is proven, as vxc proves it. A `let` that
 * rebinds a parameter's name is followed: to another parameter (its tile, and E6017 when
 * `raw::store` writes through a read-only one), or to a plain value (E6017: not a tile). */
#ifndef VXP_LOWERING_BOUNDS_H
#define VXP_LOWERING_BOUNDS_H

#include <tree_sitter/api.h>

#include "lowering_body.h"

/* At most this many parameters of a lowering function are followed as tiles. */
#define VXP_LOWERING_BOUND_TILES 64

/* Append the diagnostics above for every function of `item` (a transfer_impl_item of
 * `src`) to `diags`. Returns VXP_OK or VXP_ENOMEM. */
int vxp_lowering__check_bounds(vxp_context *ctx, const vxp_source *src, TSNode item,
                               vxp_diag_list *diags);

#endif /* VXP_LOWERING_BOUNDS_H */
