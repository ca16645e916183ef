/* SPDX-License-Identifier: Apache-2.0 */
/* callgraph.c - the call-tree fold over every analysed function (vx-language.md §5.6).
 *
 * Each function's walk left a summary: its own peak per space (fn_spaces) and, per call
 * site, the callee and the bytes it still holds there (held). Here, per space with a
 * capacity:
 *
 *   total(f) = max(self_peak(f), max over calls c of f: held(c) + total(callee(c)))
 *
 * folded bottom-up over the strongly connected components of the call graph (Tarjan,
 * iterative: call graphs can be deep, the C stack is not). Sequential calls compose by
 * max, residency held across a call by +. An overflow is reported once, at the smallest
 * function whose total exceeds the capacity while its own peak does not (E6027, naming the
 * path and each hop's holdings); callers whose path runs through a reported function stay
 * silent. A cycle placing tiles in a space is E6028 (its depth is unknown, so its working
 * set is unbounded); `overcommit` makes both W1028.
 *
 * One refinement over vxc, in the conservative direction: in a cycle that places nothing in
 * a space, every member can reach every other, so each member's total is the largest
 * reach of any member's calls out of the cycle (vxc counts each member's own calls only,
 * which can admit a caller of `a` when `a -> b -> g` overflows through `b`). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "callgraph.h"
#include "context.h"
#include "instance.h"
#include "program.h"
#include "source.h"
#include "strbuf.h"

typedef struct folder {
  vxp_analysis *an;
  vxp_context *ctx;
  size_t n;                 /* functions */
  uint32_t spaces;          /* view spaces */
  Array(uint32_t) budgets;  /* spaces with a capacity, by name */
  uint32_t *scc_of;         /* function -> its component's number */
  Array(uint32_t) members;  /* components' members, component after component */
  Array(uint32_t) comp_end; /* end of each component in members */
  int rc;
} folder;

static vxp_fn_space *fs_at(folder *F, uint32_t fn, uint32_t space) {
  return &F->an->fn_spaces.items[(size_t)fn * F->spaces + space];
}

static uint64_t held_at(folder *F, uint32_t call, uint32_t space) {
  return F->an->held.items[(size_t)call * F->spaces + space];
}

static const vxp_call_site *call_at(folder *F, uint32_t call) { return &F->an->calls.items[call]; }

static const char *fn_name(folder *F, uint32_t fn) { return F->an->functions.items[fn].name; }

/* Append a function as vxc spells it to `t`, for the texts vxc also writes (E6027's call
 * path, E6028's cycle): tools matching vxc's messages match these. Notes and records keep
 * fn_name. */
static void vxc_name(folder *F, uint32_t fn, vxp_sb *t) {
  vxp_instance__vxc_spelling(F->an, fn, t);
}

static uint64_t saturate(u128 v) { return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v; }

/* Exact decimal of a 128-bit count (a total can exceed 64 bits before saturation). */
static const char *u128_str(u128 v, char buf[48]) {
  char tmp[48];
  size_t n = 0;
  do {
    tmp[n++] = (char)('0' + (int)(v % 10));
    v /= 10;
  } while (v);
  for (size_t i = 0; i < n; i++)
    buf[i] = tmp[n - 1 - i];
  buf[n] = '\0';
  return buf;
}

/* ------------------------------------------------------------------ strongly connected components
 */

/* Tarjan's algorithm with an explicit stack. Components come out callees first (reverse
 * topological order), which is the order the fold needs. */
