/* SPDX-License-Identifier: Apache-2.0 */
/* bigint.c - reading a message whose integers do not all fit in jansson's json_int_t.
 *
 * jansson refuses a whole message with an integer literal past long long ("too big
 * integer"), so a setting such as {"defines": {"BATCH": 1180591620717411303424}} made the
 * initialize request unreadable: it was answered as a parse error without its id, and the
 * client waited for its reply forever. Such a literal is read instead as a string holding
 * LSP_BIG_INTEGER and the literal's text, so the request keeps its id and the setting that
 * holds it can be reported (config.c), or read when it fits in 64 bits unsigned (2^63 and
 * up, which json_int_t cannot hold either). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Whether the integer literal s[0..n) (an optional '-' and digits) fits in json_int_t. */
static bool fits_json_int(const char *s, size_t n) {
  char buf[32];
  if (n >= sizeof(buf)) return false;
  memcpy(buf, s, n);
  buf[n] = '\0';
  errno = 0;
  (void)strtoll(buf, NULL, 10);
  return errno != ERANGE;
}

/* `body` with every integer literal outside strings that does not fit in json_int_t
 * written as "\u0001<literal>"; NULL when there is none (or no memory). */
static char *quote_big_integers(const char *body, size_t len, size_t *out_len) {
  size_t cap = len + 1, n = 0;
  char *out = NULL;
  bool in_string = false, changed = false;
  for (size_t i = 0; i < len;) {
    char c = body[i];
    size_t start = i, end = i + 1;
    bool big = false;
    if (in_string) {
      if (c == '\\' && i + 1 < len)
        end = i + 2;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '-' || is_digit(c)) {
      /* The whole number token, so that an exponent's digits are not read as a number. */
      end = i + (c == '-');
      while (end < len && is_digit(body[end]))
        end++;
      size_t int_end = end;
      bool real = false;
      if (end < len && body[end] == '.') {
        real = true;
        for (end++; end < len && is_digit(body[end]); end++)
          continue;
      }
      if (end < len && (body[end] == 'e' || body[end] == 'E')) {
        real = true;
        end++;
        if (end < len && (body[end] == '+' || body[end] == '-')) end++;
        while (end < len && is_digit(body[end]))
          end++;
      }
      big = !real && int_end > start + (c == '-') && !fits_json_int(body + start, end - start);
    }
    size_t piece = end - start, need = n + piece + (big ? 8 : 0) + 1;
    if (need > cap || !out) {
      while (cap < need)
        cap *= 2;
      char *grown = realloc(out, cap);
      if (!grown) {
        free(out);
        return NULL;
      }
      out = grown;
    }
    if (big) {
      memcpy(out + n, "\"\\u0001", 7);
      n += 7;
      changed = true;
    }
    memcpy(out + n, body + start, piece);
    n += piece;
    if (big) out[n++] = '"';
    i = end;
  }
  if (!changed) {
    free(out);
    return NULL;
  }
  *out_len = n;
  return out;
}

json_t *lsp_json_parse(const char *body, size_t len) {
  json_error_t err;
  const size_t flags = JSON_REJECT_DUPLICATES | JSON_DECODE_ANY;
  json_t *msg = json_loadb(body, len, flags, &err);
  if (msg || !strstr(err.text, "too big")) return msg;
  size_t n = 0;
  char *quoted = quote_big_integers(body, len, &n);
  if (!quoted) return NULL;
  msg = json_loadb(quoted, n, flags, &err);
  free(quoted);
  return msg;
}

const char *lsp_big_integer(const json_t *value) {
  const char *s = json_is_string(value) ? json_string_value(value) : NULL;
  return s && s[0] == LSP_BIG_INTEGER[0] ? s + 1 : NULL;
}
