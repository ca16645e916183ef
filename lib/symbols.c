/* SPDX-License-Identifier: Apache-2.0 */
/* symbols.c - resolve the grammar's node kinds and field names to ids once. */
#include "symbols.h"

#include <stdlib.h>

/* A name the library wants and where its id goes. */
typedef struct wanted {
  const char *name;
  uint16_t *slot;
} wanted;

static int by_name(const void *a, const void *b) {
  return strcmp(((const wanted *)a)->name, ((const wanted *)b)->name);
}

static wanted *find(wanted *table, size_t n, const char *name) {
  wanted key = {name, NULL};
  return bsearch(&key, table, n, sizeof(wanted), by_name);
}

/* One pass over the grammar's symbols, each looked up among the wanted names, where
 * ts_language_symbol_for_name per name scans every symbol for each of them (150 kinds times
 * 320 symbols: it made vxp_context_new cost about 190 us). The first visible named symbol of
 * a name is the one ts_language_symbol_for_name returns; a name not found that way (a
 * supertype) is left to it. */
const char *vxp_symbols__load(const TSLanguage *lang, vxp_symbols *syms, vxp_fields *fields) {
  memset(syms, 0, sizeof(*syms));
  memset(fields, 0, sizeof(*fields));
#define VXP__WANT_SYM(n) {#n, &syms->n},
  wanted kinds[] = {VXP_NODE_KINDS(VXP__WANT_SYM)};
#undef VXP__WANT_SYM
#define VXP__WANT_FIELD(n) {#n, &fields->n},
  wanted names[] = {VXP_FIELD_NAMES(VXP__WANT_FIELD)};
#undef VXP__WANT_FIELD
  const size_t nkinds = sizeof(kinds) / sizeof(kinds[0]), nnames = sizeof(names) / sizeof(names[0]);
  qsort(kinds, nkinds, sizeof(wanted), by_name);
  qsort(names, nnames, sizeof(wanted), by_name);

  uint32_t count = ts_language_symbol_count(lang);
  for (uint32_t i = 1; i < count && i <= UINT16_MAX; i++) {
    if (ts_language_symbol_type(lang, (TSSymbol)i) != TSSymbolTypeRegular) continue;
    const char *name = ts_language_symbol_name(lang, (TSSymbol)i);
    wanted *w = name ? find(kinds, nkinds, name) : NULL;
    if (w && *w->slot == 0) *w->slot = (uint16_t)i;
  }
  for (size_t k = 0; k < nkinds; k++) {
    if (*kinds[k].slot == 0)
      *kinds[k].slot =
          ts_language_symbol_for_name(lang, kinds[k].name, (uint32_t)strlen(kinds[k].name), true);
    if (*kinds[k].slot == 0) return kinds[k].name;
  }

  uint32_t field_count = ts_language_field_count(lang);
  for (uint32_t id = 1; id <= field_count && id <= UINT16_MAX; id++) {
    const char *name = ts_language_field_name_for_id(lang, (TSFieldId)id);
    wanted *w = name ? find(names, nnames, name) : NULL;
    if (w && *w->slot == 0) *w->slot = (uint16_t)id;
  }
  for (size_t k = 0; k < nnames; k++)
    if (*names[k].slot == 0) return names[k].name;
  return NULL;
}
