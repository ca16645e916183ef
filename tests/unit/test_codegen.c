/* SPDX-License-Identifier: Apache-2.0 */
/* test_codegen.c - the CUDA stage through the public API: sizes and release points come
 * from the analysis, refusals name the construct and its place, and nothing leaks (also
 * when allocations fail). The emulated and nvcc builds are in tests/codegen/. */
#include "support.h"

#include <limits.h>
#include <stdbool.h>

#define MACHINE                                                                                    \
  "Memory CPU_DRAM {}\n"                                                                           \
  "Memory W { capacity: 4 MiB, managed: explicit }\n"                                              \
  "Memory S { within: Memory::W, capacity: 64 KiB, granule: 1 KiB, managed: explicit }\n"          \
  "Topology Dev { arch: nvptx64, memory: Memory::W, visible: [Memory::W, Memory::S],\n"            \
  "  transfer Memory::CPU_DRAM -> Memory::W : 10\n  transfer Memory::W -> Memory::S }\n"

/* Generate CUDA for `text`; the run owns everything but the result. */
static vxp_cuda *generate(test_run *r, const char *text) {
  *r = test_analyse(text);
  vxp_cuda *cu = NULL;
  assert_int_equal(vxp_cuda_generate(&cu, r->ctx, r->an), VXP_OK);
  assert_non_null(cu);
  return cu;
}

static void expect_refusal(const char *text, const char *needle, uint32_t line, uint32_t column) {
  test_run r;
  vxp_cuda *cu = generate(&r, text);
  assert_null(vxp_cuda_text(cu, NULL));
  bool found = false;
  for (size_t i = 0; i < vxp_cuda_diagnostic_count(cu); i++) {
    const vxp_diagnostic *d = vxp_cuda_diagnostic(cu, i);
    assert_int_equal(vxp_diagnostic_severity(d), VXP_SEVERITY_ERROR);
    assert_string_equal(vxp_diagnostic_code(d), "VXP0800");
    if (strstr(vxp_diagnostic_message(d), needle)) {
      vxp_range rg = vxp_diagnostic_range(d);
      if (line == 0) {
        assert_false(vxp_diagnostic_has_range(d));
        found = true;
        continue;
      }
      assert_true(vxp_diagnostic_has_range(d));
      if (rg.start.line + 1 != line || rg.start.column + 1 != column)
        fail_msg("'%s' reported at %u:%u, expected %u:%u", needle, rg.start.line + 1,
                 rg.start.column + 1, line, column);
      found = true;
    }
  }
  if (!found) fail_msg("no diagnostic mentions '%s'", needle);
  vxp_cuda_free(cu);
  test_done(&r);
}

/* Generated text, case by case: what it must contain and what it must not. */
typedef struct text_case {
  const char *what;
  const char *program;
  const char *contains[10];
  const char *absent[2];
} text_case;

