/* SPDX-License-Identifier: Apache-2.0 */
/* lower.c - the one walk from syntax tree to program model.
 *
 * Functions become event streams (blocks, placements, calls) in program order; tensor
 * types and shapes become unevaluated constant expressions; every name a function reads is
 * collected for the never-read rule. Name resolution is lexical and local: a binding knows
 * the tensor type and the location of the value it holds, which is what a later
 * `transfer(x, Memory::S)` needs to price and place. */
#include "lower.h"

#include <stdlib.h>

#include "context.h"
#include "lower_raw.h"
#include "lower_visibility.h"
#include "reuse.h"
#include "roles.h"
#include "source.h"

/* What lowering knows about the value of an expression. */
typedef struct value_info {
  uint32_t type;       /* tensor type index, VXP_NONE when not a (known) tensor */
  vxp_origin loc;      /* where the tensor lives */
  vxp_name nominal;    /* a struct's name, for method calls */
  uint32_t closure_fn; /* a closure's function index, VXP_NONE otherwise */
  uint8_t elem;        /* a scalar's element type (vxp_elem), for counting arithmetic */
  bool elem_of_tensor; /* elem comes from a tensor element read, not a literal or a name */
  bool slice;          /* the value is a slice of a tensor (an arithmetic operand) */
} value_info;

typedef struct binding {
  vxp_name name;
  value_info value;
  uint32_t shadowed; /* the binding of the same name this one hides, or VXP_NONE */
} binding;

/* Function signatures are collected before the bodies are lowered (lower.h). */
typedef vxp_lower_signature fn_signature;

/* A name a splice brought in (lowerer.inserts): the earlier name it comes before, and the pass
 * and item that met it first. */
typedef struct name_insert {
  vxp_name before;
  uint32_t ord;
} name_insert;

typedef struct lowerer {
  vxp_context *ctx;
  const vxp_source *src;
  vxp_model *m;
  vxp_diag_list *diags;
  const vxp_symbols *S;
  const vxp_fields *F;
  Array(binding) bindings;
  Array(uint32_t) innermost; /* by name: the index in `bindings` of its innermost binding,
                                VXP_NONE when unbound. Name lookup is then O(1) however
                                many bindings a function has (a generated function with
                                10^5 lets made the old backward scan quadratic). */
  Array(size_t) scopes;      /* bindings.len when each lexical scope opened */
  Array(uint32_t) fn_stack;  /* functions being lowered (closures nest in functions) */
  Array(fn_signature) signatures;
  Array(binding) cx_lets;        /* `let`s of the comptime blocks being lowered as cexprs:
                                    value.type holds the cexpr the name stands for */
  Array(vxp_call_arg) arg_stack; /* arguments of the calls being lowered, innermost last */
  Array(vxp_name) generic_scope; /* generic parameters of the enclosing struct, impl and
                                    functions, innermost last */
  bool runtime_condition;        /* lowering a run-time `if` condition: names are not resolved */
  vxp_name impl_owner;           /* the type of the enclosing impl block, or NONE */
  vxp_name assign_target;        /* the name a `let` or an assignment being lowered binds: every
                                    transfer in its initializer is bound to it for the never-read
                                    rule (vxc's current_assignment_target: set for the whole
                                    initializer, cleared, not restored, when a `let` ends) */
  unsigned depth;
  unsigned spawn_depth;   /* `spawn` regions open around the current expression */
  unsigned address_depth; /* inside an index or a loop bound: address arithmetic */
  bool too_deep;          /* the current function hit VXP_MAX_NESTING */
  vxp_roles_memo roles;   /* the `// role:` comments read so far */
  /* vxp_lower__splice: the names an item lowered afresh introduces must be the ones its
   * earlier version introduced, [name_lo, name_hi), in the same order (name_next is the
   * next one due), so that every name keeps the id a full lowering would give it. */
  bool check_names;
  vxp_lower_vis vis;  /* the visibility facts' reader (lower_visibility.h) */
  uint32_t top_index; /* the position among the root's children of the item being lowered */
  bool names_differ;
  vxp_name name_lo, name_next, name_hi;
  /* A name the earlier version's table did not hold (an id from names_old on) may come in
   * anywhere in an item's sequence: its first interning is recorded in `inserts`, with the
   * earlier name it comes before and the pass and item that brought it in (`name_ord`: item
   * k's signature part is k, its item part items + 1 + k), for the splice to renumber the
   * table as a full lowering numbers it (rename_names). */
  vxp_name names_old, names_new_next;
  uint32_t name_ord;
  Array(name_insert) inserts;
  int rc; /* sticky failure (VXP_ENOMEM) */
} lowerer;

static const value_info no_value = {VXP_NONE, {false, {0, 0, VXP_NONE, 0, 0}}, 0, VXP_NONE};

/* ------------------------------------------------------------------ helpers */

static bool failed(lowerer *L) { return L->rc != VXP_OK; }

static void oom(lowerer *L) { L->rc = VXP_ENOMEM; }

/* The 0.20 runtime dereferences null nodes, so every child lookup goes through here. */
static TSNode field(lowerer *L, TSNode node, TSFieldId id) {
  VXP__UNUSED(L);
  return ts_node_is_null(node) ? node : ts_node_child_by_field_id(node, id);
}

static const char *text_of(lowerer *L, TSNode node, size_t *len) {
  uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  *len = end - start;
  return L->src->text + start;
}

static vxp_name intern_text(lowerer *L, const char *s, size_t len) {
  if (failed(L)) return VXP_NAME_NONE;
  vxp_name n = vxp_strtab__intern(L->ctx, &L->m->names, s, len);
  if (n == VXP_NAME_ERROR) {
    oom(L);
    return VXP_NAME_NONE;
  }
  if (L->check_names && n >= L->names_old) { /* brought in by this splice */
    if (n == L->names_new_next) {
      name_insert at = {L->name_next, L->name_ord};
      L->names_new_next++;
      if (!array_push(L->ctx, &L->inserts, at)) oom(L);
    }
  } else if (L->check_names && n >= L->name_lo) {
    if (n == L->name_next && n < L->name_hi)
      L->name_next++;
    else if (n >= L->name_next)
      L->names_differ = true;
  }
  return n;
}

static vxp_name intern_node(lowerer *L, TSNode node) {
  if (ts_node_is_null(node) || failed(L)) return VXP_NAME_NONE;
  size_t len;
  const char *s = text_of(L, node, &len);
  return intern_text(L, s, len);
}

static bool is_extra(lowerer *L, TSNode node) {
  TSSymbol s = ts_node_symbol(node);
  return s == L->S->line_comment || s == L->S->doc_comment;
}

static vxp_function *current_fn(lowerer *L) {
  return &L->m->functions.items[*array_last(&L->fn_stack)];
}

static vxp_name intern_text(lowerer *L, const char *s, size_t len);

static void emit(lowerer *L, const vxp_event *ev) {
  if (failed(L) || L->fn_stack.len == 0) return;
  if (!array_push(L->ctx, &current_fn(L)->events, *ev)) {
    oom(L);
    return;
  }
  if (ev->kind != VXP_EV_PLACE) return;
  /* A placement's role, read from the comments once, here (roles.h). */
  vxp_place_event *pl = &array_last(&current_fn(L)->events)->u.place;
  uint32_t line = vxp_source__range(L->src, pl->start_byte, pl->start_byte).start.line;
  const char *role;
  size_t len;
  vxp_roles__of_line(&L->roles, L->src, line, &role, &len);
  pl->role = role ? intern_text(L, role, len) : VXP_NAME_NONE;
}

static void open_block(lowerer *L, TSNode construct, vxp_block_kind kind, bool comptime,
                       uint32_t condition, uint32_t trip_start, uint32_t trip_end) {
  vxp_event ev;
  memset(&ev, 0, sizeof(ev));
  ev.kind = VXP_EV_OPEN;
  if (!ts_node_is_null(construct)) {
    ev.u.block.start_byte = ts_node_start_byte(construct);
    ev.u.block.end_byte = ts_node_end_byte(construct);
  }
  ev.u.block.kind = (uint8_t)kind;
  ev.u.block.comptime = comptime;
  ev.u.block.condition = condition;
  ev.u.block.trip_start = trip_start;
  ev.u.block.trip_end = trip_end;
  emit(L, &ev);
}

static void close_block(lowerer *L) {
  vxp_event ev;
  memset(&ev, 0, sizeof(ev));
  ev.kind = VXP_EV_CLOSE;
  emit(L, &ev);
}

/* A read of `name` counts for every function being lowered: a closure's captures are
 * reads of the enclosing function too. */
static void add_read(lowerer *L, vxp_name name) {
  if (failed(L) || name == VXP_NAME_NONE) return;
  for (size_t i = 0; i < L->fn_stack.len; i++) {
    vxp_function *fn = &L->m->functions.items[L->fn_stack.items[i]];
    if (!array_push(L->ctx, &fn->reads, name)) {
      oom(L);
      return;
    }
  }
}

static void push_scope(lowerer *L) {
  if (!failed(L) && !array_push(L->ctx, &L->scopes, L->bindings.len)) oom(L);
}

static void pop_scope(lowerer *L) {
  if (L->scopes.len == 0) return;
  size_t mark = L->scopes.items[--L->scopes.len];
  while (L->bindings.len > mark) {
    const binding *b = &L->bindings.items[--L->bindings.len];
    L->innermost.items[b->name] = b->shadowed;
  }
}

static void bind(lowerer *L, vxp_name name, value_info value) {
  if (failed(L) || name == VXP_NAME_NONE) return;
  if (name >= L->innermost.len) {
    size_t want = (size_t)name + 1;
    if (!array_reserve(L->ctx, &L->innermost, want - L->innermost.len)) {
      oom(L);
      return;
    }
    while (L->innermost.len < want)
      L->innermost.items[L->innermost.len++] = VXP_NONE;
  }
  binding b = {name, value, L->innermost.items[name]};
  if (!array_push(L->ctx, &L->bindings, b)) {
    oom(L);
    return;
  }
  L->innermost.items[name] = (uint32_t)(L->bindings.len - 1);
}

static binding *lookup(lowerer *L, vxp_name name) {
  if (name >= L->innermost.len || L->innermost.items[name] == VXP_NONE) return NULL;
  return &L->bindings.items[L->innermost.items[name]];
}

static void lowering_error(lowerer *L, TSNode node, const char *code, const char *message) {
  if (failed(L)) return;
  if (!vxp_diag__add(L->ctx, L->diags, VXP_SEVERITY_ERROR, code, L->src, ts_node_start_byte(node),
                     ts_node_end_byte(node), "%s", message))
    oom(L);
}

/* Depth guard for the recursive walk; reports once per function. */
static bool enter(lowerer *L, TSNode node) {
  if (L->depth >= VXP_MAX_NESTING) {
    if (!L->too_deep) {
      L->too_deep = true;
      char msg[160];
      snprintf(msg, sizeof(msg),
               "syntax nested more than %d levels deep; vxpeak does not analyse this "
               "function, so it cannot be admitted",
               VXP_MAX_NESTING);
      lowering_error(L, node, "VXP0003", msg);
    }
    return false;
  }
  L->depth++;
  return true;
}

static void leave(lowerer *L) { L->depth--; }

/* ------------------------------------------------------------------ number literals */

bool vxp_lower__number(const char *text, size_t len, uint64_t *value, vxp_elem *suffix,
                       bool *is_float, bool *too_big) {
  size_t split = 0;
  while (split < len && ((text[split] >= '0' && text[split] <= '9') || text[split] == '.'))
    split++;
  *value = 0;
  *suffix = VXP_ELEM_UNKNOWN;
  *is_float = false;
  *too_big = false;
  /* vxc splits at the first alphabetic character or `_`; anything after that must be an
   * element type name. Non-ASCII letters also start the suffix. */
  if (split < len) {
    *suffix = vxp_elem__from_name(text + split, len - split);
    if (*suffix == VXP_ELEM_UNKNOWN) return false;
  }
  size_t dots = 0;
  for (size_t i = 0; i < split; i++)
    dots += text[i] == '.';
  if (dots > 1 || split == 0 || text[split - 1] == '.') return false;
  if (dots == 1) {
    *is_float = true;
    return true;
  }
  uint64_t v = 0;
  for (size_t i = 0; i < split; i++) {
    if (!vxp_mul_u64(v, 10, &v) || !vxp_add_u64(v, (uint64_t)(text[i] - '0'), &v)) {
      *too_big = true;
      return true;
    }
  }
  *value = v;
  return true;
}

/* ------------------------------------------------------------------ constant expressions */

static uint32_t add_cexpr(lowerer *L, vxp_cexpr cx, TSNode node) {
  if (failed(L)) return VXP_NONE;
  cx.start_byte = ts_node_start_byte(node);
  cx.end_byte = ts_node_end_byte(node);
  if (!array_push(L->ctx, &L->m->cexprs, cx)) {
    oom(L);
    return VXP_NONE;
  }
  return (uint32_t)(L->m->cexprs.len - 1);
}

static vxp_cexpr cexpr_of(vxp_cexpr_kind kind) {
  vxp_cexpr cx;
  memset(&cx, 0, sizeof(cx));
  cx.kind = (uint8_t)kind;
  cx.lhs = cx.rhs = cx.alt = VXP_NONE;
  return cx;
}

static uint32_t opaque(lowerer *L, TSNode node, vxp_opaque_reason reason) {
  vxp_cexpr cx = cexpr_of(VXP_CX_OPAQUE);
  cx.reason = (uint8_t)reason;
  return add_cexpr(L, cx, node);
}

static vxp_cop binary_op(const char *s, size_t len) {
  static const struct {
    const char *text;
    vxp_cop op;
  } ops[] = {{"+", VXP_OP_ADD}, {"-", VXP_OP_SUB},    {"*", VXP_OP_MUL},   {"/", VXP_OP_DIV},
             {"%", VXP_OP_REM}, {"==", VXP_OP_EQ},    {"!=", VXP_OP_NE},   {"<", VXP_OP_LT},
             {">", VXP_OP_GT},  {"<=", VXP_OP_LE},    {">=", VXP_OP_GE},   {"&&", VXP_OP_AND},
             {"||", VXP_OP_OR}, {"&", VXP_OP_BITAND}, {"|", VXP_OP_BITOR}, {"^", VXP_OP_BITXOR}};
  for (size_t i = 0; i < VXP__ARRAY_LEN(ops); i++) {
    if (strlen(ops[i].text) == len && memcmp(ops[i].text, s, len) == 0) return ops[i].op;
  }
  return VXP_OP_NONE;
}

static uint32_t lower_cexpr(lowerer *L, TSNode node);

static bool in_generic_scope(lowerer *L, vxp_name name) {
  for (size_t i = L->generic_scope.len; i-- > 0;)
    if (L->generic_scope.items[i] == name) return true;
  return false;
}

/* What `name` refers to here: the innermost binding wins, as in the language. */
static vxp_name_scope name_scope(lowerer *L, vxp_name name) {
  if (L->runtime_condition) return VXP_NAMESCOPE_RUNTIME;
  if (lookup(L, name)) return VXP_NAMESCOPE_LOCAL;
  if (in_generic_scope(L, name)) return VXP_NAMESCOPE_GENERIC;
  return VXP_NAMESCOPE_FREE;
}

/* Push the generic parameters of an item (`<T, const N : i32>`); returns the previous
 * depth, for pop_generics. */
