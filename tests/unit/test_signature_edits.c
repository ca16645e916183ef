/* SPDX-License-Identifier: Apache-2.0 */
/* test_signature_edits.c - edits of a function's signature (a parameter's type, a return
 * type) and of a `const`'s value, taken incrementally (docs/design.md §9): which path each
 * takes (a window, a splice of the model, the walks taken over), that a caller's results move
 * with its callee's signature where they read it, and that every result is a fresh parse's
 * and analysis' of the same text (the JSON report, the program's diagnostics, the signature
 * records, the name table). What stays on the full lowering is shown to, and to be exact. */
#include "support.h"

#include "analysis_data.h" /* white box: which walks were taken over ... */
#include "program.h"       /* ... which path a reparse took, and its lowering marks */

/* The machine every program of these tests declares: a host, a 40 GiB HBM and a device. */
#define MACHINE                                                                                    \
  "Memory CPU_DRAM {}\n"                                                                           \
  "Memory HBM {\n"                                                                                 \
  "  within: Memory::CPU_DRAM, capacity: 40 GiB, managed: explicit\n"                              \
  "}\n"                                                                                            \
  "Topology Dev {\n"                                                                               \
  "  arch: nvptx64, memory: Memory::HBM, visible: [Memory::HBM],\n"                                \
  "  transfer Memory::CPU_DRAM -> Memory::HBM : 31.5 GB/s\n"                                       \
  "}\n"

/* f0 returns i64 and f1 i32 (so both names are the signature pass's); `user` reads TILE in
 * a shape; `caller` binds what `callee` returns. */
static const char base[] = "// test_signature_edits\n" MACHINE "const TILE: i64 = 256;\n"
                           "\n"
                           "fn f0(x: i32) -> i64 {\n"
                           "  return 0;\n"
                           "}\n"
                           "\n"
                           "fn f1(x: i32) -> i32 {\n"
                           "  return 0;\n"
                           "}\n"
                           "\n"
                           "fn callee(x: i32) -> i32 {\n"
                           "  let w = transfer(Tensor<f32, [TILE, 64]>::uninit(), Memory::HBM);\n"
                           "  print(w);\n"
                           "  return x;\n"
                           "}\n"
                           "\n"
                           "fn caller(x: i32) -> i32 {\n"
                           "  let held = transfer(Tensor<f16, [64, 64]>::uninit(), Memory::HBM);\n"
                           "  let r = callee(x);\n"
                           "  print(held);\n"
                           "  return r;\n"
                           "}\n"
                           "\n"
                           "fn user() -> i32 {\n"
                           "  let t = transfer(Tensor<f32, [TILE, TILE]>::uninit(), Memory::HBM);\n"
                           "  print(t);\n"
                           "  return caller(1);\n"
                           "}\n";

typedef struct session {
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
  vxp_analysis *an;
} session;