static const text_case text_cases[] = {
    /* Tile sizes are the records': 400 bytes in W (no granule), rounded to 1024 in S; the copy
     * moves the 400 bytes. */
    {"tile bytes",
     MACHINE "fn main() -> i32 {\n"
             "  let h = Tensor<f32, [100]>::fill(1.0);\n"
             "  let w = transfer(h, Memory::W);\n"
             "  let s = transfer(w, Memory::S);\n"
             "  spawn on(Topology::Dev) { s[0] = w[1]; }\n"
             "  return 0;\n}\n",
     {"vxp_tile_alloc(&fr, &vxb1, VXP_SPACE_W, 400ull)",
      "vxp_tile_alloc(&fr, &vxb2, VXP_SPACE_S, 1024ull), v_w, 400ull, cudaMemcpyDeviceToDevice)",
      "{VXP_FN_main, VXP_SPACE_S, 1024ull}", "__global__ void vxk_main_0(float *v_s, float *v_w)"},
     {NULL}},
    /* f16/bf16/f8 are stored as CUDA's types and computed in float: read as (float)x, written
     * as (T)(float)(v), with the headers included only when used; 8 f16 elements are 16 bytes,
     * 8 fp8 ones 8 bytes: the records' sizes. */
    {"narrow floats",
     MACHINE "fn main() -> i32 {\n"
             "  let a = transfer(Tensor<f16, [8]>::fill(1.5), Memory::W);\n"
             "  let b = transfer(Tensor<f8e4m3, [8]>::new(), Memory::W);\n"
             "  spawn on(Topology::Dev) { b[1] += a[0] * 2.0; }\n"
             "  return 0;\n}\n",
     {"#include <cuda_fp16.h>\n#include <cuda_fp8.h>\n#endif",
      "vxp_tile_alloc(&fr, &vxb1, VXP_SPACE_W, 16ull)",
      "vxp_tile_alloc(&fr, &vxb3, VXP_SPACE_W, 8ull)",
      "vxp_fill<__half>((__half *)vxp_host_alloc(&vxb0, 16ull, 0), 8ull, (__half)(float)(1.5f), 0)",
      "__global__ void vxk_main_0(__nv_fp8_e4m3 *v_b, __half *v_a)",
      "v_b[(int64_t)(1)] = (__nv_fp8_e4m3)((float)v_b[(int64_t)(1)] + "
      "(float)((((float)v_a[(int64_t)(0)]) * 2.0f)));"},
     {"cuda_bf16.h"}},
    /* Each function's rule is decided from the analysis' events: straight-line is exact, a
     * match arm placing a tile or an if without else placing one is "at most", with the
     * reason. */
    {"rules and reasons",
     MACHINE "fn plain() -> i32 {\n"
             "  let a = transfer(Tensor<f32, [4]>::new(), Memory::W);\n"
             "  spawn on(Topology::Dev) { a[0] = 1.0; }\n"
             "  return 0;\n}\n"
             "fn arms(k: i32) -> i32 {\n"
             "  match k {\n"
             "    0 => { let b = transfer(Tensor<f32, [4]>::new(), Memory::W);\n"
             "           spawn on(Topology::Dev) { b[0] = 1.0; } }\n"
             "    _ => {}\n  }\n"
             "  if k > 1 { plain(); }\n"
             "  return 0;\n}\n"
             "fn main() -> i32 { return arms(0); }\n",
     {"static const char *const vxp_fn_reasons[VXP_FN_COUNT] = "
      "{\"[]\", \"[\\\"match-arms\\\"]\", \"[]\"};",
      "static const char *const vxp_run_reasons = "
      "\"[\\\"match-arms\\\", \\\"call-not-taken\\\"]\";"},
     {NULL}},
    /* A generic function is generated once per instance the analysis made, under the
     * analysis' name for it, with its const and type arguments folded into shapes and values
     * (8 f32 and 16 f16 elements: 32 bytes each, N folded into the index). */
    {"generic instances",
     MACHINE "fn put<const N : i64, T>(v : f32) -> i32 {\n"
             "  let d = transfer(Tensor<T, [N]>::fill(v), Memory::W);\n"
             "  spawn on(Topology::Dev) { d[N - 1] = v; }\n"
             "  return 0;\n}\n"
             "fn unused<const K : i64>() -> i32 { return 0; }\n"
             "fn main() -> i32 { return put<8, f32>(1.0) + put<16, f16>(2.0); }\n",
     {"{\"put<8, f32>\", \"put<16, f16>\", \"main\"}", "static int32_t vx_put_8_f32(float v_v) {",
      "static int32_t vx_put_16_f16(float v_v) {",
      "vxp_fill<float>((float *)vxp_host_alloc(&vxb0, 32ull, 0), 8ull",
      "vxp_fill<__half>((__half *)vxp_host_alloc(&vxb0, 32ull, 0), 16ull",
      "v_d[(int64_t)(((8LL) - 1))] = v_v;", "v_d[(int64_t)(((16LL) - 1))] = (__half)(float)(v_v);",
      "(vx_put_8_f32(1.0f) + vx_put_16_f16(2.0f))"},
     {"vx_unused"}},
};

