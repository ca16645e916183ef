/* SPDX-License-Identifier: Apache-2.0 */
/* reuse_walk.c - an analysed function's results taken over from an earlier analysis (see
 * reuse_walk.h for which inputs decide them and why they are unchanged when taken). Every
 * index into the analysis' tables is moved to where the copy lands, every index into the
 * model to the new model's, every byte offset, line and column past the edit, and every
 * borrowed name to the new model's or view's. */
#include "reuse_walk.h"

#include <string.h>

#include "context.h"
#include "program.h"

/* The names whose results no walk of a function needing no generic arguments takes over:
 * the resolver's (a limit reached while instantiating depends on what earlier walks made). */
static bool resolver_code(const vxp_diagnostic *d) {
  return strcmp(d->code, "VXP0030") == 0 || strcmp(d->code, "E3032") == 0;
}

static bool same_defines(const vxp_analysis *a, const vxp_analysis *b) {
  if (a->defines.len != b->defines.len) return false;
  for (size_t i = 0; i < a->defines.len; i++) {
    if (a->defines.items[i].value != b->defines.items[i].value ||
        strcmp(a->defines.items[i].name, b->defines.items[i].name) != 0)
      return false;
  }
  return true;
}

int vxp_walk_reuse__init(vxp_walk_reuse *F, const vxp_analysis *an, const vxp_analysis *prev,
                         const vxp_reuse *R) {
  memset(F, 0, sizeof(*F));
  const vxp_program *prog = an->prog;
  if (!prev || !R || !R->side || !prog->spliced || prog->plan_base != prev->prog) return 0;
  const vxp_program *old = prev->prog;
  if (prev->walk_spans.len != prev->functions.len || !same_defines(an, prev)) return 0;
  if (old->model.items.len != prog->model.items.len || old->marks.sig.len != prog->marks.sig.len ||
      old->marks.body.len != prog->marks.body.len || prog->marks.sig.len != (size_t)R->items + 1 ||
      prog->marks.body.len != (size_t)R->items + 1 ||
      old->model.names.strings.len != prog->model.names.strings.len) /* names brought in: */
    return 0; /* the earlier ids moved (R->names_moved), which the walks' results hold */
  /* Only function bodies changed: consts, declarations and the names they give are the
   * earlier program's (the plan only lets a function with an unchanged signature change). */
  for (size_t i = 0; i < prog->model.items.len; i++) {
    const vxp_model_item *it = &prog->model.items.items[i];
    const vxp_model_item *was = &old->model.items.items[i];
    if (it->top >= R->items || it->top != was->top || it->kind != was->kind) return 0;
    if (R->side[it->top] == VXP_REUSE_FRESH && it->kind != VXP_ITEM_FUNCTION) return 0;
  }
  size_t n = old->model.functions.len;
  F->old_analysed = vxp_ctx__calloc(an->ctx, n ? n : 1, sizeof(uint32_t));
  if (!F->old_analysed) return VXP_ENOMEM;
  for (size_t i = 0; i < n; i++)
    F->old_analysed[i] = VXP_NONE;
  for (size_t i = 0; i < prev->functions.len; i++) {
    const vxp_analysed_fn *af = &prev->functions.items[i];
    if (!af->is_instance && af->model_fn < n) F->old_analysed[af->model_fn] = (uint32_t)i;
  }
  F->prev = prev;
  F->old = old;
  F->R = R;
  F->line_shift = (int64_t)prog->src->line_starts.len - (int64_t)old->src->line_starts.len;
  return 1;
}

void vxp_walk_reuse__free(vxp_context *ctx, vxp_walk_reuse *F) {
  vxp_ctx__free(ctx, F->old_analysed);
  F->old_analysed = NULL;
}

/* ------------------------------------------------------------------ moving one function */

/* The types one part of an item (its signature's or its body's) made: [lo, hi) in the
 * earlier model, from `to` in the new one; empty (lo == hi) when the part's count changed. */
typedef struct type_part {
  uint32_t lo, hi, to;
} type_part;

