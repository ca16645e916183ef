/* SPDX-License-Identifier: Apache-2.0 */
/* oracle.h - vxc's quadratic peak formula, kept as the test oracle for the linear sweep:
 *
 *   for each tile T, in program order:
 *     live = sum of U.bytes over U placed no later than T whose scope chain is a prefix
 *            of T's scope chain (same space)
 *     peak = max(peak, live)
 *
 * Scope chains are rebuilt from the trace: each releasing block gets a fresh id; a tile
 * released at once gets a private id appended to its chain. */
#ifndef VXP_TEST_ORACLE_H
#define VXP_TEST_ORACLE_H

#include "peak.h"

typedef struct oracle_tile {
  uint32_t space;
  uint64_t bytes;
  uint32_t chain[64];
  uint32_t chain_len;
} oracle_tile;

static int oracle_is_prefix(const oracle_tile *a, const oracle_tile *b) {
  if (a->chain_len > b->chain_len) return 0;
  for (uint32_t i = 0; i < a->chain_len; i++) {
    if (a->chain[i] != b->chain[i]) return 0;
  }
  return 1;
}

/* Fills peaks[space] and tiles_at_peak[space]; returns 0 when the trace nests deeper than
 * the oracle supports. `order` lists tile indices in trace order. */
static int oracle_peaks(const vxp_trace_item *trace, size_t trace_len, const vxp_peak_tile *tiles,
                        size_t tile_count, uint32_t space_count, unsigned __int128 *peaks,
                        uint32_t *tiles_at_peak) {
  oracle_tile *ot = calloc(tile_count ? tile_count : 1, sizeof(*ot));
  uint32_t *order = calloc(tile_count ? tile_count : 1, sizeof(uint32_t));
  uint32_t stack[64], depth = 0, next_id = 1;
  size_t placed = 0;
  for (size_t i = 0; i < trace_len; i++) {
    if (trace[i].kind == VXP_TRACE_OPEN) {
      if (depth >= 63) {
        free(ot);
        free(order);
        return 0;
      }
      stack[depth++] = next_id++;
    } else if (trace[i].kind == VXP_TRACE_CLOSE) {
      depth--;
    } else if (trace[i].kind == VXP_TRACE_PLACE) {
      oracle_tile *t = &ot[trace[i].index];
      t->space = tiles[trace[i].index].space;
      t->bytes = tiles[trace[i].index].bytes;
      memcpy(t->chain, stack, depth * sizeof(uint32_t));
      t->chain_len = depth;
      if (tiles[trace[i].index].released_at_once) t->chain[t->chain_len++] = next_id++;
      order[placed++] = trace[i].index;
    }
  }
  for (uint32_t s = 0; s < space_count; s++) {
    peaks[s] = 0;
    tiles_at_peak[s] = 0;
  }
  for (size_t i = 0; i < placed; i++) {
    const oracle_tile *t = &ot[order[i]];
    unsigned __int128 live = 0;
    uint32_t count = 0;
    for (size_t j = 0; j <= i; j++) {
      const oracle_tile *u = &ot[order[j]];
      if (u->space == t->space && oracle_is_prefix(u, t)) {
        live += u->bytes;
        count++;
      }
    }
    if (live > peaks[t->space] || tiles_at_peak[t->space] == 0) {
      if (live > peaks[t->space] || tiles_at_peak[t->space] == 0) {
        peaks[t->space] = live;
        tiles_at_peak[t->space] = count;
      }
    }
  }
  free(ot);
  free(order);
  return 1;
}

#endif /* VXP_TEST_ORACLE_H */
