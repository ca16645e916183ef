/* SPDX-License-Identifier: Apache-2.0 */
/* program.h - a parsed program: its tree, model and syntax diagnostics. */
#ifndef VXP_PROGRAM_H
#define VXP_PROGRAM_H

#include <tree_sitter/api.h>

#include "diag.h"
#include "lower.h"
#include "model.h"
#include "reuse.h"
#include "source.h"
#include "strbuf.h"
#include "syntax.h"

/* A top-level node of a reparsed program (an item, or a comment between items) as the next
 * reparse and the reuse plan read it: its kind, its extent, where a function's body starts
 * (0 when it is no function or has no body) and whether it holds an error. Kept for every
 * node, so that a reparse that parses only the window around an edit still knows the whole
 * program's items. */
typedef struct vxp_top_item {
  uint32_t start, end, body;
  TSSymbol sym;
  bool has_error;
} vxp_top_item;

typedef Array(vxp_top_item) vxp_top_items;

/* Invariant: `tree` was parsed from `src->text` (NULL once lowered when the program was
 * parsed with VXP_PROGRAM_NO_TREE, and when a reparse parsed only the window around an edit:
 * then `window_tree` holds that window); `model` is the one a whole tree's lowering gives;
 * `diags` holds syntax errors first (in source order), then lowering problems;
 * `error_windows` <= `windows`, and a program with windows with errors has a syntax error
 * among its diagnostics (syntax_counts[2] > 0). */
struct vxp_program {
  uint32_t tag; /* VXP_TAG_PROGRAM, first: checked on entry (tag.h) */
  vxp_context *ctx;
  const vxp_source *src;
  TSTree *tree;
  /* A reparse that parsed only the window of whole items around the edit (reparse_window.c)
   * keeps no whole tree: `window_tree` is that window's tree, and `edited_tree` the last
   * whole tree of an earlier version, edited (ts_tree_edit) to match this text but never
   * parsed again, which a later reparse that needs a whole tree hands to the parser so that
   * it still re-reads only what changed. Both NULL otherwise. */
  TSTree *window_tree, *edited_tree;
  /* Top-level nodes in order, read once by a reparse (empty otherwise): a cursor over the
   * root's children is slow in this tree-sitter (each step descends the balanced repetition
   * tree), and a reparse and its analysis visit them many times. They are those of items
   * [top_first, top_first + top.len): all of them (from 0) with a whole tree, those of
   * `window_tree` without. */
  Array(TSNode) top;
  uint32_t top_first;
  /* Every top-level node's kind and extent, kept by a reparse (empty otherwise): what the
   * next reparse and the reuse plan read of the items whose nodes it does not hold. */
  vxp_top_items items;
  /* With `top` after a reparse: each node's identity for the next one's changed ranges (its
   * first child's id, NULL for a leaf; program.c, same_top_node), the address of a slot of
   * this program's tree, which holds it taken as long as the program lives. */
  Array(const void *) top_keys;
  vxp_model model; /* with the program's own declarations (model.declarations) */
  vxp_diag_list diags;
  char *sexp;       /* cached S-expression, NULL until asked for */
  bool reused_tree; /* reparsed from an older program's tree (vxp_program_reparse) */
  uint32_t windows; /* the windows it was parsed in (VXP_PARSE_WINDOW), 0 when parsed whole */
  /* Of those, the windows whose tree has a syntax error (each parsed alone, its diagnostics
   * and model its own tree's), and the text from the first one's start to the last one's
   * end, [errors_from, errors_to): where the program may differ from a whole parse's, and
   * beyond, where a whole parse's error recovery reads on past a window's end. */
  uint32_t error_windows, errors_from, errors_to;
  /* What differs from the older program, in this source's coordinates, sorted and
   * disjoint: the whole text unless `reused_tree`. */
  Array(vxp_range) changed;
  /* A reparse's comparison of the two texts (vxp_reuse__diff: prefix, old_end, new_end),
   * made once for the changed ranges and the reuse plan; `diff_src` is the id of the older
   * program's source, 0 when none was made. */
  uint32_t diff[3];
  uint64_t diff_src;
  /* The first syntax_counts[0] + [1] + [2] diagnostics are the syntax checks' three groups
   * (vxp_syntax__diagnose_span), which a reparse reuses outside the items it changed. */
  size_t syntax_counts[3];
  /* The items' boundaries in the model, for a later reparse to take unchanged items over
   * (vxp_lower__splice), and whether this one did. */
  vxp_lower_marks marks;
  bool spliced;
  /* The parsable-length scan's states between items (a reparse's only), valid for a later
   * reparse when `scan_whole` (the scan ran to the end of the text). */
  vxp_scan_marks scan_marks;
  bool scan_whole;
  /* The valid pieces of its long items (syntax.h: vxp_long_memo), kept with the marks: a
   * reparse does not parse again a piece whose bytes are unchanged. */
  vxp_long_memo long_memo;
  /* What differs from the program this one was reparsed from (reuse.c), kept for the
   * analyses that take over an analysis of that program: `plan_base` (compared, never
   * read) and its source's id say which program it was. plan.side is NULL when none. */
  struct vxp_reuse *plan;
  const struct vxp_program *plan_base;
  uint64_t plan_base_src;
  /* The program lives in its own `arena` (VXP_ARENA_HANDLE) with its names' strings and its
   * declarations machine, and, once built (`sealed`), its tables (the model's,
   * vxp_model__each_table, and the program's own, program_tables in program.c) and its
   * diagnostics. Before that its tables have storage of their own: `tables_sealed` counts
   * those moved in, in program_tables' order, when sealing stopped for want of memory.
   * tree-sitter's tree is tree-sitter's. */
  vxp_arena arena;
  size_t tables_sealed;
  bool sealed, diags_sealed, declarations_sealed;
};

