/* SPDX-License-Identifier: Apache-2.0 */
/* consteval.h - folding constant expressions (shapes, generic arguments, const items,
 * loop bounds, `if comptime` conditions, comptime blocks) with exact, checked 64-bit
 * arithmetic. */
#ifndef VXP_CONSTEVAL_H
#define VXP_CONSTEVAL_H

#include "model.h"
#include "strbuf.h"

typedef enum vxp_fold_status {
  VXP_FOLD_OK = 0,
  VXP_FOLD_UNKNOWN,  /* not a compile-time constant (a run-time name, a call, `?`) */
  VXP_FOLD_OVERFLOW, /* an intermediate does not fit in 64 bits */
  VXP_FOLD_DIV_ZERO, /* division or remainder by zero */
  VXP_FOLD_NEGATIVE, /* an intermediate is negative (sizes only; see fold_signed) */
  VXP_FOLD_CYCLE,    /* a const item refers to itself */
  VXP_FOLD_LIMIT     /* too deep or too many steps to fold (a guard, not a verdict) */
} vxp_fold_status;

/* A name bound to a value: a const-generic argument or a `-D NAME=VALUE` override. */
typedef struct vxp_const_binding {
  vxp_name name;
  uint64_t value; /* the magnitude */
  bool negative;  /* the value is -value (a const-generic argument such as `N - 1` at 0) */
  bool unknown;   /* a const-generic parameter whose argument is not a constant: the
                     name folds to UNKNOWN (it shadows a const item of the same name) */
} vxp_const_binding;

/* The program's const items folded once (vxp_consteval__table_build) for a fixed set of
 * overrides: lookups by name are a binary search and a chain of const items defined in
 * terms of each other folds in one step per item, however long it is. Read-only once built
 * (an analysis shares it between threads). */
typedef struct vxp_const_table vxp_const_table;

/* What folding sees. Lookup order: `bindings` (the generic instance being analysed), then
 * `overrides`, then the program's const items (through `consts` when it is set; const items
 * never see an instance's bindings). */
typedef struct vxp_const_env {
  const vxp_model *model;
  const vxp_const_binding *bindings;
  size_t binding_count;
  const vxp_const_binding *overrides;
  size_t override_count;
  const vxp_const_table *consts;
  /* Decides a VXP_CX_REACHABLE predicate: 1 routes, 0 does not, -1 unknown (then it does
   * not fold). NULL: such a predicate never folds. `reach_data` is passed through. */
  int (*reachable)(void *reach_data, const vxp_cexpr *predicate);
  void *reach_data;
} vxp_const_env;

/* Invariant: `negative` is only ever true for vxp_consteval__fold_signed. */
typedef struct vxp_fold {
  vxp_fold_status status;
  uint64_t value;   /* the magnitude */
  uint32_t culprit; /* the cexpr that failed (for the location and the message) */
  bool negative;    /* the value is -value */
} vxp_fold;

/* Fold a size: every intermediate must be a non-negative integer below 2^64 (vxc's rule
 * for tensor dimensions); a negative one is VXP_FOLD_NEGATIVE. */
vxp_fold vxp_consteval__fold(const vxp_const_env *env, uint32_t cexpr);

/* Fold a value that may be negative (a const-generic argument, a condition, a loop bound):
 * intermediates range over -(2^64 - 1) .. 2^64 - 1. Comparisons and conditions are
 * always folded this way, even inside a size. */
vxp_fold vxp_consteval__fold_signed(const vxp_const_env *env, uint32_t cexpr);

/* Fold every const item of `env->model` under `env->overrides` (bindings are ignored) into
 * a new table, owned by the caller (vxp_consteval__table_free). Returns NULL on allocation
 * failure. */
vxp_const_table *vxp_consteval__table_build(vxp_context *ctx, struct vxp_arena *arena,
                                            const vxp_const_env *env);

/* A sentence for a failed fold, e.g. "'n' is not a compile-time constant", appended to `sb`
 * whole, however long the names in it (a failed append sets sb->failed). */
void vxp_consteval__explain(vxp_context *ctx, const vxp_const_env *env, vxp_fold fold, vxp_sb *sb);

/* The value decided for const item `name` under `env`: its -D override when one is given,
 * else the const table's cached signed fold (the analysis builds the table once; without
 * one the item is folded here). VXP_FOLD_UNKNOWN when the program has no such item. */
vxp_fold vxp_consteval__const_value(const vxp_const_env *env, vxp_name name);

/* The binding of `name` in `env` (the instance's own), or NULL. */
const vxp_const_binding *vxp_consteval__binding(const vxp_const_env *env, vxp_name name);

#endif /* VXP_CONSTEVAL_H */
