/* SPDX-License-Identifier: Apache-2.0 */
/* arena.c - a handle's memory, given back in one call (arena.h). */
#include "arena.h"

#include <stdalign.h>
#include <stddef.h>

/* The shared blocks' sizes: the first is small (a roofline, a sweep or a small machine
 * needs a few KiB, and an editor holds one analysis and one program per version), each next
 * one doubles, up to the largest, so an arena of n bytes takes about log2(n / first) blocks.
 * A request over a quarter of the largest gets a block of its own; what a shared block
 * leaves unused at its end is less than the request that did not fit. */
#define VXP__ARENA_FIRST ((size_t)2 * 1024)
#define VXP__ARENA_BLOCK ((size_t)64 * 1024)

struct vxp_arena_block {
  struct vxp_arena_block *next; /* the block made before this one */
  size_t size;                  /* bytes of `data` */
  bool own;                     /* one request's alone (it may grow by realloc) */
  alignas(max_align_t) unsigned char data[];
};

/* A table taken over by vxp_arena__adopt where it lay; the node itself is carved from the
 * arena, so the adopted blocks are given back before the arena's own. */
struct vxp_arena_adopted {
  struct vxp_arena_adopted *next;
  void *block;
  size_t size;
};

static size_t round_up(size_t n) {
  size_t a = alignof(max_align_t);
  return (n + a - 1) / a * a;
}

/* vxp_arena__alloc, zeroed only when `zero` (a table moved in is overwritten at once). */
static void *arena_alloc(vxp_context *ctx, vxp_arena *arena, size_t size, bool zero) {
  if (size > SIZE_MAX / 2) return NULL;
  size = round_up(size ? size : 1);
  struct vxp_arena_block *b = arena->head;
  VXP__ASSERT(!b || arena->used <= b->size);
  if (b && b->size - arena->used >= size) {
    void *p = b->data + arena->used;
    arena->used += size;
    arena->last = p;
    if (zero) memset(p, 0, size);
    return p;
  }
  bool own = size > VXP__ARENA_BLOCK / 4;
  size_t data = arena->next_block ? arena->next_block : VXP__ARENA_FIRST;
  if (own) data = size;
  while (data < size) /* a request larger than the next shared block starts a larger one */
    data *= 2;
  struct vxp_arena_block *nb = vxp_ctx__malloc(ctx, offsetof(struct vxp_arena_block, data) + data);
  if (!nb) return NULL;
  nb->size = data;
  nb->own = own;
  if (!own) arena->next_block = data < VXP__ARENA_BLOCK ? 2 * data : VXP__ARENA_BLOCK;
  if (own && b) {
    /* A block of its own goes behind the shared one being filled, which stays the head. */
    nb->next = b->next;
    b->next = nb;
  } else {
    nb->next = b;
    arena->head = nb;
    arena->used = size;
    arena->last = nb->data;
  }
  if (zero) memset(nb->data, 0, size);
  return nb->data;
}

void *vxp_arena__alloc(vxp_context *ctx, vxp_arena *arena, size_t size) {
  return arena_alloc(ctx, arena, size, true);
}

void *vxp_arena__alloc_uninit(vxp_context *ctx, vxp_arena *arena, size_t size) {
  return arena_alloc(ctx, arena, size, false);
}

bool vxp_arena__adopt(vxp_context *ctx, vxp_arena *arena, void **items, size_t len, size_t elem) {
  if (!*items) return true;
  if (len == 0) { /* reserved but left empty: nothing to move, and nothing to keep */
    vxp_ctx__free(ctx, *items);
    *items = NULL;
    return true;
  }
  if (elem && len > SIZE_MAX / 2 / elem) return false;
  if (len * elem > VXP__ARENA_BLOCK / 4) {
    struct vxp_arena_adopted *node = arena_alloc(ctx, arena, sizeof(*node), false);
    if (!node) return false;
    void *fit = vxp_ctx__realloc(ctx, *items, len * elem); /* shrinks: cannot fail for want */
    if (fit) *items = fit;
    node->block = *items;
    node->size = len * elem;
    node->next = arena->adopted;
    arena->adopted = node;
    return true;
  }
  void *copy = arena_alloc(ctx, arena, len * elem, false); /* filled below */
  if (!copy) return false;
  memcpy(copy, *items, len * elem);
  vxp_ctx__free(ctx, *items);
  *items = copy;
  return true;
}

