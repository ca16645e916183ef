/* SPDX-License-Identifier: Apache-2.0 */
/* lowerings.c - the spaces a transfer lowering touches (E6022, VXP0043), read from the
 * lowerings the declarations reader recorded (machine.h), not from the tree. */
#include <string.h>

#include "context.h"
#include "lowerings.h"
#include "source.h"

static bool sees(const vxp_topology *t, const char *space) {
  if (!t->has_visible) return t->memory && strcmp(t->memory, space) == 0;
  for (size_t i = 0; i < t->visible.len; i++) {
    if (strcmp(t->visible.items[i], space) == 0) return true;
  }
  return false;
}

static int check_lowering(vxp_context *ctx, const vxp_source *src, const vxp_lowering *l,
                          const vxp_machine_view *view, vxp_diag_list *diags) {
  if (!l->topology || !l->uses_raw) return VXP_OK; /* carried code: nothing to hold it to */
  bool declared = false;
  for (size_t i = 0; i < view->topologies.len; i++) {
    const vxp_topology *t = view->topologies.items[i];
    if (strcmp(t->name, l->topology) != 0) continue;
    for (size_t e = 0; e < t->edges.len; e++) {
      const vxp_edge *edge = &t->edges.items[e];
      if (strcmp(edge->from, l->from) != 0 || strcmp(edge->to, l->to) != 0) continue;
      declared = true;
      const char *ends[2] = {edge->from, edge->to};
      for (int k = 0; k < 2; k++) {
        /* Every topology reaches host memory; fleet files declare host links without
         * listing CPU_DRAM as visible. */
        if (strcmp(ends[k], "CPU_DRAM") == 0 || sees(t, ends[k])) continue;
        if (!vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "E6022", src, l->start_byte,
                           l->body_start,
                           "topology %s declares the edge %s -> %s but does not see "
                           "Memory::%s: the lowering would run on a part that cannot address "
                           "a space it moves bytes through",
                           t->name, edge->from, edge->to, ends[k]))
          return VXP_ENOMEM;
      }
    }
  }
  if (!declared &&
      !vxp_diag__add(ctx, diags, VXP_SEVERITY_WARNING, "VXP0043", src, l->start_byte, l->body_start,
                     "no topology named %s declares the edge %s -> %s: the lowering "
                     "is carried, but no transfer can execute it",
                     l->topology, l->from, l->to))
    return VXP_ENOMEM;
  return VXP_OK;
}

int vxp_lowerings__check(vxp_context *ctx, const vxp_source *src, const vxp_machine *decls,
                         const vxp_machine_view *view, vxp_diag_list *diags) {
  int rc = VXP_OK;
  for (size_t i = 0; decls && i < decls->lowerings.len && rc == VXP_OK; i++)
    rc = check_lowering(ctx, src, &decls->lowerings.items[i], view, diags);
  return rc;
}
