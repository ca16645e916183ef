/* SPDX-License-Identifier: Apache-2.0 */
/* explain.c - `vxpeak explain`: what fills the peak. For each (function, space) the tiles
 * live at the peak, grouped by the role the program names (`// role: NAME` comments) and
 * by source site, with bytes, GiB and share of the peak; then the naive sum over the run
 * beside the peak, and what the difference is made of. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_ROWS 256

/* A row of the role table or the site table: a run of tiles. */
typedef struct row {
  const char *role;        /* NULL: no role named */
  size_t first, last;      /* record indices */
  size_t tiles;
  uint64_t bytes;          /* their sum */
  uint64_t tile_bytes;     /* sites: the size they share */
  uint32_t depth;
  bool released;
} row;

/* A group of the sum over the run: tiles that run the same number of times. */
typedef struct run_group {
  bool held;               /* held until the function returns */
  uint64_t runs;
  size_t tiles;
  uint64_t bytes;          /* one placement each */
  uint64_t total;          /* bytes x runs */
} run_group;

typedef struct explained {
  const vxp_resident_set *rs;
  row roles[MAX_ROWS], sites[MAX_ROWS];
  size_t nroles, nsites;
  run_group sum[MAX_ROWS];
  size_t nsum;
  bool sum_known;
  uint64_t sum_total;
} explained;