static void session_open(session *S, const char *text) {
  S->ctx = test_context();
  assert_int_equal(vxp_source_new(&S->src, S->ctx, "s.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse_flags(&S->prog, S->ctx, S->src, VXP_PROGRAM_FOR_EDITING),
                   VXP_OK);
  assert_int_equal(vxp_analyze(&S->an, S->ctx, S->prog, NULL), VXP_OK);
}

static void session_close(session *S) {
  vxp_analysis_free(S->an);
  vxp_program_free(S->prog);
  vxp_source_free(S->src);
  vxp_context_free(S->ctx);
}

static char *copy_of(const char *text) {
  assert_non_null(text);
  char *copy = strdup(text);
  assert_non_null(copy);
  return copy;
}

/* The name ids the model holds are a fresh lowering's (a splice that brought names in
 * renumbered them): the constant expressions' (a `Transfer<A, B>` condition's B is a name in
 * `value`), the types', the visibility facts', the references', the functions' and their
 * parameters', events' and reads'. */
static void assert_same_names(const vxp_model *m, const vxp_model *f) {
  assert_int_equal(m->cexprs.len, f->cexprs.len);
  for (size_t i = 0; i < f->cexprs.len; i++) {
    assert_int_equal(m->cexprs.items[i].kind, f->cexprs.items[i].kind);
    assert_int_equal(m->cexprs.items[i].name, f->cexprs.items[i].name);
    assert_true(m->cexprs.items[i].value == f->cexprs.items[i].value);
  }
  assert_int_equal(m->types.len, f->types.len);
  for (size_t i = 0; i < f->types.len; i++) {
    assert_int_equal(m->types.items[i].elem_name, f->types.items[i].elem_name);
    assert_int_equal(m->types.items[i].placement.name, f->types.items[i].placement.name);
  }
  assert_int_equal(m->visibility.len, f->visibility.len);
  for (size_t i = 0; i < f->visibility.len; i++) {
    const vxp_vis_fact *a = &m->visibility.items[i], *b = &f->visibility.items[i];
    assert_int_equal(a->name, b->name);
    assert_int_equal(a->want_space, b->want_space);
    assert_int_equal(a->here.name, b->here.name);
    assert_int_equal(a->topo.name, b->topo.name);
    assert_int_equal(a->space.space, b->space.space);
  }
  assert_int_equal(m->refs.len, f->refs.len);
  for (size_t i = 0; i < f->refs.len; i++)
    assert_int_equal(m->refs.items[i].name, f->refs.items[i].name);
  for (size_t i = 0; i < f->items.len; i++)
    assert_int_equal(m->items.items[i].name, f->items.items[i].name);
  for (size_t i = 0; i < f->functions.len; i++) {
    const vxp_function *a = &m->functions.items[i], *b = &f->functions.items[i];
    assert_int_equal(a->name, b->name);
    for (size_t p = 0; p < b->params.len; p++) {
      assert_int_equal(a->params.items[p].name, b->params.items[p].name);
      assert_int_equal(a->params.items[p].type_name, b->params.items[p].type_name);
    }
    assert_int_equal(a->reads.len, b->reads.len);
    for (size_t r = 0; r < b->reads.len; r++)
      assert_int_equal(a->reads.items[r], b->reads.items[r]);
    for (size_t e = 0; e < b->events.len; e++) {
      const vxp_event *x = &a->events.items[e], *y = &b->events.items[e];
      assert_int_equal(x->kind, y->kind);
      if (y->kind == VXP_EV_CALL) {
        assert_int_equal(x->u.call.callee, y->u.call.callee);
        assert_int_equal(x->u.call.method, y->u.call.method);
      } else if (y->kind == VXP_EV_PLACE) {
        assert_int_equal(x->u.place.binding, y->u.place.binding);
        assert_int_equal(x->u.place.dest.name, y->u.place.dest.name);
      }
    }
  }
}

/* The session's program and analysis against a fresh parse (for editing: it keeps its
 * lowering marks) and analysis of the same text. */
static void assert_as_fresh(session *S) {
  size_t len;
  const char *text = vxp_source_text(S->src, &len);
  vxp_source *fsrc;
  vxp_program *fresh;
  vxp_analysis *fan;
  assert_int_equal(vxp_source_new(&fsrc, S->ctx, "s.vx", text, len), VXP_OK);
  assert_int_equal(vxp_program_parse_flags(&fresh, S->ctx, fsrc, VXP_PROGRAM_FOR_EDITING), VXP_OK);
  assert_int_equal(vxp_analyze(&fan, S->ctx, fresh, NULL), VXP_OK);
  char *a = copy_of(vxp_analysis_json(S->an, NULL));
  char *b = copy_of(vxp_analysis_json(fan, NULL));
  assert_string_equal(a, b);
  free(a);
  free(b);
  assert_int_equal(vxp_program_diagnostic_count(S->prog), vxp_program_diagnostic_count(fresh));
  /* the name table grows as a fresh lowering grows it, and the records callers read */
  const vxp_model *m = &S->prog->model, *f = &fresh->model;
  assert_int_equal(m->names.strings.len, f->names.strings.len);
  for (size_t i = 0; i < f->names.strings.len; i++)
    assert_string_equal(vxp_strtab__str(&m->names, (vxp_name)i),
                        vxp_strtab__str(&f->names, (vxp_name)i));
  const vxp_lower_marks *x = &S->prog->marks, *y = &fresh->marks;
  assert_int_equal(x->signatures.len, y->signatures.len);
  for (size_t i = 0; i < y->signatures.len; i++) {
    assert_int_equal(x->signatures.items[i].name, y->signatures.items[i].name);
    assert_int_equal(x->signatures.items[i].order, y->signatures.items[i].order);
    assert_int_equal(x->signatures.items[i].return_type, y->signatures.items[i].return_type);
    assert_int_equal(x->signatures.items[i].return_nominal, y->signatures.items[i].return_nominal);
  }
  assert_int_equal(m->functions.len, f->functions.len);
  for (size_t i = 0; i < f->functions.len; i++) {
    assert_int_equal(m->functions.items[i].params.len, f->functions.items[i].params.len);
    assert_int_equal(m->functions.items[i].events.len, f->functions.items[i].events.len);
  }
  assert_same_names(m, f);
  vxp_analysis_free(fan);
  vxp_program_free(fresh);
  vxp_source_free(fsrc);
}

/* Replace [start, end) of the text with `with` (`len` bytes), reparse and analyse
 * incrementally, and hold the result to a fresh one. */
static void edit_at(session *S, uint32_t start, uint32_t end, const char *with, size_t len) {
  vxp_source *next;
  vxp_program *prog;
  vxp_analysis *an;
  assert_int_equal(vxp_source_edit(&next, S->src, start, end, with, len), VXP_OK);
  assert_int_equal(vxp_program_reparse(&prog, S->ctx, S->prog, next), VXP_OK);
  assert_int_equal(vxp_analyze_incremental(&an, S->ctx, prog, S->an, NULL), VXP_OK);
  vxp_analysis_free(S->an);
  vxp_program_free(S->prog);
  vxp_source_free(S->src);
  S->src = next;
  S->prog = prog;
  S->an = an;
  assert_as_fresh(S);
}

/* Replace the first `what` (after `after`, when not NULL) with `with`. */
static void edit(session *S, const char *after, const char *what, const char *with) {
  const char *text = vxp_source_text(S->src, NULL);
  const char *from = after ? strstr(text, after) : text;
  assert_non_null(from);
  const char *at = strstr(from, what);
  assert_non_null(at);
  uint32_t start = (uint32_t)(at - text);
  edit_at(S, start, start + (uint32_t)strlen(what), with, strlen(with));
}

static bool windowed(const session *S) {
  return S->prog->window_tree != NULL && S->prog->tree == NULL;
}

static int code_count(const vxp_analysis *an, const char *code) {
  int n = 0;
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(an); i++)
    n += strcmp(vxp_diagnostic_code(vxp_analysis_diagnostic(an, i)), code) == 0;
  return n;
}

