/* SPDX-License-Identifier: Apache-2.0 */
/* explain.c - `vxpeak explain`: what fills the peak. The library renders the report
 * (vxp_report_explain); the command selects, prints it, and exits with the verdict. */
#include <string.h>

#include "cli.h"

int vxpeak_explain(const vxpeak_args *args) {
  vxpeak_session s;
  vxp_report *rep = NULL;
  vxp_formula *formula = NULL;
  int exit_code = vxpeak_session_open(&s, args);
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  if (!vxpeak_check_selection(args, s.an)) {
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  exit_code = vxpeak_symbolic_open(args, &s, &formula);
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  vxpeak_render_all(stderr, s.an);
  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.format = strcmp(args->format, "json") == 0 ? VXP_REPORT_JSON : VXP_REPORT_TEXT;
  ro.function = args->function;
  ro.space = args->space;
  ro.machine = vxpeak_target_name(&s.target);
  ro.formula = formula;
  int rc = vxp_report_explain(&rep, s.program.ctx, s.an, &ro);
  if (rc != VXP_OK) {
    exit_code = vxpeak_fail(s.program.ctx, rc, "explain");
    goto done;
  }
  vxpeak_print_report(rep);
  exit_code = vxp_analysis_admitted(s.an) ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
done:
  vxp_formula_free(formula);
  vxp_report_free(rep);
  vxpeak_session_close(&s);
  return exit_code;
}
