/* SPDX-License-Identifier: Apache-2.0 */
/* formula.c - each resident set's peak as an exact formula in named const items
 * (vxp_formula_new, `vxpeak check --symbolic`).
 *
 * The analysis decided which tiles are live together at each placement; that structure
 * does not change with the constants' values unless an `if comptime` arm that places tiles,
 * or a generic instance's arguments, depend on one (both refused, with the reason). So the
 * live total at each placement is the sum of its tiles' sizes, each size a polynomial: the
 * element's bits times the product of the dimensions, folded symbolically in the named
 * constants (every other constant folded by consteval.c, exactly as the analysis folds it),
 * divided by 8 and, in a space with a granule, shown to be a multiple of it. Anything else
 * (a division that does not come out whole, a remainder, a comparison, min or max) is not
 * a polynomial, and the set says which expression, where and why. The peak is the maximum
 * of those totals; totals no larger than another wherever the constants are >= 0 are left
 * out. Finally the formula is evaluated at the analysed point and must give the analysis'
 * own peak: a formula that disagrees is refused rather than shown. */
#include <stdarg.h>

#include "formula.h"
#include "instance.h"
#include "program.h"
#include "source.h"
#include "strbuf.h"

/* Deeper than any chain of const items the analysis folds (consteval.c's guard). */
#define MAX_DEPTH 256
#define MAX_STEPS 4000000

typedef struct deriver {
  vxp_context *ctx;
  const vxp_analysis *an;
  const vxp_model *m;
  vxp_formula *f;
  vxp_sb why;  /* the first reason a set is not a polynomial */
  bool failed; /* `why` is set (or an allocation failed: nomem) */
  bool nomem;
  size_t steps;
} deriver;

static long const_item(const vxp_model *m, vxp_name n) {
  for (size_t i = 0; i < m->consts.len; i++)
    if (m->consts.items[i].name == n) return (long)i;
  return -1;
}

static int var_of(const deriver *D, vxp_name n) {
  for (size_t v = 0; v < D->f->nvars; v++)
    if (D->f->ids[v] == n) return (int)v;
  return -1;
}

static bool overridden(const vxp_analysis *an, vxp_name n) {
  for (size_t i = 0; i < an->overrides.len; i++)
    if (an->overrides.items[i].name == n) return true;
  return false;
}

/* What folding sees in analysed function `fn` (VXP_NONE: a const item's, with no
 * instance's bindings), as analysis.c sets it up. */
static vxp_const_env env_of(const deriver *D, uint32_t fn) {
  vxp_const_env e;
  memset(&e, 0, sizeof(e));
  e.model = D->m;
  e.overrides = D->an->overrides.items;
  e.override_count = D->an->overrides.len;
  e.consts = D->an->const_table;
  if (fn != VXP_NONE) {
    const vxp_analysed_fn *af = &D->an->functions.items[fn];
    /* No bindings at all leaves the table NULL: an offset on NULL, even 0, is undefined. */
    e.bindings = af->const_count ? D->an->const_binds.items + af->const_first : NULL;
    e.binding_count = af->const_count;
  }
  return e;
}

/* ------------------------------------------------------------------ reasons */

static void fail(deriver *D, const char *fmt, ...) VXP__PRINTF(2, 3);
static void fail(deriver *D, const char *fmt, ...) {
  if (D->failed) return;
  D->failed = true;
  va_list ap;
  va_start(ap, fmt);
  vxp_sb__vprintf(D->ctx, &D->why, fmt, ap);
  va_end(ap);
  if (D->why.failed) D->nomem = true;
}

static void nomem(deriver *D) {
  D->nomem = true;
  D->failed = true;
}

static unsigned line_of(const deriver *D, uint32_t byte) {
  return vxp_source__point(D->an->prog->src, byte).line + 1;
}

/* The expression's text, on one line, shortened past 60 bytes. */
static const char *quote(const deriver *D, const vxp_cexpr *cx, char buf[80]) {
  const vxp_source *src = D->an->prog->src;
  size_t n = 0;
  for (uint32_t b = cx->start_byte; b < cx->end_byte && b < src->len && n < 64; b++) {
    char c = src->text[b];
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (c == ' ' && n && buf[n - 1] == ' ') continue;
    buf[n++] = c;
  }
  if (n == 64) {
    n = 60;
    memcpy(buf + n, "...", 3);
    n += 3;
  }
  buf[n] = '\0';
  return buf;
}

