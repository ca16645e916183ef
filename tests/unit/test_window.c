/* SPDX-License-Identifier: Apache-2.0 */
/* test_window.c - a program that keeps no tree is parsed in windows of whole top-level
 * items (program.c, VXP_PARSE_WINDOW), each window's tree freed before the next is parsed:
 * what it lowers to is what a whole parse lowers to. Every program of the repository
 * (examples, fleet, the test corpora, the fuzzing regressions) and generated ones whose
 * calls, pointer parameters, `on` topologies, types and declarations cross windows are
 * parsed both ways, with windows of one item, and must give the same diagnostics and the
 * same JSON report, byte for byte, against their own machine and against the built-in
 * a100-40; the S-expression written window by window (vxp_program_write_sexp) must be the
 * whole tree's, byte for byte. A window with a syntax error is parsed alone (its error
 * recovery stops at its ends): a text has one exactly when its whole parse has a syntax
 * error, both are rejected, and outside the windows with errors the diagnostics are the
 * whole parse's when its errors lie in those windows. */
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

/* What vxp_program_write_sexp writes of `prog` (parsed with windows of `window` bytes). */
static char *written_sexp(vxp_context *ctx, const vxp_program *prog, uint32_t window) {
  test_sink c = {0};
  ctx->parse_window = window; /* the windows are found again as they were parsed */
  int rc = vxp_program_write_sexp(prog, test_sink_write, &c);
  ctx->parse_window = 0;
  assert_int_equal(rc, VXP_OK);
  return c.text ? c.text : strdup("");
}

static bool same_diagnostic(const vxp_diagnostic *a, const vxp_diagnostic *b) {
  return strcmp(vxp_diagnostic_code(a), vxp_diagnostic_code(b)) == 0 &&
         strcmp(vxp_diagnostic_message(a), vxp_diagnostic_message(b)) == 0 &&
         vxp_diagnostic_range(a).start_byte == vxp_diagnostic_range(b).start_byte &&
         vxp_diagnostic_range(a).end_byte == vxp_diagnostic_range(b).end_byte;
}

/* Whether diagnostic `d` lies in the windows with errors of `prog` (an empty one at their
 * end too: a MISSING node). */
static bool in_error_windows(const vxp_program *prog, const vxp_diagnostic *d) {
  vxp_range r = vxp_diagnostic_range(d);
  return r.start_byte >= prog->errors_from &&
         (r.start_byte < prog->errors_to ||
          (r.start_byte == prog->errors_to && r.end_byte == prog->errors_to));
}

/* The diagnostics of `a` and `b` that are not in the windows with errors of `windowed` are
 * the same, in order. */
static bool same_outside(const vxp_program *a, const vxp_program *b, const vxp_program *windowed) {
  size_t na = vxp_program_diagnostic_count(a), nb = vxp_program_diagnostic_count(b);
  for (size_t i = 0, j = 0;; i++, j++) {
    while (i < na && in_error_windows(windowed, vxp_program_diagnostic(a, i)))
      i++;
    while (j < nb && in_error_windows(windowed, vxp_program_diagnostic(b, j)))
      j++;
    if (i == na || j == nb) return i == na && j == nb;
    if (!same_diagnostic(vxp_program_diagnostic(a, i), vxp_program_diagnostic(b, j))) return false;
  }
}

/* Whether the analysis of `prog` against `machine` (NULL: its own declarations) admits it. */
static int admitted(vxp_context *ctx, vxp_program *prog, vxp_machine *machine) {
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = machine;
  vxp_analysis *an;
  assert_int_equal(vxp_analyze(&an, ctx, prog, &opts), VXP_OK);
  int yes = vxp_analysis_admitted(an);
  vxp_analysis_free(an);
  return yes;
}

/* What a windowed parse with syntax errors promises against the whole parse (which has
 * one): a syntax error reported in the windows with errors, a rejection, and outside those
 * windows the whole parse's diagnostics when the whole parse's syntax errors (the third
 * group of the syntax checks) lie in them. Returns whether they did. */
