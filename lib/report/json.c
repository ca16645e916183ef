/* SPDX-License-Identifier: Apache-2.0 */
/* json.c - the analysis' JSON report (vxp_analysis_json).
 *
 * Layout: the top-level object has one key per line and every record of an array on a
 * line of its own, so that line-oriented tools (grep, FileCheck-style checks written for
 * vxc's --diagnostics-json) read it as they read vxc's output. Key order is fixed. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis.h"
#include "context.h"
#include "jsontext.h"
#include "program.h"
#include "report.h"
#include "source.h"

#define VXP__JSON_SCHEMA "vxpeak-report-v1"
/* Reals are printed with 15 significant digits: utilizations are rounded to 4 decimals
 * first, so they print as 0.5 or 0.6774, never 0.67740000000000002. */
#define VXP__JSON_FLAGS (JSON_REAL_PRECISION(15) | JSON_ENSURE_ASCII)
/* Hops printed per call-tree path (see call_tree_json). */
#define VXP__JSON_MAX_HOPS 16

/* A growable text buffer from the context's allocator. */
typedef struct out_buf {
  vxp_context *ctx;
  char *data;
  size_t len, cap;
  bool failed;
} out_buf;

static void put(out_buf *b, const char *s, size_t n) {
  if (b->failed) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1)
      cap *= 2;
    char *grown = vxp_ctx__realloc(b->ctx, b->data, cap);
    if (!grown) {
      b->failed = true;
      return;
    }
    b->data = grown;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

static void puts_(out_buf *b, const char *s) { put(b, s, strlen(s)); }

/* json_dump_callback's sink: the text goes straight into our buffer. */
static int put_chunk(const char *chunk, size_t size, void *data) {
  out_buf *b = data;
  put(b, chunk, size);
  return b->failed ? -1 : 0;
}

/* Append `value` rendered on one line; takes ownership of `value`. Rendered through a
 * callback rather than json_dumps, so that no string of jansson's allocator (which the host
 * program may have replaced with json_set_alloc_funcs) has to be freed here. */
static void put_json(out_buf *b, json_t *value) {
  if (!value) {
    b->failed = true;
    return;
  }
  if (json_dump_callback(value, put_chunk, b, VXP__JSON_FLAGS | JSON_ENCODE_ANY) != 0)
    b->failed = true;
  json_decref(value);
}

/* `"key": value,` on its own line at the top level. */
static void put_field(out_buf *b, const char *key, json_t *value, bool last) {
  puts_(b, "  \"");
  puts_(b, key);
  puts_(b, "\": ");
  put_json(b, value);
  puts_(b, last ? "\n" : ",\n");
}

/* An array whose elements are each on their own line; takes ownership of `items`. */
static void put_array_field(out_buf *b, const char *key, json_t *items, bool last) {
  if (!items) {
    b->failed = true;
    return;
  }
  puts_(b, "  \"");
  puts_(b, key);
  size_t n = json_array_size(items);
  if (n == 0) {
    puts_(b, "\": []");
  } else {
    puts_(b, "\": [\n");
    for (size_t i = 0; i < n; i++) {
      puts_(b, "    ");
      put_json(b, json_incref(json_array_get(items, i)));
      puts_(b, i + 1 < n ? ",\n" : "\n");
    }
    puts_(b, "  ]");
  }
  puts_(b, last ? "\n" : ",\n");
  json_decref(items);
}

/* Set `key` (steals `value`); reports failure through `ok`. */
static void set(json_t *obj, const char *key, json_t *value, bool *ok) {
  if (!value || json_object_set_new(obj, key, value) != 0) *ok = false;
}

/* Values of 2^63 and above do not fit jansson's signed integer (they printed negative: an
 * edge cost of 2^64-1 as -1): they are rendered as a marked string, "\u0000u64:DIGITS",
 * which unmark_big() turns into the bare digits once the text is written. No other string
 * renders so: a NUL never comes from a C string, and a backslash of the text itself is
 * written doubled. */
