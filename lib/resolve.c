/* SPDX-License-Identifier: Apache-2.0 */
/* resolve.c - the names of a program that denote nothing (resolve.h). */
#include "resolve.h"

#include <stdarg.h>
#include <stdlib.h>

#include "builtins.h"
#include "context.h"
#include "program.h"
#include "suggest.h"

typedef struct resolver {
  vxp_analysis *an;
  vxp_context *ctx;
  const vxp_model *m;
  const vxp_source *src;
  const vxp_const_env *env;
  bool *defined; /* by name id: a const item, a -D override, a struct or an enum (names_constant) */
  Array(const char *) cands; /* scratch: the candidates of one suggestion */
  /* Start bytes already reported, so that a type lowered twice (a signature and a declared
   * position) is reported once: an open-addressing set of start + 1 (0: empty), half full
   * at most (a scan of every earlier report per error was quadratic). */
  uint32_t *reported;
  size_t reported_len, reported_cap;
  size_t suggest_work; /* candidates gathered for "did you mean" so far */
  /* The last name a `Memory::` place, and a `Topology::` one, was found to name (placements
   * mostly name one space: each lookup hashes the name again). VXP_NAME_NONE at first. */
  vxp_name known_memory, known_topology;
  int rc;
} resolver;

/* Candidates compared for "did you mean" per analysis. Each unresolved name is compared with
 * every declared one, so 20,000 calls to undefined functions among 20,000 functions took
 * 145 s; past this budget the errors are reported without a suggestion. */
#define VXP_SUGGEST_WORK ((size_t)1 << 22)

static const char *name_str(const resolver *R, vxp_name n) {
  return vxp_strtab__str(&R->m->names, n);
}

static void push_cand(resolver *R, const char *c) {
  if (R->rc == VXP_OK && !array_push(R->ctx, &R->cands, c)) R->rc = VXP_ENOMEM;
}

/* Start a gathering of `count` candidates for a suggestion: false (and nothing to gather)
 * once the analysis' budget of comparisons is spent. */
static bool gather(resolver *R, size_t count) {
  R->cands.len = 0;
  if (count > VXP_SUGGEST_WORK - R->suggest_work) {
    R->suggest_work = VXP_SUGGEST_WORK;
    return false;
  }
  R->suggest_work += count;
  return true;
}

static size_t slot_of(uint32_t key, size_t cap) {
  return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 7) & (cap - 1);
}

/* Whether a diagnostic at `start` was already made (and if not, remember it). */
static bool seen(resolver *R, uint32_t start) {
  uint32_t key = start + 1; /* 0 marks an empty slot; a start byte is below 4 GiB - 1 */
  if (2 * (R->reported_len + 1) > R->reported_cap) {
    size_t cap = R->reported_cap ? 2 * R->reported_cap : 64;
    uint32_t *grown = vxp_ctx__calloc(R->ctx, cap, sizeof(uint32_t));
    if (!grown) {
      R->rc = VXP_ENOMEM;
      return false;
    }
    for (size_t i = 0; i < R->reported_cap; i++) {
      if (!R->reported[i]) continue;
      size_t k = slot_of(R->reported[i], cap);
      while (grown[k])
        k = (k + 1) & (cap - 1);
      grown[k] = R->reported[i];
    }
    vxp_ctx__free(R->ctx, R->reported);
    R->reported = grown;
    R->reported_cap = cap;
  }
  size_t k = slot_of(key, R->reported_cap);
  while (R->reported[k]) {
    if (R->reported[k] == key) return true;
    k = (k + 1) & (R->reported_cap - 1);
  }
  R->reported[k] = key;
  R->reported_len++;
  return false;
}

static vxp_diagnostic *error(resolver *R, const char *code, const vxp_source *src, uint32_t start,
                             uint32_t end, const char *fmt, ...) VXP__PRINTF(6, 7);

static vxp_diagnostic *error(resolver *R, const char *code, const vxp_source *src, uint32_t start,
                             uint32_t end, const char *fmt, ...) {
  if (R->rc != VXP_OK) return NULL;
  va_list ap;
  va_start(ap, fmt);
  vxp_diagnostic *d =
      vxp_diag__vadd(R->ctx, &R->an->diags, VXP_SEVERITY_ERROR, code, src, start, end, fmt, ap);
  va_end(ap);
  if (!d) R->rc = VXP_ENOMEM;
  return d;
}

/* Remember where in a function body the diagnostic at `start` was written, so that
 * vxp_resolve__withdraw_pruned can withdraw it when that place is never walked. */
static void site(resolver *R, uint32_t start, uint32_t function, uint32_t event, bool is_event) {
  vxp_resolve_site st = {start, function, event, is_event};
  if (R->rc == VXP_OK && !array_push(R->ctx, &R->an->resolve_sites, st)) R->rc = VXP_ENOMEM;
}

/* "did you mean" over the candidates gathered in R->cands; `where` (may be NULL) gives the
 * declaration of candidate i, to point the help line at it. */
