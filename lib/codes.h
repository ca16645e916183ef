/* SPDX-License-Identifier: Apache-2.0 */
/* codes.h - the catalogue of diagnostic codes: what each means and how to act on it, for
 * the SARIF rules (sarif.c) and anything else that explains a code. */
#ifndef VXP_CODES_H
#define VXP_CODES_H

#include "internal.h"

typedef struct vxp_code_info {
  const char *code;      /* "E6010" */
  const char *name;      /* "WorkingSetOverCapacity": a SARIF rule name */
  const char *summary;   /* one sentence */
  const char *detail;    /* what the analysis checks */
  const char *help;      /* how to act on it */
  vxp_severity severity; /* the level it is reported at */
} vxp_code_info;

/* The catalogue in code order, and its length. */
const vxp_code_info *vxp_codes__all(size_t *count);

/* The entry of `code`, or NULL. */
const vxp_code_info *vxp_codes__find(const char *code);

#endif /* VXP_CODES_H */
