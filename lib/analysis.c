/* SPDX-License-Identifier: Apache-2.0 */
/* analysis.c - from program model and machine view to tiles, peaks and verdicts.
 *
 * Each analysed function's events are walked once: placements into spaces with a
 * capacity become tiles (bytes folded from the shape, rounded to the granule), releasing
 * blocks become trace markers, and the linear sweep of peak.c turns the trace into peaks
 * and the set of tiles live at each peak. */
#include "analysis_data.h"
#include "callgraph.h"
#include "lowering_run.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "context.h"
#include "instance.h"
#include "lowerings.h"
#include "raw_primitives.h"
#include "notes.h"
#include "program.h"
#include "resolve.h"
#include "retype.h"
#include "reuse.h"
#include "reuse_walk.h"
#include "visibility.h"
#include "source.h"

/* A releasing or non-releasing block open during the walk. */
typedef struct block_frame {
  bool releasing;
  bool multiplier_known;
  uint64_t multiplier; /* product of enclosing loop trip counts (saturated) */
  size_t first_record; /* records placed in the block come at or after this index */
  uint32_t scope;      /* its entry in the analysis' scopes */
  vxp_name topology;   /* the innermost `spawn on(Topology::X)` around it, or NONE (host) */
} block_frame;

/* A space of the machine view that the program can name. */
typedef struct named_space {
  vxp_name name;
  uint32_t space;
} named_space;

typedef struct walker {
  vxp_analysis *an;
  size_t route_mark; /* routes of the placement event under way start here */
  vxp_context *ctx;
  const vxp_model *m;
  const vxp_source *src;
  Array(named_space) spaces; /* program names of declared spaces */
  bool host_declared;        /* `Memory CPU_DRAM` is in the view */
  bool device_declared;      /* a device-scoped space (a machine model) is in the view */
  bool reported_e6014;
  vxp_resolver resolver;
  /* per function */
  const vxp_function *fn;
  uint32_t fn_index;
  vxp_const_env env;
  Array(vxp_const_binding) bindings; /* the instance's const arguments (a stable copy) */
  Array(vxp_trace_item) trace;
  Array(vxp_peak_tile) tiles;
  Array(block_frame) blocks;
  vxp_node_path path;     /* scratch: a transfer's route */
  vxp_node_path hop_path; /* scratch: one hop of a staged route */
  Array(uint64_t) dims;   /* scratch: the folded dimensions of the shape just sized */
  size_t record_base;
  uint32_t order;
  uint32_t depth;
  uint32_t calls;
  uint32_t line_hint; /* the line of the last range made (vxp_source__range_near) */
  int rc;
} walker;

/* ------------------------------------------------------------------ diagnostics helpers */

static vxp_diagnostic *add_diag(walker *W, vxp_severity sev, const char *code, uint32_t start,
                                uint32_t end, const char *fmt, ...) VXP__PRINTF(6, 7);

static vxp_diagnostic *add_diag(walker *W, vxp_severity sev, const char *code, uint32_t start,
                                uint32_t end, const char *fmt, ...) {
  if (W->rc != VXP_OK) return NULL;
  va_list ap;
  va_start(ap, fmt);
  vxp_diagnostic *d = vxp_diag__vadd(W->ctx, &W->an->diags, sev, code, W->src, start, end, fmt, ap);
  va_end(ap);
  if (!d) {
    W->rc = VXP_ENOMEM;
    return NULL;
  }
  if (!W->fn) return d;
  /* A diagnostic in a generic function's body says which instance it is about: the same
   * line is checked once per instance, with that instance's arguments. */
  const vxp_analysed_fn *af = &W->an->functions.items[W->fn_index];
  d->function = af->name;
  if (af->is_instance && af->origin_call != VXP_NONE) {
    const vxp_call_site *origin = &W->an->calls.items[af->origin_call];
    if (!vxp_diag__note(W->ctx, d, false, W->src, origin->start_byte, origin->end_byte,
                        "in the instance '%s', first instantiated by '%s'", af->name,
                        W->an->functions.items[origin->caller].name))
      W->rc = VXP_ENOMEM;
  }
  return d;
}

static void note(walker *W, vxp_diagnostic *d, bool help, uint32_t start, uint32_t end,
                 const char *fmt, ...) VXP__PRINTF(6, 7);

static void note(walker *W, vxp_diagnostic *d, bool help, uint32_t start, uint32_t end,
                 const char *fmt, ...) {
  if (!d || W->rc != VXP_OK) return;
  const vxp_source *src = (start == VXP_NONE) ? NULL : W->src;
  va_list ap;
  va_start(ap, fmt);
  if (!vxp_diag__vnote(W->ctx, d, help, src, src ? start : 0, src ? end : 0, fmt, ap))
    W->rc = VXP_ENOMEM;
  va_end(ap);
}

static const char *name_str(walker *W, vxp_name n) { return vxp_strtab__str(&W->m->names, n); }

static const vxp_space *space_at(walker *W, uint32_t index) {
  return W->an->view.spaces.items[index];
}

/* ------------------------------------------------------------------ resolving places */

/* The name of the space a place denotes: the space itself, a topology's `memory:` (a
 * declared topology's, or a built-in's), or, for an undeclared custom topology, the
 * like-named space (vxc's `Memory::Foo` <-> `Topology::Foo` convention). An unplaced value
 * lives in host memory. */
static const char *place_space_name(walker *W, const vxp_place *p) {
  if (p->kind == VXP_PLACE_MEMORY) return name_str(W, p->name);
  if (p->kind == VXP_PLACE_TOPOLOGY) {
    const char *topo = name_str(W, p->name);
    const vxp_topology *t = vxp_machine__topology(&W->an->view, topo);
    if (t && t->memory) return t->memory;
    const char *builtin = vxp_machine__builtin_topology_space(topo);
    return builtin ? builtin : topo;
  }
  return "CPU_DRAM";
}

/* Where a transferred value comes from; vxc takes host memory when it cannot tell. */
static const char *origin_space_name(walker *W, const vxp_origin *o) {
  return o->known ? place_space_name(W, &o->place) : "CPU_DRAM";
}

/* The view index of the space a place denotes, or VXP_NONE when the space is not declared
 * (an undeclared space has no capacity, so nothing is checked in it). */
static uint32_t resolve_place(walker *W, const vxp_place *p) {
  if (p->kind == VXP_PLACE_MEMORY) {
    for (size_t i = 0; i < W->spaces.len; i++) {
      if (W->spaces.items[i].name == p->name) return W->spaces.items[i].space;
    }
    return VXP_NONE;
  }
  if (p->kind == VXP_PLACE_TOPOLOGY) {
    const char *space = place_space_name(W, p);
    for (size_t i = 0; i < W->an->view.spaces.len; i++) {
      if (strcmp(W->an->view.spaces.items[i]->name, space) == 0) return (uint32_t)i;
    }
  }
  return VXP_NONE;
}

/* ------------------------------------------------------------------ tile sizes */

/* SIZE_UNRESOLVED: the shape names something that does not exist (an undefined constant,
 * an unknown element type), which resolve.c reports as an error; no W1029 on top of it. */
/* SIZE_INVALID: a dimension folds, but to no size (negative, a division by zero, past 64
 * bits, a const cycle, or beyond the folder's guard): VXP0050, an error, since W1029 is only
 * for shapes that depend on a run-time value. */
typedef enum size_status {
  SIZE_OK,
  SIZE_UNKNOWN,
  SIZE_UNRESOLVED,
  SIZE_INVALID,
  SIZE_TOO_BIG
} size_status;

/* Bytes of a tensor type: ceil(bits x product(dims) / 8), exact in 128 bits. On
 * SIZE_UNKNOWN, `why` (appended to, whole) says which dimension did not fold and `culprit`
 * where. */
static size_status tensor_bytes(walker *W, const vxp_tensor_type *t, u128 *bytes, vxp_sb *why,
                                uint32_t *culprit_start, uint32_t *culprit_end) {
  *culprit_start = t->start_byte;
  *culprit_end = t->end_byte;
  unsigned bits = vxp_elem__bits(vxp_instance__elem(W->an, W->fn_index, t));
  if (bits == 0) {
    vxp_sb__printf(W->ctx, why, "its element type '%s' is not a concrete element type",
                   name_str(W, t->elem_name));
    return t->elem_generic ? SIZE_UNKNOWN : SIZE_UNRESOLVED;
  }
  if (!t->has_shape || t->dims_count == 0) {
    vxp_sb__puts(W->ctx, why, "the shape is not statically known: it has no static dimensions");
    return SIZE_UNKNOWN;
  }
  u128 product = bits;
  bool too_big = false;
  W->dims.len = 0;
  for (uint32_t i = 0; i < t->dims_count; i++) {
    uint32_t cx = W->m->dim_list.items[t->dims_first + i];
    vxp_fold f = vxp_consteval__fold(&W->env, cx);
    if (f.status == VXP_FOLD_OK && !array_push(W->ctx, &W->dims, f.value)) W->rc = VXP_ENOMEM;
    /* A literal dimension past 64 bits is not unknown: the tile is larger than any space
     * (E6009), unless another dimension is 0. It was a W1029 warning and the program was
     * admitted, while [2^32, 2^32] was refused. */
    if (f.status == VXP_FOLD_OVERFLOW && cx < W->m->cexprs.len &&
        W->m->cexprs.items[cx].kind == VXP_CX_BIGINT) {
      if (product != 0) too_big = true;
      continue;
    }
    if (f.status != VXP_FOLD_OK) {
      if (f.status == VXP_FOLD_UNKNOWN && vxp_resolve__unresolved(W->an, f.culprit))
        return SIZE_UNRESOLVED;
      const vxp_cexpr *dim = cx < W->m->cexprs.len ? &W->m->cexprs.items[cx] : NULL;
      const vxp_const_binding *b =
          dim && dim->kind == VXP_CX_NAME ? vxp_consteval__binding(&W->env, dim->name) : NULL;
      /* The first words are vxc's note for the same dimension (W1029). */
      if (dim && dim->kind == VXP_CX_NAME && f.status == VXP_FOLD_UNKNOWN && !b) {
        vxp_sb__printf(W->ctx, why, "dimension %u is the runtime value '%s'", i,
                       name_str(W, dim->name));
      } else if (dim && dim->kind == VXP_CX_OPAQUE && dim->reason == VXP_OPAQUE_DYNAMIC) {
        vxp_sb__printf(W->ctx, why,
                       "dimension %u is a run-time extent: `?` is known only when the "
                       "program runs",
                       i);
      } else {
        vxp_sb__printf(W->ctx, why, "dimension %u is not a compile-time constant: ", i);
        vxp_consteval__explain(W->ctx, &W->env, f, why);
      }
      if (why->failed) W->rc = VXP_ENOMEM;
      if (!dim) return SIZE_UNKNOWN;
      /* The note points at the sub-expression that failed (an overflowing product, a
       * division by zero, in a const item's definition if that is where it is), or the
       * dimension. */
      const vxp_cexpr *at = f.culprit < W->m->cexprs.len ? &W->m->cexprs.items[f.culprit] : dim;
      if (at->end_byte <= at->start_byte) at = dim;
      *culprit_start = at->start_byte;
      *culprit_end = at->end_byte;
      return f.status == VXP_FOLD_UNKNOWN ? SIZE_UNKNOWN : SIZE_INVALID;
    }
    /* Keep multiplying exactly while it fits; a zero dimension makes the tile empty
     * whatever the others are. */
    if (f.value == 0) {
      product = 0;
      too_big = false;
      continue;
    }
    if (product != 0) {
      if (product > (((u128)1 << 100) / f.value))
        too_big = true;
      else
        product *= f.value;
    }
  }
  if (too_big && product != 0) return SIZE_TOO_BIG;
  *bytes = (product + 7) / 8;
  return *bytes > UINT64_MAX ? SIZE_TOO_BIG : SIZE_OK;
}

