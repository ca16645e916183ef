/* SPDX-License-Identifier: Apache-2.0 */
/* machine.c - reading Memory and Topology declarations (machine_load.c makes a machine of a
 * file with them), the built-in spaces, merging the inputs of an analysis, the coherence
 * checks of the memory hierarchy, and pointing a model's declaration items at what was read. */
#include "machine.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>

#include "context.h"
#include "lowering_body.h"
#include "lowering_bounds.h"
#include "lower_raw.h"
#include "model.h"
#include "source.h"
#include "strtab.h"
#include "units.h"

/* ------------------------------------------------------------------ reading declarations */

typedef struct vxp_machine_reader {
  vxp_context *ctx;
  vxp_machine *m;
  const vxp_source *src;
  const vxp_symbols *S;
  const vxp_fields *F;
  int rc;
  vxp_name_index spaces, topologies; /* names read so far, for E6012 in one input */
} reader;

/* The 0.20 runtime dereferences null nodes, so every child lookup goes through here. */
static TSNode fld(reader *R, TSNode node, TSFieldId id) {
  VXP__UNUSED(R);
  return ts_node_is_null(node) ? node : ts_node_child_by_field_id(node, id);
}

static bool usable(TSNode node) {
  return !ts_node_is_null(node) && !ts_node_is_missing(node) && !vxp_node__is_error(node);
}

static const char *node_text(reader *R, TSNode node, size_t *len) {
  uint32_t n;
  const char *s = vxp_node__text(R->src->text, node, &n);
  *len = n;
  return s;
}

/* The node's text, in the machine's arena. */
static char *node_dup(reader *R, TSNode node) {
  size_t len;
  const char *s = node_text(R, node, &len);
  char *copy = vxp_arena__alloc(R->ctx, R->m->arena, len + 1);
  if (!copy) {
    R->rc = VXP_ENOMEM;
    return NULL;
  }
  memcpy(copy, s, len);
  return copy;
}

static bool text_is(reader *R, TSNode node, const char *word) {
  return vxp_node__text_is(R->src->text, node, word);
}

static void diag(reader *R, const char *code, TSNode node, const char *fmt, ...) VXP__PRINTF(4, 5);

static void diag(reader *R, const char *code, TSNode node, const char *fmt, ...) {
  if (R->rc != VXP_OK) return;
  va_list ap;
  va_start(ap, fmt);
  if (!vxp_diag__vadd(R->ctx, &R->m->diags, VXP_SEVERITY_ERROR, code, R->src,
                      ts_node_start_byte(node), ts_node_end_byte(node), fmt, ap))
    R->rc = VXP_ENOMEM;
  va_end(ap);
}

/* The text of `node`, cut to fit `buf`, for quoting in messages. */
static const char *quote(reader *R, TSNode node, char *buf, size_t size) {
  size_t len;
  const char *s = node_text(R, node, &len);
  if (len > size - 1) len = size - 1;
  memcpy(buf, s, len);
  buf[len] = '\0';
  return buf;
}

static void unit_problem(reader *R, TSNode node, vxp_unit_status st, const char *what,
                         const char *accepted) {
  char quoted[128];
  quote(R, node, quoted, sizeof(quoted));
  switch (st) {
  case VXP_UNIT_UNKNOWN:
    diag(R, "VXP0010", node, "unknown unit in '%s'; units are case-sensitive: %s", quoted,
         accepted);
    break;
  case VXP_UNIT_INEXACT:
    diag(R, "VXP0011", node, "'%s' is not a whole number of %s", quoted, what);
    break;
  case VXP_UNIT_OVERFLOW:
    diag(R, "VXP0012", node, "'%s' does not fit in 64 bits of %s", quoted, what);
    break;
  default:
    diag(R, "VXP0013", node,
         "malformed quantity '%s' (expected digits with at most one '.', a space, then a unit)",
         quoted);
    break;
  }
}

/* A `size` node: number and byte unit. */
static bool read_size(reader *R, TSNode size, uint64_t *out) {
  TSNode number = fld(R, size, R->F->value), unit = fld(R, size, R->F->unit);
  if (!usable(number) || !usable(unit)) return false;
  size_t nlen, ulen;
  const char *n = node_text(R, number, &nlen), *u = node_text(R, unit, &ulen);
  vxp_unit_status st = vxp_units__bytes(n, nlen, u, ulen, out);
  if (st != VXP_UNIT_OK) {
    unit_problem(R, size, st, "bytes", vxp_units__byte_units());
    return false;
  }
  return true;
}

/* A `rate` node: size `/` s|cyc. */
static bool read_rate(reader *R, TSNode rate, uint64_t *out, bool *per_cycle) {
  TSNode amount = fld(R, rate, R->F->amount), per = fld(R, rate, R->F->per);
  if (!usable(amount) || !usable(per)) return false;
  if (text_is(R, per, "s"))
    *per_cycle = false;
  else if (text_is(R, per, "cyc"))
    *per_cycle = true;
  else {
    char word[64];
    diag(R, "VXP0010", per,
         "unknown rate denominator '/%s'; a rate is per second (/s) or per cycle (/cyc)",
         quote(R, per, word, sizeof(word)));
    return false;
  }
  return read_size(R, amount, out);
}

static const char *const scope_words[] = {"device", "sm", "cta", "thread"};

/* `// overhead: N B` in a Memory body, N whole bytes (what `vxpeak calibrate` writes, the
 * rest of the line is prose): bytes a run holds beside the program, already out of the
 * capacity. Any other comment is prose; a malformed overhead line is VXP0018, so that a typo
 * never silently drops a figure. */
static void read_overhead(reader *R, vxp_space *sp, TSNode comment) {
  size_t len;
  const char *s = node_text(R, comment, &len);
  static const char lead[] = "// overhead:";
  if (len < sizeof(lead) - 1 || memcmp(s, lead, sizeof(lead) - 1) != 0) return;
  size_t i = sizeof(lead) - 1;
  while (i < len && s[i] == ' ')
    i++;
  size_t w = i;
  while (i < len && s[i] >= '0' && s[i] <= '9')
    i++;
  uint64_t n = 0;
  bool ok = i > w && vxp_units__integer(s + w, i - w, &n) == VXP_UNIT_OK && i + 2 <= len &&
            s[i] == ' ' && s[i + 1] == 'B' && (i + 2 == len || s[i + 2] == ',' || s[i + 2] == ':');
  if (!ok) {
    char quoted[128];
    quote(R, comment, quoted, sizeof(quoted));
    diag(R, "VXP0018", comment,
         "'%s': an overhead line is `// overhead: N B, why` with N whole bytes", quoted);
    return;
  }
  if (n > UINT64_MAX - sp->overhead) {
    char quoted[128];
    quote(R, comment, quoted, sizeof(quoted));
    diag(R, "VXP0018", comment, "'%s': the overheads of %s pass 2^64 bytes", quoted, sp->name);
    return;
  }
  sp->overhead += n;
}

