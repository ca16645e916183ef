/* SPDX-License-Identifier: Apache-2.0 */
/* consteval.h - folding constant expressions (shapes, generic arguments, const items,
 * loop bounds, `if comptime` conditions) with exact, checked 64-bit arithmetic. */
#ifndef VXP_CONSTEVAL_H
#define VXP_CONSTEVAL_H

#include "model.h"

typedef enum vxp_fold_status {
  VXP_FOLD_OK = 0,
  VXP_FOLD_UNKNOWN,    /* not a compile-time constant (a run-time name, a call, `?`) */
  VXP_FOLD_OVERFLOW,   /* an intermediate does not fit in 64 bits */
  VXP_FOLD_DIV_ZERO,   /* division or remainder by zero */
  VXP_FOLD_NEGATIVE,   /* an intermediate is negative */
  VXP_FOLD_CYCLE       /* a const item refers to itself */
} vxp_fold_status;

/* A name bound to a value: a const-generic argument or a `-D NAME=VALUE` override. */
typedef struct vxp_const_binding {
  vxp_name name;
  uint64_t value;
} vxp_const_binding;

/* What folding sees. Lookup order: `bindings` (innermost generic instance), then
 * `overrides`, then the program's const items. */
typedef struct vxp_const_env {
  const vxp_model *model;
  const vxp_const_binding *bindings;
  size_t binding_count;
  const vxp_const_binding *overrides;
  size_t override_count;
} vxp_const_env;

typedef struct vxp_fold {
  vxp_fold_status status;
  uint64_t value;
  uint32_t culprit;    /* the cexpr that failed (for the location and the message) */
} vxp_fold;

vxp_fold vxp_consteval__fold(const vxp_const_env *env, uint32_t cexpr);

/* A sentence for a failed fold, e.g. "'n' is not a compile-time constant", written to buf. */
const char *vxp_consteval__explain(const vxp_const_env *env, vxp_fold fold, char *buf,
                                   size_t size);

#endif /* VXP_CONSTEVAL_H */