static int tarjan(folder *F) {
  vxp_analysis *an = F->an;
  size_t n = F->n;
  uint32_t *index = vxp_ctx__malloc(F->ctx, (n ? n : 1) * sizeof(uint32_t));
  uint32_t *low = vxp_ctx__malloc(F->ctx, (n ? n : 1) * sizeof(uint32_t));
  bool *on_stack = vxp_ctx__calloc(F->ctx, n ? n : 1, sizeof(bool));
  F->scc_of = vxp_ctx__malloc(F->ctx, (n ? n : 1) * sizeof(uint32_t));
  typedef struct frame {
    uint32_t v, next; /* the function, and its next call site to look at */
  } frame;
  Array(frame) work = {NULL, 0, 0};
  Array(uint32_t) stack = {NULL, 0, 0};
  int rc = (index && low && on_stack && F->scc_of) ? VXP_OK : VXP_ENOMEM;
  for (size_t i = 0; rc == VXP_OK && i < n; i++)
    index[i] = VXP_NONE;
  uint32_t next_index = 0;
  for (size_t root = 0; rc == VXP_OK && root < n; root++) {
    if (index[root] != VXP_NONE) continue;
    frame f0 = {(uint32_t)root, 0};
    if (!array_push(F->ctx, &work, f0)) rc = VXP_ENOMEM;
    while (rc == VXP_OK && work.len) {
      frame *top = array_last(&work);
      uint32_t v = top->v;
      const vxp_analysed_fn *af = &an->functions.items[v];
      if (top->next == 0 && index[v] == VXP_NONE) {
        index[v] = low[v] = next_index++;
        on_stack[v] = true;
        if (!array_push(F->ctx, &stack, v)) {
          rc = VXP_ENOMEM;
          break;
        }
      }
      if (top->next < af->call_count) {
        uint32_t w = call_at(F, af->call_first + top->next)->callee;
        top->next++;
        if (w == VXP_NONE) continue;
        if (index[w] == VXP_NONE) {
          frame f = {w, 0};
          if (!array_push(F->ctx, &work, f)) rc = VXP_ENOMEM;
        } else if (on_stack[w] && index[w] < low[v]) {
          low[v] = index[w];
        }
        continue;
      }
      work.len--;
      if (work.len) {
        uint32_t parent = array_last(&work)->v;
        if (low[v] < low[parent]) low[parent] = low[v];
      }
      if (low[v] != index[v]) continue;
      uint32_t comp = (uint32_t)F->comp_end.len;
      for (;;) {
        uint32_t w = stack.items[--stack.len];
        on_stack[w] = false;
        F->scc_of[w] = comp;
        if (!array_push(F->ctx, &F->members, w)) {
          rc = VXP_ENOMEM;
          break;
        }
        if (w == v) break;
      }
      if (rc == VXP_OK && !array_push(F->ctx, &F->comp_end, (uint32_t)F->members.len))
        rc = VXP_ENOMEM;
    }
  }
  array_free(F->ctx, &work);
  array_free(F->ctx, &stack);
  vxp_ctx__free(F->ctx, index);
  vxp_ctx__free(F->ctx, low);
  vxp_ctx__free(F->ctx, on_stack);
  return rc;
}

/* ------------------------------------------------------------------ diagnostics */

static const vxp_space *space_of(folder *F, uint32_t s) { return F->an->view.spaces.items[s]; }

/* The placement that first reached `fn`'s own peak in `s`, for a note; NULL when none. */
static const vxp_record *peak_record(folder *F, uint32_t fn, uint32_t s) {
  uint32_t rs = fs_at(F, fn, s)->resident_set;
  if (rs == VXP_NONE) return NULL;
  return &F->an->records.items[F->an->resident_sets.items[rs].peak_record];
}

static vxp_diagnostic *emit(folder *F, bool warning, const char *code, const vxp_call_site *at,
                            const char *message, uint32_t fn) {
  vxp_analysis *an = F->an;
  const vxp_source *src = at ? an->prog->src : NULL;
  vxp_diagnostic *d =
      vxp_diag__add(F->ctx, &an->diags, warning ? VXP_SEVERITY_WARNING : VXP_SEVERITY_ERROR, code,
                    src, at ? at->start_byte : 0, at ? at->end_byte : 0, "%s", message);
  if (!d)
    F->rc = VXP_ENOMEM;
  else
    d->function = fn_name(F, fn);
  return d;
}

