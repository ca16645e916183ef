/* SPDX-License-Identifier: Apache-2.0 */
/* defaults.h - the built-in default machine lent to a run of many analyses (a sweep, a
 * frontier) of a program that declares none, loaded once for the run rather than once per
 * analysis, and named in its report as the machine it is (vxp_default_machine). */
#ifndef VXP_DEFAULTS_H
#define VXP_DEFAULTS_H

#include "vxpeak.h"

typedef struct vxp_defaults {
  vxp_analyze_options opts; /* the caller's, with the defaults filled in */
  vxp_machine *machine, *host;
} vxp_defaults;

/* `*use` is `in`, or, for a program that declares no machine model and options that give no
 * machine, d->opts: `in`'s fields with vxp_default_machine() and (without a host of the
 * caller's) vxp_default_host(). Options the run will refuse (a bad version) are passed
 * through for it to report. VXP_OK or VXP_ENOMEM (on `ctx`); release `d` in either case. */
int vxp_defaults__lend(vxp_context *ctx, const vxp_program *prog, const vxp_analyze_options *in,
                       vxp_defaults *d, const vxp_analyze_options **use);
void vxp_defaults__release(vxp_defaults *d);

#endif /* VXP_DEFAULTS_H */
