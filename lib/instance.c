/* SPDX-License-Identifier: Apache-2.0 */
/* instance.c - call resolution and generic instances (see instance.h). */
#include "instance.h"

#include <stdio.h>

#include "builtins.h"
#include "context.h"
#include "program.h"
#include "source.h"
#include "strbuf.h"

/* name_flags bits. */
#define NAME_METHOD 1u  /* some impl block defines a method of this (unqualified) name */
#define NAME_ENUM 2u    /* an enum of the program */
#define NAME_EXTERN 4u  /* a function declared in an `extern` block */
#define NAME_RUNAWAY 8u /* E3032 was reported for this generic function */
/* A callee path's classification, computed at its first call and kept: a program calls
 * `print` (or any one name) many times, and the answer depends on the name alone. */
#define NAME_PATH_SEEN 16u    /* the bits below and path_target are set */
#define NAME_PATH_BUILTIN 32u /* the language's (print, Vec::new, an enum constructor) */

/* The bindings of a prospective instance, before it exists. */
typedef struct instance_key {
  uint32_t model_fn;
  vxp_const_binding *consts;
  size_t const_count;
  vxp_type_binding *types;
  size_t type_count;
} instance_key;

/* ------------------------------------------------------------------ model helpers */

static const char *name_str(const vxp_resolver *R, vxp_name n) {
  return vxp_strtab__str(&R->m->names, n);
}

/* The function a closure is nested in, through every level; the function itself
 * otherwise. */
static uint32_t root_of(const vxp_model *m, uint32_t fn) {
  for (unsigned guard = 0; guard < 1u << 20; guard++) {
    const vxp_function *f = &m->functions.items[fn];
    if (!f->is_closure || f->parent == VXP_NONE) return fn;
    fn = f->parent;
  }
  return fn;
}

/* A generic function, or a closure inside one, is analysed only per instance. */
static bool needs_instance(const vxp_model *m, uint32_t fn) {
  return m->functions.items[root_of(m, fn)].generics.len > 0;
}

/* ------------------------------------------------------------------ set-up */

int vxp_resolver__init(vxp_resolver *R, vxp_analysis *an) {
  memset(R, 0, sizeof(*R));
  R->an = an;
  R->m = &an->prog->model;
  R->src = an->prog->src;
  vxp_context *ctx = an->ctx;
  const vxp_model *m = R->m;
  size_t names = m->names.strings.len;
  size_t fns = m->functions.len;
  R->fn_by_name = vxp_ctx__malloc(ctx, (names ? names : 1) * sizeof(uint32_t));
  R->name_flags = vxp_ctx__calloc(ctx, names ? names : 1, 1);
  R->analysed_of = vxp_ctx__malloc(ctx, (fns ? fns : 1) * sizeof(uint32_t));
  R->path_target = vxp_ctx__malloc(ctx, (names ? names : 1) * sizeof(uint32_t));
  if (!R->fn_by_name || !R->name_flags || !R->analysed_of || !R->path_target) return VXP_ENOMEM;
  for (size_t i = 0; i < names; i++)
    R->fn_by_name[i] = VXP_NONE;
  for (size_t f = fns; f-- > 0;)
    R->fn_by_name[m->functions.items[f].name] = (uint32_t)f;
  for (size_t i = 0; i < m->enums.len; i++)
    R->name_flags[m->enums.items[i]] |= NAME_ENUM;
  for (size_t i = 0; i < m->externs.len; i++)
    R->name_flags[m->externs.items[i]] |= NAME_EXTERN;
  for (size_t f = 0; f < fns; f++) {
    const vxp_function *fn = &m->functions.items[f];
    if (fn->owner == VXP_NAME_NONE) continue;
    /* `Type::method`: the method's own name is interned only when some call names it. */
    const char *q = name_str(R, fn->name), *sep = strrchr(q, ':');
    const char *method = sep ? sep + 1 : q;
    vxp_name n = vxp_strtab__find(&m->names, method, strlen(method));
    if (n != VXP_NAME_NONE) R->name_flags[n] |= NAME_METHOD;
  }
  for (size_t f = 0; f < fns; f++) {
    R->analysed_of[f] = VXP_NONE;
    if (needs_instance(m, (uint32_t)f)) continue;
    vxp_analysed_fn af;
    memset(&af, 0, sizeof(af));
    af.model_fn = (uint32_t)f;
    af.name = name_str(R, m->functions.items[f].name);
    af.origin_call = VXP_NONE;
    if (!array_push(ctx, &an->functions, af)) return VXP_ENOMEM;
    R->analysed_of[f] = (uint32_t)(an->functions.len - 1);
  }
  return VXP_OK;
}

