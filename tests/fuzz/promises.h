/* SPDX-License-Identifier: Apache-2.0 */
/* promises.h - what include/vxpeak.h promises of the accessors the harnesses call, checked on
 * every input: counts and the NULL past them, non-NULL borrowed strings, values inside their
 * enums, ranges inside their sources, a route of at least two spaces whose edges weigh its
 * total, a text whose length is the one reported. A broken promise is a finding as a crash
 * is: the harness aborts (a route of one space went unseen by harnesses that only rendered
 * the reports, which print whatever the accessors say).
 *
 * Only the public header is used; each check names the promise it holds. Included by the
 * harnesses of tests/fuzz/ (one translation unit each, so everything here is static). */
#ifndef VXPEAK_FUZZ_PROMISES_H
#define VXPEAK_FUZZ_PROMISES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vxpeak.h"

static inline void promise_broken(const char *what, const char *file, int line) {
  fprintf(stderr, "%s:%d: vxpeak.h promise broken: %s\n", file, line, what);
  abort();
}

#define PROMISE(cond) ((cond) ? (void)0 : promise_broken(#cond, __FILE__, __LINE__))

/* A borrowed string the header says is never NULL here, and is NUL-terminated. */
#define PROMISE_TEXT(s) (PROMISE((s) != NULL), (void)strlen(s))

