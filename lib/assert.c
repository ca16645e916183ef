/* SPDX-License-Identifier: Apache-2.0 */
/* assert.c - where a VXP__ASSERT that failed stops a sanitizer build (internal.h). Compiled
 * to nothing unless VXP_ASSERTIONS is defined: a release library never aborts. */
#include "internal.h"

#if defined(VXP_ASSERTIONS)
#include <stdio.h>
#include <stdlib.h>

void vxp__assert_failed(const char *cond, const char *file, int line) {
  fprintf(stderr, "%s:%d: libvxpeak invariant broken: %s\n", file, line, cond);
  abort();
}
#endif
