/* SPDX-License-Identifier: Apache-2.0 */
/* bench_long_items.c - one long function against the same volume written as many small
 * functions (issue 33): parse and analysis, and CUDA generation, per byte of source.
 *
 * The long program is one function of 20,000 placements of a 1 KiB tile followed by 20,000
 * spawn regions each reading one (every tile live at the first read: peak 20,000 KiB); a
 * function that long runs past VXP_MAX_PENDING_TOKENS, so it is checked in pieces before it
 * is parsed whole (lib/long_items.c). The short program holds the same two statements in each
 * of 20,000 functions (peak 1 KiB each). Both are parsed as `vxpeak check` parses (with
 * VXP_PROGRAM_NO_TREE, against the built-in a100-40), alternately, and each run's peak and
 * verdict are checked, so a fast wrong answer fails the benchmark. It prints the medians, the
 * time per byte of each and their ratio, and fails when the long program takes more than 3x
 * the short one's time per byte. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vxpeak.h"

#define PLACEMENTS 20000
#define ROUNDS 5

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof(*v), cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct text {
  char *data;
  size_t len, cap;
} text;

static void put(text *t, const char *s) {
  size_t n = strlen(s);
  if (t->len + n + 1 > t->cap) {
    t->cap = (t->len + n + 1) * 2;
    t->data = realloc(t->data, t->cap);
    if (!t->data) exit(1);
  }
  memcpy(t->data + t->len, s, n + 1);
  t->len += n;
}

static void long_program(text *t) {
  char line[160];
  put(t, "fn main() -> i32 {\n  let mut acc : f32 = 0.0;\n");
  for (int i = 0; i < PLACEMENTS; i++) {
    snprintf(line, sizeof(line),
             "  let t%d = transfer(Tensor<f32, [16, 16]>::uninit(), Memory::HBM);\n", i);
    put(t, line);
  }
  for (int i = 0; i < PLACEMENTS; i++) {
    snprintf(line, sizeof(line), "  spawn on(Topology::Device) { acc = acc + t%d[0][0]; }\n", i);
    put(t, line);
  }
  put(t, "  print(acc);\n  return 0;\n}\n");
}

static void short_program(text *t) {
  char line[400];
  for (int i = 0; i < PLACEMENTS; i++) {
    snprintf(line, sizeof(line),
             "fn f%d() -> i32 {\n  let mut acc : f32 = 0.0;\n"
             "  let t%d = transfer(Tensor<f32, [16, 16]>::uninit(), Memory::HBM);\n"
             "  spawn on(Topology::Device) { acc = acc + t%d[0][0]; }\n"
             "  print(acc);\n  return 0;\n}\n\n",
             i, i, i);
    put(t, line);
  }
  put(t, "fn main() -> i32 {\n  return 0;\n}\n");
}

static void check(int rc, vxp_context *ctx, const char *what) {
  if (rc == VXP_OK) return;
  fprintf(stderr, "bench_long_items: %s failed: %s\n", what, vxp_context_errmsg(ctx));
  exit(1);
}

/* One run: parse and analyse (timed), then generate CUDA (timed apart); checks main's peak
 * in HBM (or f0's for the short program) and that the program is admitted. */
static void run(const text *t, const char *fn, unsigned long long want, double *analyse_ms,
                double *cuda_ms) {
  vxp_context *ctx = NULL;
  vxp_context_options opts = VXP_CONTEXT_OPTIONS_INIT;
  if (vxp_context_new(&ctx, &opts) != VXP_OK) exit(1);
  vxp_machine *m = NULL, *host = NULL;
  check(vxp_machine_builtin(&m, ctx, "a100-40"), ctx, "a100-40");
  check(vxp_machine_builtin(&host, ctx, "host-default"), ctx, "host-default");
  double t0 = now_ms();
  vxp_source *src = NULL;
  check(vxp_source_new(&src, ctx, "long.vx", t->data, t->len), ctx, "source");
  vxp_program *prog = NULL;
  check(vxp_program_parse_flags(&prog, ctx, src, VXP_PROGRAM_NO_TREE), ctx, "parse");
  vxp_analyze_options ao = VXP_ANALYZE_OPTIONS_INIT;
  ao.machine = m;
  ao.host = host;
  vxp_analysis *an = NULL;
  check(vxp_analyze(&an, ctx, prog, &ao), ctx, "analyse");
  double t1 = now_ms();
  vxp_cuda *cu = NULL;
  check(vxp_cuda_generate(&cu, ctx, an), ctx, "cuda");
  double t2 = now_ms();
  unsigned long long peak = 0;
  for (size_t i = 0; i < vxp_analysis_resident_set_count(an); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
    if (strcmp(vxp_resident_set_function(rs), fn) == 0 &&
        strcmp(vxp_resident_set_space(rs), "HBM") == 0)
      peak = vxp_resident_set_peak_bytes(rs);
  }
  if (!vxp_analysis_admitted(an) || peak != want || !vxp_cuda_text(cu, NULL)) {
    fprintf(stderr, "bench_long_items: %s: peak %llu, want %llu, admitted %d, CUDA %s\n", fn, peak,
            want, vxp_analysis_admitted(an), vxp_cuda_text(cu, NULL) ? "yes" : "no");
    exit(1);
  }
  *analyse_ms = t1 - t0;
  *cuda_ms = t2 - t1;
  vxp_cuda_free(cu);
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_machine_free(host);
  vxp_machine_free(m);
  vxp_context_free(ctx);
}

int main(void) {
  text lp = {NULL, 0, 0}, sp = {NULL, 0, 0};
  long_program(&lp);
  short_program(&sp);
  double la[ROUNDS], lc[ROUNDS], sa[ROUNDS], sc[ROUNDS];
  for (int r = 0; r < ROUNDS; r++) { /* alternately, so both meet the same machine load */
    run(&lp, "main", (unsigned long long)PLACEMENTS * 1024, &la[r], &lc[r]);
    run(&sp, "f0", 1024, &sa[r], &sc[r]);
  }
  double mla = median(la, ROUNDS), mlc = median(lc, ROUNDS);
  double msa = median(sa, ROUNDS), msc = median(sc, ROUNDS);
  double ml = (double)lp.len / 1e6, ms = (double)sp.len / 1e6;
  printf("bench_long_items: one function of %d placements and %d reads (%.2f MB) against %d "
         "functions of the same two statements (%.2f MB); medians of %d\n",
         PLACEMENTS, PLACEMENTS, ml, PLACEMENTS, ms, ROUNDS);
  printf("                         parse+analyse   ms/MB     emit-cuda   ms/MB\n");
  printf("  one long function       %9.1f ms %7.1f  %9.1f ms %7.1f\n", mla, mla / ml, mlc,
         mlc / ml);
  printf("  many small functions    %9.1f ms %7.1f  %9.1f ms %7.1f\n", msa, msa / ms, msc,
         msc / ms);
  double ra = (mla / ml) / (msa / ms), rc = (mlc / ml) / (msc / ms);
  printf("  long / small per byte   %9.2fx          %9.2fx\n", ra, rc);
  bool met = ra <= 3.0 && rc <= 3.0;
  printf("  target: at most 3x the small functions' time per byte: %s\n", met ? "met" : "MISSED");
  free(lp.data);
  free(sp.data);
  return met ? 0 : 1;
}
