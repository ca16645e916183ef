/* SPDX-License-Identifier: Apache-2.0 */
/* test_arena.c - a handle's memory given back in one call (lib/arena.c): small requests share
 * blocks, large ones get their own, all aligned and zeroed and apart; a final array moves in
 * whole; a handle's tables and texts grow in its own arena; and each handle of the Llama
 * prefill is held to its count of free calls, every block its constructor left alive given
 * back by its free: an analysis, a roofline, a report, CUDA, a sweep and a frontier one each
 * (an analysis was thirty, then nine). The test allocator fails the test on any
 * block not given back. */
#include <stdalign.h>
#include <stdint.h>

#include "support.h"

#include "arena.h"
#include "array.h"
#include "context.h"
#include "machine.h"
#include "analysis_data.h"
#include "program.h"
#include "strbuf.h"

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
  /* About 300 KB: a large request is carved from the shared block when it fits, else gets
   * one of its own; at most one block per large request beyond the shared ones (about 140 KB
   * of small requests in shared blocks of 2, 4, 8, 16, 32, 64 and 64 KiB: seven). */
  size_t blocks = vxp_arena__blocks(&arena);
  if (blocks < 5 || blocks > 7 + 4) fail_msg("%zu blocks", blocks);
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
  assert_int_equal(vxp_arena__blocks(&arena), 1); /* copied into the shared block */
  void *none = NULL;
  assert_true(vxp_arena__adopt(ctx, &arena, &none, 0, sizeof(uint64_t)));
  assert_null(none);
  /* A large table (here 40 KB of a 80 KB allocation) is taken over where it lies, its spare
   * capacity given back: one more block to free, no copy (its first bytes are where they
   * were, or where the allocator's shrinking realloc put them). */
  uint64_t *large = vxp_ctx__malloc(ctx, 10000 * sizeof(uint64_t));
  assert_non_null(large);
  for (size_t i = 0; i < 5000; i++)
    large[i] = i + 7;
  void *taken = large;
  assert_true(vxp_arena__adopt(ctx, &arena, &taken, 5000, sizeof(uint64_t)));
  for (size_t i = 0; i < 5000; i++)
    assert_int_equal(((uint64_t *)taken)[i], i + 7);
  assert_int_equal(vxp_arena__blocks(&arena), 2);
  /* Another arena's blocks and adopted tables move with vxp_arena__take. */
  vxp_arena other = {0};
  void *more = vxp_ctx__malloc(ctx, 5000 * sizeof(uint64_t));
  assert_non_null(more);
  assert_true(vxp_arena__adopt(ctx, &other, &more, 5000, sizeof(uint64_t)));
  assert_int_equal(vxp_arena__blocks(&other), 2);
  vxp_arena__take(&arena, &other);
  assert_int_equal(vxp_arena__blocks(&other), 0);
  assert_int_equal(vxp_arena__blocks(&arena), 4);
  vxp_arena__free(ctx, &arena); /* the test allocator checks the old storage went too */
  assert_int_equal(vxp_arena__blocks(&arena), 0);
  vxp_context_free(ctx);
}

/* A counting allocator over CMocka's: free calls, and blocks alive. */
static size_t frees, live;
static void *count_malloc(size_t size, void *ud) {
  (void)ud;
  void *p = test_malloc(size);
  if (p) live++;
  return p;
}
static void *count_realloc(void *ptr, size_t size, void *ud) {
  (void)ud;
  void *p = test_realloc(ptr, size);
  if (p && !ptr) live++;
  return p;
}
static void count_free(void *ptr, void *ud) {
  (void)ud;
  if (ptr) frees++, live--;
  test_free(ptr);
}

/* What a handle's constructor left alive, and what its _free gave back. */
typedef struct handle_count {
  size_t before; /* blocks alive before the constructor ran */
  size_t made;   /* blocks the constructor left alive: everything the handle owns */
} handle_count;

static handle_count made_start(void) { return (handle_count){live, 0}; }
static void made_end(handle_count *c) { c->made = live - c->before; }

/* The handle's _free made exactly `calls` free calls and gave back every block its
 * constructor left alive. A table or string the handle owns but its arena does not hold (one
 * allocated on its own and forgotten by the free) fails here, as a second block. */
#define FREED_IN(c, calls, freecall)                                                               \
  do {                                                                                             \
    size_t f0 = frees;                                                                             \
    freecall;                                                                                      \
    if (frees - f0 != (calls) || live != (c).before || (c).made != (calls))                        \
      fail_msg("%s: %zu free calls (held to %zu) for %zu blocks made, %zd left alive", #freecall,  \
               frees - f0, (size_t)(calls), (c).made, (ssize_t)live - (ssize_t)(c).before);        \
  } while (0)

