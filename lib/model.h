/* SPDX-License-Identifier: Apache-2.0 */
/* model.h - the program model: what lowering extracts from a syntax tree and everything
 * after lowering works on. Functions are event streams in program order (blocks opening
 * and closing, placements, calls); shapes are unevaluated constant expressions so that
 * one generic function can be evaluated for each of its instances. */
#ifndef VXP_MODEL_H
#define VXP_MODEL_H

#include "array.h"
#include "strtab.h"

/* Sentinel index meaning "none" in every uint32_t index field below. */
#define VXP_NONE UINT32_MAX

/* ------------------------------------------------------------------ element types */

/* Element types of tensors, with their widths in bits (bool is packed to 1 bit). */
typedef enum vxp_elem {
  VXP_ELEM_UNKNOWN = 0, /* not an element type name (a generic parameter, a struct) */
  VXP_ELEM_BOOL,
  VXP_ELEM_I4,
  VXP_ELEM_U4,
  VXP_ELEM_F4E2M1,
  VXP_ELEM_I8,
  VXP_ELEM_U8,
  VXP_ELEM_F8E4M3,
  VXP_ELEM_F8E5M2,
  VXP_ELEM_I16,
  VXP_ELEM_U16,
  VXP_ELEM_F16,
  VXP_ELEM_BF16,
  VXP_ELEM_I32,
  VXP_ELEM_U32,
  VXP_ELEM_F32,
  VXP_ELEM_I64,
  VXP_ELEM_U64,
  VXP_ELEM_F64,
  VXP_ELEM_I128,
  VXP_ELEM_U128,
  VXP_ELEM_COUNT
} vxp_elem;

/* Element type from its Vx spelling (`Bool` is accepted for `bool`); UNKNOWN otherwise. */
vxp_elem vxp_elem__from_name(const char *s, size_t len);
/* Width in bits (0 for UNKNOWN). */
unsigned vxp_elem__bits(vxp_elem e);
/* Canonical spelling ("f32"). */
const char *vxp_elem__name(vxp_elem e);

/* ------------------------------------------------------------------ constant expressions */

/* Shapes, generic arguments, const items and loop bounds are kept as expression trees and
 * folded by consteval.c against an environment (const items, const-generic bindings). */
typedef enum vxp_cexpr_kind {
  VXP_CX_INT,      /* integer literal: `value`; `suffix` holds an element type suffix */
  VXP_CX_BIGINT,   /* an integer literal that does not fit in 64 bits */
  VXP_CX_BOOL,     /* true/false: `value` 0/1 */
  VXP_CX_NAME,     /* a name to look up: `name` */
  VXP_CX_UNARY,    /* `op` applied to `lhs` */
  VXP_CX_BINARY,   /* `lhs` `op` `rhs` */
  VXP_CX_SELECT,   /* `if lhs { rhs } else { alt }` (in a comptime block or a const value) */
  VXP_CX_OPAQUE,   /* cannot fold (call, float, method, ...): `reason` says what it is */
  VXP_CX_REACHABLE /* `Transfer<A, B>` / `Reachable<A, B>` as a comptime condition: whether a
                      transfer from place `name` to place `value` (a vxp_name) routes; `op`
                      bit 0: `name` is a topology, bit 1: `value` is one (else spaces) */
} vxp_cexpr_kind;

typedef enum vxp_cop {
  VXP_OP_NONE = 0,
  VXP_OP_ADD,
  VXP_OP_SUB,
  VXP_OP_MUL,
  VXP_OP_DIV,
  VXP_OP_REM,
  VXP_OP_EQ,
  VXP_OP_NE,
  VXP_OP_LT,
  VXP_OP_GT,
  VXP_OP_LE,
  VXP_OP_GE,
  VXP_OP_AND,
  VXP_OP_OR,
  VXP_OP_NOT,
  VXP_OP_NEG,
  VXP_OP_BITAND,
  VXP_OP_BITOR,
  VXP_OP_BITXOR
} vxp_cop;

