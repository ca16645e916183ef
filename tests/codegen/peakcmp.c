/* SPDX-License-Identifier: Apache-2.0 */
/* peakcmp.c - compare what a generated CUDA program measured with what the analysis says.
 *
 *   peakcmp FILE.vx MEASURED.json [--machine FILE]
 *   peakcmp FILE.vx --list [--machine FILE]     (the static peaks, one "function space
 *                                                bytes" line each, for tests/gpu/)
 *
 * FILE.vx is analysed through the public API as `vxpeak emit-cuda` analyses it: against
 * its own machine model, FILE, or (declaring none) the built-in a100-40 and default host;
 * MEASURED.json is the last line the generated program printed. Every resident set
 * (function, space) must have been measured, with a high-water mark equal to
 * vxp_resident_set_peak_bytes byte for byte; every measured (function, space) must have a
 * resident set; nothing may be live at exit and no activation may leave holding bytes. The
 * whole run's high-water mark in each space must equal main's call-tree total there
 * (vxp_call_tree_total_bytes: main's own peak, or what it holds across a call plus the
 * callee's total, along the worst path), and 0 where main's call tree places nothing.
 * Exit 0 when all of that holds, 1 when not, 2 on usage or input errors. With --list, the
 * static figures are printed instead: "function space bytes" per resident set, then
 * "total main space bytes" per space of main's call tree (tests/gpu/compare.py). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "vxpeak.h"

static int failures;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "peakcmp: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  failures++;
}

/* The measured high-water mark of (function, space), or -1 when it was not measured. */
static long long measured(json_t *report, const char *function, const char *space) {
  size_t i, k;
  json_t *fn, *sp;
  json_array_foreach(json_object_get(report, "functions"), i, fn) {
    if (strcmp(json_string_value(json_object_get(fn, "function")), function) != 0) continue;
    json_array_foreach(json_object_get(fn, "spaces"), k, sp) {
      if (strcmp(json_string_value(json_object_get(sp, "space")), space) == 0)
        return (long long)json_integer_value(json_object_get(sp, "high_water_bytes"));
    }
  }
  return -1;
}

static const vxp_resident_set *resident(const vxp_analysis *an, const char *function,
                                        const char *space) {
  for (size_t i = 0; i < vxp_analysis_resident_set_count(an); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
    if (strcmp(vxp_resident_set_function(rs), function) == 0 &&
        strcmp(vxp_resident_set_space(rs), space) == 0)
      return rs;
  }
  return NULL;
}

/* main's call tree in `space`, or NULL when main's calls place nothing there. */
static const vxp_call_tree *main_tree(const vxp_analysis *an, const char *space) {
  for (size_t i = 0; i < vxp_analysis_call_tree_count(an); i++) {
    const vxp_call_tree *ct = vxp_analysis_call_tree(an, i);
    if (strcmp(vxp_call_tree_function(ct), "main") == 0 && strcmp(vxp_call_tree_space(ct), space) == 0)
      return ct;
  }
  return NULL;
}

static size_t totals_compared;

static void compare(const vxp_analysis *an, json_t *report) {
  size_t sets = vxp_analysis_resident_set_count(an);
  for (size_t i = 0; i < sets; i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
    const char *fn = vxp_resident_set_function(rs), *sp = vxp_resident_set_space(rs);
    long long m = measured(report, fn, sp);
    unsigned long long peak = vxp_resident_set_peak_bytes(rs);
    if (m < 0) fail("%s/%s: static peak %llu bytes was never measured (not run?)", fn, sp, peak);
    else if ((unsigned long long)m != peak)
      fail("%s/%s: measured %llu bytes, static peak %llu bytes", fn, sp, (unsigned long long)m, peak);
  }
  size_t i, k;
  json_t *f, *s;
  json_array_foreach(json_object_get(report, "functions"), i, f) {
    const char *fn = json_string_value(json_object_get(f, "function"));
    json_array_foreach(json_object_get(f, "spaces"), k, s) {
      const char *sp = json_string_value(json_object_get(s, "space"));
      unsigned long long m = (unsigned long long)json_integer_value(json_object_get(s, "high_water_bytes"));
      if (m && !resident(an, fn, sp))
        fail("%s/%s: measured %llu bytes where the analysis has no tile", fn, sp, m);
    }
  }
  json_array_foreach(json_object_get(report, "spaces"), i, s) {
    const char *sp = json_string_value(json_object_get(s, "space"));
    unsigned long long live = (unsigned long long)json_integer_value(json_object_get(s, "live_at_exit_bytes"));
    unsigned long long high = (unsigned long long)json_integer_value(json_object_get(s, "high_water_bytes"));
    if (live) fail("%s: %llu bytes still live at exit", sp, live);
    if (json_is_true(json_object_get(s, "host"))) continue;
    const vxp_call_tree *ct = main_tree(an, sp);
    unsigned long long total = ct ? (unsigned long long)vxp_call_tree_total_bytes(ct) : 0;
    if (ct && !vxp_call_tree_bounded(ct))
      fail("%s: main's call tree is unbounded (a recursion places tiles)", sp);
    else if (high != total)
      fail("%s: the run's high-water mark %llu differs from main's call-tree total %llu", sp,
           high, total);
    else
      totals_compared++;
  }
  if (json_integer_value(json_object_get(report, "frame_leaks")) != 0)
    fail("%llu function activation(s) left holding tiles",
         (unsigned long long)json_integer_value(json_object_get(report, "frame_leaks")));
}

