/* SPDX-License-Identifier: Apache-2.0 */
/* test_roofline.c - the bytes one call's spawn regions move and what they cost
 * (lib/roofline.c): the Llama decode step to the byte, loops, slices, alternatives, the
 * cases that make the count unknown, and streaming from the host. */

#include "analysis_data.h"
#include "context.h"
#include "program.h"
#include "strtab.h"
#include "support.h"

static vxp_roofline *roofline(vxp_context *ctx, const vxp_analysis *an, const char *fn) {
  vxp_roofline *rf = NULL;
  assert_int_equal(vxp_roofline_new(&rf, ctx, an, fn), VXP_OK);
  return rf;
}

static size_t space_index(const vxp_roofline *rf, const char *name) {
  for (size_t i = 0; i < vxp_roofline_space_count(rf); i++)
    if (strcmp(vxp_roofline_space_name(rf, i), name) == 0) return i;
  fail_msg("no space %s in the roofline", name);
  return 0;
}

static void test_roofline__the_llama_decode_step_reads_13_48_gb_in_8_67_ms(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  vxp_machine *machine = NULL, *host = NULL;
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_source_load_file(&src, ctx, "examples/llama2/prefill.vx"), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&machine, ctx, "a100-40"), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&host, ctx, "host-default"), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = machine;
  opts.host = host;
  assert_int_equal(vxp_analyze(&an, ctx, prog, &opts), VXP_OK);
  vxp_roofline *rf = roofline(ctx, an, "decode_step");
  assert_string_equal(vxp_roofline_function(rf), "decode_step");
  assert_int_equal(vxp_roofline_region_count(rf), 1);
  assert_int_equal(vxp_roofline_traffic(rf), VXP_CERTAINTY_EXACT);
  assert_null(vxp_roofline_reason(rf));
  assert_int_equal(vxp_roofline_space_count(rf), 1);
  assert_string_equal(vxp_roofline_space_name(rf, 0), "HBM");
  /* 32 layers x 404,750,336 + 2 x 262,144,000: every weight and embedding once. */
  assert_int_equal(vxp_roofline_space_read_bytes(rf, 0), 13476298752ull);
  assert_int_equal(vxp_roofline_space_written_bytes(rf, 0), 0);
  uint64_t bw = 0, ps = 0;
  assert_true(vxp_roofline_space_bandwidth(rf, 0, &bw));
  assert_int_equal(bw, 1555000000000ull);
  assert_true(vxp_roofline_time_ps(rf, &ps));
  /* ceil(13,476,298,752 x 10^12 / 1555 x 10^9) */
  assert_int_equal(ps, 8666430066ull);
  assert_string_equal(vxp_roofline_bound_space(rf), "HBM");
  assert_int_equal((uint64_t)(1e12 / (double)ps), 115);
  assert_int_equal(vxp_roofline_buffer_count(rf), 34);
  assert_string_equal(vxp_roofline_buffer_name(rf, 0), "embed");
  assert_int_equal(vxp_roofline_buffer_read_bytes(rf, 0), 262144000ull);
  /* Streaming the 32 layers over the 31.5 GB/s host link instead. */
  assert_int_equal(vxp_roofline_streamed_count(rf), 32);
  assert_string_equal(vxp_record_binding(vxp_roofline_streamed_record(rf, 0)), "w0");
  uint64_t one = 0, stream = 0;
  assert_true(vxp_roofline_streamed_cost_ps(rf, 31, &one));
  assert_int_equal(one, 12849217016ull);
  assert_int_equal(vxp_roofline_stream_bytes(rf), 32ull * 404750336ull);
  assert_true(vxp_roofline_stream_time_ps(rf, &stream));
  assert_int_equal(stream, 32ull * 12849217016ull); /* 411 ms */
  assert_int_equal((int)((double)stream / (double)ps), 47);
  vxp_roofline_free(rf);
  assert_int_equal(vxp_roofline_new(&rf, ctx, an, "no_such_function"), VXP_ENOTFOUND);
  assert_int_equal(vxp_roofline_new(&rf, ctx, an, NULL), VXP_EINVAL);
  vxp_roofline_free(NULL);
  vxp_analysis_free(an);
  vxp_machine_free(host);
  vxp_machine_free(machine);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

#define MACHINE_BW                                                                                 \
  "Memory CPU_DRAM {}\n"                                                                           \
  "Memory W { within: Memory::CPU_DRAM, capacity: 64 MiB, bandwidth: 1000 GB/s, managed: "         \
  "explicit }\n"                                                                                   \
  "Topology Dev { arch: nvptx64, memory: Memory::W, visible: [Memory::W],\n"                       \
  "  transfer Memory::CPU_DRAM -> Memory::W : 10 GB/s }\n"

