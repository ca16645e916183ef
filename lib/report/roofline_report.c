/* SPDX-License-Identifier: Apache-2.0 */
/* roofline_report.c - the roofline report (vxp_report_roofline; `vxpeak roofline`): the bytes
 * one call's spawn regions move per space (the compulsory and the no-reuse count), the
 * operations they do by element type, the time of each at the machine's bandwidths and peak
 * rates, which binds and by how much, the ceiling in calls (and tokens) per second, and what
 * streaming the host-loaded tiles over their link would cost instead; as text or JSON
 * (vxpeak-roofline-v1). It reads the roofline through its public accessors only. */
#include <stdio.h>

#include "analysis_data.h"
#include "context.h"
#include "program.h"
#include "report.h"
#include "source.h"

static double per_second(uint64_t ps) { return ps ? 1e12 / (double)ps : 0.0; }

/* "w0 ... w31" style runs: consecutive buffers (or streamed tiles) of one size. */
typedef struct run_of {
  size_t first, count;
  uint64_t each;
} run_of;

static bool is_integer_type(const char *t) { return t[0] == 'i' || t[0] == 'u' || t[0] == 'b'; }

/* The operations of one call by element type, and their time at the declared rates. */
static void print_ops(vxp_context *ctx, vxp_sb *sb, const vxp_roofline *rf) {
  char b1[32], b2[32], b3[32];
  vxp_certainty st = vxp_roofline_ops_status(rf);
  if (st == VXP_CERTAINTY_UNKNOWN) {
    vxp_sb__printf(ctx, sb, "  operations: unknown: %s\n", vxp_roofline_ops_reason(rf));
    return;
  }
  uint64_t total = vxp_roofline_total_ops(rf);
  vxp_sb__printf(ctx, sb, "  operations (a multiply-add is two), %s:%s\n",
                 st == VXP_CERTAINTY_EXACT ? "exactly" : "at most", total ? "" : " none");
  for (size_t i = 0; i < vxp_roofline_op_type_count(rf); i++) {
    uint64_t n = vxp_roofline_op_count(rf, i), peak = 0;
    if (!n) continue;
    const char *t = vxp_roofline_op_type(rf, i);
    bool integer = is_integer_type(t);
    vxp_sb__printf(ctx, sb, "    %-6s %26s (%s)", t, vxp_num__grouped(n, b1),
                   vxp_num__ops(n, integer, b2));
    if (vxp_roofline_op_peak(rf, i, &peak)) {
      /* ceil(n x 10^12 / peak) ps, as the library counts it. */
      u128 ps = ((u128)n * 1000000000000ull + peak - 1) / peak;
      vxp_sb__printf(ctx, sb, " at %s: %s\n", vxp_num__ops_rate(peak, integer, b3),
                     vxp_num__duration(ps > UINT64_MAX ? UINT64_MAX : (uint64_t)ps, b1));
    } else {
      vxp_sb__printf(ctx, sb, " at no declared rate\n");
    }
  }
}

/* The operations' own mix of peak rates: total / sum(n_t / peak_t), in operations per
 * second; 0 when a type with operations has no rate. */
static double effective_peak(const vxp_roofline *rf) {
  double seconds = 0.0;
  uint64_t total = vxp_roofline_total_ops(rf), peak = 0;
  for (size_t i = 0; i < vxp_roofline_op_type_count(rf); i++) {
    uint64_t n = vxp_roofline_op_count(rf, i);
    if (!n) continue;
    if (!vxp_roofline_op_peak(rf, i, &peak)) return 0.0;
    seconds += (double)n / (double)peak;
  }
  return seconds > 0 ? (double)total / seconds : 0.0;
}

/* Which of memory and compute binds, by how much, and the ceiling in calls and tokens per
 * second (shared with `frontier`). */