static uint64_t round_to_granule(const vxp_space *sp, uint64_t bytes, bool *overflow) {
  *overflow = false;
  if (!sp->has_granule || sp->granule == 0 || bytes == 0) return bytes;
  uint64_t units = vxp_div_ceil_u64(bytes, sp->granule), rounded;
  if (!vxp_mul_u64(units, sp->granule, &rounded)) {
    *overflow = true;
    return UINT64_MAX;
  }
  return rounded;
}

/* ------------------------------------------------------------------ the walk */

static void trace_push(walker *W, vxp_trace_kind kind, uint32_t index) {
  if (W->rc != VXP_OK) return;
  vxp_trace_item it = {(uint8_t)kind, index};
  if (!array_push(W->ctx, &W->trace, it)) W->rc = VXP_ENOMEM;
}

static block_frame *top_block(walker *W) { return array_last(&W->blocks); }

/* What a placement is, for messages: "variable 'x'" (whole, however long the name) or
 * "transferred tensor". The caller frees `sb`; a failed append is VXP_ENOMEM. */
static const char *describe_context(walker *W, const vxp_place_event *pl, vxp_sb *sb) {
  if (pl->form == VXP_FORM_LET_TYPE && pl->binding)
    vxp_sb__printf(W->ctx, sb, "variable '%s'", name_str(W, pl->binding));
  else
    vxp_sb__puts(W->ctx, sb, "transferred tensor");
  if (sb->failed) W->rc = VXP_ENOMEM;
  return vxp_sb__text(sb);
}

/* E6014: a transfer that touches CPU_DRAM needs a host model once a machine model (a
 * device-scoped space) is declared. Reported once per program. */
static void check_host(walker *W, const vxp_place_event *pl, const char *from, const char *to) {
  if (W->host_declared || !W->device_declared || W->reported_e6014) return;
  if (strcmp(from, "CPU_DRAM") != 0 && strcmp(to, "CPU_DRAM") != 0) return;
  W->reported_e6014 = true;
  vxp_diagnostic *d = add_diag(
      W, VXP_SEVERITY_ERROR, "E6014", pl->start_byte, pl->end_byte,
      "this program stages through host memory, but no host was declared: the transfer %s -> "
      "%s has an end nothing describes",
      from, to);
  /* Worded as vxc's note, which tools match on ("pass --host"). */
  note(W, d, true, VXP_NONE, 0,
       "pass --host FILE to name the host, or --host default for the machine compiling "
       "this; --machine describes the accelerator only");
}

/* A placement's size before any granule: its raw bytes, or why they are not known. */
typedef struct tile_size {
  size_status status;
  bool type_known;
  u128 raw;
  vxp_sb why; /* freed by the placement's walker (place) */
  uint32_t culprit_start, culprit_end;
} tile_size;

static void size_of(walker *W, const vxp_place_event *pl, tile_size *ts) {
  memset(ts, 0, sizeof(*ts));
  ts->type_known = pl->type_known;
  if (!pl->type_known) {
    ts->status = SIZE_UNKNOWN;
    return;
  }
  ts->status = tensor_bytes(W, &W->m->types.items[pl->type], &ts->raw, &ts->why, &ts->culprit_start,
                            &ts->culprit_end);
}

static uint32_t space_index(walker *W, const char *name) {
  for (size_t i = 0; i < W->an->view.spaces.len; i++) {
    if (strcmp(W->an->view.spaces.items[i]->name, name) == 0) return (uint32_t)i;
  }
  return VXP_NONE;
}

/* Enter a scope of the function being walked: its own (parent VXP_NONE) or a block's. */
static uint32_t push_scope(walker *W, uint32_t parent, uint8_t kind, uint32_t start, uint32_t end) {
  vxp_scope sc;
  memset(&sc, 0, sizeof(sc));
  sc.id = (uint32_t)W->an->scopes.len;
  sc.parent = parent;
  sc.function = W->fn_index;
  sc.kind = kind;
  sc.range = vxp_source__range_near(W->src, start, end, &W->line_hint);
  if (!array_push(W->ctx, &W->an->scopes, sc)) W->rc = VXP_ENOMEM;
  return sc.id;
}

static void add_tile(walker *W, const vxp_place_event *pl, uint32_t space, uint64_t bytes,
                     vxp_name binding) {
  const vxp_space *sp = space_at(W, space);
  /* Only a transfer is released at once when its binding is never read: vxc applies the
   * rule to placements checked while a `let` or assignment target is set, which is the
   * transfers in the initializer; a `let` whose type is placed is checked after the
   * target is cleared and stays resident to the end of its block. */
  bool never_read = pl->form == VXP_FORM_TRANSFER && binding != VXP_NAME_NONE &&
                    !vxp_function__reads(W->fn, binding);
  block_frame *b = top_block(W);
  vxp_record rec;
  memset(&rec, 0, sizeof(rec));
  rec.scope = b->scope;
  rec.function = W->fn_index;
  rec.space = space;
  rec.bytes = bytes;
  rec.depth = W->depth;
  rec.order = W->order;
  rec.released_at_once = never_read;
  rec.multiplier_known = b->multiplier_known;
  rec.multiplier = b->multiplier;
  rec.released = never_read;
  rec.release_order = W->order;
  rec.type = pl->type_known ? pl->type : VXP_NONE;
  rec.binding = binding;
  rec.function_name = W->an->functions.items[W->fn_index].name;
  rec.space_name = sp->name;
  rec.binding_name = binding ? name_str(W, binding) : NULL;
  rec.start_byte = pl->start_byte;
  rec.end_byte = pl->end_byte;
  rec.range = vxp_source__range_near(W->src, pl->start_byte, pl->end_byte, &W->line_hint);
  rec.role = pl->role != VXP_NAME_NONE ? name_str(W, pl->role) : NULL; /* lowered (roles.h) */
  rec.role_name = pl->role;
  vxp_peak_tile tile = {space, bytes, never_read};
  if (!array_push(W->ctx, &W->an->records, rec) || !array_push(W->ctx, &W->tiles, tile)) {
    W->rc = VXP_ENOMEM;
    return;
  }
  /* The hops of this placement's transfer recorded so far place this tile. */
  for (size_t i = W->route_mark; i < W->an->routes.len; i++)
    W->an->routes.items[i].record = (uint32_t)(W->an->records.len - 1);
  W->route_mark = W->an->routes.len;
  trace_push(W, VXP_TRACE_PLACE, (uint32_t)(W->tiles.len - 1));
}

/* One placement into `space` (a view index, or VXP_NONE for an undeclared space):
 * W1029 when its size is unknown, E6009 when one tile exceeds the space, then a tile. */
static void place_sized(walker *W, const vxp_place_event *pl, const tile_size *ts, uint32_t space,
                        vxp_name binding, const char *context) {
  const vxp_space *sp = space_at(W, space);
  if (ts->status == SIZE_INVALID) {
    vxp_diagnostic *d = add_diag(W, VXP_SEVERITY_ERROR, "VXP0050", pl->start_byte, pl->end_byte,
                                 "the size of %s placed in '%s' cannot be determined: a dimension "
                                 "folds to no valid size",
                                 context, sp->name);
    note(W, d, false, ts->culprit_start, ts->culprit_end, "%s", vxp_sb__text(&ts->why));
    return;
  }
  if (ts->status == SIZE_UNKNOWN) {
    vxp_diagnostic *d = add_diag(
        W, VXP_SEVERITY_WARNING, "W1029", pl->start_byte, pl->end_byte,
        "capacity of '%s' not verified \xe2\x80\x94 %s has a dynamic shape", sp->name, context);
    if (!ts->type_known)
      note(W, d, false, VXP_NONE, 0,
           "vxpeak could not infer the type of the placed value; bind it to a variable with a "
           "declared tensor type");
    else
      note(W, d, false, ts->culprit_start, ts->culprit_end, "%s", vxp_sb__text(&ts->why));
    note(W, d, true, VXP_NONE, 0,
         "give every dimension a compile-time value (a literal, a `const` item, or -D "
         "NAME=VALUE) so that the tile can be checked");
    return;
  }
  bool overflow = ts->status == SIZE_TOO_BIG;
  uint64_t bytes = overflow ? UINT64_MAX : (uint64_t)ts->raw;
  if (!overflow) bytes = round_to_granule(sp, bytes, &overflow);
  if (overflow || bytes > sp->capacity) {
    vxp_diagnostic *d;
    if (overflow)
      d = add_diag(W, VXP_SEVERITY_ERROR, "E6009", pl->start_byte, pl->end_byte,
                   "%s needs more than %llu bytes but memory space '%s' has capacity %llu bytes",
                   context, (unsigned long long)UINT64_MAX, sp->name,
                   (unsigned long long)sp->capacity);
    else
      d = add_diag(W, VXP_SEVERITY_ERROR, "E6009", pl->start_byte, pl->end_byte,
                   "%s needs %llu bytes but memory space '%s' has capacity %llu bytes", context,
                   (unsigned long long)bytes, sp->name, (unsigned long long)sp->capacity);
    if (d && !vxp_diag__capacity(W->ctx, d, sp->name, bytes, sp->capacity, false, 0))
      W->rc = VXP_ENOMEM;
    if (d && W->rc == VXP_OK)
      W->rc = vxp_notes__tile(W->ctx, W->an, d, sp, bytes, pl->type_known ? pl->type : VXP_NONE,
                              &W->env);
  }
  add_tile(W, pl, space, bytes, binding);
}

static void place_in(walker *W, const vxp_place_event *pl, const tile_size *ts, uint32_t space,
                     vxp_name binding) {
  W->order++;
  if (space == VXP_NONE) return;
  if (!space_at(W, space)->has_capacity) return;
  if (ts->status == SIZE_UNRESOLVED) return; /* an error already says what does not exist */
  vxp_sb context = {0};
  place_sized(W, pl, ts, space, binding, describe_context(W, pl, &context));
  vxp_sb__free(W->ctx, &context);
}

/* ------------------------------------------------------------------ routes */

/* The topology in force where the walk is: the innermost `spawn on(Topology::X)`, else the
 * host's (vxc's CPU). */
static const char *active_topology(walker *W) {
  vxp_name t = top_block(W)->topology;
  return t == VXP_NAME_NONE ? "CPU" : name_str(W, t);
}

static void shape_text(char *buf, size_t size, const uint64_t *dims, size_t rank) {
  size_t at = 0;
  at += (size_t)snprintf(buf, size, "[");
  for (size_t i = 0; i < rank && at < size; i++)
    at +=
        (size_t)snprintf(buf + at, size - at, "%s%llu", i ? ", " : "", (unsigned long long)dims[i]);
  if (at < size) snprintf(buf + at, size - at, "]");
}

/* The lowering vxc runs on the hop `from -> to` of transfer `pl`, or NULL when the builtin
 * copy moves it (vxc's select_transfer_lowering and record_emittable_lowering). The
 * topology in force picks among the lowerings of the edge; where it declares the edge
 * itself, its own lowering or none. Elsewhere (a host edge moved from the host) a single
 * lowering is taken and several are ambiguous (E6015). A lowering runs only when it can be
 * emitted (one function taking two statically shaped tiles, the source then the
 * destination held by `&mut`, a body written with `raw::`, a `scope: sm` destination) and
 * when its declared tile is the one the transfer moves (E6023); otherwise VXP0044 says the
 * builtin copy is used. */
