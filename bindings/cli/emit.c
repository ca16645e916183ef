/* SPDX-License-Identifier: Apache-2.0 */
/* emit.c - `vxpeak emit-cuda`: write the CUDA program whose memory matches the analysis. */
#include <errno.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: vxpeak emit-cuda FILE.vx [--machine FILE|NAME] [--host FILE|default] -o OUT.cu\n"
          "Generate CUDA C++ whose device allocations are the analysis' tiles, freed where the\n"
          "analysis releases them; the program prints its measured peaks as JSON at exit.\n"
          "'-o -' writes to standard output. Exit status: 0 written, 1 refused (a construct\n"
          "outside the subset, reported as error[VXP0800]), 2 usage or I/O error.\n");
}

int vxpeak_emit_cuda(int argc, char **argv) {
  const char *file = NULL, *machine = NULL, *host = NULL, *output = NULL;
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    const char **slot = NULL;
    if (strcmp(arg, "--machine") == 0) slot = &machine;
    else if (strcmp(arg, "--host") == 0) slot = &host;
    else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) slot = &output;
    else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      usage(stdout);
      return VXPEAK_EXIT_OK;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      fprintf(stderr, "vxpeak emit-cuda: unknown option '%s'\nTry 'vxpeak --help'.\n", arg);
      return VXPEAK_EXIT_USAGE;
    } else if (!file) {
      file = arg;
      continue;
    } else {
      fprintf(stderr, "vxpeak emit-cuda: unexpected argument '%s' (one FILE.vx at a time)\n", arg);
      return VXPEAK_EXIT_USAGE;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "vxpeak emit-cuda: option '%s' needs a value\n", arg);
      return VXPEAK_EXIT_USAGE;
    }
    *slot = argv[++i];
  }
  if (!file || !output) {
    fprintf(stderr, "vxpeak emit-cuda: missing %s\n", file ? "-o OUT.cu" : "FILE.vx");
    usage(stderr);
    return VXPEAK_EXIT_USAGE;
  }
  vxpeak_session s;
  int exit_code = vxpeak_session_open(&s, file, machine, host);
  vxp_cuda *cu = NULL;
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  int rc = vxp_cuda_generate(&cu, s.an);
  if (rc != VXP_OK) {
    exit_code = vxpeak_fail(s.ctx, rc, "code generation failed");
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
  FILE *out = strcmp(output, "-") == 0 ? stdout : fopen(output, "wb");
  if (!out) {
    fprintf(stderr, "vxpeak emit-cuda: cannot write '%s': %s\n", output, strerror(errno));
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  bool ok = fwrite(text, 1, len, out) == len;
  if (out != stdout) ok = (fclose(out) == 0) && ok;
  else ok = (fflush(out) == 0) && ok;
  if (!ok) {
    fprintf(stderr, "vxpeak emit-cuda: cannot write '%s': %s\n", output, strerror(errno));
    exit_code = VXPEAK_EXIT_USAGE;
  }
done:
  vxp_cuda_free(cu);
  vxpeak_session_close(&s);
  return exit_code;
}
