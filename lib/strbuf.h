/* SPDX-License-Identifier: Apache-2.0 */
/* strbuf.h - the one growable text buffer: reports, names, messages and generated code are
 * all written into a vxp_sb, whose memory comes from a context's allocator. */
#ifndef VXP_STRBUF_H
#define VXP_STRBUF_H

#include <stdarg.h>

#include "internal.h"

/* A growable NUL-terminated string; a zeroed one is empty and valid. Appends never fail
 * loudly: the first allocation failure sets `failed`, later appends do nothing, and the
 * owner checks `failed` once at the end (vxp_sb__finish). So a writer can append freely and
 * test for VXP_ENOMEM in one place.
 * Invariant: data is NULL (cap == 0) or holds len bytes plus a NUL, with len < cap; a failed
 * append leaves the text as it was before that append. */
typedef struct vxp_sb {
  char *data;
  size_t len, cap;
  bool failed;
  /* When set (vxp_sb__in_arena), the text grows in this arena (a handle's) and goes with it:
   * vxp_sb__free then only empties the buffer, and vxp_sb__detach is not used. */
  struct vxp_arena *arena;
} vxp_sb;

/* An empty buffer whose text lives in `arena` (arena.h): a handle's own text. */
vxp_sb vxp_sb__in_arena(struct vxp_arena *arena);

void vxp_sb__append(vxp_context *ctx, vxp_sb *sb, const char *s, size_t len);
void vxp_sb__puts(vxp_context *ctx, vxp_sb *sb, const char *s);
void vxp_sb__putc(vxp_context *ctx, vxp_sb *sb, char c);
void vxp_sb__printf(vxp_context *ctx, vxp_sb *sb, const char *fmt, ...) VXP__PRINTF(3, 4);
void vxp_sb__vprintf(vxp_context *ctx, vxp_sb *sb, const char *fmt, va_list ap) VXP__PRINTF(3, 0);
/* `s` as the body of a JSON string (without the quotes): quote, backslash and control
 * characters escaped, everything else (UTF-8 included) copied. */
void vxp_sb__json_escape(vxp_context *ctx, vxp_sb *sb, const char *s, size_t len);

/* The text (never NULL: "" when nothing was written); borrowed from the buffer. */
const char *vxp_sb__text(const vxp_sb *sb);

/* Take the text out of the buffer, which is left empty: the caller owns the returned string
 * (free with vxp_ctx__free) and `len` (may be NULL) receives its length. Returns NULL when an
 * append failed (the partial text is freed) or the empty string cannot be allocated. */
char *vxp_sb__detach(vxp_context *ctx, vxp_sb *sb, size_t *len);

/* Hand the text to `write` (when there is any) and empty the buffer, keeping its storage,
 * so that a streamed report holds one piece at a time. Returns false, with the buffer
 * marked failed so that later appends do nothing, when an append had failed or `write`
 * returned non-zero; `*refused` (may be NULL) is then set when it was `write`. */
bool vxp_sb__drain(vxp_sb *sb, vxp_write_fn write, void *arg, bool *refused);

/* Where a streamed text goes: the buffer it is built in, handed to `write` whenever it
 * holds VXP__SB_SPILL bytes, so that the text is never held whole (the S-expression, the
 * JSON report, the plot, the CUDA program). Without a writer the text stays in the buffer. */
typedef struct vxp_sb_sink {
  vxp_write_fn write;
  void *arg;
  bool refused; /* the writer returned non-zero */
} vxp_sb_sink;

#define VXP__SB_SPILL ((size_t)64 << 10)

/* Hand `sb`'s text to the sink's writer once it holds VXP__SB_SPILL bytes (whatever it holds
 * with `all`); nothing without a writer. false when an append had failed or the writer
 * refused (vxp_sb__drain). */
static inline bool vxp_sb__spill(vxp_sb *sb, vxp_sb_sink *to, bool all) {
  if (!to->write || (!all && sb->len < VXP__SB_SPILL)) return !sb->failed;
  return vxp_sb__drain(sb, to->write, to->arg, &to->refused);
}

/* Free the text and leave the buffer empty (and not failed; still bound to its arena). */
void vxp_sb__free(vxp_context *ctx, vxp_sb *sb);

#endif /* VXP_STRBUF_H */
