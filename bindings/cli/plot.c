/* SPDX-License-Identifier: Apache-2.0 */
/* plot.c - `vxpeak plot`: the bytes live along program order as SVG. The library draws the
 * picture (vxp_report_plot); the command chooses the analysis and the selection and writes
 * the file. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* The file the picture is streamed to, opened at the first piece (nothing is created when
 * there is nothing to plot). */
typedef struct plot_file {
  const char *path;
  FILE *f;
  bool opened; /* a regular file was opened (so a picture cut short is removed) */
  int error;   /* errno of the failed open or write, or 0 */
} plot_file;

static int write_piece(void *arg, const char *bytes, size_t len) {
  plot_file *pf = arg;
  if (!pf->f) {
    pf->f = strcmp(pf->path, "-") == 0 ? stdout : fopen(pf->path, "w");
    if (!pf->f) {
      pf->error = errno;
      return 1;
    }
    /* Only a regular file is removed when the picture is cut short: `-o /dev/full` or a
     * FIFO is a place to write, not a file this command made. */
    struct stat st;
    pf->opened = pf->f != stdout && fstat(fileno(pf->f), &st) == 0 && S_ISREG(st.st_mode);
  }
  if (fwrite(bytes, 1, len, pf->f) != len) {
    pf->error = errno;
    return 1;
  }
  return 0;
}

/* Close the file; false (with pf->error) when the last bytes could not be written. */
static bool close_file(plot_file *pf) {
  if (!pf->f) return true;
  bool ok = pf->f == stdout ? fflush(pf->f) == 0 : fclose(pf->f) == 0;
  if (!ok && !pf->error) pf->error = errno;
  pf->f = NULL;
  return ok;
}

int vxpeak_plot(const vxpeak_args *args) {
  vxpeak_session s;
  int exit_code = vxpeak_session_open(&s, args);
  plot_file pf = {args->output, NULL, false, 0};
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
  int rc = vxp_report_plot_write(s.program.ctx, s.an, &ro, write_piece, &pf);
  bool closed = close_file(&pf);
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
  if ((rc != VXP_OK || !closed) && pf.opened) remove(args->output);
done:
  close_file(&pf);
  vxpeak_session_close(&s);
  return exit_code;
}
