/* SPDX-License-Identifier: Apache-2.0 */
/* notes.c - notes and help lines for E6010, W1028 and E6009 (see notes.h). */
#include "notes.h"

#include <stdarg.h>
#include <stdio.h>

#include "program.h"
#include "source.h"

/* Groups shown before the rest are summed into one line. */
#define VXP__MAX_GROUP_NOTES 6

/* 12,952,010,752 */
static const char *grouped(uint64_t v, char *buf, size_t size) {
  char digits[32];
  int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
  size_t o = 0;
  for (int i = 0; i < n && o + 2 < size; i++) {
    buf[o++] = digits[i];
    if ((n - i - 1) % 3 == 0 && i != n - 1) buf[o++] = ',';
  }
  buf[o] = '\0';
  return buf;
}

/* "12.06 GiB": the largest binary unit that keeps the value at or above 1. */
static const char *binary(uint64_t v, char *buf, size_t size) {
  static const struct {
    double scale;
    const char *unit;
  } units[] = {
      {1099511627776.0, "TiB"}, {1073741824.0, "GiB"}, {1048576.0, "MiB"}, {1024.0, "KiB"}};
  for (size_t i = 0; i < VXP__ARRAY_LEN(units); i++) {
    if ((double)v >= units[i].scale) {
      snprintf(buf, size, "%.2f %s", (double)v / units[i].scale, units[i].unit);
      return buf;
    }
  }
  snprintf(buf, size, "%llu B", (unsigned long long)v);
  return buf;
}

static int add_note(vxp_context *ctx, vxp_diagnostic *d, bool help, const vxp_source *src,
                    uint32_t start, uint32_t end, const char *fmt, ...) VXP__PRINTF(7, 8);

static int add_note(vxp_context *ctx, vxp_diagnostic *d, bool help, const vxp_source *src,
                    uint32_t start, uint32_t end, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  bool ok = vxp_diag__vnote(ctx, d, help, src, src ? start : 0, src ? end : 0, fmt, ap);
  va_end(ap);
  return ok ? VXP_OK : VXP_ENOMEM;
}

static const char *binding_of(const vxp_record *r) {
  return r->binding_name ? r->binding_name : "(unbound)";
}

/* ------------------------------------------------------------------ constants behind a shape */

/* The overrides (-D) that a tensor type's dimensions name, directly or through const
 * items, appended to `found` (indices into env->overrides, no duplicates). */
static void overrides_in_type(const vxp_model *m, const vxp_const_env *env, uint32_t type,
                              uint32_t *found, size_t *found_count, size_t found_cap) {
  if (type == VXP_NONE || type >= m->types.len || env->override_count == 0) return;
  const vxp_tensor_type *t = &m->types.items[type];
  if (!t->has_shape) return;
  /* Cexpr trees point only to earlier entries, so a bounded explicit stack walks them;
   * const items are followed once each (the `seen` guard also stops cycles). */
  enum { STACK = 256 };
  uint32_t stack[STACK];
  size_t top = 0;
  for (uint32_t i = 0; i < t->dims_count && top < STACK; i++)
    stack[top++] = m->dim_list.items[t->dims_first + i];
  size_t steps = 0;
  while (top > 0 && steps++ < 4096) {
    uint32_t cx = stack[--top];
    if (cx == VXP_NONE || cx >= m->cexprs.len) continue;
    const vxp_cexpr *e = &m->cexprs.items[cx];
    if (e->kind == VXP_CX_NAME) {
      bool overridden = false;
      for (size_t k = 0; k < env->override_count; k++) {
        if (env->overrides[k].name != e->name) continue;
        overridden = true;
        bool dup = false;
        for (size_t f = 0; f < *found_count; f++)
          dup |= found[f] == k;
        if (!dup && *found_count < found_cap) found[(*found_count)++] = (uint32_t)k;
      }
      if (overridden) continue;
      for (size_t c = 0; c < m->consts.len && top < STACK; c++) {
        if (m->consts.items[c].name == e->name) stack[top++] = m->consts.items[c].value;
      }
      continue;
    }
    if (e->lhs != VXP_NONE && top < STACK) stack[top++] = e->lhs;
    if (e->rhs != VXP_NONE && top < STACK) stack[top++] = e->rhs;
  }
}

static int sweep_help(vxp_context *ctx, vxp_analysis *an, vxp_diagnostic *d,
                      const vxp_const_env *env, const uint32_t *found, size_t count,
                      const char *what) {
  const vxp_model *m = &an->prog->model;
  for (size_t f = 0; f < count; f++) {
    const vxp_const_binding *b = &env->overrides[found[f]];
    const char *name = vxp_strtab__str(&m->names, b->name);
    int rc = add_note(ctx, d, true, NULL, 0, 0,
                      "%s sized by `%s`, %llu here (-D %s=%llu): `vxpeak sweep %s --const "
                      "%s=1..%llu` finds the largest value that fits",
                      what, name, (unsigned long long)b->value, name, (unsigned long long)b->value,
                      an->prog->src->label, name, (unsigned long long)b->value);
    if (rc != VXP_OK) return rc;
  }
  return VXP_OK;
}

