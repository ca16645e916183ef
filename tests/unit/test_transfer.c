/* SPDX-License-Identifier: Apache-2.0 */
/* test_transfer.c - routes and costs: shortest routes over unitless weights, staged
 * transfers (each hop a placement), E6002, E6013, link-rate and containment costs with
 * replicas, clocks and crossing, and the route records. */
#include "support.h"

#include "transfer.h"

typedef unsigned __int128 u128;

static uint64_t ceil_div128(u128 a, u128 b) { return (uint64_t)(a / b + (a % b != 0)); }

/* ------------------------------------------------------------------ one hop */

static void test_transfer__a_link_rate_costs_ceil_bytes_times_1e12_over_rate(void **state) {
  (void)state;
  uint64_t ps = 0;
  /* One Llama-2-7B layer's weights over PCIe 4.0 x16 (the blog post's figure). */
  assert_true(vxp_transfer__hop_cost(404750336, 31500000000ull, false, &ps));
  assert_int_equal(ps, 12849217016ull);
  /* bytes x 10^12 passes 2^64 at ~18 MB: the 128-bit intermediate keeps it exact. */
  assert_true(vxp_transfer__hop_cost(64ull << 30, 100000000000ull, false, &ps));
  assert_int_equal(ps, ceil_div128((u128)(64ull << 30) * 1000000000000ull, 100000000000ull));
  /* Exact divisions do not round up. */
  assert_true(vxp_transfer__hop_cost(1000, 1000000000000ull, false, &ps));
  assert_int_equal(ps, 1000);
  /* Per-cycle rates count cycles. */
  assert_true(vxp_transfer__hop_cost(1025, 128, true, &ps));
  assert_int_equal(ps, 9);
  /* A result past 64 bits, or a zero rate, is no cost rather than a wrong one. */
  assert_false(vxp_transfer__hop_cost(UINT64_MAX, 1, false, &ps));
  assert_false(vxp_transfer__hop_cost(1, 0, false, &ps));
}

/* A machine view over `text` for the containment tests. */
typedef struct view_fixture {
  vxp_context *ctx;
  vxp_source *src;
  vxp_machine *m;
  vxp_machine_view view;
  vxp_diag_list diags;
} view_fixture;