static const vxp_lowering *hop_lowering(walker *W, const vxp_place_event *pl, const char *from,
                                        const char *to) {
  const vxp_machine_view *v = &W->an->view;
  const char *active = active_topology(W);
  const vxp_lowering *chosen = NULL, *only = NULL;
  size_t candidates = 0;
  char names[512] = "";
  for (size_t i = 0; i < v->lowerings.len; i++) {
    const vxp_lowering *l = v->lowerings.items[i];
    if (!l->topology || strcmp(l->from, from) != 0 || strcmp(l->to, to) != 0) continue;
    size_t at = strlen(names);
    snprintf(names + at, sizeof(names) - at, "%s%s", candidates ? ", " : "", l->topology);
    candidates++;
    only = l;
    if (!chosen && strcmp(l->topology, active) == 0) chosen = l;
  }
  if (candidates == 0) return NULL;
  bool active_declares_edge = false;
  const vxp_topology *at = vxp_machine__topology(v, active);
  for (size_t e = 0; at && e < at->edges.len && !active_declares_edge; e++)
    active_declares_edge =
        strcmp(at->edges.items[e].from, from) == 0 && strcmp(at->edges.items[e].to, to) == 0;
  if (!chosen && !active_declares_edge && candidates == 1) chosen = only;
  if (!chosen) {
    if (!active_declares_edge)
      add_diag(W, VXP_SEVERITY_ERROR, "E6015", pl->start_byte, pl->end_byte,
               "the edge %s -> %s is implemented by %zu lowerings (%s), and none of them is the "
               "topology in force here (%s); which lowering should run is ambiguous: perform "
               "this transfer inside a `spawn on` for the machine that owns it",
               from, to, candidates, names, active);
    return NULL;
  }
  const vxp_lowering *l = chosen;
  const vxp_space *dst = vxp_machine__space(v, to);
  bool dst_is_sm = dst && dst->has_scope && dst->scope == VXP_SCOPE_SM;
  const vxp_lowering_tile *ts = &l->tiles[0], *td = &l->tiles[1];
  bool emittable = l->methods == 1 && l->params == 2 && ts->is_tensor && ts->dims_static &&
                   td->is_tensor && td->dims_static && !ts->is_mut_ref && td->is_mut_ref &&
                   l->uses_raw && dst_is_sm;
  if (!emittable) {
    add_diag(W, VXP_SEVERITY_WARNING, "VXP0044", pl->start_byte, pl->end_byte,
             "impl Transfer<Memory::%s, Memory::%s> for Topology::%s exists but is not emitted "
             "here: a lowering needs exactly one function taking exactly two statically "
             "shaped tiles (the source, then the destination held by `&mut`), a body written "
             "against the `raw::` primitives, and a destination space declared `scope: sm`%s. "
             "The builtin copy is used instead",
             from, to, l->topology, dst_is_sm ? "" : " (this one is not)");
    return NULL;
  }
  char a[128], b[128];
  bool same_decl =
      ts->rank == td->rank && memcmp(ts->dims, td->dims, ts->rank * sizeof(ts->dims[0])) == 0;
  if (!same_decl) {
    shape_text(a, sizeof(a), ts->dims, ts->rank);
    shape_text(b, sizeof(b), td->dims, td->rank);
    add_diag(W, VXP_SEVERITY_ERROR, "E6023", pl->start_byte, pl->end_byte,
             "impl Transfer<Memory::%s, Memory::%s> for Topology::%s declares a %s source and "
             "a %s destination; a transfer moves a tile, so both sides are the same shape",
             from, to, l->topology, a, b);
  }
  const vxp_tensor_type *site = pl->type_known ? &W->m->types.items[pl->type] : NULL;
  vxp_elem site_elem = site ? vxp_instance__elem(W->an, W->fn_index, site) : VXP_ELEM_UNKNOWN;
  if (site_elem != VXP_ELEM_UNKNOWN && ts->elem != VXP_ELEM_UNKNOWN && site_elem != ts->elem)
    add_diag(W, VXP_SEVERITY_ERROR, "E6023", pl->start_byte, pl->end_byte,
             "impl Transfer<Memory::%s, Memory::%s> for Topology::%s declares %s tiles but this "
             "transfer moves a %s tile; a lowering is chosen by edge, so its declared element "
             "type must be the one it is given",
             from, to, l->topology, vxp_elem__name(ts->elem), vxp_elem__name(site_elem));
  if (!same_decl) return l;
  /* The transfer's own shape, when every dimension folds. */
  uint64_t dims[VXP_LOWERING_MAX_RANK];
  bool site_static =
      site && site->has_shape && site->dims_count > 0 && site->dims_count <= VXP_LOWERING_MAX_RANK;
  for (uint32_t i = 0; site_static && i < site->dims_count; i++) {
    vxp_fold f = vxp_consteval__fold(&W->env, W->m->dim_list.items[site->dims_first + i]);
    if (f.status != VXP_FOLD_OK) site_static = false;
    dims[i] = f.value;
  }
  shape_text(a, sizeof(a), ts->dims, ts->rank);
  if (!site_static) {
    add_diag(W, VXP_SEVERITY_WARNING, "VXP0044", pl->start_byte, pl->end_byte,
             "impl Transfer<Memory::%s, Memory::%s> for Topology::%s declares %s tiles but this "
             "transfer's tile has no statically known shape, so nothing relates the two; the "
             "builtin copy is used instead",
             from, to, l->topology, a);
    return NULL;
  }
  if (site->dims_count != ts->rank || memcmp(dims, ts->dims, ts->rank * sizeof(dims[0])) != 0) {
    shape_text(b, sizeof(b), dims, site->dims_count);
    add_diag(W, VXP_SEVERITY_ERROR, "E6023", pl->start_byte, pl->end_byte,
             "impl Transfer<Memory::%s, Memory::%s> for Topology::%s declares %s tiles but this "
             "transfer moves a %s tile; a lowering is chosen by edge, so its declared shape "
             "must be the shape it is given",
             from, to, l->topology, a, b);
    return NULL;
  }
  return l;
}

/* The traffic of a hop a lowering moves: the body's element counts in bytes of the tile
 * the transfer moves (vxc counts no sub-byte element: a rounded figure would look like
 * amplification). */
static void lowered_traffic(walker *W, const vxp_place_event *pl, const vxp_lowering *l,
                            vxp_route *r) {
  if (l->traffic_absent) {
    r->traffic_absent_reason = l->traffic_absent;
    return;
  }
  const vxp_tensor_type *site = &W->m->types.items[pl->type];
  unsigned bits = vxp_elem__bits(vxp_instance__elem(W->an, W->fn_index, site));
  if (bits == 0 || bits % 8 != 0) {
    r->traffic_absent_reason = "the tile's element type is not a whole number of bytes, so its "
                               "movement cannot be counted in bytes";
    return;
  }
  /* The count runs with this analysis' constants (a `-D` override included). */
  uint64_t elems[4];
  bool exact = true;
  const char *why = vxp_count__run(l->count, &W->env, elems, &exact);
  if (why) {
    r->traffic_absent_reason = why;
    return;
  }
  uint64_t eb = bits / 8;
  if (!vxp_mul_u64(elems[VXP_COUNT_FROM_READ], eb, &r->from_read) ||
      !vxp_mul_u64(elems[VXP_COUNT_FROM_WRITTEN], eb, &r->from_written) ||
      !vxp_mul_u64(elems[VXP_COUNT_TO_READ], eb, &r->to_read) ||
      !vxp_mul_u64(elems[VXP_COUNT_TO_WRITTEN], eb, &r->to_written)) {
    r->traffic_absent_reason = "the byte count overflows a 64-bit counter";
    return;
  }
  r->lowered = true;
  r->traffic_exact = exact;
}

/* Record one hop `from -> to` of the transfer `pl`, routed over `path` (its nodes) with
 * routing weight `total`. A route vxc runs from or to an ancestor of an end (its rule for a
 * space without edges of its own) is recorded from the hop's own source to its own
 * destination, with a step along the `within:` tree at each end it does not reach: the
 * header promises a route of at least two spaces, source first, and the derived cost and
 * the traffic are the ends' (a transfer from SMEM up to its ancestor HBM was once the route
 * "HBM" of no edges, priced as SMEM -> HBM). */
static void record_route(walker *W, const vxp_place_event *pl, const tile_size *ts,
                         const char *from, const char *to, const vxp_node_path *path,
                         uint64_t total, uint32_t hop, uint32_t hops) {
  vxp_analysis *an = W->an;
  vxp_route r;
  memset(&r, 0, sizeof(r));
  r.owner = an;
  r.function = W->fn_index;
  r.function_name = an->functions.items[W->fn_index].name;
  r.path_first = (uint32_t)an->route_nodes.len;
  r.total_cost = total;
  r.hop = hop;
  r.hops = hops;
  r.from_node = vxp_transfer__node(&an->graph, from);
  r.to_node = vxp_transfer__node(&an->graph, to);
  /* A found route has nodes, and ends at graph nodes: the ends or their ancestors (only a
   * declared space has ancestors, and every declared space is a node). */
  VXP__ASSERT(path->len >= 1 && r.from_node != VXP_NONE && r.to_node != VXP_NONE);
  r.climbs = r.from_node != VXP_NONE && path->items[0] != r.from_node;
  r.descends = r.to_node != VXP_NONE && path->items[path->len - 1] != r.to_node;
  r.path_len = (uint32_t)path->len + r.climbs + r.descends;
  r.bytes_known = ts->status == SIZE_OK;
  r.bytes = r.bytes_known ? (uint64_t)ts->raw : 0;
  if (r.bytes_known) {
    int rc = vxp_transfer__hop_between(W->ctx, &an->graph, from, r.from_node, to, r.to_node,
                                       r.bytes, &r.cost);
    if (rc != VXP_OK) {
      W->rc = rc;
      return;
    }
  }
  /* Every hop is matched against the lowerings (vxc checks each hop of a staged route). */
  const vxp_lowering *l = hop_lowering(W, pl, from, to);
  if (W->rc != VXP_OK) return;
  if (!r.bytes_known)
    r.traffic_absent_reason = "the transferred tile has no statically known size";
  else if (l)
    lowered_traffic(W, pl, l, &r);
  r.start_byte = pl->start_byte;
  r.end_byte = pl->end_byte;
  r.range = vxp_source__range_near(W->src, pl->start_byte, pl->end_byte, &W->line_hint);
  r.record = VXP_NONE;
  if (!array_reserve(W->ctx, &an->route_nodes, r.path_len)) {
    W->rc = VXP_ENOMEM;
    return;
  }
  if (r.climbs) an->route_nodes.items[an->route_nodes.len++] = r.from_node;
  for (size_t i = 0; i < path->len; i++)
    an->route_nodes.items[an->route_nodes.len++] = path->items[i];
  if (r.descends) an->route_nodes.items[an->route_nodes.len++] = r.to_node;
  if (!array_push(W->ctx, &an->routes, r)) W->rc = VXP_ENOMEM;
}

/* Route and record the single hop `from -> to` of a staged transfer. */
static void route_hop(walker *W, const vxp_place_event *pl, const tile_size *ts, const char *from,
                      const char *to, uint32_t hop, uint32_t hops) {
  uint64_t total = 0;
  bool found = false;
  int rc = vxp_transfer__route(W->ctx, &W->an->graph, from, to, &W->hop_path, &total, &found);
  if (rc != VXP_OK)
    W->rc = rc;
  else if (found)
    record_route(W, pl, ts, from, to, &W->hop_path, total, hop, hops);
}

