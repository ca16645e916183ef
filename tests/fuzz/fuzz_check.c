/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_check.c - libFuzzer harness: the input is a Vx program. It is parsed (and its tree
 * printed), analysed against the built-in a100-40 with the default host, and every report
 * the library renders is produced: JSON, SARIF, the roofline of each function, and each
 * diagnostic read field by field. Any crash, leak or sanitizer report is a finding. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>

#include "vxpeak.h"

#include "builtin_machines.h"

static void touch_diagnostic(const vxp_diagnostic *d) {
  volatile size_t sink = 0;
  const char *code = vxp_diagnostic_code(d), *message = vxp_diagnostic_message(d);
  sink += (code ? (size_t)code[0] : 0) + (message ? (size_t)message[0] : 0);
  if (vxp_diagnostic_has_range(d)) {
    vxp_range r = vxp_diagnostic_range(d);
    sink += vxp_source_utf16_column(vxp_diagnostic_source(d), r.start);
  }
  for (size_t i = 0; i < vxp_diagnostic_note_count(d); i++)
    touch_diagnostic(vxp_diagnostic_note(d, i));
  (void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vxp_context *ctx = NULL;
  if (vxp_context_new(&ctx, NULL) != VXP_OK) abort();
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  vxp_analysis *an = NULL;
  if (vxp_source_new(&src, ctx, "fuzz.vx", (const char *)data, size) != VXP_OK ||
      vxp_program_parse(&prog, ctx, src) != VXP_OK)
    goto done;
  (void)vxp_program_sexp(prog);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  if (!vxp_program_declares_machine(prog)) {
    opts.machine = device;
    opts.host = default_host;
  }
  if (vxp_analyze(&an, ctx, prog, &opts) != VXP_OK) goto done;
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(an); i++)
    touch_diagnostic(vxp_analysis_diagnostic(an, i));
  size_t len;
  (void)vxp_analysis_json(an, &len);
  (void)vxp_analysis_sarif(an, &len);
  for (size_t i = 0; i < vxp_analysis_function_count(an); i++) {
    vxp_roofline *rf = NULL;
    if (vxp_roofline_new(&rf, ctx, an, vxp_analysis_function(an, i)) == VXP_OK)
      vxp_roofline_free(rf);
  }
done:
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return 0;
}