/* `count` functions, each streaming one tile of 16 bytes from the host and reading it. */
static char *streaming_functions(size_t count) {
  static const char fn[] = "fn f%zu() -> i32 {\n"
                           "  let w = transfer(Tensor<f32, [4]>::uninit(), Memory::W);\n"
                           "  spawn on(Topology::Dev) { let a = w[0]; }\n"
                           "  return 0;\n"
                           "}\n";
  size_t cap = sizeof(MACHINE_BW) + count * (sizeof(fn) + 20), len = 0;
  char *text = malloc(cap);
  assert_non_null(text);
  len += (size_t)snprintf(text, cap, "%s", MACHINE_BW);
  for (size_t i = 0; i < count; i++)
    len += (size_t)snprintf(text + len, cap - len, fn, i);
  return text;
}

/* The roofline of one function reads that function's records and routes, not every one of
 * the analysis (a scan of all records, and of all routes per record read, made the roofline
 * of each of 10^5 functions quadratic). Its work, counted by the polls for cancellation
 * (one per event walked and per record of the function; a time budget makes them counted),
 * is the same in a program of 3000 such functions as in one of 50: the old scan polled
 * every record of the analysis. */
static void test_roofline__one_function_reads_its_own_records_and_routes(void **state) {
  (void)state;
  uint32_t polls = 0;
  for (size_t p = 0; p < 2; p++) {
    size_t count = p == 0 ? 50 : 3000;
    char *text = streaming_functions(count);
    test_run r = test_analyse(text);
    free(text);
    vxp_context_set_time_budget(r.ctx, 3600ull * 1000000ull);
    const size_t which[] = {0, count / 2, count - 1};
    for (size_t k = 0; k < 3; k++) {
      char name[32];
      snprintf(name, sizeof(name), "f%zu", which[k]);
      vxp_roofline *rf = roofline(r.ctx, r.an, name);
      assert_int_equal(vxp_roofline_streamed_count(rf), 1);
      assert_string_equal(vxp_record_function(vxp_roofline_streamed_record(rf, 0)), name);
      assert_int_equal(vxp_roofline_stream_bytes(rf), 16);
      uint64_t cost = 0;
      assert_true(vxp_roofline_streamed_cost_ps(rf, 0, &cost));
      assert_int_equal(cost, 1600); /* 16 bytes at 10 GB/s */
      if (polls == 0) polls = r.ctx->polls;
      assert_true(polls > 0);
      assert_int_equal(r.ctx->polls, polls);
      vxp_roofline_free(rf);
    }
    test_done(&r);
  }
}

/* `main` calls `last` `calls` times outside any region, then `fillers` functions, then `last`
 * with a region of its own (or none). */
static char *calling_last(size_t calls, size_t fillers, bool last_spawns) {
  size_t cap = sizeof(MACHINE_BW) + 200 + calls * 24 + fillers * 48, len = 0;
  char *text = malloc(cap);
  assert_non_null(text);
  len += (size_t)snprintf(text + len, cap - len, "%sfn main() -> i32 {\n", MACHINE_BW);
  for (size_t i = 0; i < calls; i++)
    len += (size_t)snprintf(text + len, cap - len, "  let x%zu = last();\n", i);
  len += (size_t)snprintf(text + len, cap - len, "  return 0;\n}\n");
  for (size_t i = 0; i < fillers; i++)
    len += (size_t)snprintf(text + len, cap - len, "fn g%zu() -> i32 { return 0; }\n", i);
  snprintf(text + len, cap - len,
           "fn last() -> i32 {\n"
           "  let w = transfer(Tensor<f32, [4]>::uninit(), Memory::W);\n"
           "  %s\n"
           "  return 0;\n"
           "}\n",
           last_spawns ? "spawn on(Topology::Dev) { let a = w[0]; }" : "let a = w[0];");
  return text;
}

/* Whether the analysis' index marks name `n` as a function with spawn regions. */
static bool marked_spawning(const vxp_analysis *an, vxp_name n) {
  return n / 8 < an->spawning_names.len && (an->spawning_names.items[n / 8] >> (n % 8) & 1);
}

/* A call to a function with spawn regions of its own makes the traffic unknown (the roofline
 * counts one function's regions); a call to one without does not. The roofline reads that
 * from one bit of the analysis' index instead of scanning every function per call (2000
 * calls among 20000 functions took tens of milliseconds of CPU, against well under one among
 * 50): the index marks exactly the names of functions with spawn regions. */
