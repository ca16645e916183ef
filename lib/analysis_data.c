/* SPDX-License-Identifier: Apache-2.0 */
/* analysis_data.c - an analysis as data (analysis_data.h): its tables sealed into its arena
 * and freed, the decided facts looked up, and the public accessors of its results. The walk
 * that makes it is analysis.c, above every module that reads these. */
#include "analysis_data.h"

#include <string.h>

#include "context.h"
#include "program.h"

/* The analysis' tables that are final once it is made, moved into its arena then: its
 * arrays (but the diagnostics, whose entries own their text), the machine view's, and the
 * name indexes' slots, the routing graph's nodes and edges. The graph's shortest-path trees
 * (made when first asked for), the const table and the diagnostics stay each their own. */
typedef struct table_ref {
  void **items;
  size_t len, *cap;
  size_t elem;
} table_ref;

#define TABLE(a)                                                                                   \
  { (void **)&(a).items, (a).len, &(a).cap, sizeof(*(a).items) }
#define INDEX(x)                                                                                   \
  { (void **)&(x).slots, (x).cap, &(x).cap, sizeof(*(x).slots) }
#define ANALYSIS_TABLES 34

static void analysis_tables(vxp_analysis *an, table_ref t[ANALYSIS_TABLES]) {
  const table_ref all[ANALYSIS_TABLES] = {TABLE(an->defines),
                                          TABLE(an->overrides),
                                          TABLE(an->unresolved_cexprs),
                                          TABLE(an->resolve_sites),
                                          TABLE(an->functions),
                                          TABLE(an->const_binds),
                                          TABLE(an->type_binds),
                                          TABLE(an->calls),
                                          TABLE(an->held),
                                          TABLE(an->fn_spaces),
                                          TABLE(an->call_trees),
                                          TABLE(an->unresolved),
                                          TABLE(an->records),
                                          TABLE(an->scopes),
                                          TABLE(an->set_records),
                                          TABLE(an->resident_sets),
                                          TABLE(an->event_facts),
                                          TABLE(an->fact_dims),
                                          TABLE(an->access_facts),
                                          TABLE(an->routes),
                                          TABLE(an->route_nodes),
                                          TABLE(an->vis_ends),
                                          TABLE(an->raw_ends),
                                          TABLE(an->walk_spans),
                                          TABLE(an->spawning_names),
                                          TABLE(an->view.spaces),
                                          TABLE(an->view.topologies),
                                          TABLE(an->view.lowerings),
                                          INDEX(an->view.space_index),
                                          INDEX(an->view.topology_index),
                                          INDEX(an->function_index),
                                          TABLE(an->graph.nodes),
                                          TABLE(an->graph.edges),
                                          INDEX(an->graph.node_index)};
  memcpy(t, all, sizeof(all));
}

int vxp_analysis__seal(vxp_analysis *an) {
  table_ref t[ANALYSIS_TABLES];
  analysis_tables(an, t);
  for (size_t i = 0; i < ANALYSIS_TABLES; i++) {
    if (!vxp_arena__adopt(an->ctx, &an->arena, t[i].items, t[i].len, t[i].elem)) return VXP_ENOMEM;
    *t[i].cap = t[i].len; /* nothing more fits: a sealed table does not grow */
    an->sealed |= (uint64_t)1 << i;
  }
  /* The diagnostics last, deep-copied (each entry owns its message and notes). */
  vxp_diag_list diags = {0};
  if (!vxp_diag__list_to_arena(an->ctx, &an->arena, &diags, &an->diags)) return VXP_ENOMEM;
  vxp_diag__list_free(an->ctx, &an->diags);
  an->diags = diags;
  an->diags_sealed = true;
  return VXP_OK;
}

