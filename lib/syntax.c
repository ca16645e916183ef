/* SPDX-License-Identifier: Apache-2.0 */
/* syntax.c - syntax errors as diagnostics: one per ERROR or MISSING node, saying what
 * was unexpected (or missing) and where, in what construct. */
#include <stdio.h>
#include <string.h>

#include "array.h"
#include "program.h"
#include "source.h"
#include "context.h"
#include "long_items.h"
#include "symbols.h"

/* Human names for the constructs an error can sit in, and what that construct expects next
 * (vxc's own wording where it has one). The error path only: string compares are fine. */
typedef struct {
  const char *type, *name, *expected;
} construct_info;

static const construct_info *construct_of(const char *type) {
  static const construct_info table[] = {
      {"source_file", "the top level",
       "an item: fn, struct, enum, trait, impl, extern, import, const, macro_rules!, Memory or "
       "Topology"},
      {"function_item", "a function declaration",
       "`fn NAME(PARAMS) [on TOPOLOGY] -> TYPE {requires/ensures/where} { ... }`"},
      {"block", "a block", "a statement or `}`"},
      {"memory_body", "a Memory declaration",
       "a field: within, capacity, bandwidth, clock, granule, scope, managed, replicas, "
       "crossing or overcommit"},
      {"topology_body", "a Topology declaration",
       "an entry: memory, visible, arch, dtypes or `transfer Memory::A -> Memory::B`"},
      {"parameters", "a parameter list", "`NAME : TYPE`, separated by commas"},
      {"arguments", "an argument list", "expressions separated by commas"},
      {"struct_item", "a struct declaration", "`struct NAME { FIELD : TYPE, ... }`"},
      {"field_declaration_list", "a struct declaration", "`FIELD : TYPE`, separated by commas"},
      {"enum_variant_list", "an enum declaration", "variants `NAME` or `NAME(TYPE, ...)`"},
      {"impl_body", "an impl block", "functions or `type NAME = TYPE;`"},
      {"trait_body", "a trait declaration", "signatures `fn NAME(PARAMS) -> TYPE;`"},
      {"tensor_type", "a tensor type", "`Tensor<ELEM, [DIMS]>` or `Tensor<ELEM, [DIMS], PLACE>`"},
      {"shape", "a tensor shape", "dimensions (expressions or `?`) separated by commas"},
      {"let_declaration", "a let statement", "`let [mut] NAME [: TYPE] = VALUE;`"},
      {"match_block", "a match expression", "arms `PATTERN => VALUE`"},
      {"type_arguments", "generic arguments", "types or constants separated by commas, then `>`"},
      {"generic_parameters", "generic parameters", "`T`, `T : BOUND` or `const N : TYPE`"},
      {"extern_body", "an extern block", "signatures `[safe] fn NAME(PARAMS) -> TYPE;`"},
      {"transfer_edge", "a transfer edge", "`transfer Memory::A -> Memory::B [: COST] [MARKERS]`"},
  };
  for (size_t i = 0; i < VXP__ARRAY_LEN(table); i++) {
    if (strcmp(table[i].type, type) == 0) return &table[i];
  }
  return NULL;
}

/* Tokens Vx does not have, each with what to write instead. `tok` is the unexpected text. */
static const char *foreign_syntax(const vxp_source *src, uint32_t tok_start, const char *tok) {
  /* text[len] is '\0', so looking one byte past a token never reads out of bounds. */
  if (tok[0] == '/' && tok[1] == '*') return "Vx has no block comments; use `//`";
  if (tok[0] == '#') return "Vx has no attributes";
  if (tok[0] == '\'') return "Vx has no character literals; use a number or a string";
  if (tok[0] == '!' && tok_start > 0) {
    /* `print !(x)`: whitespace, then the name of a would-be macro before the `!`. */
    uint32_t i = tok_start;
    while (i > 0 && (src->text[i - 1] == ' ' || src->text[i - 1] == '\t'))
      i--;
    if (i < tok_start && i > 0) {
      char c = src->text[i - 1];
      if (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return "a macro call is written `name!(...)`, with no space before `!`";
    }
  }
  return NULL;
}

/* Spellings vxc's parser refused after the lowering took the name `Transfer` (Vx#353), each
 * with what replaced it. The grammar reads them, so that an editor keeps a tree; the program
 * is refused as vxc refuses it. */
static const char OLD_LOWERING[] =
    "syntax error: `impl transfer Memory::A -> Memory::B` is the spelling before Vx#353; write "
    "`impl Transfer<Memory::A, Memory::B> for Topology::X`: a lowering belongs to one machine's "
    "edge and names that machine";
static const char OLD_WHERE[] =
    "syntax error: `where Transfer<A, B>` is the spelling before Vx#353; write `where "
    "Reachable<A, B>` (`Transfer` now names an edge lowering, whose arguments are memory spaces)";
static const char OLD_RELOCATABLE[] =
    "syntax error: `impl Transfer for T` is the spelling before Vx#353; `Transfer` now names an "
    "edge lowering (`impl Transfer<Memory::A, Memory::B> for Topology::X`), and a type that may "
    "move implicitly across topologies implements `Relocatable`";

/* `impl Transfer for T`: the implicit-movement opt-in before Vx#353. `tok` (len bytes at
 * tok_start) is the unexpected token; the grammar reads `Transfer` after `impl` as the
 * lowering's keyword, so the `for` that follows is what breaks. */
static bool old_relocatable(const vxp_source *src, uint32_t tok_start, const char *tok,
                            size_t len) {
  if (len != 8 || memcmp(tok, "Transfer", 8) != 0) return false;
  size_t i = tok_start + 8;
  while (i < src->len && (src->text[i] == ' ' || src->text[i] == '\t' || src->text[i] == '\n' ||
                          src->text[i] == '\r'))
    i++;
  return i + 3 < src->len && memcmp(src->text + i, "for", 3) == 0 &&
         (src->text[i + 3] == ' ' || src->text[i + 3] == '\t' || src->text[i + 3] == '\n');
}

static size_t skip_blanks(const vxp_source *src, size_t i) {
  while (i < src->len && (src->text[i] == ' ' || src->text[i] == '\t' || src->text[i] == '\n' ||
                          src->text[i] == '\r'))
    i++;
  return i;
}

/* The mistakes people make most at an item's head, which the parser can only call an
 * unexpected `fn` or `const`: a function without `-> TYPE` (Vx requires one, even for
 * main), and a const item without `: TYPE`. Returns true when `node` (an ERROR starting
 * with `kw`) is one of them and it was reported. */
static bool item_head_mistake(vxp_context *ctx, const vxp_source *src, vxp_diag_list *diags,
                              TSNode node, const char *kw, size_t kw_len, bool *ok) {
  uint32_t start = ts_node_start_byte(node);
  uint32_t count = ts_node_named_child_count(node);
  TSNode name = {{0}}, params = {{0}};
  bool have_name = false, have_params = false;
  for (uint32_t i = 0; i < count && i < 3; i++) {
    TSNode c = ts_node_named_child(node, i);
    if (!have_name && strcmp(ts_node_type(c), "identifier") == 0) {
      name = c;
      have_name = true;
    } else if (have_name && strcmp(ts_node_type(c), "parameters") == 0) {
      params = c;
      have_params = true;
      break;
    }
  }
  if (!have_name) return false;
  uint32_t name_len = ts_node_end_byte(name) - ts_node_start_byte(name);
  const char *name_text = src->text + ts_node_start_byte(name);
  if (kw_len == 2 && memcmp(kw, "fn", 2) == 0 && have_params) {
    size_t after = skip_blanks(src, ts_node_end_byte(params));
    if (after + 1 < src->len && src->text[after] == '-' && src->text[after + 1] == '>')
      return false;
    *ok = vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0001", src, start,
                        ts_node_end_byte(params),
                        "syntax error: function '%.*s' has no return type: Vx requires `-> TYPE` "
                        "after the parameters, even for main (`fn %.*s(...) -> i32 { ... }`)",
                        (int)name_len, name_text, (int)name_len, name_text) != NULL;
    return true;
  }
  if (kw_len == 5 && memcmp(kw, "const", 5) == 0) {
    size_t after = skip_blanks(src, ts_node_end_byte(name));
    if (after >= src->len || src->text[after] != '=') return false;
    *ok =
        vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0001", src, start, ts_node_end_byte(name),
                      "syntax error: const item '%.*s' has no type: Vx writes `const %.*s : i64 "
                      "= VALUE;`",
                      (int)name_len, name_text, (int)name_len, name_text) != NULL;
    return true;
  }
  return false;
}