static void test_roofline__a_callee_with_regions_is_found_without_a_scan(void **state) {
  (void)state;
  for (int spawns = 0; spawns < 2; spawns++) {
    char *text = calling_last(3, 20, spawns);
    test_run r = test_analyse(text);
    free(text);
    vxp_roofline *rf = roofline(r.ctx, r.an, "main");
    if (spawns) {
      assert_int_equal(vxp_roofline_traffic(rf), VXP_CERTAINTY_UNKNOWN);
      assert_non_null(
          strstr(vxp_roofline_reason(rf), "a call to 'last', which has spawn regions of its own"));
    } else {
      assert_null(vxp_roofline_reason(rf));
    }
    vxp_roofline_free(rf);
    const vxp_strtab *names = &r.prog->model.names;
    vxp_name last = vxp_strtab__find(names, "last", 4);
    assert_int_not_equal(last, VXP_NAME_NONE);
    size_t marked = 0;
    for (vxp_name n = 0; n < names->strings.len; n++)
      marked += marked_spawning(r.an, n);
    assert_int_equal(marked, (size_t)spawns);
    assert_int_equal(marked_spawning(r.an, last), spawns);
    test_done(&r);
  }
}

static void test_roofline__loops_multiply_slices_count_their_elements_writes_count(void **state) {
  (void)state;
  test_run r =
      test_analyse(MACHINE_BW "fn main() -> i32 {\n"
                              "  let a = transfer(Tensor<f32, [64, 128]>::uninit(), Memory::W);\n"
                              "  let b = transfer(Tensor<f16, [8, 16]>::uninit(), Memory::W);\n"
                              "  spawn on(Topology::Dev) {\n"
                              "    for i in 0..64 {\n"
                              "      for j in 2..10 {\n"
                              "        a[i][j] = a[i][j] + 1;\n" /* 64 x 8 x (4 read + 4 written) */
                              "      }\n"
                              "      b[0] += 1;\n" /* a row of 16 f16: 32 bytes, read and written */
                              "    }\n"
                              "  }\n"
                              "  return 0;\n"
                              "}\n");
  vxp_roofline *rf = roofline(r.ctx, r.an, "main");
  assert_int_equal(vxp_roofline_traffic(rf), VXP_CERTAINTY_EXACT);
  size_t w = space_index(rf, "W");
  assert_int_equal(vxp_roofline_space_read_bytes(rf, w), 64 * 8 * 4 + 64 * 32);
  assert_int_equal(vxp_roofline_space_written_bytes(rf, w), 64 * 8 * 4 + 64 * 32);
  uint64_t ps = 0;
  assert_true(vxp_roofline_time_ps(rf, &ps));
  assert_int_equal(ps, 2 * (64 * 8 * 4 + 64 * 32)); /* 1 ps per byte at 1000 GB/s */
  assert_int_equal(vxp_roofline_streamed_count(rf), 2);
  vxp_roofline_free(rf);
  test_done(&r);
}

static void test_roofline__alternatives_count_their_largest_arm_as_an_upper_bound(void **state) {
  (void)state;
  test_run r = test_analyse(
      MACHINE_BW "const FAST : i64 = 1;\n"
                 "fn main() -> i32 {\n"
                 "  let a = transfer(Tensor<u8, [1024]>::uninit(), Memory::W);\n"
                 "  let k = 3;\n"
                 "  spawn on(Topology::Dev) {\n"
                 "    if k > 2 { for i in 0..100 { a[i] = 1; } } else { a[0] = 1; }\n"
                 "    match k { 0 => { a[1] = a[2]; }, _ => { a[3] = 1; } }\n"
                 "    if comptime FAST == 1 { a[4] = 1; } else { for i in 0..500 { a[i] = 2; } }\n"
                 "  }\n"
                 "  return 0;\n"
                 "}\n");
  vxp_roofline *rf = roofline(r.ctx, r.an, "main");
  assert_int_equal(vxp_roofline_traffic(rf), VXP_CERTAINTY_UPPER_BOUND);
  size_t w = space_index(rf, "W");
  /* if/else: max(100, 1); match: max(1 read + 1 write, 1 write); comptime: the taken arm. */
  assert_int_equal(vxp_roofline_space_written_bytes(rf, w), 100 + 1 + 1);
  assert_int_equal(vxp_roofline_space_read_bytes(rf, w), 1);
  vxp_roofline_free(rf);
  test_done(&r);
}

/* The roofline reads the trip counts and `if comptime` arms the analysis decided, so the two
 * cannot disagree: a bound that goes negative (`K - 3` at K = 1) is 6 trips to both, and a
 * condition of -2 takes the then arm in both (an unsigned fold once said "does not fold"
 * and took the else arm). */
