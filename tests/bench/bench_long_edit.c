/* SPDX-License-Identifier: Apache-2.0 */
/* bench_long_edit.c - an edit inside one function of 10^5 statements (issue 33): the
 * reparse of the edited text (vxp_program_reparse, which checks the long function in pieces,
 * lib/long_items.c, before parsing it whole) and the incremental analysis, against a fresh
 * parse and analysis of the same text.
 *
 * The function holds 50,000 placements of a tile and 50,000 spawn regions each reading one
 * (6.5 MB, the shape of docs/limits.md's "Long items"). Each edit changes one tile's shape
 * at a different place in the function: five keep its tokens (`[16, 16]` to `[32, 16]`: the
 * pieces' boundaries stay where they were), five add two (`[16, 16]` to `[16, 16 + 0]`: the
 * runs after it may end at other statements, and then their pieces are parsed again), five
 * insert a placement after it (a statement of 27 tokens); every edited program is
 * analysed both ways and the two analyses' JSON must be equal byte for byte, so a fast wrong
 * answer fails the benchmark. It prints each edit, the medians of both and their ratio, and
 * the pieces of the long function the reparse parsed and the ones whose verdict it kept. No
 * timing is asserted. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "program.h"
#include "vxpeak.h"

#define STATEMENTS 100000
#define EDITS 5

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof(*v), cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static char *long_function(size_t *len) {
  size_t cap = (size_t)STATEMENTS * 100 + 1000, n = 0;
  char *s = malloc(cap);
  if (!s) return NULL;
  n += (size_t)sprintf(s + n, "fn main() -> i32 {\n  let mut acc: f32 = 0.0;\n");
  for (int i = 0; i < STATEMENTS / 2; i++)
    n += (size_t)sprintf(
        s + n, "  let t%d = transfer(Tensor<f32, [16, 16]>::uninit(), Memory::HBM);\n", i);
  for (int i = 0; i < STATEMENTS / 2; i++)
    n += (size_t)sprintf(s + n, "  spawn on(Topology::Device) { acc = acc + t%d[0][0]; }\n", i);
  n += (size_t)sprintf(s + n, "  print(acc);\n  return 0;\n}\n");
  *len = n;
  return s;
}

static int fail(const char *what) {
  fprintf(stderr, "bench_long_edit: %s\n", what);
  return 1;
}

int main(void) {
  size_t len = 0;
  char *text = long_function(&len);
  if (!text) return fail("out of memory");
  vxp_context *ctx = NULL;
  vxp_machine *m = NULL, *h = NULL;
  if (vxp_context_new(&ctx, NULL) != VXP_OK || vxp_machine_builtin(&m, ctx, "a100-40") != VXP_OK ||
      vxp_machine_builtin(&h, ctx, "host-default") != VXP_OK)
    return fail("no context or machine");
  vxp_analyze_options o = VXP_ANALYZE_OPTIONS_INIT;
  o.machine = m;
  o.host = h;
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  vxp_analysis *an = NULL;
  if (vxp_source_new(&src, ctx, "long.vx", text, len) != VXP_OK ||
      vxp_program_parse_flags(&prog, ctx, src, VXP_PROGRAM_FOR_EDITING) != VXP_OK ||
      vxp_analyze(&an, ctx, prog, &o) != VXP_OK)
    return fail("the first parse or analysis failed");
  printf("one function of %d statements, %zu bytes, admitted %d\n", STATEMENTS, len,
         vxp_analysis_admitted(an));
  static const char *const kinds[] = {"edits keeping the tokens", "edits adding two tokens",
                                      "edits inserting a statement"};
  double edit_ms[3][EDITS], fresh_ms[3][EDITS];
  for (int r = 0; r < 3 * EDITS; r++) {
    int kind = r / EDITS, e = r % EDITS;
    char with[128];
    if (kind == 2)
      snprintf(with, sizeof(with),
               "[16, 16]>::uninit(), Memory::HBM);\n  let u%d = transfer(Tensor<f32, [16, 16]", e);
    else
      snprintf(with, sizeof(with), "%s", kind ? "[16, 16 + 0]" : "[32, 16]");
    /* the tile of the placement at (2e+1)/(2 EDITS) of the placements  (the next ones for the
     * other kinds) */
    char needle[64];
    snprintf(needle, sizeof(needle),
             "let t%d = ", (2 * e + 1) * (STATEMENTS / 2) / (2 * EDITS) + kind);
    const char *t = vxp_source_text(src, NULL), *at = strstr(t, needle);
    at = at ? strstr(at, "[16, 16]") : NULL;
    if (!at) return fail("no tile to edit");
    uint32_t st = (uint32_t)(at - t);
    vxp_source *next = NULL;
    if (vxp_source_edit(&next, src, st, st + 8, with, strlen(with)) != VXP_OK)
      return fail("the edit failed");
    double t0 = now_ms();
    vxp_program *q = NULL;
    vxp_analysis *b = NULL;
    if (vxp_program_reparse(&q, ctx, prog, next) != VXP_OK) return fail("the reparse failed");
    double reparse_ms = now_ms() - t0;
    if (vxp_analyze_incremental(&b, ctx, q, an, &o) != VXP_OK)
      return fail("the incremental analysis failed");
    edit_ms[kind][e] = now_ms() - t0;
    /* the same text, afresh */
    size_t flen = 0;
    const char *ftext = vxp_source_text(next, &flen);
    vxp_source *fsrc = NULL;
    vxp_program *fprog = NULL;
    vxp_analysis *fan = NULL;
    t0 = now_ms();
    if (vxp_source_new(&fsrc, ctx, "long.vx", ftext, flen) != VXP_OK ||
        vxp_program_parse(&fprog, ctx, fsrc) != VXP_OK ||
        vxp_analyze(&fan, ctx, fprog, &o) != VXP_OK)
      return fail("the fresh parse or analysis failed");
    fresh_ms[kind][e] = now_ms() - t0;
    size_t ja = 0, jb = 0;
    const char *inc = vxp_analysis_json(b, &ja), *fr = vxp_analysis_json(fan, &jb);
    if (!inc || !fr || ja != jb || memcmp(inc, fr, ja) != 0)
      return fail("the incremental analysis differs from the fresh one");
    printf(
        "%s, %d, at byte %u: reparse + incremental analysis %.1f ms (reparse %.1f), fresh %.1f ms, "
        "admitted %d, pieces parsed %u, kept %u\n",
        kinds[kind], e, st, edit_ms[kind][e], reparse_ms, fresh_ms[kind][e],
        vxp_analysis_admitted(b), q->long_memo.parsed, q->long_memo.kept);
    vxp_analysis_free(fan);
    vxp_program_free(fprog);
    vxp_source_free(fsrc);
    vxp_analysis_free(an);
    vxp_program_free(prog);
    vxp_source_free(src);
    an = b;
    prog = q;
    src = next;
  }
  for (int kind = 0; kind < 3; kind++) {
    double me = median(edit_ms[kind], EDITS), mf = median(fresh_ms[kind], EDITS);
    printf("%s: median of %d edits %.1f ms; fresh parse and analysis %.1f ms; %.2fx\n", kinds[kind],
           EDITS, me, mf, me > 0 ? mf / me : 0.0);
  }
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_machine_free(m);
  vxp_machine_free(h);
  vxp_context_free(ctx);
  free(text);
  return 0;
}
