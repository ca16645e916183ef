/* SPDX-License-Identifier: Apache-2.0 */
/* bench_peak.c - the peak of one function in one linear sweep (lib/peak.c) against vxc's
 * quadratic formula (tests/unit/oracle.h), on one generated function of up to 10^6
 * placements in nested releasing blocks across four spaces, a tenth of them never read.
 *
 * The sweep is timed at 10^4, 10^5 and 10^6 placements, the oracle at 10^4 and 10^5, in the
 * same run, on the same traces (each trace is a prefix of the largest, closed). Every
 * figure is the median of several runs; the ratios show the growth: about 10x per decade
 * is linear, about 100x quadratic. Every sweep's peaks are checked against the oracle
 * where the oracle runs, so a fast wrong answer fails the benchmark. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "context.h"
#include "peak.h"
#include "vxpeak.h"

#include "../unit/oracle.h"

#define SPACES 4
#define MAX_DEPTH 12

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, size_t n) {
  qsort(v, n, sizeof(*v), cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

typedef struct trace {
  vxp_trace_item *items;
  size_t len, cap;
  vxp_peak_tile *tiles;
  size_t tile_count;
} trace;

static void push(trace *t, uint8_t kind, uint32_t index) {
  if (t->len == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 1024;
    t->items = realloc(t->items, t->cap * sizeof(*t->items));
    if (!t->items) exit(1);
  }
  t->items[t->len].kind = kind;
  t->items[t->len].index = index;
  t->len++;
}

/* A function body of `placements` tiles: blocks open and close at random (nesting up to
 * MAX_DEPTH), tiles land in one of SPACES spaces, one in ten is never read. */
static void generate(trace *t, size_t placements) {
  memset(t, 0, sizeof(*t));
  t->tiles = malloc(placements * sizeof(*t->tiles));
  if (!t->tiles) exit(1);
  int depth = 0;
  while (t->tile_count < placements) {
    uint64_t r = rnd() % 100;
    if (r < 12 && depth < MAX_DEPTH) {
      push(t, VXP_TRACE_OPEN, 0);
      depth++;
    } else if (r < 24 && depth > 0) {
      push(t, VXP_TRACE_CLOSE, 0);
      depth--;
    } else {
      vxp_peak_tile *tile = &t->tiles[t->tile_count];
      tile->space = (uint32_t)(rnd() % SPACES);
      tile->bytes = 1 + rnd() % (1u << 20);
      tile->released_at_once = rnd() % 10 == 0;
      push(t, VXP_TRACE_PLACE, (uint32_t)t->tile_count++);
    }
  }
  while (depth-- > 0)
    push(t, VXP_TRACE_CLOSE, 0);
}

/* The prefix of `full` holding its first `placements` tiles, with its open blocks closed. */
static void prefix(const trace *full, size_t placements, trace *out) {
  memset(out, 0, sizeof(*out));
  out->tiles = full->tiles;
  int depth = 0;
  for (size_t i = 0; i < full->len && out->tile_count < placements; i++) {
    const vxp_trace_item *it = &full->items[i];
    if (it->kind == VXP_TRACE_OPEN) depth++;
    if (it->kind == VXP_TRACE_CLOSE) depth--;
    if (it->kind == VXP_TRACE_PLACE) out->tile_count++;
    push(out, it->kind, it->index);
  }
  while (depth-- > 0)
    push(out, VXP_TRACE_CLOSE, 0);
}

static double time_sweep(vxp_context *ctx, const trace *t, vxp_space_peak *peaks, bool *live) {
  double start = now_us();
  int rc =
      vxp_peak__sweep(ctx, t->items, t->len, t->tiles, t->tile_count, SPACES, peaks, live, NULL, 0);
  double elapsed = now_us() - start;
  if (rc != VXP_OK) {
    fprintf(stderr, "bench_peak: the sweep failed (%d)\n", rc);
    exit(1);
  }
  return elapsed;
}

static double time_oracle(const trace *t, unsigned __int128 *peaks, uint32_t *counts) {
  double start = now_us();
  if (!oracle_peaks(t->items, t->len, t->tiles, t->tile_count, SPACES, peaks, counts)) {
    fprintf(stderr, "bench_peak: the oracle refused the trace\n");
    exit(1);
  }
  return now_us() - start;
}

int main(void) {
  vxp_context *ctx = NULL;
  if (vxp_context_new(&ctx, NULL) != VXP_OK) return 1;
  const size_t sizes[] = {10000, 100000, 1000000};
  const int sweep_runs = 9;
  const int oracle_runs[] = {5, 3, 0};
  trace full;
  generate(&full, sizes[2]);
  bool *live = malloc(sizes[2] * sizeof(bool));
  if (!live) return 1;
  double sweep_ms[3] = {0}, oracle_ms[3] = {0};
  printf("bench_peak: one function, blocks nested up to %d deep, %d spaces, 1 tile in 10 "
         "never read\n",
         MAX_DEPTH, SPACES);
  printf("%12s %12s %14s %12s %14s %12s\n", "placements", "trace items", "sweep (ms)",
         "ns/placement", "oracle (ms)", "oracle/sweep");
  for (int s = 0; s < 3; s++) {
    trace t;
    if (s == 2)
      t = full;
    else
      prefix(&full, sizes[s], &t);
    vxp_space_peak peaks[SPACES];
    double runs[16];
    for (int r = 0; r < sweep_runs; r++)
      runs[r] = time_sweep(ctx, &t, peaks, live);
    sweep_ms[s] = median(runs, (size_t)sweep_runs) / 1000.0;
    if (oracle_runs[s]) {
      unsigned __int128 want[SPACES];
      uint32_t counts[SPACES];
      for (int r = 0; r < oracle_runs[s]; r++)
        runs[r] = time_oracle(&t, want, counts);
      oracle_ms[s] = median(runs, (size_t)oracle_runs[s]) / 1000.0;
      for (int k = 0; k < SPACES; k++) {
        if (peaks[k].peak != want[k] || peaks[k].tiles_at_peak != counts[k]) {
          fprintf(stderr, "bench_peak: the sweep disagrees with the oracle in space %d\n", k);
          return 1;
        }
      }
    }
    printf("%12zu %12zu %14.3f %12.1f ", sizes[s], t.len, sweep_ms[s],
           sweep_ms[s] * 1e6 / (double)sizes[s]);
    if (oracle_runs[s])
      printf("%14.1f %11.0fx\n", oracle_ms[s], oracle_ms[s] / sweep_ms[s]);
    else
      printf("%14s %12s\n", "-", "-");
    if (s != 2) free(t.items);
  }
  printf("growth per decade: sweep 10^5/10^4 = %.1fx, 10^6/10^5 = %.1fx (linear: 10x); "
         "oracle 10^5/10^4 = %.1fx (quadratic: 100x)\n",
         sweep_ms[1] / sweep_ms[0], sweep_ms[2] / sweep_ms[1], oracle_ms[1] / oracle_ms[0]);
  printf("medians of %d sweep runs and of %d and %d oracle runs; the sweep's peaks and tile "
         "counts equal the oracle's at 10^4 and 10^5\n",
         sweep_runs, oracle_runs[0], oracle_runs[1]);
  free(full.items);
  free(full.tiles);
  free(live);
  vxp_context_free(ctx);
  return 0;
}
