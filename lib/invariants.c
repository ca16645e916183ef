/* SPDX-License-Identifier: Apache-2.0 */
/* invariants.c - the checks of invariants.h: each states, in code, the "Invariant:" comment
 * of the struct it reads (that comment says why the invariant matters). */
#include "invariants.h"

#if defined(VXP_ASSERTIONS)
#include "analysis.h"
#include "diag.h"
#include "machine.h"
#include "model.h"
#include "program.h"
#include "source.h"
#include "strtab.h"

/* array.h: len <= cap, and storage exactly when there is capacity. */
#define CHECK_ARRAY(a) VXP__ASSERT((a)->len <= (a)->cap && ((a)->cap == 0) == ((a)->items == NULL))

void vxp_check__source(const vxp_source *src) {
  VXP__ASSERT(src->text[src->len] == '\0');
  CHECK_ARRAY(&src->line_starts);
  VXP__ASSERT(src->line_starts.len >= 1 && src->line_starts.items[0] == 0);
  for (size_t i = 1; i < src->line_starts.len; i++) {
    uint32_t at = src->line_starts.items[i];
    VXP__ASSERT(at > src->line_starts.items[i - 1] && at <= src->len);
    VXP__ASSERT(src->text[at - 1] == '\n');
  }
  for (size_t i = 1; i < src->history.len; i++)
    VXP__ASSERT(src->history.items[i].from_id > src->history.items[i - 1].from_id);
  VXP__ASSERT(src->history.len == 0 || src->history.items[src->history.len - 1].from_id < src->id);
}

static void check_diagnostics(const vxp_diag_list *list) {
  CHECK_ARRAY(list);
  for (size_t i = 0; i < list->len; i++) {
    const vxp_diagnostic *d = &list->items[i];
    VXP__ASSERT(d->message != NULL);
    VXP__ASSERT((d->source != NULL) == d->has_range);
    for (size_t k = 0; k < d->notes.len; k++) {
      const vxp_diagnostic *n = &d->notes.items[k];
      VXP__ASSERT(n->message != NULL && n->severity == VXP_SEVERITY_NOTE);
      VXP__ASSERT((n->source != NULL) == n->has_range);
      VXP__ASSERT(n->notes.len == 0);
    }
  }
}

static void check_cexpr_ref(const vxp_model *m, uint32_t ref, size_t before) {
  VXP__ASSERT(ref == VXP_NONE || ref < before);
  VXP__ASSERT(ref == VXP_NONE || ref < m->cexprs.len);
}

