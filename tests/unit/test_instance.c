/* SPDX-License-Identifier: Apache-2.0 */
/* test_instance.c - generic instances: written and inferred arguments, names, memoized
 * instances (cycles), generic calls of generics, closures and methods of generic
 * functions, declared positions per instance, and the two instantiation limits. */
#include "support.h"

static test_run run(const char *functions) {
  static char text[1 << 20];
  snprintf(text, sizeof(text), TEST_MACHINE_4MIB "%s", functions);
  return test_analyse(text);
}

static int has_resident(const vxp_analysis *an, const char *fn, uint64_t peak) {
  const vxp_resident_set *rs = test_resident(an, fn, "W");
  return rs && vxp_resident_set_peak_bytes(rs) == peak;
}

static void test_instance__const_arguments_name_and_size_each_instance(void **state) {
  (void)state;
  test_run r = run(
      "const K : i64 = 512;\n"
      "fn tile<const R : i64, const C : i64>() -> i32 {\n"
      "  let t = transfer(Tensor<f32, [R, C]>::uninit(), Memory::W); print(t); return 1;\n"
      "}\n"
      "fn main() -> i32 { return tile<K, 256>() + tile<2 * K, K / 4>() + tile<512, 256>(); }\n");
  /* tile<512, 256> is written twice (once through K): one instance. */
  assert_true(has_resident(r.an, "tile<512, 256>", 512 * 256 * 4));
  assert_true(has_resident(r.an, "tile<1024, 128>", 1024 * 128 * 4));
  assert_int_equal(vxp_analysis_resident_set_count(r.an), 2);
  assert_true(vxp_analysis_admitted(r.an));
  test_done(&r);
}

static void test_instance__arguments_are_inferred_from_call_arguments(void **state) {
  (void)state;
  test_run r =
      run("fn pick<const N : i64>(x : Tensor<f32, [N]>) -> i32 {\n"
          "  let t = transfer(Tensor<f32, [N, N]>::uninit(), Memory::W); print(t, x); return 1;\n"
          "}\n"
          "fn widen<T>(x : T) -> i32 {\n"
          "  let t = transfer(Tensor<T, [1024]>::uninit(), Memory::W); print(t, x); return 1;\n"
          "}\n"
          "fn same<T>(x : Tensor<T, [4]>) -> i32 {\n"
          "  let t = transfer(Tensor<T, [1024]>::uninit(), Memory::W); print(t, x); return 1;\n"
          "}\n"
          "fn main() -> i32 {\n"
          "  let v = Tensor<f32, [256]>::uninit();\n"
          "  let h = Tensor<bf16, [4]>::uninit();\n"
          "  return pick(v) + widen(7) + widen(2.5) + widen(3i64) + same(h);\n"
          "}\n");
  assert_true(has_resident(r.an, "pick<256>", 256 * 256 * 4));
  assert_true(has_resident(r.an, "widen<i32>", 4096));
  assert_true(has_resident(r.an, "widen<f32>", 4096));
  assert_true(has_resident(r.an, "widen<i64>", 8192));
  assert_true(has_resident(r.an, "same<bf16>", 2048));
  test_done(&r);
}

