/* SPDX-License-Identifier: Apache-2.0 */
/* test_builtin.c - the built-in machine models are listed (name, label, file), one for
 * every model of fleet/, and an analysis can use a given machine in place of the program's
 * own declarations (machine_only). */
#include "support.h"

#include <dirent.h>

static void test_builtin__the_list_is_the_fleet_sorted_and_every_entry_loads(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  size_t n = vxp_machine_builtin_count();
  /* one per model file in fleet/ (the tests run from the repository root) */
  size_t files = 0;
  DIR *dir = opendir("fleet");
  assert_non_null(dir);
  for (struct dirent *e; (e = readdir(dir));) {
    size_t len = strlen(e->d_name);
    if (len > 3 && strcmp(e->d_name + len - 3, ".vx") == 0) files++;
  }
  closedir(dir);
  assert_int_equal(n, files);
  assert_true(n >= 13);
  int has_default = 0, has_host = 0;
  for (size_t i = 0; i < n; i++) {
    const char *name = vxp_machine_builtin_name(i);
    const char *label = vxp_machine_builtin_label(i);
    const char *file = vxp_machine_builtin_file(i);
    assert_non_null(name);
    assert_non_null(label);
    assert_true(strlen(label) > 10);
    assert_null(strchr(label, '\n'));
    char expected[256];
    snprintf(expected, sizeof(expected), "%s.vx", name);
    assert_string_equal(file, expected);
    if (i > 0) assert_true(strcmp(vxp_machine_builtin_name(i - 1), name) < 0);
    if (strcmp(name, "a100-40") == 0) {
      has_default = 1;
      assert_non_null(strstr(label, "A100"));
    }
    if (strcmp(name, "host-default") == 0) has_host = 1;
    vxp_machine *m = NULL;
    assert_int_equal(vxp_machine_builtin(&m, ctx, name), VXP_OK);
    assert_int_equal(vxp_machine_diagnostic_count(m), 0);
    vxp_machine_free(m);
  }
  assert_true(has_default);
  assert_true(has_host);
  assert_null(vxp_machine_builtin_name(n));
  assert_null(vxp_machine_builtin_label(n));
  assert_null(vxp_machine_builtin_file(n));
  vxp_context_free(ctx);
}

/* A program with a 4 MiB HBM of its own placing 8 MiB. */
static const char program[] =
    "Memory CPU_DRAM {}\n"
    "Memory HBM { within: Memory::CPU_DRAM, capacity: 4 MiB, managed: explicit }\n"
    "fn main() -> i32 {\n"
    "  let t = transfer(Tensor::<f32, [2048, 1024]>::new(), Memory::HBM);\n"
    "  print(t[0][0]);\n"
    "  return 0;\n"
    "}\n";

typedef struct fixture {
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
  vxp_machine *machine, *host;
} fixture;

static fixture open_fixture(void) {
  fixture f;
  f.ctx = test_context();
  assert_int_equal(vxp_source_new(&f.src, f.ctx, "own.vx", program, strlen(program)), VXP_OK);
  assert_int_equal(vxp_program_parse(&f.prog, f.ctx, f.src), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&f.machine, f.ctx, "h100-sxm"), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&f.host, f.ctx, "host-default"), VXP_OK);
  return f;
}

static void close_fixture(fixture *f) {
  vxp_machine_free(f->host);
  vxp_machine_free(f->machine);
  vxp_program_free(f->prog);
  vxp_source_free(f->src);
  vxp_context_free(f->ctx);
}

static size_t errors_with(fixture *f, unsigned version, int machine_only, const char *code,
                          uint64_t *hbm_capacity) {
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.version = version;
  opts.machine = f->machine;
  opts.host = f->host;
  opts.machine_only = machine_only;
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_analyze(&an, f->ctx, f->prog, &opts), VXP_OK);
  size_t n = test_count_diag(an, code);
  *hbm_capacity = 0;
  for (size_t i = 0; i < vxp_analysis_resident_set_count(an); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
    if (strcmp(vxp_resident_set_space(rs), "HBM") == 0)
      *hbm_capacity = vxp_resident_set_capacity_bytes(rs);
  }
  vxp_analysis_free(an);
  return n;
}

static void test_builtin__machine_only_replaces_the_programs_own_model(void **state) {
  (void)state;
  fixture f = open_fixture();
  uint64_t capacity;
  /* added to the program's own declarations, the machine's HBM is declared twice */
  assert_true(errors_with(&f, VXP_ANALYZE_OPTIONS_VERSION, 0, "E6012", &capacity) >= 1);
  /* in place of them: no E6012, no follow-on E6007, and the machine's 80 GB HBM admits */
  assert_int_equal(errors_with(&f, VXP_ANALYZE_OPTIONS_VERSION, 1, "E6012", &capacity), 0);
  assert_int_equal(errors_with(&f, VXP_ANALYZE_OPTIONS_VERSION, 1, "E6007", &capacity), 0);
  assert_int_equal(errors_with(&f, VXP_ANALYZE_OPTIONS_VERSION, 1, "E6010", &capacity), 0);
  assert_true(capacity > 64ull << 30);
  /* a version-1 caller has no machine_only: the field is not read */
  assert_true(errors_with(&f, 1, 1, "E6012", &capacity) >= 1);
  close_fixture(&f);
}

static void test_builtin__machine_only_needs_a_machine(void **state) {
  (void)state;
  fixture f = open_fixture();
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine_only = 1;
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_analyze(&an, f.ctx, f.prog, &opts), VXP_EINVAL);
  assert_null(an);
  assert_non_null(strstr(vxp_context_errmsg(f.ctx), "machine_only"));
  vxp_analyze_options v1;
  assert_int_equal(vxp_analyze_options_init(&v1, 1), VXP_OK);
  assert_int_equal(v1.version, 1);
  assert_int_equal(vxp_analyze_options_init(&v1, VXP_ANALYZE_OPTIONS_VERSION + 1), VXP_EVERSION);
  close_fixture(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_builtin__the_list_is_the_fleet_sorted_and_every_entry_loads),
      cmocka_unit_test(test_builtin__machine_only_replaces_the_programs_own_model),
      cmocka_unit_test(test_builtin__machine_only_needs_a_machine),
  };
  return cmocka_run_group_tests_name("builtin", tests, NULL, NULL);
}
