/* SPDX-License-Identifier: Apache-2.0 */
/* emit.c - `vxpeak emit-cuda`: write the CUDA program whose memory matches the analysis. */
#include <errno.h>
#include <string.h>

#include "cli.h"

int vxpeak_emit_cuda(const vxpeak_args *args) {
  const char *file = args->file, *output = args->output;
  vxpeak_session s;
  int exit_code = vxpeak_session_open(&s, args);
  vxp_cuda *cu = NULL;
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  int rc = vxp_cuda_generate_flags(&cu, s.program.ctx, s.an,
                                   args->allow_rejected ? VXP_CUDA_ALLOW_REJECTED : 0);
  if (rc != VXP_OK) {
    exit_code = vxpeak_fail(s.program.ctx, rc, "code generation failed");
    goto done;
  }
  size_t len;
  const char *text = vxp_cuda_text(cu, &len);
  if (!text) {
    bool color = vxpeak_use_color(stderr);
    for (size_t i = 0; i < vxp_cuda_diagnostic_count(cu); i++)
      vxpeak_render_diagnostic(stderr, vxp_cuda_diagnostic(cu, i), color);
    fprintf(stderr, "vxpeak emit-cuda: %s: no CUDA written (%zu error%s)\n", file,
            vxp_cuda_diagnostic_count(cu), vxp_cuda_diagnostic_count(cu) == 1 ? "" : "s");
    exit_code = VXPEAK_EXIT_REJECTED;
    goto done;
  }
  if (vxp_analysis_error_count(s.an) > 0) {
    /* --allow-rejected: generated, but the analysis' errors are said, as warnings. */
    bool color = vxpeak_use_color(stderr);
    for (size_t i = 0; i < vxp_analysis_diagnostic_count(s.an); i++) {
      const vxp_diagnostic *d = vxp_analysis_diagnostic(s.an, i);
      if (vxp_diagnostic_severity(d) == VXP_SEVERITY_ERROR)
        vxpeak_render_diagnostic(stderr, d, color);
    }
    fprintf(stderr,
            "vxpeak emit-cuda: warning: %s: the analysis rejected this program (%zu "
            "error%s); generated anyway because --allow-rejected was given\n",
            file, vxp_analysis_error_count(s.an), vxp_analysis_error_count(s.an) == 1 ? "" : "s");
  }
  FILE *out = strcmp(output, "-") == 0 ? stdout : fopen(output, "wb");
  if (!out) {
    fprintf(stderr, "vxpeak emit-cuda: cannot write '%s': %s\n", output, strerror(errno));
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  bool ok = fwrite(text, 1, len, out) == len;
  if (out != stdout)
    ok = (fclose(out) == 0) && ok;
  else
    ok = (fflush(out) == 0) && ok;
  if (!ok) {
    fprintf(stderr, "vxpeak emit-cuda: cannot write '%s': %s\n", output, strerror(errno));
    exit_code = VXPEAK_EXIT_USAGE;
  }
done:
  vxp_cuda_free(cu);
  vxpeak_session_close(&s);
  return exit_code;
}
