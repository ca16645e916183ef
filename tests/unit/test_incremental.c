/* SPDX-License-Identifier: Apache-2.0 */
/* test_incremental.c - the incremental path against the from-scratch one, as a property:
 * long pseudo-random edit sequences (insertions of code fragments, deletions, edits that
 * break the syntax and edits that repair it, changes to `const` items and to the machine's
 * Memory declarations, several edits before one reparse, whole-text replacements), and
 * after every reparse the report of the incrementally reparsed program, analysed with
 * vxp_analyze_incremental from the previous version's analysis, must be the report of a
 * program parsed and analysed afresh from the same text, byte for byte. */
#include "support.h"

#include "analysis_data.h" /* white box: how many items an analysis took over ... */
#include "program.h"       /* ... and whether a reparse copied the unchanged items' model */
#include "source.h"        /* ... and where a range ends */

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
    "fn on_dev(x: f32) on Topology::Dev -> f32 {\n"
    "  return x * 2.5;\n"
    "}\n"
    "fn host_side() -> i32 {\n"
    "  let v : f32 = on_dev(1.5);\n"
    "  let t = transfer(Tensor<f32, [8]>::uninit(), Memory::HBM);\n"
    "  let e = t[0];\n"
    "  return 0;\n"
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
    "on_dev(2.5);",
    "let q = t[1];",
    "spawn on(Topology::Dev) { let z = t[2]; }\n",
    "\xc3\xa9",         /* é: two bytes */
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
  for (const char *p = strstr(b->s, key); p; p = strstr(p + 1, key))
    count++;
  if (!count) return false;
  size_t pick = next_random(rnd) % count;
  const char *p = strstr(b->s, key);
  while (pick--)
    p = strstr(p + 1, key);
  p += strlen(key);
  while (*p && !(*p >= '0' && *p <= '9') && *p != '\n')
    p++;
  if (!(*p >= '0' && *p <= '9')) return false;
  *start = (size_t)(p - b->s);
  while (*p >= '0' && *p <= '9')
    p++;
  *end = (size_t)(p - b->s);
  return true;
}

/* A random place inside a function body, as far as indentation tells: the start of a
 * random indented line (any place when there is none). */
static size_t place_in_a_body(const text_buf *b, uint32_t *rnd) {
  size_t count = 0;
  for (const char *p = strstr(b->s, "\n  "); p; p = strstr(p + 1, "\n  "))
    count++;
  for (int attempt = 0; count && attempt < 16; attempt++) {
    size_t pick = next_random(rnd) % count;
    const char *p = strstr(b->s, "\n  ");
    while (pick--)
      p = strstr(p + 1, "\n  ");
    /* the item it belongs to: the nearest line above that is not indented */
    const char *q = p;
    while (q > b->s && !(q[-1] == '\n' && q[0] != ' '))
      q--;
    if (strncmp(q, "fn ", 3) == 0) return (size_t)(p - b->s) + 1 + next_random(rnd) % 3;
  }
  return b->len ? next_random(rnd) % (b->len + 1) : 0;
}

/* One random edit of `b`: sets [*start, *end) and the replacement (in `scratch`). With
 * `bodies`, insertions and deletions are made inside function bodies (as an editor's
 * typing mostly is), which is where an analysis can take the other items over. */
