/* SPDX-License-Identifier: Apache-2.0 */
/* bench_incremental.c - what an editor pays per keystroke: a one-line edit to a
 * 20,000-line program followed by re-analysis (vxp_source_edit + vxp_program_reparse +
 * vxp_analyze_incremental with the previous version's analysis) against a full parse and analysis
 * of the same text (vxp_source_new + vxp_program_parse + vxp_analyze). Both are timed on every
 * edit, interleaved, and the medians and their ratio are printed, with the parse step alone for
 * each side; then, for reference, tree-sitter alone reparsing the whole tree of the text before
 * the edit (what a reparse cost before it parsed only the edit's window) against parsing the
 * text afresh, and (white box, through lib/program.h) how many reparses parsed only the edit's
 * window and how many reparses and analyses took the unchanged items over. Every incremental result
 * is checked against the full one, so a fast wrong answer fails. With `--count N` it makes N edits
 * and 3 fresh parses and analyses in functions of their own, untimed, for valgrind --tool=callgrind
 * to count instructions (which, unlike wall time, the machine's load does not change). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis_data.h"
#include "arena.h"
#include "context.h"
#include "lower.h"
#include "program.h"
#include "source.h"
#include "vxpeak.h"

#define LINES 20000
#define LINES_PER_FN 10
#define HEADER_LINES 10
#define EDITS 101

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, size_t n) {
  qsort(v, n, sizeof(*v), cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The value a tenth (`tenths` = 1) or nine tenths (9) of `v` lie at or below; `v` sorted. */
static double decile(const double *v, size_t n, int tenths) {
  return v[(n - 1) * (size_t)tenths / 10];
}

static void check(int rc, vxp_context *ctx, const char *what) {
  if (rc != VXP_OK) {
    fprintf(stderr, "bench_incremental: %s failed: %s\n", what, vxp_context_errmsg(ctx));
    exit(1);
  }
}

/* A program of exactly LINES lines: a machine header with a const, then functions of
 * LINES_PER_FN lines with placements, a loop and a call. Function k's loop bound is on line
 * HEADER_LINES + k * LINES_PER_FN + 2. */
static char *generate(size_t *len) {
  size_t cap = (size_t)LINES * 96, n = 0;
  char *text = malloc(cap);
  if (!text) exit(1);
  n += (size_t)snprintf(text + n, cap - n,
                        "// bench_incremental: generated, %d lines\n"
                        "Memory CPU_DRAM {}\n"
                        "Memory HBM {\n"
                        "  within: Memory::CPU_DRAM, capacity: 40 GiB, managed: explicit\n"
                        "}\n"
                        "Topology Dev {\n"
                        "  arch: nvptx64, memory: Memory::HBM, visible: [Memory::HBM],\n"
                        "  transfer Memory::CPU_DRAM -> Memory::HBM : 31.5 GB/s\n"
                        "}\n"
                        "const TILE: i64 = 256;\n",
                        LINES);
  int functions = (LINES - HEADER_LINES) / LINES_PER_FN;
  for (int k = 0; k < functions; k++) {
    /* f00000 returns i64 and f00001 i32, so that both names are the signature pass's and a
     * signature edit of a later function (signature_edits) introduces no name; every fourth
     * function's loop tile is TILE wide (const_edits) */
    n +=
        (size_t)snprintf(text + n, cap - n,
                         "fn f%05d(x: i32) -> %s {\n"
                         "  let w = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::HBM);\n"
                         "  for i in 0..10 {\n"
                         "    let s = transfer(Tensor<f16, [%s, 256]>::uninit(), Memory::HBM);\n"
                         "    print(s);\n"
                         "  }\n"
                         "  print(w);\n"
                         "  f%05d(x);\n"
                         "  return 0;\n"
                         "}\n",
                         k, k == 0 ? "i64" : "i32", k % 4 == 0 ? "TILE" : "256", k > 0 ? k - 1 : 0);
  }
  *len = n;
  return text;
}

/* Byte offset of the start of 0-based line `line`. */
static size_t line_offset(const char *text, size_t line) {
  size_t off = 0;
  for (size_t l = 0; l < line; l++)
    off = (size_t)(strchr(text + off, '\n') - text) + 1;
  return off;
}

