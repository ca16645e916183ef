/* SPDX-License-Identifier: Apache-2.0 */
/* test_alloc.c - the allocation-failure sweep: for N = 0, 1, 2, ... fail the Nth allocation
 * of a whole session (context, sources, program, machines, analysis, JSON, S-expression,
 * edit and reparse, CUDA generation) until a run succeeds. Every run must end without a crash,
 * without a leak, and with VXP_ENOMEM returned by exactly the call whose allocation failed: a
 * failure that is swallowed (a call that succeeds although one of its allocations failed)
 * is a bug as much as a crash is. */
#include <stdbool.h>

#include "support.h"

#include "context.h"

/* ------------------------------------------------------------------ a failing allocator */

/* Counts every malloc/realloc; the one numbered `fail_at` returns NULL. Live blocks are
 * counted so that a leak on any error path shows. A header in front of every block keeps
 * its size for realloc bookkeeping. */
typedef struct chaos {
  size_t calls;   /* allocations attempted so far */
  size_t fail_at; /* SIZE_MAX: never fail */
  size_t failed;  /* how many allocations were refused */
  size_t live;    /* blocks allocated and not yet freed */
} chaos;

typedef union header {
  size_t size;
  max_align_t align;
} header;

static bool chaos_refuse(chaos *c) {
  size_t n = c->calls++;
  if (n == c->fail_at) {
    c->failed++;
    return true;
  }
  return false;
}

static void *chaos_malloc(size_t size, void *ud) {
  chaos *c = ud;
  if (chaos_refuse(c)) return NULL;
  header *h = malloc(sizeof(header) + size);
  if (!h) return NULL;
  h->size = size;
  c->live++;
  return h + 1;
}

static void *chaos_realloc(void *ptr, size_t size, void *ud) {
  chaos *c = ud;
  if (!ptr) return chaos_malloc(size, ud);
  if (chaos_refuse(c)) return NULL;
  header *h = realloc((header *)ptr - 1, sizeof(header) + size);
  if (!h) return NULL;
  h->size = size;
  return h + 1;
}

static void chaos_free(void *ptr, void *ud) {
  chaos *c = ud;
  if (!ptr) return;
  c->live--;
  free((header *)ptr - 1);
}

/* ------------------------------------------------------------------ one session */

/* The inputs of a session: a program, an optional machine file and an edit applied to
 * the program (`edit_old` is replaced by `edit_new`; NULL: no edit step). */
typedef struct session_input {
  const char *program;
  const char *machine;
  const char *edit_old;
  const char *edit_new;
} session_input;

/* Everything a session made, freed in reverse order at the end. */
typedef struct session {
  vxp_context *ctx;
  vxp_source *src, *file_src, *machine_src, *edited_src, *edited2_src;
  vxp_program *prog, *file_prog, *edited_prog, *edited2_prog, *lean_prog, *lean_file_prog;
  vxp_machine *machine, *host, *builtin;
  vxp_analysis *an, *edited_an, *edited2_an;
  vxp_analysis *file_an, *lean_an, *lean_file_an;
  vxp_cuda *cuda, *file_cuda, *lean_cuda, *lean_file_cuda;
  vxp_sweep *sweep;
  vxp_roofline *roofline;
  vxp_frontier *frontier;
  vxp_report *explain, *explain_json, *sweep_report, *roofline_report, *frontier_report, *plot,
      *check;
  char json_copy[65536];
} session;

