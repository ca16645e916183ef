/* SPDX-License-Identifier: Apache-2.0 */
/* lower_raw.c - the `raw::` obligations of a program's items (E6017, E6019, E6020, E6021;
 * raw_primitives.h states them), read from the syntax tree once, at lowering, as facts
 * (model.h: vxp_raw_fact) that raw_primitives.c answers against the machine. */
#include "lower_raw.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "syntax.h"
#include "source.h"
#include "strbuf.h"
#include "symbols.h"

enum prim {
  PRIM_LOAD,
  PRIM_STORE,
  PRIM_EXTENT,
  PRIM_LANE,
  PRIM_LANES,
  PRIM_BARRIER,
  PRIM_ASYNC_COPY,
  PRIM_ASYNC_WAIT,
  PRIM_UNKNOWN
};

static const char *const PRIM_NAMES[] = {"load",  "store",   "extent",     "lane",
                                         "lanes", "barrier", "async_copy", "async_wait"};

/* At most this many parameters are followed as tiles (a bit each in the async state). */
#define RAW_MAX_TILES 64

typedef struct raw_param {
  const char *name;
  uint32_t len;
  bool is_mut_ref;
} raw_param;

/* What is in flight at one point of the walk: copies not yet waited for, a bit per tile. */
typedef struct flow {
  uint64_t dst, src;
  bool live; /* false after a return, break or continue: nothing runs here */
} flow;

typedef struct loop_exits {
  flow brk, cont;
} loop_exits;

/* One walk of a loop body: what it depends on (the body, the state entering it, and where
 * the last copy into each tile was, since unwaited() reports there) and what it gives (the
 * state at the end of an iteration, the state at its breaks, the copy_at it leaves). */
typedef struct body_walk {
  uint32_t body; /* the body's start byte */
  uint64_t hash; /* of body, entry and the copy_at before */
  flow entry, end, brk;
  uint32_t copies; /* index into body_copies: 2 * nparams before, then 2 * nparams after */
} body_walk;

typedef struct raw_walk {
  vxp_context *ctx;
  const vxp_source *src;
  const vxp_symbols *S;
  const vxp_fields *F;
  vxp_lower_raw *W; /* where the facts go */
  vxp_sb message;   /* the message being formatted */
  int rc;
  /* The lowering function being checked. */
  raw_param params[RAW_MAX_TILES];
  uint32_t nparams;
  /* The lowering's edge as written (Topology::topo, Memory::from -> Memory::to); has_edge
   * false when one of the three is not written. Whether a machine declares it, and how, is
   * the analysis' question (the conditional facts). */
  bool has_edge;
  const char *topo_name, *from_name, *to_name;
  uint32_t topo_len, from_len, to_len;
  uint32_t copy_at[RAW_MAX_TILES][2]; /* the last raw::async_copy into each tile */
  Array(uint64_t) reported;           /* code and start byte of each report (loops walk twice) */
  /* Loop bodies walked so far in this function (body_walk), found through `body_slots` (an
   * open-addressing table of index + 1), with their tiles' copy_at before and after in
   * `body_copies`. */
  Array(body_walk) bodies;
  Array(uint32_t) body_slots;
  Array(uint32_t) body_copies;
} raw_walk;

static bool is_comment(const raw_walk *R, TSNode n) {
  return vxp_node__is(n, R->S->line_comment) || vxp_node__is(n, R->S->doc_comment);
}

/* The primitive a call names, or -1 when its callee is not a `raw::` path. */
static int primitive_of(const raw_walk *R, TSNode call, TSNode *name_out) {
  TSNode callee = vxp_node__field(call, R->F->function);
  if (!vxp_node__is(callee, R->S->scoped_identifier) ||
      !vxp_node__text_is(R->src->text, vxp_node__field(callee, R->F->path), "raw"))
    return -1;
  TSNode name = vxp_node__field(callee, R->F->name);
  *name_out = name;
  for (int p = 0; p < PRIM_UNKNOWN; p++)
    if (vxp_node__text_is(R->src->text, name, PRIM_NAMES[p])) return p;
  return PRIM_UNKNOWN;
}

/* Whether `code` was reported at `start` already (a loop body is walked twice); records it
 * when not. */
static bool seen(raw_walk *R, const char *code, uint32_t start) {
  uint64_t key = ((uint64_t)strtoul(code + 1, NULL, 10) << 32) | start;
  for (size_t i = 0; i < R->reported.len; i++)
    if (R->reported.items[i] == key) return true;
  if (!array_push(R->ctx, &R->reported, key)) R->rc = VXP_ENOMEM;
  return false;
}

/* Record a fact: diagnostic `code` at [start, end) with the formatted message, holding
 * under `kind` (vxp_raw_kind). */
