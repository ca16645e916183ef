/* SPDX-License-Identifier: Apache-2.0 */
/* lowering_bounds.c - the bounds of a lowering's `raw::` indices (E6018; see
 * lowering_bounds.h). */
#include "lowering_bounds.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "context.h"
#include "internal.h"
#include "syntax.h"
#include "source.h"
#include "symbols.h"

/* The values an index may take, as far as the facts vxc records decide them: a `let` of a
 * constant, a `for` range over constants. `exact` says the interval's ends are reached
 * by some run the facts allow (each variable used once, every part known), so an index
 * whose interval leaves the tile is refuted, not merely unproven. */
typedef struct ival {
  bool known;
  bool exact;
  int64_t lo, hi;
} ival;

static const ival UNKNOWN = {false, false, 0, 0};

/* What a name in scope stands for. */
typedef enum { BIND_VALUE, BIND_TILE, BIND_OTHER } bind_kind;

typedef struct binding {
  const char *name;
  uint32_t len;
  bind_kind kind;
  ival value;                    /* BIND_VALUE */
  const vxp_lowering_tile *tile; /* BIND_TILE: the parameter's declared tile */
  const char *param;             /* BIND_TILE: the parameter's name */
  uint32_t param_len;
  uint32_t let_start; /* a `let` that rebinds a parameter's name, or UINT32_MAX */
} binding;

typedef struct bounds_walk {
  vxp_context *ctx;
  const vxp_source *src;
  const vxp_symbols *S;
  const vxp_fields *F;
  vxp_diag_list *diags;
  int rc;
  Array(binding) scope;
  vxp_lowering_tile tiles[VXP_LOWERING_BOUND_TILES];
  unsigned unsafe_depth;
  unsigned branch_depth; /* inside an `if`/`match` arm: vxc may hold more facts there */
  bool has_extra_facts;  /* the function asserts or states invariants */
} bounds_walk;

static const binding *lookup(const bounds_walk *B, TSNode id) {
  if (!vxp_node__is(id, B->S->identifier)) return NULL;
  uint32_t len;
  const char *t = vxp_node__text(B->src->text, id, &len);
  for (size_t i = B->scope.len; i-- > 0;) {
    const binding *b = &B->scope.items[i];
    if (b->len == len && memcmp(b->name, t, len) == 0) return b;
  }
  return NULL;
}

static void bind(bounds_walk *B, binding b) {
  if (B->rc == VXP_OK && !array_push(B->ctx, &B->scope, b)) B->rc = VXP_ENOMEM;
}

static TSNode nth_arg(const bounds_walk *B, TSNode call, uint32_t k) {
  TSNode args = vxp_node__field(call, B->F->arguments);
  uint32_t seen = 0, count = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t i = 0; i < count; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (vxp_node__is(a, B->S->line_comment)) continue;
    if (seen++ == k) return a;
  }
  TSNode none = {{0}, 0, 0};
  return none;
}

static const char *raw_callee(const bounds_walk *B, TSNode call, uint32_t *len) {
  TSNode f = vxp_node__field(call, B->F->function);
  if (!vxp_node__is(f, B->S->scoped_identifier) ||
      !vxp_node__text_is(B->src->text, vxp_node__field(f, B->F->path), "raw"))
    return NULL;
  TSNode name = vxp_node__field(f, B->F->name);
  return ts_node_is_null(name) ? NULL : vxp_node__text(B->src->text, name, len);
}

static bool word(const char *s, uint32_t len, const char *w) {
  return s && strlen(w) == len && memcmp(s, w, len) == 0;
}

static bool tile_extent(const vxp_lowering_tile *t, uint64_t *out) {
  if (!t->is_tensor || !t->dims_static) return false;
  uint64_t n = 1;
  for (uint32_t i = 0; i < t->rank; i++)
    if (!vxp_mul_u64(n, t->dims[i], &n)) return false;
  *out = n;
  return true;
}

/* ------------------------------------------------------------------ intervals */