static void session_free(session *s) {
  vxp_report_free(s->check);
  vxp_report_free(s->plot);
  vxp_report_free(s->frontier_report);
  vxp_report_free(s->roofline_report);
  vxp_report_free(s->sweep_report);
  vxp_report_free(s->explain_json);
  vxp_report_free(s->explain);
  vxp_sweep_free(s->sweep);
  vxp_roofline_free(s->roofline);
  vxp_frontier_free(s->frontier);
  vxp_cuda_free(s->lean_file_cuda);
  vxp_cuda_free(s->lean_cuda);
  vxp_cuda_free(s->file_cuda);
  vxp_cuda_free(s->cuda);
  vxp_analysis_free(s->lean_file_an);
  vxp_analysis_free(s->lean_an);
  vxp_analysis_free(s->file_an);
  vxp_analysis_free(s->edited2_an);
  vxp_analysis_free(s->edited_an);
  vxp_analysis_free(s->an);
  vxp_machine_free(s->builtin);
  vxp_machine_free(s->host);
  vxp_machine_free(s->machine);
  vxp_program_free(s->lean_file_prog);
  vxp_program_free(s->lean_prog);
  vxp_program_free(s->edited2_prog);
  vxp_program_free(s->edited_prog);
  vxp_program_free(s->file_prog);
  vxp_program_free(s->prog);
  vxp_source_free(s->edited2_src);
  vxp_source_free(s->edited_src);
  vxp_source_free(s->machine_src);
  vxp_source_free(s->file_src);
  vxp_source_free(s->src);
  vxp_context_free(s->ctx);
}

/* A writer that takes every piece and keeps nothing. */
static int discard(void *arg, const char *bytes, size_t len) {
  (void)arg;
  (void)bytes;
  (void)len;
  return 0;
}

/* A call returning NULL on failure (JSON, S-expression) reports its code on the context. */
static int from_pointer(vxp_context *ctx, const void *p) {
  return p ? VXP_OK : vxp_context_errcode(ctx);
}

/* Run one session with `c` as the allocator. Returns the code of the first failing step
 * (VXP_OK when all succeed) and stores in *failed_step the index of that step. Asserts
 * that a step during which an allocation was refused did fail, with VXP_ENOMEM. */
