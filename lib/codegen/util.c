/* SPDX-License-Identifier: Apache-2.0 */
/* util.c - the code generator's helpers: refusals, names, types, scopes. */
#include <stdarg.h>
#include <stdio.h>

#include "codegen.h"

/* ------------------------------------------------------------------ nodes and refusals */

bool vxp_cg__ok(const cg *G) { return G->rc == VXP_OK; }

void vxp_cg__sb_done(cg *G, vxp_sb *sb) {
  if (sb->failed) G->rc = VXP_ENOMEM;
  vxp_sb__free(G->ctx, sb);
}

char *vxp_cg__sb_take(cg *G, vxp_sb *sb) {
  size_t len;
  char *text = vxp_sb__detach(G->ctx, sb, &len);
  if (!text) return NULL;
  char *fit = vxp_ctx__realloc(G->ctx, text, len + 1);
  if (!fit) vxp_ctx__free(G->ctx, text); /* a refused allocation is a failure, as any other */
  return fit;
}

bool vxp_cg__is(TSNode node, TSSymbol sym) {
  return sym != 0 && !ts_node_is_null(node) && ts_node_symbol(node) == sym;
}

TSNode vxp_cg__field(TSNode node, TSFieldId id) {
  return (ts_node_is_null(node) || id == 0) ? node : ts_node_child_by_field_id(node, id);
}

const char *vxp_cg__text(const cg *G, TSNode node, size_t *len) {
  if (ts_node_is_null(node)) {
    *len = 0;
    return "";
  }
  uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  *len = end - start;
  return G->src->text + start;
}

static bool vrefuse(cg *G, bool located, uint32_t start, uint32_t end, const char *fmt,
                    va_list ap) {
  if (G->rc != VXP_OK) return false;
  vxp_diagnostic *d =
      vxp_diag__vadd(G->ctx, G->diags, VXP_SEVERITY_ERROR, VXP_CG_REFUSED, located ? G->src : NULL,
                     located ? start : 0, located ? end : 0, fmt, ap);
  if (!d) G->rc = VXP_ENOMEM;
  return false;
}

bool vxp_cg__refuse(cg *G, TSNode node, const char *fmt, ...) {
  bool located = !ts_node_is_null(node);
  va_list ap;
  va_start(ap, fmt);
  vrefuse(G, located, located ? ts_node_start_byte(node) : 0, located ? ts_node_end_byte(node) : 0,
          fmt, ap);
  va_end(ap);
  return false;
}

bool vxp_cg__refuse_at(cg *G, bool located, uint32_t start, uint32_t end, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vrefuse(G, located, start, end, fmt, ap);
  va_end(ap);
  return false;
}

const char *vxp_cg__construct(const cg *G, TSNode node, char *buf, size_t size) {
  static const struct {
    const char *type, *name;
  } names[] = {{"closure_expression", "closure"},
               {"macro_invocation", "macro invocation"},
               {"struct_expression", "struct literal"},
               {"field_expression", "field access"},
               {"array_expression", "array literal"},
               {"autodiff_expression", "autodiff (grad/vjp/jvp)"},
               {"reachable_expression", "`Reachable<..>` query"},
               {"sizeof_expression", "`sizeof`"},
               {"verified_expression", "`Verified(..)`"},
               {"comptime_block", "`comptime` block"},
               {"range_expression", "range outside a `for`"},
               {"scoped_identifier", "path"},
               {"generic_name", "generic call"},
               {"struct_item", "struct declaration"},
               {"enum_item", "enum declaration"},
               {"trait_item", "trait declaration"},
               {"impl_item", "impl block"},
               {"transfer_impl_item", "transfer lowering (`impl Transfer`)"},
               {"extern_block", "extern block"},
               {"import_item", "import"},
               {"macro_definition", "macro definition (`macro_rules!`)"},
               {"variant_pattern", "enum variant pattern"}};
  VXP__UNUSED(G);
  const char *type = ts_node_type(node);
  for (size_t i = 0; i < VXP__ARRAY_LEN(names); i++) {
    if (strcmp(names[i].type, type) == 0) return names[i].name;
  }
  /* Otherwise the node kind in words: `index_expression` -> "index expression". */
  size_t i = 0;
  for (; type[i] && i + 1 < size; i++)
    buf[i] = type[i] == '_' ? ' ' : type[i];
  buf[i] = '\0';
  return buf;
}

