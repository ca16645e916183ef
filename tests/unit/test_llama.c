/* SPDX-License-Identifier: Apache-2.0 */
/* test_llama.c - the Vx blog post's Llama-2-7B figures, to the byte, through the public
 * API: examples/llama2/prefill.vx against fleet/a100-40.vx at batch 1, 8 and 9 (the batch
 * set with a constant override, as `vxpeak check -D BATCH=N` does). */
#include "support.h"

typedef struct llama_run {
  vxp_context *ctx;
  vxp_source *src, *machine_src;
  vxp_program *prog;
  vxp_machine *machine, *host;
  vxp_analysis *an;
} llama_run;

static llama_run analyse_llama(uint64_t batch, int with_override) {
  llama_run r;
  memset(&r, 0, sizeof(r));
  r.ctx = test_context();
  assert_int_equal(vxp_source_load_file(&r.src, r.ctx, "examples/llama2/prefill.vx"), VXP_OK);
  assert_int_equal(vxp_program_parse(&r.prog, r.ctx, r.src), VXP_OK);
  assert_int_equal(vxp_source_load_file(&r.machine_src, r.ctx, "fleet/a100-40.vx"), VXP_OK);
  assert_int_equal(vxp_machine_load(&r.machine, r.ctx, r.machine_src), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&r.host, r.ctx, "host-default"), VXP_OK);
  vxp_const_override batch_override = {"BATCH", batch};
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = r.machine;
  opts.host = r.host;
  if (with_override) {
    opts.overrides = &batch_override;
    opts.override_count = 1;
  }
  assert_int_equal(vxp_analyze(&r.an, r.ctx, r.prog, &opts), VXP_OK);
  return r;
}

static void llama_done(llama_run *r) {
  vxp_analysis_free(r->an);
  vxp_machine_free(r->host);
  vxp_machine_free(r->machine);
  vxp_program_free(r->prog);
  vxp_source_free(r->machine_src);
  vxp_source_free(r->src);
  vxp_context_free(r->ctx);
}

static void test_llama__batch_1_peaks_at_15_94_gib_against_a_58_93_gib_sum(void **state) {
  (void)state;
  llama_run r = analyse_llama(1, 0);
  assert_true(vxp_analysis_admitted(r.an));
  assert_int_equal(vxp_analysis_diagnostic_count(r.an), 0);
  const vxp_resident_set *rs = test_resident(r.an, "main", "HBM");
  assert_non_null(rs);
  assert_int_equal(vxp_resident_set_peak_bytes(rs), 17112760320ull);
  assert_int_equal(vxp_resident_set_capacity_bytes(rs), 42949672960ull);
  assert_int_equal(vxp_resident_set_tile_count(rs), 42);
  uint64_t sum = 0;
  assert_true(vxp_resident_set_allocated_bytes(rs, &sum));
  assert_int_equal(sum, 63271075840ull);
  /* The breakdown: what is live at the peak, by kind. */
  uint64_t weights = 0, embeddings = 0, kv = 0, activations = 0;
  size_t live = 0;
  for (size_t i = 0; i < vxp_analysis_record_count(r.an); i++) {
    const vxp_record *rec = vxp_analysis_record(r.an, i);
    if (!vxp_record_live_at_peak(rec) || strcmp(vxp_record_function(rec), "main") != 0) continue;
    live++;
    const char *b = vxp_record_binding(rec);
    uint64_t bytes = vxp_record_bytes(rec);
    if (vxp_record_scope_depth(rec) == 1)
      activations += bytes;
    else if (b[0] == 'w')
      weights += bytes;
    else if (strcmp(b, "kv") == 0)
      kv += bytes;
    else
      embeddings += bytes;
  }
  assert_int_equal(live, 42);
  assert_int_equal(weights, 12952010752ull);    /* 12.06 GiB */
  assert_int_equal(embeddings, 524288000ull);   /* 0.49 GiB */
  assert_int_equal(kv, 2147483648ull);          /* 2 GiB */
  assert_int_equal(activations, 1488977920ull); /* 1.39 GiB */
  llama_done(&r);
}

static void test_llama__one_layers_weights_cross_the_host_link_in_12_85_ms(void **state) {
  (void)state;
  llama_run r = analyse_llama(1, 0);
  size_t layers = 0;
  for (size_t i = 0; i < vxp_analysis_route_count(r.an); i++) {
    const vxp_route *route = vxp_analysis_route(r.an, i);
    uint64_t bytes = 0, cost = 0;
    assert_true(vxp_route_bytes(route, &bytes));
    if (bytes != 404750336ull || strcmp(vxp_route_function(route), "main") != 0) continue;
    layers++;
    assert_int_equal(vxp_route_path_length(route), 2);
    assert_string_equal(vxp_route_path_space(route, 0), "CPU_DRAM");
    assert_string_equal(vxp_route_path_space(route, 1), "HBM");
    assert_true(vxp_route_derived_cost(route, &cost));
    assert_int_equal(cost, 12849217016ull);
    assert_string_equal(vxp_route_derived_unit(route), "ps");
    assert_string_equal(vxp_route_cost_source(route), "link_rate");
  }
  assert_int_equal(layers, 32);
  llama_done(&r);
}

static void test_llama__batch_8_fits_and_batch_9_is_e6010(void **state) {
  (void)state;
  llama_run r = analyse_llama(8, 1);
  assert_true(vxp_analysis_admitted(r.an));
  assert_int_equal(vxp_resident_set_peak_bytes(test_resident(r.an, "main", "HBM")), 42567991296ull);
  llama_done(&r);

  r = analyse_llama(9, 1);
  assert_false(vxp_analysis_admitted(r.an));
  assert_int_equal(vxp_analysis_error_count(r.an), 1);
  const vxp_diagnostic *d = test_find_diag(r.an, "E6010");
  assert_non_null(d);
  assert_string_equal(vxp_diagnostic_message(d),
                      "the working set placed in memory space 'HBM' (42 tiles) sums to "
                      "46204452864 bytes, over its 42949672960 byte capacity; place "
                      "fewer/smaller tiles or declare it `overcommit`");
  assert_int_equal(vxp_resident_set_peak_bytes(test_resident(r.an, "main", "HBM")), 46204452864ull);
  llama_done(&r);

  /* The same override written as BATCH = 1 changes nothing from the program's own. */
  r = analyse_llama(1, 1);
  assert_int_equal(vxp_resident_set_peak_bytes(test_resident(r.an, "main", "HBM")), 17112760320ull);
  llama_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_llama__batch_1_peaks_at_15_94_gib_against_a_58_93_gib_sum),
      cmocka_unit_test(test_llama__one_layers_weights_cross_the_host_link_in_12_85_ms),
      cmocka_unit_test(test_llama__batch_8_fits_and_batch_9_is_e6010),
  };
  return cmocka_run_group_tests_name("llama", tests, NULL, NULL);
}
