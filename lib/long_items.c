/* SPDX-License-Identifier: Apache-2.0 */
/* long_items.c - a top-level item longer than VXP_MAX_PENDING_TOKENS, checked in bounded
 * pieces before it is parsed whole (long_items.h says why). */
#include <string.h>

#include "array.h"
#include "context.h"
#include "long_items.h"
#include "syntax.h"

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
  } else if (vxp_source__word_byte(c)) {
    while (i + 1 < end && vxp_source__word_byte((unsigned char)t[i + 1]))
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

/* One long bracket of the item's body (the body's own `{` first, any left unclosed, and any
 * that holds a long one): where it opens and closes (UINT32_MAX while unclosed), the tokens
 * between, the commas at its own level, and the index of the first kept bracket after its
 * close. */
typedef struct brace {
  uint32_t open, close, tokens, commas, next;
  bool fixed; /* a `(` whose first element must be a name (`grad(f, ...)`): not split */
} brace;

/* A stretch [a, b) of the text that every piece of a block holds around its run. */
typedef struct seg {
  uint32_t a, b;
} seg;

typedef struct walk {
  vxp_context *ctx;
  const vxp_source *src;
  uint32_t start, end;          /* the item's start, and its end: each piece is parsed up to it */
  const vxp_long_memo_use *use; /* an earlier check's valid pieces, and this one's memo */
  Array(brace) braces;
  Array(seg) before;  /* the segments before a run, in text order */
  Array(seg) after;   /* the segments after it, innermost (first in the text) last */
  Array(size_t) kids; /* the long blocks of the statements being read, by brace index */
  Array(TSRange) ranges;
  Array(vxp_long_span) spans, moved; /* a piece's ranges, and moved back to the earlier text */
  uint64_t work, budget;             /* tokens parsed in pieces so far, and the most allowed */
  vxp_long_check *out;
  vxp_diag_list *diags;
} walk;

/* The most commas at the level of a tuple (`tupleOf` in grammar/grammar.js: two to six
 * elements and a trailing comma): a `(` with more is a list of any length (a call's
 * arguments, a variant pattern's fields), whose runs of whole elements parse alone. */
#define TUPLE_COMMAS_MAX 6

/* A block is long, and checked in its own pieces, when it holds more tokens than a run; so is
 * a comma-separated list (an array literal's `[`, a call's `(`), split at its commas: every
 * list of the grammar takes any number of elements (none, in a list emptied around a long
 * list beside it) and a trailing comma, but a tuple (two to six) and the arguments of `grad`,
 * `vjp` and `jvp` (a function's name first), which are not split. */
static bool long_brace(const brace *b, const char *t) {
  if (b->close == UINT32_MAX || b->tokens <= VXP_LONG_PIECE_TOKENS) return false;
  char c = t[b->open];
  return c == '{' || (c == '[' && b->commas > 0) ||
         (c == '(' && !b->fixed && b->commas > TUPLE_COMMAS_MAX);
}

/* Whether the word t[s..e] names an operator whose `(` takes a function's name first. */
static bool fixed_word(const char *t, uint32_t s, uint32_t e) {
  static const char *const words[] = {"grad", "vjp", "jvp"};
  size_t n = (size_t)(e - s) + 1;
  for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++)
    if (strlen(words[k]) == n && memcmp(words[k], t + s, n) == 0) return true;
  return false;
}

/* The range [a, b) of this text moved back to the earlier text of `use` into *out: false
 * when it holds a changed byte (or lies across one), so that its bytes may differ. */
static bool move_back(const vxp_long_memo_use *use, uint32_t a, uint32_t b, vxp_long_span *out) {
  if (b <= use->prefix) {
    out->a = a;
    out->b = b;
    return true;
  }
  if (a < use->tail) return false;
  int64_t oa = (int64_t)a - use->shift, ob = (int64_t)b - use->shift;
  if (oa < 0 || ob > (int64_t)UINT32_MAX) return false;
  out->a = (uint32_t)oa;
  out->b = (uint32_t)ob;
  return true;
}

