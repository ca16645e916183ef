/* SPDX-License-Identifier: Apache-2.0 */
/* test_roles.c - roles named in comments (lib/roles.c), and what records say about when
 * they are released and how often they run (lib/records.c). */
#include "support.h"

static const vxp_record *record_named(const vxp_analysis *an, const char *binding) {
  for (size_t i = 0; i < vxp_analysis_record_count(an); i++) {
    const vxp_record *r = vxp_analysis_record(an, i);
    if (vxp_record_binding(r) && strcmp(vxp_record_binding(r), binding) == 0) return r;
  }
  fail_msg("no record bound to %s", binding);
  return NULL;
}

static const char *role_of(const vxp_analysis *an, const char *binding) {
  return vxp_record_role(record_named(an, binding));
}

static void test_roles__a_comment_line_names_its_paragraph(void **state) {
  (void)state;
  test_run r = test_analyse(
      TEST_MACHINE_4MIB "fn main() -> i32 {\n"
                        "  // role: weights\n"
                        "  let a = transfer(Tensor<f32, [16]>::uninit(), Memory::W);\n"
                        "  // an ordinary comment keeps the paragraph going\n"
                        "  let b = transfer(Tensor<f32, [16]>::uninit(), Memory::W);\n"
                        "\n"
                        "  let c = transfer(Tensor<f32, [16]>::uninit(), Memory::W);\n"
                        "  //role:   KV cache  \n"
                        "  let d = transfer(Tensor<f32, [16]>::uninit(), Memory::W);\n"
                        "  let e = transfer(Tensor<f32, [16]>::uninit(), Memory::W); // role: own\n"
                        "  let f = transfer(Tensor<f32, [16]>::uninit(), Memory::W);\n"
                        "  for i in 0..2 {\n"
                        "    let g = transfer(Tensor<f32, [16]>::uninit(), Memory::W);\n"
                        "    print(g);\n"
                        "  }\n"
                        "  let s = \"// role: not a comment\"; let h = transfer(Tensor<f32, "
                        "[16]>::uninit(), Memory::W);\n"
                        "  print(a); print(b); print(c); print(d); print(e); print(f); print(h);\n"
                        "  return 0;\n"
                        "}\n");
  assert_string_equal(role_of(r.an, "a"), "weights");
  assert_string_equal(role_of(r.an, "b"), "weights");
  assert_null(role_of(r.an, "c"));                     /* a blank line ends the paragraph */
  assert_string_equal(role_of(r.an, "d"), "KV cache"); /* trimmed */
  assert_string_equal(role_of(r.an, "e"), "own");      /* a trailing tag: this line only */
  assert_string_equal(role_of(r.an, "f"), "KV cache");
  assert_null(role_of(r.an, "g")); /* `{` opens a block: a new paragraph */
  assert_null(role_of(r.an, "h")); /* `//` inside a string is no comment */
  /* Equal names are one string, so callers may compare pointers. */
  assert_ptr_equal(role_of(r.an, "d"), role_of(r.an, "f"));
  test_done(&r);
}

static void test_roles__records_say_when_they_are_released_and_how_often_they_run(void **state) {
  (void)state;
  test_run r = test_analyse(
      TEST_MACHINE_4MIB
      "fn main() -> i32 {\n"
      "  let a = transfer(Tensor<f32, [16]>::uninit(), Memory::W);\n"
      "  let unused = transfer(Tensor<f32, [16]>::uninit(), Memory::W);\n"
      "  for i in 0..4 {\n"
      "    for j in 0..3 {\n"
      "      let b = transfer(Tensor<f32, [16]>::uninit(), Memory::W);\n"
      "      print(b);\n"
      "    }\n"
      "    let c = transfer(Tensor<f32, [16]>::uninit(), Memory::W);\n"
      "    print(c);\n"
      "  }\n"
      "  loop { let d = transfer(Tensor<f32, [16]>::uninit(), Memory::W); print(d); break; }\n"
      "  print(a);\n"
      "  return 0;\n"
      "}\n");
  uint32_t order = 0;
  uint64_t runs = 0;
  const vxp_record *a = record_named(r.an, "a"), *unused = record_named(r.an, "unused");
  const vxp_record *b = record_named(r.an, "b"), *c = record_named(r.an, "c");
  const vxp_record *d = record_named(r.an, "d");
  assert_false(vxp_record_release_order(a, &order)); /* held to the end */
  assert_true(vxp_record_release_order(unused, &order));
  assert_int_equal(order, vxp_record_order(unused)); /* never read: released at once */
  assert_true(vxp_record_release_order(b, &order));
  assert_int_equal(order, vxp_record_order(b) + 1); /* its block ends after print(b) */
  assert_true(vxp_record_release_order(c, &order));
  assert_int_equal(order, vxp_record_order(c) + 1);
  assert_true(vxp_record_runs(a, &runs));
  assert_int_equal(runs, 1);
  assert_true(vxp_record_runs(b, &runs));
  assert_int_equal(runs, 12);
  assert_true(vxp_record_runs(c, &runs));
  assert_int_equal(runs, 4);
  assert_false(vxp_record_runs(d, &runs)); /* `loop`: not static */
  assert_int_equal(vxp_analysis_function_count(r.an), 1);
  assert_string_equal(vxp_analysis_function(r.an, 0), "main");
  assert_null(vxp_analysis_function(r.an, 1));
  assert_null(vxp_record_role(NULL));
  assert_false(vxp_record_runs(NULL, &runs));
  assert_false(vxp_record_release_order(NULL, &order));
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_roles__a_comment_line_names_its_paragraph),
      cmocka_unit_test(test_roles__records_say_when_they_are_released_and_how_often_they_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
