/* SPDX-License-Identifier: Apache-2.0 */
/* lower_visibility.c - the facts visibility.c checks, read from a function body once, at
 * lowering time (model.h: vxp_vis_fact).
 *
 * The walk follows each function in program order with the topology its code runs on: the
 * function's `on` topology, or the host (`Topology::CPU`) when it names none, and inside
 * `spawn on(T) { }` the region's T. It keeps the bindings in scope with what is known of
 * where each value lives (a memory space, a topology, or nothing known) and records each
 * construct a check asks about as it meets it, with what the program says of it. What the
 * machine says (a topology's default space, what it sees) is left to the analysis, so the
 * facts hold for every machine. Anything it cannot place (a generic topology variable, a
 * value returned by a call) is not recorded rather than guessed: none of these checks
 * admits a program, they only refuse. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "context.h"
#include "source.h"
#include "symbols.h"
#include "scope_index.h"
#include "lower_visibility.h"
#include "reuse.h"

/* Where a value lives: a space by name or a topology's default space (the machine says
 * which: the analysis resolves it); known false: nothing is known. */
typedef struct vis_space {
  bool known;
  bool of_topology;
  vis_name space;
  vis_topo topo;
} vis_space;

typedef enum vis_kind {
  VIS_OTHER,   /* nothing placed is known of it */
  VIS_TENSOR,  /* a tensor living in `space` */
  VIS_POINTER, /* a pointer into `space` */
  VIS_PLACED   /* a value produced on topology `topo` (a region's value, a Pinned) */
} vis_kind;

typedef struct vis_var {
  vis_name name;
  uint8_t kind;     /* vis_kind */
  vis_space space;  /* where it lives */
  vis_topo topo;    /* VIS_PLACED: the topology; else empty */
  bool no_topology; /* `.topology()` is None: an unplaced value made on the host */
  TSNode let;       /* the `let` that bound it; null for parameters and patterns */
  uint32_t region;  /* start byte of the innermost spawn region around it, or VXP_NONE */
} vis_var;

typedef struct vis_walk {
  vxp_context *ctx;
  const vxp_source *src;
  const vxp_symbols *S;
  const vxp_fields *F;
  const vxp_lower_vis *V;
  Array(vis_var) vars;
  vxp_scope_index names;   /* entry i: vars.items[i]'s name, for lookup by hash */
  Array(vis_fn) fns;       /* sorted by name, for the calls */
  Array(vis_param) params; /* the indexed functions' parameters */
  TSNode fn;               /* the function being walked (its generics name topology variables) */
  vis_topo here;           /* where the code being walked runs; empty name: not known */
  uint32_t region;         /* start byte of the innermost spawn region, or VXP_NONE */
  bool comptime;           /* inside a `comptime { }` block */
  bool in_access; /* walking the indexed value of an element access (`x[i]` of `x[i][j]`) */
  uint32_t depth;
  int rc;
} vis_walk;

static const vis_name HOST_SPACE = {"CPU_DRAM", 8};

/* ------------------------------------------------------------------ names */

static vis_name text_of(const vis_walk *W, TSNode n) {
  vis_name r = {NULL, 0};
  if (ts_node_is_null(n)) return r;
  r.s = W->src->text + ts_node_start_byte(n);
  r.len = ts_node_end_byte(n) - ts_node_start_byte(n);
  return r;
}

static vis_name cstr(const char *s) {
  vis_name r = {s, s ? (uint32_t)strlen(s) : 0};
  return r;
}

static bool name_eq(vis_name a, vis_name b) {
  return a.len == b.len && a.len > 0 && memcmp(a.s, b.s, a.len) == 0;
}

static bool name_is(vis_name a, const char *s) { return name_eq(a, cstr(s)); }

static TSNode field_of(TSNode n, TSFieldId id) {
  return ts_node_is_null(n) ? n : ts_node_child_by_field_id(n, id);
}
#define field(W, n, id) field_of((n), (id))

/* ------------------------------------------------------------------ topologies in the code */

static const vis_topo HOST = {{"CPU", 3}, {NULL, 0}};

/* Whether `name` is a topology variable of the function being walked (`<D: Topology>`). */
static bool topology_variable(const vis_walk *W, vis_name name) {
  TSNode generics = field(W, W->fn, W->F->generics);
  uint32_t n = vxp_node__named_count(generics);
  for (uint32_t i = 0; i < n; i++) {
    TSNode p = ts_node_named_child(generics, i);
    if (name_eq(text_of(W, field(W, p, W->F->name)), name)) return true;
  }
  return false;
}

/* The topology a `Topology::T[i]` (or a bare name) denotes; an empty name when it is a
 * variable, `Current`, or not a topology at all. */
static vis_topo topo_of(const vis_walk *W, TSNode n) {
  vis_topo t = {{NULL, 0}, {NULL, 0}};
  if (vxp_node__is(n, W->S->parenthesized_expression)) n = ts_node_named_child(n, 0);
  if (!vxp_node__is(n, W->S->topology_path)) return t;
  vis_name name = text_of(W, field(W, n, W->F->name));
  if (name_is(name, "Current") || topology_variable(W, name)) return t;
  t.name = name;
  t.index = text_of(W, field(W, n, W->F->index));
  return t;
}

static bool topo_known(vis_topo t) { return t.name.len > 0; }

/* `NPU` and `NPU[0]` are one device: vxc resolves a topology without an index to its first. */
static bool topo_eq(vis_topo a, vis_topo b) {
  if (!name_eq(a.name, b.name)) return false;
  vis_name zero = {"0", 1};
  vis_name ia = a.index.len ? a.index : zero, ib = b.index.len ? b.index : zero;
  return name_eq(ia, ib);
}

