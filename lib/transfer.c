/* SPDX-License-Identifier: Apache-2.0 */
/* transfer.c - the routing graph, shortest routes and the derived cost of a hop. */
#include "transfer.h"

#include "arena.h"

#include <stdio.h>

#define PICOS_PER_SECOND 1000000000000ull

/* Vx's built-in transfer edges between its built-in spaces, with their routing weights
 * (vxc's default cost graph). They declare no cost of their own. */
static const struct {
  const char *from, *to;
  uint64_t weight;
} builtin_edges[] = {
    {"CPU_DRAM", "NPU_HBM", 50},     {"NPU_HBM", "CPU_DRAM", 50},   {"CPU_DRAM", "GPU_HBM", 50},
    {"GPU_HBM", "CPU_DRAM", 50},     {"NPU_HBM", "Local_SRAM", 10}, {"Local_SRAM", "NPU_HBM", 10},
    {"CPU_DRAM", "Remote_HBM", 300}, {"NPU_HBM", "NIC_RAM", 5},     {"NIC_RAM", "Remote_HBM", 20},
};

/* ------------------------------------------------------------------ the graph */

uint32_t vxp_transfer__node(const vxp_graph *g, const char *name) {
  long at = vxp_name_index__find(&g->node_index, name);
  return at < 0 ? VXP_NONE : (uint32_t)at;
}

static int add_node(vxp_context *ctx, vxp_graph *g, const char *name, uint32_t *out) {
  uint32_t n = vxp_transfer__node(g, name);
  if (n == VXP_NONE) {
    if (!array_push(ctx, &g->nodes, name) ||
        !vxp_name_index__add(ctx, &g->node_index, name, g->nodes.len - 1))
      return VXP_ENOMEM;
    n = (uint32_t)(g->nodes.len - 1);
  }
  if (out) *out = n;
  return VXP_OK;
}

const vxp_graph_edge *vxp_transfer__edge(const vxp_graph *g, uint32_t from, uint32_t to) {
  for (size_t i = 0; i < g->edges.len; i++) {
    if (g->edges.items[i].from == from && g->edges.items[i].to == to) return &g->edges.items[i];
  }
  return NULL;
}

/* Add (or merge into) the edge `from -> to`. */
static int add_edge(vxp_context *ctx, vxp_graph *g, const char *from, const char *to,
                    const vxp_edge *decl, uint64_t builtin_weight) {
  uint32_t a, b;
  if (add_node(ctx, g, from, &a) != VXP_OK || add_node(ctx, g, to, &b) != VXP_OK) return VXP_ENOMEM;
  bool weighted = !decl || decl->cost_kind == VXP_COST_WEIGHT;
  uint64_t weight = decl ? (weighted ? decl->weight : 1) : builtin_weight;
  vxp_graph_edge *e = (vxp_graph_edge *)vxp_transfer__edge(g, a, b);
  if (!e) {
    vxp_graph_edge fresh;
    memset(&fresh, 0, sizeof(fresh));
    fresh.from = a;
    fresh.to = b;
    fresh.weight = weight;
    fresh.weighted = weighted;
    if (!array_push(ctx, &g->edges, fresh)) return VXP_ENOMEM;
    e = array_last(&g->edges);
  } else if (weight < e->weight) {
    e->weight = weight;
    e->weighted = weighted;
  } else if (weight == e->weight) {
    /* The same figure either way; an integer someone wrote is the one to report. */
    e->weighted = e->weighted || weighted;
  }
  if (decl && decl->cost_kind == VXP_COST_RATE && !e->has_rate) {
    e->has_rate = true;
    e->rate = decl->rate;
    e->rate_per_cycle = decl->rate_per_cycle;
  }
  return VXP_OK;
}

