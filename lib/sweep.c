/* SPDX-License-Identifier: Apache-2.0 */
/* sweep.c - the largest value of a constant that fits (vxp_sweep_run).
 *
 * Two parts: a proof obligation and a search. The proof (trend_of and certify) reads the
 * program model to decide whether the peaks can only grow with the constant, and the
 * analysis at the range's low end for what only a value decides (whether a difference is
 * non-negative there: it folds nothing of its own); it is what
 * lets the search bisect instead of trying every value. It is in the library, not the
 * command, because it needs the model (shapes as expression trees, const items, `if
 * comptime` conditions, generic arguments), which the public API does not show: a client
 * could only assume monotonicity, and an assumption is what this must not be. */
#include <stdarg.h>
#include <stdio.h>

#include "analysis_data.h"
#include "defaults.h"
#include "context.h"
#include "program.h"
#include "source.h"
#include "sweep.h"
#include "sweep_formula.h"

/* ------------------------------------------------------------------ the proof */

typedef enum trend { TREND_CONST, TREND_UP, TREND_UNKNOWN } trend;

struct sweep_run;

typedef struct certifier {
  const vxp_program *prog;
  const vxp_model *m;
  vxp_name target;
  const vxp_const_binding *overrides; /* the other -D overrides, by name */
  size_t override_count;
  /* A difference `x - c` grows with the constant only where it is not negative, which is
   * decided at `lo` by the analysis there: `difference_at` is the first one of the shape
   * being checked (VXP_NONE: none), `at_lo` that analysis (made when first needed). */
  uint32_t difference_at;
  struct sweep_run *run;
  vxp_analysis *at_lo;
  int rc;
  vxp_context *ctx;
  vxp_sb *why; /* where to say what ruled bisection out (the sweep's reason) */
} certifier;

static void explain(certifier *c, uint32_t start_byte, const char *fmt, ...) VXP__PRINTF(3, 4);

static void explain(certifier *c, uint32_t start_byte, const char *fmt, ...) {
  if (c->why->len || c->why->failed) return; /* the first reason is the one reported */
  vxp_point at = vxp_source__point(c->prog->src, start_byte);
  vxp_sb__printf(c->ctx, c->why, "line %u: ", at.line + 1);
  va_list ap;
  va_start(ap, fmt);
  vxp_sb__vprintf(c->ctx, c->why, fmt, ap);
  va_end(ap);
}

/* Drop the reason given so far, for a later one that matters more. */
static void forget_why(certifier *c) {
  c->why->len = 0;
  if (c->why->data) c->why->data[0] = '\0';
}

static bool overridden_elsewhere(const certifier *c, vxp_name name) {
  for (size_t i = 0; i < c->override_count; i++)
    if (c->overrides[i].name == name) return name != c->target;
  return false;
}

/* How `cx` changes as the constant grows: not at all, never down, or not known. Values
 * are non-negative 64-bit integers (consteval refuses anything else), so sums and
 * products of non-decreasing terms are non-decreasing, and so is a floor quotient by a
 * constant; a difference is when it subtracts a constant and is non-negative at `lo`
 * (then at every larger value too: the shape's caller asks the analysis at `lo`, see
 * decided_at_lo). Anything else that mentions the constant is unknown. */
static trend trend_of(certifier *c, uint32_t cx, unsigned depth) {
  const vxp_model *m = c->m;
  if (cx == VXP_NONE || cx >= m->cexprs.len) return TREND_CONST;
  if (depth > 256) {
    explain(c, m->cexprs.items[cx].start_byte, "const items nest too deeply to follow");
    return TREND_UNKNOWN;
  }
  const vxp_cexpr *e = &m->cexprs.items[cx];
  const char *target = vxp_strtab__str(&m->names, c->target);
  switch ((vxp_cexpr_kind)e->kind) {
  case VXP_CX_NAME:
    if (e->name == c->target) return TREND_UP;
    if (overridden_elsewhere(c, e->name)) return TREND_CONST;
    for (size_t i = 0; i < m->consts.len; i++)
      if (m->consts.items[i].name == e->name)
        return trend_of(c, m->consts.items[i].value, depth + 1);
    return TREND_CONST; /* a run-time name: it does not depend on the constant */
  case VXP_CX_UNARY: {
    trend t = trend_of(c, e->lhs, depth + 1);
    if (t == TREND_CONST) return TREND_CONST;
    if (t == TREND_UP)
      explain(c, e->start_byte, "%s of a value that grows with %s",
              e->op == VXP_OP_NOT ? "a negation `!`" : "a minus sign", target);
    return TREND_UNKNOWN;
  }
  case VXP_CX_BINARY: {
    trend l = trend_of(c, e->lhs, depth + 1), r = trend_of(c, e->rhs, depth + 1);
    if (l == TREND_UNKNOWN || r == TREND_UNKNOWN) return TREND_UNKNOWN;
    if (l == TREND_CONST && r == TREND_CONST) return TREND_CONST;
    switch (e->op) {
    case VXP_OP_ADD:
    case VXP_OP_MUL: return TREND_UP;
    case VXP_OP_SUB:
      if (r != TREND_CONST) {
        explain(c, e->start_byte, "a difference subtracts a value that grows with %s", target);
        return TREND_UNKNOWN;
      }
      if (c->difference_at == VXP_NONE) c->difference_at = e->start_byte;
      return TREND_UP;
    case VXP_OP_DIV:
      if (r != TREND_CONST) {
        explain(c, e->start_byte, "a quotient divides by a value that grows with %s", target);
        return TREND_UNKNOWN;
      }
      return TREND_UP;
    default:
      explain(c, e->start_byte, "an operator other than + - * / is applied to %s", target);
      return TREND_UNKNOWN;
    }
  }
  default:
    return TREND_CONST; /* literals, and opaque forms (they never fold, whatever the value) */
  }
}

