/* SPDX-License-Identifier: Apache-2.0 */
/* lower_raw.h - the `raw::` facts of a program's top-level items (model.h: vxp_raw_fact),
 * read from the syntax tree at lowering time (and by machine.c for a machine file's own
 * lowerings) for raw_primitives.c to answer against the machine. */
#ifndef VXP_LOWER_RAW_H
#define VXP_LOWER_RAW_H

#include <tree_sitter/api.h>

#include "model.h"
#include "source.h"

/* Where the facts go: `out`, with their names (messages, a lowering's topology and spaces)
 * interned by `intern` (it returns VXP_NAME_NONE or VXP_NAME_ERROR on failure; lowering
 * passes its own, so that a splice sees the same name ids as a fresh lowering). */
typedef struct vxp_lower_raw {
  vxp_context *ctx;
  const vxp_source *src; /* the text `item` was parsed from */
  vxp_raw_facts *out;
  vxp_name (*intern)(void *arg, const char *s, size_t len);
  void *arg;
} vxp_lower_raw;

/* Append the facts of top-level node `item` to W->out, in the order the checks report them:
 * a transfer lowering's edge first (VXP_RAW_EDGE), then its diagnostics; any other item
 * has only its misplaced `raw::` calls (E6017). Returns VXP_OK or VXP_ENOMEM. */
int vxp_lower_raw__item(vxp_lower_raw *W, TSNode item);

#endif /* VXP_LOWER_RAW_H */
