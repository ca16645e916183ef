/* SPDX-License-Identifier: Apache-2.0 */
/* program.c - parsing a source into a syntax tree and lowering it to the program model. */
#include "program.h"

#include <stdlib.h>

#include "context.h"
#include "lower.h"
#include "machine.h"
#include "reuse.h"
#include "source.h"

/* Append byte range [start, end) of `src` to `list`, with its points. */
bool vxp_program__push_range(vxp_context *ctx, const vxp_source *src, void *list, uint32_t start,
                             uint32_t end) {
  Array(vxp_range) *ranges = list;
  return array_push(ctx, ranges, vxp_source__range(src, start, end));
}

static int compare_ranges(const void *a, const void *b) {
  const vxp_range *x = a, *y = b;
  if (x->start_byte != y->start_byte) return x->start_byte < y->start_byte ? -1 : 1;
  return x->end_byte < y->end_byte ? -1 : x->end_byte > y->end_byte;
}

/* Whether the subtrees at `n` and `o` are the same syntax: the same kinds and fields over
 * the same extents (`o`'s moved by the difference of their starts), node for node. Together
 * with the same text this is the same parse. Walked with two cursors in step, so no depth
 * limits it. */
bool vxp_program__same_syntax(TSNode n, TSNode o) {
  int64_t shift = (int64_t)ts_node_start_byte(o) - (int64_t)ts_node_start_byte(n);
  TSTreeCursor a = ts_tree_cursor_new(n), b = ts_tree_cursor_new(o);
  bool same = true, walking = true;
  while (same && walking) {
    TSNode x = ts_tree_cursor_current_node(&a), y = ts_tree_cursor_current_node(&b);
    same = ts_node_symbol(x) == ts_node_symbol(y) &&
           ts_tree_cursor_current_field_id(&a) == ts_tree_cursor_current_field_id(&b) &&
           ts_node_is_missing(x) == ts_node_is_missing(y) &&
           (int64_t)ts_node_start_byte(x) + shift == (int64_t)ts_node_start_byte(y) &&
           (int64_t)ts_node_end_byte(x) + shift == (int64_t)ts_node_end_byte(y);
    if (!same) break;
    bool down = ts_tree_cursor_goto_first_child(&a);
    same = down == ts_tree_cursor_goto_first_child(&b);
    while (same && !down) { /* a leaf: the next sibling, here or above */
      bool next = ts_tree_cursor_goto_next_sibling(&a);
      same = next == ts_tree_cursor_goto_next_sibling(&b);
      if (!same || next) break;
      bool up = ts_tree_cursor_goto_parent(&a);
      same = up == ts_tree_cursor_goto_parent(&b);
      if (!up) walking = false; /* back at `n`: every node compared */
      if (!up) break;
    }
  }
  ts_tree_cursor_delete(&a);
  ts_tree_cursor_delete(&b);
  return same;
}

/* Whether top-level node `n` of a reparsed tree is node `o` of the older tree unchanged, the
 * caller having matched their places in the text both share. When tree-sitter reused the
 * item's subtree the new tree holds the older tree's very subtree, and a node's id is the
 * address of its slot among its parent's children, so the two items' first children have one
 * id (a subtree built anew has children of its own, at addresses the older tree, still alive,
 * cannot be holding): that is checked first, in constant time. An item built anew over the
 * same text (tree-sitter rebuilds the item after an edit that ends at its start, its extent
 * depending on the column) is compared node by node (same_syntax). A leaf (a comment between
 * items) is a token: the same kind over the same text, the byte after it unchanged too (the
 * caller's margin: the lexer read it to end the token), is the same token. */
static bool same_top_node(TSNode n, const void *n_key, TSNode o, const void *o_key) {
  if (ts_node_symbol(n) != ts_node_symbol(o) || ts_node_has_error(n) != ts_node_has_error(o) ||
      ts_node_end_byte(n) - ts_node_start_byte(n) != ts_node_end_byte(o) - ts_node_start_byte(o))
    return false;
  if ((n_key == NULL) != (o_key == NULL)) return false;
  return n_key == NULL || n_key == o_key || vxp_program__same_syntax(n, o);
}

/* same_top_node's key of a top-level node: its first child's id, NULL for a leaf. */
static const void *top_key(TSNode n) {
  return ts_node_child_count(n) ? ts_node_child(n, 0).id : NULL;
}

/* The older program's top-level nodes, in its coordinates, for the changed ranges: its own
 * when it kept all of them, else read from its whole tree into `read`, or from the whole tree
 * of an earlier version edited to its text (`edited_tree`, after a reparse that parsed only a
 * window: an item of that tree the edits did not touch is the older program's item, one they
 * touched compares as changed), or none. Sets *keys to the older keys when it kept them. */
static int older_top(const vxp_program *old, void *read, const TSNode **nodes, size_t *count,
                     const void *const **keys) {
  Array(TSNode) *list = read;
  *nodes = NULL;
  *count = 0;
  *keys = NULL;
  if (old->tree && old->top_first == 0 && old->top.len && old->top.len == old->items.len) {
    *nodes = old->top.items;
    *count = old->top.len;
    if (old->top_keys.len == old->top.len) *keys = old->top_keys.items;
    return VXP_OK;
  }
  const TSTree *whole = old->tree ? old->tree : old->edited_tree;
  if (!whole) return VXP_OK;
  int rc = vxp_program__top_nodes(old->ctx, ts_tree_root_node(whole), list);
  *nodes = list->items;
  *count = list->len;
  return rc;
}

/* The changed ranges of a reparse: the extent of every top-level node of the new tree that
 * is not an unchanged node of the older tree (same_top_node, looked up where the unchanged
 * text puts it: the texts are compared from both ends, vxp_reuse__diff), together with the
 * text the edits wrote (vxp_program__finish_changes). tree-sitter's own
 * ts_tree_get_changed_ranges compared the two trees node by node and took 7.7 M of the 50 M
 * instructions of bench_incremental's edit: the root's repetition is rebuilt on every
 * reparse (its nodes are fragile, so only the items are reused), and it walked all of it.
 * prog->top must be read. */
static int collect_changes(vxp_program *prog, const vxp_program *old, const vxp_source_step *steps,
                           size_t step_count) {
  vxp_context *ctx = prog->ctx;
  const vxp_source *src = prog->src;
  Array(TSNode) read = {0};
  const TSNode *before;
  size_t before_n;
  const void *const *before_keys;
  int rc = older_top(old, &read, &before, &before_n, &before_keys);
  if (rc != VXP_OK) {
    array_free(ctx, &read);
    return rc;
  }
  uint32_t prefix = 0, kept_old = 0, kept_new = 0; /* the unchanged text's ends */
  if (old->src->len <= UINT32_MAX && src->len <= UINT32_MAX) {
    vxp_reuse__diff(old->src, src, &prefix, &kept_old, &kept_new);
    prog->diff[0] = prefix;
    prog->diff[1] = kept_old;
    prog->diff[2] = kept_new;
    prog->diff_src = old->src->id;
  }
  bool ok = !prog->top.len || array_reserve(ctx, &prog->top_keys, prog->top.len);
  size_t at = 0; /* the first older node not yet passed */
  for (size_t i = 0; ok && i < prog->top.len; i++) {
    TSNode n = prog->top.items[i];
    const void *key = top_key(n);
    prog->top_keys.items[prog->top_keys.len++] = key;
    uint32_t start = ts_node_start_byte(n), end = ts_node_end_byte(n), want;
    bool same = false;
    if (end < prefix || start >= kept_new) {
      want = end < prefix ? start : start - kept_new + kept_old;
      while (at < before_n && ts_node_start_byte(before[at]) < want)
        at++;
      same = at < before_n && ts_node_start_byte(before[at]) == want &&
             same_top_node(n, key, before[at], before_keys ? before_keys[at] : top_key(before[at]));
    }
    if (!same) ok = vxp_program__push_range(ctx, src, &prog->changed, start, end);
  }
  array_free(ctx, &read);
  if (!ok) return VXP_ENOMEM;
  return vxp_program__finish_changes(prog, steps, step_count);
}