static int analyse_lo(struct sweep_run *R, vxp_analysis **out);

/* Whether every difference in the shape placed by event `event` of model function `fn` is
 * non-negative at `lo`: the analysis at `lo` sized the placement (a shape folds only when
 * every intermediate is a non-negative integer) wherever it reached it. A declared position
 * (`fn` VXP_NONE) has no such fact: not decided. */
static bool decided_at_lo(certifier *c, uint32_t fn, uint32_t event) {
  if (fn == VXP_NONE) return false;
  if (!c->at_lo && c->rc == VXP_OK) c->rc = analyse_lo(c->run, &c->at_lo);
  if (!c->at_lo) return false;
  const vxp_analysis *an = c->at_lo;
  bool any = false;
  for (uint32_t a = 0; a < an->functions.len; a++) {
    if (an->functions.items[a].model_fn != fn) continue;
    any = true;
    const vxp_event_fact *f = vxp_analysis__event_fact(an, a, event);
    if (f && f->reached && f->size != VXP_FACT_SIZE_KNOWN) return false;
  }
  return any;
}

/* Every dimension of tensor type `type` non-decreasing in the constant; `fn` and `event`
 * say which placement places it (VXP_NONE: a declared position). */
static bool type_certified(certifier *c, uint32_t type, uint32_t fn, uint32_t event) {
  const vxp_model *m = c->m;
  if (type == VXP_NONE || type >= m->types.len) return true;
  const vxp_tensor_type *t = &m->types.items[type];
  if (!t->has_shape) return true;
  c->difference_at = VXP_NONE;
  for (uint32_t i = 0; i < t->dims_count; i++) {
    if (trend_of(c, m->dim_list.items[t->dims_first + i], 0) == TREND_UNKNOWN) {
      if (!c->why->len) explain(c, t->start_byte, "a shape that may shrink as the value grows");
      return false;
    }
  }
  if (c->difference_at != VXP_NONE && !decided_at_lo(c, fn, event)) {
    explain(c, c->difference_at,
            fn == VXP_NONE ? "a difference in a declared position's shape, which no analysis "
                             "sizes at the low end of the range"
                           : "a difference does not fold at the low end of the range "
                             "(negative there, so it may fold only above)");
    return false;
  }
  return true;
}

/* Whether every peak of the program is non-decreasing in the constant; when not, c->why
 * says what is in the way. Only what the analysis walks counts: non-generic functions
 * and closures, and the declared positions. Loop trip counts are left out on purpose:
 * a block's tiles count once in a peak however often the block runs. */
static bool certify(certifier *c) {
  const vxp_model *m = c->m;
  for (size_t f = 0; f < m->functions.len; f++) {
    const vxp_function *fn = &m->functions.items[f];
    if (fn->generics.len > 0) continue;
    for (size_t i = 0; i < fn->events.len; i++) {
      const vxp_event *ev = &fn->events.items[i];
      if (ev->kind == VXP_EV_PLACE && ev->u.place.type_known) {
        if (!type_certified(c, ev->u.place.type, (uint32_t)f, (uint32_t)i)) return false;
      } else if (ev->kind == VXP_EV_OPEN && ev->u.block.comptime &&
                 trend_of(c, ev->u.block.condition, 0) != TREND_CONST) {
        forget_why(c);
        explain(c, ev->u.block.start_byte,
                "an `if comptime` condition depends on %s, so "
                "which tiles exist changes with it",
                vxp_strtab__str(&m->names, c->target));
        return false;
      } else if (ev->kind == VXP_EV_CALL) {
        const vxp_call_event *call = &ev->u.call;
        for (uint32_t g = 0; g < call->generic_count; g++) {
          if (trend_of(c, m->dim_list.items[call->generic_first + g], 0) != TREND_CONST) {
            forget_why(c);
            explain(c, call->start_byte,
                    "a generic argument depends on %s, and the "
                    "monotonicity check does not follow it into the instance's shapes",
                    vxp_strtab__str(&m->names, c->target));
            return false;
          }
        }
      }
    }
  }
  for (size_t i = 0; i < m->declared.len; i++)
    if (!type_certified(c, m->declared.items[i].type, VXP_NONE, 0)) return false;
  return true;
}

/* ------------------------------------------------------------------ one value */

typedef struct sweep_run {
  vxp_sweep *sw;
  vxp_context *ctx;
  const vxp_program *prog;
  vxp_analyze_options opts; /* overrides: the caller's, then the swept value last */
  vxp_const_override *overrides;
  const vxp_sweep_options *so;
} sweep_run;

/* a/b > c/d, compared exactly: a and c are call-tree totals (128-bit, but a total past 2^64
 * is already over any capacity, so it is clamped), b and d capacities. */
