/* SPDX-License-Identifier: Apache-2.0 */
/* roofline.c - how fast one call of a function can run when memory bandwidth is the
 * bound (vxp_roofline_new).
 *
 * The traffic: the element accesses lowering records inside `spawn` regions (model.h,
 * vxp_access), each reading or writing the bytes of one element (or of the slice that
 * fewer indices than the rank name) in the space its tensor lives in, times the trip
 * counts of the `for` loops around it. Every access goes to its space: nothing is assumed
 * to be cached, so a program that reads each element once (as the Llama decode step
 * does) is counted exactly. Alternatives (`if`/`else`, `match` arms) count their largest
 * arm per space, which makes the figure an upper bound when the arms differ; a `loop`,
 * a `while`, a bound that does not fold, a call inside a region or a region in a callee
 * make it unknown, with the reason.
 *
 * The time: each space's bytes at its declared bandwidth (a per-cycle rate converted with
 * its clock, a per-SM rate times its replicas); the spaces work at once, so the slowest
 * sets the step time (a hierarchical roofline), and its inverse is the ceiling in steps
 * per second. Beside it: what streaming the tiles read in the regions that were
 * transferred from host memory would cost per step instead of keeping them resident,
 * priced by the routes the analysis found for their transfers. */
#include <stdarg.h>
#include <stdio.h>

#include "analysis.h"
#include "context.h"
#include "program.h"
#include "source.h"

typedef unsigned __int128 u128;

/* A buffer (a tensor read or written in a region) or a space: one slot of a traffic vector. */
typedef struct slot {
  bool is_space;
  const char *name;          /* buffer: the tensor's name; space: the space's name */
  uint32_t space;            /* buffers: the slot of their space */
} slot;

typedef struct vxp_roofline_space {
  const char *name;
  uint64_t read_bytes, written_bytes;
  bool has_bandwidth;
  uint64_t bandwidth;        /* bytes per second, device-wide */
  bool has_time;
  uint64_t time_ps;
} rf_space;

typedef struct rf_buffer {
  const char *name, *space;
  uint64_t read_bytes, written_bytes;
} rf_buffer;

struct vxp_roofline {
  vxp_context *ctx;
  const char *function;
  size_t regions;
  const char *traffic;       /* "exact", "upper_bound" or "unknown" */
  char reason[512];
  Array(rf_space) spaces;
  Array(rf_buffer) buffers;
  bool has_time;
  uint64_t time_ps;
  const char *bound;
  Array(const vxp_record *) streamed;
  Array(uint64_t) streamed_cost;
  uint64_t stream_bytes;
  bool has_stream_time;
  uint64_t stream_time_ps;
};

/* ------------------------------------------------------------------ the walk */

typedef struct rf_walk {
  vxp_roofline *rf;
  const vxp_analysis *an;
  const vxp_model *m;
  const vxp_function *fn;
  uint32_t fn_index;             /* the analysed function: its facts are read, never refolded */
  Array(slot) slots;
  Array(uint32_t) access_slot;   /* per access: its buffer slot */
  size_t cursor;                 /* next access to count */
  unsigned spawn_depth;
  bool unknown, inexact;
  int rc;
} rf_walk;