static bool errors_agree(vxp_context *ctx, vxp_machine *a100, vxp_program *whole,
                         vxp_program *windowed) {
  assert_true(windowed->error_windows > 0 && windowed->error_windows <= windowed->windows);
  assert_true(windowed->errors_from < windowed->errors_to);
  size_t errors = 0;
  for (size_t i = 0; i < vxp_program_diagnostic_count(windowed); i++) {
    const vxp_diagnostic *d = vxp_program_diagnostic(windowed, i);
    errors += vxp_diagnostic_severity(d) == VXP_SEVERITY_ERROR &&
              strcmp(vxp_diagnostic_code(d), "VXP0001") == 0 && in_error_windows(windowed, d);
  }
  if (errors == 0) fail_msg("%s: no syntax error in the windows with errors", whole->src->label);
  for (int m = 0; m < 2; m++) {
    assert_false(admitted(ctx, whole, m ? a100 : NULL));
    assert_false(admitted(ctx, windowed, m ? a100 : NULL));
  }
  size_t first = whole->syntax_counts[0] + whole->syntax_counts[1];
  bool contained = true;
  for (size_t i = first; contained && i < first + whole->syntax_counts[2]; i++)
    contained = in_error_windows(windowed, vxp_program_diagnostic(whole, i));
  if (contained && !same_outside(whole, windowed, windowed))
    fail_msg("%s: a diagnostic outside the windows with errors differs", whole->src->label);
  return contained;
}

typedef struct tally {
  size_t files, windowed, with_errors, contained;
} tally;

/* Parse `src` whole and in windows of one item; compare. Returns the windows used (0: the
 * text was parsed whole, which is allowed: no boundary, or cut by VXP0003); counts the
 * texts with syntax errors in windows in `t` (when not NULL). */