#define VXP__BIG_MARK "\"\\u0000u64:"

static json_t *u64(uint64_t v) {
  if (v <= (uint64_t)INT64_MAX) return json_integer((json_int_t)v);
  char mark[32];
  int n = snprintf(mark, sizeof(mark), "%cu64:%llu", '\0', (unsigned long long)v);
  return json_stringn(mark, (size_t)n);
}

/* Replace each marked string of u64() by its digits, in place. */
static void unmark_big(out_buf *b) {
  if (b->failed || !b->data || !strstr(b->data, VXP__BIG_MARK)) return;
  size_t mark_len = strlen(VXP__BIG_MARK), w = 0;
  for (size_t r = 0; r < b->len;) {
    if (b->data[r] == '"' && strncmp(b->data + r, VXP__BIG_MARK, mark_len) == 0) {
      r += mark_len;
      while (r < b->len && b->data[r] != '"')
        b->data[w++] = b->data[r++];
      r++; /* the closing quote */
      continue;
    }
    b->data[w++] = b->data[r++];
  }
  b->len = w;
  b->data[w] = '\0';
}

/* Utilization: total/capacity rounded to 4 decimals; whole numbers print without ".0",
 * as vxc prints them. */
static json_t *utilization(uint64_t total, uint64_t capacity) {
  if (capacity == 0) return json_integer(0);
  double u = round((double)total / (double)capacity * 10000.0) / 10000.0;
  if (u == floor(u) && u < 9e15) return json_integer((json_int_t)u);
  return json_real(u);
}

static json_t *diagnostic_json(const vxp_diagnostic *d, bool *ok) {
  json_t *o = json_object();
  if (!o) {
    *ok = false;
    return NULL;
  }
  const char *level = d->severity == VXP_SEVERITY_ERROR     ? "error"
                      : d->severity == VXP_SEVERITY_WARNING ? "warning"
                                                            : "note";
  set(o, "level", vxp_json__text(level), ok);
  set(o, "code", d->code[0] ? vxp_json__text(d->code) : json_null(), ok);
  set(o, "message", vxp_json__text(d->message), ok);
  if (d->has_range) {
    set(o, "line", json_integer(d->range.start.line + 1), ok);
    set(o, "column", json_integer(d->range.start.column + 1), ok);
  }
  if (d->capacity.present) {
    const vxp_capacity_facts *c = &d->capacity;
    json_t *cap = json_object();
    if (cap) {
      set(cap, "space", vxp_json__text(c->space), ok);
      set(cap, "required_bytes", u64(c->required_bytes), ok);
      set(cap, "available_bytes", u64(c->available_bytes), ok);
      /* margin = available - required, signed: it is negative when over capacity. */
      json_int_t margin = c->available_bytes >= c->required_bytes
                              ? (json_int_t)(c->available_bytes - c->required_bytes)
                              : -(json_int_t)(c->required_bytes - c->available_bytes);
      set(cap, "margin_bytes", json_integer(margin), ok);
      set(cap, "tiles", c->has_tiles ? u64(c->tiles) : json_null(), ok);
    }
    set(o, "capacity", cap, ok);
  }
  /* Extensions to vxc's record: the file (a diagnostic can be in a machine file), the
   * function or generic instance it is about, notes. */
  if (d->has_range) set(o, "file", vxp_json__text(d->source->label), ok);
  if (d->function) set(o, "function", vxp_json__text(d->function), ok);
  if (d->notes.len) {
    json_t *notes = json_array();
    for (size_t i = 0; notes && i < d->notes.len; i++) {
      const vxp_diagnostic *n = &d->notes.items[i];
      json_t *no = json_object();
      if (!no) {
        *ok = false;
        break;
      }
      set(no, "kind", vxp_json__text(n->is_help ? "help" : "note"), ok);
      set(no, "message", vxp_json__text(n->message), ok);
      if (n->has_range) {
        set(no, "line", json_integer(n->range.start.line + 1), ok);
        set(no, "column", json_integer(n->range.start.column + 1), ok);
      }
      if (json_array_append_new(notes, no) != 0) *ok = false;
    }
    set(o, "notes", notes, ok);
  }
  return o;
}

