/* SPDX-License-Identifier: Apache-2.0 */
/* numbers.c - figures as people read them in the text reports (numbers.h). */
#include <stdio.h>

#include "numbers.h"

const char *vxp_num__grouped(uint64_t v, char buf[32]) {
  char digits[24];
  int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
  size_t o = 0;
  for (int i = 0; i < n; i++) {
    buf[o++] = digits[i];
    if ((n - i - 1) % 3 == 0 && i != n - 1) buf[o++] = ',';
  }
  buf[o] = '\0';
  return buf;
}

/* A scale of units, largest first; a quantity is shown in the largest unit that keeps it
 * at or above 1, else as a whole number of the base unit. */
typedef struct unit_scale {
  double scale;
  const char *unit;
} unit_scale;

typedef enum precision {
  TWO_DECIMALS,  /* 12.06 GiB, 12.85 ms */
  THREE_FIGURES, /* 8.67 ms, 41.1 ms, 411 ms */
  DATASHEET      /* 1555 GB/s, 31.5 GB/s: up to three figures, whole past 100 */
} precision;

static const char *scaled(uint64_t v, const unit_scale *units, size_t count, const char *base,
                          precision how, char buf[32]) {
  for (size_t i = 0; i < count; i++) {
    if ((double)v < units[i].scale) continue;
    double x = (double)v / units[i].scale;
    const char *fmt = how == TWO_DECIMALS ? "%.2f %s"
                      : how == DATASHEET  ? (x >= 100 ? "%.0f %s" : "%.3g %s")
                      : x >= 100          ? "%.0f %s"
                      : x >= 10           ? "%.1f %s"
                                          : "%.2f %s";
    snprintf(buf, 32, fmt, x, units[i].unit);
    return buf;
  }
  snprintf(buf, 32, "%llu %s", (unsigned long long)v, base);
  return buf;
}

static const unit_scale binary_units[] = {
    {1099511627776.0, "TiB"}, {1073741824.0, "GiB"}, {1048576.0, "MiB"}, {1024.0, "KiB"}};
static const unit_scale decimal_units[] = {{1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}};
/* GB/s as datasheets say. */
static const unit_scale rate_units[] = {{1e9, "GB/s"}, {1e6, "MB/s"}, {1e3, "kB/s"}};
static const unit_scale time_units[] = {{1e12, "s"}, {1e9, "ms"}, {1e6, "us"}, {1e3, "ns"}};

const char *vxp_num__binary(uint64_t v, char buf[32]) {
  return scaled(v, binary_units, VXP__ARRAY_LEN(binary_units), "B", TWO_DECIMALS, buf);
}

const char *vxp_num__gib(uint64_t v, char buf[32]) {
  snprintf(buf, 32, "%.2f", (double)v / 1073741824.0);
  return buf;
}

const char *vxp_num__decimal(uint64_t v, char buf[32]) {
  return scaled(v, decimal_units, VXP__ARRAY_LEN(decimal_units), "B", TWO_DECIMALS, buf);
}

const char *vxp_num__rate(uint64_t bytes_per_s, char buf[32]) {
  return scaled(bytes_per_s, rate_units, VXP__ARRAY_LEN(rate_units), "B/s", DATASHEET, buf);
}

const char *vxp_num__duration(uint64_t ps, char buf[32]) {
  return scaled(ps, time_units, VXP__ARRAY_LEN(time_units), "ps", THREE_FIGURES, buf);
}

const char *vxp_num__duration_fixed(uint64_t ps, char buf[32]) {
  return scaled(ps, time_units, VXP__ARRAY_LEN(time_units), "ps", TWO_DECIMALS, buf);
}

const char *vxp_num__per_second(double v, char buf[32]) {
  /* 115, 47.4, 2.4, 0.031: what a rate needs, no more. */
  if (v >= 100)
    snprintf(buf, 32, "%.0f", v);
  else if (v >= 10)
    snprintf(buf, 32, "%.1f", v);
  else
    snprintf(buf, 32, "%.2g", v);
  return buf;
}

const char *vxp_num__bytes(uint64_t v, char buf[96]) {
  /* 26 + 12 + 12 characters at most: "18,446,744,073,709,551,615", "18.45 EB"-like units. */
  char g[32], d[16], b[16];
  if (v < 1000) {
    snprintf(buf, 96, "%llu bytes", (unsigned long long)v);
    return buf;
  }
  char tmp[32];
  snprintf(d, sizeof(d), "%.15s", vxp_num__decimal(v, tmp));
  snprintf(b, sizeof(b), "%.15s", vxp_num__binary(v, tmp));
  snprintf(buf, 96, "%.26s bytes (%s, %s)", vxp_num__grouped(v, g), d, b);
  return buf;
}

static const unit_scale flop_units[] = {
    {1e15, "PFLOP"}, {1e12, "TFLOP"}, {1e9, "GFLOP"}, {1e6, "MFLOP"}, {1e3, "kFLOP"}};
static const unit_scale op_units[] = {
    {1e15, "POP"}, {1e12, "TOP"}, {1e9, "GOP"}, {1e6, "MOP"}, {1e3, "kOP"}};

const char *vxp_num__ops(uint64_t v, bool integer, char buf[32]) {
  return scaled(v, integer ? op_units : flop_units, VXP__ARRAY_LEN(flop_units),
                integer ? "OP" : "FLOP", TWO_DECIMALS, buf);
}

const char *vxp_num__ops_rate(uint64_t v, bool integer, char buf[32]) {
  const unit_scale *u = integer ? op_units : flop_units;
  for (size_t i = 0; i < VXP__ARRAY_LEN(flop_units); i++) {
    if ((double)v < u[i].scale) continue;
    snprintf(buf, 32, "%.5g %s/s", (double)v / u[i].scale, u[i].unit);
    return buf;
  }
  snprintf(buf, 32, "%llu %s/s", (unsigned long long)v, integer ? "OP" : "FLOP");
  return buf;
}

const char *vxp_num__ppm_percent(uint32_t ppm, char buf[32]) {
  snprintf(buf, 32, "%u.%04u", ppm / 10000, ppm % 10000);
  size_t len = strlen(buf);
  while (buf[len - 1] == '0')
    buf[--len] = '\0';
  if (buf[len - 1] == '.') buf[--len] = '\0';
  return buf;
}
