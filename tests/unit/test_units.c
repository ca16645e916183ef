/* SPDX-License-Identifier: Apache-2.0 */
/* test_units.c - exact conversion of sizes, rates and clocks (lib/units.c). */
#include "support.h"
#include "units.h"

static uint64_t bytes(const char *n, const char *u) {
  uint64_t v = 0;
  assert_int_equal(vxp_units__bytes(n, strlen(n), u, strlen(u), &v), VXP_UNIT_OK);
  return v;
}

static vxp_unit_status bytes_status(const char *n, const char *u) {
  uint64_t v;
  return vxp_units__bytes(n, strlen(n), u, strlen(u), &v);
}

static void test_units__si_units_are_decimal(void **state) {
  (void)state;
  assert_int_equal(bytes("1", "B"), 1);
  assert_int_equal(bytes("1", "KB"), 1000);
  assert_int_equal(bytes("40", "GB"), 40000000000ull);
  assert_int_equal(bytes("2", "PB"), 2000000000000000ull);
  assert_int_equal(bytes("1555", "GB"), 1555000000000ull);
}

static void test_units__iec_units_are_binary(void **state) {
  (void)state;
  assert_int_equal(bytes("4", "MiB"), 4194304);
  assert_int_equal(bytes("40", "GiB"), 42949672960ull);
  assert_int_equal(bytes("164", "KiB"), 167936);
  assert_int_equal(bytes("1", "PiB"), 1ull << 50);
}

static void test_units__fractions_convert_exactly_or_not_at_all(void **state) {
  (void)state;
  assert_int_equal(bytes("31.5", "GB"), 31500000000ull);
  assert_int_equal(bytes("1.5", "KiB"), 1536);
  assert_int_equal(bytes("3.35", "TB"), 3350000000000ull);
  assert_int_equal(bytes_status("1.1", "KiB"), VXP_UNIT_INEXACT);
  assert_int_equal(bytes_status("0.5", "B"), VXP_UNIT_INEXACT);
}

static void test_units__unit_words_are_case_sensitive(void **state) {
  (void)state;
  assert_int_equal(bytes_status("1", "Mb"), VXP_UNIT_UNKNOWN);
  assert_int_equal(bytes_status("1", "mb"), VXP_UNIT_UNKNOWN);
  assert_int_equal(bytes_status("1", "KIB"), VXP_UNIT_UNKNOWN);
  assert_int_equal(bytes_status("1", "kB"), VXP_UNIT_UNKNOWN);
}

static void test_units__malformed_numbers_are_rejected(void **state) {
  (void)state;
  assert_int_equal(bytes_status("3.3.5", "GB"), VXP_UNIT_MALFORMED);
  assert_int_equal(bytes_status("1e9", "B"), VXP_UNIT_MALFORMED);
  assert_int_equal(bytes_status("4.", "B"), VXP_UNIT_MALFORMED);
  assert_int_equal(bytes_status("", "B"), VXP_UNIT_MALFORMED);
}

static void test_units__values_past_64_bits_overflow(void **state) {
  (void)state;
  assert_int_equal(bytes("16", "PiB"), 1ull << 54);
  assert_int_equal(bytes_status("16384", "PiB"), VXP_UNIT_OVERFLOW);
  assert_int_equal(bytes("18446744073709551615", "B"), UINT64_MAX);
  assert_int_equal(bytes_status("18446744073709551616", "B"), VXP_UNIT_OVERFLOW);
  assert_int_equal(bytes_status("99999999999999999999999999999999999999999999", "B"),
                   VXP_UNIT_OVERFLOW);
}

static void test_units__clocks_accept_lowercase_kilo_only(void **state) {
  (void)state;
  uint64_t hz;
  assert_int_equal(vxp_units__hertz("1.41", 4, "GHz", 3, &hz), VXP_UNIT_OK);
  assert_int_equal(hz, 1410000000ull);
  assert_int_equal(vxp_units__hertz("480", 3, "MHz", 3, &hz), VXP_UNIT_OK);
  assert_int_equal(hz, 480000000ull);
  assert_int_equal(vxp_units__hertz("1", 1, "kHz", 3, &hz), VXP_UNIT_OK);
  assert_int_equal(hz, 1000);
  assert_int_equal(vxp_units__hertz("1", 1, "KHz", 3, &hz), VXP_UNIT_UNKNOWN);
  assert_int_equal(vxp_units__hertz("1", 1, "ghz", 3, &hz), VXP_UNIT_UNKNOWN);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_units__si_units_are_decimal),
      cmocka_unit_test(test_units__iec_units_are_binary),
      cmocka_unit_test(test_units__fractions_convert_exactly_or_not_at_all),
      cmocka_unit_test(test_units__unit_words_are_case_sensitive),
      cmocka_unit_test(test_units__malformed_numbers_are_rejected),
      cmocka_unit_test(test_units__values_past_64_bits_overflow),
      cmocka_unit_test(test_units__clocks_accept_lowercase_kilo_only),
  };
  return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}