static void print_bound(vxp_context *ctx, vxp_sb *sb, const vxp_roofline *rf,
                        vxp_traffic_model model, const char *tokens_name, uint64_t tokens) {
  char b1[32], b2[32], b3[32], b4[32], b5[96];
  uint64_t mem = 0, comp = 0, call = 0;
  if (!vxp_roofline_memory_time_ps(rf, model, &mem)) {
    vxp_sb__printf(ctx, sb, "  no call time: %s\n",
                   vxp_roofline_reason(rf) ? vxp_roofline_reason(rf) : "the regions move nothing");
    return;
  }
  const char *space = vxp_roofline_memory_bound_space(rf, model);
  size_t bi = 0;
  while (bi < vxp_roofline_space_count(rf) && strcmp(vxp_roofline_space_name(rf, bi), space))
    bi++;
  uint64_t written = 0, bw = 0;
  uint64_t bytes = vxp_roofline_space_bytes(rf, bi, model, &written);
  bytes = bytes + written < bytes ? UINT64_MAX : bytes + written;
  vxp_roofline_space_bandwidth(rf, bi, &bw);
  vxp_sb__printf(ctx, sb, "  memory: %s of %s at %s is %s per call\n", vxp_num__bytes(bytes, b5),
                 space, vxp_num__rate(bw, b1), vxp_num__duration(mem, b2));
  uint64_t total = vxp_roofline_total_ops(rf);
  bool has_comp = vxp_roofline_compute_time_ps(rf, &comp);
  if (has_comp)
    vxp_sb__printf(ctx, sb, "  compute: %s at the declared peaks is %s per call\n",
                   vxp_num__grouped(total, b1), vxp_num__duration(comp, b2));
  else
    vxp_sb__printf(ctx, sb, "  compute: no time: %s\n", vxp_roofline_compute_reason(rf));
  if (bytes && vxp_roofline_ops_status(rf) != VXP_CERTAINTY_UNKNOWN) {
    vxp_sb__printf(ctx, sb, "  arithmetic intensity: %.3g operations per byte of %s",
                   (double)total / (double)bytes, space);
    if (effective_peak(rf) > 0 && bw)
      /* The ridge point: the intensity at which compute time equals memory time. */
      vxp_sb__printf(ctx, sb, "; ridge point %.4g", effective_peak(rf) / (double)bw);
    vxp_sb__printf(ctx, sb, "\n");
  }
  vxp_bound bound = vxp_roofline_bound(rf, model);
  if (bound == VXP_BOUND_NONE || !vxp_roofline_call_time_ps(rf, model, &call)) {
    vxp_sb__printf(
        ctx, sb,
        "  bound: cannot be named (no compute time); memory alone: %s per call, at most %s "
        "calls/s",
        vxp_num__duration(mem, b1), vxp_num__per_second(1e12 / (double)mem, b2));
    if (tokens_name)
      vxp_sb__printf(ctx, sb, " x %llu (%s) = at most %s tokens/s", (unsigned long long)tokens,
                     tokens_name, vxp_num__per_second(1e12 / (double)mem * (double)tokens, b3));
    vxp_sb__printf(ctx, sb, "\n");
    return;
  }
  bool by_memory = bound == VXP_BOUND_MEMORY;
  double ratio = by_memory ? (comp ? (double)mem / (double)comp : 0.0) : (double)comp / (double)mem;
  vxp_sb__printf(ctx, sb, "  bound by %s", by_memory ? "memory" : "compute");
  if (by_memory) vxp_sb__printf(ctx, sb, " (%s)", space);
  if (ratio > 0)
    vxp_sb__printf(ctx, sb, ", %.3gx the %s time", ratio, by_memory ? "compute" : "memory");
  else
    vxp_sb__printf(ctx, sb, ", the call does no arithmetic");
  double per_s = call ? 1e12 / (double)call : 0.0;
  vxp_sb__printf(ctx, sb, ": %s per call, %s calls/s", vxp_num__duration(call, b2),
                 vxp_num__per_second(per_s, b3));
  if (tokens_name)
    vxp_sb__printf(ctx, sb, " x %llu (%s) = %s tokens/s", (unsigned long long)tokens, tokens_name,
                   vxp_num__per_second(per_s * (double)tokens, b4));
  vxp_sb__printf(ctx, sb, "\n");
}

