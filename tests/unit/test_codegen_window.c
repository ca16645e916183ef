/* SPDX-License-Identifier: Apache-2.0 */
/* test_codegen_window.c - CUDA generation from a program that keeps no tree (issue 18):
 * a text parsed in windows (VXP_PROGRAM_NO_TREE, VXP_PARSE_WINDOW) is parsed again window
 * by window, each window's functions generated and its tree freed, and the program written
 * to a vxp_write_fn (vxp_cuda_generate_write) without being held whole. What it generates,
 * or the refusal it gives, is what the whole tree gives, byte for byte: on every program of
 * the repository (examples, fleet, the test corpora, the fuzzing regressions) with windows
 * of one item, against its own declarations and the built-in a100-40, with and without
 * VXP_CUDA_ALLOW_REJECTED, and on generated programs whose calls, parameters, kernels and
 * narrow types cross windows. A writer that refuses makes the call return VXP_EIO; a refused
 * program is never written. */
#include "support.h"

#include <dirent.h>
#include <sys/stat.h>

#include "context.h"
#include "program.h"
#include "source.h"

/* The outcome of one generation: the text (NULL when refused) and the diagnostics, as one
 * string (code, range, message per line). */
typedef struct outcome {
  char *text;
  char *diags;
} outcome;

static char *diag_lines(const vxp_cuda *cu) {
  size_t cap = 256, len = 0;
  char *s = malloc(cap);
  assert_non_null(s);
  s[0] = '\0';
  for (size_t i = 0; i < vxp_cuda_diagnostic_count(cu); i++) {
    const vxp_diagnostic *d = vxp_cuda_diagnostic(cu, i);
    vxp_range r = vxp_diagnostic_range(d);
    const char *m = vxp_diagnostic_message(d);
    size_t need = strlen(m) + 128;
    if (len + need >= cap) {
      cap = (len + need) * 2;
      s = realloc(s, cap);
      assert_non_null(s);
    }
    len += (size_t)snprintf(s + len, cap - len, "%s %d %u-%u %s\n", vxp_diagnostic_code(d),
                            vxp_diagnostic_has_range(d), r.start_byte, r.end_byte, m);
  }
  return s;
}

static outcome generate_text(vxp_context *ctx, const vxp_analysis *an, unsigned flags) {
  vxp_cuda *cu = NULL;
  assert_int_equal(vxp_cuda_generate_flags(&cu, ctx, an, flags), VXP_OK);
  outcome o;
  size_t len;
  const char *text = vxp_cuda_text(cu, &len);
  o.text = text ? strdup(text) : NULL;
  if (text) assert_int_equal(strlen(text), len);
  o.diags = diag_lines(cu);
  vxp_cuda_free(cu);
  return o;
}

static outcome generate_written(vxp_context *ctx, const vxp_analysis *an, unsigned flags) {
  vxp_cuda *cu = NULL;
  test_sink c = {0};
  assert_int_equal(vxp_cuda_generate_write(&cu, ctx, an, flags, test_sink_write, &c), VXP_OK);
  assert_null(vxp_cuda_text(cu, NULL));
  assert_false(c.empty_piece);
  outcome o;
  o.diags = diag_lines(cu);
  if (vxp_cuda_diagnostic_count(cu) > 0) /* refused: nothing written */
    assert_int_equal(c.pieces, 0);
  else
    assert_true(c.pieces > 0);
  o.text = c.text;
  vxp_cuda_free(cu);
  return o;
}

/* Whether the diagnostics `lines` (diag_lines) refuse generation for syntax errors. */
static bool refuses_syntax(const char *lines) {
  return strstr(lines, "VXP0800 0 0-0 the program has syntax errors") != NULL;
}

static void outcome_free(outcome *o) {
  free(o->text);
  free(o->diags);
}

typedef struct tally {
  size_t files, windowed, generated; /* generated: windowed and not refused */
} tally;

/* `src` generated from its whole tree, and from windows of one item (its text, and the
 * written text): the same program or the same refusal. Returns the windows used. */
