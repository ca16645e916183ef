/* SPDX-License-Identifier: Apache-2.0 */
/* machine_load.c - a machine from a source or a built-in model (vxp_machine_load,
 * vxp_machine_builtin): parsed (syntax.h), its declarations read (machine.c), and its own
 * transfer lowerings held to the rules a program's are (lowerings.h, raw_primitives.h).
 * Apart from machine.c because those checks answer the declarations through a view, which
 * machine.c makes: the reader stays below the checks that use it. */
#include "machine.h"

#include <stdio.h>

#include "context.h"
#include "lower_raw.h"
#include "lowerings.h"
#include "raw_primitives.h"
#include "source.h"
#include "strtab.h"
#include "syntax.h"

#if defined(VXP_ASSERTIONS)
/* machine.h's invariant, as a check (VXP__CHECK: the assertion builds only). */
static void check_machine(const vxp_machine *machine) {
  /* Names are unique within spaces and within topologies (a duplicate was dropped). */
  for (size_t i = 0; i < machine->spaces.len; i++)
    for (size_t k = i + 1; k < machine->spaces.len; k++)
      VXP__ASSERT(strcmp(machine->spaces.items[i].name, machine->spaces.items[k].name) != 0);
  for (size_t i = 0; i < machine->topologies.len; i++)
    for (size_t k = i + 1; k < machine->topologies.len; k++)
      VXP__ASSERT(strcmp(machine->topologies.items[i].name, machine->topologies.items[k].name) !=
                  0);
}
#endif

/* A machine input must be a machine model: VXP0042 when it is a program (it defines
 * functions: a program passed where a machine is expected), VXP0041 when it declares no
 * Memory and no Topology (nothing to check against). Either is an error, so that nothing
 * is admitted against a machine that was not read. */
static int check_is_machine(vxp_context *ctx, vxp_machine *m, const vxp_source *src, TSNode root) {
  const vxp_symbols *S = &ctx->syms;
  /* A cursor: ts_node_named_child(root, i) walks from the first child each time. */
  TSNode item = {{0}, NULL, NULL};
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  bool more = ts_tree_cursor_goto_first_child(&cursor);
  for (; more; more = ts_tree_cursor_goto_next_sibling(&cursor)) {
    item = ts_tree_cursor_current_node(&cursor);
    if (ts_node_symbol(item) == S->function_item) break;
  }
  ts_tree_cursor_delete(&cursor);
  if (more) {
    TSNode name = ts_node_child_by_field_id(item, ctx->fields.name);
    if (ts_node_is_null(name)) name = item;
    vxp_diagnostic *d = vxp_diag__add(
        ctx, &m->diags, VXP_SEVERITY_ERROR, "VXP0042", src, ts_node_start_byte(name),
        ts_node_end_byte(name),
        "'%s' is a program, not a machine model: it defines functions; a machine model "
        "declares only Memory and Topology items",
        m->label);
    if (!d || !vxp_diag__note(ctx, d, true, NULL, 0, 0,
                              "pass the program as the file to check and its machine with "
                              "--machine (a fleet name or a file of Memory/Topology items)"))
      return VXP_ENOMEM;
    return VXP_OK;
  }
  if (m->spaces.len || m->topologies.len) return VXP_OK;
  vxp_diagnostic *d = vxp_diag__add(ctx, &m->diags, VXP_SEVERITY_ERROR, "VXP0041", NULL, 0, 0,
                                    "the machine model '%s' declares no Memory and no Topology: "
                                    "there is nothing to check the program against",
                                    m->label);
  return d ? VXP_OK : VXP_ENOMEM;
}

/* The names of a machine file's `raw::` facts: a table of their own (the file has no model). */
typedef struct raw_names {
  vxp_context *ctx;
  vxp_strtab tab;
} raw_names;

static vxp_name intern_raw_name(void *arg, const char *s, size_t len) {
  raw_names *N = arg;
  return vxp_strtab__intern(N->ctx, &N->tab, s, len);
}

/* The raw:: obligations of the file's items: their facts read from the tree here, where the
 * file is read (the program's are read at lowering), then answered against `view`. */
static int check_own_raw(vxp_context *ctx, vxp_machine *m, const vxp_source *src, TSNode root,
                         const vxp_machine_view *view) {
  raw_names N;
  memset(&N, 0, sizeof(N));
  N.ctx = ctx;
  vxp_raw_facts facts = {0};
  int rc = vxp_strtab__init(ctx, &N.tab);
  vxp_lower_raw W = {ctx, src, &facts, intern_raw_name, &N};
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (bool more = ts_tree_cursor_goto_first_child(&c); more && rc == VXP_OK;
       more = ts_tree_cursor_goto_next_sibling(&c)) {
    TSNode item = ts_tree_cursor_current_node(&c);
    if (ts_node_is_named(item)) rc = vxp_lower_raw__item(&W, item);
  }
  ts_tree_cursor_delete(&c);
  if (rc == VXP_OK)
    rc = vxp_raw__check_facts(ctx, src, &N.tab, facts.items, facts.len, view, &m->diags);
  array_free(ctx, &facts);
  vxp_strtab__free(ctx, &N.tab);
  return rc;
}