void vxp_resolver__free(vxp_resolver *R) {
  if (!R->an) return;
  vxp_context *ctx = R->an->ctx;
  vxp_ctx__free(ctx, R->fn_by_name);
  vxp_ctx__free(ctx, R->name_flags);
  vxp_ctx__free(ctx, R->analysed_of);
  vxp_ctx__free(ctx, R->path_target);
  vxp_ctx__free(ctx, R->table);
  memset(R, 0, sizeof(*R));
}

/* ------------------------------------------------------------------ element types */

static const vxp_type_binding *type_binding(const vxp_analysis *an, uint32_t fn, vxp_name param) {
  const vxp_analysed_fn *af = &an->functions.items[fn];
  for (uint32_t i = 0; i < af->type_count; i++) {
    const vxp_type_binding *b = &an->type_binds.items[af->type_first + i];
    if (b->param == param) return b;
  }
  return NULL;
}

vxp_elem vxp_instance__elem(const vxp_analysis *an, uint32_t fn, const vxp_tensor_type *t) {
  if (an->retype) { /* --retype: the tile's role decides its element (retype.c) */
    const vxp_model *m = &an->prog->model;
    uintptr_t first = (uintptr_t)m->types.items, at = (uintptr_t)t;
    size_t i = (at - first) / sizeof(*t);
    if (at >= first && i < m->types.len && an->retype[i]) return (vxp_elem)an->retype[i];
  }
  if (t->elem != VXP_ELEM_UNKNOWN || fn == VXP_NONE) return (vxp_elem)t->elem;
  const vxp_type_binding *b = type_binding(an, fn, t->elem_name);
  return b ? (vxp_elem)b->elem : VXP_ELEM_UNKNOWN;
}

/* ------------------------------------------------------------------ arguments */

/* The constant environment of analysed function `fn`. */
static vxp_const_env env_of(const vxp_analysis *an, uint32_t fn) {
  const vxp_analysed_fn *af = &an->functions.items[fn];
  vxp_const_env env;
  env.model = &an->prog->model;
  env.bindings = af->const_count ? an->const_binds.items + af->const_first : NULL;
  env.binding_count = af->const_count;
  env.overrides = an->overrides.items;
  env.override_count = an->overrides.len;
  env.consts = an->const_table;
  return env;
}

static vxp_const_binding const_from_fold(vxp_name param, vxp_fold f) {
  vxp_const_binding b;
  memset(&b, 0, sizeof(b));
  b.name = param;
  if (f.status == VXP_FOLD_OK) {
    b.value = f.value;
    b.negative = f.negative;
  } else {
    b.unknown = true;
  }
  return b;
}

/* A type written as a generic argument (`i32`, `Point`, or the caller's own `T`). */
static vxp_type_binding type_from_cexpr(const vxp_resolver *R, uint32_t caller, vxp_name param,
                                        uint32_t cx) {
  vxp_type_binding b = {param, VXP_ELEM_UNKNOWN, VXP_NAME_NONE};
  if (cx == VXP_NONE || cx >= R->m->cexprs.len) return b;
  const vxp_cexpr *c = &R->m->cexprs.items[cx];
  if (c->kind != VXP_CX_NAME) return b;
  const vxp_type_binding *outer = type_binding(R->an, caller, c->name);
  if (outer) {
    b.elem = outer->elem;
    b.nominal = outer->nominal;
    return b;
  }
  const char *s = name_str(R, c->name);
  b.elem = (uint8_t)vxp_elem__from_name(s, strlen(s));
  if (b.elem == VXP_ELEM_UNKNOWN) b.nominal = c->name;
  return b;
}

