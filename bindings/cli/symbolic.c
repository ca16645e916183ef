/* SPDX-License-Identifier: Apache-2.0 */
/* symbolic.c - `--symbolic NAME,...` (check, explain): the formula of each peak in the
 * named constants, made once by the library from the session's analysis. */
#include "cli.h"

int vxpeak_symbolic_open(const vxpeak_args *args, const vxpeak_session *s, vxp_formula **out) {
  *out = NULL;
  if (args->symbolic_count == 0) return VXPEAK_EXIT_OK;
  int rc = vxp_formula_new(out, s->an, args->symbolic, args->symbolic_count);
  if (rc == VXP_OK) return VXPEAK_EXIT_OK;
  if (rc == VXP_ENOMEM) return vxpeak_fail(s->program.ctx, rc, "--symbolic");
  /* A name that is no const item is the user's: the message lists the program's. */
  fprintf(stderr, "vxpeak %s: --symbolic: %s\n", args->command, vxp_context_errmsg(s->program.ctx));
  return VXPEAK_EXIT_USAGE;
}
