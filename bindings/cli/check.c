/* SPDX-License-Identifier: Apache-2.0 */
/* check.c - `vxpeak check`: analyse a program against a machine and print the verdict
 * (text: vxp_report_check), the report (json) or the diagnostics for code scanning (sarif).
 * The library renders all three; the command prints them and exits with the verdict. */
#include <string.h>

#include "cli.h"

int vxpeak_check(const vxpeak_args *args) {
  vxpeak_session s;
  vxp_report *rep = NULL;
  vxp_formula *formula = NULL;
  int exit_code = vxpeak_session_open(&s, args);
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  if (args->symbolic_count && strcmp(args->format, "sarif") == 0) {
    fprintf(stderr, "vxpeak check: --symbolic gives text or JSON, not SARIF\n");
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  exit_code = vxpeak_symbolic_open(args, &s, &formula);
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  if (strcmp(args->format, "text") == 0) {
    vxpeak_render_all(stderr, s.an);
    vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
    ro.machine = vxpeak_target_name(&s.target);
    ro.margin_ppm = args->margin_ppm;
    ro.formula = formula;
    int rc = vxp_report_check(&rep, s.program.ctx, s.an, &ro);
    if (rc != VXP_OK) {
      exit_code = vxpeak_fail(s.program.ctx, rc, "check");
      goto done;
    }
    vxpeak_print_report(rep);
  } else if (strcmp(args->format, "json") == 0) {
    /* streamed: the report of a long program with many diagnostics is many times its size */
    vxpeak_out_file out;
    vxpeak_out_file_init(&out, "-");
    int rc = vxp_analysis_json_write_symbolic(s.an, formula, vxpeak_out_file_write, &out);
    bool closed = vxpeak_out_file_close(&out); /* the last piece may sit in stdio's buffer */
    if (rc == VXP_EIO || (rc == VXP_OK && !closed)) {
      fprintf(stderr, "vxpeak check: cannot write the report to standard output: %s\n",
              strerror(out.error));
      exit_code = VXPEAK_EXIT_USAGE;
      goto done;
    }
    if (rc != VXP_OK) {
      exit_code = vxpeak_fail(s.program.ctx, rc, "cannot render the report");
      goto done;
    }
  } else {
    size_t len;
    const char *text = vxp_analysis_sarif(s.an, &len);
    if (!text) {
      /* The context says why: out of memory, or cancelled by --time-limit. */
      exit_code = vxpeak_fail(s.program.ctx, vxp_context_errcode(s.program.ctx),
                              "cannot render the report");
      goto done;
    }
    fwrite(text, 1, len, stdout);
  }
  exit_code = vxp_analysis_admitted(s.an) && !vxp_analysis_inside_margin(s.an, args->margin_ppm)
                  ? VXPEAK_EXIT_OK
                  : VXPEAK_EXIT_REJECTED;
done:
  vxp_formula_free(formula);
  vxp_report_free(rep);
  vxpeak_session_close(&s);
  return exit_code;
}
