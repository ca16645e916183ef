/* SPDX-License-Identifier: Apache-2.0 */
/* sweep_formula.c - the largest value within every budget, read from the peaks' formulas
 * (sweep_formula.h). A linear peak a + b x N <= B gives N <= (B - a) / b at once; a peak of
 * higher degree, known not to shrink as N grows, is bisected on the formula itself. The
 * sweep then analyses the answer and the value above it: the formula proposes, the
 * analysis decides. */
#include "sweep_formula.h"

#include "formula.h"

typedef struct budget_set {
  const vxp_formula_set *set;
  const vxp_resident_set *rs;
  uint64_t budget; /* the most bytes the set may hold */
} budget_set;

/* Whether every set is within its budget at `v` (an overflow is over it). */
static bool within(const vxp_formula *f, const budget_set *sets, size_t n, uint64_t v,
                   size_t *binding) {
  for (size_t i = 0; i < n; i++) {
    uint64_t bytes;
    size_t index = (size_t)(sets[i].rs - f->an->resident_sets.items);
    if (vxp_formula_evaluate(f, index, &v, &bytes) != VXP_OK || bytes > sets[i].budget) {
      if (binding) *binding = i;
      return false;
    }
  }
  return true;
}

/* The largest v in lo..hi with a + b v <= B for every linear alternative of every set,
 * or false when one is not linear in the constant, or decreases. */
static bool solve_linear(const budget_set *sets, size_t n, uint64_t lo, uint64_t hi, uint64_t *best,
                         bool *found) {
  i128 bound = (i128)hi;
  for (size_t i = 0; i < n; i++) {
    for (size_t a = 0; a < sets[i].set->alt_count; a++) {
      const vxp_poly *p = &sets[i].set->alts[a];
      i128 c0 = 0, c1 = 0;
      for (size_t t = 0; t < p->len; t++) {
        unsigned e = p->terms[t].exp[0];
        if (e == 0)
          c0 = p->terms[t].coef;
        else if (e == 1)
          c1 = p->terms[t].coef;
        else
          return false;
      }
      if (c1 < 0) return false;
      i128 room = (i128)sets[i].budget - c0;
      if (c1 == 0) {
        if (room < 0) bound = -1;
        continue;
      }
      /* floor division: room may be negative */
      i128 q = room >= 0 ? room / c1 : -((-room + c1 - 1) / c1);
      if (q < bound) bound = q;
    }
  }
  *found = bound >= (i128)lo;
  if (*found) *best = (uint64_t)bound;
  return true;
}

int vxp_sweep__solve(const vxp_analysis *at_lo, const char *name, uint64_t lo, uint64_t hi,
                     const char *function, const char *space, uint32_t margin_ppm,
                     vxp_solution *out, vxp_sb *why) {
  vxp_context *ctx = at_lo->ctx;
  memset(out, 0, sizeof(*out));
  vxp_formula *f = NULL;
  int rc = vxp_formula_new(&f, at_lo, &name, 1);
  if (rc == VXP_ENOMEM) return rc;
  if (rc != VXP_OK) {
    vxp_sb__printf(ctx, why, "no formula: %s", vxp_context_errmsg(ctx));
    return VXP_OK;
  }
  budget_set *sets = vxp_ctx__calloc(ctx, f->set_count ? f->set_count : 1, sizeof(*sets));
  if (!sets) {
    vxp_formula_free(f);
    return VXP_ENOMEM;
  }
  size_t n = 0;
  for (size_t i = 0; i < f->set_count; i++) {
    const vxp_resident_set *rs = &at_lo->resident_sets.items[i];
    const vxp_space *sp = at_lo->view.spaces.items[rs->space];
    if (!sp->has_capacity || (function && strcmp(function, rs->function_name) != 0) ||
        (space && strcmp(space, rs->space_name) != 0))
      continue;
    if (!f->sets[i].polynomial) {
      vxp_sb__printf(ctx, why, "%s's %s peak is no formula in %s: %s", rs->function_name,
                     rs->space_name, name, f->sets[i].reason);
      n = 0;
      goto done;
    }
    sets[n].set = &f->sets[i];
    sets[n].rs = rs;
    sets[n].budget = (uint64_t)(vxp_space__budget(sp, margin_ppm) / 1000000u);
    n++;
  }
  if (n == 0) {
    vxp_sb__printf(ctx, why, "no peak with a capacity to solve for");
    goto done;
  }
  if (solve_linear(sets, n, lo, hi, &out->value, &out->found)) {
    out->how = VXP_SOLVE_CLOSED;
  } else {
    /* Non-decreasing in the constant (the caller's proof): the last value within. */
    out->how = VXP_SOLVE_SEARCH;
    out->found = within(f, sets, n, lo, NULL);
    uint64_t a = lo, b = hi;
    if (out->found && within(f, sets, n, hi, NULL)) {
      a = hi;
    } else if (out->found) {
      while (b - a > 1) {
        uint64_t mid = a + (b - a) / 2;
        if (within(f, sets, n, mid, NULL))
          a = mid;
        else
          b = mid;
      }
    }
    out->value = a;
  }
  /* The set that binds: the first over its budget one above the answer. */
  size_t binding = 0;
  if (out->found && out->value < hi) within(f, sets, n, out->value + 1, &binding);
  if (!out->found) within(f, sets, n, lo, &binding);
  vxp_sb__printf(ctx, why, "%s's %s peak is %s bytes", sets[binding].rs->function_name,
                 sets[binding].rs->space_name, sets[binding].set->text);
done:
  vxp_ctx__free(ctx, sets);
  vxp_formula_free(f);
  return why->failed ? VXP_ENOMEM : VXP_OK;
}
