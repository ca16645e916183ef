/* SPDX-License-Identifier: Apache-2.0 */
/* calibrate.c - `vxpeak calibrate` (issue 32, item 5): a measured peak set beside the static
 * peak of one function in one space; the residual (what no program declares: the CUDA
 * context, the framework's workspace, the allocator's rounding) becomes a named, dated
 * overhead in a copy of the machine model (vxp_report_machine_overhead), which every later
 * answer run with --machine COPY then holds. A negative residual is reported, never stored
 * as extra capacity. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* The number after "key": in a torch.cuda.memory_stats() JSON dump (a flat object of
 * integers), or false when the key is absent. */
static bool stat_value(const char *json, const char *key, uint64_t *out) {
  char quoted[96];
  snprintf(quoted, sizeof(quoted), "\"%s\"", key);
  const char *p = strstr(json, quoted);
  if (!p) return false;
  p += strlen(quoted);
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
    p++;
  if (*p != ':') return false;
  p++;
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
    p++;
  if (*p < '0' || *p > '9') return false;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(p, &end, 10);
  if (errno || (*end != ',' && *end != '}' && *end != ' ' && *end != '\n' && *end != '\r'))
    return false;
  *out = v;
  return true;
}

/* --measured, or --measured-from's reserved peak (what the device had to hold: the
 * allocator's caching and rounding included), else its allocated peak. */
static int measured_bytes(const vxpeak_args *args, uint64_t *out, const char **source) {
  if (args->has_measured) {
    *out = args->measured;
    *source = "--measured";
    return VXPEAK_EXIT_OK;
  }
  FILE *f = fopen(args->measured_from, "rb");
  if (!f) {
    fprintf(stderr, "vxpeak calibrate: cannot read %s: %s\n", args->measured_from, strerror(errno));
    return VXPEAK_EXIT_USAGE;
  }
  char *text = malloc(1 << 20);
  size_t n = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
  fclose(f);
  if (!text) return VXPEAK_EXIT_USAGE;
  text[n] = '\0';
  bool ok = false;
  if (stat_value(text, "reserved_bytes.all.peak", out)) {
    *source = "reserved_bytes.all.peak";
    ok = true;
  } else if (stat_value(text, "allocated_bytes.all.peak", out)) {
    *source = "allocated_bytes.all.peak";
    ok = true;
  }
  free(text);
  if (!ok) {
    fprintf(stderr,
            "vxpeak calibrate: %s has neither reserved_bytes.all.peak nor "
            "allocated_bytes.all.peak (torch.cuda.memory_stats() saved with json.dump)\n",
            args->measured_from);
    return VXPEAK_EXIT_USAGE;
  }
  return VXPEAK_EXIT_OK;
}

/* The static peak the measurement stands beside: the call-tree total of the function in the
 * space when it has one (what a run of it holds, callees included), else its own peak. */
static bool static_peak(const vxp_analysis *an, const char *function, const char *space,
                        uint64_t *peak, uint64_t *capacity) {
  bool found = false;
  for (size_t i = 0; i < vxp_analysis_resident_set_count(an) && !found; i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
    if (strcmp(vxp_resident_set_function(rs), function) ||
        strcmp(vxp_resident_set_space(rs), space))
      continue;
    *peak = vxp_resident_set_peak_bytes(rs);
    *capacity = vxp_resident_set_capacity_bytes(rs);
    found = true;
  }
  for (size_t i = 0; i < vxp_analysis_call_tree_count(an); i++) {
    const vxp_call_tree *ct = vxp_analysis_call_tree(an, i);
    if (strcmp(vxp_call_tree_function(ct), function) || strcmp(vxp_call_tree_space(ct), space))
      continue;
    *peak = vxp_call_tree_total_bytes(ct);
    *capacity = vxp_call_tree_capacity_bytes(ct);
    found = true;
  }
  return found;
}

/* --function and --space, or main (else the fullest function) and its fullest space. */
static bool choose(const vxpeak_args *args, const vxp_analysis *an, const char **function,
                   const char **space) {
  *function = args->function;
  *space = args->space;
  const vxp_resident_set *best = NULL;
  bool has_main = false;
  for (size_t i = 0; i < vxp_analysis_resident_set_count(an); i++)
    has_main = has_main ||
               strcmp(vxp_resident_set_function(vxp_analysis_resident_set(an, i)), "main") == 0;
  for (size_t i = 0; i < vxp_analysis_resident_set_count(an); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
    uint64_t p = vxp_resident_set_peak_bytes(rs), c = vxp_resident_set_capacity_bytes(rs);
    if (!c) continue;
    const char *fn = vxp_resident_set_function(rs);
    if (*function ? strcmp(fn, *function) != 0 : has_main && strcmp(fn, "main") != 0) continue;
    if (*space && strcmp(vxp_resident_set_space(rs), *space) != 0) continue;
    if (!best || (unsigned __int128)p * vxp_resident_set_capacity_bytes(best) >
                     (unsigned __int128)vxp_resident_set_peak_bytes(best) * c)
      best = rs;
  }
  if (!best) return false;
  if (!*function) *function = vxp_resident_set_function(best);
  if (!*space) *space = vxp_resident_set_space(best);
  return true;
}

