/* SPDX-License-Identifier: Apache-2.0 */
/* suggest.h - "did you mean" for names that resolve to nothing: the closest of the names
 * that are declared, by edit distance. */
#ifndef VXP_SUGGEST_H
#define VXP_SUGGEST_H

#include "internal.h"

/* The index in `candidates` of the name closest to `name`, or SIZE_MAX when none is close
 * enough to be a plausible misspelling. Distance is the optimal-string-alignment edit
 * distance (insertions, deletions, substitutions, and adjacent transpositions, each 1;
 * `HMB` is 1 from `HBM`), with a difference of case alone costing nothing: a name within
 * 1 edit for names of up to 4 characters, within 2 for longer ones, is suggested, the
 * smallest distance winning and the first candidate among equals. `name` itself is never
 * suggested. NULL entries are skipped. */
size_t vxp_suggest__closest(const char *name, const char *const *candidates, size_t count);

/* The distance vxp_suggest__closest uses, or a value above `limit` as soon as it exceeds
 * `limit`. */
unsigned vxp_suggest__distance(const char *a, const char *b, unsigned limit);

#endif /* VXP_SUGGEST_H */
