/* SPDX-License-Identifier: Apache-2.0 */
/* sexp.c - the syntax tree as an S-expression, written without recursion.
 *
 * The notation is tree-sitter's (ts_node_string): named and MISSING nodes in parentheses,
 * field names before the nodes they label. tree-sitter's
 * own printer recurses once per level, so a tree as deep as the input allows (50,000 unary
 * minuses, a chain of 10^5 method calls) overflowed the stack; this walk keeps its position
 * in a tree cursor, whose stack is on the heap. */
#include "program.h"

#include <string.h>

#include "context.h"
#include "strbuf.h"

typedef vxp_sexp_out out;

static bool put(out *o, const char *s, size_t n) {
  vxp_sb__append(o->ctx, &o->sb, s, n);
  return vxp_sb__spill(&o->sb, &o->to, false);
}

static bool puts_(out *o, const char *s) { return put(o, s, strlen(s)); }

/* An ERROR node without visible children: tree-sitter writes (UNEXPECTED 'c') for a leaf
 * the lexer could not read and (ERROR) for one that wraps hidden tokens, a difference the
 * public API does not show. Its own printer is asked for this one node, whose subtree
 * holds no visible node and so cannot be deep; the closing parenthesis is left off. */
static bool put_error_leaf(out *o, TSNode n) {
  char *s = ts_node_string(n);
  if (!s) return false;
  size_t len = strlen(s);
  bool ok = len > 0 && s[len - 1] == ')' ? put(o, s, len - 1) : puts_(o, "(ERROR");
  ts_current_free(s);
  return ok;
}

/* Whether the node is written (in parentheses) rather than only its children. */
static bool shown(TSNode n) { return ts_node_is_named(n) || ts_node_is_missing(n); }

/* Open node `n` (the cursor's current node): " field: (kind". */
static bool open_node(out *o, TSTreeCursor *c, TSNode n, bool is_root) {
  if (!shown(n)) {
    if (!is_root) return true;
    return puts_(o, "(\"") && puts_(o, ts_node_type(n)) && puts_(o, "\")");
  }
  if (!is_root) {
    const char *field = ts_tree_cursor_current_field_name(c);
    if (!puts_(o, " ")) return false;
    if (field && !(puts_(o, field) && puts_(o, ": "))) return false;
  }
  if (ts_node_is_missing(n)) {
    if (!puts_(o, "(MISSING ")) return false;
    return ts_node_is_named(n) ? puts_(o, ts_node_type(n))
                               : puts_(o, "\"") && puts_(o, ts_node_type(n)) && puts_(o, "\"");
  }
  if (ts_node_symbol(n) == (TSSymbol)-1 /* ERROR */ && ts_node_child_count(n) == 0)
    return put_error_leaf(o, n);
  return puts_(o, "(") && puts_(o, ts_node_type(n));
}

/* The tree under `root`, or with `children_only` its children alone (each as it is written
 * inside the root: " (kind ...)"), walked with a cursor. */
static bool walk(out *o, TSNode root, bool children_only) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  bool ok = true;
  size_t depth = 0; /* of the cursor's node below the root */
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (!(depth == 0 && children_only)) ok = open_node(o, &c, n, depth == 0);
    if (!ok) break;
    if (ts_tree_cursor_goto_first_child(&c)) {
      depth++;
      continue;
    }
    /* A leaf: close it and every ancestor whose last child it ends. */
    bool done = false;
    for (;;) {
      if (!(depth == 0 && children_only) && shown(ts_tree_cursor_current_node(&c)) &&
          !(ok = puts_(o, ")")))
        break;
      if (depth > 0 && ts_tree_cursor_goto_next_sibling(&c)) break;
      if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) {
        done = true;
        break;
      }
      depth--;
    }
    if (!ok || done) break;
  }
  ts_tree_cursor_delete(&c);
  return ok;
}

char *vxp_sexp__render(vxp_context *ctx, TSNode root) {
  out o;
  vxp_sexp__out_init(&o, ctx, NULL, NULL);
  if (!walk(&o, root, false)) {
    vxp_sb__free(ctx, &o.sb);
    return NULL;
  }
  return vxp_sb__detach(ctx, &o.sb, NULL);
}

void vxp_sexp__out_init(vxp_sexp_out *o, vxp_context *ctx, vxp_write_fn write, void *arg) {
  memset(o, 0, sizeof(*o));
  o->ctx = ctx;
  o->to.write = write;
  o->to.arg = arg;
}

bool vxp_sexp__put(vxp_sexp_out *o, const char *text) { return puts_(o, text); }

bool vxp_sexp__tree(vxp_sexp_out *o, TSNode root, bool children_only) {
  return walk(o, root, children_only);
}

int vxp_sexp__out_finish(vxp_sexp_out *o) {
  vxp_sb__spill(&o->sb, &o->to, true);
  bool failed = o->sb.failed;
  vxp_sb__free(o->ctx, &o->sb);
  if (o->to.refused)
    return vxp_ctx__error(o->ctx, VXP_EIO, "the writer of the S-expression failed");
  return failed ? vxp_ctx__nomem(o->ctx) : VXP_OK;
}
