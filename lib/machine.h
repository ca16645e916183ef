/* SPDX-License-Identifier: Apache-2.0 */
/* machine.h - machine models: Memory spaces and Topologies read from declarations, and
 * the merged view (program + --machine + --host) an analysis runs against. */
#ifndef VXP_MACHINE_H
#define VXP_MACHINE_H

#include <tree_sitter/api.h>

#include "arena.h"
#include "diag.h"
#include "lowering_body.h"
#include "model.h"

typedef enum vxp_scope_level {
  VXP_SCOPE_DEVICE = 0, /* broadest */
  VXP_SCOPE_SM,
  VXP_SCOPE_CTA,
  VXP_SCOPE_THREAD /* narrowest */
} vxp_scope_level;

/* A `Memory NAME { ... }` declaration. Fields not written keep has_* false. */
typedef struct vxp_space {
  char *name;
  const vxp_source *src;         /* where it is declared */
  uint32_t start_byte, end_byte; /* the whole declaration */
  uint32_t name_start, name_end;
  char *within; /* parent space name, or NULL for a root */
  uint32_t within_start, within_end;
  bool has_capacity;
  uint64_t capacity;
  uint32_t capacity_start, capacity_end;
  /* `// overhead: N B` lines in the body (`vxpeak calibrate`): bytes a real run holds that no
   * program declares, already taken out of `capacity`. A margin is a share of what the device
   * offers, capacity + overhead, so the overhead is kept apart (vxp_space__budget). 64 bits
   * (a sum that passes them is VXP0018): a u128 here would widen every space. */
  uint64_t overhead;
  bool has_bandwidth;
  uint64_t bandwidth; /* bytes per second, or per cycle when bandwidth_per_cycle */
  bool bandwidth_per_cycle;
  uint32_t bandwidth_start, bandwidth_end;
  bool has_clock;
  uint64_t clock_hz;
  uint32_t clock_start, clock_end;
  bool has_granule;
  uint64_t granule;
  uint32_t granule_start, granule_end;
  bool has_scope;
  uint8_t scope;         /* vxp_scope_level */
  bool managed_explicit; /* default `cached` */
  bool has_replicas;
  uint64_t replicas;
  bool crossing_streamed; /* default `sequenced` */
  bool overcommit;
} vxp_space;

typedef enum vxp_edge_cost {
  VXP_COST_NONE = 0, /* derived from the endpoints' bandwidths */
  VXP_COST_WEIGHT,   /* a unitless routing weight */
  VXP_COST_RATE      /* a link rate: bytes per second (or per cycle) */
} vxp_edge_cost;

enum { VXP_EDGE_RELAXED = 1u << 0, VXP_EDGE_SYNC = 1u << 1, VXP_EDGE_COPY_ENGINE = 1u << 2 };

typedef struct vxp_edge {
  char *from, *to;
  uint8_t cost_kind; /* vxp_edge_cost */
  uint64_t weight;   /* VXP_COST_WEIGHT */
  uint64_t rate;     /* VXP_COST_RATE */
  bool rate_per_cycle;
  uint32_t markers; /* VXP_EDGE_* bits */
  uint32_t start_byte, end_byte;
} vxp_edge;

/* A peak arithmetic rate a topology declares for one element type, read from a comment
 * line `// compute: ELEM[, ELEM...] NUMBER UNIT` inside its body (a comment, so that
 * vxc, whose Topology grammar has no such entry, reads the same file unchanged).
 * `elem` is a vxp_elem, or VXP_COMPUTE_TF32 for TF32 (a tensor-unit mode of f32, not a
 * Vx element type: reported, never used for f32 arithmetic). */
#define VXP_COMPUTE_TF32 ((uint8_t)VXP_ELEM_COUNT)

typedef struct vxp_compute {
  uint8_t elem;
  uint64_t ops_per_s;            /* dense operations per second (a multiply-add is two) */
  uint32_t start_byte, end_byte; /* the comment line */
} vxp_compute;

typedef struct vxp_topology {
  char *name;
  const vxp_source *src;
  uint32_t start_byte, end_byte;
  uint32_t name_start, name_end;
  char *memory; /* default space (`memory:`), NULL if missing */
  bool has_visible;
  Array(char *) visible;
  char *arch;
  bool has_dtypes;
  Array(char *) dtypes;
  Array(vxp_edge) edges;
  Array(vxp_compute) compute; /* empty: the topology declares no arithmetic rates */
} vxp_topology;

