/* SPDX-License-Identifier: Apache-2.0 */
/* lookup.c - the per-function lookups of the CUDA stage: the analysis' records and the
 * model's placements of the function being emitted by their source span, and the C names it
 * has used. Each was a scan of the function's records, events or names per node or binding,
 * which made emit-cuda quadratic in the length of one function (a function of 10^4
 * placements took 2.1 s, of 2 x 10^4 12.6 s). Each index is built once per function, on
 * its first use, and is rebuilt only when another function is asked for. */
#include <stdlib.h>
#include <string.h>

#include "codegen.h"

static int by_span(const void *a, const void *b) {
  const cg_span_ref *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  if (x->end != y->end) return x->end < y->end ? -1 : 1;
  return x->at < y->at ? -1 : x->at > y->at; /* equal spans keep their order */
}

/* The first entry of the sorted `refs` at or after span (start, end). */
static size_t lower_bound(const cg_span_ref *refs, size_t n, uint32_t start, uint32_t end) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (refs[mid].start < start || (refs[mid].start == start && refs[mid].end < end))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The records [first, end) of the analysis sorted by span, built when another range was
 * indexed last. false when out of memory (G->rc set). */
static bool index_records(cg *G, size_t first, size_t end) {
  cg_lookup *L = &G->lookup;
  if (L->records_built && L->rec_first == first && L->rec_end == end) return true;
  L->records.len = 0;
  L->records_built = false;
  if (end > first && !array_reserve(G->ctx, &L->records, end - first)) {
    G->rc = VXP_ENOMEM;
    return false;
  }
  for (size_t i = first; i < end; i++) {
    const vxp_record *r = &G->an->records.items[i];
    cg_span_ref ref = {r->start_byte, r->end_byte, (uint32_t)i};
    L->records.items[L->records.len++] = ref;
  }
  if (L->records.len > 1)
    qsort(L->records.items, L->records.len, sizeof(*L->records.items), by_span);
  L->rec_first = first;
  L->rec_end = end;
  L->records_built = true;
  return true;
}

size_t vxp_cg__records_span(cg *G, size_t first, size_t end, uint32_t start_byte, uint32_t end_byte,
                            size_t *from) {
  *from = 0;
  if (!index_records(G, first, end)) return 0;
  const cg_lookup *L = &G->lookup;
  size_t lo = lower_bound(L->records.items, L->records.len, start_byte, end_byte), hi = lo;
  while (hi < L->records.len && L->records.items[hi].start == start_byte &&
         L->records.items[hi].end == end_byte)
    hi++;
  *from = lo;
  return hi - lo;
}

size_t vxp_cg__records_at(cg *G, TSNode node, const vxp_record **out, size_t max) {
  size_t from, n = vxp_cg__records_span(G, G->fn->record_first, G->fn->record_end,
                                        ts_node_start_byte(node), ts_node_end_byte(node), &from);
  for (size_t k = 0; k < n && k < max; k++)
    out[k] = &G->an->records.items[G->lookup.records.items[from + k].at];
  return n;
}

bool vxp_cg__model_places(cg *G, TSNode node) {
  cg_lookup *L = &G->lookup;
  uint32_t model_fn = G->fn->model_fn;
  if (!L->places_built || L->places_fn != model_fn) {
    const vxp_function *fn = &G->m->functions.items[model_fn];
    L->places.len = 0;
    L->places_built = false;
    for (size_t i = 0; i < fn->events.len; i++) {
      const vxp_event *ev = &fn->events.items[i];
      if (ev->kind != VXP_EV_PLACE) continue;
      cg_span_ref ref = {ev->u.place.start_byte, ev->u.place.end_byte, (uint32_t)i};
      if (!array_push(G->ctx, &L->places, ref)) {
        G->rc = VXP_ENOMEM;
        return false;
      }
    }
    if (L->places.len > 1) qsort(L->places.items, L->places.len, sizeof(*L->places.items), by_span);
    L->places_fn = model_fn;
    L->places_built = true;
  }
  uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  size_t k = lower_bound(L->places.items, L->places.len, start, end);
  return k < L->places.len && L->places.items[k].start == start && L->places.items[k].end == end;
}

/* ------------------------------------------------------------------ used C names */

static uint64_t hash_name(const char *s) {
  uint64_t h = 1469598103934665603u; /* FNV-1a */
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

bool vxp_cg__name_used(const cg *G, const char *cname) {
  const cg_lookup *L = &G->lookup;
  if (!L->names_cap) return false;
  for (size_t i = hash_name(cname) & (L->names_cap - 1);; i = (i + 1) & (L->names_cap - 1)) {
    const char *s = L->names[i];
    if (!s) return false;
    if (strcmp(s, cname) == 0) return true;
  }
}

static void insert_name(cg_lookup *L, const char *cname) {
  size_t i = hash_name(cname) & (L->names_cap - 1);
  while (L->names[i])
    i = (i + 1) & (L->names_cap - 1);
  L->names[i] = cname;
  L->names_count++;
}

bool vxp_cg__name_add(cg *G, const char *cname) {
  cg_lookup *L = &G->lookup;
  if ((L->names_count + 1) * 2 > L->names_cap) { /* at most half full */
    size_t cap = L->names_cap ? L->names_cap * 2 : 64;
    const char **old = L->names;
    size_t old_cap = L->names_cap;
    L->names = vxp_ctx__calloc(G->ctx, cap, sizeof(*L->names));
    if (!L->names) {
      L->names = old;
      return false;
    }
    L->names_cap = cap;
    L->names_count = 0;
    for (size_t i = 0; i < old_cap; i++)
      if (old[i]) insert_name(L, old[i]);
    vxp_ctx__free(G->ctx, old);
  }
  insert_name(L, cname);
  return true;
}

void vxp_cg__names_clear(cg *G) {
  cg_lookup *L = &G->lookup;
  if (L->names_count) memset(L->names, 0, L->names_cap * sizeof(*L->names));
  L->names_count = 0;
}

void vxp_cg__lookup_free(cg *G) {
  cg_lookup *L = &G->lookup;
  array_free(G->ctx, &L->records);
  array_free(G->ctx, &L->places);
  vxp_ctx__free(G->ctx, L->names);
  vxp_scope_index__free(G->ctx, &L->vars);
  memset(L, 0, sizeof(*L));
}