/* A record's scope chain, innermost first: [{"id", "kind", "line", "column"}...]. */
static json_t *scopes_json(const vxp_record *r, bool *ok) {
  json_t *chain = json_array();
  if (!chain) {
    *ok = false;
    return NULL;
  }
  for (const vxp_scope *sc = vxp_record_scope(r); sc; sc = vxp_scope_parent(sc)) {
    json_t *o = json_object();
    if (!o) {
      *ok = false;
      break;
    }
    vxp_range range = vxp_scope_range(sc);
    set(o, "id", json_integer(vxp_scope_id(sc)), ok);
    set(o, "kind", json_string(vxp_scope_kind(sc)), ok);
    set(o, "line", json_integer(range.start.line + 1), ok);
    set(o, "column", json_integer(range.start.column + 1), ok);
    if (json_array_append_new(chain, o) != 0) *ok = false;
  }
  return chain;
}

static json_t *resident_set_json(const vxp_analysis *an, const vxp_resident_set *rs, bool *ok) {
  json_t *o = json_object();
  if (!o) {
    *ok = false;
    return NULL;
  }
  set(o, "function", vxp_json__text(rs->function_name), ok);
  set(o, "space", vxp_json__text(rs->space_name), ok);
  set(o, "total_bytes", u64(rs->peak_bytes), ok);
  set(o, "capacity_bytes", u64(rs->capacity_bytes), ok);
  set(o, "utilization", utilization(rs->peak_bytes, rs->capacity_bytes), ok);
  set(o, "tiles", json_integer(rs->tiles), ok);
  set(o, "overcommit", json_boolean(rs->overcommit), ok);
  set(o, "allocated_bytes", rs->allocated_known ? u64(rs->allocated_bytes) : json_null(), ok);
  set(o, "record_count", json_integer((json_int_t)rs->record_count), ok);
  json_t *live = json_array();
  for (size_t i = 0; live && i < rs->record_count; i++) {
    const vxp_record *r = &an->records.items[an->set_records.items[rs->record_first + i]];
    if (!r->live_at_peak) continue;
    json_t *t = json_object();
    if (!t) {
      *ok = false;
      break;
    }
    set(t, "binding", r->binding_name ? vxp_json__text(r->binding_name) : json_null(), ok);
    set(t, "bytes", u64(r->bytes), ok);
    set(t, "depth", json_integer(r->depth), ok);
    set(t, "line", json_integer(r->range.start.line + 1), ok);
    set(t, "column", json_integer(r->range.start.column + 1), ok);
    set(t, "scopes", scopes_json(r, ok), ok);
    if (json_array_append_new(live, t) != 0) *ok = false;
  }
  set(o, "live_at_peak", live, ok);
  /* Every tile of the set, live at the peak or not, with its scope chain: an embedder that
   * reads the JSON sees the structure of each placement, not only of the peak's. */
  json_t *all = json_array();
  for (size_t i = 0; all && i < rs->record_count; i++) {
    const vxp_record *r = &an->records.items[an->set_records.items[rs->record_first + i]];
    json_t *t = json_object();
    if (!t) {
      *ok = false;
      break;
    }
    set(t, "binding", r->binding_name ? vxp_json__text(r->binding_name) : json_null(), ok);
    set(t, "bytes", u64(r->bytes), ok);
    set(t, "live_at_peak", json_boolean(r->live_at_peak), ok);
    set(t, "depth", json_integer(r->depth), ok);
    set(t, "line", json_integer(r->range.start.line + 1), ok);
    set(t, "column", json_integer(r->range.start.column + 1), ok);
    set(t, "scopes", scopes_json(r, ok), ok);
    if (json_array_append_new(all, t) != 0) *ok = false;
  }
  set(o, "records", all, ok);
  return o;
}

