/* SPDX-License-Identifier: Apache-2.0 */
/* test_route_ends.c - a route runs from the hop's own source to its own destination, even
 * when vxc routes it from or to a `within:` ancestor (a space without edges of its own), and
 * its edges' weights add up to its total. The header promises both (vxp_route_path_length,
 * vxp_route_edge_cost, vxp_route_total_cost); a transfer from SMEM up to HBM once had the
 * one-space route "HBM" beside a cost derived for SMEM -> HBM. */
#include "support.h"

/* The route record `i` as "A->B->C". */
static const char *path_of(const vxp_analysis *an, size_t i, char *buf, size_t size) {
  const vxp_route *r = vxp_analysis_route(an, i);
  buf[0] = '\0';
  for (size_t k = 0; k < vxp_route_path_length(r); k++) {
    strncat(buf, k ? "->" : "", size - strlen(buf) - 1);
    strncat(buf, vxp_route_path_space(r, k), size - strlen(buf) - 1);
  }
  return buf;
}

/* The weight of edge `i` of route `r`, or -1 when it has no integer one. */
static long long edge_weight(const vxp_route *r, size_t i) {
  uint64_t w = 0;
  return vxp_route_edge_cost(r, i, &w) ? (long long)w : -1;
}

/* Every route of `an` keeps the header's promises: at least two spaces, each named, the
 * source first and the destination last (the traffic's ends in the JSON), and a total that
 * is the sum of its edges' weights, one without an integer weight counting 1. */
static void assert_routes_keep_their_promises(const vxp_analysis *an) {
  for (size_t i = 0; i < vxp_analysis_route_count(an); i++) {
    const vxp_route *r = vxp_analysis_route(an, i);
    size_t n = vxp_route_path_length(r);
    assert_true(n >= 2);
    uint64_t sum = 0;
    for (size_t k = 0; k < n; k++)
      assert_non_null(vxp_route_path_space(r, k));
    assert_null(vxp_route_path_space(r, n));
    for (size_t k = 0; k + 1 < n; k++) {
      long long w = edge_weight(r, k);
      sum += w < 0 ? 1 : (uint64_t)w;
    }
    assert_int_equal(edge_weight(r, n - 1), -1); /* past the last edge */
    assert_int_equal(vxp_route_total_cost(r), sum);
  }
}