static void vrecord(raw_walk *R, uint8_t kind, const char *code, uint32_t start, uint32_t end,
                    const char *fmt, va_list ap) VXP__PRINTF(6, 0);
static void vrecord(raw_walk *R, uint8_t kind, const char *code, uint32_t start, uint32_t end,
                    const char *fmt, va_list ap) {
  if (R->message.data) { /* empty it, keeping its memory for the next message */
    R->message.len = 0;
    R->message.data[0] = '\0';
  }
  vxp_sb__vprintf(R->ctx, &R->message, fmt, ap);
  if (R->message.failed) {
    R->rc = VXP_ENOMEM;
    return;
  }
  vxp_raw_fact f;
  memset(&f, 0, sizeof(f));
  f.kind = kind;
  strncpy(f.code, code, sizeof(f.code) - 1); /* the codes are five characters */
  f.message = R->W->intern(R->W->arg, R->message.data, R->message.len);
  f.from = f.to = VXP_NAME_NONE;
  f.start_byte = start;
  f.end_byte = end;
  if (f.message == VXP_NAME_NONE || f.message == VXP_NAME_ERROR ||
      !array_push(R->ctx, R->W->out, f))
    R->rc = VXP_ENOMEM;
}

static void record(raw_walk *R, uint8_t kind, const char *code, uint32_t start, uint32_t end,
                   const char *fmt, ...) VXP__PRINTF(6, 7);
static void record(raw_walk *R, uint8_t kind, const char *code, uint32_t start, uint32_t end,
                   const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vrecord(R, kind, code, start, end, fmt, ap);
  va_end(ap);
}

/* A diagnostic of the walk (reported once per place, as the walk reports), holding under
 * `kind`. */
static void report_when(raw_walk *R, uint8_t kind, const char *code, TSNode at, const char *fmt,
                        ...) VXP__PRINTF(5, 6);
static void report_when(raw_walk *R, uint8_t kind, const char *code, TSNode at, const char *fmt,
                        ...) {
  if (R->rc != VXP_OK) return;
  uint32_t start = ts_node_start_byte(at);
  if (seen(R, code, start) || R->rc != VXP_OK) return;
  va_list ap;
  va_start(ap, fmt);
  vrecord(R, kind, code, start, ts_node_end_byte(at), fmt, ap);
  va_end(ap);
}

#define report(R, ...) report_when((R), VXP_RAW_ALWAYS, __VA_ARGS__)

/* The parameter a tile argument names, or -1. */
static int param_of(const raw_walk *R, TSNode arg) {
  if (!vxp_node__is(arg, R->S->identifier)) return -1;
  uint32_t len;
  const char *t = vxp_node__text(R->src->text, arg, &len);
  for (uint32_t i = 0; i < R->nparams; i++)
    if (R->params[i].len == len && memcmp(R->params[i].name, t, len) == 0) return (int)i;
  return -1;
}

static TSNode nth_arg(const raw_walk *R, TSNode call, uint32_t k) {
  TSNode args = vxp_node__field(call, R->F->arguments);
  uint32_t seen = 0;
  uint32_t count = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < count && i < 8; i++) { /* primitives take at most three */
    TSNode a = ts_node_named_child(args, i);
    if (is_comment(R, a)) continue;
    if (seen++ == k) return a;
  }
  return (TSNode){{0}};
}

/* The tile in argument `k` of a primitive: a parameter of the lowering (E6017), held by
 * `&mut` when the primitive writes it. Returns the parameter, or -1. */
static int tile_arg(raw_walk *R, TSNode call, TSNode name, uint32_t k, bool writes) {
  TSNode arg = nth_arg(R, call, k);
  if (ts_node_is_null(arg)) return -1;
  int p = param_of(R, arg);
  uint32_t nl, al;
  const char *nt = vxp_node__text(R->src->text, name, &nl);
  const char *at = vxp_node__text(R->src->text, arg, &al);
  if (p < 0) {
    report(R, "E6017", arg,
           "`%.*s` is not a parameter of this lowering: raw::%.*s touches only the tiles the "
           "transfer was given, named by its parameters",
           (int)al, at, (int)nl, nt);
    return -1;
  }
  if (writes && !R->params[p].is_mut_ref)
    report(R, "E6017", arg,
           "raw::%.*s writes `%.*s`, so the tile must be held by `&mut`; the parameter is "
           "declared without `mut`",
           (int)nl, nt, (int)al, at);
  return p;
}

/* ------------------------------------------------------------------ shape checks */

/* E6017 (closures, names, tiles), E6019 (barriers under control flow) and E6020 (copies
 * without an engine) for one lowering function's body. `control` counts the loops,
 * branches and regions around `n`; `closure` whether a closure body encloses it. */
