/* SPDX-License-Identifier: Apache-2.0 */
/* test_lowerings.c - the spaces a transfer lowering touches: E6022 when its topology
 * declares the edge but cannot see an end (host memory excepted), VXP0043 when its topology
 * declares no such edge, nothing for a body that never calls the `raw::` primitives (the
 * cases of vxc's whole-body lowering check, in programs of our own). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
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

static void test_lowerings__a_lowering_for_an_edge_its_topology_lacks_is_refused(void **state) {
  (void)state;
  /* The edge is declared, but by another topology than the one the lowering names: vxc's
   * E6015 (nothing to implement), and the uncoded warning it also gives (VXP0043). */
  const char *text = SPACES
      "Topology Dev {\n  memory: Memory::GPU_HBM,\n  visible: [Memory::GPU_HBM],\n"
      "  transfer Memory::GPU_HBM -> Memory::SMEM\n}\n"
      "Topology Other {\n  memory: Memory::GPU_HBM\n}\n"
      "impl Transfer<Memory::GPU_HBM, Memory::SMEM> for Topology::Other {\n" RAW_BODY "}\n" MAIN;
  expect(text, 0, 1, "no topology named Other declares the edge GPU_HBM -> SMEM");
  test_run r = test_analyse(text);
  assert_false(vxp_analysis_admitted(r.an));
  const vxp_diagnostic *d = test_find_diag(r.an, "E6015");
  assert_non_null(d);
  assert_non_null(strstr(vxp_diagnostic_message(d), "does not declare the edge GPU_HBM -> SMEM"));
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

/* ------------------------------------------------------------------ E6015, E6023, traffic
 * The cases of vxc's declaration checks (check_transfer_impls), its choice of the lowering
 * at a transfer (select_transfer_lowering, record_emittable_lowering) and its traffic
 * count (derive_lowering_traffic), in programs of our own. */

/* An L2 -> SMEM machine whose SMEM is `scope: sm` (the one edge kind vxc emits). */
#define SM_MACHINE                                                                                 \
  "Memory CPU_DRAM {}\n"                                                                           \
  "Memory L2 { within: Memory::CPU_DRAM, capacity: 40 MiB, bandwidth: 3 TB/s }\n"                  \
  "Memory SMEM { within: Memory::L2, capacity: 228 KiB, bandwidth: 128 B/cyc, scope: sm }\n"       \
  "Topology Dev {\n  memory: Memory::L2,\n  visible: [Memory::L2, Memory::SMEM],\n"                \
  "  transfer Memory::CPU_DRAM -> Memory::L2 : 10 GB/s,\n  transfer Memory::L2 -> "                \
  "Memory::SMEM\n}\n"

#define LOWERING(SRC, DST, BODY)                                                                   \
  "impl Transfer<Memory::L2, Memory::SMEM> for Topology::Dev {\n"                                  \
  "  fn move_tile(src: " SRC ", dst: " DST ") -> i32 {\n" BODY "    raw::barrier();\n"             \
  "    return 0;\n  }\n}\n"

#define COPY_LOOP                                                                                  \
  "    for i in 0..raw::extent(src) {\n      raw::store(dst, i, raw::load(src, i));\n    }\n"

/* main moves a TILE tensor to L2, then to SMEM inside the device region. */
#define SITE(TILE)                                                                                 \
  "fn main() -> i32 {\n  let a = " TILE "::new();\n  let ad = transfer(a, Memory::L2);\n"          \
  "  spawn on(Topology::Dev) {\n    let t = transfer(ad, Memory::SMEM);\n    t[0] = 1.0;\n  }\n"   \
  "  return 0;\n}\n"

static void expect_code(const char *text, const char *code, size_t count, const char *part) {
  test_run r = test_analyse(text);
  size_t n = test_count_diag(r.an, code);
  if (n != count) fail_msg("%s x%zu, expected x%zu", code, n, count);
  if (part) {
    const vxp_diagnostic *d = test_find_diag(r.an, code);
    if (!strstr(vxp_diagnostic_message(d), part))
      fail_msg("\"%s\" lacks \"%s\"", vxp_diagnostic_message(d), part);
  }
  test_done(&r);
}

