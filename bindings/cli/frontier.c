/* SPDX-License-Identifier: Apache-2.0 */
/* frontier.c - `vxpeak frontier`: for every value of a constant (a batch size), whether the
 * program fits with the margin, one call's time, tokens per second and the bound; then the
 * largest value that fits, where memory turns to compute, and the best throughput that
 * fits. vxp_frontier_run does the work and vxp_report_frontier renders the text and JSON;
 * the SVG picture is drawn here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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

static void print_svg(FILE *out, const vxpeak_args *args, const vxpeak_target *t,
                      const vxp_frontier *f) {
  const double W = 960, H = 480, L = 90, R = 30, T = 50, B = 60;
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
  double x0 = (double)args->sweep_lo, x1 = (double)args->sweep_hi;
  bool logx = x0 >= 1 && x1 / x0 >= 10;
  double lx0 = logx ? log10(x0) : x0, lx1 = logx ? log10(x1) : x1;
  if (lx1 <= lx0) lx1 = lx0 + 1;
#define PX(x) (L + ((logx ? log10(x) : (x)) - lx0) / (lx1 - lx0) * (W - L - R))
#define PY(y) (H - B - (log10(y) - ly0) / (ly1 - ly0) * (H - T - B))
  char b1[32];
  fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
          "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\" "
          "data-const=\"%s\" data-machine=\"%s\">\n", W, H, W, H, args->sweep_name,
          vxpeak_target_name(t));
  fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  fprintf(out, "<text x=\"%.0f\" y=\"24\" font-size=\"15\">%s on %s: tokens/s against %s "
          "(%s traffic)</text>\n", L, args->file, vxpeak_target_name(t), args->sweep_name,
          args->no_reuse ? "no-reuse" : "compulsory");
  /* Axes and decades. */
  fprintf(out, "<g stroke=\"#888\" fill=\"none\"><path d=\"M%.1f %.1f V%.1f H%.1f\"/></g>\n", L,
          T, H - B, W - R);
  for (double d = ly0; d <= ly1; d++) {
    double y = PY(pow(10, d));
    fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", L, W - R, y, y, L - 6,
            y + 4, vxpeak_per_second(pow(10, d), b1));
  }
  /* Ticks on the constant: powers of two on a log scale, else about eight steps. */
  double step = logx ? 2 : fmax(1, ceil((x1 - x0) / 8));
  for (double x = logx ? pow(2, ceil(log2(x0))) : x0; x <= x1; x = logx ? x * step : x + step)
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n", PX(x),
            H - B + 16, x);
  fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", (W + L - R) / 2,
          H - 18, args->sweep_name);
  fprintf(out, "<text x=\"18\" y=\"%.1f\" transform=\"rotate(-90 18 %.1f)\" "
          "text-anchor=\"middle\">tokens/s</text>\n", (H - B + T) / 2, (H - B + T) / 2);
  /* Ceilings: polylines over the values that have them. */
  const char *names[2] = {"bandwidth", "compute"};
  const char *colors[2] = {"#1f77b4", "#d62728"};
  for (int k = 0; k < 2; k++) {
    fprintf(out, "<polyline class=\"ceiling\" data-ceiling=\"%s\" fill=\"none\" stroke=\"%s\" "
            "stroke-dasharray=\"6 4\" points=\"", names[k], colors[k]);
    for (size_t i = 0; i < n; i++) {
      const vxp_frontier_point *p = vxp_frontier_point_at(f, i);
      uint64_t v = 0;
      int has = k == 0 ? vxp_frontier_point_memory_time_ps(p, &v)
                       : vxp_frontier_point_compute_time_ps(p, &v);
      double y = tps(vxp_frontier_point_tokens(p), has, v);
      double x = (double)vxp_frontier_point_value(p);
      if (y > 0 && (!logx || x > 0)) fprintf(out, "%.1f,%.1f ", PX(x), PY(y));
    }
    fprintf(out, "\"/>\n");
  }
  /* The capacity wall, after the largest value that fits. */
  const vxp_frontier_point *largest = vxp_frontier_largest_fit(f);
  if (largest && vxp_frontier_point_value(largest) < args->sweep_hi) {
    double x = PX((double)vxp_frontier_point_value(largest) + 0.5);
    fprintf(out, "<line class=\"capacity-wall\" data-largest-fit=\"%llu\" x1=\"%.1f\" x2=\"%.1f\" "
            "y1=\"%.1f\" y2=\"%.1f\" stroke=\"#555\" stroke-width=\"2\"/>"
            "<text x=\"%.1f\" y=\"%.1f\">capacity: %s = %llu fits</text>\n",
            (unsigned long long)vxp_frontier_point_value(largest), x, x, T, H - B, x + 4, T + 12,
            args->sweep_name, (unsigned long long)vxp_frontier_point_value(largest));
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
    fprintf(out, "<circle class=\"point\" data-value=\"%llu\" data-fits=\"%s\" "
            "data-tokens-per-second=\"%.3f\" data-bound=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
            "fill=\"%s\" stroke=\"#222\"><title>%s = %llu: %s tokens/s, %s, %s</title></circle>\n",
            (unsigned long long)vxp_frontier_point_value(p), fits ? "true" : "false", y,
            bound ? bound : "", PX(x), PY(y), fits ? "#2ca02c" : "white", args->sweep_name,
            (unsigned long long)vxp_frontier_point_value(p), vxpeak_per_second(y, b1),
            fits ? "fits" : "does not fit", bound ? bound : "bound not named");
  }
  fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" fill=\"%s\">- - bandwidth ceiling</text>"
          "<text x=\"%.0f\" y=\"%.0f\" fill=\"%s\">- - compute ceiling</text>\n", W - R - 260,
          T + 12, colors[0], W - R - 130, T + 12, colors[1]);
  fprintf(out, "</svg>\n");
