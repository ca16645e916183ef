/* SPDX-License-Identifier: Apache-2.0 */
/* lowering_body.c - what a transfer lowering's body declares and moves, read once with the
 * declarations (see lowering_body.h). */
#include "lowering_body.h"

#include <string.h>

#include "context.h"
#include "internal.h"
#include "syntax.h"
#include "lowering_count.h"
#include "source.h"
#include "symbols.h"

typedef struct body_reader {
  const vxp_source *src;
  const vxp_symbols *S;
  const vxp_fields *F;
  /* the first function's source and destination parameter names */
  const char *src_name, *dst_name;
  uint32_t src_len, dst_len;
  uint64_t src_extent, dst_extent;
  /* the names the function binds (collect_locals) */
  struct {
    const char *text;
    uint32_t len;
  } locals[128];
  uint32_t local_count;
  bool locals_overflow;
  vxp_count_builder out; /* the traffic's count program */
} body_reader;

/* An unsigned decimal integer literal (vxc reads a dimension or a bound only when it is
 * one); false otherwise or past 64 bits. */
static bool literal_u64(const body_reader *B, TSNode n, uint64_t *out) {
  if (!vxp_node__is(n, B->S->number)) return false;
  uint32_t len;
  const char *t = vxp_node__text(B->src->text, n, &len);
  if (len == 0) return false;
  uint64_t v = 0;
  for (uint32_t i = 0; i < len; i++) {
    if (t[i] < '0' || t[i] > '9') return false;
    if (!vxp_mul_u64(v, 10, &v) || !vxp_add_u64(v, (uint64_t)(t[i] - '0'), &v)) return false;
  }
  *out = v;
  return true;
}

/* The `raw::NAME` a call calls: NAME's text, or NULL when the call is not a primitive's. */
static const char *raw_callee(const body_reader *B, TSNode call, uint32_t *len) {
  TSNode f = vxp_node__field(call, B->F->function);
  if (!vxp_node__is(f, B->S->scoped_identifier) ||
      !vxp_node__text_is(B->src->text, vxp_node__field(f, B->F->path), "raw"))
    return NULL;
  TSNode name = vxp_node__field(f, B->F->name);
  return ts_node_is_null(name) ? NULL : vxp_node__text(B->src->text, name, len);
}

static bool raw_is(const char *name, uint32_t len, const char *word) {
  return name && strlen(word) == len && memcmp(name, word, len) == 0;
}

