/* SPDX-License-Identifier: Apache-2.0 */
/* units.c - sizes, rates and clocks converted with exact integer arithmetic.
 *
 * value = mantissa x factor / 10^(fraction digits), computed in 128 bits and accepted only
 * when the division is exact and the result fits in 64 bits: `1.5 KiB` is 1536 bytes,
 * `1.1 KiB` (1126.4) is an error, `31.5 GB/s` is 31 500 000 000 bytes per second. */
#include "units.h"

typedef struct unit_def {
  const char *word;
  uint64_t factor;
} unit_def;

static const unit_def byte_units[] = {
    {"B", 1ull},           {"KB", 1000ull},          {"MB", 1000000ull},
    {"GB", 1000000000ull}, {"TB", 1000000000000ull}, {"PB", 1000000000000000ull},
    {"KiB", 1ull << 10},   {"MiB", 1ull << 20},      {"GiB", 1ull << 30},
    {"TiB", 1ull << 40},   {"PiB", 1ull << 50},
};

static const unit_def hertz_units[] = {
    {"Hz", 1ull},
    {"kHz", 1000ull},
    {"MHz", 1000000ull},
    {"GHz", 1000000000ull},
};

/* Arithmetic rates: operations per second, SI prefixes only (vendors quote TFLOPS, TOPS). */
static const unit_def ops_units[] = {
    {"FLOP/s", 1ull},
    {"GFLOP/s", 1000000000ull},
    {"TFLOP/s", 1000000000000ull},
    {"PFLOP/s", 1000000000000000ull},
    {"OP/s", 1ull},
    {"GOP/s", 1000000000ull},
    {"TOP/s", 1000000000000ull},
    {"POP/s", 1000000000000000ull},
};

const char *vxp_units__byte_units(void) { return "B, KB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB"; }
const char *vxp_units__hertz_units(void) { return "Hz, kHz, MHz, GHz"; }
const char *vxp_units__ops_units(void) {
  return "FLOP/s, GFLOP/s, TFLOP/s, PFLOP/s, OP/s, GOP/s, TOP/s, POP/s";
}

/* Parse digits with at most one '.' into mantissa and fraction-digit count. */
static vxp_unit_status parse_decimal(const char *s, size_t len, u128 *mantissa,
                                     unsigned *fraction_digits) {
  u128 m = 0;
  unsigned frac = 0;
  bool seen_dot = false, seen_digit = false;
  const u128 limit = (~(u128)0) / 10 - 10;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (c == '.') {
      if (seen_dot) return VXP_UNIT_MALFORMED;
      seen_dot = true;
      continue;
    }
    if (c < '0' || c > '9') return VXP_UNIT_MALFORMED;
    seen_digit = true;
    if (m > limit) return VXP_UNIT_OVERFLOW;
    m = m * 10 + (unsigned)(c - '0');
    if (seen_dot) {
      if (++frac > 36) return VXP_UNIT_OVERFLOW;
    }
  }
  if (!seen_digit || (len > 0 && s[len - 1] == '.')) return VXP_UNIT_MALFORMED;
  *mantissa = m;
  *fraction_digits = frac;
  return VXP_UNIT_OK;
}

static vxp_unit_status convert(const char *number, size_t number_len, const char *unit,
                               size_t unit_len, const unit_def *table, size_t table_len,
                               uint64_t *out) {
  u128 mantissa;
  unsigned frac;
  vxp_unit_status st = parse_decimal(number, number_len, &mantissa, &frac);
  if (st != VXP_UNIT_OK) return st;
  const unit_def *def = NULL;
  for (size_t i = 0; i < table_len; i++) {
    if (strlen(table[i].word) == unit_len && memcmp(table[i].word, unit, unit_len) == 0) {
      def = &table[i];
      break;
    }
  }
  if (!def) return VXP_UNIT_UNKNOWN;
  /* mantissa < 2^127 / 10 and factor < 2^51: check the product before forming it. */
  if (mantissa != 0 && (u128)def->factor > (~(u128)0) / mantissa) return VXP_UNIT_OVERFLOW;
  u128 scaled = mantissa * def->factor;
  u128 divisor = 1;
  for (unsigned i = 0; i < frac; i++)
    divisor *= 10;
  if (scaled % divisor != 0) return VXP_UNIT_INEXACT;
  u128 value = scaled / divisor;
  if (value > UINT64_MAX) return VXP_UNIT_OVERFLOW;
  *out = (uint64_t)value;
  return VXP_UNIT_OK;
}

vxp_unit_status vxp_units__bytes(const char *number, size_t number_len, const char *unit,
                                 size_t unit_len, uint64_t *out) {
  return convert(number, number_len, unit, unit_len, byte_units, VXP__ARRAY_LEN(byte_units), out);
}

vxp_unit_status vxp_units__hertz(const char *number, size_t number_len, const char *unit,
                                 size_t unit_len, uint64_t *out) {
  return convert(number, number_len, unit, unit_len, hertz_units, VXP__ARRAY_LEN(hertz_units), out);
}

vxp_unit_status vxp_units__ops(const char *number, size_t number_len, const char *unit,
                               size_t unit_len, uint64_t *out) {
  return convert(number, number_len, unit, unit_len, ops_units, VXP__ARRAY_LEN(ops_units), out);
}

vxp_unit_status vxp_units__integer(const char *number, size_t number_len, uint64_t *out) {
  u128 mantissa;
  unsigned frac;
  vxp_unit_status st = parse_decimal(number, number_len, &mantissa, &frac);
  if (st != VXP_UNIT_OK) return st;
  if (frac != 0) return VXP_UNIT_MALFORMED;
  if (mantissa > UINT64_MAX) return VXP_UNIT_OVERFLOW;
  *out = (uint64_t)mantissa;
  return VXP_UNIT_OK;
}
