/* SPDX-License-Identifier: Apache-2.0 */
/* test_peak.c - the linear sweep (lib/peak.c) against the quadratic oracle, on the
 * worked shapes of vxc's scope matrix, on 10,000 random traces, and through the whole
 * pipeline on 10,000 random Vx programs (nested if/else, for, loop, unsafe, spawn and
 * match blocks, transfers and placed lets in three spaces, one with a granule, never-read
 * bindings) whose expected trace is built alongside their text. */
#include "support.h"

#include "oracle.h"

#define MIB3 3145728u

typedef struct builder {
  vxp_trace_item trace[4096];
  size_t len;
  vxp_peak_tile tiles[4096];
  size_t tiles_len;
  size_t calls;
} builder;

static void open_(builder *b) { b->trace[b->len++] = (vxp_trace_item){VXP_TRACE_OPEN, 0}; }
static void close_(builder *b) { b->trace[b->len++] = (vxp_trace_item){VXP_TRACE_CLOSE, 0}; }
static void tile(builder *b, uint32_t space, uint64_t bytes, bool at_once) {
  b->tiles[b->tiles_len] = (vxp_peak_tile){space, bytes, at_once};
  b->trace[b->len++] = (vxp_trace_item){VXP_TRACE_PLACE, (uint32_t)b->tiles_len++};
}
static void call(builder *b) {
  b->trace[b->len++] = (vxp_trace_item){VXP_TRACE_CALL, (uint32_t)b->calls++};
}

typedef struct result {
  vxp_space_peak peaks[4];
  bool live[4096];
  uint64_t held[4096 * 4];
} result;

static result *sweep(builder *b, uint32_t spaces) {
  vxp_context *ctx = test_context();
  result *r = calloc(1, sizeof(*r));
  assert_int_equal(vxp_peak__sweep(ctx, b->trace, b->len, b->tiles, b->tiles_len, spaces, r->peaks,
                                   r->live, r->held, b->calls),
                   VXP_OK);
  vxp_context_free(ctx);
  return r;
}

/* The worked shapes of vxc's working-set matrix, with 3 MiB tiles. */
static void test_peak__matrix_of_scope_shapes(void **state) {
  (void)state;
  struct {
    const char *name;
    const char *shape; /* t = tile, ( = open, ) = close */
    uint64_t peak;
    uint32_t tiles;
  } cases[] = {
      {"one tile", "t", MIB3, 1},
      {"two in one block", "tt", 2ull * MIB3, 2},
      {"tile in a block then one after", "(t)t", MIB3, 1},
      {"two sibling blocks", "(t)(t)", MIB3, 1},
      {"outer plus one inside", "t(t)", 2ull * MIB3, 2},
      {"outer, block, outer", "t(t)t", 2ull * MIB3, 2},
      {"three-deep nesting", "t(t(t))", 3ull * MIB3, 3},
      {"deep chain with sibling inner blocks", "t((t)(t))", 2ull * MIB3, 2},
      {"tile outside plus loop body", "t(t)", 2ull * MIB3, 2},
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    builder *b = calloc(1, sizeof(*b));
    for (const char *p = cases[c].shape; *p; p++) {
      if (*p == 't')
        tile(b, 0, MIB3, false);
      else if (*p == '(')
        open_(b);
      else
        close_(b);
    }
    result *r = sweep(b, 1);
    if ((uint64_t)r->peaks[0].peak != cases[c].peak || r->peaks[0].tiles_at_peak != cases[c].tiles)
      fail_msg("%s: peak %llu tiles %u", cases[c].name, (unsigned long long)r->peaks[0].peak,
               r->peaks[0].tiles_at_peak);
    free(r);
    free(b);
  }
}

static void test_peak__never_read_tile_counts_only_at_its_placement(void **state) {
  (void)state;
  builder *b = calloc(1, sizeof(*b));
  tile(b, 0, 64, true); /* never read: 64 alone */
  tile(b, 0, 16, false);
  tile(b, 0, 1, false);
  result *r = sweep(b, 1);
  assert_int_equal((uint64_t)r->peaks[0].peak, 64);
  assert_int_equal(r->peaks[0].tiles_at_peak, 1);
  assert_true(r->live[0]);
  assert_false(r->live[1]);
  free(r);
  free(b);
}

