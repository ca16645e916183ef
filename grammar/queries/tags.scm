; SPDX-License-Identifier: Apache-2.0
; Symbol tags for Vx (code navigation: ctags-style definitions and references).

(function_item name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.function
(extern_function name: (identifier) @name) @definition.function
(struct_item name: (identifier) @name) @definition.class
(enum_item name: (identifier) @name) @definition.class
(trait_item name: (identifier) @name) @definition.interface
(impl_item type: (type_identifier) @name) @reference.implementation
(transfer_impl_item topology: (topology_path name: (identifier) @name)) @reference.implementation
(legacy_transfer_impl_item to: (memory_path name: (identifier) @name)) @reference.implementation
(macro_definition name: (identifier) @name) @definition.macro
(const_item name: (identifier) @name) @definition.constant
(memory_item name: (identifier) @name) @definition.module
(topology_item name: (identifier) @name) @definition.module

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (scoped_identifier name: (identifier) @name)) @reference.call
(call_expression function: (field_expression field: (identifier) @name)) @reference.call
(call_expression function: (generic_name name: (identifier) @name)) @reference.call
(macro_invocation macro: (identifier) @name) @reference.call
(memory_path name: (identifier) @name) @reference.module
(topology_path name: (identifier) @name) @reference.module
