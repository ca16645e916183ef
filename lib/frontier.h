/* SPDX-License-Identifier: Apache-2.0 */
/* frontier.h - what a frontier was asked, for its report (lib/report/frontier_report.c);
 * frontier.c computes the frontier, the report prints it. */
#ifndef VXP_FRONTIER_H
#define VXP_FRONTIER_H

#include "sweep.h"

/* The question (constant, range, margin, selection, machines, other overrides). Borrowed. */
const vxp_question *vxp_frontier__question(const vxp_frontier *f);
/* The traffic model the memory times use. */
vxp_traffic_model vxp_frontier__traffic(const vxp_frontier *f);
/* Tokens per call as asked: the constant's name, or the count ("1" by default). Borrowed. */
const char *vxp_frontier__tokens(const vxp_frontier *f);

struct vxp_solution;
/* The largest fit solved from the peaks' formulas at the range's low end (how 0: none), and
 * `why` the sentence saying how and which formula binds, or why there is none. Borrowed. */
const struct vxp_solution *vxp_frontier__solution(const vxp_frontier *f, const char **why);

#endif /* VXP_FRONTIER_H */
