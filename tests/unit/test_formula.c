/* SPDX-License-Identifier: Apache-2.0 */
/* test_formula.c - each peak as an exact formula in named constants (lib/formula.c,
 * `--symbolic`): the Llama decode step's formula, the JSON terms, the maximum of
 * alternatives, each case that is no polynomial named with its reason, unknown names, and
 * the property: on generated programs the formula equals the analysis at random points. */
#include "support.h"

static vxp_formula *formula_of(vxp_analysis *an, const char *const *names, size_t n) {
  vxp_formula *f = NULL;
  int rc = vxp_formula_new(&f, an, names, n);
  if (rc != VXP_OK) fail_msg("vxp_formula_new: %d", rc);
  return f;
}

static test_run analyse_file(const char *path) {
  test_run r;
  memset(&r, 0, sizeof(r));
  r.ctx = test_context();
  assert_int_equal(vxp_source_load_file(&r.src, r.ctx, path), VXP_OK);
  assert_int_equal(vxp_program_parse(&r.prog, r.ctx, r.src), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&r.machine, r.ctx, "a100-40"), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&r.host, r.ctx, "host-default"), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = r.machine;
  opts.host = r.host;
  assert_int_equal(vxp_analyze(&r.an, r.ctx, r.prog, &opts), VXP_OK);
  return r;
}

static void decode_step_peak_is_weights_plus_kv_cache_times_batch_and_context(void **state) {
  (void)state;
  test_run r = analyse_file("examples/llama2/decode.vx");
  const char *names[] = {"BATCH", "CONTEXT"};
  vxp_formula *f = formula_of(r.an, names, 2);
  assert_int_equal(vxp_formula_set_count(f), 1);
  assert_true(vxp_formula_is_polynomial(f, 0));
  assert_null(vxp_formula_reason(f, 0));
  assert_string_equal(vxp_formula_text(f, 0),
                      "14,176,298,752 + 262,144 x BATCH + 524,288 x BATCH x CONTEXT");
  uint64_t at[2] = {13, 4096}, bytes = 0;
  assert_int_equal(vxp_formula_evaluate(f, 0, at, &bytes), VXP_OK);
  assert_true(bytes == 42096994048ull); /* the frontier's largest batch on an a100-40 */
  vxp_formula_free(f);
  test_done(&r);
}

static void json_lists_each_term_with_its_coefficient_and_constants(void **state) {
  (void)state;
  test_run r = analyse_file("examples/llama2/decode.vx");
  const char *names[] = {"CONTEXT", "BATCH"};
  vxp_formula *f = formula_of(r.an, names, 2);
  size_t len = 0;
  const char *json = vxp_formula_json(f, &len);
  assert_non_null(json);
  assert_non_null(strstr(json, "\"peak_formula\": [[{\"coefficient\": 14176298752, \"constants\": "
                               "[]}, {\"coefficient\": 262144, \"constants\": [\"BATCH\"]}, "
                               "{\"coefficient\": 524288, \"constants\": [\"CONTEXT\", "
                               "\"BATCH\"]}]]"));
  test_sink sink = {0};
  assert_int_equal(vxp_analysis_json_write_symbolic(r.an, f, test_sink_write, &sink), VXP_OK);
  assert_non_null(strstr(sink.text, "\"record_count\": 6, \"peak_formula\": [["));
  free(sink.text);
  vxp_formula_free(f);
  test_done(&r);
}

static const char *const N_ONLY[] = {"N"};

/* Text of set 0 for `text` in N, or its reason when it has none. */
static char *formula_text(const char *text, bool *polynomial) {
  test_run r = test_analyse(text);
  if (vxp_analysis_error_count(r.an)) fail_msg("the program has errors");
  vxp_formula *f = formula_of(r.an, N_ONLY, 1);
  *polynomial = vxp_formula_is_polynomial(f, 0);
  const char *s = *polynomial ? vxp_formula_text(f, 0) : vxp_formula_reason(f, 0);
  char *copy = strdup(s);
  vxp_formula_free(f);
  test_done(&r);
  return copy;
}

/* Five lines, so that the programs below start at line 6. */
#define MACHINE                                                                                    \
  "Memory CPU_DRAM {}\n"                                                                           \
  "Memory HBM { within: Memory::CPU_DRAM, capacity: 1 GiB, managed: explicit }\n"                  \
  "Topology Device { arch: nvptx64, memory: Memory::HBM, visible: [Memory::HBM],\n"                \
  "  transfer Memory::CPU_DRAM -> Memory::HBM : 10\n"                                              \
  "  transfer Memory::HBM -> Memory::CPU_DRAM : 10 }\n"