static json_t *nullable_u64(bool known, uint64_t v) { return known ? u64(v) : json_null(); }

static json_t *nullable_string(const char *s) { return s ? vxp_json__text(s) : json_null(); }

/* One route record, in vxc's key order, then vxpeak's additions (function, site). */
static json_t *route_json(const vxp_route *r, bool *ok) {
  json_t *o = json_object();
  json_t *path = json_array(), *edges = json_array();
  if (!o || !path || !edges) {
    json_decref(o);
    json_decref(path);
    json_decref(edges);
    *ok = false;
    return NULL;
  }
  size_t n = vxp_route_path_length(r);
  for (size_t i = 0; i < n; i++) {
    if (json_array_append_new(path, vxp_json__text(vxp_route_path_space(r, i))) != 0) *ok = false;
  }
  for (size_t i = 0; i + 1 < n; i++) {
    json_t *e = json_object();
    if (!e) {
      *ok = false;
      break;
    }
    uint64_t cost;
    set(e, "from", vxp_json__text(vxp_route_path_space(r, i)), ok);
    set(e, "to", vxp_json__text(vxp_route_path_space(r, i + 1)), ok);
    set(e, "cost", vxp_route_edge_cost(r, i, &cost) ? u64(cost) : json_null(), ok);
    if (json_array_append_new(edges, e) != 0) *ok = false;
  }
  uint64_t bytes = 0, derived = 0;
  bool has_bytes = vxp_route_bytes(r, &bytes), has_cost = vxp_route_derived_cost(r, &derived);
  set(o, "path", path, ok);
  set(o, "edges", edges, ok);
  set(o, "total_cost", u64(vxp_route_total_cost(r)), ok);
  set(o, "bytes", nullable_u64(has_bytes, bytes), ok);
  set(o, "derived_cost", nullable_u64(has_cost, derived), ok);
  set(o, "derived_unit", nullable_string(vxp_route_derived_unit(r)), ok);
  set(o, "cost_source", nullable_string(vxp_route_cost_source(r)), ok);
  set(o, "composition", nullable_string(vxp_route_composition(r)), ok);
  /* Traffic of the builtin copy: it reads the tile from where it is and writes it where
   * it goes, once, exactly: the hop's own ends, which are not the path's when the route
   * starts or ends at an ancestor of a space without edges of its own. */
  if (!r->traffic_absent_reason) {
    json_t *traffic = json_array(), *src = json_object(), *dst = json_object();
    if (!traffic || !src || !dst) {
      json_decref(traffic);
      json_decref(src);
      json_decref(dst);
      *ok = false;
      return o;
    }
    /* A hop a lowering moves counts what its body's raw:: calls move (vxc's
     * lowering_body), per end of the lowered edge. */
    set(src, "space", vxp_json__text(vxp_analysis__route_end(r, false)), ok);
    set(src, "read_bytes", u64(r->lowered ? r->from_read : bytes), ok);
    set(src, "written_bytes", u64(r->lowered ? r->from_written : 0), ok);
    set(dst, "space", vxp_json__text(vxp_analysis__route_end(r, true)), ok);
    set(dst, "read_bytes", u64(r->lowered ? r->to_read : 0), ok);
    set(dst, "written_bytes", u64(r->lowered ? r->to_written : bytes), ok);
    if (json_array_append_new(traffic, src) != 0 || json_array_append_new(traffic, dst) != 0)
      *ok = false;
    set(o, "traffic", traffic, ok);
    set(o, "traffic_source", vxp_json__text(r->lowered ? "lowering_body" : "builtin_copy"), ok);
    set(o, "traffic_exact", (!r->lowered || r->traffic_exact) ? json_true() : json_false(), ok);
    set(o, "traffic_absent_reason", json_null(), ok);
  } else {
    set(o, "traffic", json_null(), ok);
    set(o, "traffic_source", json_null(), ok);
    set(o, "traffic_exact", json_null(), ok);
    set(o, "traffic_absent_reason", vxp_json__text(r->traffic_absent_reason), ok);
  }
  set(o, "function", vxp_json__text(vxp_route_function(r)), ok);
  set(o, "line", json_integer(r->range.start.line + 1), ok);
  set(o, "column", json_integer(r->range.start.column + 1), ok);
  /* The tile the hop places (vxp_route_record): its space, binding and bytes. */
  const vxp_record *placed = vxp_route_record(r);
  json_t *tile = placed ? json_object() : json_null();
  if (placed && tile) {
    set(tile, "space", vxp_json__text(placed->space_name), ok);
    set(tile, "binding", placed->binding_name ? vxp_json__text(placed->binding_name) : json_null(),
        ok);
    set(tile, "bytes", u64(placed->bytes), ok);
  }
  set(o, "tile", tile, ok);
  return o;
}

