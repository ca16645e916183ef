/* SPDX-License-Identifier: Apache-2.0 */
/* plot.c - `vxpeak plot`: a standalone SVG of the bytes live in each (function, space)
 * along program order, with the capacity as a line, the peak marked and labelled with
 * what fills it, and every step's source line on hover (<title>).
 *
 * The curve is the analysis' own: a tile is live from its placement (vxp_record_order)
 * to its release (vxp_record_release_order, or the function's end), so its maximum is the
 * resident set's peak; the panel carries data-peak-bytes and each step data-live-bytes
 * for tests that compare them with the report. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define W 960.0
#define PANEL_H 380.0
#define LEFT 86.0
#define RIGHT 250.0   /* room for the peak's breakdown */
#define TOP 58.0
#define PLOT_H 250.0

typedef struct step {
  uint32_t order;
  uint64_t live;
  size_t record;      /* the placement at this position, or SIZE_MAX for a release */
} step;

static void xml_text(FILE *out, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '&': fputs("&amp;", out); break;
    case '"': fputs("&quot;", out); break;
    default:
      if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t') fputc(*s, out);
    }
  }
}

/* The records grouped by (function, space), found once: scanning every record for each
 * panel made the plot quadratic in tiles (10^4 tiles: 2 s, 2x10^4 functions: 51 s). */
typedef struct record_key {
  const char *function, *space;
  size_t index;
} record_key;

static int compare_keys(const void *a, const void *b) {
  const record_key *x = a, *y = b;
  int c = strcmp(x->function, y->function);
  if (!c) c = strcmp(x->space, y->space);
  return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The records of `rs`, in analysis order: [*first, *first + *count) of `keys`. */
static void members(const record_key *keys, size_t n, const vxp_resident_set *rs, size_t *first,
                    size_t *count) {
  record_key want = {vxp_resident_set_function(rs), vxp_resident_set_space(rs), 0};
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (compare_keys(&keys[mid], &want) < 0) lo = mid + 1;
    else hi = mid;
  }
  size_t end = lo;
  while (end < n && strcmp(keys[end].function, want.function) == 0 &&
         strcmp(keys[end].space, want.space) == 0)
    end++;
  *first = lo;
  *count = end - lo;
}

/* The unit a panel's axis is in: the largest binary unit at or below its top. */
static void axis_unit(uint64_t top, double *scale, const char **unit) {
  *scale = 1;
  *unit = "B";
  if (top >= (1ull << 30)) *scale = 1073741824.0, *unit = "GiB";
  else if (top >= (1ull << 20)) *scale = 1048576.0, *unit = "MiB";
  else if (top >= (1ull << 10)) *scale = 1024.0, *unit = "KiB";
}

/* A tick step of 1, 2 or 5 x 10^k giving about five ticks up to `top` (in units). */
static double tick_step(double top) {
  double raw = top / 5, base = pow(10, floor(log10(raw > 0 ? raw : 1)));
  if (raw <= base) return base;
  if (raw <= 2 * base) return 2 * base;
  if (raw <= 5 * base) return 5 * base;
  return 10 * base;
}

