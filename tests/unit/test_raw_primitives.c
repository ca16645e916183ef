/* SPDX-License-Identifier: Apache-2.0 */
/* test_raw_primitives.c - the obligations vxc puts on the `raw::` primitives of a transfer
 * lowering: E6017 (where a primitive may be used and on what), E6019 (a barrier every lane
 * reaches), E6020 (async copies need the edge's copy engine), E6021 (copies waited before
 * their tiles are touched and before the lowering leaves; a write published by a trailing
 * barrier on a synchronizing edge). The cases follow vxc's tests/middle_end raw_* tests, in
 * programs of our own, each refusal with the admitted form beside it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

#include "model_check.h"    /* white box: the checks called alone on the model ... */
#include "raw_primitives.h" /* ... these ones */

/* A device whose bulk memory holds a scratchpad; `EDGE` is the scratchpad hop's markers. */
#define MACHINE(EDGE)                                                                              \
  "Memory BULK { capacity: 16 GiB, bandwidth: 1 TB/s }\n"                                          \
  "Memory PAD { within: Memory::BULK, capacity: 64 KiB, bandwidth: 64 B/cyc }\n"                   \
  "Topology Acc {\n  memory: Memory::BULK,\n  visible: [Memory::BULK, Memory::PAD],\n"             \
  "  transfer Memory::CPU_DRAM -> Memory::BULK : 20 GB/s,\n"                                       \
  "  transfer Memory::BULK -> Memory::PAD " EDGE "\n}\n"

#define LOWERING(BODY)                                                                             \
  "impl Transfer<Memory::BULK, Memory::PAD> for Topology::Acc {\n"                                 \
  "  fn fill(a: &Tensor<f32, [8]>, b: &mut Tensor<f32, [8]>) -> i32 {\n" BODY                      \
  "    return 0;\n  }\n}\n"                                                                        \
  "fn main() -> i32 {\n  return 0;\n}\n"

/* `text` has `count` diagnostics `code`, the first containing `part`; with count 0 the
 * program is admitted. */
static void expect(const char *text, const char *code, size_t count, const char *part) {
  test_run r = test_analyse(text);
  size_t n = test_count_diag(r.an, code);
  if (n != count) fail_msg("%s x%zu, expected x%zu, in:\n%s", code, n, count, text);
  if (count == 0 && !vxp_analysis_admitted(r.an))
    fail_msg("rejected (%zu errors), expected admitted:\n%s", vxp_analysis_error_count(r.an), text);
  if (count && part && !strstr(vxp_diagnostic_message(test_find_diag(r.an, code)), part))
    fail_msg("\"%s\" lacks \"%s\"", vxp_diagnostic_message(test_find_diag(r.an, code)), part);
  test_done(&r);
}

static void test_raw__primitives_live_only_in_lowering_bodies(void **state) {
  (void)state;
  expect(MACHINE("") "fn main() -> i32 {\n  let w = raw::lanes();\n  return w;\n}\n", "E6017", 1,
         "only legal inside a transfer lowering");
  expect(MACHINE("") LOWERING("    let g = | k : i32 | k * raw::lane();\n    let z = g(2);\n"),
         "E6017", 1, "inside a closure");
  expect(MACHINE("") LOWERING("    raw::fill_all(b, 0.0);\n    raw::barrier();\n"), "E6017", 1,
         "raw::fill_all is an unknown primitive");
  expect(MACHINE("") LOWERING("    raw::store(b, 1, raw::load(a, 1) + 1.0);\n"
                              "    raw::barrier();\n"),
         "E6017", 0, NULL);
}

/* An item is walked for primitives only when its text spells `raw` (lower_raw.c,
 * mentions_raw): one written last before the item's closing brace, in a method, or beside
 * words that contain the letters is still found; items without them are not reported. */
static void
test_raw__a_primitive_outside_a_lowering_is_found_wherever_the_item_spells_it(void **state) {
  (void)state;
  expect(MACHINE("") "fn main() -> i32 {\n  return raw::lanes();\n}\n", "E6017", 1,
         "raw::lanes is only legal");
  expect(MACHINE("") "struct P { x: i32 }\nimpl P {\n  fn m() -> i32 { raw::lane() }\n}\n"
                     "fn main() -> i32 {\n  return 0;\n}\n",
         "E6017", 1, "raw::lane is only legal");
  expect(
      MACHINE("") "fn draw(r: i32) -> i32 {\n  return r;\n}\n"
                  "fn main() -> i32 {\n  let straw = draw(1);\n  return raw::lanes() + straw;\n}\n",
      "E6017", 1, NULL);
  expect(MACHINE("") "fn draw(r: i32) -> i32 {\n  return r;\n}\n"
                     "fn main() -> i32 {\n  return draw(2);\n}\n",
         "E6017", 0, NULL);
}

static void test_raw__a_tile_is_a_parameter_and_a_written_one_is_held_by_mut(void **state) {
  (void)state;
  expect(MACHINE("") LOWERING("    let other = a;\n    let x = raw::extent(other);\n"), "E6017", 1,
         "`other` is not a parameter of this lowering");
  expect(MACHINE("") LOWERING("    raw::store(a, 0, 2.0);\n    raw::barrier();\n"), "E6017", 1,
         "the tile must be held by `&mut`");
}