void vxp_cg__line(cg *G, const char *fmt, ...) {
  vxp_sb *sb = G->out;
  if (sb->failed) return;
  for (unsigned i = 0; i < G->indent; i++)
    vxp_sb__append(G->ctx, sb, "  ", 2);
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) {
    sb->failed = true;
    return;
  }
  char *tmp = vxp_ctx__malloc(G->ctx, (size_t)n + 1);
  if (!tmp) {
    sb->failed = true;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(tmp, (size_t)n + 1, fmt, ap);
  va_end(ap);
  vxp_sb__append(G->ctx, sb, tmp, (size_t)n);
  vxp_sb__append(G->ctx, sb, "\n", 1);
  vxp_ctx__free(G->ctx, tmp);
}

vxp_point vxp_cg__at(const cg *G, TSNode node) {
  return vxp_source__point(G->src, ts_node_start_byte(node));
}

/* ------------------------------------------------------------------ types */

vxp_elem vxp_cg__elem(const cg *G, const char *name, size_t len) {
  vxp_elem e = vxp_elem__from_name(name, len);
  if (e != VXP_ELEM_UNKNOWN || !G->fn || G->fn->analysed == VXP_NONE) return e;
  const vxp_analysed_fn *af = &G->an->functions.items[G->fn->analysed];
  for (uint32_t i = 0; i < af->type_count; i++) {
    const vxp_type_binding *b = &G->an->type_binds.items[af->type_first + i];
    const char *param = vxp_strtab__str(&G->m->names, b->param);
    if (strlen(param) == len && memcmp(param, name, len) == 0) return (vxp_elem)b->elem;
  }
  return VXP_ELEM_UNKNOWN;
}

cg_fn *vxp_cg__use_fn(cg *G, cg_fn *fn) {
  cg_fn *prev = G->fn;
  G->fn = fn;
  G->env.bindings = NULL;
  G->env.binding_count = 0;
  if (fn && fn->analysed != VXP_NONE) {
    const vxp_analysed_fn *af = &G->an->functions.items[fn->analysed];
    if (af->const_count) {
      G->env.bindings = &G->an->const_binds.items[af->const_first];
      G->env.binding_count = af->const_count;
    }
  }
  return prev;
}

const char *vxp_cg__scalar_ctype(vxp_elem e) {
  switch (e) {
  case VXP_ELEM_BOOL: return "bool";
  case VXP_ELEM_I8: return "int8_t";
  case VXP_ELEM_U8: return "uint8_t";
  case VXP_ELEM_I16: return "int16_t";
  case VXP_ELEM_U16: return "uint16_t";
  case VXP_ELEM_I32: return "int32_t";
  case VXP_ELEM_U32: return "uint32_t";
  case VXP_ELEM_I64: return "int64_t";
  case VXP_ELEM_U64: return "uint64_t";
  case VXP_ELEM_F32: return "float";
  case VXP_ELEM_F64: return "double";
  case VXP_ELEM_F16: return "__half";
  case VXP_ELEM_BF16: return "__nv_bfloat16";
  case VXP_ELEM_F8E4M3: return "__nv_fp8_e4m3";
  case VXP_ELEM_F8E5M2: return "__nv_fp8_e5m2";
  default: return NULL;
  }
}

bool vxp_cg__narrow_float(vxp_elem e) {
  return e == VXP_ELEM_F16 || e == VXP_ELEM_BF16 || e == VXP_ELEM_F8E4M3 || e == VXP_ELEM_F8E5M2;
}

bool vxp_cg__narrow_ctype(const char *ctype) {
  return ctype && (strcmp(ctype, "__half") == 0 || strcmp(ctype, "__nv_bfloat16") == 0 ||
                   strcmp(ctype, "__nv_fp8_e4m3") == 0 || strcmp(ctype, "__nv_fp8_e5m2") == 0);
}

const char *vxp_cg__storage_ctype(vxp_elem e) {
  /* bool tensors are packed (1 bit per element, as the analysis counts them), and so are
   * the 4-bit types: both are stored as bytes. */
  if (e == VXP_ELEM_BOOL) return "unsigned char";
  const char *c = vxp_cg__scalar_ctype(e);
  return c ? c : "unsigned char";
}

bool vxp_cg__tensor_type(cg *G, TSNode node, cg_tensor *out) {
  return vxp_cg__placed_tensor_type(G, node, NULL, out);
}

