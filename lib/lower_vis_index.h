/* SPDX-License-Identifier: Apache-2.0 */
/* lower_vis_index.h - the index of a program's functions by name that the visibility facts'
 * reader (lower_visibility.c) looks a call's callee up in, and that a program keeps with
 * its lowering marks (lower.h) so that a splice can carry it over to the next version. */
#ifndef VXP_LOWER_VIS_INDEX_H
#define VXP_LOWER_VIS_INDEX_H

#include "array.h"

/* A name in the source or in the machine view: text and length, not NUL-terminated. */
typedef struct vis_name {
  const char *s;
  uint32_t len;
} vis_name;

/* A topology as written: `NPU` and `0` of `Topology::NPU[0]`; an empty name is unknown. */
typedef struct vis_topo {
  vis_name name;
  vis_name index;
} vis_topo;

/* What a call needs of its callee, read from the callee's node when it is indexed (so that
 * a callee in another window of a windowed parse, whose tree is gone, is known): its `on`
 * topology and, per named child of its parameter list, what a pointer parameter wants. */
typedef struct vis_param {
  bool pointer;       /* a pointer type */
  bool want_host;     /* a pointer without a space: into the host's memory */
  vis_name want_name; /* the space a pointer names */
} vis_param;

/* A function of the program by name: an item, or a signature in an `extern` block. Every
 * non-empty name points into the text of the source the index was read from, inside the
 * signature (everything before the body) of top-level item `item`. */
typedef struct vis_fn {
  vis_name name;
  bool is_extern;
  bool on_path;                      /* `on` is a topology path */
  vis_topo on;                       /* what it denotes (with the callee's own generics) */
  uint32_t param_first, param_count; /* in the index's params */
  uint32_t item; /* the top-level item (its position among the root's children) */
} vis_fn;

/* The index: `fns` sorted by name, then item, then where the name is written; `params`
 * the parameters they point at. */
typedef struct vxp_vis_index {
  Array(vis_fn) fns;
  Array(vis_param) params;
} vxp_vis_index;

#endif /* VXP_LOWER_VIS_INDEX_H */
