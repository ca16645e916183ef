/* SPDX-License-Identifier: Apache-2.0 */
/* test_retype.c - `--retype ROLE=TYPE` (lib/retype.c, vxp_analyze_options version 3): the
 * decode step's KV cache in f8 halves it, in the peak, the formula and the sweep; a machine
 * whose dtypes lack the type refuses it (E6026); unknown roles and types are refused with
 * the known ones; an older options struct is read without them. */
#include "support.h"

typedef struct run {
  vxp_context *ctx;
  vxp_source *src, *machine_src;
  vxp_program *prog;
  vxp_machine *machine, *host;
} run;

static run open_decode(const char *machine_file) {
  run r;
  memset(&r, 0, sizeof(r));
  r.ctx = test_context();
  assert_int_equal(vxp_source_load_file(&r.src, r.ctx, "examples/llama2/decode.vx"), VXP_OK);
  assert_int_equal(vxp_program_parse(&r.prog, r.ctx, r.src), VXP_OK);
  if (machine_file) {
    assert_int_equal(vxp_source_load_file(&r.machine_src, r.ctx, machine_file), VXP_OK);
    assert_int_equal(vxp_machine_load(&r.machine, r.ctx, r.machine_src), VXP_OK);
  } else { /* a machine with f8 among its dtypes */
    assert_int_equal(vxp_source_load_file(&r.machine_src, r.ctx, "fleet/h100-sxm.vx"), VXP_OK);
    assert_int_equal(vxp_machine_load(&r.machine, r.ctx, r.machine_src), VXP_OK);
  }
  assert_int_equal(vxp_machine_builtin(&r.host, r.ctx, "host-default"), VXP_OK);
  return r;
}

static void close_run(run *r) {
  vxp_machine_free(r->host);
  vxp_machine_free(r->machine);
  vxp_source_free(r->machine_src);
  vxp_program_free(r->prog);
  vxp_source_free(r->src);
  vxp_context_free(r->ctx);
}

static vxp_analyze_options options(const run *r, const vxp_retype *rt, size_t n) {
  vxp_analyze_options o = VXP_ANALYZE_OPTIONS_INIT;
  o.machine = r->machine;
  o.host = r->host;
  o.retypes = rt;
  o.retype_count = n;
  return o;
}

static uint64_t peak_of(run *r, const vxp_analyze_options *o) {
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_analyze(&an, r->ctx, r->prog, o), VXP_OK);
  assert_int_equal(vxp_analysis_error_count(an), 0);
  uint64_t peak = vxp_resident_set_peak_bytes(vxp_analysis_resident_set(an, 0));
  vxp_analysis_free(an);
  return peak;
}

static void kv_cache_in_f8_halves_its_bytes_in_the_peak_and_the_formula(void **state) {
  (void)state;
  run r = open_decode(NULL);
  vxp_analyze_options plain = options(&r, NULL, 0);
  vxp_retype f8 = {"KV cache", "f8e4m3"};
  vxp_analyze_options retyped = options(&r, &f8, 1);
  /* 2 x 32 x 4096 x 8 x 4096 elements of 2 bytes, then of 1 */
  assert_true(peak_of(&r, &plain) - peak_of(&r, &retyped) == 8589934592ull);
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_analyze(&an, r.ctx, r.prog, &retyped), VXP_OK);
  const char *names[] = {"BATCH"};
  vxp_formula *f = NULL;
  assert_int_equal(vxp_formula_new(&f, an, names, 1), VXP_OK);
  assert_string_equal(vxp_formula_text(f, 0), "14,176,298,752 + 1,074,003,968 x BATCH");
  vxp_formula_free(f);
  vxp_analysis_free(an);
  close_run(&r);
}

static void a_later_retype_of_the_same_role_wins(void **state) {
  (void)state;
  run r = open_decode(NULL);
  vxp_retype twice[2] = {{"KV cache", "f32"}, {"KV cache", "f8e4m3"}};
  vxp_retype once = {"KV cache", "f8e4m3"};
  vxp_analyze_options a = options(&r, twice, 2), b = options(&r, &once, 1);
  assert_true(peak_of(&r, &a) == peak_of(&r, &b));
  close_run(&r);
}

