/* SPDX-License-Identifier: Apache-2.0 */
/* test_resolve.c - name resolution (lib/resolve.c): a name that denotes nothing is an
 * error pointing at the name, with the closest declared name suggested; what does resolve
 * (generic parameters, variables, const items, -D overrides, built-in spaces) is left alone. */
#include "support.h"

#include "suggest.h"

static test_run run(const char *items, const char *body) {
  static char text[16384];
  snprintf(text, sizeof(text), TEST_MACHINE_4MIB "%s\nfn main() -> i32 {\n%s\n  return 0;\n}\n",
           items, body);
  return test_analyse(text);
}

/* The help line of the first diagnostic with `code` (NULL when it has none). */
static const char *help_of(const vxp_analysis *an, const char *code) {
  const vxp_diagnostic *d = test_find_diag(an, code);
  assert_non_null(d);
  for (size_t i = 0; i < vxp_diagnostic_note_count(d); i++)
    if (vxp_diagnostic_is_help(vxp_diagnostic_note(d, i)))
      return vxp_diagnostic_message(vxp_diagnostic_note(d, i));
  return NULL;
}

/* The text a diagnostic points at. */
static void assert_points_at(const vxp_analysis *an, const char *code, const char *text,
                             const char *want) {
  const vxp_diagnostic *d = test_find_diag(an, code);
  assert_non_null(d);
  vxp_range r = vxp_diagnostic_range(d);
  size_t len = strlen(want);
  assert_int_equal(r.end_byte - r.start_byte, len);
  assert_memory_equal(text + r.start_byte, want, len);
}

static void test_resolve__edit_distance_counts_transpositions_and_ignores_case(void **state) {
  (void)state;
  assert_int_equal(vxp_suggest__distance("HMB", "HBM", 3), 1);
  assert_int_equal(vxp_suggest__distance("CONTXT", "CONTEXT", 3), 1);
  assert_int_equal(vxp_suggest__distance("hbm", "HBM", 3), 0);
  assert_int_equal(vxp_suggest__distance("fp16", "f16", 3), 1);
  assert_true(vxp_suggest__distance("SMEM", "CPU_DRAM", 2) > 2);
  const char *spaces[] = {"CPU_DRAM", "HBM", "L2", "SMEM"};
  assert_int_equal(vxp_suggest__closest("HMB", spaces, 4), 1);
  assert_int_equal(vxp_suggest__closest("SMEN", spaces, 4), 3);
  /* Nothing close: no suggestion rather than a wild one. */
  assert_int_equal(vxp_suggest__closest("PEER", spaces, 4), SIZE_MAX);
  /* A short name gets one edit, not two: `L3` is not a misspelling of `HBM`. */
  assert_int_equal(vxp_suggest__closest("L3", spaces, 4), 2);
  assert_int_equal(vxp_suggest__closest("XY", spaces, 4), SIZE_MAX);
}

static void test_resolve__a_misspelt_space_in_a_tensor_type_is_e6025(void **state) {
  (void)state;
  const char *body = "  let kv = Tensor<f16, [1024, 1024], Memory::V>::uninit();\n  print!(kv);";
  test_run r = run("", body);
  assert_int_equal(test_count_diag(r.an, "E6025"), 1);
  assert_false(vxp_analysis_admitted(r.an));
  assert_string_equal(help_of(r.an, "E6025"), "did you mean `Memory::W`?");
  test_done(&r);
  /* The same in a transfer, and as a topology. */
  r = run("", "  let a = transfer(Tensor<f32, [4]>::uninit(), Memory::WW);\n  print!(a);");
  assert_int_equal(test_count_diag(r.an, "E6025"), 1);
  assert_string_equal(help_of(r.an, "E6025"), "did you mean `Memory::W`?");
  test_done(&r);
  r = run("", "  let a = Tensor<f32, [4], Topology::Devv>::uninit();\n  print!(a);");
  assert_int_equal(test_count_diag(r.an, "E6025"), 1);
  assert_string_equal(help_of(r.an, "E6025"), "did you mean `Topology::Dev`?");
  test_done(&r);
}

