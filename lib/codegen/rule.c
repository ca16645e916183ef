/* SPDX-License-Identifier: Apache-2.0 */
/* rule.c - which comparison a generated program owes the analysis, per function.
 *
 * The analysis' peak of a function is a bound over every way through it: arms of a `match`
 * do not release, so it holds the tiles of every arm at once; of an `if`/`else` it takes the
 * larger arm; a loop body is counted as run. A run takes one way. So a run's high-water mark
 * equals the static peak only where the function's control flow is straight-line, or every
 * branch places the same tiles; elsewhere it is at most the static peak, for a reason this
 * file names from the analysis' own event stream and decided facts (never the syntax tree):
 *
 *   match-arms     a tile placed in a `match` arm (the analysis holds every arm's tiles)
 *   branch         an `if` whose arms place different tiles (the run takes one arm)
 *   loop-trips     a tile placed in a `for` whose trip count is zero or does not fold
 *   early-exit     a `return`, `break` or `continue` under a condition (stmt.c marks it)
 *   call-not-taken a call of the program's functions under a condition: the call tree's
 *                  total (the whole run's high-water mark) may not be reached
 *
 * Any measured byte above the static peak is a failure everywhere (tests/codegen/peakcmp.c). */
#include <stdio.h>

#include "codegen.h"

/* The tiles placed in a block, summarised so that two arms can be compared: equal
 * summaries are taken as the same tiles. */
typedef struct tiles {
  uint64_t count, bytes, mix;
} tiles;

typedef struct frame {
  uint8_t kind;
  bool conditional; /* a runtime if/else arm, a match arm, or a loop that may not run */
  bool pruned;      /* inside an `if comptime` arm the analysis does not take */
  bool runtime_if;  /* an if/else arm decided at run time: compared with its sibling */
  bool has_then;    /* ELSE: the then-arm's summary is in `then` */
  tiles then, own;
} frame;

static bool same_tiles(const tiles *a, const tiles *b) {
  return a->count == b->count && a->bytes == b->bytes && a->mix == b->mix;
}

static bool calls_program_function(cg *G, const vxp_call_event *c) {
  if (c->indirect || c->callee == VXP_NONE) return false;
  const char *name = vxp_strtab__str(&G->m->names, c->callee);
  return vxp_cg__index_fn_named(G, name, strlen(name)) != NULL;
}

