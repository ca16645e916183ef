/* SPDX-License-Identifier: Apache-2.0 */
/* check_report.c - the verdict as people read it (vxp_report_check; `vxpeak check`): each
 * peak against its capacity with the tiles that make it, the call trees that reach past their
 * function's own peak, the routes the transfers take, the pairs inside the margin, and the
 * verdict line. Its figures are numbers.h's, like every other text report. */
#include <stdio.h>

#include "analysis_data.h"
#include "formula.h"
#include "report.h"

/* At most this many hops of a path are printed (a chain of n functions would print n^2). */
#define MAX_PRINTED_HOPS 8

static void put_grouped(vxp_context *ctx, vxp_sb *sb, uint64_t v) {
  char buf[32];
  vxp_sb__puts(ctx, sb, vxp_num__grouped(v, buf));
}

static void put_binary(vxp_context *ctx, vxp_sb *sb, uint64_t v) {
  char buf[32];
  vxp_sb__puts(ctx, sb, vxp_num__binary(v, buf));
}

static void put_bytes(vxp_context *ctx, vxp_sb *sb, uint64_t v) {
  char buf[96];
  vxp_sb__puts(ctx, sb, vxp_num__bytes(v, buf));
}

/* Whether two routes say the same thing (for folding a run of identical transfers). */
static bool same_route(const vxp_route *a, const vxp_route *b) {
  uint64_t x, y;
  if (strcmp(vxp_route_function(a), vxp_route_function(b)) != 0) return false;
  if (vxp_route_path_length(a) != vxp_route_path_length(b)) return false;
  for (size_t i = 0; i < vxp_route_path_length(a); i++) {
    if (strcmp(vxp_route_path_space(a, i), vxp_route_path_space(b, i)) != 0) return false;
  }
  int ba = vxp_route_bytes(a, &x), bb = vxp_route_bytes(b, &y);
  if (ba != bb || (ba && x != y)) return false;
  int ca = vxp_route_derived_cost(a, &x), cb = vxp_route_derived_cost(b, &y);
  if (ca != cb || (ca && (x != y || vxp_route_cost_unit(a) != vxp_route_cost_unit(b))))
    return false;
  return true;
}

/* One line per run of identical consecutive routes:
 *   main: transfer at 17:21 routes CPU_DRAM -> HBM: 1,048,576 bytes in 33,288,127 ps
 *   (33.29 us, link_rate) */
static void routes(vxp_context *ctx, vxp_sb *sb, const vxp_analysis *an) {
  size_t n = vxp_analysis_route_count(an);
  for (size_t i = 0; i < n;) {
    const vxp_route *r = vxp_analysis_route(an, i);
    size_t run = 1;
    while (i + run < n && same_route(r, vxp_analysis_route(an, i + run)))
      run++;
    vxp_range first = vxp_route_range(r),
              last = vxp_route_range(vxp_analysis_route(an, i + run - 1));
    if (run == 1)
      vxp_sb__printf(ctx, sb, "%s: transfer at %u:%u routes ", vxp_route_function(r),
                     first.start.line + 1, first.start.column + 1);
    else
      vxp_sb__printf(ctx, sb, "%s: %zu transfers (lines %u-%u) route ", vxp_route_function(r), run,
                     first.start.line + 1, last.start.line + 1);
    for (size_t k = 0; k < vxp_route_path_length(r); k++)
      vxp_sb__printf(ctx, sb, "%s%s", k ? " -> " : "", vxp_route_path_space(r, k));
    uint64_t bytes, cost;
    const char *each = run > 1 ? " each" : "";
    if (vxp_route_bytes(r, &bytes)) {
      vxp_sb__puts(ctx, sb, ": ");
      put_grouped(ctx, sb, bytes);
      vxp_sb__printf(ctx, sb, " bytes%s", each);
    } else {
      vxp_sb__puts(ctx, sb, ": size not static");
    }
    if (vxp_route_derived_cost(r, &cost)) {
      vxp_sb__puts(ctx, sb, " in ");
      put_grouped(ctx, sb, cost);
      bool ps = vxp_route_cost_unit(r) == VXP_COST_UNIT_PS;
      vxp_sb__printf(ctx, sb, " %s%s (", ps ? "ps" : "cycles", each);
      if (ps) {
        char buf[32];
        vxp_sb__printf(ctx, sb, "%s, ", vxp_num__duration_fixed(cost, buf));
      }
      vxp_sb__printf(ctx, sb, "%s)", vxp_route_cost_source(r));
    } else if (vxp_route_bytes(r, NULL)) {
      vxp_sb__puts(ctx, sb,
                   ", no derived cost (no rate on the link, no bandwidths along the spaces)");
    }
    vxp_sb__putc(ctx, sb, '\n');
    i += run;
  }
}

