/* SPDX-License-Identifier: Apache-2.0 */
/* visibility.c - where code runs and what it can see (E6001, E6003, E6029, E6030, E8002).
 *
 * Lowering recorded, function by function, every construct these checks ask about with
 * what the program says of it (model.h: vxp_vis_fact; lower_visibility.c): which topology
 * the code runs on, where a tensor or a pointer was made, which topology a called function
 * is bound to, what a region hands out, what a comptime assertion compares. This file
 * answers each against the machine view (a topology's default space, what it sees) and
 * reads nothing else: not the syntax tree, not the source text. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "visibility.h"

typedef struct vis_check {
  vxp_context *ctx;
  const vxp_source *src;
  const vxp_model *m;
  const vxp_machine_view *view;
  vxp_diag_list *diags;
  int rc;
} vis_check;

static const char *const HOST_SPACE = "CPU_DRAM";

/* A name's text; "" for none. */
static const char *str(const vis_check *C, vxp_name n) {
  return n == VXP_NAME_NONE ? "" : vxp_strtab__str(&C->m->names, n);
}

/* Equal and not empty (an empty name is not known). */
static bool same(const char *a, const char *b) { return a && b && *a && strcmp(a, b) == 0; }

/* ------------------------------------------------------------------ the machine */

static const vxp_topology *declared_topology(const vis_check *C, const char *name) {
  for (size_t i = 0; i < C->view->topologies.len; i++) {
    const vxp_topology *t = C->view->topologies.items[i];
    if (same(name, t->name)) return t;
  }
  return NULL;
}

/* Vx's built-in topology of that name: its default space, or "". */
static const char *builtin_space(const char *name) {
  const char *s = *name ? vxp_machine__builtin_topology_space(name) : NULL;
  return s ? s : "";
}

/* The name code placed on `t` is answered as. A named topology that nothing declares (not
 * an input, not the program's own text, which --machine-only only sets aside) and Vx does
 * not build in is, in a program resolution admits, a `spawn on(...)`'s (vxc's W1025;
 * anywhere else it is E6025): vxc places such code like the host's, so it is answered as
 * the host topology (its memory, what it sees). */
static const char *answered_as(const vis_check *C, vxp_vis_topo t) {
  const char *name = str(C, t.name);
  if (!*name || declared_topology(C, name) || *builtin_space(name)) return name;
  for (size_t i = 0; i < C->m->topologies.len; i++)
    if (C->m->topologies.items[i] == t.name) return name;
  return "CPU";
}

/* The default memory space of a topology: declared `memory:`, else the built-in one. */
static const char *topology_space(const vis_check *C, vxp_vis_topo t) {
  const vxp_topology *d = declared_topology(C, str(C, t.name));
  if (d) return d->memory ? d->memory : "";
  return builtin_space(answered_as(C, t));
}

/* Where a recorded value lives: its space, or its topology's default space; "" unknown. */
static const char *space_of(const vis_check *C, const vxp_vis_space *s) {
  return s->of_topology ? topology_space(C, s->topo) : str(C, s->space);
}

/* Whether topology `t` sees `space`. *known is false when `t` is neither declared nor
 * built in, so the question has no answer. */
static bool sees(const vis_check *C, vxp_vis_topo t, const char *space, bool *known) {
  const vxp_topology *d = declared_topology(C, str(C, t.name));
  *known = true;
  if (d) {
    if (!d->has_visible) return same(space, d->memory);
    for (size_t i = 0; i < d->visible.len; i++) {
      if (same(space, d->visible.items[i])) return true;
    }
    return false;
  }
  const char *own = builtin_space(answered_as(C, t));
  if (!*own) {
    *known = false;
    return false;
  }
  return same(space, own);
}

/* `[A, B]`: what `t` sees, for the message. Owned by the caller (vxp_ctx__free). */
static char *visible_list(const vis_check *C, vxp_vis_topo t) {
  const vxp_topology *d = declared_topology(C, str(C, t.name));
  size_t n = 3;
  if (d && d->has_visible) {
    for (size_t i = 0; i < d->visible.len; i++)
      n += strlen(d->visible.items[i]) + 2;
  } else {
    n += strlen(topology_space(C, t));
  }
  char *out = vxp_ctx__malloc(C->ctx, n);
  if (!out) return NULL;
  size_t at = 0;
  out[at++] = '[';
  if (d && d->has_visible) {
    for (size_t i = 0; i < d->visible.len; i++) {
      at += (size_t)snprintf(out + at, n - at, "%s%s", i ? ", " : "", d->visible.items[i]);
    }
  } else {
    const char *own = topology_space(C, t);
    memcpy(out + at, own, strlen(own));
    at += strlen(own);
  }
  out[at++] = ']';
  out[at] = '\0';
  return out;
}