static TSNode nth_arg(const body_reader *B, TSNode call, uint32_t k) {
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

/* Whether the subtree calls a `raw::` primitive. Iterative: bodies nest arbitrarily. */
static bool is_raw_call(TSNode x, const void *data) {
  const body_reader *B = data;
  uint32_t len;
  return vxp_node__is(x, B->S->call_expression) && raw_callee(B, x, &len);
}

static bool calls_raw(const body_reader *B, TSNode n) {
  return !ts_node_is_null(vxp_node__find(n, is_raw_call, B));
}

/* ------------------------------------------------------------------ declared tiles */

void vxp_lowering__read_tile(vxp_context *ctx, const vxp_source *src, TSNode type,
                             vxp_lowering_tile *t) {
  body_reader R;
  memset(&R, 0, sizeof(R));
  R.src = src;
  R.S = &ctx->syms;
  R.F = &ctx->fields;
  const body_reader *B = &R;
  memset(t, 0, sizeof(*t));
  t->elem = VXP_ELEM_UNKNOWN;
  if (vxp_node__is(type, B->S->reference_type)) {
    t->is_mut_ref = !ts_node_is_null(vxp_node__field(type, B->F->mutable));
    type = vxp_node__field(type, B->F->type);
  }
  if (!vxp_node__is(type, B->S->tensor_type)) return;
  t->is_tensor = true;
  TSNode elem = vxp_node__field(type, B->F->element);
  if (!ts_node_is_null(elem)) {
    uint32_t len;
    const char *e = vxp_node__text(B->src->text, elem, &len);
    t->elem = (uint8_t)vxp_elem__from_name(e, len);
  }
  TSNode shape = vxp_node__field(type, B->F->dims);
  if (ts_node_is_null(shape)) return;
  t->dims_static = true;
  uint32_t count = ts_node_named_child_count(shape);
  for (uint32_t i = 0; i < count; i++) {
    TSNode d = ts_node_named_child(shape, i);
    if (vxp_node__is(d, B->S->line_comment)) continue;
    uint64_t v;
    if (t->rank >= VXP_LOWERING_MAX_RANK || !literal_u64(B, d, &v)) {
      t->dims_static = false;
      return;
    }
    t->dims[t->rank++] = v;
  }
}

/* The element count of a tile whose every dimension is a literal (0 dims: one element). */
static bool tile_extent(const vxp_lowering_tile *t, uint64_t *out) {
  if (!t->is_tensor || !t->dims_static) return false;
  uint64_t n = 1;
  for (uint32_t i = 0; i < t->rank; i++)
    if (!vxp_mul_u64(n, t->dims[i], &n)) return false;
  *out = n;
  return true;
}

/* ------------------------------------------------------------------ traffic
 *
 * vxc counts a lowering's traffic from its body: every raw::load, raw::store and
 * raw::async_copy moves one element of the tile it names, times the trip counts of the
 * static loops around it; anything that makes a count a guess (a bound that is not
 * static, an unbounded loop, `break`/`continue`) is a reason, never a number. A branch
 * counts its largest arm per space and makes the figure inexact when the arms differ; an
 * `if comptime` whose condition folds keeps only the arm it selects.
 *
 * A loop bound or a comptime condition may name a `const` item, whose value `-D` sets per
 * analysis, so the body is recorded here as a count program (lowering_count.h) that each
 * analysis runs with its own constants. What makes a count a guess is recorded where it
 * is met (a FAIL step): it matters only when the run reaches it, and a comptime arm the
 * condition discards is never reached. */

static void count_node(body_reader *B, TSNode n, unsigned depth);

static void count_children(body_reader *B, TSNode n, unsigned depth) {
  uint32_t count = ts_node_is_null(n) ? 0 : ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++)
    count_node(B, ts_node_named_child(n, i), depth + 1);
}

static void fail(body_reader *B, const char *why) {
  vxp_count_node f;
  memset(&f, 0, sizeof(f));
  f.kind = VXP_COUNT_FAIL;
  f.lo = f.hi = VXP_NONE;
  f.why = why;
  vxp_count__leaf(&B->out, f);
}

static void prim(body_reader *B, int slot) {
  vxp_count_node p;
  memset(&p, 0, sizeof(p));
  p.kind = VXP_COUNT_PRIM;
  p.slot = (uint8_t)slot;
  p.lo = p.hi = VXP_NONE;
  vxp_count__leaf(&B->out, p);
}

static uint32_t open_node(body_reader *B, vxp_count_kind kind, uint32_t lo, uint32_t hi) {
  vxp_count_node o;
  memset(&o, 0, sizeof(o));
  o.kind = (uint8_t)kind;
  o.lo = lo;
  o.hi = hi;
  return vxp_count__open(&B->out, o);
}

/* 0 = the source tile, 1 = the destination, -1 = neither. */
static int side_of(const body_reader *B, TSNode arg) {
  if (!vxp_node__is(arg, B->S->identifier)) return -1;
  uint32_t len;
  const char *t = vxp_node__text(B->src->text, arg, &len);
  if (B->src_name && len == B->src_len && memcmp(t, B->src_name, len) == 0) return 0;
  if (B->dst_name && len == B->dst_len && memcmp(t, B->dst_name, len) == 0) return 1;
  return -1;
}

