/* SPDX-License-Identifier: Apache-2.0 */
/* frontier_report.c - the batch frontier's report (vxp_report_frontier; `vxpeak frontier`):
 * for every value of a constant, whether the program fits with the margin, one call's time,
 * tokens per second and the bound; then the largest value that fits, where memory turns to
 * compute, and the best throughput that fits; as text, JSON (vxpeak-frontier-v1) or an SVG
 * picture of tokens/s against the constant with both ceilings and the capacity wall. It reads
 * the frontier through its public accessors and the question it kept (frontier.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "context.h"
#include "frontier.h"
#include "sweep_formula.h"
#include "report.h"

/* Tokens per second at a point: tokens x 10^12 / call time in ps; 0 when unknown. */
static double tokens_per_second(const vxp_frontier_point *p) {
  uint64_t ps = 0;
  if (!vxp_frontier_point_call_time_ps(p, &ps) || ps == 0) return 0.0;
  return 1e12 / (double)ps * (double)vxp_frontier_point_tokens(p);
}

static const char *fit_text(const vxp_frontier_point *p, char buf[48]) {
  const char *code = vxp_frontier_point_code(p);
  switch (vxp_frontier_point_reason(p)) {
  case VXP_MISFIT_NONE: return "yes";
  case VXP_MISFIT_WITHIN_MARGIN: return "no: in the margin";
  case VXP_MISFIT_OVER_CAPACITY: return "no: over capacity";
  case VXP_MISFIT_SIZE_UNKNOWN: return "no: size unknown";
  case VXP_MISFIT_ERROR: break;
  }
  snprintf(buf, 48, "no: error %s", code ? code : "");
  return buf;
}

/* The bound and by how much ("memory (HBM), 36.9x"), appended to `sb`. */
static void bound_text(vxp_context *ctx, vxp_sb *sb, const vxp_frontier_point *p) {
  const char *bound = vxp_bound_name(vxp_frontier_point_bound(p));
  uint64_t mem = 0, comp = 0;
  if (!bound) {
    vxp_sb__puts(ctx, sb, "not named");
    return;
  }
  vxp_frontier_point_memory_time_ps(p, &mem);
  vxp_frontier_point_compute_time_ps(p, &comp);
  bool by_memory = vxp_frontier_point_bound(p) == VXP_BOUND_MEMORY;
  double ratio =
      by_memory ? (comp ? (double)mem / (double)comp : INFINITY) : (double)comp / (double)mem;
  if (isinf(ratio))
    vxp_sb__printf(ctx, sb, "%s (%s), no arithmetic", bound, vxp_frontier_point_bound_space(p));
  else
    vxp_sb__printf(ctx, sb, "%s%s%s%s, %.3gx", bound, by_memory ? " (" : "",
                   by_memory ? vxp_frontier_point_bound_space(p) : "", by_memory ? ")" : "", ratio);
}

/* Whether the formula's answer is the table's (both found and equal, or both none). */
static bool formula_agrees(const vxp_solution *sol, const vxp_frontier_point *largest) {
  return sol->found ? largest && vxp_frontier_point_value(largest) == sol->value : !largest;
}

/* How the formula at `lo` answers the largest fit, beside the table's answer. */
static void formula_line(vxp_context *ctx, vxp_sb *sb, const vxp_frontier *f,
                         const vxp_frontier_point *largest) {
  const char *why;
  const vxp_solution *sol = vxp_frontier__solution(f, &why);
  const char *name = vxp_frontier__question(f)->name;
  if (sol->how == VXP_SOLVE_NONE) {
    vxp_sb__printf(ctx, sb, "by the formula: none (%s)\n", why);
    return;
  }
  const char *how = sol->how == VXP_SOLVE_CLOSED ? "in closed form" : "on the formula";
  char answer[32];
  if (sol->found)
    snprintf(answer, sizeof(answer), "%llu", (unsigned long long)sol->value);
  else
    snprintf(answer, sizeof(answer), "none");
  if (formula_agrees(sol, largest))
    vxp_sb__printf(ctx, sb, "by the formula: %s = %s, solved %s (%s); the analyses agree\n", name,
                   answer, how, why);
  else
    vxp_sb__printf(ctx, sb,
                   "by the formula: %s = %s, solved %s (%s); the analyses decide otherwise (a "
                   "call tree or a diagnostic the formula does not hold)\n",
                   name, answer, how, why);
}

