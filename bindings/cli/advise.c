/* SPDX-License-Identifier: Apache-2.0 */
/* advise.c - `vxpeak advise`: for a program that does not fit, the changes that make it
 * fit, each found by analysing the program with the change applied (issue 32, item 3):
 * the largest value of each constant that sizes a tile (the sweep's answer), each machine
 * of the fleet on which it fits as it is, and the widest narrower element type per role.
 * Most useful first: fewest bytes given up, then the most tokens/s. A program that fits
 * gets the headroom of each (function, space) instead. JSON schema vxpeak-advice-v1. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { KIND_CONSTANT, KIND_MACHINE, KIND_TYPE };
static const char *const KIND_NAMES[] = {"constant", "machine", "element type"};

/* Narrower element types to try for a role, widest first: the first that fits gives up the
 * fewest bytes. */
static const char *const TYPES[] = {"bf16", "f16", "f8e4m3", "f8e5m2", "i8", "f4e2m1", "i4"};

#define MAX_SUGGESTIONS 64

typedef struct suggestion {
  int kind;
  char what[256]; /* the constant, the machine or the role */
  char type[16];
  uint64_t value;
  uint64_t peak, capacity; /* its fullest (function, space) */
  uint64_t given_up;       /* the fullest peak's bytes less than the program's */
  bool has_tps;
  double tps;
} suggestion;

typedef struct advisor {
  const vxpeak_args *args;
  vxpeak_session *s;
  vxp_analyze_options base;
  uint64_t peak, capacity; /* the program's fullest (function, space) as given */
  suggestion list[MAX_SUGGESTIONS];
  size_t count;
} advisor;

/* The (function, space) with a capacity whose peak is the largest share of it. */
static void fullest(const vxp_analysis *an, uint64_t *peak, uint64_t *cap) {
  *peak = *cap = 0;
  for (size_t i = 0; i < vxp_analysis_resident_set_count(an); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
    uint64_t p = vxp_resident_set_peak_bytes(rs), c = vxp_resident_set_capacity_bytes(rs);
    if (!c) continue;
    if (!*cap || (unsigned __int128)p * *cap > (unsigned __int128)*peak * c) {
      *peak = p;
      *cap = c;
    }
  }
}

static bool fits(const vxp_analysis *an, uint32_t margin_ppm) {
  return vxp_analysis_admitted(an) && !vxp_analysis_inside_margin(an, margin_ppm);
}

/* Tokens per second of the first function with device work, where the roofline names a
 * time per call. */
static bool throughput(const advisor *A, const vxp_analysis *an, double *tps) {
  vxp_context *ctx = A->s->program.ctx;
  uint64_t tokens = 1;
  if (A->args->tokens_name) {
    if (A->args->tokens_name[0] >= '0' && A->args->tokens_name[0] <= '9')
      tokens = strtoull(A->args->tokens_name, NULL, 10);
    else if (vxp_analysis_const_value(an, A->args->tokens_name, &tokens) != VXP_OK)
      return false;
  }
  for (size_t i = 0; i < vxp_analysis_resident_set_count(an); i++) {
    const char *fn = vxp_resident_set_function(vxp_analysis_resident_set(an, i));
    vxp_roofline *rf = NULL;
    if (vxp_roofline_new(&rf, ctx, an, fn) != VXP_OK) continue;
    uint64_t ps = 0;
    bool ok = vxp_roofline_region_count(rf) > 0 &&
              vxp_roofline_call_time_ps(rf, VXP_TRAFFIC_COMPULSORY, &ps) && ps > 0;
    vxp_roofline_free(rf);
    if (ok) {
      *tps = (double)tokens * 1e12 / (double)ps;
      return true;
    }
  }
  return false;
}

/* Record a change that was analysed and fits. */
static void add(advisor *A, int kind, const char *what, const char *type, uint64_t value,
                const vxp_analysis *an) {
  if (A->count == MAX_SUGGESTIONS) return;
  suggestion *g = &A->list[A->count++];
  memset(g, 0, sizeof(*g));
  g->kind = kind;
  snprintf(g->what, sizeof(g->what), "%s", what);
  if (type) snprintf(g->type, sizeof(g->type), "%s", type);
  g->value = value;
  fullest(an, &g->peak, &g->capacity);
  g->given_up = kind == KIND_MACHINE || g->peak >= A->peak ? 0 : A->peak - g->peak;
  g->has_tps = throughput(A, an, &g->tps);
}