static void test_resolve__built_in_and_declared_places_resolve(void **state) {
  (void)state;
  test_run r = run("fn on_var(t: i32) -> i32 { return t; }",
                   "  let a = Tensor<f32, [4], Memory::GPU_HBM>::uninit();\n"
                   "  let b = Tensor<f32, [4], Topology::CPU>::uninit();\n"
                   "  let c = Tensor<f32, [4], Topology::Dev>::uninit();\n"
                   "  let d = Tensor<f32, [4], Memory::W>::uninit();\n"
                   "  print!(a, b, c, d);");
  assert_int_equal(vxp_analysis_error_count(r.an), 0);
  test_done(&r);
}

static void test_resolve__an_undefined_constant_is_e2001_not_w1029(void **state) {
  (void)state;
  static const char text[] =
      TEST_MACHINE_4MIB "const CONTEXT : i64 = 256;\n"
                        "fn main() -> i32 {\n"
                        "  let a = Tensor<f16, [CONTXT, 2048], Memory::W>::uninit();\n"
                        "  print!(a);\n"
                        "  return 0;\n"
                        "}\n";
  test_run r = test_analyse(text);
  assert_int_equal(test_count_diag(r.an, "E2001"), 1);
  assert_int_equal(test_count_diag(r.an, "W1029"), 0);
  assert_points_at(r.an, "E2001", text, "CONTXT");
  assert_string_equal(help_of(r.an, "E2001"), "did you mean `CONTEXT`?");
  assert_false(vxp_analysis_admitted(r.an));
  test_done(&r);
}

static void test_resolve__a_runtime_value_stays_w1029(void **state) {
  (void)state;
  test_run r = run("extern \"C\" { fn read() -> i32; }",
                   "  let n = read();\n"
                   "  let a = Tensor<f16, [n, 2048], Memory::W>::uninit();\n"
                   "  print!(a);");
  assert_int_equal(test_count_diag(r.an, "E2001"), 0);
  assert_int_equal(test_count_diag(r.an, "W1029"), 1);
  assert_true(vxp_analysis_admitted(r.an));
  test_done(&r);
}