/* ------------------------------------------------------------------ help lines */

static int overcommit_help(vxp_context *ctx, vxp_diagnostic *d, const vxp_space *sp) {
  return add_note(ctx, d, true, sp->src, sp->name_start, sp->name_end,
                  "if '%s' may spill to other memory (managed or unified memory), declare the "
                  "space `overcommit`: the working set is then warning W1028, not an error",
                  sp->name);
}

/* Length of `name` without its trailing decimal digits ("scratch12" -> 7); 0 when it has
 * no digits or nothing else. */
static size_t numbered_stem(const char *name) {
  size_t len = strlen(name), stem = len;
  while (stem > 0 && name[stem - 1] >= '0' && name[stem - 1] <= '9')
    stem--;
  return (stem == len || stem == 0) ? 0 : stem;
}

/* Three or more tiles of one size at function scope whose names differ only in a number
 * (scratch0 ... scratch31) look like an unrolled loop: placed in a loop body instead, one
 * would be live at a time. Suggest it for the run that saves the most. */
static int unrolled_help(vxp_context *ctx, vxp_analysis *an, vxp_diagnostic *d,
                         const uint32_t *live, size_t n, const vxp_resident_set *rs) {
  size_t best_first = 0, best_count = 0;
  uint64_t best_saving = 0;
  for (size_t i = 0; i < n;) {
    const vxp_record *a = &an->records.items[live[i]];
    size_t stem = (a->depth == 0 && a->binding_name) ? numbered_stem(a->binding_name) : 0;
    size_t j = i + 1;
    while (stem && j < n) {
      const vxp_record *b = &an->records.items[live[j]];
      if (b->depth != 0 || b->bytes != a->bytes || !b->binding_name ||
          numbered_stem(b->binding_name) != stem ||
          memcmp(a->binding_name, b->binding_name, stem) != 0)
        break;
      j++;
    }
    uint64_t saving = 0;
    if (stem && j - i >= 3 && vxp_mul_u64(a->bytes, (uint64_t)(j - i - 1), &saving) &&
        saving > best_saving) {
      best_first = i;
      best_count = j - i;
      best_saving = saving;
    }
    i = j;
  }
  if (best_count == 0) return VXP_OK;
  const vxp_record *first = &an->records.items[live[best_first]];
  const vxp_record *last = &an->records.items[live[best_first + best_count - 1]];
  char b1[40], b2[40], b3[40];
  uint64_t after = rs->peak_bytes - best_saving;
  char outcome[96];
  if (after <= rs->capacity_bytes)
    snprintf(outcome, sizeof(outcome), "which fits");
  else
    snprintf(outcome, sizeof(outcome), "still %s bytes over",
             grouped(after - rs->capacity_bytes, b3, sizeof(b3)));
  return add_note(ctx, d, true, an->prog->src, first->start_byte, first->end_byte,
                  "if each of %s ... %s is needed for one step only, move this placement into "
                  "the loop body: the %zu tiles of %s bytes are all held until '%s' returns; a "
                  "loop body releases its tiles at the end of every iteration, so one would be "
                  "live at a time and the peak would fall by %s bytes, %s",
                  binding_of(first), binding_of(last), best_count,
                  grouped(first->bytes, b1, sizeof(b1)), first->function_name,
                  grouped(best_saving, b2, sizeof(b2)), outcome);
}

/* ------------------------------------------------------------------ E6010 / W1028 */

static bool same_group(const vxp_record *a, const vxp_record *b) {
  if (a->role || b->role) return a->role == b->role; /* interned: equal names, equal pointers */
  return a->depth == b->depth && a->bytes == b->bytes;
}

