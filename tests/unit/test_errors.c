/* SPDX-License-Identifier: Apache-2.0 */
/* test_errors.c - the context's error state describes the latest call that can fail: a
 * failing call sets its code and message, a succeeding one clears them (SQLite's rule), so
 * "did the last call fail" has an answer. */
#include "support.h"

static const char program[] = "Memory HBM { capacity: 1 GiB, granule: 256 B }\n"
                              "const N : i64 = 4;\n"
                              "fn main() -> i32 {\n"
                              "  let t = transfer(Tensor::<f32, [N, 1024]>::new(), Memory::HBM);\n"
                              "  print(t[0][0]);\n"
                              "  return 0;\n"
                              "}\n";

/* Make a call fail on `ctx`, and check that it says so. */
static void fail_once(vxp_context *ctx) {
  vxp_machine *m = NULL;
  assert_int_equal(vxp_machine_builtin(&m, ctx, "no-such-machine"), VXP_ENOTFOUND);
  assert_null(m);
  assert_int_equal(vxp_context_errcode(ctx), VXP_ENOTFOUND);
  assert_true(strlen(vxp_context_errmsg(ctx)) > 0);
}

static void expect_cleared(vxp_context *ctx, const char *call) {
  if (vxp_context_errcode(ctx) != VXP_OK || vxp_context_errmsg(ctx)[0] != '\0')
    fail_msg("%s succeeded but left code %d \"%s\"", call, vxp_context_errcode(ctx),
             vxp_context_errmsg(ctx));
}

static void test_errors__a_new_context_has_no_error(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  assert_int_equal(vxp_context_errcode(ctx), VXP_OK);
  assert_string_equal(vxp_context_errmsg(ctx), "");
  assert_int_equal(vxp_context_errcode(NULL), VXP_EINVAL);
  vxp_context_free(ctx);
}

/* The case: a failed load, then a successful analysis. */
static void test_errors__a_success_after_a_failure_clears_the_state(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *missing = NULL, *src;
  assert_int_equal(vxp_source_load_file(&missing, ctx, "tests/unit/no-such-file.vx"), VXP_EIO);
  assert_int_equal(vxp_context_errcode(ctx), VXP_EIO);
  assert_non_null(strstr(vxp_context_errmsg(ctx), "no-such-file.vx"));
  assert_int_equal(vxp_source_new(&src, ctx, "e.vx", program, strlen(program)), VXP_OK);
  expect_cleared(ctx, "vxp_source_new");
  vxp_source_free(src);
  vxp_context_free(ctx);
}