static ival point(int64_t v) { return (ival){true, true, v, v}; }

static bool add_ok(int64_t a, int64_t b, int64_t *out) {
  return !((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) && (*out = a + b, true);
}

static bool mul_ok(int64_t a, int64_t b, int64_t *out) {
  if (a == 0 || b == 0) return (*out = 0, true);
  if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN)) return false;
  if ((a > 0 && b > 0 && a > INT64_MAX / b) || (a < 0 && b < 0 && a < INT64_MAX / b) ||
      (a > 0 && b < 0 && b < INT64_MIN / a) || (a < 0 && b > 0 && a < INT64_MIN / b))
    return false;
  *out = a * b;
  return true;
}

/* The interval of `e`; names used are counted in `uses` to spot correlated ones. */
static ival eval(bounds_walk *B, TSNode e, const char **used, uint32_t *used_len, unsigned *n,
                 bool *repeated, unsigned depth);

static ival eval_binary(bounds_walk *B, TSNode e, const char **used, uint32_t *used_len,
                        unsigned *n, bool *repeated, unsigned depth) {
  ival a = eval(B, vxp_node__field(e, B->F->left), used, used_len, n, repeated, depth + 1);
  ival b = eval(B, vxp_node__field(e, B->F->right), used, used_len, n, repeated, depth + 1);
  if (!a.known || !b.known) return UNKNOWN;
  uint32_t len = 0;
  TSNode op = vxp_node__field(e, B->F->operator);
  const char *o = ts_node_is_null(op) ? "" : vxp_node__text(B->src->text, op, &len);
  ival r = {true, a.exact && b.exact, 0, 0};
  if (word(o, len, "+")) {
    if (!add_ok(a.lo, b.lo, &r.lo) || !add_ok(a.hi, b.hi, &r.hi)) return UNKNOWN;
    return r;
  }
  if (word(o, len, "-")) {
    if (b.lo == INT64_MIN || b.hi == INT64_MIN || !add_ok(a.lo, -b.hi, &r.lo) ||
        !add_ok(a.hi, -b.lo, &r.hi))
      return UNKNOWN;
    return r;
  }
  if (word(o, len, "*")) {
    int64_t c[4];
    if (!mul_ok(a.lo, b.lo, &c[0]) || !mul_ok(a.lo, b.hi, &c[1]) || !mul_ok(a.hi, b.lo, &c[2]) ||
        !mul_ok(a.hi, b.hi, &c[3]))
      return UNKNOWN;
    r.lo = r.hi = c[0];
    for (int i = 1; i < 4; i++) {
      if (c[i] < r.lo) r.lo = c[i];
      if (c[i] > r.hi) r.hi = c[i];
    }
    return r;
  }
  /* `x % k` and `x / k` for a nonnegative x and a positive constant k: a bound, not
   * necessarily reached. */
  if ((word(o, len, "%") || word(o, len, "/")) && a.lo >= 0 && b.lo == b.hi && b.lo > 0) {
    r.exact = false;
    if (o[0] == '%') {
      r.lo = 0;
      r.hi = a.hi < b.lo ? a.hi : b.lo - 1;
    } else {
      r.lo = a.lo / b.lo;
      r.hi = a.hi / b.lo;
    }
    return r;
  }
  return UNKNOWN;
}

