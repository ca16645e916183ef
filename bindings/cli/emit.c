/* SPDX-License-Identifier: Apache-2.0 */
/* emit.c - `vxpeak emit-cuda`: write the CUDA program whose memory matches the analysis. */
#include <errno.h>
#include <string.h>

#include "cli.h"

/* The file the program is streamed to (nothing is created when the program is refused: the
 * library knows it before it writes), and what the first piece says first. */
typedef struct cuda_file {
  vxpeak_out_file out;
  const vxp_analysis *an;
  const char *label; /* the input, for the --allow-rejected warning */
} cuda_file;

/* --allow-rejected: generated, but the analysis' errors are said, as warnings (before the
 * program, as when it was written whole). */
static void warn_rejected(const vxp_analysis *an, const char *file) {
  bool color = vxpeak_use_color(stderr);
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(an); i++) {
    const vxp_diagnostic *d = vxp_analysis_diagnostic(an, i);
    if (vxp_diagnostic_severity(d) == VXP_SEVERITY_ERROR)
      vxpeak_render_diagnostic(stderr, d, color);
  }
  fprintf(stderr,
          "vxpeak emit-cuda: warning: %s: the analysis rejected this program (%zu "
          "error%s); generated anyway because --allow-rejected was given\n",
          file, vxp_analysis_error_count(an), vxp_analysis_error_count(an) == 1 ? "" : "s");
}

static int write_piece(void *arg, const char *bytes, size_t len) {
  cuda_file *cf = arg;
  if (!cf->out.f && vxp_analysis_error_count(cf->an) > 0) warn_rejected(cf->an, cf->label);
  return vxpeak_out_file_write(&cf->out, bytes, len);
}

int vxpeak_emit_cuda(const vxpeak_args *args) {
  const char *file = args->file, *output = args->output;
  vxpeak_session s;
  int exit_code = vxpeak_session_open(&s, args);
  cuda_file cf = {{0}, s.an, file};
  vxpeak_out_file_init(&cf.out, output);
  vxp_cuda *cu = NULL;
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  /* Streamed: the program of a long text is generated window by window and never held
   * whole (vxp_cuda_generate_write). */
  int rc =
      vxp_cuda_generate_write(&cu, s.program.ctx, s.an,
                              args->allow_rejected ? VXP_CUDA_ALLOW_REJECTED : 0, write_piece, &cf);
  bool closed = vxpeak_out_file_close(&cf.out);
  if (rc == VXP_EIO || (rc == VXP_OK && !closed)) {
    fprintf(stderr, "vxpeak emit-cuda: cannot write '%s': %s\n", output, strerror(cf.out.error));
    exit_code = VXPEAK_EXIT_USAGE;
  } else if (rc != VXP_OK) {
    exit_code = vxpeak_fail(s.program.ctx, rc, "code generation failed");
  } else if (vxp_cuda_diagnostic_count(cu) > 0) {
    bool color = vxpeak_use_color(stderr);
    for (size_t i = 0; i < vxp_cuda_diagnostic_count(cu); i++)
      vxpeak_render_diagnostic(stderr, vxp_cuda_diagnostic(cu, i), color);
    fprintf(stderr, "vxpeak emit-cuda: %s: no CUDA written (%zu error%s)\n", file,
            vxp_cuda_diagnostic_count(cu), vxp_cuda_diagnostic_count(cu) == 1 ? "" : "s");
    exit_code = VXPEAK_EXIT_REJECTED;
  }
  /* A program cut short (refused by the writer, or its last bytes not written) is not left
   * behind as if it were one. */
  if (rc != VXP_OK || !closed) vxpeak_out_file_discard(&cf.out);
done:
  vxpeak_out_file_close(&cf.out);
  vxp_cuda_free(cu);
  vxpeak_session_close(&s);
  return exit_code;
}