bool vxp_cg__placed_tensor_type(cg *G, TSNode node, const vxp_event_fact *fact, cg_tensor *out) {
  memset(out, 0, sizeof(*out));
  out->space = VXP_NONE;
  TSNode elem = vxp_cg__field(node, G->F->element);
  size_t len;
  const char *s = vxp_cg__text(G, elem, &len);
  out->elem = (uint8_t)vxp_cg__elem(G, s, len);
  if (out->elem == VXP_ELEM_UNKNOWN)
    return vxp_cg__refuse(G, node, "tensor element type '%.*s' is not a concrete element type",
                          (int)len, s);
  /* Lowering kept this type's dimensions as constant expressions: find its model type by
   * the node's bytes. A placement's dimensions are the ones the analysis decided for its
   * event (`fact`); a type that places no tile (a parameter, a host tensor) has no such
   * fact, and is folded with the analysis' environment: its const table, -D overrides and
   * the instance's arguments. */
  uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  uint32_t ti = vxp_cg__index_type(G, start, end);
  const vxp_tensor_type *mt = ti == VXP_NONE ? NULL : &G->m->types.items[ti];
  if (!mt) return vxp_cg__refuse(G, node, "this tensor type is not in the program model");
  u128 bits = vxp_elem__bits((vxp_elem)out->elem);
  uint64_t count = 1;
  const uint64_t *decided = vxp_analysis__fact_dims(G->an, fact);
  if (decided && fact->dims_count != mt->dims_count) decided = NULL;
  for (uint32_t i = 0; mt->has_shape && i < mt->dims_count; i++) {
    if (out->rank == CG_MAX_RANK)
      return vxp_cg__refuse(G, node, "tensors of more than %d dimensions", CG_MAX_RANK);
    uint32_t cx = G->m->dim_list.items[mt->dims_first + i];
    const vxp_cexpr *dim = &G->m->cexprs.items[cx];
    TSNode at = ts_node_descendant_for_byte_range(node, dim->start_byte, dim->end_byte);
    vxp_fold f = {VXP_FOLD_OK, decided ? decided[i] : 0, VXP_NONE, false};
    if (!decided) f = vxp_consteval__fold(&G->env, cx);
    if (f.status != VXP_FOLD_OK) {
      if (dim->kind == VXP_CX_OPAQUE && dim->reason == VXP_OPAQUE_DYNAMIC)
        return vxp_cg__refuse(G, at, "a dynamic dimension `?`: generated code needs static shapes");
      vxp_sb why = {0};
      vxp_consteval__explain(G->ctx, &G->env, f, &why);
      if (why.failed)
        G->rc = VXP_ENOMEM;
      else
        vxp_cg__refuse(G, at, "dimension %u does not fold to a constant: %s", i,
                       vxp_sb__text(&why));
      vxp_sb__free(G->ctx, &why);
      return false;
    }
    out->dims[out->rank++] = f.value;
    if (!vxp_mul_u64(count, f.value, &count))
      return vxp_cg__refuse(G, node, "a tensor of more than 2^64 elements");
  }
  if (out->rank == 0) return vxp_cg__refuse(G, node, "a tensor without dimensions");
  out->count = count;
  u128 total = (bits * count + 7) / 8;
  if (total > (u128)INT64_MAX) return vxp_cg__refuse(G, node, "a tensor of more than 2^63 bytes");
  out->bytes = (uint64_t)total;
  TSNode place = vxp_cg__field(node, G->F->placement);
  out->device = !ts_node_is_null(place) && !vxp_cg__place_is_host(G, place);
  return true;
}

/* The tensor_type under references and Ref/Pinned wrappers, and whether the wrapper or the
 * type places it on a device. Null when `type` is not a tensor type. */
TSNode vxp_cg__tensor_of_type(cg *G, TSNode type, bool *device) {
  bool placed_by_wrapper = false;
  *device = false;
  while (!ts_node_is_null(type)) {
    if (vxp_cg__is(type, G->S->ref_type) || vxp_cg__is(type, G->S->pinned_type)) {
      TSNode place =
          vxp_cg__field(type, vxp_cg__is(type, G->S->ref_type) ? G->F->space : G->F->topology);
      if (!placed_by_wrapper) *device = !vxp_cg__place_is_host(G, place);
      placed_by_wrapper = true;
      type = vxp_cg__field(type, G->F->type);
    } else if (vxp_cg__is(type, G->S->reference_type)) {
      type = vxp_cg__field(type, G->F->type);
    } else {
      break;
    }
  }
  if (!vxp_cg__is(type, G->S->tensor_type)) return (TSNode){{0}, NULL, NULL};
  if (!placed_by_wrapper) {
    TSNode place = vxp_cg__field(type, G->F->placement);
    *device = !ts_node_is_null(place) && !vxp_cg__place_is_host(G, place);
  }
  return type;
}