int main(int argc, char **argv) {
  if (argc != 3 && !(argc == 5 && strcmp(argv[3], "--machine") == 0)) {
    fprintf(stderr, "usage: peakcmp FILE.vx MEASURED.json [--machine FILE]\n");
    return 2;
  }
  bool list = strcmp(argv[2], "--list") == 0;
  json_error_t err;
  json_t *report = list ? json_object() : json_load_file(argv[2], 0, &err);
  if (!list && (!report || !json_is_array(json_object_get(report, "functions")))) {
    fprintf(stderr, "peakcmp: %s: not a vxpeak-cuda-memory report (%s)\n", argv[2], err.text);
    json_decref(report);
    return 2;
  }
  vxp_context *ctx = NULL;
  vxp_source *src = NULL, *msrc = NULL;
  vxp_program *prog = NULL;
  vxp_machine *machine = NULL, *host = NULL;
  vxp_analysis *an = NULL;
  int status = 2;
  if (vxp_context_new(&ctx, NULL) != VXP_OK || vxp_source_load_file(&src, ctx, argv[1]) != VXP_OK ||
      vxp_program_parse(&prog, ctx, src) != VXP_OK)
    goto done;
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  if (argc == 5) {
    if (vxp_source_load_file(&msrc, ctx, argv[4]) != VXP_OK ||
        vxp_machine_load(&machine, ctx, msrc) != VXP_OK)
      goto done;
    opts.machine = machine;
  } else if (!vxp_program_declares_machine(prog)) {
    if (vxp_machine_builtin(&machine, ctx, "a100-40") != VXP_OK ||
        vxp_machine_builtin(&host, ctx, "host-default") != VXP_OK)
      goto done;
    opts.machine = machine;
    opts.host = host;
  }
  if (vxp_analyze(&an, ctx, prog, &opts) != VXP_OK) goto done;
  if (list) {
    for (size_t i = 0; i < vxp_analysis_resident_set_count(an); i++) {
      const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
      printf("%s %s %llu\n", vxp_resident_set_function(rs), vxp_resident_set_space(rs),
             (unsigned long long)vxp_resident_set_peak_bytes(rs));
    }
    for (size_t i = 0; i < vxp_analysis_call_tree_count(an); i++) {
      const vxp_call_tree *ct = vxp_analysis_call_tree(an, i);
      if (strcmp(vxp_call_tree_function(ct), "main") != 0) continue;
      printf("total main %s %llu\n", vxp_call_tree_space(ct),
             (unsigned long long)vxp_call_tree_total_bytes(ct));
    }
    status = 0;
    goto done;
  }
  compare(an, report);
  printf("peakcmp: %s: %zu resident set(s) and %zu call-tree total(s) compared, %d "
         "mismatch(es)\n", argv[1], vxp_analysis_resident_set_count(an), totals_compared, failures);
  status = failures ? 1 : 0;
done:
  if (status == 2) fprintf(stderr, "peakcmp: %s\n", ctx ? vxp_context_errmsg(ctx) : "no context");
  vxp_analysis_free(an);
  vxp_machine_free(host);
  vxp_machine_free(machine);
  vxp_program_free(prog);
  vxp_source_free(msrc);
  vxp_source_free(src);
  vxp_context_free(ctx);
  json_decref(report);
  return status;
}
