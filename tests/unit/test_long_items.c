/* SPDX-License-Identifier: Apache-2.0 */
/* test_long_items.c - a top-level item longer than VXP_MAX_PENDING_TOKENS (issue 33): a valid
 * one is parsed, lowered and analysed whole, with its exact peak; a broken one is refused with
 * its syntax error first and VXP0003 naming the limit and where, never "unexpected 'fn' at
 * 1:1"; every check stays bounded. */
#include "support.h"

#include "long_items.h"
#include "program.h"

/* A growing text (libc's allocator: the test's own, not the library's). */
typedef struct text {
  char *s;
  size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...) VXP__PRINTF(2, 3);
static void put(text *t, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
    va_end(ap);
    assert_true(n >= 0);
    if (t->s && t->len + (size_t)n < t->cap) {
      t->len += (size_t)n;
      return;
    }
    t->cap = (t->cap + (size_t)n + 1) * 2;
    t->s = realloc(t->s, t->cap);
    assert_non_null(t->s);
  }
}

/* One function of `n` statements: n/2 placements of a 16x16 f32 tile (1 KiB) at function
 * scope, then n/2 spawn regions, each reading one of them, so every tile is live when the
 * first is read. */
static char *one_function(size_t n) {
  text t = {NULL, 0, 0};
  put(&t, "fn main() -> i32 {\n  let mut acc : f32 = 0.0;\n");
  for (size_t i = 0; i < n / 2; i++)
    put(&t, "  let t%zu = transfer(Tensor<f32, [16, 16]>::uninit(), Memory::HBM);\n", i);
  for (size_t i = 0; i < n / 2; i++)
    put(&t, "  spawn on(Topology::Device) { acc = acc + t%zu[0][0]; }\n", i);
  put(&t, "  print(acc);\n  return 0;\n}\n");
  return t.s;
}

/* The Llama-2-7B prefill of examples/llama2/prefill.vx at batch 1 with `layers` layers
 * unrolled into main, the blog's unrolled.vx shape: every layer's weights and activations are
 * placed at function scope, so nothing is released before main returns, and each layer's
 * element statements read them. */
static char *unrolled_llama(int layers) {
  text t = {NULL, 0, 0};
  put(&t,
      "const HIDDEN : i64 = 4096;\nconst FFN : i64 = 11008;\nconst HEADS : i64 = 32;\n"
      "const VOCAB : i64 = 32000;\nconst TOKENS : i64 = 4096;\nconst BATCH : i64 = 1;\n\n"
      "fn layer_weights(layer : i64) -> Tensor<f16, [HIDDEN, 4 * HIDDEN + 3 * FFN]> {\n"
      "  return Tensor<f16, [HIDDEN, 4 * HIDDEN + 3 * FFN]>::uninit();\n}\n\n"
      "fn token_embeddings() -> Tensor<f16, [VOCAB, HIDDEN]> {\n"
      "  return Tensor<f16, [VOCAB, HIDDEN]>::uninit();\n}\n\n"
      "fn output_projection() -> Tensor<f16, [VOCAB, HIDDEN]> {\n"
      "  return Tensor<f16, [VOCAB, HIDDEN]>::uninit();\n}\n\n"
      "fn main() -> i32 {\n"
      "  let embed = transfer(token_embeddings(), Memory::HBM);\n"
      "  let lm_head = transfer(output_projection(), Memory::HBM);\n"
      "  let mut kv = transfer(Tensor<f16, [2 * %d * TOKENS * BATCH, HIDDEN]>::new(), "
      "Memory::HBM);\n"
      "  let mut next_token : f32 = 0.0;\n",
      layers);
  static const char *const acts[][2] = {
      {"residual", "TOKENS * BATCH, HIDDEN"}, {"norm", "TOKENS * BATCH, HIDDEN"},
      {"qkv", "TOKENS * BATCH, 3 * HIDDEN"},  {"scores", "HEADS * BATCH, TOKENS, TOKENS"},
      {"attn_out", "TOKENS * BATCH, HIDDEN"}, {"proj", "TOKENS * BATCH, HIDDEN"},
      {"ffn", "TOKENS * BATCH, 2 * FFN"}};
  static const char *const reads[][2] = {{"qkv", "norm"},      {"qkv", "norm"}, {"qkv", "norm"},
                                         {"proj", "attn_out"}, {"ffn", "proj"}, {"ffn", "proj"},
                                         {"residual", "ffn"}};
  for (int l = 0; l < layers; l++) {
    put(&t, "  let w%d = transfer(layer_weights(%d), Memory::HBM);\n", l, l);
    for (size_t a = 0; a < sizeof(acts) / sizeof(acts[0]); a++)
      put(&t, "  let %s%d = transfer(Tensor<f16, [%s]>::uninit(), Memory::HBM);\n", acts[a][0], l,
          acts[a][1]);
    put(&t, "  spawn on(Topology::Device) {\n");
    put(&t, "    residual%d[0][0] = residual%d[0][0] + embed[0][0];\n", l, l);
    put(&t, "    norm%d[0][0] = residual%d[0][0];\n", l, l);
    put(&t, "    kv[%d][0] = qkv%d[0][1];\n", l, l);
    put(&t, "    scores%d[0][0][0] = qkv%d[0][0] * kv[%d][0];\n", l, l, l);
    put(&t, "    attn_out%d[0][0] = scores%d[0][0][0] * kv[%d][1];\n", l, l, l);
    for (size_t k = 0; k < sizeof(reads) / sizeof(reads[0]); k++)
      put(&t, "    %s%d[0][%zu] = %s%d[0][%zu] + %s%d[0][%zu] * w%d[%zu][%zu];\n", reads[k][0], l,
          k, reads[k][0], l, k, reads[k][1], l, k, l, k, k);
    put(&t, "    next_token = residual%d[0][0] * lm_head[0][0];\n  }\n", l);
  }
  put(&t, "  print(next_token);\n  return 0;\n}\n");
  return t.s;
}

/* The analysis of `s` against the built-in a100-40 and host-default, as `vxpeak check` runs. */
static test_run analyse_a100(const char *s) {
  test_run r;
  memset(&r, 0, sizeof(r));
  r.ctx = test_context();
  assert_int_equal(vxp_source_new(&r.src, r.ctx, "long.vx", s, strlen(s)), VXP_OK);
  assert_int_equal(vxp_program_parse(&r.prog, r.ctx, r.src), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&r.machine, r.ctx, "a100-40"), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&r.host, r.ctx, "host-default"), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = r.machine;
  opts.host = r.host;
  assert_int_equal(vxp_analyze(&r.an, r.ctx, r.prog, &opts), VXP_OK);
  return r;
}

