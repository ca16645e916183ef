/**
 * @file Vx grammar for tree-sitter.
 * @license Apache-2.0
 *
 * Written for libvxpeak from the facts of the Vx language (see grammar/README.md):
 * lexical rules, items, statements, expressions, types, and the Memory/Topology machine
 * model declarations. The tree is shaped for analysis: one node kind per concept and
 * named fields on everything the analyser reads.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

// Binary operator precedence, higher binds tighter (all left-associative). The values
// are vxc's precedence-climbing levels; the newer bitwise operators sit between the
// comparisons and the range operator, `&` tightest (Rust's relative order).
const PREC = {
  closure: -1,
  or: 10,
  and: 20,
  equality: 30,
  comparison: 40,
  bitor: 41,
  bitxor: 42,
  bitand: 43,
  range: 45,
  shift: 47,
  additive: 50,
  multiplicative: 60,
  unary: 70,
  postfix: 80,
};

const ASSIGNMENT_OPERATORS = ['+=', '-=', '*=', '/=', '%=', '&=', '^=', '|=', '<<=', '>>='];

/**
 * @param {RuleOrLiteral} rule
 * @param {RuleOrLiteral} separator
 */
function sepBy1(separator, rule) {
  return seq(rule, repeat(seq(separator, rule)));
}

/** Comma-separated list, optional trailing comma, possibly empty. */
function commaList(rule) {
  return optional(seq(sepBy1(',', rule), optional(',')));
}

/**
 * A tuple of two to six elements, optional trailing comma: vxc's tuples are the structs
 * `Tuple2`..`Tuple6` of `core::tuple`, and its parser refuses any other count.
 * @param {RuleOrLiteral} rule
 */
function tupleOf(rule) {
  let rest = seq(',', rule);
  for (let i = 0; i < 3; i++) rest = seq(',', rule, optional(rest));
  return seq('(', rule, rest, optional(','), ')');
}

/** Entries whose separating commas are optional (Memory/Topology bodies). */
function looseList(rule) {
  return repeat(seq(rule, optional(',')));
}

