/* SPDX-License-Identifier: Apache-2.0 */
/* session.c - read a program, pick its machine model (the program's own, --machine, or
 * the built-in default, exactly as `check` does) and analyse it: for `emit-cuda`. */
#include <string.h>

#include "cli.h"

int vxpeak_session_open(vxpeak_session *s, const char *file, const char *machine_arg,
                        const char *host_arg) {
  memset(s, 0, sizeof(*s));
  int rc = vxp_context_new(&s->ctx, NULL);
  if (rc != VXP_OK) {
    fprintf(stderr, "vxpeak: cannot create a context: %s\n", vxp_strerror(rc));
    return VXPEAK_EXIT_USAGE;
  }
  if ((rc = vxp_source_load_file(&s->src, s->ctx, file)) != VXP_OK)
    return vxpeak_fail(s->ctx, rc, "cannot read the program");
  if ((rc = vxp_program_parse(&s->prog, s->ctx, s->src)) != VXP_OK)
    return vxpeak_fail(s->ctx, rc, "cannot parse the program");
  if (machine_arg) {
    if (vxpeak_load_machine(s->ctx, machine_arg, &s->machine_src, &s->machine) != VXP_OK)
      return VXPEAK_EXIT_USAGE;
  } else if (!vxp_program_declares_machine(s->prog)) {
    /* As `check` does: a program without a machine model of its own runs on the default
     * device compiled into the library, with the default host for its transfers. */
    if ((rc = vxp_machine_builtin(&s->machine, s->ctx, "a100-40")) != VXP_OK)
      return vxpeak_fail(s->ctx, rc, "cannot load the built-in machine");
    if (!host_arg) host_arg = "default";
  }
  if (host_arg) {
    if (strcmp(host_arg, "default") == 0) rc = vxp_machine_builtin(&s->host, s->ctx, "host-default");
    else if ((rc = vxp_source_load_file(&s->host_src, s->ctx, host_arg)) == VXP_OK)
      rc = vxp_machine_load(&s->host, s->ctx, s->host_src);
    if (rc != VXP_OK) return vxpeak_fail(s->ctx, rc, "cannot load the host model");
  }
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = s->machine;
  opts.host = s->host;
  if ((rc = vxp_analyze(&s->an, s->ctx, s->prog, &opts)) != VXP_OK)
    return vxpeak_fail(s->ctx, rc, "analysis failed");
  return VXPEAK_EXIT_OK;
}

void vxpeak_session_close(vxpeak_session *s) {
  vxp_analysis_free(s->an);
  vxp_machine_free(s->host);
  vxp_machine_free(s->machine);
  vxp_program_free(s->prog);
  vxp_source_free(s->host_src);
  vxp_source_free(s->machine_src);
  vxp_source_free(s->src);
  vxp_context_free(s->ctx);
  memset(s, 0, sizeof(*s));
}
