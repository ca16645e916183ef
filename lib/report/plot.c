/* SPDX-License-Identifier: Apache-2.0 */
/* plot.c - the bytes live along program order as an SVG picture (vxp_report_plot;
 * `vxpeak plot`, Python's Analysis.plot()). One panel per selected (function, space): the
 * capacity as a dashed line, the live bytes as a step curve, the peak marked and labelled
 * with what fills it, and every position's source line on hover (<title>).
 *
 * The curve is the analysis' own: a tile is live from its placement (record order) to its
 * release (release order, or the function's end), so the curve's maximum is the resident
 * set's peak. It is built in one pass over the records (a difference array over positions),
 * so a panel costs O(records + positions), not their product. Each panel carries
 * data-peak-bytes and each step data-live-bytes, for tests that compare them with the
 * report. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis_data.h"
#include "context.h"
#include "numbers.h"
#include "program.h"
#include "report.h"
#include "source.h"

#define W 960.0
#define PANEL_H 380.0
#define LEFT 86.0
#define RIGHT 250.0 /* room for the peak's breakdown */
#define TOP 76.0    /* the title and two rows of figures above the plot */
#define PLOT_H 250.0
#define LEGEND_ROWS 10

static const char style[] = "<style>\n"
                            ".title{font-size:17px;font-weight:bold;fill:#1a1a1a}\n"
                            ".sub{font-size:13px;fill:#444}\n"
                            ".tick{font-size:11px;fill:#555}\n"
                            ".axis{stroke:#333;stroke-width:1.2}\n"
                            ".grid{stroke:#ddd;stroke-width:1}\n"
                            ".capacity{stroke:#d62728;stroke-width:2;stroke-dasharray:7 5}\n"
                            ".caplabel{font-size:12px;fill:#d62728;font-weight:bold}\n"
                            ".live{fill:none;stroke:#1f5fbf;stroke-width:2.2}\n"
                            ".area{fill:#1f5fbf;fill-opacity:0.16;stroke:none}\n"
                            ".hit{fill:#000;fill-opacity:0}\n"
                            ".hit:hover{fill-opacity:0.08}\n"
                            ".peak{fill:#ff7f0e;stroke:#fff;stroke-width:1.5}\n"
                            ".peakline{stroke:#ff7f0e;stroke-width:1.2;stroke-dasharray:3 3}\n"
                            ".peaklabel{font-size:14px;font-weight:bold;fill:#ff7f0e}\n"
                            ".legend{font-size:12px;fill:#222}\n"
                            "</style>\n";

/* Text as XML character data or an attribute value; control characters other than tab and
 * newline (not allowed in XML 1.0) are dropped. */
static bool selected(const vxp_resident_set *rs, const vxp_report_options *o) {
  return (!o->function || strcmp(o->function, rs->function_name) == 0) &&
         (!o->space || strcmp(o->space, rs->space_name) == 0);
}

/* The unit a panel's axis is in: the largest binary unit at or below its top. */
static void axis_unit(uint64_t top, double *scale, const char **unit) {
  *scale = 1;
  *unit = "B";
  if (top >= (1ull << 30))
    *scale = 1073741824.0, *unit = "GiB";
  else if (top >= (1ull << 20))
    *scale = 1048576.0, *unit = "MiB";
  else if (top >= (1ull << 10))
    *scale = 1024.0, *unit = "KiB";
}

/* A tick step of 1, 2 or 5 x 10^k giving about five ticks up to `top` (in units). */
static double tick_step(double top) {
  double raw = top / 5, base = pow(10, floor(log10(raw > 0 ? raw : 1)));
  if (raw <= base) return base;
  if (raw <= 2 * base) return 2 * base;
  if (raw <= 5 * base) return 5 * base;
  return 10 * base;
}

/* One position of the curve: the bytes live there and the placement made there. */
typedef struct step {
  uint64_t live; /* saturated */
  size_t record; /* the placement at this position, or SIZE_MAX */
} step;

/* live(p) for p = 1 .. last by a difference array: + bytes at a tile's placement, - bytes
 * just after its release. Sums are taken in 128 bits and saturated, so no total wraps.
 * Returns NULL on allocation failure; *last_out is the last position used. */
