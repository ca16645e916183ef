/* SPDX-License-Identifier: Apache-2.0 */
/* model_copy.c - one top-level item's part of a program model copied into the model of a
 * new version of the program (vxp_lower__splice): every index into the model's arrays moved
 * to where the copy lands, every byte offset moved past the edit. An index or offset that
 * does not belong to the item (or to the part that stays in place) makes the copy fail, so
 * that the caller lowers the program afresh instead of building a wrong model. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "context.h"
#include "lower.h"
#include "reuse.h"

/* Every array of the model and of a function is copied here: one added to either without
 * its copy would be dropped (or shared) by a splice, so the counts are checked. */
_Static_assert(
    offsetof(vxp_model, imports) - offsetof(vxp_model, cexprs) ==
        16 * sizeof(((vxp_model *)0)->cexprs),
    "a model array was added or removed: vxp_lower_mark, mark_now, push_copied_marks (lower.c) and "
    "vxp_model__copy_part must follow");
_Static_assert(offsetof(vxp_function, is_closure) - offsetof(vxp_function, generics) ==
                   6 * sizeof(((vxp_function *)0)->generics),
               "a function array was added or removed: copy_function must follow");

typedef struct copier {
  const vxp_reuse *R;
  uint8_t side;
  const vxp_lower_mark *a, *b, *fixed; /* the part copied, and what stays in place */
  vxp_lower_mark base;                 /* where the copy starts in the new model */
  bool ok;
} copier;

/* An index into one of the arrays: below `fixed` it stays, in [a, b] it moves to `base`.
 * `strict`: anything else is a failure (otherwise kept: a `first` with a count of 0). */
static uint32_t index_of(copier *C, uint32_t v, uint32_t fixed, uint32_t a, uint32_t b,
                         uint32_t base, bool strict) {
  if (v == VXP_NONE || v < fixed) return v;
  if (v < a || v > b) {
    if (strict) C->ok = false;
    return v;
  }
  return v - a + base;
}

#define CEXPR(C, v)                                                                                \
  index_of((C), (v), (C)->fixed->cexprs, (C)->a->cexprs, (C)->b->cexprs, (C)->base.cexprs, true)
#define TYPE(C, v)                                                                                 \
  index_of((C), (v), (C)->fixed->types, (C)->a->types, (C)->b->types, (C)->base.types, true)

/* A [start, end) pair of offsets; 0, 0 is "no place" and stays. */
static void move_span(copier *C, uint32_t *start, uint32_t *end) {
  if (*start == 0 && *end == 0) return;
  uint32_t s, e;
  if (!vxp_reuse__map(C->R, C->side, *start, &s) || !vxp_reuse__map(C->R, C->side, *end, &e)) {
    C->ok = false;
    return;
  }
  *start = s;
  *end = e;
}

static void move_place(copier *C, vxp_place *p) {
  p->index = CEXPR(C, p->index);
  move_span(C, &p->start_byte, &p->end_byte);
}

static void move_event(copier *C, vxp_event *ev) {
  switch (ev->kind) {
  case VXP_EV_OPEN: {
    vxp_block_event *b = &ev->u.block;
    b->condition = CEXPR(C, b->condition);
    b->trip_start = CEXPR(C, b->trip_start);
    b->trip_end = CEXPR(C, b->trip_end);
    move_span(C, &b->start_byte, &b->end_byte);
    break;
  }
  case VXP_EV_PLACE: {
    vxp_place_event *p = &ev->u.place;
    if (p->type_known) p->type = TYPE(C, p->type);
    move_place(C, &p->dest);
    if (p->origin.known) move_place(C, &p->origin.place);
    move_span(C, &p->start_byte, &p->end_byte);
    break;
  }
  case VXP_EV_CALL: {
    vxp_call_event *c = &ev->u.call;
    c->generic_first = index_of(C, c->generic_first, C->fixed->dim_list, C->a->dim_list,
                                C->b->dim_list, C->base.dim_list, c->generic_count > 0);
    c->args_first = index_of(C, c->args_first, C->fixed->call_args, C->a->call_args,
                             C->b->call_args, C->base.call_args, c->args_count > 0);
    move_span(C, &c->start_byte, &c->end_byte);
    break;
  }
  default: break;
  }
}

