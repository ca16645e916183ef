/* SPDX-License-Identifier: Apache-2.0 */
/* jsonw.c - a small streaming JSON writer for the command's reports (explain, sweep,
 * roofline). The command sees only the public header, so it does not use jansson; what
 * it writes is plain enough: objects, arrays, strings, integers, a few reals. */
#include <math.h>
#include <string.h>

#include "cli.h"

/* A comma before every item but the first; a space after it unless a newline follows. */
static void separate(vxpeak_json *j, bool newline) {
  if (j->need_comma[j->depth]) fputs(newline ? "," : ", ", j->out);
  j->need_comma[j->depth] = true;
}

static void put_string(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
    case '"': fputs("\\\"", out); break;
    case '\\': fputs("\\\\", out); break;
    case '\n': fputs("\\n", out); break;
    case '\r': fputs("\\r", out); break;
    case '\t': fputs("\\t", out); break;
    case '\b': fputs("\\b", out); break;
    case '\f': fputs("\\f", out); break;
    default:
      if (*p < 0x20) fprintf(out, "\\u%04x", *p);
      else fputc(*p, out);
    }
  }
  fputc('"', out);
}

void vxpeak_json_key(vxpeak_json *j, const char *key) {
  bool newline = j->depth == 1 && j->pretty;
  separate(j, newline);
  if (newline) fputs("\n  ", j->out);
  put_string(j->out, key);
  fputs(": ", j->out);
  j->need_comma[j->depth] = false; /* the value follows without a comma */
  j->after_key = true;
}

static void value_prefix(vxpeak_json *j) {
  if (j->after_key) {
    j->after_key = false;
    j->need_comma[j->depth] = true;
    return;
  }
  /* Elements of top-level arrays go on lines of their own, as in the check report. */
  bool newline = j->depth == 2 && j->pretty && j->array_at[2];
  separate(j, newline);
  if (newline) fputs("\n    ", j->out);
}

void vxpeak_json_open(vxpeak_json *j, char bracket) {
  value_prefix(j);
  fputc(bracket, j->out);
  if (j->depth + 1 < VXPEAK_JSON_DEPTH) j->depth++;
  j->need_comma[j->depth] = false;
  j->array_at[j->depth] = bracket == '[';
}

void vxpeak_json_close(vxpeak_json *j, char bracket) {
  bool had_items = j->need_comma[j->depth];
  if (j->pretty && had_items && (j->depth == 1 || (j->depth == 2 && bracket == ']')))
    fputs(j->depth == 1 ? "\n" : "\n  ", j->out);
  fputc(bracket, j->out);
  if (j->depth > 0) j->depth--;
  if (j->depth == 0) fputc('\n', j->out);
}

void vxpeak_json_string(vxpeak_json *j, const char *s) {
  value_prefix(j);
  if (s) put_string(j->out, s);
  else fputs("null", j->out);
}

void vxpeak_json_u64(vxpeak_json *j, uint64_t v) {
  value_prefix(j);
  fprintf(j->out, "%llu", (unsigned long long)v);
}

void vxpeak_json_bool(vxpeak_json *j, bool v) {
  value_prefix(j);
  fputs(v ? "true" : "false", j->out);
}

void vxpeak_json_null(vxpeak_json *j) {
  value_prefix(j);
  fputs("null", j->out);
}

void vxpeak_json_real(vxpeak_json *j, double v, int decimals) {
  value_prefix(j);
  if (!isfinite(v)) {
    fputs("null", j->out);
    return;
  }
  double scale = pow(10, decimals);
  double r = round(v * scale) / scale;
  char buf[64];
  if (r == floor(r) && fabs(r) < 9e15) snprintf(buf, sizeof(buf), "%.0f", r);
  else {
    /* 0.5, not 0.5000: trailing zeros say nothing. */
    snprintf(buf, sizeof(buf), "%.*f", decimals, r);
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0') buf[--n] = '\0';
  }
  fputs(buf, j->out);
}

/* The header every JSON report of the command starts with. */
void vxpeak_json_header(vxpeak_json *j, const char *schema, const vxpeak_args *args,
                        const vxpeak_target *t) {
  vxpeak_json_key(j, "schema");
  vxpeak_json_string(j, schema);
  vxpeak_json_key(j, "file");
  vxpeak_json_string(j, args->file);
  if (t) {
    vxpeak_json_key(j, "machine");
    vxpeak_json_string(j, t->machine ? vxp_machine_label(t->machine) : NULL);
    vxpeak_json_key(j, "host");
    vxpeak_json_string(j, t->host ? vxp_machine_label(t->host) : NULL);
  }
  vxpeak_json_key(j, "defines");
  vxpeak_json_open(j, '{');
  for (size_t i = 0; i < args->define_count; i++) {
    vxpeak_json_key(j, args->defines[i].name);
    vxpeak_json_u64(j, args->defines[i].value);
  }
  vxpeak_json_close(j, '}');
}