static void test_lowerings__a_lowering_must_name_a_declared_topology(void **state) {
  (void)state;
  expect_code(SM_MACHINE "impl Transfer<Memory::L2, Memory::SMEM> for Topology::Ampere {\n" RAW_BODY
                         "}\n" MAIN,
              "E6015", 1, "no topology named 'Ampere' is declared");
  /* A built-in topology declares no edges of its own. */
  expect_code(SM_MACHINE "impl Transfer<Memory::L2, Memory::SMEM> for Topology::CPU {\n" RAW_BODY
                         "}\n" MAIN,
              "E6015", 1, "'CPU' is a built-in topology");
  expect_code(SM_MACHINE LOWERING("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>", COPY_LOOP) MAIN,
              "E6015", 0, NULL);
}

static void test_lowerings__a_lowering_has_one_function_none_generic(void **state) {
  (void)state;
  expect_code(SM_MACHINE "impl Transfer<Memory::L2, Memory::SMEM> for Topology::Dev {\n}\n" MAIN,
              "E6015", 1, "declares no functions");
  expect_code(SM_MACHINE "impl Transfer<Memory::L2, Memory::SMEM> for Topology::Dev {\n"
                         "  fn move<T>(n: i32) -> i32 {\n    return n;\n  }\n}\n" MAIN,
              "E6015", 1, "fn 'move' is generic");
}

static void test_lowerings__one_lowering_per_edge_and_machine(void **state) {
  (void)state;
  const char *low = LOWERING("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>", COPY_LOOP);
  char text[4096];
  snprintf(text, sizeof(text), "%s%s%s%s", SM_MACHINE, low, low, MAIN);
  expect_code(text, "E6015", 1, "Topology::Dev has 2 lowerings for the edge L2 -> SMEM");
  /* Two machines implementing one edge is what the `for` clause is for. */
  expect_code(SM_MACHINE "Topology Hopper {\n  memory: Memory::L2,\n"
                         "  visible: [Memory::L2, Memory::SMEM],\n"
                         "  transfer Memory::L2 -> Memory::SMEM\n}\n"
                         "impl Transfer<Memory::L2, Memory::SMEM> for Topology::Hopper {\n" RAW_BODY
                         "}\n" LOWERING("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>", COPY_LOOP)
                             MAIN,
              "E6015", 0, NULL);
}

static void test_lowerings__a_host_edge_two_machines_lower_is_ambiguous_on_the_host(void **state) {
  (void)state;
  const char *machines =
      "Memory CPU_DRAM {}\n"
      "Memory HBM { within: Memory::CPU_DRAM, capacity: 40 GiB, bandwidth: 3 TB/s }\n"
      "Topology A {\n  memory: Memory::HBM,\n  visible: [Memory::HBM],\n"
      "  transfer Memory::CPU_DRAM -> Memory::HBM : 63 GB/s\n}\n"
      "Topology B {\n  memory: Memory::HBM,\n  visible: [Memory::HBM],\n"
      "  transfer Memory::CPU_DRAM -> Memory::HBM : 63 GB/s\n}\n";
#define HOST_LOWERING(T)                                                                           \
  "impl Transfer<Memory::CPU_DRAM, Memory::HBM> for Topology::" T " {\n" RAW_BODY "}\n"
#define HOST_SITE(REGION)                                                                          \
  "fn main() -> i32 {\n  let a = Tensor<f32, [4]>::new();\n" REGION "  return 0;\n}\n"
  char text[4096];
  snprintf(text, sizeof(text), "%s%s%s%s", machines, HOST_LOWERING("A"), HOST_LOWERING("B"),
           HOST_SITE("  let ad = transfer(a, Memory::HBM);\n"));
  expect_code(text, "E6015", 1, "none of them is the topology in force here (CPU)");
  /* Inside a region on A, A's lowering is the one. */
  snprintf(text, sizeof(text), "%s%s%s%s", machines, HOST_LOWERING("A"), HOST_LOWERING("B"),
           HOST_SITE("  spawn on(Topology::A) {\n    let ad = transfer(a, Memory::HBM);\n  }\n"));
  expect_code(text, "E6015", 0, NULL);
  /* One lowering of a host edge is taken from the host. */
  snprintf(text, sizeof(text), "%s%s%s", machines, HOST_LOWERING("A"),
           HOST_SITE("  let ad = transfer(a, Memory::HBM);\n"));
  expect_code(text, "E6015", 0, NULL);
}