/* A group of tiles live at the peak: those at function scope with one size, or those in the
 * releasing block at one depth (the tiles live at a peak lie on one chain of open blocks,
 * so there is one such block per depth). */
typedef struct live_group {
  uint32_t depth;
  uint64_t tile_bytes; /* function scope: the size shared by the group */
  uint64_t total;
  size_t count;
  size_t first, last; /* indices into the set's records, for the names */
  uint32_t first_line, last_line;
} live_group;

static const char *binding_or_unbound(const vxp_record *r) {
  const char *b = vxp_record_binding(r);
  return b ? b : "(unbound)";
}

/* Whether record `r` of a set belongs to group `g`. */
static bool in_group(const vxp_record *r, const live_group *g) {
  return vxp_record_live_at_peak(r) && vxp_record_scope_depth(r) == g->depth &&
         (g->depth > 0 || vxp_record_bytes(r) == g->tile_bytes);
}

/* The tiles live at a resident set's peak, grouped, one line per group (the first 64 groups):
 *   12.06 GiB: 32 tiles of 404,750,336 bytes at function scope (w0 ... w31) */
static void breakdown(vxp_context *ctx, vxp_sb *sb, const vxp_resident_set *rs) {
  if (vxp_resident_set_tile_count(rs) < 2) return;
  enum { MAX_GROUPS = 64 };
  live_group groups[MAX_GROUPS];
  size_t ngroups = 0, records = vxp_resident_set_record_count(rs);
  for (size_t i = 0; i < records; i++) {
    const vxp_record *r = vxp_resident_set_record(rs, i);
    if (!vxp_record_live_at_peak(r)) continue;
    uint32_t depth = vxp_record_scope_depth(r), line = vxp_record_range(r).start.line + 1;
    uint64_t bytes = vxp_record_bytes(r);
    live_group *g = NULL;
    for (size_t k = 0; k < ngroups && !g; k++) {
      if (groups[k].depth == depth && (depth > 0 || groups[k].tile_bytes == bytes)) g = &groups[k];
    }
    if (!g) {
      if (ngroups == MAX_GROUPS) continue;
      g = &groups[ngroups++];
      memset(g, 0, sizeof(*g));
      g->depth = depth;
      g->tile_bytes = bytes;
      g->first = i;
      g->first_line = line;
    }
    g->count++;
    g->total = g->total + bytes < g->total ? UINT64_MAX : g->total + bytes;
    g->last = i;
    g->last_line = line;
  }
  /* One unit for every line, the peak's own, so that the lines add up by eye. */
  uint64_t peak = vxp_resident_set_peak_bytes(rs), scale = 1;
  const char *unit = "B";
  if (peak >= (1ull << 30))
    scale = 1ull << 30, unit = "GiB";
  else if (peak >= (1ull << 20))
    scale = 1ull << 20, unit = "MiB";
  else if (peak >= (1ull << 10))
    scale = 1ull << 10, unit = "KiB";
  for (size_t k = 0; k < ngroups; k++) {
    const live_group *g = &groups[k];
    vxp_sb__puts(ctx, sb, "  ");
    if (scale == 1)
      vxp_sb__printf(ctx, sb, "%llu B", (unsigned long long)g->total);
    else
      vxp_sb__printf(ctx, sb, "%.2f %s", (double)g->total / (double)scale, unit);
    if (g->depth == 0) {
      vxp_sb__printf(ctx, sb, ": %zu tile%s of ", g->count, g->count == 1 ? "" : "s");
      put_grouped(ctx, sb, g->tile_bytes);
      vxp_sb__puts(ctx, sb, " bytes at function scope (");
    } else {
      vxp_sb__printf(ctx, sb, ": %zu tile%s in the block at depth %u, line%s %u", g->count,
                     g->count == 1 ? "" : "s", g->depth, g->first_line == g->last_line ? "" : "s",
                     g->first_line);
      if (g->last_line != g->first_line) vxp_sb__printf(ctx, sb, "-%u", g->last_line);
      vxp_sb__puts(ctx, sb, " (");
    }
    if (g->count > 7) {
      vxp_sb__printf(ctx, sb, "%s ... %s",
                     binding_or_unbound(vxp_resident_set_record(rs, g->first)),
                     binding_or_unbound(vxp_resident_set_record(rs, g->last)));
    } else {
      size_t printed = 0;
      for (size_t i = g->first; i <= g->last; i++) {
        const vxp_record *r = vxp_resident_set_record(rs, i);
        if (!in_group(r, g)) continue;
        vxp_sb__printf(ctx, sb, "%s%s", printed++ ? ", " : "", binding_or_unbound(r));
      }
    }
    vxp_sb__puts(ctx, sb, ")\n");
  }
}

