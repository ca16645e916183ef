/* SPDX-License-Identifier: Apache-2.0 */
/* sweep.c - `vxpeak sweep`: per machine, the largest value of a constant that fits with
 * the margin (vxp_sweep_run does the proof and the search, vxp_report_sweep renders the
 * table or the JSON), and the grid of two constants on one machine. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct machine_result {
  const char *name;
  vxpeak_target target;
  vxp_sweep *sweep;
} machine_result;

/* One report of every machine's sweep, rendered by the library (vxp_report_sweep). */
static int print_report(const vxpeak_args *args, vxp_context *ctx, const machine_result *m,
                        size_t n) {
  const vxp_sweep **sweeps = calloc(n, sizeof(*sweeps));
  const char **names = calloc(n, sizeof(*names));
  vxp_report *rep = NULL;
  int exit_code = VXPEAK_EXIT_OK;
  if (!sweeps || !names) exit_code = vxpeak_fail(ctx, VXP_ENOMEM, "sweep");
  for (size_t i = 0; exit_code == VXPEAK_EXIT_OK && i < n; i++) {
    sweeps[i] = m[i].sweep;
    names[i] = m[i].name;
  }
  if (exit_code == VXPEAK_EXIT_OK) {
    vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
    ro.format = strcmp(args->format, "json") == 0 ? VXP_REPORT_JSON : VXP_REPORT_TEXT;
    int rc = vxp_report_sweep(&rep, ctx, sweeps, names, n, &ro);
    if (rc != VXP_OK) exit_code = vxpeak_fail(ctx, rc, "sweep");
    else vxpeak_print_report(rep);
  }
  vxp_report_free(rep);
  free(sweeps);
  free(names);
  return exit_code;
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
      if (vxp_frontier_point_reason(p) != VXP_MISFIT_NONE) {
        snprintf(cell->reason_buf, sizeof(cell->reason_buf), "%s",
                 vxp_misfit_name(vxp_frontier_point_reason(p)));
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
    exit_code = print_report(args, prog.ctx, m, n);
    if (exit_code == VXPEAK_EXIT_OK) exit_code = all_fit ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
  }
  for (size_t i = 0; m && i < opened && i < n; i++) {
    vxp_sweep_free(m[i].sweep);
    vxpeak_target_close(&m[i].target);
  }
  free(m);
  vxpeak_program_close(&prog);
  return exit_code;
}