/* Append the children of `root` to `out` (an Array(TSNode)), with one cursor pass.
 * VXP_OK or VXP_ENOMEM. */
int vxp_program__top_nodes(vxp_context *ctx, TSNode root, void *out);

/* The record (vxp_top_item) of each of `count` top-level nodes, appended to `items`.
 * VXP_OK or VXP_ENOMEM. */
int vxp_program__top_items(vxp_context *ctx, const TSNode *nodes, size_t count,
                           vxp_top_items *items);

/* The top-level nodes `prog` holds (its `top`, from `top_first`). */
static inline vxp_top_nodes vxp_program__nodes(const vxp_program *prog) {
  vxp_top_nodes v = {prog->top.items, prog->top_first, (uint32_t)prog->top.len};
  return v;
}

/* An empty program of `src` in its own arena; NULL when out of memory. */
vxp_program *vxp_program__new(vxp_context *ctx, const vxp_source *src);

/* Move the finished program's tables and diagnostics into its arena (program.c).
 * VXP_OK or VXP_ENOMEM. */
int vxp_program__seal(vxp_program *prog);

/* Whether the subtrees at `n` and `o` (of two trees, or one) are the same syntax: the same
 * kinds and fields over the same extents, `o`'s moved by the difference of their starts. */
bool vxp_program__same_syntax(TSNode n, TSNode o);

/* Append the range [start, end) of `src` to `list` (an Array(vxp_range)); false when out of
 * memory. */
bool vxp_program__push_range(vxp_context *ctx, const vxp_source *src, void *list, uint32_t start,
                             uint32_t end);

/* Add the text each of the `count` edits `steps` wrote (carried through the later ones) to
 * prog->changed, then sort and merge its ranges. VXP_OK or VXP_ENOMEM. */
int vxp_program__finish_changes(vxp_program *prog, const vxp_source_step *steps, size_t count);

/* Append a copy of `d` (of an older program) to `list`, its ranges (and its notes') moved by
 * `shift` bytes into `src`. false when out of memory. */
bool vxp_program__copy_shifted(vxp_context *ctx, const vxp_source *src, vxp_diag_list *list,
                               const vxp_diagnostic *d, int64_t shift);

/* Whether a window of whole top-level items may start (or end) at scan mark `m` of `src`:
 * a complete item ended there, outside any stray text, and a blank or a line break follows,
 * so that no token spans the boundary. The text's whole parse is then the parses of the
 * windows between such marks, each parsed alone, one after the other. */
bool vxp_program__window_start(const vxp_source *src, const vxp_scan_mark *m);

/* A copy of `whole` (a whole tree) edited by the `count` edits `steps`: what the parser is
 * handed to re-read only what they touched. Owned by the caller (ts_tree_delete). */
TSTree *vxp_program__edited_tree(const TSTree *whole, const vxp_source_step *steps, size_t count);

