/* SPDX-License-Identifier: Apache-2.0 */
/* plot.c - `vxpeak plot`: the bytes live along program order as SVG. The library draws the
 * picture (vxp_report_plot); the command chooses the analysis and the selection and writes
 * the file. */
#include <errno.h>
#include <string.h>

#include "cli.h"

int vxpeak_plot(const vxpeak_args *args) {
  vxpeak_session s;
  int exit_code = vxpeak_session_open(&s, args);
  vxp_report *rep = NULL;
  FILE *out = NULL;
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
  int rc = vxp_report_plot(&rep, s.program.ctx, s.an, &ro);
  if (rc == VXP_ENOTFOUND) {
    fprintf(stderr, "vxpeak plot: %s\n", vxp_context_errmsg(s.program.ctx));
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  if (rc != VXP_OK) {
    exit_code = vxpeak_fail(s.program.ctx, rc, "plot");
    goto done;
  }
  out = strcmp(args->output, "-") == 0 ? stdout : fopen(args->output, "w");
  if (!out) {
    fprintf(stderr, "vxpeak plot: cannot write '%s': %s\n", args->output, strerror(errno));
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  size_t len;
  const char *text = vxp_report_text(rep, &len);
  bool ok = fwrite(text, 1, len, out) == len;
  ok = (out == stdout ? fflush(out) == 0 : fclose(out) == 0) && ok;
  out = NULL;
  if (!ok) {
    fprintf(stderr, "vxpeak plot: cannot write '%s': %s\n", args->output, strerror(errno));
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  exit_code = vxp_analysis_admitted(s.an) ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
done:
  if (out && out != stdout) fclose(out);
  vxp_report_free(rep);
  vxpeak_session_close(&s);
  return exit_code;
}