static void test_lowerings__the_declared_tile_must_be_the_one_moved(void **state) {
  (void)state;
  /* Both parameters describe one tile. */
  expect_code(SM_MACHINE LOWERING("&Tensor<f32, [2, 2]>", "&mut Tensor<f32, [4, 4]>", COPY_LOOP)
                  SITE("Tensor<f32, [2, 2]>"),
              "E6023", 1, "declares a [2, 2] source and a [4, 4] destination");
  /* A [2, 2] lowering given a [4, 4] tile. */
  expect_code(SM_MACHINE LOWERING("&Tensor<f32, [2, 2]>", "&mut Tensor<f32, [2, 2]>", COPY_LOOP)
                  SITE("Tensor<f32, [4, 4]>"),
              "E6023", 1, "declared shape must be the shape it is given");
  /* f16 tiles declared, f32 moved. */
  expect_code(SM_MACHINE LOWERING("&Tensor<f16, [4]>", "&mut Tensor<f16, [4]>", COPY_LOOP)
                  SITE("Tensor<f32, [4]>"),
              "E6023", 1, "declares f16 tiles but this transfer moves a f32 tile");
  expect_code(SM_MACHINE LOWERING("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>", COPY_LOOP)
                  SITE("Tensor<f32, [4]>"),
              "E6023", 0, NULL);
}

/* main makes its tile with a constructor call, `Tensor<f32>(ARGS)`, as vxc's programs do. */
#define CTOR_SITE(ARGS)                                                                            \
  "fn main() -> i32 {\n  let n = 4;\n  let mut a = Tensor<f32>(" ARGS ");\n  a[0][0] = 1.0;\n"     \
  "  let ad = transfer(a, Memory::L2);\n"                                                          \
  "  spawn on(Topology::Dev) {\n    let t = transfer(ad, Memory::SMEM);\n  }\n"                    \
  "  return 0;\n}\n"

static test_run analyse_defined(const char *text, const char *define, uint64_t value);

/* The bytes of the tile `ad` and the W1029 count, analysed with `-D define=value`. */
static void expect_tile(const char *text, const char *define, uint64_t value, const char *bytes,
                        size_t w1029) {
  test_run r = analyse_defined(text, define, value);
  const char *json = vxp_analysis_json(r.an, NULL);
  assert_non_null(json);
  char want[128];
  snprintf(want, sizeof(want), "\"tile\": {\"space\": \"L2\", \"binding\": \"ad\", \"bytes\": %s}",
           bytes);
  if (!strstr(json, want)) fail_msg("no %s in %s", want, json);
  size_t n = test_count_diag(r.an, "W1029");
  if (n != w1029) fail_msg("W1029 x%zu, expected x%zu", n, w1029);
  test_done(&r);
}

#define CTOR_CONST_SITE(DECLS, ARGS)                                                               \
  DECLS SM_MACHINE "fn main() -> i32 {\n  let mut a = Tensor<f32>(" ARGS ");\n"                    \
                   "  let ad = transfer(a, Memory::L2);\n  return 0;\n}\n"