int vxp_transfer__graph_init(vxp_context *ctx, struct vxp_arena *arena, vxp_graph *g,
                             const vxp_machine_view *view) {
  memset(g, 0, sizeof(*g));
  g->view = view;
  g->arena = arena;
  size_t builtin_count;
  const char *const *builtins = vxp_machine__builtin_spaces(&builtin_count);
  for (size_t i = 0; i < view->spaces.len; i++) {
    if (add_node(ctx, g, view->spaces.items[i]->name, NULL) != VXP_OK) return VXP_ENOMEM;
  }
  for (size_t i = 0; i < builtin_count; i++) {
    if (add_node(ctx, g, builtins[i], NULL) != VXP_OK) return VXP_ENOMEM;
  }
  /* Declared edges first, so that ties between equally cheap routes go to them. */
  for (size_t t = 0; t < view->topologies.len; t++) {
    const vxp_topology *top = view->topologies.items[t];
    for (size_t k = 0; k < top->edges.len; k++) {
      const vxp_edge *e = &top->edges.items[k];
      if (add_edge(ctx, g, e->from, e->to, e, 0) != VXP_OK) return VXP_ENOMEM;
    }
  }
  for (size_t i = 0; i < VXP__ARRAY_LEN(builtin_edges); i++) {
    if (add_edge(ctx, g, builtin_edges[i].from, builtin_edges[i].to, NULL,
                 builtin_edges[i].weight) != VXP_OK)
      return VXP_ENOMEM;
  }
  if (g->nodes.len > SIZE_MAX / sizeof(*g->trees)) return VXP_ENOMEM;
  g->trees = vxp_arena__alloc(ctx, g->arena, g->nodes.len * sizeof(*g->trees));
  return g->trees ? VXP_OK : VXP_ENOMEM;
}

void vxp_transfer__graph_free(vxp_context *ctx, vxp_graph *g) {
  /* The trees are the arena's. */
  array_free(ctx, &g->nodes);
  vxp_name_index__free(ctx, &g->node_index);
  array_free(ctx, &g->edges);
  memset(g, 0, sizeof(*g));
}

/* ------------------------------------------------------------------ shortest routes */

/* Whether (d1, h1) is strictly cheaper than (d2, h2): weight first, then hops. */
static bool cheaper(uint64_t d1, uint32_t h1, uint64_t d2, uint32_t h2) {
  return d1 < d2 || (d1 == d2 && h1 < h2);
}

/* Dijkstra from `source` over the (small) node set, O(V^2 + E). Ties keep the route found
 * first, so the result does not depend on anything but declaration order. */
static int build_tree(vxp_context *ctx, vxp_graph *g, uint32_t source) {
  size_t n = g->nodes.len;
  vxp_route_tree *t = &g->trees[source];
  /* n is the node count of an array that exists: n * 8 does not overflow. The tree goes in
   * the arena (a refused part stays there, unused, until the analysis goes). */
  t->dist = vxp_arena__alloc(ctx, g->arena, n * sizeof(uint64_t));
  t->hops = vxp_arena__alloc(ctx, g->arena, n * sizeof(uint32_t));
  t->pred = vxp_arena__alloc(ctx, g->arena, n * sizeof(uint32_t));
  bool *done = vxp_ctx__calloc(ctx, n, sizeof(bool));
  if (!t->dist || !t->hops || !t->pred || !done) {
    vxp_ctx__free(ctx, done);
    memset(t, 0, sizeof(*t));
    return VXP_ENOMEM;
  }
  for (size_t i = 0; i < n; i++) {
    t->dist[i] = UINT64_MAX;
    t->hops[i] = UINT32_MAX; /* the mark of a node not reached */
    t->pred[i] = VXP_NONE;
  }
  t->dist[source] = 0;
  t->hops[source] = 0;
  for (;;) {
    uint32_t u = VXP_NONE;
    for (size_t i = 0; i < n; i++) {
      if (done[i] || t->hops[i] == UINT32_MAX) continue; /* not reached yet */
      if (u == VXP_NONE || cheaper(t->dist[i], t->hops[i], t->dist[u], t->hops[u])) u = (uint32_t)i;
    }
    if (u == VXP_NONE) break;
    done[u] = true;
    for (size_t k = 0; k < g->edges.len; k++) {
      const vxp_graph_edge *e = &g->edges.items[k];
      if (e->from != u || done[e->to]) continue;
      uint64_t d = t->dist[u] + e->weight;
      if (d < t->dist[u]) d = UINT64_MAX; /* saturate: never wraps into a cheap route */
      if (cheaper(d, t->hops[u] + 1, t->dist[e->to], t->hops[e->to])) {
        t->dist[e->to] = d;
        t->hops[e->to] = t->hops[u] + 1;
        t->pred[e->to] = u;
      }
    }
  }
  vxp_ctx__free(ctx, done);
  return VXP_OK;
}

