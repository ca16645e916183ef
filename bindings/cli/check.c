/* SPDX-License-Identifier: Apache-2.0 */
/* check.c - `vxpeak check`: analyse a program against a machine and print the verdict
 * (text), the report (json) or the diagnostics for code scanning (sarif). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The report's numbers, written straight to `out` (format.c does the formatting). */
static void print_grouped(FILE *out, uint64_t v) {
  char buf[32];
  fputs(vxpeak_grouped(v, buf), out);
}

static void print_gib(FILE *out, uint64_t v) {
  char buf[32];
  fputs(vxpeak_binary(v, buf), out);
}

static void print_duration(FILE *out, uint64_t ps) {
  char buf[32];
  fputs(vxpeak_duration_fixed(ps, buf), out);
}

/* Whether two routes say the same thing (for folding a run of identical transfers). */
static bool same_route(const vxp_route *a, const vxp_route *b) {
  uint64_t x, y;
  if (strcmp(vxp_route_function(a), vxp_route_function(b)) != 0) return false;
  if (vxp_route_path_length(a) != vxp_route_path_length(b)) return false;
  for (size_t i = 0; i < vxp_route_path_length(a); i++) {
    if (strcmp(vxp_route_path_space(a, i), vxp_route_path_space(b, i)) != 0) return false;
  }
  int ba = vxp_route_bytes(a, &x), bb = vxp_route_bytes(b, &y);
  if (ba != bb || (ba && x != y)) return false;
  int ca = vxp_route_derived_cost(a, &x), cb = vxp_route_derived_cost(b, &y);
  if (ca != cb || (ca && (x != y || strcmp(vxp_route_derived_unit(a), vxp_route_derived_unit(b)))))
    return false;
  return true;
}

/* One line per run of identical consecutive routes:
 *   main: transfer at 17:21 routes CPU_DRAM -> HBM: 1,048,576 bytes in 33,288,127 ps
 *   (33.29 us, link_rate) */
static void print_routes(const vxp_analysis *an) {
  size_t n = vxp_analysis_route_count(an);
  for (size_t i = 0; i < n;) {
    const vxp_route *r = vxp_analysis_route(an, i);
    size_t run = 1;
    while (i + run < n && same_route(r, vxp_analysis_route(an, i + run)))
      run++;
    vxp_range first = vxp_route_range(r),
              last = vxp_route_range(vxp_analysis_route(an, i + run - 1));
    if (run == 1)
      printf("%s: transfer at %u:%u routes ", vxp_route_function(r), first.start.line + 1,
             first.start.column + 1);
    else
      printf("%s: %zu transfers (lines %u-%u) route ", vxp_route_function(r), run,
             first.start.line + 1, last.start.line + 1);
    for (size_t k = 0; k < vxp_route_path_length(r); k++)
      printf("%s%s", k ? " -> " : "", vxp_route_path_space(r, k));
    uint64_t bytes, cost;
    const char *each = run > 1 ? " each" : "";
    if (vxp_route_bytes(r, &bytes)) {
      printf(": ");
      print_grouped(stdout, bytes);
      printf(" bytes%s", each);
    } else {
      printf(": size not static");
    }
    if (vxp_route_derived_cost(r, &cost)) {
      printf(" in ");
      print_grouped(stdout, cost);
      bool ps = strcmp(vxp_route_derived_unit(r), "ps") == 0;
      printf(" %s%s (", ps ? "ps" : "cycles", each);
      if (ps) {
        print_duration(stdout, cost);
        printf(", ");
      }
      printf("%s)", vxp_route_cost_source(r));
    } else if (vxp_route_bytes(r, NULL)) {
      printf(", no derived cost (no rate on the link, no bandwidths along the spaces)");
    }
    printf("\n");
    i += run;
  }
}

/* `v` bytes in the binary unit `unit` (1 GiB = 1073741824, ...), two decimals. */
static void print_in_unit(FILE *out, uint64_t v, uint64_t scale, const char *unit) {
  fprintf(out, "%.2f %s", (double)v / (double)scale, unit);
}

