/* SPDX-License-Identifier: Apache-2.0 */
/* vxpeak.c - the command-line tool: a client of include/vxpeak.h only. `vxpeak --help`
 * lists the commands (commands.c) and every option (args.c).
 *
 * Exit status: 0 admitted (or done), 1 rejected, 2 usage or I/O error. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "vxpeak.h"

int main(int argc, char **argv) {
  /* stderr is unbuffered by default: one write per character of every diagnostic. Line
   * buffering keeps the order on a terminal and writes each line at once. */
  static char stderr_buffer[8192];
  setvbuf(stderr, stderr_buffer, _IOLBF, sizeof(stderr_buffer));
  if (vxp_version() != VXP_VERSION_NUMBER) {
    fprintf(stderr, "vxpeak: library version %s does not match the header (%s)\n",
            vxp_version_string(), VXP_VERSION_STRING);
    return VXPEAK_EXIT_USAGE;
  }
  if (argc < 2) {
    fprintf(stderr, "vxpeak: missing COMMAND (see 'vxpeak --help')\n");
    return VXPEAK_EXIT_USAGE;
  }
  const char *command = argv[1];
  if (strcmp(command, "-h") == 0 || strcmp(command, "--help") == 0 ||
      strcmp(command, "help") == 0) {
    if (argc > 2) {
      for (size_t i = 0; i < vxpeak_command_count; i++) {
        if (strcmp(vxpeak_commands[i].name, argv[2]) == 0) {
          vxpeak_help_command(stdout, &vxpeak_commands[i]);
          return VXPEAK_EXIT_OK;
        }
      }
    }
    vxpeak_help_all(stdout);
    return VXPEAK_EXIT_OK;
  }
  if (strcmp(command, "--version") == 0) {
    printf("vxpeak %s (grammar ABI %u)\n", vxp_version_string(), vxp_grammar_abi());
    return VXPEAK_EXIT_OK;
  }
  for (size_t i = 0; i < vxpeak_command_count; i++) {
    const vxpeak_command *cmd = &vxpeak_commands[i];
    if (strcmp(cmd->name, command) != 0) continue;
    vxpeak_args args;
    int rc = vxpeak_args_parse(cmd, argc - 2, argv + 2, &args);
    if (rc == -1) {
      vxpeak_help_command(stdout, cmd);
      return VXPEAK_EXIT_OK;
    }
    if (rc != VXPEAK_EXIT_OK) return rc;
    if (vxpeak_time_limit_start(args.time_limit_us) != 0) {
      fprintf(stderr, "vxpeak %s: cannot start the --time-limit timer\n", cmd->name);
      return VXPEAK_EXIT_USAGE;
    }
    return cmd->run(&args);
  }
  fprintf(stderr, "vxpeak: unknown command '%s' (commands:", command);
  for (size_t i = 0; i < vxpeak_command_count; i++)
    fprintf(stderr, "%s %s", i ? "," : "", vxpeak_commands[i].name);
  fprintf(stderr, "; see 'vxpeak --help')\n");
  return VXPEAK_EXIT_USAGE;
}