static void test_instance__generics_calling_generics_and_cycles(void **state) {
  (void)state;
  test_run r = run("fn inner<const N : i64>() -> i32 {\n"
                   "  let t = transfer(Tensor<u8, [N]>::uninit(), Memory::W); print(t); return 1;\n"
                   "}\n"
                   "fn outer<const N : i64>() -> i32 {\n"
                   "  let m = transfer(Tensor<u8, [N]>::uninit(), Memory::W);\n"
                   "  let x = inner<N * 2>();\n"
                   "  print(m); return x;\n"
                   "}\n"
                   "fn again<const N : i64>(k : i32) -> i32 {\n"
                   "  let t = transfer(Tensor<u8, [N]>::uninit(), Memory::W); print(t);\n"
                   "  return again<N>(k - 1);\n"
                   "}\n"
                   "fn main() -> i32 { return outer<1024>() + again<64>(3); }\n");
  const vxp_call_tree *ct = NULL;
  for (size_t i = 0; i < vxp_analysis_call_tree_count(r.an); i++) {
    if (strcmp(vxp_call_tree_function(vxp_analysis_call_tree(r.an, i)), "outer<1024>") == 0)
      ct = vxp_analysis_call_tree(r.an, i);
  }
  assert_non_null(ct);
  assert_int_equal(vxp_call_tree_total_bytes(ct), 1024 + 2048);
  assert_string_equal(vxp_call_tree_callee(ct), "inner<2048>");
  /* again<64> calls again<64>: the same instance, a cycle with residency. */
  const vxp_diagnostic *d = test_find_diag(r.an, "E6028");
  assert_non_null(d);
  assert_non_null(strstr(vxp_diagnostic_message(d), "'again$const$64' calls itself"));
  test_done(&r);
}

static void test_instance__runaway_instantiation_is_e3032_once(void **state) {
  (void)state;
  test_run r = run("fn countdown<const N : i32>() -> i32 {\n"
                   "  if comptime N == 0 { return 0; }\n"
                   "  return countdown<N - 1>() + countdown<N - 2>();\n"
                   "}\n"
                   "fn up<const N : i32>() -> i32 { return up<N + 1>(); }\n"
                   "fn fine<const N : i32>() -> i32 {\n"
                   "  if comptime N > 0 { return fine<N - 1>(); }\n"
                   "  return 0;\n"
                   "}\n"
                   "fn main() -> i32 { return countdown<3>() + up<0>() + fine<100>(); }\n");
  assert_false(vxp_analysis_admitted(r.an));
  assert_int_equal(test_count_diag(r.an, "E3032"), 2); /* countdown and up, once each */
  const vxp_diagnostic *d = test_find_diag(r.an, "E3032");
  assert_non_null(strstr(vxp_diagnostic_message(d), "instantiating 'countdown' went 128 generic "
                                                    "calls deep and was stopped"));
  /* fine<100> .. fine<0>: 101 instances, pruned by `if comptime`, no error. */
  assert_int_equal(vxp_analysis_error_count(r.an), 2);
  test_done(&r);
}

static void test_instance__too_many_instances_is_vxp0030_once(void **state) {
  (void)state;
  enum { N = 4200 };
  static char text[N * 24 + 1024];
  size_t len = (size_t)snprintf(text, sizeof(text),
                                "fn f<const N : i64>() -> i32 { return 0; }\nfn main() -> i32 {\n");
  for (int i = 0; i < N; i++)
    len += (size_t)snprintf(text + len, sizeof(text) - len, " f<%d>();\n", i);
  snprintf(text + len, sizeof(text) - len, " return 0;\n}\n");
  test_run r = test_analyse(text);
  assert_int_equal(test_count_diag(r.an, "VXP0030"), 1);
  assert_false(vxp_analysis_admitted(r.an));
  /* The calls past the limit are listed as unresolved, with the reason. */
  assert_int_equal(vxp_analysis_unresolved_call_count(r.an), N - 4096);
  assert_non_null(strstr(vxp_unresolved_call_reason(vxp_analysis_unresolved_call(r.an, 0)),
                         "too many generic instances"));
  test_done(&r);
}