static bool report(vxp_context *ctx, const vxp_source *src, vxp_diag_list *diags, TSNode node,
                   TSNode parent) {
  const construct_info *where = ts_node_is_null(parent) ? NULL : construct_of(ts_node_type(parent));
  char context[96] = "";
  if (where) snprintf(context, sizeof(context), " in %s", where->name);
  uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  if (ts_node_is_missing(node)) {
    return vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0001", src, start, end,
                         "syntax error: missing '%s'%s", ts_node_type(node), context) != NULL;
  }
  /* Quote the first token of the unexpected text, cut at the line's end. */
  TSNode first = node;
  while (ts_node_child_count(first) > 0)
    first = ts_node_child(first, 0);
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
                         "syntax error: unexpected end of input%s%s%s", context,
                         where ? "; expected " : "", where ? where->expected : "") != NULL;
  }
  bool reported = true;
  if (item_head_mistake(ctx, src, diags, node, tok, len, &reported)) return reported;
  /* Control bytes are shown escaped: a NUL byte was quoted as '' ("unexpected '' in a
   * block"), and a terminal should not receive the others raw. */
  char shown[4 * 40 + 1];
  size_t w = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char b = (unsigned char)tok[i];
    if (b < 0x20 || b == 0x7f)
      w += (size_t)snprintf(shown + w, sizeof(shown) - w, "\\x%02x", b);
    else
      shown[w++] = (char)b;
  }
  shown[w] = '\0';
  if (len == 1 && tok[0] == '\0') {
    return vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0001", src, start, end,
                         "syntax error: unexpected NUL byte (\\x00)%s; a Vx source is text",
                         context) != NULL;
  }
  /* A foreign token explains itself better than the construct it broke. */
  /* A character the lexer skipped (`#`, `'`) is not a token: look at the error's first byte. */
  const char *hint = foreign_syntax(src, start, src->text + start);
  if (!hint) hint = foreign_syntax(src, tok_start, tok);
  if (!hint && old_relocatable(src, tok_start, tok, len)) {
    return vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0001", src, start, end, "%s",
                         OLD_RELOCATABLE) != NULL;
  }
  if (hint) {
    return vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0001", src, start, end,
                         "syntax error: unexpected '%s'%s: %s", shown, context, hint) != NULL;
  }
  return vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0001", src, start, end,
                       "syntax error: unexpected '%s'%s%s%s", shown, context,
                       where ? "; expected " : "", where ? where->expected : "") != NULL;
}

/* vxc's lexer reserves these words (reference §1.3), so they never name anything; the tree-sitter
 * grammar's keywords are contextual, so a reserved word where a name may stand is parsed as one
 * (`import("x")`, `let on = 1`) and is refused here instead. Words that vxc's parser itself
 * accepts in a name's place (`transfer(...)`, `assert(...)`, `grad(f)`, `Ref<T>`) are not
 * listed. */
static bool reserved_word(const char *s, size_t len) {
  /* By length, so that a word is compared with the few of its own length only (this runs
   * for every word of a program that is not admitted). */
  static const char *const by_length[14][9] = {
      [2] = {"fn", "in", "if", "on", "as"},
      [3] = {"let", "mut", "for"},
      [4] = {"else", "loop", "safe", "impl", "enum"},
      [5] = {"break", "spawn", "where", "match", "trait"},
      [6] = {"return", "unroll", "across", "struct", "unsafe", "extern", "import", "Memory"},
      [7] = {"ensures"},
      [8] = {"continue", "comptime", "requires", "Topology"},
      [9] = {"invariant"},
      [13] = {"HardwareState"},
  };
  if (len >= VXP__ARRAY_LEN(by_length)) return false;
  for (const char *const *w = by_length[len]; *w; w++)
    if (memcmp(*w, s, len) == 0) return true;
  return false;
}

static bool word_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c >= 0x80; /* non-ASCII letters continue a word too */
}

/* Byte offsets of the words of the text spelled as reserved words, in order. Most are
 * keywords used as keywords; the tree says which ones were parsed as names. */
