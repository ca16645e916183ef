/* SPDX-License-Identifier: Apache-2.0 */
/* expr.c - expressions of the code generation subset, and placements: every device
 * allocation is one of the analysis' records, with the record's bytes. */
#include <stdio.h>
#include <stdlib.h>

#include "codegen.h"
#include "lower.h"

/* ------------------------------------------------------------------ records */

/* vxp_cg__records_at and vxp_cg__model_places are lookup.c's indexes. */

static uint32_t space_of_record(cg *G, const vxp_record *r) {
  return r->space < G->an->view.spaces.len ? G->index.space_of_view[r->space] : VXP_NONE;
}

/* The serial of the innermost releasing block (or the function body): where a buffer
 * placed now is freed. */
static uint32_t owner_serial(cg *G) {
  for (size_t i = G->blocks.len; i-- > 0;) {
    if (G->blocks.items[i].releasing || G->blocks.items[i].kind == CG_BLOCK_ROOT)
      return G->blocks.items[i].serial;
  }
  return 0;
}

uint32_t vxp_cg__add_buffer(cg *G, bool tile, uint32_t space, uint64_t bytes) {
  cg_buffer b = {tile, space, bytes, owner_serial(G)};
  if (!array_push(G->ctx, &G->buffers, b)) {
    G->rc = VXP_ENOMEM;
    return 0;
  }
  return (uint32_t)(G->buffers.len - 1);
}

void vxp_cg__pend(cg *G, uint32_t buffer) {
  if (!array_push(G->ctx, &G->pending, buffer)) G->rc = VXP_ENOMEM;
}

void vxp_cg__unpend(cg *G, uint32_t buffer) {
  for (size_t i = 0; i < G->pending.len; i++) {
    if (G->pending.items[i] == buffer && !G->buffers.items[buffer].tile) {
      memmove(&G->pending.items[i], &G->pending.items[i + 1],
              (G->pending.len - i - 1) * sizeof(G->pending.items[0]));
      G->pending.len--;
      return;
    }
  }
}

static const char *copy_kind(bool src_device, bool dst_device) {
  if (src_device) return dst_device ? "cudaMemcpyDeviceToDevice" : "cudaMemcpyDeviceToHost";
  return dst_device ? "cudaMemcpyHostToDevice" : "cudaMemcpyHostToHost";
}

bool vxp_cg__place(cg *G, TSNode site, const vxp_record *const *records, size_t count,
                   const cg_tensor *type, bool dest_host, const char *source,
                   const cg_tensor *source_type, vxp_sb *sb, cg_value *v) {
  if (G->in_kernel)
    return vxp_cg__refuse(G, site,
                          "a placement inside a `spawn` region's kernel: place tiles "
                          "before the region's element statements");
  if (count == 0 && !dest_host)
    return vxp_cg__refuse(G, site,
                          "this placement has no tile in the analysis (its memory "
                          "space declares no capacity, is not declared, or the "
                          "tensor's size is not static), so there is no size to "
                          "allocate");
  const char *ctype = vxp_cg__storage_ctype((vxp_elem)type->elem);
  vxp_sb expr;
  memset(&expr, 0, sizeof(expr));
  bool prev_device = source_type ? source_type->device : false;
  cg_tensor result = *type;
  if (source) vxp_sb__printf(G->ctx, &expr, "%s", source);
  for (size_t i = 0; i == 0 || i < count; i++) {
    const vxp_record *r = count ? records[i] : NULL;
    vxp_sb next;
    memset(&next, 0, sizeof(next));
    uint32_t id;
    if (r) {
      uint32_t space = space_of_record(G, r);
      if (space == VXP_NONE || r->depth != G->depth || r->bytes < type->bytes) {
        vxp_cg__sb_done(G, &expr);
        return vxp_cg__refuse(G, site,
                              "the analysis' tile here (%llu bytes in '%s' at scope "
                              "depth %u) disagrees with the generated code (%llu bytes "
                              "at depth %u)",
                              (unsigned long long)r->bytes, r->space_name, r->depth,
                              (unsigned long long)type->bytes, G->depth);
      }
      id = vxp_cg__add_buffer(G, true, space, r->bytes);
      const cg_space *sp = &G->spaces.items[space];
      vxp_sb__printf(G->ctx, &next, "vxp_tile_alloc(&fr, &vxb%u, VXP_SPACE_%s, %lluull)", id,
                     sp->cname, (unsigned long long)r->bytes);
      if (r->released_at_once && !array_push(G->ctx, &G->pending, id)) G->rc = VXP_ENOMEM;
      result.device = !sp->host;
      result.space = space;
    } else {
      id = vxp_cg__add_buffer(G, false, VXP_NONE, type->bytes);
      vxp_sb__printf(G->ctx, &next, "vxp_host_alloc(&vxb%u, %lluull, 0)", id,
                     (unsigned long long)type->bytes);
      result.device = false;
      result.space = VXP_NONE;
    }
    if (expr.len) {
      /* Copy what the previous hop (or the source) holds: the tensor's own bytes, not the
       * granule-rounded allocation. */
      vxp_sb wrapped;
      memset(&wrapped, 0, sizeof(wrapped));
      vxp_sb__printf(G->ctx, &wrapped, "vxp_copy(%s, %s, %lluull, %s)", next.data ? next.data : "",
                     expr.data, (unsigned long long)type->bytes,
                     copy_kind(prev_device, result.device));
      vxp_cg__sb_done(G, &next);
      next = wrapped;
    }
    vxp_cg__sb_done(G, &expr);
    expr = next;
    prev_device = result.device;
  }
  vxp_sb__printf(G->ctx, sb, "(%s *)%s", ctype, expr.data ? expr.data : "");
  vxp_cg__sb_done(G, &expr);
  if (v) {
    v->kind = CG_TENSOR;
    v->t = result;
    v->owner_depth = G->depth;
    v->buffer = result.device ? 0 : (int32_t)G->buffers.len; /* the last hop's buffer */
    if (count && !result.device) v->buffer = 0; /* a host tile: the analysis' to release */
  }
  return vxp_cg__ok(G);
}