static void print_text(vxp_context *ctx, vxp_sb *sb, const vxp_frontier *f, const char *machine) {
  const vxp_question *q = vxp_frontier__question(f);
  bool no_reuse = vxp_frontier__traffic(f) == VXP_TRAFFIC_NO_REUSE;
  char b1[32], b2[32], b3[32], b4[96], b5[48];
  const char *fn = vxp_frontier_function(f);
  vxp_sb__printf(
      ctx, sb,
      "%s on %s: %s in %llu..%llu, a call is %s; capacity with %s%% kept free; traffic %s; "
      "tokens per call: %s\n",
      q->file, machine, q->name, (unsigned long long)q->lo, (unsigned long long)q->hi,
      fn ? fn : "(none: no spawn region)", vxp_num__ppm_percent(q->margin_ppm, b1),
      no_reuse ? "no-reuse" : "compulsory (each element of a tile once per call)",
      vxp_frontier__tokens(f));
  vxp_sb__printf(ctx, sb, "%8s %42s %7s %-18s %10s %12s  %s\n", q->name, "peak bytes", "of cap",
                 "fits", "time/call", "tokens/s", "bound");
  for (size_t i = 0; i < vxp_frontier_point_count(f); i++) {
    const vxp_frontier_point *p = vxp_frontier_point_at(f, i);
    uint64_t peak = vxp_frontier_point_peak_bytes(p), cap = vxp_frontier_point_capacity_bytes(p);
    uint64_t call = 0;
    char share[16] = "-";
    if (cap) snprintf(share, sizeof(share), "%.1f%%", 100.0 * (double)peak / (double)cap);
    char peak_text[64];
    snprintf(peak_text, sizeof(peak_text), "%s (%s)", vxp_num__grouped(peak, b2),
             vxp_num__decimal(peak, b3));
    bool has_call = vxp_frontier_point_call_time_ps(p, &call);
    /* Without a compute time the memory time is a lower bound on the call. */
    char time_text[40] = "-", tps_text[40] = "-";
    uint64_t mem = 0;
    if (has_call) {
      snprintf(time_text, sizeof(time_text), "%s", vxp_num__duration(call, b1));
      snprintf(tps_text, sizeof(tps_text), "%s", vxp_num__per_second(tokens_per_second(p), b2));
    } else if (vxp_frontier_point_memory_time_ps(p, &mem) && mem) {
      snprintf(time_text, sizeof(time_text), ">= %s", vxp_num__duration(mem, b1));
      snprintf(tps_text, sizeof(tps_text), "<= %s",
               vxp_num__per_second(1e12 / (double)mem * (double)vxp_frontier_point_tokens(p), b2));
    }
    vxp_sb__printf(ctx, sb, "%8llu %42s %7s %-18s %10s %12s  ",
                   (unsigned long long)vxp_frontier_point_value(p), peak_text, share,
                   fit_text(p, b5), time_text, tps_text);
    bound_text(ctx, sb, p);
    vxp_sb__putc(ctx, sb, '\n');
  }
  const vxp_frontier_point *largest = vxp_frontier_largest_fit(f);
  const vxp_frontier_point *turn = vxp_frontier_first_compute_bound(f);
  const vxp_frontier_point *best = vxp_frontier_best_fit(f);
  const vxp_frontier_point *any = vxp_frontier_point_at(f, 0);
  uint64_t cap = any ? vxp_frontier_point_capacity_bytes(any) : 0;
  if (cap)
    vxp_sb__printf(ctx, sb, "capacity: %s of %s\n", vxp_num__bytes(cap, b4),
                   any && vxp_frontier_point_space(any) ? vxp_frontier_point_space(any) : "?");
  if (largest)
    vxp_sb__printf(ctx, sb, "largest %s that fits: %llu (peak %s)\n", q->name,
                   (unsigned long long)vxp_frontier_point_value(largest),
                   vxp_num__bytes(vxp_frontier_point_peak_bytes(largest), b4));
  else
    vxp_sb__printf(ctx, sb, "largest %s that fits: none in %llu..%llu\n", q->name,
                   (unsigned long long)q->lo, (unsigned long long)q->hi);
  formula_line(ctx, sb, f, largest);
  if (turn)
    vxp_sb__printf(ctx, sb, "memory turns to compute at %s = %llu%s\n", q->name,
                   (unsigned long long)vxp_frontier_point_value(turn),
                   vxp_frontier_point_fits(turn) ? "" : " (which does not fit)");
  else if (any && vxp_frontier_point_bound(any) == VXP_BOUND_NONE)
    vxp_sb__printf(ctx, sb, "the bound cannot be named: %s\n",
                   vxp_frontier_point_unbound_reason(any));
  else
    vxp_sb__printf(ctx, sb, "compute never binds in %llu..%llu: every call is bound by memory\n",
                   (unsigned long long)q->lo, (unsigned long long)q->hi);
  if (best) {
    uint64_t call = 0;
    vxp_frontier_point_call_time_ps(best, &call);
    vxp_sb__printf(ctx, sb,
                   "best throughput that fits: %s = %llu, %s tokens/s (%s per call, bound by %s)\n",
                   q->name, (unsigned long long)vxp_frontier_point_value(best),
                   vxp_num__per_second(tokens_per_second(best), b1), vxp_num__duration(call, b2),
                   vxp_frontier_point_bound(best) ? vxp_bound_name(vxp_frontier_point_bound(best))
                                                  : "memory at least");
  } else {
    vxp_sb__printf(ctx, sb,
                   "best throughput that fits: none (nothing fits with a known call time)\n");
  }
}