typedef enum vxp_opaque_reason {
  VXP_OPAQUE_NONE = 0,
  VXP_OPAQUE_DYNAMIC, /* `?` */
  VXP_OPAQUE_FLOAT,   /* a decimal literal */
  VXP_OPAQUE_CALL,    /* a call or method call */
  VXP_OPAQUE_OTHER    /* any other expression form (index, field, @, ...) */
} vxp_opaque_reason;

/* What a name in a constant expression referred to where it was written (lowering knows the
 * lexical scope; the analysis knows const items, -D overrides and the machine). */
typedef enum vxp_name_scope {
  VXP_NAMESCOPE_FREE = 0, /* nothing in lexical scope: a const item, a -D override, or undefined */
  VXP_NAMESCOPE_LOCAL, /* a run-time binding in scope: a parameter, `let`, loop or pattern variable
                        */
  VXP_NAMESCOPE_GENERIC, /* a generic parameter of the enclosing function, struct or impl */
  VXP_NAMESCOPE_RUNTIME  /* written in a run-time condition, which the analysis never folds; not
                        resolved (a name there may be bound by constructs lowering skips) */
} vxp_name_scope;

/* Invariant: lhs/rhs/alt index earlier entries of the same program's `cexprs` array
 * (VXP_NONE when unused), so the expressions form a DAG: a `let` inside a comptime block is
 * lowered once and every use of its name refers to the same entry. */
typedef struct vxp_cexpr {
  uint8_t kind;   /* vxp_cexpr_kind */
  uint8_t op;     /* vxp_cop */
  uint8_t reason; /* vxp_opaque_reason */
  uint8_t suffix; /* vxp_elem of an integer literal's suffix, or UNKNOWN */
  uint8_t scope;  /* NAME: vxp_name_scope */
  uint32_t lhs, rhs, alt;
  vxp_name name;
  uint64_t value;
  uint32_t start_byte, end_byte;
} vxp_cexpr;

/* ------------------------------------------------------------------ types */

typedef enum vxp_place_kind {
  VXP_PLACE_NONE = 0, /* unplaced: a host tensor */
  VXP_PLACE_MEMORY,   /* `Memory::S` */
  VXP_PLACE_TOPOLOGY  /* `Topology::X[i]`: the topology's default space */
} vxp_place_kind;

/* A place: a memory space or a topology (resolved against the machine at analysis time). */
typedef struct vxp_place {
  uint8_t kind;   /* vxp_place_kind */
  bool variable;  /* TOPOLOGY written as a bare name: a topology variable or parameter */
  vxp_name name;  /* space or topology name */
  uint32_t index; /* cexpr of a topology index, or VXP_NONE */
  uint32_t start_byte, end_byte;
} vxp_place;

typedef enum vxp_wrapper {
  VXP_WRAP_NONE = 0,
  VXP_WRAP_REF,   /* Ref<Tensor<...>, Memory::S> */
  VXP_WRAP_PINNED /* Pinned<Tensor<...>, Topology::X> */
} vxp_wrapper;

/* A tensor type. Invariant: when has_shape, dims[dims_first .. dims_first + dims_count) of
 * the program's `dim_list` are cexpr indices (a `?` dim is an OPAQUE/DYNAMIC cexpr). */
typedef struct vxp_tensor_type {
  uint8_t elem;    /* vxp_elem */
  uint8_t wrapper; /* vxp_wrapper */
  bool has_shape;
  bool elem_generic;  /* elem_name is a generic parameter in scope (elem is then UNKNOWN) */
  vxp_name elem_name; /* the element as written (a generic parameter when elem is UNKNOWN) */
  uint32_t elem_start, elem_end; /* where the element is written */
  uint32_t dims_first, dims_count;
  vxp_place placement;
  uint32_t start_byte, end_byte;
} vxp_tensor_type;

/* ------------------------------------------------------------------ function events */

typedef enum vxp_block_kind {
  VXP_BLOCK_IF,        /* then-arm of `if` (releasing) */
  VXP_BLOCK_ELSE,      /* `else` arm (releasing) */
  VXP_BLOCK_FOR,       /* `for` body (releasing) */
  VXP_BLOCK_LOOP,      /* `loop` body (releasing) */
  VXP_BLOCK_SPAWN,     /* `spawn on(...)` region (not releasing) */
  VXP_BLOCK_MATCH_ARM, /* `match` arm (not releasing) */
  VXP_BLOCK_UNSAFE,    /* `unsafe { }` (not releasing) */
  VXP_BLOCK_COMPTIME   /* `comptime { }` (not releasing) */
} vxp_block_kind;

