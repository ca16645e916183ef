/* SPDX-License-Identifier: Apache-2.0 */
/* syntax.h - the syntax layer: parsing a source into a tree-sitter tree (within the limits
 * the parser survives), the syntax diagnostics of a tree, and the walk limits every reader
 * of a tree keeps to. It knows nothing of the model, the machine or the analysis: lowering
 * and the declarations reader read the trees it makes. */
#ifndef VXP_SYNTAX_H
#define VXP_SYNTAX_H

#include <tree_sitter/api.h>

#include "diag.h"
#include "source.h"

/* Lowering refuses to follow syntax nested deeper than this (the walk recurses), and says
 * so with an error diagnostic: a function it cannot read is never admitted. */
#define VXP_MAX_NESTING 1000

/* The syntax nodes of some of a program's top-level nodes: those of items [first, first +
 * count), in order (all of them, from 0, when the program keeps its whole tree). */
typedef struct vxp_top_nodes {
  const TSNode *nodes;
  uint32_t first, count;
} vxp_top_nodes;

/* Node `k` of `v` into *out; false when `v` does not hold it. */
static inline bool vxp_top_nodes__get(const vxp_top_nodes *v, uint32_t k, TSNode *out) {
  if (k < v->first || k - v->first >= v->count) return false;
  *out = v->nodes[k - v->first];
  return true;
}

/* The state of vxp_syntax__parsable_length's scan between two top-level items (at bracket
 * depth 0), and where the next item begins: what a later scan of an edited text resumes
 * from. */
typedef struct vxp_scan_mark {
  uint32_t at;
  uint32_t nested, pending, angles, stray;
  uint8_t window;
  bool tainted, block_closed;
  uint32_t stray_run, recovered; /* stray tokens since recovery last ended; ended, in all */
  bool macro;                    /* a `!` in the stray text since recovery last ended */
} vxp_scan_mark;

typedef Array(vxp_scan_mark) vxp_scan_marks;

/* What a check of a long item in pieces (long_items.h) keeps for the check of a later text:
 * each piece that parsed without an error, as its ranges of the text (`spans[first ..
 * first + count)`, in the order they were parsed), its item's [item_start, item_end) and
 * `key`, the start of its run of statements. The pieces are in increasing `key`. A piece of a
 * later text whose ranges hold the same bytes as a kept piece's has no error either (the
 * parse reads the ranges' bytes and nothing else), so it is not parsed again. `parsed` and
 * `kept` count the pieces that the scan which made the memo parsed and took from an earlier
 * memo. */
typedef struct vxp_long_span {
  uint32_t a, b;
} vxp_long_span;

typedef struct vxp_long_piece {
  uint32_t item_start, item_end, key, first, count;
} vxp_long_piece;

typedef struct vxp_long_memo {
  Array(vxp_long_piece) pieces;
  Array(vxp_long_span) spans;
  uint32_t parsed, kept;
} vxp_long_memo;

/* The first mark of `marks` (sorted by offset) at or after offset `at`; marks->len when none. */
size_t vxp_scan_marks__first_at(const vxp_scan_marks *marks, uint64_t at);

/* The first of the `count` top-level nodes `top` (in order) that starts at or after `at`;
 * `count` when none. */
size_t vxp_syntax__first_node_at(const TSNode *top, size_t count, uint32_t at);

/* Parse the first `len` bytes of `src` into `*out` with the context's parser, reusing
 * `old_tree` (edited to match) when not NULL, under the call's cancellation flag and time
 * budget. VXP_ECANCELLED (reported) when either stopped it, VXP_ERROR when the parser gave
 * no tree otherwise. */
int vxp_syntax__parse_tree(vxp_context *ctx, const vxp_source *src, const TSTree *old_tree,
                           uint32_t len, TSTree **out);

/* Append one diagnostic per ERROR or MISSING node under `root` to `diags`, and one per
 * name spelled as a reserved word or obsolete spelling. */
int vxp_syntax__diagnose(vxp_context *ctx, const vxp_source *src, TSNode root,
                         vxp_diag_list *diags);

/* vxp_syntax__diagnose restricted to the top-level nodes of `root` starting in [from, to)
 * (and the words of that text), appending three groups in this order: reserved words used
 * as names, obsolete spellings, ERROR/MISSING nodes, each in source order; counts[g] is the
 * size of group g. [0, UINT32_MAX) is the whole program. `top` (NULL when not read) holds
 * the root's `top_count` children in order (vxp_program.top): then only the children in
 * the span are visited, found by bisection, instead of a cursor pass over all of them. */
int vxp_syntax__diagnose_span(vxp_context *ctx, const vxp_source *src, TSNode root,
                              const TSNode *top, size_t top_count, uint32_t from, uint32_t to,
                              vxp_diag_list *diags, size_t counts[3]);

/* Brackets ( [ { open at once beyond which a text is not parsed. tree-sitter 0.20's parser
 * corrupts its heap when tens of thousands of brackets are left open (found by fuzzing:
 * `if x {` 32,000 times aborts in free()), and no function nested this deep can be
 * analysed anyway (lowering stops at VXP_MAX_NESTING). */
#define VXP_MAX_BRACKET_DEPTH 8192