static void test_raw__a_barrier_is_reached_by_every_lane(void **state) {
  (void)state;
  expect(MACHINE("") LOWERING("    raw::store(b, 0, 1.0);\n"
                              "    if raw::lane() < 4 {\n      raw::barrier();\n    }\n"
                              "    raw::barrier();\n"),
         "E6019", 1, "reachable by every lane");
  expect(MACHINE("") LOWERING("    for j in 0..raw::extent(a) {\n"
                              "      raw::store(b, j, raw::load(a, j));\n      raw::barrier();\n"
                              "    }\n    raw::barrier();\n"),
         "E6019", 1, NULL);
  /* A top-level `unsafe` block is still the top level. */
  expect(MACHINE("") LOWERING("    unsafe { raw::store(b, raw::lane(), 3.0); raw::barrier(); }\n"),
         "E6019", 0, NULL);
}

static void test_raw__an_async_copy_needs_its_topologys_copy_engine(void **state) {
  (void)state;
  const char *body = "    raw::async_copy(b, a, 0);\n    raw::async_wait();\n    raw::barrier();\n";
  char text[4096];
  snprintf(text, sizeof(text), MACHINE("") LOWERING("%s"), body);
  expect(text, "E6020", 1, "Topology::Acc does not declare one");
  snprintf(text, sizeof(text), MACHINE("copy_engine") LOWERING("%s"), body);
  expect(text, "E6020", 0, NULL);
  /* Another machine's engine on the same edge is no engine of this one. */
  snprintf(text, sizeof(text),
           MACHINE("") "Topology Other {\n  memory: Memory::BULK,\n"
                       "  visible: [Memory::BULK, Memory::PAD],\n"
                       "  transfer Memory::BULK -> Memory::PAD copy_engine\n}\n" LOWERING("%s"),
           body);
  expect(text, "E6020", 1, "copy_engine");
}

static void test_raw__a_copy_is_waited_for_before_its_tile_is_touched_or_left(void **state) {
  (void)state;
  expect(MACHINE("copy_engine") LOWERING("    raw::async_copy(b, a, 0);\n"
                                         "    let v = raw::load(b, 0);\n"
                                         "    raw::async_wait();\n    raw::barrier();\n"),
         "E6021", 1, "still outstanding");
  expect(MACHINE("copy_engine") LOWERING("    raw::async_copy(b, a, 0);\n"
                                         "    raw::store(a, 0, 1.0);\n"
                                         "    raw::async_wait();\n    raw::barrier();\n"),
         "E6021", 1, "raw::async_copy from it is still outstanding");
  expect(MACHINE("copy_engine") LOWERING("    raw::async_copy(b, a, 0);\n    raw::barrier();\n"),
         "E6021", 1, "has no matching raw::async_wait()");
  /* A `break` that jumps over the wait carries the copy out of the loop. */
  expect(MACHINE("copy_engine") LOWERING("    for j in 0..raw::extent(a) {\n"
                                         "      raw::async_copy(b, a, j);\n"
                                         "      if j == 3 {\n        break;\n      }\n"
                                         "      raw::async_wait();\n    }\n"
                                         "    let v = raw::load(b, 0);\n"
                                         "    raw::async_wait();\n    raw::barrier();\n"),
         "E6021", 1, "still outstanding");
  /* Copies issued in a loop and waited for after it. */
  expect(MACHINE("copy_engine") LOWERING("    for j in 0..raw::extent(a) {\n"
                                         "      raw::async_copy(b, a, j);\n    }\n"
                                         "    raw::async_wait();\n    raw::barrier();\n"),
         "E6021", 0, NULL);
}

static void test_raw__a_write_on_a_synchronizing_edge_ends_with_a_barrier(void **state) {
  (void)state;
  expect(MACHINE("") LOWERING("    raw::store(b, 0, 1.0);\n"), "E6021", 1,
         "does not end with raw::barrier()");
  expect(MACHINE("relaxed") LOWERING("    raw::store(b, 0, 1.0);\n"), "E6021", 0, NULL);
  /* Reading alone publishes nothing. */
  expect(MACHINE("") LOWERING("    let v = raw::load(a, 0);\n"), "E6021", 0, NULL);
  expect(MACHINE("") LOWERING("    raw::store(b, 0, 1.0);\n"
                              "    if raw::lane() == 1 {\n      return 1;\n    }\n"
                              "    raw::barrier();\n"),
         "E6021", 1, "`return` before the end of a lowering");
  /* vxc's rule is unconditional: the body is inlined at the transfer, so an early `return`
   * is refused on a relaxed edge too, where no trailing barrier is asked for. */
  expect(MACHINE("relaxed") LOWERING("    for q in 0..raw::extent(a) {\n"
                                     "      raw::store(b, q, raw::load(a, q));\n"
                                     "      if q == 0 {\n        return 7;\n      }\n    }\n"),
         "E6021", 1, "`return` before the end of a lowering");
  /* The final `return` is the one exit a lowering has. */
  expect(MACHINE("relaxed") LOWERING("    raw::store(b, 0, 1.0);\n"), "E6021", 0, NULL);
}