static uint32_t compare(vxp_context *ctx, vxp_machine *a100, vxp_source *src, tally *t) {
  vxp_program *whole, *windowed;
  ctx->parse_window = 0;
  assert_int_equal(vxp_program_parse(&whole, ctx, src), VXP_OK);
  ctx->parse_window = 1;
  assert_int_equal(vxp_program_parse_flags(&windowed, ctx, src, VXP_PROGRAM_NO_TREE), VXP_OK);
  assert_null(windowed->tree);
  uint32_t windows = windowed->windows;
  for (int m = 0; m < 2; m++) {
    vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
    opts.machine = m ? a100 : NULL;
    vxp_analysis *a, *b;
    assert_int_equal(vxp_analyze(&a, ctx, whole, &opts), VXP_OK);
    assert_int_equal(vxp_analyze(&b, ctx, windowed, &opts), VXP_OK);
    for (unsigned flags = 0; flags <= VXP_CUDA_ALLOW_REJECTED; flags++) {
      outcome x = generate_text(ctx, a, flags); /* the whole tree: as before */
      outcome y = generate_text(ctx, b, flags); /* the windows parsed again */
      outcome z = generate_written(ctx, b, flags);
      /* A window with a syntax error is parsed alone (test_window.c): the program's
       * diagnostics may differ from the whole tree's there, the refusal for them not. */
      bool alone = windowed->error_windows > 0;
      if (strcmp(y.diags, z.diags) != 0 ||
          (alone ? !refuses_syntax(x.diags) || !refuses_syntax(y.diags)
                 : strcmp(x.diags, y.diags) != 0))
        fail_msg("%s (machine %d, flags %u): the windowed generation refuses otherwise:\n%s\n"
                 "---\n%s",
                 src->label, m, flags, x.diags, y.diags);
      if ((x.text == NULL) != (y.text == NULL) || (x.text == NULL) != (z.text == NULL) ||
          (x.text && (strcmp(x.text, y.text) != 0 || strcmp(x.text, z.text) != 0)))
        fail_msg("%s (machine %d, flags %u): the windowed generation differs", src->label, m,
                 flags);
      if (x.text && windows > 1) t->generated++;
      outcome_free(&x);
      outcome_free(&y);
      outcome_free(&z);
    }
    vxp_analysis_free(b);
    vxp_analysis_free(a);
  }
  ctx->parse_window = 0;
  vxp_program_free(windowed);
  vxp_program_free(whole);
  return windows;
}

static void compare_tree(vxp_context *ctx, vxp_machine *a100, const char *dir, tally *t) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      compare_tree(ctx, a100, path, t);
      continue;
    }
    size_t len = strlen(e->d_name);
    bool regression = strstr(dir, "regressions") != NULL && !strchr(e->d_name, '.');
    if (!regression && (len < 3 || strcmp(e->d_name + len - 3, ".vx") != 0)) continue;
    vxp_source *src;
    if (vxp_source_load_file(&src, ctx, path) != VXP_OK) continue;
    t->files++;
    t->windowed += compare(ctx, a100, src, t) > 1;
    vxp_source_free(src);
  }
  closedir(d);
}

static void test_codegen_window__every_program_of_the_repository_generates_the_same(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_machine *a100;
  assert_int_equal(vxp_machine_builtin(&a100, ctx, "a100-40"), VXP_OK);
  tally t = {0, 0, 0};
  static const char *const dirs[] = {"examples", "fleet", "tests"};
  for (size_t i = 0; i < VXP__ARRAY_LEN(dirs); i++)
    compare_tree(ctx, a100, dirs[i], &t);
  print_message("%zu programs, %zu parsed in windows, %zu windowed generations written\n", t.files,
                t.windowed, t.generated);
  /* The windows were really used, and many of those programs were generated, not refused. */
  assert_true(t.files > 100);
  assert_true(t.windowed * 2 > t.files);
  assert_true(t.generated > 20);
  vxp_machine_free(a100);
  vxp_context_free(ctx);
}

#define MACHINE                                                                                    \
  "Memory CPU_DRAM {}\n"                                                                           \
  "Memory W { capacity: 64 MiB, managed: explicit }\n"                                             \
  "Memory S { within: Memory::W, capacity: 64 KiB, granule: 1 KiB, managed: explicit }\n"          \
  "Topology Dev { arch: nvptx64, memory: Memory::W, visible: [Memory::W, Memory::S],\n"            \
  "  transfer Memory::CPU_DRAM -> Memory::W : 10\n  transfer Memory::W -> Memory::S }\n"

/* A program whose functions call functions of other windows, before and after them, with
 * tensor parameters whose shapes the callee's environment folds (a const, a generic
 * instance's argument), narrow scalar parameters, host tensors handed back, kernels in
 * every window, and a bf16 tensor in one definition only (the header includes its header). */
