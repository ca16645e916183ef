/* SPDX-License-Identifier: Apache-2.0 */
/* strtab.h - string interning: every name in a program model is a small integer, so the
 * analysis compares names with `==` and never calls strcmp in its hot paths. */
#ifndef VXP_STRTAB_H
#define VXP_STRTAB_H

#include "arena.h"
#include "array.h"

/* An interned name. 0 is "no name"; VXP_NAME_ERROR signals allocation failure. */
typedef uint32_t vxp_name;
#define VXP_NAME_NONE ((vxp_name)0)
#define VXP_NAME_ERROR ((vxp_name)UINT32_MAX)

/* Invariant: strings[0] is "" (the none name); `slots` is an open-addressing table of
 * capacity `slot_count` (a power of two, at most half full) holding name ids, 0 = empty.
 * The strings' bytes are in `pool` (an arena: a name's text never moves, and a table of a
 * thousand names is one block to give back, not a thousand): the table's `own`, or the
 * arena of the program whose model holds it (vxp_strtab__init_in). The table is not copied
 * by value (`pool` may point into it). */
typedef struct vxp_strtab {
  vxp_arena *pool;
  vxp_arena own;
  Array(char *) strings;
  Array(uint32_t) lengths;
  vxp_name *slots;
  size_t slot_count;
} vxp_strtab;

int vxp_strtab__init(vxp_context *ctx, vxp_strtab *tab);

/* vxp_strtab__init with the strings in `pool` (NULL: the table's own), which outlives the
 * table. */
int vxp_strtab__init_in(vxp_context *ctx, vxp_strtab *tab, vxp_arena *pool);
void vxp_strtab__free(vxp_context *ctx, vxp_strtab *tab);

/* Make `to` a copy of `from` (the same names with the same ids), its strings in `pool` (NULL:
 * its own). VXP_OK or VXP_ENOMEM. */
int vxp_strtab__copy(vxp_context *ctx, vxp_strtab *to, const vxp_strtab *from, vxp_arena *pool);

/* Give every name `i` of `tab` the id map[i] (a permutation of the table's ids that keeps 0):
 * its text and length move there, and the lookup slots name the new ids (where a name's slot
 * is depends on its text only). VXP_OK or VXP_ENOMEM (then the table is unchanged). */
int vxp_strtab__renumber(vxp_context *ctx, vxp_strtab *tab, const vxp_name *map);

/* Intern `len` bytes of `s`; returns the name or VXP_NAME_ERROR on allocation failure. */
vxp_name vxp_strtab__intern(vxp_context *ctx, vxp_strtab *tab, const char *s, size_t len);

/* Look up without inserting; VXP_NAME_NONE when absent. */
vxp_name vxp_strtab__find(const vxp_strtab *tab, const char *s, size_t len);

/* The NUL-terminated text of `name` (borrowed from the table). */
static inline const char *vxp_strtab__str(const vxp_strtab *tab, vxp_name name) {
  return tab->strings.items[name];
}

#endif /* VXP_STRTAB_H */
