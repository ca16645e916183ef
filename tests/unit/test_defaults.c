/* SPDX-License-Identifier: Apache-2.0 */
/* test_defaults.c - a program that declares no machine model is analysed, swept and priced on
 * the built-in default machine and host (vxp_default_machine), as `vxpeak check` does, and the
 * reports name that machine; a program with a model of its own, or options naming a machine,
 * get no default. */
#include "support.h"

static const char plain[] =
    "const BATCH: u64 = 2;\n"
    "fn main() -> i32 {\n"
    "  let kv = transfer(Tensor<f32, [BATCH, 1024]>::uninit(), Memory::HBM);\n"
    "  print(kv);\n"
    "  return 0;\n"
    "}\n";

static const char own[] = "Memory CPU_DRAM {}\n"
                          "Memory HBM { within: Memory::CPU_DRAM, capacity: 1 MiB }\n"
                          "fn main() -> i32 {\n"
                          "  let t = Tensor<f32, [1024]>::uninit();\n"
                          "  let kv = transfer(t, Memory::HBM);\n"
                          "  print(kv);\n"
                          "  return 0;\n"
                          "}\n";

typedef struct parsed {
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
} parsed;

static void parse(parsed *p, const char *text) {
  p->ctx = test_context();
  assert_int_equal(vxp_source_new(&p->src, p->ctx, "d.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse(&p->prog, p->ctx, p->src), VXP_OK);
}

static void done(parsed *p) {
  vxp_program_free(p->prog);
  vxp_source_free(p->src);
  vxp_context_free(p->ctx);
}

/* The capacity of the HBM resident set of `an`. */
static uint64_t hbm_capacity(const vxp_analysis *an) {
  for (size_t i = 0; i < vxp_analysis_resident_set_count(an); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
    if (strcmp(vxp_resident_set_space(rs), "HBM") == 0) return vxp_resident_set_capacity_bytes(rs);
  }
  fail_msg("no HBM resident set");
  return 0;
}

static void test_defaults__the_names_are_the_commands(void **state) {
  (void)state;
  assert_string_equal(vxp_default_machine(), "a100-40");
  assert_string_equal(vxp_default_host(), "host-default");
}

static void test_defaults__a_program_without_a_machine_is_analysed_on_the_default(void **state) {
  (void)state;
  parsed p;
  parse(&p, plain);
  assert_false(vxp_program_declares_machine(p.prog));
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_analyze(&an, p.ctx, p.prog, NULL), VXP_OK);
  assert_true(vxp_analysis_admitted(an));
  assert_int_equal(vxp_analysis_error_count(an), 0); /* no E6003 for the host's reads */
  assert_int_equal(hbm_capacity(an), 40ull << 30);
  const char *json = vxp_analysis_json(an, NULL);
  assert_non_null(strstr(json, "\"machine\": \"a100-40 (built-in)\""));
  assert_non_null(strstr(json, "\"host\": \"host-default (built-in)\""));
  vxp_analysis_free(an);
  done(&p);
}

static void test_defaults__a_host_of_the_callers_is_kept(void **state) {
  (void)state;
  parsed p;
  parse(&p, plain);
  vxp_machine *host = NULL;
  assert_int_equal(vxp_machine_builtin(&host, p.ctx, "host-default"), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.host = host;
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_analyze(&an, p.ctx, p.prog, &opts), VXP_OK);
  assert_true(vxp_analysis_admitted(an));
  assert_int_equal(hbm_capacity(an), 40ull << 30);
  vxp_analysis_free(an);
  vxp_machine_free(host);
  done(&p);
}

static void test_defaults__a_program_with_its_own_machine_gets_none(void **state) {
  (void)state;
  parsed p;
  parse(&p, own);
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_analyze(&an, p.ctx, p.prog, NULL), VXP_OK);
  assert_int_equal(hbm_capacity(an), 1u << 20);
  assert_null(strstr(vxp_analysis_json(an, NULL), "a100-40"));
  vxp_analysis_free(an);
  done(&p);
}

static void test_defaults__sweeps_and_frontiers_use_and_name_the_default(void **state) {
  (void)state;
  parsed p;
  parse(&p, plain);
  vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
  so.name = "BATCH";
  so.lo = 1;
  so.hi = 4;
  vxp_sweep *sw = NULL;
  assert_int_equal(vxp_sweep_run(&sw, p.ctx, p.prog, NULL, &so), VXP_OK);
  assert_int_equal(vxp_sweep_point_capacity_bytes(vxp_sweep_largest(sw)), 40ull << 30);
  vxp_report *rep = NULL;
  const vxp_sweep *list[1] = {sw};
  assert_int_equal(vxp_report_sweep(&rep, p.ctx, list, NULL, 1, NULL), VXP_OK);
  const char *text = vxp_report_text(rep, NULL);
  if (!strstr(text, "a100-40") || strstr(text, "the program's own"))
    fail_msg("the sweep's report does not name the default machine:\n%s", text);
  vxp_report_free(rep);
  vxp_frontier_options fo;
  assert_int_equal(vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION), VXP_OK);
  fo.name = "BATCH";
  fo.lo = 1;
  fo.hi = 2;
  vxp_frontier *fr = NULL;
  assert_int_equal(vxp_frontier_run(&fr, p.ctx, p.prog, NULL, &fo), VXP_OK);
  assert_int_equal(vxp_frontier_point_capacity_bytes(vxp_frontier_point_at(fr, 0)), 40ull << 30);
  assert_int_equal(vxp_report_frontier(&rep, p.ctx, fr, NULL), VXP_OK);
  text = vxp_report_text(rep, NULL);
  if (!strstr(text, "a100-40") || strstr(text, "the program's own"))
    fail_msg("the frontier's report does not name the default machine:\n%s", text);
  vxp_report_free(rep);
  vxp_frontier_free(fr);
  vxp_sweep_free(sw);
  done(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_defaults__the_names_are_the_commands),
      cmocka_unit_test(test_defaults__a_program_without_a_machine_is_analysed_on_the_default),
      cmocka_unit_test(test_defaults__a_host_of_the_callers_is_kept),
      cmocka_unit_test(test_defaults__a_program_with_its_own_machine_gets_none),
      cmocka_unit_test(test_defaults__sweeps_and_frontiers_use_and_name_the_default),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
