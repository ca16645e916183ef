/* SPDX-License-Identifier: Apache-2.0 */
/* features.c - what the server shows about an analysed document: diagnostics (notes as
 * related information), hover on a placement, its binding or a function, inlay hints with
 * each placement's bytes, a code lens per function with its peak per space against the
 * capacity, and the document's symbols. Every figure is read from the analysis, through its
 * index (index.c) wherever an item needs others: a reply is one pass over its items. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

/* ------------------------------------------------------------------ numbers */

/* 12,952,010,752 */
static const char *grouped(uint64_t v, char buf[32]) {
  char digits[24];
  int n = snprintf(digits, sizeof(digits), "%" PRIu64, v);
  int out = 0;
  for (int i = 0; i < n; i++) {
    if (i > 0 && (n - i) % 3 == 0) buf[out++] = ',';
    buf[out++] = digits[i];
  }
  buf[out] = '\0';
  return buf;
}

/* 12.06 GiB, 500.00 MiB, 512 B */
static const char *binary(uint64_t v, char buf[32]) {
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (v < 1024) {
    snprintf(buf, 32, "%" PRIu64 " B", v);
    return buf;
  }
  double x = (double)v;
  int u = -1;
  while (x >= 1024 && u < 5) {
    x /= 1024;
    u++;
  }
  snprintf(buf, 32, "%.2f %s", x, units[u]);
  return buf;
}

/* bytes as a percentage of capacity, "107.6%"; "-" without a capacity. */
static const char *percent(uint64_t bytes, uint64_t capacity, char buf[32]) {
  if (!capacity)
    snprintf(buf, 32, "-");
  else
    snprintf(buf, 32, "%.*f%%", (double)bytes * 100 / (double)capacity < 1 ? 4 : 1,
             (double)bytes * 100 / (double)capacity);
  return buf;
}

/* ------------------------------------------------------------------ a growing string */

typedef struct text {
  char *buf;
  size_t len, cap;
} text;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
add(text *t, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    size_t room = t->cap - t->len;
    va_start(ap, fmt);
    int n = t->buf ? vsnprintf(t->buf + t->len, room, fmt, ap) : -2;
    va_end(ap);
    if (n >= 0 && (size_t)n < room) {
      t->len += (size_t)n;
      return;
    }
    if (n == -1) return;
    size_t cap = t->cap ? t->cap * 2 : 256;
    while (n >= 0 && cap < t->len + (size_t)n + 1)
      cap *= 2;
    char *buf = realloc(t->buf, cap);
    if (!buf) return;
    t->buf = buf;
    t->cap = cap;
  }
}

/* The text as a JSON string (freed). */
static json_t *take(text *t) {
  json_t *v = lsp_text(t->buf ? t->buf : "");
  free(t->buf);
  memset(t, 0, sizeof(*t));
  return v;
}

/* ------------------------------------------------------------------ diagnostics */

static int severity(vxp_severity sev) {
  return sev == VXP_SEVERITY_ERROR ? 1 : sev == VXP_SEVERITY_WARNING ? 2 : 3;
}

/* "file:line:col" of a diagnostic outside the document (a machine model's), for its
 * message. */
static void where(text *t, const vxp_diagnostic *g) {
  const vxp_source *src = vxp_diagnostic_source(g);
  if (!src) return;
  vxp_range r = vxp_diagnostic_range(g);
  add(t, " (%s:%u:%u)", vxp_source_label(src), r.start.line + 1, r.start.column + 1);
}

