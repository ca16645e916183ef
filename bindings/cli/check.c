/* SPDX-License-Identifier: Apache-2.0 */
/* check.c - `vxpeak check`: analyse a program against a machine and print the verdict. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct check_args {
  const char *file;
  const char *machine;
  const char *host;
  const char *format;
} check_args;

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
           "[--format text|json]\n(see 'vxpeak --help' for details and examples)\n");
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