static void test_instance__closures_and_methods_of_generic_functions(void **state) {
  (void)state;
  test_run r =
      run("struct Pool { n: i32 }\n"
          "impl Pool {\n"
          "  fn grab<const N : i64>(self: Pool) -> i32 {\n"
          "    let t = transfer(Tensor<f32, [N]>::uninit(), Memory::W); print(t); return 1;\n"
          "  }\n"
          "}\n"
          "fn outer<const N : i64>() -> i32 {\n"
          "  let make = |k : i32| transfer(Tensor<f32, [N, 16]>::uninit(), Memory::W);\n"
          "  let m = make(1);\n"
          "  return 1;\n"
          "}\n"
          "fn main() -> i32 {\n"
          "  let p = Pool { n: 1 };\n"
          "  return outer<32>() + Pool::grab<64>(p) + Pool::grab<Pool>(p);\n"
          "}\n");
  assert_true(has_resident(r.an, "outer<32>::make", 32 * 16 * 4));
  assert_true(has_resident(r.an, "Pool::grab<64>", 256));
  /* A type where a constant belongs: the argument is not a constant, never guessed. */
  assert_non_null(test_find_diag(r.an, "W1029"));
  assert_string_equal(vxp_diagnostic_function(test_find_diag(r.an, "W1029")), "Pool::grab<?>");
  /* The template closure is not analysed alone (N has no value there): one W1029 only. */
  assert_int_equal(test_count_diag(r.an, "W1029"), 1);
  test_done(&r);
}

static void test_instance__diagnostics_in_an_instance_name_it(void **state) {
  (void)state;
  test_run r =
      run("fn take<const N : i64>(x : Tensor<f32, [N, N], Memory::W>) -> i32 {\n"
          "  let t = transfer(Tensor<f32, [N, N]>::uninit(), Memory::W); print(t, x); return 1;\n"
          "}\n"
          "fn main() -> i32 { let v = Tensor<f32, [2048, 2048]>::uninit(); return take<16>(v) + "
          "take<2048>(v); }\n");
  /* take<2048>: the parameter and the tile are 16 MiB each, over 4 MiB; take<16> fits. */
  assert_int_equal(test_count_diag(r.an, "E6009"), 2);
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(r.an); i++) {
    const vxp_diagnostic *d = vxp_analysis_diagnostic(r.an, i);
    assert_string_equal(vxp_diagnostic_function(d), "take<2048>");
    assert_string_equal(vxp_diagnostic_message(vxp_diagnostic_note(d, 0)),
                        "in the instance 'take<2048>', first instantiated by 'main'");
    assert_int_equal(vxp_diagnostic_range(vxp_diagnostic_note(d, 0)).start.line, 8);
  }
  assert_true(has_resident(r.an, "take<16>", 1024));
  test_done(&r);
}

static void test_instance__type_arguments_give_element_types(void **state) {
  (void)state;
  test_run r =
      run("struct Point { x: i32 }\n"
          "fn fill<T>() -> i32 {\n"
          "  let t = transfer(Tensor<T, [1024]>::uninit(), Memory::W); print(t); return 1;\n"
          "}\n"
          "fn main() -> i32 { return fill<f16>() + fill<bool>() + fill<Point>(); }\n");
  assert_true(has_resident(r.an, "fill<f16>", 2048));
  assert_true(has_resident(r.an, "fill<bool>", 128));
  assert_null(test_resident(r.an, "fill<Point>", "W"));
  const vxp_diagnostic *d = test_find_diag(r.an, "W1029");
  assert_non_null(d);
  assert_string_equal(vxp_diagnostic_function(d), "fill<Point>");
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_instance__const_arguments_name_and_size_each_instance),
      cmocka_unit_test(test_instance__arguments_are_inferred_from_call_arguments),
      cmocka_unit_test(test_instance__generics_calling_generics_and_cycles),
      cmocka_unit_test(test_instance__runaway_instantiation_is_e3032_once),
      cmocka_unit_test(test_instance__too_many_instances_is_vxp0030_once),
      cmocka_unit_test(test_instance__closures_and_methods_of_generic_functions),
      cmocka_unit_test(test_instance__diagnostics_in_an_instance_name_it),
      cmocka_unit_test(test_instance__type_arguments_give_element_types),
  };
  return cmocka_run_group_tests_name("instance", tests, NULL, NULL);
}
