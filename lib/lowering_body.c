/* SPDX-License-Identifier: Apache-2.0 */
/* lowering_body.c - what a transfer lowering's body declares and moves, read once with the
 * declarations (see lowering_body.h). */
#include "lowering_body.h"

#include <string.h>

#include "context.h"
#include "internal.h"
#include "lower.h"
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
  bool exact;
  uint64_t acc[4]; /* from_read, from_written, to_read, to_written, in elements */
} body_reader;

enum { FROM_READ, FROM_WRITTEN, TO_READ, TO_WRITTEN };

static const char *text(const body_reader *B, TSNode n, uint32_t *len) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  *len = b - a;
  return B->src->text + a;
}

static bool text_is(const body_reader *B, TSNode n, const char *s, uint32_t slen) {
  if (ts_node_is_null(n)) return false;
  uint32_t len;
  const char *t = text(B, n, &len);
  return len == slen && memcmp(t, s, len) == 0;
}

/* An unsigned decimal integer literal (vxc reads a dimension or a bound only when it is
 * one); false otherwise or past 64 bits. */
static bool literal_u64(const body_reader *B, TSNode n, uint64_t *out) {
  if (!vxp_node__is(n, B->S->number)) return false;
  uint32_t len;
  const char *t = text(B, n, &len);
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
      !text_is(B, vxp_node__field(f, B->F->path), "raw", 3))
    return NULL;
  TSNode name = vxp_node__field(f, B->F->name);
  return ts_node_is_null(name) ? NULL : text(B, name, len);
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
static bool calls_raw(const body_reader *B, TSNode n) {
  TSTreeCursor c = ts_tree_cursor_new(n);
  bool found = false;
  for (;;) {
    TSNode x = ts_tree_cursor_current_node(&c);
    uint32_t len;
    if (vxp_node__is(x, B->S->call_expression) && raw_callee(B, x, &len)) {
      found = true;
      break;
    }
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
    }
  }
done:
  ts_tree_cursor_delete(&c);
  return found;
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
    const char *e = text(B, elem, &len);
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
 * counts its largest arm per space and makes the figure inexact when the arms differ. */

static const char *const OVERFLOWED = "the byte count overflows a 64-bit counter";

static const char *count_node(body_reader *B, TSNode n, uint64_t mult, unsigned depth);

static const char *count_children(body_reader *B, TSNode n, uint64_t mult, unsigned depth) {
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    const char *why = count_node(B, ts_node_named_child(n, i), mult, depth + 1);
    if (why) return why;
  }
  return NULL;
}

/* 0 = the source tile, 1 = the destination, -1 = neither. */
static int side_of(const body_reader *B, TSNode arg) {
  if (!vxp_node__is(arg, B->S->identifier)) return -1;
  uint32_t len;
  const char *t = text(B, arg, &len);
  if (B->src_name && len == B->src_len && memcmp(t, B->src_name, len) == 0) return 0;
  if (B->dst_name && len == B->dst_len && memcmp(t, B->dst_name, len) == 0) return 1;
  return -1;
}

static const char *add(body_reader *B, int slot, uint64_t n) {
  return vxp_add_u64(B->acc[slot], n, &B->acc[slot]) ? NULL : OVERFLOWED;
}

