/* SPDX-License-Identifier: Apache-2.0 */
/* jsonw.c - the streaming JSON writer of the reports (report.h). */
#include <math.h>
#include <stdio.h>

#include "analysis_data.h"
#include "jsontext.h"
#include "machine.h"
#include "program.h"
#include "report.h"
#include "source.h"

void vxp_jw__init(vxp_jw *j, vxp_context *ctx, vxp_sb *sb, bool pretty) {
  memset(j, 0, sizeof(*j));
  j->ctx = ctx;
  j->sb = sb;
  j->pretty = pretty;
}

static void puts_(vxp_jw *j, const char *s) { vxp_sb__puts(j->ctx, j->sb, s); }

/* A comma before every item but the first; a space after it unless a newline follows. */
static void separate(vxp_jw *j, bool newline) {
  if (j->need_comma[j->depth]) puts_(j, newline ? "," : ", ");
  j->need_comma[j->depth] = true;
}

/* Quote, backslash and control characters escaped (\b and \f by name, as the command always
 * wrote them), everything else (UTF-8 included) copied. */
static void put_string(vxp_jw *j, const char *s) {
  if (j->ascii) {
    vxp_json__put_ascii_string(j->ctx, j->sb, s);
    return;
  }
  vxp_sb__putc(j->ctx, j->sb, '"');
  const char *run = s; /* start of the bytes not yet copied */
  for (const char *p = s; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (c == '\b' || c == '\f') {
      vxp_sb__append(j->ctx, j->sb, run, (size_t)(p - run));
      puts_(j, c == '\b' ? "\\b" : "\\f");
      run = p + 1;
    } else if (c < 0x20 || c == '"' || c == '\\') {
      vxp_sb__append(j->ctx, j->sb, run, (size_t)(p - run));
      vxp_sb__json_escape(j->ctx, j->sb, p, 1);
      run = p + 1;
    }
  }
  vxp_sb__puts(j->ctx, j->sb, run);
  vxp_sb__putc(j->ctx, j->sb, '"');
}

void vxp_jw__key(vxp_jw *j, const char *key) {
  bool newline = j->depth == 1 && j->pretty;
  separate(j, newline);
  if (newline) puts_(j, "\n  ");
  put_string(j, key);
  puts_(j, ": ");
  j->need_comma[j->depth] = false; /* the value follows without a comma */
  j->after_key = true;
}

static void value_prefix(vxp_jw *j) {
  if (j->after_key) {
    j->after_key = false;
    j->need_comma[j->depth] = true;
    return;
  }
  /* Elements of top-level arrays go on lines of their own, as in the check report. */
  bool newline = j->depth == 2 && j->pretty && j->array_at[2];
  separate(j, newline);
  if (newline) puts_(j, "\n    ");
}

void vxp_jw__open(vxp_jw *j, char bracket) {
  value_prefix(j);
  vxp_sb__putc(j->ctx, j->sb, bracket);
  /* Deeper than VXP__JSON_DEPTH the layout flattens; the text stays valid JSON. */
  if (j->depth + 1 < VXP__JSON_DEPTH) j->depth++;
  j->need_comma[j->depth] = false;
  j->array_at[j->depth] = bracket == '[';
}

void vxp_jw__close(vxp_jw *j, char bracket) {
  bool had_items = j->need_comma[j->depth];
  if (j->pretty && had_items && (j->depth == 1 || (j->depth == 2 && bracket == ']')))
    puts_(j, j->depth == 1 ? "\n" : "\n  ");
  vxp_sb__putc(j->ctx, j->sb, bracket);
  if (j->depth > 0) j->depth--;
  if (j->depth == 0) vxp_sb__putc(j->ctx, j->sb, '\n');
}

void vxp_jw__string(vxp_jw *j, const char *s) {
  value_prefix(j);
  if (s)
    put_string(j, s);
  else
    puts_(j, "null");
}

void vxp_jw__u64(vxp_jw *j, uint64_t v) {
  value_prefix(j);
  vxp_sb__printf(j->ctx, j->sb, "%llu", (unsigned long long)v);
}

void vxp_jw__number(vxp_jw *j, const char *digits) {
  value_prefix(j);
  puts_(j, digits);
}

void vxp_jw__i64(vxp_jw *j, int64_t v) {
  value_prefix(j);
  vxp_sb__printf(j->ctx, j->sb, "%lld", (long long)v);
}

void vxp_jw__bool(vxp_jw *j, bool v) {
  value_prefix(j);
  puts_(j, v ? "true" : "false");
}

void vxp_jw__null(vxp_jw *j) {
  value_prefix(j);
  puts_(j, "null");
}

void vxp_jw__real(vxp_jw *j, double v, int decimals) {
  value_prefix(j);
  if (!isfinite(v)) {
    puts_(j, "null");
    return;
  }
  double scale = pow(10, decimals);
  double r = round(v * scale) / scale;
  char buf[64];
  if (r == floor(r) && fabs(r) < 9e15)
    snprintf(buf, sizeof(buf), "%.0f", r);
  else {
    /* 0.5, not 0.5000: trailing zeros say nothing. */
    snprintf(buf, sizeof(buf), "%.*f", decimals, r);
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0')
      buf[--n] = '\0';
  }
  puts_(j, buf);
}

void vxp_jw__real15(vxp_jw *j, double v) {
  value_prefix(j);
  if (!isfinite(v)) {
    puts_(j, "null");
    return;
  }
  /* "%.15g" in the C locale (a report is not localised), then what jansson adds: ".0" when
   * neither a point nor an exponent is there, and no '+' or leading zeros in the exponent. */
  char buf[64];
  int n = snprintf(buf, sizeof(buf), "%.15g", v);
  if (n < 0 || (size_t)n >= sizeof(buf) - 3) {
    puts_(j, "null");
    return;
  }
  for (char *p = buf; *p; p++)
    if (*p == ',') *p = '.';
  if (!strchr(buf, '.') && !strchr(buf, 'e')) strcat(buf, ".0");
  char *e = strchr(buf, 'e');
  if (e) {
    char *start = e + 1, *end = start + 1;
    if (*start == '-') start++;
    while (*end == '0')
      end++;
    if (end != start) memmove(start, end, strlen(end) + 1);
  }
  puts_(j, buf);
}

void vxp_jw__header(vxp_jw *j, const char *schema, const vxp_analysis *an, bool with_machines) {
  vxp_jw__key(j, "schema");
  vxp_jw__string(j, schema);
  vxp_jw__key(j, "file");
  vxp_jw__string(j, an->prog->src->label);
  if (with_machines) {
    vxp_jw__key(j, "machine");
    vxp_jw__string(j, an->machine ? an->machine->label : NULL);
    vxp_jw__key(j, "host");
    vxp_jw__string(j, an->host ? an->host->label : NULL);
  }
  vxp_jw__key(j, "defines");
  vxp_jw__open(j, '{');
  for (size_t i = 0; i < an->defines.len; i++) {
    vxp_jw__key(j, an->defines.items[i].name);
    vxp_jw__u64(j, an->defines.items[i].value);
  }
  vxp_jw__close(j, '}');
}