/* The peak of the resident set of function `fn` in `space`, 0 when it has none. */
static uint64_t peak_of(const vxp_analysis *an, const char *fn, const char *space) {
  for (size_t i = 0; i < vxp_analysis_resident_set_count(an); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
    if (strcmp(vxp_resident_set_function(rs), fn) == 0 &&
        strcmp(vxp_resident_set_space(rs), space) == 0)
      return vxp_resident_set_peak_bytes(rs);
  }
  return 0;
}

/* A parameter's type is what the function's own lowering reads (its parameters' bindings);
 * no caller reads it, so the edit is parsed from its window, the function lowered again from
 * the window's nodes, and every other function's walk taken over. */
static void test_signature_edits__a_parameter_type_edit_takes_a_window_and_the_other_functions_over(
    void **state) {
  (void)state;
  session S;
  session_open(&S, base);
  size_t functions = S.an->functions.len;
  edit(&S, "fn callee", "x: i32", "x: i64");
  assert_true(windowed(&S));
  assert_true(S.prog->spliced);
  assert_int_equal(S.an->functions_walked, 1); /* callee */
  assert_int_equal(S.an->functions_taken, functions - 1);
  edit(&S, "fn callee", "x: i64", "x: i32"); /* and back */
  assert_true(windowed(&S));
  assert_true(S.prog->spliced);
  assert_int_equal(S.an->functions_walked, 1);
  session_close(&S);
}

/* A return type is read by the callers' lowering (a call's value carries the nominal type its
 * callee returns): `caller` binds callee's result, so it is lowered again with it (from a
 * window parsed around it) and walked again; the other functions are taken over. */
