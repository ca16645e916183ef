/* SPDX-License-Identifier: Apache-2.0 */
/* json.c - the analysis' JSON report (vxp_analysis_json), streamed by the reports' JSON
 * writer (jsonw.c) straight into one buffer: no document tree is built, so the report costs
 * its own text and no more (a jansson tree of the same report took 10 to 100 times it).
 *
 * Layout: the top-level object has one key per line and every record of an array on a
 * line of its own, so that line-oriented tools (grep, FileCheck-style checks written for
 * vxc's --diagnostics-json) read it as they read vxc's output; inside a line the text is
 * what jansson's compact dump with JSON_ENSURE_ASCII and JSON_REAL_PRECISION(15) wrote
 * (", " and ": " between items, \uXXXX outside ASCII), which the report was before it was
 * streamed. Key order is fixed. */
#include <math.h>

#include "analysis_data.h"
#include "context.h"
#include "formula.h"
#include "machine.h"
#include "program.h"
#include "report.h"
#include "source.h"

#define VXP__JSON_SCHEMA "vxpeak-report-v1"
/* Hops printed per call-tree path (see call_tree_json). */
#define VXP__JSON_MAX_HOPS 16

static void key_string(vxp_jw *j, const char *key, const char *s) {
  vxp_jw__key(j, key);
  vxp_jw__string(j, s);
}

static void key_u64(vxp_jw *j, const char *key, uint64_t v) {
  vxp_jw__key(j, key);
  vxp_jw__u64(j, v);
}

static void key_bool(vxp_jw *j, const char *key, bool v) {
  vxp_jw__key(j, key);
  vxp_jw__bool(j, v);
}

static void key_null(vxp_jw *j, const char *key) {
  vxp_jw__key(j, key);
  vxp_jw__null(j);
}

static void key_nullable_u64(vxp_jw *j, const char *key, bool known, uint64_t v) {
  vxp_jw__key(j, key);
  if (known)
    vxp_jw__u64(j, v);
  else
    vxp_jw__null(j);
}

/* Line and column, 1-based. */
static void key_position(vxp_jw *j, vxp_range r) {
  key_u64(j, "line", (uint64_t)r.start.line + 1);
  key_u64(j, "column", (uint64_t)r.start.column + 1);
}

/* Utilization: total/capacity rounded to 4 decimals; whole numbers print without ".0",
 * as vxc prints them. */
static void key_utilization(vxp_jw *j, uint64_t total, uint64_t capacity) {
  vxp_jw__key(j, "utilization");
  double u = capacity ? round((double)total / (double)capacity * 10000.0) / 10000.0 : 0;
  if (u == floor(u) && u < 9e15)
    vxp_jw__u64(j, (uint64_t)u);
  else
    vxp_jw__real15(j, u);
}

static void diagnostic_json(vxp_jw *j, const vxp_diagnostic *d) {
  vxp_jw__open(j, '{');
  key_string(j, "level",
             d->severity == VXP_SEVERITY_ERROR     ? "error"
             : d->severity == VXP_SEVERITY_WARNING ? "warning"
                                                   : "note");
  key_string(j, "code", d->code[0] ? d->code : NULL);
  key_string(j, "message", d->message);
  if (d->has_range) key_position(j, d->range);
  if (d->capacity.present) {
    const vxp_capacity_facts *c = &d->capacity;
    vxp_jw__key(j, "capacity");
    vxp_jw__open(j, '{');
    key_string(j, "space", c->space);
    key_u64(j, "required_bytes", c->required_bytes);
    key_u64(j, "available_bytes", c->available_bytes);
    /* margin = available - required, signed: it is negative when over capacity. */
    vxp_jw__key(j, "margin_bytes");
    vxp_jw__i64(j, c->available_bytes >= c->required_bytes
                       ? (int64_t)(c->available_bytes - c->required_bytes)
                       : -(int64_t)(c->required_bytes - c->available_bytes));
    key_nullable_u64(j, "tiles", c->has_tiles, c->tiles);
    vxp_jw__close(j, '}');
  }
  /* Extensions to vxc's record: the file (a diagnostic can be in a machine file), the
   * function or generic instance it is about, notes. */
  if (d->has_range) key_string(j, "file", d->source->label);
  if (d->function) key_string(j, "function", d->function);
  if (d->notes.len) {
    vxp_jw__key(j, "notes");
    vxp_jw__open(j, '[');
    for (size_t i = 0; i < d->notes.len; i++) {
      const vxp_diagnostic *n = &d->notes.items[i];
      vxp_jw__open(j, '{');
      key_string(j, "kind", n->is_help ? "help" : "note");
      key_string(j, "message", n->message);
      if (n->has_range) key_position(j, n->range);
      vxp_jw__close(j, '}');
    }
    vxp_jw__close(j, ']');
  }
  vxp_jw__close(j, '}');
}