typedef struct llama {
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
  vxp_machine *device, *host;
  vxp_analyze_options ao;
} llama;

static const vxp_allocator counting = {count_malloc, count_realloc, count_free, NULL};

static llama llama_open(void) {
  llama L;
  vxp_context_options opts = VXP_CONTEXT_OPTIONS_INIT;
  opts.allocator = &counting;
  assert_int_equal(vxp_context_new(&L.ctx, &opts), VXP_OK);
  assert_int_equal(vxp_source_load_file(&L.src, L.ctx, "examples/llama2/prefill.vx"), VXP_OK);
  assert_int_equal(vxp_program_parse(&L.prog, L.ctx, L.src), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&L.device, L.ctx, "a100-40"), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&L.host, L.ctx, "host-default"), VXP_OK);
  vxp_analyze_options ao = VXP_ANALYZE_OPTIONS_INIT;
  L.ao = ao;
  L.ao.machine = L.device;
  L.ao.host = L.host;
  return L;
}

static void llama_close(llama *L) {
  vxp_machine_free(L->host);
  vxp_machine_free(L->device);
  vxp_program_free(L->prog);
  vxp_source_free(L->src);
  vxp_context_free(L->ctx);
}

/* The analysis lives in its own arena (VXP_ARENA_HANDLE) with its sealed tables
 * (vxp_analysis__seal), its const table, the graph's shortest-path trees, the defines' and
 * the instances' names: one call on the Llama prefill (thirty before the tables were sealed,
 * then nine: the const table's three blocks, a tree's three arrays and their table, the
 * arena, the handle). */
static void test_arena__freeing_an_analysis_is_one_call(void **state) {
  (void)state;
  llama L = llama_open();
  vxp_analysis *an;
  handle_count c = made_start();
  assert_int_equal(vxp_analyze(&an, L.ctx, L.prog, &L.ao), VXP_OK);
  made_end(&c);
  assert_true(vxp_analysis_record_count(an) > 0);
  FREED_IN(c, 1, vxp_analysis_free(an));
  llama_close(&L);
}

/* A source is one block: the handle, its line index, its edit history, its label and its
 * text, sized before it is made (the lines counted first). Loading one and editing it are
 * each freed in one call (four before: the handle, the label, the text, the line index). */
static void test_arena__a_source_and_its_edit_are_one_call(void **state) {
  (void)state;
  llama L = llama_open();
  vxp_source *src;
  handle_count c = made_start();
  assert_int_equal(vxp_source_load_file(&src, L.ctx, "examples/llama2/prefill.vx"), VXP_OK);
  made_end(&c);
  assert_true(vxp_source_line_count(src) > 100);
  size_t len;
  const char *text = vxp_source_text(src, &len);
  assert_true(len > 1000 && strlen(text) == len);
  vxp_source *edited;
  handle_count ce = made_start();
  static const char insert[] = "\n\n// three\nlines\n"; /* four newlines */
  assert_int_equal(vxp_source_edit(&edited, src, 10, 20, insert, sizeof(insert) - 1), VXP_OK);
  made_end(&ce);
  assert_int_equal(vxp_source_line_count(edited),
                   vxp_source_line_count(src) + 4 -
                       (uint32_t)(memchr(text + 10, '\n', 10) != NULL));
  FREED_IN(ce, 1, vxp_source_free(edited)); /* the last made first: blocks alive are counted */
  FREED_IN(c, 1, vxp_source_free(src));
  llama_close(&L);
}

/* A program lives in its own arena with everything it owns but tree-sitter's tree (and the
 * S-expression cached on demand): its names' strings (one pool, not one block per name), its
 * declarations machine, and, once it is built, its tables (the model's and its own: a small
 * one copied in at its length, a large one taken over where it lies) and its diagnostics. The
 * Llama prefill's program: 2 free calls, the arena's block and its one table over 16 KiB
 * (100 before the names' pool, 25 while the tables kept their own storage). A reparse gives
 * back everything it made too. */