static void read_memory_field(reader *R, vxp_space *sp, TSNode f) {
  const vxp_symbols *S = R->S;
  TSSymbol sym = ts_node_symbol(f);
  if (sym == S->line_comment) {
    read_overhead(R, sp, f);
    return;
  }
  TSNode value = fld(R, f, R->F->value);
  if (sym == S->overcommit_field) {
    sp->overcommit = true;
    return;
  }
  if (!usable(value)) return;
  if (sym == S->within_field) {
    TSNode name = fld(R, value, R->F->name);
    if (!usable(name)) return;
    sp->within = node_dup(R, name);
    sp->within_start = ts_node_start_byte(f);
    sp->within_end = ts_node_end_byte(f);
  } else if (sym == S->capacity_field) {
    sp->has_capacity = read_size(R, value, &sp->capacity);
    sp->capacity_start = ts_node_start_byte(f);
    sp->capacity_end = ts_node_end_byte(f);
  } else if (sym == S->granule_field) {
    sp->has_granule = read_size(R, value, &sp->granule);
    sp->granule_start = ts_node_start_byte(f);
    sp->granule_end = ts_node_end_byte(f);
  } else if (sym == S->bandwidth_field) {
    sp->has_bandwidth = read_rate(R, value, &sp->bandwidth, &sp->bandwidth_per_cycle);
    sp->bandwidth_start = ts_node_start_byte(f);
    sp->bandwidth_end = ts_node_end_byte(f);
  } else if (sym == S->clock_field) {
    TSNode number = fld(R, value, R->F->value), unit = fld(R, value, R->F->unit);
    if (!usable(number) || !usable(unit)) return;
    size_t nlen, ulen;
    const char *n = node_text(R, number, &nlen), *u = node_text(R, unit, &ulen);
    vxp_unit_status st = vxp_units__hertz(n, nlen, u, ulen, &sp->clock_hz);
    sp->clock_start = ts_node_start_byte(f);
    sp->clock_end = ts_node_end_byte(f);
    if (st == VXP_UNIT_OK)
      sp->has_clock = true;
    else
      unit_problem(R, value, st, "hertz", vxp_units__hertz_units());
  } else if (sym == S->scope_field) {
    for (size_t i = 0; i < VXP__ARRAY_LEN(scope_words); i++) {
      if (text_is(R, value, scope_words[i])) {
        sp->has_scope = true;
        sp->scope = (uint8_t)i;
        return;
      }
    }
    char word[64];
    diag(R, "VXP0014", value,
         "unknown scope '%s' for memory space '%s'; expected device, sm, cta or thread",
         quote(R, value, word, sizeof(word)), sp->name);
  } else if (sym == S->managed_field) {
    if (text_is(R, value, "explicit"))
      sp->managed_explicit = true;
    else if (text_is(R, value, "cached"))
      sp->managed_explicit = false;
    else {
      char word[64];
      diag(R, "VXP0014", value,
           "unknown `managed` value '%s' for memory space '%s'; expected explicit or cached",
           quote(R, value, word, sizeof(word)), sp->name);
    }
  } else if (sym == S->replicas_field) {
    size_t len;
    const char *n = node_text(R, value, &len);
    if (vxp_units__integer(n, len, &sp->replicas) == VXP_UNIT_OK && sp->replicas > 0)
      sp->has_replicas = true;
    else
      diag(R, "VXP0014", value, "`replicas` of memory space '%s' must be a positive integer",
           sp->name);
  } else if (sym == S->crossing_field) {
    if (text_is(R, value, "streamed"))
      sp->crossing_streamed = true;
    else if (text_is(R, value, "sequenced"))
      sp->crossing_streamed = false;
    else {
      char word[64];
      diag(R, "VXP0014", value,
           "unknown `crossing` value '%s' for memory space '%s'; expected streamed or sequenced",
           quote(R, value, word, sizeof(word)), sp->name);
    }
  }
}

/* E6012 within one input: when `twice`, the second declaration of `text` is reported (and
 * dropped by the caller); returns `twice`. */
static bool redeclared(reader *R, TSNode name, const char *what, const char *text, bool twice) {
  if (twice)
    diag(R, "E6012", name,
         "%s '%s' is declared twice in %s; remove one or rename it -- a duplicate declaration "
         "would silently shadow the other",
         what, text, R->src->label);
  return twice;
}

static void read_memory(reader *R, TSNode item) {
  TSNode name = fld(R, item, R->F->name);
  if (!usable(name)) return;
  vxp_space sp;
  memset(&sp, 0, sizeof(sp));
  sp.name = node_dup(R, name);
  if (!sp.name) return;
  sp.src = R->src;
  sp.start_byte = ts_node_start_byte(item);
  sp.end_byte = ts_node_end_byte(item);
  sp.name_start = ts_node_start_byte(name);
  sp.name_end = ts_node_end_byte(name);
  bool twice = vxp_name_index__find(&R->spaces, sp.name) >= 0;
  if (redeclared(R, name, "memory space", sp.name, twice)) return; /* the name: the arena's */
  TSNode body = fld(R, item, R->F->body);
  uint32_t count = usable(body) ? vxp_node__named_count(body) : 0;
  for (uint32_t i = 0; i < count && R->rc == VXP_OK; i++) {
    TSNode f = ts_node_named_child(body, i);
    if (usable(f)) read_memory_field(R, &sp, f);
  }
  if (R->rc != VXP_OK || !arena_push(R->ctx, R->m->arena, &R->m->spaces, sp)) {
    R->rc = VXP_ENOMEM;
  } else if (!vxp_name_index__add(R->ctx, &R->spaces, sp.name, R->m->spaces.len - 1)) {
    R->rc = VXP_ENOMEM;
  }
}