static void test_peak__held_bytes_at_a_call_exclude_closed_blocks(void **state) {
  (void)state;
  builder *b = calloc(1, sizeof(*b));
  tile(b, 0, 100, false);
  open_(b);
  tile(b, 0, 10, false);
  close_(b);
  call(b);
  tile(b, 1, 7, false);
  call(b);
  result *r = sweep(b, 2);
  assert_int_equal(r->held[0 * 2 + 0], 100);
  assert_int_equal(r->held[0 * 2 + 1], 0);
  assert_int_equal(r->held[1 * 2 + 1], 7);
  free(r);
  free(b);
}

static void test_peak__unbalanced_trace_is_rejected(void **state) {
  (void)state;
  builder *b = calloc(1, sizeof(*b));
  close_(b);
  vxp_context *ctx = test_context();
  vxp_space_peak peaks[1];
  bool live[1];
  assert_int_equal(vxp_peak__sweep(ctx, b->trace, b->len, b->tiles, 0, 1, peaks, live, NULL, 0),
                   VXP_EINVAL);
  vxp_context_free(ctx);
  free(b);
}

/* xorshift: deterministic random traces. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static void test_peak__matches_the_quadratic_oracle_on_random_programs(void **state) {
  (void)state;
  const int programs = 10000;
  for (int p = 0; p < programs; p++) {
    builder *b = calloc(1, sizeof(*b));
    uint32_t spaces = 1 + (uint32_t)(rnd() % 3);
    int depth = 0;
    size_t steps = 1 + rnd() % 60;
    for (size_t s = 0; s < steps; s++) {
      uint64_t r = rnd() % 10;
      if (r < 2 && depth < 20) {
        open_(b);
        depth++;
      } else if (r < 4 && depth > 0) {
        close_(b);
        depth--;
      } else if (r < 5) {
        call(b);
      } else {
        tile(b, (uint32_t)(rnd() % spaces), 1 + rnd() % 1000, rnd() % 5 == 0);
      }
    }
    result *res = sweep(b, spaces);
    unsigned __int128 peaks[4];
    uint32_t counts[4];
    assert_true(oracle_peaks(b->trace, b->len, b->tiles, b->tiles_len, spaces, peaks, counts));
    for (uint32_t s = 0; s < spaces; s++) {
      if (res->peaks[s].peak != peaks[s] ||
          (res->peaks[s].any && res->peaks[s].tiles_at_peak != counts[s]))
        fail_msg("program %d space %u: sweep %llu/%u oracle %llu/%u", p, s,
                 (unsigned long long)res->peaks[s].peak, res->peaks[s].tiles_at_peak,
                 (unsigned long long)peaks[s], counts[s]);
    }
    free(res);
    free(b);
  }
}

/* ------------------------------------------------------------------ the whole pipeline */

/* A random Vx program and the trace the analysis must see for it, built side by side: the
 * program goes through parse, lowering and analysis; the trace through the oracle. */
typedef struct program_gen {
  char *text;
  size_t len, cap;
  builder *b;      /* the expected trace: releasing blocks, tiles (space, bytes) */
  unsigned tiles;  /* names t0, t1, ... in placement order */
  bool read[4096]; /* whether tile k's name is read */
} program_gen;

static void emit(program_gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(program_gen *g, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int n = vsnprintf(g->text + g->len, g->cap - g->len, fmt, ap);
    va_end(ap);
    if ((size_t)n < g->cap - g->len) {
      g->len += (size_t)n;
      return;
    }
    g->cap *= 2;
    g->text = realloc(g->text, g->cap);
    assert_non_null(g->text);
  }
}

#define GEN_SPACES 3 /* A (transfer), B (transfer, 64-byte granule), C (placed let) */

