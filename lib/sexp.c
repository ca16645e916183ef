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

#include "array.h"
#include "context.h"

typedef Array(char) char_buf;

static bool put(vxp_context *ctx, char_buf *b, const char *s, size_t n) {
  if (!array_reserve(ctx, b, n + 1)) return false;
  memcpy(b->items + b->len, s, n);
  b->len += n;
  b->items[b->len] = '\0';
  return true;
}

static bool puts_(vxp_context *ctx, char_buf *b, const char *s) {
  return put(ctx, b, s, strlen(s));
}

/* An ERROR node without visible children: tree-sitter writes (UNEXPECTED 'c') for a leaf
 * the lexer could not read and (ERROR) for one that wraps hidden tokens, a difference the
 * public API does not show. Its own printer is asked for this one node, whose subtree
 * holds no visible node and so cannot be deep; the closing parenthesis is left off. */
static bool put_error_leaf(vxp_context *ctx, char_buf *b, TSNode n) {
  char *s = ts_node_string(n);
  if (!s) return false;
  size_t len = strlen(s);
  bool ok = len > 0 && s[len - 1] == ')' ? put(ctx, b, s, len - 1) : puts_(ctx, b, "(ERROR");
  ts_current_free(s);
  return ok;
}

/* Whether the node is written (in parentheses) rather than only its children. */
static bool shown(TSNode n) { return ts_node_is_named(n) || ts_node_is_missing(n); }

/* Open node `n` (the cursor's current node): " field: (kind". */
static bool open_node(vxp_context *ctx, char_buf *b, TSTreeCursor *c, TSNode n, bool is_root) {
  if (!shown(n)) {
    if (!is_root) return true;
    return puts_(ctx, b, "(\"") && puts_(ctx, b, ts_node_type(n)) && puts_(ctx, b, "\")");
  }
  if (!is_root) {
    const char *field = ts_tree_cursor_current_field_name(c);
    if (!puts_(ctx, b, " ")) return false;
    if (field && !(puts_(ctx, b, field) && puts_(ctx, b, ": "))) return false;
  }
  if (ts_node_is_missing(n)) {
    if (!puts_(ctx, b, "(MISSING ")) return false;
    return ts_node_is_named(n)
               ? puts_(ctx, b, ts_node_type(n))
               : puts_(ctx, b, "\"") && puts_(ctx, b, ts_node_type(n)) && puts_(ctx, b, "\"");
  }
  if (ts_node_symbol(n) == (TSSymbol)-1 /* ERROR */ && ts_node_child_count(n) == 0)
    return put_error_leaf(ctx, b, n);
  return puts_(ctx, b, "(") && puts_(ctx, b, ts_node_type(n));
}

char *vxp_sexp__render(vxp_context *ctx, TSNode root) {
  char_buf b = {0};
  TSTreeCursor c = ts_tree_cursor_new(root);
  bool ok = true, is_root = true;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    ok = open_node(ctx, &b, &c, n, is_root);
    is_root = false;
    if (!ok) break;
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    /* A leaf: close it and every ancestor whose last child it ends. */
    bool done = false;
    for (;;) {
      if (shown(ts_tree_cursor_current_node(&c)) && !(ok = puts_(ctx, &b, ")"))) break;
      if (ts_tree_cursor_goto_next_sibling(&c)) break;
      if (!ts_tree_cursor_goto_parent(&c)) {
        done = true;
        break;
      }
    }
    if (!ok || done) break;
  }
  ts_tree_cursor_delete(&c);
  if (!ok || !puts_(ctx, &b, "")) {
    array_free(ctx, &b);
    return NULL;
  }
  return b.items;
}