module.exports = grammar({
  name: 'vx',

  word: $ => $.identifier,

  extras: $ => [/\s/, $.line_comment, $.doc_comment, $._line_probe],

  // Line breaks before a line that starts in column 0 with a letter, where a top-level item
  // may start (grammar/src/scanner.c). _item_start is valid only between top-level items,
  // so when a stray token sends the parser into error recovery, the next such line brings
  // it back to the top level; and a column-0 line that starts with an item keyword (`fn`,
  // `struct`, `Memory`...) inside an unfinished item is an error at that line break, so the
  // damage ends there. Without it one stray `Memory::HBM` line made the rest of the file a
  // single ERROR, and tree-sitter 0.20's recovery is quadratic in the length it swallows.
  // _line_probe is never produced: as an extra it only makes the scanner look at every
  // line break.
  // _extern_probe is never produced either: it is valid only where an extern block's next
  // signature may start, so the scanner knows that a column-0 `fn` there is the block's own
  // signature (vxc's stdlib/benchmarks/benchmark.vx writes them unindented), not an item.
  externals: $ => [$._item_start, $._line_probe, $._extern_probe],

  supertypes: $ => [$._item, $._type, $._expression, $._statement, $._pattern],

  inline: $ => [$._path_head],

  conflicts: $ => [
    // `a < b` is a comparison unless `<` opens generic arguments that close with `>`
    // (vxc tries generic arguments first and backtracks).
    [$._expression, $.generic_name],
    // `if x {}` and `for i in s {}`: a struct literal only when the braces hold fields.
    [$._expression, $.struct_expression],
    // `return` is also the result placeholder in `ensures return >= 0`.
    [$.return_statement, $.return_value],
    [$.topology_path],
  ],

  rules: {
    source_file: $ => repeat(choice($._item, $._item_start)),

    // ------------------------------------------------------------------ lexical

    identifier: _ => /[\p{Alphabetic}_][\p{Alphabetic}\p{Nd}_]*/,

    // vxc lexes a number greedily over digits, letters, `_` and `.` (but stops before `..`)
    // and splits off a type suffix afterwards; `80i32`, `1.5f64`, and also the malformed
    // `1e10`, `0x1F`, `2.0.sqrt` are single tokens, diagnosed by the analyser.
    number: _ => token(/[0-9]([\p{Alphabetic}\p{Nd}_]|\.[\p{Alphabetic}\p{Nd}_])*/),

    string: $ => seq('"', repeat(choice($.string_content, $.escape_sequence)), token.immediate('"')),
    string_content: _ => token.immediate(prec(1, /[^"\\]+/)),
    escape_sequence: _ => token.immediate(/\\./),

    boolean: _ => choice('true', 'false'),

    // `//` not followed by a third slash, or four and more slashes.
    line_comment: _ => token(choice(seq('//', /([^/\n].*)?/), seq('////', /.*/))),
    // Exactly three slashes; four or more make an ordinary comment (the longer match above).
    doc_comment: _ => token(seq('///', /([^/\n].*)?/)),

    // ------------------------------------------------------------------ items

    _item: $ => choice(
      $.function_item,
      $.struct_item,
      $.enum_item,
      $.trait_item,
      $.impl_item,
      $.transfer_impl_item,
      $.legacy_transfer_impl_item,
      $.extern_block,
      $.import_item,
      $.macro_definition,
      $.macro_invocation_item,
      $.const_item,
      $.memory_item,
      $.topology_item,
      $.stray_path,
    ),

    // `Memory::HBM` or `Topology::Dev` alone at the top level, a path where an item belongs:
    // read as a node of its own (libvxpeak reports it as a syntax error) rather than left to
    // error recovery, which would take it for the start of a Memory or Topology item and
    // swallow the items after it.
    stray_path: $ => choice($.memory_path, $.topology_path),

    function_item: $ => seq(
      optional(field('unsafe', $.unsafe_modifier)),
      'fn',
      field('name', $.identifier),
      optional(field('generics', $.generic_parameters)),
      field('parameters', $.parameters),
      optional(seq('on', field('topology', $._topology_ref))),
      '->',
      field('return_type', $._type),
      repeat(choice($.requires_clause, $.ensures_clause, $.where_clause)),
      field('body', $.block),
    ),

    unsafe_modifier: _ => 'unsafe',

    function_signature: $ => seq(
      optional(field('unsafe', $.unsafe_modifier)),
      'fn',
      field('name', $.identifier),
      optional(field('generics', $.generic_parameters)),
      field('parameters', $.parameters),
      optional(seq('on', field('topology', $._topology_ref))),
      '->',
      field('return_type', $._type),
      ';',
    ),

    parameters: $ => seq('(', commaList($.parameter), ')'),

    parameter: $ => seq(field('name', $.identifier), ':', field('type', $._type)),

    // vxc stops at the first parameter not followed by a comma, so `<T U>` is refused.
    generic_parameters: $ => seq('<', commaList(choice($.const_parameter, $.type_parameter)), '>'),

    const_parameter: $ => seq('const', field('name', $.identifier), ':', field('type', $._type)),

    // `T`, `D: Topology`, `I : Iterator<Item = i64>`, `T : Size + Copy`.
    type_parameter: $ => seq(
      field('name', $.identifier),
      optional(seq(':', sepBy1('+', field('bound', $._type)))),
    ),

    topology_kind: _ => 'Topology',

    requires_clause: $ => seq('requires', field('condition', $._expression)),
    ensures_clause: $ => seq('ensures', field('condition', $._expression)),
    // `where Reachable<S, D>`; the spelling before Vx#353, `where Transfer<S, D>`, is read so
    // that it can be refused with vxc's pointer to the new one (syntax.c).
    where_clause: $ => seq('where', sepBy1(',', choice($.reachable_expression, $.legacy_transfer_constraint))),

    legacy_transfer_constraint: $ => seq(
      'Transfer',
      '<',
      field('from', $._topology_ref),
      ',',
      field('to', $._topology_ref),
      '>',
    ),

    struct_item: $ => seq(
      'struct',
      field('name', $.identifier),
      optional(field('generics', $.generic_parameters)),
      field('body', $.field_declaration_list),
    ),

    // Fields are separated by commas: vxc refuses `x : i32 y : i32` (its
    // tests/frontend/fail/parser/parser_struct_missing_comma.vx).
    field_declaration_list: $ => seq('{', commaList($.field_declaration), '}'),

    field_declaration: $ => seq(field('name', $.identifier), ':', field('type', $._type)),

    enum_item: $ => seq(
      'enum',
      field('name', $.identifier),
      optional(field('generics', $.generic_parameters)),
      field('body', $.enum_variant_list),
    ),

    // Variants are separated by commas, as fields are (parser_enum_missing_comma.vx).
    enum_variant_list: $ => seq('{', commaList($.enum_variant), '}'),

    enum_variant: $ => seq(
      field('name', $.identifier),
      optional(field('payload', $.variant_payload)),
    ),

    variant_payload: $ => seq('(', commaList($._type), ')'),

    trait_item: $ => seq(
      'trait',
      field('name', $.identifier),
      optional(field('generics', $.generic_parameters)),
      field('body', $.trait_body),
    ),

    // Signatures, and (newer) methods with a default body.
    trait_body: $ => seq('{', repeat(choice($.function_signature, $.function_item, $.associated_type)), '}'),

    impl_item: $ => seq(
      'impl',
      optional(field('generics', $.generic_parameters)),
      optional(seq(field('trait', $._type), 'for')),
      field('type', $._type),
      field('body', $.impl_body),
    ),

    impl_body: $ => seq('{', repeat(choice($.function_item, $.associated_type)), '}'),

    // `type Item;` in a trait, `type Item = T;` in an impl.
    associated_type: $ => seq(
      'type',
      field('name', $.identifier),
      optional(seq('=', field('type', $._type))),
      ';',
    ),

    transfer_impl_item: $ => seq(
      'impl',
      'Transfer',
      '<',
      field('from', $.memory_path),
      ',',
      field('to', $.memory_path),
      '>',
      'for',
      field('topology', $._topology_ref),
      field('body', $.impl_body),
    ),

    // The lowering's spelling before Vx#353, `impl transfer Memory::A -> Memory::B { fn ... }`,
    // which has no place to name the machine. Read so that syntax.c can refuse it with vxc's
    // pointer to `impl Transfer<Memory::A, Memory::B> for Topology::X`.
    legacy_transfer_impl_item: $ => seq(
      'impl',
      'transfer',
      field('from', $.memory_path),
      '->',
      field('to', $.memory_path),
      field('body', $.impl_body),
    ),

    extern_block: $ => seq(
      'extern',
      optional(field('abi', $.string)),
      field('body', $.extern_body),
    ),

    extern_body: $ => seq('{', repeat(choice($.extern_function, $._extern_probe)), '}'),

    extern_function: $ => seq(
      optional(field('safe', $.safe_modifier)),
      'fn',
      field('name', $.identifier),
      field('parameters', $.parameters),
      '->',
      field('return_type', $._type),
      ';',
    ),

    safe_modifier: _ => 'safe',

    import_item: $ => seq('import', field('path', $.import_path), ';'),

    import_path: $ => sepBy1('::', $.identifier),

    // `macro_rules! name { ... }`; newer sources also write `macro_rules name { ... }`.
    macro_definition: $ => seq(
      choice('macro_rules!', 'macro_rules'),
      field('name', $.identifier),
      '{',
      repeat($.macro_rule),
      '}',
    ),

    // A macro invoked at the top level expands to items: `unary_bench!(sqrt_f32, ...);`.
    macro_invocation_item: $ => seq($.macro_invocation, optional(';')),

    macro_rule: $ => seq(
      field('matcher', $.token_tree),
      '=>',
      field('transcriber', $.token_tree),
      optional(';'),
    ),

    token_tree: $ => choice(
      seq('(', repeat($._token_tree_item), ')'),
      seq('[', repeat($._token_tree_item), ']'),
      seq('{', repeat($._token_tree_item), '}'),
    ),

    _token_tree_item: $ => choice(
      $.token_tree,
      $.identifier,
      $.number,
      $.string,
      $._keyword_token,
      $._punctuation_token,
      $._other_token,
    ),

    // Macro bodies may hold foreign text (MLIR in `mlir!`): any other character is a token.
    _other_token: _ => token(prec(-1, /[^\s()\[\]{}"A-Za-z0-9_]/)),

    // Inside macro token trees every keyword is just a token.
    _keyword_token: _ => choice(
      'fn', 'let', 'mut', 'for', 'in', 'if', 'else', 'loop', 'break', 'continue', 'return',
      'spawn', 'on', 'where', 'transfer', 'match', 'struct', 'unsafe', 'safe', 'extern',
      'trait', 'impl', 'comptime', 'import', 'assert', 'enum', 'as', 'grad', 'vjp', 'jvp',
      'requires', 'ensures', 'invariant', 'Topology', 'Memory', 'Ref', 'Verified', 'Pinned',
      'Tensor', 'const', 'true', 'false', 'sizeof', 'Reachable', 'type', 'while', 'Transfer',
    ),

    _punctuation_token: _ => choice(
      ':', '::', ';', ',', '=', '->', '=>', '+', '-', '*', '/', '%', '.', '..', '&', '@',
      '$', '?', '==', '!=', '<', '>', '<=', '>=', '&&', '||', '!', '|', '^', '<<', '>>', '+=', '-=',
      '*=', '/=', '%=', '&=', '^=', '|=', '<<=', '>>=',
    ),

    const_item: $ => seq(
      'const',
      field('name', $.identifier),
      ':',
      field('type', $._type),
      '=',
      field('value', $._expression),
      ';',
    ),

    // ------------------------------------------------------------------ machine models

    memory_item: $ => seq('Memory', field('name', $.identifier), field('body', $.memory_body)),

    memory_body: $ => seq('{', looseList($._memory_field), '}'),

    _memory_field: $ => choice(
      $.within_field,
      $.capacity_field,
      $.bandwidth_field,
      $.clock_field,
      $.granule_field,
      $.scope_field,
      $.managed_field,
      $.replicas_field,
      $.crossing_field,
      $.overcommit_field,
    ),

    within_field: $ => seq('within', ':', field('value', $.memory_path)),
    capacity_field: $ => seq('capacity', ':', field('value', $.size)),
    bandwidth_field: $ => seq('bandwidth', ':', field('value', $.rate)),
    clock_field: $ => seq('clock', ':', field('value', $.frequency)),
    granule_field: $ => seq('granule', ':', field('value', $.size)),
    // Enumerated values are identifiers so that a misspelling is reported by the
    // analyser with the list of accepted words, not as a bare syntax error.
    scope_field: $ => seq('scope', ':', field('value', $.identifier)),
    managed_field: $ => seq('managed', ':', field('value', $.identifier)),
    replicas_field: $ => seq('replicas', ':', field('value', $.number)),
    crossing_field: $ => seq('crossing', ':', field('value', $.identifier)),
    overcommit_field: _ => 'overcommit',

    // A size is a number and a unit word glued by whitespace (`40 GiB`); a rate is a size
    // per `s` or `cyc`; a frequency is a number and `Hz`..`GHz`. Units are checked (and
    // converted exactly) by the analyser.
    size: $ => seq(field('value', $.number), field('unit', $.identifier)),
    rate: $ => seq(field('amount', $.size), '/', field('per', $.identifier)),
    frequency: $ => seq(field('value', $.number), field('unit', $.identifier)),

    topology_item: $ => seq('Topology', field('name', $.identifier), field('body', $.topology_body)),

    topology_body: $ => seq('{', looseList($._topology_entry), '}'),

    _topology_entry: $ => choice(
      $.memory_entry,
      $.visible_entry,
      $.arch_entry,
      $.dtypes_entry,
      $.transfer_edge,
    ),

    memory_entry: $ => seq('memory', ':', field('value', $.memory_path)),
    visible_entry: $ => seq('visible', ':', '[', commaList(field('space', $.memory_path)), ']'),
    arch_entry: $ => seq('arch', ':', field('value', $.identifier)),
    dtypes_entry: $ => seq('dtypes', ':', '[', commaList(field('dtype', $.identifier)), ']'),

    transfer_edge: $ => seq(
      'transfer',
      field('from', $.memory_path),
      '->',
      field('to', $.memory_path),
      optional(seq(':', field('cost', choice($.number, $.rate)))),
      repeat(field('marker', $.edge_marker)),
    ),

    edge_marker: _ => choice('relaxed', 'sync', 'copy_engine'),

    memory_path: $ => seq('Memory', '::', field('name', $.identifier)),

    topology_path: $ => seq(
      'Topology',
      '::',
      field('name', $.identifier),
      optional(seq('[', field('index', $._expression), ']')),
    ),

    _topology_ref: $ => choice($.topology_path, $.identifier),

    // ------------------------------------------------------------------ types

    _type: $ => choice(
      $._type_identifier,
      $.generic_type,
      $.scoped_type_identifier,
      $.tensor_type,
      $.reference_type,
      $.pointer_type,
      $.ref_type,
      $.verified_type,
      $.pinned_type,
      $.simd_type,
      $.function_type,
      $.closure_type,
      $.tuple_type,
      $.never_type,
      $.topology_kind,
    ),

    _type_identifier: $ => alias($.identifier, $.type_identifier),

    // A type followed by `<` always opens generic arguments (`x as Vec<i32>`).
    generic_type: $ => prec(1, seq(
      field('name', choice($._type_identifier, $.scoped_type_identifier)),
      field('arguments', $.type_arguments),
    )),

    scoped_type_identifier: $ => seq(
      field('path', choice($._type_identifier, $.scoped_type_identifier, $.generic_type)),
      '::',
      field('name', $.identifier),
    ),

    // Each argument list counts once in favour of the generic reading, so that in
    // `g<Vec<i32>>(x)` the nested list wins over `(g < Vec<i32>) > (x)`.
    type_arguments: $ => prec.dynamic(1, seq('<', commaList($._type_argument), '>')),

    // Generic arguments are types or constants (`admit<80, 64>()`, `countdown<N - 1>()`).
    // Placements (`Ref<T, Memory::S>`-like user generics, `Transfer<Topology::A, Topology::B>`)
    // and associated-type bindings (`Iterator<Item = i64>`) are arguments too.
    _type_argument: $ => choice($._type, $.const_argument, $.memory_path, $.topology_path, $.type_binding),

    type_binding: $ => seq(field('name', $.identifier), '=', field('type', $._type)),

    const_argument: $ => choice(
      $.number,
      $.string,
      $.boolean,
      $.const_binary_expression,
      seq('(', $._const_expression, ')'),
      seq('-', $._const_operand),
    ),

    _const_expression: $ => choice($._const_operand, $.const_binary_expression),

    _const_operand: $ => choice(
      $.number,
      $.identifier,
      seq('(', $._const_expression, ')'),
    ),

    const_binary_expression: $ => {
      const table = [
        [PREC.additive, choice('+', '-')],
        [PREC.multiplicative, choice('*', '/', '%')],
      ];
      return choice(...table.map(([precedence, operator]) => prec.left(precedence, seq(
        field('left', $._const_expression),
        field('operator', operator),
        field('right', $._const_expression),
      ))));
    },

    // `Tensor<f32, [512, 512]>`, `Tensor<f16, [?, N * 2], Memory::HBM>`. The shape is
    // mandatory in Vx; the old initializer-list spelling `Tensor<f16>([...])` still parses
    // (without `dims`) so that the analyser can say what is missing.
    tensor_type: $ => seq(
      'Tensor',
      '<',
      field('element', $._type),
      optional(seq(
        ',',
        field('dims', $.shape),
        optional(seq(',', field('placement', choice($.memory_path, $.topology_path)))),
      )),
      optional(','),
      '>',
    ),

    shape: $ => seq('[', commaList(choice($._expression, $.dynamic_dimension)), ']'),

    dynamic_dimension: _ => '?',

    reference_type: $ => seq('&', optional(field('mutable', $.mutable_specifier)), field('type', $._type)),

    // `*mut f32`, and a device pointer `*mut f32 in Memory::GPU_HBM`.
    pointer_type: $ => prec.right(seq(
      '*',
      field('mutability', choice($.mutable_specifier, 'const')),
      field('type', $._type),
      optional(seq('in', field('space', $.memory_path))),
    )),

    mutable_specifier: _ => 'mut',

    ref_type: $ => seq('Ref', '<', field('type', $._type), ',', field('space', $.memory_path), optional(','), '>'),

    verified_type: $ => seq('Verified', '<', field('type', $._type), '>'),

    pinned_type: $ => seq('Pinned', '<', field('type', $._type), ',', field('topology', $._topology_ref), optional(','), '>'),

    simd_type: $ => seq('<', field('lanes', $.number), 'x', field('element', $._type), '>'),

    function_type: $ => seq('fn', '(', commaList($._type), ')', '->', field('return_type', $._type)),

    // `-> !`: a function that never returns (`unreachable`, `todo` in core::panic).
    never_type: _ => '!',

    // `(A, B)`: vxc's `Tuple2<A, B>` (core::tuple).
    tuple_type: $ => tupleOf($._type),

    closure_type: $ => seq(
      choice(seq('|', commaList($._type), '|'), '||'),
      '->',
      field('return_type', $._type),
    ),

    // ------------------------------------------------------------------ statements

    block: $ => seq('{', repeat($._statement), optional(field('value', $._expression)), '}'),

    _statement: $ => choice(
      $.let_declaration,
      $.assignment_statement,
      $.compound_assignment_statement,
      $.return_statement,
      $.for_statement,
      $.while_statement,
      $.loop_statement,
      $.break_statement,
      $.continue_statement,
      $.assert_statement,
      $.expression_statement,
      $.empty_statement,
    ),

    empty_statement: _ => ';',

    // `let (a, mut b, _) = e;` binds each element of a tuple; vxc refuses `let mut (..)`.
    let_declaration: $ => seq(
      'let',
      choice(
        seq(optional(field('mutable', $.mutable_specifier)), field('name', $.identifier)),
        field('pattern', $.tuple_binding),
      ),
      optional(seq(':', field('type', $._type))),
      '=',
      field('value', $._expression),
      ';',
    ),

    tuple_binding: $ => tupleOf(choice($.tuple_binding, $.binding, $.wildcard_pattern)),

    binding: $ => seq(optional(field('mutable', $.mutable_specifier)), field('name', $.identifier)),

    assignment_statement: $ => seq(field('left', $._expression), '=', field('right', $._expression), ';'),

    compound_assignment_statement: $ => seq(
      field('left', $._expression),
      field('operator', choice(...ASSIGNMENT_OPERATORS)),
      field('right', $._expression),
      ';',
    ),

    return_statement: $ => prec.right(seq('return', optional(field('value', $._expression)), ';')),

    for_statement: $ => seq(
      'for',
      field('variable', $.identifier),
      'in',
      field('iterable', $._expression),
      repeat($.invariant_clause),
      field('body', $.block),
    ),

    loop_statement: $ => seq('loop', repeat($.invariant_clause), field('body', $.block)),

    // (newer) `while COND { ... }`.
    while_statement: $ => seq(
      'while',
      field('condition', $._expression),
      repeat($.invariant_clause),
      field('body', $.block),
    ),

    invariant_clause: $ => seq('invariant', '(', field('condition', $._expression), ')'),

    break_statement: _ => seq('break', ';'),
    continue_statement: _ => seq('continue', ';'),

    assert_statement: $ => seq(
      'assert',
      '(',
      field('condition', $._expression),
      optional(seq(',', field('message', $.string))),
      optional(','),
      ')',
      ';',
    ),

    // An expression statement needs `;` unless the expression ends with a block
    // (`if`, `match`, `unsafe {}`, `comptime {}`, `spawn on(..) {}`, a macro with braces).
    expression_statement: $ => choice(
      seq($._expression, ';'),
      prec(1, $._block_like_expression),
    ),

    // ------------------------------------------------------------------ expressions

    _expression: $ => choice(
      $.identifier,
      // `Tensor` on its own is a plain name: `Tensor([dim])`, `Tensor::from(p, [n])` in old code.
      prec(-1, alias('Tensor', $.identifier)),
      $.number,
      $.string,
      $.boolean,
      $.array_expression,
      $.parenthesized_expression,
      $.tuple_expression,
      $.unary_expression,
      $.reference_expression,
      $.binary_expression,
      $.range_expression,
      $.cast_expression,
      $.call_expression,
      $.index_expression,
      $.field_expression,
      $.scoped_identifier,
      $.generic_name,
      $.struct_expression,
      $.tensor_constructor,
      $.transfer_expression,
      $.verified_expression,
      $.reachable_expression,
      $.sizeof_expression,
      $.autodiff_expression,
      $.closure_expression,
      $.memory_path,
      $.topology_path,
      $.return_value,
      $._block_like_expression,
    ),

    _block_like_expression: $ => choice(
      $.if_expression,
      $.match_expression,
      $.unsafe_block,
      $.comptime_block,
      $.spawn_expression,
      $.macro_invocation,
    ),

    array_expression: $ => seq('[', commaList($._expression), ']'),

    parenthesized_expression: $ => seq('(', $._expression, ')'),

    // `(a, b)` builds a `Tuple2`; `t.0` reads its first element.
    tuple_expression: $ => tupleOf($._expression),

    unary_expression: $ => prec(PREC.unary, seq(
      field('operator', choice('-', '!', '*')),
      field('operand', $._expression),
    )),

    reference_expression: $ => prec(PREC.unary, seq(
      '&',
      optional(field('mutable', $.mutable_specifier)),
      field('value', $._expression),
    )),

    binary_expression: $ => {
      const table = [
        [PREC.or, '||'],
        [PREC.and, '&&'],
        [PREC.equality, choice('==', '!=')],
        [PREC.comparison, choice('<', '>', '<=', '>=')],
        [PREC.bitor, '|'],
        [PREC.bitxor, '^'],
        [PREC.bitand, '&'],
        // `>>` is a token only where a shift may follow: inside generic arguments the lexer
        // is never offered it, so `Vec<Vec<i32>>` still closes two lists.
        [PREC.shift, choice('<<', '>>')],
        [PREC.additive, choice('+', '-')],
        [PREC.multiplicative, choice('*', '/', '%', '@')],
      ];
      return choice(...table.map(([precedence, operator]) => prec.left(precedence, seq(
        field('left', $._expression),
        field('operator', operator),
        field('right', $._expression),
      ))));
    },

    range_expression: $ => prec.left(PREC.range, seq(
      field('start', $._expression),
      '..',
      field('end', $._expression),
    )),

    // `as` is postfix in Vx: `a + b as f32` casts only `b`.
    cast_expression: $ => prec(PREC.postfix, seq(field('value', $._expression), 'as', field('type', $._type))),

    call_expression: $ => prec(PREC.postfix, seq(
      field('function', $._expression),
      field('arguments', $.arguments),
    )),

    arguments: $ => seq('(', commaList($._expression), ')'),

    index_expression: $ => prec(PREC.postfix, seq(
      field('value', $._expression),
      '[',
      field('index', $._expression),
      ']',
    )),

    field_expression: $ => prec(PREC.postfix, seq(
      field('value', $._expression),
      '.',
      field('field', choice($.identifier, $.tuple_index)),
    )),

    tuple_index: _ => /[0-9]+/,

    // `Enum::Variant`, `Type::method`, `std::io::print`, `Vec<i32>::new`, `raw::load`.
    scoped_identifier: $ => seq(
      field('path', $._path_head),
      '::',
      field('name', $.identifier),
    ),

    _path_head: $ => choice(
      $.identifier,
      $.scoped_identifier,
      $.generic_name,
      alias('Tensor', $.identifier),
    ),

    // A name applied to generic arguments in expression position: `admit<80, 64>`,
    // `Vec<i32>`, `stage<i32>`.
    generic_name: $ => prec.dynamic(1, seq(
      field('name', choice($.identifier, $.scoped_identifier)),
      field('arguments', $.type_arguments),
    )),

    struct_expression: $ => seq(
      field('name', choice($.identifier, $.scoped_identifier, $.generic_name)),
      field('body', $.field_initializer_list),
    ),

    field_initializer_list: $ => seq('{', commaList($.field_initializer), '}'),

    field_initializer: $ => seq(field('name', $.identifier), ':', field('value', $._expression)),

    // `Tensor<f32, [512, 512]>::uninit()`, `Tensor<f16, [4, 4], Memory::X>::fill(0.0)`,
    // and the old initializer form `Tensor<f32>([[1.0, 2.0]])`.
    tensor_constructor: $ => prec(PREC.postfix, seq(
      field('type', $.tensor_type),
      optional(seq('::', field('method', $.identifier))),
      field('arguments', $.arguments),
    )),

    transfer_expression: $ => seq(
      'transfer',
      '(',
      field('value', $._expression),
      ',',
      field('space', $._expression),
      optional(','),
      ')',
    ),

    verified_expression: $ => seq('Verified', '(', field('value', $._expression), ')'),

    reachable_expression: $ => seq(
      'Reachable',
      '<',
      field('from', $._topology_ref),
      ',',
      field('to', $._topology_ref),
      '>',
    ),

    sizeof_expression: $ => seq('sizeof', '<', field('type', $._type), '>', '(', ')'),

    autodiff_expression: $ => seq(
      field('operator', choice('grad', 'vjp', 'jvp')),
      '(',
      field('function', $.identifier),
      repeat(seq(',', field('argument', $._expression))),
      optional(','),
      ')',
    ),

    closure_expression: $ => prec(PREC.closure, seq(
      field('parameters', $.closure_parameters),
      optional(seq('->', field('return_type', $._type))),
      field('body', $._expression),
    )),

    closure_parameters: $ => choice(
      '||',
      seq('|', commaList($.closure_parameter), '|'),
    ),

    closure_parameter: $ => seq(field('name', $.identifier), optional(seq(':', field('type', $._type)))),

    // The result of the function inside `ensures` (`ensures return >= 0`).
    return_value: _ => prec.dynamic(-1, 'return'),

    if_expression: $ => prec.right(seq(
      'if',
      optional(field('comptime', $.comptime_modifier)),
      field('condition', $._expression),
      field('consequence', $.block),
      optional(field('alternative', $.else_clause)),
    )),

    comptime_modifier: _ => 'comptime',

    else_clause: $ => seq('else', choice($.block, $.if_expression)),

    match_expression: $ => seq(
      'match',
      field('value', $._expression),
      field('body', $.match_block),
    ),

    match_block: $ => seq('{', repeat($.match_arm), '}'),

    match_arm: $ => prec.right(seq(
      field('pattern', $._pattern),
      '=>',
      field('value', choice(
        $.block,
        $._expression,
        $.return_statement,
        $.assignment_statement,
        $.compound_assignment_statement,
        $.break_statement,
        $.continue_statement,
        $.assert_statement,
        $.let_declaration,
      )),
      optional(choice(',', ';')),
    )),

    _pattern: $ => choice(
      $.wildcard_pattern,
      $.literal_pattern,
      $.identifier,
      $.variant_pattern,
      $.tuple_pattern,
    ),

    wildcard_pattern: _ => '_',

    // `(0, y)` in a match arm; vxc refuses an enum variant inside one ("not supported yet").
    tuple_pattern: $ => tupleOf(choice($.tuple_pattern, $.wildcard_pattern, $.literal_pattern, $.identifier)),

    literal_pattern: $ => choice($.number, $.string, $.boolean, seq('-', $.number)),

    variant_pattern: $ => seq(
      field('type', choice($.identifier, alias($.generic_pattern_type, $.generic_type))),
      '::',
      field('variant', $.identifier),
      optional(seq('(', commaList(field('field', $._pattern)), ')')),
    ),

    // `Option<T>::Some(v)`, `Result<T, E>::Ok(v)` (core::clone), `Option<*mut i8>::None`.
    generic_pattern_type: $ => seq(
      field('name', $.identifier),
      '<',
      sepBy1(',', field('argument', $._type)),
      optional(','),
      '>',
    ),

    unsafe_block: $ => seq('unsafe', field('body', $.block)),

    comptime_block: $ => seq('comptime', field('body', $.block)),

    spawn_expression: $ => seq(
      'spawn',
      'on',
      '(',
      field('topology', $._expression),
      ')',
      field('body', $.block),
    ),

    // `name!(...) { ... }`: a brace tree right after the arguments belongs to the macro.
    macro_invocation: $ => prec.right(seq(
      field('macro', $.identifier),
      token.immediate('!'),
      field('arguments', $.token_tree),
      optional(field('block', alias($._brace_token_tree, $.token_tree))),
    )),

    _brace_token_tree: $ => seq('{', repeat($._token_tree_item), '}'),
  },
});
