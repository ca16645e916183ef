/* SPDX-License-Identifier: Apache-2.0 */
/* frontier.c - the batch frontier (vxp_frontier_run): for every value of a constant, does
 * the program fit, how long does a call take, how many tokens per second is that, and
 * what binds it.
 *
 * Each value is its own analysis (the constant overridden), as in vxp_sweep_run, but every
 * value is analysed: the time and the bound are not monotone in anything a proof could
 * show, and a frontier is a table. Per value: the fit (sweep.h: no error, sizes known, the
 * tightest capacity within the margin), the roofline of the priced function (roofline.c:
 * memory time under the chosen traffic model, compute time at the declared peaks, the
 * larger binds), and the tokens one call produces (a constant's value at that point, or a
 * fixed count). Then three answers: the largest value that fits, the first value at which
 * compute binds (the memory-to-compute turn), and the value with the best throughput among
 * those that fit. */
#include <stdio.h>

#include "analysis_data.h"
#include "defaults.h"
#include "context.h"
#include "frontier.h"
#include "sweep_formula.h"
#include "program.h"
#include "sweep.h"

struct vxp_frontier_point {
  vxp_sweep_point fit;
  uint64_t tokens;
  bool has_memory, has_compute, has_call;
  uint64_t memory_ps, compute_ps, call_ps;
  uint64_t memory_bytes, ops;
  vxp_bound bound;
  char *bound_space; /* in the frontier's arena */
  char *why_unbound; /* in the frontier's arena; why no bound, or NULL */
};

/* Invariant: the handle lives in its own `arena` (VXP_ARENA_HANDLE), and so does everything
 * it owns: the points table (grown there) and every string (the points', the question's, the
 * function, the tokens). Freeing it is one vxp_arena__free_handle. */
struct vxp_frontier {
  uint32_t tag; /* VXP_TAG_FRONTIER, first: checked on entry (tag.h) */
  vxp_context *ctx;
  vxp_arena arena;
  char *function; /* the priced function (in the arena), NULL when none has regions */
  Array(vxp_frontier_point) points;
  size_t largest_fit, first_compute, best;
  vxp_question q; /* what was asked (lib/report/frontier_report.c) */
  vxp_traffic_model traffic;
  char *tokens;          /* tokens per call as asked: the constant's name or the count */
  vxp_solution solution; /* the largest fit solved from the formula at `lo` (issue 32) */
  vxp_sb solved;         /* how, and the formula that binds; in the arena */
};

int vxp_frontier_options_init(vxp_frontier_options *opts, unsigned int version) {
  if (!opts) return VXP_EINVAL;
  if (!VXP__VERSION_OK(version, VXP_FRONTIER_OPTIONS_VERSION)) return VXP_EVERSION;
  memset(opts, 0, sizeof(*opts));
  opts->version = version;
  return VXP_OK;
}

void vxp_frontier_free(vxp_frontier *f) {
  VXP__TAG(f, VXP_TAG_FRONTIER, );

  if (!f) return;
  f->tag = VXP_TAG_FREED;
  vxp_arena__free_handle(f->ctx, &f->arena);
}

/* The priced function: the one asked for, or the first analysed function with regions. */
static int priced_function(vxp_context *ctx, const vxp_analysis *an, const char *wanted,
                           vxp_roofline **rf) {
  *rf = NULL;
  for (size_t i = 0; i < an->functions.len; i++) {
    const char *name = an->functions.items[i].name;
    if (wanted && strcmp(wanted, name) != 0) continue;
    int rc = vxp_roofline_new(rf, ctx, an, name);
    if (rc != VXP_OK) return rc;
    if (wanted || vxp_roofline_region_count(*rf) > 0) return VXP_OK;
    vxp_roofline_free(*rf);
    *rf = NULL;
  }
  return VXP_OK;
}