static const char *count_call(body_reader *B, TSNode call, uint64_t mult, unsigned depth) {
  /* Arguments first: `raw::store(dst, i, raw::load(src, i))` reads inside its write. */
  const char *why = count_children(B, vxp_node__field(call, B->F->arguments), mult, depth);
  if (why) return why;
  why = count_node(B, vxp_node__field(call, B->F->function), mult, depth + 1);
  if (why) return why;
  uint32_t len = 0;
  const char *prim = raw_callee(B, call, &len);
  if (raw_is(prim, len, "load")) {
    int s = side_of(B, nth_arg(B, call, 0));
    if (s < 0)
      return "a `raw::load` names a tile that is not this lowering's source or destination";
    return add(B, s ? TO_READ : FROM_READ, mult);
  }
  if (raw_is(prim, len, "store")) {
    int s = side_of(B, nth_arg(B, call, 0));
    if (s < 0)
      return "a `raw::store` names a tile that is not this lowering's source or destination";
    return add(B, s ? TO_WRITTEN : FROM_WRITTEN, mult);
  }
  if (raw_is(prim, len, "async_copy")) {
    /* One element out of the source and into the destination, as vxc counts a copy while
     * its engine lowers to a load and a store. */
    int r = side_of(B, nth_arg(B, call, 1)), w = side_of(B, nth_arg(B, call, 0));
    if (r < 0)
      return "a `raw::async_copy` reads a tile that is not this lowering's source or "
             "destination";
    if (w < 0)
      return "a `raw::async_copy` writes a tile that is not this lowering's source or "
             "destination";
    why = add(B, r ? TO_READ : FROM_READ, mult);
    return why ? why : add(B, w ? TO_WRITTEN : FROM_WRITTEN, mult);
  }
  return NULL; /* extent, lane, lanes, barrier, async_wait move nothing */
}

/* A `for` bound: an integer literal, or raw::extent of the source or destination. */
static bool static_bound(const body_reader *B, TSNode e, uint64_t *out) {
  while (vxp_node__is(e, B->S->parenthesized_expression))
    e = ts_node_named_child(e, 0);
  if (literal_u64(B, e, out)) return true;
  uint32_t len = 0;
  const char *prim = vxp_node__is(e, B->S->call_expression) ? raw_callee(B, e, &len) : NULL;
  if (raw_is(prim, len, "extent")) {
    int s = side_of(B, nth_arg(B, e, 0));
    if (s == 0 && B->src_extent != UINT64_MAX) {
      *out = B->src_extent;
      return true;
    }
    if (s == 1 && B->dst_extent != UINT64_MAX) {
      *out = B->dst_extent;
      return true;
    }
  }
  return false;
}

/* Count the alternatives `arms` (blocks or expressions) from the same entry: the largest
 * per space, inexact when they differ. */
static const char *count_arms(body_reader *B, const TSNode *arms, uint32_t n, uint64_t mult,
                              unsigned depth) {
  uint64_t entry[4], worst[4], first[4];
  memcpy(entry, B->acc, sizeof(entry));
  memcpy(worst, entry, sizeof(worst));
  for (uint32_t i = 0; i < n; i++) {
    memcpy(B->acc, entry, sizeof(entry));
    if (!ts_node_is_null(arms[i])) {
      const char *why = count_node(B, arms[i], mult, depth + 1);
      if (why) return why;
    }
    if (i == 0)
      memcpy(first, B->acc, sizeof(first));
    else if (memcmp(first, B->acc, sizeof(first)) != 0)
      B->exact = false;
    for (int k = 0; k < 4; k++)
      if (B->acc[k] > worst[k]) worst[k] = B->acc[k];
  }
  memcpy(B->acc, worst, sizeof(worst));
  return NULL;
}

static const char *count_if(body_reader *B, TSNode n, uint64_t mult, unsigned depth) {
  const char *why = count_node(B, vxp_node__field(n, B->F->condition), mult, depth + 1);
  if (why) return why;
  TSNode arms[2] = {vxp_node__field(n, B->F->consequence), vxp_node__field(n, B->F->alternative)};
  /* `if comptime true/false` keeps one arm: only that one is emitted. */
  TSNode cond = vxp_node__field(n, B->F->condition);
  if (!ts_node_is_null(vxp_node__field(n, B->F->comptime)) && vxp_node__is(cond, B->S->boolean)) {
    TSNode taken = text_is(B, cond, "true", 4) ? arms[0] : arms[1];
    return ts_node_is_null(taken) ? NULL : count_node(B, taken, mult, depth + 1);
  }
  return count_arms(B, arms, 2, mult, depth);
}

