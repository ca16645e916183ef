/* SPDX-License-Identifier: Apache-2.0 */
/* test_machine.c - machine models: reading Memory/Topology declarations, unit errors with
 * their locations, merging inputs (E6012) and the coherence checks E6005, E6006, E6007,
 * E6008, E6011 and E6016, and the built-in machines. */
#include "support.h"

#include "analysis_data.h"
#include "machine.h"

/* Diagnostic `code` must exist once, with `message` exactly, at 1-based line:col. */
static void expect_diag(const vxp_analysis *an, const char *code, const char *message,
                        uint32_t line, uint32_t column) {
  const vxp_diagnostic *d = test_find_diag(an, code);
  if (!d) fail_msg("no %s diagnostic", code);
  assert_string_equal(vxp_diagnostic_message(d), message);
  assert_true(vxp_diagnostic_has_range(d));
  vxp_range r = vxp_diagnostic_range(d);
  if (r.start.line + 1 != line || r.start.column + 1 != column)
    fail_msg("%s at %u:%u, expected %u:%u", code, r.start.line + 1, r.start.column + 1, line,
             column);
}

static void test_machine__units_are_exact_and_errors_name_their_place(void **state) {
  (void)state;
  test_run r =
      test_analyse("Memory A { capacity: 1.1 KiB }\n"
                   "Memory B {\n  capacity: 4 Mb }\n"
                   "Memory C { capacity: 20000 PB }\n"
                   "Memory D { bandwidth: 3.3.5 GB/s }\n"
                   "Memory E { clock: 1.5 KHz }\n"
                   "Memory F { capacity: 1.5 KiB, bandwidth: 31.5 GB/s, clock: 1.41 GHz }\n"
                   "fn main() -> i32 { return 0; }\n");
  expect_diag(r.an, "VXP0011", "'1.1 KiB' is not a whole number of bytes", 1, 22);
  expect_diag(r.an, "VXP0010",
              "unknown unit in '4 Mb'; units are case-sensitive: B, KB, MB, GB, TB, PB, KiB, "
              "MiB, GiB, TiB, PiB",
              3, 13);
  expect_diag(r.an, "VXP0012", "'20000 PB' does not fit in 64 bits of bytes", 4, 22);
  assert_non_null(test_find_diag(r.an, "VXP0013"));
  assert_int_equal(test_count_diag(r.an, "VXP0010"), 2); /* Mb and KHz */
  assert_int_equal(vxp_analysis_error_count(r.an), 5);   /* F converts cleanly */
  test_done(&r);
}

static void test_machine__rates_are_per_second_or_per_cycle_and_costs_are_integers(void **state) {
  (void)state;
  test_run r = test_analyse("Memory A { bandwidth: 4 GB/ms }\n"
                            "Memory B { bandwidth: 64 B/cyc, clock: 1 GHz }\n"
                            "Topology T { memory: Memory::B,\n"
                            "  transfer Memory::A -> Memory::B : 1.5\n"
                            "  transfer Memory::B -> Memory::A : 2 GiB/s }\n"
                            "fn main() -> i32 { return 0; }\n");
  expect_diag(r.an, "VXP0010",
              "unknown rate denominator '/ms'; a rate is per second (/s) or per cycle (/cyc)", 1,
              28);
  expect_diag(r.an, "VXP0013",
              "a transfer cost is a non-negative integer weight or a rate such as 31.5 GB/s", 4,
              37);
  assert_int_equal(vxp_analysis_error_count(r.an), 2);
  test_done(&r);
}

static void test_machine__within_cycles_are_e6006_for_every_space_on_them(void **state) {
  (void)state;
  test_run r = test_analyse("Memory A { within: Memory::B }\n"
                            "Memory B { within: Memory::A }\n"
                            "Memory C { within: Memory::C }\n"
                            "Memory D { within: Memory::A }\n");
  assert_int_equal(test_count_diag(r.an, "E6006"), 3); /* A, B and C; D only hangs off A */
  expect_diag(r.an, "E6006",
              "memory space 'A' is in a `within:` cycle (a space cannot contain itself)", 1, 12);
  test_done(&r);
}

static void test_machine__a_child_larger_than_its_parent_is_e6007(void **state) {
  (void)state;
  test_run r = test_analyse("Memory P { capacity: 1 MiB }\n"
                            "Memory Q { within: Memory::P, capacity: 2 MiB }\n"
                            "Memory R { within: Memory::P, capacity: 1 MiB }\n");
  assert_int_equal(test_count_diag(r.an, "E6007"), 1); /* equal to the parent is allowed */
  expect_diag(r.an, "E6007",
              "memory space 'Q' (2097152 bytes) is larger than its parent 'P' (1048576 bytes); "
              "a sub-space cannot exceed what contains it",
              2, 31);
  test_done(&r);
}