/* Copy array `from` into `to` (both Array(T) of one element type). */
#define COPY_ARRAY(ctx, to, from)                                                                  \
  ((from)->len == 0 || (array_reserve((ctx), (to), (from)->len) &&                                 \
                        (memcpy((to)->items, (from)->items, (from)->len * sizeof(*(from)->items)), \
                         (to)->len = (from)->len, true)))

/* Array `from` copied into `to` at `*at`, advanced past it, in a block carved from the arena
 * for all of a function's tables at once (fixed: cap = len). */
#define CARVE_COPY(to, from, at)                                                                   \
  do {                                                                                             \
    if ((from)->len) {                                                                             \
      (to)->items = (void *)*(at);                                                                 \
      memcpy((to)->items, (from)->items, (from)->len * sizeof(*(from)->items));                    \
      (to)->len = (to)->cap = (from)->len;                                                         \
      *(at) += carved_size((from)->len * sizeof(*(from)->items));                                  \
    }                                                                                              \
  } while (0)

/* A table's bytes in a carved block, each table aligned for any object. */
static size_t carved_size(size_t bytes) {
  size_t a = _Alignof(max_align_t);
  return (bytes + a - 1) / a * a;
}

static bool copy_function(vxp_context *ctx, copier *C, const vxp_function *from, vxp_model *to) {
  vxp_function fn = *from;
  memset(&fn.generics, 0, sizeof(fn.generics));
  memset(&fn.params, 0, sizeof(fn.params));
  memset(&fn.events, 0, sizeof(fn.events));
  memset(&fn.reads, 0, sizeof(fn.reads));
  memset(&fn.accesses, 0, sizeof(fn.accesses));
  memset(&fn.ariths, 0, sizeof(fn.ariths));
  /* In the program's arena when the model has one: a splice copies every unchanged
   * function's six tables, some ten thousand allocations per edit of a large program (and as
   * many frees with the earlier program), 4.5 M of its instructions. */
  vxp_arena *arena = to->arena;
  fn.tables_in_arena = arena != NULL;
  bool ok;
  if (arena) {
    /* one block for the six (a splice copies every unchanged function: one carving each
     * was 12,000 of them per edit of bench_incremental's program), not zeroed first */
    size_t bytes = carved_size(from->generics.len * sizeof(*from->generics.items)) +
                   carved_size(from->params.len * sizeof(*from->params.items)) +
                   carved_size(from->events.len * sizeof(*from->events.items)) +
                   carved_size(from->reads.len * sizeof(*from->reads.items)) +
                   carved_size(from->accesses.len * sizeof(*from->accesses.items)) +
                   carved_size(from->ariths.len * sizeof(*from->ariths.items));
    char *at = bytes ? vxp_arena__alloc_uninit(ctx, arena, bytes) : NULL;
    if (bytes && !at) return false;
    CARVE_COPY(&fn.generics, &from->generics, &at);
    CARVE_COPY(&fn.params, &from->params, &at);
    CARVE_COPY(&fn.events, &from->events, &at);
    CARVE_COPY(&fn.reads, &from->reads, &at);
    CARVE_COPY(&fn.accesses, &from->accesses, &at);
    CARVE_COPY(&fn.ariths, &from->ariths, &at);
    if (!array_push(ctx, &to->functions, fn))
      return false; /* what was carved goes with the arena */
  } else {
    ok = COPY_ARRAY(ctx, &fn.generics, &from->generics) &&
         COPY_ARRAY(ctx, &fn.params, &from->params) && COPY_ARRAY(ctx, &fn.events, &from->events) &&
         COPY_ARRAY(ctx, &fn.reads, &from->reads) &&
         COPY_ARRAY(ctx, &fn.accesses, &from->accesses) &&
         COPY_ARRAY(ctx, &fn.ariths, &from->ariths) && array_push(ctx, &to->functions, fn);
    if (!ok) {
      array_free(ctx, &fn.generics);
      array_free(ctx, &fn.params);
      array_free(ctx, &fn.events);
      array_free(ctx, &fn.reads);
      array_free(ctx, &fn.accesses);
      array_free(ctx, &fn.ariths);
      return false;
    }
  }
  vxp_function *f = array_last(&to->functions);
  move_span(C, &f->start_byte, &f->end_byte);
  move_span(C, &f->name_start, &f->name_end);
  f->parent = index_of(C, f->parent, C->fixed->functions, C->a->functions, C->b->functions,
                       C->base.functions, true);
  f->item = index_of(C, f->item, C->fixed->items, C->a->items, C->b->items, C->base.items, true);
  for (size_t i = 0; i < f->params.len; i++)
    f->params.items[i].type = TYPE(C, f->params.items[i].type);
  for (size_t i = 0; i < f->events.len; i++)
    move_event(C, &f->events.items[i]);
  for (size_t i = 0; i < f->accesses.len; i++) {
    vxp_access *x = &f->accesses.items[i];
    x->type = TYPE(C, x->type);
    if (x->loc.known) move_place(C, &x->loc.place);
    move_span(C, &x->start_byte, &x->end_byte);
  }
  for (size_t i = 0; i < f->ariths.len; i++)
    move_span(C, &f->ariths.items[i].start_byte, &f->ariths.items[i].end_byte);
  return true;
}

