/* SPDX-License-Identifier: Apache-2.0 */
/* test_options.c - every options struct is read as the header promises: any version from 1
 * to the current one is accepted, an older caller's struct is read no further than that
 * version's fields (each is passed in a heap block of exactly its size, so ASan stops a
 * read past it), and version 0 or one newer than the library's is VXP_EVERSION. */
#include "support.h"

/* The version-1 layouts, as a caller built against the first header declares them. */
typedef struct context_options_v1 {
  unsigned int version;
  const vxp_allocator *allocator;
} context_options_v1;

typedef struct analyze_options_v1 {
  unsigned int version;
  const vxp_machine *machine;
  const vxp_machine *host;
  const vxp_const_override *overrides;
  size_t override_count;
} analyze_options_v1;

typedef struct sweep_options_v1 {
  unsigned int version;
  const char *name;
  uint64_t lo, hi;
  uint32_t margin_ppm;
  const char *function;
  const char *space;
  uint64_t max_scan;
} sweep_options_v1;

typedef struct report_options_v1 {
  unsigned int version;
  vxp_report_format format;
  const char *function;
  const char *space;
  const char *machine;
} report_options_v1;

typedef struct frontier_options_v1 {
  unsigned int version;
  const char *name;
  uint64_t lo, hi;
  uint32_t margin_ppm;
  const char *function;
  const char *space;
  vxp_traffic_model traffic;
  const char *tokens_const;
  uint64_t tokens_per_call;
  uint64_t max_points;
} frontier_options_v1;

/* A heap copy of exactly `size` bytes: reading past it is a heap overflow. */
static void *exact(const void *v, size_t size) {
  void *p = test_malloc(size);
  memcpy(p, v, size);
  return p;
}

static const char *PROGRAM =
    "Memory CPU_DRAM {}\n"
    "Memory W { within: Memory::CPU_DRAM, capacity: 1 KiB, managed: explicit }\n"
    "const N: usize = 4;\n"
    "fn main() -> i32 {\n"
    "  let a = transfer(Tensor<f32, [N]>::uninit(), Memory::W);\n"
    "  return 0;\n}\n";

static void test_options__version_one_structs_are_read_no_further(void **state) {
  (void)state;
  context_options_v1 c1 = {1, &test_allocator};
  vxp_context_options *copts = exact(&c1, sizeof(c1));
  vxp_context *ctx = NULL;
  assert_int_equal(vxp_context_new(&ctx, copts), VXP_OK);
  test_free(copts);

  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  assert_int_equal(vxp_source_new(&src, ctx, "v1.vx", PROGRAM, strlen(PROGRAM)), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);

  vxp_const_override n = {"N", 8};
  analyze_options_v1 a1 = {1, NULL, NULL, &n, 1};
  vxp_analyze_options *aopts = exact(&a1, sizeof(a1));
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_analyze(&an, ctx, prog, aopts), VXP_OK);
  assert_int_equal(vxp_resident_set_peak_bytes(vxp_analysis_resident_set(an, 0)), 32);

  report_options_v1 r1 = {1, VXP_REPORT_JSON, "main", NULL, NULL};
  vxp_report_options *ropts = exact(&r1, sizeof(r1));
  vxp_report *rep = NULL;
  assert_int_equal(vxp_report_explain(&rep, ctx, an, ropts), VXP_OK);
  assert_non_null(strstr(vxp_report_text(rep, NULL), "\"peak_bytes\": 32"));
  vxp_report_free(rep);
  test_free(ropts);

  sweep_options_v1 s1 = {1, "N", 1, 1000, 0, NULL, NULL, 0};
  vxp_sweep_options *sopts = exact(&s1, sizeof(s1));
  a1.override_count = 0;
  vxp_analyze_options *plain = exact(&a1, sizeof(a1));
  vxp_sweep *sw = NULL;
  assert_int_equal(vxp_sweep_run(&sw, ctx, prog, plain, sopts), VXP_OK);
  assert_int_equal(vxp_sweep_point_value(vxp_sweep_largest(sw)), 256); /* 1 KiB of f32 */
  vxp_sweep_free(sw);
  test_free(sopts);

  /* The frontier reads a version-1 analyze struct field by field (it copied the whole
   * current struct, reading past a shorter one, and refused version 1). */
  frontier_options_v1 f1 = {1, "N", 250, 257, 0, NULL, NULL, VXP_TRAFFIC_COMPULSORY, NULL, 0, 0};
  vxp_frontier_options *fopts = exact(&f1, sizeof(f1));
  vxp_frontier *f = NULL;
  assert_int_equal(vxp_frontier_run(&f, ctx, prog, plain, fopts), VXP_OK);
  assert_int_equal(vxp_frontier_point_count(f), 8);
  assert_int_equal(vxp_frontier_point_value(vxp_frontier_largest_fit(f)), 256);
  vxp_frontier_free(f);
  test_free(fopts);
  test_free(plain);
  test_free(aopts);

  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

