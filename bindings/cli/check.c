/* SPDX-License-Identifier: Apache-2.0 */
/* check.c - `vxpeak check`: analyse a program against a machine and print the verdict. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define VXPEAK_MAX_DEFINES 64

typedef struct check_args {
  const char *file;
  const char *machine;
  const char *host;
  const char *format;
  vxp_const_override defines[VXPEAK_MAX_DEFINES];
  char define_names[VXPEAK_MAX_DEFINES][128];
  size_t define_count;
} check_args;

/* `NAME=VALUE` with VALUE a non-negative decimal integer that fits 64 bits. */
static int parse_define(check_args *a, const char *text) {
  const char *eq = strchr(text, '=');
  size_t name_len = eq ? (size_t)(eq - text) : 0;
  if (!eq || name_len == 0 || name_len >= sizeof(a->define_names[0]) || eq[1] == '\0') {
    fprintf(stderr, "vxpeak check: -D takes NAME=VALUE (e.g. -D BATCH=8), not '%s'\n", text);
    return VXPEAK_EXIT_USAGE;
  }
  uint64_t value = 0;
  for (const char *p = eq + 1; *p; p++) {
    if (*p < '0' || *p > '9' || value > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) {
      fprintf(stderr,
              "vxpeak check: the value of -D %.*s must be a non-negative integer that fits in "
              "64 bits, not '%s'\n",
              (int)name_len, text, eq + 1);
      return VXPEAK_EXIT_USAGE;
    }
    value = value * 10 + (uint64_t)(*p - '0');
  }
  if (a->define_count == VXPEAK_MAX_DEFINES) {
    fprintf(stderr, "vxpeak check: at most %d -D options\n", VXPEAK_MAX_DEFINES);
    return VXPEAK_EXIT_USAGE;
  }
  char *name = a->define_names[a->define_count];
  memcpy(name, text, name_len);
  name[name_len] = '\0';
  a->defines[a->define_count].name = name;
  a->defines[a->define_count].value = value;
  a->define_count++;
  return VXPEAK_EXIT_OK;
}

static int parse_args(int argc, char **argv, check_args *a) {
  memset(a, 0, sizeof(*a));
  a->format = "text";
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    const char **slot = NULL;
    if (strcmp(arg, "--machine") == 0) slot = &a->machine;
    else if (strcmp(arg, "--host") == 0) slot = &a->host;
    else if (strcmp(arg, "--format") == 0) slot = &a->format;
    else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) return -1;
    else if (strncmp(arg, "-D", 2) == 0) {
      const char *value = arg[2] ? arg + 2 : (i + 1 < argc ? argv[++i] : NULL);
      if (!value) {
        fprintf(stderr, "vxpeak check: option '-D' needs NAME=VALUE\nTry 'vxpeak --help'.\n");
        return VXPEAK_EXIT_USAGE;
      }
      int rc = parse_define(a, value);
      if (rc != VXPEAK_EXIT_OK) return rc;
      continue;
    }
    else if (arg[0] == '-' && arg[1] != '\0') {
      fprintf(stderr, "vxpeak check: unknown option '%s'\nTry 'vxpeak --help'.\n", arg);
      return VXPEAK_EXIT_USAGE;
    } else if (!a->file) {
      a->file = arg;
      continue;
    } else {
      fprintf(stderr, "vxpeak check: unexpected argument '%s' (one FILE.vx at a time)\n", arg);
      return VXPEAK_EXIT_USAGE;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "vxpeak check: option '%s' needs a value\nTry 'vxpeak --help'.\n", arg);
      return VXPEAK_EXIT_USAGE;
    }
    *slot = argv[++i];
  }
  if (!a->file) {
    fprintf(stderr, "vxpeak check: missing FILE.vx\nTry 'vxpeak --help'.\n");
    return VXPEAK_EXIT_USAGE;
  }
  if (strcmp(a->format, "text") != 0 && strcmp(a->format, "json") != 0) {
    fprintf(stderr, "vxpeak check: --format must be text or json, not '%s'\n", a->format);
    return VXPEAK_EXIT_USAGE;
  }
  return VXPEAK_EXIT_OK;
}

/* 1,234,567 */
static void print_grouped(FILE *out, uint64_t v) {
  char digits[32];
  int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
  for (int i = 0; i < n; i++) {
    fputc(digits[i], out);
    if ((n - i - 1) % 3 == 0 && i != n - 1) fputc(',', out);
  }
}