/* ------------------------------------------------------------------ literals */

static bool number(cg *G, TSNode node, vxp_sb *sb, cg_value *v) {
  size_t len;
  const char *text = vxp_cg__text(G, node, &len);
  uint64_t value;
  vxp_elem suffix;
  bool is_float, too_big;
  if (!vxp_lower__number(text, len, &value, &suffix, &is_float, &too_big) || too_big)
    return vxp_cg__refuse(G, node, "number literal '%.*s' is malformed or too large", (int)len,
                          text);
  size_t digits = 0;
  while (digits < len && ((text[digits] >= '0' && text[digits] <= '9') || text[digits] == '.'))
    digits++;
  v->kind = CG_SCALAR;
  if (suffix != VXP_ELEM_UNKNOWN) {
    const char *ct = vxp_cg__scalar_ctype(suffix);
    if (!ct || suffix == VXP_ELEM_BOOL)
      return vxp_cg__refuse(G, node, "a literal of type %s has no C type in generated code",
                            vxp_elem__name(suffix));
    if (vxp_cg__narrow_float(suffix)) /* rounded to the type, computed in float */
      vxp_sb__printf(G->ctx, sb, "((float)(%s)(float)%.*s)", ct, (int)digits, text);
    else
      vxp_sb__printf(G->ctx, sb, "((%s)%.*s)", ct, (int)digits, text);
    return true;
  }
  /* Unsuffixed literals take Vx's defaults: i32 (i64 when it does not fit), f32. */
  if (is_float)
    vxp_sb__printf(G->ctx, sb, "%.*sf", (int)digits, text);
  else if (value > INT32_MAX)
    vxp_sb__printf(G->ctx, sb, "%lluLL", (unsigned long long)value);
  else
    vxp_sb__printf(G->ctx, sb, "%llu", (unsigned long long)value);
  return true;
}

/* A const item folded to its value. */
static bool const_item(cg *G, TSNode node, const char *name, size_t len, vxp_sb *sb, cg_value *v,
                       bool *found) {
  *found = false;
  for (size_t i = 0; i < G->m->consts.len; i++) {
    const vxp_const_item *c = &G->m->consts.items[i];
    const char *cn = vxp_strtab__str(&G->m->names, c->name);
    if (strlen(cn) != len || memcmp(cn, name, len) != 0) continue;
    *found = true;
    /* The value the analysis decided (its const table, -D overrides), negative ones too. */
    vxp_fold f = vxp_consteval__const_value(&G->env, c->name);
    if (f.status != VXP_FOLD_OK)
      return vxp_cg__refuse(G, node, "const item '%.*s' does not fold to an integer constant",
                            (int)len, name);
    v->kind = CG_SCALAR;
    if (f.negative)
      vxp_sb__printf(G->ctx, sb, "(-%lluLL)", (unsigned long long)f.value);
    else
      vxp_sb__printf(G->ctx, sb, "%lluLL", (unsigned long long)f.value);
    return true;
  }
  return true;
}

