/* SPDX-License-Identifier: Apache-2.0 */
/* sweep_report.c - the report of one or more sweeps (vxp_report_sweep; `vxpeak sweep`): per
 * machine, the largest value that fits, its peak and spare room, the first value rejected
 * and why, as a table or JSON (vxpeak-sweep-v1). */
#include <stdio.h>

#include "analysis_data.h"
#include "context.h"
#include "report.h"
#include "sweep.h"

static double spare(const vxp_sweep_point *p) {
  uint64_t cap = p->capacity_bytes, peak = p->peak_bytes;
  if (cap == 0) return 0.0;
  /* A peak equal to the capacity has 0 to spare, not -0 (which printed as "-0.00%"). */
  return peak > cap ? -((double)(peak - cap) / (double)cap) : (double)(cap - peak) / (double)cap;
}

/* Why a value does not fit, naming the function and the diagnostic that decided it
 * ("decode: over capacity (E6010)"). */
static void why_text(vxp_context *ctx, vxp_sb *sb, const vxp_sweep_point *p) {
  const char *code = vxp_sweep_point_code(p), *fn = p->cause;
  if (p->reason == VXP_MISFIT_NONE) {
    vxp_sb__puts(ctx, sb, "fits");
    return;
  }
  if (fn) vxp_sb__printf(ctx, sb, "%s: ", fn);
  switch (p->reason) {
  case VXP_MISFIT_WITHIN_MARGIN: vxp_sb__puts(ctx, sb, "inside the margin"); break;
  case VXP_MISFIT_OVER_CAPACITY:
    vxp_sb__printf(ctx, sb, "over capacity%s%s%s", code ? " (" : "", code ? code : "",
                   code ? ")" : "");
    break;
  case VXP_MISFIT_SIZE_UNKNOWN: vxp_sb__puts(ctx, sb, "a size unknown (W1029)"); break;
  case VXP_MISFIT_NONE:
  case VXP_MISFIT_ERROR: vxp_sb__printf(ctx, sb, "error %s", code ? code : ""); break;
  }
}

/* `s` right-aligned (width > 0) or left-aligned (width < 0) in |width| columns, as printf's
 * %*s does, for cells built in a buffer of their own. */
static void cell(vxp_context *ctx, vxp_sb *sb, vxp_sb *text, int width) {
  if (text->failed) sb->failed = true;
  vxp_sb__printf(ctx, sb, "%*s", width, vxp_sb__text(text));
  vxp_sb__free(ctx, text);
}

static void point_cells(vxp_context *ctx, vxp_sb *sb, const vxp_sweep_point *p) {
  char b1[32], b2[32];
  if (!p) {
    vxp_sb__printf(ctx, sb, " %8s %29s", "-", "");
    return;
  }
  vxp_sb set = {0};
  vxp_sb__printf(ctx, &set, "%s (%s)", vxp_num__grouped(p->peak_bytes, b1),
                 vxp_num__decimal(p->peak_bytes, b2));
  vxp_sb__printf(ctx, sb, " %8llu ", (unsigned long long)p->value);
  cell(ctx, sb, &set, 29);
}

static const vxp_sweep_point *point_or_null(const vxp_sweep *sw, size_t i) {
  return i < sw->points.len ? &sw->points.items[i] : NULL;
}