static void note_at(folder *F, vxp_diagnostic *d, uint32_t start, uint32_t end, const char *fmt,
                    ...) VXP__PRINTF(5, 6);

static void note_at(folder *F, vxp_diagnostic *d, uint32_t start, uint32_t end, const char *fmt,
                    ...) {
  if (!d || F->rc != VXP_OK) return;
  va_list ap;
  va_start(ap, fmt);
  if (!vxp_diag__vnote(F->ctx, d, false, F->an->prog->src, start, end, fmt, ap)) F->rc = VXP_ENOMEM;
  va_end(ap);
}

/* E6027 (or W1028) for `fn` in `s`, unless its own peak already overflows (E6009/E6010
 * said so) or the overflow was reported further down its path. */
static void report_overflow(folder *F, uint32_t fn, uint32_t s) {
  vxp_fn_space *fs = fs_at(F, fn, s);
  const vxp_space *sp = space_of(F, s);
  if (fs->total <= sp->capacity) return;
  if (fs->self_peak > sp->capacity) {
    fs->reported = true;
    return;
  }
  for (uint32_t cur = fn, c = fs->best_call; c != VXP_NONE;) {
    uint32_t next = call_at(F, c)->callee;
    if (fs_at(F, next, s)->reported) {
      fs->reported = true;
      return;
    }
    cur = next;
    c = fs_at(F, cur, s)->best_call;
  }
  fs->reported = true;
  vxp_sb t = {0};
  char total[48], own[48];
  vxp_sb__puts(F->ctx, &t, "the working set along call path '");
  vxc_name(F, fn, &t);
  uint32_t last = fn;
  for (uint32_t c = fs->best_call; c != VXP_NONE; c = fs_at(F, last, s)->best_call) {
    last = call_at(F, c)->callee;
    vxp_sb__puts(F->ctx, &t, " -> ");
    vxc_name(F, last, &t);
  }
  vxp_sb__printf(F->ctx, &t,
                 "' in memory space '%s' peaks at %s bytes, over its %llu byte capacity: ",
                 sp->name, u128_str(fs->total, total), (unsigned long long)sp->capacity);
  for (uint32_t cur = fn, c = fs->best_call; c != VXP_NONE; c = fs_at(F, cur, s)->best_call) {
    uint64_t held = held_at(F, c, s);
    if (held) {
      vxp_sb__putc(F->ctx, &t, '\'');
      vxc_name(F, cur, &t);
      vxp_sb__printf(F->ctx, &t, "' holds %llu bytes across its call, ", (unsigned long long)held);
    }
    cur = call_at(F, c)->callee;
  }
  vxp_sb__putc(F->ctx, &t, '\'');
  vxc_name(F, last, &t);
  vxp_sb__printf(F->ctx, &t, "' itself peaks at %s bytes",
                 u128_str(fs_at(F, last, s)->self_peak, own));
  if (sp->overcommit)
    vxp_sb__printf(F->ctx, &t, "; allowed because '%s' is `overcommit`", sp->name);
  if (t.failed) {
    vxp_sb__free(F->ctx, &t);
    F->rc = VXP_ENOMEM;
    return;
  }
  const vxp_call_site *at = call_at(F, fs->best_call);
  vxp_diagnostic *d = emit(F, sp->overcommit, sp->overcommit ? "W1028" : "E6027", at, t.data, fn);
  vxp_sb__free(F->ctx, &t);
  if (d && !vxp_diag__capacity(F->ctx, d, sp->name, saturate(fs->total), sp->capacity, false, 0))
    F->rc = VXP_ENOMEM;
  /* The path, hop by hop, where it happens: what the text output shows under the error. */
  for (uint32_t cur = fn, c = fs->best_call; c != VXP_NONE; c = fs_at(F, cur, s)->best_call) {
    const vxp_call_site *site = call_at(F, c);
    note_at(F, d, site->start_byte, site->end_byte,
            "'%s' calls '%s' here, holding %llu bytes in '%s'", fn_name(F, cur),
            fn_name(F, site->callee), (unsigned long long)held_at(F, c, s), sp->name);
    cur = site->callee;
  }
  const vxp_record *r = peak_record(F, last, s);
  if (r)
    note_at(F, d, r->start_byte, r->end_byte,
            "'%s' reaches its own peak of %llu bytes in '%s' here", fn_name(F, last),
            (unsigned long long)saturate(fs_at(F, last, s)->self_peak), sp->name);
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* E6028 (or W1028) for a cycle placing `per_activation` bytes in `s`. */
static void report_cycle(folder *F, const uint32_t *members, size_t count, uint32_t s,
                         u128 per_activation) {
  const vxp_space *sp = space_of(F, s);
  /* The members as vxc spells them (each whole, one after the other in `all`), sorted as vxc
   * sorts its names. */
  vxp_sb all = {0};
  size_t *at = vxp_ctx__malloc(F->ctx, count * sizeof(size_t));
  const char **names = vxp_ctx__malloc(F->ctx, count * sizeof(char *));
  for (size_t i = 0; at && i < count; i++) {
    at[i] = all.len;
    vxc_name(F, members[i], &all);
    vxp_sb__putc(F->ctx, &all, '\0'); /* each name ends where the next begins */
  }
  if (!names || !at || all.failed) {
    vxp_ctx__free(F->ctx, names);
    vxp_ctx__free(F->ctx, at);
    vxp_sb__free(F->ctx, &all);
    F->rc = VXP_ENOMEM;
    return;
  }
  for (size_t i = 0; i < count; i++)
    names[i] = all.data + at[i];
  qsort(names, count, sizeof(char *), compare_names);
  vxp_sb t = {0};
  char bytes[48];
  if (count == 1)
    vxp_sb__printf(F->ctx, &t, "'%s' calls itself", names[0]);
  else {
    vxp_sb__printf(F->ctx, &t, "the cycle '");
    for (size_t i = 0; i < count; i++)
      vxp_sb__printf(F->ctx, &t, "%s%s", i ? " -> " : "", names[i]);
    vxp_sb__printf(F->ctx, &t, "' recurses");
  }
  vxp_sb__printf(F->ctx, &t,
                 " and places up to %s bytes in memory space '%s' per activation; the recursion "
                 "depth is not known at compile time, so its working set is unbounded",
                 u128_str(per_activation, bytes), sp->name);
  if (sp->overcommit)
    vxp_sb__printf(F->ctx, &t, "; allowed because '%s' is `overcommit`", sp->name);
  /* The diagnostic belongs to the member first in that order. */
  uint32_t first = members[0];
  for (size_t i = 0; i < count; i++) {
    if (all.data + at[i] == names[0]) first = members[i];
  }
  vxp_ctx__free(F->ctx, names);
  vxp_ctx__free(F->ctx, at);
  vxp_sb__free(F->ctx, &all);
  if (t.failed) {
    vxp_sb__free(F->ctx, &t);
    F->rc = VXP_ENOMEM;
    return;
  }
  vxp_diagnostic *d =
      emit(F, sp->overcommit, sp->overcommit ? "W1028" : "E6028", NULL, t.data, first);
  vxp_sb__free(F->ctx, &t);
  if (d &&
      !vxp_diag__capacity(F->ctx, d, sp->name, saturate(per_activation), sp->capacity, false, 0))
    F->rc = VXP_ENOMEM;
  for (size_t i = 0; i < count; i++) {
    const vxp_record *r = peak_record(F, members[i], s);
    if (r)
      note_at(F, d, r->start_byte, r->end_byte,
              "'%s' places up to %llu bytes in '%s' per activation", fn_name(F, members[i]),
              (unsigned long long)saturate(fs_at(F, members[i], s)->self_peak), sp->name);
  }
}

/* ------------------------------------------------------------------ the fold */

static uint32_t add_hops(uint32_t a, uint32_t b) { return a + b < a ? UINT32_MAX : a + b; }

/* A function outside any cycle: its callees are final. */
static void fold_node(folder *F, uint32_t fn, uint32_t s) {
  const vxp_analysed_fn *af = &F->an->functions.items[fn];
  vxp_fn_space *fs = fs_at(F, fn, s);
  u128 best = fs->self_peak;
  uint32_t best_call = VXP_NONE;
  bool bounded = true;
  for (uint32_t k = 0; k < af->call_count; k++) {
    uint32_t c = af->call_first + k, callee = call_at(F, c)->callee;
    if (callee == VXP_NONE) continue;
    const vxp_fn_space *cs = fs_at(F, callee, s);
    if (!cs->bounded) bounded = false;
    u128 reach = (u128)held_at(F, c, s) + cs->total;
    if (reach > best) {
      best = reach;
      best_call = c;
    }
  }
  fs->total = best;
  fs->best_call = best_call;
  fs->bounded = bounded;
  fs->hops =
      best_call == VXP_NONE ? 0 : add_hops(1, fs_at(F, call_at(F, best_call)->callee, s)->hops);
  report_overflow(F, fn, s);
}

/* A cycle: `members[0 .. count)` all in component `comp`. */
static void fold_cycle(folder *F, const uint32_t *members, size_t count, uint32_t comp,
                       uint32_t s) {
  vxp_analysis *an = F->an;
  u128 per_activation = 0;
  for (size_t i = 0; i < count; i++) {
    if (fs_at(F, members[i], s)->self_peak > per_activation)
      per_activation = fs_at(F, members[i], s)->self_peak;
  }
  /* The best call out of the cycle: per member (residency: vxc's stand-in), or over all
   * members (a transparent cycle: each reaches all). */
  u128 best_all = 0;
  uint32_t best_all_call = VXP_NONE, best_all_member = VXP_NONE;
  bool bounded_out = true;
  for (size_t i = 0; i < count; i++) {
    uint32_t fn = members[i];
    const vxp_analysed_fn *af = &an->functions.items[fn];
    vxp_fn_space *fs = fs_at(F, fn, s);
    u128 best = fs->self_peak;
    uint32_t best_call = VXP_NONE;
    for (uint32_t k = 0; k < af->call_count; k++) {
      uint32_t c = af->call_first + k, callee = call_at(F, c)->callee;
      if (callee == VXP_NONE || F->scc_of[callee] == comp) continue;
      const vxp_fn_space *cs = fs_at(F, callee, s);
      if (!cs->bounded) bounded_out = false;
      u128 reach = (u128)held_at(F, c, s) + cs->total;
      if (reach > best) {
        best = reach;
        best_call = c;
      }
      if (reach > best_all) {
        best_all = reach;
        best_all_call = c;
        best_all_member = fn;
      }
    }
    fs->total = best;
    fs->best_call = best_call;
    fs->hops =
        best_call == VXP_NONE ? 0 : add_hops(1, fs_at(F, call_at(F, best_call)->callee, s)->hops);
    fs->bounded = false;
  }
  if (per_activation > 0) {
    for (size_t i = 0; i < count; i++)
      fs_at(F, members[i], s)->reported = true;
    report_cycle(F, members, count, s, per_activation);
    return;
  }
  for (size_t i = 0; i < count; i++)
    fs_at(F, members[i], s)->bounded = bounded_out;
  if (best_all_call == VXP_NONE) return;
  /* Every member reaches the best exit: route each to the member owning it, breadth
   * first over the cycle's own calls taken backwards. */
  uint32_t *dist = vxp_ctx__malloc(F->ctx, count * sizeof(uint32_t));
  uint32_t *queue = vxp_ctx__malloc(F->ctx, count * sizeof(uint32_t));
  uint32_t *pos = vxp_ctx__malloc(F->ctx, F->n * sizeof(uint32_t));
  if (!dist || !queue || !pos) {
    F->rc = VXP_ENOMEM;
  } else {
    for (size_t i = 0; i < count; i++) {
      dist[i] = UINT32_MAX;
      pos[members[i]] = (uint32_t)i;
    }
    /* Backward edges: scanning every member's calls per dequeued member would be
     * quadratic, so collect (callee position, caller, call) triples sorted by callee. */
    typedef struct back {
      uint32_t to, from, call;
    } back;
    Array(back) edges = {NULL, 0, 0};
    for (size_t i = 0; i < count && F->rc == VXP_OK; i++) {
      const vxp_analysed_fn *af = &an->functions.items[members[i]];
      for (uint32_t k = 0; k < af->call_count; k++) {
        uint32_t c = af->call_first + k, callee = call_at(F, c)->callee;
        if (callee == VXP_NONE || F->scc_of[callee] != comp) continue;
        back e = {pos[callee], (uint32_t)i, c};
        if (!array_push(F->ctx, &edges, e)) {
          F->rc = VXP_ENOMEM;
          break;
        }
      }
    }
    uint32_t *first = F->rc == VXP_OK ? vxp_ctx__calloc(F->ctx, count + 1, sizeof(uint32_t)) : NULL;
    back *sorted =
        F->rc == VXP_OK && edges.len ? vxp_ctx__malloc(F->ctx, edges.len * sizeof(back)) : NULL;
    if (F->rc == VXP_OK && (!first || (edges.len && !sorted))) F->rc = VXP_ENOMEM;
    if (F->rc == VXP_OK) {
      for (size_t e = 0; e < edges.len; e++)
        first[edges.items[e].to + 1]++;
      for (size_t i = 0; i < count; i++)
        first[i + 1] += first[i];
      uint32_t *fill = queue; /* reused as the fill cursor before the search */
      for (size_t i = 0; i < count; i++)
        fill[i] = first[i];
      for (size_t e = 0; e < edges.len; e++)
        sorted[fill[edges.items[e].to]++] = edges.items[e];
      size_t head = 0, tail = 0;
      uint32_t start = pos[best_all_member];
      dist[start] = 0;
      queue[tail++] = start;
      while (head < tail) {
        uint32_t w = queue[head++];
        for (uint32_t e = first[w]; e < first[w + 1]; e++) {
          uint32_t u = sorted[e].from;
          if (dist[u] != UINT32_MAX) continue;
          dist[u] = dist[w] + 1;
          fs_at(F, members[u], s)->best_call = sorted[e].call;
          queue[tail++] = u;
        }
      }
      vxp_fn_space *owner = fs_at(F, best_all_member, s);
      owner->best_call = best_all_call;
      owner->hops = add_hops(1, fs_at(F, call_at(F, best_all_call)->callee, s)->hops);
      for (size_t i = 0; i < count; i++) {
        vxp_fn_space *fs = fs_at(F, members[i], s);
        fs->total = best_all;
        if (members[i] != best_all_member) fs->hops = add_hops(dist[i], owner->hops);
      }
    }
    vxp_ctx__free(F->ctx, first);
    vxp_ctx__free(F->ctx, sorted);
    array_free(F->ctx, &edges);
  }
  vxp_ctx__free(F->ctx, dist);
  vxp_ctx__free(F->ctx, queue);
  vxp_ctx__free(F->ctx, pos);
}

typedef struct named_space {
  const char *name;
  uint32_t s;
} named_space;

static int compare_named(const void *a, const void *b) {
  const named_space *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->s > y->s) - (x->s < y->s);
}