static int price(vxp_frontier *f, const vxp_roofline *rf, vxp_traffic_model model,
                 vxp_frontier_point *p) {
  p->has_memory = vxp_roofline_memory_time_ps(rf, model, &p->memory_ps);
  p->has_compute = vxp_roofline_compute_time_ps(rf, &p->compute_ps);
  p->has_call = vxp_roofline_call_time_ps(rf, model, &p->call_ps);
  p->bound = vxp_roofline_bound(rf, model);
  p->ops = vxp_roofline_total_ops(rf);
  const char *space = vxp_roofline_memory_bound_space(rf, model);
  for (size_t i = 0; space && i < vxp_roofline_space_count(rf); i++) {
    if (strcmp(vxp_roofline_space_name(rf, i), space) != 0) continue;
    uint64_t w = 0, r = vxp_roofline_space_bytes(rf, i, model, &w);
    p->memory_bytes = r + w < r ? UINT64_MAX : r + w;
  }
  if (space && !(p->bound_space = vxp_arena__strdup(f->ctx, &f->arena, space))) return VXP_ENOMEM;
  if (!p->bound) {
    const char *why = !p->has_memory ? vxp_roofline_reason(rf) : vxp_roofline_compute_reason(rf);
    if (!why) why = "the regions move nothing";
    if (!(p->why_unbound = vxp_arena__strdup(f->ctx, &f->arena, why))) return VXP_ENOMEM;
  }
  return VXP_OK;
}

static double per_second(const vxp_frontier_point *p) {
  return p->has_call && p->call_ps ? 1e12 / (double)p->call_ps * (double)p->tokens : 0.0;
}