bool vxp_arena__reserve(vxp_context *ctx, vxp_arena *arena, void **items, size_t *cap, size_t len,
                        size_t extra, size_t elem) {
  size_t need, bytes;
  if (__builtin_add_overflow(len, extra, &need)) return false;
  if (need <= *cap) return true;
  size_t new_cap = *cap ? *cap : 8;
  while (new_cap < need)
    if (__builtin_mul_overflow(new_cap, (size_t)2, &new_cap)) return false;
  if (__builtin_mul_overflow(new_cap, elem, &bytes) || bytes > SIZE_MAX / 2) return false;
  struct vxp_arena_block *b = arena->head;
  if (*items && *items == arena->last) { /* the shared block's latest: grow in place */
    size_t start = (size_t)((unsigned char *)*items - b->data);
    size_t end = start + round_up(bytes);
    if (end <= b->size) {
      memset(b->data + arena->used, 0, end - arena->used);
      arena->used = end;
      *cap = new_cap;
      return true;
    }
  }
  /* A table in a block of its own grows by realloc, where it is or moved by the allocator:
   * a large table leaves no old copies behind (the block's link is mended). */
  if (*items && bytes > VXP__ARENA_BLOCK / 4) {
    struct vxp_arena_block **link = &arena->head;
    while (*link && !((*link)->own && (*link)->data == *items))
      link = &(*link)->next;
    if (*link) {
      struct vxp_arena_block *old = *link;
      struct vxp_arena_block *nb =
          vxp_ctx__realloc(ctx, old, offsetof(struct vxp_arena_block, data) + round_up(bytes));
      if (!nb) return false;
      nb->size = round_up(bytes);
      *link = nb;
      if (nb == arena->head) arena->used = nb->size; /* nothing else is carved from it */
      if (arena->last == *items) arena->last = nb->data;
      *items = nb->data;
      *cap = new_cap;
      return true;
    }
  }
  void *grown = vxp_arena__alloc(ctx, arena, bytes);
  if (!grown) return false;
  if (len) memcpy(grown, *items, len * elem);
  *items = grown;
  *cap = new_cap;
  return true;
}

void *vxp_arena__handle(vxp_context *ctx, size_t size, size_t arena_at, size_t first) {
  VXP__ASSERT(arena_at + sizeof(vxp_arena) <= size);
  vxp_arena arena = {0};
  if (first > VXP__ARENA_BLOCK) first = VXP__ARENA_BLOCK;
  if (first > VXP__ARENA_FIRST) arena.next_block = round_up(first);
  unsigned char *h = vxp_arena__alloc(ctx, &arena, size);
  if (h) memcpy(h + arena_at, &arena, sizeof(arena));
  return h;
}

void vxp_arena__free_handle(vxp_context *ctx, vxp_arena *own) {
  vxp_arena arena = *own; /* `own` is inside the first block: free from a copy */
  vxp_arena__free(ctx, &arena);
}

char *vxp_arena__strdup(vxp_context *ctx, vxp_arena *arena, const char *s) {
  size_t n = strlen(s) + 1;
  char *copy = vxp_arena__alloc(ctx, arena, n);
  if (copy) memcpy(copy, s, n);
  return copy;
}

void vxp_arena__take(vxp_arena *to, vxp_arena *from) {
  if (from->adopted) { /* only an arena with blocks holds nodes */
    struct vxp_arena_adopted *tail = from->adopted;
    while (tail->next)
      tail = tail->next;
    tail->next = to->adopted;
    to->adopted = from->adopted;
    from->adopted = NULL;
  }
  if (!from->head) return;
  if (!to->head) {
    struct vxp_arena_adopted *adopted = to->adopted; /* from's joined it above */
    *to = *from;
    to->adopted = adopted;
  } else {
    struct vxp_arena_block *tail = from->head;
    while (tail->next)
      tail = tail->next;
    tail->next = to->head->next;
    to->head->next = from->head;
  }
  memset(from, 0, sizeof(*from));
}

void vxp_arena__free(vxp_context *ctx, vxp_arena *arena) {
  for (struct vxp_arena_adopted *a = arena->adopted; a; a = a->next) /* nodes in the blocks */
    vxp_ctx__free(ctx, a->block);
  arena->adopted = NULL;
  for (struct vxp_arena_block *b = arena->head, *next; b; b = next) {
    next = b->next;
    vxp_ctx__free(ctx, b);
  }
  arena->head = NULL;
  arena->used = 0;
  arena->last = NULL;
}

size_t vxp_arena__blocks(const vxp_arena *arena) {
  size_t n = 0;
  for (const struct vxp_arena_block *b = arena->head; b; b = b->next)
    n++;
  for (const struct vxp_arena_adopted *a = arena->adopted; a; a = a->next)
    n++;
  return n;
}

size_t vxp_arena__held(const vxp_arena *arena) {
  size_t n = 0;
  for (const struct vxp_arena_block *b = arena->head; b; b = b->next)
    n += offsetof(struct vxp_arena_block, data) + b->size;
  for (const struct vxp_arena_adopted *a = arena->adopted; a; a = a->next)
    n += a->size;
  return n;
}
