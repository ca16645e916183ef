/* SPDX-License-Identifier: Apache-2.0 */
/* test_cancel.c - parse, reparse, analyse, sweep, the reports, the roofline, CUDA
 * generation (also of a program parsed in windows) and machine loading stop with
 * VXP_ECANCELLED when another thread raises the context's cancellation flag during the call, or
 * when the call's time budget runs out; a stopped call leaks nothing and the context stays usable.
 *
 * To raise the flag from another thread at a chosen moment inside a call, the context's
 * allocator counts allocations: at the chosen one it starts a thread that raises the flag
 * and waits for it, so the call under way goes on with the flag raised by someone else. */
#include "support.h"

#include <pthread.h>

#include "context.h"
#include "program.h"

typedef struct canceller {
  size_t flag;
  long countdown; /* raise the flag at this allocation (1: the first); <= 0: never */
  long allocations;
} canceller;

static void *raise_flag(void *arg) {
  __atomic_store_n(&((canceller *)arg)->flag, 1, __ATOMIC_RELAXED);
  return NULL;
}

static void count_allocation(canceller *c) {
  c->allocations++;
  if (c->countdown > 0 && --c->countdown == 0) {
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, raise_flag, c), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
  }
}

static void *cancel_malloc(size_t size, void *ud) {
  count_allocation(ud);
  return test_malloc(size);
}
static void *cancel_realloc(void *ptr, size_t size, void *ud) {
  count_allocation(ud);
  return test_realloc(ptr, size);
}
static void cancel_free(void *ptr, void *ud) {
  (void)ud;
  test_free(ptr);
}

/* Many small functions, each over its space's capacity (one E6010 each), so that every
 * stage has many steps to check the flag between. */
static char *make_program(int functions, size_t *len) {
  size_t cap = 256 + (size_t)functions * 160;
  char *text = malloc(cap);
  assert_non_null(text);
  size_t n = (size_t)snprintf(text, cap,
                              "Memory HBM { capacity: 1 MiB, granule: 256 B }\n"
                              "const N : i64 = 512;\n");
  for (int i = 0; i < functions; i++)
    n += (size_t)snprintf(text + n, cap - n,
                          "fn f%d() -> i32 {\n"
                          "  let t = transfer(Tensor<f32, [N, 1024]>::new(), Memory::HBM);\n"
                          "  print(t[0][0]);\n"
                          "  return 0;\n"
                          "}\n",
                          i);
  *len = n;
  return text;
}

typedef enum stage {
  PARSE,
  REPARSE,
  ANALYSE,
  SWEEP,
  JSON,
  SARIF,
  ROOFLINE,
  CUDA,
  MACHINE,
  CUDA_WINDOWS
} stage;
#define LAST_STAGE CUDA_WINDOWS
static const char *const stage_names[] = {"parse",   "reparse",     "analyse",  "sweep",
                                          "json",    "sarif",       "roofline", "cuda",
                                          "machine", "cuda-windows"};

/* The parse window of the session's windowed program (windows are found again with it). */
#define WINDOW 512

/* A machine model of many spaces, so that reading it has many items to check between. */
static char *make_machine(int spaces, size_t *len) {
  size_t cap = 64 + (size_t)spaces * 48;
  char *text = malloc(cap);
  assert_non_null(text);
  size_t n = 0;
  for (int i = 0; i < spaces; i++)
    n += (size_t)snprintf(text + n, cap - n, "Memory S%d { capacity: %d MiB }\n", i, i + 1);
  *len = n;
  return text;
}

typedef struct session {
  canceller c;
  vxp_allocator alloc;
  vxp_context *ctx;
  vxp_source *src, *edited, *machine_src;
  char *machine_text;
  vxp_program *prog, *lean; /* lean: parsed in windows, keeping no tree */
  vxp_analysis *an, *lean_an;
} session;

/* A writer that takes every piece and keeps nothing. */
static int discard(void *arg, const char *bytes, size_t len) {
  (void)arg;
  (void)bytes;
  (void)len;
  return 0;
}