static void check_uses(raw_walk *R, TSNode n, unsigned control, bool closure, unsigned depth,
                       bool *publishes) {
  if (R->rc != VXP_OK || depth > VXP_MAX_NESTING) return;
  const vxp_symbols *S = R->S;
  TSSymbol sym = ts_node_symbol(n);
  if (sym == S->call_expression) {
    TSNode name = {{0}};
    int p = primitive_of(R, n, &name);
    if (p >= 0) {
      uint32_t nl;
      const char *nt = vxp_node__text(R->src->text, name, &nl);
      if (closure) {
        report(R, "E6017", n,
               "raw::%.*s inside a closure: a closure runs when it is called, not when the "
               "lowering runs, so the primitive would escape the lowering's barrier and "
               "async guarantees",
               (int)nl, nt);
      } else if (p == PRIM_UNKNOWN) {
        report(R, "E6017", name,
               "raw::%.*s is an unknown primitive: the primitives are raw::load, raw::store, "
               "raw::extent, raw::lane, raw::lanes, raw::barrier, raw::async_copy and "
               "raw::async_wait",
               (int)nl, nt);
      } else {
        if (p == PRIM_LOAD || p == PRIM_EXTENT) tile_arg(R, n, name, 0, false);
        if (p == PRIM_STORE) {
          tile_arg(R, n, name, 0, true);
          *publishes = true;
        }
        if (p == PRIM_ASYNC_COPY) {
          tile_arg(R, n, name, 0, true);
          tile_arg(R, n, name, 1, false);
          *publishes = true;
          if (R->has_edge)
            report_when(R, VXP_RAW_NO_COPY_ENGINE, "E6020", n,
                        "raw::async_copy needs a copy engine on the edge Memory::%.*s -> "
                        "Memory::%.*s, and Topology::%.*s does not declare one (`copy_engine` "
                        "on its `transfer` entry)",
                        (int)R->from_len, R->from_name, (int)R->to_len, R->to_name,
                        (int)R->topo_len, R->topo_name);
        }
        if (p == PRIM_BARRIER && control > 0)
          report(R, "E6019", n,
                 "raw::barrier() under control flow: a barrier must be reachable by every "
                 "lane, so it belongs at the top level of the lowering's body");
      }
    }
  }
  bool inner_closure = closure || sym == S->closure_expression;
  bool branches = sym == S->for_statement || sym == S->while_statement ||
                  sym == S->loop_statement || sym == S->if_expression ||
                  sym == S->match_expression || sym == S->spawn_expression ||
                  sym == S->comptime_block || sym == S->closure_expression;
  TSTreeCursor c = ts_tree_cursor_new(n);
  for (bool more = ts_tree_cursor_goto_first_child(&c); more && R->rc == VXP_OK;
       more = ts_tree_cursor_goto_next_sibling(&c)) {
    TSNode child = ts_tree_cursor_current_node(&c);
    if (ts_node_is_named(child))
      check_uses(R, child, control + (branches ? 1u : 0u), inner_closure, depth + 1, publishes);
  }
  ts_tree_cursor_delete(&c);
}

/* ------------------------------------------------------------------ the async walk */

static flow join(flow a, flow b) {
  if (!a.live) return b;
  if (!b.live) return a;
  return (flow){a.dst | b.dst, a.src | b.src, true};
}

static const flow DEAD = {0, 0, false};

static flow walk(raw_walk *R, TSNode n, flow in, loop_exits *loop, unsigned depth);

static flow walk_children(raw_walk *R, TSNode n, flow in, loop_exits *loop, unsigned depth) {
  TSTreeCursor c = ts_tree_cursor_new(n);
  for (bool more = ts_tree_cursor_goto_first_child(&c); more && R->rc == VXP_OK;
       more = ts_tree_cursor_goto_next_sibling(&c)) {
    TSNode child = ts_tree_cursor_current_node(&c);
    if (ts_node_is_named(child) && !is_comment(R, child)) in = walk(R, child, in, loop, depth + 1);
  }
  ts_tree_cursor_delete(&c);
  return in;
}

static void unwaited(raw_walk *R, flow f) {
  if (!f.live) return;
  for (uint32_t p = 0; p < R->nparams; p++) {
    if (!((f.dst >> p) & 1u)) continue;
    const char *t = R->params[p].name;
    uint32_t len = R->params[p].len;
    /* Reported at the copy, once: the path that leaves it unwaited is what is wrong. */
    uint32_t s = R->copy_at[p][0], e = R->copy_at[p][1];
    if (seen(R, "E6021", s) || R->rc != VXP_OK) continue;
    record(R, VXP_RAW_ALWAYS, "E6021", s, e,
           "raw::async_copy into `%.*s` has no matching raw::async_wait() on a path that leaves "
           "the lowering: the engine may still be writing when the transfer returns",
           (int)len, t);
  }
}