static ival eval(bounds_walk *B, TSNode e, const char **used, uint32_t *used_len, unsigned *n,
                 bool *repeated, unsigned depth) {
  if (ts_node_is_null(e) || depth > VXP_MAX_NESTING) return UNKNOWN;
  const vxp_symbols *S = B->S;
  while (vxp_node__is(e, S->parenthesized_expression))
    e = ts_node_named_child(e, 0);
  if (vxp_node__is(e, S->cast_expression))
    return eval(B, vxp_node__field(e, B->F->value), used, used_len, n, repeated, depth + 1);
  if (vxp_node__is(e, S->number)) {
    uint32_t len;
    const char *t = vxp_node__text(B->src->text, e, &len);
    int64_t v = 0;
    uint32_t i = 0;
    for (; i < len && t[i] >= '0' && t[i] <= '9'; i++) {
      if (v > (INT64_MAX - (t[i] - '0')) / 10) return UNKNOWN;
      v = v * 10 + (t[i] - '0');
    }
    /* an integer literal, with an optional integer suffix (`7i64`) */
    if (i == 0 || (i < len && t[i] != 'i' && t[i] != 'u')) return UNKNOWN;
    return point(v);
  }
  if (vxp_node__is(e, S->unary_expression)) {
    TSNode op = vxp_node__field(e, B->F->operator);
    if (vxp_node__text_is(B->src->text, op, "-")) {
      ival v = eval(B, vxp_node__field(e, B->F->operand), used, used_len, n, repeated, depth + 1);
      if (!v.known || v.lo == INT64_MIN) return UNKNOWN;
      return (ival){true, v.exact, -v.hi, -v.lo};
    }
    return UNKNOWN;
  }
  if (vxp_node__is(e, S->identifier)) {
    uint32_t len;
    const char *t = vxp_node__text(B->src->text, e, &len);
    for (unsigned i = 0; i < *n; i++)
      if (used_len[i] == len && memcmp(used[i], t, len) == 0) *repeated = true;
    if (*n < 16) {
      used[*n] = t;
      used_len[(*n)++] = len;
    } else {
      *repeated = true; /* too many to tell apart: not exact */
    }
    const binding *b = lookup(B, e);
    return b && b->kind == BIND_VALUE ? b->value : UNKNOWN;
  }
  if (vxp_node__is(e, S->binary_expression))
    return eval_binary(B, e, used, used_len, n, repeated, depth);
  if (vxp_node__is(e, S->call_expression)) {
    uint32_t len = 0;
    const char *prim = raw_callee(B, e, &len);
    if (word(prim, len, "extent")) {
      const binding *b = lookup(B, nth_arg(B, e, 0));
      uint64_t ext;
      if (b && b->kind == BIND_TILE && tile_extent(b->tile, &ext) && ext <= (uint64_t)INT64_MAX)
        return point((int64_t)ext);
    }
    return UNKNOWN; /* raw::lane()/lanes() and other calls: a run-time value */
  }
  return UNKNOWN;
}

static ival eval_index(bounds_walk *B, TSNode e, bool *exact) {
  const char *used[16];
  uint32_t used_len[16];
  unsigned n = 0;
  bool repeated = false;
  ival v = eval(B, e, used, used_len, &n, &repeated, 0);
  *exact = v.known && v.exact && !repeated;
  return v;
}

/* ------------------------------------------------------------------ obligations */

static void report(bounds_walk *B, vxp_severity sev, const char *code, TSNode at, const char *fmt,
                   ...) VXP__PRINTF(5, 6);

static void report(bounds_walk *B, vxp_severity sev, const char *code, TSNode at, const char *fmt,
                   ...) {
  if (B->rc != VXP_OK) return;
  va_list ap;
  va_start(ap, fmt);
  if (!vxp_diag__vadd(B->ctx, B->diags, sev, code, B->src, ts_node_start_byte(at),
                      ts_node_end_byte(at), fmt, ap))
    B->rc = VXP_ENOMEM;
  va_end(ap);
}

/* The tile argument `arg` of a primitive: the parameter it names, through `let`s that
 * rebind the name to another parameter. NULL when it is none (E6017 is raw_primitives.c's),
 * after E6017 for a name a `let` rebound to a plain value (vxc types the argument as the
 * `let` made it). */
static const binding *tile_of(bounds_walk *B, TSNode call, TSNode arg, const char *prim,
                              uint32_t plen) {
  const binding *b = lookup(B, arg);
  if (!b) return NULL;
  if (b->kind == BIND_VALUE && b->let_start != UINT32_MAX) {
    report(B, VXP_SEVERITY_ERROR, "E6017", call,
           "`%.*s` is not a tile here: the `let` before it rebinds the lowering's parameter to "
           "a value that is not a tensor, and `raw::%.*s` needs a tensor-typed parameter",
           (int)b->len, b->name, (int)plen, prim);
    return NULL;
  }
  return b->kind == BIND_TILE ? b : NULL;
}