/* A byte count in the largest binary unit that keeps it at or above 1. */
static void print_gib(FILE *out, uint64_t v) {
  static const struct {
    double scale;
    const char *unit;
  } units[] = {{1099511627776.0, "TiB"}, {1073741824.0, "GiB"}, {1048576.0, "MiB"}, {1024.0, "KiB"}};
  for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
    if ((double)v >= units[i].scale) {
      fprintf(out, "%.2f %s", (double)v / units[i].scale, units[i].unit);
      return;
    }
  }
  fprintf(out, "%llu B", (unsigned long long)v);
}

/* A duration in picoseconds, in the largest unit that keeps it at or above 1. */
static void print_duration(FILE *out, uint64_t ps) {
  static const struct {
    double scale;
    const char *unit;
  } units[] = {{1e12, "s"}, {1e9, "ms"}, {1e6, "us"}, {1e3, "ns"}};
  for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
    if ((double)ps >= units[i].scale) {
      fprintf(out, "%.2f %s", (double)ps / units[i].scale, units[i].unit);
      return;
    }
  }
  fprintf(out, "%llu ps", (unsigned long long)ps);
}

/* Whether two routes say the same thing (for folding a run of identical transfers). */
static bool same_route(const vxp_route *a, const vxp_route *b) {
  uint64_t x, y;
  if (strcmp(vxp_route_function(a), vxp_route_function(b)) != 0) return false;
  if (vxp_route_path_length(a) != vxp_route_path_length(b)) return false;
  for (size_t i = 0; i < vxp_route_path_length(a); i++) {
    if (strcmp(vxp_route_path_space(a, i), vxp_route_path_space(b, i)) != 0) return false;
  }
  int ba = vxp_route_bytes(a, &x), bb = vxp_route_bytes(b, &y);
  if (ba != bb || (ba && x != y)) return false;
  int ca = vxp_route_derived_cost(a, &x), cb = vxp_route_derived_cost(b, &y);
  if (ca != cb || (ca && (x != y || strcmp(vxp_route_derived_unit(a), vxp_route_derived_unit(b)))))
    return false;
  return true;
}

/* One line per run of identical consecutive routes:
 *   main: transfer at 17:21 routes CPU_DRAM -> HBM: 1,048,576 bytes in 33,288,127 ps
 *   (33.29 us, link_rate) */
static void print_routes(const vxp_analysis *an) {
  size_t n = vxp_analysis_route_count(an);
  for (size_t i = 0; i < n;) {
    const vxp_route *r = vxp_analysis_route(an, i);
    size_t run = 1;
    while (i + run < n && same_route(r, vxp_analysis_route(an, i + run))) run++;
    vxp_range first = vxp_route_range(r), last = vxp_route_range(vxp_analysis_route(an, i + run - 1));
    if (run == 1)
      printf("%s: transfer at %u:%u routes ", vxp_route_function(r), first.start.line + 1,
             first.start.column + 1);
    else
      printf("%s: %zu transfers (lines %u-%u) route ", vxp_route_function(r), run,
             first.start.line + 1, last.start.line + 1);
    for (size_t k = 0; k < vxp_route_path_length(r); k++)
      printf("%s%s", k ? " -> " : "", vxp_route_path_space(r, k));
    uint64_t bytes, cost;
    const char *each = run > 1 ? " each" : "";
    if (vxp_route_bytes(r, &bytes)) {
      printf(": ");
      print_grouped(stdout, bytes);
      printf(" bytes%s", each);
    } else {
      printf(": size not static");
    }
    if (vxp_route_derived_cost(r, &cost)) {
      printf(" in ");
      print_grouped(stdout, cost);
      bool ps = strcmp(vxp_route_derived_unit(r), "ps") == 0;
      printf(" %s%s (", ps ? "ps" : "cycles", each);
      if (ps) {
        print_duration(stdout, cost);
        printf(", ");
      }
      printf("%s)", vxp_route_cost_source(r));
    } else if (vxp_route_bytes(r, NULL)) {
      printf(", no derived cost (no rate on the link, no bandwidths along the spaces)");
    }
    printf("\n");
    i += run;
  }
}

/* `v` bytes in the binary unit `unit` (1 GiB = 1073741824, ...), two decimals. */
static void print_in_unit(FILE *out, uint64_t v, uint64_t scale, const char *unit) {
  fprintf(out, "%.2f %s", (double)v / (double)scale, unit);
}

/* A group of tiles live at the peak: those at function scope with one size, or those in the
 * releasing block at one depth (the tiles live at a peak lie on one chain of open blocks,
 * so there is one such block per depth). */
typedef struct live_group {
  uint32_t depth;
  uint64_t tile_bytes;     /* function scope: the size shared by the group */
  uint64_t total;
  size_t count;
  size_t first, last;      /* record indices, for the names */
  uint32_t first_line, last_line;
} live_group;

