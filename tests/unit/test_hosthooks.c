/* SPDX-License-Identifier: Apache-2.0 */
/* test_hosthooks.c - a host program that replaced tree-sitter's allocator
 * (ts_set_allocator) or jansson's (json_set_alloc_funcs) keeps working: everything
 * tree-sitter allocates is given back to the allocator that made it, never to libc's free,
 * and the library makes no jansson calls at all (its JSON is streamed, lib/report/).
 * The replacement allocators here put a header in front of every block, so a block freed
 * by the wrong function crashes (or is reported by ASan) instead of passing silently. */
#include <jansson.h>
#include <tree_sitter/api.h>

#include "support.h"

/* ------------------------------------------------------------------ host allocators */

#define MAGIC 0x5e1f5e1fu

typedef union host_header {
  struct {
    unsigned magic;
    size_t size;
  } h;
  max_align_t align;
} host_header;

static long host_live; /* blocks the host allocators handed out and got back */
static long host_calls;

static void *host_malloc(size_t size) {
  host_header *h = malloc(sizeof(*h) + size);
  if (!h) return NULL;
  h->h.magic = MAGIC;
  h->h.size = size;
  host_live++;
  host_calls++;
  return h + 1;
}

static void *host_calloc(size_t count, size_t size) {
  void *p = host_malloc(count * size);
  if (p) memset(p, 0, count * size);
  return p;
}

static void host_free(void *ptr) {
  if (!ptr) return;
  host_header *h = (host_header *)ptr - 1;
  assert_int_equal(h->h.magic, MAGIC); /* a block this allocator did not make */
  h->h.magic = 0;
  host_live--;
  free(h);
}

static void *host_realloc(void *ptr, size_t size) {
  if (!ptr) return host_malloc(size);
  host_header *h = (host_header *)ptr - 1;
  assert_int_equal(h->h.magic, MAGIC);
  host_header *grown = realloc(h, sizeof(*h) + size);
  if (!grown) return NULL;
  grown->h.size = size;
  host_calls++;
  return grown + 1;
}

static const char program[] =
    "Memory CPU_DRAM {}\n"
    "Memory W { within: Memory::CPU_DRAM, capacity: 4 MiB, managed: explicit }\n"
    "fn main() -> i32 {\n"
    "  let a = transfer(Tensor<f32, [512, 512]>::uninit(), Memory::W);\n"
    "  print(a);\n"
    "  return 0;\n"
    "}\n";

/* Parse, analyse, render the tree and the report, free everything. */
static void session(void) {
  vxp_context *ctx = test_context();
  vxp_source *src;
  vxp_program *prog;
  vxp_analysis *an;
  assert_int_equal(vxp_source_new(&src, ctx, "hooks.vx", program, strlen(program)), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_int_equal(vxp_analyze(&an, ctx, prog, NULL), VXP_OK);
  const char *sexp = vxp_program_sexp(prog);
  assert_non_null(sexp);
  assert_non_null(strstr(sexp, "(source_file"));
  const char *json = vxp_analysis_json(an, NULL);
  assert_non_null(json);
  assert_non_null(strstr(json, "\"total_bytes\": 1048576"));
  assert_non_null(vxp_analysis_sarif(an, NULL));
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

static void test_hosthooks__tree_sitter_allocator_of_the_host(void **state) {
  (void)state;
  host_live = host_calls = 0;
  ts_set_allocator(host_malloc, host_calloc, host_realloc, host_free);
  session();
  ts_set_allocator(NULL, NULL, NULL, NULL);
  assert_true(host_calls > 0);    /* tree-sitter did use the host's allocator */
  assert_int_equal(host_live, 0); /* and got every block back */
}

static void test_hosthooks__jansson_allocator_of_the_host_is_never_called(void **state) {
  (void)state;
  host_live = host_calls = 0;
  json_set_alloc_funcs(host_malloc, host_free);
  session();
  json_set_alloc_funcs(malloc, free);
  /* The JSON report and SARIF log are written into the context's buffers: a host's jansson
   * allocator sees nothing of libvxpeak (it saw every node of the report's tree before). */
  assert_int_equal(host_calls, 0);
  assert_int_equal(host_live, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hosthooks__tree_sitter_allocator_of_the_host),
      cmocka_unit_test(test_hosthooks__jansson_allocator_of_the_host_is_never_called),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
