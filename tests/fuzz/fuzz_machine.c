/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_machine.c - libFuzzer harness: the input is a machine model (what `--machine FILE`
 * reads). It is loaded, then a fixed program that places tiles in several spaces and
 * moves them is analysed against it, and the reports and rooflines are rendered. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "vxpeak.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* One context and the built-in machines for every input, as an editor keeps them: made
 * once, so that each execution measures the input's own work. */
static vxp_context *ctx;
static vxp_machine *device, *default_host;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  if (vxp_context_new(&ctx, NULL) != VXP_OK ||
      vxp_machine_builtin(&device, ctx, "a100-40") != VXP_OK ||
      vxp_machine_builtin(&default_host, ctx, "host-default") != VXP_OK)
    abort();
  return 0;
}

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vxp_source *msrc = NULL, *psrc = NULL;
  vxp_machine *machine = NULL;
  vxp_program *prog = NULL;
  vxp_analysis *an = NULL;
  if (vxp_source_new(&msrc, ctx, "machine.vx", (const char *)data, size) != VXP_OK ||
      vxp_machine_load(&machine, ctx, msrc) != VXP_OK ||
      vxp_source_new(&psrc, ctx, "prog.vx", program, strlen(program)) != VXP_OK ||
      vxp_program_parse(&prog, ctx, psrc) != VXP_OK)
    goto done;
  for (size_t i = 0; i < vxp_machine_diagnostic_count(machine); i++)
    (void)vxp_diagnostic_message(vxp_machine_diagnostic(machine, i));
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = machine;
  if (vxp_analyze(&an, ctx, prog, &opts) != VXP_OK) goto done;
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
  vxp_machine_free(machine);
  vxp_source_free(psrc);
  vxp_source_free(msrc);
  return 0;
}
