/* SPDX-License-Identifier: Apache-2.0 */
/* defaults.c - the default machine lent to a sweep's or a frontier's analyses (defaults.h). */
#include "defaults.h"

#include <stdbool.h>
#include <string.h>

int vxp_defaults__lend(vxp_context *ctx, const vxp_program *prog, const vxp_analyze_options *in,
                       vxp_defaults *d, const vxp_analyze_options **use) {
  memset(d, 0, sizeof(*d));
  *use = in;
  bool readable = !in || (in->version >= 1 && in->version <= VXP_ANALYZE_OPTIONS_VERSION);
  if (!ctx || !prog || !readable || (in && in->machine) || vxp_program_declares_machine(prog))
    return VXP_OK;
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  if (in) { /* field by field: a version-1 struct is shorter */
    opts.host = in->host;
    opts.overrides = in->overrides;
    opts.override_count = in->override_count;
    opts.machine_only = in->version >= 2 && in->machine_only;
  }
  int rc = vxp_machine_builtin(&d->machine, ctx, vxp_default_machine());
  if (rc == VXP_OK && !opts.host) rc = vxp_machine_builtin(&d->host, ctx, vxp_default_host());
  if (rc != VXP_OK) return rc;
  opts.machine = d->machine;
  if (d->host) opts.host = d->host;
  d->opts = opts;
  *use = &d->opts;
  return VXP_OK;
}

void vxp_defaults__release(vxp_defaults *d) {
  vxp_machine_free(d->host);
  vxp_machine_free(d->machine);
  d->host = d->machine = NULL;
}