/* A transfer: route it from where the value lives; a route through intermediate spaces is
 * staged hop by hop, each hop's destination a placement of its own (bound to nothing, so
 * never released as never-read), then the final destination takes the binding. */
static void place_transfer(walker *W, const vxp_place_event *pl, const tile_size *ts) {
  const char *from = origin_space_name(W, &pl->origin), *to = place_space_name(W, &pl->dest);
  /* A destination that names no space is E6025 (resolve.c), not also a missing route. */
  const vxp_machine_view *v = &W->an->view;
  bool unresolved_dest = (pl->dest.kind == VXP_PLACE_MEMORY && !vxp_machine__space(v, to) &&
                          !vxp_machine__builtin_space(to) && !vxp_machine__space_held(v, to)) ||
                         (pl->origin.known && pl->origin.place.kind == VXP_PLACE_MEMORY &&
                          !vxp_machine__space(v, from) && !vxp_machine__builtin_space(from) &&
                          !vxp_machine__space_held(v, from));
  if (strcmp(from, to) != 0 && !unresolved_dest) {
    uint64_t total = 0;
    bool found = false;
    int rc = vxp_transfer__route(W->ctx, &W->an->graph, from, to, &W->path, &total, &found);
    if (rc != VXP_OK) {
      W->rc = rc;
      return;
    }
    if (!found) {
      add_diag(W, VXP_SEVERITY_ERROR, "E6002", pl->start_byte, pl->end_byte,
               "Cannot transfer from %s to %s: no hardware path exists", from, to);
    } else {
      check_host(W, pl, from, to);
      if (W->path.len <= 2) {
        record_route(W, pl, ts, from, to, &W->path, total, 0, 1);
      } else {
        const vxp_graph *g = &W->an->graph;
        uint32_t hops = (uint32_t)W->path.len - 1;
        const char *at = from;
        for (uint32_t i = 1; i + 1 < W->path.len && W->rc == VXP_OK; i++) {
          const char *next = g->nodes.items[W->path.items[i]];
          route_hop(W, pl, ts, at, next, i - 1, hops);
          place_in(W, pl, ts, space_index(W, next), VXP_NAME_NONE);
          /* A hop into a space without a capacity places no tile: its route has none,
           * rather than the next hop's (the header's "NULL when the hop places no tile"). */
          W->route_mark = W->an->routes.len;
          at = next;
        }
        route_hop(W, pl, ts, at, to, hops - 1, hops);
      }
    }
  }
  place_in(W, pl, ts, resolve_place(W, &pl->dest), pl->binding);
}

/* E6026: the element type of a placed tensor in `space` must be one its hardware can hold.
 * The message is vxc's: "<context> has element type <e>, which <topology> cannot represent;
 * it declares [<dtypes>]". */
static void check_elem(walker *W, uint32_t space, vxp_elem elem, const char *context,
                       uint32_t start, uint32_t end) {
  if (space == VXP_NONE || elem == VXP_ELEM_UNKNOWN) return;
  const char *space_name = space_at(W, space)->name;
  const vxp_topology *t =
      vxp_machine__dtype_refusal(&W->an->view, space_name, vxp_elem__name(elem));
  if (!t) return;
  vxp_sb listed = {0}; /* every type the topology declares, however many */
  for (size_t i = 0; i < t->dtypes.len; i++) {
    /* Canonical names, as vxc prints its element types (`Bool` is `bool`). */
    const char *listed_name = t->dtypes.items[i];
    vxp_elem e = vxp_elem__from_name(listed_name, strlen(listed_name));
    if (e != VXP_ELEM_UNKNOWN) listed_name = vxp_elem__name(e);
    vxp_sb__printf(W->ctx, &listed, "%s%s", i ? ", " : "", listed_name);
  }
  if (listed.failed) W->rc = VXP_ENOMEM;
  vxp_diagnostic *d = add_diag(W, VXP_SEVERITY_ERROR, "E6026", start, end,
                               "%s has element type %s, which %s cannot represent; it declares "
                               "[%s]",
                               context, vxp_elem__name(elem), t->name, vxp_sb__text(&listed));
  vxp_sb__free(W->ctx, &listed);
  note(W, d, false, VXP_NONE, 0, "it is placed in memory space '%s', which topology '%s' holds",
       space_name, t->name);
  note(W, d, true, VXP_NONE, 0,
       "convert the tensor to a type the topology lists, or place it on hardware that has %s",
       vxp_elem__name(elem));
}

static void check_dtype(walker *W, const vxp_place_event *pl) {
  if (!pl->type_known) return;
  vxp_sb context = {0};
  vxp_elem elem = (vxp_elem)W->m->types.items[pl->type].elem;
  if (W->an->retype && W->an->retype[pl->type]) elem = (vxp_elem)W->an->retype[pl->type];
  check_elem(W, resolve_place(W, &pl->dest), elem, describe_context(W, pl, &context),
             pl->start_byte, pl->end_byte);
  vxp_sb__free(W->ctx, &context);
}

/* The placement fact of the event being walked. */
static void record_size_fact(walker *W, vxp_event_fact *fact, const tile_size *ts) {
  if (!fact) return;
  switch (ts->status) {
  case SIZE_OK: fact->size = VXP_FACT_SIZE_KNOWN; break;
  case SIZE_UNRESOLVED: fact->size = VXP_FACT_SIZE_UNRESOLVED; break;
  case SIZE_INVALID: fact->size = VXP_FACT_SIZE_INVALID; break;
  case SIZE_TOO_BIG: fact->size = VXP_FACT_SIZE_TOO_BIG; break;
  default: fact->size = ts->type_known ? VXP_FACT_SIZE_DYNAMIC : VXP_FACT_SIZE_NO_TYPE; break;
  }
  if (ts->status != SIZE_OK) return;
  fact->raw_bytes = (uint64_t)ts->raw;
  fact->dims_first = (uint32_t)W->an->fact_dims.len;
  fact->dims_count = (uint32_t)W->dims.len;
  for (size_t i = 0; i < W->dims.len; i++)
    if (!array_push(W->ctx, &W->an->fact_dims, W->dims.items[i])) W->rc = VXP_ENOMEM;
}

static void place(walker *W, const vxp_place_event *pl, vxp_event_fact *fact) {
  W->route_mark = W->an->routes.len; /* routes before this event are not its */
  tile_size ts;
  check_dtype(W, pl);
  size_of(W, pl, &ts);
  record_size_fact(W, fact, &ts);
  if (pl->form == VXP_FORM_TRANSFER)
    place_transfer(W, pl, &ts);
  else
    place_in(W, pl, &ts, resolve_place(W, &pl->dest), pl->binding);
  vxp_sb__free(W->ctx, &ts.why);
}

/* Skip the events of a block whose `if comptime` arm is not taken, up to its CLOSE. */
static size_t skip_block(const vxp_function *fn, size_t open_index) {
  size_t depth = 0;
  for (size_t i = open_index; i < fn->events.len; i++) {
    if (fn->events.items[i].kind == VXP_EV_OPEN)
      depth++;
    else if (fn->events.items[i].kind == VXP_EV_CLOSE && --depth == 0)
      return i;
  }
  return fn->events.len - 1;
}

/* Whether an `if comptime` arm runs: TAKEN or PRUNED when its condition folds (the else
 * arm runs when the condition is false), RUNTIME for any other block. */
static vxp_arm comptime_arm(walker *W, const vxp_block_event *b) {
  if (!b->comptime || b->condition == VXP_NONE) return VXP_ARM_RUNTIME;
  if (b->kind != VXP_BLOCK_IF && b->kind != VXP_BLOCK_ELSE) return VXP_ARM_RUNTIME;
  vxp_fold f = vxp_consteval__fold_signed(&W->env, b->condition);
  if (f.status != VXP_FOLD_OK) return VXP_ARM_RUNTIME;
  bool taken = f.value != 0;
  if (b->kind == VXP_BLOCK_ELSE) taken = !taken;
  return taken ? VXP_ARM_TAKEN : VXP_ARM_PRUNED;
}

static void open_block(walker *W, const vxp_block_event *b, vxp_event_fact *fact) {
  block_frame parent = *top_block(W);
  block_frame frame = parent;
  frame.releasing = vxp_block__releases((vxp_block_kind)b->kind);
  frame.first_record = W->an->records.len;
  frame.scope = push_scope(W, parent.scope, b->kind, b->start_byte, b->end_byte);
  if (b->kind == VXP_BLOCK_LOOP) frame.multiplier_known = false;
  if (b->kind == VXP_BLOCK_SPAWN && b->topology != VXP_NAME_NONE) frame.topology = b->topology;
  if (b->kind == VXP_BLOCK_FOR) {
    /* `for i in a..b` runs max(b - a, 0) times when both bounds fold; any other
     * iterable (a tensor, an iterator, a run-time bound) has no static trip count. */
    vxp_fold lo = vxp_consteval__fold_signed(&W->env, b->trip_start);
    vxp_fold hi = vxp_consteval__fold_signed(&W->env, b->trip_end);
    if (lo.status != VXP_FOLD_OK || hi.status != VXP_FOLD_OK) {
      frame.multiplier_known = false;
    } else {
      i128 l = lo.negative ? -(i128)lo.value : (i128)lo.value;
      i128 h = hi.negative ? -(i128)hi.value : (i128)hi.value;
      u128 trips = h > l ? (u128)(h - l) : 0;
      uint64_t t64 = trips > UINT64_MAX ? UINT64_MAX : (uint64_t)trips;
      if (fact) {
        fact->trips_known = true;
        fact->trips = t64;
      }
      if (!vxp_mul_u64(frame.multiplier, t64, &frame.multiplier)) frame.multiplier = UINT64_MAX;
    }
  }
  if (!array_push(W->ctx, &W->blocks, frame)) {
    W->rc = VXP_ENOMEM;
    return;
  }
  if (frame.releasing) {
    W->depth++;
    trace_push(W, VXP_TRACE_OPEN, 0);
  }
}

static void close_block(walker *W) {
  if (W->blocks.len <= 1) return;
  block_frame frame = W->blocks.items[--W->blocks.len];
  if (frame.releasing) {
    /* The block frees what was placed in it: live up to the last position inside it. */
    for (size_t r = frame.first_record; r < W->an->records.len; r++) {
      vxp_record *rec = &W->an->records.items[r];
      if (!rec->released) {
        rec->released = true;
        rec->release_order = W->order;
      }
    }
    W->depth--;
    trace_push(W, VXP_TRACE_CLOSE, 0);
  }
}

/* The call-tree summary of the function just walked: one fn_space per space (its self
 * peak filled in below) and the bytes held at each of its call sites. */
static bool add_summary(walker *W, size_t calls, uint32_t space_count) {
  vxp_analysis *an = W->an;
  if (!array_reserve(W->ctx, &an->fn_spaces, space_count)) return false;
  for (uint32_t s = 0; s < space_count; s++) {
    vxp_fn_space fs;
    memset(&fs, 0, sizeof(fs));
    fs.best_call = fs.resident_set = fs.call_tree = VXP_NONE;
    fs.bounded = true;
    an->fn_spaces.items[an->fn_spaces.len++] = fs;
  }
  size_t cells = calls * space_count;
  if (cells && !array_reserve(W->ctx, &an->held, cells)) return false;
  if (cells) memset(an->held.items + an->held.len, 0, cells * sizeof(uint64_t));
  an->held.len += cells;
  return true;
}

