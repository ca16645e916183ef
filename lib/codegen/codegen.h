/* SPDX-License-Identifier: Apache-2.0 */
/* codegen.h - private declarations of the optional CUDA code generation stage.
 *
 * The generator reads the program's syntax tree for the statements to emit (the program
 * model keeps only what memory needs), and takes every allocation size and release point
 * from the analysis: a device allocation is made only where the analysis recorded a tile,
 * with that record's granule-rounded bytes, and freed where the analysis releases it (the
 * end of its releasing block, at once for a never-read tile, or the function's exit). The
 * core library does not depend on this directory. */
#ifndef VXP_CODEGEN_H
#define VXP_CODEGEN_H

#include <tree_sitter/api.h>

#include "analysis_data.h"
#include "scope_index.h"
#include "arena.h"
#include "consteval.h"
#include "context.h"
#include "program.h"
#include "source.h"
#include "strbuf.h"

/* Diagnostic code of a construct outside the code generation subset. */
#define VXP_CG_REFUSED "VXP0800"

/* The runtime prelude (lib/codegen/prelude.cuh), embedded at build time. */
extern const char vxp_cuda__prelude[];

/* ------------------------------------------------------------------ the generator */

/* The generated program. */
/* Invariant: when `in_text`, the handle lives at the end of its text's block (and has no
 * diagnostics), so freeing it is one call. */
struct vxp_cuda {
  uint32_t tag; /* VXP_TAG_CUDA, first: checked on entry (tag.h) */
  vxp_context *ctx;
  char *text; /* NULL when the program was refused */
  size_t len;
  vxp_diag_list diags;
  bool in_text;  /* the handle lives at the end of its text's block (no diagnostics) */
  bool in_arena; /* the handle and its diagnostics live in `arena` (a refusal) */
  vxp_arena arena;
};

#define CG_MAX_RANK 16

/* A tensor type with its shape folded. `space` indexes the generator's spaces when the
 * tensor lives in a counted space, VXP_NONE for an uncounted host buffer. */
typedef struct cg_tensor {
  uint8_t elem; /* vxp_elem */
  uint32_t rank;
  uint64_t dims[CG_MAX_RANK];
  uint64_t count; /* elements */
  uint64_t bytes; /* ceil(bits * count / 8): what a copy moves */
  bool device;
  uint32_t space;
} cg_tensor;

/* A counted memory space of the generated program (one that received a tile). */
typedef struct cg_space {
  const char *name; /* borrowed from the analysis' machine view */
  char *cname;      /* its C spelling: VXP_SPACE_<cname>, whole (owned by the generator) */
  uint32_t view_index;
  bool host;
} cg_space;

/* Why a run's high-water mark may stay below the static peak (rule.c). */
enum {
  CG_WHY_MATCH_ARMS = 1u,
  CG_WHY_BRANCH = 2u,
  CG_WHY_LOOP_TRIPS = 4u,
  CG_WHY_EARLY_EXIT = 8u,
  CG_WHY_CALL_NOT_TAKEN = 16u
};

/* A parameter of a generated function as a call of it reads it (expr.c), taken from the
 * function's item when it is collected: the callee's item may lie in a window of the text
 * whose tree is freed (VXP_PROGRAM_NO_TREE) by the time the call is generated. */
typedef struct cg_param {
  bool tensor;           /* its type is a tensor type (under references and wrappers) */
  bool device;           /* tensors: placed on a device (by the type or its wrapper) */
  bool folded;           /* tensors: its shape folded with the callee's environment, into `t` */
  cg_tensor t;           /* tensors: the shape, when `folded` */
  const char *ctype;     /* scalars: the C type of an element type name (a literal), or NULL */
  vxp_diag_list refusal; /* tensors not folded: what folding the shape refused (replayed at
                            each call, as folding it there did) */
} cg_param;