static void unknown(rf_walk *w, uint32_t start_byte, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void unknown(rf_walk *w, uint32_t start_byte, const char *fmt, ...) {
  if (w->unknown) return;
  w->unknown = true;
  vxp_point at = vxp_source__point(w->an->prog->src, start_byte);
  int n = snprintf(w->rf->reason, sizeof(w->rf->reason), "line %u: ", at.line + 1);
  va_list ap;
  va_start(ap, fmt);
  if (n > 0 && (size_t)n < sizeof(w->rf->reason))
    vsnprintf(w->rf->reason + n, sizeof(w->rf->reason) - (size_t)n, fmt, ap);
  va_end(ap);
}

static const char *name_of(const rf_walk *w, vxp_name n) { return vxp_strtab__str(&w->m->names, n); }

/* Where a value lives, as analysis.c resolves a place: a space, a topology's `memory:`,
 * a built-in topology's space, and host memory for an unplaced value. */
static const char *space_of(const rf_walk *w, const vxp_place *p) {
  if (p->kind == VXP_PLACE_MEMORY) return name_of(w, p->name);
  if (p->kind == VXP_PLACE_TOPOLOGY) {
    const char *topo = name_of(w, p->name);
    const vxp_topology *t = vxp_machine__topology(&w->an->view, topo);
    if (t && t->memory) return t->memory;
    const char *builtin = vxp_machine__builtin_topology_space(topo);
    return builtin ? builtin : topo;
  }
  return "CPU_DRAM";
}

static uint32_t slot_of(rf_walk *w, bool is_space, const char *name, uint32_t space) {
  for (size_t i = 0; i < w->slots.len; i++) {
    const slot *s = &w->slots.items[i];
    if (s->is_space == is_space && strcmp(s->name, name) == 0 && (is_space || s->space == space))
      return (uint32_t)i;
  }
  slot s = {is_space, name, space};
  if (!array_push(w->rf->ctx, &w->slots, s)) {
    w->rc = VXP_ENOMEM;
    return 0;
  }
  return (uint32_t)(w->slots.len - 1);
}

/* Bytes one execution of access number `k` moves, as the analysis sized it, or false
 * (and the walk unknown). */
static bool access_bytes(rf_walk *w, size_t k, const vxp_access *a, u128 *bytes) {
  const char *name = a->tensor ? name_of(w, a->tensor) : "an expression";
  const vxp_access_fact *f = vxp_analysis__access_fact(w->an, w->fn_index, k);
  switch (f ? f->why : VXP_ACCESS_NO_TYPE) {
  case VXP_ACCESS_SIZED:
    *bytes = f->bytes;
    return true;
  case VXP_ACCESS_NO_TYPE:
    unknown(w, a->start_byte, "the type of %s is not known, so its elements have no size", name);
    return false;
  case VXP_ACCESS_NO_ELEMENT:
    unknown(w, a->start_byte, "'%s' has no concrete element type and shape", name);
    return false;
  case VXP_ACCESS_DIM_DYNAMIC:
    unknown(w, a->start_byte, "dimension %u of '%s' is not a compile-time constant", f->dim, name);
    return false;
  default:
    unknown(w, a->start_byte, "the slice of '%s' is larger than vxpeak counts", name);
    return false;
  }
}

/* A traffic vector: read and written bytes per slot, 2 entries per slot. */
static u128 *vec_new(rf_walk *w) {
  u128 *v = vxp_ctx__calloc(w->rf->ctx, w->slots.len * 2 + 1, sizeof(u128));
  if (!v) w->rc = VXP_ENOMEM;
  return v;
}

static bool vec_zero(const rf_walk *w, const u128 *v) {
  for (size_t i = 0; i < w->slots.len * 2; i++)
    if (v[i]) return false;
  return true;
}

static bool vec_equal(const rf_walk *w, const u128 *a, const u128 *b) {
  return memcmp(a, b, w->slots.len * 2 * sizeof(u128)) == 0;
}

/* out += v x times, saturating far above anything 64 bits can report. */
static void vec_add(rf_walk *w, u128 *out, const u128 *v, u128 times) {
  const u128 cap = (u128)1 << 100;
  for (size_t i = 0; i < w->slots.len * 2; i++) {
    u128 add = v[i] && times > cap / v[i] ? cap : v[i] * times;
    out[i] = out[i] + add > cap ? cap : out[i] + add;
  }
}

static void vec_max(rf_walk *w, u128 *out, const u128 *v) {
  for (size_t i = 0; i < w->slots.len * 2; i++)
    if (v[i] > out[i]) out[i] = v[i];
}

static size_t close_of(const vxp_function *fn, size_t open) {
  size_t depth = 0;
  for (size_t i = open; i < fn->events.len; i++) {
    if (fn->events.items[i].kind == VXP_EV_OPEN) depth++;
    else if (fn->events.items[i].kind == VXP_EV_CLOSE && --depth == 0) return i;
  }
  return fn->events.len;
}

static const vxp_function *callee(const rf_walk *w, const vxp_call_event *call) {
  for (size_t i = 0; i < w->m->functions.len; i++)
    if (call->callee != VXP_NAME_NONE && w->m->functions.items[i].name == call->callee)
      return &w->m->functions.items[i];
  return NULL;
}

static bool has_region(const vxp_function *fn) {
  for (size_t i = 0; i < fn->events.len; i++)
    if (fn->events.items[i].kind == VXP_EV_OPEN &&
        fn->events.items[i].u.block.kind == VXP_BLOCK_SPAWN)
      return true;
  return false;
}

static void walk(rf_walk *w, size_t from, size_t to, u128 *out);

/* Pass over the block opened at `open` without counting it (an `if comptime` arm the
 * analysis pruned): its accesses are not run. Returns its CLOSE. */
static size_t skip(rf_walk *w, size_t open) {
  size_t close = close_of(w->fn, open);
  while (w->cursor < w->fn->accesses.len && w->fn->accesses.items[w->cursor].event <= close)
    w->cursor++;
  return close;
}

static vxp_arm arm_of(const rf_walk *w, size_t event) {
  const vxp_event_fact *f = vxp_analysis__event_fact(w->an, w->fn_index, event);
  return f ? (vxp_arm)f->arm : VXP_ARM_RUNTIME;
}

/* The body of the block opened at `open` (its events up to its CLOSE) into a new vector. */
static u128 *body(rf_walk *w, size_t open, size_t *close) {
  *close = close_of(w->fn, open);
  u128 *v = vec_new(w);
  if (v) walk(w, open + 1, *close, v);
  return v;
}

/* Count the accesses that happen just before events[k]. */
static void count_accesses(rf_walk *w, size_t k, u128 *out) {
  const vxp_function *fn = w->fn;
  while (w->cursor < fn->accesses.len && fn->accesses.items[w->cursor].event == k) {
    const vxp_access *a = &fn->accesses.items[w->cursor];
    uint32_t bs = w->access_slot.items[w->cursor];
    size_t index = w->cursor++;
    u128 bytes;
    if (w->unknown || !access_bytes(w, index, a, &bytes)) continue;
    uint32_t ss = w->slots.items[bs].space;
    size_t col = a->kind == VXP_ACCESS_WRITE ? 1 : 0;
    out[bs * 2 + col] += bytes;
    out[ss * 2 + col] += bytes;
  }
}

static void walk(rf_walk *w, size_t from, size_t to, u128 *out) {
  const vxp_function *fn = w->fn;
  for (size_t k = from; k <= to && w->rc == VXP_OK; k++) {
    count_accesses(w, k, out);
    if (k == to || k >= fn->events.len) break;
    const vxp_event *ev = &fn->events.items[k];
    if (ev->kind == VXP_EV_CALL) {
      const vxp_function *f = callee(w, &ev->u.call);
      const char *name = ev->u.call.callee ? name_of(w, ev->u.call.callee)
                                            : ev->u.call.method ? name_of(w, ev->u.call.method) : "?";
      if (w->spawn_depth > 0)
        unknown(w, ev->u.call.start_byte, "a call inside a spawn region ('%s'); vxpeak does not "
                "count the accesses of a callee", name);
      else if (f && has_region(f))
        unknown(w, ev->u.call.start_byte, "a call to '%s', which has spawn regions of its own; "
                "vxpeak counts the regions of one function", name);
      continue;
    }
    if (ev->kind != VXP_EV_OPEN) continue;
    const vxp_block_event *b = &ev->u.block;
    size_t close;
    if (b->kind == VXP_BLOCK_SPAWN) {
      w->rf->regions++;
      w->spawn_depth++;
      close = close_of(fn, k);
      walk(w, k + 1, close, out);
      w->spawn_depth--;
      k = close;
      continue;
    }
    if (b->kind == VXP_BLOCK_FOR || b->kind == VXP_BLOCK_LOOP) {
      u128 *v = body(w, k, &close);
      if (!v) return;
      if (b->kind == VXP_BLOCK_LOOP) {
        if (!vec_zero(w, v))
          unknown(w, b->start_byte, "a `loop` or `while` around device work runs an unknown "
                  "number of times");
      } else {
        /* The trip count the analysis decided (signed bounds, as it folds them). */
        const vxp_event_fact *f = vxp_analysis__event_fact(w->an, w->fn_index, k);
        if (!f || !f->trips_known) {
          if (!vec_zero(w, v))
            unknown(w, b->start_byte, "the trip count of a `for` around device work does not "
                    "fold to a constant");
        } else {
          vec_add(w, out, v, f->trips);
        }
      }
      vxp_ctx__free(w->rf->ctx, v);
      k = close;
      continue;
    }
    if (b->kind == VXP_BLOCK_IF) {
      /* An `if comptime` the analysis decided runs one arm: the other is not walked. */
      vxp_arm arm = arm_of(w, k);
      bool has_else = false;
      size_t then_close = close_of(fn, k);
      if (then_close + 1 < fn->events.len && fn->events.items[then_close + 1].kind == VXP_EV_OPEN &&
          fn->events.items[then_close + 1].u.block.kind == VXP_BLOCK_ELSE)
        has_else = true;
      if (arm != VXP_ARM_RUNTIME) {
        if (arm == VXP_ARM_TAKEN) {
          walk(w, k + 1, then_close, out);
          k = then_close;
        } else {
          k = skip(w, k);
        }
        if (has_else) {
          if (arm_of(w, k + 1) == VXP_ARM_TAKEN) {
            close = close_of(fn, k + 1);
            walk(w, k + 2, close, out);
            k = close;
          } else {
            k = skip(w, k + 1);
          }
        }
        continue;
      }
      u128 *then_v = body(w, k, &close);
      if (!then_v) return;
      k = close;
      u128 *else_v = NULL;
      if (has_else) {
        else_v = body(w, k + 1, &close);
        if (!else_v) {
          vxp_ctx__free(w->rf->ctx, then_v);
          return;
        }
        k = close;
      }
      {
        u128 *taken = vec_new(w);
        if (taken) {
          vec_max(w, taken, then_v);
          if (else_v) vec_max(w, taken, else_v);
          if (!(else_v ? vec_equal(w, then_v, else_v) : vec_zero(w, then_v))) w->inexact = true;
          vec_add(w, out, taken, 1);
          vxp_ctx__free(w->rf->ctx, taken);
        }
      }
      vxp_ctx__free(w->rf->ctx, then_v);
      vxp_ctx__free(w->rf->ctx, else_v);
      continue;
    }
    if (b->kind == VXP_BLOCK_MATCH_ARM) {
      /* The arms of one match are alternatives: the largest counts. */
      u128 *taken = vec_new(w), *first = NULL;
      if (!taken) return;
      bool differ = false;
      for (;;) {
        u128 *arm = body(w, k, &close);
        if (!arm) break;
        if (!first) {
          first = vec_new(w);
          if (first) memcpy(first, arm, w->slots.len * 2 * sizeof(u128));
        } else if (!vec_equal(w, first, arm)) {
          differ = true;
        }
        vec_max(w, taken, arm);
        vxp_ctx__free(w->rf->ctx, arm);
        k = close;
        /* The next arm of the same match (lowering marks them), not the next match. */
        if (k + 1 < fn->events.len && fn->events.items[k + 1].kind == VXP_EV_OPEN &&
            fn->events.items[k + 1].u.block.kind == VXP_BLOCK_MATCH_ARM &&
            fn->events.items[k + 1].u.block.continues_match) {
          count_accesses(w, k + 1, out);
          k++;
          continue;
        }
        break;
      }
      if (differ) w->inexact = true;
      vec_add(w, out, taken, 1);
      vxp_ctx__free(w->rf->ctx, taken);
      vxp_ctx__free(w->rf->ctx, first);
      continue;
    }
    /* ELSE without its IF cannot happen; unsafe and comptime blocks are transparent. */
    close = close_of(fn, k);
    walk(w, k + 1, close, out);
    k = close;
  }
}

/* ------------------------------------------------------------------ results */

/* A space's bandwidth in bytes per second across the device, when it declares one. */
static bool device_bandwidth(const vxp_space *sp, uint64_t *out) {
  if (!sp || !sp->has_bandwidth) return false;
  uint64_t bw = sp->bandwidth;
  if (sp->bandwidth_per_cycle) {
    if (!sp->has_clock || !vxp_mul_u64(bw, sp->clock_hz, &bw)) return false;
  }
  if (sp->has_scope && sp->scope != VXP_SCOPE_DEVICE && sp->has_replicas &&
      !vxp_mul_u64(bw, sp->replicas, &bw))
    return false;
  *out = bw;
  return bw > 0;
}

static uint64_t sat64(u128 v) { return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v; }

static int collect(rf_walk *w, const u128 *total) {
  vxp_roofline *rf = w->rf;
  for (size_t i = 0; i < w->slots.len; i++) {
    const slot *s = &w->slots.items[i];
    if (total[i * 2] > UINT64_MAX || total[i * 2 + 1] > UINT64_MAX) {
      if (!w->unknown) {
        w->unknown = true;
        snprintf(rf->reason, sizeof(rf->reason), "'%s' moves more than 2^64 bytes", s->name);
      }
    }
    if (s->is_space) {
      rf_space sp;
      memset(&sp, 0, sizeof(sp));
      sp.name = s->name;
      sp.read_bytes = sat64(total[i * 2]);
      sp.written_bytes = sat64(total[i * 2 + 1]);
      sp.has_bandwidth = device_bandwidth(vxp_machine__space(&w->an->view, s->name), &sp.bandwidth);
      uint64_t bytes;
      sp.has_time = sp.has_bandwidth && vxp_add_u64(sp.read_bytes, sp.written_bytes, &bytes) &&
                    vxp_transfer__hop_cost(bytes, sp.bandwidth, false, &sp.time_ps);
      if (!array_push(rf->ctx, &rf->spaces, sp)) return VXP_ENOMEM;
    } else {
      rf_buffer b = {s->name, w->slots.items[s->space].name, sat64(total[i * 2]),
                     sat64(total[i * 2 + 1])};
      if (!array_push(rf->ctx, &rf->buffers, b)) return VXP_ENOMEM;
    }
  }
  rf->traffic = w->unknown ? "unknown" : w->inexact ? "upper_bound" : "exact";
  if (w->unknown) return VXP_OK;
  /* The slowest space with traffic sets the time; one without a bandwidth leaves it open. */
  rf->has_time = rf->spaces.len > 0;
  for (size_t i = 0; i < rf->spaces.len; i++) {
    const rf_space *sp = &rf->spaces.items[i];
    if (sp->read_bytes == 0 && sp->written_bytes == 0) continue;
    if (!sp->has_time) {
      rf->has_time = false;
      rf->bound = NULL;
      snprintf(rf->reason, sizeof(rf->reason), "'%s' declares no bandwidth, so its traffic has no "
               "time", sp->name);
      break;
    }
    if (!rf->bound || sp->time_ps > rf->time_ps) {
      rf->time_ps = sp->time_ps;
      rf->bound = sp->name;
    }
  }
  if (rf->has_time && !rf->bound) rf->has_time = false; /* no traffic at all */
  return VXP_OK;
}

/* The tiles read in the regions that were transferred from host memory, and what moving
 * them over their routes costs (each once per step). */
static int streaming(rf_walk *w, uint32_t fn_index) {
  vxp_roofline *rf = w->rf;
  const vxp_analysis *an = w->an;
  rf->has_stream_time = true;
  for (size_t i = 0; i < an->records.len; i++) {
    const vxp_record *r = &an->records.items[i];
    if (r->function != fn_index || r->binding == VXP_NAME_NONE) continue;
    bool read = false;
    for (size_t k = 0; k < w->fn->accesses.len && !read; k++)
      read = w->fn->accesses.items[k].kind == VXP_ACCESS_READ &&
             w->fn->accesses.items[k].tensor == r->binding;
    if (!read) continue;
    bool from_host = false, priced = true;
    uint64_t cost = 0, bytes = 0;
    for (size_t k = 0; k < an->routes.len; k++) {
      const vxp_route *route = &an->routes.items[k];
      if (route->function != fn_index || route->start_byte != r->start_byte) continue;
      if (route->hop == 0) {
        from_host = strcmp(vxp_route_path_space(route, 0), "CPU_DRAM") == 0;
        bytes = route->bytes;
      }
      if (route->cost.source == VXP_COST_SOURCE_NONE || route->cost.per_cycle ||
          !vxp_add_u64(cost, route->cost.value, &cost))
        priced = false;
    }
    if (!from_host) continue;
    if (!array_push(rf->ctx, &rf->streamed, r)) return VXP_ENOMEM;
    if (!array_push(rf->ctx, &rf->streamed_cost, priced ? cost : UINT64_MAX)) return VXP_ENOMEM;
    if (!vxp_add_u64(rf->stream_bytes, bytes, &rf->stream_bytes)) rf->stream_bytes = UINT64_MAX;
    if (!priced || !vxp_add_u64(rf->stream_time_ps, cost, &rf->stream_time_ps))
      rf->has_stream_time = false;
  }
  if (rf->streamed.len == 0) rf->has_stream_time = false;
  return VXP_OK;
}

int vxp_roofline_new(vxp_roofline **out, const vxp_analysis *an, const char *function) {
  vxp_ctx__begin(an ? an->ctx : NULL); /* each call reports its own outcome */
  if (!out || !an || !function)
    return an ? vxp_ctx__error(an->ctx, VXP_EINVAL, "invalid argument to vxp_roofline_new")
              : VXP_EINVAL;
  vxp_context *ctx = an->ctx;
  uint32_t fn_index = VXP_NONE;
  for (size_t i = 0; i < an->functions.len; i++)
    if (strcmp(an->functions.items[i].name, function) == 0) fn_index = (uint32_t)i;
  if (fn_index == VXP_NONE)
    return vxp_ctx__error(ctx, VXP_ENOTFOUND, "no analysed function '%s'", function);
  vxp_roofline *rf = vxp_ctx__calloc(ctx, 1, sizeof(*rf));
  if (!rf) return vxp_ctx__nomem(ctx);
  rf->ctx = ctx;
  rf->function = an->functions.items[fn_index].name;
  rf_walk w;
  memset(&w, 0, sizeof(w));
  w.rf = rf;
  w.an = an;
  w.m = &an->prog->model;
  w.fn = &w.m->functions.items[an->functions.items[fn_index].model_fn];
  w.fn_index = fn_index;
  /* Slots first (spaces, then buffers), so that every vector has its final size. */
  for (size_t i = 0; i < w.fn->accesses.len && w.rc == VXP_OK; i++) {
    const vxp_access *a = &w.fn->accesses.items[i];
    const char *space = a->loc.known ? space_of(&w, &a->loc.place) : "(unknown)";
    uint32_t ss = slot_of(&w, true, space, 0);
    uint32_t bs = slot_of(&w, false, a->tensor ? name_of(&w, a->tensor) : "(expression)", ss);
    if (w.rc == VXP_OK && !array_push(ctx, &w.access_slot, bs)) w.rc = VXP_ENOMEM;
  }
  for (size_t i = 0; i < w.fn->accesses.len && !w.unknown; i++) {
    const vxp_access *a = &w.fn->accesses.items[i];
    if (!a->loc.known)
      unknown(&w, a->start_byte, "where '%s' lives is not known",
              a->tensor ? name_of(&w, a->tensor) : "the indexed value");
  }
  u128 *total = w.rc == VXP_OK ? vec_new(&w) : NULL;
  if (total) walk(&w, 0, w.fn->events.len, total);
  int rc = w.rc;
  if (rc == VXP_OK) rc = collect(&w, total);
  if (rc == VXP_OK) rc = streaming(&w, fn_index);
  vxp_ctx__free(ctx, total);
  array_free(ctx, &w.slots);
  array_free(ctx, &w.access_slot);
  if (rc != VXP_OK) {
    vxp_roofline_free(rf);
    return vxp_ctx__nomem(ctx);
  }
  *out = rf;
  return VXP_OK;
}

void vxp_roofline_free(vxp_roofline *rf) {
  if (!rf) return;
  array_free(rf->ctx, &rf->spaces);
  array_free(rf->ctx, &rf->buffers);
  array_free(rf->ctx, &rf->streamed);
  array_free(rf->ctx, &rf->streamed_cost);
  vxp_ctx__free(rf->ctx, rf);
}

/* ------------------------------------------------------------------ accessors */

const char *vxp_roofline_function(const vxp_roofline *rf) { return rf ? rf->function : NULL; }
size_t vxp_roofline_region_count(const vxp_roofline *rf) { return rf ? rf->regions : 0; }
const char *vxp_roofline_traffic(const vxp_roofline *rf) { return rf ? rf->traffic : NULL; }

const char *vxp_roofline_reason(const vxp_roofline *rf) {
  return (rf && rf->reason[0]) ? rf->reason : NULL;
}

size_t vxp_roofline_space_count(const vxp_roofline *rf) { return rf ? rf->spaces.len : 0; }

static const rf_space *space_at(const vxp_roofline *rf, size_t i) {
  return (rf && i < rf->spaces.len) ? &rf->spaces.items[i] : NULL;
}

const char *vxp_roofline_space_name(const vxp_roofline *rf, size_t i) {
  const rf_space *s = space_at(rf, i);
  return s ? s->name : NULL;
}

uint64_t vxp_roofline_space_read_bytes(const vxp_roofline *rf, size_t i) {
  const rf_space *s = space_at(rf, i);
  return s ? s->read_bytes : 0;
}

uint64_t vxp_roofline_space_written_bytes(const vxp_roofline *rf, size_t i) {
  const rf_space *s = space_at(rf, i);
  return s ? s->written_bytes : 0;
}

int vxp_roofline_space_bandwidth(const vxp_roofline *rf, size_t i, uint64_t *out) {
  const rf_space *s = space_at(rf, i);
  if (!s || !s->has_bandwidth) return 0;
  if (out) *out = s->bandwidth;
  return 1;
}

int vxp_roofline_space_time_ps(const vxp_roofline *rf, size_t i, uint64_t *out) {
  const rf_space *s = space_at(rf, i);
  if (!s || !s->has_time || strcmp(rf->traffic, "unknown") == 0) return 0;
  if (out) *out = s->time_ps;
  return 1;
}

int vxp_roofline_time_ps(const vxp_roofline *rf, uint64_t *out) {
  if (!rf || !rf->has_time) return 0;
  if (out) *out = rf->time_ps;
  return 1;
}

const char *vxp_roofline_bound_space(const vxp_roofline *rf) {
  return (rf && rf->has_time) ? rf->bound : NULL;
}

size_t vxp_roofline_buffer_count(const vxp_roofline *rf) { return rf ? rf->buffers.len : 0; }

const char *vxp_roofline_buffer_name(const vxp_roofline *rf, size_t i) {
  return (rf && i < rf->buffers.len) ? rf->buffers.items[i].name : NULL;
}

const char *vxp_roofline_buffer_space(const vxp_roofline *rf, size_t i) {
  return (rf && i < rf->buffers.len) ? rf->buffers.items[i].space : NULL;
}

uint64_t vxp_roofline_buffer_read_bytes(const vxp_roofline *rf, size_t i) {
  return (rf && i < rf->buffers.len) ? rf->buffers.items[i].read_bytes : 0;
}

uint64_t vxp_roofline_buffer_written_bytes(const vxp_roofline *rf, size_t i) {
  return (rf && i < rf->buffers.len) ? rf->buffers.items[i].written_bytes : 0;
}

size_t vxp_roofline_streamed_count(const vxp_roofline *rf) { return rf ? rf->streamed.len : 0; }

const vxp_record *vxp_roofline_streamed_record(const vxp_roofline *rf, size_t i) {
  return (rf && i < rf->streamed.len) ? rf->streamed.items[i] : NULL;
}

int vxp_roofline_streamed_cost_ps(const vxp_roofline *rf, size_t i, uint64_t *out) {
  if (!rf || i >= rf->streamed.len || rf->streamed_cost.items[i] == UINT64_MAX) return 0;
  if (out) *out = rf->streamed_cost.items[i];
  return 1;
}

uint64_t vxp_roofline_stream_bytes(const vxp_roofline *rf) { return rf ? rf->stream_bytes : 0; }

int vxp_roofline_stream_time_ps(const vxp_roofline *rf, uint64_t *out) {
  if (!rf || !rf->has_stream_time) return 0;
  if (out) *out = rf->stream_time_ps;
  return 1;
}