/* The facts both sides must agree on. */
static void fingerprint(const vxp_analysis *an, char *buf, size_t size) {
  uint64_t total = 0;
  for (size_t i = 0; i < vxp_analysis_resident_set_count(an); i++)
    total += vxp_resident_set_peak_bytes(vxp_analysis_resident_set(an, i));
  snprintf(buf, size, "%zu diags, %zu sets, %zu records, peaks %llu",
           vxp_analysis_diagnostic_count(an), vxp_analysis_resident_set_count(an),
           vxp_analysis_record_count(an), (unsigned long long)total);
}

/* A fresh parse and analysis of `src`'s text, timed (*parse_us: the source and the parse;
 * *total_us: with the analysis), held to what `an` (the incremental result) says. Returns true
 * when they agree; otherwise says so on stderr, naming `what` (the edit). */
static bool agrees_with_fresh(vxp_context *ctx, const vxp_source *src, const vxp_analysis *an,
                              double *parse_us, double *total_us, const char *what) {
  size_t len;
  const char *text = vxp_source_text(src, &len);
  vxp_source *fresh;
  vxp_program *prog;
  vxp_analysis *an_full;
  double t0 = now_us();
  check(vxp_source_new(&fresh, ctx, "bench.vx", text, len), ctx, "vxp_source_new");
  check(vxp_program_parse(&prog, ctx, fresh), ctx, "vxp_program_parse");
  double t1 = now_us();
  check(vxp_analyze(&an_full, ctx, prog, NULL), ctx, "vxp_analyze");
  double t2 = now_us();
  *parse_us = t1 - t0;
  *total_us = t2 - t0;
  char a[160], b[160];
  fingerprint(an, a, sizeof(a));
  fingerprint(an_full, b, sizeof(b));
  vxp_analysis_free(an_full);
  vxp_program_free(prog);
  vxp_source_free(fresh);
  if (strcmp(a, b) == 0) return true;
  fprintf(stderr, "bench_incremental: %s: incremental (%s) and full (%s) differ\n", what, a, b);
  return false;
}

/* For instruction counts (valgrind --tool=callgrind --toggle-collect=bench_count_edit or
 * =bench_count_fresh, with --count): one edit's reparse and analysis, and one fresh parse
 * and analysis, each in a function of its own. */
__attribute__((noinline)) void bench_count_edit(vxp_context *ctx, vxp_source **src,
                                                vxp_program **prog, vxp_analysis **an, uint32_t at,
                                                uint32_t end, const char *line, size_t n);
__attribute__((noinline)) void bench_count_fresh(vxp_context *ctx, const char *text, size_t len);

void bench_count_edit(vxp_context *ctx, vxp_source **src, vxp_program **prog, vxp_analysis **an,
                      uint32_t at, uint32_t end, const char *line, size_t n) {
  vxp_source *next;
  vxp_program *next_prog;
  vxp_analysis *next_an;
  check(vxp_source_edit(&next, *src, at, end, line, n), ctx, "vxp_source_edit");
  check(vxp_program_reparse(&next_prog, ctx, *prog, next), ctx, "vxp_program_reparse");
  check(vxp_analyze_incremental(&next_an, ctx, next_prog, *an, NULL), ctx,
        "vxp_analyze_incremental");
  vxp_analysis_free(*an);
  vxp_program_free(*prog);
  vxp_source_free(*src);
  *src = next;
  *prog = next_prog;
  *an = next_an;
}

void bench_count_fresh(vxp_context *ctx, const char *text, size_t len) {
  vxp_source *src;
  vxp_program *prog;
  vxp_analysis *an;
  check(vxp_source_new(&src, ctx, "bench.vx", text, len), ctx, "vxp_source_new");
  check(vxp_program_parse(&prog, ctx, src), ctx, "vxp_program_parse");
  check(vxp_analyze(&an, ctx, prog, NULL), ctx, "vxp_analyze");
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
}

/* `--count N`: N edits through bench_count_edit after two that are not counted (an editing
 * session's first reparse lowers in full), then 3 fresh parses and analyses through
 * bench_count_fresh; nothing is timed. Divide callgrind's totals by N and by 3. */
