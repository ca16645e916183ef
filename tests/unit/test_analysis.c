/* SPDX-License-Identifier: Apache-2.0 */
/* test_analysis.c - end-to-end rules through the public API: placements, releasing and
 * non-releasing blocks, the never-read rule, granules, E6009/E6010/W1028/W1029. */
#include "support.h"

#define TILE_3MIB "Tensor<f32, [1024, 768]>::uninit()"

/* A program on the 4 MiB fixture machine whose main body is `body`. */
static test_run run_main(const char *body) {
  static char text[16384];
  /* The helpers the bodies call are declared (after main, so that lines stay put): a call
   * to a function nothing defines is E2002. */
  snprintf(text, sizeof(text),
           TEST_MACHINE_4MIB "fn main() -> i32 {\n%s\n  return 0;\n}\n"
                             "extern \"C\" { fn use(x: i32) -> i32; fn read() -> i32; "
                             "fn make() -> i32; }\n",
           body);
  return test_analyse(text);
}

static void expect_peak(const char *body, uint64_t peak, size_t tiles, int admitted) {
  test_run r = run_main(body);
  const vxp_resident_set *rs = test_resident(r.an, "main", "W");
  assert_non_null(rs);
  if (vxp_resident_set_peak_bytes(rs) != peak || vxp_resident_set_tile_count(rs) != tiles)
    fail_msg("peak %llu tiles %zu, expected %llu tiles %zu for:\n%s",
             (unsigned long long)vxp_resident_set_peak_bytes(rs), vxp_resident_set_tile_count(rs),
             (unsigned long long)peak, tiles, body);
  assert_int_equal(vxp_analysis_admitted(r.an), admitted);
  test_done(&r);
}

