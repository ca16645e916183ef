/* SPDX-License-Identifier: Apache-2.0 */
/* sweep.c - `vxpeak sweep`: per machine, the largest value of a constant that fits with
 * the margin (vxp_sweep_run does the proof and the search), as a table or JSON. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct machine_result {
  const char *name;
  vxpeak_target target;
  vxp_sweep *sweep;
} machine_result;

static double spare(const vxp_sweep_point *p) {
  uint64_t cap = vxp_sweep_point_capacity_bytes(p), peak = vxp_sweep_point_peak_bytes(p);
  if (cap == 0) return 0.0;
  return peak >= cap ? -((double)(peak - cap) / (double)cap) : (double)(cap - peak) / (double)cap;
}

/* Why a value does not fit, naming the function and the diagnostic that decided it
 * ("decode: over capacity (E6010)"). */
static const char *why_text(const vxp_sweep_point *p, char *buf, size_t size) {
  const char *reason = vxp_sweep_point_reason(p), *code = vxp_sweep_point_code(p);
  const char *fn = vxp_sweep_point_cause_function(p);
  if (!reason) return "fits";
  char what[64];
  if (strcmp(reason, "within_margin") == 0) snprintf(what, sizeof(what), "inside the margin");
  else if (strcmp(reason, "over_capacity") == 0)
    snprintf(what, sizeof(what), "over capacity%s%s%s", code ? " (" : "", code ? code : "",
             code ? ")" : "");
  else if (strcmp(reason, "size_unknown") == 0) snprintf(what, sizeof(what), "a size unknown (W1029)");
  else snprintf(what, sizeof(what), "error %s", code ? code : "");
  snprintf(buf, size, "%s%s%s", fn ? fn : "", fn ? ": " : "", what);
  return buf;
}

static void print_point_cells(const vxp_sweep_point *p) {
  char b1[32], b2[32], set[96];
  if (!p) {
    printf(" %8s %29s", "-", "");
    return;
  }
  snprintf(set, sizeof(set), "%s (%s)", vxpeak_grouped(vxp_sweep_point_peak_bytes(p), b1),
           vxpeak_decimal(vxp_sweep_point_peak_bytes(p), b2));
  printf(" %8llu %29s", (unsigned long long)vxp_sweep_point_value(p), set);
}

static void print_table(const vxpeak_args *args, machine_result *m, size_t n) {
  char b1[32], b2[256];
  printf("%s: the largest %s in %llu..%llu that fits", args->file, args->sweep_name,
         (unsigned long long)args->sweep_lo, (unsigned long long)args->sweep_hi);
  if (args->margin_ppm) {
    char pct[32];
    snprintf(pct, sizeof(pct), "%u.%04u", args->margin_ppm / 10000, args->margin_ppm % 10000);
    size_t len = strlen(pct);
    while (pct[len - 1] == '0') pct[--len] = '\0';
    if (pct[len - 1] == '.') pct[--len] = '\0';
    printf(" with %s%% of each capacity free", pct);
  }
  if (args->function || args->space)
    printf(" (%s%s%s%s)", args->function ? "function " : "", args->function ? args->function : "",
           args->function && args->space ? ", " : "", args->space ? args->space : "");
  printf("\n%s: %s\n\n", vxp_sweep_method(m[0].sweep), vxp_sweep_reason(m[0].sweep));
  printf("%-10s %29s %8s %29s %7s %8s %29s  %-30s %s\n", "machine", "capacity", "largest",
         "its peak", "spare", "next", "its peak", "why not", "analyses");
  for (size_t i = 0; i < n; i++) {
    const vxp_sweep_point *best = vxp_sweep_largest(m[i].sweep);
    const vxp_sweep_point *next = vxp_sweep_first_rejected(m[i].sweep);
    const vxp_sweep_point *any = best ? best : next;
    uint64_t cap = any ? vxp_sweep_point_capacity_bytes(any) : 0;
    char capcell[64] = "-", d[32];
    if (cap) snprintf(capcell, sizeof(capcell), "%s (%s)", vxpeak_grouped(cap, b1),
                      vxpeak_decimal(cap, d));
    printf("%-10s %29s", m[i].name, capcell);
    if (best) {
      print_point_cells(best);
      printf(" %6.2f%%", 100.0 * spare(best));
    } else {
      printf(" %8s %29s %7s", "none", "", "");
    }
    if (next) {
      print_point_cells(next);
      printf("  %-30s", why_text(next, b2, sizeof(b2)));
    } else {
      printf(" %8s %29s  %-30s", "-", "", "(HI fits)");
    }
    printf(" %zu\n", vxp_sweep_evaluation_count(m[i].sweep));
  }
}