static int frontier_run(vxp_frontier **out, vxp_context *ctx, const vxp_program *prog,
                        const vxp_analyze_options *analyze, const vxp_frontier_options *fo) {
  vxp_ctx__begin(ctx); /* each call reports its own outcome, and starts its time budget */
  if (!out || !ctx || !prog || !fo)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_frontier_run")
               : VXP_EINVAL;
  if (!VXP__VERSION_OK(fo->version, VXP_FRONTIER_OPTIONS_VERSION))
    return vxp_ctx__error(ctx, VXP_EVERSION, "vxp_frontier_options version %u is not supported",
                          fo->version);
  int rc = vxp_question__check(ctx, "vxp_frontier_run", "varied", "vary", prog, analyze, fo->name,
                               fo->lo, fo->hi, fo->margin_ppm);
  if (rc != VXP_OK) return rc;
  uint64_t limit = fo->max_points ? fo->max_points : 4096;
  if (fo->hi - fo->lo >= limit)
    return vxp_ctx__error(ctx, VXP_EINVAL,
                          "vxp_frontier_run: %llu..%llu is more than %llu "
                          "values, each its own analysis: narrow the range",
                          (unsigned long long)fo->lo, (unsigned long long)fo->hi,
                          (unsigned long long)limit);
  size_t extra = analyze ? analyze->override_count : 0;

  /* One block for the handle, its points (and their strings) and the formula's sentence. */
  size_t first = sizeof(vxp_frontier) + 4096 +
                 (size_t)(fo->hi - fo->lo + 1) * (sizeof(vxp_frontier_point) + 64);
  vxp_frontier *f = VXP_ARENA_HANDLE_SIZED(ctx, vxp_frontier, arena, first);
  if (f) f->tag = VXP_TAG_FRONTIER, f->ctx = ctx;
  vxp_const_override *overrides = vxp_ctx__calloc(ctx, extra + 1, sizeof(*overrides));
  if (!f || !overrides) {
    vxp_frontier_free(f);
    vxp_ctx__free(ctx, overrides);
    return vxp_ctx__nomem(ctx);
  }
  f->ctx = ctx;
  f->solved = vxp_sb__in_arena(&f->arena);
  f->largest_fit = f->first_compute = f->best = SIZE_MAX;
  f->traffic = fo->traffic;
  char count[24];
  snprintf(count, sizeof(count), "%llu",
           (unsigned long long)(fo->tokens_per_call ? fo->tokens_per_call : 1));
  if (vxp_question__record(ctx, &f->arena, &f->q, prog, analyze, fo->name, fo->lo, fo->hi,
                           fo->margin_ppm, fo->function, fo->space) != VXP_OK ||
      !(f->tokens =
            vxp_arena__strdup(ctx, &f->arena, fo->tokens_const ? fo->tokens_const : count))) {
    vxp_ctx__free(ctx, overrides);
    vxp_frontier_free(f);
    return vxp_ctx__nomem(ctx);
  }
  for (size_t i = 0; i < extra; i++)
    overrides[i] = analyze->overrides[i];
  overrides[extra].name = fo->name;
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  if (analyze) { /* field by field: a version-1 struct is shorter */
    opts.machine = analyze->machine;
    opts.host = analyze->host;
    opts.machine_only = analyze->version >= 2 && analyze->machine_only;
    if (analyze->version >= 3) {
      opts.retypes = analyze->retypes;
      opts.retype_count = analyze->retype_count;
    }
  }
  opts.overrides = overrides;
  opts.override_count = extra + 1;
  /* The analyses and rooflines share the frontier's time budget rather than each getting
   * one (as a sweep's analyses do). */
  bool held = ctx->hold_deadline;
  ctx->hold_deadline = true;
  for (uint64_t v = fo->lo; rc == VXP_OK; v++) {
    overrides[extra].value = v;
    vxp_analysis *an = NULL;
    if ((rc = vxp_analyze(&an, ctx, prog, &opts)) != VXP_OK) break;
    vxp_frontier_point p;
    memset(&p, 0, sizeof(p));
    p.fit.value = v;
    p.tokens = fo->tokens_per_call ? fo->tokens_per_call : 1;
    rc = vxp_sweep__fit(ctx, &f->arena, an, NULL, fo->space, fo->margin_ppm, &p.fit);
    /* The formula at `lo` answers the largest fit too; the table below checks it. */
    if (rc == VXP_OK && v == fo->lo)
      rc = vxp_sweep__solve(an, fo->name, fo->lo, fo->hi, NULL, fo->space, fo->margin_ppm,
                            &f->solution, &f->solved);
    if (rc == VXP_OK && fo->tokens_const &&
        vxp_analysis_const_value(an, fo->tokens_const, &p.tokens) != VXP_OK)
      rc = VXP_ENOTFOUND; /* the context holds the reason */
    vxp_roofline *rf = NULL;
    if (rc == VXP_OK) rc = priced_function(ctx, an, fo->function, &rf);
    if (rc == VXP_OK && rf) {
      if (!f->function &&
          !(f->function = vxp_arena__strdup(ctx, &f->arena, vxp_roofline_function(rf))))
        rc = VXP_ENOMEM;
      if (rc == VXP_OK) rc = price(f, rf, fo->traffic, &p);
    } else if (rc == VXP_OK &&
               !(p.why_unbound = vxp_arena__strdup(ctx, &f->arena,
                                                   "no function has a spawn "
                                                   "region: no device work to price"))) {
      rc = VXP_ENOMEM;
    }
    vxp_roofline_free(rf);
    vxp_analysis_free(an);
    if (rc == VXP_OK && !arena_push(ctx, &f->arena, &f->points, p)) rc = VXP_ENOMEM;
    if (v == fo->hi) break;
  }
  ctx->hold_deadline = held;
  vxp_ctx__free(ctx, overrides);
  if (rc != VXP_OK) {
    vxp_frontier_free(f);
    return rc == VXP_ENOMEM ? vxp_ctx__nomem(ctx) : rc;
  }
  for (size_t i = 0; i < f->points.len; i++) {
    const vxp_frontier_point *p = &f->points.items[i];
    if (p->fit.fits) f->largest_fit = i;
    if (f->first_compute == SIZE_MAX && p->bound == VXP_BOUND_COMPUTE) f->first_compute = i;
    if (p->fit.fits && p->has_call &&
        (f->best == SIZE_MAX || per_second(p) > per_second(&f->points.items[f->best])))
      f->best = i;
  }
  *out = f;
  return VXP_OK;
}

int vxp_frontier_run(vxp_frontier **out, vxp_context *ctx, const vxp_program *prog,
                     const vxp_analyze_options *analyze, const vxp_frontier_options *fo) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, prog, VXP_TAG_PROGRAM);
  if (analyze) VXP__TAG_RC(ctx, analyze->machine, VXP_TAG_MACHINE);
  if (analyze) VXP__TAG_RC(ctx, analyze->host, VXP_TAG_MACHINE);
  vxp_defaults d;
  const vxp_analyze_options *use;
  int rc = vxp_defaults__lend(ctx, prog, analyze, &d, &use);
  if (rc == VXP_OK) rc = frontier_run(out, ctx, prog, use, fo);
  vxp_defaults__release(&d); /* the frontier keeps copies of what it reports */
  return rc;
}

/* ------------------------------------------------------------------ accessors */

