/* SPDX-License-Identifier: Apache-2.0 */
/* test_callgraph.c - the call-tree fold through the public API: max and + composition,
 * one report per overflow at the smallest function, paths, cycles with and without
 * residency, overcommit, unresolved callees, deep graphs, and the accessors' contract. */
#include "support.h"

#define TILE3 "transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W)" /* 3 MiB */
#define TILE2 "transfer(Tensor<f32, [512, 1024]>::uninit(), Memory::W)" /* 2 MiB */
#define TILE1 "transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W)"  /* 1 MiB */

static const vxp_call_tree *tree(const vxp_analysis *an, const char *fn) {
  for (size_t i = 0; i < vxp_analysis_call_tree_count(an); i++) {
    const vxp_call_tree *ct = vxp_analysis_call_tree(an, i);
    if (strcmp(vxp_call_tree_function(ct), fn) == 0 && strcmp(vxp_call_tree_space(ct), "W") == 0)
      return ct;
  }
  return NULL;
}

static uint64_t total(const vxp_analysis *an, const char *fn) {
  const vxp_call_tree *ct = tree(an, fn);
  return ct ? vxp_call_tree_total_bytes(ct) : 0;
}

static test_run run(const char *functions) {
  static char text[65536];
  snprintf(text, sizeof(text), TEST_MACHINE_4MIB "%s", functions);
  return test_analyse(text);
}

/* vxc's sequential_calls_take_the_max: two callees of 3 MiB each, one after the other. */
static void test_callgraph__sequential_calls_take_the_max(void **state) {
  (void)state;
  test_run r = run("fn f() -> i32 { let a = " TILE3 "; print(a); return 1; }\n"
                   "fn g() -> i32 { let b = " TILE3 "; print(b); return 1; }\n"
                   "fn main() -> i32 { return f() + g(); }\n");
  assert_true(vxp_analysis_admitted(r.an));
  assert_int_equal(total(r.an, "main"), 3145728);
  const vxp_call_tree *m = tree(r.an, "main");
  assert_int_equal(vxp_call_tree_self_peak_bytes(m), 0);
  assert_int_equal(vxp_call_tree_hop_count(m), 1);
  assert_string_equal(vxp_call_tree_callee(m), "f"); /* the first call reaching it */
  assert_string_equal(vxp_call_tree_function(vxp_call_tree_next(m)), "f");
  assert_null(vxp_call_tree_callee(vxp_call_tree_next(m)));
  assert_null(vxp_call_tree_next(vxp_call_tree_next(m)));
  test_done(&r);
}

/* vxc's holding_across_a_call_sums and the_path_names_every_contributing_hop: one
 * refusal, at the smallest function, naming every hop that holds bytes. */
static void test_callgraph__residency_across_calls_sums_and_is_reported_once(void **state) {
  (void)state;
  test_run r = run("fn g() -> i32 { let c = " TILE1 "; print(c); return 1; }\n"
                   "fn f() -> i32 { let b = " TILE2 "; let x = g(); print(b); return x; }\n"
                   "fn main() -> i32 { let a = " TILE2 "; let y = f(); print(a); return y; }\n");
  assert_int_equal(test_count_diag(r.an, "E6027"), 1);
  const vxp_diagnostic *d = test_find_diag(r.an, "E6027");
  assert_string_equal(vxp_diagnostic_message(d),
                      "the working set along call path 'main -> f -> g' in memory space 'W' peaks "
                      "at 5242880 bytes, over its 4194304 byte capacity: 'main' holds 2097152 "
                      "bytes across its call, 'f' holds 2097152 bytes across its call, 'g' "
                      "itself peaks at 1048576 bytes");
  assert_string_equal(vxp_diagnostic_function(d), "main");
  /* f -> g alone is 3 MiB: fits. The overflow belongs to main. */
  assert_int_equal(total(r.an, "f"), 3145728);
  const vxp_call_tree *m = tree(r.an, "main");
  assert_int_equal(vxp_call_tree_total_bytes(m), 5242880);
  assert_int_equal(vxp_call_tree_hop_count(m), 2);
  const vxp_call_tree *f = vxp_call_tree_next(m);
  assert_string_equal(vxp_call_tree_function(f), "f");
  assert_string_equal(vxp_call_tree_callee(f), "g");
  assert_int_equal(vxp_call_tree_held_bytes(m), 2097152);
  assert_int_equal(vxp_call_tree_held_bytes(f), 2097152);
  assert_int_equal(vxp_call_tree_call_range(m).start.line, 7); /* line 8: main's call */
  const vxp_call_tree *g = vxp_call_tree_next(f);
  assert_int_equal(vxp_call_tree_hop_count(g), 0);
  assert_null(vxp_call_tree_callee(g));
  assert_int_equal(vxp_call_tree_held_bytes(g), 0);
  assert_null(vxp_call_tree_next(g));
  /* Three notes: one per hop at its call site, then where g reaches its own peak. */
  assert_int_equal(vxp_diagnostic_note_count(d), 3);
  test_done(&r);
}

