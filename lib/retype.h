/* SPDX-License-Identifier: Apache-2.0 */
/* retype.h - `--retype ROLE=TYPE`: every tile of a role analysed with another element
 * type (vxp_analyze_options.retypes), decided once per analysis as a table by tensor type
 * that vxp_instance__elem reads. */
#ifndef VXP_RETYPE_H
#define VXP_RETYPE_H

#include "model.h"

struct vxp_arena;

/* Whether each role names a tile of `m` and each type is an element type: VXP_OK, or
 * VXP_ENOTFOUND with a message on `ctx` listing the program's roles (or the element
 * types). */
int vxp_retype__check(vxp_context *ctx, const vxp_model *m, const vxp_retype *r, size_t count);

/* The table of a checked list: per tensor type of `m`, the vxp_elem it takes (0: its own),
 * allocated in `arena`; NULL on allocation failure. */
uint8_t *vxp_retype__table(vxp_context *ctx, struct vxp_arena *arena, const vxp_model *m,
                           const vxp_retype *r, size_t count);

#endif /* VXP_RETYPE_H */
