/* SPDX-License-Identifier: Apache-2.0 */
/* syntax_scan.c - how much of a text is safe to hand to the parser (syntax.h's parse
 * limits): a scan of its tokens that stops where brackets nest too deep, an item runs too
 * long or stray text runs on, and checks a long item in pieces (long_items.h) before letting
 * it through; and VXP0003, saying which limit cut the text and where. Apart from syntax.c,
 * which it sits above: the long items' check parses pieces with syntax.c's parser entry. */
#include <stdio.h>
#include <string.h>

#include "syntax.h"

#include "array.h"
#include "context.h"
#include "long_items.h"
#include "source.h"
#include "symbols.h"

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

/* Whether the item at t[at..len) is a `const` (`const NAME : Type = EXPR ;`): the one item
 * ended by `;` that may be long (a generated table), checked in pieces like a braced one. */
static bool const_item(const char *t, size_t at, size_t len) {
  return len - at > 5 && memcmp(t + at, "const", 5) == 0 &&
         (t[at + 5] == ' ' || t[at + 5] == '\t' || t[at + 5] == '\n' || t[at + 5] == '\r');
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
 * had at the same text: the rest would repeat it, and reach the end. A long item is checked
 * with `use` (NULL: none), whose memo counts the pieces parsed and kept. Returns the
 * parsable length; sets *stopped to the index in `old` it stopped at (SIZE_MAX if none);
 * VXP_ENOMEM in *rc when a mark or a piece could not be appended. */
static uint32_t scan(vxp_context *ctx, const vxp_source *src, const char *t, size_t len,
                     size_t begin, const vxp_scan_mark *st, vxp_syntax_cut *why,
                     vxp_scan_marks *marks, const vxp_scan_marks *old, size_t resume_from,
                     int64_t shift, size_t *stopped, int *rc, vxp_long_fault *fault,
                     const vxp_long_memo_use *use) {
  size_t depth = 0;
  /* A braced item or a `const` past VXP_MAX_PENDING_TOKENS (`long_at`: where it passed them,
   * SIZE_MAX while none) is not cut when it is checked in pieces (long_items.h) with the context's
   * parser: it is scanned to its end and checked there. The check needs `src` and `ctx`. */
  bool check_long = ctx && src;
  size_t long_at = SIZE_MAX, item_start = 0;
  bool unended = false; /* the item is a `const` that reached the next item's line */
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
    } else if (vxp_source__word_byte(c)) {
      while (i + 1 < len && vxp_source__word_byte((unsigned char)t[i + 1]))
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
         * and a `;` in the head of a braced item is stray. A long `const` ends at its first
         * `;` at depth 0 (its expression holds none) and is checked there, so that a broken
         * one is never handed to the parser. */
        ends_item = window == WINDOW_ENDED && (angles == 0 || long_at != SIZE_MAX);
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
      int checked = vxp_long_item__check(ctx, src, (uint32_t)item_start, (uint32_t)(i + 1), use,
                                         &check, NULL);
      if (checked != VXP_OK) *rc = checked;
      if (use && use->memo) {
        use->memo->parsed += check.pieces;
        use->memo->kept += check.kept;
      }
      if (checked != VXP_OK || check.verdict != VXP_LONG_VALID)
        return long_cut(fault, why, item_start, VXP_SYNTAX_CUT_NONE, i + 1, &check);
      long_at = SIZE_MAX;
    }
    if (ends_item) {
      unended = false;
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
    /* A long `const` that reaches the next item's line (an item keyword and a blank in column
     * 0, at depth 0) lacks its `;`: checked up to that line, its pieces report the missing `;`
     * where it is, and the text is cut at its start. */
    bool semi_next = false;
    bool item_line = window == WINDOW_ENDED && depth == 0 && start > 0 && t[start - 1] == '\n' &&
                     vxp_source__word_byte(c) && i + 1 < len &&
                     (t[i + 1] == ' ' || t[i + 1] == '\t') &&
                     is_item_word(t + start, i + 1 - start, &semi_next);
    /* one that reached an item line while short is not made long: the parser sees its prefix
     * up to the pending limit, as before, and reports the missing `;` there */
    if (item_line && long_at == SIZE_MAX) unended = true;
    if (item_line && long_at != SIZE_MAX) {
      vxp_long_check check;
      int checked =
          vxp_long_item__check(ctx, src, (uint32_t)item_start, (uint32_t)start, use, &check, NULL);
      if (checked != VXP_OK) *rc = checked;
      return long_cut(fault, why, item_start, VXP_SYNTAX_CUT_NONE, start, &check);
    }
    /* A line that starts in column 0 with an item keyword and a blank is where the
     * grammar's scanner ends broken text (grammar/src/scanner.c): stray text stops there,
     * and the item that begins is counted as an item. */
    bool semi_item = false;
    if (window == WINDOW_UNKNOWN && (start == 0 || t[start - 1] == '\n') &&
        vxp_source__word_byte(c) && i + 1 < len &&
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
        window = depth == 0 && vxp_source__word_byte(c) &&
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
    if (over && check_long && !tainted && !outside && !unended &&
        (window == WINDOW_BRACED || (window == WINDOW_ENDED && const_item(t, item_start, len)))) {
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
              NULL, NULL);
}

int vxp_syntax__parsable_length_marked(vxp_context *ctx, const vxp_source *src,
                                       const vxp_source *old_src, const vxp_scan_marks *old,
                                       vxp_scan_marks *marks, uint32_t *out, vxp_syntax_cut *why) {
  return vxp_syntax__parsable_length_memo(ctx, src, old_src, old, NULL, marks, NULL, out, why);
}

int vxp_syntax__parsable_length_memo(vxp_context *ctx, const vxp_source *src,
                                     const vxp_source *old_src, const vxp_scan_marks *old,
                                     const vxp_long_memo *old_memo, vxp_scan_marks *marks,
                                     vxp_long_memo *memo, uint32_t *out, vxp_syntax_cut *why) {
  if (!old_src || !old || old_src->len > UINT32_MAX) {
    vxp_scan_mark initial;
    memset(&initial, 0, sizeof(initial));
    size_t stopped;
    int rc;
    vxp_long_memo_use use = {NULL, 0, 0, 0, memo};
    *out = scan(ctx, src, src->text, src->len, 0, &initial, why, marks, NULL, 0, 0, &stopped, &rc,
                NULL, &use);
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
  return vxp_syntax__parsable_length_resumed(ctx, src, old_src, old, old_memo, (uint32_t)p,
                                             (uint32_t)(la - tail), (uint32_t)(lb - tail), marks,
                                             memo, out, why);
}

/* Append to `memo` the pieces of `old` (from index `from` on) of the items in [lo, hi) of
 * the earlier text, moved by `shift`. */
static int memo_copy(vxp_context *ctx, vxp_long_memo *memo, const vxp_long_memo *old, size_t from,
                     uint64_t lo, uint64_t hi, int64_t shift) {
  for (size_t k = from; k < old->pieces.len; k++) {
    vxp_long_piece p = old->pieces.items[k];
    if (p.item_start < lo || p.item_end > hi) continue;
    if (p.first > old->spans.len || old->spans.len - p.first < p.count ||
        memo->spans.len > UINT32_MAX - p.count)
      continue;
    if (memo->pieces.len && array_last(&memo->pieces)->key >= (uint32_t)((int64_t)p.key + shift))
      continue;
    if (!array_reserve(ctx, &memo->spans, p.count) || !array_push(ctx, &memo->pieces, p))
      return VXP_ENOMEM;
    vxp_long_piece *q = array_last(&memo->pieces);
    q->item_start = (uint32_t)((int64_t)p.item_start + shift);
    q->item_end = (uint32_t)((int64_t)p.item_end + shift);
    q->key = (uint32_t)((int64_t)p.key + shift);
    q->first = (uint32_t)memo->spans.len;
    for (uint32_t j = 0; j < p.count; j++) {
      vxp_long_span sp = old->spans.items[p.first + j];
      sp.a = (uint32_t)((int64_t)sp.a + shift);
      sp.b = (uint32_t)((int64_t)sp.b + shift);
      memo->spans.items[memo->spans.len++] = sp;
    }
  }
  return VXP_OK;
}

int vxp_syntax__parsable_length_resumed(vxp_context *ctx, const vxp_source *src,
                                        const vxp_source *old_src, const vxp_scan_marks *old,
                                        const vxp_long_memo *old_memo, uint32_t prefix,
                                        uint32_t old_end, uint32_t new_end, vxp_scan_marks *marks,
                                        vxp_long_memo *memo, uint32_t *out, vxp_syntax_cut *why) {
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
  /* The long items before the resumed scan keep their pieces; it checks the ones it reads
   * with the earlier memo; the ones after where it stops keep theirs, moved. */
  if (memo && old_memo && (rc = memo_copy(ctx, memo, old_memo, 0, 0, from->at, 0)) != VXP_OK)
    return rc;
  vxp_long_memo_use use = {old_memo, (uint32_t)p, (uint32_t)(lb - tail), shift, memo};
  *out = scan(ctx, src, b, lb, from->at, from, why, marks, old, lb - tail, shift, &stopped, &rc,
              NULL, &use);
  if (rc != VXP_OK || stopped == SIZE_MAX) return rc;
  if (memo && old_memo &&
      (rc = memo_copy(ctx, memo, old_memo, 0, old->items[stopped].at, la, shift)) != VXP_OK)
    return rc;
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
  uint32_t again = scan(ctx, src, src->text, src->len, cut, &initial, &why, NULL, NULL, 0, 0,
                        &stopped, &rc, &f, NULL);
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
  } else if (!f.checked && const_item(src->text, cut, src->len)) {
    snprintf(what, sizeof(what), "%s does not end: no `;` ends it by the end of the text", item);
  } else if (!f.checked) {
    snprintf(what, sizeof(what), "%s does not end: its body is not closed by the end of the text",
             item);
  } else {
    vxp_long_check c;
    at = f.check.at;
    switch (f.check.verdict) {
    case VXP_LONG_SYNTAX:
      /* the cause first: the piece's syntax errors, where they are */
      rc = vxp_long_item__check(ctx, src, cut, (uint32_t)f.at, NULL, &c, diags);
      if (rc != VXP_OK) return rc;
      snprintf(what, sizeof(what),
               "%s has a syntax error; an item this long is parsed only when it is valid", item);
      break;
    case VXP_LONG_UNSPLIT:
      snprintf(what, sizeof(what),
               "a statement of more than %d tokens outside its blocks and lists in %s (each of "
               "its statements, less the long blocks and comma-separated lists it holds, must "
               "be shorter)",
               VXP_LONG_PIECE_MAX, item);
      break;
    case VXP_LONG_HEAD:
      snprintf(what, sizeof(what), "more than %d tokens before the body of %s", VXP_LONG_HEAD_MAX,
               item);
      break;
    case VXP_LONG_NO_BODY: snprintf(what, sizeof(what), "%s with no body in braces", item); break;
    case VXP_LONG_NESTED:
      snprintf(what, sizeof(what),
               "blocks or lists of more than %d tokens nested more than %d deep, or too many to "
               "check in pieces, in %s",
               VXP_LONG_PIECE_TOKENS, VXP_LONG_DEPTH_MAX, item);
      break;
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