static size_t push_generics(lowerer *L, TSNode generics) {
  size_t mark = L->generic_scope.len;
  uint32_t count = vxp_node__named_count(generics);
  for (uint32_t i = 0; i < count && !failed(L); i++) {
    TSNode g = ts_node_named_child(generics, i);
    if (is_extra(L, g)) continue;
    vxp_name n = intern_node(L, field(L, g, L->F->name));
    if (n != VXP_NAME_NONE && !array_push(L->ctx, &L->generic_scope, n)) oom(L);
  }
  return mark;
}

static void pop_generics(lowerer *L, size_t mark) { L->generic_scope.len = mark; }

static uint32_t lower_number_cexpr(lowerer *L, TSNode node) {
  size_t len;
  const char *s = text_of(L, node, &len);
  uint64_t value;
  vxp_elem suffix;
  bool is_float, too_big;
  if (!vxp_lower__number(s, len, &value, &suffix, &is_float, &too_big))
    return opaque(L, node, VXP_OPAQUE_OTHER); /* reported once by check_number */
  if (is_float) return opaque(L, node, VXP_OPAQUE_FLOAT);
  vxp_cexpr cx = cexpr_of(too_big ? VXP_CX_BIGINT : VXP_CX_INT);
  cx.value = value;
  cx.suffix = (uint8_t)suffix;
  return add_cexpr(L, cx, node);
}

/* The value of a block evaluated at compile time: its `let`s bind names to constant
 * expressions for the rest of the block, its trailing expression is the value. Any other
 * statement (an assignment, a loop, a call for its effect) makes the block opaque: vxpeak
 * folds expressions, it does not interpret programs. */
static uint32_t lower_cexpr_block(lowerer *L, TSNode block) {
  if (ts_node_is_null(block)) return VXP_NONE;
  size_t base = L->cx_lets.len;
  TSNode trailing = field(L, block, L->F->value);
  /* A block-like expression ending the block without a `;` (`comptime { if c { 1 } else
   * { 2 } }`) parses as an expression statement, but it is the block's value. */
  if (ts_node_is_null(trailing)) {
    uint32_t n = vxp_node__named_count(block);
    TSNode last = n ? ts_node_named_child(block, n - 1) : trailing;
    uint32_t parts = ts_node_is_null(last) ? 0 : ts_node_child_count(last);
    if (vxp_node__is(last, L->S->expression_statement) && parts == 1)
      trailing = ts_node_named_child(last, 0);
  }
  uint32_t result = VXP_NONE;
  bool opaque_block = false;
  TSTreeCursor cursor = ts_tree_cursor_new(block);
  bool more = ts_tree_cursor_goto_first_child(&cursor);
  for (; more && !failed(L) && !opaque_block; more = ts_tree_cursor_goto_next_sibling(&cursor)) {
    TSNode child = ts_tree_cursor_current_node(&cursor);
    if (!ts_node_is_named(child) || is_extra(L, child)) continue;
    if (!ts_node_is_null(trailing) && vxp_node__is(child, L->S->expression_statement) &&
        ts_node_eq(ts_node_named_child(child, 0), trailing))
      child = trailing;
    if (!ts_node_is_null(trailing) && ts_node_eq(child, trailing)) {
      result = lower_cexpr(L, child);
    } else if (vxp_node__is(child, L->S->let_declaration) &&
               ts_node_is_null(field(L, child, L->F->name))) {
      opaque_block = true; /* `let (a, b) = ...`: comptime does not fold tuples */
    } else if (vxp_node__is(child, L->S->let_declaration)) {
      binding b;
      memset(&b, 0, sizeof(b));
      b.name = intern_node(L, field(L, child, L->F->name));
      b.value.type = lower_cexpr(L, field(L, child, L->F->value));
      if (!failed(L) && !array_push(L->ctx, &L->cx_lets, b)) oom(L);
    } else {
      opaque_block = true;
    }
  }
  ts_tree_cursor_delete(&cursor);
  L->cx_lets.len = base;
  if (opaque_block || ts_node_is_null(trailing)) return opaque(L, block, VXP_OPAQUE_OTHER);
  return result;
}

/* `if c { a } else { b }` as a value: a SELECT, folded arm by arm as comptime runs it. */
static uint32_t lower_cexpr_if(lowerer *L, TSNode node) {
  TSNode alternative = field(L, node, L->F->alternative);
  TSNode arm = ts_node_is_null(alternative) ? alternative : ts_node_named_child(alternative, 0);
  if (ts_node_is_null(arm)) return opaque(L, node, VXP_OPAQUE_OTHER);
  vxp_cexpr cx = cexpr_of(VXP_CX_SELECT);
  cx.lhs = lower_cexpr(L, field(L, node, L->F->condition));
  cx.rhs = lower_cexpr_block(L, field(L, node, L->F->consequence));
  cx.alt = vxp_node__is(arm, L->S->block) ? lower_cexpr_block(L, arm) : lower_cexpr(L, arm);
  return add_cexpr(L, cx, node);
}

/* `Transfer<A, B>` (or `Reachable<A, B>`) with two places as arguments: a comptime
 * predicate, true when a transfer from A to B routes (vxc: "a transfer path exists in the
 * cost graph"). Any other generic name is opaque. */
static uint32_t lower_cexpr_predicate(lowerer *L, TSNode node) {
  size_t len = 0;
  TSNode name = field(L, node, L->F->name);
  const char *s = ts_node_is_null(name) ? "" : text_of(L, name, &len);
  TSNode args = field(L, node, L->F->arguments);
  bool predicate = !ts_node_is_null(name) && ((len == 8 && memcmp(s, "Transfer", 8) == 0) ||
                                              (len == 9 && memcmp(s, "Reachable", 9) == 0));
  if (!predicate || vxp_node__named_count(args) != 2) return opaque(L, node, VXP_OPAQUE_OTHER);
  TSNode a = ts_node_named_child(args, 0), b = ts_node_named_child(args, 1);
  bool a_topology = vxp_node__is(a, L->S->topology_path),
       b_topology = vxp_node__is(b, L->S->topology_path);
  if ((!a_topology && !vxp_node__is(a, L->S->memory_path)) ||
      (!b_topology && !vxp_node__is(b, L->S->memory_path)))
    return opaque(L, node, VXP_OPAQUE_OTHER);
  vxp_cexpr cx = cexpr_of(VXP_CX_REACHABLE);
  cx.name = intern_node(L, field(L, a, L->F->name));
  cx.value = intern_node(L, field(L, b, L->F->name));
  cx.op = (uint8_t)((a_topology ? 1 : 0) | (b_topology ? 2 : 0));
  return add_cexpr(L, cx, node);
}

static uint32_t lower_cexpr_inner(lowerer *L, TSNode node) {
  const vxp_symbols *S = L->S;
  TSSymbol sym = ts_node_symbol(node);
  if (sym == S->number) return lower_number_cexpr(L, node);
  if (sym == S->identifier || sym == S->type_identifier) {
    vxp_cexpr cx = cexpr_of(VXP_CX_NAME);
    cx.name = intern_node(L, node);
    /* A name bound by a `let` of an enclosing comptime block stands for its value. */
    for (size_t i = L->cx_lets.len; i-- > 0;) {
      if (L->cx_lets.items[i].name == cx.name) return L->cx_lets.items[i].value.type;
    }
    cx.scope = (uint8_t)name_scope(L, cx.name);
    return add_cexpr(L, cx, node);
  }
  if (sym == S->comptime_block) return lower_cexpr_block(L, field(L, node, L->F->body));
  if (sym == S->if_expression) return lower_cexpr_if(L, node);
  if (sym == S->boolean) {
    size_t len;
    const char *s = text_of(L, node, &len);
    vxp_cexpr cx = cexpr_of(VXP_CX_BOOL);
    cx.value = (len == 4 && memcmp(s, "true", 4) == 0);
    return add_cexpr(L, cx, node);
  }
  if (sym == S->parenthesized_expression || sym == S->const_argument) {
    TSNode inner = ts_node_named_child(node, 0);
    /* `const_argument` may be `-x`: its only named child is x and the first token is `-`. */
    if (sym == S->const_argument && ts_node_child_count(node) == 2) {
      uint32_t operand = lower_cexpr(L, inner);
      vxp_cexpr cx = cexpr_of(VXP_CX_UNARY);
      cx.op = VXP_OP_NEG;
      cx.lhs = operand;
      return add_cexpr(L, cx, node);
    }
    return ts_node_is_null(inner) ? opaque(L, node, VXP_OPAQUE_OTHER) : lower_cexpr(L, inner);
  }
  if (sym == S->binary_expression || sym == S->const_binary_expression) {
    TSNode op_node = field(L, node, L->F->operator);
    size_t len;
    const char *op_text = text_of(L, op_node, &len);
    vxp_cop op = binary_op(op_text, len);
    if (op == VXP_OP_NONE) return opaque(L, node, VXP_OPAQUE_OTHER); /* `@` */
    uint32_t lhs = lower_cexpr(L, field(L, node, L->F->left));
    uint32_t rhs = lower_cexpr(L, field(L, node, L->F->right));
    vxp_cexpr cx = cexpr_of(VXP_CX_BINARY);
    cx.op = (uint8_t)op;
    cx.lhs = lhs;
    cx.rhs = rhs;
    return add_cexpr(L, cx, node);
  }
  if (sym == S->unary_expression) {
    TSNode op_node = field(L, node, L->F->operator);
    size_t len;
    const char *op_text = text_of(L, op_node, &len);
    if (len != 1 || (op_text[0] != '-' && op_text[0] != '!'))
      return opaque(L, node, VXP_OPAQUE_OTHER);
    uint32_t operand = lower_cexpr(L, field(L, node, L->F->operand));
    vxp_cexpr cx = cexpr_of(VXP_CX_UNARY);
    cx.op = op_text[0] == '-' ? VXP_OP_NEG : VXP_OP_NOT;
    cx.lhs = operand;
    return add_cexpr(L, cx, node);
  }
  if (sym == S->generic_name) return lower_cexpr_predicate(L, node);
  if (sym == S->dynamic_dimension) return opaque(L, node, VXP_OPAQUE_DYNAMIC);
  if (sym == S->call_expression || sym == S->tensor_constructor)
    return opaque(L, node, VXP_OPAQUE_CALL);
  return opaque(L, node, VXP_OPAQUE_OTHER);
}

static uint32_t lower_cexpr(lowerer *L, TSNode node) {
  if (failed(L)) return VXP_NONE;
  if (ts_node_is_null(node)) return VXP_NONE;
  if (!enter(L, node)) return opaque(L, node, VXP_OPAQUE_OTHER);
  uint32_t cx = lower_cexpr_inner(L, node);
  leave(L);
  return cx;
}

/* ------------------------------------------------------------------ places and types */

static vxp_place lower_place(lowerer *L, TSNode node) {
  vxp_place p;
  memset(&p, 0, sizeof(p));
  p.index = VXP_NONE;
  if (ts_node_is_null(node)) return p;
  p.start_byte = ts_node_start_byte(node);
  p.end_byte = ts_node_end_byte(node);
  if (vxp_node__is(node, L->S->memory_path)) {
    p.kind = VXP_PLACE_MEMORY;
    p.name = intern_node(L, field(L, node, L->F->name));
  } else if (vxp_node__is(node, L->S->topology_path)) {
    p.kind = VXP_PLACE_TOPOLOGY;
    p.name = intern_node(L, field(L, node, L->F->name));
    TSNode index = field(L, node, L->F->index);
    if (!ts_node_is_null(index)) p.index = lower_cexpr(L, index);
  } else if (vxp_node__is(node, L->S->identifier)) {
    /* A topology variable or generic topology parameter. */
    p.kind = VXP_PLACE_TOPOLOGY;
    p.variable = true;
    p.name = intern_node(L, node);
  }
  return p;
}

static uint32_t add_type(lowerer *L, vxp_tensor_type t) {
  if (failed(L)) return VXP_NONE;
  if (!array_push(L->ctx, &L->m->types, t)) {
    oom(L);
    return VXP_NONE;
  }
  return (uint32_t)(L->m->types.len - 1);
}

static uint32_t lower_tensor_type(lowerer *L, TSNode node) {
  vxp_tensor_type t;
  memset(&t, 0, sizeof(t));
  t.placement.index = VXP_NONE;
  t.start_byte = ts_node_start_byte(node);
  t.end_byte = ts_node_end_byte(node);
  TSNode elem = field(L, node, L->F->element);
  if (!ts_node_is_null(elem)) {
    size_t len;
    const char *s = text_of(L, elem, &len);
    if (vxp_node__is(elem, L->S->type_identifier)) t.elem = (uint8_t)vxp_elem__from_name(s, len);
    t.elem_name = intern_node(L, elem);
    t.elem_start = ts_node_start_byte(elem);
    t.elem_end = ts_node_end_byte(elem);
    t.elem_generic = t.elem == VXP_ELEM_UNKNOWN && in_generic_scope(L, t.elem_name);
  }
  TSNode shape = field(L, node, L->F->dims);
  if (!ts_node_is_null(shape)) {
    t.has_shape = true;
    t.dims_first = (uint32_t)L->m->dim_list.len;
    uint32_t count = vxp_node__named_count(shape);
    for (uint32_t i = 0; i < count && !failed(L); i++) {
      TSNode dim = ts_node_named_child(shape, i);
      if (is_extra(L, dim)) continue;
      uint32_t cx = lower_cexpr(L, dim);
      if (!array_push(L->ctx, &L->m->dim_list, cx)) oom(L);
      t.dims_count++;
    }
  }
  t.placement = lower_place(L, field(L, node, L->F->placement));
  return add_type(L, t);
}

/* The tensor type a type node denotes, with wrappers applied; VXP_NONE for any other type
 * (references and raw pointers borrow a tile, they do not hold one). */
static uint32_t lower_type(lowerer *L, TSNode node) {
  if (ts_node_is_null(node) || failed(L)) return VXP_NONE;
  const vxp_symbols *S = L->S;
  TSSymbol sym = ts_node_symbol(node);
  if (sym == S->tensor_type) return lower_tensor_type(L, node);
  if (sym == S->ref_type || sym == S->pinned_type) {
    uint32_t inner = lower_type(L, field(L, node, L->F->type));
    if (inner == VXP_NONE) return VXP_NONE;
    vxp_tensor_type t = L->m->types.items[inner];
    t.wrapper = (uint8_t)(sym == S->ref_type ? VXP_WRAP_REF : VXP_WRAP_PINNED);
    t.placement = lower_place(L, field(L, node, sym == S->ref_type ? L->F->space : L->F->topology));
    t.start_byte = ts_node_start_byte(node);
    t.end_byte = ts_node_end_byte(node);
    return add_type(L, t);
  }
  return VXP_NONE;
}

static bool type_is_placed(lowerer *L, uint32_t type) {
  return type != VXP_NONE && L->m->types.items[type].placement.kind != VXP_PLACE_NONE;
}

static vxp_origin origin_of_type(lowerer *L, uint32_t type) {
  vxp_origin o;
  memset(&o, 0, sizeof(o));
  o.place.index = VXP_NONE;
  o.known = true;
  if (type != VXP_NONE) o.place = L->m->types.items[type].placement;
  return o;
}

