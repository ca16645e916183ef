/* SPDX-License-Identifier: Apache-2.0 */
/* bench_reports.c - what the analysis' two cached reports cost next to the analysis they
 * render, through the public API: the JSON report and the SARIF log of a one-tile program
 * (the size of a fuzzing input, where SARIF's rule catalogue dominates) and of the
 * Llama-2-7B prefill example. Each figure is the median of many runs; each report is
 * rendered from a fresh analysis (they are cached on it), and the analysis is timed apart
 * as the baseline of the same run. A render that fails stops the benchmark. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vxpeak.h"

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof(*v), cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Analyse `prog` `runs` times; time the analysis, then its JSON and SARIF. */
static int measure(const char *name, vxp_context *ctx, vxp_program *prog,
                   const vxp_analyze_options *opts, int runs) {
  double *an_us = calloc((size_t)runs, sizeof(double));
  double *json_us = calloc((size_t)runs, sizeof(double));
  double *sarif_us = calloc((size_t)runs, sizeof(double));
  size_t json_len = 0, sarif_len = 0;
  int status = 0;
  for (int i = 0; i < runs && an_us && json_us && sarif_us; i++) {
    vxp_analysis *an = NULL;
    double t0 = now_us();
    if (vxp_analyze(&an, ctx, prog, opts) != VXP_OK) {
      fprintf(stderr, "%s: %s\n", name, vxp_context_errmsg(ctx));
      status = 1;
      break;
    }
    double t1 = now_us();
    const char *json = vxp_analysis_json(an, &json_len);
    double t2 = now_us();
    const char *sarif = vxp_analysis_sarif(an, &sarif_len);
    double t3 = now_us();
    vxp_analysis_free(an);
    if (!json || !sarif) {
      fprintf(stderr, "%s: a report failed: %s\n", name, vxp_context_errmsg(ctx));
      status = 1;
      break;
    }
    an_us[i] = t1 - t0;
    json_us[i] = t2 - t1;
    sarif_us[i] = t3 - t2;
  }
  if (status == 0 && an_us && json_us && sarif_us) {
    double a = median(an_us, runs), j = median(json_us, runs), s = median(sarif_us, runs);
    printf("%-22s analyse %9.1f us | json %9.1f us (%zu B, %.2fx the analysis) | sarif %9.1f us "
           "(%zu B, %.2fx)\n",
           name, a, j, json_len, j / a, s, sarif_len, s / a);
  }
  free(an_us);
  free(json_us);
  free(sarif_us);
  return status;
}

int main(void) {
  vxp_context *ctx = NULL;
  vxp_machine *device = NULL, *host = NULL;
  if (vxp_context_new(&ctx, NULL) != VXP_OK ||
      vxp_machine_builtin(&device, ctx, "a100-40") != VXP_OK ||
      vxp_machine_builtin(&host, ctx, "host-default") != VXP_OK) {
    fprintf(stderr, "bench_reports: cannot set up\n");
    return 1;
  }
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = device;
  opts.host = host;
  static const char tiny[] = "fn main() -> i32 {\n"
                             "  let a = Tensor<f16, [1024, 1024], Memory::HBM>::uninit();\n"
                             "  return 0;\n"
                             "}\n";
  int status = 0;
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  if (vxp_source_new(&src, ctx, "tiny.vx", tiny, sizeof(tiny) - 1) != VXP_OK ||
      vxp_program_parse(&prog, ctx, src) != VXP_OK)
    status = 1;
  else
    status |= measure("one tile", ctx, prog, &opts, 2001);
  vxp_program_free(prog);
  vxp_source_free(src);
  src = NULL;
  prog = NULL;
  if (vxp_source_load_file(&src, ctx, "examples/llama2/prefill.vx") != VXP_OK ||
      vxp_program_parse(&prog, ctx, src) != VXP_OK) {
    fprintf(stderr, "bench_reports: %s\n", vxp_context_errmsg(ctx));
    status = 1;
  } else {
    status |= measure("llama2/prefill.vx", ctx, prog, &opts, 201);
  }
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_machine_free(host);
  vxp_machine_free(device);
  vxp_context_free(ctx);
  return status;
}
