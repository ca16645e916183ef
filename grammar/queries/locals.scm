; SPDX-License-Identifier: Apache-2.0
; Scopes, definitions and references for Vx (editor "go to definition" within a file).

(function_item) @local.scope
(transfer_impl_item) @local.scope
(legacy_transfer_impl_item) @local.scope
(block) @local.scope
(closure_expression) @local.scope
(for_statement) @local.scope
(match_arm) @local.scope

(parameter name: (identifier) @local.definition.parameter)
(closure_parameter name: (identifier) @local.definition.parameter)
(const_parameter name: (identifier) @local.definition.constant)
(type_parameter name: (identifier) @local.definition.type)
(let_declaration name: (identifier) @local.definition.var)
(binding name: (identifier) @local.definition.var)
(for_statement variable: (identifier) @local.definition.var)
(variant_pattern field: (identifier) @local.definition.var)
(match_arm pattern: (identifier) @local.definition.var)
(tuple_pattern (identifier) @local.definition.var)

(identifier) @local.reference
