/* SPDX-License-Identifier: Apache-2.0 */
/* roofline.c - `vxpeak roofline`: the bytes one call's spawn regions move per space, the
 * time they take at each space's bandwidth, the ceiling in steps per second, and what
 * streaming the host-loaded tiles over their link would cost instead. */
#include <string.h>

#include "cli.h"

static double per_second(uint64_t ps) { return ps ? 1e12 / (double)ps : 0.0; }

/* "w0 ... w31" style runs: consecutive buffers (or streamed tiles) of one size. */
typedef struct run_of {
  size_t first, count;
  uint64_t each;
} run_of;

static void print_text(const vxp_roofline *rf) {
  char b1[32], b2[32], b3[32], b4[32];
  const char *traffic = vxp_roofline_traffic(rf);
  size_t regions = vxp_roofline_region_count(rf);
  printf("%s: %zu spawn region%s; one call moves, %s:\n", vxp_roofline_function(rf), regions,
         regions == 1 ? "" : "s",
         strcmp(traffic, "exact") == 0 ? "exactly"
         : strcmp(traffic, "upper_bound") == 0 ? "at most (alternatives count their largest arm)"
                                               : "an unknown amount");
  if (strcmp(traffic, "unknown") == 0) {
    printf("  unknown: %s\n", vxp_roofline_reason(rf));
    return;
  }
  printf("  %-10s %34s %18s %12s %10s\n", "space", "read", "written", "bandwidth", "time");
  for (size_t i = 0; i < vxp_roofline_space_count(rf); i++) {
    uint64_t rd = vxp_roofline_space_read_bytes(rf, i), wr = vxp_roofline_space_written_bytes(rf, i);
    uint64_t bw = 0, ps = 0;
    char read[64];
    snprintf(read, sizeof(read), "%s (%s)", vxpeak_grouped(rd, b1), vxpeak_decimal(rd, b2));
    bool has_bw = vxp_roofline_space_bandwidth(rf, i, &bw);
    bool has_t = vxp_roofline_space_time_ps(rf, i, &ps);
    printf("  %-10s %34s %18s %12s %10s\n", vxp_roofline_space_name(rf, i), read,
           vxpeak_grouped(wr, b3), has_bw ? vxpeak_rate(bw, b4) : "none",
           has_t ? vxpeak_duration(ps, b2) : "-");
  }
  /* Buffers, runs of one size folded. */
  size_t nb = vxp_roofline_buffer_count(rf);
  for (size_t i = 0; i < nb;) {
    size_t j = i + 1;
    while (j < nb && vxp_roofline_buffer_read_bytes(rf, j) == vxp_roofline_buffer_read_bytes(rf, i) &&
           vxp_roofline_buffer_written_bytes(rf, j) == vxp_roofline_buffer_written_bytes(rf, i) &&
           strcmp(vxp_roofline_buffer_space(rf, j), vxp_roofline_buffer_space(rf, i)) == 0)
      j++;
    char names[128];
    if (j - i == 1) snprintf(names, sizeof(names), "%s", vxp_roofline_buffer_name(rf, i));
    else if (j - i == 2) snprintf(names, sizeof(names), "%s, %s", vxp_roofline_buffer_name(rf, i),
                                  vxp_roofline_buffer_name(rf, i + 1));
    else snprintf(names, sizeof(names), "%s ... %s (%zu)", vxp_roofline_buffer_name(rf, i),
                  vxp_roofline_buffer_name(rf, j - 1), j - i);
    printf("    %-26s read %s, written %s bytes%s in %s\n", names,
           vxpeak_grouped(vxp_roofline_buffer_read_bytes(rf, i), b1),
           vxpeak_grouped(vxp_roofline_buffer_written_bytes(rf, i), b2), j - i > 1 ? " each" : "",
           vxp_roofline_buffer_space(rf, i));
    i = j;
  }
  uint64_t step = 0, stream = 0;
  if (!vxp_roofline_time_ps(rf, &step)) {
    printf("  no step time: %s\n", vxp_roofline_reason(rf) ? vxp_roofline_reason(rf)
                                                             : "the regions move nothing");
    return;
  }
  const char *bound = vxp_roofline_bound_space(rf);
  size_t bi = 0;
  while (bi < vxp_roofline_space_count(rf) && strcmp(vxp_roofline_space_name(rf, bi), bound)) bi++;
  uint64_t bound_bytes = vxp_roofline_space_read_bytes(rf, bi) + vxp_roofline_space_written_bytes(rf, bi);
  uint64_t bw = 0;
  vxp_roofline_space_bandwidth(rf, bi, &bw);
  printf("  resident: %s at %s is %s per call, a ceiling of %s steps/s (bound by %s)\n",
         vxpeak_decimal(bound_bytes, b1), vxpeak_rate(bw, b2), vxpeak_duration(step, b3),
         vxpeak_per_second(per_second(step), b4), bound);
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
  printf("    %s at %s is %s per call, %s steps/s: %sx slower\n", vxpeak_decimal(sbytes, b1),
         vxpeak_rate(rate, b2), vxpeak_duration(stream, b3),
         vxpeak_per_second(per_second(stream), b4),
         vxpeak_per_second((double)stream / (double)step, b5));
}

static void json_optional_u64(vxpeak_json *j, int has, uint64_t v) {
  if (has) vxpeak_json_u64(j, v);
  else vxpeak_json_null(j);
}

static void print_json_fn(vxpeak_json *j, const vxp_roofline *rf) {
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
    int rc = vxp_roofline_new(&rf, s.an, fn);
    if (rc != VXP_OK) {
      exit_code = vxpeak_fail(s.program.ctx, rc, "roofline");
      goto done;
    }
    /* Without --function, the functions that have device work. */
    if (args->function || vxp_roofline_region_count(rf) > 0) {
      if (json) print_json_fn(&j, rf);
      else {
        if (shown) printf("\n");
        print_text(rf);
      }
      shown++;
    }
    vxp_roofline_free(rf);
  }
  if (json) {
    vxpeak_json_close(&j, ']');
    vxpeak_json_close(&j, '}');
  } else if (shown == 0) {
    printf("no function of %s has a spawn region: no device work to price\n", args->file);
  }
  exit_code = vxp_analysis_admitted(s.an) ? VXPEAK_EXIT_OK : VXPEAK_EXIT_REJECTED;
done:
  vxpeak_session_close(&s);
  return exit_code;
}