/* The nominal type name of a type node (`S`, `S<T>` -> S), for method resolution. */
static vxp_name nominal_name(lowerer *L, TSNode node) {
  if (ts_node_is_null(node)) return VXP_NAME_NONE;
  if (vxp_node__is(node, L->S->type_identifier)) return intern_node(L, node);
  if (vxp_node__is(node, L->S->generic_type)) return nominal_name(L, field(L, node, L->F->name));
  if (vxp_node__is(node, L->S->scoped_type_identifier)) return intern_node(L, node);
  return VXP_NAME_NONE;
}

static void record_declared(lowerer *L, vxp_declared_kind kind, vxp_name owner, vxp_name member,
                            TSNode type_node) {
  uint32_t type = lower_type(L, type_node);
  if (!type_is_placed(L, type)) return;
  vxp_declared d = {(uint8_t)kind,
                    owner,
                    member,
                    type,
                    ts_node_start_byte(type_node),
                    ts_node_end_byte(type_node)};
  if (!array_push(L->ctx, &L->m->declared, d)) oom(L);
}

/* ------------------------------------------------------------------ names to resolve */

/* Keep the type or topology name `name_node` (written as `span`) for resolution. A name in
 * a function body records how many of its events precede it, so that one inside an `if
 * comptime` arm the analysis prunes can be told apart. */
static void add_ref(lowerer *L, vxp_ref_kind kind, TSNode name_node, TSNode span, bool in_body) {
  if (failed(L) || ts_node_is_null(name_node) || ts_node_is_missing(name_node)) return;
  vxp_name_ref r;
  memset(&r, 0, sizeof(r));
  r.kind = (uint8_t)kind;
  r.name = intern_node(L, name_node);
  /* `Topology::D` in `fn f<D : Topology>`: the generic parameter, bound per instance. */
  if (kind == VXP_REF_TOPOLOGY && in_generic_scope(L, r.name)) return;
  r.function = L->fn_stack.len ? *array_last(&L->fn_stack) : VXP_NONE;
  r.in_body = in_body && r.function != VXP_NONE;
  r.event = r.in_body ? (uint32_t)current_fn(L)->events.len : 0;
  r.start_byte = ts_node_start_byte(span);
  r.end_byte = ts_node_end_byte(span);
  if (r.name != VXP_NAME_NONE && !array_push(L->ctx, &L->m->refs, r)) oom(L);
}

/* The `Topology::X` among the generic arguments of `args` (`Transfer<Topology::A,
 * Topology::B>` in an expression). */
static void ref_topology_arguments(lowerer *L, TSNode args, bool in_body) {
  uint32_t count = vxp_node__named_count(args);
  for (uint32_t i = 0; i < count && !failed(L); i++) {
    TSNode a = ts_node_named_child(args, i);
    if (vxp_node__is(a, L->S->topology_path))
      add_ref(L, VXP_REF_TOPOLOGY, field(L, a, L->F->name), a, in_body);
  }
}

/* The nominal types a signature's type names: `Point`, `Vec<Point>`, `&mut Point`, with
 * their generic arguments. Generic parameters in scope and element types need nothing; a
 * tensor's element is E1012's (resolve.c) and a path (`Self::Item`, `m::T`) is not
 * resolved here. `depth` bounds the walk (the parser bounds the nesting already). */
static void ref_types(lowerer *L, TSNode node, unsigned depth) {
  if (ts_node_is_null(node) || failed(L) || depth > 64) return;
  if (vxp_node__is_error(node) || ts_node_is_missing(node)) return;
  const vxp_symbols *S = L->S;
  TSSymbol sym = ts_node_symbol(node);
  if (sym == S->type_identifier) {
    size_t len;
    const char *s = text_of(L, node, &len);
    vxp_name n = intern_node(L, node);
    if (vxp_elem__from_name(s, len) == VXP_ELEM_UNKNOWN && !in_generic_scope(L, n))
      add_ref(L, VXP_REF_TYPE, node, node, false);
  } else if (sym == S->generic_type) {
    ref_types(L, field(L, node, L->F->name), depth + 1);
    TSNode args = field(L, node, L->F->arguments);
    uint32_t count = vxp_node__named_count(args);
    for (uint32_t i = 0; i < count && !failed(L); i++) {
      TSNode a = ts_node_named_child(args, i);
      if (vxp_node__is(a, S->topology_path))
        add_ref(L, VXP_REF_TOPOLOGY, field(L, a, L->F->name), a, false);
      else if (vxp_node__is(a, S->type_binding))
        ref_types(L, field(L, a, L->F->type), depth + 1);
      else if (!vxp_node__is(a, S->const_argument) && !vxp_node__is(a, S->memory_path))
        ref_types(L, a, depth + 1);
    }
  } else if (sym == S->reference_type || sym == S->pointer_type || sym == S->verified_type ||
             sym == S->ref_type || sym == S->pinned_type) {
    ref_types(L, field(L, node, L->F->type), depth + 1);
  } else if (sym == S->function_type || sym == S->closure_type) {
    uint32_t count = vxp_node__named_count(node);
    for (uint32_t i = 0; i < count && !failed(L); i++)
      ref_types(L, ts_node_named_child(node, i), depth + 1);
  }
}

/* ------------------------------------------------------------------ expressions */

static value_info lower_expr(lowerer *L, TSNode node, vxp_name binding_target);
static value_info lower_block_body(lowerer *L, TSNode block);
static void lower_statement(lowerer *L, TSNode node);

/* Report malformed number tokens (`0x1F`, `1e10`, `3.3.5`, `4MiB`) where they appear. */
static void check_number(lowerer *L, TSNode node) {
  size_t len;
  const char *s = text_of(L, node, &len);
  uint64_t value;
  vxp_elem suffix;
  bool is_float, too_big;
  if (vxp_lower__number(s, len, &value, &suffix, &is_float, &too_big)) return;
  if (failed(L)) return;
  if (!vxp_diag__add(L->ctx, L->diags, VXP_SEVERITY_ERROR, "VXP0002", L->src,
                     ts_node_start_byte(node), ts_node_end_byte(node),
                     "malformed number literal '%.*s': a number is decimal digits with at most "
                     "one '.', optionally followed by an element type suffix such as i32 or f16",
                     (int)len, s))
    oom(L);
}

static void lower_children(lowerer *L, TSNode node) {
  uint32_t count = vxp_node__named_count(node);
  for (uint32_t i = 0; i < count && !failed(L); i++) {
    TSNode child = ts_node_named_child(node, i);
    if (!is_extra(L, child)) lower_expr(L, child, VXP_NAME_NONE);
  }
}

/* Identifiers inside a macro's token trees are reads (`print!("{}", x)`). */
static VXP__NOINLINE void read_token_tree(lowerer *L, TSNode node) {
  if (!enter(L, node)) return;
  uint32_t count = vxp_node__named_count(node);
  for (uint32_t i = 0; i < count && !failed(L); i++) {
    TSNode child = ts_node_named_child(node, i);
    if (vxp_node__is(child, L->S->identifier))
      add_read(L, intern_node(L, child));
    else if (vxp_node__is(child, L->S->token_tree))
      read_token_tree(L, child);
  }
  leave(L);
}

static vxp_name callee_name(lowerer *L, TSNode fn_node, uint32_t *generic_first,
                            uint32_t *generic_count) {
  *generic_first = (uint32_t)L->m->dim_list.len;
  *generic_count = 0;
  if (vxp_node__is(fn_node, L->S->generic_name)) {
    TSNode args = field(L, fn_node, L->F->arguments);
    uint32_t count = vxp_node__named_count(args);
    for (uint32_t i = 0; i < count && !failed(L); i++) {
      TSNode arg = ts_node_named_child(args, i);
      if (is_extra(L, arg)) continue;
      uint32_t cx = lower_cexpr(L, arg);
      if (!array_push(L->ctx, &L->m->dim_list, cx)) oom(L);
      (*generic_count)++;
    }
    return intern_node(L, field(L, fn_node, L->F->name));
  }
  return intern_node(L, fn_node);
}

/* The literal type of an argument written as a number or a boolean (vxc's defaults: an
 * unsuffixed integer is i32, a decimal f32), for inferring generic arguments. */
static vxp_elem literal_type(lowerer *L, TSNode node) {
  while (vxp_node__is(node, L->S->parenthesized_expression))
    node = ts_node_named_child(node, 0);
  if (vxp_node__is(node, L->S->boolean)) return VXP_ELEM_BOOL;
  if (!vxp_node__is(node, L->S->number)) return VXP_ELEM_UNKNOWN;
  size_t len;
  const char *s = text_of(L, node, &len);
  uint64_t value;
  vxp_elem suffix;
  bool is_float, too_big;
  if (!vxp_lower__number(s, len, &value, &suffix, &is_float, &too_big)) return VXP_ELEM_UNKNOWN;
  if (suffix != VXP_ELEM_UNKNOWN) return suffix;
  if (is_float) return VXP_ELEM_F32;
  return too_big ? VXP_ELEM_I128 : (value > INT32_MAX ? VXP_ELEM_I64 : VXP_ELEM_I32);
}

/* Lower a call's arguments in order, and record what is known of each in the model's
 * call_args (contiguous per call: nested calls record theirs first and pop them). */
static void lower_arguments(lowerer *L, TSNode args, vxp_call_event *call) {
  size_t base = L->arg_stack.len;
  uint32_t count = vxp_node__named_count(args);
  for (uint32_t i = 0; i < count && !failed(L); i++) {
    TSNode child = ts_node_named_child(args, i);
    if (is_extra(L, child)) continue;
    value_info v = lower_expr(L, child, VXP_NAME_NONE);
    vxp_call_arg a = {v.type, (uint8_t)literal_type(L, child), v.nominal};
    if (!failed(L) && !array_push(L->ctx, &L->arg_stack, a)) oom(L);
  }
  call->args_first = (uint32_t)L->m->call_args.len;
  call->args_count = 0;
  for (size_t i = base; i < L->arg_stack.len && !failed(L); i++) {
    if (!array_push(L->ctx, &L->m->call_args, L->arg_stack.items[i])) oom(L);
    call->args_count++;
  }
  L->arg_stack.len = base;
}

/* The first-declared signature named `name`, or NULL: a binary search of the signatures,
 * which vxp_lower__program sorts by (name, order) once they are all collected, so that a file
 * with many calls stays linear-logarithmic rather than quadratic. */
static const fn_signature *find_signature(lowerer *L, vxp_name name) {
  size_t lo = 0, hi = L->signatures.len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (L->signatures.items[mid].name < name)
      lo = mid + 1;
    else
      hi = mid;
  }
  return (lo < L->signatures.len && L->signatures.items[lo].name == name) ? &L->signatures.items[lo]
                                                                          : NULL;
}

static int compare_signatures(const void *a, const void *b) {
  const fn_signature *x = a, *y = b;
  if (x->name != y->name) return x->name < y->name ? -1 : 1;
  return (x->order > y->order) - (x->order < y->order);
}

static VXP__NOINLINE value_info lower_call(lowerer *L, TSNode node) {
  TSNode fn_node = field(L, node, L->F->function);
  if (ts_node_is_null(fn_node)) return no_value;
  vxp_event ev;
  memset(&ev, 0, sizeof(ev));
  ev.kind = VXP_EV_CALL;
  vxp_call_event *call = &ev.u.call;
  call->start_byte = ts_node_start_byte(node);
  call->end_byte = ts_node_end_byte(node);
  call->generic_first = (uint32_t)L->m->dim_list.len;
  value_info result = no_value;
  TSSymbol sym = ts_node_symbol(fn_node);
  if (sym == L->S->identifier || sym == L->S->scoped_identifier || sym == L->S->generic_name) {
    call->callee = callee_name(L, fn_node, &call->generic_first, &call->generic_count);
    if (sym == L->S->identifier) {
      add_read(L, call->callee);
      binding *b = lookup(L, call->callee);
      if (b && b->value.closure_fn != VXP_NONE) {
        call->callee = L->m->functions.items[b->value.closure_fn].name;
      } else if (b) {
        call->indirect = true; /* a call through a function value */
      }
    }
    const fn_signature *sig = call->generic_count == 0 ? find_signature(L, call->callee) : NULL;
    if (sig) {
      result.type = sig->return_type;
      result.loc = origin_of_type(L, result.type);
      result.nominal = sig->return_nominal;
    }
  } else if (sym == L->S->field_expression) {
    value_info receiver = lower_expr(L, field(L, fn_node, L->F->value), VXP_NAME_NONE);
    call->method = intern_node(L, field(L, fn_node, L->F->field));
    call->receiver_type = receiver.nominal;
  } else {
    /* A closure written where it is called, `(|x| ...)(3)`, calls its own function. */
    value_info callee = lower_expr(L, fn_node, VXP_NAME_NONE);
    if (callee.closure_fn != VXP_NONE && !failed(L))
      call->callee = L->m->functions.items[callee.closure_fn].name;
    else
      call->indirect = true;
  }
  lower_arguments(L, field(L, node, L->F->arguments), call);
  emit(L, &ev);
  return result;
}

static VXP__NOINLINE value_info lower_transfer(lowerer *L, TSNode node) {
  /* What the operand places feeds this transfer: it has a reader whatever the binding. */
  vxp_name target = L->assign_target;
  L->assign_target = VXP_NAME_NONE;
  value_info source = lower_expr(L, field(L, node, L->F->value), VXP_NAME_NONE);
  L->assign_target = target;
  TSNode space = field(L, node, L->F->space);
  vxp_event ev;
  memset(&ev, 0, sizeof(ev));
  ev.kind = VXP_EV_PLACE;
  vxp_place_event *pl = &ev.u.place;
  pl->form = VXP_FORM_TRANSFER;
  pl->type_known = source.type != VXP_NONE;
  pl->type = source.type;
  pl->dest = lower_place(L, space);
  if (pl->dest.kind == VXP_PLACE_NONE) lower_expr(L, space, VXP_NAME_NONE);
  pl->origin = source.loc;
  pl->binding = target;
  pl->start_byte = ts_node_start_byte(node);
  pl->end_byte = ts_node_end_byte(node);
  emit(L, &ev);
  value_info result = source;
  result.loc.known = true;
  result.loc.place = pl->dest;
  return result;
}

static VXP__NOINLINE value_info lower_if(lowerer *L, TSNode node) {
  bool comptime = !ts_node_is_null(field(L, node, L->F->comptime));
  TSNode condition = field(L, node, L->F->condition);
  lower_expr(L, condition, VXP_NAME_NONE);
  /* Only an `if comptime` condition is folded; a run-time one is kept for the record. */
  bool outer = L->runtime_condition;
  L->runtime_condition = !comptime;
  uint32_t cond = lower_cexpr(L, condition);
  L->runtime_condition = outer;
  open_block(L, node, VXP_BLOCK_IF, comptime, cond, VXP_NONE, VXP_NONE);
  value_info value = lower_block_body(L, field(L, node, L->F->consequence));
  close_block(L);
  TSNode alternative = field(L, node, L->F->alternative);
  if (!ts_node_is_null(alternative)) {
    TSNode arm = ts_node_named_child(alternative, 0);
    open_block(L, alternative, VXP_BLOCK_ELSE, comptime, cond, VXP_NONE, VXP_NONE);
    if (vxp_node__is(arm, L->S->block))
      lower_block_body(L, arm);
    else if (!ts_node_is_null(arm))
      lower_expr(L, arm, VXP_NAME_NONE);
    close_block(L);
  }
  return value;
}