int vxp_program__finish_changes(vxp_program *prog, const vxp_source_step *steps,
                                size_t step_count) {
  vxp_context *ctx = prog->ctx;
  const vxp_source *src = prog->src;
  bool ok = true;
  for (size_t i = 0; ok && i < step_count; i++) {
    uint64_t start = steps[i].start_byte, end = steps[i].new_end_byte;
    for (size_t k = i + 1; k < step_count; k++) { /* carry through the later edits */
      const vxp_source_step *st = &steps[k];
      if (end < st->start_byte) continue;
      if (start > st->old_end_byte) {
        start = start - st->old_end_byte + st->new_end_byte;
        end = end - st->old_end_byte + st->new_end_byte;
        continue;
      }
      /* overlapping: the union of what is left of the range and the new text */
      uint64_t new_end =
          end > st->old_end_byte ? end - st->old_end_byte + st->new_end_byte : st->new_end_byte;
      if (st->start_byte < start) start = st->start_byte;
      end = new_end;
    }
    if (end > src->len) end = src->len;
    if (start > end) start = end;
    ok = vxp_program__push_range(ctx, src, &prog->changed, (uint32_t)start, (uint32_t)end);
  }
  if (!ok) return VXP_ENOMEM;
  vxp_range *r = prog->changed.items;
  if (prog->changed.len > 1) qsort(r, prog->changed.len, sizeof(*r), compare_ranges);
  size_t kept = 0;
  for (size_t i = 0; i < prog->changed.len; i++) {
    if (kept && r[i].start_byte <= r[kept - 1].end_byte) {
      if (r[i].end_byte > r[kept - 1].end_byte) {
        r[kept - 1].end_byte = r[i].end_byte;
        r[kept - 1].end = r[i].end;
      }
      continue;
    }
    r[kept++] = r[i];
  }
  prog->changed.len = kept;
  return VXP_OK;
}

/* Whether offset `at` of `src` cuts a word in two. */
static bool splits_word(const vxp_source *src, uint32_t at) {
  return at > 0 && at < src->len && vxp_source__word_byte((unsigned char)src->text[at - 1]) &&
         vxp_source__word_byte((unsigned char)src->text[at]);
}

/* Copy `d` (of the older program) for `src`, its ranges moved by `shift` bytes. */
bool vxp_program__copy_shifted(vxp_context *ctx, const vxp_source *src, vxp_diag_list *list,
                               const vxp_diagnostic *d, int64_t shift) {
  if (!vxp_diag__copy(ctx, list, d)) return false;
  vxp_diagnostic *c = array_last(list);
  if (c->has_range) {
    c->source = src;
    c->range = vxp_source__range(src, (uint32_t)((int64_t)d->range.start_byte + shift),
                                 (uint32_t)((int64_t)d->range.end_byte + shift));
  }
  for (size_t i = 0; i < c->notes.len; i++) {
    vxp_diagnostic *n = &c->notes.items[i];
    if (!n->has_range) continue;
    n->source = src;
    n->range = vxp_source__range(src, (uint32_t)((int64_t)n->range.start_byte + shift),
                                 (uint32_t)((int64_t)n->range.end_byte + shift));
  }
  return true;
}

/* The syntax checks of a reparse, at the granularity of top-level items: those of the
 * items the changes touch (with one neighbour on each side, whose messages may read the
 * text next to them) are made afresh, and the others' diagnostics are those of the older
 * program, moved past the edits. The result is what vxp_syntax__diagnose gives on the whole
 * tree, in the same order. Returns 1 when done, 0 when the shape of the change asks for the
 * whole check (then nothing was appended), or a negative error. */
static int diagnose_items(vxp_program *prog, const vxp_program *old, TSNode root) {
  vxp_context *ctx = prog->ctx;
  const vxp_source *src = prog->src;
  if (!old || old->src->len > UINT32_MAX || prog->changed.len == 0 || vxp_node__is_error(root) ||
      ts_node_is_missing(root))
    return 0;
  uint32_t c0 = prog->changed.items[0].start_byte;
  uint32_t c1 = prog->changed.items[prog->changed.len - 1].end_byte;
  uint32_t n = ts_node_child_count(root);
  if (n == 0) return 0;
  /* The items' extents (prog->top: ts_node_child(root, i) walks from the first child each
   * time, which made this quadratic in the number of items). */
  uint32_t *ends = vxp_ctx__calloc(ctx, (size_t)n * 2, sizeof(uint32_t));
  if (!ends) return VXP_ENOMEM;
  if (prog->top.len < n) n = (uint32_t)prog->top.len;
  for (uint32_t i = 0; i < n; i++) {
    ends[2 * i] = ts_node_start_byte(prog->top.items[i]);
    ends[2 * i + 1] = ts_node_end_byte(prog->top.items[i]);
  }
  uint32_t first = n, last = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (ends[2 * i + 1] < c0 || ends[2 * i] > c1) continue;
    if (first == n) first = i;
    last = i;
  }
  if (n > 0 && first == n) { /* between items: the nearest ones */
    first = 0;
    while (first + 1 < n && ends[2 * first + 1] < c0)
      first++;
    last = first;
  }
  if (n == 0) {
    vxp_ctx__free(ctx, ends);
    return 0;
  }
  first = first > 0 ? first - 1 : 0;
  last = last + 1 < n ? last + 1 : n - 1;
  uint32_t from = first == 0 ? 0 : ends[2 * first];
  uint32_t to = last == n - 1 ? (uint32_t)src->len : ends[2 * last + 1];
  /* A stray item keyword in front of an item on its line (`struct fn f() {`) is in no node
   * and reported at the keyword, before the item's start: the span starts at that line's
   * start so that the fresh check's report of it replaces the older one (found by
   * test_incremental: it was reported twice), unless the item before ends on that line. */
  uint32_t line_start = from;
  while (line_start > 0 && src->text[line_start - 1] != '\n')
    line_start--;
  bool previous_on_line = first > 0 && ends[2 * (first - 1) + 1] > line_start;
  vxp_ctx__free(ctx, ends);
  if (previous_on_line) return 0;
  from = line_start;
  if (from > c0) from = c0;
  if (to < c1) to = c1;
  if (to > src->len) to = (uint32_t)src->len;
  int64_t shift = (int64_t)src->len - (int64_t)old->src->len;
  int64_t old_to = (int64_t)to - shift; /* the text from here on is the new text from `to` */
  if (old_to < from || old_to > (int64_t)old->src->len || splits_word(src, from) ||
      splits_word(src, to))
    return 0;
  /* An old diagnostic that straddles an end of the span, or sits empty on one (a MISSING
   * node could belong to either side), cannot be assigned to a side. */
  size_t total = old->syntax_counts[0] + old->syntax_counts[1] + old->syntax_counts[2];
  if (total > old->diags.len) return 0;
  for (size_t i = 0; i < total; i++) {
    const vxp_range *r = &old->diags.items[i].range;
    if (!old->diags.items[i].has_range) return 0;
    int64_t a = r->start_byte, b = r->end_byte;
    if ((a < from && b > from) || (a < old_to && b > old_to) ||
        (a == b && (a == from || a == old_to)))
      return 0;
  }
  vxp_diag_list fresh;
  memset(&fresh, 0, sizeof(fresh));
  size_t counts[3];
  int rc = vxp_syntax__diagnose_span(ctx, src, root, prog->top.items, prog->top.len, from, to,
                                     &fresh, counts);
  size_t old_at = 0, fresh_at = 0;
  for (int g = 0; g < 3 && rc == VXP_OK; g++) {
    size_t k = 0;
    for (; k < old->syntax_counts[g] && rc == VXP_OK; k++) { /* before the span */
      const vxp_diagnostic *d = &old->diags.items[old_at + k];
      if (d->range.start_byte >= from) break;
      if (!vxp_program__copy_shifted(ctx, src, &prog->diags, d, 0)) rc = VXP_ENOMEM;
    }
    for (size_t j = 0; j < counts[g] && rc == VXP_OK; j++) /* the span, afresh */
      if (!vxp_program__copy_shifted(ctx, src, &prog->diags, &fresh.items[fresh_at + j], 0))
        rc = VXP_ENOMEM;
    for (; k < old->syntax_counts[g] && rc == VXP_OK; k++) { /* after it, moved */
      const vxp_diagnostic *d = &old->diags.items[old_at + k];
      if ((int64_t)d->range.start_byte < old_to) continue;
      if (!vxp_program__copy_shifted(ctx, src, &prog->diags, d, shift)) rc = VXP_ENOMEM;
    }
    old_at += old->syntax_counts[g];
    fresh_at += counts[g];
  }
  vxp_diag__list_free(ctx, &fresh);
  if (rc != VXP_OK) return rc;
  /* the groups' sizes, counted back from what was appended */
  size_t i = 0;
  old_at = 0;
  fresh_at = 0;
  for (int g = 0; g < 3; g++) {
    size_t m = 0;
    for (size_t k = 0; k < old->syntax_counts[g]; k++) {
      uint32_t a = old->diags.items[old_at + k].range.start_byte;
      m += a < from || (int64_t)a >= old_to;
    }
    prog->syntax_counts[g] = m + counts[g];
    i += prog->syntax_counts[g];
    old_at += old->syntax_counts[g];
  }
  return i == prog->diags.len ? 1 : VXP_ERROR;
}

