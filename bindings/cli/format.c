/* SPDX-License-Identifier: Apache-2.0 */
/* format.c - numbers as people read them: 1,234,567 bytes, 15.94 GiB, 13.48 GB, 8.67 ms. */
#include <string.h>

#include "cli.h"

const char *vxpeak_grouped(uint64_t v, char buf[32]) {
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

/* A scale of units, largest first. */
typedef struct unit_scale {
  double scale;
  const char *unit;
} unit_scale;

/* Two decimals in the largest unit that keeps the quantity at or above 1 (12.06 GiB,
 * 12.85 ms), else a whole number of the base unit. The library's reports have the other
 * forms (lib/report/numbers.c); the command keeps what check and sweep's grid print. */
static const char *scaled(uint64_t v, const unit_scale *units, size_t count, const char *base,
                          char buf[32]) {
  for (size_t i = 0; i < count; i++) {
    if ((double)v < units[i].scale) continue;
    snprintf(buf, 32, "%.2f %s", (double)v / units[i].scale, units[i].unit);
    return buf;
  }
  snprintf(buf, 32, "%llu %s", (unsigned long long)v, base);
  return buf;
}

static const unit_scale binary_units[] = {
    {1099511627776.0, "TiB"}, {1073741824.0, "GiB"}, {1048576.0, "MiB"}, {1024.0, "KiB"}};
static const unit_scale decimal_units[] = {{1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}};
static const unit_scale time_units[] = {{1e12, "s"}, {1e9, "ms"}, {1e6, "us"}, {1e3, "ns"}};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const char *vxpeak_binary(uint64_t v, char buf[32]) {
  return scaled(v, binary_units, COUNT(binary_units), "B", buf);
}

const char *vxpeak_decimal(uint64_t v, char buf[32]) {
  return scaled(v, decimal_units, COUNT(decimal_units), "B", buf);
}

const char *vxpeak_duration_fixed(uint64_t ps, char buf[32]) {
  return scaled(ps, time_units, COUNT(time_units), "ps", buf);
}

const char *vxpeak_per_second(double v, char buf[32]) {
  /* 115, 47.4, 2.4, 0.031: what a rate needs, no more. */
  if (v >= 100)
    snprintf(buf, 32, "%.0f", v);
  else if (v >= 10)
    snprintf(buf, 32, "%.1f", v);
  else
    snprintf(buf, 32, "%.2g", v);
  return buf;
}

const char *vxpeak_bytes(uint64_t v, char buf[96]) {
  /* 26 + 12 + 12 characters at most: "18,446,744,073,709,551,615", "18.45 EB"-like units. */
  char g[32], d[16], b[16];
  if (v < 1000) {
    snprintf(buf, 96, "%llu bytes", (unsigned long long)v);
    return buf;
  }
  char tmp[32];
  snprintf(d, sizeof(d), "%.15s", vxpeak_decimal(v, tmp));
  snprintf(b, sizeof(b), "%.15s", vxpeak_binary(v, tmp));
  snprintf(buf, 96, "%.26s bytes (%s, %s)", vxpeak_grouped(v, g), d, b);
  return buf;
}
