/* SPDX-License-Identifier: Apache-2.0 */
/* frontier.c - `vxpeak frontier`: for every value of a constant (a batch size), whether the
 * program fits with the margin, one call's time, tokens per second and the bound; then the
 * largest value that fits, where memory turns to compute, and the best throughput that
 * fits. Text, JSON, or an SVG picture (vxp_frontier_run does the work). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Tokens per second at a point: tokens x 10^12 / call time in ps; 0 when unknown. */
static double tokens_per_second(const vxp_frontier_point *p) {
  uint64_t ps = 0;
  if (!vxp_frontier_point_call_time_ps(p, &ps) || ps == 0) return 0.0;
  return 1e12 / (double)ps * (double)vxp_frontier_point_tokens(p);
}

static const char *margin_text(uint32_t ppm, char buf[32]) {
  snprintf(buf, 32, "%u.%04u", ppm / 10000, ppm % 10000);
  size_t len = strlen(buf);
  while (buf[len - 1] == '0') buf[--len] = '\0';
  if (buf[len - 1] == '.') buf[--len] = '\0';
  return buf;
}

static const char *fit_text(const vxp_frontier_point *p, char buf[48]) {
  const char *reason = vxp_frontier_point_reason(p), *code = vxp_frontier_point_code(p);
  if (!reason) return "yes";
  if (strcmp(reason, "within_margin") == 0) return "no: in the margin";
  if (strcmp(reason, "over_capacity") == 0) return "no: over capacity";
  if (strcmp(reason, "size_unknown") == 0) return "no: size unknown";
  snprintf(buf, 48, "no: error %s", code ? code : "");
  return buf;
}

static void bound_text(const vxp_frontier_point *p, char buf[64]) {
  const char *bound = vxp_frontier_point_bound(p);
  uint64_t mem = 0, comp = 0;
  if (!bound) {
    snprintf(buf, 64, "not named");
    return;
  }
  vxp_frontier_point_memory_time_ps(p, &mem);
  vxp_frontier_point_compute_time_ps(p, &comp);
  bool by_memory = strcmp(bound, "memory") == 0;
  double ratio = by_memory ? (comp ? (double)mem / (double)comp : INFINITY)
                           : (double)comp / (double)mem;
  if (isinf(ratio)) snprintf(buf, 64, "%s (%s), no arithmetic", bound,
                             vxp_frontier_point_bound_space(p));
  else snprintf(buf, 64, "%s%s%s%s, %.3gx", bound, by_memory ? " (" : "",
                by_memory ? vxp_frontier_point_bound_space(p) : "", by_memory ? ")" : "", ratio);
}

