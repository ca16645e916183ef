/* SPDX-License-Identifier: Apache-2.0 */
/* test_reparse_window.c - a reparse that parses only the window of whole items around an
 * edit (lib/reparse_window.c): when it is taken, what it keeps, when it steps aside for the
 * whole tree's reparse, and that every program it makes is the one a fresh parse of the same
 * text gives (report, diagnostics, S-expression, CUDA). test_incremental holds it to the
 * same over long random edit sequences; these are the cases it must be seen to take. */
#include "support.h"

#include "analysis_data.h" /* white box: what an analysis took over ... */
#include "program.h"       /* ... which path a reparse took, and what it kept */

/* Declarations before and after the functions (a Memory, a transfer lowering), one function
 * in each window, blank lines between items. */
static const char base[] =
    "// test_reparse_window\n"
    "Memory CPU_DRAM {}\n"
    "Memory HBM { within: Memory::CPU_DRAM, capacity: 64 MiB, managed: explicit }\n"
    "Topology Dev {\n"
    "  arch: nvptx64, memory: Memory::HBM, visible: [Memory::HBM, Memory::SMEM],\n"
    "  transfer Memory::CPU_DRAM -> Memory::HBM : 31.5 GB/s,\n"
    "  transfer Memory::HBM -> Memory::SMEM copy_engine\n"
    "}\n"
    "\n"
    "const N : i64 = 256;\n"
    "\n"
    "fn leaf(x: i32) -> i32 {\n"
    "  let w = transfer(Tensor<f32, [N, N]>::uninit(), Memory::HBM);\n"
    "  for i in 0..4 {\n"
    "    let s = transfer(Tensor<f16, [64, 64]>::uninit(), Memory::HBM);\n"
    "    print(s);\n"
    "  }\n"
    "  print(w);\n"
    "  return x;\n"
    "}\n"
    "\n"
    "fn middle(x: i32) -> i32 {\n"
    "  let held = transfer(Tensor<f32, [N, 64]>::uninit(), Memory::HBM);\n"
    "  let r = leaf(x);\n"
    "  print(held);\n"
    "  return r;\n"
    "}\n"
    "\n"
    "fn main() -> i32 {\n"
    "  let a = transfer(Tensor<f32, [N, 32]>::uninit(), Memory::HBM);\n"
    "  let t = transfer(a, Memory::SMEM);\n"
    "  print(t);\n"
    "  return middle(1);\n"
    "}\n"
    "\n"
    "Memory SMEM { within: Memory::HBM, capacity: 1 MiB, managed: explicit }\n"
    "\n"
    "impl Transfer<Memory::HBM, Memory::SMEM> for Topology::Dev {\n"
    "  fn move_tile(src : &Tensor<f32, [64, 64]>, dst : &mut Tensor<f32, [64, 64]>) -> i32 {\n"
    "    for i in 0..raw::extent(src) {\n"
    "      raw::async_copy(dst, i, src, i);\n"
    "    }\n"
    "    raw::async_wait();\n"
    "    return 0;\n"
    "  }\n"
    "}\n";

/* An editor's session: each version's source, program and analysis, the earlier ones freed
 * as an editor frees them. */
typedef struct session {
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
  vxp_analysis *an;
} session;

