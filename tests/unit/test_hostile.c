/* SPDX-License-Identifier: Apache-2.0 */
/* test_hostile.c - the findings of hostile-input testing (issue 18) that are about wrong
 * numbers and messages at the edges, each pinned here: a real route of cost 2^64-1, values
 * of 2^63 and above in JSON, a clock of 0 Hz, a bandwidth past 64 bits, a 20-digit
 * dimension, a NUL byte, and instances that together hold too much. */
#include "support.h"

static const char *const one_tile =
    "fn main() -> i32 {\n"
    "  let t = transfer(Tensor<f32, [16, 16]>::uninit(), Memory::HBM);\n"
    "  return 0;\n"
    "}\n";

/* UINT64_MAX was both a weight and the "unreached" mark of the route search: the only
 * route, one edge of cost 2^64-1, vanished (E6002). */
static void test_hostile__an_edge_of_cost_2_64_minus_1_is_a_route(void **state) {
  (void)state;
  test_run r =
      test_analyse_with(one_tile,
                        "Memory CPU_DRAM {}\nMemory HBM { capacity: 1 GiB }\n"
                        "Topology D { arch: nvptx64, memory: Memory::HBM, visible: [Memory::HBM],\n"
                        "  transfer Memory::CPU_DRAM -> Memory::HBM : 18446744073709551615 }\n",
                        0);
  assert_int_equal(test_count_diag(r.an, "E6002"), 0);
  assert_int_equal(vxp_analysis_route_count(r.an), 1);
  assert_int_equal(vxp_route_total_cost(vxp_analysis_route(r.an, 0)), UINT64_MAX);
  /* JSON printed it as -1 (an unsigned value cast to jansson's signed integer). */
  size_t len = 0;
  const char *json = vxp_analysis_json(r.an, &len);
  assert_non_null(json);
  assert_non_null(strstr(json, "\"total_cost\": 18446744073709551615"));
  assert_null(strstr(json, "-1,"));
  assert_null(strstr(json, "u64:"));
  test_done(&r);
}

static void test_hostile__a_clock_of_0_hz_is_e6008(void **state) {
  (void)state;
  test_run r = test_analyse_with(
      one_tile, "Memory HBM { capacity: 1 GiB, bandwidth: 10 B/cyc, clock: 0 MHz }\n", 0);
  const vxp_diagnostic *d = test_find_diag(r.an, "E6008");
  assert_non_null(d);
  assert_non_null(strstr(vxp_diagnostic_message(d), "non-positive `clock`"));
  test_done(&r);
}

static void test_hostile__a_bandwidth_past_64_bits_is_vxp0012(void **state) {
  (void)state;
  test_run r = test_analyse_with(
      one_tile,
      "Memory HBM { capacity: 1 GiB, bandwidth: 18446744073709551615 B/cyc, clock: 1 GHz }\n", 0);
  const vxp_diagnostic *d = test_find_diag(r.an, "VXP0012");
  assert_non_null(d);
  assert_non_null(strstr(vxp_diagnostic_message(d), "past 64 bits"));
  assert_false(vxp_analysis_admitted(r.an));
  test_done(&r);
}

/* A dimension literal past 64 bits made the tile's size "unknown" (W1029) and the program
 * was admitted; [2^32, 2^32] was E6009. Both are E6009 now; a zero dimension still empties
 * the tile. */
static void test_hostile__a_20_digit_dimension_is_e6009(void **state) {
  (void)state;
  test_run r = test_analyse(
      "Memory HBM { capacity: 1 GiB }\n"
      "fn main() -> i32 {\n"
      "  let t = transfer(Tensor<f32, [99999999999999999999]>::uninit(), Memory::HBM);\n"
      "  return 0;\n"
      "}\n");
  assert_int_equal(test_count_diag(r.an, "E6009"), 1);
  assert_int_equal(test_count_diag(r.an, "W1029"), 0);
  assert_false(vxp_analysis_admitted(r.an));
  test_done(&r);
  r = test_analyse(
      "Memory HBM { capacity: 1 GiB }\n"
      "fn main() -> i32 {\n"
      "  let t = transfer(Tensor<f32, [99999999999999999999, 0]>::uninit(), Memory::HBM);\n"
      "  return 0;\n"
      "}\n");
  assert_int_equal(test_count_diag(r.an, "E6009"), 0);
  assert_int_equal(test_count_diag(r.an, "W1029"), 0);
  test_done(&r);
}

/* A NUL byte was quoted as nothing: "unexpected '' in a block". */
static void test_hostile__a_nul_byte_is_named(void **state) {
  (void)state;
  static const char text[] = "fn main() -> i32 {\n  let a = 1;\0\n  return 0;\n}\n";
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  assert_int_equal(vxp_source_new(&src, ctx, "t.vx", text, sizeof(text) - 1), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_true(vxp_program_diagnostic_count(prog) > 0);
  const char *msg = vxp_diagnostic_message(vxp_program_diagnostic(prog, 0));
  assert_non_null(strstr(msg, "NUL byte"));
  assert_null(strstr(msg, "''"));
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

/* 2,000 placements instantiated 150 times: the instance cap (4,096) is far, but together
 * the instances would hold 300,000 events, past VXP_MAX_INSTANCE_EVENTS: VXP0030, once. */
static void test_hostile__instances_holding_too_much_stop_with_vxp0030(void **state) {
  (void)state;
  size_t cap = 2000 * 80 + 150 * 32 + 4096, len = 0;
  char *text = malloc(cap);
  assert_non_null(text);
  len += (size_t)snprintf(text + len, cap - len,
                          "Memory HBM { capacity: 64 GiB }\nfn g<const N: i32>() -> i32 {\n");
  for (int i = 0; i < 2000; i++)
    len += (size_t)snprintf(text + len, cap - len,
                            "  let t%d = transfer(Tensor<f32, [N]>::uninit(), Memory::HBM);\n", i);
  len += (size_t)snprintf(text + len, cap - len, "  return 0;\n}\nfn main() -> i32 {\n");
  for (int i = 0; i < 150; i++)
    len += (size_t)snprintf(text + len, cap - len, "  let r%d = g<%d>();\n", i, i + 1);
  snprintf(text + len, cap - len, "  return 0;\n}\n");
  test_run r = test_analyse(text);
  free(text);
  assert_int_equal(test_count_diag(r.an, "VXP0030"), 1);
  assert_non_null(strstr(vxp_diagnostic_message(test_find_diag(r.an, "VXP0030")),
                         "placements, calls and scopes"));
  assert_false(vxp_analysis_admitted(r.an));
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hostile__an_edge_of_cost_2_64_minus_1_is_a_route),
      cmocka_unit_test(test_hostile__a_clock_of_0_hz_is_e6008),
      cmocka_unit_test(test_hostile__a_bandwidth_past_64_bits_is_vxp0012),
      cmocka_unit_test(test_hostile__a_20_digit_dimension_is_e6009),
      cmocka_unit_test(test_hostile__a_nul_byte_is_named),
      cmocka_unit_test(test_hostile__instances_holding_too_much_stop_with_vxp0030),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
