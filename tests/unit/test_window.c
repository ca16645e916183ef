/* SPDX-License-Identifier: Apache-2.0 */
/* test_window.c - a program that keeps no tree is parsed in windows of whole top-level
 * items (program.c, VXP_PARSE_WINDOW), each window's tree freed before the next is parsed:
 * what it lowers to is what a whole parse lowers to. Every program of the repository
 * (examples, fleet, the test corpora, the fuzzing regressions) and generated ones whose
 * calls, pointer parameters, `on` topologies, types and declarations cross windows are
 * parsed both ways, with windows of one item, and must give the same diagnostics and the
 * same JSON report, byte for byte, against their own machine and against the built-in
 * a100-40; the S-expression written window by window (vxp_program_write_sexp) must be the
 * whole tree's, byte for byte. */
#include "support.h"

#include <dirent.h>
#include <sys/stat.h>

#include "context.h"
#include "program.h"
#include "source.h"

/* The JSON report of `prog` against `machine` (NULL: its own declarations), copied. */
static char *report(vxp_context *ctx, vxp_program *prog, vxp_machine *machine) {
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = machine;
  vxp_analysis *an;
  assert_int_equal(vxp_analyze(&an, ctx, prog, &opts), VXP_OK);
  size_t len;
  const char *json = vxp_analysis_json(an, &len);
  assert_non_null(json);
  char *copy = strdup(json);
  vxp_analysis_free(an);
  return copy;
}

/* A writer that collects what it is given. */
typedef struct collected {
  char *text;
  size_t len;
} collected;

static int collect(void *arg, const char *bytes, size_t len) {
  collected *c = arg;
  c->text = realloc(c->text, c->len + len + 1);
  assert_non_null(c->text);
  memcpy(c->text + c->len, bytes, len);
  c->len += len;
  c->text[c->len] = '\0';
  return 0;
}

/* What vxp_program_write_sexp writes of `prog` (parsed with windows of `window` bytes). */
static char *written_sexp(vxp_context *ctx, const vxp_program *prog, uint32_t window) {
  collected c = {NULL, 0};
  ctx->parse_window = window; /* the windows are found again as they were parsed */
  int rc = vxp_program_write_sexp(prog, collect, &c);
  ctx->parse_window = 0;
  assert_int_equal(rc, VXP_OK);
  return c.text ? c.text : strdup("");
}

/* Parse `src` whole and in windows of one item; compare. Returns the windows used (0: the
 * text was parsed whole, which is allowed: no boundary, or a syntax error). */
static uint32_t compare(vxp_context *ctx, vxp_machine *a100, vxp_source *src) {
  vxp_program *whole, *windowed;
  ctx->parse_window = 0;
  assert_int_equal(vxp_program_parse(&whole, ctx, src), VXP_OK);
  ctx->parse_window = 1;
  assert_int_equal(vxp_program_parse_flags(&windowed, ctx, src, VXP_PROGRAM_NO_TREE), VXP_OK);
  ctx->parse_window = 0;
  assert_null(windowed->tree);
  size_t n = vxp_program_diagnostic_count(whole);
  assert_int_equal(vxp_program_diagnostic_count(windowed), n);
  for (size_t i = 0; i < n; i++) {
    const vxp_diagnostic *a = vxp_program_diagnostic(whole, i),
                         *b = vxp_program_diagnostic(windowed, i);
    assert_string_equal(vxp_diagnostic_code(a), vxp_diagnostic_code(b));
    assert_string_equal(vxp_diagnostic_message(a), vxp_diagnostic_message(b));
    assert_int_equal(vxp_diagnostic_range(a).start_byte, vxp_diagnostic_range(b).start_byte);
    assert_int_equal(vxp_diagnostic_range(a).end_byte, vxp_diagnostic_range(b).end_byte);
  }
  assert_int_equal(vxp_program_item_count(windowed), vxp_program_item_count(whole));
  for (int m = 0; m < 2; m++) {
    char *x = report(ctx, whole, m ? a100 : NULL), *y = report(ctx, windowed, m ? a100 : NULL);
    if (strcmp(x, y) != 0) fail_msg("%s: the windowed parse reports otherwise", src->label);
    free(x);
    free(y);
  }
  /* The S-expression written window by window is the whole tree's, byte for byte; a text
   * parsed whole keeps its tree with VXP_PROGRAM_KEEP_WHOLE_TREE, and writes it so. */
  const char *tree = vxp_program_sexp(whole);
  assert_non_null(tree);
  if (windowed->windows) {
    char *w = written_sexp(ctx, windowed, 1);
    if (strcmp(w, tree) != 0) fail_msg("%s: the windows' S-expression differs", src->label);
    free(w);
  } else {
    collected none = {NULL, 0};
    assert_int_equal(vxp_program_write_sexp(windowed, collect, &none), VXP_EINVAL);
    assert_null(none.text);
  }
  vxp_program *kept;
  ctx->parse_window = 1;
  assert_int_equal(
      vxp_program_parse_flags(&kept, ctx, src, VXP_PROGRAM_NO_TREE | VXP_PROGRAM_KEEP_WHOLE_TREE),
      VXP_OK);
  ctx->parse_window = 0;
  assert_true(windowed->windows ? kept->tree == NULL : kept->tree != NULL);
  char *k = written_sexp(ctx, kept, 1);
  assert_string_equal(k, tree);
  free(k);
  vxp_program_free(kept);
  uint32_t windows = windowed->windows;
  vxp_program_free(windowed);
  vxp_program_free(whole);
  return windows;
}

typedef struct tally {
  size_t files, windowed;
} tally;

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
    t->windowed += compare(ctx, a100, src) > 1;
    vxp_source_free(src);
  }
  closedir(d);
}

