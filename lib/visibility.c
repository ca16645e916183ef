/* SPDX-License-Identifier: Apache-2.0 */
/* visibility.c - where code runs and what it can see (E6001, E6003, E6029, E6030, E8002).
 *
 * The walk follows each function in program order with the topology its code runs on: the
 * function's `on` topology, or the host (`Topology::CPU`) when it names none, and inside
 * `spawn on(T) { }` the region's T. It keeps the bindings in scope with what is known of
 * where each value lives (a memory space, a topology, or nothing known) and checks the
 * constructs above as it meets them. Anything it cannot place (a generic topology variable,
 * a value returned by a call) is left unchecked rather than guessed: none of these checks
 * admits a program, they only refuse. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "context.h"
#include "lower.h"
#include "source.h"
#include "symbols.h"
#include "visibility.h"

/* A name in the source or in the machine view: text and length, not NUL-terminated. */
typedef struct vis_name {
  const char *s;
  uint32_t len;
} vis_name;

/* A topology as written: `NPU` and `0` of `Topology::NPU[0]`; an empty name is unknown. */
typedef struct vis_topo {
  vis_name name;
  vis_name index;
} vis_topo;

typedef enum vis_kind {
  VIS_OTHER,   /* nothing placed is known of it */
  VIS_TENSOR,  /* a tensor living in `space` */
  VIS_POINTER, /* a pointer into `space` */
  VIS_PLACED   /* a value produced on topology `topo` (a region's value, a Pinned) */
} vis_kind;

typedef struct vis_var {
  vis_name name;
  uint8_t kind;     /* vis_kind */
  vis_name space;   /* where it lives; empty: not known */
  vis_topo topo;    /* VIS_PLACED: the topology; else empty */
  bool no_topology; /* `.topology()` is None: an unplaced value made on the host */
  TSNode let;       /* the `let` that bound it; null for parameters and patterns */
  uint32_t region;  /* start byte of the innermost spawn region around it, or VXP_NONE */
} vis_var;

/* A function of the program by name: an item, or a signature in an `extern` block. */
typedef struct vis_fn {
  vis_name name;
  TSNode node;
  bool is_extern;
} vis_fn;

