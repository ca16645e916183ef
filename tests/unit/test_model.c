/* SPDX-License-Identifier: Apache-2.0 */
/* test_model.c - the program model as the one input after lowering: top-level items with
 * ids and a position index, every function in its item, and the program's own Memory and
 * Topology declarations read once, when the program is built, for every analysis. */
#include "support.h"

#include "analysis_data.h"
#include "machine.h"
#include "program.h"

static const char program_text[] =
    "Memory CPU_DRAM {}\n"                                      /* item 0 */
    "Memory W { within: Memory::CPU_DRAM, capacity: 4 MiB }\n"  /* item 1 */
    "Topology Dev { memory: Memory::W, visible: [Memory::W],\n" /* item 2 */
    "  transfer Memory::CPU_DRAM -> Memory::W : 10 }\n"
    "// a comment is no item\n"
    "const N: i32 = 4;\n"                                /* item 3 */
    "struct P { x: i32 }\n"                              /* item 4 */
    "impl P {\n  fn get(self: P) -> i32 { return 1; }\n" /* item 5 */
    "  fn put(self: P) -> i32 { let f = |k: i32| k; return f(2); }\n}\n"
    "fn main() -> i32 {\n  let t = Tensor<f32, [N], Memory::W>::uninit();\n" /* item 6 */
    "  print!(t);\n  return 0;\n}\n";

static void test_model__items_have_ids_in_source_order_and_hold_their_functions(void **state) {
  (void)state;
  test_run r = test_analyse(program_text);
  const vxp_model *m = &r.prog->model;
  assert_int_equal(m->items.len, 7);
  const vxp_item_kind kinds[] = {VXP_ITEM_MEMORY,  VXP_ITEM_MEMORY, VXP_ITEM_TOPOLOGY,
                                 VXP_ITEM_CONST,   VXP_ITEM_STRUCT, VXP_ITEM_IMPL,
                                 VXP_ITEM_FUNCTION};
  for (size_t i = 0; i < m->items.len; i++)
    assert_int_equal(m->items.items[i].kind, kinds[i]);
  assert_string_equal(vxp_strtab__str(&m->names, m->items.items[3].name), "N");
  assert_int_equal(m->items.items[3].index, 0); /* consts[0] */
  /* The impl holds both methods and the closure inside `put`; main is its own item. */
  assert_int_equal(m->items.items[5].function_count, 3);
  assert_int_equal(m->items.items[6].function_count, 1);
  for (size_t f = 0; f < m->functions.len; f++) {
    const vxp_function *fn = &m->functions.items[f];
    const vxp_model_item *it = &m->items.items[fn->item];
    assert_true(it->start_byte <= fn->start_byte && fn->end_byte <= it->end_byte);
  }
  test_done(&r);
}

static void test_model__a_position_finds_its_item(void **state) {
  (void)state;
  test_run r = test_analyse(program_text);
  const vxp_model *m = &r.prog->model;
  const char *closure = strstr(program_text, "|k: i32|");
  const char *tensor = strstr(program_text, "Tensor<f32");
  const char *comment = strstr(program_text, "// a comment");
  assert_int_equal(vxp_model__item_at(m, (uint32_t)(closure - program_text)), 5);
  assert_int_equal(vxp_model__item_at(m, (uint32_t)(tensor - program_text)), 6);
  assert_int_equal(vxp_model__item_at(m, 0), 0);
  /* Between items (a comment), and past the end: no item. */
  assert_int_equal(vxp_model__item_at(m, (uint32_t)(comment - program_text)), VXP_NONE);
  assert_int_equal(vxp_model__item_at(m, (uint32_t)sizeof(program_text)), VXP_NONE);
  test_done(&r);
}