static bool identifier(cg *G, TSNode node, vxp_sb *sb, cg_value *v) {
  size_t len;
  const char *name = vxp_cg__text(G, node, &len);
  cg_var *var = vxp_cg__lookup(G, name, len);
  if (var) {
    if (var->poisoned) return false; /* already reported where it was declared */
    if (!var->tensor && vxp_cg__narrow_ctype(var->ctype))
      vxp_sb__printf(G->ctx, sb, "((float)%s)", var->cname);
    else
      vxp_sb__printf(G->ctx, sb, "%s", var->cname);
    v->kind = var->tensor ? CG_TENSOR : CG_SCALAR;
    v->t = var->t;
    v->owner_depth = var->owner_depth;
    v->buffer = var->tensor ? var->buffer + 1 : 0;
    return true;
  }
  if ((len == 4 && memcmp(name, "true", 4) == 0) || (len == 5 && memcmp(name, "false", 5) == 0)) {
    vxp_sb__append(G->ctx, sb, name, len);
    v->kind = CG_SCALAR;
    return true;
  }
  /* A const-generic parameter of the instance being emitted: its argument. */
  for (size_t i = 0; i < G->env.binding_count; i++) {
    const vxp_const_binding *b = &G->env.bindings[i];
    const char *param = vxp_strtab__str(&G->m->names, b->name);
    if (strlen(param) != len || memcmp(param, name, len) != 0) continue;
    if (b->unknown)
      return vxp_cg__refuse(G, node,
                            "const parameter '%.*s' has no constant argument in this "
                            "instance",
                            (int)len, name);
    vxp_sb__printf(G->ctx, sb, "(%s%lluLL)", b->negative ? "-" : "", (unsigned long long)b->value);
    v->kind = CG_SCALAR;
    return true;
  }
  bool found;
  if (!const_item(G, node, name, len, sb, v, &found)) return false;
  if (found) return true;
  return vxp_cg__refuse(G, node, "'%.*s' is not a local variable, parameter or const item here",
                        (int)len, name);
}

/* ------------------------------------------------------------------ operators */

static bool binary(cg *G, TSNode node, vxp_sb *sb, cg_value *v) {
  size_t len;
  const char *op = vxp_cg__text(G, vxp_cg__field(node, G->F->operator), &len);
  static const char *const ops[] = {"+", "-",  "*",  "/",  "%",  "==", "!=", "<",
                                    ">", "<=", ">=", "&&", "||", "&",  "|",  "^"};
  bool known = false;
  for (size_t i = 0; i < VXP__ARRAY_LEN(ops); i++) {
    if (strlen(ops[i]) == len && memcmp(ops[i], op, len) == 0) known = true;
  }
  if (!known)
    return vxp_cg__refuse(G, node,
                          "operator '%.*s' is outside the CUDA code generation subset "
                          "(scalar arithmetic on elements only)",
                          (int)len, op);
  cg_value l, r;
  memset(&l, 0, sizeof(l));
  memset(&r, 0, sizeof(r));
  vxp_sb__append(G->ctx, sb, "(", 1);
  if (!vxp_cg__expr(G, vxp_cg__field(node, G->F->left), sb, &l)) return false;
  vxp_sb__printf(G->ctx, sb, " %.*s ", (int)len, op);
  if (!vxp_cg__expr(G, vxp_cg__field(node, G->F->right), sb, &r)) return false;
  vxp_sb__append(G->ctx, sb, ")", 1);
  if (l.kind != CG_SCALAR || r.kind != CG_SCALAR)
    return vxp_cg__refuse(G, node,
                          "arithmetic on whole tensors: generated code computes on "
                          "scalars and indexed elements");
  v->kind = CG_SCALAR;
  return true;
}

