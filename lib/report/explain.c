/* SPDX-License-Identifier: Apache-2.0 */
/* explain.c - what fills the peak (vxp_report_explain; `vxpeak explain`). For each (function,
 * space) the tiles live at the peak, grouped by the role the program names (`// role: NAME`
 * comments) and by source site, with bytes, GiB and share of the peak; then the sum over the
 * run beside the peak, and what the difference is made of. Every row is kept: the tables
 * grow with the program (there is no row limit). */
#include <stdio.h>

#include "analysis_data.h"
#include "array.h"
#include "formula.h"
#include "report.h"

/* A row of the role table or the site table: a run of tiles. */
typedef struct row {
  const char *role;   /* NULL: no role named */
  size_t first, last; /* indices into the resident set's records */
  size_t tiles;
  uint64_t bytes;      /* their sum */
  uint64_t tile_bytes; /* sites: the size they share */
  uint32_t depth;
  bool released;
} row;

/* A group of the sum over the run: tiles that run the same number of times. */
typedef struct run_group {
  bool held; /* held until the function returns */
  uint64_t runs;
  size_t tiles;
  uint64_t bytes; /* one placement each */
  uint64_t total; /* bytes x runs */
} run_group;

typedef struct explained {
  const vxp_resident_set *rs;
  const vxp_formula *formula; /* the peaks' formulas (`--symbolic`), or NULL */
  Array(row) roles;
  Array(row) sites;
  Array(run_group) sum;
  bool sum_known;
  uint64_t sum_total;
} explained;