/* Resident sets, E6010 and W1028 for the function just walked, and its summary. */
static void finish_function(walker *W) {
  vxp_analysis *an = W->an;
  uint32_t space_count = (uint32_t)an->view.spaces.len;
  size_t fs_base = an->fn_spaces.len, held_base = an->held.len;
  if (!add_summary(W, W->calls, space_count)) {
    W->rc = VXP_ENOMEM;
    return;
  }
  if (W->tiles.len == 0 || space_count == 0) return;
  vxp_space_peak *peaks = vxp_ctx__calloc(W->ctx, space_count, sizeof(*peaks));
  bool *live = vxp_ctx__calloc(W->ctx, W->tiles.len, sizeof(bool));
  if (!peaks || !live) {
    W->rc = VXP_ENOMEM;
  } else {
    /* No call sites: nothing is held, and held.items may still be NULL (NULL + 0 is
     * undefined behaviour in C). */
    uint64_t *held = W->calls ? an->held.items + held_base : NULL;
    int rc = vxp_peak__sweep(W->ctx, W->trace.items, W->trace.len, W->tiles.items, W->tiles.len,
                             space_count, peaks, live, held, W->calls);
    if (rc != VXP_OK) W->rc = rc;
  }
  if (W->rc == VXP_OK) {
    for (size_t t = 0; t < W->tiles.len; t++)
      an->records.items[W->record_base + t].live_at_peak = live[t];
    /* Spaces in name order, as vxc reports them. */
    for (;;) {
      uint32_t next = VXP_NONE;
      for (uint32_t s = 0; s < space_count; s++) {
        if (!peaks[s].any) continue;
        if (next == VXP_NONE || strcmp(space_at(W, s)->name, space_at(W, next)->name) < 0) next = s;
      }
      if (next == VXP_NONE) break;
      vxp_space_peak *p = &peaks[next];
      p->any = false;
      an->fn_spaces.items[fs_base + next].self_peak = p->peak;
      an->fn_spaces.items[fs_base + next].resident_set = (uint32_t)an->resident_sets.len;
      const vxp_space *sp = space_at(W, next);
      vxp_resident_set rs;
      memset(&rs, 0, sizeof(rs));
      rs.function = W->fn_index;
      rs.space = next;
      rs.function_name = an->functions.items[W->fn_index].name;
      rs.space_name = sp->name;
      rs.peak_saturated = p->peak > UINT64_MAX;
      rs.peak_bytes = rs.peak_saturated ? UINT64_MAX : (uint64_t)p->peak;
      rs.capacity_bytes = sp->capacity;
      rs.tiles = p->tiles_at_peak ? p->tiles_at_peak : 1;
      rs.peak_record = (uint32_t)(W->record_base + p->peak_tile);
      rs.overcommit = sp->overcommit;
      rs.allocated_known = true;
      u128 sum = 0;
      for (size_t t = 0; t < W->tiles.len; t++) {
        const vxp_record *r = &an->records.items[W->record_base + t];
        if (r->space != next) continue;
        if (!r->multiplier_known) rs.allocated_known = false;
        sum += (u128)r->bytes * r->multiplier;
      }
      rs.allocated_bytes = sum > UINT64_MAX ? UINT64_MAX : (uint64_t)sum;
      if (!array_push(W->ctx, &an->resident_sets, rs)) {
        W->rc = VXP_ENOMEM;
        break;
      }
      if (rs.peak_saturated || (rs.peak_bytes > sp->capacity && rs.tiles > 1)) {
        const vxp_record *at = &an->records.items[rs.peak_record];
        vxp_sb granule_sb = {0};
        if (sp->has_granule)
          vxp_sb__printf(W->ctx, &granule_sb, " (each rounded up to the %llu-byte granule)",
                         (unsigned long long)sp->granule);
        if (granule_sb.failed) W->rc = VXP_ENOMEM;
        const char *granule = vxp_sb__text(&granule_sb);
        vxp_diagnostic *d;
        if (sp->overcommit)
          d = add_diag(W, VXP_SEVERITY_WARNING, "W1028", at->start_byte, at->end_byte,
                       "the working set placed in memory space '%s' (%u tiles)%s sums to %llu "
                       "bytes, over its %llu byte capacity; allowed because '%s' is `overcommit`",
                       sp->name, rs.tiles, granule, (unsigned long long)rs.peak_bytes,
                       (unsigned long long)sp->capacity, sp->name);
        else
          d = add_diag(W, VXP_SEVERITY_ERROR, "E6010", at->start_byte, at->end_byte,
                       "the working set placed in memory space '%s' (%u tiles)%s sums to %llu "
                       "bytes, over its %llu byte capacity; place fewer/smaller tiles or declare "
                       "it `overcommit`",
                       sp->name, rs.tiles, granule, (unsigned long long)rs.peak_bytes,
                       (unsigned long long)sp->capacity);
        vxp_sb__free(W->ctx, &granule_sb);
        if (d &&
            !vxp_diag__capacity(W->ctx, d, sp->name, rs.peak_bytes, sp->capacity, true, rs.tiles))
          W->rc = VXP_ENOMEM;
        if (d && W->rc == VXP_OK)
          W->rc = vxp_notes__working_set(W->ctx, an, d, an->resident_sets.len - 1, &W->env);
      }
    }
  }
  vxp_ctx__free(W->ctx, peaks);
  vxp_ctx__free(W->ctx, live);
}

static void check_declared_entry(walker *W, const vxp_declared *d);
static void check_declared_sized(walker *W, const vxp_declared *d, const vxp_tensor_type *t,
                                 uint32_t space, const char *context);

/* A generic function's parameters and return type are checked per instance, with the
 * instance's arguments (a shape like Tensor<f16, [N, N]> folds only there). */
static void check_instance_declared(walker *W) {
  const vxp_analysed_fn *af = &W->an->functions.items[W->fn_index];
  if (!af->is_instance || W->fn->is_closure) return;
  for (size_t i = 0; i < W->m->declared.len && W->rc == VXP_OK; i++) {
    const vxp_declared *d = &W->m->declared.items[i];
    if (d->kind != VXP_DECLARED_FIELD && d->owner == W->fn->name) check_declared_entry(W, d);
  }
}

/* The bytes of one execution of each element access in the function's spawn regions,
 * folded with the function's (or instance's) arguments: what roofline.c counts. */
static void record_access_facts(walker *W, uint32_t index) {
  vxp_analysis *an = W->an;
  const vxp_function *fn = W->fn;
  an->functions.items[index].access_fact_first = (uint32_t)an->access_facts.len;
  for (size_t k = 0; k < fn->accesses.len && W->rc == VXP_OK; k++) {
    const vxp_access *a = &fn->accesses.items[k];
    vxp_access_fact af;
    memset(&af, 0, sizeof(af));
    const vxp_tensor_type *t =
        a->type != VXP_NONE && a->type < W->m->types.len ? &W->m->types.items[a->type] : NULL;
    unsigned bits = t ? vxp_elem__bits(vxp_instance__elem(an, index, t)) : 0;
    if (!t)
      af.why = VXP_ACCESS_NO_TYPE;
    else if (bits == 0 || !t->has_shape)
      af.why = VXP_ACCESS_NO_ELEMENT;
    u128 elements = 1;
    for (uint32_t i = a->indices; t && af.why == VXP_ACCESS_SIZED && i < t->dims_count; i++) {
      vxp_fold f = vxp_consteval__fold(&W->env, W->m->dim_list.items[t->dims_first + i]);
      if (f.status != VXP_FOLD_OK) {
        af.why = VXP_ACCESS_DIM_DYNAMIC;
        af.dim = i;
      } else if ((elements *= f.value) > ((u128)1 << 80)) {
        af.why = VXP_ACCESS_TOO_BIG;
      }
    }
    if (af.why == VXP_ACCESS_SIZED) af.bytes = (uint64_t)((elements * bits + 7) / 8);
    if (!array_push(W->ctx, &an->access_facts, af)) W->rc = VXP_ENOMEM;
  }
}

static void walk_function(walker *W, uint32_t index) {
  vxp_analysis *an = W->an;
  const vxp_analysed_fn *af = &an->functions.items[index];
  const vxp_function *fn = &W->m->functions.items[af->model_fn];
  W->fn = fn;
  W->fn_index = index;
  /* The instance's arguments, copied: resolving this function's calls may add instances
   * (and their arguments) to the analysis while it is walked. */
  W->bindings.len = 0;
  if (af->const_count && !array_reserve(W->ctx, &W->bindings, af->const_count)) {
    W->rc = VXP_ENOMEM;
    return;
  }
  if (af->const_count)
    memcpy(W->bindings.items, an->const_binds.items + af->const_first,
           af->const_count * sizeof(vxp_const_binding));
  W->bindings.len = af->const_count;
  W->env.bindings = W->bindings.items;
  W->env.binding_count = W->bindings.len;
  an->functions.items[index].call_first = (uint32_t)an->calls.len;
  an->functions.items[index].fact_first = (uint32_t)an->event_facts.len;
  if (fn->events.len && !array_reserve(W->ctx, &an->event_facts, fn->events.len)) {
    W->rc = VXP_ENOMEM;
    return;
  }
  /* A function without events may leave items NULL: no pointer arithmetic on it then. */
  vxp_event_fact *facts = fn->events.len ? an->event_facts.items + an->event_facts.len : NULL;
  if (facts) memset(facts, 0, fn->events.len * sizeof(*facts));
  an->event_facts.len += fn->events.len;
  W->trace.len = W->tiles.len = W->blocks.len = 0;
  W->record_base = W->an->records.len;
  W->order = W->depth = W->calls = 0;
  block_frame root = {false,
                      true,
                      1,
                      0,
                      push_scope(W, VXP_NONE, VXP__SCOPE_FUNCTION, fn->start_byte, fn->end_byte),
                      VXP_NAME_NONE};
  if (W->rc != VXP_OK || !array_push(W->ctx, &W->blocks, root)) {
    W->rc = VXP_ENOMEM;
    return;
  }
  for (size_t i = 0; i < fn->events.len && W->rc == VXP_OK; i++) {
    if (vxp_ctx__interrupted(W->ctx)) {
      W->rc = VXP_ECANCELLED;
      break;
    }
    const vxp_event *ev = &fn->events.items[i];
    /* `facts` may move as placements add dims; index it afresh each time. */
    vxp_event_fact *fact = &an->event_facts.items[an->functions.items[index].fact_first + i];
    fact->reached = true;
    switch (ev->kind) {
    case VXP_EV_OPEN:
      fact->arm = (uint8_t)comptime_arm(W, &ev->u.block);
      if (fact->arm == VXP_ARM_PRUNED)
        i = skip_block(fn, i);
      else
        open_block(W, &ev->u.block, fact);
      break;
    case VXP_EV_CLOSE: close_block(W); break;
    case VXP_EV_PLACE: place(W, &ev->u.place, fact); break;
    case VXP_EV_CALL: {
      /* Only calls of user code are call sites of the summary (and trace items, so that
       * the sweep gives the bytes held at each). */
      bool recorded = false;
      int rc = vxp_resolver__call(&W->resolver, index, &ev->u.call, &recorded);
      if (rc != VXP_OK) W->rc = rc;
      W->order++;
      if (recorded) trace_push(W, VXP_TRACE_CALL, W->calls++);
      break;
    }
    }
  }
  an->functions.items[index].call_count = W->calls;
  if (W->rc == VXP_OK) record_access_facts(W, index);
  if (W->rc == VXP_OK) check_instance_declared(W);
  if (W->rc == VXP_OK) finish_function(W);
}