/* `NPU` and `NPU[0]` are one device: vxc resolves a topology without an index to its first. */
static bool topo_eq(const vis_check *C, vxp_vis_topo a, vxp_vis_topo b) {
  if (!same(str(C, a.name), str(C, b.name))) return false;
  const char *ia = a.index ? str(C, a.index) : "0", *ib = b.index ? str(C, b.index) : "0";
  return same(ia, ib);
}

/* `NPU[0]`, `CPU`: for messages. */
#define TOPO_FMT "%s%s%s%s"
#define TOPO_ARGS(C, t)                                                                            \
  str((C), (t).name), (t).index ? "[" : "", str((C), (t).index), (t).index ? "]" : ""

/* ------------------------------------------------------------------ diagnostics */

static void report(vis_check *C, const char *code, uint32_t start, uint32_t end, const char *fmt,
                   ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static void report(vis_check *C, const char *code, uint32_t start, uint32_t end, const char *fmt,
                   ...) {
  if (C->rc != VXP_OK) return;
  va_list ap;
  va_start(ap, fmt);
  if (!vxp_diag__vadd(C->ctx, C->diags, VXP_SEVERITY_ERROR, code, C->src, start, end, fmt, ap))
    C->rc = VXP_ENOMEM;
  va_end(ap);
}

/* ------------------------------------------------------------------ the checks */

/* E6003: the element's tensor must live where the code running here can see. */
static void check_access(vis_check *C, const vxp_vis_fact *f) {
  const char *space = space_of(C, &f->space);
  bool known;
  if (!*space || sees(C, f->here, space, &known) || !known) return;
  char *list = visible_list(C, f->here);
  if (!list) {
    C->rc = VXP_ENOMEM;
    return;
  }
  const char *name = str(C, f->name);
  report(C, "E6003", f->start_byte, f->end_byte,
         "'%s' lives in %s but " TOPO_FMT " sees only %s: it cannot be read from " TOPO_FMT
         " without a transfer (transfer(%s, Memory::...) to a space it sees)",
         name, space, TOPO_ARGS(C, f->here), list, TOPO_ARGS(C, f->here), name);
  vxp_ctx__free(C->ctx, list);
}

/* E6001: the callee runs only on the topology it names. */
static void check_call(vis_check *C, const vxp_vis_fact *f) {
  if (topo_eq(C, f->topo, f->here)) return;
  report(C, "E6001", f->start_byte, f->end_byte,
         "'%s' requires topology " TOPO_FMT ", but it is called from " TOPO_FMT
         "; call it inside `spawn on(Topology::" TOPO_FMT ") { }`",
         str(C, f->name), TOPO_ARGS(C, f->topo), TOPO_ARGS(C, f->here), TOPO_ARGS(C, f->topo));
}

/* E6029: a pointer into one memory passed where a pointer into another is wanted. */
static void check_pointer(vis_check *C, const vxp_vis_fact *f) {
  const char *got = space_of(C, &f->space);
  const char *want = f->want_host ? HOST_SPACE : str(C, f->want_space);
  if (!*got || same(want, got)) return;
  if (f->want_host)
    report(C, "E6029", f->start_byte, f->end_byte,
           "argument %u of '%s' is a pointer into Memory::%s, but the parameter wants a "
           "pointer into host memory",
           f->arg, str(C, f->name), got);
  else
    report(C, "E6029", f->start_byte, f->end_byte,
           "argument %u of '%s' is a pointer into Memory::%s, but the parameter wants a "
           "pointer into Memory::%s",
           f->arg, str(C, f->name), got, want);
}

/* E6030: a tensor a device region creates and hands out is made before the region, in the
 * device's memory; lowering said why it cannot be. A region whose memory is the host's
 * makes it on the host anyway. */
static void check_region(vis_check *C, const vxp_vis_fact *f) {
  const char *space = topology_space(C, f->here);
  if (!*space || same(space, HOST_SPACE)) return;
  static const char *const why[] = {
      [VXP_VIS_WHY_NOT_NAMED] =
          "it is not in a variable, so there is nothing to make before the region",
      [VXP_VIS_WHY_ANNOTATED] = "its `let` has a type annotation",
      [VXP_VIS_WHY_SIZED_IN] = "its size is computed inside the region",
      [VXP_VIS_WHY_SHADOWS] = "a variable of that name already exists outside the region",
  };
  report(C, "E6030", f->start_byte, f->end_byte,
         "the region on " TOPO_FMT " hands out a tensor it creates ('%s'), which cannot be "
         "made before the region for the function to free: %s",
         TOPO_ARGS(C, f->here), str(C, f->name), f->why < 4 ? why[f->why] : "");
}

/* E8002 (or E3026) for `assert(x.topology() == Some(Topology::T))` in a comptime block. */
static void check_assert(vis_check *C, const vxp_vis_fact *f) {
  const char *x = str(C, f->name);
  if (f->have == VXP_VIS_PLACED_UNKNOWN || f->wanted == VXP_VIS_PLACED_UNKNOWN) {
    report(C, "E3026", f->cond_start, f->cond_end,
           "the placement query '%s.topology()' cannot be decided: where '%s' lives is not "
           "known here (placement is a fact of its type, with no run-time value)",
           x, x);
    return;
  }
  bool have_none = f->have == VXP_VIS_PLACED_NONE, want_none = f->wanted == VXP_VIS_PLACED_NONE;
  bool equal = have_none ? want_none : (!want_none && topo_eq(C, f->topo, f->want));
  if (equal == f->eq) return;
  if (have_none)
    report(C, "E8002", f->start_byte, f->end_byte,
           "Comptime assertion failed: '%s.topology()' is None (made on the host)", x);
  else
    report(C, "E8002", f->start_byte, f->end_byte,
           "Comptime assertion failed: '%s.topology()' is Some(Topology::" TOPO_FMT ")", x,
           TOPO_ARGS(C, f->topo));
}

static void check_item(vis_check *C, const vxp_model_item *it) {
  for (uint32_t i = 0; i < it->vis_count && C->rc == VXP_OK; i++) {
    const vxp_vis_fact *f = &C->m->visibility.items[it->vis_first + i];
    switch (f->kind) {
    case VXP_VIS_ACCESS: check_access(C, f); break;
    case VXP_VIS_CALL: check_call(C, f); break;
    case VXP_VIS_POINTER: check_pointer(C, f); break;
    case VXP_VIS_REGION: check_region(C, f); break;
    case VXP_VIS_ASSERT: check_assert(C, f); break;
    default: break;
    }
  }
}

static bool walked(const vxp_model_item *it) {
  return it->kind == VXP_ITEM_FUNCTION || it->kind == VXP_ITEM_IMPL;
}

/* An item's diagnostics: lent by `reuse`, or checked. */
static void item_diags(vis_check *C, const vxp_model_item *it, const vxp_visibility_reuse *reuse) {
  int taken = reuse ? reuse->take(reuse->arg, it->top, C->diags) : 0;
  if (taken < 0)
    C->rc = taken;
  else if (!taken)
    check_item(C, it);
}

int vxp_visibility__check(vxp_context *ctx, const vxp_source *src, const vxp_model *m,
                          size_t top_count, const vxp_machine_view *view, vxp_diag_list *diags,
                          const vxp_visibility_reuse *reuse, vxp_item_ends *ends) {
  vis_check C = {ctx, src, m, view, diags, VXP_OK};
  if (!ends) {
    for (size_t i = 0; i < m->items.len && C.rc == VXP_OK; i++)
      if (walked(&m->items.items[i])) item_diags(&C, &m->items.items[i], reuse);
    return C.rc;
  }
  /* One end per top-level node of the tree, items or not (reuse.h counts them so). */
  size_t next = 0;
  for (size_t top = 0; top < top_count && C.rc == VXP_OK; top++) {
    while (next < m->items.len && m->items.items[next].top < top)
      next++;
    if (next < m->items.len && m->items.items[next].top == top && walked(&m->items.items[next]))
      item_diags(&C, &m->items.items[next], reuse);
    if (C.rc == VXP_OK && !array_push(ctx, ends, (uint32_t)diags->len)) C.rc = VXP_ENOMEM;
  }
  return C.rc;
}