static size_t error_count(const vxp_analysis *an) {
  size_t n = 0;
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(an); i++)
    n += vxp_diagnostic_severity(vxp_analysis_diagnostic(an, i)) == VXP_SEVERITY_ERROR;
  return n;
}

/* `s` analysed against the a100-40 is admitted with no error, and main's HBM peaks at `peak`. */
static void assert_admitted_with_main_hbm_peak(const char *s, uint64_t peak) {
  test_run r = analyse_a100(s);
  assert_int_equal(error_count(r.an), 0);
  assert_true(vxp_analysis_admitted(r.an));
  const vxp_resident_set *rs = test_resident(r.an, "main", "HBM");
  assert_non_null(rs);
  assert_true(vxp_resident_set_peak_bytes(rs) == peak);
  test_done(&r);
}

/* The count of tokens syntax.c's scan would give `s` between its first `{` and the end: more
 * than VXP_MAX_PENDING_TOKENS means the item is long, so the test exercises the long path. */
static size_t rough_tokens(const char *s) {
  size_t n = 0;
  for (const char *p = s; *p; p++) {
    if (*p == ' ' || *p == '\n') continue;
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
        *p == '_') {
      while ((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z') ||
             (p[1] >= '0' && p[1] <= '9') || p[1] == '_')
        p++;
    }
    n++;
  }
  return n;
}

static void test_long_items__a_function_of_1e5_statements_is_analysed_whole(void **state) {
  (void)state;
  char *s = one_function(100000);
  assert_true(rough_tokens(s) > 10 * VXP_MAX_PENDING_TOKENS);
  /* 50,000 tiles of 16 x 16 x 4 bytes, all live when the first is read */
  assert_admitted_with_main_hbm_peak(s, (uint64_t)50000 * 16 * 16 * 4);
  free(s);
}

/* The figures of examples/llama2/prefill.vx's comments, per layer and resident, summed by hand
 * for 126 layers: embeddings 2 x 32000 x 4096 x 2 = 524,288,000; the KV cache 2 x 126 x 4096
 * x 4096 x 2 = 8,455,716,864; per layer the weights 4096 x 49408 x 2 = 404,750,336 and the
 * activations 4 x 33,554,432 + 100,663,296 + 1,073,741,824 + 180,355,072 = 1,488,977,920;
 * 524,288,000 + 8,455,716,864 + 126 x 1,893,728,256 = 247,589,765,120 bytes (230.59 GiB),
 * over the a100-40's 40 GiB: E6010. */
static void test_long_items__unrolled_126_layer_llama2_prefill_gets_its_peak(void **state) {
  (void)state;
  char *s = unrolled_llama(126);
  assert_true(rough_tokens(s) > VXP_MAX_PENDING_TOKENS);
  test_run r = analyse_a100(s);
  assert_null(test_find_diag(r.an, "VXP0001"));
  assert_null(test_find_diag(r.an, "VXP0003"));
  assert_non_null(test_find_diag(r.an, "E6010"));
  assert_false(vxp_analysis_admitted(r.an));
  const vxp_resident_set *rs = test_resident(r.an, "main", "HBM");
  assert_non_null(rs);
  uint64_t layer = (uint64_t)4096 * (4 * 4096 + 3 * 11008) * 2 + 4 * (uint64_t)4096 * 4096 * 2 +
                   (uint64_t)4096 * 3 * 4096 * 2 + (uint64_t)32 * 4096 * 4096 * 2 +
                   (uint64_t)4096 * 2 * 11008 * 2;
  uint64_t resident = 2 * (uint64_t)32000 * 4096 * 2 + 2 * (uint64_t)126 * 4096 * 4096 * 2;
  assert_true(layer == 1893728256u);
  assert_true(resident + 126 * layer == 247589765120u);
  assert_true(vxp_resident_set_peak_bytes(rs) == 247589765120u);
  test_done(&r);
  free(s);
}

/* The program's diagnostics, in order, by code and line (1-based). */
static const vxp_diagnostic *program_diag(const vxp_program *prog, size_t i) {
  return i < vxp_program_diagnostic_count(prog) ? vxp_program_diagnostic(prog, i) : NULL;
}

static vxp_program *parse_text(vxp_context *ctx, vxp_source **src, const char *s) {
  assert_int_equal(vxp_source_new(src, ctx, "long.vx", s, strlen(s)), VXP_OK);
  vxp_program *prog = NULL;
  assert_int_equal(vxp_program_parse(&prog, ctx, *src), VXP_OK);
  return prog;
}

/* The line (1-based) of the start of the `n`th line break of `s`... its offset. */
static size_t line_offset(const char *s, size_t line) {
  size_t at = 0;
  for (size_t l = 1; l < line; l++)
    at += strcspn(s + at, "\n") + 1;
  return at;
}

static void test_long_items__a_syntax_error_in_a_long_item_is_reported_where_it_is(void **state) {
  (void)state;
  char *s = one_function(50000);
  /* line 20003 (the 20,001st placement) loses its right-hand side */
  size_t at = line_offset(s, 20003);
  memcpy(s + at, "  let x = = ;", 13);
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = parse_text(ctx, &src, s);
  const vxp_diagnostic *first = program_diag(prog, 0);
  assert_non_null(first);
  assert_string_equal(vxp_diagnostic_code(first), "VXP0001");
  assert_int_equal(vxp_diagnostic_range(first).start.line, 20002); /* 0-based */
  size_t cuts = 0;
  for (size_t i = 0; i < vxp_program_diagnostic_count(prog); i++) {
    const vxp_diagnostic *d = program_diag(prog, i);
    assert_true(vxp_diagnostic_range(d).start.line != 0); /* nothing blamed on `fn` at 1:1 */
    if (strcmp(vxp_diagnostic_code(d), "VXP0003") == 0) {
      cuts++;
      assert_non_null(strstr(vxp_diagnostic_message(d), "has a syntax error"));
      assert_non_null(strstr(vxp_diagnostic_message(d), "more than 61440 tokens (from 1:1)"));
    }
  }
  assert_int_equal(cuts, 1);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(s);
}

/* Text after a broken long item is not parsed (it is cut at the item's start, so the parser
 * never sees a long broken prefix), and the items before it are parsed as usual. */
