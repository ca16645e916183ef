/* SPDX-License-Identifier: Apache-2.0 */
/* test_symbols.c - the grammar's node kinds and field names resolved in one pass
 * (lib/symbols.c) give the ids tree-sitter's own lookups by name give; vxp_node__find finds
 * the first node a test accepts, in document order, at any depth. */
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

static bool is_kind(TSNode node, const void *data) {
  return vxp_node__is(node, *(const TSSymbol *)data);
}

static void test_symbols__find_gives_the_first_matching_node_in_document_order(void **state) {
  (void)state;
  const TSLanguage *lang = tree_sitter_vx();
  vxp_symbols syms;
  vxp_fields fields;
  assert_null(vxp_symbols__load(lang, &syms, &fields));
  TSParser *parser = ts_parser_new();
  assert_true(ts_parser_set_language(parser, lang));
  static const char text[] =
      "fn f() -> i32 { return 1; }\n"
      "fn g() -> i32 { if true { if true { return h(1); } } return k(2); }\n";
  TSTree *tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)strlen(text));
  TSNode root = ts_tree_root_node(tree);
  TSNode call = vxp_node__find(root, is_kind, &syms.call_expression);
  assert_false(ts_node_is_null(call));
  assert_true(vxp_node__text_is(text, call, "h(1)")); /* nested deepest, but first */
  /* The root itself is looked at, and a subtree without one gives the null node. */
  assert_true(ts_node_eq(vxp_node__find(call, is_kind, &syms.call_expression), call));
  TSNode first_fn = ts_node_named_child(root, 0);
  assert_true(ts_node_is_null(vxp_node__find(first_fn, is_kind, &syms.call_expression)));
  TSNode none = {{0}, 0, 0};
  assert_true(ts_node_is_null(vxp_node__find(none, is_kind, &syms.call_expression)));
  ts_tree_delete(tree);
  ts_parser_delete(parser);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_symbols__one_pass_gives_the_ids_of_the_lookup_by_name),
      cmocka_unit_test(test_symbols__find_gives_the_first_matching_node_in_document_order),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
