/* SPDX-License-Identifier: Apache-2.0 */
/* test_edit.c - source versions and incremental reparsing: an edited source is the same
 * as one made from the edited text, a reparsed program is the same as a parsed one, and
 * the old tree's unchanged subtrees are really reused. */
#include "support.h"

#include <tree_sitter/api.h>

#include "program.h"
#include "source.h" /* white box: the span of a run of edits */

/* A deterministic generator, so a failure reproduces. */
static uint32_t next_random(uint32_t *state) {
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

/* Apply the same edit to a plain buffer (the oracle). */
static size_t apply(char *buf, size_t len, size_t start, size_t old_end, const char *text,
                    size_t text_len) {
  memmove(buf + start + text_len, buf + old_end, len - old_end);
  memcpy(buf + start, text, text_len);
  return len - (old_end - start) + text_len;
}

static void expect_same_lines(const vxp_source *edited, const vxp_source *fresh) {
  size_t a_len, b_len;
  const char *a = vxp_source_text(edited, &a_len), *b = vxp_source_text(fresh, &b_len);
  assert_int_equal(a_len, b_len);
  assert_memory_equal(a, b, a_len);
  assert_int_equal(a[a_len], '\0');
  assert_int_equal(vxp_source_line_count(edited), vxp_source_line_count(fresh));
  for (uint32_t i = 0; i <= vxp_source_line_count(fresh); i++) {
    size_t la = 0, lb = 0;
    const char *x = vxp_source_line(edited, i, &la), *y = vxp_source_line(fresh, i, &lb);
    assert_true((x == NULL) == (y == NULL));
    if (!x) continue;
    assert_int_equal(la, lb);
    assert_int_equal(x - a, y - b); /* the same line starts */
  }
}

static void test_edit__line_index_matches_a_source_made_from_the_text(void **state) {
  (void)state;
  static const char *const pieces[] = {
      "", "\n", "\n\n", "x", "ab\ncd", "\r\n", "tail\n", "\xc3\xa9\n", "lo\nng\nli\nnes\n"};
  vxp_context *ctx = test_context();
  char buf[4096] = "first line\nsecond\n\nfourth\nlast";
  size_t len = strlen(buf);
  vxp_source *src;
  assert_int_equal(vxp_source_new(&src, ctx, "e.vx", buf, len), VXP_OK);
  uint32_t seed = 12345;
  for (int round = 0; round < 2000; round++) {
    size_t start = len ? next_random(&seed) % (len + 1) : 0;
    size_t old_end = start + (len - start ? next_random(&seed) % (len - start + 1) : 0);
    if (next_random(&seed) % 4 == 0) old_end = start; /* pure insertions */
    if (len > 2000) old_end = len;                    /* keep the buffer bounded */
    const char *ins = pieces[next_random(&seed) % VXP__ARRAY_LEN(pieces)];
    vxp_source *edited;
    assert_int_equal(
        vxp_source_edit(&edited, src, (uint32_t)start, (uint32_t)old_end, ins, strlen(ins)),
        VXP_OK);
    len = apply(buf, len, start, old_end, ins, strlen(ins));
    vxp_source *fresh;
    assert_int_equal(vxp_source_new(&fresh, ctx, "e.vx", buf, len), VXP_OK);
    expect_same_lines(edited, fresh);
    assert_string_equal(vxp_source_label(edited), "e.vx");
    vxp_source_free(fresh);
    vxp_source_free(src); /* the new version does not borrow the old one */
    src = edited;
  }
  vxp_source_free(src);
  vxp_context_free(ctx);
}

static void test_edit__bad_ranges_are_einval(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *src, *out = NULL;
  assert_int_equal(vxp_source_new(&src, ctx, "e.vx", "abc\n", 4), VXP_OK);
  assert_int_equal(vxp_source_edit(&out, src, 3, 2, "x", 1), VXP_EINVAL);
  assert_non_null(strstr(vxp_context_errmsg(ctx), "[3, 2)"));
  assert_int_equal(vxp_source_edit(&out, src, 0, 5, "x", 1), VXP_EINVAL);
  assert_int_equal(vxp_context_errcode(ctx), VXP_EINVAL);
  assert_int_equal(vxp_source_edit(&out, src, 0, 1, NULL, 1), VXP_EINVAL);
  assert_int_equal(vxp_source_edit(NULL, src, 0, 1, "x", 1), VXP_EINVAL);
  assert_int_equal(vxp_source_edit(&out, NULL, 0, 1, "x", 1), VXP_EINVAL);
  assert_null(out);
  /* An empty edit at the very end is valid, and NULL text with length 0 is fine. */
  assert_int_equal(vxp_source_edit(&out, src, 4, 4, NULL, 0), VXP_OK);
  vxp_source_free(out);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

/* ------------------------------------------------------------------ reparsing */

static const char base_program[] =
    "Memory CPU_DRAM {}\n"
    "Memory W { within: Memory::CPU_DRAM, capacity: 4 MiB, managed: explicit }\n"
    "fn first() -> i32 {\n"
    "  let a = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W);\n"
    "  print(a);\n"
    "  return 0;\n"
    "}\n"
    "fn main() -> i32 {\n"
    "  for i in 0..4 {\n"
    "    let s = transfer(Tensor<f32, [256, 256]>::uninit(), Memory::W);\n"
    "    print(s);\n"
    "  }\n"
    "  return 0;\n"
    "}\n";

/* The analysis JSON of `prog` (a copy the caller frees). */
static char *report_of(vxp_context *ctx, const vxp_program *prog) {
  vxp_analysis *an;
  assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
  const char *json = vxp_analysis_json(an, NULL);
  assert_non_null(json);
  char *copy = strdup(json);
  vxp_analysis_free(an);
  return copy;
}

/* `prog` (reparsed) has the tree and the report a fresh parse of its source gives. */
static void expect_same_as_fresh_parse(vxp_context *ctx, vxp_program *prog) {
  vxp_program *fresh;
  assert_int_equal(vxp_program_parse(&fresh, ctx, vxp_program_source(prog)), VXP_OK);
  assert_string_equal(vxp_program_sexp(prog), vxp_program_sexp(fresh));
  assert_int_equal(vxp_program_diagnostic_count(prog), vxp_program_diagnostic_count(fresh));
  char *a = report_of(ctx, prog), *b = report_of(ctx, fresh);
  assert_string_equal(a, b);
  free(a);
  free(b);
  vxp_program_free(fresh);
}

/* Replace the first occurrence of `old` in `src`'s text. */
static vxp_source *edit_text(const vxp_source *src, const char *old, const char *with) {
  const char *text = vxp_source_text(src, NULL);
  const char *at = strstr(text, old);
  assert_non_null(at);
  uint32_t start = (uint32_t)(at - text);
  vxp_source *out;
  assert_int_equal(
      vxp_source_edit(&out, src, start, start + (uint32_t)strlen(old), with, strlen(with)), VXP_OK);
  return out;
}

static void test_edit__reparse_gives_what_a_fresh_parse_gives(void **state) {
  (void)state;
  static const struct {
    const char *old, *with;
  } edits[] = {
      {"[256, 256]", "[1024, 1024]"},         /* now over capacity: E6010 */
      {"0..4", "0..40"},                      /* a number grows */
      {"  return 0;\n}\nfn main", "  retur"}, /* a syntax error spanning two functions */
      {"  retur", "  return 0;\n}\nfn main"}, /* and back */
      {"print(a);", "print(a); let b = transfer(Tensor<u8, [9]>::uninit(), Memory::W);"},
      {"fn first", "\n\n\nfn first"}, /* lines inserted above everything */
  };
  vxp_context *ctx = test_context();
  vxp_source *src;
  vxp_program *prog;
  assert_int_equal(vxp_source_new(&src, ctx, "e.vx", base_program, strlen(base_program)), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  for (size_t i = 0; i < VXP__ARRAY_LEN(edits); i++) {
    vxp_source *next = edit_text(src, edits[i].old, edits[i].with);
    vxp_program *reparsed;
    assert_int_equal(vxp_program_reparse(&reparsed, ctx, prog, next), VXP_OK);
    assert_ptr_equal(vxp_program_source(reparsed), next);
    expect_same_as_fresh_parse(ctx, reparsed);
    vxp_program_free(prog);
    vxp_source_free(src);
    prog = reparsed;
    src = next;
  }
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

static void test_edit__several_edits_before_one_reparse(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *v0, *v1, *v2, *v3;
  vxp_program *p0, *p3;
  assert_int_equal(vxp_source_new(&v0, ctx, "e.vx", base_program, strlen(base_program)), VXP_OK);
  assert_int_equal(vxp_program_parse(&p0, ctx, v0), VXP_OK);
  v1 = edit_text(v0, "[512, 512]", "[512, 2048]");
  v2 = edit_text(v1, "fn main", "fn helper() -> i32 { return 1; }\nfn main");
  v3 = edit_text(v2, "0..4", "0..2");
  /* Intermediate versions may go before the reparse: the history lives in v3. */
  vxp_source_free(v1);
  vxp_source_free(v2);
  assert_int_equal(vxp_program_reparse(&p3, ctx, p0, v3), VXP_OK);
  expect_same_as_fresh_parse(ctx, p3);
  /* The old program is untouched and still analyses as before. */
  char *old_report = report_of(ctx, p0);
  assert_non_null(strstr(old_report, "\"total_bytes\": 1048576"));
  free(old_report);
  vxp_program_free(p3);
  vxp_program_free(p0);
  vxp_source_free(v3);
  vxp_source_free(v0);
  vxp_context_free(ctx);
}

static void test_edit__unrelated_or_distant_sources_are_parsed_afresh(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *v0, *other;
  vxp_program *p0, *p;
  assert_int_equal(vxp_source_new(&v0, ctx, "e.vx", base_program, strlen(base_program)), VXP_OK);
  assert_int_equal(vxp_program_parse(&p0, ctx, v0), VXP_OK);
  /* Not a version of v0 at all. */
  assert_int_equal(vxp_source_new(&other, ctx, "o.vx", "fn main() -> i32 { return 0; }\n", 31),
                   VXP_OK);
  assert_int_equal(vxp_program_reparse(&p, ctx, p0, other), VXP_OK);
  expect_same_as_fresh_parse(ctx, p);
  vxp_program_free(p);
  vxp_source_free(other);
  /* 100 edits: more than the history holds, so the tree of v0 cannot be adjusted. */
  vxp_source *v = v0;
  for (int i = 0; i < 100; i++) {
    vxp_source *next = edit_text(v, "return 0;", i % 2 ? "return 0; " : "return 0;\n");
    if (v != v0) vxp_source_free(v);
    v = next;
  }
  assert_int_equal(vxp_program_reparse(&p, ctx, p0, v), VXP_OK);
  expect_same_as_fresh_parse(ctx, p);
  vxp_program_free(p);
  /* The same version: a reparse with no edits. */
  assert_int_equal(vxp_program_reparse(&p, ctx, p0, v0), VXP_OK);
  expect_same_as_fresh_parse(ctx, p);
  vxp_program_free(p);
  vxp_source_free(v);
  vxp_program_free(p0);
  vxp_source_free(v0);
  vxp_context_free(ctx);
}

/* The proof that the old tree is reused: the subtree of a function the edit does not
 * touch is the very same tree-sitter subtree (TSNode.id is its address) in both trees,
 * while a fresh parse builds a new one. */
static void test_edit__untouched_functions_keep_their_subtrees(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *v0, *v1;
  vxp_program *p0, *p1, *fresh;
  assert_int_equal(vxp_source_new(&v0, ctx, "e.vx", base_program, strlen(base_program)), VXP_OK);
  assert_int_equal(vxp_program_parse(&p0, ctx, v0), VXP_OK);
  v1 = edit_text(v0, "0..4", "0..5");
  assert_int_equal(vxp_program_reparse(&p1, ctx, p0, v1), VXP_OK);
  assert_int_equal(vxp_program_parse(&fresh, ctx, v1), VXP_OK);
  TSNode first0 = ts_node_named_child(ts_tree_root_node(p0->tree), 2);
  TSNode first1 = ts_node_named_child(ts_tree_root_node(p1->tree), 2);
  TSNode first_fresh = ts_node_named_child(ts_tree_root_node(fresh->tree), 2);
  assert_string_equal(ts_node_type(first0), "function_item");
  assert_ptr_equal(first0.id, first1.id);
  assert_ptr_not_equal(first0.id, first_fresh.id);
  TSNode main0 = ts_node_named_child(ts_tree_root_node(p0->tree), 3);
  TSNode main1 = ts_node_named_child(ts_tree_root_node(p1->tree), 3);
  assert_ptr_not_equal(main0.id, main1.id); /* the edited function is rebuilt */
  vxp_program_free(fresh);
  vxp_program_free(p1);
  vxp_program_free(p0);
  vxp_source_free(v1);
  vxp_source_free(v0);
  vxp_context_free(ctx);
}

/* A reparse with the program's own source (no edit between them, so no history: clang's
 * UBSan saw NULL + 0 there, through the language server) gives the same tree. */
static void test_edit__reparse_with_the_same_source_gives_the_same_tree(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *v0;
  vxp_program *p0, *p = NULL;
  assert_int_equal(vxp_source_new(&v0, ctx, "e.vx", base_program, strlen(base_program)), VXP_OK);
  assert_int_equal(vxp_program_parse(&p0, ctx, v0), VXP_OK);
  assert_int_equal(vxp_program_reparse(&p, ctx, p0, v0), VXP_OK);
  assert_string_equal(vxp_program_sexp(p), vxp_program_sexp(p0));
  vxp_program_free(p);
  vxp_program_free(p0);
  vxp_source_free(v0);
  vxp_context_free(ctx);
}

/* VXP_PROGRAM_NO_TREE: the tree is freed once the program is lowered (issue 18's memory
 * bound: the tree and an analysis never coexist). What it analyses to is the same as with
 * the tree (the JSON report byte for byte, on the examples and on text with syntax errors);
 * the cached S-expression says it needs the tree instead of reading freed memory, CUDA
 * generation parses the text again and generates the same; a reparse parses afresh. */
static void test_edit__a_program_without_its_tree_analyses_the_same(void **state) {
  (void)state;
  static const char *const files[] = {
      "examples/blog/peak_not_sum.vx", "examples/blog/unrolled.vx",  "examples/codegen/calls.vx",
      "examples/codegen/generic.vx",   "examples/llama2/prefill.vx", "examples/admit/admit.vx"};
  static const char broken[] = "fn f() -> i32 {\n  let t = transfer(Tensor<f32, [4]>::uninit(), "
                               "Memory::HBM)\n  return 0;\n}\nstruct fn g() -> i32 { retur 0; }\n";
  vxp_context *ctx = test_context();
  for (size_t i = 0; i <= VXP__ARRAY_LEN(files); i++) {
    vxp_source *src;
    if (i < VXP__ARRAY_LEN(files))
      assert_int_equal(vxp_source_load_file(&src, ctx, files[i]), VXP_OK);
    else
      assert_int_equal(vxp_source_new(&src, ctx, "broken.vx", broken, strlen(broken)), VXP_OK);
    vxp_program *whole, *lean;
    assert_int_equal(vxp_program_parse(&whole, ctx, src), VXP_OK);
    assert_int_equal(vxp_program_parse_flags(&lean, ctx, src, VXP_PROGRAM_NO_TREE), VXP_OK);
    assert_non_null(whole->tree);
    assert_null(lean->tree);
    assert_int_equal(vxp_program_diagnostic_count(lean), vxp_program_diagnostic_count(whole));
    vxp_analysis *a, *b;
    assert_int_equal(vxp_analyze(&a, ctx, whole, NULL), VXP_OK);
    assert_int_equal(vxp_analyze(&b, ctx, lean, NULL), VXP_OK);
    size_t la, lb;
    const char *ja = vxp_analysis_json(a, &la), *jb = vxp_analysis_json(b, &lb);
    assert_non_null(ja);
    assert_non_null(jb);
    assert_string_equal(ja, jb);
    /* No tree: no S-expression, with its reason; CUDA from the text parsed again, the
     * whole tree's (or the same refusal). */
    assert_null(vxp_program_sexp(lean));
    assert_int_equal(vxp_context_errcode(ctx), VXP_EINVAL);
    assert_non_null(strstr(vxp_context_errmsg(ctx), "no syntax tree"));
    vxp_cuda *cu = NULL, *cw = NULL;
    assert_int_equal(vxp_cuda_generate(&cu, ctx, b), VXP_OK);
    assert_int_equal(vxp_cuda_generate(&cw, ctx, a), VXP_OK);
    const char *tb = vxp_cuda_text(cu, NULL), *ta = vxp_cuda_text(cw, NULL);
    assert_true((ta == NULL) == (tb == NULL));
    if (ta) assert_string_equal(ta, tb);
    assert_int_equal(vxp_cuda_diagnostic_count(cu), vxp_cuda_diagnostic_count(cw));
    vxp_cuda_free(cw);
    vxp_cuda_free(cu);
    /* A reparse of it (here of the same text) is a fresh parse. */
    vxp_program *again;
    assert_int_equal(vxp_program_reparse(&again, ctx, lean, src), VXP_OK);
    assert_int_equal(vxp_program_reused_tree(again), 0);
    assert_string_equal(vxp_program_sexp(again), vxp_program_sexp(whole));
    vxp_program_free(again);
    vxp_analysis_free(b);
    vxp_analysis_free(a);
    vxp_program_free(lean);
    vxp_program_free(whole);
    vxp_source_free(src);
  }
  vxp_source *src;
  vxp_program *p = NULL;
  assert_int_equal(vxp_source_new(&src, ctx, "e.vx", broken, strlen(broken)), VXP_OK);
  assert_int_equal(vxp_program_parse_flags(&p, ctx, src, 8u), VXP_EINVAL); /* unknown */
  assert_null(p);
  assert_int_equal(
      vxp_program_parse_flags(&p, ctx, src, VXP_PROGRAM_FOR_EDITING | VXP_PROGRAM_NO_TREE),
      VXP_EINVAL);
  assert_null(p);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

static void test_edit__reparse_rejects_null_arguments(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *v0;
  vxp_program *p0, *p = NULL;
  assert_int_equal(vxp_source_new(&v0, ctx, "e.vx", base_program, strlen(base_program)), VXP_OK);
  assert_int_equal(vxp_program_parse(&p0, ctx, v0), VXP_OK);
  assert_int_equal(vxp_program_reparse(&p, ctx, NULL, v0), VXP_EINVAL);
  assert_int_equal(vxp_program_reparse(&p, ctx, p0, NULL), VXP_EINVAL);
  assert_int_equal(vxp_program_reparse(NULL, ctx, p0, v0), VXP_EINVAL);
  assert_int_equal(vxp_program_reparse(&p, NULL, p0, v0), VXP_EINVAL);
  assert_null(p);
  vxp_program_free(p0);
  vxp_source_free(v0);
  vxp_context_free(ctx);
}

/* The span a run of edits changed, found from the edits alone (vxp_source__steps_span, what a
 * window reparse reads instead of comparing the texts): outside it both texts are the same,
 * and it holds every byte that differs. Random runs of one to six edits, each in the
 * coordinates of the version it edits. */
static void test_edit__the_span_of_a_run_of_edits_holds_every_change(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  uint32_t rnd = 7;
  static const char alphabet[] = "ab\n{} ";
  for (int run = 0; run < 400; run++) {
    char text[96];
    size_t len = 20 + next_random(&rnd) % 60;
    for (size_t i = 0; i < len; i++)
      text[i] = alphabet[next_random(&rnd) % (sizeof(alphabet) - 1)];
    vxp_source *first, *cur;
    assert_int_equal(vxp_source_new(&first, ctx, "s.vx", text, len), VXP_OK);
    cur = first;
    int edits = 1 + (int)(next_random(&rnd) % 6);
    for (int e = 0; e < edits; e++) {
      size_t now = vxp_source_text(cur, NULL) ? strlen(vxp_source_text(cur, NULL)) : 0;
      uint32_t start = next_random(&rnd) % (uint32_t)(now + 1);
      uint32_t end = start + next_random(&rnd) % (uint32_t)(now - start + 1);
      char ins[4];
      size_t n = next_random(&rnd) % 4;
      for (size_t i = 0; i < n; i++)
        ins[i] = alphabet[next_random(&rnd) % (sizeof(alphabet) - 1)];
      vxp_source *next;
      assert_int_equal(vxp_source_edit(&next, cur, start, end, ins, n), VXP_OK);
      if (cur != first) vxp_source_free(cur);
      cur = next;
    }
    uint32_t p, oe, ne;
    vxp_source__steps_span(cur->history.items, cur->history.len, &p, &oe, &ne);
    size_t old_len, new_len;
    const char *a = vxp_source_text(first, &old_len), *b = vxp_source_text(cur, &new_len);
    assert_true(p <= oe && p <= ne && oe <= old_len && ne <= new_len);
    assert_int_equal(old_len - oe, new_len - ne);
    assert_memory_equal(a, b, p);
    assert_memory_equal(a + oe, b + ne, old_len - oe);
    vxp_source_free(cur);
    vxp_source_free(first);
  }
  vxp_context_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_edit__line_index_matches_a_source_made_from_the_text),
      cmocka_unit_test(test_edit__reparse_with_the_same_source_gives_the_same_tree),
      cmocka_unit_test(test_edit__bad_ranges_are_einval),
      cmocka_unit_test(test_edit__the_span_of_a_run_of_edits_holds_every_change),
      cmocka_unit_test(test_edit__reparse_gives_what_a_fresh_parse_gives),
      cmocka_unit_test(test_edit__several_edits_before_one_reparse),
      cmocka_unit_test(test_edit__unrelated_or_distant_sources_are_parsed_afresh),
      cmocka_unit_test(test_edit__untouched_functions_keep_their_subtrees),
      cmocka_unit_test(test_edit__reparse_rejects_null_arguments),
      cmocka_unit_test(test_edit__a_program_without_its_tree_analyses_the_same),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