static void obligation(bounds_walk *B, TSNode call, const char *prim, uint32_t plen, TSNode index,
                       const binding *t) {
  uint64_t extent;
  bool in_unsafe = B->unsafe_depth > 0;
  if (!tile_extent(t->tile, &extent)) {
    report(B, in_unsafe ? VXP_SEVERITY_WARNING : VXP_SEVERITY_ERROR,
           in_unsafe ? "VXP0045" : "E6018", call,
           "the extent of `%.*s` is not static, so the bounds of `raw::%.*s` cannot be "
           "proven%s",
           (int)t->len, t->name, (int)plen, prim,
           in_unsafe ? "; asserted, not proven (unsafe)" : "");
    return;
  }
  bool exact;
  ival v = eval_index(B, index, &exact);
  if (v.known && v.lo >= 0 && (uint64_t)v.hi < extent) return; /* proven */
  if (in_unsafe) {
    report(B, VXP_SEVERITY_WARNING, "VXP0045", call,
           "the index of `raw::%.*s` into `%.*s` (needs 0 <= index < %" PRIu64
           ") is asserted, not proven (unsafe)",
           (int)plen, prim, (int)t->len, t->name, extent);
    return;
  }
  /* Refuted: every fact is one vxc records too, and some run they allow leaves the tile. */
  if (exact && B->branch_depth == 0 && !B->has_extra_facts) {
    report(B, VXP_SEVERITY_ERROR, "E6018", call,
           "cannot prove the index of `raw::%.*s` stays inside `%.*s` (needs 0 <= index < "
           "%" PRIu64 "; it can be %" PRId64 "). Prove it with a loop bound or invariant, or "
           "assert it in an `unsafe` block",
           (int)plen, prim, (int)t->len, t->name, extent, v.lo < 0 ? v.lo : v.hi);
    return;
  }
  report(B, VXP_SEVERITY_WARNING, "VXP0045", call,
         "vxpeak cannot decide whether the index of `raw::%.*s` stays inside `%.*s` (needs 0 <= "
         "index < %" PRIu64 "): vxc discharges this with an SMT solver over the facts in "
         "scope, and vxpeak decides only constant lets and `for` ranges",
         (int)plen, prim, (int)t->len, t->name, extent);
}

static void check_call(bounds_walk *B, TSNode call) {
  uint32_t plen = 0;
  const char *prim = raw_callee(B, call, &plen);
  if (!prim) return;
  if (word(prim, plen, "load") || word(prim, plen, "store")) {
    const binding *t = tile_of(B, call, nth_arg(B, call, 0), prim, plen);
    if (t) obligation(B, call, prim, plen, nth_arg(B, call, 1), t);
    /* A store through a rebinding of another, read-only parameter. */
    if (t && word(prim, plen, "store") && t->let_start != UINT32_MAX && !t->tile->is_mut_ref)
      report(B, VXP_SEVERITY_ERROR, "E6017", call,
             "`raw::store` writes into `%.*s`, which the `let` before it rebinds to `%.*s`, "
             "held by `&`, not `&mut`",
             (int)t->len, t->name, (int)t->param_len, t->param);
  } else if (word(prim, plen, "async_copy")) {
    for (uint32_t k = 0; k < 2; k++) {
      const binding *t = tile_of(B, call, nth_arg(B, call, k), prim, plen);
      if (t) obligation(B, call, prim, plen, nth_arg(B, call, 2), t);
    }
  }
}

/* ------------------------------------------------------------------ the walk */

/* What reassigns() looks for: an assignment to the name (or to something it cannot name). */
typedef struct assigned_name {
  const bounds_walk *B;
  const char *text;
  uint32_t len;
} assigned_name;