/* The element type of a tensor type as the caller sees it (its own instance's binding of
 * a type parameter included). */
static vxp_type_binding elem_as_seen(const vxp_resolver *R, uint32_t caller, vxp_name param,
                                     const vxp_tensor_type *t) {
  vxp_type_binding b = {param, (uint8_t)vxp_instance__elem(R->an, caller, t), VXP_NAME_NONE};
  return b;
}

/* Infer generic parameter `g` of `callee` from the call's arguments: a parameter typed
 * `g` takes a literal's type or a struct's name; a tensor parameter whose element is `g`
 * takes the argument's element type, and one with a dimension `g` the argument's extent
 * there (folded in the caller). The first argument that tells wins. */
static bool infer(const vxp_resolver *R, uint32_t caller, const vxp_call_event *call,
                  const vxp_function *callee, const vxp_generic_param *g, vxp_const_binding *c,
                  vxp_type_binding *t) {
  const vxp_model *m = R->m;
  vxp_const_env env = env_of(R->an, caller);
  size_t n = callee->params.len < call->args_count ? callee->params.len : call->args_count;
  for (size_t j = 0; j < n; j++) {
    const vxp_param *p = &callee->params.items[j];
    const vxp_call_arg *a = &m->call_args.items[call->args_first + j];
    if (!g->is_const && p->type_name == g->name && p->type == VXP_NONE) {
      if (a->scalar != VXP_ELEM_UNKNOWN)
        t->elem = a->scalar;
      else if (a->nominal != VXP_NAME_NONE)
        t->nominal = a->nominal;
      else
        continue;
      return true;
    }
    if (p->type == VXP_NONE || a->type == VXP_NONE) continue;
    const vxp_tensor_type *pt = &m->types.items[p->type], *at = &m->types.items[a->type];
    if (!g->is_const) {
      if (pt->elem != VXP_ELEM_UNKNOWN || pt->elem_name != g->name) continue;
      vxp_type_binding seen = elem_as_seen(R, caller, g->name, at);
      if (seen.elem == VXP_ELEM_UNKNOWN) continue;
      *t = seen;
      return true;
    }
    if (!pt->has_shape || !at->has_shape || pt->dims_count != at->dims_count) continue;
    for (uint32_t d = 0; d < pt->dims_count; d++) {
      const vxp_cexpr *dim = &m->cexprs.items[m->dim_list.items[pt->dims_first + d]];
      if (dim->kind != VXP_CX_NAME || dim->name != g->name) continue;
      vxp_fold f = vxp_consteval__fold_signed(&env, m->dim_list.items[at->dims_first + d]);
      if (f.status != VXP_FOLD_OK) continue;
      *c = const_from_fold(g->name, f);
      return true;
    }
  }
  return false;
}

/* The bindings of an instance of generic function `fn` for `call` made by `caller`. */
static void bind_generics(const vxp_resolver *R, uint32_t caller, const vxp_call_event *call,
                          uint32_t fn, instance_key *key) {
  const vxp_model *m = R->m;
  const vxp_function *callee = &m->functions.items[fn];
  vxp_const_env env = env_of(R->an, caller);
  for (size_t i = 0; i < callee->generics.len; i++) {
    const vxp_generic_param *g = &callee->generics.items[i];
    vxp_const_binding c;
    memset(&c, 0, sizeof(c));
    c.name = g->name;
    c.unknown = true;
    vxp_type_binding t = {g->name, VXP_ELEM_UNKNOWN, VXP_NAME_NONE};
    if (i < call->generic_count) {
      uint32_t cx = m->dim_list.items[call->generic_first + i];
      if (g->is_const)
        c = const_from_fold(g->name, vxp_consteval__fold_signed(&env, cx));
      else
        t = type_from_cexpr(R, caller, g->name, cx);
    } else {
      infer(R, caller, call, callee, g, &c, &t);
    }
    if (g->is_const)
      key->consts[key->const_count++] = c;
    else
      key->types[key->type_count++] = t;
  }
}