/* Spaces with a capacity, sorted by name (the order vxc reports them in); by qsort, as an
 * insertion sort was quadratic in the number of spaces (10^5 declared spaces). */
static int collect_budgets(folder *F) {
  const vxp_machine_view *v = &F->an->view;
  named_space *order = vxp_ctx__calloc(F->ctx, F->spaces ? F->spaces : 1, sizeof(*order));
  if (!order) return VXP_ENOMEM;
  size_t n = 0;
  for (uint32_t s = 0; s < F->spaces; s++) {
    if (v->spaces.items[s]->has_capacity) order[n++] = (named_space){v->spaces.items[s]->name, s};
  }
  qsort(order, n, sizeof(*order), compare_named);
  int rc = VXP_OK;
  for (size_t i = 0; rc == VXP_OK && i < n; i++) {
    if (!array_push(F->ctx, &F->budgets, order[i].s)) rc = VXP_ENOMEM;
  }
  vxp_ctx__free(F->ctx, order);
  return rc;
}

int vxp_callgraph__fold(vxp_analysis *an) {
  folder F;
  memset(&F, 0, sizeof(F));
  F.an = an;
  F.ctx = an->ctx;
  F.n = an->functions.len;
  F.spaces = (uint32_t)an->view.spaces.len;
  F.rc = collect_budgets(&F);
  if (F.rc == VXP_OK && F.budgets.len) F.rc = tarjan(&F);
  for (size_t comp = 0, begin = 0; F.rc == VXP_OK && comp < F.comp_end.len; comp++) {
    size_t end = F.comp_end.items[comp];
    const uint32_t *members = F.members.items + begin;
    size_t count = end - begin;
    bool cyclic = count > 1;
    const vxp_analysed_fn *af = &an->functions.items[members[0]];
    for (uint32_t k = 0; !cyclic && k < af->call_count; k++)
      cyclic = call_at(&F, af->call_first + k)->callee == members[0];
    for (size_t b = 0; F.rc == VXP_OK && b < F.budgets.len; b++) {
      uint32_t s = F.budgets.items[b];
      if (cyclic)
        fold_cycle(&F, members, count, (uint32_t)comp, s);
      else
        fold_node(&F, members[0], s);
    }
    begin = end;
  }
  /* The report's lists: every (function, space) with bytes in its call tree, and every
   * call of user code the fold could not follow. */
  for (size_t fn = 0; F.rc == VXP_OK && fn < F.n; fn++) {
    for (size_t b = 0; b < F.budgets.len; b++) {
      const vxp_fn_space *fs = fs_at(&F, (uint32_t)fn, F.budgets.items[b]);
      if (fs->self_peak == 0 && fs->total == 0) continue;
      vxp_call_tree ct = {an, (uint32_t)fn, F.budgets.items[b]};
      fs_at(&F, (uint32_t)fn, F.budgets.items[b])->call_tree = (uint32_t)an->call_trees.len;
      if (!array_push(F.ctx, &an->call_trees, ct)) {
        F.rc = VXP_ENOMEM;
        break;
      }
    }
  }
  for (size_t c = 0; F.rc == VXP_OK && c < an->calls.len; c++) {
    const vxp_call_site *site = &an->calls.items[c];
    if (!site->unresolved) continue;
    vxp_unresolved_call u = {an, (uint32_t)c,
                             vxp_source__range(an->prog->src, site->start_byte, site->end_byte)};
    if (!array_push(F.ctx, &an->unresolved, u)) F.rc = VXP_ENOMEM;
  }
  array_free(F.ctx, &F.budgets);
  array_free(F.ctx, &F.members);
  array_free(F.ctx, &F.comp_end);
  vxp_ctx__free(F.ctx, F.scc_of);
  return F.rc;
}

