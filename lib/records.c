/* SPDX-License-Identifier: Apache-2.0 */
/* records.c - what a record says beyond its size and place: its role, when it is
 * released, how often it runs; and the list of analysed functions. */
#include "analysis_data.h"

const char *vxp_record_role(const vxp_record *rec) { return rec ? rec->role : NULL; }

int vxp_record_release_order(const vxp_record *rec, uint32_t *out) {
  if (!rec || !rec->released) return 0;
  if (out) *out = rec->release_order;
  return 1;
}

int vxp_record_runs(const vxp_record *rec, uint64_t *out) {
  if (!rec || !rec->multiplier_known) return 0;
  if (out) *out = rec->multiplier;
  return 1;
}

size_t vxp_analysis_function_count(const vxp_analysis *an) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, 0);
  return an ? an->functions.len : 0;
}

const char *vxp_analysis_function(const vxp_analysis *an, size_t i) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, NULL);

  return (an && i < an->functions.len) ? an->functions.items[i].name : NULL;
}