static void test_long_items__an_unclosed_long_item_says_it_does_not_end(void **state) {
  (void)state;
  char *body = one_function(30000);
  body[strlen(body) - 2] = '\0'; /* drop the closing brace */
  text t = {NULL, 0, 0};
  put(&t, "fn before() -> i32 {\n  return 1 +;\n}\n\n%s", body);
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = parse_text(ctx, &src, t.s);
  size_t n = vxp_program_diagnostic_count(prog);
  assert_true(n >= 2);
  /* the error of `before` on its own line, then the long item's */
  assert_string_equal(vxp_diagnostic_code(program_diag(prog, 0)), "VXP0001");
  assert_int_equal(vxp_diagnostic_range(program_diag(prog, 0)).start.line, 1);
  const vxp_diagnostic *cut = program_diag(prog, n - 1);
  assert_string_equal(vxp_diagnostic_code(cut), "VXP0003");
  assert_non_null(strstr(vxp_diagnostic_message(cut), "does not end"));
  assert_int_equal(vxp_diagnostic_range(cut).start.line, 4); /* the item's `fn` */
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(t.s);
  free(body);
}

/* The scan that decides what the parser sees keeps a valid long item whole and cuts a broken
 * one at its start, with or without marks, and a scan resumed after an edit inside the item
 * agrees with a fresh one. */
static void test_long_items__the_scan_keeps_valid_long_items_and_cuts_broken_ones(void **state) {
  (void)state;
  char *s = one_function(30000);
  text t = {NULL, 0, 0};
  put(&t, "fn a() -> i32 {\n  return 1;\n}\n\n%s\nfn b() -> i32 {\n  return 2;\n}\n", s);
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  assert_int_equal(vxp_source_new(&src, ctx, "long.vx", t.s, t.len), VXP_OK);
  vxp_syntax_cut why;
  assert_int_equal(vxp_syntax__parsable_length(ctx, src, &why), t.len);
  assert_int_equal(why, VXP_SYNTAX_CUT_NONE);
  /* without a context (no parser to check it with) the item is cut as before */
  assert_true(vxp_syntax__parsable_length(NULL, src, &why) < t.len);
  assert_int_equal(why, VXP_SYNTAX_CUT_TOKENS);
  /* broken in its middle: cut at its start */
  size_t item = (size_t)(strstr(t.s, "fn main") - t.s);
  size_t at = line_offset(t.s, 20000);
  char saved = t.s[at + 2];
  t.s[at + 2] = '%';
  vxp_source *broken = NULL;
  assert_int_equal(vxp_source_new(&broken, ctx, "long.vx", t.s, t.len), VXP_OK);
  assert_int_equal(vxp_syntax__parsable_length(ctx, broken, &why), item);
  assert_int_equal(why, VXP_SYNTAX_CUT_LONG);
  vxp_scan_marks marks = {NULL, 0, 0}, again = {NULL, 0, 0};
  uint32_t got;
  assert_int_equal(vxp_syntax__parsable_length_marked(ctx, broken, NULL, NULL, &marks, &got, &why),
                   VXP_OK);
  assert_int_equal(got, item);
  t.s[at + 2] = saved; /* mended: the scan resumed from the broken one's marks agrees */
  vxp_source *mended = NULL;
  assert_int_equal(vxp_source_new(&mended, ctx, "long.vx", t.s, t.len), VXP_OK);
  assert_int_equal(
      vxp_syntax__parsable_length_marked(ctx, mended, broken, &marks, &again, &got, &why), VXP_OK);
  assert_int_equal(got, t.len);
  array_free(ctx, &marks);
  array_free(ctx, &again);
  vxp_source_free(mended);
  vxp_source_free(broken);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(t.s);
  free(s);
}

/* Long items of other kinds split too: an `impl` of many methods (a run ends after a method's
 * closing brace) and a struct of many fields (after a field's comma). */
static void test_long_items__long_impls_and_structs_are_kept_whole(void **state) {
  (void)state;
  text t = {NULL, 0, 0};
  put(&t, "struct P {\n");
  for (int i = 0; i < 25000; i++)
    put(&t, "  f%d: i32,\n", i);
  put(&t, "}\n\nimpl P {\n");
  for (int i = 0; i < 8000; i++)
    put(&t, "  fn m%d(x: i32) -> i32 { return x + %d; }\n", i, i);
  put(&t, "}\n\nfn main() -> i32 {\n  return 0;\n}\n");
  assert_true(rough_tokens(t.s) > 2 * VXP_MAX_PENDING_TOKENS);
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = parse_text(ctx, &src, t.s);
  assert_int_equal(vxp_program_diagnostic_count(prog), 0);
  vxp_syntax_cut why;
  assert_int_equal(vxp_syntax__parsable_length(ctx, src, &why), t.len);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(t.s);
}

/* `n` placements of a 16x16 f32 tile (1 KiB) and `n` spawn regions reading them, the
 * statements of a block `indent` deep. */
static void placements(text *t, size_t n, const char *indent, const char *tag) {
  for (size_t i = 0; i < n; i++)
    put(t, "%slet %s%zu = transfer(Tensor<f32, [16, 16]>::uninit(), Memory::HBM);\n", indent, tag,
        i);
  for (size_t i = 0; i < n; i++)
    put(t, "%sspawn on(Topology::Device) { acc = acc + %s%zu[0][0]; }\n", indent, tag, i);
}

/* main with one `for` statement whose body holds 5 x 10^4 placements and as many spawn regions
 * (10^5 statements), in `depth` nested loops: a statement of more than VXP_LONG_PIECE_MAX
 * tokens, checked through its body's pieces. */
static char *long_for(size_t n, int depth) {
  text t = {NULL, 0, 0};
  put(&t, "fn main() -> i32 {\n  let mut acc : f32 = 0.0;\n");
  for (int d = 0; d < depth; d++)
    put(&t, "%*sfor i%d in 0..%d {\n", 2 + 2 * d, "", d, d + 2);
  placements(&t, n / 2, "      ", "t");
  for (int d = depth; d-- > 0;)
    put(&t, "%*s}\n", 2 + 2 * d, "");
  put(&t, "  print(acc);\n  return 0;\n}\n");
  return t.s;
}

/* Each iteration's tiles go at its end, so the peak is one iteration's: 5 x 10^4 tiles of
 * 16 x 16 x 4 bytes, all live when the first is read (51,200,000 bytes), however many
 * iterations. */
