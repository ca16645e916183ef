/* SPDX-License-Identifier: Apache-2.0 */
/* test_visibility.c - where code runs and what it can see: E6001, E6003, E6029, E6030 and
 * E8002, each refused where vxc refuses it and admitted in the mirror case vxc admits
 * (the programs are ours, written from the behaviour of vxc's tests of the same names). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

#include "model_check.h" /* white box: the checks called alone on the model */

/* `text` gets exactly `count` diagnostics with `code`, the first containing `part`. */
static void expect(const char *text, const char *code, size_t count, const char *part) {
  test_run r = test_analyse(text);
  size_t n = test_count_diag(r.an, code);
  if (n != count) fail_msg("%s: %zu diagnostics, expected %zu", code, n, count);
  if (count && part) {
    const char *msg = vxp_diagnostic_message(test_find_diag(r.an, code));
    if (!strstr(msg, part)) fail_msg("%s: \"%s\" lacks \"%s\"", code, msg, part);
  }
  if (count == 0) assert_true(vxp_analysis_admitted(r.an));
  test_done(&r);
}

/* `text` gets no diagnostic with `code`, whatever other checks say of it. */
static void expect_no(const char *text, const char *code) {
  test_run r = test_analyse(text);
  assert_int_equal(test_count_diag(r.an, code), 0);
  test_done(&r);
}

#define DEV_MACHINE                                                                                \
  "Memory Extra { capacity: 1 GB, bandwidth: 1 TB/s }\n"                                           \
  "Topology Dev {\n"                                                                               \
  "  memory: Memory::Extra,\n"                                                                     \
  "  visible: [ Memory::Extra ],\n"                                                                \
  "  transfer Memory::CPU_DRAM -> Memory::Extra : 100,\n"                                          \
  "}\n"

static void test_visibility__a_device_function_called_from_the_host_is_e6001(void **state) {
  (void)state;
  const char *fn = "fn scaled(x : f32) on Topology::NPU[0] -> f32 {\n  return x * 2.5;\n}\n";
  char text[512];
  snprintf(text, sizeof(text),
           "%sfn main() -> i32 {\n  let v : f32 = scaled(1.5);\n  return 0;\n}\n", fn);
  expect(text, "E6001", 1, "'scaled' requires topology NPU[0], but it is called from CPU");
  /* The mirror: called from a region on the topology it names (the index may be left out). */
  snprintf(text, sizeof(text),
           "%sfn main() -> i32 {\n  spawn on(Topology::NPU) {\n    let v : f32 = scaled(1.5);\n"
           "  }\n  return 0;\n}\n",
           fn);
  expect(text, "E6001", 0, NULL);
  /* A region on another device is no better than the host. */
  snprintf(text, sizeof(text),
           "%sfn main() -> i32 {\n  spawn on(Topology::GPU) {\n    let v : f32 = scaled(1.5);\n"
           "  }\n  return 0;\n}\n",
           fn);
  expect(text, "E6001", 1, "called from GPU");
}

static void test_visibility__a_placed_tensor_is_read_only_where_its_space_is_seen(void **state) {
  (void)state;
  expect(DEV_MACHINE "fn use_it(t : Tensor<f32, [4, 4], Topology::Dev>) -> f32 {\n"
                     "  return t[0][0];\n}\n",
         "E6003", 1, "'t' lives in Extra but CPU sees only [CPU_DRAM]: it cannot be read from CPU");
  expect(DEV_MACHINE "fn use_it(t : Tensor<f32, [4, 4], Topology::Dev>) -> f32 {\n"
                     "  let v = spawn on(Topology::Dev) { t[0][0] };\n  return 0.0;\n}\n",
         "E6003", 0, NULL);
  /* A host tensor read by a region whose topology sees only its own memory. */
  expect("fn prefill() -> i32 {\n  let prompt = Tensor<f16, [16, 16]>::new();\n"
         "  let mut out = Tensor<f16, [16, 16], Memory::NPU_HBM>::new();\n"
         "  spawn on(Topology::NPU[0]) {\n    out[0][0] = prompt[0][0];\n  }\n  return 0;\n}\n",
         "E6003", 1, "'prompt' lives in CPU_DRAM but NPU[0] sees only [NPU_HBM]");
  /* Staged first, it is read where it now lives. */
  expect("fn prefill() -> i32 {\n  let prompt = Tensor<f16, [16, 16]>::new();\n"
         "  let staged = transfer(prompt, Memory::NPU_HBM);\n"
         "  let mut out = Tensor<f16, [16, 16], Memory::NPU_HBM>::new();\n"
         "  spawn on(Topology::NPU[0]) {\n    out[0][0] = staged[0][0];\n  }\n  return 0;\n}\n",
         "E6003", 0, NULL);
  /* A name bound inside the region (a loop variable, a match binding) hides the tensor. */
  expect("fn f() -> i32 {\n  let prompt = Tensor<f16, [16]>::new();\n"
         "  spawn on(Topology::NPU) {\n    for prompt in 0..4 { let a = prompt; }\n  }\n"
         "  return 0;\n}\n",
         "E6003", 0, NULL);
}