/* ------------------------------------------------------------------ the instance table */

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0x100000001B3ull;
}

static uint64_t key_hash(const instance_key *k) {
  uint64_t h = mix(0xcbf29ce484222325ull, k->model_fn);
  for (size_t i = 0; i < k->const_count; i++) {
    const vxp_const_binding *c = &k->consts[i];
    h = mix(h, c->unknown ? 0x5555u : (c->value * 2 + c->negative));
  }
  for (size_t i = 0; i < k->type_count; i++)
    h = mix(h, ((uint64_t)k->types[i].elem << 32) ^ k->types[i].nominal);
  return h;
}

static bool same_const(const vxp_const_binding *a, const vxp_const_binding *b) {
  if (a->unknown || b->unknown) return a->unknown == b->unknown;
  return a->value == b->value && (a->negative == b->negative || a->value == 0);
}

static bool key_matches(const vxp_resolver *R, const instance_key *k, uint32_t fn) {
  const vxp_analysis *an = R->an;
  const vxp_analysed_fn *af = &an->functions.items[fn];
  if (af->model_fn != k->model_fn || af->const_count != k->const_count ||
      af->type_count != k->type_count)
    return false;
  for (size_t i = 0; i < k->const_count; i++) {
    if (!same_const(&an->const_binds.items[af->const_first + i], &k->consts[i])) return false;
  }
  for (size_t i = 0; i < k->type_count; i++) {
    const vxp_type_binding *t = &an->type_binds.items[af->type_first + i];
    if (t->elem != k->types[i].elem || t->nominal != k->types[i].nominal) return false;
  }
  return true;
}

static uint32_t table_find(const vxp_resolver *R, const instance_key *k, uint64_t h) {
  if (!R->table) return VXP_NONE;
  size_t mask = R->table_size - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    uint32_t slot = R->table[i];
    if (slot == 0) return VXP_NONE;
    if (key_matches(R, k, slot - 1)) return slot - 1;
  }
}

static instance_key key_of(const vxp_resolver *R, uint32_t fn) {
  const vxp_analysed_fn *af = &R->an->functions.items[fn];
  instance_key k = {
      af->model_fn, af->const_count ? R->an->const_binds.items + af->const_first : NULL,
      af->const_count, af->type_count ? R->an->type_binds.items + af->type_first : NULL,
      af->type_count};
  return k;
}

static int table_insert(vxp_resolver *R, uint32_t fn, uint64_t h) {
  if ((R->instance_count + 1) * 2 > R->table_size) {
    size_t size = R->table_size ? R->table_size * 2 : 64;
    uint32_t *grown = vxp_ctx__calloc(R->an->ctx, size, sizeof(uint32_t));
    if (!grown) return VXP_ENOMEM;
    for (size_t i = 0; i < R->table_size; i++) {
      uint32_t slot = R->table[i];
      if (!slot) continue;
      instance_key k = key_of(R, slot - 1);
      size_t j = (size_t)key_hash(&k) & (size - 1);
      while (grown[j])
        j = (j + 1) & (size - 1);
      grown[j] = slot;
    }
    vxp_ctx__free(R->an->ctx, R->table);
    R->table = grown;
    R->table_size = size;
  }
  size_t mask = R->table_size - 1, i = (size_t)h & mask;
  while (R->table[i])
    i = (i + 1) & mask;
  R->table[i] = fn + 1;
  R->instance_count++;
  return VXP_OK;
}

/* ------------------------------------------------------------------ instance names */

