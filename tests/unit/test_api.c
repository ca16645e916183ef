/* SPDX-License-Identifier: Apache-2.0 */
/* test_api.c - the contract of vxpeak.h seen from outside (this file includes nothing
 * private): versions, options structs, error codes and messages, `out` left alone on
 * failure, NULL accepted by every _free and tolerated by every accessor. */
#include "support.h"

static void test_api__version_macros_match_the_library(void **state) {
  (void)state;
  char expected[32];
  assert_int_equal(vxp_version(), VXP_VERSION_NUMBER);
  assert_string_equal(vxp_version_string(), VXP_VERSION_STRING);
  snprintf(expected, sizeof(expected), "%d.%d.%d", VXP_VERSION_MAJOR, VXP_VERSION_MINOR,
           VXP_VERSION_PATCH);
  assert_string_equal(VXP_VERSION_STRING, expected);
  assert_true(VXP_VERSION_CHECK(VXP_VERSION_MAJOR, VXP_VERSION_MINOR, VXP_VERSION_PATCH));
  assert_false(VXP_VERSION_CHECK(VXP_VERSION_MAJOR + 1, 0, 0));
  /* The SONAME carries 0.MINOR before 1.0 and MAJOR after. */
  if (VXP_VERSION_MAJOR == 0)
    snprintf(expected, sizeof(expected), "0.%d", VXP_VERSION_MINOR);
  else
    snprintf(expected, sizeof(expected), "%d", VXP_VERSION_MAJOR);
  assert_string_equal(VXP_SOVERSION, expected);
  assert_int_equal(vxp_grammar_abi(), 14); /* what the 0.20 runtime supports (13-14) */
}

static void test_api__options_structs_are_versioned(void **state) {
  (void)state;
  vxp_context_options copts;
  vxp_analyze_options aopts;
  memset(&copts, 0xAB, sizeof(copts));
  assert_int_equal(vxp_context_options_init(&copts, VXP_CONTEXT_OPTIONS_VERSION), VXP_OK);
  assert_int_equal(copts.version, VXP_CONTEXT_OPTIONS_VERSION);
  assert_null(copts.allocator);
  assert_int_equal(vxp_context_options_init(&copts, VXP_CONTEXT_OPTIONS_VERSION + 1), VXP_EVERSION);
  assert_int_equal(vxp_context_options_init(NULL, VXP_CONTEXT_OPTIONS_VERSION), VXP_EINVAL);
  memset(&aopts, 0xAB, sizeof(aopts));
  assert_int_equal(vxp_analyze_options_init(&aopts, VXP_ANALYZE_OPTIONS_VERSION), VXP_OK);
  assert_null(aopts.machine);
  assert_null(aopts.host);
  assert_int_equal(vxp_analyze_options_init(&aopts, 0), VXP_EVERSION);

  /* A context asked for with an unknown options version is refused; out stays as it was. */
  vxp_context *ctx = (vxp_context *)&copts;
  copts.version = VXP_CONTEXT_OPTIONS_VERSION + 1;
  assert_int_equal(vxp_context_new(&ctx, &copts), VXP_EVERSION);
  assert_ptr_equal(ctx, (vxp_context *)&copts);
  assert_int_equal(vxp_context_new(NULL, NULL), VXP_EINVAL);

  /* An allocator without all three functions is a misuse. */
  vxp_allocator half = {NULL, NULL, NULL, NULL};
  vxp_context_options with_half = VXP_CONTEXT_OPTIONS_INIT;
  with_half.allocator = &half;
  assert_int_equal(vxp_context_new(&ctx, &with_half), VXP_EINVAL);

  /* An analysis asked for with an unknown options version: the message says so. */
  test_run r = test_analyse("fn main() -> i32 { return 0; }\n");
  vxp_analysis *an = NULL;
  aopts.version = VXP_ANALYZE_OPTIONS_VERSION + 1;
  assert_int_equal(vxp_analyze(&an, r.ctx, r.prog, &aopts), VXP_EVERSION);
  assert_null(an);
  assert_int_equal(vxp_context_errcode(r.ctx), VXP_EVERSION);
  assert_non_null(strstr(vxp_context_errmsg(r.ctx), "version"));
  test_done(&r);
}