static int run_session(const session_input *in, chaos *c, session *s, int *failed_step) {
  memset(s, 0, sizeof(*s));
  vxp_allocator alloc = {chaos_malloc, chaos_realloc, chaos_free, c};
  vxp_context_options opts = VXP_CONTEXT_OPTIONS_INIT;
  opts.allocator = &alloc;
  vxp_analyze_options aopts = VXP_ANALYZE_OPTIONS_INIT;
  static const vxp_const_override overrides[] = {{"N", 2048}, {"UNUSED_NAME", 1}};
  size_t json_len = 0;
  int rc = VXP_OK;
  int step = 0;
  for (;; step++) {
    size_t refused_before = c->failed;
    switch (step) {
    case 0: rc = vxp_context_new(&s->ctx, &opts); break;
    case 1:
      rc = vxp_source_new(&s->src, s->ctx, "sweep.vx", in->program, strlen(in->program));
      break;
    case 2: rc = vxp_source_load_file(&s->file_src, s->ctx, "examples/blog/peak_not_sum.vx"); break;
    case 3: rc = vxp_program_parse(&s->prog, s->ctx, s->src); break;
    case 4: rc = vxp_program_parse(&s->file_prog, s->ctx, s->file_src); break;
    case 5: rc = from_pointer(s->ctx, vxp_program_sexp(s->prog)); break;
    case 6:
      if (in->machine)
        rc =
            vxp_source_new(&s->machine_src, s->ctx, "machine.vx", in->machine, strlen(in->machine));
      break;
    case 7:
      if (in->machine) rc = vxp_machine_load(&s->machine, s->ctx, s->machine_src);
      break;
    case 8: rc = vxp_machine_builtin(&s->host, s->ctx, "host-default"); break;
    case 9: rc = vxp_machine_builtin(&s->builtin, s->ctx, "a100-40"); break;
    case 10:
      aopts.machine = s->machine;
      aopts.host = s->host;
      /* Constant overrides are copied by the analysis: one the program uses, one not. */
      aopts.overrides = overrides;
      aopts.override_count = 2;
      rc = vxp_analyze(&s->an, s->ctx, s->prog, &aopts);
      break;
    case 11: {
      const char *json = vxp_analysis_json(s->an, &json_len);
      rc = from_pointer(s->ctx, json);
      if (json) snprintf(s->json_copy, sizeof(s->json_copy), "%s", json);
      break;
    }
    case 12:
      if (in->edit_old) {
        const char *at = strstr(in->program, in->edit_old);
        assert_non_null(at);
        uint32_t start = (uint32_t)(at - in->program);
        rc = vxp_source_edit(&s->edited_src, s->src, start, start + (uint32_t)strlen(in->edit_old),
                             in->edit_new, strlen(in->edit_new));
      }
      break;
    case 13:
      if (in->edit_old) rc = vxp_program_reparse(&s->edited_prog, s->ctx, s->prog, s->edited_src);
      break;
    case 14:
      if (in->edit_old) rc = vxp_analyze(&s->edited_an, s->ctx, s->edited_prog, &aopts);
      break;
    case 15: rc = vxp_cuda_generate(&s->cuda, s->ctx, s->an); break;
    case 18: rc = from_pointer(s->ctx, vxp_analysis_sarif(s->an, NULL)); break;
    case 19: {
      /* A sweep runs analyses of its own and keeps copies of what they say. */
      vxp_analyze_options sopts = VXP_ANALYZE_OPTIONS_INIT;
      sopts.machine = s->machine;
      sopts.host = s->host;
      vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
      so.name = "N";
      so.lo = 1000;
      so.hi = 1030;
      rc = vxp_sweep_run(&s->sweep, s->ctx, s->prog, &sopts, &so);
      if (rc == VXP_ENOTFOUND) rc = VXP_OK; /* garbage input names no N */
      break;
    }
    case 20:
      rc = vxp_roofline_new(&s->roofline, s->ctx, s->an, "main");
      if (rc == VXP_ENOTFOUND) rc = VXP_OK; /* garbage input has no main */
      break;
    case 21: {
      /* Every value analysed, each priced by its roofline (lib/frontier.c). */
      vxp_analyze_options fopts = VXP_ANALYZE_OPTIONS_INIT;
      fopts.machine = s->machine;
      fopts.host = s->host;
      vxp_frontier_options fo;
      rc = vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION);
      fo.name = "N";
      fo.lo = 1000;
      fo.hi = 1003;
      fo.margin_ppm = 100000;
      if (rc == VXP_OK) rc = vxp_frontier_run(&s->frontier, s->ctx, s->prog, &fopts, &fo);
      if (rc == VXP_ENOTFOUND) rc = VXP_OK; /* garbage input names no N */
      break;
    }
    /* The reports the library renders (lib/report/). */
    case 22: rc = vxp_report_explain(&s->explain, s->ctx, s->an, NULL); break;
    case 23: {
      vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
      ro.format = VXP_REPORT_JSON;
      rc = vxp_report_explain(&s->explain_json, s->ctx, s->an, &ro);
      break;
    }
    case 24: {
      if (!s->sweep) break;
      const vxp_sweep *sweeps[] = {s->sweep};
      rc = vxp_report_sweep(&s->sweep_report, s->ctx, sweeps, NULL, 1, NULL);
      break;
    }
    case 25: {
      vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
      ro.format = VXP_REPORT_JSON;
      rc = vxp_report_roofline(&s->roofline_report, s->ctx, s->an, &ro);
      break;
    }
    case 26:
      if (s->frontier) rc = vxp_report_frontier(&s->frontier_report, s->ctx, s->frontier, NULL);
      break;
    case 27:
      rc = vxp_report_plot(&s->plot, s->ctx, s->an, NULL);
      if (rc == VXP_ENOTFOUND) rc = VXP_OK; /* nothing placed in a space with a capacity */
      break;
    case 28: {
      vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
      ro.margin_ppm = 100000;
      rc = vxp_report_check(&s->check, s->ctx, s->an, &ro);
      break;
    }
    /* The blog program is one the CUDA stage accepts: generation runs to the end. */
    case 16: rc = vxp_analyze(&s->file_an, s->ctx, s->file_prog, NULL); break;
    case 17:
      rc = vxp_cuda_generate(&s->file_cuda, s->ctx, s->file_an);
      if (rc == VXP_OK && !vxp_cuda_text(s->file_cuda, NULL))
        fail_msg("the blog program was refused by the CUDA stage");
      break;
    /* A program that keeps no tree once lowered (what the command's analyses use), parsed
     * in windows of one item each (program.c), as a long text is. */
    case 29:
      s->ctx->parse_window = 1;
      rc = vxp_program_parse_flags(&s->lean_prog, s->ctx, s->src, VXP_PROGRAM_NO_TREE);
      s->ctx->parse_window = 0;
      break;
    case 30: rc = vxp_analyze(&s->lean_an, s->ctx, s->lean_prog, NULL); break;
    /* CUDA generation of those windows, each parsed again and generated twice (written the
     * second time): of the input (generated even when rejected), and of the blog program,
     * which is written to the end. */
    case 31:
      s->ctx->parse_window = 1;
      rc = vxp_cuda_generate_write(&s->lean_cuda, s->ctx, s->lean_an, VXP_CUDA_ALLOW_REJECTED,
                                   discard, NULL);
      s->ctx->parse_window = 0;
      break;
    case 32:
      s->ctx->parse_window = 1;
      rc = vxp_program_parse_flags(&s->lean_file_prog, s->ctx, s->file_src, VXP_PROGRAM_NO_TREE);
      s->ctx->parse_window = 0;
      break;
    case 33: rc = vxp_analyze(&s->lean_file_an, s->ctx, s->lean_file_prog, NULL); break;
    case 34:
      s->ctx->parse_window = 1;
      rc = vxp_cuda_generate_write(&s->lean_file_cuda, s->ctx, s->lean_file_an, 0, discard, NULL);
      s->ctx->parse_window = 0;
      if (rc == VXP_OK && vxp_cuda_diagnostic_count(s->lean_file_cuda) > 0)
        fail_msg("the blog program, in windows, was refused by the CUDA stage");
      break;
    /* An editor's second reparse, the edit undone: from a program a reparse made, which may
     * parse only the window around the edit (lib/reparse_window.c), then its analysis from
     * the first one's. */
    case 35:
      if (in->edit_old) {
        const char *text = vxp_source_text(s->edited_src, NULL);
        const char *at = strstr(text, in->edit_new);
        assert_non_null(at);
        uint32_t start = (uint32_t)(at - text);
        rc = vxp_source_edit(&s->edited2_src, s->edited_src, start,
                             start + (uint32_t)strlen(in->edit_new), in->edit_old,
                             strlen(in->edit_old));
      }
      break;
    case 36:
      if (in->edit_old)
        rc = vxp_program_reparse(&s->edited2_prog, s->ctx, s->edited_prog, s->edited2_src);
      if (rc == VXP_OK && in->edit_old)
        rc = vxp_analyze_incremental(&s->edited2_an, s->ctx, s->edited2_prog, s->edited_an, &aopts);
      break;
    default: *failed_step = -1; return VXP_OK;
    }
    bool refused = c->failed != refused_before;
    if (refused && rc != VXP_ENOMEM)
      fail_msg("step %d: allocation %zu was refused but the step returned %d (%s)", step,
               c->fail_at, rc, vxp_strerror(rc));
    if (!refused && rc != VXP_OK)
      fail_msg("step %d failed with %d (%s) although no allocation was refused: %s", step, rc,
               vxp_strerror(rc), s->ctx ? vxp_context_errmsg(s->ctx) : "");
    if (rc != VXP_OK) {
      /* The message on the context (when one exists) agrees with the code. */
      if (s->ctx && step > 0) assert_int_equal(vxp_context_errcode(s->ctx), VXP_ENOMEM);
      *failed_step = step;
      return rc;
    }
  }
}