static VXP__NOINLINE value_info lower_wrapped_block(lowerer *L, TSNode construct, TSNode block,
                                                    vxp_block_kind kind) {
  open_block(L, construct, kind, false, VXP_NONE, VXP_NONE, VXP_NONE);
  value_info value = lower_block_body(L, block);
  close_block(L);
  return value;
}

/* The names a pattern binds: a bare identifier, and the identifiers among a variant's
 * fields (`Some(n)` binds n; `Shape::Square` binds nothing). */
static void bind_pattern(lowerer *L, TSNode pattern) {
  if (ts_node_is_null(pattern) || failed(L)) return;
  if (vxp_node__is(pattern, L->S->identifier)) {
    bind(L, intern_node(L, pattern), no_value);
    return;
  }
  if (!vxp_node__is(pattern, L->S->variant_pattern)) return;
  uint32_t count = ts_node_child_count(pattern);
  for (uint32_t i = 0; i < count && !failed(L); i++) {
    const char *f = ts_node_field_name_for_child(pattern, i);
    if (f && strcmp(f, "field") == 0) bind_pattern(L, ts_node_child(pattern, i));
  }
}

static VXP__NOINLINE void lower_match(lowerer *L, TSNode node) {
  lower_expr(L, field(L, node, L->F->value), VXP_NAME_NONE);
  TSNode body = field(L, node, L->F->body);
  uint32_t count = vxp_node__named_count(body);
  bool seen_arm = false;
  for (uint32_t i = 0; i < count && !failed(L); i++) {
    TSNode arm = ts_node_named_child(body, i);
    if (!vxp_node__is(arm, L->S->match_arm)) continue;
    bool first_arm = !seen_arm;
    seen_arm = true;
    open_block(L, arm, VXP_BLOCK_MATCH_ARM, false, VXP_NONE, VXP_NONE, VXP_NONE);
    if (!first_arm && !failed(L) && L->fn_stack.len && current_fn(L)->events.len)
      array_last(&current_fn(L)->events)->u.block.continues_match = true;
    push_scope(L);
    bind_pattern(L, field(L, arm, L->F->pattern));
    TSNode value = field(L, arm, L->F->value);
    if (vxp_node__is(value, L->S->block))
      lower_block_body(L, value);
    else if (!ts_node_is_null(value))
      lower_statement(L, value);
    pop_scope(L);
    close_block(L);
  }
}

/* A closure body is lowered as a function of its own (vxc calls its instance), named after
 * the binding it is assigned to or its position. */
/* The closure's name (its buffers kept out of lower_closure's frame, which a chain of nested
 * closures holds per level). */
static VXP__NOINLINE vxp_name closure_name(lowerer *L, TSNode node, vxp_name binding_target) {
  char label[64];
  vxp_point at = vxp_source__point(L->src, ts_node_start_byte(node));
  const char *outer = vxp_strtab__str(&L->m->names, current_fn(L)->name);
  const char *inner = binding_target ? vxp_strtab__str(&L->m->names, binding_target) : NULL;
  char name[512];
  if (inner)
    snprintf(name, sizeof(name), "%s::%s", outer, inner);
  else {
    snprintf(label, sizeof(label), "{closure@%u:%u}", at.line + 1, at.column + 1);
    snprintf(name, sizeof(name), "%s::%s", outer, label);
  }
  return intern_text(L, name, strlen(name));
}

static VXP__NOINLINE value_info lower_closure(lowerer *L, TSNode node, vxp_name binding_target) {
  vxp_function fn;
  memset(&fn, 0, sizeof(fn));
  fn.name = closure_name(L, node, binding_target);
  fn.start_byte = fn.name_start = ts_node_start_byte(node);
  fn.end_byte = fn.name_end = ts_node_end_byte(node);
  fn.is_closure = true;
  fn.parent = *array_last(&L->fn_stack);
  if (failed(L) || !array_push(L->ctx, &L->m->functions, fn) ||
      !array_push(L->ctx, &L->fn_stack, (uint32_t)(L->m->functions.len - 1))) {
    oom(L);
    return no_value;
  }
  uint32_t index = (uint32_t)(L->m->functions.len - 1);
  push_scope(L);
  TSNode params = field(L, node, L->F->parameters);
  uint32_t count = vxp_node__named_count(params);
  for (uint32_t i = 0; i < count; i++) {
    TSNode p = ts_node_named_child(params, i);
    TSNode pname = field(L, p, L->F->name);
    if (!ts_node_is_null(pname)) bind(L, intern_node(L, pname), no_value);
  }
  vxp_name target = L->assign_target; /* a closure's body is a function of its own */
  L->assign_target = VXP_NAME_NONE;
  lower_expr(L, field(L, node, L->F->body), VXP_NAME_NONE);
  L->assign_target = target;
  pop_scope(L);
  L->fn_stack.len--;
  value_info v = no_value;
  v.closure_fn = index;
  return v;
}

static void record_access(lowerer *L, vxp_access_kind kind, const vxp_access *proto) {
  if (failed(L) || L->fn_stack.len == 0) return;
  vxp_function *fn = current_fn(L);
  vxp_access a = *proto;
  a.kind = (uint8_t)kind;
  a.event = (uint32_t)fn->events.len;
  if (!array_push(L->ctx, &fn->accesses, a)) oom(L);
}

static void record_arith(lowerer *L, vxp_arith_kind kind, vxp_elem elem, TSNode node) {
  if (failed(L) || L->fn_stack.len == 0) return;
  vxp_function *fn = current_fn(L);
  vxp_arith a = {(uint8_t)kind, (uint8_t)elem, (uint32_t)fn->events.len, ts_node_start_byte(node),
                 ts_node_end_byte(node)};
  if (!array_push(L->ctx, &fn->ariths, a)) oom(L);
}

/* The element type of an arithmetic operation on `a` and `b`: a tensor element's type
 * first (the data the hardware streams decides the unit that runs it: `w[i] * 2.0` is an
 * f16 multiply when w holds f16), then a typed scalar's. */
static vxp_elem arith_elem(const value_info *a, const value_info *b) {
  if (a->elem_of_tensor && a->elem) return (vxp_elem)a->elem;
  if (b->elem_of_tensor && b->elem) return (vxp_elem)b->elem;
  return (vxp_elem)(a->elem ? a->elem : b->elem);
}

/* One arithmetic operation inside a spawn region, on operands `a` and `b`: recorded, and
 * the value it makes (its element type) returned. */
static value_info arith(lowerer *L, TSNode node, const value_info *a, const value_info *b) {
  value_info v = no_value;
  /* Index and loop-bound arithmetic computes addresses and trip counts, not data. */
  if (L->spawn_depth == 0 || L->address_depth > 0) return v;
  vxp_elem e = arith_elem(a, b);
  if (a->slice || b->slice)
    record_arith(L, VXP_ARITH_SLICE, VXP_ELEM_UNKNOWN, node);
  else
    record_arith(L, e ? VXP_ARITH_SCALAR : VXP_ARITH_UNTYPED, e, node);
  v.elem = (uint8_t)e;
  v.elem_of_tensor = a->elem_of_tensor || b->elem_of_tensor;
  return v;
}

/* `x[i][j]` inside a spawn region: the indices are ordinary expressions (they may read
 * other elements), the base variable is read, and the access itself is recorded for the
 * roofline as a read, a write, or both. A base that is not a plain name (a field, a call)
 * is recorded with no tensor, which the roofline reports as uncountable. */
static VXP__NOINLINE value_info lower_element_access(lowerer *L, TSNode node, bool read,
                                                     bool write) {
  vxp_access a;
  memset(&a, 0, sizeof(a));
  a.type = VXP_NONE;
  a.loc.place.index = VXP_NONE;
  a.start_byte = ts_node_start_byte(node);
  a.end_byte = ts_node_end_byte(node);
  TSNode base = node;
  while (vxp_node__is(base, L->S->index_expression) && !failed(L)) {
    L->address_depth++;
    lower_expr(L, field(L, base, L->F->index), VXP_NAME_NONE);
    L->address_depth--;
    a.indices++;
    base = field(L, base, L->F->value);
  }
  if (vxp_node__is(base, L->S->identifier)) {
    a.tensor = intern_node(L, base);
    add_read(L, a.tensor);
    binding *b = lookup(L, a.tensor);
    if (b) {
      a.type = b->value.type;
      a.loc = b->value.loc;
    }
  } else {
    lower_expr(L, base, VXP_NAME_NONE);
  }
  if (read) record_access(L, VXP_ACCESS_READ, &a);
  if (write) record_access(L, VXP_ACCESS_WRITE, &a);
  /* The element's type, for the arithmetic it feeds; fewer indices than the rank is a slice. */
  value_info v = no_value;
  if (a.type != VXP_NONE && a.type < L->m->types.len) {
    const vxp_tensor_type *t = &L->m->types.items[a.type];
    v.elem = t->elem;
    v.elem_of_tensor = t->elem != VXP_ELEM_UNKNOWN;
    v.slice = t->has_shape && a.indices < t->dims_count;
  }
  return v;
}

/* Whether `node` is a dimension the analysis can fold: an integer literal, a name no run-time
 * binding in scope holds (a const item, a -D name, a const-generic parameter), a unary `-`
 * of one, or `+ - * / %` of two. A run-time `let` or parameter, a float, a call or a field
 * makes the shape a run-time one. */
static bool constant_dim(lowerer *L, TSNode node, unsigned depth) {
  const vxp_symbols *S = L->S;
  if (ts_node_is_null(node) || depth > VXP_MAX_NESTING) return false;
  TSSymbol sym = ts_node_symbol(node);
  size_t len;
  if (sym == S->number) {
    const char *s = text_of(L, node, &len);
    uint64_t value;
    vxp_elem suffix;
    bool is_float, too_big;
    return vxp_lower__number(s, len, &value, &suffix, &is_float, &too_big) && !is_float && !too_big;
  }
  if (sym == S->identifier) return lookup(L, intern_node(L, node)) == NULL;
  if (sym == S->parenthesized_expression)
    return constant_dim(L, ts_node_named_child(node, 0), depth + 1);
  if (sym == S->unary_expression) {
    const char *op = text_of(L, field(L, node, L->F->operator), &len);
    return len == 1 && op[0] == '-' && constant_dim(L, field(L, node, L->F->operand), depth + 1);
  }
  if (sym == S->binary_expression) {
    const char *op = text_of(L, field(L, node, L->F->operator), &len);
    return len == 1 && strchr("+-*/%", op[0]) &&
           constant_dim(L, field(L, node, L->F->left), depth + 1) &&
           constant_dim(L, field(L, node, L->F->right), depth + 1);
  }
  return false;
}

/* `Tensor<f32>([4, 4])`: a constructor whose type names no shape and whose one argument is
 * a list of dimensions makes a tensor of that shape, as vxc types it (its
 * `raw_lowering_shape_mismatch.vx` relates such a tile to a lowering's declared `[2, 2]`,
 * and `Tensor<f32>([N, N])` in `fn stage<const N : i32>` is sized per instance). Each
 * dimension is an expression the analysis folds with its constants, as a
 * `Tensor<f32, [N, N]>` type's are (so `-D` applies). Any other argument (a run-time
 * name, a call, a nested list of values) leaves the shape dynamic: what it holds is known
 * when the program runs, not here. */
static void shape_from_argument(lowerer *L, uint32_t type, TSNode args) {
  if (type == VXP_NONE || failed(L) || L->m->types.items[type].has_shape) return;
  if (L->m->types.items[type].wrapper != VXP_WRAP_NONE) return;
  if (vxp_node__named_count(args) != 1) return;
  TSNode list = ts_node_named_child(args, 0);
  if (!vxp_node__is(list, L->S->array_expression)) return;
  uint32_t count = vxp_node__named_count(list);
  if (count == 0) return;
  for (uint32_t i = 0; i < count; i++)
    if (!constant_dim(L, ts_node_named_child(list, i), 0)) return;
  uint32_t first = (uint32_t)L->m->dim_list.len;
  for (uint32_t i = 0; i < count && !failed(L); i++) {
    uint32_t cx = lower_cexpr(L, ts_node_named_child(list, i));
    if (!array_push(L->ctx, &L->m->dim_list, cx)) oom(L);
  }
  if (failed(L)) return;
  vxp_tensor_type *t = &L->m->types.items[type];
  t->has_shape = true;
  t->dims_first = first;
  t->dims_count = count;
}

/* What lower_expr walks after lower_expr_inner has returned (see there). */
typedef struct then_walk {
  enum { THEN_NOTHING, THEN_CHILDREN, THEN_VALUE_FIELD, THEN_VALUE_ITSELF, THEN_INNER } what;
  TSNode node;
} then_walk;

/* The forms with something of their own to record, each in a function of its own
 * (VXP__NOINLINE): lower_expr_inner only dispatches, so the frames a chain of nested
 * expressions holds per level are lower_expr's, the dispatcher's and the form's own, each
 * small, whatever the other forms need (clang's ASan gave the one function that did
 * everything about 8 KB a frame: 1000 levels of parentheses, calls, casts, operators or
 * closures overflowed an 8 MB stack). */
static VXP__NOINLINE value_info lower_identifier(lowerer *L, TSNode node) {
  vxp_name name = intern_node(L, node);
  add_read(L, name);
  binding *b = lookup(L, name);
  if (!b) return no_value;
  /* A whole tensor as an operand is arithmetic on all its elements (a slice of rank 0). */
  value_info v = b->value;
  if (v.type != VXP_NONE && v.type < L->m->types.len && L->m->types.items[v.type].has_shape &&
      L->m->types.items[v.type].dims_count > 0)
    v.slice = true;
  return v;
}

static VXP__NOINLINE value_info lower_number(lowerer *L, TSNode node) {
  check_number(L, node);
  value_info v = no_value;
  vxp_elem e = literal_type(L, node);
  v.elem = (uint8_t)(e == VXP_ELEM_BOOL ? VXP_ELEM_UNKNOWN : e);
  return v;
}

static VXP__NOINLINE value_info lower_tensor_constructor(lowerer *L, TSNode node) {
  TSNode args = field(L, node, L->F->arguments);
  lower_children(L, args);
  value_info v = no_value;
  v.type = lower_type(L, field(L, node, L->F->type));
  if (ts_node_is_null(field(L, node, L->F->method))) shape_from_argument(L, v.type, args);
  v.loc = origin_of_type(L, v.type);
  return v;
}

static VXP__NOINLINE value_info lower_spawn(lowerer *L, TSNode node) {
  TSNode topology = field(L, node, L->F->topology);
  size_t refs_before = L->m->refs.len;
  lower_expr(L, topology, VXP_NAME_NONE);
  /* The region's own topology: an unknown one is vxc's warning W1025, not an error. */
  if (!failed(L) && L->m->refs.len > refs_before && vxp_node__is(topology, L->S->topology_path) &&
      L->m->refs.items[refs_before].start_byte == ts_node_start_byte(topology))
    L->m->refs.items[refs_before].spawn = true;
  /* The topology a region runs on, for the peak rates its arithmetic counts at. */
  vxp_name on = VXP_NAME_NONE;
  if (vxp_node__is(topology, L->S->topology_path))
    on = intern_node(L, field(L, topology, L->F->name));
  else if (vxp_node__is(topology, L->S->identifier))
    on = intern_node(L, topology);
  size_t open_at = L->fn_stack.len ? current_fn(L)->events.len : 0;
  L->spawn_depth++;
  value_info v = lower_wrapped_block(L, node, field(L, node, L->F->body), VXP_BLOCK_SPAWN);
  L->spawn_depth--;
  if (!failed(L) && L->fn_stack.len && open_at < current_fn(L)->events.len &&
      current_fn(L)->events.items[open_at].kind == VXP_EV_OPEN)
    current_fn(L)->events.items[open_at].u.block.topology = on;
  return v;
}

