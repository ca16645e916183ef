/* SPDX-License-Identifier: Apache-2.0 */
/* syntax.c - syntax errors as diagnostics: one per ERROR or MISSING node, saying what
 * was unexpected (or missing) and where, in what construct. */
#include <stdio.h>

#include "program.h"
#include "source.h"
#include "symbols.h"

/* Human names for the constructs an error can sit in. */
static const char *construct_name(const char *type) {
  static const struct {
    const char *type, *name;
  } names[] = {
      {"source_file", "the top level"},
      {"function_item", "a function declaration"},
      {"block", "a block"},
      {"memory_body", "a Memory declaration"},
      {"topology_body", "a Topology declaration"},
      {"parameters", "a parameter list"},
      {"arguments", "an argument list"},
      {"struct_item", "a struct declaration"},
      {"field_declaration_list", "a struct declaration"},
      {"enum_variant_list", "an enum declaration"},
      {"impl_body", "an impl block"},
      {"trait_body", "a trait declaration"},
      {"tensor_type", "a tensor type"},
      {"shape", "a tensor shape"},
      {"let_declaration", "a let statement"},
      {"match_block", "a match expression"},
      {"type_arguments", "generic arguments"},
      {"generic_parameters", "generic parameters"},
  };
  for (size_t i = 0; i < VXP__ARRAY_LEN(names); i++) {
    if (strcmp(names[i].type, type) == 0) return names[i].name;
  }
  return NULL;
}

static bool report(vxp_context *ctx, const vxp_source *src, vxp_diag_list *diags, TSNode node,
                   TSNode parent) {
  const char *where = ts_node_is_null(parent) ? NULL : construct_name(ts_node_type(parent));
  char context[96] = "";
  if (where) snprintf(context, sizeof(context), " in %s", where);
  uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  if (ts_node_is_missing(node)) {
    return vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0001", src, start, end,
                         "syntax error: missing '%s'%s", ts_node_type(node), context) != NULL;
  }
  /* Quote the first token of the unexpected text, cut at the line's end. */
  TSNode first = node;
  while (ts_node_child_count(first) > 0) first = ts_node_child(first, 0);
  uint32_t tok_start = ts_node_start_byte(first), tok_end = ts_node_end_byte(first);
  if (tok_end <= tok_start) {
    tok_start = start;
    tok_end = end;
  }
  size_t len = tok_end - tok_start;
  const char *tok = src->text + tok_start;
  for (size_t i = 0; i < len; i++) {
    if (tok[i] == '\n' || tok[i] == '\r') {
      len = i;
      break;
    }
  }
  if (len > 40) len = 40;
  if (len == 0) {
    return vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0001", src, start, end,
                         "syntax error: unexpected end of input%s", context) != NULL;
  }
  return vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0001", src, start, end,
                       "syntax error: unexpected '%.*s'%s", (int)len, tok, context) != NULL;
}

int vxp_syntax__diagnose(vxp_context *ctx, const vxp_source *src, TSNode root,
                         vxp_diag_list *diags) {
  if (!ts_node_has_error(root)) return VXP_OK;
  /* Iterative pre-order walk: syntax trees can be deeper than the C stack allows. */
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  int rc = VXP_OK;
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    bool descend = false;
    if (vxp_node__is_error(node) || ts_node_is_missing(node)) {
      if (!report(ctx, src, diags, node, ts_node_parent(node))) {
        rc = VXP_ENOMEM;
        break;
      }
    } else if (ts_node_has_error(node)) {
      descend = true;
    }
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) goto done;
    }
  }
done:
  ts_tree_cursor_delete(&cursor);
  return rc;
}