/* ------------------------------------------------------------------ facts */

static vxp_name intern(vis_walk *W, vis_name n) {
  if (n.len == 0 || W->rc != VXP_OK) return VXP_NAME_NONE;
  return W->V->intern(W->V->arg, n.s, n.len);
}

static vxp_vis_topo topo_fact(vis_walk *W, vis_topo t) {
  vxp_vis_topo r = {intern(W, t.name), intern(W, t.index)};
  return r;
}

static vxp_vis_space space_fact(vis_walk *W, vis_space s) {
  vxp_vis_space r;
  memset(&r, 0, sizeof(r));
  r.of_topology = s.of_topology;
  if (s.of_topology)
    r.topo = topo_fact(W, s.topo);
  else
    r.space = intern(W, s.space);
  return r;
}

/* A fact of `kind` pointing at `at`, zeroed otherwise. */
static vxp_vis_fact fact(uint8_t kind, TSNode at) {
  vxp_vis_fact f;
  memset(&f, 0, sizeof(f));
  f.kind = kind;
  f.start_byte = ts_node_start_byte(at);
  f.end_byte = ts_node_end_byte(at);
  return f;
}

static void record(vis_walk *W, const vxp_vis_fact *f) {
  if (W->rc == VXP_OK && !array_push(W->ctx, &W->V->m->visibility, *f)) W->rc = VXP_ENOMEM;
}

static vis_space space_named(vis_name n) {
  vis_space r;
  memset(&r, 0, sizeof(r));
  r.known = n.len > 0;
  r.space = n;
  return r;
}

static vis_space space_of_topology(vis_topo t) {
  vis_space r;
  memset(&r, 0, sizeof(r));
  r.known = true;
  r.of_topology = true;
  r.topo = t;
  return r;
}

/* ------------------------------------------------------------------ bindings */

static const vis_var *lookup(const vis_walk *W, vis_name name) {
  size_t k = vxp_scope_index__find(&W->names, name.s, name.len);
  return k == SIZE_MAX ? NULL : &W->vars.items[k];
}

static void bind(vis_walk *W, vis_var v) {
  v.region = W->region;
  if (W->rc != VXP_OK) return;
  if (!vxp_scope_index__push(W->ctx, &W->names, v.name.s, v.name.len)) {
    W->rc = VXP_ENOMEM;
  } else if (!array_push(W->ctx, &W->vars, v)) {
    vxp_scope_index__truncate(&W->names, W->vars.len);
    W->rc = VXP_ENOMEM;
  }
}

/* Drop the bindings from `mark` on. */
static void unbind(vis_walk *W, size_t mark) {
  W->vars.len = mark;
  vxp_scope_index__truncate(&W->names, mark);
}

static void bind_other(vis_walk *W, TSNode name_node) {
  vis_var v;
  memset(&v, 0, sizeof(v));
  v.name = text_of(W, name_node);
  v.let = (TSNode){0};
  if (v.name.len) bind(W, v);
}

/* What a declared type says of a value: a tensor's space, a Pinned's topology, a pointer's
 * space. Unplaced tensors and pointers live on the host only when made by host code. */
static void describe_type(const vis_walk *W, TSNode type, vis_var *v, bool made_here) {
  for (int guard = 0; vxp_node__is(type, W->S->reference_type) && guard < 64; guard++)
    type = field(W, type, W->F->type);
  if (vxp_node__is(type, W->S->tensor_type)) {
    v->kind = VIS_TENSOR;
    TSNode place = field(W, type, W->F->placement);
    if (vxp_node__is(place, W->S->memory_path)) {
      v->space = space_named(text_of(W, field(W, place, W->F->name)));
    } else if (vxp_node__is(place, W->S->topology_path)) {
      vis_topo t = topo_of(W, place);
      if (topo_known(t)) {
        v->space = space_of_topology(t);
        v->topo = t;
      }
    } else if (made_here && topo_eq(W->here, HOST)) {
      v->space = space_named(HOST_SPACE);
      v->no_topology = true;
    }
  } else if (vxp_node__is(type, W->S->pinned_type)) {
    vis_topo t = topo_of(W, field(W, type, W->F->topology));
    if (topo_known(t)) {
      v->kind = VIS_PLACED;
      v->topo = t;
      v->space = space_of_topology(t);
    }
  } else if (vxp_node__is(type, W->S->pointer_type)) {
    v->kind = VIS_POINTER;
    TSNode space = field(W, type, W->F->space);
    v->space =
        space_named(ts_node_is_null(space) ? HOST_SPACE : text_of(W, field(W, space, W->F->name)));
  }
}

/* `x.as_ptr()` (or `as_mut_ptr()`) of a tensor whose space is known: the pointer's var. */
static bool pointer_of(const vis_walk *W, TSNode call, vis_var *out) {
  if (!vxp_node__is(call, W->S->call_expression)) return false;
  TSNode fn = field(W, call, W->F->function);
  vis_name method = text_of(W, field(W, fn, W->F->field));
  if (!vxp_node__is(fn, W->S->field_expression) ||
      !(name_is(method, "as_ptr") || name_is(method, "as_mut_ptr")))
    return false;
  TSNode recv = field(W, fn, W->F->value);
  if (!vxp_node__is(recv, W->S->identifier)) return false;
  const vis_var *t = lookup(W, text_of(W, recv));
  if (!t || t->kind != VIS_TENSOR || !t->space.known) return false;
  out->kind = VIS_POINTER;
  out->space = t->space;
  return true;
}