static bool unary(cg *G, TSNode node, vxp_sb *sb, cg_value *v) {
  size_t len;
  const char *op = vxp_cg__text(G, vxp_cg__field(node, G->F->operator), &len);
  if (len != 1 || (op[0] != '-' && op[0] != '!'))
    return vxp_cg__refuse(G, node,
                          "unary '%.*s' (dereference) is outside the CUDA code "
                          "generation subset",
                          (int)len, op);
  vxp_sb__printf(G->ctx, sb, "(%c", op[0]);
  cg_value x;
  memset(&x, 0, sizeof(x));
  if (!vxp_cg__expr(G, vxp_cg__field(node, G->F->operand), sb, &x)) return false;
  vxp_sb__append(G->ctx, sb, ")", 1);
  if (x.kind != CG_SCALAR) return vxp_cg__refuse(G, node, "a unary operator on a whole tensor");
  v->kind = CG_SCALAR;
  return true;
}

static bool cast(cg *G, TSNode node, vxp_sb *sb, cg_value *v) {
  TSNode type = vxp_cg__field(node, G->F->type);
  size_t len;
  const char *t = vxp_cg__text(G, type, &len);
  const char *ct = vxp_cg__is(type, G->S->type_identifier)
                       ? vxp_cg__scalar_ctype(vxp_cg__elem(G, t, len))
                       : NULL;
  if (!ct)
    return vxp_cg__refuse(G, type, "a cast to '%.*s': only scalar element types", (int)len, t);
  bool narrow = vxp_cg__narrow_ctype(ct);
  if (narrow)
    vxp_sb__printf(G->ctx, sb, "((float)(%s)(float)(", ct);
  else
    vxp_sb__printf(G->ctx, sb, "((%s)", ct);
  cg_value x;
  memset(&x, 0, sizeof(x));
  if (!vxp_cg__expr(G, vxp_cg__field(node, G->F->value), sb, &x)) return false;
  vxp_sb__append(G->ctx, sb, narrow ? "))" : ")", narrow ? 2 : 1);
  if (x.kind != CG_SCALAR) return vxp_cg__refuse(G, node, "a cast of a whole tensor");
  v->kind = CG_SCALAR;
  return true;
}

/* `t[i][j]`: one element of a tensor whose every dimension is indexed, row-major. */
static bool element(cg *G, TSNode node, vxp_sb *sb, cg_value *v) {
  bool written = G->lvalue; /* the indices themselves are read */
  G->lvalue = false;
  TSNode indices[CG_MAX_RANK];
  uint32_t n = 0;
  TSNode base = node;
  while (vxp_cg__is(base, G->S->index_expression)) {
    if (n == CG_MAX_RANK) return vxp_cg__refuse(G, node, "more indices than any tensor has");
    indices[n++] = vxp_cg__field(base, G->F->index);
    base = vxp_cg__field(base, G->F->value);
  }
  if (!vxp_cg__is(base, G->S->identifier))
    return vxp_cg__refuse(G, base, "indexing something other than a tensor variable");
  size_t len;
  const char *name = vxp_cg__text(G, base, &len);
  cg_var *var = vxp_cg__lookup(G, name, len);
  if (var && var->poisoned) return false;
  if (!var || !var->tensor)
    return vxp_cg__refuse(G, base, "'%.*s' is not a tensor variable", (int)len, name);
  if (n != var->t.rank)
    return vxp_cg__refuse(G, node,
                          "'%.*s' has %u dimensions but %u are indexed: generated code "
                          "reads single elements",
                          (int)len, name, var->t.rank, n);
  if (!vxp_cg__scalar_ctype((vxp_elem)var->t.elem) || var->t.elem == VXP_ELEM_BOOL)
    return vxp_cg__refuse(G, node, "elements of %s tensors have no C type in generated code",
                          vxp_elem__name((vxp_elem)var->t.elem));
  if (G->in_kernel && !var->t.device)
    return vxp_cg__refuse(G, node, "host tensor '%.*s' read inside a `spawn` region on a device",
                          (int)len, name);
  if (!G->in_kernel && var->t.device)
    return vxp_cg__refuse(G, node,
                          "placed tensor '%.*s' read on the host: read it inside a "
                          "`spawn` region, or transfer it back first",
                          (int)len, name);
  /* Horner form: ((i0 * d1 + i1) * d2 + i2). Indices were collected innermost first. A
   * narrow float is read as float (assignment() converts what it writes). */
  bool as_float = !written && vxp_cg__narrow_float((vxp_elem)var->t.elem);
  vxp_sb__printf(G->ctx, sb, "%s%s[", as_float ? "((float)" : "", var->cname);
  for (uint32_t k = 1; k < n; k++)
    vxp_sb__append(G->ctx, sb, "(", 1);
  for (uint32_t k = 0; k < n; k++) {
    TSNode idx = indices[n - 1 - k];
    cg_value iv;
    memset(&iv, 0, sizeof(iv));
    vxp_sb__append(G->ctx, sb, "(int64_t)(", 10);
    if (!vxp_cg__expr(G, idx, sb, &iv)) return false;
    if (iv.kind != CG_SCALAR) return vxp_cg__refuse(G, idx, "an index that is not a scalar");
    vxp_sb__append(G->ctx, sb, ")", 1);
    if (k + 1 < n)
      vxp_sb__printf(G->ctx, sb, ") * %lluLL + ", (unsigned long long)var->t.dims[k + 1]);
  }
  vxp_sb__append(G->ctx, sb, as_float ? "])" : "]", as_float ? 2 : 1);
  v->kind = CG_SCALAR;
  v->t.elem = var->t.elem;
  return true;
}