static void test_machine__non_positive_figures_are_e6008(void **state) {
  (void)state;
  test_run r = test_analyse("Memory Z { capacity: 0 B, bandwidth: 0 GB/s, granule: 0 KiB }\n");
  assert_int_equal(test_count_diag(r.an, "E6008"), 3);
  expect_diag(r.an, "E6008", "memory space 'Z' has a non-positive `capacity`", 1, 12);
  test_done(&r);
}

static void test_machine__a_scope_wider_than_its_parent_is_e6011(void **state) {
  (void)state;
  test_run r = test_analyse("Memory S { scope: sm }\n"
                            "Memory W { within: Memory::S, scope: device }\n"
                            "Memory N { within: Memory::S, scope: thread }\n");
  assert_int_equal(test_count_diag(r.an, "E6011"), 1);
  expect_diag(r.an, "E6011",
              "memory space 'W' has scope Device, broader than its parent 'S' (Sm); locality "
              "must narrow down the hierarchy, not widen",
              2, 1);
  test_done(&r);
}

static void test_machine__a_name_declared_by_two_inputs_is_e6012(void **state) {
  (void)state;
  test_run r =
      test_analyse_with("Memory HBM { capacity: 1 GiB }\nfn main() -> i32 { return 0; }\n",
                        "Memory HBM { capacity: 2 GiB }\nTopology T { memory: Memory::HBM }\n", 0);
  const vxp_diagnostic *d = test_find_diag(r.an, "E6012");
  assert_non_null(d);
  assert_string_equal(vxp_diagnostic_message(d),
                      "memory space 'HBM' is declared in more than one input (also in "
                      "'test.vx'); remove one or rename it -- a duplicate declaration would "
                      "silently shadow the other");
  assert_string_equal(vxp_source_label(vxp_diagnostic_source(d)), "machine.vx");
  assert_int_equal(vxp_diagnostic_note_count(d), 1);
  /* The first declaration stays in force. */
  assert_int_equal(test_count_diag(r.an, "E6012"), 1);
  test_done(&r);
  /* Twice in one file. */
  r = test_analyse("Memory A {}\nMemory A {}\nTopology T { memory: Memory::A }\n"
                   "Topology T { memory: Memory::A }\n");
  assert_int_equal(test_count_diag(r.an, "E6012"), 2);
  test_done(&r);
}

static void test_machine__topology_coherence_e6005_e6016_and_dtypes(void **state) {
  (void)state;
  test_run r = test_analyse("Memory A {}\nMemory B {}\n"
                            "Topology T { memory: Memory::A, visible: [Memory::B] }\n"
                            "Topology GPU { memory: Memory::A }\n"
                            "Topology U { memory: Memory::A, dtypes: [f32, float] }\n"
                            "Topology V { visible: [Memory::A] }\n");
  expect_diag(r.an, "E6005",
              "topology 'T' is incoherent: it cannot see its own default memory space 'A' (not "
              "in its visibility set)",
              3, 1);
  expect_diag(r.an, "E6016",
              "topology 'GPU' shadows the built-in topology of the same name; give the declared "
              "machine a name of its own",
              4, 10);
  const vxp_diagnostic *d = test_find_diag(r.an, "VXP0016");
  assert_non_null(d);
  assert_non_null(strstr(vxp_diagnostic_message(d), "'float' in `dtypes:`"));
  assert_int_equal(test_count_diag(r.an, "VXP0016"), 1);
  assert_non_null(test_find_diag(r.an, "VXP0015")); /* V has no memory: */
  test_done(&r);
}