static void read_edge(reader *R, vxp_topology *t, TSNode entry) {
  TSNode from = fld(R, entry, R->F->from), to = fld(R, entry, R->F->to);
  if (!usable(from) || !usable(to)) return;
  TSNode from_name = fld(R, from, R->F->name), to_name = fld(R, to, R->F->name);
  if (!usable(from_name) || !usable(to_name)) return;
  vxp_edge e;
  memset(&e, 0, sizeof(e));
  e.start_byte = ts_node_start_byte(entry);
  e.end_byte = ts_node_end_byte(entry);
  TSNode cost = fld(R, entry, R->F->cost);
  if (usable(cost)) {
    if (ts_node_symbol(cost) == R->S->rate) {
      if (!read_rate(R, cost, &e.rate, &e.rate_per_cycle)) return;
      e.cost_kind = VXP_COST_RATE;
    } else {
      size_t len;
      const char *n = node_text(R, cost, &len);
      if (vxp_units__integer(n, len, &e.weight) != VXP_UNIT_OK) {
        diag(R, "VXP0013", cost,
             "a transfer cost is a non-negative integer weight or a rate such as 31.5 GB/s");
        return;
      }
      e.cost_kind = VXP_COST_WEIGHT;
    }
  }
  uint32_t count = vxp_node__named_count(entry);
  for (uint32_t i = 0; i < count; i++) {
    TSNode marker = ts_node_named_child(entry, i);
    if (ts_node_symbol(marker) != R->S->edge_marker) continue;
    if (text_is(R, marker, "relaxed"))
      e.markers |= VXP_EDGE_RELAXED;
    else if (text_is(R, marker, "sync"))
      e.markers |= VXP_EDGE_SYNC;
    else if (text_is(R, marker, "copy_engine"))
      e.markers |= VXP_EDGE_COPY_ENGINE;
  }
  e.from = node_dup(R, from_name);
  e.to = node_dup(R, to_name);
  if (R->rc != VXP_OK || !arena_push(R->ctx, R->m->arena, &t->edges, e)) {
    R->rc = VXP_ENOMEM;
  }
}

/* Names listed in `visible: [...]` (memory paths) or `dtypes: [...]` (identifiers). */
static void read_name_list(reader *R, TSNode entry, bool space_paths, void *list_ptr) {
  Array(char *) *list = list_ptr;
  uint32_t count = ts_node_child_count(entry);
  /* Select by node kind: the 0.20 runtime's ts_node_field_name_for_child also names the
   * separating commas, and comments are named nodes. */
  TSSymbol want = space_paths ? R->S->memory_path : R->S->identifier;
  for (uint32_t i = 0; i < count && R->rc == VXP_OK; i++) {
    TSNode child = ts_node_child(entry, i);
    if (!usable(child) || ts_node_symbol(child) != want) continue;
    TSNode name = space_paths ? fld(R, child, R->F->name) : child;
    if (!usable(name)) continue;
    char *copy = node_dup(R, name);
    if (copy && !arena_push(R->ctx, R->m->arena, list, copy)) R->rc = VXP_ENOMEM;
  }
}

/* `dtypes:` must list element types, and at least one (vxc refuses an empty list). */
static void check_dtypes(reader *R, const vxp_topology *t, TSNode entry, size_t first) {
  if (t->dtypes.len == first) {
    diag(R, "VXP0016", entry,
         "`dtypes:` of topology '%s' is empty; list at least one element "
         "type, or leave `dtypes:` out for an unconstrained topology",
         t->name);
    return;
  }
  for (size_t i = first; i < t->dtypes.len; i++) {
    const char *d = t->dtypes.items[i];
    if (vxp_elem__from_name(d, strlen(d)) != VXP_ELEM_UNKNOWN) continue;
    diag(R, "VXP0016", entry,
         "'%s' in `dtypes:` of topology '%s' is not an element type (bool, i4 ... i128, u4 ... "
         "u128, f4e2m1, f8e4m3, f8e5m2, f16, bf16, f32, f64)",
         d, t->name);
  }
}

const char *vxp_machine__compute_elem_name(uint8_t elem) {
  return elem == VXP_COMPUTE_TF32 ? "tf32" : vxp_elem__name((vxp_elem)elem);
}

uint64_t vxp_machine__peak_ops(const vxp_topology *t, uint8_t elem) {
  if (!t) return 0;
  for (size_t i = 0; i < t->compute.len; i++)
    if (t->compute.items[i].elem == elem) return t->compute.items[i].ops_per_s;
  return 0;
}

static bool is_space_char(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* `// compute: ELEM[, ELEM...] NUMBER UNIT` in a topology body: a peak arithmetic rate per
 * element type. Any other comment is prose. A malformed line is VXP0017, so that a typo
 * never silently drops a figure. */
static void read_compute(reader *R, vxp_topology *t, TSNode comment) {
  size_t len;
  const char *s = node_text(R, comment, &len);
  static const char lead[] = "// compute:";
  if (len < sizeof(lead) - 1 || memcmp(s, lead, sizeof(lead) - 1) != 0) return;
  size_t i = sizeof(lead) - 1, first = t->compute.len;
  char quoted[128];
  quote(R, comment, quoted, sizeof(quoted));
  /* Element names, comma-separated. */
  for (;;) {
    while (i < len && is_space_char(s[i]))
      i++;
    size_t w = i;
    while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '_'))
      i++;
    vxp_compute c = {0, 0, ts_node_start_byte(comment), ts_node_end_byte(comment)};
    if (i - w == 4 && memcmp(s + w, "tf32", 4) == 0)
      c.elem = VXP_COMPUTE_TF32;
    else
      c.elem = (uint8_t)vxp_elem__from_name(s + w, i - w);
    if (c.elem == VXP_ELEM_UNKNOWN || c.elem == VXP_ELEM_BOOL) {
      t->compute.len = first;
      diag(R, "VXP0017", comment,
           "'%s': expected element types (f64, f32, tf32, bf16, f16, "
           "f8e4m3, f8e5m2, i8, u8, i4, u4, ...), then a rate such as 989.4 TFLOP/s",
           quoted);
      return;
    }
    if (vxp_machine__peak_ops(t, c.elem)) {
      t->compute.len = first;
      diag(R, "VXP0017", comment, "'%s': topology '%s' already declares a compute rate for %s",
           quoted, t->name, vxp_machine__compute_elem_name(c.elem));
      return;
    }
    if (!arena_push(R->ctx, R->m->arena, &t->compute, c)) {
      R->rc = VXP_ENOMEM;
      return;
    }
    while (i < len && is_space_char(s[i]))
      i++;
    if (i < len && s[i] == ',') {
      i++;
      continue;
    }
    break;
  }
  /* The rate: a number, a space, a unit, and nothing after it. */
  size_t n = i;
  while (i < len && !is_space_char(s[i]))
    i++;
  size_t nlen = i - n;
  while (i < len && is_space_char(s[i]))
    i++;
  size_t u = i;
  while (i < len && !is_space_char(s[i]))
    i++;
  size_t ulen = i - u;
  while (i < len && is_space_char(s[i]))
    i++;
  uint64_t rate = 0;
  vxp_unit_status st = nlen && ulen && i == len ? vxp_units__ops(s + n, nlen, s + u, ulen, &rate)
                                                : VXP_UNIT_MALFORMED;
  if (st == VXP_UNIT_OK && rate == 0) st = VXP_UNIT_MALFORMED;
  if (st != VXP_UNIT_OK) {
    t->compute.len = first;
    if (st == VXP_UNIT_UNKNOWN)
      diag(R, "VXP0017", comment, "'%s': unknown rate unit; units are case-sensitive: %s", quoted,
           vxp_units__ops_units());
    else if (st == VXP_UNIT_INEXACT)
      diag(R, "VXP0017", comment, "'%s' is not a whole number of operations per second", quoted);
    else if (st == VXP_UNIT_OVERFLOW)
      diag(R, "VXP0017", comment, "'%s' does not fit in 64 bits of operations per second", quoted);
    else
      diag(R, "VXP0017", comment,
           "'%s': expected a positive rate after the element types "
           "(`// compute: bf16, f16 989.4 TFLOP/s`)",
           quoted);
    return;
  }
  for (size_t k = first; k < t->compute.len; k++)
    t->compute.items[k].ops_per_s = rate;
}

