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

const char *vxpeak_binary(uint64_t v, char buf[32]) {
  static const struct {
    double scale;
    const char *unit;
  } units[] = {{1099511627776.0, "TiB"}, {1073741824.0, "GiB"}, {1048576.0, "MiB"}, {1024.0, "KiB"}};
  for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
    if ((double)v >= units[i].scale) {
      snprintf(buf, 32, "%.2f %s", (double)v / units[i].scale, units[i].unit);
      return buf;
    }
  }
  snprintf(buf, 32, "%llu B", (unsigned long long)v);
  return buf;
}

const char *vxpeak_gib(uint64_t v, char buf[32]) {
  snprintf(buf, 32, "%.2f", (double)v / 1073741824.0);
  return buf;
}

const char *vxpeak_decimal(uint64_t v, char buf[32]) {
  static const struct {
    double scale;
    const char *unit;
  } units[] = {{1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}};
  for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
    if ((double)v >= units[i].scale) {
      snprintf(buf, 32, "%.2f %s", (double)v / units[i].scale, units[i].unit);
      return buf;
    }
  }
  snprintf(buf, 32, "%llu B", (unsigned long long)v);
  return buf;
}

const char *vxpeak_rate(uint64_t bytes_per_s, char buf[32]) {
  static const struct {
    double scale;
    const char *unit;
  } units[] = {{1e9, "GB/s"}, {1e6, "MB/s"}, {1e3, "kB/s"}}; /* GB/s as datasheets say */
  for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
    if ((double)bytes_per_s >= units[i].scale) {
      double v = (double)bytes_per_s / units[i].scale;
      snprintf(buf, 32, v >= 100 ? "%.0f %s" : "%.3g %s", v, units[i].unit);
      return buf;
    }
  }
  snprintf(buf, 32, "%llu B/s", (unsigned long long)bytes_per_s);
  return buf;
}

const char *vxpeak_duration(uint64_t ps, char buf[32]) {
  static const struct {
    double scale;
    const char *unit;
  } units[] = {{1e12, "s"}, {1e9, "ms"}, {1e6, "us"}, {1e3, "ns"}};
  for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
    if ((double)ps >= units[i].scale) {
      double v = (double)ps / units[i].scale;
      /* Three significant figures: 8.67 ms, 411 ms, 12.8 s. */
      snprintf(buf, 32, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, units[i].unit);
      return buf;
    }
  }
  snprintf(buf, 32, "%llu ps", (unsigned long long)ps);
  return buf;
}

const char *vxpeak_per_second(double v, char buf[32]) {
  /* 115, 47.4, 2.4, 0.031: what a rate needs, no more. */
  if (v >= 100) snprintf(buf, 32, "%.0f", v);
  else if (v >= 10) snprintf(buf, 32, "%.1f", v);
  else snprintf(buf, 32, "%.2g", v);
  return buf;
}
