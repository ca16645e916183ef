/* SPDX-License-Identifier: Apache-2.0 */
/* test_incremental.c - the incremental path against the from-scratch one, as a property:
 * long pseudo-random edit sequences (insertions of code fragments, deletions, edits that
 * break the syntax and edits that repair it, changes to `const` items and to the machine's
 * Memory declarations, several edits before one reparse, whole-text replacements; and, on a
 * program whose callers' checks read their callees' signatures, edits of signatures and
 * consts that keep the text valid: run_signature_sequence), and
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

static void assert_same_analysis(const vxp_analysis *a, const vxp_analysis *b, const char *where);

/* report_of, and the analysis compared with `inc` table by table. */
static char *report_compared(vxp_context *ctx, const vxp_program *prog, const vxp_analysis *inc,
                             const vxp_analyze_options *opts) {
  vxp_analysis *an;
  assert_int_equal(vxp_analyze(&an, ctx, prog, opts), VXP_OK);
  assert_same_analysis(inc, an, "a session's edit");
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
    if ((a)->field.len != (b)->field.len)                                                          \
      fail_msg("%s: %s has %zu rows, %zu fresh", where, #field, (a)->field.len, (b)->field.len);   \
    for (size_t i_ = 0; i_ < (a)->field.len; i_++) {                                               \
      const __typeof__(*(a)->field.items) *x = &(a)->field.items[i_];                              \
      const __typeof__(*(a)->field.items) *y = &(b)->field.items[i_];                              \
      if (!(same)) fail_msg("%s: %s[%zu] differs", where, #field, i_);                             \
    }                                                                                              \
  } while (0)

/* What the report shows and what it does not (the facts roofline and codegen read, the
 * call sites, the summaries before the fold's totals), incremental against fresh: every
 * index, position and name the walk of a function makes. */
static void assert_same_analysis(const vxp_analysis *a, const vxp_analysis *b, const char *where) {
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

/* The lines where two reports first differ, on stderr (CMocka cuts long strings short). */
static void print_first_difference(const char *a, const char *f) {
  size_t at = 0, line = 1;
  while (a[at] && a[at] == f[at])
    line += a[at++] == '\n';
  while (at > 0 && a[at - 1] != '\n')
    at--;
  int na = (int)strcspn(a + at, "\n"), nf = (int)strcspn(f + at, "\n");
  fprintf(stderr,
          "first difference at line %zu of the report:\n  incremental: %.*s\n  fresh:       %.*s\n",
          line, na, a + at, nf, f + at);
}

/* An editor's state in a sequence: the current version's source, program and analysis. */
typedef struct seq_state {
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
  vxp_analysis *an;
} seq_state;

/* What a sequence's reparses and analyses did. */
typedef struct seq_counts {
  size_t reused, lent, taken, spliced, fns_taken, fns_walked;
  size_t windowed; /* reparses that parsed only the window around the edit */
} seq_counts;

/* Reparse `cur` (the text of `b`, made by edits of st->src) from st->prog, analyse it with
 * `opts` from st->an, and hold both to a fresh parse and analysis of the same text, report
 * byte for byte and tables; `cur`, its program and its analysis become the current version.
 * Returns the number of the fresh program's syntax findings. */
static size_t reparse_and_compare(seq_state *st, vxp_source *cur, const text_buf *b,
                                  const vxp_analyze_options *opts, uint32_t seed, int step,
                                  seq_counts *c) {
  vxp_context *ctx = st->ctx;
  size_t len;
  const char *text = vxp_source_text(cur, &len);
  assert_int_equal(len, b->len);
  assert_memory_equal(text, b->s, len);

  vxp_program *inc;
  assert_int_equal(vxp_program_reparse(&inc, ctx, st->prog, cur), VXP_OK);
  c->reused += (size_t)vxp_program_reused_tree(inc);
  c->spliced += inc->spliced;
  c->windowed += inc->window_tree != NULL;
  vxp_source *fresh_src;
  vxp_program *fresh;
  assert_int_equal(vxp_source_new(&fresh_src, ctx, "prop.vx", b->s, b->len), VXP_OK);
  assert_int_equal(vxp_program_parse(&fresh, ctx, fresh_src), VXP_OK);
  vxp_analysis *inc_an, *fresh_an;
  assert_int_equal(vxp_analyze_incremental(&inc_an, ctx, inc, st->an, opts), VXP_OK);
  c->lent += inc_an->items_taken > 0;
  c->taken += inc_an->items_taken;
  c->fns_taken += inc_an->functions_taken;
  c->fns_walked += inc_an->functions_walked;
  assert_int_equal(vxp_analyze(&fresh_an, ctx, fresh, opts), VXP_OK);
  char *a = json_of(ctx, inc_an), *f = json_of(ctx, fresh_an);
  if (strcmp(a, f) != 0) {
    fprintf(stderr, "seed %u, step %d: the incremental report differs; the text:\n%s\n", seed, step,
            b->s);
    fprintf(stderr, "the trees are %s\n",
            strcmp(vxp_program_sexp(inc), vxp_program_sexp(fresh)) ? "different" : "the same");
    print_first_difference(a, f);
    assert_string_equal(a, f);
  }
  char where[64]; /* and what the report does not show */
  snprintf(where, sizeof(where), "seed %u, step %d", seed, step);
  assert_same_analysis(inc_an, fresh_an, where);
  free(a);
  free(f);
  vxp_analysis_free(fresh_an);
  size_t syntax = fresh->syntax_counts[0] + fresh->syntax_counts[1] + fresh->syntax_counts[2];
  vxp_program_free(fresh);
  vxp_source_free(fresh_src);
  /* The earlier version goes first, as in an editor: the new analysis owes it nothing. */
  vxp_analysis_free(st->an);
  vxp_program_free(st->prog);
  vxp_source_free(st->src);
  st->an = inc_an;
  st->prog = inc;
  st->src = cur;
  return syntax;
}

/* With `vary_defines`, each analysis takes one of the_defines, mostly the last one's. */
static void run_sequence_defines(const char *initial, uint32_t seed, int steps, bool bodies,
                                 bool vary_defines) {
  seq_state st;
  assert_int_equal(vxp_context_new(&st.ctx, NULL), VXP_OK);
  text_buf b = {NULL, 0, 0};
  buf_replace(&b, 0, 0, initial, strlen(initial));
  assert_int_equal(vxp_source_new(&st.src, st.ctx, "prop.vx", b.s, b.len), VXP_OK);
  /* odd seeds as an editor opens a file (VXP_PROGRAM_FOR_EDITING: the first edit may parse
   * only its window), even ones as a plain parse (the first reparse lowers in full) */
  assert_int_equal(
      vxp_program_parse_flags(&st.prog, st.ctx, st.src, seed & 1 ? VXP_PROGRAM_FOR_EDITING : 0),
      VXP_OK);
  assert_int_equal(vxp_analyze(&st.an, st.ctx, st.prog, NULL), VXP_OK);
  uint32_t rnd = seed;
  static char scratch[8192];
  seq_counts c;
  memset(&c, 0, sizeof(c));
  size_t defines = 0;
  for (int step = 0; step < steps; step++) {
    /* Usually one edit per reparse, sometimes a burst of up to four (typing faster than
     * the analysis): each applies to the version the previous one made. */
    int burst = next_random(&rnd) % 5 == 0 ? 2 + (int)(next_random(&rnd) % 3) : 1;
    vxp_source *cur = st.src;
    for (int k = 0; k < burst; k++) {
      size_t start, end, n;
      random_edit(&b, &rnd, bodies, &start, &end, scratch, &n);
      vxp_source *next;
      assert_int_equal(vxp_source_edit(&next, cur, (uint32_t)start, (uint32_t)end, scratch, n),
                       VXP_OK);
      buf_replace(&b, start, end, scratch, n);
      if (cur != st.src) vxp_source_free(cur);
      cur = next;
    }
    if (vary_defines && next_random(&rnd) % 4 == 0)
      defines = next_random(&rnd) % ARRAY_LEN(the_defines);
    reparse_and_compare(&st, cur, &b, &the_defines[defines], seed, step, &c);
  }
  /* The sequence really exercised the incremental paths. */
  fprintf(stderr,
          "seed %u: %d reparses, %zu on the old tree (%zu of them parsing only the edit's "
          "window), %zu with the unchanged items' model copied; %zu analyses took %zu items "
          "over; functions taken over %zu, walked %zu\n",
          seed, steps, c.reused, c.windowed, c.spliced, c.lent, c.taken, c.fns_taken, c.fns_walked);
  assert_true(c.lent > (size_t)steps / (bodies ? 6 : 12));
  if (bodies) assert_true(c.spliced > (size_t)steps / 10);
  if (bodies) assert_true(c.windowed > (size_t)steps / 10);
  if (bodies) assert_true(c.fns_taken > (size_t)steps / 2);
  vxp_analysis_free(st.an);
  vxp_program_free(st.prog);
  vxp_source_free(st.src);
  vxp_context_free(st.ctx);
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
 * the others' model; a body that introduces a name no other item has (`fresh_name`, a raw::
 * fact's message) is spliced too, the name table renumbered as a full lowering numbers it
 * and every id the model holds with it. Either way the model, name by name, and the report
 * are a fresh parse's. */
static void test_incremental__a_body_edit_copies_the_other_items_model(void **state) {
  (void)state;
  static const struct {
    const char *text;
    bool spliced;
  } edits[] = {{"  print(x);\n", true},
               {"  let fresh_name = x;\n", true},
               {"  print(raw::lanes());\n", true}};
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
    for (size_t i = 0; i < fresh->model.names.strings.len; i++)
      assert_string_equal(vxp_strtab__str(&inc->model.names, (vxp_name)i),
                          vxp_strtab__str(&fresh->model.names, (vxp_name)i));
    for (size_t i = 0; i < fresh->model.names.strings.len; i++) /* and found by their text */
      assert_int_equal(vxp_strtab__find(&inc->model.names,
                                        vxp_strtab__str(&fresh->model.names, (vxp_name)i),
                                        strlen(vxp_strtab__str(&fresh->model.names, (vxp_name)i))),
                       i);
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

/* ------------------------------------------------------------ signature and const edits */

/* A program whose callers' checks read their callees' signatures: pointer parameters that
 * want a memory (E6029 at a call passing a pointer into another), a callee bound to a
 * topology (E6001 at a call from elsewhere), a generic callee whose instance is inferred
 * from its tensor parameter's shape, a callee whose tensor parameter and return type are
 * placed (their per-tile check, E6009, and the topology's dtypes, E6026), a callee whose
 * returned struct decides which method a caller's `m.work()` calls, and consts that
 * size tiles in several functions (T and W, N through M), which sig_defines shadow. */
static const char sig_program[] =
    "// signature and const edits\n"
    "Memory CPU_DRAM {}\n"
    "Memory HBM {\n"
    "  within: Memory::CPU_DRAM, capacity: 64 MiB, managed: explicit\n"
    "}\n"
    "Memory SRAM { within: Memory::HBM, capacity: 4 MiB, managed: explicit }\n"
    "Topology Dev {\n"
    "  arch: nvptx64, memory: Memory::HBM, visible: [Memory::HBM, Memory::SRAM],\n"
    "  dtypes: [f32, f16, bf16],\n"
    "  transfer Memory::CPU_DRAM -> Memory::HBM : 31.5 GB/s\n"
    "  transfer Memory::HBM -> Memory::SRAM : 900 GB/s\n"
    "}\n"
    "Memory HBM2 { within: Memory::CPU_DRAM, capacity: 16 MiB, managed: explicit }\n"
    "Topology Dev2 {\n"
    "  arch: amdgcn, memory: Memory::HBM2, visible: [Memory::HBM2],\n"
    "  transfer Memory::CPU_DRAM -> Memory::HBM2 : 25 GB/s\n"
    "}\n"
    "const N : i64 = 512;\n"
    "const T : i64 = 64;\n"
    "const W : i64 = 32;\n"
    "const M : i64 = N * 2;\n"
    "fn leaf(lx: *const f32 in Memory::HBM) -> i32 {\n"
    "  let w = transfer(Tensor<f32, [N, T]>::uninit(), Memory::HBM);\n"
    "  print(w);\n"
    "  return 0;\n"
    "}\n"
    "fn reads(p: *const f32 in Memory::HBM) -> i32 {\n"
    "  let r = transfer(Tensor<f16, [T, W]>::uninit(), Memory::SRAM);\n"
    "  print(r);\n"
    "  return 0;\n"
    "}\n"
    "fn scale(a: i32) -> i32 {\n"
    "  let s = transfer(Tensor<f32, [T, T]>::uninit(), Memory::HBM);\n"
    "  print(s);\n"
    "  return a;\n"
    "}\n"
    "fn stage<const K : i64>(x: Tensor<f32, [K, T]>) -> i32 {\n"
    "  let acc = transfer(Tensor<f32, [K, T]>::uninit(), Memory::HBM);\n"
    "  print(acc);\n"
    "  return 0;\n"
    "}\n"
    "fn takes(t: Tensor<f16, [T, T], Memory::HBM>) -> Tensor<f32, [T], Memory::HBM> {\n"
    "  let o = transfer(Tensor<f32, [T]>::uninit(), Memory::HBM);\n"
    "  return o;\n"
    "}\n"
    "fn on_dev(v: f32) on Topology::Dev -> f32 {\n"
    "  let d = transfer(Tensor<f32, [W, W]>::uninit(), Memory::HBM);\n"
    "  print(d);\n"
    "  return v;\n"
    "}\n"
    "fn middle(x: i32) -> i32 {\n"
    "  let held = transfer(Tensor<f16, [M, T]>::uninit(), Memory::HBM);\n"
    "  let g = transfer(Tensor<f32, [N]>::uninit(), Memory::HBM);\n"
    "  for i in 0..8 {\n"
    "    let s = transfer(Tensor<f16, [T, 256]>::uninit(), Memory::HBM);\n"
    "    print(s);\n"
    "  }\n"
    "  let r = leaf(g.as_ptr());\n"
    "  let q = reads(g.as_ptr());\n"
    "  let s = scale(33);\n"
    "  print(held);\n"
    "  return r;\n"
    "}\n"
    "struct Big { n: i32 }\n"
    "struct Small { n: i32 }\n"
    "impl Big {\n"
    "  fn work(self: Big) -> i32 {\n"
    "    let b = transfer(Tensor<f32, [N, N]>::uninit(), Memory::HBM);\n"
    "    print(b);\n"
    "    return 0;\n"
    "  }\n"
    "}\n"
    "impl Small {\n"
    "  fn work(self: Small) -> i32 {\n"
    "    let b = transfer(Tensor<f32, [T]>::uninit(), Memory::HBM);\n"
    "    print(b);\n"
    "    return 0;\n"
    "  }\n"
    "}\n"
    "fn make(n: i32) -> Big {\n"
    "  return Big { n: n };\n"
    "}\n"
    "fn main() -> i32 {\n"
    "  let m = make(3);\n"
    "  let mw = m.work();\n"
    "  let a = transfer(Tensor<f32, [N, T]>::uninit(), Memory::HBM); // role: activations\n"
    "  let g = transfer(Tensor<f32, [M]>::uninit(), Memory::HBM);\n"
    "  let h = Tensor<f32, [W]>::uninit();\n"
    "  let k = stage(a);\n"
    "  let s = scale(33);\n"
    "  let q = reads(g.as_ptr());\n"
    "  let q2 = reads(h.as_ptr());\n"
    "  let l = leaf(h.as_ptr());\n"
    "  let o = takes(a);\n"
    "  let v : f32 = on_dev(1.5);\n"
    "  spawn on(Topology::Dev) {\n"
    "    let z = on_dev(2.5);\n"
    "  }\n"
    "  print(a);\n"
    "  return middle(1);\n"
    "}\n";

/* -D overrides for sig_program, shadowing its consts (sig_defines[0]: none). */
static const vxp_const_override t_small[] = {{"T", 16}}, w_over[] = {{"W", 64}},
                                n_and_t[] = {{"N", 128}, {"T", 256}};
static const vxp_analyze_options sig_defines[] = {
    {VXP_ANALYZE_OPTIONS_VERSION, NULL, NULL, NULL, 0, 0},
    {VXP_ANALYZE_OPTIONS_VERSION, NULL, NULL, t_small, 1, 0},
    {VXP_ANALYZE_OPTIONS_VERSION, NULL, NULL, w_over, 1, 0},
    {VXP_ANALYZE_OPTIONS_VERSION, NULL, NULL, n_and_t, 2, 0}};

/* Interchangeable spellings of one place of sig_program, each leaving the text valid: an
 * edit replaces an occurrence of one member by another member. `calls`, when not NULL, are
 * the call sites' spellings that go with each member (same index): the edit then changes
 * every call site too, or (half the time) leaves them as they were, inconsistent. */
typedef struct swap {
  const char *const *members;
  size_t count;
  const char *const *calls;
} swap;

#define SWAP(members, calls)                                                                       \
  { members, ARRAY_LEN(members), calls }

static const char *const leaf_param[] = {"lx: *const f32 in Memory::HBM)", "lx: i32)", "lx: i64)",
                                         "lx: *const f32)", "lx: *mut f32 in Memory::SRAM)"};
static const char *const reads_param[] = {
    "p: *const f32 in Memory::HBM)", "p: *const f32 in Memory::SRAM)", "p: *const f32)", "p: i64)"};
static const char *const returns[] = {") -> i32 {", ") -> i64 {", ") -> f32 {"};
/* the struct a call's value has, whose method `m.work()` then calls */
static const char *const nominal_returns[] = {") -> Big {", ") -> Small {"};
static const char *const tensor_return[] = {
    "-> Tensor<f32, [T], Memory::HBM>", "-> Tensor<f32, [M, M, T], Memory::HBM>",
    "-> Tensor<u8, [T], Memory::HBM>", "-> Tensor<f32, [T], Memory::SRAM>"};
static const char *const tensor_param[] = {
    "t: Tensor<f16, [T, T], Memory::HBM>", "t: Tensor<f16, [M, M, T], Memory::HBM>",
    "t: Tensor<i8, [T, T], Memory::HBM>", "t: Tensor<f16, [W], Memory::SRAM>"};
static const char *const generic_param[] = {"x: Tensor<f32, [K, T]>", "x: Tensor<f32, [T, K]>",
                                            "x: Tensor<f32, [K]>", "x: Tensor<bf16, [K, W]>"};
/* the callee's `on` topology, or none (any function's signature may gain one) */
static const char *const topologies[] = {") on Topology::Dev ->", ") on Topology::Dev2 ->",
                                         ") on Topology::CPU ->", ") ->"};
static const char *const t_values[] = {"const T : i64 = 64;", "const T : i64 = 128;",
                                       "const T : i64 = 8;", "const T : i64 = 4096;"};
static const char *const n_values[] = {"const N : i64 = 512;", "const N : i64 = 256;",
                                       "const N : i64 = 8192;"};
static const char *const w_values[] = {"const W : i64 = 32;", "const W : i64 = 1024;"};
/* a parameter added or removed, with its call sites */
static const char *const scale_params[] = {"(a: i32) -> ",
                                           "(a: i32, p: *const f32 in Memory::HBM) -> ",
                                           "(a: i32, p: *const f32) -> ", "(a: i64) -> "};
static const char *const scale_calls[] = {"(33)", "(33, g.as_ptr())", "(33, g.as_ptr())", "(33)"};
static const char *const scale_args[] = {"(33)", "(33, g.as_ptr())"};
/* a function renamed, with its callers */
static const char *const scale_names[] = {"fn scale(", "fn scale2("};
static const char *const scale_callers[] = {"= scale(", "= scale2("};
static const char *const leaf_names[] = {"fn leaf(", "fn leaf_b("};
static const char *const leaf_callers[] = {"= leaf(", "= leaf_b("};
static const char *const dev_names[] = {"fn on_dev(", "fn on_gpu("};
static const char *const dev_callers[] = {"= on_dev(", "= on_gpu("};

/* Signature and const edits (the callers' call sites too, or not) ... */
static const swap signature_swaps[] = {
    SWAP(leaf_param, NULL),
    SWAP(reads_param, NULL),
    SWAP(returns, NULL),
    SWAP(nominal_returns, NULL),
    SWAP(tensor_return, NULL),
    SWAP(tensor_param, NULL),
    SWAP(generic_param, NULL),
    SWAP(topologies, NULL),
    SWAP(t_values, NULL),
    SWAP(n_values, NULL),
    SWAP(w_values, NULL),
    SWAP(scale_params, scale_calls),
    SWAP(scale_names, scale_callers),
    SWAP(leaf_names, leaf_callers),
    SWAP(dev_names, dev_callers),
};

/* ... and the call sites alone: body edits. */
static const swap call_swaps[] = {SWAP(scale_args, NULL), SWAP(scale_callers, NULL),
                                  SWAP(leaf_callers, NULL), SWAP(dev_callers, NULL)};

/* The text as an editor changes it, one vxp_source_edit at a time. */
typedef struct editing {
  text_buf *b;
  vxp_source *base; /* the version the reparse starts from */
  vxp_source *cur;  /* the edits since */
} editing;

static void edit_text(editing *E, size_t start, size_t end, const char *with, size_t n) {
  vxp_source *next;
  assert_int_equal(vxp_source_edit(&next, E->cur, (uint32_t)start, (uint32_t)end, with, n), VXP_OK);
  buf_replace(E->b, start, end, with, n);
  if (E->cur != E->base) vxp_source_free(E->cur);
  E->cur = next;
}

/* The occurrences of `s` in the text. */
static size_t occurrences(const text_buf *b, const char *s) {
  size_t count = 0;
  for (const char *p = strstr(b->s, s); p; p = strstr(p + 1, s))
    count++;
  return count;
}

/* The offset of occurrence `k` of `s` (there is one). */
static size_t occurrence(const text_buf *b, const char *s, size_t k) {
  const char *p = strstr(b->s, s);
  while (k--)
    p = strstr(p + 1, s);
  return (size_t)(p - b->s);
}

/* Every occurrence of `from` replaced by `to`, first to last. */
static void replace_all(editing *E, const char *from, const char *to) {
  size_t at = 0, nf = strlen(from), nt = strlen(to);
  for (const char *p; (p = strstr(E->b->s + at, from)) != NULL; at += nt) {
    at = (size_t)(p - E->b->s);
    edit_text(E, at, at + nf, to, nt);
  }
}

/* One edit of swap `w`, when the text holds one of its members; false when it holds none. */
static bool swap_edit(editing *E, uint32_t *rnd, const swap *w) {
  size_t present[8], np = 0;
  assert_true(w->count >= 2 && w->count <= ARRAY_LEN(present));
  for (size_t i = 0; i < w->count; i++)
    if (strstr(E->b->s, w->members[i])) present[np++] = i;
  if (!np) return false;
  size_t from = present[next_random(rnd) % np];
  size_t to = (from + 1 + next_random(rnd) % (w->count - 1)) % w->count;
  const char *f = w->members[from], *t = w->members[to];
  size_t at = occurrence(E->b, f, next_random(rnd) % occurrences(E->b, f));
  edit_text(E, at, at + strlen(f), t, strlen(t));
  if (w->calls && next_random(rnd) % 2 && strcmp(w->calls[from], w->calls[to]) != 0)
    replace_all(E, w->calls[from], w->calls[to]);
  return true;
}

/* The start of a random top-level line that begins an item or a comment (the end of the
 * text when there is none). */
static size_t place_at_top_level(const text_buf *b, uint32_t *rnd) {
  size_t starts = 0;
  for (size_t i = 0; i < b->len; i++)
    if ((i == 0 || b->s[i - 1] == '\n') && (b->s[i] == '/' || (b->s[i] >= 'A' && b->s[i] <= 'z')))
      starts++;
  size_t pick = next_random(rnd) % (starts + 1);
  for (size_t i = 0; i < b->len; i++)
    if ((i == 0 || b->s[i - 1] == '\n') && (b->s[i] == '/' || (b->s[i] >= 'A' && b->s[i] <= 'z')) &&
        pick-- == 0)
      return i;
  return b->len;
}

/* The whole line holding offset `at`: [*start, *end), its line break included. */
static void line_at(const text_buf *b, size_t at, size_t *start, size_t *end) {
  *start = at;
  while (*start > 0 && b->s[*start - 1] != '\n')
    (*start)--;
  const char *nl = memchr(b->s + at, '\n', b->len - at);
  *end = nl ? (size_t)(nl - b->s) + 1 : b->len;
}

/* The const W removed, or added back (with one of its values) before a random item. */
static void toggle_const(editing *E, uint32_t *rnd) {
  const char *key = "const W : i64 = ";
  if (strstr(E->b->s, key)) {
    size_t start, end;
    line_at(E->b, occurrence(E->b, key, 0), &start, &end);
    edit_text(E, start, end, "", 0);
    return;
  }
  char line[64];
  int n = snprintf(line, sizeof(line), "%s\n", w_values[next_random(rnd) % ARRAY_LEN(w_values)]);
  size_t at = place_at_top_level(E->b, rnd);
  edit_text(E, at, at, line, (size_t)n);
}

/* A body edit the window reparse takes: a loop's bound, or a placement added or removed. */
static void body_edit(editing *E, uint32_t *rnd) {
  /* (a name the program has: a body introducing a new one is lowered with the program) */
  static const char extra[] = "  let s = transfer(Tensor<f32, [T, W]>::uninit(), Memory::HBM);\n";
  size_t start, end;
  uint32_t kind = next_random(rnd) % 3;
  if (kind == 0 && find_number_after(E->b, "in 0..", rnd, &start, &end)) {
    char n[16];
    int len = snprintf(n, sizeof(n), "%u", 1 + next_random(rnd) % 64);
    edit_text(E, start, end, n, (size_t)len);
  } else if (kind == 1 && occurrences(E->b, extra)) {
    start = occurrence(E->b, extra, next_random(rnd) % occurrences(E->b, extra));
    edit_text(E, start, start + strlen(extra), "", 0);
  } else { /* before an indented line of a function */
    line_at(E->b, place_in_a_body(E->b, rnd), &start, &end);
    if (start < E->b->len && E->b->s[start] == ' ')
      edit_text(E, start, start, extra, strlen(extra));
  }
}

/* A top-level `let` is a syntax error: the next reparse starts from a program with one,
 * which the window reparse does not take, so its edits go through the whole tree's. */
static const char stray_item[] = "let stray = 0;\n";

/* `steps` reparses of sig_program under edits from `seed`: signature and const edits
 * (swaps, W removed and added back), call sites changed alone, body edits, and a stray
 * item typed and removed again, each compared with a fresh parse and analysis. Counts which
 * reparse took the steps with a signature or const edit. */
static void run_signature_sequence(uint32_t seed, int steps) {
  seq_state st;
  assert_int_equal(vxp_context_new(&st.ctx, NULL), VXP_OK);
  text_buf b = {NULL, 0, 0};
  buf_replace(&b, 0, 0, sig_program, strlen(sig_program));
  assert_int_equal(vxp_source_new(&st.src, st.ctx, "prop.vx", b.s, b.len), VXP_OK);
  assert_int_equal(
      vxp_program_parse_flags(&st.prog, st.ctx, st.src, seed & 1 ? VXP_PROGRAM_FOR_EDITING : 0),
      VXP_OK);
  assert_int_equal(vxp_analyze(&st.an, st.ctx, st.prog, NULL), VXP_OK);
  uint32_t rnd = seed;
  seq_counts c;
  memset(&c, 0, sizeof(c));
  size_t defines = 0;
  /* reparses of steps with a signature or const edit: window, whole tree, fresh parse; of
   * those whose earlier version had a syntax error (the whole tree's); of the steps with
   * body edits alone: window */
  size_t sig_window = 0, sig_whole = 0, sig_fresh = 0, forced_whole = 0, body_window = 0;
  size_t peak_moves = 0;
  u128 main_total = total_of(st.an, "main", "HBM");
  static const char *const codes[] = {"E6001", "E6029", "E6009", "E6026", "E2001", "E2002"};
  int seen[ARRAY_LEN(codes)] = {0};
  for (int step = 0; step < steps; step++) {
    editing E = {&b, st.src, st.src};
    bool sig = false, body = false, forced = strstr(b.s, stray_item) != NULL;
    if (forced) { /* the stray item removed, and a signature edit in the same reparse */
      size_t at = occurrence(&b, stray_item, 0);
      edit_text(&E, at, at + strlen(stray_item), "", 0);
      while (!sig)
        sig = swap_edit(&E, &rnd, &signature_swaps[next_random(&rnd) % ARRAY_LEN(signature_swaps)]);
    }
    int burst = forced ? 0 : next_random(&rnd) % 4 == 0 ? 2 : 1;
    for (int k = 0; k < burst; k++) {
      uint32_t kind = next_random(&rnd) % 100;
      if (kind < 50) {
        const swap *w = &signature_swaps[next_random(&rnd) % ARRAY_LEN(signature_swaps)];
        bool done = swap_edit(&E, &rnd, w);
        sig = sig || done;
      } else if (kind < 58) {
        toggle_const(&E, &rnd);
        sig = true;
      } else if (kind < 70) {
        body = swap_edit(&E, &rnd, &call_swaps[next_random(&rnd) % ARRAY_LEN(call_swaps)]) || body;
      } else if (kind < 88) {
        body_edit(&E, &rnd);
        body = true;
      } else if (kind < 96) {
        size_t at = place_at_top_level(&b, &rnd);
        edit_text(&E, at, at, stray_item, strlen(stray_item));
      } else {
        edit_text(&E, 0, b.len, sig_program, strlen(sig_program));
      }
    }
    if (E.cur == st.src) edit_text(&E, 0, 0, "", 0); /* nothing to swap: a version all the same */
    if (next_random(&rnd) % 6 == 0) defines = next_random(&rnd) % ARRAY_LEN(sig_defines);
    size_t syntax = reparse_and_compare(&st, E.cur, &b, &sig_defines[defines], seed, step, &c);
    /* the edits keep the text valid, but for the stray item */
    if (strstr(b.s, stray_item))
      assert_true(syntax > 0);
    else
      assert_int_equal(syntax, 0);
    bool window = st.prog->window_tree != NULL, whole = !window && st.prog->reused_tree;
    if (sig) {
      sig_window += window;
      sig_whole += whole;
      sig_fresh += !window && !whole;
      forced_whole += forced && whole;
    } else if (body) {
      body_window += window;
    }
    u128 total = total_of(st.an, "main", "HBM");
    peak_moves += total != main_total;
    main_total = total;
    for (size_t i = 0; i < ARRAY_LEN(codes); i++)
      seen[i] += code_count(st.an, codes[i]) > 0;
  }
  fprintf(stderr,
          "seed %u: %d reparses, %zu on the old tree, %zu with the unchanged items' model "
          "copied; %zu analyses took %zu items over; functions taken over %zu, walked %zu; "
          "signature or const edits: %zu in the window, %zu on the whole tree (%zu after a "
          "syntax error), %zu parsed afresh; body edits alone: %zu in the window; main's peak "
          "moved %zu times\n",
          seed, steps, c.reused, c.spliced, c.lent, c.taken, c.fns_taken, c.fns_walked, sig_window,
          sig_whole, forced_whole, sig_fresh, body_window, peak_moves);
  for (size_t i = 0; i < ARRAY_LEN(codes); i++)
    fprintf(stderr, "%s%s at %d steps%s", i ? ", " : "  ", codes[i], seen[i],
            i + 1 < ARRAY_LEN(codes) ? "" : "\n");
  /* Both reparses took these edits: the whole tree's always can (an earlier version with a
   * syntax error makes sure of it), the window's takes the call sites changed alone and the
   * body edits. (Signature edits in the window are not asserted: today they step aside.) */
  assert_true(sig_whole > 0);
  assert_true(forced_whole > 0);
  assert_true(body_window > 0);
  /* The edits mattered: the peaks moved, and each check that reads a callee's signature,
   * finds no const or finds no callee reported at some step. */
  assert_true(peak_moves > (size_t)steps / 10);
  for (size_t i = 0; i < ARRAY_LEN(codes); i++)
    if (!seen[i]) fail_msg("no %s in the sequence of seed %u", codes[i], seed);
  vxp_analysis_free(st.an);
  vxp_program_free(st.prog);
  vxp_source_free(st.src);
  vxp_context_free(st.ctx);
  free(b.s);
}

/* Edits of parameters' types (scalars, pointers wanting a memory, placed and generic tensor
 * shapes and dtypes), return types, `on` topologies, const values and consts removed and
 * added, parameters added and removed with their call sites or without, functions renamed
 * with their callers or without, under -D overrides that change between edits: after each,
 * the incremental reparse and analysis report what a fresh parse and analysis report. */
static void
test_incremental__signature_and_const_edits_report_what_a_fresh_parse_reports(void **state) {
  (void)state;
  /* odd seeds opened for editing (the first edit may take the window), even ones parsed once
   * (the first reparse lowers in full) */
  for (uint32_t seed = 21; seed <= 23; seed++)
    run_signature_sequence(seed, 200);
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
      cmocka_unit_test(
          test_incremental__signature_and_const_edits_report_what_a_fresh_parse_reports),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