typedef bool (*declared_at)(const resolver *R, size_t i, const vxp_source **src, uint32_t *start,
                            uint32_t *end);

static void suggest(resolver *R, vxp_diagnostic *d, const char *name, const char *prefix,
                    declared_at where) {
  if (!d || R->rc != VXP_OK) return;
  size_t best = vxp_suggest__closest(name, R->cands.items, R->cands.len);
  if (best == SIZE_MAX) return;
  const vxp_source *src = NULL;
  uint32_t start = 0, end = 0;
  if (where && !where(R, best, &src, &start, &end)) src = NULL;
  if (!vxp_diag__note(R->ctx, d, true, src, start, end, "did you mean `%s%s`?", prefix,
                      R->cands.items[best]))
    R->rc = VXP_ENOMEM;
}

/* ------------------------------------------------------------------ constant names */

static bool const_declared_at(const resolver *R, size_t i, const vxp_source **src, uint32_t *start,
                              uint32_t *end) {
  if (i >= R->m->consts.len) return false; /* an override: declared on the command line */
  *src = R->src;
  *start = R->m->consts.items[i].start_byte;
  *end = R->m->consts.items[i].end_byte;
  return true;
}

static int mark_defined(resolver *R) {
  size_t names = R->m->names.strings.len;
  R->defined = vxp_ctx__calloc(R->ctx, names ? names : 1, sizeof(bool));
  if (!R->defined) return VXP_ENOMEM;
  for (size_t i = 0; i < R->m->consts.len; i++)
    R->defined[R->m->consts.items[i].name] = true;
  for (size_t i = 0; i < R->env->override_count; i++)
    R->defined[R->env->overrides[i].name] = true;
  /* A generic argument may be a type: an element type, a struct or an enum resolves. */
  for (size_t i = 0; i < R->m->structs.len; i++)
    R->defined[R->m->structs.items[i]] = true;
  for (size_t i = 0; i < R->m->enums.len; i++)
    R->defined[R->m->enums.items[i]] = true;
  return VXP_OK;
}

/* Whether `name` resolves as a constant or a generic argument: marked by mark_defined, or an
 * element type's name (asked here, of the few names looked up, rather than of every name of
 * the program up front: a program of 2,000 functions has as many names, and an editor's
 * every analysis paid for them). */
static bool names_constant(const resolver *R, vxp_name name) {
  if (R->defined[name]) return true;
  const char *s = vxp_strtab__str(&R->m->names, name);
  return vxp_elem__from_name(s, strlen(s)) != VXP_ELEM_UNKNOWN;
}

/* E2001 for every name lowering found nothing for in scope and that is no const item or
 * override. Names in run-time conditions are not looked at (the analysis never folds
 * them); names bound by a generic parameter, a variable or a comptime `let` resolve. */
static void resolve_constant_names(resolver *R) {
  const vxp_model *m = R->m;
  for (size_t i = 0; i < m->cexprs.len && R->rc == VXP_OK; i++) {
    const vxp_cexpr *cx = &m->cexprs.items[i];
    if (cx->kind != VXP_CX_NAME || cx->scope != VXP_NAMESCOPE_FREE || names_constant(R, cx->name))
      continue;
    if (!array_push(R->ctx, &R->an->unresolved_cexprs, (uint32_t)i)) {
      R->rc = VXP_ENOMEM;
      return;
    }
    if (seen(R, cx->start_byte)) continue;
    const char *name = name_str(R, cx->name);
    vxp_diagnostic *d = error(R, "E2001", R->src, cx->start_byte, cx->end_byte,
                              "cannot find '%s': no const item, generic parameter or variable "
                              "of that name is in scope",
                              name);
    if (gather(R, m->consts.len + R->env->override_count)) {
      for (size_t k = 0; k < m->consts.len; k++)
        push_cand(R, name_str(R, m->consts.items[k].name));
      for (size_t k = 0; k < R->env->override_count; k++)
        push_cand(R, name_str(R, R->env->overrides[k].name));
    }
    suggest(R, d, name, "", const_declared_at);
  }
}

/* ------------------------------------------------------------------ element types */

static void resolve_element_types(resolver *R) {
  const vxp_model *m = R->m;
  for (size_t i = 0; i < m->types.len && R->rc == VXP_OK; i++) {
    const vxp_tensor_type *t = &m->types.items[i];
    if (t->elem != VXP_ELEM_UNKNOWN || t->elem_generic || t->elem_name == VXP_NAME_NONE) continue;
    if (t->elem_end <= t->elem_start || seen(R, t->elem_start)) continue;
    const char *name = name_str(R, t->elem_name);
    vxp_diagnostic *d = error(R, "E1012", R->src, t->elem_start, t->elem_end,
                              "unknown element type '%s': a tensor holds one of bool, i4..i128, "
                              "u4..u128, f4e2m1, f8e4m3, f8e5m2, f16, bf16, f32, f64, or a generic "
                              "type parameter in scope",
                              name);
    R->cands.len = 0;
    for (int e = VXP_ELEM_UNKNOWN + 1; e < VXP_ELEM_COUNT; e++)
      push_cand(R, vxp_elem__name((vxp_elem)e));
    suggest(R, d, name, "", NULL);
  }
}

