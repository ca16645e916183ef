/* SPDX-License-Identifier: Apache-2.0 */
/* peak.h - the peak working set of one function in one linear sweep (design.md §4).
 *
 * The input is a trace in program order: placements, releasing blocks opening and
 * closing, and call sites. The sweep keeps the live bytes per space and, per open block,
 * the tiles it placed; closing a block subtracts them. A tile released at once (bound to a
 * name that is never read) counts at its own placement only. This gives the same number as
 * vxc's quadratic formula (live at T = sum over U placed no later than T whose scope chain
 * is a prefix of T's) in O(trace length); a second replay marks the tiles live at each
 * space's peak. */
#ifndef VXP_PEAK_H
#define VXP_PEAK_H

#include "internal.h"

typedef enum vxp_trace_kind {
  VXP_TRACE_PLACE, /* `index`: a tile */
  VXP_TRACE_OPEN,  /* a releasing block opens */
  VXP_TRACE_CLOSE, /* the innermost releasing block closes */
  VXP_TRACE_CALL   /* `index`: a call site */
} vxp_trace_kind;

typedef struct vxp_trace_item {
  uint8_t kind;
  uint32_t index;
} vxp_trace_item;

typedef struct vxp_peak_tile {
  uint32_t space; /* 0 .. space_count - 1 */
  uint64_t bytes;
  bool released_at_once; /* never read: live only at its own placement */
} vxp_peak_tile;

/* Per-space result. Peaks are 128-bit so that no sum of 64-bit tiles can wrap; callers
 * saturate when reporting. */
typedef struct vxp_space_peak {
  bool any;               /* the space received at least one tile */
  u128 peak;              /* largest live total */
  uint32_t tiles_at_peak; /* tiles live at the first placement reaching the peak */
  uint32_t peak_tile;     /* the tile whose placement first reached the peak */
} vxp_space_peak;

/* Sweep `trace` over `tiles`. Writes `space_count` results to `out`, sets
 * live_at_peak[t] for every tile live at its space's peak, and, when `held` is not NULL,
 * the live bytes of every space at each call site into held[call * space_count + space]
 * (saturated to UINT64_MAX). Tiles and calls are indexed as the trace names them.
 * Returns VXP_OK, VXP_ENOMEM, or VXP_EINVAL for an unbalanced trace. */
int vxp_peak__sweep(vxp_context *ctx, const vxp_trace_item *trace, size_t trace_len,
                    const vxp_peak_tile *tiles, size_t tile_count, uint32_t space_count,
                    vxp_space_peak *out, bool *live_at_peak, uint64_t *held, size_t call_count);

#endif /* VXP_PEAK_H */