/* Whether the runtime frees a block's tiles at its end (vxc's releasing scopes). */
static inline bool vxp_block__releases(vxp_block_kind k) {
  return k == VXP_BLOCK_IF || k == VXP_BLOCK_ELSE || k == VXP_BLOCK_FOR || k == VXP_BLOCK_LOOP;
}

typedef enum vxp_event_kind {
  VXP_EV_OPEN,  /* a block opens: `block` */
  VXP_EV_CLOSE, /* the innermost open block closes */
  VXP_EV_PLACE, /* a placement: `place` */
  VXP_EV_CALL   /* a call site: `call` */
} vxp_event_kind;

typedef enum vxp_place_form {
  VXP_FORM_TRANSFER, /* transfer(x, Memory::S) */
  VXP_FORM_LET_TYPE  /* a `let` whose declared or inferred type is placed */
} vxp_place_form;

typedef struct vxp_block_event {
  uint8_t kind;         /* vxp_block_kind */
  bool comptime;        /* an `if comptime` arm: `condition` decides whether it runs */
  bool continues_match; /* MATCH_ARM: not the first arm of its `match` (the arms of one
                           match are alternatives) */
  uint32_t condition;   /* cexpr of the `if` condition, or VXP_NONE */
  uint32_t trip_start;  /* `for` over `a..b`: cexprs of a and b; VXP_NONE otherwise */
  uint32_t trip_end;
  vxp_name topology;   /* `spawn on(Topology::X)`: X; NONE otherwise or when not a path */
  uint32_t start_byte; /* the construct that opens the block (`for ...`, `spawn ...`) */
  uint32_t end_byte;
} vxp_block_event;

/* Where a transferred value lives before the transfer. */
typedef struct vxp_origin {
  bool known;      /* false: the value's placement could not be followed */
  vxp_place place; /* NONE kind = the host (CPU_DRAM) */
} vxp_origin;

typedef struct vxp_place_event {
  uint8_t form;      /* vxp_place_form */
  bool type_known;   /* false: the placed value's type could not be inferred */
  uint32_t type;     /* index into the program's tensor types (when type_known) */
  vxp_place dest;    /* the space (or topology) placed into */
  vxp_origin origin; /* transfers only */
  vxp_name binding;  /* the `let` name or the assigned variable; NONE when unbound */
  vxp_name role;     /* the role a `// role:` comment names for it (roles.h), or NONE */
  uint32_t start_byte, end_byte;
} vxp_place_event;

typedef struct vxp_call_event {
  vxp_name callee;        /* the called path as written: `f`, `Type::m`, `a::b::f` */
  vxp_name method;        /* `x.m(...)`: the method name (callee is NONE) */
  vxp_name receiver_type; /* `x.m(...)`: x's nominal type when known */
  bool indirect;          /* a call through an expression (function value, closure var) */
  uint32_t generic_first; /* generic arguments: cexpr indices in the program's dim_list */
  uint32_t generic_count;
  uint32_t args_first; /* the arguments: call_args[args_first .. + args_count) */
  uint32_t args_count;
  uint32_t start_byte, end_byte;
} vxp_call_event;

/* What lowering knows about one argument of a call: enough to infer the generic arguments
 * of a generic callee that were not written (`stage(7)` is `stage<i32>`). */
typedef struct vxp_call_arg {
  uint32_t type;    /* tensor type index of the argument's value, or VXP_NONE */
  uint8_t scalar;   /* vxp_elem of a literal (`7` i32, `1.5` f32, `2i64`), or UNKNOWN */
  vxp_name nominal; /* the argument's struct type when known, else NONE */
} vxp_call_arg;

typedef struct vxp_event {
  uint8_t kind; /* vxp_event_kind */
  union {
    vxp_block_event block;
    vxp_place_event place;
    vxp_call_event call;
  } u;
} vxp_event;

/* ------------------------------------------------------------------ element accesses */

