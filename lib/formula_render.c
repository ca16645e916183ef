/* SPDX-License-Identifier: Apache-2.0 */
/* formula_render.c - a formula as text ("14,176,298,752 + 262,144 x BATCH") and as JSON
 * ("peak_formula": alternatives of terms {"coefficient", "constants"}). */
#include "formula.h"
#include "report/report.h"
#include "strbuf.h"

const char *vxp_formula__int(i128 v, bool grouped, char buf[64]) {
  char digits[48];
  size_t n = 0;
  u128 mag = v < 0 ? (u128)0 - (u128)v : (u128)v;
  do {
    digits[n++] = (char)('0' + (int)(mag % 10));
    mag /= 10;
  } while (mag);
  size_t o = 0;
  if (v < 0) buf[o++] = '-';
  for (size_t i = n; i-- > 0;) {
    buf[o++] = digits[i];
    if (grouped && i > 0 && i % 3 == 0) buf[o++] = ',';
  }
  buf[o] = '\0';
  return buf;
}

/* One alternative: terms in their canonical order, a coefficient of 1 left out before a
 * constant, subtraction written as such. */
static void put_poly(vxp_context *ctx, vxp_sb *sb, const vxp_formula *f, const vxp_poly *p) {
  if (p->len == 0) {
    vxp_sb__putc(ctx, sb, '0');
    return;
  }
  for (size_t i = 0; i < p->len; i++) {
    const vxp_term *t = &p->terms[i];
    char buf[64];
    bool negative = t->coef < 0;
    if (i > 0)
      vxp_sb__puts(ctx, sb, negative ? " - " : " + ");
    else if (negative)
      vxp_sb__putc(ctx, sb, '-');
    i128 mag = negative ? -t->coef : t->coef;
    bool any_var = false;
    for (size_t v = 0; v < f->nvars; v++)
      any_var = any_var || t->exp[v];
    bool first = true;
    if (mag != 1 || !any_var) {
      vxp_sb__puts(ctx, sb, vxp_formula__int(mag, true, buf));
      first = false;
    }
    for (size_t v = 0; v < f->nvars; v++) {
      for (unsigned e = 0; e < t->exp[v]; e++) {
        vxp_sb__puts(ctx, sb, first ? "" : " x ");
        vxp_sb__puts(ctx, sb, f->names[v]);
        first = false;
      }
    }
  }
}

void vxp_formula__line(vxp_context *ctx, vxp_sb *sb, const vxp_formula *f,
                       const vxp_resident_set *rs) {
  const vxp_formula_set *s = vxp_formula__for_set(f, rs);
  if (!s) return;
  if (s->polynomial) {
    vxp_sb__printf(ctx, sb, "%s: %s peak = %s bytes\n", rs->function_name, rs->space_name, s->text);
    return;
  }
  char buf[64];
  vxp_sb__printf(ctx, sb, "%s: %s peak is not a polynomial in ", rs->function_name, rs->space_name);
  for (size_t v = 0; v < f->nvars; v++)
    vxp_sb__printf(ctx, sb, "%s%s", v == 0 ? "" : v + 1 == f->nvars ? " and " : ", ", f->names[v]);
  vxp_sb__printf(ctx, sb, ": %s; at ", s->reason);
  for (size_t v = 0; v < f->nvars; v++)
    vxp_sb__printf(ctx, sb, "%s%s = %s", v ? ", " : "", f->names[v],
                   vxp_formula__int(f->at[v], true, buf));
  vxp_sb__printf(ctx, sb, " it is %s bytes\n", vxp_formula__int(rs->peak_bytes, true, buf));
}

bool vxp_formula__render_text(vxp_formula *f, vxp_formula_set *s) {
  if (!s->polynomial) return true;
  vxp_sb sb = {0};
  if (s->alt_count > 1) vxp_sb__puts(f->ctx, &sb, "max(");
  for (size_t a = 0; a < s->alt_count; a++) {
    if (a) vxp_sb__puts(f->ctx, &sb, ", ");
    put_poly(f->ctx, &sb, f, &s->alts[a]);
  }
  if (s->alt_count > 1) vxp_sb__putc(f->ctx, &sb, ')');
  s->text = vxp_sb__detach(f->ctx, &sb, NULL);
  return s->text != NULL;
}

void vxp_formula__json_keys(struct vxp_jw *j, const vxp_formula *f, const vxp_formula_set *s) {
  vxp_jw__key(j, "peak_formula");
  if (!s->polynomial) {
    vxp_jw__null(j);
    vxp_jw__key(j, "peak_formula_reason");
    vxp_jw__string(j, s->reason);
    return;
  }
  vxp_jw__open(j, '[');
  for (size_t a = 0; a < s->alt_count; a++) {
    const vxp_poly *p = &s->alts[a];
    vxp_jw__open(j, '[');
    for (size_t i = 0; i < p->len; i++) {
      char buf[64];
      vxp_jw__open(j, '{');
      vxp_jw__key(j, "coefficient");
      vxp_jw__number(j, vxp_formula__int(p->terms[i].coef, false, buf));
      vxp_jw__key(j, "constants");
      vxp_jw__open(j, '[');
      for (size_t v = 0; v < f->nvars; v++)
        for (unsigned e = 0; e < p->terms[i].exp[v]; e++)
          vxp_jw__string(j, f->names[v]);
      vxp_jw__close(j, ']');
      vxp_jw__close(j, '}');
    }
    vxp_jw__close(j, ']');
  }
  vxp_jw__close(j, ']');
}

const char *vxp_formula_json(vxp_formula *f, size_t *len) {
  VXP__TAG(f, VXP_TAG_FORMULA, NULL);
  if (len) *len = 0;
  if (!f) return NULL;
  if (!f->json) {
    vxp_sb sb = {0};
    vxp_jw j;
    vxp_jw__init(&j, f->ctx, &sb, false);
    vxp_jw__open(&j, '{');
    vxp_jw__key(&j, "constants");
    vxp_jw__open(&j, '[');
    for (size_t v = 0; v < f->nvars; v++)
      vxp_jw__string(&j, f->names[v]);
    vxp_jw__close(&j, ']');
    vxp_jw__key(&j, "values");
    vxp_jw__open(&j, '[');
    for (size_t v = 0; v < f->nvars; v++)
      vxp_jw__i64(&j, f->at[v]);
    vxp_jw__close(&j, ']');
    vxp_jw__key(&j, "resident_sets");
    vxp_jw__open(&j, '[');
    for (size_t i = 0; i < f->set_count; i++) {
      const vxp_resident_set *rs = &f->an->resident_sets.items[i];
      vxp_jw__open(&j, '{');
      vxp_jw__key(&j, "function");
      vxp_jw__string(&j, rs->function_name);
      vxp_jw__key(&j, "space");
      vxp_jw__string(&j, rs->space_name);
      vxp_jw__key(&j, "total_bytes");
      vxp_jw__u64(&j, rs->peak_bytes);
      vxp_formula__json_keys(&j, f, &f->sets[i]);
      vxp_jw__key(&j, "text");
      vxp_jw__string(&j, f->sets[i].text);
      vxp_jw__close(&j, '}');
    }
    vxp_jw__close(&j, ']');
    vxp_jw__close(&j, '}');
    f->json = vxp_sb__detach(f->ctx, &sb, &f->json_len);
    if (!f->json) {
      vxp_ctx__nomem(f->ctx);
      return NULL;
    }
  }
  if (len) *len = f->json_len;
  return f->json;
}