/* A record's scope chain, innermost first: [{"id", "kind", "line", "column"}...]. */
static void scopes_json(vxp_jw *j, const vxp_record *r) {
  vxp_jw__key(j, "scopes");
  vxp_jw__open(j, '[');
  for (const vxp_scope *sc = vxp_record_scope(r); sc; sc = vxp_scope_parent(sc)) {
    vxp_jw__open(j, '{');
    key_u64(j, "id", vxp_scope_id(sc));
    key_string(j, "kind", vxp_scope_kind(sc));
    key_position(j, vxp_scope_range(sc));
    vxp_jw__close(j, '}');
  }
  vxp_jw__close(j, ']');
}

/* A tile of a resident set; `all`: the list of every tile, which says whether it is live. */
static void record_json(vxp_jw *j, const vxp_record *r, bool all) {
  vxp_jw__open(j, '{');
  key_string(j, "binding", r->binding_name);
  key_u64(j, "bytes", r->bytes);
  if (all) key_bool(j, "live_at_peak", r->live_at_peak);
  key_u64(j, "depth", r->depth);
  key_position(j, r->range);
  scopes_json(j, r);
  vxp_jw__close(j, '}');
}

static void resident_set_json(vxp_jw *j, const vxp_analysis *an, const vxp_resident_set *rs,
                              const vxp_formula *formula) {
  vxp_jw__open(j, '{');
  key_string(j, "function", rs->function_name);
  key_string(j, "space", rs->space_name);
  key_u64(j, "total_bytes", rs->peak_bytes);
  key_u64(j, "capacity_bytes", rs->capacity_bytes);
  key_utilization(j, rs->peak_bytes, rs->capacity_bytes);
  key_u64(j, "tiles", rs->tiles);
  key_bool(j, "overcommit", rs->overcommit);
  key_nullable_u64(j, "allocated_bytes", rs->allocated_known, rs->allocated_bytes);
  key_u64(j, "record_count", rs->record_count);
  const vxp_formula_set *fs = vxp_formula__for_set(formula, rs);
  if (fs) vxp_formula__json_keys(j, formula, fs);
  const vxp_record *records = an->records.items;
  const uint32_t *set = an->set_records.items + rs->record_first;
  vxp_jw__key(j, "live_at_peak");
  vxp_jw__open(j, '[');
  for (size_t i = 0; i < rs->record_count; i++)
    if (records[set[i]].live_at_peak) record_json(j, &records[set[i]], false);
  vxp_jw__close(j, ']');
  /* Every tile of the set, live at the peak or not, with its scope chain: an embedder that
   * reads the JSON sees the structure of each placement, not only of the peak's. */
  vxp_jw__key(j, "records");
  vxp_jw__open(j, '[');
  for (size_t i = 0; i < rs->record_count; i++)
    record_json(j, &records[set[i]], true);
  vxp_jw__close(j, ']');
  vxp_jw__close(j, '}');
}