static bool assigns(TSNode x, const void *data) {
  const assigned_name *A = data;
  const bounds_walk *B = A->B;
  if (!vxp_node__is(x, B->S->assignment_statement) &&
      !vxp_node__is(x, B->S->compound_assignment_statement))
    return false;
  TSNode left = vxp_node__field(x, B->F->left);
  while (vxp_node__is(left, B->S->index_expression) || vxp_node__is(left, B->S->field_expression))
    left = ts_node_named_child(left, 0);
  uint32_t ll;
  const char *lt =
      vxp_node__is(left, B->S->identifier) ? vxp_node__text(B->src->text, left, &ll) : NULL;
  return !lt || (ll == A->len && memcmp(lt, A->text, A->len) == 0);
}

static bool reassigns(const bounds_walk *B, TSNode body, TSNode name) {
  assigned_name A = {B, NULL, 0};
  A.text = vxp_node__text(B->src->text, name, &A.len);
  return !ts_node_is_null(vxp_node__find(body, assigns, &A));
}

static void walk(bounds_walk *B, TSNode n, unsigned depth);

static void walk_children(bounds_walk *B, TSNode n, unsigned depth) {
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count && B->rc == VXP_OK; i++)
    walk(B, ts_node_named_child(n, i), depth + 1);
}

static void walk_let(bounds_walk *B, TSNode n, unsigned depth) {
  TSNode value = vxp_node__field(n, B->F->value);
  walk(B, value, depth + 1);
  TSNode name = vxp_node__field(n, B->F->name);
  if (ts_node_is_null(name)) return; /* a tuple: its names are not indices vxc decides */
  binding b;
  memset(&b, 0, sizeof(b));
  b.name = vxp_node__text(B->src->text, name, &b.len);
  b.let_start = UINT32_MAX;
  const binding *shadowed = lookup(B, name);
  const binding *alias = lookup(B, value);
  if (alias && alias->kind == BIND_TILE) {
    b = *alias; /* `let d2 = dst`: the same tile under another name */
    b.name = vxp_node__text(B->src->text, name, &b.len);
    b.let_start = ts_node_start_byte(n);
  } else if (ts_node_is_null(vxp_node__field(n, B->F->mutable))) {
    bool exact;
    b.kind = BIND_VALUE;
    b.value = eval_index(B, value, &exact);
    b.value.exact = exact;
  } else {
    b.kind = BIND_OTHER; /* a `let mut`: vxc records no fact that survives its writes */
  }
  /* A `let` that rebinds a parameter's name to something that is plainly no tensor. */
  if (b.kind == BIND_VALUE && shadowed && shadowed->kind == BIND_TILE &&
      (vxp_node__is(value, B->S->number) || vxp_node__is(value, B->S->boolean) ||
       vxp_node__is(value, B->S->string)))
    b.let_start = ts_node_start_byte(n);
  bind(B, b);
}

static void walk_for(bounds_walk *B, TSNode n, unsigned depth) {
  TSNode var = vxp_node__field(n, B->F->variable), iter = vxp_node__field(n, B->F->iterable),
         body = vxp_node__field(n, B->F->body);
  walk(B, iter, depth + 1);
  while (vxp_node__is(iter, B->S->parenthesized_expression))
    iter = ts_node_named_child(iter, 0);
  binding b;
  memset(&b, 0, sizeof(b));
  b.kind = BIND_OTHER;
  b.let_start = UINT32_MAX;
  if (ts_node_is_null(var)) return;
  b.name = vxp_node__text(B->src->text, var, &b.len);
  if (vxp_node__is(iter, B->S->range_expression) && !reassigns(B, body, var)) {
    bool ea, eb;
    ival a = eval_index(B, vxp_node__field(iter, B->F->start), &ea);
    ival e = eval_index(B, vxp_node__field(iter, B->F->end), &eb);
    if (a.known && e.known && e.lo > a.hi && e.lo != INT64_MIN) {
      /* a <= i < b: i runs over [a.lo, b.hi - 1]; its ends are reached when both bounds
       * are points (an empty range runs the body never: nothing to check). */
      b.kind = BIND_VALUE;
      b.value = (ival){true, ea && eb && a.lo == a.hi && e.lo == e.hi, a.lo, e.hi - 1};
    }
  }
  size_t mark = B->scope.len;
  bind(B, b);
  walk(B, body, depth + 1);
  B->scope.len = mark;
}