/* ------------------------------------------------------------------ spaces and topologies */

static bool space_declared_at(const resolver *R, size_t i, const vxp_source **src, uint32_t *start,
                              uint32_t *end) {
  if (i >= R->an->view.spaces.len) return false; /* a built-in space */
  const vxp_space *sp = R->an->view.spaces.items[i];
  *src = sp->src;
  *start = sp->name_start;
  *end = sp->name_end;
  return sp->src != NULL;
}

/* A space is known when an input declares it, Vx builds it in, or a declared topology
 * holds it as its `memory:` (vxc's rule: such a space exists, with no capacity, and W1026
 * says when nothing can reach it). */
/* A space exists when an input declares it, when it is one of Vx's, or when a topology
 * holds it as its `memory:` or in its `visible:` list (vxc's is_space_held: such a space
 * is a place of its own, with no capacity). */
static bool space_known(const resolver *R, const char *name) {
  return vxp_machine__space(&R->an->view, name) || vxp_machine__builtin_space(name) ||
         vxp_machine__space_held(&R->an->view, name);
}

/* The declared and built-in spaces (`held` adds the spaces topologies hold). */
static void space_candidates_of(resolver *R, bool held) {
  size_t n, count = R->an->view.spaces.len;
  const char *const *builtins = vxp_machine__builtin_spaces(&n);
  count += n;
  for (size_t i = 0; held && i < R->an->view.topologies.len; i++)
    count += 1 + R->an->view.topologies.items[i]->visible.len;
  if (!gather(R, count)) return;
  for (size_t k = 0; k < R->an->view.spaces.len; k++)
    push_cand(R, R->an->view.spaces.items[k]->name);
  for (size_t k = 0; k < n; k++)
    push_cand(R, builtins[k]);
  for (size_t i = 0; held && i < R->an->view.topologies.len; i++) {
    const vxp_topology *t = R->an->view.topologies.items[i];
    push_cand(R, t->memory);
    for (size_t k = 0; k < t->visible.len; k++)
      push_cand(R, t->visible.items[k]);
  }
}

static void space_candidates(resolver *R) { space_candidates_of(R, true); }

static bool topology_declared_at(const resolver *R, size_t i, const vxp_source **src,
                                 uint32_t *start, uint32_t *end) {
  if (i >= R->an->view.topologies.len) return false;
  const vxp_topology *t = R->an->view.topologies.items[i];
  *src = t->src;
  *start = t->name_start;
  *end = t->name_end;
  return t->src != NULL;
}

/* A topology is known when an input declares it or Vx builds it in. */
static bool topology_known(const resolver *R, const char *name) {
  return vxp_machine__topology(&R->an->view, name) || vxp_machine__builtin_topology(name);
}

/* Or, for code placed on it (not for a tile, which must be sized in a space of the view),
 * when the program's own text declares it: --machine-only sets the program's declarations
 * aside, it does not make their names mean nothing. */
static bool topology_named(const resolver *R, const char *name) {
  if (topology_known(R, name)) return true;
  vxp_name n = vxp_strtab__find(&R->m->names, name, strlen(name));
  for (size_t i = 0; n != VXP_NAME_NONE && i < R->m->topologies.len; i++)
    if (R->m->topologies.items[i] == n) return true;
  return false;
}

static void topology_candidates(resolver *R) {
  if (!gather(R, R->an->view.topologies.len)) return;
  for (size_t k = 0; k < R->an->view.topologies.len; k++)
    push_cand(R, R->an->view.topologies.items[k]->name);
}

/* E6025 for a placement naming no place: a space nothing declares and Vx does not build
 * in, or a topology neither declared nor built in (whose like-named space, vxc's fallback,
 * does not exist either). A topology variable (`on(t)`) is a run-time value: not checked.
 * `function` and `event` say where a placement event is (VXP_NONE for a type). */
static void resolve_place(resolver *R, const vxp_place *p, uint32_t function, uint32_t event) {
  if (R->rc != VXP_OK || p->kind == VXP_PLACE_NONE || p->variable || p->name == VXP_NAME_NONE)
    return;
  vxp_name *known = p->kind == VXP_PLACE_MEMORY ? &R->known_memory : &R->known_topology;
  if (p->name == *known) return; /* the view does not change while names are resolved */
  const char *name = name_str(R, p->name);
  if (p->kind == VXP_PLACE_MEMORY) {
    if (space_known(R, name)) *known = p->name;
    if (*known == p->name || seen(R, p->start_byte)) return;
    vxp_diagnostic *d = error(R, "E6025", R->src, p->start_byte, p->end_byte,
                              "`Memory::%s` names no memory space: no input declares it and it "
                              "is not one of Vx's built-in spaces",
                              name);
    space_candidates(R);
    suggest(R, d, name, "Memory::", space_declared_at);
  } else {
    if (topology_known(R, name) || space_known(R, name)) *known = p->name;
    if (*known == p->name || seen(R, p->start_byte)) return;
    vxp_diagnostic *d = error(R, "E6025", R->src, p->start_byte, p->end_byte,
                              "`Topology::%s` names no topology: no input declares it, it is "
                              "not one of Vx's built-in topologies, and no memory space has its "
                              "name",
                              name);
    topology_candidates(R);
    suggest(R, d, name, "Topology::", topology_declared_at);
  }
  if (function != VXP_NONE) site(R, p->start_byte, function, event, true);
}