/* Whether the piece w->spans, whose run (w->spans.items[run]) starts the piece's key, holds
 * the bytes of a valid piece of the earlier check: each range unchanged, or moved with the
 * text after the change, and the earlier piece's ranges exactly these, in the same order.
 * The parse of a piece reads the bytes of its ranges in order and nothing else (the lexer
 * jumps from one range's end to the next's start, the grammar's scanner reads bytes, not
 * columns), and only a parse without an error is kept, so the piece has no error either. */
static int kept_before(walk *w, size_t run, bool *kept) {
  const vxp_long_memo_use *use = w->use;
  *kept = false;
  if (!use || !use->old || use->old->pieces.len == 0) return VXP_OK;
  if (!array_reserve(w->ctx, &w->moved, w->spans.len)) return VXP_ENOMEM;
  w->moved.len = w->spans.len;
  for (size_t k = 0; k < w->spans.len; k++)
    if (!move_back(use, w->spans.items[k].a, w->spans.items[k].b, &w->moved.items[k]))
      return VXP_OK;
  uint32_t key = w->moved.items[run].a;
  const vxp_long_memo *old = use->old;
  size_t lo = 0, hi = old->pieces.len; /* the first piece whose key is at least `key` */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (old->pieces.items[mid].key < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == old->pieces.len) return VXP_OK;
  const vxp_long_piece *p = &old->pieces.items[lo];
  if (p->key != key || p->count != w->moved.len || p->first > old->spans.len ||
      old->spans.len - p->first < p->count)
    return VXP_OK;
  *kept = memcmp(old->spans.items + p->first, w->moved.items,
                 w->moved.len * sizeof(*w->moved.items)) == 0;
  return VXP_OK;
}

/* Append the valid piece w->spans (its run starting at `key`) to the memo being made. Keys
 * increase (runs are read in text order); a piece that would break the order is left out,
 * which only costs a later check its parse. */
static int memo_piece(walk *w, uint32_t key) {
  vxp_long_memo *memo = w->use ? w->use->memo : NULL;
  if (!memo) return VXP_OK;
  size_t n = w->spans.len;
  if ((memo->pieces.len && array_last(&memo->pieces)->key >= key) || n > UINT32_MAX ||
      memo->spans.len > UINT32_MAX - n)
    return VXP_OK;
  if (!array_reserve(w->ctx, &memo->spans, n) || !array_reserve(w->ctx, &memo->pieces, 1))
    return VXP_ENOMEM;
  vxp_long_piece p = {w->start, w->end, key, (uint32_t)memo->spans.len, (uint32_t)n};
  memcpy(memo->spans.items + memo->spans.len, w->spans.items, n * sizeof(*w->spans.items));
  memo->spans.len += n;
  memo->pieces.items[memo->pieces.len++] = p;
  return VXP_OK;
}

/* Parse the piece made of the segments before, the statements [from, to) and the segments
 * after, `tokens` in all, and record its verdict in w->out (left VALID when it has no
 * error); not parsed when it holds the bytes of a valid piece of the earlier check
 * (kept_before). */