/* One (function, space) panel at vertical offset `y0`. */
static void panel(FILE *out, const vxp_analysis *an, const vxp_resident_set *rs,
                  const record_key *set, size_t n, double y0) {
  uint32_t last = 0;
  for (size_t k = 0; k < n; k++) {
    size_t i = set[k].index;
    const vxp_record *r = vxp_analysis_record(an, i);
    uint32_t rel = 0;
    if (vxp_record_order(r) > last) last = vxp_record_order(r);
    if (vxp_record_release_order(r, &rel) && rel > last) last = rel;
  }
  uint32_t end = last + 1; /* the function's end: what is held is freed there */
  step *steps = calloc((size_t)end + 2, sizeof(step));
  if (!steps) return;
  /* live(p) for p = 1 .. last, and the placement at each position. */
  uint64_t peak = vxp_resident_set_peak_bytes(rs), cap = vxp_resident_set_capacity_bytes(rs);
  uint32_t peak_at = 0;
  for (uint32_t p = 1; p <= last; p++) {
    steps[p].order = p;
    steps[p].record = SIZE_MAX;
    uint64_t live = 0;
    for (size_t k = 0; k < n; k++) {
      size_t i = set[k].index;
      const vxp_record *r = vxp_analysis_record(an, i);
      uint32_t rel = 0;
      bool released = vxp_record_release_order(r, &rel);
      if (vxp_record_order(r) <= p && (!released || rel >= p)) live += vxp_record_bytes(r);
      if (vxp_record_order(r) == p) steps[p].record = i;
    }
    steps[p].live = live;
    if (live == peak && peak_at == 0) peak_at = p;
  }
  uint64_t top = peak > cap ? peak : cap;
  top += top / 10 + 1;
  double scale;
  const char *unit;
  axis_unit(top, &scale, &unit);
  double plot_w = W - LEFT - RIGHT, py0 = y0 + TOP, py1 = py0 + PLOT_H;
#define X(p) (LEFT + plot_w * (double)(p) / (double)end)
#define Y(v) (py1 - PLOT_H * (double)(v) / (double)top)
  char b1[32], b2[32], b3[32];
  fprintf(out, "<g class=\"panel\" data-function=\"");
  xml_text(out, vxp_resident_set_function(rs));
  fprintf(out, "\" data-space=\"");
  xml_text(out, vxp_resident_set_space(rs));
  fprintf(out, "\" data-peak-bytes=\"%llu\" data-capacity-bytes=\"%llu\" data-peak-order=\"%u\">\n",
          (unsigned long long)peak, (unsigned long long)cap, peak_at);
  fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"title\">", LEFT, y0 + 24);
  xml_text(out, vxp_resident_set_function(rs));
  fputs(": bytes live in ", out);
  xml_text(out, vxp_resident_set_space(rs));
  fputs(" along program order</text>\n", out);
  uint64_t sum = 0;
  bool has_sum = vxp_resident_set_allocated_bytes(rs, &sum);
  fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"sub\">peak %s (%s bytes) of %s, %.1f%%",
          LEFT, y0 + 44, vxpeak_binary(peak, b1), vxpeak_grouped(peak, b2), vxpeak_binary(cap, b3),
          cap ? 100.0 * (double)peak / (double)cap : 0.0);
  if (has_sum) fprintf(out, "; the sum over the run would say %s", vxpeak_binary(sum, b1));
  if (peak > cap) fprintf(out, " \xe2\x80\x94 over capacity by %s", vxpeak_binary(peak - cap, b1));
  fputs("</text>\n", out);
  /* Axes and ticks. */
  fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"axis\"/>\n", LEFT,
          py1, LEFT + plot_w, py1);
  fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"axis\"/>\n", LEFT,
          py0, LEFT, py1);
  double stepv = tick_step((double)top / scale);
  for (double t = 0; t * scale <= (double)top; t += stepv) {
    double y = Y(t * scale);
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>\n", LEFT,
            y, LEFT + plot_w, y);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%g %s</text>\n",
            LEFT - 6, y + 4, t, unit);
  }
  fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">program order "
          "(placements and calls, 1 to %u); hover a step for its source line</text>\n",
          LEFT + plot_w / 2, py1 + 34, last);
  /* Capacity. */
  fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"capacity\"/>\n",
          LEFT, Y(cap), LEFT + plot_w, Y(cap));
  fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"caplabel\">capacity %s</text>\n",
          LEFT + 8, Y(cap) - 6, vxpeak_binary(cap, b1));
  /* The curve: a step path, filled beneath. */
  fprintf(out, "<path class=\"area\" d=\"M%.1f %.1f", X(0), Y(0));
  for (uint32_t p = 1; p <= last; p++) fprintf(out, " H%.1f V%.1f", X(p), Y(steps[p].live));
  fprintf(out, " H%.1f V%.1f Z\"/>\n", X(end), Y(0));
  fprintf(out, "<path class=\"live\" d=\"M%.1f %.1f", X(0), Y(0));
  for (uint32_t p = 1; p <= last; p++) fprintf(out, " H%.1f V%.1f", X(p), Y(steps[p].live));
  fprintf(out, " H%.1f V%.1f\"/>\n", X(end), Y(0));
  /* Hover targets: one column per position, its source line in the title. */
  for (uint32_t p = 1; p <= last; p++) {
    fprintf(out, "<rect class=\"hit\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
            "data-order=\"%u\" data-live-bytes=\"%llu\"><title>", X(p), py0,
            X(p + 1) - X(p), PLOT_H, p, (unsigned long long)steps[p].live);
    if (steps[p].record != SIZE_MAX) {
      const vxp_record *r = vxp_analysis_record(an, steps[p].record);
      fprintf(out, "line %u: ", vxp_record_range(r).start.line + 1);
      xml_text(out, vxp_record_binding(r) ? vxp_record_binding(r) : "(unbound)");
      fprintf(out, " placed, %s bytes", vxpeak_grouped(vxp_record_bytes(r), b1));
      if (vxp_record_role(r)) {
        fputs(" (", out);
        xml_text(out, vxp_record_role(r));
        fputs(")", out);
      }
    } else {
      fputs("no placement in this space here (a call, a release, or another space)", out);
    }
    fprintf(out, "; live: %s bytes (%s)</title></rect>\n", vxpeak_grouped(steps[p].live, b1),
            vxpeak_binary(steps[p].live, b2));
  }
  /* The peak: a marker and its breakdown by role (or by binding without roles). */
  if (peak_at) {
    double px = (X(peak_at) + X(peak_at + 1)) / 2, py = Y(peak);
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"peakline\"/>\n",
            px, py, px, py1);
    fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" class=\"peak\"><title>peak: %s bytes "
            "(%s)</title></circle>\n", px, py, vxpeak_grouped(peak, b1), vxpeak_binary(peak, b2));
    double bx = W - RIGHT + 16, by = py0 + 4;
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"peaklabel\">peak %s</text>\n", bx, by,
            vxpeak_binary(peak, b1));
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\">%zu tiles live at position %u:</text>\n",
            bx, by + 18, vxp_resident_set_tile_count(rs), peak_at);
    /* Group live tiles by role, in order of size. */
    const char *names[32];
    uint64_t bytes[32];
    size_t tiles[32], groups = 0;
    for (size_t k = 0; k < n; k++) {
      const vxp_record *r = vxp_analysis_record(an, set[k].index);
      if (!vxp_record_live_at_peak(r)) continue;
      const char *key = vxp_record_role(r) ? vxp_record_role(r)
                        : vxp_record_binding(r) ? vxp_record_binding(r) : "(unbound)";
      size_t g = 0;
      while (g < groups && strcmp(names[g], key) != 0) g++;
      if (g == groups) {
        if (groups == 32) continue;
        names[groups] = key;
        bytes[groups] = 0;
        tiles[groups] = 0;
        groups++;
      }
      bytes[g] += vxp_record_bytes(r);
      tiles[g]++;
    }
    for (size_t a = 0; a < groups; a++) {
      size_t best = a;
      for (size_t b = a + 1; b < groups; b++) if (bytes[b] > bytes[best]) best = b;
      const char *tn = names[a]; names[a] = names[best]; names[best] = tn;
      uint64_t tb = bytes[a]; bytes[a] = bytes[best]; bytes[best] = tb;
      size_t tt = tiles[a]; tiles[a] = tiles[best]; tiles[best] = tt;
    }
    double ly = by + 40;
    /* Every line in the peak's unit, so that they add up by eye. */
    double pscale;
    const char *punit;
    axis_unit(peak, &pscale, &punit);
    for (size_t g = 0; g < groups && g < 10; g++, ly += 18) {
      fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"legend\">%.2f %s  ", bx, ly,
              (double)bytes[g] / pscale, punit);
      xml_text(out, names[g]);
      if (tiles[g] > 1) fprintf(out, " (%zu)", tiles[g]);
      fputs("</text>\n", out);
    }
    if (groups > 10) fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"legend\">and %zu more</text>\n",
                             bx, ly, groups - 10);
  }
  fputs("</g>\n", out);