/* Reserve and append elements [lo, hi) of `src` (an Array) to `dst`. */
#define APPEND_RANGE(ctx, dst, src, lo, hi)                                                        \
  ((hi) <= (lo) || (array_reserve((ctx), (dst), (hi) - (lo)) &&                                    \
                    (memcpy((dst)->items + (dst)->len, (src)->items + (lo),                        \
                            ((hi) - (lo)) * sizeof(*(src)->items)),                                \
                     (dst)->len += (hi) - (lo), true)))

/* ------------------------------------------------------------------ renaming */

/* Every name field of the model is renamed here: a struct that grows one without it would
 * keep an earlier id after a splice that brought names in, so the sizes are checked. */
_Static_assert(sizeof(vxp_vis_fact) == 76 && sizeof(vxp_event) == 72 && sizeof(vxp_place) == 20 &&
                   sizeof(vxp_cexpr) == 40 && sizeof(vxp_tensor_type) == 52 &&
                   sizeof(vxp_access) == 52 && sizeof(vxp_raw_fact) == 28 &&
                   sizeof(vxp_name_ref) == 24 && sizeof(vxp_declared) == 24 &&
                   sizeof(vxp_model_item) == 52 && sizeof(vxp_param) == 12 &&
                   sizeof(vxp_call_arg) == 12 && sizeof(vxp_const_item) == 16 &&
                   sizeof(vxp_generic_param) == 8 && sizeof(vxp_call_event) == 40 &&
                   sizeof(vxp_place_event) == 68 && sizeof(vxp_block_event) == 28,
               "a model struct changed: vxp_model__rename must rename every name it holds");

typedef struct renamer {
  const vxp_name *map;
  size_t len;
} renamer;

static inline void rn(const renamer *N, vxp_name *v) {
  if (*v < N->len) *v = N->map[*v];
}

static void rn_place(const renamer *N, vxp_place *p) { rn(N, &p->name); }

static void rn_topo(const renamer *N, vxp_vis_topo *t) {
  rn(N, &t->name);
  rn(N, &t->index);
}

static int compare_name_ids(const void *a, const void *b) {
  vxp_name x = *(const vxp_name *)a, y = *(const vxp_name *)b;
  return (x > y) - (x < y);
}