static json_t *diagnostic(const lsp_document *d, const vxp_diagnostic *g) {
  const vxp_source *doc = vxp_program_source(d->prog);
  bool here = vxp_diagnostic_has_range(g) && vxp_diagnostic_source(g) == doc;
  text msg = {0};
  add(&msg, "%s", vxp_diagnostic_message(g));
  if (!here) where(&msg, g);
  json_t *related = json_array();
  for (size_t i = 0; i < vxp_diagnostic_note_count(g); i++) {
    const vxp_diagnostic *n = vxp_diagnostic_note(g, i);
    const char *kind = vxp_diagnostic_is_help(n) ? "help" : "note";
    if (vxp_diagnostic_has_range(n) && vxp_diagnostic_source(n) == doc) {
      /* Located notes (the tiles live at the peak, each hop of a call path) point at
       * their code; the client lists them under the diagnostic. */
      text nt = {0};
      add(&nt, "%s: %s", kind, vxp_diagnostic_message(n));
      json_array_append_new(related, json_pack("{s:{s:s, s:o}, s:o}", "location", "uri", d->uri,
                                               "range", lsp_range(doc, vxp_diagnostic_range(n)),
                                               "message", take(&nt)));
    } else {
      add(&msg, "\n%s: %s", kind, vxp_diagnostic_message(n));
      where(&msg, n);
    }
  }
  vxp_range none = {{0, 0}, {0, 0}, 0, 0};
  json_t *out = json_pack(
      "{s:o, s:i, s:s, s:o}", "range", lsp_range(doc, here ? vxp_diagnostic_range(g) : none),
      "severity", severity(vxp_diagnostic_severity(g)), "source", "vxpeak", "message", take(&msg));
  if (!out) {
    json_decref(related);
    return NULL;
  }
  if (vxp_diagnostic_code(g) && *vxp_diagnostic_code(g))
    json_object_set_new(out, "code", lsp_text(vxp_diagnostic_code(g)));
  if (json_array_size(related))
    json_object_set_new(out, "relatedInformation", related);
  else
    json_decref(related);
  return out;
}

json_t *lsp_diagnostics(lsp_server *s, lsp_document *d) {
  json_t *list = json_array();
  size_t n = d->an ? vxp_analysis_diagnostic_count(d->an) : 0;
  for (size_t i = 0; i <= n; i++) {
    /* per diagnostic, and once more at the end, so that an empty list stops too */
    if (lsp_interrupted(s)) {
      json_decref(list);
      return NULL;
    }
    if (i == n) break;
    json_t *g = diagnostic(d, vxp_analysis_diagnostic(d->an, i));
    if (g) json_array_append_new(list, g);
  }
  if (s->config_error) /* the configured machine could not be loaded: say so on the file */
    json_array_append_new(list, json_pack("{s:{s:{s:i,s:i},s:{s:i,s:i}}, s:i, s:s, s:o}", "range",
                                          "start", "line", 0, "character", 0, "end", "line", 0,
                                          "character", 0, "severity", 1, "source", "vxpeak",
                                          "message", lsp_text(s->config_error)));
  return json_pack("{s:s, s:I, s:o}", "uri", d->uri, "version", (json_int_t)d->version,
                   "diagnostics", list);
}

/* ------------------------------------------------------------------ lookups */

/* Whether analysed function `fn` is item `item` or one of its generic instances
 * (`item<...>`). */
static bool is_function_of(const char *fn, const char *item) {
  size_t n = strlen(item);
  return strncmp(fn, item, n) == 0 && (fn[n] == '\0' || fn[n] == '<');
}

static bool is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The identifier under byte `at` of `src` ([*start, *end)), or false. */
static bool word_at(const vxp_source *src, uint32_t at, uint32_t *start, uint32_t *end) {
  size_t len;
  const char *t = vxp_source_text(src, &len);
  if (at > len) return false;
  uint32_t a = at, b = at;
  while (a > 0 && is_ident(t[a - 1]))
    a--;
  while (b < len && is_ident(t[b]))
    b++;
  if (a == b) return false;
  *start = a;
  *end = b;
  return true;
}

/* The innermost function item containing `at`, or SIZE_MAX. */
static size_t function_item_at(const vxp_program *prog, uint32_t at) {
  size_t best = SIZE_MAX;
  uint32_t best_len = UINT32_MAX;
  for (size_t i = 0; i < vxp_program_item_count(prog); i++) {
    if (vxp_program_item_type(prog, i) == VXP_ITEM_TYPE_CONST) continue;
    vxp_range r = vxp_program_item_range(prog, i);
    if (r.start_byte <= at && at <= r.end_byte && r.end_byte - r.start_byte < best_len) {
      best = i;
      best_len = r.end_byte - r.start_byte;
    }
  }
  return best;
}

/* ------------------------------------------------------------------ hover */

