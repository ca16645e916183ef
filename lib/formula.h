/* SPDX-License-Identifier: Apache-2.0 */
/* formula.h - each resident set's peak as an exact formula in named const items
 * (`--symbolic`): the structure of the peak from the analysis (which tiles are live
 * together), the size of each tile from its shape folded symbolically (formula.c). */
#ifndef VXP_FORMULA_H
#define VXP_FORMULA_H

#include "analysis_data.h"
#include "poly.h"
#include "strbuf.h"

/* One resident set's formula: the maximum of `alts` (each a live total at a placement,
 * those no larger than another wherever the constants are >= 0 left out), or why there is
 * none. */
typedef struct vxp_formula_set {
  bool polynomial;
  char *reason; /* when not: a sentence naming the construct, its line and the constant */
  vxp_poly *alts;
  size_t alt_count;
  char *text; /* "14,176,298,752 + 262,144 x BATCH", or max(...) of several */
} vxp_formula_set;

struct vxp_formula {
  uint32_t tag; /* VXP_TAG_FORMULA, first: checked on entry (tag.h) */
  vxp_context *ctx;
  const vxp_analysis *an;
  size_t nvars;
  char *names[VXP_POLY_MAX_VARS];
  vxp_name ids[VXP_POLY_MAX_VARS];
  int64_t at[VXP_POLY_MAX_VARS]; /* their values at the analysed point */
  size_t set_count;              /* the analysis' resident sets, in its order */
  vxp_formula_set *sets;
  char *json; /* vxp_formula_json's, made once */
  size_t json_len;
};

/* The set of resident set `rs` of the formula's analysis, or NULL. */
const vxp_formula_set *vxp_formula__for_set(const vxp_formula *f, const vxp_resident_set *rs);

/* Text and JSON of a set (formula_render.c). `text` is made by vxp_formula__render_text. */
bool vxp_formula__render_text(vxp_formula *f, vxp_formula_set *s);
struct vxp_jw;
/* The "peak_formula" key and its list, and "peak_formula_reason" when there is none. */
void vxp_formula__json_keys(struct vxp_jw *j, const vxp_formula *f, const vxp_formula_set *s);
/* The line a text report gives under a peak: "main: HBM peak = A + B x BATCH bytes", or why
 * there is no formula and the figure at the analysed point. Nothing when `f` is NULL. */
void vxp_formula__line(vxp_context *ctx, vxp_sb *sb, const vxp_formula *f,
                       const vxp_resident_set *rs);
/* A coefficient in decimal, grouped by thousands (`grouped`) or plain. */
const char *vxp_formula__int(i128 v, bool grouped, char buf[64]);

#endif /* VXP_FORMULA_H */