void vxp_model__rename(vxp_model *m, const vxp_name *map, size_t len) {
  renamer N = {map, len};
  for (size_t i = 0; i < m->cexprs.len; i++) {
    vxp_cexpr *x = &m->cexprs.items[i];
    rn(&N, &x->name);
    if (x->kind == VXP_CX_REACHABLE && x->value < len) x->value = map[x->value]; /* a name */
  }
  for (size_t i = 0; i < m->types.len; i++) {
    rn(&N, &m->types.items[i].elem_name);
    rn_place(&N, &m->types.items[i].placement);
  }
  for (size_t i = 0; i < m->call_args.len; i++)
    rn(&N, &m->call_args.items[i].nominal);
  for (size_t i = 0; i < m->declared.len; i++) {
    rn(&N, &m->declared.items[i].owner);
    rn(&N, &m->declared.items[i].member);
  }
  for (size_t i = 0; i < m->consts.len; i++)
    rn(&N, &m->consts.items[i].name);
  for (size_t i = 0; i < m->structs.len; i++)
    rn(&N, &m->structs.items[i]);
  for (size_t i = 0; i < m->enums.len; i++)
    rn(&N, &m->enums.items[i]);
  for (size_t i = 0; i < m->externs.len; i++)
    rn(&N, &m->externs.items[i]);
  for (size_t i = 0; i < m->traits.len; i++)
    rn(&N, &m->traits.items[i]);
  for (size_t i = 0; i < m->topologies.len; i++)
    rn(&N, &m->topologies.items[i]);
  for (size_t i = 0; i < m->refs.len; i++)
    rn(&N, &m->refs.items[i].name);
  for (size_t i = 0; i < m->items.len; i++)
    rn(&N, &m->items.items[i].name);
  for (size_t i = 0; i < m->visibility.len; i++) {
    vxp_vis_fact *f = &m->visibility.items[i];
    rn(&N, &f->name);
    rn(&N, &f->want_space);
    rn_topo(&N, &f->here);
    rn_topo(&N, &f->topo);
    rn_topo(&N, &f->want);
    rn(&N, &f->space.space);
    rn_topo(&N, &f->space.topo);
  }
  for (size_t i = 0; i < m->raw.len; i++) {
    rn(&N, &m->raw.items[i].message);
    rn(&N, &m->raw.items[i].from);
    rn(&N, &m->raw.items[i].to);
  }
  for (size_t f = 0; f < m->functions.len; f++) {
    vxp_function *fn = &m->functions.items[f];
    rn(&N, &fn->name);
    rn(&N, &fn->owner);
    for (size_t i = 0; i < fn->generics.len; i++)
      rn(&N, &fn->generics.items[i].name);
    for (size_t i = 0; i < fn->params.len; i++) {
      rn(&N, &fn->params.items[i].name);
      rn(&N, &fn->params.items[i].type_name);
    }
    for (size_t i = 0; i < fn->events.len; i++) {
      vxp_event *ev = &fn->events.items[i];
      if (ev->kind == VXP_EV_OPEN) {
        rn(&N, &ev->u.block.topology);
      } else if (ev->kind == VXP_EV_PLACE) {
        rn_place(&N, &ev->u.place.dest);
        rn_place(&N, &ev->u.place.origin.place);
        rn(&N, &ev->u.place.binding);
        rn(&N, &ev->u.place.role);
      } else if (ev->kind == VXP_EV_CALL) {
        rn(&N, &ev->u.call.callee);
        rn(&N, &ev->u.call.method);
        rn(&N, &ev->u.call.receiver_type);
      }
    }
    bool sorted = true;
    for (size_t i = 0; i < fn->reads.len; i++) {
      rn(&N, &fn->reads.items[i]);
      if (i && fn->reads.items[i] < fn->reads.items[i - 1]) sorted = false;
    }
    if (!sorted) qsort(fn->reads.items, fn->reads.len, sizeof(vxp_name), compare_name_ids);
    for (size_t i = 0; i < fn->accesses.len; i++) {
      rn(&N, &fn->accesses.items[i].tensor);
      rn_place(&N, &fn->accesses.items[i].loc.place);
    }
  }
}

/* Reserve `to`'s arrays for as many elements as `from`'s, appended to item by item. */
#define RESERVE_LIKE(ctx, to, from)                                                                \
  ((from)->len <= (to)->len || array_reserve((ctx), (to), (from)->len - (to)->len))