/* Declared positions (parameters, return types, struct fields) state where a tile lives
 * without placing it: the caller owns the tile. vxc gives them the per-tile check E6009
 * only; a shape that does not fold here (a generic owner's) is checked per instance. */
static void check_declared(walker *W) {
  const vxp_model *m = W->m;
  for (size_t i = 0; i < m->declared.len && W->rc == VXP_OK; i++) {
    const vxp_declared *d = &m->declared.items[i];
    uint32_t owner_fn = d->kind == VXP_DECLARED_FIELD ? VXP_NONE : W->resolver.fn_by_name[d->owner];
    if (owner_fn != VXP_NONE && W->resolver.analysed_of[owner_fn] == VXP_NONE) continue;
    check_declared_entry(W, d);
  }
}

static void check_declared_entry(walker *W, const vxp_declared *d) {
  const vxp_model *m = W->m;
  const vxp_tensor_type *t = &m->types.items[d->type];
  uint32_t space = resolve_place(W, &t->placement);
  if (space == VXP_NONE) return;
  vxp_sb context_sb = {0}; /* whole, however long the names */
  const char *owner = name_str(W, d->owner);
  if (d->kind == VXP_DECLARED_PARAMETER)
    vxp_sb__printf(W->ctx, &context_sb, "parameter '%s' of function '%s'", name_str(W, d->member),
                   owner);
  else if (d->kind == VXP_DECLARED_RETURN)
    vxp_sb__printf(W->ctx, &context_sb, "the return value of function '%s'", owner);
  else
    vxp_sb__printf(W->ctx, &context_sb, "field '%s' of struct '%s'", name_str(W, d->member), owner);
  if (context_sb.failed) W->rc = VXP_ENOMEM;
  check_declared_sized(W, d, t, space, vxp_sb__text(&context_sb));
  vxp_sb__free(W->ctx, &context_sb);
}

/* The checks of check_declared_entry, with the position's description. */
static void check_declared_sized(walker *W, const vxp_declared *d, const vxp_tensor_type *t,
                                 uint32_t space, const char *context) {
  /* vxc asks a declared position both questions a placement gets: can the hardware hold
   * the element type, and does one tile fit. */
  check_elem(W, space, vxp_instance__elem(W->an, W->fn_index, t), context, d->start_byte,
             d->end_byte);
  if (!space_at(W, space)->has_capacity) return;
  const vxp_space *sp = space_at(W, space);
  u128 raw = 0;
  vxp_sb why = {0}; /* not reported here: an unknown size is the placement's warning */
  uint32_t cs, ce;
  size_status st = tensor_bytes(W, t, &raw, &why, &cs, &ce);
  vxp_sb__free(W->ctx, &why);
  if (st == SIZE_UNKNOWN || st == SIZE_UNRESOLVED || st == SIZE_INVALID) return;
  bool overflow = st == SIZE_TOO_BIG;
  uint64_t bytes = overflow ? UINT64_MAX : round_to_granule(sp, (uint64_t)raw, &overflow);
  if (!overflow && bytes <= sp->capacity) return;
  vxp_diagnostic *diag;
  if (overflow)
    diag = add_diag(W, VXP_SEVERITY_ERROR, "E6009", d->start_byte, d->end_byte,
                    "%s needs more than %llu bytes but memory space '%s' has capacity %llu "
                    "bytes",
                    context, (unsigned long long)UINT64_MAX, sp->name,
                    (unsigned long long)sp->capacity);
  else
    diag = add_diag(W, VXP_SEVERITY_ERROR, "E6009", d->start_byte, d->end_byte,
                    "%s needs %llu bytes but memory space '%s' has capacity %llu bytes", context,
                    (unsigned long long)bytes, sp->name, (unsigned long long)sp->capacity);
  if (diag && !vxp_diag__capacity(W->ctx, diag, sp->name, bytes, sp->capacity, false, 0))
    W->rc = VXP_ENOMEM;
}

/* ------------------------------------------------------------------ construction */

static int copy_diags(vxp_context *ctx, vxp_diag_list *to, const vxp_diag_list *from) {
  for (size_t i = 0; i < from->len; i++) {
    if (!vxp_diag__copy(ctx, to, &from->items[i])) return VXP_ENOMEM;
  }
  return VXP_OK;
}

/* The position among `sorted` (resident sets in (function, space) order) of the first set at
 * or after (function, space); `count` when there is none. */