/* prog->top: the root's children, with one cursor pass, and prog->items: what the next
 * reparse reads of them. */
static int read_top(vxp_program *prog, TSNode root) {
  int rc = vxp_program__top_nodes(prog->ctx, root, &prog->top);
  if (rc == VXP_OK)
    rc = vxp_program__top_items(prog->ctx, prog->top.items, prog->top.len, &prog->items);
  return rc;
}

int vxp_program__top_items(vxp_context *ctx, const TSNode *nodes, size_t count,
                           vxp_top_items *items) {
  if (count && !array_reserve(ctx, items, count)) return VXP_ENOMEM;
  for (size_t i = 0; i < count; i++) {
    vxp_top_item *it = &items->items[items->len++];
    it->start = ts_node_start_byte(nodes[i]);
    it->end = ts_node_end_byte(nodes[i]);
    it->sym = ts_node_symbol(nodes[i]);
    it->has_error = ts_node_has_error(nodes[i]);
    it->body = 0;
    if (it->sym == ctx->syms.function_item) {
      TSNode body = ts_node_child_by_field_id(nodes[i], ctx->fields.body);
      if (!ts_node_is_null(body)) it->body = ts_node_start_byte(body);
    }
  }
  return VXP_OK;
}

int vxp_program__top_nodes(vxp_context *ctx, TSNode root, void *out) {
  Array(TSNode) *top = out;
  uint32_t n = ts_node_child_count(root);
  if (n && !array_reserve(ctx, top, n)) return VXP_ENOMEM;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (bool more = ts_tree_cursor_goto_first_child(&cursor); more && top->len < n;
       more = ts_tree_cursor_goto_next_sibling(&cursor))
    top->items[top->len++] = ts_tree_cursor_current_node(&cursor);
  ts_tree_cursor_delete(&cursor);
  return VXP_OK;
}

/* Lower the program's tree into its model: the items a reparse did not touch are copied from
 * `old` (when not NULL) where vxp_lower__splice can show the result is a full lowering's,
 * and the whole tree is lowered otherwise. */
static int lower(vxp_program *prog, const vxp_program *old, TSNode root, bool keep_marks) {
  vxp_context *ctx = prog->ctx;
  prog->model.arena = &prog->arena; /* the names' strings go with the program */
  if (old && old->marks.body.len) {
    vxp_reuse *R = vxp_ctx__calloc(ctx, 1, sizeof(*R));
    if (!R) return VXP_ENOMEM;
    int planned = vxp_program__plan_reuse(R, ctx, old, prog);
    if (planned <= 0) vxp_ctx__free(ctx, R);
    if (planned < 0) return planned;
    if (planned) {
      prog->plan = R; /* for the analyses (vxp_analyze_incremental) */
      prog->plan_base = old;
      prog->plan_base_src = old->src->id;
      size_t before = prog->diags.len;
      vxp_top_nodes nodes = vxp_program__nodes(prog);
      int done = vxp_lower__splice(ctx, prog->src, &nodes, NULL, 0, R, &old->model, &old->marks,
                                   &old->diags, &prog->model, &prog->diags, &prog->marks);
      if (done == 1) {
        prog->spliced = true;
        return VXP_OK;
      }
      vxp_model__free(ctx, &prog->model);
      vxp_machine_free(prog->model.declarations);
      memset(&prog->model, 0, sizeof(prog->model));
      prog->model.arena = &prog->arena;
      vxp_lower__marks_free(ctx, &prog->marks);
      vxp_diag__truncate(ctx, &prog->diags, before);
      if (done < 0) return done;
    }
  }
  return vxp_lower__program(ctx, prog->src, root, &prog->model, &prog->diags,
                            keep_marks ? &prog->marks : NULL);
}

/* Every table of the program: the model's (one list, vxp_model__each_table), the lowering's
 * marks, the top-level nodes, the scan's marks, the changed ranges, and a reparse's plan (its
 * sides and per-item flags, then the plan itself, which points at them). */
static void program_tables(vxp_program *prog, vxp_table_fn fn, void *data) {
  vxp_model__each_table(&prog->model, fn, data);
#define PROGRAM_TABLE(a) fn(data, (void **)&(a).items, (a).len, sizeof(*(a).items), &(a).cap)
  PROGRAM_TABLE(prog->marks.sig);
  PROGRAM_TABLE(prog->marks.body);
  PROGRAM_TABLE(prog->marks.signatures);
  PROGRAM_TABLE(prog->marks.vis.fns);
  PROGRAM_TABLE(prog->marks.vis.params);
  PROGRAM_TABLE(prog->top);
  PROGRAM_TABLE(prog->items);
  PROGRAM_TABLE(prog->top_keys);
  PROGRAM_TABLE(prog->scan_marks);
  PROGRAM_TABLE(prog->long_memo.pieces);
  PROGRAM_TABLE(prog->long_memo.spans);
  PROGRAM_TABLE(prog->changed);
#undef PROGRAM_TABLE
  if (prog->plan) {
    fn(data, (void **)&prog->plan->side, prog->plan->items, 1, NULL);
    if (prog->plan->changed_sig)
      fn(data, (void **)&prog->plan->changed_sig, prog->plan->items, 1, NULL);
    if (prog->plan->again) fn(data, (void **)&prog->plan->again, prog->plan->items, 1, NULL);
    fn(data, (void **)&prog->plan, 1, sizeof(*prog->plan), NULL);
  }
}

/* A walk over program_tables: sealing moves each table into the arena in turn and counts
 * them (`done`), so that freeing a program whose sealing stopped part-way gives back only
 * the tables it did not move (`at` counts the walk). */
typedef struct table_walk {
  vxp_context *ctx;
  vxp_arena *arena;
  size_t at, done;
  bool failed;
} table_walk;

static void seal_table(void *data, void **items, size_t len, size_t elem, size_t *cap) {
  table_walk *W = data;
  if (W->failed) return;
  if (!vxp_arena__adopt(W->ctx, W->arena, items, len, elem)) {
    W->failed = true;
    return;
  }
  if (cap) *cap = len; /* nothing sealed grows again */
  W->done++;
}

static void free_table(void *data, void **items, size_t len, size_t elem, size_t *cap) {
  (void)len, (void)elem;
  table_walk *W = data;
  if (W->at++ >= W->done) vxp_ctx__free(W->ctx, *items);
  *items = NULL;
  if (cap) *cap = 0;
}

/* Move the finished program into its arena: every table (program_tables; vxp_arena__adopt
 * copies a small one into a shared block at its length and takes a large one over where it
 * lies, so no table is held twice and the peak memory stays that of the tables as they grew:
 * copying every table in, the large ones included, once raised the hostile functions-1e5
 * case's peak by 14 MB), the name table's pool, the diagnostics, and its declarations
 * machine's. VXP_OK or VXP_ENOMEM. */