static void resolve_places(resolver *R) {
  const vxp_model *m = R->m;
  for (size_t i = 0; i < m->types.len && R->rc == VXP_OK; i++)
    resolve_place(R, &m->types.items[i].placement, VXP_NONE, 0);
  for (size_t f = 0; f < m->functions.len && R->rc == VXP_OK; f++) {
    const vxp_function *fn = &m->functions.items[f];
    for (size_t e = 0; e < fn->events.len && R->rc == VXP_OK; e++) {
      const vxp_event *ev = &fn->events.items[e];
      if (ev->kind == VXP_EV_PLACE) resolve_place(R, &ev->u.place.dest, (uint32_t)f, (uint32_t)e);
    }
  }
}

/* E1011 in a machine declaration: `name` at [start, end) of `src` names no space. */
static void unknown_declared_space(resolver *R, const char *name, const char *where,
                                   const vxp_source *src, uint32_t start, uint32_t end) {
  if (!name || space_known(R, name)) return;
  vxp_diagnostic *d = error(R, "E1011", src, start, end,
                            "unknown memory space '%s' in %s: no input declares it and it is "
                            "not one of Vx's built-in spaces",
                            name, where);
  space_candidates(R);
  suggest(R, d, name, "Memory::", space_declared_at);
}

/* A `visible:` entry no input declares is a space the topology holds (vxc), unless it is
 * one edit or two from a declared or built-in space: then it is that space misspelt, and
 * E1011 says which (a typo must not create a space). */
static void misspelt_visible_space(resolver *R, const char *name, const char *where,
                                   const vxp_topology *t) {
  if (vxp_machine__space(&R->an->view, name) || vxp_machine__builtin_space(name)) return;
  space_candidates_of(R, false);
  if (vxp_suggest__closest(name, R->cands.items, R->cands.len) == SIZE_MAX) return;
  vxp_diagnostic *d = error(R, "E1011", t->src, t->name_start, t->name_end,
                            "unknown memory space '%s' in %s: no input declares it and it is "
                            "not one of Vx's built-in spaces",
                            name, where);
  suggest(R, d, name, "Memory::", space_declared_at);
}

/* A `transfer` edge's end that no input declares or holds. vxc does not check a topology's
 * edges against the declared spaces (its E6025 is for placements, decl_check/placement.rs),
 * so such an edge is admitted: nothing can be placed in that space (a placement there is
 * E6025) and no capacity is involved. Unless the name is one edit or two from a known space:
 * then it is that space misspelt, and E1011 says which (a typo must not create a route). */
static void misspelt_edge_space(resolver *R, const char *name, const char *where,
                                const vxp_source *src, uint32_t start, uint32_t end) {
  if (!name || space_known(R, name)) return;
  space_candidates(R);
  if (vxp_suggest__closest(name, R->cands.items, R->cands.len) == SIZE_MAX) return;
  unknown_declared_space(R, name, where, src, start, end);
}

/* W1026 of topology `t`, whose `memory:` no input declares: a note saying so, and the
 * declared space it may have meant. */
static void explain_undeclared_memory(resolver *R, const vxp_topology *t) {
  vxp_diagnostic *d = NULL;
  for (size_t i = 0; i < R->an->diags.len && !d; i++) {
    vxp_diagnostic *w = &R->an->diags.items[i];
    if (strcmp(w->code, "W1026") == 0 && w->source == t->src && w->has_range &&
        w->range.start_byte == t->name_start)
      d = w;
  }
  if (!d) return;
  if (!vxp_diag__note(R->ctx, d, false, NULL, 0, 0,
                      "no input declares `Memory::%s`: as in vxc, the topology's memory is then "
                      "a space of its own, with no capacity, that no edge reaches",
                      t->memory))
    R->rc = VXP_ENOMEM;
  space_candidates(R);
  suggest(R, d, t->memory, "Memory::", space_declared_at);
}