static void test_model__declarations_are_read_once_for_every_analysis(void **state) {
  (void)state;
  test_run r = test_analyse(program_text);
  const vxp_machine *own = r.prog->model.declarations;
  assert_non_null(own);
  assert_int_equal(own->spaces.len, 2);
  assert_int_equal(own->topologies.len, 1);
  /* The analysis' view borrows the program's declarations: the same objects, not a copy
   * read from the tree again. */
  const vxp_space *w = vxp_machine__space(&r.an->view, "W");
  assert_ptr_equal(w, &own->spaces.items[1]);
  assert_null(r.an->own);
  assert_true(vxp_analysis_admitted(r.an));
  /* A second analysis of the same program reads the same declarations. */
  vxp_analysis *again = NULL;
  assert_int_equal(vxp_analyze(&again, r.ctx, r.prog, NULL), VXP_OK);
  assert_ptr_equal(vxp_machine__space(&again->view, "W"), w);
  vxp_analysis_free(again);
  assert_int_equal(vxp_program_declares_machine(r.prog), 1);
  /* The model's items carry them: each Memory and Topology item holds its declaration. */
  const vxp_model *m = &r.prog->model;
  assert_ptr_equal(m->declarations, own);
  assert_int_equal(m->items.items[0].declaration, 0);
  assert_int_equal(m->items.items[1].declaration, 1);
  assert_int_equal(m->items.items[2].declaration, 0);
  assert_string_equal(own->spaces.items[m->items.items[1].declaration].name, "W");
  assert_string_equal(own->topologies.items[m->items.items[2].declaration].name, "Dev");
  for (size_t i = 3; i < m->items.len; i++)
    assert_int_equal(m->items.items[i].declaration, VXP_NONE);
  test_done(&r);
  /* A declaration the reader drops (a second `Memory W`, E6012) is no item's. */
  r = test_analyse(
      "Memory CPU_DRAM {}\nMemory W { capacity: 4 MiB }\nMemory W { capacity: 8 MiB }\n"
      "impl Transfer<Memory::CPU_DRAM, Memory::W> for Topology::Dev {\n}\n"
      "fn main() -> i32 {\n  return 0;\n}\n");
  m = &r.prog->model;
  assert_int_equal(m->declarations->spaces.len, 2);
  assert_int_equal(m->items.items[1].declaration, 1);
  assert_int_equal(m->items.items[2].declaration, VXP_NONE);
  assert_int_equal(m->items.items[3].kind, VXP_ITEM_LOWERING);
  assert_int_equal(m->items.items[3].declaration, 0);
  test_done(&r);
}

static void test_model__roles_are_lowered_with_their_placements(void **state) {
  (void)state;
  test_run r = test_analyse("Memory CPU_DRAM {}\nMemory W { capacity: 4 MiB }\n"
                            "fn main() -> i32 {\n"
                            "  // role: KV cache\n"
                            "  let k = Tensor<f32, [4], Memory::W>::uninit();\n"
                            "  let v = Tensor<f32, [4], Memory::W>::uninit(); // role: values\n"
                            "\n"
                            "  let s = Tensor<f32, [4], Memory::W>::uninit();\n"
                            "  print!(k, v, s);\n  return 0;\n}\n");
  const vxp_model *m = &r.prog->model;
  const char *want[] = {"KV cache", "values", NULL};
  size_t places = 0;
  const vxp_function *fn = &m->functions.items[0];
  for (size_t e = 0; e < fn->events.len; e++) {
    const vxp_event *ev = &fn->events.items[e];
    if (ev->kind != VXP_EV_PLACE) continue;
    assert_true(places < 3);
    if (want[places])
      assert_string_equal(vxp_strtab__str(&m->names, ev->u.place.role), want[places]);
    else
      assert_int_equal(ev->u.place.role, VXP_NAME_NONE);
    places++;
  }
  assert_int_equal(places, 3);
  /* The analysis' records read the lowered roles. */
  assert_string_equal(vxp_record_role(vxp_analysis_record(r.an, 0)), "KV cache");
  assert_null(vxp_record_role(vxp_analysis_record(r.an, 2)));
  test_done(&r);
}

/* The lowering checks (E6022, VXP0043) read the lowering the declarations reader recorded
 * when the program was built: a record changed after the build changes the verdict, which
 * a check that walked the tree again would not see. */