static void sweep_finds_the_larger_batch_an_f8_cache_allows(void **state) {
  (void)state;
  run r = open_decode(NULL);
  vxp_retype f8 = {"KV cache", "f8e4m3"};
  vxp_analyze_options o = options(&r, &f8, 1);
  vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
  so.name = "BATCH";
  so.lo = 1;
  so.hi = 256;
  vxp_sweep *sw = NULL;
  assert_int_equal(vxp_sweep_run(&sw, r.ctx, r.prog, &o, &so), VXP_OK);
  const vxp_sweep_point *largest = vxp_sweep_largest(sw);
  assert_non_null(largest);
  uint64_t best = vxp_sweep_point_value(largest);
  /* 14,176,298,752 + 1,074,003,968 B <= 80,000,000,000: B <= 61.3 (30 in f16) */
  assert_true(best == 61);
  vxp_sweep_free(sw);
  close_run(&r);
}

static void a_type_the_machine_lacks_is_refused_where_the_tile_is_placed(void **state) {
  (void)state;
  run r = open_decode("fleet/a100-40.vx"); /* dtypes: no f8 */
  vxp_retype f8 = {"KV cache", "f8e4m3"};
  vxp_analyze_options o = options(&r, &f8, 1);
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_analyze(&an, r.ctx, r.prog, &o), VXP_OK);
  const vxp_diagnostic *d = test_find_diag(an, "E6026");
  assert_non_null(d);
  assert_non_null(strstr(vxp_diagnostic_message(d), "has element type f8e4m3"));
  vxp_analysis_free(an);
  close_run(&r);
}

static void an_unknown_role_or_type_is_refused_with_the_known_ones(void **state) {
  (void)state;
  run r = open_decode(NULL);
  vxp_retype role = {"kv", "f8e4m3"}, type = {"KV cache", "f7"};
  vxp_analyze_options a = options(&r, &role, 1), b = options(&r, &type, 1);
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_analyze(&an, r.ctx, r.prog, &a), VXP_ENOTFOUND);
  assert_null(an);
  assert_string_equal(vxp_context_errmsg(r.ctx),
                      "no tile has the role 'kv'; the program's roles: layer weights, embeddings, "
                      "workspace, KV cache, activations");
  assert_int_equal(vxp_analyze(&an, r.ctx, r.prog, &b), VXP_ENOTFOUND);
  assert_non_null(strstr(vxp_context_errmsg(r.ctx),
                         "'f7' is not an element type; the element types: bool, i4, u4"));
  close_run(&r);
}

static void a_version_2_options_struct_is_read_without_retypes(void **state) {
  (void)state;
  run r = open_decode(NULL);
  vxp_retype f8 = {"KV cache", "f8e4m3"};
  vxp_analyze_options old = options(&r, &f8, 1), plain = options(&r, NULL, 0);
  old.version = 2; /* an older caller's struct ends before `retypes` */
  assert_true(peak_of(&r, &old) == peak_of(&r, &plain));
  vxp_analyze_options init;
  memset(&init, 0xff, sizeof(init));
  assert_int_equal(vxp_analyze_options_init(&init, 2), VXP_OK);
  assert_int_equal(init.machine_only, 0);
  close_run(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(kv_cache_in_f8_halves_its_bytes_in_the_peak_and_the_formula),
      cmocka_unit_test(a_later_retype_of_the_same_role_wins),
      cmocka_unit_test(sweep_finds_the_larger_batch_an_f8_cache_allows),
      cmocka_unit_test(a_type_the_machine_lacks_is_refused_where_the_tile_is_placed),
      cmocka_unit_test(an_unknown_role_or_type_is_refused_with_the_known_ones),
      cmocka_unit_test(a_version_2_options_struct_is_read_without_retypes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