/* One (function, space) of the call tree: own peak, total, and the path realising it. */
static json_t *call_tree_json(const vxp_call_tree *ct, bool *ok) {
  json_t *o = json_object(), *path = json_array();
  if (!o || !path) {
    json_decref(o);
    json_decref(path);
    *ok = false;
    return NULL;
  }
  set(o, "function", vxp_json__text(vxp_call_tree_function(ct)), ok);
  set(o, "space", vxp_json__text(vxp_call_tree_space(ct)), ok);
  set(o, "self_peak_bytes", u64(vxp_call_tree_self_peak_bytes(ct)), ok);
  set(o, "total_bytes", u64(vxp_call_tree_total_bytes(ct)), ok);
  set(o, "capacity_bytes", u64(vxp_call_tree_capacity_bytes(ct)), ok);
  set(o, "utilization",
      utilization(vxp_call_tree_total_bytes(ct), vxp_call_tree_capacity_bytes(ct)), ok);
  set(o, "bounded", json_boolean(vxp_call_tree_bounded(ct)), ok);
  /* The path walks hop by hop, once: a chain of n functions would print n^2 hops over the
   * whole report, so each path is cut after VXP__JSON_MAX_HOPS (path_complete: false). */
  const vxp_analysis *an = ct->owner;
  size_t spaces = an->view.spaces.len, hops = 0;
  uint32_t fn = ct->function;
  for (;;) {
    uint32_t c = an->fn_spaces.items[(size_t)fn * spaces + ct->space].best_call;
    if (c == VXP_NONE || hops == VXP__JSON_MAX_HOPS) break;
    const vxp_call_site *site = &an->calls.items[c];
    vxp_range r = vxp_source__range(an->prog->src, site->start_byte, site->end_byte);
    json_t *hop = json_object();
    if (!hop) {
      *ok = false;
      break;
    }
    set(hop, "function", vxp_json__text(an->functions.items[site->caller].name), ok);
    set(hop, "callee", vxp_json__text(an->functions.items[site->callee].name), ok);
    set(hop, "line", json_integer(r.start.line + 1), ok);
    set(hop, "column", json_integer(r.start.column + 1), ok);
    set(hop, "held_bytes", u64(an->held.items[(size_t)c * spaces + ct->space]), ok);
    if (json_array_append_new(path, hop) != 0) *ok = false;
    hops++;
    fn = site->callee;
  }
  set(o, "path", path, ok);
  set(o, "path_complete", json_boolean(hops == vxp_call_tree_hop_count(ct)), ok);
  return o;
}

static json_t *unresolved_json(const vxp_unresolved_call *u, bool *ok) {
  json_t *o = json_object();
  if (!o) {
    *ok = false;
    return NULL;
  }
  vxp_range r = vxp_unresolved_call_range(u);
  set(o, "function", vxp_json__text(vxp_unresolved_call_function(u)), ok);
  set(o, "callee", nullable_string(vxp_unresolved_call_callee(u)), ok);
  set(o, "reason", vxp_json__text(vxp_unresolved_call_reason(u)), ok);
  set(o, "line", json_integer(r.start.line + 1), ok);
  set(o, "column", json_integer(r.start.column + 1), ok);
  return o;
}