/* vxc's a_local_overflow_is_not_reported_again: E6010 covers f, and main stays silent. */
static void test_callgraph__a_local_overflow_is_not_reported_again(void **state) {
  (void)state;
  test_run r =
      run("fn f() -> i32 { let a = " TILE3 "; let b = " TILE3 "; print(a, b); return 1; }\n"
          "fn main() -> i32 { let m = " TILE1 "; let x = f(); print(m); return x; }\n");
  assert_int_equal(test_count_diag(r.an, "E6010"), 1);
  assert_int_equal(test_count_diag(r.an, "E6027"), 0);
  assert_int_equal(total(r.an, "main"), 1048576 + 6291456);
  test_done(&r);
}

/* The overflow reported at f is not reported again from main, whose path runs through f. */
static void test_callgraph__callers_of_a_reported_overflow_stay_silent(void **state) {
  (void)state;
  test_run r = run("fn g() -> i32 { let c = " TILE3 "; print(c); return 1; }\n"
                   "fn f() -> i32 { let b = " TILE3 "; let x = g(); print(b); return x; }\n"
                   "fn main() -> i32 { let m = " TILE1 "; let y = f(); print(m); return y; }\n");
  assert_int_equal(test_count_diag(r.an, "E6027"), 1);
  assert_string_equal(vxp_diagnostic_function(test_find_diag(r.an, "E6027")), "f");
  test_done(&r);
}

static void test_callgraph__overcommit_downgrades_to_w1028(void **state) {
  (void)state;
  const char *text =
      "Memory CPU_DRAM {}\n"
      "Memory W { within: Memory::CPU_DRAM, capacity: 4 MiB, managed: explicit, overcommit }\n"
      "fn g() -> i32 { let c = " TILE3 "; print(c); return 1; }\n"
      "fn main() -> i32 { let m = " TILE3 "; let y = g(); print(m); return y; }\n";
  test_run r = test_analyse(text);
  assert_true(vxp_analysis_admitted(r.an));
  const vxp_diagnostic *d = test_find_diag(r.an, "W1028");
  assert_non_null(d);
  assert_non_null(strstr(vxp_diagnostic_message(d), "; allowed because 'W' is `overcommit`"));
  assert_non_null(strstr(vxp_diagnostic_message(d), "call path 'main -> g'"));
  test_done(&r);
}

/* vxc's a_cycle_refuses_exactly_when_it_places, and mutual_recursion_is_one_cycle. */
static void test_callgraph__cycles_refuse_exactly_when_they_place(void **state) {
  (void)state;
  test_run r = run("fn deep(n: i32) -> i32 { let t = " TILE1 "; print(t); return deep(n - 1); }\n"
                   "fn main() -> i32 { return deep(3); }\n");
  const vxp_diagnostic *d = test_find_diag(r.an, "E6028");
  assert_non_null(d);
  assert_string_equal(vxp_diagnostic_message(d),
                      "'deep' calls itself and places up to 1048576 bytes in memory space 'W' per "
                      "activation; the recursion depth is not known at compile time, so its "
                      "working set is unbounded");
  assert_false(vxp_diagnostic_has_range(d));
  assert_false(vxp_call_tree_bounded(tree(r.an, "main")));
  test_done(&r);

  r = run("fn b(n: i32) -> i32 { return a(n); }\n"
          "fn a(n: i32) -> i32 { let t = " TILE1 "; print(t); return b(n - 1); }\n"
          "fn main() -> i32 { return a(3); }\n");
  assert_int_equal(test_count_diag(r.an, "E6028"), 1);
  assert_non_null(
      strstr(vxp_diagnostic_message(test_find_diag(r.an, "E6028")), "the cycle 'a -> b' recurses"));
  test_done(&r);

  r = run("fn fact(n: i32) -> i32 { return n * fact(n - 1); }\n"
          "fn main() -> i32 { let m = " TILE3 "; let x = fact(5); print(m); return x; }\n");
  assert_true(vxp_analysis_admitted(r.an));
  assert_true(vxp_call_tree_bounded(tree(r.an, "main")));
  test_done(&r);
}