/* ------------------------------------------------------------------ loop bodies walked once
 *
 * A loop body is walked twice (below), so a nest of n loops would walk its innermost body
 * 2^n times: 20 nested `for`s took seconds and 313 never ended. A body's walk is a function
 * of the body, the state entering it and copy_at, and its reports are made once (seen()),
 * so a walk from the same point is looked up instead: its end, breaks and copy_at after are
 * those of the first. Each body is then walked once per distinct entering point, and the
 * states are a few bits per tile. */

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

static uint64_t body_hash(const raw_walk *R, uint32_t body, flow entry) {
  uint64_t h = mix(mix(mix(mix(0, body), entry.dst), entry.src), entry.live);
  for (uint32_t t = 0; t < R->nparams; t++)
    h = mix(mix(h, R->copy_at[t][0]), R->copy_at[t][1]);
  return h;
}

static bool same_flow(flow a, flow b) {
  return a.dst == b.dst && a.src == b.src && a.live == b.live;
}

static size_t copies_size(const raw_walk *R) { return 2 * (size_t)R->nparams * sizeof(uint32_t); }

/* The walk of `body` from `entry` and the current copy_at, when one was made. */
static const body_walk *body_walked(const raw_walk *R, uint32_t body, flow entry, uint64_t h) {
  size_t cap = R->body_slots.len;
  for (size_t i = cap ? h & (cap - 1) : 0; cap && R->body_slots.items[i]; i = (i + 1) & (cap - 1)) {
    const body_walk *b = &R->bodies.items[R->body_slots.items[i] - 1];
    if (b->hash == h && b->body == body && same_flow(b->entry, entry) &&
        (R->nparams == 0 ||
         memcmp(&R->body_copies.items[b->copies], R->copy_at, copies_size(R)) == 0))
      return b;
  }
  return NULL;
}

static void slot_in(raw_walk *R, uint32_t index) {
  size_t cap = R->body_slots.len, i = R->bodies.items[index].hash & (cap - 1);
  while (R->body_slots.items[i])
    i = (i + 1) & (cap - 1);
  R->body_slots.items[i] = index + 1;
}

/* Keeps walk `b` (copies: copy_at before the walk; R->copy_at is the one after). */
static void body_keep(raw_walk *R, body_walk b, const uint32_t *before) {
  size_t words = 2 * (size_t)R->nparams;
  b.copies = (uint32_t)R->body_copies.len;
  if ((words && !array_reserve(R->ctx, &R->body_copies, 2 * words)) ||
      !array_push(R->ctx, &R->bodies, b)) {
    R->rc = VXP_ENOMEM;
    return;
  }
  if (words) {
    memcpy(&R->body_copies.items[R->body_copies.len], before, words * sizeof(uint32_t));
    memcpy(&R->body_copies.items[R->body_copies.len + words], R->copy_at, words * sizeof(uint32_t));
    R->body_copies.len += 2 * words;
  }
  if (2 * R->bodies.len > R->body_slots.len) { /* keep the table at most half full */
    size_t cap = R->body_slots.len ? 2 * R->body_slots.len : 64;
    R->body_slots.len = 0;
    if (!array_reserve(R->ctx, &R->body_slots, cap)) {
      R->rc = VXP_ENOMEM;
      return;
    }
    memset(R->body_slots.items, 0, cap * sizeof(uint32_t));
    R->body_slots.len = cap;
    for (uint32_t i = 0; i < R->bodies.len; i++)
      slot_in(R, i);
  } else {
    slot_in(R, (uint32_t)R->bodies.len - 1);
  }
}

/* A loop body, walked twice so that what one iteration leaves in flight meets the next;
 * returns the state at the end of an iteration (continues joined in). */
static flow loop_body(raw_walk *R, TSNode body, flow entry, loop_exits *exits, unsigned depth) {
  uint32_t at = ts_node_start_byte(body);
  uint64_t h = body_hash(R, at, entry);
  const body_walk *done = body_walked(R, at, entry, h);
  if (done) {
    if (R->nparams)
      memcpy(R->copy_at, &R->body_copies.items[done->copies + 2 * R->nparams], copies_size(R));
    exits->brk = done->brk;
    return done->end;
  }
  uint32_t before[2 * RAW_MAX_TILES];
  memcpy(before, R->copy_at, copies_size(R));
  loop_exits first = {DEAD, DEAD};
  flow end1 = walk(R, body, entry, &first, depth + 1);
  end1 = join(end1, first.cont);
  loop_exits second = {DEAD, DEAD};
  flow end2 = walk(R, body, join(entry, end1), &second, depth + 1);
  exits->brk = join(first.brk, second.brk);
  flow end = join(join(end1, end2), second.cont);
  if (R->rc == VXP_OK) body_keep(R, (body_walk){at, h, entry, end, exits->brk, 0}, before);
  return end;
}

