/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_misuse.c - libFuzzer harness for the handle checks (lib/tag.h): the input is a script
 * of calls to the public API whose handle arguments are drawn from a table holding one handle
 * of every kind, some of them freed on the way. Each call whose arguments are all of the kind
 * it takes and live must not return VXP_EMISUSE; each with one of another kind, or freed,
 * must return VXP_EMISUSE (or, for an accessor, its nothing value) and not read the wrong
 * struct. A broken rule aborts (a finding).
 *
 * The handles live in a context whose allocator keeps freed blocks until the input ends, so
 * that a freed handle's memory still holds its cleared tag (the check's documented reach: a
 * block the allocator has reused is out of it, and ASan would report reading it). Only the
 * handles nothing else borrows (sweeps, rooflines, frontiers, reports, CUDA programs) are
 * freed by the script; freeing a parent under a live child is a mistake the tags do not
 * claim to catch.
 *
 * Script: byte 0 of each step picks the call, the next bytes pick the table slot of each
 * handle argument (a slot's kind is slot % KINDS). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vxpeak.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { K_CTX, K_SRC, K_PROG, K_MACHINE, K_AN, K_SWEEP, K_ROOF, K_FRONT, K_REP, K_CUDA, KINDS };

static const char program[] = "Memory CPU_DRAM {}\n"
                              "Memory HBM { within: Memory::CPU_DRAM, capacity: 4 MiB, bandwidth: "
                              "1555 GB/s, managed: cached }\n"
                              "Topology Dev { arch: nvptx64, memory: Memory::HBM, visible: "
                              "[Memory::HBM],\n"
                              "  transfer Memory::CPU_DRAM -> Memory::HBM : 31.5 GB/s }\n"
                              "const N: i64 = 4;\n"
                              "fn main() -> i32 {\n"
                              "  let w = transfer(Tensor<f32, [N, 512]>::uninit(), Memory::HBM);\n"
                              "  spawn on(Topology::Dev) { w[0][0] = w[0][0] + w[1][0]; }\n"
                              "  return 0;\n"
                              "}\n";

/* ------------------------------------------------------------------ a keeping allocator */

typedef struct kept {
  void **blocks;
  size_t count, cap;
} kept;

static void *kept_malloc(size_t size, void *ud) {
  (void)ud;
  return malloc(size);
}
static void *kept_realloc(void *ptr, size_t size, void *ud) {
  (void)ud;
  return realloc(ptr, size);
}
static void kept_free(void *ptr, void *ud) {
  kept *k = ud;
  if (!ptr) return;
  if (k->count == k->cap) {
    size_t cap = k->cap ? k->cap * 2 : 256;
    void **grown = realloc(k->blocks, cap * sizeof(*grown));
    if (!grown) abort();
    k->blocks = grown;
    k->cap = cap;
  }
  k->blocks[k->count++] = ptr;
}

/* ------------------------------------------------------------------ the table */

typedef struct slot {
  void *h;
  int kind;
  int live;
} slot;

static slot table[KINDS];

static void die(const char *what, int step) {
  fprintf(stderr, "fuzz_misuse: step %d: %s\n", step, what);
  abort();
}

static int fine(const slot *s, int kind) { return s->kind == kind && s->live; }

/* The slot `byte` names, and whether it holds a live handle of `kind`. */
static slot *pick(uint8_t byte) { return &table[byte % KINDS]; }

static void make_table(vxp_context *ctx) {
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  vxp_machine *m = NULL;
  vxp_analysis *an = NULL;
  vxp_sweep *sw = NULL;
  vxp_roofline *rf = NULL;
  vxp_frontier *fr = NULL;
  vxp_report *rep = NULL;
  vxp_cuda *cu = NULL;
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
  so.name = "N";
  so.lo = 1;
  so.hi = 4;
  vxp_frontier_options fo;
  if (vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION) != VXP_OK) abort();
  fo.name = "N";
  fo.lo = 1;
  fo.hi = 2;
  if (vxp_source_new(&src, ctx, "m.vx", program, strlen(program)) != VXP_OK ||
      vxp_program_parse(&prog, ctx, src) != VXP_OK ||
      vxp_machine_builtin(&m, ctx, "host-default") != VXP_OK ||
      vxp_analyze(&an, ctx, prog, NULL) != VXP_OK ||
      vxp_sweep_run(&sw, ctx, prog, &opts, &so) != VXP_OK ||
      vxp_roofline_new(&rf, ctx, an, "main") != VXP_OK ||
      vxp_frontier_run(&fr, ctx, prog, &opts, &fo) != VXP_OK ||
      vxp_report_check(&rep, ctx, an, NULL) != VXP_OK || vxp_cuda_generate(&cu, ctx, an) != VXP_OK)
    abort();
  void *all[KINDS] = {ctx, src, prog, m, an, sw, rf, fr, rep, cu};
  for (int k = 0; k < KINDS; k++)
    table[k] = (slot){all[k], k, 1};
}

static void free_table(void) {
  /* Children first; a freed one again is the check's own business (ignored). */
  vxp_cuda_free(table[K_CUDA].h);
  vxp_report_free(table[K_REP].h);
  vxp_frontier_free(table[K_FRONT].h);
  vxp_roofline_free(table[K_ROOF].h);
  vxp_sweep_free(table[K_SWEEP].h);
  vxp_analysis_free(table[K_AN].h);
  vxp_machine_free(table[K_MACHINE].h);
  vxp_program_free(table[K_PROG].h);
  vxp_source_free(table[K_SRC].h);
  vxp_context_free(table[K_CTX].h);
}