static int reserved_candidates(vxp_context *ctx, const vxp_source *src, uint32_t from, uint32_t to,
                               void *out_ptr) {
  Array(uint32_t) *out = out_ptr;
  const unsigned char *t = (const unsigned char *)src->text;
  size_t len = to < src->len ? to : src->len;
  for (size_t i = from; i < len;) {
    if (!word_byte(t[i])) {
      i++;
      continue;
    }
    size_t start = i;
    while (i < len && word_byte(t[i]))
      i++;
    if (i - start <= 13 && reserved_word((const char *)t + start, i - start) &&
        !array_push(ctx, out, (uint32_t)start))
      return VXP_ENOMEM;
  }
  return VXP_OK;
}

/* Reports every identifier spelled as a reserved word among the words of [from, to). The
 * walk descends only into nodes that contain a candidate word, so it visits the paths to
 * the keywords rather than the whole tree (the check runs on every parse and reparse). */
/* The walk of check_reserved under `node` (the node itself included), from candidate
 * `*next` on. */
static int reserved_under(vxp_context *ctx, const vxp_source *src, TSNode node,
                          const uint32_t *candidates, size_t count, size_t *next_at,
                          vxp_diag_list *diags) {
  TSSymbol ident = ctx->syms.identifier, type_ident = ctx->syms.type_identifier;
  size_t next = *next_at; /* the first candidate not before the current node */
  int rc = VXP_OK;
  TSTreeCursor cursor = ts_tree_cursor_new(node);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    uint32_t start = ts_node_start_byte(n), end = ts_node_end_byte(n);
    while (next < count && candidates[next] < start)
      next++;
    bool contains = next < count && candidates[next] < end;
    if (contains) {
      TSSymbol sym = ts_node_symbol(n);
      if (sym == ident || sym == type_ident) {
        if (reserved_word(src->text + start, end - start) &&
            !vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0001", src, start, end,
                           "syntax error: '%.*s' is a reserved word and cannot be used as a "
                           "name",
                           (int)(end - start), src->text + start)) {
          rc = VXP_ENOMEM;
          break;
        }
      } else if (sym != VXP__SYM_ERROR && ts_tree_cursor_goto_first_child(&cursor)) {
        continue; /* inside an ERROR node the words are reported as unexpected already */
      }
    }
    /* A cursor never leaves the node it was made on. */
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) goto done;
    }
  }
done:
  ts_tree_cursor_delete(&cursor);
  *next_at = next;
  return rc;
}

/* The first of the `count` top-level nodes `top` (in source order) that ends after `at`. */
static size_t first_ending_after(const TSNode *top, size_t count, uint32_t at) {
  size_t lo = 0, hi = count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ts_node_end_byte(top[mid]) <= at)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

size_t vxp_syntax__first_node_at(const TSNode *top, size_t count, uint32_t at) {
  size_t lo = 0, hi = count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ts_node_start_byte(top[mid]) < at)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Reports every identifier spelled as a reserved word among the words of [from, to). The
 * walk descends only into nodes that contain a candidate word, so it visits the paths to
 * the keywords rather than the whole tree (the check runs on every parse and reparse).
 * With the root's children `top` (not NULL, root not an ERROR node), only the children
 * that hold a candidate are walked: a cursor's steps over the root's children descend
 * tree-sitter's balanced repetition tree, which on a large file costs more than the words
 * of one item. */
static int check_reserved(vxp_context *ctx, const vxp_source *src, TSNode root, const TSNode *top,
                          size_t top_count, uint32_t from, uint32_t to, vxp_diag_list *diags) {
  Array(uint32_t) candidates;
  memset(&candidates, 0, sizeof(candidates));
  int rc = reserved_candidates(ctx, src, from, to, &candidates);
  if (rc != VXP_OK || candidates.len == 0) {
    array_free(ctx, &candidates);
    return rc;
  }
  size_t next = 0;
  if (!top) {
    rc = reserved_under(ctx, src, root, candidates.items, candidates.len, &next, diags);
  } else {
    for (size_t i = first_ending_after(top, top_count, candidates.items[0]);
         rc == VXP_OK && i < top_count && next < candidates.len; i++) {
      uint32_t start = ts_node_start_byte(top[i]), end = ts_node_end_byte(top[i]);
      while (next < candidates.len && candidates.items[next] < start)
        next++;
      if (next == candidates.len) break;
      if (candidates.items[next] >= end) { /* none inside: skip to the one holding it */
        size_t k = first_ending_after(top, top_count, candidates.items[next]);
        if (k > i) i = k - 1;
        continue;
      }
      rc = reserved_under(ctx, src, top[i], candidates.items, candidates.len, &next, diags);
    }
  }
  array_free(ctx, &candidates);
  return rc;
}

static bool report_node(vxp_context *ctx, const vxp_source *src, vxp_diag_list *diags, TSNode n,
                        const char *message) {
  return vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0001", src, ts_node_start_byte(n),
                       ts_node_end_byte(n), "%s", message) != NULL;
}

/* `where Transfer<S, D>` among a function's clauses. */
static bool check_function_clauses(vxp_context *ctx, const vxp_source *src, TSNode fn,
                                   vxp_diag_list *diags) {
  uint32_t n = vxp_node__named_count(fn);
  for (uint32_t i = 0; i < n; i++) {
    TSNode clause = ts_node_named_child(fn, i);
    if (ts_node_symbol(clause) != ctx->syms.where_clause) continue;
    uint32_t m = vxp_node__named_count(clause);
    for (uint32_t j = 0; j < m; j++) {
      TSNode c = ts_node_named_child(clause, j);
      if (ts_node_symbol(c) == ctx->syms.legacy_transfer_constraint &&
          !report_node(ctx, src, diags, c, OLD_WHERE))
        return false;
    }
  }
  return true;
}

/* The functions of an impl or trait body. */
static bool check_member_clauses(vxp_context *ctx, const vxp_source *src, TSNode body,
                                 vxp_diag_list *diags) {
  uint32_t n = vxp_node__named_count(body);
  for (uint32_t i = 0; i < n; i++) {
    TSNode member = ts_node_named_child(body, i);
    if (ts_node_symbol(member) == ctx->syms.function_item &&
        !check_function_clauses(ctx, src, member, diags))
      return false;
  }
  return true;
}

/* Whether obsolete spellings in top-level node `item` were reported; false when out of
 * memory. */
