/* SPDX-License-Identifier: Apache-2.0 */
/* test_consteval.c - constant folding (lib/consteval.c) on const items lowered from real
 * Vx text: exact 64-bit bounds, sizes versus signed values, Rust's division, comparisons,
 * comptime blocks with lets and ifs, cycles, and the guards against hostile inputs. */
#include "support.h"

#include "arena.h"
#include "consteval.h"
#include "program.h"

typedef struct fixture {
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
  vxp_const_env env;
} fixture;

static fixture parse(const char *text) {
  fixture f;
  memset(&f, 0, sizeof(f));
  f.ctx = test_context();
  assert_int_equal(vxp_source_new(&f.src, f.ctx, "c.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse(&f.prog, f.ctx, f.src), VXP_OK);
  f.env.model = &f.prog->model;
  return f;
}

static void done(fixture *f) {
  vxp_program_free(f->prog);
  vxp_source_free(f->src);
  vxp_context_free(f->ctx);
}

static uint32_t item(fixture *f, const char *name) {
  const vxp_model *m = &f->prog->model;
  for (size_t i = 0; i < m->consts.len; i++) {
    if (strcmp(vxp_strtab__str(&m->names, m->consts.items[i].name), name) == 0)
      return m->consts.items[i].value;
  }
  fail_msg("no const item %s", name);
  return VXP_NONE;
}

static void expect_size(fixture *f, const char *name, vxp_fold_status status, uint64_t value) {
  vxp_fold r = vxp_consteval__fold(&f->env, item(f, name));
  if (r.status != status || (status == VXP_FOLD_OK && r.value != value))
    fail_msg("%s: status %d value %llu, expected %d %llu", name, r.status,
             (unsigned long long)r.value, status, (unsigned long long)value);
  assert_false(r.negative);
}

static void expect_signed(fixture *f, const char *name, int64_t value) {
  vxp_fold r = vxp_consteval__fold_signed(&f->env, item(f, name));
  assert_int_equal(r.status, VXP_FOLD_OK);
  int64_t got = r.negative ? -(int64_t)r.value : (int64_t)r.value;
  if (got != value) fail_msg("%s: %lld, expected %lld", name, (long long)got, (long long)value);
}

static void test_consteval__sizes_are_exact_unsigned_64_bit(void **state) {
  (void)state;
  fixture f = parse("const MAX : u64 = 18446744073709551615;\n"
                    "const WRAP : u64 = 18446744073709551615 + 1;\n"
                    "const BIG : u64 = 18446744073709551616;\n"
                    "const SQ : u64 = 4294967296 * 4294967296;\n"
                    "const JUST : u64 = 4294967295 * 4294967297;\n"
                    "const NEG : u64 = 3 - 4;\n"
                    "const BACK : u64 = 3 - 4 + 2;\n"
                    "const DIV0 : u64 = 7 / (2 - 2);\n"
                    "const REM0 : u64 = 7 % 0;\n"
                    "const MIX : u64 = (2 + 3) * 4 / 3 % 5;\n");
  expect_size(&f, "MAX", VXP_FOLD_OK, UINT64_MAX);
  expect_size(&f, "WRAP", VXP_FOLD_OVERFLOW, 0);
  expect_size(&f, "BIG", VXP_FOLD_OVERFLOW, 0);
  expect_size(&f, "SQ", VXP_FOLD_OVERFLOW, 0);
  expect_size(&f, "JUST", VXP_FOLD_OK, UINT64_MAX);
  expect_size(&f, "NEG", VXP_FOLD_NEGATIVE, 0);
  /* A negative intermediate is refused even when the result would be positive: vxc's
   * rule for dimensions. */
  expect_size(&f, "BACK", VXP_FOLD_NEGATIVE, 0);
  expect_size(&f, "DIV0", VXP_FOLD_DIV_ZERO, 0);
  expect_size(&f, "REM0", VXP_FOLD_DIV_ZERO, 0);
  expect_size(&f, "MIX", VXP_FOLD_OK, 1);
  /* The culprit is the sub-expression that failed, for the diagnostic's location. */
  vxp_fold r = vxp_consteval__fold(&f.env, item(&f, "BACK"));
  const vxp_cexpr *c = &f.prog->model.cexprs.items[r.culprit];
  assert_int_equal(c->kind, VXP_CX_BINARY);
  assert_int_equal(c->op, VXP_OP_SUB);
  done(&f);
}

static void test_consteval__signed_values_divide_like_rust(void **state) {
  (void)state;
  fixture f = parse("const A : i64 = 3 - 10;\n"
                    "const Q : i64 = (0 - 7) / 2;\n"
                    "const R : i64 = (0 - 7) % 2;\n"
                    "const P : i64 = (0 - 7) * (0 - 3);\n"
                    "const N : i64 = -(5 - 2);\n"
                    "const LOW : i64 = 0 - 18446744073709551615;\n");
  expect_signed(&f, "A", -7);
  expect_signed(&f, "Q", -3);
  expect_signed(&f, "R", -1);
  expect_signed(&f, "P", 21);
  expect_signed(&f, "N", -3);
  vxp_fold low = vxp_consteval__fold_signed(&f.env, item(&f, "LOW"));
  assert_int_equal(low.status, VXP_FOLD_OK);
  assert_true(low.negative);
  assert_int_equal(low.value, UINT64_MAX);
  done(&f);
}

static void test_consteval__comparisons_fold_on_negative_operands(void **state) {
  (void)state;
  fixture f = parse("const LT : u64 = 2 - 5 < 0;\n"
                    "const EQ : u64 = 10 / 3 == 3 && 10 % 3 == 1;\n"
                    "const OR : u64 = 1 > 2 || 4 >= 4;\n"
                    "const SHORT : u64 = 0 == 1 && 1 / 0 == 1;\n"
                    "const NOT : u64 = !(3 != 3);\n"
                    "const BITS : u64 = 12 & 10 | 1 ^ 3;\n");
  expect_size(&f, "LT", VXP_FOLD_OK, 1);
  expect_size(&f, "EQ", VXP_FOLD_OK, 1);
  expect_size(&f, "OR", VXP_FOLD_OK, 1);
  expect_size(&f, "SHORT", VXP_FOLD_OK, 0); /* && short-circuits: 1 / 0 is never folded */
  expect_size(&f, "NOT", VXP_FOLD_OK, 1);
  expect_size(&f, "BITS", VXP_FOLD_OK, (12 & 10) | (1 ^ 3));
  done(&f);
}

static void test_consteval__comptime_blocks_fold_lets_and_ifs(void **state) {
  (void)state;
  fixture f =
      parse("const BASE : i64 = 64;\n"
            "const A : i64 = comptime { let k = 4; let j = k * BASE; j + k };\n"
            "const B : i64 = comptime { if BASE > 100 { 1 } else if BASE > 50 { 2 } else { 3 } };\n"
            "const C : i64 = comptime { let k = 2; if k == 2 { k * 1000 } else { 1 / 0 } };\n"
            "const D : i64 = comptime { let x = 1; x = 2; x };\n"
            "const E : i64 = comptime { let n = 5; };\n"
            "const F : i64 = if BASE == 64 { 8 } else { 9 };\n");
  expect_size(&f, "A", VXP_FOLD_OK, 260);
  expect_size(&f, "B", VXP_FOLD_OK, 2);
  expect_size(&f, "C", VXP_FOLD_OK, 2000);   /* the arm not taken is never folded */
  expect_size(&f, "D", VXP_FOLD_UNKNOWN, 0); /* an assignment: not folded, not guessed */
  expect_size(&f, "E", VXP_FOLD_UNKNOWN, 0); /* no value */
  expect_size(&f, "F", VXP_FOLD_OK, 8);
  /* A comptime `let` is local: its name means nothing outside the block. */
  fixture g = parse("const A : i64 = comptime { let k = 4; k };\nconst B : i64 = k;\n");
  expect_size(&g, "A", VXP_FOLD_OK, 4);
  expect_size(&g, "B", VXP_FOLD_UNKNOWN, 0);
  done(&g);
  done(&f);
}

/* Lookup order: an instance's bindings, then -D overrides, then const items; a const item
 * is global, so an instance's binding of a name never reaches inside one. Checked with and
 * without the table an analysis builds. */
static void check_lookup_order(fixture *f, bool with_table) {
  vxp_const_table *table = NULL;
  vxp_arena arena = {0}; /* the table's (an analysis': its own) */
  f->env.bindings = NULL;
  f->env.binding_count = 0;
  f->env.overrides = NULL;
  f->env.override_count = 0;
  f->env.consts = NULL;
  if (with_table) f->env.consts = table = vxp_consteval__table_build(f->ctx, &arena, &f->env);
  expect_size(f, "M", VXP_FOLD_OK, 20);
  vxp_arena__free(f->ctx, &arena);
  vxp_name n = vxp_strtab__find(&f->prog->model.names, "N", 1);
  vxp_const_binding over = {n, 7, false, false};
  f->env.overrides = &over;
  f->env.override_count = 1;
  f->env.consts = NULL;
  if (with_table) f->env.consts = table = vxp_consteval__table_build(f->ctx, &arena, &f->env);
  expect_size(f, "M", VXP_FOLD_OK, 14);
  expect_size(f, "USE", VXP_FOLD_OK, 8);        /* N + 1 with N overridden to 7 */
  vxp_const_binding bind = {n, 3, true, false}; /* an instance's N = -3 */
  f->env.bindings = &bind;
  f->env.binding_count = 1;
  /* REF is `M`: a name that reaches the const item M, which does not see the instance's N. */
  expect_size(f, "REF", VXP_FOLD_OK, 14);
  /* An expression folded in the instance (here USE's text, N + 1) sees it. */
  vxp_fold r = vxp_consteval__fold(&f->env, item(f, "USE"));
  assert_int_equal(r.status, VXP_FOLD_NEGATIVE);
  vxp_sb why = {0};
  vxp_consteval__explain(f->ctx, &f->env, r, &why);
  assert_string_equal(vxp_sb__text(&why), "the const-generic parameter 'N' is -3 in this "
                                          "instance, and a size cannot be negative");
  vxp_sb__free(f->ctx, &why);
  bind.unknown = true;
  r = vxp_consteval__fold(&f->env, item(f, "USE"));
  assert_int_equal(r.status, VXP_FOLD_UNKNOWN);
  vxp_consteval__explain(f->ctx, &f->env, r, &why);
  assert_string_equal(vxp_sb__text(&why), "the const-generic parameter 'N' has no compile-time "
                                          "constant argument in this instance");
  vxp_sb__free(f->ctx, &why);
  vxp_arena__free(f->ctx, &arena);
  f->env.consts = NULL;
}

static void test_consteval__bindings_overrides_and_items_in_that_order(void **state) {
  (void)state;
  fixture f = parse("const N : i64 = 10;\nconst M : i64 = N * 2;\nconst S : i64 = N - 20;\n"
                    "const USE : i64 = N + 1;\nconst REF : i64 = M;\n");
  check_lookup_order(&f, false);
  check_lookup_order(&f, true);
  done(&f);
}

/* The table folds each const item once: a chain of 20,000 items written top-down or
 * bottom-up folds exactly (without it, the chain stops at the fold's depth guard), a cycle
 * is still a cycle, and a repeated name keeps its first declaration. */
static void test_consteval__long_const_chains_fold_through_the_table(void **state) {
  (void)state;
  for (int reversed = 0; reversed < 2; reversed++) {
    size_t cap = 20000 * 48, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    len += (size_t)snprintf(text + len, cap - len, "const C0 : i64 = 1;\n");
    for (int k = 1; k < 20000; k++) {
      int i = reversed ? 20000 - k : k; /* bottom-up: C19999 first, then C19998, ... */
      len += (size_t)snprintf(text + len, cap - len, "const C%d : i64 = C%d + 1;\n", i, i - 1);
    }
    fixture f = parse(text);
    free(text);
    expect_size(&f, "C19999", VXP_FOLD_LIMIT, 0); /* no table: the depth guard */
    vxp_arena arena = {0};
    vxp_const_table *table = vxp_consteval__table_build(f.ctx, &arena, &f.env);
    assert_non_null(table);
    f.env.consts = table;
    expect_size(&f, "C19999", VXP_FOLD_OK, 20000);
    expect_size(&f, "C7", VXP_FOLD_OK, 8);
    vxp_arena__free(f.ctx, &arena);
    done(&f);
  }
  fixture f = parse("const A : i64 = B + 1;\nconst B : i64 = A + 1;\nconst D : i64 = 5;\n"
                    "const D : i64 = 6;\nconst E : i64 = D * 2;\n");
  vxp_arena arena = {0};
  vxp_const_table *table = vxp_consteval__table_build(f.ctx, &arena, &f.env);
  f.env.consts = table;
  expect_size(&f, "A", VXP_FOLD_CYCLE, 0);
  expect_size(&f, "E", VXP_FOLD_OK, 10);
  vxp_arena__free(f.ctx, &arena);
  done(&f);
}

static void test_consteval__cycles_and_hostile_inputs_stop(void **state) {
  (void)state;
  fixture f = parse("const A : i64 = B + 1;\nconst B : i64 = A + 1;\n");
  expect_size(&f, "A", VXP_FOLD_CYCLE, 0);
  done(&f);
  /* 60 comptime lets each doubling the last: a DAG of 60 nodes whose tree has 2^60
   * leaves. The fold stops at its step limit instead of running for ever. */
  char text[8192];
  size_t len = (size_t)snprintf(text, sizeof(text), "const X : i64 = comptime { let a0 = 1; ");
  for (int i = 1; i < 60; i++)
    len +=
        (size_t)snprintf(text + len, sizeof(text) - len, "let a%d = a%d + a%d; ", i, i - 1, i - 1);
  snprintf(text + len, sizeof(text) - len, "a59 };\n");
  f = parse(text);
  expect_size(&f, "X", VXP_FOLD_LIMIT, 0);
  done(&f);
  /* A chain of 2000 lets is deeper than the fold goes. */
  static char deep[65536];
  len = (size_t)snprintf(deep, sizeof(deep), "const Y : i64 = comptime { let a0 = 1; ");
  for (int i = 1; i < 2000; i++)
    len += (size_t)snprintf(deep + len, sizeof(deep) - len, "let a%d = a%d + 1; ", i, i - 1);
  snprintf(deep + len, sizeof(deep) - len, "a1999 };\n");
  f = parse(deep);
  expect_size(&f, "Y", VXP_FOLD_LIMIT, 0);
  done(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_consteval__sizes_are_exact_unsigned_64_bit),
      cmocka_unit_test(test_consteval__signed_values_divide_like_rust),
      cmocka_unit_test(test_consteval__comparisons_fold_on_negative_operands),
      cmocka_unit_test(test_consteval__comptime_blocks_fold_lets_and_ifs),
      cmocka_unit_test(test_consteval__bindings_overrides_and_items_in_that_order),
      cmocka_unit_test(test_consteval__cycles_and_hostile_inputs_stop),
      cmocka_unit_test(test_consteval__long_const_chains_fold_through_the_table),
  };
  return cmocka_run_group_tests_name("consteval", tests, NULL, NULL);
}
