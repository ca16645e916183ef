/* SPDX-License-Identifier: Apache-2.0 */
/* test_threads.c - the threading statement of vxpeak.h, executed: several threads, each
 * with its own context, analyse programs against one shared machine model, and read one
 * shared program and one shared analysis at the same time. Run under ThreadSanitizer by
 * `make tsan`, where any data race in the library fails the run; in `make check` it still
 * checks that every thread gets the single-threaded answer. */
#include <pthread.h>
#include <stdbool.h>

#include "support.h"

#define THREADS 6
#define ROUNDS 4

static const char program_text[] =
    "fn main() -> i32 {\n"
    "  let w = transfer(Tensor<f32, [8192, 8192]>::uninit(), Memory::HBM);\n"
    "  for i in 0..16 {\n"
    "    let s = transfer(Tensor<f16, [4096, 4096]>::uninit(), Memory::HBM);\n"
    "    let t = transfer(Tensor<f16, [1024, 1024]>::uninit(), Memory::SMEM);\n"
    "    print(s); print(t);\n"
    "  }\n"
    "  print(w);\n"
    "  return 0;\n"
    "}\n";

/* What the main thread computed alone, and the objects every thread shares. */
typedef struct shared {
  const vxp_machine *machine;   /* fleet/a100-40.vx, loaded by the main thread */
  const vxp_machine *host;      /* the built-in host */
  const vxp_program *program;   /* parsed by the main thread */
  const vxp_analysis *analysis; /* its analysis, JSON rendered before sharing */
  const char *expected_json;    /* that JSON */
  const char *expected_edited;  /* the JSON after the thread's edit */
} shared;

typedef struct worker {
  const shared *sh;
  int index;
  char failure[256]; /* empty when the thread saw only right answers */
} worker;

static bool fail_with(worker *w, const char *what, vxp_context *ctx) {
  snprintf(w->failure, sizeof(w->failure), "thread %d: %s%s%s", w->index, what, ctx ? ": " : "",
           ctx ? vxp_context_errmsg(ctx) : "");
  return false;
}

/* Analyse `prog` against the shared machines in `ctx`; compare the JSON with `expected`. */
static bool analyse_and_compare(worker *w, vxp_context *ctx, const vxp_program *prog,
                                const char *expected) {
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = w->sh->machine;
  opts.host = w->sh->host;
  vxp_analysis *an;
  if (vxp_analyze(&an, ctx, prog, &opts) != VXP_OK) return fail_with(w, "vxp_analyze", ctx);
  const char *json = vxp_analysis_json(an, NULL);
  bool same = json && strcmp(json, expected) == 0;
  vxp_analysis_free(an);
  return same ? true : fail_with(w, "a report differs from the single-threaded one", NULL);
}

/* Read every accessor of the shared analysis and machine (no cache is filled by these). */
static bool read_shared(worker *w) {
  const shared *sh = w->sh;
  size_t json_len;
  const char *json = vxp_analysis_json((vxp_analysis *)sh->analysis, &json_len);
  if (json != sh->expected_json) return fail_with(w, "the cached JSON moved", NULL);
  uint64_t total = 0;
  for (size_t i = 0; i < vxp_analysis_resident_set_count(sh->analysis); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(sh->analysis, i);
    total += vxp_resident_set_peak_bytes(rs) + strlen(vxp_resident_set_space(rs));
  }
  for (size_t i = 0; i < vxp_analysis_record_count(sh->analysis); i++)
    total += vxp_record_bytes(vxp_analysis_record(sh->analysis, i));
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(sh->analysis); i++) {
    const vxp_diagnostic *d = vxp_analysis_diagnostic(sh->analysis, i);
    total += strlen(vxp_diagnostic_message(d)) + vxp_diagnostic_note_count(d);
  }
  total += vxp_machine_diagnostic_count(sh->machine) + strlen(vxp_machine_label(sh->machine));
  total += vxp_program_diagnostic_count(sh->program);
  return total > 0 ? true : fail_with(w, "the shared analysis reads as empty", NULL);
}

