/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_window.c - libFuzzer harness, differential: a text over VXP_PARSE_WINDOW (1 MiB) is
 * parsed in windows of whole top-level items, each window's tree freed before the next
 * (lib/program.c), and that path must give what a whole parse gives. Fuzz inputs are a few
 * hundred bytes, far below 1 MiB, so the harness shrinks the window through the context
 * (white box: lib/context.h, as the unit tests do) to 8..263 bytes, chosen by the input's
 * length (so that the seed corpus of programs serves as it is), parses the input both ways
 * (vxp_program_parse, and vxp_program_parse_flags with VXP_PROGRAM_NO_TREE in a context with the
 * small window), analyses both against the same machine, and aborts when their diagnostics or JSON
 * reports differ. A windowed parse that falls back to a whole one must agree too. The other
 * harnesses never reach the windowed path: their inputs are too short. Both outcomes are held
 * to include/vxpeak.h's promises (promises.h). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vxpeak.h"

#include "builtin_machines.h"
#include "promises.h"
#include "context.h"
#include "program.h"

/* One program diagnostic, copied: where it starts and ends, and its code and message. */
typedef struct diag_copy {
  uint32_t start, end;
  bool error;
  char *text; /* "CODE message" */
} diag_copy;

/* One parse and analysis of `text`: the JSON report (malloc'd, NULL when the analysis did not
 * run), the program's diagnostics and what the parse found. */
typedef struct outcome {
  int parsed, analysed, admitted;
  bool syntax_error; /* the whole tree, or a window's, has an error or missing node */
  uint32_t windows, error_windows, errors_from, errors_to;
  size_t program_diags;
  size_t syntax[3]; /* the syntax checks' groups: reserved words, old spellings, errors */
  diag_copy *diags;
  char *json;
  size_t json_len;
} outcome;

static char *copy_text(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  char *t = malloc(la + lb + 2);
  if (!t) abort();
  memcpy(t, a, la);
  t[la] = ' ';
  memcpy(t + la + 1, b, lb + 1);
  return t;
}

static outcome run(const char *text, size_t size, uint32_t window) {
  outcome o;
  memset(&o, 0, sizeof(o));
  vxp_context *ctx = NULL;
  if (vxp_context_new(&ctx, NULL) != VXP_OK) abort();
  ctx->parse_window = window;
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  vxp_analysis *an = NULL;
  if (vxp_source_new(&src, ctx, "fuzz.vx", text, size) != VXP_OK) goto done;
  o.parsed = window ? vxp_program_parse_flags(&prog, ctx, src, VXP_PROGRAM_NO_TREE)
                    : vxp_program_parse(&prog, ctx, src);
  if (o.parsed != VXP_OK) goto done;
  o.program_diags = vxp_program_diagnostic_count(prog);
  o.diags = calloc(o.program_diags + 1, sizeof(*o.diags));
  if (!o.diags) abort();
  for (size_t i = 0; i < o.program_diags; i++) {
    const vxp_diagnostic *d = vxp_program_diagnostic(prog, i);
    o.diags[i].start = vxp_diagnostic_range(d).start_byte;
    o.diags[i].end = vxp_diagnostic_range(d).end_byte;
    o.diags[i].error = vxp_diagnostic_severity(d) == VXP_SEVERITY_ERROR;
    o.diags[i].text = copy_text(vxp_diagnostic_code(d), vxp_diagnostic_message(d));
  }
  memcpy(o.syntax, prog->syntax_counts, sizeof(o.syntax));
  o.windows = prog->windows;
  o.error_windows = prog->error_windows;
  o.errors_from = prog->errors_from;
  o.errors_to = prog->errors_to;
  o.syntax_error =
      prog->tree ? ts_node_has_error(ts_tree_root_node(prog->tree)) : prog->error_windows > 0;
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  if (!vxp_program_declares_machine(prog)) {
    opts.machine = device;
    opts.host = default_host;
  }
  promise_program(prog);
  o.analysed = vxp_analyze(&an, ctx, prog, &opts);
  if (o.analysed != VXP_OK) goto done;
  promise_analysis(an, size);
  o.admitted = vxp_analysis_admitted(an);
  size_t len = 0;
  const char *json = vxp_analysis_json(an, &len);
  if (json) {
    o.json = malloc(len + 1);
    if (!o.json) abort();
    memcpy(o.json, json, len);
    o.json[len] = '\0';
    o.json_len = len;
  }
done:
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return o;
}

static void outcome_free(outcome *o) {
  for (size_t i = 0; o->diags && i < o->program_diags; i++)
    free(o->diags[i].text);
  free(o->diags);
  free(o->json);
}