static void test_visibility__a_device_pointer_is_not_a_host_pointer(void **state) {
  (void)state;
  const char *main_fmt =
      "fn main() -> i32 {\n  let h : Tensor<f32, [4, 4]> = Tensor<f32, [4, 4]>::new();\n"
      "  let g = transfer(h, Memory::GPU_HBM);\n  let dp = g.as_ptr();\n  return %s(dp);\n}\n";
  char text[768];
  snprintf(text, sizeof(text), "fn reads_host(p : *const f32) -> i32 {\n  return 0;\n}\n");
  snprintf(text + strlen(text), sizeof(text) - strlen(text), main_fmt, "reads_host");
  expect(text, "E6029", 1,
         "argument 1 of 'reads_host' is a pointer into Memory::GPU_HBM, but the parameter wants "
         "a pointer into host memory");
  /* `as_mut_ptr()` points into the same memory. */
  snprintf(text, sizeof(text),
           "fn writes_host(p : *mut f32) -> i32 {\n  return 0;\n}\nfn main() -> i32 {\n"
           "  let g = transfer(Tensor<f32, [4]>::new(), Memory::GPU_HBM);\n"
           "  return writes_host(g.as_mut_ptr());\n}\n");
  expect(text, "E6029", 1, "argument 1 of 'writes_host' is a pointer into Memory::GPU_HBM");
  /* A parameter in that memory takes it. */
  snprintf(text, sizeof(text),
           "fn reads_dev(p : *const f32 in Memory::GPU_HBM) -> i32 {\n  return 0;\n}\n");
  snprintf(text + strlen(text), sizeof(text) - strlen(text), main_fmt, "reads_dev");
  expect(text, "E6029", 0, NULL);
  /* A C function takes any pointer (cuBLAS takes device pointers as plain ones). */
  snprintf(text, sizeof(text), "extern \"C\" {\n  fn c_reads(p : *const f32) -> i32;\n}\n");
  snprintf(text + strlen(text), sizeof(text) - strlen(text), main_fmt, "c_reads");
  expect(text, "E6029", 0, NULL);
  /* Another device memory is refused by name. */
  snprintf(text, sizeof(text),
           "fn reads_npu(p : *const f32 in Memory::NPU_HBM) -> i32 {\n  return 0;\n}\n");
  snprintf(text + strlen(text), sizeof(text) - strlen(text), main_fmt, "reads_npu");
  expect(text, "E6029", 1, "the parameter wants a pointer into Memory::NPU_HBM");
}

static void test_visibility__a_device_region_hands_out_only_tensors_made_before_it(void **state) {
  (void)state;
  /* The four ways vxc's test names, each at the region's value. */
  expect("fn a() -> i32 {\n  let t = spawn on(Topology::GPU) {\n"
         "    let x : Tensor<f32, [4]> = Tensor<f32, [4]>::new();\n    x\n  };\n  return 0;\n}\n"
         "fn b(n : i32) -> i32 {\n  let t = spawn on(Topology::GPU) {\n    let m = n * 2;\n"
         "    let x = Tensor<f32>([m]);\n    x\n  };\n  return 0;\n}\n"
         "fn c(x : i32) -> i32 {\n  let t = spawn on(Topology::GPU) {\n"
         "    let x = Tensor<f32, [4]>::new();\n    x\n  };\n  return 0;\n}\n"
         "fn d() -> i32 {\n  let t = spawn on(Topology::GPU) {\n    Tensor<f32, [4]>::new()\n"
         "  };\n  return 0;\n}\n",
         "E6030", 4, "its `let` has a type annotation");
  /* Made with a size known outside and a fresh name: made before the region. */
  expect("fn ok(n : i32) -> i32 {\n  let t = spawn on(Topology::GPU) {\n"
         "    let x = Tensor<f32, [4]>::new();\n    x\n  };\n  return 0;\n}\n",
         "E6030", 0, NULL);
  /* On the host the tensor is made on the host anyway. */
  expect("fn host() -> i32 {\n  let t = spawn on(Topology::CPU) {\n    Tensor<f32, [4]>::new()\n"
         "  };\n  return 0;\n}\n",
         "E6030", 0, NULL);
}