int vxp_program__seal(vxp_program *prog) {
  vxp_context *ctx = prog->ctx;
  table_walk W = {ctx, &prog->arena, 0, 0, false};
  program_tables(prog, seal_table, &W);
  prog->tables_sealed = W.done;
  if (W.failed) return VXP_ENOMEM;
  vxp_arena__take(&prog->arena, &prog->model.names.own); /* empty: the names use ours */
  prog->sealed = true;
  vxp_diag_list diags = {0};
  if (!vxp_diag__list_to_arena(ctx, &prog->arena, &diags, &prog->diags)) return VXP_ENOMEM;
  vxp_diag__list_free(ctx, &prog->diags);
  prog->diags = diags;
  prog->diags_sealed = true;
  vxp_machine *decl = prog->model.declarations;
  if (decl) {
    if (!decl->diags_sealed) {
      vxp_diag_list own = {0};
      if (!vxp_diag__list_to_arena(ctx, decl->arena, &own, &decl->diags)) return VXP_ENOMEM;
      vxp_diag__list_free(ctx, &decl->diags);
      decl->diags = own;
      decl->diags_sealed = true;
    }
    prog->declarations_sealed = true; /* the machine is the program's arena's */
  }
  return VXP_OK;
}

/* What a program of `src` will hold in its arena (its first block's size, arena.h): about six
 * times its text (the examples' programs: 5 to 7 times, the Llama prefill's 74 KB of 12 KB). */
static size_t program_bytes(const vxp_source *src) {
  return src->len < SIZE_MAX / 6 ? (size_t)src->len * 6 : SIZE_MAX;
}

vxp_program *vxp_program__new(vxp_context *ctx, const vxp_source *src) {
  vxp_program *prog = VXP_ARENA_HANDLE_SIZED(ctx, vxp_program, arena, program_bytes(src));
  if (!prog) return NULL;
  prog->tag = VXP_TAG_PROGRAM;
  prog->ctx = ctx;
  prog->src = src;
  return prog;
}

/* Parse `src` (reusing `old_tree`, already edited by `steps` to match it, when not NULL),
 * then diagnose and lower. Takes ownership of `old_tree`. A reparse (`old` not NULL), or a
 * program made for editing, keeps what a later reparse reuses. */
static int build(vxp_program **out, vxp_context *ctx, const vxp_source *src, TSTree *old_tree,
                 const vxp_program *old, const vxp_source_step *steps, size_t step_count,
                 bool for_editing) {
  bool keep = old != NULL || for_editing;
  vxp_program *prog = vxp_program__new(ctx, src);
  if (!prog) {
    if (old_tree) ts_tree_delete(old_tree);
    return vxp_ctx__nomem(ctx);
  }
  vxp_syntax_cut why;
  uint32_t parsable;
  if (keep) { /* keep the scan's states for the next reparse, resume from the older's */
    bool resume = old && old->scan_whole;
    int scanned = vxp_syntax__parsable_length_memo(
        ctx, src, resume ? old->src : NULL, resume ? &old->scan_marks : NULL,
        resume ? &old->long_memo : NULL, &prog->scan_marks, &prog->long_memo, &parsable, &why);
    if (scanned != VXP_OK) {
      if (old_tree) ts_tree_delete(old_tree);
      vxp_program_free(prog);
      return vxp_ctx__nomem(ctx);
    }
    prog->scan_whole = parsable == src->len;
  } else {
    parsable = vxp_syntax__parsable_length(ctx, src, &why);
  }
  if (old_tree && parsable < src->len) { /* a cut text is parsed afresh */
    ts_tree_delete(old_tree);
    old_tree = NULL;
  }
  int rc = vxp_syntax__parse_tree(ctx, src, old_tree, parsable, &prog->tree);
  if (rc == VXP_OK && old_tree && ts_node_has_error(ts_tree_root_node(prog->tree))) {
    /* Error recovery over reused subtrees can end in another tree than a fresh parse's
     * (found by test_incremental: a text whose incremental tree split a broken Memory
     * declaration differently), and a reparse promises the fresh parse's program: a tree
     * with errors is parsed again from scratch. */
    ts_tree_delete(prog->tree);
    prog->tree = NULL;
    ts_tree_delete(old_tree);
    old_tree = NULL;
    rc = vxp_syntax__parse_tree(ctx, src, NULL, parsable, &prog->tree);
  }
  if (rc != VXP_OK) {
    if (old_tree) ts_tree_delete(old_tree);
    vxp_program_free(prog);
    return rc;
  }
  TSNode root = ts_tree_root_node(prog->tree);
  /* Only a reparse, or a program parsed for editing (VXP_PROGRAM_FOR_EDITING), keeps what a
   * later reparse reuses (the top-level nodes and their records, the lowering's item marks):
   * a program parsed once (the command line) does not pay their memory. */
  if (keep) rc = read_top(prog, root);
  if (old_tree) {
    prog->reused_tree = true;
    if (rc == VXP_OK) rc = collect_changes(prog, old, steps, step_count);
    ts_tree_delete(old_tree);
  } else if (rc == VXP_OK &&
             !vxp_program__push_range(ctx, src, &prog->changed, 0, (uint32_t)src->len)) {
    rc = VXP_ENOMEM;
  }
  int reused = 0;
  if (rc == VXP_OK && prog->reused_tree && parsable == src->len) {
    reused = diagnose_items(prog, old, root);
    if (reused < 0) rc = reused == VXP_ERROR ? VXP_ERROR : VXP_ENOMEM;
  }
  if (rc == VXP_OK && reused == 0)
    rc = vxp_syntax__diagnose_span(ctx, src, root, prog->top.len ? prog->top.items : NULL,
                                   prog->top.len, 0, UINT32_MAX, &prog->diags, prog->syntax_counts);
  if (rc == VXP_OK && parsable < src->len)
    rc = vxp_syntax__report_cut(ctx, src, parsable, why, &prog->diags);
  if (rc == VXP_OK)
    rc = lower(prog, prog->reused_tree && parsable == src->len ? old : NULL, root, keep);
  if (rc == VXP_OK) {
    prog->model.declarations = vxp_machine__new_in(ctx, &prog->arena, src->label);
    if (!prog->model.declarations) rc = VXP_ENOMEM;
  }
  if (rc == VXP_OK) {
    prog->model.declarations->src = src;
    rc = vxp_machine__read_items(ctx, prog->model.declarations, src, root,
                                 prog->top.len ? prog->top.items : NULL, prog->top.len);
  }
  if (rc == VXP_OK) vxp_machine__link_declarations(&prog->model);
  if (rc == VXP_OK) rc = vxp_program__seal(prog);
  if (rc != VXP_OK) {
    vxp_program_free(prog);
    if (rc == VXP_ECANCELLED) return vxp_ctx__cancelled(ctx);
    return rc == VXP_ENOMEM ? vxp_ctx__nomem(ctx) : vxp_ctx__error(ctx, rc, "lowering failed");
  }
  VXP__CHECK(vxp_check__program(prog));
  *out = prog;
  return VXP_OK;
}

/* Move the diagnostics of `from` to the end of `to` (their texts change owner); `from` is
 * left empty. false when out of memory (then nothing moved). */
static bool move_diags(vxp_context *ctx, vxp_diag_list *to, vxp_diag_list *from) {
  if (from->len && !array_reserve(ctx, to, from->len)) return false;
  if (from->len) memcpy(to->items + to->len, from->items, from->len * sizeof(*from->items));
  to->len += from->len;
  array_free(ctx, from);
  return true;
}

/* Parse the window [a, b) of `src` alone (tree-sitter's included ranges: the nodes keep
 * their offsets in the whole text). */