/* "BATCH", "BATCH and CONTEXT", "A, B and C" */
static const char *vars_text(const deriver *D, unsigned mask, char buf[512]) {
  size_t n = 0, count = 0, total = 0;
  buf[0] = '\0';
  for (size_t v = 0; v < D->f->nvars; v++)
    total += (mask >> v) & 1u;
  for (size_t v = 0; v < D->f->nvars && n < 400; v++) {
    if (!((mask >> v) & 1u)) continue;
    const char *sep = count == 0 ? "" : count + 1 == total ? " and " : ", ";
    int w = snprintf(buf + n, 512 - n, "%s%.60s", sep, D->f->names[v]);
    if (w > 0) n += (size_t)w;
    count++;
  }
  return buf;
}

static void fail_expr(deriver *D, uint32_t idx, unsigned mask, const char *what) {
  char q[80], vars[512];
  const vxp_cexpr *cx = &D->m->cexprs.items[idx];
  fail(D, "`%s` (line %u) is %s that depends on %s", quote(D, cx, q), line_of(D, cx->start_byte),
       what, vars_text(D, mask, vars));
}

/* ------------------------------------------------------------------ dependence */

/* Which named constants (bit v: names[v]) the value of cexpr `idx` depends on in `env`. */
static unsigned deps(deriver *D, const vxp_const_env *env, uint32_t idx, unsigned depth) {
  if (idx == VXP_NONE || idx >= D->m->cexprs.len || depth > MAX_DEPTH || ++D->steps > MAX_STEPS)
    return 0;
  const vxp_cexpr *cx = &D->m->cexprs.items[idx];
  switch ((vxp_cexpr_kind)cx->kind) {
  case VXP_CX_NAME: {
    if (vxp_consteval__binding(env, cx->name)) return 0; /* an instance's own argument */
    int v = var_of(D, cx->name);
    if (v >= 0) return 1u << v;
    if (overridden(D->an, cx->name)) return 0;
    long item = const_item(D->m, cx->name);
    if (item < 0) return 0;
    vxp_const_env global = *env;
    global.bindings = NULL;
    global.binding_count = 0;
    return deps(D, &global, D->m->consts.items[item].value, depth + 1);
  }
  case VXP_CX_UNARY: return deps(D, env, cx->lhs, depth + 1);
  case VXP_CX_BINARY: return deps(D, env, cx->lhs, depth + 1) | deps(D, env, cx->rhs, depth + 1);
  case VXP_CX_SELECT:
    return deps(D, env, cx->lhs, depth + 1) | deps(D, env, cx->rhs, depth + 1) |
           deps(D, env, cx->alt, depth + 1);
  default: return 0;
  }
}

/* ------------------------------------------------------------------ symbolic folding */

static bool poly_ok(deriver *D, vxp_poly_status st) {
  if (st == VXP_POLY_OK) return true;
  if (st == VXP_POLY_NOMEM)
    nomem(D);
  else
    fail(D, "a coefficient of the formula passes 128 bits");
  return false;
}

static bool fold_number(deriver *D, const vxp_const_env *env, uint32_t idx, i128 *out) {
  vxp_fold r = vxp_consteval__fold_signed(env, idx);
  if (r.status != VXP_FOLD_OK) {
    char q[80];
    const vxp_cexpr *cx = &D->m->cexprs.items[idx];
    fail(D, "`%s` (line %u) does not fold", quote(D, cx, q), line_of(D, cx->start_byte));
    return false;
  }
  *out = r.negative ? -(i128)r.value : (i128)r.value;
  return true;
}

static bool sym(deriver *D, const vxp_const_env *env, uint32_t idx, vxp_poly *out, unsigned depth);