static bool obsolete_in(vxp_context *ctx, const vxp_source *src, TSNode item,
                        vxp_diag_list *diags) {
  const vxp_symbols *S = &ctx->syms;
  TSSymbol sym = ts_node_symbol(item);
  if (sym == S->legacy_transfer_impl_item) return report_node(ctx, src, diags, item, OLD_LOWERING);
  if (sym == S->function_item) return check_function_clauses(ctx, src, item, diags);
  if (sym == S->impl_item || sym == S->transfer_impl_item || sym == S->trait_item) {
    TSNode body = ts_node_child_by_field_id(item, ctx->fields.body);
    if (!ts_node_is_null(body)) return check_member_clauses(ctx, src, body, diags);
  }
  return true;
}

/* Visits the items and the functions directly inside them (where the old spellings can
 * stand), never expression bodies: the check runs on every parse. With the root's
 * children `top`, only those starting in [from, to). */
static int check_obsolete(vxp_context *ctx, const vxp_source *src, TSNode root, const TSNode *top,
                          size_t top_count, uint32_t from, uint32_t to, vxp_diag_list *diags) {
  if (top) {
    for (size_t i = vxp_syntax__first_node_at(top, top_count, from);
         i < top_count && ts_node_start_byte(top[i]) < to; i++)
      if (!obsolete_in(ctx, src, top[i], diags)) return VXP_ENOMEM;
    return VXP_OK;
  }
  /* A cursor, not ts_node_named_child(root, i): the runtime finds the i-th child by
   * walking from the first, so indexing every item would be quadratic in the file. */
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  bool more = ts_tree_cursor_goto_first_child(&cursor);
  for (; more; more = ts_tree_cursor_goto_next_sibling(&cursor)) {
    TSNode item = ts_tree_cursor_current_node(&cursor);
    uint32_t at = ts_node_start_byte(item);
    if (at >= to) break; /* items are in source order */
    if (at < from) continue;
    if (!obsolete_in(ctx, src, item, diags)) {
      ts_tree_cursor_delete(&cursor);
      return VXP_ENOMEM;
    }
  }
  ts_tree_cursor_delete(&cursor);
  return VXP_OK;
}

/* Report the ERROR and MISSING nodes of the subtree at `top` (pre-order). Iterative: syntax
 * trees can be deeper than the C stack allows. */
static int report_errors(vxp_context *ctx, const vxp_source *src, TSNode top,
                         vxp_diag_list *diags) {
  TSTreeCursor cursor = ts_tree_cursor_new(top);
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
    /* A cursor never leaves the node it was made on: `top`'s siblings are not visited. */
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) goto done;
    }
  }
done:
  ts_tree_cursor_delete(&cursor);
  return rc;
}

/* Whether the text before `at` on its line is an item keyword in column 0 and blanks
 * (`struct fn f() {`): the grammar's scanner takes such a keyword with the line break
 * before it (grammar/src/scanner.c), so it is in no node, and it is reported here. Sets
 * the keyword's span. */
static bool stray_item_keyword(const vxp_source *src, uint32_t at, uint32_t *start, uint32_t *end) {
  const char *t = src->text;
  uint32_t e = at;
  while (e > 0 && (t[e - 1] == ' ' || t[e - 1] == '\t'))
    e--;
  if (e == at) return false;
  uint32_t b = e;
  while (b > 0 && word_byte((unsigned char)t[b - 1]))
    b--;
  if (b == e || (b > 0 && t[b - 1] != '\n')) return false;
  static const char *const keywords[] = {"fn",     "struct", "enum",     "trait",      "impl",
                                         "extern", "Memory", "Topology", "macro_rules"};
  for (size_t k = 0; k < sizeof(keywords) / sizeof(keywords[0]); k++) {
    if (strlen(keywords[k]) == e - b && memcmp(keywords[k], t + b, e - b) == 0) {
      *start = b;
      *end = e;
      return true;
    }
  }
  return false;
}

/* The diagnostics of one top-level node `top` starting in the span (see below). */
static int diagnose_top(vxp_context *ctx, const vxp_source *src, TSNode root, TSNode top,
                        bool errors, vxp_diag_list *diags) {
  uint32_t at = ts_node_start_byte(top);
  uint32_t ks, ke;
  if (!ts_node_is_extra(top) && stray_item_keyword(src, at, &ks, &ke) &&
      !vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0001", src, ks, ke,
                     "syntax error: unexpected '%.*s' before the item that follows it on "
                     "the line (an item starts with one keyword)",
                     (int)(ke - ks), src->text + ks))
    return VXP_ENOMEM;
  if (ts_node_symbol(top) == ctx->syms.stray_path)
    return report(ctx, src, diags, top, root) ? VXP_OK : VXP_ENOMEM;
  if (errors && (ts_node_has_error(top) || ts_node_is_missing(top)))
    return report_errors(ctx, src, top, diags);
  return VXP_OK;
}

int vxp_syntax__diagnose_span(vxp_context *ctx, const vxp_source *src, TSNode root,
                              const TSNode *top, size_t top_count, uint32_t from, uint32_t to,
                              vxp_diag_list *diags, size_t counts[3]) {
  bool root_error = vxp_node__is_error(root) || ts_node_is_missing(root);
  if (root_error) top = NULL; /* the root's own walks below */
  size_t before = diags->len;
  int rc = check_reserved(ctx, src, root, top, top_count, from, to, diags);
  counts[0] = diags->len - before;
  before = diags->len;
  if (rc == VXP_OK) rc = check_obsolete(ctx, src, root, top, top_count, from, to, diags);
  counts[1] = diags->len - before;
  before = diags->len;
  if (rc == VXP_OK && root_error) {
    if (!report(ctx, src, diags, root, ts_node_parent(root))) rc = VXP_ENOMEM;
  } else if (rc == VXP_OK && top) {
    bool errors = ts_node_has_error(root);
    for (size_t i = vxp_syntax__first_node_at(top, top_count, from);
         rc == VXP_OK && i < top_count && ts_node_start_byte(top[i]) < to; i++)
      rc = diagnose_top(ctx, src, root, top[i], errors, diags);
  } else if (rc == VXP_OK) {
    /* The top-level nodes (items, comments, stray errors) starting in [from, to), walked
     * with a cursor (ts_node_child from the start each time would be quadratic). A path
     * alone at the top level (`Memory::HBM`) is read as a stray_path item so that error
     * recovery stays local (grammar/README.md); it is a syntax error all the same. */
    bool errors = ts_node_has_error(root);
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    bool more = ts_tree_cursor_goto_first_child(&cursor);
    for (; more && rc == VXP_OK; more = ts_tree_cursor_goto_next_sibling(&cursor)) {
      TSNode item = ts_tree_cursor_current_node(&cursor);
      uint32_t at = ts_node_start_byte(item);
      if (at < from || at >= to) continue;
      rc = diagnose_top(ctx, src, root, item, errors, diags);
    }
    ts_tree_cursor_delete(&cursor);
  }
  counts[2] = diags->len - before;
  return rc;
}