int vxp_program__parse_window(vxp_context *ctx, const vxp_source *src, uint32_t a, uint32_t b,
                              TSTree **out) {
  vxp_range r = vxp_source__range(src, a, b);
  TSRange range = {{r.start.line, r.start.column}, {r.end.line, r.end.column}, a, b};
  if (!ts_parser_set_included_ranges(ctx->parser, &range, 1))
    return vxp_ctx__error(ctx, VXP_ERROR, "%s: cannot parse a window of the text", src->label);
  int rc = vxp_syntax__parse_tree(ctx, src, NULL, b, out);
  ts_parser_set_included_ranges(ctx->parser, NULL, 0); /* the whole text again */
  return rc;
}

/* Whether the scan's state at `m` lets a window start there: a complete item ended, outside
 * any stray text, and a blank or a line break follows (so no token spans the boundary; at a
 * line break the grammar's scanner starts the next item with an _item_start, as it does in
 * the whole text). */
bool vxp_program__window_start(const vxp_source *src, const vxp_scan_mark *m) {
  if (m->at == 0 || m->at >= src->len || m->tainted || m->stray || m->stray_run || m->recovered ||
      m->macro || m->pending)
    return false;
  const char *t = src->text + m->at;
  return t[0] == '\n' || t[0] == ' ' || t[0] == '\t' ||
         (t[0] == '\r' && m->at + 1 < src->len && t[1] == '\n');
}

/* Where the windows of `src` begin, and its length last (at least three entries: two windows
 * or more); returns 1, with nothing in `cuts`, when the text is not parsed in windows (short,
 * cut, or no item boundary to start a window at). The same text on the same context gives
 * the same windows, so vxp_program_write_sexp finds build_windowed's again. */
int vxp_program__window_cuts(vxp_context *ctx, const vxp_source *src, vxp_window_cuts *cuts) {
  uint32_t window = ctx->parse_window ? ctx->parse_window : VXP_PARSE_WINDOW;
  memset(cuts, 0, sizeof(*cuts));
  if (src->len <= window) return 1;
  vxp_scan_marks marks;
  memset(&marks, 0, sizeof(marks));
  uint32_t parsable;
  vxp_syntax_cut why;
  int rc = vxp_syntax__parsable_length_marked(ctx, src, NULL, NULL, &marks, &parsable, &why);
  if (rc == VXP_OK && parsable == src->len) {
    uint32_t last = 0;
    if (!array_push(ctx, cuts, 0)) rc = VXP_ENOMEM;
    for (size_t i = 0; rc == VXP_OK && i < marks.len; i++) {
      if (marks.items[i].at - last < window || !vxp_program__window_start(src, &marks.items[i]))
        continue;
      last = marks.items[i].at;
      if (!array_push(ctx, cuts, last)) rc = VXP_ENOMEM;
    }
    if (rc == VXP_OK && !array_push(ctx, cuts, (uint32_t)src->len)) rc = VXP_ENOMEM;
  }
  array_free(ctx, &marks);
  if (rc != VXP_OK || cuts->len < 3) {
    array_free(ctx, cuts);
    return rc == VXP_OK ? 1 : vxp_ctx__nomem(ctx);
  }
  return VXP_OK;
}

/* The program of `src` parsed in windows (VXP_PARSE_WINDOW): each window is parsed twice, once
 * for the signatures pass of lowering and once for the syntax checks, the items pass and the
 * declarations, and its tree is freed at once. A window whose tree has a syntax error is
 * diagnosed and lowered from that tree as a whole tree with errors is (its error recovery
 * stops at the window's ends); prog->error_windows counts them. Sets *out and returns
 * VXP_OK; returns 1 when the text is not to be parsed in windows (short, cut, or no item
 * boundary to start a window at), with nothing made; or an error code. */
static int build_windowed(vxp_program **out, vxp_context *ctx, const vxp_source *src) {
  vxp_window_cuts cuts;
  int rc = vxp_program__window_cuts(ctx, src, &cuts);
  if (rc != VXP_OK) return rc;
  vxp_program *prog = vxp_program__new(ctx, src);
  vxp_lower_run *W = NULL;
  vxp_machine_reader *reader = NULL;
  vxp_diag_list groups[3], lowered;
  memset(groups, 0, sizeof(groups));
  memset(&lowered, 0, sizeof(lowered));
  if (!prog) rc = VXP_ENOMEM;
  if (rc == VXP_OK) {
    prog->model.arena = &prog->arena; /* the names' strings go with the program */
    rc = vxp_lower__begin(&W, ctx, src, &prog->model, &lowered);
  }
  for (int pass = 0; pass < 2 && rc == VXP_OK; pass++) {
    if (pass == 1) {
      prog->model.declarations = vxp_machine__new_in(ctx, &prog->arena, src->label);
      if (prog->model.declarations) prog->model.declarations->src = src;
      reader = prog->model.declarations
                   ? vxp_machine__reader_new(ctx, prog->model.declarations, src)
                   : NULL;
      if (!reader) rc = VXP_ENOMEM;
    }
    for (size_t k = 0; k + 1 < cuts.len && rc == VXP_OK; k++) {
      TSTree *tree = NULL;
      uint32_t a = cuts.items[k], b = cuts.items[k + 1];
      rc = vxp_program__parse_window(ctx, src, a, b, &tree);
      if (rc != VXP_OK) break;
      TSNode root = ts_tree_root_node(tree);
      if (pass == 0) {
        rc = vxp_lower__window_signatures(W, root);
      } else {
        if (ts_node_has_error(root) || ts_node_is_missing(root)) {
          if (prog->error_windows++ == 0) prog->errors_from = a;
          prog->errors_to = b;
        }
        vxp_diag_list found;
        memset(&found, 0, sizeof(found));
        size_t counts[3];
        rc = vxp_syntax__diagnose_span(ctx, src, root, NULL, 0, a,
                                       k + 2 == cuts.len ? UINT32_MAX : b, &found, counts);
        /* the three groups, each kept in source order across the windows */
        for (size_t g = 0; rc == VXP_OK && g < 3; g++)
          if (counts[g] && !array_reserve(ctx, &groups[g], counts[g])) rc = VXP_ENOMEM;
        if (rc == VXP_OK) {
          for (size_t g = 0, at = 0; g < 3; at += counts[g], g++) {
            if (counts[g])
              memcpy(groups[g].items + groups[g].len, found.items + at,
                     counts[g] * sizeof(*found.items));
            groups[g].len += counts[g];
          }
          found.len = 0; /* moved: their texts are the groups' now */
        }
        vxp_diag__list_free(ctx, &found);
        if (rc == VXP_OK) rc = vxp_lower__window_bodies(W, root);
        if (rc == VXP_OK) rc = vxp_machine__reader_read(reader, root);
      }
      ts_tree_delete(tree);
    }
  }
  size_t cuts_count = cuts.len;
  int lowering = vxp_lower__end(W);
  if (rc == VXP_OK) rc = lowering;
  vxp_machine__reader_free(reader);
  array_free(ctx, &cuts);
  for (int g = 0; g < 3 && rc == VXP_OK; g++) {
    prog->syntax_counts[g] = groups[g].len;
    if (!move_diags(ctx, &prog->diags, &groups[g])) rc = VXP_ENOMEM;
  }
  if (rc == VXP_OK && !move_diags(ctx, &prog->diags, &lowered)) rc = VXP_ENOMEM;
  if (rc == VXP_OK && !vxp_program__push_range(ctx, src, &prog->changed, 0, (uint32_t)src->len))
    rc = VXP_ENOMEM;
  for (int g = 0; g < 3; g++)
    vxp_diag__list_free(ctx, &groups[g]);
  vxp_diag__list_free(ctx, &lowered);
  if (rc != VXP_OK) {
    vxp_program_free(prog);
    if (rc == VXP_ECANCELLED) return vxp_ctx__cancelled(ctx);
    return rc == VXP_ENOMEM ? vxp_ctx__nomem(ctx) : rc;
  }
  prog->windows = (uint32_t)(cuts_count - 1);
  vxp_machine__link_declarations(&prog->model);
  if (vxp_program__seal(prog) != VXP_OK) {
    vxp_program_free(prog);
    return vxp_ctx__nomem(ctx);
  }
  VXP__CHECK(vxp_check__program(prog));
  *out = prog;
  return VXP_OK;
}

