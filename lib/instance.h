/* SPDX-License-Identifier: Apache-2.0 */
/* instance.h - which function a call site calls, and the generic instances that answer.
 *
 * A call resolves to an analysed function: a function needing no generic arguments, or an
 * instance of a generic one made for the call's arguments (written, or inferred from the
 * argument values: `stage(7)` is `stage<i32>`, `pick(t)` with t a Tensor<f32, [8]> binds
 * N = 8 in `pick<const N>(x: Tensor<f32, [N]>)`). Instances are memoized by function and
 * arguments, so a generic function calling itself with the same arguments is a cycle of
 * the call graph, and one calling itself with new ones (`countdown<N - 1>`) a chain of
 * instances, stopped at VXP_MAX_INSTANCE_DEPTH (E3032). A call that cannot be resolved is
 * reported as unresolved with the reason; a builtin or an enum constructor calls no user
 * code and is neither.
 *
 * Instance names (stable, documented in README): the function's name, then the arguments
 * in declaration order in angle brackets, ", "-separated: integers in decimal (negative
 * with '-'), types by name, '?' for one neither written nor inferable. A closure inside a
 * generic function is named after its instance: `outer<3>::add`. Messages vxc also writes
 * spell functions as vxc does (vxp_instance__vxc_spelling). */
#ifndef VXP_INSTANCE_H
#define VXP_INSTANCE_H

#include "analysis_data.h"
#include "strbuf.h"

/* Limits on instantiation (each a guard with a diagnostic, never a silent cut). */
#define VXP_MAX_INSTANCE_DEPTH 128
#define VXP_MAX_INSTANCES 4096
/* Events (placements, calls, scopes) that all instances together may add to what the
 * program itself holds: the instance cap bounds instances, not instances x body (a generic
 * function of 3,000 placements instantiated 4,096 times reached 3.18 GB). Past this budget
 * instantiation stops with VXP0030, so the analysis' memory stays proportional to the
 * input. */
#define VXP_MAX_INSTANCE_EVENTS (1u << 18)

typedef struct vxp_resolver {
  vxp_analysis *an;
  const vxp_model *m;
  const vxp_source *src;
  uint32_t *fn_by_name;  /* name -> first model function of that name, or VXP_NONE */
  uint8_t *name_flags;   /* name -> NAME_* bits (instance.c) */
  uint32_t *analysed_of; /* model function -> its analysed function when it needs no
                            generic arguments, else VXP_NONE */
  uint32_t *path_target; /* callee path name -> its model function, once classified */
  uint32_t *table;       /* open addressing over instances: analysed index + 1, 0 empty */
  size_t table_size;     /* a power of two, at most half full */
  size_t instance_count;
  size_t instance_events; /* events of every instance made so far */
  bool reported_count_limit;
} vxp_resolver;

/* Prepare the lookups and seed the analysis' functions with every function and closure
 * that needs no generic arguments, in program order. Returns VXP_OK or VXP_ENOMEM. */
int vxp_resolver__init(vxp_resolver *R, vxp_analysis *an);

void vxp_resolver__free(vxp_resolver *R);

/* Resolve `call`, made by analysed function `caller`. A call of user code (resolved, or
 * unresolved with a reason) becomes a new entry of an->calls (its index is an->calls.len
 * before the call) and sets *recorded; a builtin's call records nothing. A new instance
 * is appended to an->functions, to be walked later. Diagnostics for the instantiation
 * limits go to an->diags. Returns VXP_OK or VXP_ENOMEM. */
int vxp_resolver__call(vxp_resolver *R, uint32_t caller, const vxp_call_event *call,
                       bool *recorded);

/* Append analysed function `fn` as vxc spells it in its messages (E6027's call path, E6028's
 * cycle) to `out`, whole: a method `Type$method`, each generic argument in declaration order
 * appended as `$<type>` or `$const$<value>` (`stage$i32`, `pick$const$3`). A closure has no
 * such name vxpeak can know and keeps its own. An allocation failure sets out->failed. */
void vxp_instance__vxc_spelling(const vxp_analysis *an, uint32_t fn, vxp_sb *out);

/* The element type a tensor type's element names in analysed function `fn`: its own, or
 * the instance's binding of a type parameter; VXP_ELEM_UNKNOWN when neither. */
vxp_elem vxp_instance__elem(const vxp_analysis *an, uint32_t fn, const vxp_tensor_type *t);

#endif /* VXP_INSTANCE_H */
