/* SPDX-License-Identifier: Apache-2.0 */
/* long_items.h - parsing a top-level item longer than VXP_MAX_PENDING_TOKENS.
 *
 * tree-sitter 0.20's faults (its 16-bit child count, error recovery whose time grows with
 * the square of its stack) only bite on broken text: on valid text the parser's stack holds
 * the open brackets and the statement being read, whatever the item's length. So a long item
 * is first checked in bounded pieces, each the item's head, a run of whole statements of its
 * body and its closing brace, parsed with tree-sitter's included ranges (the nodes keep their
 * offsets in the whole text). A block of more than VXP_LONG_PIECE_TOKENS tokens inside the
 * body (a `for`, `if`, `spawn` ... of 10^5 statements, at any depth) is checked the same way in
 * its own pieces: the item's head and the statements on the path down to it with the long
 * blocks' insides left out (`for i in 0..2 {`; `if c {` `} else {`), a run of whole statements
 * of the block, then each block's `}` and the rest of its statement on the way back. A long
 * comma-separated list (an array literal's `[`, a call's arguments: any list of the grammar
 * but a tuple's and `grad`'s) is checked so too, in runs of whole elements split at its
 * commas (`let t = [` before, `];` after; every such list takes a trailing comma). A
 * top-level `const` (a generated table, ended by its `;`) is one such statement, checked
 * through its long lists (`const T : Tensor<i64, [N]> = [` before, `];` after). When
 * every piece parses without an error, the whole item is valid and is parsed whole like any
 * other item; when one does not, its error recovery has run on a piece of bounded size, and
 * the item is not parsed whole (VXP0003 names why). Pieces cost at most about twice their
 * runs, and at most 4 times the item's tokens in all (else VXP_LONG_NESTED). The check of an
 * edited text walks the same pieces but parses only those whose bytes changed; the others are
 * valid pieces of the earlier check's, byte for byte (vxp_long_memo_use). */
#ifndef VXP_LONG_ITEMS_H
#define VXP_LONG_ITEMS_H

#include <stdint.h>

#include "diag.h"
#include "syntax.h"
#include "source.h"

/* The tokens of one piece's run of statements: a run ends at the first statement boundary
 * past this many. Small enough that error recovery inside a piece stays fast (its time
 * grows with the square of what it swallows), large enough that the item's head, parsed once
 * per piece, costs little. */
#define VXP_LONG_PIECE_TOKENS 4096

/* The most tokens a piece may hold (the segments around its run, and the run): a run with no
 * boundary before this fails the check (one statement of tens of thousands of tokens outside
 * the long blocks and lists it holds: `grad`'s arguments, a chain of operators), so no piece
 * comes near the fault VXP_MAX_PENDING_TOKENS guards. */
#define VXP_LONG_PIECE_MAX 49152

/* The most long blocks and lists (each holding more than VXP_LONG_PIECE_TOKENS tokens) nested
 * in one another within an item, each checked through its own pieces. */
#define VXP_LONG_DEPTH_MAX 256

/* The most tokens of an item's head (its text before the body's `{`). */
#define VXP_LONG_HEAD_MAX 4096

typedef enum vxp_long_verdict {
  VXP_LONG_VALID,   /* every piece parsed without an error: parse the item whole */
  VXP_LONG_SYNTAX,  /* a piece has a syntax error, the first at `at` */
  VXP_LONG_UNSPLIT, /* more than VXP_LONG_PIECE_MAX tokens with no statement boundary outside
                     * a long block or list, at `at` */
  VXP_LONG_HEAD,    /* the head runs past VXP_LONG_HEAD_MAX tokens, at `at` */
  VXP_LONG_NO_BODY, /* no `{` opens a body at the item's top level */
  VXP_LONG_NESTED,  /* long blocks or lists nested past VXP_LONG_DEPTH_MAX, or so that
                     * checking them would parse more than 4 times the item's tokens, at `at` */
  VXP_LONG_STOPPED  /* a piece's parse was cancelled, ran out of time or failed */
} vxp_long_verdict;

typedef struct vxp_long_check {
  vxp_long_verdict verdict;
  uint32_t at;     /* where the verdict's fault is (the item's start when none) */
  uint32_t pieces; /* pieces parsed */
  uint32_t kept;   /* pieces not parsed: their bytes are those of a valid piece of the memo */
} vxp_long_check;

/* An earlier check's memo (syntax.h: vxp_long_memo) and where the texts differ: this text's
 * [0, prefix) is the earlier text's, and its [tail, len) the earlier text's [tail - shift,
 * len - shift). A piece whose every range lies in one of the two, and whose ranges moved back
 * to the earlier text are exactly a kept piece's, holds the same bytes as that piece in the
 * same order, so its parse has no error either: it is not parsed. Every other piece is. */
typedef struct vxp_long_memo_use {
  const vxp_long_memo *old; /* NULL: none, every piece is parsed */
  uint32_t prefix, tail;
  int64_t shift;
  vxp_long_memo *memo; /* this text's memo, appended to (NULL: none) */
} vxp_long_memo_use;

/* Check the item [start, end) of `src` (from its first token to the `}` that closes its body,
 * or a `const`'s `;` or the line of the next item when it lacks one, which the scan of
 * syntax_scan.c found) in pieces with the context's parser. With `diags`, the
 * syntax diagnostics of the first piece with an error are appended to it (each in the whole
 * text's coordinates). With `use` (NULL: none), pieces that an earlier check found valid are
 * not parsed again, and the valid pieces are appended to use->memo: the verdict is the same
 * as without. VXP_OK (the verdict in *out) or VXP_ENOMEM. */
int vxp_long_item__check(vxp_context *ctx, const vxp_source *src, uint32_t start, uint32_t end,
                         const vxp_long_memo_use *use, vxp_long_check *out, vxp_diag_list *diags);

#endif