/* A code-returning call: VXP_EMISUSE exactly when one of its handles is bad. */
static void expect_rc(int rc, int all_fine, int step) {
  if (!all_fine && rc != VXP_EMISUSE) die("a bad handle was not refused", step);
  if (all_fine && rc == VXP_EMISUSE) die("a good handle was refused", step);
}

static void expect_nothing(int is_nothing, int all_fine, int step) {
  if (!all_fine && !is_nothing) die("an accessor answered for a bad handle", step);
}

/* One step of the script at `p` (at least 4 bytes). */
static void step(const uint8_t *p, int n) {
  slot *a = pick(p[1]), *b = pick(p[2]), *c = pick(p[3]);
  vxp_context *good_ctx = table[K_CTX].h;
  switch (p[0] % 16) {
  case 0: { /* vxp_program_parse(ctx=a, src=b) */
    vxp_program *out = NULL;
    int ok = fine(a, K_CTX) && fine(b, K_SRC);
    expect_rc(vxp_program_parse(&out, a->h, b->h), ok, n);
    vxp_program_free(out);
    break;
  }
  case 1: { /* vxp_analyze(ctx, prog=a, machine=b, host=c) */
    vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
    opts.machine = b->h;
    opts.host = c->h;
    vxp_analysis *out = NULL;
    int ok = fine(a, K_PROG) && fine(b, K_MACHINE) && fine(c, K_MACHINE);
    int rc = vxp_analyze(&out, good_ctx, a->h, &opts);
    expect_rc(rc, ok, n);
    vxp_analysis_free(out);
    break;
  }
  case 2: { /* vxp_roofline_new(ctx, an=a) */
    vxp_roofline *out = NULL;
    expect_rc(vxp_roofline_new(&out, good_ctx, a->h, "main"), fine(a, K_AN), n);
    vxp_roofline_free(out);
    break;
  }
  case 3: { /* vxp_report_check(ctx=b, an=a) */
    vxp_report *out = NULL;
    expect_rc(vxp_report_check(&out, b->h, a->h, NULL), fine(a, K_AN) && fine(b, K_CTX), n);
    vxp_report_free(out);
    break;
  }
  case 4: { /* vxp_report_frontier(ctx, frontier=a) */
    vxp_report *out = NULL;
    expect_rc(vxp_report_frontier(&out, good_ctx, a->h, NULL), fine(a, K_FRONT), n);
    vxp_report_free(out);
    break;
  }
  case 5: { /* vxp_report_sweep(ctx, [a, b]) */
    const vxp_sweep *list[2] = {a->h, b->h};
    vxp_report *out = NULL;
    int rc = vxp_report_sweep(&out, good_ctx, list, NULL, 2, NULL);
    expect_rc(rc, fine(a, K_SWEEP) && fine(b, K_SWEEP), n);
    vxp_report_free(out);
    break;
  }
  case 6: { /* vxp_source_edit(src=a) */
    vxp_source *out = NULL;
    expect_rc(vxp_source_edit(&out, a->h, 0, 0, "x", 1), fine(a, K_SRC), n);
    vxp_source_free(out);
    break;
  }
  case 7: expect_nothing(vxp_analysis_record_count(a->h) == 0, fine(a, K_AN), n); break;
  case 8: expect_nothing(vxp_source_label(a->h) == NULL, fine(a, K_SRC), n); break;
  case 9: expect_nothing(vxp_machine_label(a->h) == NULL, fine(a, K_MACHINE), n); break;
  case 10: expect_nothing(vxp_sweep_point_count(a->h) == 0, fine(a, K_SWEEP), n); break;
  case 11: expect_nothing(vxp_frontier_point_count(a->h) == 0, fine(a, K_FRONT), n); break;
  case 12: {
    size_t len = 0;
    expect_nothing(vxp_report_text(a->h, &len) == NULL, fine(a, K_REP), n);
    expect_nothing(vxp_cuda_diagnostic_count(b->h) == 0 && !vxp_cuda_text(b->h, &len),
                   fine(b, K_CUDA), n);
    break;
  }
  case 13: expect_nothing(vxp_roofline_function(a->h) == NULL, fine(a, K_ROOF), n); break;
  case 14:
    expect_nothing(vxp_program_diagnostic_count(a->h) == 0 && !vxp_program_source(a->h),
                   fine(a, K_PROG), n);
    break;
  default: /* free a leaf handle, by the free of the kind `b` names: a no-op unless they agree */
    switch (a->kind) {
    case K_SWEEP: vxp_sweep_free(b->kind == K_SWEEP ? a->h : b->h); break;
    case K_ROOF: vxp_roofline_free(b->kind == K_ROOF ? a->h : b->h); break;
    case K_FRONT: vxp_frontier_free(b->kind == K_FRONT ? a->h : b->h); break;
    case K_REP: vxp_report_free(b->kind == K_REP ? a->h : b->h); break;
    case K_CUDA: vxp_cuda_free(b->kind == K_CUDA ? a->h : b->h); break;
    default: return; /* not a leaf: keep it */
    }
    /* A free of the wrong kind is ignored; only the matching one frees. */
    if (b->kind == a->kind) a->live = 0;
    break;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const vxp_allocator base = {kept_malloc, kept_realloc, kept_free, NULL};
  kept k = {0};
  vxp_allocator alloc = base;
  alloc.ud = &k;
  vxp_context_options opts = VXP_CONTEXT_OPTIONS_INIT;
  opts.allocator = &alloc;
  vxp_context *ctx = NULL;
  if (vxp_context_new(&ctx, &opts) != VXP_OK) abort();
  make_table(ctx);
  int n = 0;
  for (size_t i = 0; i + 4 <= size && n < 64; i += 4)
    step(data + i, n++);
  free_table();
  for (size_t i = 0; i < k.count; i++)
    free(k.blocks[i]);
  free(k.blocks);
  return 0;
}
