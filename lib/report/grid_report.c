/* SPDX-License-Identifier: Apache-2.0 */
/* grid_report.c - the two-constant sweep's report (vxp_report_sweep_grid; `vxpeak sweep
 * --const A=.. --const B=..`): every pair on one machine, each cell whether it fits with the
 * margin and how full the tightest capacity is, as a table or JSON (vxpeak-sweep-grid-v1).
 * Each cell is a one-value frontier, which kept the question it was asked (frontier.h): the
 * row's value is one of its defines, the column's its value. */
#include <stdio.h>

#include "context.h"
#include "frontier.h"
#include "report.h"

static bool same_text(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The value `name` was given in `q`'s defines; false when it was not given. */
static bool define_value(const vxp_question *q, const char *name, uint64_t *out) {
  for (size_t i = q->define_count; i-- > 0;) /* a later entry counts */
    if (strcmp(q->defines[i].name, name) == 0) {
      *out = q->defines[i].value;
      return true;
    }
  return false;
}

/* The other defines of a cell (all but the row's constant), the same in every cell. */
static bool same_other_defines(const vxp_question *a, const vxp_question *b, const char *row) {
  size_t i = 0, j = 0;
  for (;;) {
    while (i < a->define_count && strcmp(a->defines[i].name, row) == 0)
      i++;
    while (j < b->define_count && strcmp(b->defines[j].name, row) == 0)
      j++;
    if (i == a->define_count || j == b->define_count)
      return i == a->define_count && j == b->define_count;
    if (strcmp(a->defines[i].name, b->defines[j].name) != 0 ||
        a->defines[i].value != b->defines[j].value)
      return false;
    i++, j++;
  }
}

static void json(vxp_context *ctx, vxp_sb *sb, const vxp_frontier *const *cells, size_t rows,
                 size_t columns, const char *row) {
  const vxp_question *q = vxp_frontier__question(cells[0]);
  vxp_jw j;
  vxp_jw__init(&j, ctx, sb, true);
  vxp_jw__open(&j, '{');
  vxp_jw__key(&j, "schema");
  vxp_jw__string(&j, "vxpeak-sweep-grid-v1");
  vxp_jw__key(&j, "file");
  vxp_jw__string(&j, q->file);
  vxp_jw__key(&j, "machine");
  vxp_jw__string(&j, q->machine);
  vxp_jw__key(&j, "host");
  vxp_jw__string(&j, q->host);
  vxp_jw__key(&j, "defines");
  vxp_jw__open(&j, '{');
  for (size_t i = 0; i < q->define_count; i++) {
    if (strcmp(q->defines[i].name, row) == 0) continue;
    vxp_jw__key(&j, q->defines[i].name);
    vxp_jw__u64(&j, q->defines[i].value);
  }
  vxp_jw__close(&j, '}');
  vxp_jw__key(&j, "rows");
  vxp_jw__string(&j, row);
  vxp_jw__key(&j, "columns");
  vxp_jw__string(&j, q->name);
  vxp_jw__key(&j, "margin");
  vxp_jw__real(&j, q->margin_ppm / 1e6, 6);
  vxp_jw__key(&j, "cells");
  vxp_jw__open(&j, '[');
  for (size_t i = 0; i < rows * columns; i++) {
    const vxp_question *cq = vxp_frontier__question(cells[i]);
    const vxp_frontier_point *p = vxp_frontier_point_at(cells[i], 0);
    uint64_t row_value = 0;
    define_value(cq, row, &row_value);
    vxp_jw__open(&j, '{');
    vxp_jw__key(&j, row);
    vxp_jw__u64(&j, row_value);
    vxp_jw__key(&j, q->name);
    vxp_jw__u64(&j, cq->lo);
    vxp_jw__key(&j, "fits");
    vxp_jw__bool(&j, vxp_frontier_point_fits(p));
    vxp_jw__key(&j, "peak_bytes");
    vxp_jw__u64(&j, vxp_frontier_point_peak_bytes(p));
    vxp_jw__key(&j, "capacity_bytes");
    vxp_jw__u64(&j, vxp_frontier_point_capacity_bytes(p));
    vxp_jw__key(&j, "reason");
    vxp_jw__string(&j, vxp_misfit_name(vxp_frontier_point_reason(p)));
    vxp_jw__key(&j, "code");
    vxp_jw__string(&j, vxp_frontier_point_code(p));
    vxp_jw__close(&j, '}');
  }
  vxp_jw__close(&j, ']');
  vxp_jw__close(&j, '}');
}

static void text(vxp_context *ctx, vxp_sb *sb, const vxp_frontier *const *cells, size_t rows,
                 size_t columns, const char *row, const char *machine) {
  const vxp_question *q = vxp_frontier__question(cells[0]);
  char pct[32], b1[96];
  uint64_t cap = vxp_frontier_point_capacity_bytes(vxp_frontier_point_at(cells[0], 0));
  vxp_sb__printf(ctx, sb,
                 "%s on %s: what fits with %s%% of the capacity free (%s), %s down, %s across; "
                 "each cell is the peak's share of the capacity, * where it does not fit\n",
                 q->file, machine, vxp_num__ppm_percent(q->margin_ppm, pct),
                 cap ? vxp_num__bytes(cap, b1) : "none", row, q->name);
  vxp_sb__printf(ctx, sb, "%12s", row);
  for (size_t c = 0; c < columns; c++)
    vxp_sb__printf(ctx, sb, " %9llu", (unsigned long long)vxp_frontier__question(cells[c])->lo);
  vxp_sb__putc(ctx, sb, '\n');
  size_t fitting = 0;
  for (size_t r = 0; r < rows; r++) {
    uint64_t row_value = 0;
    define_value(vxp_frontier__question(cells[r * columns]), row, &row_value);
    vxp_sb__printf(ctx, sb, "%12llu", (unsigned long long)row_value);
    for (size_t c = 0; c < columns; c++) {
      const vxp_frontier_point *p = vxp_frontier_point_at(cells[r * columns + c], 0);
      uint64_t peak = vxp_frontier_point_peak_bytes(p);
      uint64_t capacity = vxp_frontier_point_capacity_bytes(p);
      bool fits = vxp_frontier_point_fits(p);
      char cell[40];
      if (!capacity)
        snprintf(cell, sizeof(cell), "%s", fits ? "-" : "*");
      else
        snprintf(cell, sizeof(cell), "%.1f%%%s", 100.0 * (double)peak / (double)capacity,
                 fits ? "" : "*");
      vxp_sb__printf(ctx, sb, " %9s", cell);
      fitting += fits;
    }
    vxp_sb__putc(ctx, sb, '\n');
  }
  vxp_sb__printf(ctx, sb, "%zu of %zu fit\n", fitting, rows * columns);
}

int vxp_report_sweep_grid(vxp_report **out, vxp_context *ctx, const vxp_frontier *const *cells,
                          size_t rows, size_t columns, const char *row_name,
                          const vxp_report_options *opts) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (!out || !ctx || !cells || !rows || !columns || !row_name || rows > SIZE_MAX / columns)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_report_sweep_grid")
               : VXP_EINVAL;
  for (size_t i = 0; i < rows * columns; i++) {
    VXP__TAG_RC(ctx, cells[i], VXP_TAG_FRONTIER);
    if (!cells[i] || vxp_frontier_point_count(cells[i]) != 1)
      return vxp_ctx__error(ctx, VXP_EINVAL,
                            "vxp_report_sweep_grid: cell %zu is not a frontier "
                            "of one value",
                            i);
    const vxp_question *a = vxp_frontier__question(cells[0]);
    const vxp_question *b = vxp_frontier__question(cells[i]);
    uint64_t ra = 0, rb = 0;
    bool same = same_text(a->file, b->file) && same_text(a->machine, b->machine) &&
                same_text(a->host, b->host) && same_text(a->name, b->name) &&
                same_text(a->space, b->space) && a->margin_ppm == b->margin_ppm &&
                same_other_defines(a, b, row_name) && define_value(b, row_name, &rb) &&
                /* a row shares its value of row_name, a column its value */
                define_value(vxp_frontier__question(cells[i - i % columns]), row_name, &ra) &&
                ra == rb && vxp_frontier__question(cells[i % columns])->lo == b->lo;
    if (!same)
      return vxp_ctx__error(ctx, VXP_EINVAL,
                            "vxp_report_sweep_grid: cell %zu asked another "
                            "question than its row and column (program, machines, constants, "
                            "margin or space), or does not set '%s'",
                            i, row_name);
  }
  vxp_report_options o;
  int rc = vxp_report__options(ctx, opts, &o, VXP_REPORT__TEXT_JSON);
  if (rc != VXP_OK) return rc;
  const vxp_question *q = vxp_frontier__question(cells[0]);
  const char *machine = o.machine    ? o.machine
                        : q->machine ? q->machine
                                     : "the program's own declarations";
  vxp_sb sb = {0};
  if (o.format == VXP_REPORT_JSON)
    json(ctx, &sb, cells, rows, columns, row_name);
  else
    text(ctx, &sb, cells, rows, columns, row_name, machine);
  return vxp_report__finish(out, ctx, &sb);
}
