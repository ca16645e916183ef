/* SPDX-License-Identifier: Apache-2.0 */
/* bench_analysis.c - vxp_analyze on whole generated programs, through the public API only
 * (so the same source builds against an older library to compare): one function of 2,000
 * placements in nested blocks (the single-function core: walk, sweep, resident sets; the
 * largest round count under VXP0003's limit of 61,440 tokens in one top-level item, which
 * cut the 10^5 placements this bench used to generate: then nothing was analysed), a
 * chain of 10^4 functions each holding a tile across its call (the call-tree fold over a
 * deep graph), and 2000 instances of a generic function (instantiation and naming).
 *
 * Each figure is the median of several analyses of one parsed program, with the parse
 * timed apart; every run's peak (main's own, or its call-tree total) is checked against
 * the value the program is built to have, so a fast wrong answer fails the benchmark.
 * Built with -DVXP_BENCH_NO_CALL_TREES it runs against a library that predates call
 * trees (the before-and-after comparison in docs/speed.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vxpeak.h"

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

#define MACHINE                                                                                    \
  "Memory CPU_DRAM {}\n"                                                                           \
  "Memory W { within: Memory::CPU_DRAM, capacity: 1 TiB, managed: explicit }\n"

/* One function: `placements` 1 KiB tiles, every tenth opening an `if` block that holds
 * the next nine and closes; all read. Peak: the 1 KiB tiles at function scope plus one
 * block's nine. */
static void single_function(text *t, int placements, unsigned long long *peak) {
  char line[160];
  put(t, MACHINE "fn main() -> i32 {\n");
  int outer = 0;
  for (int i = 0; i < placements; i++) {
    if (i % 10 == 0) {
      snprintf(line, sizeof(line),
               "  let a%d = transfer(Tensor<u8, [1024]>::uninit(), Memory::W);\n  if true {\n", i);
      put(t, line);
      outer++;
    } else {
      snprintf(line, sizeof(line),
               "    let a%d = transfer(Tensor<u8, [1024]>::uninit(), Memory::W); print(a%d);\n", i,
               i);
      put(t, line);
      if (i % 10 == 9) put(t, "  }\n");
    }
  }
  if (placements % 10 != 0) put(t, "  }\n");
  put(t, "  print(");
  for (int i = 0; i < placements; i += 10) {
    snprintf(line, sizeof(line), "%sa%d", i ? ", " : "", i);
    put(t, line);
  }
  put(t, ");\n  return 0;\n}\n");
  *peak = 1024ull * (unsigned long long)outer + (placements >= 10 ? 9 * 1024ull : 0);
}

/* f0 -> f1 -> ... -> f(n-1), each holding 16 bytes across its call. */
static void chain(text *t, int n, unsigned long long *total) {
  char line[200];
  put(t, MACHINE);
  snprintf(line, sizeof(line),
           "fn f%d() -> i32 { let t = transfer(Tensor<u8, [16]>::uninit(), Memory::W); print(t); "
           "return 0; }\n",
           n - 1);
  put(t, line);
  for (int i = n - 2; i >= 0; i--) {
    snprintf(line, sizeof(line),
             "fn f%d() -> i32 { let t = transfer(Tensor<u8, [16]>::uninit(), Memory::W); let x = "
             "f%d(); print(t); return x; }\n",
             i, i + 1);
    put(t, line);
  }
  put(t, "fn main() -> i32 { return f0(); }\n");
  *total = 16ull * (unsigned long long)n;
}

/* main calls g<1> .. g<n>; g<k> places k x 64 bytes. */
static void instances(text *t, int n, unsigned long long *total) {
  char line[120];
  put(t, MACHINE "fn g<const K : i64>() -> i32 { let t = transfer(Tensor<u8, [K, 64]>::uninit(), "
                 "Memory::W); print(t); return 0; }\n"
                 "fn main() -> i32 {\n");
  for (int k = 1; k <= n; k++) {
    snprintf(line, sizeof(line), "  g<%d>();\n", k);
    put(t, line);
  }
  put(t, "  return 0;\n}\n");
  *total = 64ull * (unsigned long long)n;
}

/* The placements of the single function (2,500 are cut): its ~30 tokens a placement stay under
 * VXP0003's 61,440 tokens in one item. */
#define SINGLE_FUNCTION_PLACEMENTS 2000

/* The figure checked: main's own peak in W, or (with call trees) main's call-tree total. */
static unsigned long long main_figure(const vxp_analysis *an, int whole) {
  size_t i;
  if (whole) {
#ifdef VXP_BENCH_NO_CALL_TREES
    return 0;
#else
    for (i = 0; i < vxp_analysis_call_tree_count(an); i++) {
      const vxp_call_tree *ct = vxp_analysis_call_tree(an, i);
      if (strcmp(vxp_call_tree_function(ct), "main") == 0) return vxp_call_tree_total_bytes(ct);
    }
    return 0;
#endif
  }
  for (i = 0; i < vxp_analysis_resident_set_count(an); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
    if (strcmp(vxp_resident_set_function(rs), "main") == 0) return vxp_resident_set_peak_bytes(rs);
  }
  return 0;
}

static int run(const char *label, const text *t, unsigned long long want, int whole, int runs) {
  vxp_context *ctx = NULL;
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  double parse_ms, analyse[16];
  if (vxp_context_new(&ctx, NULL) != VXP_OK) return 1;
  if (vxp_source_new(&src, ctx, "bench.vx", t->data, t->len) != VXP_OK) return 1;
  double start = now_ms();
  if (vxp_program_parse(&prog, ctx, src) != VXP_OK) return 1;
  parse_ms = now_ms() - start;
  for (int r = 0; r < runs; r++) {
    vxp_analysis *an = NULL;
    start = now_ms();
    if (vxp_analyze(&an, ctx, prog, NULL) != VXP_OK) return 1;
    analyse[r] = now_ms() - start;
    unsigned long long got = main_figure(an, whole);
    int skip = 0;
#ifdef VXP_BENCH_NO_CALL_TREES
    skip = whole; /* a library without call trees: the fold's figure does not exist there */
#endif
    if (!skip && got != want) {
      fprintf(stderr, "bench_analysis: %s: %llu bytes, expected %llu\n", label, got, want);
      return 1;
    }
    vxp_analysis_free(an);
  }
  printf("%-40s %10zu %12.1f %14.2f\n", label, t->len, parse_ms, median(analyse, runs));
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return 0;
}

int main(void) {
  text a = {NULL, 0, 0}, b = {NULL, 0, 0}, c = {NULL, 0, 0};
  unsigned long long pa, pb, pc;
  single_function(&a, SINGLE_FUNCTION_PLACEMENTS, &pa);
  chain(&b, 10000, &pb);
  instances(&c, 2000, &pc);
  printf("bench_analysis: vxp_analyze on generated programs (medians; parse timed apart)\n");
  printf("%-40s %10s %12s %14s\n", "program", "bytes", "parse (ms)", "analyse (ms)");
  int rc = run("one function, 2,000 placements", &a, pa, 0, 9);
  if (!rc) rc = run("a chain of 10^4 calls holding tiles", &b, pb, 1, 5);
  if (!rc) rc = run("2000 instances of a generic function", &c, pc, 1, 5);
  free(a.data);
  free(b.data);
  free(c.data);
  return rc;
}