static void resolve_declarations(resolver *R) {
  const vxp_machine_view *v = &R->an->view;
  char where[160];
  for (size_t i = 0; i < v->spaces.len && R->rc == VXP_OK; i++) {
    const vxp_space *sp = v->spaces.items[i];
    snprintf(where, sizeof(where), "the `within:` of memory space '%s'", sp->name);
    unknown_declared_space(R, sp->within, where, sp->src, sp->within_start, sp->within_end);
  }
  for (size_t i = 0; i < v->topologies.len && R->rc == VXP_OK; i++) {
    const vxp_topology *t = v->topologies.items[i];
    /* Not `memory:`: a space a topology names as its memory exists (space_known); when no
     * input declares it, nothing routes to it and W1026 says so: that warning says why. */
    if (t->memory && !vxp_machine__space(v, t->memory) && !vxp_machine__builtin_space(t->memory))
      explain_undeclared_memory(R, t);
    snprintf(where, sizeof(where), "the `visible:` list of topology '%s'", t->name);
    for (size_t k = 0; k < t->visible.len && R->rc == VXP_OK; k++)
      misspelt_visible_space(R, t->visible.items[k], where, t);
    snprintf(where, sizeof(where), "a `transfer` edge of topology '%s'", t->name);
    for (size_t k = 0; k < t->edges.len && R->rc == VXP_OK; k++) {
      const vxp_edge *e = &t->edges.items[k];
      misspelt_edge_space(R, e->from, where, t->src, e->start_byte, e->end_byte);
      if (!e->from || strcmp(e->from, e->to) != 0)
        misspelt_edge_space(R, e->to, where, t->src, e->start_byte, e->end_byte);
    }
  }
}

/* ------------------------------------------------------------------ functions */

static bool function_declared_at(const resolver *R, size_t i, const vxp_source **src,
                                 uint32_t *start, uint32_t *end) {
  if (i >= R->m->functions.len) return false;
  *src = R->src;
  *start = R->m->functions.items[i].name_start;
  *end = R->m->functions.items[i].name_end;
  return true;
}

/* By name id: whether the program defines (or declares `extern`) a function of that name;
 * NULL when out of memory. One table, not a scan of every function per call (a chain of
 * 10^5 calls took minutes). */
/* What a call by bare name resolves to, per name id (resolve_calls). */
enum { CALLEE_UNSEEN, CALLEE_DEFINED, CALLEE_KNOWN, CALLEE_NOT_FOUND };

/* Per name id: CALLEE_DEFINED for the program's functions (extern ones included), the rest
 * CALLEE_UNSEEN until a call asks (then CALLEE_KNOWN or CALLEE_NOT_FOUND). */
static uint8_t *defined_functions(resolver *R) {
  const vxp_model *m = R->m;
  uint8_t *defined = vxp_ctx__calloc(R->ctx, m->names.strings.len + 1, sizeof(uint8_t));
  if (!defined) return NULL;
  for (size_t i = 0; i < m->functions.len; i++)
    if (m->functions.items[i].name < m->names.strings.len)
      defined[m->functions.items[i].name] = CALLEE_DEFINED;
  for (size_t i = 0; i < m->externs.len; i++)
    if (m->externs.items[i] < m->names.strings.len) defined[m->externs.items[i]] = CALLEE_DEFINED;
  return defined;
}

/* A path (`Tensor::new`) or a call of the language or its prelude. */
static bool known_callee(const char *name) {
  return strstr(name, "::") || vxp_builtin__known_call(name);
}

/* E2002 for a call by bare name to a function the program does not define. With an
 * `import`, such a name may come from the imported module, which vxpeak does not read:
 * the call is then only listed as unresolved (report `unresolved_calls`). */
static void resolve_calls(resolver *R) {
  const vxp_model *m = R->m;
  if (m->imports > 0) return;
  uint8_t *defined = defined_functions(R);
  if (!defined) {
    R->rc = VXP_ENOMEM;
    return;
  }
  for (size_t f = 0; f < m->functions.len && R->rc == VXP_OK; f++) {
    const vxp_function *fn = &m->functions.items[f];
    for (size_t e = 0; e < fn->events.len && R->rc == VXP_OK; e++) {
      const vxp_event *ev = &fn->events.items[e];
      if (ev->kind != VXP_EV_CALL) continue;
      const vxp_call_event *c = &ev->u.call;
      if (c->callee == VXP_NAME_NONE || c->indirect || c->method != VXP_NAME_NONE) continue;
      const char *name = name_str(R, c->callee);
      if (c->callee < m->names.strings.len) { /* each name looked at once per analysis */
        uint8_t *d = &defined[c->callee];
        if (*d == CALLEE_UNSEEN) *d = known_callee(name) ? CALLEE_KNOWN : CALLEE_NOT_FOUND;
        if (*d != CALLEE_NOT_FOUND) continue;
      } else if (known_callee(name)) {
        continue;
      }
      if (seen(R, c->start_byte)) continue;
      site(R, c->start_byte, (uint32_t)f, (uint32_t)e, true);
      vxp_diagnostic *d =
          error(R, "E2002", R->src, c->start_byte, c->start_byte + (uint32_t)strlen(name),
                "cannot find function '%s': the program defines no function of that name and "
                "imports nothing",
                name);
      if (gather(R, m->functions.len)) {
        for (size_t k = 0; k < m->functions.len; k++)
          push_cand(R, m->functions.items[k].is_closure ? NULL
                                                        : name_str(R, m->functions.items[k].name));
      }
      suggest(R, d, name, "", function_declared_at);
    }
  }
  vxp_ctx__free(R->ctx, defined);
}

