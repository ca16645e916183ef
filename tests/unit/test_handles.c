/* SPDX-License-Identifier: Apache-2.0 */
/* test_handles.c - a handle of the wrong kind, or one already freed, is refused on entry
 * (lib/tag.h): a function that returns a code returns VXP_EMISUSE with the message on the
 * context, an accessor its "nothing" value, a free does nothing; nothing reads the wrong
 * struct. One test per kind of handle, each passing it where every other kind belongs; and
 * one per kind for a freed handle, made with an allocator that keeps freed blocks (so that
 * reading one is defined, as it is not once the allocator reuses it). */
#include "support.h"

static const char program[] =
    "Memory CPU_DRAM {}\n"
    "Memory HBM { within: Memory::CPU_DRAM, capacity: 4 MiB, bandwidth: 1555 GB/s, managed: cached "
    "}\n"
    "Topology Dev { arch: nvptx64, memory: Memory::HBM, visible: [Memory::HBM],\n"
    "  transfer Memory::CPU_DRAM -> Memory::HBM : 31.5 GB/s }\n"
    "const N: i64 = 4;\n"
    "fn main() -> i32 {\n"
    "  let w_h = Tensor<f32, [N, 512]>::uninit();\n"
    "  let mut w = transfer(w_h, Memory::HBM);\n"
    "  spawn on(Topology::Dev) {\n"
    "    w[0][0] = w[0][0] + w[1][0];\n"
    "  }\n"
    "  return 0;\n"
    "}\n";

/* One live handle of every kind. */
typedef struct handles {
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
  vxp_machine *machine;
  vxp_analysis *an;
  vxp_sweep *sw;
  vxp_roofline *rf;
  vxp_frontier *fr;
  vxp_report *rep;
  vxp_cuda *cu;
  vxp_formula *fm;
} handles;

static void make_all(handles *h, vxp_context *ctx) {
  memset(h, 0, sizeof(*h));
  h->ctx = ctx;
  assert_int_equal(vxp_source_new(&h->src, ctx, "h.vx", program, strlen(program)), VXP_OK);
  assert_int_equal(vxp_program_parse(&h->prog, ctx, h->src), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&h->machine, ctx, "host-default"), VXP_OK);
  assert_int_equal(vxp_analyze(&h->an, ctx, h->prog, NULL), VXP_OK);
  assert_true(vxp_analysis_admitted(h->an));
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
  so.name = "N";
  so.lo = 1;
  so.hi = 8;
  assert_int_equal(vxp_sweep_run(&h->sw, ctx, h->prog, &opts, &so), VXP_OK);
  assert_int_equal(vxp_roofline_new(&h->rf, ctx, h->an, "main"), VXP_OK);
  vxp_frontier_options fo;
  assert_int_equal(vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION), VXP_OK);
  fo.name = "N";
  fo.lo = 1;
  fo.hi = 2;
  assert_int_equal(vxp_frontier_run(&h->fr, ctx, h->prog, &opts, &fo), VXP_OK);
  assert_int_equal(vxp_report_check(&h->rep, ctx, h->an, NULL), VXP_OK);
  assert_int_equal(vxp_cuda_generate(&h->cu, ctx, h->an), VXP_OK);
  const char *names[] = {"N"};
  assert_int_equal(vxp_formula_new(&h->fm, h->an, names, 1), VXP_OK);
}

static void free_all(handles *h) {
  vxp_formula_free(h->fm);
  vxp_cuda_free(h->cu);
  vxp_report_free(h->rep);
  vxp_frontier_free(h->fr);
  vxp_roofline_free(h->rf);
  vxp_sweep_free(h->sw);
  vxp_analysis_free(h->an);
  vxp_machine_free(h->machine);
  vxp_program_free(h->prog);
  vxp_source_free(h->src);
  vxp_context_free(h->ctx);
}

/* The other handles of `h` than the one at `skip`, as untyped pointers. */
static size_t others(const handles *h, const void *skip, const void *out[11]) {
  const void *all[] = {h->ctx, h->src, h->prog, h->machine, h->an, h->sw,
                       h->rf,  h->fr,  h->rep,  h->cu,      h->fm};
  size_t n = 0;
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
    if (all[i] != skip) out[n++] = all[i];
  return n;
}

