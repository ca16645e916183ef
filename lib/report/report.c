/* SPDX-License-Identifier: Apache-2.0 */
/* report.c - the report handle and its options (vxp_report_*). */
#include "report.h"

#include <stdalign.h>
#include <stddef.h>

#include "analysis_data.h"
#include "context.h"
#include "machine.h"

int vxp_report_options_init(vxp_report_options *opts, unsigned int version) {
  if (!opts) return VXP_EINVAL;
  if (version < 1 || version > VXP_REPORT_OPTIONS_VERSION) return VXP_EVERSION;
  memset(opts, 0, sizeof(*opts));
  opts->version = version;
  opts->format = VXP_REPORT_TEXT;
  return VXP_OK;
}

int vxp_report__options(vxp_context *ctx, const vxp_report_options *given, vxp_report_options *out,
                        unsigned formats) {
  vxp_report_options_init(out, VXP_REPORT_OPTIONS_VERSION);
  /* The first format a report draws is its default (text, or SVG for the plot). */
  vxp_report_format first =
      (formats & VXP_REPORT__FORMAT(VXP_REPORT_TEXT)) ? VXP_REPORT_TEXT : VXP_REPORT_SVG;
  out->format = first;
  if (!given) return VXP_OK;
  if (given->version < 1 || given->version > VXP_REPORT_OPTIONS_VERSION)
    return vxp_ctx__error(ctx, VXP_EVERSION,
                          "vxp_report_options version %u is not supported (1 to %u are)",
                          given->version, (unsigned)VXP_REPORT_OPTIONS_VERSION);
  /* The bytes each version has: an older caller's struct is read no further. */
  static const size_t version_size[VXP_REPORT_OPTIONS_VERSION] = {
      offsetof(vxp_report_options, traffic), offsetof(vxp_report_options, margin_ppm),
      offsetof(vxp_report_options, formula), sizeof(vxp_report_options)};
  memcpy(out, given, version_size[given->version - 1]);
  if (out->format == 0) out->format = first;
  if (out->format < VXP_REPORT_TEXT || out->format > VXP_REPORT_SVG)
    return vxp_ctx__error(ctx, VXP_EINVAL, "vxp_report_options: unknown format %d",
                          (int)out->format);
  if (!(formats & VXP_REPORT__FORMAT(out->format)))
    return vxp_ctx__error(ctx, VXP_EINVAL, "vxp_report_options: this report has no %s form",
                          out->format == VXP_REPORT_SVG    ? "SVG"
                          : out->format == VXP_REPORT_JSON ? "JSON"
                                                           : "text");
  return VXP_OK;
}

const char *vxp_report__machine_name(const vxp_analysis *an, const vxp_report_options *o) {
  if (o->machine) return o->machine;
  if (an->machine && an->machine->label) return an->machine->label;
  return "the program's own declarations";
}

void vxp_report__xml(vxp_context *ctx, vxp_sb *sb, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
    case '<': vxp_sb__puts(ctx, sb, "&lt;"); break;
    case '>': vxp_sb__puts(ctx, sb, "&gt;"); break;
    case '&': vxp_sb__puts(ctx, sb, "&amp;"); break;
    case '"': vxp_sb__puts(ctx, sb, "&quot;"); break;
    default:
      if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t') vxp_sb__putc(ctx, sb, *s);
    }
  }
}

int vxp_report__finish(vxp_report **out, vxp_context *ctx, vxp_sb *sb) {
  size_t len = 0;
  char *text = sb->failed ? NULL : vxp_sb__detach(ctx, sb, &len);
  /* The handle goes behind the text, aligned, in the text's own block. */
  size_t at = len < SIZE_MAX / 2
                  ? (len + 1 + alignof(vxp_report) - 1) / alignof(vxp_report) * alignof(vxp_report)
                  : 0;
  char *block = text && at ? vxp_ctx__realloc(ctx, text, at + sizeof(vxp_report)) : NULL;
  if (!block) {
    vxp_ctx__free(ctx, text);
    vxp_sb__free(ctx, sb);
    return vxp_ctx__nomem(ctx);
  }
  vxp_report *rep = (vxp_report *)(void *)(block + at);
  rep->tag = VXP_TAG_REPORT;
  rep->ctx = ctx;
  rep->text = block;
  rep->len = len;
  *out = rep;
  return VXP_OK;
}

const char *vxp_report_text(const vxp_report *rep, size_t *len) {
  VXP__TAG(rep, VXP_TAG_REPORT, NULL);

  if (len) *len = rep ? rep->len : 0;
  return rep ? rep->text : NULL;
}

void vxp_report_free(vxp_report *rep) {
  VXP__TAG(rep, VXP_TAG_REPORT, );

  if (!rep) return;
  rep->tag = VXP_TAG_FREED;
  vxp_ctx__free(rep->ctx, rep->text); /* the handle is in the same block */
}
