/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_edit.c - libFuzzer harness for the incremental edit API. The input is
 *
 *   byte 0          number of edits (low 3 bits: 0-7); bit 3: the first version parsed
 *                   with VXP_PROGRAM_FOR_EDITING (its first reparse may parse only a window)
 *   per edit        start (2 bytes), removed length (1 byte), inserted length (1 byte),
 *                   then the inserted bytes
 *   the rest        the first version of the text
 *
 * Each edit is applied with vxp_source_edit (offsets taken modulo the current length),
 * the program reparsed incrementally from the previous version (the whole tree re-read, or
 * only the window around the edit) and analysed incrementally from the previous analysis.
 * The incremental result must equal a parse and analysis from scratch: the same
 * S-expression (for a text without syntax errors), the same diagnostics (code, message,
 * range) and the same JSON report; a difference is a finding, reported by aborting, as is a
 * broken promise of include/vxpeak.h about the incremental program or analysis (promises.h). */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "vxpeak.h"

#include "builtin_machines.h"
#include "promises.h"

typedef struct edit {
  uint32_t start, removed;
  const char *text;
  size_t len;
} edit;

/* Whether two programs have the same diagnostics: code, message and range each. */
static int same_diagnostics(const vxp_program *a, const vxp_program *b) {
  size_t n = vxp_program_diagnostic_count(a);
  if (n != vxp_program_diagnostic_count(b)) return 0;
  for (size_t i = 0; i < n; i++) {
    const vxp_diagnostic *x = vxp_program_diagnostic(a, i), *y = vxp_program_diagnostic(b, i);
    vxp_range p = vxp_diagnostic_range(x), q = vxp_diagnostic_range(y);
    if (strcmp(vxp_diagnostic_code(x), vxp_diagnostic_code(y)) != 0 ||
        strcmp(vxp_diagnostic_message(x), vxp_diagnostic_message(y)) != 0 ||
        p.start_byte != q.start_byte || p.end_byte != q.end_byte)
      return 0;
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  edit edits[8];
  size_t n = 0, pos = 1;
  if (size < 1) return 0;
  size_t want = data[0] & 7u;
  while (n < want && pos + 4 <= size) {
    edit *e = &edits[n++];
    e->start = (uint32_t)data[pos] | (uint32_t)data[pos + 1] << 8;
    e->removed = data[pos + 2];
    e->len = data[pos + 3];
    pos += 4;
    if (e->len > size - pos) e->len = size - pos;
    e->text = (const char *)data + pos;
    pos += e->len;
  }

  vxp_context *ctx = NULL;
  if (vxp_context_new(&ctx, NULL) != VXP_OK) abort();
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  vxp_analysis *an = NULL;
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = device;
  if (vxp_source_new(&src, ctx, "edit.vx", (const char *)data + pos, size - pos) != VXP_OK ||
      vxp_program_parse_flags(&prog, ctx, src, (data[0] & 8u) ? VXP_PROGRAM_FOR_EDITING : 0) !=
          VXP_OK)
    goto done;
  if (vxp_analyze(&an, ctx, prog, &opts) != VXP_OK) goto done;
  for (size_t i = 0; i < n; i++) {
    size_t len;
    (void)vxp_source_text(src, &len);
    uint32_t start = len ? edits[i].start % (uint32_t)(len + 1) : 0;
    uint32_t end = start + edits[i].removed;
    if (end > len) end = (uint32_t)len;
    vxp_source *next = NULL;
    vxp_program *reparsed = NULL, *fresh = NULL;
    if (vxp_source_edit(&next, src, start, end, edits[i].text, edits[i].len) != VXP_OK) break;
    if (vxp_program_reparse(&reparsed, ctx, prog, next) != VXP_OK) {
      vxp_source_free(next);
      break;
    }
    vxp_analysis *next_an = NULL;
    int analysed = vxp_analyze_incremental(&next_an, ctx, reparsed, an, &opts);
    vxp_analysis_free(an);
    an = next_an;
    vxp_program_free(prog);
    vxp_source_free(src);
    src = next;
    prog = reparsed;
    if (analysed != VXP_OK) break;
    (void)vxp_source_text(src, &len);
    promise_program(prog);
    promise_analysis(an, len);
    if (vxp_program_parse(&fresh, ctx, src) == VXP_OK) {
      if (!same_diagnostics(prog, fresh)) abort(); /* a reparse unlike a fresh parse */
      vxp_analysis *fresh_an = NULL;
      if (vxp_analyze(&fresh_an, ctx, fresh, &opts) == VXP_OK) {
        const char *x = vxp_analysis_json(an, NULL), *y = vxp_analysis_json(fresh_an, NULL);
        if (x && y && strcmp(x, y) != 0) abort(); /* an incremental report unlike a fresh one */
        vxp_analysis_free(fresh_an);
      }
      const char *a = vxp_program_sexp(prog), *b = vxp_program_sexp(fresh);
      if (a && b && vxp_program_diagnostic_count(fresh) == 0 && strcmp(a, b) != 0)
        abort(); /* an incremental parse that differs from a fresh one */
      vxp_program_free(fresh);
    }
  }
done:
  vxp_analysis_free(an);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return 0;
}
