/* SPDX-License-Identifier: Apache-2.0 */
/* test_arena.c - a handle's memory given back in one call (lib/arena.c): small requests share
 * blocks, large ones get their own, all aligned and zeroed and apart; a final array moves in
 * whole; and an analysis, whose tables are sealed into its arena, is freed in a handful of
 * calls (it was thirty for the Llama prefill, one per table); a roofline, a report and CUDA in one
 * call each (five and two on the Llama prefill before); a sweep and a frontier in two. The test
 * allocator fails the test on any block not given back. */
#include <stdalign.h>
#include <stdint.h>

#include "support.h"

#include "arena.h"
#include "context.h"

static void test_arena__blocks_small_and_large_are_aligned_zeroed_and_apart(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_arena arena = {0};
  unsigned char *p[200];
  size_t sizes[200];
  for (size_t i = 0; i < 200; i++) {
    sizes[i] = i % 50 == 49 ? 40000 + i : 1 + i * 7; /* every 50th is past a quarter block */
    p[i] = vxp_arena__alloc(ctx, &arena, sizes[i]);
    assert_non_null(p[i]);
    assert_int_equal((uintptr_t)p[i] % alignof(max_align_t), 0);
    for (size_t k = 0; k < sizes[i]; k++)
      assert_int_equal(p[i][k], 0);
    memset(p[i], (int)(i & 0xff), sizes[i]);
  }
  /* Nothing overlaps: each block still holds its own byte. */
  for (size_t i = 0; i < 200; i++)
    for (size_t k = 0; k < sizes[i]; k++)
      assert_int_equal(p[i][k], (unsigned char)(i & 0xff));
  /* About 300 KB in 64 KiB blocks: a large request is carved from the shared block when it
   * fits, else gets one of its own; at most one block per large request beyond the shared
   * ones (about 140 KB of small requests: three). */
  size_t blocks = vxp_arena__blocks(&arena);
  if (blocks < 5 || blocks > 3 + 4) fail_msg("%zu blocks", blocks);
  assert_null(vxp_arena__alloc(ctx, &arena, SIZE_MAX - 8));
  vxp_arena__free(ctx, &arena);
  assert_int_equal(vxp_arena__blocks(&arena), 0);
  vxp_arena__free(ctx, &arena); /* an empty arena frees nothing */
  vxp_context_free(ctx);
}

static void test_arena__an_array_moves_in_whole(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_arena arena = {0};
  uint64_t *items = vxp_ctx__malloc(ctx, 1000 * sizeof(uint64_t));
  assert_non_null(items);
  for (size_t i = 0; i < 1000; i++)
    items[i] = i * i;
  void *moved = items;
  assert_true(vxp_arena__adopt(ctx, &arena, &moved, 1000, sizeof(uint64_t)));
  for (size_t i = 0; i < 1000; i++)
    assert_int_equal(((uint64_t *)moved)[i], i * i);
  void *none = NULL;
  assert_true(vxp_arena__adopt(ctx, &arena, &none, 0, sizeof(uint64_t)));
  assert_null(none);
  vxp_arena__free(ctx, &arena); /* the test allocator checks the old storage went too */
  vxp_context_free(ctx);
}

/* A counting allocator over CMocka's. */
static size_t frees;
static void *count_malloc(size_t size, void *ud) {
  (void)ud;
  return test_malloc(size);
}
static void *count_realloc(void *ptr, size_t size, void *ud) {
  (void)ud;
  return test_realloc(ptr, size);
}
static void count_free(void *ptr, void *ud) {
  (void)ud;
  if (ptr) frees++;
  test_free(ptr);
}

static void test_arena__freeing_an_analysis_is_a_handful_of_calls(void **state) {
  (void)state;
  const vxp_allocator counting = {count_malloc, count_realloc, count_free, NULL};
  vxp_context_options opts = VXP_CONTEXT_OPTIONS_INIT;
  opts.allocator = &counting;
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
  vxp_machine *device, *host;
  vxp_analysis *an;
  assert_int_equal(vxp_context_new(&ctx, &opts), VXP_OK);
  assert_int_equal(vxp_source_load_file(&src, ctx, "examples/llama2/prefill.vx"), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&device, ctx, "a100-40"), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&host, ctx, "host-default"), VXP_OK);
  vxp_analyze_options ao = VXP_ANALYZE_OPTIONS_INIT;
  ao.machine = device;
  ao.host = host;
  assert_int_equal(vxp_analyze(&an, ctx, prog, &ao), VXP_OK);
  assert_true(vxp_analysis_record_count(an) > 0);
  size_t before = frees;
  vxp_analysis_free(an);
  size_t calls = frees - before;
  /* The arena (one block here), the handle, and what is not sealed: the const table (3),
   * the graph's shortest-path trees and their pointer table, the program's own (empty)
   * machine. Thirty before the tables were sealed. */
  if (calls > 10) fail_msg("vxp_analysis_free made %zu free calls", calls);
  vxp_machine_free(host);
  vxp_machine_free(device);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

/* A roofline, a report and generated CUDA are each one block: the handle packed with its
 * tables (the roofline: spaces, buffers, streamed accesses, three reasons; five frees here
 * before), or living behind its text (a report, CUDA without diagnostics: two before). Each
 * free is one call. */
