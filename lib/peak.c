/* SPDX-License-Identifier: Apache-2.0 */
/* peak.c - the linear peak sweep and the replay that finds the tiles live at the peak. */
#include "peak.h"

#include "array.h"

/* Live tiles form a stack: a block's tiles are exactly those pushed since it opened, so
 * closing it truncates the stack to its height at opening. */
typedef struct sweep_state {
  Array(uint32_t) live; /* tile indices, in placement order */
  Array(size_t) marks;  /* live.len when each open block opened */
  u128 *total;          /* live bytes per space */
} sweep_state;

static void close_block(sweep_state *st, const vxp_peak_tile *tiles) {
  size_t mark = st->marks.items[--st->marks.len];
  while (st->live.len > mark) {
    uint32_t t = st->live.items[--st->live.len];
    st->total[tiles[t].space] -= tiles[t].bytes;
  }
}

static void state_free(vxp_context *ctx, sweep_state *st) {
  array_free(ctx, &st->live);
  array_free(ctx, &st->marks);
  vxp_ctx__free(ctx, st->total);
}

static int validate(const vxp_trace_item *trace, size_t trace_len, const vxp_peak_tile *tiles,
                    size_t tile_count, uint32_t space_count, const uint64_t *held,
                    size_t call_count) {
  size_t depth = 0;
  for (size_t i = 0; i < trace_len; i++) {
    switch (trace[i].kind) {
    case VXP_TRACE_PLACE:
      if (trace[i].index >= tile_count || tiles[trace[i].index].space >= space_count)
        return VXP_EINVAL;
      break;
    case VXP_TRACE_OPEN: depth++; break;
    case VXP_TRACE_CLOSE:
      if (depth == 0) return VXP_EINVAL;
      depth--;
      break;
    case VXP_TRACE_CALL:
      if (held && trace[i].index >= call_count) return VXP_EINVAL;
      break;
    default: return VXP_EINVAL;
    }
  }
  return VXP_OK;
}

/* One pass. With `stop_at` (per space: the trace position of the peak) it records the live
 * set when each space's peak position is reached, instead of searching for peaks. */
static int run(vxp_context *ctx, sweep_state *st, const vxp_trace_item *trace, size_t trace_len,
               const vxp_peak_tile *tiles, uint32_t space_count, vxp_space_peak *out,
               size_t *peak_pos, bool *live_at_peak, uint64_t *held, bool replay) {
  memset(st->total, 0, sizeof(u128) * space_count);
  st->live.len = 0;
  st->marks.len = 0;
  for (size_t i = 0; i < trace_len; i++) {
    const vxp_trace_item *it = &trace[i];
    switch (it->kind) {
    case VXP_TRACE_OPEN:
      if (!array_push(ctx, &st->marks, st->live.len)) return VXP_ENOMEM;
      break;
    case VXP_TRACE_CLOSE: close_block(st, tiles); break;
    case VXP_TRACE_CALL:
      if (held && !replay) {
        for (uint32_t s = 0; s < space_count; s++) {
          u128 v = st->total[s];
          held[(size_t)it->index * space_count + s] = v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
        }
      }
      break;
    case VXP_TRACE_PLACE: {
      const vxp_peak_tile *t = &tiles[it->index];
      st->total[t->space] += t->bytes;
      if (!array_push(ctx, &st->live, it->index)) return VXP_ENOMEM;
      vxp_space_peak *sp = &out[t->space];
      if (!replay) {
        if (!sp->any || st->total[t->space] > sp->peak) {
          sp->any = true;
          sp->peak = st->total[t->space];
          sp->peak_tile = it->index;
          peak_pos[t->space] = i;
        }
      } else if (peak_pos[t->space] == i) {
        uint32_t count = 0;
        for (size_t k = 0; k < st->live.len; k++) {
          uint32_t u = st->live.items[k];
          if (tiles[u].space != t->space) continue;
          live_at_peak[u] = true;
          count++;
        }
        sp->tiles_at_peak = count;
      }
      if (t->released_at_once) {
        st->total[t->space] -= t->bytes;
        st->live.len--;
      }
      break;
    }
    }
  }
  return VXP_OK;
}

int vxp_peak__sweep(vxp_context *ctx, const vxp_trace_item *trace, size_t trace_len,
                    const vxp_peak_tile *tiles, size_t tile_count, uint32_t space_count,
                    vxp_space_peak *out, bool *live_at_peak, uint64_t *held, size_t call_count) {
  int rc = validate(trace, trace_len, tiles, tile_count, space_count, held, call_count);
  if (rc != VXP_OK) return rc;
  memset(out, 0, sizeof(*out) * space_count);
  if (tile_count) memset(live_at_peak, 0, sizeof(bool) * tile_count);
  if (space_count == 0) return VXP_OK;
  sweep_state st;
  memset(&st, 0, sizeof(st));
  st.total = vxp_ctx__calloc(ctx, space_count, sizeof(u128));
  size_t *peak_pos = vxp_ctx__calloc(ctx, space_count, sizeof(size_t));
  if (!st.total || !peak_pos) rc = VXP_ENOMEM;
  if (rc == VXP_OK)
    rc = run(ctx, &st, trace, trace_len, tiles, space_count, out, peak_pos, live_at_peak, held,
             false);
  if (rc == VXP_OK)
    rc = run(ctx, &st, trace, trace_len, tiles, space_count, out, peak_pos, live_at_peak, held,
             true);
  vxp_ctx__free(ctx, peak_pos);
  state_free(ctx, &st);
  return rc;
}