/* One route record, in vxc's key order, then vxpeak's additions (function, site). */
static void route_json(vxp_jw *j, const vxp_route *r) {
  vxp_jw__open(j, '{');
  size_t n = vxp_route_path_length(r);
  vxp_jw__key(j, "path");
  vxp_jw__open(j, '[');
  for (size_t i = 0; i < n; i++)
    vxp_jw__string(j, vxp_route_path_space(r, i));
  vxp_jw__close(j, ']');
  vxp_jw__key(j, "edges");
  vxp_jw__open(j, '[');
  for (size_t i = 0; i + 1 < n; i++) {
    uint64_t cost = 0;
    vxp_jw__open(j, '{');
    key_string(j, "from", vxp_route_path_space(r, i));
    key_string(j, "to", vxp_route_path_space(r, i + 1));
    bool known = vxp_route_edge_cost(r, i, &cost);
    key_nullable_u64(j, "cost", known, cost);
    vxp_jw__close(j, '}');
  }
  vxp_jw__close(j, ']');
  uint64_t bytes = 0, derived = 0;
  bool has_bytes = vxp_route_bytes(r, &bytes), has_cost = vxp_route_derived_cost(r, &derived);
  key_u64(j, "total_cost", vxp_route_total_cost(r));
  key_nullable_u64(j, "bytes", has_bytes, bytes);
  key_nullable_u64(j, "derived_cost", has_cost, derived);
  key_string(j, "derived_unit", vxp_route_derived_unit(r));
  key_string(j, "cost_source", vxp_route_cost_source(r));
  key_string(j, "composition", vxp_route_composition(r));
  /* Traffic of the builtin copy: it reads the tile from where it is and writes it where
   * it goes, once, exactly: the hop's own ends, the path's first and last spaces. */
  if (!r->traffic_absent_reason) {
    /* A hop a lowering moves counts what its body's raw:: calls move (vxc's
     * lowering_body), per end of the lowered edge. */
    uint64_t read[2] = {r->lowered ? r->from_read : bytes, r->lowered ? r->to_read : 0};
    uint64_t written[2] = {r->lowered ? r->from_written : 0, r->lowered ? r->to_written : bytes};
    vxp_jw__key(j, "traffic");
    vxp_jw__open(j, '[');
    for (int dst = 0; dst < 2; dst++) {
      vxp_jw__open(j, '{');
      key_string(j, "space", vxp_analysis__route_end(r, dst));
      key_u64(j, "read_bytes", read[dst]);
      key_u64(j, "written_bytes", written[dst]);
      vxp_jw__close(j, '}');
    }
    vxp_jw__close(j, ']');
    key_string(j, "traffic_source", r->lowered ? "lowering_body" : "builtin_copy");
    key_bool(j, "traffic_exact", !r->lowered || r->traffic_exact);
    key_null(j, "traffic_absent_reason");
  } else {
    key_null(j, "traffic");
    key_null(j, "traffic_source");
    key_null(j, "traffic_exact");
    key_string(j, "traffic_absent_reason", r->traffic_absent_reason);
  }
  key_string(j, "function", vxp_route_function(r));
  key_position(j, r->range);
  /* The tile the hop places (vxp_route_record): its space, binding and bytes. */
  const vxp_record *placed = vxp_route_record(r);
  vxp_jw__key(j, "tile");
  if (placed) {
    vxp_jw__open(j, '{');
    key_string(j, "space", placed->space_name);
    key_string(j, "binding", placed->binding_name);
    key_u64(j, "bytes", placed->bytes);
    vxp_jw__close(j, '}');
  } else {
    vxp_jw__null(j);
  }
  vxp_jw__close(j, '}');
}