static void
test_codegen__generated_text_has_the_analysis_sizes_types_rules_and_instances(void **state) {
  (void)state;
  for (size_t c = 0; c < sizeof(text_cases) / sizeof(text_cases[0]); c++) {
    const text_case *tc = &text_cases[c];
    test_run r;
    vxp_cuda *cu = generate(&r, tc->program);
    size_t len;
    const char *text = vxp_cuda_text(cu, &len);
    if (!text) fail_msg("%s: refused", tc->what);
    assert_int_equal(strlen(text), len);
    assert_int_equal(vxp_cuda_diagnostic_count(cu), 0);
    for (size_t i = 0; i < 10 && tc->contains[i]; i++)
      if (!strstr(text, tc->contains[i])) fail_msg("%s: no '%s'", tc->what, tc->contains[i]);
    for (size_t i = 0; i < 2 && tc->absent[i]; i++)
      if (strstr(text, tc->absent[i])) fail_msg("%s: '%s' is there", tc->what, tc->absent[i]);
    vxp_cuda_free(cu);
    test_done(&r);
  }
}

static void test_codegen__never_read_tile_is_freed_after_its_placement(void **state) {
  (void)state;
  test_run r;
  vxp_cuda *cu = generate(&r, MACHINE "fn main() -> i32 {\n"
                                      "  let h = Tensor<f32, [1024]>::new();\n"
                                      "  let unused = transfer(h, Memory::W);\n"
                                      "  let kept = transfer(h, Memory::W);\n"
                                      "  spawn on(Topology::Dev) { kept[0] = 1.0; }\n"
                                      "  return 0;\n}\n");
  const char *text = vxp_cuda_text(cu, NULL);
  assert_non_null(text);
  const char *placed = strstr(text, "float *v_unused =");
  const char *freed =
      strstr(text, "vxp_tile_release(&fr, &vxb1, VXP_SPACE_W, 4096ull); /* never read");
  const char *next = strstr(text, "float *v_kept =");
  assert_non_null(placed);
  assert_non_null(freed);
  assert_non_null(next);
  assert_true(placed < freed && freed < next);
  vxp_cuda_free(cu);
  test_done(&r);
}

static void test_codegen__releasing_block_frees_its_tiles_at_its_end_and_on_break(void **state) {
  (void)state;
  test_run r;
  vxp_cuda *cu = generate(
      &r, MACHINE
      "fn main() -> i32 {\n"
      "  let h = Tensor<f32, [1024]>::new();\n"
      "  loop {\n"
      "    let t = transfer(h, Memory::W);\n"
      "    spawn on(Topology::Dev) { t[0] = 1.0; }\n"
      "    if 1 > 0 { break; }\n"
      "  }\n"
      "  unsafe { let u = transfer(h, Memory::W); spawn on(Topology::Dev) { u[0] = 2.0; } }\n"
      "  return 0;\n}\n");
  const char *text = vxp_cuda_text(cu, NULL);
  assert_non_null(text);
  text = strstr(text, "static int32_t vx_main(void) {"); /* past the prelude */
  assert_non_null(text);
  /* Freed before the break, and at the end of the loop body. */
  const char *brk = strstr(text, "break;");
  assert_non_null(brk);
  const char *before = strstr(text, "vxp_tile_release(&fr, &vxb1, VXP_SPACE_W, 4096ull);\n");
  assert_non_null(before);
  assert_true(before < brk);
  assert_non_null(strstr(brk, "vxp_tile_release(&fr, &vxb1, VXP_SPACE_W, 4096ull);\n  }"));
  /* The unsafe block's tile is not freed at its end: only at the function's exit. */
  const char *unsafe_end = strstr(text, "vxp_launched();\n    }\n  }\n");
  assert_non_null(unsafe_end);
  assert_non_null(strstr(unsafe_end, "vxp_tile_release(&fr, &vxb2"));
  assert_true(strstr(unsafe_end, "}\n  {\n    int32_t vxr") != NULL);
  vxp_cuda_free(cu);
  test_done(&r);
}

