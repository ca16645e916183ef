/* SPDX-License-Identifier: Apache-2.0 */
/* consteval.c - fold constant expressions without ever wrapping: every operation is
 * checked, and an expression that is not exactly an integer within 64 bits (non-negative,
 * for a size) is reported as unknown with the sub-expression responsible. */
#include "consteval.h"

#include <stdio.h>
#include <stdlib.h>

#include "arena.h"
#include "array.h"

/* Const items may refer to each other; a chain of more distinct items than this is not
 * followed (a cycle is found exactly, by the items on the chain). */
#define VXP__MAX_CONST_CHAIN 256
/* Guards against hostile inputs: the expressions form a DAG (comptime `let`s and const
 * items are shared), so both the depth and the number of steps of one fold are bounded. */
#define VXP__MAX_FOLD_DEPTH 512
#define VXP__MAX_FOLD_STEPS 1000000

#define MAG_MAX ((i128)UINT64_MAX)

/* One const item's folds, unsigned [0] and signed [1]. */
typedef enum slot_state { SLOT_UNFOLDED = 0, SLOT_FOLDING, SLOT_DONE } slot_state;

typedef struct const_slot {
  uint8_t state[2]; /* slot_state */
  vxp_fold result[2];
} const_slot;

/* Invariant: by_name lists every const item index sorted by (name, index), so that the
 * first declaration of a name is found first, as the linear lookup did. */
struct vxp_const_table {
  size_t count;
  uint32_t *by_name;
  const_slot *slots; /* by const item index */
};

typedef struct folder {
  const vxp_const_env *env;
  unsigned steps;
  vxp_const_table *building;          /* the table being filled, or NULL */
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

static ival from_fold(vxp_fold f) {
  ival r;
  r.status = f.status;
  r.culprit = f.culprit;
  r.v = f.negative ? -(i128)f.value : (i128)f.value;
  return r;
}

static vxp_fold finish(ival r);

/* The first const item named `name` in `table`, or -1. */
static long find_item(const vxp_model *m, const vxp_const_table *table, vxp_name name) {
  size_t lo = 0, hi = table->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m->consts.items[table->by_name[mid]].name < name)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < table->count && m->consts.items[table->by_name[lo]].name == name
             ? (long)table->by_name[lo]
             : -1;
}

/* A const item through the table: its cached fold, or (while the table is being built)
 * fold it now and keep the result unless a guard stopped it, so that a later pass can
 * finish it from the items it needs. */