static void session_open(session *s, const char *text, size_t len) {
  memset(s, 0, sizeof(*s));
  s->alloc = (vxp_allocator){cancel_malloc, cancel_realloc, cancel_free, &s->c};
  vxp_context_options opts = VXP_CONTEXT_OPTIONS_INIT;
  opts.allocator = &s->alloc;
  assert_int_equal(vxp_context_new(&s->ctx, &opts), VXP_OK);
  vxp_context_set_cancel_flag(s->ctx, &s->c.flag);
  assert_int_equal(vxp_source_new(&s->src, s->ctx, "c.vx", text, len), VXP_OK);
  assert_int_equal(vxp_source_edit(&s->edited, s->src, (uint32_t)len, (uint32_t)len, "\n", 1),
                   VXP_OK);
  assert_int_equal(vxp_program_parse(&s->prog, s->ctx, s->src), VXP_OK);
  assert_int_equal(vxp_analyze(&s->an, s->ctx, s->prog, NULL), VXP_OK);
  s->ctx->parse_window = WINDOW;
  assert_int_equal(vxp_program_parse_flags(&s->lean, s->ctx, s->src, VXP_PROGRAM_NO_TREE), VXP_OK);
  s->ctx->parse_window = 0;
  assert_true(s->lean->windows > 1);
  assert_int_equal(vxp_analyze(&s->lean_an, s->ctx, s->lean, NULL), VXP_OK);
  size_t mlen;
  s->machine_text = make_machine(300, &mlen);
  assert_int_equal(vxp_source_new(&s->machine_src, s->ctx, "m.vx", s->machine_text, mlen), VXP_OK);
}

static void session_close(session *s) {
  vxp_analysis_free(s->lean_an);
  vxp_program_free(s->lean);
  vxp_analysis_free(s->an);
  vxp_program_free(s->prog);
  vxp_source_free(s->edited);
  vxp_source_free(s->src);
  vxp_source_free(s->machine_src);
  free(s->machine_text);
  vxp_context_free(s->ctx);
}

/* Run `st` once; VXP_OK when it completed (its result freed at once). A report renders
 * into a fresh analysis each time, since renderings are cached. */
static int run_stage(session *s, stage st) {
  vxp_program *prog = NULL;
  vxp_analysis *an = NULL;
  vxp_sweep *sw = NULL;
  vxp_roofline *rf = NULL;
  vxp_cuda *cu = NULL;
  vxp_machine *m = NULL;
  int rc = VXP_OK;
  switch (st) {
  case PARSE: rc = vxp_program_parse(&prog, s->ctx, s->src); break;
  case REPARSE: rc = vxp_program_reparse(&prog, s->ctx, s->prog, s->edited); break;
  case ANALYSE: rc = vxp_analyze(&an, s->ctx, s->prog, NULL); break;
  case SWEEP: {
    vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
    so.name = "N";
    so.lo = 1;
    so.hi = 64;
    rc = vxp_sweep_run(&sw, s->ctx, s->prog, NULL, &so);
    break;
  }
  case JSON:
  case SARIF: {
    long countdown = s->c.countdown; /* the fresh analysis is not the call under test */
    s->c.countdown = 0;
    assert_int_equal(vxp_analyze(&an, s->ctx, s->prog, NULL), VXP_OK);
    s->c.countdown = countdown;
    const char *text = st == JSON ? vxp_analysis_json(an, NULL) : vxp_analysis_sarif(an, NULL);
    rc = text ? VXP_OK : vxp_context_errcode(s->ctx);
    assert_true(text || rc != VXP_OK);
    break;
  }
  case ROOFLINE: rc = vxp_roofline_new(&rf, s->ctx, s->an, "f150"); break;
  case CUDA: rc = vxp_cuda_generate_flags(&cu, s->ctx, s->an, VXP_CUDA_ALLOW_REJECTED); break;
  case MACHINE: rc = vxp_machine_load(&m, s->ctx, s->machine_src); break;
  case CUDA_WINDOWS: /* each window parsed again, the definitions generated twice */
    s->ctx->parse_window = WINDOW;
    rc = vxp_cuda_generate_write(&cu, s->ctx, s->lean_an, VXP_CUDA_ALLOW_REJECTED, discard, NULL);
    s->ctx->parse_window = 0;
    break;
  }
  if (rc != VXP_OK) {
    assert_null(prog);
    assert_null(sw);
    assert_null(rf);
    assert_null(cu);
    assert_null(m);
  }
  vxp_machine_free(m);
  vxp_cuda_free(cu);
  vxp_roofline_free(rf);
  vxp_sweep_free(sw);
  vxp_analysis_free(an);
  vxp_program_free(prog);
  return rc;
}

/* For each stage: count the allocations of a run, then raise the flag from another thread
 * at the first of them and half-way through; the call must stop, and succeed again once the
 * flag is lowered. */