static VXP__NOINLINE value_info lower_binary(lowerer *L, TSNode node) {
  value_info a = lower_expr(L, field(L, node, L->F->left), VXP_NAME_NONE);
  value_info b = lower_expr(L, field(L, node, L->F->right), VXP_NAME_NONE);
  TSNode op = field(L, node, L->F->operator);
  size_t len = 0;
  const char *o = ts_node_is_null(op) ? "" : text_of(L, op, &len);
  if (len == 1 && strchr("+-*/%", o[0])) return arith(L, node, &a, &b);
  if (len == 1 && o[0] == '@' && L->spawn_depth > 0 && L->address_depth == 0)
    record_arith(L, VXP_ARITH_MATMUL, VXP_ELEM_UNKNOWN, node);
  return no_value;
}

static VXP__NOINLINE value_info lower_cast(lowerer *L, TSNode node) {
  value_info v = lower_expr(L, field(L, node, L->F->value), VXP_NAME_NONE);
  TSNode type = field(L, node, L->F->type);
  size_t len = 0;
  const char *t = ts_node_is_null(type) ? "" : text_of(L, type, &len);
  vxp_elem e = vxp_elem__from_name(t, len);
  value_info out = no_value;
  out.elem = (uint8_t)(e ? e : v.elem);
  out.elem_of_tensor = e ? false : v.elem_of_tensor;
  out.slice = v.slice;
  return out;
}

static VXP__NOINLINE void lower_macro_expression(lowerer *L, TSNode node) {
  add_read(L, intern_node(L, field(L, node, L->F->macro)));
  uint32_t count = vxp_node__named_count(node);
  for (uint32_t i = 0; i < count; i++) {
    TSNode child = ts_node_named_child(node, i);
    if (vxp_node__is(child, L->S->token_tree)) read_token_tree(L, child);
  }
}

static VXP__NOINLINE value_info lower_struct_expression(lowerer *L, TSNode node) {
  TSNode body = field(L, node, L->F->body);
  uint32_t count = vxp_node__named_count(body);
  for (uint32_t i = 0; i < count && !failed(L); i++) {
    TSNode init = ts_node_named_child(body, i);
    TSNode value = field(L, init, L->F->value);
    if (!ts_node_is_null(value)) lower_expr(L, value, VXP_NAME_NONE);
  }
  value_info v = no_value;
  TSNode name = field(L, node, L->F->name);
  v.nominal = vxp_node__is(name, L->S->generic_name) ? intern_node(L, field(L, name, L->F->name))
                                                     : intern_node(L, name);
  return v;
}

static VXP__NOINLINE void lower_path_expression(lowerer *L, TSNode node, TSSymbol sym) {
  if (sym == L->S->topology_path) {
    add_ref(L, VXP_REF_TOPOLOGY, field(L, node, L->F->name), node, true);
    TSNode index = field(L, node, L->F->index);
    if (!ts_node_is_null(index)) lower_expr(L, index, VXP_NAME_NONE);
  }
  if (sym == L->S->generic_name) ref_topology_arguments(L, field(L, node, L->F->arguments), true);
}

/* The dispatch. A form whose value is only its sub-expressions', a field's value, a
 * reference's target or a parenthesised expression's is left to the caller through `*then`,
 * so that no frame of this function stays on the stack for those levels at all. */
static VXP__NOINLINE value_info lower_expr_inner(lowerer *L, TSNode node, vxp_name binding_target,
                                                 then_walk *then) {
  const vxp_symbols *S = L->S;
  TSSymbol sym = ts_node_symbol(node);
  if (sym == S->identifier) return lower_identifier(L, node);
  if (sym == S->number) return lower_number(L, node);
  if (sym == S->transfer_expression) return lower_transfer(L, node);
  if (sym == S->tensor_constructor) return lower_tensor_constructor(L, node);
  if (sym == S->call_expression) return lower_call(L, node);
  if (sym == S->parenthesized_expression) {
    *then = (then_walk){THEN_INNER, ts_node_named_child(node, 0)};
    return no_value;
  }
  if (sym == S->if_expression) return lower_if(L, node);
  if (sym == S->match_expression) {
    lower_match(L, node);
    return no_value;
  }
  if (sym == S->unsafe_block)
    return lower_wrapped_block(L, node, field(L, node, L->F->body), VXP_BLOCK_UNSAFE);
  if (sym == S->comptime_block)
    return lower_wrapped_block(L, node, field(L, node, L->F->body), VXP_BLOCK_COMPTIME);
  if (sym == S->spawn_expression) return lower_spawn(L, node);
  if (sym == S->index_expression && L->spawn_depth > 0)
    return lower_element_access(L, node, true, false);
  if (sym == S->binary_expression) return lower_binary(L, node);
  if (sym == S->cast_expression) return lower_cast(L, node);
  if (sym == S->closure_expression) return lower_closure(L, node, binding_target);
  if (sym == S->macro_invocation) {
    lower_macro_expression(L, node);
    return no_value;
  }
  if (sym == S->struct_expression) return lower_struct_expression(L, node);
  if (sym == S->field_expression) {
    *then = (then_walk){THEN_VALUE_FIELD, field(L, node, L->F->value)};
    return no_value;
  }
  if (sym == S->reference_expression) {
    *then = (then_walk){THEN_VALUE_ITSELF, field(L, node, L->F->value)};
    return no_value;
  }
  if (sym == S->scoped_identifier || sym == S->generic_name || sym == S->memory_path ||
      sym == S->topology_path || sym == S->string || sym == S->boolean) {
    lower_path_expression(L, node, sym);
    return no_value;
  }
  /* Every other form (operators, index, cast, range, arrays, builtins): only its
   * sub-expressions matter. */
  *then = (then_walk){THEN_CHILDREN, node};
  return no_value;
}

static value_info lower_expr(lowerer *L, TSNode node, vxp_name binding_target) {
  if (ts_node_is_null(node) || failed(L)) return no_value;
  if (vxp_node__is_error(node) || ts_node_is_missing(node)) return no_value;
  if (!enter(L, node)) return no_value;
  then_walk then = {THEN_NOTHING, node};
  value_info v = lower_expr_inner(L, node, binding_target, &then);
  if (then.what == THEN_CHILDREN)
    lower_children(L, then.node);
  else if (then.what == THEN_VALUE_FIELD)
    lower_expr(L, then.node, VXP_NAME_NONE);
  else if (then.what == THEN_VALUE_ITSELF)
    v = lower_expr(L, then.node, VXP_NAME_NONE);
  else if (then.what == THEN_INNER) /* parentheses: the value and the binding pass through */
    v = lower_expr(L, then.node, binding_target);
  leave(L);
  return v;
}

/* ------------------------------------------------------------------ statements */

/* The names of a tuple `let` (`let (a, (b, mut c), _) = e;`), each bound to a value the
 * lowering knows nothing of: vxc binds each element of the tuple, so each name shadows an
 * outer one of the same spelling. */
static void bind_tuple_names(lowerer *L, TSNode pattern) {
  if (!enter(L, pattern)) return;
  uint32_t count = vxp_node__named_count(pattern);
  for (uint32_t i = 0; i < count && !failed(L); i++) {
    TSNode part = ts_node_named_child(pattern, i);
    if (vxp_node__is(part, L->S->tuple_binding))
      bind_tuple_names(L, part);
    else if (vxp_node__is(part, L->S->binding))
      bind(L, intern_node(L, field(L, part, L->F->name)), no_value);
  }
  leave(L);
}

static void lower_let(lowerer *L, TSNode node) {
  TSNode pattern = field(L, node, L->F->pattern);
  if (!ts_node_is_null(pattern)) {
    /* The transfers in a tuple's initializer are bound to no one name, so none of them is
     * released as never read: each stays resident to the end of the block (vxc binds them
     * to the hidden tuple, whose elements the names read). */
    lower_expr(L, field(L, node, L->F->value), VXP_NAME_NONE);
    bind_tuple_names(L, pattern);
    return;
  }
  vxp_name name = intern_node(L, field(L, node, L->F->name));
  TSNode type_node = field(L, node, L->F->type);
  TSNode value_node = field(L, node, L->F->value);
  TSNode init = value_node;
  while (vxp_node__is(init, L->S->parenthesized_expression))
    init = ts_node_named_child(init, 0);
  bool is_transfer = vxp_node__is(init, L->S->transfer_expression);
  L->assign_target = name;
  value_info value = lower_expr(L, value_node, name);
  L->assign_target = VXP_NAME_NONE;
  uint32_t declared = lower_type(L, type_node);
  if (declared != VXP_NONE) {
    value.type = declared;
    value.loc = origin_of_type(L, declared);
  }
  /* A `let` whose declared or inferred type is placed holds a tile, unless the initializer
   * is itself the transfer that placed it. A transfer's result keeps its tensor type and
   * records where it went in `loc`, so binding an already placed value again (`let b = a;`,
   * `let r = &a;`, a placed value out of an `if`) is a placed type too: vxc types the
   * binding as the placed tensor and counts it as a tile of its own. */
  bool placed_type = type_is_placed(L, value.type);
  bool placed_value =
      value.type != VXP_NONE && value.loc.known && value.loc.place.kind != VXP_PLACE_NONE;
  if (!is_transfer && (placed_type || placed_value)) {
    vxp_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.kind = VXP_EV_PLACE;
    ev.u.place.form = VXP_FORM_LET_TYPE;
    ev.u.place.type_known = true;
    ev.u.place.type = value.type;
    ev.u.place.dest = placed_type ? L->m->types.items[value.type].placement : value.loc.place;
    ev.u.place.origin.known = false;
    ev.u.place.origin.place.index = VXP_NONE;
    ev.u.place.binding = name;
    ev.u.place.start_byte = ts_node_start_byte(node);
    ev.u.place.end_byte = ts_node_end_byte(node);
    emit(L, &ev);
  }
  bind(L, name, value);
}

static void lower_assignment(lowerer *L, TSNode node) {
  TSNode left = field(L, node, L->F->left);
  TSNode right = field(L, node, L->F->right);
  if (vxp_node__is(left, L->S->identifier)) {
    /* `x = e` writes x without reading it. */
    vxp_name name = intern_node(L, left);
    vxp_name target = L->assign_target;
    L->assign_target = name;
    value_info value = lower_expr(L, right, name);
    L->assign_target = target;
    binding *b = lookup(L, name);
    if (b && (value.type != VXP_NONE || value.closure_fn != VXP_NONE)) b->value = value;
  } else if (L->spawn_depth > 0 && vxp_node__is(left, L->S->index_expression)) {
    lower_expr(L, right, VXP_NAME_NONE);
    lower_element_access(L, left, false, true);
  } else {
    lower_expr(L, right, VXP_NAME_NONE);
    lower_expr(L, left, VXP_NAME_NONE);
  }
}

static void lower_for(lowerer *L, TSNode node) {
  TSNode iterable = field(L, node, L->F->iterable);
  L->address_depth++;
  lower_expr(L, iterable, VXP_NAME_NONE);
  L->address_depth--;
  uint32_t trip_start = VXP_NONE, trip_end = VXP_NONE;
  if (vxp_node__is(iterable, L->S->range_expression)) {
    trip_start = lower_cexpr(L, field(L, iterable, L->F->start));
    trip_end = lower_cexpr(L, field(L, iterable, L->F->end));
  }
  open_block(L, node, VXP_BLOCK_FOR, false, VXP_NONE, trip_start, trip_end);
  push_scope(L);
  bind(L, intern_node(L, field(L, node, L->F->variable)), no_value);
  lower_block_body(L, field(L, node, L->F->body));
  pop_scope(L);
  close_block(L);
}

/* Whether a compound assignment's operator is arithmetic (`+= -= *= /= %=`). */
static bool compound_is_arith(lowerer *L, TSNode node) {
  TSNode op = field(L, node, L->F->operator);
  size_t len = 0;
  const char *o = ts_node_is_null(op) ? "" : text_of(L, op, &len);
  return len == 2 && o[1] == '=' && strchr("+-*/%", o[0]);
}

static void lower_statement(lowerer *L, TSNode node) {
  if (failed(L) || ts_node_is_null(node) || is_extra(L, node)) return;
  if (vxp_node__is_error(node) || ts_node_is_missing(node)) return;
  if (!enter(L, node)) return;
  const vxp_symbols *S = L->S;
  TSSymbol sym = ts_node_symbol(node);
  if (sym == S->let_declaration)
    lower_let(L, node);
  else if (sym == S->assignment_statement)
    lower_assignment(L, node);
  else if (sym == S->for_statement)
    lower_for(L, node);
  else if (sym == S->loop_statement)
    lower_wrapped_block(L, node, field(L, node, L->F->body), VXP_BLOCK_LOOP);
  else if (sym == S->while_statement) {
    /* A `while` body is a loop body with an unknown trip count: releasing, like `loop`. */
    lower_expr(L, field(L, node, L->F->condition), VXP_NAME_NONE);
    lower_wrapped_block(L, node, field(L, node, L->F->body), VXP_BLOCK_LOOP);
  } else if (sym == S->compound_assignment_statement && L->spawn_depth > 0 &&
             vxp_node__is(field(L, node, L->F->left), S->index_expression)) {
    /* `x[i] op= v` inside a device region reads the element and writes it back. */
    value_info b = lower_expr(L, field(L, node, L->F->right), VXP_NAME_NONE);
    value_info a = lower_element_access(L, field(L, node, L->F->left), true, true);
    if (compound_is_arith(L, node)) arith(L, node, &a, &b);
  } else if (sym == S->compound_assignment_statement && L->spawn_depth > 0 &&
             vxp_node__is(field(L, node, L->F->left), S->identifier)) {
    /* `acc op= v` on a scalar in a device region: one operation, in acc's or v's type. */
    value_info b = lower_expr(L, field(L, node, L->F->right), VXP_NAME_NONE);
    value_info a = lower_expr(L, field(L, node, L->F->left), VXP_NAME_NONE);
    if (compound_is_arith(L, node)) arith(L, node, &a, &b);
  } else if (sym == S->expression_statement || sym == S->return_statement)
    lower_children(L, node);
  else if (sym == S->block)
    lower_block_body(L, node);
  else
    lower_expr(L, node, VXP_NAME_NONE); /* compound assignment, assert, arm expressions */
  leave(L);
}

/* Lower the statements of a block in a new lexical scope; returns the value of its
 * trailing expression. Iterates with a cursor: blocks can hold millions of statements. */
static value_info lower_block_body(lowerer *L, TSNode block) {
  value_info value = no_value;
  if (ts_node_is_null(block) || failed(L)) return value;
  push_scope(L);
  TSNode trailing = field(L, block, L->F->value);
  TSTreeCursor cursor = ts_tree_cursor_new(block);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      TSNode child = ts_tree_cursor_current_node(&cursor);
      if (!ts_node_is_named(child)) continue;
      if (!ts_node_is_null(trailing) && ts_node_eq(child, trailing)) {
        value = lower_expr(L, child, VXP_NAME_NONE);
      } else {
        lower_statement(L, child);
      }
    } while (!failed(L) && ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  pop_scope(L);
  return value;
}