/* The route between two nodes, when one exists. */
static int route_nodes(vxp_context *ctx, vxp_graph *g, uint32_t a, uint32_t b, vxp_node_path *path,
                       uint64_t *total, bool *found) {
  *found = false;
  if (a == VXP_NONE || b == VXP_NONE) return VXP_OK;
  if (!g->trees[a].dist && build_tree(ctx, g, a) != VXP_OK) return VXP_ENOMEM;
  const vxp_route_tree *t = &g->trees[a];
  /* Unreached is told by the hop count: every weight is a real one, 2^64-1 included (an
   * edge of that cost once made its route vanish, E6002, as dist doubled as the mark). */
  if (t->hops[b] == UINT32_MAX) return VXP_OK;
  path->len = 0;
  if (!array_reserve(ctx, path, (size_t)t->hops[b] + 1)) return VXP_ENOMEM;
  path->len = (size_t)t->hops[b] + 1;
  uint32_t at = b;
  for (size_t i = path->len; i-- > 0;) {
    path->items[i] = at;
    at = t->pred[at];
  }
  *total = t->dist[b];
  *found = true;
  return VXP_OK;
}

typedef Array(const char *) name_chain;

/* `name` followed by its `within:` ancestors, nearest first, into `chain`; stops at a
 * repeated name (a cycle) or an undeclared parent (which is still listed, as vxc does). */
static int ancestry(vxp_context *ctx, const vxp_machine_view *view, const char *name,
                    name_chain *chain) {
  chain->len = 0;
  const char *at = name;
  /* A `within:` cycle (E6006) ends the walk at the first repeat, found in an index of the
   * chain (checking each step against the whole chain was quadratic in its length). */
  vxp_name_index seen = {NULL, 0, 0};
  int rc = VXP_OK;
  while (at && vxp_name_index__find(&seen, at) < 0) {
    if (!array_push(ctx, chain, at) || !vxp_name_index__add(ctx, &seen, at, chain->len - 1)) {
      rc = VXP_ENOMEM;
      break;
    }
    const vxp_space *sp = vxp_machine__space(view, at);
    at = sp ? sp->within : NULL;
  }
  vxp_name_index__free(ctx, &seen);
  return rc;
}

int vxp_transfer__route(vxp_context *ctx, vxp_graph *g, const char *from, const char *to,
                        vxp_node_path *path, uint64_t *total, bool *found) {
  *found = false;
  int rc = route_nodes(ctx, g, vxp_transfer__node(g, from), vxp_transfer__node(g, to), path, total,
                       found);
  if (rc != VXP_OK || *found) return rc;
  /* Sub-spaces often have no edges of their own: try each end's ancestors, source-side
   * first, and take the first pairing that routes (vxc's subspace rule). */
  name_chain sources = {0}, targets = {0};
  rc = ancestry(ctx, g->view, from, &sources);
  if (rc == VXP_OK) rc = ancestry(ctx, g->view, to, &targets);
  for (size_t i = 0; rc == VXP_OK && !*found && i < sources.len; i++) {
    for (size_t k = 0; rc == VXP_OK && !*found && k < targets.len; k++) {
      rc = route_nodes(ctx, g, vxp_transfer__node(g, sources.items[i]),
                       vxp_transfer__node(g, targets.items[k]), path, total, found);
    }
  }
  array_free(ctx, &sources);
  array_free(ctx, &targets);
  return rc;
}

/* ------------------------------------------------------------------ costs */

bool vxp_transfer__hop_cost(uint64_t bytes, uint64_t rate, bool per_cycle, uint64_t *out) {
  if (rate == 0) return false;
  if (per_cycle) {
    *out = vxp_div_ceil_u64(bytes, rate);
    return true;
  }
  u128 scaled = (u128)bytes * PICOS_PER_SECOND;
  u128 ps = scaled / rate + (scaled % rate != 0);
  if (ps > UINT64_MAX) return false;
  *out = (uint64_t)ps;
  return true;
}

static bool contains(const char *const *names, size_t count, const char *name) {
  for (size_t i = 0; i < count; i++) {
    if (strcmp(names[i], name) == 0) return true;
  }
  return false;
}

/* One leg of a containment route: a space's bandwidth in the path's denomination. */
typedef struct leg {
  uint64_t rate;
  bool per_cycle;
  bool has_clock;
  uint64_t clock_hz;
} leg;

/* Combine the legs into a cost (see vxp_transfer__containment). `streamed` takes the
 * slowest leg alone, else the legs add; `composition` is what the record says, which is
 * the destination's declared `crossing` even when a register stage forces the sum. */