/* `base<args>`, where `base` is the function's name; a closure instance is named after its
 * enclosing instance: `root<args>` then the rest of the closure's name. */
static char *instance_name(const vxp_resolver *R, const instance_key *k) {
  vxp_context *ctx = R->an->ctx;
  const vxp_model *m = R->m;
  uint32_t root = root_of(m, k->model_fn);
  const vxp_function *rf = &m->functions.items[root];
  const char *root_name = name_str(R, rf->name);
  vxp_sb t = {0};
  vxp_sb__puts(ctx, &t, root_name);
  vxp_sb__puts(ctx, &t, "<");
  size_t ci = 0, ti = 0;
  for (size_t i = 0; i < rf->generics.len; i++) {
    if (i) vxp_sb__puts(ctx, &t, ", ");
    if (rf->generics.items[i].is_const) {
      const vxp_const_binding *c = ci < k->const_count ? &k->consts[ci++] : NULL;
      if (!c || c->unknown)
        vxp_sb__puts(ctx, &t, "?");
      else
        vxp_sb__printf(ctx, &t, "%s%llu", c->negative && c->value ? "-" : "",
                       (unsigned long long)c->value);
    } else {
      const vxp_type_binding *b = ti < k->type_count ? &k->types[ti++] : NULL;
      if (b && b->elem != VXP_ELEM_UNKNOWN)
        vxp_sb__puts(ctx, &t, vxp_elem__name((vxp_elem)b->elem));
      else if (b && b->nominal != VXP_NAME_NONE)
        vxp_sb__puts(ctx, &t, name_str(R, b->nominal));
      else
        vxp_sb__puts(ctx, &t, "?");
    }
  }
  vxp_sb__puts(ctx, &t, ">");
  /* A closure is named `root::binding` (lower.c), so its name extends the root's. */
  const char *own = name_str(R, m->functions.items[k->model_fn].name);
  if (root != k->model_fn && strncmp(own, root_name, strlen(root_name)) == 0)
    vxp_sb__puts(ctx, &t, own + strlen(root_name));
  else if (root != k->model_fn)
    vxp_sb__puts(ctx, &t, "::{closure}");
  /* Kept in the analysis' arena: it goes with the analysis. */
  char *name = t.failed ? NULL : vxp_arena__strdup(ctx, &R->an->arena, vxp_sb__text(&t));
  vxp_sb__free(ctx, &t);
  return name;
}

void vxp_instance__vxc_spelling(const vxp_analysis *an, uint32_t fn, vxp_sb *out) {
  if (!an || fn >= an->functions.len) return;
  vxp_context *ctx = an->ctx;
  const vxp_analysed_fn *af = &an->functions.items[fn];
  const vxp_model *m = &an->prog->model;
  const vxp_function *f =
      af->model_fn < m->functions.len ? &m->functions.items[af->model_fn] : NULL;
  if (!f || f->is_closure) {
    vxp_sb__puts(ctx, out, af->name);
    return;
  }
  /* `Type::method` is vxc's `Type$method`. */
  const char *name = vxp_strtab__str(&m->names, f->name);
  for (const char *p = name; *p; p++) {
    if (p[0] == ':' && p[1] == ':') {
      vxp_sb__putc(ctx, out, '$');
      p++;
    } else {
      vxp_sb__putc(ctx, out, *p);
    }
  }
  if (!af->is_instance) return;
  uint32_t ci = 0, ti = 0;
  for (size_t i = 0; i < f->generics.len; i++) {
    if (f->generics.items[i].is_const) {
      const vxp_const_binding *c =
          ci < af->const_count ? &an->const_binds.items[af->const_first + ci++] : NULL;
      if (!c || c->unknown)
        vxp_sb__puts(ctx, out, "$const$?");
      else
        vxp_sb__printf(ctx, out, "$const$%s%llu", c->negative && c->value ? "-" : "",
                       (unsigned long long)c->value);
    } else {
      const vxp_type_binding *b =
          ti < af->type_count ? &an->type_binds.items[af->type_first + ti++] : NULL;
      vxp_sb__putc(ctx, out, '$');
      if (b && b->elem != VXP_ELEM_UNKNOWN)
        vxp_sb__puts(ctx, out, vxp_elem__name((vxp_elem)b->elem));
      else if (b && b->nominal != VXP_NAME_NONE)
        vxp_sb__puts(ctx, out, vxp_strtab__str(&m->names, b->nominal));
      else
        vxp_sb__puts(ctx, out, "?");
    }
  }
}

