/* SPDX-License-Identifier: Apache-2.0 */
/* poly.c - checked arithmetic on the polynomials of `--symbolic` (poly.h). */
#include "poly.h"

#define I128_MAX ((i128)(((u128)1 << 127) - 1))
#define I128_MIN (-I128_MAX - 1)

static unsigned degree(const vxp_term *t) {
  unsigned d = 0;
  for (unsigned v = 0; v < VXP_POLY_MAX_VARS; v++)
    d += t->exp[v];
  return d;
}

int vxp_poly__order(const vxp_term *x, const vxp_term *y) {
  unsigned dx = degree(x), dy = degree(y);
  if (dx != dy) return dx < dy ? -1 : 1;
  for (unsigned v = 0; v < VXP_POLY_MAX_VARS; v++)
    if (x->exp[v] != y->exp[v]) return x->exp[v] > y->exp[v] ? -1 : 1;
  return 0;
}

void vxp_poly__free(vxp_context *ctx, vxp_poly *p) {
  vxp_ctx__free(ctx, p->terms);
  p->terms = NULL;
  p->len = p->cap = 0;
}

static bool reserve(vxp_context *ctx, vxp_poly *p, size_t n) {
  if (n <= p->cap) return true;
  size_t cap = p->cap ? p->cap : 4;
  while (cap < n) {
    if (cap > SIZE_MAX / 2 / sizeof(vxp_term)) return false;
    cap *= 2;
  }
  vxp_term *t = vxp_ctx__realloc(ctx, p->terms, cap * sizeof(vxp_term));
  if (!t) return false;
  p->terms = t;
  p->cap = cap;
  return true;
}

vxp_poly_status vxp_poly__constant(vxp_context *ctx, vxp_poly *out, i128 c) {
  out->len = 0;
  if (c == 0) return VXP_POLY_OK;
  if (!reserve(ctx, out, 1)) return VXP_POLY_NOMEM;
  memset(&out->terms[0], 0, sizeof(vxp_term));
  out->terms[0].coef = c;
  out->len = 1;
  return VXP_POLY_OK;
}

vxp_poly_status vxp_poly__var(vxp_context *ctx, vxp_poly *out, unsigned var) {
  vxp_poly_status st = vxp_poly__constant(ctx, out, 1);
  if (st == VXP_POLY_OK && var < VXP_POLY_MAX_VARS) out->terms[0].exp[var] = 1;
  return st;
}

vxp_poly_status vxp_poly__copy(vxp_context *ctx, vxp_poly *out, const vxp_poly *p) {
  if (out == p) return VXP_POLY_OK;
  if (!reserve(ctx, out, p->len)) return VXP_POLY_NOMEM;
  if (p->len) memcpy(out->terms, p->terms, p->len * sizeof(vxp_term));
  out->len = p->len;
  return VXP_POLY_OK;
}

/* A merge of two canonical term lists. */
vxp_poly_status vxp_poly__add(vxp_context *ctx, vxp_poly *out, const vxp_poly *a, const vxp_poly *b,
                              int sign) {
  vxp_poly r = {0};
  if (!reserve(ctx, &r, a->len + b->len + 1)) return VXP_POLY_NOMEM;
  size_t i = 0, k = 0;
  while (i < a->len || k < b->len) {
    int c = i >= a->len ? 1 : k >= b->len ? -1 : vxp_poly__order(&a->terms[i], &b->terms[k]);
    vxp_term t;
    if (c < 0) {
      t = a->terms[i++];
    } else {
      t = b->terms[k++];
      if (sign < 0) {
        if (t.coef == I128_MIN) goto overflow;
        t.coef = -t.coef;
      }
      if (c == 0 && __builtin_add_overflow(t.coef, a->terms[i++].coef, &t.coef)) goto overflow;
    }
    if (t.coef != 0) r.terms[r.len++] = t;
  }
  vxp_poly__free(ctx, out);
  *out = r;
  return VXP_POLY_OK;
overflow:
  vxp_poly__free(ctx, &r);
  return VXP_POLY_OVERFLOW;
}