static const char *binding_or_unbound(const vxp_record *r) {
  const char *b = vxp_record_binding(r);
  return b ? b : "(unbound)";
}

/* The tiles live at a resident set's peak, grouped, one line per group:
 *   12.06 GiB: 32 tiles of 404,750,336 bytes at function scope (w0 ... w31) */
static void print_breakdown(const vxp_analysis *an, const vxp_resident_set *rs) {
  if (vxp_resident_set_tile_count(rs) < 2) return;
  enum { MAX_GROUPS = 64 };
  live_group groups[MAX_GROUPS];
  size_t ngroups = 0, records = vxp_analysis_record_count(an);
  const char *fn = vxp_resident_set_function(rs), *space = vxp_resident_set_space(rs);
  for (size_t i = 0; i < records; i++) {
    const vxp_record *r = vxp_analysis_record(an, i);
    if (!vxp_record_live_at_peak(r) || strcmp(vxp_record_function(r), fn) != 0 ||
        strcmp(vxp_record_space(r), space) != 0)
      continue;
    uint32_t depth = vxp_record_scope_depth(r), line = vxp_record_range(r).start.line + 1;
    uint64_t bytes = vxp_record_bytes(r);
    live_group *g = NULL;
    for (size_t k = 0; k < ngroups && !g; k++) {
      if (groups[k].depth == depth && (depth > 0 || groups[k].tile_bytes == bytes)) g = &groups[k];
    }
    if (!g) {
      if (ngroups == MAX_GROUPS) continue;
      g = &groups[ngroups++];
      memset(g, 0, sizeof(*g));
      g->depth = depth;
      g->tile_bytes = bytes;
      g->first = i;
      g->first_line = line;
    }
    g->count++;
    g->total = g->total + bytes < g->total ? UINT64_MAX : g->total + bytes;
    g->last = i;
    g->last_line = line;
  }
  /* One unit for every line, the peak's own, so that the lines add up by eye. */
  uint64_t peak = vxp_resident_set_peak_bytes(rs), scale = 1;
  const char *unit = "B";
  if (peak >= (1ull << 30)) scale = 1ull << 30, unit = "GiB";
  else if (peak >= (1ull << 20)) scale = 1ull << 20, unit = "MiB";
  else if (peak >= (1ull << 10)) scale = 1ull << 10, unit = "KiB";
  for (size_t k = 0; k < ngroups; k++) {
    const live_group *g = &groups[k];
    printf("  ");
    if (scale == 1) printf("%llu B", (unsigned long long)g->total);
    else print_in_unit(stdout, g->total, scale, unit);
    if (g->depth == 0) {
      printf(": %zu tile%s of ", g->count, g->count == 1 ? "" : "s");
      print_grouped(stdout, g->tile_bytes);
      printf(" bytes at function scope (");
    } else {
      printf(": %zu tile%s in the block at depth %u, line%s %u", g->count,
             g->count == 1 ? "" : "s", g->depth, g->first_line == g->last_line ? "" : "s",
             g->first_line);
      if (g->last_line != g->first_line) printf("-%u", g->last_line);
      printf(" (");
    }
    if (g->count > 7) {
      printf("%s ... %s", binding_or_unbound(vxp_analysis_record(an, g->first)),
             binding_or_unbound(vxp_analysis_record(an, g->last)));
    } else {
      size_t printed = 0;
      for (size_t i = g->first; i <= g->last; i++) {
        const vxp_record *r = vxp_analysis_record(an, i);
        if (!vxp_record_live_at_peak(r) || strcmp(vxp_record_function(r), fn) != 0 ||
            strcmp(vxp_record_space(r), space) != 0 || vxp_record_scope_depth(r) != g->depth ||
            (g->depth == 0 && vxp_record_bytes(r) != g->tile_bytes))
          continue;
        printf("%s%s", printed++ ? ", " : "", binding_or_unbound(r));
      }
    }
    printf(")\n");
  }
}