static int count_only(vxp_context *ctx, const char *text, size_t len, int edits) {
  vxp_source *src;
  vxp_program *prog;
  vxp_analysis *an;
  check(vxp_source_new(&src, ctx, "bench.vx", text, len), ctx, "vxp_source_new");
  check(vxp_program_parse(&prog, ctx, src), ctx, "vxp_program_parse");
  check(vxp_analyze(&an, ctx, prog, NULL), ctx, "vxp_analyze");
  int functions = (LINES - HEADER_LINES) / LINES_PER_FN;
  unsigned seed = 42;
  for (int e = 0; e < edits + 2; e++) {
    seed = seed * 1103515245u + 12345u;
    int k = (int)((seed >> 8) % (unsigned)functions);
    const char *cur = vxp_source_text(src, NULL);
    size_t at = line_offset(cur, (size_t)(HEADER_LINES + k * LINES_PER_FN + 2));
    size_t line_end = (size_t)(strchr(cur + at, '\n') - cur);
    char line[64];
    int n = snprintf(line, sizeof(line), "  for i in 0..%u {", 1 + (seed >> 4) % 99);
    if (e < 2) { /* not counted: the same calls, made here */
      vxp_source *next;
      vxp_program *next_prog;
      vxp_analysis *next_an;
      check(vxp_source_edit(&next, src, (uint32_t)at, (uint32_t)line_end, line, (size_t)n), ctx,
            "vxp_source_edit");
      check(vxp_program_reparse(&next_prog, ctx, prog, next), ctx, "vxp_program_reparse");
      check(vxp_analyze_incremental(&next_an, ctx, next_prog, an, NULL), ctx,
            "vxp_analyze_incremental");
      vxp_analysis_free(an);
      vxp_program_free(prog);
      vxp_source_free(src);
      src = next;
      prog = next_prog;
      an = next_an;
    } else {
      bench_count_edit(ctx, &src, &prog, &an, (uint32_t)at, (uint32_t)line_end, line, (size_t)n);
    }
  }
  size_t now_len;
  const char *now = vxp_source_text(src, &now_len);
  for (int i = 0; i < 3; i++)
    bench_count_fresh(ctx, now, now_len);
  printf("bench_incremental --count: %d counted edits (bench_count_edit), 3 fresh parses and "
         "analyses (bench_count_fresh)\n",
         edits);
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  return 0;
}

/* Signature and const edits, each kind timed on its own as the body edits are and checked
 * against a fresh parse and analysis of the same text: a function's parameter type (i32 <->
 * i64), its return type (i32 <-> i64: callers' calls carry the nominal type it returns, so
 * its caller is lowered again, from a window of its own), the header's `const TILE`
 * (every fourth function's loop tile; every function is walked again), and a parameter added
 * with a name the program never used (`q0`, `q1`, ...: the name table grows across the splice
 * and is renumbered, the caller is lowered again for its visibility facts, every function is
 * walked again; last, since the other kinds write the whole signature line). Prints the
 * medians and ratios; returns 0, or 1 when a result disagrees with the fresh one or an edit did
 * not take the path docs/design.md §9 promises it (reparsed from a window, the model spliced;
 * no function walked but the edited one, for a parameter edit, and the edited one and its
 * caller, for a return edit). Timing is never asserted. */