typedef struct mover {
  const vxp_walk_reuse *F;
  const vxp_program *prog;
  uint8_t side;
  uint32_t top; /* the item's position among the root's children */
  uint32_t line_hint;
  bool ok;
  type_part sig, body; /* read once per function: every record names a type */
} mover;

static type_part part_types(const vxp_lower_mark *old, const vxp_lower_mark *now) {
  type_part p = {old[0].types, old[1].types, now[0].types};
  if (now[1].types - now[0].types != old[1].types - old[0].types) p.hi = p.lo;
  return p;
}

static mover mover_for(const vxp_walk_reuse *F, const vxp_program *prog, uint8_t side,
                       uint32_t top) {
  const vxp_lower_marks *o = &F->old->marks, *n = &prog->marks;
  mover M = {.F = F,
             .prog = prog,
             .side = side,
             .top = top,
             .ok = true,
             .sig = part_types(&o->sig.items[top], &n->sig.items[top]),
             .body = part_types(&o->body.items[top], &n->body.items[top])};
  return M;
}

/* An index into the model's types made by the item (its signature's or its body's). */
static uint32_t move_type(mover *M, uint32_t v) {
  if (v == VXP_NONE) return v;
  if (v >= M->sig.lo && v < M->sig.hi) return v - M->sig.lo + M->sig.to;
  if (v >= M->body.lo && v < M->body.hi) return v - M->body.lo + M->body.to;
  M->ok = false;
  return VXP_NONE;
}

static uint32_t move_byte(mover *M, uint32_t at) {
  uint32_t out = 0;
  if (!vxp_reuse__map(M->F->R, M->side, at, &out)) M->ok = false;
  return out;
}

/* A range of the earlier text, moved: before the edit it is the same; after it, a range
 * starting on a line that begins past the edit keeps its columns and moves by the lines the
 * edit added; anything else is found again in the new text. A line that begins right where
 * the edit ends is not past it: text inserted there without a line break joins that line and
 * moves its columns (a blank typed before a function's `fn`; found by fuzz_edit). */
static vxp_range move_range(mover *M, vxp_range r) {
  const vxp_source *old_src = M->F->old->src;
  if (M->side == VXP_REUSE_BEFORE) {
    if (r.end_byte > M->F->R->prefix) M->ok = false;
    return r;
  }
  uint32_t s = move_byte(M, r.start_byte), e = move_byte(M, r.end_byte);
  if (!M->ok) return r;
  if (r.start.line < old_src->line_starts.len &&
      old_src->line_starts.items[r.start.line] > M->F->R->old_end) {
    vxp_range out = r;
    out.start_byte = s;
    out.end_byte = e;
    out.start.line = (uint32_t)((int64_t)r.start.line + M->F->line_shift);
    out.end.line = (uint32_t)((int64_t)r.end.line + M->F->line_shift);
    return out;
  }
  return vxp_source__range_near(M->prog->src, s, e, &M->line_hint);
}

/* ------------------------------------------------------------------ taking one over */

/* Whether the earlier walk of `of` can stand for the walk of `fn` (model function `mf` of
 * item `item`), judged on the earlier analysis alone, before anything is changed. */
static bool takeable(const vxp_walk_reuse *F, const vxp_analysis *an, mover *M, uint32_t of,
                     bool e6014) {
  const vxp_analysis *prev = F->prev;
  const vxp_walk_span *sp = &prev->walk_spans.items[of];
  if (sp->e6014[0] != e6014) return false;
  for (uint32_t d = sp->diags[0]; d < sp->diags[1]; d++) {
    const vxp_diagnostic *x = &prev->diags.items[d];
    if (resolver_code(x) || !vxp_reuse__mappable(F->R, M->side, x, true)) return false;
  }
  for (uint32_t r = sp->records[0]; r < sp->records[1]; r++) {
    (void)move_type(M, prev->records.items[r].type);
    if (!M->ok) return false;
  }
  (void)an;
  return true;
}

/* Append the earlier walk's `count` elements of table `from` at `first` to `to`; the new
 * ones are to->items[base ..). */