static void read_topology(reader *R, TSNode item) {
  TSNode name = fld(R, item, R->F->name);
  if (!usable(name)) return;
  vxp_topology t;
  memset(&t, 0, sizeof(t));
  t.name = node_dup(R, name);
  if (!t.name) return;
  t.src = R->src;
  t.start_byte = ts_node_start_byte(item);
  t.end_byte = ts_node_end_byte(item);
  t.name_start = ts_node_start_byte(name);
  t.name_end = ts_node_end_byte(name);
  bool twice = vxp_name_index__find(&R->topologies, t.name) >= 0;
  if (redeclared(R, name, "topology", t.name, twice)) return; /* the name: the arena's */
  TSNode body = fld(R, item, R->F->body);
  uint32_t count = usable(body) ? vxp_node__named_count(body) : 0;
  for (uint32_t i = 0; i < count && R->rc == VXP_OK; i++) {
    TSNode entry = ts_node_named_child(body, i);
    if (!usable(entry)) continue;
    TSSymbol sym = ts_node_symbol(entry);
    if (sym == R->S->memory_entry) {
      TSNode space = fld(R, fld(R, entry, R->F->value), R->F->name);
      if (usable(space)) t.memory = node_dup(R, space); /* the last one wins */
    } else if (sym == R->S->visible_entry) {
      t.has_visible = true;
      read_name_list(R, entry, true, &t.visible);
    } else if (sym == R->S->dtypes_entry) {
      t.has_dtypes = true;
      size_t before = t.dtypes.len;
      read_name_list(R, entry, false, &t.dtypes);
      check_dtypes(R, &t, entry, before);
    } else if (sym == R->S->arch_entry) {
      TSNode value = fld(R, entry, R->F->value);
      if (usable(value)) t.arch = node_dup(R, value);
    } else if (sym == R->S->transfer_edge) {
      read_edge(R, &t, entry);
    } else if (sym == R->S->line_comment) {
      read_compute(R, &t, entry);
    }
  }
  if (!t.memory && R->rc == VXP_OK)
    diag(R, "VXP0015", name, "topology '%s' has no `memory:` entry (it is required)", t.name);
  if (R->rc != VXP_OK || !arena_push(R->ctx, R->m->arena, &R->m->topologies, t)) {
    R->rc = VXP_ENOMEM;
  } else if (!vxp_name_index__add(R->ctx, &R->topologies, t.name, R->m->topologies.len - 1)) {
    R->rc = VXP_ENOMEM;
  }
}

/* Whether the subtree calls a `raw::` primitive. Iterative: bodies nest arbitrarily. */
static bool is_raw_path(TSNode n, const void *data) {
  const reader *R = data;
  return vxp_node__is(n, R->S->scoped_identifier) &&
         vxp_node__text_is(R->src->text, vxp_node__field(n, R->F->path), "raw");
}

static bool uses_raw(reader *R, TSNode body) {
  return !ts_node_is_null(vxp_node__find(body, is_raw_path, R));
}

static void read_lowering(reader *R, TSNode item) {
  TSNode from = fld(R, fld(R, item, R->F->from), R->F->name);
  TSNode to = fld(R, fld(R, item, R->F->to), R->F->name);
  TSNode topo = fld(R, fld(R, item, R->F->topology), R->F->name);
  TSNode body = fld(R, item, R->F->body);
  if (!usable(from) || !usable(to)) return;
  vxp_lowering l;
  memset(&l, 0, sizeof(l));
  l.from = node_dup(R, from);
  l.to = node_dup(R, to);
  l.topology = usable(topo) ? node_dup(R, topo) : NULL;
  l.uses_raw = uses_raw(R, body);
  l.start_byte = ts_node_start_byte(item);
  l.end_byte = ts_node_end_byte(item);
  l.body_start = ts_node_is_null(body) ? ts_node_end_byte(item) : ts_node_start_byte(body);
  if (R->rc == VXP_OK) R->rc = vxp_lowering__read_body(R->ctx, R->m->arena, R->src, item, &l);
  if (R->rc == VXP_OK) R->rc = vxp_lowering__check_bounds(R->ctx, R->src, item, &R->m->diags);
  if (R->rc != VXP_OK || !arena_push(R->ctx, R->m->arena, &R->m->lowerings, l)) {
    R->rc = VXP_ENOMEM;
  }
}

/* One top-level node: a Memory, Topology or lowering is read, anything else skipped. */
static void read_item(reader *R, TSNode item) {
  TSSymbol sym = ts_node_symbol(item);
  if (sym == R->S->memory_item)
    read_memory(R, item);
  else if (sym == R->S->topology_item)
    read_topology(R, item);
  else if (sym == R->S->transfer_impl_item)
    read_lowering(R, item);
}