static int check_piece(walk *w, uint32_t from, uint32_t to, uint64_t tokens) {
  vxp_long_check *out = w->out;
  if (w->work + tokens > w->budget) {
    out->verdict = VXP_LONG_NESTED;
    out->at = from;
    return VXP_OK;
  }
  w->work += tokens;
  w->spans.len = 0;
  if (!array_reserve(w->ctx, &w->spans, w->before.len + w->after.len + 1)) return VXP_ENOMEM;
  for (size_t k = 0; k < w->before.len; k++) {
    vxp_long_span sp = {w->before.items[k].a, w->before.items[k].b};
    w->spans.items[w->spans.len++] = sp;
  }
  size_t run = w->spans.len;
  if (to > from) {
    vxp_long_span sp = {from, to};
    w->spans.items[w->spans.len++] = sp;
  }
  for (size_t k = w->after.len; k-- > 0;) {
    vxp_long_span sp = {w->after.items[k].a, w->after.items[k].b};
    w->spans.items[w->spans.len++] = sp;
  }
  bool kept = false;
  int krc = to > from ? kept_before(w, run, &kept) : VXP_OK;
  if (krc != VXP_OK) return krc;
  if (kept) {
    out->kept++;
    return memo_piece(w, from);
  }
  w->ranges.len = 0;
  if (!array_reserve(w->ctx, &w->ranges, w->spans.len)) return VXP_ENOMEM;
  for (size_t k = 0; k < w->spans.len; k++)
    w->ranges.items[w->ranges.len++] = ts_range(w->src, w->spans.items[k].a, w->spans.items[k].b);
  out->pieces++;
  vxp_context *ctx = w->ctx;
  if (!ts_parser_set_included_ranges(ctx->parser, w->ranges.items, (uint32_t)w->ranges.len)) {
    out->verdict = VXP_LONG_STOPPED;
    out->at = from;
    return VXP_OK;
  }
  TSTree *tree = NULL;
  int rc = vxp_syntax__parse_tree(ctx, w->src, NULL, w->end, &tree);
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
    if (w->diags) rc = vxp_syntax__diagnose(ctx, w->src, root, w->diags);
  } else if (to > from) {
    rc = memo_piece(w, from);
  }
  ts_tree_delete(tree);
  return rc;
}

static bool push_seg(walk *w, bool before, uint32_t a, uint32_t b) {
  if (b <= a) return true;
  seg s = {a, b};
  return before ? array_push(w->ctx, &w->before, s) : array_push(w->ctx, &w->after, s);
}

static int check_block(walk *w, size_t at, uint64_t fixed, unsigned depth);

/* The statement [start, end) of a block, `tokens` of its own (its long blocks' braces among
 * them), holds the long blocks w->kids[first..]: each is checked in its own pieces, whose
 * segments are the statement with the long blocks' insides left out (`for i in 0..2 {` before,
 * `}` after; `if c {` `} else {` before the else branch, with the then branch emptied). */
static int check_kids(walk *w, size_t first, uint32_t start, uint32_t end, uint64_t fixed,
                      uint64_t tokens, unsigned depth) {
  size_t n = w->kids.len - first;
  if (depth >= VXP_LONG_DEPTH_MAX) {
    w->out->verdict = VXP_LONG_NESTED;
    w->out->at = w->braces.items[w->kids.items[first]].open;
    return VXP_OK;
  }
  for (size_t j = 0; j < n; j++) {
    size_t before = w->before.len, after = w->after.len;
    uint32_t from = start;
    for (size_t q = 0; q <= j; q++) { /* the statement up to this block's `{` */
      const brace *b = &w->braces.items[w->kids.items[first + q]];
      if (!push_seg(w, true, from, b->open + 1)) return VXP_ENOMEM;
      from = b->close;
    }
    /* and from its `}` on, innermost last (pushed from the statement's end back) */
    for (size_t q = n; q-- > j;) {
      const brace *b = &w->braces.items[w->kids.items[first + q]];
      uint32_t until = q + 1 < n ? w->braces.items[w->kids.items[first + q + 1]].open + 1 : end;
      if (!push_seg(w, false, b->close, until)) return VXP_ENOMEM;
    }
    int rc = check_block(w, w->kids.items[first + j], fixed + tokens, depth + 1);
    w->before.len = before;
    w->after.len = after;
    if (rc != VXP_OK || w->out->verdict != VXP_LONG_VALID) return rc;
  }
  return VXP_OK;
}

/* A block being checked: its pieces so far end at `from`, its current statement starts at
 * `stmt`; `run` tokens since `from`, `own` of them the statement's (a long block it holds
 * counts its braces), whose long blocks are w->kids[kids..]. */
typedef struct block {
  uint32_t from, stmt;
  uint64_t run, own, fixed, theta;
  size_t kids;
  unsigned depth;
} block;

