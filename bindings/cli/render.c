/* SPDX-License-Identifier: Apache-2.0 */
/* render.c - diagnostics in the familiar compiler form: `file:line:col: error[CODE]:
 * message`, the source line with a caret span, then `note:` and `help:` lines, each with
 * its own source line when it points somewhere. Colour on a terminal only. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define RED "\x1b[1;31m"
#define YELLOW "\x1b[1;33m"
#define CYAN "\x1b[1;36m"
#define GREEN "\x1b[1;32m"
#define BLUE "\x1b[1;34m"
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

static void paint(FILE *out, bool color, const char *code) {
  if (color) fputs(code, out);
}

/* How much of a long source line an excerpt shows: a window around the range, so that a
 * minified or generated line of megabytes prints as a screenful, not the whole line. */
#define EXCERPT_WIDTH 120

static bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

/* Print line[from, to) for the terminal: tabs and other control bytes as one space each,
 * so that the caret line below stays aligned. */
static void put_visible(FILE *out, const char *line, size_t from, size_t to) {
  for (size_t i = from; i < to; i++) {
    unsigned char c = (unsigned char)line[i];
    fputc(c < 0x20 || c == 0x7f ? ' ' : c, out);
  }
}

/* The source line of `r` with carets under the range (the first line of a longer one). */
static void print_excerpt(FILE *out, const vxp_source *src, vxp_range r, bool color,
                          const char *caret_color) {
  size_t len;
  const char *line = vxp_source_line(src, r.start.line, &len);
  if (!line) return;
  size_t start = r.start.column < len ? r.start.column : len;
  size_t end = (r.end.line == r.start.line) ? r.end.column : len;
  if (end > len) end = len;
  if (end <= start) end = start + 1;
  /* The window: the whole line when it is short, else EXCERPT_WIDTH bytes from a little
   * before the range, cut at character boundaries, with "..." where it is cut. */
  size_t from = 0, to = len;
  if (len > EXCERPT_WIDTH) {
    from = start > EXCERPT_WIDTH / 4 ? start - EXCERPT_WIDTH / 4 : 0;
    while (from > 0 && continuation((unsigned char)line[from])) from--;
    to = from + EXCERPT_WIDTH < len ? from + EXCERPT_WIDTH : len;
    while (to < len && continuation((unsigned char)line[to])) to++;
    if (end > to) end = to;
  }
  const char *lead = from > 0 ? "..." : "";
  char gutter[16];
  int width = snprintf(gutter, sizeof(gutter), "%u", r.start.line + 1);
  paint(out, color, BLUE);
  fprintf(out, "%*s |\n%s | ", width, "", gutter);
  paint(out, color, RESET);
  fputs(lead, out);
  put_visible(out, line, from, to);
  if (to < len) fputs("...", out);
  fputc('\n', out);
  paint(out, color, BLUE);
  fprintf(out, "%*s | %s", width, "", from > 0 ? "   " : "");
  paint(out, color, RESET);
  /* Continuation bytes of UTF-8 take no column on screen. */
  for (size_t i = from; i < start; i++) {
    if (!continuation((unsigned char)line[i])) fputc(' ', out);
  }
  paint(out, color, caret_color);
  for (size_t i = start; i < end; i++) {
    if (i >= len || !continuation((unsigned char)line[i])) fputc('^', out);
  }
  paint(out, color, RESET);
  fputc('\n', out);
}

static void render_note(FILE *out, const vxp_diagnostic *n, bool color) {
  bool help = vxp_diagnostic_is_help(n) != 0;
  const char *kind = help ? "help" : "note";
  const char *kind_color = help ? GREEN : CYAN;
  if (!vxp_diagnostic_has_range(n)) {
    fputs("  = ", out);
    paint(out, color, kind_color);
    fputs(kind, out);
    paint(out, color, RESET);
    fprintf(out, ": %s\n", vxp_diagnostic_message(n));
    return;
  }
  const vxp_source *src = vxp_diagnostic_source(n);
  vxp_range r = vxp_diagnostic_range(n);
  paint(out, color, kind_color);
  fputs(kind, out);
  paint(out, color, RESET);
  fprintf(out, ": %s\n", vxp_diagnostic_message(n));
  paint(out, color, BLUE);
  fputs("  --> ", out);
  paint(out, color, RESET);
  fprintf(out, "%s:%u:%u\n", vxp_source_label(src), r.start.line + 1, r.start.column + 1);
  print_excerpt(out, src, r, color, kind_color);
}

void vxpeak_render_diagnostic(FILE *out, const vxp_diagnostic *d, bool color) {
  vxp_severity sev = vxp_diagnostic_severity(d);
  const char *level = sev == VXP_SEVERITY_ERROR ? "error" : sev == VXP_SEVERITY_WARNING ? "warning" : "note";
  const char *level_color = sev == VXP_SEVERITY_ERROR ? RED : sev == VXP_SEVERITY_WARNING ? YELLOW : CYAN;
  const char *code = vxp_diagnostic_code(d);
  const vxp_source *src = vxp_diagnostic_source(d);
  vxp_range r = vxp_diagnostic_range(d);
  paint(out, color, BOLD);
  if (vxp_diagnostic_has_range(d))
    fprintf(out, "%s:%u:%u: ", vxp_source_label(src), r.start.line + 1, r.start.column + 1);
  else fputs("vxpeak: ", out);
  paint(out, color, level_color);
  fputs(level, out);
  if (code) fprintf(out, "[%s]", code);
  paint(out, color, RESET BOLD);
  fprintf(out, ": %s\n", vxp_diagnostic_message(d));
  paint(out, color, RESET);
  if (vxp_diagnostic_has_range(d)) print_excerpt(out, src, r, color, level_color);
  size_t notes = vxp_diagnostic_note_count(d);
  for (size_t i = 0; i < notes; i++) render_note(out, vxp_diagnostic_note(d, i), color);
}

bool vxpeak_render_nth(FILE *out, const vxp_diagnostic *d, size_t index, size_t count,
                       bool color) {
  if (index < VXPEAK_MAX_RENDERED) {
    vxpeak_render_diagnostic(out, d, color);
    return true;
  }
  if (index == VXPEAK_MAX_RENDERED)
    fprintf(out, "vxpeak: %zu more diagnostic%s not shown (--format json lists every one)\n",
            count - index, count - index == 1 ? "" : "s");
  return false;
}

void vxpeak_render_all(FILE *out, const vxp_analysis *an) {
  bool color = vxpeak_use_color(out);
  size_t count = vxp_analysis_diagnostic_count(an);
  for (size_t i = 0; i < count && i <= VXPEAK_MAX_RENDERED; i++)
    vxpeak_render_nth(out, vxp_analysis_diagnostic(an, i), i, count, color);
}