static void json_point(vxpeak_json *j, const vxp_sweep_point *p) {
  if (!p) {
    vxpeak_json_null(j);
    return;
  }
  vxpeak_json_open(j, '{');
  vxpeak_json_key(j, "value");
  vxpeak_json_u64(j, vxp_sweep_point_value(p));
  vxpeak_json_key(j, "fits");
  vxpeak_json_bool(j, vxp_sweep_point_fits(p));
  vxpeak_json_key(j, "function");
  vxpeak_json_string(j, vxp_sweep_point_function(p));
  vxpeak_json_key(j, "space");
  vxpeak_json_string(j, vxp_sweep_point_space(p));
  vxpeak_json_key(j, "peak_bytes");
  vxpeak_json_u64(j, vxp_sweep_point_peak_bytes(p));
  vxpeak_json_key(j, "capacity_bytes");
  vxpeak_json_u64(j, vxp_sweep_point_capacity_bytes(p));
  vxpeak_json_key(j, "spare");
  vxpeak_json_real(j, spare(p), 6);
  vxpeak_json_key(j, "reason");
  vxpeak_json_string(j, vxp_sweep_point_reason(p));
  vxpeak_json_key(j, "code");
  vxpeak_json_string(j, vxp_sweep_point_code(p));
  vxpeak_json_key(j, "cause_function");
  vxpeak_json_string(j, vxp_sweep_point_cause_function(p));
  vxpeak_json_close(j, '}');
}

static void print_json(const vxpeak_args *args, machine_result *m, size_t n) {
  vxpeak_json j = {stdout, true, 0, {false}, {false}, false};
  vxpeak_json_open(&j, '{');
  vxpeak_json_header(&j, "vxpeak-sweep-v1", args, NULL);
  vxpeak_json_key(&j, "const");
  vxpeak_json_string(&j, args->sweep_name);
  vxpeak_json_key(&j, "lo");
  vxpeak_json_u64(&j, args->sweep_lo);
  vxpeak_json_key(&j, "hi");
  vxpeak_json_u64(&j, args->sweep_hi);
  vxpeak_json_key(&j, "margin");
  vxpeak_json_real(&j, args->margin_ppm / 1e6, 6);
  vxpeak_json_key(&j, "function");
  vxpeak_json_string(&j, args->function);
  vxpeak_json_key(&j, "space");
  vxpeak_json_string(&j, args->space);
  vxpeak_json_key(&j, "machines");
  vxpeak_json_open(&j, '[');
  for (size_t i = 0; i < n; i++) {
    vxpeak_json_open(&j, '{');
    vxpeak_json_key(&j, "machine");
    vxpeak_json_string(&j, m[i].name);
    vxpeak_json_key(&j, "method");
    vxpeak_json_string(&j, vxp_sweep_method(m[i].sweep));
    vxpeak_json_key(&j, "reason");
    vxpeak_json_string(&j, vxp_sweep_reason(m[i].sweep));
    vxpeak_json_key(&j, "analyses");
    vxpeak_json_u64(&j, vxp_sweep_evaluation_count(m[i].sweep));
    vxpeak_json_key(&j, "largest");
    json_point(&j, vxp_sweep_largest(m[i].sweep));
    vxpeak_json_key(&j, "first_rejected");
    json_point(&j, vxp_sweep_first_rejected(m[i].sweep));
    vxpeak_json_key(&j, "points");
    vxpeak_json_open(&j, '[');
    for (size_t k = 0; k < vxp_sweep_point_count(m[i].sweep); k++)
      json_point(&j, vxp_sweep_point_at(m[i].sweep, k));
    vxpeak_json_close(&j, ']');
    vxpeak_json_close(&j, '}');
  }
  vxpeak_json_close(&j, ']');
  vxpeak_json_close(&j, '}');
}

/* ------------------------------------------------------------------ the grid */

/* An axis' values: its list, or LO..HI. */
static size_t axis_values(const vxpeak_args *args, size_t axis, uint64_t out[VXPEAK_MAX_GRID]) {
  if (args->sweep_list[axis]) {
    memcpy(out, args->sweep_values[axis], args->sweep_list[axis] * sizeof(uint64_t));
    return args->sweep_list[axis];
  }
  uint64_t lo = axis ? args->sweep2_lo : args->sweep_lo, hi = axis ? args->sweep2_hi : args->sweep_hi;
  size_t n = 0;
  for (uint64_t v = lo; n < VXPEAK_MAX_GRID; v++) {
    out[n++] = v;
    if (v == hi) break;
  }
  return n;
}