static void describe_record(text *t, const lsp_index *ix, const vxp_record *rec) {
  char a[32], b[32], c[32], p[32];
  const char *fn = vxp_record_function(rec), *space = vxp_record_space(rec);
  uint64_t bytes = vxp_record_bytes(rec);
  const vxp_resident_set *rs = lsp_index_resident_set(ix, fn, space);
  uint64_t capacity = rs ? vxp_resident_set_capacity_bytes(rs) : 0;
  add(t, "**%s** in `%s`, function `%s`\n\n",
      vxp_record_binding(rec) ? vxp_record_binding(rec) : "(unbound tile)", space, fn);
  add(t, "- bytes: %s (%s, rounded to the space's granule)\n", binary(bytes, a), grouped(bytes, b));
  uint32_t depth = vxp_record_scope_depth(rec), rel;
  if (vxp_record_release_order(rec, &rel))
    add(t, "- scope: %s%u, released after position %u of the function's program order\n",
        depth ? "inside releasing blocks, depth " : "function scope, depth ", depth, rel);
  else
    add(t, "- scope: %s %u, held until the function returns\n",
        depth ? "inside releasing blocks, depth" : "function scope, depth", depth);
  add(t, "- live at the peak: %s\n", vxp_record_live_at_peak(rec) ? "yes" : "no");
  if (capacity)
    add(t, "- share of the capacity: %s of %s; the peak of `%s` in `%s` is %s (%s)\n",
        percent(bytes, capacity, p), binary(capacity, c), fn, space,
        binary(vxp_resident_set_peak_bytes(rs), a),
        percent(vxp_resident_set_peak_bytes(rs), capacity, b));
  uint64_t runs;
  if (vxp_record_runs(rec, &runs))
    add(t, "- runs %s time%s per call\n", grouped(runs, a), runs == 1 ? "" : "s");
  else
    add(t, "- runs an unknown number of times per call (a trip count is not static)\n");
  if (vxp_record_role(rec)) add(t, "- role: %s\n", vxp_record_role(rec));
}

/* Peaks of analysed function `fn` per space against capacity, one line each. */
static void describe_function(text *t, const vxp_analysis *an, const lsp_index *ix,
                              const char *fn) {
  char a[32], b[32], c[32];
  bool any = false;
  size_t count;
  const size_t *sets = lsp_index_sets_of(ix, fn, &count);
  for (size_t k = 0; k < count; k++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, sets[k]);
    uint64_t peak = vxp_resident_set_peak_bytes(rs), cap = vxp_resident_set_capacity_bytes(rs);
    add(t, "- `%s`: peak %s of %s (%s), %zu tile%s live at the peak\n", vxp_resident_set_space(rs),
        binary(peak, a), binary(cap, b), percent(peak, cap, c), vxp_resident_set_tile_count(rs),
        vxp_resident_set_tile_count(rs) == 1 ? "" : "s");
    any = true;
  }
  const size_t *trees = lsp_index_trees_of(ix, fn, &count);
  for (size_t k = 0; k < count; k++) {
    const vxp_call_tree *ct = vxp_analysis_call_tree(an, trees[k]);
    if (!vxp_call_tree_callee(ct)) continue;
    uint64_t total = vxp_call_tree_total_bytes(ct), cap = vxp_call_tree_capacity_bytes(ct);
    add(t, "- `%s` over the call tree: %s%s of %s (%s), through `%s`\n", vxp_call_tree_space(ct),
        vxp_call_tree_bounded(ct) ? "" : "unbounded, at least ", binary(total, a), binary(cap, b),
        percent(total, cap, c), vxp_call_tree_callee(ct));
    any = true;
  }
  if (!any) add(t, "- places no tile in a space with a capacity\n");
}

/* Whether the binding of `rec` can be named at byte `at`: every scope from the record's
 * innermost to its function's holds `at` (the function's own scope holds its body). */
static bool in_scope_at(const vxp_record *rec, uint32_t at) {
  for (const vxp_scope *sc = vxp_record_scope(rec); sc; sc = vxp_scope_parent(sc)) {
    vxp_range r = vxp_scope_range(sc);
    if (at < r.start_byte || at >= r.end_byte) return false;
  }
  return true;
}