/* The call trees that reach beyond their function's own peak, with the path:
 *   f: W over the call tree 6,291,456 bytes (6.00 MiB) of 4,194,304 (150.0%): f -> g
 *     3.00 MiB held by f across its call at 22:11
 *     3.00 MiB: g's own peak */
static void call_trees(vxp_context *ctx, vxp_sb *sb, const vxp_analysis *an) {
  size_t n = vxp_analysis_call_tree_count(an);
  for (size_t i = 0; i < n; i++) {
    const vxp_call_tree *ct = vxp_analysis_call_tree(an, i);
    size_t hops = vxp_call_tree_hop_count(ct);
    if (hops == 0 && vxp_call_tree_bounded(ct)) continue;
    uint64_t total = vxp_call_tree_total_bytes(ct), cap = vxp_call_tree_capacity_bytes(ct);
    vxp_sb__printf(ctx, sb, "%s: %s over the call tree ", vxp_call_tree_function(ct),
                   vxp_call_tree_space(ct));
    put_bytes(ctx, sb, total);
    vxp_sb__puts(ctx, sb, " of ");
    put_bytes(ctx, sb, cap);
    vxp_sb__printf(ctx, sb, " (%.1f%%)", cap ? 100.0 * (double)total / (double)cap : 0.0);
    bool whole = hops <= MAX_PRINTED_HOPS;
    if (hops) {
      vxp_sb__printf(ctx, sb, ": %s", vxp_call_tree_function(ct));
      size_t k = 0;
      for (const vxp_call_tree *t = ct; t && k < MAX_PRINTED_HOPS && vxp_call_tree_callee(t);
           t = vxp_call_tree_next(t), k++)
        vxp_sb__printf(ctx, sb, " -> %s", vxp_call_tree_callee(t));
      if (!whole) vxp_sb__printf(ctx, sb, " -> ... (%zu calls)", hops);
    }
    if (!vxp_call_tree_bounded(ct))
      vxp_sb__puts(ctx, sb, "; unbounded: it reaches a recursion that places tiles");
    vxp_sb__putc(ctx, sb, '\n');
    /* What each hop holds, then the last callee's own peak: the rest of the total. */
    uint64_t rest = total;
    size_t k = 0;
    const vxp_call_tree *t = ct;
    for (; t && k < MAX_PRINTED_HOPS && vxp_call_tree_callee(t); t = vxp_call_tree_next(t), k++) {
      uint64_t held = vxp_call_tree_held_bytes(t);
      rest -= held <= rest ? held : rest;
      if (!held) continue;
      vxp_range r = vxp_call_tree_call_range(t);
      vxp_sb__puts(ctx, sb, "  ");
      put_binary(ctx, sb, held);
      vxp_sb__printf(ctx, sb, " held by %s across its call at %u:%u\n", vxp_call_tree_function(t),
                     r.start.line + 1, r.start.column + 1);
    }
    if (hops && whole) {
      vxp_sb__puts(ctx, sb, "  ");
      put_binary(ctx, sb, rest);
      vxp_sb__printf(ctx, sb, ": %s's own peak\n", vxp_call_tree_function(t));
    } else if (hops) {
      vxp_sb__printf(ctx, sb, "  (the rest of the path: --format json, or %s's call tree)\n",
                     vxp_call_tree_function(t));
    }
  }
}

/* Whether call tree `ct` is within its capacity but over (10^6 - margin_ppm) millionths of
 * it; `budget` receives that share of the capacity. */
static bool inside_margin(const vxp_call_tree *ct, uint32_t margin_ppm, uint64_t *budget) {
  uint64_t total = vxp_call_tree_total_bytes(ct), cap = vxp_call_tree_capacity_bytes(ct);
  if (!cap || !margin_ppm || margin_ppm >= 1000000u) return false;
  u128 need = (u128)total * 1000000u;
  /* A share of what the device offers, a calibrated overhead included (machine.h). */
  u128 have = vxp_space__budget(ct->owner->view.spaces.items[ct->space], margin_ppm);
  if (budget) *budget = (uint64_t)(have / 1000000u);
  return need > have && total <= cap; /* over capacity is already an error */
}

size_t vxp_analysis_inside_margin(const vxp_analysis *an, uint32_t margin_ppm) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, 0);

  size_t count = 0, n = vxp_analysis_call_tree_count(an);
  for (size_t i = 0; i < n; i++)
    count += inside_margin(vxp_analysis_call_tree(an, i), margin_ppm, NULL);
  return count;
}