static void effect(raw_walk *R, TSNode call, int p, flow *f) {
  if (!f->live) return;
  if (p == PRIM_ASYNC_WAIT) {
    f->dst = f->src = 0;
    return;
  }
  if (p != PRIM_LOAD && p != PRIM_STORE && p != PRIM_ASYNC_COPY) return;
  TSNode first = nth_arg(R, call, 0);
  int t = param_of(R, first);
  if (t < 0 || t >= RAW_MAX_TILES) return; /* E6017 already */
  uint64_t bit = (uint64_t)1 << t;
  uint32_t len;
  const char *name = vxp_node__text(R->src->text, first, &len);
  if (p == PRIM_LOAD && (f->dst & bit))
    report(R, "E6021", call,
           "raw::load reads `%.*s` while a raw::async_copy into it is still outstanding: its "
           "contents are unspecified until raw::async_wait()",
           (int)len, name);
  if (p == PRIM_STORE && ((f->dst | f->src) & bit))
    report(R, "E6021", call,
           "raw::store writes `%.*s` while a raw::async_copy %s it is still outstanding; "
           "raw::async_wait() first",
           (int)len, name, (f->dst & bit) ? "into" : "from");
  if (p == PRIM_ASYNC_COPY) {
    f->dst |= bit;
    R->copy_at[t][0] = ts_node_start_byte(call);
    R->copy_at[t][1] = ts_node_end_byte(call);
    int s = param_of(R, nth_arg(R, call, 1));
    if (s >= 0 && s < RAW_MAX_TILES) f->src |= (uint64_t)1 << s;
  }
}

static flow walk(raw_walk *R, TSNode n, flow in, loop_exits *loop, unsigned depth) {
  if (R->rc != VXP_OK || depth > VXP_MAX_NESTING || !in.live) return in;
  const vxp_symbols *S = R->S;
  TSSymbol sym = ts_node_symbol(n);
  if (sym == S->closure_expression) return in; /* runs when called (E6017 if it uses raw) */
  if (sym == S->return_statement) {
    flow out = walk_children(R, n, in, loop, depth);
    unwaited(R, out);
    return DEAD;
  }
  if (sym == S->break_statement || sym == S->continue_statement) {
    if (loop) {
      if (sym == S->break_statement)
        loop->brk = join(loop->brk, in);
      else
        loop->cont = join(loop->cont, in);
    }
    return DEAD;
  }
  if (sym == S->for_statement || sym == S->while_statement) {
    TSNode head = vxp_node__field(n, sym == S->for_statement ? R->F->iterable : R->F->condition);
    flow entry = ts_node_is_null(head) ? in : walk(R, head, in, loop, depth + 1);
    loop_exits exits = {DEAD, DEAD};
    flow end = loop_body(R, vxp_node__field(n, R->F->body), entry, &exits, depth);
    return join(join(entry, end), exits.brk); /* the body may run no times */
  }
  if (sym == S->loop_statement) {
    loop_exits exits = {DEAD, DEAD};
    loop_body(R, vxp_node__field(n, R->F->body), in, &exits, depth);
    return exits.brk; /* a `loop` is left only by `break` (or `return`) */
  }
  if (sym == S->if_expression) {
    TSNode cond = vxp_node__field(n, R->F->condition);
    flow c = ts_node_is_null(cond) ? in : walk(R, cond, in, loop, depth + 1);
    flow then = walk(R, vxp_node__field(n, R->F->consequence), c, loop, depth + 1);
    TSNode alt = vxp_node__field(n, R->F->alternative);
    flow other = ts_node_is_null(alt) ? c : walk(R, alt, c, loop, depth + 1);
    return join(then, other);
  }
  if (sym == S->match_expression) {
    TSNode value = vxp_node__field(n, R->F->value);
    flow v = ts_node_is_null(value) ? in : walk(R, value, in, loop, depth + 1);
    TSNode arms = vxp_node__field(n, R->F->body);
    flow out = DEAD;
    bool any = false;
    TSTreeCursor c = ts_tree_cursor_new(arms);
    for (bool more = ts_tree_cursor_goto_first_child(&c); more;
         more = ts_tree_cursor_goto_next_sibling(&c)) {
      TSNode arm = ts_tree_cursor_current_node(&c);
      if (!vxp_node__is(arm, S->match_arm)) continue;
      out = join(out, walk(R, vxp_node__field(arm, R->F->value), v, loop, depth + 1));
      any = true;
    }
    ts_tree_cursor_delete(&c);
    return any ? out : v;
  }
  if (sym == S->call_expression) {
    TSNode name = {{0}};
    int p = primitive_of(R, n, &name);
    flow out = walk(R, vxp_node__field(n, R->F->arguments), in, loop, depth + 1);
    if (p < 0)
      out = walk(R, vxp_node__field(n, R->F->function), out, loop, depth + 1);
    else
      effect(R, n, p, &out);
    return out;
  }
  return walk_children(R, n, in, loop, depth);
}