static size_t set_position(const vxp_analysis *an, const uint32_t *sorted, size_t count,
                           uint32_t function, uint32_t space) {
  size_t lo = 0, hi = count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const vxp_resident_set *rs = &an->resident_sets.items[sorted[mid]];
    if (rs->function < function || (rs->function == function && rs->space < space))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The resident set of record `rec` (its function and space) among `sorted`, or VXP_NONE.
 * `*at` is the position the record before it found (count at first): a function's records
 * come together, mostly in one space, and the next function's follow, so that position and
 * the one after it are tried before a search. */
static uint32_t find_record_set(const vxp_analysis *an, const uint32_t *sorted, size_t count,
                                const vxp_record *rec, size_t *at) {
  size_t pos = *at;
  for (int tries = 0; tries < 2 && pos < count; tries++, pos++) {
    const vxp_resident_set *rs = &an->resident_sets.items[sorted[pos]];
    if (rs->function == rec->function && rs->space == rec->space) {
      *at = pos;
      return sorted[pos];
    }
  }
  pos = set_position(an, sorted, count, rec->function, rec->space);
  if (pos == count) return VXP_NONE;
  const vxp_resident_set *rs = &an->resident_sets.items[sorted[pos]];
  if (rs->function != rec->function || rs->space != rec->space) return VXP_NONE;
  *at = pos;
  return sorted[pos];
}

/* Links that make the structure navigable once the arrays no longer move: each record,
 * scope and resident set knows its analysis, and each resident set lists its records. */
static int link_structure(vxp_analysis *an) {
  vxp_context *ctx = an->ctx;
  for (size_t i = 0; i < an->records.len; i++)
    an->records.items[i].owner = an;
  for (size_t i = 0; i < an->scopes.len; i++)
    an->scopes.items[i].owner = an;
  size_t sets = an->resident_sets.len;
  for (size_t i = 0; i < sets; i++)
    an->resident_sets.items[i].owner = an;
  if (!sets) return VXP_OK;
  uint32_t *sorted = vxp_ctx__calloc(ctx, sets, sizeof(uint32_t));
  uint32_t *fill = vxp_ctx__calloc(ctx, sets, sizeof(uint32_t));
  if (!sorted || !fill) {
    vxp_ctx__free(ctx, sorted);
    vxp_ctx__free(ctx, fill);
    return VXP_ENOMEM;
  }
  /* Sets are made in (function, space) order already when functions are walked in turn;
   * an insertion sort is linear then, and correct otherwise. */
  for (size_t i = 0; i < sets; i++) {
    size_t k = i;
    const vxp_resident_set *x = &an->resident_sets.items[i];
    while (k > 0) {
      const vxp_resident_set *y = &an->resident_sets.items[sorted[k - 1]];
      if (y->function < x->function || (y->function == x->function && y->space <= x->space)) break;
      sorted[k] = sorted[k - 1];
      k--;
    }
    sorted[k] = (uint32_t)i;
  }
  size_t last = sets;
  for (size_t r = 0; r < an->records.len; r++) {
    const vxp_record *rec = &an->records.items[r];
    uint32_t set = find_record_set(an, sorted, sets, rec, &last);
    if (set != VXP_NONE) an->resident_sets.items[set].record_count++;
  }
  size_t total = 0;
  for (size_t i = 0; i < sets; i++) {
    an->resident_sets.items[i].record_first = (uint32_t)total;
    total += an->resident_sets.items[i].record_count;
  }
  int rc = VXP_OK;
  if (total && !array_reserve(ctx, &an->set_records, total)) rc = VXP_ENOMEM;
  last = sets;
  for (size_t r = 0; rc == VXP_OK && r < an->records.len; r++) {
    const vxp_record *rec = &an->records.items[r];
    uint32_t set = find_record_set(an, sorted, sets, rec, &last);
    if (set == VXP_NONE) continue;
    vxp_resident_set *rs = &an->resident_sets.items[set];
    an->set_records.items[rs->record_first + fill[set]++] = (uint32_t)r;
  }
  if (rc == VXP_OK) an->set_records.len = total;
  vxp_ctx__free(ctx, sorted);
  vxp_ctx__free(ctx, fill);
  return rc;
}

/* The space a comptime predicate's place stands for: a topology's `memory:` (declared or
 * built in) or the space itself; NULL when not known. */
static const char *predicate_space(const vxp_analysis *an, vxp_name name, bool topology) {
  const char *s = vxp_strtab__str(&an->prog->model.names, name);
  if (!topology) return s;
  const vxp_topology *t = vxp_machine__topology(&an->view, s);
  if (t) return t->memory;
  return vxp_machine__builtin_topology_space(s);
}

/* consteval's oracle for `Transfer<A, B>`: whether a transfer from A's space to B's
 * routes over the machine's edges (transfer.c), 1 or 0; -1 when a place names nothing
 * known (resolution reports it) or the route cannot be computed. */
static int predicate_routes(void *data, const vxp_cexpr *cx) {
  vxp_analysis *an = data;
  const char *from = predicate_space(an, cx->name, cx->op & 1);
  const char *to = predicate_space(an, (vxp_name)cx->value, cx->op & 2);
  if (!from || !to) return -1;
  if (vxp_transfer__node(&an->graph, from) == VXP_NONE ||
      vxp_transfer__node(&an->graph, to) == VXP_NONE)
    return 0; /* a space no edge touches (a topology's undeclared memory): nothing routes */
  vxp_node_path path = {0};
  uint64_t total = 0;
  bool found = false;
  int rc = vxp_transfer__route(an->ctx, &an->graph, from, to, &path, &total, &found);
  array_free(an->ctx, &path);
  return rc != VXP_OK ? -1 : found ? 1 : 0;
}

#define RESERVE_LIKE(ctx, to, from)                                                                \
  ((from)->len <= (to)->len || array_reserve((ctx), (to), (from)->len - (to)->len))

/* Reserve the tables the walks fill for as many entries as `prev`'s. */
static bool reserve_like(vxp_analysis *an, const vxp_analysis *prev) {
  vxp_context *ctx = an->ctx;
  return RESERVE_LIKE(ctx, &an->records, &prev->records) &&
         RESERVE_LIKE(ctx, &an->scopes, &prev->scopes) &&
         RESERVE_LIKE(ctx, &an->routes, &prev->routes) &&
         RESERVE_LIKE(ctx, &an->route_nodes, &prev->route_nodes) &&
         RESERVE_LIKE(ctx, &an->event_facts, &prev->event_facts) &&
         RESERVE_LIKE(ctx, &an->fact_dims, &prev->fact_dims) &&
         RESERVE_LIKE(ctx, &an->access_facts, &prev->access_facts) &&
         RESERVE_LIKE(ctx, &an->calls, &prev->calls) && RESERVE_LIKE(ctx, &an->held, &prev->held) &&
         RESERVE_LIKE(ctx, &an->fn_spaces, &prev->fn_spaces) &&
         RESERVE_LIKE(ctx, &an->resident_sets, &prev->resident_sets) &&
         RESERVE_LIKE(ctx, &an->set_records, &prev->set_records) &&
         RESERVE_LIKE(ctx, &an->walk_spans, &prev->walk_spans) &&
         RESERVE_LIKE(ctx, &an->diags, &prev->diags);
}

/* Where the tables stand before ([0]) or after ([1]) a function's walk. */
static void walk_span_mark(const vxp_analysis *an, vxp_walk_span *s, int end, bool e6014) {
  s->diags[end] = (uint32_t)an->diags.len;
  s->records[end] = (uint32_t)an->records.len;
  s->scopes[end] = (uint32_t)an->scopes.len;
  s->routes[end] = (uint32_t)an->routes.len;
  s->route_nodes[end] = (uint32_t)an->route_nodes.len;
  s->fact_dims[end] = (uint32_t)an->fact_dims.len;
  s->resident_sets[end] = (uint32_t)an->resident_sets.len;
  s->e6014[end] = e6014;
}

/* an->spawning_names, from the resolver's first function of each name. */
static int index_spawning_names(vxp_analysis *an, const vxp_resolver *R) {
  const vxp_model *m = R->m;
  size_t bytes = (m->names.strings.len + 7) / 8;
  if (bytes == 0) return VXP_OK;
  if (!array_reserve(an->ctx, &an->spawning_names, bytes)) return VXP_ENOMEM;
  memset(an->spawning_names.items, 0, bytes);
  an->spawning_names.len = bytes;
  for (size_t n = 0; n < m->names.strings.len; n++) {
    uint32_t f = R->fn_by_name[n];
    if (f == VXP_NONE) continue;
    const vxp_function *fn = &m->functions.items[f];
    for (size_t i = 0; i < fn->events.len; i++) {
      if (fn->events.items[i].kind == VXP_EV_OPEN &&
          fn->events.items[i].u.block.kind == VXP_BLOCK_SPAWN) {
        an->spawning_names.items[n / 8] |= (uint8_t)(1u << (n % 8));
        break;
      }
    }
  }
  return VXP_OK;
}

static int analyse(vxp_analysis *an, const vxp_analysis *prev) {
  vxp_context *ctx = an->ctx;
  const vxp_program *prog = an->prog;
  int rc = copy_diags(ctx, &an->diags, &prog->diags);
  if (rc == VXP_OK && an->machine) rc = copy_diags(ctx, &an->diags, &an->machine->diags);
  if (rc == VXP_OK && an->host) rc = copy_diags(ctx, &an->diags, &an->host->diags);
  if (rc != VXP_OK) return rc;

  /* The program's own declarations come first: read once when the program was built
   * (program.h), unless --machine-only sets them aside for an empty machine. */
  const vxp_machine *own = prog->model.declarations;
  if (an->machine_only || !own) {
    an->own = vxp_machine__new(ctx, prog->src->label);
    if (!an->own) return VXP_ENOMEM;
    an->own->src = prog->src;
    own = an->own;
  }
  rc = copy_diags(ctx, &an->diags, &own->diags);
  const vxp_machine *inputs[3] = {own, an->machine, an->host};
  if (rc == VXP_OK) rc = vxp_machine__merge(ctx, inputs, 3, &an->view, &an->diags);
  if (rc == VXP_OK) rc = vxp_transfer__check_edges(ctx, &an->view, &an->diags);
  if (rc == VXP_OK) rc = vxp_transfer__graph_init(ctx, &an->arena, &an->graph, &an->view);
  if (rc == VXP_OK) rc = vxp_transfer__check_reachable(ctx, &an->graph, &an->diags);
  /* The visibility checks (of the facts lowering recorded) go item by item: an earlier
   * analysis of an earlier version lends the diagnostics of the items the edit did not
   * touch. */
  /* The program's top-level nodes: a reparse recorded them (an editor's program); otherwise
   * the checks below go by the model's items and keep nothing for a later analysis, so that
   * a program analysed once (the command line) pays no memory for reuse. */
  size_t top_count = prog->items.len;
  bool per_item = top_count > 0;
  const vxp_reuse *plan = NULL; /* the reparse's, when `prev` is of the program it came from */
  if (rc == VXP_OK) {
    vxp_reuse R;
    memset(&R, 0, sizeof(R));
    bool same_inputs = prev && prev->ctx == ctx && prev->asked_machine == an->asked_machine &&
                       prev->asked_host == an->asked_host &&
                       prev->machine_only == an->machine_only && !prev->retype &&
                       !an->retype; /* retyped tiles: walk everything */
    /* The reparse compared the texts already when `prev` is of the program it came from. */
    bool planned_by_reparse = same_inputs && prog->plan && prog->plan_base == prev->prog &&
                              prog->plan_base_src == prev->prog->src->id;
    int planned = 0;
    if (planned_by_reparse) {
      plan = prog->plan;
      R = *prog->plan; /* borrowed: not freed here */
      R.taken = R.walked = 0;
      planned = 1;
    } else if (same_inputs) {
      planned = vxp_program__plan_reuse(&R, ctx, prev->prog, prog);
    }
    /* A changed signature or const lends nothing unless the splice took it over: only the
     * splice checked that what the other items read of it (the visibility index entry, the
     * signature record, the names) is unchanged. */
    if (planned > 0 && R.changed_sig && !(planned_by_reparse && prog->spliced)) {
      if (!planned_by_reparse) vxp_reuse__free(ctx, &R);
      memset(&R, 0, sizeof(R));
      plan = NULL;
      planned = 0;
      planned_by_reparse = true; /* nothing of R's to free below */
    }
    R.prev = prev;
    vxp_visibility_reuse lend = {vxp_reuse__take_visibility, &R};
    an->vis_start = an->diags.len;
    if (planned < 0)
      rc = planned;
    else
      rc = vxp_visibility__check(ctx, prog->src, &prog->model, top_count, &an->view, &an->diags,
                                 planned ? &lend : NULL, per_item ? &an->vis_ends : NULL);
    an->items_taken = R.taken;
    an->items_walked = R.walked;
    if (rc == VXP_OK)
      rc = vxp_lowerings__check(ctx, prog->src, prog->model.declarations, &an->view, &an->diags);
    vxp_visibility_reuse lend_raw = {vxp_reuse__take_raw, &R};
    an->raw_start = an->diags.len;
    if (rc == VXP_OK)
      rc = vxp_raw__check(ctx, prog->src, &prog->model, top_count, &an->view, &an->diags,
                          planned > 0 ? &lend_raw : NULL, per_item ? &an->raw_ends : NULL);
    if (!planned_by_reparse) vxp_reuse__free(ctx, &R);
  }

  walker W;
  memset(&W, 0, sizeof(W));
  W.an = an;
  W.ctx = ctx;
  W.m = &prog->model;
  W.src = prog->src;
  W.env.model = &prog->model;
  /* Overrides fold in place of const items; one the program never names changes nothing,
   * which is worth saying (a misspelt -D would otherwise pass silently). */
  for (size_t i = 0; rc == VXP_OK && i < an->defines.len; i++) {
    const vxp_define *d = &an->defines.items[i];
    vxp_const_binding b = {vxp_strtab__find(&prog->model.names, d->name, strlen(d->name)),
                           d->value};
    if (b.name == VXP_NAME_NONE) {
      if (!vxp_diag__add(ctx, &an->diags, VXP_SEVERITY_WARNING, "VXP0020", NULL, 0, 0,
                         "-D %s=%llu has no effect: the program never names '%s'", d->name,
                         (unsigned long long)d->value, d->name))
        rc = VXP_ENOMEM;
    } else if (!array_push(ctx, &an->overrides, b)) {
      rc = VXP_ENOMEM;
    }
  }
  W.env.overrides = an->overrides.items;
  W.env.override_count = an->overrides.len;
  /* Const items are folded once, here, for every function and instance to share. */
  if (rc == VXP_OK) {
    an->const_table = vxp_consteval__table_build(ctx, &an->arena, &W.env);
    if (!an->const_table) rc = VXP_ENOMEM;
    W.env.consts = an->const_table;
    W.env.reachable = predicate_routes;
    W.env.reach_data = an;
  }
  /* Every name the analysis depends on must denote something before anything is sized. */
  if (rc == VXP_OK) rc = vxp_resolve__program(an, &W.env);
  for (size_t i = 0; rc == VXP_OK && i < an->view.spaces.len; i++) {
    const vxp_space *sp = an->view.spaces.items[i];
    if (strcmp(sp->name, "CPU_DRAM") == 0) W.host_declared = true;
    if (sp->has_scope && sp->scope == VXP_SCOPE_DEVICE) W.device_declared = true;
    named_space ns = {vxp_strtab__find(&prog->model.names, sp->name, strlen(sp->name)),
                      (uint32_t)i};
    if (ns.name != VXP_NAME_NONE && !array_push(ctx, &W.spaces, ns)) rc = VXP_ENOMEM;
  }
  W.rc = rc;
  /* Functions needing no generic arguments are seeded in program order; generic ones are
   * analysed per instance, appended as calls find them and walked in turn. */
  if (W.rc == VXP_OK) W.rc = vxp_resolver__init(&W.resolver, an);
  if (W.rc == VXP_OK) W.rc = index_spawning_names(an, &W.resolver);
  /* A verdict promises that something was checked: a program with no function to start
   * from (an empty file, a machine model checked as a program, only generic functions that
   * nothing instantiates) is not admitted. */
  if (W.rc == VXP_OK && an->functions.len == 0 &&
      vxp_diag__count(&prog->diags, VXP_SEVERITY_ERROR) == 0) {
    vxp_diagnostic *d = vxp_diag__add(
        ctx, &an->diags, VXP_SEVERITY_ERROR, "VXP0040", NULL, 0, 0,
        "nothing to analyse in '%s': it defines no function that needs no generic arguments, "
        "so no placement was checked",
        prog->src->label);
    if (!d || !vxp_diag__note(ctx, d, true, NULL, 0, 0,
                              "check the program that places the tensors; a machine model "
                              "alone is passed with --machine"))
      W.rc = VXP_ENOMEM;
  }
  /* An earlier analysis of the program this one was reparsed from lends the results of the
   * functions whose inputs did not change (reuse_walk.h); each function's span in the tables
   * is kept for the next one. */
  vxp_walk_reuse lender;
  int lending = 0;
  if (W.rc == VXP_OK && plan) lending = vxp_walk_reuse__init(&lender, an, prev, plan);
  if (lending < 0) W.rc = lending;
  /* An edited program's tables end up about the size of the earlier version's: reserved at
   * once, they are not grown (and copied) again and again while the functions are added. */
  if (W.rc == VXP_OK && prev && prev->ctx == ctx && !reserve_like(an, prev)) W.rc = VXP_ENOMEM;
  bool keep_spans = per_item;
  for (size_t f = 0; W.rc == VXP_OK && f < an->functions.len; f++) {
    if (vxp_ctx__interrupted(ctx)) {
      W.rc = VXP_ECANCELLED;
      break;
    }
    vxp_walk_span span;
    walk_span_mark(an, &span, 0, W.reported_e6014);
    int taken = lending > 0
                    ? vxp_walk_reuse__take(&lender, an, &W.resolver, (uint32_t)f, &W.reported_e6014)
                    : 0;
    if (taken < 0) {
      W.rc = taken;
    } else if (taken) {
      an->functions_taken++;
    } else {
      an->functions_walked++;
      walk_function(&W, (uint32_t)f);
    }
    walk_span_mark(an, &span, 1, W.reported_e6014);
    if (W.rc == VXP_OK && keep_spans && !array_push(ctx, &an->walk_spans, span)) W.rc = VXP_ENOMEM;
  }
  if (lending > 0) vxp_walk_reuse__free(ctx, &lender);
  /* What resolution found inside arms the walk pruned in every instance is withdrawn; the
   * walks' diagnostics, after resolution's, move down with them. */
  if (W.rc == VXP_OK) {
    size_t resolved = an->resolve_count;
    vxp_resolve__withdraw_pruned(an);
    uint32_t gone = (uint32_t)(resolved - an->resolve_count);
    for (size_t f = 0; gone && f < an->walk_spans.len; f++) {
      an->walk_spans.items[f].diags[0] -= gone;
      an->walk_spans.items[f].diags[1] -= gone;
    }
  }
  /* Declared positions outside generic functions are checked with no instance's
   * arguments in scope. */
  W.fn = NULL;
  W.fn_index = VXP_NONE;
  W.env.bindings = NULL;
  W.env.binding_count = 0;
  if (W.rc == VXP_OK) check_declared(&W);
  if (W.rc == VXP_OK) W.rc = vxp_callgraph__fold(an);
  /* Functions by name, the last of a name first (the index keeps the first it is given),
   * so that finding one is not a scan of all (a roofline per function was quadratic). */
  if (W.rc == VXP_OK && !vxp_name_index__reserve(ctx, &an->function_index, an->functions.len))
    W.rc = VXP_ENOMEM;
  for (size_t i = an->functions.len; W.rc == VXP_OK && i-- > 0;) {
    if (!vxp_name_index__add(ctx, &an->function_index, an->functions.items[i].name, i))
      W.rc = VXP_ENOMEM;
  }
  rc = W.rc;
  if (rc == VXP_OK) rc = link_structure(an);
  vxp_resolver__free(&W.resolver);
  array_free(ctx, &W.bindings);
  array_free(ctx, &W.spaces);
  array_free(ctx, &W.trace);
  array_free(ctx, &W.tiles);
  array_free(ctx, &W.blocks);
  array_free(ctx, &W.path);
  array_free(ctx, &W.hop_path);
  array_free(ctx, &W.dims);
  an->error_count = vxp_diag__count(&an->diags, VXP_SEVERITY_ERROR);
  an->warning_count = vxp_diag__count(&an->diags, VXP_SEVERITY_WARNING);
  return rc;
}

int vxp_analyze_options_init(vxp_analyze_options *opts, unsigned int version) {
  if (!opts) return VXP_EINVAL;
  if (version < 1 || version > VXP_ANALYZE_OPTIONS_VERSION) return VXP_EVERSION;
  /* Only the fields of that version: an older caller's struct is shorter. */
  memset(opts, 0,
         version == 1   ? offsetof(vxp_analyze_options, machine_only)
         : version == 2 ? offsetof(vxp_analyze_options, retypes)
                        : sizeof(*opts));
  opts->version = version;
  return VXP_OK;
}

/* Copy the caller's overrides; a name given twice keeps its first position and its last
 * value. */
static int copy_defines(vxp_analysis *an, const vxp_const_override *ov, size_t count) {
  for (size_t i = 0; i < count; i++) {
    vxp_define *prior = NULL;
    for (size_t k = 0; k < an->defines.len; k++) {
      if (strcmp(an->defines.items[k].name, ov[i].name) == 0) prior = &an->defines.items[k];
    }
    if (prior) {
      prior->value = ov[i].value;
      continue;
    }
    vxp_define d = {vxp_arena__strdup(an->ctx, &an->arena, ov[i].name), ov[i].value};
    if (!d.name || !array_push(an->ctx, &an->defines, d)) return VXP_ENOMEM; /* name: the arena's */
  }
  return VXP_OK;
}

/* A program that declares no machine and is given none is analysed as `vxpeak check`
 * analyses it, on the default device and host (vxp_default_machine), rather than against
 * spaces without capacities, where every host read of device memory is an E6003. */
static int lend_defaults(vxp_analysis *an) {
  if (an->machine || vxp_program_declares_machine(an->prog)) return VXP_OK;
  int rc = vxp_machine_builtin(&an->default_machine, an->ctx, vxp_default_machine());
  if (rc == VXP_OK && !an->host)
    rc = vxp_machine_builtin(&an->default_host, an->ctx, vxp_default_host());
  an->machine = an->default_machine;
  if (an->default_host) an->host = an->default_host;
  return rc;
}

/* An empty analysis of `prog` with the options (checked by the caller). */
static int new_analysis(vxp_analysis **out, vxp_context *ctx, const vxp_program *prog,
                        const vxp_analyze_options *opts, bool machine_only) {
  /* Its first block: about what its program holds (the examples' analyses: one to two times). */
  vxp_analysis *an =
      VXP_ARENA_HANDLE_SIZED(ctx, vxp_analysis, arena, vxp_arena__held(&prog->arena));
  *out = an;
  if (!an) return VXP_ENOMEM;
  an->tag = VXP_TAG_ANALYSIS;
  an->ctx = ctx;
  an->prog = prog;
  an->machine = an->asked_machine = opts ? opts->machine : NULL;
  an->host = an->asked_host = opts ? opts->host : NULL;
  an->machine_only = machine_only;
  int rc = lend_defaults(an);
  if (rc != VXP_OK) return rc;
  if (opts && opts->version >= 3 && opts->retype_count) {
    an->retype =
        vxp_retype__table(ctx, &an->arena, &prog->model, opts->retypes, opts->retype_count);
    if (!an->retype) return VXP_ENOMEM;
  }
  return opts ? copy_defines(an, opts->overrides, opts->override_count) : VXP_OK;
}

int vxp_analyze(vxp_analysis **out, vxp_context *ctx, const vxp_program *prog,
                const vxp_analyze_options *opts) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, prog, VXP_TAG_PROGRAM);

  return vxp_analyze_incremental(out, ctx, prog, NULL, opts);
}