int vxp_syntax__diagnose(vxp_context *ctx, const vxp_source *src, TSNode root,
                         vxp_diag_list *diags) {
  size_t counts[3];
  return vxp_syntax__diagnose_span(ctx, src, root, NULL, 0, 0, UINT32_MAX, diags, counts);
}

/* A byte that continues an identifier or number: such a run is one token. */
static bool is_word_byte(unsigned char c) {
  return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         c >= 0x80;
}

/* Whether the word t[0..n) begins a top-level item (grammar.js: _item); `semi` is set
 * for the items that end with `;` rather than a braced body. */
static bool is_item_word(const char *t, size_t n, bool *semi) {
  static const char *const braced[] = {"fn",   "unsafe", "struct", "enum",     "trait",
                                       "impl", "extern", "Memory", "Topology", "macro_rules"};
  static const char *const ended[] = {"const", "import"};
  for (size_t k = 0; k < sizeof(braced) / sizeof(braced[0]); k++) {
    if (strlen(braced[k]) == n && memcmp(braced[k], t, n) == 0) {
      *semi = false;
      return true;
    }
  }
  for (size_t k = 0; k < sizeof(ended) / sizeof(ended[0]); k++) {
    if (strlen(ended[k]) == n && memcmp(ended[k], t, n) == 0) {
      *semi = true;
      return true;
    }
  }
  return false;
}

/* Whether the word ending at `i` is the name of a top-level macro invocation (`name!(...);`,
 * an item of the grammar: the standard library stamps its methods so); it ends with its
 * `;` (`*semi`). `macro_rules!` is an item word, not an invocation. */
static bool is_macro_item(const char *t, size_t i, size_t len, bool *semi) {
  if (i + 2 >= len || t[i + 1] != '!' || (t[i + 2] != '(' && t[i + 2] != '{' && t[i + 2] != '['))
    return false;
  *semi = true;
  return true;
}

/* The state of the window of tokens the parser's stack may still hold. */
typedef enum window_kind {
  WINDOW_EMPTY,  /* nothing since the last complete item (comments aside) */
  WINDOW_BRACED, /* an item that ends with its closing `}` */
  WINDOW_ENDED,  /* an item that ends with `;` */
  WINDOW_UNKNOWN /* anything else: stray text, which error recovery may leave stacked */
} window_kind;

/* Whether two marks hold the same scan state (their offsets aside). */
static bool same_state(const vxp_scan_mark *a, const vxp_scan_mark *b) {
  return a->nested == b->nested && a->pending == b->pending && a->angles == b->angles &&
         a->stray == b->stray && a->window == b->window && a->tainted == b->tainted &&
         a->block_closed == b->block_closed && a->stray_run == b->stray_run &&
         a->recovered == b->recovered && a->macro == b->macro;
}