static void print_text(vxp_context *ctx, vxp_sb *sb, const vxp_roofline *rf, const char *machine,
                       vxp_traffic_model model, const char *tokens_name, uint64_t tokens) {
  char b1[32], b2[32], b3[32], b4[32];
  vxp_certainty traffic = vxp_roofline_traffic(rf);
  size_t regions = vxp_roofline_region_count(rf);
  const char *topo = vxp_roofline_topology(rf);
  vxp_sb__printf(
      ctx, sb, "%s on %s%s%s: %zu spawn region%s; one call moves, %s:\n", vxp_roofline_function(rf),
      machine, topo ? ", topology " : "", topo ? topo : "", regions, regions == 1 ? "" : "s",
      traffic == VXP_CERTAINTY_EXACT         ? "exactly"
      : traffic == VXP_CERTAINTY_UPPER_BOUND ? "at most (alternatives count their largest arm)"
                                             : "an unknown amount");
  if (traffic == VXP_CERTAINTY_UNKNOWN) {
    vxp_sb__printf(ctx, sb, "  unknown: %s\n", vxp_roofline_reason(rf));
    return;
  }
  vxp_sb__printf(ctx, sb, "  traffic: %s; the ceilings below use it (--traffic %s for the other)\n",
                 model == VXP_TRAFFIC_COMPULSORY
                     ? "compulsory (each element of a tile once per call, what perfect reuse moves)"
                     : "no reuse (every access goes to memory)",
                 model == VXP_TRAFFIC_COMPULSORY ? "no-reuse" : "compulsory");
  vxp_sb__printf(ctx, sb, "  %-10s %34s %34s %18s %12s\n", "space", "read, compulsory",
                 "read, no reuse", "written", "bandwidth");
  for (size_t i = 0; i < vxp_roofline_space_count(rf); i++) {
    uint64_t cw = 0, nw = 0, bw = 0;
    uint64_t cr = vxp_roofline_space_bytes(rf, i, VXP_TRAFFIC_COMPULSORY, &cw);
    uint64_t nr = vxp_roofline_space_bytes(rf, i, VXP_TRAFFIC_NO_REUSE, &nw);
    char cread[64], nread[64];
    snprintf(cread, sizeof(cread), "%s (%s)", vxp_num__grouped(cr, b1), vxp_num__decimal(cr, b2));
    snprintf(nread, sizeof(nread), "%s (%s)", vxp_num__grouped(nr, b1), vxp_num__decimal(nr, b2));
    bool has_bw = vxp_roofline_space_bandwidth(rf, i, &bw);
    vxp_sb__printf(ctx, sb, "  %-10s %34s %34s %18s %12s\n", vxp_roofline_space_name(rf, i), cread,
                   nread, vxp_num__grouped(model == VXP_TRAFFIC_COMPULSORY ? cw : nw, b3),
                   has_bw ? vxp_num__rate(bw, b4) : "none");
  }
  /* Buffers, runs of one size folded. */
  size_t nb = vxp_roofline_buffer_count(rf);
  for (size_t i = 0; i < nb;) {
    size_t j = i + 1;
    while (j < nb &&
           vxp_roofline_buffer_read_bytes(rf, j) == vxp_roofline_buffer_read_bytes(rf, i) &&
           vxp_roofline_buffer_bytes(rf, j, VXP_TRAFFIC_COMPULSORY, NULL) ==
               vxp_roofline_buffer_bytes(rf, i, VXP_TRAFFIC_COMPULSORY, NULL) &&
           vxp_roofline_buffer_written_bytes(rf, j) == vxp_roofline_buffer_written_bytes(rf, i) &&
           strcmp(vxp_roofline_buffer_space(rf, j), vxp_roofline_buffer_space(rf, i)) == 0)
      j++;
    vxp_sb names = {0};
    if (j - i == 1)
      vxp_sb__puts(ctx, &names, vxp_roofline_buffer_name(rf, i));
    else if (j - i == 2)
      vxp_sb__printf(ctx, &names, "%s, %s", vxp_roofline_buffer_name(rf, i),
                     vxp_roofline_buffer_name(rf, i + 1));
    else
      vxp_sb__printf(ctx, &names, "%s ... %s (%zu)", vxp_roofline_buffer_name(rf, i),
                     vxp_roofline_buffer_name(rf, j - 1), j - i);
    if (names.failed) sb->failed = true;
    uint64_t cw = 0, tile = 0;
    uint64_t cr = vxp_roofline_buffer_bytes(rf, i, VXP_TRAFFIC_COMPULSORY, &cw);
    vxp_sb__printf(ctx, sb, "    %-26s read %s, written %s bytes%s in %s", vxp_sb__text(&names),
                   vxp_num__grouped(vxp_roofline_buffer_read_bytes(rf, i), b1),
                   vxp_num__grouped(vxp_roofline_buffer_written_bytes(rf, i), b2),
                   j - i > 1 ? " each" : "", vxp_roofline_buffer_space(rf, i));
    vxp_sb__free(ctx, &names);
    if (vxp_roofline_buffer_tile_bytes(rf, i, &tile) &&
        (cr != vxp_roofline_buffer_read_bytes(rf, i) ||
         cw != vxp_roofline_buffer_written_bytes(rf, i)))
      vxp_sb__printf(ctx, sb, "; compulsory %s read, %s written (the tile is %s bytes)",
                     vxp_num__grouped(cr, b1), vxp_num__grouped(cw, b2),
                     vxp_num__grouped(tile, b3));
    vxp_sb__printf(ctx, sb, "\n");
    i = j;
  }
  print_ops(ctx, sb, rf);
  print_bound(ctx, sb, rf, model, tokens_name, tokens);
  uint64_t step = 0, stream = 0;
  if (!vxp_roofline_memory_time_ps(rf, model, &step)) return;
  if (vxp_roofline_call_time_ps(rf, model, &step)) { /* streaming against the call time */
  }
  size_t ns = vxp_roofline_streamed_count(rf);
  if (ns == 0) {
    vxp_sb__printf(ctx, sb,
                   "  streaming: no tile read in the regions is transferred from host memory\n");
    return;
  }
  vxp_sb__printf(ctx, sb,
                 "  streaming instead, the %zu tile%s loaded from host memory every call:", ns,
                 ns == 1 ? "" : "s");
  for (size_t i = 0; i < ns;) {
    uint64_t each = vxp_record_bytes(vxp_roofline_streamed_record(rf, i));
    size_t j = i + 1;
    while (j < ns && vxp_record_bytes(vxp_roofline_streamed_record(rf, j)) == each)
      j++;
    vxp_sb__printf(ctx, sb, "%s %zu x %s bytes", i ? " +" : "", j - i, vxp_num__grouped(each, b1));
    i = j;
  }
  vxp_sb__printf(ctx, sb, "\n");
  if (!vxp_roofline_stream_time_ps(rf, &stream)) {
    vxp_sb__printf(ctx, sb,
                   "    a route on the way has no cost in time, so streaming is not priced\n");
    return;
  }
  uint64_t sbytes = vxp_roofline_stream_bytes(rf);
  uint64_t rate = (uint64_t)((double)sbytes * 1e12 / (double)stream + 0.5);
  char b5[32];
  vxp_sb__printf(ctx, sb, "    %s at %s is %s per call, %s calls/s: %sx slower\n",
                 vxp_num__decimal(sbytes, b1), vxp_num__rate(rate, b2),
                 vxp_num__duration(stream, b3), vxp_num__per_second(per_second(stream), b4),
                 vxp_num__per_second((double)stream / (double)step, b5));
}