/* Read the items into R (its name indexes carry over from earlier calls). */
static int read_some(reader *R, TSNode root, const TSNode *items, size_t count) {
  vxp_context *ctx = R->ctx;
  if (items) {
    for (size_t i = 0; i < count && R->rc == VXP_OK; i++) {
      if (vxp_ctx__interrupted(ctx))
        R->rc = VXP_ECANCELLED;
      else
        read_item(R, items[i]);
    }
  } else {
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        /* Before each item: the caller's cancellation flag or time budget (a model of 10^5
         * spaces takes seconds to read). */
        if (vxp_ctx__interrupted(ctx)) {
          R->rc = VXP_ECANCELLED;
          break;
        }
        read_item(R, ts_tree_cursor_current_node(&cursor));
      } while (R->rc == VXP_OK && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
  }
  return R->rc;
}

int vxp_machine__read_items(vxp_context *ctx, vxp_machine *m, const vxp_source *src, TSNode root,
                            const TSNode *items, size_t count) {
  reader R = {ctx, m, src, &ctx->syms, &ctx->fields, VXP_OK, {NULL, 0, 0}, {NULL, 0, 0}};
  read_some(&R, root, items, count);
  vxp_name_index__free(ctx, &R.spaces);
  vxp_name_index__free(ctx, &R.topologies);
  return R.rc;
}

vxp_machine_reader *vxp_machine__reader_new(vxp_context *ctx, vxp_machine *m,
                                            const vxp_source *src) {
  reader *R = vxp_ctx__calloc(ctx, 1, sizeof(*R));
  if (!R) return NULL;
  R->ctx = ctx;
  R->m = m;
  R->src = src;
  R->S = &ctx->syms;
  R->F = &ctx->fields;
  R->rc = VXP_OK;
  return R;
}

int vxp_machine__reader_read(vxp_machine_reader *R, TSNode root) {
  return read_some(R, root, NULL, 0);
}

void vxp_machine__reader_free(vxp_machine_reader *R) {
  if (!R) return;
  vxp_name_index__free(R->ctx, &R->spaces);
  vxp_name_index__free(R->ctx, &R->topologies);
  vxp_ctx__free(R->ctx, R);
}

int vxp_machine__read(vxp_context *ctx, vxp_machine *m, const vxp_source *src, TSNode root) {
  return vxp_machine__read_items(ctx, m, src, root, NULL, 0);
}

/* ------------------------------------------------------------------ machine objects */

vxp_machine *vxp_machine__new(vxp_context *ctx, const char *label) {
  vxp_machine *m = VXP_ARENA_HANDLE(ctx, vxp_machine, own);
  if (!m) return NULL;
  m->tag = VXP_TAG_MACHINE;
  m->ctx = ctx;
  m->arena = &m->own;
  m->label = vxp_arena__strdup(ctx, m->arena, label);
  if (!m->label) {
    vxp_machine_free(m);
    return NULL;
  }
  return m;
}

vxp_machine *vxp_machine__new_in(vxp_context *ctx, vxp_arena *arena, const char *label) {
  vxp_machine *m = vxp_arena__alloc(ctx, arena, sizeof(*m));
  if (!m) return NULL;
  m->ctx = ctx;
  m->arena = arena;
  m->label = vxp_arena__strdup(ctx, arena, label);
  return m->label ? m : NULL; /* what was made is the arena's */
}

void vxp_machine_free(vxp_machine *m) {
  VXP__TAG(m, VXP_TAG_MACHINE, );

  if (!m) return;
  m->tag = VXP_TAG_FREED;
  if (!m->diags_sealed) vxp_diag__list_free(m->ctx, &m->diags);
  /* Everything else is the arena's: the machine's own, or the program's that holds it. */
  if (m->arena == &m->own) vxp_arena__free_handle(m->ctx, &m->own);
}

const char *vxp_machine_label(const vxp_machine *m) {
  VXP__TAG(m, VXP_TAG_MACHINE, NULL);
  return m ? m->label : NULL;
}

size_t vxp_machine_diagnostic_count(const vxp_machine *m) {
  VXP__TAG(m, VXP_TAG_MACHINE, 0);
  return m ? m->diags.len : 0;
}

const vxp_diagnostic *vxp_machine_diagnostic(const vxp_machine *m, size_t i) {
  VXP__TAG(m, VXP_TAG_MACHINE, NULL);

  return (m && i < m->diags.len) ? &m->diags.items[i] : NULL;
}

/* ------------------------------------------------------------------ merged view */

static const char *const builtin_spaces[] = {"CPU_DRAM",   "NPU_HBM", "GPU_HBM",
                                             "Local_SRAM", "NIC_RAM", "Remote_HBM"};

const char *const *vxp_machine__builtin_spaces(size_t *count) {
  *count = VXP__ARRAY_LEN(builtin_spaces);
  return builtin_spaces;
}

bool vxp_machine__space_held(const vxp_machine_view *view, const char *name) {
  for (size_t i = 0; i < view->topologies.len; i++) {
    const vxp_topology *t = view->topologies.items[i];
    if (t->memory && strcmp(t->memory, name) == 0) return true;
    for (size_t k = 0; k < t->visible.len; k++)
      if (strcmp(t->visible.items[k], name) == 0) return true;
  }
  return false;
}

bool vxp_machine__builtin_space(const char *name) {
  for (size_t i = 0; i < VXP__ARRAY_LEN(builtin_spaces); i++) {
    if (strcmp(builtin_spaces[i], name) == 0) return true;
  }
  return false;
}

/* Vx's built-in topologies and the space their values live in (vxc's descriptor table). */
static const struct {
  const char *topology, *space;
} builtin_topologies[] = {
    {"CPU", "CPU_DRAM"},        {"Current", NULL},        {"CpuAvx512", "CPU_DRAM"},
    {"CPU_AVX512", "CPU_DRAM"}, {"CpuNeon", "CPU_DRAM"},  {"CPU_Neon", "CPU_DRAM"},
    {"AMX", "CPU_DRAM"},        {"GPU", "GPU_HBM"},       {"NPU", "NPU_HBM"},
    {"ANE", "NPU_HBM"},         {"AccCore", "Local_SRAM"}};

static bool is_builtin_topology(const char *name) {
  for (size_t i = 0; i < VXP__ARRAY_LEN(builtin_topologies); i++) {
    if (strcmp(builtin_topologies[i].topology, name) == 0) return true;
  }
  return false;
}