#define APPEND_SLICE(ctx, to, from, first, count)                                                  \
  ((count) == 0 ||                                                                                 \
   (array_reserve((ctx), (to), (count)) &&                                                         \
    (memcpy((to)->items + (to)->len, (from)->items + (first), (count) * sizeof(*(from)->items)),   \
     (to)->len += (count), true)))

/* Resolve the calls of `fn` again, in the walk's order (the events its earlier walk reached),
 * and check that they make the earlier walk's call sites. */
static int replay_calls(vxp_walk_reuse *F, vxp_analysis *an, vxp_resolver *resolver, uint32_t fn,
                        uint32_t of, mover *M) {
  const vxp_analysis *prev = F->prev;
  const vxp_analysed_fn *oaf = &prev->functions.items[of];
  const vxp_function *mf = &an->prog->model.functions.items[an->functions.items[fn].model_fn];
  size_t diags = an->diags.len;
  uint32_t first = (uint32_t)an->calls.len;
  an->functions.items[fn].call_first = first;
  for (size_t i = 0; i < mf->events.len; i++) {
    const vxp_event *ev = &mf->events.items[i];
    if (ev->kind != VXP_EV_CALL || !prev->event_facts.items[oaf->fact_first + i].reached) continue;
    bool recorded = false;
    int rc = vxp_resolver__call(resolver, fn, &ev->u.call, &recorded);
    if (rc != VXP_OK) return rc;
  }
  uint32_t count = (uint32_t)an->calls.len - first;
  an->functions.items[fn].call_count = count;
  if (count != oaf->call_count) return VXP__REDO;
  for (uint32_t c = 0; c < count; c++) {
    const vxp_call_site *was = &prev->calls.items[oaf->call_first + c];
    const vxp_call_site *now = &an->calls.items[first + c];
    if (move_byte(M, was->start_byte) != now->start_byte || !M->ok) return VXP__REDO;
  }
  /* A resolver's diagnostic (an instantiation limit) comes where the walk resolved the call:
   * in order only when the walk itself said nothing. */
  const vxp_walk_span *sp = &prev->walk_spans.items[of];
  if (an->diags.len != diags && sp->diags[1] != sp->diags[0]) return VXP__REDO;
  return VXP_OK;
}

