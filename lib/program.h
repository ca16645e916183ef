/* SPDX-License-Identifier: Apache-2.0 */
/* program.h - a parsed program: its tree, model and syntax diagnostics. */
#ifndef VXP_PROGRAM_H
#define VXP_PROGRAM_H

#include <tree_sitter/api.h>

#include "diag.h"
#include "model.h"

/* Invariant: `tree` was parsed from `src->text`; `model` was lowered from `tree`;
 * `diags` holds syntax errors first (in source order), then lowering problems. */
struct vxp_program {
  vxp_context *ctx;
  const vxp_source *src;
  TSTree *tree;
  vxp_model model;
  vxp_diag_list diags;
  char *sexp;           /* cached S-expression, NULL until asked for */
  bool reused_tree;     /* reparsed from an older program's tree (vxp_program_reparse) */
  /* What differs from the older program, in this source's coordinates, sorted and
   * disjoint: the whole text unless `reused_tree`. */
  Array(vxp_range) changed;
  /* The first syntax_counts[0] + [1] + [2] diagnostics are the syntax checks' three groups
   * (vxp_syntax__diagnose_span), which a reparse reuses outside the items it changed. */
  size_t syntax_counts[3];
};

/* Parse the first `len` bytes of `src` into `*out` with the context's parser, reusing
 * `old_tree` (edited to match) when not NULL, under the call's cancellation flag and time
 * budget. VXP_ECANCELLED (reported) when either stopped it, VXP_ERROR when the parser gave
 * no tree otherwise. */
int vxp_program__parse_tree(vxp_context *ctx, const vxp_source *src, const TSTree *old_tree,
                            uint32_t len, TSTree **out);

/* Append one diagnostic per ERROR or MISSING node under `root` to `diags`, and one per
 * name spelled as a reserved word or obsolete spelling. */
int vxp_syntax__diagnose(vxp_context *ctx, const vxp_source *src, TSNode root,
                         vxp_diag_list *diags);

/* vxp_syntax__diagnose restricted to the top-level nodes of `root` starting in [from, to)
 * (and the words of that text), appending three groups in this order: reserved words used
 * as names, obsolete spellings, ERROR/MISSING nodes, each in source order; counts[g] is the
 * size of group g. [0, UINT32_MAX) is the whole program. */
int vxp_syntax__diagnose_span(vxp_context *ctx, const vxp_source *src, TSNode root,
                              uint32_t from, uint32_t to, vxp_diag_list *diags,
                              size_t counts[3]);

/* Brackets ( [ { open at once beyond which a text is not parsed. tree-sitter 0.20's parser
 * corrupts its heap when tens of thousands of brackets are left open (found by fuzzing:
 * `if x {` 32,000 times aborts in free()), and no function nested this deep can be
 * analysed anyway (lowering stops at VXP_MAX_NESTING). */
#define VXP_MAX_BRACKET_DEPTH 8192

/* The length of the prefix of `src` that is safe to hand to the parser: all of it, unless
 * brackets (outside comments and strings) nest deeper than VXP_MAX_BRACKET_DEPTH, then up
 * to the bracket that goes too deep. */
uint32_t vxp_syntax__parsable_length(const vxp_source *src);

/* VXP0003 at byte `cut` of `src`: the text from there on was not parsed. */
int vxp_syntax__report_cut(vxp_context *ctx, const vxp_source *src, uint32_t cut,
                           vxp_diag_list *diags);

#endif /* VXP_PROGRAM_H */