#define SIGNATURE_EDITS 11
enum { EDIT_PARAM, EDIT_RETURN, EDIT_CONST, EDIT_NAME };
static int signature_edits(vxp_context *ctx, vxp_source **src, vxp_program **prog,
                           vxp_analysis **an, int kind) {
  static const char *const names[] = {"a parameter's type", "a return type", "a const's value",
                                      "a parameter with a new name"};
  double inc[SIGNATURE_EDITS], full[SIGNATURE_EDITS];
  int functions = (LINES - HEADER_LINES) / LINES_PER_FN, windowed = 0, spliced = 0;
  size_t walked = 0, most_walked = 0;
  unsigned seed = 7 + (unsigned)kind;
  for (int e = 0; e < SIGNATURE_EDITS; e++) {
    seed = seed * 1103515245u + 12345u;
    /* f00000 and f00001 introduce i64 and i32 (generate): not edited */
    int k = 2 + (int)((seed >> 8) % (unsigned)(functions - 2));
    const char *cur = vxp_source_text(*src, NULL);
    size_t at, line_end;
    char line[64];
    int n;
    if (kind == EDIT_CONST) {
      at = line_offset(cur, HEADER_LINES - 1);
      line_end = (size_t)(strchr(cur + at, '\n') - cur);
      n = snprintf(line, sizeof(line), "const TILE: i64 = %u;", 64 + 64 * ((seed >> 4) % 8));
    } else if (kind == EDIT_NAME) { /* `, qE: i32` inserted before the line's `) -> ` */
      size_t fn_at = line_offset(cur, (size_t)(HEADER_LINES + k * LINES_PER_FN));
      at = line_end = (size_t)(strstr(cur + fn_at, ") -> ") - cur);
      n = snprintf(line, sizeof(line), ", q%d: i32", e);
    } else {
      at = line_offset(cur, (size_t)(HEADER_LINES + k * LINES_PER_FN));
      line_end = (size_t)(strchr(cur + at, '\n') - cur);
      /* the line is `fn fNNNNN(x: T) -> R {` (generate): T after `fn fNNNNN(x: `, R after
       * `fn fNNNNN(x: T) -> ` */
      const char *param = cur + at + strlen("fn f00000(x: ");
      const char *ret = cur + at + strlen("fn f00000(x: i32) -> ");
      bool param_wide = strncmp(param, "i64", 3) == 0, ret_wide = strncmp(ret, "i64", 3) == 0;
      if (kind == EDIT_PARAM) param_wide = !param_wide;
      if (kind == EDIT_RETURN) ret_wide = !ret_wide;
      n = snprintf(line, sizeof(line), "fn f%05d(x: %s) -> %s {", k, param_wide ? "i64" : "i32",
                   ret_wide ? "i64" : "i32");
    }

    double t0 = now_us();
    vxp_source *next;
    vxp_program *next_prog;
    vxp_analysis *next_an;
    check(vxp_source_edit(&next, *src, (uint32_t)at, (uint32_t)line_end, line, (size_t)n), ctx,
          "vxp_source_edit");
    check(vxp_program_reparse(&next_prog, ctx, *prog, next), ctx, "vxp_program_reparse");
    check(vxp_analyze_incremental(&next_an, ctx, next_prog, *an, NULL), ctx,
          "vxp_analyze_incremental");
    double t1 = now_us();
    windowed += next_prog->window_tree != NULL;
    spliced += next_prog->spliced;
    walked += next_an->functions_walked;
    if (next_an->functions_walked > most_walked) most_walked = next_an->functions_walked;
    inc[e] = t1 - t0;
    double parse_us;
    char what[48];
    snprintf(what, sizeof(what), "signature edit %d (%s)", e, names[kind]);
    bool agree = agrees_with_fresh(ctx, next, next_an, &parse_us, &full[e], what);
    vxp_analysis_free(*an);
    vxp_program_free(*prog);
    vxp_source_free(*src);
    *src = next;
    *prog = next_prog;
    *an = next_an;
    if (!agree) return 1;
  }
  double m_inc = median(inc, SIGNATURE_EDITS), m_full = median(full, SIGNATURE_EDITS);
  printf("%s edited (%d edits), medians:\n", names[kind], SIGNATURE_EDITS);
  printf("  edit + reparse + analyse   %10.0f us   full parse + analyse %10.0f us   (%.2fx)\n",
         m_inc, m_full, m_full / m_inc);
  printf("  reparsed from a window: %d; model spliced: %d; functions walked: %zu (at most %zu "
         "per edit)\n",
         windowed, spliced, walked, most_walked);
  bool path = spliced == SIGNATURE_EDITS && windowed == SIGNATURE_EDITS;
  if (kind == EDIT_PARAM) path = path && most_walked == 1;
  if (kind == EDIT_RETURN) path = path && most_walked <= 2;
  if (!path) {
    fprintf(stderr, "bench_incremental: %s: the incremental path was not taken\n", names[kind]);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  vxp_context *ctx;
  if (vxp_context_new(&ctx, NULL) != VXP_OK) return 1;
  size_t len;
  char *text = generate(&len);
  if (argc == 3 && strcmp(argv[1], "--count") == 0) {
    int rc = count_only(ctx, text, len, atoi(argv[2]) > 0 ? atoi(argv[2]) : 1);
    vxp_context_free(ctx);
    free(text);
    return rc;
  }
  vxp_source *src;
  vxp_program *prog;
  check(vxp_source_new(&src, ctx, "bench.vx", text, len), ctx, "vxp_source_new");
  check(vxp_program_parse(&prog, ctx, src), ctx, "vxp_program_parse");
  if (vxp_source_line_count(src) != LINES || vxp_program_diagnostic_count(prog) != 0) {
    fprintf(stderr,
            "bench_incremental: the generated program has %u lines and %zu syntax "
            "diagnostics (want %d and 0)\n",
            vxp_source_line_count(src), vxp_program_diagnostic_count(prog), LINES);
    return 1;
  }

  vxp_analysis *prev_an;
  check(vxp_analyze(&prev_an, ctx, prog, NULL), ctx, "vxp_analyze");
  /* tree-sitter alone reparses the whole tree of the text before each edit, parsed afresh
   * (the library's program may keep only the window it parsed) */
  TSTree *ts_prev = ts_parser_parse_string(ctx->parser, NULL, text, (uint32_t)len);
  double inc[EDITS], full[EDITS], inc_parse[EDITS], full_parse[EDITS];
  double ts_inc[EDITS], ts_full[EDITS], checks[EDITS], lowering[EDITS];
  int spliced = 0, lent = 0, windowed = 0;
  size_t fns_taken = 0, fns_walked = 0;
  int functions = (LINES - HEADER_LINES) / LINES_PER_FN;
  unsigned seed = 42;
  for (int e = 0; e < EDITS; e++) {
    /* One line: the loop bound of a pseudo-random function becomes 0..1 to 0..99. */
    seed = seed * 1103515245u + 12345u;
    int k = (int)((seed >> 8) % (unsigned)functions);
    const char *cur = vxp_source_text(src, NULL);
    size_t at = line_offset(cur, (size_t)(HEADER_LINES + k * LINES_PER_FN + 2));
    size_t line_end = (size_t)(strchr(cur + at, '\n') - cur);
    char line[64];
    int line_len = snprintf(line, sizeof(line), "  for i in 0..%u {", 1 + (seed >> 4) % 99);

    double t0 = now_us();
    vxp_source *next;
    vxp_program *next_prog;
    vxp_analysis *an_inc;
    check(vxp_source_edit(&next, src, (uint32_t)at, (uint32_t)line_end, line, (size_t)line_len),
          ctx, "vxp_source_edit");
    check(vxp_program_reparse(&next_prog, ctx, prog, next), ctx, "vxp_program_reparse");
    double t1 = now_us();
    check(vxp_analyze_incremental(&an_inc, ctx, next_prog, prev_an, NULL), ctx,
          "vxp_analyze_incremental");
    double t2 = now_us();

    char what[32];
    snprintf(what, sizeof(what), "edit %d", e);
    if (!agrees_with_fresh(ctx, next, an_inc, &full_parse[e], &full[e], what)) return 1;
    size_t next_len;
    const char *next_text = vxp_source_text(next, &next_len);

    /* Tree-sitter alone, on the same edit: the old tree adjusted and reparsed, then the
     * whole text parsed without a tree. */
    const vxp_source_step *st = array_last(&next->history);
    double t6 = now_us();
    TSTree *copy = vxp_program__edited_tree(ts_prev, st, 1);
    TSTree *ts_new = ts_parser_parse_string(ctx->parser, copy, next_text, (uint32_t)next_len);
    double t7 = now_us();
    TSTree *ts_fresh = ts_parser_parse_string(ctx->parser, NULL, next_text, (uint32_t)next_len);
    double t8 = now_us();
    /* The two passes a fresh parse makes over the whole tree: the syntax checks
     * (ERROR/MISSING nodes, reserved words) and the lowering to the program model. A reparse
     * still lowers the whole tree, but checks the syntax of the changed items only. */
    vxp_diag_list diags;
    memset(&diags, 0, sizeof(diags));
    vxp_model model;
    memset(&model, 0, sizeof(model));
    TSNode root = ts_tree_root_node(ts_new);
    check(vxp_syntax__diagnose(ctx, next, root, &diags), ctx, "vxp_syntax__diagnose");
    double t9 = now_us();
    check(vxp_lower__program(ctx, next, root, &model, &diags, NULL), ctx, "vxp_lower__program");
    double t10 = now_us();
    vxp_model__free(ctx, &model);
    vxp_diag__list_free(ctx, &diags);
    checks[e] = t9 - t8;
    lowering[e] = t10 - t9;
    ts_tree_delete(copy);
    ts_tree_delete(ts_new);
    ts_tree_delete(ts_prev);
    ts_prev = ts_fresh; /* the next edit's older tree */
    ts_inc[e] = t7 - t6;
    ts_full[e] = t8 - t7;

    spliced += next_prog->spliced;
    windowed += next_prog->window_tree != NULL;
    lent += an_inc->items_taken > 0;
    fns_taken += an_inc->functions_taken;
    fns_walked += an_inc->functions_walked;
    inc[e] = t2 - t0;
    inc_parse[e] = t1 - t0;
    vxp_analysis_free(prev_an);
    prev_an = an_inc;
    vxp_program_free(prog);
    vxp_source_free(src);
    prog = next_prog;
    src = next;
  }
  double m_inc = median(inc, EDITS), m_full = median(full, EDITS);
  double m_inc_parse = median(inc_parse, EDITS), m_full_parse = median(full_parse, EDITS);
  printf("bench_incremental: %d-line program (%zu bytes), %d one-line edits, medians:\n", LINES,
         len, EDITS);
  printf("  edit + reparse + analyse   %10.0f us   (p10 %.0f, p90 %.0f us: the edits do about\n"
         "                                         the same work)\n",
         m_inc, decile(inc, EDITS, 1), decile(inc, EDITS, 9));
  printf("  full parse + analyse       %10.0f us\n", m_full);
  printf("  ratio full / incremental   %10.2fx\n", m_full / m_inc);
  printf("  of which: edit + reparse   %10.0f us   full parse %10.0f us   (%.2fx)\n", m_inc_parse,
         m_full_parse, m_full_parse / m_inc_parse);
  double m_ts_inc = median(ts_inc, EDITS), m_ts_full = median(ts_full, EDITS);
  printf(
      "  tree-sitter alone, the whole tree:  reparse %10.0f us   full parse %10.0f us   (%.2fx)\n",
      m_ts_inc, m_ts_full, m_ts_full / m_ts_inc);
  printf(
      "  reparses that parsed only the edit's window: %d of %d; that copied the unchanged items'\n"
      "  model: %d of %d; analyses that took the unchanged items' visibility checks over: %d of "
      "%d\n",
      windowed, EDITS, spliced, EDITS, lent, EDITS);
  printf(
      "  analysed functions taken over from the previous analysis: %zu, walked: %zu (%d edits)\n",
      fns_taken, fns_walked, EDITS);
  /* What an edit copies of every unchanged item, whatever the edit: the program's arena (its
   * model) and the analysis' (the walks taken over). */
  printf("  each edit rewrites the other items' model and walks: the program holds %zu bytes, "
         "the\n  analysis %zu\n",
         vxp_arena__held(&prog->arena), vxp_arena__held(&prev_an->arena));
  printf("  over the whole tree (a fresh parse), the syntax checks take %.0f us and lowering to "
         "the\n  model %.0f us\n",
         median(checks, EDITS), median(lowering, EDITS));
  /* A one-line edit in a body is the case the item-level paths exist for: if they stopped
   * being taken, the figures above would measure the fallback. */
  if (windowed < EDITS / 2 || spliced < EDITS / 2 || lent < EDITS / 2 || fns_taken < fns_walked) {
    fprintf(stderr,
            "bench_incremental: the item-level paths were not taken (%d, %d, %d of %d; functions "
            "taken over %zu, walked %zu)\n",
            windowed, spliced, lent, EDITS, fns_taken, fns_walked);
    return 1;
  }
  for (int kind = EDIT_PARAM; kind <= EDIT_NAME; kind++)
    if (signature_edits(ctx, &src, &prog, &prev_an, kind) != 0) return 1;
  ts_tree_delete(ts_prev);
  vxp_analysis_free(prev_an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(text);
  return 0;
}
