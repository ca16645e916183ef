/* SPDX-License-Identifier: Apache-2.0 */
/* test_editor.c - what a language server needs from sources and reparses: line starts,
 * LSP (UTF-16) positions to byte offsets and back, whether a reparse reused the old tree,
 * and the ranges a reparse changed. */
#include "support.h"

static void test_editor__line_starts_are_the_lines_first_bytes(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  static const char text[] = "fn a() {\n}\n\n// c\r\nlast";
  vxp_source *src;
  assert_int_equal(vxp_source_new(&src, ctx, "l.vx", text, strlen(text)), VXP_OK);
  size_t count = 0;
  const uint32_t *starts = vxp_source_line_starts(src, &count);
  const char *copy = vxp_source_text(src, NULL);
  assert_int_equal(count, vxp_source_line_count(src));
  assert_int_equal(count, 5);
  static const uint32_t expected[] = {0, 9, 11, 12, 18};
  for (size_t i = 0; i < count; i++) {
    assert_int_equal(starts[i], expected[i]);
    size_t len;
    assert_ptr_equal(vxp_source_line(src, (uint32_t)i, &len), copy + starts[i]);
  }
  assert_null(vxp_source_line_starts(NULL, &count));
  vxp_source_free(src);
  vxp_context_free(ctx);
}