/* The declarations of one input. Invariant: names are unique within `spaces` and within
 * `topologies` (a duplicate is reported and dropped). `src` is borrowed, or the machine's own
 * (a built-in's text, in its arena). The machine lives in `arena` with everything it owns:
 * its label, its tables and every name and table in them (grown there with arena_push), its
 * own source, and, once a loaded machine is finished, its diagnostics (`diags_sealed`). That
 * arena is its `own` (VXP_ARENA_HANDLE: freeing it is one vxp_arena__free_handle), or the
 * program's whose declarations it holds (vxp_machine__new_in: it goes with the program). */
struct vxp_machine {
  uint32_t tag; /* VXP_TAG_MACHINE, first: checked on entry (tag.h) */
  vxp_context *ctx;
  char *label;
  const vxp_source *src;
  Array(vxp_space) spaces;
  Array(vxp_topology) topologies;
  Array(vxp_lowering) lowerings;
  vxp_diag_list diags;
  bool diags_sealed;
  vxp_arena *arena;
  vxp_arena own;
};

/* Read every Memory and Topology item under `root` (parsed from `src`) into `m`, with
 * unit and field problems as diagnostics. Returns VXP_OK, VXP_ENOMEM, or VXP_ECANCELLED
 * when the context's flag or time budget stops it (checked before each item). */
int vxp_machine__read(vxp_context *ctx, vxp_machine *m, const vxp_source *src, TSNode root);

/* vxp_machine__read over the root's children `items` (`count` of them, in order; a
 * program's `top`), or over the children of `root` with a cursor when `items` is NULL. */
int vxp_machine__read_items(vxp_context *ctx, vxp_machine *m, const vxp_source *src, TSNode root,
                            const TSNode *items, size_t count);

/* vxp_machine__read in parts, for a text parsed in windows: the reader keeps the names read
 * so far (a name declared twice is found across windows), and each call reads the children
 * of one window's root, in source order. new: NULL on allocation failure; read: as
 * vxp_machine__read. */
typedef struct vxp_machine_reader vxp_machine_reader;
vxp_machine_reader *vxp_machine__reader_new(vxp_context *ctx, vxp_machine *m,
                                            const vxp_source *src);
int vxp_machine__reader_read(vxp_machine_reader *r, TSNode root);
void vxp_machine__reader_free(vxp_machine_reader *r);

/* Allocate an empty machine labelled `label`; NULL on allocation failure. */
vxp_machine *vxp_machine__new(vxp_context *ctx, const char *label);

/* The same, allocated from `arena` (a program's, which owns it: vxp_machine_free then gives
 * back only diagnostics not yet in the arena). */
vxp_machine *vxp_machine__new_in(vxp_context *ctx, vxp_arena *arena, const char *label);

/* The merged view of several inputs, in order: the program's own declarations, then the
 * device machine, then the host. Borrowed pointers into the inputs. */
/* An open-addressing index from a name to its position in an array of the view: the
 * lookups by name (`within:` parents, routes, placements) are then constant time, not a
 * scan of every space (10^4 spaces in a `within:` chain took minutes). */
typedef struct vxp_name_index {
  struct vxp_name_slot {
    const char *name; /* NULL: empty */
    uint32_t pos;
  } * slots;
  size_t cap, len; /* cap is 0 or a power of two, len <= cap / 2 */
} vxp_name_index;

/* Record that `name` (borrowed: it must outlive the index) is at `pos`; a name already
 * there keeps its first position, as the scans this replaces found the first declaration.
 * False when out of memory. */
bool vxp_name_index__add(vxp_context *ctx, vxp_name_index *idx, const char *name, size_t pos);

/* Make room for `more` names beyond those added, so that adding them grows nothing (an
 * analysis indexes every function at once). False when out of memory or too many. */
bool vxp_name_index__reserve(vxp_context *ctx, vxp_name_index *idx, size_t more);

/* The position of `name`, or -1 when it was never added. */
long vxp_name_index__find(const vxp_name_index *idx, const char *name);
/* The same for the `len` bytes at `name` (a name in the source text, not NUL-terminated). */
long vxp_name_index__find_n(const vxp_name_index *idx, const char *name, size_t len);

void vxp_name_index__free(vxp_context *ctx, vxp_name_index *idx);

