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
};

/* Append one diagnostic per ERROR or MISSING node under `root` to `diags`. */
int vxp_syntax__diagnose(vxp_context *ctx, const vxp_source *src, TSNode root,
                         vxp_diag_list *diags);

#endif /* VXP_PROGRAM_H */