/* ------------------------------------------------------------------ public accessors */

size_t vxp_analysis_call_tree_count(const vxp_analysis *an) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, 0);
  return an ? an->call_trees.len : 0;
}

const vxp_call_tree *vxp_analysis_call_tree(const vxp_analysis *an, size_t i) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, NULL);

  return (an && i < an->call_trees.len) ? &an->call_trees.items[i] : NULL;
}

static const vxp_fn_space *tree_fs(const vxp_call_tree *ct) {
  const vxp_analysis *an = ct->owner;
  return &an->fn_spaces.items[(size_t)ct->function * an->view.spaces.len + ct->space];
}

const char *vxp_call_tree_function(const vxp_call_tree *ct) {
  return ct ? ct->owner->functions.items[ct->function].name : NULL;
}

const char *vxp_call_tree_space(const vxp_call_tree *ct) {
  return ct ? ct->owner->view.spaces.items[ct->space]->name : NULL;
}

uint64_t vxp_call_tree_self_peak_bytes(const vxp_call_tree *ct) {
  return ct ? saturate(tree_fs(ct)->self_peak) : 0;
}

uint64_t vxp_call_tree_total_bytes(const vxp_call_tree *ct) {
  return ct ? saturate(tree_fs(ct)->total) : 0;
}

uint64_t vxp_call_tree_capacity_bytes(const vxp_call_tree *ct) {
  return ct ? ct->owner->view.spaces.items[ct->space]->capacity : 0;
}