/* ------------------------------------------------------------------ publication */

/* The statements of the body's top level, with top-level `unsafe { }` blocks opened (vxc
 * counts them as top level), in order. Calls `fn` on each; stops when it returns false. */
static void top_statements(raw_walk *R, TSNode block, unsigned depth,
                           bool (*fn)(raw_walk *, TSNode, void *), void *data, bool *stop) {
  if (depth > VXP_MAX_NESTING) return;
  TSTreeCursor c = ts_tree_cursor_new(block);
  for (bool more = ts_tree_cursor_goto_first_child(&c); more && !*stop;
       more = ts_tree_cursor_goto_next_sibling(&c)) {
    TSNode s = ts_tree_cursor_current_node(&c);
    if (!ts_node_is_named(s) || is_comment(R, s)) continue;
    TSNode inner = vxp_node__is(s, R->S->expression_statement) ? ts_node_named_child(s, 0) : s;
    if (vxp_node__is(inner, R->S->unsafe_block)) {
      top_statements(R, vxp_node__field(inner, R->F->body), depth + 1, fn, data, stop);
      continue;
    }
    if (!fn(R, s, data)) *stop = true;
  }
  ts_tree_cursor_delete(&c);
}

static bool is_barrier_statement(raw_walk *R, TSNode s) {
  TSNode e = vxp_node__is(s, R->S->expression_statement) ? ts_node_named_child(s, 0) : s;
  TSNode name = {{0}};
  return vxp_node__is(e, R->S->call_expression) && primitive_of(R, e, &name) == PRIM_BARRIER;
}

typedef struct last_stmt {
  TSNode last;      /* the last top-level statement that is not a `return` */
  uint32_t barrier; /* start byte of the last top-level barrier, or 0 */
  bool has_barrier;
} last_stmt;

static bool note_statement(raw_walk *R, TSNode s, void *data) {
  last_stmt *L = data;
  if (is_barrier_statement(R, s)) {
    L->barrier = ts_node_start_byte(s);
    L->has_barrier = true;
  }
  if (!vxp_node__is(s, R->S->return_statement)) L->last = s;
  return true;
}

/* Returns nested in control flow before the last top-level barrier: early exits that skip it. */
static void early_returns(raw_walk *R, TSNode n, uint32_t barrier, bool nested, unsigned depth) {
  if (R->rc != VXP_OK || depth > VXP_MAX_NESTING) return;
  const vxp_symbols *S = R->S;
  TSSymbol sym = ts_node_symbol(n);
  if (sym == S->closure_expression) return;
  if (sym == S->return_statement && nested && ts_node_start_byte(n) < barrier) {
    report_when(R, VXP_RAW_SYNCHRONIZING, "E6021", n,
                "an early `return` leaves the lowering before its raw::barrier(): the destination "
                "is written on a synchronizing edge, so the lowering has one exit, past the "
                "barrier (and a lane that leaves here skips a barrier the others wait at)");
    return;
  }
  bool inner = nested || sym == S->for_statement || sym == S->while_statement ||
               sym == S->loop_statement || sym == S->if_expression || sym == S->match_expression ||
               sym == S->spawn_expression;
  TSTreeCursor c = ts_tree_cursor_new(n);
  for (bool more = ts_tree_cursor_goto_first_child(&c); more && R->rc == VXP_OK;
       more = ts_tree_cursor_goto_next_sibling(&c)) {
    TSNode child = ts_tree_cursor_current_node(&c);
    if (ts_node_is_named(child)) early_returns(R, child, barrier, inner, depth + 1);
  }
  ts_tree_cursor_delete(&c);
}

/* ------------------------------------------------------------------ items */

static void read_params(raw_walk *R, TSNode fn) {
  R->nparams = 0;
  TSNode params = vxp_node__field(fn, R->F->parameters);
  TSTreeCursor c = ts_tree_cursor_new(params);
  for (bool more = ts_tree_cursor_goto_first_child(&c); more && R->nparams < RAW_MAX_TILES;
       more = ts_tree_cursor_goto_next_sibling(&c)) {
    TSNode p = ts_tree_cursor_current_node(&c);
    if (!vxp_node__is(p, R->S->parameter)) continue;
    TSNode name = vxp_node__field(p, R->F->name);
    TSNode type = vxp_node__field(p, R->F->type);
    if (ts_node_is_null(name)) continue;
    raw_param *rp = &R->params[R->nparams++];
    rp->name = vxp_node__text(R->src->text, name, &rp->len);
    rp->is_mut_ref = vxp_node__is(type, R->S->reference_type) &&
                     !ts_node_is_null(vxp_node__field(type, R->F->mutable));
  }
  ts_tree_cursor_delete(&c);
}