static void *work(void *arg) {
  worker *w = arg;
  const shared *sh = w->sh;
  vxp_context *ctx;
  if (vxp_context_new(&ctx, NULL) != VXP_OK) {
    fail_with(w, "vxp_context_new", NULL);
    return NULL;
  }
  for (int round = 0; round < ROUNDS && !w->failure[0]; round++) {
    vxp_source *src = NULL, *edited = NULL;
    vxp_program *prog = NULL, *reparsed = NULL;
    /* Its own program, against the shared machine. */
    if (vxp_source_new(&src, ctx, "threads.vx", program_text, strlen(program_text)) != VXP_OK ||
        vxp_program_parse(&prog, ctx, src) != VXP_OK)
      fail_with(w, "parse", ctx);
    else if (analyse_and_compare(w, ctx, prog, sh->expected_json) &&
             /* The shared program, analysed in this thread's context. */
             analyse_and_compare(w, ctx, sh->program, sh->expected_json) && read_shared(w)) {
      /* An edit and an incremental reparse of its own program. */
      const char *at = strstr(program_text, "0..16");
      uint32_t start = (uint32_t)(at - program_text) + 3;
      if (vxp_source_edit(&edited, src, start, start + 2, "32", 2) != VXP_OK ||
          vxp_program_reparse(&reparsed, ctx, prog, edited) != VXP_OK)
        fail_with(w, "edit", ctx);
      else
        analyse_and_compare(w, ctx, reparsed, sh->expected_edited);
    }
    vxp_program_free(reparsed);
    vxp_program_free(prog);
    vxp_source_free(edited);
    vxp_source_free(src);
  }
  vxp_context_free(ctx);
  return NULL;
}

/* The report of `text` against `machine` and `host`, computed on this thread alone. */
static char *report_alone(const char *text, const vxp_machine *machine, const vxp_machine *host) {
  vxp_context *ctx = test_context();
  vxp_source *src;
  vxp_program *prog;
  vxp_analysis *an;
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = machine;
  opts.host = host;
  assert_int_equal(vxp_source_new(&src, ctx, "threads.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_int_equal(vxp_analyze(&an, ctx, prog, &opts), VXP_OK);
  char *json = strdup(vxp_analysis_json(an, NULL));
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return json;
}

static void test_threads__contexts_share_one_machine_model(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *machine_src, *src;
  vxp_machine *machine, *host;
  vxp_program *prog;
  vxp_analysis *an;
  assert_int_equal(vxp_source_load_file(&machine_src, ctx, "fleet/a100-40.vx"), VXP_OK);
  assert_int_equal(vxp_machine_load(&machine, ctx, machine_src), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&host, ctx, "host-default"), VXP_OK);
  assert_int_equal(vxp_source_new(&src, ctx, "threads.vx", program_text, strlen(program_text)),
                   VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = machine;
  opts.host = host;
  assert_int_equal(vxp_analyze(&an, ctx, prog, &opts), VXP_OK);

  char edited_text[sizeof(program_text)];
  memcpy(edited_text, program_text, sizeof(program_text));
  memcpy(strstr(edited_text, "0..16"), "0..32", 5);
  char *expected_edited = report_alone(edited_text, machine, host);
  shared sh = {machine, host, prog, an, NULL, expected_edited};
  sh.expected_json = vxp_analysis_json(an, NULL); /* rendered once, before sharing */
  assert_non_null(sh.expected_json);
  /* The inputs are not trivial: the program is analysed in two spaces. */
  assert_true(vxp_analysis_resident_set_count(an) >= 2);
  assert_string_not_equal(sh.expected_json, expected_edited);

  pthread_t threads[THREADS];
  worker workers[THREADS];
  for (int i = 0; i < THREADS; i++) {
    memset(&workers[i], 0, sizeof(workers[i]));
    workers[i].sh = &sh;
    workers[i].index = i;
    assert_int_equal(pthread_create(&threads[i], NULL, work, &workers[i]), 0);
  }
  for (int i = 0; i < THREADS; i++)
    assert_int_equal(pthread_join(threads[i], NULL), 0);
  for (int i = 0; i < THREADS; i++) {
    if (workers[i].failure[0]) fail_msg("%s", workers[i].failure);
  }
  free(expected_edited);
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_machine_free(host);
  vxp_machine_free(machine);
  vxp_source_free(machine_src);
  vxp_context_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_threads__contexts_share_one_machine_model),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
