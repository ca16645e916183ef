/* SPDX-License-Identifier: Apache-2.0 */
/* test_incremental.c - the incremental path against the from-scratch one, as a property:
 * long pseudo-random edit sequences (insertions of code fragments, deletions, edits that
 * break the syntax and edits that repair it, changes to `const` items and to the machine's
 * Memory declarations, several edits before one reparse, whole-text replacements), and
 * after every reparse the report of the incrementally reparsed program must be the report
 * of a program parsed afresh from the same text, byte for byte. */
#include "support.h"

#include <stdbool.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* A deterministic generator, so a failure reproduces from its seed. */
static uint32_t next_random(uint32_t *state) {
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

static const char base_program[] =
    "// property test program\n"
    "Memory CPU_DRAM {}\n"
    "Memory HBM {\n"
    "  within: Memory::CPU_DRAM, capacity: 64 MiB, managed: explicit\n"
    "}\n"
    "Topology Dev {\n"
    "  arch: nvptx64, memory: Memory::HBM, visible: [Memory::HBM],\n"
    "  transfer Memory::CPU_DRAM -> Memory::HBM : 31.5 GB/s\n"
    "}\n"
    "const N : i64 = 512;\n"
    "const M : i64 = N * 2;\n"
    "fn leaf(x: i32) -> i32 {\n"
    "  let w = transfer(Tensor<f32, [N, N]>::uninit(), Memory::HBM);\n"
    "  print(w);\n"
    "  return x;\n"
    "}\n"
    "fn middle(x: i32) -> i32 {\n"
    "  let held = transfer(Tensor<f16, [M, 256]>::uninit(), Memory::HBM);\n"
    "  for i in 0..8 {\n"
    "    let s = transfer(Tensor<f16, [256, 256]>::uninit(), Memory::HBM);\n"
    "    print(s);\n"
    "  }\n"
    "  let r = leaf(x);\n"
    "  print(held);\n"
    "  return r;\n"
    "}\n"
    "fn main() -> i32 {\n"
    "  let a = transfer(Tensor<f32, [N, 64]>::uninit(), Memory::HBM); // role: activations\n"
    "  if comptime N > 256 {\n"
    "    let b = transfer(Tensor<u8, [M]>::uninit(), Memory::HBM);\n"
    "    print(b);\n"
    "  }\n"
    "  print(a);\n"
    "  return middle(1);\n"
    "}\n";

/* Code fragments an editor might type, whole or cut, in any place. */
static const char *const fragments[] = {
    "let t = transfer(Tensor<f32, [64, 64]>::uninit(), Memory::HBM);\n",
    "print(t);\n",
    "{",
    "}",
    "(",
    ")",
    ";",
    "\n",
    " ",
    "999",
    "N",
    "M * 4",
    "Memory::",
    "Memory::HBM",
    "for j in 0..3 { ",
    "fn extra() -> i32 { return leaf(2); }\n",
    "const K : i64 = 7;\n",
    "Memory SRAM { within: Memory::HBM, capacity: 1 MiB }\n",
    "// role: weights\n",
    "middle(3);",
    "\xc3\xa9",      /* é: two bytes */
    "\xf0\x9d\x94\x85", /* a character outside the BMP */
    "let",
    "transfer(",
    "Tensor<f16, [",
    "]>::uninit()",
};

/* A buffer holding the text the sources should have (the oracle of the edits). */
typedef struct text_buf {
  char *s;
  size_t len, cap;
} text_buf;

static void buf_replace(text_buf *b, size_t start, size_t end, const char *with, size_t n) {
  size_t len = b->len - (end - start) + n;
  if (len + 1 > b->cap) {
    b->cap = (len + 1) * 2;
    b->s = realloc(b->s, b->cap);
    assert_non_null(b->s);
  }
  memmove(b->s + start + n, b->s + end, b->len - end);
  memcpy(b->s + start, with, n);
  b->len = len;
  b->s[len] = '\0';
}

/* The byte just after the first digit run following `key` at or after a random occurrence
 * of it; false when the text has no such place. */
static bool find_number_after(const text_buf *b, const char *key, uint32_t *rnd, size_t *start,
                              size_t *end) {
  size_t count = 0;
  for (const char *p = strstr(b->s, key); p; p = strstr(p + 1, key)) count++;
  if (!count) return false;
  size_t pick = next_random(rnd) % count;
  const char *p = strstr(b->s, key);
  while (pick--) p = strstr(p + 1, key);
  p += strlen(key);
  while (*p && !(*p >= '0' && *p <= '9') && *p != '\n') p++;
  if (!(*p >= '0' && *p <= '9')) return false;
  *start = (size_t)(p - b->s);
  while (*p >= '0' && *p <= '9') p++;
  *end = (size_t)(p - b->s);
  return true;
}

/* One random edit of `b`: sets [*start, *end) and the replacement (in `scratch`). */
static void random_edit(text_buf *b, uint32_t *rnd, size_t *start, size_t *end, char *scratch,
                        size_t *n) {
  uint32_t kind = next_random(rnd) % 100;
  size_t at = b->len ? next_random(rnd) % (b->len + 1) : 0;
  *start = *end = at;
  *n = 0;
  if (kind < 35) { /* insert a fragment, or a cut of one */
    const char *f = fragments[next_random(rnd) % ARRAY_LEN(fragments)];
    size_t len = strlen(f);
    if (next_random(rnd) % 4 == 0) len = next_random(rnd) % (len + 1);
    memcpy(scratch, f, len);
    *n = len;
  } else if (kind < 60) { /* delete a short range */
    size_t len = 1 + next_random(rnd) % 24;
    *end = at + len > b->len ? b->len : at + len;
  } else if (kind < 72) { /* a const item's value */
    if (!find_number_after(b, "const ", rnd, start, end)) return;
    *n = (size_t)snprintf(scratch, 32, "%u", next_random(rnd) % 2048);
  } else if (kind < 82) { /* a machine declaration's capacity */
    if (!find_number_after(b, "capacity: ", rnd, start, end)) return;
    *n = (size_t)snprintf(scratch, 32, "%u", 1 + next_random(rnd) % 200);
  } else if (kind < 90) { /* break: delete a bracket */
    const char *brackets = "{}()[]";
    char want = brackets[next_random(rnd) % 6];
    const char *p = memchr(b->s + at, want, b->len - at);
    if (!p) p = memchr(b->s, want, b->len);
    if (!p) return;
    *start = (size_t)(p - b->s);
    *end = *start + 1;
  } else if (kind < 98) { /* repair: a closing brace or a semicolon where a line ends */
    const char *nl = memchr(b->s + at, '\n', b->len - at);
    if (!nl) return;
    *start = *end = (size_t)(nl - b->s);
    scratch[0] = next_random(rnd) % 2 ? '}' : ';';
    *n = 1;
  } else { /* the whole text replaced by the base program */
    *start = 0;
    *end = b->len;
    *n = strlen(base_program);
    memcpy(scratch, base_program, *n);
  }
}

static char *report_of(vxp_context *ctx, const vxp_program *prog) {
  vxp_analysis *an;
  assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
  const char *json = vxp_analysis_json(an, NULL);
  if (!json) fprintf(stderr, "vxp_analysis_json failed: %s\n", vxp_context_errmsg(ctx));
  assert_non_null(json);
  char *copy = strdup(json);
  vxp_analysis_free(an);
  return copy;
}

/* `steps` reparses of edits from `seed` on `initial`, each compared with a fresh parse. */
static void run_sequence(const char *initial, uint32_t seed, int steps) {
  vxp_context *ctx;
  assert_int_equal(vxp_context_new(&ctx, NULL), VXP_OK);
  text_buf b = {NULL, 0, 0};
  buf_replace(&b, 0, 0, initial, strlen(initial));
  vxp_source *src;
  vxp_program *prog;
  assert_int_equal(vxp_source_new(&src, ctx, "prop.vx", b.s, b.len), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  uint32_t rnd = seed;
  static char scratch[8192];
  size_t reused = 0;
  for (int step = 0; step < steps; step++) {
    /* Usually one edit per reparse, sometimes a burst of up to four (typing faster than
     * the analysis): each applies to the version the previous one made. */
    int burst = next_random(&rnd) % 5 == 0 ? 2 + (int)(next_random(&rnd) % 3) : 1;
    vxp_source *cur = src;
    for (int k = 0; k < burst; k++) {
      size_t start, end, n;
      random_edit(&b, &rnd, &start, &end, scratch, &n);
      vxp_source *next;
      assert_int_equal(vxp_source_edit(&next, cur, (uint32_t)start, (uint32_t)end, scratch, n),
                       VXP_OK);
      buf_replace(&b, start, end, scratch, n);
      if (cur != src) vxp_source_free(cur);
      cur = next;
    }
    size_t len;
    const char *text = vxp_source_text(cur, &len);
    assert_int_equal(len, b.len);
    assert_memory_equal(text, b.s, len);

    vxp_program *inc;
    assert_int_equal(vxp_program_reparse(&inc, ctx, prog, cur), VXP_OK);
    reused += (size_t)vxp_program_reused_tree(inc);
    vxp_source *fresh_src;
    vxp_program *fresh;
    assert_int_equal(vxp_source_new(&fresh_src, ctx, "prop.vx", b.s, b.len), VXP_OK);
    assert_int_equal(vxp_program_parse(&fresh, ctx, fresh_src), VXP_OK);
    char *a = report_of(ctx, inc), *f = report_of(ctx, fresh);
    if (strcmp(a, f) != 0) {
      fprintf(stderr, "seed %u, step %d: the incremental report differs; the text:\n%s\n", seed,
              step, b.s);
      assert_string_equal(a, f);
    }
    free(a);
    free(f);
    vxp_program_free(fresh);
    vxp_source_free(fresh_src);
    vxp_program_free(prog);
    vxp_source_free(src);
    prog = inc;
    src = cur;
  }
  /* The sequence really exercised the incremental path. */
  assert_true(reused > (size_t)steps / 2);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(b.s);
}

static void test_incremental__random_edits_report_what_a_fresh_parse_reports(void **state) {
  (void)state;
  for (uint32_t seed = 1; seed <= 4; seed++) run_sequence(base_program, seed, 250);
}

static void test_incremental__random_edits_of_the_llama_example(void **state) {
  (void)state;
  FILE *f = fopen("examples/llama2/prefill.vx", "rb");
  assert_non_null(f);
  static char text[65536];
  size_t n = fread(text, 1, sizeof(text) - 1, f);
  fclose(f);
  text[n] = '\0';
  run_sequence(text, 77, 150);
}

/* A reparse re-checks the syntax of the items an edit touches and moves the other items'
 * syntax errors past it: an error three functions below an edit that adds two lines is
 * still reported, two lines lower, as a fresh parse reports it. */
static void test_incremental__syntax_errors_of_untouched_items_move_with_the_edit(void **state) {
  (void)state;
  static const char text[] = "fn a() -> i32 { return 1; }\n"
                             "fn b() -> i32 { return 2; }\n"
                             "fn c() -> i32 { return 3; }\n"
                             "fn d() -> i32 { let = ; return 4; }\n"
                             "fn e() -> i32 { let on = 5; return on; }\n";
  vxp_context *ctx = test_context();
  vxp_source *src, *next, *fresh_src;
  vxp_program *prog, *inc, *fresh;
  assert_int_equal(vxp_source_new(&src, ctx, "s.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_true(vxp_program_diagnostic_count(prog) >= 2); /* d's error, e's reserved word */
  const char *ins = "let x = 1;\nlet y = 2;\n";
  uint32_t at = (uint32_t)(strstr(text, "return 1") - text);
  assert_int_equal(vxp_source_edit(&next, src, at, at, ins, strlen(ins)), VXP_OK);
  assert_int_equal(vxp_program_reparse(&inc, ctx, prog, next), VXP_OK);
  assert_true(vxp_program_reused_tree(inc));
  size_t len;
  const char *t = vxp_source_text(next, &len);
  assert_int_equal(vxp_source_new(&fresh_src, ctx, "s.vx", t, len), VXP_OK);
  assert_int_equal(vxp_program_parse(&fresh, ctx, fresh_src), VXP_OK);
  assert_int_equal(vxp_program_diagnostic_count(inc), vxp_program_diagnostic_count(fresh));
  for (size_t i = 0; i < vxp_program_diagnostic_count(fresh); i++) {
    const vxp_diagnostic *x = vxp_program_diagnostic(inc, i), *y = vxp_program_diagnostic(fresh, i);
    assert_string_equal(vxp_diagnostic_message(x), vxp_diagnostic_message(y));
    assert_int_equal(vxp_diagnostic_range(x).start_byte, vxp_diagnostic_range(y).start_byte);
    assert_int_equal(vxp_diagnostic_range(x).start.line, vxp_diagnostic_range(y).start.line);
    assert_int_equal(vxp_diagnostic_range(x).start.column, vxp_diagnostic_range(y).start.column);
    assert_ptr_equal(vxp_diagnostic_source(x), next);
  }
  assert_int_equal(vxp_diagnostic_range(vxp_program_diagnostic(inc, 0)).start.line, 6);
  vxp_program_free(fresh);
  vxp_source_free(fresh_src);
  vxp_program_free(inc);
  vxp_program_free(prog);
  vxp_source_free(next);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

/* Found by the sequences above: a deletion that cuts a character leaves bytes that are not
 * UTF-8, a syntax error quotes them, and the JSON report and the SARIF log failed as "out of
 * memory" (jansson refuses such strings). The bytes are now U+FFFD in both. */
static void test_incremental__a_message_quoting_bytes_that_are_not_utf8_still_reports(void **state) {
  (void)state;
  static const char text[] = "fn main() -> i32 {\n  \xf0\x9d;\n  return 0;\n}\n";
  vxp_context *ctx = test_context();
  vxp_source *src;
  vxp_program *prog;
  vxp_analysis *an;
  assert_int_equal(vxp_source_new(&src, ctx, "cut.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
  assert_true(vxp_analysis_error_count(an) > 0);
  const char *json = vxp_analysis_json(an, NULL);
  assert_non_null(json);
  assert_non_null(strstr(json, "unexpected '\\uFFFD\\uFFFD'"));
  assert_non_null(vxp_analysis_sarif(an, NULL));
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_incremental__random_edits_report_what_a_fresh_parse_reports),
      cmocka_unit_test(test_incremental__random_edits_of_the_llama_example),
      cmocka_unit_test(test_incremental__syntax_errors_of_untouched_items_move_with_the_edit),
      cmocka_unit_test(test_incremental__a_message_quoting_bytes_that_are_not_utf8_still_reports),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
