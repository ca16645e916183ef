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
 * priced by the routes the analysis found for their transfers.
 *
 * Two traffic models. The no-reuse count above is what a kernel that caches nothing moves.
 * The compulsory count takes each buffer's traffic per call at most once per element of its
 * tile (min(no-reuse bytes, the tile's bytes), reads and writes apart): what a kernel with
 * perfect reuse moves, exact when the loops touch every element. A decode step written with
 * the loop over the batch inside the loop over the weights reads each weight BATCH times by
 * the first count and once by the second.
 *
 * The arithmetic: each `+ - * / %` lowering records inside a region (model.h, vxp_arith),
 * by element type, times the same trip counts, with the same exactness; an operation whose
 * element type lowering could not tell, an operation on a slice, or a matrix product `@`
 * makes the count unknown, with the reason. Its time is the operations at the peak rate the
 * region's topology declares for their type (machine.h, `// compute:`); the time of a call
 * is the larger of the memory time and the compute time, and the larger names the bound. */
#include <stdarg.h>
#include <stdio.h>

#include "analysis_data.h"
#include "context.h"
#include "arena.h"
#include "program.h"
#include "source.h"
#include "strbuf.h"

/* A buffer (a tensor read or written in a region) or a space: one slot of a traffic vector. */
typedef struct slot {
  bool is_space;
  const char *name; /* buffer: the tensor's name; space: the space's name */
  uint32_t space;   /* buffers: the slot of their space */
} slot;

typedef struct vxp_roofline_space {
  const char *name;
  uint64_t read_bytes, written_bytes;
  uint64_t compulsory_read, compulsory_written;
  bool has_ctime;
  uint64_t ctime_ps; /* the compulsory bytes' time */
  bool has_bandwidth;
  uint64_t bandwidth; /* bytes per second, device-wide */
  bool has_time;
  uint64_t time_ps;
} rf_space;

typedef struct rf_buffer {
  const char *name, *space;
  uint64_t read_bytes, written_bytes;
  bool has_tile;
  uint64_t tile_bytes; /* the whole tile, when its shape folds */
  uint64_t compulsory_read, compulsory_written;
} rf_buffer;

/* Invariant: the handle lives in its own `arena` (VXP_ARENA_HANDLE), and so does everything
 * it owns: its tables grow there (arena_push) and its reasons are vxp_sb bound to it, so
 * freeing it is one vxp_arena__free_handle, with no list of parts to keep. */
struct vxp_roofline {
  uint32_t tag; /* VXP_TAG_ROOFLINE, first: checked on entry (tag.h) */
  vxp_context *ctx;
  vxp_arena arena;
  const char *function;
  size_t regions;
  vxp_certainty traffic;
  vxp_sb reason; /* why the traffic is unknown or has no time; empty: none */
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
  /* Arithmetic. */
  uint64_t ops[VXP_ELEM_COUNT];
  vxp_certainty ops_status;
  vxp_sb ops_reason;
  const char *topology; /* the regions' topology, NULL when none or several */
  uint64_t peak[VXP_ELEM_COUNT];
  uint64_t tf32_peak;
  bool has_compute_time;
  uint64_t compute_time_ps;
  vxp_sb compute_reason; /* why there is no compute time, when there is none */
  /* The memory time and its space under the compulsory model (index 0) and no-reuse (1). */
  bool has_mtime[2];
  uint64_t mtime_ps[2];
  const char *mbound[2];
};

/* ------------------------------------------------------------------ the walk */

typedef struct rf_walk {
  vxp_roofline *rf;
  const vxp_analysis *an;
  const vxp_model *m;
  const vxp_function *fn;
  uint32_t fn_index; /* the analysed function: its facts are read, never refolded */
  Array(slot) slots;
  Array(uint32_t) access_slot; /* per access: its buffer slot */
  size_t cursor;               /* next access to count */
  size_t arith_cursor;         /* next arithmetic operation to count */
  size_t width;                /* a vector: 2 per slot, then one op count per element type */
  unsigned spawn_depth;
  bool unknown, inexact;
  bool ops_unknown; /* an operation that cannot be counted (ops_reason) */
  bool topologies_differ;
  vxp_name topology;
  int rc;
} rf_walk;

static void unknown(rf_walk *w, uint32_t start_byte, const char *fmt, ...) VXP__PRINTF(3, 4);

/* Replace the text of `sb` (a reason) with the formatted one; a failed append is seen as
 * VXP_ENOMEM when the roofline is finished. */
static void set_text(vxp_context *ctx, vxp_sb *sb, const char *fmt, ...) VXP__PRINTF(3, 4);

static void set_text(vxp_context *ctx, vxp_sb *sb, const char *fmt, ...) {
  bool failed = sb->failed;
  vxp_sb__free(ctx, sb);
  sb->failed = failed;
  va_list ap;
  va_start(ap, fmt);
  vxp_sb__vprintf(ctx, sb, fmt, ap);
  va_end(ap);
}

static void unknown(rf_walk *w, uint32_t start_byte, const char *fmt, ...) {
  if (w->unknown) return;
  w->unknown = true;
  vxp_point at = vxp_source__point(w->an->prog->src, start_byte);
  set_text(w->rf->ctx, &w->rf->reason, "line %u: ", at.line + 1);
  va_list ap;
  va_start(ap, fmt);
  vxp_sb__vprintf(w->rf->ctx, &w->rf->reason, fmt, ap);
  va_end(ap);
}

static const char *name_of(const rf_walk *w, vxp_name n) {
  return vxp_strtab__str(&w->m->names, n);
}

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
  case VXP_ACCESS_SIZED: *bytes = f->bytes; return true;
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
  u128 *v = vxp_ctx__calloc(w->rf->ctx, w->width + 1, sizeof(u128));
  if (!v) w->rc = VXP_ENOMEM;
  return v;
}

static bool vec_zero(const rf_walk *w, const u128 *v) {
  for (size_t i = 0; i < w->width; i++)
    if (v[i]) return false;
  return true;
}

static bool vec_equal(const rf_walk *w, const u128 *a, const u128 *b) {
  return memcmp(a, b, w->width * sizeof(u128)) == 0;
}

/* out += v x times, saturating far above anything 64 bits can report. */
static void vec_add(rf_walk *w, u128 *out, const u128 *v, u128 times) {
  const u128 cap = (u128)1 << 100;
  for (size_t i = 0; i < w->width; i++) {
    u128 add = v[i] && times > cap / v[i] ? cap : v[i] * times;
    out[i] = out[i] + add > cap ? cap : out[i] + add;
  }
}

static void vec_max(rf_walk *w, u128 *out, const u128 *v) {
  for (size_t i = 0; i < w->width; i++)
    if (v[i] > out[i]) out[i] = v[i];
}

static size_t close_of(const vxp_function *fn, size_t open) {
  size_t depth = 0;
  for (size_t i = open; i < fn->events.len; i++) {
    if (fn->events.items[i].kind == VXP_EV_OPEN)
      depth++;
    else if (fn->events.items[i].kind == VXP_EV_CLOSE && --depth == 0)
      return i;
  }
  return fn->events.len;
}

/* Whether the function a call names (the first of that name) has spawn regions of its own:
 * one bit of the analysis' index, so a roofline's work does not grow with the program's
 * functions (it scanned them all, and the callee's events, per call). */
static bool callee_spawns(const rf_walk *w, const vxp_call_event *call) {
  vxp_name n = call->callee;
  return n != VXP_NAME_NONE && n / 8 < w->an->spawning_names.len &&
         (w->an->spawning_names.items[n / 8] >> (n % 8) & 1);
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

static void ops_unknown(rf_walk *w, uint32_t start_byte, const char *what) {
  if (w->ops_unknown) return;
  w->ops_unknown = true;
  vxp_point at = vxp_source__point(w->an->prog->src, start_byte);
  set_text(w->rf->ctx, &w->rf->ops_reason, "line %u: %s", at.line + 1, what);
}

/* Count the arithmetic operations that happen just before events[k]. */
static void count_ariths(rf_walk *w, size_t k, u128 *out) {
  const vxp_function *fn = w->fn;
  while (w->arith_cursor < fn->ariths.len && fn->ariths.items[w->arith_cursor].event == k) {
    const vxp_arith *a = &fn->ariths.items[w->arith_cursor++];
    if (a->kind == VXP_ARITH_SCALAR && a->elem < VXP_ELEM_COUNT) {
      out[w->slots.len * 2 + a->elem] += 1;
    } else if (a->kind == VXP_ARITH_MATMUL) {
      ops_unknown(w, a->start_byte,
                  "a matrix product `@`, whose operations vxpeak does not "
                  "count; write its loops");
    } else if (a->kind == VXP_ARITH_SLICE) {
      ops_unknown(w, a->start_byte,
                  "arithmetic on a slice (fewer indices than the tensor's "
                  "rank), whose operations vxpeak does not count");
    } else {
      ops_unknown(w, a->start_byte,
                  "an operation whose element type is not known (its "
                  "operands are neither tensor elements nor typed; write `as f32` or a typed "
                  "`let`)");
    }
  }
}

static void walk(rf_walk *w, size_t from, size_t to, u128 *out) {
  const vxp_function *fn = w->fn;
  for (size_t k = from; k <= to && w->rc == VXP_OK; k++) {
    if (vxp_ctx__interrupted(w->rf->ctx)) { /* the caller's flag or time budget */
      w->rc = VXP_ECANCELLED;
      break;
    }
    count_accesses(w, k, out);
    count_ariths(w, k, out);
    if (k == to || k >= fn->events.len) break;
    const vxp_event *ev = &fn->events.items[k];
    if (ev->kind == VXP_EV_CALL) {
      const char *name = ev->u.call.callee   ? name_of(w, ev->u.call.callee)
                         : ev->u.call.method ? name_of(w, ev->u.call.method)
                                             : "?";
      if (w->spawn_depth > 0)
        unknown(w, ev->u.call.start_byte,
                "a call inside a spawn region ('%s'); vxpeak does not "
                "count the accesses of a callee",
                name);
      else if (callee_spawns(w, &ev->u.call))
        unknown(w, ev->u.call.start_byte,
                "a call to '%s', which has spawn regions of its own; "
                "vxpeak counts the regions of one function",
                name);
      continue;
    }
    if (ev->kind != VXP_EV_OPEN) continue;
    const vxp_block_event *b = &ev->u.block;
    size_t close;
    if (b->kind == VXP_BLOCK_SPAWN) {
      w->rf->regions++;
      if (w->rf->regions == 1)
        w->topology = b->topology;
      else if (b->topology != w->topology)
        w->topologies_differ = true;
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
          unknown(w, b->start_byte,
                  "a `loop` or `while` around device work runs an unknown "
                  "number of times");
      } else {
        /* The trip count the analysis decided (signed bounds, as it folds them). */
        const vxp_event_fact *f = vxp_analysis__event_fact(w->an, w->fn_index, k);
        if (!f || !f->trips_known) {
          if (!vec_zero(w, v))
            unknown(w, b->start_byte,
                    "the trip count of a `for` around device work does not "
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
          if (first) memcpy(first, arm, w->width * sizeof(u128));
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
          count_ariths(w, k + 1, out);
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

/* A buffer's whole tile: the bytes the analysis decided for the placement that bound its
 * name in this function (its fact: no folding here), the largest when the name is placed
 * more than once; false for a parameter (placed by the caller) or a size not known, whose
 * compulsory traffic is then its no-reuse traffic. */
static bool tile_bytes(rf_walk *w, const char *name, uint64_t *out) {
  bool found = false;
  for (size_t k = 0; k < w->fn->events.len; k++) {
    const vxp_event *ev = &w->fn->events.items[k];
    if (ev->kind != VXP_EV_PLACE || ev->u.place.binding == VXP_NAME_NONE ||
        strcmp(name_of(w, ev->u.place.binding), name) != 0)
      continue;
    const vxp_event_fact *f = vxp_analysis__event_fact(w->an, w->fn_index, k);
    if (!f || !f->reached) continue;
    if (f->size != VXP_FACT_SIZE_KNOWN) return false;
    if (!found || f->raw_bytes > *out) *out = f->raw_bytes;
    found = true;
  }
  return found;
}

static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* The slowest space's time under one traffic model (0 compulsory, 1 no-reuse). */
static void memory_time(vxp_roofline *rf, int model) {
  rf->has_mtime[model] = rf->spaces.len > 0;
  rf->mbound[model] = NULL;
  for (size_t i = 0; i < rf->spaces.len; i++) {
    const rf_space *sp = &rf->spaces.items[i];
    uint64_t rd = model ? sp->read_bytes : sp->compulsory_read;
    uint64_t wr = model ? sp->written_bytes : sp->compulsory_written;
    bool has = model ? sp->has_time : sp->has_ctime;
    uint64_t ps = model ? sp->time_ps : sp->ctime_ps;
    if (rd == 0 && wr == 0) continue;
    if (!has) {
      rf->has_mtime[model] = false;
      rf->mbound[model] = NULL;
      return;
    }
    if (!rf->mbound[model] || ps > rf->mtime_ps[model]) {
      rf->mtime_ps[model] = ps;
      rf->mbound[model] = sp->name;
    }
  }
  if (!rf->mbound[model]) rf->has_mtime[model] = false;
}

/* The operations' time at the regions' topology's peak rates (each type at its own rate,
 * one after another: the units do not overlap types), or the reason there is none. */
static void compute_time(rf_walk *w) {
  vxp_roofline *rf = w->rf;
  uint64_t total = 0;
  for (size_t e = 0; e < VXP_ELEM_COUNT; e++)
    total |= rf->ops[e];
  if (rf->ops_status == VXP_CERTAINTY_UNKNOWN) {
    set_text(rf->ctx, &rf->compute_reason, "the operations are not known");
    return;
  }
  if (w->topologies_differ) {
    set_text(rf->ctx, &rf->compute_reason,
             "the regions run on different "
             "topologies; vxpeak prices the arithmetic of one");
    return;
  }
  const vxp_topology *t = rf->topology ? vxp_machine__topology(&w->an->view, rf->topology) : NULL;
  if (t) {
    for (size_t e = 0; e < VXP_ELEM_COUNT; e++)
      rf->peak[e] = vxp_machine__peak_ops(t, (uint8_t)e);
    rf->tf32_peak = vxp_machine__peak_ops(t, VXP_COMPUTE_TF32);
  }
  if (!t || t->compute.len == 0) {
    set_text(rf->ctx, &rf->compute_reason,
             "topology '%s' declares no compute "
             "rates (`// compute:` lines, fleet/README.md), so the bound cannot be named",
             rf->topology ? rf->topology : "?");
    return;
  }
  if (total == 0) {
    rf->has_compute_time = true;
    rf->compute_time_ps = 0;
    return;
  }
  u128 ps = 0;
  for (size_t e = 0; e < VXP_ELEM_COUNT; e++) {
    if (!rf->ops[e]) continue;
    if (!rf->peak[e]) {
      set_text(rf->ctx, &rf->compute_reason,
               "topology '%s' declares no "
               "compute rate for %s, so its %s operations have no time and the bound cannot "
               "be named",
               rf->topology, vxp_elem__name((vxp_elem)e), vxp_elem__name((vxp_elem)e));
      return;
    }
    /* ceil(ops x 10^12 / rate) picoseconds; ops < 2^64 and 10^12 < 2^40. */
    u128 num = (u128)rf->ops[e] * 1000000000000ull;
    ps += (num + rf->peak[e] - 1) / rf->peak[e];
  }
  if (ps > UINT64_MAX) {
    set_text(rf->ctx, &rf->compute_reason,
             "the operations take more than "
             "2^64 ps");
    return;
  }
  rf->has_compute_time = true;
  rf->compute_time_ps = (uint64_t)ps;
}

static int collect(rf_walk *w, const u128 *total) {
  vxp_roofline *rf = w->rf;
  for (size_t i = 0; i < w->slots.len; i++) {
    const slot *s = &w->slots.items[i];
    if (total[i * 2] > UINT64_MAX || total[i * 2 + 1] > UINT64_MAX) {
      if (!w->unknown) {
        w->unknown = true;
        set_text(rf->ctx, &rf->reason, "'%s' moves more than 2^64 bytes", s->name);
      }
    }
    if (!s->is_space) {
      rf_buffer b;
      memset(&b, 0, sizeof(b));
      b.name = s->name;
      b.space = w->slots.items[s->space].name;
      b.read_bytes = sat64(total[i * 2]);
      b.written_bytes = sat64(total[i * 2 + 1]);
      b.has_tile = tile_bytes(w, s->name, &b.tile_bytes);
      /* Compulsory: each element of the tile once per call at most, reads and writes apart. */
      b.compulsory_read = b.has_tile ? min64(b.read_bytes, b.tile_bytes) : b.read_bytes;
      b.compulsory_written = b.has_tile ? min64(b.written_bytes, b.tile_bytes) : b.written_bytes;
      if (!arena_push(rf->ctx, &rf->arena, &rf->buffers, b)) return VXP_ENOMEM;
    }
  }
  for (size_t i = 0; i < w->slots.len; i++) {
    const slot *s = &w->slots.items[i];
    if (!s->is_space) continue;
    rf_space sp;
    memset(&sp, 0, sizeof(sp));
    sp.name = s->name;
    sp.read_bytes = sat64(total[i * 2]);
    sp.written_bytes = sat64(total[i * 2 + 1]);
    for (size_t k = 0; k < rf->buffers.len; k++) {
      const rf_buffer *b = &rf->buffers.items[k];
      if (strcmp(b->space, s->name) != 0) continue;
      if (!vxp_add_u64(sp.compulsory_read, b->compulsory_read, &sp.compulsory_read))
        sp.compulsory_read = UINT64_MAX;
      if (!vxp_add_u64(sp.compulsory_written, b->compulsory_written, &sp.compulsory_written))
        sp.compulsory_written = UINT64_MAX;
    }
    sp.has_bandwidth = device_bandwidth(vxp_machine__space(&w->an->view, s->name), &sp.bandwidth);
    uint64_t bytes;
    sp.has_time = sp.has_bandwidth && vxp_add_u64(sp.read_bytes, sp.written_bytes, &bytes) &&
                  vxp_transfer__hop_cost(bytes, sp.bandwidth, false, &sp.time_ps);
    sp.has_ctime = sp.has_bandwidth &&
                   vxp_add_u64(sp.compulsory_read, sp.compulsory_written, &bytes) &&
                   vxp_transfer__hop_cost(bytes, sp.bandwidth, false, &sp.ctime_ps);
    if (!arena_push(rf->ctx, &rf->arena, &rf->spaces, sp)) return VXP_ENOMEM;
  }
  /* The arithmetic, as exact as the traffic (a larger arm is as much an upper bound). */
  for (size_t e = 0; e < VXP_ELEM_COUNT; e++) {
    u128 n = total[w->slots.len * 2 + e];
    if (n > UINT64_MAX && !w->ops_unknown) {
      w->ops_unknown = true;
      set_text(rf->ctx, &rf->ops_reason, "more than 2^64 %s operations",
               vxp_elem__name((vxp_elem)e));
    }
    rf->ops[e] = sat64(n);
  }
  if (w->unknown && !w->ops_unknown) {
    w->ops_unknown = true;
    set_text(rf->ctx, &rf->ops_reason, "%s", vxp_sb__text(&rf->reason));
  }
  rf->ops_status = w->ops_unknown ? VXP_CERTAINTY_UNKNOWN
                   : w->inexact   ? VXP_CERTAINTY_UPPER_BOUND
                                  : VXP_CERTAINTY_EXACT;
  if (!w->topologies_differ && w->topology != VXP_NAME_NONE)
    rf->topology = vxp_strtab__str(&w->m->names, w->topology);
  rf->traffic = w->unknown   ? VXP_CERTAINTY_UNKNOWN
                : w->inexact ? VXP_CERTAINTY_UPPER_BOUND
                             : VXP_CERTAINTY_EXACT;
  compute_time(w);
  if (w->unknown) return VXP_OK;
  memory_time(rf, 0);
  memory_time(rf, 1);
  /* The no-reuse figures behind the original accessors. */
  rf->has_time = rf->has_mtime[1];
  rf->time_ps = rf->mtime_ps[1];
  rf->bound = rf->mbound[1];
  if (!rf->has_time) {
    for (size_t i = 0; i < rf->spaces.len; i++) {
      const rf_space *sp = &rf->spaces.items[i];
      if ((sp->read_bytes || sp->written_bytes) && !sp->has_time) {
        set_text(rf->ctx, &rf->reason,
                 "'%s' declares no bandwidth, so its traffic "
                 "has no time",
                 sp->name);
        break;
      }
    }
  }
  return VXP_OK;
}

/* The first record, and the first route, of analysed functions `fn` and after: both tables
 * are grouped by function in analysis order (analysis_data.h), so a function's part is found by
 * binary search, where a scan of every record and every route per function made the
 * roofline of each function quadratic. */
static size_t first_record_from(const vxp_analysis *an, uint32_t fn) {
  size_t lo = 0, hi = an->records.len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (an->records.items[mid].function < fn)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static size_t first_route_from(const vxp_analysis *an, uint32_t fn) {
  size_t lo = 0, hi = an->routes.len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (an->routes.items[mid].function < fn)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static int by_name(const void *a, const void *b) {
  vxp_name x = *(const vxp_name *)a, y = *(const vxp_name *)b;
  return x < y ? -1 : x > y;
}

/* A route of the function by where its transfer starts, then by position in the table. */
typedef struct route_at {
  uint32_t start_byte;
  uint32_t index;
} route_at;

static int by_start_then_index(const void *a, const void *b) {
  const route_at *x = a, *y = b;
  if (x->start_byte != y->start_byte) return x->start_byte < y->start_byte ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* The tiles read in the regions that were transferred from host memory, and what moving
 * them over their routes costs (each once per step). The function's records and routes
 * come from their parts of the analysis' tables; the tensors it reads and its routes by
 * start are sorted once, so that each record is a binary search in each (n log n in the
 * function's size, where each record scanned every access and every route). */
static int streaming(rf_walk *w, uint32_t fn_index) {
  vxp_roofline *rf = w->rf;
  const vxp_analysis *an = w->an;
  vxp_context *ctx = rf->ctx;
  rf->has_stream_time = true;
  size_t nread = 0;
  for (size_t k = 0; k < w->fn->accesses.len; k++)
    nread += w->fn->accesses.items[k].kind == VXP_ACCESS_READ;
  size_t rec_first = first_record_from(an, fn_index), rec_end = first_record_from(an, fn_index + 1);
  size_t route_first = first_route_from(an, fn_index);
  size_t nroutes = first_route_from(an, fn_index + 1) - route_first;
  /* A function that reads nothing streams nothing. */
  if (nread == 0 || rec_first == rec_end) {
    rf->has_stream_time = false;
    return VXP_OK;
  }
  vxp_name *read = vxp_ctx__calloc(ctx, nread, sizeof(*read));
  route_at *routes = vxp_ctx__calloc(ctx, nroutes ? nroutes : 1, sizeof(*routes));
  int rc = read && routes ? VXP_OK : VXP_ENOMEM;
  for (size_t k = 0, n = 0; rc == VXP_OK && k < w->fn->accesses.len; k++)
    if (w->fn->accesses.items[k].kind == VXP_ACCESS_READ)
      read[n++] = w->fn->accesses.items[k].tensor;
  for (size_t k = 0; rc == VXP_OK && k < nroutes; k++)
    routes[k] =
        (route_at){an->routes.items[route_first + k].start_byte, (uint32_t)(route_first + k)};
  if (rc == VXP_OK) {
    qsort(read, nread, sizeof(*read), by_name);
    if (nroutes > 1) qsort(routes, nroutes, sizeof(*routes), by_start_then_index);
  }
  for (size_t i = rec_first; rc == VXP_OK && i < rec_end; i++) {
    if (vxp_ctx__interrupted(ctx)) {
      rc = VXP_ECANCELLED;
      break;
    }
    const vxp_record *r = &an->records.items[i];
    VXP__ASSERT(r->function == fn_index);
    if (r->binding == VXP_NAME_NONE || !bsearch(&r->binding, read, nread, sizeof(*read), by_name))
      continue;
    /* The routes of the transfer that placed the record: those starting where it starts. */
    size_t lo = 0, hi = nroutes;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (routes[mid].start_byte < r->start_byte)
        lo = mid + 1;
      else
        hi = mid;
    }
    bool from_host = false, priced = true;
    uint64_t cost = 0, bytes = 0;
    for (size_t k = lo; k < nroutes && routes[k].start_byte == r->start_byte; k++) {
      const vxp_route *route = &an->routes.items[routes[k].index];
      VXP__ASSERT(route->function == fn_index);
      if (route->hop == 0) {
        /* Where the routed edges start: a space within host memory without edges of its
         * own routes from CPU_DRAM, after the path's first step up the tree. */
        from_host = strcmp(vxp_route_path_space(route, route->climbs), "CPU_DRAM") == 0;
        bytes = route->bytes;
      }
      if (route->cost.source == VXP_COST_SOURCE_NONE || route->cost.per_cycle ||
          !vxp_add_u64(cost, route->cost.value, &cost))
        priced = false;
    }
    if (!from_host) continue;
    if (!arena_push(ctx, &rf->arena, &rf->streamed, r) ||
        !arena_push(ctx, &rf->arena, &rf->streamed_cost, priced ? cost : UINT64_MAX)) {
      rc = VXP_ENOMEM;
      break;
    }
    if (!vxp_add_u64(rf->stream_bytes, bytes, &rf->stream_bytes)) rf->stream_bytes = UINT64_MAX;
    if (!priced || !vxp_add_u64(rf->stream_time_ps, cost, &rf->stream_time_ps))
      rf->has_stream_time = false;
  }
  vxp_ctx__free(ctx, read);
  vxp_ctx__free(ctx, routes);
  if (rf->streamed.len == 0) rf->has_stream_time = false;
  return rc;
}

int vxp_roofline_new(vxp_roofline **out, vxp_context *ctx, const vxp_analysis *an,
                     const char *function) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, an, VXP_TAG_ANALYSIS);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (!out || !ctx || !an || !function)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_roofline_new")
               : VXP_EINVAL;
  uint32_t fn_index = VXP_NONE;
  long at = vxp_name_index__find(&an->function_index, function);
  if (at >= 0) {
    fn_index = (uint32_t)at;
  } else if (an->function_index.len == 0) { /* an analysis that stopped before indexing */
    for (size_t i = 0; i < an->functions.len; i++)
      if (strcmp(an->functions.items[i].name, function) == 0) fn_index = (uint32_t)i;
  }
  if (fn_index == VXP_NONE)
    return vxp_ctx__error(ctx, VXP_ENOTFOUND, "no analysed function '%s'", function);
  vxp_roofline *rf = VXP_ARENA_HANDLE(ctx, vxp_roofline, arena);
  if (!rf) return vxp_ctx__nomem(ctx);
  rf->tag = VXP_TAG_ROOFLINE;
  rf->ctx = ctx;
  rf->reason = vxp_sb__in_arena(&rf->arena);
  rf->ops_reason = vxp_sb__in_arena(&rf->arena);
  rf->compute_reason = vxp_sb__in_arena(&rf->arena);
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
  w.width = w.slots.len * 2 + VXP_ELEM_COUNT;
  w.topology = VXP_NAME_NONE;
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
  if (rc == VXP_OK && (rf->reason.failed || rf->ops_reason.failed || rf->compute_reason.failed))
    rc = VXP_ENOMEM;
  vxp_ctx__free(ctx, total);
  array_free(ctx, &w.slots);
  array_free(ctx, &w.access_slot);
  if (rc != VXP_OK) {
    vxp_roofline_free(rf);
    return rc == VXP_ECANCELLED ? vxp_ctx__cancelled(ctx) : vxp_ctx__nomem(ctx);
  }
  *out = rf;
  return VXP_OK;
}

void vxp_roofline_free(vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, );

  if (!rf) return;
  rf->tag = VXP_TAG_FREED;
  vxp_arena__free_handle(rf->ctx, &rf->arena);
}

/* ------------------------------------------------------------------ accessors */

const char *vxp_roofline_function(const vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, NULL);
  return rf ? rf->function : NULL;
}
size_t vxp_roofline_region_count(const vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);
  return rf ? rf->regions : 0;
}
vxp_certainty vxp_roofline_traffic(const vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, (vxp_certainty)0);

  return rf ? rf->traffic : (vxp_certainty)0;
}

const char *vxp_certainty_name(vxp_certainty certainty) {
  switch (certainty) {
  case VXP_CERTAINTY_EXACT: return "exact";
  case VXP_CERTAINTY_UPPER_BOUND: return "upper_bound";
  case VXP_CERTAINTY_UNKNOWN: return "unknown";
  }
  return NULL;
}

const char *vxp_bound_name(vxp_bound bound) {
  switch (bound) {
  case VXP_BOUND_NONE: return NULL;
  case VXP_BOUND_MEMORY: return "memory";
  case VXP_BOUND_COMPUTE: return "compute";
  }
  return NULL;
}

const char *vxp_roofline_reason(const vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, NULL);

  return (rf && rf->reason.len) ? vxp_sb__text(&rf->reason) : NULL;
}

size_t vxp_roofline_space_count(const vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);
  return rf ? rf->spaces.len : 0;
}

static const rf_space *space_at(const vxp_roofline *rf, size_t i) {
  return (rf && i < rf->spaces.len) ? &rf->spaces.items[i] : NULL;
}

const char *vxp_roofline_space_name(const vxp_roofline *rf, size_t i) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, NULL);

  const rf_space *s = space_at(rf, i);
  return s ? s->name : NULL;
}