static void test_machine__compute_lines_declare_peak_rates(void **state) {
  (void)state;
  /* Rates are comment lines, so vxc reads the same file; a malformed one is VXP0017. */
  test_run r = test_analyse("Memory A {}\n"
                            "Topology T {\n  memory: Memory::A,\n"
                            "  // compute: bf16, f16 989.4 TFLOP/s\n"
                            "  // compute: tf32 1.5 PFLOP/s\n"
                            "  // compute: i8 624 TOP/s\n"
                            "  // computes nothing: prose\n}\n"
                            "Topology U {\n  memory: Memory::A,\n"
                            "  // compute: f32 12 TFLOPS\n"
                            "  // compute: float 1 TFLOP/s\n"
                            "  // compute: f64 1 TFLOP/s\n  // compute: f64 2 TFLOP/s\n"
                            "  // compute: f16 0.1 FLOP/s\n}\n");
  const vxp_topology *t = vxp_machine__topology(&r.an->view, "T");
  assert_non_null(t);
  assert_int_equal(t->compute.len, 4);
  assert_true(vxp_machine__peak_ops(t, VXP_ELEM_BF16) == 989400000000000ull);
  assert_true(vxp_machine__peak_ops(t, VXP_ELEM_F16) == 989400000000000ull);
  assert_true(vxp_machine__peak_ops(t, VXP_COMPUTE_TF32) == 1500000000000000ull);
  assert_true(vxp_machine__peak_ops(t, VXP_ELEM_I8) == 624000000000000ull);
  assert_true(vxp_machine__peak_ops(t, VXP_ELEM_F32) == 0);
  const vxp_topology *u = vxp_machine__topology(&r.an->view, "U");
  assert_int_equal(u->compute.len, 1); /* the first f64 line only */
  assert_int_equal(test_count_diag(r.an, "VXP0017"), 4);
  test_done(&r);
}

static void test_machine__overhead_lines_are_summed_and_a_margin_is_a_share_of_both(void **state) {
  (void)state;
  /* `// overhead: N B` lines (vxpeak calibrate) are comments vxc skips; vxpeak sums them per
   * space, already out of the capacity, so that a margin is a share of capacity + overhead. */
  test_run r = test_analyse("Memory A {\n"
                            "  // overhead: 100 B, calibrated 2026-12-06: a CUDA context\n"
                            "  // overhead: 50 B: the framework's workspace\n"
                            "  // overheads are prose when no colon follows the word\n"
                            "  capacity: 850 B\n}\n"
                            "Memory B {\n  // overhead: lots of it\n  capacity: 1 KiB\n}\n"
                            "Memory C {\n  // overhead: 7 KB, a unit other than B\n"
                            "  capacity: 1 KiB\n}\n"
                            "Memory D { capacity: 1000 B }\n"
                            "Memory E {\n  // overhead: 18446744073709551615 B, all of it\n"
                            "  // overhead: 1 B, and one more\n  capacity: 1 KiB\n}\n");
  const vxp_space *a = vxp_machine__space(&r.an->view, "A");
  assert_non_null(a);
  assert_true(a->overhead == 150);
  assert_true(a->capacity == 850);
  /* 10% of the 1,000 bytes offered is 100: the program may hold 900 - 150 = 750 bytes, not
   * 90% of the 850 left (765). */
  assert_true(vxp_space__budget(a, 100000) == (u128)750 * 1000000u);
  const vxp_space *d = vxp_machine__space(&r.an->view, "D");
  assert_true(d->overhead == 0);
  assert_true(vxp_space__budget(d, 100000) == (u128)900 * 1000000u);
  /* An overhead of more than the margin leaves would leave nothing, not wrap around. */
  vxp_space big = *a;
  big.overhead = 1000;
  big.capacity = 10;
  assert_true(vxp_space__budget(&big, 500000) == 0);
  /* B's and C's lines do not parse; E's second line takes the sum past 64 bits. */
  assert_int_equal(test_count_diag(r.an, "VXP0018"), 3);
  assert_true(vxp_machine__space(&r.an->view, "E")->overhead == UINT64_MAX);
  test_done(&r);
}

static void test_machine__every_field_is_read(void **state) {
  (void)state;
  /* A space with every field, checked through what the analysis makes of it. */
  test_run r = test_analyse(
      "Memory CPU_DRAM {}\n"
      "Memory HBM { capacity: 1 MiB, bandwidth: 1 TB/s, managed: explicit, scope: device }\n"
      "Memory SM { within: Memory::HBM, capacity: 4 KiB, bandwidth: 64 B/cyc, clock: 1 GHz,\n"
      "  granule: 1 KiB, scope: sm, managed: explicit, replicas: 4, crossing: streamed,\n"
      "  overcommit }\n"
      "Topology T { arch: nvptx64, memory: Memory::HBM, visible: [Memory::HBM, Memory::SM],\n"
      "  dtypes: [f32, u8, bool], transfer Memory::CPU_DRAM -> Memory::HBM : 7 relaxed\n"
      "  transfer Memory::HBM -> Memory::SM copy_engine sync }\n"
      "fn main() -> i32 {\n"
      "  let a = transfer(Tensor<u8, [3100]>::uninit(), Memory::SM);\n"
      "  let b = transfer(Tensor<u8, [10]>::uninit(), Memory::SM);\n"
      "  print!(a, b);\n"
      "  return 0;\n"
      "}\n");
  assert_int_equal(vxp_analysis_error_count(r.an), 0);
  const vxp_resident_set *rs = test_resident(r.an, "main", "SM");
  assert_non_null(rs);
  assert_int_equal(vxp_resident_set_peak_bytes(rs), 4096 + 1024); /* granule */
  assert_true(vxp_resident_set_overcommit(rs));
  assert_non_null(test_find_diag(r.an, "W1028")); /* over 4 KiB, but overcommit */
  test_done(&r);
}