static void print_text_report(const vxp_analysis *an, bool color) {
  size_t n = vxp_analysis_diagnostic_count(an);
  for (size_t i = 0; i < n; i++) vxpeak_render_diagnostic(stderr, vxp_analysis_diagnostic(an, i), color);
  size_t sets = vxp_analysis_resident_set_count(an);
  for (size_t i = 0; i < sets; i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
    uint64_t peak = vxp_resident_set_peak_bytes(rs), cap = vxp_resident_set_capacity_bytes(rs);
    uint64_t sum;
    printf("%s: %s peak ", vxp_resident_set_function(rs), vxp_resident_set_space(rs));
    print_grouped(stdout, peak);
    printf(" bytes (");
    print_gib(stdout, peak);
    printf(") of ");
    print_grouped(stdout, cap);
    printf(" (%.1f%%), %zu tile%s live at the peak", cap ? 100.0 * (double)peak / (double)cap : 0.0,
           vxp_resident_set_tile_count(rs), vxp_resident_set_tile_count(rs) == 1 ? "" : "s");
    if (vxp_resident_set_allocated_bytes(rs, &sum)) {
      printf("; sum over the run ");
      print_grouped(stdout, sum);
      printf(" bytes (");
      print_gib(stdout, sum);
      printf(")");
    }
    printf("\n");
    print_breakdown(an, rs);
  }
  print_routes(an);
  size_t errors = vxp_analysis_error_count(an), warnings = vxp_analysis_warning_count(an);
  printf("%s: %zu error%s, %zu warning%s\n", vxp_analysis_admitted(an) ? "admitted" : "rejected",
         errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
}

int vxpeak_check(int argc, char **argv) {
  check_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc == -1) {
    printf("usage: vxpeak check FILE.vx [--machine FILE|NAME] [--host FILE|default] "
           "[-D NAME=VALUE]... [--format text|json]\n(see 'vxpeak --help' for details and "
           "examples)\n");
    return VXPEAK_EXIT_OK;
  }
  if (rc != VXPEAK_EXIT_OK) return rc;

  vxp_context *ctx = NULL;
  vxp_source *src = NULL, *machine_src = NULL, *host_src = NULL;
  vxp_program *prog = NULL;
  vxp_machine *machine = NULL, *host = NULL;
  vxp_analysis *an = NULL;
  int exit_code = VXPEAK_EXIT_USAGE;

  rc = vxp_context_new(&ctx, NULL);
  if (rc != VXP_OK) {
    fprintf(stderr, "vxpeak: cannot create a context: %s\n", vxp_strerror(rc));
    return VXPEAK_EXIT_USAGE;
  }
  if ((rc = vxp_source_load_file(&src, ctx, a.file)) != VXP_OK) {
    exit_code = vxpeak_fail(ctx, rc, "cannot read the program");
    goto done;
  }
  if ((rc = vxp_program_parse(&prog, ctx, src)) != VXP_OK) {
    exit_code = vxpeak_fail(ctx, rc, "cannot parse the program");
    goto done;
  }
  const char *host_arg = a.host;
  if (a.machine) {
    if (vxpeak_load_machine(ctx, a.machine, &machine_src, &machine) != VXP_OK) {
      exit_code = VXPEAK_EXIT_USAGE;
      goto done;
    }
  } else if (!vxp_program_declares_machine(prog)) {
    /* A program without a machine model of its own runs on the default device compiled
     * into the library (the same from any directory), with the default host for its
     * transfers from CPU_DRAM. */
    if ((rc = vxp_machine_builtin(&machine, ctx, "a100-40")) != VXP_OK) {
      exit_code = vxpeak_fail(ctx, rc, "cannot load the built-in machine");
      goto done;
    }
    if (!host_arg) host_arg = "default";
  }
  if (host_arg) {
    if (strcmp(host_arg, "default") == 0) rc = vxp_machine_builtin(&host, ctx, "host-default");
    else if ((rc = vxp_source_load_file(&host_src, ctx, host_arg)) == VXP_OK)
      rc = vxp_machine_load(&host, ctx, host_src);
    if (rc != VXP_OK) {
      exit_code = vxpeak_fail(ctx, rc, "cannot load the host model");
      goto done;
    }
  }
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = machine;
  opts.host = host;
  opts.overrides = a.defines;
  opts.override_count = a.define_count;
  if ((rc = vxp_analyze(&an, ctx, prog, &opts)) != VXP_OK) {
    exit_code = vxpeak_fail(ctx, rc, "analysis failed");
    goto done;
  }
  if (strcmp(a.format, "json") == 0) {
    size_t len;
    const char *json = vxp_analysis_json(an, &len);
    if (!json) {
      exit_code = vxpeak_fail(ctx, VXP_ENOMEM, "cannot render the report");
      goto done;
    }
    fwrite(json, 1, len, stdout);
  } else {
    print_text_report(an, vxpeak_use_color(stderr));
  }
  exit_code = vxp_analysis_admitted(an) ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;

done:
  vxp_analysis_free(an);
  vxp_machine_free(host);
  vxp_machine_free(machine);
  vxp_program_free(prog);
  vxp_source_free(host_src);
  vxp_source_free(machine_src);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return exit_code;
}
