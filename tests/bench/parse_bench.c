/* SPDX-License-Identifier: Apache-2.0 */
/* parse_bench.c - parse throughput of the Vx grammar beside tree-sitter-c, same runtime
 * (the linked libtree-sitter), same process, same run: median MB/s over RUNS parses.
 * usage: parse_bench VX_FILE C_FILE RUNS | parse_bench --c-is-clean FILE
 * (built and run by tests/bench/bench_parse.sh) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_vx(void);
const TSLanguage *tree_sitter_c(void);

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) != 0) return fclose(f), NULL;
  long n = ftell(f);
  if (n < 0 || fseek(f, 0, SEEK_SET) != 0) return fclose(f), NULL;
  char *buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) buf[n] = '\0';
  *len = (size_t)n;
  return buf;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One full parse of `text`; returns MB/s (10^6 bytes per second) and sets *error when the
 * tree has an ERROR or MISSING node (a throughput on a broken tree would measure recovery). */
static double parse_once(TSParser *p, const char *text, size_t len, int *error) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  TSTree *tree = ts_parser_parse_string(p, NULL, text, (uint32_t)len);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  *error |= ts_node_has_error(ts_tree_root_node(tree));
  ts_tree_delete(tree);
  return (double)len / 1e6 / s;
}

static TSParser *parser_for(const TSLanguage *lang) {
  TSParser *p = ts_parser_new();
  if (!ts_parser_set_language(p, lang)) {
    fprintf(stderr, "parse_bench: the runtime refuses a grammar (ABI %u)\n",
            ts_language_version(lang));
    exit(2);
  }
  return p;
}

static double report(const char *what, double *mbps, int runs, int error) {
  qsort(mbps, (size_t)runs, sizeof(double), cmp_double);
  printf("  %s runs (MB/s, sorted):", what);
  for (int i = 0; i < runs; i++)
    printf(" %.1f", mbps[i]);
  printf("\n  %s median %.1f MB/s over %d parses, tree %s\n", what, mbps[runs / 2], runs,
         error ? "HAS ERRORS" : "clean");
  return mbps[runs / 2];
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--c-is-clean") == 0) {
    /* Exit 0 when tree-sitter-c parses FILE with no error: only such files make the C input,
     * so that the C figure is not slowed by error recovery. */
    size_t len = 0;
    char *text = slurp(argv[2], &len);
    if (!text) return 2;
    TSParser *p = ts_parser_new();
    ts_parser_set_language(p, tree_sitter_c());
    TSTree *tree = ts_parser_parse_string(p, NULL, text, (uint32_t)len);
    int bad = ts_node_has_error(ts_tree_root_node(tree));
    ts_tree_delete(tree);
    ts_parser_delete(p);
    free(text);
    return bad;
  }
  if (argc != 4) {
    fprintf(stderr, "usage: parse_bench VX_FILE C_FILE RUNS\n");
    return 2;
  }
  int runs = atoi(argv[3]);
  if (runs < 1) runs = 1;
  size_t vx_len = 0, c_len = 0;
  char *vx = slurp(argv[1], &vx_len), *c = slurp(argv[2], &c_len);
  if (!vx || !c) {
    fprintf(stderr, "parse_bench: cannot read the inputs\n");
    return 2;
  }
  int vx_err = 0, c_err = 0;
  printf("vx: %s, %zu bytes (%.2f MB)\n", argv[1], vx_len, (double)vx_len / 1e6);
  printf("c (tree-sitter-c): %s, %zu bytes (%.2f MB)\n", argv[2], c_len, (double)c_len / 1e6);
  TSParser *pv = parser_for(tree_sitter_vx()), *pc = parser_for(tree_sitter_c());
  double *mv = malloc(sizeof(double) * (size_t)runs), *mc = malloc(sizeof(double) * (size_t)runs);
  if (!mv || !mc) return 2;
  /* Alternate the two so that a noisy machine slows both alike. */
  for (int i = 0; i < runs; i++) {
    mv[i] = parse_once(pv, vx, vx_len, &vx_err);
    mc[i] = parse_once(pc, c, c_len, &c_err);
  }
  double vx_mbps = report("vx", mv, runs, vx_err);
  double c_mbps = report("c ", mc, runs, c_err);
  printf("ratio vx/c per byte: %.2f (%s)\n", vx_mbps / c_mbps,
         vx_mbps >= c_mbps ? "Vx parses at least as fast as C" : "Vx parses slower than C");
  free(mv);
  free(mc);
  ts_parser_delete(pv);
  ts_parser_delete(pc);
  free(vx);
  free(c);
  /* A broken Vx tree means the benchmark measured error recovery, not the grammar. */
  return vx_err ? 1 : 0;
}
