/* SPDX-License-Identifier: Apache-2.0 */
/* diagnostics.c - print the diagnostics of a Vx program the way a compiler does:
 *
 *   file:line:col: error[E6010]: message
 *      12 | the source line
 *         |     ^^^^^^^
 *     = note: ...
 *
 * and, for editors speaking LSP, the 0-based line and UTF-16 column of each range.
 *
 *   diagnostics PROGRAM.vx
 *
 * Exit status: 0 when the program is admitted, 1 when it is rejected, 2 on failure.
 */
#include <stdio.h>

#include "vxpeak.h"

static const char *severity_word(vxp_severity s) {
  return s == VXP_SEVERITY_ERROR ? "error" : s == VXP_SEVERITY_WARNING ? "warning" : "note";
}

/* The line of `r` with a caret under the range (bytes; continuation bytes of UTF-8
 * characters take no column on screen). */
static void excerpt(const vxp_source *src, vxp_range r) {
  size_t len, i;
  const char *line = vxp_source_line(src, r.start.line, &len);
  size_t end = r.end.line == r.start.line ? r.end.column : len;
  if (!line) return;
  if (end > len) end = len;
  printf("%5u | %.*s\n      | ", r.start.line + 1, (int)len, line);
  for (i = 0; i < len && i < end; i++) {
    if (((unsigned char)line[i] & 0xC0) == 0x80) continue;
    putchar(i < r.start.column ? (line[i] == '\t' ? '\t' : ' ') : '^');
  }
  if (end <= r.start.column) putchar('^'); /* an empty range still gets a caret */
  putchar('\n');
}

static void print_diagnostic(const vxp_diagnostic *d) {
  const vxp_source *src = vxp_diagnostic_source(d);
  vxp_range r = vxp_diagnostic_range(d);
  const char *code = vxp_diagnostic_code(d);
  size_t i;
  if (vxp_diagnostic_has_range(d))
    printf("%s:%u:%u: ", vxp_source_label(src), r.start.line + 1, r.start.column + 1);
  printf("%s", severity_word(vxp_diagnostic_severity(d)));
  if (code) printf("[%s]", code);
  printf(": %s\n", vxp_diagnostic_message(d));
  if (vxp_diagnostic_has_range(d)) {
    excerpt(src, r);
    /* An LSP Position counts UTF-16 code units, not bytes. */
    printf("      = lsp: line %u, character %u\n", r.start.line,
           vxp_source_utf16_column(src, r.start));
  }
  for (i = 0; i < vxp_diagnostic_note_count(d); i++) {
    const vxp_diagnostic *note = vxp_diagnostic_note(d, i);
    printf("      = %s: %s\n", vxp_diagnostic_is_help(note) ? "help" : "note",
           vxp_diagnostic_message(note));
  }
}

int main(int argc, char **argv) {
  vxp_context *ctx = NULL;
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  vxp_analysis *an = NULL;
  int rc, status = 2;
  size_t i;

  if (argc != 2) {
    fprintf(stderr, "usage: diagnostics PROGRAM.vx\n");
    return 2;
  }
  if ((rc = vxp_context_new(&ctx, NULL)) != VXP_OK) {
    fprintf(stderr, "diagnostics: %s\n", vxp_strerror(rc));
    return 2;
  }
  /* Each call either succeeds or leaves its message on the context. */
  if ((rc = vxp_source_load_file(&src, ctx, argv[1])) == VXP_OK &&
      (rc = vxp_program_parse(&prog, ctx, src)) == VXP_OK &&
      (rc = vxp_analyze(&an, ctx, prog, NULL)) == VXP_OK) {
    /* The analysis' list holds the program's syntax diagnostics too. */
    for (i = 0; i < vxp_analysis_diagnostic_count(an); i++)
      print_diagnostic(vxp_analysis_diagnostic(an, i));
    printf("%zu error(s), %zu warning(s)\n", vxp_analysis_error_count(an),
           vxp_analysis_warning_count(an));
    status = vxp_analysis_admitted(an) ? 0 : 1;
  } else {
    fprintf(stderr, "diagnostics: %s\n", vxp_context_errmsg(ctx));
  }
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return status;
}