/* ------------------------------------------------------------------ calls */

static bool call(cg *G, TSNode node, vxp_sb *sb, cg_value *v) {
  TSNode fn_node = vxp_cg__field(node, G->F->function);
  TSNode args = vxp_cg__field(node, G->F->arguments);
  size_t len;
  bool generic = vxp_cg__is(fn_node, G->S->generic_name); /* `stage<1024, f32>(..)` */
  const char *name = vxp_cg__text(G, generic ? vxp_cg__field(fn_node, G->F->name) : fn_node, &len);
  if (!vxp_cg__is(fn_node, G->S->identifier) && !generic) {
    char buf[64];
    return vxp_cg__refuse(G, node,
                          "a call through a %s is outside the CUDA code generation "
                          "subset (direct calls of this program's functions only)",
                          vxp_cg__construct(G, fn_node, buf, sizeof(buf)));
  }
  if (G->in_kernel)
    return vxp_cg__refuse(G, node, "a call inside a `spawn` region's kernel ('%.*s')", (int)len,
                          name);
  uint32_t argc = vxp_node__named_count(args);
  /* The callee the analysis resolved at this call site: the instance of a generic one. */
  cg_fn *callee = NULL;
  uint32_t cstart = ts_node_start_byte(node), cend = ts_node_end_byte(node);
  const vxp_analysed_fn *caller_af = &G->an->functions.items[G->fn->analysed];
  for (uint32_t i = 0; i < caller_af->call_count && !callee; i++) {
    const vxp_call_site *cs = &G->an->calls.items[caller_af->call_first + i];
    if (cs->start_byte != cstart || cs->end_byte != cend || cs->callee == VXP_NONE) continue;
    callee = vxp_cg__index_fn_of(G, cs->callee);
  }
  if (!callee && !generic) callee = vxp_cg__index_fn_named(G, name, len);
  if (!callee && generic)
    return vxp_cg__refuse(G, node, "the analysis made no instance for this call of '%.*s'",
                          (int)len, name);
  if (!callee && len == 5 && memcmp(name, "print", 5) == 0 && !vxp_cg__lookup(G, name, len)) {
    if (argc != 1) return vxp_cg__refuse(G, node, "print takes one value");
    TSNode arg = ts_node_named_child(args, 0);
    vxp_sb__append(G->ctx, sb, "vxp_print(", 10);
    cg_value a;
    memset(&a, 0, sizeof(a));
    if (vxp_cg__is(arg, G->S->string)) {
      size_t sl;
      const char *s = vxp_cg__text(G, arg, &sl);
      vxp_sb__append(G->ctx, sb, s, sl);
    } else {
      if (!vxp_cg__expr(G, arg, sb, &a)) return false;
      if (a.kind != CG_SCALAR) return vxp_cg__refuse(G, arg, "print of a whole tensor");
    }
    vxp_sb__append(G->ctx, sb, ")", 1);
    v->kind = CG_SCALAR;
    return true;
  }
  if (!callee)
    return vxp_cg__refuse(G, node,
                          "call of '%.*s': not a function of this program (only "
                          "`print` and the program's own functions are generated)",
                          (int)len, name);
  /* The callee's parameters as its item was read (cg_param): that item may lie in a
   * window of the text whose tree is gone. */
  uint32_t pcount = callee->param_count;
  if (pcount != argc)
    return vxp_cg__refuse(G, node, "'%.*s' takes %u arguments, not %u", (int)len, name, pcount,
                          argc);
  /* A returned host tensor becomes a buffer of the caller (freed after the statement
   * unless a `let` binds it); a narrow float result is read as float. */
  uint32_t adopted = 0;
  if (callee->returns_tensor) {
    adopted = vxp_cg__add_buffer(G, false, VXP_NONE, callee->return_t->bytes);
    vxp_sb__printf(G->ctx, sb, "(%s *)vxp_host_adopt(&vxb%u, ",
                   vxp_cg__storage_ctype((vxp_elem)callee->return_t->elem), adopted);
  } else if (vxp_cg__narrow_ctype(callee->return_ctype)) { /* a scalar's: a tensor's is above */
    vxp_sb__append(G->ctx, sb, "((float)", 8);
  }
  vxp_sb__printf(G->ctx, sb, "%s(", callee->cname);
  for (uint32_t i = 0; i < argc; i++) {
    TSNode arg = ts_node_named_child(args, i);
    const cg_param *param = &callee->params[i];
    if (vxp_cg__is(arg, G->S->reference_expression)) arg = vxp_cg__field(arg, G->F->value);
    if (i) vxp_sb__append(G->ctx, sb, ", ", 2);
    size_t arg_mark = sb->len;
    cg_value a;
    memset(&a, 0, sizeof(a));
    if (!vxp_cg__expr(G, arg, sb, &a)) return false;
    if (param->tensor) {
      /* The parameter's shape is the callee's, folded with its environment; one that does
       * not fold is refused here as folding it here would refuse it. */
      if (!param->folded) {
        for (size_t k = 0; k < param->refusal.len && vxp_cg__ok(G); k++)
          if (!vxp_diag__copy(G->ctx, G->diags, &param->refusal.items[k])) G->rc = VXP_ENOMEM;
        return false;
      }
      cg_tensor pt = param->t;
      pt.device = param->device; /* `Ref<T, Memory::HBM>` places it, as the parameter does */
      if (a.kind != CG_TENSOR || a.t.elem != pt.elem || a.t.count != pt.count ||
          a.t.device != pt.device)
        return vxp_cg__refuse(G, arg,
                              "argument %u of '%.*s' is not a tensor of the parameter's "
                              "type and place",
                              i + 1, (int)len, name);
    } else if (a.kind != CG_SCALAR) {
      return vxp_cg__refuse(G, arg, "a tensor passed where '%.*s' takes a scalar", (int)len, name);
    } else {
      /* A narrow float parameter: convert explicitly (fp8's constructors are explicit). */
      const char *pct = param->ctype;
      if (vxp_cg__narrow_ctype(pct)) {
        vxp_sb tmp;
        memset(&tmp, 0, sizeof(tmp));
        vxp_sb__printf(G->ctx, &tmp, "(%s)(float)(%s)", pct, sb->data + arg_mark);
        sb->len = arg_mark;
        if (sb->data) sb->data[arg_mark] = '\0';
        vxp_sb__append(G->ctx, sb, tmp.data ? tmp.data : "", tmp.len);
        vxp_cg__sb_done(G, &tmp);
      }
    }
  }
  vxp_sb__append(G->ctx, sb, ")", 1);
  v->kind = CG_SCALAR;
  if (callee->returns_tensor) {
    vxp_sb__append(G->ctx, sb, ")", 1);
    v->kind = CG_TENSOR;
    v->t = *callee->return_t;
    v->owner_depth = G->depth;
    v->buffer = (int32_t)adopted + 1;
    vxp_cg__pend(G, adopted);
  } else if (vxp_cg__narrow_ctype(callee->return_ctype)) {
    vxp_sb__append(G->ctx, sb, ")", 1);
  }
  return vxp_cg__ok(G);
}

