/* SPDX-License-Identifier: Apache-2.0 */
/* test_syntax.c - syntax diagnostics (VXP0001) and error recovery: where the error is, what
 * was unexpected or missing, and that later items are still analysed. */
#include "support.h"

/* Parse `text`; the caller frees the program, source and context. */
static vxp_program *parse_text(vxp_context *ctx, vxp_source **src, const char *text) {
  vxp_program *prog = NULL;
  assert_int_equal(vxp_source_new(src, ctx, "t.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, *src), VXP_OK);
  return prog;
}

/* The i-th VXP0001 diagnostic of `prog`, or NULL. */
static const vxp_diagnostic *syntax_diag(const vxp_program *prog, size_t i) {
  for (size_t k = 0; k < vxp_program_diagnostic_count(prog); k++) {
    const vxp_diagnostic *d = vxp_program_diagnostic(prog, k);
    if (strcmp(vxp_diagnostic_code(d), "VXP0001") == 0 && i-- == 0) return d;
  }
  return NULL;
}

static void expect_diag(const char *text, uint32_t line, uint32_t column, const char *part) {
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = parse_text(ctx, &src, text);
  const vxp_diagnostic *d = syntax_diag(prog, 0);
  assert_non_null(d);
  assert_true(vxp_diagnostic_has_range(d));
  vxp_range r = vxp_diagnostic_range(d);
  const char *msg = vxp_diagnostic_message(d);
  if (r.start.line != line || r.start.column != column || !strstr(msg, part))
    fail_msg("got %u:%u \"%s\", expected %u:%u containing \"%s\"", r.start.line, r.start.column,
             msg, line, column, part);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

static void test_syntax__a_missing_token_is_named_with_its_position(void **state) {
  (void)state;
  /* 0-based: line 1, column 11 is where the `;` should have been. */
  expect_diag("fn f() -> i32 {\n  let a = 1\n  return a;\n}\n", 1, 11, "missing ';'");
}

static void test_syntax__an_unexpected_token_is_quoted_with_what_was_expected(void **state) {
  (void)state;
  expect_diag("fn g(a i32) -> i32 { return 1; }\n", 0, 5,
              "unexpected 'a' in a parameter list; expected `NAME : TYPE`");
  expect_diag("fn f() -> i32 { return 0; }\nlet x = 1;\n", 1, 0,
              "unexpected 'let' in the top level; expected an item");
}

static void test_syntax__foreign_syntax_says_what_vx_writes_instead(void **state) {
  (void)state;
  expect_diag("/* c */\nfn f() -> i32 { return 0; }\n", 0, 0, "no block comments");
  expect_diag("#[inline]\nfn f() -> i32 { return 0; }\n", 0, 0, "no attributes");
  expect_diag("fn f() -> i32 {\n  let c = 'a';\n  return 0;\n}\n", 1, 10, "no character literals");
  expect_diag("fn f() -> i32 {\n  print !(1);\n  return 0;\n}\n", 1, 8, "no space before `!`");
}

static void test_syntax__a_reserved_word_cannot_be_a_name(void **state) {
  (void)state;
  /* The grammar's keywords are contextual, so these parse as names; vxc's lexer refuses them. */
  expect_diag("fn f() -> i32 {\n  import(\"m.vx\");\n  return 0;\n}\n", 1, 2,
              "'import' is a reserved word");
  expect_diag("fn f() -> i32 {\n  let on = 1;\n  return on;\n}\n", 1, 6, "'on' is a reserved word");
}

/* vxc refuses a missing comma between struct fields and between enum variants (its
 * parser_struct_missing_comma.vx and parser_enum_missing_comma.vx) and between generic parameters.
 */
static void test_syntax__fields_and_variants_need_commas(void **state) {
  (void)state;
  expect_diag("struct Point {\n  x : i32 y : i32\n}\n", 1, 10, "syntax error");
  expect_diag("enum Option {\n  Some(i32) None\n}\n", 1, 12, "syntax error");
  expect_diag("fn f<T U>(x : T) -> i32 {\n  return 0;\n}\n", 0, 7, "syntax error");
}

/* The spellings replaced in Vx#353 are read, and refused with the one that replaced them. */
static void test_syntax__spellings_before_the_lowering_took_transfer_are_refused(void **state) {
  (void)state;
  expect_diag("impl transfer Memory::L2 -> Memory::SMEM {\n  fn f() -> i32 { return 0; }\n}\n", 0,
              0, "`impl Transfer<Memory::A, Memory::B> for Topology::X`");
  expect_diag("fn g<S: Topology, D: Topology>(x : i32) -> i32 where Transfer<S, D> {\n"
              "  return x;\n}\n",
              0, 53, "write `where Reachable<A, B>`");
  expect_diag("impl Transfer for Model {\n  fn m() -> i32 { return 0; }\n}\n", 0, 5,
              "implements `Relocatable`");
}

static void test_syntax__a_clean_program_has_no_syntax_diagnostic(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog =
      parse_text(ctx, &src, "fn f(a : i32) -> i32 {\n  while a > 0 { a -= 1; }\n  a << 2\n}\n");
  assert_null(syntax_diag(prog, 0));
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

/* Error recovery keeps the rest of the file: a function broken in its middle does not stop
 * the next function's working set from being computed (E6010 there) or its own earlier
 * statements from counting. */
static void test_syntax__a_broken_function_does_not_hide_later_functions(void **state) {
  (void)state;
  const char *text =
      TEST_MACHINE_4MIB "fn broken() -> i32 {\n"
                        "  let a = transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W);\n"
                        "  let b = (1 + ;\n"
                        "  print!(a);\n"
                        "  return 0;\n"
                        "}\n"
                        "struct S { x : i32 }\n"
                        "fn later() -> i32 {\n"
                        "  let c = transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W);\n"
                        "  let d = transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W);\n"
                        "  print!(c, d);\n"
                        "  return 0;\n"
                        "}\n";
  test_run r = test_analyse(text);
  assert_true(test_count_diag(r.an, "VXP0001") >= 1);
  assert_int_equal(test_count_diag(r.an, "E6010"), 1);
  const vxp_resident_set *later = test_resident(r.an, "later", "W");
  assert_non_null(later);
  assert_int_equal(vxp_resident_set_peak_bytes(later), 2 * 3145728);
  assert_non_null(test_resident(r.an, "broken", "W"));
  test_done(&r);
}

/* A `while` body releases what it places, like a `loop` body: two 3 MiB tiles, one in the
 * loop and one after it, never coexist in a 4 MiB space. */
static void test_syntax__a_while_body_releases_its_tiles(void **state) {
  (void)state;
  const char *text =
      TEST_MACHINE_4MIB "fn main() -> i32 {\n"
                        "  let mut k = 0;\n"
                        "  while k < 4 {\n"
                        "    let t = transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W);\n"
                        "    print!(t);\n"
                        "    k += 1;\n"
                        "  }\n"
                        "  let u = transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W);\n"
                        "  print!(u);\n"
                        "  return 0;\n"
                        "}\n";
  test_run r = test_analyse(text);
  const vxp_resident_set *rs = test_resident(r.an, "main", "W");
  assert_non_null(rs);
  assert_int_equal(vxp_resident_set_peak_bytes(rs), 3145728);
  assert_true(vxp_analysis_admitted(r.an));
  test_done(&r);
}

/* tree-sitter 0.20's parser aborts in free() when brackets are left open tens of
 * thousands deep (found by fuzzing). The text past VXP_MAX_BRACKET_DEPTH is not parsed:
 * VXP0003 says where, for programs and machine files alike, and nothing crashes. */
static void test_syntax__brackets_left_open_too_deep_stop_the_parse_not_the_process(void **state) {
  (void)state;
  const char *head = "fn main() -> i32 {\n";
  const char *step = "if x { let a = [";
  size_t steps = 40000, len = strlen(head) + steps * strlen(step);
  char *text = malloc(len + 1);
  assert_non_null(text);
  strcpy(text, head);
  for (size_t i = 0; i < steps; i++)
    memcpy(text + strlen(head) + i * strlen(step), step, strlen(step));
  text[len] = '\0';
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = parse_text(ctx, &src, text);
  const vxp_diagnostic *cut = NULL;
  for (size_t k = 0; k < vxp_program_diagnostic_count(prog); k++) {
    const vxp_diagnostic *d = vxp_program_diagnostic(prog, k);
    if (strcmp(vxp_diagnostic_code(d), "VXP0003") == 0) cut = d;
  }
  assert_non_null(cut);
  /* The open statements reach VXP_MAX_NESTED_TOKENS (4,096 tokens, 7 a step) before the
   * brackets reach VXP_MAX_BRACKET_DEPTH (two a step): the parse stops in step 585. */
  assert_non_null(
      strstr(vxp_diagnostic_message(cut), "more than 4096 tokens of statements left open"));
  uint32_t at = vxp_diagnostic_range(cut).start_byte;
  assert_true(at > strlen(head) + 584 * strlen(step) && at < strlen(head) + 586 * strlen(step));
  vxp_machine *m = NULL;
  assert_int_equal(vxp_machine_load(&m, ctx, src), VXP_OK);
  assert_true(vxp_machine_diagnostic_count(m) > 0);
  vxp_machine_free(m);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(text);
}

/* `head` followed by `step` repeated `n` times and `tail`; the caller frees it. */
static char *repeated(const char *head, const char *step, size_t n, const char *tail) {
  size_t len = strlen(head) + n * strlen(step) + strlen(tail);
  char *text = malloc(len + 1);
  assert_non_null(text);
  char *p = text;
  p += sprintf(p, "%s", head);
  for (size_t i = 0; i < n; i++)
    p += sprintf(p, "%s", step);
  sprintf(p, "%s", tail);
  return text;
}

/* The VXP0003 diagnostic of `prog`, or NULL. */
static const vxp_diagnostic *cut_diag(const vxp_program *prog) {
  for (size_t k = 0; k < vxp_program_diagnostic_count(prog); k++) {
    const vxp_diagnostic *d = vxp_program_diagnostic(prog, k);
    if (strcmp(vxp_diagnostic_code(d), "VXP0003") == 0) return d;
  }
  return NULL;
}

/* Deep unclosed nesting without a bracket (generics, comparisons, unary minus, stray text
 * between items) reached tree-sitter 0.20's 16-bit child count and corrupted the heap, or
 * took minutes in its error recovery; the parse now stops with VXP0003 where the open
 * statements, the item or the stray text grow too long (VXP_MAX_NESTED_TOKENS,
 * VXP_MAX_PENDING_TOKENS). */
static void
test_syntax__unclosed_nesting_of_any_form_stops_the_parse_not_the_process(void **state) {
  (void)state;
  static const char *const cases[][3] = {
      {"fn f() -> i32 { let a: ", "A<", "more than 4096 tokens of statements left open"},
      {"fn f() -> i32 { if x < ", "if x < ", "more than 4096 tokens of statements left open"},
      {"fn f() -> i32 { return ", "-", "more than 4096 tokens of statements left open"},
      {"fn f() -> i32 {\n", "  let a = b + c;\n", "more than 61440 tokens (from 1:1) does not end"},
      {"", "A<x; fn f() {} ", "of stray text"},
      {"", "const N: A<x; ", "of stray text"},
      {"x = (", "[ a ! b ] ", "of stray text"}, /* stray text inside an open bracket */
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    char *text = repeated(cases[c][0], cases[c][1], 40000, "\n");
    vxp_context *ctx = test_context();
    vxp_source *src = NULL;
    vxp_program *prog = parse_text(ctx, &src, text);
    const vxp_diagnostic *cut = cut_diag(prog);
    if (!cut) fail_msg("no VXP0003 for \"%s\" repeated", cases[c][1]);
    if (!strstr(vxp_diagnostic_message(cut), cases[c][2]))
      fail_msg("\"%s\" repeated: %s", cases[c][1], vxp_diagnostic_message(cut));
    vxp_machine *m = NULL;
    assert_int_equal(vxp_machine_load(&m, ctx, src), VXP_OK);
    vxp_machine_free(m);
    vxp_program_free(prog);
    vxp_source_free(src);
    vxp_context_free(ctx);
    free(text);
  }
}

/* Stray text is held to 4096 tokens at any bracket depth (random bytes leave brackets open;
 * 1 MB of them took minutes in error recovery, then corrupted tree-sitter's heap), up to the
 * next line that starts an item in column 0: a stray line before 2,000 functions cuts
 * nothing, and the same functions after 5,000 stray tokens in brackets are cut. */
static void test_syntax__stray_text_is_bounded_until_the_next_item_line(void **state) {
  (void)state;
  for (int junk = 0; junk < 2; junk++) {
    char *text = repeated(junk ? "let x = ((" : "let x = 1;\n", junk ? "[ a ! b ] " : "",
                          junk ? 1300 : 0, "");
    char *items = repeated(text, "fn f() -> i32 { return 1 + 2; }\n", 2000, "");
    vxp_context *ctx = test_context();
    vxp_source *src = NULL;
    vxp_program *prog = parse_text(ctx, &src, items);
    const vxp_diagnostic *cut = cut_diag(prog);
    if (junk) {
      assert_non_null(cut);
      assert_non_null(strstr(vxp_diagnostic_message(cut), "of stray text"));
      assert_int_equal(vxp_diagnostic_range(cut).start.line, 0); /* within the junk */
    } else if (cut) {
      fail_msg("a stray line cut the functions after it: %s", vxp_diagnostic_message(cut));
    }
    vxp_program_free(prog);
    vxp_source_free(src);
    vxp_context_free(ctx);
    free(items);
    free(text);
  }
}

/* Count of `needle` in `text`. */
static size_t occurrences(const char *text, const char *needle) {
  size_t n = 0;
  for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
    n++;
  return n;
}

/* A short stray text (a line of its own, or tokens in front of a function's `fn`) in a long
 * file ends at the next line that starts with an item keyword: every function after it is
 * parsed, and every syntax error stays on the stray's line or the function it spoiled. It
 * was cut with VXP0003 61,440 tokens later (bench_recovery: 26 of 119 errors reached past
 * their line). */
static void test_syntax__a_short_stray_text_ends_at_the_next_item_line(void **state) {
  (void)state;
  static const char *const strays[] = {"Memory::HBM\n", "}\n",    "{\n",        "transfer(",
                                       "let w = ",      "A<x;\n", "((((((((\n", "Memory ",
                                       "if x < \n",     "x\n",    "\"\n"};
  const char *fn = "fn f() -> i32 { let t = 1 + 2 + 3 + 4; return t; }\n"; /* 20 tokens */
  char *before = repeated("", fn, 10, ""), *after = repeated("", fn, 6000, "");
  for (size_t k = 0; k < sizeof(strays) / sizeof(strays[0]); k++) {
    size_t len = strlen(before) + strlen(strays[k]) + strlen(after);
    char *text = malloc(len + 1);
    assert_non_null(text);
    snprintf(text, len + 1, "%s%s%s", before, strays[k], after);
    vxp_context *ctx = test_context();
    vxp_source *src = NULL;
    vxp_program *prog = parse_text(ctx, &src, text);
    const vxp_diagnostic *cut = cut_diag(prog);
    if (cut) fail_msg("'%s': %s", strays[k], vxp_diagnostic_message(cut));
    assert_non_null(syntax_diag(prog, 0));
    for (size_t i = 0; i < vxp_program_diagnostic_count(prog); i++) {
      vxp_range r = vxp_diagnostic_range(vxp_program_diagnostic(prog, i));
      if (r.end.line > 11) fail_msg("'%s': an error reaches line %u", strays[k], r.end.line + 1);
    }
    const char *sexp = vxp_program_sexp(prog);
    assert_non_null(sexp);
    assert_true(occurrences(sexp, "(function_item") >= 6009);
    vxp_program_free(prog);
    vxp_source_free(src);
    vxp_context_free(ctx);
    free(text);
  }
  free(before);
  free(after);
}

/* A macro invocation's token trees take the item lines after it as tokens: error recovery
 * does not end there, so its brackets stay open across them, and stray text that holds one
 * is never taken to end. When it was, `m!((` before each of 20,000 functions aborted in
 * tree-sitter's free(), and 20 brackets before each of 3,000 functions reach the parser
 * uncut: 60,000 open brackets, far past VXP_MAX_BRACKET_DEPTH. */
static void test_syntax__stray_text_with_a_macro_invocation_keeps_its_bound(void **state) {
  (void)state;
  char *text = repeated("", "m!(((((((((((((((((((\nfn f() -> i32 { return 1; }\n", 3000, "");
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = parse_text(ctx, &src, text);
  const vxp_diagnostic *cut = cut_diag(prog);
  assert_non_null(cut);
  assert_true(vxp_diagnostic_range(cut).start.line < 2 * 3000 - 2);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(text);
}

/* Stray text is taken to end at item lines for VXP_MAX_PENDING_TOKENS of its tokens in all
 * (error recovery's work grows with the text it wraps), then bounds the rest as before:
 * 2,000 lines of 250 open brackets are parsed past their first 240 lines, and cut. */
static void test_syntax__stray_text_ends_at_item_lines_for_a_bounded_amount(void **state) {
  (void)state;
  char *line = repeated("", "(", 250, "\nfn f() -> i32 { return 1; }\n");
  char *text = repeated("", line, 2000, "");
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = parse_text(ctx, &src, text);
  const vxp_diagnostic *cut = cut_diag(prog);
  assert_non_null(cut);
  assert_true(vxp_diagnostic_range(cut).start.line > 2 * 240);
  assert_true(vxp_diagnostic_range(cut).start.line < 2 * 2000 - 2);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(text);
  free(line);
}

/* Many complete items, each short, are parsed whole: the token count restarts after each. */
static void test_syntax__many_complete_items_are_not_cut(void **state) {
  (void)state;
  char *text = repeated("", "const N: i32 = 1;\nfn f() -> i32 { return N + N; }\n", 20000, "");
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = parse_text(ctx, &src, text);
  assert_null(cut_diag(prog));
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(text);
}

/* A top-level macro invocation (`stamp!(i32 , 32);`, the way vxc's standard library stamps
 * its integer methods) is an item, not stray text: core/num.vx, 61,000 bytes of items
 * after its first invocation, was cut with VXP0003. */
static void test_syntax__top_level_macro_invocations_are_items(void **state) {
  (void)state;
  char *text = repeated("", "stamp!(i8 , 8 , -1);\nfn f() -> i32 { return N + N; }\n", 20000, "");
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = parse_text(ctx, &src, text);
  const vxp_diagnostic *cut = cut_diag(prog);
  if (cut) fail_msg("cut: %s", vxp_diagnostic_message(cut));
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(text);
}

/* The S-expression of a tree 4,000 levels deep (about the deepest the nesting limit lets
 * through) is written without recursion (tree-sitter's printer overflowed the stack on
 * 50,000), in tree-sitter's notation. */
static void test_syntax__a_very_deep_tree_prints_as_an_s_expression(void **state) {
  (void)state;
  char *text = repeated("fn f() -> i32 { return ", "-", 4000, "1; }\n");
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = parse_text(ctx, &src, text);
  const char *sexp = vxp_program_sexp(prog);
  assert_non_null(sexp);
  assert_non_null(strstr(sexp, "(source_file (function_item name: (identifier) parameters: "
                               "(parameters) return_type: (type_identifier) body: (block "
                               "(return_statement value: (unary_expression operand: "
                               "(unary_expression operand: "));
  size_t opens = 0, closes = 0;
  for (const char *p = sexp; *p; p++)
    opens += *p == '(', closes += *p == ')';
  assert_int_equal(opens, closes);
  assert_true(opens > 4000);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_syntax__a_missing_token_is_named_with_its_position),
      cmocka_unit_test(test_syntax__an_unexpected_token_is_quoted_with_what_was_expected),
      cmocka_unit_test(test_syntax__foreign_syntax_says_what_vx_writes_instead),
      cmocka_unit_test(test_syntax__a_reserved_word_cannot_be_a_name),
      cmocka_unit_test(test_syntax__fields_and_variants_need_commas),
      cmocka_unit_test(test_syntax__spellings_before_the_lowering_took_transfer_are_refused),
      cmocka_unit_test(test_syntax__a_clean_program_has_no_syntax_diagnostic),
      cmocka_unit_test(test_syntax__a_broken_function_does_not_hide_later_functions),
      cmocka_unit_test(test_syntax__a_while_body_releases_its_tiles),
      cmocka_unit_test(test_syntax__brackets_left_open_too_deep_stop_the_parse_not_the_process),
      cmocka_unit_test(test_syntax__unclosed_nesting_of_any_form_stops_the_parse_not_the_process),
      cmocka_unit_test(test_syntax__stray_text_is_bounded_until_the_next_item_line),
      cmocka_unit_test(test_syntax__a_short_stray_text_ends_at_the_next_item_line),
      cmocka_unit_test(test_syntax__stray_text_with_a_macro_invocation_keeps_its_bound),
      cmocka_unit_test(test_syntax__stray_text_ends_at_item_lines_for_a_bounded_amount),
      cmocka_unit_test(test_syntax__many_complete_items_are_not_cut),
      cmocka_unit_test(test_syntax__top_level_macro_invocations_are_items),
      cmocka_unit_test(test_syntax__a_very_deep_tree_prints_as_an_s_expression),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