static void test_cancel__each_stage_stops_when_another_thread_raises_the_flag(void **state) {
  (void)state;
  size_t len;
  char *text = make_program(300, &len);
  session s;
  session_open(&s, text, len);
  for (stage st = PARSE; st <= LAST_STAGE; st++) {
    s.c.countdown = 0;
    s.c.allocations = 0;
    assert_int_equal(run_stage(&s, st), VXP_OK);
    long total = s.c.allocations;
    long moments[2] = {1, total / 2};
    for (int k = 0; k < 2; k++) {
      if (moments[k] < 1 || (k == 1 && (st == JSON || st == SARIF))) continue;
      s.c.countdown = moments[k];
      int rc = run_stage(&s, st);
      if (rc != VXP_ECANCELLED)
        fail_msg("%s with the flag raised at allocation %ld of %ld: %d", stage_names[st],
                 moments[k], total, rc);
      assert_int_equal(vxp_context_errcode(s.ctx), VXP_ECANCELLED);
      assert_non_null(strstr(vxp_context_errmsg(s.ctx), "cancellation flag"));
      __atomic_store_n(&s.c.flag, 0, __ATOMIC_RELAXED);
      s.c.countdown = 0;
      if (run_stage(&s, st) != VXP_OK)
        fail_msg("%s after the flag was lowered: %s", stage_names[st], vxp_context_errmsg(s.ctx));
      assert_int_equal(vxp_context_errcode(s.ctx), VXP_OK);
    }
  }
  session_close(&s);
  free(text);
}

/* A stopped parse leaves nothing behind in the parser: the next parse of another text is
 * the same as a fresh context's. */
static void test_cancel__a_cancelled_parse_does_not_leak_into_the_next(void **state) {
  (void)state;
  size_t len;
  char *text = make_program(50, &len);
  session s;
  session_open(&s, text, len);
  __atomic_store_n(&s.c.flag, 1, __ATOMIC_RELAXED);
  vxp_program *prog = NULL;
  assert_int_equal(vxp_program_parse(&prog, s.ctx, s.src), VXP_ECANCELLED);
  __atomic_store_n(&s.c.flag, 0, __ATOMIC_RELAXED);
  static const char small[] = "fn g() -> i32 { return 1; }\n";
  vxp_source *other;
  assert_int_equal(vxp_source_new(&other, s.ctx, "g.vx", small, strlen(small)), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, s.ctx, other), VXP_OK);
  assert_int_equal(vxp_program_diagnostic_count(prog), 0);
  assert_null(strstr(vxp_program_sexp(prog), "ERROR"));
  assert_null(strstr(vxp_program_sexp(prog), "f49"));
  vxp_program_free(prog);
  vxp_source_free(other);
  session_close(&s);
  free(text);
}

static void test_cancel__a_spent_time_budget_stops_each_stage(void **state) {
  (void)state;
  size_t len;
  char *text = make_program(300, &len);
  session s;
  session_open(&s, text, len);
  vxp_context_set_time_budget(s.ctx, 1); /* one microsecond */
  for (stage st = PARSE; st <= LAST_STAGE; st++) {
    if (st == JSON || st == SARIF) {
      vxp_context_set_time_budget(s.ctx, 0);
      vxp_analysis *an;
      assert_int_equal(vxp_analyze(&an, s.ctx, s.prog, NULL), VXP_OK);
      vxp_context_set_time_budget(s.ctx, 1);
      const char *out = st == JSON ? vxp_analysis_json(an, NULL) : vxp_analysis_sarif(an, NULL);
      assert_null(out);
      vxp_analysis_free(an);
    } else {
      assert_int_equal(run_stage(&s, st), VXP_ECANCELLED);
    }
    assert_int_equal(vxp_context_errcode(s.ctx), VXP_ECANCELLED);
    assert_non_null(strstr(vxp_context_errmsg(s.ctx), "time budget"));
  }
  vxp_context_set_time_budget(s.ctx, 60u * 1000 * 1000); /* a minute is plenty */
  for (stage st = PARSE; st <= LAST_STAGE; st++)
    assert_int_equal(run_stage(&s, st), VXP_OK);
  session_close(&s);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cancel__each_stage_stops_when_another_thread_raises_the_flag),
      cmocka_unit_test(test_cancel__a_cancelled_parse_does_not_leak_into_the_next),
      cmocka_unit_test(test_cancel__a_spent_time_budget_stops_each_stage),
  };
  return cmocka_run_group_tests_name("cancel", tests, NULL, NULL);
}