/* A function of the generated program. */
typedef struct cg_fn {
  /* Its item: valid only while the tree of the window it lies in is walked (collecting the
   * items, generating the function); null otherwise. */
  TSNode node;
  uint32_t start_byte; /* where its item starts: the node is found again by it */
  cg_param *params;    /* its parameters in order (owned; freed with the generator) */
  uint32_t param_count;
  /* Its parameter list: how many named children, and where (for `main`'s refusal). */
  uint32_t params_named, params_start, params_end;
  bool params_located;
  uint32_t model_fn;
  uint32_t analysed; /* index into the analysis' functions, VXP_NONE if not analysed */
  const char *name;  /* the Vx name, borrowed from the model */
  char *cname;       /* its C spelling, "vx_<name>", whole (owned; freed with the generator) */
  size_t record_first, record_end; /* the analysis' records of this function */
  bool returns_scalar;
  bool returns_tensor; /* a host tensor the function made: the caller owns its buffer */
  unsigned why;        /* CG_WHY_* bits: why its run may stay below its static peak */
  unsigned why_run;    /* CG_WHY_CALL_NOT_TAKEN: why the call tree's total may not be reached */
  cg_tensor *return_t; /* returns_tensor: its type (owned; freed with the generator) */
  /* The C type it returns: a scalar's, or a returned tensor's element storage type (the
   * function then returns a pointer to it). A string literal. */
  const char *return_ctype;
  char *signature; /* "static int32_t vx_f(float *v_w)", once emitted */
} cg_fn;

/* A variable in scope. Names point into the source text. */
typedef struct cg_var {
  const char *name;
  uint32_t name_len;
  const char *cname; /* "v_<name>" whole, made unique (owned by the generator's used_names) */
  bool tensor;
  cg_tensor t;
  const char *ctype;    /* scalars with a known type (a string literal); NULL when `auto` */
  uint32_t decl_depth;  /* releasing blocks open where it was declared */
  uint32_t owner_depth; /* tensors: releasing depth of the buffer its data lives in */
  bool poisoned;        /* its declaration was refused: uses report nothing more */
  bool kernel_local;    /* declared inside the kernel being emitted */
  bool kernel_written;  /* a host scalar the kernel being emitted assigns (by reference) */
  int32_t buffer;       /* tensors: the function's host buffer it is, or -1 */
} cg_var;

/* A buffer of the function being emitted: a tile (counted) or a host buffer. */
typedef struct cg_buffer {
  bool tile;
  uint32_t space; /* cg_space index (tiles) */
  uint64_t bytes; /* tiles: the record's bytes */
  uint32_t owner; /* serial of the block whose end frees it */
} cg_buffer;

typedef enum cg_block_kind { CG_BLOCK_ROOT = 100 } cg_block_kind;

typedef struct cg_block {
  uint8_t kind; /* vxp_block_kind, or CG_BLOCK_ROOT for the function body */
  bool releasing;
  bool loop;        /* a `for` or `loop` body: where break and continue go */
  bool conditional; /* an arm decided at run time (if/else, match) */
  uint32_t serial;
} cg_block;

/* What an emitted expression is. */
typedef enum cg_value_kind { CG_NONE = 0, CG_SCALAR, CG_TENSOR, CG_STRING } cg_value_kind;

typedef struct cg_value {
  uint8_t kind;
  cg_tensor t;
  uint32_t owner_depth;
  int32_t buffer; /* tensors: the function's host buffer it is (+1; 0: none) */
} cg_value;

/* Grammar ids the core's symbol table does not carry, looked up by name per run so that
 * the core keeps no dependency on them (a missing one is 0 and matches nothing). */
typedef struct cg_syms {
  TSSymbol break_statement, continue_statement, assert_statement, empty_statement;
  TSSymbol literal_pattern, wildcard_pattern, string_content, escape_sequence;
  TSFieldId pattern, mutable_field, message;
} cg_syms;

/* The lookups built once per generation (index.c), so that nothing scans every function
 * or record per item, call or placement. */
typedef struct cg_span_key {
  uint32_t start, end, at; /* a span of the source, and the model entry written there */
} cg_span_key;

typedef struct cg_index {
  cg_span_key *fns, *types, *cexprs; /* non-closure functions (by start), unwrapped tensor
                                        types and constant expressions, sorted by span */
  size_t fns_len, types_len, cexprs_len;
  uint32_t *last_analysed;  /* per model function: the last analysed function from it */
  uint32_t *first_instance; /* per model function: its first generic instance, VXP_NONE */
  uint32_t *next_instance;  /* per analysed function: the next instance of its model fn */
  uint32_t *fn_of_analysed; /* per analysed function: its generated function, VXP_NONE */
  struct cg_span {
    size_t first, end;
    bool seen;
  } * records;                /* per analysed function: the span of its records */
  uint32_t *space_of_view;    /* per machine view space: its generated space, VXP_NONE */
  vxp_name_index fn_by_name;  /* Vx name -> the first generated function of that name */
  vxp_name_index fn_by_cname; /* C name -> generated function (a second one is refused) */
} cg_index;