bool vxp_cg__place_is_host(cg *G, TSNode place) {
  size_t len;
  const char *name = vxp_cg__text(G, vxp_cg__field(place, G->F->name), &len);
  if (vxp_cg__is(place, G->S->memory_path)) return len == 8 && memcmp(name, "CPU_DRAM", 8) == 0;
  if (vxp_cg__is(place, G->S->topology_path) || vxp_cg__is(place, G->S->identifier)) {
    if (vxp_cg__is(place, G->S->identifier)) name = vxp_cg__text(G, place, &len);
    vxp_sb topo = {0}; /* the name whole: a cut one would name another topology */
    vxp_sb__append(G->ctx, &topo, name, len);
    if (topo.failed) {
      G->rc = VXP_ENOMEM;
      return false;
    }
    const vxp_topology *t = vxp_machine__topology(&G->an->view, vxp_sb__text(&topo));
    bool host = t && t->memory && strcmp(t->memory, "CPU_DRAM") == 0;
    static const char *const host_topologies[] = {"CPU",     "CpuAvx512", "CPU_AVX512",
                                                  "CpuNeon", "CPU_Neon",  "AMX"};
    for (size_t i = 0; !t && i < VXP__ARRAY_LEN(host_topologies); i++) {
      if (strcmp(host_topologies[i], vxp_sb__text(&topo)) == 0) host = true;
    }
    vxp_sb__free(G->ctx, &topo);
    return host;
  }
  return false;
}

/* ------------------------------------------------------------------ parameters */

/* What a call reads of one parameter `p` of `f` (G->fn is `f`): whether it is a tensor and
 * where, its shape folded with f's environment (or the refusal folding it made, kept in
 * `out->refusal` instead of G->diags), or a scalar's C type. */
static bool read_param(cg *G, TSNode p, cg_param *out) {
  TSNode type = vxp_cg__field(p, G->F->type);
  TSNode tensor = vxp_cg__tensor_of_type(G, type, &out->device);
  if (!ts_node_is_null(tensor)) {
    out->tensor = true;
    vxp_diag_list *diags = G->diags;
    G->diags = &out->refusal;
    out->folded = vxp_cg__tensor_type(G, tensor, &out->t);
    G->diags = diags;
    return vxp_cg__ok(G);
  }
  size_t tl;
  const char *tt = vxp_cg__text(G, type, &tl);
  out->ctype = vxp_cg__is(type, G->S->type_identifier)
                   ? vxp_cg__scalar_ctype(vxp_cg__elem(G, tt, tl))
                   : NULL;
  return vxp_cg__ok(G);
}

bool vxp_cg__read_params(cg *G, cg_fn *f) {
  TSNode params = vxp_cg__field(f->node, G->F->parameters);
  f->params_located = !ts_node_is_null(params);
  f->params_start = f->params_located ? ts_node_start_byte(params) : 0;
  f->params_end = f->params_located ? ts_node_end_byte(params) : 0;
  uint32_t n = f->params_named = vxp_node__named_count(params), count = 0;
  for (uint32_t i = 0; i < n; i++)
    count += vxp_cg__is(ts_node_named_child(params, i), G->S->parameter);
  f->params = NULL;
  f->param_count = 0;
  if (count == 0) return vxp_cg__ok(G);
  f->params = vxp_ctx__calloc(G->ctx, count, sizeof(*f->params));
  if (!f->params) {
    G->rc = VXP_ENOMEM;
    return false;
  }
  cg_fn *prev = vxp_cg__use_fn(G, f);
  for (uint32_t i = 0; i < n && vxp_cg__ok(G); i++) {
    TSNode p = ts_node_named_child(params, i);
    if (vxp_cg__is(p, G->S->parameter)) read_param(G, p, &f->params[f->param_count++]);
  }
  vxp_cg__use_fn(G, prev);
  return vxp_cg__ok(G);
}

void vxp_cg__free_params(cg *G, cg_fn *f) {
  for (uint32_t i = 0; i < f->param_count; i++)
    vxp_diag__list_free(G->ctx, &f->params[i].refusal);
  vxp_ctx__free(G->ctx, f->params);
  f->params = NULL;
  f->param_count = 0;
}

/* ------------------------------------------------------------------ scopes */

void vxp_cg__c_ident_sb(cg *G, vxp_sb *sb, const char *name, size_t len) {
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)name[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')
      vxp_sb__putc(G->ctx, sb, (char)c);
    else
      vxp_sb__printf(G->ctx, sb, "_x%02X", c);
  }
}