/* ------------------------------------------------------------------ items */

static int compare_names(const void *a, const void *b) {
  vxp_name x = *(const vxp_name *)a, y = *(const vxp_name *)b;
  return (x > y) - (x < y);
}

static void finish_reads(vxp_function *fn) {
  if (fn->reads.len == 0) return;
  qsort(fn->reads.items, fn->reads.len, sizeof(vxp_name), compare_names);
  size_t out = 1;
  for (size_t i = 1; i < fn->reads.len; i++) {
    if (fn->reads.items[i] != fn->reads.items[out - 1]) fn->reads.items[out++] = fn->reads.items[i];
  }
  fn->reads.len = out;
}

static vxp_name qualified_name(lowerer *L, TSNode name_node) {
  if (L->impl_owner == VXP_NAME_NONE) return intern_node(L, name_node);
  size_t len;
  const char *s = text_of(L, name_node, &len);
  const char *owner = vxp_strtab__str(&L->m->names, L->impl_owner);
  size_t owner_len = strlen(owner);
  char *buf = vxp_ctx__malloc(L->ctx, owner_len + 2 + len);
  if (!buf) {
    oom(L);
    return VXP_NAME_NONE;
  }
  memcpy(buf, owner, owner_len);
  memcpy(buf + owner_len, "::", 2);
  memcpy(buf + owner_len + 2, s, len);
  vxp_name n = intern_text(L, buf, owner_len + 2 + len);
  vxp_ctx__free(L->ctx, buf);
  return n;
}

static void lower_function(lowerer *L, TSNode node) {
  vxp_function fn;
  memset(&fn, 0, sizeof(fn));
  TSNode name_node = field(L, node, L->F->name);
  if (ts_node_is_null(name_node) || ts_node_is_missing(name_node)) return;
  fn.name = qualified_name(L, name_node);
  fn.owner = L->impl_owner;
  fn.parent = VXP_NONE;
  fn.start_byte = ts_node_start_byte(node);
  fn.end_byte = ts_node_end_byte(node);
  fn.name_start = ts_node_start_byte(name_node);
  fn.name_end = ts_node_end_byte(name_node);
  TSNode generics = field(L, node, L->F->generics);
  uint32_t gcount = vxp_node__named_count(generics);
  for (uint32_t i = 0; i < gcount && !failed(L); i++) {
    TSNode g = ts_node_named_child(generics, i);
    if (is_extra(L, g)) continue;
    vxp_generic_param gp = {intern_node(L, field(L, g, L->F->name)),
                            vxp_node__is(g, L->S->const_parameter)};
    if (!array_push(L->ctx, &fn.generics, gp)) oom(L);
  }
  if (failed(L) || !array_push(L->ctx, &L->m->functions, fn)) {
    array_free(L->ctx, &fn.generics);
    oom(L);
    return;
  }
  uint32_t index = (uint32_t)(L->m->functions.len - 1);
  if (!array_push(L->ctx, &L->fn_stack, index)) {
    oom(L);
    return;
  }
  L->too_deep = false;
  size_t generic_mark = push_generics(L, generics);
  push_scope(L);
  TSNode params = field(L, node, L->F->parameters);
  uint32_t pcount = vxp_node__named_count(params);
  for (uint32_t i = 0; i < pcount && !failed(L); i++) {
    TSNode p = ts_node_named_child(params, i);
    if (!vxp_node__is(p, L->S->parameter)) continue;
    vxp_name pname = intern_node(L, field(L, p, L->F->name));
    TSNode ptype = field(L, p, L->F->type);
    ref_types(L, ptype, 0);
    record_declared(L, VXP_DECLARED_PARAMETER, fn.name, pname, ptype);
    value_info v = no_value;
    v.type = lower_type(L, ptype);
    v.loc = origin_of_type(L, v.type);
    v.nominal = nominal_name(L, ptype);
    bind(L, pname, v);
    vxp_param param = {pname, v.type,
                       vxp_node__is(ptype, L->S->type_identifier) ? v.nominal : VXP_NAME_NONE};
    if (!failed(L) && !array_push(L->ctx, &L->m->functions.items[index].params, param)) oom(L);
  }
  ref_types(L, field(L, node, L->F->return_type), 0);
  record_declared(L, VXP_DECLARED_RETURN, fn.name, VXP_NAME_NONE,
                  field(L, node, L->F->return_type));
  TSNode on = field(L, node, L->F->topology); /* `fn f() on Topology::X -> T` */
  if (vxp_node__is(on, L->S->topology_path))
    add_ref(L, VXP_REF_TOPOLOGY, field(L, on, L->F->name), on, false);
  lower_block_body(L, field(L, node, L->F->body));
  pop_scope(L);
  pop_generics(L, generic_mark);
  L->fn_stack.len--;
  for (size_t i = index; i < L->m->functions.len; i++)
    finish_reads(&L->m->functions.items[i]);
}

static void lower_struct(lowerer *L, TSNode node) {
  vxp_name owner = intern_node(L, field(L, node, L->F->name));
  if (owner != VXP_NAME_NONE && !failed(L) && !array_push(L->ctx, &L->m->structs, owner)) oom(L);
  size_t generic_mark = push_generics(L, field(L, node, L->F->generics));
  TSNode body = field(L, node, L->F->body);
  uint32_t count = vxp_node__named_count(body);
  for (uint32_t i = 0; i < count && !failed(L); i++) {
    TSNode f = ts_node_named_child(body, i);
    if (!vxp_node__is(f, L->S->field_declaration)) continue;
    ref_types(L, field(L, f, L->F->type), 0);
    record_declared(L, VXP_DECLARED_FIELD, owner, intern_node(L, field(L, f, L->F->name)),
                    field(L, f, L->F->type));
  }
  pop_generics(L, generic_mark);
}

static void lower_const(lowerer *L, TSNode node) {
  vxp_const_item c;
  c.name = intern_node(L, field(L, node, L->F->name));
  TSNode value = field(L, node, L->F->value);
  if (ts_node_is_null(value) || c.name == VXP_NAME_NONE) return;
  c.value = lower_cexpr(L, value);
  c.start_byte = ts_node_start_byte(node);
  c.end_byte = ts_node_end_byte(node);
  if (!failed(L) && !array_push(L->ctx, &L->m->consts, c)) oom(L);
}

/* Functions in impl blocks: the owner's name qualifies them (`Type::method`). */
static void lower_impl(lowerer *L, TSNode node, bool signatures_only);

/* The signature record of function node `node` (its order left to the caller); false when
 * it has no name. */
static bool signature_of(lowerer *L, TSNode node, fn_signature *sig) {
  TSNode name_node = field(L, node, L->F->name);
  if (ts_node_is_null(name_node)) return false;
  sig->name = qualified_name(L, name_node);
  size_t generic_mark = push_generics(L, field(L, node, L->F->generics));
  sig->return_type = ts_node_is_null(field(L, node, L->F->generics))
                         ? lower_type(L, field(L, node, L->F->return_type))
                         : VXP_NONE;
  sig->return_nominal = nominal_name(L, field(L, node, L->F->return_type));
  sig->order = 0;
  pop_generics(L, generic_mark);
  return true;
}

static void collect_signature(lowerer *L, TSNode node) {
  fn_signature sig;
  if (!signature_of(L, node, &sig)) return;
  sig.order = (uint32_t)L->signatures.len;
  if (!failed(L) && !array_push(L->ctx, &L->signatures, sig)) oom(L);
}

static void lower_impl(lowerer *L, TSNode node, bool signatures_only) {
  L->impl_owner = nominal_name(L, field(L, node, L->F->type));
  size_t generic_mark = push_generics(L, field(L, node, L->F->generics));
  TSNode body = field(L, node, L->F->body);
  uint32_t count = vxp_node__named_count(body);
  for (uint32_t i = 0; i < count && !failed(L); i++) {
    TSNode item = ts_node_named_child(body, i);
    if (!vxp_node__is(item, L->S->function_item)) continue;
    if (signatures_only)
      collect_signature(L, item);
    else
      lower_function(L, item);
  }
  pop_generics(L, generic_mark);
  L->impl_owner = VXP_NAME_NONE;
}

/* Functions declared in an `extern` block have no body here: calls to them are reported
 * as unresolved, by name. */
static void lower_extern(lowerer *L, TSNode node) {
  TSNode body = field(L, node, L->F->body);
  uint32_t count = vxp_node__named_count(body);
  for (uint32_t i = 0; i < count && !failed(L); i++) {
    TSNode f = ts_node_named_child(body, i);
    if (!vxp_node__is(f, L->S->extern_function)) continue;
    vxp_name name = intern_node(L, field(L, f, L->F->name));
    if (name && !failed(L) && !array_push(L->ctx, &L->m->externs, name)) oom(L);
  }
}

/* What kind of item a top-level node is. */
static vxp_item_kind item_kind(lowerer *L, TSSymbol sym) {
  const vxp_symbols *S = L->S;
  if (sym == S->function_item) return VXP_ITEM_FUNCTION;
  if (sym == S->impl_item) return VXP_ITEM_IMPL;
  if (sym == S->const_item) return VXP_ITEM_CONST;
  if (sym == S->struct_item) return VXP_ITEM_STRUCT;
  if (sym == S->enum_item) return VXP_ITEM_ENUM;
  if (sym == S->trait_item) return VXP_ITEM_TRAIT;
  if (sym == S->extern_block) return VXP_ITEM_EXTERN;
  if (sym == S->import_item) return VXP_ITEM_IMPORT;
  if (sym == S->memory_item) return VXP_ITEM_MEMORY;
  if (sym == S->topology_item) return VXP_ITEM_TOPOLOGY;
  if (sym == S->transfer_impl_item) return VXP_ITEM_LOWERING;
  return VXP_ITEM_OTHER;
}

/* Open the model item of top-level node `node` (its functions and const follow). */
static void begin_item(lowerer *L, TSNode node) {
  vxp_model_item it;
  memset(&it, 0, sizeof(it));
  it.kind = (uint8_t)item_kind(L, ts_node_symbol(node));
  if (it.kind != VXP_ITEM_IMPL && it.kind != VXP_ITEM_EXTERN && it.kind != VXP_ITEM_IMPORT &&
      it.kind != VXP_ITEM_OTHER && it.kind != VXP_ITEM_LOWERING)
    it.name = intern_node(L, field(L, node, L->F->name));
  it.start_byte = ts_node_start_byte(node);
  it.end_byte = ts_node_end_byte(node);
  it.first_function = (uint32_t)L->m->functions.len;
  it.index = it.kind == VXP_ITEM_CONST ? (uint32_t)L->m->consts.len : VXP_NONE;
  it.declaration = VXP_NONE; /* set once the declarations are read (program.c) */
  it.vis_first = (uint32_t)L->m->visibility.len;
  it.raw_first = (uint32_t)L->m->raw.len;
  it.top = L->top_index;
  if (!failed(L) && !array_push(L->ctx, &L->m->items, it)) oom(L);
}

/* Close the last model item: the functions lowered since it opened are its own. */
static void end_item(lowerer *L) {
  if (failed(L) || L->m->items.len == 0) return;
  vxp_model_item *it = array_last(&L->m->items);
  it->function_count = (uint32_t)L->m->functions.len - it->first_function;
  it->vis_count = (uint32_t)L->m->visibility.len - it->vis_first;
  it->raw_count = (uint32_t)L->m->raw.len - it->raw_first;
  for (uint32_t f = it->first_function; f < L->m->functions.len; f++)
    L->m->functions.items[f].item = (uint32_t)(L->m->items.len - 1);
  if (it->kind == VXP_ITEM_CONST && it->index >= L->m->consts.len) it->index = VXP_NONE;
}

/* Where the model, the diagnostics and the names end now. */
static vxp_lower_mark mark_now(const lowerer *L) {
  const vxp_model *m = L->m;
  vxp_lower_mark k;
  k.cexprs = (uint32_t)m->cexprs.len;
  k.dim_list = (uint32_t)m->dim_list.len;
  k.types = (uint32_t)m->types.len;
  k.functions = (uint32_t)m->functions.len;
  k.declared = (uint32_t)m->declared.len;
  k.call_args = (uint32_t)m->call_args.len;
  k.consts = (uint32_t)m->consts.len;
  k.structs = (uint32_t)m->structs.len;
  k.enums = (uint32_t)m->enums.len;
  k.externs = (uint32_t)m->externs.len;
  k.traits = (uint32_t)m->traits.len;
  k.topologies = (uint32_t)m->topologies.len;
  k.refs = (uint32_t)m->refs.len;
  k.items = (uint32_t)m->items.len;
  k.visibility = (uint32_t)m->visibility.len;
  k.raw = (uint32_t)m->raw.len;
  k.imports = m->imports;
  k.diags = (uint32_t)L->diags->len;
  k.names = (uint32_t)m->names.strings.len;
  return k;
}

static void push_mark(lowerer *L, void *marks) {
  Array(vxp_lower_mark) *list = marks;
  if (list && !failed(L) && !array_push(L->ctx, list, mark_now(L))) oom(L);
}

/* push_mark in a splice, whose name table was copied whole: the mark's next name id is
 * `names`, the older version's there (see push_copied_marks). */
static void push_mark_names(lowerer *L, void *marks, uint32_t names) {
  Array(vxp_lower_mark) *list = marks;
  size_t before = list->len;
  push_mark(L, marks);
  if (list->len > before) list->items[before].names = names;
}

/* The marks of items [k, j), copied at once by a splice from the older program's `old`
 * marks when the model stood at `base`: each is the mark that copying the items before it
 * one by one would leave (what mark_now would read), every count moved by what the older
 * items before it added. The name table is copied whole before, so `names` is the older
 * mark's: the next name id a full lowering stands at there, which a successful splice keeps
 * for every item (the next splice's check_names reads these ranges). */
static void push_copied_marks(lowerer *L, void *marks, vxp_lower_mark base,
                              const vxp_lower_mark *old, uint32_t k, uint32_t j) {
  Array(vxp_lower_mark) *list = marks;
  if (failed(L) || j <= k) return;
  if (!array_reserve(L->ctx, list, j - k)) {
    oom(L);
    return;
  }
  const vxp_lower_mark *o = &old[k];
  for (uint32_t m = k; m < j; m++) {
    const vxp_lower_mark *x = &old[m];
    vxp_lower_mark at = base;
    at.names = x->names;
#define MOVED(field) at.field = base.field + (x->field - o->field)
    MOVED(cexprs);
    MOVED(dim_list);
    MOVED(types);
    MOVED(functions);
    MOVED(declared);
    MOVED(call_args);
    MOVED(consts);
    MOVED(structs);
    MOVED(enums);
    MOVED(externs);
    MOVED(traits);
    MOVED(topologies);
    MOVED(refs);
    MOVED(items);
    MOVED(visibility);
    MOVED(raw);
    MOVED(imports);
    MOVED(diags);
#undef MOVED
    list->items[list->len++] = at;
  }
}

/* The end of the run of items from `k` that a splice copies at once: items on one side of
 * the edit (in the signature pass a fresh item's unchanged signature counts as before it). */