static int copy_results(vxp_walk_reuse *F, vxp_analysis *an, uint32_t fn, uint32_t of, mover *M) {
  vxp_context *ctx = an->ctx;
  const vxp_analysis *prev = F->prev;
  const vxp_walk_span *sp = &prev->walk_spans.items[of];
  const vxp_analysed_fn *oaf = &prev->functions.items[of];
  vxp_analysed_fn *af = &an->functions.items[fn];
  const vxp_function *mf = &an->prog->model.functions.items[af->model_fn];
  const vxp_strtab *names = &an->prog->model.names;
  size_t spaces = an->view.spaces.len;
  uint32_t records = (uint32_t)an->records.len, scopes = (uint32_t)an->scopes.len;
  uint32_t routes = (uint32_t)an->routes.len, route_nodes = (uint32_t)an->route_nodes.len;
  uint32_t dims = (uint32_t)an->fact_dims.len, sets = (uint32_t)an->resident_sets.len;
  uint32_t facts = (uint32_t)an->event_facts.len, access = (uint32_t)an->access_facts.len;
  size_t fs = an->fn_spaces.len, held = an->held.len;
  /* Facts, then access facts. */
  af->fact_first = facts;
  af->access_fact_first = access;
  if (!APPEND_SLICE(ctx, &an->event_facts, &prev->event_facts, oaf->fact_first, mf->events.len) ||
      !APPEND_SLICE(ctx, &an->fact_dims, &prev->fact_dims, sp->fact_dims[0],
                    sp->fact_dims[1] - sp->fact_dims[0]) ||
      !APPEND_SLICE(ctx, &an->access_facts, &prev->access_facts, oaf->access_fact_first,
                    mf->accesses.len) ||
      !APPEND_SLICE(ctx, &an->scopes, &prev->scopes, sp->scopes[0],
                    sp->scopes[1] - sp->scopes[0]) ||
      !APPEND_SLICE(ctx, &an->records, &prev->records, sp->records[0],
                    sp->records[1] - sp->records[0]) ||
      !APPEND_SLICE(ctx, &an->routes, &prev->routes, sp->routes[0],
                    sp->routes[1] - sp->routes[0]) ||
      !APPEND_SLICE(ctx, &an->route_nodes, &prev->route_nodes, sp->route_nodes[0],
                    sp->route_nodes[1] - sp->route_nodes[0]) ||
      !APPEND_SLICE(ctx, &an->resident_sets, &prev->resident_sets, sp->resident_sets[0],
                    sp->resident_sets[1] - sp->resident_sets[0]) ||
      !APPEND_SLICE(ctx, &an->fn_spaces, &prev->fn_spaces, (size_t)of * spaces, spaces) ||
      !APPEND_SLICE(ctx, &an->held, &prev->held, (size_t)oaf->call_first * spaces,
                    (size_t)oaf->call_count * spaces))
    return VXP_ENOMEM;
  int64_t dim_shift = (int64_t)dims - sp->fact_dims[0];
  for (size_t i = facts; i < an->event_facts.len; i++) {
    vxp_event_fact *x = &an->event_facts.items[i];
    if (x->size == VXP_FACT_SIZE_KNOWN) x->dims_first = (uint32_t)(x->dims_first + dim_shift);
  }
  int64_t scope_shift = (int64_t)scopes - sp->scopes[0];
  for (size_t i = scopes; i < an->scopes.len; i++) {
    vxp_scope *x = &an->scopes.items[i];
    x->owner = NULL;
    x->id = (uint32_t)i;
    if (x->parent != VXP_NONE) x->parent = (uint32_t)(x->parent + scope_shift);
    x->function = fn;
    x->range = move_range(M, x->range);
  }
  int64_t record_shift = (int64_t)records - sp->records[0];
  for (size_t i = records; i < an->records.len; i++) {
    vxp_record *x = &an->records.items[i];
    x->owner = NULL;
    x->scope = (uint32_t)(x->scope + scope_shift);
    x->function = fn;
    x->type = move_type(M, x->type);
    x->role = x->role_name != VXP_NAME_NONE ? vxp_strtab__str(names, x->role_name) : NULL;
    x->function_name = af->name;
    x->space_name = an->view.spaces.items[x->space]->name;
    x->binding_name = x->binding ? vxp_strtab__str(names, x->binding) : NULL;
    x->start_byte = move_byte(M, x->start_byte);
    x->end_byte = move_byte(M, x->end_byte);
    x->range = move_range(M, x->range);
  }
  for (size_t i = routes; i < an->routes.len; i++) {
    vxp_route *x = &an->routes.items[i];
    x->owner = an;
    if (x->record != VXP_NONE) x->record = (uint32_t)(x->record + record_shift);
    x->function = fn;
    x->function_name = af->name;
    x->path_first = (uint32_t)(x->path_first + ((int64_t)route_nodes - sp->route_nodes[0]));
    x->start_byte = move_byte(M, x->start_byte);
    x->end_byte = move_byte(M, x->end_byte);
    x->range = move_range(M, x->range);
  }
  for (size_t i = sets; i < an->resident_sets.len; i++) {
    vxp_resident_set *x = &an->resident_sets.items[i];
    x->owner = NULL;
    x->function = fn;
    x->function_name = af->name;
    x->space_name = an->view.spaces.items[x->space]->name;
    x->peak_record = (uint32_t)(x->peak_record + record_shift);
    x->record_first = x->record_count = 0; /* link_structure's */
  }
  /* The summary as the walk leaves it: the fold fills in the rest. */
  for (size_t i = fs; i < an->fn_spaces.len; i++) {
    vxp_fn_space *x = &an->fn_spaces.items[i];
    vxp_fn_space w;
    memset(&w, 0, sizeof(w));
    w.best_call = w.call_tree = VXP_NONE;
    w.bounded = true;
    w.self_peak = x->self_peak;
    w.resident_set = x->resident_set == VXP_NONE
                         ? VXP_NONE
                         : (uint32_t)(x->resident_set + ((int64_t)sets - sp->resident_sets[0]));
    *x = w;
  }
  (void)held;
  if (!M->ok) return VXP__REDO;
  /* Diagnostics last: the walk's own, after any the resolver just made (replay_calls). */
  for (uint32_t d = sp->diags[0]; d < sp->diags[1]; d++) {
    if (!vxp_diag__copy(ctx, &an->diags, &prev->diags.items[d])) return VXP_ENOMEM;
    vxp_diagnostic *x = array_last(&an->diags);
    vxp_reuse__move_positions(F->R, M->side, x);
    x->function = af->name;
  }
  return VXP_OK;
}