static void test_machine__built_in_machines_cover_the_fleet(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  const char *names[] = {"a100-40",   "a100-80",      "h100-sxm",      "h200",      "b200",
                         "mi300x",    "l4",           "rtx-4090",      "cortex-m7", "m4-uma",
                         "node-8gpu", "host-default", "host-epyc-7742"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    vxp_machine *m = NULL;
    assert_int_equal(vxp_machine_builtin(&m, ctx, names[i]), VXP_OK);
    assert_int_equal(vxp_machine_diagnostic_count(m), 0);
    vxp_machine_free(m);
  }
  vxp_machine *m = NULL;
  assert_int_equal(vxp_machine_builtin(&m, ctx, "a100-41"), VXP_ENOTFOUND);
  assert_null(m);
  assert_non_null(strstr(vxp_context_errmsg(ctx), "no built-in machine named 'a100-41'"));
  assert_non_null(strstr(vxp_context_errmsg(ctx), "h100-sxm"));
  vxp_context_free(ctx);
}

/* A field written twice: the last one counts, and nothing read from the first leaks
 * (the test allocator reports any block left allocated). */
static void test_machine__a_repeated_field_keeps_the_last_and_leaks_nothing(void **state) {
  (void)state;
  test_run r = test_analyse("Memory CPU_DRAM {}\n"
                            "Memory A { capacity: 8 MiB }\n"
                            "Memory B { capacity: 4 MiB }\n"
                            "Memory W { within: Memory::A, within: Memory::B, capacity: 6 MiB,\n"
                            "  capacity: 2 MiB }\n");
  assert_int_equal(test_count_diag(r.an, "E6007"), 0); /* 2 MiB within the 4 MiB B */
  test_done(&r);
  r = test_analyse("Memory CPU_DRAM {}\n"
                   "Memory A { capacity: 8 MiB }\n"
                   "Memory B { capacity: 4 MiB }\n"
                   "Memory W { within: Memory::A, within: Memory::B, capacity: 6 MiB }\n");
  assert_int_equal(test_count_diag(r.an, "E6007"), 1); /* 6 MiB within the 4 MiB B */
  test_done(&r);
}

/* A message is never cut short: a 700-character space name appears whole in the message
 * about its field (the wrappers used to format into fixed 512- and 1024-byte buffers). */
static void test_machine__long_names_reach_the_message_whole(void **state) {
  (void)state;
  char name[701];
  for (int i = 0; i < 700; i++)
    name[i] = (char)('a' + i % 26);
  name[700] = '\0';
  char text[1024];
  snprintf(text, sizeof(text), "Memory %s { scope: galaxy }\n", name);
  test_run r = test_analyse(text);
  const vxp_diagnostic *d = test_find_diag(r.an, "VXP0014");
  assert_non_null(d);
  const char *msg = vxp_diagnostic_message(d);
  assert_non_null(strstr(msg, name));
  assert_non_null(strstr(msg, "expected device, sm, cta or thread"));
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_machine__long_names_reach_the_message_whole),
      cmocka_unit_test(test_machine__a_repeated_field_keeps_the_last_and_leaks_nothing),
      cmocka_unit_test(test_machine__units_are_exact_and_errors_name_their_place),
      cmocka_unit_test(test_machine__rates_are_per_second_or_per_cycle_and_costs_are_integers),
      cmocka_unit_test(test_machine__within_cycles_are_e6006_for_every_space_on_them),
      cmocka_unit_test(test_machine__a_child_larger_than_its_parent_is_e6007),
      cmocka_unit_test(test_machine__non_positive_figures_are_e6008),
      cmocka_unit_test(test_machine__a_scope_wider_than_its_parent_is_e6011),
      cmocka_unit_test(test_machine__a_name_declared_by_two_inputs_is_e6012),
      cmocka_unit_test(test_machine__topology_coherence_e6005_e6016_and_dtypes),
      cmocka_unit_test(test_machine__every_field_is_read),
      cmocka_unit_test(test_machine__compute_lines_declare_peak_rates),
      cmocka_unit_test(test_machine__overhead_lines_are_summed_and_a_margin_is_a_share_of_both),
      cmocka_unit_test(test_machine__built_in_machines_cover_the_fleet),
  };
  return cmocka_run_group_tests_name("machine", tests, NULL, NULL);
}