static void json_opt(vxp_jw *j, int has, uint64_t v) {
  if (has)
    vxp_jw__u64(j, v);
  else
    vxp_jw__null(j);
}

static void json_point(vxp_jw *j, const vxp_frontier_point *p) {
  uint64_t v = 0;
  if (!p) {
    vxp_jw__null(j);
    return;
  }
  vxp_jw__open(j, '{');
  vxp_jw__key(j, "value");
  vxp_jw__u64(j, vxp_frontier_point_value(p));
  vxp_jw__key(j, "fits");
  vxp_jw__bool(j, vxp_frontier_point_fits(p));
  vxp_jw__key(j, "reason");
  vxp_jw__string(j, vxp_misfit_name(vxp_frontier_point_reason(p)));
  vxp_jw__key(j, "code");
  vxp_jw__string(j, vxp_frontier_point_code(p));
  vxp_jw__key(j, "space");
  vxp_jw__string(j, vxp_frontier_point_space(p));
  vxp_jw__key(j, "peak_bytes");
  vxp_jw__u64(j, vxp_frontier_point_peak_bytes(p));
  vxp_jw__key(j, "capacity_bytes");
  vxp_jw__u64(j, vxp_frontier_point_capacity_bytes(p));
  vxp_jw__key(j, "memory_bytes");
  vxp_jw__u64(j, vxp_frontier_point_memory_bytes(p));
  vxp_jw__key(j, "operations");
  vxp_jw__u64(j, vxp_frontier_point_ops(p));
  int has = vxp_frontier_point_memory_time_ps(p, &v);
  vxp_jw__key(j, "memory_time_ps");
  json_opt(j, has, v);
  has = vxp_frontier_point_compute_time_ps(p, &v);
  vxp_jw__key(j, "compute_time_ps");
  json_opt(j, has, v);
  has = vxp_frontier_point_call_time_ps(p, &v);
  vxp_jw__key(j, "call_time_ps");
  json_opt(j, has, v);
  vxp_jw__key(j, "tokens_per_call");
  vxp_jw__u64(j, vxp_frontier_point_tokens(p));
  vxp_jw__key(j, "tokens_per_second");
  if (has)
    vxp_jw__real(j, tokens_per_second(p), 3);
  else
    vxp_jw__null(j);
  vxp_jw__key(j, "bound");
  vxp_jw__string(j, vxp_bound_name(vxp_frontier_point_bound(p)));
  vxp_jw__key(j, "bound_space");
  vxp_jw__string(j, vxp_frontier_point_bound_space(p));
  vxp_jw__key(j, "unbound_reason");
  vxp_jw__string(j, vxp_frontier_point_unbound_reason(p));
  vxp_jw__close(j, '}');
}