json_t *lsp_hover(lsp_server *s, lsp_document *d, uint32_t at) {
  const vxp_analysis *an = d->an;
  const vxp_program *prog = d->prog;
  const vxp_source *src = vxp_program_source(prog);
  const lsp_index *ix = lsp_document_index(d);
  if (!ix) return NULL;
  text t = {0};
  vxp_range shown = {{0, 0}, {0, 0}, 0, 0};
  /* A placement: the records whose range holds the position, innermost first (generic
   * instances place the same text once each). */
  uint32_t best_len = UINT32_MAX;
  for (size_t i = 0; i < vxp_analysis_record_count(an); i++) {
    if (lsp_interrupted(s)) goto stopped;
    vxp_range r = vxp_record_range(vxp_analysis_record(an, i));
    if (r.start_byte <= at && at < r.end_byte && r.end_byte - r.start_byte < best_len) {
      best_len = r.end_byte - r.start_byte;
      shown = r;
    }
  }
  size_t shown_count = 0;
  if (best_len != UINT32_MAX) {
    for (size_t i = 0; i < vxp_analysis_record_count(an) && shown_count < 8; i++) {
      if (lsp_interrupted(s)) goto stopped;
      const vxp_record *rec = vxp_analysis_record(an, i);
      vxp_range r = vxp_record_range(rec);
      if (r.start_byte != shown.start_byte || r.end_byte != shown.end_byte) continue;
      if (shown_count++) add(&t, "\n---\n\n");
      describe_record(&t, ix, rec);
    }
  }
  uint32_t ws, we;
  size_t item = function_item_at(prog, at);
  if (!shown_count && item != SIZE_MAX && word_at(src, at, &ws, &we)) {
    /* A function's name: its peaks. */
    vxp_range name = vxp_program_item_name_range(prog, item);
    const char *fname = vxp_program_item_name(prog, item);
    if (name.start_byte <= at && at <= name.end_byte) {
      bool found = false;
      for (size_t i = 0; i < vxp_analysis_function_count(an); i++) {
        if (lsp_interrupted(s)) goto stopped;
        const char *fn = vxp_analysis_function(an, i);
        if (!is_function_of(fn, fname)) continue;
        add(&t, "%s**%s**\n\n", found ? "\n" : "", fn);
        describe_function(&t, an, ix, fn);
        found = true;
      }
      if (!found) add(&t, "**%s**: generic, and no call instantiates it\n", fname);
      shown = name;
      shown_count = 1;
    } else {
      /* A binding's name (its `let`, or a later use): the placement bound to that name
       * whose scope holds the position, the latest of them at or before it (a later `let`
       * in a scope still open shadows an earlier one; one in a block that has ended is
       * out of scope, however late). */
      vxp_range r = vxp_program_item_range(prog, item);
      const vxp_record *last = NULL;
      size_t wl = we - ws;
      const char *txt = vxp_source_text(src, NULL);
      uint32_t word_line = lsp_point_of(src, ws).line;
      for (size_t i = 0; i < vxp_analysis_record_count(an); i++) {
        if (lsp_interrupted(s)) goto stopped;
        const vxp_record *rec = vxp_analysis_record(an, i);
        const char *b = vxp_record_binding(rec);
        vxp_range rr = vxp_record_range(rec);
        if (!b || strlen(b) != wl || memcmp(b, txt + ws, wl) != 0) continue;
        if (rr.start_byte < r.start_byte || rr.end_byte > r.end_byte) continue;
        if (!is_function_of(vxp_record_function(rec), fname)) continue;
        /* the `let` line itself (the name precedes the initializer) or any later use */
        if (rr.start_byte > ws && rr.start.line != word_line) continue;
        if (!in_scope_at(rec, ws)) continue;
        if (!last || vxp_record_range(last).start_byte <= rr.start_byte) last = rec;
      }
      if (last) {
        describe_record(&t, ix, last);
        shown.start = lsp_point_of(src, ws);
        shown.end = lsp_point_of(src, we);
        shown.start_byte = ws;
        shown.end_byte = we;
        shown_count = 1;
      }
    }
  }
  if (!shown_count) {
    free(t.buf);
    return json_null();
  }
  return json_pack("{s:{s:s, s:o}, s:o}", "contents", "kind", "markdown", "value", take(&t),
                   "range", lsp_range(src, shown));
stopped:
  free(t.buf);
  return NULL;
}

/* ------------------------------------------------------------------ inlay hints */