/* A record or event of the function being emitted, by its source span (lookup.c). */
typedef struct cg_span_ref {
  uint32_t start, end, at;
} cg_span_ref;

/* The per-function indexes of lookup.c. */
typedef struct cg_lookup {
  Array(cg_span_ref) records; /* the records [rec_first, rec_end) by span */
  size_t rec_first, rec_end;
  bool records_built;
  Array(cg_span_ref) places; /* model function places_fn's placements by span */
  uint32_t places_fn;
  bool places_built;
  const char **names; /* the C names used (borrowed from used_names), open addressing */
  size_t names_cap, names_count;
  vxp_scope_index vars; /* entry i: cg.vars.items[i]'s name (scope_index.h) */
} cg_lookup;

typedef struct cg {
  vxp_context *ctx;
  const vxp_analysis *an;
  const vxp_program *prog;
  const vxp_model *m;
  const vxp_source *src;
  const vxp_symbols *S;
  const vxp_fields *F;
  cg_syms X;
  vxp_const_env env;
  vxp_diag_list *diags;
  int rc;
  Array(cg_space) spaces;
  Array(cg_fn) fns; /* reserved whole up front: it never moves (cg_index borrows names) */
  cg_index index;
  vxp_sb kernels; /* one __global__ function per spawn region */
  vxp_sb defs;    /* function definitions (of the function being emitted only, when the
                     definitions are generated twice: `regenerate`) */
  /* A text parsed in windows is walked window by window, each window's tree parsed again
   * and freed (cuda.c): the definitions are then generated once to find the refusals and
   * what the header and tables need, and once more to be written, never held whole. */
  bool regenerate;
  unsigned narrow_defs; /* bit i: the definitions use narrow type i (header) */
  unsigned kernel_count;
  /* the function being emitted */
  cg_fn *fn;
  size_t fact_cursor; /* where vxp_cg__block_fact last found a block of `fn` */
  vxp_sb body;
  vxp_sb *out; /* body, or the kernel being emitted */
  unsigned indent;
  Array(cg_buffer) buffers;
  Array(uint32_t) pending; /* buffers to free after the current statement (never read) */
  Array(cg_block) blocks;
  uint32_t serial;
  uint32_t depth; /* releasing blocks open */
  Array(cg_var) vars;
  Array(size_t) scopes;
  Array(char *) used_names;
  cg_lookup lookup;
  unsigned temps;
  bool in_kernel;
  bool lvalue; /* the element being emitted is written, not read */
  unsigned nesting;
} cg;

/* ------------------------------------------------------------------ shared helpers */

/* Report a construct outside the subset (or a disagreement with the analysis) at `node`;
 * returns false so callers can `return refuse(...)`. */
bool vxp_cg__refuse(cg *G, TSNode node, const char *fmt, ...) VXP__PRINTF(3, 4);
/* The same at bytes [start, end) of the source (`located`), or at no place. */
bool vxp_cg__refuse_at(cg *G, bool located, uint32_t start, uint32_t end, const char *fmt, ...)
    VXP__PRINTF(5, 6);
bool vxp_cg__ok(const cg *G);

/* Free a scratch text buffer; an allocation that failed while it was written becomes
 * G->rc = VXP_ENOMEM (its text was cut short, so nothing built from it may be used). */
void vxp_cg__sb_done(cg *G, vxp_sb *sb);
/* The text of `sb` taken out of it in a block of its own size (a buffer starts at 256
 * bytes, and a generator keeps two names per function); NULL when an append or the
 * shrinking failed. */
