/* SPDX-License-Identifier: Apache-2.0 */
/* notes.h - the notes and help lines of capacity errors: what is live at the peak, by
 * how much it is over, and what would change the verdict. The analysis has the facts
 * (records, roles, shapes, overrides); these turn them into lines a person can act on. */
#ifndef VXP_NOTES_H
#define VXP_NOTES_H

#include "analysis_data.h"

/* Notes for E6010/W1028 on resident set `rs_index` of `an` (its live_at_peak flags set):
 * the tiles live at the peak grouped by role or site, the excess, and help lines (place
 * numbered siblings in a loop body, sweep a constant set by -D, declare `overcommit`).
 * Returns VXP_OK or VXP_ENOMEM. */
int vxp_notes__working_set(vxp_context *ctx, vxp_analysis *an, vxp_diagnostic *d, size_t rs_index,
                           const vxp_const_env *env);

/* Notes for E6009 on one tile of `bytes` in `sp` whose tensor type is `type` (VXP_NONE
 * when unknown). Returns VXP_OK or VXP_ENOMEM. */
int vxp_notes__tile(vxp_context *ctx, vxp_analysis *an, vxp_diagnostic *d, const vxp_space *sp,
                    uint64_t bytes, uint32_t type, const vxp_const_env *env);

#endif /* VXP_NOTES_H */