/* `rc` is VXP_EMISUSE and the context says which kind was expected. */
static void expect_misuse(vxp_context *ctx, int rc, const char *kind) {
  assert_int_equal(rc, VXP_EMISUSE);
  assert_int_equal(vxp_context_errcode(ctx), VXP_EMISUSE);
  if (!strstr(vxp_context_errmsg(ctx), kind))
    fail_msg("message \"%s\" does not name %s", vxp_context_errmsg(ctx), kind);
}

static void test_handles__a_wrong_context_is_refused(void **state) {
  (void)state;
  handles h;
  make_all(&h, test_context());
  const void *bad[11];
  size_t n = others(&h, h.ctx, bad);
  for (size_t i = 0; i < n; i++) {
    vxp_context *c = (vxp_context *)(uintptr_t)bad[i];
    vxp_source *src = NULL;
    assert_int_equal(vxp_source_new(&src, c, "x", "x", 1), VXP_EMISUSE);
    assert_null(src);
    assert_int_equal(vxp_context_errcode(c), VXP_EMISUSE);
    assert_string_equal(vxp_context_errmsg(c), vxp_strerror(VXP_EMISUSE));
    vxp_context_free(c); /* ignored: not a context */
  }
  free_all(&h);
}

static void test_handles__a_wrong_source_is_refused(void **state) {
  (void)state;
  handles h;
  make_all(&h, test_context());
  const void *bad[11];
  size_t n = others(&h, h.src, bad);
  for (size_t i = 0; i < n; i++) {
    vxp_source *s = (vxp_source *)(uintptr_t)bad[i];
    vxp_program *p = NULL;
    expect_misuse(h.ctx, vxp_program_parse(&p, h.ctx, s), "vxp_source");
    assert_null(p);
    vxp_machine *m = NULL;
    expect_misuse(h.ctx, vxp_machine_load(&m, h.ctx, s), "vxp_source");
    assert_null(vxp_source_label(s));
    assert_int_equal(vxp_source_line_count(s), 0);
    vxp_source *e = NULL;
    assert_int_equal(vxp_source_edit(&e, s, 0, 0, "x", 1), VXP_EMISUSE);
    vxp_source_free(s);
  }
  free_all(&h);
}

static void test_handles__a_wrong_program_is_refused(void **state) {
  (void)state;
  handles h;
  make_all(&h, test_context());
  const void *bad[11];
  size_t n = others(&h, h.prog, bad);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
  so.name = "N";
  so.hi = 1;
  for (size_t i = 0; i < n; i++) {
    vxp_program *p = (vxp_program *)(uintptr_t)bad[i];
    vxp_analysis *an = NULL;
    expect_misuse(h.ctx, vxp_analyze(&an, h.ctx, p, NULL), "vxp_program");
    assert_null(an);
    vxp_sweep *sw = NULL;
    expect_misuse(h.ctx, vxp_sweep_run(&sw, h.ctx, p, &opts, &so), "vxp_program");
    vxp_program *re = NULL;
    expect_misuse(h.ctx, vxp_program_reparse(&re, h.ctx, p, h.src), "vxp_program");
    assert_int_equal(vxp_program_diagnostic_count(p), 0);
    assert_null(vxp_program_source(p));
    assert_int_equal(vxp_program_declares_machine(p), 0);
    vxp_program_free(p);
  }
  free_all(&h);
}

static void test_handles__a_wrong_machine_is_refused(void **state) {
  (void)state;
  handles h;
  make_all(&h, test_context());
  const void *bad[11];
  size_t n = others(&h, h.machine, bad);
  for (size_t i = 0; i < n; i++) {
    vxp_machine *m = (vxp_machine *)(uintptr_t)bad[i];
    vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
    opts.machine = m;
    vxp_analysis *an = NULL;
    expect_misuse(h.ctx, vxp_analyze(&an, h.ctx, h.prog, &opts), "vxp_machine");
    opts.machine = NULL;
    opts.host = m;
    expect_misuse(h.ctx, vxp_analyze(&an, h.ctx, h.prog, &opts), "vxp_machine");
    assert_null(an);
    assert_null(vxp_machine_label(m));
    assert_int_equal(vxp_machine_diagnostic_count(m), 0);
    vxp_machine_free(m);
  }
  free_all(&h);
}