int vxp_call_tree_bounded(const vxp_call_tree *ct) { return ct && tree_fs(ct)->bounded; }

size_t vxp_call_tree_hop_count(const vxp_call_tree *ct) { return ct ? tree_fs(ct)->hops : 0; }

static const vxp_call_site *first_hop(const vxp_call_tree *ct, uint32_t *call) {
  if (!ct) return NULL;
  uint32_t c = tree_fs(ct)->best_call;
  if (c == VXP_NONE) return NULL;
  if (call) *call = c;
  return &ct->owner->calls.items[c];
}

const char *vxp_call_tree_callee(const vxp_call_tree *ct) {
  const vxp_call_site *site = first_hop(ct, NULL);
  return site ? ct->owner->functions.items[site->callee].name : NULL;
}

uint64_t vxp_call_tree_held_bytes(const vxp_call_tree *ct) {
  uint32_t c;
  if (!first_hop(ct, &c)) return 0;
  return ct->owner->held.items[(size_t)c * ct->owner->view.spaces.len + ct->space];
}

vxp_range vxp_call_tree_call_range(const vxp_call_tree *ct) {
  vxp_range none;
  memset(&none, 0, sizeof(none));
  const vxp_call_site *site = first_hop(ct, NULL);
  return site ? vxp_source__range(ct->owner->prog->src, site->start_byte, site->end_byte) : none;
}