/* The statement of `b` ends at `end`: a statement holding long blocks is checked through them
 * (after the run before it), else the run is checked once it is long enough, or at the
 * block's end (`last`). */
static int statement_ends(walk *w, block *b, uint32_t end, bool last) {
  int rc = VXP_OK;
  if (w->kids.len > b->kids) {
    if (b->run > b->own) rc = check_piece(w, b->from, b->stmt, b->fixed + b->run - b->own);
    if (rc == VXP_OK && w->out->verdict == VXP_LONG_VALID)
      rc = check_kids(w, b->kids, b->stmt, end, b->fixed, b->own, b->depth);
    w->kids.len = b->kids;
    b->from = end;
    b->run = 0;
  } else if (b->run >= b->theta || (last && b->run > 0)) {
    rc = check_piece(w, b->from, end, b->fixed + b->run);
    b->from = end;
    b->run = 0;
  }
  b->stmt = end;
  b->own = 0;
  return rc;
}

/* Check the block whose `{` is w->braces.items[at] in runs of whole statements: each piece
 * is the segments of the blocks around it (`fixed` tokens), a run and their closing
 * segments. A statement holding a long block is checked through that block's own pieces. */
static int check_block(walk *w, size_t at, uint64_t fixed, unsigned depth) {
  const char *t = w->src->text;
  uint32_t open = w->braces.items[at].open, close = w->braces.items[at].close;
  bool list = t[open] != '{'; /* a list's runs are whole elements, split at its commas only */
  size_t k = at + 1;          /* the next kept bracket */
  block b = {open + 1, open + 1, 0, 0, fixed, 0, w->kids.len, depth};
  /* a run ends at a boundary past this many tokens: as many as the segments around it
   * (so that a piece's parse costs at most twice its run's) while that leaves room */
  uint64_t room = fixed < VXP_LONG_PIECE_MAX ? (VXP_LONG_PIECE_MAX - fixed) / 2 : 0;
  b.theta = fixed < room ? fixed : room;
  if (b.theta < VXP_LONG_PIECE_TOKENS) b.theta = VXP_LONG_PIECE_TOKENS;
  size_t depth_b = 1;
  bool closed_block = false;
  uint32_t s = open + 1;
  for (uint32_t i = open + 1;; i++) {
    if (i < close) {
      i = next_token(t, i, close, &s);
      if (s >= close) i = close;
    }
    int rc = VXP_OK;
    if (i >= close) /* the block's last statement ends at its `}` */
      rc = statement_ends(w, &b, close, true);
    else if (closed_block && statement_word(t, s, i)) /* the statement ends before the word */
      rc = statement_ends(w, &b, s, false);
    if (rc != VXP_OK || w->out->verdict != VXP_LONG_VALID || i >= close) return rc;
    char c = t[s];
    closed_block = false;
    b.run++;
    b.own++;
    bool boundary = false;
    if (i == s) {
      const brace *kept =
          k < w->braces.len && w->braces.items[k].open == s ? &w->braces.items[k] : NULL;
      if (kept && long_brace(kept, t)) {
        /* a long block or list: its inside is checked in its own pieces; skip to its close */
        if (!array_push(w->ctx, &w->kids, k)) return VXP_ENOMEM;
        i = kept->close;
        k = kept->next;
        b.run++;
        b.own++;
        closed_block = c == '{' && depth_b == 1 && !list;
      } else if (c == '(' || c == '[' || c == '{') {
        if (kept) k++; /* an unclosed `{` */
        depth_b++;
      } else if (c == ')' || c == ']' || c == '}') {
        if (depth_b > 1) depth_b--;
        closed_block = c == '}' && depth_b == 1 && !list;
      } else if ((c == ',' || (c == ';' && !list)) && depth_b == 1) {
        boundary = true; /* a statement's end, a field's in a struct or enum body, an element's */
      }
    }
    if (b.run + fixed > VXP_LONG_PIECE_MAX) {
      w->out->verdict = VXP_LONG_UNSPLIT;
      w->out->at = s;
      return VXP_OK;
    }
    if (boundary) {
      rc = statement_ends(w, &b, i + 1, false);
      if (rc != VXP_OK || w->out->verdict != VXP_LONG_VALID) return rc;
    }
  }
}