static void test_long_items__a_for_body_of_1e5_statements_is_analysed_whole(void **state) {
  (void)state;
  char *s = long_for(100000, 1);
  assert_true(rough_tokens(s) > 20 * VXP_LONG_PIECE_MAX);
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  assert_int_equal(vxp_source_new(&src, ctx, "long.vx", s, strlen(s)), VXP_OK);
  uint32_t item = (uint32_t)(strstr(s, "fn main") - s);
  vxp_long_check check;
  assert_int_equal(
      vxp_long_item__check(ctx, src, item, (uint32_t)(strrchr(s, '}') + 1 - s), NULL, &check, NULL),
      VXP_OK);
  assert_int_equal(check.verdict, VXP_LONG_VALID);
  assert_true(check.pieces > 100); /* the for body's runs, not one piece */
  vxp_source_free(src);
  vxp_context_free(ctx);
  assert_admitted_with_main_hbm_peak(s, (uint64_t)50000 * 16 * 16 * 4);
  free(s);
}

/* Long blocks inside long blocks: two nested loops around 10^5 statements, and an `if` whose
 * then and else branches are both long (the else branch's pieces hold the then branch as
 * `{ }`). The peaks: one iteration's 5 x 10^4 tiles; the larger branch's 3 x 10^4 tiles. */
static void test_long_items__nested_long_blocks_are_analysed_whole(void **state) {
  (void)state;
  char *s = long_for(100000, 2);
  assert_admitted_with_main_hbm_peak(s, (uint64_t)50000 * 16 * 16 * 4);
  free(s);
  text t = {NULL, 0, 0};
  put(&t, "fn main() -> i32 {\n  let mut acc : f32 = 0.0;\n  let c : i64 = 3;\n"
          "  for i in 0..2 {\n    if c > 2 {\n");
  placements(&t, 30000, "      ", "a");
  put(&t, "    } else {\n");
  placements(&t, 20000, "      ", "b");
  put(&t, "    }\n  }\n  print(acc);\n  return 0;\n}\n");
  assert_admitted_with_main_hbm_peak(t.s, (uint64_t)30000 * 16 * 16 * 4);
  free(t.s);
}

/* A broken statement deep in a long `for` body (inside two loops): the first diagnostic is
 * its syntax error, where it is; VXP0003 then says which limit kept the item out. */
static void test_long_items__a_syntax_error_deep_in_a_for_body_is_reported_first(void **state) {
  (void)state;
  char *s = long_for(100000, 2);
  /* the 30,001st placement (line 30,005: main, acc and two loop heads before) breaks */
  size_t at = line_offset(s, 30005);
  assert_non_null(strstr(s + at, "let t30000 "));
  memcpy(s + at, "      let x = = ;", 17);
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = parse_text(ctx, &src, s);
  const vxp_diagnostic *first = program_diag(prog, 0);
  assert_non_null(first);
  assert_string_equal(vxp_diagnostic_code(first), "VXP0001");
  assert_int_equal(vxp_diagnostic_range(first).start.line, 30004); /* 0-based */
  /* in the broken statement: its `let` (the error node's start) through the second `=` */
  assert_in_range(vxp_diagnostic_range(first).start.column, 6, 14);
  size_t cuts = 0;
  for (size_t i = 0; i < vxp_program_diagnostic_count(prog); i++) {
    const vxp_diagnostic *d = program_diag(prog, i);
    assert_true(vxp_diagnostic_range(d).start.line != 0);
    if (strcmp(vxp_diagnostic_code(d), "VXP0003") == 0) {
      cuts++;
      assert_non_null(strstr(vxp_diagnostic_message(d), "has a syntax error"));
      assert_non_null(strstr(vxp_diagnostic_message(d), "(from 1:1)"));
    }
  }
  assert_int_equal(cuts, 1);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(s);
}

/* The verdict of checking `s`'s function `fn main` (its last `}` ends it) in pieces, and the
 * pieces parsed into *pieces. */
static vxp_long_verdict check_main(const char *s, uint32_t *pieces) {
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  assert_int_equal(vxp_source_new(&src, ctx, "long.vx", s, strlen(s)), VXP_OK);
  uint32_t item = (uint32_t)(strstr(s, "fn main") - s);
  vxp_long_check check;
  assert_int_equal(
      vxp_long_item__check(ctx, src, item, (uint32_t)(strrchr(s, '}') + 1 - s), NULL, &check, NULL),
      VXP_OK);
  vxp_source_free(src);
  vxp_context_free(ctx);
  if (pieces) *pieces = check.pieces;
  return check.verdict;
}

/* `n` elements `first`, `first + 1`, ... (mod 10), each followed by `sep`. */
static void elements(text *t, size_t n, const char *sep) {
  for (size_t i = 0; i < n; i++)
    put(t, "%zu%s", i % 10, i + 1 < n ? sep : "");
}

/* An array literal of 6 x 10^4 elements (12 x 10^4 tokens, one statement) in a function that
 * places a 16 x 16 f32 tile: checked through the list's own pieces (runs of whole elements
 * between `let table = [` and `];`), parsed whole, and admitted with the tile's 1,024 bytes
 * (the array is a value, not a placement). The same with the list in a call's 6 x 10^4
 * arguments, and two long lists in one statement (each checked with the other emptied). */
static void test_long_items__a_long_array_literal_or_argument_list_is_analysed_whole(void **state) {
  (void)state;
  static const char *const shapes[][2] = {{"  let table = [", "];\n"},
                                          {"  print(", ");\n"},
                                          {"  print([", "], [1, 2]);\n"},
                                          {"  let pair = ([", "], [0]);\n"}};
  for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
    text t = {NULL, 0, 0};
    put(&t,
        "fn main() -> i32 {\n  let t = transfer(Tensor<f32, [16, 16]>::uninit(), "
        "Memory::HBM);\n%s",
        shapes[k][0]);
    elements(&t, 60000, ", ");
    put(&t, "%s", shapes[k][1]);
    if (k == 3) { /* a second long list in the same statement */
      t.len -= strlen("[0]);\n");
      put(&t, "[");
      elements(&t, 60000, ", ");
      put(&t, "]);\n");
    }
    put(&t, "  spawn on(Topology::Device) { t[0][0] = 1.0; }\n  return 0;\n}\n");
    assert_true(rough_tokens(t.s) > 2 * VXP_LONG_PIECE_MAX);
    uint32_t pieces = 0;
    assert_int_equal(check_main(t.s, &pieces), VXP_LONG_VALID);
    assert_true(pieces > 10); /* the list's runs, not one piece */
    test_run r = analyse_a100(t.s);
    assert_int_equal(error_count(r.an), 0);
    assert_true(vxp_analysis_admitted(r.an));
    const vxp_resident_set *rs = test_resident(r.an, "main", "HBM");
    assert_non_null(rs);
    assert_true(vxp_resident_set_peak_bytes(rs) == (uint64_t)16 * 16 * 4);
    test_done(&r);
    free(t.s);
  }
}