void vxp_analysis_free(vxp_analysis *an) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, );

  if (!an) return;
  an->tag = VXP_TAG_FREED;
  vxp_context *ctx = an->ctx;
  /* The handle, the const table, the graph's shortest-path trees, the defines' and the
   * instances' names are the arena's, given back last in one call. A sealed table is the arena's
   * (given back below in one call); an analysis that failed before it was sealed owns each of the
   * others. */
  table_ref t[ANALYSIS_TABLES];
  analysis_tables(an, t);
  for (size_t i = 0; i < ANALYSIS_TABLES; i++) {
    if (!(an->sealed & ((uint64_t)1 << i))) vxp_ctx__free(ctx, *t[i].items);
    *t[i].items = NULL;
  }
  vxp_transfer__graph_free(ctx, &an->graph);
  vxp_machine__view_free(ctx, &an->view);
  vxp_name_index__free(ctx, &an->function_index);
  vxp_machine_free(an->own);
  vxp_machine_free(an->default_machine);
  vxp_machine_free(an->default_host);
  if (!an->diags_sealed) vxp_diag__list_free(ctx, &an->diags);
  vxp_ctx__free(ctx, an->json);
  vxp_ctx__free(ctx, an->sarif);
  vxp_arena__free_handle(ctx, &an->arena);
}

/* ------------------------------------------------------------------ decided facts */

const vxp_event_fact *vxp_analysis__event_fact(const vxp_analysis *an, uint32_t fn, size_t event) {
  if (!an || fn >= an->functions.len) return NULL;
  const vxp_analysed_fn *af = &an->functions.items[fn];
  const vxp_function *mf = &an->prog->model.functions.items[af->model_fn];
  if (event >= mf->events.len) return NULL;
  return &an->event_facts.items[af->fact_first + event];
}

const uint64_t *vxp_analysis__fact_dims(const vxp_analysis *an, const vxp_event_fact *f) {
  return (f && f->size == VXP_FACT_SIZE_KNOWN) ? an->fact_dims.items + f->dims_first : NULL;
}

const vxp_access_fact *vxp_analysis__access_fact(const vxp_analysis *an, uint32_t fn,
                                                 size_t access) {
  if (!an || fn >= an->functions.len) return NULL;
  const vxp_analysed_fn *af = &an->functions.items[fn];
  const vxp_function *mf = &an->prog->model.functions.items[af->model_fn];
  if (access >= mf->accesses.len) return NULL;
  return &an->access_facts.items[af->access_fact_first + access];
}

uint32_t vxp_analysis__function_index(const vxp_analysis *an, const char *name) {
  for (size_t i = 0; an && name && i < an->functions.len; i++)
    if (strcmp(an->functions.items[i].name, name) == 0) return (uint32_t)i;
  return VXP_NONE;
}

/* ------------------------------------------------------------------ public accessors */

int vxp_analysis_admitted(const vxp_analysis *an) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, 0);
  return an && an->error_count == 0;
}

size_t vxp_analysis_error_count(const vxp_analysis *an) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, 0);
  return an ? an->error_count : 0;
}

size_t vxp_analysis_warning_count(const vxp_analysis *an) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, 0);
  return an ? an->warning_count : 0;
}

size_t vxp_analysis_diagnostic_count(const vxp_analysis *an) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, 0);
  return an ? an->diags.len : 0;
}

const vxp_diagnostic *vxp_analysis_diagnostic(const vxp_analysis *an, size_t i) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, NULL);

  return (an && i < an->diags.len) ? &an->diags.items[i] : NULL;
}

size_t vxp_analysis_resident_set_count(const vxp_analysis *an) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, 0);

  return an ? an->resident_sets.len : 0;
}

const vxp_resident_set *vxp_analysis_resident_set(const vxp_analysis *an, size_t i) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, NULL);

  return (an && i < an->resident_sets.len) ? &an->resident_sets.items[i] : NULL;
}

size_t vxp_analysis_record_count(const vxp_analysis *an) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, 0);
  return an ? an->records.len : 0;
}