static void count_call(body_reader *B, TSNode call, unsigned depth) {
  /* Arguments first: `raw::store(dst, i, raw::load(src, i))` reads inside its write. */
  count_children(B, vxp_node__field(call, B->F->arguments), depth);
  count_node(B, vxp_node__field(call, B->F->function), depth + 1);
  uint32_t len = 0;
  const char *name = raw_callee(B, call, &len);
  if (raw_is(name, len, "load")) {
    int s = side_of(B, nth_arg(B, call, 0));
    if (s < 0)
      fail(B, "a `raw::load` names a tile that is not this lowering's source or destination");
    else
      prim(B, s ? VXP_COUNT_TO_READ : VXP_COUNT_FROM_READ);
  } else if (raw_is(name, len, "store")) {
    int s = side_of(B, nth_arg(B, call, 0));
    if (s < 0)
      fail(B, "a `raw::store` names a tile that is not this lowering's source or destination");
    else
      prim(B, s ? VXP_COUNT_TO_WRITTEN : VXP_COUNT_FROM_WRITTEN);
  } else if (raw_is(name, len, "async_copy")) {
    /* One element out of the source and into the destination, as vxc counts a copy while
     * its engine lowers to a load and a store. */
    int r = side_of(B, nth_arg(B, call, 1)), w = side_of(B, nth_arg(B, call, 0));
    if (r < 0) {
      fail(B, "a `raw::async_copy` reads a tile that is not this lowering's source or "
              "destination");
    } else if (w < 0) {
      fail(B, "a `raw::async_copy` writes a tile that is not this lowering's source or "
              "destination");
    } else {
      prim(B, r ? VXP_COUNT_TO_READ : VXP_COUNT_FROM_READ);
      prim(B, w ? VXP_COUNT_TO_WRITTEN : VXP_COUNT_FROM_WRITTEN);
    }
  } /* extent, lane, lanes, barrier, async_wait move nothing */
}

/* Whether `name` is bound inside the lowering's function (a parameter, a `let`, a `for`
 * variable, a pattern): such a name is a run-time value there, never the const item it
 * shadows. */
static bool bound_locally(const body_reader *B, const char *s, uint32_t len) {
  if (B->locals_overflow) return true;
  for (uint32_t i = 0; i < B->local_count; i++) {
    if (B->locals[i].len == len && memcmp(B->locals[i].text, s, len) == 0) return true;
  }
  return false;
}

static uint32_t unknown_expr(body_reader *B) {
  vxp_count_expr e;
  memset(&e, 0, sizeof(e));
  e.kind = VXP_COUNT_UNKNOWN;
  e.lhs = e.rhs = VXP_NONE;
  return vxp_count__expr(&B->out, e);
}

/* A bound or a condition as the analysis will fold it: integers, booleans, const items,
 * `- !` and the binary operators consteval folds; anything else never folds. */