static void test_arena__a_program_is_its_arena(void **state) {
  (void)state;
  llama L = llama_open();
  vxp_program *prog;
  handle_count c = made_start();
  assert_int_equal(vxp_program_parse(&prog, L.ctx, L.src), VXP_OK);
  made_end(&c);
  assert_true(prog->model.functions.len > 0 && prog->model.declarations);
  assert_int_equal(vxp_arena__blocks(&prog->arena), 2);

  size_t len;
  const char *text = vxp_source_text(L.src, &len);
  const char *at = strstr(text, "fn main");
  assert_non_null(at);
  vxp_source *edited;
  assert_int_equal(vxp_source_edit(&edited, L.src, (uint32_t)(at - text), (uint32_t)(at - text),
                                   "// edited\n", 10),
                   VXP_OK);
  vxp_program *again;
  handle_count ce = made_start();
  assert_int_equal(vxp_program_reparse(&again, L.ctx, prog, edited), VXP_OK);
  made_end(&ce);
  assert_int_equal(again->model.functions.len, prog->model.functions.len);
  size_t blocks = vxp_arena__blocks(&again->arena);
  if (blocks > 3) fail_msg("the reparsed program is %zu blocks", blocks);
  FREED_IN(ce, blocks, vxp_program_free(again));
  vxp_source_free(edited);
  FREED_IN(c, 2, vxp_program_free(prog));
  llama_close(&L);
}

/* A machine lives in its own arena with its label, its spaces, topologies and lowerings and
 * every name and list in them, a built-in's own source, and its diagnostics once loaded: one
 * call per block of its arena (46 calls for the built-in a100-40 before the arena; one while
 * every arena started with 64 KiB, three now that the blocks double from 2 KiB). */
static void test_arena__a_machine_is_one_call(void **state) {
  (void)state;
  llama L = llama_open();
  vxp_machine *m;
  handle_count c = made_start();
  assert_int_equal(vxp_machine_builtin(&m, L.ctx, "a100-40"), VXP_OK);
  made_end(&c);
  assert_true(m->spaces.len > 1 && m->topologies.len > 0);
  FREED_IN(c, 3, vxp_machine_free(m)); /* 26.7 KB in blocks of 2, 8 and 16 KiB */

  static const char text[] =
      "Memory HBM { capacity: 4 GiB }\n"
      "Memory HBM { capacity: 8 GiB }\n" /* E6012: declared twice */
      "Memory S { within: Memory::HBM, capacity: 64 KiB, granule: 1 KiB }\n"
      "Topology T { memory: Memory::HBM, visible: [Memory::HBM, Memory::S], dtypes: [f32, f16],\n"
      "  transfer Memory::HBM -> Memory::S : 10 }\n";
  vxp_source *src;
  assert_int_equal(vxp_source_new(&src, L.ctx, "two.vx", text, sizeof(text) - 1), VXP_OK);
  c = made_start();
  assert_int_equal(vxp_machine_load(&m, L.ctx, src), VXP_OK);
  made_end(&c);
  assert_true(vxp_machine_diagnostic_count(m) > 0);
  assert_non_null(vxp_diagnostic_message(vxp_machine_diagnostic(m, 0)));
  assert_int_equal(m->topologies.len, 1);
  assert_int_equal(m->topologies.items[0].visible.len, 2);
  assert_string_equal(m->topologies.items[0].edges.items[0].to, "S");
  FREED_IN(c, 2, vxp_machine_free(m)); /* 2 and 4 KiB */
  vxp_source_free(src);
  llama_close(&L);
}

/* Diagnostics own their message, notes and capacity facts; an analysis deep-copies its own
 * into its arena when it is sealed, and a refused CUDA generation moves its handle and its
 * diagnostics into an arena of their own: still one call each (BATCH=9 does not fit: the
 * analysis has an E6010 with notes and facts, which the refusal copies; before, the analysis
 * made a free call per message, note and space name, the refusal three for one diagnostic). */
static void test_arena__an_analysis_and_a_refusal_with_diagnostics_are_one_call(void **state) {
  (void)state;
  llama L = llama_open();
  vxp_const_override define = {"BATCH", 9};
  L.ao.overrides = &define;
  L.ao.override_count = 1;
  vxp_analysis *an;
  handle_count c = made_start();
  assert_int_equal(vxp_analyze(&an, L.ctx, L.prog, &L.ao), VXP_OK);
  made_end(&c);
  assert_true(vxp_analysis_error_count(an) > 0);
  const vxp_diagnostic *d = NULL;
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(an) && !d; i++)
    if (vxp_diagnostic_note_count(vxp_analysis_diagnostic(an, i)) > 0)
      d = vxp_analysis_diagnostic(an, i);
  assert_non_null(d);
  assert_non_null(vxp_diagnostic_message(vxp_diagnostic_note(d, 0)));

  vxp_cuda *cu;
  handle_count cc = made_start();
  assert_int_equal(vxp_cuda_generate(&cu, L.ctx, an), VXP_OK);
  made_end(&cc);
  assert_null(vxp_cuda_text(cu, NULL));
  assert_true(vxp_cuda_diagnostic_count(cu) >= 2);
  assert_string_equal(vxp_diagnostic_code(vxp_cuda_diagnostic(cu, 0)),
                      vxp_diagnostic_code(vxp_analysis_diagnostic(an, 0)));
  FREED_IN(cc, 2, vxp_cuda_free(cu)); /* 2 and 4 KiB */
  FREED_IN(c, 1, vxp_analysis_free(an));
  llama_close(&L);
}