static uint32_t copy_run_end(const vxp_reuse *R, uint32_t k, uint32_t n, bool signatures) {
  uint8_t side = R->side[k] == VXP_REUSE_FRESH && signatures ? VXP_REUSE_BEFORE : R->side[k];
  uint32_t j = k + 1;
  while (j < n) {
    uint8_t next = R->side[j] == VXP_REUSE_FRESH && signatures ? VXP_REUSE_BEFORE : R->side[j];
    if (next != side || next == VXP_REUSE_FRESH) break;
    j++;
  }
  return j;
}

/* The visibility facts of a function or impl item (lower_visibility.h). */
static void lower_vis(lowerer *L, TSNode item) {
  if (failed(L)) return;
  int rc = vxp_lower_vis__item(&L->vis, item);
  if (rc != VXP_OK) L->rc = rc;
}

static vxp_name vis_intern(void *arg, const char *s, size_t len) {
  return intern_text(arg, s, len);
}

/* The `raw::` facts of a top-level item (lower_raw.h). */
static void lower_raw(lowerer *L, TSNode item) {
  if (failed(L)) return;
  vxp_lower_raw W = {L->ctx, L->src, &L->m->raw, vis_intern, L};
  int rc = vxp_lower_raw__item(&W, item);
  if (rc != VXP_OK) L->rc = rc;
}

static void setup_vis(lowerer *L) {
  L->vis.ctx = L->ctx;
  L->vis.src = L->src;
  L->vis.m = L->m;
  L->vis.intern = vis_intern;
  L->vis.arg = L;
}

/* Start the visibility facts' reader over the top-level nodes (`top`, or root's children). */
static void begin_vis(lowerer *L, const TSNode *top, size_t top_count, TSNode root) {
  setup_vis(L);
  if (!failed(L)) {
    int rc = vxp_lower_vis__begin(&L->vis, top, top_count, root);
    if (rc != VXP_OK) L->rc = rc;
  }
}

/* One pass over the top-level items; `marks`, when not NULL, gets a mark before each item
 * and one after the last. */
static void lower_items(lowerer *L, TSNode root, bool signatures_only, void *marks) {
  const vxp_symbols *S = L->S;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      if (vxp_ctx__interrupted(L->ctx)) {
        L->rc = VXP_ECANCELLED;
        break;
      }
      push_mark(L, marks);
      TSNode item = ts_tree_cursor_current_node(&cursor);
      TSSymbol sym = ts_node_symbol(item);
      if (!signatures_only && ts_node_is_named(item) && !is_extra(L, item)) begin_item(L, item);
      if (sym == S->function_item) {
        if (signatures_only)
          collect_signature(L, item);
        else
          lower_function(L, item);
      } else if (sym == S->impl_item) {
        lower_impl(L, item, signatures_only);
      } else if (!signatures_only && sym == S->struct_item) {
        lower_struct(L, item);
      } else if (!signatures_only && sym == S->const_item) {
        lower_const(L, item);
      } else if (!signatures_only && sym == S->topology_item) {
        vxp_name name = intern_node(L, field(L, item, L->F->name));
        if (name && !failed(L) && !array_push(L->ctx, &L->m->topologies, name)) oom(L);
      } else if (!signatures_only && sym == S->trait_item) {
        vxp_name name = intern_node(L, field(L, item, L->F->name));
        if (name && !failed(L) && !array_push(L->ctx, &L->m->traits, name)) oom(L);
      } else if (!signatures_only && sym == S->enum_item) {
        vxp_name name = intern_node(L, field(L, item, L->F->name));
        if (name && !failed(L) && !array_push(L->ctx, &L->m->enums, name)) oom(L);
      } else if (!signatures_only && sym == S->extern_block) {
        lower_extern(L, item);
      } else if (!signatures_only && sym == S->import_item) {
        L->m->imports++;
      }
      if (!signatures_only && (sym == S->function_item || sym == S->impl_item)) lower_vis(L, item);
      if (!signatures_only && ts_node_is_named(item) && !is_extra(L, item)) {
        lower_raw(L, item);
        end_item(L);
      }
      L->top_index++;
    } while (!failed(L) && ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  push_mark(L, marks);
}

static void lowerer_init(lowerer *L, vxp_context *ctx, const vxp_source *src, vxp_model *model,
                         vxp_diag_list *diags) {
  memset(L, 0, sizeof(*L));
  L->ctx = ctx;
  L->src = src;
  L->m = model;
  L->diags = diags;
  L->S = &ctx->syms;
  L->F = &ctx->fields;
  L->names_old = L->names_new_next = UINT32_MAX;
  vxp_roles__memo_init(&L->roles);
}

static void lowerer_free(lowerer *L) {
  vxp_context *ctx = L->ctx;
  array_free(ctx, &L->bindings);
  array_free(ctx, &L->innermost);
  array_free(ctx, &L->scopes);
  array_free(ctx, &L->fn_stack);
  array_free(ctx, &L->signatures);
  array_free(ctx, &L->cx_lets);
  array_free(ctx, &L->arg_stack);
  array_free(ctx, &L->generic_scope);
  array_free(ctx, &L->inserts);
  vxp_lower_vis__end(&L->vis);
}

void vxp_lower__marks_free(vxp_context *ctx, vxp_lower_marks *marks) {
  array_free(ctx, &marks->sig);
  array_free(ctx, &marks->body);
  array_free(ctx, &marks->signatures);
  vxp_vis_index__free(ctx, &marks->vis);
  marks->vis_kept = false;
}

int vxp_lower__program(vxp_context *ctx, const vxp_source *src, TSNode root, vxp_model *model,
                       vxp_diag_list *diags, vxp_lower_marks *marks) {
  lowerer L;
  lowerer_init(&L, ctx, src, model, diags);
  if (vxp_strtab__init_in(ctx, &model->names, model->arena) != VXP_OK) return VXP_ENOMEM;
  L.top_index = 0;
  lower_items(&L, root, true, marks ? (void *)&marks->sig : NULL);
  if (L.signatures.len)
    qsort(L.signatures.items, L.signatures.len, sizeof(fn_signature), compare_signatures);
  if (marks && !failed(&L) && L.signatures.len &&
      (!array_reserve(ctx, &marks->signatures, L.signatures.len) ||
       !memcpy(marks->signatures.items, L.signatures.items,
               L.signatures.len * sizeof(fn_signature))))
    oom(&L);
  if (marks && !failed(&L)) marks->signatures.len = L.signatures.len;
  begin_vis(&L, NULL, 0, root);
  L.top_index = 0;
  lower_items(&L, root, false, marks ? (void *)&marks->body : NULL);
  if (marks && !failed(&L)) { /* for the next splice */
    vxp_lower_vis__keep(&L.vis, &marks->vis);
    marks->vis_kept = true;
  }
  lowerer_free(&L);
  return L.rc;
}

struct vxp_lower_run {
  lowerer L;
  bool bodies; /* the second pass has begun */
};

int vxp_lower__begin(vxp_lower_run **out, vxp_context *ctx, const vxp_source *src, vxp_model *model,
                     vxp_diag_list *diags) {
  vxp_lower_run *W = vxp_ctx__calloc(ctx, 1, sizeof(*W));
  if (!W) return VXP_ENOMEM;
  lowerer_init(&W->L, ctx, src, model, diags);
  setup_vis(&W->L);
  if (vxp_strtab__init_in(ctx, &model->names, model->arena) != VXP_OK) {
    vxp_ctx__free(ctx, W);
    return VXP_ENOMEM;
  }
  *out = W;
  return VXP_OK;
}

int vxp_lower__window_signatures(vxp_lower_run *W, TSNode root) {
  lowerer *L = &W->L;
  if (!failed(L)) lower_items(L, root, true, NULL);
  if (!failed(L)) {
    int rc = vxp_lower_vis__index(&L->vis, NULL, 0, root);
    if (rc != VXP_OK) L->rc = rc;
  }
  return L->rc;
}

int vxp_lower__window_bodies(vxp_lower_run *W, TSNode root) {
  lowerer *L = &W->L;
  if (!W->bodies) { /* what vxp_lower__program does between its two passes */
    W->bodies = true;
    if (L->signatures.len)
      qsort(L->signatures.items, L->signatures.len, sizeof(fn_signature), compare_signatures);
    vxp_lower_vis__index_done(&L->vis);
    L->top_index = 0;
  }
  if (!failed(L)) lower_items(L, root, false, NULL);
  return L->rc;
}

int vxp_lower__end(vxp_lower_run *W) {
  if (!W) return VXP_OK;
  vxp_context *ctx = W->L.ctx;
  int rc = W->L.rc;
  lowerer_free(&W->L);
  vxp_ctx__free(ctx, W);
  return rc;
}

/* Whether two marks count the same of every model array and of the diagnostics (the names
 * aside). */
static bool same_counts(const vxp_lower_mark *a, const vxp_lower_mark *b) {
  return a->cexprs == b->cexprs && a->dim_list == b->dim_list && a->types == b->types &&
         a->functions == b->functions && a->declared == b->declared &&
         a->call_args == b->call_args && a->consts == b->consts && a->structs == b->structs &&
         a->enums == b->enums && a->externs == b->externs && a->traits == b->traits &&
         a->topologies == b->topologies && a->refs == b->refs && a->items == b->items &&
         a->visibility == b->visibility && a->raw == b->raw && a->imports == b->imports &&
         a->diags == b->diags;
}

/* Whether the part between marks a0 and a1 of one model counts, array by array and in the
 * diagnostics, what the part between b0 and b1 of another does (the names aside). */
static bool same_deltas(const vxp_lower_mark *a0, const vxp_lower_mark *a1,
                        const vxp_lower_mark *b0, const vxp_lower_mark *b1) {
  return a1->cexprs - a0->cexprs == b1->cexprs - b0->cexprs &&
         a1->dim_list - a0->dim_list == b1->dim_list - b0->dim_list &&
         a1->types - a0->types == b1->types - b0->types &&
         a1->functions - a0->functions == b1->functions - b0->functions &&
         a1->declared - a0->declared == b1->declared - b0->declared &&
         a1->call_args - a0->call_args == b1->call_args - b0->call_args &&
         a1->consts - a0->consts == b1->consts - b0->consts &&
         a1->structs - a0->structs == b1->structs - b0->structs &&
         a1->enums - a0->enums == b1->enums - b0->enums &&
         a1->externs - a0->externs == b1->externs - b0->externs &&
         a1->traits - a0->traits == b1->traits - b0->traits &&
         a1->topologies - a0->topologies == b1->topologies - b0->topologies &&
         a1->refs - a0->refs == b1->refs - b0->refs &&
         a1->items - a0->items == b1->items - b0->items &&
         a1->visibility - a0->visibility == b1->visibility - b0->visibility &&
         a1->raw - a0->raw == b1->raw - b0->raw &&
         a1->imports - a0->imports == b1->imports - b0->imports &&
         a1->diags - a0->diags == b1->diags - b0->diags;
}

/* A splice's signature pass for touched function item `k` (node `item`), whose signature text
 * changed: its part of the model (the tensor type it returns: its dimensions' constant
 * expressions, the type) is lowered again in place from the node. Taken when it has no
 * generic parameters before and after (a generic callee's parameters are read by its
 * callers' instance inference), it introduces the same names in this pass, and its part
 * counts what the earlier one did and stands where it stood (every later index into the
 * signature part, which the copied items' parts keep, then holds: the record's return type
 * too). `*now` is its record. Returns 1, 0 (not taken over) or an error code. */
static int resign_item(lowerer *L, const vxp_model *old, const vxp_lower_mark *sig,
                       const vxp_lower_mark *body, uint32_t k, TSNode item, fn_signature *now) {
  if (!ts_node_is_null(field(L, item, L->F->generics))) return 0;
  /* the earlier version: its model item is the one its body mark opens */
  uint32_t at = body[k].items;
  if (at >= old->items.len || old->items.items[at].top != k ||
      old->items.items[at].function_count == 0 ||
      old->functions.items[old->items.items[at].first_function].generics.len != 0)
    return 0;
  vxp_lower_mark m0 = mark_now(L);
  if (m0.cexprs != sig[k].cexprs || m0.dim_list != sig[k].dim_list || m0.types != sig[k].types)
    return 0;
  L->check_names = true;
  L->names_differ = false;
  L->name_lo = L->name_next = sig[k].names;
  L->name_hi = sig[k + 1].names;
  L->name_ord = k;
  L->top_index = k;
  bool named = signature_of(L, item, now);
  L->check_names = false;
  vxp_lower_mark m1 = mark_now(L);
  if (failed(L)) return L->rc;
  return named && !L->names_differ && L->name_next == L->name_hi &&
         same_deltas(&m0, &m1, &sig[k], &sig[k + 1]);
}

/* After a splice's signature pass: the touched items whose signature text changed
 * (R->changed_sig), a const (whose part of that pass must be empty) or a function whose part
 * resign_item lowered again, its record `resigned` (one per such function, in order). Each
 * is taken over when its name has one signature record, whose return type index is the one
 * lowered (resign_item kept it in place); the record (sorted in place in L->signatures and
 * marks->signatures) then differs at most in the nominal type it returns, which a call's
 * value carries, and in the tensor type at that index, whose placement a call's value
 * carries: when either may have changed, every function item outside the middle with a call
 * of that name is marked in R->again, to be lowered again. Returns 1, 0 (not taken over) or
 * an error code. */
static int resign(lowerer *L, vxp_reuse *R, const vxp_top_nodes *top, const vxp_model *old,
                  const vxp_lower_marks *old_marks, vxp_lower_marks *marks,
                  const fn_signature *resigned, size_t resigned_count) {
  uint32_t n = R->items;
  const vxp_lower_mark *sig = old_marks->sig.items;
  Array(vxp_name) changed;
  memset(&changed, 0, sizeof(changed));
  int ok = 1;
  size_t next = 0;
  for (uint32_t k = 0; ok == 1 && k < n; k++) {
    if (!R->changed_sig[k]) continue;
    TSNode item;
    if (!vxp_top_nodes__get(top, k, &item)) {
      ok = 0;
      break;
    }
    if (ts_node_symbol(item) == L->S->const_item) { /* no part in this pass */
      if (!same_counts(&sig[k], &sig[k + 1])) ok = 0;
      continue;
    }
    if (ts_node_symbol(item) != L->S->function_item || next >= resigned_count) {
      ok = 0;
      break;
    }
    fn_signature now = resigned[next++];
    /* its one record among the sorted ones */
    size_t lo = 0, hi = marks->signatures.len;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (marks->signatures.items[mid].name < now.name)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo >= marks->signatures.len || marks->signatures.items[lo].name != now.name ||
        (lo + 1 < marks->signatures.len && marks->signatures.items[lo + 1].name == now.name) ||
        marks->signatures.items[lo].return_type != now.return_type) {
      ok = 0;
      break;
    }
    bool reread = now.return_type != VXP_NONE; /* its contents lowered again */
    if (marks->signatures.items[lo].return_nominal != now.return_nominal) {
      marks->signatures.items[lo].return_nominal = now.return_nominal;
      L->signatures.items[lo].return_nominal = now.return_nominal;
      reread = true;
    }
    if (reread && !array_push(L->ctx, &changed, now.name)) oom(L);
  }
  if (ok == 1 && next != resigned_count) ok = 0;
  if (ok == 1 && !failed(L) && changed.len) {
    if (!R->again) R->again = vxp_ctx__calloc(L->ctx, n, sizeof(uint8_t));
    if (!R->again) oom(L);
    for (size_t f = 0; !failed(L) && f < old->functions.len; f++) {
      const vxp_function *fn = &old->functions.items[f];
      if (fn->item >= old->items.len) continue;
      uint32_t t = old->items.items[fn->item].top;
      if (t >= n || R->side[t] == VXP_REUSE_FRESH || R->again[t]) continue;
      for (size_t e = 0; e < fn->events.len; e++) {
        const vxp_event *ev = &fn->events.items[e];
        if (ev->kind != VXP_EV_CALL || ev->u.call.generic_count != 0) continue;
        bool calls = false;
        for (size_t c = 0; c < changed.len; c++)
          calls = calls || ev->u.call.callee == changed.items[c];
        if (calls) {
          R->again[t] = 1;
          break;
        }
      }
    }
  }
  array_free(L->ctx, &changed);
  return failed(L) ? L->rc : ok;
}