char *vxp_cg__sb_take(cg *G, vxp_sb *sb);
bool vxp_cg__is(TSNode node, TSSymbol sym);
TSNode vxp_cg__field(TSNode node, TSFieldId id);
const char *vxp_cg__text(const cg *G, TSNode node, size_t *len);
/* A readable name of a node's construct ("closure expression"). */
const char *vxp_cg__construct(const cg *G, TSNode node, char *buf, size_t size);
void vxp_cg__line(cg *G, const char *fmt, ...) VXP__PRINTF(2, 3);
/* Where a node starts (0-based line and column; printed 1-based in comments of the output). */
vxp_point vxp_cg__at(const cg *G, TSNode node);

/* The element type a type name denotes in the function being emitted: an element type's
 * name, or a type parameter the instance binds to one; VXP_ELEM_UNKNOWN otherwise. */
vxp_elem vxp_cg__elem(const cg *G, const char *name, size_t len);
/* Make `fn` the function whose names and constants are folded (G->fn, and its instance's
 * const arguments in G->env); returns the previous one for vxp_cg__use_fn to restore. */
cg_fn *vxp_cg__use_fn(cg *G, cg_fn *fn);

/* C spelling of an element type as a scalar, or NULL when it has none here. */
const char *vxp_cg__scalar_ctype(vxp_elem e);
/* C storage type of a tensor's elements ("float", "__half", "unsigned char" for packed
 * types). */
const char *vxp_cg__storage_ctype(vxp_elem e);
/* Whether `e` is a narrow floating type (f16, bf16, f8): stored as CUDA's type, computed
 * in float. Its values are read as `(float)x` and written as `(T)(float)(v)`, so that no
 * arithmetic operator of the CUDA types (ambiguous or absent for f8) is ever used. */
bool vxp_cg__narrow_float(vxp_elem e);
/* Whether a scalar C type is one of those narrow types. */
bool vxp_cg__narrow_ctype(const char *ctype);
/* A host buffer the current statement made and nothing binds (a constructor or a call's
 * returned tensor): freed after the statement, unless a `let` binds it (vxp_cg__unpend). */
void vxp_cg__pend(cg *G, uint32_t buffer);
void vxp_cg__unpend(cg *G, uint32_t buffer);
/* Add a buffer owned by the innermost releasing block; its index. */
uint32_t vxp_cg__add_buffer(cg *G, bool tile, uint32_t space, uint64_t bytes);

/* A tensor type node's shape, for a type that places no tile (a parameter, a return type,
 * a host tensor): folded with the analysis' environment (its const table, -D overrides,
 * the instance's arguments); false (with a refusal) when it does not fold. */
bool vxp_cg__tensor_type(cg *G, TSNode type_node, cg_tensor *out);
/* The same for the type a placement places: the dimensions are the ones the analysis
 * decided for it (`fact`, vxp_cg__place_fact; a fact whose size is not KNOWN, or NULL, is
 * folded as above, to refuse with the reason). */
bool vxp_cg__placed_tensor_type(cg *G, TSNode type_node, const vxp_event_fact *fact,
                                cg_tensor *out);
/* The tensor_type under references and Ref/Pinned wrappers, and whether the wrapper or the
 * type places it on a device. Null when `type` is not a tensor type. */
TSNode vxp_cg__tensor_of_type(cg *G, TSNode type, bool *device);
/* Whether a place node (memory_path, topology_path) denotes the host. */
bool vxp_cg__place_is_host(cg *G, TSNode place);

/* Variables. */
cg_var *vxp_cg__lookup(cg *G, const char *name, size_t len);
cg_var *vxp_cg__bind(cg *G, TSNode name_node);
void vxp_cg__push_scope(cg *G);
/* `name` as C identifier characters (other bytes as _xHH) appended to `sb` whole, however
 * long. */
void vxp_cg__c_ident_sb(cg *G, vxp_sb *sb, const char *name, size_t len);
void vxp_cg__pop_scope(cg *G);

/* Expressions (expr.c). Emit `node` as C++ into `sb`; false when refused. */
bool vxp_cg__expr(cg *G, TSNode node, vxp_sb *sb, cg_value *v);
/* A placement at `node`'s range: the analysis' records there, in order. */
size_t vxp_cg__records_at(cg *G, TSNode node, const vxp_record **out, size_t max);
/* Whether the model has a placement event at `node`'s range in the current function. */
bool vxp_cg__model_places(cg *G, TSNode node);
/* Allocate the tiles of `records` (or a host buffer when there are none and the tensor
 * lives on the host) and copy or initialise them: writes the pointer expression. */