static void price_legs(const leg *legs, size_t count, uint64_t bytes, bool streamed,
                       vxp_composition composition, vxp_hop_cost *out) {
  bool all_cycles = true;
  for (size_t i = 0; i < count; i++)
    all_cycles = all_cycles && legs[i].per_cycle;
  u128 total = 0;
  for (size_t i = 0; i < count; i++) {
    u128 term;
    if (all_cycles) {
      term = vxp_div_ceil_u64(bytes, legs[i].rate);
    } else if (!legs[i].per_cycle) {
      uint64_t ps;
      if (!vxp_transfer__hop_cost(bytes, legs[i].rate, false, &ps)) return;
      term = ps;
    } else {
      /* Cycles become time only at a declared clock; without one there is no answer. */
      if (!legs[i].has_clock || legs[i].clock_hz == 0) return;
      u128 cycles = vxp_div_ceil_u64(bytes, legs[i].rate);
      u128 scaled = cycles * PICOS_PER_SECOND;
      term = scaled / legs[i].clock_hz + (scaled % legs[i].clock_hz != 0);
    }
    if (streamed)
      total = term > total ? term : total;
    else
      total += term; /* at most 2^64 terms of 2^64: cannot wrap 128 bits here */
  }
  if (total > UINT64_MAX) return;
  out->source = VXP_COST_SOURCE_CONTAINMENT;
  out->composition = composition;
  out->per_cycle = all_cycles;
  out->value = (uint64_t)total;
}

int vxp_transfer__containment(vxp_context *ctx, const vxp_machine_view *view, const char *from,
                              const char *to, uint64_t bytes, vxp_hop_cost *out) {
  memset(out, 0, sizeof(*out));
  if (strcmp(from, to) == 0) return VXP_OK;
  name_chain a = {0}, b = {0}, route = {0};
  Array(leg) legs = {0};
  int rc = ancestry(ctx, view, from, &a);
  if (rc == VXP_OK) rc = ancestry(ctx, view, to, &b);
  /* The nearest common ancestor; a space is its own ancestor. */
  const char *nca = NULL;
  for (size_t i = 0; rc == VXP_OK && !nca && i < b.len; i++) {
    if (contains(a.items, a.len, b.items[i])) nca = b.items[i];
  }
  if (rc != VXP_OK || !nca) goto done;
  /* Each end and its ancestors up to the common ancestor; the ancestor itself is charged
   * only when it is one of the ends (it is then where the data comes from or goes to). */
  for (int side = 0; side < 2 && rc == VXP_OK; side++) {
    const char *const *chain = side ? b.items : a.items;
    size_t len = side ? b.len : a.len;
    for (size_t i = 0; i < len && strcmp(chain[i], nca) != 0; i++) {
      if (!array_push(ctx, &route, chain[i])) rc = VXP_ENOMEM;
    }
  }
  if (rc == VXP_OK && (strcmp(nca, from) == 0 || strcmp(nca, to) == 0) &&
      !array_push(ctx, &route, nca))
    rc = VXP_ENOMEM;
  if (rc != VXP_OK || route.len == 0) goto done;
  uint64_t replicas = 1;
  for (size_t i = 0; i < route.len; i++) {
    const vxp_space *sp = vxp_machine__space(view, route.items[i]);
    if (!sp || !sp->has_bandwidth || sp->bandwidth == 0) goto done;
    if (sp->has_replicas && sp->replicas > replicas) replicas = sp->replicas;
  }
  for (size_t i = 0; i < route.len; i++) {
    const vxp_space *sp = vxp_machine__space(view, route.items[i]);
    leg l = {sp->bandwidth, sp->bandwidth_per_cycle, sp->has_clock, sp->clock_hz};
    /* A device-wide figure shared by `replicas` instances is worth bandwidth/replicas to
     * the one instance a transfer into a replicated space runs on. */
    if (replicas > 1 && !sp->has_replicas) {
      l.rate /= replicas;
      if (l.rate == 0) l.rate = 1;
    }
    if (!array_push(ctx, &legs, l)) {
      rc = VXP_ENOMEM;
      goto done;
    }
  }
  /* A space passed through strictly between the ends that is a register file (`scope:
   * thread`) is a load then a dependent store: the legs add whatever the destination's
   * `crossing:` says (vxc's rule; endpoints themselves may stream). */
  bool through_registers = false;
  for (size_t i = 0; i < route.len; i++) {
    const vxp_space *sp = vxp_machine__space(view, route.items[i]);
    if (strcmp(route.items[i], from) != 0 && strcmp(route.items[i], to) != 0 && sp &&
        sp->has_scope && sp->scope == VXP_SCOPE_THREAD)
      through_registers = true;
  }
  const vxp_space *dst = vxp_machine__space(view, to);
  bool declared_streamed = dst && dst->crossing_streamed;
  price_legs(legs.items, legs.len, bytes, declared_streamed && !through_registers,
             declared_streamed ? VXP_COMPOSE_BOTTLENECK : VXP_COMPOSE_SUM, out);
done:
  array_free(ctx, &a);
  array_free(ctx, &b);
  array_free(ctx, &route);
  array_free(ctx, &legs);
  return rc;
}

