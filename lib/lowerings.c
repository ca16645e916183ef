/* SPDX-License-Identifier: Apache-2.0 */
/* lowerings.c - a transfer lowering's declaration (E6015) and the spaces it touches (E6022,
 * VXP0043), read from the lowerings the declarations reader recorded (machine.h), not from
 * the tree. */
#include <stdio.h>
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

/* vxc's E6015: a lowering malformed before its body is looked at. Its topology must be one
 * this compilation declares (a built-in one declares no edges of its own) and must declare
 * the edge; it must have a function, none of them generic (a lowering is instantiated per
 * edge, so a generic body would never be checked); and a topology has one lowering per
 * edge (which one ran would be declaration order). Every lowering is held to these, whether
 * or not its body calls `raw::`. */
static int check_declaration(vxp_context *ctx, const vxp_source *src, const vxp_machine *decls,
                             size_t index, const vxp_machine_view *view, vxp_diag_list *diags) {
  const vxp_lowering *l = &decls->lowerings.items[index];
  if (!l->topology) return VXP_OK;
  char head[512];
  snprintf(head, sizeof(head), "`impl Transfer<Memory::%s, Memory::%s> for Topology::%s`", l->from,
           l->to, l->topology);
  const vxp_topology *t = vxp_machine__topology(view, l->topology);
  const char *why = NULL;
  char text[1024];
  if (!t && vxp_machine__builtin_topology_space(l->topology)) {
    snprintf(text, sizeof(text),
             "%s: '%s' is a built-in topology, and a built-in topology declares no edges of "
             "its own, so there is nothing here for a lowering to implement; declare the "
             "machine as `Topology %s { ... transfer Memory::%s -> Memory::%s }` and implement "
             "that",
             head, l->topology, l->topology, l->from, l->to);
    why = text;
  } else if (!t) {
    snprintf(text, sizeof(text),
             "%s: no topology named '%s' is declared in this compilation, so this lowering is "
             "code for a machine that does not exist here",
             head, l->topology);
    why = text;
  } else {
    bool declared = false;
    for (size_t e = 0; e < t->edges.len && !declared; e++)
      declared =
          strcmp(t->edges.items[e].from, l->from) == 0 && strcmp(t->edges.items[e].to, l->to) == 0;
    if (!declared) {
      snprintf(text, sizeof(text),
               "%s: topology '%s' does not declare the edge %s -> %s, so there is no movement "
               "for this lowering to implement; declare the edge in the topology or implement "
               "an edge it has",
               head, l->topology, l->from, l->to);
      why = text;
    }
  }
  if (why && !vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "E6015", src, l->start_byte,
                            l->body_start, "%s", why))
    return VXP_ENOMEM;
  if (l->generic_method &&
      !vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "E6015", src, l->start_byte, l->body_start,
                     "%s: fn '%s' is generic; a lowering is instantiated per edge, not per "
                     "type, so its body would never be instantiated, and a body never "
                     "instantiated is never checked",
                     head, l->generic_method))
    return VXP_ENOMEM;
  if (l->methods == 0 &&
      !vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "E6015", src, l->start_byte, l->body_start,
                     "%s declares no functions; an empty lowering cannot move anything: give "
                     "it a body or remove it",
                     head))
    return VXP_ENOMEM;
  /* Two lowerings of one edge for one topology: reported once, at the second. */
  size_t same = 0, before = 0;
  for (size_t j = 0; j < decls->lowerings.len; j++) {
    const vxp_lowering *o = &decls->lowerings.items[j];
    if (!o->topology || strcmp(o->topology, l->topology) != 0 || strcmp(o->from, l->from) != 0 ||
        strcmp(o->to, l->to) != 0)
      continue;
    same++;
    if (j < index) before++;
  }
  if (same > 1 && before == 1 &&
      !vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "E6015", src, l->start_byte, l->body_start,
                     "Topology::%s has %zu lowerings for the edge %s -> %s; which one is in "
                     "force would be declaration order, so one per machine is allowed (two "
                     "different topologies may each implement the edge)",
                     l->topology, same, l->from, l->to))
    return VXP_ENOMEM;
  return VXP_OK;
}

int vxp_lowerings__check(vxp_context *ctx, const vxp_source *src, const vxp_machine *decls,
                         const vxp_machine_view *view, vxp_diag_list *diags) {
  int rc = VXP_OK;
  for (size_t i = 0; decls && i < decls->lowerings.len && rc == VXP_OK; i++) {
    rc = check_declaration(ctx, src, decls, i, view, diags);
    if (rc == VXP_OK) rc = check_lowering(ctx, src, &decls->lowerings.items[i], view, diags);
  }
  return rc;
}
