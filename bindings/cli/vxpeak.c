/* SPDX-License-Identifier: Apache-2.0 */
/* vxpeak.c - the command-line tool: a client of include/vxpeak.h only.
 *
 *   vxpeak check FILE.vx [--machine FILE|NAME] [--host FILE|default] [-D NAME=VALUE]...
 *                [--format text|json]
 *   vxpeak emit-cuda FILE.vx [--machine FILE|NAME] [--host FILE|default] -o OUT.cu
 *
 * Exit status: 0 admitted, 1 rejected (an error diagnostic), 2 usage or I/O error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "vxpeak.h"

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "vxpeak: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'vxpeak --help'.\n");
  return VXPEAK_EXIT_USAGE;
}

static void print_help(FILE *out) {
  fprintf(out,
          "usage: vxpeak COMMAND [OPTIONS] FILE.vx\n"
          "\n"
          "Static peak-memory analysis for Vx programs: the peak working set of every\n"
          "function in every memory space, whether it fits the machine, and why not.\n"
          "\n"
          "commands:\n"
          "  check FILE.vx   analyse a program and print its verdict and peaks\n"
          "  parse FILE.vx   print the syntax tree and report syntax errors\n"
          "  emit-cuda FILE.vx -o OUT.cu\n"
          "                  generate CUDA whose device memory follows the analysis: each\n"
          "                  tile a cudaMalloc of its bytes, freed where the analysis\n"
          "                  releases it; takes --machine and --host like check\n"
          "                  e.g. vxpeak emit-cuda prog.vx -o prog.cu && nvcc -o prog prog.cu\n"
          "\n"
          "check options:\n"
          "  --machine M     the device model: a file (fleet/h100-sxm.vx) or a fleet name\n"
          "                  (h100-sxm). Default: the program's own Memory/Topology\n"
          "                  declarations, or the built-in a100-40 when it declares none.\n"
          "                  e.g. vxpeak check prog.vx --machine a100-80\n"
          "  --host H        the host model: a file, or 'default' for CPU_DRAM without a\n"
          "                  capacity. Implied as 'default' with the built-in machine.\n"
          "                  e.g. vxpeak check prog.vx --machine h200 --host default\n"
          "  -D NAME=VALUE   fold NAME as VALUE (a non-negative integer) in place of the\n"
          "                  program's `const NAME`; repeatable\n"
          "                  e.g. vxpeak check examples/llama2/prefill.vx -D BATCH=9\n"
          "  --format F      text (default) or json\n"
          "                  e.g. vxpeak check prog.vx --format json\n"
          "\n"
          "parse options:\n"
          "  --sexp          print the tree as an S-expression\n"
          "\n"
          "  -h, --help      show this help\n"
          "  --version       show the version\n"
          "\n"
          "exit status: 0 admitted (or parsed cleanly), 1 rejected (or syntax errors),\n"
          "2 usage or input/output error.\n");
}

int main(int argc, char **argv) {
  if (vxp_version() != VXP_VERSION_NUMBER) {
    fprintf(stderr, "vxpeak: library version %s does not match the header (%s)\n",
            vxp_version_string(), VXP_VERSION_STRING);
    return VXPEAK_EXIT_USAGE;
  }
  if (argc < 2) {
    print_help(stderr);
    return VXPEAK_EXIT_USAGE;
  }
  const char *command = argv[1];
  if (strcmp(command, "-h") == 0 || strcmp(command, "--help") == 0 ||
      strcmp(command, "help") == 0) {
    print_help(stdout);
    return 0;
  }
  if (strcmp(command, "--version") == 0) {
    printf("vxpeak %s (grammar ABI %u)\n", vxp_version_string(), vxp_grammar_abi());
    return 0;
  }
  if (strcmp(command, "check") == 0) return vxpeak_check(argc - 2, argv + 2);
  if (strcmp(command, "parse") == 0) return vxpeak_parse(argc - 2, argv + 2);
  if (strcmp(command, "emit-cuda") == 0) return vxpeak_emit_cuda(argc - 2, argv + 2);
  return usage_error("unknown command '%s'", command);
}
