/* SPDX-License-Identifier: Apache-2.0 */
/* analysis_data.h - the result of analysing a program against a machine model, as data: what
 * the walk (analysis.c) decides and records, and the lookups of it. Every module of the
 * analysis layer reads it; only analysis.c makes one. */
#ifndef VXP_ANALYSIS_DATA_H
#define VXP_ANALYSIS_DATA_H

#include "arena.h"
#include "consteval.h"
#include "diag.h"
#include "machine.h"
#include "model.h"
#include "peak.h"
#include "transfer.h"
#include "visibility.h"

/* One tile: a placement into a space with a capacity, in one analysed function. */
/* A block of an analysed function, or the function's own scope (vxp_scope). */
#define VXP__SCOPE_FUNCTION 255u
struct vxp_scope {
  const struct vxp_analysis *owner; /* set when the analysis is complete */
  uint32_t id;                      /* index in the analysis' scopes */
  uint32_t parent;                  /* index of the enclosing scope; VXP_NONE for a function's */
  uint32_t function;                /* index into the analysis' functions */
  uint8_t kind;                     /* vxp_block_kind, or VXP__SCOPE_FUNCTION */
  vxp_range range;                  /* the construct that opens the block, or the function */
};

struct vxp_record {
  const struct vxp_analysis *owner; /* set when the analysis is complete */
  uint32_t scope;                   /* the innermost scope enclosing the placement */
  uint32_t function;                /* index into the analysis' functions */
  uint32_t space;                   /* index into the machine view's spaces */
  uint64_t bytes;                   /* granule-rounded; UINT64_MAX when it does not fit 64 bits */
  uint32_t depth;                   /* releasing blocks enclosing it */
  uint32_t order;                   /* position in the function's program order */
  bool released_at_once;            /* bound to a name that is never read */
  bool live_at_peak;
  bool multiplier_known;  /* the enclosing loops' trip counts are static */
  uint64_t multiplier;    /* times the placement runs (saturated) */
  bool released;          /* freed before the function returns */
  uint32_t release_order; /* when released: the last program-order position it is live at */
  uint32_t type;          /* the placed tensor type (index into the model), or VXP_NONE */
  const char *role;       /* the role the program names for it (lowered: roles.h), or NULL */
  vxp_name role_name;     /* that role's name in the model, or NONE */
  vxp_name binding;
  uint32_t start_byte, end_byte;
  vxp_range range;
  const char *function_name; /* borrowed from the model or the machine view */
  const char *space_name;
  const char *binding_name; /* NULL when unbound */
};

/* One (function, space) working set. */
struct vxp_resident_set {
  uint32_t function;
  uint32_t space;
  const char *function_name; /* borrowed from the model or the machine view */
  const char *space_name;
  uint64_t peak_bytes; /* saturated to UINT64_MAX */
  bool peak_saturated; /* the true peak exceeds 64 bits */
  uint64_t capacity_bytes;
  uint32_t tiles;                   /* live at the peak, at least 1 */
  uint32_t peak_record;             /* the placement that first reached the peak */
  const struct vxp_analysis *owner; /* set when the analysis is complete */
  uint32_t record_first; /* its records: the analysis' set_records[first .. first + count) */
  uint32_t record_count;
  bool overcommit;
  bool allocated_known;
  uint64_t allocated_bytes;
};

/* One hop of a transfer as routed: a transfer with a direct edge is one route, a staged
 * transfer one route per hop (vxc records each hop of the rewritten chain).
 * Invariant: path_len >= 2, the path's first node is from_node and its last to_node, and
 * `record`, when set, is a tile in the destination, placed by the route's function. */
struct vxp_route {
  const struct vxp_analysis *owner; /* for the node names of `path` */
  uint32_t record;                  /* the tile the hop places (the next record of its placement
                                       event), or VXP_NONE */
  uint32_t function;
  const char *function_name; /* borrowed from the model */
  uint32_t path_first;       /* the route's graph nodes: route_nodes[first .. first + len) */
  uint32_t path_len;         /* at least 2: the hop's source first, its destination last */
  bool climbs;               /* the path's first edge is a step up the `within:` tree from the
                                source to the ancestor the routed edges start at */
  bool descends;             /* its last edge, a step down from the ancestor they end at to the
                                destination (vxc routes a space without edges of its own
                                through its ancestors, at no weight) */
  uint64_t total_cost;       /* the routing weight, not a prediction */
  bool bytes_known;          /* the tile's size folds */
  uint64_t bytes;            /* raw tensor bytes (no granule) */
  vxp_hop_cost cost;         /* derived cost (source NONE: not derivable) */
  const char *traffic_absent_reason; /* static text; NULL when the traffic is counted */
  bool lowered;                      /* a lowering's body moves the hop (vxc's `traffic_source:
                                        lowering_body`): the counts below are its traffic */
  bool traffic_exact;                /* lowered: false when branches moving different amounts
                                        count their largest */
  uint64_t from_read, from_written, to_read, to_written; /* lowered: bytes per end */
  uint32_t hop, hops;          /* this hop of the transfer as written, and how many it has */
  uint32_t from_node, to_node; /* the hop's own ends (graph nodes): the copy reads the first and
                                  writes the second, even when the route runs from or to an
                                  ancestor (vxc's traffic); VXP_NONE when not in the graph */
  uint32_t start_byte, end_byte;
  vxp_range range;
};

