/* SPDX-License-Identifier: Apache-2.0 */
/* arena.h - memory that lives exactly as long as the handle owning it, given back by one
 * vxp_arena__free: small requests are carved out of shared blocks (the first 2 KiB, each next
 * one twice the last, up to 64 KiB: a small handle holds a few KiB, not 64), a large one gets
 * a block of its own (so that a handle's big tables cost no slack), and every block comes from the
 * owning context's allocator (a refused block is a NULL, never an abort). Nothing in an arena
 * is freed alone. A handle made with VXP_ARENA_HANDLE lives in its own arena together with
 * everything it owns: its tables grow there (arena_push), its texts are vxp_sb bound to it,
 * so freeing it is vxp_arena__free_handle and no list of its parts exists to forget one. A
 * growable array built with its own storage can also be moved in whole once it is final
 * (vxp_arena__adopt: the analysis' tables). */
#ifndef VXP_ARENA_H
#define VXP_ARENA_H

#include <stddef.h>

#include "internal.h"

struct vxp_arena_block;
struct vxp_arena_adopted;

/* A zeroed arena is empty and valid. Invariant: `used` <= the head block's size; every
 * block on the chain, and every adopted block, came from the owning context's allocator. */
typedef struct vxp_arena {
  struct vxp_arena_block *head; /* the shared block being filled; older blocks follow it */
  size_t used;                  /* bytes taken from head */
  void *last; /* the latest request carved from head, which may grow in place; or NULL */
  struct vxp_arena_adopted *adopted; /* large tables taken over where they lie */
  size_t next_block; /* the next shared block's size (0: the first's): they double */
} vxp_arena;

/* `size` bytes aligned for any object, zeroed; NULL on allocation failure or overflow. */
void *vxp_arena__alloc(vxp_context *ctx, vxp_arena *arena, size_t size);

/* vxp_arena__alloc not zeroed, for memory the caller fills at once (a splice's copies). */
void *vxp_arena__alloc_uninit(vxp_context *ctx, vxp_arena *arena, size_t size);

/* Move `len` elements of `elem` bytes at *items (storage from ctx's allocator) into the
 * arena. A small table is copied into a shared block and its old storage freed; a large one
 * (over a quarter of a shared block, which would get a block of its own) is taken over where
 * it lies, its spare capacity given back, so that sealing a large table neither copies it
 * nor holds it twice at once. *items then points at the arena's table. An empty array ends
 * NULL (storage reserved for it is freed). False on allocation failure, with *items
 * untouched and still the caller's. */
bool vxp_arena__adopt(vxp_context *ctx, vxp_arena *arena, void **items, size_t len, size_t elem);

/* Make room for `extra` more elements of `elem` bytes in a table whose storage is the arena's
 * (*items NULL, or from this function): as vxp_array__reserve, but the storage grows in the
 * arena. The latest request carved from the shared block grows where it is while the block
 * has room; otherwise the table moves to a new place and its old one stays, unused, until
 * the arena is freed (doubling, so what is left behind is less than the table). False on
 * allocation failure or overflow, with the table untouched. */
bool vxp_arena__reserve(vxp_context *ctx, vxp_arena *arena, void **items, size_t *cap, size_t len,
                        size_t extra, size_t elem);

/* array_reserve / array_push of array.h for an Array(T) kept in `arena`. */
#define arena_reserve(ctx, arena, a, extra)                                                        \
  vxp_arena__reserve((ctx), (arena), (void **)&(a)->items, &(a)->cap, (a)->len, (extra),           \
                     sizeof(*(a)->items))
#define arena_push(ctx, arena, a, value)                                                           \
  (arena_reserve((ctx), (arena), (a), 1) ? ((a)->items[(a)->len++] = (value), true) : false)

/* A zeroed handle of `size` bytes allocated from its own arena, which it holds at byte
 * `arena_at` (the first request of that arena: a handle and its parts share the first
 * block). The first block holds `first` bytes when the handle can tell what it will need
 * (kept between the first shared block's size and the largest's; 0: the smallest), and the
 * blocks after it double from there. NULL on allocation failure. Give it back with
 * vxp_arena__free_handle. */
void *vxp_arena__handle(vxp_context *ctx, size_t size, size_t arena_at, size_t first);
#define VXP_ARENA_HANDLE(ctx, type, field)                                                         \
  ((type *)vxp_arena__handle((ctx), sizeof(type), offsetof(type, field), 0))
#define VXP_ARENA_HANDLE_SIZED(ctx, type, field, first)                                            \
  ((type *)vxp_arena__handle((ctx), sizeof(type), offsetof(type, field), (first)))

/* Free a handle made by vxp_arena__handle, given its arena (`own`, inside the handle), and
 * everything allocated from that arena: one vxp_arena__free. */
void vxp_arena__free_handle(vxp_context *ctx, vxp_arena *own);

/* A copy of `s` in the arena; NULL on allocation failure. */
char *vxp_arena__strdup(vxp_context *ctx, vxp_arena *arena, const char *s);

/* Move every block of `from` into `to` (they are given back with it); `from` is left empty.
 * `to`'s shared block stays the one being filled. */
void vxp_arena__take(vxp_arena *to, vxp_arena *from);

/* Give every block back in one walk; the arena is empty afterwards. */
void vxp_arena__free(vxp_context *ctx, vxp_arena *arena);

/* How many blocks the arena holds, adopted tables included (the free calls
 * vxp_arena__free makes). */
size_t vxp_arena__blocks(const vxp_arena *arena);

/* The bytes the arena holds from its context's allocator: its blocks (headers included) and
 * the tables it adopted. */
size_t vxp_arena__held(const vxp_arena *arena);

#endif /* VXP_ARENA_H */
