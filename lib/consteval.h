/* SPDX-License-Identifier: Apache-2.0 */
/* consteval.h - folding constant expressions (shapes, generic arguments, const items,
 * loop bounds, `if comptime` conditions, comptime blocks) with exact, checked 64-bit
 * arithmetic. */
#ifndef VXP_CONSTEVAL_H
#define VXP_CONSTEVAL_H

#include "model.h"

typedef enum vxp_fold_status {
  VXP_FOLD_OK = 0,
  VXP_FOLD_UNKNOWN,    /* not a compile-time constant (a run-time name, a call, `?`) */
  VXP_FOLD_OVERFLOW,   /* an intermediate does not fit in 64 bits */
  VXP_FOLD_DIV_ZERO,   /* division or remainder by zero */
  VXP_FOLD_NEGATIVE,   /* an intermediate is negative (sizes only; see fold_signed) */
  VXP_FOLD_CYCLE,      /* a const item refers to itself */
  VXP_FOLD_LIMIT       /* too deep or too many steps to fold (a guard, not a verdict) */
} vxp_fold_status;

/* A name bound to a value: a const-generic argument or a `-D NAME=VALUE` override. */
typedef struct vxp_const_binding {
  vxp_name name;
  uint64_t value;      /* the magnitude */
  bool negative;       /* the value is -value (a const-generic argument such as `N - 1` at 0) */
  bool unknown;        /* a const-generic parameter whose argument is not a constant: the
                          name folds to UNKNOWN (it shadows a const item of the same name) */
} vxp_const_binding;

/* What folding sees. Lookup order: `bindings` (the generic instance being analysed), then
 * `overrides`, then the program's const items. */
typedef struct vxp_const_env {
  const vxp_model *model;
  const vxp_const_binding *bindings;
  size_t binding_count;
  const vxp_const_binding *overrides;
  size_t override_count;
} vxp_const_env;

/* Invariant: `negative` is only ever true for vxp_consteval__fold_signed. */
typedef struct vxp_fold {
  vxp_fold_status status;
  uint64_t value;      /* the magnitude */
  uint32_t culprit;    /* the cexpr that failed (for the location and the message) */
  bool negative;       /* the value is -value */
} vxp_fold;

/* Fold a size: every intermediate must be a non-negative integer below 2^64 (vxc's rule
 * for tensor dimensions); a negative one is VXP_FOLD_NEGATIVE. */
vxp_fold vxp_consteval__fold(const vxp_const_env *env, uint32_t cexpr);

/* Fold a value that may be negative (a const-generic argument, a condition, a loop bound):
 * intermediates range over -(2^64 - 1) .. 2^64 - 1. Comparisons and conditions are
 * always folded this way, even inside a size. */
vxp_fold vxp_consteval__fold_signed(const vxp_const_env *env, uint32_t cexpr);

/* A sentence for a failed fold, e.g. "'n' is not a compile-time constant", written to buf. */
const char *vxp_consteval__explain(const vxp_const_env *env, vxp_fold fold, char *buf,
                                   size_t size);

/* The binding of `name` in `env` (the instance's own), or NULL. */
const vxp_const_binding *vxp_consteval__binding(const vxp_const_env *env, vxp_name name);

#endif /* VXP_CONSTEVAL_H */