static int group_note(vxp_context *ctx, vxp_analysis *an, vxp_diagnostic *d, const uint32_t *live,
                      size_t from, size_t to) {
  const vxp_record *first = &an->records.items[live[from]];
  const vxp_record *last = &an->records.items[live[to - 1]];
  uint64_t total = 0;
  bool all_top = true;
  for (size_t k = from; k < to; k++) {
    const vxp_record *r = &an->records.items[live[k]];
    if (!vxp_add_u64(total, r->bytes, &total)) total = UINT64_MAX;
    all_top &= r->depth == 0;
  }
  size_t count = to - from;
  char names[200] = "";
  if (count <= 4) {
    size_t o = 0;
    for (size_t k = from; k < to && o < sizeof(names); k++)
      o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s", k > from ? ", " : "",
                            binding_of(&an->records.items[live[k]]));
  } else {
    snprintf(names, sizeof(names), "%s ... %s", binding_of(first), binding_of(last));
  }
  char lines[40];
  uint32_t l1 = first->range.start.line + 1, l2 = last->range.start.line + 1;
  if (l1 == l2)
    snprintf(lines, sizeof(lines), "line %u", l1);
  else
    snprintf(lines, sizeof(lines), "lines %u-%u", l1, l2);
  char b1[40], b2[40], role[120] = "";
  if (first->role) snprintf(role, sizeof(role), "%s: ", first->role);
  return add_note(ctx, d, false, an->prog->src, first->start_byte, first->end_byte,
                  "%s%zu tile%s live at the peak (%s, %s): %s bytes (%s), %s", role, count,
                  count == 1 ? "" : "s", names, lines, grouped(total, b1, sizeof(b1)),
                  binary(total, b2, sizeof(b2)),
                  all_top ? "held until the function returns" : "released when their block ends");
}

int vxp_notes__working_set(vxp_context *ctx, vxp_analysis *an, vxp_diagnostic *d, size_t rs_index,
                           const vxp_const_env *env) {
  const vxp_resident_set *rs = &an->resident_sets.items[rs_index];
  const vxp_space *sp = an->view.spaces.items[rs->space];
  Array(uint32_t) live;
  memset(&live, 0, sizeof(live));
  for (size_t i = 0; i < an->records.len; i++) {
    const vxp_record *r = &an->records.items[i];
    if (r->function != rs->function || r->space != rs->space || !r->live_at_peak) continue;
    if (!array_push(ctx, &live, (uint32_t)i)) {
      array_free(ctx, &live);
      return VXP_ENOMEM;
    }
  }
  int rc = VXP_OK;
  size_t groups = 0;
  for (size_t i = 0; i < live.len && rc == VXP_OK;) {
    size_t j = i + 1;
    while (j < live.len &&
           same_group(&an->records.items[live.items[i]], &an->records.items[live.items[j]]))
      j++;
    if (groups == VXP__MAX_GROUP_NOTES) {
      uint64_t rest = 0;
      for (size_t k = i; k < live.len; k++)
        if (!vxp_add_u64(rest, an->records.items[live.items[k]].bytes, &rest)) rest = UINT64_MAX;
      char b1[40], b2[40];
      rc = add_note(ctx, d, false, NULL, 0, 0, "and %zu more tiles live at the peak: %s bytes (%s)",
                    live.len - i, grouped(rest, b1, sizeof(b1)), binary(rest, b2, sizeof(b2)));
      break;
    }
    rc = group_note(ctx, an, d, live.items, i, j);
    groups++;
    i = j;
  }
  if (rc == VXP_OK && !rs->peak_saturated && rs->peak_bytes > rs->capacity_bytes) {
    char b1[40], b2[40];
    uint64_t over = rs->peak_bytes - rs->capacity_bytes;
    rc = add_note(ctx, d, false, NULL, 0, 0, "to fit, the working set must shrink by %s bytes (%s)",
                  grouped(over, b1, sizeof(b1)), binary(over, b2, sizeof(b2)));
  }
  /* The knob the user turned first, then a change to the program, then to the machine. */
  if (rc == VXP_OK) {
    uint32_t found[4];
    size_t count = 0;
    for (size_t k = 0; k < live.len; k++)
      overrides_in_type(&an->prog->model, env, an->records.items[live.items[k]].type, found, &count,
                        VXP__ARRAY_LEN(found));
    rc = sweep_help(ctx, an, d, env, found, count, "tiles live here are");
  }
  if (rc == VXP_OK) rc = unrolled_help(ctx, an, d, live.items, live.len, rs);
  if (rc == VXP_OK && !sp->overcommit) rc = overcommit_help(ctx, d, sp);
  array_free(ctx, &live);
  return rc;
}

/* ------------------------------------------------------------------ E6009 */

int vxp_notes__tile(vxp_context *ctx, vxp_analysis *an, vxp_diagnostic *d, const vxp_space *sp,
                    uint64_t bytes, uint32_t type, const vxp_const_env *env) {
  char b1[40], b2[40];
  int rc = VXP_OK;
  if (bytes != UINT64_MAX)
    rc = add_note(ctx, d, true, NULL, 0, 0,
                  "this one tile is %s bytes (%s) larger than all of '%s': split it into tiles "
                  "placed one per iteration of a loop body, or place it in a larger space",
                  grouped(bytes - sp->capacity, b1, sizeof(b1)),
                  binary(bytes - sp->capacity, b2, sizeof(b2)), sp->name);
  uint32_t found[4];
  size_t count = 0;
  overrides_in_type(&an->prog->model, env, type, found, &count, VXP__ARRAY_LEN(found));
  if (rc == VXP_OK) rc = sweep_help(ctx, an, d, env, found, count, "the tile is");
  return rc;
}
