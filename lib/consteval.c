/* SPDX-License-Identifier: Apache-2.0 */
/* consteval.c - fold constant expressions without ever wrapping: every operation is
 * checked, and an expression that is not exactly an integer within 64 bits (non-negative,
 * for a size) is reported as unknown with the sub-expression responsible. */
#include "consteval.h"

#include <stdio.h>

typedef __int128 i128;

/* Const items may refer to each other; a chain of more distinct items than this is not
 * followed (a cycle is found exactly, by the items on the chain). */
#define VXP__MAX_CONST_CHAIN 256
/* Guards against hostile inputs: the expressions form a DAG (comptime `let`s and const
 * items are shared), so both the depth and the number of steps of one fold are bounded. */
#define VXP__MAX_FOLD_DEPTH 512
#define VXP__MAX_FOLD_STEPS 1000000

#define MAG_MAX ((i128)UINT64_MAX)

typedef struct folder {
  const vxp_const_env *env;
  unsigned steps;
  size_t items[VXP__MAX_CONST_CHAIN]; /* the const items being folded, outermost first */
} folder;

/* An intermediate result: exact in 128 bits, |v| <= 2^64 - 1 when OK. */
typedef struct ival {
  vxp_fold_status status;
  i128 v;
  uint32_t culprit;
} ival;

static ival fail(vxp_fold_status status, uint32_t culprit) {
  ival r = {status, 0, culprit};
  return r;
}

static ival ok(i128 v) {
  ival r = {VXP_FOLD_OK, v, VXP_NONE};
  return r;
}

/* Range check of a computed value: too large either way is an overflow, and a negative
 * value is one only where negatives are not allowed. */
static ival checked(i128 v, bool sign, uint32_t index) {
  if (v > MAG_MAX || v < -MAG_MAX) return fail(VXP_FOLD_OVERFLOW, index);
  if (!sign && v < 0) return fail(VXP_FOLD_NEGATIVE, index);
  return ok(v);
}

static ival fold(folder *F, uint32_t index, unsigned chain, unsigned depth, bool sign);

const vxp_const_binding *vxp_consteval__binding(const vxp_const_env *env, vxp_name name) {
  for (size_t i = env->binding_count; i-- > 0;) {
    if (env->bindings[i].name == name) return &env->bindings[i];
  }
  return NULL;
}

static ival fold_name(folder *F, uint32_t index, unsigned chain, unsigned depth, bool sign) {
  const vxp_const_env *env = F->env;
  vxp_name name = env->model->cexprs.items[index].name;
  const vxp_const_binding *b = vxp_consteval__binding(env, name);
  if (b) {
    if (b->unknown) return fail(VXP_FOLD_UNKNOWN, index);
    if (b->negative && b->value) return sign ? ok(-(i128)b->value) : fail(VXP_FOLD_NEGATIVE, index);
    return ok((i128)b->value);
  }
  for (size_t i = 0; i < env->override_count; i++) {
    if (env->overrides[i].name == name) return ok((i128)env->overrides[i].value);
  }
  const vxp_model *m = env->model;
  for (size_t i = 0; i < m->consts.len; i++) {
    if (m->consts.items[i].name != name) continue;
    for (unsigned k = 0; k < chain; k++) {
      if (F->items[k] == i) return fail(VXP_FOLD_CYCLE, index);
    }
    if (chain >= VXP__MAX_CONST_CHAIN) return fail(VXP_FOLD_LIMIT, index);
    F->items[chain] = i;
    return fold(F, m->consts.items[i].value, chain + 1, depth + 1, sign);
  }
  return fail(VXP_FOLD_UNKNOWN, index);
}

static bool is_comparison(vxp_cop op) {
  return op == VXP_OP_EQ || op == VXP_OP_NE || op == VXP_OP_LT || op == VXP_OP_GT ||
         op == VXP_OP_LE || op == VXP_OP_GE || op == VXP_OP_AND || op == VXP_OP_OR;
}