static uint64_t add_sat(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

static uint64_t mul_sat(uint64_t a, uint64_t b) {
  return (b && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}

static bool same_role(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void explained_free(vxp_context *ctx, explained *e) {
  array_free(ctx, &e->roles);
  array_free(ctx, &e->sites);
  array_free(ctx, &e->sum);
}

/* Fill `e` (emptied first) for resident set `rs`; false on allocation failure. */
static bool explain_set(vxp_context *ctx, const vxp_resident_set *rs, explained *e) {
  e->roles.len = e->sites.len = e->sum.len = 0;
  e->rs = rs;
  e->sum_known = true;
  e->sum_total = 0;
  /* The set's own records (rows hold indices into them): a scan of every record per set
   * made explain quadratic (10^5 functions each placing a tile: minutes). */
  size_t n = vxp_resident_set_record_count(rs);
  for (size_t i = 0; i < n; i++) {
    const vxp_record *r = vxp_resident_set_record(rs, i);
    uint64_t bytes = vxp_record_bytes(r), runs = 0;
    bool held = !vxp_record_release_order(r, NULL);
    /* The sum over the run. */
    if (!vxp_record_runs(r, &runs))
      e->sum_known = false;
    else {
      run_group *g = NULL;
      for (size_t k = 0; k < e->sum.len && !g; k++)
        if (e->sum.items[k].held == held && e->sum.items[k].runs == runs) g = &e->sum.items[k];
      if (!g) {
        run_group fresh = {held, runs, 0, 0, 0};
        if (!array_push(ctx, &e->sum, fresh)) return false;
        g = array_last(&e->sum);
      }
      g->tiles++;
      g->bytes = add_sat(g->bytes, bytes);
      g->total = add_sat(g->total, mul_sat(bytes, runs));
      e->sum_total = add_sat(e->sum_total, mul_sat(bytes, runs));
    }
    if (!vxp_record_live_at_peak(r)) continue;
    const char *role = vxp_record_role(r);
    /* By role: one row per role (and one for tiles with none). */
    row *g = NULL;
    for (size_t k = 0; k < e->roles.len && !g; k++)
      if (same_role(e->roles.items[k].role, role)) g = &e->roles.items[k];
    if (!g) {
      row fresh = {role, i, i, 0, 0, 0, 0, false};
      if (!array_push(ctx, &e->roles, fresh)) return false;
      g = array_last(&e->roles);
    }
    g->tiles++;
    g->bytes = add_sat(g->bytes, bytes);
    g->last = i;
    /* By site: consecutive tiles of one role, size and depth fold into one row. */
    row *s = e->sites.len ? array_last(&e->sites) : NULL;
    uint32_t depth = vxp_record_scope_depth(r);
    if (!(s && same_role(s->role, role) && s->tile_bytes == bytes && s->depth == depth &&
          s->released == !held)) {
      row fresh = {role, i, i, 0, 0, bytes, depth, !held};
      if (!array_push(ctx, &e->sites, fresh)) return false;
      s = array_last(&e->sites);
    }
    s->tiles++;
    s->bytes = add_sat(s->bytes, bytes);
    s->last = i;
  }
  /* Roles by size, largest first (stable): what fills the peak reads top-down. */
  for (size_t a = 1; a < e->roles.len; a++) {
    row key = e->roles.items[a];
    size_t b = a;
    while (b > 0 && e->roles.items[b - 1].bytes < key.bytes) {
      e->roles.items[b] = e->roles.items[b - 1];
      b--;
    }
    e->roles.items[b] = key;
  }
  return true;
}

static double share(uint64_t part, uint64_t whole) {
  return whole ? (double)part / (double)whole : 0.0;
}

static const char *name_of(const vxp_record *r) {
  const char *b = vxp_record_binding(r);
  return b ? b : "(unbound)";
}

/* ------------------------------------------------------------------ text */

/* "w0 ... w31" or "embed, lm_head": the bindings of a row's live tiles. */
static void row_names(vxp_context *ctx, vxp_sb *sb, const explained *e, const row *rw) {
  if (rw->tiles > 3) {
    vxp_sb__printf(ctx, sb, "%s ... %s", name_of(vxp_resident_set_record(e->rs, rw->first)),
                   name_of(vxp_resident_set_record(e->rs, rw->last)));
    return;
  }
  bool first = true;
  for (size_t i = rw->first; i <= rw->last; i++) {
    const vxp_record *r = vxp_resident_set_record(e->rs, i);
    if (!vxp_record_live_at_peak(r)) continue;
    vxp_sb__printf(ctx, sb, "%s%s", first ? "" : ", ", name_of(r));
    first = false;
  }
}

static void text_set(vxp_context *ctx, vxp_sb *sb, const explained *e, const char *machine) {
  const vxp_resident_set *rs = e->rs;
  uint64_t peak = rs->peak_bytes, cap = rs->capacity_bytes;
  char b1[32], b2[32], b3[32], b4[32], p1[96], p2[96];
  vxp_sb__printf(ctx, sb, "%s: %s peak %s of %s on %s (%.1f%%), %zu tiles live at the peak\n",
                 rs->function_name, rs->space_name, vxp_num__bytes(peak, p1),
                 vxp_num__bytes(cap, p2), machine, 100.0 * share(peak, cap),
                 vxp_resident_set_tile_count(rs));
  vxp_formula__line(ctx, sb, e->formula, rs);
  vxp_sb__puts(ctx, sb,
               "\n  by role                     tiles            bytes       GiB   share\n");
  for (size_t k = 0; k < e->roles.len; k++) {
    const row *rw = &e->roles.items[k];
    vxp_sb__printf(ctx, sb, "  %-26s %6zu %16s %9s  %5.1f%%\n",
                   rw->role ? rw->role : "(no role named)", rw->tiles,
                   vxp_num__grouped(rw->bytes, b1), vxp_num__gib(rw->bytes, b2),
                   100.0 * share(rw->bytes, peak));
  }
  vxp_sb__printf(ctx, sb, "  %-26s %6zu %16s %9s  %5.1f%%\n", "peak",
                 vxp_resident_set_tile_count(rs), vxp_num__grouped(peak, b1),
                 vxp_num__gib(peak, b2), 100.0 * share(peak, peak));
  vxp_sb__puts(ctx, sb,
               "\n  by site        tiles       each            bytes       GiB   share  "
               "held                bindings\n");
  for (size_t k = 0; k < e->sites.len; k++) {
    const row *rw = &e->sites.items[k];
    uint32_t l1 = vxp_record_range(vxp_resident_set_record(e->rs, rw->first)).start.line + 1;
    uint32_t l2 = vxp_record_range(vxp_resident_set_record(e->rs, rw->last)).start.line + 1;
    char lines[40], held[40];
    if (l1 == l2)
      snprintf(lines, sizeof(lines), "line %u", l1);
    else
      snprintf(lines, sizeof(lines), "lines %u-%u", l1, l2);
    if (rw->released)
      snprintf(held, sizeof(held), "block, depth %u", rw->depth);
    else
      snprintf(held, sizeof(held), "%s", rw->depth ? "to the end" : "function scope");
    vxp_sb__printf(ctx, sb, "  %-13s %6zu %10s %16s %9s  %5.1f%%  %-18s  ", lines, rw->tiles,
                   vxp_num__binary(rw->tile_bytes, b3), vxp_num__grouped(rw->bytes, b1),
                   vxp_num__gib(rw->bytes, b2), 100.0 * share(rw->bytes, peak), held);
    row_names(ctx, sb, e, rw);
    if (rw->role) vxp_sb__printf(ctx, sb, " -- %s", rw->role);
    vxp_sb__putc(ctx, sb, '\n');
  }
  vxp_sb__putc(ctx, sb, '\n');
  if (!e->sum_known) {
    vxp_sb__puts(ctx, sb,
                 "  the sum over the run is not static (a trip count does not fold); "
                 "the peak is\n  what is live at once\n");
    return;
  }
  vxp_sb__printf(ctx, sb,
                 "  sum over the run %s bytes (%s GiB) against the peak %s bytes (%s GiB):\n",
                 vxp_num__grouped(e->sum_total, b1), vxp_num__gib(e->sum_total, b2),
                 vxp_num__grouped(peak, b3), vxp_num__gib(peak, b4));
  for (size_t k = 0; k < e->sum.len; k++) {
    const run_group *g = &e->sum.items[k];
    vxp_sb__printf(ctx, sb, "    %16s bytes (%s GiB): %zu tile%s placed %llu time%s each, ",
                   vxp_num__grouped(g->total, b1), vxp_num__gib(g->total, b2), g->tiles,
                   g->tiles == 1 ? "" : "s", (unsigned long long)g->runs, g->runs == 1 ? "" : "s");
    if (g->held)
      vxp_sb__printf(ctx, sb, "held until '%s' returns\n", rs->function_name);
    else
      vxp_sb__puts(ctx, sb, "released at the end of their block\n");
  }
  if (e->sum_total > peak)
    vxp_sb__printf(ctx, sb,
                   "  the difference, %s bytes (%s GiB), is never live at once: a "
                   "releasing block frees\n  its tiles before the next iteration "
                   "places them again\n",
                   vxp_num__grouped(e->sum_total - peak, b1),
                   vxp_num__gib(e->sum_total - peak, b2));
  else
    vxp_sb__puts(ctx, sb, "  every tile placed is live at the peak: the sum is the peak\n");
}

/* ------------------------------------------------------------------ JSON */

static void json_row(vxp_jw *j, const explained *e, const row *rw, bool site) {
  uint64_t peak = e->rs->peak_bytes;
  vxp_jw__open(j, '{');
  vxp_jw__key(j, "role");
  vxp_jw__string(j, rw->role);
  if (site) {
    vxp_jw__key(j, "line");
    vxp_jw__u64(j, vxp_record_range(vxp_resident_set_record(e->rs, rw->first)).start.line + 1);
    vxp_jw__key(j, "last_line");
    vxp_jw__u64(j, vxp_record_range(vxp_resident_set_record(e->rs, rw->last)).start.line + 1);
    vxp_jw__key(j, "depth");
    vxp_jw__u64(j, rw->depth);
    vxp_jw__key(j, "released");
    vxp_jw__bool(j, rw->released);
    vxp_jw__key(j, "tile_bytes");
    vxp_jw__u64(j, rw->tile_bytes);
  }
  vxp_jw__key(j, "bindings");
  vxp_jw__open(j, '[');
  for (size_t i = rw->first; i <= rw->last; i++) {
    const vxp_record *r = vxp_resident_set_record(e->rs, i);
    if (!vxp_record_live_at_peak(r)) continue;
    if (!same_role(vxp_record_role(r), rw->role)) continue;
    if (site && vxp_record_bytes(r) != rw->tile_bytes) continue;
    vxp_jw__string(j, vxp_record_binding(r));
  }
  vxp_jw__close(j, ']');
  vxp_jw__key(j, "tiles");
  vxp_jw__u64(j, rw->tiles);
  vxp_jw__key(j, "bytes");
  vxp_jw__u64(j, rw->bytes);
  vxp_jw__key(j, "gib");
  vxp_jw__real(j, (double)rw->bytes / 1073741824.0, 2);
  vxp_jw__key(j, "share");
  vxp_jw__real(j, share(rw->bytes, peak), 4);
  vxp_jw__close(j, '}');
}

static void json_set(vxp_jw *j, const explained *e) {
  const vxp_resident_set *rs = e->rs;
  uint64_t peak = rs->peak_bytes, cap = rs->capacity_bytes;
  vxp_jw__open(j, '{');
  vxp_jw__key(j, "function");
  vxp_jw__string(j, rs->function_name);
  vxp_jw__key(j, "space");
  vxp_jw__string(j, rs->space_name);
  vxp_jw__key(j, "peak_bytes");
  vxp_jw__u64(j, peak);
  vxp_jw__key(j, "peak_gib");
  vxp_jw__real(j, (double)peak / 1073741824.0, 2);
  vxp_jw__key(j, "capacity_bytes");
  vxp_jw__u64(j, cap);
  vxp_jw__key(j, "utilization");
  vxp_jw__real(j, share(peak, cap), 4);
  vxp_jw__key(j, "tiles");
  vxp_jw__u64(j, vxp_resident_set_tile_count(rs));
  const vxp_formula_set *fs = vxp_formula__for_set(e->formula, rs);
  if (fs) vxp_formula__json_keys(j, e->formula, fs);
  vxp_jw__key(j, "allocated_bytes");
  if (e->sum_known)
    vxp_jw__u64(j, e->sum_total);
  else
    vxp_jw__null(j);
  vxp_jw__key(j, "allocated_gib");
  if (e->sum_known)
    vxp_jw__real(j, (double)e->sum_total / 1073741824.0, 2);
  else
    vxp_jw__null(j);
  vxp_jw__key(j, "never_live_at_once_bytes");
  if (e->sum_known)
    vxp_jw__u64(j, e->sum_total > peak ? e->sum_total - peak : 0);
  else
    vxp_jw__null(j);
  vxp_jw__key(j, "by_role");
  vxp_jw__open(j, '[');
  for (size_t k = 0; k < e->roles.len; k++)
    json_row(j, e, &e->roles.items[k], false);
  vxp_jw__close(j, ']');
  vxp_jw__key(j, "by_site");
  vxp_jw__open(j, '[');
  for (size_t k = 0; k < e->sites.len; k++)
    json_row(j, e, &e->sites.items[k], true);
  vxp_jw__close(j, ']');
  vxp_jw__key(j, "sum_over_run");
  vxp_jw__open(j, '[');
  for (size_t k = 0; e->sum_known && k < e->sum.len; k++) {
    const run_group *g = &e->sum.items[k];
    vxp_jw__open(j, '{');
    vxp_jw__key(j, "held");
    vxp_jw__bool(j, g->held);
    vxp_jw__key(j, "runs");
    vxp_jw__u64(j, g->runs);
    vxp_jw__key(j, "tiles");
    vxp_jw__u64(j, g->tiles);
    vxp_jw__key(j, "bytes");
    vxp_jw__u64(j, g->total);
    vxp_jw__close(j, '}');
  }
  vxp_jw__close(j, ']');
  vxp_jw__close(j, '}');
}

/* ------------------------------------------------------------------ the report */

int vxp_report_explain(vxp_report **out, vxp_context *ctx, const vxp_analysis *an,
                       const vxp_report_options *opts) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, an, VXP_TAG_ANALYSIS);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (!out || !ctx || !an)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_report_explain")
               : VXP_EINVAL;
  vxp_report_options o;
  int rc = vxp_report__options(ctx, opts, &o, VXP_REPORT__TEXT_JSON);
  if (rc != VXP_OK) return rc;
  bool json = o.format == VXP_REPORT_JSON;
  const char *machine = vxp_report__machine_name(an, &o);
  vxp_sb sb = {0};
  vxp_jw j;
  vxp_jw__init(&j, ctx, &sb, true);
  if (json) {
    vxp_jw__open(&j, '{');
    vxp_jw__header(&j, "vxpeak-explain-v1", an, true);
    vxp_jw__key(&j, "resident_sets");
    vxp_jw__open(&j, '[');
  }
  explained e;
  memset(&e, 0, sizeof(e));
  if (o.formula && o.formula->an != an)
    return vxp_ctx__error(ctx, VXP_EINVAL,
                          "vxp_report_explain: the formula is of another analysis");
  e.formula = o.formula;
  size_t shown = 0;
  for (size_t i = 0; i < an->resident_sets.len && !sb.failed; i++) {
    const vxp_resident_set *rs = &an->resident_sets.items[i];
    if (o.function && strcmp(o.function, rs->function_name) != 0) continue;
    if (o.space && strcmp(o.space, rs->space_name) != 0) continue;
    if (!explain_set(ctx, rs, &e)) {
      sb.failed = true;
      break;
    }
    if (json)
      json_set(&j, &e);
    else {
      if (shown) vxp_sb__putc(ctx, &sb, '\n');
      text_set(ctx, &sb, &e, machine);
    }
    shown++;
  }
  explained_free(ctx, &e);
  if (json) {
    vxp_jw__close(&j, ']');
    vxp_jw__close(&j, '}');
  } else if (shown == 0) {
    vxp_sb__printf(ctx, &sb,
                   "no tile is placed in a space with a capacity%s%s: nothing to explain\n",
                   o.function ? " by " : "", o.function ? o.function : "");
  }
  return vxp_report__finish(out, ctx, &sb);
}
