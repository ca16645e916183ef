/* SPDX-License-Identifier: Apache-2.0 */
/* lower_visibility.h - the visibility facts of a program's function bodies (model.h:
 * vxp_vis_fact), read from the syntax tree at lowering time for visibility.c to check
 * against the machine. */
#ifndef VXP_LOWER_VISIBILITY_H
#define VXP_LOWER_VISIBILITY_H

#include <tree_sitter/api.h>

#include "lower_vis_index.h"
#include "model.h"
#include "source.h"
#include "syntax.h"

struct vxp_reuse;

/* One lowering's reader of the facts. The caller sets ctx, src, m (the model the facts are
 * appended to, as m->visibility) and intern (interns a name into m->names the way the
 * lowering does, so that a splice sees the same name ids); the rest is private. */
typedef struct vxp_lower_vis {
  vxp_context *ctx;
  const vxp_source *src;
  vxp_model *m;
  vxp_name (*intern)(void *arg, const char *s, size_t len);
  void *arg;
  vxp_vis_index index;    /* the program's functions by name (top level and extern) */
  uint32_t items_indexed; /* top-level items indexed so far (windows add up) */
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

/* vxp_lower_vis__begin for a splice (lower.h: vxp_lower__splice): the index of the earlier
 * version, `old` (read from R->old_src's text), carried over for the items R's plan says are
 * unchanged (their names re-pointed at the new text, moved past the edit), and the touched
 * functions (R->side FRESH) indexed from their nodes in `top` (of the `top_count` top-level
 * nodes of the new tree, `top` need hold only those). Sound because an
 * index entry is read from its item's signature alone, which the plan shows unchanged for
 * every item (the text of an item outside the edit; everything before the body of a touched
 * function). Returns 1 when done, 0 when it cannot be shown (then nothing is held and the
 * caller indexes afresh), or VXP_ENOMEM. */
int vxp_lower_vis__carry(vxp_lower_vis *V, const vxp_vis_index *old, const struct vxp_reuse *R,
                         const vxp_top_nodes *top, uint32_t top_count);

/* Whether V's index holds the entries of `old` (an earlier version's): the same functions
 * in the same order, with the same `on` topologies and pointer parameters, as text (where
 * they are written aside). What a call's visibility facts read of its callee is then the
 * same, so a splice may keep the callers' facts when a signature changed. */
bool vxp_lower_vis__same_index(const vxp_lower_vis *V, const vxp_vis_index *old);

/* Whether V's index holds the functions of `old` (an earlier version's) in the same order:
 * the same names (as text), items, and extern or not. When it does, changed[i], for each of
 * V's entries, says whether entry i differs from the earlier one in what a call's visibility
 * facts read of its callee (its `on` topology, its number of parameters, what its pointer
 * parameters want): the facts of every call by that name are then to be read again. */
bool vxp_lower_vis__changed_entries(const vxp_lower_vis *V, const vxp_vis_index *old,
                                    uint8_t *changed);

/* Move V's index to `out` (empty), for the next splice; V holds none afterwards. */
void vxp_lower_vis__keep(vxp_lower_vis *V, vxp_vis_index *out);

void vxp_vis_index__free(vxp_context *ctx, vxp_vis_index *index);

/* Append the facts of top-level node `item` (a function or an impl; anything else has none)
 * to m->visibility, in the order the checks meet them. Returns VXP_OK or VXP_ENOMEM. */
int vxp_lower_vis__item(vxp_lower_vis *V, TSNode item);

/* Release what vxp_lower_vis__begin holds. */
void vxp_lower_vis__end(vxp_lower_vis *V);

#endif /* VXP_LOWER_VISIBILITY_H */
