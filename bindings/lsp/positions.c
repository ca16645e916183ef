/* SPDX-License-Identifier: Apache-2.0 */
/* positions.c - LSP positions count UTF-16 code units within a line; the library counts
 * bytes. Both directions are the library's (vxp_source_utf16_offset and
 * vxp_source_utf16_column), so the server and the library agree on where a line ends. */
#include "lsp.h"

bool lsp_position_to_byte(const vxp_source *src, json_t *pos, uint32_t *out) {
  json_t *jl = json_object_get(pos, "line"), *jc = json_object_get(pos, "character");
  if (!json_is_integer(jl) || !json_is_integer(jc)) return false;
  json_int_t line = json_integer_value(jl), col = json_integer_value(jc);
  if (line < 0 || col < 0) return false;
  /* Beyond 32 bits is beyond any text the library holds: clamp, as LSP clamps. */
  *out = vxp_source_utf16_offset(src, line > UINT32_MAX ? UINT32_MAX : (uint32_t)line,
                                 col > UINT32_MAX ? UINT32_MAX : (uint32_t)col);
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

vxp_point lsp_point_of(const vxp_source *src, uint32_t byte) { return vxp_source_point(src, byte); }
