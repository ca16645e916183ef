/* SPDX-License-Identifier: Apache-2.0 */
/* internal.h - shared private definitions: allocation through the context, checked
 * 64-bit arithmetic, assertions, and the small helpers every module uses. */
#ifndef VXP_INTERNAL_H
#define VXP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tag.h"
#include "vxpeak.h"

/* printf-style checking of a function's format string (argument `fmt_index`) against its
 * arguments (from `first_arg`, or 0 for a va_list). */
#if defined(__GNUC__)
#define VXP__PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define VXP__PRINTF(fmt_index, first_arg)
#endif

/* A function kept out of its callers. A recursive walk over the syntax tree holds one frame
 * per level of the input's nesting; a form's own work (its locals, and the helpers a
 * compiler would inline because each has one caller) goes in a function of its own, so that
 * the frames that stay on the stack per level are the small dispatching ones: under clang's
 * ASan every inlined local adds its redzones to the dispatcher's frame (8 KB a level once,
 * an 8 MB stack gone at 958 levels). */
#if defined(__GNUC__)
#define VXP__NOINLINE __attribute__((noinline))
#else
#define VXP__NOINLINE
#endif

/* Exact intermediate arithmetic: products of 64-bit figures are formed in 128 bits and
 * saturated or checked before they are stored. */
typedef unsigned __int128 u128;
typedef __int128 i128;

/* VXP__ASSERT(cond) checks an invariant a comment states ("Invariant: ..."). It is compiled
 * only when VXP_ASSERTIONS is defined, which the sanitizer builds do (make asan, make tsan):
 * there a broken invariant stops the test at once, with the condition and where it is. In a
 * release build it costs nothing and the library never aborts. The condition must have no
 * side effects. */
#if defined(VXP_ASSERTIONS)
void vxp__assert_failed(const char *cond, const char *file, int line);
#define VXP__ASSERT(cond) ((cond) ? (void)0 : vxp__assert_failed(#cond, __FILE__, __LINE__))
#else
#define VXP__ASSERT(cond) ((void)0)
#endif

/* VXP__CHECK(call) runs the check of a structure's "Invariant:" comments that its constructor
 * built (each module states its own: source.c, diag.c, program.c, machine_load.c,
 * analysis.c), under the same condition: compiled to nothing unless VXP_ASSERTIONS is
 * defined, so a release build pays nothing. */
#if defined(VXP_ASSERTIONS)
#define VXP__CHECK(call) call
#else
#define VXP__CHECK(call) ((void)0)
#endif

/* Every allocation goes through the context's allocator so that a failing allocator
 * yields VXP_ENOMEM and the test allocator sees every byte. */
void *vxp_ctx__malloc(vxp_context *ctx, size_t size);
void *vxp_ctx__calloc(vxp_context *ctx, size_t count, size_t size);
void *vxp_ctx__realloc(vxp_context *ctx, void *ptr, size_t size);
void vxp_ctx__free(vxp_context *ctx, void *ptr);
char *vxp_ctx__strndup(vxp_context *ctx, const char *s, size_t len);
char *vxp_ctx__strdup(vxp_context *ctx, const char *s);

/* Record a failure on the context and return `code`; the message is printf-formatted. */
int vxp_ctx__error(vxp_context *ctx, int code, const char *fmt, ...) VXP__PRINTF(3, 4);
/* Shorthand for the out-of-memory failure. */
int vxp_ctx__nomem(vxp_context *ctx);
/* Clear the last error (NULL is accepted). Every public call that can fail does this first,
 * so the context's error state always describes the latest such call (SQLite's rule). */
void vxp_ctx__clear_error(vxp_context *ctx);
/* Start a public call that can fail (NULL is accepted): clear the error state and, unless
 * an enclosing call holds its own, arm the context's time budget for this call. */
void vxp_ctx__begin(vxp_context *ctx);
/* Start a call that returns a cached rendering (vxp_analysis_json, ...): clear a stale
 * failure, but write nothing when the state is already clear, so that a shared object's
 * cached renderings are reads that several threads may make at once (make tsan). */
void vxp_ctx__begin_read(vxp_context *ctx);

/* Checked unsigned 64-bit arithmetic: return false on overflow, leaving *out unset. */
static inline bool vxp_add_u64(uint64_t a, uint64_t b, uint64_t *out) {
  return !__builtin_add_overflow(a, b, out);
}
static inline bool vxp_mul_u64(uint64_t a, uint64_t b, uint64_t *out) {
  return !__builtin_mul_overflow(a, b, out);
}

/* ceil(a / b) for b > 0 without overflow. */
static inline uint64_t vxp_div_ceil_u64(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

#define VXP__UNUSED(x) ((void)(x))
#define VXP__ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* An options struct's version as the header promises to read it: any from 1 to `current`
 * (an older caller's struct is shorter, and is read no further than its own fields). */
#define VXP__VERSION_OK(version, current) ((version) >= 1 && (version) <= (current))

#endif /* VXP_INTERNAL_H */