/* ------------------------------------------------------------------ tensors */

static bool transfer(cg *G, TSNode node, vxp_sb *sb, cg_value *v) {
  TSNode value = vxp_cg__field(node, G->F->value);
  TSNode space = vxp_cg__field(node, G->F->space);
  if (G->in_kernel)
    return vxp_cg__refuse(G, node,
                          "a `transfer` inside a `spawn` region's kernel: place tiles "
                          "before the region's element statements");
  vxp_sb source;
  memset(&source, 0, sizeof(source));
  cg_value src;
  memset(&src, 0, sizeof(src));
  bool ok = vxp_cg__expr(G, value, &source, &src);
  if (ok && src.kind != CG_TENSOR)
    ok = vxp_cg__refuse(G, value, "`transfer` of something that is not a tensor");
  if (ok && !vxp_cg__is(space, G->S->memory_path) && !vxp_cg__is(space, G->S->topology_path))
    ok = vxp_cg__refuse(G, space,
                        "a `transfer` destination that is not `Memory::S` or `Topology::X`");
  if (ok) {
    const vxp_record *recs[8];
    size_t n = vxp_cg__records_at(G, node, recs, VXP__ARRAY_LEN(recs));
    if (n > VXP__ARRAY_LEN(recs))
      ok = vxp_cg__refuse(G, node, "a transfer route of more than 8 hops");
    else
      ok = vxp_cg__place(G, node, recs, n, &src.t, vxp_cg__place_is_host(G, space), source.data,
                         &src.t, sb, v);
  }
  vxp_cg__sb_done(G, &source);
  return ok;
}