static void json_optional_u64(vxp_jw *j, int has, uint64_t v) {
  if (has)
    vxp_jw__u64(j, v);
  else
    vxp_jw__null(j);
}

static void json_optional_real(vxp_jw *j, bool has, double v, int digits) {
  if (has)
    vxp_jw__real(j, v, digits);
  else
    vxp_jw__null(j);
}

/* The arithmetic and the bound, under `model`. */
static void print_json_bound(vxp_jw *j, const vxp_roofline *rf, vxp_traffic_model model,
                             const char *tokens_name, uint64_t tokens) {
  uint64_t v = 0, mem = 0, comp = 0, call = 0;
  vxp_jw__key(j, "topology");
  vxp_jw__string(j, vxp_roofline_topology(rf));
  vxp_jw__key(j, "operations");
  vxp_jw__open(j, '{');
  vxp_jw__key(j, "status");
  vxp_jw__string(j, vxp_certainty_name(vxp_roofline_ops_status(rf)));
  vxp_jw__key(j, "reason");
  vxp_jw__string(j, vxp_roofline_ops_reason(rf));
  vxp_jw__key(j, "total");
  vxp_jw__u64(j, vxp_roofline_total_ops(rf));
  vxp_jw__key(j, "by_type");
  vxp_jw__open(j, '[');
  for (size_t i = 0; i < vxp_roofline_op_type_count(rf); i++) {
    if (!vxp_roofline_op_count(rf, i)) continue;
    vxp_jw__open(j, '{');
    vxp_jw__key(j, "type");
    vxp_jw__string(j, vxp_roofline_op_type(rf, i));
    vxp_jw__key(j, "operations");
    vxp_jw__u64(j, vxp_roofline_op_count(rf, i));
    int has = vxp_roofline_op_peak(rf, i, &v);
    vxp_jw__key(j, "peak_ops_per_s");
    json_optional_u64(j, has, v);
    vxp_jw__close(j, '}');
  }
  vxp_jw__close(j, ']');
  vxp_jw__close(j, '}');
  vxp_jw__key(j, "traffic_model");
  vxp_jw__string(j, model == VXP_TRAFFIC_COMPULSORY ? "compulsory" : "no_reuse");
  int has_mem = vxp_roofline_memory_time_ps(rf, model, &mem);
  int has_comp = vxp_roofline_compute_time_ps(rf, &comp);
  int has_call = vxp_roofline_call_time_ps(rf, model, &call);
  const char *space = vxp_roofline_memory_bound_space(rf, model);
  uint64_t bytes = 0, bw = 0;
  for (size_t i = 0; space && i < vxp_roofline_space_count(rf); i++) {
    if (strcmp(vxp_roofline_space_name(rf, i), space) != 0) continue;
    uint64_t w = 0;
    bytes = vxp_roofline_space_bytes(rf, i, model, &w);
    bytes = bytes + w < bytes ? UINT64_MAX : bytes + w;
    vxp_roofline_space_bandwidth(rf, i, &bw);
  }
  uint64_t total = vxp_roofline_total_ops(rf);
  bool ops_known = vxp_roofline_ops_status(rf) != VXP_CERTAINTY_UNKNOWN;
  vxp_jw__key(j, "memory_time_ps");
  json_optional_u64(j, has_mem, mem);
  vxp_jw__key(j, "memory_bound_space");
  vxp_jw__string(j, has_mem ? space : NULL);
  vxp_jw__key(j, "memory_bytes");
  json_optional_u64(j, has_mem, bytes);
  vxp_jw__key(j, "compute_time_ps");
  json_optional_u64(j, has_comp, comp);
  vxp_jw__key(j, "compute_reason");
  vxp_jw__string(j, vxp_roofline_compute_reason(rf));
  vxp_jw__key(j, "arithmetic_intensity");
  json_optional_real(j, has_mem && bytes && ops_known, (double)total / (double)(bytes ? bytes : 1),
                     4);
  vxp_jw__key(j, "ridge_point");
  json_optional_real(j, effective_peak(rf) > 0 && bw, effective_peak(rf) / (double)(bw ? bw : 1),
                     4);
  vxp_jw__key(j, "bound");
  vxp_jw__string(j, vxp_bound_name(vxp_roofline_bound(rf, model)));
  vxp_jw__key(j, "bound_ratio");
  vxp_bound bound = vxp_roofline_bound(rf, model);
  bool by_mem = bound == VXP_BOUND_MEMORY;
  json_optional_real(
      j, bound && (by_mem ? comp : mem) > 0,
      by_mem ? (double)mem / (double)(comp ? comp : 1) : (double)comp / (double)(mem ? mem : 1), 4);
  vxp_jw__key(j, "call_time_ps");
  json_optional_u64(j, has_call, call);
  vxp_jw__key(j, "calls_per_second");
  json_optional_real(j, has_call && call, 1e12 / (double)(call ? call : 1), 3);
  vxp_jw__key(j, "tokens_per_call");
  vxp_jw__u64(j, tokens);
  vxp_jw__key(j, "tokens_per_call_from");
  vxp_jw__string(j, tokens_name);
  vxp_jw__key(j, "tokens_per_second");
  json_optional_real(j, has_call && call, 1e12 / (double)(call ? call : 1) * (double)tokens, 3);
}

