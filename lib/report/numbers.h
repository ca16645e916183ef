/* SPDX-License-Identifier: Apache-2.0 */
/* numbers.h - figures as people read them in the text reports: 12,952,010,752 bytes,
 * 12.06 GiB, 13.48 GB, 1555 GB/s, 8.67 ms. Each writes into `buf` and returns it. */
#ifndef VXP_NUMBERS_H
#define VXP_NUMBERS_H

#include "internal.h"

const char *vxp_num__grouped(uint64_t v, char buf[32]);         /* 12,952,010,752 */
const char *vxp_num__binary(uint64_t v, char buf[32]);          /* 12.06 GiB, 500.00 MiB, 12 B */
const char *vxp_num__gib(uint64_t v, char buf[32]);             /* 12.06 (GiB, always) */
const char *vxp_num__decimal(uint64_t v, char buf[32]);         /* 13.48 GB */
const char *vxp_num__rate(uint64_t bytes_per_s, char buf[32]);  /* 1555 GB/s, 31.5 GB/s */
const char *vxp_num__duration(uint64_t ps, char buf[32]);       /* 8.67 ms, 411 ms */
const char *vxp_num__duration_fixed(uint64_t ps, char buf[32]); /* 12.85 ms, 411.17 ms */
/* 13,476,298,752 bytes (13.48 GB, 12.55 GiB); under 1000: "999 bytes". */
const char *vxp_num__bytes(uint64_t v, char buf[96]);
const char *vxp_num__ops(uint64_t v, bool integer, char buf[32]);      /* 26.95 GFLOP */
const char *vxp_num__ops_rate(uint64_t v, bool integer, char buf[32]); /* 989.4 TFLOP/s */
const char *vxp_num__per_second(double v, char buf[32]);               /* 115, 47.4, 2.4 */
/* Millionths as a percentage without trailing zeros: 125000 -> "12.5", 0 -> "0". */
const char *vxp_num__ppm_percent(uint32_t ppm, char buf[32]);

#endif /* VXP_NUMBERS_H */