static void text(vxp_context *ctx, vxp_sb *sb, const vxp_sweep *const *sweeps,
                 const char *const *names, size_t n) {
  const vxp_sweep *first = sweeps[0];
  char b1[32], b2[32];
  vxp_sb__printf(ctx, sb, "%s: the largest %s in %llu..%llu that fits", first->q.file,
                 first->q.name, (unsigned long long)first->q.lo, (unsigned long long)first->q.hi);
  if (first->q.margin_ppm) {
    vxp_num__ppm_percent(first->q.margin_ppm, b1);
    vxp_sb__printf(ctx, sb, " with %s%% of each capacity free", b1);
  }
  if (first->q.function || first->q.space)
    vxp_sb__printf(ctx, sb, " (%s%s%s%s)", first->q.function ? "function " : "",
                   first->q.function ? first->q.function : "",
                   first->q.function && first->q.space ? ", " : "",
                   first->q.space ? first->q.space : "");
  vxp_sb__printf(ctx, sb, "\n%s: %s\n\n", vxp_search_name(first->method),
                 vxp_sb__text(&first->reason));
  vxp_sb__printf(ctx, sb, "%-10s %29s %8s %29s %7s %8s %29s  %-30s %s\n", "machine", "capacity",
                 "largest", "its peak", "spare", "next", "its peak", "why not", "analyses");
  for (size_t i = 0; i < n; i++) {
    const vxp_sweep_point *best = point_or_null(sweeps[i], sweeps[i]->largest);
    const vxp_sweep_point *next = point_or_null(sweeps[i], sweeps[i]->rejected);
    const vxp_sweep_point *any = best ? best : next;
    uint64_t cap = any ? any->capacity_bytes : 0;
    vxp_sb capcell = {0};
    if (cap)
      vxp_sb__printf(ctx, &capcell, "%s (%s)", vxp_num__grouped(cap, b1),
                     vxp_num__decimal(cap, b2));
    else
      vxp_sb__puts(ctx, &capcell, "-");
    vxp_sb__printf(ctx, sb, "%-10s ", names[i]);
    cell(ctx, sb, &capcell, 29);
    if (best) {
      point_cells(ctx, sb, best);
      vxp_sb__printf(ctx, sb, " %6.2f%%", 100.0 * spare(best));
    } else {
      vxp_sb__printf(ctx, sb, " %8s %29s %7s", "none", "", "");
    }
    if (next) {
      point_cells(ctx, sb, next);
      vxp_sb why = {0};
      why_text(ctx, &why, next);
      vxp_sb__puts(ctx, sb, "  ");
      cell(ctx, sb, &why, -30);
    } else {
      vxp_sb__printf(ctx, sb, " %8s %29s  %-30s", "-", "", "(HI fits)");
    }
    vxp_sb__printf(ctx, sb, " %zu\n", sweeps[i]->evaluations);
  }
}

static void json_point(vxp_jw *j, const vxp_sweep_point *p) {
  if (!p) {
    vxp_jw__null(j);
    return;
  }
  vxp_jw__open(j, '{');
  vxp_jw__key(j, "value");
  vxp_jw__u64(j, p->value);
  vxp_jw__key(j, "fits");
  vxp_jw__bool(j, p->fits);
  vxp_jw__key(j, "function");
  vxp_jw__string(j, p->function);
  vxp_jw__key(j, "space");
  vxp_jw__string(j, p->space);
  vxp_jw__key(j, "peak_bytes");
  vxp_jw__u64(j, p->peak_bytes);
  vxp_jw__key(j, "capacity_bytes");
  vxp_jw__u64(j, p->capacity_bytes);
  vxp_jw__key(j, "spare");
  vxp_jw__real(j, spare(p), 6);
  vxp_jw__key(j, "reason");
  vxp_jw__string(j, vxp_misfit_name(p->reason));
  vxp_jw__key(j, "code");
  vxp_jw__string(j, vxp_sweep_point_code(p));
  vxp_jw__key(j, "cause_function");
  vxp_jw__string(j, p->cause);
  vxp_jw__close(j, '}');
}