static void
test_signature_edits__a_return_type_edit_lowers_and_walks_its_callers_again(void **state) {
  (void)state;
  session S;
  session_open(&S, base);
  edit(&S, "fn callee", "-> i32", "-> i64");
  assert_true(windowed(&S)); /* caller's node from a window of its own */
  assert_true(S.prog->spliced);
  assert_non_null(S.prog->plan);
  assert_non_null(S.prog->plan->again);
  assert_int_equal(S.an->functions_walked, 2); /* callee, caller */
  edit(&S, "fn callee", "-> i64", "-> i32");
  assert_true(S.prog->spliced);
  assert_int_equal(S.an->functions_walked, 2);
  /* A function nothing calls: no caller to lower again, the window suffices. */
  edit(&S, "fn user", "-> i32", "-> i64");
  assert_true(windowed(&S));
  assert_true(S.prog->spliced);
  assert_int_equal(S.an->functions_walked, 1);
  session_close(&S);
}

/* A placed tensor return type is read by the callers' lowering (a call's value carries its
 * type and its placement): an edit that keeps the type's shape of rank and of expressions
 * (another extent, element or memory) is lowered again in place from the window, the callers
 * lowered again (from windows parsed around them) and walked again, the others taken over;
 * the caller's peak follows the callee's type. A rank changed moves every later index of the
 * signature part, and stays on the full lowering. */
static void
test_signature_edits__a_tensor_return_type_edit_lowers_and_walks_its_callers_again(void **state) {
  (void)state;
  static const char text[] =
      MACHINE "const TILE: i64 = 256;\n"
              "fn half() -> Tensor<f16, [4], Memory::HBM> {\n"
              "  return Tensor<f16, [4], Memory::HBM>::uninit();\n"
              "}\n"
              "fn host() -> Tensor<f32, [2], Memory::CPU_DRAM> {\n"
              "  return Tensor<f32, [2], Memory::CPU_DRAM>::uninit();\n"
              "}\n"
              "\n"
              "fn tile(n: i32) -> Tensor<f32, [TILE, 64], Memory::HBM> {\n"
              "  return Tensor<f32, [TILE, 64], Memory::HBM>::uninit();\n"
              "}\n"
              "\n"
              "fn uses(x: i32) -> i32 {\n"
              "  let t = tile(x);\n"
              "  print(t);\n"
              "  return x;\n"
              "}\n"
              "\n"
              "fn other() -> i32 {\n"
              "  let w = transfer(Tensor<f32, [TILE]>::uninit(), Memory::HBM);\n"
              "  print(w);\n"
              "  return uses(1);\n"
              "}\n";
  session S;
  session_open(&S, text);
  size_t functions = S.an->functions.len;
  uint64_t peak = peak_of(S.an, "uses", "HBM"); /* the tile tile() returns */
  assert_true(peak > 0);
  edit(&S, "fn tile", "[TILE, 64], Memory::HBM> {", "[TILE, 128], Memory::HBM> {");
  assert_true(windowed(&S)); /* uses' node from a window of its own */
  assert_true(S.prog->spliced);
  assert_non_null(S.prog->plan->again);
  assert_int_equal(S.an->functions_walked, 2); /* tile, uses */
  assert_int_equal(S.an->functions_taken, functions - 2);
  assert_true(peak_of(S.an, "uses", "HBM") == 2 * peak);
  edit(&S, "fn tile", "-> Tensor<f32,", "-> Tensor<f16,"); /* the element */
  assert_true(windowed(&S));
  assert_true(S.prog->spliced);
  assert_int_equal(S.an->functions_walked, 2);
  assert_true(peak_of(S.an, "uses", "HBM") == peak);
  edit(&S, "fn tile", "128], Memory::HBM> {", "128], Memory::CPU_DRAM> {"); /* the memory */
  assert_true(S.prog->spliced);
  assert_int_equal(S.an->functions_walked, 2);
  assert_true(peak_of(S.an, "uses", "HBM") == 0);
  edit(&S, "fn tile", "(n: i32)", "(n: f32)"); /* a parameter, the tensor the same */
  assert_true(windowed(&S));
  assert_true(S.prog->spliced);
  assert_int_equal(S.an->functions_walked, 2);
  edit(&S, "fn tile", "[TILE, 128], Memory::CPU_DRAM> {", "[TILE], Memory::CPU_DRAM> {");
  assert_false(S.prog->spliced); /* a rank changed */
  edit(&S, "fn tile", "-> Tensor<f16, [TILE], Memory::CPU_DRAM>",
       "-> Tensor<f32, [TILE, 64], Memory::HBM>");
  assert_false(S.prog->spliced); /* and back */
  edit(&S, "fn tile", "[TILE, 64], Memory::HBM> {", "[TILE, 32], Memory::HBM> {");
  assert_true(S.prog->spliced);
  assert_true(2 * peak_of(S.an, "uses", "HBM") == peak);
  session_close(&S);
}

