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
    if (rc != VXP_OK)
      exit_code = vxpeak_fail(ctx, rc, "sweep");
    else
      vxpeak_print_report(rep);
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
  uint64_t lo = axis ? args->sweep2_lo : args->sweep_lo,
           hi = axis ? args->sweep2_hi : args->sweep_hi;
  size_t n = 0;
  for (uint64_t v = lo; n < VXPEAK_MAX_GRID; v++) {
    out[n++] = v;
    if (v == hi) break;
  }
  return n;
}

/* Two constants at once (concurrency x context): every pair analysed on one machine (a
 * one-value frontier per cell), reported by the library (vxp_report_sweep_grid). */
static int sweep_grid(const vxpeak_args *args) {
  vxpeak_program prog;
  vxpeak_target target;
  memset(&target, 0, sizeof(target));
  uint64_t rows[VXPEAK_MAX_GRID], cols[VXPEAK_MAX_GRID];
  size_t nr = axis_values(args, 0, rows), nc = axis_values(args, 1, cols);
  vxp_frontier **cells = calloc(nr * nc, sizeof(*cells));
  vxp_const_override overrides[VXPEAK_MAX_DEFINES + 1];
  vxp_report *rep = NULL;
  int exit_code = vxpeak_program_open(&prog, args->file, VXP_PROGRAM_NO_TREE);
  if (exit_code == VXPEAK_EXIT_OK && !cells) exit_code = vxpeak_fail(prog.ctx, VXP_ENOMEM, "sweep");
  if (exit_code == VXPEAK_EXIT_OK)
    exit_code = vxpeak_target_open(&target, &prog, args->machine_count ? args->machines[0] : NULL,
                                   args->host);
  size_t fitting = 0;
  for (size_t r = 0; r < nr && exit_code == VXPEAK_EXIT_OK; r++) {
    vxp_analyze_options opts = vxpeak_target_options(&target, args);
    for (size_t i = 0; i < args->define_count; i++)
      overrides[i] = args->defines[i];
    overrides[args->define_count].name = args->sweep_name;
    overrides[args->define_count].value = rows[r];
    opts.overrides = overrides;
    opts.override_count = args->define_count + 1;
    for (size_t c = 0; c < nc && exit_code == VXPEAK_EXIT_OK; c++) {
      vxp_frontier_options fo;
      int rc = vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION);
      fo.name = args->sweep2_name;
      fo.lo = fo.hi = cols[c];
      fo.margin_ppm = args->margin_ppm;
      fo.space = args->space;
      if (rc == VXP_OK) rc = vxp_frontier_run(&cells[r * nc + c], prog.ctx, prog.prog, &opts, &fo);
      if (rc != VXP_OK) {
        exit_code = vxpeak_fail(prog.ctx, rc, "sweep");
        break;
      }
      fitting += vxp_frontier_point_fits(vxp_frontier_point_at(cells[r * nc + c], 0)) != 0;
    }
  }
  if (exit_code == VXPEAK_EXIT_OK) {
    vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
    ro.format = strcmp(args->format, "json") == 0 ? VXP_REPORT_JSON : VXP_REPORT_TEXT;
    ro.machine = vxpeak_target_name(&target);
    int rc = vxp_report_sweep_grid(&rep, prog.ctx, (const vxp_frontier *const *)cells, nr, nc,
                                   args->sweep_name, &ro);
    if (rc != VXP_OK)
      exit_code = vxpeak_fail(prog.ctx, rc, "sweep");
    else
      vxpeak_print_report(rep);
  }
  if (exit_code == VXPEAK_EXIT_OK) exit_code = fitting ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
  vxp_report_free(rep);
  for (size_t i = 0; cells && i < nr * nc; i++)
    vxp_frontier_free(cells[i]);
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
  int exit_code = vxpeak_program_open(&prog, args->file, VXP_PROGRAM_NO_TREE);
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
