/* SPDX-License-Identifier: Apache-2.0 */
/* poly.h - exact polynomials in a few named constants, with integer coefficients: the
 * arithmetic of `--symbolic` (formula.c). Coefficients are 128-bit and every operation
 * checks them, so that a formula is either exact or refused as too large, never wrapped. */
#ifndef VXP_POLY_H
#define VXP_POLY_H

#include "internal.h"

/* At most this many named constants in one formula (`--symbolic A,B,...`). */
#define VXP_POLY_MAX_VARS 8

/* coefficient x product over v of var_v ^ exp[v] */
typedef struct vxp_term {
  i128 coef;
  uint8_t exp[VXP_POLY_MAX_VARS];
} vxp_term;

/* Invariant: terms are in canonical order (vxp_poly__order), no two share exponents, and
 * none has a zero coefficient; the zero polynomial has no terms. */
typedef struct vxp_poly {
  vxp_term *terms;
  size_t len, cap;
} vxp_poly;

typedef enum vxp_poly_status {
  VXP_POLY_OK = 0,
  VXP_POLY_NOMEM,
  VXP_POLY_OVERFLOW /* a coefficient past 128 bits, or a power past 255 */
} vxp_poly_status;

void vxp_poly__free(vxp_context *ctx, vxp_poly *p);
vxp_poly_status vxp_poly__constant(vxp_context *ctx, vxp_poly *out, i128 c);
vxp_poly_status vxp_poly__var(vxp_context *ctx, vxp_poly *out, unsigned var);
vxp_poly_status vxp_poly__copy(vxp_context *ctx, vxp_poly *out, const vxp_poly *p);
/* out = a + sign x b (sign 1 or -1); out may be a. */
vxp_poly_status vxp_poly__add(vxp_context *ctx, vxp_poly *out, const vxp_poly *a, const vxp_poly *b,
                              int sign);
/* out = a x b; out must be neither a nor b. */
vxp_poly_status vxp_poly__mul(vxp_context *ctx, vxp_poly *out, const vxp_poly *a,
                              const vxp_poly *b);
/* p x= k, in place. */
vxp_poly_status vxp_poly__scale(vxp_poly *p, i128 k);
/* Whether every coefficient is a multiple of d (d > 0); when so, divide them in place. */
bool vxp_poly__divide_exact(vxp_poly *p, i128 d);
/* Whether p is a constant (no variable terms); *value its value when so. */
bool vxp_poly__is_constant(const vxp_poly *p, i128 *value);
bool vxp_poly__equal(const vxp_poly *a, const vxp_poly *b);
/* Whether b - a has no negative coefficient: a <= b wherever every variable is >= 0. */
bool vxp_poly__dominated(const vxp_poly *a, const vxp_poly *b);
/* p at `values` (one per variable), exactly; false when an intermediate passes 128 bits. */
bool vxp_poly__eval(const vxp_poly *p, const int64_t *values, size_t nvars, i128 *out);
/* The order terms are kept and printed in: the constant first, then by degree, then the
 * earlier-named variable's higher power first. Negative when x comes before y. */
int vxp_poly__order(const vxp_term *x, const vxp_term *y);

#endif /* VXP_POLY_H */