/* Every call that can fail clears the state when it succeeds. */
static void test_errors__every_fallible_call_clears_the_state_on_success(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *src, *file, *edited, *msrc;
  vxp_program *prog, *reparsed;
  vxp_machine *machine, *host;
  vxp_analysis *an;

  fail_once(ctx);
  assert_int_equal(vxp_source_new(&src, ctx, "e.vx", program, strlen(program)), VXP_OK);
  expect_cleared(ctx, "vxp_source_new");
  fail_once(ctx);
  assert_int_equal(vxp_source_load_file(&file, ctx, "examples/blog/peak_not_sum.vx"), VXP_OK);
  expect_cleared(ctx, "vxp_source_load_file");
  fail_once(ctx);
  assert_int_equal(vxp_source_edit(&edited, src, 0, 0, "\n", 1), VXP_OK);
  expect_cleared(ctx, "vxp_source_edit");
  fail_once(ctx);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  expect_cleared(ctx, "vxp_program_parse");
  fail_once(ctx);
  assert_int_equal(vxp_program_reparse(&reparsed, ctx, prog, edited), VXP_OK);
  expect_cleared(ctx, "vxp_program_reparse");
  fail_once(ctx);
  assert_non_null(vxp_program_sexp(prog));
  expect_cleared(ctx, "vxp_program_sexp");
  fail_once(ctx);
  assert_non_null(vxp_program_sexp(prog)); /* cached: still a success */
  expect_cleared(ctx, "vxp_program_sexp (cached)");
  static const char host_text[] = "Memory CPU_DRAM { managed: explicit }\n";
  assert_int_equal(vxp_source_new(&msrc, ctx, "h.vx", host_text, strlen(host_text)), VXP_OK);
  fail_once(ctx);
  assert_int_equal(vxp_machine_load(&host, ctx, msrc), VXP_OK);
  expect_cleared(ctx, "vxp_machine_load");
  fail_once(ctx);
  assert_int_equal(vxp_machine_builtin(&machine, ctx, "a100-40"), VXP_OK);
  expect_cleared(ctx, "vxp_machine_builtin");
  vxp_machine_free(machine);
  fail_once(ctx);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.host = host;
  assert_int_equal(vxp_analyze(&an, ctx, prog, &opts), VXP_OK);
  expect_cleared(ctx, "vxp_analyze");
  fail_once(ctx);
  assert_non_null(vxp_analysis_json(an, NULL));
  expect_cleared(ctx, "vxp_analysis_json");
  fail_once(ctx);
  assert_non_null(vxp_analysis_sarif(an, NULL));
  expect_cleared(ctx, "vxp_analysis_sarif");
  fail_once(ctx);
  vxp_roofline *rf;
  assert_int_equal(vxp_roofline_new(&rf, ctx, an, "main"), VXP_OK);
  expect_cleared(ctx, "vxp_roofline_new");
  vxp_roofline_free(rf);
  fail_once(ctx);
  vxp_cuda *cu;
  assert_int_equal(vxp_cuda_generate(&cu, ctx, an), VXP_OK);
  expect_cleared(ctx, "vxp_cuda_generate");
  vxp_cuda_free(cu);
  fail_once(ctx);
  vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
  so.name = "N";
  so.lo = 1;
  so.hi = 8;
  vxp_sweep *sw;
  assert_int_equal(vxp_sweep_run(&sw, ctx, prog, &opts, &so), VXP_OK);
  expect_cleared(ctx, "vxp_sweep_run");
  vxp_sweep_free(sw);

  vxp_analysis_free(an);
  vxp_machine_free(host);
  vxp_program_free(reparsed);
  vxp_program_free(prog);
  vxp_source_free(msrc);
  vxp_source_free(edited);
  vxp_source_free(file);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

/* A failing call replaces an older failure's code and message with its own. */
static void test_errors__each_failure_reports_itself(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *src, *out = NULL;
  fail_once(ctx);
  assert_int_equal(vxp_source_new(&src, ctx, "e.vx", "abc", 3), VXP_OK);
  assert_int_equal(vxp_source_edit(&out, src, 2, 9, "x", 1), VXP_EINVAL);
  assert_int_equal(vxp_context_errcode(ctx), VXP_EINVAL);
  assert_non_null(strstr(vxp_context_errmsg(ctx), "edit range"));
  vxp_program *prog = NULL;
  assert_int_equal(vxp_program_parse(&prog, ctx, NULL), VXP_EINVAL);
  assert_non_null(strstr(vxp_context_errmsg(ctx), "vxp_program_parse"));
  vxp_analysis *an = NULL;
  vxp_analyze_options bad = VXP_ANALYZE_OPTIONS_INIT;
  bad.version = 999;
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_int_equal(vxp_analyze(&an, ctx, prog, &bad), VXP_EVERSION);
  assert_int_equal(vxp_context_errcode(ctx), VXP_EVERSION);
  assert_null(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_errors__a_new_context_has_no_error),
      cmocka_unit_test(test_errors__a_success_after_a_failure_clears_the_state),
      cmocka_unit_test(test_errors__every_fallible_call_clears_the_state_on_success),
      cmocka_unit_test(test_errors__each_failure_reports_itself),
  };
  return cmocka_run_group_tests_name("errors", tests, NULL, NULL);
}