static step *live_curve(vxp_context *ctx, const vxp_analysis *an, const vxp_resident_set *rs,
                        uint32_t *last_out) {
  /* The set's own records (set_records), not every record of the analysis: a panel per
   * resident set over all records was quadratic (10^5 functions: minutes). */
  const uint32_t *mine = an->set_records.items + rs->record_first;
  uint32_t last = 0;
  for (uint32_t k = 0; k < rs->record_count; k++) {
    const vxp_record *r = &an->records.items[mine[k]];
    if (r->order > last) last = r->order;
    if (r->released && r->release_order > last) last = r->release_order;
  }
  size_t positions = (size_t)last + 2;
  u128 *add = vxp_ctx__calloc(ctx, positions, sizeof(u128));
  u128 *sub = add ? vxp_ctx__calloc(ctx, positions, sizeof(u128)) : NULL;
  step *steps = sub ? vxp_ctx__calloc(ctx, positions, sizeof(step)) : NULL;
  if (!steps) {
    vxp_ctx__free(ctx, add);
    vxp_ctx__free(ctx, sub);
    return NULL;
  }
  for (size_t p = 0; p < positions; p++)
    steps[p].record = SIZE_MAX;
  for (uint32_t k = 0; k < rs->record_count; k++) {
    const vxp_record *r = &an->records.items[mine[k]];
    add[r->order] += r->bytes;
    if (r->released) sub[(size_t)r->release_order + 1] += r->bytes;
    steps[r->order].record = mine[k];
  }
  u128 live = 0;
  for (size_t p = 1; p <= last; p++) {
    live = live + add[p] - sub[p];
    steps[p].live = live > UINT64_MAX ? UINT64_MAX : (uint64_t)live;
  }
  vxp_ctx__free(ctx, add);
  vxp_ctx__free(ctx, sub);
  *last_out = last;
  return steps;
}

/* A group of the peak's breakdown: the tiles live at the peak that share a role (or, with
 * no role named, a binding). */
typedef struct group {
  const char *name;
  uint64_t bytes; /* saturated */
  size_t tiles;
  size_t first; /* the first record of the group: ties keep program order */
} group;

static int by_name_then_first(const void *a, const void *b) {
  const group *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->first > y->first) - (x->first < y->first);
}

static int by_bytes_then_first(const void *a, const void *b) {
  const group *x = a, *y = b;
  if (x->bytes != y->bytes) return x->bytes < y->bytes ? 1 : -1;
  return (x->first > y->first) - (x->first < y->first);
}

/* The breakdown of the peak, largest group first (ties in program order): sorted by name to
 * merge, then by bytes.
 * *count receives the number of groups (*out NULL when there is none). Returns false on
 * allocation failure (which no tile is not). */
static bool peak_groups(vxp_context *ctx, const vxp_analysis *an, const vxp_resident_set *rs,
                        group **out, size_t *count) {
  const uint32_t *mine = an->set_records.items + rs->record_first; /* the set's records */
  size_t n = 0;
  for (uint32_t j = 0; j < rs->record_count; j++)
    if (an->records.items[mine[j]].live_at_peak) n++;
  *out = NULL;
  *count = 0;
  if (n == 0) return true;
  group *g = vxp_ctx__calloc(ctx, n, sizeof(group));
  if (!g) return false;
  size_t k = 0;
  for (uint32_t j = 0; j < rs->record_count; j++) {
    size_t i = mine[j];
    const vxp_record *r = &an->records.items[i];
    if (!r->live_at_peak) continue;
    g[k].name = r->role ? r->role : r->binding_name ? r->binding_name : "(unbound)";
    g[k].bytes = r->bytes;
    g[k].tiles = 1;
    g[k].first = i;
    k++;
  }
  qsort(g, n, sizeof(group), by_name_then_first);
  size_t groups = 0;
  for (size_t i = 0; i < n; i++) {
    if (groups && strcmp(g[groups - 1].name, g[i].name) == 0) {
      group *m = &g[groups - 1];
      m->bytes = m->bytes + g[i].bytes < m->bytes ? UINT64_MAX : m->bytes + g[i].bytes;
      m->tiles++;
    } else {
      g[groups++] = g[i];
    }
  }
  qsort(g, groups, sizeof(group), by_bytes_then_first);
  *out = g;
  *count = groups;
  return true;
}