/* A constant override as the caller gave it (copied), and its name in the program. */
typedef struct vxp_define {
  char *name;
  uint64_t value;
} vxp_define;

/* A resolution error written in a function body (resolve.c): where it is, so that one in
 * an `if comptime` arm the analysis prunes in every instance can be withdrawn (vxc prunes
 * such an arm before it resolves anything in it). */
typedef struct vxp_resolve_site {
  uint32_t start_byte; /* the diagnostic's start */
  uint32_t function;   /* model function */
  uint32_t event;      /* the event it is (is_event) or that follows it */
  bool is_event;
} vxp_resolve_site;

/* ------------------------------------------------------------------ decided facts
 *
 * What the analysis decided about each event of each analysed function, with that
 * function's (or instance's) const arguments and the -D overrides: the one fold of every
 * trip count, `if comptime` arm and placed shape. Everything downstream (roofline, sweep,
 * explain, plot, codegen) reads these instead of folding the model again, so that no two
 * answers about one program can disagree on them. */

typedef enum vxp_arm {
  VXP_ARM_RUNTIME = 0, /* not an `if comptime` arm, or its condition does not fold */
  VXP_ARM_TAKEN,       /* an `if comptime` arm that runs */
  VXP_ARM_PRUNED       /* an `if comptime` arm that does not: its events are not reached */
} vxp_arm;

typedef enum vxp_fact_size {
  VXP_FACT_SIZE_NONE = 0,   /* not a placement */
  VXP_FACT_SIZE_KNOWN,      /* every dimension folded: raw_bytes and dims hold */
  VXP_FACT_SIZE_DYNAMIC,    /* a dimension is a run-time value or `?` (W1029 where checked) */
  VXP_FACT_SIZE_UNRESOLVED, /* the shape names something that does not exist (resolve.c) */
  VXP_FACT_SIZE_INVALID,    /* a dimension folds to no size: negative, x / 0, a cycle (VXP0050) */
  VXP_FACT_SIZE_TOO_BIG,    /* the bytes do not fit in 64 bits */
  VXP_FACT_SIZE_NO_TYPE     /* the placed value's type could not be inferred */
} vxp_fact_size;

/* Invariant: one per event of the model function, in event order; a fact of an event not
 * reached is all zero but for `reached`. */
typedef struct vxp_event_fact {
  bool reached;        /* walked: not inside a pruned `if comptime` arm */
  uint8_t arm;         /* OPEN of an if/else arm: vxp_arm */
  bool trips_known;    /* OPEN of a `for` over `a..b` whose bounds fold (signed) */
  uint8_t size;        /* PLACE: vxp_fact_size */
  uint64_t trips;      /* max(b - a, 0), saturated to UINT64_MAX */
  uint64_t raw_bytes;  /* PLACE, KNOWN: ceil(bits x product(dims) / 8), before any granule */
  uint32_t dims_first; /* PLACE, KNOWN: the folded dimensions, fact_dims[first .. + count) */
  uint32_t dims_count;
} vxp_event_fact;

typedef enum vxp_access_why {
  VXP_ACCESS_SIZED = 0,   /* bytes holds */
  VXP_ACCESS_NO_TYPE,     /* the indexed value's type is not known */
  VXP_ACCESS_NO_ELEMENT,  /* no concrete element type or no shape */
  VXP_ACCESS_DIM_DYNAMIC, /* dimension `dim` does not fold */
  VXP_ACCESS_TOO_BIG      /* the slice is larger than 2^80 elements */
} vxp_access_why;

/* One execution of an element access in a spawn region: the bytes of the element, or of
 * the slice fewer indices than the rank name. One per access of the model function. */
typedef struct vxp_access_fact {
  uint8_t why;  /* vxp_access_why */
  uint32_t dim; /* DIM_DYNAMIC: which dimension */
  uint64_t bytes;
} vxp_access_fact;

/* A type parameter of a generic instance bound to an element type, a named type, or
 * nothing known (both unset). */
typedef struct vxp_type_binding {
  vxp_name param;
  uint8_t elem;     /* vxp_elem, or UNKNOWN */
  vxp_name nominal; /* a named type (a struct), or NONE */
} vxp_type_binding;