const vxp_call_tree *vxp_call_tree_next(const vxp_call_tree *ct) {
  const vxp_call_site *site = first_hop(ct, NULL);
  if (!site) return NULL;
  const vxp_analysis *an = ct->owner;
  uint32_t index =
      an->fn_spaces.items[(size_t)site->callee * an->view.spaces.len + ct->space].call_tree;
  return index == VXP_NONE ? NULL : &an->call_trees.items[index];
}

size_t vxp_analysis_unresolved_call_count(const vxp_analysis *an) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, 0);

  return an ? an->unresolved.len : 0;
}

const vxp_unresolved_call *vxp_analysis_unresolved_call(const vxp_analysis *an, size_t i) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, NULL);

  return (an && i < an->unresolved.len) ? &an->unresolved.items[i] : NULL;
}

const char *vxp_unresolved_call_function(const vxp_unresolved_call *u) {
  return u ? u->owner->functions.items[u->owner->calls.items[u->call].caller].name : NULL;
}

const char *vxp_unresolved_call_callee(const vxp_unresolved_call *u) {
  return u ? u->owner->calls.items[u->call].callee_name : NULL;
}

const char *vxp_unresolved_call_reason(const vxp_unresolved_call *u) {
  return u ? u->owner->calls.items[u->call].unresolved : NULL;
}

vxp_range vxp_unresolved_call_range(const vxp_unresolved_call *u) {
  vxp_range none;
  memset(&none, 0, sizeof(none));
  return u ? u->range : none;
}