/* An access to a tensor's elements inside a `spawn` region: `x[i][j]` read in an
 * expression, or written as an assignment target (a compound assignment `x[i] += v` is a
 * read and a write). Only accesses inside spawn regions are recorded: they are the device
 * work the roofline (roofline.c) counts. Kept beside the event stream rather than in it,
 * so that walks over events need not know about them. */
typedef enum vxp_access_kind { VXP_ACCESS_READ, VXP_ACCESS_WRITE } vxp_access_kind;

/* Invariant: a function's accesses are in program order; `event` is the number of the
 * function's events that precede the access, so the blocks around it are known. */
typedef struct vxp_access {
  uint8_t kind;     /* vxp_access_kind */
  uint32_t event;   /* it happens after events[0 .. event) */
  uint32_t indices; /* how many `[..]` are applied: fewer than the rank is a slice */
  vxp_name tensor;  /* the indexed variable; NONE when the base is not a name */
  uint32_t type;    /* its tensor type, or VXP_NONE when not known */
  vxp_origin loc;   /* where its value lives */
  uint32_t start_byte, end_byte;
} vxp_access;

/* An arithmetic operation inside a `spawn` region: a binary `+ - * / %` or a compound
 * assignment `x op= v` on scalars (a multiply-add is two of them, as hardware counts
 * FLOPs), one execution per pass through its place. Kept beside the event stream like the
 * accesses; roofline.c multiplies each by the trip counts around it. */
typedef enum vxp_arith_kind {
  VXP_ARITH_SCALAR,  /* one operation of element type `elem` */
  VXP_ARITH_UNTYPED, /* one operation whose element type lowering could not tell */
  VXP_ARITH_SLICE,   /* an operand is a slice (fewer indices than its rank) */
  VXP_ARITH_MATMUL   /* `@` on tensors: not counted */
} vxp_arith_kind;

typedef struct vxp_arith {
  uint8_t kind;   /* vxp_arith_kind */
  uint8_t elem;   /* vxp_elem (SCALAR) */
  uint32_t event; /* it happens after events[0 .. event) */
  uint32_t start_byte, end_byte;
} vxp_arith;

/* ------------------------------------------------------------------ visibility facts */

/* What the checks of where code runs and what it can see (visibility.c: E6001, E6003,
 * E6029, E6030, E8002) need of a function body, recorded by lowering (lower_visibility.c)
 * in the order that walk meets them. Everything that depends on the machine (a topology's
 * default space, what it sees) is left to the analysis; everything written in the program
 * (which topology code runs on, where a value was made, which function a call names, what
 * a region hands out) is decided here. */
typedef enum vxp_vis_kind {
  VXP_VIS_ACCESS,  /* E6003: an element of `name` read or written from `here` */
  VXP_VIS_CALL,    /* E6001: `name` (bound to `topo`) called from `here` */
  VXP_VIS_POINTER, /* E6029: a pointer into `space` passed as argument `arg` of `name` */
  VXP_VIS_REGION,  /* E6030: a region on `here` hands out a tensor it creates (`why`) */
  VXP_VIS_ASSERT   /* E8002 / E3026: a comptime assertion over `name.topology()` */
} vxp_vis_kind;

/* Why a region's tensor cannot be made before the region (VXP_VIS_REGION). */
typedef enum vxp_vis_why {
  VXP_VIS_WHY_NOT_NAMED, /* the value is a constructor, not a variable */
  VXP_VIS_WHY_ANNOTATED, /* its `let` has a type annotation */
  VXP_VIS_WHY_SIZED_IN,  /* its size is computed inside the region */
  VXP_VIS_WHY_SHADOWS    /* a variable of that name exists outside the region */
} vxp_vis_why;

/* A topology as written: `NPU` and `0` of `Topology::NPU[0]` (index NONE when none is
 * written: the first device). */
typedef struct vxp_vis_topo {
  vxp_name name, index;
} vxp_vis_topo;

/* Where a value lives, as far as the program says: a space by name, or the default space
 * of a topology (which the machine decides). */
typedef struct vxp_vis_space {
  bool of_topology;
  vxp_name space;    /* !of_topology */
  vxp_vis_topo topo; /* of_topology */
} vxp_vis_space;