static void walk(bounds_walk *B, TSNode n, unsigned depth) {
  if (ts_node_is_null(n) || B->rc != VXP_OK || depth > VXP_MAX_NESTING) return;
  const vxp_symbols *S = B->S;
  TSSymbol sym = ts_node_symbol(n);
  if (sym == S->let_declaration) {
    walk_let(B, n, depth);
    return;
  }
  if (sym == S->for_statement) {
    walk_for(B, n, depth);
    return;
  }
  if (sym == S->closure_expression) return; /* E6017 refuses primitives there */
  size_t mark = B->scope.len;
  bool branch = sym == S->if_expression || sym == S->match_expression ||
                sym == S->while_statement || sym == S->loop_statement;
  bool unsafe_block = sym == S->unsafe_block;
  B->branch_depth += branch;
  B->unsafe_depth += unsafe_block;
  if (sym == S->call_expression) {
    walk_children(B, n, depth);
    check_call(B, n);
  } else {
    walk_children(B, n, depth);
  }
  B->branch_depth -= branch;
  B->unsafe_depth -= unsafe_block;
  if (sym == S->block) B->scope.len = mark;
}

/* Whether the function states facts vxc's prover may use and this walk does not model. */
static bool is_fact(TSNode x, const void *data) {
  const bounds_walk *B = data;
  return vxp_node__is(x, B->S->assert_statement) || vxp_node__is(x, B->S->invariant_clause);
}

static bool extra_facts(const bounds_walk *B, TSNode fn) {
  return !ts_node_is_null(vxp_node__find(fn, is_fact, B));
}

int vxp_lowering__check_bounds(vxp_context *ctx, const vxp_source *src, TSNode item,
                               vxp_diag_list *diags) {
  bounds_walk B;
  memset(&B, 0, sizeof(B));
  B.ctx = ctx;
  B.src = src;
  B.S = &ctx->syms;
  B.F = &ctx->fields;
  B.diags = diags;
  B.rc = VXP_OK;
  TSNode body = vxp_node__field(item, B.F->body);
  uint32_t count = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
  for (uint32_t i = 0; i < count && B.rc == VXP_OK; i++) {
    TSNode fn = ts_node_named_child(body, i);
    if (!vxp_node__is(fn, B.S->function_item)) continue;
    B.scope.len = 0;
    B.has_extra_facts = extra_facts(&B, fn);
    TSNode params = vxp_node__field(fn, B.F->parameters);
    uint32_t pc = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
    uint32_t k = 0;
    for (uint32_t p = 0; p < pc && B.rc == VXP_OK; p++) {
      TSNode param = ts_node_named_child(params, p);
      if (!vxp_node__is(param, B.S->parameter)) continue;
      TSNode name = vxp_node__field(param, B.F->name);
      if (ts_node_is_null(name) || k >= VXP_LOWERING_BOUND_TILES) continue;
      vxp_lowering__read_tile(ctx, src, vxp_node__field(param, B.F->type), &B.tiles[k]);
      binding b;
      memset(&b, 0, sizeof(b));
      b.name = vxp_node__text(B.src->text, name, &b.len);
      b.kind = B.tiles[k].is_tensor ? BIND_TILE : BIND_OTHER;
      b.tile = &B.tiles[k];
      b.param = b.name;
      b.param_len = b.len;
      b.let_start = UINT32_MAX;
      bind(&B, b);
      k++;
    }
    walk(&B, vxp_node__field(fn, B.F->body), 0);
  }
  array_free(ctx, &B.scope);
  return B.rc;
}