static ival fold_item(folder *F, const vxp_const_table *table, vxp_name name, uint32_t index,
                      unsigned chain, unsigned depth, bool sign) {
  const vxp_model *m = F->env->model;
  long item = find_item(m, table, name);
  if (item < 0) return fail(VXP_FOLD_UNKNOWN, index);
  const_slot *slot = &table->slots[item];
  int mode = sign ? 1 : 0;
  if (slot->state[mode] == SLOT_DONE) return from_fold(slot->result[mode]);
  if (slot->state[mode] == SLOT_FOLDING) return fail(VXP_FOLD_CYCLE, index);
  if (chain >= VXP__MAX_CONST_CHAIN) return fail(VXP_FOLD_LIMIT, index);
  F->items[chain] = (size_t)item;
  /* Const items are global: they never see an instance's bindings. */
  folder inner = *F;
  vxp_const_env global = *F->env;
  global.bindings = NULL;
  global.binding_count = 0;
  inner.env = &global;
  if (F->building) slot->state[mode] = SLOT_FOLDING;
  ival r = fold(&inner, m->consts.items[item].value, chain + 1, depth + 1, sign);
  F->steps = inner.steps;
  if (F->building) {
    bool keep = r.status != VXP_FOLD_LIMIT;
    slot->state[mode] = keep ? SLOT_DONE : SLOT_UNFOLDED;
    if (keep) slot->result[mode] = finish(r);
  }
  return r;
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
  const vxp_const_table *table = F->building ? F->building : env->consts;
  if (table) return fold_item(F, table, name, index, chain, depth, sign);
  for (size_t i = 0; i < m->consts.len; i++) {
    if (m->consts.items[i].name != name) continue;
    for (unsigned k = 0; k < chain; k++) {
      if (F->items[k] == i) return fail(VXP_FOLD_CYCLE, index);
    }
    if (chain >= VXP__MAX_CONST_CHAIN) return fail(VXP_FOLD_LIMIT, index);
    F->items[chain] = i;
    /* Const items are global: they never see an instance's bindings. */
    folder inner = *F;
    vxp_const_env global = *env;
    global.bindings = NULL;
    global.binding_count = 0;
    inner.env = &global;
    ival r = fold(&inner, m->consts.items[i].value, chain + 1, depth + 1, sign);
    F->steps = inner.steps;
    return r;
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
  case VXP_CX_BOOL: return ok((i128)cx->value);
  case VXP_CX_BIGINT: return fail(VXP_FOLD_OVERFLOW, index);
  case VXP_CX_NAME: return fold_name(F, index, chain, depth, sign);
  case VXP_CX_UNARY: {
    bool not = cx->op == VXP_OP_NOT;
    ival a = fold(F, cx->lhs, chain, depth + 1, sign || not );
    if (a.status != VXP_FOLD_OK) return a;
    if (not ) return ok(a.v == 0);
    return checked(-a.v, sign, index);
  }
  case VXP_CX_BINARY: return fold_binary(F, cx, index, chain, depth, sign);
  case VXP_CX_SELECT: {
    /* Only the arm the condition selects is folded, as comptime evaluation runs it. */
    ival c = fold(F, cx->lhs, chain, depth + 1, true);
    if (c.status != VXP_FOLD_OK) return c;
    return fold(F, c.v != 0 ? cx->rhs : cx->alt, chain, depth + 1, sign);
  }
  case VXP_CX_REACHABLE: {
    int r = F->env->reachable ? F->env->reachable(F->env->reach_data, cx) : -1;
    return r < 0 ? fail(VXP_FOLD_UNKNOWN, index) : ok(r > 0);
  }
  case VXP_CX_OPAQUE:
  default: return fail(VXP_FOLD_UNKNOWN, index);
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
  F.building = NULL;
  return finish(fold(&F, cexpr, 0, 0, false));
}

vxp_fold vxp_consteval__fold_signed(const vxp_const_env *env, uint32_t cexpr) {
  folder F;
  F.env = env;
  F.steps = 0;
  F.building = NULL;
  return finish(fold(&F, cexpr, 0, 0, true));
}

/* ------------------------------------------------------------------ the const table */

vxp_const_table *vxp_consteval__table_build(vxp_context *ctx, vxp_arena *arena,
                                            const vxp_const_env *env) {
  const vxp_model *m = env->model;
  vxp_const_table *table = vxp_arena__alloc(ctx, arena, sizeof(*table));
  if (!table) return NULL;
  table->count = m->consts.len;
  if (table->count > SIZE_MAX / sizeof(const_slot)) return NULL;
  table->by_name = vxp_arena__alloc(ctx, arena, table->count * sizeof(uint32_t));
  table->slots = vxp_arena__alloc(ctx, arena, table->count * sizeof(const_slot));
  if (!table->by_name || !table->slots) return NULL; /* what was made is the arena's */
  /* Sort the indices by (name, index): a stable bottom-up merge sort (qsort would need
   * the model through a global, and the library keeps no mutable static state). */
  for (size_t i = 0; i < table->count; i++)
    table->by_name[i] = (uint32_t)i;
  uint32_t *tmp = NULL;
  if (table->count > 1 && !(tmp = vxp_ctx__calloc(ctx, table->count, sizeof(uint32_t))))
    return NULL;
  for (size_t width = 1; width < table->count; width *= 2) {
    for (size_t lo = 0; lo < table->count; lo += 2 * width) {
      size_t mid = lo + width < table->count ? lo + width : table->count;
      size_t hi = lo + 2 * width < table->count ? lo + 2 * width : table->count;
      size_t a = lo, b = mid, o = lo;
      while (a < mid || b < hi) {
        bool take_a = b >= hi || (a < mid && m->consts.items[table->by_name[a]].name <=
                                                 m->consts.items[table->by_name[b]].name);
        tmp[o++] = take_a ? table->by_name[a++] : table->by_name[b++];
      }
    }
    memcpy(table->by_name, tmp, table->count * sizeof(uint32_t));
  }
  vxp_ctx__free(ctx, tmp);
  /* Fold every item in both modes. A pass in declaration order finishes chains written
   * top-down in one step per item; the reverse pass those written bottom-up; a few more
   * passes finish what a guard stopped, from the items done meanwhile. */
  vxp_const_env global = *env;
  global.bindings = NULL;
  global.binding_count = 0;
  global.consts = NULL;
  for (int pass = 0; pass < 8; pass++) {
    bool progress = false, pending = false;
    for (size_t k = 0; k < table->count; k++) {
      size_t i = (pass % 2 == 0) ? k : table->count - 1 - k;
      for (int mode = 0; mode < 2; mode++) {
        if (table->slots[i].state[mode] == SLOT_DONE) continue;
        folder F;
        F.env = &global;
        F.steps = 0;
        F.building = table;
        (void)fold_item(&F, table, m->consts.items[i].name, m->consts.items[i].value, 0, 0,
                        mode == 1);
        /* fold_item looks the name up: a later item of the same name is never used, so
         * mark it done with the first one's result. */
        long first = find_item(m, table, m->consts.items[i].name);
        if (first >= 0 && (size_t)first != i && table->slots[first].state[mode] == SLOT_DONE) {
          table->slots[i].state[mode] = SLOT_DONE;
          table->slots[i].result[mode] = table->slots[first].result[mode];
        }
        if (table->slots[i].state[mode] == SLOT_DONE)
          progress = true;
        else
          pending = true;
      }
    }
    if (!pending || !progress) break;
  }
  return table;
}

void vxp_consteval__explain(vxp_context *ctx, const vxp_const_env *env, vxp_fold f, vxp_sb *sb) {
  const vxp_model *m = env->model;
  if (f.culprit == VXP_NONE || f.culprit >= m->cexprs.len) {
    vxp_sb__puts(ctx, sb, "it is not a compile-time constant");
    return;
  }
  const vxp_cexpr *cx = &m->cexprs.items[f.culprit];
  const char *name = cx->kind == VXP_CX_NAME ? vxp_strtab__str(&m->names, cx->name) : NULL;
  const vxp_const_binding *b = name ? vxp_consteval__binding(env, cx->name) : NULL;
  switch (f.status) {
  case VXP_FOLD_OVERFLOW: vxp_sb__printf(ctx, sb, "its value does not fit in 64 bits"); break;
  case VXP_FOLD_DIV_ZERO: vxp_sb__printf(ctx, sb, "it divides by zero"); break;
  case VXP_FOLD_NEGATIVE:
    if (b && b->negative)
      vxp_sb__printf(ctx, sb,
                     "the const-generic parameter '%s' is -%llu in this instance, and a "
                     "size cannot be negative",
                     name, (unsigned long long)b->value);
    else
      vxp_sb__printf(ctx, sb, "an intermediate value is negative");
    break;
  case VXP_FOLD_CYCLE:
    vxp_sb__printf(ctx, sb, "the const item '%s' is defined in terms of itself",
                   vxp_strtab__str(&m->names, cx->name));
    break;
  case VXP_FOLD_LIMIT:
    vxp_sb__printf(ctx, sb,
                   "it is too deeply nested or too long to fold (vxpeak stops at %d "
                   "levels and %d steps)",
                   VXP__MAX_FOLD_DEPTH, VXP__MAX_FOLD_STEPS);
    break;
  default:
    if (b && b->unknown)
      vxp_sb__printf(ctx, sb,
                     "the const-generic parameter '%s' has no compile-time constant "
                     "argument in this instance",
                     name);
    else if (name)
      vxp_sb__printf(ctx, sb,
                     "'%s' is the runtime value of a variable, not a compile-time constant", name);
    else if (cx->kind == VXP_CX_OPAQUE && cx->reason == VXP_OPAQUE_DYNAMIC)
      vxp_sb__printf(ctx, sb, "it is `?`, an extent known only at run time");
    else if (cx->kind == VXP_CX_OPAQUE && cx->reason == VXP_OPAQUE_FLOAT)
      vxp_sb__printf(ctx, sb, "it is not an integer");
    else if (cx->kind == VXP_CX_OPAQUE && cx->reason == VXP_OPAQUE_CALL)
      vxp_sb__printf(ctx, sb, "it is computed by a call at run time");
    else
      vxp_sb__printf(ctx, sb,
                     "it is not an expression vxpeak folds (integers, const items, "
                     "const-generic arguments, + - * / %%, comparisons, and comptime blocks of "
                     "lets ending in a value or an if)");
    break;
  }
}

vxp_fold vxp_consteval__const_value(const vxp_const_env *env, vxp_name name) {
  vxp_fold f = {VXP_FOLD_UNKNOWN, 0, VXP_NONE, false};
  for (size_t i = 0; i < env->override_count; i++) {
    if (env->overrides[i].name != name) continue;
    f.status = VXP_FOLD_OK;
    f.value = env->overrides[i].value;
    return f;
  }
  const vxp_model *m = env->model;
  if (env->consts) {
    long item = find_item(m, env->consts, name);
    if (item < 0) return f;
    const const_slot *slot = &env->consts->slots[item];
    if (slot->state[1] == SLOT_DONE) return slot->result[1];
    return vxp_consteval__fold_signed(env, m->consts.items[item].value);
  }
  for (size_t i = 0; i < m->consts.len; i++)
    if (m->consts.items[i].name == name)
      return vxp_consteval__fold_signed(env, m->consts.items[i].value);
  return f;
}
