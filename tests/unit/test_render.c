/* SPDX-License-Identifier: Apache-2.0 */
/* test_render.c - vxp_diagnostic_render: the compiler form with the source line and a caret
 * span, notes after it, colour only when asked, and snprintf's contract for the buffer. */
#include "support.h"

static const char program[] = "fn f() -> i32 {\n"
                              "  let = 1;\n"
                              "  return 0;\n"
                              "}\n";

static void test_render__a_syntax_error_in_compiler_form(void **state) {
  (void)state;
  test_run r = test_analyse(program);
  const vxp_diagnostic *d = test_find_diag(r.an, "VXP0001");
  assert_non_null(d);
  char buf[1024];
  size_t n = vxp_diagnostic_render(d, 0, buf, sizeof(buf));
  assert_int_equal(n, strlen(buf));
  const char *expected_head = "test.vx:2:3: error[VXP0001]: syntax error: unexpected 'let'";
  assert_memory_equal(buf, expected_head, strlen(expected_head));
  /* the source line under a gutter, and carets under the range */
  assert_non_null(strstr(buf, "\n  |\n2 |   let = 1;\n  |   ^^^^^\n"));
  assert_null(strchr(buf, '\x1b'));
  /* colour: the same text with ANSI escapes around it */
  char colour[2048];
  size_t m = vxp_diagnostic_render(d, VXP_RENDER_COLOR, colour, sizeof(colour));
  assert_true(m > n);
  assert_non_null(strstr(colour, "\x1b[1;31merror[VXP0001]"));
  test_done(&r);
}

static void test_render__the_buffer_contract_is_snprintfs(void **state) {
  (void)state;
  test_run r = test_analyse(program);
  const vxp_diagnostic *d = test_find_diag(r.an, "VXP0001");
  char full[1024];
  size_t n = vxp_diagnostic_render(d, 0, full, sizeof(full));
  assert_int_equal(vxp_diagnostic_render(d, 0, NULL, 0), n);
  char small[11];
  memset(small, 'x', sizeof(small));
  assert_int_equal(vxp_diagnostic_render(d, 0, small, sizeof(small)), n);
  assert_int_equal(small[10], '\0');
  assert_memory_equal(small, full, 10);
  char one[1] = {'x'};
  assert_int_equal(vxp_diagnostic_render(d, 0, one, 1), n);
  assert_int_equal(one[0], '\0');
  assert_int_equal(vxp_diagnostic_render(NULL, 0, full, sizeof(full)), 0);
  assert_string_equal(full, "");
  test_done(&r);
}

/* Notes follow the diagnostic: located ones with their own `-->` and source line. */
static void test_render__notes_follow_with_their_own_lines(void **state) {
  (void)state;
  test_run r =
      test_analyse("Memory CPU_DRAM {}\n"
                   "Memory HBM { within: Memory::CPU_DRAM, capacity: 1 KiB, managed: explicit }\n"
                   "fn main() -> i32 {\n"
                   "  let w = transfer(Tensor<f32, [64, 64]>::uninit(), Memory::HBM);\n"
                   "  print(w);\n"
                   "  return 0;\n"
                   "}\n");
  const vxp_diagnostic *d = test_find_diag(r.an, "E6009");
  if (!d) d = test_find_diag(r.an, "E6010");
  assert_non_null(d);
  assert_true(vxp_diagnostic_note_count(d) > 0);
  size_t n = vxp_diagnostic_render(d, 0, NULL, 0);
  char *buf = malloc(n + 1);
  assert_non_null(buf);
  assert_int_equal(vxp_diagnostic_render(d, 0, buf, n + 1), n);
  assert_int_equal(strlen(buf), n);
  assert_true(strstr(buf, "note: ") || strstr(buf, "help: "));
  free(buf);
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_render__a_syntax_error_in_compiler_form),
      cmocka_unit_test(test_render__the_buffer_contract_is_snprintfs),
      cmocka_unit_test(test_render__notes_follow_with_their_own_lines),
  };
  return cmocka_run_group_tests_name("render", tests, NULL, NULL);
}