static void random_edit(text_buf *b, uint32_t *rnd, bool bodies, size_t *start, size_t *end,
                        char *scratch, size_t *n) {
  uint32_t kind = next_random(rnd) % 100;
  *start = *end = 0;
  *n = 0;
  if (bodies && kind >= 85 && kind < 98) { /* a loop bound, the edit of bench_incremental */
    if (!find_number_after(b, "in 0..", rnd, start, end)) return;
    *n = (size_t)snprintf(scratch, 32, "%u", next_random(rnd) % 100);
    return;
  }
  if (bodies && kind < 85) { /* a whole statement typed or deleted: the text stays valid */
    static const char *const statements[] = {
        "  let t = transfer(Tensor<f32, [64, 64]>::uninit(), Memory::HBM);\n",
        "  on_dev(2.5);\n",
        "  let q = t[1];\n",
        "  middle(3);\n",
        "  spawn on(Topology::Dev) { let z = t[2]; }\n",
        "  for j in 0..3 { print(j); }\n",
        "  raw::barrier();\n"};
    size_t line = place_in_a_body(b, rnd);
    while (line > 0 && b->s[line - 1] != '\n')
      line--;
    *start = *end = line;
    *n = 0;
    if (kind < 45) {
      const char *f = statements[next_random(rnd) % ARRAY_LEN(statements)];
      *n = strlen(f);
      memcpy(scratch, f, *n);
    } else {
      const char *nl = memchr(b->s + line, '\n', b->len - line);
      *end = nl ? (size_t)(nl - b->s) + 1 : b->len;
    }
    return;
  }
  size_t at = bodies ? place_in_a_body(b, rnd) : b->len ? next_random(rnd) % (b->len + 1) : 0;
  *start = *end = at;
  if (kind < 35) { /* insert a fragment, or a cut of one */
    const char *f = fragments[next_random(rnd) % ARRAY_LEN(fragments)];
    size_t len = strlen(f);
    if (next_random(rnd) % 4 == 0) len = next_random(rnd) % (len + 1);
    memcpy(scratch, f, len);
    *n = len;
  } else if (kind < 60) { /* delete a short range */
    size_t len = 1 + next_random(rnd) % (bodies ? 6 : 24);
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

/* The JSON report of `an`, copied. */
static char *json_of(vxp_context *ctx, vxp_analysis *an) {
  const char *json = vxp_analysis_json(an, NULL);
  if (!json) fprintf(stderr, "vxp_analysis_json failed: %s\n", vxp_context_errmsg(ctx));
  assert_non_null(json);
  return strdup(json);
}

static char *report_of(vxp_context *ctx, const vxp_program *prog) {
  vxp_analysis *an;
  assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
  char *copy = json_of(ctx, an);
  vxp_analysis_free(an);
  return copy;
}

static void assert_same_analysis(const vxp_analysis *a, const vxp_analysis *b);

/* report_of, and the analysis compared with `inc` table by table. */
static char *report_compared(vxp_context *ctx, const vxp_program *prog, const vxp_analysis *inc,
                             const vxp_analyze_options *opts) {
  vxp_analysis *an;
  assert_int_equal(vxp_analyze(&an, ctx, prog, opts), VXP_OK);
  assert_same_analysis(inc, an);
  char *copy = json_of(ctx, an);
  vxp_analysis_free(an);
  return copy;
}

static bool same_str(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

static bool same_range(vxp_range a, vxp_range b) {
  return a.start_byte == b.start_byte && a.end_byte == b.end_byte && a.start.line == b.start.line &&
         a.start.column == b.start.column && a.end.line == b.end.line &&
         a.end.column == b.end.column;
}

/* Tables of one element type compared element by element with `same`. */
#define ASSERT_SAME_TABLE(a, b, field, same)                                                       \
  do {                                                                                             \
    assert_int_equal((a)->field.len, (b)->field.len);                                              \
    for (size_t i_ = 0; i_ < (a)->field.len; i_++) {                                               \
      const __typeof__(*(a)->field.items) *x = &(a)->field.items[i_];                              \
      const __typeof__(*(a)->field.items) *y = &(b)->field.items[i_];                              \
      if (!(same)) fail_msg("%s[%zu] differs", #field, i_);                                        \
    }                                                                                              \
  } while (0)

/* What the report shows and what it does not (the facts roofline and codegen read, the
 * call sites, the summaries before the fold's totals), incremental against fresh: every
 * index, position and name the walk of a function makes. */
static void assert_same_analysis(const vxp_analysis *a, const vxp_analysis *b) {
  ASSERT_SAME_TABLE(a, b, functions,
                    x->model_fn == y->model_fn && same_str(x->name, y->name) &&
                        x->is_instance == y->is_instance && x->call_first == y->call_first &&
                        x->call_count == y->call_count && x->fact_first == y->fact_first &&
                        x->access_fact_first == y->access_fact_first &&
                        x->origin_call == y->origin_call && x->depth == y->depth);
  ASSERT_SAME_TABLE(a, b, event_facts,
                    x->reached == y->reached && x->arm == y->arm &&
                        x->trips_known == y->trips_known && x->size == y->size &&
                        x->trips == y->trips && x->raw_bytes == y->raw_bytes &&
                        (x->size != VXP_FACT_SIZE_KNOWN ||
                         (x->dims_first == y->dims_first && x->dims_count == y->dims_count)));
  ASSERT_SAME_TABLE(a, b, fact_dims, *x == *y);
  ASSERT_SAME_TABLE(a, b, access_facts,
                    x->why == y->why && x->dim == y->dim && x->bytes == y->bytes);
  ASSERT_SAME_TABLE(a, b, scopes,
                    x->id == y->id && x->parent == y->parent && x->function == y->function &&
                        x->kind == y->kind && same_range(x->range, y->range));
  ASSERT_SAME_TABLE(
      a, b, records,
      x->scope == y->scope && x->function == y->function && x->space == y->space &&
          x->bytes == y->bytes && x->depth == y->depth && x->order == y->order &&
          x->live_at_peak == y->live_at_peak && x->multiplier == y->multiplier &&
          x->released == y->released && x->release_order == y->release_order &&
          x->type == y->type && same_str(x->role, y->role) &&
          same_str(x->function_name, y->function_name) && same_str(x->space_name, y->space_name) &&
          same_str(x->binding_name, y->binding_name) && same_range(x->range, y->range));
  ASSERT_SAME_TABLE(a, b, routes,
                    x->record == y->record && x->function == y->function &&
                        x->path_first == y->path_first && x->path_len == y->path_len &&
                        x->total_cost == y->total_cost && x->bytes == y->bytes &&
                        x->lowered == y->lowered && x->from_node == y->from_node &&
                        x->to_node == y->to_node && same_range(x->range, y->range) &&
                        same_str(x->traffic_absent_reason, y->traffic_absent_reason));
  ASSERT_SAME_TABLE(a, b, route_nodes, *x == *y);
  ASSERT_SAME_TABLE(a, b, calls,
                    x->caller == y->caller && x->callee == y->callee &&
                        x->start_byte == y->start_byte && x->end_byte == y->end_byte &&
                        same_str(x->callee_name, y->callee_name) &&
                        same_str(x->unresolved, y->unresolved));
  ASSERT_SAME_TABLE(a, b, held, *x == *y);
  ASSERT_SAME_TABLE(a, b, fn_spaces,
                    x->self_peak == y->self_peak && x->total == y->total &&
                        x->best_call == y->best_call && x->hops == y->hops &&
                        x->resident_set == y->resident_set && x->call_tree == y->call_tree &&
                        x->bounded == y->bounded && x->reported == y->reported);
  ASSERT_SAME_TABLE(
      a, b, resident_sets,
      x->function == y->function && x->space == y->space && x->peak_bytes == y->peak_bytes &&
          x->tiles == y->tiles && x->peak_record == y->peak_record &&
          x->record_first == y->record_first && x->record_count == y->record_count &&
          x->allocated_bytes == y->allocated_bytes && same_str(x->function_name, y->function_name));
  ASSERT_SAME_TABLE(a, b, set_records, *x == *y);
  ASSERT_SAME_TABLE(a, b, diags,
                    x->severity == y->severity && strcmp(x->code, y->code) == 0 &&
                        same_str(x->message, y->message) && same_str(x->function, y->function) &&
                        (!x->has_range || same_range(x->range, y->range)));
}

/* `steps` reparses of edits from `seed` on `initial`, each compared with a fresh parse. */
/* -D overrides an editor's configuration may change between two edits (the_defines[0]: none). */
static const vxp_const_override n_small[] = {{"N", 128}}, m_big[] = {{"M", 4096}, {"N", 64}};
static const vxp_analyze_options the_defines[] = {
    {VXP_ANALYZE_OPTIONS_VERSION, NULL, NULL, NULL, 0, 0},
    {VXP_ANALYZE_OPTIONS_VERSION, NULL, NULL, n_small, 1, 0},
    {VXP_ANALYZE_OPTIONS_VERSION, NULL, NULL, m_big, 2, 0}};

static void run_sequence_defines(const char *initial, uint32_t seed, int steps, bool bodies,
                                 bool vary_defines);

static void run_sequence(const char *initial, uint32_t seed, int steps, bool bodies) {
  run_sequence_defines(initial, seed, steps, bodies, false);
}

/* With `vary_defines`, each analysis takes one of the_defines, mostly the last one's. */
static void run_sequence_defines(const char *initial, uint32_t seed, int steps, bool bodies,
                                 bool vary_defines) {
  vxp_context *ctx;
  assert_int_equal(vxp_context_new(&ctx, NULL), VXP_OK);
  text_buf b = {NULL, 0, 0};
  buf_replace(&b, 0, 0, initial, strlen(initial));
  vxp_source *src;
  vxp_program *prog;
  assert_int_equal(vxp_source_new(&src, ctx, "prop.vx", b.s, b.len), VXP_OK);
  /* odd seeds as an editor opens a file (VXP_PROGRAM_FOR_EDITING: the first edit may parse
   * only its window), even ones as a plain parse (the first reparse lowers in full) */
  assert_int_equal(vxp_program_parse_flags(&prog, ctx, src, seed & 1 ? VXP_PROGRAM_FOR_EDITING : 0),
                   VXP_OK);
  vxp_analysis *an;
  assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
  uint32_t rnd = seed;
  static char scratch[8192];
  size_t reused = 0, lent = 0, taken = 0, spliced = 0, fns_taken = 0, fns_walked = 0;
  size_t windowed = 0; /* reparses that parsed only the window around the edit */
  size_t defines = 0;
  for (int step = 0; step < steps; step++) {
    /* Usually one edit per reparse, sometimes a burst of up to four (typing faster than
     * the analysis): each applies to the version the previous one made. */
    int burst = next_random(&rnd) % 5 == 0 ? 2 + (int)(next_random(&rnd) % 3) : 1;
    vxp_source *cur = src;
    for (int k = 0; k < burst; k++) {
      size_t start, end, n;
      random_edit(&b, &rnd, bodies, &start, &end, scratch, &n);
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
    spliced += inc->spliced;
    windowed += inc->window_tree != NULL;
    vxp_source *fresh_src;
    vxp_program *fresh;
    assert_int_equal(vxp_source_new(&fresh_src, ctx, "prop.vx", b.s, b.len), VXP_OK);
    assert_int_equal(vxp_program_parse(&fresh, ctx, fresh_src), VXP_OK);
    if (vary_defines && next_random(&rnd) % 4 == 0)
      defines = next_random(&rnd) % ARRAY_LEN(the_defines);
    const vxp_analyze_options *opts = &the_defines[defines];
    vxp_analysis *inc_an;
    assert_int_equal(vxp_analyze_incremental(&inc_an, ctx, inc, an, opts), VXP_OK);
    lent += inc_an->items_taken > 0;
    taken += inc_an->items_taken;
    fns_taken += inc_an->functions_taken;
    fns_walked += inc_an->functions_walked;
    char *a = json_of(ctx, inc_an), *f = report_compared(ctx, fresh, inc_an, opts);
    if (strcmp(a, f) != 0) {
      fprintf(stderr, "seed %u, step %d: the incremental report differs; the text:\n%s\n", seed,
              step, b.s);
      fprintf(stderr, "the trees are %s\n",
              strcmp(vxp_program_sexp(inc), vxp_program_sexp(fresh)) ? "different" : "the same");
      assert_string_equal(a, f);
    }
    free(a);
    free(f);
    vxp_program_free(fresh);
    vxp_source_free(fresh_src);
    /* The earlier version goes first, as in an editor: the new analysis owes it nothing. */
    vxp_analysis_free(an);
    vxp_program_free(prog);
    vxp_source_free(src);
    an = inc_an;
    prog = inc;
    src = cur;
  }
  /* The sequence really exercised the incremental paths. */
  fprintf(stderr,
          "seed %u: %d reparses, %zu on the old tree (%zu of them parsing only the edit's "
          "window), %zu with the unchanged items' model copied; %zu analyses took %zu items "
          "over; functions taken over %zu, walked %zu\n",
          seed, steps, reused, windowed, spliced, lent, taken, fns_taken, fns_walked);
  assert_true(lent > (size_t)steps / (bodies ? 6 : 12));
  if (bodies) assert_true(spliced > (size_t)steps / 10);
  if (bodies) assert_true(windowed > (size_t)steps / 10);
  if (bodies) assert_true(fns_taken > (size_t)steps / 2);
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(b.s);
}

static void test_incremental__random_edits_report_what_a_fresh_parse_reports(void **state) {
  (void)state;
  for (uint32_t seed = 1; seed <= 3; seed++)
    run_sequence(base_program, seed, 200, false);
  for (uint32_t seed = 5; seed <= 6; seed++)
    run_sequence(base_program, seed, 250, true);
  /* -D overrides changed between edits: the functions' results are lent only while they
   * stay the same. */
  run_sequence_defines(base_program, 7, 200, true, true);
}

/* The base program with the syntax checks' findings in several items that parse cleanly: a
 * reserved word as a name, an obsolete `where Transfer<S, D>`, a stray item keyword in front
 * of a function. A reparse checks the touched items' syntax alone (found among the
 * top-level nodes by bisection) and moves the others' diagnostics: body edits around them
 * must report what a fresh parse reports. */
static void
test_incremental__body_edits_among_syntax_findings_report_what_a_fresh_parse_reports(void **state) {
  (void)state;
  static char text[8192];
  snprintf(text, sizeof(text), "%s%s", base_program,
           "fn named_on(x: i32) -> i32 {\n"
           "  let on = x;\n"
           "  return on;\n"
           "}\n"
           "fn old_where<S: Topology, D: Topology>(x : i32) -> i32 where Transfer<S, D> {\n"
           "  return x;\n"
           "}\n"
           "struct fn stray_keyword(x: i32) -> i32 {\n"
           "  let u = transfer(Tensor<f32, [16]>::uninit(), Memory::HBM);\n"
           "  print(u);\n"
           "  return x;\n"
           "}\n"
           "fn tail_fn(x: i32) -> i32 {\n"
           "  let in_tail = transfer(Tensor<f32, [32]>::uninit(), Memory::HBM);\n"
           "  print(in_tail);\n"
           "  return x;\n"
           "}\n");
  run_sequence(text, 11, 120, true);
}

/* Whether two scans' states between items are the same list. */
static void assert_same_marks(const vxp_scan_marks *a, const vxp_scan_marks *b) {
  assert_int_equal(a->len, b->len);
  for (size_t i = 0; i < a->len; i++) {
    const vxp_scan_mark *x = &a->items[i], *y = &b->items[i];
    assert_int_equal(x->at, y->at);
    assert_true(x->nested == y->nested && x->pending == y->pending && x->angles == y->angles &&
                x->stray == y->stray && x->window == y->window && x->tainted == y->tainted &&
                x->block_closed == y->block_closed);
  }
}

/* The parsable-length scan of a reparse resumes at the last item before the change and
 * stops where its state meets the earlier scan's again: after every random edit (fragments,
 * deletions, and texts that the scan cuts: brackets nested past the limit, stray tokens, an
 * unclosed generic repeated) its result, its reason and its states are a whole scan's. */
static void
test_incremental__the_parsable_length_scan_resumes_where_the_text_changed(void **state) {
  (void)state;
  vxp_context *ctx;
  assert_int_equal(vxp_context_new(&ctx, NULL), VXP_OK);
  text_buf b = {NULL, 0, 0};
  buf_replace(&b, 0, 0, base_program, strlen(base_program));
  for (int k = 0; k < 40; k++) {
    char fn[160];
    int n = snprintf(fn, sizeof(fn),
                     "fn g%d(x: i32) -> i32 {\n  if x < %d { return g%d(x); }\n  return x;\n}\n", k,
                     k, k);
    buf_replace(&b, b.len, b.len, fn, (size_t)n);
  }
  static char big[3][40000];
  memset(big[0], '(', VXP_MAX_BRACKET_DEPTH + 10);
  for (size_t i = 0; i + 2 < 3 * VXP_MAX_NESTED_TOKENS; i += 2)
    memcpy(big[1] + i, "x ", 2);
  for (size_t i = 0; i + 10 < sizeof(big[2]) - 1; i += 10)
    memcpy(big[2] + i, "let a: A<x;", 10);
  uint32_t rnd = 4242;
  vxp_scan_marks old = {NULL, 0, 0};
  vxp_source *old_src = NULL;
  bool old_whole = false;
  size_t resumed = 0, cut = 0;
  for (int step = 0; step < 300; step++) {
    uint32_t kind = next_random(&rnd) % 100;
    size_t at = b.len ? next_random(&rnd) % (b.len + 1) : 0, end = at;
    const char *with = "";
    size_t n = 0;
    if (kind < 50) {
      with = fragments[next_random(&rnd) % ARRAY_LEN(fragments)];
      n = strlen(with);
    } else if (kind < 80) {
      end = at + 1 + next_random(&rnd) % 40;
      if (end > b.len) end = b.len;
    } else if (kind < 83) { /* a cut, removed again by the reset below */
      with = big[next_random(&rnd) % 3];
      n = strlen(with);
    } else if (kind < 93) {
      at = 0;
      end = b.len;
      with = base_program;
      n = strlen(base_program);
    }
    buf_replace(&b, at, end, with, n);
    vxp_source *src;
    assert_int_equal(vxp_source_new(&src, ctx, "scan.vx", b.s, b.len), VXP_OK);
    vxp_syntax_cut why_whole, why, why_fresh;
    uint32_t whole = vxp_syntax__parsable_length(ctx, src, &why_whole), got, fresh;
    vxp_scan_marks marks = {NULL, 0, 0}, all = {NULL, 0, 0};
    assert_int_equal(vxp_syntax__parsable_length_marked(ctx, src, old_whole ? old_src : NULL,
                                                        old_whole ? &old : NULL, &marks, &got,
                                                        &why),
                     VXP_OK);
    assert_int_equal(
        vxp_syntax__parsable_length_marked(ctx, src, NULL, NULL, &all, &fresh, &why_fresh), VXP_OK);
    assert_int_equal(got, whole);
    assert_int_equal(why, why_whole);
    assert_int_equal(fresh, whole);
    assert_int_equal(why_fresh, why_whole);
    if (got == b.len) assert_same_marks(&marks, &all);
    resumed += old_whole;
    cut += got < b.len;
    array_free(ctx, &all);
    array_free(ctx, &old);
    vxp_source_free(old_src);
    old = marks;
    old_src = src;
    old_whole = got == b.len;
  }
  fprintf(stderr, "300 edits: %zu scans resumed, %zu texts cut\n", resumed, cut);
  assert_true(resumed > 100);
  assert_true(cut > 5);
  array_free(ctx, &old);
  vxp_source_free(old_src);
  vxp_context_free(ctx);
  free(b.s);
}

/* vxp_source__range finds its end by walking down from its start's line, and
 * vxp_source__range_near its start from a hint (an analysis makes a range per placement):
 * the same points as bisecting for each end, for ranges within a line, across a few lines,
 * across many, inverted, and past the end of the text, with hints near and far. */
static void test_incremental__a_range_ends_where_bisection_says(void **state) {
  (void)state;
  vxp_context *ctx;
  assert_int_equal(vxp_context_new(&ctx, NULL), VXP_OK);
  vxp_source *src;
  assert_int_equal(vxp_source_new(&src, ctx, "r.vx", base_program, strlen(base_program)), VXP_OK);
  uint32_t rnd = 99, len = (uint32_t)strlen(base_program), hint_line = 0;
  for (int i = 0; i < 20000; i++) {
    uint32_t start = next_random(&rnd) % (len + 1);
    uint32_t span =
        next_random(&rnd) % 4 == 0 ? next_random(&rnd) % (len + 8) : next_random(&rnd) % 200;
    uint32_t end = next_random(&rnd) % 16 == 0 ? start - (start ? 1 : 0) : start + span;
    /* with a hint from anywhere: near, far, past the last line */
    uint32_t hint = next_random(&rnd) % 2 ? hint_line : next_random(&rnd) % 80;
    vxp_range r =
        i % 2 ? vxp_source__range(src, start, end) : vxp_source__range_near(src, start, end, &hint);
    vxp_point a = vxp_source__point(src, start), b = vxp_source__point(src, end);
    if (i % 2 == 0) assert_int_equal(hint, a.line);
    hint_line = a.line + next_random(&rnd) % 3;
    assert_int_equal(r.start.line, a.line);
    assert_int_equal(r.start.column, a.column);
    assert_int_equal(r.end.line, b.line);
    assert_int_equal(r.end.column, b.column);
    assert_int_equal(r.start_byte, start);
    assert_int_equal(r.end_byte, end);
  }
  vxp_source_free(src);
  vxp_context_free(ctx);
}

static void test_incremental__random_edits_of_the_llama_example(void **state) {
  (void)state;
  FILE *f = fopen("examples/llama2/prefill.vx", "rb");
  assert_non_null(f);
  static char text[65536];
  size_t n = fread(text, 1, sizeof(text) - 1, f);
  fclose(f);
  text[n] = '\0';
  run_sequence(text, 77, 150, false);
  run_sequence(text, 78, 150, true);
}

/* A reparse re-checks the syntax of the items an edit touches and moves the other items'
 * syntax diagnostics past it: a reserved word three functions below an edit that adds two
 * lines is still reported, two lines lower, as a fresh parse reports it. (A tree with
 * ERROR or MISSING nodes is parsed afresh: see program.c.) */
static void test_incremental__syntax_errors_of_untouched_items_move_with_the_edit(void **state) {
  (void)state;
  static const char text[] = "fn a() -> i32 { return 1; }\n"
                             "fn b() -> i32 { return 2; }\n"
                             "fn c() -> i32 { return 3; }\n"
                             "fn d() -> i32 { let on = 4; return on; }\n"
                             "fn e() -> i32 { let on = 5; return on; }\n";
  vxp_context *ctx = test_context();
  vxp_source *src, *next, *fresh_src;
  vxp_program *prog, *inc, *fresh;
  assert_int_equal(vxp_source_new(&src, ctx, "s.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_true(vxp_program_diagnostic_count(prog) >= 2); /* d's and e's reserved words */
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
  assert_int_equal(vxp_diagnostic_range(vxp_program_diagnostic(inc, 0)).start.line, 5);
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
static void
test_incremental__a_message_quoting_bytes_that_are_not_utf8_still_reports(void **state) {
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

/* A program ready for item-level reparses, as an editor holds one after its first edit: a
 * program parsed once keeps nothing for reuse (a command-line parse does not pay for it), so
 * `text` is parsed and then reparsed after an empty edit. `*src` is the version it borrows. */
static vxp_program *editor_program(vxp_context *ctx, const char *label, const char *text,
                                   vxp_source **src) {
  vxp_source *first;
  vxp_program *parsed, *prog;
  assert_int_equal(vxp_source_new(&first, ctx, label, text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse(&parsed, ctx, first), VXP_OK);
  assert_int_equal(vxp_source_edit(src, first, 0, 0, "", 0), VXP_OK);
  assert_int_equal(vxp_program_reparse(&prog, ctx, parsed, *src), VXP_OK);
  vxp_program_free(parsed);
  vxp_source_free(first);
  return prog;
}

/* An edit inside one function's body re-walks that function only: the visibility errors of
 * the functions after it are the previous analysis', moved two lines down, and the result
 * is a fresh analysis' report; an edit of a signature lends nothing. */
static void test_incremental__an_edit_in_a_body_keeps_the_other_functions_results(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *src, *next, *sig, *fresh_src;
  vxp_program *prog, *inc, *inc2, *fresh;
  vxp_analysis *an, *an2, *an3;
  prog = editor_program(ctx, "b.vx", base_program, &src);
  assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
  const char *ins = "  print(x);\n  print(x);\n";
  uint32_t at = (uint32_t)(strstr(base_program, "  return x;") - base_program);
  assert_int_equal(vxp_source_edit(&next, src, at, at, ins, strlen(ins)), VXP_OK);
  assert_int_equal(vxp_program_reparse(&inc, ctx, prog, next), VXP_OK);
  assert_int_equal(vxp_analyze_incremental(&an2, ctx, inc, an, NULL), VXP_OK);
  assert_int_equal(an2->items_walked, 1); /* leaf */
  assert_true(an2->items_taken >= 4);     /* the other functions */
  size_t len;
  const char *t = vxp_source_text(next, &len);
  assert_int_equal(vxp_source_new(&fresh_src, ctx, "b.vx", t, len), VXP_OK);
  assert_int_equal(vxp_program_parse(&fresh, ctx, fresh_src), VXP_OK);
  char *a = json_of(ctx, an2), *f = report_of(ctx, fresh);
  assert_string_equal(a, f);
  assert_non_null(strstr(a, "\"code\": \"E6001\""));
  free(a);
  free(f);
  int e6001 = 0;
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(an2); i++) {
    const vxp_diagnostic *d = vxp_analysis_diagnostic(an2, i);
    if (strcmp(vxp_diagnostic_code(d), "E6001") != 0) continue;
    e6001++;
    assert_ptr_equal(vxp_diagnostic_source(d), next);
    assert_int_equal(vxp_diagnostic_range(d).start.line, 32); /* 0-based; 30 before the edit */
  }
  assert_int_equal(e6001, 1);
  /* leaf's signature changes: nothing is lent (a caller's checks read its callee's). */
  uint32_t s0 = (uint32_t)(strstr(t, "fn leaf(x: i32)") - t) + 8;
  assert_int_equal(vxp_source_edit(&sig, next, s0, s0 + 1, "y", 1), VXP_OK);
  assert_int_equal(vxp_program_reparse(&inc2, ctx, inc, sig), VXP_OK);
  assert_int_equal(vxp_analyze_incremental(&an3, ctx, inc2, an2, NULL), VXP_OK);
  assert_int_equal(an3->items_taken, 0);
  vxp_analysis_free(an3);
  vxp_program_free(inc2);
  vxp_source_free(sig);
  vxp_program_free(fresh);
  vxp_source_free(fresh_src);
  vxp_analysis_free(an2);
  vxp_analysis_free(an);
  vxp_program_free(inc);
  vxp_program_free(prog);
  vxp_source_free(next);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

static bool same_topo(vxp_vis_topo a, vxp_vis_topo b) {
  return a.name == b.name && a.index == b.index;
}

/* Two visibility facts say the same, field by field (names are ids of one numbering). */
static bool same_fact(const vxp_vis_fact *a, const vxp_vis_fact *b) {
  return a->kind == b->kind && a->why == b->why && a->have == b->have && a->wanted == b->wanted &&
         a->eq == b->eq && a->want_host == b->want_host && a->arg == b->arg && a->name == b->name &&
         a->want_space == b->want_space && same_topo(a->here, b->here) &&
         same_topo(a->topo, b->topo) && same_topo(a->want, b->want) &&
         a->space.of_topology == b->space.of_topology && a->space.space == b->space.space &&
         same_topo(a->space.topo, b->space.topo) && a->start_byte == b->start_byte &&
         a->end_byte == b->end_byte && a->cond_start == b->cond_start && a->cond_end == b->cond_end;
}

/* Two raw:: facts say the same, field by field. */
static bool same_raw(const vxp_raw_fact *a, const vxp_raw_fact *b) {
  return a->kind == b->kind && strcmp(a->code, b->code) == 0 && a->message == b->message &&
         a->from == b->from && a->to == b->to && a->start_byte == b->start_byte &&
         a->end_byte == b->end_byte;
}

/* A reparse after an edit inside one function body lowers that function only and copies
 * the others' model; a body that introduces a name no other item has is lowered with the
 * whole program (the names' ids must be a full lowering's). Either way the report is a
 * fresh parse's. */
static void test_incremental__a_body_edit_copies_the_other_items_model(void **state) {
  (void)state;
  static const struct {
    const char *text;
    bool spliced;
  } edits[] = {{"  print(x);\n", true},
               {"  let fresh_name = x;\n", false},
               {"  print(raw::lanes());\n", false}};
  for (size_t e = 0; e < ARRAY_LEN(edits); e++) {
    vxp_context *ctx = test_context();
    vxp_source *src, *next, *fresh_src;
    vxp_program *prog, *inc, *fresh;
    prog = editor_program(ctx, "m.vx", base_program, &src);
    uint32_t at = (uint32_t)(strstr(base_program, "  return x;") - base_program);
    assert_int_equal(vxp_source_edit(&next, src, at, at, edits[e].text, strlen(edits[e].text)),
                     VXP_OK);
    assert_int_equal(vxp_program_reparse(&inc, ctx, prog, next), VXP_OK);
    assert_int_equal(inc->spliced, edits[e].spliced);
    size_t len;
    const char *t = vxp_source_text(next, &len);
    assert_int_equal(vxp_source_new(&fresh_src, ctx, "m.vx", t, len), VXP_OK);
    assert_int_equal(vxp_program_parse(&fresh, ctx, fresh_src), VXP_OK);
    assert_int_equal(inc->model.names.strings.len, fresh->model.names.strings.len);
    assert_int_equal(inc->model.functions.len, fresh->model.functions.len);
    assert_int_equal(inc->model.cexprs.len, fresh->model.cexprs.len);
    assert_int_equal(inc->model.items.len, fresh->model.items.len);
    for (size_t f = 0; f < fresh->model.functions.len; f++) {
      const vxp_function *x = &inc->model.functions.items[f], *y = &fresh->model.functions.items[f];
      assert_int_equal(x->name, y->name);
      assert_int_equal(x->item, y->item);
      assert_int_equal(x->start_byte, y->start_byte);
      assert_int_equal(x->end_byte, y->end_byte);
      assert_int_equal(x->events.len, y->events.len);
    }
    for (size_t i = 0; i < fresh->model.items.len; i++) {
      const vxp_model_item *x = &inc->model.items.items[i], *y = &fresh->model.items.items[i];
      assert_int_equal(x->start_byte, y->start_byte);
      assert_int_equal(x->first_function, y->first_function);
      assert_int_equal(x->function_count, y->function_count);
      assert_int_equal(x->vis_first, y->vis_first);
      assert_int_equal(x->vis_count, y->vis_count);
      assert_int_equal(x->top, y->top);
      assert_int_equal(x->raw_first, y->raw_first);
      assert_int_equal(x->raw_count, y->raw_count);
    }
    /* So are the raw:: facts (the third edit has one, an E6017). */
    assert_int_equal(inc->model.raw.len, fresh->model.raw.len);
    assert_true(e < 2 || fresh->model.raw.len > 0);
    for (size_t i = 0; i < fresh->model.raw.len; i++)
      assert_true(same_raw(&inc->model.raw.items[i], &fresh->model.raw.items[i]));
    /* The visibility facts, copied or lowered, are the fresh lowering's. */
    assert_true(fresh->model.visibility.len > 0);
    assert_int_equal(inc->model.visibility.len, fresh->model.visibility.len);
    for (size_t i = 0; i < fresh->model.visibility.len; i++)
      assert_true(same_fact(&inc->model.visibility.items[i], &fresh->model.visibility.items[i]));
    char *a = report_of(ctx, inc), *f = report_of(ctx, fresh);
    assert_string_equal(a, f);
    free(a);
    free(f);
    vxp_program_free(fresh);
    vxp_source_free(fresh_src);
    vxp_program_free(inc);
    vxp_program_free(prog);
    vxp_source_free(next);
    vxp_source_free(src);
    vxp_context_free(ctx);
  }
}

/* A `// role:` comment names the role of the placements below it up to a line that closes a
 * block: in a function whose last line does not start with `}`, it reaches the next
 * function's first line. Deleting it there must change that function's record, so such a
 * function is not taken over. */
static void test_incremental__a_role_comment_reaching_past_its_function_is_not_stale(void **state) {
  (void)state;
  static const char text[] =
      "Memory CPU_DRAM {}\n"
      "Memory HBM { within: Memory::CPU_DRAM, capacity: 64 MiB, managed: explicit }\n"
      "fn first() -> i32 {\n"
      "  let w = transfer(Tensor<f32, [8]>::uninit(), Memory::HBM); // role: weights\n"
      "  print(w);\n"
      "  return 0;\n"
      "}\n"
      "fn a() -> i32 {\n"
      "  // role: weights\n"
      "  print(1); return 0; }\n"
      "fn b() -> i32 { let t = transfer(Tensor<f32, [8]>::uninit(), Memory::HBM); print(t); "
      "return 0; }\n";
  vxp_context *ctx = test_context();
  vxp_source *src, *next, *fresh_src;
  vxp_program *prog, *inc, *fresh;
  vxp_analysis *an, *an2;
  prog = editor_program(ctx, "r.vx", text, &src);
  assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
  const char *cut = "  // role: weights\n  print(1);";
  uint32_t at = (uint32_t)(strstr(text, cut) - text);
  assert_int_equal(vxp_source_edit(&next, src, at, at + 19, "", 0), VXP_OK);
  assert_int_equal(vxp_program_reparse(&inc, ctx, prog, next), VXP_OK);
  assert_false(inc->spliced);
  assert_int_equal(vxp_analyze_incremental(&an2, ctx, inc, an, NULL), VXP_OK);
  size_t len;
  const char *t = vxp_source_text(next, &len);
  assert_int_equal(vxp_source_new(&fresh_src, ctx, "r.vx", t, len), VXP_OK);
  assert_int_equal(vxp_program_parse(&fresh, ctx, fresh_src), VXP_OK);
  char *a = json_of(ctx, an2), *f = report_of(ctx, fresh);
  assert_string_equal(a, f);
  free(a);
  free(f);
  vxp_program_free(fresh);
  vxp_source_free(fresh_src);
  vxp_analysis_free(an2);
  vxp_analysis_free(an);
  vxp_program_free(inc);
  vxp_program_free(prog);
  vxp_source_free(next);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

/* An editor session on one document for the tests below: each step edits the text, reparses,
 * analyses incrementally with `opts`, and compares everything with a fresh analysis. */
typedef struct session {
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
  vxp_analysis *an;
} session;

static void session_open(session *S, const char *text) {
  S->ctx = test_context();
  S->prog = editor_program(S->ctx, "s.vx", text, &S->src);
  assert_int_equal(vxp_analyze(&S->an, S->ctx, S->prog, NULL), VXP_OK);
}

static void session_close(session *S) {
  vxp_analysis_free(S->an);
  vxp_program_free(S->prog);
  vxp_source_free(S->src);
  vxp_context_free(S->ctx);
}

/* Replace the first `find` of the text by `with` and analyse again. */
static void session_edit(session *S, const char *find, const char *with,
                         const vxp_analyze_options *opts) {
  size_t len;
  const char *t = vxp_source_text(S->src, &len);
  const char *p = strstr(t, find);
  assert_non_null(p);
  uint32_t at = (uint32_t)(p - t);
  vxp_source *next, *fresh_src;
  vxp_program *inc, *fresh;
  vxp_analysis *an;
  assert_int_equal(
      vxp_source_edit(&next, S->src, at, at + (uint32_t)strlen(find), with, strlen(with)), VXP_OK);
  assert_int_equal(vxp_program_reparse(&inc, S->ctx, S->prog, next), VXP_OK);
  assert_int_equal(vxp_analyze_incremental(&an, S->ctx, inc, S->an, opts), VXP_OK);
  t = vxp_source_text(next, &len);
  assert_int_equal(vxp_source_new(&fresh_src, S->ctx, "s.vx", t, len), VXP_OK);
  assert_int_equal(vxp_program_parse(&fresh, S->ctx, fresh_src), VXP_OK);
  char *a = json_of(S->ctx, an), *f = report_compared(S->ctx, fresh, an, opts);
  assert_string_equal(a, f);
  free(a);
  free(f);
  vxp_program_free(fresh);
  vxp_source_free(fresh_src);
  vxp_analysis_free(S->an);
  vxp_program_free(S->prog);
  vxp_source_free(S->src);
  S->an = an;
  S->prog = inc;
  S->src = next;
}

/* The call-tree total of function `fn` in space `space` (what the report's call tree shows). */
static u128 total_of(const vxp_analysis *an, const char *fn, const char *space) {
  size_t spaces = an->view.spaces.len;
  for (size_t s = 0; s < spaces; s++) {
    if (strcmp(an->view.spaces.items[s]->name, space) != 0) continue;
    for (size_t f = 0; f < an->functions.len; f++)
      if (strcmp(an->functions.items[f].name, fn) == 0)
        return an->fn_spaces.items[f * spaces + s].total;
  }
  fail_msg("no %s in %s", fn, space);
  return 0;
}

/* An edit of a callee's body is walked; its callers' results are taken over, and the call-
 * tree fold, made afresh, moves their totals: `main` calls `middle`, which calls `leaf`
 * while it holds 512 KiB; `leaf`'s tile doubles from 1 MiB to 2 MiB. */
static void test_incremental__a_callees_edit_moves_the_callers_peak(void **state) {
  (void)state;
  session S;
  session_open(&S, base_program);
  session_edit(&S, "  return x;", "  return x + 0;", NULL); /* leaf: the spans are kept now */
  u128 main_before = total_of(S.an, "main", "HBM"), middle_before = total_of(S.an, "middle", "HBM");
  session_edit(&S, "Tensor<f32, [N, N]>", "Tensor<f32, [N, 2 * N]>", NULL);
  assert_int_equal(S.an->functions_walked, 1); /* leaf */
  assert_int_equal(S.an->functions_taken, 4);  /* middle, on_dev, host_side, main */
  assert_true(total_of(S.an, "middle", "HBM") == middle_before + 1024 * 1024);
  assert_true(total_of(S.an, "main", "HBM") == main_before + 1024 * 1024);
  /* And back: the callers move down again. */
  session_edit(&S, "Tensor<f32, [N, 2 * N]>", "Tensor<f32, [N, N]>", NULL);
  assert_int_equal(S.an->functions_taken, 4);
  assert_true(total_of(S.an, "main", "HBM") == main_before);
  session_close(&S);
}

/* A blank typed before a function's `fn`, at the start of its line, moves the columns of
 * everything on that line: the function's text is unchanged (it lies after the edit), so its
 * walk is taken over, and the ranges on its first line (its body's scope) must be found again
 * in the new text, not kept with their older columns (found by fuzz_edit). */
static void test_incremental__a_blank_before_a_functions_line_moves_its_columns(void **state) {
  (void)state;
  session S;
  session_open(&S, base_program);
  session_edit(&S, "  return x;", "  return x + 0;", NULL); /* the spans are kept now */
  session_edit(&S, "fn middle", " fn middle", NULL);
  assert_true(S.an->functions_taken > 0);
  session_edit(&S, " fn middle", "fn middle", NULL);
  session_edit(&S, "fn main", "\nfn main", NULL); /* a line break: the columns stay */
  session_close(&S);
}

/* The number of diagnostics of `code` in `an`. */
static int code_count(const vxp_analysis *an, const char *code) {
  int n = 0;
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(an); i++)
    n += strcmp(vxp_diagnostic_code(vxp_analysis_diagnostic(an, i)), code) == 0;
  return n;
}

/* A splice carries the index of the functions a call's visibility facts read (the callee's
 * `on` topology, what its pointer parameters want) over from the earlier version, the
 * callees' names moved past the edit, and reads a touched function's entry afresh: the
 * calls of an edited body still meet their callees defined after them (E6001, E6029; a C
 * function takes any pointer), as a fresh parse finds. The sanitizer builds also compare
 * each carried index with one read from the tree (lower_visibility.c, index_is_fresh). */
static void test_incremental__a_splice_carries_the_function_index_over(void **state) {
  (void)state;
  static const char text[] = "Memory CPU_DRAM {}\n"
                             "Memory HBM {\n"
                             "  within: Memory::CPU_DRAM, capacity: 40 GiB, managed: explicit\n"
                             "}\n"
                             "Topology Dev {\n"
                             "  arch: nvptx64, memory: Memory::HBM, visible: [Memory::HBM],\n"
                             "  transfer Memory::CPU_DRAM -> Memory::HBM : 31.5 GB/s\n"
                             "}\n"
                             "fn main() -> i32 {\n"
                             "  let g = transfer(Tensor<f32, [4]>::new(), Memory::HBM);\n"
                             "  let v : f32 = on_dev(1.5);\n"
                             "  let r = reads_host(g.as_ptr());\n"
                             "  return c_reads(g.as_ptr());\n"
                             "}\n"
                             "fn on_dev(x: f32) on Topology::Dev -> f32 {\n"
                             "  return x * 2.5;\n"
                             "}\n"
                             "fn reads_host(p : *const f32) -> i32 {\n"
                             "  return 0;\n"
                             "}\n"
                             "extern \"C\" {\n"
                             "  fn c_reads(p : *const f32) -> i32;\n"
                             "}\n";
  session S;
  session_open(&S, text);
  assert_true(S.prog->marks.vis_kept);
  assert_int_equal(code_count(S.an, "E6001"), 1);
  assert_int_equal(code_count(S.an, "E6029"), 1);
  session_edit(&S, "on_dev(1.5)", "on_dev(2.5)", NULL); /* main: the index carried over */
  assert_true(S.prog->spliced);
  assert_true(S.prog->marks.vis_kept);
  assert_int_equal(code_count(S.an, "E6001"), 1);
  assert_int_equal(code_count(S.an, "E6029"), 1);
  session_edit(&S, "  return 0;", "  return 10;", NULL); /* reads_host: its entry afresh */
  assert_true(S.prog->spliced);
  assert_int_equal(code_count(S.an, "E6029"), 1);
  session_edit(&S, "  let r = reads_host(g.as_ptr());\n",
               "  let r = reads_host(g.as_ptr());\n  let r = reads_host(g.as_ptr());\n"
               "  let v : f32 = on_dev(0.5);\n",
               NULL); /* main grows (names it introduces already): the callees move two lines */
  assert_true(S.prog->spliced);
  assert_int_equal(code_count(S.an, "E6001"), 2);
  assert_int_equal(code_count(S.an, "E6029"), 2);
  session_close(&S);
}

/* A const item's edit changes what the unchanged functions that use it fold: nothing is
 * taken over (the reparse lends no item across it), and `main`'s tile of [N, 64] f32 and
 * `leaf`'s [N, N] move with N. */
static void test_incremental__a_const_edit_recomputes_its_unchanged_users(void **state) {
  (void)state;
  session S;
  session_open(&S, base_program);
  session_edit(&S, "  return x;", "  return x + 0;", NULL);
  u128 before = total_of(S.an, "main", "HBM");
  session_edit(&S, "const N : i64 = 512;", "const N : i64 = 256;", NULL);
  assert_int_equal(S.an->functions_taken, 0);
  assert_true(total_of(S.an, "main", "HBM") < before);
  session_edit(&S, "  return x + 0;", "  return x;", NULL); /* a body again: lent again */
  assert_true(S.an->functions_taken > 0);
  session_close(&S);
}

/* -D overrides changed between two edits: nothing is taken over from an analysis made with
 * other overrides, and everything again once they stay the same. */
static void
test_incremental__changed_overrides_between_edits_recompute_every_function(void **state) {
  (void)state;
  session S;
  session_open(&S, base_program);
  session_edit(&S, "  return x;", "  return x + 0;", NULL);
  session_edit(&S, "  return x + 0;", "  return x;", &the_defines[1]);
  assert_int_equal(S.an->functions_taken, 0);
  u128 small = total_of(S.an, "main", "HBM");
  session_edit(&S, "  return x;", "  return x + 1;", &the_defines[1]);
  assert_int_equal(S.an->functions_taken, 4);
  assert_true(total_of(S.an, "main", "HBM") == small);
  session_edit(&S, "  return x + 1;", "  return x;", &the_defines[2]);
  assert_int_equal(S.an->functions_taken, 0);
  assert_true(total_of(S.an, "main", "HBM") != small);
  session_close(&S);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_incremental__random_edits_report_what_a_fresh_parse_reports),
      cmocka_unit_test(test_incremental__random_edits_of_the_llama_example),
      cmocka_unit_test(test_incremental__a_range_ends_where_bisection_says),
      cmocka_unit_test(test_incremental__the_parsable_length_scan_resumes_where_the_text_changed),
      cmocka_unit_test(
          test_incremental__body_edits_among_syntax_findings_report_what_a_fresh_parse_reports),
      cmocka_unit_test(test_incremental__syntax_errors_of_untouched_items_move_with_the_edit),
      cmocka_unit_test(test_incremental__a_message_quoting_bytes_that_are_not_utf8_still_reports),
      cmocka_unit_test(test_incremental__an_edit_in_a_body_keeps_the_other_functions_results),
      cmocka_unit_test(test_incremental__a_body_edit_copies_the_other_items_model),
      cmocka_unit_test(test_incremental__a_role_comment_reaching_past_its_function_is_not_stale),
      cmocka_unit_test(test_incremental__a_callees_edit_moves_the_callers_peak),
      cmocka_unit_test(test_incremental__a_blank_before_a_functions_line_moves_its_columns),
      cmocka_unit_test(test_incremental__a_splice_carries_the_function_index_over),
      cmocka_unit_test(test_incremental__a_const_edit_recomputes_its_unchanged_users),
      cmocka_unit_test(test_incremental__changed_overrides_between_edits_recompute_every_function),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