/* Lists whose runs would not parse alone are not split, as before: a tuple (two to six
 * elements: a run of one would be `(e,)`) and `grad`'s arguments (a function's name first).
 * Each here is long (more than VXP_LONG_PIECE_TOKENS tokens) but short enough for one piece. */
static void test_long_items__tuples_and_grad_arguments_are_not_split(void **state) {
  (void)state;
  text t = {NULL, 0, 0};
  put(&t, "fn main() -> i32 {\n  let v = [1];\n  let pair = (v");
  for (int i = 0; i < 1500; i++)
    put(&t, "[0]");
  put(&t, ", v");
  for (int i = 0; i < 1500; i++)
    put(&t, "[0]");
  put(&t, ");\n  let g = grad(f, ");
  elements(&t, 3000, ", ");
  put(&t, ");\n");
  for (int i = 0; i < 40000; i++) /* a long item */
    put(&t, "  let x%d = %d;\n", i, i);
  put(&t, "  return 0;\n}\n");
  assert_int_equal(check_main(t.s, NULL), VXP_LONG_VALID);
  free(t.s);
}

/* A broken element in the middle of a long array literal (one element a line): the first
 * diagnostic is its syntax error, at its line; VXP0003 then says the long item has one. */
static void test_long_items__a_syntax_error_in_a_long_list_is_reported_first(void **state) {
  (void)state;
  text t = {NULL, 0, 0};
  put(&t, "fn main() -> i32 {\n  let table = [\n");
  for (int i = 0; i < 60000; i++)
    put(&t, "    %d,\n", i % 10);
  put(&t, "  ];\n  return 0;\n}\n");
  size_t at = line_offset(t.s, 30003); /* the 30,001st element */
  memcpy(t.s + at, "    =,", 6);
  assert_int_equal(check_main(t.s, NULL), VXP_LONG_SYNTAX);
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = parse_text(ctx, &src, t.s);
  const vxp_diagnostic *first = program_diag(prog, 0);
  assert_non_null(first);
  assert_string_equal(vxp_diagnostic_code(first), "VXP0001");
  assert_int_equal(vxp_diagnostic_range(first).start.line, 30002); /* 0-based */
  size_t cuts = 0;
  for (size_t i = 0; i < vxp_program_diagnostic_count(prog); i++) {
    const vxp_diagnostic *d = program_diag(prog, i);
    assert_true(vxp_diagnostic_range(d).start.line != 0);
    if (strcmp(vxp_diagnostic_code(d), "VXP0003") == 0) {
      cuts++;
      assert_non_null(strstr(vxp_diagnostic_message(d), "has a syntax error"));
    }
  }
  assert_int_equal(cuts, 1);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(t.s);
}

/* What is still refused says so: one statement of more than VXP_LONG_PIECE_MAX tokens with no
 * block or list to split it at (`grad`'s 4 x 10^4 arguments, which are not split). */
static void test_long_items__a_statement_long_outside_its_blocks_names_the_limit(void **state) {
  (void)state;
  text t = {NULL, 0, 0};
  put(&t, "fn main() -> i32 {\n  let v = [1];\n  let a = grad(f, ");
  elements(&t, 40000, ", ");
  put(&t, ");\n  return 0;\n}\n");
  assert_int_equal(check_main(t.s, NULL), VXP_LONG_UNSPLIT);
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = parse_text(ctx, &src, t.s);
  size_t cuts = 0;
  for (size_t i = 0; i < vxp_program_diagnostic_count(prog); i++) {
    const vxp_diagnostic *d = program_diag(prog, i);
    if (strcmp(vxp_diagnostic_code(d), "VXP0003") != 0) continue;
    cuts++;
    assert_non_null(strstr(vxp_diagnostic_message(d), "a statement of more than 49152 tokens"));
    assert_int_equal(vxp_diagnostic_range(d).start.line, 2); /* in main's second `let` */
  }
  assert_int_equal(cuts, 1);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(t.s);
}

/* A generated lookup table: a top-level `const` whose array literal holds 6 x 10^4 elements
 * (one a line), checked through the list's pieces (`const TABLE : ... = [` before each run of
 * whole elements, `];` after), parsed whole and analysed: the const N beside it sizes a tile
 * of N f32 (its exact bytes), and main reads the table. A long `const` of a comparison (whose
 * `<` a short item's scan would count as a generic's) ends at its `;` too. */
static void test_long_items__a_long_const_table_is_analysed_whole(void **state) {
  (void)state;
  static const char *const shapes[][2] = {{"const TABLE : Tensor<i64, [N]> = [\n", "];\n"},
                                          {"const SMALL : bool = [\n", "][0] < 3;\n"}};
  for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
    text t = {NULL, 0, 0};
    put(&t, "const N : i64 = 60000;\n\n%s", shapes[k][0]);
    elements(&t, 60000, ",\n");
    put(&t,
        "%s\nfn main() -> i32 {\n  let first = TABLE;\n"
        "  let u = transfer(Tensor<f32, [N]>::uninit(), Memory::HBM);\n"
        "  spawn on(Topology::Device) { u[0] = 1.0; }\n  return 0;\n}\n",
        shapes[k][1]);
    assert_true(rough_tokens(t.s) > 2 * VXP_LONG_PIECE_MAX);
    vxp_context *ctx = test_context();
    vxp_source *src = NULL;
    assert_int_equal(vxp_source_new(&src, ctx, "long.vx", t.s, t.len), VXP_OK);
    uint32_t item = (uint32_t)(strstr(t.s, shapes[k][0]) - t.s);
    uint32_t end = (uint32_t)(strstr(t.s, shapes[k][1]) + strlen(shapes[k][1]) - 1 - t.s);
    vxp_long_check check;
    assert_int_equal(vxp_long_item__check(ctx, src, item, end, NULL, &check, NULL), VXP_OK);
    assert_int_equal(check.verdict, VXP_LONG_VALID);
    assert_true(check.pieces > 10); /* the list's runs, not one piece */
    vxp_syntax_cut why;
    assert_int_equal(vxp_syntax__parsable_length(ctx, src, &why), t.len);
    vxp_source_free(src);
    vxp_context_free(ctx);
    test_run r = analyse_a100(t.s);
    assert_int_equal(vxp_program_diagnostic_count(r.prog), 0);
    assert_int_equal(error_count(r.an), 0);
    assert_true(vxp_analysis_admitted(r.an));
    const vxp_resident_set *rs = test_resident(r.an, "main", "HBM");
    assert_non_null(rs);
    assert_true(vxp_resident_set_peak_bytes(rs) == (uint64_t)60000 * 4);
    test_done(&r);
    free(t.s);
  }
}

