/* SPDX-License-Identifier: Apache-2.0 */
/* raw_primitives.h - the obligations on the `raw::` primitives of a transfer lowering
 * (`impl Transfer<Memory::A, Memory::B> for Topology::X { fn ... }`), as vxc states them:
 *
 *   E6017 a primitive used where it cannot be: outside a lowering, inside a closure (it
 *         would run when called, not when the lowering runs), a name that is not one of the
 *         eight (load, store, extent, lane, lanes, barrier, async_copy, async_wait), a tile
 *         that is not a parameter of the lowering, or a tile written through `&` not `&mut`;
 *   E6019 raw::barrier() under control flow (a loop, an `if`, a `match`): not every lane is
 *         guaranteed to reach it (the top level of a top-level `unsafe` block counts as top
 *         level);
 *   E6020 raw::async_copy on an edge whose topology declares no `copy_engine` on it;
 *   E6021 the async and publication discipline: a copy's destination read (or its source or
 *         destination written) while the copy is outstanding, a copy with no raw::async_wait()
 *         on some path to the end, and a lowering that writes its destination on a
 *         synchronizing (not `relaxed`) edge but does not end with raw::barrier(), or leaves
 *         by an early `return` before it; and, on any edge, a `return` in a body written
 *         with the primitives that is not its last statement (the body is inlined at the
 *         transfer, so it would return from the function that performs it).
 *
 * Run on the program and, when a machine file is loaded, on that file's own lowerings
 * (machine.c), each against the declarations it is checked with. The syntax tree is read
 * once, where the program is lowered (or the machine file read), by lower_raw.c: it records
 * each diagnostic with the condition on the machine under which it holds (model.h:
 * vxp_raw_fact); what is checked here is only those conditions, against the view.
 *
 * Not checked: E6018 (bounds proven by vxc's solver). The lowering's tiles are the
 * parameters by name; a `let` that shadows a parameter is not followed. */
#ifndef VXP_RAW_PRIMITIVES_H
#define VXP_RAW_PRIMITIVES_H

#include "diag.h"
#include "machine.h"
#include "model.h"
#include "strtab.h"
#include "visibility.h" /* vxp_item_ends, vxp_visibility_reuse: item-level lending */

/* Append the diagnostics of the facts `facts[0 .. count)` (lower_raw.h; their names in
 * `names`, their places in `src`), answered against `view`: each ALWAYS fact, and each
 * conditional one whose lowering's edge (the EDGE fact before it) the view declares without
 * a copy engine (NO_COPY_ENGINE) or not `relaxed` (SYNCHRONIZING). Reads neither a syntax
 * tree nor source text. Returns VXP_OK or VXP_ENOMEM. */
int vxp_raw__check_facts(vxp_context *ctx, const vxp_source *src, const vxp_strtab *names,
                         const vxp_raw_fact *facts, size_t count, const vxp_machine_view *view,
                         vxp_diag_list *diags);

/* The diagnostics of the program whose model is `m` (m->raw, item by item), in the order of
 * its top-level items, as vxp_visibility__check goes: `reuse`, when not NULL, may supply an
 * item's diagnostics in place of its check (by vxp_model_item.top); `ends`, when not NULL,
 * receives the length of `diags` after each of the root's top_count children. Returns
 * VXP_OK or VXP_ENOMEM. */
int vxp_raw__check(vxp_context *ctx, const vxp_source *src, const vxp_model *m, size_t top_count,
                   const vxp_machine_view *view, vxp_diag_list *diags,
                   const vxp_visibility_reuse *reuse, vxp_item_ends *ends);

#endif /* VXP_RAW_PRIMITIVES_H */