static void print_text(const vxpeak_args *args, const vxpeak_target *t, const vxp_frontier *f) {
  char b1[32], b2[32], b3[32], b4[96], b5[48], b6[64];
  const char *fn = vxp_frontier_function(f);
  printf("%s on %s: %s in %llu..%llu, a call is %s; capacity with %s%% kept free; traffic %s; "
         "tokens per call: %s\n",
         args->file, vxpeak_target_name(t), args->sweep_name, (unsigned long long)args->sweep_lo,
         (unsigned long long)args->sweep_hi, fn ? fn : "(none: no spawn region)",
         margin_text(args->margin_ppm, b1),
         args->no_reuse ? "no-reuse" : "compulsory (each element of a tile once per call)",
         args->tokens_name ? args->tokens_name : "1");
  printf("%8s %42s %7s %-18s %10s %12s  %s\n", args->sweep_name, "peak bytes", "of cap",
         "fits", "time/call", "tokens/s", "bound");
  for (size_t i = 0; i < vxp_frontier_point_count(f); i++) {
    const vxp_frontier_point *p = vxp_frontier_point_at(f, i);
    uint64_t peak = vxp_frontier_point_peak_bytes(p), cap = vxp_frontier_point_capacity_bytes(p);
    uint64_t call = 0;
    char share[16] = "-";
    if (cap) snprintf(share, sizeof(share), "%.1f%%", 100.0 * (double)peak / (double)cap);
    char peak_text[64];
    snprintf(peak_text, sizeof(peak_text), "%s (%s)", vxpeak_grouped(peak, b2),
             vxpeak_decimal(peak, b3));
    bool has_call = vxp_frontier_point_call_time_ps(p, &call);
    bound_text(p, b6);
    /* Without a compute time the memory time is a lower bound on the call. */
    char time_text[40] = "-", tps_text[40] = "-";
    uint64_t mem = 0;
    if (has_call) {
      snprintf(time_text, sizeof(time_text), "%s", vxpeak_duration(call, b1));
      snprintf(tps_text, sizeof(tps_text), "%s", vxpeak_per_second(tokens_per_second(p), b2));
    } else if (vxp_frontier_point_memory_time_ps(p, &mem) && mem) {
      snprintf(time_text, sizeof(time_text), ">= %s", vxpeak_duration(mem, b1));
      snprintf(tps_text, sizeof(tps_text), "<= %s",
               vxpeak_per_second(1e12 / (double)mem * (double)vxp_frontier_point_tokens(p), b2));
    }
    printf("%8llu %42s %7s %-18s %10s %12s  %s\n",
           (unsigned long long)vxp_frontier_point_value(p), peak_text, share, fit_text(p, b5),
           time_text, tps_text, b6);
  }
  const vxp_frontier_point *largest = vxp_frontier_largest_fit(f);
  const vxp_frontier_point *turn = vxp_frontier_first_compute_bound(f);
  const vxp_frontier_point *best = vxp_frontier_best_fit(f);
  const vxp_frontier_point *any = vxp_frontier_point_at(f, 0);
  uint64_t cap = any ? vxp_frontier_point_capacity_bytes(any) : 0;
  if (cap) printf("capacity: %s of %s\n", vxpeak_bytes(cap, b4),
                  any && vxp_frontier_point_space(any) ? vxp_frontier_point_space(any) : "?");
  if (largest)
    printf("largest %s that fits: %llu (peak %s)\n", args->sweep_name,
           (unsigned long long)vxp_frontier_point_value(largest),
           vxpeak_bytes(vxp_frontier_point_peak_bytes(largest), b4));
  else
    printf("largest %s that fits: none in %llu..%llu\n", args->sweep_name,
           (unsigned long long)args->sweep_lo, (unsigned long long)args->sweep_hi);
  if (turn)
    printf("memory turns to compute at %s = %llu%s\n", args->sweep_name,
           (unsigned long long)vxp_frontier_point_value(turn),
           vxp_frontier_point_fits(turn) ? "" : " (which does not fit)");
  else if (any && !vxp_frontier_point_bound(any))
    printf("the bound cannot be named: %s\n", vxp_frontier_point_unbound_reason(any));
  else
    printf("compute never binds in %llu..%llu: every call is bound by memory\n",
           (unsigned long long)args->sweep_lo, (unsigned long long)args->sweep_hi);
  if (best) {
    uint64_t call = 0;
    vxp_frontier_point_call_time_ps(best, &call);
    printf("best throughput that fits: %s = %llu, %s tokens/s (%s per call, bound by %s)\n",
           args->sweep_name, (unsigned long long)vxp_frontier_point_value(best),
           vxpeak_per_second(tokens_per_second(best), b1),
           vxpeak_duration(call, b2),
           vxp_frontier_point_bound(best) ? vxp_frontier_point_bound(best) : "memory at least");
  } else {
    printf("best throughput that fits: none (nothing fits with a known call time)\n");
  }
}

static void json_opt(vxpeak_json *j, int has, uint64_t v) {
  if (has) vxpeak_json_u64(j, v);
  else vxpeak_json_null(j);
}