#undef X
#undef Y
  free(steps);
}

int vxpeak_plot(const vxpeak_args *args) {
  vxpeak_session s;
  int exit_code = vxpeak_session_open(&s, args);
  FILE *out = NULL;
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  if (!vxpeak_check_selection(args, s.an)) {
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  vxpeak_render_all(stderr, s.an);
  size_t panels = 0;
  for (size_t i = 0; i < vxp_analysis_resident_set_count(s.an); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(s.an, i);
    if (args->function && strcmp(args->function, vxp_resident_set_function(rs)) != 0) continue;
    if (args->space && strcmp(args->space, vxp_resident_set_space(rs)) != 0) continue;
    panels++;
  }
  if (panels == 0) {
    fprintf(stderr, "vxpeak plot: no tile is placed in a space with a capacity%s%s: nothing to "
            "plot\n", args->function ? " by " : "", args->function ? args->function : "");
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  out = strcmp(args->output, "-") == 0 ? stdout : fopen(args->output, "w");
  if (!out) {
    fprintf(stderr, "vxpeak plot: cannot write '%s': %s\n", args->output, strerror(errno));
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  double height = 40 + PANEL_H * (double)panels;
  fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
          "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
          W, height, W, height);
  fputs("<style>\n"
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
        "</style>\n", out);
  fputs("<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n", out);
  fprintf(out, "<text x=\"%.1f\" y=\"24\" class=\"sub\">", LEFT);
  xml_text(out, args->file);
  fputs(" on ", out);
  xml_text(out, s.target.machine ? vxp_machine_label(s.target.machine) : "its own machine model");
  for (size_t i = 0; i < args->define_count; i++)
    fprintf(out, ", %s=%llu", args->defines[i].name, (unsigned long long)args->defines[i].value);
  fputs("</text>\n", out);
  size_t nrec = vxp_analysis_record_count(s.an);
  record_key *keys = calloc(nrec + 1, sizeof(*keys));
  if (!keys) {
    fprintf(stderr, "vxpeak plot: out of memory\n");
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  for (size_t i = 0; i < nrec; i++) {
    const vxp_record *r = vxp_analysis_record(s.an, i);
    keys[i] = (record_key){vxp_record_function(r), vxp_record_space(r), i};
  }
  qsort(keys, nrec, sizeof(*keys), compare_keys);
  double y0 = 30;
  for (size_t i = 0; i < vxp_analysis_resident_set_count(s.an); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(s.an, i);
    if (args->function && strcmp(args->function, vxp_resident_set_function(rs)) != 0) continue;
    if (args->space && strcmp(args->space, vxp_resident_set_space(rs)) != 0) continue;
    size_t first, count;
    members(keys, nrec, rs, &first, &count);
    panel(out, s.an, rs, keys + first, count, y0);
    y0 += PANEL_H;
  }
  free(keys);
  fputs("</svg>\n", out);
  bool ok = out == stdout ? fflush(out) == 0 : fclose(out) == 0;
  out = NULL;
  if (!ok) {
    fprintf(stderr, "vxpeak plot: cannot write '%s': %s\n", args->output, strerror(errno));
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  exit_code = vxp_analysis_admitted(s.an) ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
done:
  if (out && out != stdout) fclose(out);
  vxpeak_session_close(&s);
  return exit_code;
}