int vxp_walk_reuse__take(vxp_walk_reuse *F, vxp_analysis *an, vxp_resolver *resolver, uint32_t fn,
                         bool *e6014) {
  const vxp_analysed_fn *af = &an->functions.items[fn];
  if (!F->prev || af->is_instance) return 0;
  const vxp_model *m = &an->prog->model, *om = &F->old->model;
  const vxp_function *mf = &m->functions.items[af->model_fn];
  if (mf->item >= m->items.len) return 0;
  const vxp_model_item *it = &m->items.items[mf->item];
  const vxp_model_item *was = &om->items.items[mf->item];
  uint8_t side = F->R->side[it->top];
  if (side == VXP_REUSE_FRESH || it->function_count != was->function_count) return 0;
  if (F->R->again && F->R->again[it->top]) return 0; /* lowered again: a callee's record changed */
  uint32_t old_fn = af->model_fn - it->first_function + was->first_function;
  if (old_fn >= om->functions.len) return 0;
  uint32_t of = F->old_analysed[old_fn];
  if (of == VXP_NONE || om->functions.items[old_fn].events.len != mf->events.len ||
      om->functions.items[old_fn].accesses.len != mf->accesses.len)
    return 0;
  mover M = mover_for(F, an->prog, side, it->top);
  if (!takeable(F, an, &M, of, *e6014)) return 0;
  int rc = replay_calls(F, an, resolver, fn, of, &M);
  if (rc == VXP_OK) rc = copy_results(F, an, fn, of, &M);
  if (rc != VXP_OK) return rc;
  *e6014 = F->prev->walk_spans.items[of].e6014[1];
  return 1;
}

/* ---------------------------------------------------------- unchanged items' diagnostics */

/* Item `item`'s diagnostics among prev->diags[start ..] with per-item `ends`, copied. */
static int take(vxp_reuse *R, size_t start, const vxp_item_ends *ends, uint32_t item,
                vxp_diag_list *diags, bool count) {
  const vxp_analysis *prev = R->prev;
  uint8_t side = item < R->items ? R->side[item] : VXP_REUSE_FRESH;
  /* an item lowered again (R->again) has its facts read again: a callee's entry changed */
  if (!prev || ends->len != R->items || side == VXP_REUSE_FRESH || (R->again && R->again[item])) {
    R->walked += count;
    return 0;
  }
  size_t from = item ? ends->items[item - 1] : start;
  size_t to = ends->items[item];
  for (size_t i = from; i < to; i++) {
    if (!vxp_reuse__mappable(R, side, &prev->diags.items[i], false)) {
      R->walked += count;
      return 0;
    }
  }
  for (size_t i = from; i < to; i++) {
    if (!vxp_diag__copy(R->new_src->ctx, diags, &prev->diags.items[i])) return VXP_ENOMEM;
    vxp_reuse__move_positions(R, side, array_last(diags));
  }
  R->taken += count;
  return 1;
}

int vxp_reuse__take_visibility(void *arg, uint32_t item, vxp_diag_list *diags) {
  vxp_reuse *R = arg;
  return R->prev ? take(R, R->prev->vis_start, &R->prev->vis_ends, item, diags, true) : 0;
}

int vxp_reuse__take_raw(void *arg, uint32_t item, vxp_diag_list *diags) {
  vxp_reuse *R = arg;
  return R->prev ? take(R, R->prev->raw_start, &R->prev->raw_ends, item, diags, false) : 0;
}