static void test_lowerings__a_constructor_given_const_dims_folds_them_per_analysis(void **state) {
  (void)state;
  /* `Tensor<f32>([N, N])` with a const item N is sized as `Tensor<f32, [N, N]>` would be:
   * by the analysis, with its constants, so -D resizes it. */
  const char *text = CTOR_CONST_SITE("const N: usize = 4;\n", "[N, N]");
  expect_tile(text, NULL, 0, "64", 0);
  expect_tile(text, "N", 8, "256", 0);
  expect_tile(CTOR_CONST_SITE("const N: usize = 4;\n", "[2 * N, N - 1]"), NULL, 0, "96", 0);
  /* vxc's own example: a const-generic N is monomorphized before the capacity check, so
   * stage<8192> needs 268435456 bytes (E6009 against L2's 40 MiB) and stage<64> fits. */
  const char *generic =
      SM_MACHINE "fn stage<const N: i32>() -> i32 {\n  let a = Tensor<f32>([N, N]);\n"
                 "  let va = transfer(a, Memory::L2);\n  return 0;\n}\n"
                 "fn main() -> i32 {\n  return stage<8192>();\n}\n";
  expect_code(generic, "E6009", 1, "268435456");
  expect_code(generic, "W1029", 0, NULL);
  /* A run-time name stays a run-time shape, even where it shadows a const item of the same
   * name (the `let n` of CTOR_SITE), and so does a parameter. */
  const char *shadowed = "const n: usize = 4;\n" SM_MACHINE LOWERING(
      "&Tensor<f32, [2, 2]>", "&mut Tensor<f32, [2, 2]>", COPY_LOOP) CTOR_SITE("[n, 4]");
  expect_code(shadowed, "VXP0044", 1, "no statically known shape");
  expect_code(shadowed, "W1029", 2, NULL);
  expect_code(SM_MACHINE "fn f(m: usize) -> i32 {\n  let mut a = Tensor<f32>([m]);\n"
                         "  let ad = transfer(a, Memory::L2);\n  return 0;\n}\n" MAIN,
              "W1029", 1, NULL);
}

static void test_lowerings__a_constructor_given_literal_dims_has_that_static_shape(void **state) {
  (void)state;
  /* `Tensor<f32>([4, 4])` is a [4, 4] tile: 64 bytes moved to L2, nothing left unverified. */
  const char *text = SM_MACHINE LOWERING("&Tensor<f32, [4, 4]>", "&mut Tensor<f32, [4, 4]>",
                                         COPY_LOOP) CTOR_SITE("[4, 4]");
  test_run r = test_analyse(text);
  assert_int_equal(test_count_diag(r.an, "W1029"), 0);
  assert_int_equal(test_count_diag(r.an, "E6023"), 0);
  const char *json = vxp_analysis_json(r.an, NULL);
  assert_non_null(json);
  assert_non_null(
      strstr(json, "\"tile\": {\"space\": \"L2\", \"binding\": \"ad\", \"bytes\": 64}"));
  test_done(&r);
  /* vxc's raw_lowering_shape_mismatch.vx, in a program of our own: a [2, 2] lowering given
   * the constructor's [4, 4] tile. */
  expect_code(SM_MACHINE LOWERING("&Tensor<f32, [2, 2]>", "&mut Tensor<f32, [2, 2]>", COPY_LOOP)
                  CTOR_SITE("[4, 4]"),
              "E6023", 1, "declares [2, 2] tiles but this transfer moves a [4, 4] tile");
  /* A dimension held in a variable is known when the program runs: still no static shape,
   * so nothing relates it to the declared tile (VXP0044) and the capacity is unverified. */
  const char *dynamic = SM_MACHINE LOWERING("&Tensor<f32, [2, 2]>", "&mut Tensor<f32, [2, 2]>",
                                            COPY_LOOP) CTOR_SITE("[n, 4]");
  expect_code(dynamic, "E6023", 0, NULL);
  expect_code(dynamic, "VXP0044", 1, "no statically known shape");
  expect_code(dynamic, "W1029", 2, NULL);
}