bool vxp_machine__builtin_topology(const char *name) { return is_builtin_topology(name); }

const char *vxp_machine__builtin_topology_space(const char *topology) {
  for (size_t i = 0; i < VXP__ARRAY_LEN(builtin_topologies); i++) {
    if (strcmp(builtin_topologies[i].topology, topology) == 0) return builtin_topologies[i].space;
  }
  return NULL;
}

const vxp_space *vxp_machine__parent(const vxp_machine_view *view, const vxp_space *sp) {
  return sp->within ? vxp_machine__space(view, sp->within) : NULL;
}

static uint64_t name_hash_n(const char *name, size_t len) {
  uint64_t h = 1469598103934665603u; /* FNV-1a */
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char)name[i]) * 1099511628211u;
  return h;
}

static uint64_t name_hash(const char *name) { return name_hash_n(name, strlen(name)); }

/* The slot of `name` in `idx`: where it is, or the empty slot where it would go. */
static struct vxp_name_slot *index_slot(const vxp_name_index *idx, const char *name) {
  size_t mask = idx->cap - 1;
  for (size_t i = (size_t)name_hash(name) & mask;; i = (i + 1) & mask) {
    struct vxp_name_slot *slot = &idx->slots[i];
    if (!slot->name || strcmp(slot->name, name) == 0) return slot;
  }
}

bool vxp_name_index__reserve(vxp_context *ctx, vxp_name_index *idx, size_t more) {
  if (more > UINT32_MAX || idx->len > UINT32_MAX) return false;
  size_t want = (idx->len + more) * 2, cap = idx->cap ? idx->cap : 16;
  if (want <= idx->cap) return true;
  while (cap < want)
    cap *= 2;
  vxp_name_index grown = {vxp_ctx__calloc(ctx, cap, sizeof(*grown.slots)), cap, 0};
  if (!grown.slots) return false;
  for (size_t i = 0; i < idx->cap; i++) {
    if (!idx->slots[i].name) continue;
    *index_slot(&grown, idx->slots[i].name) = idx->slots[i];
    grown.len++;
  }
  vxp_ctx__free(ctx, idx->slots);
  *idx = grown;
  return true;
}

bool vxp_name_index__add(vxp_context *ctx, vxp_name_index *idx, const char *name, size_t pos) {
  if (pos > UINT32_MAX) return false;
  if ((idx->len + 1) * 2 > idx->cap && !vxp_name_index__reserve(ctx, idx, idx->len ? idx->len : 8))
    return false;
  struct vxp_name_slot *slot = index_slot(idx, name);
  if (slot->name) return true;
  slot->name = name;
  slot->pos = (uint32_t)pos;
  idx->len++;
  return true;
}

long vxp_name_index__find(const vxp_name_index *idx, const char *name) {
  if (idx->cap == 0) return -1;
  const struct vxp_name_slot *slot = index_slot(idx, name);
  return slot->name ? (long)slot->pos : -1;
}

long vxp_name_index__find_n(const vxp_name_index *idx, const char *name, size_t len) {
  if (idx->cap == 0) return -1;
  size_t mask = idx->cap - 1;
  for (size_t i = (size_t)name_hash_n(name, len) & mask;; i = (i + 1) & mask) {
    const struct vxp_name_slot *slot = &idx->slots[i];
    if (!slot->name) return -1;
    if (strlen(slot->name) == len && memcmp(slot->name, name, len) == 0) return (long)slot->pos;
  }
}

const vxp_space *vxp_machine__space(const vxp_machine_view *view, const char *name) {
  if (view->space_index.len == view->spaces.len && view->spaces.len > 0) {
    long at = vxp_name_index__find(&view->space_index, name);
    return at < 0 ? NULL : view->spaces.items[at];
  }
  for (size_t i = 0; i < view->spaces.len; i++) {
    if (strcmp(view->spaces.items[i]->name, name) == 0) return view->spaces.items[i];
  }
  return NULL;
}

const vxp_topology *vxp_machine__topology(const vxp_machine_view *view, const char *name) {
  if (view->topology_index.len == view->topologies.len && view->topologies.len > 0) {
    long at = vxp_name_index__find(&view->topology_index, name);
    return at < 0 ? NULL : view->topologies.items[at];
  }
  for (size_t i = 0; i < view->topologies.len; i++) {
    if (strcmp(view->topologies.items[i]->name, name) == 0) return view->topologies.items[i];
  }
  return NULL;
}

static bool holds(const vxp_topology *t, const char *space, bool by_visibility) {
  if (!by_visibility) return t->memory && strcmp(t->memory, space) == 0;
  for (size_t i = 0; i < t->visible.len; i++) {
    if (strcmp(t->visible.items[i], space) == 0) return true;
  }
  return false;
}

static bool lists_dtype(const vxp_topology *t, vxp_elem elem) {
  for (size_t i = 0; i < t->dtypes.len; i++) {
    const char *d = t->dtypes.items[i];
    if (vxp_elem__from_name(d, strlen(d)) == elem) return true;
  }
  return false;
}

const vxp_topology *vxp_machine__dtype_refusal(const vxp_machine_view *view, const char *space,
                                               const char *elem_name) {
  vxp_elem elem = vxp_elem__from_name(elem_name, strlen(elem_name));
  if (elem == VXP_ELEM_UNKNOWN) return NULL;
  for (int by_visibility = 0; by_visibility < 2; by_visibility++) {
    const vxp_topology *refusing = NULL;
    bool held = false;
    for (size_t i = 0; i < view->topologies.len; i++) {
      const vxp_topology *t = view->topologies.items[i];
      if (!holds(t, space, by_visibility)) continue;
      held = true;
      if (!t->has_dtypes || lists_dtype(t, elem)) return NULL;
      if (!refusing) refusing = t;
    }
    if (held) return refusing;
  }
  return NULL;
}

void vxp_name_index__free(vxp_context *ctx, vxp_name_index *idx) {
  vxp_ctx__free(ctx, idx->slots);
  *idx = (vxp_name_index){NULL, 0, 0};
}

void vxp_machine__view_free(vxp_context *ctx, vxp_machine_view *view) {
  vxp_name_index__free(ctx, &view->space_index);
  vxp_name_index__free(ctx, &view->topology_index);
  array_free(ctx, &view->spaces);
  array_free(ctx, &view->topologies);
  array_free(ctx, &view->lowerings);
}