json_t *lsp_inlay_hints(lsp_server *s, lsp_document *d, uint32_t from, uint32_t to) {
  const vxp_analysis *an = d->an;
  const vxp_source *src = vxp_program_source(d->prog);
  const lsp_index *ix = lsp_document_index(d);
  if (!ix) return NULL;
  json_t *hints = json_array();
  size_t n = vxp_analysis_record_count(an);
  for (size_t i = 0; i < n; i++) {
    if (lsp_interrupted(s)) { /* per placement */
      json_decref(hints);
      return NULL;
    }
    /* A placement written once may be a record of several generic instances (or of a
     * closure and its function): one hint per text, at its first record, listing the
     * distinct sizes. */
    size_t count;
    const size_t *same = lsp_index_same_range(ix, i, &count);
    if (!same) continue;
    const vxp_record *rec = vxp_analysis_record(an, i);
    vxp_range r = vxp_record_range(rec);
    if (r.end_byte < from || r.start_byte > to) continue;
    text t = {0};
    char a[32];
    add(&t, "%s in %s", binary(vxp_record_bytes(rec), a), vxp_record_space(rec));
    for (size_t k = 1; k < count && k <= 3; k++)
      add(&t, " | %s", binary(vxp_record_bytes(vxp_analysis_record(an, same[k])), a));
    if (count - 1 > 3) add(&t, " | ...");
    if (vxp_record_live_at_peak(rec)) add(&t, " (at peak)");
    json_array_append_new(hints,
                          json_pack("{s:o, s:o, s:i, s:b}", "position", lsp_position(src, r.end),
                                    "label", take(&t), "kind", 1, "paddingLeft", 1));
  }
  return hints;
}

/* ------------------------------------------------------------------ code lenses */

/* One line: each space's peak against its capacity for analysed function `fn`. */
static void function_summary(text *t, const vxp_analysis *an, const lsp_index *ix, const char *fn) {
  char a[32], b[32], c[32];
  size_t count;
  const size_t *sets = lsp_index_sets_of(ix, fn, &count);
  for (size_t k = 0; k < count; k++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, sets[k]);
    uint64_t peak = vxp_resident_set_peak_bytes(rs), cap = vxp_resident_set_capacity_bytes(rs);
    add(t, "%s%s peak %s / %s (%s)", k ? " · " : "", vxp_resident_set_space(rs), binary(peak, a),
        binary(cap, b), percent(peak, cap, c));
  }
  if (!count) add(t, "no tiles in a space with a capacity");
}

json_t *lsp_code_lenses(lsp_server *s, lsp_document *d) {
  const vxp_analysis *an = d->an;
  const vxp_program *prog = d->prog;
  const vxp_source *src = vxp_program_source(prog);
  const lsp_index *ix = lsp_document_index(d);
  if (!ix) return NULL;
  json_t *lenses = json_array();
  for (size_t i = 0; i < vxp_program_item_count(prog); i++) {
    if (lsp_interrupted(s)) { /* per function */
      json_decref(lenses);
      return NULL;
    }
    if (vxp_program_item_type(prog, i) != VXP_ITEM_TYPE_FUNCTION) continue;
    const char *name = vxp_program_item_name(prog, i);
    text t = {0};
    if (lsp_index_has_function(ix, name)) {
      function_summary(&t, an, ix, name);
    } else {
      size_t instances = lsp_index_instance_count(ix, name);
      if (instances == 0) continue; /* generic and never instantiated */
      add(&t, "generic: %zu instance%s (hover for each)", instances, instances == 1 ? "" : "s");
    }
    vxp_range r = vxp_program_item_name_range(prog, i);
    json_array_append_new(lenses, json_pack("{s:o, s:{s:o, s:s}}", "range", lsp_range(src, r),
                                            "command", "title", take(&t), "command", ""));
  }
  return lenses;
}

/* ------------------------------------------------------------------ symbols */

json_t *lsp_document_symbols(lsp_server *s, lsp_document *d) {
  const vxp_program *prog = d->prog;
  const vxp_source *src = vxp_program_source(prog);
  json_t *symbols = json_array();
  for (size_t i = 0; i < vxp_program_item_count(prog); i++) {
    if (lsp_interrupted(s)) {
      json_decref(symbols);
      return NULL;
    }
    vxp_item_type type = vxp_program_item_type(prog, i);
    if (type == VXP_ITEM_TYPE_CLOSURE) continue;
    const char *name = vxp_program_item_name(prog, i);
    /* LSP SymbolKind: Method 6, Function 12, Constant 14 */
    int k = type == VXP_ITEM_TYPE_CONST ? 14 : strstr(name, "::") ? 6 : 12;
    vxp_range r = vxp_program_item_range(prog, i), sel = vxp_program_item_name_range(prog, i);
    if (sel.start_byte < r.start_byte || sel.end_byte > r.end_byte) sel = r;
    json_array_append_new(symbols, json_pack("{s:o, s:i, s:o, s:o}", "name", lsp_text(name), "kind",
                                             k, "range", lsp_range(src, r), "selectionRange",
                                             lsp_range(src, sel)));
  }
  return symbols;
}