/* A group of tiles live at the peak: those at function scope with one size, or those in the
 * releasing block at one depth (the tiles live at a peak lie on one chain of open blocks,
 * so there is one such block per depth). */
typedef struct live_group {
  uint32_t depth;
  uint64_t tile_bytes; /* function scope: the size shared by the group */
  uint64_t total;
  size_t count;
  size_t first, last; /* record indices, for the names */
  uint32_t first_line, last_line;
} live_group;

static const char *binding_or_unbound(const vxp_record *r) {
  const char *b = vxp_record_binding(r);
  return b ? b : "(unbound)";
}

/* The tiles live at a resident set's peak, grouped, one line per group:
 *   12.06 GiB: 32 tiles of 404,750,336 bytes at function scope (w0 ... w31) */
static void print_breakdown(const vxp_analysis *an, const vxp_resident_set *rs) {
  if (vxp_resident_set_tile_count(rs) < 2) return;
  enum { MAX_GROUPS = 64 };
  live_group groups[MAX_GROUPS];
  size_t ngroups = 0, records = vxp_analysis_record_count(an);
  const char *fn = vxp_resident_set_function(rs), *space = vxp_resident_set_space(rs);
  for (size_t i = 0; i < records; i++) {
    const vxp_record *r = vxp_analysis_record(an, i);
    if (!vxp_record_live_at_peak(r) || strcmp(vxp_record_function(r), fn) != 0 ||
        strcmp(vxp_record_space(r), space) != 0)
      continue;
    uint32_t depth = vxp_record_scope_depth(r), line = vxp_record_range(r).start.line + 1;
    uint64_t bytes = vxp_record_bytes(r);
    live_group *g = NULL;
    for (size_t k = 0; k < ngroups && !g; k++) {
      if (groups[k].depth == depth && (depth > 0 || groups[k].tile_bytes == bytes)) g = &groups[k];
    }
    if (!g) {
      if (ngroups == MAX_GROUPS) continue;
      g = &groups[ngroups++];
      memset(g, 0, sizeof(*g));
      g->depth = depth;
      g->tile_bytes = bytes;
      g->first = i;
      g->first_line = line;
    }
    g->count++;
    g->total = g->total + bytes < g->total ? UINT64_MAX : g->total + bytes;
    g->last = i;
    g->last_line = line;
  }
  /* One unit for every line, the peak's own, so that the lines add up by eye. */
  uint64_t peak = vxp_resident_set_peak_bytes(rs), scale = 1;
  const char *unit = "B";
  if (peak >= (1ull << 30))
    scale = 1ull << 30, unit = "GiB";
  else if (peak >= (1ull << 20))
    scale = 1ull << 20, unit = "MiB";
  else if (peak >= (1ull << 10))
    scale = 1ull << 10, unit = "KiB";
  for (size_t k = 0; k < ngroups; k++) {
    const live_group *g = &groups[k];
    printf("  ");
    if (scale == 1)
      printf("%llu B", (unsigned long long)g->total);
    else
      print_in_unit(stdout, g->total, scale, unit);
    if (g->depth == 0) {
      printf(": %zu tile%s of ", g->count, g->count == 1 ? "" : "s");
      print_grouped(stdout, g->tile_bytes);
      printf(" bytes at function scope (");
    } else {
      printf(": %zu tile%s in the block at depth %u, line%s %u", g->count, g->count == 1 ? "" : "s",
             g->depth, g->first_line == g->last_line ? "" : "s", g->first_line);
      if (g->last_line != g->first_line) printf("-%u", g->last_line);
      printf(" (");
    }
    if (g->count > 7) {
      printf("%s ... %s", binding_or_unbound(vxp_analysis_record(an, g->first)),
             binding_or_unbound(vxp_analysis_record(an, g->last)));
    } else {
      size_t printed = 0;
      for (size_t i = g->first; i <= g->last; i++) {
        const vxp_record *r = vxp_analysis_record(an, i);
        if (!vxp_record_live_at_peak(r) || strcmp(vxp_record_function(r), fn) != 0 ||
            strcmp(vxp_record_space(r), space) != 0 || vxp_record_scope_depth(r) != g->depth ||
            (g->depth == 0 && vxp_record_bytes(r) != g->tile_bytes))
          continue;
        printf("%s%s", printed++ ? ", " : "", binding_or_unbound(r));
      }
    }
    printf(")\n");
  }
}