/* Two texts both NULL, or equal. */
static inline int promise_same_text(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

/* A range (`vxp_range`: half-open, byte offsets) inside a text of `len` bytes. */
static inline void promise_range(vxp_range r, size_t len) {
  PROMISE(r.start_byte <= r.end_byte);
  PROMISE(r.end_byte <= len);
  PROMISE(r.start.line < r.end.line ||
          (r.start.line == r.end.line && r.start.column <= r.end.column));
}

/* A rendered text and the length reported with it. */
static inline void promise_text_len(const char *text, size_t len) {
  PROMISE(text != NULL);
  PROMISE(strlen(text) == len); /* no NUL inside what the caller is told to take whole */
}

/* ------------------------------------------------------------------ diagnostics */

static inline void promise_diagnostic_at(const vxp_diagnostic *d, int note) {
  PROMISE(d != NULL);
  vxp_severity sev = vxp_diagnostic_severity(d);
  PROMISE(sev == VXP_SEVERITY_NOTE || sev == VXP_SEVERITY_WARNING || sev == VXP_SEVERITY_ERROR);
  PROMISE((sev == VXP_SEVERITY_NOTE) == (note != 0)); /* a note, and only a note, is a NOTE */
  const char *code = vxp_diagnostic_code(d);
  if (code) PROMISE(code[0] != '\0');
  PROMISE_TEXT(vxp_diagnostic_message(d));
  const char *fn = vxp_diagnostic_function(d);
  if (fn) PROMISE(fn[0] != '\0');
  int has_range = vxp_diagnostic_has_range(d);
  PROMISE(has_range == 0 || has_range == 1);
  const vxp_source *src = vxp_diagnostic_source(d);
  vxp_range r = vxp_diagnostic_range(d);
  if (has_range) {
    PROMISE(src != NULL);
    size_t len = 0;
    (void)vxp_source_text(src, &len);
    promise_range(r, len);
  } else {
    /* "The source the range refers to, or NULL when there is no range"; "all zero". */
    PROMISE(src == NULL);
    PROMISE(r.start_byte == 0 && r.end_byte == 0 && r.start.line == 0 && r.start.column == 0 &&
            r.end.line == 0 && r.end.column == 0);
  }
  int help = vxp_diagnostic_is_help(d);
  PROMISE(help == 0 || help == 1);
  if (!note) PROMISE(help == 0); /* "0 for a plain note or a diagnostic" */
  size_t notes = vxp_diagnostic_note_count(d);
  for (size_t i = 0; i < notes; i++)
    promise_diagnostic_at(vxp_diagnostic_note(d, i), 1);
  PROMISE(vxp_diagnostic_note(d, notes) == NULL);
  /* vxp_diagnostic_render is snprintf-like: the length first, then that many bytes. */
  if (!note) {
    size_t want = vxp_diagnostic_render(d, 0, NULL, 0);
    char *buf = malloc(want + 1);
    if (!buf) abort();
    PROMISE(vxp_diagnostic_render(d, 0, buf, want + 1) == want);
    PROMISE(strlen(buf) == want);
    free(buf);
  }
}

static inline void promise_diagnostic(const vxp_diagnostic *d) { promise_diagnostic_at(d, 0); }

static inline void promise_program(const vxp_program *prog) {
  size_t n = vxp_program_diagnostic_count(prog);
  for (size_t i = 0; i < n; i++)
    promise_diagnostic(vxp_program_diagnostic(prog, i));
  PROMISE(vxp_program_diagnostic(prog, n) == NULL);
}

static inline void promise_machine(const vxp_machine *m) {
  PROMISE_TEXT(vxp_machine_label(m));
  size_t n = vxp_machine_diagnostic_count(m);
  for (size_t i = 0; i < n; i++)
    promise_diagnostic(vxp_machine_diagnostic(m, i));
  PROMISE(vxp_machine_diagnostic(m, n) == NULL);
}

/* ------------------------------------------------------------------ the analysis' tables */

static inline void promise_scope_chain(const vxp_record *rec) {
  const vxp_scope *sc = vxp_record_scope(rec);
  PROMISE(sc != NULL); /* "never NULL for a record of an analysis" */
  uint32_t releasing = 0, steps = 0;
  for (; vxp_scope_parent(sc); sc = vxp_scope_parent(sc)) {
    vxp_scope_type t = vxp_scope_type_of(sc);
    PROMISE(t > VXP_SCOPE_FUNCTION && t <= VXP_SCOPE_BLOCK); /* only the top is the function's */
    PROMISE(vxp_scope_kind(sc) != NULL && strcmp(vxp_scope_kind(sc), vxp_scope_type_name(t)) == 0);
    int rel = vxp_scope_releases(sc);
    PROMISE(rel == (t == VXP_SCOPE_IF || t == VXP_SCOPE_ELSE || t == VXP_SCOPE_FOR ||
                    t == VXP_SCOPE_LOOP));
    releasing += (uint32_t)rel;
    PROMISE(strcmp(vxp_scope_function(sc), vxp_record_function(rec)) == 0);
    PROMISE(++steps < 1u << 20); /* a chain, not a cycle */
  }
  /* "Follow vxp_scope_parent to the function for the whole chain." */
  PROMISE(vxp_scope_type_of(sc) == VXP_SCOPE_FUNCTION);
  PROMISE(strcmp(vxp_scope_kind(sc), "function") == 0);
  PROMISE(strcmp(vxp_scope_function(sc), vxp_record_function(rec)) == 0);
  /* "Number of releasing blocks enclosing the placement" */
  PROMISE(vxp_record_scope_depth(rec) == releasing);
}

static inline void promise_record(const vxp_record *rec, size_t program_len) {
  PROMISE(rec != NULL);
  PROMISE_TEXT(vxp_record_function(rec));
  PROMISE_TEXT(vxp_record_space(rec));
  const char *binding = vxp_record_binding(rec), *role = vxp_record_role(rec);
  if (binding) PROMISE(binding[0] != '\0');
  if (role) PROMISE(role[0] != '\0');
  promise_range(vxp_record_range(rec), program_len);
  int live = vxp_record_live_at_peak(rec);
  PROMISE(live == 0 || live == 1);
  uint32_t last = 0;
  if (vxp_record_release_order(rec, &last)) PROMISE(last >= vxp_record_order(rec));
  promise_scope_chain(rec);
}

/* The weights of a route's edges add up to its total ("an edge without an integer weight
 * counts 1"; the routing weight saturates). */
static inline void promise_route(const vxp_route *r, size_t program_len) {
  PROMISE(r != NULL);
  PROMISE_TEXT(vxp_route_function(r));
  size_t n = vxp_route_path_length(r);
  PROMISE(n >= 2); /* "at least 2" */
  for (size_t i = 0; i < n; i++)
    PROMISE_TEXT(vxp_route_path_space(r, i));
  PROMISE(vxp_route_path_space(r, n) == NULL);
  uint64_t sum = 0, w = 0;
  int saturated = 0;
  for (size_t i = 0; i + 1 < n; i++) {
    uint64_t edge = vxp_route_edge_cost(r, i, &w) ? w : 1;
    if (sum > UINT64_MAX - edge) saturated = 1;
    sum += edge;
  }
  PROMISE(!vxp_route_edge_cost(r, n - 1, &w)); /* there is no edge n - 1 */
  PROMISE(saturated ? vxp_route_total_cost(r) == UINT64_MAX : vxp_route_total_cost(r) == sum);
  uint64_t cost = 0;
  int derived = vxp_route_derived_cost(r, &cost);
  vxp_cost_unit unit = vxp_route_cost_unit(r);
  vxp_cost_basis basis = vxp_route_cost_basis(r);
  vxp_cost_composition comp = vxp_route_cost_composition(r);
  PROMISE(derived == 0 || derived == 1);
  PROMISE(derived == (unit != VXP_COST_UNIT_NONE));
  PROMISE(derived == (basis != VXP_COST_BASIS_NONE));
  PROMISE(unit == VXP_COST_UNIT_NONE || unit == VXP_COST_UNIT_PS || unit == VXP_COST_UNIT_CYCLES);
  PROMISE(basis == VXP_COST_BASIS_NONE || basis == VXP_COST_BASIS_LINK_RATE ||
          basis == VXP_COST_BASIS_CONTAINMENT);
  /* A link rate has no composition; a containment cost sums or takes the bottleneck. */
  PROMISE((basis == VXP_COST_BASIS_CONTAINMENT) == (comp != VXP_COST_COMPOSITION_NONE));
  PROMISE(comp == VXP_COST_COMPOSITION_NONE || comp == VXP_COST_COMPOSITION_SUM ||
          comp == VXP_COST_COMPOSITION_BOTTLENECK);
  PROMISE(promise_same_text(vxp_route_derived_unit(r), vxp_cost_unit_name(unit)));
  PROMISE(promise_same_text(vxp_route_cost_source(r), vxp_cost_basis_name(basis)));
  PROMISE(promise_same_text(vxp_route_composition(r), vxp_cost_composition_name(comp)));
  promise_range(vxp_route_range(r), program_len);
  /* "The record of the tile this hop places": in the hop's destination, by its function. */
  const vxp_record *rec = vxp_route_record(r);
  if (rec) {
    PROMISE(strcmp(vxp_record_space(rec), vxp_route_path_space(r, n - 1)) == 0);
    PROMISE(strcmp(vxp_record_function(rec), vxp_route_function(r)) == 0);
  }
}

static inline void promise_resident_set(const vxp_resident_set *rs) {
  PROMISE(rs != NULL);
  PROMISE_TEXT(vxp_resident_set_function(rs));
  PROMISE_TEXT(vxp_resident_set_space(rs));
  PROMISE(vxp_resident_set_tile_count(rs) >= 1); /* "at least 1" */
  int over = vxp_resident_set_overcommit(rs);
  PROMISE(over == 0 || over == 1);
  size_t n = vxp_resident_set_record_count(rs);
  for (size_t i = 0; i < n; i++) {
    const vxp_record *rec = vxp_resident_set_record(rs, i);
    PROMISE(rec != NULL);
    PROMISE(strcmp(vxp_record_space(rec), vxp_resident_set_space(rs)) == 0);
    PROMISE(strcmp(vxp_record_function(rec), vxp_resident_set_function(rs)) == 0);
    /* "in program order" */
    if (i) PROMISE(vxp_record_order(vxp_resident_set_record(rs, i - 1)) <= vxp_record_order(rec));
  }
  PROMISE(vxp_resident_set_record(rs, n) == NULL);
}

static inline void promise_call_tree(const vxp_call_tree *ct, size_t program_len) {
  PROMISE(ct != NULL);
  PROMISE_TEXT(vxp_call_tree_function(ct));
  PROMISE_TEXT(vxp_call_tree_space(ct));
  int bounded = vxp_call_tree_bounded(ct);
  PROMISE(bounded == 0 || bounded == 1);
  /* A total is the largest of the own peak and what the calls add. */
  if (bounded) PROMISE(vxp_call_tree_total_bytes(ct) >= vxp_call_tree_self_peak_bytes(ct));
  size_t hops = vxp_call_tree_hop_count(ct);
  PROMISE((vxp_call_tree_callee(ct) != NULL) == (hops > 0));
  if (hops == 0) PROMISE(vxp_call_tree_held_bytes(ct) == 0); /* "0 without one" */
  if (hops) promise_range(vxp_call_tree_call_range(ct), program_len);
  /* The path is the walk of vxp_call_tree_next, hop_count calls long. */
  size_t walked = 0;
  for (const vxp_call_tree *t = ct; vxp_call_tree_callee(t) && walked <= hops;
       t = vxp_call_tree_next(t)) {
    PROMISE(strcmp(vxp_call_tree_space(t), vxp_call_tree_space(ct)) == 0);
    walked++;
    if (walked < hops) PROMISE(vxp_call_tree_next(t) != NULL);
  }
  PROMISE(walked == hops);
}

/* Everything an analysis lends, and its two cached renderings. */
static inline void promise_analysis(vxp_analysis *an, size_t program_len) {
  size_t nd = vxp_analysis_diagnostic_count(an), errors = 0, warnings = 0;
  for (size_t i = 0; i < nd; i++) {
    const vxp_diagnostic *d = vxp_analysis_diagnostic(an, i);
    promise_diagnostic(d);
    errors += vxp_diagnostic_severity(d) == VXP_SEVERITY_ERROR;
    warnings += vxp_diagnostic_severity(d) == VXP_SEVERITY_WARNING;
  }
  PROMISE(vxp_analysis_diagnostic(an, nd) == NULL);
  PROMISE(vxp_analysis_error_count(an) == errors);
  PROMISE(vxp_analysis_warning_count(an) == warnings);
  PROMISE(vxp_analysis_admitted(an) == (errors == 0)); /* "admitted (no error diagnostic)" */

  size_t nf = vxp_analysis_function_count(an);
  for (size_t i = 0; i < nf; i++) {
    const char *f = vxp_analysis_function(an, i);
    PROMISE_TEXT(f);
    PROMISE(f[0] != '\0');
  }
  PROMISE(vxp_analysis_function(an, nf) == NULL);

  size_t nr = vxp_analysis_record_count(an);
  for (size_t i = 0; i < nr; i++)
    promise_record(vxp_analysis_record(an, i), program_len);
  PROMISE(vxp_analysis_record(an, nr) == NULL);

  size_t ns = vxp_analysis_resident_set_count(an);
  for (size_t i = 0; i < ns; i++)
    promise_resident_set(vxp_analysis_resident_set(an, i));
  PROMISE(vxp_analysis_resident_set(an, ns) == NULL);

  size_t nroutes = vxp_analysis_route_count(an);
  for (size_t i = 0; i < nroutes; i++)
    promise_route(vxp_analysis_route(an, i), program_len);
  PROMISE(vxp_analysis_route(an, nroutes) == NULL);

  size_t nt = vxp_analysis_call_tree_count(an);
  for (size_t i = 0; i < nt; i++)
    promise_call_tree(vxp_analysis_call_tree(an, i), program_len);
  PROMISE(vxp_analysis_call_tree(an, nt) == NULL);

  size_t nu = vxp_analysis_unresolved_call_count(an);
  for (size_t i = 0; i < nu; i++) {
    const vxp_unresolved_call *u = vxp_analysis_unresolved_call(an, i);
    PROMISE(u != NULL);
    PROMISE_TEXT(vxp_unresolved_call_function(u));
    PROMISE_TEXT(vxp_unresolved_call_reason(u));
    promise_range(vxp_unresolved_call_range(u), program_len);
  }
  PROMISE(vxp_analysis_unresolved_call(an, nu) == NULL);

  /* Rendered and cached: the same text again, with its length. */
  size_t len = 0, again = 0;
  const char *json = vxp_analysis_json(an, &len);
  promise_text_len(json, len);
  PROMISE(json[0] == '{');
  PROMISE(vxp_analysis_json(an, &again) == json && again == len);
  const char *sarif = vxp_analysis_sarif(an, &len);
  promise_text_len(sarif, len);
  PROMISE(vxp_analysis_sarif(an, &again) == sarif && again == len);
}

/* ------------------------------------------------------------------ rooflines */

static inline void promise_roofline(const vxp_roofline *rf, const char *function) {
  PROMISE(rf != NULL);
  PROMISE(vxp_roofline_function(rf) != NULL && strcmp(vxp_roofline_function(rf), function) == 0);
  vxp_certainty traffic = vxp_roofline_traffic(rf), ops = vxp_roofline_ops_status(rf);
  PROMISE(vxp_certainty_name(traffic) != NULL);
  PROMISE(vxp_certainty_name(ops) != NULL);
  if (traffic == VXP_CERTAINTY_UNKNOWN) PROMISE_TEXT(vxp_roofline_reason(rf));
  if (ops == VXP_CERTAINTY_UNKNOWN) PROMISE_TEXT(vxp_roofline_ops_reason(rf));
  size_t n = vxp_roofline_space_count(rf);
  for (size_t i = 0; i < n; i++) {
    PROMISE_TEXT(vxp_roofline_space_name(rf, i));
    uint64_t written = 0;
    PROMISE(vxp_roofline_space_bytes(rf, i, VXP_TRAFFIC_NO_REUSE, &written) ==
            vxp_roofline_space_read_bytes(rf, i));
    PROMISE(written == vxp_roofline_space_written_bytes(rf, i));
  }
  PROMISE(vxp_roofline_space_name(rf, n) == NULL);
  PROMISE(vxp_roofline_space_read_bytes(rf, n) == 0 &&
          vxp_roofline_space_written_bytes(rf, n) == 0);
  size_t nb = vxp_roofline_buffer_count(rf);
  for (size_t i = 0; i < nb; i++) {
    PROMISE_TEXT(vxp_roofline_buffer_name(rf, i));
    PROMISE_TEXT(vxp_roofline_buffer_space(rf, i));
    /* Compulsory traffic is min(no-reuse bytes, the tile's bytes). */
    uint64_t wc = 0, wn = 0;
    PROMISE(vxp_roofline_buffer_bytes(rf, i, VXP_TRAFFIC_COMPULSORY, &wc) <=
            vxp_roofline_buffer_bytes(rf, i, VXP_TRAFFIC_NO_REUSE, &wn));
    PROMISE(wc <= wn);
  }
  PROMISE(vxp_roofline_buffer_name(rf, nb) == NULL);
  size_t nst = vxp_roofline_streamed_count(rf);
  for (size_t i = 0; i < nst; i++)
    PROMISE(vxp_roofline_streamed_record(rf, i) != NULL);
  PROMISE(vxp_roofline_streamed_record(rf, nst) == NULL);
  uint64_t t = 0;
  if (nst == 0) PROMISE(!vxp_roofline_stream_time_ps(rf, &t)); /* "0 when there are none" */
  if (vxp_roofline_time_ps(rf, &t)) PROMISE_TEXT(vxp_roofline_bound_space(rf));
  size_t types = vxp_roofline_op_type_count(rf);
  for (size_t i = 0; i < types; i++)
    PROMISE_TEXT(vxp_roofline_op_type(rf, i));
  PROMISE(vxp_roofline_op_type(rf, types) == NULL);
  uint64_t compute = 0;
  int has_compute = vxp_roofline_compute_time_ps(rf, &compute);
  PROMISE(has_compute == (vxp_roofline_compute_reason(rf) == NULL)); /* "NULL when there is one" */
  for (int m = 0; m < 2; m++) {
    vxp_traffic_model model = m ? VXP_TRAFFIC_NO_REUSE : VXP_TRAFFIC_COMPULSORY;
    uint64_t memory = 0, call = 0;
    int has_memory = vxp_roofline_memory_time_ps(rf, model, &memory);
    int has_call = vxp_roofline_call_time_ps(rf, model, &call);
    vxp_bound bound = vxp_roofline_bound(rf, model);
    /* "VXP_BOUND_NONE when either is missing"; the call time is the larger of the two. */
    PROMISE(has_call == (has_memory && has_compute));
    PROMISE((bound == VXP_BOUND_NONE) == !has_call);
    if (has_call) {
      PROMISE(call == (memory >= compute ? memory : compute));
      PROMISE(bound == (memory >= compute ? VXP_BOUND_MEMORY : VXP_BOUND_COMPUTE));
    }
    if (has_memory) PROMISE_TEXT(vxp_roofline_memory_bound_space(rf, model));
  }
}

/* The roofline of every analysed function, checked. */
static inline void promise_rooflines(vxp_context *ctx, const vxp_analysis *an) {
  for (size_t i = 0; i < vxp_analysis_function_count(an); i++) {
    vxp_roofline *rf = NULL;
    const char *fn = vxp_analysis_function(an, i);
    if (vxp_roofline_new(&rf, ctx, an, fn) == VXP_OK) promise_roofline(rf, fn);
    vxp_roofline_free(rf);
  }
}

#endif