static void test_visibility__a_comptime_placement_assertion_is_decided(void **state) {
  (void)state;
  const char *fmt = "fn main() -> i32 {\n  let g = spawn on(Topology::GPU) {\n    1\n  };\n"
                    "  comptime {\n    assert(%s);\n  }\n  return 0;\n}\n";
  char text[512];
  snprintf(text, sizeof(text), fmt, "g.topology() == Some(Topology::CPU)");
  expect(text, "E8002", 1, "Comptime assertion failed: 'g.topology()' is Some(Topology::GPU)");
  /* A true assertion: admitted, `Some` being the prelude's constructor (no E2002). */
  snprintf(text, sizeof(text), fmt, "g.topology() == Some(Topology::GPU)");
  expect(text, "E8002", 0, NULL);
  expect_no(text, "E2002");
  snprintf(text, sizeof(text), fmt, "g.topology() != None");
  expect(text, "E8002", 0, NULL);
  snprintf(text, sizeof(text), fmt, "g.topology() == None");
  expect(text, "E8002", 1, NULL);
  /* A value whose placement the walk does not know: undecided, not assumed. */
  expect("fn make() -> i32 {\n  return 1;\n}\nfn main() -> i32 {\n  let g = make();\n"
         "  comptime {\n    assert(g.topology() == None);\n  }\n  return 0;\n}\n",
         "E3026", 1, "cannot be decided");
}

static bool visibility_code(const char *code) {
  static const char *const codes[] = {"E6001", "E6003", "E6029", "E6030", "E8002", "E3026"};
  for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
    if (strcmp(code, codes[i]) == 0) return true;
  return false;
}

/* The checks read the model lowering made and the machine view, nothing else: with the
 * program's syntax tree deleted they give the analysis' diagnostics of every kind, in
 * order, message and place; and a fact changed in the model changes the verdict although
 * the program's tree and text still say otherwise. */
static void test_visibility__the_checks_read_the_model_not_the_tree(void **state) {
  (void)state;
  const char *text = DEV_MACHINE
      "fn scaled(x : f32) on Topology::NPU[0] -> f32 {\n  return x * 2.5;\n}\n"
      "fn use_it(t : Tensor<f32, [4, 4], Topology::Dev>) -> f32 {\n"
      "  let v : f32 = scaled(1.5);\n  return t[0][0];\n}\n"
      "fn reads_host(p : *const f32) -> i32 {\n  return 0;\n}\n"
      "fn main() -> i32 {\n  let g = transfer(Tensor<f32, [4]>::new(), Memory::GPU_HBM);\n"
      "  let q = spawn on(Topology::GPU) {\n    Tensor<f32, [4]>::new()\n  };\n"
      "  comptime {\n    assert(q.topology() == Some(Topology::CPU));\n  }\n"
      "  return reads_host(g.as_ptr());\n}\n";
  test_run r = test_analyse(text);
  /* The analysis' own: one of each. */
  const char *want[] = {"E6001", "E6003", "E6029", "E6030", "E8002"};
  for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
    assert_int_equal(test_count_diag(r.an, want[i]), 1);
  assert_true(r.prog->model.visibility.len >= 5);

  assert_int_equal(test_check_without_tree(&r, vxp_visibility__check, visibility_code), 5);

  /* The record says `scaled` is called from NPU[0]: no E6001, the tree notwithstanding. */
  vxp_model *m = &r.prog->model;
  bool changed = false;
  for (size_t i = 0; i < m->visibility.len; i++) {
    vxp_vis_fact *f = &m->visibility.items[i];
    if (f->kind == VXP_VIS_CALL) {
      f->here = f->topo;
      changed = true;
    }
  }
  assert_true(changed);
  vxp_diag_list alone;
  test_check_alone(&r, vxp_visibility__check, m, &alone);
  assert_int_equal(alone.len, 4);
  for (size_t i = 0; i < alone.len; i++)
    assert_string_not_equal(vxp_diagnostic_code(&alone.items[i]), "E6001");
  vxp_diag__list_free(r.ctx, &alone);
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_visibility__a_device_function_called_from_the_host_is_e6001),
      cmocka_unit_test(test_visibility__a_placed_tensor_is_read_only_where_its_space_is_seen),
      cmocka_unit_test(test_visibility__a_device_pointer_is_not_a_host_pointer),
      cmocka_unit_test(test_visibility__a_device_region_hands_out_only_tensors_made_before_it),
      cmocka_unit_test(test_visibility__a_comptime_placement_assertion_is_decided),
      cmocka_unit_test(test_visibility__the_checks_read_the_model_not_the_tree),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
