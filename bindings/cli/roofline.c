/* SPDX-License-Identifier: Apache-2.0 */
/* roofline.c - `vxpeak roofline`: the bytes one call's spawn regions move per space (the
 * compulsory and the no-reuse count), the operations they do by element type, the time of
 * each at the machine's bandwidths and peak rates, which binds and by how much, the
 * ceiling in calls (and tokens) per second, and what streaming the host-loaded tiles over
 * their link would cost instead. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static double per_second(uint64_t ps) { return ps ? 1e12 / (double)ps : 0.0; }

/* "w0 ... w31" style runs: consecutive buffers (or streamed tiles) of one size. */
typedef struct run_of {
  size_t first, count;
  uint64_t each;
} run_of;

static bool is_integer_type(const char *t) { return t[0] == 'i' || t[0] == 'u' || t[0] == 'b'; }

/* The operations of one call by element type, and their time at the declared rates. */
static void print_ops(const vxp_roofline *rf) {
  char b1[32], b2[32], b3[32];
  const char *st = vxp_roofline_ops_status(rf);
  if (strcmp(st, "unknown") == 0) {
    printf("  operations: unknown: %s\n", vxp_roofline_ops_reason(rf));
    return;
  }
  uint64_t total = vxp_roofline_total_ops(rf);
  printf("  operations (a multiply-add is two), %s:%s\n",
         strcmp(st, "exact") == 0 ? "exactly" : "at most", total ? "" : " none");
  for (size_t i = 0; i < vxp_roofline_op_type_count(rf); i++) {
    uint64_t n = vxp_roofline_op_count(rf, i), peak = 0;
    if (!n) continue;
    const char *t = vxp_roofline_op_type(rf, i);
    bool integer = is_integer_type(t);
    printf("    %-6s %26s (%s)", t, vxpeak_grouped(n, b1), vxpeak_ops(n, integer, b2));
    if (vxp_roofline_op_peak(rf, i, &peak)) {
      /* ceil(n x 10^12 / peak) ps, as the library counts it. */
      unsigned __int128 ps = ((unsigned __int128)n * 1000000000000ull + peak - 1) / peak;
      printf(" at %s: %s\n", vxpeak_ops_rate(peak, integer, b3),
             vxpeak_duration(ps > UINT64_MAX ? UINT64_MAX : (uint64_t)ps, b1));
    } else {
      printf(" at no declared rate\n");
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
static void print_bound(const vxp_roofline *rf, vxp_traffic_model model, const char *tokens_name,
                        uint64_t tokens) {
  char b1[32], b2[32], b3[32], b4[32], b5[96];
  uint64_t mem = 0, comp = 0, call = 0;
  if (!vxp_roofline_memory_time_ps(rf, model, &mem)) {
    printf("  no call time: %s\n", vxp_roofline_reason(rf) ? vxp_roofline_reason(rf)
                                                           : "the regions move nothing");
    return;
  }
  const char *space = vxp_roofline_memory_bound_space(rf, model);
  size_t bi = 0;
  while (bi < vxp_roofline_space_count(rf) && strcmp(vxp_roofline_space_name(rf, bi), space)) bi++;
  uint64_t written = 0, bw = 0;
  uint64_t bytes = vxp_roofline_space_bytes(rf, bi, model, &written);
  bytes = bytes + written < bytes ? UINT64_MAX : bytes + written;
  vxp_roofline_space_bandwidth(rf, bi, &bw);
  printf("  memory: %s of %s at %s is %s per call\n", vxpeak_bytes(bytes, b5), space,
         vxpeak_rate(bw, b1), vxpeak_duration(mem, b2));
  uint64_t total = vxp_roofline_total_ops(rf);
  bool has_comp = vxp_roofline_compute_time_ps(rf, &comp);
  if (has_comp)
    printf("  compute: %s at the declared peaks is %s per call\n",
           vxpeak_grouped(total, b1), vxpeak_duration(comp, b2));
  else
    printf("  compute: no time: %s\n", vxp_roofline_compute_reason(rf));
  if (bytes && strcmp(vxp_roofline_ops_status(rf), "unknown") != 0) {
    printf("  arithmetic intensity: %.3g operations per byte of %s", (double)total / (double)bytes,
           space);
    if (effective_peak(rf) > 0 && bw)
      /* The ridge point: the intensity at which compute time equals memory time. */
      printf("; ridge point %.4g", effective_peak(rf) / (double)bw);
    printf("\n");
  }
  const char *bound = vxp_roofline_bound(rf, model);
  if (!bound || !vxp_roofline_call_time_ps(rf, model, &call)) {
    printf("  bound: cannot be named (no compute time); memory alone: %s per call, at most %s "
           "calls/s", vxpeak_duration(mem, b1), vxpeak_per_second(1e12 / (double)mem, b2));
    if (tokens_name)
      printf(" x %llu (%s) = at most %s tokens/s", (unsigned long long)tokens, tokens_name,
             vxpeak_per_second(1e12 / (double)mem * (double)tokens, b3));
    printf("\n");
    return;
  }
  bool by_memory = strcmp(bound, "memory") == 0;
  double ratio = by_memory ? (comp ? (double)mem / (double)comp : 0.0)
                           : (double)comp / (double)mem;
  printf("  bound by %s", by_memory ? "memory" : "compute");
  if (by_memory) printf(" (%s)", space);
  if (ratio > 0) printf(", %.3gx the %s time", ratio, by_memory ? "compute" : "memory");
  else printf(", the call does no arithmetic");
  double per_s = call ? 1e12 / (double)call : 0.0;
  printf(": %s per call, %s calls/s", vxpeak_duration(call, b2), vxpeak_per_second(per_s, b3));
  if (tokens_name)
    printf(" x %llu (%s) = %s tokens/s", (unsigned long long)tokens, tokens_name,
           vxpeak_per_second(per_s * (double)tokens, b4));
  printf("\n");
}

static void print_text(const vxp_roofline *rf, const char *machine, vxp_traffic_model model,
                       const char *tokens_name, uint64_t tokens) {
  char b1[32], b2[32], b3[32], b4[32];
  const char *traffic = vxp_roofline_traffic(rf);
  size_t regions = vxp_roofline_region_count(rf);
  const char *topo = vxp_roofline_topology(rf);
  printf("%s on %s%s%s: %zu spawn region%s; one call moves, %s:\n", vxp_roofline_function(rf),
         machine, topo ? ", topology " : "", topo ? topo : "", regions, regions == 1 ? "" : "s",
         strcmp(traffic, "exact") == 0 ? "exactly"
         : strcmp(traffic, "upper_bound") == 0 ? "at most (alternatives count their largest arm)"
                                               : "an unknown amount");
  if (strcmp(traffic, "unknown") == 0) {
    printf("  unknown: %s\n", vxp_roofline_reason(rf));
    return;
  }
  printf("  traffic: %s; the ceilings below use it (--traffic %s for the other)\n",
         model == VXP_TRAFFIC_COMPULSORY
             ? "compulsory (each element of a tile once per call, what perfect reuse moves)"
             : "no reuse (every access goes to memory)",
         model == VXP_TRAFFIC_COMPULSORY ? "no-reuse" : "compulsory");
  printf("  %-10s %34s %34s %18s %12s\n", "space", "read, compulsory", "read, no reuse",
         "written", "bandwidth");
  for (size_t i = 0; i < vxp_roofline_space_count(rf); i++) {
    uint64_t cw = 0, nw = 0, bw = 0;
    uint64_t cr = vxp_roofline_space_bytes(rf, i, VXP_TRAFFIC_COMPULSORY, &cw);
    uint64_t nr = vxp_roofline_space_bytes(rf, i, VXP_TRAFFIC_NO_REUSE, &nw);
    char cread[64], nread[64];
    snprintf(cread, sizeof(cread), "%s (%s)", vxpeak_grouped(cr, b1), vxpeak_decimal(cr, b2));
    snprintf(nread, sizeof(nread), "%s (%s)", vxpeak_grouped(nr, b1), vxpeak_decimal(nr, b2));
    bool has_bw = vxp_roofline_space_bandwidth(rf, i, &bw);
    printf("  %-10s %34s %34s %18s %12s\n", vxp_roofline_space_name(rf, i), cread, nread,
           vxpeak_grouped(model == VXP_TRAFFIC_COMPULSORY ? cw : nw, b3),
           has_bw ? vxpeak_rate(bw, b4) : "none");
  }
  /* Buffers, runs of one size folded. */
  size_t nb = vxp_roofline_buffer_count(rf);
  for (size_t i = 0; i < nb;) {
    size_t j = i + 1;
    while (j < nb && vxp_roofline_buffer_read_bytes(rf, j) == vxp_roofline_buffer_read_bytes(rf, i) &&
           vxp_roofline_buffer_bytes(rf, j, VXP_TRAFFIC_COMPULSORY, NULL) ==
               vxp_roofline_buffer_bytes(rf, i, VXP_TRAFFIC_COMPULSORY, NULL) &&
           vxp_roofline_buffer_written_bytes(rf, j) == vxp_roofline_buffer_written_bytes(rf, i) &&
           strcmp(vxp_roofline_buffer_space(rf, j), vxp_roofline_buffer_space(rf, i)) == 0)
      j++;
    char names[128];
    if (j - i == 1) snprintf(names, sizeof(names), "%s", vxp_roofline_buffer_name(rf, i));
    else if (j - i == 2) snprintf(names, sizeof(names), "%s, %s", vxp_roofline_buffer_name(rf, i),
                                  vxp_roofline_buffer_name(rf, i + 1));
    else snprintf(names, sizeof(names), "%s ... %s (%zu)", vxp_roofline_buffer_name(rf, i),
                  vxp_roofline_buffer_name(rf, j - 1), j - i);
    uint64_t cw = 0, tile = 0;
    uint64_t cr = vxp_roofline_buffer_bytes(rf, i, VXP_TRAFFIC_COMPULSORY, &cw);
    printf("    %-26s read %s, written %s bytes%s in %s", names,
           vxpeak_grouped(vxp_roofline_buffer_read_bytes(rf, i), b1),
           vxpeak_grouped(vxp_roofline_buffer_written_bytes(rf, i), b2), j - i > 1 ? " each" : "",
           vxp_roofline_buffer_space(rf, i));
    if (vxp_roofline_buffer_tile_bytes(rf, i, &tile) &&
        (cr != vxp_roofline_buffer_read_bytes(rf, i) ||
         cw != vxp_roofline_buffer_written_bytes(rf, i)))
      printf("; compulsory %s read, %s written (the tile is %s bytes)", vxpeak_grouped(cr, b1),
             vxpeak_grouped(cw, b2), vxpeak_grouped(tile, b3));
    printf("\n");
    i = j;
  }
  print_ops(rf);
  print_bound(rf, model, tokens_name, tokens);
  uint64_t step = 0, stream = 0;
  if (!vxp_roofline_memory_time_ps(rf, model, &step)) return;
  if (vxp_roofline_call_time_ps(rf, model, &step)) { /* streaming against the call time */ }
  size_t ns = vxp_roofline_streamed_count(rf);
  if (ns == 0) {
    printf("  streaming: no tile read in the regions is transferred from host memory\n");
    return;
  }
  printf("  streaming instead, the %zu tile%s loaded from host memory every call:", ns,
         ns == 1 ? "" : "s");
  for (size_t i = 0; i < ns;) {
    uint64_t each = vxp_record_bytes(vxp_roofline_streamed_record(rf, i));
    size_t j = i + 1;
    while (j < ns && vxp_record_bytes(vxp_roofline_streamed_record(rf, j)) == each) j++;
    printf("%s %zu x %s bytes", i ? " +" : "", j - i, vxpeak_grouped(each, b1));
    i = j;
  }
  printf("\n");
  if (!vxp_roofline_stream_time_ps(rf, &stream)) {
    printf("    a route on the way has no cost in time, so streaming is not priced\n");
    return;
  }
  uint64_t sbytes = vxp_roofline_stream_bytes(rf);
  uint64_t rate = (uint64_t)((double)sbytes * 1e12 / (double)stream + 0.5);
  char b5[32];
  printf("    %s at %s is %s per call, %s calls/s: %sx slower\n", vxpeak_decimal(sbytes, b1),
         vxpeak_rate(rate, b2), vxpeak_duration(stream, b3),
         vxpeak_per_second(per_second(stream), b4),
         vxpeak_per_second((double)stream / (double)step, b5));
}

static void json_optional_u64(vxpeak_json *j, int has, uint64_t v) {
  if (has) vxpeak_json_u64(j, v);
  else vxpeak_json_null(j);
}

static void json_optional_real(vxpeak_json *j, bool has, double v, int digits) {
  if (has) vxpeak_json_real(j, v, digits);
  else vxpeak_json_null(j);
}

/* The arithmetic and the bound, under `model`. */
static void print_json_bound(vxpeak_json *j, const vxp_roofline *rf, vxp_traffic_model model,
                             const char *tokens_name, uint64_t tokens) {
  uint64_t v = 0, mem = 0, comp = 0, call = 0;
  vxpeak_json_key(j, "topology");
  vxpeak_json_string(j, vxp_roofline_topology(rf));
  vxpeak_json_key(j, "operations");
  vxpeak_json_open(j, '{');
  vxpeak_json_key(j, "status");
  vxpeak_json_string(j, vxp_roofline_ops_status(rf));
  vxpeak_json_key(j, "reason");
  vxpeak_json_string(j, vxp_roofline_ops_reason(rf));
  vxpeak_json_key(j, "total");
  vxpeak_json_u64(j, vxp_roofline_total_ops(rf));
  vxpeak_json_key(j, "by_type");
  vxpeak_json_open(j, '[');
  for (size_t i = 0; i < vxp_roofline_op_type_count(rf); i++) {
    if (!vxp_roofline_op_count(rf, i)) continue;
    vxpeak_json_open(j, '{');
    vxpeak_json_key(j, "type");
    vxpeak_json_string(j, vxp_roofline_op_type(rf, i));
    vxpeak_json_key(j, "operations");
    vxpeak_json_u64(j, vxp_roofline_op_count(rf, i));
    int has = vxp_roofline_op_peak(rf, i, &v);
    vxpeak_json_key(j, "peak_ops_per_s");
    json_optional_u64(j, has, v);
    vxpeak_json_close(j, '}');
  }
  vxpeak_json_close(j, ']');
  vxpeak_json_close(j, '}');
  vxpeak_json_key(j, "traffic_model");
  vxpeak_json_string(j, model == VXP_TRAFFIC_COMPULSORY ? "compulsory" : "no_reuse");
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
  bool ops_known = strcmp(vxp_roofline_ops_status(rf), "unknown") != 0;
  vxpeak_json_key(j, "memory_time_ps");
  json_optional_u64(j, has_mem, mem);
  vxpeak_json_key(j, "memory_bound_space");
  vxpeak_json_string(j, has_mem ? space : NULL);
  vxpeak_json_key(j, "memory_bytes");
  json_optional_u64(j, has_mem, bytes);
  vxpeak_json_key(j, "compute_time_ps");
  json_optional_u64(j, has_comp, comp);
  vxpeak_json_key(j, "compute_reason");
  vxpeak_json_string(j, vxp_roofline_compute_reason(rf));
  vxpeak_json_key(j, "arithmetic_intensity");
  json_optional_real(j, has_mem && bytes && ops_known, (double)total / (double)(bytes ? bytes : 1), 4);
  vxpeak_json_key(j, "ridge_point");
  json_optional_real(j, effective_peak(rf) > 0 && bw,
                     effective_peak(rf) / (double)(bw ? bw : 1), 4);
  vxpeak_json_key(j, "bound");
  vxpeak_json_string(j, vxp_roofline_bound(rf, model));
  vxpeak_json_key(j, "bound_ratio");
  const char *bound = vxp_roofline_bound(rf, model);
  bool by_mem = bound && strcmp(bound, "memory") == 0;
  json_optional_real(j, bound && (by_mem ? comp : mem) > 0,
                     by_mem ? (double)mem / (double)(comp ? comp : 1)
                            : (double)comp / (double)(mem ? mem : 1), 4);
  vxpeak_json_key(j, "call_time_ps");
  json_optional_u64(j, has_call, call);
  vxpeak_json_key(j, "calls_per_second");
  json_optional_real(j, has_call && call, 1e12 / (double)(call ? call : 1), 3);
  vxpeak_json_key(j, "tokens_per_call");
  vxpeak_json_u64(j, tokens);
  vxpeak_json_key(j, "tokens_per_call_from");
  vxpeak_json_string(j, tokens_name);
  vxpeak_json_key(j, "tokens_per_second");
  json_optional_real(j, has_call && call, 1e12 / (double)(call ? call : 1) * (double)tokens, 3);
}

static void print_json_fn(vxpeak_json *j, const vxp_roofline *rf, vxp_traffic_model model,
                          const char *tokens_name, uint64_t tokens) {
  uint64_t v = 0, step = 0, stream = 0;
  vxpeak_json_open(j, '{');
  vxpeak_json_key(j, "function");
  vxpeak_json_string(j, vxp_roofline_function(rf));
  vxpeak_json_key(j, "regions");
  vxpeak_json_u64(j, vxp_roofline_region_count(rf));
  vxpeak_json_key(j, "traffic");
  vxpeak_json_string(j, vxp_roofline_traffic(rf));
  vxpeak_json_key(j, "reason");
  vxpeak_json_string(j, vxp_roofline_reason(rf));
  vxpeak_json_key(j, "spaces");
  vxpeak_json_open(j, '[');
  for (size_t i = 0; i < vxp_roofline_space_count(rf); i++) {
    vxpeak_json_open(j, '{');
    vxpeak_json_key(j, "space");
    vxpeak_json_string(j, vxp_roofline_space_name(rf, i));
    vxpeak_json_key(j, "read_bytes");
    vxpeak_json_u64(j, vxp_roofline_space_read_bytes(rf, i));
    vxpeak_json_key(j, "written_bytes");
    vxpeak_json_u64(j, vxp_roofline_space_written_bytes(rf, i));
    /* Each getter is called before its value is read: argument order is unspecified. */
    int has = vxp_roofline_space_bandwidth(rf, i, &v);
    vxpeak_json_key(j, "bandwidth_bytes_per_s");
    json_optional_u64(j, has, v);
    has = vxp_roofline_space_time_ps(rf, i, &v);
    vxpeak_json_key(j, "time_ps");
    json_optional_u64(j, has, v);
    uint64_t cw = 0;
    uint64_t cr = vxp_roofline_space_bytes(rf, i, VXP_TRAFFIC_COMPULSORY, &cw);
    vxpeak_json_key(j, "compulsory_read_bytes");
    vxpeak_json_u64(j, cr);
    vxpeak_json_key(j, "compulsory_written_bytes");
    vxpeak_json_u64(j, cw);
    vxpeak_json_close(j, '}');
  }
  vxpeak_json_close(j, ']');
  vxpeak_json_key(j, "buffers");
  vxpeak_json_open(j, '[');
  for (size_t i = 0; i < vxp_roofline_buffer_count(rf); i++) {
    vxpeak_json_open(j, '{');
    vxpeak_json_key(j, "buffer");
    vxpeak_json_string(j, vxp_roofline_buffer_name(rf, i));
    vxpeak_json_key(j, "space");
    vxpeak_json_string(j, vxp_roofline_buffer_space(rf, i));
    vxpeak_json_key(j, "read_bytes");
    vxpeak_json_u64(j, vxp_roofline_buffer_read_bytes(rf, i));
    vxpeak_json_key(j, "written_bytes");
    vxpeak_json_u64(j, vxp_roofline_buffer_written_bytes(rf, i));
    uint64_t cw = 0, tile = 0;
    uint64_t cr = vxp_roofline_buffer_bytes(rf, i, VXP_TRAFFIC_COMPULSORY, &cw);
    int has_tile = vxp_roofline_buffer_tile_bytes(rf, i, &tile);
    vxpeak_json_key(j, "tile_bytes");
    json_optional_u64(j, has_tile, tile);
    vxpeak_json_key(j, "compulsory_read_bytes");
    vxpeak_json_u64(j, cr);
    vxpeak_json_key(j, "compulsory_written_bytes");
    vxpeak_json_u64(j, cw);
    vxpeak_json_close(j, '}');
  }
  vxpeak_json_close(j, ']');
  int has_step = vxp_roofline_time_ps(rf, &step);
  vxpeak_json_key(j, "time_ps");
  json_optional_u64(j, has_step, step);
  vxpeak_json_key(j, "bound_space");
  vxpeak_json_string(j, vxp_roofline_bound_space(rf));
  vxpeak_json_key(j, "steps_per_second");
  if (has_step) vxpeak_json_real(j, per_second(step), 3);
  else vxpeak_json_null(j);
  print_json_bound(j, rf, model, tokens_name, tokens);
  int has_stream = vxp_roofline_stream_time_ps(rf, &stream);
  vxpeak_json_key(j, "streamed");
  vxpeak_json_open(j, '{');
  vxpeak_json_key(j, "tiles");
  vxpeak_json_open(j, '[');
  for (size_t i = 0; i < vxp_roofline_streamed_count(rf); i++) {
    const vxp_record *r = vxp_roofline_streamed_record(rf, i);
    vxpeak_json_open(j, '{');
    vxpeak_json_key(j, "binding");
    vxpeak_json_string(j, vxp_record_binding(r));
    vxpeak_json_key(j, "line");
    vxpeak_json_u64(j, vxp_record_range(r).start.line + 1);
    vxpeak_json_key(j, "bytes");
    vxpeak_json_u64(j, vxp_record_bytes(r));
    int priced = vxp_roofline_streamed_cost_ps(rf, i, &v);
    vxpeak_json_key(j, "cost_ps");
    json_optional_u64(j, priced, v);
    vxpeak_json_close(j, '}');
  }
  vxpeak_json_close(j, ']');
  vxpeak_json_key(j, "bytes");
  vxpeak_json_u64(j, vxp_roofline_stream_bytes(rf));
  vxpeak_json_key(j, "time_ps");
  json_optional_u64(j, has_stream, stream);
  vxpeak_json_key(j, "steps_per_second");
  if (has_stream) vxpeak_json_real(j, per_second(stream), 3);
  else vxpeak_json_null(j);
  vxpeak_json_key(j, "slowdown");
  if (has_stream && has_step) vxpeak_json_real(j, (double)stream / (double)step, 2);
  else vxpeak_json_null(j);
  vxpeak_json_close(j, '}');
  vxpeak_json_close(j, '}');
}

int vxpeak_roofline(const vxpeak_args *args) {
  vxpeak_session s;
  int exit_code = vxpeak_session_open(&s, args);
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  if (!vxpeak_check_selection(args, s.an)) {
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  vxpeak_render_all(stderr, s.an);
  uint64_t tokens = 1;
  if (!vxpeak_tokens_per_call(args, s.program.ctx, s.an, &tokens)) {
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  vxp_traffic_model model = args->no_reuse ? VXP_TRAFFIC_NO_REUSE : VXP_TRAFFIC_COMPULSORY;
  bool json = strcmp(args->format, "json") == 0;
  vxpeak_json j = {stdout, true, 0, {false}, {false}, false};
  if (json) {
    vxpeak_json_open(&j, '{');
    vxpeak_json_header(&j, "vxpeak-roofline-v1", args, &s.target);
    vxpeak_json_key(&j, "functions");
    vxpeak_json_open(&j, '[');
  }
  size_t shown = 0;
  for (size_t i = 0; i < vxp_analysis_function_count(s.an); i++) {
    const char *fn = vxp_analysis_function(s.an, i);
    if (args->function && strcmp(args->function, fn) != 0) continue;
    vxp_roofline *rf = NULL;
    int rc = vxp_roofline_new(&rf, s.program.ctx, s.an, fn);
    if (rc != VXP_OK) {
      exit_code = vxpeak_fail(s.program.ctx, rc, "roofline");
      goto done;
    }
    /* Without --function, the functions that have device work. */
    if (args->function || vxp_roofline_region_count(rf) > 0) {
      if (json) print_json_fn(&j, rf, model, args->tokens_name, tokens);
      else {
        if (shown) printf("\n");
        print_text(rf, vxpeak_target_name(&s.target), model, args->tokens_name, tokens);
      }
      shown++;
    }
    vxp_roofline_free(rf);
  }
  if (json) {
    vxpeak_json_close(&j, ']');
    vxpeak_json_close(&j, '}');
  } else if (shown == 0) {
    printf("no function of %s has a spawn region: no device work to price on %s\n", args->file,
           vxpeak_target_name(&s.target));
  }
  exit_code = vxp_analysis_admitted(s.an) ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
done:
  vxpeak_session_close(&s);
  return exit_code;
}
