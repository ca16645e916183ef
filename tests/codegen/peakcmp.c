/* SPDX-License-Identifier: Apache-2.0 */
/* peakcmp.c - compare what a generated CUDA program measured with what the analysis says.
 *
 *   peakcmp FILE.vx MEASURED.json [--machine FILE]
 *   peakcmp FILE.vx --list [--machine FILE]     (the static peaks, one "function space
 *                                                bytes" line each, for tests/gpu/)
 *
 * FILE.vx is analysed through the public API as `vxpeak emit-cuda` analyses it: against
 * its own machine model, FILE, or (declaring none) the built-in a100-40 and default host;
 * MEASURED.json is the last line the generated program printed.
 *
 * The rule, for every resident set (function, space) and for the whole run's high-water
 * mark in each device space against main's call-tree total (vxp_call_tree_total_bytes):
 *
 *   equal    where the control flow is straight-line or every branch places the same
 *            tiles (the program's JSON gives the function no reason): measured == static,
 *            byte for byte;
 *   at most  where the generator named a reason (match-arms: arms do not release, so the
 *            analysis holds every arm's tiles; branch: `if` arms place different tiles;
 *            loop-trips: a loop whose trips do not run; early-exit: a return, break or
 *            continue under a condition; call-not-taken: a call under a condition, for the
 *            run's total; not-called: the function never ran): measured <= static, and the
 *            reason is printed;
 *   never    a measured byte above the static peak: a failure under either rule.
 *
 * Every resident set must appear in the report (a function listed with 0 calls measured 0
 * bytes), every measured (function, space) must have a resident set, nothing may be live
 * at exit and no activation may leave holding bytes. Exit 0 when all of that holds, 1 when
 * not, 2 on usage or input errors. One line per comparison says which rule applied. With
 * --list, the
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

static const char *const known_reasons[] = {"match-arms", "branch",         "loop-trips",
                                            "early-exit", "call-not-taken", "not-called"};

/* A report's "reasons" array as "a, b" into buf; false when it is missing, not an array of
 * known reasons, or (for an at_most rule) empty. */
static bool reasons_text(json_t *obj, bool at_most, char *buf, size_t size) {
  json_t *reasons = json_object_get(obj, "reasons"), *r;
  size_t i, o = 0;
  buf[0] = '\0';
  if (!json_is_array(reasons)) return false;
  json_array_foreach(reasons, i, r) {
    const char *name = json_string_value(r);
    bool known = false;
    for (size_t k = 0; name && k < sizeof(known_reasons) / sizeof(known_reasons[0]); k++)
      known |= strcmp(name, known_reasons[k]) == 0;
    if (!known) return false;
    o += (size_t)snprintf(buf + o, o < size ? size - o : 0, "%s%s", i ? ", " : "", name);
  }
  return at_most ? json_array_size(reasons) > 0 : json_array_size(reasons) == 0;
}

/* Apply the rule to one comparison; `what` names it. `rule_obj` holds "rule" and
 * "reasons". */
static void apply_rule(const char *what, json_t *rule_obj, unsigned long long m,
                       unsigned long long peak) {
  const char *rule = json_string_value(json_object_get(rule_obj, "rule"));
  bool at_most = rule && strcmp(rule, "at_most") == 0;
  char why[256];
  if (!rule || (!at_most && strcmp(rule, "equal") != 0) ||
      !reasons_text(rule_obj, at_most, why, sizeof(why))) {
    fail("%s: the report states no valid rule (\"rule\" equal with no reasons, or at_most "
         "with known reasons)",
         what);
    return;
  }
  if (m > peak) {
    fail("%s: measured %llu bytes, %llu above the static peak %llu (a failure under any rule)",
         what, m, m - peak, peak);
  } else if (!at_most && m != peak) {
    fail("%s: measured %llu bytes, static peak %llu: the rule is equal (straight-line, or "
         "every branch places the same tiles)",
         what, m, peak);
  } else if (at_most) {
    printf("peakcmp: %s: measured %llu <= static %llu (at most: %s)\n", what, m, peak, why);
  } else {
    printf("peakcmp: %s: measured %llu == static %llu (equal)\n", what, m, peak);
  }
}

/* The report's entry of `function`, or NULL. */
static json_t *function_entry(json_t *report, const char *function) {
  size_t i;
  json_t *fn;
  json_array_foreach(json_object_get(report, "functions"), i, fn) {
    if (strcmp(json_string_value(json_object_get(fn, "function")), function) == 0) return fn;
  }
  return NULL;
}

/* The measured high-water mark of (function, space): -1 when the function is not in the
 * report; 0 when it is but did not place in that space (or never ran). */
static long long measured(json_t *fn, const char *space) {
  size_t k;
  json_t *sp;
  if (!fn) return -1;
  json_array_foreach(json_object_get(fn, "spaces"), k, sp) {
    if (strcmp(json_string_value(json_object_get(sp, "space")), space) == 0)
      return (long long)json_integer_value(json_object_get(sp, "high_water_bytes"));
  }
  return 0;
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
    if (strcmp(vxp_call_tree_function(ct), "main") == 0 &&
        strcmp(vxp_call_tree_space(ct), space) == 0)
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
    json_t *entry = function_entry(report, fn);
    long long m = measured(entry, sp);
    unsigned long long peak = vxp_resident_set_peak_bytes(rs);
    char what[256];
    snprintf(what, sizeof(what), "%s/%s", fn, sp);
    if (m < 0)
      fail("%s: static peak %llu bytes, but the report has no function '%s'", what, peak, fn);
    else
      apply_rule(what, entry, (unsigned long long)m, peak);
  }
  size_t i, k;
  json_t *f, *s;
  json_array_foreach(json_object_get(report, "functions"), i, f) {
    const char *fn = json_string_value(json_object_get(f, "function"));
    json_array_foreach(json_object_get(f, "spaces"), k, s) {
      const char *sp = json_string_value(json_object_get(s, "space"));
      unsigned long long m =
          (unsigned long long)json_integer_value(json_object_get(s, "high_water_bytes"));
      if (m && !resident(an, fn, sp))
        fail("%s/%s: measured %llu bytes where the analysis has no tile", fn, sp, m);
    }
  }
  json_array_foreach(json_object_get(report, "spaces"), i, s) {
    const char *sp = json_string_value(json_object_get(s, "space"));
    unsigned long long live =
        (unsigned long long)json_integer_value(json_object_get(s, "live_at_exit_bytes"));
    unsigned long long high =
        (unsigned long long)json_integer_value(json_object_get(s, "high_water_bytes"));
    if (live) fail("%s: %llu bytes still live at exit", sp, live);
    if (json_is_true(json_object_get(s, "host"))) continue;
    const vxp_call_tree *ct = main_tree(an, sp);
    unsigned long long total = ct ? (unsigned long long)vxp_call_tree_total_bytes(ct) : 0;
    char what[256];
    snprintf(what, sizeof(what), "run/%s against main's call-tree total", sp);
    if (ct && !vxp_call_tree_bounded(ct))
      fail("%s: main's call tree is unbounded (a recursion places tiles)", sp);
    else if (!json_is_object(json_object_get(report, "run")))
      fail("%s: the report states no rule for the run", what);
    else {
      apply_rule(what, json_object_get(report, "run"), high, total);
      totals_compared++;
    }
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
         "mismatch(es)\n",
         argv[1], vxp_analysis_resident_set_count(an), totals_compared, failures);
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
