/* SPDX-License-Identifier: Apache-2.0 */
/* arena.h - memory that lives exactly as long as the handle owning it, given back by one
 * vxp_arena__free: small requests are carved out of shared blocks, a large one gets a block
 * of its own (so that a handle's big tables cost no slack), and every block comes from the
 * owning context's allocator (a refused block is a NULL, never an abort). Nothing in an arena
 * is freed or grown alone: a growable array is built with its own storage and moved in once
 * it is final (vxp_arena__adopt). */
#ifndef VXP_ARENA_H
#define VXP_ARENA_H

#include "internal.h"

struct vxp_arena_block;

/* A zeroed arena is empty and valid. Invariant: `used` <= the head block's size; every
 * block on the chain came from the owning context's allocator. */
typedef struct vxp_arena {
  struct vxp_arena_block *head; /* the shared block being filled; older blocks follow it */
  size_t used;                  /* bytes taken from head */
} vxp_arena;

/* `size` bytes aligned for any object, zeroed; NULL on allocation failure or overflow. */
void *vxp_arena__alloc(vxp_context *ctx, vxp_arena *arena, size_t size);

/* Move `len` elements of `elem` bytes at *items (storage from ctx's allocator) into the
 * arena: *items then points at the arena's copy and the old storage is freed. An empty
 * array ends NULL (storage reserved for it is freed). False on allocation failure, with
 * *items untouched. */
bool vxp_arena__adopt(vxp_context *ctx, vxp_arena *arena, void **items, size_t len, size_t elem);

/* One piece of a handle for vxp_arena__pack: `bytes` bytes at *items (from the context's
 * allocator; NULL or 0 bytes: nothing to move). */
typedef struct vxp_arena_part {
  void **items;
  size_t bytes;
} vxp_arena_part;

/* Move a finished handle and its tables into one block of the arena's own, sized exactly:
 * the parts are copied last to first and each *items is pointed at its copy as soon as it is
 * made, so a part may hold the pointers of the parts after it (a handle comes first, then
 * its tables; its copy then holds the tables' new places). The old storage is freed once
 * everything is copied. At most 16 parts. False on allocation failure or overflow, or more
 * parts, with nothing moved. */
bool vxp_arena__pack(vxp_context *ctx, vxp_arena *arena, const vxp_arena_part *parts, size_t n);

/* A copy of `s` in the arena; NULL on allocation failure. */
char *vxp_arena__strdup(vxp_context *ctx, vxp_arena *arena, const char *s);

/* Give every block back in one walk; the arena is empty afterwards. */
void vxp_arena__free(vxp_context *ctx, vxp_arena *arena);

/* How many blocks the arena holds (what vxp_arena__free gives back). */
size_t vxp_arena__blocks(const vxp_arena *arena);

#endif /* VXP_ARENA_H */
