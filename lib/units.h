/* SPDX-License-Identifier: Apache-2.0 */
/* units.h - exact conversion of sizes, rates and clocks written in machine models. */
#ifndef VXP_UNITS_H
#define VXP_UNITS_H

#include "internal.h"

typedef enum vxp_unit_status {
  VXP_UNIT_OK = 0,
  VXP_UNIT_MALFORMED, /* the number is not digits with at most one '.' */
  VXP_UNIT_UNKNOWN,   /* the unit word is not one of the accepted spellings */
  VXP_UNIT_INEXACT,   /* the value is not a whole number of the base unit */
  VXP_UNIT_OVERFLOW   /* the value does not fit in 64 bits */
} vxp_unit_status;

/* `number` `unit` as bytes: SI B KB MB GB TB PB (powers of 1000), IEC KiB..PiB (1024). */
vxp_unit_status vxp_units__bytes(const char *number, size_t number_len, const char *unit,
                                 size_t unit_len, uint64_t *out);

/* `number` `unit` as hertz: Hz kHz MHz GHz. */
vxp_unit_status vxp_units__hertz(const char *number, size_t number_len, const char *unit,
                                 size_t unit_len, uint64_t *out);

/* `number` `unit` as operations per second: FLOP/s, GFLOP/s .. PFLOP/s, OP/s, GOP/s ..
 * POP/s (SI powers of 1000; FLOP and OP count alike, one per add or multiply). */
vxp_unit_status vxp_units__ops(const char *number, size_t number_len, const char *unit,
                               size_t unit_len, uint64_t *out);

/* A plain non-negative integer (replicas, unitless edge costs). */
vxp_unit_status vxp_units__integer(const char *number, size_t number_len, uint64_t *out);

/* The accepted spellings, for messages ("B, KB, MB, ..."). Static storage. */
const char *vxp_units__byte_units(void);
const char *vxp_units__hertz_units(void);
const char *vxp_units__ops_units(void);

#endif /* VXP_UNITS_H */