/* At most this many hops of a path are printed (a chain of n functions would print n^2). */
#define VXPEAK_MAX_PRINTED_HOPS 8

/* The call trees that reach beyond their function's own peak, with the path:
 *   f: W over the call tree 6,291,456 bytes (6.00 MiB) of 4,194,304 (150.0%): f -> g
 *     3.00 MiB held by f across its call at 22:11
 *     3.00 MiB: g's own peak */
static void print_call_trees(const vxp_analysis *an) {
  size_t n = vxp_analysis_call_tree_count(an);
  for (size_t i = 0; i < n; i++) {
    const vxp_call_tree *ct = vxp_analysis_call_tree(an, i);
    size_t hops = vxp_call_tree_hop_count(ct);
    if (hops == 0 && vxp_call_tree_bounded(ct)) continue;
    uint64_t total = vxp_call_tree_total_bytes(ct), cap = vxp_call_tree_capacity_bytes(ct);
    char b1[96], b2[96];
    printf("%s: %s over the call tree %s of %s (%.1f%%)", vxp_call_tree_function(ct),
           vxp_call_tree_space(ct), vxpeak_bytes(total, b1), vxpeak_bytes(cap, b2),
           cap ? 100.0 * (double)total / (double)cap : 0.0);
    bool whole = hops <= VXPEAK_MAX_PRINTED_HOPS;
    if (hops) {
      printf(": %s", vxp_call_tree_function(ct));
      size_t k = 0;
      for (const vxp_call_tree *t = ct; t && k < VXPEAK_MAX_PRINTED_HOPS && vxp_call_tree_callee(t);
           t = vxp_call_tree_next(t), k++)
        printf(" -> %s", vxp_call_tree_callee(t));
      if (!whole) printf(" -> ... (%zu calls)", hops);
    }
    if (!vxp_call_tree_bounded(ct)) printf("; unbounded: it reaches a recursion that places tiles");
    printf("\n");
    /* What each hop holds, then the last callee's own peak: the rest of the total. */
    uint64_t rest = total;
    size_t k = 0;
    const vxp_call_tree *t = ct;
    for (; t && k < VXPEAK_MAX_PRINTED_HOPS && vxp_call_tree_callee(t);
         t = vxp_call_tree_next(t), k++) {
      uint64_t held = vxp_call_tree_held_bytes(t);
      rest -= held <= rest ? held : rest;
      if (!held) continue;
      vxp_range r = vxp_call_tree_call_range(t);
      printf("  ");
      print_gib(stdout, held);
      printf(" held by %s across its call at %u:%u\n", vxp_call_tree_function(t), r.start.line + 1,
             r.start.column + 1);
    }
    if (hops && whole) {
      printf("  ");
      print_gib(stdout, rest);
      printf(": %s's own peak\n", vxp_call_tree_function(t));
    } else if (hops) {
      printf("  (the rest of the path: --format json, or %s's call tree)\n",
             vxp_call_tree_function(t));
    }
  }
}

/* --margin P%: every (function, space) whose peak (or call-tree total) is over (100% - P%) of
 * its capacity fails the verdict, as `sweep` and `frontier` decide. Prints one line per such
 * pair when `print`; returns their number. */