/* Whether the subtree calls a `raw::` primitive (vxc holds a body to the whole-body rules
 * only then). Iterative: bodies nest arbitrarily. */
static bool is_raw_call(TSNode x, const void *data) {
  const raw_walk *R = data;
  TSNode name;
  return vxp_node__is(x, R->S->call_expression) && primitive_of(R, x, &name) >= 0;
}

static bool calls_raw(const raw_walk *R, TSNode n) {
  return !ts_node_is_null(vxp_node__find(n, is_raw_call, R));
}

static bool note_final(raw_walk *R, TSNode s, void *data) {
  VXP__UNUSED(R);
  *(TSNode *)data = s;
  return true;
}

/* vxc's rule for every lowering written with the primitives, whatever its edge's grade: the
 * body is inlined at the transfer, so a `return` that is not the body's last statement
 * would return from the function that performs the transfer (E6021). */
static void returns_before_the_end(raw_walk *R, TSNode n, TSNode final, unsigned depth) {
  if (R->rc != VXP_OK || depth > VXP_MAX_NESTING || vxp_node__is(n, R->S->closure_expression))
    return;
  if (vxp_node__is(n, R->S->return_statement) && !ts_node_eq(n, final))
    report(R, "E6021", n,
           "`return` before the end of a lowering: the body is inlined at the transfer site, "
           "so this would return from whatever function performs the transfer; a lowering "
           "returns once, at the bottom");
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count && R->rc == VXP_OK; i++)
    returns_before_the_end(R, ts_node_named_child(n, i), final, depth + 1);
}

static void check_function(raw_walk *R, TSNode fn) {
  TSNode body = vxp_node__field(fn, R->F->body);
  if (ts_node_is_null(body)) return;
  read_params(R, fn);
  R->reported.len = 0;
  memset(R->copy_at, 0, sizeof(R->copy_at));
  R->bodies.len = R->body_copies.len = 0;
  if (R->body_slots.len) memset(R->body_slots.items, 0, R->body_slots.len * sizeof(uint32_t));
  bool publishes = false;
  check_uses(R, body, 0, false, 0, &publishes);
  flow end = walk(R, body, (flow){0, 0, true}, NULL, 0);
  unwaited(R, end);
  if (calls_raw(R, body)) {
    TSNode final = {{0}, 0, 0};
    bool done = false;
    top_statements(R, body, 0, note_final, &final, &done);
    returns_before_the_end(R, body, final, 0);
  }
  /* Publication: a synchronizing edge (not `relaxed`) needs the writes published; what
   * follows holds only on such an edge (VXP_RAW_SYNCHRONIZING). */
  if (!publishes || !R->has_edge || R->rc != VXP_OK) return;
  last_stmt L = {{{0}}, 0, false};
  bool stop = false;
  top_statements(R, body, 0, note_statement, &L, &stop);
  if (ts_node_is_null(L.last) || !is_barrier_statement(R, L.last)) {
    uint32_t nl;
    const char *nt = vxp_node__text(R->src->text, vxp_node__field(fn, R->F->name), &nl);
    report_when(R, VXP_RAW_SYNCHRONIZING, "E6021", vxp_node__field(fn, R->F->name),
                "lowering `%.*s` writes its destination on the synchronizing edge "
                "Memory::%.*s -> Memory::%.*s but does not end with raw::barrier(): without it "
                "the transfer is relaxed and a stale read is reachable",
                (int)nl, nt, (int)R->from_len, R->from_name, (int)R->to_len, R->to_name);
    return;
  }
  if (L.has_barrier) early_returns(R, body, L.barrier, false, 0);
}