static bool sym_binary(deriver *D, const vxp_const_env *env, uint32_t idx, unsigned mask,
                       vxp_poly *out, unsigned depth) {
  const vxp_cexpr *cx = &D->m->cexprs.items[idx];
  vxp_poly a = {0}, b = {0};
  bool ok = false;
  switch ((vxp_cop)cx->op) {
  case VXP_OP_ADD:
  case VXP_OP_SUB:
    ok = sym(D, env, cx->lhs, &a, depth + 1) && sym(D, env, cx->rhs, &b, depth + 1) &&
         poly_ok(D, vxp_poly__add(D->ctx, out, &a, &b, cx->op == VXP_OP_ADD ? 1 : -1));
    break;
  case VXP_OP_MUL:
    ok = sym(D, env, cx->lhs, &a, depth + 1) && sym(D, env, cx->rhs, &b, depth + 1) &&
         poly_ok(D, vxp_poly__mul(D->ctx, out, &a, &b));
    break;
  case VXP_OP_DIV: {
    /* A quotient is a polynomial only when the divisor is a number dividing every
     * coefficient: then it is exact at every value, with no rounding. */
    i128 d = 0;
    if (deps(D, env, cx->rhs, depth + 1) == 0 && fold_number(D, env, cx->rhs, &d) && d != 0 &&
        sym(D, env, cx->lhs, &a, depth + 1)) {
      i128 mag = d < 0 ? -d : d;
      if (vxp_poly__divide_exact(&a, mag)) {
        ok = poly_ok(D, vxp_poly__scale(&a, d < 0 ? -1 : 1)) &&
             poly_ok(D, vxp_poly__copy(D->ctx, out, &a));
        break;
      }
    }
    fail_expr(D, idx, mask, "a division (rounded down)");
    break;
  }
  case VXP_OP_REM: fail_expr(D, idx, mask, "a remainder"); break;
  default: fail_expr(D, idx, mask, "a comparison or bit operation"); break;
  }
  vxp_poly__free(D->ctx, &a);
  vxp_poly__free(D->ctx, &b);
  return ok;
}

/* `out` := the value of cexpr `idx` in `env` as a polynomial in the named constants. */
static bool sym(deriver *D, const vxp_const_env *env, uint32_t idx, vxp_poly *out, unsigned depth) {
  if (D->failed) return false;
  if (idx == VXP_NONE || idx >= D->m->cexprs.len) {
    fail(D, "a dimension is not a constant expression");
    return false;
  }
  if (depth > MAX_DEPTH || D->steps > MAX_STEPS) {
    fail(D, "the expressions are too deep or too many to derive a formula from");
    return false;
  }
  unsigned mask = deps(D, env, idx, depth);
  if (mask == 0) {
    i128 v;
    return fold_number(D, env, idx, &v) && poly_ok(D, vxp_poly__constant(D->ctx, out, v));
  }
  const vxp_cexpr *cx = &D->m->cexprs.items[idx];
  switch ((vxp_cexpr_kind)cx->kind) {
  case VXP_CX_NAME: {
    int v = var_of(D, cx->name);
    if (v >= 0) return poly_ok(D, vxp_poly__var(D->ctx, out, (unsigned)v));
    long item = const_item(D->m, cx->name); /* one that depends on a named constant */
    vxp_const_env global = *env;
    global.bindings = NULL;
    global.binding_count = 0;
    return sym(D, &global, D->m->consts.items[item].value, out, depth + 1);
  }
  case VXP_CX_UNARY:
    if (cx->op == VXP_OP_NEG)
      return sym(D, env, cx->lhs, out, depth + 1) && poly_ok(D, vxp_poly__scale(out, -1));
    fail_expr(D, idx, mask, "a negation");
    return false;
  case VXP_CX_BINARY: return sym_binary(D, env, idx, mask, out, depth);
  case VXP_CX_SELECT: {
    if (deps(D, env, cx->lhs, depth + 1) == 0) {
      i128 c;
      return fold_number(D, env, cx->lhs, &c) &&
             sym(D, env, c != 0 ? cx->rhs : cx->alt, out, depth + 1);
    }
    fail_expr(D, idx, mask, "a choice (an `if`, a min or a max)");
    return false;
  }
  default: fail_expr(D, idx, mask, "an expression"); return false;
  }
}

/* ------------------------------------------------------------------ structure */

/* The `if comptime` arms of analysed function `fn` whose condition depends on a named
 * constant and which place tiles: which tiles are live would change with its value. */