static void test_resolve__generic_parameters_and_overrides_resolve(void **state) {
  (void)state;
  static const char text[] = TEST_MACHINE_4MIB
      "struct Holder<const K : i32> { t : Tensor<f32, [K], Memory::W> }\n"
      "impl<const M : i32> Holder<M> { fn size(h : Holder<M>) -> Tensor<f32, [M]> { h.t } }\n"
      "fn stage<T, const N : i32>(x : Tensor<T, [N]>) -> i32 {\n"
      "  let t = Tensor<T, [N * 2], Memory::W>::uninit();\n"
      "  if comptime N > 2 { print!(t); }\n"
      "  for i in 0..N { print!(x); }\n"
      "  return 0;\n"
      "}\n"
      "fn main() -> i32 {\n"
      "  let a = Tensor<f32, [BATCH, 4], Memory::W>::uninit();\n"
      "  match 3 { 0 => { print!(a); }, k => { let b = Tensor<f32, [k], Memory::W>::uninit(); "
      "print!(b); } }\n"
      "  return stage<f32, 8>(Tensor<f32, [8]>::uninit());\n"
      "}\n";
  vxp_context *ctx = test_context();
  vxp_source *src;
  vxp_program *prog;
  vxp_analysis *an;
  assert_int_equal(vxp_source_new(&src, ctx, "g.vx", text, sizeof(text) - 1), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  vxp_const_override batch = {"BATCH", 2};
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.overrides = &batch;
  opts.override_count = 1;
  assert_int_equal(vxp_analyze(&an, ctx, prog, &opts), VXP_OK);
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(an); i++) {
    const vxp_diagnostic *d = vxp_analysis_diagnostic(an, i);
    if (vxp_diagnostic_severity(d) == VXP_SEVERITY_ERROR)
      fail_msg("unexpected %s: %s", vxp_diagnostic_code(d), vxp_diagnostic_message(d));
  }
  vxp_analysis_free(an);
  /* Without the override, BATCH names nothing. */
  assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
  assert_int_equal(test_count_diag(an, "E2001"), 1);
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

static void test_resolve__an_unknown_element_type_is_e1012(void **state) {
  (void)state;
  test_run r = run("", "  let b = Tensor<fp16, [4, 4], Memory::W>::uninit();\n  print!(b);");
  assert_int_equal(test_count_diag(r.an, "E1012"), 1);
  assert_int_equal(test_count_diag(r.an, "W1029"), 0);
  assert_string_equal(help_of(r.an, "E1012"), "did you mean `f16`?");
  assert_false(vxp_analysis_admitted(r.an));
  test_done(&r);
}

static void test_resolve__an_undefined_function_is_e2002_unless_imported(void **state) {
  (void)state;
  test_run r = run("fn prefill() -> i32 { return 1; }", "  let x = prefil();\n  print!(x);");
  assert_int_equal(test_count_diag(r.an, "E2002"), 1);
  assert_string_equal(help_of(r.an, "E2002"), "did you mean `prefill`?");
  test_done(&r);
  /* An import may define it: only listed as unresolved, not an error. */
  r = run("import std::model;", "  let x = prefil();\n  print!(x);");
  assert_int_equal(test_count_diag(r.an, "E2002"), 0);
  test_done(&r);
  /* Builtins, externs, closures and function values are not undefined. */
  r = run("extern \"C\" { fn ext() -> i32; }",
          "  let f = |k: i32| k;\n  let g = f;\n  let a = f(1) + g(2) + ext();\n  print!(a);");
  assert_int_equal(vxp_analysis_error_count(r.an), 0);
  test_done(&r);
}

static void test_resolve__panic_and_abort_are_the_languages_own(void **state) {
  (void)state;
  /* core::panic's shape: a function that never returns (`-> !`) ends with `panic(..)`. */
  test_run r = run("fn todo() -> ! {\n  panic(\"not yet implemented\");\n}\n"
                   "fn stop() -> ! {\n  abort();\n}",
                   "  if false { todo(); }\n  if false { stop(); }");
  assert_int_equal(test_count_diag(r.an, "E2002"), 0);
  assert_int_equal(vxp_analysis_error_count(r.an), 0);
  test_done(&r);
}

static void test_resolve__void_and_the_kernel_intrinsics_are_known(void **state) {
  (void)state;
  /* `-> void` is a type of the language; the kernel intrinsics need no definition. */
  test_run r = run("fn fill(p: *mut f32) -> void {\n"
                   "  let x = unsafe { tensor_view_2d(p, 2, 2) };\n"
                   "  let y = unsafe { tensor_view_1d(p, 4) };\n"
                   "  matmul_into(x, x, x);\n"
                   "  flash_attention_into(x, x, x, x);\n"
                   "  print!(y);\n"
                   "}",
                   "  let q = 0;\n  print!(q);");
  assert_int_equal(test_count_diag(r.an, "E2002"), 0);
  assert_int_equal(test_count_diag(r.an, "E3029"), 0);
  test_done(&r);
  /* A near miss of one is still undefined. */
  r = run("", "  matmul_int(1, 2, 3);");
  assert_int_equal(test_count_diag(r.an, "E2002"), 1);
  test_done(&r);
}

static void test_resolve__machine_declarations_name_known_spaces(void **state) {
  (void)state;
  static const char text[] =
      "Memory CPU_DRAM {}\n"
      "Memory HBM { capacity: 1 GiB, managed: explicit, scope: device }\n"
      "Memory SMEM { within: Memory::HMB, capacity: 64 KiB }\n"
      "Topology D { memory: Memory::HBM, visible: [Memory::HBM, Memory::SMME],\n"
      "  transfer Memory::CPU_DRAM -> Memory::HBN : 10 }\n"
      "fn main() -> i32 { return 0; }\n";
  test_run r = test_analyse(text);
  assert_int_equal(test_count_diag(r.an, "E1011"), 3);
  assert_points_at(r.an, "E1011", text, "within: Memory::HMB");
  assert_string_equal(help_of(r.an, "E1011"), "did you mean `Memory::HBM`?");
  test_done(&r);
}

/* vxc's rule (is_space_held): a space a topology holds, as its memory or in its `visible:`
 * list, is a place even when no `Memory` item declares it; its edges and the transfers
 * over them use it. A near miss of a declared space is still a typo (above). */
static void test_resolve__a_space_a_topology_holds_needs_no_declaration(void **state) {
  (void)state;
  static const char text[] =
      "Topology Dev {\n  memory: Memory::L2,\n  visible: [Memory::L2, Memory::SMEM],\n"
      "  transfer Memory::CPU_DRAM -> Memory::L2 : 10 GB/s,\n  transfer Memory::L2 -> "
      "Memory::SMEM\n}\n"
      "fn main() -> i32 {\n  let a = Tensor<f32, [4]>::new();\n"
      "  let b = transfer(a, Memory::SMEM);\n  let c: Tensor<f32, [4], Memory::SMEM> = b;\n"
      "  return 0;\n}\n";
  test_run r = test_analyse(text);
  assert_int_equal(test_count_diag(r.an, "E1011"), 0);
  assert_int_equal(test_count_diag(r.an, "E6025"), 0);
  assert_int_equal(test_count_diag(r.an, "E6002"), 0);
  assert_int_equal(vxp_analysis_route_count(r.an), 2); /* CPU_DRAM -> L2 -> SMEM, hop by hop */
  test_done(&r);
  /* vxc does not check a topology's edges against the declared spaces (its E6025 is for
   * placements): an edge into a space nothing holds or declares is admitted, as in its
   * raw_space_invisible.vx, and placing a tile there is E6025. */
  static const char edge[] =
      "Topology Dev {\n  memory: Memory::L2,\n  visible: [Memory::L2],\n"
      "  transfer Memory::L2 -> Memory::TMEM\n}\n"
      "fn main() -> i32 {\n  let a = transfer(Tensor<f32, [4]>::new(), Memory::TMEM);\n"
      "  return 0;\n}\n";
  r = test_analyse(edge);
  assert_int_equal(test_count_diag(r.an, "E1011"), 0);
  assert_int_equal(test_count_diag(r.an, "E6025"), 1);
  assert_points_at(r.an, "E6025", edge, "Memory::TMEM");
  test_done(&r);
  /* Unless the name is a near miss of a space that exists: a typo must not make a route. */
  static const char typo[] =
      "Topology Dev {\n  memory: Memory::L2,\n  visible: [Memory::L2, Memory::SMEM],\n"
      "  transfer Memory::L2 -> Memory::SMEN\n}\n"
      "fn main() -> i32 {\n  return 0;\n}\n";
  r = test_analyse(typo);
  assert_int_equal(test_count_diag(r.an, "E1011"), 1);
  assert_string_equal(help_of(r.an, "E1011"), "did you mean `Memory::SMEM`?");
  test_done(&r);
}

static void test_resolve__an_unknown_type_in_a_signature_is_e3029(void **state) {
  (void)state;
  static const char text[] =
      "struct Point { x: i32 }\n"
      "enum Mode { A, B }\n"
      "struct Holder<T> { items: Vec<T>, p: Pointt }\n"
      "fn take(p: Piont, m: Mode, v: Vec<Point>, q: &mut Point) -> Optoin<i32> { return 0; }\n"
      "fn keep<T>(x: T, y: Vec<U>) -> Self { return 0; }\n"
      "fn main() -> i32 { return 0; }\n";
  test_run r = test_analyse(text);
  /* Pointt (field), Piont (parameter), Optoin (return), U (generic argument). */
  assert_int_equal(test_count_diag(r.an, "E3029"), 4);
  assert_points_at(r.an, "E3029", text, "Pointt");
  assert_string_equal(help_of(r.an, "E3029"), "did you mean `Point`?");
  assert_false(vxp_analysis_admitted(r.an));
  test_done(&r);
  /* Declared structs, enums, traits, generic parameters, element and language types, and
   * const items in generic argument position resolve; with an import nothing is checked. */
  r = test_analyse(
      "const B: i32 = 4;\nstruct S { v: Vec<f32> }\ntrait Tr { }\n"
      "struct Steps<const N: i32> { s: S }\n"
      "fn f<T>(a: T, b: Option<Box<S>>, c: Steps<B>, d: usize, e: &Tr) -> Result<T, S> "
      "{ return a; }\n"
      "fn main() -> i32 { return 0; }\n");
  assert_int_equal(test_count_diag(r.an, "E3029"), 0);
  test_done(&r);
  r = test_analyse("import std::geometry;\nfn f(p: Point) -> i32 { return 0; }\n"
                   "fn main() -> i32 { return 0; }\n");
  assert_int_equal(test_count_diag(r.an, "E3029"), 0);
  test_done(&r);
}

static void test_resolve__an_unknown_topology_in_spawn_is_w1025(void **state) {
  (void)state;
  static const char text[] = TEST_MACHINE_4MIB
      "fn k() on Topology::Deb -> i32 { return 0; }\n"
      "fn g<D : Topology>() -> i32 { spawn on(Topology::D) { let y = 1; } return 0; }\n"
      "fn main() -> i32 {\n"
      "  spawn on(Topology::Dve) { let x = 1; }\n"
      "  spawn on(Topology::Dev) { let x = 2; }\n"
      "  spawn on(Topology::GPU) { let x = 3; }\n"
      "  return 0;\n}\n";
  test_run r = test_analyse(text);
  /* vxc's check_spawnon_expr only warns (W1025) for a `spawn on` topology nothing declares;
   * a function's `on Topology::Deb` stays E6025; D is a generic parameter. */
  assert_int_equal(test_count_diag(r.an, "E6025"), 1);
  assert_points_at(r.an, "E6025", text, "Topology::Deb");
  assert_string_equal(help_of(r.an, "E6025"), "did you mean `Topology::Dev`?");
  assert_int_equal(test_count_diag(r.an, "W1025"), 1);
  assert_points_at(r.an, "W1025", text, "Topology::Dve");
  assert_string_equal(help_of(r.an, "W1025"), "did you mean `Topology::Dev`?");
  assert_non_null(strstr(vxp_diagnostic_message(test_find_diag(r.an, "W1025")),
                         "unknown topology 'Dve': not declared (`Topology Dve { ... }`) or "
                         "registered by a plugin; defaulting to host-like placement"));
  test_done(&r);
  /* vxc's custom_topology.vx, in a program of our own: admitted with the warning. */
  static const char alone[] = "fn main() -> i32 {\n  spawn on(Topology::MyTPU) {\n"
                              "    let x = 1;\n  }\n  return 0;\n}\n";
  r = test_analyse(alone);
  assert_true(vxp_analysis_admitted(r.an));
  assert_int_equal(test_count_diag(r.an, "W1025"), 1);
  test_done(&r);
  /* Host-like placement: the region sees what the host sees, so reading a tensor placed in
   * the device's memory from it is E6003, as from the host. */
  static const char reads[] = TEST_MACHINE_4MIB
      "fn main() -> i32 {\n  let w = transfer(Tensor<f32, [4]>::new(), Memory::W);\n"
      "  spawn on(Topology::MyTPU) {\n    let y = w[0];\n  }\n  return 0;\n}\n";
  r = test_analyse(reads);
  assert_int_equal(test_count_diag(r.an, "W1025"), 1);
  assert_int_equal(test_count_diag(r.an, "E6003"), 1);
  assert_points_at(r.an, "E6003", reads, "w");
  test_done(&r);
}

static void test_resolve__names_in_a_pruned_comptime_arm_are_not_resolved(void **state) {
  (void)state;
  /* vxc prunes the arm before resolving it: an undefined call there is no error. */
  test_run r = run("const K: i32 = 0;",
                   "  if comptime K > 0 {\n    let a = undefined_pruned_away();\n"
                   "    spawn on(Topology::Nowhere) { let b = 1; }\n"
                   "    let c = transfer(Tensor<f32, [4]>::uninit(), Memory::Nowhere);\n  }");
  assert_int_equal(vxp_analysis_error_count(r.an), 0);
  assert_int_equal(test_count_diag(r.an, "W1025"), 0);
  assert_true(vxp_analysis_admitted(r.an));
  test_done(&r);
  /* Taken, the same arm is resolved (an unknown `spawn on` topology is vxc's W1025). */
  r = run("const K: i32 = 1;", "  if comptime K > 0 {\n    let a = undefined_pruned_away();\n"
                               "    spawn on(Topology::Nowhere) { let b = 1; }\n  }");
  assert_int_equal(test_count_diag(r.an, "E2002"), 1);
  assert_int_equal(test_count_diag(r.an, "W1025"), 1);
  test_done(&r);
  /* In a generic function, an arm pruned in one instance and taken in another is resolved. */
  r = run("fn pick<const N: i32>() -> i32 {\n  if comptime N > 1 { return nothing_here(); }\n"
          "  return 0;\n}",
          "  let a = pick<1>();\n  let b = pick<2>();\n  print!(a, b);");
  assert_int_equal(test_count_diag(r.an, "E2002"), 1);
  test_done(&r);
  r = run("fn pick<const N: i32>() -> i32 {\n  if comptime N > 1 { return nothing_here(); }\n"
          "  return 0;\n}",
          "  let a = pick<1>();\n  print!(a);");
  assert_int_equal(test_count_diag(r.an, "E2002"), 0);
  test_done(&r);
}

/* Constant names, element types and the spaces of a `let`'s type have no event of their
 * own: they are withdrawn by where they are written, the blocks lowering recorded around
 * that place (vxc resolves nothing in a pruned arm). */
static void test_resolve__shapes_and_types_in_a_pruned_arm_are_not_resolved(void **state) {
  (void)state;
#define ARMS                                                                                       \
  "  if comptime USE == 1 {\n"                                                                     \
  "    let a = Tensor<f32, [CONTXT], Memory::W>::uninit();\n"                                      \
  "    print!(a);\n"                                                                               \
  "  } else {\n"                                                                                   \
  "    let b: Tensor<fp32, [HIDEN], Memory::WW> = Tensor<f32, [4], Memory::W>::uninit();\n"        \
  "    let f = |k: i32| Tensor<f32, [LOST], Memory::W>::uninit();\n"                               \
  "    print!(b);\n"                                                                               \
  "  }"
  /* The then arm runs: the else arm's E1012, E2001 (twice, one in a closure) and E6025 go. */
  test_run r = run("const USE: i32 = 1;", ARMS);
  assert_int_equal(test_count_diag(r.an, "E2001"), 1);
  assert_non_null(strstr(vxp_diagnostic_message(test_find_diag(r.an, "E2001")), "CONTXT"));
  assert_int_equal(vxp_analysis_error_count(r.an), 1);
  test_done(&r);
  /* The else arm runs: its four errors stay, the then arm's goes. */
  r = run("const USE: i32 = 0;", ARMS);
  assert_int_equal(test_count_diag(r.an, "E2001"), 2);
  assert_int_equal(test_count_diag(r.an, "E1012"), 1);
  assert_int_equal(test_count_diag(r.an, "E6025"), 1);
  assert_int_equal(vxp_analysis_error_count(r.an), 4);
  test_done(&r);
  /* A condition that does not resolve decides no arm: everything is resolved. */
  r = run("const USED: i32 = 0;", ARMS);
  assert_int_equal(test_count_diag(r.an, "E2001"), 4);
  test_done(&r);
#undef ARMS
  /* A generic function's arm, pruned in one instance and taken in another, is resolved. */
  r = run("fn pick<const N: i32>() -> i32 {\n"
          "  if comptime N > 1 { let t = Tensor<f32, [MISSING], Memory::W>::uninit(); }\n"
          "  return 0;\n}",
          "  let a = pick<1>();\n  let b = pick<2>();\n  print!(a, b);");
  assert_int_equal(test_count_diag(r.an, "E2001"), 1);
  test_done(&r);
  r = run("fn pick<const N: i32>() -> i32 {\n"
          "  if comptime N > 1 { let t = Tensor<f32, [MISSING], Memory::W>::uninit(); }\n"
          "  return 0;\n}",
          "  let a = pick<1>();\n  print!(a);");
  assert_int_equal(test_count_diag(r.an, "E2001"), 0);
  test_done(&r);
}

static void test_resolve__a_transfer_predicate_folds_by_route(void **state) {
  (void)state;
  /* vxc's comptime_transfer_predicate.vx: `Transfer<A, B>` is true when a transfer path
   * exists; Island's memory is declared by nobody, so it exists, unreachable (W1026). */
  static const char text[] =
      "Topology Island {\n  memory: Memory::IslandRAM\n}\n"
      "fn main() -> i32 {\n"
      "  if comptime Transfer<Topology::GPU, Topology::CPU> {\n    let ok = 1;\n  }\n"
      "  if comptime Transfer<Topology::GPU, Topology::Island> {\n"
      "    let bad = undefined_pruned_away();\n  }\n"
      "  return 0;\n}\n";
  test_run r = test_analyse(text);
  assert_int_equal(vxp_analysis_error_count(r.an), 0);
  assert_int_equal(test_count_diag(r.an, "W1026"), 1);
  assert_true(vxp_analysis_admitted(r.an));
  test_done(&r);
  /* The kept arm is checked: the first predicate is true. */
  r = test_analyse("fn main() -> i32 {\n"
                   "  if comptime Transfer<Topology::GPU, Topology::CPU> { let x = gone(); }\n"
                   "  return 0;\n}\n");
  assert_int_equal(test_count_diag(r.an, "E2002"), 1);
  test_done(&r);
}

/* Many undefined calls among many functions: each name was compared with every function
 * for its "did you mean" (20,000 of each took 145 s); past a budget of comparisons every
 * call is still an error, only without the suggestion. */
static void
test_resolve__undefined_calls_past_the_suggestion_budget_are_errors_without_one(void **state) {
  (void)state;
  enum { N = 5000 };
  size_t cap = (size_t)N * 48 + 256, len = 0;
  char *text = malloc(cap);
  assert_non_null(text);
  for (int i = 0; i < N; i++)
    len += (size_t)snprintf(text + len, cap - len, "fn f%d() -> i32 { return g%d(); }\n", i, i);
  test_run r = test_analyse(text);
  size_t errors = 0, helped = 0;
  uint32_t last = 0;
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(r.an); i++) {
    const vxp_diagnostic *d = vxp_analysis_diagnostic(r.an, i);
    if (strcmp(vxp_diagnostic_code(d), "E2002") != 0) continue;
    errors++;
    assert_true(vxp_diagnostic_range(d).start_byte >= last); /* in source order */
    last = vxp_diagnostic_range(d).start_byte;
    for (size_t k = 0; k < vxp_diagnostic_note_count(d); k++)
      helped += vxp_diagnostic_is_help(vxp_diagnostic_note(d, k));
  }
  assert_int_equal(errors, N);
  assert_true(helped > 100); /* the first ones are helped: g0 is one edit from f0 */
  assert_true(helped < N);
  test_done(&r);
  free(text);
}