const vxp_question *vxp_frontier__question(const vxp_frontier *f) { return &f->q; }
vxp_traffic_model vxp_frontier__traffic(const vxp_frontier *f) { return f->traffic; }
const char *vxp_frontier__tokens(const vxp_frontier *f) { return f->tokens; }
const vxp_solution *vxp_frontier__solution(const vxp_frontier *f, const char **why) {
  *why = vxp_sb__text(&f->solved);
  return &f->solution;
}

const char *vxp_frontier_function(const vxp_frontier *f) {
  VXP__TAG(f, VXP_TAG_FRONTIER, NULL);
  return f ? f->function : NULL;
}
size_t vxp_frontier_point_count(const vxp_frontier *f) {
  VXP__TAG(f, VXP_TAG_FRONTIER, 0);
  return f ? f->points.len : 0;
}

const vxp_frontier_point *vxp_frontier_point_at(const vxp_frontier *f, size_t i) {
  VXP__TAG(f, VXP_TAG_FRONTIER, NULL);

  return (f && i < f->points.len) ? &f->points.items[i] : NULL;
}

static const vxp_frontier_point *at_or_null(const vxp_frontier *f, size_t i) {
  return (f && i != SIZE_MAX) ? &f->points.items[i] : NULL;
}

const vxp_frontier_point *vxp_frontier_largest_fit(const vxp_frontier *f) {
  VXP__TAG(f, VXP_TAG_FRONTIER, NULL);

  return at_or_null(f, f ? f->largest_fit : SIZE_MAX);
}

const vxp_frontier_point *vxp_frontier_first_compute_bound(const vxp_frontier *f) {
  VXP__TAG(f, VXP_TAG_FRONTIER, NULL);

  return at_or_null(f, f ? f->first_compute : SIZE_MAX);
}

const vxp_frontier_point *vxp_frontier_best_fit(const vxp_frontier *f) {
  VXP__TAG(f, VXP_TAG_FRONTIER, NULL);

  return at_or_null(f, f ? f->best : SIZE_MAX);
}

uint64_t vxp_frontier_point_value(const vxp_frontier_point *p) { return p ? p->fit.value : 0; }
int vxp_frontier_point_fits(const vxp_frontier_point *p) { return p && p->fit.fits; }
uint64_t vxp_frontier_point_peak_bytes(const vxp_frontier_point *p) {
  return p ? p->fit.peak_bytes : 0;
}
uint64_t vxp_frontier_point_capacity_bytes(const vxp_frontier_point *p) {
  return p ? p->fit.capacity_bytes : 0;
}
const char *vxp_frontier_point_space(const vxp_frontier_point *p) {
  return p ? p->fit.space : NULL;
}
vxp_misfit vxp_frontier_point_reason(const vxp_frontier_point *p) {
  return p ? p->fit.reason : VXP_MISFIT_NONE;
}
const char *vxp_frontier_point_code(const vxp_frontier_point *p) {
  return (p && p->fit.code[0]) ? p->fit.code : NULL;
}
uint64_t vxp_frontier_point_tokens(const vxp_frontier_point *p) { return p ? p->tokens : 0; }

int vxp_frontier_point_memory_time_ps(const vxp_frontier_point *p, uint64_t *out) {
  if (!p || !p->has_memory) return 0;
  if (out) *out = p->memory_ps;
  return 1;
}

int vxp_frontier_point_compute_time_ps(const vxp_frontier_point *p, uint64_t *out) {
  if (!p || !p->has_compute) return 0;
  if (out) *out = p->compute_ps;
  return 1;
}

int vxp_frontier_point_call_time_ps(const vxp_frontier_point *p, uint64_t *out) {
  if (!p || !p->has_call) return 0;
  if (out) *out = p->call_ps;
  return 1;
}

uint64_t vxp_frontier_point_memory_bytes(const vxp_frontier_point *p) {
  return p ? p->memory_bytes : 0;
}
uint64_t vxp_frontier_point_ops(const vxp_frontier_point *p) { return p ? p->ops : 0; }
vxp_bound vxp_frontier_point_bound(const vxp_frontier_point *p) {
  return p ? p->bound : VXP_BOUND_NONE;
}
const char *vxp_frontier_point_bound_space(const vxp_frontier_point *p) {
  return p ? p->bound_space : NULL;
}
const char *vxp_frontier_point_unbound_reason(const vxp_frontier_point *p) {
  return p ? p->why_unbound : NULL;
}
