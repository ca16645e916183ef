/* SPDX-License-Identifier: Apache-2.0 */
/* roofline.c - `vxpeak roofline`: how fast one call of each function with device work can
 * run on the machine. The library renders the report (vxp_report_roofline); the command
 * reads --tokens-per-call, prints the report, and exits with the verdict. */
#include <string.h>

#include "cli.h"

int vxpeak_roofline(const vxpeak_args *args) {
  vxpeak_session s;
  vxp_report *rep = NULL;
  int exit_code = vxpeak_session_open(&s, args);
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  if (!vxpeak_check_selection(args, s.an)) {
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  vxpeak_render_all(stderr, s.an);
  uint64_t tokens = 1;
  if (!vxpeak_tokens_per_call(args, s.program.ctx, s.an, &tokens)) {
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.format = strcmp(args->format, "json") == 0 ? VXP_REPORT_JSON : VXP_REPORT_TEXT;
  ro.function = args->function;
  ro.machine = vxpeak_target_name(&s.target);
  ro.traffic = args->no_reuse ? VXP_TRAFFIC_NO_REUSE : VXP_TRAFFIC_COMPULSORY;
  ro.tokens_per_call = tokens;
  ro.tokens_name = args->tokens_name;
  int rc = vxp_report_roofline(&rep, s.program.ctx, s.an, &ro);
  if (rc != VXP_OK) {
    exit_code = vxpeak_fail(s.program.ctx, rc, "roofline");
    goto done;
  }
  vxpeak_print_report(rep);
  exit_code = vxp_analysis_admitted(s.an) ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
done:
  vxp_report_free(rep);
  vxpeak_session_close(&s);
  return exit_code;
}
