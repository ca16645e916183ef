/* SPDX-License-Identifier: Apache-2.0 */
/* long_items.c - a top-level item longer than VXP_MAX_PENDING_TOKENS, checked in bounded
 * pieces before it is parsed whole (long_items.h says why). */
#include <string.h>

#include "context.h"
#include "long_items.h"
#include "syntax.h"

static bool word_byte(unsigned char c) {
  return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         c >= 0x80;
}

/* The token of t[i..end) that starts at or after `i`, as syntax.c's scan reads tokens (a
 * comment, a string, a word or one byte): *start set to its first byte, returns its last; or
 * `end` when only blanks are left. */
static uint32_t next_token(const char *t, uint32_t i, uint32_t end, uint32_t *start) {
  while (i < end && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
    i++;
  *start = i;
  if (i >= end) return end;
  unsigned char c = (unsigned char)t[i];
  if (c == '/' && i + 1 < end && t[i + 1] == '/') {
    while (i + 1 < end && t[i + 1] != '\n')
      i++;
  } else if (c == '"') {
    for (i++; i < end && t[i] != '"'; i++) {
      if (t[i] == '\\') i++;
    }
    if (i >= end) i = end - 1; /* an unterminated string runs to the end */
  } else if (word_byte(c)) {
    while (i + 1 < end && word_byte((unsigned char)t[i + 1]))
      i++;
  }
  return i;
}

/* Whether the word t[s..e] begins a statement (or a member of an `impl`) that cannot continue
 * the expression before it, so that a block closed just before it (`for ... { }`,
 * `spawn on(..) { }`, a method) ended a statement. */
static bool statement_word(const char *t, uint32_t s, uint32_t e) {
  static const char *const words[] = {"let",    "for", "while", "loop",  "return",
                                      "assert", "if",  "match", "spawn", "unsafe",
                                      "fn",     "pub", "type",  "const"};
  size_t n = (size_t)(e - s) + 1;
  for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++)
    if (strlen(words[k]) == n && memcmp(words[k], t + s, n) == 0) return true;
  return false;
}

/* The first ERROR or MISSING node under `root` (one that has an error), in source order. */
static uint32_t first_error(TSNode root) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (ts_node_is_missing(n) || strcmp(ts_node_type(n), "ERROR") == 0) break;
    if (!ts_tree_cursor_goto_first_child(&c)) break;
    bool found = false;
    do {
      TSNode k = ts_tree_cursor_current_node(&c);
      if (ts_node_has_error(k) || ts_node_is_missing(k)) {
        found = true;
        break;
      }
    } while (ts_tree_cursor_goto_next_sibling(&c));
    if (!found) break;
  }
  uint32_t at = ts_node_start_byte(ts_tree_cursor_current_node(&c));
  ts_tree_cursor_delete(&c);
  return at;
}

static TSRange ts_range(const vxp_source *src, uint32_t a, uint32_t b) {
  vxp_range r = vxp_source__range(src, a, b);
  TSRange out = {{r.start.line, r.start.column}, {r.end.line, r.end.column}, a, b};
  return out;
}

/* Parse the piece made of the head [start, open], the statements [from, to) and the tail
 * [close, end) and record its verdict in *out (left VALID when it has no error). */
static int check_piece(vxp_context *ctx, const vxp_source *src, uint32_t start, uint32_t open,
                       uint32_t from, uint32_t to, uint32_t close, uint32_t end,
                       vxp_long_check *out, vxp_diag_list *diags) {
  TSRange ranges[3];
  uint32_t n = 0;
  ranges[n++] = ts_range(src, start, open + 1);
  if (to > from) ranges[n++] = ts_range(src, from, to);
  ranges[n++] = ts_range(src, close, end);
  out->pieces++;
  if (!ts_parser_set_included_ranges(ctx->parser, ranges, n)) {
    out->verdict = VXP_LONG_STOPPED;
    out->at = from;
    return VXP_OK;
  }
  TSTree *tree = NULL;
  int rc = vxp_syntax__parse_tree(ctx, src, NULL, end, &tree);
  ts_parser_set_included_ranges(ctx->parser, NULL, 0); /* the whole text again */
  if (rc != VXP_OK) {
    out->verdict = VXP_LONG_STOPPED;
    out->at = from;
    return rc == VXP_ENOMEM ? VXP_ENOMEM : VXP_OK;
  }
  TSNode root = ts_tree_root_node(tree);
  if (ts_node_has_error(root) || ts_node_is_missing(root)) {
    out->verdict = VXP_LONG_SYNTAX;
    out->at = first_error(root);
    if (diags) rc = vxp_syntax__diagnose(ctx, src, root, diags);
  }
  ts_tree_delete(tree);
  return rc;
}