uint64_t vxp_roofline_space_read_bytes(const vxp_roofline *rf, size_t i) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  const rf_space *s = space_at(rf, i);
  return s ? s->read_bytes : 0;
}

uint64_t vxp_roofline_space_written_bytes(const vxp_roofline *rf, size_t i) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  const rf_space *s = space_at(rf, i);
  return s ? s->written_bytes : 0;
}

int vxp_roofline_space_bandwidth(const vxp_roofline *rf, size_t i, uint64_t *out) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  const rf_space *s = space_at(rf, i);
  if (!s || !s->has_bandwidth) return 0;
  if (out) *out = s->bandwidth;
  return 1;
}

int vxp_roofline_space_time_ps(const vxp_roofline *rf, size_t i, uint64_t *out) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  const rf_space *s = space_at(rf, i);
  if (!s || !s->has_time || rf->traffic == VXP_CERTAINTY_UNKNOWN) return 0;
  if (out) *out = s->time_ps;
  return 1;
}

int vxp_roofline_time_ps(const vxp_roofline *rf, uint64_t *out) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  if (!rf || !rf->has_time) return 0;
  if (out) *out = rf->time_ps;
  return 1;
}

const char *vxp_roofline_bound_space(const vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, NULL);

  return (rf && rf->has_time) ? rf->bound : NULL;
}

