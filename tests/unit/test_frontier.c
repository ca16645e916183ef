/* SPDX-License-Identifier: Apache-2.0 */
/* test_frontier.c - the batch frontier (lib/frontier.c): every value analysed, the largest
 * that fits, where the bound turns from memory to compute, the best throughput that fits,
 * tokens per call from a constant, the margin, and the refusals. */
#include <math.h>

#include "support.h"

/* 1000 GB/s and f16 at 100 TFLOP/s: the ridge is 100 operations per byte. The capacity,
 * 160,000 bytes, holds w (131,072) and x (128 x B) while B <= 226. A call does 2 x 65,536 x
 * B operations (1,310.72 x B ps) and moves 131,072 + 128 x B bytes compulsorily (as many
 * ps): compute binds from 1,310.72 B > 131,072 + 128 B, B > 110.8, so at 111. */
static const char *const program_text =
    "Memory CPU_DRAM {}\n"
    "Memory W { within: Memory::CPU_DRAM, capacity: 160 KB, bandwidth: 1000 GB/s, "
    "managed: explicit }\n"
    "Topology Dev { arch: nvptx64, memory: Memory::W, visible: [Memory::W],\n"
    "  // compute: f16 100 TFLOP/s\n"
    "  transfer Memory::CPU_DRAM -> Memory::W : 10 GB/s }\n"
    "const B : i64 = 1;\n"
    "fn main() -> i32 {\n"
    "  let w = transfer(Tensor<f16, [64, 1024]>::uninit(), Memory::W);\n"
    "  let x = transfer(Tensor<f16, [B, 64]>::uninit(), Memory::W);\n"
    "  let mut acc : f32 = 0.0;\n"
    "  spawn on(Topology::Dev) {\n"
    "    for k in 0..64 { for n in 0..1024 { for b in 0..B {\n"
    "      acc = acc + w[k][n] * x[b][k];\n"
    "    } } }\n"
    "  }\n"
    "  return 0;\n"
    "}\n";

typedef struct fixture {
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
} fixture;

static fixture open_program(void) {
  fixture f;
  f.ctx = test_context();
  assert_int_equal(vxp_source_new(&f.src, f.ctx, "f.vx", program_text, strlen(program_text)),
                   VXP_OK);
  assert_int_equal(vxp_program_parse(&f.prog, f.ctx, f.src), VXP_OK);
  return f;
}

static void close_program(fixture *f) {
  vxp_program_free(f->prog);
  vxp_source_free(f->src);
  vxp_context_free(f->ctx);
}

static double tokens_per_second(const vxp_frontier_point *p) {
  uint64_t ps = 0;
  if (!vxp_frontier_point_call_time_ps(p, &ps) || ps == 0) return 0.0;
  return 1e12 / (double)ps * (double)vxp_frontier_point_tokens(p);
}

static vxp_frontier *run(fixture *f, uint64_t lo, uint64_t hi, uint32_t margin_ppm) {
  vxp_frontier_options fo;
  assert_int_equal(vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION), VXP_OK);
  fo.name = "B";
  fo.lo = lo;
  fo.hi = hi;
  fo.margin_ppm = margin_ppm;
  fo.tokens_const = "B";
  vxp_frontier *out = NULL;
  assert_int_equal(vxp_frontier_run(&out, f->ctx, f->prog, NULL, &fo), VXP_OK);
  return out;
}

static void test_frontier__names_the_largest_fit_the_turn_to_compute_and_the_best(void **state) {
  (void)state;
  fixture f = open_program();
  vxp_frontier *fr = run(&f, 100, 230, 0);
  assert_int_equal(vxp_frontier_point_count(fr), 131);
  assert_string_equal(vxp_frontier_function(fr), "main");
  const vxp_frontier_point *largest = vxp_frontier_largest_fit(fr);
  assert_non_null(largest);
  assert_true(vxp_frontier_point_value(largest) == 226);
  assert_true(vxp_frontier_point_peak_bytes(largest) == 131072 + 128 * 226);
  assert_true(vxp_frontier_point_capacity_bytes(largest) == 160000);
  const vxp_frontier_point *next = vxp_frontier_point_at(fr, 127); /* B = 227 */
  assert_false(vxp_frontier_point_fits(next));
  assert_int_equal(vxp_frontier_point_reason(next), VXP_MISFIT_OVER_CAPACITY);
  const vxp_frontier_point *turn = vxp_frontier_first_compute_bound(fr);
  assert_non_null(turn);
  assert_true(vxp_frontier_point_value(turn) == 111);
  assert_int_equal(vxp_frontier_point_bound(vxp_frontier_point_at(fr, 10)), VXP_BOUND_MEMORY);
  /* Each call produces B tokens; at B = 100 (memory-bound) a call is 131,072 + 12,800 =
   * 143,872 ps, 100 x 10^12 / 143,872 tokens/s. */
  const vxp_frontier_point *first = vxp_frontier_point_at(fr, 0);
  uint64_t call = 0;
  assert_true(vxp_frontier_point_call_time_ps(first, &call));
  assert_true(call == 143872);
  assert_true(vxp_frontier_point_tokens(first) == 100);
  double tps = tokens_per_second(first);
  assert_true(fabs(tps - 100e12 / 143872.0) < 1e-3 * tps);
  /* The best that fits is compute-bound and fits, and no fitting value does better. */
  const vxp_frontier_point *best = vxp_frontier_best_fit(fr);
  assert_non_null(best);
  assert_true(vxp_frontier_point_fits(best));
  for (size_t i = 0; i < vxp_frontier_point_count(fr); i++) {
    const vxp_frontier_point *p = vxp_frontier_point_at(fr, i);
    if (vxp_frontier_point_fits(p)) assert_true(tokens_per_second(p) <= tokens_per_second(best));
  }
  vxp_frontier_free(fr);
  close_program(&f);
}