static void test_raw__a_machine_files_own_lowerings_are_held_to_the_same_rules(void **state) {
  (void)state;
  /* The lowering lives in the --machine file, with the topology it names. */
  test_run r = test_analyse_with("fn main() -> i32 {\n  return 0;\n}\n",
                                 MACHINE("") "impl Transfer<Memory::BULK, Memory::PAD> for "
                                             "Topology::Acc {\n  fn fill(a: &Tensor<f32, [8]>, "
                                             "b: &mut Tensor<f32, [8]>) -> i32 {\n"
                                             "    raw::async_copy(b, a, 0);\n"
                                             "    raw::async_wait();\n    raw::barrier();\n"
                                             "    return 0;\n  }\n}\n",
                                 0);
  assert_int_equal(test_count_diag(r.an, "E6020"), 1);
  assert_false(vxp_analysis_admitted(r.an));
  test_done(&r);
  r = test_analyse_with("fn main() -> i32 {\n  return 0;\n}\n",
                        MACHINE("copy_engine") "impl Transfer<Memory::BULK, Memory::PAD> for "
                                               "Topology::Acc {\n  fn fill(a: &Tensor<f32, [8]>, "
                                               "b: &mut Tensor<f32, [8]>) -> i32 {\n"
                                               "    raw::async_copy(b, a, 0);\n"
                                               "    raw::async_wait();\n    raw::barrier();\n"
                                               "    return 0;\n  }\n}\n",
                        0);
  assert_int_equal(test_count_diag(r.an, "E6020"), 0);
  test_done(&r);
}

static bool raw_code(const char *code) {
  return strcmp(code, "E6017") == 0 || strcmp(code, "E6019") == 0 || strcmp(code, "E6020") == 0 ||
         strcmp(code, "E6021") == 0;
}

/* The checks answer the facts lowering recorded against the machine: with the program's
 * syntax tree deleted they report the same diagnostics (code, message, place, order), and a
 * changed fact changes the diagnostic, whatever the text says. */
static void test_raw__the_checks_read_the_model_not_the_tree(void **state) {
  (void)state;
  const char *text = MACHINE("") LOWERING(
      "    raw::async_copy(b, a, 0);\n"
      "    let y = raw::load(b, 0);\n"
      "    if raw::lane() < 4 {\n      raw::barrier();\n"
      "    }\n    raw::store(a, 0, y);\n") "fn helper() -> i32 {\n  return raw::lanes();\n}\n";
  test_run r = test_analyse(text);
  /* E6017: the helper's raw::lanes and `a` written without `mut`; E6021 four times: the load
   * and the store while the copy is outstanding, the copy never waited for, and no barrier
   * at the end. */
  assert_int_equal(test_count_diag(r.an, "E6017"), 2);
  assert_int_equal(test_count_diag(r.an, "E6019"), 1);
  assert_int_equal(test_count_diag(r.an, "E6020"), 1);
  assert_int_equal(test_count_diag(r.an, "E6021"), 4);

  assert_int_equal(test_check_without_tree(&r, vxp_raw__check, raw_code), 8);

  /* The record says the lowering's edge is BULK -> BULK, which the machine does not declare:
   * no E6020 and no publication E6021, the tree notwithstanding. */
  vxp_model *m = &r.prog->model;
  bool changed = false;
  for (size_t i = 0; i < m->raw.len; i++) {
    vxp_raw_fact *f = &m->raw.items[i];
    if (f->kind == VXP_RAW_EDGE) {
      f->to = f->from;
      changed = true;
    }
  }
  assert_true(changed);
  vxp_diag_list alone;
  test_check_alone(&r, vxp_raw__check, m, &alone);
  assert_int_equal(alone.len, 6);
  for (size_t i = 0; i < alone.len; i++) {
    assert_string_not_equal(vxp_diagnostic_code(&alone.items[i]), "E6020");
    assert_null(strstr(vxp_diagnostic_message(&alone.items[i]), "does not end with raw::barrier"));
  }
  vxp_diag__list_free(r.ctx, &alone);
  test_done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_raw__primitives_live_only_in_lowering_bodies),
      cmocka_unit_test(
          test_raw__a_primitive_outside_a_lowering_is_found_wherever_the_item_spells_it),
      cmocka_unit_test(test_raw__a_tile_is_a_parameter_and_a_written_one_is_held_by_mut),
      cmocka_unit_test(test_raw__a_barrier_is_reached_by_every_lane),
      cmocka_unit_test(test_raw__an_async_copy_needs_its_topologys_copy_engine),
      cmocka_unit_test(test_raw__a_copy_is_waited_for_before_its_tile_is_touched_or_left),
      cmocka_unit_test(test_raw__a_write_on_a_synchronizing_edge_ends_with_a_barrier),
      cmocka_unit_test(test_raw__a_machine_files_own_lowerings_are_held_to_the_same_rules),
      cmocka_unit_test(test_raw__the_checks_read_the_model_not_the_tree),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