size_t vxp_roofline_buffer_count(const vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);
  return rf ? rf->buffers.len : 0;
}

const char *vxp_roofline_buffer_name(const vxp_roofline *rf, size_t i) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, NULL);

  return (rf && i < rf->buffers.len) ? rf->buffers.items[i].name : NULL;
}

const char *vxp_roofline_buffer_space(const vxp_roofline *rf, size_t i) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, NULL);

  return (rf && i < rf->buffers.len) ? rf->buffers.items[i].space : NULL;
}

uint64_t vxp_roofline_buffer_read_bytes(const vxp_roofline *rf, size_t i) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  return (rf && i < rf->buffers.len) ? rf->buffers.items[i].read_bytes : 0;
}

uint64_t vxp_roofline_buffer_written_bytes(const vxp_roofline *rf, size_t i) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  return (rf && i < rf->buffers.len) ? rf->buffers.items[i].written_bytes : 0;
}

size_t vxp_roofline_streamed_count(const vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);
  return rf ? rf->streamed.len : 0;
}

const vxp_record *vxp_roofline_streamed_record(const vxp_roofline *rf, size_t i) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, NULL);

  return (rf && i < rf->streamed.len) ? rf->streamed.items[i] : NULL;
}

int vxp_roofline_streamed_cost_ps(const vxp_roofline *rf, size_t i, uint64_t *out) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  if (!rf || i >= rf->streamed.len || rf->streamed_cost.items[i] == UINT64_MAX) return 0;
  if (out) *out = rf->streamed_cost.items[i];
  return 1;
}