/* "é" is 2 bytes and 1 UTF-16 unit, "€" 3 bytes and 1 unit, "😀" 4 bytes and 2 units. */
static void test_editor__utf16_positions_convert_to_byte_offsets_and_back(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  static const char text[] = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80z\nsecond\n";
  vxp_source *src;
  assert_int_equal(vxp_source_new(&src, ctx, "u.vx", text, strlen(text)), VXP_OK);
  /* UTF-16 column -> byte offset on line 0: a=0, é=1, €=3, 😀=6, z=10, end=11 */
  static const uint32_t utf16[] = {0, 1, 2, 3, 5, 6};
  static const uint32_t bytes[] = {0, 1, 3, 6, 10, 11};
  for (size_t i = 0; i < sizeof(utf16) / sizeof(utf16[0]); i++) {
    assert_int_equal(vxp_source_utf16_offset(src, 0, utf16[i]), bytes[i]);
    vxp_point p = vxp_source_point(src, bytes[i]);
    assert_int_equal(p.line, 0);
    assert_int_equal(p.column, bytes[i]);
    assert_int_equal(vxp_source_utf16_column(src, p), utf16[i]);
  }
  /* clamping as LSP does */
  assert_int_equal(vxp_source_utf16_offset(src, 0, 4), 6);   /* inside the surrogate pair */
  assert_int_equal(vxp_source_utf16_offset(src, 0, 99), 11); /* past the end: before '\n' */
  assert_int_equal(vxp_source_utf16_offset(src, 1, 3), 15);
  assert_int_equal(vxp_source_utf16_offset(src, 2, 0), strlen(text)); /* after the last '\n' */
  assert_int_equal(vxp_source_utf16_offset(src, 40, 7), strlen(text));
  vxp_point second = vxp_source_point(src, 15);
  assert_int_equal(second.line, 1);
  assert_int_equal(second.column, 3);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

static const char program[] = "fn first() -> i32 {\n"
                              "  let a = 1;\n"
                              "  return a;\n"
                              "}\n"
                              "\n"
                              "fn second() -> i32 {\n"
                              "  return 2;\n"
                              "}\n";

typedef struct editor_run {
  vxp_context *ctx;
  vxp_source *src, *edited;
  vxp_program *prog, *reparsed;
} editor_run;

static editor_run reparse_after(uint32_t start, uint32_t old_end, const char *text) {
  editor_run r;
  r.ctx = test_context();
  assert_int_equal(vxp_source_new(&r.src, r.ctx, "p.vx", program, strlen(program)), VXP_OK);
  assert_int_equal(vxp_program_parse(&r.prog, r.ctx, r.src), VXP_OK);
  assert_int_equal(vxp_source_edit(&r.edited, r.src, start, old_end, text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_reparse(&r.reparsed, r.ctx, r.prog, r.edited), VXP_OK);
  return r;
}

static void editor_done(editor_run *r) {
  vxp_program_free(r->reparsed);
  vxp_program_free(r->prog);
  vxp_source_free(r->edited);
  vxp_source_free(r->src);
  vxp_context_free(r->ctx);
}

static void test_editor__a_fresh_parse_changes_everything_and_reuses_nothing(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *src, *other;
  vxp_program *prog, *again;
  assert_int_equal(vxp_source_new(&src, ctx, "p.vx", program, strlen(program)), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_int_equal(vxp_program_reused_tree(prog), 0);
  assert_int_equal(vxp_program_changed_range_count(prog), 1);
  vxp_range all = vxp_program_changed_range(prog, 0);
  assert_int_equal(all.start_byte, 0);
  assert_int_equal(all.end_byte, strlen(program));
  /* a source that is not an edit of the program's own is parsed from scratch */
  assert_int_equal(vxp_source_new(&other, ctx, "p.vx", program, strlen(program)), VXP_OK);
  assert_int_equal(vxp_program_reparse(&again, ctx, prog, other), VXP_OK);
  assert_int_equal(vxp_program_reused_tree(again), 0);
  assert_int_equal(vxp_program_changed_range_count(again), 1);
  vxp_range none = vxp_program_changed_range(again, 1);
  assert_int_equal(none.end_byte, 0);
  vxp_program_free(again);
  vxp_program_free(prog);
  vxp_source_free(other);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

static void test_editor__a_renamed_identifier_is_the_only_change(void **state) {
  (void)state;
  const char *at = strstr(program, "return a;") + 7;
  uint32_t start = (uint32_t)(at - program);
  editor_run r = reparse_after(start, start + 1, "a + 1");
  assert_int_equal(vxp_program_reused_tree(r.reparsed), 1);
  assert_true(vxp_program_changed_range_count(r.reparsed) >= 1);
  /* every change lies in the first function, and the edited text is covered */
  uint32_t first_end = (uint32_t)(strstr(program, "}\n") - program) + 1 + 4;
  int covered = 0;
  for (size_t i = 0; i < vxp_program_changed_range_count(r.reparsed); i++) {
    vxp_range c = vxp_program_changed_range(r.reparsed, i);
    assert_true(c.end_byte <= first_end);
    assert_true(c.start_byte <= c.end_byte);
    if (c.start_byte <= start && c.end_byte >= start + 5) covered = 1;
    assert_int_equal(c.start.line, vxp_source_point(r.edited, c.start_byte).line);
  }
  assert_true(covered);
  editor_done(&r);
}

static void test_editor__a_new_item_is_a_change_and_the_other_items_are_not(void **state) {
  (void)state;
  uint32_t blank = (uint32_t)(strstr(program, "\n\n") - program) + 1;
  static const char item[] = "const N : i64 = 4;\n";
  editor_run r = reparse_after(blank, blank, item);
  assert_int_equal(vxp_program_reused_tree(r.reparsed), 1);
  size_t n = vxp_program_changed_range_count(r.reparsed);
  assert_true(n >= 1);
  vxp_range first = vxp_program_changed_range(r.reparsed, 0);
  vxp_range last = vxp_program_changed_range(r.reparsed, n - 1);
  assert_true(first.start_byte >= blank - 1);
  assert_true(first.start_byte <= blank);
  assert_true(last.end_byte >= blank + strlen(item));
  /* `second` starts after the change and is untouched */
  size_t len;
  const char *text = vxp_source_text(r.edited, &len);
  uint32_t second = (uint32_t)(strstr(text, "fn second") - text);
  assert_true(last.end_byte <= second);
  editor_done(&r);
}

/* Five functions with comments between them, edited twice in a row (the second reparse's
 * older program is itself a reparse, which keeps its top-level nodes) at `needle` (which
 * must be in it once): the changed ranges of each reparse, checked to lie in [lo, hi) of
 * the edited text, which must cover the edit. */
static const char five[] = "fn f1() -> i32 {\n  return 1;\n}\n\n// between one and two\n"
                           "fn f2() -> i32 {\n  return 2;\n}\n\n"
                           "fn f3() -> i32 {\n  let x = 3;\n  return x;\n}\n\n"
                           "/// the fourth\nfn f4() -> i32 {\n  return 4;\n}\n\n"
                           "fn f5() -> i32 {\n  return 5;\n}\n";

static void changes_lie_within(const vxp_program *p, const vxp_source *src, const char *lo,
                               const char *hi, uint32_t edit_start, uint32_t edit_end) {
  const char *text = vxp_source_text(src, NULL);
  uint32_t from = (uint32_t)(strstr(text, lo) - text);
  uint32_t to = (uint32_t)(strstr(text, hi) - text);
  size_t n = vxp_program_changed_range_count(p);
  assert_true(n >= 1);
  int covered = 0;
  for (size_t i = 0; i < n; i++) {
    vxp_range c = vxp_program_changed_range(p, i);
    assert_true(c.start_byte >= from);
    assert_true(c.end_byte <= to);
    if (c.start_byte <= edit_start && c.end_byte >= edit_end) covered = 1;
  }
  assert_true(covered);
}

static void test_editor__only_the_items_an_edit_reparsed_are_changed(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *v0, *v1, *v2, *v3;
  vxp_program *p0, *p1, *p2, *p3;
  assert_int_equal(vxp_source_new(&v0, ctx, "f.vx", five, strlen(five)), VXP_OK);
  assert_int_equal(vxp_program_parse(&p0, ctx, v0), VXP_OK);
  /* in f3's body: only f3 changes, not the comments or the other functions */
  uint32_t three = (uint32_t)(strstr(five, "let x = 3") - five) + 8;
  assert_int_equal(vxp_source_edit(&v1, v0, three, three + 1, "33", 2), VXP_OK);
  assert_int_equal(vxp_program_reparse(&p1, ctx, p0, v1), VXP_OK);
  assert_int_equal(vxp_program_reused_tree(p1), 1);
  changes_lie_within(p1, v1, "fn f3", "\n\n/// the fourth", three, three + 2);
  /* again, from the reparse: the same */
  assert_int_equal(vxp_source_edit(&v2, v1, three, three + 2, "333", 3), VXP_OK);
  assert_int_equal(vxp_program_reparse(&p2, ctx, p1, v2), VXP_OK);
  assert_int_equal(vxp_program_reused_tree(p2), 1);
  changes_lie_within(p2, v2, "fn f3", "\n\n/// the fourth", three, three + 3);
  /* inside the comment between f1 and f2: the comment, not the functions */
  const char *t2 = vxp_source_text(v2, NULL);
  uint32_t word = (uint32_t)(strstr(t2, "one and") - t2);
  assert_int_equal(vxp_source_edit(&v3, v2, word, word + 3, "uno", 3), VXP_OK);
  assert_int_equal(vxp_program_reparse(&p3, ctx, p2, v3), VXP_OK);
  assert_int_equal(vxp_program_reused_tree(p3), 1);
  changes_lie_within(p3, v3, "// between", "fn f2", word, word + 3);
  vxp_program_free(p3);
  vxp_program_free(p2);
  vxp_program_free(p1);
  vxp_program_free(p0);
  vxp_source_free(v3);
  vxp_source_free(v2);
  vxp_source_free(v1);
  vxp_source_free(v0);
  vxp_context_free(ctx);
}

/* Two edits before one reparse: the first edit's text is carried through the second. */
static void test_editor__changes_of_several_edits_are_carried_to_the_last_version(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *v0, *v1, *v2;
  vxp_program *p0, *p2;
  assert_int_equal(vxp_source_new(&v0, ctx, "p.vx", program, strlen(program)), VXP_OK);
  assert_int_equal(vxp_program_parse(&p0, ctx, v0), VXP_OK);
  uint32_t two = (uint32_t)(strstr(program, "return 2;") - program) + 7;
  assert_int_equal(vxp_source_edit(&v1, v0, two, two + 1, "222", 3), VXP_OK);
  /* then ten bytes inserted near the top shift that text right */
  assert_int_equal(vxp_source_edit(&v2, v1, 0, 0, "// header\n", 10), VXP_OK);
  assert_int_equal(vxp_program_reparse(&p2, ctx, p0, v2), VXP_OK);
  assert_int_equal(vxp_program_reused_tree(p2), 1);
  int header = 0, number = 0;
  for (size_t i = 0; i < vxp_program_changed_range_count(p2); i++) {
    vxp_range c = vxp_program_changed_range(p2, i);
    if (c.start_byte == 0 && c.end_byte >= 10) header = 1;
    if (c.start_byte <= two + 10 && c.end_byte >= two + 13) number = 1;
  }
  assert_true(header);
  assert_true(number);
  vxp_program_free(p2);
  vxp_program_free(p0);
  vxp_source_free(v2);
  vxp_source_free(v1);
  vxp_source_free(v0);
  vxp_context_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_editor__line_starts_are_the_lines_first_bytes),
      cmocka_unit_test(test_editor__utf16_positions_convert_to_byte_offsets_and_back),
      cmocka_unit_test(test_editor__a_fresh_parse_changes_everything_and_reuses_nothing),
      cmocka_unit_test(test_editor__a_renamed_identifier_is_the_only_change),
      cmocka_unit_test(test_editor__a_new_item_is_a_change_and_the_other_items_are_not),
      cmocka_unit_test(test_editor__only_the_items_an_edit_reparsed_are_changed),
      cmocka_unit_test(test_editor__changes_of_several_edits_are_carried_to_the_last_version),
  };
  return cmocka_run_group_tests_name("editor", tests, NULL, NULL);
}
