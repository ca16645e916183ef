/* SPDX-License-Identifier: Apache-2.0 */
/* symbols.h - tree-sitter symbol and field ids of the Vx grammar, looked up by name once
 * per context so that the lowering walk compares integers, never node-type strings. */
#ifndef VXP_SYMBOLS_H
#define VXP_SYMBOLS_H

#include <tree_sitter/api.h>

#include "internal.h"

/* Named node kinds the library relies on (grammar/README.md lists them). A grammar that
 * lacks one of these is refused at context creation with VXP_EVERSION. */
#define VXP_NODE_KINDS(X)                                                                          \
  X(source_file)                                                                                   \
  X(identifier)                                                                                    \
  X(type_identifier)                                                                               \
  X(number)                                                                                        \
  X(string)                                                                                        \
  X(boolean)                                                                                       \
  X(function_item)                                                                                 \
  X(parameter)                                                                                     \
  X(const_parameter)                                                                               \
  X(type_parameter)                                                                                \
  X(struct_item)                                                                                   \
  X(field_declaration)                                                                             \
  X(impl_item)                                                                                     \
  X(transfer_impl_item)                                                                            \
  X(legacy_transfer_impl_item)                                                                     \
  X(legacy_transfer_constraint)                                                                    \
  X(where_clause)                                                                                  \
  X(assert_statement)                                                                              \
  X(invariant_clause)                                                                              \
  X(impl_body)                                                                                     \
  X(trait_body)                                                                                    \
  X(trait_item)                                                                                    \
  X(const_item)                                                                                    \
  X(enum_item)                                                                                     \
  X(extern_block)                                                                                  \
  X(extern_function)                                                                               \
  X(memory_item)                                                                                   \
  X(topology_item)                                                                                 \
  X(within_field)                                                                                  \
  X(capacity_field)                                                                                \
  X(bandwidth_field)                                                                               \
  X(clock_field)                                                                                   \
  X(granule_field)                                                                                 \
  X(scope_field)                                                                                   \
  X(managed_field)                                                                                 \
  X(replicas_field)                                                                                \
  X(crossing_field)                                                                                \
  X(overcommit_field)                                                                              \
  X(memory_entry)                                                                                  \
  X(visible_entry)                                                                                 \
  X(arch_entry)                                                                                    \
  X(dtypes_entry)                                                                                  \
  X(transfer_edge)                                                                                 \
  X(edge_marker)                                                                                   \
  X(size)                                                                                          \
  X(rate)                                                                                          \
  X(frequency)                                                                                     \
  X(memory_path)                                                                                   \
  X(stray_path)                                                                                    \
  X(topology_path)                                                                                 \
  X(generic_type)                                                                                  \
  X(scoped_type_identifier)                                                                        \
  X(type_arguments)                                                                                \
  X(const_argument)                                                                                \
  X(const_binary_expression)                                                                       \
  X(tensor_type)                                                                                   \
  X(shape)                                                                                         \
  X(dynamic_dimension)                                                                             \
  X(reference_type)                                                                                \
  X(pointer_type)                                                                                  \
  X(ref_type)                                                                                      \
  X(verified_type)                                                                                 \
  X(pinned_type)                                                                                   \
  X(function_type)                                                                                 \
  X(closure_type)                                                                                  \
  X(type_binding)                                                                                  \
  X(block)                                                                                         \
  X(let_declaration)                                                                               \
  X(assignment_statement)                                                                          \
  X(compound_assignment_statement)                                                                 \
  X(return_statement)                                                                              \
  X(break_statement)                                                                               \
  X(continue_statement)                                                                            \
  X(for_statement)                                                                                 \
  X(loop_statement)                                                                                \
  X(while_statement)                                                                               \
  X(expression_statement)                                                                          \
  X(array_expression)                                                                              \
  X(parenthesized_expression)                                                                      \
  X(unary_expression)                                                                              \
  X(reference_expression)                                                                          \
  X(binary_expression)                                                                             \
  X(range_expression)                                                                              \
  X(cast_expression)                                                                               \
  X(call_expression)                                                                               \
  X(arguments)                                                                                     \
  X(index_expression)                                                                              \
  X(field_expression)                                                                              \
  X(scoped_identifier)                                                                             \
  X(generic_name)                                                                                  \
  X(struct_expression)                                                                             \
  X(tensor_constructor)                                                                            \
  X(transfer_expression)                                                                           \
  X(closure_expression)                                                                            \
  X(if_expression)                                                                                 \
  X(else_clause)                                                                                   \
  X(match_expression)                                                                              \
  X(match_arm)                                                                                     \
  X(import_item)                                                                                   \
  X(variant_pattern)                                                                               \
  X(unsafe_block)                                                                                  \
  X(comptime_block)                                                                                \
  X(spawn_expression)                                                                              \
  X(macro_invocation)                                                                              \
  X(token_tree)                                                                                    \
  X(tuple_binding)                                                                                 \
  X(binding)                                                                                       \
  X(line_comment)                                                                                  \
  X(doc_comment)