#undef PX
#undef PY
}

int vxpeak_frontier(const vxpeak_args *args) {
  vxpeak_program program;
  vxpeak_target target;
  vxp_frontier *f = NULL;
  memset(&target, 0, sizeof(target));
  int exit_code = vxpeak_program_open(&program, args->file);
  if (exit_code == VXPEAK_EXIT_OK)
    exit_code = vxpeak_target_open(&target, &program, args->machine_count ? args->machines[0]
                                                                          : NULL, args->host);
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  vxp_analyze_options opts = vxpeak_target_options(&target, args);
  vxp_frontier_options fo;
  if (vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION) != VXP_OK) {
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  fo.name = args->sweep_name;
  fo.lo = args->sweep_lo;
  fo.hi = args->sweep_hi;
  fo.margin_ppm = args->margin_ppm;
  fo.function = args->function;
  fo.space = args->space;
  fo.traffic = args->no_reuse ? VXP_TRAFFIC_NO_REUSE : VXP_TRAFFIC_COMPULSORY;
  if (args->tokens_name && args->tokens_name[0] >= '0' && args->tokens_name[0] <= '9')
    fo.tokens_per_call = strtoull(args->tokens_name, NULL, 10);
  else
    fo.tokens_const = args->tokens_name;
  int rc = vxp_frontier_run(&f, program.ctx, program.prog, &opts, &fo);
  if (rc != VXP_OK) {
    exit_code = vxpeak_fail(program.ctx, rc, "frontier");
    goto done;
  }
  if (strcmp(args->format, "svg") == 0) {
    FILE *out = strcmp(args->output ? args->output : "-", "-") == 0 ? stdout
                                                                      : fopen(args->output, "w");
    if (!out) {
      fprintf(stderr, "vxpeak: frontier: cannot write %s\n", args->output);
      exit_code = VXPEAK_EXIT_USAGE;
      goto done;
    }
    print_svg(out, args, &target, f);
    if (out != stdout && fclose(out) != 0) {
      fprintf(stderr, "vxpeak: frontier: cannot write %s\n", args->output);
      exit_code = VXPEAK_EXIT_USAGE;
      goto done;
    }
  } else {
    vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
    ro.format = strcmp(args->format, "json") == 0 ? VXP_REPORT_JSON : VXP_REPORT_TEXT;
    ro.machine = vxpeak_target_name(&target);
    vxp_report *rep = NULL;
    rc = vxp_report_frontier(&rep, program.ctx, f, &ro);
    if (rc != VXP_OK) {
      exit_code = vxpeak_fail(program.ctx, rc, "frontier");
      goto done;
    }
    vxpeak_print_report(rep);
    vxp_report_free(rep);
  }
  exit_code = vxp_frontier_largest_fit(f) ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
done:
  vxp_frontier_free(f);
  vxpeak_target_close(&target);
  vxpeak_program_close(&program);
  return exit_code;
}
