/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_cuda.c - libFuzzer harness: the input is a Vx program, analysed against the
 * built-in a100-40 and turned into CUDA (what `vxpeak emit-cuda` does), whether or not it
 * was admitted. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>

#include "vxpeak.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The built-in machines are made once (immutable, so inputs on other contexts may read
 * them), so that each execution measures the input's own work. Each input gets a context
 * of its own: tree-sitter's parser keeps freed nodes for its next parse, so on a shared
 * context an input's mallocs and frees differ, and libFuzzer then runs it again under a
 * full LeakSanitizer scan (that was most of an execution's time); freeing the context
 * frees the parser with it. */
static vxp_context *machines_ctx;
static vxp_machine *device, *default_host;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  if (vxp_context_new(&machines_ctx, NULL) != VXP_OK ||
      vxp_machine_builtin(&device, machines_ctx, "a100-40") != VXP_OK ||
      vxp_machine_builtin(&default_host, machines_ctx, "host-default") != VXP_OK)
    abort();
  return 0;
}

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
