/* SPDX-License-Identifier: Apache-2.0 */
/* sweep.h - what one value of a swept constant is: whether the analysis at that value
 * fits (shared by vxp_sweep_run and vxp_frontier_run); and a sweep's result (sweep.c
 * computes it, lib/report/sweep_report.c prints it). */
#ifndef VXP_SWEEP_H
#define VXP_SWEEP_H

#include "analysis_data.h"
#include "arena.h"

struct vxp_sweep_point {
  uint64_t value;
  bool fits;
  uint64_t peak_bytes, capacity_bytes;
  char *function, *space; /* in the handle's arena; NULL when no resident set was selected */
  vxp_misfit reason;      /* VXP_MISFIT_NONE when it fits */
  char code[12];
  char *cause; /* in the handle's arena: the function the deciding diagnostic is about, or the
                  selected function for a margin; NULL when none */
};

/* Whether analysis `an` fits: no error and no unknown size (W1029) bearing on `function`
 * (it and what it calls; every function when NULL), and the (function, space) closest to
 * its capacity (only `function`'s / `space`'s when not NULL), by its call-tree total, at most
 * (10^6 - margin_ppm) / 10^6 of that capacity. Fills `p` but `value`; p->function, p->space
 * and p->cause are allocated from `arena` (the handle's). VXP_OK or VXP_ENOMEM. */
int vxp_sweep__fit(vxp_context *ctx, vxp_arena *arena, const vxp_analysis *an, const char *function,
                   const char *space, uint32_t margin_ppm, vxp_sweep_point *p);

/* A define a sweep or frontier ran with besides the varied constant (its name in the
 * handle's arena). */
typedef struct vxp_sweep_define {
  char *name;
  uint64_t value;
} vxp_sweep_define;

/* What a sweep or a frontier was asked, as the caller asked it, for its report
 * (lib/report/): copies in the handle's arena, so the result borrows nothing. */
typedef struct vxp_question {
  char *file;           /* the program's source label */
  char *machine, *host; /* the machines' labels, or NULL */
  char *name, *function, *space;
  uint64_t lo, hi;
  uint32_t margin_ppm;
  vxp_sweep_define *defines; /* the other overrides, in the order given */
  size_t define_count;
} vxp_question;

/* Fill `q` (zeroed by the caller) from the call's arguments, its copies allocated from
 * `arena` (the handle's: they go with it). VXP_OK or VXP_ENOMEM. */
int vxp_question__record(vxp_context *ctx, vxp_arena *arena, vxp_question *q,
                         const vxp_program *prog, const vxp_analyze_options *analyze,
                         const char *name, uint64_t lo, uint64_t hi, uint32_t margin_ppm,
                         const char *function, const char *space);

/* The checks a sweep and a frontier make of their question before any analysis: the analyze
 * options' version, a constant name the program names, lo <= hi, a margin below one, and no
 * override of the varied constant. `call` names the public function in messages, `varied`
 * and `verb` say what is done to the constant ("swept"/"sweep", "varied"/"vary"). VXP_OK,
 * or the error recorded on ctx (VXP_EVERSION, VXP_EINVAL, VXP_ENOTFOUND). */
int vxp_question__check(vxp_context *ctx, const char *call, const char *varied, const char *verb,
                        const vxp_program *prog, const vxp_analyze_options *analyze,
                        const char *name, uint64_t lo, uint64_t hi, uint32_t margin_ppm);

/* Invariant: the handle lives in its own `arena` (VXP_ARENA_HANDLE), and so does everything
 * it owns: the points table (grown there), the reason (a vxp_sb bound to it), the points'
 * and the question's strings. Freeing it is one vxp_arena__free_handle. */
struct vxp_sweep {
  uint32_t tag; /* VXP_TAG_SWEEP, first: checked on entry (tag.h) */
  vxp_context *ctx;
  vxp_arena arena;
  vxp_search method;
  vxp_sb reason; /* why bisection was or was not used, whole */
  size_t evaluations;
  Array(vxp_sweep_point) points; /* in increasing value */
  size_t largest, rejected;      /* indices into points, or SIZE_MAX */
  vxp_question q;                /* what was asked (lib/report/sweep_report.c) */
};

#endif /* VXP_SWEEP_H */
