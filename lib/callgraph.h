/* SPDX-License-Identifier: Apache-2.0 */
/* callgraph.h - the call-tree fold over an analysis' walked functions (callgraph.c). */
#ifndef VXP_CALLGRAPH_H
#define VXP_CALLGRAPH_H

#include "analysis_data.h"

/* The call-tree fold (callgraph.c): totals, paths, E6027/E6028/W1028, and the call_trees
 * and unresolved lists. Runs once every function has been walked. */
int vxp_callgraph__fold(vxp_analysis *an);

#endif /* VXP_CALLGRAPH_H */
