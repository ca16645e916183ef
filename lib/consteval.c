/* SPDX-License-Identifier: Apache-2.0 */
/* consteval.c - fold constant expressions without ever wrapping: every operation is
 * checked, and an expression that is not exactly a 64-bit non-negative integer is
 * reported as unknown with the sub-expression responsible. */
#include "consteval.h"

#include <stdio.h>

/* Const items may refer to each other; a chain longer than this is a cycle. */
#define VXP__MAX_CONST_CHAIN 256

static vxp_fold fail(vxp_fold_status status, uint32_t culprit) {
  vxp_fold f = {status, 0, culprit};
  return f;
}

static vxp_fold ok(uint64_t value) {
  vxp_fold f = {VXP_FOLD_OK, value, VXP_NONE};
  return f;
}

static vxp_fold fold(const vxp_const_env *env, uint32_t index, unsigned chain);

static vxp_fold fold_name(const vxp_const_env *env, uint32_t index, unsigned chain) {
  vxp_name name = env->model->cexprs.items[index].name;
  for (size_t i = env->binding_count; i-- > 0;) {
    if (env->bindings[i].name == name) return ok(env->bindings[i].value);
  }
  for (size_t i = 0; i < env->override_count; i++) {
    if (env->overrides[i].name == name) return ok(env->overrides[i].value);
  }
  const vxp_model *m = env->model;
  for (size_t i = 0; i < m->consts.len; i++) {
    if (m->consts.items[i].name != name) continue;
    if (chain >= VXP__MAX_CONST_CHAIN) return fail(VXP_FOLD_CYCLE, index);
    return fold(env, m->consts.items[i].value, chain + 1);
  }
  return fail(VXP_FOLD_UNKNOWN, index);
}

static vxp_fold fold_binary(const vxp_const_env *env, const vxp_cexpr *cx, uint32_t index,
                            unsigned chain) {
  /* && and || short-circuit, as they would at run time. */
  vxp_fold a = fold(env, cx->lhs, chain);
  if (a.status != VXP_FOLD_OK) return a;
  if (cx->op == VXP_OP_AND && a.value == 0) return ok(0);
  if (cx->op == VXP_OP_OR && a.value != 0) return ok(1);
  vxp_fold b = fold(env, cx->rhs, chain);
  if (b.status != VXP_FOLD_OK) return b;
  uint64_t x = a.value, y = b.value, r;
  switch (cx->op) {
  case VXP_OP_ADD:
    return vxp_add_u64(x, y, &r) ? ok(r) : fail(VXP_FOLD_OVERFLOW, index);
  case VXP_OP_SUB:
    return x >= y ? ok(x - y) : fail(VXP_FOLD_NEGATIVE, index);
  case VXP_OP_MUL:
    return vxp_mul_u64(x, y, &r) ? ok(r) : fail(VXP_FOLD_OVERFLOW, index);
  case VXP_OP_DIV:
    return y ? ok(x / y) : fail(VXP_FOLD_DIV_ZERO, index);
  case VXP_OP_REM:
    return y ? ok(x % y) : fail(VXP_FOLD_DIV_ZERO, index);
  case VXP_OP_EQ: return ok(x == y);
  case VXP_OP_NE: return ok(x != y);
  case VXP_OP_LT: return ok(x < y);
  case VXP_OP_GT: return ok(x > y);
  case VXP_OP_LE: return ok(x <= y);
  case VXP_OP_GE: return ok(x >= y);
  case VXP_OP_AND: return ok(y != 0);
  case VXP_OP_OR: return ok(y != 0);
  case VXP_OP_BITAND: return ok(x & y);
  case VXP_OP_BITOR: return ok(x | y);
  case VXP_OP_BITXOR: return ok(x ^ y);
  default: return fail(VXP_FOLD_UNKNOWN, index);
  }
}

static vxp_fold fold(const vxp_const_env *env, uint32_t index, unsigned chain) {
  if (index == VXP_NONE || index >= env->model->cexprs.len) return fail(VXP_FOLD_UNKNOWN, index);
  const vxp_cexpr *cx = &env->model->cexprs.items[index];
  switch ((vxp_cexpr_kind)cx->kind) {
  case VXP_CX_INT:
  case VXP_CX_BOOL:
    return ok(cx->value);
  case VXP_CX_BIGINT:
    return fail(VXP_FOLD_OVERFLOW, index);
  case VXP_CX_NAME:
    return fold_name(env, index, chain);
  case VXP_CX_UNARY: {
    vxp_fold a = fold(env, cx->lhs, chain);
    if (a.status != VXP_FOLD_OK) return a;
    if (cx->op == VXP_OP_NOT) return ok(a.value == 0);
    return a.value == 0 ? ok(0) : fail(VXP_FOLD_NEGATIVE, index);
  }
  case VXP_CX_BINARY:
    return fold_binary(env, cx, index, chain);
  case VXP_CX_OPAQUE:
  default:
    return fail(VXP_FOLD_UNKNOWN, index);
  }
}

vxp_fold vxp_consteval__fold(const vxp_const_env *env, uint32_t cexpr) {
  return fold(env, cexpr, 0);
}

const char *vxp_consteval__explain(const vxp_const_env *env, vxp_fold f, char *buf,
                                   size_t size) {
  const vxp_model *m = env->model;
  if (f.culprit == VXP_NONE || f.culprit >= m->cexprs.len) {
    snprintf(buf, size, "it is not a compile-time constant");
    return buf;
  }
  const vxp_cexpr *cx = &m->cexprs.items[f.culprit];
  switch (f.status) {
  case VXP_FOLD_OVERFLOW:
    snprintf(buf, size, "its value does not fit in 64 bits");
    break;
  case VXP_FOLD_DIV_ZERO:
    snprintf(buf, size, "it divides by zero");
    break;
  case VXP_FOLD_NEGATIVE:
    snprintf(buf, size, "an intermediate value is negative");
    break;
  case VXP_FOLD_CYCLE:
    snprintf(buf, size, "the const item '%s' is defined in terms of itself",
             vxp_strtab__str(&m->names, cx->name));
    break;
  default:
    if (cx->kind == VXP_CX_NAME)
      snprintf(buf, size, "'%s' is the runtime value of a variable, not a compile-time constant",
               vxp_strtab__str(&m->names, cx->name));
    else if (cx->kind == VXP_CX_OPAQUE && cx->reason == VXP_OPAQUE_DYNAMIC)
      snprintf(buf, size, "it is `?`, an extent known only at run time");
    else if (cx->kind == VXP_CX_OPAQUE && cx->reason == VXP_OPAQUE_FLOAT)
      snprintf(buf, size, "it is not an integer");
    else if (cx->kind == VXP_CX_OPAQUE && cx->reason == VXP_OPAQUE_CALL)
      snprintf(buf, size, "it is computed by a call at run time");
    else
      snprintf(buf, size, "it is not a compile-time constant");
    break;
  }
  return buf;
}
