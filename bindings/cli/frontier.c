/* SPDX-License-Identifier: Apache-2.0 */
/* frontier.c - `vxpeak frontier`: for every value of a constant (a batch size), whether the
 * program fits with the margin, one call's time, tokens per second and the bound; then the
 * largest value that fits, where memory turns to compute, and the best throughput that
 * fits. vxp_frontier_run does the work and vxp_report_frontier renders the text, the JSON
 * or the SVG picture; the command prints or writes it. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int vxpeak_frontier(const vxpeak_args *args) {
  vxpeak_program program;
  vxpeak_target target;
  vxp_frontier *f = NULL;
  vxp_report *rep = NULL;
  memset(&target, 0, sizeof(target));
  int exit_code = vxpeak_program_open(&program, args->file, VXP_PROGRAM_NO_TREE);
  if (exit_code == VXPEAK_EXIT_OK)
    exit_code = vxpeak_target_open(&target, &program,
                                   args->machine_count ? args->machines[0] : NULL, args->host);
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  vxp_analyze_options opts = vxpeak_target_options(&target, args);
  vxp_frontier_options fo;
  if (vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION) != VXP_OK) {
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  fo.name = args->sweep_name;
  fo.lo = args->sweep_lo;
  fo.hi = args->sweep_hi;
  fo.margin_ppm = args->margin_ppm;
  fo.function = args->function;
  fo.space = args->space;
  fo.traffic = args->no_reuse ? VXP_TRAFFIC_NO_REUSE : VXP_TRAFFIC_COMPULSORY;
  if (args->tokens_name && args->tokens_name[0] >= '0' && args->tokens_name[0] <= '9')
    fo.tokens_per_call = strtoull(args->tokens_name, NULL, 10);
  else
    fo.tokens_const = args->tokens_name;
  int rc = vxp_frontier_run(&f, program.ctx, program.prog, &opts, &fo);
  if (rc != VXP_OK) {
    exit_code = vxpeak_fail(program.ctx, rc, "frontier");
    goto done;
  }
  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.format = strcmp(args->format, "json") == 0  ? VXP_REPORT_JSON
              : strcmp(args->format, "svg") == 0 ? VXP_REPORT_SVG
                                                 : VXP_REPORT_TEXT;
  ro.machine = vxpeak_target_name(&target);
  rc = vxp_report_frontier(&rep, program.ctx, f, &ro);
  if (rc != VXP_OK) {
    exit_code = vxpeak_fail(program.ctx, rc, "frontier");
    goto done;
  }
  if (ro.format == VXP_REPORT_SVG) {
    FILE *out =
        strcmp(args->output ? args->output : "-", "-") == 0 ? stdout : fopen(args->output, "w");
    size_t len = 0;
    const char *text = vxp_report_text(rep, &len);
    bool ok = out && fwrite(text, 1, len, out) == len;
    if (out && out != stdout && fclose(out) != 0) ok = false;
    if (!ok) {
      fprintf(stderr, "vxpeak: frontier: cannot write %s\n", args->output);
      exit_code = VXPEAK_EXIT_USAGE;
      goto done;
    }
  } else {
    vxpeak_print_report(rep);
  }
  exit_code = vxp_frontier_largest_fit(f) ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
done:
  vxp_report_free(rep);
  vxp_frontier_free(f);
  vxpeak_target_close(&target);
  vxpeak_program_close(&program);
  return exit_code;
}