static view_fixture *view_of(const char *text) {
  view_fixture *f = calloc(1, sizeof(*f));
  f->ctx = test_context();
  assert_int_equal(vxp_source_new(&f->src, f->ctx, "m.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_machine_load(&f->m, f->ctx, f->src), VXP_OK);
  assert_int_equal(vxp_machine_diagnostic_count(f->m), 0);
  const vxp_machine *inputs[1] = {f->m};
  assert_int_equal(vxp_machine__merge(f->ctx, inputs, 1, &f->view, &f->diags), VXP_OK);
  return f;
}

static void view_done(view_fixture *f) {
  vxp_machine__view_free(f->ctx, &f->view);
  vxp_diag__list_free(f->ctx, &f->diags);
  vxp_machine_free(f->m);
  vxp_source_free(f->src);
  vxp_context_free(f->ctx);
  free(f);
}

static vxp_hop_cost containment(view_fixture *f, const char *from, const char *to, uint64_t b) {
  vxp_hop_cost c;
  assert_int_equal(vxp_transfer__containment(f->ctx, &f->view, from, to, b, &c), VXP_OK);
  return c;
}

#define A100_TREE                                                                                  \
  "Memory HBM { capacity: 40 GiB, bandwidth: 1555 GB/s }\n"                                        \
  "Memory L2 { within: Memory::HBM, bandwidth: 5120 B/cyc, clock: 1410 MHz }\n"                    \
  "Memory SMEM { within: Memory::L2, bandwidth: 128 B/cyc, clock: 1410 MHz,\n"                     \
  "  replicas: 108 }\n"                                                                            \
  "Memory TMEM { within: Memory::L2, bandwidth: 256 B/cyc, crossing: streamed,\n"                  \
  "  replicas: 108 }\n"

static void test_transfer__containment_charges_each_leg_and_the_parent_end(void **state) {
  (void)state;
  view_fixture *f = view_of(A100_TREE);
  const uint64_t b = 1000003;
  /* HBM -> L2: L2 is within HBM, so the common ancestor is the source and is charged too.
   * The legs mix B/s and B/cyc, so both become picoseconds (L2's cycles at its clock). */
  vxp_hop_cost c = containment(f, "HBM", "L2", b);
  assert_int_equal(c.source, VXP_COST_SOURCE_CONTAINMENT);
  assert_int_equal(c.composition, VXP_COMPOSE_SUM);
  assert_false(c.per_cycle);
  uint64_t l2 = ceil_div128((u128)ceil_div128(b, 5120) * 1000000000000ull, 1410000000ull);
  uint64_t hbm = ceil_div128((u128)b * 1000000000000ull, 1555000000000ull);
  assert_int_equal(c.value, l2 + hbm);
  /* L2 -> SMEM: all legs per cycle, stays in cycles. SMEM is one of 108 replicas, so the
   * device-wide L2 rate is divided among them: 5120 / 108 = 47 B/cyc. */
  c = containment(f, "L2", "SMEM", b);
  assert_true(c.per_cycle);
  assert_int_equal(c.value, ceil_div128(b, 128) + ceil_div128(b, 5120 / 108));
  /* Siblings: the common parent L2 is a reservoir, not a leg. TMEM's crossing is
   * streamed, so the slowest leg alone sets the time. */
  c = containment(f, "SMEM", "TMEM", b);
  assert_int_equal(c.composition, VXP_COMPOSE_BOTTLENECK);
  assert_true(c.per_cycle);
  assert_int_equal(c.value, ceil_div128(b, 128));
  view_done(f);
}

/* vxc's cost axioms (memory_algebra_axioms.rs), on a chain whose every level is a time
 * rate: a parent -> child move charges both (64 GiB DRAM -> HBM is the DRAM term plus the HBM
 * term); staging through every level costs strictly more than the direct walk, which streams
 * through each intermediate once; cost never falls as bytes grow; a B/cyc leg converts only
 * at a declared clock, rounded up per term. */
static void test_transfer__vxcs_cost_axioms(void **state) {
  (void)state;
  view_fixture *f =
      view_of("Memory DRAM { capacity: 1 TiB, bandwidth: 100 GB/s }\n"
              "Memory HBM { within: Memory::DRAM, capacity: 80 GiB, bandwidth: 3 TB/s }\n"
              "Memory L2 { within: Memory::HBM, capacity: 50 MiB, bandwidth: 12 TB/s }\n"
              "Memory SMEM { within: Memory::L2, capacity: 228 KiB, bandwidth: 20 TB/s }\n");
  const u128 big = (u128)64 << 30;
  assert_int_equal(containment(f, "DRAM", "HBM", 64ull << 30).value,
                   ceil_div128(big * 1000000000000ull, 100000000000ull) +
                       ceil_div128(big * 1000000000000ull, 3000000000000ull));
  uint64_t sizes[] = {4096, 65536, 1 << 20, 64 << 20};
  for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
    uint64_t whole = containment(f, "DRAM", "SMEM", sizes[i]).value;
    uint64_t legs = containment(f, "DRAM", "HBM", sizes[i]).value +
                    containment(f, "HBM", "L2", sizes[i]).value +
                    containment(f, "L2", "SMEM", sizes[i]).value;
    assert_true(whole < legs);
  }
  uint64_t prev = 0;
  for (uint64_t b = 1; b < (1u << 24); b = b * 2 + (b & 1)) {
    uint64_t c = containment(f, "DRAM", "SMEM", b).value;
    assert_true(c >= prev);
    prev = c;
  }
  view_done(f);
  f = view_of("Memory HBM { capacity: 40 GiB, bandwidth: 3 TB/s }\n"
              "Memory L2 { within: Memory::HBM, capacity: 50 MiB, bandwidth: 12 TB/s }\n"
              "Memory SMEM { within: Memory::L2, capacity: 228 KiB, bandwidth: 128 B/cyc }\n"
              "Memory SMEM2 { within: Memory::L2, capacity: 228 KiB, bandwidth: 128 B/cyc,\n"
              "  clock: 1.98 GHz }\n");
  assert_int_equal(containment(f, "L2", "SMEM", 16384).source, VXP_COST_SOURCE_NONE);
  vxp_hop_cost c = containment(f, "L2", "SMEM2", 16384);
  assert_false(c.per_cycle);
  assert_int_equal(c.value, ceil_div128((u128)128 * 1000000000000ull, 1980000000ull) +
                                ceil_div128((u128)16384 * 1000000000000ull, 12000000000000ull));
  view_done(f);
}

static void test_transfer__a_register_stage_between_the_ends_always_adds(void **state) {
  (void)state;
  /* SMEM is filled from L1 through the register file REG: a load, then a dependent store.
   * SMEM's `crossing: streamed` would take the slowest leg alone, but a register stage
   * strictly between the ends adds; the record still says what SMEM declares. */
  view_fixture *f =
      view_of("Memory L1 { bandwidth: 64 B/cyc }\n"
              "Memory REG { within: Memory::L1, bandwidth: 256 B/cyc, scope: thread }\n"
              "Memory SMEM { within: Memory::REG, bandwidth: 128 B/cyc,\n"
              "  crossing: streamed }\n"
              "Memory OUT { within: Memory::L1, bandwidth: 32 B/cyc, crossing: streamed }\n");
  const uint64_t b = 4096;
  vxp_hop_cost c = containment(f, "L1", "SMEM", b);
  assert_int_equal(c.composition, VXP_COMPOSE_BOTTLENECK);
  assert_int_equal(c.value, ceil_div128(b, 64) + ceil_div128(b, 256) + ceil_div128(b, 128));
  /* An end that is a register file may stream: only a stage between the ends adds, so
   * REG -> SMEM takes its slower leg, SMEM's. */
  c = containment(f, "REG", "SMEM", b);
  assert_int_equal(c.value, ceil_div128(b, 128));
  /* No register stage: the streamed destination takes its slowest leg, OUT's own. */
  c = containment(f, "L1", "OUT", b);
  assert_int_equal(c.value, ceil_div128(b, 32));
  view_done(f);
}

static void test_transfer__containment_is_not_derivable_without_its_figures(void **state) {
  (void)state;
  view_fixture *f = view_of("Memory P { bandwidth: 1 TB/s }\n"
                            "Memory Q { within: Memory::P }\n"
                            "Memory R { within: Memory::P, bandwidth: 64 B/cyc }\n"
                            "Memory S { bandwidth: 2 TB/s }\n");
  assert_int_equal(containment(f, "P", "Q", 10).source, VXP_COST_SOURCE_NONE); /* no bandwidth */
  assert_int_equal(containment(f, "P", "R", 10).source, VXP_COST_SOURCE_NONE); /* no clock */
  assert_int_equal(containment(f, "P", "S", 10).source, VXP_COST_SOURCE_NONE); /* no ancestor */
  assert_int_equal(containment(f, "P", "P", 10).source, VXP_COST_SOURCE_NONE); /* same space */
  assert_int_equal(containment(f, "P", "GPU_HBM", 10).source, VXP_COST_SOURCE_NONE);
  view_done(f);
}

/* ------------------------------------------------------------------ routes in programs */

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

static void test_transfer__routes_minimise_unitless_weight(void **state) {
  (void)state;
  const char *text =
      "Memory A {}\nMemory B {}\nMemory C {}\nMemory D {}\n"
      "Topology T { memory: Memory::A,\n"
      "  transfer Memory::A -> Memory::C : 10\n"
      "  transfer Memory::A -> Memory::B : 4\n"
      "  transfer Memory::B -> Memory::C : 5\n"
      "  transfer Memory::A -> Memory::D : 9\n"
      "  transfer Memory::A -> Memory::B : 2\n" /* the same edge again: the cheaper counts */
      "  transfer Memory::B -> Memory::D : 7 }\n"
      "fn main() -> i32 {\n"
      "  let a = Tensor<f32, [4], Memory::A>::uninit();\n"
      "  let c = transfer(a, Memory::C);\n"
      "  let d = transfer(a, Memory::D);\n"
      "  print!(c, d);\n"
      "  return 0;\n"
      "}\n";
  test_run r = test_analyse(text);
  assert_int_equal(vxp_analysis_error_count(r.an), 0);
  char buf[128];
  /* A->B->C weighs 7 < 10: staged, one record per hop. */
  assert_int_equal(vxp_analysis_route_count(r.an), 3);
  assert_string_equal(path_of(r.an, 0, buf, sizeof(buf)), "A->B");
  assert_string_equal(path_of(r.an, 1, buf, sizeof(buf)), "B->C");
  uint64_t cost = 0;
  assert_true(vxp_route_edge_cost(vxp_analysis_route(r.an, 0), 0, &cost));
  assert_int_equal(cost, 2);
  assert_int_equal(vxp_route_total_cost(vxp_analysis_route(r.an, 1)), 5);
  /* A->D weighs 9 either way: the direct edge (fewer hops) wins the tie. */
  assert_string_equal(path_of(r.an, 2, buf, sizeof(buf)), "A->D");
  assert_int_equal(vxp_route_total_cost(vxp_analysis_route(r.an, 2)), 9);
  test_done(&r);
}

static void test_transfer__a_staged_transfer_places_each_hop(void **state) {
  (void)state;
  /* CPU_DRAM -> HBM -> L2 -> SMEM: the intermediate HBM and L2 copies are placements of
   * their own, bound to nothing (so never released as never-read), while the final SMEM
   * tile is bound to `s`, which is never read. */
  const char *machine =
      "Memory HBM { capacity: 1 MiB, bandwidth: 1 TB/s, managed: explicit, scope: device }\n"
      "Memory L2 { within: Memory::HBM, capacity: 1 MiB, bandwidth: 64 B/cyc, clock: 1 GHz }\n"
      "Memory SMEM { within: Memory::L2, capacity: 64 KiB, bandwidth: 32 B/cyc, clock: 1 GHz,\n"
      "  granule: 1 KiB, scope: sm, replicas: 2 }\n"
      "Topology Device { memory: Memory::HBM, visible: [Memory::HBM, Memory::L2, Memory::SMEM],\n"
      "  transfer Memory::CPU_DRAM -> Memory::HBM : 8 GB/s\n"
      "  transfer Memory::HBM -> Memory::L2\n"
      "  transfer Memory::L2 -> Memory::SMEM }\n";
  const char *text = "fn main() -> i32 {\n"
                     "  let s = transfer(Tensor<u8, [4000]>::uninit(), Memory::SMEM);\n"
                     "  let t = transfer(Tensor<u8, [100]>::uninit(), Memory::HBM);\n"
                     "  print!(t);\n"
                     "  return 0;\n"
                     "}\n";
  test_run r = test_analyse_with(text, machine, 1);
  assert_int_equal(vxp_analysis_error_count(r.an), 0);
  assert_int_equal(vxp_analysis_route_count(r.an), 4);
  char buf[128];
  assert_string_equal(path_of(r.an, 0, buf, sizeof(buf)), "CPU_DRAM->HBM");
  assert_string_equal(path_of(r.an, 1, buf, sizeof(buf)), "HBM->L2");
  assert_string_equal(path_of(r.an, 2, buf, sizeof(buf)), "L2->SMEM");
  const vxp_route *hop = vxp_analysis_route(r.an, 0);
  uint64_t v = 0;
  assert_true(vxp_route_derived_cost(hop, &v));
  assert_int_equal(v, 500000); /* 4000 B at 8 GB/s = 500 ns */
  assert_string_equal(vxp_route_cost_source(hop), "link_rate");
  assert_null(vxp_route_composition(hop));
  /* HBM -> L2 by containment: HBM's 1 TB/s (4000 ps) + L2's ceil(4000/64) cycles at 1 GHz. */
  hop = vxp_analysis_route(r.an, 1);
  assert_true(vxp_route_derived_cost(hop, &v));
  assert_int_equal(v, 4000 + 63000);
  assert_string_equal(vxp_route_derived_unit(hop), "ps");
  assert_string_equal(vxp_route_cost_source(hop), "containment");
  assert_string_equal(vxp_route_composition(hop), "sum");
  /* L2 -> SMEM in cycles: 4000/32 + 4000/(64/2). */
  hop = vxp_analysis_route(r.an, 2);
  assert_true(vxp_route_derived_cost(hop, &v));
  assert_int_equal(v, 125 + 125);
  assert_string_equal(vxp_route_derived_unit(hop), "cyc");
  assert_true(vxp_route_bytes(hop, &v));
  assert_int_equal(v, 4000); /* the tile's bytes, before SMEM's granule */
  /* The staged copies are live to the end of the function: HBM holds the staged 4000 and
   * t's 100 together; SMEM's own tile is never read and counts alone (4 KiB granule). */
  assert_int_equal(vxp_resident_set_peak_bytes(test_resident(r.an, "main", "HBM")), 4100);
  assert_int_equal(vxp_resident_set_peak_bytes(test_resident(r.an, "main", "L2")), 4000);
  assert_int_equal(vxp_resident_set_peak_bytes(test_resident(r.an, "main", "SMEM")), 4096);
  test_done(&r);
}

static void test_transfer__no_route_is_e6002_and_the_tile_still_counts(void **state) {
  (void)state;
  const char *text = "Memory CPU_DRAM {}\n"
                     "Memory Island { capacity: 1 KiB }\n"
                     "Memory W { capacity: 1 KiB }\n"
                     "Topology T { memory: Memory::W, transfer Memory::CPU_DRAM -> Memory::W }\n"
                     "fn main() -> i32 {\n"
                     "  let a = transfer(Tensor<u8, [600]>::uninit(), Memory::Island);\n"
                     "  let b = transfer(Tensor<u8, [600]>::uninit(), Memory::Island);\n"
                     "  print!(a, b);\n"
                     "  return 0;\n"
                     "}\n";
  test_run r = test_analyse(text);
  assert_int_equal(test_count_diag(r.an, "E6002"), 2);
  const vxp_diagnostic *d = test_find_diag(r.an, "E6002");
  assert_string_equal(vxp_diagnostic_message(d),
                      "Cannot transfer from CPU_DRAM to Island: no hardware path exists");
  assert_int_equal(vxp_diagnostic_range(d).start.line, 5);
  assert_int_equal(vxp_diagnostic_range(d).start.column, 10);
  assert_int_equal(vxp_analysis_route_count(r.an), 0);
  assert_non_null(test_find_diag(r.an, "E6010")); /* both tiles still counted */
  test_done(&r);
}

static void test_transfer__a_sub_space_without_edges_routes_through_its_parent(void **state) {
  (void)state;
  const char *text =
      "Memory CPU_DRAM {}\n"
      "Memory HBM { capacity: 1 MiB }\n"
      "Memory SCRATCH { within: Memory::HBM, capacity: 64 KiB }\n"
      "Topology T { memory: Memory::HBM, transfer Memory::CPU_DRAM -> Memory::HBM : 3 }\n"
      "fn main() -> i32 {\n"
      "  let s = transfer(Tensor<u8, [64]>::uninit(), Memory::SCRATCH);\n"
      "  print!(s);\n"
      "  return 0;\n"
      "}\n";
  test_run r = test_analyse(text);
  assert_int_equal(vxp_analysis_error_count(r.an), 0);
  assert_int_equal(vxp_analysis_route_count(r.an), 1);
  char buf[64];
  /* The edge reaches the parent; the path ends with the step down to the space itself. */
  assert_string_equal(path_of(r.an, 0, buf, sizeof(buf)), "CPU_DRAM->HBM->SCRATCH");
  assert_int_equal(vxp_route_total_cost(vxp_analysis_route(r.an, 0)), 3);
  assert_non_null(test_resident(r.an, "main", "SCRATCH"));
  test_done(&r);
}

static void test_transfer__a_topology_the_host_cannot_reach_is_w1026(void **state) {
  (void)state;
  /* Island's memory has no edge from the host; Dev's is reached through an edge; Host's is
   * host memory; Seen lists CPU_DRAM as visible; Far's NPU_HBM is reached by Vx's built-in
   * edges. Only Island warns. */
  test_run r = test_analyse(
      "Memory CPU_DRAM {}\n"
      "Memory HBM { capacity: 1 GiB }\n"
      "Memory ISL { capacity: 1 GiB }\n"
      "Memory LOOK { capacity: 1 GiB }\n"
      "Topology Dev { memory: Memory::HBM, transfer Memory::CPU_DRAM -> Memory::HBM }\n"
      "Topology Island { memory: Memory::ISL }\n"
      "Topology Host { memory: Memory::CPU_DRAM }\n"
      "Topology Seen { memory: Memory::LOOK, visible: [Memory::LOOK, Memory::CPU_DRAM] }\n"
      "Topology Far { memory: Memory::NPU_HBM }\n"
      "fn main() -> i32 { return 0; }\n");
  assert_int_equal(test_count_diag(r.an, "W1026"), 1);
  assert_string_equal(vxp_diagnostic_message(test_find_diag(r.an, "W1026")),
                      "topology 'Island': its memory is unreachable from the host; declare a "
                      "`transfer` edge so data can reach it");
  assert_true(vxp_analysis_admitted(r.an));
  test_done(&r);
}

static void test_transfer__an_edge_with_two_cost_sources_is_e6013(void **state) {
  (void)state;
  const char *text = "Memory P { bandwidth: 1 TB/s }\n"
                     "Memory C { within: Memory::P, bandwidth: 2 TB/s }\n"
                     "Memory D { within: Memory::P }\n"
                     "Topology T { memory: Memory::P,\n"
                     "  transfer Memory::P -> Memory::C : 5\n"
                     "  transfer Memory::P -> Memory::D : 5\n"
                     "  transfer Memory::C -> Memory::P }\n";
  test_run r = test_analyse(text);
  assert_int_equal(test_count_diag(r.an, "E6013"), 1); /* D has no bandwidth: one source */
  const vxp_diagnostic *d = test_find_diag(r.an, "E6013");
  assert_non_null(strstr(vxp_diagnostic_message(d),
                         "topology 'T': transfer Memory::P -> Memory::C declares a cost, but one "
                         "is already derivable from the `bandwidth:` of the spaces it connects"));
  assert_int_equal(vxp_diagnostic_range(d).start.line, 4);
  test_done(&r);
}

static void test_transfer__cycle_rates_lowerings_and_unknown_sizes(void **state) {
  (void)state;
  const char *text =
      "Memory CPU_DRAM {}\n"
      "Memory V { capacity: 1 MiB }\n"
      "Memory U { capacity: 1 MiB }\n"
      "Topology T { memory: Memory::V,\n"
      "  transfer Memory::CPU_DRAM -> Memory::V : 16 B/cyc\n"
      "  transfer Memory::V -> Memory::U }\n"
      "impl Transfer<Memory::V, Memory::U> for Topology::T {\n"
      "  fn move_tile(src : &Tensor<f32, [2, 2]>, dst : &mut Tensor<f32, [2, 2]>) -> i32 { 0 }\n"
      "}\n"
      "fn main() -> i32 {\n"
      "  let n = read();\n"
      "  let a = transfer(Tensor<u8, [33]>::uninit(), Memory::V);\n"
      "  let b = transfer(a, Memory::U);\n"
      "  let c = transfer(Tensor<u8, [n]>::uninit(), Memory::V);\n"
      "  print!(b, c);\n"
      "  return 0;\n"
      "}\n";
  test_run r = test_analyse(text);
  assert_int_equal(vxp_analysis_route_count(r.an), 3);
  const vxp_route *a = vxp_analysis_route(r.an, 0);
  uint64_t v;
  assert_true(vxp_route_derived_cost(a, &v));
  assert_int_equal(v, 3); /* ceil(33 / 16) cycles */
  assert_string_equal(vxp_route_derived_unit(a), "cyc");
  assert_false(vxp_route_edge_cost(a, 0, &v)); /* a rate is not a declared weight */
  assert_int_equal(vxp_route_total_cost(a), 1);
  const vxp_route *b = vxp_analysis_route(r.an, 1);
  assert_false(vxp_route_derived_cost(b, &v)); /* no rate, no bandwidths */
  assert_null(vxp_route_cost_source(b));
  const vxp_route *c = vxp_analysis_route(r.an, 2);
  assert_false(vxp_route_bytes(c, &v));
  assert_false(vxp_route_derived_cost(c, &v));
  /* The lowering of V -> U cannot be emitted (no raw:: body, U not `scope: sm`), so vxc
   * moves the hop with the builtin copy and says so; the JSON says why the last transfer's
   * traffic is not counted: an unknown size. */
  assert_int_equal(test_count_diag(r.an, "VXP0044"), 1);
  const char *json = vxp_analysis_json(r.an, NULL);
  assert_null(strstr(json, "lowering_body"));
  assert_non_null(strstr(json, "\"traffic_absent_reason\": \"the transferred tile has no "
                               "statically known size\""));
  assert_non_null(strstr(json, "\"traffic_source\": \"builtin_copy\""));
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_transfer__a_link_rate_costs_ceil_bytes_times_1e12_over_rate),
      cmocka_unit_test(test_transfer__containment_charges_each_leg_and_the_parent_end),
      cmocka_unit_test(test_transfer__vxcs_cost_axioms),
      cmocka_unit_test(test_transfer__a_register_stage_between_the_ends_always_adds),
      cmocka_unit_test(test_transfer__containment_is_not_derivable_without_its_figures),
      cmocka_unit_test(test_transfer__routes_minimise_unitless_weight),
      cmocka_unit_test(test_transfer__a_staged_transfer_places_each_hop),
      cmocka_unit_test(test_transfer__no_route_is_e6002_and_the_tile_still_counts),
      cmocka_unit_test(test_transfer__a_sub_space_without_edges_routes_through_its_parent),
      cmocka_unit_test(test_transfer__a_topology_the_host_cannot_reach_is_w1026),
      cmocka_unit_test(test_transfer__an_edge_with_two_cost_sources_is_e6013),
      cmocka_unit_test(test_transfer__cycle_rates_lowerings_and_unknown_sizes),
  };
  return cmocka_run_group_tests_name("transfer", tests, NULL, NULL);
}