/* The long blocks and lists of the body [open, close] (a bracket closes the innermost open
 * one, whatever its kind, as the scan counts them), in text order, with where each closes, the
 * tokens inside and its commas: the body's own `{` first. */
static int read_braces(walk *w, uint32_t open, uint32_t close, uint64_t *tokens) {
  const char *t = w->src->text;
  Array(uint32_t) stack = {0}; /* open brackets, by index in w->braces */
  Array(uint64_t) count = {0}; /* the token count at each open bracket */
  uint64_t n = 0;
  uint32_t s, ws = 1, we = 0; /* the last token but comments, when a word: t[ws..we] */
  int rc = VXP_OK;
  for (uint32_t i = open; i <= close && rc == VXP_OK; i++) {
    i = next_token(t, i, close + 1, &s);
    if (s > close) break;
    n++;
    uint32_t ps = ws, pe = we; /* the word before this token, if any */
    if (!(t[s] == '/' && i > s && t[s + 1] == '/')) {
      bool word = vxp_source__word_byte((unsigned char)t[s]);
      ws = word ? s : 1;
      we = word ? i : 0;
    }
    if (i != s) continue;
    char c = t[s];
    if (c == '(' || c == '[' || c == '{') {
      brace b = {s, UINT32_MAX, 0, 0, 0, false};
      b.fixed = c == '(' && ps <= pe && fixed_word(t, ps, pe);
      if (w->braces.len >= UINT32_MAX || !array_push(w->ctx, &w->braces, b)) {
        rc = VXP_ENOMEM;
        break;
      }
      uint32_t idx = (uint32_t)(w->braces.len - 1);
      if (!array_push(w->ctx, &stack, idx) || !array_push(w->ctx, &count, n)) rc = VXP_ENOMEM;
    } else if (c == ',' && stack.len > 0) {
      w->braces.items[stack.items[stack.len - 1]].commas++;
    } else if ((c == ')' || c == ']' || c == '}') && stack.len > 0) {
      stack.len--;
      count.len--;
      uint32_t idx = stack.items[stack.len];
      brace *b = &w->braces.items[idx];
      uint64_t inside = n - count.items[count.len] - 1;
      b->close = s;
      b->tokens = inside > UINT32_MAX ? UINT32_MAX : (uint32_t)inside;
      b->next = (uint32_t)w->braces.len;
      /* A short bracket is read with its statement: only long ones (the body, and those that
       * hold one) are kept, so memory grows with the long brackets, not with every bracket.
       * One that holds none is the last (those inside went before it). */
      if (idx > 0 && !long_brace(b, t) && idx + 1 == w->braces.len) w->braces.len--;
    }
  }
  array_free(w->ctx, &stack);
  array_free(w->ctx, &count);
  *tokens = n;
  return rc;
}

/* A `const` item [start, end) (`const NAME : Type = EXPR ;`, its `;` the last byte, or
 * missing: a piece without it has a syntax error where it is missing): one
 * statement, checked through the long lists it holds (the sentinel w->braces.items[0] stands
 * for the item), as a statement of a block is: `const T : Tensor<i64, [N]> = [` before each
 * run of whole elements, `];` after. */
