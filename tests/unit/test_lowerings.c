/* SPDX-License-Identifier: Apache-2.0 */
/* test_lowerings.c - the spaces a transfer lowering touches: E6022 when its topology
 * declares the edge but cannot see an end (host memory excepted), VXP0043 when its topology
 * declares no such edge, nothing for a body that never calls the `raw::` primitives (the
 * cases of vxc's whole-body lowering check, in programs of our own). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

#define SPACES                                                                                     \
  "Memory GPU_HBM { capacity: 80 GB, bandwidth: 3 TB/s }\n"                                        \
  "Memory SMEM { within: Memory::GPU_HBM, capacity: 228 KiB, bandwidth: 128 B/cyc }\n"

#define RAW_BODY                                                                                   \
  "  fn move_tile(src: &Tensor<f32, [4]>, dst: &mut Tensor<f32, [4]>) -> i32 {\n"                  \
  "    raw::store(dst, 0, raw::load(src, 0));\n"                                                   \
  "    raw::barrier();\n"                                                                          \
  "    return 0;\n"                                                                                \
  "  }\n"

#define MAIN "fn main() -> i32 {\n  return 0;\n}\n"

static void expect(const char *text, size_t e6022, size_t vxp0040, const char *part) {
  test_run r = test_analyse(text);
  size_t a = test_count_diag(r.an, "E6022"), b = test_count_diag(r.an, "VXP0043");
  if (a != e6022 || b != vxp0040)
    fail_msg("E6022 x%zu and VXP0043 x%zu, expected x%zu and x%zu", a, b, e6022, vxp0040);
  if (part) {
    const vxp_diagnostic *d = test_find_diag(r.an, e6022 ? "E6022" : "VXP0043");
    if (!strstr(vxp_diagnostic_message(d), part))
      fail_msg("\"%s\" lacks \"%s\"", vxp_diagnostic_message(d), part);
  }
  test_done(&r);
}

static void test_lowerings__a_topology_must_see_both_ends_of_the_edge_it_lowers(void **state) {
  (void)state;
  expect(SPACES "Topology Dev {\n  memory: Memory::GPU_HBM,\n  visible: [Memory::GPU_HBM],\n"
                "  transfer Memory::GPU_HBM -> Memory::SMEM\n}\n"
                "impl Transfer<Memory::GPU_HBM, Memory::SMEM> for Topology::Dev {\n" RAW_BODY
                "}\n" MAIN,
         1, 0, "topology Dev declares the edge GPU_HBM -> SMEM but does not see Memory::SMEM");
  expect(SPACES "Topology Dev {\n  memory: Memory::GPU_HBM,\n"
                "  visible: [Memory::GPU_HBM, Memory::SMEM],\n"
                "  transfer Memory::GPU_HBM -> Memory::SMEM\n}\n"
                "impl Transfer<Memory::GPU_HBM, Memory::SMEM> for Topology::Dev {\n" RAW_BODY
                "}\n" MAIN,
         0, 0, NULL);
}

static void test_lowerings__host_memory_needs_no_visibility(void **state) {
  (void)state;
  expect(SPACES "Topology Dev {\n  memory: Memory::GPU_HBM,\n  visible: [Memory::GPU_HBM],\n"
                "  transfer Memory::CPU_DRAM -> Memory::GPU_HBM : 25 GB/s\n}\n"
                "impl Transfer<Memory::CPU_DRAM, Memory::GPU_HBM> for Topology::Dev {\n" RAW_BODY
                "}\n" MAIN,
         0, 0, NULL);
}

static void
test_lowerings__a_lowering_for_an_undeclared_edge_is_carried_with_a_warning(void **state) {
  (void)state;
  /* The edge is declared, but by another topology than the one the lowering names. */
  const char *text = SPACES
      "Topology Dev {\n  memory: Memory::GPU_HBM,\n  visible: [Memory::GPU_HBM],\n"
      "  transfer Memory::GPU_HBM -> Memory::SMEM\n}\n"
      "Topology Other {\n  memory: Memory::GPU_HBM\n}\n"
      "impl Transfer<Memory::GPU_HBM, Memory::SMEM> for Topology::Other {\n" RAW_BODY "}\n" MAIN;
  expect(text, 0, 1, "no topology named Other declares the edge GPU_HBM -> SMEM");
  test_run r = test_analyse(text);
  assert_true(vxp_analysis_admitted(r.an)); /* a warning: the program is admitted */
  test_done(&r);
}

static void test_lowerings__a_body_without_primitives_is_not_held_to_the_contract(void **state) {
  (void)state;
  expect(SPACES "Topology Dev {\n  memory: Memory::GPU_HBM,\n  visible: [Memory::GPU_HBM],\n"
                "  transfer Memory::GPU_HBM -> Memory::SMEM\n}\n"
                "impl Transfer<Memory::GPU_HBM, Memory::SMEM> for Topology::Dev {\n"
                "  fn carried(n: i32) -> i32 {\n    return n;\n  }\n}\n" MAIN,
         0, 0, NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lowerings__a_topology_must_see_both_ends_of_the_edge_it_lowers),
      cmocka_unit_test(test_lowerings__host_memory_needs_no_visibility),
      cmocka_unit_test(test_lowerings__a_lowering_for_an_undeclared_edge_is_carried_with_a_warning),
      cmocka_unit_test(test_lowerings__a_body_without_primitives_is_not_held_to_the_contract),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