uint64_t vxp_roofline_stream_bytes(const vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);
  return rf ? rf->stream_bytes : 0;
}

int vxp_roofline_stream_time_ps(const vxp_roofline *rf, uint64_t *out) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  if (!rf || !rf->has_stream_time) return 0;
  if (out) *out = rf->stream_time_ps;
  return 1;
}

/* ------------------------------------------------------------------ the bound */

static int model_index(vxp_traffic_model model) { return model == VXP_TRAFFIC_NO_REUSE ? 1 : 0; }

uint64_t vxp_roofline_space_bytes(const vxp_roofline *rf, size_t i, vxp_traffic_model model,
                                  uint64_t *written) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  const rf_space *s = space_at(rf, i);
  if (!s) {
    if (written) *written = 0;
    return 0;
  }
  bool nr = model_index(model) == 1;
  if (written) *written = nr ? s->written_bytes : s->compulsory_written;
  return nr ? s->read_bytes : s->compulsory_read;
}

uint64_t vxp_roofline_buffer_bytes(const vxp_roofline *rf, size_t i, vxp_traffic_model model,
                                   uint64_t *written) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  const rf_buffer *b = (rf && i < rf->buffers.len) ? &rf->buffers.items[i] : NULL;
  if (!b) {
    if (written) *written = 0;
    return 0;
  }
  bool nr = model_index(model) == 1;
  if (written) *written = nr ? b->written_bytes : b->compulsory_written;
  return nr ? b->read_bytes : b->compulsory_read;
}

