/* SPDX-License-Identifier: Apache-2.0 */
/* test_notes.c - the notes and help lines of capacity errors (lib/notes.c). */
#include "support.h"

static const vxp_diagnostic *note_starting(const vxp_diagnostic *d, int help, const char *prefix) {
  for (size_t i = 0; i < vxp_diagnostic_note_count(d); i++) {
    const vxp_diagnostic *n = vxp_diagnostic_note(d, i);
    if (vxp_diagnostic_is_help(n) == help &&
        strncmp(vxp_diagnostic_message(n), prefix, strlen(prefix)) == 0)
      return n;
  }
  return NULL;
}

static void test_notes__e6010_lists_what_is_live_by_role_and_what_would_fit(void **state) {
  (void)state;
  test_run r = test_analyse(TEST_MACHINE_4MIB
                            "fn main() -> i32 {\n"
                            "  // role: weights\n"
                            "  let w = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W);\n"
                            "  let s0 = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W);\n"
                            "  let s1 = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W);\n"
                            "  let s2 = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W);\n"
                            "  let s3 = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W);\n"
                            "  print(w); print(s0); print(s1); print(s2); print(s3);\n"
                            "  return 0;\n"
                            "}\n");
  const vxp_diagnostic *d = test_find_diag(r.an, "E6010");
  assert_non_null(d);
  /* One role for the weights comment's paragraph (w, s0 ... s3 are all below it). */
  const vxp_diagnostic *live = note_starting(d, 0, "weights: 5 tiles live at the peak");
  assert_non_null(live);
  assert_true(vxp_diagnostic_has_range(live));
  assert_int_equal(vxp_diagnostic_range(live).start.line, 7); /* 0-based: w's line */
  assert_non_null(strstr(vxp_diagnostic_message(live), "5,242,880 bytes (5.00 MiB)"));
  assert_non_null(note_starting(d, 0, "to fit, the working set must shrink by 1,048,576 bytes"));
  const vxp_diagnostic *move = note_starting(
      d, 1,
      "if each of s0 ... s3 is needed for one step only, move this placement into the loop body");
  assert_non_null(move);
  assert_non_null(strstr(vxp_diagnostic_message(move), "fall by 3,145,728 bytes, which fits"));
  const vxp_diagnostic *oc = note_starting(d, 1, "if 'W' may spill");
  assert_non_null(oc);
  assert_true(vxp_diagnostic_has_range(oc)); /* at the space's declaration */
  test_done(&r);
}

static void test_notes__an_override_that_sizes_the_tiles_suggests_a_sweep(void **state) {
  (void)state;
  const char *text =
      TEST_MACHINE_4MIB "const B : i64 = 1;\n"
                        "const ROWS : i64 = 256 * B;\n"
                        "fn main() -> i32 {\n"
                        "  let a = transfer(Tensor<f32, [ROWS, 1024]>::uninit(), Memory::W);\n"
                        "  let b = transfer(Tensor<f32, [1024, 1024]>::uninit(), Memory::W);\n"
                        "  print(a); print(b);\n"
                        "  return 0;\n"
                        "}\n";
  vxp_context *ctx = test_context();
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_source_new(&src, ctx, "sized.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  vxp_const_override ov = {"B", 4};
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.overrides = &ov;
  opts.override_count = 1;
  assert_int_equal(vxp_analyze(&an, ctx, prog, &opts), VXP_OK);
  const vxp_diagnostic *d = test_find_diag(an, "E6010");
  assert_non_null(d);
  /* B reaches the shape through the const item ROWS. */
  assert_non_null(note_starting(d, 1,
                                "tiles live here are sized by `B`, 4 here (-D B=4): "
                                "`vxpeak sweep sized.vx --const B=1..4`"));
  vxp_analysis_free(an);
  /* One tile over the whole space: E6009 says by how much, and which constant sizes it. */
  ov.value = 32;
  assert_int_equal(vxp_analyze(&an, ctx, prog, &opts), VXP_OK);
  const vxp_diagnostic *e = test_find_diag(an, "E6009");
  assert_non_null(e);
  assert_non_null(note_starting(e, 1, "this one tile is 29,360,128 bytes (28.00 MiB) larger"));
  assert_non_null(note_starting(e, 1, "the tile is sized by `B`, 32 here"));
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_notes__e6010_lists_what_is_live_by_role_and_what_would_fit),
      cmocka_unit_test(test_notes__an_override_that_sizes_the_tiles_suggests_a_sweep),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