/* The capacity the copy gives the space: the field right after the overhead line the library
 * wrote (vxp_report_machine_calibrate puts it there), read back rather than recomputed, since
 * the model may carry overheads of an earlier calibration. 0 when it is not found. */
static uint64_t written_capacity(const char *text, const char *note) {
  const char *p = strstr(text, note);
  if (!p || !(p = strchr(p, '\n'))) return 0;
  while (*p == '\n' || *p == ' ' || *p == '\t')
    p++;
  if (strncmp(p, "capacity: ", 10) != 0) return 0;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(p + 10, &end, 10);
  return errno || strncmp(end, " B", 2) != 0 ? 0 : (uint64_t)v;
}

int vxpeak_calibrate(const vxpeak_args *args) {
  if (args->has_measured && args->measured_from) {
    fprintf(stderr, "vxpeak calibrate: give the measured peak once: --measured BYTES or "
                    "--measured-from FILE (see 'vxpeak calibrate --help')\n");
    return VXPEAK_EXIT_USAGE;
  }
  bool has_measurement = args->has_measured || args->measured_from;
  if (!has_measurement && !args->overhead_count && !args->offered) {
    fprintf(stderr, "vxpeak calibrate: nothing to calibrate: give a measured peak (--measured, "
                    "--measured-from), an --overhead NAME=SIZE or --offered SIZE\n");
    return VXPEAK_EXIT_USAGE;
  }
  uint64_t measured = 0;
  const char *source = NULL;
  int exit_code = has_measurement ? measured_bytes(args, &measured, &source) : VXPEAK_EXIT_OK;
  if (exit_code != VXPEAK_EXIT_OK) return exit_code;
  vxpeak_session s;
  vxp_report *rep = NULL;
  exit_code = vxpeak_session_open(&s, args);
  if (exit_code != VXPEAK_EXIT_OK) goto done;
  if (!s.target.machine) {
    fprintf(stderr, "vxpeak calibrate: the program's own declarations are its machine: name the "
                    "model to calibrate with --machine\n");
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  const char *function, *space;
  uint64_t peak = 0, capacity = 0;
  if (!choose(args, s.an, &function, &space) ||
      !static_peak(s.an, function, space, &peak, &capacity)) {
    fprintf(stderr,
            "vxpeak calibrate: no peak of %s%s%s%s in a space with a capacity to set the "
            "measurement beside\n",
            args->function ? "function " : "any function", args->function ? args->function : "",
            args->space ? " in " : "", args->space ? args->space : "");
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  bool negative = has_measurement && measured < peak;
  uint64_t residual = negative ? peak - measured : measured - peak;
  uint64_t stored = negative || !has_measurement ? 0 : residual;
  /* The overheads held: the measured residual, then each --overhead, summed exactly. */
  unsigned __int128 total = stored;
  for (size_t i = 0; i < args->overhead_count; i++)
    total += args->overhead_bytes[i];
  if (total > UINT64_MAX) {
    fprintf(stderr, "vxpeak calibrate: the overheads pass 2^64 bytes\n");
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  char date[16], b1[32], b2[32], b3[32], b4[32], note[2048];
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(date, sizeof(date), "%Y-%m-%d", &tm);
  size_t used =
      (size_t)snprintf(note, sizeof(note), "calibrated %s for %s in %s", date, function, space);
  if (negative)
    used += (size_t)snprintf(
        note + used, sizeof(note) - used,
        "; none stored: %s measured %s bytes (%s), %s bytes less than the static peak (%s): "
        "the program declares more than the run used",
        args->file, vxpeak_grouped(measured, b1), source, vxpeak_grouped(residual, b2),
        vxpeak_grouped(peak, b3));
  else if (has_measurement)
    used += (size_t)snprintf(note + used, sizeof(note) - used,
                             "; %s measured %s bytes (%s), static peak %s: residual %s bytes",
                             args->file, vxpeak_grouped(measured, b1), source,
                             vxpeak_grouped(peak, b2), vxpeak_grouped(residual, b3));
  for (size_t i = 0; i < args->overhead_count && used < sizeof(note); i++)
    used += (size_t)snprintf(note + used, sizeof(note) - used, "; %s %s bytes (given)",
                             args->overhead_name[i], vxpeak_grouped(args->overhead_bytes[i], b1));
  if (args->offered && used < sizeof(note))
    used += (size_t)snprintf(note + used, sizeof(note) - used,
                             "; the device offers %s bytes as the framework sees it (the model's "
                             "capacity was %s)",
                             vxpeak_grouped(args->offered, b1), vxpeak_grouped(capacity, b2));
  if (used >= sizeof(note)) {
    fprintf(stderr, "vxpeak calibrate: the overhead line passes %zu bytes\n", sizeof(note));
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  int rc = vxp_report_machine_calibrate(&rep, s.program.ctx, s.target.machine, space, args->offered,
                                        (uint64_t)total, note);
  if (rc != VXP_OK) {
    exit_code = vxpeak_fail(s.program.ctx, rc, "calibrate");
    goto done;
  }
  size_t len = 0;
  const char *text = vxp_report_text(rep, &len);
  uint64_t after = written_capacity(text, note);
  FILE *out = fopen(args->output, "wb");
  if (!out || fwrite(text, 1, len, out) != len || fclose(out) != 0) {
    fprintf(stderr, "vxpeak calibrate: cannot write %s: %s\n", args->output, strerror(errno));
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  if (strcmp(args->format, "json") == 0) {
    printf("{\n  \"schema\": \"vxpeak-calibration-v1\",\n  \"file\": ");
    vxpeak_json_string(stdout, args->file);
    printf(",\n  \"machine\": ");
    vxpeak_json_string(stdout, vxpeak_target_name(&s.target));
    printf(",\n  \"function\": ");
    vxpeak_json_string(stdout, function);
    printf(",\n  \"space\": ");
    vxpeak_json_string(stdout, space);
    if (has_measurement)
      printf(",\n  \"measured_bytes\": %llu,\n  \"measured_from\": \"%s\"",
             (unsigned long long)measured, source);
    else
      printf(",\n  \"measured_bytes\": null,\n  \"measured_from\": null");
    printf(",\n  \"static_peak_bytes\": %llu,\n  \"residual_bytes\": ", (unsigned long long)peak);
    if (has_measurement)
      printf("%s%llu", negative ? "-" : "", (unsigned long long)residual);
    else
      printf("null");
    printf(",\n  \"overheads\": [");
    for (size_t i = 0; i < args->overhead_count; i++) {
      printf("%s{\"name\": ", i ? ", " : "");
      vxpeak_json_string(stdout, args->overhead_name[i]);
      printf(", \"bytes\": %llu}", (unsigned long long)args->overhead_bytes[i]);
    }
    printf("],\n  \"offered_bytes\": ");
    if (args->offered)
      printf("%llu", (unsigned long long)args->offered);
    else
      printf("null");
    printf(",\n  \"stored_bytes\": %llu,\n  \"capacity_bytes\": %llu,\n"
           "  \"calibrated_capacity_bytes\": %llu,\n  \"output\": ",
           (unsigned long long)total, (unsigned long long)capacity, (unsigned long long)after);
    vxpeak_json_string(stdout, args->output);
    printf("\n}\n");
  } else {
    if (has_measurement)
      printf("%s in %s on %s: measured %s bytes (%s), static peak %s bytes\n", function, space,
             vxpeak_target_name(&s.target), vxpeak_grouped(measured, b1), source,
             vxpeak_grouped(peak, b2));
    if (negative)
      printf("residual -%s bytes: the program declares more than the run used; nothing stored\n",
             vxpeak_grouped(residual, b3));
    else if (has_measurement)
      printf("residual %s bytes\n", vxpeak_grouped(residual, b3));
    for (size_t i = 0; i < args->overhead_count; i++)
      printf("overhead %s: %s bytes\n", args->overhead_name[i],
             vxpeak_grouped(args->overhead_bytes[i], b1));
    if (args->offered)
      printf("offered: %s bytes as the framework sees it\n", vxpeak_grouped(args->offered, b1));
    printf("%s's capacity %s -> %s bytes in %s (overheads held: %s bytes)\n", space,
           vxpeak_grouped(capacity, b1), vxpeak_grouped(after, b2), args->output,
           vxpeak_grouped((uint64_t)total, b4));
  }
  exit_code = VXPEAK_EXIT_OK;
done:
  vxp_report_free(rep);
  vxpeak_session_close(&s);
  return exit_code;
}