int vxp_roofline_buffer_tile_bytes(const vxp_roofline *rf, size_t i, uint64_t *out) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  if (!rf || i >= rf->buffers.len || !rf->buffers.items[i].has_tile) return 0;
  if (out) *out = rf->buffers.items[i].tile_bytes;
  return 1;
}

int vxp_roofline_memory_time_ps(const vxp_roofline *rf, vxp_traffic_model model, uint64_t *out) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  if (!rf || !rf->has_mtime[model_index(model)]) return 0;
  if (out) *out = rf->mtime_ps[model_index(model)];
  return 1;
}

const char *vxp_roofline_memory_bound_space(const vxp_roofline *rf, vxp_traffic_model model) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, NULL);

  return (rf && rf->has_mtime[model_index(model)]) ? rf->mbound[model_index(model)] : NULL;
}

vxp_certainty vxp_roofline_ops_status(const vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, (vxp_certainty)0);

  return rf ? rf->ops_status : (vxp_certainty)0;
}

const char *vxp_roofline_ops_reason(const vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, NULL);

  return (rf && rf->ops_reason.len) ? vxp_sb__text(&rf->ops_reason) : NULL;
}

const char *vxp_roofline_topology(const vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, NULL);
  return rf ? rf->topology : NULL;
}

size_t vxp_roofline_op_type_count(const vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  (void)rf;
  return VXP_ELEM_COUNT - 1;
}