/* ------------------------------------------------------------------ resolution */

/* Find or make the instance `key`, instantiated by `caller` at call site `call_index`.
 * Returns its analysed index, or VXP_NONE when a limit stopped it (with `why`). */
static int instantiate(vxp_resolver *R, uint32_t caller, uint32_t call_index,
                       const vxp_call_event *call, const instance_key *key, uint32_t *out,
                       const char **why) {
  vxp_analysis *an = R->an;
  vxp_context *ctx = an->ctx;
  uint64_t h = key_hash(key);
  *out = table_find(R, key, h);
  if (*out != VXP_NONE) return VXP_OK;
  uint32_t depth = an->functions.items[caller].depth + 1;
  const vxp_function *root = &R->m->functions.items[root_of(R->m, key->model_fn)];
  if (depth > VXP_MAX_INSTANCE_DEPTH) {
    *why = "instantiation stopped: generic calls nested too deep (E3032)";
    if (!(R->name_flags[root->name] & NAME_RUNAWAY)) {
      R->name_flags[root->name] |= NAME_RUNAWAY;
      vxp_diagnostic *d = vxp_diag__add(
          ctx, &an->diags, VXP_SEVERITY_ERROR, "E3032", R->src, call->start_byte, call->end_byte,
          "instantiating '%s' went %d generic calls deep and was stopped: each instance calls "
          "it again with new arguments and no `if comptime` prunes the call",
          name_str(R, root->name), VXP_MAX_INSTANCE_DEPTH);
      if (!d) return VXP_ENOMEM;
      d->function = an->functions.items[caller].name;
      if (!vxp_diag__note(ctx, d, false, NULL, 0, 0, "the deepest instance reached is '%s'",
                          an->functions.items[caller].name))
        return VXP_ENOMEM;
    }
    return VXP_OK;
  }
  size_t events = R->m->functions.items[key->model_fn].events.len;
  bool too_many = R->instance_count >= VXP_MAX_INSTANCES;
  if (too_many || R->instance_events + events > VXP_MAX_INSTANCE_EVENTS) {
    *why = "instantiation stopped: too many generic instances (VXP0030)";
    if (!R->reported_count_limit) {
      R->reported_count_limit = true;
      vxp_diagnostic *d =
          too_many
              ? vxp_diag__add(ctx, &an->diags, VXP_SEVERITY_ERROR, "VXP0030", R->src,
                              call->start_byte, call->end_byte,
                              "the program needs more than %d generic instances; vxpeak stopped "
                              "instantiating here, so what the rest would place is not analysed "
                              "and the program cannot be admitted",
                              VXP_MAX_INSTANCES)
              : vxp_diag__add(ctx, &an->diags, VXP_SEVERITY_ERROR, "VXP0030", R->src,
                              call->start_byte, call->end_byte,
                              "the generic instances of the program hold more than %u "
                              "placements, calls and scopes together; vxpeak stopped "
                              "instantiating here, so what the rest would place is not analysed "
                              "and the program cannot be admitted",
                              VXP_MAX_INSTANCE_EVENTS);
      if (!d) return VXP_ENOMEM;
      d->function = an->functions.items[caller].name;
    }
    return VXP_OK;
  }
  R->instance_events += events;
  vxp_analysed_fn af;
  memset(&af, 0, sizeof(af));
  af.model_fn = key->model_fn;
  af.is_instance = true;
  af.depth = depth;
  af.origin_call = call_index;
  af.const_first = (uint32_t)an->const_binds.len;
  af.const_count = (uint32_t)key->const_count;
  af.type_first = (uint32_t)an->type_binds.len;
  af.type_count = (uint32_t)key->type_count;
  af.owned_name = instance_name(R, key);
  af.name = af.owned_name;
  if (!af.owned_name) return VXP_ENOMEM;
  for (size_t i = 0; i < key->const_count; i++) {
    if (!array_push(ctx, &an->const_binds, key->consts[i])) goto nomem;
  }
  for (size_t i = 0; i < key->type_count; i++) {
    if (!array_push(ctx, &an->type_binds, key->types[i])) goto nomem;
  }
  if (!array_push(ctx, &an->functions, af)) goto nomem;
  *out = (uint32_t)(an->functions.len - 1);
  return table_insert(R, *out, h);
nomem: /* the name is the arena's */
  return VXP_ENOMEM;
}