size_t vxp_scan_marks__first_at(const vxp_scan_marks *marks, uint64_t at) {
  size_t lo = 0, hi = marks->len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (marks->items[mid].at < at)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The index of the mark at offset `at` in `marks` (sorted by offset), SIZE_MAX if none. */
static size_t find_mark(const vxp_scan_marks *marks, uint64_t at) {
  size_t k = vxp_scan_marks__first_at(marks, at);
  return k < marks->len && marks->items[k].at == at ? k : SIZE_MAX;
}

/* What cut a long item (VXP_SYNTAX_CUT_LONG), for its diagnostic. */
typedef struct vxp_long_fault {
  vxp_syntax_cut inner; /* a limit the item ran past, NONE when none */
  size_t at;            /* where: the inner limit's token, the item's end, or the text's end */
  bool checked;         /* the item ended and was checked: `check` holds the verdict */
  vxp_long_check check;
} vxp_long_fault;

/* Cut the text at the start of the long item that begins at `item_start`: none of it is
 * handed to the parser, whose error recovery on a prefix that long is what the pending
 * limit guards. */
static uint32_t long_cut(vxp_long_fault *fault, vxp_syntax_cut *why, size_t item_start,
                         vxp_syntax_cut inner, size_t at, const vxp_long_check *check) {
  *why = VXP_SYNTAX_CUT_LONG;
  if (fault) {
    memset(fault, 0, sizeof(*fault));
    fault->inner = inner;
    fault->at = at;
    fault->checked = check != NULL;
    if (check) fault->check = *check;
  }
  return (uint32_t)item_start;
}

/* The scan of vxp_syntax__parsable_length from byte `begin` of `t` (`len` bytes) in state
 * `st` (at bracket depth 0). With `marks`, the state after each complete item is appended
 * to it; with `old` (marks of an earlier scan of an earlier text that ran to its end,
 * whose bytes from old_from on are this text's from `resume_from` on, moved by `shift`),
 * the scan stops at the first such state at or after `resume_from` that the earlier scan
 * had at the same text: the rest would repeat it, and reach the end. Returns the
 * parsable length; sets *stopped to the index in `old` it stopped at (SIZE_MAX if none);
 * VXP_ENOMEM in *rc when a mark could not be appended. */
static uint32_t scan(vxp_context *ctx, const vxp_source *src, const char *t, size_t len,
                     size_t begin, const vxp_scan_mark *st, vxp_syntax_cut *why,
                     vxp_scan_marks *marks, const vxp_scan_marks *old, size_t resume_from,
                     int64_t shift, size_t *stopped, int *rc, vxp_long_fault *fault) {
  size_t depth = 0;
  /* A braced item past VXP_MAX_PENDING_TOKENS (`long_at`: where it passed them, SIZE_MAX
   * while none) is not cut when it is checked in pieces (long_items.h) with the context's
   * parser: it is scanned to its end and checked there. The check needs `src` and `ctx`. */
  bool check_long = ctx && src;
  size_t long_at = SIZE_MAX, item_start = 0;
  *stopped = SIZE_MAX;
  *rc = VXP_OK;
  /* Two estimates of what the parser's stack may hold, each with its limit.
   *
   * `nested`: the tokens of the statements left open. Per bracket level, the tokens since
   * its last `;`, `,` or closed block not followed by `else` (a bracket counts on its level
   * until it closes),
   * summed over the open levels. Error recovery on a stack that deep takes time growing with its
   * square
   * (`if x < ` left open: 6,000 tokens 1.6 s, 24,000 tokens 28 s, 96,000 tokens 150 s).
   *
   * `pending`: the tokens since the last complete top-level item (a `}` at depth 0 that
   * ends an item begun by its keyword, or the `;` of a const or import with its generics
   * closed). Error recovery can keep anything else on the stack, through `;`s and items
   * (`let a: A<x;` repeated, stray text between items): the estimate that keeps the stack
   * under the 65,536 entries at which tree-sitter 0.20 corrupts its heap. Stray text (a
   * window that did not begin with an item keyword) has the tighter limit of `nested`.
   *
   * Punctuation counts a token per byte and a comment one token: over-estimates, which
   * keep the bounds safe. */
  uint16_t level[VXP_MAX_BRACKET_DEPTH + 1];
  size_t nested = st->nested, pending = st->pending;
  size_t angles = st->angles; /* `<` minus `>` in the window, at depth 0 */
  size_t stray = st->stray;   /* tokens of stray text since it began or since the last item line */
  bool tainted = st->tainted; /* stray text was seen: `pending` is no longer reset by item ends */
  size_t stray_run = st->stray_run; /* tokens of stray text since recovery last ended */
  size_t recovered = st->recovered; /* tokens of stray text whose recovery ended, in all */
  bool macro = st->macro;           /* a `!` in the stray text since recovery last ended */
  window_kind window = (window_kind)st->window;
  bool block_closed = st->block_closed;
  level[0] = (uint16_t)st->nested; /* at depth 0 the open statements are level 0's */
  *why = VXP_SYNTAX_CUT_NONE;
  for (size_t i = begin; i < len; i++) {
    unsigned char c = (unsigned char)t[i];
    size_t start = i;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    bool comment = false, ends_item = false;
    if (c == '/' && i + 1 < len && t[i + 1] == '/') {
      /* A comment runs to the end of the line; it is a token of the tree (an extra). */
      while (i + 1 < len && t[i + 1] != '\n')
        i++;
      comment = true;
    } else if (c == '"') {
      for (i++; i < len && t[i] != '"'; i++) {
        if (t[i] == '\\') i++; /* an escape takes the next byte */
      }
    } else if (is_word_byte(c)) {
      while (i + 1 < len && is_word_byte((unsigned char)t[i + 1]))
        i++;
    }
    /* The open statements. A closed block ends its statement (`if c { }`, `fn f() { }`)
     * unless `else` follows: an else-if chain nests, each branch inside the last. */
    if (block_closed && !comment) {
      block_closed = false;
      if (!(i + 1 - start == 4 && memcmp(t + start, "else", 4) == 0)) {
        nested -= level[depth];
        level[depth] = 0;
      }
    }
    if (c == '(' || c == '[' || c == '{') {
      if (depth + 1 > VXP_MAX_BRACKET_DEPTH) {
        *why = VXP_SYNTAX_CUT_BRACKETS;
        if (long_at != SIZE_MAX)
          return long_cut(fault, why, item_start, VXP_SYNTAX_CUT_BRACKETS, start, NULL);
        return (uint32_t)start;
      }
      level[depth]++;
      nested++;
      level[++depth] = 0;
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      nested -= level[depth--];
      block_closed = c == '}';
      ends_item = depth == 0 && c == '}' && window == WINDOW_BRACED;
    } else if (c == ';' || c == ',') {
      nested -= level[depth];
      level[depth] = 0;
      if (c == ';' && depth == 0) {
        /* `const N: A<x;` repeated: the `;` of an unclosed generic does not end the item,
         * and a `;` in the head of a braced item is stray. */
        ends_item = window == WINDOW_ENDED && angles == 0;
        if (!ends_item) window = WINDOW_UNKNOWN;
      }
    } else if (!comment) {
      level[depth]++;
      nested++;
      if ((c == '<' || c == '>') && depth == 0) angles += c == '<' ? 1 : (size_t)-1;
    }
    if (nested > VXP_MAX_NESTED_TOKENS) {
      *why = VXP_SYNTAX_CUT_NESTING;
      if (long_at != SIZE_MAX)
        return long_cut(fault, why, item_start, VXP_SYNTAX_CUT_NESTING, start, NULL);
      return (uint32_t)start;
    }
    /* The unfinished item. After stray text the parser's error recovery decides whether an
     * item's end is one (it may keep the stray text and what follows on its stack), so
     * `pending` then runs on to its limit. */
    if (ends_item && long_at != SIZE_MAX) {
      /* A long item ended: parsed whole only when its pieces are valid. */
      vxp_long_check check;
      int checked =
          vxp_long_item__check(ctx, src, (uint32_t)item_start, (uint32_t)(i + 1), &check, NULL);
      if (checked != VXP_OK) *rc = checked;
      if (checked != VXP_OK || check.verdict != VXP_LONG_VALID)
        return long_cut(fault, why, item_start, VXP_SYNTAX_CUT_NONE, i + 1, &check);
      long_at = SIZE_MAX;
    }
    if (ends_item) {
      if (!tainted) pending = 0;
      angles = 0;
      window = WINDOW_EMPTY;
      if (marks && *rc == VXP_OK) {
        /* the state between this item and the next (depth 0: nested is level 0's) */
        vxp_scan_mark m = {(uint32_t)(i + 1),
                           (uint32_t)nested,
                           (uint32_t)pending,
                           (uint32_t)angles,
                           (uint32_t)stray,
                           (uint8_t)window,
                           tainted,
                           block_closed,
                           (uint32_t)stray_run,
                           (uint32_t)recovered,
                           macro};
        if (!array_push(ctx, marks, m)) *rc = VXP_ENOMEM;
        if (old && *rc == VXP_OK && i + 1 >= resume_from) {
          size_t k = find_mark(old, (uint64_t)((int64_t)(i + 1) - shift));
          if (k != SIZE_MAX && same_state(&old->items[k], &m)) {
            *stopped = k;
            return (uint32_t)len;
          }
        }
      }
      continue;
    }
    /* A line that starts in column 0 with an item keyword and a blank is where the
     * grammar's scanner ends broken text (grammar/src/scanner.c): stray text stops there,
     * and the item that begins is counted as an item. */
    bool semi_item = false;
    if (window == WINDOW_UNKNOWN && (start == 0 || t[start - 1] == '\n') && is_word_byte(c) &&
        i + 1 < len &&
        (((t[i + 1] == ' ' || t[i + 1] == '\t') &&
          is_item_word(t + start, i + 1 - start, &semi_item)) ||
         is_macro_item(t, i, len, &semi_item))) {
      window = semi_item ? WINDOW_ENDED : WINDOW_BRACED;
      item_start = start;
      stray = 0;
      /* Short stray text: error recovery ends at this line (tree-sitter returns to the top
       * level, where the _item_start before it is valid, with the stray text in an ERROR
       * node), so nothing before the line stays on the stack, the stray brackets included.
       * Measured: 20,000 stray lines of up to 250 tokens each (open brackets, `A<x;`,
       * `if x < `, paths, keywords) before as many items parse with the error on each line
       * (tests/fuzz/hostile.py). Not after a macro invocation: its token trees take the item
       * lines as tokens, recovery does not return to the top level and the stack grows to
       * tree-sitter's heap fault (`m!((` before each of 20,000 items aborts). The total is
       * bounded: recovery's work grows with the stray text it wraps. */
      if (!macro && stray_run <= VXP_MAX_RECOVERED_STRAY &&
          recovered + stray_run <= VXP_MAX_PENDING_TOKENS) {
        recovered += stray_run;
        stray_run = 0;
        tainted = false;
        pending = 0;
        nested = 0;
        depth = 0;
        level[0] = 0;
        angles = 0;
        block_closed = false;
      }
    }
    if (window == WINDOW_EMPTY && !comment) {
      bool semi = false;
      if (window == WINDOW_EMPTY)
        window = depth == 0 && is_word_byte(c) &&
                         (is_item_word(t + start, i + 1 - start, &semi) ||
                          is_macro_item(t, i, len, &semi))
                     ? (semi ? WINDOW_ENDED : WINDOW_BRACED)
                     : WINDOW_UNKNOWN;
      item_start = start;
    }
    /* Outside an item (stray text, or comments between items: each stays on the stack
     * until the next item, 16,384 comment lines took 12 s) the tighter limit applies. */
    /* Stray text keeps everything after it on the stack (items included), so it is never
     * forgotten, but it is held to the item limit: one stray line early in a file must not
     * cut the file (the editor's half-written line). */
    bool outside = window == WINDOW_EMPTY;
    size_t limit = outside ? VXP_MAX_NESTED_TOKENS : VXP_MAX_PENDING_TOKENS;
    /* Error recovery over stray text takes time growing with its square: its tokens, at
     * any bracket depth, have the tight limit up to the next item line (1 MB of random
     * bytes took minutes, then corrupted tree-sitter's heap). */
    if (window == WINDOW_UNKNOWN) {
      tainted = true;
      stray++;
      stray_run++;
      macro = macro || c == '!';
    }
    bool over = ++pending > limit;
    if (over && check_long && window == WINDOW_BRACED && !tainted && !outside) {
      if (long_at == SIZE_MAX) long_at = start;
      over = false;
    }
    if (over || stray > VXP_MAX_NESTED_TOKENS) {
      *why = outside || window == WINDOW_UNKNOWN ? VXP_SYNTAX_CUT_STRAY : VXP_SYNTAX_CUT_TOKENS;
      return (uint32_t)start;
    }
  }
  if (long_at != SIZE_MAX) /* the text ends inside a long item */
    return long_cut(fault, why, item_start, VXP_SYNTAX_CUT_NONE, len, NULL);
  return (uint32_t)len;
}

uint32_t vxp_syntax__parsable_length(vxp_context *ctx, const vxp_source *src, vxp_syntax_cut *why) {
  vxp_scan_mark initial;
  memset(&initial, 0, sizeof(initial));
  size_t stopped;
  int rc;
  return scan(ctx, src, src->text, src->len, 0, &initial, why, NULL, NULL, 0, 0, &stopped, &rc,
              NULL);
}

int vxp_syntax__parsable_length_marked(vxp_context *ctx, const vxp_source *src,
                                       const vxp_source *old_src, const vxp_scan_marks *old,
                                       vxp_scan_marks *marks, uint32_t *out, vxp_syntax_cut *why) {
  if (!old_src || !old || old_src->len > UINT32_MAX) {
    vxp_scan_mark initial;
    memset(&initial, 0, sizeof(initial));
    size_t stopped;
    int rc;
    *out = scan(ctx, src, src->text, src->len, 0, &initial, why, marks, NULL, 0, 0, &stopped, &rc,
                NULL);
    return rc;
  }
  /* Where the texts differ: the first differing byte and the common tail. */
  const char *a = old_src->text, *b = src->text;
  size_t la = old_src->len, lb = src->len, min = la < lb ? la : lb, p = 0, tail = 0;
  while (p + 64 <= min && memcmp(a + p, b + p, 64) == 0)
    p += 64;
  while (p < min && a[p] == b[p])
    p++;
  while (tail + 64 <= min - p && memcmp(a + la - tail - 64, b + lb - tail - 64, 64) == 0)
    tail += 64;
  while (tail < min - p && a[la - tail - 1] == b[lb - tail - 1])
    tail++;
  return vxp_syntax__parsable_length_resumed(ctx, src, old_src, old, (uint32_t)p,
                                             (uint32_t)(la - tail), (uint32_t)(lb - tail), marks,
                                             out, why);
}

int vxp_syntax__parsable_length_resumed(vxp_context *ctx, const vxp_source *src,
                                        const vxp_source *old_src, const vxp_scan_marks *old,
                                        uint32_t prefix, uint32_t old_end, uint32_t new_end,
                                        vxp_scan_marks *marks, uint32_t *out, vxp_syntax_cut *why) {
  vxp_scan_mark initial;
  memset(&initial, 0, sizeof(initial));
  size_t stopped;
  int rc;
  const char *b = src->text;
  size_t la = old_src->len, lb = src->len, p = prefix, tail = lb - new_end;
  (void)old_end; /* it is la - tail */
  VXP__ASSERT(old_end == la - tail);
  /* Resume at the last state the earlier scan had at or before the first change: the text
   * before it is the same. */
  size_t lo = vxp_scan_marks__first_at(old, (uint64_t)p + 1); /* the marks at or before p */
  const vxp_scan_mark *from = lo ? &old->items[lo - 1] : &initial;
  if (lo && !array_reserve(ctx, marks, lo)) return VXP_ENOMEM;
  if (lo) memcpy(marks->items, old->items, lo * sizeof(*old->items));
  marks->len = lo;
  int64_t shift = (int64_t)lb - (int64_t)la;
  *out =
      scan(ctx, src, b, lb, from->at, from, why, marks, old, lb - tail, shift, &stopped, &rc, NULL);
  if (rc != VXP_OK || stopped == SIZE_MAX) return rc;
  /* The earlier scan's states after the one it stopped at, moved with the text. */
  size_t rest = old->len - stopped - 1;
  if (rest && !array_reserve(ctx, marks, rest)) return VXP_ENOMEM;
  for (size_t k = stopped + 1; k < old->len; k++) {
    vxp_scan_mark m = old->items[k];
    m.at = (uint32_t)((int64_t)m.at + shift);
    marks->items[marks->len++] = m;
  }
  return VXP_OK;
}

/* VXP0003 for a long item cut at `cut`, its start: the scan is run again from there to learn
 * why (the first limit it ran past, its end, or its pieces' verdict), and a syntax error in
 * a piece is reported first, as the cause, before the limit that kept the item out. */
static int report_long_cut(vxp_context *ctx, const vxp_source *src, uint32_t cut,
                           vxp_diag_list *diags) {
  vxp_scan_mark initial;
  memset(&initial, 0, sizeof(initial));
  size_t stopped;
  int rc = VXP_OK;
  vxp_syntax_cut why = VXP_SYNTAX_CUT_NONE;
  vxp_long_fault f;
  memset(&f, 0, sizeof(f));
  f.at = cut;
  uint32_t again =
      scan(ctx, src, src->text, src->len, cut, &initial, &why, NULL, NULL, 0, 0, &stopped, &rc, &f);
  if (rc != VXP_OK) return rc;
  vxp_point p = vxp_source__point(src, cut);
  char item[160];
  snprintf(item, sizeof(item), "a top-level item of more than %d tokens (from %u:%u)",
           VXP_MAX_PENDING_TOKENS, p.line + 1, p.column + 1);
  uint32_t at = cut;
  char what[400];
  if (why != VXP_SYNTAX_CUT_LONG || again != cut) {
    /* not found again (a changed context): name the limit alone */
    snprintf(what, sizeof(what), "%s that is not parsed whole", item);
  } else if (f.inner == VXP_SYNTAX_CUT_BRACKETS || f.inner == VXP_SYNTAX_CUT_NESTING) {
    at = (uint32_t)f.at;
    if (f.inner == VXP_SYNTAX_CUT_BRACKETS)
      snprintf(what, sizeof(what), "brackets nested more than %d deep in %s", VXP_MAX_BRACKET_DEPTH,
               item);
    else
      snprintf(what, sizeof(what), "more than %d tokens of statements left open in %s",
               VXP_MAX_NESTED_TOKENS, item);
  } else if (!f.checked) {
    snprintf(what, sizeof(what), "%s does not end: its body is not closed by the end of the text",
             item);
  } else {
    vxp_long_check c;
    at = f.check.at;
    switch (f.check.verdict) {
    case VXP_LONG_SYNTAX:
      /* the cause first: the piece's syntax errors, where they are */
      rc = vxp_long_item__check(ctx, src, cut, (uint32_t)f.at, &c, diags);
      if (rc != VXP_OK) return rc;
      snprintf(what, sizeof(what),
               "%s has a syntax error; an item this long is parsed only when it is valid", item);
      break;
    case VXP_LONG_UNSPLIT:
      snprintf(what, sizeof(what),
               "a statement of more than %d tokens in %s (each of its statements must be shorter)",
               VXP_LONG_PIECE_MAX, item);
      break;
    case VXP_LONG_HEAD:
      snprintf(what, sizeof(what), "more than %d tokens before the body of %s", VXP_LONG_HEAD_MAX,
               item);
      break;
    case VXP_LONG_NO_BODY: snprintf(what, sizeof(what), "%s with no body in braces", item); break;
    default: snprintf(what, sizeof(what), "the check of %s was stopped", item); break;
    }
  }
  vxp_diagnostic *d = vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0003", src, at, at + 1,
                                    "%s; vxpeak does not parse the text from its start on, so the "
                                    "program cannot be admitted",
                                    what);
  return d ? VXP_OK : VXP_ENOMEM;
}