static uint32_t record_expr(body_reader *B, TSNode n, unsigned depth) {
  const vxp_symbols *S = B->S;
  if (ts_node_is_null(n) || depth > VXP_MAX_NESTING) return unknown_expr(B);
  vxp_count_expr e;
  memset(&e, 0, sizeof(e));
  e.lhs = e.rhs = VXP_NONE;
  TSSymbol sym = ts_node_symbol(n);
  uint32_t len;
  if (sym == S->parenthesized_expression)
    return record_expr(B, ts_node_named_child(n, 0), depth + 1);
  if (sym == S->number) {
    if (!literal_u64(B, n, &e.value)) return unknown_expr(B);
    e.kind = VXP_COUNT_INT;
    return vxp_count__expr(&B->out, e);
  }
  if (sym == S->boolean) {
    e.kind = VXP_COUNT_BOOL;
    e.value = vxp_node__text_is(B->src->text, n, "true");
    return vxp_count__expr(&B->out, e);
  }
  if (sym == S->identifier) {
    const char *t = vxp_node__text(B->src->text, n, &len);
    return bound_locally(B, t, len) ? unknown_expr(B) : vxp_count__name(&B->out, t, len);
  }
  if (sym == S->unary_expression) {
    const char *op = vxp_node__text(B->src->text, vxp_node__field(n, B->F->operator), &len);
    if (len != 1 || (op[0] != '-' && op[0] != '!')) return unknown_expr(B);
    e.kind = VXP_COUNT_UNARY;
    e.op = op[0] == '-' ? VXP_OP_NEG : VXP_OP_NOT;
    e.lhs = record_expr(B, vxp_node__field(n, B->F->operand), depth + 1);
    return vxp_count__expr(&B->out, e);
  }
  if (sym == S->binary_expression) {
    static const struct {
      const char *text;
      vxp_cop op;
    } ops[] = {{"+", VXP_OP_ADD}, {"-", VXP_OP_SUB}, {"*", VXP_OP_MUL}, {"/", VXP_OP_DIV},
               {"%", VXP_OP_REM}, {"==", VXP_OP_EQ}, {"!=", VXP_OP_NE}, {"<", VXP_OP_LT},
               {">", VXP_OP_GT},  {"<=", VXP_OP_LE}, {">=", VXP_OP_GE}, {"&&", VXP_OP_AND},
               {"||", VXP_OP_OR}};
    const char *op = vxp_node__text(B->src->text, vxp_node__field(n, B->F->operator), &len);
    for (size_t i = 0; i < VXP__ARRAY_LEN(ops); i++) {
      if (strlen(ops[i].text) != len || memcmp(ops[i].text, op, len) != 0) continue;
      e.kind = VXP_COUNT_BINARY;
      e.op = (uint8_t)ops[i].op;
      e.lhs = record_expr(B, vxp_node__field(n, B->F->left), depth + 1);
      e.rhs = record_expr(B, vxp_node__field(n, B->F->right), depth + 1);
      return vxp_count__expr(&B->out, e);
    }
  }
  return unknown_expr(B);
}

/* A `for` bound: `raw::extent` of the source or destination (from its declared type), or
 * an expression the analysis folds (vxc: the extent first, then its ordinary fold). */
static uint32_t record_bound(body_reader *B, TSNode e) {
  while (vxp_node__is(e, B->S->parenthesized_expression))
    e = ts_node_named_child(e, 0);
  uint32_t len = 0;
  const char *name = vxp_node__is(e, B->S->call_expression) ? raw_callee(B, e, &len) : NULL;
  if (raw_is(name, len, "extent")) {
    int s = side_of(B, nth_arg(B, e, 0));
    if (s >= 0) {
      vxp_count_expr x;
      memset(&x, 0, sizeof(x));
      x.kind = VXP_COUNT_INT;
      x.lhs = x.rhs = VXP_NONE;
      x.value = s == 0 ? B->src_extent : B->dst_extent;
      return vxp_count__expr(&B->out, x);
    }
  }
  return record_expr(B, e, 0);
}

static void count_arm(body_reader *B, TSNode arm, unsigned depth) {
  uint32_t a = open_node(B, VXP_COUNT_ARM, VXP_NONE, VXP_NONE);
  if (!ts_node_is_null(arm)) count_node(B, arm, depth + 1);
  vxp_count__close(&B->out, a);
}

static void count_if(body_reader *B, TSNode n, unsigned depth) {
  TSNode cond = vxp_node__field(n, B->F->condition);
  count_node(B, cond, depth + 1);
  bool comptime = !ts_node_is_null(vxp_node__field(n, B->F->comptime));
  uint32_t c = comptime ? record_expr(B, cond, 0) : VXP_NONE;
  uint32_t b = open_node(B, VXP_COUNT_BRANCH, c, VXP_NONE);
  count_arm(B, vxp_node__field(n, B->F->consequence), depth);
  count_arm(B, vxp_node__field(n, B->F->alternative), depth);
  vxp_count__close(&B->out, b);
}

static void count_match(body_reader *B, TSNode n, unsigned depth) {
  count_node(B, vxp_node__field(n, B->F->value), depth + 1);
  uint32_t b = open_node(B, VXP_COUNT_BRANCH, VXP_NONE, VXP_NONE);
  TSNode body = vxp_node__field(n, B->F->body);
  uint32_t count = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
  for (uint32_t i = 0; i < count; i++) {
    TSNode arm = ts_node_named_child(body, i);
    if (vxp_node__is(arm, B->S->match_arm))
      count_arm(B, vxp_node__field(arm, B->F->value), depth); /* the pattern moves nothing */
  }
  vxp_count__close(&B->out, b);
}

