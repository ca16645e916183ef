/* SPDX-License-Identifier: Apache-2.0 */
/* transfer.h - routes and costs of transfers: the routing graph of a machine view (every
 * declared `transfer A -> B` edge plus Vx's built-in ones), shortest paths over its
 * unitless weights, and the derived cost of one hop (a declared link rate, or the
 * bandwidth roofline of the `within:` tree between its ends). */
#ifndef VXP_TRANSFER_H
#define VXP_TRANSFER_H

#include "machine.h"
#include "model.h"

typedef enum vxp_cost_source {
  VXP_COST_SOURCE_NONE = 0,   /* no cost is derivable */
  VXP_COST_SOURCE_LINK_RATE,  /* the edge declares a rate (`: 31.5 GB/s`) */
  VXP_COST_SOURCE_CONTAINMENT /* derived from the `bandwidth:` of the spaces between */
} vxp_cost_source;

typedef enum vxp_composition {
  VXP_COMPOSE_NONE = 0,  /* a link rate has one leg */
  VXP_COMPOSE_SUM,       /* `crossing: sequenced` (the default): the legs add */
  VXP_COMPOSE_BOTTLENECK /* `crossing: streamed`: the slowest leg sets the time */
} vxp_composition;

/* The derived cost of moving a number of bytes across one hop. */
typedef struct vxp_hop_cost {
  uint8_t source;      /* vxp_cost_source; NONE: `value` is meaningless */
  uint8_t composition; /* vxp_composition (containment only) */
  bool per_cycle;      /* the unit: cycles, else picoseconds */
  uint64_t value;
} vxp_hop_cost;

/* One edge of the routing graph. Declarations of the same edge by several topologies (and
 * Vx's built-in table) are merged: the smallest weight routes, the first declared rate
 * prices. */
typedef struct vxp_graph_edge {
  uint32_t from, to; /* node indices */
  uint64_t weight;   /* routing weight: the declared or built-in integer, else 1 */
  bool weighted;     /* `weight` is an integer a declaration (`: 5`) or the built-in table
                        gives, not the 1 of an edge that declares none: a route reports it */
  bool has_rate;     /* some declaration wrote a rate */
  uint64_t rate;
  bool rate_per_cycle;
} vxp_graph_edge;

/* A shortest-path tree from one source, computed when first asked for. */
typedef struct vxp_route_tree {
  uint64_t *dist; /* routing weight from the source, saturated */
  uint32_t *hops; /* edges from the source (UINT32_MAX: not reached) */
  uint32_t *pred; /* previous node on the path (VXP_NONE at the source) */
} vxp_route_tree;

/* Invariant: node names are borrowed from the view's declarations or are static built-in
 * names; trees[i] is NULL until a route from node i has been asked for. The trees and their
 * table are allocated from `arena` (the analysis', which gives them back with it). */
typedef struct vxp_graph {
  const vxp_machine_view *view;
  struct vxp_arena *arena;
  Array(const char *) nodes;
  vxp_name_index node_index; /* nodes by name */
  Array(vxp_graph_edge) edges;
  vxp_route_tree *trees; /* one per node */
} vxp_graph;

typedef Array(uint32_t) vxp_node_path;

/* Build the graph of `view`: its spaces, Vx's built-in spaces and edges, and every edge of
 * every declared topology. Returns VXP_OK or VXP_ENOMEM. */
int vxp_transfer__graph_init(vxp_context *ctx, struct vxp_arena *arena, vxp_graph *g,
                             const vxp_machine_view *view);

void vxp_transfer__graph_free(vxp_context *ctx, vxp_graph *g);

/* The node named `name`, or VXP_NONE. */
uint32_t vxp_transfer__node(const vxp_graph *g, const char *name);

/* The merged edge `from -> to`, or NULL. */
const vxp_graph_edge *vxp_transfer__edge(const vxp_graph *g, uint32_t from, uint32_t to);

/* The cheapest route from `from` to `to` (least total weight, then fewest hops, then the
 * first edge in declaration order). When none exists, vxc's rule for sub-spaces applies:
 * each end is replaced by itself or a `within:` ancestor and the first pairing that routes
 * is taken. Writes the route's nodes to `path` (cleared first) and its weight to `*total`;
 * `*found` is false when there is no route. Returns VXP_OK or VXP_ENOMEM. */
int vxp_transfer__route(vxp_context *ctx, vxp_graph *g, const char *from, const char *to,
                        vxp_node_path *path, uint64_t *total, bool *found);

/* One hop's roofline at `rate`: ceil(bytes / rate) cycles for a /cyc rate, otherwise
 * ceil(bytes x 10^12 / rate) picoseconds with a 128-bit intermediate. False when the rate
 * is zero or the result does not fit in 64 bits. */
bool vxp_transfer__hop_cost(uint64_t bytes, uint64_t rate, bool per_cycle, uint64_t *out);

/* The containment roofline of `from -> to` (vxc's derived transfer cost): the spaces from
 * each end up to their nearest common ancestor (the ancestor too when it is an end), each
 * charged ceil(bytes / bandwidth); a device-wide rate is divided by the largest `replicas`
 * on the path; `/cyc` rates are converted with `clock:` when the path mixes units; the
 * legs add, or the slowest wins when the destination is `crossing: streamed`. Sets
 * `out->source` to NONE when not derivable. Returns VXP_OK or VXP_ENOMEM. */
int vxp_transfer__containment(vxp_context *ctx, const vxp_machine_view *view, const char *from,
                              const char *to, uint64_t bytes, vxp_hop_cost *out);

/* The cost of the hop `from -> to`: the edge's declared rate when it has one, else the
 * containment roofline. Returns VXP_OK or VXP_ENOMEM. */
int vxp_transfer__hop(vxp_context *ctx, const vxp_graph *g, const char *from, const char *to,
                      uint64_t bytes, vxp_hop_cost *out);

/* vxp_transfer__hop with the spaces' nodes already looked up (vxp_transfer__node of `from`
 * and `to`): an analysis records both for each route and need not hash the names again. */
int vxp_transfer__hop_between(vxp_context *ctx, const vxp_graph *g, const char *from,
                              uint32_t from_node, const char *to, uint32_t to_node, uint64_t bytes,
                              vxp_hop_cost *out);

/* E6013 for every declared edge that writes a cost while the containment roofline already
 * derives one: an edge has exactly one cost source. */
int vxp_transfer__check_edges(vxp_context *ctx, const vxp_machine_view *view, vxp_diag_list *diags);

/* W1026 for every declared topology whose `memory:` no route reaches from the host: it is
 * not visible to the host, is not host memory, and no path of edges (declared or built in,
 * without climbing to an ancestor) leads from CPU_DRAM to it. vxc's coherence rule. */
int vxp_transfer__check_reachable(vxp_context *ctx, vxp_graph *g, vxp_diag_list *diags);

#endif /* VXP_TRANSFER_H */