/* vxc's a_clean_cycle_still_conducts_downstream_residency, and the conservative
 * refinement: a member reaches the other members' calls out of the cycle too (vxc counts
 * each member's own, and would admit this at 2 MiB). */
static void test_callgraph__a_clean_cycle_conducts_through_every_member(void **state) {
  (void)state;
  test_run r =
      run("fn g() -> i32 { let c = " TILE3 "; print(c); return 1; }\n"
          "fn spin(n: i32) -> i32 { return spin(n - 1) + g(); }\n"
          "fn main() -> i32 { let m = " TILE2 "; let y = spin(3); print(m); return y; }\n");
  const vxp_diagnostic *d = test_find_diag(r.an, "E6027");
  assert_non_null(d);
  assert_non_null(strstr(vxp_diagnostic_message(d), "peaks at 5242880 bytes"));
  test_done(&r);

  r = run("fn g() -> i32 { let c = " TILE3 "; print(c); return 1; }\n"
          "fn a(n: i32) -> i32 { return b(n); }\n"
          "fn b(n: i32) -> i32 { return a(n - 1) + g(); }\n"
          "fn main() -> i32 { let m = " TILE2 "; let y = a(3); print(m); return y; }\n");
  d = test_find_diag(r.an, "E6027");
  assert_non_null(d);
  assert_non_null(strstr(vxp_diagnostic_message(d), "call path 'main -> a -> b -> g'"));
  assert_int_equal(total(r.an, "a"), 3145728);
  assert_int_equal(vxp_call_tree_hop_count(tree(r.an, "a")), 2);
  assert_true(vxp_call_tree_bounded(tree(r.an, "a")));
  test_done(&r);
}

/* vxc's an_unknown_callee_contributes_nothing: the call is listed, not guessed. */
static void test_callgraph__unresolved_calls_are_listed_and_add_nothing(void **state) {
  (void)state;
  test_run r = run("extern \"C\" { fn native(n: i32) -> i32; }\n"
                   "fn id(n: i32) -> i32 { return n; }\n"
                   "fn main() -> i32 { let m = " TILE3 "; let h = id; let x = native(1) + h(2)"
                   " + lib::helper(3); print(m); return x; }\n");
  assert_true(vxp_analysis_admitted(r.an));
  assert_int_equal(total(r.an, "main"), 3145728);
  assert_int_equal(vxp_analysis_unresolved_call_count(r.an), 3);
  const vxp_unresolved_call *u = vxp_analysis_unresolved_call(r.an, 0);
  assert_string_equal(vxp_unresolved_call_function(u), "main");
  assert_string_equal(vxp_unresolved_call_callee(u), "native");
  assert_non_null(strstr(vxp_unresolved_call_reason(u), "extern"));
  assert_string_equal(vxp_unresolved_call_callee(vxp_analysis_unresolved_call(r.an, 1)), "h");
  assert_string_equal(vxp_unresolved_call_callee(vxp_analysis_unresolved_call(r.an, 2)),
                      "lib::helper");
  assert_int_equal(vxp_unresolved_call_range(u).start.line, 7);
  assert_null(vxp_analysis_unresolved_call(r.an, 3));
  test_done(&r);
}

/* Methods: `Type::m(x)`, `x.m()` on a value whose type is known, and closures called
 * directly are edges. */
static void test_callgraph__methods_and_closures_are_edges(void **state) {
  (void)state;
  test_run r = run("struct Cache { n: i32 }\n"
                   "impl Cache {\n"
                   "  fn fill(self: Cache) -> i32 { let t = " TILE2 "; print(t); return 1; }\n"
                   "  fn make() -> i32 { let u = " TILE1 "; print(u); return 2; }\n"
                   "}\n"
                   "fn open() -> Cache { return Cache { n: 2 }; }\n"
                   "fn run(c: Cache) -> i32 { let m = " TILE1
                   "; let x = c.fill(); print(m); return x + open().fill(); }\n"
                   "fn main() -> i32 {\n"
                   "  let k = " TILE2 ";\n"
                   "  let s = Cache::make();\n"
                   "  let later = || " TILE1 ";\n"
                   "  let v = later();\n"
                   "  print(k);\n"
                   "  return s + run(Cache { n: 1 });\n"
                   "}\n");
  assert_int_equal(total(r.an, "run"), 3145728);
  assert_int_equal(total(r.an, "main"), 2097152 + 3145728);
  assert_int_equal(test_count_diag(r.an, "E6027"), 1);
  assert_non_null(strstr(vxp_diagnostic_message(test_find_diag(r.an, "E6027")),
                         "'main -> run -> Cache$fill'")); /* vxc's spelling of a method */
  assert_int_equal(total(r.an, "main::later"), 1048576);
  /* open().fill() resolves too: the receiver's type is open's return type. */
  assert_int_equal(vxp_analysis_unresolved_call_count(r.an), 0);
  test_done(&r);
}