static void test_arena__a_roofline_a_report_and_cuda_are_freed_in_one_call(void **state) {
  (void)state;
  const vxp_allocator counting = {count_malloc, count_realloc, count_free, NULL};
  vxp_context_options opts = VXP_CONTEXT_OPTIONS_INIT;
  opts.allocator = &counting;
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
  vxp_machine *device, *host;
  vxp_analysis *an;
  assert_int_equal(vxp_context_new(&ctx, &opts), VXP_OK);
  assert_int_equal(vxp_source_load_file(&src, ctx, "examples/llama2/prefill.vx"), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&device, ctx, "a100-40"), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&host, ctx, "host-default"), VXP_OK);
  vxp_analyze_options ao = VXP_ANALYZE_OPTIONS_INIT;
  ao.machine = device;
  ao.host = host;
  assert_int_equal(vxp_analyze(&an, ctx, prog, &ao), VXP_OK);

  vxp_roofline *rf;
  assert_int_equal(vxp_roofline_new(&rf, ctx, an, "main"), VXP_OK);
  assert_true(vxp_roofline_region_count(rf) > 0);
  assert_true(vxp_roofline_space_count(rf) > 0);
  assert_non_null(vxp_roofline_space_name(rf, 0));
  size_t before = frees;
  vxp_roofline_free(rf);
  if (frees - before != 1) fail_msg("vxp_roofline_free made %zu free calls", frees - before);

  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.format = VXP_REPORT_JSON;
  vxp_report *rep;
  assert_int_equal(vxp_report_roofline(&rep, ctx, an, &ro), VXP_OK);
  size_t len;
  const char *text = vxp_report_text(rep, &len);
  assert_true(len > 100 && strlen(text) == len && text[0] == '{');
  before = frees;
  vxp_report_free(rep);
  if (frees - before != 1) fail_msg("vxp_report_free made %zu free calls", frees - before);

  vxp_cuda *cu;
  assert_int_equal(vxp_cuda_generate(&cu, ctx, an), VXP_OK);
  assert_int_equal(vxp_cuda_diagnostic_count(cu), 0);
  text = vxp_cuda_text(cu, &len);
  assert_true(len > 100 && strlen(text) == len);
  before = frees;
  vxp_cuda_free(cu);
  if (frees - before != 1) fail_msg("vxp_cuda_free made %zu free calls", frees - before);

  vxp_analysis_free(an);
  vxp_machine_free(host);
  vxp_machine_free(device);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

/* A sweep and a frontier keep their strings (each point's function, space and cause, the
 * question's copies) in their arena and are packed with their points table when made: each
 * is freed in at most two calls, one per block (3 per point + 10 before, on this sweep). */
static void test_arena__a_sweep_and_a_frontier_are_freed_in_two_calls(void **state) {
  (void)state;
  const vxp_allocator counting = {count_malloc, count_realloc, count_free, NULL};
  vxp_context_options opts = VXP_CONTEXT_OPTIONS_INIT;
  opts.allocator = &counting;
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
  vxp_machine *device, *host;
  assert_int_equal(vxp_context_new(&ctx, &opts), VXP_OK);
  assert_int_equal(vxp_source_load_file(&src, ctx, "examples/llama2/prefill.vx"), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&device, ctx, "a100-40"), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&host, ctx, "host-default"), VXP_OK);
  vxp_const_override define = {"LAYERS", 2};
  vxp_analyze_options ao = VXP_ANALYZE_OPTIONS_INIT;
  ao.machine = device;
  ao.host = host;
  ao.overrides = &define;
  ao.override_count = 1;

  vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
  so.name = "BATCH";
  so.lo = 1;
  so.hi = 64;
  vxp_sweep *sw;
  assert_int_equal(vxp_sweep_run(&sw, ctx, prog, &ao, &so), VXP_OK);
  assert_true(vxp_sweep_point_count(sw) >= 3);
  const vxp_sweep_point *p = vxp_sweep_point_at(sw, 0);
  assert_non_null(p);
  assert_non_null(vxp_sweep_point_function(p));
  size_t before = frees;
  vxp_sweep_free(sw);
  if (frees - before > 2) fail_msg("vxp_sweep_free made %zu free calls", frees - before);

  vxp_frontier_options fo;
  assert_int_equal(vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION), VXP_OK);
  fo.name = "BATCH";
  fo.lo = 1;
  fo.hi = 4;
  fo.tokens_const = "TOKENS";
  vxp_frontier *fr;
  assert_int_equal(vxp_frontier_run(&fr, ctx, prog, &ao, &fo), VXP_OK);
  assert_int_equal(vxp_frontier_point_count(fr), 4);
  before = frees;
  vxp_frontier_free(fr);
  if (frees - before > 2) fail_msg("vxp_frontier_free made %zu free calls", frees - before);

  vxp_machine_free(host);
  vxp_machine_free(device);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_arena__blocks_small_and_large_are_aligned_zeroed_and_apart),
      cmocka_unit_test(test_arena__an_array_moves_in_whole),
      cmocka_unit_test(test_arena__freeing_an_analysis_is_a_handful_of_calls),
      cmocka_unit_test(test_arena__a_roofline_a_report_and_cuda_are_freed_in_one_call),
      cmocka_unit_test(test_arena__a_sweep_and_a_frontier_are_freed_in_two_calls),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
