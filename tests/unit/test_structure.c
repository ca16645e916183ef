/* SPDX-License-Identifier: Apache-2.0 */
/* test_structure.c - navigating an analysis: a record's chain of enclosing scopes (kind,
 * range, id, parent), a resident set's records, and each route's record. */
#include "support.h"

static const char program[] =
    "Memory CPU_DRAM {}\n"
    "Memory HBM { within: Memory::CPU_DRAM, capacity: 1 GiB, managed: explicit }\n"
    "fn main(x: i32) -> i32 {\n"                                            /* line 3 */
    "  let a = transfer(Tensor<f32, [16, 16]>::uninit(), Memory::HBM);\n"   /* 4 */
    "  for i in 0..4 {\n"                                                   /* 5 */
    "    if x > 0 {\n"                                                      /* 6 */
    "      let b = transfer(Tensor<f32, [8, 8]>::uninit(), Memory::HBM);\n" /* 7 */
    "      print(b);\n"
    "    }\n"
    "  }\n"
    "  print(a);\n"
    "  return 0;\n"
    "}\n";

static const vxp_record *record_bound_to(const vxp_analysis *an, const char *name) {
  for (size_t i = 0; i < vxp_analysis_record_count(an); i++) {
    const vxp_record *r = vxp_analysis_record(an, i);
    if (vxp_record_binding(r) && strcmp(vxp_record_binding(r), name) == 0) return r;
  }
  return NULL;
}

static void test_structure__a_record_knows_its_chain_of_scopes(void **state) {
  (void)state;
  test_run r = test_analyse(program);
  const vxp_record *b = record_bound_to(r.an, "b");
  assert_non_null(b);
  const vxp_scope *s_if = vxp_record_scope(b);
  assert_non_null(s_if);
  assert_string_equal(vxp_scope_kind(s_if), "if");
  assert_int_equal(vxp_scope_range(s_if).start.line, 5); /* 0-based: line 6 */
  assert_true(vxp_scope_releases(s_if));
  const vxp_scope *s_for = vxp_scope_parent(s_if);
  assert_non_null(s_for);
  assert_string_equal(vxp_scope_kind(s_for), "for");
  assert_int_equal(vxp_scope_range(s_for).start.line, 4);
  const vxp_scope *s_fn = vxp_scope_parent(s_for);
  assert_non_null(s_fn);
  assert_string_equal(vxp_scope_kind(s_fn), "function");
  assert_false(vxp_scope_releases(s_fn));
  assert_int_equal(vxp_scope_range(s_fn).start.line, 2);
  assert_string_equal(vxp_scope_function(s_fn), "main");
  assert_null(vxp_scope_parent(s_fn));
  assert_true(vxp_scope_id(s_if) != vxp_scope_id(s_for));
  assert_true(vxp_scope_id(s_for) != vxp_scope_id(s_fn));
  /* the chain's releasing scopes are what vxp_record_scope_depth counts */
  uint32_t releasing = 0;
  for (const vxp_scope *s = vxp_record_scope(b); s; s = vxp_scope_parent(s))
    releasing += (uint32_t)vxp_scope_releases(s);
  assert_int_equal(releasing, vxp_record_scope_depth(b));
  /* `a` is at function scope: the same scope as b's chain ends in */
  const vxp_record *a = record_bound_to(r.an, "a");
  assert_non_null(a);
  assert_int_equal(vxp_scope_id(vxp_record_scope(a)), vxp_scope_id(s_fn));
  assert_null(vxp_record_scope(NULL));
  assert_null(vxp_scope_kind(NULL));
  test_done(&r);
}

static void test_structure__a_resident_set_lists_its_records(void **state) {
  (void)state;
  test_run r = test_analyse(program);
  size_t found = 0;
  for (size_t i = 0; i < vxp_analysis_resident_set_count(r.an); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(r.an, i);
    size_t n = vxp_resident_set_record_count(rs);
    uint32_t last = 0;
    for (size_t k = 0; k < n; k++) {
      const vxp_record *rec = vxp_resident_set_record(rs, k);
      assert_non_null(rec);
      assert_string_equal(vxp_record_function(rec), vxp_resident_set_function(rs));
      assert_string_equal(vxp_record_space(rec), vxp_resident_set_space(rs));
      if (k) assert_true(vxp_record_order(rec) >= last);
      last = vxp_record_order(rec);
    }
    assert_null(vxp_resident_set_record(rs, n));
    assert_true(n >= vxp_resident_set_tile_count(rs));
    found += n;
  }
  /* every record belongs to exactly one resident set */
  assert_int_equal(found, vxp_analysis_record_count(r.an));
  test_done(&r);
}

static void test_structure__each_route_leads_to_the_tile_it_places(void **state) {
  (void)state;
  test_run r = test_analyse(program);
  assert_true(vxp_analysis_route_count(r.an) >= 2);
  for (size_t i = 0; i < vxp_analysis_route_count(r.an); i++) {
    const vxp_route *route = vxp_analysis_route(r.an, i);
    const vxp_record *rec = vxp_route_record(route);
    assert_non_null(rec);
    assert_string_equal(vxp_record_function(rec), vxp_route_function(route));
    assert_string_equal(vxp_record_space(rec), "HBM");
    assert_int_equal(vxp_record_range(rec).start_byte, vxp_route_range(route).start_byte);
  }
  assert_null(vxp_route_record(NULL));
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_structure__a_record_knows_its_chain_of_scopes),
      cmocka_unit_test(test_structure__a_resident_set_lists_its_records),
      cmocka_unit_test(test_structure__each_route_leads_to_the_tile_it_places),
  };
  return cmocka_run_group_tests_name("structure", tests, NULL, NULL);
}