typedef struct vxp_machine_view {
  Array(const vxp_space *) spaces;
  Array(const vxp_topology *) topologies;
  Array(const vxp_lowering *) lowerings;
  vxp_name_index space_index, topology_index; /* filled by vxp_machine__merge */
} vxp_machine_view;

/* Merge `inputs` (NULL entries skipped) into `view`, reporting E6012 for a name declared
 * by two inputs and the coherence errors E6005, E6006, E6007, E6008, E6011 and E6016 into
 * `diags` (vxc checks these before any function). */
int vxp_machine__merge(vxp_context *ctx, const vxp_machine *const *inputs, size_t input_count,
                       vxp_machine_view *view, vxp_diag_list *diags);

void vxp_machine__view_free(vxp_context *ctx, vxp_machine_view *view);

/* The space named `name` in `view`, or NULL. */
const vxp_space *vxp_machine__space(const vxp_machine_view *view, const char *name);

/* The topology named `name` in `view`, or NULL. */
const vxp_topology *vxp_machine__topology(const vxp_machine_view *view, const char *name);

/* E6026: the topology that holds `space` and cannot represent element type `elem` (its
 * `dtypes:` omit it), or NULL when the element is representable. A space is held by the
 * topologies whose `memory:` it is, or else by those whose `visible:` list it; the element
 * is representable when any holder declares no `dtypes:` or lists it. */
const vxp_topology *vxp_machine__dtype_refusal(const vxp_machine_view *view, const char *space,
                                               const char *elem);

/* The peak rate `t` declares for element type `elem` (a vxp_elem or VXP_COMPUTE_TF32), in
 * operations per second, or 0 when it declares none. */
uint64_t vxp_machine__peak_ops(const vxp_topology *t, uint8_t elem);

/* The spelling of a compute entry's element ("tf32" for VXP_COMPUTE_TF32). */
const char *vxp_machine__compute_elem_name(uint8_t elem);

/* Whether `name` is one of Vx's built-in memory spaces (CPU_DRAM, GPU_HBM, ...). */
bool vxp_machine__builtin_space(const char *name);

/* Whether some topology of `view` holds `name` as its `memory:` or in its `visible:` list:
 * vxc counts such a space as a place even when no `Memory` item declares it (a space of
 * its own, with no capacity; a transfer reaches it over the topologies' edges). */
bool vxp_machine__space_held(const vxp_machine_view *view, const char *name);

/* Vx's built-in memory spaces, in a fixed order; `*count` receives their number. */
const char *const *vxp_machine__builtin_spaces(size_t *count);

/* The default memory space of a built-in topology (CPU -> CPU_DRAM, GPU -> GPU_HBM, ...),
 * or NULL when `topology` is not a built-in one. */
const char *vxp_machine__builtin_topology_space(const char *topology);

/* Whether `name` is one of Vx's built-in topologies (`CPU`, `GPU`, `Current`, ...). */
bool vxp_machine__builtin_topology(const char *name);

/* The parent (`within:`) of `sp` in `view`, or NULL for a root or an undeclared parent. */
const vxp_space *vxp_machine__parent(const vxp_machine_view *view, const vxp_space *sp);

/* Text of a built-in machine model compiled into the library, or NULL. */
const char *vxp_builtin__text(const char *name, size_t *len);

/* The names of the built-in machine models, comma-separated ("a100-40, ..."). Static. */
const char *vxp_builtin__names(void);

/* One built-in model: its name, the description its file's first line gives, the file's
 * name in the fleet directory. */
typedef struct vxp_builtin_model {
  const char *name;
  const char *label;
  const char *file;
} vxp_builtin_model;

/* Every built-in model, sorted by name (generated by lib/embed.sh). */
extern const vxp_builtin_model vxp_builtin__models[];
extern const size_t vxp_builtin__model_count;

/* Point each Memory, Topology and lowering item of `m` at the declaration
 * `m->declarations` holds of it (both are in source order), VXP_NONE where there is none. */
void vxp_machine__link_declarations(vxp_model *m);

/* What a space leaves for a program's peak under a margin of `margin_ppm` millionths, in
 * millionths of a byte: (capacity + overhead) x (10^6 - margin) - overhead x 10^6, or 0 when the
 * overhead takes all of it. With no overhead it is the capacity x (10^6 - margin) of before. */
u128 vxp_space__budget(const vxp_space *sp, uint32_t margin_ppm);

#endif /* VXP_MACHINE_H */