int vxp_program_parse(vxp_program **out, vxp_context *ctx, const vxp_source *src) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, src, VXP_TAG_SOURCE);

  return vxp_program_parse_flags(out, ctx, src, 0);
}

int vxp_program_parse_flags(vxp_program **out, vxp_context *ctx, const vxp_source *src,
                            unsigned int flags) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, src, VXP_TAG_SOURCE);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  unsigned int known = VXP_PROGRAM_NO_TREE | VXP_PROGRAM_KEEP_WHOLE_TREE | VXP_PROGRAM_FOR_EDITING;
  if (!out || !ctx || !src || (flags & ~known) ||
      ((flags & VXP_PROGRAM_FOR_EDITING) && (flags & VXP_PROGRAM_NO_TREE)))
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_program_parse")
               : VXP_EINVAL;
  if (flags & VXP_PROGRAM_NO_TREE) {
    int windowed = build_windowed(out, ctx, src);
    if (windowed != 1) return windowed;
  }
  int rc = build(out, ctx, src, NULL, NULL, NULL, 0, (flags & VXP_PROGRAM_FOR_EDITING) != 0);
  if (rc == VXP_OK && (flags & VXP_PROGRAM_NO_TREE) && !(flags & VXP_PROGRAM_KEEP_WHOLE_TREE)) {
    /* Nothing after lowering reads the tree but the S-expression, a reparse and CUDA
     * generation (docs/design.md, section 1): freeing it here means the tree and an
     * analysis never take memory at the same time. */
    ts_tree_delete((*out)->tree);
    (*out)->tree = NULL;
  }
  return rc;
}

/* The edits that lead from `from` to `to`: the index in to->history of the first step
 * taken from `from`, to->history.len when they are the same version, or -1 when `to` does
 * not descend from `from` within its remembered history. */
static long edits_between(const vxp_source *from, const vxp_source *to) {
  if (from->ctx != to->ctx) return -1; /* ids are unique within one context only */
  if (from->id == to->id) return (long)to->history.len;
  for (size_t i = to->history.len; i-- > 0;) {
    if (to->history.items[i].from_id == from->id) return (long)i;
  }
  return -1;
}

TSTree *vxp_program__edited_tree(const TSTree *whole, const vxp_source_step *steps, size_t count) {
  /* The tree is shared, not modified: edit a copy (tree-sitter copies are cheap,
   * reference-counted, and an edit clones only the nodes on its path), so that the program
   * holding it stays valid and usable from other threads. */
  TSTree *tree = ts_tree_copy(whole);
  for (size_t i = 0; i < count; i++) {
    const vxp_source_step *st = &steps[i];
    TSInputEdit edit;
    edit.start_byte = st->start_byte;
    edit.old_end_byte = st->old_end_byte;
    edit.new_end_byte = st->new_end_byte;
    edit.start_point.row = st->start_point.line;
    edit.start_point.column = st->start_point.column;
    edit.old_end_point.row = st->old_end_point.line;
    edit.old_end_point.column = st->old_end_point.column;
    edit.new_end_point.row = st->new_end_point.line;
    edit.new_end_point.column = st->new_end_point.column;
    ts_tree_edit(tree, &edit);
  }
  return tree;
}

int vxp_program_reparse(vxp_program **out, vxp_context *ctx, const vxp_program *prog,
                        const vxp_source *src) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, prog, VXP_TAG_PROGRAM);
  VXP__TAG_RC(ctx, src, VXP_TAG_SOURCE);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (!out || !ctx || !prog || !src)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_program_reparse")
               : VXP_EINVAL;
  long first = edits_between(prog->src, src);
  const TSTree *whole = prog->tree ? prog->tree : prog->edited_tree;
  /* (a program made by a reparse is an editor's: it keeps what the next one reuses) */
  /* A tree parsed only up to a cut (VXP0003: parsable < the text's length) ends there, and
   * tree-sitter 0.20, given it as the older tree, reuses its end of input wherever the edits
   * lie past it: the new tree would stop at the old cut and lose every item after it (the
   * "long item lost" of an edit that mends a long item). Such a text is parsed afresh. */
  if (first < 0 || !whole || ts_node_end_byte(ts_tree_root_node(whole)) < prog->src->len)
    return build(out, ctx, src, NULL, NULL, NULL, 0, true);
  /* No pointer arithmetic on a NULL history (a reparse of the same source): clang's UBSan
   * reports NULL + 0. */
  size_t count = src->history.len - (size_t)first;
  const vxp_source_step *steps = count ? src->history.items + first : NULL;
  /* Only the window of whole items around the edit, when the edit allows it (docs/design.md,
   * section 9); else the whole tree, re-read where the edits touched it. */
  int windowed = vxp_program__reparse_window(out, ctx, prog, src, steps, count);
  if (windowed != 1) return windowed;
  return build(out, ctx, src, vxp_program__edited_tree(whole, steps, count), prog, steps, count,
               true);
}

void vxp_program_free(vxp_program *prog) {
  VXP__TAG(prog, VXP_TAG_PROGRAM, );

  if (!prog) return;
  prog->tag = VXP_TAG_FREED;
  vxp_context *ctx = prog->ctx;
  if (prog->tree) ts_tree_delete(prog->tree); /* tree-sitter's own allocations */
  if (prog->window_tree) ts_tree_delete(prog->window_tree);
  if (prog->edited_tree) ts_tree_delete(prog->edited_tree);
  vxp_ctx__free(ctx, prog->sexp);
  if (!prog->diags_sealed) vxp_diag__list_free(ctx, &prog->diags);
  if (!prog->declarations_sealed) vxp_machine_free(prog->model.declarations);
  prog->model.declarations = NULL;
  if (!prog->sealed) { /* a program that failed before it was sealed, or while */
    table_walk W = {ctx, NULL, 0, prog->tables_sealed, false};
    program_tables(prog, free_table, &W);
    vxp_strtab__free(ctx, &prog->model.names); /* its own pool, if it has one */
  }
  vxp_arena__free_handle(ctx, &prog->arena);
}

int vxp_program_reused_tree(const vxp_program *prog) {
  VXP__TAG(prog, VXP_TAG_PROGRAM, 0);
  return prog ? prog->reused_tree : 0;
}

size_t vxp_program_changed_range_count(const vxp_program *prog) {
  VXP__TAG(prog, VXP_TAG_PROGRAM, 0);

  return prog ? prog->changed.len : 0;
}

vxp_range vxp_program_changed_range(const vxp_program *prog, size_t i) {
  VXP__TAG(prog, VXP_TAG_PROGRAM, (vxp_range){0});

  vxp_range none;
  memset(&none, 0, sizeof(none));
  return (prog && i < prog->changed.len) ? prog->changed.items[i] : none;
}

const vxp_source *vxp_program_source(const vxp_program *prog) {
  VXP__TAG(prog, VXP_TAG_PROGRAM, NULL);
  return prog ? prog->src : NULL;
}

size_t vxp_program_diagnostic_count(const vxp_program *prog) {
  VXP__TAG(prog, VXP_TAG_PROGRAM, 0);
  return prog ? prog->diags.len : 0;
}

const vxp_diagnostic *vxp_program_diagnostic(const vxp_program *prog, size_t i) {
  VXP__TAG(prog, VXP_TAG_PROGRAM, NULL);

  return (prog && i < prog->diags.len) ? &prog->diags.items[i] : NULL;
}

/* The whole tree of a program a reparse made from the window around an edit (it keeps only
 * that window's tree): its text parsed again, whole, owned by the caller. */
static int parse_again(const vxp_program *prog, TSTree **out) {
  return vxp_syntax__parse_tree(prog->ctx, prog->src, NULL, (uint32_t)prog->src->len, out);
}