/* A parameter added, renamed or removed, with names the program already uses before the
 * function (w: callee's, held: the function's own first): the names keep their ids, and the
 * function's entry in the index of the functions counts another number of parameters, which
 * its callers' visibility facts read, so `user` is lowered and walked again with it. */
static void
test_signature_edits__a_parameter_added_or_renamed_with_known_names_is_spliced(void **state) {
  (void)state;
  session S;
  session_open(&S, base);
  edit(&S, "fn caller", "(x: i32)", "(x: i32, w: i32)");
  assert_true(windowed(&S));
  assert_true(S.prog->spliced);
  assert_non_null(S.prog->plan->again);
  assert_int_equal(S.an->functions_walked, 2); /* caller, user */
  edit(&S, "fn caller", "w: i32)", "held: i32)");
  assert_true(windowed(&S));
  assert_true(S.prog->spliced);
  assert_null(S.prog->plan->again);
  assert_int_equal(S.an->functions_walked, 1);
  edit(&S, "fn caller", "(x: i32, held: i32)", "(x: i32)");
  assert_true(S.prog->spliced);
  assert_int_equal(S.an->functions_walked, 2);
  session_close(&S);
}

/* A const's value reaches shapes at analysis time (the lowering keeps them unevaluated): the
 * const item is lowered again from its window, and every function walked again with the new
 * table; the peaks are exactly a fresh analysis' (assert_as_fresh). */
static void test_signature_edits__a_const_edit_changes_the_shapes_exactly(void **state) {
  (void)state;
  session S;
  session_open(&S, base);
  uint64_t user = peak_of(S.an, "user", "HBM"), callee = peak_of(S.an, "callee", "HBM");
  assert_true(user > 0 && callee > 0);
  edit(&S, "const TILE", "256", "512");
  assert_true(windowed(&S));
  assert_true(S.prog->spliced);
  assert_int_equal(S.an->functions_taken, 0);
  assert_true(peak_of(S.an, "user", "HBM") == 4 * user);     /* TILE x TILE */
  assert_true(peak_of(S.an, "callee", "HBM") == 2 * callee); /* TILE x 64 */
  edit(&S, "const TILE", "512", "256");
  assert_true(windowed(&S));
  assert_true(peak_of(S.an, "user", "HBM") == user);
  session_close(&S);
}

/* A callee's pointer parameters and its `on` topology are what its callers' visibility facts
 * read (E6029, E6001): an edit that changes what a pointer parameter wants, or the topology,
 * changes the callee's entry in the index of the functions, so every function naming the
 * callee is lowered again (from a window parsed around it) and its facts and walks made
 * again, and the callers' diagnostics come and go as a fresh analysis finds them; the
 * functions that do not name it are taken over. An edit of another parameter's type leaves
 * the entry as it was: no caller is lowered again. */