typedef struct grid_cell {
  bool fits;
  uint64_t peak, capacity;
  const char *reason, *code; /* copied into the cell's own storage below */
  char reason_buf[24], code_buf[12];
} grid_cell;

/* Two constants at once (concurrency x context): every pair analysed on one machine, each
 * cell whether it fits with the margin and how full the tightest capacity is. */
static int sweep_grid(const vxpeak_args *args) {
  vxpeak_program prog;
  vxpeak_target target;
  memset(&target, 0, sizeof(target));
  uint64_t rows[VXPEAK_MAX_GRID], cols[VXPEAK_MAX_GRID];
  size_t nr = axis_values(args, 0, rows), nc = axis_values(args, 1, cols);
  grid_cell *cells = calloc(nr * nc, sizeof(*cells));
  vxp_const_override overrides[VXPEAK_MAX_DEFINES + 1];
  int exit_code = vxpeak_program_open(&prog, args->file);
  if (exit_code == VXPEAK_EXIT_OK && !cells) exit_code = vxpeak_fail(prog.ctx, VXP_ENOMEM, "sweep");
  if (exit_code == VXPEAK_EXIT_OK)
    exit_code = vxpeak_target_open(&target, &prog, args->machine_count ? args->machines[0] : NULL,
                                   args->host);
  size_t fitting = 0;
  for (size_t r = 0; r < nr && exit_code == VXPEAK_EXIT_OK; r++) {
    vxp_analyze_options opts = vxpeak_target_options(&target, args);
    for (size_t i = 0; i < args->define_count; i++) overrides[i] = args->defines[i];
    overrides[args->define_count].name = args->sweep_name;
    overrides[args->define_count].value = rows[r];
    opts.overrides = overrides;
    opts.override_count = args->define_count + 1;
    for (size_t c = 0; c < nc && exit_code == VXPEAK_EXIT_OK; c++) {
      vxp_frontier_options fo;
      vxp_frontier *f = NULL;
      int rc = vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION);
      fo.name = args->sweep2_name;
      fo.lo = fo.hi = cols[c];
      fo.margin_ppm = args->margin_ppm;
      fo.space = args->space;
      if (rc == VXP_OK) rc = vxp_frontier_run(&f, prog.ctx, prog.prog, &opts, &fo);
      if (rc != VXP_OK) {
        exit_code = vxpeak_fail(prog.ctx, rc, "sweep");
        break;
      }
      const vxp_frontier_point *p = vxp_frontier_point_at(f, 0);
      grid_cell *cell = &cells[r * nc + c];
      cell->fits = vxp_frontier_point_fits(p);
      cell->peak = vxp_frontier_point_peak_bytes(p);
      cell->capacity = vxp_frontier_point_capacity_bytes(p);
      if (vxp_frontier_point_reason(p)) {
        snprintf(cell->reason_buf, sizeof(cell->reason_buf), "%s", vxp_frontier_point_reason(p));
        cell->reason = cell->reason_buf;
      }
      if (vxp_frontier_point_code(p)) {
        snprintf(cell->code_buf, sizeof(cell->code_buf), "%s", vxp_frontier_point_code(p));
        cell->code = cell->code_buf;
      }
      fitting += cell->fits;
      vxp_frontier_free(f);
    }
  }
  if (exit_code == VXPEAK_EXIT_OK && strcmp(args->format, "json") == 0) {
    vxpeak_json j = {stdout, true, 0, {false}, {false}, false};
    vxpeak_json_open(&j, '{');
    vxpeak_json_header(&j, "vxpeak-sweep-grid-v1", args, &target);
    vxpeak_json_key(&j, "rows");
    vxpeak_json_string(&j, args->sweep_name);
    vxpeak_json_key(&j, "columns");
    vxpeak_json_string(&j, args->sweep2_name);
    vxpeak_json_key(&j, "margin");
    vxpeak_json_real(&j, args->margin_ppm / 1e6, 6);
    vxpeak_json_key(&j, "cells");
    vxpeak_json_open(&j, '[');
    for (size_t r = 0; r < nr; r++) {
      for (size_t c = 0; c < nc; c++) {
        const grid_cell *cell = &cells[r * nc + c];
        vxpeak_json_open(&j, '{');
        vxpeak_json_key(&j, args->sweep_name);
        vxpeak_json_u64(&j, rows[r]);
        vxpeak_json_key(&j, args->sweep2_name);
        vxpeak_json_u64(&j, cols[c]);
        vxpeak_json_key(&j, "fits");
        vxpeak_json_bool(&j, cell->fits);
        vxpeak_json_key(&j, "peak_bytes");
        vxpeak_json_u64(&j, cell->peak);
        vxpeak_json_key(&j, "capacity_bytes");
        vxpeak_json_u64(&j, cell->capacity);
        vxpeak_json_key(&j, "reason");
        vxpeak_json_string(&j, cell->reason);
        vxpeak_json_key(&j, "code");
        vxpeak_json_string(&j, cell->code);
        vxpeak_json_close(&j, '}');
      }
    }
    vxpeak_json_close(&j, ']');
    vxpeak_json_close(&j, '}');
  } else if (exit_code == VXPEAK_EXIT_OK) {
    char pct[32], b1[96];
    snprintf(pct, sizeof(pct), "%u.%04u", args->margin_ppm / 10000, args->margin_ppm % 10000);
    size_t len = strlen(pct);
    while (pct[len - 1] == '0') pct[--len] = '\0';
    if (pct[len - 1] == '.') pct[--len] = '\0';
    uint64_t cap = nr && nc ? cells[0].capacity : 0;
    printf("%s on %s: what fits with %s%% of the capacity free (%s), %s down, %s across; each "
           "cell is the peak's share of the capacity, * where it does not fit\n",
           args->file, vxpeak_target_name(&target), pct, cap ? vxpeak_bytes(cap, b1) : "none",
           args->sweep_name, args->sweep2_name);
    printf("%12s", args->sweep_name);
    for (size_t c = 0; c < nc; c++) printf(" %9llu", (unsigned long long)cols[c]);
    printf("\n");
    for (size_t r = 0; r < nr; r++) {
      printf("%12llu", (unsigned long long)rows[r]);
      for (size_t c = 0; c < nc; c++) {
        const grid_cell *cell = &cells[r * nc + c];
        char text[32];
        if (!cell->capacity) snprintf(text, sizeof(text), "%s", cell->fits ? "-" : "*");
        else snprintf(text, sizeof(text), "%.1f%%%s",
                      100.0 * (double)cell->peak / (double)cell->capacity, cell->fits ? "" : "*");
        printf(" %9s", text);
      }
      printf("\n");
    }
    printf("%zu of %zu fit\n", fitting, nr * nc);
  }
  if (exit_code == VXPEAK_EXIT_OK) exit_code = fitting ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
  free(cells);
  vxpeak_target_close(&target);
  vxpeak_program_close(&prog);
  return exit_code;
}