static void gen_block(program_gen *g, int depth, int *budget);

/* One statement: a placement, a block, or a read of an earlier tile. */
static void gen_statement(program_gen *g, int depth, int *budget) {
  uint64_t r = rnd() % 100;
  if (r < 45 && g->tiles < 4000) {
    unsigned k = g->tiles++;
    uint32_t space = (uint32_t)(rnd() % GEN_SPACES);
    uint64_t n = 1 + rnd() % 5000;
    uint64_t bytes = space == 1 ? (n + 63) / 64 * 64 : n;
    /* One tile in four is never read: its name appears nowhere else. */
    g->read[k] = rnd() % 4 != 0;
    if (space == 2)
      emit(g, "let t%u = Tensor<u8, [%llu], Memory::C>::uninit();\n", k, (unsigned long long)n);
    else
      emit(g, "let t%u = transfer(Tensor<u8, [%llu]>::uninit(), Memory::%c);\n", k,
           (unsigned long long)n, space == 0 ? 'A' : 'B');
    /* Only a transfer whose name is never read is released at once; a placed `let`
     * stays resident to the end of its block whether or not it is read (vxc's rule). */
    tile(g->b, space, bytes, space != 2 && !g->read[k]);
  } else if (r < 75 && depth < 12 && *budget > 0) {
    (*budget)--;
    uint64_t kind = rnd() % 7;
    switch (kind) {
    case 0: /* if (releasing) */
      emit(g, "if x > %d {\n", (int)(rnd() % 5));
      open_(g->b);
      gen_block(g, depth + 1, budget);
      close_(g->b);
      emit(g, "}\n");
      break;
    case 1: /* if / else: two releasing arms */
      emit(g, "if x > 2 {\n");
      open_(g->b);
      gen_block(g, depth + 1, budget);
      close_(g->b);
      emit(g, "} else {\n");
      open_(g->b);
      gen_block(g, depth + 1, budget);
      close_(g->b);
      emit(g, "}\n");
      break;
    case 2: /* for (releasing) */
      emit(g, "for i in 0..%d {\n", 1 + (int)(rnd() % 4));
      open_(g->b);
      gen_block(g, depth + 1, budget);
      close_(g->b);
      emit(g, "}\n");
      break;
    case 3: /* loop (releasing) */
      emit(g, "loop {\n");
      open_(g->b);
      gen_block(g, depth + 1, budget);
      close_(g->b);
      emit(g, "break;\n}\n");
      break;
    case 4: /* unsafe: not releasing */
      emit(g, "unsafe {\n");
      gen_block(g, depth + 1, budget);
      emit(g, "}\n");
      break;
    case 5: /* spawn: not releasing */
      emit(g, "spawn on(Topology::T) {\n");
      gen_block(g, depth + 1, budget);
      emit(g, "}\n");
      break;
    default: /* match arms: not releasing */
      emit(g, "match x {\n0 => {\n");
      gen_block(g, depth + 1, budget);
      emit(g, "}\n_ => {\n");
      gen_block(g, depth + 1, budget);
      emit(g, "}\n}\n");
      break;
    }
  } else if (g->tiles > 0) {
    unsigned k = (unsigned)(rnd() % g->tiles);
    if (g->read[k]) emit(g, "print!(t%u);\n", k);
  }
}

static void gen_block(program_gen *g, int depth, int *budget) {
  int statements = (int)(rnd() % 6);
  for (int i = 0; i < statements; i++)
    gen_statement(g, depth, budget);
}

