/* SPDX-License-Identifier: Apache-2.0 */
/* test_sweep.c - the largest value of a constant that fits (lib/sweep.c): the Llama
 * frontier, margins, when bisection is proven safe and when a scan is used instead, and
 * both against a brute-force oracle. */
#include "support.h"

typedef struct fixture {
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
  vxp_source *machine_src;
  vxp_machine *machine, *host;
} fixture;

static fixture load(const char *text, const char *path) {
  fixture f;
  memset(&f, 0, sizeof(f));
  f.ctx = test_context();
  if (path)
    assert_int_equal(vxp_source_load_file(&f.src, f.ctx, path), VXP_OK);
  else
    assert_int_equal(vxp_source_new(&f.src, f.ctx, "sweep.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse(&f.prog, f.ctx, f.src), VXP_OK);
  return f;
}

static void done(fixture *f) {
  vxp_machine_free(f->host);
  vxp_machine_free(f->machine);
  vxp_source_free(f->machine_src);
  vxp_program_free(f->prog);
  vxp_source_free(f->src);
  vxp_context_free(f->ctx);
}

static vxp_sweep *run(fixture *f, const char *name, uint64_t lo, uint64_t hi, uint32_t margin) {
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = f->machine;
  opts.host = f->host;
  vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
  so.name = name;
  so.lo = lo;
  so.hi = hi;
  so.margin_ppm = margin;
  vxp_sweep *sw = NULL;
  int rc = vxp_sweep_run(&sw, f->ctx, f->prog, &opts, &so);
  if (rc != VXP_OK) fail_msg("vxp_sweep_run: %d %s", rc, vxp_context_errmsg(f->ctx));
  return sw;
}

/* Whether the program fits at `value` by the sweep's definition, by analysing it. */
static int fits_at(fixture *f, const char *name, uint64_t value) {
  vxp_const_override ov = {name, value};
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = f->machine;
  opts.host = f->host;
  opts.overrides = &ov;
  opts.override_count = 1;
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_analyze(&an, f->ctx, f->prog, &opts), VXP_OK);
  int ok = vxp_analysis_admitted(an) && test_count_diag(an, "W1029") == 0;
  vxp_analysis_free(an);
  return ok;
}

static void test_sweep__llama_batch_8_fits_an_a100_40_and_9_does_not(void **state) {
  (void)state;
  fixture f = load(NULL, "examples/llama2/prefill.vx");
  assert_int_equal(vxp_machine_builtin(&f.machine, f.ctx, "a100-40"), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&f.host, f.ctx, "host-default"), VXP_OK);
  vxp_sweep *sw = run(&f, "BATCH", 1, 64, 0);
  /* The peak is linear in BATCH: solved from its formula, then confirmed (test_sweep_formula) */
  assert_int_equal(vxp_sweep_method(sw), VXP_SEARCH_FORMULA);
  const vxp_sweep_point *best = vxp_sweep_largest(sw), *next = vxp_sweep_first_rejected(sw);
  assert_non_null(best);
  assert_int_equal(vxp_sweep_point_value(best), 8);
  assert_true(vxp_sweep_point_fits(best));
  assert_int_equal(vxp_sweep_point_peak_bytes(best), 42567991296ull);
  assert_int_equal(vxp_sweep_point_capacity_bytes(best), 42949672960ull);
  assert_string_equal(vxp_sweep_point_function(best), "main");
  assert_string_equal(vxp_sweep_point_space(best), "HBM");
  assert_int_equal(vxp_sweep_point_reason(best), VXP_MISFIT_NONE);
  assert_int_equal(vxp_sweep_point_value(next), 9);
  assert_false(vxp_sweep_point_fits(next));
  assert_int_equal(vxp_sweep_point_peak_bytes(next), 46204452864ull);
  assert_int_equal(vxp_sweep_point_reason(next), VXP_MISFIT_OVER_CAPACITY);
  assert_string_equal(vxp_sweep_point_code(next), "E6010");
  /* Bisection: 1, 64, then about log2(63) more; every point is analysed once, in order. */
  assert_true(vxp_sweep_evaluation_count(sw) <= 9);
  assert_int_equal(vxp_sweep_point_count(sw), vxp_sweep_evaluation_count(sw));
  for (size_t i = 1; i < vxp_sweep_point_count(sw); i++)
    assert_true(vxp_sweep_point_value(vxp_sweep_point_at(sw, i - 1)) <
                vxp_sweep_point_value(vxp_sweep_point_at(sw, i)));
  assert_null(vxp_sweep_point_at(sw, vxp_sweep_point_count(sw)));
  vxp_sweep_free(sw);
  /* A 1% margin: batch 8 leaves only 0.89% free. */
  sw = run(&f, "BATCH", 1, 64, 10000);
  assert_int_equal(vxp_sweep_point_value(vxp_sweep_largest(sw)), 7);
  assert_int_equal(vxp_sweep_point_reason(vxp_sweep_first_rejected(sw)), VXP_MISFIT_WITHIN_MARGIN);
  assert_null(vxp_sweep_point_code(vxp_sweep_first_rejected(sw)));
  vxp_sweep_free(sw);
  /* The whole range fits: no rejected value. */
  sw = run(&f, "BATCH", 1, 4, 0);
  assert_int_equal(vxp_sweep_point_value(vxp_sweep_largest(sw)), 4);
  assert_null(vxp_sweep_first_rejected(sw));
  vxp_sweep_free(sw);
  /* Nothing fits: the low end is the rejected value. */
  sw = run(&f, "BATCH", 20, 30, 0);
  assert_null(vxp_sweep_largest(sw));
  assert_int_equal(vxp_sweep_point_value(vxp_sweep_first_rejected(sw)), 20);
  assert_int_equal(vxp_sweep_evaluation_count(sw), 1);
  vxp_sweep_free(sw);
  done(&f);
}

