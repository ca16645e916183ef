/* SPDX-License-Identifier: Apache-2.0 */
/* lowering_count.c - recording a transfer lowering's traffic as a small program (see
 * lowering_count.h); lowering_run.c runs it with one analysis' constants. */
#include "lowering_count.h"

#include "arena.h"

#include <string.h>

#include "strtab.h"

/* ------------------------------------------------------------------ recording */

uint32_t vxp_count__open(vxp_count_builder *b, vxp_count_node node) {
  if (b->failed) return VXP_NONE;
  if (b->nodes.len >= UINT32_MAX - 1 || !array_push(b->ctx, &b->nodes, node)) {
    b->failed = true;
    return VXP_NONE;
  }
  return (uint32_t)(b->nodes.len - 1);
}

void vxp_count__close(vxp_count_builder *b, uint32_t node) {
  if (!b->failed && node < b->nodes.len) b->nodes.items[node].end = (uint32_t)b->nodes.len;
}

void vxp_count__leaf(vxp_count_builder *b, vxp_count_node node) {
  vxp_count__close(b, vxp_count__open(b, node));
}

uint32_t vxp_count__expr(vxp_count_builder *b, vxp_count_expr e) {
  if (b->failed) return VXP_NONE;
  if (b->exprs.len >= UINT32_MAX - 1 || !array_push(b->ctx, &b->exprs, e)) {
    b->failed = true;
    return VXP_NONE;
  }
  return (uint32_t)(b->exprs.len - 1);
}

uint32_t vxp_count__name(vxp_count_builder *b, const char *s, uint32_t len) {
  if (b->failed) return VXP_NONE;
  size_t at = b->names.len;
  if (at > UINT32_MAX - (size_t)len || !array_reserve(b->ctx, &b->names, len)) {
    b->failed = true;
    return VXP_NONE;
  }
  memcpy(b->names.items + at, s, len);
  b->names.len += len;
  vxp_count_expr e;
  memset(&e, 0, sizeof(e));
  e.kind = VXP_COUNT_NAME;
  e.lhs = e.rhs = VXP_NONE;
  e.value = at;
  e.name_len = len;
  return vxp_count__expr(b, e);
}

void vxp_count__discard(vxp_count_builder *b) {
  array_free(b->ctx, &b->nodes);
  array_free(b->ctx, &b->exprs);
  array_free(b->ctx, &b->names);
}

vxp_count_program *vxp_count__finish(vxp_count_builder *b, vxp_arena *arena) {
  vxp_count_program *p = NULL;
  /* Every node must have been closed: a run walks subtrees by their ends. */
  for (size_t i = 0; !b->failed && i < b->nodes.len; i++)
    if (b->nodes.items[i].end <= i || b->nodes.items[i].end > b->nodes.len) b->failed = true;
  if (!b->failed) {
    /* One block: the header, the nodes, the expressions, the names (each part aligned as
     * its type needs: the header and both tables are 8-byte multiples). */
    size_t nodes = b->nodes.len * sizeof(vxp_count_node);
    size_t exprs = b->exprs.len * sizeof(vxp_count_expr);
    size_t total = sizeof(vxp_count_program) + nodes + exprs + b->names.len;
    char *block = vxp_arena__alloc(b->ctx, arena, total ? total : 1);
    if (block) {
      p = (vxp_count_program *)(void *)block;
      vxp_count_node *n = (vxp_count_node *)(void *)(block + sizeof(*p));
      vxp_count_expr *e = (vxp_count_expr *)(void *)(block + sizeof(*p) + nodes);
      char *s = block + sizeof(*p) + nodes + exprs;
      if (nodes) memcpy(n, b->nodes.items, nodes);
      if (exprs) memcpy(e, b->exprs.items, exprs);
      if (b->names.len) memcpy(s, b->names.items, b->names.len);
      p->node_count = (uint32_t)b->nodes.len;
      p->expr_count = (uint32_t)b->exprs.len;
      p->nodes = n;
      p->exprs = e;
      p->names = s;
    }
  }
  vxp_count__discard(b);
  return p;
}
