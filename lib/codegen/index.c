/* SPDX-License-Identifier: Apache-2.0 */
/* index.c - the lookups of the CUDA stage, built once per generation: which model function
 * an item lowered to, which analysed functions (and generic instances) came from it, each
 * analysed function's records, the generated function of an analysed one or of a name, and
 * the generated space of a machine space. Each was a scan of every function or record per
 * item, call or placement, which made emit-cuda quadratic (10^5 functions took minutes). */
#include <stdlib.h>

#include "codegen.h"

static int by_span(const void *a, const void *b) {
  const cg_span_key *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  if (x->end != y->end) return x->end < y->end ? -1 : 1;
  return x->at < y->at ? -1 : x->at > y->at;
}

/* The last entry (highest index) of `keys` with exactly this span, or VXP_NONE. */
static uint32_t find_span(const cg_span_key *keys, size_t n, uint32_t start, uint32_t end) {
  size_t lo = 0, hi = n;
  while (lo < hi) { /* the first entry after every (start, end) entry */
    size_t mid = lo + (hi - lo) / 2;
    if (keys[mid].start < start || (keys[mid].start == start && keys[mid].end <= end))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo > 0 && keys[lo - 1].start == start && keys[lo - 1].end == end ? keys[lo - 1].at
                                                                          : VXP_NONE;
}

static uint32_t *none_array(cg *G, size_t n) {
  uint32_t *a = vxp_ctx__calloc(G->ctx, n ? n : 1, sizeof(*a));
  if (a)
    for (size_t i = 0; i < n; i++)
      a[i] = VXP_NONE;
  return a;
}

bool vxp_cg__index_build(cg *G) {
  cg_index *X = &G->index;
  size_t nmodel = G->m->functions.len, nan = G->an->functions.len;
  X->fns = vxp_ctx__calloc(G->ctx, nmodel ? nmodel : 1, sizeof(*X->fns));
  X->types = vxp_ctx__calloc(G->ctx, G->m->types.len + 1, sizeof(*X->types));
  X->cexprs = vxp_ctx__calloc(G->ctx, G->m->cexprs.len + 1, sizeof(*X->cexprs));
  X->last_analysed = none_array(G, nmodel);
  X->first_instance = none_array(G, nmodel);
  X->next_instance = none_array(G, nan);
  X->fn_of_analysed = none_array(G, nan);
  X->records = vxp_ctx__calloc(G->ctx, nan ? nan : 1, sizeof(*X->records));
  X->space_of_view = none_array(G, G->an->view.spaces.len);
  /* Every generated function is a distinct analysed one, so this is room enough for all:
   * the array never moves, and the names index may borrow the names inside it. */
  if (!X->fns || !X->types || !X->cexprs || !X->last_analysed || !X->first_instance ||
      !X->next_instance || !X->fn_of_analysed || !X->records || !X->space_of_view ||
      !array_reserve(G->ctx, &G->fns, nan + 1))
    return false;
  /* The function, tensor type and constant expression written at a span of the source
   * (an item, a type node, an `if comptime` condition), sorted for binary search. */
  for (size_t i = 0; i < nmodel; i++) {
    const vxp_function *f = &G->m->functions.items[i];
    if (!f->is_closure) X->fns[X->fns_len++] = (cg_span_key){f->start_byte, 0, (uint32_t)i};
  }
  for (size_t i = 0; i < G->m->types.len; i++) {
    const vxp_tensor_type *t = &G->m->types.items[i];
    if (t->wrapper == VXP_WRAP_NONE)
      X->types[X->types_len++] = (cg_span_key){t->start_byte, t->end_byte, (uint32_t)i};
  }
  for (size_t i = 0; i < G->m->cexprs.len; i++) {
    const vxp_cexpr *c = &G->m->cexprs.items[i];
    X->cexprs[X->cexprs_len++] = (cg_span_key){c->start_byte, c->end_byte, (uint32_t)i};
  }
  qsort(X->fns, X->fns_len, sizeof(*X->fns), by_span);
  qsort(X->types, X->types_len, sizeof(*X->types), by_span);
  qsort(X->cexprs, X->cexprs_len, sizeof(*X->cexprs), by_span);
  for (size_t i = nan; i-- > 0;) {
    const vxp_analysed_fn *af = &G->an->functions.items[i];
    if (af->model_fn >= nmodel) continue;
    if (X->last_analysed[af->model_fn] == VXP_NONE) X->last_analysed[af->model_fn] = (uint32_t)i;
    if (af->is_instance) {
      X->next_instance[i] = X->first_instance[af->model_fn];
      X->first_instance[af->model_fn] = (uint32_t)i;
    }
  }
  /* A function's records run from its first to one past its last (records_at and the rule
   * then match placements by their bytes within that span). */
  for (size_t i = 0; i < G->an->records.len; i++) {
    uint32_t f = G->an->records.items[i].function;
    if (f >= nan) continue;
    if (!X->records[f].seen) X->records[f].first = i;
    X->records[f].seen = true;
    X->records[f].end = i + 1;
  }
  return true;
}

uint32_t vxp_cg__index_model_fn(const cg *G, uint32_t start_byte) {
  /* The first declared of that start (the scan this replaces stopped at the first). */
  const cg_index *X = &G->index;
  size_t lo = 0, hi = X->fns_len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (X->fns[mid].start < start_byte)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < X->fns_len && X->fns[lo].start == start_byte ? X->fns[lo].at : VXP_NONE;
}

uint32_t vxp_cg__index_type(const cg *G, uint32_t start_byte, uint32_t end_byte) {
  return find_span(G->index.types, G->index.types_len, start_byte, end_byte);
}

uint32_t vxp_cg__index_cexpr(const cg *G, uint32_t start_byte, uint32_t end_byte) {
  return find_span(G->index.cexprs, G->index.cexprs_len, start_byte, end_byte);
}

bool vxp_cg__index_add_fn(cg *G, size_t at) {
  cg_index *X = &G->index;
  const cg_fn *f = &G->fns.items[at];
  if (f->analysed < G->an->functions.len) X->fn_of_analysed[f->analysed] = (uint32_t)at;
  return vxp_name_index__add(G->ctx, &X->fn_by_name, f->name, at) &&
         vxp_name_index__add(G->ctx, &X->fn_by_cname, f->cname, at);
}

cg_fn *vxp_cg__index_fn_named(cg *G, const char *name, size_t len) {
  long at = vxp_name_index__find_n(&G->index.fn_by_name, name, len);
  return at < 0 ? NULL : &G->fns.items[at];
}

cg_fn *vxp_cg__index_fn_of(cg *G, uint32_t analysed) {
  if (analysed >= G->an->functions.len) return NULL;
  uint32_t at = G->index.fn_of_analysed[analysed];
  return at == VXP_NONE ? NULL : &G->fns.items[at];
}

void vxp_cg__index_free(cg *G) {
  cg_index *X = &G->index;
  vxp_ctx__free(G->ctx, X->fns);
  vxp_ctx__free(G->ctx, X->types);
  vxp_ctx__free(G->ctx, X->cexprs);
  vxp_ctx__free(G->ctx, X->last_analysed);
  vxp_ctx__free(G->ctx, X->first_instance);
  vxp_ctx__free(G->ctx, X->next_instance);
  vxp_ctx__free(G->ctx, X->fn_of_analysed);
  vxp_ctx__free(G->ctx, X->records);
  vxp_ctx__free(G->ctx, X->space_of_view);
  vxp_name_index__free(G->ctx, &X->fn_by_name);
  vxp_name_index__free(G->ctx, &X->fn_by_cname);
  memset(X, 0, sizeof(*X));
}