const char *vxp_program_sexp(vxp_program *prog) {
  VXP__TAG(prog, VXP_TAG_PROGRAM, NULL);

  /* Each call reports its own outcome; a cached tree is only read (see vxp_analysis_json). */
  if (prog && prog->sexp)
    vxp_ctx__begin_read(prog->ctx);
  else
    vxp_ctx__begin(prog ? prog->ctx : NULL);
  if (!prog) return NULL;
  if (!prog->sexp && !prog->tree && !prog->window_tree) {
    vxp_ctx__error(prog->ctx, VXP_EINVAL,
                   "the program keeps no syntax tree (parsed with VXP_PROGRAM_NO_TREE)");
    return NULL;
  }
  if (!prog->sexp) {
    TSTree *again = NULL;
    if (!prog->tree && parse_again(prog, &again) != VXP_OK) return NULL;
    prog->sexp = vxp_sexp__render(prog->ctx, ts_tree_root_node(again ? again : prog->tree));
    if (again) ts_tree_delete(again);
    if (!prog->sexp) vxp_ctx__nomem(prog->ctx);
  }
  return prog->sexp;
}

int vxp_program_write_sexp(const vxp_program *prog, vxp_write_fn write, void *arg) {
  VXP__TAG_RC(NULL, prog, VXP_TAG_PROGRAM);

  vxp_ctx__begin(prog ? prog->ctx : NULL);
  if (!prog || !write)
    return prog
               ? vxp_ctx__error(prog->ctx, VXP_EINVAL, "invalid argument to vxp_program_write_sexp")
               : VXP_EINVAL;
  vxp_context *ctx = prog->ctx;
  if (!prog->tree && !prog->windows && !prog->window_tree)
    return vxp_ctx__error(ctx, VXP_EINVAL,
                          "the program keeps no syntax tree (parsed with VXP_PROGRAM_NO_TREE, "
                          "and not in windows)");
  vxp_sexp_out o;
  vxp_sexp__out_init(&o, ctx, write, arg);
  if (prog->tree || prog->window_tree) {
    TSTree *again = NULL;
    int parsed = prog->tree ? VXP_OK : parse_again(prog, &again);
    if (parsed == VXP_OK) vxp_sexp__tree(&o, ts_tree_root_node(again ? again : prog->tree), false);
    if (again) ts_tree_delete(again);
    int written = vxp_sexp__out_finish(&o);
    return parsed != VXP_OK ? parsed : written;
  }
  /* Parsed in windows, each tree freed: each window is parsed again, written and freed, so
   * that no more than one window's tree lives. The whole tree's text is the root's opening,
   * every window's children in order, and its closing. A window with a syntax error is its
   * own tree as parsed alone: its root's children, or its root itself when that is an ERROR
   * node (a text that error recovery could not make a source file of). */
  vxp_window_cuts cuts;
  int rc = vxp_program__window_cuts(ctx, prog->src, &cuts);
  if (rc == 1 || (rc == VXP_OK && cuts.len - 1 != prog->windows))
    rc = vxp_ctx__error(ctx, VXP_ERROR, "%s: the text's windows are not found again",
                        prog->src->label);
  for (size_t k = 0; rc == VXP_OK && k + 1 < cuts.len; k++) {
    TSTree *tree = NULL;
    rc = vxp_program__parse_window(ctx, prog->src, cuts.items[k], cuts.items[k + 1], &tree);
    if (rc != VXP_OK) break;
    TSNode root = ts_tree_root_node(tree);
    if (k == 0) {
      vxp_sexp__put(&o, "(");
      vxp_sexp__put(&o, ts_language_symbol_name(ctx->language, ctx->syms.source_file));
    }
    if (ts_node_symbol(root) == ctx->syms.source_file) {
      vxp_sexp__tree(&o, root, true);
    } else { /* an ERROR root: written as a child */
      vxp_sexp__put(&o, " ");
      vxp_sexp__tree(&o, root, false);
    }
    ts_tree_delete(tree);
    if (o.sb.failed) break;
  }
  if (rc == VXP_OK) vxp_sexp__put(&o, ")");
  array_free(ctx, &cuts);
  int written = vxp_sexp__out_finish(&o);
  return rc != VXP_OK ? rc : written;
}

int vxp_program_declares_machine(const vxp_program *prog) {
  VXP__TAG(prog, VXP_TAG_PROGRAM, 0);

  if (!prog || !prog->model.declarations) return 0;
  const vxp_machine *m = prog->model.declarations;
  if (m->topologies.len) return 1;
  for (size_t i = 0; i < m->spaces.len; i++)
    if (m->spaces.items[i].has_capacity) return 1;
  return 0;
}

/* ------------------------------------------------------------------ reuse plan */

/* Whether the last line of the item [start, end) of `text` starts with `}`: a `// role:`
 * comment inside the item then cannot name the role of a placement below it (roles.h: a
 * line that closes a block ends the comment's paragraph), so the item's text decides
 * nothing outside it. */
static bool closes_on_its_own_line(const char *text, uint32_t start, uint32_t end) {
  if (end <= start) return false;
  uint32_t at = end - 1;
  while (at > start && text[at - 1] != '\n')
    at--;
  while (at < end && (text[at] == ' ' || text[at] == '\t'))
    at++;
  return at < end && text[at] == '}';
}

/* Whether [start, end) of `text` holds a comment opener. */
static bool has_comment(const char *text, uint32_t start, uint32_t end) {
  for (uint32_t at = start; at + 1 < end; at++)
    if (text[at] == '/' && (text[at + 1] == '/' || text[at + 1] == '*')) return true;
  return false;
}

int vxp_program__plan_reuse(vxp_reuse *R, vxp_context *ctx, const vxp_program *old,
                            const vxp_program *prog) {
  memset(R, 0, sizeof(*R));
  if (!old || old->ctx != ctx) return 0;
  R->old_src = old->src;
  R->new_src = prog->src;
  if (R->old_src->len > UINT32_MAX || R->new_src->len > UINT32_MAX) return 0;
  if (prog->diff_src && prog->diff_src == old->src->id) { /* the reparse compared them */
    R->prefix = prog->diff[0];
    R->old_end = prog->diff[1];
    R->new_end = prog->diff[2];
  } else {
    vxp_reuse__diff(R->old_src, R->new_src, &R->prefix, &R->old_end, &R->new_end);
  }
  const vxp_top_item *old_items = old->items.items, *new_items = prog->items.items;
  uint32_t new_n = (uint32_t)prog->items.len;
  bool ok = old->items.len == prog->items.len && new_n > 0;
  int rc = VXP_OK;
  if (ok) {
    R->items = new_n;
    R->side = vxp_ctx__calloc(ctx, new_n, sizeof(uint8_t));
    if (!R->side) rc = VXP_ENOMEM;
  }
  uint32_t shift_from = R->new_end;
  for (uint32_t i = 0; ok && rc == VXP_OK && i < new_n; i++) {
    const vxp_top_item *o = &old_items[i], *n = &new_items[i];
    if (o->sym != n->sym) {
      ok = false;
    } else if (n->end <= R->prefix || n->start >= shift_from) {
      /* outside the middle: the same text, at the matching place */
      uint8_t side = n->end <= R->prefix ? VXP_REUSE_BEFORE : VXP_REUSE_AFTER;
      uint32_t s, e;
      ok = vxp_reuse__map(R, side, o->start, &s) && vxp_reuse__map(R, side, o->end, &e) &&
           s == n->start && e == n->end && o->has_error == n->has_error;
      R->side[i] = side;
    } else {
      /* touched: a function (whose body closes on its own line), or a `const` item without
       * a comment; one whose signature (everything before its body) changed, or a const, is
       * marked for the splice, which takes it over only when what other items read of it
       * (the signature record, the visibility index entry, the names) allows it */
      uint32_t o_body = o->body, n_body = n->body;
      uint32_t sig = n_body - n->start;
      bool changed = false;
      if (n->sym == ctx->syms.function_item) {
        ok = o_body && n_body && closes_on_its_own_line(R->old_src->text, o->start, o->end) &&
             closes_on_its_own_line(R->new_src->text, n->start, n->end);
        changed = ok && (o_body - o->start != sig || memcmp(R->old_src->text + o->start,
                                                            R->new_src->text + n->start, sig) != 0);
        /* a comment in a changed signature could be a `// role:` line: not taken */
        ok = ok && (!changed || (!has_comment(R->old_src->text, o->start, o_body) &&
                                 !has_comment(R->new_src->text, n->start, n_body)));
      } else {
        ok = n->sym == ctx->syms.const_item && !has_comment(R->old_src->text, o->start, o->end) &&
             !has_comment(R->new_src->text, n->start, n->end);
        changed = ok;
        R->consts_changed = R->consts_changed || ok;
      }
      if (ok && changed && !R->changed_sig) {
        R->changed_sig = vxp_ctx__calloc(ctx, new_n, sizeof(uint8_t));
        if (!R->changed_sig) rc = VXP_ENOMEM;
      }
      if (ok && changed && R->changed_sig) R->changed_sig[i] = 1;
      R->side[i] = VXP_REUSE_FRESH;
    }
  }
  if (rc != VXP_OK || !ok) {
    vxp_reuse__free(ctx, R);
    return rc == VXP_OK ? 0 : rc;
  }
  return 1;
}