static ival fold_binary(folder *F, const vxp_cexpr *cx, uint32_t index, unsigned chain,
                        unsigned depth, bool sign) {
  vxp_cop op = (vxp_cop)cx->op;
  /* A comparison's operands may be negative whatever the context: its result is 0 or 1. */
  bool operand_sign = sign || is_comparison(op);
  ival a = fold(F, cx->lhs, chain, depth + 1, operand_sign);
  if (a.status != VXP_FOLD_OK) return a;
  /* && and || short-circuit, as they would at run time. */
  if (op == VXP_OP_AND && a.v == 0) return ok(0);
  if (op == VXP_OP_OR && a.v != 0) return ok(1);
  ival b = fold(F, cx->rhs, chain, depth + 1, operand_sign);
  if (b.status != VXP_FOLD_OK) return b;
  i128 x = a.v, y = b.v;
  switch (op) {
  case VXP_OP_ADD: return checked(x + y, sign, index);
  case VXP_OP_SUB: return checked(x - y, sign, index);
  case VXP_OP_MUL: {
    /* |x|, |y| < 2^64, so the product can exceed i128: multiply the magnitudes checked. */
    uint64_t mx = (uint64_t)(x < 0 ? -x : x), my = (uint64_t)(y < 0 ? -y : y), mag;
    if (!vxp_mul_u64(mx, my, &mag)) return fail(VXP_FOLD_OVERFLOW, index);
    return checked(((x < 0) != (y < 0)) ? -(i128)mag : (i128)mag, sign, index);
  }
  /* Division truncates toward zero and the remainder takes the dividend's sign (Rust's
   * integer semantics, and C's). */
  case VXP_OP_DIV: return y ? checked(x / y, sign, index) : fail(VXP_FOLD_DIV_ZERO, index);
  case VXP_OP_REM: return y ? checked(x % y, sign, index) : fail(VXP_FOLD_DIV_ZERO, index);
  case VXP_OP_EQ: return ok(x == y);
  case VXP_OP_NE: return ok(x != y);
  case VXP_OP_LT: return ok(x < y);
  case VXP_OP_GT: return ok(x > y);
  case VXP_OP_LE: return ok(x <= y);
  case VXP_OP_GE: return ok(x >= y);
  case VXP_OP_AND:
  case VXP_OP_OR: return ok(y != 0);
  case VXP_OP_BITAND:
  case VXP_OP_BITOR:
  case VXP_OP_BITXOR:
    /* Bitwise operators on negative values depend on a width the analysis does not
     * model; only non-negative operands fold. */
    if (x < 0 || y < 0) return fail(VXP_FOLD_UNKNOWN, index);
    if (op == VXP_OP_BITAND) return ok((i128)((uint64_t)x & (uint64_t)y));
    if (op == VXP_OP_BITOR) return ok((i128)((uint64_t)x | (uint64_t)y));
    return ok((i128)((uint64_t)x ^ (uint64_t)y));
  default: return fail(VXP_FOLD_UNKNOWN, index);
  }
}

static ival fold(folder *F, uint32_t index, unsigned chain, unsigned depth, bool sign) {
  const vxp_model *m = F->env->model;
  if (index == VXP_NONE || index >= m->cexprs.len) return fail(VXP_FOLD_UNKNOWN, index);
  if (depth > VXP__MAX_FOLD_DEPTH || ++F->steps > VXP__MAX_FOLD_STEPS)
    return fail(VXP_FOLD_LIMIT, index);
  const vxp_cexpr *cx = &m->cexprs.items[index];
  switch ((vxp_cexpr_kind)cx->kind) {
  case VXP_CX_INT:
  case VXP_CX_BOOL:
    return ok((i128)cx->value);
  case VXP_CX_BIGINT:
    return fail(VXP_FOLD_OVERFLOW, index);
  case VXP_CX_NAME:
    return fold_name(F, index, chain, depth, sign);
  case VXP_CX_UNARY: {
    bool not = cx->op == VXP_OP_NOT;
    ival a = fold(F, cx->lhs, chain, depth + 1, sign || not);
    if (a.status != VXP_FOLD_OK) return a;
    if (not) return ok(a.v == 0);
    return checked(-a.v, sign, index);
  }
  case VXP_CX_BINARY:
    return fold_binary(F, cx, index, chain, depth, sign);
  case VXP_CX_SELECT: {
    /* Only the arm the condition selects is folded, as comptime evaluation runs it. */
    ival c = fold(F, cx->lhs, chain, depth + 1, true);
    if (c.status != VXP_FOLD_OK) return c;
    return fold(F, c.v != 0 ? cx->rhs : cx->alt, chain, depth + 1, sign);
  }
  case VXP_CX_OPAQUE:
  default:
    return fail(VXP_FOLD_UNKNOWN, index);
  }
}

