/* SPDX-License-Identifier: Apache-2.0 */
/* lower.h - one walk over a Vx syntax tree that builds the program model. */
#ifndef VXP_LOWER_H
#define VXP_LOWER_H

#include <tree_sitter/api.h>

#include "diag.h"
#include "model.h"

/* Lowering refuses to follow syntax nested deeper than this (the walk recurses), and says
 * so with an error diagnostic: a function it cannot read is never admitted. */
#define VXP_MAX_NESTING 1000

/* Build `model` (zero-initialised by the caller) from `root`; lowering problems (malformed
 * literals, nesting too deep) are appended to `diags`. Returns VXP_OK or VXP_ENOMEM. */
int vxp_lower__program(vxp_context *ctx, const vxp_source *src, TSNode root, vxp_model *model,
                       vxp_diag_list *diags);

/* Parse a Vx number token: `text` is the whole token. Sets *value, *suffix (element type
 * or UNKNOWN) and *is_float; returns false when the token is malformed (bad suffix, more
 * than one '.', no digits), true otherwise; *too_big is set when an integer does not fit
 * in 64 bits. */
bool vxp_lower__number(const char *text, size_t len, uint64_t *value, vxp_elem *suffix,
                       bool *is_float, bool *too_big);

#endif /* VXP_LOWER_H */