/* What the value of `let`'s initializer is known to be. */
static void describe_value(const vis_walk *W, TSNode value, vis_var *v) {
  if (vxp_node__is(value, W->S->tensor_constructor)) {
    describe_type(W, field(W, value, W->F->type), v, true);
  } else if (vxp_node__is(value, W->S->transfer_expression)) {
    TSNode to = field(W, value, W->F->space);
    v->kind = VIS_TENSOR;
    if (vxp_node__is(to, W->S->memory_path)) {
      v->space = space_named(text_of(W, field(W, to, W->F->name)));
    } else {
      vis_topo t = topo_of(W, to);
      if (topo_known(t)) {
        v->space = space_of_topology(t);
        v->topo = t;
      }
    }
  } else if (vxp_node__is(value, W->S->spawn_expression)) {
    vis_topo t = topo_of(W, field(W, value, W->F->topology));
    if (topo_known(t)) {
      v->kind = VIS_PLACED;
      v->topo = t;
      v->space = space_of_topology(t);
    }
  } else if (vxp_node__is(value, W->S->identifier)) {
    const vis_var *from = lookup(W, text_of(W, value));
    if (from) {
      v->kind = from->kind;
      v->space = from->space;
      v->topo = from->topo;
      v->no_topology = from->no_topology;
    }
  } else {
    pointer_of(W, value, v);
  }
}

/* ------------------------------------------------------------------ the checks */

/* E6003 at `x[i]`: the element's tensor must live where the code running here can see. */
static void check_access(vis_walk *W, TSNode index_expr) {
  TSNode base = index_expr;
  for (int guard = 0; vxp_node__is(base, W->S->index_expression) && guard < 64; guard++)
    base = field(W, base, W->F->value);
  if (!vxp_node__is(base, W->S->identifier) || !topo_known(W->here)) return;
  const vis_var *v = lookup(W, text_of(W, base));
  if (!v || (v->kind != VIS_TENSOR && v->kind != VIS_PLACED) || !v->space.known) return;
  vxp_vis_fact f = fact(VXP_VIS_ACCESS, base);
  f.name = intern(W, v->name);
  f.here = topo_fact(W, W->here);
  f.space = space_fact(W, v->space);
  record(W, &f);
}

static int name_cmp(vis_name a, vis_name b) {
  int c = memcmp(a.s, b.s, a.len < b.len ? a.len : b.len);
  return c ? c : (a.len > b.len) - (a.len < b.len);
}

/* By name, then item, then where the name is written (all in one text): a total order, so
 * that an index carried over by a splice and one read afresh are the same array even where
 * several functions share a name (and qsort's stability does not matter). */
static int fn_cmp(const void *a, const void *b) {
  const vis_fn *x = a, *y = b;
  int c = name_cmp(x->name, y->name);
  if (c) return c;
  if (x->item != y->item) return x->item < y->item ? -1 : 1;
  uintptr_t px = (uintptr_t)x->name.s, py = (uintptr_t)y->name.s;
  return (px > py) - (px < py);
}

static void index_fn(vis_walk *W, TSNode node, bool is_extern, uint32_t item) {
  vis_fn f;
  memset(&f, 0, sizeof(f));
  f.name = text_of(W, field(W, node, W->F->name));
  f.is_extern = is_extern;
  f.item = item;
  if (!f.name.len || W->rc != VXP_OK) return;
  if (is_extern) { /* a C function: a call to it is not checked */
    if (!array_push(W->ctx, &W->fns, f)) W->rc = VXP_ENOMEM;
    return;
  }
  TSNode on = field(W, node, W->F->topology);
  f.on_path = vxp_node__is(on, W->S->topology_path);
  if (f.on_path) {
    TSNode saved = W->fn;
    W->fn = node; /* its own generics decide whether `on` names a variable */
    f.on = topo_of(W, on);
    W->fn = saved;
  }
  TSNode params = field(W, node, W->F->parameters);
  uint32_t np = vxp_node__named_count(params);
  f.param_first = (uint32_t)W->params.len;
  f.param_count = np;
  for (uint32_t i = 0; i < np && W->rc == VXP_OK; i++) {
    vis_param p;
    memset(&p, 0, sizeof(p));
    TSNode ptype = field(W, ts_node_named_child(params, i), W->F->type);
    p.pointer = vxp_node__is(ptype, W->S->pointer_type);
    if (p.pointer) {
      TSNode want = field(W, ptype, W->F->space);
      p.want_host = ts_node_is_null(want);
      if (!p.want_host) p.want_name = text_of(W, field(W, want, W->F->name));
    }
    if (!array_push(W->ctx, &W->params, p)) W->rc = VXP_ENOMEM;
  }
  if (W->rc == VXP_OK && !array_push(W->ctx, &W->fns, f)) W->rc = VXP_ENOMEM;
}

