/* SPDX-License-Identifier: Apache-2.0 */
/* test_sweep_formula.c - the sweep and the frontier read the largest fit from the peaks'
 * formulas (lib/sweep_formula.c): solved in closed form for the decode step with three
 * analyses, on the formula for a quadratic peak, both equal to a brute-force scan; a call
 * tree the formula does not hold is caught by the confirming analyses and bisected. */
#include "support.h"

#define MACHINE                                                                                    \
  "Memory CPU_DRAM {}\n"                                                                           \
  "Memory HBM { within: Memory::CPU_DRAM, capacity: 1 MiB, managed: explicit }\n"                  \
  "Topology Device { arch: nvptx64, memory: Memory::HBM, visible: [Memory::HBM],\n"                \
  "  transfer Memory::CPU_DRAM -> Memory::HBM : 10\n"                                              \
  "  transfer Memory::HBM -> Memory::CPU_DRAM : 10 }\n"

typedef struct fixture {
  vxp_context *ctx;
  vxp_source *src, *machine_src;
  vxp_program *prog;
  vxp_machine *machine, *host;
} fixture;

static fixture load(const char *text, const char *path) {
  fixture f;
  memset(&f, 0, sizeof(f));
  f.ctx = test_context();
  if (path) {
    assert_int_equal(vxp_source_load_file(&f.src, f.ctx, path), VXP_OK);
    assert_int_equal(vxp_machine_builtin(&f.machine, f.ctx, "a100-40"), VXP_OK);
    assert_int_equal(vxp_machine_builtin(&f.host, f.ctx, "host-default"), VXP_OK);
  } else {
    assert_int_equal(vxp_source_new(&f.src, f.ctx, "s.vx", text, strlen(text)), VXP_OK);
  }
  assert_int_equal(vxp_program_parse(&f.prog, f.ctx, f.src), VXP_OK);
  return f;
}

static void done(fixture *f) {
  vxp_machine_free(f->host);
  vxp_machine_free(f->machine);
  vxp_program_free(f->prog);
  vxp_source_free(f->src);
  vxp_context_free(f->ctx);
}

static vxp_sweep *sweep(fixture *f, uint64_t lo, uint64_t hi) {
  vxp_analyze_options o = VXP_ANALYZE_OPTIONS_INIT;
  o.machine = f->machine;
  o.host = f->host;
  vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
  so.name = f->machine ? "BATCH" : "N";
  so.lo = lo;
  so.hi = hi;
  vxp_sweep *sw = NULL;
  assert_int_equal(vxp_sweep_run(&sw, f->ctx, f->prog, &o, &so), VXP_OK);
  return sw;
}

/* The largest value in lo..hi that fits, by analysing every one (no error, every total
 * within capacity): the answer the sweep must give, however it searches. */
static bool brute_force(fixture *f, uint64_t lo, uint64_t hi, uint64_t *best) {
  bool found = false;
  for (uint64_t v = lo; v <= hi; v++) {
    vxp_const_override ov = {"N", v};
    vxp_analyze_options o = VXP_ANALYZE_OPTIONS_INIT;
    o.overrides = &ov;
    o.override_count = 1;
    vxp_analysis *an = NULL;
    assert_int_equal(vxp_analyze(&an, f->ctx, f->prog, &o), VXP_OK);
    if (vxp_analysis_admitted(an)) {
      found = true;
      *best = v;
    }
    vxp_analysis_free(an);
  }
  return found;
}

static uint64_t largest(const vxp_sweep *sw) {
  const vxp_sweep_point *p = vxp_sweep_largest(sw);
  assert_non_null(p);
  return vxp_sweep_point_value(p);
}

static void decode_batch_is_solved_in_closed_form_and_confirmed_by_two_analyses(void **state) {
  (void)state;
  fixture f = load(NULL, "examples/llama2/decode.vx");
  vxp_sweep *sw = sweep(&f, 1, 256);
  assert_int_equal(vxp_sweep_method(sw), VXP_SEARCH_FORMULA);
  assert_string_equal(vxp_search_name(VXP_SEARCH_FORMULA), "formula");
  assert_true(largest(sw) == 13);
  assert_int_equal(vxp_sweep_evaluation_count(sw), 3); /* lo, 13 and 14: bisection took 10 */
  assert_non_null(strstr(vxp_sweep_reason(sw),
                         "main's HBM peak is 14,176,298,752 + 2,147,745,792 x BATCH bytes, solved "
                         "in closed form: BATCH = 13, confirmed by the analyses at 13 (fits) and "
                         "14 (does not)"));
  vxp_sweep_free(sw);
  done(&f);
}

