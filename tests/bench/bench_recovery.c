/* SPDX-License-Identifier: Apache-2.0 */
/* bench_recovery.c - parse time under syntax errors: a stray token or line inserted at the
 * start of a top-level line of the 20,000-line program (the one bench_incremental.c
 * generates), at 7 positions spread over the file, each parsed fresh (vxp_source_new +
 * vxp_program_parse) and incrementally from the clean program (vxp_source_edit +
 * vxp_program_reparse). Every case is the best of two runs; the clean parse is the median of
 * five. Prints the worst case of each kind against the clean parse and fails when one is
 * more than MAX_RATIO times it (tree-sitter 0.20's error recovery is quadratic in the length
 * an error swallows: before the grammar's _item_start token, one `Memory::HBM` line took
 * 20 s here). Also checks that each error stays where it was made: no syntax diagnostic
 * reaches past the function after the inserted text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vxpeak.h"

#define LINES 20000
#define LINES_PER_FN 10
#define HEADER_LINES 10
#define POSITIONS 7
#define MAX_RATIO 3.0

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void check(int rc, vxp_context *ctx, const char *what) {
  if (rc != VXP_OK) {
    fprintf(stderr, "bench_recovery: %s failed: %s\n", what, vxp_context_errmsg(ctx));
    exit(1);
  }
}

/* bench_incremental.c's program: a machine header, then functions of LINES_PER_FN lines. */
static char *generate(size_t *len) {
  size_t cap = (size_t)LINES * 96, n = 0;
  char *text = malloc(cap);
  if (!text) exit(1);
  n += (size_t)snprintf(text + n, cap - n,
                        "// bench_recovery: generated, %d lines\n"
                        "Memory CPU_DRAM {}\n"
                        "Memory HBM {\n"
                        "  within: Memory::CPU_DRAM, capacity: 40 GiB, managed: explicit\n"
                        "}\n"
                        "Topology Dev {\n"
                        "  arch: nvptx64, memory: Memory::HBM, visible: [Memory::HBM],\n"
                        "  transfer Memory::CPU_DRAM -> Memory::HBM : 31.5 GB/s\n"
                        "}\n"
                        "\n",
                        LINES);
  int functions = (LINES - HEADER_LINES) / LINES_PER_FN;
  for (int k = 0; k < functions; k++) {
    n += (size_t)snprintf(text + n, cap - n,
                          "fn f%05d(x: i32) -> i32 {\n"
                          "  let w = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::HBM);\n"
                          "  for i in 0..10 {\n"
                          "    let s = transfer(Tensor<f16, [256, 256]>::uninit(), Memory::HBM);\n"
                          "    print(s);\n"
                          "  }\n"
                          "  print(w);\n"
                          "  f%05d(x);\n"
                          "  return 0;\n"
                          "}\n",
                          k, k > 0 ? k - 1 : 0);
  }
  *len = n;
  return text;
}

/* What is inserted at the start of a line. Whole stray lines (the case of the issue:
 * `Memory::HBM` typed on a line of its own), stray tokens in front of a function's `fn`
 * (an item keyword there, `struct fn f(..)`, is taken by the grammar's scanner: it was 64x
 * the clean parse before) and tokens that do not start an item: all are held to the
 * target. */
static const char *const strays[] = {
    "Memory::HBM\n", "Topology::Dev\n",
    "Memory\n",      "struct\n",
    "impl\n",        "fn\n",
    "}\n",           "{\n",
    "x\n",           "\"\n",
    "Memory::HBM ",  "let w = ",
    "transfer(",     "}",
    "struct ",       "Memory ",
    "impl ",
};

static double parse_fresh(vxp_context *ctx, const char *text, size_t len, size_t *diags,
                          uint32_t *last_line) {
  vxp_source *src;
  vxp_program *prog;
  double t0 = now_s();
  check(vxp_source_new(&src, ctx, "bench.vx", text, len), ctx, "vxp_source_new");
  check(vxp_program_parse(&prog, ctx, src), ctx, "vxp_program_parse");
  double t = now_s() - t0;
  *diags = vxp_program_diagnostic_count(prog);
  *last_line = 0;
  for (size_t i = 0; i < *diags; i++) {
    vxp_range r = vxp_diagnostic_range(vxp_program_diagnostic(prog, i));
    if (r.end.line > *last_line) *last_line = r.end.line;
  }
  vxp_program_free(prog);
  vxp_source_free(src);
  return t;
}