static void print_json_fn(vxp_jw *j, const vxp_roofline *rf, vxp_traffic_model model,
                          const char *tokens_name, uint64_t tokens) {
  uint64_t v = 0, step = 0, stream = 0;
  vxp_jw__open(j, '{');
  vxp_jw__key(j, "function");
  vxp_jw__string(j, vxp_roofline_function(rf));
  vxp_jw__key(j, "regions");
  vxp_jw__u64(j, vxp_roofline_region_count(rf));
  vxp_jw__key(j, "traffic");
  vxp_jw__string(j, vxp_certainty_name(vxp_roofline_traffic(rf)));
  vxp_jw__key(j, "reason");
  vxp_jw__string(j, vxp_roofline_reason(rf));
  vxp_jw__key(j, "spaces");
  vxp_jw__open(j, '[');
  for (size_t i = 0; i < vxp_roofline_space_count(rf); i++) {
    vxp_jw__open(j, '{');
    vxp_jw__key(j, "space");
    vxp_jw__string(j, vxp_roofline_space_name(rf, i));
    vxp_jw__key(j, "read_bytes");
    vxp_jw__u64(j, vxp_roofline_space_read_bytes(rf, i));
    vxp_jw__key(j, "written_bytes");
    vxp_jw__u64(j, vxp_roofline_space_written_bytes(rf, i));
    /* Each getter is called before its value is read: argument order is unspecified. */
    int has = vxp_roofline_space_bandwidth(rf, i, &v);
    vxp_jw__key(j, "bandwidth_bytes_per_s");
    json_optional_u64(j, has, v);
    has = vxp_roofline_space_time_ps(rf, i, &v);
    vxp_jw__key(j, "time_ps");
    json_optional_u64(j, has, v);
    uint64_t cw = 0;
    uint64_t cr = vxp_roofline_space_bytes(rf, i, VXP_TRAFFIC_COMPULSORY, &cw);
    vxp_jw__key(j, "compulsory_read_bytes");
    vxp_jw__u64(j, cr);
    vxp_jw__key(j, "compulsory_written_bytes");
    vxp_jw__u64(j, cw);
    vxp_jw__close(j, '}');
  }
  vxp_jw__close(j, ']');
  vxp_jw__key(j, "buffers");
  vxp_jw__open(j, '[');
  for (size_t i = 0; i < vxp_roofline_buffer_count(rf); i++) {
    vxp_jw__open(j, '{');
    vxp_jw__key(j, "buffer");
    vxp_jw__string(j, vxp_roofline_buffer_name(rf, i));
    vxp_jw__key(j, "space");
    vxp_jw__string(j, vxp_roofline_buffer_space(rf, i));
    vxp_jw__key(j, "read_bytes");
    vxp_jw__u64(j, vxp_roofline_buffer_read_bytes(rf, i));
    vxp_jw__key(j, "written_bytes");
    vxp_jw__u64(j, vxp_roofline_buffer_written_bytes(rf, i));
    uint64_t cw = 0, tile = 0;
    uint64_t cr = vxp_roofline_buffer_bytes(rf, i, VXP_TRAFFIC_COMPULSORY, &cw);
    int has_tile = vxp_roofline_buffer_tile_bytes(rf, i, &tile);
    vxp_jw__key(j, "tile_bytes");
    json_optional_u64(j, has_tile, tile);
    vxp_jw__key(j, "compulsory_read_bytes");
    vxp_jw__u64(j, cr);
    vxp_jw__key(j, "compulsory_written_bytes");
    vxp_jw__u64(j, cw);
    vxp_jw__close(j, '}');
  }
  vxp_jw__close(j, ']');
  int has_step = vxp_roofline_time_ps(rf, &step);
  vxp_jw__key(j, "time_ps");
  json_optional_u64(j, has_step, step);
  vxp_jw__key(j, "bound_space");
  vxp_jw__string(j, vxp_roofline_bound_space(rf));
  vxp_jw__key(j, "steps_per_second");
  if (has_step)
    vxp_jw__real(j, per_second(step), 3);
  else
    vxp_jw__null(j);
  print_json_bound(j, rf, model, tokens_name, tokens);
  int has_stream = vxp_roofline_stream_time_ps(rf, &stream);
  vxp_jw__key(j, "streamed");
  vxp_jw__open(j, '{');
  vxp_jw__key(j, "tiles");
  vxp_jw__open(j, '[');
  for (size_t i = 0; i < vxp_roofline_streamed_count(rf); i++) {
    const vxp_record *r = vxp_roofline_streamed_record(rf, i);
    vxp_jw__open(j, '{');
    vxp_jw__key(j, "binding");
    vxp_jw__string(j, vxp_record_binding(r));
    vxp_jw__key(j, "line");
    vxp_jw__u64(j, vxp_record_range(r).start.line + 1);
    vxp_jw__key(j, "bytes");
    vxp_jw__u64(j, vxp_record_bytes(r));
    int priced = vxp_roofline_streamed_cost_ps(rf, i, &v);
    vxp_jw__key(j, "cost_ps");
    json_optional_u64(j, priced, v);
    vxp_jw__close(j, '}');
  }
  vxp_jw__close(j, ']');
  vxp_jw__key(j, "bytes");
  vxp_jw__u64(j, vxp_roofline_stream_bytes(rf));
  vxp_jw__key(j, "time_ps");
  json_optional_u64(j, has_stream, stream);
  vxp_jw__key(j, "steps_per_second");
  if (has_stream)
    vxp_jw__real(j, per_second(stream), 3);
  else
    vxp_jw__null(j);
  vxp_jw__key(j, "slowdown");
  if (has_stream && has_step)
    vxp_jw__real(j, (double)stream / (double)step, 2);
  else
    vxp_jw__null(j);
  vxp_jw__close(j, '}');
  vxp_jw__close(j, '}');
}

