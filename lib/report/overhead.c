/* SPDX-License-Identifier: Apache-2.0 */
/* overhead.c - a machine model's text with a measured overhead taken out of one space's
 * capacity (vxp_report_machine_overhead, `vxpeak calibrate`). The copy stays a machine
 * model vxc reads: only the capacity field's value changes, and the overhead's name, date
 * and figures go in a comment line above the space's declaration. */
#include "machine.h"
#include "report.h"
#include "source.h"
#include "strbuf.h"

int vxp_report_machine_overhead(vxp_report **out, vxp_context *ctx, const vxp_machine *m,
                                const char *space, uint64_t overhead_bytes, const char *note) {
  if (out) *out = NULL;
  if (!ctx) return VXP_EINVAL;
  vxp_ctx__begin(ctx);
  if (!out || !m || !space || !note || strchr(note, '\n') || strchr(note, '\r'))
    return vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_report_machine_overhead");
  const vxp_space *sp = NULL;
  for (size_t i = 0; i < m->spaces.len && !sp; i++)
    if (strcmp(m->spaces.items[i].name, space) == 0) sp = &m->spaces.items[i];
  if (!sp || !sp->has_capacity)
    return vxp_ctx__error(ctx, VXP_ENOTFOUND,
                          "machine '%s' has no memory space '%s' with a capacity", m->label, space);
  if (overhead_bytes >= sp->capacity)
    return vxp_ctx__error(
        ctx, VXP_EINVAL, "an overhead of %llu bytes leaves nothing of %s's %llu bytes",
        (unsigned long long)overhead_bytes, space, (unsigned long long)sp->capacity);
  const vxp_source *src = sp->src ? sp->src : m->src;
  if (!src) return vxp_ctx__error(ctx, VXP_EINVAL, "machine '%s' was not read from text", m->label);
  const char *text = src->text;
  size_t len = src->len;
  if (sp->start_byte > len || sp->capacity_start < sp->start_byte || sp->capacity_end > len ||
      sp->capacity_end < sp->capacity_start)
    return vxp_ctx__error(ctx, VXP_EINVAL, "machine '%s': the capacity of %s is not in its text",
                          m->label, space);
  /* The comment goes at the start of the declaration's line, indented as it is. */
  size_t line = sp->start_byte;
  while (line > 0 && text[line - 1] != '\n')
    line--;
  bool indent = true; /* only blanks before the declaration on its line */
  for (size_t i = line; i < sp->start_byte; i++)
    indent = indent && (text[i] == ' ' || text[i] == '\t');
  vxp_sb sb = {0};
  vxp_sb__append(ctx, &sb, text, line);
  if (indent) vxp_sb__append(ctx, &sb, text + line, sp->start_byte - line);
  vxp_sb__printf(ctx, &sb, "// overhead: %s\n", note);
  vxp_sb__append(ctx, &sb, text + line, sp->capacity_start - line);
  vxp_sb__printf(ctx, &sb, "capacity: %llu B", (unsigned long long)(sp->capacity - overhead_bytes));
  vxp_sb__append(ctx, &sb, text + sp->capacity_end, len - sp->capacity_end);
  return vxp_report__finish(out, ctx, &sb);
}