static void check_arms(deriver *D, uint32_t fn) {
  const vxp_analysed_fn *af = &D->an->functions.items[fn];
  const vxp_function *mf = &D->m->functions.items[af->model_fn];
  vxp_const_env env = env_of(D, fn);
  for (size_t i = 0; i < mf->events.len && !D->failed; i++) {
    const vxp_event *ev = &mf->events.items[i];
    if (ev->kind != VXP_EV_OPEN || !ev->u.block.comptime || ev->u.block.condition == VXP_NONE)
      continue;
    unsigned mask = deps(D, &env, ev->u.block.condition, 0);
    if (!mask) continue;
    size_t depth = 0;
    for (size_t k = i; k < mf->events.len; k++) {
      const vxp_event *e = &mf->events.items[k];
      if (e->kind == VXP_EV_OPEN) depth++;
      if (e->kind == VXP_EV_CLOSE && --depth == 0) break;
      if (e->kind == VXP_EV_PLACE) {
        char vars[512];
        fail(D, "the `if comptime` at line %u decides by %s which tiles are placed",
             line_of(D, ev->u.block.start_byte), vars_text(D, mask, vars));
        break;
      }
    }
  }
}

/* The call event of model function `mf` that starts at `start`, or NULL. */
static const vxp_call_event *call_at(const vxp_function *mf, uint32_t start) {
  for (size_t i = 0; i < mf->events.len; i++)
    if (mf->events.items[i].kind == VXP_EV_CALL && mf->events.items[i].u.call.start_byte == start)
      return &mf->events.items[i].u.call;
  return NULL;
}

/* Which named constants the generic arguments of a call depend on: those written, and the
 * shapes of the arguments they may be inferred from. */
static unsigned call_deps(deriver *D, uint32_t caller, const vxp_call_event *call) {
  vxp_const_env env = env_of(D, caller);
  unsigned mask = 0;
  for (uint32_t g = 0; g < call->generic_count; g++)
    mask |= deps(D, &env, D->m->dim_list.items[call->generic_first + g], 0);
  for (uint32_t a = 0; a < call->args_count; a++) {
    uint32_t t = D->m->call_args.items[call->args_first + a].type;
    if (t == VXP_NONE) continue;
    const vxp_tensor_type *tt = &D->m->types.items[t];
    for (uint32_t k = 0; tt->has_shape && k < tt->dims_count; k++)
      mask |= deps(D, &env, D->m->dim_list.items[tt->dims_first + k], 0);
  }
  return mask;
}

/* masks[fn]: the named constants an instance's arguments depend on, through any call that
 * makes it (or through its caller's own); where[fn]: such a call. */
static bool instance_deps(deriver *D, unsigned *masks, uint32_t *where) {
  const vxp_analysis *an = D->an;
  for (size_t pass = 0; pass <= an->functions.len && pass < 64; pass++) {
    bool changed = false;
    for (size_t c = 0; c < an->calls.len; c++) {
      const vxp_call_site *cs = &an->calls.items[c];
      if (cs->callee == VXP_NONE || !an->functions.items[cs->callee].is_instance) continue;
      unsigned mask = masks[cs->caller];
      if (pass == 0) {
        const vxp_function *mf = &D->m->functions.items[an->functions.items[cs->caller].model_fn];
        const vxp_call_event *call = call_at(mf, cs->start_byte);
        if (call) mask |= call_deps(D, cs->caller, call);
      }
      if ((masks[cs->callee] | mask) != masks[cs->callee]) {
        masks[cs->callee] |= mask;
        if (where[cs->callee] == VXP_NONE) where[cs->callee] = (uint32_t)c;
        changed = true;
      }
    }
    if (!changed) break;
  }
  return true;
}

/* The innermost releasing block around scope `s`, or the function's own scope. */
static uint32_t releasing(const vxp_analysis *an, uint32_t s) {
  while (s != VXP_NONE) {
    const vxp_scope *sc = &an->scopes.items[s];
    if (sc->kind == VXP__SCOPE_FUNCTION || vxp_block__releases((vxp_block_kind)sc->kind)) return s;
    s = sc->parent;
  }
  return s;
}

