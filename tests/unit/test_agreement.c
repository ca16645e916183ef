/* SPDX-License-Identifier: Apache-2.0 */
/* test_agreement.c - one program, one set of facts: on randomly generated programs, every
 * command that reports a trip count, an `if comptime` arm or a tile size must report the one
 * the generator knows, including bounds and conditions that go negative (`for i in
 * (K - 3)..4`, `if comptime K - 3`), where a second, unsigned fold once disagreed:
 *
 *   - the analysis' decided facts (lib/analysis_data.h): trip counts;
 *   - check's records (bytes and runs per tile) and allocated_bytes;
 *   - explain (vxp_report_explain, JSON): allocated bytes, the sum over the run, tile sizes;
 *   - the roofline: the bytes the spawn region writes, which multiplies its trip counts;
 *   - CUDA generation (vxp_cuda_generate): every generated `for` loop's bounds (evaluated
 *     here), the arms it keeps, and the size of every tile it allocates;
 *   - plot (vxp_report_plot, every program): one point per tile, with its size.
 */
#include <stdarg.h>

#include "support.h"

#include "analysis_data.h"
#include "program.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

typedef struct gen {
  char text[16384];
  size_t len;
  long k;              /* the value of const K */
  uint64_t written;    /* bytes the spawn region writes (the roofline's answer) */
  uint64_t allocated;  /* bytes placed over the run (check's allocated_bytes) */
  uint64_t tiles;      /* records expected */
  uint64_t runs[256];  /* expected runs of each tile, in placement order */
  uint64_t trips[256]; /* expected trip count of each reached `for`, in program order */
  size_t loops;
  size_t negative_starts;        /* reached loops whose start folds negative */
  size_t then_taken, else_taken; /* reached `if comptime`s by the arm they take */
  int budget;
} gen;

static void emit(gen *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(g->text + g->len, sizeof(g->text) - g->len, fmt, ap);
  va_end(ap);
  assert_true(n >= 0 && (size_t)n < sizeof(g->text) - g->len);
  g->len += (size_t)n;
}

/* Statements inside (`device`) or outside the spawn region; `mult` is the product of the
 * trip counts around them, `live` whether they run at all (not in a pruned arm). */
static void statements(gen *g, bool device, uint64_t mult, bool live, int depth) {
  int count = 1 + (int)(rnd() % 3);
  for (int s = 0; s < count && g->budget > 0; s++) {
    g->budget--;
    unsigned pick = depth >= 3 ? 2 : (unsigned)(rnd() % 3);
    if (pick == 0) {
      /* A loop whose start may go negative: trips = max(end - (K - c), 0). */
      long c = (long)(rnd() % 6), end = (long)(rnd() % 5) - 1;
      long start = g->k - c;
      uint64_t trips = end > start ? (uint64_t)(end - start) : 0;
      if (live) g->trips[g->loops++] = trips;
      if (live && start < 0) g->negative_starts++;
      emit(g, "for i%d in (K - %ld)..%ld {\n", depth, c, end);
      statements(g, device, mult * trips, live, depth + 1);
      emit(g, "}\n");
    } else if (pick == 1) {
      /* An `if comptime` whose condition may be negative: non-zero takes the then arm. */
      long c = (long)(rnd() % 6);
      bool taken = g->k - c != 0;
      if (live && taken) g->then_taken++;
      if (live && !taken) g->else_taken++;
      emit(g, "if comptime K - %ld {\n", c);
      statements(g, device, mult, live && taken, depth + 1);
      emit(g, "} else {\n");
      statements(g, device, mult, live && !taken, depth + 1);
      emit(g, "}\n");
    } else if (device) {
      emit(g, "a[0] = 1;\n");
      if (live) g->written += mult;
    } else {
      emit(g, "let t%zu = transfer(Tensor<u8, [16]>::uninit(), Memory::W);\nprint!(t%zu);\n",
           g->len, g->len);
      if (live) {
        assert_true(g->tiles < 256);
        g->runs[g->tiles++] = mult;
        g->allocated += 16 * mult;
      }
    }
  }
}

static void generate(gen *g) {
  memset(g, 0, sizeof(*g));
  g->k = (long)(rnd() % 7) - 2;
  g->budget = 14;
  emit(g,
       "Memory CPU_DRAM {}\n"
       "Memory W { within: Memory::CPU_DRAM, capacity: 64 MiB, bandwidth: 1000 GB/s, "
       "managed: explicit }\n"
       "Topology Dev { arch: nvptx64, memory: Memory::W, visible: [Memory::W],\n"
       "  transfer Memory::CPU_DRAM -> Memory::W : 10 GB/s }\n"
       "const K : i64 = %s%ld;\n"
       "fn main() -> i32 {\n"
       "let a = transfer(Tensor<u8, [4096]>::uninit(), Memory::W);\n",
       g->k < 0 ? "0 - " : "", g->k < 0 ? -g->k : g->k);
  g->runs[g->tiles++] = 1;
  g->allocated = 4096;
  statements(g, false, 1, true, 0);
  emit(g, "spawn on(Topology::Dev) {\n");
  statements(g, true, 1, true, 0);
  emit(g, "}\nprint!(a);\nreturn 0;\n}\n");
}

