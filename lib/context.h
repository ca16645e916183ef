/* SPDX-License-Identifier: Apache-2.0 */
/* context.h - the context: allocator, last error, parser and cached grammar ids. */
#ifndef VXP_CONTEXT_H
#define VXP_CONTEXT_H

#include <tree_sitter/api.h>

#include "internal.h"
#include "symbols.h"

#define VXP__ERRMSG_SIZE 1024

/* Invariant: `parser` has `language` set; `syms`/`fields` were resolved from `language`.
 * `errcode` is VXP_OK when `errmsg` is empty. */
struct vxp_context {
  uint32_t tag; /* VXP_TAG_CONTEXT, first: checked on entry (tag.h) */
  vxp_allocator alloc;
  int errcode;
  char errmsg[VXP__ERRMSG_SIZE];
  const TSLanguage *language;
  TSParser *parser;
  vxp_symbols syms;
  vxp_fields fields;
  uint64_t next_source_id; /* identifies source versions for incremental reparsing */
  /* Cancellation: the caller's flag (read atomically, written by any thread), the time
   * budget of one call, and the monotonic deadline of the call under way (0: none).
   * `hold_deadline` keeps a call's deadline across the calls it makes itself (a sweep's
   * analyses); `polls` spaces out clock reads. */
  const size_t *cancel_flag;
  uint64_t budget_us;
  uint64_t deadline_ns;
  bool hold_deadline;
  bool timed_out;
  uint32_t polls;
  /* Bytes per window when a program that keeps no tree is parsed in windows (program.c);
   * 0: VXP_PARSE_WINDOW. Set only by tests, to parse small texts in many windows. */
  uint32_t parse_window;
};

/* True when the call under way must stop: the cancellation flag is raised or its time
 * budget has run out. Cheap enough for every loop iteration (the clock is read on every
 * 64th poll). */
bool vxp_ctx__interrupted(vxp_context *ctx);

/* The parser's share of the budget: microseconds left of the call's deadline (at least
 * 1), or 0 when the call has none. Also installs the cancellation flag on the parser. */
uint64_t vxp_ctx__arm_parser(vxp_context *ctx);

/* Record VXP_ECANCELLED with a message saying which of flag or budget stopped the call. */
int vxp_ctx__cancelled(vxp_context *ctx);

#endif /* VXP_CONTEXT_H */
