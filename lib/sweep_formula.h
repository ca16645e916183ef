/* SPDX-License-Identifier: Apache-2.0 */
/* sweep_formula.h - the sweep's answer read from the peak's formula (issue 32, item 2):
 * where the peaks are polynomials in the swept constant, the largest value within every
 * budget is solved from them (sweep_formula.c) and the sweep only confirms it. */
#ifndef VXP_SWEEP_FORMULA_H
#define VXP_SWEEP_FORMULA_H

#include "analysis_data.h"
#include "strbuf.h"

typedef enum vxp_solve_how {
  VXP_SOLVE_NONE = 0,   /* no formula to solve: `why` says why */
  VXP_SOLVE_CLOSED = 1, /* every peak is linear in the constant: one division each */
  VXP_SOLVE_SEARCH = 2  /* a higher degree: a bisection over the formula, no analysis */
} vxp_solve_how;

typedef struct vxp_solution vxp_solution;
struct vxp_solution {
  vxp_solve_how how;
  bool found;     /* some value in lo..hi is within every budget */
  uint64_t value; /* the largest such value */
};

/* Solve from `at_lo` (the analysis at `lo`): the largest value of `name` in lo..hi whose
 * peak, in every resident set of `function` (NULL: all) in `space` (NULL: all) with a
 * capacity, is within capacity x (10^6 - margin_ppm) / 10^6. The peaks must be known not to
 * shrink as the value grows (the sweep's bisection proof). `why` gets a sentence: how it
 * was solved and the formula that binds, or why there is none. VXP_OK or VXP_ENOMEM. */
int vxp_sweep__solve(const vxp_analysis *at_lo, const char *name, uint64_t lo, uint64_t hi,
                     const char *function, const char *space, uint32_t margin_ppm,
                     vxp_solution *out, vxp_sb *why);

#endif /* VXP_SWEEP_FORMULA_H */