static bool encloses(const vxp_analysis *an, uint32_t outer, uint32_t s) {
  for (; s != VXP_NONE; s = an->scopes.items[s].parent)
    if (s == outer) return true;
  return false;
}

static bool multiple_of(const vxp_poly *p, uint64_t g) {
  for (size_t i = 0; i < p->len; i++)
    if (p->terms[i].coef % (i128)g != 0) return false;
  return true;
}

/* The bytes of record `r` as a polynomial. */
static bool tile_poly(deriver *D, const vxp_record *r, vxp_poly *out) {
  const vxp_analysis *an = D->an;
  if (r->bytes == UINT64_MAX) {
    fail(D, "the tile at line %u does not fit in 64 bits at this point", r->range.start.line + 1);
    return false;
  }
  if (r->type == VXP_NONE) return poly_ok(D, vxp_poly__constant(D->ctx, out, r->bytes));
  const vxp_tensor_type *t = &D->m->types.items[r->type];
  vxp_const_env env = env_of(D, r->function);
  unsigned bits = vxp_elem__bits(vxp_instance__elem(an, r->function, t));
  if (!poly_ok(D, vxp_poly__constant(D->ctx, out, bits))) return false;
  vxp_poly dim = {0}, prod = {0};
  bool ok = true;
  for (uint32_t k = 0; ok && k < t->dims_count; k++) {
    ok = sym(D, &env, D->m->dim_list.items[t->dims_first + k], &dim, 0) &&
         poly_ok(D, vxp_poly__mul(D->ctx, &prod, out, &dim)) &&
         poly_ok(D, vxp_poly__copy(D->ctx, out, &prod));
  }
  vxp_poly__free(D->ctx, &dim);
  vxp_poly__free(D->ctx, &prod);
  if (!ok) return false;
  i128 c;
  /* A size that does not depend on a named constant is the analysis' own figure, granule
   * and all. */
  if (vxp_poly__is_constant(out, &c)) return poly_ok(D, vxp_poly__constant(D->ctx, out, r->bytes));
  const char *what = r->binding_name ? r->binding_name : "the tile";
  if (!vxp_poly__divide_exact(out, 8)) {
    fail(D, "'%s' (line %u) holds %u-bit elements: its bytes are rounded up to a whole byte", what,
         r->range.start.line + 1, bits);
    return false;
  }
  const vxp_space *sp = an->view.spaces.items[r->space];
  if (sp->has_granule && sp->granule > 1 && !multiple_of(out, sp->granule)) {
    fail(D, "'%s' (line %u) is rounded up to the %llu-byte granule of %s", what,
         r->range.start.line + 1, (unsigned long long)sp->granule, sp->name);
    return false;
  }
  return true;
}

/* ------------------------------------------------------------------ one resident set */

/* Keep `cand` among `kept` unless another is at least as large wherever the constants are
 * >= 0; drop those it is at least as large as. Takes `cand` over. */
static bool keep(deriver *D, vxp_poly **kept, size_t *count, size_t *cap, vxp_poly *cand) {
  for (size_t i = 0; i < *count; i++) {
    if (vxp_poly__dominated(cand, &(*kept)[i])) {
      vxp_poly__free(D->ctx, cand);
      return true;
    }
  }
  size_t w = 0;
  for (size_t i = 0; i < *count; i++) {
    if (vxp_poly__dominated(&(*kept)[i], cand))
      vxp_poly__free(D->ctx, &(*kept)[i]);
    else
      (*kept)[w++] = (*kept)[i];
  }
  *count = w;
  if (*count == *cap) {
    size_t n = *cap ? *cap * 2 : 4;
    vxp_poly *p = vxp_ctx__realloc(D->ctx, *kept, n * sizeof(vxp_poly));
    if (!p) {
      vxp_poly__free(D->ctx, cand);
      nomem(D);
      return false;
    }
    *kept = p;
    *cap = n;
  }
  (*kept)[(*count)++] = *cand;
  memset(cand, 0, sizeof(*cand));
  return true;
}

/* The live totals at each placement of the set, as peak.c's sweep forms them: a tile is
 * live at a later placement whose innermost releasing block lies within its own. */
