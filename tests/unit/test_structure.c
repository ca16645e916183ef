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

/* The closed sets come back as enums, and each string accessor is the enum's name: scope
 * types (for and if here), item types, and a route's cost unit, basis and composition
 * (a link rate per second; a containment sum). Names of values outside a set are NULL. */
static void test_structure__closed_sets_are_enums_whose_names_are_the_words(void **state) {
  (void)state;
  static const char routed[] =
      "Memory CPU_DRAM { bandwidth: 100 GB/s }\n"
      "Memory HBM { within: Memory::CPU_DRAM, capacity: 1 GiB, bandwidth: 2 TB/s,"
      " managed: explicit }\n"
      "Memory SMEM { within: Memory::HBM, capacity: 1 MiB, bandwidth: 10 TB/s,"
      " managed: explicit }\n"
      "Topology T { memory: Memory::HBM, visible: [Memory::HBM, Memory::SMEM],\n"
      "  transfer Memory::CPU_DRAM -> Memory::HBM : 16 GB/s }\n"
      "const K : i64 = 4;\n"
      "fn main(x: i32) -> i32 {\n"
      "  let a = transfer(Tensor<f32, [16, 16]>::uninit(), Memory::HBM);\n"
      "  let s = transfer(a, Memory::SMEM);\n"
      "  for i in 0..4 {\n"
      "    if x > 0 {\n"
      "      let b = transfer(Tensor<f32, [8, 8]>::uninit(), Memory::HBM);\n"
      "      print(b);\n"
      "    }\n"
      "  }\n"
      "  let f = |y: i32| y + 1;\n"
      "  print(s);\n"
      "  return 0;\n"
      "}\n";
  test_run r = test_analyse(routed);
  const vxp_scope *sc = vxp_record_scope(record_bound_to(r.an, "b"));
  assert_int_equal(vxp_scope_type_of(sc), VXP_SCOPE_IF);
  assert_int_equal(vxp_scope_type_of(vxp_scope_parent(sc)), VXP_SCOPE_FOR);
  assert_int_equal(vxp_scope_type_of(vxp_scope_parent(vxp_scope_parent(sc))), VXP_SCOPE_FUNCTION);
  for (; sc; sc = vxp_scope_parent(sc))
    assert_string_equal(vxp_scope_kind(sc), vxp_scope_type_name(vxp_scope_type_of(sc)));
  assert_int_equal(vxp_scope_type_of(NULL), VXP_SCOPE_NONE);
  assert_null(vxp_scope_kind(NULL));
  assert_string_equal(vxp_scope_type_name(VXP_SCOPE_MATCH_ARM), "match_arm");
  assert_string_equal(vxp_scope_type_name(VXP_SCOPE_BLOCK), "block");
  assert_null(vxp_scope_type_name(VXP_SCOPE_NONE));
  assert_null(vxp_scope_type_name((vxp_scope_type)11));
  assert_null(vxp_scope_type_name((vxp_scope_type)-1));

  size_t types[4] = {0};
  for (size_t i = 0; i < vxp_program_item_count(r.prog); i++) {
    vxp_item_type t = vxp_program_item_type(r.prog, i);
    assert_true(t >= VXP_ITEM_TYPE_FUNCTION && t <= VXP_ITEM_TYPE_CONST);
    types[t]++;
    assert_string_equal(vxp_program_item_kind(r.prog, i), vxp_item_type_name(t));
  }
  assert_int_equal(types[VXP_ITEM_TYPE_FUNCTION], 1);
  assert_int_equal(types[VXP_ITEM_TYPE_CLOSURE], 1);
  assert_int_equal(types[VXP_ITEM_TYPE_CONST], 1);
  assert_int_equal(vxp_program_item_type(r.prog, 99), VXP_ITEM_TYPE_NONE);
  assert_null(vxp_program_item_kind(r.prog, 99));
  assert_null(vxp_item_type_name((vxp_item_type)4));

  /* The host tile goes to HBM over the declared link (16 GB/s: picoseconds), then to SMEM,
   * which has no link: the bandwidths along the within: tree, summed. */
  size_t link = 0, containment = 0;
  for (size_t i = 0; i < vxp_analysis_route_count(r.an); i++) {
    const vxp_route *rt = vxp_analysis_route(r.an, i);
    vxp_cost_basis basis = vxp_route_cost_basis(rt);
    link += basis == VXP_COST_BASIS_LINK_RATE;
    containment += basis == VXP_COST_BASIS_CONTAINMENT;
    if (basis != VXP_COST_BASIS_NONE) {
      assert_int_equal(vxp_route_cost_unit(rt), VXP_COST_UNIT_PS);
      assert_int_equal(vxp_route_cost_composition(rt), basis == VXP_COST_BASIS_CONTAINMENT
                                                           ? VXP_COST_COMPOSITION_SUM
                                                           : VXP_COST_COMPOSITION_NONE);
    }
    const char *unit = vxp_route_derived_unit(rt), *source = vxp_route_cost_source(rt),
               *comp = vxp_route_composition(rt);
    const char *unit_name = vxp_cost_unit_name(vxp_route_cost_unit(rt));
    const char *basis_name = vxp_cost_basis_name(basis);
    const char *comp_name = vxp_cost_composition_name(vxp_route_cost_composition(rt));
    assert_true(unit == unit_name || (unit && unit_name && strcmp(unit, unit_name) == 0));
    assert_true(source == basis_name || (source && basis_name && !strcmp(source, basis_name)));
    assert_true(comp == comp_name || (comp && comp_name && strcmp(comp, comp_name) == 0));
  }
  assert_true(link >= 1);
  assert_true(containment >= 1);
  assert_string_equal(vxp_cost_unit_name(VXP_COST_UNIT_CYCLES), "cyc");
  assert_string_equal(vxp_cost_composition_name(VXP_COST_COMPOSITION_BOTTLENECK), "bottleneck");
  assert_null(vxp_cost_unit_name(VXP_COST_UNIT_NONE));
  assert_null(vxp_cost_basis_name((vxp_cost_basis)3));
  assert_null(vxp_cost_composition_name((vxp_cost_composition)3));
  assert_int_equal(vxp_route_cost_unit(NULL), VXP_COST_UNIT_NONE);
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_structure__a_record_knows_its_chain_of_scopes),
      cmocka_unit_test(test_structure__a_resident_set_lists_its_records),
      cmocka_unit_test(test_structure__each_route_leads_to_the_tile_it_places),
      cmocka_unit_test(test_structure__closed_sets_are_enums_whose_names_are_the_words),
  };
  return cmocka_run_group_tests_name("structure", tests, NULL, NULL);
}
