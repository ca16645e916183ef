/* SPDX-License-Identifier: Apache-2.0 */
/* reuse_walk.h - an analysed function's results taken over from an earlier analysis of an
 * earlier version of the program (vxp_analyze_incremental) instead of walking it again.
 *
 * What a walk of a function needing no generic arguments reads: its own lowered model (its
 * events, the types and constant expressions they name), the const table and the -D
 * overrides, the machine view and its routing graph, the name resolution of the program
 * (which names denote what), whether E6014 was reported already (once per program), and
 * the resolver, for the call sites of its calls. What it writes: its event and access facts,
 * records, scopes, routes, resident sets, call-tree summary (self peaks, bytes held at each
 * call), its call sites (through the resolver, which may make instances), and diagnostics.
 *
 * A function's results are taken over when all of those inputs are shown unchanged: the
 * reparse's plan says its item lies outside the edit (its model is the earlier one, moved),
 * the splice did not lower it again (R->again: a callee's returned type changed), the plan's
 * edit touched only functions (bodies, or signatures the splice took over: what a walk of
 * another function reads of a callee needing no generic arguments is none of its signature),
 * the splice kept every name id, and the analysis options and -D overrides are the earlier
 * analysis' own (then the const table, the view and the name resolution are the same; a
 * touched `const` item walks every function). Its callees' results
 * are not among its inputs: the call-tree fold, which combines them, runs afresh over all
 * functions afterwards. Its calls are resolved again, in the order the walk would, so that
 * instances, call sites and their indices are the ones a walk makes. Instances (generic
 * functions walked with their arguments) are always walked. */
#ifndef VXP_REUSE_WALK_H
#define VXP_REUSE_WALK_H

#include "analysis_data.h"
#include "instance.h"
#include "reuse.h"

/* Returned by vxp_walk_reuse__take when a function's results could not be taken over after
 * its calls were resolved (a resolver diagnostic among the walk's own, or call sites unlike
 * the earlier walk's): the analysis is then made again from scratch (analysis.c). */
#define VXP__REDO (-100)

typedef struct vxp_walk_reuse {
  const vxp_analysis *prev;
  const vxp_program *old; /* prev->prog */
  const vxp_reuse *R;     /* the reparse's plan (borrowed from the program) */
  uint32_t *old_analysed; /* old model function -> its analysed function (no generics) */
  int64_t line_shift;     /* lines the edit added (negative: removed) */
} vxp_walk_reuse;

/* Prepare taking over functions of `prev` into `an` (an analysis of a program reparsed from
 * prev's, with the plan `R`). Returns 1 when functions can be taken over, 0 when none can
 * (then nothing is held), or VXP_ENOMEM. */
int vxp_walk_reuse__init(vxp_walk_reuse *F, const vxp_analysis *an, const vxp_analysis *prev,
                         const vxp_reuse *R);

void vxp_walk_reuse__free(vxp_context *ctx, vxp_walk_reuse *F);

/* Take analysed function `fn` of `an` over from the earlier analysis, as its walk would
 * make it: resolve its calls with `resolver`, append its results to `an`'s tables, set
 * *e6014 as the walk would leave it. Returns 1 when taken, 0 when it must be walked (nothing
 * changed), VXP__REDO (see above), or VXP_ENOMEM. */
int vxp_walk_reuse__take(vxp_walk_reuse *F, vxp_analysis *an, vxp_resolver *resolver, uint32_t fn,
                         bool *e6014);

/* vxp_visibility_reuse's `take` over a planned vxp_reuse: the visibility checks' and the
 * raw:: checks' diagnostics of an unchanged item (R->taken and R->walked count the first). */
int vxp_reuse__take_visibility(void *arg, uint32_t item, vxp_diag_list *diags);
int vxp_reuse__take_raw(void *arg, uint32_t item, vxp_diag_list *diags);

#endif /* VXP_REUSE_WALK_H */