const vxp_record *vxp_analysis_record(const vxp_analysis *an, size_t i) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, NULL);

  return (an && i < an->records.len) ? &an->records.items[i] : NULL;
}

/* ------------------------------------------------------------------ resident sets, records */

const char *vxp_resident_set_function(const vxp_resident_set *rs) {
  return rs ? rs->function_name : NULL;
}
const char *vxp_resident_set_space(const vxp_resident_set *rs) {
  return rs ? rs->space_name : NULL;
}
uint64_t vxp_resident_set_peak_bytes(const vxp_resident_set *rs) { return rs ? rs->peak_bytes : 0; }
uint64_t vxp_resident_set_capacity_bytes(const vxp_resident_set *rs) {
  return rs ? rs->capacity_bytes : 0;
}
uint64_t vxp_resident_set_budget_bytes(const vxp_resident_set *rs, uint32_t margin_ppm) {
  if (!rs || !rs->capacity_bytes || margin_ppm >= 1000000u) return 0;
  if (!rs->owner) /* an analysis still being built: no machine view to read overheads from */
    return (uint64_t)((u128)rs->capacity_bytes * (1000000u - margin_ppm) / 1000000u);
  return (uint64_t)(vxp_space__budget(rs->owner->view.spaces.items[rs->space], margin_ppm) /
                    1000000u);
}
size_t vxp_resident_set_tile_count(const vxp_resident_set *rs) { return rs ? rs->tiles : 0; }
int vxp_resident_set_overcommit(const vxp_resident_set *rs) { return rs && rs->overcommit; }
int vxp_resident_set_allocated_bytes(const vxp_resident_set *rs, uint64_t *out) {
  if (!rs || !rs->allocated_known) return 0;
  if (out) *out = rs->allocated_bytes;
  return 1;
}

const char *vxp_record_function(const vxp_record *rec) { return rec ? rec->function_name : NULL; }
const char *vxp_record_space(const vxp_record *rec) { return rec ? rec->space_name : NULL; }
const char *vxp_record_binding(const vxp_record *rec) { return rec ? rec->binding_name : NULL; }
uint64_t vxp_record_bytes(const vxp_record *rec) { return rec ? rec->bytes : 0; }
uint32_t vxp_record_scope_depth(const vxp_record *rec) { return rec ? rec->depth : 0; }
uint32_t vxp_record_order(const vxp_record *rec) { return rec ? rec->order : 0; }
vxp_range vxp_record_range(const vxp_record *rec) {
  vxp_range none;
  memset(&none, 0, sizeof(none));
  return rec ? rec->range : none;
}
int vxp_record_live_at_peak(const vxp_record *rec) { return rec && rec->live_at_peak; }

/* ------------------------------------------------------------------ routes */

size_t vxp_analysis_route_count(const vxp_analysis *an) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, 0);
  return an ? an->routes.len : 0;
}

const vxp_route *vxp_analysis_route(const vxp_analysis *an, size_t i) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, NULL);

  return (an && i < an->routes.len) ? &an->routes.items[i] : NULL;
}

static const char *route_space(const vxp_route *r, size_t i) {
  const vxp_analysis *an = r->owner;
  return an->graph.nodes.items[an->route_nodes.items[r->path_first + i]];
}

const char *vxp_route_function(const vxp_route *r) { return r ? r->function_name : NULL; }

size_t vxp_route_path_length(const vxp_route *r) { return r ? r->path_len : 0; }

const char *vxp_analysis__route_end(const vxp_route *r, bool to) {
  uint32_t node = to ? r->to_node : r->from_node;
  if (node != VXP_NONE && node < r->owner->graph.nodes.len)
    return r->owner->graph.nodes.items[node];
  return route_space(r, to ? r->path_len - 1 : 0);
}

const char *vxp_route_path_space(const vxp_route *r, size_t i) {
  return (r && i < r->path_len) ? route_space(r, i) : NULL;
}

