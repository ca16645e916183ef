/* SPDX-License-Identifier: Apache-2.0 */
/* lower.h - one walk over a Vx syntax tree that builds the program model. */
#ifndef VXP_LOWER_H
#define VXP_LOWER_H

#include <tree_sitter/api.h>

#include "diag.h"
#include "lower_vis_index.h"
#include "model.h"
#include "syntax.h"

/* Where one top-level item's part of a model begins in each of the model's arrays, in the
 * diagnostics list and in the name table (the next name id), as lowering makes it. */
typedef struct vxp_lower_mark {
  uint32_t cexprs, dim_list, types, functions, declared, call_args, consts, structs, enums, externs,
      traits, topologies, refs, items, visibility, raw, imports, diags, names;
} vxp_lower_mark;

/* A function signature, collected before the bodies are lowered so that a call of a
 * function defined later knows what it returns. */
typedef struct vxp_lower_signature {
  vxp_name name;
  uint32_t order;          /* declaration order: among equal names the first one wins */
  uint32_t return_type;    /* tensor type index or VXP_NONE */
  vxp_name return_nominal; /* a struct it returns (for `make().method()`), or NONE */
} vxp_lower_signature;

/* What a lowering records so that a later one can take its unchanged items over (see
 * vxp_lower__splice). Lowering is two passes over the top-level items: the signatures of
 * all functions (their tensor types come first in the arrays), then the items. Invariant:
 * sig and body hold a mark before each top-level item of the tree and one after the last. */
typedef struct vxp_lower_marks {
  Array(vxp_lower_mark) sig, body;
  Array(vxp_lower_signature) signatures; /* sorted by name, then order */
  /* The visibility facts' index of the program's functions (lower_vis_index.h), read from
   * this program's text; `vis_kept` when it is the whole program's (a splice carries it
   * over instead of reading every function's signature from the tree again). */
  vxp_vis_index vis;
  bool vis_kept;
} vxp_lower_marks;

void vxp_lower__marks_free(vxp_context *ctx, vxp_lower_marks *marks);

/* Build `model` (zero-initialised by the caller) from `root`; lowering problems (malformed
 * literals, nesting too deep) are appended to `diags`. `marks`, when not NULL (empty), gets
 * the item boundaries. Returns VXP_OK, VXP_ENOMEM or VXP_ECANCELLED. */
int vxp_lower__program(vxp_context *ctx, const vxp_source *src, TSNode root, vxp_model *model,
                       vxp_diag_list *diags, vxp_lower_marks *marks);

/* vxp_lower__program in parts, for a text parsed in windows of whole top-level items, each
 * window's tree freed before the next is parsed: begin; the signatures pass over every
 * window in source order; the items pass over every window again, in the same order (each
 * window parsed again); end, which frees the state and returns the first failure. The model
 * is the one vxp_lower__program builds from a tree whose root's children are the windows'
 * roots' children, in order. No marks are kept (a program that keeps no tree is not
 * reparsed from them). Each returns VXP_OK, VXP_ENOMEM or VXP_ECANCELLED. */
typedef struct vxp_lower_run vxp_lower_run;
int vxp_lower__begin(vxp_lower_run **out, vxp_context *ctx, const vxp_source *src, vxp_model *model,
                     vxp_diag_list *diags);
int vxp_lower__window_signatures(vxp_lower_run *W, TSNode root);
int vxp_lower__window_bodies(vxp_lower_run *W, TSNode root);
int vxp_lower__end(vxp_lower_run *W);

struct vxp_reuse;

/* vxp_lower__program for a new version of a program whose earlier version was lowered into
 * `old` (with `old_marks`, its lowering diagnostics in `old_diags`): the items reuse.c found
 * unchanged are copied, moved past the edit, and the touched ones (functions, and `const`
 * items the plan marked) are lowered from their nodes in `top` (which must hold them; the
 * others' nodes are read only when the earlier version kept no index of its functions). A
 * touched function whose signature changed (R->changed_sig) is taken over when what other
 * items read of it is unchanged but for the nominal type it returns, the contents of the
 * tensor type it returns (of the same rank) and its visibility index entry: then the
 * functions outside the middle that call it (or, for the entry, name it) are marked in
 * R->again and lowered again from their nodes,
 * in `top` or in one of the `more_count` ranges `more` (when none holds them, R->again_unread
 * is set and 0 returned, so that the caller may parse them and splice again). Returns 1
 * when the model is the one vxp_lower__program would build, name ids included (names the
 * earlier table did not hold are brought in and every id renumbered: R->names_moved); 0 when
 * that cannot be shown (an item that meets a name earlier than before or drops the first use
 * of one, a position inside the edit): then
 * `model`, `marks` and what was appended to `diags` are to be discarded by the caller; or a
 * negative error code. */
int vxp_lower__splice(vxp_context *ctx, const vxp_source *src, const vxp_top_nodes *top,
                      const vxp_top_nodes *more, size_t more_count, struct vxp_reuse *R,
                      const vxp_model *old, const vxp_lower_marks *old_marks,
                      const vxp_diag_list *old_diags, vxp_model *model, vxp_diag_list *diags,
                      vxp_lower_marks *marks);

/* Reserve room in each of the large arrays of `to` for as many elements as `from` holds
 * (a splice fills them item by item: grown by doubling, they were copied again and again).
 * false when out of memory. */
bool vxp_model__reserve_like(vxp_context *ctx, vxp_model *to, const vxp_model *from);

/* Append to `to` a copy of the part of `from` between marks `a` and `b` (and of its
 * diagnostics in `from_diags`): indices below `fixed` stay, those in [a, b] move to where
 * `to`'s arrays end, offsets move as R says for an item on `side`. Returns 1, 0 when an
 * index or an offset cannot be moved, or VXP_ENOMEM (model_copy.c). */
int vxp_model__copy_part(vxp_context *ctx, const struct vxp_reuse *R, uint8_t side,
                         const vxp_model *from, const vxp_diag_list *from_diags,
                         const vxp_lower_mark *a, const vxp_lower_mark *b,
                         const vxp_lower_mark *fixed, vxp_model *to, vxp_diag_list *diags);

/* Give every name id `v` held anywhere in `m` (below `len`) the id map[v], for a splice
 * whose items brought names in (vxp_lower__splice): each function's sorted `reads` sorted
 * again. The name table itself is vxp_strtab__renumber's (model_copy.c). */
void vxp_model__rename(vxp_model *m, const vxp_name *map, size_t len);

/* Parse a Vx number token: `text` is the whole token. Sets *value, *suffix (element type
 * or UNKNOWN) and *is_float; returns false when the token is malformed (bad suffix, more
 * than one '.', no digits), true otherwise; *too_big is set when an integer does not fit
 * in 64 bits. */
bool vxp_lower__number(const char *text, size_t len, uint64_t *value, vxp_elem *suffix,
                       bool *is_float, bool *too_big);

#endif /* VXP_LOWER_H */