/* Analyse with `opts`: NULL when the analysis itself fails (a usage error, said already). */
static vxp_analysis *analyse(advisor *A, const vxp_analyze_options *opts) {
  vxp_analysis *an = NULL;
  if (vxp_analyze(&an, A->s->program.ctx, A->s->program.prog, opts) != VXP_OK) return NULL;
  return an;
}

/* The largest value of each constant that sizes a tile, as `vxpeak sweep` finds it in
 * 1..its value, analysed there. A constant sizes a tile when its formula term is not zero,
 * or it is in a peak that is no formula. */
static void constants(advisor *A) {
  vxp_context *ctx = A->s->program.ctx;
  const vxp_program *prog = A->s->program.prog;
  for (size_t i = 0; i < vxp_program_const_count(prog); i++) {
    const char *name = vxp_program_const_name(prog, i);
    uint64_t now = 0;
    if (vxp_analysis_const_value(A->s->an, name, &now) != VXP_OK || now <= 1) continue;
    vxp_formula *f = NULL;
    if (vxp_formula_new(&f, A->s->an, &name, 1) != VXP_OK) continue;
    bool sizes = false;
    for (size_t k = 0; k < vxp_formula_set_count(f) && !sizes; k++) {
      uint64_t a = 0, b = 0, v = now - 1;
      sizes = !vxp_formula_is_polynomial(f, k) || vxp_formula_evaluate(f, k, &now, &a) != VXP_OK ||
              vxp_formula_evaluate(f, k, &v, &b) != VXP_OK || a != b;
    }
    vxp_formula_free(f);
    if (!sizes) continue;
    vxp_sweep_options so;
    if (vxp_sweep_options_init(&so, VXP_SWEEP_OPTIONS_VERSION) != VXP_OK) continue;
    so.name = name;
    so.lo = 1;
    so.hi = now;
    so.margin_ppm = A->args->margin_ppm;
    /* The sweep varies the constant itself: a -D of it is left out (the sweep refuses it). */
    vxp_const_override others[VXPEAK_MAX_DEFINES];
    size_t nothers = 0;
    for (size_t k = 0; k < A->base.override_count; k++)
      if (strcmp(A->base.overrides[k].name, name) != 0) others[nothers++] = A->base.overrides[k];
    vxp_analyze_options swept = A->base;
    swept.overrides = nothers ? others : NULL;
    swept.override_count = nothers;
    vxp_sweep *sw = NULL;
    if (vxp_sweep_run(&sw, ctx, prog, &swept, &so) != VXP_OK) continue;
    const vxp_sweep_point *best = vxp_sweep_largest(sw);
    if (best) {
      uint64_t value = vxp_sweep_point_value(best);
      vxp_const_override ov[VXPEAK_MAX_DEFINES + 1];
      size_t n = A->base.override_count;
      for (size_t k = 0; k < n; k++)
        ov[k] = A->base.overrides[k];
      ov[n].name = name;
      ov[n].value = value;
      vxp_analyze_options o = A->base;
      o.overrides = ov;
      o.override_count = n + 1;
      vxp_analysis *an = analyse(A, &o);
      if (an && fits(an, A->args->margin_ppm)) add(A, KIND_CONSTANT, name, NULL, value, an);
      vxp_analysis_free(an);
    }
    vxp_sweep_free(sw);
  }
}

/* Each machine of the fleet on which the program fits as it is, against that machine
 * alone (the program's own model set aside, as --machine-only does). */
static void machines(advisor *A) {
  vxp_context *ctx = A->s->program.ctx;
  vxp_machine *host = NULL;
  const vxp_machine *use_host = A->s->target.host;
  if (!use_host && vxp_machine_builtin(&host, ctx, "host-default") == VXP_OK) use_host = host;
  for (size_t i = 0; i < vxp_machine_builtin_count(); i++) {
    const char *name = vxp_machine_builtin_name(i);
    if (strncmp(name, "host-", 5) == 0) continue;
    if (A->s->target.label && strcmp(A->s->target.label, name) == 0) continue;
    vxp_source *src = NULL;
    vxp_machine *m = NULL;
    if (vxpeak_load_machine(ctx, name, &src, &m) != VXPEAK_EXIT_OK) {
      vxp_source_free(src);
      continue;
    }
    vxp_analyze_options o = A->base;
    o.machine = m;
    o.host = use_host;
    o.machine_only = 1;
    vxp_analysis *an = analyse(A, &o);
    if (an && fits(an, A->args->margin_ppm)) add(A, KIND_MACHINE, name, NULL, 0, an);
    vxp_analysis_free(an);
    vxp_machine_free(m);
    vxp_source_free(src);
  }
  vxp_machine_free(host);
}