/* One (function, space) panel at vertical offset `y0`; false on allocation failure. */
static bool panel(vxp_context *ctx, vxp_sb *sb, vxp_sb_sink *to, const vxp_analysis *an,
                  const vxp_resident_set *rs, double y0) {
  uint32_t last = 0;
  step *steps = live_curve(ctx, an, rs, &last);
  if (!steps) return false;
  uint32_t end = last + 1; /* the function's end: what is held is freed there */
  uint64_t peak = rs->peak_bytes, cap = rs->capacity_bytes;
  uint32_t peak_at = 0;
  for (uint32_t p = 1; p <= last && !peak_at; p++)
    if (steps[p].live == peak) peak_at = p;
  uint64_t top = peak > cap ? peak : cap;
  top = top > UINT64_MAX - top / 10 - 1 ? UINT64_MAX : top + top / 10 + 1;
  double scale;
  const char *unit;
  axis_unit(top, &scale, &unit);
  double plot_w = W - LEFT - RIGHT, py0 = y0 + TOP, py1 = py0 + PLOT_H;
#define X(p) (LEFT + plot_w * (double)(p) / (double)end)
#define Y(v) (py1 - PLOT_H * (double)(v) / (double)top)
  char b1[32], b2[32], b3[32];
  vxp_sb__puts(ctx, sb, "<g class=\"panel\" data-function=\"");
  vxp_report__xml(ctx, sb, rs->function_name);
  vxp_sb__puts(ctx, sb, "\" data-space=\"");
  vxp_report__xml(ctx, sb, rs->space_name);
  vxp_sb__printf(
      ctx, sb, "\" data-peak-bytes=\"%llu\" data-capacity-bytes=\"%llu\" data-peak-order=\"%u\">\n",
      (unsigned long long)peak, (unsigned long long)cap, peak_at);
  vxp_sb__printf(ctx, sb, "<text x=\"%.1f\" y=\"%.1f\" class=\"title\">", LEFT, y0 + 24);
  vxp_report__xml(ctx, sb, rs->function_name);
  vxp_sb__puts(ctx, sb, ": bytes live in ");
  vxp_report__xml(ctx, sb, rs->space_name);
  vxp_sb__puts(ctx, sb, " along program order</text>\n");
  vxp_sb__printf(ctx, sb,
                 "<text x=\"%.1f\" y=\"%.1f\" class=\"sub\">peak %s (%s bytes) of %s, %.1f%%", LEFT,
                 y0 + 44, vxp_num__binary(peak, b1), vxp_num__grouped(peak, b2),
                 vxp_num__binary(cap, b3), cap ? 100.0 * (double)peak / (double)cap : 0.0);
  if (peak > cap)
    vxp_sb__printf(ctx, sb, " \xe2\x80\x94 over capacity by %s", vxp_num__binary(peak - cap, b1));
  vxp_sb__puts(ctx, sb, "</text>\n");
  /* A row of its own: on one line with an over-capacity peak it ran off the canvas. */
  if (rs->allocated_known)
    vxp_sb__printf(ctx, sb,
                   "<text x=\"%.1f\" y=\"%.1f\" class=\"sub\">the sum over the run would say %s, "
                   "counting every placement as if none were freed</text>\n",
                   LEFT, y0 + 62, vxp_num__binary(rs->allocated_bytes, b1));
  /* Axes and ticks. */
  vxp_sb__printf(ctx, sb,
                 "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"axis\"/>\n", LEFT,
                 py1, LEFT + plot_w, py1);
  vxp_sb__printf(ctx, sb,
                 "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"axis\"/>\n", LEFT,
                 py0, LEFT, py1);
  double stepv = tick_step((double)top / scale);
  for (double t = 0; t * scale <= (double)top; t += stepv) {
    double y = Y(t * scale);
    vxp_sb__printf(ctx, sb,
                   "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>\n", LEFT,
                   y, LEFT + plot_w, y);
    vxp_sb__printf(ctx, sb,
                   "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%g %s</text>\n",
                   LEFT - 6, y + 4, t, unit);
  }
  vxp_sb__printf(ctx, sb,
                 "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">program order "
                 "(placements and calls, 1 to %u); hover a step for its source line</text>\n",
                 LEFT + plot_w / 2, py1 + 34, last);
  /* Capacity. */
  vxp_sb__printf(ctx, sb,
                 "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"capacity\"/>\n",
                 LEFT, Y(cap), LEFT + plot_w, Y(cap));
  vxp_sb__printf(ctx, sb, "<text x=\"%.1f\" y=\"%.1f\" class=\"caplabel\">capacity %s</text>\n",
                 LEFT + 8, Y(cap) - 6, vxp_num__binary(cap, b1));
  /* The curve: a step path, filled beneath, then its outline. */
  for (int outline = 0; outline < 2; outline++) {
    vxp_sb__printf(ctx, sb, "<path class=\"%s\" d=\"M%.1f %.1f", outline ? "live" : "area", X(0),
                   Y(0));
    for (uint32_t p = 1; p <= last && !sb->failed; p++) {
      vxp_sb__printf(ctx, sb, " H%.1f V%.1f", X(p), Y(steps[p].live));
      vxp_sb__spill(sb, to, false);
    }
    vxp_sb__printf(ctx, sb, " H%.1f V%.1f%s\"/>\n", X(end), Y(0), outline ? "" : " Z");
  }
  /* Hover targets: one column per position, its source line in the title. */
  for (uint32_t p = 1; p <= last && !sb->failed; p++) {
    vxp_sb__printf(ctx, sb,
                   "<rect class=\"hit\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
                   "data-order=\"%u\" data-live-bytes=\"%llu\"><title>",
                   X(p), py0, X(p + 1) - X(p), PLOT_H, p, (unsigned long long)steps[p].live);
    if (steps[p].record != SIZE_MAX) {
      const vxp_record *r = &an->records.items[steps[p].record];
      vxp_sb__printf(ctx, sb, "line %u: ", r->range.start.line + 1);
      vxp_report__xml(ctx, sb, r->binding_name ? r->binding_name : "(unbound)");
      vxp_sb__printf(ctx, sb, " placed, %s bytes", vxp_num__grouped(r->bytes, b1));
      if (r->role) {
        vxp_sb__puts(ctx, sb, " (");
        vxp_report__xml(ctx, sb, r->role);
        vxp_sb__puts(ctx, sb, ")");
      }
    } else {
      vxp_sb__puts(ctx, sb,
                   "no placement in this space here (a call, a release, or another space)");
    }
    vxp_sb__printf(ctx, sb, "; live: %s bytes (%s)</title></rect>\n",
                   vxp_num__grouped(steps[p].live, b1), vxp_num__binary(steps[p].live, b2));
    vxp_sb__spill(sb, to, false);
  }
  vxp_ctx__free(ctx, steps);
  /* The peak: a marker and its breakdown by role (or by binding without roles). */
  bool ok = true;
  if (peak_at) {
    double px = (X(peak_at) + X(peak_at + 1)) / 2, py = Y(peak);
    vxp_sb__printf(ctx, sb,
                   "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"peakline\"/>\n",
                   px, py, px, py1);
    vxp_sb__printf(ctx, sb,
                   "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" class=\"peak\"><title>peak: %s bytes "
                   "(%s)</title></circle>\n",
                   px, py, vxp_num__grouped(peak, b1), vxp_num__binary(peak, b2));
    double bx = W - RIGHT + 16, by = py0 + 4;
    vxp_sb__printf(ctx, sb, "<text x=\"%.1f\" y=\"%.1f\" class=\"peaklabel\">peak %s</text>\n", bx,
                   by, vxp_num__binary(peak, b1));
    vxp_sb__printf(
        ctx, sb,
        "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\">%u tiles live at position %u:</text>\n", bx,
        by + 18, rs->tiles, peak_at);
    group *groups = NULL;
    size_t count = 0;
    ok = peak_groups(ctx, an, rs, &groups, &count);
    /* Every line in the peak's unit, so that they add up by eye. */
    double pscale;
    const char *punit;
    axis_unit(peak, &pscale, &punit);
    double ly = by + 40;
    for (size_t g = 0; g < count && g < LEGEND_ROWS; g++, ly += 18) {
      vxp_sb__printf(ctx, sb, "<text x=\"%.1f\" y=\"%.1f\" class=\"legend\">%.2f %s  ", bx, ly,
                     (double)groups[g].bytes / pscale, punit);
      vxp_report__xml(ctx, sb, groups[g].name);
      if (groups[g].tiles > 1) vxp_sb__printf(ctx, sb, " (%zu)", groups[g].tiles);
      vxp_sb__puts(ctx, sb, "</text>\n");
    }
    if (count > LEGEND_ROWS)
      vxp_sb__printf(ctx, sb, "<text x=\"%.1f\" y=\"%.1f\" class=\"legend\">and %zu more</text>\n",
                     bx, ly, count - LEGEND_ROWS);
    vxp_ctx__free(ctx, groups);
  }
  vxp_sb__puts(ctx, sb, "</g>\n");
#undef X
#undef Y
  return ok;
}

