/* SPDX-License-Identifier: Apache-2.0 */
/* scope_index.c - the newest binding of a name by hash (scope_index.h). */
#include <string.h>

#include "context.h"
#include "scope_index.h"

static uint64_t hash_bytes(const char *s, size_t len) {
  uint64_t h = 1469598103934665603u; /* FNV-1a */
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char)s[i]) * 1099511628211u;
  return h;
}

/* Rebuild the chains with `buckets` buckets, oldest entry first so each chain stays newest
 * first. */
static bool rehash(vxp_context *ctx, vxp_scope_index *x, size_t buckets) {
  uint32_t *heads = vxp_ctx__calloc(ctx, buckets, sizeof(*heads));
  if (!heads) return false;
  for (size_t i = 0; i < x->entries.len; i++) {
    vxp_scope_entry *e = &x->entries.items[i];
    size_t b = (size_t)(e->hash & (buckets - 1));
    e->next = heads[b];
    heads[b] = (uint32_t)(i + 1);
  }
  vxp_ctx__free(ctx, x->heads);
  x->heads = heads;
  x->buckets = buckets;
  return true;
}

bool vxp_scope_index__push(vxp_context *ctx, vxp_scope_index *x, const char *name, size_t len) {
  if (x->entries.len >= UINT32_MAX - 1 || len > UINT32_MAX) return false;
  if (x->entries.len + 1 > x->buckets * 2 &&
      !rehash(ctx, x, x->buckets ? x->buckets * 2 : 64)) /* chains of two on average */
    return false;
  vxp_scope_entry e = {name, (uint32_t)len, 0, hash_bytes(name, len)};
  if (!array_push(ctx, &x->entries, e)) return false;
  size_t i = x->entries.len - 1, b = (size_t)(e.hash & (x->buckets - 1));
  x->entries.items[i].next = x->heads[b];
  x->heads[b] = (uint32_t)(i + 1);
  return true;
}

void vxp_scope_index__truncate(vxp_scope_index *x, size_t mark) {
  while (x->entries.len > mark) {
    const vxp_scope_entry *e = &x->entries.items[--x->entries.len];
    x->heads[e->hash & (x->buckets - 1)] = e->next; /* it was its bucket's head */
  }
}

size_t vxp_scope_index__find(const vxp_scope_index *x, const char *name, size_t len) {
  if (!x->buckets) return SIZE_MAX;
  uint64_t h = hash_bytes(name, len);
  for (uint32_t k = x->heads[h & (x->buckets - 1)]; k; k = x->entries.items[k - 1].next) {
    const vxp_scope_entry *e = &x->entries.items[k - 1];
    if (e->hash == h && e->len == len && (len == 0 || memcmp(e->name, name, len) == 0))
      return k - 1;
  }
  return SIZE_MAX;
}

void vxp_scope_index__free(vxp_context *ctx, vxp_scope_index *x) {
  array_free(ctx, &x->entries);
  vxp_ctx__free(ctx, x->heads);
  memset(x, 0, sizeof(*x));
}