static int check_const(walk *w, uint32_t start, uint32_t end) {
  const char *t = w->src->text;
  vxp_long_check *out = w->out;
  uint32_t s;
  uint32_t e = next_token(t, start, end, &s);
  if (s >= end || e - s + 1 != 5 || memcmp(t + s, "const", 5) != 0) {
    out->verdict = VXP_LONG_NO_BODY;
    return VXP_OK;
  }
  brace item = {start, end - 1, 0, 0, 0, false};
  if (!array_push(w->ctx, &w->braces, item)) return VXP_ENOMEM;
  uint64_t tokens = 0;
  int rc = read_braces(w, start, end - 1, &tokens); /* the brackets up to the item's last byte */
  if (rc != VXP_OK) return rc;
  uint64_t own = tokens; /* the tokens outside the long lists (their brackets counted) */
  for (size_t k = 1; k < w->braces.len;) {
    const brace *b = &w->braces.items[k];
    if (b->close == UINT32_MAX) break; /* not at a `;` at depth 0: the scan ends none so */
    if (long_brace(b, t)) {
      if (!array_push(w->ctx, &w->kids, k)) return VXP_ENOMEM;
      own -= b->tokens;
      k = b->next;
    } else {
      k++;
    }
  }
  if (w->kids.len == 0 || own > VXP_LONG_PIECE_MAX) {
    out->verdict = VXP_LONG_UNSPLIT;
    return VXP_OK;
  }
  w->budget = 4 * tokens + 4 * (uint64_t)VXP_LONG_PIECE_MAX;
  return check_kids(w, 0, start, end, 0, own, 0);
}

/* A walk of the item [start, end) of `src`, its tables empty. */
static void walk_init(walk *w, vxp_context *ctx, const vxp_source *src, uint32_t start,
                      uint32_t end, const vxp_long_memo_use *use, vxp_long_check *out,
                      vxp_diag_list *diags) {
  memset(w, 0, sizeof(*w));
  w->ctx = ctx;
  w->src = src;
  w->start = start;
  w->end = end;
  w->use = use;
  w->out = out;
  w->diags = diags;
}

static void walk_free(walk *w) {
  array_free(w->ctx, &w->braces);
  array_free(w->ctx, &w->before);
  array_free(w->ctx, &w->after);
  array_free(w->ctx, &w->kids);
  array_free(w->ctx, &w->ranges);
  array_free(w->ctx, &w->spans);
  array_free(w->ctx, &w->moved);
}

int vxp_long_item__check(vxp_context *ctx, const vxp_source *src, uint32_t start, uint32_t end,
                         const vxp_long_memo_use *use, vxp_long_check *out, vxp_diag_list *diags) {
  const char *t = src->text;
  memset(out, 0, sizeof(*out));
  out->verdict = VXP_LONG_VALID;
  out->at = start;
  uint32_t ks, ke = next_token(t, start, end, &ks); /* a `const` ends with `;`, or lacks it */
  if (ks < end && ke - ks + 1 == 5 && memcmp(t + ks, "const", 5) == 0) {
    walk w;
    walk_init(&w, ctx, src, start, end, use, out, diags);
    int rc = check_const(&w, start, end);
    walk_free(&w);
    return rc;
  }
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
  walk w;
  walk_init(&w, ctx, src, start, end, use, out, diags);
  uint64_t tokens = 0;
  int rc = read_braces(&w, open, end - 1, &tokens);
  if (rc == VXP_OK && (w.braces.len == 0 || w.braces.items[0].close != end - 1)) {
    out->verdict = VXP_LONG_NO_BODY; /* the body's `{` is not closed by the item's last byte */
    rc = VXP_OK;
  } else if (rc == VXP_OK) {
    /* linear: a piece's segments cost at most its run's tokens but where blocks nest */
    w.budget = 4 * (tokens + head) + 4 * (uint64_t)VXP_LONG_PIECE_MAX;
    if (!push_seg(&w, true, start, open + 1) || !push_seg(&w, false, end - 1, end)) rc = VXP_ENOMEM;
    if (rc == VXP_OK) rc = check_block(&w, 0, head + 1, 0);
    if (rc == VXP_OK && out->verdict == VXP_LONG_VALID && out->pieces + out->kept == 0)
      rc = check_piece(&w, open + 1, end - 1, head + 1 + tokens);
  }
  walk_free(&w);
  return rc;
}