/* ASSERT: what is known of a value's `.topology()`, or of the literal it is compared to. */
typedef enum vxp_vis_placed {
  VXP_VIS_PLACED_UNKNOWN, /* not known (a parameter, a call's value, a variable topology) */
  VXP_VIS_PLACED_NONE,    /* `None`: made on the host, unplaced */
  VXP_VIS_PLACED_SOME     /* `Some(Topology::T)`: the topology is `topo` / `want` */
} vxp_vis_placed;

typedef struct vxp_vis_fact {
  uint8_t kind;        /* vxp_vis_kind */
  uint8_t why;         /* REGION: vxp_vis_why */
  uint8_t have;        /* ASSERT: vxp_vis_placed of the value */
  uint8_t wanted;      /* ASSERT: vxp_vis_placed of the literal */
  bool eq;             /* ASSERT: `==` (else `!=`) */
  bool want_host;      /* POINTER: the parameter wants a pointer into host memory */
  uint32_t arg;        /* POINTER: the argument's number, from 1 */
  vxp_name name;       /* ACCESS: the tensor; CALL, POINTER: the callee; REGION: the value
                          as written (60 bytes at most); ASSERT: the queried variable */
  vxp_name want_space; /* POINTER: the space the parameter wants (when !want_host) */
  vxp_vis_topo here;   /* ACCESS, CALL: where the code runs; REGION: the region's topology */
  vxp_vis_topo topo;   /* CALL: the callee's `on`; ASSERT: the value's topology (SOME) */
  vxp_vis_topo want;   /* ASSERT: the literal's topology (SOME) */
  vxp_vis_space space; /* ACCESS: where the tensor lives; POINTER: where the pointer points */
  uint32_t start_byte, end_byte; /* where a diagnostic points (ASSERT: the statement) */
  uint32_t cond_start, cond_end; /* ASSERT: the condition (E3026 points there) */
} vxp_vis_fact;

/* ------------------------------------------------------------------ raw:: facts */

/* What the `raw::` obligations of a transfer lowering (raw_primitives.c: E6017, E6019,
 * E6020, E6021) come to in an item, recorded by lowering (lower_raw.c) in the order that
 * walk reports them. Each is a diagnostic, formatted from the program's text, and the
 * condition on the machine under which it holds: always, or only when the lowering's edge
 * (the EDGE fact before it) exists and lacks a copy engine (E6020) or is synchronizing,
 * not `relaxed` (the publication part of E6021). The analysis answers the conditions
 * against the view. */
typedef enum vxp_raw_kind {
  VXP_RAW_EDGE,   /* a transfer lowering's edge: Memory::`from` -> Memory::`to` of Topology::`topo`
                     (all three NONE when one is not written: no edge) */
  VXP_RAW_ALWAYS, /* the diagnostic holds on every machine */
  VXP_RAW_NO_COPY_ENGINE, /* it holds when the edge exists and declares no `copy_engine` */
  VXP_RAW_SYNCHRONIZING   /* it holds when the edge exists and is not `relaxed` */
} vxp_raw_kind;

typedef struct vxp_raw_fact {
  uint8_t kind;                  /* vxp_raw_kind */
  char code[6];                  /* the diagnostic's code ("E6017"...; EDGE: empty) */
  vxp_name message;              /* the diagnostic's message; EDGE: the topology's name */
  vxp_name from, to;             /* EDGE: the edge's spaces */
  uint32_t start_byte, end_byte; /* where the diagnostic points (EDGE: the item) */
} vxp_raw_fact;

typedef Array(vxp_raw_fact) vxp_raw_facts;

/* ------------------------------------------------------------------ items */

typedef struct vxp_generic_param {
  vxp_name name;
  bool is_const;
} vxp_generic_param;

/* A parameter, for inferring a generic callee's arguments from a call's. */
typedef struct vxp_param {
  vxp_name name;
  uint32_t type;      /* tensor type index when the parameter is a tensor, else NONE */
  vxp_name type_name; /* a bare named type as written (`T`, `Point`), else NONE */
} vxp_param;

/* Invariant: events form a well-nested sequence (every OPEN has its CLOSE); `reads` is
 * sorted and holds every name the body reads (a bare assignment target is not a read). */
