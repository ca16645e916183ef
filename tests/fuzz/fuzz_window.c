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
 * harnesses never reach the windowed path: their inputs are too short. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vxpeak.h"

#include "builtin_machines.h"
#include "context.h"
#include "program.h"

/* One parse and analysis of `text`: the JSON report (malloc'd, NULL when the analysis did not
 * run) and the program's diagnostic count. */
typedef struct outcome {
  int parsed, analysed;
  bool syntax_error; /* the whole parse's tree has an error or missing node */
  size_t program_diags;
  char *json;
  size_t json_len;
} outcome;

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
  o.syntax_error = prog->tree && ts_node_has_error(ts_tree_root_node(prog->tree));
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  if (!vxp_program_declares_machine(prog)) {
    opts.machine = device;
    opts.host = default_host;
  }
  o.analysed = vxp_analyze(&an, ctx, prog, &opts);
  if (o.analysed != VXP_OK) goto done;
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

static void differ(const char *what, const outcome *whole, const outcome *windowed) {
  fprintf(stderr, "fuzz_window: the windowed parse differs from the whole one: %s\n", what);
  if (whole->json && windowed->json)
    fprintf(stderr, "--- whole\n%s\n--- windowed\n%s\n", whole->json, windowed->json);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint32_t window = 8 + (uint32_t)(size % 256);
  const char *text = (const char *)data;
  outcome whole = run(text, size, 0), windowed = run(text, size, window);
  /* A window with a syntax error is parsed alone: its error recovery stops at the window's
   * ends, so the diagnostics after its first error may differ from the whole parse's
   * (include/vxpeak.h, VXP_PROGRAM_NO_TREE). Such a text must still parse, and its report
   * is only compared when the whole parse has no error. */
  if (whole.syntax_error) {
    if (whole.parsed != windowed.parsed) differ("parse result", &whole, &windowed);
    free(whole.json);
    free(windowed.json);
    return 0;
  }
  if (whole.parsed != windowed.parsed) differ("parse result", &whole, &windowed);
  if (whole.parsed == VXP_OK && whole.program_diags != windowed.program_diags)
    differ("program diagnostics", &whole, &windowed);
  if (whole.analysed != windowed.analysed) differ("analysis result", &whole, &windowed);
  if ((whole.json == NULL) != (windowed.json == NULL) ||
      (whole.json && (whole.json_len != windowed.json_len ||
                      memcmp(whole.json, windowed.json, whole.json_len) != 0)))
    differ("JSON report", &whole, &windowed);
  free(whole.json);
  free(windowed.json);
  return 0;
}