/* The texts vxc also writes spell functions as vxc does: an instance appends each argument
 * (`$<type>`, `$const$<value>`), a method is `Type$method`. Records keep the readable name. */
static void test_callgraph__messages_spell_instances_as_vxc_does(void **state) {
  (void)state;
  test_run r =
      run("fn stage<T, const R: i64>(x: T) -> i32 {\n"
          "  let t = transfer(Tensor<f32, [R, 1024]>::uninit(), Memory::W); print(t); return 1;\n"
          "}\n"
          "fn main() -> i32 { let a = " TILE3
          "; let y = stage<f32, 512>(1.0); print(a); return y; }\n");
  assert_non_null(tree(r.an, "stage<f32, 512>"));
  assert_non_null(strstr(vxp_diagnostic_message(test_find_diag(r.an, "E6027")),
                         "call path 'main -> stage$f32$const$512' in memory space 'W'"));
  assert_non_null(strstr(vxp_diagnostic_message(test_find_diag(r.an, "E6027")),
                         "'stage$f32$const$512' itself peaks at 2097152 bytes"));
  test_done(&r);
  r = run("struct Pool { n: i32 }\n"
          "impl Pool {\n"
          "  fn grab(self: Pool, k: i32) -> i32 { let t = " TILE1
          "; print(t); return Pool::grab(self, k - 1); }\n"
          "}\n"
          "fn main() -> i32 { return Pool::grab(Pool { n: 1 }, 3); }\n");
  assert_string_equal(vxp_diagnostic_message(test_find_diag(r.an, "E6028")),
                      "'Pool$grab' calls itself and places up to 1048576 bytes in memory space 'W' "
                      "per activation; the recursion depth is not known at compile time, so its "
                      "working set is unbounded");
  test_done(&r);
}

/* A long instance name is spelled whole: the path's names were cut at 511 bytes and a
 * cycle's members at 255. */
static void test_callgraph__long_instance_names_are_spelled_whole(void **state) {
  (void)state;
  char name[601], text[4096], want[1024];
  memset(name, 'n', 600);
  name[600] = '\0';
  snprintf(text, sizeof(text),
           "fn %s<T, const R: i64>(x: T) -> i32 {\n"
           "  let t = transfer(Tensor<f32, [R, 1024]>::uninit(), Memory::W); print(t); return 1;\n"
           "}\n"
           "fn main() -> i32 { let a = " TILE3
           "; let y = %s<f32, 512>(1.0); print(a); return y; }\n",
           name, name);
  test_run r = run(text);
  const vxp_diagnostic *d = test_find_diag(r.an, "E6027");
  assert_non_null(d);
  snprintf(want, sizeof(want), "call path 'main -> %s$f32$const$512' in memory space 'W'", name);
  assert_non_null(strstr(vxp_diagnostic_message(d), want));
  snprintf(want, sizeof(want), "'%s$f32$const$512' itself peaks at 2097152 bytes", name);
  assert_non_null(strstr(vxp_diagnostic_message(d), want));
  test_done(&r);
  name[300] = '\0';
  snprintf(text, sizeof(text),
           "fn %s(n: i32) -> i32 { let t = " TILE1 "; print(t); return %s(n - 1); }\n"
           "fn main() -> i32 { return %s(3); }\n",
           name, name, name);
  r = run(text);
  d = test_find_diag(r.an, "E6028");
  assert_non_null(d);
  snprintf(want, sizeof(want), "'%s' calls itself and places up to 1048576 bytes", name);
  assert_non_null(strstr(vxp_diagnostic_message(d), want));
  test_done(&r);
}

/* A chain of 20000 functions: no recursion in the fold (Tarjan is iterative), totals
 * exact, the path walked in linear time, and the JSON path cut at 16 hops. */