static void derive_set(deriver *D, const vxp_resident_set *rs, vxp_formula_set *out) {
  const vxp_analysis *an = D->an;
  size_t n = rs->record_count;
  const uint32_t *set = an->set_records.items + rs->record_first;
  vxp_poly *tiles = vxp_ctx__calloc(D->ctx, n ? n : 1, sizeof(vxp_poly));
  uint32_t *stack = vxp_ctx__calloc(D->ctx, n ? n : 1, sizeof(uint32_t));
  uint32_t *scope = vxp_ctx__calloc(D->ctx, n ? n : 1, sizeof(uint32_t));
  vxp_poly live = {0}, cand = {0};
  vxp_poly *kept = NULL;
  size_t kept_len = 0, kept_cap = 0, top = 0;
  if (!tiles || !stack || !scope) nomem(D);
  for (size_t k = 0; k < n && !D->failed; k++) {
    const vxp_record *r = &an->records.items[set[k]];
    if (!tile_poly(D, r, &tiles[k])) break;
    uint32_t R = releasing(an, r->scope);
    while (top > 0 && !encloses(an, scope[top - 1], R)) {
      top--;
      if (!poly_ok(D, vxp_poly__add(D->ctx, &live, &live, &tiles[stack[top]], -1))) break;
    }
    if (D->failed || !poly_ok(D, vxp_poly__add(D->ctx, &live, &live, &tiles[k], 1)) ||
        !poly_ok(D, vxp_poly__copy(D->ctx, &cand, &live)) ||
        !keep(D, &kept, &kept_len, &kept_cap, &cand))
      break;
    if (r->released_at_once) {
      if (!poly_ok(D, vxp_poly__add(D->ctx, &live, &live, &tiles[k], -1))) break;
    } else {
      stack[top] = (uint32_t)k;
      scope[top++] = R;
    }
  }
  /* The formula at the analysed point must be the analysis' peak. */
  if (!D->failed) {
    i128 best = 0;
    bool any = false;
    for (size_t a = 0; a < kept_len; a++) {
      i128 v;
      if (!vxp_poly__eval(&kept[a], D->f->at, D->f->nvars, &v)) {
        fail(D, "the formula passes 128 bits at this point");
        break;
      }
      if (!any || v > best) best = v;
      any = true;
    }
    if (!D->failed && (rs->peak_saturated || best != (i128)rs->peak_bytes)) {
      char a[64], b[64];
      fail(D,
           "vxpeak could not derive it: the formula gives %s bytes at this point, the "
           "analysis %s",
           vxp_formula__int(best, true, a), vxp_formula__int(rs->peak_bytes, true, b));
    }
  }
  for (size_t k = 0; tiles && k < n; k++)
    vxp_poly__free(D->ctx, &tiles[k]);
  vxp_ctx__free(D->ctx, tiles);
  vxp_ctx__free(D->ctx, stack);
  vxp_ctx__free(D->ctx, scope);
  vxp_poly__free(D->ctx, &live);
  vxp_poly__free(D->ctx, &cand);
  if (D->failed) {
    for (size_t a = 0; a < kept_len; a++)
      vxp_poly__free(D->ctx, &kept[a]);
    vxp_ctx__free(D->ctx, kept);
    return;
  }
  out->polynomial = true;
  out->alts = kept;
  out->alt_count = kept_len;
}

/* ------------------------------------------------------------------ the handle */

static int bad_name(vxp_context *ctx, const vxp_model *m, const char *name, const char *why) {
  vxp_sb sb = {0};
  for (size_t i = 0; i < m->consts.len; i++)
    vxp_sb__printf(ctx, &sb, "%s%s", i ? ", " : "",
                   vxp_strtab__str(&m->names, m->consts.items[i].name));
  int rc = vxp_ctx__error(ctx, VXP_ENOTFOUND, "'%s' %s; the program's const items: %s", name, why,
                          m->consts.len ? vxp_sb__text(&sb) : "none");
  vxp_sb__free(ctx, &sb);
  return rc;
}