static void count_node(body_reader *B, TSNode n, unsigned depth) {
  if (ts_node_is_null(n) || B->out.failed) return;
  if (depth > VXP_MAX_NESTING) {
    fail(B, "the body nests too deeply to be counted");
    return;
  }
  const vxp_symbols *S = B->S;
  TSSymbol sym = ts_node_symbol(n);
  if (sym == S->call_expression) {
    count_call(B, n, depth);
  } else if (sym == S->for_statement) {
    TSNode range = vxp_node__field(n, B->F->iterable);
    while (vxp_node__is(range, S->parenthesized_expression))
      range = ts_node_named_child(range, 0);
    if (!vxp_node__is(range, S->range_expression)) {
      fail(B, "a loop bound is not statically known, so the number of times its body runs "
              "cannot be counted");
      return;
    }
    uint32_t lo = record_bound(B, vxp_node__field(range, B->F->start));
    uint32_t hi = record_bound(B, vxp_node__field(range, B->F->end));
    uint32_t f = open_node(B, VXP_COUNT_FOR, lo, hi);
    count_node(B, vxp_node__field(n, B->F->body), depth + 1);
    vxp_count__close(&B->out, f);
  } else if (sym == S->loop_statement) {
    fail(B, "an unbounded `loop` runs an unknown number of times");
  } else if (sym == S->while_statement) {
    fail(B, "a `while` loop runs a number of times that is not statically known");
  } else if (sym == S->break_statement || sym == S->continue_statement) {
    fail(B, "`break`/`continue` makes the loop's trip count a fiction");
  } else if (sym == S->if_expression) {
    count_if(B, n, depth);
  } else if (sym == S->match_expression) {
    count_match(B, n, depth);
  } else if (sym == S->closure_expression || sym == S->spawn_expression ||
             sym == S->macro_invocation) {
    /* What the counter does not weigh moves nothing only when no primitive is inside. */
    if (calls_raw(B, n))
      fail(B, "a `raw::` call appears somewhere this counter does not know how to weigh");
  } else {
    /* Statements, blocks (unsafe and comptime ones too: not control flow), operators and
     * leaves: their parts in order. */
    count_children(B, n, depth);
  }
}

/* Collect the names the function binds (its parameters, `let`s, `for` variables, the
 * identifiers of patterns and closure parameters); past the table's size every name is
 * taken as bound, which only costs a fold. Iterative: bodies nest arbitrarily. */
static void collect_locals(body_reader *B, TSNode fn) {
  const vxp_symbols *S = B->S;
  TSTreeCursor c = ts_tree_cursor_new(fn);
  for (;;) {
    TSNode x = ts_tree_cursor_current_node(&c);
    TSSymbol sym = ts_node_symbol(x);
    TSNode binder = {{0}, 0, 0};
    if (sym == S->let_declaration) {
      binder = vxp_node__field(x, B->F->name);
      if (ts_node_is_null(binder)) binder = vxp_node__field(x, B->F->pattern);
    } else if (sym == S->for_statement) {
      binder = vxp_node__field(x, B->F->variable);
    } else if (sym == S->parameter) {
      binder = vxp_node__field(x, B->F->name);
    } else if (sym == S->match_arm) {
      binder = vxp_node__field(x, B->F->pattern);
    } else if (sym == S->closure_expression) {
      binder = vxp_node__field(x, B->F->parameters);
    }
    if (!ts_node_is_null(binder)) {
      /* Every identifier under the binder (a pattern's, a closure parameter's). */
      TSTreeCursor b = ts_tree_cursor_new(binder);
      for (;;) {
        TSNode y = ts_tree_cursor_current_node(&b);
        if (vxp_node__is(y, S->identifier)) {
          if (B->local_count == VXP__ARRAY_LEN(B->locals)) {
            B->locals_overflow = true;
          } else {
            B->locals[B->local_count].text =
                vxp_node__text(B->src->text, y, &B->locals[B->local_count].len);
            B->local_count++;
          }
        }
        if (ts_tree_cursor_goto_first_child(&b)) continue;
        bool more = true;
        while (more && !ts_tree_cursor_goto_next_sibling(&b))
          more = ts_tree_cursor_goto_parent(&b);
        if (!more) break;
      }
      ts_tree_cursor_delete(&b);
    }
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
    }
  }