/* Refusals, each naming the construct and its place (line and column; 0: no place). */
static const struct {
  const char *program, *needle;
  uint32_t line, column;
} refusals[] = {
    {MACHINE "struct P { a: i32 }\nfn main() -> i32 { return 0; }\n", "struct declaration", 7, 1},
    {MACHINE "fn main() -> i32 {\n  let f = |a: i32| a;\n  return 0;\n}\n", "closure", 8, 11},
    {MACHINE "fn main() -> i32 {\n  let h = Tensor<f32, [4]>::new();\n"
             "  for x in h { print(1); }\n  return 0;\n}\n",
     "`for` over `h`", 9, 12},
    {MACHINE "fn make(d: Ref<Tensor<f32, [4]>, Memory::W>) -> Tensor<f32, [4]> {\n"
             "  return Tensor<f32, [4]>::new();\n}\n"
             "fn give(h: Tensor<f32, [4]>) -> Tensor<f32, [4]> { h }\n"
             "fn main() -> i32 { return 0; }\n",
     "returns one it made on the host", 10, 52},
    {MACHINE "fn f() -> i32 { return 0; }\n", "no `fn main() -> i32`", 0, 0},
    /* Two functions with one C name: the instance put<8> is spelled vx_put_8, as is the
     * function put_8. */
    {MACHINE "fn put<const N : i64>() -> i32 { return 0; }\n"
             "fn put_8() -> i32 { return 1; }\n"
             "fn main() -> i32 { return put<8>() + put_8(); }\n",
     "a second function named 'put_8'", 8, 4},
};

static void test_codegen__refuses_constructs_outside_the_subset_where_they_are(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++)
    expect_refusal(refusals[i].program, refusals[i].needle, refusals[i].line, refusals[i].column);
  /* A placed tensor read on the host is refused by the analysis first (E6003, the
   * visibility check), so generation reports that error rather than its own. */
  test_run r;
  vxp_cuda *cu = generate(&r, MACHINE "fn main() -> i32 {\n  let h = Tensor<f32, [4]>::new();\n"
                                      "  let d = transfer(h, Memory::W);\n  print(d[0]);\n"
                                      "  return 0;\n}\n");
  assert_null(vxp_cuda_text(cu, NULL));
  assert_non_null(test_find_diag(r.an, "E6003"));
  vxp_cuda_free(cu);
  test_done(&r);
}

/* A kernel cannot write host memory: an assigned host scalar travels in a device cell,
 * and a host tensor a function returns becomes its caller's buffer. */
static void test_codegen__kernel_writes_scalars_and_functions_return_host_tensors(void **state) {
  (void)state;
  test_run r;
  vxp_cuda *cu =
      generate(&r, MACHINE "fn load(k: i64) -> Tensor<f32, [4]> { Tensor<f32, [4]>::fill(2.0) }\n"
                           "fn main() -> i32 {\n"
                           "  let w = transfer(load(1), Memory::W);\n"
                           "  let mut n : f32 = 0.0;\n"
                           "  spawn on(Topology::Dev) { n = n + w[0]; }\n"
                           "  return 0;\n}\n");
  const char *text = vxp_cuda_text(cu, NULL);
  assert_non_null(text);
  assert_non_null(strstr(text, "__global__ void vxk_main_0(float *vxw_v_n, float *v_w) {\n"
                               "  float &v_n = *vxw_v_n;"));
  assert_non_null(strstr(text, "auto *vxw_v_n = vxp_scalar_in(&v_n);"));
  assert_non_null(strstr(text, "vxp_scalar_out(&v_n, vxw_v_n);"));
  assert_non_null(strstr(text, "static float *vx_load(int64_t v_k)"));
  assert_non_null(strstr(text, "vxb0 = NULL; /* the caller's now */"));
  /* The caller adopts it, and frees it right after the statement that copied it. */
  assert_non_null(strstr(text, "(float *)vxp_host_adopt(&vxb0, vx_load(1))"));
  const char *main_body = strstr(text, "static int32_t vx_main(void) {");
  assert_non_null(main_body);
  const char *copy = strstr(main_body, "vx_load(1)");
  assert_non_null(copy);
  const char *freed = strstr(copy, "vxp_host_release(&vxb0);");
  assert_non_null(freed);
  assert_true(freed < strstr(copy, "vxp_scalar_in"));
  vxp_cuda_free(cu);
  test_done(&r);
}