static void test_roofline__trip_counts_and_arms_are_the_analysis_decisions(void **state) {
  (void)state;
  test_run r = test_analyse(
      MACHINE_BW "const K : i64 = 1;\n"
                 "fn main() -> i32 {\n"
                 "  let a = transfer(Tensor<u8, [1024]>::uninit(), Memory::W);\n"
                 "  spawn on(Topology::Dev) {\n"
                 "    for i in (K - 3)..4 { a[i] = 1; }\n"
                 "    if comptime K - 3 { a[0] = 1; } else { for j in 0..500 { a[j] = 2; } }\n"
                 "  }\n"
                 "  for i in (K - 3)..4 {\n"
                 "    let t = transfer(Tensor<u8, [16]>::uninit(), Memory::W);\n"
                 "    print!(t);\n"
                 "  }\n"
                 "  return 0;\n"
                 "}\n");
  vxp_roofline *rf = roofline(r.ctx, r.an, "main");
  assert_int_equal(vxp_roofline_traffic(rf), VXP_CERTAINTY_EXACT);
  size_t w = space_index(rf, "W");
  assert_int_equal(vxp_roofline_space_written_bytes(rf, w), 6 + 1);
  /* The check side: the tile in the loop runs 6 times. */
  const vxp_resident_set *rs = test_resident(r.an, "main", "W");
  uint64_t allocated = 0;
  assert_true(vxp_resident_set_allocated_bytes(rs, &allocated));
  assert_int_equal(allocated, 1024 + 6 * 16);
  vxp_roofline_free(rf);
  test_done(&r);
}

