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

#include "source.h"

/* The memo of a run of questions (lowering asks once per placement, in source order): the
 * role a line inherits from the lines above it, and the last line answered, so that a run
 * of placements is linear in the number of lines (a 10 MB line of placements asked again
 * for each was quadratic). Start it with vxp_roles__memo_init. */
typedef struct vxp_roles_memo {
  uint32_t inherit_line; /* the line whose inherited role is memoised, or VXP_NONE */
  const char *inherit;   /* that role's text in the source (NULL: none) ... */
  size_t inherit_len;    /* ... and its length */
  uint32_t answer_line;  /* the last line answered, or VXP_NONE */
  const char *answer;
  size_t answer_len;
} vxp_roles_memo;

void vxp_roles__memo_init(vxp_roles_memo *memo);

/* The role of a placement starting on 0-based `line` of `src`: `*text` points into the
 * source (`*len` bytes, at most 80), or is NULL when the placement has none. Reads only the
 * source; lowering calls it once per placement and keeps the answer in the model. */
void vxp_roles__of_line(vxp_roles_memo *memo, const vxp_source *src, uint32_t line,
                        const char **text, size_t *len);

#endif /* VXP_ROLES_H */