/* A tile that exists only for small N (an `if comptime`) makes the peak shrink as N
 * grows: bisection would be wrong, so the sweep scans, and agrees with brute force. */
static void
test_sweep__a_comptime_condition_forces_a_scan_that_agrees_with_brute_force(void **state) {
  (void)state;
  const char *text = TEST_MACHINE_4MIB
      "const N : i64 = 1;\n"
      "fn main() -> i32 {\n"
      "  let t = transfer(Tensor<u8, [N, 256 * 1024]>::uninit(), Memory::W);\n"
      "  if comptime N < 6 {\n"
      "    let big = transfer(Tensor<u8, [3 * 1024 * 1024]>::uninit(), Memory::W);\n"
      "    print(big);\n"
      "  }\n"
      "  print(t);\n"
      "  return 0;\n"
      "}\n";
  fixture f = load(text, NULL);
  vxp_sweep *sw = run(&f, "N", 0, 20, 0);
  assert_int_equal(vxp_sweep_method(sw), VXP_SEARCH_SCAN);
  assert_non_null(strstr(vxp_sweep_reason(sw), "line 9: an `if comptime` condition depends on N"));
  uint64_t brute = 0;
  int any = 0;
  for (uint64_t v = 0; v <= 20; v++)
    if (fits_at(&f, "N", v)) brute = v, any = 1;
  assert_true(any);
  assert_int_equal(brute, 16); /* 16 x 256 KiB = 4 MiB exactly fits once `big` is gone */
  assert_int_equal(vxp_sweep_point_value(vxp_sweep_largest(sw)), brute);
  assert_int_equal(vxp_sweep_point_value(vxp_sweep_first_rejected(sw)), 17);
  /* Below 6 `big` is live beside t: 5 does not fit although 16 does, and 1 does again. */
  assert_false(fits_at(&f, "N", 5));
  assert_true(fits_at(&f, "N", 1));
  vxp_sweep_free(sw);
  done(&f);
}