static uint64_t add_sat(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

static uint64_t mul_sat(uint64_t a, uint64_t b) {
  return (b && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}

static bool in_set(const vxp_record *r, const vxp_resident_set *rs) {
  return strcmp(vxp_record_function(r), vxp_resident_set_function(rs)) == 0 &&
         strcmp(vxp_record_space(r), vxp_resident_set_space(rs)) == 0;
}

static bool same_role(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void explain_set(const vxp_analysis *an, const vxp_resident_set *rs, explained *e) {
  memset(e, 0, sizeof(*e));
  e->rs = rs;
  e->sum_known = true;
  size_t n = vxp_analysis_record_count(an);
  for (size_t i = 0; i < n; i++) {
    const vxp_record *r = vxp_analysis_record(an, i);
    if (!in_set(r, rs)) continue;
    uint64_t bytes = vxp_record_bytes(r), runs = 0;
    bool held = !vxp_record_release_order(r, NULL);
    /* The sum over the run. */
    if (!vxp_record_runs(r, &runs)) e->sum_known = false;
    else {
      run_group *g = NULL;
      for (size_t k = 0; k < e->nsum && !g; k++)
        if (e->sum[k].held == held && e->sum[k].runs == runs) g = &e->sum[k];
      if (!g && e->nsum < MAX_ROWS) {
        g = &e->sum[e->nsum++];
        g->held = held;
        g->runs = runs;
      }
      if (g) {
        g->tiles++;
        g->bytes = add_sat(g->bytes, bytes);
        g->total = add_sat(g->total, mul_sat(bytes, runs));
      }
      e->sum_total = add_sat(e->sum_total, mul_sat(bytes, runs));
    }
    if (!vxp_record_live_at_peak(r)) continue;
    const char *role = vxp_record_role(r);
    /* By role: one row per role (and one for tiles with none). */
    row *g = NULL;
    for (size_t k = 0; k < e->nroles && !g; k++)
      if (same_role(e->roles[k].role, role)) g = &e->roles[k];
    if (!g && e->nroles < MAX_ROWS) {
      g = &e->roles[e->nroles++];
      g->role = role;
      g->first = i;
    }
    if (g) {
      g->tiles++;
      g->bytes = add_sat(g->bytes, bytes);
      g->last = i;
    }
    /* By site: consecutive tiles of one role, size and depth fold into one row. */
    row *s = e->nsites ? &e->sites[e->nsites - 1] : NULL;
    if (!(s && same_role(s->role, role) && s->tile_bytes == bytes &&
          s->depth == vxp_record_scope_depth(r) && s->released == !held)) {
      if (e->nsites == MAX_ROWS) continue;
      s = &e->sites[e->nsites++];
      s->role = role;
      s->first = i;
      s->tile_bytes = bytes;
      s->depth = vxp_record_scope_depth(r);
      s->released = !held;
    }
    s->tiles++;
    s->bytes = add_sat(s->bytes, bytes);
    s->last = i;
  }
  /* Roles by size, largest first: what fills the peak reads top-down. */
  for (size_t a = 1; a < e->nroles; a++) {
    row key = e->roles[a];
    size_t b = a;
    while (b > 0 && e->roles[b - 1].bytes < key.bytes) {
      e->roles[b] = e->roles[b - 1];
      b--;
    }
    e->roles[b] = key;
  }
}

static double share(uint64_t part, uint64_t whole) {
  return whole ? (double)part / (double)whole : 0.0;
}

static const char *name_of(const vxp_record *r) {
  const char *b = vxp_record_binding(r);
  return b ? b : "(unbound)";
}

/* "w0 ... w31" or "embed, lm_head": the bindings of a row's live tiles. */
static void row_names(const vxp_analysis *an, const explained *e, const row *rw, char *buf,
                      size_t size) {
  buf[0] = '\0';
  if (rw->tiles > 3) {
    snprintf(buf, size, "%s ... %s", name_of(vxp_analysis_record(an, rw->first)),
             name_of(vxp_analysis_record(an, rw->last)));
    return;
  }
  size_t o = 0;
  for (size_t i = rw->first; i <= rw->last && o < size; i++) {
    const vxp_record *r = vxp_analysis_record(an, i);
    if (!vxp_record_live_at_peak(r) || !in_set(r, e->rs)) continue;
    o += (size_t)snprintf(buf + o, size - o, "%s%s", o ? ", " : "", name_of(r));
  }
}

static void row_lines(const vxp_analysis *an, const row *rw, char *buf, size_t size) {
  uint32_t a = vxp_record_range(vxp_analysis_record(an, rw->first)).start.line + 1;
  uint32_t b = vxp_record_range(vxp_analysis_record(an, rw->last)).start.line + 1;
  if (a == b) snprintf(buf, size, "line %u", a);
  else snprintf(buf, size, "lines %u-%u", a, b);
}

/* ------------------------------------------------------------------ text */

static void print_text(const vxp_analysis *an, const explained *e, const char *machine) {
  const vxp_resident_set *rs = e->rs;
  uint64_t peak = vxp_resident_set_peak_bytes(rs), cap = vxp_resident_set_capacity_bytes(rs);
  char b1[32], b2[32], b3[32], names[160], lines[40], p1[96], p2[96];
  printf("%s: %s peak %s of %s on %s (%.1f%%), %zu tiles live at the peak\n",
         vxp_resident_set_function(rs), vxp_resident_set_space(rs), vxpeak_bytes(peak, p1),
         vxpeak_bytes(cap, p2), machine, 100.0 * share(peak, cap),
         vxp_resident_set_tile_count(rs));
  printf("\n  by role                     tiles            bytes       GiB   share\n");
  for (size_t k = 0; k < e->nroles; k++) {
    const row *rw = &e->roles[k];
    char label[64];
    snprintf(label, sizeof(label), "%s", rw->role ? rw->role : "(no role named)");
    printf("  %-26s %6zu %16s %9s  %5.1f%%\n", label, rw->tiles, vxpeak_grouped(rw->bytes, b1),
           vxpeak_gib(rw->bytes, b2), 100.0 * share(rw->bytes, peak));
  }
  printf("  %-26s %6zu %16s %9s  %5.1f%%\n", "peak", vxp_resident_set_tile_count(rs),
         vxpeak_grouped(peak, b1), vxpeak_gib(peak, b2), 100.0 * share(peak, peak));
  printf("\n  by site        tiles       each            bytes       GiB   share  "
         "held                bindings\n");
  for (size_t k = 0; k < e->nsites; k++) {
    const row *rw = &e->sites[k];
    row_lines(an, rw, lines, sizeof(lines));
    row_names(an, e, rw, names, sizeof(names));
    char held[40];
    if (rw->released) snprintf(held, sizeof(held), "block, depth %u", rw->depth);
    else snprintf(held, sizeof(held), "%s", rw->depth ? "to the end" : "function scope");
    char each[32];
    printf("  %-13s %6zu %10s %16s %9s  %5.1f%%  %-18s  %s%s%s\n", lines, rw->tiles,
           vxpeak_binary(rw->tile_bytes, each), vxpeak_grouped(rw->bytes, b1),
           vxpeak_gib(rw->bytes, b2), 100.0 * share(rw->bytes, peak), held, names,
           rw->role ? " -- " : "", rw->role ? rw->role : "");
  }
  printf("\n");
  if (!e->sum_known) {
    printf("  the sum over the run is not static (a trip count does not fold); the peak is\n"
           "  what is live at once\n");
    return;
  }
  printf("  sum over the run %s bytes (%s GiB) against the peak %s bytes (%s GiB):\n",
         vxpeak_grouped(e->sum_total, b1), vxpeak_gib(e->sum_total, b2),
         vxpeak_grouped(peak, b3), vxpeak_gib(peak, names));
  for (size_t k = 0; k < e->nsum; k++) {
    const run_group *g = &e->sum[k];
    char what[128];
    if (g->held) snprintf(what, sizeof(what), "held until '%s' returns",
                          vxp_resident_set_function(rs));
    else snprintf(what, sizeof(what), "released at the end of their block");
    printf("    %16s bytes (%s GiB): %zu tile%s placed %llu time%s each, %s\n",
           vxpeak_grouped(g->total, b1), vxpeak_gib(g->total, b2), g->tiles,
           g->tiles == 1 ? "" : "s", (unsigned long long)g->runs, g->runs == 1 ? "" : "s", what);
  }
  if (e->sum_total > peak)
    printf("  the difference, %s bytes (%s GiB), is never live at once: a releasing block frees\n"
           "  its tiles before the next iteration places them again\n",
           vxpeak_grouped(e->sum_total - peak, b1), vxpeak_gib(e->sum_total - peak, b2));
  else
    printf("  every tile placed is live at the peak: the sum is the peak\n");
}

/* ------------------------------------------------------------------ JSON */

static void json_row(vxpeak_json *j, const vxp_analysis *an, const explained *e, const row *rw,
                     bool site) {
  uint64_t peak = vxp_resident_set_peak_bytes(e->rs);
  vxpeak_json_open(j, '{');
  vxpeak_json_key(j, "role");
  vxpeak_json_string(j, rw->role);
  if (site) {
    vxp_range a = vxp_record_range(vxp_analysis_record(an, rw->first));
    vxp_range b = vxp_record_range(vxp_analysis_record(an, rw->last));
    vxpeak_json_key(j, "line");
    vxpeak_json_u64(j, a.start.line + 1);
    vxpeak_json_key(j, "last_line");
    vxpeak_json_u64(j, b.start.line + 1);
    vxpeak_json_key(j, "depth");
    vxpeak_json_u64(j, rw->depth);
    vxpeak_json_key(j, "released");
    vxpeak_json_bool(j, rw->released);
    vxpeak_json_key(j, "tile_bytes");
    vxpeak_json_u64(j, rw->tile_bytes);
  }
  vxpeak_json_key(j, "bindings");
  vxpeak_json_open(j, '[');
  for (size_t i = rw->first; i <= rw->last; i++) {
    const vxp_record *r = vxp_analysis_record(an, i);
    if (!vxp_record_live_at_peak(r) || !in_set(r, e->rs)) continue;
    if (!same_role(vxp_record_role(r), rw->role)) continue;
    if (site && vxp_record_bytes(r) != rw->tile_bytes) continue;
    vxpeak_json_string(j, vxp_record_binding(r));
  }
  vxpeak_json_close(j, ']');
  vxpeak_json_key(j, "tiles");
  vxpeak_json_u64(j, rw->tiles);
  vxpeak_json_key(j, "bytes");
  vxpeak_json_u64(j, rw->bytes);
  vxpeak_json_key(j, "gib");
  vxpeak_json_real(j, (double)rw->bytes / 1073741824.0, 2);
  vxpeak_json_key(j, "share");
  vxpeak_json_real(j, share(rw->bytes, peak), 4);
  vxpeak_json_close(j, '}');
}

static void json_set(vxpeak_json *j, const vxp_analysis *an, const explained *e) {
  const vxp_resident_set *rs = e->rs;
  uint64_t peak = vxp_resident_set_peak_bytes(rs), cap = vxp_resident_set_capacity_bytes(rs);
  vxpeak_json_open(j, '{');
  vxpeak_json_key(j, "function");
  vxpeak_json_string(j, vxp_resident_set_function(rs));
  vxpeak_json_key(j, "space");
  vxpeak_json_string(j, vxp_resident_set_space(rs));
  vxpeak_json_key(j, "peak_bytes");
  vxpeak_json_u64(j, peak);
  vxpeak_json_key(j, "peak_gib");
  vxpeak_json_real(j, (double)peak / 1073741824.0, 2);
  vxpeak_json_key(j, "capacity_bytes");
  vxpeak_json_u64(j, cap);
  vxpeak_json_key(j, "utilization");
  vxpeak_json_real(j, share(peak, cap), 4);
  vxpeak_json_key(j, "tiles");
  vxpeak_json_u64(j, vxp_resident_set_tile_count(rs));
  vxpeak_json_key(j, "allocated_bytes");
  if (e->sum_known) vxpeak_json_u64(j, e->sum_total);
  else vxpeak_json_null(j);
  vxpeak_json_key(j, "allocated_gib");
  if (e->sum_known) vxpeak_json_real(j, (double)e->sum_total / 1073741824.0, 2);
  else vxpeak_json_null(j);
  vxpeak_json_key(j, "never_live_at_once_bytes");
  if (e->sum_known) vxpeak_json_u64(j, e->sum_total > peak ? e->sum_total - peak : 0);
  else vxpeak_json_null(j);
  vxpeak_json_key(j, "by_role");
  vxpeak_json_open(j, '[');
  for (size_t k = 0; k < e->nroles; k++) json_row(j, an, e, &e->roles[k], false);
  vxpeak_json_close(j, ']');
  vxpeak_json_key(j, "by_site");
  vxpeak_json_open(j, '[');
  for (size_t k = 0; k < e->nsites; k++) json_row(j, an, e, &e->sites[k], true);
  vxpeak_json_close(j, ']');
  vxpeak_json_key(j, "sum_over_run");
  vxpeak_json_open(j, '[');
  for (size_t k = 0; e->sum_known && k < e->nsum; k++) {
    const run_group *g = &e->sum[k];
    vxpeak_json_open(j, '{');
    vxpeak_json_key(j, "held");
    vxpeak_json_bool(j, g->held);
    vxpeak_json_key(j, "runs");
    vxpeak_json_u64(j, g->runs);
    vxpeak_json_key(j, "tiles");
    vxpeak_json_u64(j, g->tiles);
    vxpeak_json_key(j, "bytes");
    vxpeak_json_u64(j, g->total);
    vxpeak_json_close(j, '}');
  }
  vxpeak_json_close(j, ']');
  vxpeak_json_close(j, '}');
}

/* The header every JSON report of the command starts with. */
void vxpeak_json_header(vxpeak_json *j, const char *schema, const vxpeak_args *args,
                        const vxpeak_target *t) {
  vxpeak_json_key(j, "schema");
  vxpeak_json_string(j, schema);
  vxpeak_json_key(j, "file");
  vxpeak_json_string(j, args->file);
  if (t) {
    vxpeak_json_key(j, "machine");
    vxpeak_json_string(j, t->machine ? vxp_machine_label(t->machine) : NULL);
    vxpeak_json_key(j, "host");
    vxpeak_json_string(j, t->host ? vxp_machine_label(t->host) : NULL);
  }
  vxpeak_json_key(j, "defines");
  vxpeak_json_open(j, '{');
  for (size_t i = 0; i < args->define_count; i++) {
    vxpeak_json_key(j, args->defines[i].name);
    vxpeak_json_u64(j, args->defines[i].value);
  }
  vxpeak_json_close(j, '}');
}

int vxpeak_explain(const vxpeak_args *args) {
  vxpeak_session s;
  int exit_code = vxpeak_session_open(&s, args);
  explained *e = NULL;
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  if (!vxpeak_check_selection(args, s.an)) {
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  vxpeak_render_all(stderr, s.an);
  e = malloc(sizeof(*e));
  if (!e) {
    exit_code = vxpeak_fail(s.program.ctx, VXP_ENOMEM, "explain");
    goto done;
  }
  bool json = strcmp(args->format, "json") == 0;
  vxpeak_json j = {stdout, true, 0, {false}, {false}, false};
  if (json) {
    vxpeak_json_open(&j, '{');
    vxpeak_json_header(&j, "vxpeak-explain-v1", args, &s.target);
    vxpeak_json_key(&j, "resident_sets");
    vxpeak_json_open(&j, '[');
  }
  size_t shown = 0;
  for (size_t i = 0; i < vxp_analysis_resident_set_count(s.an); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(s.an, i);
    if (args->function && strcmp(args->function, vxp_resident_set_function(rs)) != 0) continue;
    if (args->space && strcmp(args->space, vxp_resident_set_space(rs)) != 0) continue;
    explain_set(s.an, rs, e);
    if (json) json_set(&j, s.an, e);
    else {
      if (shown) printf("\n");
      print_text(s.an, e, vxpeak_target_name(&s.target));
    }
    shown++;
  }
  if (json) {
    vxpeak_json_close(&j, ']');
    vxpeak_json_close(&j, '}');
  } else if (shown == 0) {
    printf("no tile is placed in a space with a capacity%s%s: nothing to explain\n",
           args->function ? " by " : "", args->function ? args->function : "");
  }
  exit_code = vxp_analysis_admitted(s.an) ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
done:
  free(e);
  vxpeak_session_close(&s);
  return exit_code;
}
