/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_cuda.c - libFuzzer harness: the input is a Vx program, analysed against the
 * built-in a100-40 and turned into CUDA (what `vxpeak emit-cuda` does), whether or not it
 * was admitted; the text and its diagnostics are held to include/vxpeak.h's promises. */
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
    size_t len = 0;
    const char *text = vxp_cuda_text(cu, &len);
    if (text) PROMISE(text[len] == '\0'); /* NUL-terminated (a string literal may hold one) */
    size_t n = vxp_cuda_diagnostic_count(cu);
    for (size_t i = 0; i < n; i++)
      promise_diagnostic(vxp_cuda_diagnostic(cu, i));
    PROMISE(vxp_cuda_diagnostic(cu, n) == NULL);
    PROMISE((text == NULL) == (n > 0)); /* refused, and the diagnostics say why */
  }
done:
  vxp_cuda_free(cu);
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return 0;
}
