/* SPDX-License-Identifier: Apache-2.0 */
/* test_peak.c - the linear sweep (lib/peak.c) against the quadratic oracle, on the
 * worked shapes of vxc's scope matrix and on random traces. */
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
  assert_int_equal(vxp_peak__sweep(ctx, b->trace, b->len, b->tiles, b->tiles_len, spaces,
                                   r->peaks, r->live, r->held, b->calls),
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
      if (*p == 't') tile(b, 0, MIB3, false);
      else if (*p == '(') open_(b);
      else close_(b);
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
      if (res->peaks[s].peak != peaks[s] || (res->peaks[s].any && res->peaks[s].tiles_at_peak != counts[s]))
        fail_msg("program %d space %u: sweep %llu/%u oracle %llu/%u", p, s,
                 (unsigned long long)res->peaks[s].peak, res->peaks[s].tiles_at_peak,
                 (unsigned long long)peaks[s], counts[s]);
    }
    free(res);
    free(b);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_peak__matrix_of_scope_shapes),
      cmocka_unit_test(test_peak__never_read_tile_counts_only_at_its_placement),
      cmocka_unit_test(test_peak__held_bytes_at_a_call_exclude_closed_blocks),
      cmocka_unit_test(test_peak__unbalanced_trace_is_rejected),
      cmocka_unit_test(test_peak__matches_the_quadratic_oracle_on_random_programs),
  };
  return cmocka_run_group_tests_name("peak", tests, NULL, NULL);
}