bool vxp_cg__place(cg *G, TSNode site, const vxp_record *const *records, size_t count,
                   const cg_tensor *type, bool dest_host, const char *source,
                   const cg_tensor *source_type, vxp_sb *sb, cg_value *v);

/* Wrap a fresh pointer `ptr` in its constructor's initialisation (`new`, `fill`). */
bool vxp_cg__initialise(cg *G, TSNode ctor, const cg_tensor *t, const char *ptr, vxp_sb *sb);

/* The parameters of `f` (its node live, G->fn any): f->params, f->param_count and the
 * parameter list's place; false when out of memory (G->rc). */
bool vxp_cg__read_params(cg *G, cg_fn *f);
void vxp_cg__free_params(cg *G, cg_fn *f);

/* Statements (stmt.c). */
void vxp_cg__function(cg *G, cg_fn *fn);

/* The comparison a function's run owes its static peak (rule.c): sets f->why, f->why_run. */
void vxp_cg__classify(cg *G, cg_fn *f);
/* CG_WHY_* bits as a JSON array inside a C string literal. */
void vxp_cg__reasons_json(vxp_context *ctx, vxp_sb *sb, unsigned why);

/* The lookups (index.c). Build them once the analysis is known; false when out of memory. */
bool vxp_cg__index_build(cg *G);

/* lookup.c: the analysis' records [first, end) at the span (start_byte, end_byte): their
 * count, and *from their first position in G->lookup.records (each entry's `at` is the
 * record's index), in the records' order. 0 when out of memory (G->rc set). */
size_t vxp_cg__records_span(cg *G, size_t first, size_t end, uint32_t start_byte, uint32_t end_byte,
                            size_t *from);
/* Whether the function being emitted used the C name `cname`; add one (borrowed: it lives in
 * used_names until vxp_cg__names_clear), false when out of memory; forget them all. */
bool vxp_cg__name_used(const cg *G, const char *cname);
bool vxp_cg__name_add(cg *G, const char *cname);
void vxp_cg__names_clear(cg *G);
void vxp_cg__lookup_free(cg *G);
void vxp_cg__index_free(cg *G);
/* The model's non-closure function that starts at `start_byte`, or VXP_NONE. */
uint32_t vxp_cg__index_model_fn(const cg *G, uint32_t start_byte);
/* The last unwrapped tensor type, or constant expression, written at exactly this span
 * (as the scans from the end that these replace found); VXP_NONE if none. */
uint32_t vxp_cg__index_type(const cg *G, uint32_t start_byte, uint32_t end_byte);
uint32_t vxp_cg__index_cexpr(const cg *G, uint32_t start_byte, uint32_t end_byte);
/* Index G->fns.items[at], just added; false when out of memory. */
bool vxp_cg__index_add_fn(cg *G, size_t at);
/* The first generated function of a Vx name, or of an analysed function; NULL if none. */
cg_fn *vxp_cg__index_fn_named(cg *G, const char *name, size_t len);
cg_fn *vxp_cg__index_fn_of(cg *G, uint32_t analysed);

/* The generated program as a whole (cuda.c), handed to `write` in pieces in order (none
 * empty) once no refusal was found; nothing is written when one was (G->diags). G->rc:
 * VXP_OK, VXP_ENOMEM, VXP_ECANCELLED, VXP_ERROR, or VXP_EIO when `write` returned
 * non-zero. */
int vxp_cg__generate(cg *G, vxp_write_fn write, void *arg);

/* The analysis' decided fact of the `kind` block that the construct starting at
 * `start_byte` opens in the function being generated (its trip count, its `if comptime`
 * arm), or NULL when that function was not analysed or has no such block. */
const vxp_event_fact *vxp_cg__block_fact(cg *G, vxp_block_kind kind, uint32_t start_byte);

/* The analysis' decided fact of the `let` placement whose statement starts at
 * `start_byte` in the function being generated (its folded dimensions), or NULL. */
const vxp_event_fact *vxp_cg__place_fact(cg *G, uint32_t start_byte);

#endif /* VXP_CODEGEN_H */