static bool fuller128(u128 a, uint64_t b, u128 c, uint64_t d) {
  uint64_t a64 = a > UINT64_MAX ? UINT64_MAX : (uint64_t)a;
  uint64_t c64 = c > UINT64_MAX ? UINT64_MAX : (uint64_t)c;
  return (u128)a64 * d > (u128)c64 * b;
}

/* Which analysed functions answer for the selected function: it (every instance of that
 * name) and everything it calls, transitively; all of them when none is selected. A
 * diagnostic about any other function says nothing about the one asked for. Returns a
 * calloc'd array (NULL on allocation failure). */
static bool *answering(vxp_context *ctx, const vxp_analysis *an, const char *function) {
  size_t n = an->functions.len;
  bool *in = vxp_ctx__calloc(ctx, n ? n : 1, sizeof(bool));
  if (!in) return NULL;
  for (size_t f = 0; f < n; f++)
    in[f] = !function || strcmp(function, an->functions.items[f].name) == 0;
  if (!function) return in;
  /* Each pass adds the callees of what is in; at most n passes. */
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t c = 0; c < an->calls.len; c++) {
      const vxp_call_site *site = &an->calls.items[c];
      if (site->callee != VXP_NONE && in[site->caller] && !in[site->callee]) {
        in[site->callee] = true;
        grew = true;
      }
    }
  }
  return in;
}

/* The function (not a closure: the item's own function or method) whose text holds
 * diagnostic `d` of the analysis, when it was made by the analysis in the program's source,
 * or VXP_NONE: a syntax error (which may change how the rest parses), a problem in a
 * machine model, a const item or a declaration bears on every function. */
static uint32_t written_in(const vxp_analysis *an, size_t index, const vxp_diagnostic *d) {
  const vxp_model *m = &an->prog->model;
  if (index < an->prog->diags.len || !d->has_range || d->source != an->prog->src) return VXP_NONE;
  uint32_t at = d->range.start_byte;
  uint32_t item = vxp_model__item_at(m, at);
  if (item == VXP_NONE) return VXP_NONE;
  const vxp_model_item *it = &m->items.items[item];
  for (uint32_t f = it->first_function; f < it->first_function + it->function_count; f++) {
    const vxp_function *fn = &m->functions.items[f];
    if (!fn->is_closure && fn->start_byte <= at && at < fn->end_byte) return f;
  }
  return VXP_NONE;
}

/* Whether diagnostic `d` (an->diags[index]) bears on the selected functions: one about a
 * function that is selected, or written inside one (a name that resolves to nothing), or
 * about no function and written in none (syntax, the machine model, a const item). Sets
 * `*where` to the function it was written in, or NULL. */
static bool bears_on(const vxp_analysis *an, const bool *in, size_t index, const vxp_diagnostic *d,
                     const char **where) {
  *where = NULL;
  if (d->function) {
    for (size_t f = 0; f < an->functions.len; f++)
      if (in[f] && strcmp(an->functions.items[f].name, d->function) == 0) return true;
    return false;
  }
  uint32_t fn = written_in(an, index, d);
  if (fn == VXP_NONE) return true;
  *where = vxp_strtab__str(&an->prog->model.names, an->prog->model.functions.items[fn].name);
  for (size_t f = 0; f < an->functions.len; f++)
    if (in[f] && an->functions.items[f].model_fn == fn) return true;
  return false;
}