/* A roofline, a sweep and a frontier live in their own arena with all they own
 * (VXP_ARENA_HANDLE: tables grown there, reasons and strings allocated there), a report and
 * generated CUDA behind their text: each is one block on the Llama prefill, so each free is
 * one call (before: a roofline five, a report and CUDA two, a sweep 29 then two, a frontier
 * 22 then two). */
static void test_arena__a_roofline_a_report_cuda_a_sweep_and_a_frontier_are_one_call(void **state) {
  (void)state;
  llama L = llama_open();
  vxp_analysis *an;
  assert_int_equal(vxp_analyze(&an, L.ctx, L.prog, &L.ao), VXP_OK);

  vxp_roofline *rf;
  handle_count c = made_start();
  assert_int_equal(vxp_roofline_new(&rf, L.ctx, an, "main"), VXP_OK);
  made_end(&c);
  assert_true(vxp_roofline_region_count(rf) > 0);
  assert_true(vxp_roofline_space_count(rf) > 0);
  assert_true(vxp_roofline_buffer_count(rf) > 0);
  assert_non_null(vxp_roofline_space_name(rf, 0));
  FREED_IN(c, 3, vxp_roofline_free(rf)); /* 2, 4 and 8 KiB */

  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.format = VXP_REPORT_JSON;
  vxp_report *rep;
  c = made_start();
  assert_int_equal(vxp_report_roofline(&rep, L.ctx, an, &ro), VXP_OK);
  made_end(&c);
  size_t len;
  const char *text = vxp_report_text(rep, &len);
  assert_true(len > 100 && strlen(text) == len && text[0] == '{');
  FREED_IN(c, 1, vxp_report_free(rep));

  vxp_cuda *cu;
  c = made_start();
  assert_int_equal(vxp_cuda_generate(&cu, L.ctx, an), VXP_OK);
  made_end(&c);
  assert_int_equal(vxp_cuda_diagnostic_count(cu), 0);
  text = vxp_cuda_text(cu, &len);
  assert_true(len > 100 && strlen(text) == len);
  FREED_IN(c, 1, vxp_cuda_free(cu));
  vxp_analysis_free(an);

  vxp_const_override define = {"LAYERS", 2};
  L.ao.overrides = &define;
  L.ao.override_count = 1;
  vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
  so.name = "BATCH";
  so.lo = 1;
  so.hi = 64;
  vxp_sweep *sw;
  c = made_start();
  assert_int_equal(vxp_sweep_run(&sw, L.ctx, L.prog, &L.ao, &so), VXP_OK);
  made_end(&c);
  assert_true(vxp_sweep_point_count(sw) >= 3);
  const vxp_sweep_point *p = vxp_sweep_point_at(sw, 0);
  assert_non_null(p);
  assert_non_null(vxp_sweep_point_function(p));
  assert_true(strlen(vxp_sweep_reason(sw)) > 100);
  FREED_IN(c, 1, vxp_sweep_free(sw));

  vxp_frontier_options fo;
  assert_int_equal(vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION), VXP_OK);
  fo.name = "BATCH";
  fo.lo = 1;
  fo.hi = 4;
  fo.tokens_const = "TOKENS";
  vxp_frontier *fr;
  c = made_start();
  assert_int_equal(vxp_frontier_run(&fr, L.ctx, L.prog, &L.ao, &fo), VXP_OK);
  made_end(&c);
  assert_int_equal(vxp_frontier_point_count(fr), 4);
  assert_non_null(vxp_frontier_function(fr));
  FREED_IN(c, 1, vxp_frontier_free(fr));
  llama_close(&L);
}

/* A table of a handle grows in the handle's arena: the latest request grows in place while
 * its block has room, a large one (a block of its own) by realloc, else it moves (its old
 * place left to the arena), its contents kept; a vxp_sb bound to the arena grows there too;
 * the handle, its table and its text go in one vxp_arena__free_handle. */
