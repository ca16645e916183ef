/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_machine.c - libFuzzer harness: the input is a machine model (what `--machine FILE`
 * reads). It is loaded, then a fixed program that places tiles in several spaces and
 * moves them is analysed against it, and the reports and rooflines are rendered; what they
 * return is held to include/vxpeak.h's promises (promises.h). */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "vxpeak.h"

#include "promises.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Tiles in the spaces the fleet's models name, moved between them, in loops and a call. */
static const char program[] = "Memory CPU_DRAM { managed: explicit }\n"
                              "fn k() -> i32 {\n"
                              "  let h = Tensor<f32, [256, 256]>::uninit();\n"
                              "  let x = transfer(h, Memory::HBM);\n"
                              "  let y = transfer(x, Memory::L2);\n"
                              "  for i in 0..8 {\n"
                              "    let s = Tensor<f16, [64, 64]>::uninit();\n"
                              "    let t = transfer(s, Memory::SMEM);\n"
                              "    spawn on(Topology::Device) { t[0][0] = y[0][0]; }\n"
                              "  }\n"
                              "  return 0;\n"
                              "}\n"
                              "fn main() -> i32 { let a = transfer(Tensor<u8, [1024]>::uninit(), "
                              "Memory::HBM); return k(); }\n";

/* The program is parsed once (immutable, so inputs on other contexts may analyse it), so
 * that each execution measures the machine's own work. Each input gets a context of its
 * own: tree-sitter's parser keeps freed nodes for its next parse, so on a shared context
 * an input's mallocs and frees differ, and libFuzzer then runs it again under a full
 * LeakSanitizer scan (that was most of an execution's time); freeing the context frees
 * the parser with it. */
static vxp_context *program_ctx;
static vxp_source *psrc;
static vxp_program *prog;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  if (vxp_context_new(&program_ctx, NULL) != VXP_OK ||
      vxp_source_new(&psrc, program_ctx, "prog.vx", program, strlen(program)) != VXP_OK ||
      vxp_program_parse(&prog, program_ctx, psrc) != VXP_OK)
    abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vxp_context *ctx = NULL;
  if (vxp_context_new(&ctx, NULL) != VXP_OK) abort();
  vxp_source *msrc = NULL;
  vxp_machine *machine = NULL;
  vxp_analysis *an = NULL;
  if (vxp_source_new(&msrc, ctx, "machine.vx", (const char *)data, size) != VXP_OK ||
      vxp_machine_load(&machine, ctx, msrc) != VXP_OK)
    goto done;
  promise_machine(machine);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = machine;
  if (vxp_analyze(&an, ctx, prog, &opts) != VXP_OK) goto done;
  promise_analysis(an, sizeof(program) - 1);
  promise_rooflines(ctx, an);
done:
  vxp_analysis_free(an);
  vxp_machine_free(machine);
  vxp_source_free(msrc);
  vxp_context_free(ctx);
  return 0;
}
