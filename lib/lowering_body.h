/* SPDX-License-Identifier: Apache-2.0 */
/* lowering_body.h - what a transfer lowering (`impl Transfer<Memory::A, Memory::B> for
 * Topology::X { fn ... }`) declares and moves, read from its body once, with the
 * declarations: how many functions it has and whether one is generic (vxc's E6015), the
 * first function's two tiles as declared (E6023 compares them with each transfer's tile),
 * and the elements its raw:: calls move per end of the edge (vxc's `traffic_source:
 * lowering_body`). */
#ifndef VXP_LOWERING_BODY_H
#define VXP_LOWERING_BODY_H

#include <tree_sitter/api.h>

#include "diag.h"
#include "model.h"
#include "source.h"

struct vxp_arena;
struct vxp_count_program;

/* A transfer lowering written in the program: `impl Transfer<Memory::A, Memory::B> for
 * Topology::X { ... }`. Its body moves the hop instead of the builtin copy, so vxpeak does
 * not claim to know that hop's traffic. Read once with the declarations: the checks on it
 * (lowerings.h) read this record, not the tree. */
/* One tile parameter of a lowering's function, as declared. */
#define VXP_LOWERING_MAX_RANK 8
typedef struct vxp_lowering_tile {
  bool is_tensor;   /* a tensor type, or a reference to one */
  bool is_mut_ref;  /* held by `&mut` */
  uint8_t elem;     /* vxp_elem (UNKNOWN when not a known element type) */
  bool dims_static; /* every dimension is an integer literal (rank <= VXP_LOWERING_MAX_RANK) */
  uint32_t rank;
  uint64_t dims[VXP_LOWERING_MAX_RANK];
} vxp_lowering_tile;

typedef struct vxp_lowering {
  char *from, *to;
  char *topology; /* X, or NULL when the `for` names no topology the reader could take */
  bool uses_raw;  /* its body calls a `raw::` primitive (else carried code, not checked) */
  uint32_t start_byte, end_byte;
  uint32_t body_start; /* where its body's `{` is (diagnostics end there) */
  /* Read from the body with the declarations (lowering_body.c), for vxc's checks on the
   * declaration (E6015) and at each transfer the lowering moves (E6023, traffic). */
  uint32_t methods;           /* functions in the body */
  char *generic_method;       /* the first generic function's name, or NULL */
  uint32_t params;            /* parameters of the first function */
  vxp_lowering_tile tiles[2]; /* its first two parameters: the source, the destination */
  /* What the first function's `raw::` calls move, in elements of the tile, per end of the
   * edge (vxc's `traffic_source: lowering_body`): traffic_absent is the reason when the
   * body cannot be counted at all (static text), else `count` is the body recorded as a
   * count program (lowering_count.h, owned) that each analysis runs with its constants. */
  const char *traffic_absent;
  struct vxp_count_program *count;
} vxp_lowering;

/* Fill the body facts of `l` from `item`, a transfer_impl_item of `src`.
 * Returns VXP_OK or VXP_ENOMEM (l->generic_method is then NULL). */
int vxp_lowering__read_body(vxp_context *ctx, struct vxp_arena *arena, const vxp_source *src,
                            TSNode item, vxp_lowering *l);

/* The tile a parameter's declared type `type` describes (a tensor, or a reference to one). */
void vxp_lowering__read_tile(vxp_context *ctx, const vxp_source *src, TSNode type,
                             vxp_lowering_tile *t);

#endif /* VXP_LOWERING_BODY_H */