/* Whether analysis `an` fits (sweep.h). */
int vxp_sweep__fit(vxp_context *ctx, vxp_arena *arena, const vxp_analysis *an, const char *function,
                   const char *space, uint32_t margin_ppm, vxp_sweep_point *p) {
  int rc = VXP_OK;
  p->fits = true;
  bool *in = answering(ctx, an, function);
  if (!in) return VXP_ENOMEM;
  /* Errors first: any error about the selected function (or what it calls, or no function
   * at all) rejects the value; the first one's code and function are kept. */
  const vxp_diagnostic *cause = NULL;
  const char *cause_where = NULL, *where;
  for (size_t i = 0; i < an->diags.len && p->fits; i++) {
    const vxp_diagnostic *d = &an->diags.items[i];
    if (d->severity == VXP_SEVERITY_ERROR && bears_on(an, in, i, d, &where)) {
      cause_where = where;
      p->fits = false;
      p->reason = (strcmp(d->code, "E6009") == 0 || strcmp(d->code, "E6010") == 0 ||
                   strcmp(d->code, "E6027") == 0 || strcmp(d->code, "E6028") == 0)
                      ? VXP_MISFIT_OVER_CAPACITY
                      : VXP_MISFIT_ERROR;
      snprintf(p->code, sizeof(p->code), "%s", d->code);
      cause = d;
    }
  }
  for (size_t i = 0; i < an->diags.len && p->fits; i++) {
    const vxp_diagnostic *d = &an->diags.items[i];
    if (strcmp(d->code, "W1029") == 0 && bears_on(an, in, i, d, &where)) {
      cause_where = where;
      p->fits = false;
      p->reason = VXP_MISFIT_SIZE_UNKNOWN;
      snprintf(p->code, sizeof(p->code), "W1029");
      cause = d;
    }
  }
  const char *cause_name = cause ? (cause->function ? cause->function : cause_where) : NULL;
  if (cause_name && !(p->cause = vxp_arena__strdup(ctx, arena, cause_name))) rc = VXP_ENOMEM;
  /* The selected (function, space) closest to (or furthest past) its capacity, by its
   * call-tree total: what a function holds while its callees place theirs counts, as it
   * does in `check` (E6027). */
  size_t space_count = an->view.spaces.len;
  const vxp_fn_space *tight = NULL;
  const vxp_space *tight_space = NULL;
  const char *tight_function = NULL;
  for (size_t f = 0; f < an->functions.len && space_count; f++) {
    const char *fname = an->functions.items[f].name;
    if (function && strcmp(function, fname) != 0) continue;
    for (size_t s = 0; s < space_count; s++) {
      const vxp_fn_space *fs = &an->fn_spaces.items[f * space_count + s];
      const vxp_space *sp = an->view.spaces.items[s];
      if (fs->total == 0 || !sp->has_capacity) continue;
      if (space && strcmp(space, sp->name) != 0) continue;
      if (!tight || fuller128(fs->total, sp->capacity, tight->total, tight_space->capacity)) {
        tight = fs;
        tight_space = sp;
        tight_function = fname;
      }
    }
  }
  if (tight) {
    bool saturated = tight->total > UINT64_MAX;
    p->peak_bytes = saturated ? UINT64_MAX : (uint64_t)tight->total;
    p->capacity_bytes = tight_space->capacity;
    p->function = vxp_arena__strdup(ctx, arena, tight_function);
    p->space = vxp_arena__strdup(ctx, arena, tight_space->name);
    if (!p->function || !p->space) rc = VXP_ENOMEM;
    /* The budget: peak x 10^6 <= capacity x (10^6 - margin), the margin a share of what the
     * device offers when a calibrated overhead was taken out of the capacity (machine.h). */
    u128 need = (u128)p->peak_bytes * 1000000u;
    u128 have = vxp_space__budget(tight_space, margin_ppm);
    bool decided_here = p->fits;
    if (p->fits && (saturated || p->peak_bytes > p->capacity_bytes)) {
      p->fits = false;
      p->reason = VXP_MISFIT_OVER_CAPACITY;
    } else if (p->fits && need > have) {
      p->fits = false;
      p->reason = VXP_MISFIT_WITHIN_MARGIN;
    }
    if (decided_here && !p->fits && rc == VXP_OK &&
        !(p->cause = vxp_arena__strdup(ctx, arena, tight_function)))
      rc = VXP_ENOMEM;
  }
  vxp_ctx__free(ctx, in);
  return rc;
}

/* Analyse at `value`. */
static int analyse_at(sweep_run *R, uint64_t value, vxp_analysis **out) {
  R->overrides[R->opts.override_count - 1].value = value;
  *out = NULL;
  return vxp_analyze(out, R->ctx, R->prog, &R->opts);
}

/* The proof's analysis at the range's low end. */
static int analyse_lo(sweep_run *R, vxp_analysis **out) { return analyse_at(R, R->so->lo, out); }

/* Record the point of analysis `an` (taken over: freed here) at `value`. */
static int record(sweep_run *R, uint64_t value, vxp_analysis *an, bool *fits) {
  vxp_sweep *sw = R->sw;
  sw->evaluations++;
  vxp_sweep_point p;
  memset(&p, 0, sizeof(p));
  p.value = value;
  int rc =
      vxp_sweep__fit(R->ctx, &sw->arena, an, R->so->function, R->so->space, R->so->margin_ppm, &p);
  vxp_analysis_free(an);
  if (rc == VXP_OK) {
    size_t at = 0;
    while (at < sw->points.len && sw->points.items[at].value < value)
      at++;
    if (!arena_push(R->ctx, &sw->arena, &sw->points, p))
      rc = VXP_ENOMEM;
    else {
      memmove(&sw->points.items[at + 1], &sw->points.items[at],
              (sw->points.len - 1 - at) * sizeof(p));
      sw->points.items[at] = p;
    }
  }
  if (rc != VXP_OK) {
    return rc; /* the point's strings are in the sweep's arena and go with it */
  }
  *fits = p.fits;
  return VXP_OK;
}

/* Analyse at `value` and record the point (each value once). */
static int evaluate(sweep_run *R, uint64_t value, bool *fits) {
  vxp_sweep *sw = R->sw;
  for (size_t i = 0; i < sw->points.len; i++) {
    if (sw->points.items[i].value == value) {
      *fits = sw->points.items[i].fits;
      return VXP_OK;
    }
  }
  vxp_analysis *an = NULL;
  int rc = analyse_at(R, value, &an);
  if (rc != VXP_OK) return rc;
  return record(R, value, an, fits);
}

/* ------------------------------------------------------------------ the search */

