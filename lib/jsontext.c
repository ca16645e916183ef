/* SPDX-License-Identifier: Apache-2.0 */
/* jsontext.c - JSON strings of text that may not be UTF-8 (jsontext.h). */
#include "jsontext.h"

#include <stdint.h>
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

json_t *vxp_json__text(const char *s) {
  json_t *v = json_string(s);
  if (v || !s) return v;
  /* Not UTF-8 (or out of memory): a repaired copy, from jansson's own allocator, which
   * is where the string's memory comes from anyway. */
  json_malloc_t jmalloc;
  json_free_t jfree;
  json_get_alloc_funcs(&jmalloc, &jfree);
  size_t len = strlen(s);
  if (len > (SIZE_MAX - 1) / 3) return NULL;
  unsigned char *out = jmalloc(len * 3 + 1), *o = out;
  if (!out) return NULL;
  const unsigned char *p = (const unsigned char *)s;
  for (size_t i = 0; i < len;) {
    size_t n = vxp_json__utf8_len(p + i, len - i);
    if (n) {
      memcpy(o, p + i, n);
      o += n;
      i += n;
    } else { /* U+FFFD for the byte */
      *o++ = 0xEF;
      *o++ = 0xBF;
      *o++ = 0xBD;
      i++;
    }
  }
  *o = '\0';
  v = json_string((const char *)out);
  jfree(out);
  return v;
}