void vxp_cg__classify(cg *G, cg_fn *f) {
  const vxp_function *mf = &G->m->functions.items[f->model_fn];
  Array(frame) stack;
  memset(&stack, 0, sizeof(stack));
  bool else_follows_then = false;
  tiles then = {0, 0, 0};
  for (size_t i = 0; i < mf->events.len && G->rc == VXP_OK; i++) {
    const vxp_event *ev = &mf->events.items[i];
    const vxp_event_fact *fact = vxp_analysis__event_fact(G->an, f->analysed, i);
    bool outer_pruned = stack.len && array_last(&stack)->pruned;
    if (ev->kind == VXP_EV_OPEN) {
      const vxp_block_event *b = &ev->u.block;
      frame fr;
      memset(&fr, 0, sizeof(fr));
      fr.kind = b->kind;
      fr.pruned = outer_pruned || (fact && fact->arm == VXP_ARM_PRUNED) || (fact && !fact->reached);
      bool arm = b->kind == VXP_BLOCK_IF || b->kind == VXP_BLOCK_ELSE;
      fr.runtime_if = arm && !(b->comptime && fact && fact->arm != VXP_ARM_RUNTIME);
      fr.conditional =
          fr.runtime_if || b->kind == VXP_BLOCK_MATCH_ARM ||
          (b->kind == VXP_BLOCK_FOR && !(fact && fact->trips_known && fact->trips > 0));
      if (b->kind == VXP_BLOCK_ELSE && else_follows_then) {
        fr.has_then = true;
        fr.then = then;
      }
      else_follows_then = false;
      if (!array_push(G->ctx, &stack, fr)) G->rc = VXP_ENOMEM;
      continue;
    }
    if (ev->kind == VXP_EV_CLOSE) {
      if (!stack.len) continue;
      frame fr = *array_last(&stack);
      stack.len--;
      /* A block's tiles are its parent's too (for the parent's comparison). */
      if (stack.len) {
        tiles *up = &array_last(&stack)->own;
        up->count += fr.own.count;
        up->bytes += fr.own.bytes;
        up->mix += fr.own.mix;
      }
      if (fr.pruned || !fr.runtime_if) continue;
      bool next_is_else = i + 1 < mf->events.len && mf->events.items[i + 1].kind == VXP_EV_OPEN &&
                          mf->events.items[i + 1].u.block.kind == VXP_BLOCK_ELSE;
      if (fr.kind == VXP_BLOCK_IF && next_is_else) {
        else_follows_then = true;
        then = fr.own;
      } else if (fr.kind == VXP_BLOCK_IF) {
        if (fr.own.count) f->why |= CG_WHY_BRANCH; /* no else: the run may place nothing */
      } else {
        tiles none = {0, 0, 0};
        if (!same_tiles(&fr.own, fr.has_then ? &fr.then : &none)) f->why |= CG_WHY_BRANCH;
      }
      continue;
    }
    if (outer_pruned || (fact && !fact->reached)) continue;
    if (ev->kind == VXP_EV_CALL) {
      bool conditional = false;
      for (size_t k = 0; k < stack.len; k++)
        conditional |= stack.items[k].conditional;
      if (conditional && calls_program_function(G, &ev->u.call))
        f->why_run |= CG_WHY_CALL_NOT_TAKEN;
      continue;
    }
    if (ev->kind != VXP_EV_PLACE) continue;
    const vxp_place_event *p = &ev->u.place;
    tiles placed = {0, 0, 0};
    size_t from, n = vxp_cg__records_span(G, f->record_first, f->record_end, p->start_byte,
                                          p->end_byte, &from);
    for (size_t k = 0; k < n; k++) {
      const vxp_record *rec = &G->an->records.items[G->lookup.records.items[from + k].at];
      placed.count++;
      placed.bytes += rec->bytes;
      placed.mix += rec->bytes * (2654435761u * (uint64_t)(rec->space + 1));
    }
    if (!placed.count) continue;
    if (stack.len) {
      tiles *own = &array_last(&stack)->own;
      own->count += placed.count;
      own->bytes += placed.bytes;
      own->mix += placed.mix;
    }
    for (size_t k = 0; k < stack.len; k++) {
      if (stack.items[k].kind == VXP_BLOCK_MATCH_ARM) f->why |= CG_WHY_MATCH_ARMS;
      if (stack.items[k].kind == VXP_BLOCK_FOR && stack.items[k].conditional)
        f->why |= CG_WHY_LOOP_TRIPS;
    }
  }
  array_free(G->ctx, &stack);
}

/* The reasons as a JSON array of strings: `[]`, `["match-arms", "branch"]`. */
void vxp_cg__reasons_json(vxp_context *ctx, vxp_sb *sb, unsigned why) {
  static const struct {
    unsigned bit;
    const char *name;
  } names[] = {{CG_WHY_MATCH_ARMS, "match-arms"},
               {CG_WHY_BRANCH, "branch"},
               {CG_WHY_LOOP_TRIPS, "loop-trips"},
               {CG_WHY_EARLY_EXIT, "early-exit"},
               {CG_WHY_CALL_NOT_TAKEN, "call-not-taken"}};
  vxp_sb__append(ctx, sb, "[", 1);
  bool first = true;
  for (size_t i = 0; i < VXP__ARRAY_LEN(names); i++) {
    if (!(why & names[i].bit)) continue;
    vxp_sb__printf(ctx, sb, "%s\\\"%s\\\"", first ? "" : ", ", names[i].name);
    first = false;
  }
  vxp_sb__append(ctx, sb, "]", 1);
}