/* The sweep itself: a reference run, then one run per allocation it made. */
static void sweep(const session_input *in) {
  chaos c = {0, SIZE_MAX, 0, 0};
  session reference;
  int failed_step;
  assert_int_equal(run_session(in, &c, &reference, &failed_step), VXP_OK);
  char *expected_json = strdup(reference.json_copy);
  session_free(&reference);
  assert_int_equal(c.live, 0);
  size_t total = c.calls;
  assert_true(total > 10);

  size_t failures_seen = 0;
  for (size_t n = 0;; n++) {
    chaos fc = {0, n, 0, 0};
    session s;
    int rc = run_session(in, &fc, &s, &failed_step);
    session_free(&s);
    if (fc.live != 0)
      fail_msg("allocation %zu refused (step %d): %zu block(s) leaked", n, failed_step, fc.live);
    if (rc == VXP_OK) {
      /* No refusal happened: every allocation of the session came before n. */
      assert_int_equal(fc.failed, 0);
      assert_int_equal(n, total);
      assert_string_equal(s.json_copy, expected_json);
      break;
    }
    failures_seen++;
  }
  assert_int_equal(failures_seen, total);
  printf("    sweep: %zu allocations, each refused once: VXP_ENOMEM, no leak\n", total);
  free(expected_json);
}