static void test_window__every_program_of_the_repository_lowers_the_same(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_machine *a100;
  assert_int_equal(vxp_machine_builtin(&a100, ctx, "a100-40"), VXP_OK);
  tally t = {0, 0};
  static const char *const dirs[] = {"examples", "fleet", "tests"};
  for (size_t i = 0; i < VXP__ARRAY_LEN(dirs); i++)
    compare_tree(ctx, a100, dirs[i], &t);
  print_message("%zu programs, %zu of them parsed in windows\n", t.files, t.windowed);
  /* Most have more than one item and no syntax error: the windows were really used. */
  assert_true(t.files > 100);
  assert_true(t.windowed * 2 > t.files);
  vxp_machine_free(a100);
  vxp_context_free(ctx);
}

/* Items whose facts cross windows: calls to functions defined before and after, with
 * pointer parameters into named spaces and the host, `on` topologies (one a generic
 * parameter), tensor types in signatures, consts, structs and methods, extern functions,
 * and the machine's own declarations (one space declared twice, in different windows). */
static void test_window__facts_that_cross_windows_are_the_same(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_machine *a100;
  assert_int_equal(vxp_machine_builtin(&a100, ctx, "a100-40"), VXP_OK);
  char *text = malloc(1 << 20);
  assert_non_null(text);
  size_t len = 0;
#define PUT(...) len += (size_t)snprintf(text + len, (1 << 20) - len, __VA_ARGS__)
  PUT("Memory CPU_DRAM {}\nMemory HBM { capacity: 1 GiB }\n");
  PUT("Topology Dev { arch: nvptx64, memory: Memory::HBM, visible: [Memory::HBM],\n"
      "  transfer Memory::CPU_DRAM -> Memory::HBM : 10 GB/s }\n");
  PUT("const N: i64 = 64;\n");
  PUT("extern \"C\" {\n  fn c_side(p: *mut f32) -> i32;\n}\n");
  PUT("struct Box { t: Tensor<f32, [N], Memory::HBM> }\n");
  for (int i = 0; i < 40; i++) {
    PUT("fn f%d(p: *mut f32 in Memory::HBM, q: *mut f32) on Topology::Dev -> Tensor<f32, [N], "
        "Memory::HBM> {\n",
        i);
    PUT("  let t = transfer(Tensor<f32, [%d, N]>::uninit(), Memory::HBM);\n", i + 1);
    if (i > 0) PUT("  let a = f%d(p, q);\n", i - 1);
    if (i + 1 < 40) PUT("  let b = f%d(q, p);\n", i + 1);
    PUT("  let c = c_side(p);\n  let d = g%d();\n", (i * 7) % 40);
    PUT("  return t;\n}\n");
    PUT("fn g%d<T: Topology>() on T -> i32 { return %d; }\n", i, i);
    if (i % 10 == 5) PUT("Memory HBM { capacity: 2 GiB }\n");
    if (i % 10 == 7) PUT("impl Box {\n  fn get%d(b : Box) -> i32 { return f%d(0, 0); }\n}\n", i, i);
  }
  PUT("fn main() -> i32 {\n  spawn on(Topology::Dev) {\n    let x = f39(0, 0);\n  }\n"
      "  return g3();\n}\n");
#undef PUT
  vxp_source *src;
  /* The same items on one line (windows start at the blank after an item there). */
  char *line = malloc(len + 1);
  assert_non_null(line);
  for (size_t i = 0; i <= len; i++)
    line[i] = text[i] == '\n' ? ' ' : text[i];
  assert_int_equal(vxp_source_new(&src, ctx, "line.vx", line, len), VXP_OK);
  assert_true(compare(ctx, a100, src) > 80);
  vxp_source_free(src);
  free(line);
  assert_int_equal(vxp_source_new(&src, ctx, "cross.vx", text, len), VXP_OK);
  uint32_t windows = compare(ctx, a100, src);
  if (windows < 80) fail_msg("%u windows", windows);
  /* and the checks that read facts across windows did find something */
  vxp_program *prog;
  ctx->parse_window = 1;
  assert_int_equal(vxp_program_parse_flags(&prog, ctx, src, VXP_PROGRAM_NO_TREE), VXP_OK);
  ctx->parse_window = 0;
  vxp_analysis *an;
  assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
  assert_true(test_count_diag(an, "E6029") > 40);    /* pointer parameters of later functions */
  assert_int_equal(test_count_diag(an, "E6001"), 4); /* their `on` topologies */
  assert_int_equal(test_count_diag(an, "E6012"), 4); /* a space declared again */
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  free(text);
  vxp_machine_free(a100);
  vxp_context_free(ctx);
}

/* A syntax error in any window makes the whole text parsed at once (error recovery near a
 * window's end could differ from the whole text's), with the same result. */
static void test_window__a_syntax_error_parses_the_whole_text(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_machine *a100;
  assert_int_equal(vxp_machine_builtin(&a100, ctx, "a100-40"), VXP_OK);
  static const char text[] = "fn a() -> i32 { return 0; }\nfn b() -> i32 { return 0; }\n"
                             "fn c() -> i32 { let x = ; return 0; }\nfn d() -> i32 { return 0; }\n";
  vxp_source *src;
  assert_int_equal(vxp_source_new(&src, ctx, "broken.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(compare(ctx, a100, src), 0);
  vxp_source_free(src);
  vxp_machine_free(a100);
  vxp_context_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_window__every_program_of_the_repository_lowers_the_same),
      cmocka_unit_test(test_window__facts_that_cross_windows_are_the_same),
      cmocka_unit_test(test_window__a_syntax_error_parses_the_whole_text),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