cg_var *vxp_cg__lookup(cg *G, const char *name, size_t len) {
  /* by hash (lookup.c's names): a scan made a function of n bindings cost n^2 */
  size_t k = vxp_scope_index__find(&G->lookup.vars, name, len);
  return k == SIZE_MAX ? NULL : &G->vars.items[k];
}

/* A C identifier for a Vx name: ASCII letters, digits and `_` kept, other bytes as _xHH,
 * and a numeric suffix when the function already used it (Vx lets `let` shadow a name in
 * the same block; C++ does not). */
cg_var *vxp_cg__bind(cg *G, TSNode name_node) {
  size_t len;
  const char *name = vxp_cg__text(G, name_node, &len);
  cg_var v;
  memset(&v, 0, sizeof(v));
  v.name = name;
  v.name_len = (uint32_t)len;
  v.decl_depth = G->depth;
  v.kernel_local = G->in_kernel;
  v.t.space = VXP_NONE;
  v.buffer = -1;
  vxp_sb cname = {0}; /* whole, however long the name */
  vxp_sb__puts(G->ctx, &cname, "v_");
  vxp_cg__c_ident_sb(G, &cname, name, len);
  size_t base = cname.len;
  for (unsigned k = 2; !cname.failed && vxp_cg__name_used(G, vxp_sb__text(&cname)); k++) {
    cname.len = base;
    vxp_sb__printf(G->ctx, &cname, "_%u", k);
  }
  char *copy = vxp_sb__detach(G->ctx, &cname, NULL);
  v.cname = copy;
  if (!copy || !array_push(G->ctx, &G->used_names, copy)) {
    vxp_ctx__free(G->ctx, copy);
    G->rc = VXP_ENOMEM;
    return NULL;
  }
  if (!vxp_cg__name_add(G, copy)) {
    G->rc = VXP_ENOMEM;
    return NULL;
  }
  if (!vxp_scope_index__push(G->ctx, &G->lookup.vars, name, len)) {
    G->rc = VXP_ENOMEM;
    return NULL;
  }
  if (!array_push(G->ctx, &G->vars, v)) {
    vxp_scope_index__truncate(&G->lookup.vars, G->vars.len);
    G->rc = VXP_ENOMEM;
    return NULL;
  }
  return array_last(&G->vars);
}

void vxp_cg__push_scope(cg *G) {
  if (!array_push(G->ctx, &G->scopes, G->vars.len)) G->rc = VXP_ENOMEM;
}

void vxp_cg__pop_scope(cg *G) {
  if (G->scopes.len) {
    G->vars.len = G->scopes.items[--G->scopes.len];
    vxp_scope_index__truncate(&G->lookup.vars, G->vars.len);
  }
}

const vxp_event_fact *vxp_cg__place_fact(cg *G, uint32_t start_byte) {
  if (!G->fn || G->fn->analysed == VXP_NONE || G->fn->model_fn >= G->m->functions.len) return NULL;
  const vxp_function *fn = &G->m->functions.items[G->fn->model_fn];
  size_t n = fn->events.len;
  for (size_t k = 0; k < n; k++) {
    size_t i = (G->fact_cursor + k) % n;
    const vxp_event *ev = &fn->events.items[i];
    if (ev->kind != VXP_EV_PLACE || ev->u.place.form != VXP_FORM_LET_TYPE ||
        ev->u.place.start_byte != start_byte)
      continue;
    G->fact_cursor = i;
    return vxp_analysis__event_fact(G->an, G->fn->analysed, i);
  }
  return NULL;
}

const vxp_event_fact *vxp_cg__block_fact(cg *G, vxp_block_kind kind, uint32_t start_byte) {
  if (!G->fn || G->fn->analysed == VXP_NONE || G->fn->model_fn >= G->m->functions.len) return NULL;
  const vxp_function *fn = &G->m->functions.items[G->fn->model_fn];
  size_t n = fn->events.len;
  /* Code is generated in program order: start where the last block was found. */
  for (size_t k = 0; k < n; k++) {
    size_t i = (G->fact_cursor + k) % n;
    const vxp_event *ev = &fn->events.items[i];
    if (ev->kind != VXP_EV_OPEN || ev->u.block.kind != kind || ev->u.block.start_byte != start_byte)
      continue;
    G->fact_cursor = i;
    return vxp_analysis__event_fact(G->an, G->fn->analysed, i);
  }
  return NULL;
}
