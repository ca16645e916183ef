/* SPDX-License-Identifier: Apache-2.0 */
/* symbols.c - resolve the grammar's node kinds and field names to ids once. */
#include "symbols.h"

const char *vxp_symbols__load(const TSLanguage *lang, vxp_symbols *syms, vxp_fields *fields) {
#define VXP__LOAD_SYM(n)                                                                           \
  syms->n = ts_language_symbol_for_name(lang, #n, (uint32_t)strlen(#n), true);                     \
  if (syms->n == 0) return #n;
  VXP_NODE_KINDS(VXP__LOAD_SYM)
#undef VXP__LOAD_SYM
#define VXP__LOAD_FIELD(n)                                                                         \
  fields->n = ts_language_field_id_for_name(lang, #n, (uint32_t)strlen(#n));                       \
  if (fields->n == 0) return #n;
  VXP_FIELD_NAMES(VXP__LOAD_FIELD)
#undef VXP__LOAD_FIELD
  return NULL;
}