/* Analyse `text` against the built-in a100-40 and the default host. */
static test_run on_a100(const char *text) {
  test_run r;
  memset(&r, 0, sizeof(r));
  r.ctx = test_context();
  assert_int_equal(vxp_source_new(&r.src, r.ctx, "test.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse(&r.prog, r.ctx, r.src), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&r.machine, r.ctx, "a100-40"), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&r.host, r.ctx, "host-default"), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = r.machine;
  opts.host = r.host;
  assert_int_equal(vxp_analyze(&r.an, r.ctx, r.prog, &opts), VXP_OK);
  return r;
}

static void test_route_ends__a_transfer_up_to_an_ancestor_runs_from_the_source(void **state) {
  (void)state;
  test_run r = on_a100("fn main() -> i32 {\n"
                       "  let a = transfer(Tensor<f32, [16]>::uninit(), Memory::SMEM);\n"
                       "  let b = transfer(a, Memory::HBM);\n"
                       "  return 0;\n"
                       "}\n");
  assert_int_equal(vxp_analysis_error_count(r.an), 0);
  /* CPU_DRAM -> HBM -> L2 -> SMEM staged, then SMEM -> HBM: no edge leaves SMEM, so vxc
   * routes HBM to HBM, and the route is the one step up the tree. */
  assert_int_equal(vxp_analysis_route_count(r.an), 4);
  char buf[64];
  assert_string_equal(path_of(r.an, 3, buf, sizeof(buf)), "SMEM->HBM");
  const vxp_route *up = vxp_analysis_route(r.an, 3);
  assert_int_equal(edge_weight(up, 0), 0); /* the within: step, which routing does not charge */
  assert_int_equal(vxp_route_total_cost(up), 0);
  uint64_t v = 0;
  assert_true(vxp_route_derived_cost(up, &v));
  assert_int_equal(vxp_route_cost_basis(up), VXP_COST_BASIS_CONTAINMENT);
  assert_int_equal(v, 6575); /* SMEM, L2 and HBM's legs for 64 bytes, as before the fix */
  /* The text report prints the route it prices. */
  vxp_report *rep = NULL;
  assert_int_equal(vxp_report_check(&rep, r.ctx, r.an, NULL), VXP_OK);
  assert_non_null(strstr(vxp_report_text(rep, NULL), "routes SMEM -> HBM: 64 bytes in 6,575 ps"));
  vxp_report_free(rep);
  assert_routes_keep_their_promises(r.an);
  test_done(&r);
}

static void
test_route_ends__a_transfer_down_from_an_ancestor_ends_at_the_destination(void **state) {
  (void)state;
  /* HBM within the host memory and no edge between them: vxc routes CPU_DRAM to CPU_DRAM. */
  test_run r = test_analyse("Memory CPU_DRAM { bandwidth: 100 GB/s }\n"
                            "Memory HBM { within: Memory::CPU_DRAM, capacity: 1 MiB,\n"
                            "  bandwidth: 1 TB/s }\n"
                            "fn main() -> i32 {\n"
                            "  let h = transfer(Tensor<u8, [1000]>::uninit(), Memory::HBM);\n"
                            "  print!(h);\n"
                            "  return 0;\n"
                            "}\n");
  assert_int_equal(vxp_analysis_error_count(r.an), 0);
  assert_int_equal(vxp_analysis_route_count(r.an), 1);
  char buf[64];
  assert_string_equal(path_of(r.an, 0, buf, sizeof(buf)), "CPU_DRAM->HBM");
  const vxp_route *down = vxp_analysis_route(r.an, 0);
  assert_int_equal(edge_weight(down, 0), 0);
  uint64_t v = 0;
  assert_true(vxp_route_derived_cost(down, &v));
  assert_int_equal(v, 10000 + 1000); /* 1000 B at 100 GB/s, then at 1 TB/s */
  assert_routes_keep_their_promises(r.an);
  test_done(&r);
}

static void
test_route_ends__a_sub_space_starts_with_a_step_up_to_where_its_edges_leave(void **state) {
  (void)state;
  test_run r = test_analyse("Memory CPU_DRAM {}\n"
                            "Memory PINNED { within: Memory::CPU_DRAM }\n"
                            "Memory HBM { capacity: 1 MiB }\n"
                            "Memory SCRATCH { within: Memory::HBM, capacity: 64 KiB }\n"
                            "Topology T { memory: Memory::HBM,\n"
                            "  transfer Memory::CPU_DRAM -> Memory::HBM : 3 }\n"
                            "fn main() -> i32 {\n"
                            "  let p = Tensor<u8, [64], Memory::PINNED>::uninit();\n"
                            "  let h = transfer(p, Memory::HBM);\n"
                            "  let s = transfer(Tensor<u8, [64]>::uninit(), Memory::SCRATCH);\n"
                            "  print!(h, s);\n"
                            "  return 0;\n"
                            "}\n");
  assert_int_equal(vxp_analysis_error_count(r.an), 0);
  assert_int_equal(vxp_analysis_route_count(r.an), 2);
  char buf[64];
  assert_string_equal(path_of(r.an, 0, buf, sizeof(buf)), "PINNED->CPU_DRAM->HBM");
  const vxp_route *first = vxp_analysis_route(r.an, 0);
  assert_int_equal(edge_weight(first, 0), 0);
  assert_int_equal(edge_weight(first, 1), 3);
  assert_int_equal(vxp_route_total_cost(first), 3);
  /* The other end: the edge reaches HBM, then a step down to SCRATCH. */
  assert_string_equal(path_of(r.an, 1, buf, sizeof(buf)), "CPU_DRAM->HBM->SCRATCH");
  const vxp_route *second = vxp_analysis_route(r.an, 1);
  assert_int_equal(edge_weight(second, 0), 3);
  assert_int_equal(edge_weight(second, 1), 0);
  assert_routes_keep_their_promises(r.an);
  test_done(&r);
}

static void test_route_ends__siblings_route_through_their_common_parent(void **state) {
  (void)state;
  test_run r = test_analyse("Memory P { capacity: 1 MiB, bandwidth: 1 TB/s }\n"
                            "Memory A { within: Memory::P, capacity: 4 KiB, bandwidth: 2 TB/s }\n"
                            "Memory B { within: Memory::P, capacity: 4 KiB, bandwidth: 4 TB/s }\n"
                            "fn main() -> i32 {\n"
                            "  let a = Tensor<u8, [1000], Memory::A>::uninit();\n"
                            "  let b = transfer(a, Memory::B);\n"
                            "  print!(b);\n"
                            "  return 0;\n"
                            "}\n");
  assert_int_equal(vxp_analysis_error_count(r.an), 0);
  assert_int_equal(vxp_analysis_route_count(r.an), 1);
  char buf[64];
  assert_string_equal(path_of(r.an, 0, buf, sizeof(buf)), "A->P->B");
  const vxp_route *across = vxp_analysis_route(r.an, 0);
  assert_int_equal(edge_weight(across, 0), 0);
  assert_int_equal(edge_weight(across, 1), 0);
  uint64_t v = 0;
  assert_true(vxp_route_derived_cost(across, &v));
  assert_int_equal(v, 500 + 250); /* A's and B's legs; the parent is not an end */
  assert_routes_keep_their_promises(r.an);
  test_done(&r);
}

static void test_route_ends__a_built_in_edge_reports_its_weight(void **state) {
  (void)state;
  /* Vx's built-in CPU_DRAM -> GPU_HBM weighs 50; a declared edge that only names a rate
   * has no integer weight (and weighs 1). */
  test_run r = test_analyse("Memory CPU_DRAM {}\n"
                            "Memory V { capacity: 1 MiB }\n"
                            "Topology T { memory: Memory::V,\n"
                            "  transfer Memory::CPU_DRAM -> Memory::V : 16 GB/s }\n"
                            "fn main() -> i32 {\n"
                            "  let g = transfer(Tensor<u8, [64]>::uninit(), Memory::GPU_HBM);\n"
                            "  let v = transfer(Tensor<u8, [64]>::uninit(), Memory::V);\n"
                            "  print!(g, v);\n"
                            "  return 0;\n"
                            "}\n");
  assert_int_equal(vxp_analysis_route_count(r.an), 2);
  char buf[64];
  assert_string_equal(path_of(r.an, 0, buf, sizeof(buf)), "CPU_DRAM->GPU_HBM");
  assert_int_equal(edge_weight(vxp_analysis_route(r.an, 0), 0), 50);
  assert_int_equal(vxp_route_total_cost(vxp_analysis_route(r.an, 0)), 50);
  assert_int_equal(edge_weight(vxp_analysis_route(r.an, 1), 0), -1);
  assert_int_equal(vxp_route_total_cost(vxp_analysis_route(r.an, 1)), 1);
  assert_routes_keep_their_promises(r.an);
  test_done(&r);
}

static void test_route_ends__the_json_path_runs_between_the_traffics_ends(void **state) {
  (void)state;
  test_run r = on_a100("fn main() -> i32 {\n"
                       "  let a = transfer(Tensor<f32, [16]>::uninit(), Memory::SMEM);\n"
                       "  let b = transfer(a, Memory::HBM);\n"
                       "  return 0;\n"
                       "}\n");
  const char *json = vxp_analysis_json(r.an, NULL);
  assert_non_null(json);
  assert_null(strstr(json, "\"path\": [\"HBM\"]"));
  assert_non_null(strstr(json, "\"path\": [\"SMEM\", \"HBM\"], \"edges\": [{\"from\": \"SMEM\", "
                               "\"to\": \"HBM\", \"cost\": 0}], \"total_cost\": 0"));
  test_done(&r);
}

static void
test_route_ends__a_staged_hop_into_a_space_without_a_capacity_has_no_tile(void **state) {
  (void)state;
  /* CPU_DRAM -> HBM -> L2 -> SMEM with an L2 that declares no capacity: the HBM -> L2 hop
   * places no tile the analysis records, and its route once named the SMEM tile of the
   * hop after it (found by the fuzz harnesses' promise that a hop's tile is in its
   * destination). */
  const char *machine =
      "Memory HBM { capacity: 1 MiB, bandwidth: 1 TB/s, managed: explicit, scope: device }\n"
      "Memory L2 { within: Memory::HBM, managed: cached, scope: device }\n"
      "Memory SMEM { within: Memory::L2, capacity: 64 KiB, managed: explicit, scope: sm }\n"
      "Topology Device { memory: Memory::HBM, visible: [Memory::HBM, Memory::L2, Memory::SMEM],\n"
      "  transfer Memory::CPU_DRAM -> Memory::HBM : 8 GB/s\n"
      "  transfer Memory::HBM -> Memory::L2\n"
      "  transfer Memory::L2 -> Memory::SMEM }\n";
  test_run r = test_analyse_with("fn main() -> i32 {\n"
                                 "  let s = transfer(Tensor<u8, [4000]>::uninit(), Memory::SMEM);\n"
                                 "  print!(s);\n"
                                 "  return 0;\n"
                                 "}\n",
                                 machine, 1);
  assert_int_equal(vxp_analysis_error_count(r.an), 0);
  assert_int_equal(vxp_analysis_route_count(r.an), 3);
  char buf[64];
  assert_string_equal(path_of(r.an, 1, buf, sizeof(buf)), "HBM->L2");
  assert_null(vxp_route_record(vxp_analysis_route(r.an, 1)));
  const vxp_record *hbm = vxp_route_record(vxp_analysis_route(r.an, 0));
  const vxp_record *smem = vxp_route_record(vxp_analysis_route(r.an, 2));
  assert_non_null(hbm);
  assert_non_null(smem);
  assert_string_equal(vxp_record_space(hbm), "HBM");
  assert_string_equal(vxp_record_space(smem), "SMEM");
  assert_string_equal(vxp_record_binding(smem), "s");
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_route_ends__a_transfer_up_to_an_ancestor_runs_from_the_source),
      cmocka_unit_test(test_route_ends__a_transfer_down_from_an_ancestor_ends_at_the_destination),
      cmocka_unit_test(test_route_ends__a_sub_space_starts_with_a_step_up_to_where_its_edges_leave),
      cmocka_unit_test(test_route_ends__siblings_route_through_their_common_parent),
      cmocka_unit_test(test_route_ends__a_built_in_edge_reports_its_weight),
      cmocka_unit_test(test_route_ends__the_json_path_runs_between_the_traffics_ends),
      cmocka_unit_test(test_route_ends__a_staged_hop_into_a_space_without_a_capacity_has_no_tile),
  };
  return cmocka_run_group_tests_name("route_ends", tests, NULL, NULL);
}
