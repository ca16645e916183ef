/* SPDX-License-Identifier: Apache-2.0 */
/* tag.c - the message of a handle of the wrong kind (tag.h). */
#include "tag.h"

#include "context.h"

static const char *tag_kind(uint32_t tag) {
  switch (tag) {
  case VXP_TAG_CONTEXT: return "vxp_context";
  case VXP_TAG_SOURCE: return "vxp_source";
  case VXP_TAG_PROGRAM: return "vxp_program";
  case VXP_TAG_MACHINE: return "vxp_machine";
  case VXP_TAG_ANALYSIS: return "vxp_analysis";
  case VXP_TAG_SWEEP: return "vxp_sweep";
  case VXP_TAG_ROOFLINE: return "vxp_roofline";
  case VXP_TAG_FRONTIER: return "vxp_frontier";
  case VXP_TAG_REPORT: return "vxp_report";
  case VXP_TAG_CUDA: return "vxp_cuda";
  default: return "handle";
  }
}

int vxp_tag__misuse(vxp_context *ctx, uint32_t tag) {
  /* The context itself may be the bad handle: write to it only when it is a live one. */
  if (!ctx || ctx->tag != VXP_TAG_CONTEXT) return VXP_EMISUSE;
  return vxp_ctx__error(ctx, VXP_EMISUSE,
                        "misuse: the argument passed as a %s is not one (a handle of another "
                        "kind, or one already freed)",
                        tag_kind(tag));
}
