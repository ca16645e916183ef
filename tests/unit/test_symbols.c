/* SPDX-License-Identifier: Apache-2.0 */
/* test_symbols.c - the grammar's node kinds and field names resolved in one pass
 * (lib/symbols.c) give the ids tree-sitter's own lookups by name give. */
#include "support.h"

#include "symbols.h"

static void test_symbols__one_pass_gives_the_ids_of_the_lookup_by_name(void **state) {
  (void)state;
  const TSLanguage *lang = tree_sitter_vx();
  vxp_symbols syms;
  vxp_fields fields;
  assert_null(vxp_symbols__load(lang, &syms, &fields));
#define CHECK_SYM(n)                                                                               \
  assert_int_equal(syms.n, ts_language_symbol_for_name(lang, #n, (uint32_t)strlen(#n), true));     \
  assert_int_not_equal(syms.n, 0);
  VXP_NODE_KINDS(CHECK_SYM)
#undef CHECK_SYM
#define CHECK_FIELD(n)                                                                             \
  assert_int_equal(fields.n, ts_language_field_id_for_name(lang, #n, (uint32_t)strlen(#n)));       \
  assert_int_not_equal(fields.n, 0);
  VXP_FIELD_NAMES(CHECK_FIELD)
#undef CHECK_FIELD
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_symbols__one_pass_gives_the_ids_of_the_lookup_by_name),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
