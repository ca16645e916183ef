/* SPDX-License-Identifier: Apache-2.0 */
/* parse.c - `vxpeak parse`: print the syntax tree and report syntax errors. */
#include <string.h>

#include "cli.h"

/* Indentation levels of `vxpeak parse` beyond which a line gives its depth instead. */
#define VXPEAK_MAX_INDENT 64

/* `vxpeak parse`'s layout, applied to the S-expression as it streams in: one node per line,
 * indented by depth (the S-expression re-flowed). The indentation stops growing at
 * VXPEAK_MAX_INDENT levels (deeper lines carry their depth as "[depth N]"), so the output
 * stays proportional to the tree, not to its depth squared (a 260 KB else-if chain once
 * wrote 3.2 GB). A blank before a parenthesis is dropped, so one is held back until the next
 * byte, which may be in the next piece. */
typedef struct reflow {
  size_t depth;
  bool at_line_start;
  bool blank; /* a blank held back */
} reflow;

static int reflow_piece(void *arg, const char *bytes, size_t len) {
  reflow *r = arg;
  for (size_t i = 0; i < len; i++) {
    char c = bytes[i];
    if (r->blank) {
      r->blank = false;
      if (c != '(' && c != ')') {
        putchar(' ');
        r->at_line_start = false;
      }
    }
    if (c == '(') {
      if (!r->at_line_start) putchar('\n');
      for (size_t k = 0; k < r->depth && k < VXPEAK_MAX_INDENT; k++)
        fputs("  ", stdout);
      if (r->depth > VXPEAK_MAX_INDENT) printf("[depth %zu] ", r->depth);
      r->depth++;
      r->at_line_start = false;
    } else if (c == ')') {
      if (r->depth > 0) r->depth--;
    } else if (c == ' ') {
      r->blank = true;
    } else {
      putchar(c);
      r->at_line_start = false;
    }
  }
  return ferror(stdout) ? 1 : 0;
}

static int print_piece(void *arg, const char *bytes, size_t len) {
  (void)arg;
  return fwrite(bytes, 1, len, stdout) == len ? 0 : 1;
}

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
  /* A long text is parsed in windows and printed window by window (vxp_program_write_sexp:
   * a window with a syntax error as its tree parsed alone), so its whole tree never lives;
   * any other text keeps its tree. */
  rc = vxp_program_parse_flags(&prog, ctx, src, VXP_PROGRAM_NO_TREE | VXP_PROGRAM_KEEP_WHOLE_TREE);
  if (rc != VXP_OK) {
    exit_code = vxpeak_fail(ctx, rc, "cannot parse the program");
    goto done;
  }
  reflow r = {0, true, false};
  rc = sexp ? vxp_program_write_sexp(prog, print_piece, NULL)
            : vxp_program_write_sexp(prog, reflow_piece, &r);
  if (rc == VXP_OK && !sexp && r.blank) putchar(' ');
  if (rc == VXP_OK) putchar('\n');
  if (rc == VXP_OK && fflush(stdout) != 0) rc = VXP_EIO;
  if (rc != VXP_OK) {
    exit_code = rc == VXP_EIO ? VXPEAK_EXIT_USAGE : vxpeak_fail(ctx, rc, "cannot render the tree");
    if (rc == VXP_EIO) fprintf(stderr, "vxpeak parse: cannot write the tree\n");
    goto done;
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