static char *crossing_program(size_t *len_out, int functions, bool one_line) {
  size_t cap = 1 << 20, len = 0;
  char *text = malloc(cap);
  assert_non_null(text);
#define PUT(...) len += (size_t)snprintf(text + len, cap - len, __VA_ARGS__)
  PUT(MACHINE "const N: i64 = 16;\n");
  for (int i = 0; i < functions; i++) {
    PUT("fn f%d(w: Ref<Tensor<f32, [N]>, Memory::W>, k: i32, h: f16) -> i32 {\n", i);
    PUT("  let t = transfer(Tensor<f32, [%d]>::fill(1.0), Memory::W);\n", i + 1);
    PUT("  spawn on(Topology::Dev) { t[0] = w[%d]; }\n", i % 16);
    if (i + 1 < functions) PUT("  let a = f%d(w, k + 1, h);\n", i + 1);
    if (i > 0 && i % 3 == 0) PUT("  let b = g<%d>(w);\n", i);
    if (i % 5 == 2) PUT("  let c = load%d();\n", (i * 7) % functions);
    PUT("  return k;\n}\n");
    if (i == functions / 2) /* bf16 in one definition, not in any signature */
      PUT("fn g%d() -> i32 { let x = Tensor<bf16, [4]>::fill(1.0); return %d; }\n", i, i);
    else
      PUT("fn g%d() -> i32 { return %d; }\n", i, i);
    PUT("fn load%d() -> Tensor<f32, [%d]> {\n  let x = Tensor<f32, [%d]>::fill(2.0);\n"
        "  return x;\n}\n",
        i, i + 2, i + 2);
  }
  PUT("fn g<const M: i64>(w: Ref<Tensor<f32, [N]>, Memory::W>) -> i32 {\n"
      "  let u = transfer(Tensor<f32, [M]>::fill(0.0), Memory::W);\n  return 0;\n}\n");
  PUT("fn half(x: f16) -> f16 { return x; }\n");
  PUT("fn main() -> i32 {\n  let h = Tensor<f32, [N]>::fill(1.0);\n"
      "  let w = transfer(h, Memory::W);\n  let z = half(1.0);\n  return f0(w, 0, 1.0);\n}\n");
#undef PUT
  assert_true(len < cap);
  if (one_line)
    for (size_t i = 0; i < len; i++)
      if (text[i] == '\n') text[i] = ' ';
  *len_out = len;
  return text;
}

static void
test_codegen_window__calls_parameters_and_kernels_across_windows_are_the_same(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_machine *a100;
  assert_int_equal(vxp_machine_builtin(&a100, ctx, "a100-40"), VXP_OK);
  for (int one_line = 0; one_line < 2; one_line++) {
    size_t len;
    char *text = crossing_program(&len, 40, one_line);
    vxp_source *src;
    assert_int_equal(vxp_source_new(&src, ctx, "cross.vx", text, len), VXP_OK);
    tally t = {0, 0, 0};
    uint32_t windows = compare(ctx, a100, src, &t);
    if (windows < 100) fail_msg("%u windows", windows);
    /* it was generated, not refused, and uses what crosses windows */
    if (t.generated == 0) fail_msg("cross.vx was refused");
    test_run r = test_analyse(text);
    vxp_cuda *cu = NULL;
    assert_int_equal(vxp_cuda_generate(&cu, r.ctx, r.an), VXP_OK);
    const char *out = vxp_cuda_text(cu, NULL);
    assert_non_null(out);
    assert_non_null(strstr(out, "#include <cuda_fp16.h>"));
    assert_non_null(strstr(out, "#include <cuda_bf16.h>"));
    assert_non_null(strstr(out, "static int32_t vx_f39(float *v_w, int32_t v_k, __half v_h)"));
    assert_non_null(strstr(out, "(float *)vxp_host_adopt(&vxb2, vx_load"));
    assert_non_null(strstr(out, "__global__ void vxk_f39_"));
    vxp_cuda_free(cu);
    test_done(&r);
    vxp_source_free(src);
    free(text);
  }
  vxp_machine_free(a100);
  vxp_context_free(ctx);
}

/* Refusals whose places lie in other windows: a parameter whose shape does not fold (at each
 * call, where it is folded), `main` with parameters (after every item is read), no `main`. */