static session open_session_flags(const char *text, unsigned int flags) {
  session s;
  s.ctx = test_context();
  assert_int_equal(vxp_source_new(&s.src, s.ctx, "w.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse_flags(&s.prog, s.ctx, s.src, flags), VXP_OK);
  assert_int_equal(vxp_analyze(&s.an, s.ctx, s.prog, NULL), VXP_OK);
  return s;
}

static session open_session(const char *text) { return open_session_flags(text, 0); }

static void close_session(session *s) {
  vxp_analysis_free(s->an);
  vxp_program_free(s->prog);
  vxp_source_free(s->src);
  vxp_context_free(s->ctx);
}

static char *dup_or_fail(const char *text) {
  assert_non_null(text);
  char *copy = strdup(text);
  assert_non_null(copy);
  return copy;
}

/* The new version's program and report must be a fresh parse's of the same text: the JSON
 * report (every diagnostic, peak and record), the program's own diagnostics, its items and
 * its S-expression. */
static void assert_as_fresh(session *s) {
  size_t len;
  const char *text = vxp_source_text(s->src, &len);
  vxp_source *fsrc;
  vxp_program *fresh;
  vxp_analysis *fan;
  assert_int_equal(vxp_source_new(&fsrc, s->ctx, "w.vx", text, len), VXP_OK);
  assert_int_equal(vxp_program_parse(&fresh, s->ctx, fsrc), VXP_OK);
  assert_int_equal(vxp_analyze(&fan, s->ctx, fresh, NULL), VXP_OK);
  char *a = dup_or_fail(vxp_analysis_json(s->an, NULL));
  char *b = dup_or_fail(vxp_analysis_json(fan, NULL));
  assert_string_equal(a, b);
  free(a);
  free(b);
  assert_int_equal(vxp_program_diagnostic_count(s->prog), vxp_program_diagnostic_count(fresh));
  for (size_t i = 0; i < vxp_program_diagnostic_count(fresh); i++) {
    const vxp_diagnostic *x = vxp_program_diagnostic(s->prog, i);
    const vxp_diagnostic *y = vxp_program_diagnostic(fresh, i);
    assert_string_equal(vxp_diagnostic_code(x), vxp_diagnostic_code(y));
    assert_string_equal(vxp_diagnostic_message(x), vxp_diagnostic_message(y));
    assert_int_equal(vxp_diagnostic_range(x).start_byte, vxp_diagnostic_range(y).start_byte);
    assert_int_equal(vxp_diagnostic_range(x).end_byte, vxp_diagnostic_range(y).end_byte);
  }
  assert_int_equal(vxp_program_item_count(s->prog), vxp_program_item_count(fresh));
  a = dup_or_fail(vxp_program_sexp(s->prog));
  b = dup_or_fail(vxp_program_sexp(fresh));
  assert_string_equal(a, b);
  free(a);
  free(b);
  vxp_analysis_free(fan);
  vxp_program_free(fresh);
  vxp_source_free(fsrc);
}

/* Replace the first occurrence of `what` (after `after`, when not NULL) with `with`,
 * reparse and analyse incrementally, and compare with a fresh parse. */
static void edit(session *s, const char *after, const char *what, const char *with) {
  const char *text = vxp_source_text(s->src, NULL);
  const char *from = after ? strstr(text, after) : text;
  assert_non_null(from);
  const char *at = strstr(from, what);
  assert_non_null(at);
  uint32_t start = (uint32_t)(at - text);
  vxp_source *next;
  vxp_program *prog;
  vxp_analysis *an;
  assert_int_equal(
      vxp_source_edit(&next, s->src, start, start + (uint32_t)strlen(what), with, strlen(with)),
      VXP_OK);
  assert_int_equal(vxp_program_reparse(&prog, s->ctx, s->prog, next), VXP_OK);
  assert_int_equal(vxp_analyze_incremental(&an, s->ctx, prog, s->an, NULL), VXP_OK);
  vxp_analysis_free(s->an);
  vxp_program_free(s->prog);
  vxp_source_free(s->src);
  s->src = next;
  s->prog = prog;
  s->an = an;
  assert_as_fresh(s);
}

/* Whether the last reparse parsed only a window, and which items it holds nodes of. */
static bool windowed(const session *s) {
  return s->prog->window_tree != NULL && s->prog->tree == NULL;
}

static void test_reparse_window__a_body_edit_parses_only_its_functions_window(void **state) {
  (void)state;
  session s = open_session(base);
  edit(&s, "fn leaf", "0..4", "0..5"); /* the first reparse after an open: the whole tree */
  assert_false(windowed(&s));
  assert_non_null(s.prog->tree);
  edit(&s, "fn leaf", "0..5", "0..16");
  assert_true(windowed(&s));
  assert_true(s.prog->spliced);
  assert_true(vxp_program_reused_tree(s.prog));
  /* It holds the nodes of the edited function only, and every item's record. */
  assert_int_equal(s.prog->top.len, 1);
  const vxp_top_item *it = &s.prog->items.items[s.prog->top_first];
  const char *text = vxp_source_text(s.src, NULL);
  assert_memory_equal(text + it->start, "fn leaf", 7);
  /* What changed: that function's extent, nothing outside it. */
  assert_true(vxp_program_changed_range_count(s.prog) >= 1);
  for (size_t i = 0; i < vxp_program_changed_range_count(s.prog); i++) {
    vxp_range r = vxp_program_changed_range(s.prog, i);
    assert_true(r.start_byte >= it->start && r.end_byte <= it->end);
  }
  /* The analysis took the other functions' walks over. */
  assert_true(s.an->functions_taken > 0);
  close_session(&s);
}

/* The items after an edit that changed the text's length are moved: their records (the
 * start of each function's body among them) must move too, or the next edit of one of them
 * would compare signatures at the wrong place and lower the whole program again. */
static void
test_reparse_window__edits_of_functions_one_after_another_all_parse_windows(void **state) {
  (void)state;
  session s = open_session(base);
  edit(&s, "fn leaf", "0..4", "0..44");
  edit(&s, "fn leaf", "0..44", "0..4444"); /* longer: every item after it moves */
  assert_true(windowed(&s));
  edit(&s, "fn middle", "[N, 64]", "[N, 128]");
  assert_true(windowed(&s));
  assert_true(s.prog->spliced);
  edit(&s, "fn main", "[N, 32]", "[N, 3]");
  assert_true(windowed(&s));
  assert_true(s.prog->spliced);
  edit(&s, "fn leaf", "0..4444", "0..4");
  assert_true(windowed(&s));
  assert_true(s.prog->spliced);
  close_session(&s);
}

static bool has_code(const vxp_analysis *an, const char *code) {
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(an); i++)
    if (strcmp(vxp_diagnostic_code(vxp_analysis_diagnostic(an, i)), code) == 0) return true;
  return false;
}

/* The declarations are read again from windows of their own: before the edit, after it (the
 * Memory and the transfer lowering at the end, moved by the edit), and a declaration that
 * shares the edit's window. */
static void
test_reparse_window__declarations_around_the_window_are_read_as_a_whole_read(void **state) {
  (void)state;
  session s = open_session(base);
  edit(&s, "fn main", "[N, 32]", "[N, 33]");
  edit(&s, "fn main", "[N, 33]", "[N, 32768]");
  assert_true(windowed(&s));
  assert_true(vxp_program_declares_machine(s.prog));
  /* its copy in SMEM (declared after the functions), 32 MiB: over SMEM's 1 MiB */
  assert_true(has_code(s.an, "E6009"));
  edit(&s, "fn main", "[N, 32768]", "[N, 32]");
  assert_true(windowed(&s));
  assert_false(has_code(s.an, "E6009"));
  close_session(&s);
}

/* What the window path leaves to the whole tree's reparse, each made as a fresh parse would
 * make it: a syntax error (and the repair after it), a signature the splice cannot take over
 * (generics added). A parameter renamed to a name the program never used is taken: the name
 * table is renumbered as a fresh lowering numbers it. */
static void test_reparse_window__what_it_cannot_show_goes_to_the_whole_tree(void **state) {
  (void)state;
  session s = open_session(base);
  edit(&s, "fn leaf", "0..4", "0..5");
  edit(&s, "fn leaf", "0..5", "0..6");
  assert_true(windowed(&s));
  edit(&s, "fn leaf", "print(w);", "print(w;"); /* a syntax error */
  assert_false(windowed(&s));
  assert_true(vxp_program_diagnostic_count(s.prog) > 0);
  edit(&s, "fn leaf", "print(w;", "print(w);"); /* repaired, from a tree with an error */
  assert_false(windowed(&s));
  edit(&s, "fn leaf", "0..6", "0..7");
  assert_true(windowed(&s));
  edit(&s, "fn middle", "x: i32", "y: i32"); /* y: a new name */
  assert_true(windowed(&s));
  edit(&s, "fn middle", "fn middle(", "fn middle<T>("); /* generics */
  assert_false(windowed(&s));
  close_session(&s);
}

/* A const's value is lowered from the window (its item alone) and every function walked
 * again; a declaration and a new item go to the whole tree. */
static void test_reparse_window__a_const_takes_a_window_declarations_and_new_items_the_whole_tree(
    void **state) {
  (void)state;
  session s = open_session(base);
  edit(&s, "fn leaf", "0..4", "0..5");
  edit(&s, "fn leaf", "0..5", "0..6");
  assert_true(windowed(&s));
  edit(&s, NULL, "const N : i64 = 256;", "const N : i64 = 512;");
  assert_true(windowed(&s));
  assert_true(s.prog->spliced);
  assert_int_equal(s.an->functions_taken, 0);
  edit(&s, "fn leaf", "0..6", "0..7");
  assert_true(windowed(&s));
  edit(&s, "Memory SMEM", "1 MiB", "2 MiB"); /* a declaration after the functions */
  assert_false(windowed(&s));
  edit(&s, "fn leaf", "0..7", "0..8");
  assert_true(windowed(&s));
  edit(&s, "fn middle", "fn middle", "fn extra() -> i32 {\n  return 0;\n}\n\nfn middle");
  assert_false(windowed(&s));
  edit(&s, "fn main", "[N, 32]", "[N, 31]");
  assert_true(windowed(&s));
  close_session(&s);
}

/* Several edits between two reparses (typing faster than the analysis) make one window
 * when they are in one function; in two functions far apart, the window spans both. */
static void test_reparse_window__several_edits_before_one_reparse(void **state) {
  (void)state;
  session s = open_session(base);
  edit(&s, "fn leaf", "0..4", "0..5");
  const char *text = vxp_source_text(s.src, NULL);
  uint32_t a = (uint32_t)(strstr(text, "0..5") - text);
  vxp_source *v1, *v2;
  assert_int_equal(vxp_source_edit(&v1, s.src, a + 3, a + 4, "6", 1), VXP_OK);
  text = vxp_source_text(v1, NULL);
  uint32_t b = (uint32_t)(strstr(text, "[N, 32]") - text);
  assert_int_equal(vxp_source_edit(&v2, v1, b + 4, b + 6, "31", 2), VXP_OK);
  vxp_program *prog;
  vxp_analysis *an;
  assert_int_equal(vxp_program_reparse(&prog, s.ctx, s.prog, v2), VXP_OK);
  assert_int_equal(vxp_analyze_incremental(&an, s.ctx, prog, s.an, NULL), VXP_OK);
  vxp_analysis_free(s.an);
  vxp_program_free(s.prog);
  vxp_source_free(s.src);
  vxp_source_free(v1);
  s.src = v2;
  s.prog = prog;
  s.an = an;
  assert_as_fresh(&s);
  assert_true(windowed(&s));
  assert_int_equal(s.prog->top.len, 3); /* leaf, middle and main: one window */
  close_session(&s);
}

/* A program parsed for editing (VXP_PROGRAM_FOR_EDITING) keeps what a reparse keeps: its
 * first edit is already reparsed from the window around it, and its analysis lends the
 * other functions' walks, where a plain parse's first edit lowers and walks everything. */
static void test_reparse_window__a_program_parsed_for_editing_reparses_its_first_edit_in_a_window(
    void **state) {
  (void)state;
  session s = open_session_flags(base, VXP_PROGRAM_FOR_EDITING);
  assert_non_null(s.prog->tree);
  assert_true(s.prog->items.len > 0);
  edit(&s, "fn leaf", "0..4", "0..5");
  assert_true(windowed(&s));
  assert_true(s.prog->spliced);
  assert_true(s.an->functions_taken > 0);
  close_session(&s);
  session plain = open_session(base);
  edit(&plain, "fn leaf", "0..4", "0..5");
  assert_false(windowed(&plain));
  assert_int_equal(plain.an->functions_taken, 0);
  close_session(&plain);
}

static void test_reparse_window__parsing_for_editing_needs_a_tree(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *src;
  vxp_program *prog = NULL;
  assert_int_equal(vxp_source_new(&src, ctx, "w.vx", base, strlen(base)), VXP_OK);
  assert_int_equal(
      vxp_program_parse_flags(&prog, ctx, src, VXP_PROGRAM_FOR_EDITING | VXP_PROGRAM_NO_TREE),
      VXP_EINVAL);
  assert_null(prog);
  assert_int_equal(vxp_context_errcode(ctx), VXP_EINVAL);
  assert_int_equal(vxp_program_parse_flags(&prog, ctx, src, 8u), VXP_EINVAL);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

/* A program a window reparse made keeps no whole tree: its S-expression (compared in
 * assert_as_fresh), streamed S-expression and CUDA are the text's parsed again. */
static void test_reparse_window__sexp_and_cuda_of_a_windowed_program_are_the_texts(void **state) {
  (void)state;
  session s = open_session(base);
  edit(&s, "fn leaf", "0..4", "0..5");
  edit(&s, "fn leaf", "0..5", "0..6");
  assert_true(windowed(&s));
  const char *sexp = vxp_program_sexp(s.prog);
  assert_non_null(sexp);
  assert_int_equal(strncmp(sexp, "(source_file", 12), 0);
  test_sink streamed = {0};
  assert_int_equal(vxp_program_write_sexp(s.prog, test_sink_write, &streamed), VXP_OK);
  assert_int_equal(streamed.len, strlen(sexp));
  assert_memory_equal(streamed.text, sexp, streamed.len);
  free(streamed.text);
  /* CUDA from the text parsed again, as from a fresh parse's tree */
  size_t len;
  const char *text = vxp_source_text(s.src, &len);
  vxp_source *fsrc;
  vxp_program *fresh;
  vxp_analysis *fan;
  assert_int_equal(vxp_source_new(&fsrc, s.ctx, "w.vx", text, len), VXP_OK);
  assert_int_equal(vxp_program_parse(&fresh, s.ctx, fsrc), VXP_OK);
  assert_int_equal(vxp_analyze(&fan, s.ctx, fresh, NULL), VXP_OK);
  vxp_cuda *a, *b;
  assert_int_equal(vxp_cuda_generate_flags(&a, s.ctx, s.an, VXP_CUDA_ALLOW_REJECTED), VXP_OK);
  assert_int_equal(vxp_cuda_generate_flags(&b, s.ctx, fan, VXP_CUDA_ALLOW_REJECTED), VXP_OK);
  const char *ta = vxp_cuda_text(a, NULL), *tb = vxp_cuda_text(b, NULL);
  assert_true((ta == NULL) == (tb == NULL));
  if (ta) assert_string_equal(ta, tb);
  assert_int_equal(vxp_cuda_diagnostic_count(a), vxp_cuda_diagnostic_count(b));
  vxp_cuda_free(a);
  vxp_cuda_free(b);
  vxp_analysis_free(fan);
  vxp_program_free(fresh);
  vxp_source_free(fsrc);
  close_session(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reparse_window__a_body_edit_parses_only_its_functions_window),
      cmocka_unit_test(test_reparse_window__edits_of_functions_one_after_another_all_parse_windows),
      cmocka_unit_test(
          test_reparse_window__declarations_around_the_window_are_read_as_a_whole_read),
      cmocka_unit_test(test_reparse_window__what_it_cannot_show_goes_to_the_whole_tree),
      cmocka_unit_test(
          test_reparse_window__a_const_takes_a_window_declarations_and_new_items_the_whole_tree),
      cmocka_unit_test(test_reparse_window__several_edits_before_one_reparse),
      cmocka_unit_test(test_reparse_window__sexp_and_cuda_of_a_windowed_program_are_the_texts),
      cmocka_unit_test(
          test_reparse_window__a_program_parsed_for_editing_reparses_its_first_edit_in_a_window),
      cmocka_unit_test(test_reparse_window__parsing_for_editing_needs_a_tree),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