/* The program's function named `name` (top level or extern), or NULL. */
static const vis_fn *function_named(const vis_walk *W, vis_name name) {
  size_t lo = 0, hi = W->fns.len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = name_cmp(W->fns.items[mid].name, name);
    if (c == 0) return &W->fns.items[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

/* E6001 and E6029 at a call of one of the program's functions. */
static void check_call(vis_walk *W, TSNode call) {
  TSNode fn_node = field(W, call, W->F->function);
  if (!vxp_node__is(fn_node, W->S->identifier)) return;
  vis_name callee_name = text_of(W, fn_node);
  const vis_fn *callee = function_named(W, callee_name);
  if (!callee || callee->is_extern) return; /* a C function takes any pointer */
  /* E6001: the callee runs only on the topology it names. */
  if (callee->on_path && topo_known(W->here)) {
    vis_topo need = callee->on;
    if (topo_known(need)) {
      vxp_vis_fact f = fact(VXP_VIS_CALL, call);
      f.name = intern(W, callee_name);
      f.topo = topo_fact(W, need);
      f.here = topo_fact(W, W->here);
      record(W, &f);
    }
  }
  /* E6029: a pointer into one memory passed where a pointer into another is wanted. */
  TSNode args = field(W, call, W->F->arguments);
  uint32_t np = callee->param_count, na = vxp_node__named_count(args);
  for (uint32_t i = 0; i < np && i < na; i++) {
    const vis_param *want = &W->params.items[callee->param_first + i];
    if (!want->pointer) continue;
    TSNode arg = ts_node_named_child(args, i);
    vis_var got;
    memset(&got, 0, sizeof(got));
    if (vxp_node__is(arg, W->S->identifier)) {
      const vis_var *v = lookup(W, text_of(W, arg));
      if (v) got = *v;
    } else {
      pointer_of(W, arg, &got);
    }
    if (got.kind != VIS_POINTER || !got.space.known) continue;
    vxp_vis_fact f = fact(VXP_VIS_POINTER, arg);
    f.arg = i + 1;
    f.name = intern(W, callee_name);
    f.space = space_fact(W, got.space);
    f.want_host = want->want_host;
    if (!f.want_host) f.want_space = intern(W, want->want_name);
    record(W, &f);
  }
}

/* Whether the subtree mentions a name bound inside the region starting at `region`. */
static bool mentions_region_name(const vis_walk *W, TSNode n, uint32_t region, int depth) {
  if (ts_node_is_null(n) || depth > 64) return false;
  if (vxp_node__is(n, W->S->identifier)) {
    const vis_var *v = lookup(W, text_of(W, n));
    return v && v->region == region;
  }
  uint32_t c = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < c; i++) {
    if (mentions_region_name(W, ts_node_named_child(n, i), region, depth + 1)) return true;
  }
  return false;
}

/* E6030 at the value a device region hands out, while the region's bindings are in scope:
 * a tensor the region creates is made before the region, in the device's memory, unless
 * something ties it to the region. `outer` is the number of bindings made before it. */
static void check_region_value(vis_walk *W, TSNode spawn, vis_topo on, size_t outer) {
  TSNode body = field(W, spawn, W->F->body);
  TSNode value = field(W, body, W->F->value);
  if (ts_node_is_null(value) || !topo_known(on)) return;
  uint32_t region = ts_node_start_byte(spawn);
  int why = -1;
  vis_name name = text_of(W, value);
  if (vxp_node__is(value, W->S->tensor_constructor)) {
    why = VXP_VIS_WHY_NOT_NAMED;
  } else if (vxp_node__is(value, W->S->identifier)) {
    const vis_var *v = lookup(W, name);
    if (!v || v->region != region || ts_node_is_null(v->let)) return;
    TSNode init = field(W, v->let, W->F->value);
    if (!vxp_node__is(init, W->S->tensor_constructor)) return;
    bool shadows = false;
    for (size_t i = 0; i < outer && i < W->vars.len; i++) {
      if (name_eq(W->vars.items[i].name, name)) shadows = true;
    }
    if (!ts_node_is_null(field(W, v->let, W->F->type)))
      why = VXP_VIS_WHY_ANNOTATED;
    else if (mentions_region_name(W, init, region, 0))
      why = VXP_VIS_WHY_SIZED_IN;
    else if (shadows)
      why = VXP_VIS_WHY_SHADOWS;
  }
  /* Whether the region's topology makes it on the host anyway is the machine's to say. */
  if (why < 0) return;
  vxp_vis_fact f = fact(VXP_VIS_REGION, value);
  f.why = (uint8_t)why;
  f.here = topo_fact(W, on);
  if (name.len > 60) name.len = 60;
  f.name = intern(W, name);
  record(W, &f);
}

/* `Some(Topology::T)` or `None`: *none set for None; false when it is neither. */
static bool placement_literal(const vis_walk *W, TSNode n, vis_topo *t, bool *none) {
  *none = false;
  if (vxp_node__is(n, W->S->identifier) && name_is(text_of(W, n), "None")) {
    *none = true;
    return true;
  }
  if (!vxp_node__is(n, W->S->call_expression)) return false;
  TSNode f = field(W, n, W->F->function), args = field(W, n, W->F->arguments);
  if (!vxp_node__is(f, W->S->identifier) || !name_is(text_of(W, f), "Some") ||
      vxp_node__named_count(args) != 1)
    return false;
  TSNode arg = ts_node_named_child(args, 0);
  if (!vxp_node__is(arg, W->S->topology_path)) return false;
  *t = topo_of(W, arg);
  return true;
}

/* `x.topology()`: the receiver identifier, or a null node. */
static TSNode topology_query(const vis_walk *W, TSNode n) {
  if (!vxp_node__is(n, W->S->call_expression) ||
      vxp_node__named_count(field(W, n, W->F->arguments)))
    return (TSNode){0};
  TSNode f = field(W, n, W->F->function);
  if (!vxp_node__is(f, W->S->field_expression) ||
      !name_is(text_of(W, field(W, f, W->F->field)), "topology"))
    return (TSNode){0};
  TSNode recv = field(W, f, W->F->value);
  return vxp_node__is(recv, W->S->identifier) ? recv : (TSNode){0};
}

/* E8002 (or E3026) for `assert(x.topology() == Some(Topology::T))` in a comptime block. */
static void check_comptime_assert(vis_walk *W, TSNode assert_stmt) {
  TSNode cond = field(W, assert_stmt, W->F->condition);
  if (!vxp_node__is(cond, W->S->binary_expression)) return;
  vis_name op = text_of(W, field(W, cond, W->F->operator));
  bool eq = name_is(op, "==");
  if (!eq && !name_is(op, "!=")) return;
  TSNode l = field(W, cond, W->F->left), r = field(W, cond, W->F->right);
  TSNode recv = topology_query(W, l), lit = r;
  if (ts_node_is_null(recv)) {
    recv = topology_query(W, r);
    lit = l;
  }
  vis_topo want = {{NULL, 0}, {NULL, 0}};
  bool want_none;
  if (ts_node_is_null(recv) || !placement_literal(W, lit, &want, &want_none)) return;
  vis_name x = text_of(W, recv);
  const vis_var *v = lookup(W, x);
  vxp_vis_fact f = fact(VXP_VIS_ASSERT, assert_stmt);
  f.cond_start = ts_node_start_byte(cond);
  f.cond_end = ts_node_end_byte(cond);
  f.eq = eq;
  f.name = intern(W, x);
  if (v && v->no_topology) {
    f.have = VXP_VIS_PLACED_NONE;
  } else if (v && topo_known(v->topo)) {
    f.have = VXP_VIS_PLACED_SOME;
    f.topo = topo_fact(W, v->topo);
  }
  if (want_none) {
    f.wanted = VXP_VIS_PLACED_NONE;
  } else if (topo_known(want)) {
    f.wanted = VXP_VIS_PLACED_SOME;
    f.want = topo_fact(W, want);
  }
  record(W, &f);
}

/* ------------------------------------------------------------------ the walk */

static void walk(vis_walk *W, TSNode n);

/* A cursor over the children: ts_node_named_child(n, i) walks from the first child each
 * time, which is quadratic in a block of many statements. */
static void walk_children(vis_walk *W, TSNode n) {
  if (ts_node_is_null(n) || ts_node_child_count(n) == 0) return;
  TSTreeCursor c = ts_tree_cursor_new(n);
  for (bool more = ts_tree_cursor_goto_first_child(&c); more && W->rc == VXP_OK;
       more = ts_tree_cursor_goto_next_sibling(&c)) {
    TSNode k = ts_tree_cursor_current_node(&c);
    if (ts_node_is_named(k)) walk(W, k);
  }
  ts_tree_cursor_delete(&c);
}

/* Names a match pattern binds: shadowing any placed value of the same name. */
static void bind_pattern(vis_walk *W, TSNode p, int depth) {
  if (ts_node_is_null(p) || depth > 64) return;
  if (vxp_node__is(p, W->S->identifier)) {
    bind_other(W, p);
    return;
  }
  uint32_t c = ts_node_named_child_count(p);
  for (uint32_t i = 0; i < c; i++) {
    TSNode k = ts_node_named_child(p, i);
    /* `E::V(x)`: the type and variant are names, not bindings. */
    if (ts_node_symbol(k) == W->S->identifier && i + 1 < c) continue;
    bind_pattern(W, k, depth + 1);
  }
}

/* The names of a tuple `let`, each an unplaced value that shadows an outer one. */
static void bind_tuple_names(vis_walk *W, TSNode pattern, unsigned depth) {
  if (depth > VXP_MAX_NESTING) return;
  uint32_t count = ts_node_named_child_count(pattern);
  for (uint32_t i = 0; i < count && W->rc == VXP_OK; i++) {
    TSNode part = ts_node_named_child(pattern, i);
    if (vxp_node__is(part, W->S->tuple_binding))
      bind_tuple_names(W, part, depth + 1);
    else if (vxp_node__is(part, W->S->binding))
      bind_other(W, field(W, part, W->F->name));
  }
}

static void walk(vis_walk *W, TSNode n) {
  if (ts_node_is_null(n) || W->rc != VXP_OK || W->depth > VXP_MAX_NESTING) return;
  W->depth++;
  TSSymbol sym = ts_node_symbol(n);
  bool access_chain = W->in_access;
  if (sym != W->S->index_expression) W->in_access = false;
  const vxp_symbols *S = W->S;
  size_t mark = W->vars.len;
  if (sym == S->let_declaration) {
    TSNode value = field(W, n, W->F->value);
    walk(W, value);
    vis_var v;
    memset(&v, 0, sizeof(v));
    v.name = text_of(W, field(W, n, W->F->name));
    v.let = n;
    TSNode type = field(W, n, W->F->type);
    if (!ts_node_is_null(type))
      describe_type(W, type, &v, vxp_node__is(value, S->tensor_constructor));
    if (v.kind == VIS_OTHER) describe_value(W, value, &v);
    if (v.name.len) bind(W, v);
    TSNode pattern = field(W, n, W->F->pattern);
    if (!ts_node_is_null(pattern)) bind_tuple_names(W, pattern, 0);
    mark = W->vars.len; /* the binding outlives the statement */
  } else if (sym == S->block) {
    walk_children(W, n);
  } else if (sym == S->spawn_expression) {
    walk(W, field(W, n, W->F->topology));
    vis_topo saved = W->here;
    uint32_t saved_region = W->region;
    vis_topo on = topo_of(W, field(W, n, W->F->topology));
    W->here = on;
    W->region = ts_node_start_byte(n);
    /* The body's bindings stay in scope until its value has been checked. */
    TSNode body = field(W, n, W->F->body);
    walk_children(W, body);
    check_region_value(W, n, on, mark);
    W->here = saved;
    W->region = saved_region;
  } else if (sym == S->if_expression && !ts_node_is_null(field(W, n, W->F->comptime))) {
    /* An `if comptime` arm may be pruned (vxc drops it before checking); the walk does not
     * fold the condition, so it checks neither arm rather than a pruned one. */
  } else if (sym == S->comptime_block) {
    bool saved = W->comptime;
    W->comptime = true;
    walk_children(W, n);
    W->comptime = saved;
  } else if (sym == S->assert_statement) {
    walk_children(W, n);
    if (W->comptime) check_comptime_assert(W, n);
  } else if (sym == S->call_expression) {
    walk_children(W, n);
    check_call(W, n);
  } else if (sym == S->index_expression) {
    /* `x[i][j]` is one access: checked once, at the outermost index. */
    bool saved = W->in_access;
    if (!saved) check_access(W, n);
    W->in_access = true;
    walk(W, field(W, n, W->F->value));
    W->in_access = false;
    walk(W, field(W, n, W->F->index));
    W->in_access = saved;
  } else if (sym == S->for_statement) {
    walk(W, field(W, n, W->F->iterable));
    bind_other(W, field(W, n, W->F->variable));
    walk(W, field(W, n, W->F->body));
  } else if (sym == S->match_arm) {
    bind_pattern(W, field(W, n, W->F->pattern), 0);
    walk(W, field(W, n, W->F->value));
  } else if (sym == S->closure_expression) {
    TSNode params = field(W, n, W->F->parameters);
    uint32_t c = vxp_node__named_count(params);
    for (uint32_t i = 0; i < c; i++)
      bind_other(W, field(W, ts_node_named_child(params, i), W->F->name));
    walk(W, field(W, n, W->F->body));
  } else {
    walk_children(W, n);
  }
  unbind(W, mark);
  W->in_access = access_chain;
  W->depth--;
}

static void walk_function(vis_walk *W, TSNode fn) {
  W->fn = fn;
  unbind(W, 0);
  W->region = VXP_NONE;
  W->comptime = false;
  W->depth = 0;
  TSNode on = field(W, fn, W->F->topology);
  W->here = ts_node_is_null(on) ? HOST : topo_of(W, on);
  TSNode params = field(W, fn, W->F->parameters);
  uint32_t n = vxp_node__named_count(params);
  for (uint32_t i = 0; i < n; i++) {
    TSNode p = ts_node_named_child(params, i);
    vis_var v;
    memset(&v, 0, sizeof(v));
    v.name = text_of(W, field(W, p, W->F->name));
    describe_type(W, field(W, p, W->F->type), &v, false);
    if (v.name.len) bind(W, v);
  }
  walk(W, field(W, fn, W->F->body));
}

/* Whether `item` (a top-level node) holds code the walk checks. */
static bool walked_item(const vis_walk *W, TSNode item) {
  return vxp_node__is(item, W->S->function_item) || vxp_node__is(item, W->S->impl_item);
}

static void walk_item(vis_walk *W, TSNode item) {
  if (vxp_node__is(item, W->S->function_item)) {
    walk_function(W, item);
  } else if (vxp_node__is(item, W->S->impl_item)) {
    TSNode body = field(W, item, W->F->body);
    uint32_t m = vxp_node__named_count(body);
    for (uint32_t j = 0; j < m && W->rc == VXP_OK; j++) {
      TSNode f = ts_node_named_child(body, j);
      if (vxp_node__is(f, W->S->function_item)) walk_function(W, f);
    }
  }
}

/* A walk over V's index (W.fns and W.params borrow V's arrays). */
static void walk_init(vis_walk *W, vxp_lower_vis *V) {
  memset(W, 0, sizeof(*W));
  W->ctx = V->ctx;
  W->src = V->src;
  W->S = &V->ctx->syms;
  W->F = &V->ctx->fields;
  W->V = V;
  W->rc = VXP_OK;
  W->fns.items = V->index.fns.items;
  W->fns.len = V->index.fns.len;
  W->fns.cap = V->index.fns.cap;
  W->params.items = V->index.params.items;
  W->params.len = V->index.params.len;
  W->params.cap = V->index.params.cap;
}

/* Hand W's arrays (grown from V's) back to V. */
static void walk_index_done(vis_walk *W, vxp_lower_vis *V) {
  V->index.fns.items = W->fns.items;
  V->index.fns.len = W->fns.len;
  V->index.fns.cap = W->fns.cap;
  V->index.params.items = W->params.items;
  V->index.params.len = W->params.len;
  V->index.params.cap = W->params.cap;
}

/* Index top-level node `item` (its position `at` among the root's children). */
static void index_item(vis_walk *W, TSNode item, uint32_t at) {
  if (vxp_node__is(item, W->S->function_item)) {
    index_fn(W, item, false, at);
  } else if (vxp_node__is(item, W->S->extern_block)) {
    TSNode body = field(W, item, W->F->body);
    uint32_t m = vxp_node__named_count(body);
    for (uint32_t j = 0; j < m; j++)
      index_fn(W, ts_node_named_child(body, j), true, at);
  }
}

int vxp_lower_vis__index(vxp_lower_vis *V, const TSNode *top, size_t top_count, TSNode root) {
  vis_walk W;
  walk_init(&W, V);
  /* The program's functions by name, for the calls: a cursor over the root's children when
   * the caller did not read them. */
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  bool more = top ? top_count > 0 : ts_tree_cursor_goto_first_child(&cursor);
  for (size_t i = 0; more && W.rc == VXP_OK; i++) {
    TSNode item = top ? top[i] : ts_tree_cursor_current_node(&cursor);
    index_item(&W, item, V->items_indexed++);
    more = top ? i + 1 < top_count : ts_tree_cursor_goto_next_sibling(&cursor);
  }
  ts_tree_cursor_delete(&cursor);
  walk_index_done(&W, V);
  if (W.rc != VXP_OK) vxp_lower_vis__end(V);
  return W.rc;
}

void vxp_lower_vis__index_done(vxp_lower_vis *V) {
  if (V->index.fns.len > 1) qsort(V->index.fns.items, V->index.fns.len, sizeof(vis_fn), fn_cmp);
}

/* Re-point non-empty name `n` of the earlier text at the new one, moved from `side`. */
static bool carry_name(const vxp_reuse *R, uint8_t side, vis_name *n) {
  if (n->len == 0) {
    n->s = NULL;
    return true;
  }
  uintptr_t base = (uintptr_t)R->old_src->text, at = (uintptr_t)n->s;
  if (at < base || at - base > R->old_src->len || n->len > R->old_src->len - (at - base))
    return false; /* not read from the earlier text */
  uint32_t start, end;
  if (!vxp_reuse__map(R, side, (uint32_t)(at - base), &start) ||
      !vxp_reuse__map(R, side, (uint32_t)(at - base) + n->len, &end) || end - start != n->len)
    return false;
  n->s = R->new_src->text + start;
  return true;
}

/* Append old's entry `e` (of an item on `side`) and its parameters to W, re-pointed. */
static bool carry_fn(vis_walk *W, const vxp_vis_index *old, const vxp_reuse *R, uint8_t side,
                     const vis_fn *e) {
  vis_fn f = *e;
  if ((size_t)e->param_first + e->param_count > old->params.len) return false;
  if (!carry_name(R, side, &f.name) || !carry_name(R, side, &f.on.name) ||
      !carry_name(R, side, &f.on.index))
    return false;
  f.param_first = (uint32_t)W->params.len;
  for (uint32_t i = 0; i < e->param_count && W->rc == VXP_OK; i++) {
    vis_param p = old->params.items[e->param_first + i];
    if (!carry_name(R, side, &p.want_name)) return false;
    if (!array_push(W->ctx, &W->params, p)) W->rc = VXP_ENOMEM;
  }
  if (W->rc == VXP_OK && !array_push(W->ctx, &W->fns, f)) W->rc = VXP_ENOMEM;
  return true;
}

#if defined(VXP_ASSERTIONS)
static bool same_name(vis_name a, vis_name b) {
  return a.len == b.len && (a.len == 0 || a.s == b.s);
}

/* Whether V's index is the one vxp_lower_vis__begin reads from the top-level nodes `top`
 * (or the children of `root` when `top` is NULL): same entries, same order, names at the same
 * places. The fresh read allocates from a context of its own: an allocation the caller's
 * allocator refuses must fail the call being checked, not vanish into this check
 * (test_alloc refuses each in turn and wants VXP_ENOMEM). */
static bool index_is_fresh(vxp_lower_vis *V, const TSNode *top, uint32_t top_count, TSNode root) {
  vxp_context *own;
  if (vxp_context_new(&own, NULL) != VXP_OK) return true; /* nothing to compare with */
  vxp_lower_vis F = *V;
  F.ctx = own;
  memset(&F.index, 0, sizeof(F.index));
  F.items_indexed = 0;
  bool same = true;
  if (vxp_lower_vis__begin(&F, top, top_count, root) == VXP_OK) {
    same = F.index.fns.len == V->index.fns.len;
    for (size_t i = 0; same && i < F.index.fns.len; i++) {
      const vis_fn *a = &F.index.fns.items[i], *b = &V->index.fns.items[i];
      same = same_name(a->name, b->name) && a->is_extern == b->is_extern &&
             a->on_path == b->on_path && same_name(a->on.name, b->on.name) &&
             same_name(a->on.index, b->on.index) && a->param_count == b->param_count &&
             a->item == b->item;
      for (uint32_t k = 0; same && k < a->param_count; k++) {
        const vis_param *p = &F.index.params.items[a->param_first + k];
        const vis_param *q = &V->index.params.items[b->param_first + k];
        same = p->pointer == q->pointer && p->want_host == q->want_host &&
               same_name(p->want_name, q->want_name);
      }
    }
    vxp_lower_vis__end(&F);
  }
  vxp_context_free(own);
  return same;
}

/* index_is_fresh over all `top_count` top-level nodes: those of `top` when it holds them all,
 * else those of the text parsed again, whole (a reparse that parsed only a window). */
static bool index_is_fresh_for(vxp_lower_vis *V, const vxp_top_nodes *top, uint32_t top_count) {
  if (top->first == 0 && top->count == top_count)
    return index_is_fresh(V, top->nodes, top_count, top->nodes[0]);
  TSTree *tree = ts_parser_parse_string(V->ctx->parser, NULL, V->src->text, (uint32_t)V->src->len);
  if (!tree) { /* stopped by the caller's flag or budget: nothing to compare with */
    ts_parser_reset(V->ctx->parser);
    return true;
  }
  TSNode root = ts_tree_root_node(tree);
  bool same = ts_node_child_count(root) == top_count && index_is_fresh(V, NULL, top_count, root);
  ts_tree_delete(tree);
  return same;
}
#endif

int vxp_lower_vis__carry(vxp_lower_vis *V, const vxp_vis_index *old, const vxp_reuse *R,
                         const vxp_top_nodes *top, uint32_t top_count) {
  if (top_count != R->items || top_count == 0 || V->index.fns.len || V->index.params.len) return 0;
  vis_walk W;
  walk_init(&W, V);
  /* the touched functions afresh (few), sorted, then the others' entries carried over in
   * their order (still sorted: their names did not change, and the moves keep the order of
   * where they are written), then both merged */
  bool ok = true;
  for (uint32_t k = 0; ok && k < top_count && W.rc == VXP_OK; k++) {
    if (R->side[k] != VXP_REUSE_FRESH) continue;
    TSNode item;
    ok = vxp_top_nodes__get(top, k, &item) &&
         (vxp_node__is(item, W.S->function_item) || vxp_node__is(item, W.S->const_item));
    if (ok && vxp_node__is(item, W.S->function_item)) index_fn(&W, item, false, k);
  }
  size_t fresh = W.fns.len;
  if (fresh > 1) qsort(W.fns.items, fresh, sizeof(vis_fn), fn_cmp);
  for (size_t i = 0; ok && i < old->fns.len && W.rc == VXP_OK; i++) {
    const vis_fn *e = &old->fns.items[i];
    ok = e->item < R->items;
    if (ok && R->side[e->item] != VXP_REUSE_FRESH) ok = carry_fn(&W, old, R, R->side[e->item], e);
  }
  vis_fn *merged = NULL;
  if (ok && W.rc == VXP_OK && fresh && W.fns.len > fresh) {
    merged = vxp_ctx__malloc(W.ctx, W.fns.len * sizeof(vis_fn));
    if (!merged) W.rc = VXP_ENOMEM;
  }
  if (merged) {
    size_t a = 0, b = fresh, out = 0;
    while (a < fresh || b < W.fns.len) {
      bool take_a = b == W.fns.len || (a < fresh && fn_cmp(&W.fns.items[a], &W.fns.items[b]) <= 0);
      merged[out++] = W.fns.items[take_a ? a++ : b++];
    }
    vxp_ctx__free(W.ctx, W.fns.items);
    W.fns.items = merged;
    W.fns.cap = W.fns.len;
  }
  walk_index_done(&W, V);
  if (!ok || W.rc != VXP_OK) {
    vxp_lower_vis__end(V);
    return ok ? W.rc : 0;
  }
  V->items_indexed = top_count;
  VXP__ASSERT(index_is_fresh_for(V, top, top_count));
  return 1;
}

/* Whether two names are the same text. */
static bool same_text(vis_name a, vis_name b) {
  return a.len == b.len && (a.len == 0 || memcmp(a.s, b.s, a.len) == 0);
}

/* Whether entries `a` (of `now`) and `b` (of `old`) index the same function at the same item,
 * their parameters inside their tables: the entries the two indexes may be compared by. */
static bool same_entry(const vxp_vis_index *now, const vis_fn *a, const vxp_vis_index *old,
                       const vis_fn *b) {
  return same_text(a->name, b->name) && a->is_extern == b->is_extern && a->item == b->item &&
         (size_t)a->param_first + a->param_count <= now->params.len &&
         (size_t)b->param_first + b->param_count <= old->params.len;
}

/* Whether two entries of one function differ in what a caller's visibility facts read: its
 * `on` topology and what its pointer parameters want. */
static bool entry_differs(const vxp_vis_index *now, const vis_fn *a, const vxp_vis_index *old,
                          const vis_fn *b) {
  bool differs = a->on_path != b->on_path || !same_text(a->on.name, b->on.name) ||
                 !same_text(a->on.index, b->on.index) || a->param_count != b->param_count;
  for (uint32_t p = 0; !differs && p < a->param_count; p++) {
    const vis_param *x = &now->params.items[a->param_first + p];
    const vis_param *y = &old->params.items[b->param_first + p];
    differs = x->pointer != y->pointer || x->want_host != y->want_host ||
              !same_text(x->want_name, y->want_name);
  }
  return differs;
}

bool vxp_lower_vis__same_index(const vxp_lower_vis *V, const vxp_vis_index *old) {
  const vxp_vis_index *now = &V->index;
  if (now->fns.len != old->fns.len) return false;
  for (size_t i = 0; i < now->fns.len; i++) {
    const vis_fn *a = &now->fns.items[i], *b = &old->fns.items[i];
    if (!same_entry(now, a, old, b) || entry_differs(now, a, old, b)) return false;
  }
  return true;
}

bool vxp_lower_vis__changed_entries(const vxp_lower_vis *V, const vxp_vis_index *old,
                                    uint8_t *changed) {
  const vxp_vis_index *now = &V->index;
  if (now->fns.len != old->fns.len) return false;
  for (size_t i = 0; i < now->fns.len; i++) {
    const vis_fn *a = &now->fns.items[i], *b = &old->fns.items[i];
    if (!same_entry(now, a, old, b)) return false;
    changed[i] = entry_differs(now, a, old, b);
  }
  return true;
}

void vxp_lower_vis__keep(vxp_lower_vis *V, vxp_vis_index *out) {
  *out = V->index;
  memset(&V->index, 0, sizeof(V->index));
}

void vxp_vis_index__free(vxp_context *ctx, vxp_vis_index *index) {
  array_free(ctx, &index->fns);
  array_free(ctx, &index->params);
}

int vxp_lower_vis__begin(vxp_lower_vis *V, const TSNode *top, size_t top_count, TSNode root) {
  int rc = vxp_lower_vis__index(V, top, top_count, root);
  if (rc == VXP_OK) vxp_lower_vis__index_done(V);
  return rc;
}

int vxp_lower_vis__item(vxp_lower_vis *V, TSNode item) {
  vis_walk W;
  walk_init(&W, V);
  if (walked_item(&W, item)) walk_item(&W, item);
  array_free(V->ctx, &W.vars);
  vxp_scope_index__free(V->ctx, &W.names);
  return W.rc;
}

void vxp_lower_vis__end(vxp_lower_vis *V) {
  vxp_vis_index__free(V->ctx, &V->index);
  V->items_indexed = 0;
}