/* Per role, the widest narrower element type with which the program fits. */
static void element_types(advisor *A) {
  const vxp_analysis *an0 = A->s->an;
  const char *roles[32];
  size_t nroles = 0;
  for (size_t i = 0; i < vxp_analysis_resident_set_count(an0); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an0, i);
    for (size_t k = 0; k < vxp_resident_set_record_count(rs); k++) {
      const char *role = vxp_record_role(vxp_resident_set_record(rs, k));
      bool seen = !role;
      for (size_t r = 0; r < nroles && !seen; r++)
        seen = strcmp(roles[r], role) == 0;
      if (!seen && nroles < 32) roles[nroles++] = role;
    }
  }
  for (size_t r = 0; r < nroles; r++) {
    for (size_t t = 0; t < sizeof(TYPES) / sizeof(TYPES[0]); t++) {
      vxp_retype rt[VXPEAK_MAX_RETYPES + 1];
      size_t n = A->base.retype_count;
      for (size_t k = 0; k < n; k++)
        rt[k] = A->base.retypes[k];
      rt[n].role = roles[r];
      rt[n].type = TYPES[t];
      vxp_analyze_options o = A->base;
      o.retypes = rt;
      o.retype_count = n + 1;
      vxp_analysis *an = analyse(A, &o);
      uint64_t peak = 0, cap = 0;
      if (an) fullest(an, &peak, &cap);
      bool done = an && peak < A->peak && fits(an, A->args->margin_ppm);
      if (done) add(A, KIND_TYPE, roles[r], TYPES[t], 0, an);
      vxp_analysis_free(an);
      if (done) break;
    }
  }
}

static int by_use(const void *x, const void *y) {
  const suggestion *a = x, *b = y;
  if (a->given_up != b->given_up) return a->given_up < b->given_up ? -1 : 1;
  if (a->has_tps != b->has_tps) return a->has_tps ? -1 : 1;
  if (a->has_tps && a->tps != b->tps) return a->tps > b->tps ? -1 : 1;
  return a->kind - b->kind;
}

/* ------------------------------------------------------------------ output */

/* How to apply a suggestion on the command line. */
static void apply_text(const advisor *A, const suggestion *g, char *buf, size_t cap) {
  if (g->kind == KIND_CONSTANT)
    snprintf(buf, cap, "-D %s=%llu", g->what, (unsigned long long)g->value);
  else if (g->kind == KIND_MACHINE)
    snprintf(buf, cap, "--machine %s%s%s", g->what,
             vxp_program_declares_machine(A->s->program.prog) ? " --machine-only" : "",
             A->args->host ? "" : " --host default"); /* a given --host is in the command already */
  else
    snprintf(buf, cap, "--retype \"%s=%s\"", g->what, g->type);
}

static void print_json(const advisor *A, bool fit) {
  char apply[600];
  printf("{\n  \"schema\": \"vxpeak-advice-v1\",\n  \"file\": ");
  vxpeak_json_string(stdout, A->args->file);
  printf(",\n  \"machine\": ");
  vxpeak_json_string(stdout, vxpeak_target_name(&A->s->target));
  printf(",\n  \"fits\": %s,\n  \"peak_bytes\": %llu,\n  \"capacity_bytes\": %llu,\n",
         fit ? "true" : "false", (unsigned long long)A->peak, (unsigned long long)A->capacity);
  if (fit) {
    printf("  \"headroom\": [");
    const vxp_analysis *an = A->s->an;
    bool first = true;
    for (size_t i = 0; i < vxp_analysis_resident_set_count(an); i++) {
      const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
      uint64_t p = vxp_resident_set_peak_bytes(rs), c = vxp_resident_set_capacity_bytes(rs);
      if (!c) continue;
      uint64_t budget = vxp_resident_set_budget_bytes(rs, A->args->margin_ppm);
      printf("%s\n    {\"function\": ", first ? "" : ",");
      vxpeak_json_string(stdout, vxp_resident_set_function(rs));
      printf(", \"space\": ");
      vxpeak_json_string(stdout, vxp_resident_set_space(rs));
      printf(", \"peak_bytes\": %llu, \"capacity_bytes\": %llu, \"budget_bytes\": %llu, "
             "\"headroom_bytes\": %llu}",
             (unsigned long long)p, (unsigned long long)c, (unsigned long long)budget,
             (unsigned long long)(budget > p ? budget - p : 0));
      first = false;
    }
    printf("\n  ],\n  \"suggestions\": []\n}\n");
    return;
  }
  printf("  \"suggestions\": [");
  for (size_t i = 0; i < A->count; i++) {
    const suggestion *g = &A->list[i];
    printf("%s\n    {\"kind\": \"%s\", ", i ? "," : "", KIND_NAMES[g->kind]);
    if (g->kind == KIND_CONSTANT) {
      printf("\"name\": ");
      vxpeak_json_string(stdout, g->what);
      printf(", \"value\": %llu, ", (unsigned long long)g->value);
    } else if (g->kind == KIND_MACHINE) {
      printf("\"machine\": ");
      vxpeak_json_string(stdout, g->what);
      printf(", ");
    } else {
      printf("\"role\": ");
      vxpeak_json_string(stdout, g->what);
      printf(", \"type\": ");
      vxpeak_json_string(stdout, g->type);
      printf(", ");
    }
    apply_text(A, g, apply, sizeof(apply));
    printf("\"apply\": ");
    vxpeak_json_string(stdout, apply);
    printf(", \"peak_bytes\": %llu, \"capacity_bytes\": %llu, \"bytes_given_up\": %llu, "
           "\"tokens_per_second\": ",
           (unsigned long long)g->peak, (unsigned long long)g->capacity,
           (unsigned long long)g->given_up);
    if (g->has_tps)
      printf("%.0f}", g->tps);
    else
      printf("null}");
  }
  printf("\n  ]\n}\n");
}