static void test_codegen__calls_and_peaks_find_their_functions_among_many(void **state) {
  (void)state;
  /* 300 functions, each calling the next and placing a tile of its own size: every call
   * names its callee, and every function's static peak is its own tile (the lookups are
   * indexes, not scans; the catalogue runs 10^5 of them). */
  static char text[64 * 1024];
  size_t o = (size_t)snprintf(text, sizeof(text), "%s", MACHINE);
  for (int i = 0; i < 300; i++)
    o += (size_t)snprintf(text + o, sizeof(text) - o,
                          "fn f%d() -> i32 {\n  let t = transfer(Tensor<f32, [%d]>::uninit(), "
                          "Memory::W);\n  return f%d();\n}\n",
                          i, i + 1, i + 1);
  snprintf(text + o, sizeof(text) - o,
           "fn f300() -> i32 { return 0; }\n"
           "fn main() -> i32 { return f0(); }\n");
  test_run r;
  vxp_cuda *cu = generate(&r, text);
  const char *cuda = vxp_cuda_text(cu, NULL);
  assert_non_null(cuda);
  char want[128];
  for (int i = 0; i < 300; i += 37) {
    snprintf(want, sizeof(want), "int32_t vxr = (int32_t)(vx_f%d());", i + 1);
    assert_non_null(strstr(cuda, want));
    snprintf(want, sizeof(want), "{VXP_FN_f%d, VXP_SPACE_W, %dull}", i, 4 * (i + 1));
    assert_non_null(strstr(cuda, want));
  }
  vxp_cuda_free(cu);
  test_done(&r);
}

static void test_codegen__syntax_errors_are_copied_not_generated(void **state) {
  (void)state;
  test_run r;
  vxp_cuda *cu = generate(&r, "fn main() -> i32 { let = ; }\n");
  assert_null(vxp_cuda_text(cu, NULL));
  assert_true(vxp_cuda_diagnostic_count(cu) >= 2);
  const vxp_diagnostic *last = vxp_cuda_diagnostic(cu, vxp_cuda_diagnostic_count(cu) - 1);
  assert_non_null(strstr(vxp_diagnostic_message(last), "syntax errors"));
  assert_null(vxp_cuda_diagnostic(cu, vxp_cuda_diagnostic_count(cu)));
  vxp_cuda_free(cu);
  test_done(&r);
}

/* The verdict comes first: an error anywhere (here in a function main never calls) refuses
 * generation with the analysis' own diagnostic, unless VXP_CUDA_ALLOW_REJECTED is passed. */
static void test_codegen__rejected_program_is_refused_unless_allowed(void **state) {
  (void)state;
  static const char text[] =
      MACHINE "fn unused() -> i32 {\n"
              "  let big = transfer(Tensor<f32, [2048, 1024]>::new(), Memory::W);\n"
              "  spawn on(Topology::Dev) { big[0][0] = 1.0; }\n"
              "  return 0;\n}\n"
              "fn main() -> i32 { return 0; }\n";
  test_run r;
  vxp_cuda *cu = generate(&r, text);
  assert_true(vxp_analysis_error_count(r.an) > 0);
  assert_null(vxp_cuda_text(cu, NULL));
  size_t n = vxp_cuda_diagnostic_count(cu);
  assert_int_equal(n, vxp_analysis_error_count(r.an) + 1);
  assert_string_equal(vxp_diagnostic_code(vxp_cuda_diagnostic(cu, 0)),
                      vxp_diagnostic_code(vxp_analysis_diagnostic(r.an, 0)));
  assert_string_equal(vxp_diagnostic_code(vxp_cuda_diagnostic(cu, n - 1)), "VXP0800");
  assert_non_null(strstr(vxp_diagnostic_message(vxp_cuda_diagnostic(cu, n - 1)), "rejected"));
  vxp_cuda_free(cu);
  cu = NULL;
  assert_int_equal(vxp_cuda_generate_flags(&cu, r.ctx, r.an, 2u), VXP_EINVAL);
  assert_null(cu);
  assert_int_equal(vxp_cuda_generate_flags(&cu, r.ctx, r.an, VXP_CUDA_ALLOW_REJECTED), VXP_OK);
  const char *out = vxp_cuda_text(cu, NULL);
  assert_non_null(out);
  assert_non_null(strstr(out, "Analysis verdict: rejected"));
  assert_int_equal(vxp_cuda_diagnostic_count(cu), 0);
  vxp_cuda_free(cu);
  test_done(&r);
}

