/* SPDX-License-Identifier: Apache-2.0 */
/* render.c - diagnostics in the familiar compiler form, with the source line and a caret. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define RED "\x1b[1;31m"
#define YELLOW "\x1b[1;33m"
#define CYAN "\x1b[1;36m"
#define BOLD "\x1b[1m"
#define RESET "\x1b[0m"

bool vxpeak_use_color(FILE *out) {
  const char *no_color = getenv("NO_COLOR");
  if (no_color && no_color[0]) return false;
  return isatty(fileno(out)) != 0;
}

int vxpeak_fail(vxp_context *ctx, int rc, const char *what) {
  const char *msg = ctx ? vxp_context_errmsg(ctx) : "";
  if (!msg || !msg[0]) msg = vxp_strerror(rc);
  fprintf(stderr, "vxpeak: %s: %s\n", what, msg);
  return VXPEAK_EXIT_USAGE;
}

static void print_excerpt(FILE *out, const vxp_source *src, vxp_range r, bool color) {
  size_t len;
  const char *line = vxp_source_line(src, r.start.line, &len);
  if (!line) return;
  char gutter[16];
  int width = snprintf(gutter, sizeof(gutter), "%u", r.start.line + 1);
  fprintf(out, "%*s |\n", width, "");
  fprintf(out, "%s | ", gutter);
  /* Tabs are shown as one space so that the caret line below stays aligned. */
  for (size_t i = 0; i < len; i++) fputc(line[i] == '\t' ? ' ' : line[i], out);
  fputc('\n', out);
  size_t start = r.start.column < len ? r.start.column : len;
  size_t end = (r.end.line == r.start.line) ? r.end.column : len;
  if (end > len) end = len;
  if (end <= start) end = start + 1;
  fprintf(out, "%*s | ", width, "");
  /* Continuation bytes of UTF-8 take no column on screen. */
  for (size_t i = 0; i < start; i++) {
    if (((unsigned char)line[i] & 0xC0) != 0x80) fputc(' ', out);
  }
  if (color) fputs(RED, out);
  for (size_t i = start; i < end; i++) {
    if (i >= len || ((unsigned char)line[i] & 0xC0) != 0x80) fputc('^', out);
  }
  if (color) fputs(RESET, out);
  fputc('\n', out);
}

void vxpeak_render_diagnostic(FILE *out, const vxp_diagnostic *d, bool color) {
  vxp_severity sev = vxp_diagnostic_severity(d);
  const char *level = sev == VXP_SEVERITY_ERROR ? "error" : sev == VXP_SEVERITY_WARNING ? "warning" : "note";
  const char *level_color = sev == VXP_SEVERITY_ERROR ? RED : sev == VXP_SEVERITY_WARNING ? YELLOW : CYAN;
  const char *code = vxp_diagnostic_code(d);
  const vxp_source *src = vxp_diagnostic_source(d);
  vxp_range r = vxp_diagnostic_range(d);
  if (color) fputs(BOLD, out);
  if (vxp_diagnostic_has_range(d))
    fprintf(out, "%s:%u:%u: ", vxp_source_label(src), r.start.line + 1, r.start.column + 1);
  else fputs("vxpeak: ", out);
  if (color) fputs(level_color, out);
  fputs(level, out);
  if (code) fprintf(out, "[%s]", code);
  if (color) fputs(RESET BOLD, out);
  fprintf(out, ": %s\n", vxp_diagnostic_message(d));
  if (color) fputs(RESET, out);
  if (vxp_diagnostic_has_range(d)) print_excerpt(out, src, r, color);
  size_t notes = vxp_diagnostic_note_count(d);
  for (size_t i = 0; i < notes; i++) {
    const vxp_diagnostic *n = vxp_diagnostic_note(d, i);
    vxp_range nr = vxp_diagnostic_range(n);
    const char *kind = vxp_diagnostic_is_help(n) ? "help" : "note";
    fputs("  = ", out);
    if (color) fputs(BOLD, out);
    fputs(kind, out);
    if (color) fputs(RESET, out);
    if (vxp_diagnostic_has_range(n) && vxp_diagnostic_source(n) == src)
      fprintf(out, ": %s (line %u)\n", vxp_diagnostic_message(n), nr.start.line + 1);
    else if (vxp_diagnostic_has_range(n))
      fprintf(out, ": %s (%s:%u)\n", vxp_diagnostic_message(n),
              vxp_source_label(vxp_diagnostic_source(n)), nr.start.line + 1);
    else fprintf(out, ": %s\n", vxp_diagnostic_message(n));
  }
}
