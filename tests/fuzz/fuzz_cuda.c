/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_cuda.c - libFuzzer harness: the input is a Vx program, analysed against the
 * built-in a100-40 and turned into CUDA (what `vxpeak emit-cuda` does), whether or not it
 * was admitted. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>

#include "vxpeak.h"

#include "builtin_machines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vxp_context *ctx = NULL;
  if (vxp_context_new(&ctx, NULL) != VXP_OK) abort();
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  vxp_analysis *an = NULL;
  vxp_cuda *cu = NULL;
  if (vxp_source_new(&src, ctx, "fuzz.vx", (const char *)data, size) != VXP_OK ||
      vxp_program_parse(&prog, ctx, src) != VXP_OK)
    goto done;
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  if (!vxp_program_declares_machine(prog)) {
    opts.machine = device;
    opts.host = default_host;
  }
  if (vxp_analyze(&an, ctx, prog, &opts) != VXP_OK) goto done;
  if (vxp_cuda_generate(&cu, ctx, an) == VXP_OK) {
    size_t len;
    (void)vxp_cuda_text(cu, &len);
    for (size_t i = 0; i < vxp_cuda_diagnostic_count(cu); i++)
      (void)vxp_diagnostic_message(vxp_cuda_diagnostic(cu, i));
  }
done:
  vxp_cuda_free(cu);
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return 0;
}