static void test_codegen__null_arguments(void **state) {
  (void)state;
  vxp_cuda *cu = NULL;
  assert_int_equal(vxp_cuda_generate(&cu, NULL, NULL), VXP_EINVAL);
  assert_null(cu);
  vxp_cuda_free(NULL);
  size_t len = 7;
  assert_null(vxp_cuda_text(NULL, &len));
  assert_int_equal(len, 0);
  assert_int_equal(vxp_cuda_diagnostic_count(NULL), 0);
  assert_null(vxp_cuda_diagnostic(NULL, 0));
}

/* An allocator that fails from the Nth allocation on. */
typedef struct failing {
  long remaining;
} failing;

static void *failing_malloc(size_t size, void *ud) {
  failing *f = ud;
  if (f->remaining-- <= 0) return NULL;
  return test_malloc(size);
}
static void *failing_realloc(void *ptr, size_t size, void *ud) {
  failing *f = ud;
  if (f->remaining-- <= 0) return NULL;
  return test_realloc(ptr, size);
}
static void failing_free(void *ptr, void *ud) {
  (void)ud;
  test_free(ptr);
}

static void test_codegen__allocation_failures_return_enomem_without_leaks(void **state) {
  (void)state;
  const char *text = MACHINE
      "fn g(k: i32) -> i32 { let h = Tensor<f32, [8]>::new(); let d = transfer(h, Memory::W);\n"
      "  spawn on(Topology::Dev) { d[0] = 1.0; } k }\n"
      "fn main() -> i32 {\n  let h = Tensor<f32, [100]>::fill(1.0);\n"
      "  for i in 0..2 { let w = transfer(h, Memory::W); spawn on(Topology::Dev) { w[i] = 2.0; } "
      "}\n"
      "  return g(1);\n}\n";
  bool succeeded = false;
  for (long n = 0; n < 100000 && !succeeded; n += 1 + n / 8) {
    failing f = {LONG_MAX};
    vxp_allocator alloc = {failing_malloc, failing_realloc, failing_free, &f};
    vxp_context_options opts = VXP_CONTEXT_OPTIONS_INIT;
    opts.allocator = &alloc;
    /* The analysis is made while the allocator still works; then generation, which
     * allocates through the analysis' context, meets the Nth failure. */
    vxp_context *ctx = NULL;
    assert_int_equal(vxp_context_new(&ctx, &opts), VXP_OK);
    vxp_source *src = NULL;
    vxp_program *prog = NULL;
    vxp_analysis *an = NULL;
    assert_int_equal(vxp_source_new(&src, ctx, "oom.vx", text, strlen(text)), VXP_OK);
    assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
    assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
    f.remaining = n;
    vxp_cuda *cu = NULL;
    int rc = vxp_cuda_generate(&cu, ctx, an);
    f.remaining = LONG_MAX;
    if (rc == VXP_OK) {
      assert_non_null(vxp_cuda_text(cu, NULL));
      succeeded = true;
    } else {
      assert_int_equal(rc, VXP_ENOMEM);
      assert_null(cu);
      assert_int_equal(vxp_context_errcode(ctx), VXP_ENOMEM);
    }
    vxp_cuda_free(cu);
    vxp_analysis_free(an);
    vxp_program_free(prog);
    vxp_source_free(src);
    vxp_context_free(ctx);
  }
  assert_true(succeeded);
}

/* Names are spelled whole in C, however long ('@' below is a 190- or 200-character prefix):
 * - a variable's C name is "v_" and its name whole, then "_2", "_3" for a shadowing `let`: it
 *   was cut to 61 characters first (then made unique), so two long names that share their
 *   first 61 characters came out as v_<cut> and v_<cut>_2;
 * - two 200-character function names that share their first 190 were cut to one 60-character
 *   C name and refused as "a second function"; a kernel's name (vxk_<function>_<k>) is the
 *   name whole, then the kernel's number;
 * - a space's enumerator (VXP_SPACE_<name>) was cut at 60 characters, one for two spaces. */