static size_t margin_failures(const vxp_analysis *an, uint32_t margin_ppm, bool print) {
  size_t failures = 0;
  char b1[96], b2[96], pct[32];
  snprintf(pct, sizeof(pct), "%u.%04u", margin_ppm / 10000, margin_ppm % 10000);
  size_t len = strlen(pct);
  while (pct[len - 1] == '0')
    pct[--len] = '\0';
  if (pct[len - 1] == '.') pct[--len] = '\0';
  for (size_t i = 0; margin_ppm && i < vxp_analysis_call_tree_count(an); i++) {
    const vxp_call_tree *ct = vxp_analysis_call_tree(an, i);
    uint64_t total = vxp_call_tree_total_bytes(ct), cap = vxp_call_tree_capacity_bytes(ct);
    if (!cap) continue;
    unsigned __int128 need = (unsigned __int128)total * 1000000u;
    unsigned __int128 have = (unsigned __int128)cap * (1000000u - margin_ppm);
    if (need <= have || total > cap) continue; /* over capacity is already an error */
    failures++;
    if (print)
      printf("%s: %s needs %s, more than the %s that leave %s%% of it free\n",
             vxp_call_tree_function(ct), vxp_call_tree_space(ct), vxpeak_bytes(total, b1),
             vxpeak_bytes((uint64_t)(have / 1000000u), b2), pct);
  }
  return failures;
}

static void print_text_report(const vxp_analysis *an, const vxpeak_target *t, uint32_t margin_ppm) {
  vxpeak_render_all(stderr, an);
  printf("machine: %s%s%s\n", vxpeak_target_name(t), t->host ? ", host " : "",
         t->host ? vxp_machine_label(t->host) : "");
  size_t sets = vxp_analysis_resident_set_count(an);
  for (size_t i = 0; i < sets; i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
    uint64_t peak = vxp_resident_set_peak_bytes(rs), cap = vxp_resident_set_capacity_bytes(rs);
    uint64_t sum;
    char b1[96], b2[96];
    printf("%s: %s peak %s of %s (%.1f%%), %zu tile%s live at the peak",
           vxp_resident_set_function(rs), vxp_resident_set_space(rs), vxpeak_bytes(peak, b1),
           cap ? vxpeak_bytes(cap, b2) : "no capacity",
           cap ? 100.0 * (double)peak / (double)cap : 0.0, vxp_resident_set_tile_count(rs),
           vxp_resident_set_tile_count(rs) == 1 ? "" : "s");
    if (vxp_resident_set_allocated_bytes(rs, &sum))
      printf("; sum over the run %s", vxpeak_bytes(sum, b1));
    printf("\n");
    print_breakdown(an, rs);
  }
  print_call_trees(an);
  print_routes(an);
  size_t errors = vxp_analysis_error_count(an), warnings = vxp_analysis_warning_count(an);
  size_t tight = margin_failures(an, margin_ppm, true);
  printf("%s: %zu error%s, %zu warning%s",
         vxp_analysis_admitted(an) && !tight ? "admitted" : "rejected", errors,
         errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
  if (tight) printf(", %zu inside the margin", tight);
  printf("\n");
}

int vxpeak_check(const vxpeak_args *args) {
  vxpeak_session s;
  int exit_code = vxpeak_session_open(&s, args);
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  if (strcmp(args->format, "text") == 0) {
    print_text_report(s.an, &s.target, args->margin_ppm);
  } else {
    size_t len;
    const char *text = strcmp(args->format, "json") == 0 ? vxp_analysis_json(s.an, &len)
                                                         : vxp_analysis_sarif(s.an, &len);
    if (!text) {
      /* The context says why: out of memory, or cancelled by --time-limit. */
      exit_code = vxpeak_fail(s.program.ctx, vxp_context_errcode(s.program.ctx),
                              "cannot render the report");
      goto done;
    }
    fwrite(text, 1, len, stdout);
  }
  exit_code = vxp_analysis_admitted(s.an) && !margin_failures(s.an, args->margin_ppm, false)
                  ? VXPEAK_EXIT_OK
                  : VXPEAK_EXIT_REJECTED;
done:
  vxpeak_session_close(&s);
  return exit_code;
}