static void
test_signature_edits__a_callers_visibility_follows_its_callees_pointer_parameter(void **state) {
  (void)state;
  static const char text[] = MACHINE "fn main() -> i32 {\n"
                                     "  let g = transfer(Tensor<f32, [4]>::new(), Memory::HBM);\n"
                                     "  let r = reads(g.as_ptr(), 1);\n"
                                     "  return 0;\n"
                                     "}\n"
                                     "\n"
                                     "fn other() -> i32 {\n"
                                     "  return k2();\n"
                                     "}\n"
                                     "\n"
                                     "fn k2() on Topology::Dev -> i32 {\n"
                                     "  return 0;\n"
                                     "}\n"
                                     "\n"
                                     "fn reads(p : *const f32, n : i32) -> i32 {\n"
                                     "  return 0;\n"
                                     "}\n"
                                     "\n"
                                     "fn kernel() on Topology::Dev -> i32 {\n"
                                     "  return 0;\n"
                                     "}\n"
                                     "\n"
                                     "fn host_side() -> i32 {\n"
                                     "  return kernel();\n"
                                     "}\n";
  session S;
  session_open(&S, text);
  size_t functions = S.an->functions.len;
  assert_int_equal(code_count(S.an, "E6029"), 1);
  assert_int_equal(code_count(S.an, "E6001"), 2); /* other calls k2, host_side kernel */
  edit(&S, "fn reads", "*const f32,", "*const f32 in Memory::HBM,");
  assert_true(windowed(&S)); /* main's node from a window of its own */
  assert_true(S.prog->spliced);
  assert_non_null(S.prog->plan->again);
  assert_int_equal(S.an->functions_walked, 2); /* reads, main */
  assert_int_equal(S.an->functions_taken, functions - 2);
  assert_int_equal(code_count(S.an, "E6029"), 0);
  edit(&S, "fn reads", "n : i32", "n : f32"); /* the entry as it was */
  assert_true(windowed(&S));
  assert_true(S.prog->spliced);
  assert_null(S.prog->plan->again);
  assert_int_equal(S.an->functions_walked, 1);
  assert_int_equal(code_count(S.an, "E6029"), 0);
  edit(&S, "fn reads", " in Memory::HBM,", ",");
  assert_true(S.prog->spliced);
  assert_int_equal(S.an->functions_walked, 2);
  assert_int_equal(code_count(S.an, "E6029"), 1);
  /* the `on` topology: host_side calls kernel from the host */
  edit(&S, "fn kernel", " on Topology::Dev", "");
  assert_true(windowed(&S));
  assert_true(S.prog->spliced);
  assert_int_equal(S.an->functions_walked, 2); /* kernel, host_side */
  assert_int_equal(code_count(S.an, "E6001"), 1);
  assert_int_equal(code_count(S.an, "E6029"), 1);
  edit(&S, "fn kernel", "fn kernel()", "fn kernel() on Topology::Dev");
  assert_true(S.prog->spliced);
  assert_int_equal(S.an->functions_walked, 2);
  assert_int_equal(code_count(S.an, "E6001"), 2);
  session_close(&S);
}

/* A name the program never used before (`u16`, a parameter `y`, a body's `brand_new`) comes
 * in where a full lowering meets it first: the splice takes it, and renumbers the name table
 * and every id the model, the signature records and the marks' name ranges hold as a full
 * lowering numbers them (assert_as_fresh compares the tables name by name), so the next
 * splice's name ranges hold too. */
static void
test_signature_edits__a_name_brought_in_is_spliced_and_the_table_renumbered(void **state) {
  (void)state;
  /* reach's condition names Scratch first: its id moves up with every name brought in */
  static const char reach[] = "\nfn reach() -> i32 {\n"
                              "  if comptime Transfer<Memory::HBM, Memory::Scratch> {\n"
                              "    print(1);\n"
                              "  }\n"
                              "  return 0;\n"
                              "}\n";
  char text[sizeof(base) + sizeof(reach)];
  snprintf(text, sizeof(text), "%s%s", base, reach);
  session S;
  session_open(&S, text);
  size_t names = S.prog->model.names.strings.len;
  edit(&S, "fn callee", "x: i32", "x: u16"); /* u16 in callee's item part */
  assert_true(windowed(&S));
  assert_true(S.prog->spliced);
  assert_true(S.prog->plan->names_moved);
  assert_int_equal(S.prog->model.names.strings.len, names + 1);
  edit(&S, "fn callee", "(x: u16)", "(x: u16, y: i32)"); /* y: caller lowered again too */
  assert_true(S.prog->spliced);
  assert_non_null(S.prog->plan->again);
  edit(&S, "fn user", "  print(t);", "  let brand_new = t;\n  print(brand_new);");
  assert_true(windowed(&S));
  assert_true(S.prog->spliced);
  assert_int_equal(S.prog->model.names.strings.len, names + 3);
  edit(&S, "fn user", "caller(1)", "caller(2)"); /* no name brought in: the ranges hold */
  assert_true(S.prog->spliced);
  assert_false(S.prog->plan->names_moved);
  edit(&S, "fn f1", "-> i32", "-> u16"); /* u16 now first in the signature pass */
  assert_false(S.prog->spliced);         /* callee's first use of it is dropped from its range */
  session_close(&S);
}

/* What stays on the full lowering, each still a fresh analysis' result: a name's first use
 * dropped (the names after it would move back), a tensor return type added (the signature
 * part's indexes move), generics, a renamed function. */
