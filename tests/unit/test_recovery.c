/* SPDX-License-Identifier: Apache-2.0 */
/* test_recovery.c - a syntax error stays where it was made: a stray token or line at the top
 * level of a long program is reported on its own line and every item after it is still
 * parsed and analysed (the grammar's _item_start token and stray_path item; before them one
 * `Memory::HBM` line made the rest of the file one ERROR, in time quadratic in its length:
 * tests/bench/bench_recovery.c measures that). Valid code laid out in column 0 inside a
 * body still parses. */
#include "support.h"

#define FUNCTIONS 200

/* FUNCTIONS functions of five lines each after a two-line header; `stray` (a whole line)
 * is inserted before function `at`. Returns the line (0-based) the stray is on. */
static uint32_t make_program(char *buf, size_t cap, const char *stray, int at) {
  size_t n = (size_t)snprintf(
      buf, cap,
      "Memory CPU_DRAM {}\n"
      "Memory HBM { within: Memory::CPU_DRAM, capacity: 1 GiB, managed: explicit }\n");
  uint32_t stray_line = 0;
  for (int k = 0; k < FUNCTIONS; k++) {
    if (k == at) {
      stray_line = (uint32_t)(2 + k * 5);
      n += (size_t)snprintf(buf + n, cap - n, "%s\n", stray);
    }
    n += (size_t)snprintf(buf + n, cap - n,
                          "fn f%d(x: i32) -> i32 {\n"
                          "  let w = transfer(Tensor<f32, [16, 16]>::uninit(), Memory::HBM);\n"
                          "  print(w);\n"
                          "  return 0;\n"
                          "}\n",
                          k);
  }
  assert_true(n < cap);
  return stray_line;
}

static void
test_recovery__a_stray_line_is_one_error_and_every_item_after_it_survives(void **state) {
  (void)state;
  static const char *const strays[] = {
      "Memory::HBM", "Topology::Dev", "Memory", "Topology", "struct", "impl",
      "enum",        "trait",         "fn",     "x",        "}",      "{",
      "let w = 1;",  "struct S"};
  static char text[FUNCTIONS * 160 + 512];
  for (size_t s = 0; s < sizeof(strays) / sizeof(strays[0]); s++) {
    for (int at = 0; at < FUNCTIONS; at += FUNCTIONS / 4) {
      uint32_t line = make_program(text, sizeof(text), strays[s], at);
      test_run r = test_analyse(text);
      size_t syntax = 0;
      for (size_t i = 0; i < vxp_analysis_diagnostic_count(r.an); i++) {
        const vxp_diagnostic *d = vxp_analysis_diagnostic(r.an, i);
        if (strcmp(vxp_diagnostic_code(d), "VXP0001") != 0) continue;
        syntax++;
        vxp_range range = vxp_diagnostic_range(d);
        if (range.start.line != line || range.end.line > line + 1)
          fail_msg("'%s' on line %u: a syntax error on lines %u-%u", strays[s], line + 1,
                   range.start.line + 1, range.end.line + 1);
      }
      if (syntax == 0) fail_msg("'%s' on line %u: no syntax error", strays[s], line + 1);
      /* every function is still analysed */
      if (vxp_analysis_function_count(r.an) != FUNCTIONS)
        fail_msg("'%s' on line %u: %zu functions analysed of %d", strays[s], line + 1,
                 vxp_analysis_function_count(r.an), FUNCTIONS);
      test_done(&r);
    }
  }
}

/* An item keyword typed in front of an item on its line (`struct fn f(..) {`) is one error
 * at that keyword, and the item after it and every item below parse and are analysed (it
 * made the rest of a 20,000-line file one ERROR, 64 times the clean parse). */
static void test_recovery__a_keyword_typed_before_an_item_is_one_error_on_its_line(void **state) {
  (void)state;
  static const char *const prefixes[] = {"struct ", "impl ",      "Memory ", "fn ",
                                         "enum  ",  "Topology\t", "trait "};
  static char text[FUNCTIONS * 160 + 512], with[FUNCTIONS * 160 + 512];
  for (size_t p = 0; p < sizeof(prefixes) / sizeof(prefixes[0]); p++) {
    for (int at = 0; at < FUNCTIONS; at += FUNCTIONS / 4) {
      uint32_t line = make_program(text, sizeof(text), "", at) + 1; /* the function's line */
      char head[32];
      snprintf(head, sizeof(head), "\nfn f%d(", at);
      const char *fn = strstr(text, head) + 1;
      snprintf(with, sizeof(with), "%.*s%s%s", (int)(fn - text), text, prefixes[p], fn);
      test_run r = test_analyse(with);
      assert_int_equal(test_count_diag(r.an, "VXP0001"), 1);
      for (size_t i = 0; i < vxp_analysis_diagnostic_count(r.an); i++) {
        const vxp_diagnostic *d = vxp_analysis_diagnostic(r.an, i);
        if (strcmp(vxp_diagnostic_code(d), "VXP0001") != 0) continue;
        vxp_range range = vxp_diagnostic_range(d);
        if (range.start.line != line || range.start.column != 0 || range.end.line != line)
          fail_msg("'%sfn' on line %u: the error is at %u:%u", prefixes[p], line + 1,
                   range.start.line + 1, range.start.column + 1);
      }
      if (vxp_analysis_function_count(r.an) != FUNCTIONS)
        fail_msg("'%sfn' on line %u: %zu functions analysed of %d", prefixes[p], line + 1,
                 vxp_analysis_function_count(r.an), FUNCTIONS);
      test_done(&r);
    }
  }
}

/* An item keyword in column 0 ends an unfinished item there: the function after an
 * unclosed struct declaration is a function. */
static void test_recovery__an_item_keyword_in_column_0_ends_the_unfinished_item(void **state) {
  (void)state;
  test_run r = test_analyse("struct S {\n"
                            "  a: i32,\n"
                            "fn g() -> i32 {\n"
                            "  return 1;\n"
                            "}\n");
  assert_int_equal(vxp_analysis_function_count(r.an), 1);
  assert_string_equal(vxp_analysis_function(r.an, 0), "g");
  assert_true(test_count_diag(r.an, "VXP0001") >= 1);
  test_done(&r);
}

/* Column 0 is no boundary for what is not an item keyword followed by a blank. */
static void test_recovery__valid_code_in_column_0_inside_a_body_still_parses(void **state) {
  (void)state;
  test_run r =
      test_analyse("Memory CPU_DRAM {}\n"
                   "Memory HBM { within: Memory::CPU_DRAM, capacity: 1 GiB, managed: explicit }\n"
                   "fn f() -> i32 {\n"
                   "let w = transfer(Tensor<f32, [16, 16]>::uninit(),\n"
                   "Memory::HBM);\n"
                   "fnord(w);\n"
                   "print(w);\n"
                   "return 0;\n"
                   "}\n"
                   "fn fnord(t: Tensor<f32, [16, 16]>) -> i32 {\n"
                   "  return 0;\n"
                   "}\n");
  assert_int_equal(test_count_diag(r.an, "VXP0001"), 0);
  assert_int_equal(vxp_analysis_function_count(r.an), 2);
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_recovery__a_stray_line_is_one_error_and_every_item_after_it_survives),
      cmocka_unit_test(test_recovery__a_keyword_typed_before_an_item_is_one_error_on_its_line),
      cmocka_unit_test(test_recovery__an_item_keyword_in_column_0_ends_the_unfinished_item),
      cmocka_unit_test(test_recovery__valid_code_in_column_0_inside_a_body_still_parses),
  };
  return cmocka_run_group_tests_name("recovery", tests, NULL, NULL);
}
