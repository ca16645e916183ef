/* SPDX-License-Identifier: Apache-2.0 */
/* support.h - shared helpers of the CMocka unit tests: a context whose allocator is
 * CMocka's (so every test also checks that libvxpeak frees what it allocates), and
 * one-call analysis of a program held in a string. */
#ifndef VXP_TEST_SUPPORT_H
#define VXP_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vxpeak.h"

static void *test_alloc_malloc(size_t size, void *ud) {
  (void)ud;
  return test_malloc(size);
}
static void *test_alloc_realloc(void *ptr, size_t size, void *ud) {
  (void)ud;
  return test_realloc(ptr, size);
}
static void test_alloc_free(void *ptr, void *ud) {
  (void)ud;
  test_free(ptr);
}

static const vxp_allocator test_allocator = {test_alloc_malloc, test_alloc_realloc, test_alloc_free,
                                             NULL};

static inline vxp_context *test_context(void) {
  vxp_context_options opts = VXP_CONTEXT_OPTIONS_INIT;
  opts.allocator = &test_allocator;
  vxp_context *ctx = NULL;
  assert_int_equal(vxp_context_new(&ctx, &opts), VXP_OK);
  return ctx;
}

/* A vxp_write_fn's sink (test_sink_write): the text it was handed (NUL-terminated, NULL when
 * none), how many pieces and the largest, whether a piece was empty, and it refuses the piece
 * numbered `refuse_at` (from 1; 0: none), counted but not kept. The caller frees `text` with
 * free(). */
typedef struct test_sink {
  char *text;
  size_t len, pieces, largest, refuse_at;
  bool empty_piece;
} test_sink;

static inline int test_sink_write(void *arg, const char *bytes, size_t len) {
  test_sink *t = arg;
  t->pieces++;
  if (len == 0) t->empty_piece = true;
  if (t->refuse_at && t->pieces == t->refuse_at) return 1;
  t->text = realloc(t->text, t->len + len + 1); /* libc's: the caller frees it */
  assert_non_null(t->text);
  memcpy(t->text + t->len, bytes, len);
  t->len += len;
  t->text[t->len] = '\0';
  if (len > t->largest) t->largest = len;
  return 0;
}

/* Everything one analysis owns, freed together by test_done. */
typedef struct test_run {
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
  vxp_source *machine_src;
  vxp_machine *machine;
  vxp_machine *host;
  vxp_analysis *an;
} test_run;

/* Analyse `text` against its own declarations and, when given, machine text `machine`
 * and the default host. */
static inline test_run test_analyse_with(const char *text, const char *machine, int default_host) {
  test_run r;
  memset(&r, 0, sizeof(r));
  r.ctx = test_context();
  assert_int_equal(vxp_source_new(&r.src, r.ctx, "test.vx", text, strlen(text)), VXP_OK);
  assert_int_equal(vxp_program_parse(&r.prog, r.ctx, r.src), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  if (machine) {
    assert_int_equal(vxp_source_new(&r.machine_src, r.ctx, "machine.vx", machine, strlen(machine)),
                     VXP_OK);
    assert_int_equal(vxp_machine_load(&r.machine, r.ctx, r.machine_src), VXP_OK);
    opts.machine = r.machine;
  }
  if (default_host) {
    assert_int_equal(vxp_machine_builtin(&r.host, r.ctx, "host-default"), VXP_OK);
    opts.host = r.host;
  }
  assert_int_equal(vxp_analyze(&r.an, r.ctx, r.prog, &opts), VXP_OK);
  return r;
}

static inline test_run test_analyse(const char *text) { return test_analyse_with(text, NULL, 0); }

static inline void test_done(test_run *r) {
  vxp_analysis_free(r->an);
  vxp_machine_free(r->host);
  vxp_machine_free(r->machine);
  vxp_source_free(r->machine_src);
  vxp_program_free(r->prog);
  vxp_source_free(r->src);
  vxp_context_free(r->ctx);
}

/* The first diagnostic with `code`, or NULL. */
static inline const vxp_diagnostic *test_find_diag(const vxp_analysis *an, const char *code) {
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(an); i++) {
    const vxp_diagnostic *d = vxp_analysis_diagnostic(an, i);
    const char *c = vxp_diagnostic_code(d);
    if (c && strcmp(c, code) == 0) return d;
  }
  return NULL;
}

static inline size_t test_count_diag(const vxp_analysis *an, const char *code) {
  size_t n = 0;
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(an); i++) {
    const char *c = vxp_diagnostic_code(vxp_analysis_diagnostic(an, i));
    if (c && strcmp(c, code) == 0) n++;
  }
  return n;
}

/* The resident set of `function` in `space`, or NULL. */
static inline const vxp_resident_set *test_resident(const vxp_analysis *an, const char *function,
                                                    const char *space) {
  for (size_t i = 0; i < vxp_analysis_resident_set_count(an); i++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(an, i);
    if (strcmp(vxp_resident_set_function(rs), function) == 0 &&
        strcmp(vxp_resident_set_space(rs), space) == 0)
      return rs;
  }
  return NULL;
}

/* The fixture machine of vxc's own tests: W is a 4 MiB explicit space under CPU_DRAM. */
#define TEST_MACHINE_4MIB                                                                          \
  "Memory CPU_DRAM {}\n"                                                                           \
  "Memory W { within: Memory::CPU_DRAM, capacity: 4 MiB, managed: explicit }\n"                    \
  "Topology Dev { arch: nvptx64, memory: Memory::W, visible: [Memory::W],\n"                       \
  "  transfer Memory::CPU_DRAM -> Memory::W : 10\n"                                                \
  "  transfer Memory::W -> Memory::CPU_DRAM : 10 }\n"

#endif /* VXP_TEST_SUPPORT_H */