static void test_signature_edits__what_the_splice_cannot_show_is_lowered_in_full(void **state) {
  (void)state;
  session S;
  session_open(&S, base);
  edit(&S, "fn callee", "x: i32", "x: u16"); /* u16: a new name, brought in */
  assert_true(S.prog->spliced);
  edit(&S, "fn callee", "x: u16", "x: i32"); /* u16 gone: the names after it move back */
  assert_false(S.prog->spliced);
  edit(&S, "fn callee", "(x: i32)", "(x: i32, y: i32)"); /* y brought in */
  assert_true(S.prog->spliced);
  edit(&S, "fn callee", "(x: i32, y: i32)", "(x: i32)"); /* y's only use dropped */
  assert_false(S.prog->spliced);
  edit(&S, "fn f1", "-> i32", "-> Tensor<f32, [4]>");
  assert_false(S.prog->spliced);
  edit(&S, "fn f1", "-> Tensor<f32, [4]>", "-> i32");
  assert_false(S.prog->spliced);
  edit(&S, "fn f1", "fn f1(", "fn f1<T>(");
  assert_false(S.prog->spliced);
  edit(&S, "fn f1", "fn f1<T>(", "fn f1(");
  assert_false(S.prog->spliced);
  edit(&S, "fn user", "fn user", "fn uses");
  assert_false(S.prog->spliced);
  /* and a parameter type edit after all of them is taken over again */
  edit(&S, "fn callee", "x: i32", "x: i64");
  assert_true(S.prog->spliced);
  session_close(&S);
}

/* A spliced program's lowering marks carry each item's range of the name table (the names it
 * introduces first), which the next splice checks the items it lowers again against: a body
 * edit after a splice that drops the first use of a name (`print`, first used by callee, then
 * by caller) would give the names after it other ids in a full lowering, so it is lowered in
 * full, and the name table is a fresh lowering's. */
static void
test_signature_edits__a_spliced_programs_name_ranges_hold_at_the_next_splice(void **state) {
  (void)state;
  session S;
  session_open(&S, base);
  edit(&S, "fn user", "caller(1)", "caller(2)");
  assert_true(S.prog->spliced);
  edit(&S, "fn callee", "  print(w);\n", "");
  assert_false(S.prog->spliced);
  edit(&S, "fn callee", "  return x;", "  print(w);\n  return x;");
  assert_false(S.prog->spliced); /* print first used by callee again */
  edit(&S, "fn user", "caller(2)", "caller(1)");
  assert_true(S.prog->spliced);
  session_close(&S);
}

/* ---------------------------------------------------------------- random signature edits */

/* Types a parameter or a return type is edited to: scalars the program names and one it does
 * not (u16), pointers wanting host or device memory, tensors (of one rank: a return type
 * edited between them is lowered again in place), a struct (read through a
 * field by the caller), a reference. */
static const char *const types[] = {"i32",
                                    "i64",
                                    "f32",
                                    "u16",
                                    "*const f32",
                                    "*const f32 in Memory::HBM",
                                    "Tensor<f32, [TILE]>",
                                    "Tensor<f32, [64]>",
                                    "Point",
                                    "&Tensor<f32, [4]>"};
#define TYPES (sizeof(types) / sizeof(types[0]))
#define CHAIN 6

typedef struct chain {
  int param[CHAIN], ret[CHAIN], tile;
  bool generic[CHAIN];
} chain;

/* A chain of functions, each calling the one before it with a device pointer and reading a
 * field of what it returns, after four functions whose return types name i32, i64, f32 and
 * Point in the signature pass (so that a return type edited among them keeps every name id;
 * u16 and the tensor types do not). */
static char *render(const chain *c) {
  size_t cap = 16384, n = 0;
  char *buf = malloc(cap);
  assert_non_null(buf);
  n += (size_t)snprintf(
      buf + n, cap - n,
      "Memory CPU_DRAM {}\nMemory HBM {\n  within: Memory::CPU_DRAM, capacity: 40 "
      "GiB, managed: explicit\n}\nTopology Dev {\n  arch: nvptx64, memory: "
      "Memory::HBM, visible: [Memory::HBM],\n  transfer Memory::CPU_DRAM -> "
      "Memory::HBM : 31.5 GB/s\n}\nconst TILE: i64 = %d;\nstruct Point { x: i32 }\n"
      "fn t_i32() -> i32 {\n  return 0;\n}\nfn t_i64() -> i64 {\n  return 0;\n}\n"
      "fn t_f32() -> f32 {\n  return 0;\n}\nfn t_point() -> Point {\n  return 0;\n}\n",
      c->tile);
  for (int f = 0; f < CHAIN; f++) {
    n += (size_t)snprintf(buf + n, cap - n,
                          "\nfn g%d%s(p: %s, k: i32) -> %s {\n"
                          "  let w = transfer(Tensor<f32, [TILE, %d]>::uninit(), Memory::HBM);\n"
                          "  let g = transfer(Tensor<f32, [4]>::new(), Memory::HBM);\n",
                          f, c->generic[f] ? "<T>" : "", types[c->param[f]], types[c->ret[f]],
                          f + 1);
    if (f > 0)
      n += (size_t)snprintf(buf + n, cap - n, "  let r = g%d(g.as_ptr(), k);\n  let q = r.x;\n",
                            f - 1);
    n += (size_t)snprintf(buf + n, cap - n, "  print(w);\n  return 0;\n}\n");
  }
  n += (size_t)snprintf(buf + n, cap - n,
                        "\nfn main() -> i32 {\n  let v = g%d(1, 2);\n  return 0;\n}\n", CHAIN - 1);
  assert_true(n < cap);
  return buf;
}