static void json(vxp_context *ctx, vxp_sb *sb, const vxp_sweep *const *sweeps,
                 const char *const *names, size_t n) {
  const vxp_sweep *first = sweeps[0];
  vxp_jw j;
  vxp_jw__init(&j, ctx, sb, true);
  vxp_jw__open(&j, '{');
  vxp_jw__key(&j, "schema");
  vxp_jw__string(&j, "vxpeak-sweep-v1");
  vxp_jw__key(&j, "file");
  vxp_jw__string(&j, first->q.file);
  vxp_jw__key(&j, "defines");
  vxp_jw__open(&j, '{');
  for (size_t i = 0; i < first->q.define_count; i++) {
    vxp_jw__key(&j, first->q.defines[i].name);
    vxp_jw__u64(&j, first->q.defines[i].value);
  }
  vxp_jw__close(&j, '}');
  vxp_jw__key(&j, "const");
  vxp_jw__string(&j, first->q.name);
  vxp_jw__key(&j, "lo");
  vxp_jw__u64(&j, first->q.lo);
  vxp_jw__key(&j, "hi");
  vxp_jw__u64(&j, first->q.hi);
  vxp_jw__key(&j, "margin");
  vxp_jw__real(&j, first->q.margin_ppm / 1e6, 6);
  vxp_jw__key(&j, "function");
  vxp_jw__string(&j, first->q.function);
  vxp_jw__key(&j, "space");
  vxp_jw__string(&j, first->q.space);
  vxp_jw__key(&j, "machines");
  vxp_jw__open(&j, '[');
  for (size_t i = 0; i < n; i++) {
    const vxp_sweep *sw = sweeps[i];
    vxp_jw__open(&j, '{');
    vxp_jw__key(&j, "machine");
    vxp_jw__string(&j, names[i]);
    vxp_jw__key(&j, "method");
    vxp_jw__string(&j, vxp_search_name(sw->method));
    vxp_jw__key(&j, "reason");
    vxp_jw__string(&j, vxp_sb__text(&sw->reason));
    vxp_jw__key(&j, "analyses");
    vxp_jw__u64(&j, sw->evaluations);
    vxp_jw__key(&j, "largest");
    json_point(&j, point_or_null(sw, sw->largest));
    vxp_jw__key(&j, "first_rejected");
    json_point(&j, point_or_null(sw, sw->rejected));
    vxp_jw__key(&j, "points");
    vxp_jw__open(&j, '[');
    for (size_t k = 0; k < sw->points.len; k++)
      json_point(&j, &sw->points.items[k]);
    vxp_jw__close(&j, ']');
    vxp_jw__close(&j, '}');
  }
  vxp_jw__close(&j, ']');
  vxp_jw__close(&j, '}');
}

static bool same_text(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Two sweeps belong in one report when they asked the same question of the same program. */
static bool same_question(const vxp_sweep *a, const vxp_sweep *b) {
  bool same = same_text(a->q.file, b->q.file) && same_text(a->q.name, b->q.name) &&
              a->q.lo == b->q.lo && a->q.hi == b->q.hi && a->q.margin_ppm == b->q.margin_ppm &&
              same_text(a->q.function, b->q.function) && same_text(a->q.space, b->q.space) &&
              a->q.define_count == b->q.define_count;
  for (size_t i = 0; same && i < a->q.define_count; i++)
    same = strcmp(a->q.defines[i].name, b->q.defines[i].name) == 0 &&
           a->q.defines[i].value == b->q.defines[i].value;
  return same;
}

int vxp_report_sweep(vxp_report **out, vxp_context *ctx, const vxp_sweep *const *sweeps,
                     const char *const *machines, size_t count, const vxp_report_options *opts) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (!out || !ctx || !sweeps || count == 0)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_report_sweep")
               : VXP_EINVAL;
  for (size_t i = 0; i < count; i++) {
    VXP__TAG_RC(ctx, sweeps[i], VXP_TAG_SWEEP);
    if (!sweeps[i])
      return vxp_ctx__error(ctx, VXP_EINVAL, "vxp_report_sweep: sweep %zu is NULL", i);
    if (!same_question(sweeps[0], sweeps[i]))
      return vxp_ctx__error(ctx, VXP_EINVAL,
                            "vxp_report_sweep: sweep %zu swept another constant, range, "
                            "margin, selection or program than sweep 0",
                            i);
  }
  vxp_report_options o;
  int rc = vxp_report__options(ctx, opts, &o, VXP_REPORT__TEXT_JSON);
  if (rc != VXP_OK) return rc;
  /* Each machine's name: the caller's, else the label of the machine it was swept on. */
  const char **names = vxp_ctx__calloc(ctx, count, sizeof(*names));
  if (!names) return vxp_ctx__nomem(ctx);
  for (size_t i = 0; i < count; i++)
    names[i] = machines && machines[i] ? machines[i]
               : sweeps[i]->q.machine  ? sweeps[i]->q.machine
                                       : "(the program's own)";
  vxp_sb sb = {0};
  if (o.format == VXP_REPORT_JSON)
    json(ctx, &sb, sweeps, names, count);
  else
    text(ctx, &sb, sweeps, names, count);
  vxp_ctx__free(ctx, names);
  return vxp_report__finish(out, ctx, &sb);
}