/* One (function, space) of the call tree: own peak, total, and the path realising it. */
static void call_tree_json(vxp_jw *j, const vxp_call_tree *ct) {
  vxp_jw__open(j, '{');
  key_string(j, "function", vxp_call_tree_function(ct));
  key_string(j, "space", vxp_call_tree_space(ct));
  key_u64(j, "self_peak_bytes", vxp_call_tree_self_peak_bytes(ct));
  key_u64(j, "total_bytes", vxp_call_tree_total_bytes(ct));
  key_u64(j, "capacity_bytes", vxp_call_tree_capacity_bytes(ct));
  key_utilization(j, vxp_call_tree_total_bytes(ct), vxp_call_tree_capacity_bytes(ct));
  key_bool(j, "bounded", vxp_call_tree_bounded(ct));
  /* The path walks hop by hop, once: a chain of n functions would print n^2 hops over the
   * whole report, so each path is cut after VXP__JSON_MAX_HOPS (path_complete: false). */
  const vxp_analysis *an = ct->owner;
  size_t spaces = an->view.spaces.len, hops = 0;
  uint32_t fn = ct->function;
  vxp_jw__key(j, "path");
  vxp_jw__open(j, '[');
  for (;;) {
    uint32_t c = an->fn_spaces.items[(size_t)fn * spaces + ct->space].best_call;
    if (c == VXP_NONE || hops == VXP__JSON_MAX_HOPS) break;
    const vxp_call_site *site = &an->calls.items[c];
    vxp_jw__open(j, '{');
    key_string(j, "function", an->functions.items[site->caller].name);
    key_string(j, "callee", an->functions.items[site->callee].name);
    key_position(j, vxp_source__range(an->prog->src, site->start_byte, site->end_byte));
    key_u64(j, "held_bytes", an->held.items[(size_t)c * spaces + ct->space]);
    vxp_jw__close(j, '}');
    hops++;
    fn = site->callee;
  }
  vxp_jw__close(j, ']');
  key_bool(j, "path_complete", hops == vxp_call_tree_hop_count(ct));
  vxp_jw__close(j, '}');
}

static void unresolved_json(vxp_jw *j, const vxp_unresolved_call *u) {
  vxp_jw__open(j, '{');
  key_string(j, "function", vxp_unresolved_call_function(u));
  key_string(j, "callee", vxp_unresolved_call_callee(u));
  key_string(j, "reason", vxp_unresolved_call_reason(u));
  key_position(j, vxp_unresolved_call_range(u));
  vxp_jw__close(j, '}');
}

/* The defines, {"NAME": value, ...}: a name given twice keeps its first place and its last
 * value, as a JSON object keeps one member per key. */
static void defines_json(vxp_jw *j, const vxp_analysis *an) {
  vxp_jw__key(j, "defines");
  vxp_jw__open(j, '{');
  for (size_t i = 0; i < an->defines.len; i++) {
    const char *name = an->defines.items[i].name;
    bool seen = false;
    for (size_t k = 0; k < i && !seen; k++)
      seen = strcmp(an->defines.items[k].name, name) == 0;
    if (seen) continue;
    uint64_t value = an->defines.items[i].value;
    for (size_t k = i + 1; k < an->defines.len; k++)
      if (strcmp(an->defines.items[k].name, name) == 0) value = an->defines.items[k].value;
    key_u64(j, name, value);
  }
  vxp_jw__close(j, '}');
}

/* The report into `sb`, spilled to `to` as it grows; false when cancelled (the caller
 * reports it). `sb->failed` says an append or a write failed. */
