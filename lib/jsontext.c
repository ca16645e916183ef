/* SPDX-License-Identifier: Apache-2.0 */
/* jsontext.c - JSON strings of text that may not be UTF-8 (jsontext.h). */
#include "jsontext.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

size_t vxp_json__utf8_len(const unsigned char *p, size_t n) {
  if (p[0] < 0x80) return 1;
  size_t len = (p[0] & 0xE0) == 0xC0   ? 2
               : (p[0] & 0xF0) == 0xE0 ? 3
               : (p[0] & 0xF8) == 0xF0 ? 4
                                       : 0;
  if (len == 0 || len > n) return 0;
  uint32_t cp = p[0] & (0x7F >> len);
  for (size_t i = 1; i < len; i++) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (p[i] & 0x3F);
  }
  static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < least[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

static void put_escape(vxp_context *ctx, vxp_sb *sb, uint32_t cp) {
  char seq[16];
  if (cp < 0x10000) {
    snprintf(seq, sizeof(seq), "\\u%04X", (unsigned)cp);
  } else { /* a surrogate pair */
    cp -= 0x10000;
    snprintf(seq, sizeof(seq), "\\u%04X\\u%04X", (unsigned)(0xD800 | (cp >> 10)),
             (unsigned)(0xDC00 | (cp & 0x3FF)));
  }
  vxp_sb__puts(ctx, sb, seq);
}

/* The bytes a JSON string in ASCII holds as they are (1): printable ASCII but the quote and
 * the backslash. Control characters, those two and every byte outside ASCII are escaped. A
 * table, so that a byte costs one test (four under a fuzzer's instrumentation otherwise). */
static const unsigned char plain[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* The escape of the sequence at `p` (`avail` bytes left, p[0] not plain): a named escape,
 * \uXXXX of its code point, or U+FFFD for a byte that starts no valid UTF-8 sequence.
 * Returns the bytes it took. */
static size_t put_escaped(vxp_context *ctx, vxp_sb *sb, const unsigned char *p, size_t avail) {
  unsigned char c = p[0];
  const char *named = c == '"'    ? "\\\""
                      : c == '\\' ? "\\\\"
                      : c == '\b' ? "\\b"
                      : c == '\f' ? "\\f"
                      : c == '\n' ? "\\n"
                      : c == '\r' ? "\\r"
                      : c == '\t' ? "\\t"
                                  : NULL;
  if (named) {
    vxp_sb__puts(ctx, sb, named);
    return 1;
  }
  size_t n = vxp_json__utf8_len(p, avail);
  if (n == 0) {
    put_escape(ctx, sb, 0xFFFD);
    return 1;
  }
  uint32_t cp = n == 1 ? c : (uint32_t)(c & (0x7F >> n));
  for (size_t k = 1; k < n; k++)
    cp = (cp << 6) | (p[k] & 0x3F);
  put_escape(ctx, sb, cp);
  return n;
}

void vxp_json__put_ascii(vxp_context *ctx, vxp_sb *sb, const char *text, size_t len) {
  const unsigned char *p = (const unsigned char *)text;
  vxp_sb__putc(ctx, sb, '"');
  size_t run = 0; /* start of the plain bytes not yet copied */
  for (size_t i = 0; i < len;) {
    if (plain[p[i]]) {
      i++;
      continue;
    }
    vxp_sb__append(ctx, sb, text + run, i - run);
    i += put_escaped(ctx, sb, p + i, len - i);
    run = i;
  }
  vxp_sb__append(ctx, sb, text + run, len - run);
  vxp_sb__putc(ctx, sb, '"');
}

void vxp_json__put_ascii_string(vxp_context *ctx, vxp_sb *sb, const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  vxp_sb__putc(ctx, sb, '"');
  size_t run = 0, i = 0; /* run: start of the plain bytes not yet copied */
  for (;;) {
    while (plain[p[i]]) /* the NUL is not plain: the run ends at the string's end too */
      i++;
    vxp_sb__append(ctx, sb, s + run, i - run);
    if (p[i] == '\0') break;
    /* A sequence is at most 4 bytes: no need to know how long the rest is. */
    i += put_escaped(ctx, sb, p + i, strnlen(s + i, 4));
    run = i;
  }
  vxp_sb__putc(ctx, sb, '"');
}
