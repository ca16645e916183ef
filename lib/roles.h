/* SPDX-License-Identifier: Apache-2.0 */
/* roles.h - the role a program names for a placement in a comment (`// role: KV cache`).
 *
 * Vx has no syntax for what a tensor is for, and binding names are too terse to group by
 * (w0 ... w31). A role is therefore read from a comment, with one rule:
 *
 *   - `// role: NAME` at the end of the placement's own line names that placement's role;
 *   - `// role: NAME` on a line of its own names the role of every placement below it in
 *     the same paragraph: up to the next blank line, the next role comment, or a line that
 *     opens a block (ends with `{`) or closes one (starts with `}`).
 *
 * NAME runs to the end of the comment, trimmed (at most 80 bytes are kept). A placement
 * with no role comment has no role. */
#ifndef VXP_ROLES_H
#define VXP_ROLES_H

#include "analysis.h"

/* The role of a placement starting on 0-based `line` of `src`: a name owned by `an` (valid
 * until it is freed), or NULL. Placements are asked for mostly in increasing line order;
 * a memo on `an` makes a run of them linear in the number of lines. Returns VXP_OK or
 * VXP_ENOMEM. */
int vxp_roles__of_line(vxp_context *ctx, vxp_analysis *an, const vxp_source *src, uint32_t line,
                       const char **role);

/* Free the role names owned by `an`. */
void vxp_roles__free(vxp_context *ctx, vxp_analysis *an);

#endif /* VXP_ROLES_H */