static void print_json(vxp_context *ctx, vxp_sb *sb, const vxp_frontier *f) {
  const vxp_question *q = vxp_frontier__question(f);
  bool no_reuse = vxp_frontier__traffic(f) == VXP_TRAFFIC_NO_REUSE;
  vxp_jw j;
  vxp_jw__init(&j, ctx, sb, true);
  vxp_jw__open(&j, '{');
  vxp_jw__key(&j, "schema");
  vxp_jw__string(&j, "vxpeak-frontier-v1");
  vxp_jw__key(&j, "file");
  vxp_jw__string(&j, q->file);
  vxp_jw__key(&j, "machine");
  vxp_jw__string(&j, q->machine);
  vxp_jw__key(&j, "host");
  vxp_jw__string(&j, q->host);
  vxp_jw__key(&j, "defines");
  vxp_jw__open(&j, '{');
  for (size_t i = 0; i < q->define_count; i++) {
    vxp_jw__key(&j, q->defines[i].name);
    vxp_jw__u64(&j, q->defines[i].value);
  }
  vxp_jw__close(&j, '}');
  vxp_jw__key(&j, "const");
  vxp_jw__string(&j, q->name);
  vxp_jw__key(&j, "lo");
  vxp_jw__u64(&j, q->lo);
  vxp_jw__key(&j, "hi");
  vxp_jw__u64(&j, q->hi);
  vxp_jw__key(&j, "margin_ppm");
  vxp_jw__u64(&j, q->margin_ppm);
  vxp_jw__key(&j, "traffic_model");
  vxp_jw__string(&j, no_reuse ? "no_reuse" : "compulsory");
  vxp_jw__key(&j, "tokens_per_call");
  vxp_jw__string(&j, vxp_frontier__tokens(f));
  vxp_jw__key(&j, "function");
  vxp_jw__string(&j, vxp_frontier_function(f));
  vxp_jw__key(&j, "largest_fit");
  json_point(&j, vxp_frontier_largest_fit(f));
  {
    const char *why;
    const vxp_solution *sol = vxp_frontier__solution(f, &why);
    vxp_jw__key(&j, "largest_fit_by_formula");
    vxp_jw__open(&j, '{');
    vxp_jw__key(&j, "method");
    vxp_jw__string(&j, sol->how == VXP_SOLVE_CLOSED   ? "closed_form"
                       : sol->how == VXP_SOLVE_SEARCH ? "formula_bisection"
                                                      : NULL);
    vxp_jw__key(&j, "value");
    if (sol->how != VXP_SOLVE_NONE && sol->found)
      vxp_jw__u64(&j, sol->value);
    else
      vxp_jw__null(&j);
    vxp_jw__key(&j, "agrees");
    vxp_jw__bool(&j,
                 sol->how != VXP_SOLVE_NONE && formula_agrees(sol, vxp_frontier_largest_fit(f)));
    vxp_jw__key(&j, "reason");
    vxp_jw__string(&j, why);
    vxp_jw__close(&j, '}');
  }
  vxp_jw__key(&j, "first_compute_bound");
  json_point(&j, vxp_frontier_first_compute_bound(f));
  vxp_jw__key(&j, "best_fit");
  json_point(&j, vxp_frontier_best_fit(f));
  vxp_jw__key(&j, "points");
  vxp_jw__open(&j, '[');
  for (size_t i = 0; i < vxp_frontier_point_count(f); i++)
    json_point(&j, vxp_frontier_point_at(f, i));
  vxp_jw__close(&j, ']');
  vxp_jw__close(&j, '}');
}