static bool render(const vxp_analysis *an, const vxp_formula *formula, vxp_sb *sb,
                   vxp_sb_sink *to) {
  vxp_context *ctx = an->ctx;
  vxp_jw j;
  vxp_jw__init(&j, ctx, sb, true);
  j.ascii = true;
  vxp_jw__open(&j, '{');
  key_string(&j, "schema", VXP__JSON_SCHEMA);
  key_string(&j, "file", an->prog->src->label);
  key_string(&j, "machine", an->machine ? an->machine->label : NULL);
  key_string(&j, "host", an->host ? an->host->label : NULL);
  defines_json(&j, an);
  key_string(&j, "verdict", an->error_count ? "rejected" : "admitted");
  key_u64(&j, "error_count", an->error_count);
  key_u64(&j, "warning_count", an->warning_count);
  bool cancelled = false;
  vxp_jw__key(&j, "diagnostics");
  vxp_jw__open(&j, '[');
  for (size_t i = 0; i < an->diags.len && !sb->failed; i++) {
    if (vxp_ctx__interrupted(ctx)) { /* the caller reports the cancellation */
      cancelled = true;
      break;
    }
    diagnostic_json(&j, &an->diags.items[i]);
    vxp_sb__spill(sb, to, false);
  }
  vxp_jw__close(&j, ']');
  vxp_jw__key(&j, "routes");
  vxp_jw__open(&j, '[');
  for (size_t i = 0; i < an->routes.len && !sb->failed; i++) {
    route_json(&j, &an->routes.items[i]);
    vxp_sb__spill(sb, to, false);
  }
  vxp_jw__close(&j, ']');
  vxp_jw__key(&j, "resident_sets");
  vxp_jw__open(&j, '[');
  for (size_t i = 0; i < an->resident_sets.len && !sb->failed; i++) {
    resident_set_json(&j, an, &an->resident_sets.items[i], formula);
    vxp_sb__spill(sb, to, false);
  }
  vxp_jw__close(&j, ']');
  vxp_jw__key(&j, "call_tree");
  vxp_jw__open(&j, '[');
  for (size_t i = 0; i < an->call_trees.len && !sb->failed; i++) {
    call_tree_json(&j, &an->call_trees.items[i]);
    vxp_sb__spill(sb, to, false);
  }
  vxp_jw__close(&j, ']');
  vxp_jw__key(&j, "unresolved_calls");
  vxp_jw__open(&j, '[');
  for (size_t i = 0; i < an->unresolved.len && !sb->failed; i++) {
    unresolved_json(&j, &an->unresolved.items[i]);
    vxp_sb__spill(sb, to, false);
  }
  vxp_jw__close(&j, ']');
  vxp_jw__close(&j, '}');
  if (!cancelled) vxp_sb__spill(sb, to, true);
  return !cancelled;
}

char *vxp_report__json(const vxp_analysis *an, size_t *len) {
  vxp_sb sb = {0};
  vxp_sb_sink none = {NULL, NULL, false};
  if (!render(an, NULL, &sb, &none)) {
    vxp_sb__free(an->ctx, &sb);
    return NULL;
  }
  return vxp_sb__detach(an->ctx, &sb, len);
}

const char *vxp_analysis_json(vxp_analysis *an, size_t *len) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, NULL);

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

/* The report streamed, with `formula`'s peak formulas in its resident sets (NULL: none). */
static int json_write(const vxp_analysis *an, const vxp_formula *formula, vxp_write_fn write,
                      void *arg) {
  vxp_ctx__begin(an ? an->ctx : NULL);
  if (!an || !write || (formula && formula->an != an))
    return an ? vxp_ctx__error(an->ctx, VXP_EINVAL, "invalid argument to vxp_analysis_json_write")
              : VXP_EINVAL;
  vxp_context *ctx = an->ctx;
  if (an->json && !formula) /* rendered already (vxp_analysis_json): that text, as it is */
    return an->json_len && write(arg, an->json, an->json_len) != 0
               ? vxp_ctx__error(ctx, VXP_EIO, "vxp_analysis_json_write: the writer failed")
               : VXP_OK;
  if (vxp_ctx__interrupted(ctx)) return vxp_ctx__cancelled(ctx);
  vxp_sb sb = {0};
  vxp_sb_sink to = {write, arg, false};
  bool done = render(an, formula, &sb, &to);
  bool failed = sb.failed;
  vxp_sb__free(ctx, &sb);
  if (to.refused) return vxp_ctx__error(ctx, VXP_EIO, "vxp_analysis_json_write: the writer failed");
  if (!done) return vxp_ctx__cancelled(ctx);
  return failed ? vxp_ctx__nomem(ctx) : VXP_OK;
}

int vxp_analysis_json_write(const vxp_analysis *an, vxp_write_fn write, void *arg) {
  VXP__TAG_RC(NULL, an, VXP_TAG_ANALYSIS);
  return json_write(an, NULL, write, arg);
}

int vxp_analysis_json_write_symbolic(const vxp_analysis *an, const vxp_formula *f,
                                     vxp_write_fn write, void *arg) {
  VXP__TAG_RC(NULL, an, VXP_TAG_ANALYSIS);
  VXP__TAG_RC(NULL, f, VXP_TAG_FORMULA);
  return json_write(an, f, write, arg);
}