/* `Foo<i32>::bar` -> `Foo::bar`: generic arguments in a path do not change which
 * function of the program it names. Written to buf (NUL-terminated); false when it does
 * not fit. */
static bool strip_generics(const char *s, char *buf, size_t size) {
  size_t n = 0;
  int depth = 0;
  for (; *s; s++) {
    if (*s == '<')
      depth++;
    else if (*s == '>' && depth > 0)
      depth--;
    else if (depth == 0 && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') {
      if (n + 1 >= size) return false;
      buf[n++] = *s;
    }
  }
  buf[n] = '\0';
  return true;
}

/* A path the language or an enum owns: `Vec::new`, `raw::load`, `Shape::Circle`. */
static bool is_builtin_path(const vxp_resolver *R, const char *written) {
  char path[512];
  if (!strip_generics(written, path, sizeof(path))) return false;
  const char *sep = strstr(path, "::");
  size_t head = sep ? (size_t)(sep - path) : strlen(path);
  /* The language's paths and constructors, and its bare builtins, run no user code. */
  if (vxp_builtin__path_head(path, head)) return true;
  if (!sep && vxp_builtin__plain_call(path, head)) return true;
  vxp_name h = vxp_strtab__find(&R->m->names, path, head);
  return sep && h != VXP_NAME_NONE && (R->name_flags[h] & NAME_ENUM);
}

/* The model function a callee path names, or VXP_NONE; classifies the name once. */
static uint32_t lookup_path(vxp_resolver *R, vxp_name callee) {
  if (R->name_flags[callee] & NAME_PATH_SEEN) return R->path_target[callee];
  const char *path = name_str(R, callee);
  uint32_t fn = R->fn_by_name[callee];
  if (fn == VXP_NONE && strchr(path, '<')) {
    char buf[512];
    vxp_name n = strip_generics(path, buf, sizeof(buf))
                     ? vxp_strtab__find(&R->m->names, buf, strlen(buf))
                     : VXP_NAME_NONE;
    if (n != VXP_NAME_NONE) fn = R->fn_by_name[n];
  }
  R->path_target[callee] = fn;
  R->name_flags[callee] |= NAME_PATH_SEEN;
  if (fn == VXP_NONE && is_builtin_path(R, path)) R->name_flags[callee] |= NAME_PATH_BUILTIN;
  return fn;
}

/* `x.m(...)` on a value of type `T`: the function `T::m`, or VXP_NONE. */
static uint32_t lookup_method(const vxp_resolver *R, vxp_name type, vxp_name method) {
  char buf[512];
  int n = snprintf(buf, sizeof(buf), "%s::%s", name_str(R, type), name_str(R, method));
  if (n < 0 || (size_t)n >= sizeof(buf)) return VXP_NONE;
  vxp_name q = vxp_strtab__find(&R->m->names, buf, (size_t)n);
  return q == VXP_NAME_NONE ? VXP_NONE : R->fn_by_name[q];
}