/* vxp_program_reparse of `old` for `src` (`steps` its edits since old->src) that parses only
 * the window of whole top-level items around the changed text, when the change allows it
 * (reparse_window.c): sets *out and returns VXP_OK; returns 1 when it does not apply (nothing
 * was made, nothing reported), or an error code. */
int vxp_program__reparse_window(vxp_program **out, vxp_context *ctx, const vxp_program *old,
                                const vxp_source *src, const vxp_source_step *steps, size_t count);

/* A program that keeps no tree (VXP_PROGRAM_NO_TREE) longer than this many bytes is parsed
 * in windows of about this size, each window's tree freed before the next is parsed, so that
 * at most one window's tree takes memory at a time (issue 18's bound: a whole tree takes
 * about 27 bytes per byte of dense source). A window starts at an item boundary of the
 * parsable-length scan (a blank or line break after a complete top-level item, outside stray
 * text). A window whose tree has a syntax error is kept as it was parsed, alone: its error
 * recovery stops at the window's ends, so its diagnostics and items may differ from a whole
 * parse's, but a text has a syntax error in some window exactly when its whole parse has
 * one. */
#define VXP_PARSE_WINDOW (1u << 20)

/* Where the windows of `src` begin, and its length last (two windows or more), as a
 * program parsed with VXP_PROGRAM_NO_TREE on this context found them: VXP_OK, 1 (with
 * nothing in `cuts`) when the text is not parsed in windows, or VXP_ENOMEM. The caller frees
 * `cuts` (array_free). */
typedef Array(uint32_t) vxp_window_cuts;
int vxp_program__window_cuts(vxp_context *ctx, const vxp_source *src, vxp_window_cuts *cuts);

/* Parse the window [a, b) of `src` alone into `*out` (the nodes keep their offsets in the
 * whole text); the caller deletes the tree. VXP_OK, VXP_ECANCELLED or VXP_ERROR (reported). */
int vxp_program__parse_window(vxp_context *ctx, const vxp_source *src, uint32_t a, uint32_t b,
                              TSTree **out);

/* The free function ts_set_allocator installed (libc's free by default). The 0.20 runtime
 * exports it but its public header does not declare it; what tree-sitter allocates for the
 * caller (ts_node_string, ts_tree_get_changed_ranges) must go back through it. */
extern void (*ts_current_free)(void *);

/* The tree under `root` in tree-sitter's S-expression notation, written without recursion
 * whatever its depth. Owned by the caller (vxp_ctx__free); NULL when out of memory. */
char *vxp_sexp__render(vxp_context *ctx, TSNode root);

/* The same notation streamed (vxp_program_write_sexp): appended to a buffer that is handed
 * to `write` whenever it holds 64 KiB, so that the text is never held whole. */
typedef struct vxp_sexp_out {
  vxp_context *ctx;
  vxp_sb sb;
  vxp_sb_sink to; /* no writer: the text stays in `sb` (vxp_program_sexp) */
} vxp_sexp_out;

void vxp_sexp__out_init(vxp_sexp_out *o, vxp_context *ctx, vxp_write_fn write, void *arg);
/* Text as it is; false when out of memory or refused (then nothing more is written). */
bool vxp_sexp__put(vxp_sexp_out *o, const char *text);
/* The tree under `root`, or with `children_only` its children alone, each as it is written
 * inside the root (" (kind ...)"): a text parsed in windows is its first root's
 * "(source_file", every window's children, then ")". */
bool vxp_sexp__tree(vxp_sexp_out *o, TSNode root, bool children_only);
/* Hand over what is left and free the buffer: VXP_OK, VXP_ENOMEM, or VXP_EIO when the
 * writer refused, recorded on the context. */
int vxp_sexp__out_finish(vxp_sexp_out *o);

/* The reuse plan of a reparse (reuse.h: vxp_reuse). */
/* Plan what the results of `prog` can take from those of `old`, an earlier version of the
 * same program, from their top-level item records (vxp_program.items: a program a reparse
 * made; R->prev is left NULL: an analysis sets it). Returns 1 when something can be
 * taken, 0 when not (then `R` holds nothing to free), or VXP_ENOMEM. */
int vxp_program__plan_reuse(vxp_reuse *R, vxp_context *ctx, const vxp_program *old,
                            const vxp_program *prog);

/* The invariants of a program and its model, as assertions (the assertion builds only:
 * VXP__CHECK). */
#if defined(VXP_ASSERTIONS)
void vxp_check__program(const vxp_program *prog);
#endif

#endif /* VXP_PROGRAM_H */
