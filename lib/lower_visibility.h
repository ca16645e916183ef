/* SPDX-License-Identifier: Apache-2.0 */
/* lower_visibility.h - the visibility facts of a program's function bodies (model.h:
 * vxp_vis_fact), read from the syntax tree at lowering time for visibility.c to check
 * against the machine. */
#ifndef VXP_LOWER_VISIBILITY_H
#define VXP_LOWER_VISIBILITY_H

#include <tree_sitter/api.h>

#include "lower.h"
#include "source.h"

struct vis_fn;

/* One lowering's reader of the facts. The caller sets ctx, src, m (the model the facts are
 * appended to, as m->visibility) and intern (interns a name into m->names the way the
 * lowering does, so that a splice sees the same name ids); the rest is private. */
typedef struct vxp_lower_vis {
  vxp_context *ctx;
  const vxp_source *src;
  vxp_model *m;
  vxp_name (*intern)(void *arg, const char *s, size_t len);
  void *arg;
  struct vis_fn *fns; /* the program's functions by name (top level and extern) */
  size_t fn_count, fn_cap;
  struct vis_param *params; /* what their parameters want (read from the nodes) */
  size_t param_count, param_cap;
} vxp_lower_vis;

/* Index the program's functions (the top-level nodes `top`, or the children of `root`
 * when `top` is NULL): a call's facts name the callee's `on` topology and pointer
 * parameters. Returns VXP_OK or VXP_ENOMEM (then nothing is held). */
int vxp_lower_vis__begin(vxp_lower_vis *V, const TSNode *top, size_t top_count, TSNode root);

/* vxp_lower_vis__begin in parts, for a text parsed in windows: index each window's
 * top-level nodes in source order (what is indexed is read from the nodes, so the trees may
 * go), then sort the index once. Same returns as vxp_lower_vis__begin. */
int vxp_lower_vis__index(vxp_lower_vis *V, const TSNode *top, size_t top_count, TSNode root);
void vxp_lower_vis__index_done(vxp_lower_vis *V);

/* Append the facts of top-level node `item` (a function or an impl; anything else has none)
 * to m->visibility, in the order the checks meet them. Returns VXP_OK or VXP_ENOMEM. */
int vxp_lower_vis__item(vxp_lower_vis *V, TSNode item);

/* Release what vxp_lower_vis__begin holds. */
void vxp_lower_vis__end(vxp_lower_vis *V);

#endif /* VXP_LOWER_VISIBILITY_H */
