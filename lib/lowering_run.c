/* SPDX-License-Identifier: Apache-2.0 */
/* lowering_run.c - running a transfer lowering's count program with one analysis'
 * constants (see lowering_run.h). It lives in the analysis layer, apart from the recording
 * (lowering_count.c, at parse), because only an analysis knows what each constant is. */
#include "lowering_run.h"

#include "syntax.h"

typedef struct runner {
  const vxp_count_program *p;
  const vxp_const_env *env;
  uint64_t acc[4];
  bool exact;
} runner;

/* |v| < 2^64, as consteval keeps its intermediates. */
static bool in_range(i128 v) {
  i128 lim = (i128)UINT64_MAX;
  return v <= lim && v >= -lim;
}

/* Fold expression `i`; false when it does not fold (then *out is unspecified). */
static bool fold(const runner *R, uint32_t i, unsigned depth, i128 *out) {
  if (i == VXP_NONE || i >= R->p->expr_count || depth > VXP_MAX_NESTING) return false;
  const vxp_count_expr *e = &R->p->exprs[i];
  switch ((vxp_count_expr_kind)e->kind) {
  case VXP_COUNT_INT:
  case VXP_COUNT_BOOL: *out = (i128)e->value; return true;
  case VXP_COUNT_NAME: {
    const vxp_model *m = R->env->model;
    vxp_name name = vxp_strtab__find(&m->names, R->p->names + e->value, e->name_len);
    if (name == VXP_NAME_NONE) return false; /* the program has no such const item */
    vxp_fold f = vxp_consteval__const_value(R->env, name);
    if (f.status != VXP_FOLD_OK) return false;
    *out = f.negative ? -(i128)f.value : (i128)f.value;
    return true;
  }
  case VXP_COUNT_UNARY: {
    i128 a;
    if (!fold(R, e->lhs, depth + 1, &a)) return false;
    *out = e->op == VXP_OP_NOT ? (i128)(a == 0) : -a;
    return true;
  }
  case VXP_COUNT_BINARY: {
    i128 a, b;
    if (!fold(R, e->lhs, depth + 1, &a)) return false;
    /* && and || short-circuit, as consteval folds them. */
    if (e->op == VXP_OP_AND && a == 0) return *out = 0, true;
    if (e->op == VXP_OP_OR && a != 0) return *out = 1, true;
    if (!fold(R, e->rhs, depth + 1, &b)) return false;
    i128 v;
    switch ((vxp_cop)e->op) {
    case VXP_OP_ADD: v = a + b; break;
    case VXP_OP_SUB: v = a - b; break;
    case VXP_OP_MUL: {
      uint64_t ma = (uint64_t)(a < 0 ? -a : a), mb = (uint64_t)(b < 0 ? -b : b), mag;
      if (!vxp_mul_u64(ma, mb, &mag)) return false;
      v = ((a < 0) != (b < 0)) ? -(i128)mag : (i128)mag;
      break;
    }
    case VXP_OP_DIV:
      if (b == 0) return false;
      v = a / b;
      break;
    case VXP_OP_REM:
      if (b == 0) return false;
      v = a % b;
      break;
    case VXP_OP_EQ: v = a == b; break;
    case VXP_OP_NE: v = a != b; break;
    case VXP_OP_LT: v = a < b; break;
    case VXP_OP_GT: v = a > b; break;
    case VXP_OP_LE: v = a <= b; break;
    case VXP_OP_GE: v = a >= b; break;
    case VXP_OP_AND:
    case VXP_OP_OR: v = b != 0; break;
    default: return false;
    }
    if (!in_range(v)) return false;
    *out = v;
    return true;
  }
  case VXP_COUNT_UNKNOWN:
  default: return false;
  }
}

static const char *run_range(runner *R, uint32_t from, uint32_t to, uint64_t mult, unsigned depth);

/* The `k`-th ARM child of the BRANCH at `at`, or VXP_NONE. */
static uint32_t arm_of(const runner *R, uint32_t at, uint32_t k) {
  const vxp_count_node *n = R->p->nodes;
  for (uint32_t i = at + 1; i < n[at].end; i = n[i].end) {
    if (n[i].kind == VXP_COUNT_ARM && k-- == 0) return i;
  }
  return VXP_NONE;
}