const char *vxp_roofline_op_type(const vxp_roofline *rf, size_t i) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, NULL);

  (void)rf;
  return i + 1 < VXP_ELEM_COUNT ? vxp_elem__name((vxp_elem)(i + 1)) : NULL;
}

uint64_t vxp_roofline_op_count(const vxp_roofline *rf, size_t i) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  return (rf && i + 1 < VXP_ELEM_COUNT) ? rf->ops[i + 1] : 0;
}

int vxp_roofline_op_peak(const vxp_roofline *rf, size_t i, uint64_t *ops_per_s) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  if (!rf || i + 1 >= VXP_ELEM_COUNT || !rf->peak[i + 1]) return 0;
  if (ops_per_s) *ops_per_s = rf->peak[i + 1];
  return 1;
}

uint64_t vxp_roofline_total_ops(const vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  if (!rf) return 0;
  uint64_t n = 0;
  for (size_t e = 0; e < VXP_ELEM_COUNT; e++)
    if (!vxp_add_u64(n, rf->ops[e], &n)) return UINT64_MAX;
  return n;
}

int vxp_roofline_compute_time_ps(const vxp_roofline *rf, uint64_t *out) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  if (!rf || !rf->has_compute_time) return 0;
  if (out) *out = rf->compute_time_ps;
  return 1;
}