static void
test_lowerings__a_lowering_that_cannot_be_emitted_leaves_the_builtin_copy(void **state) {
  (void)state;
  /* The destination is not `scope: sm`: vxc warns and moves the hop with the builtin copy. */
  const char *text =
      "Memory CPU_DRAM {}\n"
      "Memory L2 { within: Memory::CPU_DRAM, capacity: 40 MiB, bandwidth: 3 TB/s }\n"
      "Memory SMEM { within: Memory::L2, capacity: 228 KiB, bandwidth: 128 B/cyc }\n"
      "Topology Dev {\n  memory: Memory::L2,\n  visible: [Memory::L2, Memory::SMEM],\n"
      "  transfer Memory::CPU_DRAM -> Memory::L2 : 10 GB/s,\n"
      "  transfer Memory::L2 -> Memory::SMEM\n}\n" LOWERING(
          "&Tensor<f32, [2]>", "&mut Tensor<f32, [2]>", COPY_LOOP) SITE("Tensor<f32, [4]>");
  expect_code(text, "VXP0044", 1, "(this one is not)");
  expect_code(text, "E6023", 0, NULL); /* not emitted, so nothing to compare */
  test_run r = test_analyse(text);
  const char *json = vxp_analysis_json(r.an, NULL);
  assert_non_null(json);
  assert_null(strstr(json, "lowering_body"));
  test_done(&r);
}