/* ------------------------------------------------------------------ invariants */

#if defined(VXP_ASSERTIONS)
static void check_cexpr_ref(const vxp_model *m, uint32_t ref, size_t before) {
  VXP__ASSERT(ref == VXP_NONE || ref < before);
  VXP__ASSERT(ref == VXP_NONE || ref < m->cexprs.len);
}

/* model.h's invariants, as checks; here and not in model.c because a model's items point into
 * its declarations, which the model layer does not read (machine.h). */
static void check_model(const vxp_model *m) {
  /* strtab.h: name 0 is "", the slot table is a power of two at most half full. */
  VXP__ASSERT(m->names.strings.len >= 1 && m->names.strings.items[0][0] == '\0');
  VXP__ASSERT((m->names.slot_count & (m->names.slot_count - 1)) == 0);
  VXP__ASSERT(m->names.strings.len <= m->names.slot_count / 2 + 1);
  /* model.h: cexprs form a DAG through earlier entries. */
  for (size_t i = 0; i < m->cexprs.len; i++) {
    const vxp_cexpr *e = &m->cexprs.items[i];
    check_cexpr_ref(m, e->lhs, i);
    check_cexpr_ref(m, e->rhs, i);
    check_cexpr_ref(m, e->alt, i);
  }
  for (size_t i = 0; i < m->dim_list.len; i++)
    VXP__ASSERT(m->dim_list.items[i] < m->cexprs.len);
  for (size_t i = 0; i < m->types.len; i++) {
    const vxp_tensor_type *t = &m->types.items[i];
    if (t->has_shape) VXP__ASSERT((size_t)t->dims_first + t->dims_count <= m->dim_list.len);
  }
  for (size_t f = 0; f < m->functions.len; f++) {
    const vxp_function *fn = &m->functions.items[f];
    /* Events are well nested: every OPEN has its CLOSE. */
    size_t depth = 0;
    for (size_t i = 0; i < fn->events.len; i++) {
      const vxp_event *ev = &fn->events.items[i];
      if (ev->kind == VXP_EV_OPEN)
        depth++;
      else if (ev->kind == VXP_EV_CLOSE) {
        VXP__ASSERT(depth > 0);
        depth--;
      } else if (ev->kind == VXP_EV_PLACE && ev->u.place.type_known) {
        VXP__ASSERT(ev->u.place.type < m->types.len);
      }
    }
    VXP__ASSERT(depth == 0);
    /* `reads` is sorted (binary search, vxp_function__reads). */
    for (size_t i = 1; i < fn->reads.len; i++)
      VXP__ASSERT(fn->reads.items[i - 1] <= fn->reads.items[i]);
    /* Accesses are in program order, each after the events before it. */
    for (size_t i = 0; i < fn->accesses.len; i++) {
      VXP__ASSERT(fn->accesses.items[i].event <= fn->events.len);
      if (i) VXP__ASSERT(fn->accesses.items[i - 1].event <= fn->accesses.items[i].event);
    }
    VXP__ASSERT(fn->parent == VXP_NONE || fn->parent < m->functions.len);
    /* Its item holds it (a model lowered from a tree has items). */
    if (m->items.len) {
      VXP__ASSERT(fn->item < m->items.len);
      const vxp_model_item *it = &m->items.items[fn->item];
      VXP__ASSERT(it->start_byte <= fn->start_byte && fn->end_byte <= it->end_byte);
      VXP__ASSERT(it->first_function <= f && f < it->first_function + it->function_count);
    }
  }
  /* Items are in source order and do not overlap; a declaration item's declaration is
   * written inside it. */
  for (size_t i = 1; i < m->items.len; i++)
    VXP__ASSERT(m->items.items[i - 1].end_byte <= m->items.items[i].start_byte);
  for (size_t i = 0; i < m->items.len && m->declarations; i++) {
    const vxp_model_item *it = &m->items.items[i];
    uint32_t d = it->declaration, at = 0;
    if (d == VXP_NONE) continue;
    if (it->kind == VXP_ITEM_MEMORY) {
      VXP__ASSERT(d < m->declarations->spaces.len);
      at = m->declarations->spaces.items[d].start_byte;
    } else if (it->kind == VXP_ITEM_TOPOLOGY) {
      VXP__ASSERT(d < m->declarations->topologies.len);
      at = m->declarations->topologies.items[d].start_byte;
    } else {
      VXP__ASSERT(it->kind == VXP_ITEM_LOWERING && d < m->declarations->lowerings.len);
      at = m->declarations->lowerings.items[d].start_byte;
    }
    VXP__ASSERT(it->start_byte <= at && at < it->end_byte);
  }
  /* The visibility facts are the items' own, item after item, each written inside its item;
   * the items' positions among the root's children rise with them. */
  uint32_t next_fact = 0;
  for (size_t i = 0; i < m->items.len; i++) {
    const vxp_model_item *it = &m->items.items[i];
    if (i) VXP__ASSERT(m->items.items[i - 1].top < it->top);
    if (it->vis_count == 0) continue;
    VXP__ASSERT(it->vis_first == next_fact && it->vis_count <= m->visibility.len - next_fact);
    for (uint32_t k = it->vis_first; k < it->vis_first + it->vis_count; k++) {
      const vxp_vis_fact *f = &m->visibility.items[k];
      VXP__ASSERT(it->start_byte <= f->start_byte && f->end_byte <= it->end_byte);
    }
    next_fact = it->vis_first + it->vis_count;
  }
  VXP__ASSERT(next_fact == m->visibility.len);
  /* So are the raw:: facts; each points inside its item (an EDGE at the item itself). */
  uint32_t next_raw = 0;
  for (size_t i = 0; i < m->items.len; i++) {
    const vxp_model_item *it = &m->items.items[i];
    if (it->raw_count == 0) continue;
    VXP__ASSERT(it->raw_first == next_raw && it->raw_count <= m->raw.len - next_raw);
    for (uint32_t k = it->raw_first; k < it->raw_first + it->raw_count; k++) {
      const vxp_raw_fact *f = &m->raw.items[k];
      VXP__ASSERT(f->kind <= VXP_RAW_SYNCHRONIZING);
      VXP__ASSERT(it->start_byte <= f->start_byte && f->end_byte <= it->end_byte);
    }
    next_raw = it->raw_first + it->raw_count;
  }
  VXP__ASSERT(next_raw == m->raw.len);
}

void vxp_check__program(const vxp_program *prog) {
  vxp_diag__check_list(&prog->diags);
  /* A window with a syntax error is one of the windows, and its errors are reported. */
  VXP__ASSERT(prog->error_windows <= prog->windows);
  if (prog->error_windows)
    VXP__ASSERT(prog->errors_from < prog->errors_to && prog->errors_to <= prog->src->len &&
                prog->syntax_counts[2] > 0);
  check_model(&prog->model);
}
#endif