int vxp_long_item__check(vxp_context *ctx, const vxp_source *src, uint32_t start, uint32_t end,
                         vxp_long_check *out, vxp_diag_list *diags) {
  const char *t = src->text;
  memset(out, 0, sizeof(*out));
  out->verdict = VXP_LONG_VALID;
  out->at = start;
  /* The head: up to the first `{` at the item's top level, which opens the body that the
   * item's last byte closes (the scan ends an item at the first `}` back at depth 0). */
  uint32_t open = UINT32_MAX, s = start;
  size_t depth = 0, head = 0;
  for (uint32_t i = start; i < end; i++) {
    i = next_token(t, i, end, &s);
    if (s >= end) break;
    if (++head > VXP_LONG_HEAD_MAX) {
      out->verdict = VXP_LONG_HEAD;
      out->at = s;
      return VXP_OK;
    }
    char c = t[s];
    if (c == '{' && depth == 0 && i == s) {
      open = s;
      break;
    }
    if (i != s) continue;
    if (c == '(' || c == '[' || c == '{')
      depth++;
    else if ((c == ')' || c == ']' || c == '}') && depth > 0)
      depth--;
  }
  if (open == UINT32_MAX || end == 0 || end - 1 <= open || t[end - 1] != '}') {
    out->verdict = VXP_LONG_NO_BODY;
    return VXP_OK;
  }
  uint32_t close = end - 1;
  size_t fixed = head + 1; /* the head's tokens and the closing brace, in every piece */
  /* The body, in runs of whole statements: a run ends after a `;` at the body's level, or
   * after a block closed there when a statement keyword follows. */
  uint32_t from = open + 1;
  size_t run = 0;
  depth = 1;
  bool closed_block = false;
  for (uint32_t i = open + 1; i < close; i++) {
    i = next_token(t, i, close, &s);
    if (s >= close) break;
    char c = t[s];
    bool boundary = false;
    if (closed_block && statement_word(t, s, i)) {
      /* the run ends before this word */
      if (run >= VXP_LONG_PIECE_TOKENS) {
        int rc = check_piece(ctx, src, start, open, from, s, close, end, out, diags);
        if (rc != VXP_OK || out->verdict != VXP_LONG_VALID) return rc;
        from = s;
        run = 0;
      }
    }
    closed_block = false;
    run++;
    if (i == s) {
      if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if (c == ')' || c == ']' || c == '}') {
        if (depth > 1) depth--;
        closed_block = c == '}' && depth == 1;
      } else if ((c == ';' || c == ',') && depth == 1) {
        boundary = true; /* a statement's end, or a field's in a struct or enum body */
      }
    }
    if (boundary && run >= VXP_LONG_PIECE_TOKENS) {
      int rc = check_piece(ctx, src, start, open, from, i + 1, close, end, out, diags);
      if (rc != VXP_OK || out->verdict != VXP_LONG_VALID) return rc;
      from = i + 1;
      run = 0;
    } else if (run + fixed > VXP_LONG_PIECE_MAX) {
      out->verdict = VXP_LONG_UNSPLIT;
      out->at = s;
      return VXP_OK;
    }
  }
  if (run > 0 || out->pieces == 0)
    return check_piece(ctx, src, start, open, from, close, close, end, out, diags);
  return VXP_OK;
}