/* An analysed function: a function or closure of the program that needs no generic
 * arguments, or an instance of a generic one (instance.c). */
typedef struct vxp_analysed_fn {
  uint32_t model_fn; /* index into the model's functions */
  const char *name;  /* borrowed from the model's names, or owned_name */
  char *owned_name;  /* an instance's name, in the analysis' arena; else NULL */
  bool is_instance;
  uint32_t depth;                    /* generic calls from a function without generic arguments */
  uint32_t origin_call;              /* the call site that first instantiated it, or VXP_NONE */
  uint32_t const_first, const_count; /* an instance's const arguments: const_binds */
  uint32_t type_first, type_count;   /* an instance's type arguments: type_binds */
  uint32_t call_first, call_count;   /* its call sites: calls */
  uint32_t fact_first;               /* its events' facts: event_facts[fact_first + event] */
  uint32_t access_fact_first;        /* its accesses' facts: access_facts[first + access] */
} vxp_analysed_fn;

/* One call site of an analysed function, in program order. The bytes its caller holds
 * in each space when it calls are held[index * space_count + space]. */
typedef struct vxp_call_site {
  uint32_t caller;         /* analysed function */
  uint32_t callee;         /* analysed function, or VXP_NONE */
  const char *callee_name; /* as written (borrowed from the model); NULL when none */
  const char *unresolved;  /* static text: why a call of user code was not resolved;
                              NULL when resolved or not a call of user code (a builtin) */
  uint32_t start_byte, end_byte;
} vxp_call_site;

/* The call-tree fold of one (analysed function, space): vxc's summary and total, and the
 * call realising it (callgraph.c). */
typedef struct vxp_fn_space {
  u128 self_peak;        /* the function's own peak */
  u128 total;            /* max(self peak, max over calls of held + callee's total) */
  uint32_t best_call;    /* the call site realising `total`, VXP_NONE: the self peak */
  uint32_t hops;         /* calls along the path from here */
  uint32_t resident_set; /* the function's resident set in the space, or VXP_NONE */
  uint32_t call_tree;    /* its entry in call_trees, or VXP_NONE */
  bool bounded;          /* false: a cycle placing tiles is reachable (E6028) */
  bool reported;         /* an overflow at or below here was reported */
} vxp_fn_space;

/* A (function, space) of the call-tree report: self peak and total are non-zero. */
struct vxp_call_tree {
  const struct vxp_analysis *owner;
  uint32_t function;
  uint32_t space;
};

/* A call of user code the analysis could not follow (a function value, an extern, an
 * unknown name): its callee contributes nothing to the fold, and the report says so. */
struct vxp_unresolved_call {
  const struct vxp_analysis *owner;
  uint32_t call; /* index into calls */
  vxp_range range;
};

/* Where the walk of one analysed function began ([0]) and ended ([1]) in each table it
 * appends to (its facts, calls and summary say where they are themselves), and whether E6014,
 * reported once per program, had been reported by then: what a later analysis needs to take
 * the function's results over (reuse_walk.c). */
typedef struct vxp_walk_span {
  uint32_t diags[2], records[2], scopes[2], routes[2], route_nodes[2], fact_dims[2],
      resident_sets[2];
  bool e6014[2];
} vxp_walk_span;

/* Invariant: diagnostics are the program's, the machines', then the analysis' own;
 * records are grouped by function in analysis order, each function's in program order;
 * resident sets are by function, then by space name. Functions are in analysis order:
 * those needing no generic arguments in program order, then instances as found. */