/* A broken element in the middle of a long const table: the first diagnostic is its syntax
 * error, at its line and column; VXP0003 then says the long item has one. Without its `;`
 * before the next item, the missing `;` is reported where it is missing; without it at the
 * text's end, VXP0003 says that the table does not end, at the `const`. */
static void test_long_items__a_syntax_error_in_a_long_const_table_is_reported_first(void **state) {
  (void)state;
  text t = {NULL, 0, 0};
  put(&t, "const TABLE : Tensor<i64, [60000]> = [\n");
  for (int i = 0; i < 60000; i++)
    put(&t, "    %d,\n", i % 10);
  put(&t, "];\n\nfn main() -> i32 {\n  return 0;\n}\n");
  size_t at = line_offset(t.s, 30002); /* the 30,001st element */
  memcpy(t.s + at, "    =,", 6);
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = parse_text(ctx, &src, t.s);
  const vxp_diagnostic *first = program_diag(prog, 0);
  assert_non_null(first);
  assert_string_equal(vxp_diagnostic_code(first), "VXP0001");
  assert_int_equal(vxp_diagnostic_range(first).start.line, 30001); /* 0-based */
  assert_int_equal(vxp_diagnostic_range(first).start.column, 4);
  size_t cuts = 0;
  for (size_t i = 0; i < vxp_program_diagnostic_count(prog); i++) {
    const vxp_diagnostic *d = program_diag(prog, i);
    if (strcmp(vxp_diagnostic_code(d), "VXP0003") != 0) continue;
    cuts++;
    assert_non_null(strstr(vxp_diagnostic_message(d), "has a syntax error"));
  }
  assert_int_equal(cuts, 1);
  vxp_program_free(prog);
  vxp_source_free(src);
  memcpy(t.s + at, "    0,", 6); /* repaired, and its `;` dropped */
  char *semi = strstr(t.s, "];\n");
  memmove(semi + 1, semi + 2, strlen(semi + 2) + 1);
  prog = parse_text(ctx, &src, t.s);
  first = program_diag(prog, 0);
  assert_non_null(first);
  assert_string_equal(vxp_diagnostic_code(first), "VXP0001");
  assert_non_null(strstr(vxp_diagnostic_message(first), "missing ';'"));
  assert_int_equal(vxp_diagnostic_range(first).start.line, 60001); /* after the `]` */
  assert_int_equal(vxp_diagnostic_range(first).start.column, 1);
  vxp_program_free(prog);
  vxp_source_free(src);
  semi[1] = '\0'; /* the text ends after the `]` */
  prog = parse_text(ctx, &src, t.s);
  size_t n = vxp_program_diagnostic_count(prog);
  assert_int_equal(n, 1);
  assert_string_equal(vxp_diagnostic_code(program_diag(prog, 0)), "VXP0003");
  assert_non_null(strstr(vxp_diagnostic_message(program_diag(prog, 0)), "no `;` ends it"));
  assert_int_equal(vxp_diagnostic_range(program_diag(prog, 0)).start.line, 0);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(t.s);
}

/* An editor's session on a long function: each edit (a tile's size, a syntax error, its
 * repair) is reparsed and analysed incrementally and gives what a fresh parse and analysis of
 * the same text gives: the peak, and the diagnostics' codes and places. */
typedef struct session {
  vxp_context *ctx;
  vxp_machine *machine, *host;
  vxp_source *src;
  vxp_program *prog;
  vxp_analysis *an;
} session;

static uint64_t main_peak(const vxp_analysis *an) {
  const vxp_resident_set *rs = test_resident(an, "main", "HBM");
  return rs ? vxp_resident_set_peak_bytes(rs) : 0;
}

static void assert_as_fresh(session *s) {
  vxp_program *prog = NULL;
  assert_int_equal(vxp_program_parse(&prog, s->ctx, s->src), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = s->machine;
  opts.host = s->host;
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_analyze(&an, s->ctx, prog, &opts), VXP_OK);
  assert_true(main_peak(an) == main_peak(s->an));
  assert_int_equal(vxp_analysis_admitted(an), vxp_analysis_admitted(s->an));
  size_t n = vxp_analysis_diagnostic_count(an);
  assert_int_equal(vxp_analysis_diagnostic_count(s->an), n);
  for (size_t i = 0; i < n; i++) {
    const vxp_diagnostic *a = vxp_analysis_diagnostic(an, i),
                         *b = vxp_analysis_diagnostic(s->an, i);
    assert_string_equal(vxp_diagnostic_code(a), vxp_diagnostic_code(b));
    assert_int_equal(vxp_diagnostic_range(a).start_byte, vxp_diagnostic_range(b).start_byte);
  }
  vxp_analysis_free(an);
  vxp_program_free(prog);
}

/* Replace [start, end) of the session's text with `with` (`len` bytes), reparse and analyse
 * incrementally, and compare with a fresh parse and analysis. */
static void edit_at(session *s, uint32_t start, uint32_t end, const char *with, size_t len) {
  vxp_source *next = NULL;
  assert_int_equal(vxp_source_edit(&next, s->src, start, end, with, len), VXP_OK);
  vxp_program *prog = NULL;
  assert_int_equal(vxp_program_reparse(&prog, s->ctx, s->prog, next), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = s->machine;
  opts.host = s->host;
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_analyze_incremental(&an, s->ctx, prog, s->an, &opts), VXP_OK);
  vxp_analysis_free(s->an);
  vxp_program_free(s->prog);
  vxp_source_free(s->src);
  s->src = next;
  s->prog = prog;
  s->an = an;
  assert_as_fresh(s);
}

static void edit(session *s, const char *what, size_t nth, const char *with) {
  const char *t = vxp_source_text(s->src, NULL), *at = t;
  for (size_t k = 0; k <= nth; k++) {
    at = strstr(k ? at + 1 : at, what);
    assert_non_null(at);
  }
  uint32_t start = (uint32_t)(at - t);
  edit_at(s, start, start + (uint32_t)strlen(what), with, strlen(with));
}