/* ------------------------------------------------------------------ the picture */

/* Throughput (log scale) against the constant (log scale when it spans a decade): each
 * value's tokens/s as a dot (filled when it fits), the bandwidth ceiling (tokens per
 * memory time) and the compute ceiling (tokens per compute time) as lines, and the
 * capacity wall as a vertical line after the largest value that fits. Every mark carries
 * its figures as data-* attributes, which tests/plot/check_frontier.py compares with the
 * JSON report. */
static double tps(uint64_t tokens, int has, uint64_t ps) {
  return has && ps ? 1e12 / (double)ps * (double)tokens : 0.0;
}

/* A generous width for `n` bytes of 12px sans-serif text: 0.6 em a character, wider than
 * DejaVu Sans' or Liberation Sans' average, so that a label placed by it has room as drawn
 * (tests/plot/text_boxes.py measures the real boxes in Chromium). */
static double label_width(size_t n) { return 7.2 * (double)n; }

static void print_svg(vxp_context *ctx, vxp_sb *sb, const vxp_frontier *f, const char *machine) {
  const vxp_question *q = vxp_frontier__question(f);
  bool no_reuse = vxp_frontier__traffic(f) == VXP_TRAFFIC_NO_REUSE;
  /* The top margin holds three rows of text, clear of the plot's lines and dots: the title
   * (baseline 24), the legend (baseline T - 34) and the capacity label at the wall's top
   * (baseline T - 8), each row's labels apart from each other. */
  const double W = 960, H = 480, L = 90, R = 30, T = 80, B = 60;
  size_t n = vxp_frontier_point_count(f);
  double ymin = INFINITY, ymax = 0;
  for (size_t i = 0; i < n; i++) {
    const vxp_frontier_point *p = vxp_frontier_point_at(f, i);
    uint64_t v = 0, tok = vxp_frontier_point_tokens(p);
    double ys[3];
    int h0 = vxp_frontier_point_call_time_ps(p, &v);
    ys[0] = tps(tok, h0, v);
    int h1 = vxp_frontier_point_memory_time_ps(p, &v);
    ys[1] = tps(tok, h1, v);
    int h2 = vxp_frontier_point_compute_time_ps(p, &v);
    ys[2] = tps(tok, h2, v);
    for (int k = 0; k < 3; k++) {
      if (ys[k] <= 0) continue;
      if (ys[k] < ymin) ymin = ys[k];
      if (ys[k] > ymax) ymax = ys[k];
    }
  }
  if (!(ymax > 0)) ymin = 1, ymax = 10;
  double ly0 = floor(log10(ymin)), ly1 = ceil(log10(ymax));
  if (ly1 <= ly0) ly1 = ly0 + 1;
  double x0 = (double)q->lo, x1 = (double)q->hi;
  bool logx = x0 >= 1 && x1 / x0 >= 10;
  double lx0 = logx ? log10(x0) : x0, lx1 = logx ? log10(x1) : x1;
  if (lx1 <= lx0) lx1 = lx0 + 1;
#define PX(x) (L + ((logx ? log10(x) : (x)) - lx0) / (lx1 - lx0) * (W - L - R))
#define PY(y) (H - B - (log10(y) - ly0) / (ly1 - ly0) * (H - T - B))
  char b1[32];
  /* The file and machine names are the caller's text: escaped for XML. */
  vxp_sb__printf(ctx, sb,
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                 "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\" "
                 "data-const=\"%s\" data-machine=\"",
                 W, H, W, H, q->name);
  vxp_report__xml(ctx, sb, machine);
  vxp_sb__puts(ctx, sb, "\">\n");
  vxp_sb__printf(ctx, sb, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  vxp_sb__printf(ctx, sb, "<text x=\"%.0f\" y=\"24\" font-size=\"15\">", L);
  vxp_report__xml(ctx, sb, q->file);
  vxp_sb__puts(ctx, sb, " on ");
  vxp_report__xml(ctx, sb, machine);
  vxp_sb__printf(ctx, sb, ": tokens/s against %s (%s traffic)</text>\n", q->name,
                 no_reuse ? "no-reuse" : "compulsory");
  /* Axes and decades. */
  vxp_sb__printf(ctx, sb,
                 "<g stroke=\"#888\" fill=\"none\"><path d=\"M%.1f %.1f V%.1f H%.1f\"/></g>\n", L,
                 T, H - B, W - R);
  for (double d = ly0; d <= ly1; d++) {
    double y = PY(pow(10, d));
    vxp_sb__printf(ctx, sb,
                   "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
                   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                   L, W - R, y, y, L - 6, y + 4, vxp_num__per_second(pow(10, d), b1));
  }
  /* Ticks on the constant: powers of two on a log scale, else about eight steps. */
  double step = logx ? 2 : fmax(1, ceil((x1 - x0) / 8));
  for (double x = logx ? pow(2, ceil(log2(x0))) : x0; x <= x1; x = logx ? x * step : x + step)
    vxp_sb__printf(ctx, sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n",
                   PX(x), H - B + 16, x);
  vxp_sb__printf(ctx, sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                 (W + L - R) / 2, H - 18, q->name);
  vxp_sb__printf(ctx, sb,
                 "<text x=\"18\" y=\"%.1f\" transform=\"rotate(-90 18 %.1f)\" "
                 "text-anchor=\"middle\">tokens/s</text>\n",
                 (H - B + T) / 2, (H - B + T) / 2);
  /* Ceilings: polylines over the values that have them. */
  const char *names[2] = {"bandwidth", "compute"};
  const char *colors[2] = {"#1f77b4", "#d62728"};
  for (int k = 0; k < 2; k++) {
    vxp_sb__printf(ctx, sb,
                   "<polyline class=\"ceiling\" data-ceiling=\"%s\" fill=\"none\" stroke=\"%s\" "
                   "stroke-dasharray=\"6 4\" points=\"",
                   names[k], colors[k]);
    for (size_t i = 0; i < n; i++) {
      const vxp_frontier_point *p = vxp_frontier_point_at(f, i);
      uint64_t v = 0;
      int has = k == 0 ? vxp_frontier_point_memory_time_ps(p, &v)
                       : vxp_frontier_point_compute_time_ps(p, &v);
      double y = tps(vxp_frontier_point_tokens(p), has, v);
      double x = (double)vxp_frontier_point_value(p);
      if (y > 0 && (!logx || x > 0)) vxp_sb__printf(ctx, sb, "%.1f,%.1f ", PX(x), PY(y));
    }
    vxp_sb__printf(ctx, sb, "\"/>\n");
  }
  /* The capacity wall, after the largest value that fits. */
  const vxp_frontier_point *largest = vxp_frontier_largest_fit(f);
  if (largest && vxp_frontier_point_value(largest) < q->hi) {
    double x = PX((double)vxp_frontier_point_value(largest) + 0.5);
    unsigned long long fit = (unsigned long long)vxp_frontier_point_value(largest);
    /* The label goes above the plot at the wall's top, right of it, or left of it when it
     * would leave the canvas there (a wall near the right edge once pushed it off). */
    size_t nd = 1;
    for (unsigned long long v = fit; v >= 10; v /= 10)
      nd++;
    double width = label_width(strlen("capacity:  =  fits") + strlen(q->name) + nd);
    bool right = x + 4 + width <= W - R;
    vxp_sb__printf(
        ctx, sb,
        "<line class=\"capacity-wall\" data-largest-fit=\"%llu\" x1=\"%.1f\" "
        "x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#555\" stroke-width=\"2\"/>"
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">capacity: %s = %llu fits</text>\n",
        fit, x, x, T - 20, H - B, right ? x + 4 : x - 4, T - 8, right ? "start" : "end", q->name,
        fit);
  }
  /* The points. */
  for (size_t i = 0; i < n; i++) {
    const vxp_frontier_point *p = vxp_frontier_point_at(f, i);
    uint64_t call = 0;
    int has = vxp_frontier_point_call_time_ps(p, &call);
    double y = tps(vxp_frontier_point_tokens(p), has, call);
    double x = (double)vxp_frontier_point_value(p);
    if (!(y > 0) || (logx && x <= 0)) continue;
    bool fits = vxp_frontier_point_fits(p);
    const char *bound = vxp_bound_name(vxp_frontier_point_bound(p));
    vxp_sb__printf(
        ctx, sb,
        "<circle class=\"point\" data-value=\"%llu\" data-fits=\"%s\" "
        "data-tokens-per-second=\"%.3f\" data-bound=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
        "fill=\"%s\" stroke=\"#222\"><title>%s = %llu: %s tokens/s, %s, %s</title></circle>\n",
        (unsigned long long)vxp_frontier_point_value(p), fits ? "true" : "false", y,
        bound ? bound : "", PX(x), PY(y), fits ? "#2ca02c" : "white", q->name,
        (unsigned long long)vxp_frontier_point_value(p), vxp_num__per_second(y, b1),
        fits ? "fits" : "does not fit", bound ? bound : "bound not named");
  }
  /* The legend: a row of its own in the top margin, right-aligned, so that nothing drawn
   * in the plot (the capacity label above all) can land on it. */
  const char *legend[2] = {"- - bandwidth ceiling", "- - compute ceiling"};
  double lx = W - R;
  for (int k = 1; k >= 0; k--) {
    vxp_sb__printf(ctx, sb,
                   "<text x=\"%.0f\" y=\"%.0f\" fill=\"%s\" text-anchor=\"end\">%s</text>\n", lx,
                   T - 34, colors[k], legend[k]);
    lx -= label_width(strlen(legend[k])) + 24;
  }
  vxp_sb__printf(ctx, sb, "</svg>\n");
#undef PX
#undef PY
}

int vxp_report_frontier(vxp_report **out, vxp_context *ctx, const vxp_frontier *f,
                        const vxp_report_options *opts) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, f, VXP_TAG_FRONTIER);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (!out || !ctx || !f)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_report_frontier")
               : VXP_EINVAL;
  vxp_report_options o;
  int rc = vxp_report__options(ctx, opts, &o,
                               VXP_REPORT__TEXT_JSON | VXP_REPORT__FORMAT(VXP_REPORT_SVG));
  if (rc != VXP_OK) return rc;
  const vxp_question *q = vxp_frontier__question(f);
  const char *machine = o.machine    ? o.machine
                        : q->machine ? q->machine
                                     : "the program's own declarations";
  vxp_sb sb = {0};
  if (o.format == VXP_REPORT_JSON)
    print_json(ctx, &sb, f);
  else if (o.format == VXP_REPORT_SVG)
    print_svg(ctx, &sb, f, machine);
  else
    print_text(ctx, &sb, f, machine);
  return vxp_report__finish(out, ctx, &sb);
}