/* Tokens in one top-level item (counted from the end of the last complete one) beyond which
 * a text is not parsed. The fault behind the bracket limit is tree-sitter 0.20's 16-bit
 * child count: a node of 65,536 children or more (stack entries wrapped into one ERROR node
 * by error recovery) frees a wrong pointer. It happens without brackets too (`let a: A<`
 * 33,000 times, `if x < ` 40,000 times, 65,530 unary minuses left open). The stack holds
 * at most the tokens since the last complete item, and this count over-estimates them
 * (punctuation counts a token per byte), so the parser stays clear of it. Legitimate items
 * stay far below (the largest of the examples: 2,722). */
#define VXP_MAX_PENDING_TOKENS 61440

/* Tokens of statements left open (or of text outside any item) beyond which a text is not
 * parsed: tree-sitter's error recovery on a stack that deep takes time growing with its
 * square (syntax.c). No analysable statement is this deep (lowering stops at 1000 levels). */
#define VXP_MAX_NESTED_TOKENS 4096

/* Stray text of at most this many tokens (since the last point where recovery ended), with
 * no macro invocation in it, ends at the next line that starts in column 0 with an item
 * keyword: the grammar's scanner makes that line break an _item_start, tree-sitter's error
 * recovery returns to the top level there with the stray text in an ERROR node, and the
 * stack holds nothing of it (syntax.c). At most VXP_MAX_PENDING_TOKENS stray tokens of a
 * text end this way, which bounds the recovery's work; after that stray text taints the
 * rest of the text as before. */
#define VXP_MAX_RECOVERED_STRAY 256

typedef enum vxp_syntax_cut {
  VXP_SYNTAX_CUT_NONE,
  VXP_SYNTAX_CUT_BRACKETS, /* brackets nested deeper than VXP_MAX_BRACKET_DEPTH */
  VXP_SYNTAX_CUT_TOKENS,   /* more than VXP_MAX_PENDING_TOKENS tokens in one item */
  VXP_SYNTAX_CUT_NESTING,  /* more than VXP_MAX_NESTED_TOKENS tokens of open statements */
  VXP_SYNTAX_CUT_STRAY,    /* more than VXP_MAX_NESTED_TOKENS tokens outside any item */
  VXP_SYNTAX_CUT_LONG      /* an item past VXP_MAX_PENDING_TOKENS that is not parsed whole
                            * (long_items.h): cut at its start */
} vxp_syntax_cut;

/* The scan (syntax_scan.c, above syntax.c and long_items.c in the layer).
 *
 * The length of the prefix of `src` that is safe to hand to the parser: all of it, unless
 * brackets (outside comments and strings) nest deeper than VXP_MAX_BRACKET_DEPTH or a
 * top-level item runs past VXP_MAX_PENDING_TOKENS tokens; then up to the token that goes
 * too far, and `why` says which. With `ctx` (NULL: none), a braced item past
 * VXP_MAX_PENDING_TOKENS is checked in pieces with its parser (long_items.h) and kept whole
 * when they are valid; otherwise the text is cut at the item's start (VXP_SYNTAX_CUT_LONG). */
uint32_t vxp_syntax__parsable_length(vxp_context *ctx, const vxp_source *src, vxp_syntax_cut *why);

/* vxp_syntax__parsable_length, recording in `marks` (appended to, empty on entry) the
 * scan's state after each complete top-level item. With the marks `old` of a scan of
 * `old_src` (an earlier version of `src`) that ran to its end, the scan resumes at the
 * last of them before the first changed byte and stops at the first state after the
 * change that the earlier scan had at the same text (the rest would repeat it): a one-line
 * edit scans an item or two, not the file. The result is the whole scan's. Sets *out and
 * *why; VXP_OK or VXP_ENOMEM (then `marks` is incomplete). */
int vxp_syntax__parsable_length_marked(vxp_context *ctx, const vxp_source *src,
                                       const vxp_source *old_src, const vxp_scan_marks *old,
                                       vxp_scan_marks *marks, uint32_t *out, vxp_syntax_cut *why);

/* vxp_syntax__parsable_length_marked that also records in `memo` (appended to, empty on
 * entry; NULL: none) the valid pieces of the long items it checks, and with `old_memo` (the
 * memo of the scan that made `old`; NULL: none) takes the verdict of a piece whose bytes
 * are those of one of its pieces instead of parsing it again. The memo of the items that the
 * resumed scan does not read again is `old_memo`'s, moved with the text. */
int vxp_syntax__parsable_length_memo(vxp_context *ctx, const vxp_source *src,
                                     const vxp_source *old_src, const vxp_scan_marks *old,
                                     const vxp_long_memo *old_memo, vxp_scan_marks *marks,
                                     vxp_long_memo *memo, uint32_t *out, vxp_syntax_cut *why);

/* vxp_syntax__parsable_length_memo when the caller knows where the texts differ: `src`'s
 * [prefix, new_end) replaced `old_src`'s [prefix, old_end), the rest of both is the same
 * text (a span that holds more than the change is fine: the scan resumes earlier). */
int vxp_syntax__parsable_length_resumed(vxp_context *ctx, const vxp_source *src,
                                        const vxp_source *old_src, const vxp_scan_marks *old,
                                        const vxp_long_memo *old_memo, uint32_t prefix,
                                        uint32_t old_end, uint32_t new_end, vxp_scan_marks *marks,
                                        vxp_long_memo *memo, uint32_t *out, vxp_syntax_cut *why);

/* VXP0003 at byte `cut` of `src`: the text from there on was not parsed, for `why`. */
int vxp_syntax__report_cut(vxp_context *ctx, const vxp_source *src, uint32_t cut,
                           vxp_syntax_cut why, vxp_diag_list *diags);

#endif /* VXP_SYNTAX_H */