static const char *run_branch(runner *R, uint32_t at, uint64_t mult, unsigned depth) {
  const vxp_count_node *n = R->p->nodes;
  i128 c;
  /* `if comptime` decides at compile time: only the arm it selects is emitted. */
  if (n[at].lo != VXP_NONE && fold(R, n[at].lo, 0, &c)) {
    uint32_t arm = arm_of(R, at, c != 0 ? 0 : 1);
    return arm == VXP_NONE ? NULL : run_range(R, arm + 1, n[arm].end, mult, depth + 1);
  }
  /* A run-time branch counts its largest arm per counter, inexact when the arms differ. */
  uint64_t entry[4], worst[4], first[4];
  memcpy(entry, R->acc, sizeof(entry));
  memcpy(worst, entry, sizeof(worst));
  bool any = false;
  for (uint32_t i = at + 1; i < n[at].end; i = n[i].end) {
    if (n[i].kind != VXP_COUNT_ARM) continue;
    memcpy(R->acc, entry, sizeof(entry));
    const char *why = run_range(R, i + 1, n[i].end, mult, depth + 1);
    if (why) return why;
    if (!any)
      memcpy(first, R->acc, sizeof(first));
    else if (memcmp(first, R->acc, sizeof(first)) != 0)
      R->exact = false;
    any = true;
    for (int k = 0; k < 4; k++)
      if (R->acc[k] > worst[k]) worst[k] = R->acc[k];
  }
  memcpy(R->acc, worst, sizeof(worst));
  return NULL;
}

static const char *run_range(runner *R, uint32_t from, uint32_t to, uint64_t mult, unsigned depth) {
  if (depth > VXP_MAX_NESTING) return "the body nests too deeply to be counted";
  const vxp_count_node *n = R->p->nodes;
  for (uint32_t i = from; i < to; i = n[i].end) {
    if (n[i].end <= i || n[i].end > to) return "the lowering's count was recorded malformed";
    switch ((vxp_count_kind)n[i].kind) {
    case VXP_COUNT_PRIM:
      if (n[i].slot > 3 || !vxp_add_u64(R->acc[n[i].slot], mult, &R->acc[n[i].slot]))
        return "the byte count overflows a 64-bit counter";
      break;
    case VXP_COUNT_FOR: {
      i128 lo, hi;
      if (!fold(R, n[i].lo, 0, &lo) || !fold(R, n[i].hi, 0, &hi))
        return "a loop bound is not statically known, so the number of times its body runs "
               "cannot be counted";
      uint64_t trips = hi > lo ? (uint64_t)(hi - lo) : 0, next;
      if (hi > lo && hi - lo > (i128)UINT64_MAX)
        return "the loop nest's trip count overflows a 64-bit counter";
      if (!vxp_mul_u64(mult, trips, &next))
        return "the loop nest's trip count overflows a 64-bit counter";
      const char *why = run_range(R, i + 1, n[i].end, next, depth + 1);
      if (why) return why;
      break;
    }
    case VXP_COUNT_BRANCH: {
      const char *why = run_branch(R, i, mult, depth);
      if (why) return why;
      break;
    }
    case VXP_COUNT_FAIL: return n[i].why;
    case VXP_COUNT_ARM:
    default: break; /* an ARM outside a BRANCH is never recorded */
    }
  }
  return NULL;
}

const char *vxp_count__run(const vxp_count_program *p, const vxp_const_env *env, uint64_t out[4],
                           bool *exact) {
  /* A lowering is not generic: the instance being analysed binds none of its names. */
  vxp_const_env global = *env;
  global.bindings = NULL;
  global.binding_count = 0;
  runner R;
  memset(&R, 0, sizeof(R));
  R.p = p;
  R.env = &global;
  R.exact = true;
  const char *why = run_range(&R, 0, p->node_count, 1, 0);
  if (why) return why;
  memcpy(out, R.acc, sizeof(R.acc));
  *exact = R.exact;
  return NULL;
}