static const char *count_match(body_reader *B, TSNode n, uint64_t mult, unsigned depth) {
  const char *why = count_node(B, vxp_node__field(n, B->F->value), mult, depth + 1);
  if (why) return why;
  enum { MAX_ARMS = 64 };
  TSNode arms[MAX_ARMS];
  uint32_t k = 0;
  TSNode body = vxp_node__field(n, B->F->body);
  uint32_t count = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
  for (uint32_t i = 0; i < count; i++) {
    TSNode arm = ts_node_named_child(body, i);
    if (!vxp_node__is(arm, B->S->match_arm)) continue;
    if (k == MAX_ARMS) return "a `match` has more arms than the counter weighs";
    arms[k++] = vxp_node__field(arm, B->F->value); /* the pattern moves nothing */
  }
  return count_arms(B, arms, k, mult, depth);
}

static const char *count_node(body_reader *B, TSNode n, uint64_t mult, unsigned depth) {
  if (ts_node_is_null(n)) return NULL;
  if (depth > VXP_MAX_NESTING) return "the body nests too deeply to be counted";
  const vxp_symbols *S = B->S;
  TSSymbol sym = ts_node_symbol(n);
  if (sym == S->call_expression) return count_call(B, n, mult, depth);
  if (sym == S->for_statement) {
    TSNode range = vxp_node__field(n, B->F->iterable);
    while (vxp_node__is(range, S->parenthesized_expression))
      range = ts_node_named_child(range, 0);
    uint64_t lo, hi;
    if (!vxp_node__is(range, S->range_expression) ||
        !static_bound(B, vxp_node__field(range, B->F->start), &lo) ||
        !static_bound(B, vxp_node__field(range, B->F->end), &hi))
      return "a loop bound is not statically known, so the number of times its body runs "
             "cannot be counted";
    uint64_t next;
    if (!vxp_mul_u64(mult, hi > lo ? hi - lo : 0, &next))
      return "the loop nest's trip count overflows a 64-bit counter";
    return count_node(B, vxp_node__field(n, B->F->body), next, depth + 1);
  }
  if (sym == S->loop_statement) return "an unbounded `loop` runs an unknown number of times";
  if (sym == S->while_statement)
    return "a `while` loop runs a number of times that is not statically known";
  if (sym == S->break_statement || sym == S->continue_statement)
    return "`break`/`continue` makes the loop's trip count a fiction";
  if (sym == S->if_expression) return count_if(B, n, mult, depth);
  if (sym == S->match_expression) return count_match(B, n, mult, depth);
  if (sym == S->closure_expression || sym == S->spawn_expression || sym == S->macro_invocation) {
    /* What the counter does not weigh moves nothing only when no primitive is inside. */
    return calls_raw(B, n) ? "a `raw::` call appears somewhere this counter does not know "
                             "how to weigh"
                           : NULL;
  }
  /* Statements, blocks (unsafe and comptime ones too: not control flow), operators and
   * leaves: their parts in order. */
  return count_children(B, n, mult, depth);
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

int vxp_lowering__read_body(vxp_context *ctx, const vxp_source *src, TSNode item, vxp_lowering *l) {
  body_reader B;
  memset(&B, 0, sizeof(B));
  B.src = src;
  B.S = &ctx->syms;
  B.F = &ctx->fields;
  B.exact = true;
  l->tiles[0].elem = l->tiles[1].elem = VXP_ELEM_UNKNOWN;
  TSNode generic;
  TSNode fn = first_function(&B, vxp_node__field(item, B.F->body), &l->methods, &generic);
  if (!ts_node_is_null(generic)) {
    TSNode name = vxp_node__field(generic, B.F->name);
    uint32_t len = 0;
    const char *t = ts_node_is_null(name) ? "" : text(&B, name, &len);
    l->generic_method = vxp_ctx__strndup(ctx, t, len);
    if (!l->generic_method) return VXP_ENOMEM;
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
      if (!ts_node_is_null(name)) *nm = text(&B, name, nl);
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
  const char *why = count_node(&B, vxp_node__field(fn, B.F->body), 1, 0);
  if (why) {
    l->traffic_absent = why;
    return VXP_OK;
  }
  l->traffic_exact = B.exact;
  l->from_read = B.acc[FROM_READ];
  l->from_written = B.acc[FROM_WRITTEN];
  l->to_read = B.acc[TO_READ];
  l->to_written = B.acc[TO_WRITTEN];
  return VXP_OK;
}