int vxp_transfer__hop(vxp_context *ctx, const vxp_graph *g, const char *from, const char *to,
                      uint64_t bytes, vxp_hop_cost *out) {
  return vxp_transfer__hop_between(ctx, g, from, vxp_transfer__node(g, from), to,
                                   vxp_transfer__node(g, to), bytes, out);
}

int vxp_transfer__hop_between(vxp_context *ctx, const vxp_graph *g, const char *from,
                              uint32_t from_node, const char *to, uint32_t to_node, uint64_t bytes,
                              vxp_hop_cost *out) {
  memset(out, 0, sizeof(*out));
  const vxp_graph_edge *e = vxp_transfer__edge(g, from_node, to_node);
  if (e && e->has_rate) {
    if (vxp_transfer__hop_cost(bytes, e->rate, e->rate_per_cycle, &out->value)) {
      out->source = VXP_COST_SOURCE_LINK_RATE;
      out->per_cycle = e->rate_per_cycle;
    }
    return VXP_OK;
  }
  return vxp_transfer__containment(ctx, g->view, from, to, bytes, out);
}

int vxp_transfer__check_edges(vxp_context *ctx, const vxp_machine_view *view,
                              vxp_diag_list *diags) {
  for (size_t t = 0; t < view->topologies.len; t++) {
    const vxp_topology *top = view->topologies.items[t];
    for (size_t k = 0; k < top->edges.len; k++) {
      const vxp_edge *e = &top->edges.items[k];
      if (e->cost_kind == VXP_COST_NONE) continue;
      /* Derivability is a property of the tree and its bandwidths, not of a size: one
       * byte probes it. */
      vxp_hop_cost probe;
      int rc = vxp_transfer__containment(ctx, view, e->from, e->to, 1, &probe);
      if (rc != VXP_OK) return rc;
      if (probe.source == VXP_COST_SOURCE_NONE) continue;
      if (!vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "E6013", top->src, e->start_byte,
                         e->end_byte,
                         "topology '%s': transfer Memory::%s -> Memory::%s declares a cost, but "
                         "one is already derivable from the `bandwidth:` of the spaces it "
                         "connects; a hop takes its cost from one source only: remove the "
                         "`: ...`, or the `bandwidth:` that derives the other",
                         top->name, e->from, e->to))
        return VXP_ENOMEM;
    }
  }
  return VXP_OK;
}

int vxp_transfer__check_reachable(vxp_context *ctx, vxp_graph *g, vxp_diag_list *diags) {
  const vxp_machine_view *view = g->view;
  for (size_t t = 0; t < view->topologies.len; t++) {
    const vxp_topology *top = view->topologies.items[t];
    if (!top->memory || strcmp(top->memory, "CPU_DRAM") == 0) continue;
    bool host_visible = false;
    for (size_t i = 0; i < top->visible.len; i++)
      host_visible = host_visible || strcmp(top->visible.items[i], "CPU_DRAM") == 0;
    if (host_visible) continue;
    vxp_node_path path = {0};
    uint64_t total = 0;
    bool found = false;
    int rc = route_nodes(ctx, g, vxp_transfer__node(g, "CPU_DRAM"),
                         vxp_transfer__node(g, top->memory), &path, &total, &found);
    array_free(ctx, &path);
    if (rc != VXP_OK) return rc;
    if (found) continue;
    if (!vxp_diag__add(ctx, diags, VXP_SEVERITY_WARNING, "W1026", top->src, top->name_start,
                       top->name_end,
                       "topology '%s': its memory is unreachable from the host; declare a "
                       "`transfer` edge so data can reach it",
                       top->name))
      return VXP_ENOMEM;
  }
  return VXP_OK;
}
