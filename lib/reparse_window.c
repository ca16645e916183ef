/* SPDX-License-Identifier: Apache-2.0 */
/* reparse_window.c - a reparse that parses only the window of whole top-level items around
 * an edit (docs/design.md, section 9).
 *
 * tree-sitter's reparse of a whole tree grows with the number of top-level items, however
 * small the edit: the root's repetition is rebuilt every time (its nodes are fragile) and
 * every item is shifted through the parser again. A window of whole items, cut where the
 * parsable-length scan says a complete item ended and a blank or a line break follows
 * (vxp_program__window_start), parses alone to what the whole parse holds there: the whole
 * parse of a text is the parses of its windows one after the other (the property behind
 * VXP_PROGRAM_NO_TREE's windows, held by test_window and fuzz_window). So when the older
 * program parsed cleanly, the new text's window around the changed bytes is parsed alone,
 * and when it parses cleanly too, the new program is the older one's items before and after
 * it (their records, syntax findings and model moved past the edit) with the window's items
 * in between: the syntax checks are the window's, the lowering is a splice (lower.h) whose
 * touched functions are lowered from the window's nodes, and the declarations are read
 * again from the windows that hold them. Anything else (a syntax error, a changed signature,
 * const or declaration, items added or removed, a window too large) is left to the whole
 * tree's reparse, which gets the older whole tree edited to the new text. */
#include <string.h>

#include "context.h"
#include "lower.h"
#include "machine.h"
#include "program.h"
#include "reuse.h"
#include "source.h"

/* A window parsed alone: where it ends, its tree and top-level nodes. */
typedef struct window {
  uint32_t to;
  TSTree *tree;
  Array(TSNode) top;
} window;

/* Windows parsed around items outside the edit's window, in text order. */
typedef Array(window) window_list;

static void window_free(vxp_context *ctx, window *w) {
  if (w->tree) ts_tree_delete(w->tree);
  array_free(ctx, &w->top);
  memset(w, 0, sizeof(*w));
}

/* Parse [from, to) of `src` into `w`: VXP_OK, 1 when its tree has a syntax error (a window
 * with an error parses alone to other errors than the whole text: not for this path), or an
 * error code. */
static int window_parse(vxp_context *ctx, const vxp_source *src, uint32_t from, uint32_t to,
                        window *w) {
  memset(w, 0, sizeof(*w));
  w->to = to;
  int rc = vxp_program__parse_window(ctx, src, from, to, &w->tree);
  if (rc != VXP_OK) return rc;
  TSNode root = ts_tree_root_node(w->tree);
  if (ts_node_has_error(root) || ts_node_is_missing(root) ||
      ts_node_symbol(root) != ctx->syms.source_file)
    return 1;
  return vxp_program__top_nodes(ctx, root, &w->top);
}

/* The reparse in progress. */
typedef struct reparse {
  vxp_context *ctx;
  const vxp_program *old;
  const vxp_source *src;
  vxp_program *prog;
  uint32_t prefix, old_end, new_end; /* what the edits changed (vxp_source__steps_span) */
  uint32_t a, b, b_old;              /* the window: [a, b) of the new text, [a, b_old) of the old */
  uint32_t first, count;             /* the window's items: [first, first + count) in both */
  uint32_t limit;                    /* the most bytes parsed for the edit's window */
  window win;                        /* the new text's window */
} reparse;

/* The most bytes of windows a reparse parses before the whole tree's reparse is the cheaper:
 * a window is parsed afresh, at about ten times the cost per byte of an incremental reparse
 * of the items it holds. */
static uint32_t window_limit(size_t len) {
  size_t sixteenth = len / 16;
  return sixteenth > (64u << 10) ? (uint32_t)sixteenth : 64u << 10;
}

