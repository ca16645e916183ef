/* SPDX-License-Identifier: Apache-2.0 */
/* tag.h - the kind tag each handle a caller frees starts with, checked by the public
 * functions that take one.
 *
 * A handle passed to C from a language without C's types (ctypes, a foreign-function
 * layer) can be of the wrong kind, or already freed; read as the struct the function
 * expects, it is a crash at best. So each such struct's first member is `tag`, set to its
 * kind's VXP_TAG_* when it is made and to VXP_TAG_FREED when it is freed, and every public
 * function taking one checks it first (the kind of check SQLite makes of a connection's magic
 * number): a handle whose tag is not its kind's is VXP_EMISUSE (with the message on the
 * context when the function takes a valid one), or the function's "nothing" value (0, NULL)
 * for an accessor that returns no code, and a free of one is ignored. NULL keeps its
 * documented meaning (VXP_EINVAL, or nothing). What this cannot catch is in
 * include/vxpeak.h ("Handle checks").
 *
 * Each check is one line at the top of its function (VXP__TAG / VXP__TAG_RC), so that a
 * merge that moves functions moves it with them. Building with -DVXP_NO_HANDLE_TAGS
 * compiles the checks out (the tags are still written): `make bench` measures their cost
 * that way (tests/bench/bench_handle_tags.sh). */
#ifndef VXP_TAG_H
#define VXP_TAG_H

#include <stdbool.h>
#include <stdint.h>

#include "vxpeak.h"

/* The tags: unlikely as the first four bytes of anything else (ASCII "vxp" and a kind). */
enum {
  VXP_TAG_FREED = 0,
  VXP_TAG_CONTEXT = 0x76787001,
  VXP_TAG_SOURCE = 0x76787002,
  VXP_TAG_PROGRAM = 0x76787003,
  VXP_TAG_MACHINE = 0x76787004,
  VXP_TAG_ANALYSIS = 0x76787005,
  VXP_TAG_SWEEP = 0x76787006,
  VXP_TAG_ROOFLINE = 0x76787007,
  VXP_TAG_FRONTIER = 0x76787008,
  VXP_TAG_REPORT = 0x76787009,
  VXP_TAG_CUDA = 0x7678700a,
  VXP_TAG_FORMULA = 0x7678700b
};

/* True when `h` is NULL (left to the function's own NULL handling) or starts with `tag`. */
static inline bool vxp_tag__ok(const void *h, uint32_t tag) {
  return !h || *(const uint32_t *)h == tag;
}

/* VXP_EMISUSE, with a message naming the kind on `ctx` when `ctx` is a live context. */
int vxp_tag__misuse(vxp_context *ctx, uint32_t tag);

#ifdef VXP_NO_HANDLE_TAGS
#define VXP__TAG(h, tag, nothing) ((void)0)
#define VXP__TAG_RC(ctx, h, tag) ((void)0)
#else
/* On entry of a function that returns no code: `nothing` (empty for void) for a bad handle. */
#define VXP__TAG(h, tag, nothing)                                                                  \
  do {                                                                                             \
    if (!vxp_tag__ok((h), (tag))) return nothing;                                                  \
  } while (0)
/* On entry of a function that returns a code: VXP_EMISUSE, reported on `ctx` (may be NULL). */
#define VXP__TAG_RC(ctx, h, tag)                                                                   \
  do {                                                                                             \
    if (!vxp_tag__ok((h), (tag))) return vxp_tag__misuse((ctx), (tag));                            \
  } while (0)
#endif

#endif /* VXP_TAG_H */