static int bisect(sweep_run *R, uint64_t lo, uint64_t hi, uint64_t *largest, bool *found) {
  bool ok;
  int rc = evaluate(R, lo, &ok);
  if (rc != VXP_OK || !ok) {
    *found = false;
    return rc;
  }
  *found = true;
  if ((rc = evaluate(R, hi, &ok)) != VXP_OK) return rc;
  if (ok) {
    *largest = hi;
    return VXP_OK;
  }
  /* fits(a), !fits(b): both ends of the boundary end up analysed. */
  uint64_t a = lo, b = hi;
  while (b - a > 1) {
    uint64_t mid = a + (b - a) / 2;
    if ((rc = evaluate(R, mid, &ok)) != VXP_OK) return rc;
    if (ok)
      a = mid;
    else
      b = mid;
  }
  *largest = a;
  return VXP_OK;
}

static int scan(sweep_run *R, uint64_t lo, uint64_t hi, uint64_t *largest, bool *found) {
  *found = false;
  for (uint64_t v = hi;; v--) {
    bool ok;
    int rc = evaluate(R, v, &ok);
    if (rc != VXP_OK) return rc;
    if (ok) {
      *found = true;
      *largest = v;
      return VXP_OK;
    }
    if (v == lo) return VXP_OK;
  }
}

/* The formula's answer, confirmed by analysing it and the value above it (the peaks cannot
 * shrink as the value grows, so those two decide); the reason then says so. Not confirmed
 * (a call tree, a diagnostic the formula cannot see): the bisection runs, and says why. */
static int confirm(sweep_run *R, const vxp_solution *sol, const vxp_sb *solved, uint64_t *largest,
                   bool *found, bool *confirmed) {
  vxp_sweep *sw = R->sw;
  const vxp_sweep_options *so = R->so;
  bool fits_at = false, fits_above = false, fits_lo = false;
  uint64_t v = sol->found ? sol->value : so->lo;
  /* `lo` is analysed already: when it does not fit (an error the formula does not see),
   * neither does anything the formula proposes, and the bisection ends there at once. */
  int rc = evaluate(R, so->lo, &fits_lo);
  if (rc != VXP_OK) return rc;
  if (sol->found && !fits_lo) {
    vxp_sb__printf(R->ctx, &sw->reason, "; %s, solved %s, gave %llu, but %llu does not fit",
                   vxp_sb__text(solved),
                   sol->how == VXP_SOLVE_CLOSED ? "in closed form" : "on the formula",
                   (unsigned long long)v, (unsigned long long)so->lo);
    return sw->reason.failed ? VXP_ENOMEM : VXP_OK;
  }
  rc = evaluate(R, v, &fits_at);
  if (rc == VXP_OK && sol->found && v < so->hi) rc = evaluate(R, v + 1, &fits_above);
  if (rc != VXP_OK) return rc;
  *confirmed = sol->found ? fits_at && !fits_above : !fits_at;
  const char *how = sol->how == VXP_SOLVE_CLOSED ? "in closed form" : "on the formula";
  if (!*confirmed) {
    vxp_sb__printf(
        R->ctx, &sw->reason, "; %s, solved %s, gave %s%llu, which the analyses did not confirm",
        vxp_sb__text(solved), how, sol->found ? "" : "nothing from ", (unsigned long long)v);
    return sw->reason.failed ? VXP_ENOMEM : VXP_OK;
  }
  *found = sol->found;
  *largest = v;
  sw->method = VXP_SEARCH_FORMULA;
  vxp_sb__free(R->ctx, &sw->reason);
  if (sol->found && v < so->hi)
    vxp_sb__printf(
        R->ctx, &sw->reason,
        "%s, solved %s: %s = %llu, confirmed by the analyses at %llu (fits) and %llu "
        "(does not); every shape that mentions %s grows with it, so the peaks cannot shrink "
        "as it grows and no larger value fits",
        vxp_sb__text(solved), how, so->name, (unsigned long long)v, (unsigned long long)v,
        (unsigned long long)v + 1, so->name);
  else if (sol->found)
    vxp_sb__printf(R->ctx, &sw->reason,
                   "%s, solved %s: every value up to %llu fits, confirmed by the analysis at "
                   "%llu; every shape that mentions %s grows with it, so the peaks cannot shrink "
                   "as it grows",
                   vxp_sb__text(solved), how, (unsigned long long)v, (unsigned long long)v,
                   so->name);
  else
    vxp_sb__printf(R->ctx, &sw->reason,
                   "%s, solved %s: not even %llu fits, confirmed by the analysis there; every "
                   "shape that mentions %s grows with it, so the peaks cannot shrink as it grows "
                   "and no larger value fits",
                   vxp_sb__text(solved), how, (unsigned long long)v, so->name);
  return sw->reason.failed ? VXP_ENOMEM : VXP_OK;
}

static size_t index_of(const vxp_sweep *sw, uint64_t value) {
  for (size_t i = 0; i < sw->points.len; i++)
    if (sw->points.items[i].value == value) return i;
  return SIZE_MAX;
}

int vxp_sweep_options_init(vxp_sweep_options *opts, unsigned int version) {
  if (!opts) return VXP_EINVAL;
  if (!VXP__VERSION_OK(version, VXP_SWEEP_OPTIONS_VERSION)) return VXP_EVERSION;
  memset(opts, 0, sizeof(*opts));
  opts->version = version;
  return VXP_OK;
}