/* Random edits of the chain's parameter and return types, generics and TILE, each made as
 * one edit of the text where the versions differ, each result held to a fresh one; the
 * splice must have taken signature edits over, and lowered callers again, along the way (or
 * this would test only the full lowering). */
static void
test_signature_edits__random_signature_edits_report_what_a_fresh_parse_reports(void **state) {
  (void)state;
  for (unsigned seed = 1; seed <= 3; seed++) {
    chain c;
    memset(&c, 0, sizeof(c));
    for (int f = 0; f < CHAIN; f++) {
      c.param[f] = f % 2;
      c.ret[f] = (f + 1) % 2;
    }
    c.tile = 64;
    char *text = render(&c);
    session S;
    session_open(&S, text);
    int taken = 0, again = 0;
    uint32_t x = seed;
    for (int e = 0; e < 60; e++) {
      x = x * 1103515245u + 12345u;
      unsigned what = (x >> 8) % 6, f = (x >> 12) % CHAIN, pick = (x >> 16) % TYPES;
      if (what < 2)
        c.param[f] = (int)pick;
      else if (what < 4)
        c.ret[f] = (int)pick;
      else if (what == 4)
        c.tile = 16 * (1 + (int)(pick % 8));
      else
        c.generic[f] = pick == 0;
      char *next = render(&c);
      size_t a = 0, la = strlen(text), lb = strlen(next);
      while (a < la && a < lb && text[a] == next[a])
        a++;
      size_t ea = la, eb = lb;
      while (ea > a && eb > a && text[ea - 1] == next[eb - 1]) {
        ea--;
        eb--;
      }
      edit_at(&S, (uint32_t)a, (uint32_t)ea, next + a, eb - a);
      taken += S.prog->spliced && S.prog->plan && S.prog->plan->changed_sig;
      again += S.prog->spliced && S.prog->plan && S.prog->plan->again;
      size_t now_len;
      const char *now = vxp_source_text(S.src, &now_len);
      assert_int_equal(now_len, lb);
      assert_memory_equal(now, next, lb);
      free(text);
      text = next;
    }
    assert_true(taken > 0);
    assert_true(again > 0);
    free(text);
    session_close(&S);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(
          test_signature_edits__a_parameter_type_edit_takes_a_window_and_the_other_functions_over),
      cmocka_unit_test(test_signature_edits__a_return_type_edit_lowers_and_walks_its_callers_again),
      cmocka_unit_test(
          test_signature_edits__a_tensor_return_type_edit_lowers_and_walks_its_callers_again),
      cmocka_unit_test(
          test_signature_edits__a_parameter_added_or_renamed_with_known_names_is_spliced),
      cmocka_unit_test(test_signature_edits__a_const_edit_changes_the_shapes_exactly),
      cmocka_unit_test(
          test_signature_edits__a_callers_visibility_follows_its_callees_pointer_parameter),
      cmocka_unit_test(test_signature_edits__a_name_brought_in_is_spliced_and_the_table_renumbered),
      cmocka_unit_test(test_signature_edits__what_the_splice_cannot_show_is_lowered_in_full),
      cmocka_unit_test(
          test_signature_edits__a_spliced_programs_name_ranges_hold_at_the_next_splice),
      cmocka_unit_test(
          test_signature_edits__random_signature_edits_report_what_a_fresh_parse_reports),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