static void tiles_freed_by_an_if_arm_make_a_maximum_of_alternatives(void **state) {
  (void)state;
  bool poly;
  char *s = formula_text(MACHINE "const N : i64 = 10;\n"
                                 "fn main() -> i32 {\n"
                                 "  let x : i32 = 3;\n"
                                 "  let a = transfer(Tensor<f32, [N, N]>::new(), Memory::HBM);\n"
                                 "  spawn on(Topology::Device) { let s = a[0][0]; }\n"
                                 "  if x > 2 {\n"
                                 "    let b = transfer(Tensor<u8, [1000]>::new(), Memory::HBM);\n"
                                 "    spawn on(Topology::Device) { let s = b[0]; }\n"
                                 "  }\n"
                                 "  let c = transfer(Tensor<f16, [N]>::new(), Memory::HBM);\n"
                                 "  spawn on(Topology::Device) { let s = c[0]; }\n"
                                 "  return 0;\n"
                                 "}\n",
                         &poly);
  assert_true(poly);
  /* 4 N^2 + 1000 (inside the arm) against 4 N^2 + 2 N (after it): neither is always larger */
  assert_string_equal(s, "max(1,000 + 4 x N x N, 2 x N + 4 x N x N)");
  free(s);
}

static void a_division_that_comes_out_whole_stays_a_polynomial(void **state) {
  (void)state;
  bool poly;
  char *s = formula_text(MACHINE "const N : i64 = 10;\n"
                                 "fn main() -> i32 {\n"
                                 "  let a = transfer(Tensor<f32, [(6 * N + 4) / 2, N - 3]>::new(), "
                                 "Memory::HBM);\n"
                                 "  spawn on(Topology::Device) { let s = a[0][0]; }\n"
                                 "  return 0;\n"
                                 "}\n",
                         &poly);
  assert_true(poly);
  assert_string_equal(s, "-24 - 28 x N + 12 x N x N"); /* 4 (3N + 2)(N - 3) */
  free(s);
}

static void a_division_that_rounds_is_no_polynomial_and_says_where(void **state) {
  (void)state;
  bool poly;
  char *s = formula_text(MACHINE "const N : i64 = 10;\n"
                                 "fn main() -> i32 {\n"
                                 "  let a = transfer(Tensor<f32, [N / 3]>::new(), Memory::HBM);\n"
                                 "  spawn on(Topology::Device) { let s = a[0]; }\n"
                                 "  return 0;\n"
                                 "}\n",
                         &poly);
  assert_false(poly);
  assert_string_equal(s, "`N / 3` (line 8) is a division (rounded down) that depends on N");
  free(s);
}

static void a_remainder_through_a_const_item_is_no_polynomial(void **state) {
  (void)state;
  bool poly;
  char *s = formula_text(MACHINE "const N : i64 = 10;\n"
                                 "const PAD : i64 = N % 8;\n"
                                 "fn main() -> i32 {\n"
                                 "  let a = transfer(Tensor<f32, [N + PAD]>::new(), Memory::HBM);\n"
                                 "  spawn on(Topology::Device) { let s = a[0]; }\n"
                                 "  return 0;\n"
                                 "}\n",
                         &poly);
  assert_false(poly);
  assert_string_equal(s, "`N % 8` (line 7) is a remainder that depends on N");
  free(s);
}

static void an_if_comptime_placing_tiles_by_the_constant_is_no_polynomial(void **state) {
  (void)state;
  bool poly;
  char *s = formula_text(MACHINE "const N : i64 = 10;\n"
                                 "fn main() -> i32 {\n"
                                 "  if comptime N > 4 {\n"
                                 "    let a = transfer(Tensor<f32, [N]>::new(), Memory::HBM);\n"
                                 "    spawn on(Topology::Device) { let s = a[0]; }\n"
                                 "  }\n"
                                 "  return 0;\n"
                                 "}\n",
                         &poly);
  assert_false(poly);
  assert_string_equal(s, "the `if comptime` at line 8 decides by N which tiles are placed");
  free(s);
}

static void a_generic_argument_depending_on_the_constant_is_no_polynomial(void **state) {
  (void)state;
  test_run r = test_analyse(MACHINE "const N : i64 = 10;\n"
                                    "fn stage<const K : i64>() -> i32 {\n"
                                    "  let a = transfer(Tensor<f32, [K]>::new(), Memory::HBM);\n"
                                    "  spawn on(Topology::Device) { let s = a[0]; }\n"
                                    "  return 1;\n"
                                    "}\n"
                                    "fn main() -> i32 {\n"
                                    "  let r = stage<N * 2>();\n"
                                    "  return r;\n"
                                    "}\n");
  assert_int_equal(vxp_analysis_error_count(r.an), 0);
  vxp_formula *f = formula_of(r.an, N_ONLY, 1);
  bool found = false;
  for (size_t i = 0; i < vxp_formula_set_count(f); i++) {
    const char *why = vxp_formula_reason(f, i);
    if (why && strstr(why, "the generic arguments of the call to 'stage' at line 13 depend on N"))
      found = true;
  }
  assert_true(found);
  vxp_formula_free(f);
  test_done(&r);
}