typedef struct vxp_function {
  vxp_name name;  /* qualified for methods: `Type::method` */
  vxp_name owner; /* the impl's type for methods, else NONE */
  uint32_t start_byte, end_byte;
  uint32_t name_start, name_end;
  Array(vxp_generic_param) generics;
  Array(vxp_param) params;
  Array(vxp_event) events;
  Array(vxp_name) reads;
  Array(vxp_access) accesses; /* element accesses inside spawn regions */
  Array(vxp_arith) ariths;    /* arithmetic inside spawn regions, in program order */
  bool is_closure;            /* a closure body lowered as its own function */
  uint32_t parent;            /* a closure's enclosing function, VXP_NONE for an item */
  uint32_t item;              /* the top-level item it belongs to (model items) */
  /* Its six tables were carved from the model's arena by a splice (model_copy.c), not each
   * taken from the allocator: they go with the arena, never one by one, and do not grow. */
  bool tables_in_arena;
} vxp_function;

/* A declared position holding a placed tensor type: a parameter, a return type or a
 * struct field. vxc checks these against capacity one tile at a time (E6009) and adds
 * them to nobody's working set: the caller owns the tile. */
typedef enum vxp_declared_kind {
  VXP_DECLARED_PARAMETER,
  VXP_DECLARED_RETURN,
  VXP_DECLARED_FIELD
} vxp_declared_kind;

typedef struct vxp_declared {
  uint8_t kind;    /* vxp_declared_kind */
  vxp_name owner;  /* the function or struct */
  vxp_name member; /* the parameter or field; NONE for a return type */
  uint32_t type;   /* tensor type index */
  uint32_t start_byte, end_byte;
} vxp_declared;

/* A name written where a type or a topology must be named, kept for resolution (resolve.c:
 * E3029, E6025): the nominal types of signatures (parameters, return types, struct fields,
 * with their generic arguments) and every `Topology::X` written outside a tensor type (a
 * `spawn on(...)`, a signature's `on`, a comptime predicate's argument, an expression).
 * Generic parameters in scope are resolved by lowering and not kept. */
typedef enum vxp_ref_kind {
  VXP_REF_TYPE,    /* a nominal type: `Point`, the `Vec` and `Point` of `Vec<Point>` */
  VXP_REF_TOPOLOGY /* `Topology::X` */
} vxp_ref_kind;

typedef struct vxp_name_ref {
  uint8_t kind; /* vxp_ref_kind */
  bool in_body; /* written in the body of `function` (else in a signature) */
  bool spawn;   /* the topology of a `spawn on(...)`: vxc only warns (W1025) when unknown */
  vxp_name name;
  uint32_t function; /* the function whose signature or body holds it, or VXP_NONE */
  uint32_t event;    /* in_body: how many of the function's events precede it */
  uint32_t start_byte, end_byte;
} vxp_name_ref;

typedef struct vxp_const_item {
  vxp_name name;
  uint32_t value; /* cexpr index */
  uint32_t start_byte, end_byte;
} vxp_const_item;

/* A top-level item of the program, with a stable id: its index in `items`, in source
 * order. Every function the model holds (a method, a closure) belongs to one item, and so
 * does every const item; an item's byte range is where its syntax node is written, so the
 * node of any construct finds its item by position (vxp_model__item_at). */
typedef enum vxp_item_kind {
  VXP_ITEM_FUNCTION, /* `fn`: functions[first_function] and the closures in it */
  VXP_ITEM_IMPL,     /* `impl`: its methods and their closures */
  VXP_ITEM_CONST,    /* `const`: consts[index] */
  VXP_ITEM_STRUCT,
  VXP_ITEM_ENUM,
  VXP_ITEM_TRAIT,
  VXP_ITEM_EXTERN,
  VXP_ITEM_IMPORT,
  VXP_ITEM_MEMORY,   /* `Memory`: declarations->spaces[declaration] */
  VXP_ITEM_TOPOLOGY, /* `Topology`: declarations->topologies[declaration] */
  VXP_ITEM_LOWERING, /* `impl Transfer<...> for Topology::X`: declarations->lowerings[..] */
  VXP_ITEM_OTHER     /* a macro, a stray path, text the parser could not place */
} vxp_item_kind;