int vxp_question__record(vxp_context *ctx, vxp_arena *arena, vxp_question *q,
                         const vxp_program *prog, const vxp_analyze_options *analyze,
                         const char *name, uint64_t lo, uint64_t hi, uint32_t margin_ppm,
                         const char *function, const char *space) {
  const vxp_machine *machine = analyze ? analyze->machine : NULL;
  const vxp_machine *host = analyze ? analyze->host : NULL;
  size_t extra = analyze ? analyze->override_count : 0;
  q->lo = lo;
  q->hi = hi;
  q->margin_ppm = margin_ppm;
  q->file = vxp_arena__strdup(ctx, arena, prog->src && prog->src->label ? prog->src->label : "");
  q->name = vxp_arena__strdup(ctx, arena, name);
  if (!q->file || !q->name) return VXP_ENOMEM;
  if (machine && machine->label && !(q->machine = vxp_arena__strdup(ctx, arena, machine->label)))
    return VXP_ENOMEM;
  if (host && host->label && !(q->host = vxp_arena__strdup(ctx, arena, host->label)))
    return VXP_ENOMEM;
  if (function && !(q->function = vxp_arena__strdup(ctx, arena, function))) return VXP_ENOMEM;
  if (space && !(q->space = vxp_arena__strdup(ctx, arena, space))) return VXP_ENOMEM;
  if (extra && (extra > SIZE_MAX / sizeof(*q->defines) ||
                !(q->defines = vxp_arena__alloc(ctx, arena, extra * sizeof(*q->defines)))))
    return VXP_ENOMEM;
  for (size_t i = 0; i < extra; i++) {
    const char *n = analyze->overrides[i].name ? analyze->overrides[i].name : "";
    if (!(q->defines[i].name = vxp_arena__strdup(ctx, arena, n))) return VXP_ENOMEM;
    q->defines[i].value = analyze->overrides[i].value;
    q->define_count++;
  }
  return VXP_OK;
}

int vxp_question__check(vxp_context *ctx, const char *call, const char *varied, const char *verb,
                        const vxp_program *prog, const vxp_analyze_options *analyze,
                        const char *name, uint64_t lo, uint64_t hi, uint32_t margin_ppm) {
  if (analyze && !VXP__VERSION_OK(analyze->version, VXP_ANALYZE_OPTIONS_VERSION))
    return vxp_ctx__error(ctx, VXP_EVERSION, "vxp_analyze_options version %u is not supported",
                          analyze->version);
  if (!name || !name[0]) return vxp_ctx__error(ctx, VXP_EINVAL, "%s: no constant name", call);
  if (lo > hi)
    return vxp_ctx__error(ctx, VXP_EINVAL, "%s: lo %llu is greater than hi %llu", call,
                          (unsigned long long)lo, (unsigned long long)hi);
  if (margin_ppm >= 1000000u)
    return vxp_ctx__error(ctx, VXP_EINVAL, "%s: a margin of %u millionths leaves nothing to fit in",
                          call, margin_ppm);
  size_t extra = analyze ? analyze->override_count : 0;
  if (extra && !analyze->overrides)
    return vxp_ctx__error(ctx, VXP_EINVAL,
                          "vxp_analyze_options: override_count %zu with no overrides", extra);
  for (size_t i = 0; i < extra; i++) {
    if (analyze->overrides[i].name && strcmp(analyze->overrides[i].name, name) == 0)
      return vxp_ctx__error(ctx, VXP_EINVAL, "%s: '%s' is both %s and overridden", call, name,
                            varied);
  }
  if (vxp_strtab__find(&prog->model.names, name, strlen(name)) == VXP_NAME_NONE)
    return vxp_ctx__error(ctx, VXP_ENOTFOUND,
                          "the program never names '%s': there is nothing to %s", name, verb);
  return VXP_OK;
}

