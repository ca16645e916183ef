; SPDX-License-Identifier: Apache-2.0
; Syntax highlighting for Vx (tree-sitter captures, nvim-treesitter / Helix names).

(line_comment) @comment
(doc_comment) @comment.documentation

(string) @string
(escape_sequence) @string.escape
(number) @number
(boolean) @boolean

[
  "fn" "let" "for" "in" "if" "else" "loop" "while" "break" "continue" "return" "spawn" "on"
  "where" "transfer" "match" "struct" "enum" "trait" "impl" "extern" "import" "assert"
  "as" "requires" "ensures" "invariant" "type" "const" "Memory" "Topology" "macro_rules!"
  "macro_rules"
] @keyword

[ "unsafe" "comptime" "safe" ] @keyword.modifier
(mutable_specifier) @keyword.modifier
(unsafe_modifier) @keyword.modifier
(comptime_modifier) @keyword.modifier
(safe_modifier) @keyword.modifier
(topology_kind) @type.builtin
["grad" "vjp" "jvp" "sizeof" "Reachable" "Verified"] @function.builtin

(type_identifier) @type
(tensor_type "Tensor" @type.builtin)
["Ref" "Pinned" "Transfer"] @type.builtin
(dynamic_dimension) @type.builtin
(never_type) @type.builtin
(simd_type "x" @operator)

(function_item name: (identifier) @function)
(function_signature name: (identifier) @function)
(extern_function name: (identifier) @function)
(call_expression function: (identifier) @function.call)
(call_expression function: (scoped_identifier name: (identifier) @function.call))
(call_expression function: (field_expression field: (identifier) @function.method.call))
(generic_name name: (identifier) @function.call)
(macro_invocation macro: (identifier) @function.macro "!" @function.macro)
; The primitives of a transfer lowering: `raw::load`, `raw::store`, `raw::async_copy`, ...
((scoped_identifier path: (identifier) @module.builtin) (#eq? @module.builtin "raw"))
(macro_definition name: (identifier) @function.macro)
(autodiff_expression function: (identifier) @function)

(parameter name: (identifier) @variable.parameter)
(closure_parameter name: (identifier) @variable.parameter)
(const_parameter name: (identifier) @constant)
(type_parameter name: (identifier) @type)
(const_item name: (identifier) @constant)
(field_declaration name: (identifier) @property)
(field_initializer name: (identifier) @property)
(field_expression field: (identifier) @property)
(field_expression field: (tuple_index) @property)
(enum_variant name: (identifier) @constant)
(variant_pattern variant: (identifier) @constant)
(wildcard_pattern) @variable.builtin
(return_value) @variable.builtin

(struct_item name: (identifier) @type.definition)
(enum_item name: (identifier) @type.definition)
(trait_item name: (identifier) @type.definition)
(associated_type name: (identifier) @type.definition)

; The machine model: spaces and topologies are the nouns of this language.
(memory_item name: (identifier) @type.definition)
(topology_item name: (identifier) @type.definition)
(memory_path name: (identifier) @constant.builtin)
(topology_path name: (identifier) @constant.builtin)
["within" "capacity" "bandwidth" "clock" "granule" "scope" "managed" "replicas" "crossing"
 "memory" "visible" "arch" "dtypes"] @property
(overcommit_field) @attribute
(edge_marker) @attribute
(size unit: (identifier) @type.builtin)
(frequency unit: (identifier) @type.builtin)
(rate per: (identifier) @type.builtin)

[
  "+" "-" "*" "/" "%" "@" "=" "==" "!=" "<" ">" "<=" ">=" "&&" "||" "!" "&" "|" "^" "<<" ">>"
  "+=" "-=" "*=" "/=" "%=" "&=" "|=" "^=" "<<=" ">>=" ".." "->" "=>" "?"
] @operator

["(" ")" "[" "]" "{" "}"] @punctuation.bracket
["," ";" ":" "::" "."] @punctuation.delimiter