char *vxp_report__json(const vxp_analysis *an, size_t *len) {
  out_buf b = {an->ctx, NULL, 0, 0, false};
  bool ok = true;
  puts_(&b, "{\n");
  put_field(&b, "schema", vxp_json__text(VXP__JSON_SCHEMA), false);
  put_field(&b, "file", vxp_json__text(an->prog->src->label), false);
  put_field(&b, "machine", an->machine ? vxp_json__text(an->machine->label) : json_null(), false);
  put_field(&b, "host", an->host ? vxp_json__text(an->host->label) : json_null(), false);
  json_t *defines = json_object();
  for (size_t i = 0; defines && i < an->defines.len; i++)
    set(defines, an->defines.items[i].name, u64(an->defines.items[i].value), &ok);
  put_field(&b, "defines", defines, false);
  put_field(&b, "verdict", vxp_json__text(an->error_count ? "rejected" : "admitted"), false);
  put_field(&b, "error_count", json_integer((json_int_t)an->error_count), false);
  put_field(&b, "warning_count", json_integer((json_int_t)an->warning_count), false);

  json_t *diags = json_array();
  for (size_t i = 0; diags && i < an->diags.len; i++) {
    if (vxp_ctx__interrupted(an->ctx)) { /* the caller reports the cancellation */
      ok = false;
      break;
    }
    if (json_array_append_new(diags, diagnostic_json(&an->diags.items[i], &ok)) != 0) ok = false;
  }
  put_array_field(&b, "diagnostics", diags, false);
  json_t *routes = json_array();
  for (size_t i = 0; routes && i < an->routes.len; i++) {
    if (json_array_append_new(routes, route_json(&an->routes.items[i], &ok)) != 0) ok = false;
  }
  put_array_field(&b, "routes", routes, false);
  json_t *sets = json_array();
  for (size_t i = 0; sets && i < an->resident_sets.len && ok; i++) {
    json_t *rs = resident_set_json(an, &an->resident_sets.items[i], &ok);
    if (json_array_append_new(sets, rs) != 0) ok = false;
  }
  put_array_field(&b, "resident_sets", sets, false);
  json_t *trees = json_array();
  for (size_t i = 0; trees && i < an->call_trees.len; i++) {
    if (json_array_append_new(trees, call_tree_json(&an->call_trees.items[i], &ok)) != 0)
      ok = false;
  }
  put_array_field(&b, "call_tree", trees, false);
  json_t *unresolved = json_array();
  for (size_t i = 0; unresolved && i < an->unresolved.len; i++) {
    if (json_array_append_new(unresolved, unresolved_json(&an->unresolved.items[i], &ok)) != 0)
      ok = false;
  }
  put_array_field(&b, "unresolved_calls", unresolved, true);
  puts_(&b, "}\n");
  unmark_big(&b);
  if (b.failed || !ok) {
    vxp_ctx__free(an->ctx, b.data);
    return NULL;
  }
  *len = b.len;
  return b.data;
}

const char *vxp_analysis_json(vxp_analysis *an, size_t *len) {
  /* Each call reports its own outcome; a cached report is only read (vxp_ctx__begin_read),
   * so a shared analysis' report may be read from several threads (make tsan). */
  if (an && an->json)
    vxp_ctx__begin_read(an->ctx);
  else
    vxp_ctx__begin(an ? an->ctx : NULL);
  if (!an) return NULL;
  if (!an->json) {
    an->json = vxp_ctx__interrupted(an->ctx) ? NULL : vxp_report__json(an, &an->json_len);
    if (!an->json) {
      if (vxp_ctx__interrupted(an->ctx))
        vxp_ctx__cancelled(an->ctx);
      else
        vxp_ctx__nomem(an->ctx);
      return NULL;
    }
  }
  if (len) *len = an->json_len;
  return an->json;
}