const char *vxp_roofline_compute_reason(const vxp_roofline *rf) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, NULL);

  return (rf && !rf->has_compute_time && rf->compute_reason.len) ? vxp_sb__text(&rf->compute_reason)
                                                                 : NULL;
}

vxp_bound vxp_roofline_bound(const vxp_roofline *rf, vxp_traffic_model model) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, VXP_BOUND_NONE);

  if (!rf || !rf->has_compute_time || !rf->has_mtime[model_index(model)]) return VXP_BOUND_NONE;
  return rf->compute_time_ps > rf->mtime_ps[model_index(model)] ? VXP_BOUND_COMPUTE
                                                                : VXP_BOUND_MEMORY;
}

int vxp_roofline_call_time_ps(const vxp_roofline *rf, vxp_traffic_model model, uint64_t *out) {
  VXP__TAG(rf, VXP_TAG_ROOFLINE, 0);

  if (!rf || !rf->has_mtime[model_index(model)]) return 0;
  uint64_t t = rf->mtime_ps[model_index(model)];
  /* Without a compute time the call is at least its memory time, but not known to be it. */
  if (!rf->has_compute_time) return 0;
  if (rf->compute_time_ps > t) t = rf->compute_time_ps;
  if (out) *out = t;
  return 1;
}

int vxp_analysis_const_value(const vxp_analysis *an, const char *name, uint64_t *out) {
  VXP__TAG_RC(NULL, an, VXP_TAG_ANALYSIS);

  vxp_ctx__clear_error(an ? an->ctx : NULL); /* each call reports its own outcome */
  if (!an || !name || !out)
    return an ? vxp_ctx__error(an->ctx, VXP_EINVAL, "invalid argument to vxp_analysis_const_value")
              : VXP_EINVAL;
  /* The value the analysis decided: its -D override, else the const table it folded once
   * (signed, as every fold of a const item is), not a fold of our own. */
  const vxp_model *m = &an->prog->model;
  vxp_name n = vxp_strtab__find(&m->names, name, strlen(name));
  vxp_const_env env;
  memset(&env, 0, sizeof(env));
  env.model = m;
  env.overrides = an->overrides.items;
  env.override_count = an->overrides.len;
  env.consts = an->const_table;
  bool declared = false; /* a const item, or a -D override of the name */
  for (size_t i = 0; n != VXP_NAME_NONE && i < an->overrides.len && !declared; i++)
    declared = an->overrides.items[i].name == n;
  for (size_t i = 0; n != VXP_NAME_NONE && i < m->consts.len && !declared; i++)
    declared = m->consts.items[i].name == n;
  if (!declared)
    return vxp_ctx__error(an->ctx, VXP_ENOTFOUND, "the program has no `const %s`", name);
  vxp_fold f = vxp_consteval__const_value(&env, n);
  if (f.status != VXP_FOLD_OK) {
    vxp_sb why = {0};
    vxp_consteval__explain(an->ctx, &env, f, &why);
    int rc = why.failed ? vxp_ctx__nomem(an->ctx)
                        : vxp_ctx__error(an->ctx, VXP_ENOTFOUND, "const %s does not fold: %s", name,
                                         vxp_sb__text(&why));
    vxp_sb__free(an->ctx, &why);
    return rc;
  }
  if (f.negative && f.value)
    return vxp_ctx__error(an->ctx, VXP_ENOTFOUND, "const %s is -%llu: not a non-negative integer",
                          name, (unsigned long long)f.value);
  *out = f.value;
  return VXP_OK;
}
