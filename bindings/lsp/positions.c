/* SPDX-License-Identifier: Apache-2.0 */
/* positions.c - LSP positions count UTF-16 code units within a line; the library counts
 * bytes. Lines come from the source's own line index (vxp_source_line), so both sides
 * agree on where a line ends ("\n" or "\r\n"). */
#include "lsp.h"

/* The length of the UTF-8 sequence starting at `p` (at most `n` bytes) and the UTF-16
 * units it takes; an invalid or cut sequence is one byte and one unit, as
 * vxp_source_utf16_column counts it. */
static size_t utf8_step(const unsigned char *p, size_t n, uint32_t *units) {
  *units = 1;
  size_t len = p[0] < 0x80 ? 1 : (p[0] >> 5) == 0x6 ? 2 : (p[0] >> 4) == 0xE ? 3
                                 : (p[0] >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || len > n) return 1;
  for (size_t i = 1; i < len; i++)
    if ((p[i] & 0xC0) != 0x80) return 1;
  if (len == 4) *units = 2;
  return len;
}

bool lsp_position_to_byte(const vxp_source *src, json_t *pos, uint32_t *out) {
  json_t *jl = json_object_get(pos, "line"), *jc = json_object_get(pos, "character");
  if (!json_is_integer(jl) || !json_is_integer(jc)) return false;
  json_int_t line = json_integer_value(jl), col = json_integer_value(jc);
  if (line < 0 || col < 0) return false;
  size_t total;
  const char *text = vxp_source_text(src, &total);
  uint32_t lines = vxp_source_line_count(src);
  if (line >= (json_int_t)lines) { /* past the last line: the end of the text */
    *out = (uint32_t)total;
    return true;
  }
  size_t len;
  const char *l = vxp_source_line(src, (uint32_t)line, &len);
  if (!l) {
    *out = (uint32_t)total;
    return true;
  }
  size_t i = 0;
  json_int_t units = 0;
  while (i < len && units < col) {
    uint32_t u;
    i += utf8_step((const unsigned char *)l + i, len - i, &u);
    units += u; /* a column inside a surrogate pair lands after the character */
  }
  *out = (uint32_t)((size_t)(l - text) + i);
  return true;
}

json_t *lsp_position(const vxp_source *src, vxp_point p) {
  return json_pack("{s:I, s:I}", "line", (json_int_t)p.line, "character",
                   (json_int_t)vxp_source_utf16_column(src, p));
}

json_t *lsp_range(const vxp_source *src, vxp_range r) {
  return json_pack("{s:o, s:o}", "start", lsp_position(src, r.start), "end",
                   lsp_position(src, r.end));
}

vxp_point lsp_point_of(const vxp_source *src, uint32_t byte) {
  const char *text = vxp_source_text(src, NULL);
  uint32_t lo = 0, hi = vxp_source_line_count(src);
  vxp_point p = {0, byte};
  if (hi == 0) return p;
  /* the last line starting at or before `byte` */
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    size_t len;
    const char *l = vxp_source_line(src, mid, &len);
    if ((uint32_t)(l - text) <= byte) lo = mid;
    else hi = mid;
  }
  size_t len;
  const char *l = vxp_source_line(src, lo, &len);
  p.line = lo;
  p.column = byte - (uint32_t)(l - text);
  return p;
}