/* A machine file's own transfer lowerings are held to the rules a program's are (E6022 and
 * VXP0043, lowerings.h; the raw:: obligations, raw_primitives.h), against the file's own
 * declarations: a lowering names its machine, and a machine file declares it. The view's
 * coherence findings are dropped here; the analysis reports them when it merges its inputs. */
static int check_own_lowerings(vxp_context *ctx, vxp_machine *m, const vxp_source *src,
                               TSNode root) {
  vxp_machine_view view;
  memset(&view, 0, sizeof(view));
  vxp_diag_list scratch = {0};
  const vxp_machine *inputs[1] = {m};
  int rc = vxp_machine__merge(ctx, inputs, 1, &view, &scratch);
  if (rc == VXP_OK) rc = vxp_lowerings__check(ctx, src, m, &view, &m->diags);
  if (rc == VXP_OK) rc = check_own_raw(ctx, m, src, root, &view);
  vxp_diag__list_free(ctx, &scratch);
  vxp_machine__view_free(ctx, &view);
  return rc;
}

/* Read `m` (made by vxp_machine__new, taken over: freed on failure) from `src`. */
static int load_from_source(vxp_machine **out, vxp_context *ctx, const vxp_source *src,
                            vxp_machine *m) {
  m->src = src;
  vxp_syntax_cut why;
  uint32_t parsable = vxp_syntax__parsable_length(ctx, src, &why);
  TSTree *tree = NULL;
  int parsed = vxp_syntax__parse_tree(ctx, src, NULL, parsable, &tree);
  if (parsed != VXP_OK) {
    vxp_machine_free(m);
    return parsed;
  }
  TSNode root = ts_tree_root_node(tree);
  int rc = vxp_syntax__diagnose(ctx, src, root, &m->diags);
  if (rc == VXP_OK && parsable < src->len)
    rc = vxp_syntax__report_cut(ctx, src, parsable, why, &m->diags);
  if (rc == VXP_OK) rc = vxp_machine__read(ctx, m, src, root);
  if (rc == VXP_OK) rc = check_is_machine(ctx, m, src, root);
  if (rc == VXP_OK && m->lowerings.len) rc = check_own_lowerings(ctx, m, src, root);
  ts_tree_delete(tree);
  if (rc == VXP_OK) { /* finished: the diagnostics join the arena */
    vxp_diag_list diags = {0};
    if (!vxp_diag__list_to_arena(ctx, m->arena, &diags, &m->diags)) {
      rc = VXP_ENOMEM;
    } else {
      vxp_diag__list_free(ctx, &m->diags);
      m->diags = diags;
      m->diags_sealed = true;
    }
  }
  if (rc != VXP_OK) {
    vxp_machine_free(m);
    return rc == VXP_ECANCELLED ? vxp_ctx__cancelled(ctx) : vxp_ctx__nomem(ctx);
  }
  VXP__CHECK(check_machine(m));
  *out = m;
  return VXP_OK;
}

int vxp_machine_load(vxp_machine **out, vxp_context *ctx, const vxp_source *src) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, src, VXP_TAG_SOURCE);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (!out || !ctx || !src)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_machine_load")
               : VXP_EINVAL;
  vxp_machine *m = vxp_machine__new(ctx, src->label);
  if (!m) return vxp_ctx__nomem(ctx);
  return load_from_source(out, ctx, src, m);
}

int vxp_machine_builtin(vxp_machine **out, vxp_context *ctx, const char *name) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (!out || !ctx || !name)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_machine_builtin")
               : VXP_EINVAL;
  size_t len;
  const char *text = vxp_builtin__text(name, &len);
  if (!text)
    return vxp_ctx__error(ctx, VXP_ENOTFOUND, "no built-in machine named '%s' (built-ins: %s)",
                          name, vxp_builtin__names());
  char label[128];
  snprintf(label, sizeof(label), "%s (built-in)", name);
  vxp_machine *m = vxp_machine__new(ctx, label);
  const vxp_source *src = m ? vxp_source__new_in(ctx, m->arena, label, text, len) : NULL;
  if (!src) {
    vxp_machine_free(m);
    return vxp_ctx__nomem(ctx);
  }
  return load_from_source(out, ctx, src, m);
}

/* The one place the defaults are named: vxp_analyze, the command and the language server
 * all read them from here. */
const char *vxp_default_machine(void) { return "a100-40"; }

const char *vxp_default_host(void) { return "host-default"; }