static void test_sweep__shapes_that_may_shrink_rule_bisection_out(void **state) {
  (void)state;
  static const struct {
    const char *shape;
    const char *why;
  } cases[] = {
      {"[64 / N, 1024]", "divides by a value that grows with N"},
      {"[100 - N, 1024]", "subtracts a value that grows with N"},
      {"[N - 2, 1024]", "does not fold at the low end"},
      {"[N % 7, 1024]", "operator other than + - * /"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char text[1024];
    snprintf(text, sizeof(text),
             TEST_MACHINE_4MIB "const N : i64 = 1;\n"
                               "fn main() -> i32 {\n"
                               "  let t = transfer(Tensor<u8, %s>::uninit(), Memory::W);\n"
                               "  print(t);\n"
                               "  return 0;\n"
                               "}\n",
             cases[i].shape);
    fixture f = load(text, NULL);
    vxp_sweep *sw = run(&f, "N", 1, 40, 0);
    assert_int_equal(vxp_sweep_method(sw), VXP_SEARCH_SCAN);
    if (!strstr(vxp_sweep_reason(sw), cases[i].why))
      fail_msg("%s: reason '%s' lacks '%s'", cases[i].shape, vxp_sweep_reason(sw), cases[i].why);
    /* The scan's answer is brute force's. */
    uint64_t brute = UINT64_MAX;
    for (uint64_t v = 1; v <= 40; v++)
      if (fits_at(&f, "N", v)) brute = v;
    const vxp_sweep_point *best = vxp_sweep_largest(sw);
    if (brute == UINT64_MAX)
      assert_null(best);
    else
      assert_int_equal(vxp_sweep_point_value(best), brute);
    vxp_sweep_free(sw);
    done(&f);
  }
  /* A difference with a constant that stays non-negative keeps bisection. */
  fixture f = load(TEST_MACHINE_4MIB
                   "const N : i64 = 4;\n"
                   "const M : i64 = N - 1;\n"
                   "fn main() -> i32 {\n"
                   "  let t = transfer(Tensor<u8, [M * 1024, 4 + N / 2]>::uninit(), Memory::W);\n"
                   "  print(t);\n"
                   "  return 0;\n"
                   "}\n",
                   NULL);
  vxp_sweep *sw = run(&f, "N", 1, 1000, 0);
  assert_int_equal(vxp_sweep_method(sw), VXP_SEARCH_BISECTION);
  uint64_t best = vxp_sweep_point_value(vxp_sweep_largest(sw));
  assert_true(fits_at(&f, "N", best));
  assert_false(fits_at(&f, "N", best + 1));
  vxp_sweep_free(sw);
  done(&f);
}

/* Whether a difference in a shape is non-negative at the low end is the analysis' fact
 * there (the placement sized), not a fold of the proof's own: a difference in an arm the
 * analysis prunes at every value constrains nothing, so bisection stays (a fold of `N - 2`
 * at N = 1 alone ruled it out, and 1..100000 was then too wide to scan). The analysis at
 * `lo` is also bisection's first point, not a second analysis of the same value. */
static void test_sweep__the_proof_reads_the_analysis_at_the_low_end(void **state) {
  (void)state;
  fixture f = load(TEST_MACHINE_4MIB
                   "const FLAG : i64 = 0;\n"
                   "const N : i64 = 4;\n"
                   "fn main() -> i32 {\n"
                   "  if comptime FLAG == 1 {\n"
                   "    let s = transfer(Tensor<u8, [N - 2, 1024]>::uninit(), Memory::W);\n"
                   "    print(s);\n"
                   "  }\n"
                   "  let t = transfer(Tensor<u8, [N * 1024]>::uninit(), Memory::W);\n"
                   "  print(t);\n"
                   "  return 0;\n"
                   "}\n",
                   NULL);
  vxp_sweep *sw = run(&f, "N", 1, 100000, 0);
  assert_int_equal(vxp_sweep_method(sw), VXP_SEARCH_FORMULA); /* proven, then solved */
  uint64_t best = vxp_sweep_point_value(vxp_sweep_largest(sw));
  assert_true(fits_at(&f, "N", best));
  assert_false(fits_at(&f, "N", best + 1));
  assert_int_equal(vxp_sweep_evaluation_count(sw), vxp_sweep_point_count(sw));
  assert_int_equal(vxp_sweep_point_value(vxp_sweep_point_at(sw, 0)), 1);
  vxp_sweep_free(sw);
  done(&f);
}

static void test_sweep__bad_requests_are_refused_with_a_reason(void **state) {
  (void)state;
  fixture f = load(
      TEST_MACHINE_4MIB
      "const N : i64 = 1;\n"
      "fn main() -> i32 {\n"
      "  if comptime N > 3 { let t = transfer(Tensor<u8, [N]>::uninit(), Memory::W); print(t); }\n"
      "  return 0;\n"
      "}\n",
      NULL);
  vxp_sweep *sw = NULL;
  vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
  so.name = "NOPE";
  so.hi = 4;
  assert_int_equal(vxp_sweep_run(&sw, f.ctx, f.prog, NULL, &so), VXP_ENOTFOUND);
  assert_non_null(strstr(vxp_context_errmsg(f.ctx), "never names 'NOPE'"));
  so.name = "N";
  so.lo = 5;
  assert_int_equal(vxp_sweep_run(&sw, f.ctx, f.prog, NULL, &so), VXP_EINVAL);
  so.lo = 0;
  so.margin_ppm = 1000000;
  assert_int_equal(vxp_sweep_run(&sw, f.ctx, f.prog, NULL, &so), VXP_EINVAL);
  so.margin_ppm = 0;
  vxp_const_override ov = {"N", 3};
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.overrides = &ov;
  opts.override_count = 1;
  assert_int_equal(vxp_sweep_run(&sw, f.ctx, f.prog, &opts, &so), VXP_EINVAL);
  /* Not monotone, and wider than the scan limit. */
  so.hi = 100;
  so.max_scan = 10;
  assert_int_equal(vxp_sweep_run(&sw, f.ctx, f.prog, NULL, &so), VXP_EINVAL);
  assert_non_null(strstr(vxp_context_errmsg(f.ctx), "narrow the range"));
  so.version = 99;
  assert_int_equal(vxp_sweep_run(&sw, f.ctx, f.prog, NULL, &so), VXP_EVERSION);
  assert_null(sw);
  assert_int_equal(vxp_sweep_options_init(&so, VXP_SWEEP_OPTIONS_VERSION), VXP_OK);
  assert_int_equal(vxp_sweep_options_init(&so, 99), VXP_EVERSION);
  vxp_sweep_free(NULL);
  assert_null(vxp_sweep_largest(NULL));
  done(&f);
}

/* The margin is checked against call-tree totals, not each function's own peak: `main`
 * holds 40 KiB of a 100 KiB space across its call to `stage`, which places N tiles of
 * 10 KiB. With a 10% margin the budget is 90 KiB: 40 + 10N <= 90 gives N = 5, while
 * `stage` alone (10N <= 90 and no E6027 below 100 KiB) would allow 6. */
static void test_sweep__margins_count_what_callers_hold_across_calls(void **state) {
  (void)state;
  fixture f =
      load("Memory CPU_DRAM {}\n"
           "Memory W { capacity: 100 KiB, managed: explicit }\n"
           "Topology Dev { memory: Memory::W, transfer Memory::CPU_DRAM -> Memory::W : 10 }\n"
           "const N : i64 = 1;\n"
           "fn stage() -> i32 {\n"
           "  let t = transfer(Tensor<u8, [N, 10240]>::uninit(), Memory::W);\n"
           "  print!(t);\n"
           "  return 0;\n"
           "}\n"
           "fn main() -> i32 {\n"
           "  let held = transfer(Tensor<u8, [40960]>::uninit(), Memory::W);\n"
           "  let r = stage();\n"
           "  print!(held, r);\n"
           "  return 0;\n"
           "}\n",
           NULL);
  vxp_sweep *sw = run(&f, "N", 1, 9, 100000);
  const vxp_sweep_point *largest = vxp_sweep_largest(sw);
  assert_non_null(largest);
  assert_int_equal(vxp_sweep_point_value(largest), 5);
  assert_int_equal(vxp_sweep_point_peak_bytes(largest), 40960 + 5 * 10240);
  assert_string_equal(vxp_sweep_point_function(largest), "main");
  const vxp_sweep_point *next = vxp_sweep_first_rejected(sw);
  assert_non_null(next);
  assert_int_equal(vxp_sweep_point_value(next), 6);
  assert_int_equal(vxp_sweep_point_reason(next), VXP_MISFIT_WITHIN_MARGIN);
  vxp_sweep_free(sw);
  done(&f);
}

/* --function F answers for F and what F calls: an error in a function F never reaches does
 * not decide F's answer, and every rejected value names the function that decided it. */
static void test_sweep__a_selected_function_answers_for_itself_and_its_callees(void **state) {
  (void)state;
  fixture f =
      load("Memory CPU_DRAM {}\n"
           "Memory W { capacity: 100 KiB, managed: explicit }\n"
           "Topology Dev { memory: Memory::W, transfer Memory::CPU_DRAM -> Memory::W : 10 }\n"
           "const N : i64 = 1;\n"
           "fn leaf() -> i32 {\n"
           "  let t = Tensor<u8, [N, 10240], Memory::W>::uninit();\n"
           "  print!(t);\n"
           "  return 0;\n"
           "}\n"
           "fn serve() -> i32 { return leaf(); }\n"
           "fn offline() -> i32 {\n"
           "  let big = Tensor<u8, [N, 1048576], Memory::W>::uninit();\n"
           "  print!(big);\n"
           "  return 0;\n"
           "}\n",
           NULL);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
  so.name = "N";
  so.lo = 1;
  so.hi = 16;
  so.function = "serve";
  vxp_sweep *sw = NULL;
  assert_int_equal(vxp_sweep_run(&sw, f.ctx, f.prog, &opts, &so), VXP_OK);
  /* leaf's 10,240-byte rows fit 100 KiB ten times: serve answers 10, decided by leaf. */
  assert_non_null(vxp_sweep_largest(sw));
  assert_int_equal(vxp_sweep_point_value(vxp_sweep_largest(sw)), 10);
  const vxp_sweep_point *next = vxp_sweep_first_rejected(sw);
  assert_non_null(next);
  assert_string_equal(vxp_sweep_point_code(next), "E6009");
  assert_string_equal(vxp_sweep_point_cause_function(next), "leaf");
  assert_null(vxp_sweep_point_cause_function(vxp_sweep_largest(sw)));
  vxp_sweep_free(sw);
  /* The whole program fits nowhere: offline is over at N = 1, and says so. */
  so.function = NULL;
  assert_int_equal(vxp_sweep_run(&sw, f.ctx, f.prog, &opts, &so), VXP_OK);
  assert_null(vxp_sweep_largest(sw));
  assert_string_equal(vxp_sweep_point_cause_function(vxp_sweep_first_rejected(sw)), "offline");
  vxp_sweep_free(sw);
  done(&f);
}

static void test_sweep__an_error_outside_the_functions_call_tree_does_not_decide(void **state) {
  (void)state;
  static const char machine[] =
      "Memory CPU_DRAM {}\n"
      "Memory W { capacity: 100 KiB, managed: explicit }\n"
      "Topology Dev { memory: Memory::W, transfer Memory::CPU_DRAM -> Memory::W : 10 }\n"
      "const N : i64 = 1;\n";
  char text[2048];
  snprintf(text, sizeof(text),
           "%s"
           "fn leaf() -> i32 {\n"
           "  let t = Tensor<u8, [N, 10240], Memory::W>::uninit();\n"
           "  print!(t);\n"
           "  return 0;\n"
           "}\n"
           "fn serve() -> i32 { return leaf(); }\n"
           "fn offline(p: Pointt) -> i32 { return prefil(); }\n",
           machine);
  fixture f = load(text, NULL);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
  so.name = "N";
  so.lo = 1;
  so.hi = 16;
  so.function = "serve";
  vxp_sweep *sw = NULL;
  assert_int_equal(vxp_sweep_run(&sw, f.ctx, f.prog, &opts, &so), VXP_OK);
  /* offline's E3029 and E2002 are not about serve or leaf: serve answers 10, as alone. */
  assert_non_null(vxp_sweep_largest(sw));
  assert_int_equal(vxp_sweep_point_value(vxp_sweep_largest(sw)), 10);
  assert_string_equal(vxp_sweep_point_code(vxp_sweep_first_rejected(sw)), "E6009");
  assert_string_equal(vxp_sweep_point_cause_function(vxp_sweep_first_rejected(sw)), "leaf");
  vxp_sweep_free(sw);
  /* offline itself fits nowhere, and the why names it and its first error. */
  so.function = "offline";
  assert_int_equal(vxp_sweep_run(&sw, f.ctx, f.prog, &opts, &so), VXP_OK);
  assert_null(vxp_sweep_largest(sw));
  assert_string_equal(vxp_sweep_point_code(vxp_sweep_first_rejected(sw)), "E3029");
  assert_string_equal(vxp_sweep_point_cause_function(vxp_sweep_first_rejected(sw)), "offline");
  vxp_sweep_free(sw);
  /* So does the whole program. */
  so.function = NULL;
  assert_int_equal(vxp_sweep_run(&sw, f.ctx, f.prog, &opts, &so), VXP_OK);
  assert_null(vxp_sweep_largest(sw));
  vxp_sweep_free(sw);
  done(&f);
  /* An error written outside every function (a declaration naming an unknown space) bears
   * on every function. */
  snprintf(text, sizeof(text),
           "%s"
           "Memory S { within: Memory::Nowhere, capacity: 1 KiB }\n"
           "fn serve() -> i32 { return 0; }\n",
           machine);
  f = load(text, NULL);
  so.function = "serve";
  assert_int_equal(vxp_sweep_run(&sw, f.ctx, f.prog, &opts, &so), VXP_OK);
  assert_null(vxp_sweep_largest(sw));
  assert_string_equal(vxp_sweep_point_code(vxp_sweep_first_rejected(sw)), "E1011");
  assert_null(vxp_sweep_point_cause_function(vxp_sweep_first_rejected(sw)));
  vxp_sweep_free(sw);
  done(&f);
}

/* A program whose const `name` sizes one tile, with `extra` statements before its use. */
static void long_name_program(char *text, size_t cap, const char *name, const char *extra) {
  snprintf(text, cap,
           TEST_MACHINE_4MIB "const %s : i64 = 1;\n"
                             "fn main() -> i32 {\n"
                             "  let t = transfer(Tensor<u8, [%s, 1024]>::uninit(), Memory::W);\n"
                             "%s"
                             "  print(t);\n"
                             "  return 0;\n"
                             "}\n",
           name, name, extra);
}

/* The reason a sweep gives (bisection proven, or ruled out) names the constant whole: it was
 * written into a 512-byte buffer in the handle, which cut a long name (and everything after
 * it) short. */
static void test_sweep__a_long_constants_name_is_spelled_whole_in_the_reason(void **state) {
  (void)state;
  char name[601];
  memset(name, 'n', 600);
  name[0] = 'N';
  name[600] = '\0';
  char text[4096];
  long_name_program(text, sizeof(text), name, "");
  fixture f = load(text, NULL);
  vxp_sweep *sw = run(&f, name, 1, 8, 0);
  assert_int_equal(vxp_sweep_method(sw), VXP_SEARCH_FORMULA); /* proven, then solved */
  char want[800];
  snprintf(want, sizeof(want), "every shape that mentions %s grows with it", name);
  if (!strstr(vxp_sweep_reason(sw), want)) fail_msg("reason: %s", vxp_sweep_reason(sw));
  assert_non_null(strstr(vxp_sweep_reason(sw), "so the peaks cannot shrink as it grows"));
  vxp_sweep_free(sw);
  done(&f);

  char comptime[800];
  snprintf(comptime, sizeof(comptime), "  if comptime %s < 6 { print(1); }\n", name);
  long_name_program(text, sizeof(text), name, comptime);
  f = load(text, NULL);
  sw = run(&f, name, 1, 8, 0);
  assert_int_equal(vxp_sweep_method(sw), VXP_SEARCH_SCAN);
  snprintf(want, sizeof(want),
           "an `if comptime` condition depends on %s, so which tiles exist changes with it", name);
  if (!strstr(vxp_sweep_reason(sw), want)) fail_msg("reason: %s", vxp_sweep_reason(sw));
  vxp_sweep_free(sw);
  done(&f);
}

static void test_sweep__closed_sets_are_enums_the_name_functions_spell(void **state) {
  (void)state;
  assert_string_equal(vxp_search_name(VXP_SEARCH_BISECTION), "bisection");
  assert_string_equal(vxp_search_name(VXP_SEARCH_SCAN), "scan");
  assert_null(vxp_search_name((vxp_search)0));
  assert_null(vxp_misfit_name(VXP_MISFIT_NONE));
  assert_string_equal(vxp_misfit_name(VXP_MISFIT_OVER_CAPACITY), "over_capacity");
  assert_string_equal(vxp_misfit_name(VXP_MISFIT_WITHIN_MARGIN), "within_margin");
  assert_string_equal(vxp_misfit_name(VXP_MISFIT_SIZE_UNKNOWN), "size_unknown");
  assert_string_equal(vxp_misfit_name(VXP_MISFIT_ERROR), "error");
  assert_null(vxp_misfit_name((vxp_misfit)99));
  assert_int_equal(vxp_sweep_method(NULL), 0);
  assert_int_equal(vxp_sweep_point_reason(NULL), VXP_MISFIT_NONE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sweep__margins_count_what_callers_hold_across_calls),
      cmocka_unit_test(test_sweep__llama_batch_8_fits_an_a100_40_and_9_does_not),
      cmocka_unit_test(test_sweep__a_comptime_condition_forces_a_scan_that_agrees_with_brute_force),
      cmocka_unit_test(test_sweep__shapes_that_may_shrink_rule_bisection_out),
      cmocka_unit_test(test_sweep__the_proof_reads_the_analysis_at_the_low_end),
      cmocka_unit_test(test_sweep__bad_requests_are_refused_with_a_reason),
      cmocka_unit_test(test_sweep__a_selected_function_answers_for_itself_and_its_callees),
      cmocka_unit_test(test_sweep__an_error_outside_the_functions_call_tree_does_not_decide),
      cmocka_unit_test(test_sweep__closed_sets_are_enums_the_name_functions_spell),
      cmocka_unit_test(test_sweep__a_long_constants_name_is_spelled_whole_in_the_reason),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