static void test_long_items__edits_of_a_long_function_reparse_as_a_fresh_parse(void **state) {
  (void)state;
  char *body = one_function(30000);
  /* a short function before the long one, edited too: its window is parsed alone */
  text whole = {NULL, 0, 0};
  put(&whole,
      "fn small() -> i32 {\n  let s = transfer(Tensor<f32, [8, 8]>::uninit(), Memory::HBM);\n"
      "  let mut b : f32 = 0.0;\n  spawn on(Topology::Device) { b = s[0][0]; }\n"
      "  print(b);\n  return 0;\n}\n\n%s",
      body);
  free(body);
  char *text = whole.s;
  session s;
  memset(&s, 0, sizeof(s));
  s.ctx = test_context();
  assert_int_equal(vxp_machine_builtin(&s.machine, s.ctx, "a100-40"), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&s.host, s.ctx, "host-default"), VXP_OK);
  assert_int_equal(vxp_source_new(&s.src, s.ctx, "long.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse_flags(&s.prog, s.ctx, s.src, VXP_PROGRAM_FOR_EDITING), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = s.machine;
  opts.host = s.host;
  assert_int_equal(vxp_analyze(&s.an, s.ctx, s.prog, &opts), VXP_OK);
  assert_true(main_peak(s.an) == (uint64_t)15000 * 1024);
  edit(&s, "[16, 16]", 100, "[32, 16]"); /* one tile of main twice as large */
  assert_true(main_peak(s.an) == (uint64_t)15001 * 1024);
  edit(&s, "uninit()", 7000, "uninit(("); /* broken: refused, the error where it is */
  assert_false(vxp_analysis_admitted(s.an));
  assert_non_null(test_find_diag(s.an, "VXP0003"));
  edit(&s, "uninit((", 0, "uninit()"); /* mended */
  assert_true(vxp_analysis_admitted(s.an));
  assert_true(main_peak(s.an) == (uint64_t)15001 * 1024);
  edit(&s, "[8, 8]", 0, "[8, 9]"); /* the short function beside it */
  const vxp_resident_set *rs = test_resident(s.an, "small", "HBM");
  assert_non_null(rs);
  assert_true(vxp_resident_set_peak_bytes(rs) == 8 * 9 * 4);
  assert_true(main_peak(s.an) == (uint64_t)15001 * 1024);
  vxp_analysis_free(s.an);
  vxp_program_free(s.prog);
  vxp_source_free(s.src);
  vxp_machine_free(s.host);
  vxp_machine_free(s.machine);
  vxp_context_free(s.ctx);
  free(text);
}

static void session_start(session *s, const char *text) {
  memset(s, 0, sizeof(*s));
  s->ctx = test_context();
  assert_int_equal(vxp_machine_builtin(&s->machine, s->ctx, "a100-40"), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&s->host, s->ctx, "host-default"), VXP_OK);
  assert_int_equal(vxp_source_new(&s->src, s->ctx, "long.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse_flags(&s->prog, s->ctx, s->src, VXP_PROGRAM_FOR_EDITING),
                   VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = s->machine;
  opts.host = s->host;
  assert_int_equal(vxp_analyze(&s->an, s->ctx, s->prog, &opts), VXP_OK);
}

static void session_end(session *s) {
  vxp_analysis_free(s->an);
  vxp_program_free(s->prog);
  vxp_source_free(s->src);
  vxp_machine_free(s->host);
  vxp_machine_free(s->machine);
  vxp_context_free(s->ctx);
}

/* An edit inside a long function parses again only the piece that holds it: the other pieces
 * hold the bytes of pieces the earlier check parsed without an error (long_items.h), and the
 * program says how many it parsed and how many it kept. The result is a fresh parse's. */
static void test_long_items__an_edit_inside_a_long_function_parses_only_its_piece(void **state) {
  (void)state;
  char *body = one_function(30000);
  session s;
  session_start(&s, body);
  uint32_t all = s.prog->long_memo.parsed;
  assert_true(all > 10); /* the function is checked in many pieces, all parsed */
  assert_int_equal(s.prog->long_memo.kept, 0);
  edit(&s, "[16, 16]", 7000, "[32, 16]"); /* one tile, the same tokens */
  assert_int_equal(s.prog->long_memo.parsed, 1);
  assert_int_equal(s.prog->long_memo.kept, all - 1);
  assert_true(main_peak(s.an) == (uint64_t)15001 * 1024);
  edit(&s, "t7000[0][0]", 0, "t6999[0][0]"); /* a read, near the end */
  assert_int_equal(s.prog->long_memo.parsed, 1);
  assert_int_equal(s.prog->long_memo.kept, all - 1);
  session_end(&s);
  free(body);
}

/* Edits inside a long array literal (one element a line, beside a placed tile) take the memo
 * of pieces as a long block's do: an element changed within its tokens parses only its piece;
 * a broken element and its repair give what a fresh parse and analysis give. */
static void test_long_items__an_edit_inside_a_long_list_parses_only_its_piece(void **state) {
  (void)state;
  text t = {NULL, 0, 0};
  put(&t, "fn main() -> i32 {\n  let t = transfer(Tensor<f32, [16, 16]>::uninit(), "
          "Memory::HBM);\n  let table = [\n");
  for (int i = 0; i < 40000; i++)
    put(&t, "    %d,\n", i % 7);
  put(&t, "  ];\n  spawn on(Topology::Device) { t[0][0] = 1.0; }\n  return 0;\n}\n");
  session s;
  session_start(&s, t.s);
  uint32_t all = s.prog->long_memo.parsed;
  assert_true(all > 10);                  /* the list's runs */
  edit(&s, "    3,\n", 3000, "    9,\n"); /* one element, the same tokens */
  assert_int_equal(s.prog->long_memo.parsed, 1);
  assert_int_equal(s.prog->long_memo.kept, all - 1);
  assert_true(main_peak(s.an) == 1024);
  edit(&s, "    9,\n", 0, "    9 9,\n"); /* broken: as a fresh parse */
  assert_false(vxp_analysis_admitted(s.an));
  edit(&s, "    9 9,\n", 0, "    9,\n"); /* repaired */
  assert_true(vxp_analysis_admitted(s.an));
  assert_true(main_peak(s.an) == 1024);
  session_end(&s);
  free(t.s);
}

/* Edits of a long const table and of the const beside it: an element edited within its
 * tokens parses only its piece; breaking and repairing an element, and resizing the tile the
 * other const sizes, give what a fresh parse and analysis give. */
static void test_long_items__edits_of_a_long_const_table_give_the_fresh_result(void **state) {
  (void)state;
  text t = {NULL, 0, 0};
  put(&t, "const N : i64 = 16;\n\nconst TABLE : Tensor<i64, [40000]> = [\n");
  for (int i = 0; i < 40000; i++)
    put(&t, "    %d,\n", i % 7);
  put(&t, "];\n\nfn main() -> i32 {\n  let t = transfer(Tensor<f32, [N, 16]>::uninit(), "
          "Memory::HBM);\n  spawn on(Topology::Device) { t[0][0] = 1.0; }\n  return 0;\n}\n");
  session s;
  session_start(&s, t.s);
  assert_true(vxp_analysis_admitted(s.an));
  uint32_t all = s.prog->long_memo.parsed;
  assert_true(all > 10);                  /* the list's runs */
  edit(&s, "    3,\n", 3000, "    9,\n"); /* one element, the same tokens */
  assert_int_equal(s.prog->long_memo.parsed, 1);
  assert_int_equal(s.prog->long_memo.kept, all - 1);
  assert_as_fresh(&s);
  edit(&s, "    9,\n", 0, "    9 9,\n"); /* broken */
  assert_false(vxp_analysis_admitted(s.an));
  assert_as_fresh(&s);
  edit(&s, "    9 9,\n", 0, "    9,\n"); /* repaired */
  assert_true(vxp_analysis_admitted(s.an));
  assert_as_fresh(&s);
  edit(&s, "= 16;", 0, "= 32;"); /* the other const: a tile of 32 x 16 f32 */
  assert_true(main_peak(s.an) == 32 * 16 * 4);
  assert_as_fresh(&s);
  session_end(&s);
  free(t.s);
}

/* An edit of the long function's head (every piece holds it) checks every piece again. */
static void test_long_items__an_edit_of_a_long_items_head_checks_every_piece(void **state) {
  (void)state;
  char *body = one_function(30000);
  session s;
  session_start(&s, body);
  uint32_t all = s.prog->long_memo.parsed;
  edit(&s, "fn main() -> i32 {", 0, "fn main () -> i32 {");
  assert_int_equal(s.prog->long_memo.parsed, all);
  assert_int_equal(s.prog->long_memo.kept, 0);
  assert_true(vxp_analysis_admitted(s.an));
  edit(&s, "[16, 16]", 20, "[16, 8]"); /* and the memo of the new head is kept after it */
  assert_int_equal(s.prog->long_memo.parsed, 1);
  assert_int_equal(s.prog->long_memo.kept, all - 1);
  session_end(&s);
  free(body);
}

/* A syntax error typed mid-item, its repair, and a block wrapped around thousands of
 * statements (its braces in two pieces, its body long enough for pieces of its own): each
 * gives the fresh parse's peak and diagnostics. */
static void test_long_items__breaking_edits_of_a_long_function_give_the_fresh_result(void **state) {
  (void)state;
  char *body = one_function(30000);
  session s;
  session_start(&s, body);
  uint32_t all = s.prog->long_memo.parsed;
  /* broken mid-item, brackets balanced (so that only the pieces' parse finds it), the same
   * length: the piece holding it is parsed again, its error found */
  edit(&s, "let t9000 = ", 0, "let t9000 + ");
  assert_false(vxp_analysis_admitted(s.an));
  assert_non_null(test_find_diag(s.an, "VXP0003"));
  edit(&s, "let t9000 + ", 0, "let t9000 = "); /* mended: the cut text kept no memo */
  assert_true(vxp_analysis_admitted(s.an));
  assert_int_equal(s.prog->long_memo.parsed, all);
  edit(&s, "let t2000 = ", 0, "let t2000 == "); /* broken, a byte longer */
  assert_false(vxp_analysis_admitted(s.an));
  assert_non_null(test_find_diag(s.an, "VXP0003"));
  edit(&s, "let t2000 == ", 0, "let t2000 = ");
  assert_true(vxp_analysis_admitted(s.an));
  assert_true(main_peak(s.an) == (uint64_t)15000 * 1024);
  /* `if true {` before placement 1000 and `}` before placement 9000, in one edit: the tiles
   * inside are released at the block's end */
  const char *t = vxp_source_text(s.src, NULL);
  const char *a = strstr(t, "  let t1000 = "), *b = strstr(t, "  let t9000 = ");
  assert_non_null(a);
  assert_non_null(b);
  text wrapped = {NULL, 0, 0};
  put(&wrapped, "  if true {\n%.*s  }\n", (int)(b - a), a);
  edit_at(&s, (uint32_t)(a - t), (uint32_t)(b - t), wrapped.s, wrapped.len);
  assert_true(s.prog->long_memo.parsed + s.prog->long_memo.kept > all);
  assert_true(vxp_analysis_admitted(s.an));
  /* an unclosed brace inside it: the item runs on and is cut, as afresh */
  edit(&s, "  let t5000 = ", 0, "  {\n  let t5000 = ");
  assert_false(vxp_analysis_admitted(s.an));
  free(wrapped.s);
  session_end(&s);
  free(body);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_long_items__a_function_of_1e5_statements_is_analysed_whole),
      cmocka_unit_test(test_long_items__unrolled_126_layer_llama2_prefill_gets_its_peak),
      cmocka_unit_test(test_long_items__a_syntax_error_in_a_long_item_is_reported_where_it_is),
      cmocka_unit_test(test_long_items__an_unclosed_long_item_says_it_does_not_end),
      cmocka_unit_test(test_long_items__the_scan_keeps_valid_long_items_and_cuts_broken_ones),
      cmocka_unit_test(test_long_items__edits_of_a_long_function_reparse_as_a_fresh_parse),
      cmocka_unit_test(test_long_items__an_edit_inside_a_long_function_parses_only_its_piece),
      cmocka_unit_test(test_long_items__an_edit_of_a_long_items_head_checks_every_piece),
      cmocka_unit_test(test_long_items__breaking_edits_of_a_long_function_give_the_fresh_result),
      cmocka_unit_test(test_long_items__long_impls_and_structs_are_kept_whole),
      cmocka_unit_test(test_long_items__a_for_body_of_1e5_statements_is_analysed_whole),
      cmocka_unit_test(test_long_items__nested_long_blocks_are_analysed_whole),
      cmocka_unit_test(test_long_items__a_syntax_error_deep_in_a_for_body_is_reported_first),
      cmocka_unit_test(test_long_items__a_long_array_literal_or_argument_list_is_analysed_whole),
      cmocka_unit_test(test_long_items__tuples_and_grad_arguments_are_not_split),
      cmocka_unit_test(test_long_items__a_syntax_error_in_a_long_list_is_reported_first),
      cmocka_unit_test(test_long_items__an_edit_inside_a_long_list_parses_only_its_piece),
      cmocka_unit_test(test_long_items__a_statement_long_outside_its_blocks_names_the_limit),
      cmocka_unit_test(test_long_items__a_long_const_table_is_analysed_whole),
      cmocka_unit_test(test_long_items__a_syntax_error_in_a_long_const_table_is_reported_first),
      cmocka_unit_test(test_long_items__edits_of_a_long_const_table_give_the_fresh_result),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