/* ------------------------------------------------------------------ reading the outputs */

/* The program without its `print!` lines (the CUDA subset has no printing of tiles): its
 * tiles are then never read, which moves when they are released, not how often they run,
 * how big they are, or what the loops and arms are. */
static size_t without_prints(const gen *g, char *out, size_t size) {
  size_t n = 0;
  for (const char *line = g->text; *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line + 1) : strlen(line);
    if (strncmp(line, "print!(", 7) != 0) {
      assert_true(n + len < size);
      memcpy(out + n, line, len);
      n += len;
    }
    line += len;
  }
  out[n] = 0;
  return n;
}

/* A tiny evaluator for the integer expressions the generator makes codegen write:
 * literals with C suffixes, `(int64_t)` casts, parentheses, unary and binary + - *. */
typedef struct cexpr_reader {
  const char *p;
  bool ok;
} cexpr_reader;

static long long c_sum(cexpr_reader *r);

static void c_space(cexpr_reader *r) {
  while (*r->p == ' ')
    r->p++;
}

static long long c_atom(cexpr_reader *r) {
  c_space(r);
  if (strncmp(r->p, "(int64_t)", 9) == 0) {
    r->p += 9;
    return c_atom(r);
  }
  if (*r->p == '(') {
    r->p++;
    long long v = c_sum(r);
    c_space(r);
    if (*r->p != ')')
      r->ok = false;
    else
      r->p++;
    return v;
  }
  if (*r->p == '-') {
    r->p++;
    return -c_atom(r);
  }
  if (*r->p < '0' || *r->p > '9') {
    r->ok = false;
    return 0;
  }
  long long v = strtoll(r->p, (char **)&r->p, 10);
  while (*r->p == 'L' || *r->p == 'l' || *r->p == 'u' || *r->p == 'U')
    r->p++;
  return v;
}

static long long c_product(cexpr_reader *r) {
  long long v = c_atom(r);
  for (c_space(r); *r->p == '*'; c_space(r)) {
    r->p++;
    v *= c_atom(r);
  }
  return v;
}

static long long c_sum(cexpr_reader *r) {
  long long v = c_product(r);
  for (c_space(r); *r->p == '+' || *r->p == '-'; c_space(r)) {
    char op = *r->p++;
    long long w = c_product(r);
    v = op == '+' ? v + w : v - w;
  }
  return v;
}

static int compare_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static size_t count_of(const char *text, const char *needle) {
  size_t n = 0;
  for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
    n++;
  return n;
}

/* CUDA generation of the program without prints: its loops' trip counts (as a multiset:
 * kernels are written before the host code), its arms and its tiles. */