int vxp_route_edge_cost(const vxp_route *r, size_t i, uint64_t *out) {
  if (!r || i + 1 >= r->path_len) return 0;
  /* A step along the `within:` tree is no edge of the graph: routing charges it nothing. */
  if ((i == 0 && r->climbs) || (i + 2 == r->path_len && r->descends)) {
    if (out) *out = 0;
    return 1;
  }
  const vxp_analysis *an = r->owner;
  const vxp_graph_edge *e = vxp_transfer__edge(&an->graph, an->route_nodes.items[r->path_first + i],
                                               an->route_nodes.items[r->path_first + i + 1]);
  if (!e || !e->weighted) return 0;
  if (out) *out = e->weight;
  return 1;
}

uint64_t vxp_route_total_cost(const vxp_route *r) { return r ? r->total_cost : 0; }

int vxp_route_bytes(const vxp_route *r, uint64_t *out) {
  if (!r || !r->bytes_known) return 0;
  if (out) *out = r->bytes;
  return 1;
}

int vxp_route_derived_cost(const vxp_route *r, uint64_t *out) {
  if (!r || r->cost.source == VXP_COST_SOURCE_NONE) return 0;
  if (out) *out = r->cost.value;
  return 1;
}

vxp_cost_unit vxp_route_cost_unit(const vxp_route *r) {
  if (!r || r->cost.source == VXP_COST_SOURCE_NONE) return VXP_COST_UNIT_NONE;
  return r->cost.per_cycle ? VXP_COST_UNIT_CYCLES : VXP_COST_UNIT_PS;
}

vxp_cost_basis vxp_route_cost_basis(const vxp_route *r) {
  if (!r) return VXP_COST_BASIS_NONE;
  switch (r->cost.source) {
  case VXP_COST_SOURCE_LINK_RATE: return VXP_COST_BASIS_LINK_RATE;
  case VXP_COST_SOURCE_CONTAINMENT: return VXP_COST_BASIS_CONTAINMENT;
  default: return VXP_COST_BASIS_NONE;
  }
}

vxp_cost_composition vxp_route_cost_composition(const vxp_route *r) {
  if (!r) return VXP_COST_COMPOSITION_NONE;
  switch (r->cost.composition) {
  case VXP_COMPOSE_SUM: return VXP_COST_COMPOSITION_SUM;
  case VXP_COMPOSE_BOTTLENECK: return VXP_COST_COMPOSITION_BOTTLENECK;
  default: return VXP_COST_COMPOSITION_NONE;
  }
}

const char *vxp_cost_unit_name(vxp_cost_unit unit) {
  return unit == VXP_COST_UNIT_PS ? "ps" : unit == VXP_COST_UNIT_CYCLES ? "cyc" : NULL;
}

const char *vxp_cost_basis_name(vxp_cost_basis basis) {
  return basis == VXP_COST_BASIS_LINK_RATE     ? "link_rate"
         : basis == VXP_COST_BASIS_CONTAINMENT ? "containment"
                                               : NULL;
}

const char *vxp_cost_composition_name(vxp_cost_composition composition) {
  return composition == VXP_COST_COMPOSITION_SUM          ? "sum"
         : composition == VXP_COST_COMPOSITION_BOTTLENECK ? "bottleneck"
                                                          : NULL;
}

const char *vxp_route_derived_unit(const vxp_route *r) {
  return vxp_cost_unit_name(vxp_route_cost_unit(r));
}

const char *vxp_route_cost_source(const vxp_route *r) {
  return vxp_cost_basis_name(vxp_route_cost_basis(r));
}

const char *vxp_route_composition(const vxp_route *r) {
  return vxp_cost_composition_name(vxp_route_cost_composition(r));
}

vxp_range vxp_route_range(const vxp_route *r) {
  vxp_range none;
  memset(&none, 0, sizeof(none));
  return r ? r->range : none;
}