static vxp_fold finish(ival r) {
  vxp_fold f;
  f.status = r.status;
  f.culprit = r.status == VXP_FOLD_OK ? VXP_NONE : r.culprit;
  f.negative = r.status == VXP_FOLD_OK && r.v < 0;
  f.value = r.status != VXP_FOLD_OK ? 0 : (uint64_t)(r.v < 0 ? -r.v : r.v);
  return f;
}

vxp_fold vxp_consteval__fold(const vxp_const_env *env, uint32_t cexpr) {
  folder F;
  F.env = env;
  F.steps = 0;
  return finish(fold(&F, cexpr, 0, 0, false));
}

vxp_fold vxp_consteval__fold_signed(const vxp_const_env *env, uint32_t cexpr) {
  folder F;
  F.env = env;
  F.steps = 0;
  return finish(fold(&F, cexpr, 0, 0, true));
}

const char *vxp_consteval__explain(const vxp_const_env *env, vxp_fold f, char *buf,
                                   size_t size) {
  const vxp_model *m = env->model;
  if (f.culprit == VXP_NONE || f.culprit >= m->cexprs.len) {
    snprintf(buf, size, "it is not a compile-time constant");
    return buf;
  }
  const vxp_cexpr *cx = &m->cexprs.items[f.culprit];
  const char *name = cx->kind == VXP_CX_NAME ? vxp_strtab__str(&m->names, cx->name) : NULL;
  const vxp_const_binding *b = name ? vxp_consteval__binding(env, cx->name) : NULL;
  switch (f.status) {
  case VXP_FOLD_OVERFLOW:
    snprintf(buf, size, "its value does not fit in 64 bits");
    break;
  case VXP_FOLD_DIV_ZERO:
    snprintf(buf, size, "it divides by zero");
    break;
  case VXP_FOLD_NEGATIVE:
    if (b && b->negative)
      snprintf(buf, size, "the const-generic parameter '%s' is -%llu in this instance, and a "
               "size cannot be negative", name, (unsigned long long)b->value);
    else
      snprintf(buf, size, "an intermediate value is negative");
    break;
  case VXP_FOLD_CYCLE:
    snprintf(buf, size, "the const item '%s' is defined in terms of itself",
             vxp_strtab__str(&m->names, cx->name));
    break;
  case VXP_FOLD_LIMIT:
    snprintf(buf, size, "it is too deeply nested or too long to fold (vxpeak stops at %d "
             "levels and %d steps)", VXP__MAX_FOLD_DEPTH, VXP__MAX_FOLD_STEPS);
    break;
  default:
    if (b && b->unknown)
      snprintf(buf, size, "the const-generic parameter '%s' has no compile-time constant "
               "argument in this instance", name);
    else if (name)
      snprintf(buf, size, "'%s' is the runtime value of a variable, not a compile-time constant",
               name);
    else if (cx->kind == VXP_CX_OPAQUE && cx->reason == VXP_OPAQUE_DYNAMIC)
      snprintf(buf, size, "it is `?`, an extent known only at run time");
    else if (cx->kind == VXP_CX_OPAQUE && cx->reason == VXP_OPAQUE_FLOAT)
      snprintf(buf, size, "it is not an integer");
    else if (cx->kind == VXP_CX_OPAQUE && cx->reason == VXP_OPAQUE_CALL)
      snprintf(buf, size, "it is computed by a call at run time");
    else
      snprintf(buf, size, "it is not an expression vxpeak folds (integers, const items, "
               "const-generic arguments, + - * / %%, comparisons, and comptime blocks of "
               "lets ending in a value or an if)");
    break;
  }
  return buf;
}
