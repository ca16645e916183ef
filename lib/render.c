/* SPDX-License-Identifier: Apache-2.0 */
/* render.c - a diagnostic in the familiar compiler form: `file:line:col: error[CODE]:
 * message`, the source line with a caret span, then `note:` and `help:` lines, each with its
 * own source line when it points somewhere; ANSI colour when asked. Written snprintf-style
 * into the caller's buffer, so nothing is allocated and nothing is shared. */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

#define RED "\x1b[1;31m"
#define YELLOW "\x1b[1;33m"
#define CYAN "\x1b[1;36m"
#define GREEN "\x1b[1;32m"
#define BLUE "\x1b[1;34m"
#define BOLD "\x1b[1m"
#define RESET "\x1b[0m"

/* How much of a long source line an excerpt shows: a window around the range, so that a
 * minified or generated line of megabytes prints as a screenful, not the whole line. */
#define EXCERPT_WIDTH 120

/* The caller's buffer: what fits is copied, `len` counts everything. */
typedef struct sink {
  char *buf;
  size_t size;
  size_t len;
  bool color;
} sink;

static void put(sink *s, const char *text, size_t n) {
  if (s->len < s->size) {
    size_t room = s->size - s->len;
    memcpy(s->buf + s->len, text, n < room ? n : room);
  }
  s->len += n;
}

static void puts_(sink *s, const char *text) { put(s, text, strlen(text)); }

static void putc_(sink *s, char c) { put(s, &c, 1); }

/* Numbers only (line, column, width): short enough for the local buffer; text goes
 * through puts_, whatever its length. */
static void printf_(sink *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void printf_(sink *s, const char *fmt, ...) {
  char small[64];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof(small), fmt, ap);
  va_end(ap);
  if (n > 0) put(s, small, (size_t)n < sizeof(small) ? (size_t)n : sizeof(small) - 1);
}

static void paint(sink *s, const char *code) {
  if (s->color) puts_(s, code);
}

static bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

/* line[from, to) for a terminal: tabs and other control bytes as one space each, so that
 * the caret line below stays aligned. */
static void put_visible(sink *s, const char *line, size_t from, size_t to) {
  for (size_t i = from; i < to; i++) {
    unsigned char c = (unsigned char)line[i];
    putc_(s, c < 0x20 || c == 0x7f ? ' ' : (char)c);
  }
}

static void put_spaces(sink *s, int n) {
  for (int i = 0; i < n; i++)
    putc_(s, ' ');
}

/* The source line of `r` with carets under the range (the first line of a longer one). */
static void excerpt(sink *s, const vxp_source *src, vxp_range r, const char *caret_color) {
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
    while (from > 0 && continuation((unsigned char)line[from]))
      from--;
    to = from + EXCERPT_WIDTH < len ? from + EXCERPT_WIDTH : len;
    while (to < len && continuation((unsigned char)line[to]))
      to++;
    if (end > to) end = to;
  }
  char gutter[16];
  int width = snprintf(gutter, sizeof(gutter), "%u", r.start.line + 1);
  paint(s, BLUE);
  put_spaces(s, width);
  puts_(s, " |\n");
  puts_(s, gutter);
  puts_(s, " | ");
  paint(s, RESET);
  if (from > 0) puts_(s, "...");
  put_visible(s, line, from, to);
  if (to < len) puts_(s, "...");
  putc_(s, '\n');
  paint(s, BLUE);
  put_spaces(s, width);
  puts_(s, " | ");
  if (from > 0) puts_(s, "   ");
  paint(s, RESET);
  /* Continuation bytes of UTF-8 take no column on screen. */
  for (size_t i = from; i < start; i++) {
    if (!continuation((unsigned char)line[i])) putc_(s, ' ');
  }
  paint(s, caret_color);
  for (size_t i = start; i < end; i++) {
    if (i >= len || !continuation((unsigned char)line[i])) putc_(s, '^');
  }
  paint(s, RESET);
  putc_(s, '\n');
}

static void where(sink *s, const vxp_diagnostic *d) {
  vxp_range r = vxp_diagnostic_range(d);
  puts_(s, vxp_source_label(vxp_diagnostic_source(d)));
  printf_(s, ":%u:%u", r.start.line + 1, r.start.column + 1);
}

static void note(sink *s, const vxp_diagnostic *n) {
  bool help = vxp_diagnostic_is_help(n) != 0;
  const char *kind_color = help ? GREEN : CYAN;
  bool located = vxp_diagnostic_has_range(n) != 0;
  if (!located) puts_(s, "  = ");
  paint(s, kind_color);
  puts_(s, help ? "help" : "note");
  paint(s, RESET);
  puts_(s, ": ");
  puts_(s, vxp_diagnostic_message(n));
  putc_(s, '\n');
  if (!located) return;
  paint(s, BLUE);
  puts_(s, "  --> ");
  paint(s, RESET);
  where(s, n);
  putc_(s, '\n');
  excerpt(s, vxp_diagnostic_source(n), vxp_diagnostic_range(n), kind_color);
}

size_t vxp_diagnostic_render(const vxp_diagnostic *d, unsigned int flags, char *buf, size_t size) {
  sink s = {buf, buf ? size : 0, 0, (flags & VXP_RENDER_COLOR) != 0};
  if (d) {
    vxp_severity sev = vxp_diagnostic_severity(d);
    const char *level = sev == VXP_SEVERITY_ERROR     ? "error"
                        : sev == VXP_SEVERITY_WARNING ? "warning"
                                                      : "note";
    const char *level_color = sev == VXP_SEVERITY_ERROR     ? RED
                              : sev == VXP_SEVERITY_WARNING ? YELLOW
                                                            : CYAN;
    const char *code = vxp_diagnostic_code(d);
    bool located = vxp_diagnostic_has_range(d) != 0;
    paint(&s, BOLD);
    if (located) {
      where(&s, d);
      puts_(&s, ": ");
    } else {
      puts_(&s, "vxpeak: ");
    }
    paint(&s, level_color);
    puts_(&s, level);
    if (code) {
      putc_(&s, '[');
      puts_(&s, code);
      putc_(&s, ']');
    }
    paint(&s, RESET BOLD);
    puts_(&s, ": ");
    puts_(&s, vxp_diagnostic_message(d));
    putc_(&s, '\n');
    paint(&s, RESET);
    if (located) excerpt(&s, vxp_diagnostic_source(d), vxp_diagnostic_range(d), level_color);
    size_t notes = vxp_diagnostic_note_count(d);
    for (size_t i = 0; i < notes; i++)
      note(&s, vxp_diagnostic_note(d, i));
  }
  /* NUL-terminate within the buffer, as snprintf does. */
  if (s.size) s.buf[s.len < s.size ? s.len : s.size - 1] = '\0';
  return s.len;
}
