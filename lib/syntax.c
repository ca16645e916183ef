/* SPDX-License-Identifier: Apache-2.0 */
/* syntax.c - syntax errors as diagnostics: one per ERROR or MISSING node, saying what
 * was unexpected (or missing) and where, in what construct. */
#include <stdio.h>
#include <string.h>

#include "syntax.h"

#include "array.h"
#include "context.h"
#include "source.h"
#include "symbols.h"

int vxp_syntax__parse_tree(vxp_context *ctx, const vxp_source *src, const TSTree *old_tree,
                           uint32_t len, TSTree **out) {
  if (vxp_ctx__interrupted(ctx)) return vxp_ctx__cancelled(ctx);
  vxp_ctx__arm_parser(ctx);
  TSTree *tree = ts_parser_parse_string(ctx->parser, old_tree, src->text, len);
  if (!tree) {
    /* A parse stopped by the flag or the timeout would resume on the next call; start
     * afresh instead. */
    ts_parser_reset(ctx->parser);
    if (vxp_ctx__interrupted(ctx) || ctx->deadline_ns) return vxp_ctx__cancelled(ctx);
    return vxp_ctx__error(ctx, VXP_ERROR, "%s: the parser returned no tree", src->label);
  }
  *out = tree;
  return VXP_OK;
}

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

/* Byte offsets of the words of the text spelled as reserved words, in order. Most are
 * keywords used as keywords; the tree says which ones were parsed as names. */
static int reserved_candidates(vxp_context *ctx, const vxp_source *src, uint32_t from, uint32_t to,
                               void *out_ptr) {
  Array(uint32_t) *out = out_ptr;
  const unsigned char *t = (const unsigned char *)src->text;
  size_t len = to < src->len ? to : src->len;
  for (size_t i = from; i < len;) {
    if (!vxp_source__word_byte(t[i])) {
      i++;
      continue;
    }
    size_t start = i;
    while (i < len && vxp_source__word_byte(t[i]))
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
  while (b > 0 && vxp_source__word_byte((unsigned char)t[b - 1]))
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