bool vxp_model__reserve_like(vxp_context *ctx, vxp_model *to, const vxp_model *from) {
  return RESERVE_LIKE(ctx, &to->cexprs, &from->cexprs) &&
         RESERVE_LIKE(ctx, &to->dim_list, &from->dim_list) &&
         RESERVE_LIKE(ctx, &to->types, &from->types) &&
         RESERVE_LIKE(ctx, &to->functions, &from->functions) &&
         RESERVE_LIKE(ctx, &to->consts, &from->consts) &&
         RESERVE_LIKE(ctx, &to->declared, &from->declared) &&
         RESERVE_LIKE(ctx, &to->call_args, &from->call_args) &&
         RESERVE_LIKE(ctx, &to->refs, &from->refs) && RESERVE_LIKE(ctx, &to->items, &from->items);
}

int vxp_model__copy_part(vxp_context *ctx, const vxp_reuse *R, uint8_t side, const vxp_model *from,
                         const vxp_diag_list *from_diags, const vxp_lower_mark *a,
                         const vxp_lower_mark *b, const vxp_lower_mark *fixed, vxp_model *to,
                         vxp_diag_list *diags) {
  copier C = {R, side, a, b, fixed, {0}, true};
  C.base.cexprs = (uint32_t)to->cexprs.len;
  C.base.dim_list = (uint32_t)to->dim_list.len;
  C.base.types = (uint32_t)to->types.len;
  C.base.functions = (uint32_t)to->functions.len;
  C.base.call_args = (uint32_t)to->call_args.len;
  C.base.visibility = (uint32_t)to->visibility.len;
  C.base.raw = (uint32_t)to->raw.len;
  if (b->cexprs > from->cexprs.len || b->dim_list > from->dim_list.len ||
      b->types > from->types.len || b->functions > from->functions.len ||
      b->declared > from->declared.len || b->call_args > from->call_args.len ||
      b->consts > from->consts.len || b->structs > from->structs.len ||
      b->enums > from->enums.len || b->externs > from->externs.len ||
      b->traits > from->traits.len || b->topologies > from->topologies.len ||
      b->refs > from->refs.len || b->items > from->items.len ||
      b->visibility > from->visibility.len || b->raw > from->raw.len || b->diags > from_diags->len)
    return 0;
  size_t c0 = to->cexprs.len, d0 = to->dim_list.len, t0 = to->types.len;
  size_t k0 = to->declared.len, a0 = to->call_args.len, q0 = to->consts.len;
  size_t r0 = to->refs.len, i0 = to->items.len, v0 = to->visibility.len;
  size_t w0 = to->raw.len;
  C.base.items = (uint32_t)to->items.len;
  C.base.consts = (uint32_t)to->consts.len;
  if (!APPEND_RANGE(ctx, &to->cexprs, &from->cexprs, a->cexprs, b->cexprs) ||
      !APPEND_RANGE(ctx, &to->dim_list, &from->dim_list, a->dim_list, b->dim_list) ||
      !APPEND_RANGE(ctx, &to->types, &from->types, a->types, b->types) ||
      !APPEND_RANGE(ctx, &to->declared, &from->declared, a->declared, b->declared) ||
      !APPEND_RANGE(ctx, &to->call_args, &from->call_args, a->call_args, b->call_args) ||
      !APPEND_RANGE(ctx, &to->consts, &from->consts, a->consts, b->consts) ||
      !APPEND_RANGE(ctx, &to->structs, &from->structs, a->structs, b->structs) ||
      !APPEND_RANGE(ctx, &to->enums, &from->enums, a->enums, b->enums) ||
      !APPEND_RANGE(ctx, &to->externs, &from->externs, a->externs, b->externs) ||
      !APPEND_RANGE(ctx, &to->traits, &from->traits, a->traits, b->traits) ||
      !APPEND_RANGE(ctx, &to->topologies, &from->topologies, a->topologies, b->topologies) ||
      !APPEND_RANGE(ctx, &to->refs, &from->refs, a->refs, b->refs) ||
      !APPEND_RANGE(ctx, &to->items, &from->items, a->items, b->items) ||
      !APPEND_RANGE(ctx, &to->visibility, &from->visibility, a->visibility, b->visibility) ||
      !APPEND_RANGE(ctx, &to->raw, &from->raw, a->raw, b->raw))
    return VXP_ENOMEM;
  to->imports += b->imports - a->imports;
  for (size_t i = c0; i < to->cexprs.len; i++) {
    vxp_cexpr *x = &to->cexprs.items[i];
    x->lhs = CEXPR(&C, x->lhs);
    x->rhs = CEXPR(&C, x->rhs);
    x->alt = CEXPR(&C, x->alt);
    move_span(&C, &x->start_byte, &x->end_byte);
  }
  for (size_t i = d0; i < to->dim_list.len; i++)
    to->dim_list.items[i] = CEXPR(&C, to->dim_list.items[i]);
  for (size_t i = t0; i < to->types.len; i++) {
    vxp_tensor_type *t = &to->types.items[i];
    t->dims_first = index_of(&C, t->dims_first, fixed->dim_list, a->dim_list, b->dim_list,
                             C.base.dim_list, t->has_shape && t->dims_count > 0);
    move_place(&C, &t->placement);
    move_span(&C, &t->elem_start, &t->elem_end);
    move_span(&C, &t->start_byte, &t->end_byte);
  }
  for (size_t i = k0; i < to->declared.len; i++) {
    vxp_declared *d = &to->declared.items[i];
    d->type = TYPE(&C, d->type);
    move_span(&C, &d->start_byte, &d->end_byte);
  }
  for (size_t i = a0; i < to->call_args.len; i++)
    to->call_args.items[i].type = TYPE(&C, to->call_args.items[i].type);
  for (size_t i = q0; i < to->consts.len; i++) {
    vxp_const_item *q = &to->consts.items[i];
    q->value = CEXPR(&C, q->value);
    move_span(&C, &q->start_byte, &q->end_byte);
  }
  for (size_t i = i0; i < to->items.len; i++) {
    vxp_model_item *it = &to->items.items[i];
    it->first_function = index_of(&C, it->first_function, fixed->functions, a->functions,
                                  b->functions, C.base.functions, it->function_count > 0);
    it->index = index_of(&C, it->index, fixed->consts, a->consts, b->consts, C.base.consts, true);
    it->vis_first = index_of(&C, it->vis_first, fixed->visibility, a->visibility, b->visibility,
                             C.base.visibility, it->vis_count > 0);
    it->raw_first =
        index_of(&C, it->raw_first, fixed->raw, a->raw, b->raw, C.base.raw, it->raw_count > 0);
    move_span(&C, &it->start_byte, &it->end_byte);
  }
  for (size_t i = w0; i < to->raw.len; i++)
    move_span(&C, &to->raw.items[i].start_byte, &to->raw.items[i].end_byte);
  for (size_t i = v0; i < to->visibility.len; i++) {
    move_span(&C, &to->visibility.items[i].start_byte, &to->visibility.items[i].end_byte);
    move_span(&C, &to->visibility.items[i].cond_start, &to->visibility.items[i].cond_end);
  }
  for (size_t i = r0; i < to->refs.len; i++) {
    vxp_name_ref *r = &to->refs.items[i];
    r->function = index_of(&C, r->function, fixed->functions, a->functions, b->functions,
                           C.base.functions, true);
    move_span(&C, &r->start_byte, &r->end_byte);
  }
  for (uint32_t f = a->functions; f < b->functions; f++)
    if (!copy_function(ctx, &C, &from->functions.items[f], to)) return VXP_ENOMEM;
  if (!C.ok) return 0;
  /* An item without diagnostics may come from a list that has none (items NULL). */
  const vxp_diagnostic *first = b->diags > a->diags ? from_diags->items + a->diags : NULL;
  return vxp_reuse__copy_diags(R, side, first, b->diags - a->diags, diags);
}