static uint32_t compare(vxp_context *ctx, vxp_machine *a100, vxp_source *src, tally *t) {
  vxp_program *whole, *windowed;
  ctx->parse_window = 0;
  assert_int_equal(vxp_program_parse(&whole, ctx, src), VXP_OK);
  ctx->parse_window = 1;
  assert_int_equal(vxp_program_parse_flags(&windowed, ctx, src, VXP_PROGRAM_NO_TREE), VXP_OK);
  ctx->parse_window = 0;
  assert_null(windowed->tree);
  /* a syntax error in some window exactly when the whole parse has one */
  bool broken = ts_node_has_error(ts_tree_root_node(whole->tree));
  if (windowed->windows && broken != (windowed->error_windows > 0))
    fail_msg("%s: the whole parse %s a syntax error, the windowed one %u window(s) with one",
             src->label, broken ? "has" : "has no", windowed->error_windows);
  if (!windowed->windows) assert_int_equal(windowed->error_windows, 0);
  const char *tree = vxp_program_sexp(whole);
  assert_non_null(tree);
  char *written = NULL;
  if (windowed->error_windows) {
    bool contained = errors_agree(ctx, a100, whole, windowed);
    if (t) {
      t->with_errors++;
      t->contained += contained;
    }
    /* each window's tree as parsed alone (test_window__a_window_with_a_syntax_error_is_
     * written_as_parsed_alone has the exact text) */
    written = written_sexp(ctx, windowed, 1);
    assert_true(strncmp(written, "(source_file ", 13) == 0);
    assert_true(written[strlen(written) - 1] == ')');
  } else {
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
    if (windowed->windows) {
      written = written_sexp(ctx, windowed, 1);
      if (strcmp(written, tree) != 0) fail_msg("%s: the windows' S-expression differs", src->label);
    } else {
      test_sink none = {0};
      assert_int_equal(vxp_program_write_sexp(windowed, test_sink_write, &none), VXP_EINVAL);
      assert_null(none.text);
    }
  }
  vxp_program *kept;
  ctx->parse_window = 1;
  assert_int_equal(
      vxp_program_parse_flags(&kept, ctx, src, VXP_PROGRAM_NO_TREE | VXP_PROGRAM_KEEP_WHOLE_TREE),
      VXP_OK);
  ctx->parse_window = 0;
  assert_true(windowed->windows ? kept->tree == NULL : kept->tree != NULL);
  assert_int_equal(kept->error_windows, windowed->error_windows);
  char *k = written_sexp(ctx, kept, 1);
  assert_string_equal(k, written ? written : tree);
  free(k);
  free(written);
  vxp_program_free(kept);
  uint32_t windows = windowed->windows;
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

static void test_window__every_program_of_the_repository_lowers_the_same(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_machine *a100;
  assert_int_equal(vxp_machine_builtin(&a100, ctx, "a100-40"), VXP_OK);
  tally t = {0, 0, 0, 0};
  static const char *const dirs[] = {"examples", "fleet", "tests"};
  for (size_t i = 0; i < VXP__ARRAY_LEN(dirs); i++)
    compare_tree(ctx, a100, dirs[i], &t);
  print_message("%zu programs, %zu of them parsed in windows, %zu with syntax errors in "
                "windows (%zu of whose whole parses have their errors in those windows)\n",
                t.files, t.windowed, t.with_errors, t.contained);
  /* Most have more than one item and no syntax error: the windows were really used; the
   * corpora of broken programs (tests/wrong, tests/examples) have windows with errors. */
  assert_true(t.files > 100);
  assert_true(t.windowed * 2 > t.files);
  assert_true(t.with_errors >= 4 && t.contained >= 1);
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
  assert_true(compare(ctx, a100, src, NULL) > 80);
  vxp_source_free(src);
  free(line);
  assert_int_equal(vxp_source_new(&src, ctx, "cross.vx", text, len), VXP_OK);
  uint32_t windows = compare(ctx, a100, src, NULL);
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

/* Parse `text` in windows of one item (VXP_PROGRAM_NO_TREE) and whole; the caller frees both. */
static void parse_both(vxp_context *ctx, vxp_source *src, vxp_program **whole,
                       vxp_program **windowed) {
  assert_int_equal(vxp_program_parse(whole, ctx, src), VXP_OK);
  ctx->parse_window = 1;
  assert_int_equal(vxp_program_parse_flags(windowed, ctx, src, VXP_PROGRAM_NO_TREE), VXP_OK);
  ctx->parse_window = 0;
}

/* A syntax error in one window no longer makes the whole text parsed at once: the other
 * windows stay windows, the one with the error is diagnosed and lowered from its own tree,
 * and an error recovery that stays inside its item gives the whole parse's program. */
static void test_window__a_syntax_error_in_one_window_keeps_the_text_windowed(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_machine *a100;
  assert_int_equal(vxp_machine_builtin(&a100, ctx, "a100-40"), VXP_OK);
  static const char text[] = "fn a() -> i32 { return 0; }\nfn b() -> i32 { return 0; }\n"
                             "fn c() -> i32 { let x = ; return 0; }\nfn d() -> i32 { return 0; }\n";
  vxp_source *src;
  assert_int_equal(vxp_source_new(&src, ctx, "broken.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(compare(ctx, a100, src, NULL), 5); /* the last line break is one too */
  vxp_program *whole, *windowed;
  parse_both(ctx, src, &whole, &windowed);
  assert_int_equal(windowed->error_windows, 1);
  const char *c = strstr(text, "\nfn c");
  assert_int_equal(windowed->errors_from, (uint32_t)(c - text));
  assert_int_equal(windowed->errors_to, (uint32_t)(strstr(text, "\nfn d") - text));
  /* here the same diagnostics as the whole parse, the items all lowered */
  assert_int_equal(vxp_program_diagnostic_count(windowed), 1);
  assert_int_equal(vxp_program_diagnostic_count(whole), 1);
  assert_true(
      same_diagnostic(vxp_program_diagnostic(whole, 0), vxp_program_diagnostic(windowed, 0)));
  assert_int_equal(vxp_program_item_count(windowed), vxp_program_item_count(whole));
  vxp_program_free(windowed);
  vxp_program_free(whole);
  vxp_source_free(src);
  vxp_machine_free(a100);
  vxp_context_free(ctx);
}

/* An error in every window: each window is reported, in source order, as the whole parse
 * reports them. */
static void test_window__a_syntax_error_in_every_window_is_reported_in_each(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_machine *a100;
  assert_int_equal(vxp_machine_builtin(&a100, ctx, "a100-40"), VXP_OK);
  char text[4096];
  size_t len = 0;
  for (int i = 0; i < 20; i++)
    len += (size_t)snprintf(text + len, sizeof(text) - len,
                            "fn f%d() -> i32 { let x%d = ; return %d; }\n", i, i, i);
  vxp_source *src;
  assert_int_equal(vxp_source_new(&src, ctx, "every.vx", text, len), VXP_OK);
  assert_int_equal(compare(ctx, a100, src, NULL), 21); /* the last line break is one too */
  vxp_program *whole, *windowed;
  parse_both(ctx, src, &whole, &windowed);
  assert_int_equal(windowed->error_windows, 20);
  assert_int_equal(windowed->errors_from, 0);
  assert_int_equal(windowed->errors_to, (uint32_t)len - 1);
  assert_int_equal(vxp_program_diagnostic_count(windowed), 20);
  assert_int_equal(vxp_program_diagnostic_count(whole), 20);
  uint32_t last = 0;
  for (size_t i = 0; i < 20; i++) {
    const vxp_diagnostic *d = vxp_program_diagnostic(windowed, i);
    assert_true(same_diagnostic(vxp_program_diagnostic(whole, i), d));
    assert_true(i == 0 || vxp_diagnostic_range(d).start_byte > last);
    last = vxp_diagnostic_range(d).start_byte;
  }
  vxp_program_free(windowed);
  vxp_program_free(whole);
  vxp_source_free(src);
  vxp_machine_free(a100);
  vxp_context_free(ctx);
}

/* A helper without `-> TYPE` whose body calls a macro (tests/wrong/missing-return-type-
 * helper.vx). The whole parse's error recovery reads on into the next item: it reports two
 * errors inside the helper and makes one item of the helper and main. The window parsed
 * alone ends at the helper's closing brace, with no next item to return at, and its
 * recovery wraps the helper in one ERROR node: one error, another message, and main an
 * item of its own window. (An item so reported is the last of its window: with
 * VXP_PARSE_WINDOW, one next to a cut between windows of 1 MiB.) Both are rejected. */
static const char helper_text[] = "fn a() -> i32 { return 0; }\n"
                                  "fn helper(x : i32) {\n  print!(x);\n}\n"
                                  "fn main() -> i32 { return 0; }\n";

static void test_window__a_window_with_a_syntax_error_is_parsed_alone(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_machine *a100;
  assert_int_equal(vxp_machine_builtin(&a100, ctx, "a100-40"), VXP_OK);
  vxp_source *src;
  assert_int_equal(vxp_source_new(&src, ctx, "helper.vx", helper_text, strlen(helper_text)),
                   VXP_OK);
  assert_int_equal(compare(ctx, a100, src, NULL), 4);
  vxp_program *whole, *windowed;
  parse_both(ctx, src, &whole, &windowed);
  assert_int_equal(windowed->error_windows, 1);
  assert_int_equal(vxp_program_diagnostic_count(whole), 2);
  assert_int_equal(vxp_program_diagnostic_count(windowed), 1);
  const char *item = strstr(helper_text, "fn helper");
  const vxp_diagnostic *one = vxp_program_diagnostic(windowed, 0);
  assert_int_equal(vxp_diagnostic_range(one).start_byte, (uint32_t)(item - helper_text));
  assert_int_equal(vxp_diagnostic_range(one).end_byte,
                   (uint32_t)(strstr(helper_text, "\nfn main") - helper_text));
  assert_non_null(strstr(vxp_diagnostic_message(one), "unexpected 'fn' in the top level"));
  assert_non_null(strstr(vxp_diagnostic_message(vxp_program_diagnostic(whole, 0)),
                         "unexpected '(' in a function declaration"));
  assert_non_null(strstr(vxp_diagnostic_message(vxp_program_diagnostic(whole, 1)),
                         "unexpected 'x' in a parameter list"));
  /* a is an item of both, at the same place; main one of the windowed parse's, the helper
   * (to main's end) one of the whole parse's */
  static const char *const names[] = {"a", "main", "helper"};
  static const int expected[3][2] = {{1, 1}, {0, 1}, {1, 0}};
  for (int n = 0; n < 3; n++) {
    vxp_range at[2];
    for (int w = 0; w < 2; w++) {
      const vxp_program *p = w ? windowed : whole;
      int found = 0;
      for (size_t i = 0; i < vxp_program_item_count(p); i++) {
        if (strcmp(vxp_program_item_name(p, i), names[n]) != 0) continue;
        found++;
        at[w] = vxp_program_item_range(p, i);
      }
      assert_int_equal(found, expected[n][w]);
    }
    if (n == 0) {
      assert_int_equal(at[0].start_byte, at[1].start_byte);
      assert_int_equal(at[0].end_byte, at[1].end_byte);
    }
    if (n == 2) assert_int_equal(at[0].end_byte, strlen(helper_text) - 1);
  }
  for (int w = 0; w < 2; w++)
    assert_false(admitted(ctx, w ? windowed : whole, NULL));
  vxp_program_free(windowed);
  vxp_program_free(whole);
  vxp_source_free(src);
  vxp_machine_free(a100);
  vxp_context_free(ctx);
}

/* The S-expression of `text` parsed alone, as a fresh source, without the root's "(source_file"
 * and ")" (`children`), or whole. */
static char *alone(vxp_context *ctx, const char *text, size_t len, bool children) {
  vxp_source *src;
  vxp_program *prog;
  assert_int_equal(vxp_source_new(&src, ctx, "window.vx", text, len), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  const char *tree = vxp_program_sexp(prog);
  assert_non_null(tree);
  char *out;
  if (children) {
    assert_true(strncmp(tree, "(source_file", 12) == 0);
    out = strndup(tree + 12, strlen(tree) - 13);
  } else {
    out = strdup(tree);
  }
  vxp_program_free(prog);
  vxp_source_free(src);
  return out;
}

/* vxp_program_write_sexp of a text with windows with errors (`vxpeak parse`) writes each
 * window's tree as parsed alone: the children of the windows' roots in order inside one
 * "(source_file ...)", and a window whose root is an ERROR node (an item left open at the
 * end) as that node, a child. Neither is the whole tree here. */
static void test_window__a_window_with_a_syntax_error_is_written_as_parsed_alone(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  char text[512];
  int len = snprintf(text, sizeof(text), "%sfn f() -> i32 { let a: A<A<A<A<\n", helper_text);
  vxp_source *src;
  assert_int_equal(vxp_source_new(&src, ctx, "written.vx", text, (size_t)len), VXP_OK);
  vxp_program *whole, *windowed, *kept;
  parse_both(ctx, src, &whole, &windowed);
  assert_int_equal(windowed->windows, 4);
  assert_int_equal(windowed->error_windows, 2);
  ctx->parse_window = 1;
  assert_int_equal(
      vxp_program_parse_flags(&kept, ctx, src, VXP_PROGRAM_NO_TREE | VXP_PROGRAM_KEEP_WHOLE_TREE),
      VXP_OK);
  ctx->parse_window = 0;
  assert_null(kept->tree);
  /* the windows: after each item's closing brace */
  const char *cut[5] = {text, strstr(text, "\nfn helper"), strstr(text, "\nfn main"),
                        strstr(text, "\nfn f"), text + len};
  char *expected = strdup("(source_file");
  for (int k = 0; k < 4; k++) {
    char *piece = alone(ctx, cut[k], (size_t)(cut[k + 1] - cut[k]), k < 3);
    if (k == 3) assert_true(strncmp(piece, "(ERROR ", 7) == 0);
    size_t n = strlen(expected);
    expected = realloc(expected, n + strlen(piece) + 3);
    sprintf(expected + n, "%s%s", k == 3 ? " " : "", piece);
    free(piece);
  }
  strcat(expected, ")");
  for (int p = 0; p < 2; p++) {
    char *w = written_sexp(ctx, p ? kept : windowed, 1);
    assert_string_equal(w, expected);
    assert_string_not_equal(w, vxp_program_sexp(whole));
    free(w);
  }
  /* the whole parse's root is the ERROR node here */
  assert_true(strncmp(vxp_program_sexp(whole), "(ERROR ", 7) == 0);
  free(expected);
  vxp_program_free(kept);
  vxp_program_free(windowed);
  vxp_program_free(whole);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

/* A broken text that has no window boundary (an item left open before the others) or that
 * VXP0003 cuts is parsed whole, as before: the same program as vxp_program_parse's, and with
 * VXP_PROGRAM_KEEP_WHOLE_TREE its tree kept. */
static void test_window__a_text_without_boundaries_or_cut_is_parsed_whole(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_machine *a100;
  assert_int_equal(vxp_machine_builtin(&a100, ctx, "a100-40"), VXP_OK);
  static const char open[] = "fn a() -> i32 {\n  return 0;\n"
                             "fn b() -> i32 { return 0; }\nfn c() -> i32 { return 0; }\n";
  char cut[12000];
  int n = snprintf(cut, sizeof(cut), "fn a() -> i32 { return 0; }\nfn b() -> i32 { let x = ");
  for (int i = 0; i < VXP_MAX_BRACKET_DEPTH + 10; i++)
    cut[n++] = '(';
  cut[n] = '\0';
  const char *texts[] = {open, cut};
  for (int t = 0; t < 2; t++) {
    vxp_source *src;
    assert_int_equal(vxp_source_new(&src, ctx, "whole.vx", texts[t], strlen(texts[t])), VXP_OK);
    assert_int_equal(compare(ctx, a100, src, NULL), 0);
    vxp_program *whole, *windowed;
    parse_both(ctx, src, &whole, &windowed);
    assert_int_equal(windowed->windows, 0);
    assert_int_equal(windowed->error_windows, 0);
    size_t count = vxp_program_diagnostic_count(windowed);
    assert_true(count > 0);
    assert_int_equal(count, vxp_program_diagnostic_count(whole));
    assert_string_equal(vxp_diagnostic_code(vxp_program_diagnostic(windowed, count - 1)),
                        t ? "VXP0003" : "VXP0001");
    vxp_program_free(windowed);
    vxp_program_free(whole);
    vxp_source_free(src);
  }
  vxp_machine_free(a100);
  vxp_context_free(ctx);
}

/* What keeps a tree is not windowed, errors or not: vxp_program_parse (the language server's
 * and the incremental path's) parses whole whatever the window, and a reparse of a program
 * parsed in windows with errors parses afresh, whole, giving the whole parse's program. */
static void test_window__a_reparse_of_a_windowed_text_with_errors_is_a_whole_parse(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *src;
  assert_int_equal(vxp_source_new(&src, ctx, "helper.vx", helper_text, strlen(helper_text)),
                   VXP_OK);
  vxp_program *whole, *windowed, *tree, *again;
  parse_both(ctx, src, &whole, &windowed);
  assert_int_equal(windowed->error_windows, 1);
  ctx->parse_window = 1;
  assert_int_equal(vxp_program_parse(&tree, ctx, src), VXP_OK);
  assert_int_equal(vxp_program_reparse(&again, ctx, windowed, src), VXP_OK);
  ctx->parse_window = 0;
  const vxp_program *fresh[] = {tree, again};
  for (int p = 0; p < 2; p++) {
    assert_non_null(fresh[p]->tree);
    assert_int_equal(fresh[p]->windows, 0);
    assert_int_equal(fresh[p]->error_windows, 0);
    assert_int_equal(vxp_program_diagnostic_count(fresh[p]), 2);
    for (size_t i = 0; i < 2; i++)
      assert_true(
          same_diagnostic(vxp_program_diagnostic(whole, i), vxp_program_diagnostic(fresh[p], i)));
  }
  vxp_program_free(again);
  vxp_program_free(tree);
  vxp_program_free(windowed);
  vxp_program_free(whole);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_window__every_program_of_the_repository_lowers_the_same),
      cmocka_unit_test(test_window__facts_that_cross_windows_are_the_same),
      cmocka_unit_test(test_window__a_syntax_error_in_one_window_keeps_the_text_windowed),
      cmocka_unit_test(test_window__a_syntax_error_in_every_window_is_reported_in_each),
      cmocka_unit_test(test_window__a_window_with_a_syntax_error_is_parsed_alone),
      cmocka_unit_test(test_window__a_window_with_a_syntax_error_is_written_as_parsed_alone),
      cmocka_unit_test(test_window__a_text_without_boundaries_or_cut_is_parsed_whole),
      cmocka_unit_test(test_window__a_reparse_of_a_windowed_text_with_errors_is_a_whole_parse),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