static void test_handles__a_wrong_analysis_is_refused(void **state) {
  (void)state;
  handles h;
  make_all(&h, test_context());
  const void *bad[11];
  size_t n = others(&h, h.an, bad);
  for (size_t i = 0; i < n; i++) {
    vxp_analysis *a = (vxp_analysis *)(uintptr_t)bad[i];
    vxp_roofline *rf = NULL;
    expect_misuse(h.ctx, vxp_roofline_new(&rf, h.ctx, a, "main"), "vxp_analysis");
    vxp_report *rep = NULL;
    expect_misuse(h.ctx, vxp_report_check(&rep, h.ctx, a, NULL), "vxp_analysis");
    vxp_cuda *cu = NULL;
    expect_misuse(h.ctx, vxp_cuda_generate(&cu, h.ctx, a), "vxp_analysis");
    vxp_analysis *inc = NULL;
    expect_misuse(h.ctx, vxp_analyze_incremental(&inc, h.ctx, h.prog, a, NULL), "vxp_analysis");
    assert_null(rf);
    assert_null(rep);
    assert_null(cu);
    assert_null(inc);
    assert_int_equal(vxp_analysis_admitted(a), 0);
    assert_int_equal(vxp_analysis_record_count(a), 0);
    assert_null(vxp_analysis_record(a, 0));
    size_t len = 1;
    assert_null(vxp_analysis_json(a, &len));
    uint64_t v = 7;
    assert_int_equal(vxp_analysis_const_value(a, "N", &v), VXP_EMISUSE);
    assert_int_equal(v, 7);
    vxp_analysis_free(a);
  }
  free_all(&h);
}

static void test_handles__a_wrong_sweep_is_refused(void **state) {
  (void)state;
  handles h;
  make_all(&h, test_context());
  const void *bad[11];
  size_t n = others(&h, h.sw, bad);
  for (size_t i = 0; i < n; i++) {
    const vxp_sweep *s = (const vxp_sweep *)bad[i];
    assert_int_equal(vxp_sweep_point_count(s), 0);
    assert_null(vxp_sweep_largest(s));
    assert_null(vxp_sweep_reason(s));
    vxp_report *rep = NULL;
    const vxp_sweep *list[2] = {h.sw, s};
    expect_misuse(h.ctx, vxp_report_sweep(&rep, h.ctx, list, NULL, 2, NULL), "vxp_sweep");
    assert_null(rep);
    vxp_sweep_free((vxp_sweep *)(uintptr_t)s);
  }
  assert_true(vxp_sweep_point_count(h.sw) > 0); /* the real one still answers */
  free_all(&h);
}

static void test_handles__a_wrong_roofline_is_refused(void **state) {
  (void)state;
  handles h;
  make_all(&h, test_context());
  const void *bad[11];
  size_t n = others(&h, h.rf, bad);
  for (size_t i = 0; i < n; i++) {
    vxp_roofline *r = (vxp_roofline *)(uintptr_t)bad[i];
    assert_null(vxp_roofline_function(r));
    assert_int_equal(vxp_roofline_space_count(r), 0);
    uint64_t t = 5;
    assert_int_equal(vxp_roofline_time_ps(r, &t), 0);
    assert_int_equal(t, 5);
    assert_int_equal(vxp_roofline_bound(r, VXP_TRAFFIC_COMPULSORY), VXP_BOUND_NONE);
    vxp_roofline_free(r);
  }
  assert_string_equal(vxp_roofline_function(h.rf), "main");
  free_all(&h);
}

static void test_handles__a_wrong_frontier_is_refused(void **state) {
  (void)state;
  handles h;
  make_all(&h, test_context());
  const void *bad[11];
  size_t n = others(&h, h.fr, bad);
  for (size_t i = 0; i < n; i++) {
    const vxp_frontier *f = (const vxp_frontier *)bad[i];
    assert_int_equal(vxp_frontier_point_count(f), 0);
    assert_null(vxp_frontier_best_fit(f));
    vxp_report *rep = NULL;
    expect_misuse(h.ctx, vxp_report_frontier(&rep, h.ctx, f, NULL), "vxp_frontier");
    const vxp_frontier *cells[1] = {f};
    expect_misuse(h.ctx, vxp_report_sweep_grid(&rep, h.ctx, cells, 1, 1, "N", NULL),
                  "vxp_frontier");
    assert_null(rep);
    vxp_frontier_free((vxp_frontier *)(uintptr_t)f);
  }
  assert_int_equal(vxp_frontier_point_count(h.fr), 2);
  free_all(&h);
}