/* ------------------------------------------------------------------ types and topologies */

static bool type_declared_at(const resolver *R, size_t i, const vxp_source **src, uint32_t *start,
                             uint32_t *end) {
  VXP__UNUSED(R);
  VXP__UNUSED(i);
  VXP__UNUSED(src);
  VXP__UNUSED(start);
  VXP__UNUSED(end);
  return false; /* structs and enums keep no position in the model */
}

static bool names_trait(const resolver *R, vxp_name name) {
  for (size_t i = 0; i < R->m->traits.len; i++)
    if (R->m->traits.items[i] == name) return true;
  return false;
}

/* E3029 for a type in a signature that names no declaration (vxc: an unknown name in type
 * position would otherwise be taken for a user type and mean nothing). A name in generic
 * argument position may also be a const item (`Steps<BATCH>`). With an `import`, the name
 * may be the imported module's: not checked. */
static void unknown_type(resolver *R, const vxp_name_ref *r) {
  const vxp_model *m = R->m;
  const char *name = name_str(R, r->name);
  if (m->imports > 0 || names_constant(R, r->name) || names_trait(R, r->name) ||
      vxp_builtin__known_type(name) || seen(R, r->start_byte))
    return;
  vxp_diagnostic *d = error(R, "E3029", R->src, r->start_byte, r->end_byte,
                            "cannot find type '%s': no struct, enum, trait or generic parameter "
                            "of that name is declared, and it is no type of the language",
                            name);
  /* `T`, `U`, `K2`: most likely a generic parameter the item forgot to declare. */
  size_t len = strlen(name);
  if (d && len <= 2 && name[0] >= 'A' && name[0] <= 'Z' &&
      !vxp_diag__note(R->ctx, d, false, NULL, 0, 0,
                      "a generic parameter is declared in its item's `<...>`, as in "
                      "`fn f<%s>(...)` or `struct S<%s> { ... }`",
                      name, name))
    R->rc = VXP_ENOMEM;
  const vxp_function *in = r->function != VXP_NONE ? &m->functions.items[r->function] : NULL;
  if (!gather(R, m->structs.len + m->enums.len + m->traits.len + (in ? in->generics.len : 0)))
    return;
  for (size_t k = 0; k < m->structs.len; k++)
    push_cand(R, name_str(R, m->structs.items[k]));
  for (size_t k = 0; k < m->enums.len; k++)
    push_cand(R, name_str(R, m->enums.items[k]));
  for (size_t k = 0; k < m->traits.len; k++)
    push_cand(R, name_str(R, m->traits.items[k]));
  for (size_t k = 0; in && k < in->generics.len; k++)
    push_cand(R, name_str(R, in->generics.items[k].name));
  static const char *const builtin_types[] = {"Vec",    "Option", "Result", "Box",
                                              "String", "usize",  "isize"};
  for (size_t k = 0; k < VXP__ARRAY_LEN(builtin_types); k++)
    push_cand(R, builtin_types[k]);
  for (int e = VXP_ELEM_UNKNOWN + 1; e < VXP_ELEM_COUNT; e++)
    push_cand(R, vxp_elem__name((vxp_elem)e));
  suggest(R, d, name, "", type_declared_at);
}

/* `Topology::X` outside a tensor type naming no topology. In a `spawn on(...)` it is vxc's
 * W1025 (check_spawnon_expr: a user topology nothing declares or registers, often a
 * misspelt built-in; the region is placed like the host's), a warning. Anywhere else (a
 * signature's `on`, a comptime predicate, an expression) it is E6025: vxc's rule there is
 * not a warning, and nothing vxpeak checks about such code would be about the machine. */
static void unknown_topology(resolver *R, const vxp_name_ref *r) {
  const char *name = name_str(R, r->name);
  if (topology_named(R, name) || seen(R, r->start_byte)) return;
  vxp_diagnostic *d;
  if (r->spawn) {
    if (R->rc != VXP_OK) return;
    d = vxp_diag__add(R->ctx, &R->an->diags, VXP_SEVERITY_WARNING, "W1025", R->src, r->start_byte,
                      r->end_byte,
                      "unknown topology '%s': not declared (`Topology %s { ... }`) or registered "
                      "by a plugin; defaulting to host-like placement",
                      name, name);
    if (!d) R->rc = VXP_ENOMEM;
  } else {
    d = error(R, "E6025", R->src, r->start_byte, r->end_byte,
              "`Topology::%s` names no topology: no input declares it and it is not one of "
              "Vx's built-in topologies",
              name);
  }
  topology_candidates(R);
  suggest(R, d, name, "Topology::", topology_declared_at);
}

static void resolve_refs(resolver *R) {
  const vxp_model *m = R->m;
  for (size_t i = 0; i < m->refs.len && R->rc == VXP_OK; i++) {
    const vxp_name_ref *r = &m->refs.items[i];
    size_t before = R->an->diags.len;
    if (r->kind == VXP_REF_TYPE)
      unknown_type(R, r);
    else
      unknown_topology(R, r);
    if (R->an->diags.len > before && r->in_body)
      site(R, r->start_byte, r->function, r->event, false);
  }
}