static int set_names(vxp_formula *f, const vxp_model *m, const char *const *names, size_t count) {
  vxp_context *ctx = f->ctx;
  if (count == 0 || count > VXP_POLY_MAX_VARS)
    return vxp_ctx__error(ctx, VXP_EINVAL, "a formula names 1 to %d constants, not %zu",
                          VXP_POLY_MAX_VARS, count);
  vxp_const_env global;
  memset(&global, 0, sizeof(global));
  global.model = m;
  global.overrides = f->an->overrides.items;
  global.override_count = f->an->overrides.len;
  global.consts = f->an->const_table;
  for (size_t v = 0; v < count; v++) {
    if (!names[v] || !*names[v]) return vxp_ctx__error(ctx, VXP_EINVAL, "an empty constant name");
    vxp_name id = vxp_strtab__find(&m->names, names[v], strlen(names[v]));
    if (id == VXP_NAME_NONE || (const_item(m, id) < 0 && !overridden(f->an, id)))
      return bad_name(ctx, m, names[v], "is not a const item of the program");
    for (size_t k = 0; k < v; k++)
      if (f->ids[k] == id) return vxp_ctx__error(ctx, VXP_EINVAL, "'%s' is named twice", names[v]);
    vxp_fold r = vxp_consteval__const_value(&global, id);
    if (r.status != VXP_FOLD_OK || r.value > INT64_MAX)
      return bad_name(ctx, m, names[v], "has no value that folds to a 64-bit integer");
    f->names[v] = vxp_ctx__strdup(ctx, names[v]);
    if (!f->names[v]) return vxp_ctx__nomem(ctx);
    f->ids[v] = id;
    f->at[v] = r.negative ? -(int64_t)r.value : (int64_t)r.value;
    f->nvars = v + 1;
  }
  return VXP_OK;
}

int vxp_formula_new(vxp_formula **out, const vxp_analysis *an, const char *const *names,
                    size_t name_count) {
  if (out) *out = NULL;
  VXP__TAG_RC(NULL, an, VXP_TAG_ANALYSIS);
  if (!an) return VXP_EINVAL;
  vxp_context *ctx = an->ctx;
  vxp_ctx__begin(ctx);
  if (!out || (!names && name_count))
    return vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_formula_new");
  if (!an->const_table)
    return vxp_ctx__error(ctx, VXP_EINVAL,
                          "vxp_formula_new: the analysis has no const table "
                          "(it stopped before folding)");
  vxp_formula *f = vxp_ctx__calloc(ctx, 1, sizeof(*f));
  if (!f) return vxp_ctx__nomem(ctx);
  f->tag = VXP_TAG_FORMULA;
  f->ctx = ctx;
  f->an = an;
  const vxp_model *m = &an->prog->model;
  int rc = set_names(f, m, names, name_count);
  f->set_count = an->resident_sets.len;
  if (rc == VXP_OK && f->set_count &&
      !(f->sets = vxp_ctx__calloc(ctx, f->set_count, sizeof(vxp_formula_set))))
    rc = vxp_ctx__nomem(ctx);
  unsigned *masks = NULL;
  uint32_t *where = NULL;
  size_t nfn = an->functions.len ? an->functions.len : 1;
  if (rc == VXP_OK && (!(masks = vxp_ctx__calloc(ctx, nfn, sizeof(unsigned))) ||
                       !(where = vxp_ctx__malloc(ctx, nfn * sizeof(uint32_t)))))
    rc = vxp_ctx__nomem(ctx);
  deriver D;
  memset(&D, 0, sizeof(D));
  D.ctx = ctx;
  D.an = an;
  D.m = m;
  D.f = f;
  if (rc == VXP_OK) {
    memset(where, 0xff, nfn * sizeof(uint32_t));
    instance_deps(&D, masks, where);
  }
  for (size_t i = 0; rc == VXP_OK && i < f->set_count; i++) {
    const vxp_resident_set *rs = &an->resident_sets.items[i];
    vxp_formula_set *s = &f->sets[i];
    D.failed = false;
    D.steps = 0;
    vxp_sb__free(ctx, &D.why);
    if (masks[rs->function]) {
      const vxp_call_site *cs = &an->calls.items[where[rs->function]];
      char vars[512];
      fail(&D, "the generic arguments of the call to '%s' at line %u depend on %s",
           cs->callee_name ? cs->callee_name : rs->function_name, line_of(&D, cs->start_byte),
           vars_text(&D, masks[rs->function], vars));
    }
    check_arms(&D, rs->function);
    if (!D.failed) derive_set(&D, rs, s);
    if (D.nomem) {
      rc = vxp_ctx__nomem(ctx);
      break;
    }
    if (D.failed && !(s->reason = vxp_sb__detach(ctx, &D.why, NULL))) rc = vxp_ctx__nomem(ctx);
    if (rc == VXP_OK && !vxp_formula__render_text(f, s)) rc = vxp_ctx__nomem(ctx);
  }
  vxp_sb__free(ctx, &D.why);
  vxp_ctx__free(ctx, masks);
  vxp_ctx__free(ctx, where);
  if (rc != VXP_OK) {
    vxp_formula_free(f);
    return rc;
  }
  *out = f;
  return VXP_OK;
}

