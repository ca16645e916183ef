/* SPDX-License-Identifier: Apache-2.0 */
/* symbols.c - resolve the grammar's node kinds and field names to ids once. */
#include "symbols.h"

#include <stddef.h>

/* A name the library wants and where in vxp_symbols or vxp_fields its id goes. */
typedef struct wanted {
  const char *name;
  size_t offset;
} wanted;

#define VXP__WANT_SYM(n) {#n, offsetof(vxp_symbols, n)},
static const wanted kinds[] = {VXP_NODE_KINDS(VXP__WANT_SYM)};
#undef VXP__WANT_SYM
#define VXP__WANT_FIELD(n) {#n, offsetof(vxp_fields, n)},
static const wanted names[] = {VXP_FIELD_NAMES(VXP__WANT_FIELD)};
#undef VXP__WANT_FIELD

/* The wanted names by a hash of their length and three of their bytes, open addressing:
 * a grammar symbol's name is found with one strcmp, where a binary search took eight and
 * sorting the names first a thousand more (under a fuzzer's instrumentation every strcmp
 * is intercepted, and that made vxp_symbols__load 5% of an execution of fuzz_check). */
#define INDEX_SLOTS 512 /* a power of two, over twice the number of names */

typedef struct name_index {
  uint16_t at[INDEX_SLOTS]; /* 1 + the name's index in its table; 0: empty */
} name_index;

static size_t name_hash(const char *name, size_t len) {
  const unsigned char *s = (const unsigned char *)name;
  return (len * 131u + s[0] * 31u + s[len / 2] * 7u + s[len - 1]) & (INDEX_SLOTS - 1);
}

static void index_names(name_index *ix, const wanted *table, size_t n) {
  memset(ix, 0, sizeof(*ix));
  for (size_t k = 0; k < n; k++) {
    size_t h = name_hash(table[k].name, strlen(table[k].name));
    while (ix->at[h])
      h = (h + 1) & (INDEX_SLOTS - 1);
    ix->at[h] = (uint16_t)(k + 1);
  }
}

static const wanted *find(const name_index *ix, const wanted *table, const char *name) {
  size_t len = strlen(name);
  if (len == 0) return NULL;
  for (size_t h = name_hash(name, len); ix->at[h]; h = (h + 1) & (INDEX_SLOTS - 1)) {
    const wanted *w = &table[ix->at[h] - 1];
    if (strcmp(w->name, name) == 0) return w;
  }
  return NULL;
}

static uint16_t *slot_of(void *ids, const wanted *w) {
  return (uint16_t *)(void *)((char *)ids + w->offset);
}

/* One pass over the grammar's symbols, each looked up among the wanted names, where
 * ts_language_symbol_for_name per name scans every symbol for each of them (150 kinds times
 * 320 symbols: it made vxp_context_new cost about 190 us). The first visible named symbol of
 * a name is the one ts_language_symbol_for_name returns; a name not found that way (a
 * supertype) is left to it. */
const char *vxp_symbols__load(const TSLanguage *lang, vxp_symbols *syms, vxp_fields *fields) {
  _Static_assert(sizeof(TSSymbol) == sizeof(uint16_t) && sizeof(TSFieldId) == sizeof(uint16_t),
                 "ids are 16-bit");
  _Static_assert(VXP__ARRAY_LEN(kinds) * 2 <= INDEX_SLOTS &&
                     VXP__ARRAY_LEN(names) * 2 <= INDEX_SLOTS,
                 "the index has room");
  memset(syms, 0, sizeof(*syms));
  memset(fields, 0, sizeof(*fields));
  name_index ix;
  index_names(&ix, kinds, VXP__ARRAY_LEN(kinds));
  uint32_t count = ts_language_symbol_count(lang);
  for (uint32_t i = 1; i < count && i <= UINT16_MAX; i++) {
    if (ts_language_symbol_type(lang, (TSSymbol)i) != TSSymbolTypeRegular) continue;
    const char *name = ts_language_symbol_name(lang, (TSSymbol)i);
    const wanted *w = name ? find(&ix, kinds, name) : NULL;
    if (w && *slot_of(syms, w) == 0) *slot_of(syms, w) = (uint16_t)i;
  }
  for (size_t k = 0; k < VXP__ARRAY_LEN(kinds); k++) {
    uint16_t *slot = slot_of(syms, &kinds[k]);
    if (*slot == 0)
      *slot =
          ts_language_symbol_for_name(lang, kinds[k].name, (uint32_t)strlen(kinds[k].name), true);
    if (*slot == 0) return kinds[k].name;
  }

  index_names(&ix, names, VXP__ARRAY_LEN(names));
  uint32_t field_count = ts_language_field_count(lang);
  for (uint32_t id = 1; id <= field_count && id <= UINT16_MAX; id++) {
    const char *name = ts_language_field_name_for_id(lang, (TSFieldId)id);
    const wanted *w = name ? find(&ix, names, name) : NULL;
    if (w && *slot_of(fields, w) == 0) *slot_of(fields, w) = (uint16_t)id;
  }
  for (size_t k = 0; k < VXP__ARRAY_LEN(names); k++)
    if (*slot_of(fields, &names[k]) == 0) return names[k].name;
  return NULL;
}

TSNode vxp_node__find(TSNode root, vxp_node_match match, const void *data) {
  TSNode found = {{0}, 0, 0};
  if (ts_node_is_null(root)) return found;
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (;;) {
    TSNode x = ts_tree_cursor_current_node(&c);
    if (match(x, data)) {
      found = x;
      break;
    }
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
    }
  }
done:
  ts_tree_cursor_delete(&c);
  return found;
}
