/* SPDX-License-Identifier: Apache-2.0 */
/* lowering_run.h - running a transfer lowering's count program (lowering_count.h) with the
 * constants of one analysis. */
#ifndef VXP_LOWERING_RUN_H
#define VXP_LOWERING_RUN_H

#include "consteval.h"
#include "lowering_count.h"

/* Run `p` with the constants of `env` (its const items and -D overrides; an instance's
 * bindings are not seen: a lowering is not generic). On success returns NULL and fills
 * out[4] (elements per counter) and *exact (false when run-time branches whose arms move
 * different amounts were counted by their largest); otherwise returns the reason the
 * count cannot be given (static text). */
const char *vxp_count__run(const vxp_count_program *p, const vxp_const_env *env, uint64_t out[4],
                           bool *exact);

#endif /* VXP_LOWERING_RUN_H */