static void test_roofline__what_cannot_be_counted_is_unknown_with_the_reason(void **state) {
  (void)state;
  static const struct {
    const char *body;
    const char *why;
  } cases[] = {
      {"loop { a[0] = 1; break; }", "line 8: a `loop` or `while`"},
      {"for i in 0..count { a[i] = 1; }", "trip count of a `for`"},
      {"a[0] = helper(1);", "a call inside a spawn region ('helper')"},
      {"c[0] = 1;", "where 'c' lives is not known"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char text[2048];
    snprintf(text, sizeof(text),
             MACHINE_BW "fn helper(x : i32) -> i32 { return x; }\n"
                        "fn main() -> i32 {\n"
                        "  let a = transfer(Tensor<u8, [64]>::uninit(), Memory::W);\n"
                        "  spawn on(Topology::Dev) { %s }\n"
                        "  return 0;\n"
                        "}\n",
             cases[i].body);
    test_run r = test_analyse(text);
    vxp_roofline *rf = roofline(r.ctx, r.an, "main");
    assert_int_equal(vxp_roofline_traffic(rf), VXP_CERTAINTY_UNKNOWN);
    if (!strstr(vxp_roofline_reason(rf), cases[i].why))
      fail_msg("%s: reason '%s' lacks '%s'", cases[i].body, vxp_roofline_reason(rf), cases[i].why);
    uint64_t ps;
    assert_false(vxp_roofline_time_ps(rf, &ps));
    vxp_roofline_free(rf);
    test_done(&r);
  }
  /* A function whose callee has regions of its own. */
  test_run r =
      test_analyse(MACHINE_BW "fn inner() -> i32 {\n"
                              "  let a = transfer(Tensor<u8, [64]>::uninit(), Memory::W);\n"
                              "  spawn on(Topology::Dev) { a[0] = 1; }\n"
                              "  return 0;\n"
                              "}\n"
                              "fn outer() -> i32 { return inner(); }\n");
  vxp_roofline *rf = roofline(r.ctx, r.an, "outer");
  assert_int_equal(vxp_roofline_traffic(rf), VXP_CERTAINTY_UNKNOWN);
  assert_non_null(strstr(vxp_roofline_reason(rf), "a call to 'inner', which has spawn regions"));
  assert_int_equal(vxp_roofline_region_count(rf), 0);
  vxp_roofline_free(rf);
  test_done(&r);
}

/* A machine with compute rates: 1000 GB/s, f16 at 100 TFLOP/s, f32 at 10 TFLOP/s. */
#define MACHINE_COMPUTE                                                                            \
  "Memory CPU_DRAM {}\n"                                                                           \
  "Memory W { within: Memory::CPU_DRAM, capacity: 64 MiB, bandwidth: 1000 GB/s, managed: "         \
  "explicit }\n"                                                                                   \
  "Topology Dev { arch: nvptx64, memory: Memory::W, visible: [Memory::W],\n"                       \
  "  // compute: f16 100 TFLOP/s\n"                                                                \
  "  // compute: f32 10 TFLOP/s\n"                                                                 \
  "  transfer Memory::CPU_DRAM -> Memory::W : 10 GB/s }\n"

static size_t op_index(const vxp_roofline *rf, const char *type) {
  for (size_t i = 0; i < vxp_roofline_op_type_count(rf); i++)
    if (strcmp(vxp_roofline_op_type(rf, i), type) == 0) return i;
  fail_msg("no operation type %s", type);
  return 0;
}

static void test_roofline__a_multiply_add_is_two_operations_by_element_type(void **state) {
  (void)state;
  /* y[b][n] += w[k][n] * x[b][k]: a multiply and an add per (b, k, n), in f16 (the tensors'
   * type); the index arithmetic (k + 1) and the loop bounds (2 * 8) are not counted. An f32
   * scalar add per b counts in f32. */
  test_run r = test_analyse(MACHINE_COMPUTE
                            "fn main() -> i32 {\n"
                            "  let w = transfer(Tensor<f16, [64, 32]>::uninit(), Memory::W);\n"
                            "  let x = transfer(Tensor<f16, [4, 65]>::uninit(), Memory::W);\n"
                            "  let y = transfer(Tensor<f16, [4, 32]>::uninit(), Memory::W);\n"
                            "  let mut s : f32 = 0.0;\n"
                            "  spawn on(Topology::Dev) {\n"
                            "    for b in 0..4 {\n"
                            "      for k in 0..2 * 32 {\n"
                            "        for n in 0..32 { y[b][n] += w[k][n] * x[b][k + 1]; }\n"
                            "      }\n"
                            "      s = s + 1.0;\n"
                            "    }\n"
                            "  }\n"
                            "  return 0;\n"
                            "}\n");
  vxp_roofline *rf = roofline(r.ctx, r.an, "main");
  assert_int_equal(vxp_roofline_ops_status(rf), VXP_CERTAINTY_EXACT);
  assert_null(vxp_roofline_ops_reason(rf));
  assert_string_equal(vxp_roofline_topology(rf), "Dev");
  assert_true(vxp_roofline_op_count(rf, op_index(rf, "f16")) == 2ull * 4 * 64 * 32);
  assert_true(vxp_roofline_op_count(rf, op_index(rf, "f32")) == 4);
  assert_true(vxp_roofline_total_ops(rf) == 2ull * 4 * 64 * 32 + 4);
  uint64_t peak = 0;
  assert_true(vxp_roofline_op_peak(rf, op_index(rf, "f16"), &peak));
  assert_true(peak == 100000000000000ull);
  /* 16,384 f16 at 10^14/s = 163.84 ps, rounded up to 164; 4 f32 at 10^13/s = 0.4 ps,
   * rounded up to 1. */
  uint64_t ps = 0;
  assert_true(vxp_roofline_compute_time_ps(rf, &ps));
  assert_true(ps == 164 + 1);
  vxp_roofline_free(rf);
  test_done(&r);
}

static void test_roofline__compulsory_traffic_counts_each_element_once(void **state) {
  (void)state;
  /* The weights read once per sequence (the batch loop inside the weight loop): no reuse
   * counts 4 x 4096 bytes, compulsory the tile's 4096 once. */
  test_run r = test_analyse(MACHINE_COMPUTE
                            "fn main() -> i32 {\n"
                            "  let w = transfer(Tensor<f16, [64, 32]>::uninit(), Memory::W);\n"
                            "  let x = transfer(Tensor<f16, [4, 64]>::uninit(), Memory::W);\n"
                            "  let mut acc : f32 = 0.0;\n"
                            "  spawn on(Topology::Dev) {\n"
                            "    for k in 0..64 { for n in 0..32 { for b in 0..4 {\n"
                            "      acc = acc + w[k][n] * x[b][k];\n"
                            "    } } }\n"
                            "  }\n"
                            "  return 0;\n"
                            "}\n");
  vxp_roofline *rf = roofline(r.ctx, r.an, "main");
  size_t wi = space_index(rf, "W");
  uint64_t written = 1;
  assert_true(vxp_roofline_space_bytes(rf, wi, VXP_TRAFFIC_NO_REUSE, &written) ==
              2ull * 2 * 64 * 32 * 4);
  assert_true(written == 0);
  /* w: 4096 bytes once; x: 512 bytes once. */
  assert_true(vxp_roofline_space_bytes(rf, wi, VXP_TRAFFIC_COMPULSORY, NULL) == 4096 + 512);
  uint64_t tile = 0;
  assert_true(vxp_roofline_buffer_tile_bytes(rf, 0, &tile));
  assert_true(tile == 4096);
  assert_true(vxp_roofline_buffer_bytes(rf, 0, VXP_TRAFFIC_COMPULSORY, NULL) == 4096);
  assert_true(vxp_roofline_buffer_bytes(rf, 0, VXP_TRAFFIC_NO_REUSE, NULL) == 4096ull * 4);
  /* Times: compulsory 4608 bytes at 10^12 B/s = 4,608 ps; no reuse 32,768 bytes = 32,768 ps;
   * compute 2 x 8192 f16 at 10^14 = 163.84 ps, 164: memory binds under both. */
  uint64_t mem = 0, call = 0;
  assert_true(vxp_roofline_memory_time_ps(rf, VXP_TRAFFIC_COMPULSORY, &mem));
  assert_true(mem == 4608);
  assert_true(vxp_roofline_memory_time_ps(rf, VXP_TRAFFIC_NO_REUSE, &mem));
  assert_true(mem == 32768);
  assert_string_equal(vxp_roofline_memory_bound_space(rf, VXP_TRAFFIC_COMPULSORY), "W");
  assert_int_equal(vxp_roofline_bound(rf, VXP_TRAFFIC_COMPULSORY), VXP_BOUND_MEMORY);
  assert_true(vxp_roofline_call_time_ps(rf, VXP_TRAFFIC_COMPULSORY, &call));
  assert_true(call == 4608);
  /* The original accessors keep the no-reuse figures. */
  assert_true(vxp_roofline_space_read_bytes(rf, wi) == 2ull * 2 * 64 * 32 * 4);
  vxp_roofline_free(rf);
  test_done(&r);
}

static vxp_roofline *batch_roofline(test_run *r, unsigned batch) {
  char text[2048];
  snprintf(text, sizeof(text),
           MACHINE_COMPUTE "const B : i64 = %u;\n"
                           "fn main() -> i32 {\n"
                           "  let w = transfer(Tensor<f16, [64, 1024]>::uninit(), Memory::W);\n"
                           "  let x = transfer(Tensor<f16, [B, 64]>::uninit(), Memory::W);\n"
                           "  let mut acc : f32 = 0.0;\n"
                           "  spawn on(Topology::Dev) {\n"
                           "    for k in 0..64 { for n in 0..1024 { for b in 0..B {\n"
                           "      acc = acc + w[k][n] * x[b][k];\n"
                           "    } } }\n"
                           "  }\n"
                           "  return 0;\n"
                           "}\n",
           batch);
  *r = test_analyse(text);
  return roofline(r->ctx, r->an, "main");
}

static void test_roofline__memory_binds_until_the_batch_passes_the_ridge(void **state) {
  (void)state;
  /* Ridge: 10^14 / 10^12 = 100 operations per byte. Batch 8: 2 x 65,536 x 8 = 1,048,576
   * operations (10,485.76 ps) against 131,072 + 8 x 128 bytes (132,096 ps): memory binds.
   * Batch 128: 16,777,216 operations (167,772.16 ps) against 131,072 + 16,384 bytes
   * (147,456 ps): compute binds. */
  test_run r;
  vxp_roofline *rf = batch_roofline(&r, 8);
  uint64_t ps = 0;
  assert_int_equal(vxp_roofline_bound(rf, VXP_TRAFFIC_COMPULSORY), VXP_BOUND_MEMORY);
  assert_true(vxp_roofline_call_time_ps(rf, VXP_TRAFFIC_COMPULSORY, &ps));
  assert_true(ps == 132096);
  uint64_t value = 0;
  assert_int_equal(vxp_analysis_const_value(r.an, "B", &value), VXP_OK);
  assert_true(value == 8);
  assert_int_equal(vxp_analysis_const_value(r.an, "NOPE", &value), VXP_ENOTFOUND);
  vxp_roofline_free(rf);
  test_done(&r);
  rf = batch_roofline(&r, 128);
  assert_int_equal(vxp_roofline_bound(rf, VXP_TRAFFIC_COMPULSORY), VXP_BOUND_COMPUTE);
  assert_true(vxp_roofline_call_time_ps(rf, VXP_TRAFFIC_COMPULSORY, &ps));
  assert_true(ps == 167773);
  /* With no reuse the weights count 128 times: memory again. */
  assert_int_equal(vxp_roofline_bound(rf, VXP_TRAFFIC_NO_REUSE), VXP_BOUND_MEMORY);
  vxp_roofline_free(rf);
  test_done(&r);
}

static void test_roofline__without_compute_rates_the_bound_is_not_named(void **state) {
  (void)state;
  static const struct {
    const char *body;
    const char *why;
  } cases[] = {
      /* No `// compute:` lines at all. */
      {"a[0] = a[1] + a[2];", "declares no compute rates"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char text[2048];
    snprintf(text, sizeof(text),
             MACHINE_BW "fn main() -> i32 {\n"
                        "  let a = transfer(Tensor<u8, [64]>::uninit(), Memory::W);\n"
                        "  spawn on(Topology::Dev) { %s }\n"
                        "  return 0;\n"
                        "}\n",
             cases[i].body);
    test_run r = test_analyse(text);
    vxp_roofline *rf = roofline(r.ctx, r.an, "main");
    assert_int_equal(vxp_roofline_ops_status(rf), VXP_CERTAINTY_EXACT);
    uint64_t ps = 0;
    assert_false(vxp_roofline_compute_time_ps(rf, &ps));
    assert_non_null(strstr(vxp_roofline_compute_reason(rf), cases[i].why));
    assert_int_equal(vxp_roofline_bound(rf, VXP_TRAFFIC_COMPULSORY), VXP_BOUND_NONE);
    assert_false(vxp_roofline_call_time_ps(rf, VXP_TRAFFIC_COMPULSORY, &ps));
    /* The memory time is still there. */
    assert_true(vxp_roofline_memory_time_ps(rf, VXP_TRAFFIC_COMPULSORY, &ps));
    vxp_roofline_free(rf);
    test_done(&r);
  }
  /* A type the topology has no rate for: u8 on a machine that rates f16 and f32. */
  test_run r =
      test_analyse(MACHINE_COMPUTE "fn main() -> i32 {\n"
                                   "  let a = transfer(Tensor<u8, [64]>::uninit(), Memory::W);\n"
                                   "  spawn on(Topology::Dev) { a[0] = a[1] + a[2]; }\n"
                                   "  return 0;\n"
                                   "}\n");
  vxp_roofline *rf = roofline(r.ctx, r.an, "main");
  assert_non_null(strstr(vxp_roofline_compute_reason(rf), "no compute rate for u8"));
  assert_int_equal(vxp_roofline_bound(rf, VXP_TRAFFIC_COMPULSORY), VXP_BOUND_NONE);
  vxp_roofline_free(rf);
  test_done(&r);
}

static void test_roofline__operations_that_cannot_be_counted_are_unknown(void **state) {
  (void)state;
  static const struct {
    const char *body;
    const char *why;
  } cases[] = {
      {"for i in 0..4 { a[i] = (i * i) as f32; }", "an operation whose element type is not known"},
      {"a[0] = a[1] * 2.0; let s = a + a;", "line 9: arithmetic on a slice"},
      {"let m = a @ a;", "a matrix product `@`"},
      {"if a[0] > 0.0 { a[1] = a[1] * a[1]; }", NULL}, /* an upper bound, not unknown */
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char text[2048];
    snprintf(text, sizeof(text),
             MACHINE_COMPUTE "fn main() -> i32 {\n"
                             "  let a = transfer(Tensor<f32, [64]>::uninit(), Memory::W);\n"
                             "  spawn on(Topology::Dev) { %s }\n"
                             "  return 0;\n"
                             "}\n",
             cases[i].body);
    test_run r = test_analyse(text);
    vxp_roofline *rf = roofline(r.ctx, r.an, "main");
    if (!cases[i].why) {
      assert_int_equal(vxp_roofline_ops_status(rf), VXP_CERTAINTY_UPPER_BOUND);
      assert_true(vxp_roofline_total_ops(rf) == 1);
    } else {
      assert_int_equal(vxp_roofline_ops_status(rf), VXP_CERTAINTY_UNKNOWN);
      if (!strstr(vxp_roofline_ops_reason(rf), cases[i].why))
        fail_msg("%s: reason '%s' lacks '%s'", cases[i].body, vxp_roofline_ops_reason(rf),
                 cases[i].why);
      assert_int_equal(vxp_roofline_bound(rf, VXP_TRAFFIC_COMPULSORY), VXP_BOUND_NONE);
    }
    vxp_roofline_free(rf);
    test_done(&r);
  }
}

/* The reasons are built in a growable buffer: a 600-character topology name is not cut (the
 * reason was a 512-byte array). */
static void test_roofline__a_reason_is_never_cut_short(void **state) {
  (void)state;
  char name[601];
  memset(name, 'T', 600);
  name[600] = '\0';
  char *text = malloc(4096);
  assert_non_null(text);
  snprintf(text, 4096,
           "Memory CPU_DRAM {}\n"
           "Memory W { within: Memory::CPU_DRAM, capacity: 64 MiB, bandwidth: 1000 GB/s, "
           "managed: explicit }\n"
           "Topology %s { arch: nvptx64, memory: Memory::W, visible: [Memory::W] }\n"
           "fn main() -> i32 {\n"
           "  let a = transfer(Tensor<u8, [64]>::uninit(), Memory::W);\n"
           "  spawn on(Topology::%s) { a[0] = a[1] + a[2]; }\n"
           "  return 0;\n"
           "}\n",
           name, name);
  test_run r = test_analyse(text);
  free(text);
  vxp_roofline *rf = roofline(r.ctx, r.an, "main");
  const char *why = vxp_roofline_compute_reason(rf);
  assert_non_null(why);
  assert_non_null(strstr(why, name));
  assert_non_null(strstr(why, "so the bound cannot be named"));
  assert_true(strlen(why) > 600);
  vxp_roofline_free(rf);
  test_done(&r);
}

static void test_roofline__closed_sets_are_enums_the_name_functions_spell(void **state) {
  (void)state;
  assert_string_equal(vxp_certainty_name(VXP_CERTAINTY_EXACT), "exact");
  assert_string_equal(vxp_certainty_name(VXP_CERTAINTY_UPPER_BOUND), "upper_bound");
  assert_string_equal(vxp_certainty_name(VXP_CERTAINTY_UNKNOWN), "unknown");
  assert_null(vxp_certainty_name((vxp_certainty)0));
  assert_null(vxp_bound_name(VXP_BOUND_NONE));
  assert_string_equal(vxp_bound_name(VXP_BOUND_MEMORY), "memory");
  assert_string_equal(vxp_bound_name(VXP_BOUND_COMPUTE), "compute");
  assert_null(vxp_bound_name((vxp_bound)7));
  assert_int_equal(vxp_roofline_traffic(NULL), 0);
  assert_int_equal(vxp_roofline_bound(NULL, VXP_TRAFFIC_COMPULSORY), VXP_BOUND_NONE);
}

/* The frontier's tokens per call is the value the analysis decided for the const item
 * (its signed fold, with -D overrides), not a fold of the roofline's own: `(1 - 3) * (1 - 3)`
 * is 4 to the analysis, and an unsigned fold refuses its negative intermediates. */
static void test_roofline__a_const_value_is_the_one_the_analysis_decided(void **state) {
  (void)state;
  test_run r = test_analyse("Memory CPU_DRAM {}\nMemory W { capacity: 4 MiB }\n"
                            "const T: i64 = (1 - 3) * (1 - 3);\n"
                            "const M: i64 = 0 - T;\n"
                            "fn main() -> i32 {\n"
                            "  for i in 0..T {\n"
                            "    let t = Tensor<f32, [4], Memory::W>::uninit();\n"
                            "    print!(t);\n  }\n  return 0;\n}\n");
  assert_true(vxp_analysis_admitted(r.an));
  /* The analysis runs the loop T = 4 times. */
  uint64_t runs = 0;
  assert_true(vxp_record_runs(vxp_analysis_record(r.an, 0), &runs));
  assert_true(runs == 4);
  uint64_t value = 0;
  assert_int_equal(vxp_analysis_const_value(r.an, "T", &value), VXP_OK);
  assert_true(value == 4);
  /* A negative value is refused, saying what it is. */
  assert_int_equal(vxp_analysis_const_value(r.an, "M", &value), VXP_ENOTFOUND);
  assert_non_null(strstr(vxp_context_errmsg(r.ctx), "const M is -4"));
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_roofline__a_const_value_is_the_one_the_analysis_decided),
      cmocka_unit_test(test_roofline__the_llama_decode_step_reads_13_48_gb_in_8_67_ms),
      cmocka_unit_test(test_roofline__loops_multiply_slices_count_their_elements_writes_count),
      cmocka_unit_test(test_roofline__one_function_reads_its_own_records_and_routes),
      cmocka_unit_test(test_roofline__a_callee_with_regions_is_found_without_a_scan),
      cmocka_unit_test(test_roofline__alternatives_count_their_largest_arm_as_an_upper_bound),
      cmocka_unit_test(test_roofline__trip_counts_and_arms_are_the_analysis_decisions),
      cmocka_unit_test(test_roofline__what_cannot_be_counted_is_unknown_with_the_reason),
      cmocka_unit_test(test_roofline__a_multiply_add_is_two_operations_by_element_type),
      cmocka_unit_test(test_roofline__compulsory_traffic_counts_each_element_once),
      cmocka_unit_test(test_roofline__memory_binds_until_the_batch_passes_the_ridge),
      cmocka_unit_test(test_roofline__without_compute_rates_the_bound_is_not_named),
      cmocka_unit_test(test_roofline__operations_that_cannot_be_counted_are_unknown),
      cmocka_unit_test(test_roofline__closed_sets_are_enums_the_name_functions_spell),
      cmocka_unit_test(test_roofline__a_reason_is_never_cut_short),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
