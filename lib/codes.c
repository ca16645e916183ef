/* SPDX-License-Identifier: Apache-2.0 */
/* codes.c - the catalogue of diagnostic codes (codes.def) as a table. Codes
 * from vxc keep vxc's meaning; VXP codes are vxpeak's own. */
#include "codes.h"

#define E VXP_SEVERITY_ERROR
#define W VXP_SEVERITY_WARNING

static const vxp_code_info catalogue[] = {
#define VXP__CODE(code, name, summary, detail, help, severity)                                     \
  {code, name, summary, detail, help, severity},
#include "codes.def"
#undef VXP__CODE
};

const vxp_code_info *vxp_codes__all(size_t *count) {
  *count = VXP__ARRAY_LEN(catalogue);
  return catalogue;
}

const vxp_code_info *vxp_codes__find(const char *code) {
  if (!code) return NULL;
  for (size_t i = 0; i < VXP__ARRAY_LEN(catalogue); i++) {
    if (strcmp(catalogue[i].code, code) == 0) return &catalogue[i];
  }
  return NULL;
}