static void sub_byte_elements_rounded_to_a_byte_are_no_polynomial(void **state) {
  (void)state;
  bool poly;
  char *s = formula_text(MACHINE "const N : i64 = 10;\n"
                                 "fn main() -> i32 {\n"
                                 "  let a = transfer(Tensor<i4, [N]>::new(), Memory::HBM);\n"
                                 "  spawn on(Topology::Device) { let s = a[0]; }\n"
                                 "  return 0;\n"
                                 "}\n",
                         &poly);
  assert_false(poly);
  assert_string_equal(s, "'a' (line 8) holds 4-bit elements: its bytes are rounded up to a whole "
                         "byte");
  free(s);
}

static void a_name_that_is_no_const_item_is_refused_with_the_known_ones(void **state) {
  (void)state;
  test_run r = test_analyse(MACHINE "const N : i64 = 10;\nconst M : i64 = 2;\n"
                                    "fn main() -> i32 { return 0; }\n");
  const char *names[] = {"BATCH"};
  vxp_formula *f = NULL;
  assert_int_equal(vxp_formula_new(&f, r.an, names, 1), VXP_ENOTFOUND);
  assert_null(f);
  assert_string_equal(
      vxp_context_errmsg(r.ctx),
      "'BATCH' is not a const item of the program; the program's const items: N, M");
  const char *twice[] = {"N", "N"};
  assert_int_equal(vxp_formula_new(&f, r.an, twice, 2), VXP_EINVAL);
  assert_int_equal(vxp_formula_new(&f, r.an, twice, 0), VXP_EINVAL);
  test_done(&r);
}

/* ------------------------------------------------------------------ the property */

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)((rng_state >> 33) % n);
}

static const char *const CONSTS[] = {"A", "B", "C",
                                     "D"}; /* D = A * B + 2, an item in terms of others */

static void put_dim(char *buf, size_t cap) {
  const char *x = CONSTS[rnd(4)], *y = CONSTS[rnd(3)];
  unsigned k = 1 + rnd(9);
  switch (rnd(7)) {
  case 0: snprintf(buf, cap, "%u", k); break;
  case 1: snprintf(buf, cap, "%s", x); break;
  case 2: snprintf(buf, cap, "%s + %u", x, k); break;
  case 3: snprintf(buf, cap, "%s * %u", x, k); break;
  case 4: snprintf(buf, cap, "%s * %s", x, y); break;
  case 5: snprintf(buf, cap, "(%s + %u) * %s", x, k, y); break;
  default: snprintf(buf, cap, "%s - %u", x, k); break;
  }
}

/* A program of tiles at function scope, in `if` arms and `for` bodies (released there),
 * some never read (released at once), in two spaces. */
static void generate(char *out, size_t cap, const uint64_t vals[3]) {
  static const char *const elems[] = {"f32", "f16", "u8", "f64", "bf16"};
  size_t n = (size_t)snprintf(
      out, cap,
      "Memory CPU_DRAM {}\n"
      "Memory HBM { within: Memory::CPU_DRAM, capacity: 1000 GiB, "
      "managed: explicit }\n"
      "Memory SMEM { within: Memory::HBM, capacity: 1000 GiB, "
      "managed: explicit }\n"
      "Topology Device { arch: nvptx64, memory: Memory::HBM, visible: "
      "[Memory::HBM, Memory::SMEM],\n"
      "  transfer Memory::CPU_DRAM -> Memory::HBM : 10\n"
      "  transfer Memory::HBM -> Memory::SMEM : 10 }\n"
      "const A : i64 = %llu;\nconst B : i64 = %llu;\nconst C : i64 = %llu;\n"
      "const D : i64 = A * B + 2;\n"
      "fn main() -> i32 {\n  let x : i32 = 1;\n",
      (unsigned long long)vals[0], (unsigned long long)vals[1], (unsigned long long)vals[2]);
  int depth = 0, tiles = 0;
  int steps = 3 + (int)rnd(10);
  for (int s = 0; s < steps && n + 400 < cap; s++) {
    unsigned what = rnd(5);
    if (what == 0 && depth < 3) {
      n += (size_t)snprintf(out + n, cap - n, rnd(2) ? "  if x > %u {\n" : "  for i%u in 0..3 {\n",
                            (unsigned)s);
      depth++;
    } else if (what == 1 && depth > 0) {
      n += (size_t)snprintf(out + n, cap - n, "  }\n");
      depth--;
    } else {
      char d1[64], d2[64];
      put_dim(d1, sizeof(d1));
      put_dim(d2, sizeof(d2));
      bool smem = rnd(4) == 0, read = rnd(4) != 0;
      n += (size_t)snprintf(out + n, cap - n,
                            "  let t%d = transfer(Tensor<%s, [%s, %s]>::new(), Memory::%s);\n",
                            tiles, elems[rnd(5)], d1, d2, smem ? "SMEM" : "HBM");
      if (read)
        n += (size_t)snprintf(out + n, cap - n,
                              "  spawn on(Topology::Device) { let s%d = t%d[0][0]; }\n", tiles,
                              tiles);
      tiles++;
    }
  }
  while (depth-- > 0)
    n += (size_t)snprintf(out + n, cap - n, "  }\n");
  snprintf(out + n, cap - n, "  return 0;\n}\n");
}