typedef struct vxp_model_item {
  uint8_t kind;  /* vxp_item_kind */
  vxp_name name; /* NONE when the item has none (impl, extern, import, other) */
  uint32_t start_byte, end_byte;
  uint32_t first_function; /* functions[first_function .. + function_count) are its own */
  uint32_t function_count;
  uint32_t index; /* CONST: consts index; VXP_NONE otherwise */
  /* MEMORY, TOPOLOGY, LOWERING: the declaration the model's `declarations` hold of it (a
   * space, a topology, a lowering), or VXP_NONE (the reader dropped it: a duplicate name,
   * a name it could not read); VXP_NONE for the other kinds. */
  uint32_t declaration;
  /* FUNCTION, IMPL: visibility[vis_first .. + vis_count) are the facts of its bodies */
  uint32_t vis_first, vis_count;
  uint32_t top; /* its position among the root's children (comments and stray text count) */
  /* raw[raw_first .. + raw_count) are the `raw::` facts of the item (any kind) */
  uint32_t raw_first, raw_count;
} vxp_model_item;

/* The whole lowered program. Invariant: all indices refer into this struct's arrays;
 * `items` are in source order and do not overlap; every function's `item` holds it. */
typedef struct vxp_model {
  vxp_strtab names;
  Array(vxp_cexpr) cexprs;
  Array(uint32_t) dim_list; /* cexpr indices referenced by tensor dims and generic args */
  Array(vxp_tensor_type) types;
  Array(vxp_function) functions;
  Array(vxp_const_item) consts;
  Array(vxp_declared) declared;
  Array(vxp_call_arg) call_args;
  Array(vxp_name) externs;        /* functions declared in `extern` blocks (no body) */
  Array(vxp_name) enums;          /* enum names: `E::V(x)` constructs a value, it calls nothing */
  Array(vxp_name) structs;        /* struct names: a generic argument may name one as a type */
  Array(vxp_name) traits;         /* trait names */
  Array(vxp_name) topologies;     /* names of the program's own `Topology` declarations (known even
                                     when --machine-only sets them aside) */
  Array(vxp_name_ref) refs;       /* type and topology names to resolve, in source order */
  Array(vxp_model_item) items;    /* top-level items, in source order: their ids */
  Array(vxp_vis_fact) visibility; /* visibility facts, item by item, in walk order */
  vxp_raw_facts raw;              /* `raw::` facts, item by item, in walk order */
  uint32_t imports; /* `import` items: calls to names not defined here may be theirs */
  /* The program's own Memory/Topology declarations and transfer lowerings (machine.h), read
   * once from the tree when the program is built; their items point into them. Owned by the
   * program that holds the model (program.c frees them: the model knows no machine); NULL until
   * read. Every analysis borrows them; their problems (units,
   * fields) are in declarations->diags, which an analysis reports. */
  struct vxp_machine *declarations;
  vxp_arena *arena; /* where the names' strings go (the program's arena), or NULL: their own */
} vxp_model;

void vxp_model__free(vxp_context *ctx, vxp_model *m);

/* A table of a model (or of what holds one): `len` elements of `elem` bytes at *items, room
 * for *cap (NULL: a fixed table, `len` is its size). */
typedef void (*vxp_table_fn)(void *data, void **items, size_t len, size_t elem, size_t *cap);

/* Call `fn` on every table of `m`, the name table's included: the one list vxp_model__free
 * gives back (make check-tables holds it to the struct's fields). A function's tables come
 * before the functions' table; those of a function whose tables are the arena's
 * (`tables_in_arena`) are not tables of their own and are left out. */
void vxp_model__each_table(vxp_model *m, vxp_table_fn fn, void *data);

/* The id of the top-level item whose range holds byte `offset` (an item's syntax node, or
 * any node inside it), or VXP_NONE between items. Binary search. */
uint32_t vxp_model__item_at(const vxp_model *m, uint32_t offset);

/* Binary search of a function's sorted `reads`. */
bool vxp_function__reads(const vxp_function *fn, vxp_name name);

#endif /* VXP_MODEL_H */
