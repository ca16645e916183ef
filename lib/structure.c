/* SPDX-License-Identifier: Apache-2.0 */
/* structure.c - navigating an analysis: a record's chain of enclosing scopes, a resident
 * set's records and a route's record (the links analysis.c's link_structure makes). */
#include "analysis_data.h"

const vxp_scope *vxp_record_scope(const vxp_record *rec) {
  if (!rec || !rec->owner || rec->scope >= rec->owner->scopes.len) return NULL;
  return &rec->owner->scopes.items[rec->scope];
}

const vxp_scope *vxp_scope_parent(const vxp_scope *sc) {
  if (!sc || !sc->owner || sc->parent == VXP_NONE) return NULL;
  return &sc->owner->scopes.items[sc->parent];
}

vxp_scope_type vxp_scope_type_of(const vxp_scope *sc) {
  if (!sc) return VXP_SCOPE_NONE;
  switch (sc->kind) {
  case VXP_BLOCK_IF: return VXP_SCOPE_IF;
  case VXP_BLOCK_ELSE: return VXP_SCOPE_ELSE;
  case VXP_BLOCK_FOR: return VXP_SCOPE_FOR;
  case VXP_BLOCK_LOOP: return VXP_SCOPE_LOOP;
  case VXP_BLOCK_SPAWN: return VXP_SCOPE_SPAWN;
  case VXP_BLOCK_MATCH_ARM: return VXP_SCOPE_MATCH_ARM;
  case VXP_BLOCK_UNSAFE: return VXP_SCOPE_UNSAFE;
  case VXP_BLOCK_COMPTIME: return VXP_SCOPE_COMPTIME;
  case VXP__SCOPE_FUNCTION: return VXP_SCOPE_FUNCTION;
  default: return VXP_SCOPE_BLOCK;
  }
}

const char *vxp_scope_type_name(vxp_scope_type type) {
  static const char *const names[] = {NULL,    "function",  "if",     "else",     "for",  "loop",
                                      "spawn", "match_arm", "unsafe", "comptime", "block"};
  return (unsigned)type < VXP__ARRAY_LEN(names) ? names[type] : NULL;
}

const char *vxp_scope_kind(const vxp_scope *sc) {
  return vxp_scope_type_name(vxp_scope_type_of(sc));
}

uint32_t vxp_scope_id(const vxp_scope *sc) { return sc ? sc->id : 0; }

vxp_range vxp_scope_range(const vxp_scope *sc) {
  vxp_range none;
  memset(&none, 0, sizeof(none));
  return sc ? sc->range : none;
}

int vxp_scope_releases(const vxp_scope *sc) {
  return sc && sc->kind != VXP__SCOPE_FUNCTION && vxp_block__releases((vxp_block_kind)sc->kind);
}

const char *vxp_scope_function(const vxp_scope *sc) {
  if (!sc || !sc->owner || sc->function >= sc->owner->functions.len) return NULL;
  return sc->owner->functions.items[sc->function].name;
}

size_t vxp_resident_set_record_count(const vxp_resident_set *rs) {
  return rs && rs->owner ? rs->record_count : 0;
}

const vxp_record *vxp_resident_set_record(const vxp_resident_set *rs, size_t i) {
  if (!rs || !rs->owner || i >= rs->record_count) return NULL;
  return &rs->owner->records.items[rs->owner->set_records.items[rs->record_first + i]];
}

const vxp_record *vxp_route_record(const vxp_route *route) {
  if (!route || !route->owner || route->record == VXP_NONE ||
      route->record >= route->owner->records.len)
    return NULL;
  return &route->owner->records.items[route->record];
}