static void a_quadratic_peak_is_solved_on_the_formula(void **state) {
  (void)state;
  fixture f = load(MACHINE "const N : i64 = 4;\n"
                           "fn main() -> i32 {\n"
                           "  let a = transfer(Tensor<f32, [N, N + 3]>::new(), Memory::HBM);\n"
                           "  spawn on(Topology::Device) { let s = a[0][0]; }\n"
                           "  return 0;\n"
                           "}\n",
                   NULL);
  vxp_sweep *sw = sweep(&f, 1, 1000);
  assert_int_equal(vxp_sweep_method(sw), VXP_SEARCH_FORMULA);
  assert_non_null(strstr(vxp_sweep_reason(sw), "solved on the formula"));
  uint64_t best = 0;
  assert_true(brute_force(&f, 1, 1000, &best));
  assert_true(largest(sw) == best); /* 4 N (N + 3) <= 1 MiB: N = 510 */
  assert_true(best == 510);
  vxp_sweep_free(sw);
  done(&f);
}

static void a_call_tree_the_formula_does_not_hold_falls_back_to_bisection(void **state) {
  (void)state;
  /* main holds 512 KiB while `grow` places 1 KiB x N: the call-tree total decides, which
   * no resident set's own peak says. */
  fixture f = load(MACHINE "const N : i64 = 4;\n"
                           "fn grow() -> i32 {\n"
                           "  let b = transfer(Tensor<u8, [N * 1024]>::new(), Memory::HBM);\n"
                           "  spawn on(Topology::Device) { let s = b[0]; }\n"
                           "  return 1;\n"
                           "}\n"
                           "fn main() -> i32 {\n"
                           "  let a = transfer(Tensor<u8, [524288]>::new(), Memory::HBM);\n"
                           "  spawn on(Topology::Device) { let s = a[0]; }\n"
                           "  return grow();\n"
                           "}\n",
                   NULL);
  vxp_sweep *sw = sweep(&f, 1, 2000);
  assert_int_equal(vxp_sweep_method(sw), VXP_SEARCH_BISECTION);
  assert_non_null(strstr(vxp_sweep_reason(sw), "which the analyses did not confirm"));
  assert_true(largest(sw) == 512); /* 512 KiB + 512 x 1 KiB = 1 MiB */
  vxp_sweep_free(sw);
  done(&f);
}

static void a_rounded_division_keeps_the_bisection_and_says_why(void **state) {
  (void)state;
  fixture f = load(MACHINE "const N : i64 = 4;\n"
                           "fn main() -> i32 {\n"
                           "  let a = transfer(Tensor<u8, [N / 3, 1024]>::new(), Memory::HBM);\n"
                           "  spawn on(Topology::Device) { let s = a[0][0]; }\n"
                           "  return 0;\n"
                           "}\n",
                   NULL);
  vxp_sweep *sw = sweep(&f, 1, 5000);
  assert_int_equal(vxp_sweep_method(sw), VXP_SEARCH_BISECTION);
  assert_non_null(strstr(vxp_sweep_reason(sw),
                         "main's HBM peak is no formula in N: `N / 3` (line 8) "
                         "is a division (rounded down) that depends on N"));
  assert_true(largest(sw) == 3074); /* 3074 / 3 = 1024 rows of 1 KiB */
  vxp_sweep_free(sw);
  done(&f);
}

static void frontier_reports_the_formulas_answer_beside_its_table(void **state) {
  (void)state;
  fixture f = load(NULL, "examples/llama2/decode.vx");
  vxp_analyze_options o = VXP_ANALYZE_OPTIONS_INIT;
  o.machine = f.machine;
  o.host = f.host;
  vxp_frontier_options fo;
  assert_int_equal(vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION), VXP_OK);
  fo.name = "BATCH";
  fo.lo = 1;
  fo.hi = 20;
  vxp_frontier *fr = NULL;
  assert_int_equal(vxp_frontier_run(&fr, f.ctx, f.prog, &o, &fo), VXP_OK);
  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.format = VXP_REPORT_JSON;
  vxp_report *rep = NULL;
  assert_int_equal(vxp_report_frontier(&rep, f.ctx, fr, &ro), VXP_OK);
  assert_non_null(strstr(vxp_report_text(rep, NULL),
                         "\"largest_fit_by_formula\": {\"method\": \"closed_form\", \"value\": 13, "
                         "\"agrees\": true"));
  vxp_report_free(rep);
  vxp_frontier_free(fr);
  done(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(decode_batch_is_solved_in_closed_form_and_confirmed_by_two_analyses),
      cmocka_unit_test(a_quadratic_peak_is_solved_on_the_formula),
      cmocka_unit_test(a_call_tree_the_formula_does_not_hold_falls_back_to_bisection),
      cmocka_unit_test(a_rounded_division_keeps_the_bisection_and_says_why),
      cmocka_unit_test(frontier_reports_the_formulas_answer_beside_its_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