static const char *const scope_names[] = {"Device", "Sm", "Cta", "Thread"};

/* Which spaces lie on a `within:` cycle (following parents from one comes back to it),
 * for every space at once: each parent chain is walked once, so a chain of 10^4 spaces
 * costs 10^4 steps, not 10^4 walks of it. `state` has one byte per space. */
static void mark_within_cycles(const vxp_machine_view *view, unsigned char *state) {
  enum { UNSEEN, ON_PATH, DONE, CYCLE };
  size_t n = view->spaces.len;
  for (size_t i = 0; i < n; i++) {
    if (state[i] != UNSEEN) continue;
    /* Walk up from i, marking the path, until a root, a space already decided, or the
     * path itself (a cycle: from that space round to it again). */
    long at = (long)i;
    while (at >= 0 && state[at] == UNSEEN) {
      state[at] = ON_PATH;
      const vxp_space *sp = view->spaces.items[at];
      at = sp->within ? vxp_name_index__find(&view->space_index, sp->within) : -1;
    }
    if (at >= 0 && state[at] == ON_PATH) {
      long c = at;
      do {
        state[c] = CYCLE;
        c = vxp_name_index__find(&view->space_index, view->spaces.items[c]->within);
      } while (c != at);
    }
    for (long k = (long)i; k >= 0 && state[k] == ON_PATH;) {
      state[k] = DONE;
      const vxp_space *sp = view->spaces.items[k];
      k = sp->within ? vxp_name_index__find(&view->space_index, sp->within) : -1;
    }
  }
}

/* E6008: declared capacity, bandwidth and granule must be positive. */
static int check_positive(vxp_context *ctx, const vxp_space *sp, vxp_diag_list *diags) {
  const struct {
    const char *field;
    bool has;
    uint64_t value;
    uint32_t start, end;
  } fields[] = {
      {"capacity", sp->has_capacity, sp->capacity, sp->capacity_start, sp->capacity_end},
      {"bandwidth", sp->has_bandwidth, sp->bandwidth, sp->bandwidth_start, sp->bandwidth_end},
      {"granule", sp->has_granule, sp->granule, sp->granule_start, sp->granule_end},
      /* A clock of 0 Hz once passed silently and the roofline then said the space had no
       * bandwidth. */
      {"clock", sp->has_clock, sp->clock_hz, sp->clock_start, sp->clock_end},
  };
  for (size_t k = 0; k < VXP__ARRAY_LEN(fields); k++) {
    if (!fields[k].has || fields[k].value != 0) continue;
    if (!vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "E6008", sp->src, fields[k].start,
                       fields[k].end, "memory space '%s' has a non-positive `%s`", sp->name,
                       fields[k].field))
      return VXP_ENOMEM;
  }
  /* VXP0012: a per-cycle bandwidth whose bytes per second (times the clock, and the
   * replicas of a space below device scope) do not fit 64 bits: it used to pass, and the
   * roofline then said the space had no bandwidth. */
  if (sp->has_bandwidth && sp->bandwidth > 0) {
    uint64_t bw = sp->bandwidth;
    bool fits = !sp->bandwidth_per_cycle || !sp->has_clock || sp->clock_hz == 0 ||
                vxp_mul_u64(bw, sp->clock_hz, &bw);
    if (fits && sp->has_scope && sp->scope != VXP_SCOPE_DEVICE && sp->has_replicas)
      fits = vxp_mul_u64(bw, sp->replicas, &bw);
    if (!fits && !vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "VXP0012", sp->src,
                                sp->bandwidth_start, sp->bandwidth_end,
                                "memory space '%s': its bandwidth in bytes per second (per "
                                "cycle times the clock, times the replicas) is past 64 bits",
                                sp->name))
      return VXP_ENOMEM;
  }
  return VXP_OK;
}

/* Coherence of the merged hierarchy, in declaration order: E6008, E6006 (every space on a
 * cycle), then E6007 and E6011 against the parent (skipped on a cycle, as vxc does). */
static int check_space(vxp_context *ctx, const vxp_machine_view *view, const vxp_space *sp,
                       bool on_cycle, vxp_diag_list *diags);

static int check_spaces(vxp_context *ctx, const vxp_machine_view *view, vxp_diag_list *diags) {
  unsigned char *state = vxp_ctx__calloc(ctx, view->spaces.len + 1, 1);
  if (!state) return VXP_ENOMEM;
  mark_within_cycles(view, state);
  int rc = VXP_OK;
  for (size_t i = 0; rc == VXP_OK && i < view->spaces.len; i++)
    rc = check_space(ctx, view, view->spaces.items[i], state[i] == 3 /* CYCLE */, diags);
  vxp_ctx__free(ctx, state);
  return rc;
}

/* The checks of check_spaces for one space; `on_cycle` from mark_within_cycles. */
static int check_space(vxp_context *ctx, const vxp_machine_view *view, const vxp_space *sp,
                       bool on_cycle, vxp_diag_list *diags) {
  {
    if (check_positive(ctx, sp, diags) != VXP_OK) return VXP_ENOMEM;
    const vxp_space *parent = vxp_machine__parent(view, sp);
    if (!parent) return VXP_OK; /* a root, or a built-in parent (CPU_DRAM) with no capacity */
    if (on_cycle) {
      if (!vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "E6006", sp->src, sp->within_start,
                         sp->within_end,
                         "memory space '%s' is in a `within:` cycle (a space cannot contain "
                         "itself)",
                         sp->name))
        return VXP_ENOMEM;
      return VXP_OK;
    }
    if (sp->has_capacity && parent->has_capacity && sp->capacity > parent->capacity) {
      if (!vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "E6007", sp->src, sp->capacity_start,
                         sp->capacity_end,
                         "memory space '%s' (%llu bytes) is larger than its parent '%s' (%llu "
                         "bytes); a sub-space cannot exceed what contains it",
                         sp->name, (unsigned long long)sp->capacity, parent->name,
                         (unsigned long long)parent->capacity))
        return VXP_ENOMEM;
    }
    if (sp->has_scope && parent->has_scope && sp->scope < parent->scope) {
      if (!vxp_diag__add(
              ctx, diags, VXP_SEVERITY_ERROR, "E6011", sp->src, sp->start_byte, sp->end_byte,
              "memory space '%s' has scope %s, broader than its parent '%s' (%s); "
              "locality must narrow down the hierarchy, not widen",
              sp->name, scope_names[sp->scope], parent->name, scope_names[parent->scope]))
        return VXP_ENOMEM;
    }
  }
  return VXP_OK;
}