static void test_codegen_window__refusals_across_windows_are_the_same(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  static const char *const programs[] = {
      MACHINE "fn f(w: Tensor<f32, [K]>) -> i32 { return 0; }\n"
              "fn a() -> i32 { let h = Tensor<f32, [4]>::fill(1.0); return f(h); }\n"
              "fn b() -> i32 { let h = Tensor<f32, [4]>::fill(1.0); return f(h); }\n"
              "fn main() -> i32 { return a() + b(); }\n",
      MACHINE "fn g() -> i32 { return 0; }\nfn main(x: i32) -> i32 { return g(); }\n"
              "fn h() -> i32 { return main(1); }\n",
      MACHINE "fn f() -> i32 { return 0; }\nfn g() -> i32 { return 1; }\n",
  };
  for (size_t i = 0; i < VXP__ARRAY_LEN(programs); i++) {
    vxp_source *src;
    assert_int_equal(vxp_source_new(&src, ctx, "refused.vx", programs[i], strlen(programs[i])),
                     VXP_OK);
    tally t = {0, 0, 0};
    assert_true(compare(ctx, NULL, src, &t) > 3);
    assert_int_equal(t.generated, 0);
    vxp_source_free(src);
  }
  /* The parameter whose shape does not fold is refused where the signature folds it and at
   * each of the two calls (as folding the callee's node at the call did), in windows too. */
  vxp_source *src;
  assert_int_equal(vxp_source_new(&src, ctx, "calls.vx", programs[0], strlen(programs[0])), VXP_OK);
  vxp_program *prog;
  ctx->parse_window = 1;
  assert_int_equal(vxp_program_parse_flags(&prog, ctx, src, VXP_PROGRAM_NO_TREE), VXP_OK);
  assert_true(prog->windows > 3);
  vxp_analysis *an;
  assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
  outcome o = generate_written(ctx, an, VXP_CUDA_ALLOW_REJECTED);
  ctx->parse_window = 0;
  size_t folds = 0;
  for (const char *p = strstr(o.diags, "does not fold"); p; p = strstr(p + 1, "does not fold"))
    folds++;
  assert_int_equal(folds, 3);
  outcome_free(&o);
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

/* A writer that refuses a piece stops the call with VXP_EIO, reported on the context, and
 * sets no outcome; for the whole tree (one piece refused at once) and for windows (a piece
 * of the definitions, written as they are generated). */
static void test_codegen_window__a_refusing_writer_gives_eio(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  size_t len;
  char *text = crossing_program(&len, 400, false);
  vxp_source *src;
  assert_int_equal(vxp_source_new(&src, ctx, "refusing.vx", text, len), VXP_OK);
  for (int windowed = 0; windowed < 2; windowed++) {
    vxp_program *prog;
    ctx->parse_window = windowed ? 4096 : 0;
    assert_int_equal(vxp_program_parse_flags(&prog, ctx, src, windowed ? VXP_PROGRAM_NO_TREE : 0),
                     VXP_OK);
    assert_true(windowed ? prog->windows > 10 : prog->tree != NULL);
    vxp_analysis *an;
    assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
    test_sink all = {0};
    vxp_cuda *cu = NULL;
    assert_int_equal(vxp_cuda_generate_write(&cu, ctx, an, 0, test_sink_write, &all), VXP_OK);
    assert_int_equal(vxp_cuda_diagnostic_count(cu), 0);
    vxp_cuda_free(cu);
    /* the text is handed over in pieces: the header's, the kernels', the definitions' (as
     * they are generated, about 64 KiB each, when in windows) */
    assert_true(all.len > (size_t)256 << 10);
    assert_true(all.pieces > (windowed ? 10u : 3u));
    size_t at[] = {1, 2, all.pieces};
    for (size_t k = 0; k < VXP__ARRAY_LEN(at); k++) {
      test_sink c = {0};
      c.refuse_at = at[k];
      cu = NULL;
      assert_int_equal(vxp_cuda_generate_write(&cu, ctx, an, 0, test_sink_write, &c), VXP_EIO);
      assert_null(cu);
      assert_int_equal(vxp_context_errcode(ctx), VXP_EIO);
      assert_int_equal(c.pieces, at[k]); /* nothing more was handed over */
      if (c.text) assert_memory_equal(c.text, all.text, c.len);
      free(c.text);
    }
    /* an argument missing */
    cu = NULL;
    assert_int_equal(vxp_cuda_generate_write(&cu, ctx, an, 0, NULL, NULL), VXP_EINVAL);
    assert_null(cu);
    assert_int_equal(vxp_cuda_generate_write(&cu, ctx, an, 2u, test_sink_write, &all), VXP_EINVAL);
    assert_null(cu);
    free(all.text);
    vxp_analysis_free(an);
    vxp_program_free(prog);
  }
  ctx->parse_window = 0;
  vxp_source_free(src);
  free(text);
  vxp_context_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_codegen_window__every_program_of_the_repository_generates_the_same),
      cmocka_unit_test(
          test_codegen_window__calls_parameters_and_kernels_across_windows_are_the_same),
      cmocka_unit_test(test_codegen_window__refusals_across_windows_are_the_same),
      cmocka_unit_test(test_codegen_window__a_refusing_writer_gives_eio),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