/* ------------------------------------------------------------------ inputs */

/* Rejections with notes and capacity facts, a dynamic shape, a loop, an if, a syntax
 * error, and a const item: most paths that build diagnostics. */
static const char program_rich[] =
    "Memory CPU_DRAM {}\n"
    "Memory W { within: Memory::CPU_DRAM, capacity: 4 MiB, granule: 1 KiB, managed: explicit }\n"
    "Topology Dev { arch: nvptx64, memory: Memory::W, visible: [Memory::W],\n"
    "  transfer Memory::CPU_DRAM -> Memory::W : 10 GB/s }\n"
    "const N: u64 = 1024;\n"
    "fn helper(n: u64) -> i32 {\n"
    "  let d = transfer(Tensor<f32, [n, 4]>::uninit(), Memory::W);\n"
    "  print(d);\n"
    "  return 0;\n"
    "}\n"
    "fn main() -> i32 {\n"
    "  // role: model weights\n"
    "  let a = transfer(Tensor<f32, [N, 768]>::uninit(), Memory::W);\n"
    "  let b = transfer(Tensor<f32, [N, 768]>::uninit(), Memory::W);\n"
    "  for i in 0..8 {\n"
    "    let s = transfer(Tensor<f16, [N, N]>::uninit(), Memory::W);\n"
    "    print(s);\n"
    "  }\n"
    "  if true { let big = transfer(Tensor<u8, [N, N, N]>::uninit(), Memory::W); print(big); }\n"
    "  spawn on(Topology::Dev) { for k in 0..4 { a[k][0] = b[k][1] + a[0][k]; b[0] += 1; } }\n"
    "  print(a); print(b);\n"
    "  let broken = ;\n"
    "  helper(3);\n"
    "  return 0;\n"
    "}\n";

static const char machine_rich[] =
    "Memory HBM { capacity: 40 GiB, bandwidth: 1555 GB/s, managed: explicit, scope: device }\n"
    "Memory L2 { within: Memory::HBM, capacity: 40 MiB, bandwidth: 7 TB/s, managed: cached }\n"
    "Memory SMEM { within: Memory::L2, capacity: 164 KiB, bandwidth: 128 B/cyc, clock: 1.41 GHz,\n"
    "  granule: 1 KiB, managed: explicit, scope: sm, replicas: 108 }\n"
    "Memory Bad { capacity: 4 Mib, bandwidth: 0 GB/s }\n"
    "Topology Device { arch: nvptx64, memory: Memory::HBM,\n"
    "  visible: [Memory::HBM, Memory::L2, Memory::SMEM],\n"
    "  transfer Memory::CPU_DRAM -> Memory::HBM : 31.5 GB/s\n"
    "  transfer Memory::HBM -> Memory::L2 }\n";

/* The whole-program paths: generic instances (inferred, written, a closure of one), an
 * overflow across calls (E6027 with notes), a cycle placing tiles (E6028), a cycle placing
 * none that conducts, unresolved calls, methods. */