/* The lowering's edge as written, recorded (VXP_RAW_EDGE) for the analysis to look up. */
static void find_edge(raw_walk *R, TSNode item) {
  R->has_edge = false;
  R->topo_name = R->from_name = R->to_name = "";
  R->topo_len = R->from_len = R->to_len = 0;
  TSNode topo = vxp_node__field(vxp_node__field(item, R->F->topology), R->F->name);
  TSNode from = vxp_node__field(vxp_node__field(item, R->F->from), R->F->name);
  TSNode to = vxp_node__field(vxp_node__field(item, R->F->to), R->F->name);
  vxp_raw_fact f;
  memset(&f, 0, sizeof(f));
  f.kind = VXP_RAW_EDGE;
  f.message = f.from = f.to = VXP_NAME_NONE;
  f.start_byte = ts_node_start_byte(item);
  f.end_byte = ts_node_end_byte(item);
  if (!ts_node_is_null(topo) && !ts_node_is_null(from) && !ts_node_is_null(to)) {
    R->has_edge = true;
    R->topo_name = vxp_node__text(R->src->text, topo, &R->topo_len);
    R->from_name = vxp_node__text(R->src->text, from, &R->from_len);
    R->to_name = vxp_node__text(R->src->text, to, &R->to_len);
    f.message = R->W->intern(R->W->arg, R->topo_name, R->topo_len);
    f.from = R->W->intern(R->W->arg, R->from_name, R->from_len);
    f.to = R->W->intern(R->W->arg, R->to_name, R->to_len);
    if (f.message == VXP_NAME_NONE || f.from == VXP_NAME_NONE || f.to == VXP_NAME_NONE ||
        f.message == VXP_NAME_ERROR || f.from == VXP_NAME_ERROR || f.to == VXP_NAME_ERROR) {
      R->rc = VXP_ENOMEM;
      return;
    }
  }
  if (!array_push(R->ctx, R->W->out, f)) R->rc = VXP_ENOMEM;
}

/* `raw::` outside every lowering: the primitives exist only in lowering bodies. */
static void outside(raw_walk *R, TSNode n, unsigned depth) {
  if (R->rc != VXP_OK || depth > VXP_MAX_NESTING) return;
  if (vxp_node__is(n, R->S->call_expression)) {
    TSNode name = {{0}};
    if (primitive_of(R, n, &name) >= 0) {
      uint32_t nl;
      const char *nt = vxp_node__text(R->src->text, name, &nl);
      report(R, "E6017", n,
             "raw::%.*s is only legal inside a transfer lowering (`impl Transfer<Memory::A, "
             "Memory::B> for Topology::X { fn ... }`): anywhere else the primitives are "
             "reserved",
             (int)nl, nt);
    }
  }
  TSTreeCursor c = ts_tree_cursor_new(n);
  for (bool more = ts_tree_cursor_goto_first_child(&c); more && R->rc == VXP_OK;
       more = ts_tree_cursor_goto_next_sibling(&c)) {
    TSNode child = ts_tree_cursor_current_node(&c);
    if (ts_node_is_named(child)) outside(R, child, depth + 1);
  }
  ts_tree_cursor_delete(&c);
}

/* Whether the text of `n` holds the letters `raw`: a call that `outside` reports names the
 * path `raw`, so an item without them has nothing to report, and the walk of its whole
 * subtree (the costliest part of lowering a program that never uses the primitives: 12% of
 * a fresh parse and analysis of bench_incremental's program) is skipped. */
static bool mentions_raw(const raw_walk *R, TSNode n) {
  uint32_t start = ts_node_start_byte(n), end = ts_node_end_byte(n);
  if (end > R->src->len) end = (uint32_t)R->src->len;
  const char *t = R->src->text;
  for (uint32_t at = start; at < end && end - at >= 3;) {
    const char *r = memchr(t + at, 'r', end - at - 2);
    if (!r) return false;
    if (r[1] == 'a' && r[2] == 'w') return true;
    at = (uint32_t)(r - t) + 1;
  }
  return false;
}

/* The checks of top-level item `item`. */
static void check_item(raw_walk *R, TSNode item) {
  if (vxp_node__is(item, R->S->legacy_transfer_impl_item)) return; /* refused as a syntax error */
  if (!vxp_node__is(item, R->S->transfer_impl_item)) {
    R->reported.len = 0;
    if (mentions_raw(R, item)) outside(R, item, 0);
    return;
  }
  find_edge(R, item);
  TSNode body = vxp_node__field(item, R->F->body);
  TSTreeCursor c = ts_tree_cursor_new(body);
  for (bool m = ts_tree_cursor_goto_first_child(&c); m && R->rc == VXP_OK;
       m = ts_tree_cursor_goto_next_sibling(&c)) {
    TSNode fn = ts_tree_cursor_current_node(&c);
    if (vxp_node__is(fn, R->S->function_item)) check_function(R, fn);
  }
  ts_tree_cursor_delete(&c);
}

int vxp_lower_raw__item(vxp_lower_raw *W, TSNode item) {
  raw_walk R;
  memset(&R, 0, sizeof(R));
  R.ctx = W->ctx;
  R.src = W->src;
  R.S = &W->ctx->syms;
  R.F = &W->ctx->fields;
  R.W = W;
  R.rc = VXP_OK;
  check_item(&R, item);
  array_free(R.ctx, &R.reported);
  array_free(R.ctx, &R.bodies);
  array_free(R.ctx, &R.body_slots);
  array_free(R.ctx, &R.body_copies);
  vxp_sb__free(R.ctx, &R.message);
  return R.rc;
}
