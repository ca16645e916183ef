/* SPDX-License-Identifier: Apache-2.0 */
/* strtab.c - string interning with an open-addressing hash table (FNV-1a). */
#include "strtab.h"

static uint32_t hash_bytes(const char *s, size_t len) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++) {
    h ^= (unsigned char)s[i];
    h *= 16777619u;
  }
  return h;
}

int vxp_strtab__init(vxp_context *ctx, vxp_strtab *tab) {
  return vxp_strtab__init_in(ctx, tab, NULL);
}

int vxp_strtab__init_in(vxp_context *ctx, vxp_strtab *tab, vxp_arena *pool) {
  memset(tab, 0, sizeof(*tab));
  tab->pool = pool ? pool : &tab->own;
  tab->slot_count = 64;
  tab->slots = vxp_ctx__calloc(ctx, tab->slot_count, sizeof(vxp_name));
  char *empty = vxp_arena__alloc(ctx, tab->pool, 1);
  if (!tab->slots || !empty || !array_push(ctx, &tab->strings, empty) ||
      !array_push(ctx, &tab->lengths, 0)) {
    vxp_strtab__free(ctx, tab);
    return VXP_ENOMEM;
  }
  return VXP_OK;
}

/* A copy of `len` bytes of `s`, NUL-terminated, in the table's pool; NULL when out of memory. */
static char *pool_copy(vxp_context *ctx, vxp_strtab *tab, const char *s, size_t len) {
  char *copy = vxp_arena__alloc(ctx, tab->pool, len + 1); /* zeroed: the NUL is there */
  if (copy && len) memcpy(copy, s, len);
  return copy;
}

void vxp_strtab__free(vxp_context *ctx, vxp_strtab *tab) {
  vxp_arena__free(ctx, &tab->own); /* an outside pool goes with its owner */
  array_free(ctx, &tab->strings);
  array_free(ctx, &tab->lengths);
  vxp_ctx__free(ctx, tab->slots);
  tab->slots = NULL;
  tab->slot_count = 0;
}

int vxp_strtab__copy(vxp_context *ctx, vxp_strtab *to, const vxp_strtab *from, vxp_arena *pool) {
  memset(to, 0, sizeof(*to));
  to->pool = pool ? pool : &to->own;
  size_t n = from->strings.len;
  to->slots = vxp_ctx__calloc(ctx, from->slot_count, sizeof(vxp_name));
  if (!to->slots || !array_reserve(ctx, &to->strings, n) || !array_reserve(ctx, &to->lengths, n)) {
    vxp_strtab__free(ctx, to);
    return VXP_ENOMEM;
  }
  to->slot_count = from->slot_count;
  memcpy(to->slots, from->slots, from->slot_count * sizeof(vxp_name));
  memcpy(to->lengths.items, from->lengths.items, n * sizeof(uint32_t));
  to->lengths.len = n;
  for (size_t i = 0; i < n; i++) {
    char *copy = pool_copy(ctx, to, from->strings.items[i], from->lengths.items[i]);
    if (!copy) {
      vxp_strtab__free(ctx, to);
      return VXP_ENOMEM;
    }
    to->strings.items[to->strings.len++] = copy;
  }
  return VXP_OK;
}

int vxp_strtab__renumber(vxp_context *ctx, vxp_strtab *tab, const vxp_name *map) {
  size_t n = tab->strings.len;
  char **strings = vxp_ctx__malloc(ctx, (n ? n : 1) * sizeof(char *));
  uint32_t *lengths = vxp_ctx__malloc(ctx, (n ? n : 1) * sizeof(uint32_t));
  if (!strings || !lengths) {
    vxp_ctx__free(ctx, strings);
    vxp_ctx__free(ctx, lengths);
    return VXP_ENOMEM;
  }
  for (size_t i = 0; i < n; i++) {
    strings[map[i]] = tab->strings.items[i];
    lengths[map[i]] = tab->lengths.items[i];
  }
  if (n) {
    memcpy(tab->strings.items, strings, n * sizeof(char *));
    memcpy(tab->lengths.items, lengths, n * sizeof(uint32_t));
  }
  vxp_ctx__free(ctx, strings);
  vxp_ctx__free(ctx, lengths);
  for (size_t i = 0; i < tab->slot_count; i++)
    if (tab->slots[i] != VXP_NAME_NONE) tab->slots[i] = map[tab->slots[i]];
  return VXP_OK;
}

static size_t probe(const vxp_strtab *tab, const char *s, size_t len, uint32_t hash) {
  size_t mask = tab->slot_count - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    vxp_name id = tab->slots[i];
    if (id == VXP_NAME_NONE) return i;
    if (tab->lengths.items[id] == len && memcmp(tab->strings.items[id], s, len) == 0) return i;
  }
}

static bool grow(vxp_context *ctx, vxp_strtab *tab) {
  size_t count = tab->slot_count * 2;
  vxp_name *slots = vxp_ctx__calloc(ctx, count, sizeof(vxp_name));
  if (!slots) return false;
  size_t mask = count - 1;
  for (size_t id = 1; id < tab->strings.len; id++) {
    uint32_t h = hash_bytes(tab->strings.items[id], tab->lengths.items[id]);
    size_t i = h & mask;
    while (slots[i] != VXP_NAME_NONE)
      i = (i + 1) & mask;
    slots[i] = (vxp_name)id;
  }
  vxp_ctx__free(ctx, tab->slots);
  tab->slots = slots;
  tab->slot_count = count;
  return true;
}

vxp_name vxp_strtab__find(const vxp_strtab *tab, const char *s, size_t len) {
  if (len == 0) return VXP_NAME_NONE;
  return tab->slots[probe(tab, s, len, hash_bytes(s, len))];
}

vxp_name vxp_strtab__intern(vxp_context *ctx, vxp_strtab *tab, const char *s, size_t len) {
  if (len == 0) return VXP_NAME_NONE;
  if (len > UINT32_MAX) return VXP_NAME_ERROR;
  uint32_t h = hash_bytes(s, len);
  size_t slot = probe(tab, s, len, h);
  if (tab->slots[slot] != VXP_NAME_NONE) return tab->slots[slot];
  if ((tab->strings.len + 1) * 2 > tab->slot_count) {
    if (!grow(ctx, tab)) return VXP_NAME_ERROR;
    slot = probe(tab, s, len, h);
  }
  if (tab->strings.len >= VXP_NAME_ERROR - 1) return VXP_NAME_ERROR;
  char *copy = pool_copy(ctx, tab, s, len);
  if (!copy) return VXP_NAME_ERROR;
  if (!array_reserve(ctx, &tab->strings, 1) || !array_reserve(ctx, &tab->lengths, 1))
    return VXP_NAME_ERROR; /* the copy stays in the pool, unused */
  vxp_name id = (vxp_name)tab->strings.len;
  tab->strings.items[tab->strings.len++] = copy;
  tab->lengths.items[tab->lengths.len++] = (uint32_t)len;
  tab->slots[slot] = id;
  return id;
}