typedef struct vis_walk {
  vxp_context *ctx;
  const vxp_source *src;
  const vxp_symbols *S;
  const vxp_fields *F;
  const vxp_machine_view *view;
  vxp_diag_list *diags;
  Array(vis_var) vars;
  Array(vis_fn) fns; /* sorted by name, for the calls */
  TSNode fn;         /* the function being walked (its generics name topology variables) */
  vis_topo here;     /* where the code being walked runs; empty name: not known */
  uint32_t region;   /* start byte of the innermost spawn region, or VXP_NONE */
  bool comptime;     /* inside a `comptime { }` block */
  bool in_access;    /* walking the indexed value of an element access (`x[i]` of `x[i][j]`) */
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

static bool is(TSNode n, TSSymbol sym) { return !ts_node_is_null(n) && ts_node_symbol(n) == sym; }

/* ------------------------------------------------------------------ the machine */

static const vxp_topology *declared_topology(const vis_walk *W, vis_name name) {
  for (size_t i = 0; i < W->view->topologies.len; i++) {
    const vxp_topology *t = W->view->topologies.items[i];
    if (name_is(name, t->name)) return t;
  }
  return NULL;
}

/* Vx's built-in topology of that name: its default space, or an empty name. Built-in names
 * are short identifiers; a longer name is none of them. */
static vis_name builtin_space(vis_name name) {
  char buf[32];
  vis_name none = {NULL, 0};
  if (name.len == 0 || name.len >= sizeof(buf)) return none;
  memcpy(buf, name.s, name.len);
  buf[name.len] = '\0';
  return cstr(vxp_machine__builtin_topology_space(buf));
}

/* The default memory space of a topology: declared `memory:`, else the built-in one. */
static vis_name topology_space(const vis_walk *W, vis_topo t) {
  const vxp_topology *d = declared_topology(W, t.name);
  if (d) return cstr(d->memory);
  return builtin_space(t.name);
}

/* Whether topology `t` sees `space`. *known is false when `t` is neither declared nor
 * built in, so the question has no answer. */
static bool sees(const vis_walk *W, vis_topo t, vis_name space, bool *known) {
  const vxp_topology *d = declared_topology(W, t.name);
  *known = true;
  if (d) {
    if (!d->has_visible) return name_is(space, d->memory);
    for (size_t i = 0; i < d->visible.len; i++) {
      if (name_is(space, d->visible.items[i])) return true;
    }
    return false;
  }
  vis_name own = builtin_space(t.name);
  if (own.len == 0) {
    *known = false;
    return false;
  }
  return name_eq(space, own);
}

/* `[A, B]`: what `t` sees, for the message. Owned by the caller (vxp_ctx__free). */
static char *visible_list(const vis_walk *W, vis_topo t) {
  const vxp_topology *d = declared_topology(W, t.name);
  size_t n = 3;
  if (d && d->has_visible) {
    for (size_t i = 0; i < d->visible.len; i++)
      n += strlen(d->visible.items[i]) + 2;
  } else {
    n += d ? strlen(d->memory ? d->memory : "") : builtin_space(t.name).len;
  }
  char *out = vxp_ctx__malloc(W->ctx, n);
  if (!out) return NULL;
  size_t at = 0;
  out[at++] = '[';
  if (d && d->has_visible) {
    for (size_t i = 0; i < d->visible.len; i++) {
      at += (size_t)snprintf(out + at, n - at, "%s%s", i ? ", " : "", d->visible.items[i]);
    }
  } else {
    vis_name own = d ? cstr(d->memory) : builtin_space(t.name);
    memcpy(out + at, own.s ? own.s : "", own.len);
    at += own.len;
  }
  out[at++] = ']';
  out[at] = '\0';
  return out;
}

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
  if (is(n, W->S->parenthesized_expression)) n = ts_node_named_child(n, 0);
  if (!is(n, W->S->topology_path)) return t;
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

/* ------------------------------------------------------------------ diagnostics */

static void report(vis_walk *W, const char *code, TSNode at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void report(vis_walk *W, const char *code, TSNode at, const char *fmt, ...) {
  if (W->rc != VXP_OK) return;
  va_list ap;
  va_start(ap, fmt);
  if (!vxp_diag__vadd(W->ctx, W->diags, VXP_SEVERITY_ERROR, code, W->src, ts_node_start_byte(at),
                      ts_node_end_byte(at), fmt, ap))
    W->rc = VXP_ENOMEM;
  va_end(ap);
}

/* `NPU[0]`, `CPU`: for messages. */
#define TOPO_FMT "%.*s%s%.*s%s"
#define TOPO_ARGS(t)                                                                               \
  (int)(t).name.len, (t).name.s, (t).index.len ? "[" : "", (int)(t).index.len,                     \
      (t).index.len ? (t).index.s : "", (t).index.len ? "]" : ""

/* ------------------------------------------------------------------ bindings */

static const vis_var *lookup(const vis_walk *W, vis_name name) {
  for (size_t i = W->vars.len; i-- > 0;) {
    if (name_eq(W->vars.items[i].name, name)) return &W->vars.items[i];
  }
  return NULL;
}

static void bind(vis_walk *W, vis_var v) {
  v.region = W->region;
  if (W->rc == VXP_OK && !array_push(W->ctx, &W->vars, v)) W->rc = VXP_ENOMEM;
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
  for (int guard = 0; is(type, W->S->reference_type) && guard < 64; guard++)
    type = field(W, type, W->F->type);
  if (is(type, W->S->tensor_type)) {
    v->kind = VIS_TENSOR;
    TSNode place = field(W, type, W->F->placement);
    if (is(place, W->S->memory_path)) {
      v->space = text_of(W, field(W, place, W->F->name));
    } else if (is(place, W->S->topology_path)) {
      vis_topo t = topo_of(W, place);
      if (topo_known(t)) {
        v->space = topology_space(W, t);
        v->topo = t;
      }
    } else if (made_here && topo_eq(W->here, HOST)) {
      v->space = HOST_SPACE;
      v->no_topology = true;
    }
  } else if (is(type, W->S->pinned_type)) {
    vis_topo t = topo_of(W, field(W, type, W->F->topology));
    if (topo_known(t)) {
      v->kind = VIS_PLACED;
      v->topo = t;
      v->space = topology_space(W, t);
    }
  } else if (is(type, W->S->pointer_type)) {
    v->kind = VIS_POINTER;
    TSNode space = field(W, type, W->F->space);
    v->space = ts_node_is_null(space) ? HOST_SPACE : text_of(W, field(W, space, W->F->name));
  }
}

/* `x.as_ptr()` (or `as_mut_ptr()`) of a tensor whose space is known: the pointer's var. */
static bool pointer_of(const vis_walk *W, TSNode call, vis_var *out) {
  if (!is(call, W->S->call_expression)) return false;
  TSNode fn = field(W, call, W->F->function);
  vis_name method = text_of(W, field(W, fn, W->F->field));
  if (!is(fn, W->S->field_expression) ||
      !(name_is(method, "as_ptr") || name_is(method, "as_mut_ptr")))
    return false;
  TSNode recv = field(W, fn, W->F->value);
  if (!is(recv, W->S->identifier)) return false;
  const vis_var *t = lookup(W, text_of(W, recv));
  if (!t || t->kind != VIS_TENSOR || t->space.len == 0) return false;
  out->kind = VIS_POINTER;
  out->space = t->space;
  return true;
}

/* What the value of `let`'s initializer is known to be. */
static void describe_value(const vis_walk *W, TSNode value, vis_var *v) {
  if (is(value, W->S->tensor_constructor)) {
    describe_type(W, field(W, value, W->F->type), v, true);
  } else if (is(value, W->S->transfer_expression)) {
    TSNode to = field(W, value, W->F->space);
    v->kind = VIS_TENSOR;
    if (is(to, W->S->memory_path)) {
      v->space = text_of(W, field(W, to, W->F->name));
    } else {
      vis_topo t = topo_of(W, to);
      if (topo_known(t)) {
        v->space = topology_space(W, t);
        v->topo = t;
      }
    }
  } else if (is(value, W->S->spawn_expression)) {
    vis_topo t = topo_of(W, field(W, value, W->F->topology));
    if (topo_known(t)) {
      v->kind = VIS_PLACED;
      v->topo = t;
      v->space = topology_space(W, t);
    }
  } else if (is(value, W->S->identifier)) {
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
  for (int guard = 0; is(base, W->S->index_expression) && guard < 64; guard++)
    base = field(W, base, W->F->value);
  if (!is(base, W->S->identifier) || !topo_known(W->here)) return;
  const vis_var *v = lookup(W, text_of(W, base));
  if (!v || (v->kind != VIS_TENSOR && v->kind != VIS_PLACED) || v->space.len == 0) return;
  bool known;
  if (sees(W, W->here, v->space, &known) || !known) return;
  char *list = visible_list(W, W->here);
  if (!list) {
    W->rc = VXP_ENOMEM;
    return;
  }
  report(W, "E6003", base,
         "'%.*s' lives in %.*s but " TOPO_FMT " sees only %s: it cannot be read from " TOPO_FMT
         " without a transfer (transfer(%.*s, Memory::...) to a space it sees)",
         (int)v->name.len, v->name.s, (int)v->space.len, v->space.s, TOPO_ARGS(W->here), list,
         TOPO_ARGS(W->here), (int)v->name.len, v->name.s);
  vxp_ctx__free(W->ctx, list);
}

static int name_cmp(vis_name a, vis_name b) {
  int c = memcmp(a.s, b.s, a.len < b.len ? a.len : b.len);
  return c ? c : (a.len > b.len) - (a.len < b.len);
}

static int fn_cmp(const void *a, const void *b) {
  return name_cmp(((const vis_fn *)a)->name, ((const vis_fn *)b)->name);
}

static void index_fn(vis_walk *W, TSNode node, bool is_extern) {
  vis_fn f = {text_of(W, field(W, node, W->F->name)), node, is_extern};
  if (f.name.len && W->rc == VXP_OK && !array_push(W->ctx, &W->fns, f)) W->rc = VXP_ENOMEM;
}

/* The program's function named `name` (top level or extern), or a null node. */
static TSNode function_named(const vis_walk *W, vis_name name, bool *is_extern) {
  *is_extern = false;
  size_t lo = 0, hi = W->fns.len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = name_cmp(W->fns.items[mid].name, name);
    if (c == 0) {
      *is_extern = W->fns.items[mid].is_extern;
      return W->fns.items[mid].node;
    }
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return (TSNode){0};
}

/* E6001 and E6029 at a call of one of the program's functions. */
static void check_call(vis_walk *W, TSNode call) {
  TSNode fn_node = field(W, call, W->F->function);
  if (!is(fn_node, W->S->identifier)) return;
  vis_name callee_name = text_of(W, fn_node);
  bool is_extern;
  TSNode callee = function_named(W, callee_name, &is_extern);
  if (ts_node_is_null(callee) || is_extern) return; /* a C function takes any pointer */
  /* E6001: the callee runs only on the topology it names. */
  TSNode on = field(W, callee, W->F->topology);
  if (is(on, W->S->topology_path) && topo_known(W->here)) {
    TSNode saved = W->fn;
    W->fn = callee; /* its own generics decide whether `on` names a variable */
    vis_topo need = topo_of(W, on);
    W->fn = saved;
    if (topo_known(need) && !topo_eq(need, W->here))
      report(W, "E6001", call,
             "'%.*s' requires topology " TOPO_FMT ", but it is called from " TOPO_FMT
             "; call it inside `spawn on(Topology::" TOPO_FMT ") { }`",
             (int)callee_name.len, callee_name.s, TOPO_ARGS(need), TOPO_ARGS(W->here),
             TOPO_ARGS(need));
  }
  /* E6029: a pointer into one memory passed where a pointer into another is wanted. */
  TSNode params = field(W, callee, W->F->parameters);
  TSNode args = field(W, call, W->F->arguments);
  uint32_t np = vxp_node__named_count(params), na = vxp_node__named_count(args);
  for (uint32_t i = 0; i < np && i < na; i++) {
    TSNode ptype = field(W, ts_node_named_child(params, i), W->F->type);
    if (!is(ptype, W->S->pointer_type)) continue;
    TSNode arg = ts_node_named_child(args, i);
    vis_var got;
    memset(&got, 0, sizeof(got));
    if (is(arg, W->S->identifier)) {
      const vis_var *v = lookup(W, text_of(W, arg));
      if (v) got = *v;
    } else {
      pointer_of(W, arg, &got);
    }
    if (got.kind != VIS_POINTER || got.space.len == 0) continue;
    TSNode want_node = field(W, ptype, W->F->space);
    vis_name want =
        ts_node_is_null(want_node) ? HOST_SPACE : text_of(W, field(W, want_node, W->F->name));
    if (name_eq(want, got.space)) continue;
    if (ts_node_is_null(want_node))
      report(W, "E6029", arg,
             "argument %u of '%.*s' is a pointer into Memory::%.*s, but the parameter wants a "
             "pointer into host memory",
             i + 1, (int)callee_name.len, callee_name.s, (int)got.space.len, got.space.s);
    else
      report(W, "E6029", arg,
             "argument %u of '%.*s' is a pointer into Memory::%.*s, but the parameter wants a "
             "pointer into Memory::%.*s",
             i + 1, (int)callee_name.len, callee_name.s, (int)got.space.len, got.space.s,
             (int)want.len, want.s);
  }
}

/* Whether the subtree mentions a name bound inside the region starting at `region`. */
static bool mentions_region_name(const vis_walk *W, TSNode n, uint32_t region, int depth) {
  if (ts_node_is_null(n) || depth > 64) return false;
  if (is(n, W->S->identifier)) {
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
  vis_name space = topology_space(W, on);
  if (space.len == 0 || name_eq(space, HOST_SPACE)) return; /* made on the host anyway */
  uint32_t region = ts_node_start_byte(spawn);
  const char *why = NULL;
  vis_name name = text_of(W, value);
  if (is(value, W->S->tensor_constructor)) {
    why = "it is not in a variable, so there is nothing to make before the region";
  } else if (is(value, W->S->identifier)) {
    const vis_var *v = lookup(W, name);
    if (!v || v->region != region || ts_node_is_null(v->let)) return;
    TSNode init = field(W, v->let, W->F->value);
    if (!is(init, W->S->tensor_constructor)) return;
    bool shadows = false;
    for (size_t i = 0; i < outer && i < W->vars.len; i++) {
      if (name_eq(W->vars.items[i].name, name)) shadows = true;
    }
    if (!ts_node_is_null(field(W, v->let, W->F->type)))
      why = "its `let` has a type annotation";
    else if (mentions_region_name(W, init, region, 0))
      why = "its size is computed inside the region";
    else if (shadows)
      why = "a variable of that name already exists outside the region";
  }
  if (why)
    report(W, "E6030", value,
           "the region on " TOPO_FMT " hands out a tensor it creates ('%.*s'), which cannot be "
           "made before the region for the function to free: %s",
           TOPO_ARGS(on), (int)(name.len > 60 ? 60 : name.len), name.s, why);
}

/* `Some(Topology::T)` or `None`: *none set for None; false when it is neither. */
static bool placement_literal(const vis_walk *W, TSNode n, vis_topo *t, bool *none) {
  *none = false;
  if (is(n, W->S->identifier) && name_is(text_of(W, n), "None")) {
    *none = true;
    return true;
  }
  if (!is(n, W->S->call_expression)) return false;
  TSNode f = field(W, n, W->F->function), args = field(W, n, W->F->arguments);
  if (!is(f, W->S->identifier) || !name_is(text_of(W, f), "Some") ||
      vxp_node__named_count(args) != 1)
    return false;
  TSNode arg = ts_node_named_child(args, 0);
  if (!is(arg, W->S->topology_path)) return false;
  *t = topo_of(W, arg);
  return true;
}

/* `x.topology()`: the receiver identifier, or a null node. */
static TSNode topology_query(const vis_walk *W, TSNode n) {
  if (!is(n, W->S->call_expression) || vxp_node__named_count(field(W, n, W->F->arguments)))
    return (TSNode){0};
  TSNode f = field(W, n, W->F->function);
  if (!is(f, W->S->field_expression) || !name_is(text_of(W, field(W, f, W->F->field)), "topology"))
    return (TSNode){0};
  TSNode recv = field(W, f, W->F->value);
  return is(recv, W->S->identifier) ? recv : (TSNode){0};
}

/* E8002 (or E3026) for `assert(x.topology() == Some(Topology::T))` in a comptime block. */
static void check_comptime_assert(vis_walk *W, TSNode assert_stmt) {
  TSNode cond = field(W, assert_stmt, W->F->condition);
  if (!is(cond, W->S->binary_expression)) return;
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
  bool have_none = v && v->no_topology;
  bool have_some = v && topo_known(v->topo);
  if ((!have_none && !have_some) || (!want_none && !topo_known(want))) {
    report(W, "E3026", cond,
           "the placement query '%.*s.topology()' cannot be decided: where '%.*s' lives is not "
           "known here (placement is a fact of its type, with no run-time value)",
           (int)x.len, x.s, (int)x.len, x.s);
    return;
  }
  bool same = have_none ? want_none : (!want_none && topo_eq(v->topo, want));
  if (same == eq) return;
  if (have_none)
    report(W, "E8002", assert_stmt,
           "Comptime assertion failed: '%.*s.topology()' is None (made on the host)", (int)x.len,
           x.s);
  else
    report(W, "E8002", assert_stmt,
           "Comptime assertion failed: '%.*s.topology()' is Some(Topology::" TOPO_FMT ")",
           (int)x.len, x.s, TOPO_ARGS(v->topo));
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
  if (is(p, W->S->identifier)) {
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
    if (is(part, W->S->tuple_binding))
      bind_tuple_names(W, part, depth + 1);
    else if (is(part, W->S->binding))
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
    if (!ts_node_is_null(type)) describe_type(W, type, &v, is(value, S->tensor_constructor));
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
  W->vars.len = mark;
  W->in_access = access_chain;
  W->depth--;
}

static void walk_function(vis_walk *W, TSNode fn) {
  W->fn = fn;
  W->vars.len = 0;
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
  return is(item, W->S->function_item) || is(item, W->S->impl_item);
}

static void walk_item(vis_walk *W, TSNode item) {
  if (is(item, W->S->function_item)) {
    walk_function(W, item);
  } else if (is(item, W->S->impl_item)) {
    TSNode body = field(W, item, W->F->body);
    uint32_t m = vxp_node__named_count(body);
    for (uint32_t j = 0; j < m && W->rc == VXP_OK; j++) {
      TSNode f = ts_node_named_child(body, j);
      if (is(f, W->S->function_item)) walk_function(W, f);
    }
  }
}

int vxp_visibility__check(vxp_context *ctx, const vxp_source *src, TSNode root, const TSNode *top,
                          size_t top_count, const vxp_machine_view *view, vxp_diag_list *diags,
                          const vxp_visibility_reuse *reuse, vxp_item_ends *ends) {
  vis_walk W;
  memset(&W, 0, sizeof(W));
  W.ctx = ctx;
  W.src = src;
  W.S = &ctx->syms;
  W.F = &ctx->fields;
  W.view = view;
  W.diags = diags;
  W.rc = VXP_OK;
  /* The program's top-level nodes: `top` when the caller read them (program.h: a cursor
   * over the root's children is slow, and ts_node_named_child(root, i) quadratic), else a
   * cursor over `root`. */
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  bool more = top ? top_count > 0 : ts_tree_cursor_goto_first_child(&cursor);
  for (size_t i = 0; more && W.rc == VXP_OK; i++) {
    TSNode item = top ? top[i] : ts_tree_cursor_current_node(&cursor);
    if (is(item, W.S->function_item)) {
      index_fn(&W, item, false);
    } else if (is(item, W.S->extern_block)) {
      TSNode body = field(&W, item, W.F->body);
      uint32_t m = vxp_node__named_count(body);
      for (uint32_t j = 0; j < m; j++)
        index_fn(&W, ts_node_named_child(body, j), true);
    }
    more = top ? i + 1 < top_count : ts_tree_cursor_goto_next_sibling(&cursor);
  }
  if (W.fns.len > 1) qsort(W.fns.items, W.fns.len, sizeof(vis_fn), fn_cmp);
  ts_tree_cursor_reset(&cursor, root);
  more = top ? top_count > 0 : ts_tree_cursor_goto_first_child(&cursor);
  for (size_t index = 0; more && W.rc == VXP_OK; index++) {
    TSNode item = top ? top[index] : ts_tree_cursor_current_node(&cursor);
    if (walked_item(&W, item)) {
      int taken = reuse ? reuse->take(reuse->arg, (uint32_t)index, diags) : 0;
      if (taken < 0)
        W.rc = taken;
      else if (!taken)
        walk_item(&W, item);
    }
    if (ends && W.rc == VXP_OK && !array_push(ctx, ends, (uint32_t)diags->len)) W.rc = VXP_ENOMEM;
    more = top ? index + 1 < top_count : ts_tree_cursor_goto_next_sibling(&cursor);
  }
  ts_tree_cursor_delete(&cursor);
  array_free(ctx, &W.vars);
  array_free(ctx, &W.fns);
  return W.rc;
}
