/* SPDX-License-Identifier: Apache-2.0 */
/* model_check.h - the harness of the tests that hold a check to the model lowering made and
 * the analysis' machine view, never the syntax tree: the check is run again on its own, the
 * program's tree deleted, and must give what it gave inside the analysis. A test then edits a
 * fact of the model and runs the check alone again (test_check_alone) to show the verdict
 * follows the fact, whatever the text says. White box: include after support.h. */
#ifndef VXP_TEST_MODEL_CHECK_H
#define VXP_TEST_MODEL_CHECK_H

#include <tree_sitter/api.h>

#include "analysis_data.h" /* the analysis' machine view ... */
#include "program.h"       /* ... the program's model and tree ... */
#include "visibility.h"    /* ... and the checks' common signature */

/* A check of a program's model against a machine view (vxp_raw__check, vxp_visibility__check). */
typedef int (*test_model_check)(vxp_context *ctx, const vxp_source *src, const vxp_model *m,
                                size_t top_count, const vxp_machine_view *view,
                                vxp_diag_list *diags, const vxp_visibility_reuse *reuse,
                                vxp_item_ends *ends);

/* Run `check` alone on `m` and the view of `r`'s analysis; its diagnostics in `*out`, which the
 * caller frees with vxp_diag__list_free. */
static inline void test_check_alone(const test_run *r, test_model_check check, const vxp_model *m,
                                    vxp_diag_list *out) {
  memset(out, 0, sizeof(*out));
  assert_int_equal(check(r->ctx, r->src, m, 0, &r->an->view, out, NULL, NULL), VXP_OK);
}

/* Delete the program's syntax tree, run `check` alone on the model and assert it reports the
 * analysis' diagnostics whose code `owns` accepts, and no others: the same order, code,
 * message and place. Returns how many there are. */
static inline size_t test_check_without_tree(test_run *r, test_model_check check,
                                             bool (*owns)(const char *code)) {
  ts_tree_delete(r->prog->tree);
  r->prog->tree = NULL;
  vxp_diag_list alone;
  test_check_alone(r, check, &r->prog->model, &alone);
  size_t k = 0;
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(r->an); i++) {
    const vxp_diagnostic *d = vxp_analysis_diagnostic(r->an, i);
    if (!owns(vxp_diagnostic_code(d))) continue;
    assert_true(k < alone.len);
    const vxp_diagnostic *e = &alone.items[k++];
    assert_string_equal(vxp_diagnostic_code(e), vxp_diagnostic_code(d));
    assert_string_equal(vxp_diagnostic_message(e), vxp_diagnostic_message(d));
    assert_int_equal(e->range.start_byte, d->range.start_byte);
    assert_int_equal(e->range.end_byte, d->range.end_byte);
  }
  assert_int_equal(k, alone.len);
  vxp_diag__list_free(r->ctx, &alone);
  return k;
}

#endif /* VXP_TEST_MODEL_CHECK_H */