void vxp_formula_free(vxp_formula *f) {
  VXP__TAG(f, VXP_TAG_FORMULA, );
  if (!f) return;
  f->tag = VXP_TAG_FREED;
  vxp_context *ctx = f->ctx;
  for (size_t i = 0; f->sets && i < f->set_count; i++) {
    vxp_formula_set *s = &f->sets[i];
    for (size_t a = 0; a < s->alt_count; a++)
      vxp_poly__free(ctx, &s->alts[a]);
    vxp_ctx__free(ctx, s->alts);
    vxp_ctx__free(ctx, s->reason);
    vxp_ctx__free(ctx, s->text);
  }
  vxp_ctx__free(ctx, f->sets);
  for (size_t v = 0; v < f->nvars; v++)
    vxp_ctx__free(ctx, f->names[v]);
  vxp_ctx__free(ctx, f->json);
  vxp_ctx__free(ctx, f);
}

const vxp_formula_set *vxp_formula__for_set(const vxp_formula *f, const vxp_resident_set *rs) {
  if (!f || !rs || rs->owner != f->an) return NULL;
  size_t i = (size_t)(rs - f->an->resident_sets.items);
  return i < f->set_count ? &f->sets[i] : NULL;
}

size_t vxp_formula_set_count(const vxp_formula *f) {
  VXP__TAG(f, VXP_TAG_FORMULA, 0);
  return f ? f->set_count : 0;
}

int vxp_formula_is_polynomial(const vxp_formula *f, size_t set) {
  VXP__TAG(f, VXP_TAG_FORMULA, 0);
  return f && set < f->set_count && f->sets[set].polynomial;
}

const char *vxp_formula_reason(const vxp_formula *f, size_t set) {
  VXP__TAG(f, VXP_TAG_FORMULA, NULL);
  return f && set < f->set_count ? f->sets[set].reason : NULL;
}

const char *vxp_formula_text(const vxp_formula *f, size_t set) {
  VXP__TAG(f, VXP_TAG_FORMULA, NULL);
  return f && set < f->set_count ? f->sets[set].text : NULL;
}

size_t vxp_formula_alternative_count(const vxp_formula *f, size_t set) {
  VXP__TAG(f, VXP_TAG_FORMULA, 0);
  return f && set < f->set_count ? f->sets[set].alt_count : 0;
}

int vxp_formula_evaluate(const vxp_formula *f, size_t set, const uint64_t *values,
                         uint64_t *bytes) {
  VXP__TAG_RC(NULL, f, VXP_TAG_FORMULA);
  if (!f || set >= f->set_count || !values || !bytes || !f->sets[set].polynomial) return VXP_EINVAL;
  int64_t at[VXP_POLY_MAX_VARS];
  for (size_t v = 0; v < f->nvars; v++) {
    if (values[v] > INT64_MAX) return VXP_EINVAL;
    at[v] = (int64_t)values[v];
  }
  const vxp_formula_set *s = &f->sets[set];
  i128 best = 0;
  for (size_t a = 0; a < s->alt_count; a++) {
    i128 v;
    if (!vxp_poly__eval(&s->alts[a], at, f->nvars, &v)) return VXP_ERROR;
    if (a == 0 || v > best) best = v;
  }
  if (best < 0 || best > (i128)UINT64_MAX) return VXP_ERROR;
  *bytes = (uint64_t)best;
  return VXP_OK;
}