/* The first item of `items` starting at or after `at` (len when none). */
static size_t item_at_or_after(const vxp_top_items *items, uint32_t at) {
  size_t lo = 0, hi = items->len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (items->items[mid].start < at)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The window around the changed middle: from the last place at or before it where a window
 * may start in both texts (the text before it is the same, and so is the scan's state) to
 * the first place at or after it where a window may start in the new text and, moved back
 * past the edit, in the old one; the text's ends are such places. false when the window
 * would be larger than R->limit. */
static bool find_window(reparse *R) {
  const vxp_scan_marks *marks = &R->prog->scan_marks, *old_marks = &R->old->scan_marks;
  const vxp_source *old_src = R->old->src;
  R->a = 0;
  for (size_t i = vxp_scan_marks__first_at(marks, (uint64_t)R->prefix + 1); i-- > 0;) {
    const vxp_scan_mark *m = &marks->items[i];
    if (R->prefix - m->at > R->limit) return false;
    if (vxp_program__window_start(R->src, m) && vxp_program__window_start(old_src, m)) {
      R->a = m->at;
      break;
    }
  }
  uint32_t from = R->new_end > R->a ? R->new_end : R->a + 1;
  R->b = (uint32_t)R->src->len;
  R->b_old = (uint32_t)old_src->len;
  for (size_t i = vxp_scan_marks__first_at(marks, from); i < marks->len; i++) {
    const vxp_scan_mark *m = &marks->items[i];
    if (m->at - R->a > R->limit) return false;
    if (!vxp_program__window_start(R->src, m)) continue;
    uint32_t at_old = m->at - R->new_end + R->old_end;
    size_t k = vxp_scan_marks__first_at(old_marks, at_old);
    if (k == old_marks->len || old_marks->items[k].at != at_old ||
        !vxp_program__window_start(old_src, &old_marks->items[k]))
      continue;
    R->b = m->at;
    R->b_old = at_old;
    break;
  }
  return R->b > R->a && R->b - R->a <= R->limit;
}

/* The new program's item records: the older items before the window, the window's, and the
 * older items after it, moved. false when the older items do not end at the window's ends
 * or are not as many as the window's (items added or removed: not for this path). */
static int place_items(reparse *R) {
  const vxp_top_items *old = &R->old->items;
  size_t i0 = item_at_or_after(old, R->a), i1 = item_at_or_after(old, R->b_old);
  if ((i0 && old->items[i0 - 1].end > R->a) || (i1 && old->items[i1 - 1].end > R->b_old) ||
      i1 - i0 != R->win.top.len)
    return 1;
  R->first = (uint32_t)i0;
  R->count = (uint32_t)(i1 - i0);
  vxp_top_items *items = &R->prog->items;
  if (!array_reserve(R->ctx, items, old->len)) return VXP_ENOMEM;
  if (i0) memcpy(items->items, old->items, i0 * sizeof(*old->items));
  items->len = i0;
  int rc = vxp_program__top_items(R->ctx, R->win.top.items, R->win.top.len, items);
  if (rc != VXP_OK) return rc;
  uint32_t shift = R->b - R->b_old; /* modulo 2^32: moves either way */
  for (size_t k = i1; k < old->len; k++) {
    vxp_top_item it = old->items[k];
    it.start += shift;
    it.end += shift;
    if (it.body) it.body += shift;
    items->items[items->len++] = it;
  }
  return VXP_OK;
}

/* The syntax checks: the window's afresh, the older program's findings before and after it
 * (moved), each of the three groups in source order, as vxp_syntax__diagnose_span gives
 * them for the whole tree. 1 when an older finding straddles a window's end. */
static int diagnose(reparse *R) {
  vxp_context *ctx = R->ctx;
  const vxp_program *old = R->old;
  vxp_program *prog = R->prog;
  size_t total = old->syntax_counts[0] + old->syntax_counts[1] + old->syntax_counts[2];
  if (total > old->diags.len) return 1;
  for (size_t i = 0; i < total; i++) {
    const vxp_diagnostic *d = &old->diags.items[i];
    if (!d->has_range) return 1;
    uint32_t s = d->range.start_byte, e = d->range.end_byte;
    if ((s < R->a && e > R->a) || (s < R->b_old && e > R->b_old)) return 1;
  }
  vxp_diag_list fresh;
  memset(&fresh, 0, sizeof(fresh));
  size_t counts[3];
  uint32_t to = R->b == R->src->len ? UINT32_MAX : R->b;
  int rc = vxp_syntax__diagnose_span(ctx, R->src, ts_tree_root_node(R->win.tree), R->win.top.items,
                                     R->win.top.len, R->a, to, &fresh, counts);
  int64_t shift = (int64_t)R->b - (int64_t)R->b_old;
  size_t old_at = 0, fresh_at = 0;
  for (int g = 0; g < 3 && rc == VXP_OK; g++) {
    size_t before = prog->diags.len, k = 0;
    for (; k < old->syntax_counts[g] && rc == VXP_OK; k++) {
      const vxp_diagnostic *d = &old->diags.items[old_at + k];
      if (d->range.start_byte >= R->a) break;
      if (!vxp_program__copy_shifted(ctx, R->src, &prog->diags, d, 0)) rc = VXP_ENOMEM;
    }
    for (size_t j = 0; j < counts[g] && rc == VXP_OK; j++)
      if (!vxp_program__copy_shifted(ctx, R->src, &prog->diags, &fresh.items[fresh_at + j], 0))
        rc = VXP_ENOMEM;
    for (; k < old->syntax_counts[g] && rc == VXP_OK; k++) {
      const vxp_diagnostic *d = &old->diags.items[old_at + k];
      if (d->range.start_byte < R->b_old) continue;
      if (!vxp_program__copy_shifted(ctx, R->src, &prog->diags, d, shift)) rc = VXP_ENOMEM;
    }
    prog->syntax_counts[g] = prog->diags.len - before;
    old_at += old->syntax_counts[g];
    fresh_at += counts[g];
  }
  vxp_diag__list_free(ctx, &fresh);
  return rc;
}

/* The changed ranges: the window's items the changed middle touches (or that end right
 * before it: the lexer read the byte after them), and those whose syntax is not the older
 * item's at the same place, then the text the edits wrote. */
static int collect_changes(reparse *R, const vxp_top_nodes *old_nodes, const vxp_source_step *steps,
                           size_t step_count) {
  vxp_program *prog = R->prog;
  for (uint32_t k = 0; k < R->count; k++) {
    TSNode n = R->win.top.items[k], o;
    uint32_t start = ts_node_start_byte(n), end = ts_node_end_byte(n);
    bool same = (end < R->prefix || start >= R->new_end) &&
                vxp_top_nodes__get(old_nodes, R->first + k, &o) &&
                ts_node_symbol(n) == ts_node_symbol(o) &&
                end - start == ts_node_end_byte(o) - ts_node_start_byte(o) &&
                vxp_program__same_syntax(n, o);
    if (!same && !vxp_program__push_range(R->ctx, R->src, &prog->changed, start, end))
      return VXP_ENOMEM;
  }
  return vxp_program__finish_changes(prog, steps, step_count);
}

static bool is_declaration(const vxp_context *ctx, TSSymbol sym) {
  return sym == ctx->syms.memory_item || sym == ctx->syms.topology_item ||
         sym == ctx->syms.transfer_impl_item;
}

/* Whether the declarations of `old` (the new program's too: only function bodies may change
 * here) could be read again within R->limit bytes of windows: when they alone are larger,
 * the window path would parse and splice only to give up at read_declarations. */
static bool declarations_fit(const reparse *R) {
  uint64_t bytes = 0;
  for (size_t k = 0; k < R->old->items.len; k++) {
    const vxp_top_item *it = &R->old->items.items[k];
    if (is_declaration(R->ctx, it->sym)) bytes += it->end - it->start;
  }
  return bytes <= R->limit;
}

/* The last place at or before `at` where a window of the new text may start (0 when none),
 * and the first at or after `at` (the text's end when none). */
static uint32_t cut_before(const reparse *R, uint32_t at) {
  const vxp_scan_marks *marks = &R->prog->scan_marks;
  for (size_t i = vxp_scan_marks__first_at(marks, (uint64_t)at + 1); i-- > 0;)
    if (vxp_program__window_start(R->src, &marks->items[i])) return marks->items[i].at;
  return 0;
}

static uint32_t cut_after(const reparse *R, uint32_t at) {
  const vxp_scan_marks *marks = &R->prog->scan_marks;
  for (size_t i = vxp_scan_marks__first_at(marks, at); i < marks->len; i++)
    if (vxp_program__window_start(R->src, &marks->items[i])) return marks->items[i].at;
  return (uint32_t)R->src->len;
}

/* The node of item `k` (at R->prog->items[k]) among the top-level nodes of window `w`. */
static bool node_in(const reparse *R, const window *w, size_t k, TSNode *out) {
  const vxp_top_item *it = &R->prog->items.items[k];
  size_t at = vxp_syntax__first_node_at(w->top.items, w->top.len, it->start);
  if (at == w->top.len) return false;
  *out = w->top.items[at];
  return ts_node_start_byte(*out) == it->start && ts_node_end_byte(*out) == it->end &&
         ts_node_symbol(*out) == it->sym;
}

/* The node of item `k` from a window parsed around it: the last window of `around` when it
 * reaches past the item's start, else a new one (cut_before to cut_after), appended, whose
 * bytes count in `*parsed`. VXP_OK with *found, 1 when the windows would pass R->limit bytes,
 * or an error code. */
static int node_around(reparse *R, window_list *around, uint32_t *parsed, size_t k, TSNode *node,
                       bool *found) {
  const vxp_top_item *it = &R->prog->items.items[k];
  window *w = around->len ? array_last(around) : NULL;
  if (!w || it->start >= w->to) {
    uint32_t from = cut_before(R, it->start), to = cut_after(R, it->end);
    *parsed += to - from;
    if (to <= from || *parsed > R->limit) return 1;
    window next;
    int rc = window_parse(R->ctx, R->src, from, to, &next);
    if (rc == VXP_OK && !array_push(R->ctx, around, next)) rc = VXP_ENOMEM;
    if (rc != VXP_OK) {
      window_free(R->ctx, &next);
      return rc;
    }
    w = array_last(around);
  }
  *found = node_in(R, w, k, node);
  return VXP_OK;
}

/* The program's declarations (Memory, Topology and transfer lowering items), read again in
 * source order: those in the edit's window from its nodes, the others from windows parsed
 * around them (a program's declarations are few and usually together: one window). 1 when
 * those windows would be larger than R->limit. */
static int read_declarations(reparse *R) {
  vxp_context *ctx = R->ctx;
  const vxp_top_items *items = &R->prog->items;
  Array(TSNode) nodes = {0};
  window_list around = {0};
  uint32_t parsed = 0;
  int rc = VXP_OK;
  for (size_t k = 0; k < items->len && rc == VXP_OK; k++) {
    if (!is_declaration(ctx, items->items[k].sym)) continue;
    TSNode node;
    bool found;
    if (k >= R->first && k - R->first < R->count) {
      node = R->win.top.items[k - R->first];
      found = true;
    } else {
      rc = node_around(R, &around, &parsed, k, &node, &found);
      if (rc != VXP_OK) break;
    }
    if (!found)
      rc = 1;
    else if (!array_push(ctx, &nodes, node))
      rc = VXP_ENOMEM;
  }
  vxp_program *prog = R->prog;
  if (rc == VXP_OK) {
    prog->model.declarations = vxp_machine__new_in(ctx, &prog->arena, R->src->label);
    if (!prog->model.declarations) rc = VXP_ENOMEM;
  }
  if (rc == VXP_OK) prog->model.declarations->src = R->src;
  if (rc == VXP_OK && nodes.len) /* (no nodes would read the root's children instead) */
    rc = vxp_machine__read_items(ctx, prog->model.declarations, R->src,
                                 ts_tree_root_node(R->win.tree), nodes.items, nodes.len);
  for (size_t i = 0; i < around.len; i++)
    window_free(ctx, &around.items[i]);
  array_free(ctx, &around);
  array_free(ctx, &nodes);
  return rc;
}

#if defined(VXP_ASSERTIONS)
/* Whether the new program's item records are the whole tree's top-level nodes (compared
 * with a cursor: nothing allocated from the context, whose refusals belong to the calls). */
static bool items_are_the_whole_trees(const vxp_program *prog) {
  TSParser *parser = prog->ctx->parser;
  TSTree *tree = ts_parser_parse_string(parser, NULL, prog->src->text, (uint32_t)prog->src->len);
  if (!tree) { /* stopped by the caller's flag or budget: nothing to compare with */
    ts_parser_reset(parser);
    return true;
  }
  TSNode root = ts_tree_root_node(tree);
  bool same = ts_node_child_count(root) == prog->items.len;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  size_t i = 0;
  for (bool more = ts_tree_cursor_goto_first_child(&cursor); same && more;
       more = ts_tree_cursor_goto_next_sibling(&cursor), i++) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    const vxp_top_item *it = &prog->items.items[i];
    same = ts_node_start_byte(n) == it->start && ts_node_end_byte(n) == it->end &&
           ts_node_symbol(n) == it->sym && !ts_node_has_error(n);
  }
  ts_tree_cursor_delete(&cursor);
  ts_tree_delete(tree);
  return same;
}
#endif

/* The splice again, with the nodes of the items it lowers again (plan->again: the callers
 * of a function whose returned type changed) read from windows parsed around them, within
 * R->limit bytes in all. 1 when spliced, 0 when not, or an error code. */
static int splice_with_callers(reparse *R, const vxp_top_nodes *new_nodes) {
  vxp_context *ctx = R->ctx;
  vxp_program *prog = R->prog;
  const vxp_program *old = R->old;
  const uint8_t *again = prog->plan->again;
  window_list around = {0};
  Array(TSNode) nodes = {0};
  Array(uint32_t) at = {0};
  uint32_t parsed = 0;
  int rc = VXP_OK;
  for (uint32_t k = 0; k < prog->plan->items && rc == VXP_OK; k++) {
    if (!again[k]) continue;
    TSNode node;
    bool found = false;
    rc = node_around(R, &around, &parsed, k, &node, &found);
    if (rc != VXP_OK) break;
    if (!found)
      rc = 1;
    else if (!array_push(ctx, &nodes, node) || !array_push(ctx, &at, k))
      rc = VXP_ENOMEM;
  }
  vxp_top_nodes *more = NULL;
  if (rc == VXP_OK && nodes.len) {
    more = vxp_ctx__calloc(ctx, nodes.len, sizeof(*more));
    if (!more) rc = VXP_ENOMEM;
  }
  for (size_t i = 0; rc == VXP_OK && i < nodes.len; i++) {
    more[i].nodes = &nodes.items[i];
    more[i].first = at.items[i];
    more[i].count = 1;
  }
  int done = rc == VXP_OK ? vxp_lower__splice(ctx, R->src, new_nodes, more, nodes.len, prog->plan,
                                              &old->model, &old->marks, &old->diags, &prog->model,
                                              &prog->diags, &prog->marks)
                          : (rc == 1 ? 0 : rc);
  vxp_ctx__free(ctx, more);
  for (size_t i = 0; i < around.len; i++)
    window_free(ctx, &around.items[i]);
  array_free(ctx, &around);
  array_free(ctx, &nodes);
  array_free(ctx, &at);
  return done;
}

/* The steps after the window is found and parsed: VXP_OK, 1 (not for this path) or an
 * error code. */
static int build(reparse *R, const vxp_source_step *steps, size_t step_count) {
  vxp_context *ctx = R->ctx;
  const vxp_program *old = R->old;
  vxp_program *prog = R->prog;
  int rc = place_items(R);
  if (rc == VXP_OK) rc = diagnose(R);
  if (rc != VXP_OK) return rc;
  prog->diff[0] = R->prefix;
  prog->diff[1] = R->old_end;
  prog->diff[2] = R->new_end;
  prog->diff_src = old->src->id;
  vxp_reuse *plan = vxp_ctx__calloc(ctx, 1, sizeof(*plan));
  rc = plan ? vxp_program__plan_reuse(plan, ctx, old, prog) : VXP_ENOMEM;
  if (rc != 1) {
    vxp_ctx__free(ctx, plan);
    return rc == 0 ? 1 : rc;
  }
  rc = VXP_OK;
  prog->plan = plan; /* for the analyses (vxp_analyze_incremental) */
  prog->plan_base = old;
  prog->plan_base_src = old->src->id;
  /* The changed ranges compare an item of the window outside the changed middle with the
   * older item: the older program's node when it holds it, else its text's window parsed
   * alone too. */
  window old_win;
  memset(&old_win, 0, sizeof(old_win));
  vxp_top_nodes old_nodes = vxp_program__nodes(old);
  bool outside = false;
  for (uint32_t k = R->first; k < R->first + R->count; k++)
    outside = outside || plan->side[k] != VXP_REUSE_FRESH;
  if (outside &&
      (R->first < old_nodes.first || R->first + R->count > old_nodes.first + old_nodes.count)) {
    rc = window_parse(ctx, old->src, R->a, R->b_old, &old_win);
    if (rc == VXP_OK && old_win.top.len != R->count) rc = 1;
    vxp_top_nodes parsed = {old_win.top.items, R->first, (uint32_t)old_win.top.len};
    old_nodes = parsed;
  }
  if (rc == VXP_OK) rc = collect_changes(R, &old_nodes, steps, step_count);
  window_free(ctx, &old_win);
  if (rc != VXP_OK) return rc;
  vxp_top_nodes new_nodes = {R->win.top.items, R->first, R->count};
  prog->model.arena = &prog->arena; /* the names' strings go with the program */
  size_t before = prog->diags.len;
  int done = vxp_lower__splice(ctx, R->src, &new_nodes, NULL, 0, prog->plan, &old->model,
                               &old->marks, &old->diags, &prog->model, &prog->diags, &prog->marks);
  if (done == 0 && prog->plan->again_unread) {
    /* a changed signature whose callers are lowered again: their nodes from windows of their
     * own, then the splice once more */
    vxp_model__free(ctx, &prog->model);
    memset(&prog->model, 0, sizeof(prog->model));
    prog->model.arena = &prog->arena;
    vxp_lower__marks_free(ctx, &prog->marks);
    vxp_diag__truncate(ctx, &prog->diags, before);
    done = splice_with_callers(R, &new_nodes);
  }
  if (done != 1) return done == 0 ? 1 : done;
  prog->spliced = true;
  rc = read_declarations(R);
  if (rc != VXP_OK) return rc;
  vxp_machine__link_declarations(&prog->model);
  /* the whole tree of an earlier version, edited to this text, for a later reparse that
   * needs one */
  prog->edited_tree =
      vxp_program__edited_tree(old->tree ? old->tree : old->edited_tree, steps, step_count);
  prog->window_tree = R->win.tree;
  R->win.tree = NULL;
  /* the window's nodes: items [first, first + count) */
  prog->top.items = R->win.top.items;
  prog->top.len = R->win.top.len;
  prog->top.cap = R->win.top.cap;
  memset(&R->win.top, 0, sizeof(R->win.top));
  prog->top_first = R->first;
  prog->reused_tree = true;
  prog->scan_whole = true;
  return vxp_program__seal(prog);
}

int vxp_program__reparse_window(vxp_program **out, vxp_context *ctx, const vxp_program *old,
                                const vxp_source *src, const vxp_source_step *steps, size_t count) {
  /* The older program parsed cleanly and whole (no syntax error, no cut), kept its items,
   * their lowering marks and its functions' index, and a whole tree for the fallback. */
  if (!old->items.len || old->windows || !old->scan_whole || old->syntax_counts[2] ||
      old->marks.body.len != old->items.len + 1 || old->marks.sig.len != old->items.len + 1 ||
      !old->marks.vis_kept || (!old->tree && !old->edited_tree) || old->src->len > UINT32_MAX ||
      src->len > UINT32_MAX)
    return 1;
  reparse R;
  memset(&R, 0, sizeof(R));
  R.ctx = ctx;
  R.old = old;
  R.src = src;
  R.limit = window_limit(src->len);
  if (!declarations_fit(&R)) return 1;
  R.prog = vxp_program__new(ctx, src);
  if (!R.prog) return vxp_ctx__nomem(ctx);
  /* Where the texts differ, from the edits (comparing the texts would read both whole) */
  if (count)
    vxp_source__steps_span(steps, count, &R.prefix, &R.old_end, &R.new_end);
  else
    vxp_reuse__diff(old->src, src, &R.prefix, &R.old_end, &R.new_end);
  /* An edit inside an item longer than the limit (a long item) has no window: find_window
   * would say so after the scan, which then checks that item in pieces (long_items.h) once
   * more than build's. The older item ends around the edit tell it before: the text before
   * the edit is the same, so no window starts nearer before it; and one that ended nearer
   * after it would have to be made by the edit (which then takes build's path). */
  const vxp_scan_marks *om = &old->scan_marks;
  size_t k0 = vxp_scan_marks__first_at(om, (uint64_t)R.prefix + 1),
         k1 = vxp_scan_marks__first_at(om, R.old_end);
  uint64_t a = k0 ? om->items[k0 - 1].at : 0,
           b_old = k1 < om->len ? om->items[k1].at : old->src->len;
  if (b_old + R.new_end - R.old_end > a + R.limit) {
    vxp_program_free(R.prog);
    return 1;
  }
  vxp_syntax_cut why;
  uint32_t parsable;
  int rc = vxp_syntax__parsable_length_resumed(
      ctx, src, old->src, &old->scan_marks, &old->long_memo, R.prefix, R.old_end, R.new_end,
      &R.prog->scan_marks, &R.prog->long_memo, &parsable, &why);
  if (rc == VXP_OK && parsable < src->len) rc = 1; /* cut: VXP0003 */
  if (rc == VXP_OK && !find_window(&R)) rc = 1;
  if (rc == VXP_OK) rc = window_parse(ctx, src, R.a, R.b, &R.win);
  if (rc == VXP_OK) rc = build(&R, steps, count);
  window_free(ctx, &R.win);
  if (rc != VXP_OK) {
    vxp_program_free(R.prog);
    if (rc == 1) return 1;
    if (rc == VXP_ECANCELLED) return vxp_ctx__cancelled(ctx);
    return rc == VXP_ENOMEM ? vxp_ctx__nomem(ctx) : rc;
  }
  VXP__CHECK(vxp_check__program(R.prog));
  VXP__ASSERT(items_are_the_whole_trees(R.prog));
  *out = R.prog;
  return VXP_OK;
}
