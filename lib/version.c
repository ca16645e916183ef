/* SPDX-License-Identifier: Apache-2.0 */
/* version.c - run-time version queries and the static text of return codes. */
#include "symbols.h"

int vxp_version(void) { return VXP_VERSION_NUMBER; }

const char *vxp_version_string(void) { return VXP_VERSION_STRING; }

unsigned int vxp_grammar_abi(void) { return ts_language_version(tree_sitter_vx()); }

const char *vxp_strerror(int code) {
  switch (code) {
  case VXP_OK: return "success";
  case VXP_ERROR: return "error";
  case VXP_ENOMEM: return "out of memory";
  case VXP_EINVAL: return "invalid argument";
  case VXP_EIO: return "input/output error";
  case VXP_ECANCELLED: return "cancelled";
  case VXP_EVERSION: return "version not supported";
  case VXP_ENOTFOUND: return "not found";
  case VXP_EMISUSE: return "misuse: a handle of the wrong kind, or one already freed";
  default: return "unknown error code";
  }
}
