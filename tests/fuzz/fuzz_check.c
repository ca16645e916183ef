/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_check.c - libFuzzer harness: the input is a Vx program. It is parsed (and its tree
 * printed), analysed against the built-in a100-40 with the default host, and every report
 * the library renders is produced: JSON, SARIF, the roofline of each function, and each
 * diagnostic read field by field. Any crash, leak or sanitizer report is a finding, and so is
 * a broken promise of include/vxpeak.h about what the accessors return (promises.h). */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>

#include "vxpeak.h"

#include "builtin_machines.h"
#include "promises.h"

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
  promise_program(prog);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  if (!vxp_program_declares_machine(prog)) {
    opts.machine = device;
    opts.host = default_host;
  }
  if (vxp_analyze(&an, ctx, prog, &opts) != VXP_OK) goto done;
  /* Every diagnostic field by field, every table, the JSON and SARIF texts, and the
   * roofline of each function, each against what the header promises of it. */
  promise_analysis(an, size);
  promise_rooflines(ctx, an);
done:
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return 0;
}