static vxp_analysis *analyse_at(test_run *r, const char *const *names, size_t count,
                                const uint64_t *values) {
  vxp_const_override ov[3];
  for (size_t i = 0; i < count; i++) {
    ov[i].name = names[i];
    ov[i].value = values[i];
  }
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.overrides = ov;
  opts.override_count = count;
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_analyze(&an, r->ctx, r->prog, &opts), VXP_OK);
  return an;
}

static void generated_programs_formula_equals_the_analysis_at_random_points(void **state) {
  (void)state;
  rng_state = 20261206;
  size_t checked = 0, sets = 0;
  for (int prog = 0; prog < 150; prog++) {
    uint64_t vals[3] = {10 + rnd(30), 10 + rnd(30), 10 + rnd(30)};
    char text[8192];
    generate(text, sizeof(text), vals);
    test_run r = test_analyse(text);
    if (vxp_analysis_error_count(r.an))
      fail_msg("generated program %d has errors:\n%s", prog, text);
    /* 1 to 3 of A, B, C named; the rest (and D, in terms of them) folded. */
    size_t count = 1 + rnd(3);
    const char *names[3];
    size_t first = rnd(3);
    for (size_t i = 0; i < count; i++)
      names[i] = CONSTS[(first + i) % 3];
    vxp_formula *f = formula_of(r.an, names, count);
    for (int point = 0; point < 6; point++) {
      uint64_t at[3];
      for (size_t i = 0; i < count; i++)
        at[i] = 9 + rnd(200);
      vxp_analysis *an = analyse_at(&r, names, count, at);
      assert_int_equal(vxp_analysis_error_count(an), 0);
      assert_int_equal(vxp_analysis_resident_set_count(an), vxp_formula_set_count(f));
      for (size_t i = 0; i < vxp_formula_set_count(f); i++) {
        if (!vxp_formula_is_polynomial(f, i))
          fail_msg("program %d: set %zu: %s\n%s", prog, i, vxp_formula_reason(f, i), text);
        const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
        uint64_t bytes = 0;
        assert_int_equal(vxp_formula_evaluate(f, i, at, &bytes), VXP_OK);
        if (bytes != vxp_resident_set_peak_bytes(rs))
          fail_msg("program %d, set %zu (%s): formula %s gives %llu, the analysis %llu\n%s", prog,
                   i, vxp_resident_set_space(rs), vxp_formula_text(f, i), (unsigned long long)bytes,
                   (unsigned long long)vxp_resident_set_peak_bytes(rs), text);
        checked++;
      }
      vxp_analysis_free(an);
    }
    sets += vxp_formula_set_count(f);
    vxp_formula_free(f);
    test_done(&r);
  }
  assert_true(sets >= 150);
  assert_true(checked >= 900);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(decode_step_peak_is_weights_plus_kv_cache_times_batch_and_context),
      cmocka_unit_test(json_lists_each_term_with_its_coefficient_and_constants),
      cmocka_unit_test(tiles_freed_by_an_if_arm_make_a_maximum_of_alternatives),
      cmocka_unit_test(a_division_that_comes_out_whole_stays_a_polynomial),
      cmocka_unit_test(a_division_that_rounds_is_no_polynomial_and_says_where),
      cmocka_unit_test(a_remainder_through_a_const_item_is_no_polynomial),
      cmocka_unit_test(an_if_comptime_placing_tiles_by_the_constant_is_no_polynomial),
      cmocka_unit_test(a_generic_argument_depending_on_the_constant_is_no_polynomial),
      cmocka_unit_test(sub_byte_elements_rounded_to_a_byte_are_no_polynomial),
      cmocka_unit_test(a_name_that_is_no_const_item_is_refused_with_the_known_ones),
      cmocka_unit_test(generated_programs_formula_equals_the_analysis_at_random_points),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