static double parse_incremental(vxp_context *ctx, const vxp_program *clean, size_t at,
                                const char *stray, size_t *diags) {
  vxp_source *next;
  vxp_program *prog;
  double t0 = now_s();
  check(vxp_source_edit(&next, vxp_program_source(clean), (uint32_t)at, (uint32_t)at, stray,
                        strlen(stray)),
        ctx, "vxp_source_edit");
  check(vxp_program_reparse(&prog, ctx, clean, next), ctx, "vxp_program_reparse");
  double t = now_s() - t0;
  *diags = vxp_program_diagnostic_count(prog);
  vxp_program_free(prog);
  vxp_source_free(next);
  return t;
}

int main(void) {
  vxp_context *ctx;
  if (vxp_context_new(&ctx, NULL) != VXP_OK) return 1;
  size_t len;
  char *text = generate(&len);
  vxp_source *src;
  vxp_program *clean;
  check(vxp_source_new(&src, ctx, "bench.vx", text, len), ctx, "vxp_source_new");
  check(vxp_program_parse(&clean, ctx, src), ctx, "vxp_program_parse");
  if (vxp_source_line_count(src) != LINES || vxp_program_diagnostic_count(clean) != 0) {
    fprintf(stderr, "bench_recovery: the generated program is not clean\n");
    return 1;
  }
  double base[5];
  for (int i = 0; i < 5; i++) {
    size_t d;
    uint32_t l;
    base[i] = parse_fresh(ctx, text, len, &d, &l);
  }
  qsort(base, 5, sizeof(base[0]), cmp_double);
  double clean_s = base[2];

  int functions = (LINES - HEADER_LINES) / LINES_PER_FN;
  char *buf = malloc(len + 64);
  if (!buf) return 1;
  double worst_fresh = 0, worst_inc = 0;
  const char *worst_fresh_what = "", *worst_inc_what = "";
  int worst_fresh_line = 0, worst_inc_line = 0, spread = 0, cases = 0;
  for (size_t s = 0; s < sizeof(strays) / sizeof(strays[0]); s++) {
    for (int p = 0; p < POSITIONS; p++) {
      /* the start of function k's first line, k spread from the first to the last */
      int k = (int)((long)(functions - 1) * p / (POSITIONS - 1));
      int line = HEADER_LINES + k * LINES_PER_FN;
      size_t at = 0;
      for (int l = 0; l < line; l++)
        at = (size_t)(strchr(text + at, '\n') - text) + 1;
      size_t n = strlen(strays[s]);
      memcpy(buf, text, at);
      memcpy(buf + at, strays[s], n);
      memcpy(buf + at + n, text + at, len - at);
      double fresh = 1e9, inc = 1e9;
      size_t fresh_diags = 0, inc_diags = 0;
      uint32_t last_line = 0;
      for (int r = 0; r < 2; r++) {
        double t = parse_fresh(ctx, buf, len + n, &fresh_diags, &last_line);
        if (t < fresh) fresh = t;
        t = parse_incremental(ctx, clean, at, strays[s], &inc_diags);
        if (t < inc) inc = t;
      }
      if (fresh_diags == 0 || inc_diags != fresh_diags) {
        fprintf(stderr, "bench_recovery: %zu syntax diagnostics fresh, %zu incremental\n",
                fresh_diags, inc_diags);
        return 1;
      }
      if (last_line > (uint32_t)(line + LINES_PER_FN)) spread++; /* past the next item */
      if (fresh > worst_fresh) {
        worst_fresh = fresh;
        worst_fresh_what = strays[s];
        worst_fresh_line = line + 1;
      }
      if (inc > worst_inc) {
        worst_inc = inc;
        worst_inc_what = strays[s];
        worst_inc_line = line + 1;
      }
      cases++;
    }
  }
  printf("bench_recovery: %d cases (%zu strays x %d positions) in a %d-line program (%zu bytes)\n",
         cases, sizeof(strays) / sizeof(strays[0]), POSITIONS, LINES, len);
  printf("  clean parse (median of 5):        %8.1f ms\n", clean_s * 1e3);
  printf("  worst fresh parse:                %8.1f ms (%.2fx), '%.*s' at line %d\n",
         worst_fresh * 1e3, worst_fresh / clean_s, (int)strcspn(worst_fresh_what, "\n"),
         worst_fresh_what, worst_fresh_line);
  printf("  worst incremental reparse:        %8.1f ms (%.2fx), '%.*s' at line %d\n",
         worst_inc * 1e3, worst_inc / clean_s, (int)strcspn(worst_inc_what, "\n"), worst_inc_what,
         worst_inc_line);
  printf("  errors reaching past their line:  %d of %d\n", spread, cases);
  int ok = worst_fresh <= MAX_RATIO * clean_s && worst_inc <= MAX_RATIO * clean_s && !spread;
  printf("  target: worst case within %.0fx of the clean parse, every error local: %s\n", MAX_RATIO,
         ok ? "met" : "NOT MET");
  free(buf);
  vxp_program_free(clean);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(text);
  return ok ? 0 : 1;
}