static void test_peak__the_pipeline_matches_the_oracle_on_random_programs(void **state) {
  (void)state;
  const int programs = 10000;
  vxp_context *ctx = NULL;
  assert_int_equal(vxp_context_new(&ctx, NULL), VXP_OK);
  size_t total_tiles = 0, rejected = 0;
  for (int p = 0; p < programs; p++) {
    program_gen g;
    memset(&g, 0, sizeof(g));
    g.cap = 4096;
    g.text = malloc(g.cap);
    g.b = calloc(1, sizeof(*g.b));
    assert_non_null(g.text);
    emit(&g, "Memory CPU_DRAM {}\n"
             "Memory A { capacity: 16 KiB }\n"
             "Memory B { capacity: 16 KiB, granule: 64 B }\n"
             "Memory C { capacity: 16 KiB }\n"
             "Topology T { memory: Memory::A, visible: [Memory::A, Memory::B, Memory::C],\n"
             "  transfer Memory::CPU_DRAM -> Memory::A\n"
             "  transfer Memory::CPU_DRAM -> Memory::B }\n"
             "extern \"C\" { fn read() -> i32; }\n"
             "fn main() -> i32 {\n"
             "let x = read();\n");
    int budget = 1 + (int)(rnd() % 12);
    int statements = 1 + (int)(rnd() % 30);
    for (int i = 0; i < statements; i++)
      gen_statement(&g, 0, &budget);
    /* Every read tile is read once more at the end, so that `read` holds by construction. */
    for (unsigned k = 0; k < g.tiles; k++)
      if (g.read[k]) emit(&g, "print!(t%u);\n", k);
    emit(&g, "return 0;\n}\n");
    total_tiles += g.tiles;

    vxp_source *src;
    vxp_program *prog;
    vxp_analysis *an;
    assert_int_equal(vxp_source_new(&src, ctx, "random.vx", g.text, g.len), VXP_OK);
    assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
    assert_int_equal(vxp_program_diagnostic_count(prog), 0);
    assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
    rejected += !vxp_analysis_admitted(an);

    unsigned __int128 peaks[GEN_SPACES];
    uint32_t counts[GEN_SPACES];
    assert_true(
        oracle_peaks(g.b->trace, g.b->len, g.b->tiles, g.b->tiles_len, GEN_SPACES, peaks, counts));
    const char *names[GEN_SPACES] = {"A", "B", "C"};
    for (uint32_t s = 0; s < GEN_SPACES; s++) {
      const vxp_resident_set *rs = test_resident(an, "main", names[s]);
      bool any = false;
      for (size_t t = 0; t < g.b->tiles_len; t++)
        any = any || g.b->tiles[t].space == s;
      if (!any) {
        if (rs) fail_msg("program %d: a resident set in %s with no tile placed there", p, names[s]);
        continue;
      }
      if (!rs) fail_msg("program %d: no resident set in %s:\n%s", p, names[s], g.text);
      uint32_t want_tiles = counts[s] ? counts[s] : 1;
      if (vxp_resident_set_peak_bytes(rs) != (uint64_t)peaks[s] ||
          vxp_resident_set_tile_count(rs) != want_tiles)
        fail_msg("program %d space %s: analysis %llu bytes / %zu tiles, oracle %llu / %u:\n%s", p,
                 names[s], (unsigned long long)vxp_resident_set_peak_bytes(rs),
                 vxp_resident_set_tile_count(rs), (unsigned long long)peaks[s], want_tiles, g.text);
    }
    vxp_analysis_free(an);
    vxp_program_free(prog);
    vxp_source_free(src);
    free(g.text);
    free(g.b);
  }
  vxp_context_free(ctx);
  /* The programs exercise the rules, not only the empty case: tiles, and both verdicts. */
  assert_true(total_tiles > (size_t)programs * 5);
  if (rejected == 0 || rejected == (size_t)programs)
    fail_msg("%zu of %d rejected", rejected, programs);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_peak__matrix_of_scope_shapes),
      cmocka_unit_test(test_peak__never_read_tile_counts_only_at_its_placement),
      cmocka_unit_test(test_peak__held_bytes_at_a_call_exclude_closed_blocks),
      cmocka_unit_test(test_peak__unbalanced_trace_is_rejected),
      cmocka_unit_test(test_peak__matches_the_quadratic_oracle_on_random_programs),
      cmocka_unit_test(test_peak__the_pipeline_matches_the_oracle_on_random_programs),
  };
  return cmocka_run_group_tests_name("peak", tests, NULL, NULL);
}
