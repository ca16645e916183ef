/* SPDX-License-Identifier: Apache-2.0 */
/* items.c - the program's items as an editor outlines them: every function, method and
 * closure the model holds (in the model's order), then every const item. Read straight
 * from the lowered model, so an outline never disagrees with what is analysed. */
#include "program.h"
#include "source.h"

/* Item `i`: a function when below the function count, a const item after. */
static const vxp_function *item_function(const vxp_program *prog, size_t i) {
  return i < prog->model.functions.len ? &prog->model.functions.items[i] : NULL;
}

static const vxp_const_item *item_const(const vxp_program *prog, size_t i) {
  size_t fns = prog->model.functions.len;
  return i >= fns && i - fns < prog->model.consts.len ? &prog->model.consts.items[i - fns] : NULL;
}

size_t vxp_program_item_count(const vxp_program *prog) {
  VXP__TAG(prog, VXP_TAG_PROGRAM, 0);

  return prog ? prog->model.functions.len + prog->model.consts.len : 0;
}

vxp_item_type vxp_program_item_type(const vxp_program *prog, size_t i) {
  VXP__TAG(prog, VXP_TAG_PROGRAM, VXP_ITEM_TYPE_NONE);

  if (!prog) return VXP_ITEM_TYPE_NONE;
  const vxp_function *fn = item_function(prog, i);
  if (fn) return fn->is_closure ? VXP_ITEM_TYPE_CLOSURE : VXP_ITEM_TYPE_FUNCTION;
  return item_const(prog, i) ? VXP_ITEM_TYPE_CONST : VXP_ITEM_TYPE_NONE;
}

const char *vxp_item_type_name(vxp_item_type type) {
  switch (type) {
  case VXP_ITEM_TYPE_FUNCTION: return "function";
  case VXP_ITEM_TYPE_CLOSURE: return "closure";
  case VXP_ITEM_TYPE_CONST: return "const";
  default: return NULL;
  }
}

const char *vxp_program_item_kind(const vxp_program *prog, size_t i) {
  VXP__TAG(prog, VXP_TAG_PROGRAM, NULL);

  return vxp_item_type_name(vxp_program_item_type(prog, i));
}

const char *vxp_program_item_name(const vxp_program *prog, size_t i) {
  VXP__TAG(prog, VXP_TAG_PROGRAM, NULL);

  if (!prog) return NULL;
  const vxp_function *fn = item_function(prog, i);
  if (fn) return vxp_strtab__str(&prog->model.names, fn->name);
  const vxp_const_item *c = item_const(prog, i);
  return c ? vxp_strtab__str(&prog->model.names, c->name) : NULL;
}

vxp_range vxp_program_item_range(const vxp_program *prog, size_t i) {
  VXP__TAG(prog, VXP_TAG_PROGRAM, (vxp_range){0});

  vxp_range none = {{0, 0}, {0, 0}, 0, 0};
  if (!prog) return none;
  const vxp_function *fn = item_function(prog, i);
  if (fn) return vxp_source__range(prog->src, fn->start_byte, fn->end_byte);
  const vxp_const_item *c = item_const(prog, i);
  return c ? vxp_source__range(prog->src, c->start_byte, c->end_byte) : none;
}

vxp_range vxp_program_item_name_range(const vxp_program *prog, size_t i) {
  VXP__TAG(prog, VXP_TAG_PROGRAM, (vxp_range){0});

  vxp_range none = {{0, 0}, {0, 0}, 0, 0};
  if (!prog) return none;
  const vxp_function *fn = item_function(prog, i);
  if (fn) return vxp_source__range(prog->src, fn->name_start, fn->name_end);
  const vxp_const_item *c = item_const(prog, i);
  return c ? vxp_source__range(prog->src, c->start_byte, c->end_byte) : none;
}
