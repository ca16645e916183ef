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
  vxp_allocator alloc;
  int errcode;
  char errmsg[VXP__ERRMSG_SIZE];
  const TSLanguage *language;
  TSParser *parser;
  vxp_symbols syms;
  vxp_fields fields;
  uint64_t next_source_id; /* identifies source versions for incremental reparsing */
};

#endif /* VXP_CONTEXT_H */
