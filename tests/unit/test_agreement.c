/* SPDX-License-Identifier: Apache-2.0 */
/* test_agreement.c - one program, one set of facts: on randomly generated programs, the
 * analysis' decided facts (lib/analysis.h), check's records (what the report, explain and plot
 * read: bytes and runs per tile) and the roofline all agree with the trip counts and
 * `if comptime` arms the generator knows, including bounds and conditions that go negative
 * (`for i in (K - 3)..4`, `if comptime K - 3`), where a second, unsigned fold once disagreed.
 *
 * Not covered here: CUDA generation, which still folds on its own (docs/design.md §3). */
#include <stdarg.h>

#include "support.h"

#include "analysis.h"
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
  long k;                    /* the value of const K */
  uint64_t written;          /* bytes the spawn region writes (the roofline's answer) */
  uint64_t allocated;        /* bytes placed over the run (check's allocated_bytes) */
  uint64_t tiles;            /* records expected */
  uint64_t runs[256];        /* expected runs of each tile, in placement order */
  uint64_t trips[256];       /* expected trip count of each reached `for`, in program order */
  size_t loops;
  size_t negative_starts;     /* reached loops whose start folds negative */
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

static void test_agreement__check_roofline_and_facts_agree_on_random_programs(void **state) {
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
    if (recs != g.tiles) fail_msg("program %d: %zu records, %llu expected:\n%s", p, recs,
                                  (unsigned long long)g.tiles, g.text);
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
      cmocka_unit_test(test_agreement__check_roofline_and_facts_agree_on_random_programs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