int vxp_resolver__call(vxp_resolver *R, uint32_t caller, const vxp_call_event *call,
                       bool *recorded) {
  vxp_analysis *an = R->an;
  vxp_context *ctx = an->ctx;
  const vxp_model *m = R->m;
  uint32_t call_index = (uint32_t)an->calls.len;
  vxp_call_site site;
  memset(&site, 0, sizeof(site));
  site.caller = caller;
  site.callee = VXP_NONE;
  site.start_byte = call->start_byte;
  site.end_byte = call->end_byte;
  uint32_t target = VXP_NONE;
  if (call->indirect) {
    site.callee_name = call->callee ? name_str(R, call->callee) : NULL;
    site.unresolved = "a call through a function value: the analysis does not follow it";
  } else if (call->callee == VXP_NAME_NONE && call->method != VXP_NAME_NONE) {
    site.callee_name = name_str(R, call->method);
    if (call->receiver_type != VXP_NAME_NONE)
      target = lookup_method(R, call->receiver_type, call->method);
    if (target == VXP_NONE && (R->name_flags[call->method] & NAME_METHOD))
      site.unresolved = call->receiver_type != VXP_NAME_NONE
                            ? "a method the program does not define for the receiver's type"
                            : "a method call on a value whose type the analysis does not know";
  } else if (call->callee != VXP_NAME_NONE) {
    target = lookup_path(R, call->callee);
    site.callee_name = name_str(R, call->callee);
    if (target == VXP_NONE) {
      if (R->name_flags[call->callee] & NAME_EXTERN)
        site.unresolved = "an extern function: its body is not part of the program";
      else if (!(R->name_flags[call->callee] & NAME_PATH_BUILTIN))
        site.unresolved = "not defined in this program (an import, or an unknown name)";
    }
  }
  if (target != VXP_NONE) {
    if (!needs_instance(m, target)) {
      site.callee = R->analysed_of[target];
    } else {
      const vxp_function *root = &m->functions.items[root_of(m, target)];
      size_t count = root->generics.len;
      vxp_const_binding *consts = vxp_ctx__calloc(ctx, count ? count : 1, sizeof(*consts));
      vxp_type_binding *types = vxp_ctx__calloc(ctx, count ? count : 1, sizeof(*types));
      int rc = (consts && types) ? VXP_OK : VXP_ENOMEM;
      if (rc == VXP_OK) {
        instance_key key = {target, consts, 0, types, 0};
        const vxp_analysed_fn *cf = &an->functions.items[caller];
        if (target == root_of(m, target)) {
          bind_generics(R, caller, call, target, &key);
        } else if (cf->is_instance && root_of(m, cf->model_fn) == root_of(m, target)) {
          /* A closure of the caller's own instance shares its arguments. */
          if (cf->const_count)
            memcpy(consts, an->const_binds.items + cf->const_first,
                   cf->const_count * sizeof(*consts));
          if (cf->type_count)
            memcpy(types, an->type_binds.items + cf->type_first, cf->type_count * sizeof(*types));
          key.const_count = cf->const_count;
          key.type_count = cf->type_count;
        } else {
          for (size_t i = 0; i < count; i++) {
            const vxp_generic_param *g = &root->generics.items[i];
            if (g->is_const) {
              consts[key.const_count].name = g->name;
              consts[key.const_count++].unknown = true;
            } else {
              types[key.type_count++].param = g->name;
            }
          }
        }
        rc = instantiate(R, caller, call_index, call, &key, &site.callee, &site.unresolved);
      }
      vxp_ctx__free(ctx, consts);
      vxp_ctx__free(ctx, types);
      if (rc != VXP_OK) return rc;
    }
  }
  /* A builtin or a constructor calls no user code: no edge, nothing to list. */
  *recorded = site.callee != VXP_NONE || site.unresolved != NULL;
  if (!*recorded) return VXP_OK;
  return array_push(ctx, &an->calls, site) ? VXP_OK : VXP_ENOMEM;
}