struct vxp_analysis {
  uint32_t tag; /* VXP_TAG_ANALYSIS, first: checked on entry (tag.h) */
  vxp_context *ctx;
  const vxp_program *prog;
  const vxp_machine *machine;
  const vxp_machine *host;
  vxp_machine *own;  /* the empty machine standing for the program's declarations
                        under machine_only, else NULL (the view borrows the
                        program's own, read once: program.h) */
  bool machine_only; /* `own` left empty: `machine` replaces them */
  /* What the caller passed (opts->machine, opts->host): `machine` and `host` are these or,
   * for a program declaring no machine, the built-in defaults below (vxp_default_machine),
   * which the analysis owns. Incremental reuse compares what was asked for, not the copies. */
  const vxp_machine *asked_machine, *asked_host;
  vxp_machine *default_machine, *default_host;
  /* --retype: per model tensor type, the vxp_elem it takes instead of its own (0: its own);
   * NULL when no retype was given (retype.c). In the arena. */
  const uint8_t *retype;
  vxp_machine_view view;
  Array(vxp_define) defines;             /* constant overrides, in the order first given */
  Array(vxp_const_binding) overrides;    /* the defines the program names, for folding */
  vxp_const_table *const_table;          /* the program's const items, folded once */
  Array(uint32_t) unresolved_cexprs;     /* names that denote nothing (resolve.c), ascending */
  Array(vxp_resolve_site) resolve_sites; /* resolution errors in function bodies */
  size_t resolve_first, resolve_count;   /* resolution's diagnostics: diags[first .. + count) */
  vxp_diag_list diags;
  Array(vxp_analysed_fn) functions;
  vxp_name_index function_index; /* name -> its last analysed function (vxp_roofline_new) */
  /* Bit n (byte n / 8, bit n % 8): the first model function named n has spawn regions of its
   * own (the roofline's test of a callee, one lookup instead of a scan of the functions). */
  Array(uint8_t) spawning_names;
  Array(vxp_const_binding) const_binds;  /* instances' const arguments */
  Array(vxp_type_binding) type_binds;    /* instances' type arguments */
  Array(vxp_call_site) calls;            /* by caller, each caller's in program order */
  Array(uint64_t) held;                  /* calls.len * spaces: bytes held at each call */
  Array(vxp_fn_space) fn_spaces;         /* functions.len * spaces, function-major */
  Array(vxp_call_tree) call_trees;       /* by function, then space name */
  Array(vxp_unresolved_call) unresolved; /* in call order */
  Array(vxp_record) records;
  Array(vxp_scope) scopes;     /* every block walked, functions' scopes first in each walk */
  Array(uint32_t) set_records; /* record indices by resident set, in program order */
  Array(vxp_resident_set) resident_sets;
  Array(vxp_event_fact) event_facts;   /* by analysed function (fact_first), then event */
  Array(uint64_t) fact_dims;           /* folded dimensions of placements */
  Array(vxp_access_fact) access_facts; /* by analysed function, then access */
  vxp_graph graph;                     /* routing graph of `view` */
  Array(vxp_route) routes;             /* in program order, by function */
  Array(uint32_t) route_nodes;
  size_t error_count, warning_count;
  /* The visibility checks' diagnostics: diags[vis_start .. vis_ends[last]), those of top-level
   * item i ending at vis_ends[i], so that a later analysis can take them over (reuse.c). */
  size_t vis_start;
  vxp_item_ends vis_ends;
  size_t raw_start; /* the same for the raw:: checks (raw_primitives.c) */
  vxp_item_ends raw_ends;
  size_t items_taken, items_walked; /* items taken from a previous analysis, and recomputed */
  /* One per analysed function when the program was reparsed (an editor's), else empty. */
  Array(vxp_walk_span) walk_spans;
  size_t functions_taken, functions_walked; /* analysed functions taken over, and walked */
  char *json;                               /* cached report (lib/report/json.c) */
  size_t json_len;
  char *sarif; /* cached SARIF log (lib/report/sarif.c) */
  size_t sarif_len;
  /* The tables above (the Array fields but the diagnostics), final once the analysis is
   * made, are moved into the arena then (vxp_analysis__seal), so that freeing the analysis
   * gives them back in one call; bit i of `sealed` says table i (analysis_data.c's list) is
   * there. Invariant: no sealed table grows again. */
  vxp_arena arena;
  uint64_t sealed;
  bool diags_sealed; /* `diags` is a deep copy in the arena (vxp_diag__list_to_arena) */
};

/* Move the analysis' final tables into its arena (analysis_data.c): VXP_OK or VXP_ENOMEM (the
 * tables not moved yet stay the analysis' own; vxp_analysis_free frees either). */
int vxp_analysis__seal(vxp_analysis *an);

/* The fact decided for event `event` of analysed function `fn` (NULL when out of range).
 * Borrowed from the analysis. */
const vxp_event_fact *vxp_analysis__event_fact(const vxp_analysis *an, uint32_t fn, size_t event);

/* The folded dimensions of a KNOWN placement fact (f->dims_count of them). */
const uint64_t *vxp_analysis__fact_dims(const vxp_analysis *an, const vxp_event_fact *f);

/* The fact decided for element access `access` of analysed function `fn`, or NULL. */
const vxp_access_fact *vxp_analysis__access_fact(const vxp_analysis *an, uint32_t fn,
                                                 size_t access);

/* The analysed function named `name` (a function, closure or instance name), or VXP_NONE. */
uint32_t vxp_analysis__function_index(const vxp_analysis *an, const char *name);

/* The space a route's hop copies from (`to` false) or into (`to` true): the transfer's own
 * end, which is where the builtin copy reads and writes (vxc's traffic), falling back to the
 * path's end. Borrowed from the analysis. */
const char *vxp_analysis__route_end(const vxp_route *r, bool to);

#endif /* VXP_ANALYSIS_DATA_H */