/* Analyse `text` with `-D define=value` when `define` is given. */
static test_run analyse_defined(const char *text, const char *define, uint64_t value) {
  test_run r;
  memset(&r, 0, sizeof(r));
  r.ctx = test_context();
  assert_int_equal(vxp_source_new(&r.src, r.ctx, "test.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse(&r.prog, r.ctx, r.src), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  vxp_const_override ov = {define, value};
  if (define) {
    opts.overrides = &ov;
    opts.override_count = 1;
  }
  assert_int_equal(vxp_analyze(&r.an, r.ctx, r.prog, &opts), VXP_OK);
  return r;
}

/* The JSON route of the L2 -> SMEM hop, analysed with `-D define=value` when `define` is
 * given. */
static void expect_traffic_with(const char *text, const char *define, uint64_t value,
                                const char *route_part) {
  test_run r = analyse_defined(text, define, value);
  const char *json = vxp_analysis_json(r.an, NULL);
  assert_non_null(json);
  const char *hop = strstr(json, "{\"path\": [\"L2\", \"SMEM\"]");
  if (!hop) fail_msg("no L2 -> SMEM route in %s", json);
  const char *end = strchr(hop, '\n');
  if (!strstr(hop, route_part) || (end && strstr(hop, route_part) > end))
    fail_msg("the L2 -> SMEM route lacks %s: %.*s", route_part, end ? (int)(end - hop) : 400, hop);
  test_done(&r);
}

static void expect_traffic(const char *text, const char *route_part) {
  expect_traffic_with(text, NULL, 0, route_part);
}

static void test_lowerings__a_lowered_hop_counts_the_bodys_traffic(void **state) {
  (void)state;
  /* A body that reads the source twice per element reports twice the reads (16 x 2 x 4 B). */
  expect_traffic(SM_MACHINE LOWERING("&Tensor<f32, [4, 4]>", "&mut Tensor<f32, [4, 4]>",
                                     "    for i in 0..raw::extent(src) {\n"
                                     "      let x = raw::load(src, i);\n"
                                     "      raw::store(dst, i, raw::load(src, i));\n    }\n")
                     SITE("Tensor<f32, [4, 4]>"),
                 "\"traffic\": [{\"space\": \"L2\", \"read_bytes\": 128, \"written_bytes\": 0}, "
                 "{\"space\": \"SMEM\", \"read_bytes\": 0, \"written_bytes\": 64}], "
                 "\"traffic_source\": \"lowering_body\", \"traffic_exact\": true");
  /* Branches that move different amounts count the larger, and say it is not exact. */
  expect_traffic(SM_MACHINE LOWERING("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
                                     "    if raw::lane() == 0 {\n" COPY_LOOP "    }\n")
                     SITE("Tensor<f32, [4]>"),
                 "\"read_bytes\": 16, \"written_bytes\": 0}, {\"space\": \"SMEM\", "
                 "\"read_bytes\": 0, \"written_bytes\": 16}], \"traffic_source\": "
                 "\"lowering_body\", \"traffic_exact\": false");
  /* An unbounded loop makes the count a guess: a reason, never a number. */
  expect_traffic(SM_MACHINE LOWERING("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
                                     "    loop {\n      raw::store(dst, 0, raw::load(src, 0));\n"
                                     "      break;\n    }\n") SITE("Tensor<f32, [4]>"),
                 "\"traffic\": null, \"traffic_source\": null, \"traffic_exact\": null, "
                 "\"traffic_absent_reason\": \"an unbounded `loop` runs an unknown number of "
                 "times\"");
}

/* The traffic of a 4-element f32 hop whose body moves READ and WRITTEN elements. */
#define TRAFFIC(READ, WRITTEN, EXACT)                                                              \
  "\"traffic\": [{\"space\": \"L2\", \"read_bytes\": " READ ", \"written_bytes\": 0}, "            \
  "{\"space\": \"SMEM\", \"read_bytes\": 0, \"written_bytes\": " WRITTEN "}], "                    \
  "\"traffic_source\": \"lowering_body\", \"traffic_exact\": " EXACT

static void
test_lowerings__a_const_loop_bound_is_counted_with_the_analysis_constants(void **state) {
  (void)state;
  /* vxc folds a `for` bound that names a const item: N = 4 elements each way, 16 B. */
  const char *text = "const N: usize = 4;\n" SM_MACHINE LOWERING(
      "&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
      "    for i in 0..N {\n      raw::store(dst, i, raw::load(src, i));\n    }\n")
      SITE("Tensor<f32, [4]>");
  expect_traffic(text, TRAFFIC("16", "16", "true"));
  /* -D changes the constant per analysis, and the count follows it (never the parse's). */
  expect_traffic_with(text, "N", 2, TRAFFIC("8", "8", "true"));
  expect_traffic_with(text, "N", 0, TRAFFIC("0", "0", "true"));
  /* A bound computed from const items folds the same way: 1..(2 * M) is 3 trips. */
  expect_traffic(
      "const M: usize = 2;\n" SM_MACHINE LOWERING(
          "&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
          "    for i in 1..(2 * M) {\n      raw::store(dst, i, raw::load(src, i));\n    }\n")
          SITE("Tensor<f32, [4]>"),
      TRAFFIC("12", "12", "true"));
  /* A `let` of the same name inside the lowering is a run-time value there, not the const
   * item it shadows: a reason, never the const's figure. */
  expect_traffic("const N: usize = 4;\n" SM_MACHINE LOWERING(
                     "&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
                     "    let N = raw::lane();\n    for i in 0..N {\n"
                     "      raw::store(dst, i, raw::load(src, i));\n    }\n")
                     SITE("Tensor<f32, [4]>"),
                 "\"traffic_absent_reason\": \"a loop bound is not statically known");
}

static void test_lowerings__if_comptime_on_a_const_counts_only_the_arm_it_selects(void **state) {
  (void)state;
  /* Only the selected arm is emitted, so the figure is exact and is that arm's alone. */
  const char *text = "const WIDE: usize = 4;\n" SM_MACHINE LOWERING(
      "&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
      "    if comptime WIDE > 2 {\n" COPY_LOOP "    } else {\n"
      "      raw::store(dst, 0, raw::load(src, 0));\n    }\n") SITE("Tensor<f32, [4]>");
  expect_traffic(text, TRAFFIC("16", "16", "true"));
  expect_traffic_with(text, "WIDE", 1, TRAFFIC("4", "4", "true"));
  /* A discarded arm's uncountable loop does not make the count a guess. */
  const char *pruned = "const FAST: bool = true;\n" SM_MACHINE LOWERING(
      "&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
      "    if comptime FAST {\n" COPY_LOOP "    } else {\n"
      "      loop {\n        raw::store(dst, 0, raw::load(src, 0));\n      }\n    }\n")
      SITE("Tensor<f32, [4]>");
  expect_traffic(pruned, TRAFFIC("16", "16", "true"));
  /* ... until -D selects it. */
  expect_traffic_with(pruned, "FAST", 0,
                      "\"traffic_absent_reason\": \"an unbounded `loop` runs an unknown number");
  /* A condition that does not fold is weighed as a run-time branch: the larger arm, not
   * exact. */
  expect_traffic(SM_MACHINE LOWERING("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
                                     "    if comptime UNDECLARED > 2 {\n" COPY_LOOP "    }\n")
                     SITE("Tensor<f32, [4]>"),
                 TRAFFIC("16", "16", "false"));
}

/* ------------------------------------------------------------------ E6018
 * vxc's bounds obligation (`0 <= index < extent` for every tile a primitive touches), in
 * the part decidable without a solver: constant lets and `for` ranges (raw.rs's
 * raw_bounds_obligation, in programs of our own). */

#define BOUNDS(SRC, DST, BODY)                                                                     \
  SM_MACHINE LOWERING(SRC, DST, BODY)                                                              \
  MAIN

static void test_lowerings__an_index_outside_the_tile_is_e6018(void **state) {
  (void)state;
  /* A constant index past the extent, on both the load and the store. */
  expect_code(BOUNDS("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
                     "    let i = 7;\n    raw::store(dst, i, raw::load(src, i));\n"),
              "E6018", 2, "stays inside `src` (needs 0 <= index < 4; it can be 7)");
  /* The shadowing `let` is the binding in force: 9, not 1. */
  expect_code(BOUNDS("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
                     "    let i = 1;\n    let i = 9;\n    raw::store(dst, i, 1.0);\n"),
              "E6018", 1, "it can be 9");
  /* A loop that runs past the extent. */
  expect_code(BOUNDS("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
                     "    for i in 0..8 {\n      raw::store(dst, i, 1.0);\n    }\n"),
              "E6018", 1, "it can be 7");
  /* The loop over the extent is proven, and so is i + 1 over one less. */
  expect_code(BOUNDS("&Tensor<f32, [2, 2]>", "&mut Tensor<f32, [2, 2]>",
                     "    for i in 0..raw::extent(src) {\n"
                     "      raw::store(dst, i, raw::load(src, i));\n    }\n"
                     "    for j in 0..3 {\n      raw::store(dst, j + 1, 2.0);\n    }\n"),
              "E6018", 0, NULL);
  expect_code(BOUNDS("&Tensor<f32, [2, 2]>", "&mut Tensor<f32, [2, 2]>",
                     "    for i in 0..raw::extent(src) {\n"
                     "      raw::store(dst, i, raw::load(src, i));\n    }\n"),
              "VXP0045", 0, NULL);
}

static void test_lowerings__a_tile_of_no_static_extent_is_e6018(void **state) {
  (void)state;
  expect_code("const N: i32 = 4;\n" BOUNDS("&Tensor<f32, [N]>", "&mut Tensor<f32, [N]>",
                                           "    raw::store(dst, 0, raw::load(src, 0));\n"),
              "E6018", 2, "the extent of `src` is not static");
}

static void test_lowerings__bounds_vxpeak_cannot_decide_are_a_warning(void **state) {
  (void)state;
  /* A run-time index: vxc's solver may or may not prove it; vxpeak says it cannot tell. */
  const char *lane = BOUNDS("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
                            "    raw::store(dst, raw::lane(), 0.5);\n");
  expect_code(lane, "E6018", 0, NULL);
  expect_code(lane, "VXP0045", 1, "vxpeak cannot decide");
  /* A loop invariant is a fact vxc's prover may use and this walk does not model: a loop
   * that would otherwise be refuted is undecided. */
  const char *invariant = BOUNDS("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
                                 "    for i in 0..8 invariant(i < 4) {\n"
                                 "      raw::store(dst, i, 1.0);\n    }\n");
  expect_code(invariant, "E6018", 0, NULL);
  expect_code(invariant, "VXP0045", 1, "vxpeak cannot decide");
  /* Under an `if`, vxc may hold the condition as a fact. */
  expect_code(BOUNDS("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
                     "    for i in 0..8 {\n      if i < 4 {\n        raw::store(dst, i, 1.0);\n"
                     "      }\n    }\n"),
              "E6018", 0, NULL);
  /* In `unsafe`, the obligation is asserted, not proven (vxc warns). */
  expect_code(BOUNDS("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
                     "    unsafe { raw::store(dst, 9, 0.5); }\n"),
              "VXP0045", 1, "asserted, not proven (unsafe)");
}

static void test_lowerings__a_let_that_rebinds_a_parameter_is_followed(void **state) {
  (void)state;
  /* `dst` rebound to the read-only source: the store writes through `&`. */
  expect_code(BOUNDS("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
                     "    let dst = src;\n    raw::store(dst, 0, 1.0);\n"),
              "E6017", 1, "which the `let` before it rebinds to `src`");
  /* `src` rebound to a number is no tile. */
  expect_code(BOUNDS("&Tensor<f32, [4]>", "&mut Tensor<f32, [4]>",
                     "    let src = 3;\n    raw::store(dst, 0, raw::load(src, 0));\n"),
              "E6017", 1, "`src` is not a tile here");
  /* Rebound to the other parameter, its extent is the one checked. */
  expect_code(BOUNDS("&Tensor<f32, [8]>", "&mut Tensor<f32, [4]>",
                     "    let src = dst;\n    raw::store(dst, 0, raw::load(src, 6));\n"),
              "E6018", 1, "stays inside `src` (needs 0 <= index < 4; it can be 6)");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lowerings__a_topology_must_see_both_ends_of_the_edge_it_lowers),
      cmocka_unit_test(test_lowerings__host_memory_needs_no_visibility),
      cmocka_unit_test(test_lowerings__a_lowering_for_an_edge_its_topology_lacks_is_refused),
      cmocka_unit_test(test_lowerings__a_body_without_primitives_is_not_held_to_the_contract),
      cmocka_unit_test(test_lowerings__a_lowering_must_name_a_declared_topology),
      cmocka_unit_test(test_lowerings__a_lowering_has_one_function_none_generic),
      cmocka_unit_test(test_lowerings__one_lowering_per_edge_and_machine),
      cmocka_unit_test(test_lowerings__a_host_edge_two_machines_lower_is_ambiguous_on_the_host),
      cmocka_unit_test(test_lowerings__the_declared_tile_must_be_the_one_moved),
      cmocka_unit_test(test_lowerings__a_constructor_given_literal_dims_has_that_static_shape),
      cmocka_unit_test(test_lowerings__a_constructor_given_const_dims_folds_them_per_analysis),
      cmocka_unit_test(test_lowerings__a_lowering_that_cannot_be_emitted_leaves_the_builtin_copy),
      cmocka_unit_test(test_lowerings__a_lowered_hop_counts_the_bodys_traffic),
      cmocka_unit_test(test_lowerings__an_index_outside_the_tile_is_e6018),
      cmocka_unit_test(test_lowerings__a_tile_of_no_static_extent_is_e6018),
      cmocka_unit_test(test_lowerings__bounds_vxpeak_cannot_decide_are_a_warning),
      cmocka_unit_test(test_lowerings__a_let_that_rebinds_a_parameter_is_followed),
      cmocka_unit_test(test_lowerings__a_const_loop_bound_is_counted_with_the_analysis_constants),
      cmocka_unit_test(test_lowerings__if_comptime_on_a_const_counts_only_the_arm_it_selects),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