/* A host tensor made by `Tensor<..>::new()` / `::uninit()` / `::fill(v)`. A placed
 * constructor is a tile only as the initializer of a `let` (see stmt.c). */
static bool constructor(cg *G, TSNode node, vxp_sb *sb, cg_value *v) {
  TSNode type = vxp_cg__field(node, G->F->type);
  if (G->in_kernel)
    return vxp_cg__refuse(G, node, "a tensor constructor inside a `spawn` region's kernel");
  if (!vxp_cg__is(type, G->S->tensor_type))
    return vxp_cg__refuse(G, node, "a constructor of something other than `Tensor<..>`");
  cg_tensor t;
  if (!vxp_cg__tensor_type(G, type, &t)) return false;
  if (t.device)
    return vxp_cg__refuse(G, node,
                          "a placed tensor constructor outside a `let` initializer: "
                          "the analysis records no tile for it");
  vxp_sb ptr;
  memset(&ptr, 0, sizeof(ptr));
  if (!vxp_cg__place(G, node, NULL, 0, &t, true, NULL, NULL, &ptr, v)) {
    vxp_cg__sb_done(G, &ptr);
    return false;
  }
  bool ok = vxp_cg__initialise(G, node, &t, ptr.data, sb);
  vxp_cg__sb_done(G, &ptr);
  /* Nothing binds it yet: freed after the statement unless a `let` takes it. */
  if (ok && v->buffer) vxp_cg__pend(G, (uint32_t)(v->buffer - 1));
  return ok;
}

/* Wrap a freshly allocated pointer in its constructor's initialisation: zero for `new`,
 * the value for `fill`, nothing for `uninit`. */
bool vxp_cg__initialise(cg *G, TSNode ctor, const cg_tensor *t, const char *ptr, vxp_sb *sb) {
  size_t len;
  const char *method = vxp_cg__text(G, vxp_cg__field(ctor, G->F->method), &len);
  TSNode args = vxp_cg__field(ctor, G->F->arguments);
  uint32_t argc = vxp_node__named_count(args);
  const char *ctype = vxp_cg__storage_ctype((vxp_elem)t->elem);
  if (len == 6 && memcmp(method, "uninit", 6) == 0 && argc == 0) {
    vxp_sb__printf(G->ctx, sb, "%s", ptr);
    return true;
  }
  /* `Tensor<f32>([4, 4])`: its one argument is the shape, which lowering gave the type and
   * the analysis folded (the tile's fact, or the host type's dims as `t` holds them). The
   * elements start as `new()`'s do: zero, a value every reading of the form admits. */
  bool shaped = len == 0 && argc == 1 &&
                vxp_cg__is(ts_node_named_child(args, 0), G->S->array_expression) &&
                ts_node_is_null(vxp_cg__field(vxp_cg__field(ctor, G->F->type), G->F->dims));
  if ((len == 3 && memcmp(method, "new", 3) == 0 && argc == 0) || shaped) {
    vxp_sb__printf(G->ctx, sb, "(%s *)vxp_zero(%s, %lluull, %d)", ctype, ptr,
                   (unsigned long long)t->bytes, t->device ? 1 : 0);
    return true;
  }
  if (len == 4 && memcmp(method, "fill", 4) == 0 && argc == 1) {
    const char *st = vxp_cg__scalar_ctype((vxp_elem)t->elem);
    if (!st || t->elem == VXP_ELEM_BOOL)
      return vxp_cg__refuse(G, ctor, "`fill` of a %s tensor: its elements have no C type here",
                            vxp_elem__name((vxp_elem)t->elem));
    vxp_sb__printf(G->ctx, sb, "vxp_fill<%s>(%s, %lluull, (%s)(%s", st, ptr,
                   (unsigned long long)t->count, st,
                   vxp_cg__narrow_float((vxp_elem)t->elem) ? "float)(" : "");
    cg_value x;
    memset(&x, 0, sizeof(x));
    if (!vxp_cg__expr(G, ts_node_named_child(args, 0), sb, &x)) return false;
    if (x.kind != CG_SCALAR) return vxp_cg__refuse(G, ctor, "`fill` with a tensor");
    vxp_sb__printf(G->ctx, sb, "), %d)", t->device ? 1 : 0);
    return true;
  }
  return vxp_cg__refuse(G, ctor,
                        "tensor constructor `::%.*s` with %u arguments: the subset has "
                        "`new()`, `uninit()`, `fill(v)` and `Tensor<T>([dims])`",
                        (int)len, method, argc);
}

