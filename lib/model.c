/* SPDX-License-Identifier: Apache-2.0 */
/* model.c - element types and the program model's life cycle. */
#include "model.h"

static const struct {
  const char *name;
  unsigned bits;
} elem_table[VXP_ELEM_COUNT] = {
    [VXP_ELEM_UNKNOWN] = {"", 0},      [VXP_ELEM_BOOL] = {"bool", 1},
    [VXP_ELEM_I4] = {"i4", 4},         [VXP_ELEM_U4] = {"u4", 4},
    [VXP_ELEM_F4E2M1] = {"f4e2m1", 4}, [VXP_ELEM_I8] = {"i8", 8},
    [VXP_ELEM_U8] = {"u8", 8},         [VXP_ELEM_F8E4M3] = {"f8e4m3", 8},
    [VXP_ELEM_F8E5M2] = {"f8e5m2", 8}, [VXP_ELEM_I16] = {"i16", 16},
    [VXP_ELEM_U16] = {"u16", 16},      [VXP_ELEM_F16] = {"f16", 16},
    [VXP_ELEM_BF16] = {"bf16", 16},    [VXP_ELEM_I32] = {"i32", 32},
    [VXP_ELEM_U32] = {"u32", 32},      [VXP_ELEM_F32] = {"f32", 32},
    [VXP_ELEM_I64] = {"i64", 64},      [VXP_ELEM_U64] = {"u64", 64},
    [VXP_ELEM_F64] = {"f64", 64},      [VXP_ELEM_I128] = {"i128", 128},
    [VXP_ELEM_U128] = {"u128", 128},
};

vxp_elem vxp_elem__from_name(const char *s, size_t len) {
  if (len == 4 && memcmp(s, "Bool", 4) == 0) return VXP_ELEM_BOOL;
  for (int e = 1; e < VXP_ELEM_COUNT; e++) {
    const char *name = elem_table[e].name;
    /* the first byte first: resolution asks this of every name it meets; the compare stops
     * at the end of `name`, so name[len] is read only when name has len bytes */
    if (!len || name[0] != s[0]) continue;
    size_t n = 1;
    while (n < len && name[n] && name[n] == s[n])
      n++;
    if (n == len && name[len] == '\0') return (vxp_elem)e;
  }
  return VXP_ELEM_UNKNOWN;
}

unsigned vxp_elem__bits(vxp_elem e) { return e < VXP_ELEM_COUNT ? elem_table[e].bits : 0; }

const char *vxp_elem__name(vxp_elem e) { return e < VXP_ELEM_COUNT ? elem_table[e].name : ""; }

#define TABLE(fn, data, a) (fn)((data), (void **)&(a).items, (a).len, sizeof(*(a).items), &(a).cap)

void vxp_model__each_table(vxp_model *m, vxp_table_fn fn, void *data) {
  for (size_t i = 0; i < m->functions.len; i++) {
    vxp_function *f = &m->functions.items[i];
    if (f->tables_in_arena) continue; /* the arena's: they go with it */
    TABLE(fn, data, f->generics);
    TABLE(fn, data, f->params);
    TABLE(fn, data, f->events);
    TABLE(fn, data, f->reads);
    TABLE(fn, data, f->accesses);
    TABLE(fn, data, f->ariths);
  }
  TABLE(fn, data, m->functions);
  TABLE(fn, data, m->cexprs);
  TABLE(fn, data, m->dim_list);
  TABLE(fn, data, m->types);
  TABLE(fn, data, m->consts);
  TABLE(fn, data, m->declared);
  TABLE(fn, data, m->call_args);
  TABLE(fn, data, m->externs);
  TABLE(fn, data, m->enums);
  TABLE(fn, data, m->structs);
  TABLE(fn, data, m->traits);
  TABLE(fn, data, m->topologies);
  TABLE(fn, data, m->refs);
  TABLE(fn, data, m->items);
  TABLE(fn, data, m->visibility);
  TABLE(fn, data, m->raw);
  TABLE(fn, data, m->names.strings);
  TABLE(fn, data, m->names.lengths);
  fn(data, (void **)&m->names.slots, m->names.slot_count, sizeof(*m->names.slots), NULL);
}

static void free_table(void *data, void **items, size_t len, size_t elem, size_t *cap) {
  (void)len, (void)elem;
  vxp_ctx__free(data, *items);
  *items = NULL;
  if (cap) *cap = 0;
}

void vxp_model__free(vxp_context *ctx, vxp_model *m) {
  vxp_model__each_table(m, free_table, ctx);
  vxp_strtab__free(ctx, &m->names); /* its pool; its tables went above */
}

bool vxp_function__reads(const vxp_function *fn, vxp_name name) {
  size_t lo = 0, hi = fn->reads.len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (fn->reads.items[mid] < name)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < fn->reads.len && fn->reads.items[lo] == name;
}

uint32_t vxp_model__item_at(const vxp_model *m, uint32_t offset) {
  size_t lo = 0, hi = m->items.len;
  while (lo < hi) { /* the first item ending after offset */
    size_t mid = lo + (hi - lo) / 2;
    if (m->items.items[mid].end_byte <= offset)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < m->items.len && m->items.items[lo].start_byte <= offset ? (uint32_t)lo : VXP_NONE;
}