void vxp_check__model(const vxp_model *m) {
  /* strtab.h: name 0 is "", the slot table is a power of two at most half full. */
  VXP__ASSERT(m->names.strings.len >= 1 && m->names.strings.items[0][0] == '\0');
  VXP__ASSERT((m->names.slot_count & (m->names.slot_count - 1)) == 0);
  VXP__ASSERT(m->names.strings.len <= m->names.slot_count / 2 + 1);
  /* model.h: cexprs form a DAG through earlier entries. */
  for (size_t i = 0; i < m->cexprs.len; i++) {
    const vxp_cexpr *e = &m->cexprs.items[i];
    check_cexpr_ref(m, e->lhs, i);
    check_cexpr_ref(m, e->rhs, i);
    check_cexpr_ref(m, e->alt, i);
  }
  for (size_t i = 0; i < m->dim_list.len; i++)
    VXP__ASSERT(m->dim_list.items[i] < m->cexprs.len);
  for (size_t i = 0; i < m->types.len; i++) {
    const vxp_tensor_type *t = &m->types.items[i];
    if (t->has_shape) VXP__ASSERT((size_t)t->dims_first + t->dims_count <= m->dim_list.len);
  }
  for (size_t f = 0; f < m->functions.len; f++) {
    const vxp_function *fn = &m->functions.items[f];
    /* Events are well nested: every OPEN has its CLOSE. */
    size_t depth = 0;
    for (size_t i = 0; i < fn->events.len; i++) {
      const vxp_event *ev = &fn->events.items[i];
      if (ev->kind == VXP_EV_OPEN)
        depth++;
      else if (ev->kind == VXP_EV_CLOSE) {
        VXP__ASSERT(depth > 0);
        depth--;
      } else if (ev->kind == VXP_EV_PLACE && ev->u.place.type_known) {
        VXP__ASSERT(ev->u.place.type < m->types.len);
      }
    }
    VXP__ASSERT(depth == 0);
    /* `reads` is sorted (binary search, vxp_function__reads). */
    for (size_t i = 1; i < fn->reads.len; i++)
      VXP__ASSERT(fn->reads.items[i - 1] <= fn->reads.items[i]);
    /* Accesses are in program order, each after the events before it. */
    for (size_t i = 0; i < fn->accesses.len; i++) {
      VXP__ASSERT(fn->accesses.items[i].event <= fn->events.len);
      if (i) VXP__ASSERT(fn->accesses.items[i - 1].event <= fn->accesses.items[i].event);
    }
    VXP__ASSERT(fn->parent == VXP_NONE || fn->parent < m->functions.len);
    /* Its item holds it (a model lowered from a tree has items). */
    if (m->items.len) {
      VXP__ASSERT(fn->item < m->items.len);
      const vxp_model_item *it = &m->items.items[fn->item];
      VXP__ASSERT(it->start_byte <= fn->start_byte && fn->end_byte <= it->end_byte);
      VXP__ASSERT(it->first_function <= f && f < it->first_function + it->function_count);
    }
  }
  /* Items are in source order and do not overlap; a declaration item's declaration is
   * written inside it. */
  for (size_t i = 1; i < m->items.len; i++)
    VXP__ASSERT(m->items.items[i - 1].end_byte <= m->items.items[i].start_byte);
  for (size_t i = 0; i < m->items.len && m->declarations; i++) {
    const vxp_model_item *it = &m->items.items[i];
    uint32_t d = it->declaration, at = 0;
    if (d == VXP_NONE) continue;
    if (it->kind == VXP_ITEM_MEMORY) {
      VXP__ASSERT(d < m->declarations->spaces.len);
      at = m->declarations->spaces.items[d].start_byte;
    } else if (it->kind == VXP_ITEM_TOPOLOGY) {
      VXP__ASSERT(d < m->declarations->topologies.len);
      at = m->declarations->topologies.items[d].start_byte;
    } else {
      VXP__ASSERT(it->kind == VXP_ITEM_LOWERING && d < m->declarations->lowerings.len);
      at = m->declarations->lowerings.items[d].start_byte;
    }
    VXP__ASSERT(it->start_byte <= at && at < it->end_byte);
  }
  /* The visibility facts are the items' own, item after item, each written inside its item;
   * the items' positions among the root's children rise with them. */
  uint32_t next_fact = 0;
  for (size_t i = 0; i < m->items.len; i++) {
    const vxp_model_item *it = &m->items.items[i];
    if (i) VXP__ASSERT(m->items.items[i - 1].top < it->top);
    if (it->vis_count == 0) continue;
    VXP__ASSERT(it->vis_first == next_fact && it->vis_count <= m->visibility.len - next_fact);
    for (uint32_t k = it->vis_first; k < it->vis_first + it->vis_count; k++) {
      const vxp_vis_fact *f = &m->visibility.items[k];
      VXP__ASSERT(it->start_byte <= f->start_byte && f->end_byte <= it->end_byte);
    }
    next_fact = it->vis_first + it->vis_count;
  }
  VXP__ASSERT(next_fact == m->visibility.len);
  /* So are the raw:: facts; each points inside its item (an EDGE at the item itself). */
  uint32_t next_raw = 0;
  for (size_t i = 0; i < m->items.len; i++) {
    const vxp_model_item *it = &m->items.items[i];
    if (it->raw_count == 0) continue;
    VXP__ASSERT(it->raw_first == next_raw && it->raw_count <= m->raw.len - next_raw);
    for (uint32_t k = it->raw_first; k < it->raw_first + it->raw_count; k++) {
      const vxp_raw_fact *f = &m->raw.items[k];
      VXP__ASSERT(f->kind <= VXP_RAW_SYNCHRONIZING);
      VXP__ASSERT(it->start_byte <= f->start_byte && f->end_byte <= it->end_byte);
    }
    next_raw = it->raw_first + it->raw_count;
  }
  VXP__ASSERT(next_raw == m->raw.len);
}