int vxpeak_sweep(const vxpeak_args *args) {
  if (args->has_sweep2) return sweep_grid(args);
  vxpeak_program prog;
  size_t n = args->machine_count ? args->machine_count : 1;
  machine_result *m = calloc(n, sizeof(*m));
  int exit_code = vxpeak_program_open(&prog, args->file);
  if (!m) exit_code = vxpeak_fail(prog.ctx, VXP_ENOMEM, "sweep");
  size_t opened = 0;
  bool all_fit = true;
  for (size_t i = 0; i < n && exit_code == VXPEAK_EXIT_OK; i++, opened++) {
    const char *arg = args->machine_count ? args->machines[i] : NULL;
    exit_code = vxpeak_target_open(&m[i].target, &prog, arg, args->host);
    if (exit_code != VXPEAK_EXIT_OK) break;
    m[i].name = m[i].target.label ? m[i].target.label : "(the program's own)";
    vxp_analyze_options opts = vxpeak_target_options(&m[i].target, args);
    vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
    so.name = args->sweep_name;
    so.lo = args->sweep_lo;
    so.hi = args->sweep_hi;
    so.margin_ppm = args->margin_ppm;
    so.function = args->function;
    so.space = args->space;
    int rc = vxp_sweep_run(&m[i].sweep, prog.ctx, prog.prog, &opts, &so);
    if (rc != VXP_OK) {
      char what[160];
      snprintf(what, sizeof(what), "sweep on %s", m[i].name);
      exit_code = vxpeak_fail(prog.ctx, rc, what);
      opened++;
      break;
    }
    if (!vxp_sweep_largest(m[i].sweep)) all_fit = false;
  }
  if (exit_code == VXPEAK_EXIT_OK) {
    if (strcmp(args->format, "json") == 0) print_json(args, m, n);
    else print_table(args, m, n);
    exit_code = all_fit ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
  }
  for (size_t i = 0; m && i < opened && i < n; i++) {
    vxp_sweep_free(m[i].sweep);
    vxpeak_target_close(&m[i].target);
  }
  free(m);
  vxpeak_program_close(&prog);
  return exit_code;
}
