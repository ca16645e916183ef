/* SPDX-License-Identifier: Apache-2.0 */
/* cli.h - shared declarations of the vxpeak command's source files. */
#ifndef VXPEAK_CLI_H
#define VXPEAK_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "vxpeak.h"

enum {
  VXPEAK_EXIT_OK = 0,
  VXPEAK_EXIT_REJECTED = 1,
  VXPEAK_EXIT_USAGE = 2
};

/* Commands: argv holds the command's own arguments (after the command word). */
int vxpeak_check(int argc, char **argv);
int vxpeak_parse(int argc, char **argv);
int vxpeak_emit_cuda(int argc, char **argv);

/* A program read, its machine models loaded and the analysis made (session.c). */
typedef struct vxpeak_session {
  vxp_context *ctx;
  vxp_source *src, *machine_src, *host_src;
  vxp_program *prog;
  vxp_machine *machine, *host;
  vxp_analysis *an;
} vxpeak_session;

/* Open a session on `file`: --machine and --host as given (NULL: the program's own model,
 * or the built-in default when it declares none). Returns an exit code; close the session
 * whatever it returns. */
int vxpeak_session_open(vxpeak_session *s, const char *file, const char *machine_arg,
                        const char *host_arg);
void vxpeak_session_close(vxpeak_session *s);

/* Print "vxpeak: <message>" for a failed library call and return VXPEAK_EXIT_USAGE. */
int vxpeak_fail(vxp_context *ctx, int rc, const char *what);

/* Render one diagnostic in compiler form: `file:line:col: error[CODE]: message`, the
 * source line with a caret under the range, then its notes. */
void vxpeak_render_diagnostic(FILE *out, const vxp_diagnostic *d, bool color);

/* Whether to colour output written to `out` (a terminal, and NO_COLOR unset). */
bool vxpeak_use_color(FILE *out);

/* Resolve --machine: an existing file, a built-in name, or fleet/NAME.vx found next to
 * the installed or source-tree fleet. On success *out_src may be NULL (a built-in). */
int vxpeak_load_machine(vxp_context *ctx, const char *arg, vxp_source **out_src,
                        vxp_machine **out_machine);

#endif /* VXPEAK_CLI_H */