#if defined(VXP_ASSERTIONS)
/* analysis_data.h's invariants, as checks (VXP__CHECK: the assertion builds only). */
static void check_analysis(const vxp_analysis *an) {
  vxp_diag__check_list(&an->diags);
  /* Records are grouped by function in analysis order, each function's in program order. */
  for (size_t i = 0; i < an->records.len; i++) {
    const vxp_record *r = &an->records.items[i];
    VXP__ASSERT(r->function < an->functions.len && r->space < an->view.spaces.len);
    if (i == 0) continue;
    const vxp_record *p = &an->records.items[i - 1];
    VXP__ASSERT(p->function <= r->function);
    if (p->function == r->function) VXP__ASSERT(p->order < r->order);
  }
  /* Resident sets are by function, then by space name. */
  for (size_t i = 1; i < an->resident_sets.len; i++) {
    const vxp_resident_set *p = &an->resident_sets.items[i - 1], *r = &an->resident_sets.items[i];
    VXP__ASSERT(p->function <= r->function);
    if (p->function == r->function) VXP__ASSERT(strcmp(p->space_name, r->space_name) < 0);
  }
  for (size_t i = 0; i < an->resident_sets.len; i++) {
    const vxp_resident_set *rs = &an->resident_sets.items[i];
    VXP__ASSERT(rs->peak_record < an->records.len);
    VXP__ASSERT(an->records.items[rs->peak_record].function == rs->function);
  }
  /* The fold's table is functions x spaces; the held bytes calls x spaces. */
  VXP__ASSERT(an->fn_spaces.len == an->functions.len * an->view.spaces.len);
  VXP__ASSERT(an->held.len == an->calls.len * an->view.spaces.len);
  for (size_t i = 1; i < an->calls.len; i++)
    VXP__ASSERT(an->calls.items[i - 1].caller <= an->calls.items[i].caller);
  /* A route runs from the hop's source to its destination, and its tile is there. */
  for (size_t i = 0; i < an->routes.len; i++) {
    const vxp_route *r = &an->routes.items[i];
    VXP__ASSERT(r->path_len >= 2 && (size_t)r->path_first + r->path_len <= an->route_nodes.len);
    VXP__ASSERT(an->route_nodes.items[r->path_first] == r->from_node);
    VXP__ASSERT(an->route_nodes.items[r->path_first + r->path_len - 1] == r->to_node);
    if (r->record == VXP_NONE) continue;
    VXP__ASSERT(r->record < an->records.len);
    VXP__ASSERT(an->records.items[r->record].function == r->function);
    VXP__ASSERT(
        strcmp(an->records.items[r->record].space_name, an->graph.nodes.items[r->to_node]) == 0);
  }
}
#endif

int vxp_analyze_incremental(vxp_analysis **out, vxp_context *ctx, const vxp_program *prog,
                            const vxp_analysis *previous, const vxp_analyze_options *opts) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, prog, VXP_TAG_PROGRAM);
  VXP__TAG_RC(ctx, previous, VXP_TAG_ANALYSIS);
  if (opts) VXP__TAG_RC(ctx, opts->machine, VXP_TAG_MACHINE);
  if (opts) VXP__TAG_RC(ctx, opts->host, VXP_TAG_MACHINE);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (!out || !ctx || !prog)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_analyze") : VXP_EINVAL;
  if (opts && (opts->version < 1 || opts->version > VXP_ANALYZE_OPTIONS_VERSION))
    return vxp_ctx__error(ctx, VXP_EVERSION, "vxp_analyze_options version %u is not supported",
                          opts->version);
  /* Version 1 ends before machine_only: an older caller's struct is not read past it. */
  bool machine_only = opts && opts->version >= 2 && opts->machine_only;
  if (machine_only && !opts->machine)
    return vxp_ctx__error(ctx, VXP_EINVAL, "vxp_analyze_options: machine_only without a machine");
  if (opts && opts->override_count) {
    if (!opts->overrides)
      return vxp_ctx__error(ctx, VXP_EINVAL,
                            "vxp_analyze_options: override_count %zu with no "
                            "overrides",
                            opts->override_count);
    for (size_t i = 0; i < opts->override_count; i++) {
      if (!opts->overrides[i].name || !opts->overrides[i].name[0])
        return vxp_ctx__error(ctx, VXP_EINVAL, "vxp_analyze_options: override %zu has no name", i);
    }
  }
  if (opts && opts->version >= 3 && opts->retype_count) {
    if (!opts->retypes)
      return vxp_ctx__error(ctx, VXP_EINVAL,
                            "vxp_analyze_options: retype_count %zu with no retypes",
                            opts->retype_count);
    int rc = vxp_retype__check(ctx, &prog->model, opts->retypes, opts->retype_count);
    if (rc != VXP_OK) return rc;
  }
  vxp_analysis *an = NULL;
  int rc = new_analysis(&an, ctx, prog, opts, machine_only);
  if (rc == VXP_OK) rc = analyse(an, previous);
  if (rc == VXP__REDO) {
    /* Taking a function over failed half way (reuse_walk.h): from scratch, then. */
    vxp_analysis_free(an);
    an = NULL;
    rc = new_analysis(&an, ctx, prog, opts, machine_only);
    if (rc == VXP_OK) rc = analyse(an, NULL);
  }
  if (rc == VXP_OK) rc = vxp_analysis__seal(an);
  if (rc != VXP_OK) {
    vxp_analysis_free(an);
    if (rc == VXP_ECANCELLED) return vxp_ctx__cancelled(ctx);
    return rc == VXP_ENOMEM ? vxp_ctx__nomem(ctx) : vxp_ctx__error(ctx, rc, "analysis failed");
  }
  VXP__CHECK(check_analysis(an));
  *out = an;
  return VXP_OK;
}