static void test_handles__a_wrong_report_is_refused(void **state) {
  (void)state;
  handles h;
  make_all(&h, test_context());
  const void *bad[11];
  size_t n = others(&h, h.rep, bad);
  for (size_t i = 0; i < n; i++) {
    vxp_report *r = (vxp_report *)(uintptr_t)bad[i];
    size_t len = 3;
    assert_null(vxp_report_text(r, &len));
    vxp_report_free(r);
  }
  size_t len = 0;
  assert_non_null(vxp_report_text(h.rep, &len));
  assert_true(len > 0);
  free_all(&h);
}

static void test_handles__a_wrong_cuda_is_refused(void **state) {
  (void)state;
  handles h;
  make_all(&h, test_context());
  const void *bad[11];
  size_t n = others(&h, h.cu, bad);
  for (size_t i = 0; i < n; i++) {
    vxp_cuda *c = (vxp_cuda *)(uintptr_t)bad[i];
    size_t len = 3;
    assert_null(vxp_cuda_text(c, &len));
    assert_int_equal(vxp_cuda_diagnostic_count(c), 0);
    vxp_cuda_free(c);
  }
  free_all(&h);
}

static void test_handles__a_wrong_formula_is_refused(void **state) {
  (void)state;
  handles h;
  make_all(&h, test_context());
  const void *bad[11];
  size_t n = others(&h, h.fm, bad);
  for (size_t i = 0; i < n; i++) {
    vxp_formula *f = (vxp_formula *)(uintptr_t)bad[i];
    assert_int_equal(vxp_formula_set_count(f), 0);
    assert_null(vxp_formula_text(f, 0));
    assert_null(vxp_formula_reason(f, 0));
    size_t len = 3;
    assert_null(vxp_formula_json(f, &len));
    uint64_t values[1] = {1}, bytes = 0;
    assert_int_equal(vxp_formula_evaluate(f, 0, values, &bytes), VXP_EMISUSE);
    assert_int_equal(vxp_analysis_json_write_symbolic(h.an, f, NULL, NULL), VXP_EMISUSE);
    vxp_formula_free(f);
  }
  /* A formula made of something that is not an analysis is refused too. */
  const char *names[] = {"N"};
  vxp_formula *fm = NULL;
  assert_int_equal(vxp_formula_new(&fm, (const vxp_analysis *)(const void *)h.prog, names, 1),
                   VXP_EMISUSE);
  assert_null(fm);
  assert_true(vxp_formula_set_count(h.fm) > 0);
  free_all(&h);
}

/* ------------------------------------------------------------------ freed handles */

/* An allocator that keeps what is freed until the test ends: a freed handle's memory stays
 * readable (as a real allocator's often does for a while), so its cleared tag can be seen
 * and a second free would show as a second entry. */
typedef struct kept {
  void *blocks[4096];
  size_t count, frees;
} kept;

static void *kept_malloc(size_t size, void *ud) {
  (void)ud;
  return malloc(size);
}
static void *kept_realloc(void *ptr, size_t size, void *ud) {
  (void)ud;
  return realloc(ptr, size);
}
static void kept_free(void *ptr, void *ud) {
  kept *k = ud;
  if (!ptr) return;
  k->frees++;
  if (k->count < sizeof(k->blocks) / sizeof(k->blocks[0]))
    k->blocks[k->count++] = ptr;
  else
    free(ptr);
}

static kept *the_kept;

static vxp_context *kept_context(void) {
  static vxp_allocator alloc = {kept_malloc, kept_realloc, kept_free, NULL};
  the_kept = calloc(1, sizeof(*the_kept));
  assert_non_null(the_kept);
  alloc.ud = the_kept;
  vxp_context_options opts = VXP_CONTEXT_OPTIONS_INIT;
  opts.allocator = &alloc;
  vxp_context *ctx = NULL;
  assert_int_equal(vxp_context_new(&ctx, &opts), VXP_OK);
  return ctx;
}