static vxp_poly_status add_term(vxp_context *ctx, vxp_poly *p, const vxp_term *t) {
  vxp_poly one = {(vxp_term *)t, 1, 1};
  return vxp_poly__add(ctx, p, p, &one, 1);
}

vxp_poly_status vxp_poly__mul(vxp_context *ctx, vxp_poly *out, const vxp_poly *a,
                              const vxp_poly *b) {
  out->len = 0;
  for (size_t i = 0; i < a->len; i++) {
    for (size_t k = 0; k < b->len; k++) {
      vxp_term t;
      if (__builtin_mul_overflow(a->terms[i].coef, b->terms[k].coef, &t.coef))
        return VXP_POLY_OVERFLOW;
      for (unsigned v = 0; v < VXP_POLY_MAX_VARS; v++) {
        unsigned e = (unsigned)a->terms[i].exp[v] + b->terms[k].exp[v];
        if (e > UINT8_MAX) return VXP_POLY_OVERFLOW;
        t.exp[v] = (uint8_t)e;
      }
      vxp_poly_status st = add_term(ctx, out, &t);
      if (st != VXP_POLY_OK) return st;
    }
  }
  return VXP_POLY_OK;
}

vxp_poly_status vxp_poly__scale(vxp_poly *p, i128 k) {
  if (k == 0) {
    p->len = 0;
    return VXP_POLY_OK;
  }
  for (size_t i = 0; i < p->len; i++)
    if (__builtin_mul_overflow(p->terms[i].coef, k, &p->terms[i].coef)) return VXP_POLY_OVERFLOW;
  return VXP_POLY_OK;
}

bool vxp_poly__divide_exact(vxp_poly *p, i128 d) {
  if (d <= 0) return false;
  for (size_t i = 0; i < p->len; i++)
    if (p->terms[i].coef % d != 0) return false;
  for (size_t i = 0; i < p->len; i++)
    p->terms[i].coef /= d;
  return true;
}

bool vxp_poly__is_constant(const vxp_poly *p, i128 *value) {
  if (p->len == 0) {
    *value = 0;
    return true;
  }
  if (p->len == 1 && degree(&p->terms[0]) == 0) {
    *value = p->terms[0].coef;
    return true;
  }
  return false;
}

bool vxp_poly__equal(const vxp_poly *a, const vxp_poly *b) {
  if (a->len != b->len) return false;
  for (size_t i = 0; i < a->len; i++)
    if (a->terms[i].coef != b->terms[i].coef || vxp_poly__order(&a->terms[i], &b->terms[i]) != 0)
      return false;
  return true;
}

/* Walks the two canonical lists together: a term of a that b lacks must be negative, one
 * of b that a lacks positive, and a shared one no larger in a. */
bool vxp_poly__dominated(const vxp_poly *a, const vxp_poly *b) {
  size_t i = 0, k = 0;
  while (i < a->len || k < b->len) {
    int c = i >= a->len ? 1 : k >= b->len ? -1 : vxp_poly__order(&a->terms[i], &b->terms[k]);
    if (c < 0) {
      if (a->terms[i++].coef > 0) return false;
    } else if (c > 0) {
      if (b->terms[k++].coef < 0) return false;
    } else {
      if (a->terms[i++].coef > b->terms[k++].coef) return false;
    }
  }
  return true;
}

bool vxp_poly__eval(const vxp_poly *p, const int64_t *values, size_t nvars, i128 *out) {
  i128 sum = 0;
  for (size_t i = 0; i < p->len; i++) {
    i128 t = p->terms[i].coef;
    for (unsigned v = 0; v < VXP_POLY_MAX_VARS; v++) {
      for (unsigned e = 0; e < p->terms[i].exp[v]; e++) {
        if (v >= nvars) return false;
        if (__builtin_mul_overflow(t, (i128)values[v], &t)) return false;
      }
    }
    if (__builtin_add_overflow(sum, t, &sum)) return false;
  }
  *out = sum;
  return true;
}
