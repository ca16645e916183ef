/* SPDX-License-Identifier: Apache-2.0 */
/* source.h - a private copy of a program's text with its line index. */
#ifndef VXP_SOURCE_H
#define VXP_SOURCE_H

#include "array.h"

/* Invariant: text[len] == '\0'; line_starts[0] == 0 and holds the byte offset of every
 * line's first byte in increasing order (a final line without '\n' counts). */
struct vxp_source {
  vxp_context *ctx;
  char *label;
  char *text;
  size_t len;
  Array(uint32_t) line_starts;
};

/* The 0-based point of byte `offset` (clamped to the text). */
vxp_point vxp_source__point(const vxp_source *src, uint32_t offset);

/* The range of bytes [start, end). */
vxp_range vxp_source__range(const vxp_source *src, uint32_t start, uint32_t end);

#endif /* VXP_SOURCE_H */