/* E6016 (a declared topology reusing a built-in name) and E6005 (a topology whose explicit
 * `visible:` list leaves out its own `memory:`). */
static int check_topologies(vxp_context *ctx, const vxp_machine_view *view, vxp_diag_list *diags) {
  for (size_t i = 0; i < view->topologies.len; i++) {
    const vxp_topology *t = view->topologies.items[i];
    if (is_builtin_topology(t->name) &&
        !vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "E6016", t->src, t->name_start, t->name_end,
                       "topology '%s' shadows the built-in topology of the same name; give "
                       "the declared machine a name of its own",
                       t->name))
      return VXP_ENOMEM;
    if (!t->memory || !t->has_visible) continue;
    bool sees_own = false;
    for (size_t k = 0; k < t->visible.len; k++) {
      if (strcmp(t->visible.items[k], t->memory) == 0) sees_own = true;
    }
    if (!sees_own &&
        !vxp_diag__add(ctx, diags, VXP_SEVERITY_ERROR, "E6005", t->src, t->start_byte, t->end_byte,
                       "topology '%s' is incoherent: it cannot see its own default memory "
                       "space '%s' (not in its visibility set)",
                       t->name, t->memory))
      return VXP_ENOMEM;
  }
  return VXP_OK;
}

/* E6012 for a name a previous input already declared; the first declaration wins. */
static int report_duplicate(vxp_context *ctx, vxp_diag_list *diags, const char *kind,
                            const char *name, const vxp_source *src, uint32_t start, uint32_t end,
                            const vxp_source *prior_src, uint32_t prior_start, uint32_t prior_end) {
  vxp_diagnostic *d = vxp_diag__add(
      ctx, diags, VXP_SEVERITY_ERROR, "E6012", src, start, end,
      "%s '%s' is declared in more than one input (also in '%s'); remove one or rename it -- "
      "a duplicate declaration would silently shadow the other",
      kind, name, prior_src->label);
  if (!d ||
      !vxp_diag__note(ctx, d, false, prior_src, prior_start, prior_end, "first declared here"))
    return VXP_ENOMEM;
  return VXP_OK;
}

int vxp_machine__merge(vxp_context *ctx, const vxp_machine *const *inputs, size_t input_count,
                       vxp_machine_view *view, vxp_diag_list *diags) {
  for (size_t k = 0; k < input_count; k++) {
    const vxp_machine *m = inputs[k];
    if (!m) continue;
    for (size_t i = 0; i < m->spaces.len; i++) {
      const vxp_space *sp = &m->spaces.items[i];
      const vxp_space *prior = vxp_machine__space(view, sp->name);
      if (prior) {
        if (report_duplicate(ctx, diags, "memory space", sp->name, sp->src, sp->name_start,
                             sp->name_end, prior->src, prior->name_start,
                             prior->name_end) != VXP_OK)
          return VXP_ENOMEM;
        continue;
      }
      if (!array_push(ctx, &view->spaces, sp) ||
          !vxp_name_index__add(ctx, &view->space_index, sp->name, view->spaces.len - 1))
        return VXP_ENOMEM;
    }
    for (size_t i = 0; i < m->topologies.len; i++) {
      const vxp_topology *t = &m->topologies.items[i];
      const vxp_topology *prior = vxp_machine__topology(view, t->name);
      if (prior) {
        if (report_duplicate(ctx, diags, "topology", t->name, t->src, t->name_start, t->name_end,
                             prior->src, prior->name_start, prior->name_end) != VXP_OK)
          return VXP_ENOMEM;
        continue;
      }
      if (!array_push(ctx, &view->topologies, t) ||
          !vxp_name_index__add(ctx, &view->topology_index, t->name, view->topologies.len - 1))
        return VXP_ENOMEM;
    }
    for (size_t i = 0; i < m->lowerings.len; i++) {
      if (!array_push(ctx, &view->lowerings, &m->lowerings.items[i])) return VXP_ENOMEM;
    }
  }
  int rc = check_spaces(ctx, view, diags);
  if (rc == VXP_OK) rc = check_topologies(ctx, view, diags);
  return rc;
}

size_t vxp_machine_builtin_count(void) { return vxp_builtin__model_count; }

const char *vxp_machine_builtin_name(size_t i) {
  return i < vxp_builtin__model_count ? vxp_builtin__models[i].name : NULL;
}

const char *vxp_machine_builtin_label(size_t i) {
  return i < vxp_builtin__model_count ? vxp_builtin__models[i].label : NULL;
}

const char *vxp_machine_builtin_file(size_t i) {
  return i < vxp_builtin__model_count ? vxp_builtin__models[i].file : NULL;
}

/* ------------------------------------------------------------------ the model's items */

/* The first of `count` declarations (their start bytes `at(i)`, ascending) from `*next` on
 * that starts inside [start, end), or VXP_NONE; `*next` moves past what it passed. */
#define LINK(list, next, it)                                                                       \
  do {                                                                                             \
    while ((next) < (list).len && (list).items[(next)].start_byte < (it)->start_byte)              \
      (next)++;                                                                                    \
    if ((next) < (list).len && (list).items[(next)].start_byte < (it)->end_byte)                   \
      (it)->declaration = (uint32_t)(next)++;                                                      \
  } while (0)

void vxp_machine__link_declarations(vxp_model *m) {
  const vxp_machine *d = m->declarations;
  size_t space = 0, topology = 0, lowering = 0;
  for (size_t i = 0; i < m->items.len; i++) {
    vxp_model_item *it = &m->items.items[i];
    it->declaration = VXP_NONE;
    if (!d) continue;
    if (it->kind == VXP_ITEM_MEMORY)
      LINK(d->spaces, space, it);
    else if (it->kind == VXP_ITEM_TOPOLOGY)
      LINK(d->topologies, topology, it);
    else if (it->kind == VXP_ITEM_LOWERING)
      LINK(d->lowerings, lowering, it);
  }
}

u128 vxp_space__budget(const vxp_space *sp, uint32_t margin_ppm) {
  u128 offered = (u128)sp->capacity + sp->overhead;
  /* offered < 2^65 and 10^6 < 2^20: no product passes 128 bits. */
  u128 have = offered * (1000000u - margin_ppm), held = sp->overhead * 1000000u;
  return have > held ? have - held : 0;
}