void vxp_check__program(const vxp_program *prog) {
  check_diagnostics(&prog->diags);
  /* A window with a syntax error is one of the windows, and its errors are reported. */
  VXP__ASSERT(prog->error_windows <= prog->windows);
  if (prog->error_windows)
    VXP__ASSERT(prog->errors_from < prog->errors_to && prog->errors_to <= prog->src->len &&
                prog->syntax_counts[2] > 0);
  vxp_check__model(&prog->model);
}

void vxp_check__machine(const vxp_machine *machine) {
  /* Names are unique within spaces and within topologies (a duplicate was dropped). */
  for (size_t i = 0; i < machine->spaces.len; i++)
    for (size_t k = i + 1; k < machine->spaces.len; k++)
      VXP__ASSERT(strcmp(machine->spaces.items[i].name, machine->spaces.items[k].name) != 0);
  for (size_t i = 0; i < machine->topologies.len; i++)
    for (size_t k = i + 1; k < machine->topologies.len; k++)
      VXP__ASSERT(strcmp(machine->topologies.items[i].name, machine->topologies.items[k].name) !=
                  0);
}

void vxp_check__analysis(const vxp_analysis *an) {
  check_diagnostics(&an->diags);
  /* Records are grouped by function in analysis order, each function's in program order. */
  for (size_t i = 0; i < an->records.len; i++) {
    const vxp_record *r = &an->records.items[i];
    VXP__ASSERT(r->function < an->functions.len && r->space < an->view.spaces.len);
    if (i == 0) continue;
    const vxp_record *p = &an->records.items[i - 1];
    VXP__ASSERT(p->function <= r->function);
    if (p->function == r->function) VXP__ASSERT(p->order < r->order);
  }
  /* Resident sets are by function, then by space name. */
  for (size_t i = 1; i < an->resident_sets.len; i++) {
    const vxp_resident_set *p = &an->resident_sets.items[i - 1], *r = &an->resident_sets.items[i];
    VXP__ASSERT(p->function <= r->function);
    if (p->function == r->function) VXP__ASSERT(strcmp(p->space_name, r->space_name) < 0);
  }
  for (size_t i = 0; i < an->resident_sets.len; i++) {
    const vxp_resident_set *rs = &an->resident_sets.items[i];
    VXP__ASSERT(rs->peak_record < an->records.len);
    VXP__ASSERT(an->records.items[rs->peak_record].function == rs->function);
  }
  /* The fold's table is functions x spaces; the held bytes calls x spaces. */
  VXP__ASSERT(an->fn_spaces.len == an->functions.len * an->view.spaces.len);
  VXP__ASSERT(an->held.len == an->calls.len * an->view.spaces.len);
  for (size_t i = 1; i < an->calls.len; i++)
    VXP__ASSERT(an->calls.items[i - 1].caller <= an->calls.items[i].caller);
  /* A route runs from the hop's source to its destination, and its tile is there. */
  for (size_t i = 0; i < an->routes.len; i++) {
    const vxp_route *r = &an->routes.items[i];
    VXP__ASSERT(r->path_len >= 2 && (size_t)r->path_first + r->path_len <= an->route_nodes.len);
    VXP__ASSERT(an->route_nodes.items[r->path_first] == r->from_node);
    VXP__ASSERT(an->route_nodes.items[r->path_first + r->path_len - 1] == r->to_node);
    if (r->record == VXP_NONE) continue;
    VXP__ASSERT(r->record < an->records.len);
    VXP__ASSERT(an->records.items[r->record].function == r->function);
    VXP__ASSERT(
        strcmp(an->records.items[r->record].space_name, an->graph.nodes.items[r->to_node]) == 0);
  }
}
#endif