static void test_model__lowerings_are_checked_from_their_record(void **state) {
  (void)state;
  static const char text[] =
      "Memory GPU_HBM { capacity: 80 GB }\n"
      "Memory SMEM { within: Memory::GPU_HBM, capacity: 228 KiB }\n"
      "Topology Dev { memory: Memory::GPU_HBM, visible: [Memory::GPU_HBM],\n"
      "  transfer Memory::GPU_HBM -> Memory::SMEM }\n"
      "impl Transfer<Memory::GPU_HBM, Memory::SMEM> for Topology::Dev {\n"
      "  fn move_tile(src: &Tensor<f32, [4]>, dst: &mut Tensor<f32, [4]>) -> i32 {\n"
      "    raw::barrier();\n    return 0;\n  }\n}\n"
      "fn main() -> i32 {\n  return 0;\n}\n";
  test_run r = test_analyse(text);
  assert_int_equal(test_count_diag(r.an, "E6022"), 1);
  vxp_machine *own = r.prog->model.declarations;
  assert_int_equal(own->lowerings.len, 1);
  vxp_lowering *l = &own->lowerings.items[0];
  assert_string_equal(l->topology, "Dev");
  assert_true(l->uses_raw);
  assert_int_equal(l->start_byte, (uint32_t)(strstr(text, "impl Transfer") - text));
  assert_int_equal(l->body_start, (uint32_t)(strstr(text, "{\n  fn move_tile") - text));
  /* The tree still calls raw::; the record now says it does not: carried code, no check. */
  l->uses_raw = false;
  vxp_analysis *again = NULL;
  assert_int_equal(vxp_analyze(&again, r.ctx, r.prog, NULL), VXP_OK);
  assert_int_equal(test_count_diag(again, "E6022"), 0);
  vxp_analysis_free(again);
  test_done(&r);
}

/* CUDA generation sizes a placed tile from the dimensions the analysis decided for the
 * placement (its event fact), not from a fold of its own: a fact changed after the
 * analysis is what the generated code follows. */
static void test_model__cuda_sizes_a_tile_from_the_analysis_fact(void **state) {
  (void)state;
  static const char text[] =
      "Memory CPU_DRAM {}\n"
      "Memory W { within: Memory::CPU_DRAM, capacity: 4 MiB, managed: explicit }\n"
      "Topology Dev { arch: nvptx64, memory: Memory::W, visible: [Memory::W],\n"
      "  transfer Memory::CPU_DRAM -> Memory::W : 10 }\n"
      "const N: i64 = 6;\n"
      "fn main() -> i32 {\n  let t = Tensor<f32, [N, 3], Memory::W>::uninit();\n  return 0;\n}\n";
  test_run r = test_analyse(text);
  vxp_cuda *cu = NULL;
  assert_int_equal(vxp_cuda_generate(&cu, r.ctx, r.an), VXP_OK);
  assert_non_null(vxp_cuda_text(cu, NULL));
  assert_non_null(strstr(vxp_cuda_text(cu, NULL), "VXP_SPACE_W, 72ull)"));
  vxp_cuda_free(cu);
  /* The placement's fact: [6, 3]. Say 7 rows instead: the generated tile (84 bytes) no
   * longer fits the analysis' record (72), and generation refuses, naming both. */
  uint32_t fn = vxp_analysis__function_index(r.an, "main");
  const vxp_function *mf = &r.prog->model.functions.items[r.an->functions.items[fn].model_fn];
  const vxp_event_fact *fact = NULL;
  for (size_t e = 0; e < mf->events.len && !fact; e++)
    if (mf->events.items[e].kind == VXP_EV_PLACE) fact = vxp_analysis__event_fact(r.an, fn, e);
  assert_non_null(fact);
  assert_int_equal(fact->dims_count, 2);
  uint64_t *dims = r.an->fact_dims.items + fact->dims_first;
  assert_true(dims[0] == 6 && dims[1] == 3);
  dims[0] = 7;
  assert_int_equal(vxp_cuda_generate(&cu, r.ctx, r.an), VXP_OK);
  assert_null(vxp_cuda_text(cu, NULL));
  assert_true(vxp_cuda_diagnostic_count(cu) > 0);
  assert_non_null(strstr(vxp_diagnostic_message(vxp_cuda_diagnostic(cu, 0)), "(84 bytes"));
  vxp_cuda_free(cu);
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_model__items_have_ids_in_source_order_and_hold_their_functions),
      cmocka_unit_test(test_model__a_position_finds_its_item),
      cmocka_unit_test(test_model__declarations_are_read_once_for_every_analysis),
      cmocka_unit_test(test_model__roles_are_lowered_with_their_placements),
      cmocka_unit_test(test_model__lowerings_are_checked_from_their_record),
      cmocka_unit_test(test_model__cuda_sizes_a_tile_from_the_analysis_fact),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
