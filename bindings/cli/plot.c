/* SPDX-License-Identifier: Apache-2.0 */
/* plot.c - `vxpeak plot`: the bytes live along program order as SVG. The library draws the
 * picture (vxp_report_plot); the command chooses the analysis and the selection and writes
 * the file. */
#include <string.h>

#include "cli.h"

int vxpeak_plot(const vxpeak_args *args) {
  vxpeak_session s;
  int exit_code = vxpeak_session_open(&s, args);
  vxpeak_out_file pf;
  vxpeak_out_file_init(&pf, args->output);
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  if (!vxpeak_check_selection(args, s.an)) {
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  vxpeak_render_all(stderr, s.an);
  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.format = VXP_REPORT_SVG;
  ro.function = args->function;
  ro.space = args->space;
  /* Streamed: a plot of 10^5 panels is hundreds of megabytes, never held whole. */
  int rc = vxp_report_plot_write(s.program.ctx, s.an, &ro, vxpeak_out_file_write, &pf);
  bool closed = vxpeak_out_file_close(&pf);
  if (rc == VXP_ENOTFOUND) {
    fprintf(stderr, "vxpeak plot: %s\n", vxp_context_errmsg(s.program.ctx));
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  if (rc == VXP_EIO || (rc == VXP_OK && !closed)) {
    fprintf(stderr, "vxpeak plot: cannot write '%s': %s\n", args->output, strerror(pf.error));
    exit_code = VXPEAK_EXIT_USAGE;
  } else if (rc != VXP_OK) {
    exit_code = vxpeak_fail(s.program.ctx, rc, "plot");
  } else {
    exit_code = vxp_analysis_admitted(s.an) ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
  }
  /* A picture cut short (refused, or its last bytes not written) is not left behind as if
   * it were one. */
  if (rc != VXP_OK || !closed) vxpeak_out_file_discard(&pf);
done:
  vxpeak_out_file_close(&pf);
  vxpeak_session_close(&s);
  return exit_code;
}