static void test_api__failures_leave_a_message_and_out_alone(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *src = (vxp_source *)ctx; /* a sentinel: must survive a failed call */
  assert_int_equal(vxp_context_errcode(ctx), VXP_OK);
  assert_string_equal(vxp_context_errmsg(ctx), "");
  assert_int_equal(vxp_source_load_file(&src, ctx, "tests/unit/no-such-file.vx"), VXP_EIO);
  assert_ptr_equal(src, (vxp_source *)ctx);
  assert_int_equal(vxp_context_errcode(ctx), VXP_EIO);
  assert_non_null(strstr(vxp_context_errmsg(ctx), "tests/unit/no-such-file.vx"));
  assert_non_null(strstr(vxp_context_errmsg(ctx), "No such file"));

  vxp_machine *m = (vxp_machine *)ctx;
  assert_int_equal(vxp_machine_builtin(&m, ctx, "no-such-gpu"), VXP_ENOTFOUND);
  assert_ptr_equal(m, (vxp_machine *)ctx);
  assert_non_null(strstr(vxp_context_errmsg(ctx), "no-such-gpu"));
  assert_int_equal(vxp_source_new(&src, ctx, "x", NULL, 3), VXP_EINVAL);
  assert_int_equal(vxp_program_parse(NULL, ctx, NULL), VXP_EINVAL);
  vxp_context_free(ctx);
}

static void test_api__every_code_has_static_text(void **state) {
  (void)state;
  static const int codes[] = {VXP_OK,  VXP_ERROR,      VXP_ENOMEM,   VXP_EINVAL,
                              VXP_EIO, VXP_ECANCELLED, VXP_EVERSION, VXP_ENOTFOUND};
  for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
    const char *text = vxp_strerror(codes[i]);
    assert_non_null(text);
    assert_true(strlen(text) > 0);
    assert_string_not_equal(text, vxp_strerror(12345));
  }
  assert_string_equal(vxp_strerror(VXP_ENOMEM), "out of memory");
  assert_string_equal(vxp_strerror(12345), "unknown error code");
}

static void test_api__null_is_accepted_everywhere(void **state) {
  (void)state;
  vxp_context_free(NULL);
  vxp_source_free(NULL);
  vxp_program_free(NULL);
  vxp_machine_free(NULL);
  vxp_analysis_free(NULL);
  vxp_cuda_free(NULL);
  assert_int_equal(vxp_context_errcode(NULL), VXP_EINVAL);
  assert_string_equal(vxp_context_errmsg(NULL), "");
  assert_null(vxp_source_label(NULL));
  assert_null(vxp_source_text(NULL, NULL));
  assert_null(vxp_source_line(NULL, 0, NULL));
  assert_int_equal(vxp_source_line_count(NULL), 0);
  assert_int_equal(vxp_program_diagnostic_count(NULL), 0);
  assert_null(vxp_program_diagnostic(NULL, 0));
  assert_null(vxp_program_sexp(NULL));
  assert_int_equal(vxp_analysis_admitted(NULL), 0);
  assert_int_equal(vxp_analysis_diagnostic_count(NULL), 0);
  assert_null(vxp_analysis_resident_set(NULL, 0));
  assert_null(vxp_analysis_record(NULL, 0));
  assert_null(vxp_analysis_json(NULL, NULL));
  assert_null(vxp_diagnostic_message(NULL));
  assert_int_equal(vxp_diagnostic_note_count(NULL), 0);
  assert_int_equal(vxp_resident_set_peak_bytes(NULL), 0);
  assert_int_equal(vxp_record_bytes(NULL), 0);
  vxp_range none = vxp_diagnostic_range(NULL);
  assert_int_equal(none.end_byte, 0);
}

static void test_api__indexes_out_of_range_are_null(void **state) {
  (void)state;
  test_run r = test_analyse(
      "Memory CPU_DRAM {}\n"
      "Memory W { within: Memory::CPU_DRAM, capacity: 1 MiB, managed: explicit }\n"
      "fn main() -> i32 { let a = transfer(Tensor<u8, [16]>::uninit(), Memory::W); print(a); "
      "return 0; }\n");
  size_t sets = vxp_analysis_resident_set_count(r.an);
  assert_int_equal(sets, 1);
  assert_non_null(vxp_analysis_resident_set(r.an, 0));
  assert_null(vxp_analysis_resident_set(r.an, sets));
  assert_null(vxp_analysis_record(r.an, vxp_analysis_record_count(r.an)));
  assert_null(vxp_analysis_diagnostic(r.an, vxp_analysis_diagnostic_count(r.an)));
  assert_null(vxp_program_diagnostic(r.prog, (size_t)-1));
  assert_null(vxp_source_line(r.src, vxp_source_line_count(r.src), NULL));
  /* The JSON is cached: the same pointer each time, owned by the analysis. */
  size_t len1, len2;
  const char *j1 = vxp_analysis_json(r.an, &len1), *j2 = vxp_analysis_json(r.an, &len2);
  assert_ptr_equal(j1, j2);
  assert_int_equal(len1, len2);
  assert_int_equal(strlen(j1), len1);
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_api__version_macros_match_the_library),
      cmocka_unit_test(test_api__options_structs_are_versioned),
      cmocka_unit_test(test_api__failures_leave_a_message_and_out_alone),
      cmocka_unit_test(test_api__every_code_has_static_text),
      cmocka_unit_test(test_api__null_is_accepted_everywhere),
      cmocka_unit_test(test_api__indexes_out_of_range_are_null),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