static void json_point(vxpeak_json *j, const vxp_frontier_point *p) {
  uint64_t v = 0;
  if (!p) {
    vxpeak_json_null(j);
    return;
  }
  vxpeak_json_open(j, '{');
  vxpeak_json_key(j, "value");
  vxpeak_json_u64(j, vxp_frontier_point_value(p));
  vxpeak_json_key(j, "fits");
  vxpeak_json_bool(j, vxp_frontier_point_fits(p));
  vxpeak_json_key(j, "reason");
  vxpeak_json_string(j, vxp_frontier_point_reason(p));
  vxpeak_json_key(j, "code");
  vxpeak_json_string(j, vxp_frontier_point_code(p));
  vxpeak_json_key(j, "space");
  vxpeak_json_string(j, vxp_frontier_point_space(p));
  vxpeak_json_key(j, "peak_bytes");
  vxpeak_json_u64(j, vxp_frontier_point_peak_bytes(p));
  vxpeak_json_key(j, "capacity_bytes");
  vxpeak_json_u64(j, vxp_frontier_point_capacity_bytes(p));
  vxpeak_json_key(j, "memory_bytes");
  vxpeak_json_u64(j, vxp_frontier_point_memory_bytes(p));
  vxpeak_json_key(j, "operations");
  vxpeak_json_u64(j, vxp_frontier_point_ops(p));
  int has = vxp_frontier_point_memory_time_ps(p, &v);
  vxpeak_json_key(j, "memory_time_ps");
  json_opt(j, has, v);
  has = vxp_frontier_point_compute_time_ps(p, &v);
  vxpeak_json_key(j, "compute_time_ps");
  json_opt(j, has, v);
  has = vxp_frontier_point_call_time_ps(p, &v);
  vxpeak_json_key(j, "call_time_ps");
  json_opt(j, has, v);
  vxpeak_json_key(j, "tokens_per_call");
  vxpeak_json_u64(j, vxp_frontier_point_tokens(p));
  vxpeak_json_key(j, "tokens_per_second");
  if (has) vxpeak_json_real(j, tokens_per_second(p), 3);
  else vxpeak_json_null(j);
  vxpeak_json_key(j, "bound");
  vxpeak_json_string(j, vxp_frontier_point_bound(p));
  vxpeak_json_key(j, "bound_space");
  vxpeak_json_string(j, vxp_frontier_point_bound_space(p));
  vxpeak_json_key(j, "unbound_reason");
  vxpeak_json_string(j, vxp_frontier_point_unbound_reason(p));
  vxpeak_json_close(j, '}');
}

static void print_json(const vxpeak_args *args, const vxpeak_target *t, const vxp_frontier *f) {
  vxpeak_json j = {stdout, true, 0, {false}, {false}, false};
  vxpeak_json_open(&j, '{');
  vxpeak_json_header(&j, "vxpeak-frontier-v1", args, t);
  vxpeak_json_key(&j, "const");
  vxpeak_json_string(&j, args->sweep_name);
  vxpeak_json_key(&j, "lo");
  vxpeak_json_u64(&j, args->sweep_lo);
  vxpeak_json_key(&j, "hi");
  vxpeak_json_u64(&j, args->sweep_hi);
  vxpeak_json_key(&j, "margin_ppm");
  vxpeak_json_u64(&j, args->margin_ppm);
  vxpeak_json_key(&j, "traffic_model");
  vxpeak_json_string(&j, args->no_reuse ? "no_reuse" : "compulsory");
  vxpeak_json_key(&j, "tokens_per_call");
  vxpeak_json_string(&j, args->tokens_name ? args->tokens_name : "1");
  vxpeak_json_key(&j, "function");
  vxpeak_json_string(&j, vxp_frontier_function(f));
  vxpeak_json_key(&j, "largest_fit");
  json_point(&j, vxp_frontier_largest_fit(f));
  vxpeak_json_key(&j, "first_compute_bound");
  json_point(&j, vxp_frontier_first_compute_bound(f));
  vxpeak_json_key(&j, "best_fit");
  json_point(&j, vxp_frontier_best_fit(f));
  vxpeak_json_key(&j, "points");
  vxpeak_json_open(&j, '[');
  for (size_t i = 0; i < vxp_frontier_point_count(f); i++)
    json_point(&j, vxp_frontier_point_at(f, i));
  vxpeak_json_close(&j, ']');
  vxpeak_json_close(&j, '}');
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
    const char *bound = vxp_frontier_point_bound(p);
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
  } else if (strcmp(args->format, "json") == 0) {
    print_json(args, &target, f);
  } else {
    print_text(args, &target, f);
  }
  exit_code = vxp_frontier_largest_fit(f) ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
done:
  vxp_frontier_free(f);
  vxpeak_target_close(&target);
  vxpeak_program_close(&program);
  return exit_code;
}