static void test_analysis__blog_loop_program_peaks_at_two_tiles(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *src;
  vxp_program *prog;
  vxp_analysis *an;
  assert_int_equal(vxp_source_load_file(&src, ctx, "examples/blog/peak_not_sum.vx"), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
  assert_true(vxp_analysis_admitted(an));
  const vxp_resident_set *rs = test_resident(an, "main", "HBM");
  assert_non_null(rs);
  assert_int_equal(vxp_resident_set_peak_bytes(rs), 2097152);
  assert_int_equal(vxp_resident_set_capacity_bytes(rs), 4194304);
  assert_int_equal(vxp_resident_set_tile_count(rs), 2);
  assert_false(vxp_resident_set_overcommit(rs));
  uint64_t sum = 0;
  assert_true(vxp_resident_set_allocated_bytes(rs, &sum));
  assert_int_equal(sum, 33ull * 1048576);
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

static void test_analysis__blog_unrolled_program_is_e6010(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_source *src;
  vxp_program *prog;
  vxp_analysis *an;
  assert_int_equal(vxp_source_load_file(&src, ctx, "examples/blog/unrolled.vx"), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
  assert_false(vxp_analysis_admitted(an));
  assert_int_equal(vxp_analysis_error_count(an), 1);
  const vxp_diagnostic *d = test_find_diag(an, "E6010");
  assert_non_null(d);
  const char *msg = vxp_diagnostic_message(d);
  assert_non_null(strstr(msg, "(33 tiles)"));
  assert_non_null(strstr(msg, "34603008 bytes"));
  assert_non_null(strstr(msg, "4194304 byte capacity"));
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

static void test_analysis__releasing_and_non_releasing_blocks(void **state) {
  (void)state;
  /* Three 3 MiB tiles read later: 9 MiB in one block does not fit 4 MiB. */
  expect_peak("  let a = transfer(" TILE_3MIB ", Memory::W);\n"
              "  let b = transfer(" TILE_3MIB ", Memory::W);\n"
              "  let c = transfer(" TILE_3MIB ", Memory::W);\n"
              "  print!(a, b, c);",
              9437184, 3, 0);
  /* The same three in sibling `if` blocks never coexist. */
  expect_peak("  if x { let a = transfer(" TILE_3MIB ", Memory::W); print!(a); }\n"
              "  if y { let b = transfer(" TILE_3MIB ", Memory::W); print!(b); }\n"
              "  if z { let c = transfer(" TILE_3MIB
              ", Memory::W); print!(c); } else { let d = transfer(" TILE_3MIB
              ", Memory::W); print!(d); }",
              3145728, 1, 1);
  /* `for` and `loop` bodies release; the outer tile stays. */
  expect_peak("  let o = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W);\n"
              "  for i in 0..8 { let s = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W); "
              "print!(s, o); }\n"
              "  loop { let t = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W); print!(t); "
              "break; }",
              2097152, 2, 1);
  /* spawn, match arms, unsafe and comptime blocks do not release. */
  expect_peak(
      "  spawn on(Topology::Dev) { let a = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W); "
      "print!(a); }\n"
      "  unsafe { let b = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W); print!(b); }\n"
      "  match k { 0 => { let c = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W); "
      "print!(c); } _ => {} }\n"
      "  comptime { let d = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W); print!(d); }",
      4194304, 4, 1);
}

static void test_analysis__a_tile_never_read_is_released_where_it_is_made(void **state) {
  (void)state;
  /* 4 MiB, 2 MiB and 1 MiB, each bound to `s` and never read: the peak is one tile. */
  expect_peak("  let s = transfer(Tensor<f32, [1024, 1024]>::uninit(), Memory::W);\n"
              "  let s = transfer(Tensor<f32, [512, 1024]>::uninit(), Memory::W);\n"
              "  let s = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W);",
              4194304, 1, 1);
  /* Every transfer in a `let`'s initializer is bound to its name, not only the one that is
   * the whole initializer: `r`, never read, releases the tile passed to `use` at once. */
  expect_peak("  let r = use(transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W));\n"
              "  let s = transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W);\n"
              "  print!(s);",
              3145728, 1, 1);
  /* ... but a `let` inside the initializer ends the binding (vxc clears its target there,
   * and does not restore it), so the tile placed after it stays with `u`'s. */
  expect_peak("  let q = use(unsafe { let t = 1; transfer(Tensor<f32, [256, 1024]>::uninit(), "
              "Memory::W) });\n"
              "  let u = transfer(Tensor<f32, [256, 1024]>::uninit(), Memory::W);\n"
              "  print!(u);",
              2097152, 2, 1);
  /* Reading the name anywhere keeps every tile bound to it (readership is by name). */
  expect_peak("  let s = transfer(Tensor<f32, [512, 1024]>::uninit(), Memory::W);\n"
              "  let s = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W);\n"
              "  print!(s);",
              3145728, 2, 1);
}

static void test_analysis__only_a_transfer_is_released_for_being_never_read(void **state) {
  (void)state;
  /* A placed `let` never read stays resident to the end of its block: with a 2 MiB tile
   * placed after it, the peak holds both (vxc checks a `let`'s type after its target is
   * cleared, so the never-read rule does not reach it). */
  expect_peak("  let t = Tensor<f32, [512, 1024], Memory::W>::uninit();\n"
              "  let u = transfer(Tensor<f32, [512, 1024]>::uninit(), Memory::W);\n"
              "  print!(u);",
              4194304, 2, 1);
}

static void test_analysis__binding_a_placed_value_again_is_a_tile(void **state) {
  (void)state;
  /* `let b = a;` and `let r = &a;` give the binding a placed type, which vxc counts as a
   * tile of its own: three 1 MiB tiles, all in the function's block. */
  expect_peak("  let a = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W);\n"
              "  let b = a;\n"
              "  let r = &b;\n"
              "  print!(r);",
              3145728, 3, 1);
  /* A transfer in parentheses is still the transfer that places the binding's tile. */
  expect_peak("  let a = (transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W));\n  print!(a);",
              1048576, 1, 1);
}

static void test_analysis__a_tuple_let_keeps_its_transfers_and_rebinds_its_names(void **state) {
  (void)state;
  /* vxc lowers `let (a, b) = e;` to a hidden `let` of `e` whose elements the names read, so
   * the two 2 MiB transfers are never released as never read: with the 1 MiB tile after
   * them the peak is 5 MiB, over the 4 MiB space. */
  expect_peak("  let (a, b) = (transfer(Tensor<f32, [512, 1024]>::uninit(), Memory::W),\n"
              "                transfer(Tensor<f32, [512, 1024]>::uninit(), Memory::W));\n"
              "  let c = transfer(Tensor<f32, [256, 1024]>::uninit(), Memory::W);\n"
              "  print!(c);",
              5242880, 3, 0);
  /* A name bound by a tuple shadows the placed tile of the same name: `let b = a;` after it
   * binds the tuple's element, not the tile, so it is no tile of its own. */
  expect_peak("  let a = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W);\n"
              "  print!(a);\n"
              "  let ((a, k), mut j) = ((1, 2), 3);\n"
              "  let b = a;\n"
              "  print!(b);",
              1048576, 1, 1);
}

/* vxc's working-set matrix (working_set_peak_test.rs), each shape written here with 3 MiB
 * tiles read back to the host after their block so that none is released for being never
 * read: the peak in tiles, against a 64 MiB space that admits every shape. */
static void test_analysis__vxcs_working_set_matrix(void **state) {
  (void)state;
#define T(n)                                                                                       \
  "  let " n "h = Tensor<f32, [1024, 768]>::uninit();\n  let " n " = transfer(" n "h, "            \
  "Memory::W);\n"
#define R(n) "  let _r" n " = transfer(" n ", Memory::CPU_DRAM);\n"
  static const struct {
    const char *body;
    size_t tiles;
  } shapes[] = {
      {T("a") R("a"), 1},
      {T("a") T("b") R("a") R("b"), 2},
      {"  if true {\n" T("a") R("a") "  }\n" T("b") R("b"), 1},
      {"  if true {\n" T("a") R("a") "  }\n  if true {\n" T("b") R("b") "  }\n", 1},
      {"  if true {\n" T("a") R("a") "  } else {\n" T("b") R("b") "  }\n", 1},
      {T("a") "  if true {\n" T("b") R("b") "  }\n" R("a"), 2},
      {T("a") "  if true {\n" T("b") R("b") "  }\n" T("c") R("a") R("c"), 2},
      {T("a") "  if true {\n" T("b") "  if true {\n" T("c") R("c") "  }\n" R("b") "  }\n" R("a"),
       3},
      {"  if true {\n" T("a") "  if true {\n" T("b") R("b") "  }\n  if true {\n" T("c")
           R("c") "  }\n" R("a") "  }\n",
       2},
      {"  for i in 0..4 {\n" T("a") R("a") "  }\n", 1},
      {T("a") "  for i in 0..4 {\n" T("b") R("b") "  }\n" R("a"), 2},
  };
  for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
    char text[4096];
    snprintf(text, sizeof(text),
             "Memory CPU_DRAM {}\n"
             "Memory W { within: Memory::CPU_DRAM, capacity: 64 MiB, managed: explicit }\n"
             "Topology Dev { arch: nvptx64, memory: Memory::W, visible: [Memory::W],\n"
             "  transfer Memory::CPU_DRAM -> Memory::W : 10\n"
             "  transfer Memory::W -> Memory::CPU_DRAM : 10 }\n"
             "fn main() -> i32 {\n%s  return 0;\n}\n",
             shapes[i].body);
    test_run r = test_analyse(text);
    const vxp_resident_set *rs = test_resident(r.an, "main", "W");
    assert_non_null(rs);
    if (vxp_resident_set_peak_bytes(rs) != 3145728ull * shapes[i].tiles ||
        vxp_resident_set_tile_count(rs) != shapes[i].tiles || !vxp_analysis_admitted(r.an))
      fail_msg("shape %zu: %llu bytes over %zu tiles, expected %zu tiles:\n%s", i,
               (unsigned long long)vxp_resident_set_peak_bytes(rs), vxp_resident_set_tile_count(rs),
               shapes[i].tiles, text);
    test_done(&r);
  }
  /* The other half: three read in one block into 4 MiB is E6010 naming 9437184 bytes; the
   * same three in sibling blocks fit. */
  test_run r = run_main(T("a") T("b") T("c") R("a") R("b") R("c"));
  assert_non_null(strstr(vxp_diagnostic_message(test_find_diag(r.an, "E6010")), "9437184"));
  test_done(&r);
  expect_peak("  if true {\n" T("a") R("a") "  }\n  if true {\n" T("b")
                  R("b") "  }\n"
                         "  if true {\n" T("c") R("c") "  }\n",
              3145728, 1, 1);
#undef T
#undef R
}

static void test_analysis__a_tile_that_fills_the_space_exactly_fits(void **state) {
  (void)state;
  expect_peak("  let w = transfer(Tensor<f32, [1024, 1024]>::uninit(), Memory::W);\n  print!(w);",
              4194304, 1, 1);
}

static void test_analysis__one_oversized_tile_is_e6009_not_e6010(void **state) {
  (void)state;
  test_run r =
      run_main("  let w = transfer(Tensor<f32, [2048, 1024]>::uninit(), Memory::W);\n  print!(w);");
  assert_int_equal(test_count_diag(r.an, "E6009"), 1);
  assert_int_equal(test_count_diag(r.an, "E6010"), 0);
  const char *msg = vxp_diagnostic_message(test_find_diag(r.an, "E6009"));
  assert_string_equal(msg, "transferred tensor needs 8388608 bytes but memory space 'W' has "
                           "capacity 4194304 bytes");
  test_done(&r);
}

static void test_analysis__element_widths_from_bool_to_128_bits(void **state) {
  (void)state;
  struct {
    const char *elem;
    uint64_t bytes;
  } cases[] = {{"bool", 125},  {"i4", 500},   {"f4e2m1", 500}, {"u8", 1000},   {"f8e4m3", 1000},
               {"bf16", 2000}, {"f32", 4000}, {"u64", 8000},   {"i128", 16000}};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char body[256];
    snprintf(body, sizeof(body),
             "  let t = transfer(Tensor<%s, [10, 100]>::uninit(), Memory::W);\n  print!(t);",
             cases[i].elem);
    expect_peak(body, cases[i].bytes, 1, 1);
  }
  /* 3 bools are 3 bits: one byte. */
  expect_peak("  let t = transfer(Tensor<bool, [3]>::uninit(), Memory::W);\n  print!(t);", 1, 1, 1);
}

static void test_analysis__granule_rounds_each_tile_up(void **state) {
  (void)state;
  const char *text = "Memory CPU_DRAM {}\n"
                     "Memory S { capacity: 2 KiB, granule: 1 KiB, managed: explicit }\n"
                     "fn main() -> i32 {\n"
                     "  let a = transfer(Tensor<u8, [1]>::uninit(), Memory::S);\n"
                     "  let b = transfer(Tensor<u8, [1025]>::uninit(), Memory::S);\n"
                     "  print!(a, b);\n"
                     "  return 0;\n"
                     "}\n";
  test_run r = test_analyse(text);
  const vxp_resident_set *rs = test_resident(r.an, "main", "S");
  assert_int_equal(vxp_resident_set_peak_bytes(rs), 3072);
  const vxp_diagnostic *d = test_find_diag(r.an, "E6010");
  assert_non_null(d);
  assert_non_null(strstr(vxp_diagnostic_message(d), "(each rounded up to the 1024-byte granule)"));
  test_done(&r);
}

static void test_analysis__overcommit_turns_e6010_into_w1028(void **state) {
  (void)state;
  const char *text = "Memory CPU_DRAM {}\n"
                     "Memory W { capacity: 4 MiB, managed: explicit, overcommit }\n"
                     "Topology T { memory: Memory::W, transfer Memory::CPU_DRAM -> Memory::W }\n"
                     "fn main() -> i32 {\n"
                     "  let a = transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W);\n"
                     "  let b = transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W);\n"
                     "  print!(a, b);\n"
                     "  return 0;\n"
                     "}\n";
  test_run r = test_analyse(text);
  assert_true(vxp_analysis_admitted(r.an));
  const vxp_diagnostic *d = test_find_diag(r.an, "W1028");
  assert_non_null(d);
  assert_non_null(strstr(vxp_diagnostic_message(d), "allowed because 'W' is `overcommit`"));
  assert_int_equal(test_count_diag(r.an, "E6010"), 0);
  test_done(&r);
}

static void test_analysis__a_runtime_dimension_is_w1029_and_left_out(void **state) {
  (void)state;
  test_run r = run_main("  let n = read();\n"
                        "  let t = transfer(Tensor<f32, [n, 1024]>::uninit(), Memory::W);\n"
                        "  let u = transfer(Tensor<f32, [?, 4]>::uninit(), Memory::W);\n"
                        "  print!(t, u);");
  assert_int_equal(test_count_diag(r.an, "W1029"), 2);
  const vxp_diagnostic *d = test_find_diag(r.an, "W1029");
  assert_string_equal(
      vxp_diagnostic_message(d),
      "capacity of 'W' not verified \xe2\x80\x94 transferred tensor has a dynamic shape");
  assert_int_equal(vxp_diagnostic_note_count(d), 2);
  assert_string_equal(vxp_diagnostic_message(vxp_diagnostic_note(d, 0)),
                      "dimension 0 is the runtime value 'n'");
  assert_true(vxp_diagnostic_is_help(vxp_diagnostic_note(d, 1)));
  /* The `?` dimension's note opens with vxc's words for it. */
  const vxp_diagnostic *q = vxp_analysis_diagnostic(r.an, vxp_analysis_diagnostic_count(r.an) - 1);
  assert_string_equal(vxp_diagnostic_code(q), "W1029");
  assert_int_equal(strncmp(vxp_diagnostic_message(vxp_diagnostic_note(q, 0)),
                           "dimension 0 is a run-time extent", 32),
                   0);
  assert_null(test_resident(r.an, "main", "W"));
  assert_true(vxp_analysis_admitted(r.an));
  test_done(&r);
}

static void test_analysis__const_items_fold_into_shapes(void **state) {
  (void)state;
  const char *text = TEST_MACHINE_4MIB
      "const ROWS : i64 = 256 * 2;\n"
      "const COLS : i64 = ROWS + 512;\n"
      "fn main() -> i32 {\n"
      "  let t = transfer(Tensor<f32, [ROWS, COLS % 1000]>::uninit(), Memory::W);\n"
      "  print!(t);\n"
      "  return 0;\n"
      "}\n";
  test_run r = test_analyse(text);
  const vxp_resident_set *rs = test_resident(r.an, "main", "W");
  assert_non_null(rs);
  assert_int_equal(vxp_resident_set_peak_bytes(rs), 512ull * 24 * 4);
  test_done(&r);
}

static void test_analysis__an_overflowing_shape_is_never_wrapped(void **state) {
  (void)state;
  test_run r = run_main("  let t = transfer(Tensor<f64, [4294967296, 4294967296]>::uninit(), "
                        "Memory::W);\n  print!(t);");
  const vxp_diagnostic *d = test_find_diag(r.an, "E6009");
  assert_non_null(d);
  assert_non_null(strstr(vxp_diagnostic_message(d), "needs more than 18446744073709551615 bytes"));
  test_done(&r);
}

static void test_analysis__if_comptime_prunes_the_branch_not_taken(void **state) {
  (void)state;
  const char *text = TEST_MACHINE_4MIB
      "const BIG : i32 = 0;\n"
      "fn main() -> i32 {\n"
      "  let a = transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W);\n"
      "  if comptime BIG == 1 { let b = transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W); "
      "print!(b); }\n"
      "  else { let c = transfer(Tensor<f32, [16]>::uninit(), Memory::W); print!(c, a); }\n"
      "  return 0;\n"
      "}\n";
  test_run r = test_analyse(text);
  const vxp_resident_set *rs = test_resident(r.an, "main", "W");
  assert_int_equal(vxp_resident_set_peak_bytes(rs), 3145728 + 64);
  assert_true(vxp_analysis_admitted(r.an));
  test_done(&r);
}

static void test_analysis__placed_let_types_are_tiles(void **state) {
  (void)state;
  expect_peak("  let a = Tensor<f32, [1024, 768], Memory::W>::uninit();\n"
              "  let b : Ref<Tensor<f32, [256]>, Memory::W> = make();\n"
              "  let c : Pinned<Tensor<f32, [256]>, Topology::Dev> = make();\n"
              "  print!(a, b, c);",
              3145728 + 1024 + 1024, 3, 1);
}

static void test_analysis__a_syntax_error_keeps_later_functions_analysable(void **state) {
  (void)state;
  const char *text =
      TEST_MACHINE_4MIB "fn broken() -> i32 { let = ; }\n"
                        "fn main() -> i32 {\n"
                        "  let a = transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W);\n"
                        "  let b = transfer(Tensor<f32, [1024, 768]>::uninit(), Memory::W);\n"
                        "  print!(a, b);\n"
                        "  return 0;\n"
                        "}\n";
  test_run r = test_analyse(text);
  assert_true(test_count_diag(r.an, "VXP0001") >= 1);
  assert_int_equal(test_count_diag(r.an, "E6010"), 1);
  test_done(&r);
}

static void test_analysis__a_host_transfer_without_a_host_is_e6014_once(void **state) {
  (void)state;
  const char *machine = "Memory HBM { capacity: 1 GiB, managed: explicit, scope: device }\n"
                        "Topology D { memory: Memory::HBM,\n"
                        "  transfer Memory::CPU_DRAM -> Memory::HBM : 10 GB/s }\n";
  const char *text = "fn main() -> i32 {\n"
                     "  let a = transfer(Tensor<f32, [4]>::uninit(), Memory::HBM);\n"
                     "  let b = transfer(Tensor<f32, [4]>::uninit(), Memory::HBM);\n"
                     "  print!(a, b);\n"
                     "  return 0;\n"
                     "}\n";
  test_run r = test_analyse_with(text, machine, 0);
  assert_int_equal(test_count_diag(r.an, "E6014"), 1);
  const vxp_diagnostic *d = test_find_diag(r.an, "E6014");
  assert_string_equal(vxp_diagnostic_message(d),
                      "this program stages through host memory, but no host was declared: the "
                      "transfer CPU_DRAM -> HBM has an end nothing describes");
  assert_int_equal(vxp_diagnostic_range(d).start.line, 1);
  test_done(&r);
  /* With the default host there is nothing to report. */
  r = test_analyse_with(text, machine, 1);
  assert_int_equal(test_count_diag(r.an, "E6014"), 0);
  test_done(&r);
  /* Without a device-scoped space the program is an ordinary native build: no E6014. */
  r = test_analyse_with(text,
                        "Memory HBM { capacity: 1 GiB }\n"
                        "Topology D { memory: Memory::HBM,\n"
                        "  transfer Memory::CPU_DRAM -> Memory::HBM : 10 GB/s }\n",
                        0);
  assert_int_equal(test_count_diag(r.an, "E6014"), 0);
  test_done(&r);
}

static test_run analyse_with_overrides(const char *text, const vxp_const_override *ov,
                                       size_t count) {
  test_run r;
  memset(&r, 0, sizeof(r));
  r.ctx = test_context();
  assert_int_equal(vxp_source_new(&r.src, r.ctx, "test.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse(&r.prog, r.ctx, r.src), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.overrides = ov;
  opts.override_count = count;
  assert_int_equal(vxp_analyze(&r.an, r.ctx, r.prog, &opts), VXP_OK);
  return r;
}

static void test_analysis__overrides_replace_const_items_everywhere(void **state) {
  (void)state;
  const char *text =
      TEST_MACHINE_4MIB "const ROWS : i64 = 256;\n"
                        "const STEPS : i64 = 2;\n"
                        "const WIDE : i64 = 0;\n"
                        "fn main() -> i32 {\n"
                        "  for i in 0..STEPS {\n"
                        "    let t = transfer(Tensor<f32, [ROWS, 1024]>::uninit(), Memory::W);\n"
                        "    print!(t);\n"
                        "  }\n"
                        "  if comptime WIDE == 1 { let u = transfer(Tensor<f32, [16]>::uninit(), "
                        "Memory::W); print!(u); }\n"
                        "  return 0;\n"
                        "}\n";
  /* Without overrides: 1 MiB per step, two steps. */
  test_run r = analyse_with_overrides(text, NULL, 0);
  const vxp_resident_set *rs = test_resident(r.an, "main", "W");
  uint64_t sum = 0;
  assert_int_equal(vxp_resident_set_peak_bytes(rs), 1048576);
  assert_true(vxp_resident_set_allocated_bytes(rs, &sum));
  assert_int_equal(sum, 2 * 1048576);
  test_done(&r);
  /* ROWS, the trip count and the `if comptime` condition all fold with the overrides; a
   * name given twice keeps the later value; one the program never names is VXP0020. */
  vxp_const_override ov[] = {{"ROWS", 1}, {"STEPS", 10}, {"ROWS", 512}, {"WIDE", 1}, {"ROWZ", 7}};
  r = analyse_with_overrides(text, ov, 5);
  rs = test_resident(r.an, "main", "W");
  assert_int_equal(vxp_resident_set_peak_bytes(rs), 2097152);
  assert_true(vxp_resident_set_allocated_bytes(rs, &sum));
  assert_int_equal(sum, 10 * 2097152 + 64);
  assert_int_equal(vxp_analysis_warning_count(r.an), 1);
  const vxp_diagnostic *d = test_find_diag(r.an, "VXP0020");
  assert_non_null(d);
  assert_string_equal(vxp_diagnostic_message(d),
                      "-D ROWZ=7 has no effect: the program never names 'ROWZ'");
  assert_false(vxp_diagnostic_has_range(d));
  const char *json = vxp_analysis_json(r.an, NULL);
  assert_non_null(
      strstr(json, "\"defines\": {\"ROWS\": 512, \"STEPS\": 10, \"WIDE\": 1, \"ROWZ\": 7}"));
  test_done(&r);
}

static void test_analysis__malformed_overrides_are_einval(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  const char *text = "fn main() -> i32 { return 0; }\n";
  vxp_source *src;
  vxp_program *prog;
  vxp_analysis *an = NULL;
  assert_int_equal(vxp_source_new(&src, ctx, "t.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.override_count = 1;
  assert_int_equal(vxp_analyze(&an, ctx, prog, &opts), VXP_EINVAL);
  vxp_const_override nameless = {NULL, 3};
  opts.overrides = &nameless;
  assert_int_equal(vxp_analyze(&an, ctx, prog, &opts), VXP_EINVAL);
  assert_non_null(strstr(vxp_context_errmsg(ctx), "override 0 has no name"));
  assert_null(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

static void test_analysis__declared_positions_get_the_per_tile_check_only(void **state) {
  (void)state;
  const char *machine = "Memory HBM { capacity: 40 GiB, managed: explicit, scope: device }\n"
                        "Topology D { memory: Memory::HBM }\n";
  const char *text = "struct Holder {\n"
                     "  big : Tensor<f32, [120000, 125000], Memory::HBM>\n"
                     "}\n"
                     "fn takes(t : Tensor<f32, [120000, 125000], Memory::HBM>) -> i32 {\n"
                     "  return 0;\n"
                     "}\n"
                     "fn makes() -> Tensor<f32, [120000, 125000], Memory::HBM> {\n"
                     "  return make();\n"
                     "}\n"
                     "fn fits(t : Tensor<f32, [4], Memory::HBM>) -> i32 { return 0; }\n"
                     "fn main() -> i32 { return 0; }\n";
  test_run r = test_analyse_with(text, machine, 0);
  assert_int_equal(test_count_diag(r.an, "E6009"), 3);
  const char *expected[] = {
      "field 'big' of struct 'Holder' needs 60000000000 bytes but memory space 'HBM' has "
      "capacity 42949672960 bytes",
      "parameter 't' of function 'takes' needs 60000000000 bytes but memory space 'HBM' has "
      "capacity 42949672960 bytes",
      "the return value of function 'makes' needs 60000000000 bytes but memory space 'HBM' "
      "has capacity 42949672960 bytes"};
  size_t k = 0;
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(r.an); i++) {
    const vxp_diagnostic *d = vxp_analysis_diagnostic(r.an, i);
    if (strcmp(vxp_diagnostic_code(d), "E6009") == 0)
      assert_string_equal(vxp_diagnostic_message(d), expected[k++]);
  }
  /* The caller owns those tiles: nobody's working set holds them. */
  assert_int_equal(vxp_analysis_resident_set_count(r.an), 0);
  test_done(&r);
}

/* A dimension that fails to fold in a const item's definition: W1029's note says why and
 * points there, at the sub-expression that failed, not at the dimension naming the item. */
static void test_analysis__a_failed_fold_points_at_its_culprit(void **state) {
  (void)state;
  const char *text =
      TEST_MACHINE_4MIB "const HALF : i64 = 64 / (ROWS - ROWS);\n"
                        "const ROWS : i64 = 8;\n"
                        "fn main() -> i32 {\n"
                        "  let t = transfer(Tensor<f32, [HALF * 2, 4]>::uninit(), Memory::W);\n"
                        "  print!(t);\n"
                        "  return 0;\n"
                        "}\n";
  test_run r = test_analyse(text);
  /* A constant that divides by zero is no run-time value: an error, not W1029. */
  assert_int_equal(test_count_diag(r.an, "W1029"), 0);
  assert_false(vxp_analysis_admitted(r.an));
  const vxp_diagnostic *d = test_find_diag(r.an, "VXP0050");
  assert_non_null(d);
  const vxp_diagnostic *n = vxp_diagnostic_note(d, 0);
  assert_string_equal(vxp_diagnostic_message(n),
                      "dimension 0 is not a compile-time constant: it divides by zero");
  vxp_range at = vxp_diagnostic_range(n);
  assert_int_equal(at.start.line, 5);    /* line 6: the const item */
  assert_int_equal(at.start.column, 19); /* `64 / (ROWS - ROWS)` */
  test_done(&r);
}

static uint64_t allocated(const char *body, int *known) {
  test_run r = run_main(body);
  const vxp_resident_set *rs = test_resident(r.an, "main", "W");
  assert_non_null(rs);
  uint64_t sum = 0;
  *known = vxp_resident_set_allocated_bytes(rs, &sum);
  test_done(&r);
  return sum;
}

/* allocated_bytes: each placement times the trip counts of its enclosing loops, when
 * every one folds; a bound known only at run time makes the sum null, never a guess. */
static void test_analysis__loop_trip_counts_fold_or_are_null(void **state) {
  (void)state;
  int known = 0;
  assert_int_equal(allocated("  for i in 0..8 { let t = transfer(Tensor<u8, [1024]>::uninit(), "
                             "Memory::W); print!(t); }",
                             &known),
                   8 * 1024);
  assert_true(known);
  /* Nested loops multiply; a const item and arithmetic in the bounds fold. */
  const char *nested =
      "  for i in 2..2 + 3 { for j in 0..4 * 2 { let t = transfer(Tensor<u8, [1024]>::uninit(), "
      "Memory::W); print!(t); } }\n  let once = transfer(Tensor<u8, [16]>::uninit(), Memory::W); "
      "print!(once);";
  assert_int_equal(allocated(nested, &known), 3 * 8 * 1024 + 16);
  assert_true(known);
  /* Negative bounds count (-2..3 is 5 trips); an empty or reversed range runs 0 times. */
  assert_int_equal(allocated("  for i in -2..3 { let t = transfer(Tensor<u8, [1024]>::uninit(), "
                             "Memory::W); print!(t); }"
                             "\n  for i in 5..2 { let u = transfer(Tensor<u8, [64]>::uninit(), "
                             "Memory::W); print!(u); }",
                             &known),
                   5 * 1024);
  assert_true(known);
  allocated("  let n = read();\n  for i in 0..n { let t = transfer(Tensor<u8, [1024]>::uninit(), "
            "Memory::W); print!(t); }",
            &known);
  assert_false(known);
  allocated(
      "  loop { let t = transfer(Tensor<u8, [1024]>::uninit(), Memory::W); print!(t); break; }",
      &known);
  assert_false(known);
  allocated("  let v = read();\n  for x in v { let t = transfer(Tensor<u8, [1024]>::uninit(), "
            "Memory::W); print!(t); }",
            &known);
  assert_false(known);
}

/* E6026: a tensor placed where the holding topology's `dtypes:` omit its element type. */
static void test_analysis__an_element_type_the_hardware_lacks_is_e6026(void **state) {
  (void)state;
  const char *machine =
      "Memory CPU_DRAM {}\n"
      "Memory HBM { within: Memory::CPU_DRAM, capacity: 1 GiB, managed: explicit, scope: device }\n"
      "Topology Hopper { memory: Memory::HBM, dtypes: [f32, f16, Bool],\n"
      "  transfer Memory::CPU_DRAM -> Memory::HBM : 10 }\n";
  const char *cases[][2] = {
      {"f4e2m1", "1"}, /* not listed: refused */
      {"f16", "0"},    /* listed */
      {"bool", "0"},   /* listed under its alias */
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char text[1024];
    snprintf(
        text, sizeof(text),
        "%sfn main() -> i32 {\n  let t = transfer(Tensor<%s, [8, 8]>::uninit(), Memory::HBM);\n"
        "  print!(t);\n  return 0;\n}\n",
        machine, cases[i][0]);
    test_run r = test_analyse(text);
    if (test_count_diag(r.an, "E6026") != (size_t)atoi(cases[i][1]))
      fail_msg("%s: %zu E6026", cases[i][0], test_count_diag(r.an, "E6026"));
    if (cases[i][1][0] == '1') {
      /* vxc's wording: the context, the element type, the topology and its list. */
      assert_string_equal(vxp_diagnostic_message(test_find_diag(r.an, "E6026")),
                          "transferred tensor has element type f4e2m1, which Hopper cannot "
                          "represent; it declares [f32, f16, bool]");
    }
    test_done(&r);
  }
  /* Declared positions are asked too, as vxc asks them (a tile they never place). */
  {
    char text[1024];
    snprintf(text, sizeof(text),
             "%sstruct S { x : Tensor<i8, [4], Memory::HBM> }\n"
             "fn f(t : Tensor<f16, [4], Memory::HBM>) -> Tensor<i4, [2], Memory::HBM> {\n"
             "  return t;\n}\n"
             "fn main() -> i32 {\n  return 0;\n}\n",
             machine);
    test_run d = test_analyse(text);
    assert_int_equal(test_count_diag(d.an, "E6026"), 2);
    int field = 0, ret = 0;
    for (size_t i = 0; i < vxp_analysis_diagnostic_count(d.an); i++) {
      const char *m = vxp_diagnostic_message(vxp_analysis_diagnostic(d.an, i));
      field = field || strncmp(m, "field 'x' of struct 'S' has element type i8,", 44) == 0;
      ret = ret || strncmp(m, "the return value of function 'f' has element type i4,", 53) == 0;
    }
    assert_true(field);
    assert_true(ret);
    test_done(&d);
  }
  /* A second topology holding the space without `dtypes:` can represent anything. */
  test_run r = test_analyse("Memory CPU_DRAM {}\n"
                            "Memory HBM { capacity: 1 GiB }\n"
                            "Topology A { memory: Memory::HBM, dtypes: [f32] }\n"
                            "Topology B { memory: Memory::HBM }\n"
                            "fn main() -> i32 {\n"
                            "  let t = Tensor<f16, [8], Memory::HBM>::uninit();\n"
                            "  print!(t);\n  return 0;\n}\n");
  assert_int_equal(test_count_diag(r.an, "E6026"), 0);
  test_done(&r);
}

/* Messages quote names whole, however long: a 500-character variable and parameter were cut
 * by the analysis' fixed buffers (160 bytes for "variable '...'", 320 for the reason a size is
 * unknown, 256 for a fold's explanation). */
static void test_analysis__a_very_long_name_is_quoted_whole(void **state) {
  (void)state;
  char var[501], dim[501];
  memset(var, 'v', 500);
  memset(dim, 'n', 500);
  var[500] = dim[500] = '\0';
  char program[4096];
  snprintf(program, sizeof(program),
           "Memory CPU_DRAM {}\n"
           "Memory HBM { within: Memory::CPU_DRAM, capacity: 1 GiB, managed: explicit }\n"
           "fn main(%s: i64) -> i32 {\n"
           "  let %s: Tensor<f32, [%s], Memory::HBM> = Tensor::uninit();\n"
           "  print(%s);\n"
           "  return 0;\n"
           "}\n",
           dim, var, dim, var);
  test_run r = test_analyse(program);
  const vxp_diagnostic *d = test_find_diag(r.an, "W1029");
  assert_non_null(d);
  char expected[1100];
  snprintf(expected, sizeof(expected), "variable '%s' has a dynamic shape", var);
  assert_non_null(strstr(vxp_diagnostic_message(d), expected));
  snprintf(expected, sizeof(expected), "dimension 0 is the runtime value '%s'", dim);
  int found = 0;
  for (size_t i = 0; i < vxp_diagnostic_note_count(d); i++)
    found = found || strcmp(vxp_diagnostic_message(vxp_diagnostic_note(d, i)), expected) == 0;
  assert_true(found);
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_analysis__an_element_type_the_hardware_lacks_is_e6026),
      cmocka_unit_test(test_analysis__blog_loop_program_peaks_at_two_tiles),
      cmocka_unit_test(test_analysis__blog_unrolled_program_is_e6010),
      cmocka_unit_test(test_analysis__releasing_and_non_releasing_blocks),
      cmocka_unit_test(test_analysis__a_tile_never_read_is_released_where_it_is_made),
      cmocka_unit_test(test_analysis__only_a_transfer_is_released_for_being_never_read),
      cmocka_unit_test(test_analysis__a_tuple_let_keeps_its_transfers_and_rebinds_its_names),
      cmocka_unit_test(test_analysis__binding_a_placed_value_again_is_a_tile),
      cmocka_unit_test(test_analysis__vxcs_working_set_matrix),
      cmocka_unit_test(test_analysis__a_tile_that_fills_the_space_exactly_fits),
      cmocka_unit_test(test_analysis__one_oversized_tile_is_e6009_not_e6010),
      cmocka_unit_test(test_analysis__element_widths_from_bool_to_128_bits),
      cmocka_unit_test(test_analysis__granule_rounds_each_tile_up),
      cmocka_unit_test(test_analysis__overcommit_turns_e6010_into_w1028),
      cmocka_unit_test(test_analysis__a_runtime_dimension_is_w1029_and_left_out),
      cmocka_unit_test(test_analysis__const_items_fold_into_shapes),
      cmocka_unit_test(test_analysis__an_overflowing_shape_is_never_wrapped),
      cmocka_unit_test(test_analysis__if_comptime_prunes_the_branch_not_taken),
      cmocka_unit_test(test_analysis__placed_let_types_are_tiles),
      cmocka_unit_test(test_analysis__a_syntax_error_keeps_later_functions_analysable),
      cmocka_unit_test(test_analysis__a_host_transfer_without_a_host_is_e6014_once),
      cmocka_unit_test(test_analysis__overrides_replace_const_items_everywhere),
      cmocka_unit_test(test_analysis__malformed_overrides_are_einval),
      cmocka_unit_test(test_analysis__declared_positions_get_the_per_tile_check_only),
      cmocka_unit_test(test_analysis__loop_trip_counts_fold_or_are_null),
      cmocka_unit_test(test_analysis__a_failed_fold_points_at_its_culprit),
      cmocka_unit_test(test_analysis__a_very_long_name_is_quoted_whole),
  };
  return cmocka_run_group_tests_name("analysis", tests, NULL, NULL);
}
