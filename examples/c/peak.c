/* SPDX-License-Identifier: Apache-2.0 */
/* peak.c - analyse one Vx program on one machine and print the peak of every function in
 * every memory space, with the tiles live at the peak.
 *
 *   peak PROGRAM.vx [MACHINE.vx | BUILTIN]
 *
 * Without a machine the program's own Memory/Topology declarations are used; BUILTIN is a
 * machine compiled into the library ("a100-40"). A given machine comes with the built-in
 * default host (CPU_DRAM), as `vxpeak check` does. Build against an installed libvxpeak:
 *
 *   cc peak.c $(pkg-config --cflags --libs vxpeak) -o peak
 */
#include <stdio.h>
#include <string.h>

#include "vxpeak.h"

static int fail(vxp_context *ctx, int rc, const char *what) {
  fprintf(stderr, "peak: %s: %s\n", what, ctx ? vxp_context_errmsg(ctx) : vxp_strerror(rc));
  return 2;
}

/* A machine argument is a file when it names one (has a '/' or ends in .vx). */
static int is_file(const char *arg) {
  size_t len = strlen(arg);
  return strchr(arg, '/') != NULL || (len > 3 && strcmp(arg + len - 3, ".vx") == 0);
}

int main(int argc, char **argv) {
  vxp_context *ctx = NULL;
  vxp_source *src = NULL, *machine_src = NULL;
  vxp_program *prog = NULL;
  vxp_machine *machine = NULL, *host = NULL;
  vxp_analysis *an = NULL;
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  int rc, status = 2;
  size_t i, k;

  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: peak PROGRAM.vx [MACHINE.vx | BUILTIN]\n");
    return 2;
  }
  if ((rc = vxp_context_new(&ctx, NULL)) != VXP_OK) return fail(NULL, rc, "context");
  if ((rc = vxp_source_load_file(&src, ctx, argv[1])) != VXP_OK) {
    status = fail(ctx, rc, "cannot read the program");
    goto done;
  }
  if ((rc = vxp_program_parse(&prog, ctx, src)) != VXP_OK) {
    status = fail(ctx, rc, "cannot parse the program");
    goto done;
  }
  if (argc == 3) {
    if (is_file(argv[2])) {
      rc = vxp_source_load_file(&machine_src, ctx, argv[2]);
      if (rc == VXP_OK) rc = vxp_machine_load(&machine, ctx, machine_src);
    } else {
      rc = vxp_machine_builtin(&machine, ctx, argv[2]);
    }
    if (rc == VXP_OK) rc = vxp_machine_builtin(&host, ctx, "host-default");
    if (rc != VXP_OK) {
      status = fail(ctx, rc, "cannot load the machine");
      goto done;
    }
    opts.machine = machine;
    opts.host = host;
  }
  if ((rc = vxp_analyze(&an, ctx, prog, &opts)) != VXP_OK) {
    status = fail(ctx, rc, "analysis failed");
    goto done;
  }

  for (i = 0; i < vxp_analysis_resident_set_count(an); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
    uint64_t peak = vxp_resident_set_peak_bytes(rs);
    uint64_t capacity = vxp_resident_set_capacity_bytes(rs);
    printf("%s in %s: peak %llu of %llu bytes (%.1f%%)\n", vxp_resident_set_function(rs),
           vxp_resident_set_space(rs), (unsigned long long)peak, (unsigned long long)capacity,
           capacity ? 100.0 * (double)peak / (double)capacity : 0.0);
    /* The tiles that make the peak: records of this function and space live at it. */
    for (k = 0; k < vxp_analysis_record_count(an); k++) {
      const vxp_record *rec = vxp_analysis_record(an, k);
      const char *binding = vxp_record_binding(rec);
      if (!vxp_record_live_at_peak(rec) ||
          strcmp(vxp_record_function(rec), vxp_resident_set_function(rs)) != 0 ||
          strcmp(vxp_record_space(rec), vxp_resident_set_space(rs)) != 0)
        continue;
      printf("  %-12s %10llu bytes  line %u, depth %u\n", binding ? binding : "(unbound)",
             (unsigned long long)vxp_record_bytes(rec), vxp_record_range(rec).start.line + 1,
             vxp_record_scope_depth(rec));
    }
  }
  printf("%s (%zu errors, %zu warnings)\n", vxp_analysis_admitted(an) ? "admitted" : "rejected",
         vxp_analysis_error_count(an), vxp_analysis_warning_count(an));
  status = vxp_analysis_admitted(an) ? 0 : 1;

done: /* reverse order of creation: each object borrows the ones made before it */
  vxp_analysis_free(an);
  vxp_machine_free(host);
  vxp_machine_free(machine);
  vxp_program_free(prog);
  vxp_source_free(machine_src);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return status;
}
