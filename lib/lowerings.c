/* SPDX-License-Identifier: Apache-2.0 */
/* lowerings.c - the spaces a transfer lowering touches (E6022, VXP0043). */
#include <string.h>

#include "context.h"
#include "lowerings.h"
#include "source.h"
#include "symbols.h"

typedef struct low_walk {
  vxp_context *ctx;
  const vxp_source *src;
  const vxp_symbols *S;
  const vxp_fields *F;
  int rc;
} low_walk;

static TSNode fld(TSNode n, TSFieldId id) {
  return ts_node_is_null(n) ? n : ts_node_child_by_field_id(n, id);
}

static bool text_is(const low_walk *L, TSNode n, const char *s) {
  if (ts_node_is_null(n)) return false;
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  return strlen(s) == b - a && memcmp(L->src->text + a, s, b - a) == 0;
}

/* Whether the subtree calls a `raw::` primitive. Iterative: bodies nest arbitrarily. */
static bool uses_raw(const low_walk *L, TSNode body) {
  TSTreeCursor c = ts_tree_cursor_new(body);
  bool found = false;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (ts_node_symbol(n) == L->S->scoped_identifier && text_is(L, fld(n, L->F->path), "raw")) {
      found = true;
      break;
    }
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
    }
  }
done:
  ts_tree_cursor_delete(&c);
  return found;
}

static bool sees(const vxp_topology *t, const char *space) {
  if (!t->has_visible) return t->memory && strcmp(t->memory, space) == 0;
  for (size_t i = 0; i < t->visible.len; i++) {
    if (strcmp(t->visible.items[i], space) == 0) return true;
  }
  return false;
}

static void check_lowering(low_walk *L, TSNode item, const vxp_machine_view *view,
                           vxp_diag_list *diags) {
  TSNode from = fld(fld(item, L->F->from), L->F->name);
  TSNode to = fld(fld(item, L->F->to), L->F->name);
  TSNode topo = fld(fld(item, L->F->topology), L->F->name);
  if (ts_node_is_null(from) || ts_node_is_null(to) || ts_node_is_null(topo)) return;
  if (!uses_raw(L, fld(item, L->F->body))) return; /* carried code: nothing to hold it to */
  const char *text = L->src->text;
  uint32_t fs = ts_node_start_byte(from), fl = ts_node_end_byte(from) - fs;
  uint32_t ts = ts_node_start_byte(to), tl = ts_node_end_byte(to) - ts;
  uint32_t xs = ts_node_start_byte(topo), xl = ts_node_end_byte(topo) - xs;
  bool declared = false;
  for (size_t i = 0; i < view->topologies.len && L->rc == VXP_OK; i++) {
    const vxp_topology *t = view->topologies.items[i];
    if (strlen(t->name) != xl || memcmp(t->name, text + xs, xl) != 0) continue;
    for (size_t e = 0; e < t->edges.len && L->rc == VXP_OK; e++) {
      const vxp_edge *edge = &t->edges.items[e];
      if (strlen(edge->from) != fl || memcmp(edge->from, text + fs, fl) != 0 ||
          strlen(edge->to) != tl || memcmp(edge->to, text + ts, tl) != 0)
        continue;
      declared = true;
      const char *ends[2] = {edge->from, edge->to};
      for (int k = 0; k < 2; k++) {
        /* Every topology reaches host memory; fleet files declare host links without
         * listing CPU_DRAM as visible. */
        if (strcmp(ends[k], "CPU_DRAM") == 0 || sees(t, ends[k])) continue;
        if (!vxp_diag__add(L->ctx, diags, VXP_SEVERITY_ERROR, "E6022", L->src,
                           ts_node_start_byte(item), ts_node_start_byte(fld(item, L->F->body)),
                           "topology %s declares the edge %s -> %s but does not see "
                           "Memory::%s: the lowering would run on a part that cannot address "
                           "a space it moves bytes through",
                           t->name, edge->from, edge->to, ends[k]))
          L->rc = VXP_ENOMEM;
      }
    }
  }
  if (!declared && L->rc == VXP_OK &&
      !vxp_diag__add(L->ctx, diags, VXP_SEVERITY_WARNING, "VXP0043", L->src,
                     ts_node_start_byte(item), ts_node_start_byte(fld(item, L->F->body)),
                     "no topology named %.*s declares the edge %.*s -> %.*s: the lowering is "
                     "carried, but no transfer can execute it",
                     (int)xl, text + xs, (int)fl, text + fs, (int)tl, text + ts))
    L->rc = VXP_ENOMEM;
}

int vxp_lowerings__check_items(vxp_context *ctx, const vxp_source *src, TSNode root,
                               const TSNode *items, size_t count, const vxp_machine_view *view,
                               vxp_diag_list *diags) {
  low_walk L = {ctx, src, &ctx->syms, &ctx->fields, VXP_OK};
  if (items) {
    for (size_t i = 0; i < count && L.rc == VXP_OK; i++)
      if (ts_node_symbol(items[i]) == L.S->transfer_impl_item)
        check_lowering(&L, items[i], view, diags);
    return L.rc;
  }
  /* A cursor: indexing the items one by one would be quadratic in the file. */
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  bool more = ts_tree_cursor_goto_first_child(&cursor);
  for (; more && L.rc == VXP_OK; more = ts_tree_cursor_goto_next_sibling(&cursor)) {
    TSNode item = ts_tree_cursor_current_node(&cursor);
    if (ts_node_symbol(item) == L.S->transfer_impl_item) check_lowering(&L, item, view, diags);
  }
  ts_tree_cursor_delete(&cursor);
  return L.rc;
}

int vxp_lowerings__check(vxp_context *ctx, const vxp_source *src, TSNode root,
                         const vxp_machine_view *view, vxp_diag_list *diags) {
  return vxp_lowerings__check_items(ctx, src, root, NULL, 0, view, diags);
}
