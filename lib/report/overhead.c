/* SPDX-License-Identifier: Apache-2.0 */
/* overhead.c - a machine model's text with measured overheads taken out of one space's
 * capacity (vxp_report_machine_calibrate, `vxpeak calibrate`). The copy stays a machine
 * model vxc reads: only the capacity field's value changes, and the overhead's bytes, name,
 * date and figures go in a `// overhead: N B, NOTE` comment line in the space's body, above
 * the field, which vxpeak's machine reader sums (machine.h) so that a margin stays a share of
 * what the device offers rather than of what the overheads leave. */
#include "machine.h"
#include "report.h"
#include "source.h"
#include "strbuf.h"

int vxp_report_machine_calibrate(vxp_report **out, vxp_context *ctx, const vxp_machine *m,
                                 const char *space, uint64_t offered_bytes, uint64_t overhead_bytes,
                                 const char *note) {
  if (out) *out = NULL;
  if (!ctx) return VXP_EINVAL;
  vxp_ctx__begin(ctx);
  if (!out || !m || !space || !note || strchr(note, '\n') || strchr(note, '\r'))
    return vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_report_machine_calibrate");
  const vxp_space *sp = NULL;
  for (size_t i = 0; i < m->spaces.len && !sp; i++)
    if (strcmp(m->spaces.items[i].name, space) == 0) sp = &m->spaces.items[i];
  if (!sp || !sp->has_capacity)
    return vxp_ctx__error(ctx, VXP_ENOTFOUND,
                          "machine '%s' has no memory space '%s' with a capacity", m->label, space);
  /* What the device offers: the framework's figure, else the model's (its capacity with the
   * overheads already taken out of it put back). Every overhead, old and new, comes out. */
  u128 offered = offered_bytes ? (u128)offered_bytes : (u128)sp->capacity + sp->overhead;
  u128 held = (u128)sp->overhead + overhead_bytes;
  if (held >= offered)
    return vxp_ctx__error(ctx, VXP_EINVAL,
                          "overheads of %llu bytes leave nothing of the %llu bytes %s offers",
                          (unsigned long long)(held > UINT64_MAX ? UINT64_MAX : held),
                          (unsigned long long)(offered > UINT64_MAX ? UINT64_MAX : offered), space);
  const vxp_source *src = sp->src ? sp->src : m->src;
  if (!src) return vxp_ctx__error(ctx, VXP_EINVAL, "machine '%s' was not read from text", m->label);
  const char *text = src->text;
  size_t len = src->len;
  if (sp->start_byte > len || sp->capacity_start < sp->start_byte || sp->capacity_end > len ||
      sp->capacity_end < sp->capacity_start)
    return vxp_ctx__error(ctx, VXP_EINVAL, "machine '%s': the capacity of %s is not in its text",
                          m->label, space);
  /* The comment goes on a line of its own above the capacity field, indented as it is, so
   * that it is in the space's body, where the reader looks for it. */
  size_t line = sp->capacity_start;
  while (line > sp->start_byte && text[line - 1] != '\n')
    line--;
  bool own_line = line > sp->start_byte || sp->start_byte == 0 || text[line - 1] == '\n';
  for (size_t i = line; i < sp->capacity_start; i++)
    own_line = own_line && (text[i] == ' ' || text[i] == '\t');
  vxp_sb sb = {0};
  if (own_line) {
    vxp_sb__append(ctx, &sb, text, line);
    vxp_sb__append(ctx, &sb, text + line, sp->capacity_start - line);
    vxp_sb__printf(ctx, &sb, "// overhead: %llu B, %s\n", (unsigned long long)overhead_bytes, note);
    vxp_sb__append(ctx, &sb, text + line, sp->capacity_start - line);
  } else { /* `Memory X { capacity: ... }` on one line: the comment breaks it */
    vxp_sb__append(ctx, &sb, text, sp->capacity_start);
    vxp_sb__printf(ctx, &sb, "\n// overhead: %llu B, %s\n", (unsigned long long)overhead_bytes,
                   note);
  }
  vxp_sb__printf(ctx, &sb, "capacity: %llu B", (unsigned long long)(offered - held));
  vxp_sb__append(ctx, &sb, text + sp->capacity_end, len - sp->capacity_end);
  return vxp_report__finish(out, ctx, &sb);
}

int vxp_report_machine_overhead(vxp_report **out, vxp_context *ctx, const vxp_machine *m,
                                const char *space, uint64_t overhead_bytes, const char *note) {
  return vxp_report_machine_calibrate(out, ctx, m, space, 0, overhead_bytes, note);
}