/* The picture into `sb`, handed to `to`'s writer as it grows when there is one. */
static int draw(vxp_context *ctx, const vxp_analysis *an, const vxp_report_options *o, vxp_sb *sb,
                vxp_sb_sink *to) {
  size_t panels = 0;
  for (size_t i = 0; i < an->resident_sets.len; i++)
    if (selected(&an->resident_sets.items[i], o)) panels++;
  if (panels == 0)
    return vxp_ctx__error(ctx, VXP_ENOTFOUND,
                          "no tile is placed in a space with a capacity%s%s%s%s: nothing to plot",
                          o->function ? " by " : "", o->function ? o->function : "",
                          o->space ? " in " : "", o->space ? o->space : "");
  double height = 40 + PANEL_H * (double)panels;
  vxp_sb__printf(
      ctx, sb,
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
      "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
      W, height, W, height);
  vxp_sb__puts(ctx, sb, style);
  vxp_sb__puts(ctx, sb, "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
  /* What was analysed: the program, the machine, and the constants set for this analysis. */
  vxp_sb__printf(ctx, sb, "<text x=\"%.1f\" y=\"24\" class=\"sub\">", LEFT);
  vxp_report__xml(ctx, sb, an->prog->src->label);
  vxp_sb__puts(ctx, sb, " on ");
  vxp_report__xml(ctx, sb, an->machine ? an->machine->label : "its own machine model");
  for (size_t i = 0; i < an->defines.len; i++) {
    vxp_sb__puts(ctx, sb, ", ");
    vxp_report__xml(ctx, sb, an->defines.items[i].name);
    vxp_sb__printf(ctx, sb, "=%llu", (unsigned long long)an->defines.items[i].value);
  }
  vxp_sb__puts(ctx, sb, "</text>\n");
  double y0 = 30;
  for (size_t i = 0; i < an->resident_sets.len && !sb->failed; i++) {
    const vxp_resident_set *rs = &an->resident_sets.items[i];
    if (!selected(rs, o)) continue;
    if (vxp_ctx__interrupted(ctx)) return vxp_ctx__cancelled(ctx);
    if (!panel(ctx, sb, to, an, rs, y0)) sb->failed = true;
    vxp_sb__spill(sb, to, false);
    y0 += PANEL_H;
  }
  vxp_sb__puts(ctx, sb, "</svg>\n");
  vxp_sb__spill(sb, to, true);
  if (to->refused) return vxp_ctx__error(ctx, VXP_EIO, "vxp_report_plot_write: the writer failed");
  return sb->failed ? vxp_ctx__nomem(ctx) : VXP_OK;
}

int vxp_report_plot(vxp_report **out, vxp_context *ctx, const vxp_analysis *an,
                    const vxp_report_options *opts) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, an, VXP_TAG_ANALYSIS);

  vxp_ctx__begin(ctx);
  if (!out || !ctx || !an)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_report_plot")
               : VXP_EINVAL;
  *out = NULL;
  vxp_report_options o;
  int rc = vxp_report__options(ctx, opts, &o, VXP_REPORT__FORMAT(VXP_REPORT_SVG));
  if (rc != VXP_OK) return rc;
  vxp_sb sb = {0};
  vxp_sb_sink none = {NULL, NULL, false};
  rc = draw(ctx, an, &o, &sb, &none);
  if (rc != VXP_OK) {
    vxp_sb__free(ctx, &sb);
    return rc;
  }
  return vxp_report__finish(out, ctx, &sb);
}

int vxp_report_plot_write(vxp_context *ctx, const vxp_analysis *an, const vxp_report_options *opts,
                          vxp_write_fn write, void *arg) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, an, VXP_TAG_ANALYSIS);

  vxp_ctx__begin(ctx);
  if (!ctx || !an || !write)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_report_plot_write")
               : VXP_EINVAL;
  vxp_report_options o;
  int rc = vxp_report__options(ctx, opts, &o, VXP_REPORT__FORMAT(VXP_REPORT_SVG));
  if (rc != VXP_OK) return rc;
  vxp_sb sb = {0};
  vxp_sb_sink to = {write, arg, false};
  rc = draw(ctx, an, &o, &sb, &to);
  vxp_sb__free(ctx, &sb);
  return rc;
}