static int run_sweep(vxp_sweep **out, vxp_context *ctx, const vxp_program *prog,
                     const vxp_analyze_options *analyze, const vxp_sweep_options *so) {
  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (!out || !ctx || !prog || !so)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_sweep_run") : VXP_EINVAL;
  if (!VXP__VERSION_OK(so->version, VXP_SWEEP_OPTIONS_VERSION))
    return vxp_ctx__error(ctx, VXP_EVERSION, "vxp_sweep_options version %u is not supported",
                          so->version);
  int rc = vxp_question__check(ctx, "vxp_sweep_run", "swept", "sweep", prog, analyze, so->name,
                               so->lo, so->hi, so->margin_ppm);
  if (rc != VXP_OK) return rc;
  size_t extra = analyze ? analyze->override_count : 0;
  const vxp_model *m = &prog->model;
  vxp_name target = vxp_strtab__find(&m->names, so->name, strlen(so->name));

  vxp_sweep *sw = VXP_ARENA_HANDLE(ctx, vxp_sweep, arena);
  if (sw) {
    sw->tag = VXP_TAG_SWEEP;
    sw->ctx = ctx;
    sw->reason = vxp_sb__in_arena(&sw->arena);
  }
  vxp_const_override *overrides = vxp_ctx__calloc(ctx, extra + 1, sizeof(*overrides));
  vxp_const_binding *bindings = vxp_ctx__calloc(ctx, extra + 1, sizeof(*bindings));
  if (!sw || !overrides || !bindings) {
    vxp_sweep_free(sw);
    vxp_ctx__free(ctx, overrides);
    vxp_ctx__free(ctx, bindings);
    return vxp_ctx__nomem(ctx);
  }
  sw->largest = sw->rejected = SIZE_MAX;
  if (vxp_question__record(ctx, &sw->arena, &sw->q, prog, analyze, so->name, so->lo, so->hi,
                           so->margin_ppm, so->function, so->space) != VXP_OK) {
    vxp_ctx__free(ctx, overrides);
    vxp_ctx__free(ctx, bindings);
    vxp_sweep_free(sw);
    return vxp_ctx__nomem(ctx);
  }
  /* The overrides every analysis gets (the swept one last), and their names for the proof
   * (an overridden const item is a constant there, whatever its definition says). */
  size_t nb = 0;
  for (size_t i = 0; i < extra; i++) {
    overrides[i] = analyze->overrides[i];
    vxp_name n = analyze->overrides[i].name
                     ? vxp_strtab__find(&m->names, analyze->overrides[i].name,
                                        strlen(analyze->overrides[i].name))
                     : VXP_NAME_NONE;
    if (n != VXP_NAME_NONE) bindings[nb++] = (vxp_const_binding){n, analyze->overrides[i].value};
  }
  overrides[extra].name = so->name;
  bindings[nb++] = (vxp_const_binding){target, so->lo};

  sweep_run R = {sw, ctx, prog, VXP_ANALYZE_OPTIONS_INIT, overrides, so};
  if (analyze) { /* field by field: a version-1 struct is shorter */
    R.opts.machine = analyze->machine;
    R.opts.host = analyze->host;
    R.opts.machine_only = analyze->version >= 2 && analyze->machine_only;
    if (analyze->version >= 3) {
      R.opts.retypes = analyze->retypes;
      R.opts.retype_count = analyze->retype_count;
    }
  }
  R.opts.overrides = overrides;
  R.opts.override_count = extra + 1;
  /* The analyses (the proof's at `lo` too) share the sweep's time budget rather than each
   * getting one. */
  bool held = ctx->hold_deadline;
  ctx->hold_deadline = true;

  certifier c;
  memset(&c, 0, sizeof(c));
  c.prog = prog;
  c.m = m;
  c.target = target;
  c.overrides = bindings;
  c.override_count = nb;
  c.run = &R;
  c.ctx = ctx;
  c.why = &sw->reason;
  bool monotone = certify(&c);
  vxp_solution solution;
  memset(&solution, 0, sizeof(solution));
  vxp_sb solved = {0};
  rc = c.rc;
  if (rc == VXP_OK && sw->reason.failed) rc = VXP_ENOMEM;
  if (rc == VXP_OK && monotone) {
    sw->method = VXP_SEARCH_BISECTION;
    vxp_sb__free(ctx, &sw->reason);
    vxp_sb__printf(
        ctx, &sw->reason,
        "every shape that mentions %s grows with it (sums, products, and differences and "
        "quotients with constants), and no `if comptime` condition or generic argument "
        "depends on it, so the peaks cannot shrink as it grows",
        so->name);
    /* The formula may answer without the bisection: solved from the analysis at `lo`,
     * which the search's first point is anyway. */
    if (!c.at_lo && rc == VXP_OK) rc = analyse_lo(&R, &c.at_lo);
    if (c.at_lo && rc == VXP_OK)
      rc = vxp_sweep__solve(c.at_lo, so->name, so->lo, so->hi, so->function, so->space,
                            so->margin_ppm, &solution, &solved);
    /* Bisection starts at `lo`: the proof's analysis there is its first point. */
    bool fits;
    if (sw->reason.failed) rc = VXP_ENOMEM;
    if (c.at_lo && rc == VXP_OK)
      rc = record(&R, so->lo, c.at_lo, &fits);
    else
      vxp_analysis_free(c.at_lo);
    c.at_lo = NULL;
  } else if (rc == VXP_OK) {
    sw->method = VXP_SEARCH_SCAN;
    uint64_t limit = so->max_scan ? so->max_scan : 4096;
    if (so->hi - so->lo >= limit) {
      rc = vxp_ctx__error(ctx, VXP_EINVAL,
                          "the peaks are not shown to grow with %s (%s), so "
                          "every value must be analysed, and %llu..%llu is more than %llu "
                          "values: narrow the range",
                          so->name, vxp_sb__text(&sw->reason), (unsigned long long)so->lo,
                          (unsigned long long)so->hi, (unsigned long long)limit);
    }
  }
  vxp_analysis_free(c.at_lo); /* a scan analyses `lo` in its turn, if it gets there */
  if (rc == VXP_OK) {
    uint64_t largest = 0;
    bool found = false, confirmed = false;
    if (monotone && solution.how != VXP_SOLVE_NONE)
      rc = confirm(&R, &solution, &solved, &largest, &found, &confirmed);
    else if (monotone && solved.len) {
      vxp_sb__printf(ctx, &sw->reason, "; %s", vxp_sb__text(&solved));
      if (sw->reason.failed) rc = VXP_ENOMEM;
    }
    if (rc == VXP_OK && !confirmed)
      rc = monotone ? bisect(&R, so->lo, so->hi, &largest, &found)
                    : scan(&R, so->lo, so->hi, &largest, &found);
    if (rc == VXP_OK) {
      if (found) sw->largest = index_of(sw, largest);
      if (!found)
        sw->rejected = index_of(sw, so->lo);
      else if (largest < so->hi)
        sw->rejected = index_of(sw, largest + 1);
    }
  }
  ctx->hold_deadline = held;
  vxp_sb__free(ctx, &solved);
  vxp_ctx__free(ctx, overrides);
  vxp_ctx__free(ctx, bindings);
  if (rc != VXP_OK) {
    vxp_sweep_free(sw);
    return rc == VXP_ENOMEM ? vxp_ctx__nomem(ctx) : rc;
  }
  *out = sw;
  return VXP_OK;
}

