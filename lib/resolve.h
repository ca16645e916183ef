/* SPDX-License-Identifier: Apache-2.0 */
/* resolve.h - name resolution: every name the analysis depends on must denote something.
 *
 * Lowering records what each name in a constant expression referred to in its lexical
 * scope (model.h, vxp_name_scope); this pass, run by vxp_analyze once the machine view,
 * the const items and the -D overrides are known, reports what refers to nothing:
 *
 *   E2001  a name in a shape, generic argument, loop bound or `if comptime` condition that
 *          is no const item, -D override, generic parameter or variable in scope
 *   E2002  a call to a function the program does not define (and, with no `import`, cannot
 *          get from anywhere else)
 *   E1012  a tensor element type that is no element type and no generic parameter
 *   E6025  a placement naming a memory space (or a topology) no input declares and Vx does
 *          not build in
 *   E1011  a `Memory`/`Topology` declaration naming an unknown space (`within:`; a
 *          `visible:` entry or a `transfer` edge's end only when it is a near miss of a space
 *          that exists: otherwise, as in vxc, a `visible:` entry is held and an edge's end is
 *          not checked; a topology's `memory:` makes its space exist, as in vxc, and W1026
 *          says when nothing reaches it)
 *   E3029  a type in a signature (parameter, return type, struct field, their generic
 *          arguments) that names no struct, enum, trait, generic parameter or language type
 *   E6025  also `Topology::X` in a signature's `on` or an expression naming no topology
 *   W1025  (a warning, as in vxc) `Topology::X` in a `spawn on(...)` naming no topology: the
 *          region is placed like the host's (visibility.c)
 *
 * Each is reported once per place it is written, pointing at the name, with a "did you
 * mean" help line when a declared name is within a small edit distance (suggest.h). What
 * does not resolve is never folded, sized or routed silently: the analysis skips the W1029
 * such a shape would otherwise get (the error covers it) and the program is not admitted. */
#ifndef VXP_RESOLVE_H
#define VXP_RESOLVE_H

#include "analysis_data.h"

/* Report the unresolved names of `an->prog` against `an->view`, `env` (const items and
 * overrides), into `an->diags`, and record the unresolved name expressions in
 * `an->unresolved_cexprs`. VXP_OK or VXP_ENOMEM. */
int vxp_resolve__program(vxp_analysis *an, const vxp_const_env *env);

/* After the walk: withdraw the resolution errors written inside an `if comptime` arm that
 * every analysed instance of its function prunes (vxc prunes such an arm before resolving
 * names in it: `if comptime false { undefined() }` compiles). */
void vxp_resolve__withdraw_pruned(vxp_analysis *an);

/* Whether cexpr `cx` of the analysed program is a name that resolves to nothing. */
bool vxp_resolve__unresolved(const vxp_analysis *an, uint32_t cx);

#endif /* VXP_RESOLVE_H */