/* Field names the library relies on. */
#define VXP_FIELD_NAMES(X)                                                                         \
  X(name)                                                                                          \
  X(type)                                                                                          \
  X(value)                                                                                         \
  X(body)                                                                                          \
  X(generics)                                                                                      \
  X(parameters)                                                                                    \
  X(return_type)                                                                                   \
  X(element)                                                                                       \
  X(dims)                                                                                          \
  X(placement)                                                                                     \
  X(space)                                                                                         \
  X(topology)                                                                                      \
  X(index)                                                                                         \
  X(unit)                                                                                          \
  X(amount)                                                                                        \
  X(per)                                                                                           \
  X(from)                                                                                          \
  X(to)                                                                                            \
  X(cost)                                                                                          \
  X(marker)                                                                                        \
  X(dtype)                                                                                         \
  X(left)                                                                                          \
  X(right)                                                                                         \
  X(operator)                                                                                      \
  X(operand)                                                                                       \
  X(start)                                                                                         \
  X(end)                                                                                           \
  X(function)                                                                                      \
  X(arguments)                                                                                     \
  X(method)                                                                                        \
  X(path)                                                                                          \
  X(field)                                                                                         \
  X(variable)                                                                                      \
  X(iterable)                                                                                      \
  X(condition)                                                                                     \
  X(consequence)                                                                                   \
  X(alternative)                                                                                   \
  X(comptime)                                                                                      \
  X(mutable)                                                                                       \
  X(trait)                                                                                         \
  X(pattern)                                                                                       \
  X(macro)

typedef struct vxp_symbols {
#define VXP__SYM_MEMBER(n) TSSymbol n;
  VXP_NODE_KINDS(VXP__SYM_MEMBER)
#undef VXP__SYM_MEMBER
} vxp_symbols;

typedef struct vxp_fields {
#define VXP__FIELD_MEMBER(n) TSFieldId n;
  VXP_FIELD_NAMES(VXP__FIELD_MEMBER)
#undef VXP__FIELD_MEMBER
} vxp_fields;

/* tree-sitter's ERROR symbol (ts_builtin_sym_error); the 0.20 runtime has no
 * ts_node_is_error. */
#define VXP__SYM_ERROR ((TSSymbol)-1)

static inline bool vxp_node__is_error(TSNode node) {
  return !ts_node_is_null(node) && ts_node_symbol(node) == VXP__SYM_ERROR;
}

/* Named child count that is 0 for a null node (the 0.20 runtime crashes on one). */
static inline uint32_t vxp_node__named_count(TSNode node) {
  return ts_node_is_null(node) ? 0 : ts_node_named_child_count(node);
}

/* Whether `node` is non-null and of kind `sym`; the field `id` of `node`, or the null node
 * when `node` is null (ts_node_child_by_field_id must not be given a null node). The walks
 * of lowering, the declarations reader and the lowering-body readers share these. */
static inline bool vxp_node__is(TSNode node, TSSymbol sym) {
  return !ts_node_is_null(node) && ts_node_symbol(node) == sym;
}

static inline TSNode vxp_node__field(TSNode node, TSFieldId id) {
  return ts_node_is_null(node) ? node : ts_node_child_by_field_id(node, id);
}

/* The bytes of `node` in `text` (the text its tree was parsed from): a pointer into `text`,
 * not NUL-terminated, and their count in `*len`. `node` must not be null. */
static inline const char *vxp_node__text(const char *text, TSNode node, uint32_t *len) {
  uint32_t start = ts_node_start_byte(node);
  *len = ts_node_end_byte(node) - start;
  return text + start;
}

/* Whether `node` is non-null and its bytes in `text` are exactly `word`. */
static inline bool vxp_node__text_is(const char *text, TSNode node, const char *word) {
  if (ts_node_is_null(node)) return false;
  uint32_t len;
  const char *t = vxp_node__text(text, node, &len);
  return strlen(word) == len && memcmp(t, word, len) == 0;
}

/* The first node of the subtree at `root` (`root` itself included, in document order) that
 * `match` accepts, or the null node (also for a null `root`). Iterative, with one cursor:
 * bodies nest arbitrarily. The walks that ask "does this body contain a ..." share it. */
typedef bool (*vxp_node_match)(TSNode node, const void *data);
TSNode vxp_node__find(TSNode root, vxp_node_match match, const void *data);

/* The bundled Vx grammar. */
const TSLanguage *tree_sitter_vx(void);

/* Fill `syms` and `fields` from `lang`. Returns NULL on success or the name of a node kind
 * or field the grammar lacks (static storage). */
const char *vxp_symbols__load(const TSLanguage *lang, vxp_symbols *syms, vxp_fields *fields);

#endif /* VXP_SYMBOLS_H */