typedef struct toy_handle {
  vxp_context *ctx;
  Array(uint64_t) values;
  vxp_sb text;
  vxp_arena arena;
} toy_handle;

static void test_arena__a_handle_and_its_growing_tables_are_one_arena(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  toy_handle *h = VXP_ARENA_HANDLE(ctx, toy_handle, arena);
  assert_non_null(h);
  h->ctx = ctx;
  h->text = vxp_sb__in_arena(&h->arena);
  for (uint64_t i = 0; i < 30000; i++) {
    assert_true(arena_push(ctx, &h->arena, &h->values, i * 3));
    if (i % 100 == 0) vxp_sb__printf(ctx, &h->text, "%llu,", (unsigned long long)i);
  }
  assert_false(h->text.failed);
  for (uint64_t i = 0; i < 30000; i++)
    assert_int_equal(h->values.items[i], i * 3);
  assert_true(strncmp(vxp_sb__text(&h->text), "0,100,200,", 10) == 0);
  assert_true(h->values.cap >= 30000 && h->values.cap < 60000);
  /* Past 16 KiB the table grew by realloc of its own block: no old copies of 32, 64 and
   * 128 KiB left behind, so the arena is its shared blocks (2 to 32 KiB, doubling), one table
   * block, and its first old copy (16 KiB, carved from a shared block). */
  if (vxp_arena__blocks(&h->arena) > 6) fail_msg("%zu blocks", vxp_arena__blocks(&h->arena));
  size_t held = vxp_arena__held(&h->arena); /* the table, the text, 62 KiB of blocks */
  if (held > h->values.cap * sizeof(uint64_t) + 64 * 1024 + 4096) fail_msg("%zu bytes held", held);
  vxp_sb__free(ctx, &h->text); /* only empties it: the arena keeps the bytes */
  assert_ptr_equal(h->text.arena, &h->arena);
  vxp_arena__free_handle(ctx, &h->arena); /* the test allocator sees every block back */
  vxp_context_free(ctx);
}

/* An arena's first block is sized to its handle: 2 KiB doubling for one that cannot tell
 * (a machine, a roofline), about six times its text for a program, about its program's for an
 * analysis. Every one of them held 64 KiB or more when the first block was always 64 KiB: a
 * small program, its analysis and the host model now hold a few KiB, and the Llama prefill's
 * program and analysis stay two blocks and one. */
static void test_arena__a_small_handle_holds_a_few_kib(void **state) {
  (void)state;
  llama L = llama_open();
  assert_true(vxp_arena__held(L.host->arena) <= 4096);
  static const char text[] = "fn main() -> i32 {\n"
                             "  let t = transfer(Tensor<f32, [4]>::uninit(), Memory::CPU_DRAM);\n"
                             "  return 0;\n"
                             "}\n";
  vxp_source *src;
  assert_int_equal(vxp_source_new(&src, L.ctx, "small.vx", text, sizeof(text) - 1), VXP_OK);
  vxp_program *prog;
  assert_int_equal(vxp_program_parse(&prog, L.ctx, src), VXP_OK);
  vxp_analysis *an;
  assert_int_equal(vxp_analyze(&an, L.ctx, prog, &L.ao), VXP_OK);
  size_t p = vxp_arena__held(&prog->arena), a = vxp_arena__held(&an->arena);
  if (p > 8192 || a > 16384) fail_msg("a small program holds %zu bytes, its analysis %zu", p, a);
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  assert_int_equal(vxp_arena__blocks(&L.prog->arena), 2);
  assert_int_equal(vxp_analyze(&an, L.ctx, L.prog, &L.ao), VXP_OK);
  assert_int_equal(vxp_arena__blocks(&an->arena), 1);
  vxp_analysis_free(an);
  llama_close(&L);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_arena__blocks_small_and_large_are_aligned_zeroed_and_apart),
      cmocka_unit_test(test_arena__an_array_moves_in_whole),
      cmocka_unit_test(test_arena__a_handle_and_its_growing_tables_are_one_arena),
      cmocka_unit_test(test_arena__a_source_and_its_edit_are_one_call),
      cmocka_unit_test(test_arena__a_machine_is_one_call),
      cmocka_unit_test(test_arena__a_program_is_its_arena),
      cmocka_unit_test(test_arena__a_small_handle_holds_a_few_kib),
      cmocka_unit_test(test_arena__freeing_an_analysis_is_one_call),
      cmocka_unit_test(test_arena__an_analysis_and_a_refusal_with_diagnostics_are_one_call),
      cmocka_unit_test(test_arena__a_roofline_a_report_cuda_a_sweep_and_a_frontier_are_one_call),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