/* Lower top-level item `item` (a touched function or const, or an item lowered again) in a
 * splice's item pass; false when it is not of a kind a splice lowers. */
static bool lower_item_again(lowerer *L, TSNode item) {
  TSSymbol sym = ts_node_symbol(item);
  if (sym != L->S->function_item && sym != L->S->const_item && sym != L->S->impl_item) return false;
  begin_item(L, item);
  if (sym == L->S->function_item)
    lower_function(L, item);
  else if (sym == L->S->impl_item)
    lower_impl(L, item, false);
  else
    lower_const(L, item);
  if (sym != L->S->const_item) lower_vis(L, item);
  lower_raw(L, item);
  end_item(L);
  return true;
}

/* The node of item `k`, from `top` or one of the `more_count` ranges `more`. */
static bool item_node(const vxp_top_nodes *top, const vxp_top_nodes *more, size_t more_count,
                      uint32_t k, TSNode *out) {
  if (vxp_top_nodes__get(top, k, out)) return true;
  for (size_t i = 0; i < more_count; i++)
    if (vxp_top_nodes__get(&more[i], k, out)) return true;
  return false;
}

/* A splice whose index of the functions (L->vis, lower_visibility.h) differs from the earlier
 * version's in what a call reads of a callee (its `on` topology, its number of parameters,
 * what its pointer parameters want): every function or impl item outside the middle whose text
 * names such a callee (a whole identifier anywhere in it: a superset of its calls, which the facts'
 * reader finds by that text) is marked in R->again, to be lowered again, its visibility facts read
 * again with the new entry. Returns 1, 0 when the indexes differ otherwise (other functions or
 * names) or an item's node is missing (R->again_unread), or an error code. */
static int vis_readers_again(lowerer *L, vxp_reuse *R, const vxp_model *old,
                             const vxp_vis_index *old_index, const vxp_top_nodes *top,
                             const vxp_top_nodes *more, size_t more_count) {
  const vxp_vis_index *now = &L->vis.index;
  uint32_t n = R->items;
  if (!R->old_src || !now->fns.len) return 0;
  uint8_t *changed = vxp_ctx__calloc(L->ctx, now->fns.len, sizeof(uint8_t));
  if (!changed) return VXP_ENOMEM;
  int ok = vxp_lower_vis__changed_entries(&L->vis, old_index, changed) ? 1 : 0;
  if (ok == 1 && !R->again) {
    R->again = vxp_ctx__calloc(L->ctx, n, sizeof(uint8_t));
    if (!R->again) ok = VXP_ENOMEM;
  }
  const char *text = R->old_src->text;
  size_t len = R->old_src->len;
  for (size_t i = 0; ok == 1 && i < now->fns.len; i++) {
    if (!changed[i]) continue;
    vis_name name = now->fns.items[i].name;
    if (!name.len) continue;
    for (size_t at = 0; at + name.len <= len; at++) {
      const char *hit = memchr(text + at, name.s[0], len - name.len - at + 1);
      if (!hit) break;
      at = (size_t)(hit - text);
      if (memcmp(hit, name.s, name.len) != 0 ||
          (at > 0 && vxp_source__word_byte((unsigned char)text[at - 1])) ||
          (at + name.len < len && vxp_source__word_byte((unsigned char)text[at + name.len])))
        continue;
      /* the earlier version's item holding it (items are in the order of the text) */
      size_t lo = 0, hi = old->items.len;
      while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (old->items.items[mid].start_byte <= at)
          lo = mid + 1;
        else
          hi = mid;
      }
      if (lo == 0) continue;
      const vxp_model_item *it = &old->items.items[lo - 1];
      if (at >= it->end_byte || it->top >= n || R->side[it->top] == VXP_REUSE_FRESH ||
          (it->kind != VXP_ITEM_FUNCTION && it->kind != VXP_ITEM_IMPL))
        continue;
      R->again[it->top] = 1;
    }
  }
  vxp_ctx__free(L->ctx, changed);
  TSNode unused;
  for (uint32_t k = 0; ok == 1 && k < n; k++)
    if (R->again[k] && !item_node(top, more, more_count, k, &unused)) {
      R->again_unread = true;
      ok = 0;
    }
  return ok;
}

/* After a splice whose items brought in names the earlier table did not hold (L->inserts,
 * in the order a full lowering meets them: each item's sequence was the earlier one with
 * those inserted), the ids a full lowering gives: the earlier names keep their order, each
 * inserted name comes before the earlier name recorded with it, and every id held by the
 * model, the signature records and the marks' name ranges is renumbered so. Returns 1, 0 (the
 * insertions are not in that order) or VXP_ENOMEM. */
static int rename_names(lowerer *L, vxp_lower_marks *marks, uint32_t n) {
  vxp_model *m = L->m;
  size_t old_len = L->names_old, count = L->inserts.len, total = m->names.strings.len;
  if (total != old_len + count || marks->sig.len != (size_t)n + 1 ||
      marks->body.len != (size_t)n + 1)
    return 0;
  const name_insert *ins = L->inserts.items;
  /* the map below is a permutation of [0, total) only when the inserts are in order and each
   * comes before an earlier name or at the table's end: anything else is not renumbered */
  for (size_t j = 0; j < count; j++)
    if (ins[j].before > old_len ||
        (j > 0 && (ins[j].before < ins[j - 1].before || ins[j].ord < ins[j - 1].ord)))
      return 0;
  vxp_name *map = vxp_ctx__malloc(L->ctx, total * sizeof(vxp_name));
  if (!map) return VXP_ENOMEM;
  for (size_t i = 0, j = 0; i < old_len; i++) {
    while (j < count && ins[j].before <= i)
      j++;
    map[i] = (vxp_name)(i + j);
  }
  for (size_t j = 0; j < count; j++)
    map[old_len + j] = (vxp_name)(ins[j].before + j);
  int rc = vxp_strtab__renumber(L->ctx, &m->names, map);
  if (rc == VXP_OK) {
    vxp_model__rename(m, map, total);
    bool sorted = true;
    for (size_t i = 0; i < marks->signatures.len; i++) {
      fn_signature *r = &marks->signatures.items[i];
      r->name = map[r->name];
      if (r->return_nominal < total) r->return_nominal = map[r->return_nominal];
      if (i && compare_signatures(&marks->signatures.items[i - 1], r) > 0) sorted = false;
    }
    if (!sorted)
      qsort(marks->signatures.items, marks->signatures.len, sizeof(fn_signature),
            compare_signatures);
    /* a mark's next name id moves by the names brought in before it */
    for (uint32_t k = 0, j = 0; k <= n; k++) {
      while (j < count && ins[j].ord < k)
        j++;
      marks->sig.items[k].names += j;
    }
    for (uint32_t k = 0, j = 0; k <= n; k++) {
      while (j < count && ins[j].ord < n + 1 + k)
        j++;
      marks->body.items[k].names += j;
    }
  }
  vxp_ctx__free(L->ctx, map);
  return rc == VXP_OK ? 1 : rc;
}

int vxp_lower__splice(vxp_context *ctx, const vxp_source *src, const vxp_top_nodes *top,
                      const vxp_top_nodes *more, size_t more_count, vxp_reuse *R,
                      const vxp_model *old, const vxp_lower_marks *old_marks,
                      const vxp_diag_list *old_diags, vxp_model *model, vxp_diag_list *diags,
                      vxp_lower_marks *marks) {
  uint32_t n = R->items;
  if (old_marks->sig.len != (size_t)n + 1 || old_marks->body.len != (size_t)n + 1) return 0;
  if (vxp_strtab__copy(ctx, &model->names, &old->names, model->arena) != VXP_OK) return VXP_ENOMEM;
  if (!vxp_model__reserve_like(ctx, model, old) ||
      (old_diags->len > diags->len && !array_reserve(ctx, diags, old_diags->len - diags->len)))
    return VXP_ENOMEM;
  lowerer L;
  lowerer_init(&L, ctx, src, model, diags);
  L.names_old = L.names_new_next = (vxp_name)old->names.strings.len;
  const vxp_lower_mark *sig = old_marks->sig.items, *body = old_marks->body.items;
  int ok = 1;
  /* The signature pass: every unchanged signature's part is copied in place; a function's
   * whose signature text changed is lowered again in place (resign_item). */
  /* Items are copied in runs (copy_run_end): one copy per run, not per item, since the
   * per-copy work (some twenty tables reserved and appended) was most of a splice's. */
  Array(fn_signature) resigned;
  memset(&resigned, 0, sizeof(resigned));
  for (uint32_t k = 0, j; ok == 1 && !failed(&L) && k < n; k = j) {
    TSNode item;
    if (R->changed_sig && R->changed_sig[k] && vxp_top_nodes__get(top, k, &item) &&
        ts_node_symbol(item) == L.S->function_item) {
      j = k + 1;
      push_mark_names(&L, &marks->sig, sig[k].names);
      fn_signature now;
      if (!failed(&L)) ok = resign_item(&L, old, sig, body, k, item, &now);
      if (ok == 1 && !failed(&L) && !array_push(ctx, &resigned, now)) oom(&L);
      continue;
    }
    j = copy_run_end(R, k, n, true);
    for (uint32_t x = k + 1; R->changed_sig && x < j; x++)
      if (R->changed_sig[x]) j = x; /* lowered again, or a const's (empty) part */
    uint8_t side = R->side[k] == VXP_REUSE_FRESH ? VXP_REUSE_BEFORE : R->side[k];
    push_copied_marks(&L, &marks->sig, mark_now(&L), sig, k, j);
    ok = failed(&L) ? 1
                    : vxp_model__copy_part(ctx, R, side, old, old_diags, &sig[k], &sig[j], &sig[k],
                                           model, diags);
  }
  if (ok < 0) {
    L.rc = ok;
    ok = 0;
  }
  if (ok == 1) push_mark_names(&L, &marks->sig, sig[n].names);
  if (ok == 1 && !failed(&L) && old_marks->signatures.len &&
      (!array_reserve(ctx, &L.signatures, old_marks->signatures.len) ||
       !array_reserve(ctx, &marks->signatures, old_marks->signatures.len)))
    oom(&L);
  if (ok == 1 && !failed(&L)) {
    size_t bytes = old_marks->signatures.len * sizeof(fn_signature);
    if (bytes) {
      memcpy(L.signatures.items, old_marks->signatures.items, bytes);
      memcpy(marks->signatures.items, old_marks->signatures.items, bytes);
    }
    L.signatures.len = marks->signatures.len = old_marks->signatures.len;
  }
  /* Changed signatures: taken over when what other items read of them is unchanged. */
  R->again_unread = false;
  if (ok == 1 && !failed(&L) && R->changed_sig)
    ok = resign(&L, R, top, old, old_marks, marks, resigned.items, resigned.len);
  array_free(ctx, &resigned);
  if (ok < 0) {
    L.rc = ok;
    ok = 0;
  }
  TSNode unused;
  for (uint32_t k = 0; ok == 1 && R->again && k < n; k++)
    if (R->again[k] && !item_node(top, more, more_count, k, &unused)) {
      R->again_unread = true;
      ok = 0;
    }
  /* The item pass: the touched functions lowered, the others copied and moved. */
  if (ok == 1 && !failed(&L) && n) {
    /* the earlier version's index of the functions, carried over when it was kept; else
     * read afresh, which needs every item's node */
    setup_vis(&L);
    int carried =
        old_marks->vis_kept ? vxp_lower_vis__carry(&L.vis, &old_marks->vis, R, top, n) : 0;
    if (carried < 0)
      L.rc = carried;
    else if (carried == 0 && top->first == 0 && top->count == n)
      begin_vis(&L, top->nodes, n, top->nodes[0]);
    else if (carried == 0)
      ok = 0;
    /* a changed signature whose function's entry changed: the callers' visibility facts
     * read it, so they are lowered again */
    if (ok == 1 && !failed(&L) && R->changed_sig &&
        !vxp_lower_vis__same_index(&L.vis, &old_marks->vis))
      ok = vis_readers_again(&L, R, old, &old_marks->vis, top, more, more_count);
    if (ok < 0) {
      L.rc = ok;
      ok = 0;
    }
  }
  for (uint32_t k = 0, j; ok == 1 && !failed(&L) && k < n; k = j) {
    if (vxp_ctx__interrupted(ctx)) {
      L.rc = VXP_ECANCELLED;
      break;
    }
    j = k + 1;
    bool again = R->again && R->again[k];
    if (R->side[k] != VXP_REUSE_FRESH && !again) {
      j = copy_run_end(R, k, n, false);
      for (uint32_t x = k + 1; R->again && x < j; x++)
        if (R->again[x]) j = x;
      push_copied_marks(&L, &marks->body, mark_now(&L), body, k, j);
      if (!failed(&L))
        ok = vxp_model__copy_part(ctx, R, R->side[k], old, old_diags, &body[k], &body[j], &sig[n],
                                  model, diags);
      continue;
    }
    push_mark_names(&L, &marks->body, body[k].names);
    TSNode item;
    TSSymbol sym = 0;
    if (item_node(top, more, more_count, k, &item)) sym = ts_node_symbol(item);
    /* a touched function, or const when the plan marked it; an item lowered again */
    if (!(sym == L.S->function_item ||
          (sym == L.S->const_item && R->changed_sig && R->changed_sig[k]) ||
          (sym == L.S->impl_item && again))) {
      ok = 0;
      break;
    }
    L.check_names = true;
    L.names_differ = false;
    L.name_lo = L.name_next = body[k].names;
    L.name_hi = body[k + 1].names;
    L.name_ord = n + 1 + k;
    L.top_index = k;
    lower_item_again(&L, item);
    L.check_names = false;
    if (L.names_differ || L.name_next != L.name_hi) ok = 0;
  }
  if (ok == 1) push_mark_names(&L, &marks->body, body[n].names);
  if (ok == 1 && !failed(&L) && L.inserts.len) ok = rename_names(&L, marks, n);
  if (ok < 0) {
    L.rc = ok;
    ok = 0;
  }
  R->names_moved = ok == 1 && L.inserts.len > 0;
  if (ok == 1 && !failed(&L)) { /* for the next splice */
    vxp_lower_vis__keep(&L.vis, &marks->vis);
    marks->vis_kept = true;
  }
  lowerer_free(&L);
  if (L.rc != VXP_OK) return L.rc;
  return ok;
}