/* ------------------------------------------------------------------ entry points */

/* A diagnostic's place in source order: its start, then its index (stable). */
typedef struct position_key {
  uint32_t start;
  size_t index;
} position_key;

static int by_start_then_index(const void *a, const void *b) {
  const position_key *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* The resolution errors in source order (each category was gathered in its own pass). Errors
 * of one source, the usual case, are sorted stably by their start in n log n: the insertion
 * sort moved each error past every error of a later pass before it (50,000 undefined
 * constants before 50,000 unknown element types). Errors of several sources (or no memory
 * for the keys) keep the insertion sort, which leaves errors of different sources in their
 * order relative to each other. */
static void sort_by_position(vxp_context *ctx, vxp_diagnostic *d, size_t n) {
  bool one_source = true;
  for (size_t i = 1; i < n && one_source; i++)
    one_source = d[i].source == d[0].source;
  position_key *keys = one_source ? vxp_ctx__calloc(ctx, n, sizeof(*keys)) : NULL;
  vxp_diagnostic *copy = keys ? vxp_ctx__calloc(ctx, n, sizeof(*copy)) : NULL;
  if (copy) {
    for (size_t i = 0; i < n; i++)
      keys[i] = (position_key){d[i].range.start_byte, i};
    qsort(keys, n, sizeof(*keys), by_start_then_index);
    memcpy(copy, d, n * sizeof(*d));
    for (size_t i = 0; i < n; i++)
      d[i] = copy[keys[i].index];
    vxp_ctx__free(ctx, copy);
    vxp_ctx__free(ctx, keys);
    return;
  }
  vxp_ctx__free(ctx, keys);
  for (size_t i = 1; i < n; i++) {
    vxp_diagnostic x = d[i];
    size_t j = i;
    while (j > 0 && d[j - 1].source == x.source && d[j - 1].range.start_byte > x.range.start_byte) {
      d[j] = d[j - 1];
      j--;
    }
    d[j] = x;
  }
}

int vxp_resolve__program(vxp_analysis *an, const vxp_const_env *env) {
  size_t first = an->diags.len;
  resolver R;
  memset(&R, 0, sizeof(R));
  R.an = an;
  R.ctx = an->ctx;
  R.m = &an->prog->model;
  R.src = an->prog->src;
  R.env = env;
  R.rc = mark_defined(&R);
  if (R.rc == VXP_OK) resolve_declarations(&R);
  if (R.rc == VXP_OK) resolve_element_types(&R);
  if (R.rc == VXP_OK) resolve_places(&R);
  if (R.rc == VXP_OK) resolve_constant_names(&R);
  if (R.rc == VXP_OK) resolve_calls(&R);
  if (R.rc == VXP_OK) resolve_refs(&R);
  /* No diagnostic at all: items may be NULL, and NULL + 0 is undefined in C. */
  if (R.rc == VXP_OK && an->diags.len > first)
    sort_by_position(R.ctx, an->diags.items + first, an->diags.len - first);
  an->resolve_first = first;
  an->resolve_count = an->diags.len - first;
  vxp_ctx__free(R.ctx, R.defined);
  array_free(R.ctx, &R.cands);
  vxp_ctx__free(R.ctx, R.reported);
  return R.rc;
}

static int compare_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

bool vxp_resolve__unresolved(const vxp_analysis *an, uint32_t cx) {
  return an->unresolved_cexprs.len &&
         bsearch(&cx, an->unresolved_cexprs.items, an->unresolved_cexprs.len, sizeof(uint32_t),
                 compare_u32) != NULL;
}

/* Whether the place `s` names in model function `fn` is walked in analysed function `a`:
 * the event itself is reached, or no block open at that point is a pruned arm. */
static bool walked_in(const vxp_analysis *an, uint32_t a, const vxp_function *fn,
                      const vxp_resolve_site *s) {
  if (s->is_event) {
    const vxp_event_fact *f = vxp_analysis__event_fact(an, a, s->event);
    return !f || f->reached;
  }
  size_t closes = 0;
  for (size_t i = s->event < fn->events.len ? s->event : fn->events.len; i-- > 0;) {
    const vxp_event *ev = &fn->events.items[i];
    if (ev->kind == VXP_EV_CLOSE) {
      closes++;
    } else if (ev->kind == VXP_EV_OPEN) {
      if (closes > 0) {
        closes--;
        continue;
      }
      const vxp_event_fact *f = vxp_analysis__event_fact(an, a, i);
      if (f && (!f->reached || f->arm == VXP_ARM_PRUNED)) return false;
    }
  }
  return true;
}

/* Whether byte `p` of model function `fn` is walked in analysed function `a`, found from
 * the ranges lowering recorded for its blocks: no block around `p` is unreached, and no
 * `if comptime` arm around it is pruned. A pruned `if`'s condition is not in its arm (it
 * was folded), nor is its `else`, which has its own fact. */
static bool walked_at(const vxp_analysis *an, uint32_t a, const vxp_function *fn, uint32_t p) {
  const vxp_model *m = &an->prog->model;
  for (size_t i = 0; i < fn->events.len; i++) {
    const vxp_event *ev = &fn->events.items[i];
    if (ev->kind != VXP_EV_OPEN) continue;
    const vxp_block_event *b = &ev->u.block;
    if (b->start_byte > p) break; /* blocks open in program order, which is source order */
    if (p >= b->end_byte) continue;
    const vxp_event_fact *f = vxp_analysis__event_fact(an, a, i);
    if (!f) continue;
    if (!f->reached) return false;
    if (f->arm != VXP_ARM_PRUNED) continue;
    if (b->kind == VXP_BLOCK_IF) {
      const vxp_cexpr *c = b->condition < m->cexprs.len ? &m->cexprs.items[b->condition] : NULL;
      if (c && p >= c->start_byte && p < c->end_byte) continue;
      bool in_else = false;
      for (size_t j = i + 1; j < fn->events.len && !in_else; j++) {
        const vxp_event *e = &fn->events.items[j];
        if (e->kind != VXP_EV_OPEN) continue;
        if (e->u.block.start_byte >= b->end_byte) break;
        in_else = e->u.block.kind == VXP_BLOCK_ELSE && e->u.block.condition == b->condition &&
                  p >= e->u.block.start_byte && p < e->u.block.end_byte;
      }
      if (in_else) continue;
    }
    return false;
  }
  return true;
}

/* Whether every analysed instance of model function `f` (at least one) leaves byte `p`
 * unwalked; a closure's byte is also unwalked when its enclosing function's place of the
 * closure is (vxc prunes the arm with the closure in it). */
static bool pruned_at(const vxp_analysis *an, uint32_t f, uint32_t p) {
  const vxp_model *m = &an->prog->model;
  for (unsigned depth = 0; f < m->functions.len && depth < 64; depth++) {
    const vxp_function *fn = &m->functions.items[f];
    size_t instances = 0;
    bool walked = false;
    for (uint32_t a = 0; a < an->functions.len && !walked; a++) {
      if (an->functions.items[a].model_fn != f) continue;
      instances++;
      walked = walked_at(an, a, fn, p);
    }
    if (instances > 0 && !walked) return true;
    f = fn->parent;
  }
  return false;
}

/* The innermost function of the program whose body or signature holds byte `p` (a closure
 * inside its function), or VXP_NONE: the item at `p` says where to look. */
static uint32_t function_at(const vxp_model *m, uint32_t p) {
  uint32_t item = vxp_model__item_at(m, p);
  if (item == VXP_NONE) return VXP_NONE;
  const vxp_model_item *it = &m->items.items[item];
  uint32_t best = VXP_NONE;
  for (uint32_t k = 0; k < it->function_count; k++) {
    uint32_t f = it->first_function + k;
    if (f >= m->functions.len) break;
    const vxp_function *fn = &m->functions.items[f];
    if (p < fn->start_byte || p >= fn->end_byte) continue;
    if (best == VXP_NONE || fn->end_byte - fn->start_byte < m->functions.items[best].end_byte -
                                                                m->functions.items[best].start_byte)
      best = f;
  }
  return best;
}

void vxp_resolve__withdraw_pruned(vxp_analysis *an) {
  const vxp_model *m = &an->prog->model;
  for (size_t k = an->resolve_count; k-- > 0;) {
    size_t index = an->resolve_first + k;
    const vxp_diagnostic *d = &an->diags.items[index];
    const vxp_resolve_site *s = NULL;
    for (size_t i = 0; i < an->resolve_sites.len && !s; i++)
      if (an->resolve_sites.items[i].start_byte == d->range.start_byte)
        s = &an->resolve_sites.items[i];
    if (!s) {
      /* A name in a constant expression or a type (E2001, E1012, E6025 of a `let`'s type):
       * its place is the function and blocks around its position in the program. */
      if (d->source != an->prog->src || !d->has_range) continue;
      uint32_t f = function_at(m, d->range.start_byte);
      if (f != VXP_NONE && pruned_at(an, f, d->range.start_byte)) {
        vxp_diag__remove(an->ctx, &an->diags, index);
        an->resolve_count--;
      }
      continue;
    }
    if (s->function >= m->functions.len) continue;
    const vxp_function *fn = &m->functions.items[s->function];
    size_t instances = 0;
    bool walked = false;
    for (uint32_t a = 0; a < an->functions.len && !walked; a++) {
      if (an->functions.items[a].model_fn != s->function) continue;
      instances++;
      walked = walked_in(an, a, fn, s);
    }
    /* A function never analysed (a generic nothing instantiates) keeps its errors. */
    if (instances > 0 && !walked) {
      vxp_diag__remove(an->ctx, &an->diags, index);
      an->resolve_count--;
    }
  }
}