static void print_text(const advisor *A, bool fit) {
  char b1[32], b2[32], b3[32], apply[600];
  const char *machine = vxpeak_target_name(&A->s->target);
  if (fit) {
    printf("%s fits on %s; headroom per (function, space)%s:\n", A->args->file, machine,
           A->args->margin_ppm ? ", the margin kept free" : "");
    const vxp_analysis *an = A->s->an;
    for (size_t i = 0; i < vxp_analysis_resident_set_count(an); i++) {
      const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
      uint64_t p = vxp_resident_set_peak_bytes(rs), c = vxp_resident_set_capacity_bytes(rs);
      if (!c) continue;
      uint64_t budget = vxp_resident_set_budget_bytes(rs, A->args->margin_ppm);
      printf("  %s: %s peak %s of %s bytes: %s bytes to spare\n", vxp_resident_set_function(rs),
             vxp_resident_set_space(rs), vxpeak_grouped(p, b1), vxpeak_grouped(budget, b2),
             vxpeak_grouped(budget > p ? budget - p : 0, b3));
    }
    return;
  }
  printf("%s does not fit on %s: its fullest peak is %s of %s bytes (%.1f%%)\n", A->args->file,
         machine, vxpeak_grouped(A->peak, b1), vxpeak_grouped(A->capacity, b2),
         A->capacity ? 100.0 * (double)A->peak / (double)A->capacity : 0.0);
  if (!A->count) {
    printf("no single change of a constant, a machine or an element type makes it fit\n");
    return;
  }
  printf("changes that make it fit, each analysed with the change applied (fewest bytes given "
         "up first):\n");
  for (size_t i = 0; i < A->count; i++) {
    const suggestion *g = &A->list[i];
    apply_text(A, g, apply, sizeof(apply));
    printf("  %-40s peak %s of %s bytes (%.1f%%), ", apply, vxpeak_grouped(g->peak, b1),
           vxpeak_grouped(g->capacity, b2),
           g->capacity ? 100.0 * (double)g->peak / (double)g->capacity : 0.0);
    if (g->given_up)
      printf("%s bytes given up", vxpeak_grouped(g->given_up, b3));
    else
      printf("nothing given up");
    if (g->has_tps) printf(", %.0f tokens/s", g->tps);
    putchar('\n');
  }
}

int vxpeak_advise(const vxpeak_args *args) {
  vxpeak_session s;
  int exit_code = vxpeak_session_open(&s, args);
  if (exit_code != VXPEAK_EXIT_OK) {
    vxpeak_session_close(&s);
    return exit_code;
  }
  advisor *A = calloc(1, sizeof(*A));
  if (!A) {
    vxpeak_session_close(&s);
    fprintf(stderr, "vxpeak advise: out of memory\n");
    return VXPEAK_EXIT_USAGE;
  }
  A->args = args;
  A->s = &s;
  A->base = vxpeak_target_options(&s.target, args);
  fullest(s.an, &A->peak, &A->capacity);
  bool fit = fits(s.an, args->margin_ppm);
  if (!fit) {
    constants(A);
    machines(A);
    element_types(A);
    qsort(A->list, A->count, sizeof(A->list[0]), by_use);
  }
  if (strcmp(args->format, "json") == 0)
    print_json(A, fit);
  else
    print_text(A, fit);
  free(A);
  vxpeak_session_close(&s);
  return fit ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
}