static void test_frontier__the_margin_moves_the_largest_fit(void **state) {
  (void)state;
  fixture f = open_program();
  /* 10% free: 131,072 + 128 B <= 144,000, B <= 101. */
  vxp_frontier *fr = run(&f, 95, 105, 100000);
  assert_true(vxp_frontier_point_value(vxp_frontier_largest_fit(fr)) == 101);
  assert_int_equal(vxp_frontier_point_reason(vxp_frontier_point_at(fr, 7)),
                   VXP_MISFIT_WITHIN_MARGIN);
  assert_null(vxp_frontier_first_compute_bound(fr));
  vxp_frontier_free(fr);
  close_program(&f);
}

static void test_frontier__bad_requests_are_refused_with_a_reason(void **state) {
  (void)state;
  fixture f = open_program();
  vxp_frontier_options fo;
  assert_int_equal(vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION), VXP_OK);
  vxp_frontier *out = NULL;
  fo.name = "NOPE";
  fo.lo = 1;
  fo.hi = 2;
  assert_int_equal(vxp_frontier_run(&out, f.ctx, f.prog, NULL, &fo), VXP_ENOTFOUND);
  fo.name = "B";
  fo.hi = 100000;
  assert_int_equal(vxp_frontier_run(&out, f.ctx, f.prog, NULL, &fo), VXP_EINVAL);
  assert_non_null(strstr(vxp_context_errmsg(f.ctx), "narrow the range"));
  fo.hi = 2;
  fo.tokens_const = "MISSING";
  assert_int_equal(vxp_frontier_run(&out, f.ctx, f.prog, NULL, &fo), VXP_ENOTFOUND);
  assert_null(out);
  assert_int_equal(vxp_frontier_options_init(&fo, 99), VXP_EVERSION);
  close_program(&f);
}

/* A frontier and a sweep ask one kind of question (vxp_question__check): each bad question
 * gets the same code from both, and the message names the call that was given it. */
static void test_frontier__refuses_every_bad_question_a_sweep_refuses(void **state) {
  (void)state;
  fixture f = open_program();
  vxp_const_override b_too = {"B", 4};
  vxp_analyze_options overridden = VXP_ANALYZE_OPTIONS_INIT;
  overridden.overrides = &b_too;
  overridden.override_count = 1;
  vxp_analyze_options dangling = VXP_ANALYZE_OPTIONS_INIT;
  dangling.override_count = 1;
  struct {
    const char *name;
    uint64_t lo, hi;
    uint32_t margin_ppm;
    const vxp_analyze_options *analyze;
    int rc;
    const char *says;
  } cases[] = {
      {"", 1, 2, 0, NULL, VXP_EINVAL, "no constant name"},
      {"B", 3, 2, 0, NULL, VXP_EINVAL, "lo 3 is greater than hi 2"},
      {"B", 1, 2, 1000000, NULL, VXP_EINVAL, "leaves nothing to fit in"},
      {"B", 1, 2, 0, &overridden, VXP_EINVAL, "overridden"},
      {"B", 1, 2, 0, &dangling, VXP_EINVAL, "with no overrides"},
      {"NOPE", 1, 2, 0, NULL, VXP_ENOTFOUND, "never names 'NOPE'"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    vxp_frontier_options fo;
    assert_int_equal(vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION), VXP_OK);
    fo.name = cases[i].name;
    fo.lo = cases[i].lo;
    fo.hi = cases[i].hi;
    fo.margin_ppm = cases[i].margin_ppm;
    vxp_frontier *fr = NULL;
    assert_int_equal(vxp_frontier_run(&fr, f.ctx, f.prog, cases[i].analyze, &fo), cases[i].rc);
    assert_null(fr);
    if (!strstr(vxp_context_errmsg(f.ctx), cases[i].says))
      fail_msg("frontier case %zu: '%s' lacks '%s'", i, vxp_context_errmsg(f.ctx), cases[i].says);
    vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
    so.name = cases[i].name;
    so.lo = cases[i].lo;
    so.hi = cases[i].hi;
    so.margin_ppm = cases[i].margin_ppm;
    vxp_sweep *sw = NULL;
    assert_int_equal(vxp_sweep_run(&sw, f.ctx, f.prog, cases[i].analyze, &so), cases[i].rc);
    assert_null(sw);
    if (!strstr(vxp_context_errmsg(f.ctx), cases[i].says))
      fail_msg("sweep case %zu: '%s' lacks '%s'", i, vxp_context_errmsg(f.ctx), cases[i].says);
  }
  close_program(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_frontier__names_the_largest_fit_the_turn_to_compute_and_the_best),
      cmocka_unit_test(test_frontier__the_margin_moves_the_largest_fit),
      cmocka_unit_test(test_frontier__bad_requests_are_refused_with_a_reason),
      cmocka_unit_test(test_frontier__refuses_every_bad_question_a_sweep_refuses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