static const struct {
  size_t prefix;
  const char *program;
  const char *contains[4];
} long_names[] = {
    {200,
     MACHINE "fn main() -> i32 {\n"
             "  let @_left = transfer(Tensor<f32, [4]>::fill(2.0), Memory::W);\n"
             "  let @_right : i32 = 3;\n"
             "  let @_right : i32 = @_right + 1;\n"
             "  let mut n : f32 = 0.0;\n"
             "  spawn on(Topology::Dev) { n = n + @_left[0]; }\n"
             "  return @_right;\n"
             "}\n",
     {"float *v_@_left = ", "int32_t v_@_right = ", "int32_t v_@_right_2 = ",
      "vxr = (int32_t)(v_@_right_2);"}},
    {190,
     MACHINE "fn @_first_one() -> i32 {\n"
             "  let w = transfer(Tensor<f32, [4]>::fill(2.0), Memory::W);\n"
             "  let mut n : f32 = 0.0;\n"
             "  spawn on(Topology::Dev) { n = n + w[0]; }\n"
             "  spawn on(Topology::Dev) { n = n + w[1]; }\n"
             "  return 1;\n"
             "}\n"
             "fn @_other_one() -> i32 { return 2; }\n"
             "fn main() -> i32 { return @_first_one() + @_other_one(); }\n",
     {"vx_@_first_one(", "vx_@_other_one(", "__global__ void vxk_@_first_one_1("}},
    {190,
     "Memory CPU_DRAM {}\n"
     "Memory @_A { within: Memory::CPU_DRAM, capacity: 1 MiB, managed: explicit }\n"
     "Memory @_B { within: Memory::CPU_DRAM, capacity: 1 MiB, managed: explicit }\n"
     "fn main() -> i32 {\n"
     "  let a = transfer(Tensor<f32, [4]>::fill(1.0), Memory::@_A);\n"
     "  let b = transfer(Tensor<f32, [4]>::fill(1.0), Memory::@_B);\n"
     "  return 0;\n"
     "}\n",
     {"VXP_SPACE_@_A = ", "VXP_SPACE_@_B = "}},
};

/* `pattern` with each '@' replaced by `n` letters `c`, into out[cap]. */
static void with_prefix(char *out, size_t cap, const char *pattern, size_t n, char c) {
  size_t o = 0;
  for (const char *p = pattern; *p; p++) {
    size_t k = *p == '@' ? n : 1;
    assert_true(o + k < cap);
    memset(out + o, *p == '@' ? c : *p, k);
    o += k;
  }
  out[o] = '\0';
}

static void test_codegen__long_names_are_spelled_whole(void **state) {
  (void)state;
  for (size_t c = 0; c < sizeof(long_names) / sizeof(long_names[0]); c++) {
    char letter = (char)('p' + c), program[4096], name[300];
    with_prefix(program, sizeof(program), long_names[c].program, long_names[c].prefix, letter);
    test_run r;
    vxp_cuda *cu = generate(&r, program);
    const char *text = vxp_cuda_text(cu, NULL);
    if (!text) fail_msg("refused: %s", vxp_diagnostic_message(vxp_cuda_diagnostic(cu, 0)));
    for (size_t i = 0; i < 4 && long_names[c].contains[i]; i++) {
      with_prefix(name, sizeof(name), long_names[c].contains[i], long_names[c].prefix, letter);
      if (!strstr(text, name)) fail_msg("case %zu: no '%s'", c, name);
    }
    vxp_cuda_free(cu);
    test_done(&r);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(
          test_codegen__generated_text_has_the_analysis_sizes_types_rules_and_instances),
      cmocka_unit_test(test_codegen__never_read_tile_is_freed_after_its_placement),
      cmocka_unit_test(test_codegen__releasing_block_frees_its_tiles_at_its_end_and_on_break),
      cmocka_unit_test(test_codegen__refuses_constructs_outside_the_subset_where_they_are),
      cmocka_unit_test(test_codegen__kernel_writes_scalars_and_functions_return_host_tensors),
      cmocka_unit_test(test_codegen__long_names_are_spelled_whole),
      cmocka_unit_test(test_codegen__calls_and_peaks_find_their_functions_among_many),
      cmocka_unit_test(test_codegen__syntax_errors_are_copied_not_generated),
      cmocka_unit_test(test_codegen__rejected_program_is_refused_unless_allowed),
      cmocka_unit_test(test_codegen__null_arguments),
      cmocka_unit_test(test_codegen__allocation_failures_return_enomem_without_leaks),
  };
  return cmocka_run_group_tests_name("codegen", tests, NULL, NULL);
}
