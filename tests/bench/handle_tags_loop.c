/* SPDX-License-Identifier: Apache-2.0 */
/* handle_tags_loop.c - the cost of the handle checks (lib/tag.h) where it is largest: a tight
 * loop of the cheapest accessors, each of which does little but the check. Linked once
 * against the library as built and once against one built with -DVXP_NO_HANDLE_TAGS, by
 * tests/bench/bench_handle_tags.sh, which compares the two.
 * A second loop measures a whole call, vxp_analyze and vxp_analysis_free, where the checks
 * are a few compares among thousands of instructions.
 * usage: handle_tags_loop CALLS          -> nanoseconds per accessor call
 *        handle_tags_loop --analyze N    -> microseconds per analysis */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vxpeak.h"

static const char program[] = "const N: i64 = 4;\n"
                              "fn main() -> i32 {\n"
                              "  let t = transfer(Tensor<f32, [N, 1024]>::uninit(), Memory::HBM);\n"
                              "  print(t[0][0]);\n"
                              "  return 0;\n"
                              "}\n";

static double seconds_since(const struct timespec *t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

int main(int argc, char **argv) {
  int analyses = argc > 2 && strcmp(argv[1], "--analyze") == 0;
  long calls = argc > 1 ? atol(argv[analyses ? 2 : 1]) : 0;
  if (calls <= 0) {
    fprintf(stderr, "usage: handle_tags_loop CALLS | --analyze N\n");
    return 2;
  }
  vxp_context *ctx = NULL;
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  vxp_analysis *an = NULL;
  if (vxp_context_new(&ctx, NULL) != VXP_OK ||
      vxp_source_new(&src, ctx, "loop.vx", program, strlen(program)) != VXP_OK ||
      vxp_program_parse(&prog, ctx, src) != VXP_OK || vxp_analyze(&an, ctx, prog, NULL) != VXP_OK) {
    fprintf(stderr, "handle_tags_loop: setup failed: %s\n", vxp_context_errmsg(ctx));
    return 1;
  }
  if (analyses) {
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < calls; i++) {
      vxp_analysis *more = NULL;
      if (vxp_analyze(&more, ctx, prog, NULL) != VXP_OK) return 1;
      vxp_analysis_free(more);
    }
    printf("%.3f\n", seconds_since(&t0) * 1e6 / (double)calls);
    vxp_analysis_free(an);
    vxp_program_free(prog);
    vxp_source_free(src);
    vxp_context_free(ctx);
    return 0;
  }
  /* Four accessors of four kinds a round; the sum keeps every call. */
  volatile size_t sink = 0;
  size_t sum = 0;
  long rounds = calls / 4;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long i = 0; i < rounds; i++) {
    sum += vxp_analysis_record_count(an);
    sum += (size_t)vxp_analysis_admitted(an);
    sum += vxp_program_diagnostic_count(prog);
    sum += vxp_source_line_count(src);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  sink = sum;
  (void)sink;
  double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
  printf("%.3f\n", ns / (double)(rounds * 4));
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return 0;
}