/* One line per (function, space) inside the margin; returns their number. */
static size_t margin_lines(vxp_context *ctx, vxp_sb *sb, const vxp_analysis *an,
                           uint32_t margin_ppm) {
  size_t count = 0, n = vxp_analysis_call_tree_count(an);
  char pct[32];
  vxp_num__ppm_percent(margin_ppm, pct);
  for (size_t i = 0; i < n; i++) {
    const vxp_call_tree *ct = vxp_analysis_call_tree(an, i);
    uint64_t budget;
    if (!inside_margin(ct, margin_ppm, &budget)) continue;
    count++;
    vxp_sb__printf(ctx, sb, "%s: %s needs ", vxp_call_tree_function(ct), vxp_call_tree_space(ct));
    put_bytes(ctx, sb, vxp_call_tree_total_bytes(ct));
    vxp_sb__puts(ctx, sb, ", more than the ");
    put_bytes(ctx, sb, budget);
    const vxp_space *sp = ct->owner->view.spaces.items[ct->space];
    if (sp->overhead) { /* the margin is of what the device offers, the overhead held in it */
      vxp_sb__printf(ctx, sb, " that leave %s%% of the ", pct);
      put_bytes(ctx, sb,
                (uint64_t)((u128)sp->capacity + sp->overhead > UINT64_MAX
                               ? UINT64_MAX
                               : sp->capacity + sp->overhead));
      vxp_sb__puts(ctx, sb, " the device offers free, beside the ");
      put_bytes(ctx, sb, sp->overhead);
      vxp_sb__puts(ctx, sb, " of calibrated overheads\n");
    } else {
      vxp_sb__printf(ctx, sb, " that leave %s%% of it free\n", pct);
    }
  }
  return count;
}

int vxp_report_check(vxp_report **out, vxp_context *ctx, const vxp_analysis *an,
                     const vxp_report_options *opts) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, an, VXP_TAG_ANALYSIS);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (out) *out = NULL;
  if (!out || !ctx || !an)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_report_check")
               : VXP_EINVAL;
  vxp_report_options o;
  int rc = vxp_report__options(ctx, opts, &o, VXP_REPORT__FORMAT(VXP_REPORT_TEXT));
  if (rc != VXP_OK) return rc;
  if (o.margin_ppm >= 1000000u)
    return vxp_ctx__error(ctx, VXP_EINVAL,
                          "vxp_report_check: a margin of %u millionths leaves nothing to fit in",
                          o.margin_ppm);
  if (o.formula && o.formula->an != an)
    return vxp_ctx__error(ctx, VXP_EINVAL, "vxp_report_check: the formula is of another analysis");
  vxp_sb sb = {0};
  vxp_sb__printf(ctx, &sb, "machine: %s", vxp_report__machine_name(an, &o));
  if (an->host) vxp_sb__printf(ctx, &sb, ", host %s", an->host->label);
  vxp_sb__putc(ctx, &sb, '\n');
  size_t sets = vxp_analysis_resident_set_count(an);
  for (size_t i = 0; i < sets; i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
    uint64_t peak = vxp_resident_set_peak_bytes(rs), cap = vxp_resident_set_capacity_bytes(rs);
    uint64_t sum;
    size_t tiles = vxp_resident_set_tile_count(rs);
    vxp_sb__printf(ctx, &sb, "%s: %s peak ", vxp_resident_set_function(rs),
                   vxp_resident_set_space(rs));
    put_bytes(ctx, &sb, peak);
    vxp_sb__puts(ctx, &sb, " of ");
    if (cap)
      put_bytes(ctx, &sb, cap);
    else
      vxp_sb__puts(ctx, &sb, "no capacity");
    vxp_sb__printf(ctx, &sb, " (%.1f%%), %zu tile%s live at the peak",
                   cap ? 100.0 * (double)peak / (double)cap : 0.0, tiles, tiles == 1 ? "" : "s");
    if (vxp_resident_set_allocated_bytes(rs, &sum)) {
      vxp_sb__puts(ctx, &sb, "; sum over the run ");
      put_bytes(ctx, &sb, sum);
    }
    vxp_sb__putc(ctx, &sb, '\n');
    vxp_formula__line(ctx, &sb, o.formula, rs);
    breakdown(ctx, &sb, rs);
  }
  call_trees(ctx, &sb, an);
  routes(ctx, &sb, an);
  size_t errors = vxp_analysis_error_count(an), warnings = vxp_analysis_warning_count(an);
  size_t tight = margin_lines(ctx, &sb, an, o.margin_ppm);
  vxp_sb__printf(ctx, &sb, "%s: %zu error%s, %zu warning%s",
                 vxp_analysis_admitted(an) && !tight ? "admitted" : "rejected", errors,
                 errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
  if (tight) vxp_sb__printf(ctx, &sb, ", %zu inside the margin", tight);
  vxp_sb__putc(ctx, &sb, '\n');
  return vxp_report__finish(out, ctx, &sb);
}