done:
  ts_tree_cursor_delete(&c);
}

/* ------------------------------------------------------------------ the item */

static TSNode first_function(const body_reader *B, TSNode body, uint32_t *methods,
                             TSNode *generic) {
  TSNode first = {{0}, 0, 0};
  *methods = 0;
  generic->id = NULL;
  uint32_t count = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
  for (uint32_t i = 0; i < count; i++) {
    TSNode f = ts_node_named_child(body, i);
    if (!vxp_node__is(f, B->S->function_item)) continue;
    if ((*methods)++ == 0) first = f;
    if (ts_node_is_null(*generic) && !ts_node_is_null(vxp_node__field(f, B->F->generics)))
      *generic = f;
  }
  return first;
}

int vxp_lowering__read_body(vxp_context *ctx, vxp_arena *arena, const vxp_source *src, TSNode item,
                            vxp_lowering *l) {
  body_reader B;
  memset(&B, 0, sizeof(B));
  B.src = src;
  B.S = &ctx->syms;
  B.F = &ctx->fields;
  l->tiles[0].elem = l->tiles[1].elem = VXP_ELEM_UNKNOWN;
  TSNode generic;
  TSNode fn = first_function(&B, vxp_node__field(item, B.F->body), &l->methods, &generic);
  if (!ts_node_is_null(generic)) {
    TSNode name = vxp_node__field(generic, B.F->name);
    uint32_t len = 0;
    const char *t = ts_node_is_null(name) ? "" : vxp_node__text(B.src->text, name, &len);
    l->generic_method = vxp_arena__alloc(ctx, arena, (size_t)len + 1); /* the machine's */
    if (!l->generic_method) return VXP_ENOMEM;
    memcpy(l->generic_method, t, len);
  }
  if (ts_node_is_null(fn)) {
    l->traffic_absent = "the lowering declares no function";
    return VXP_OK;
  }
  TSNode params = vxp_node__field(fn, B.F->parameters);
  uint32_t count = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
  for (uint32_t i = 0; i < count; i++) {
    TSNode p = ts_node_named_child(params, i);
    if (!vxp_node__is(p, B.S->parameter)) continue;
    if (l->params < 2) {
      TSNode name = vxp_node__field(p, B.F->name);
      const char **nm = l->params == 0 ? &B.src_name : &B.dst_name;
      uint32_t *nl = l->params == 0 ? &B.src_len : &B.dst_len;
      if (!ts_node_is_null(name)) *nm = vxp_node__text(B.src->text, name, nl);
      vxp_lowering__read_tile(ctx, src, vxp_node__field(p, B.F->type), &l->tiles[l->params]);
    }
    l->params++;
  }
  if (l->params < 2) {
    l->traffic_absent = "the lowering's function does not take a source and a destination tile";
    return VXP_OK;
  }
  if (!tile_extent(&l->tiles[0], &B.src_extent)) {
    l->traffic_absent = "the lowering's source tile has no statically known extent";
    return VXP_OK;
  }
  if (!tile_extent(&l->tiles[1], &B.dst_extent)) {
    l->traffic_absent = "the lowering's destination tile has no statically known extent";
    return VXP_OK;
  }
  B.out.ctx = ctx;
  collect_locals(&B, fn);
  count_node(&B, vxp_node__field(fn, B.F->body), 0);
  l->count = vxp_count__finish(&B.out, arena);
  return l->count ? VXP_OK : VXP_ENOMEM;
}