int vxp_report_roofline(vxp_report **out, vxp_context *ctx, const vxp_analysis *an,
                        const vxp_report_options *opts) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, an, VXP_TAG_ANALYSIS);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (!out || !ctx || !an)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_report_roofline")
               : VXP_EINVAL;
  vxp_report_options o;
  int rc = vxp_report__options(ctx, opts, &o, VXP_REPORT__TEXT_JSON);
  if (rc != VXP_OK) return rc;
  if (o.traffic != VXP_TRAFFIC_COMPULSORY && o.traffic != VXP_TRAFFIC_NO_REUSE)
    return vxp_ctx__error(ctx, VXP_EINVAL, "vxp_report_options: unknown traffic model %d",
                          (int)o.traffic);
  const char *machine = vxp_report__machine_name(an, &o);
  uint64_t tokens = o.tokens_per_call ? o.tokens_per_call : 1;
  bool json = o.format == VXP_REPORT_JSON;
  vxp_sb sb = {0};
  vxp_jw j;
  vxp_jw__init(&j, ctx, &sb, true);
  if (json) {
    vxp_jw__open(&j, '{');
    vxp_jw__header(&j, "vxpeak-roofline-v1", an, true);
    vxp_jw__key(&j, "functions");
    vxp_jw__open(&j, '[');
  }
  size_t shown = 0;
  for (size_t i = 0; i < vxp_analysis_function_count(an) && !sb.failed; i++) {
    const char *fn = vxp_analysis_function(an, i);
    if (o.function && strcmp(o.function, fn) != 0) continue;
    vxp_roofline *rf = NULL;
    rc = vxp_roofline_new(&rf, ctx, an, fn);
    if (rc != VXP_OK) {
      vxp_sb__free(ctx, &sb);
      return rc;
    }
    /* Without a function named, the functions that have device work. */
    if (o.function || vxp_roofline_region_count(rf) > 0) {
      if (json)
        print_json_fn(&j, rf, o.traffic, o.tokens_name, tokens);
      else {
        if (shown) vxp_sb__putc(ctx, &sb, '\n');
        print_text(ctx, &sb, rf, machine, o.traffic, o.tokens_name, tokens);
      }
      shown++;
    }
    vxp_roofline_free(rf);
  }
  if (json) {
    vxp_jw__close(&j, ']');
    vxp_jw__close(&j, '}');
  } else if (shown == 0) {
    vxp_sb__printf(ctx, &sb,
                   "no function of %s has a spawn region: no device work to price on %s\n",
                   an->prog->src->label, machine);
  }
  vxp_ctx__clear_error(ctx); /* the rooflines' own calls succeeded */
  return vxp_report__finish(out, ctx, &sb);
}
