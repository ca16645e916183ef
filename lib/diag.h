/* SPDX-License-Identifier: Apache-2.0 */
/* diag.h - diagnostics: severity, stable code, message, range, notes, capacity facts. */
#ifndef VXP_DIAG_H
#define VXP_DIAG_H

#include <stdarg.h>

#include "array.h"

struct vxp_arena;

/* Capacity facts carried by E6009/E6010/E6027/E6028/W1028 (vxc's `capacity` object). */
typedef struct vxp_capacity_facts {
  bool present;
  char *space;
  uint64_t required_bytes;
  uint64_t available_bytes;
  bool has_tiles; /* false: `tiles` is null in the report */
  uint64_t tiles;
} vxp_capacity_facts;

/* Invariant: `message` is never NULL; `source` is non-NULL exactly when has_range. Notes
 * have severity NOTE and no notes or facts of their own. */
struct vxp_diagnostic {
  vxp_severity severity;
  char code[12]; /* "E6010"; "" when the diagnostic has no code */
  char *message;
  const vxp_source *source;
  bool has_range;
  vxp_range range;
  bool is_help;         /* a note that suggests a fix (`help:` in text output) */
  const char *function; /* the analysed function (or generic instance) it is about,
                           borrowed from the analysis; NULL when none */
  Array(struct vxp_diagnostic) notes;
  vxp_capacity_facts capacity;
};

typedef Array(vxp_diagnostic) vxp_diag_list;

/* Append a diagnostic; `src` may be NULL for one without a range. Returns the new
 * diagnostic (valid until the next append to `list`) or NULL on allocation failure. */
vxp_diagnostic *vxp_diag__add(vxp_context *ctx, vxp_diag_list *list, vxp_severity severity,
                              const char *code, const vxp_source *src, uint32_t start_byte,
                              uint32_t end_byte, const char *fmt, ...) VXP__PRINTF(8, 9);

/* vxp_diag__add with a va_list: for the modules' own formatting wrappers, which pass their
 * arguments through instead of formatting into a buffer of their own (and cutting long
 * messages short). */
vxp_diagnostic *vxp_diag__vadd(vxp_context *ctx, vxp_diag_list *list, vxp_severity severity,
                               const char *code, const vxp_source *src, uint32_t start_byte,
                               uint32_t end_byte, const char *fmt, va_list ap) VXP__PRINTF(8, 0);

/* vxp_diag__note with a va_list. */
bool vxp_diag__vnote(vxp_context *ctx, vxp_diagnostic *d, bool is_help, const vxp_source *src,
                     uint32_t start_byte, uint32_t end_byte, const char *fmt, va_list ap)
    VXP__PRINTF(7, 0);

/* Attach a note (or, with is_help, a help line) to `d`; false on allocation failure. */
bool vxp_diag__note(vxp_context *ctx, vxp_diagnostic *d, bool is_help, const vxp_source *src,
                    uint32_t start_byte, uint32_t end_byte, const char *fmt, ...) VXP__PRINTF(7, 8);

/* Set capacity facts on `d` (the space name is copied); false on allocation failure. */
bool vxp_diag__capacity(vxp_context *ctx, vxp_diagnostic *d, const char *space, uint64_t required,
                        uint64_t available, bool has_tiles, uint64_t tiles);

/* Deep-copy `from` to the end of `list`; false on allocation failure. */
bool vxp_diag__copy(vxp_context *ctx, vxp_diag_list *list, const vxp_diagnostic *from);

/* Free diagnostic `index` of `list` and close the gap (the others keep their order). */
void vxp_diag__remove(vxp_context *ctx, vxp_diag_list *list, size_t index);

/* Free the diagnostics of `list` from index `len` on. */
void vxp_diag__truncate(vxp_context *ctx, vxp_diag_list *list, size_t len);

void vxp_diag__list_free(vxp_context *ctx, vxp_diag_list *list);

/* Deep-copy `from` into `to` (zeroed by the caller) with every byte of it, the entries, their
 * messages, notes and capacity facts, allocated from `arena` (a finished handle's): the copy
 * goes with the arena, so it is never grown, truncated or given to vxp_diag__list_free. False
 * on allocation failure (what was copied stays in the arena until it is freed). */
bool vxp_diag__list_to_arena(vxp_context *ctx, struct vxp_arena *arena, vxp_diag_list *to,
                             const vxp_diag_list *from);

/* Count the diagnostics of `severity` in `list`. */
size_t vxp_diag__count(const vxp_diag_list *list, vxp_severity severity);

/* The invariants of a diagnostics list and of each entry and note, as assertions (the
 * assertion builds only: VXP__CHECK). */
#if defined(VXP_ASSERTIONS)
void vxp_diag__check_list(const vxp_diag_list *list);
#endif

#endif /* VXP_DIAG_H */