static void check_cuda(vxp_context *ctx, const gen *g, int p) {
  static char text[16384];
  size_t len = without_prints(g, text, sizeof(text));
  vxp_source *src;
  vxp_program *prog;
  vxp_analysis *an;
  assert_int_equal(vxp_source_new(&src, ctx, "agree.vx", text, len), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
  vxp_cuda *cu = NULL;
  assert_int_equal(vxp_cuda_generate(&cu, ctx, an), VXP_OK);
  const char *cuda = vxp_cuda_text(cu, NULL);
  if (!cuda)
    fail_msg("program %d: no CUDA: %s\n%s", p,
             vxp_cuda_diagnostic_count(cu) ? vxp_diagnostic_message(vxp_cuda_diagnostic(cu, 0))
                                           : "?",
             text);
  uint64_t trips[256];
  size_t loops = 0;
  for (const char *f = strstr(cuda, "for (int64_t "); f; f = strstr(f + 1, "for (int64_t ")) {
    const char *eq = strchr(f, '=');
    cexpr_reader r = {eq + 1, true};
    long long start = c_sum(&r);
    const char *eq2 = r.ok ? strchr(r.p, '=') : NULL;
    assert_non_null(eq2);
    r.p = eq2 + 1;
    long long end = c_sum(&r);
    if (!r.ok) fail_msg("program %d: cannot read the loop at '%.60s'", p, f);
    assert_true(loops < 256);
    trips[loops++] = end > start ? (uint64_t)(end - start) : 0;
  }
  uint64_t want[256];
  memcpy(want, g->trips, g->loops * sizeof(uint64_t));
  qsort(want, g->loops, sizeof(uint64_t), compare_u64);
  qsort(trips, loops, sizeof(uint64_t), compare_u64);
  if (loops != g->loops || memcmp(trips, want, loops * sizeof(uint64_t)) != 0)
    fail_msg("program %d: CUDA has %zu loops, %zu expected, or other trip counts:\n%s\n%s", p,
             loops, g->loops, text, cuda);
  /* The arms: the taken ones kept, the pruned ones not written at all. */
  if (count_of(cuda, "/* if comptime: taken */") != g->then_taken ||
      count_of(cuda, "/* if comptime: else taken */") != g->else_taken)
    fail_msg("program %d: CUDA keeps %zu then and %zu else arms, %zu and %zu expected:\n%s", p,
             count_of(cuda, "/* if comptime: taken */"),
             count_of(cuda, "/* if comptime: else taken */"), g->then_taken, g->else_taken, text);
  /* The tiles: one allocation per placement that runs, of the record's size. */
  size_t tiles = 0;
  uint64_t bytes = 0;
  for (const char *t = strstr(cuda, "vxp_tile_alloc(&fr"); t;
       t = strstr(t + 1, "vxp_tile_alloc(&fr")) {
    const char *size = strstr(t, "VXP_SPACE_W, ");
    assert_non_null(size);
    bytes += strtoull(size + 13, NULL, 10);
    tiles++;
  }
  uint64_t want_bytes = 4096 + 16 * (g->tiles - 1);
  if (tiles != g->tiles || bytes != want_bytes)
    fail_msg("program %d: CUDA allocates %zu tiles of %llu bytes in all, %llu of %llu expected", p,
             tiles, (unsigned long long)bytes, (unsigned long long)g->tiles,
             (unsigned long long)want_bytes);
  vxp_cuda_free(cu);
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
}

/* The first number after `key` at or after `*from` (moved past the key), or UINT64_MAX. */
static uint64_t number_after(const char *key, const char **from) {
  const char *k = strstr(*from, key);
  if (!k) return UINT64_MAX;
  *from = k + strlen(key);
  return strtoull(*from, NULL, 10);
}

/* explain's JSON: allocated bytes, the sum over the run (runs x bytes), tile sizes. */
static void check_explain(vxp_context *ctx, const vxp_analysis *an, const gen *g, int p) {
  vxp_report_options opts = VXP_REPORT_OPTIONS_INIT;
  opts.format = VXP_REPORT_JSON;
  vxp_report *rep = NULL;
  assert_int_equal(vxp_report_explain(&rep, ctx, an, &opts), VXP_OK);
  const char *json = vxp_report_text(rep, NULL);
  const char *at = json;
  uint64_t allocated = number_after("\"allocated_bytes\": ", &at);
  uint64_t over_run = 0, bytes;
  const char *sum = strstr(json, "\"sum_over_run\"");
  assert_non_null(sum);
  for (const char *q = sum; (bytes = number_after("\"bytes\": ", &q)) != UINT64_MAX; sum = q)
    over_run += bytes;
  if (allocated != g->allocated || over_run != g->allocated)
    fail_msg("program %d: explain says %llu allocated, %llu over the run, %llu expected:\n%s", p,
             (unsigned long long)allocated, (unsigned long long)over_run,
             (unsigned long long)g->allocated, json);
  /* Every site's tile is one of the two sizes the generator places. */
  at = json;
  for (uint64_t t; (t = number_after("\"tile_bytes\": ", &at)) != UINT64_MAX;)
    if (t != 16 && t != 4096)
      fail_msg("program %d: explain shows a tile of %llu bytes", p, (unsigned long long)t);
  vxp_report_free(rep);
}

/* plot's SVG (vxp_report_plot, the library call the command prints): one point per tile
 * placed, each with its size. */
static void check_plot(vxp_context *ctx, const vxp_analysis *an, const gen *g, int p) {
  vxp_report_options opts = VXP_REPORT_OPTIONS_INIT;
  opts.format = VXP_REPORT_SVG;
  vxp_report *rep = NULL;
  if (vxp_report_plot(&rep, ctx, an, &opts) != VXP_OK)
    fail_msg("program %d: vxp_report_plot failed: %s", p, vxp_context_errmsg(ctx));
  const char *svg = vxp_report_text(rep, NULL);
  size_t tiles = 0;
  uint64_t bytes = 0;
  for (const char *t = strstr(svg, " placed, "); t; t = strstr(t + 1, " placed, ")) {
    uint64_t v = 0; /* written with thousands separators: 4,096 */
    for (const char *d = t + 9; (*d >= '0' && *d <= '9') || *d == ','; d++)
      if (*d != ',') v = v * 10 + (uint64_t)(*d - '0');
    bytes += v;
    tiles++;
  }
  if (tiles != g->tiles || bytes != 4096 + 16 * (g->tiles - 1))
    fail_msg("program %d: plot shows %zu tiles of %llu bytes, %llu expected", p, tiles,
             (unsigned long long)bytes, (unsigned long long)g->tiles);
  vxp_report_free(rep);
}

static void test_agreement__every_command_agrees_on_random_programs(void **state) {
  (void)state;
  const int programs = 2000;
  vxp_context *ctx = test_context();
  size_t negative_starts = 0, pruned = 0;
  for (int p = 0; p < programs; p++) {
    gen g;
    generate(&g);
    vxp_source *src;
    vxp_program *prog;
    vxp_analysis *an;
    assert_int_equal(vxp_source_new(&src, ctx, "agree.vx", g.text, g.len), VXP_OK);
    assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
    assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
    if (!vxp_analysis_admitted(an))
      fail_msg("program %d rejected: %s\n%s", p,
               vxp_diagnostic_message(vxp_analysis_diagnostic(an, 0)), g.text);

    /* The facts: every reached `for` has the trip count the generator computed. */
    uint32_t fn = vxp_analysis__function_index(an, "main");
    assert_true(fn != VXP_NONE);
    const vxp_function *mf = &prog->model.functions.items[an->functions.items[fn].model_fn];
    size_t loop = 0;
    for (size_t e = 0; e < mf->events.len; e++) {
      const vxp_event *ev = &mf->events.items[e];
      const vxp_event_fact *f = vxp_analysis__event_fact(an, fn, e);
      if (ev->kind == VXP_EV_OPEN && ev->u.block.kind == VXP_BLOCK_ELSE && f->reached &&
          f->arm == VXP_ARM_PRUNED)
        pruned++;
      if (ev->kind != VXP_EV_OPEN || ev->u.block.kind != VXP_BLOCK_FOR || !f->reached) continue;
      assert_true(f->trips_known);
      if (loop >= g.loops || f->trips != g.trips[loop])
        fail_msg("program %d: loop %zu has %llu trips in the facts, %llu expected:\n%s", p, loop,
                 (unsigned long long)f->trips,
                 (unsigned long long)(loop < g.loops ? g.trips[loop] : 0), g.text);
      loop++;
    }
    assert_int_equal(loop, g.loops);
    negative_starts += g.negative_starts;

    /* check (and explain, plot: they read the same records): the tiles placed, how often
     * each runs, and the sum over the run. */
    size_t recs = vxp_analysis_record_count(an);
    if (recs != g.tiles)
      fail_msg("program %d: %zu records, %llu expected:\n%s", p, recs, (unsigned long long)g.tiles,
               g.text);
    for (size_t i = 0; i < recs; i++) {
      uint64_t runs = 0;
      assert_true(vxp_record_runs(vxp_analysis_record(an, i), &runs));
      if (runs != g.runs[i])
        fail_msg("program %d: tile %zu runs %llu times, %llu expected:\n%s", p, i,
                 (unsigned long long)runs, (unsigned long long)g.runs[i], g.text);
    }
    uint64_t allocated = 0;
    assert_true(vxp_resident_set_allocated_bytes(test_resident(an, "main", "W"), &allocated));
    assert_int_equal(allocated, g.allocated);

    /* roofline: the bytes the region writes, exactly. */
    vxp_roofline *rf = NULL;
    assert_int_equal(vxp_roofline_new(&rf, ctx, an, "main"), VXP_OK);
    uint64_t written = 0;
    for (size_t s = 0; s < vxp_roofline_space_count(rf); s++)
      if (strcmp(vxp_roofline_space_name(rf, s), "W") == 0)
        written = vxp_roofline_space_written_bytes(rf, s);
    if (vxp_roofline_traffic(rf) == VXP_CERTAINTY_UNKNOWN || written != g.written)
      fail_msg("program %d: roofline %s, %llu bytes written, %llu expected:\n%s", p,
               vxp_certainty_name(vxp_roofline_traffic(rf)), (unsigned long long)written,
               (unsigned long long)g.written, g.text);
    vxp_roofline_free(rf);

    check_explain(ctx, an, &g, p);
    check_cuda(ctx, &g, p);
    check_plot(ctx, an, &g, p);
    vxp_analysis_free(an);
    vxp_program_free(prog);
    vxp_source_free(src);
  }
  vxp_context_free(ctx);
  /* The programs exercise what once disagreed: negative loop starts and pruned arms. */
  assert_true(negative_starts > (size_t)programs / 4);
  assert_true(pruned > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_agreement__every_command_agrees_on_random_programs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
