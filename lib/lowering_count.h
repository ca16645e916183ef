/* SPDX-License-Identifier: Apache-2.0 */
/* lowering_count.h - a transfer lowering's traffic as a small program: recorded from the
 * body when the declarations are read (lowering_body.c), run by each analysis with its own
 * constants (lowering_run.h).
 *
 * Why a program and not a number: vxc folds a `for` bound that names a `const` item and
 * keeps only the arm an `if comptime` condition selects, and `-D NAME=VALUE` changes a
 * const item per analysis. The body is read once per program; its count is only known
 * once an analysis says what each constant is. */
#ifndef VXP_LOWERING_COUNT_H
#define VXP_LOWERING_COUNT_H

#include "array.h"
#include "model.h"

/* The four counters a lowering's traffic is kept in, in elements of the tile. */
enum { VXP_COUNT_FROM_READ, VXP_COUNT_FROM_WRITTEN, VXP_COUNT_TO_READ, VXP_COUNT_TO_WRITTEN };

typedef enum vxp_count_kind {
  VXP_COUNT_PRIM,   /* one element moved in counter `slot`, times the loops around it */
  VXP_COUNT_FOR,    /* `for _ in lo..hi`: its children run (hi - lo) times, 0 when hi <= lo */
  VXP_COUNT_BRANCH, /* `if`/`match`: its children are ARMs; `cond` the comptime condition */
  VXP_COUNT_ARM,    /* one alternative of a BRANCH (an `if` without `else` has an empty one) */
  VXP_COUNT_FAIL    /* reaching it makes the count a guess: `why` says why */
} vxp_count_kind;

/* One step, in preorder: a node's children are the nodes after it up to `end`. */
typedef struct vxp_count_node {
  uint8_t kind;    /* vxp_count_kind */
  uint8_t slot;    /* PRIM: VXP_COUNT_FROM_READ .. VXP_COUNT_TO_WRITTEN */
  uint32_t end;    /* one past the last node of its subtree */
  uint32_t lo, hi; /* FOR: the bounds (expressions); BRANCH: lo is the comptime condition, or
                      VXP_NONE for a run-time branch */
  const char *why; /* FAIL: static text */
} vxp_count_node;

typedef enum vxp_count_expr_kind {
  VXP_COUNT_INT,    /* `value` */
  VXP_COUNT_BOOL,   /* `value` 0/1 */
  VXP_COUNT_NAME,   /* a const item (or a -D name): `name` bytes from `value` into the names */
  VXP_COUNT_UNARY,  /* `op` (VXP_OP_NEG or VXP_OP_NOT) of `lhs` */
  VXP_COUNT_BINARY, /* `lhs` `op` `rhs` (vxp_cop) */
  VXP_COUNT_UNKNOWN /* never folds: a run-time value, a local, a call */
} vxp_count_expr_kind;

typedef struct vxp_count_expr {
  uint8_t kind, op;
  uint32_t lhs, rhs, name_len;
  uint64_t value;
} vxp_count_expr;

/* The recorded program: one allocation, from the arena of the machine that holds it. */
typedef struct vxp_count_program {
  uint32_t node_count, expr_count;
  const vxp_count_node *nodes;
  const vxp_count_expr *exprs;
  const char *names;
} vxp_count_program;

/* What is being recorded. Zeroed (plus `ctx`) is empty; any allocation failure sets
 * `failed` and later calls do nothing. */
typedef struct vxp_count_builder {
  vxp_context *ctx;
  Array(vxp_count_node) nodes;
  Array(vxp_count_expr) exprs;
  Array(char) names;
  bool failed;
} vxp_count_builder;

/* Append a node (its `end` is set by vxp_count__close); returns its index, VXP_NONE on
 * failure. */
uint32_t vxp_count__open(vxp_count_builder *b, vxp_count_node node);
void vxp_count__close(vxp_count_builder *b, uint32_t node);
/* Append a node with no children. */
void vxp_count__leaf(vxp_count_builder *b, vxp_count_node node);
/* Append an expression; returns its index (VXP_NONE on failure, which never folds). */
uint32_t vxp_count__expr(vxp_count_builder *b, vxp_count_expr e);
uint32_t vxp_count__name(vxp_count_builder *b, const char *s, uint32_t len);

/* Pack what was recorded into one block of `arena` (it goes with the arena) and empty the
 * builder; NULL on allocation failure or when the builder failed. */
vxp_count_program *vxp_count__finish(vxp_count_builder *b, struct vxp_arena *arena);
void vxp_count__discard(vxp_count_builder *b);

#endif /* VXP_LOWERING_COUNT_H */