static void test_options__unknown_versions_are_refused(void **state) {
  (void)state;
  vxp_context_options co;
  vxp_analyze_options ao;
  vxp_sweep_options so;
  vxp_report_options ro;
  vxp_frontier_options fo;
  unsigned bad[] = {0, 1000};
  for (size_t i = 0; i < 2; i++) {
    assert_int_equal(vxp_context_options_init(&co, bad[i]), VXP_EVERSION);
    assert_int_equal(vxp_analyze_options_init(&ao, bad[i]), VXP_EVERSION);
    assert_int_equal(vxp_sweep_options_init(&so, bad[i]), VXP_EVERSION);
    assert_int_equal(vxp_report_options_init(&ro, bad[i]), VXP_EVERSION);
    assert_int_equal(vxp_frontier_options_init(&fo, bad[i]), VXP_EVERSION);
  }
  assert_int_equal(vxp_context_options_init(&co, 1), VXP_OK);
  assert_int_equal(vxp_analyze_options_init(&ao, 1), VXP_OK);
  assert_int_equal(vxp_sweep_options_init(&so, 1), VXP_OK);
  assert_int_equal(vxp_report_options_init(&ro, 1), VXP_OK);
  assert_int_equal(vxp_frontier_options_init(&fo, 1), VXP_OK);

  vxp_context *ctx = NULL;
  co.version = 0;
  assert_int_equal(vxp_context_new(&ctx, &co), VXP_EVERSION);
  co.version = VXP_CONTEXT_OPTIONS_VERSION + 1;
  assert_int_equal(vxp_context_new(&ctx, &co), VXP_EVERSION);
  assert_null(ctx);

  test_run r = test_analyse(PROGRAM);
  vxp_analysis *an = NULL;
  ao.version = VXP_ANALYZE_OPTIONS_VERSION + 1;
  assert_int_equal(vxp_analyze(&an, r.ctx, r.prog, &ao), VXP_EVERSION);
  ao.version = 0;
  assert_int_equal(vxp_analyze(&an, r.ctx, r.prog, &ao), VXP_EVERSION);
  assert_null(an);
  vxp_sweep *sw = NULL;
  so.name = "N";
  so.hi = 4;
  so.version = VXP_SWEEP_OPTIONS_VERSION + 1;
  assert_int_equal(vxp_sweep_run(&sw, r.ctx, r.prog, NULL, &so), VXP_EVERSION);
  so.version = 0;
  assert_int_equal(vxp_sweep_run(&sw, r.ctx, r.prog, NULL, &so), VXP_EVERSION);
  assert_null(sw);
  vxp_frontier *f = NULL;
  fo.name = "N";
  fo.hi = 4;
  fo.version = VXP_FRONTIER_OPTIONS_VERSION + 1;
  assert_int_equal(vxp_frontier_run(&f, r.ctx, r.prog, NULL, &fo), VXP_EVERSION);
  fo.version = 1;
  ao.version = 0;
  assert_int_equal(vxp_frontier_run(&f, r.ctx, r.prog, &ao, &fo), VXP_EVERSION);
  assert_null(f);
  vxp_report *rep = NULL;
  ro.version = VXP_REPORT_OPTIONS_VERSION + 1;
  assert_int_equal(vxp_report_explain(&rep, r.ctx, r.an, &ro), VXP_EVERSION);
  assert_null(rep);
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_options__version_one_structs_are_read_no_further),
      cmocka_unit_test(test_options__unknown_versions_are_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