static const char program_calls[] =
    "Memory CPU_DRAM {}\n"
    "Memory W { within: Memory::CPU_DRAM, capacity: 4 MiB, managed: explicit }\n"
    "Topology Dev { arch: nvptx64, memory: Memory::W, visible: [Memory::W],\n"
    "  transfer Memory::CPU_DRAM -> Memory::W : 10 }\n"
    "extern \"C\" { fn native(n: i32) -> i32; }\n"
    "struct Pool { n: i32 }\n"
    "impl Pool { fn grab(self: Pool) -> i32 { let t = transfer(Tensor<f32, [N]>::uninit(), "
    "Memory::W); print(t); return 1; } }\n"
    "const N: u64 = 1024;\n"
    "fn stage<T, const R: i64>(x: T) -> i32 {\n"
    "  let y = transfer(Tensor<T, [R, 768]>::uninit(), Memory::W);\n"
    "  let f = |k: i32| transfer(Tensor<f32, [R]>::uninit(), Memory::W);\n"
    "  let z = f(1);\n"
    "  print(y);\n"
    "  return 1;\n"
    "}\n"
    "fn deep(n: i32) -> i32 { let t = transfer(Tensor<f32, [16]>::uninit(), Memory::W); print(t); "
    "return deep(n - 1); }\n"
    "fn odd(n: i32) -> i32 { return even(n); }\n"
    "fn even(n: i32) -> i32 { return odd(n) + stage<f32, 16>(1.0); }\n"
    "fn main() -> i32 {\n"
    "  let a = transfer(Tensor<f32, [N, 768]>::uninit(), Memory::W);\n"
    "  let h = deep;\n"
    "  let r = stage<f32, 1024>(2.5) + stage(7) + odd(3) + h(1) + native(2) + Pool { n: 1 "
    "}.grab();\n"
    "  print(a);\n"
    "  return r;\n"
    "}\n";

static void test_alloc__every_failure_in_a_whole_program_session(void **state) {
  (void)state;
  session_input in = {program_calls, NULL, "stage<f32, 1024>", "stage<f32, 512>"};
  sweep(&in);
}

static void test_alloc__every_failure_in_a_rich_session_is_enomem(void **state) {
  (void)state;
  session_input in = {program_rich, machine_rich, "for i in 0..8", "for i in 0..16"};
  sweep(&in);
}

static void test_alloc__every_failure_in_a_program_with_its_own_machine(void **state) {
  (void)state;
  session_input in = {program_rich, NULL, "  let broken = ;\n", "  let fixed = 1;\n"};
  sweep(&in);
}

static void test_alloc__every_failure_with_garbage_input(void **state) {
  (void)state;
  /* Invalid UTF-8, unbalanced braces, stray tokens: error recovery allocates too. */
  session_input in = {"fn \xff\xfe main( { let x = transfer(Tensor<f32, [1,>::uninit(), "
                      "Memory::Q); }}} Memory { capacity: }\n",
                      "Memory X { capacity: 12 parsecs }\nTopology { }\n", "\xff\xfe", "ok"};
  sweep(&in);
}

/* A program that declares no machine, given none: vxp_analyze, the sweep and the frontier
 * load the built-in default machine and host themselves (vxp_default_machine), and give
 * them back on every failure. */
static void test_alloc__every_failure_on_the_default_machine(void **state) {
  (void)state;
  session_input in = {"const N: u64 = 4;\n"
                      "fn main() -> i32 {\n"
                      "  let t = transfer(Tensor<f32, [N, 16]>::uninit(), Memory::HBM);\n"
                      "  spawn on(Topology::Device) { t[0][0] = t[1][0]; }\n"
                      "  return 0;\n"
                      "}\n",
                      NULL, NULL, NULL};
  sweep(&in);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_alloc__every_failure_on_the_default_machine),
      cmocka_unit_test(test_alloc__every_failure_in_a_rich_session_is_enomem),
      cmocka_unit_test(test_alloc__every_failure_in_a_program_with_its_own_machine),
      cmocka_unit_test(test_alloc__every_failure_with_garbage_input),
      cmocka_unit_test(test_alloc__every_failure_in_a_whole_program_session),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