int vxp_syntax__report_cut(vxp_context *ctx, const vxp_source *src, uint32_t cut,
                           vxp_syntax_cut why, vxp_diag_list *diags) {
  if (why == VXP_SYNTAX_CUT_LONG) return report_long_cut(ctx, src, cut, diags);
  char what[128];
  switch (why) {
  case VXP_SYNTAX_CUT_BRACKETS:
    snprintf(what, sizeof(what), "brackets nested more than %d deep", VXP_MAX_BRACKET_DEPTH);
    break;
  case VXP_SYNTAX_CUT_NESTING:
    snprintf(what, sizeof(what), "more than %d tokens of statements left open",
             VXP_MAX_NESTED_TOKENS);
    break;
  case VXP_SYNTAX_CUT_STRAY:
    snprintf(what, sizeof(what),
             "more than %d tokens of stray text (or comments) before an item, "
             "or %d since stray text",
             VXP_MAX_NESTED_TOKENS, VXP_MAX_PENDING_TOKENS);
    break;
  default:
    snprintf(what, sizeof(what), "more than %d tokens in one top-level item",
             VXP_MAX_PENDING_TOKENS);
    break;
  }
  vxp_diagnostic *d = vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0003", src, cut, cut + 1,
                                    "%s; vxpeak does not parse the text from here on, so the "
                                    "program cannot be admitted",
                                    what);
  return d ? VXP_OK : VXP_ENOMEM;
}