static void test_callgraph__deep_chains_fold_without_recursion(void **state) {
  (void)state;
  enum { N = 20000 };
  size_t cap = (size_t)N * 160 + 4096, len = 0;
  char *text = malloc(cap);
  assert_non_null(text);
  len += (size_t)snprintf(text + len, cap - len, TEST_MACHINE_4MIB);
  len += (size_t)snprintf(text + len, cap - len,
                          "fn f%d() -> i32 { let t = transfer(Tensor<u8, [16]>::uninit(), "
                          "Memory::W); print(t); return 0; }\n",
                          N - 1);
  for (int i = N - 2; i >= 0; i--)
    len += (size_t)snprintf(text + len, cap - len,
                            "fn f%d() -> i32 { let t = transfer(Tensor<u8, [16]>::uninit(), "
                            "Memory::W); let x = f%d(); print(t); return x; }\n",
                            i, i + 1);
  test_run r = test_analyse(text);
  free(text);
  assert_int_equal(total(r.an, "f0"), 16ull * N);
  assert_int_equal(vxp_call_tree_hop_count(tree(r.an, "f0")), N - 1);
  size_t walked = 0;
  for (const vxp_call_tree *t = tree(r.an, "f0"); vxp_call_tree_callee(t);
       t = vxp_call_tree_next(t))
    walked++;
  assert_int_equal(walked, N - 1);
  const char *json = vxp_analysis_json(r.an, NULL);
  assert_non_null(json);
  assert_non_null(strstr(json, "\"path_complete\": false"));
  test_done(&r);
}

static void test_callgraph__out_of_range_accessors_are_safe(void **state) {
  (void)state;
  assert_null(vxp_analysis_call_tree(NULL, 0));
  assert_int_equal(vxp_analysis_call_tree_count(NULL), 0);
  assert_null(vxp_call_tree_function(NULL));
  assert_null(vxp_call_tree_space(NULL));
  assert_int_equal(vxp_call_tree_total_bytes(NULL), 0);
  assert_int_equal(vxp_call_tree_self_peak_bytes(NULL), 0);
  assert_int_equal(vxp_call_tree_capacity_bytes(NULL), 0);
  assert_false(vxp_call_tree_bounded(NULL));
  assert_int_equal(vxp_call_tree_hop_count(NULL), 0);
  assert_null(vxp_call_tree_callee(NULL));
  assert_null(vxp_call_tree_next(NULL));
  assert_int_equal(vxp_call_tree_held_bytes(NULL), 0);
  assert_int_equal(vxp_call_tree_call_range(NULL).end_byte, 0);
  assert_int_equal(vxp_analysis_unresolved_call_count(NULL), 0);
  assert_null(vxp_analysis_unresolved_call(NULL, 0));
  assert_null(vxp_unresolved_call_function(NULL));
  assert_null(vxp_unresolved_call_callee(NULL));
  assert_null(vxp_unresolved_call_reason(NULL));
  assert_null(vxp_diagnostic_function(NULL));
  test_run r = run("fn main() -> i32 { let a = " TILE1 "; print(a); return 0; }\n");
  assert_int_equal(vxp_analysis_call_tree_count(r.an), 1);
  assert_null(vxp_analysis_call_tree(r.an, 1));
  const vxp_call_tree *ct = vxp_analysis_call_tree(r.an, 0);
  assert_int_equal(vxp_call_tree_capacity_bytes(ct), 4194304);
  assert_int_equal(vxp_call_tree_hop_count(ct), 0);
  assert_null(vxp_call_tree_callee(ct));
  assert_int_equal(vxp_call_tree_call_range(ct).end_byte, 0);
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_callgraph__sequential_calls_take_the_max),
      cmocka_unit_test(test_callgraph__residency_across_calls_sums_and_is_reported_once),
      cmocka_unit_test(test_callgraph__a_local_overflow_is_not_reported_again),
      cmocka_unit_test(test_callgraph__callers_of_a_reported_overflow_stay_silent),
      cmocka_unit_test(test_callgraph__overcommit_downgrades_to_w1028),
      cmocka_unit_test(test_callgraph__cycles_refuse_exactly_when_they_place),
      cmocka_unit_test(test_callgraph__a_clean_cycle_conducts_through_every_member),
      cmocka_unit_test(test_callgraph__unresolved_calls_are_listed_and_add_nothing),
      cmocka_unit_test(test_callgraph__methods_and_closures_are_edges),
      cmocka_unit_test(test_callgraph__messages_spell_instances_as_vxc_does),
      cmocka_unit_test(test_callgraph__long_instance_names_are_spelled_whole),
      cmocka_unit_test(test_callgraph__deep_chains_fold_without_recursion),
      cmocka_unit_test(test_callgraph__out_of_range_accessors_are_safe),
  };
  return cmocka_run_group_tests_name("callgraph", tests, NULL, NULL);
}