static void differ(const char *what, const outcome *whole, const outcome *windowed) {
  fprintf(stderr, "fuzz_window: the windowed parse differs from the whole one: %s\n", what);
  fprintf(stderr, "windows %u, with errors %u in [%u, %u)\n", windowed->windows,
          windowed->error_windows, windowed->errors_from, windowed->errors_to);
  for (int w = 0; w < 2; w++) {
    const outcome *o = w ? windowed : whole;
    fprintf(stderr, "--- %s diagnostics\n", w ? "windowed" : "whole");
    for (size_t i = 0; o->diags && i < o->program_diags; i++)
      fprintf(stderr, "[%u, %u) %s\n", o->diags[i].start, o->diags[i].end, o->diags[i].text);
  }
  if (whole->json && windowed->json)
    fprintf(stderr, "--- whole\n%s\n--- windowed\n%s\n", whole->json, windowed->json);
  abort();
}

static bool same_diag(const diag_copy *a, const diag_copy *b) {
  return a->start == b->start && a->end == b->end && strcmp(a->text, b->text) == 0;
}

/* Whether `d` lies in [from, to) (an empty one at `to` too: a MISSING node at a window's
 * end). */
static bool inside(const diag_copy *d, uint32_t from, uint32_t to) {
  return d->start >= from && (d->start < to || (d->start == to && d->end == to));
}

/* The diagnostics of `a` and `b` outside [from, to) are the same, in order. */
static bool same_outside(const outcome *a, const outcome *b, uint32_t from, uint32_t to) {
  size_t i = 0, j = 0;
  for (;;) {
    while (i < a->program_diags && inside(&a->diags[i], from, to))
      i++;
    while (j < b->program_diags && inside(&b->diags[j], from, to))
      j++;
    if (i == a->program_diags || j == b->program_diags)
      return i == a->program_diags && j == b->program_diags;
    if (!same_diag(&a->diags[i], &b->diags[j])) return false;
    i++, j++;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint32_t window = 8 + (uint32_t)(size % 256);
  const char *text = (const char *)data;
  outcome whole = run(text, size, 0), windowed = run(text, size, window);
  if (whole.parsed != windowed.parsed) differ("parse result", &whole, &windowed);
  /* A text has a syntax error in some window exactly when its whole parse has one, and
   * then both are rejected. */
  if (whole.parsed == VXP_OK && windowed.windows && whole.syntax_error != windowed.syntax_error)
    differ("whether there is a syntax error", &whole, &windowed);
  /* A window with a syntax error is parsed alone: its error recovery stops at the window's
   * ends, so the diagnostics after its first error may differ from the whole parse's
   * (include/vxpeak.h, VXP_PROGRAM_NO_TREE), and so may the model of its items. Its text
   * must still parse, with an error diagnostic in the windows with errors and a rejection;
   * when the whole parse's syntax errors all lie in those windows (its recovery did not
   * reach out of them), the diagnostics outside them are the whole parse's. The report
   * is compared when no window has an error. */
  if (windowed.error_windows) {
    bool reported = false;
    for (size_t i = 0; i < windowed.program_diags; i++)
      reported = reported ||
                 (windowed.diags[i].error && strncmp(windowed.diags[i].text, "VXP0001 ", 8) == 0 &&
                  inside(&windowed.diags[i], windowed.errors_from, windowed.errors_to));
    if (!reported) differ("no syntax error reported in the windows with errors", &whole, &windowed);
    if (whole.analysed != windowed.analysed) differ("analysis result", &whole, &windowed);
    if (whole.analysed == VXP_OK && (whole.admitted || windowed.admitted))
      differ("a text with a syntax error admitted", &whole, &windowed);
    bool contained = whole.parsed == VXP_OK;
    for (size_t i = whole.syntax[0] + whole.syntax[1];
         contained && i < whole.syntax[0] + whole.syntax[1] + whole.syntax[2]; i++)
      contained = inside(&whole.diags[i], windowed.errors_from, windowed.errors_to);
    if (contained && !same_outside(&whole, &windowed, windowed.errors_from, windowed.errors_to))
      differ("a diagnostic outside the windows with errors", &whole, &windowed);
    outcome_free(&whole);
    outcome_free(&windowed);
    return 0;
  }
  if (whole.parsed == VXP_OK && whole.program_diags != windowed.program_diags)
    differ("program diagnostics", &whole, &windowed);
  for (size_t i = 0; whole.parsed == VXP_OK && i < whole.program_diags; i++)
    if (!same_diag(&whole.diags[i], &windowed.diags[i]))
      differ("a program diagnostic", &whole, &windowed);
  if (whole.analysed != windowed.analysed) differ("analysis result", &whole, &windowed);
  if ((whole.json == NULL) != (windowed.json == NULL) ||
      (whole.json && (whole.json_len != windowed.json_len ||
                      memcmp(whole.json, windowed.json, whole.json_len) != 0)))
    differ("JSON report", &whole, &windowed);
  outcome_free(&whole);
  outcome_free(&windowed);
  return 0;
}
