/* SPDX-License-Identifier: Apache-2.0 */
/* source.h - a private copy of a program's text with its line index. */
#ifndef VXP_SOURCE_H
#define VXP_SOURCE_H

#include "array.h"

struct vxp_arena;

/* One edit in a source's history: the version `from_id` became the next version by
 * replacing [start_byte, old_end_byte) with new text ending at new_end_byte. The points are
 * 0-based line and byte column in the old text (start, old_end) and the new (new_end), as
 * ts_tree_edit wants them. */
typedef struct vxp_source_step {
  uint64_t from_id;
  uint32_t start_byte, old_end_byte, new_end_byte;
  vxp_point start_point, old_end_point, new_end_point;
} vxp_source_step;

/* How many edits a source remembers: a program parsed from a version at most this many
 * edits back is reparsed incrementally; an older one is parsed afresh (same result). */
#define VXP__SOURCE_HISTORY 64

/* Invariant: text[len] == '\0'; line_starts[0] == 0 and holds the byte offset of every
 * line's first byte in increasing order (a final line without '\n' counts). `id` is
 * unique among the sources of `ctx`; `history` holds the edits that led from earlier
 * versions to this one, oldest first, its last step's `from_id` the direct parent. */
struct vxp_source {
  uint32_t tag; /* VXP_TAG_SOURCE, first: checked on entry (tag.h) */
  vxp_context *ctx;
  uint64_t id;
  char *label;
  char *text;
  size_t len;
  Array(uint32_t) line_starts;
  Array(vxp_source_step) history;
};

/* A source made in `arena` (a handle's, which owns it: never vxp_source_free it), as
 * vxp_source_new makes one: a built-in machine's text. NULL on allocation failure. */
const vxp_source *vxp_source__new_in(vxp_context *ctx, struct vxp_arena *arena, const char *label,
                                     const char *text, size_t len);

/* Where the `count` edits `steps` (count > 0, in order, each in the coordinates of the version
 * it edits) changed the text: the first version's [*prefix, *old_end) became the last's
 * [*prefix, *new_end), and the rest of both is the same text. The span holds every byte an
 * edit wrote, so it may hold unchanged bytes too (an edit that wrote what was there); found
 * from the edits alone, without reading either text. */
void vxp_source__steps_span(const vxp_source_step *steps, size_t count, uint32_t *prefix,
                            uint32_t *old_end, uint32_t *new_end);

/* The 0-based point of byte `offset` (clamped to the text). */
vxp_point vxp_source__point(const vxp_source *src, uint32_t offset);

/* The range of bytes [start, end). */
vxp_range vxp_source__range(const vxp_source *src, uint32_t start, uint32_t end);

/* vxp_source__range with `*line_hint` (any value; 0 to start) as where to look for the
 * start's line first; sets it to the start's line. A walk that asks for ranges in source
 * order finds each a few lines below the last instead of bisecting the file's lines. */
vxp_range vxp_source__range_near(const vxp_source *src, uint32_t start, uint32_t end,
                                 uint32_t *line_hint);

/* Whether byte `c` continues a word of Vx text (an identifier, a keyword or a number: ASCII
 * letters, digits, `_`, and any byte of a non-ASCII character). Every scan of the text that
 * reads words (the parsable-length scan, long items' pieces, the reserved-word scan, a
 * callee's name found in an item's text) reads them by this one rule. */
static inline bool vxp_source__word_byte(unsigned char c) {
  return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         c >= 0x80;
}

#endif /* VXP_SOURCE_H */