/* ------------------------------------------------------------------ dispatch */

static bool expr_inner(cg *G, TSNode node, vxp_sb *sb, cg_value *v) {
  const vxp_symbols *S = G->S;
  TSSymbol sym = ts_node_symbol(node);
  if (sym == S->identifier) return identifier(G, node, sb, v);
  if (sym == S->number) return number(G, node, sb, v);
  if (sym == S->boolean) {
    size_t len;
    const char *t = vxp_cg__text(G, node, &len);
    vxp_sb__append(G->ctx, sb, t, len);
    v->kind = CG_SCALAR;
    return true;
  }
  if (sym == S->parenthesized_expression) {
    TSNode inner = ts_node_named_child(node, 0);
    if (ts_node_is_null(inner)) return vxp_cg__refuse(G, node, "empty parentheses");
    cg_value x;
    memset(&x, 0, sizeof(x));
    size_t mark = sb->len;
    if (!vxp_cg__expr(G, inner, sb, &x)) return false;
    if (x.kind == CG_SCALAR) {
      /* Keep the grouping: re-wrap what the inner expression wrote. */
      vxp_sb tmp;
      memset(&tmp, 0, sizeof(tmp));
      vxp_sb__printf(G->ctx, &tmp, "(%s)", sb->data + mark);
      sb->len = mark;
      if (sb->data) sb->data[mark] = '\0';
      vxp_sb__append(G->ctx, sb, tmp.data ? tmp.data : "", tmp.len);
      vxp_cg__sb_done(G, &tmp);
    }
    *v = x;
    return true;
  }
  if (sym == S->binary_expression) return binary(G, node, sb, v);
  if (sym == S->unary_expression) return unary(G, node, sb, v);
  if (sym == S->cast_expression) return cast(G, node, sb, v);
  if (sym == S->index_expression) return element(G, node, sb, v);
  if (sym == S->call_expression) return call(G, node, sb, v);
  if (sym == S->transfer_expression) return transfer(G, node, sb, v);
  if (sym == S->tensor_constructor) return constructor(G, node, sb, v);
  if (sym == S->string) {
    size_t len;
    const char *t = vxp_cg__text(G, node, &len);
    vxp_sb__append(G->ctx, sb, t, len);
    v->kind = CG_STRING;
    return true;
  }
  if (sym == S->reference_expression)
    return vxp_cg__refuse(G, node, "a reference `&..` outside a call argument");
  if (sym == S->if_expression || sym == S->match_expression || sym == S->unsafe_block ||
      sym == S->spawn_expression)
    return vxp_cg__refuse(G, node,
                          "a block used as a value: the subset generates `if`, "
                          "`match`, `unsafe` and `spawn` as statements");
  char buf[64];
  return vxp_cg__refuse(G, node, "%s is outside the CUDA code generation subset",
                        vxp_cg__construct(G, node, buf, sizeof(buf)));
}

bool vxp_cg__expr(cg *G, TSNode node, vxp_sb *sb, cg_value *v) {
  if (!vxp_cg__ok(G)) return false;
  if (ts_node_is_null(node) || ts_node_is_missing(node) || vxp_node__is_error(node))
    return vxp_cg__refuse(G, node, "an incomplete expression");
  if (G->nesting >= VXP_MAX_NESTING)
    return vxp_cg__refuse(G, node, "an expression nested more than %d levels deep",
                          VXP_MAX_NESTING);
  G->nesting++;
  bool ok = expr_inner(G, node, sb, v);
  G->nesting--;
  if (sb->failed) G->rc = VXP_ENOMEM;
  return ok && vxp_cg__ok(G);
}