static void kept_done(void) {
  for (size_t i = 0; i < the_kept->count; i++)
    free(the_kept->blocks[i]);
  free(the_kept);
  the_kept = NULL;
}

/* Free `handle` with `release`; then a second free frees nothing more. */
#define FREE_TWICE(release, handle)                                                                \
  do {                                                                                             \
    release(handle);                                                                               \
    size_t frees_ = the_kept->frees;                                                               \
    release(handle);                                                                               \
    assert_int_equal(the_kept->frees, frees_);                                                     \
  } while (0)

static void test_handles__freed_handles_of_every_kind_are_refused(void **state) {
  (void)state;
  handles h;
  make_all(&h, kept_context());
  size_t len = 9;
  FREE_TWICE(vxp_formula_free, h.fm);
  assert_int_equal(vxp_formula_set_count(h.fm), 0);
  FREE_TWICE(vxp_cuda_free, h.cu);
  assert_null(vxp_cuda_text(h.cu, &len));
  FREE_TWICE(vxp_report_free, h.rep);
  assert_null(vxp_report_text(h.rep, &len));
  FREE_TWICE(vxp_frontier_free, h.fr);
  assert_int_equal(vxp_frontier_point_count(h.fr), 0);
  FREE_TWICE(vxp_roofline_free, h.rf);
  assert_null(vxp_roofline_function(h.rf));
  FREE_TWICE(vxp_sweep_free, h.sw);
  assert_int_equal(vxp_sweep_point_count(h.sw), 0);
  FREE_TWICE(vxp_analysis_free, h.an);
  assert_int_equal(vxp_analysis_record_count(h.an), 0);
  vxp_roofline *rf = NULL;
  expect_misuse(h.ctx, vxp_roofline_new(&rf, h.ctx, h.an, "main"), "vxp_analysis");
  FREE_TWICE(vxp_machine_free, h.machine);
  assert_null(vxp_machine_label(h.machine));
  FREE_TWICE(vxp_program_free, h.prog);
  vxp_analysis *an = NULL;
  expect_misuse(h.ctx, vxp_analyze(&an, h.ctx, h.prog, NULL), "vxp_program");
  FREE_TWICE(vxp_source_free, h.src);
  vxp_program *p = NULL;
  expect_misuse(h.ctx, vxp_program_parse(&p, h.ctx, h.src), "vxp_source");
  FREE_TWICE(vxp_context_free, h.ctx);
  vxp_source *s = NULL;
  assert_int_equal(vxp_source_new(&s, h.ctx, "x", "x", 1), VXP_EMISUSE);
  assert_int_equal(vxp_context_errcode(h.ctx), VXP_EMISUSE);
  kept_done();
}

static void test_handles__null_keeps_its_documented_meaning(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_analyze(&an, ctx, NULL, NULL), VXP_EINVAL);
  assert_int_equal(vxp_context_errcode(NULL), VXP_EINVAL);
  assert_int_equal(vxp_analysis_admitted(NULL), 0);
  vxp_analysis_free(NULL);
  assert_string_equal(vxp_strerror(VXP_EMISUSE),
                      "misuse: a handle of the wrong kind, or one already freed");
  vxp_context_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_handles__a_wrong_context_is_refused),
      cmocka_unit_test(test_handles__a_wrong_source_is_refused),
      cmocka_unit_test(test_handles__a_wrong_program_is_refused),
      cmocka_unit_test(test_handles__a_wrong_machine_is_refused),
      cmocka_unit_test(test_handles__a_wrong_analysis_is_refused),
      cmocka_unit_test(test_handles__a_wrong_sweep_is_refused),
      cmocka_unit_test(test_handles__a_wrong_roofline_is_refused),
      cmocka_unit_test(test_handles__a_wrong_frontier_is_refused),
      cmocka_unit_test(test_handles__a_wrong_report_is_refused),
      cmocka_unit_test(test_handles__a_wrong_cuda_is_refused),
      cmocka_unit_test(test_handles__a_wrong_formula_is_refused),
      cmocka_unit_test(test_handles__freed_handles_of_every_kind_are_refused),
      cmocka_unit_test(test_handles__null_keeps_its_documented_meaning),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
