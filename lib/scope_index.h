/* SPDX-License-Identifier: Apache-2.0 */
/* scope_index.h - the newest binding of a name in a stack of bindings that grows by one and
 * shrinks back to a mark (a walk's scopes), found by hash instead of a scan of the stack: a
 * scan made one function of n bindings cost n^2 (issue 33: 20,000 `let`s in one function
 * spent a fifth of `check` in the visibility walk's lookups).
 *
 * Entry i is the stack's binding i. Each bucket chains its entries newest first, so the
 * first entry of the name on the chain is the newest binding, and dropping entries from the
 * top (always the heads of their buckets) restores the chains as they were. */
#ifndef VXP_SCOPE_INDEX_H
#define VXP_SCOPE_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "array.h"

typedef struct vxp_scope_entry {
  const char *name; /* borrowed: the caller's binding keeps it alive */
  uint32_t len;
  uint32_t next; /* the bucket's previous head, index + 1 (0: none) */
  uint64_t hash;
} vxp_scope_entry;

typedef struct vxp_scope_index {
  Array(vxp_scope_entry) entries;
  uint32_t *heads; /* per bucket: its newest entry, index + 1 (0: none) */
  size_t buckets;  /* a power of two, or 0 before the first push */
} vxp_scope_index;

/* Push the binding of name[0..len) as entry `len` of the stack; false when out of memory
 * (then nothing changed). */
bool vxp_scope_index__push(vxp_context *ctx, vxp_scope_index *x, const char *name, size_t len);

/* Drop the entries from `mark` on (mark <= the entry count). */
void vxp_scope_index__truncate(vxp_scope_index *x, size_t mark);

/* The newest entry of name[0..len), SIZE_MAX when none. */
size_t vxp_scope_index__find(const vxp_scope_index *x, const char *name, size_t len);

void vxp_scope_index__free(vxp_context *ctx, vxp_scope_index *x);

#endif
