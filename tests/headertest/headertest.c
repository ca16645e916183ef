/* SPDX-License-Identifier: Apache-2.0 */
/* headertest.c - compiles include/vxpeak.h as C89, C99, C11 and C++ with every warning an
 * error (make headertest). It uses each macro and type so that a construct one language
 * rejects (a // comment, a () prototype, a C99-only initialiser, a missing extern "C")
 * fails the build. It is compiled, never run; it must not need the library to link.
 * Written in the common subset of C89 and C++98. */
#include "vxpeak.h"
#include "vxpeak.h" /* the include guard works */

#if !VXP_VERSION_CHECK(0, 1, 0)
#error "VXP_VERSION_CHECK is false for 0.1.0"
#endif
#if VXP_VERSION_NUMBER != VXP_VERSION_MAJOR * 10000 + VXP_VERSION_MINOR * 100 + VXP_VERSION_PATCH
#error "VXP_VERSION_NUMBER disagrees with its parts"
#endif

/* Every entry point has the prototype it is documented with: taking its address through a
 * typed pointer fails to compile when the declaration changes shape. */
typedef int (*context_new_fn)(vxp_context **, const vxp_context_options *);
typedef const char *(*json_fn)(vxp_analysis *, size_t *);
typedef uint32_t (*utf16_fn)(const vxp_source *, vxp_point);

int headertest_use(void);

int headertest_use(void) {
  vxp_context_options copts = VXP_CONTEXT_OPTIONS_INIT;
  vxp_analyze_options aopts = VXP_ANALYZE_OPTIONS_INIT;
  vxp_point point = {0, 0};
  vxp_range range;
  context_new_fn context_new = &vxp_context_new;
  json_fn json = &vxp_analysis_json;
  utf16_fn utf16 = &vxp_source_utf16_column;
  vxp_severity severity = VXP_SEVERITY_ERROR;
  vxp_error code = VXP_ENOMEM;
  uint64_t bytes = 0;
  const char *version = VXP_VERSION_STRING;
  const char *soversion = VXP_SOVERSION;

  range.start = point;
  range.end = point;
  range.start_byte = 0;
  range.end_byte = 0;
  (void)copts;
  (void)aopts;
  (void)context_new;
  (void)json;
  (void)utf16;
  (void)bytes;
  (void)version;
  (void)soversion;
  return (int)severity + (int)code + (int)range.end_byte;
}
