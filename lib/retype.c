/* SPDX-License-Identifier: Apache-2.0 */
/* retype.c - `--retype ROLE=TYPE` (retype.h). A role is the `// role:` label lowering
 * recorded on each placement (roles.c); retyping it changes the element of the tensor type
 * that placement places, so that every reader of element types (tile sizes, the machine's
 * dtypes check, the roofline's bytes, CUDA generation) sees the same choice through
 * vxp_instance__elem. */
#include "retype.h"

#include "arena.h"
#include "array.h"
#include "internal.h"
#include "strbuf.h"

/* Whether some placement of `m` carries role `name`. */
static bool role_used(const vxp_model *m, vxp_name name) {
  for (size_t f = 0; f < m->functions.len; f++) {
    const vxp_function *fn = &m->functions.items[f];
    for (size_t i = 0; i < fn->events.len; i++)
      if (fn->events.items[i].kind == VXP_EV_PLACE && fn->events.items[i].u.place.role == name)
        return true;
  }
  return false;
}

/* "layer weights, KV cache" in the order first placed, or "none". */
static void list_roles(vxp_context *ctx, const vxp_model *m, vxp_sb *sb) {
  Array(vxp_name) seen = {0};
  for (size_t f = 0; f < m->functions.len; f++) {
    const vxp_function *fn = &m->functions.items[f];
    for (size_t i = 0; i < fn->events.len; i++) {
      const vxp_event *ev = &fn->events.items[i];
      if (ev->kind != VXP_EV_PLACE || ev->u.place.role == VXP_NAME_NONE) continue;
      bool listed = false;
      for (size_t k = 0; k < seen.len && !listed; k++)
        listed = seen.items[k] == ev->u.place.role;
      if (listed) continue;
      if (!array_push(ctx, &seen, ev->u.place.role)) sb->failed = true;
      vxp_sb__printf(ctx, sb, "%s%s", seen.len > 1 ? ", " : "",
                     vxp_strtab__str(&m->names, ev->u.place.role));
    }
  }
  if (!seen.len)
    vxp_sb__puts(ctx, sb, "none (a placement gets one with a `// role: NAME` comment)");
  array_free(ctx, &seen);
}

int vxp_retype__check(vxp_context *ctx, const vxp_model *m, const vxp_retype *r, size_t count) {
  for (size_t i = 0; i < count; i++) {
    if (!r[i].role || !r[i].type)
      return vxp_ctx__error(ctx, VXP_EINVAL, "vxp_analyze_options: retype %zu has no %s", i,
                            r[i].role ? "type" : "role");
    vxp_name name = vxp_strtab__find(&m->names, r[i].role, strlen(r[i].role));
    if (name == VXP_NAME_NONE || !role_used(m, name)) {
      vxp_sb sb = {0};
      list_roles(ctx, m, &sb);
      int rc = sb.failed ? vxp_ctx__nomem(ctx)
                         : vxp_ctx__error(ctx, VXP_ENOTFOUND,
                                          "no tile has the role '%s'; the program's roles: %s",
                                          r[i].role, vxp_sb__text(&sb));
      vxp_sb__free(ctx, &sb);
      return rc;
    }
    if (vxp_elem__from_name(r[i].type, strlen(r[i].type)) == VXP_ELEM_UNKNOWN) {
      vxp_sb sb = {0};
      for (int e = VXP_ELEM_UNKNOWN + 1; e < VXP_ELEM_COUNT; e++)
        vxp_sb__printf(ctx, &sb, "%s%s", e > VXP_ELEM_UNKNOWN + 1 ? ", " : "",
                       vxp_elem__name((vxp_elem)e));
      int rc = sb.failed ? vxp_ctx__nomem(ctx)
                         : vxp_ctx__error(ctx, VXP_ENOTFOUND,
                                          "'%s' is not an element type; the element types: %s",
                                          r[i].type, vxp_sb__text(&sb));
      vxp_sb__free(ctx, &sb);
      return rc;
    }
  }
  return VXP_OK;
}

uint8_t *vxp_retype__table(vxp_context *ctx, vxp_arena *arena, const vxp_model *m,
                           const vxp_retype *r, size_t count) {
  uint8_t *table = vxp_arena__alloc(ctx, arena, m->types.len ? m->types.len : 1);
  if (!table) return NULL;
  memset(table, 0, m->types.len ? m->types.len : 1);
  for (size_t i = 0; i < count; i++) { /* in order: a later entry for a role wins */
    vxp_name name = vxp_strtab__find(&m->names, r[i].role, strlen(r[i].role));
    vxp_elem elem = vxp_elem__from_name(r[i].type, strlen(r[i].type));
    for (size_t f = 0; f < m->functions.len; f++) {
      const vxp_function *fn = &m->functions.items[f];
      for (size_t k = 0; k < fn->events.len; k++) {
        const vxp_place_event *pl = &fn->events.items[k].u.place;
        if (fn->events.items[k].kind == VXP_EV_PLACE && pl->role == name && pl->type_known &&
            pl->type < m->types.len)
          table[pl->type] = (uint8_t)elem;
      }
    }
  }
  return table;
}