int vxp_sweep_run(vxp_sweep **out, vxp_context *ctx, const vxp_program *prog,
                  const vxp_analyze_options *analyze, const vxp_sweep_options *so) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, prog, VXP_TAG_PROGRAM);
  if (analyze) VXP__TAG_RC(ctx, analyze->machine, VXP_TAG_MACHINE);
  if (analyze) VXP__TAG_RC(ctx, analyze->host, VXP_TAG_MACHINE);
  vxp_defaults d;
  const vxp_analyze_options *use;
  int rc = vxp_defaults__lend(ctx, prog, analyze, &d, &use);
  if (rc == VXP_OK) rc = run_sweep(out, ctx, prog, use, so);
  vxp_defaults__release(&d); /* the sweep keeps copies of what it reports */
  return rc;
}

void vxp_sweep_free(vxp_sweep *sw) {
  VXP__TAG(sw, VXP_TAG_SWEEP, );

  if (!sw) return;
  sw->tag = VXP_TAG_FREED;
  vxp_arena__free_handle(sw->ctx, &sw->arena);
}

/* ------------------------------------------------------------------ accessors */

vxp_search vxp_sweep_method(const vxp_sweep *sw) {
  VXP__TAG(sw, VXP_TAG_SWEEP, (vxp_search)0);
  return sw ? sw->method : (vxp_search)0;
}

const char *vxp_search_name(vxp_search search) {
  switch (search) {
  case VXP_SEARCH_BISECTION: return "bisection";
  case VXP_SEARCH_SCAN: return "scan";
  case VXP_SEARCH_FORMULA: return "formula";
  }
  return NULL;
}

const char *vxp_misfit_name(vxp_misfit misfit) {
  switch (misfit) {
  case VXP_MISFIT_NONE: return NULL;
  case VXP_MISFIT_OVER_CAPACITY: return "over_capacity";
  case VXP_MISFIT_WITHIN_MARGIN: return "within_margin";
  case VXP_MISFIT_SIZE_UNKNOWN: return "size_unknown";
  case VXP_MISFIT_ERROR: return "error";
  }
  return NULL;
}
const char *vxp_sweep_reason(const vxp_sweep *sw) {
  VXP__TAG(sw, VXP_TAG_SWEEP, NULL);
  return sw ? vxp_sb__text(&sw->reason) : NULL;
}
size_t vxp_sweep_evaluation_count(const vxp_sweep *sw) {
  VXP__TAG(sw, VXP_TAG_SWEEP, 0);
  return sw ? sw->evaluations : 0;
}
size_t vxp_sweep_point_count(const vxp_sweep *sw) {
  VXP__TAG(sw, VXP_TAG_SWEEP, 0);
  return sw ? sw->points.len : 0;
}

const vxp_sweep_point *vxp_sweep_point_at(const vxp_sweep *sw, size_t i) {
  VXP__TAG(sw, VXP_TAG_SWEEP, NULL);

  return (sw && i < sw->points.len) ? &sw->points.items[i] : NULL;
}

const vxp_sweep_point *vxp_sweep_largest(const vxp_sweep *sw) {
  VXP__TAG(sw, VXP_TAG_SWEEP, NULL);

  return (sw && sw->largest != SIZE_MAX) ? &sw->points.items[sw->largest] : NULL;
}

const vxp_sweep_point *vxp_sweep_first_rejected(const vxp_sweep *sw) {
  VXP__TAG(sw, VXP_TAG_SWEEP, NULL);

  return (sw && sw->rejected != SIZE_MAX) ? &sw->points.items[sw->rejected] : NULL;
}

uint64_t vxp_sweep_point_value(const vxp_sweep_point *p) { return p ? p->value : 0; }
int vxp_sweep_point_fits(const vxp_sweep_point *p) { return p && p->fits; }
uint64_t vxp_sweep_point_peak_bytes(const vxp_sweep_point *p) { return p ? p->peak_bytes : 0; }
uint64_t vxp_sweep_point_capacity_bytes(const vxp_sweep_point *p) {
  return p ? p->capacity_bytes : 0;
}
const char *vxp_sweep_point_function(const vxp_sweep_point *p) { return p ? p->function : NULL; }
const char *vxp_sweep_point_space(const vxp_sweep_point *p) { return p ? p->space : NULL; }
vxp_misfit vxp_sweep_point_reason(const vxp_sweep_point *p) {
  return p ? p->reason : VXP_MISFIT_NONE;
}
const char *vxp_sweep_point_cause_function(const vxp_sweep_point *p) { return p ? p->cause : NULL; }

const char *vxp_sweep_point_code(const vxp_sweep_point *p) {
  return (p && p->code[0]) ? p->code : NULL;
}
