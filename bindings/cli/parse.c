/* SPDX-License-Identifier: Apache-2.0 */
/* parse.c - `vxpeak parse`: print the syntax tree and report syntax errors. */
#include <string.h>

#include "cli.h"

/* Indentation levels of `vxpeak parse` beyond which a line gives its depth instead. */
#define VXPEAK_MAX_INDENT 64

int vxpeak_parse(const vxpeak_args *args) {
  const char *file = args->file;
  bool sexp = args->sexp;
  vxp_context *ctx = NULL;
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  int exit_code = VXPEAK_EXIT_USAGE;
  int rc = vxp_context_new(&ctx, NULL);
  if (rc != VXP_OK) {
    fprintf(stderr, "vxpeak: cannot create a context: %s\n", vxp_strerror(rc));
    return exit_code;
  }
  vxpeak_time_limit_watch(ctx);
  if ((rc = vxp_source_load_file(&src, ctx, file)) != VXP_OK) {
    exit_code = vxpeak_fail(ctx, rc, "cannot read the program");
    goto done;
  }
  if ((rc = vxp_program_parse(&prog, ctx, src)) != VXP_OK) {
    exit_code = vxpeak_fail(ctx, rc, "cannot parse the program");
    goto done;
  }
  const char *tree = vxp_program_sexp(prog);
  if (!tree) {
    exit_code = vxpeak_fail(ctx, VXP_ENOMEM, "cannot render the tree");
    goto done;
  }
  if (sexp) {
    printf("%s\n", tree);
  } else {
    /* One node per line, indented by depth: the S-expression re-flowed. The indentation
     * stops growing at VXPEAK_MAX_INDENT levels (deeper lines carry their depth as
     * "[depth N]"), so the output stays proportional to the tree, not to its depth
     * squared (a 260 KB else-if chain once wrote 3.2 GB). */
    size_t depth = 0;
    bool at_line_start = true;
    for (const char *p = tree; *p; p++) {
      if (*p == '(') {
        if (!at_line_start) putchar('\n');
        for (size_t i = 0; i < depth && i < VXPEAK_MAX_INDENT; i++)
          fputs("  ", stdout);
        if (depth > VXPEAK_MAX_INDENT) printf("[depth %zu] ", depth);
        depth++;
        at_line_start = false;
        continue;
      }
      if (*p == ')') {
        if (depth > 0) depth--;
        continue;
      }
      if (*p == ' ' && (p[1] == '(' || p[1] == ')')) continue;
      putchar(*p);
      at_line_start = false;
    }
    putchar('\n');
  }
  bool color = vxpeak_use_color(stderr);
  size_t n = vxp_program_diagnostic_count(prog);
  size_t errors = 0;
  for (size_t i = 0; i < n; i++) {
    const vxp_diagnostic *d = vxp_program_diagnostic(prog, i);
    if (vxp_diagnostic_severity(d) == VXP_SEVERITY_ERROR) errors++;
    vxpeak_render_nth(stderr, d, i, n, color);
  }
  exit_code = errors ? VXPEAK_EXIT_REJECTED : VXPEAK_EXIT_OK;
done:
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return exit_code;
}