/* The errors of the resolution passes come in source order whichever pass found them:
 * undefined constants (a later pass) before unknown element types (an earlier one), and
 * the same start reported once. */
static void test_resolve__errors_of_every_pass_come_in_source_order(void **state) {
  (void)state;
  enum { N = 300 };
  size_t cap = (size_t)N * 200 + 512, len = 0;
  char *text = malloc(cap);
  assert_non_null(text);
  len += (size_t)snprintf(text + len, cap - len, "%s", TEST_MACHINE_4MIB);
  for (int i = 0; i < N; i++)
    len += (size_t)snprintf(text + len, cap - len,
                            "fn b%d() -> i32 { let t = transfer(Tensor<f32, [N%d]>::uninit(), "
                            "Memory::HBM); return 0; }\n",
                            i, i);
  for (int i = 0; i < N; i++)
    len += (size_t)snprintf(text + len, cap - len,
                            "fn a%d() -> i32 { let t = transfer(Tensor<foo%d, [4]>::uninit(), "
                            "Memory::HBM); return 0; }\n",
                            i, i);
  test_run r = test_analyse(text);
  size_t undefined = 0, unknown = 0;
  uint32_t last = 0;
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(r.an); i++) {
    const vxp_diagnostic *d = vxp_analysis_diagnostic(r.an, i);
    const char *code = vxp_diagnostic_code(d);
    if (strcmp(code, "E2001") != 0 && strcmp(code, "E1012") != 0) continue;
    undefined += code[1] == '2';
    unknown += code[1] == '1';
    assert_true(vxp_diagnostic_range(d).start_byte >= last);
    last = vxp_diagnostic_range(d).start_byte;
  }
  assert_int_equal(undefined, N);
  assert_int_equal(unknown, N);
  test_done(&r);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(
          test_resolve__undefined_calls_past_the_suggestion_budget_are_errors_without_one),
      cmocka_unit_test(test_resolve__errors_of_every_pass_come_in_source_order),
      cmocka_unit_test(test_resolve__edit_distance_counts_transpositions_and_ignores_case),
      cmocka_unit_test(test_resolve__a_misspelt_space_in_a_tensor_type_is_e6025),
      cmocka_unit_test(test_resolve__built_in_and_declared_places_resolve),
      cmocka_unit_test(test_resolve__an_undefined_constant_is_e2001_not_w1029),
      cmocka_unit_test(test_resolve__a_runtime_value_stays_w1029),
      cmocka_unit_test(test_resolve__generic_parameters_and_overrides_resolve),
      cmocka_unit_test(test_resolve__an_unknown_element_type_is_e1012),
      cmocka_unit_test(test_resolve__an_undefined_function_is_e2002_unless_imported),
      cmocka_unit_test(test_resolve__panic_and_abort_are_the_languages_own),
      cmocka_unit_test(test_resolve__void_and_the_kernel_intrinsics_are_known),
      cmocka_unit_test(test_resolve__machine_declarations_name_known_spaces),
      cmocka_unit_test(test_resolve__a_space_a_topology_holds_needs_no_declaration),
      cmocka_unit_test(test_resolve__an_unknown_type_in_a_signature_is_e3029),
      cmocka_unit_test(test_resolve__an_unknown_topology_in_spawn_is_w1025),
      cmocka_unit_test(test_resolve__names_in_a_pruned_comptime_arm_are_not_resolved),
      cmocka_unit_test(test_resolve__shapes_and_types_in_a_pruned_arm_are_not_resolved),
      cmocka_unit_test(test_resolve__a_transfer_predicate_folds_by_route),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
