/* SPDX-License-Identifier: Apache-2.0 */
/* raw_primitives.c - the obligations on the `raw::` primitives of a transfer lowering
 * (E6017, E6019, E6020, E6021; see raw_primitives.h), answered from the facts lowering
 * recorded (lower_raw.c) and the machine view: neither the syntax tree nor the source text
 * is read here. */
#include "raw_primitives.h"

#include <string.h>

#include "context.h"

typedef struct raw_check {
  vxp_context *ctx;
  const vxp_source *src;
  const vxp_strtab *names;
  const vxp_machine_view *view;
  vxp_diag_list *diags;
  const vxp_edge *edge; /* the edge of the lowering the facts are of, NULL when none is declared */
  int rc;
} raw_check;

/* The edge `from` -> `to` of Topology `topo` in the view (the last one declared, as the
 * view's topologies are searched in order), or NULL. */
static const vxp_edge *find_edge(const raw_check *C, const vxp_raw_fact *f) {
  if (f->message == VXP_NAME_NONE) return NULL;
  const char *topo = vxp_strtab__str(C->names, f->message);
  const char *from = vxp_strtab__str(C->names, f->from);
  const char *to = vxp_strtab__str(C->names, f->to);
  const vxp_edge *found = NULL;
  for (size_t i = 0; i < C->view->topologies.len; i++) {
    const vxp_topology *t = C->view->topologies.items[i];
    if (strcmp(t->name, topo) != 0) continue;
    for (size_t e = 0; e < t->edges.len; e++) {
      const vxp_edge *edge = &t->edges.items[e];
      if (strcmp(edge->from, from) == 0 && strcmp(edge->to, to) == 0) found = edge;
    }
  }
  return found;
}

static void answer(raw_check *C, const vxp_raw_fact *f) {
  bool holds;
  switch ((vxp_raw_kind)f->kind) {
  case VXP_RAW_EDGE: C->edge = find_edge(C, f); return;
  case VXP_RAW_ALWAYS: holds = true; break;
  case VXP_RAW_NO_COPY_ENGINE: holds = C->edge && !(C->edge->markers & VXP_EDGE_COPY_ENGINE); break;
  case VXP_RAW_SYNCHRONIZING: holds = C->edge && !(C->edge->markers & VXP_EDGE_RELAXED); break;
  default: holds = false; break;
  }
  if (holds && !vxp_diag__add(C->ctx, C->diags, VXP_SEVERITY_ERROR, f->code, C->src, f->start_byte,
                              f->end_byte, "%s", vxp_strtab__str(C->names, f->message)))
    C->rc = VXP_ENOMEM;
}

int vxp_raw__check_facts(vxp_context *ctx, const vxp_source *src, const vxp_strtab *names,
                         const vxp_raw_fact *facts, size_t count, const vxp_machine_view *view,
                         vxp_diag_list *diags) {
  raw_check C = {ctx, src, names, view, diags, NULL, VXP_OK};
  for (size_t i = 0; i < count && C.rc == VXP_OK; i++)
    answer(&C, &facts[i]);
  return C.rc;
}

static int item_diags(vxp_context *ctx, const vxp_source *src, const vxp_model *m,
                      const vxp_model_item *it, const vxp_machine_view *view, vxp_diag_list *diags,
                      const vxp_visibility_reuse *reuse) {
  int taken = reuse ? reuse->take(reuse->arg, it->top, diags) : 0;
  if (taken < 0) return taken;
  if (taken || it->raw_count == 0) return VXP_OK;
  return vxp_raw__check_facts(ctx, src, &m->names, m->raw.items + it->raw_first, it->raw_count,
                              view, diags);
}

int vxp_raw__check(vxp_context *ctx, const vxp_source *src, const vxp_model *m, size_t top_count,
                   const vxp_machine_view *view, vxp_diag_list *diags,
                   const vxp_visibility_reuse *reuse, vxp_item_ends *ends) {
  int rc = VXP_OK;
  if (!ends) {
    for (size_t i = 0; i < m->items.len && rc == VXP_OK; i++)
      rc = item_diags(ctx, src, m, &m->items.items[i], view, diags, reuse);
    return rc;
  }
  /* One end per top-level node of the tree, items or not (reuse.h counts them so). */
  size_t next = 0;
  for (size_t top = 0; top < top_count && rc == VXP_OK; top++) {
    while (next < m->items.len && m->items.items[next].top < top)
      next++;
    if (next < m->items.len && m->items.items[next].top == top)
      rc = item_diags(ctx, src, m, &m->items.items[next], view, diags, reuse);
    if (rc == VXP_OK && !array_push(ctx, ends, (uint32_t)diags->len)) rc = VXP_ENOMEM;
  }
  return rc;
}
