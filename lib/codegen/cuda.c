/* SPDX-License-Identifier: Apache-2.0 */
/* cuda.c - the public entry of the CUDA stage and the layout of a generated program:
 * header, tables from the analysis, the runtime prelude, kernels, functions and main. */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>

#include "codegen.h"

/* ------------------------------------------------------------------ items */

static void lookup_syms(cg *G) {
  const TSLanguage *lang = G->ctx->language;
#define SYM(member, name) G->X.member = ts_language_symbol_for_name(lang, name, strlen(name), true)
#define FLD(member, name) G->X.member = ts_language_field_id_for_name(lang, name, strlen(name))
  SYM(break_statement, "break_statement");
  SYM(continue_statement, "continue_statement");
  SYM(assert_statement, "assert_statement");
  SYM(empty_statement, "empty_statement");
  SYM(literal_pattern, "literal_pattern");
  SYM(wildcard_pattern, "wildcard_pattern");
  SYM(string_content, "string_content");
  SYM(escape_sequence, "escape_sequence");
  FLD(pattern, "pattern");
  FLD(mutable_field, "mutable");
  FLD(message, "message");
#undef SYM
#undef FLD
}

/* The analysis' records of analysed function `fn`: [first, end). */
static void record_range(cg *G, cg_fn *f) {
  f->record_first = f->record_end = 0;
  if (f->analysed >= G->an->functions.len) return;
  f->record_first = G->index.records[f->analysed].first;
  f->record_end = G->index.records[f->analysed].end;
}

/* A C identifier for an instance's name: `stage<1024, f32>` -> `stage_1024_f32`. */
static void instance_ident(cg *G, vxp_sb *sb, const char *name) {
  bool gap = false, any = false;
  for (const char *p = name; *p; p++) {
    bool word = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                *p == '_';
    if (!word) {
      gap = any;
      continue;
    }
    if (gap) vxp_sb__putc(G->ctx, sb, '_');
    gap = false;
    any = true;
    vxp_sb__putc(G->ctx, sb, *p);
  }
}

/* The model function lowered from `node`, and its index in the analysis. */
static void find_model_fn(cg *G, TSNode node, cg_fn *f) {
  f->model_fn = vxp_cg__index_model_fn(G, ts_node_start_byte(node));
  f->analysed = VXP_NONE;
  if (f->model_fn != VXP_NONE) {
    f->name = vxp_strtab__str(&G->m->names, G->m->functions.items[f->model_fn].name);
    f->analysed = G->index.last_analysed[f->model_fn];
  }
  record_range(G, f);
}

static bool return_type(cg *G, cg_fn *f) {
  TSNode type = vxp_cg__field(f->node, G->F->return_type);
  size_t len;
  const char *text = vxp_cg__text(G, type, &len);
  const char *ct = vxp_cg__is(type, G->S->type_identifier)
                       ? vxp_cg__scalar_ctype(vxp_cg__elem(G, text, len))
                       : NULL;
  if (!ct && vxp_cg__is(type, G->S->tensor_type) &&
      ts_node_is_null(vxp_cg__field(type, G->F->placement))) {
    /* An unplaced tensor lives on the host, where the analysis counts no tile: the
     * function hands its buffer to the caller (a checkpoint loader, say). */
    f->return_t = vxp_ctx__malloc(G->ctx, sizeof(*f->return_t));
    if (!f->return_t) {
      G->rc = VXP_ENOMEM;
      return false;
    }
    if (!vxp_cg__tensor_type(G, type, f->return_t)) return false;
    f->return_ctype = vxp_cg__storage_ctype((vxp_elem)f->return_t->elem);
    f->returns_tensor = true;
    return true;
  }
  if (!ct)
    return vxp_cg__refuse(G, ts_node_is_null(type) ? f->node : type,
                          "function '%s' returns '%.*s': the subset returns element-typed "
                          "scalars and unplaced (host) tensors (a returned tile would outlive "
                          "the function that the analysis releases it in)",
                          f->name, (int)len, text);
  f->return_ctype = ct;
  f->returns_scalar = true;
  return true;
}

/* The C name built in `sb`, taken out of it (NULL and G->rc VXP_ENOMEM when an append or
 * the hand-over failed). The function's record owns it from then on. */
static char *take_cname(cg *G, vxp_sb *sb) {
  char *cname = vxp_cg__sb_take(G, sb);
  if (!cname) G->rc = VXP_ENOMEM;
  return cname;
}

/* Add `f`, which owns its cname: kept with it, or freed when it is refused. */
static bool add_fn(cg *G, cg_fn *f, TSNode name_node) {
  bool ok = true;
  if (vxp_name_index__find(&G->index.fn_by_cname, f->cname) >= 0) {
    ok = vxp_cg__refuse(G, name_node, "a second function named '%s' in generated code",
                        f->cname + 3);
  } else {
    cg_fn *prev = vxp_cg__use_fn(G, f);
    ok = return_type(G, f) && vxp_cg__read_params(G, f);
    vxp_cg__use_fn(G, prev);
  }
  /* The room was reserved (vxp_cg__index_build): the array does not move. */
  if (ok && !array_push(G->ctx, &G->fns, *f)) {
    G->rc = VXP_ENOMEM;
    ok = false;
  }
  if (!ok) {
    vxp_cg__free_params(G, f);
    vxp_ctx__free(G->ctx, f->return_t);
    f->return_t = NULL;
    vxp_ctx__free(G->ctx, f->cname);
    f->cname = NULL;
    return false;
  }
  if (!vxp_cg__index_add_fn(G, G->fns.len - 1)) G->rc = VXP_ENOMEM;
  return vxp_cg__ok(G);
}

/* A generic function: one generated function per instance the analysis made, with the
 * analysis' name for it; one that nothing instantiates was not analysed and is not
 * generated (as a C++ template nobody uses would not be). */
static void generic_instances(cg *G, TSNode item, const char *text, size_t len) {
  uint32_t model_fn = vxp_cg__index_model_fn(G, ts_node_start_byte(item));
  if (model_fn == VXP_NONE) {
    vxp_cg__refuse(G, item, "function '%.*s' was not lowered", (int)len, text);
    return;
  }
  if (!ts_node_is_null(vxp_cg__field(item, G->F->topology))) {
    vxp_cg__refuse(G, item,
                   "function '%.*s' is bound to a topology (`on ..`): the subset "
                   "runs functions on the host and `spawn` regions on devices",
                   (int)len, text);
    return;
  }
  for (uint32_t i = G->index.first_instance[model_fn]; i != VXP_NONE && vxp_cg__ok(G);
       i = G->index.next_instance[i]) {
    const vxp_analysed_fn *af = &G->an->functions.items[i];
    cg_fn f;
    memset(&f, 0, sizeof(f));
    f.node = item;
    f.start_byte = ts_node_start_byte(item);
    f.model_fn = model_fn;
    f.analysed = (uint32_t)i;
    f.name = af->name;
    vxp_sb cname = {0};
    vxp_sb__puts(G->ctx, &cname, "vx_");
    instance_ident(G, &cname, af->name);
    if (!(f.cname = take_cname(G, &cname))) break;
    record_range(G, &f);
    if (!add_fn(G, &f, vxp_cg__field(item, G->F->name))) continue;
  }
}

/* The caller's cancellation flag or time budget, polled before each item and function:
 * true (and G->rc VXP_ECANCELLED) when the generation must stop. */
static bool interrupted(cg *G) {
  if (G->rc == VXP_OK && vxp_ctx__interrupted(G->ctx)) G->rc = VXP_ECANCELLED;
  return G->rc == VXP_ECANCELLED;
}

static void collect_items(cg *G, TSNode root) {
  const vxp_symbols *S = G->S;
  /* A cursor: ts_node_named_child(root, i) walks from the first child each time. */
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (bool more = ts_tree_cursor_goto_first_child(&cursor); more && vxp_cg__ok(G);
       more = ts_tree_cursor_goto_next_sibling(&cursor)) {
    if (interrupted(G)) break;
    TSNode item = ts_tree_cursor_current_node(&cursor);
    if (!ts_node_is_named(item)) continue;
    TSSymbol sym = ts_node_symbol(item);
    if (sym == S->line_comment || sym == S->doc_comment || sym == S->const_item ||
        sym == S->memory_item || sym == S->topology_item)
      continue; /* comments, folded constants, and the machine model the analysis used */
    if (sym != S->function_item) {
      char buf[64];
      vxp_cg__refuse(G, item, "%s is outside the CUDA code generation subset",
                     vxp_cg__construct(G, item, buf, sizeof(buf)));
      continue;
    }
    TSNode name = vxp_cg__field(item, G->F->name);
    size_t len;
    const char *text = vxp_cg__text(G, name, &len);
    if (!ts_node_is_null(vxp_cg__field(item, G->F->generics))) {
      generic_instances(G, item, text, len);
      continue;
    }
    if (!ts_node_is_null(vxp_cg__field(item, G->F->topology))) {
      vxp_cg__refuse(G, item,
                     "function '%.*s' is bound to a topology (`on ..`): the subset "
                     "runs functions on the host and `spawn` regions on devices",
                     (int)len, text);
      continue;
    }
    cg_fn f;
    memset(&f, 0, sizeof(f));
    f.node = item;
    f.start_byte = ts_node_start_byte(item);
    find_model_fn(G, item, &f);
    if (f.model_fn == VXP_NONE || f.analysed == VXP_NONE) {
      vxp_cg__refuse(G, item, "function '%.*s' was not analysed", (int)len, text);
      continue;
    }
    vxp_sb cname = {0};
    vxp_sb__puts(G->ctx, &cname, "vx_");
    vxp_cg__c_ident_sb(G, &cname, text, len);
    if (!(f.cname = take_cname(G, &cname))) break;
    add_fn(G, &f, name);
  }
  ts_tree_cursor_delete(&cursor);
}

static int by_space_name(const void *a, const void *b) {
  return strcmp(((const cg_space *)a)->name, ((const cg_space *)b)->name);
}

/* The spaces that received a tile in a generated function, in name order. */
static void collect_spaces(cg *G) {
  uint32_t *of_view = G->index.space_of_view;
  size_t nview = G->an->view.spaces.len;
  for (size_t f = 0; f < G->fns.len; f++) {
    const cg_fn *fn = &G->fns.items[f];
    for (size_t i = fn->record_first; i < fn->record_end; i++) {
      const vxp_record *r = &G->an->records.items[i];
      if (r->space >= nview || of_view[r->space] != VXP_NONE) continue;
      cg_space sp;
      memset(&sp, 0, sizeof(sp));
      sp.name = r->space_name;
      sp.view_index = r->space;
      sp.host = strcmp(r->space_name, "CPU_DRAM") == 0;
      vxp_sb cname = {0};
      vxp_cg__c_ident_sb(G, &cname, sp.name, strlen(sp.name));
      sp.cname = vxp_sb__detach(G->ctx, &cname, NULL);
      if (!sp.cname || !array_push(G->ctx, &G->spaces, sp)) {
        vxp_ctx__free(G->ctx, sp.cname);
        G->rc = VXP_ENOMEM;
        return;
      }
      of_view[r->space] = 0; /* seen; its place once sorted is set below */
    }
  }
  if (G->spaces.len) qsort(G->spaces.items, G->spaces.len, sizeof(cg_space), by_space_name);
  for (size_t k = 0; k < G->spaces.len; k++)
    of_view[G->spaces.items[k].view_index] = (uint32_t)k;
}

/* ------------------------------------------------------------------ layout */

/* `s` as the contents of a C string literal (also valid JSON text). */
static void c_string(vxp_context *ctx, vxp_sb *sb, const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      vxp_sb__printf(ctx, sb, "\\%c", c);
    else if (c < 0x20 || c >= 0x7f)
      vxp_sb__printf(ctx, sb, "\\u%04x", c);
    else
      vxp_sb__append(ctx, sb, (const char *)&c, 1);
  }
}

/* The narrow float types, each with the header that declares it. */
static const struct {
  const char *type, *header;
} narrow[] = {
    {"__half", "cuda_fp16.h"}, {"__nv_bfloat16", "cuda_bf16.h"}, {"__nv_fp8_", "cuda_fp8.h"}};

/* Note the narrow types that one function's definition (`def`, NUL-terminated) uses. No
 * type's name spans two definitions (each ends with "}\n\n"), so the definitions use a
 * type exactly when one of them does. */
static void note_narrow(cg *G, const char *def) {
  for (size_t i = 0; def && i < VXP__ARRAY_LEN(narrow); i++)
    if (strstr(def, narrow[i].type)) G->narrow_defs |= 1u << i;
}

static void header(cg *G, vxp_sb *o) {
  const char *label = vxp_source_label(G->src);
  const char *machine =
      G->an->machine ? vxp_machine_label(G->an->machine) : "the program's own declarations";
  vxp_sb__printf(G->ctx, o,
                 "/* Generated by vxpeak %s (emit-cuda) from %s, machine: %s. Do not edit. */\n",
                 vxp_version_string(), label, machine);
  vxp_sb__printf(G->ctx, o, "/* Analysis verdict: %s (%zu error%s, %zu warning%s). */\n",
                 G->an->error_count ? "rejected" : "admitted", G->an->error_count,
                 G->an->error_count == 1 ? "" : "s", G->an->warning_count,
                 G->an->warning_count == 1 ? "" : "s");
  vxp_sb__printf(G->ctx, o, "%s",
                 "/*\n"
                 " * Every device allocation below is one of the analysis' tiles, with its\n"
                 " * granule-rounded bytes, and is freed where the analysis releases it: at the\n"
                 " * end of the releasing block (`if`/`else` arm, `for` or `loop` body) that\n"
                 " * placed it, at once when its name is never read, or at the function's exit.\n"
                 " * The counting allocator prints, at exit, one line of JSON with the measured\n"
                 " * high-water marks next to the analysis' static peaks; the exit status is 4\n"
                 " * when a function breaks its rule: equal to its static peak where its\n"
                 " * reasons are [] (straight-line, or every branch places the same tiles), at\n"
                 " * most its static peak where reasons are named (vxp_fn_reasons).\n"
                 " *\n"
                 " *   GPU:  nvcc -std=c++17 -o prog THIS.cu && ./prog\n"
                 " *   CPU:  g++ -std=c++17 -x c++ -include tests/codegen/cuda_emul.h THIS.cu\n"
                 " */\n"
                 "#ifndef VXP_CUDA_EMULATED\n#include <cuda_runtime.h>\n");
  /* The narrow float types' headers, when the program uses them (the CPU emulation
   * defines stand-ins of the same sizes). */
  for (size_t i = 0; i < VXP__ARRAY_LEN(narrow); i++) {
    bool used = (G->narrow_defs >> i) & 1u;
    for (size_t f = 0; f < G->fns.len && !used; f++)
      used = G->fns.items[f].signature && strstr(G->fns.items[f].signature, narrow[i].type);
    used = used || (G->kernels.data && strstr(G->kernels.data, narrow[i].type));
    if (used) vxp_sb__printf(G->ctx, o, "#include <%s>\n", narrow[i].header);
  }
  vxp_sb__printf(G->ctx, o, "#endif\n\n");
}

static void tables(cg *G, vxp_sb *o) {
  vxp_context *ctx = G->ctx;
  vxp_sb__append(ctx, o, "#define VXP_PROGRAM_LABEL \"", 27);
  c_string(ctx, o, vxp_source_label(G->src));
  vxp_sb__append(ctx, o, "\"\n#define VXP_MACHINE_LABEL \"", 29);
  c_string(ctx, o, G->an->machine ? vxp_machine_label(G->an->machine) : "(program)");
  vxp_sb__append(ctx, o, "\"\n\n", 3);
  vxp_sb__printf(ctx, o, "/* Memory spaces that receive tiles (from the analysis). */\n");
  vxp_sb__printf(ctx, o, "#define VXP_SPACE_COUNT %zu\n", G->spaces.len);
  vxp_sb__printf(ctx, o, "#define VXP_SPACE_SLOTS %zu\n", G->spaces.len ? G->spaces.len : 1);
  vxp_sb__printf(ctx, o, "enum vxp_space_id {");
  for (size_t i = 0; i < G->spaces.len; i++)
    vxp_sb__printf(ctx, o, "%s VXP_SPACE_%s = %zu", i ? "," : "", G->spaces.items[i].cname, i);
  vxp_sb__printf(ctx, o, "%sVXP_SPACE_NONE_ = -1 };\n", G->spaces.len ? ", " : " ");
  vxp_sb__printf(ctx, o,
                 "static const struct vxp_space_info {\n  const char *name;\n  int host;\n"
                 "} vxp_spaces[VXP_SPACE_SLOTS] = {");
  for (size_t i = 0; i < G->spaces.len; i++)
    vxp_sb__printf(ctx, o, "%s{\"%s\", %d}", i ? ", " : "", G->spaces.items[i].name,
                   G->spaces.items[i].host ? 1 : 0);
  if (G->spaces.len == 0) vxp_sb__printf(ctx, o, "{\"\", 0}");
  vxp_sb__printf(ctx, o,
                 "};\n\n/* Functions, and the analysis' peak of each in each space "
                 "(vxp_resident_set_peak_bytes). */\n");
  vxp_sb__printf(ctx, o, "#define VXP_FN_COUNT %zu\nenum vxp_fn_id {", G->fns.len);
  for (size_t i = 0; i < G->fns.len; i++)
    vxp_sb__printf(ctx, o, "%s VXP_FN_%s = %zu", i ? "," : "", G->fns.items[i].cname + 3, i);
  vxp_sb__printf(ctx, o, " };\nstatic const char *const vxp_fn_names[VXP_FN_COUNT] = {");
  for (size_t i = 0; i < G->fns.len; i++) {
    vxp_sb__printf(ctx, o, "%s\"", i ? ", " : "");
    c_string(ctx, o, G->fns.items[i].name);
    vxp_sb__append(ctx, o, "\"", 1);
  }
  vxp_sb__printf(ctx, o, "};\n");
  /* The rule each comparison follows (rule.c): a function whose reasons are [] measures
   * its static peak exactly; one with reasons measures at most its static peak. */
  unsigned run = 0;
  vxp_sb__printf(ctx, o, "static const char *const vxp_fn_reasons[VXP_FN_COUNT] = {");
  for (size_t i = 0; i < G->fns.len; i++) {
    vxp_sb__printf(ctx, o, "%s\"", i ? ", " : "");
    vxp_cg__reasons_json(ctx, o, G->fns.items[i].why);
    vxp_sb__append(ctx, o, "\"", 1);
    run |= G->fns.items[i].why | G->fns.items[i].why_run;
  }
  vxp_sb__printf(ctx, o,
                 "};\n/* The whole run against main's call-tree total: any function's "
                 "reason, or a call under a condition. */\n"
                 "static const char *const vxp_run_reasons = \"");
  vxp_cg__reasons_json(ctx, o, run);
  vxp_sb__printf(ctx, o, "\";\n");
  vxp_sb peaks;
  memset(&peaks, 0, sizeof(peaks));
  size_t count = 0;
  for (size_t r = 0; r < G->an->resident_sets.len; r++) {
    const vxp_resident_set *rs = &G->an->resident_sets.items[r];
    const cg_fn *f = vxp_cg__index_fn_of(G, rs->function);
    uint32_t s = rs->space < G->an->view.spaces.len ? G->index.space_of_view[rs->space] : VXP_NONE;
    if (!f || s == VXP_NONE) continue;
    vxp_sb__printf(ctx, &peaks, "  {VXP_FN_%s, VXP_SPACE_%s, %lluull},\n", f->cname + 3,
                   G->spaces.items[s].cname, (unsigned long long)rs->peak_bytes);
    count++;
  }
  vxp_sb__printf(ctx, o, "#define VXP_STATIC_PEAK_COUNT %zu\n", count);
  vxp_sb__printf(
      ctx, o,
      "static const struct vxp_static_peak {\n  int fn, space;\n"
      "  unsigned long long bytes;\n} vxp_static_peaks[VXP_STATIC_PEAK_COUNT + 1] = {\n");
  vxp_sb__append(ctx, o, peaks.data ? peaks.data : "", peaks.len);
  vxp_sb__printf(ctx, o, "  {-1, -1, 0ull} /* end */\n};\n\n");
  if (peaks.failed) G->rc = VXP_ENOMEM;
  vxp_sb__free(ctx, &peaks);
}

/* ------------------------------------------------------------------ trees and output */

/* The trees the generator walks: the program's own when it kept it; else the text parsed
 * again, whole, or window by window as it was parsed (VXP_PROGRAM_NO_TREE), each window's
 * tree deleted once walked, so that no more than one window's tree lives. */
typedef struct cg_trees {
  vxp_window_cuts cuts; /* the windows' starts and the text's end; empty: one tree */
  size_t count;
} cg_trees;

static bool trees_begin(cg *G, cg_trees *T) {
  memset(T, 0, sizeof(*T));
  T->count = 1;
  if (G->prog->tree || !G->prog->windows) return true;
  int rc = vxp_program__window_cuts(G->ctx, G->src, &T->cuts);
  if (rc == VXP_OK && T->cuts.len - 1 == G->prog->windows) {
    T->count = T->cuts.len - 1;
    return true;
  }
  array_free(G->ctx, &T->cuts);
  G->rc = rc == VXP_ENOMEM ? VXP_ENOMEM : VXP_ERROR;
  if (G->rc == VXP_ERROR)
    vxp_ctx__error(G->ctx, VXP_ERROR, "%s: the text's windows are not found again", G->src->label);
  return false;
}

/* Tree `k` of `T`; NULL (G->rc set, reported) when it cannot be parsed. */
static TSTree *tree_get(cg *G, const cg_trees *T, size_t k) {
  if (G->prog->tree) return G->prog->tree;
  TSTree *tree = NULL;
  int rc = T->cuts.len ? vxp_program__parse_window(G->ctx, G->src, T->cuts.items[k],
                                                   T->cuts.items[k + 1], &tree)
                       : vxp_syntax__parse_tree(G->ctx, G->src, NULL, (uint32_t)G->src->len, &tree);
  if (rc != VXP_OK) G->rc = rc;
  return rc == VXP_OK ? tree : NULL;
}

static void tree_put(cg *G, TSTree *tree) {
  if (tree != G->prog->tree) ts_tree_delete(tree);
}

/* Collect the items of every tree in turn (collect_items), in source order. */
static void collect_all(cg *G, const cg_trees *T) {
  for (size_t k = 0; k < T->count && vxp_cg__ok(G); k++) {
    TSTree *tree = tree_get(G, T, k);
    if (!tree) break;
    size_t first = G->fns.len;
    collect_items(G, ts_tree_root_node(tree));
    for (size_t i = first; i < G->fns.len; i++) /* the tree goes: its nodes with it */
      G->fns.items[i].node = (TSNode){{0}, NULL, NULL};
    tree_put(G, tree);
  }
}

/* Where the generated text goes: the header, tables and prototypes built in `sb`, the
 * kernels and definitions in buffers of their own, each handed to the writer as it grows. */
typedef struct cg_out {
  vxp_sb sb;
  vxp_sb_sink to;
} cg_out;

/* Hand `sb`'s text to the writer when it holds a piece (or, with `all`, whatever it holds);
 * false (G->rc) when out of memory or refused. */
static bool out_drain(cg *G, cg_out *o, vxp_sb *sb, bool all) {
  if (sb->failed && !o->to.refused) G->rc = VXP_ENOMEM;
  if (G->rc != VXP_OK) return false;
  if (!vxp_sb__spill(sb, &o->to, all)) {
    G->rc = o->to.refused ? VXP_EIO : VXP_ENOMEM;
    return false;
  }
  return true;
}

/* A text held elsewhere (the kernels, the definitions) written after what `o` holds. */
static bool out_text(cg *G, cg_out *o, const vxp_sb *text) {
  if (text->failed) G->rc = VXP_ENOMEM;
  if (!out_drain(G, o, &o->sb, true)) return false;
  if (text->len && o->to.write(o->to.arg, text->data, text->len) != 0) {
    o->to.refused = true;
    G->rc = VXP_EIO;
    return false;
  }
  return true;
}

/* Generate the functions of every tree in turn, in the order they were collected: each
 * function's node is found again in its window's tree by its item's start. The first
 * time (`first`) each function is classified too, and, with G->regenerate, its definition
 * is dropped once its narrow types are noted; the second time its kernels are dropped (they
 * were written) and its definition handed to `o` as it grows. */
static void generate_all(cg *G, const cg_trees *T, bool first, cg_out *o) {
  size_t next = 0;
  G->fact_cursor = 0;
  G->kernel_count = 0;
  for (size_t k = 0; k < T->count && G->rc == VXP_OK && next < G->fns.len; k++) {
    TSTree *tree = tree_get(G, T, k);
    if (!tree) break;
    TSTreeCursor cursor = ts_tree_cursor_new(ts_tree_root_node(tree));
    for (bool more = ts_tree_cursor_goto_first_child(&cursor);
         more && G->rc == VXP_OK && next < G->fns.len;
         more = ts_tree_cursor_goto_next_sibling(&cursor)) {
      TSNode item = ts_tree_cursor_current_node(&cursor);
      uint32_t at = ts_node_start_byte(item);
      for (; next < G->fns.len && G->fns.items[next].start_byte == at; next++) {
        if (interrupted(G)) break;
        cg_fn *f = &G->fns.items[next];
        f->node = item;
        vxp_cg__use_fn(G, f);
        if (first) vxp_cg__classify(G, f);
        size_t def_at = G->defs.len;
        vxp_cg__function(G, f);
        f->node = (TSNode){{0}, NULL, NULL};
        if (G->rc != VXP_OK) break;
        if (first) note_narrow(G, G->defs.data ? G->defs.data + def_at : NULL);
        if (first && G->regenerate) vxp_sb__free(G->ctx, &G->defs);
        if (!first) {
          if (G->kernels.failed) G->rc = VXP_ENOMEM; /* dropped, but cut short all the same */
          vxp_sb__free(G->ctx, &G->kernels);
          out_drain(G, o, &G->defs, false);
        }
      }
    }
    ts_tree_cursor_delete(&cursor);
    tree_put(G, tree);
  }
  if (G->rc == VXP_OK && next < G->fns.len) {
    G->rc = VXP_ERROR;
    vxp_ctx__error(G->ctx, VXP_ERROR, "%s: a function's item is not found again", G->src->label);
  }
}

int vxp_cg__generate(cg *G, vxp_write_fn write, void *arg) {
  lookup_syms(G);
  if (!vxp_cg__index_build(G)) return G->rc = VXP_ENOMEM;
  cg_trees T;
  if (!trees_begin(G, &T)) return G->rc;
  G->regenerate = T.count > 1;
  collect_all(G, &T);
  bool has_main = false;
  for (size_t i = 0; i < G->fns.len; i++) {
    cg_fn *f = &G->fns.items[i];
    if (strcmp(f->name, "main") != 0) continue;
    has_main = true;
    if (f->params_named != 0)
      vxp_cg__refuse_at(G, f->params_located, f->params_start, f->params_end,
                        "`main` takes no parameters in a generated program");
  }
  if (!has_main && vxp_cg__ok(G) && G->diags->len == 0)
    vxp_cg__refuse(G, (TSNode){{0}, NULL, NULL},
                   "the program has no `fn main() -> i32`, where the generated program starts");
  if (G->rc == VXP_OK) collect_spaces(G);
  cg_out out;
  memset(&out, 0, sizeof(out));
  out.to.write = write;
  out.to.arg = arg;
  if (G->rc == VXP_OK && !interrupted(G)) generate_all(G, &T, true, NULL);
  if (G->rc != VXP_OK || vxp_diag__count(G->diags, VXP_SEVERITY_ERROR) > 0) {
    array_free(G->ctx, &T.cuts);
    return G->rc;
  }

  vxp_sb *o = &out.sb;
  header(G, o);
  tables(G, o);
  out_drain(G, &out, o, false);
  vxp_sb__append(G->ctx, o, vxp_cuda__prelude, strlen(vxp_cuda__prelude));
  vxp_sb__printf(G->ctx, o, "\n/* ==================== functions of %s */\n\n",
                 vxp_source_label(G->src));
  for (size_t i = 0; i < G->fns.len && out_drain(G, &out, o, false); i++)
    vxp_sb__printf(G->ctx, o, "%s;\n", G->fns.items[i].signature);
  vxp_sb__printf(G->ctx, o, "\n/* ==================== kernels: one per `spawn` region */\n\n");
  out_text(G, &out, &G->kernels);
  vxp_sb__printf(G->ctx, o, "/* ==================== function bodies */\n\n");
  if (!G->regenerate) {
    out_text(G, &out, &G->defs);
  } else if (out_drain(G, &out, o, true)) { /* the definitions follow what was written */
    vxp_sb__free(G->ctx, &G->kernels);
    generate_all(G, &T, false, &out);
    out_drain(G, &out, &G->defs, true);
  }
  vxp_sb__printf(G->ctx, o,
                 "int main(void) {\n"
                 "  vxp_start();\n"
                 "  int status = (int)vx_main();\n"
                 "  return vxp_report() ? status : 4;\n"
                 "}\n");
  out_drain(G, &out, o, true);
  vxp_sb__free(G->ctx, o);
  array_free(G->ctx, &T.cuts);
  return G->rc;
}

/* ------------------------------------------------------------------ public API */

static void cg_free(cg *G) {
  vxp_context *ctx = G->ctx;
  for (size_t i = 0; i < G->fns.len; i++) {
    vxp_ctx__free(ctx, G->fns.items[i].signature);
    vxp_ctx__free(ctx, G->fns.items[i].cname);
    vxp_cg__free_params(G, &G->fns.items[i]);
    vxp_ctx__free(ctx, G->fns.items[i].return_t);
  }
  for (size_t i = 0; i < G->spaces.len; i++)
    vxp_ctx__free(ctx, G->spaces.items[i].cname);
  for (size_t i = 0; i < G->used_names.len; i++)
    vxp_ctx__free(ctx, G->used_names.items[i]);
  vxp_cg__index_free(G);
  vxp_cg__lookup_free(G);
  array_free(ctx, &G->fns);
  array_free(ctx, &G->spaces);
  array_free(ctx, &G->buffers);
  array_free(ctx, &G->pending);
  array_free(ctx, &G->blocks);
  array_free(ctx, &G->vars);
  array_free(ctx, &G->scopes);
  array_free(ctx, &G->used_names);
  vxp_sb__free(ctx, &G->kernels);
  vxp_sb__free(ctx, &G->defs);
  vxp_sb__free(ctx, &G->body);
}

/* Move the handle to the end of its text's block (the block grows by the handle; the text is
 * not copied), so that freeing generated CUDA is one call. False when out of memory, with
 * nothing moved. */
static bool move_into_text(vxp_cuda **cu) {
  vxp_cuda *c = *cu;
  size_t a = alignof(vxp_cuda);
  if (c->len > SIZE_MAX / 2) return false;
  size_t at = (c->len + 1 + a - 1) / a * a;
  char *block = vxp_ctx__realloc(c->ctx, c->text, at + sizeof(*c));
  if (!block) return false;
  c->text = block;
  c->in_text = true;
  vxp_cuda *moved = (vxp_cuda *)(void *)(block + at);
  *moved = *c;
  vxp_ctx__free(c->ctx, c);
  *cu = moved;
  return true;
}

/* Move a refusal, the handle and its diagnostics, into an arena of its own (the handle its
 * first request), so that freeing it is one call too. False when out of memory, with nothing
 * moved. */
static bool move_into_arena(vxp_cuda **cu) {
  vxp_cuda *c = *cu;
  vxp_context *ctx = c->ctx;
  vxp_cuda *moved = VXP_ARENA_HANDLE(ctx, vxp_cuda, arena);
  if (!moved) return false;
  vxp_arena arena = moved->arena;
  *moved = *c;
  moved->arena = arena;
  memset(&moved->diags, 0, sizeof(moved->diags));
  if (!vxp_diag__list_to_arena(ctx, &moved->arena, &moved->diags, &c->diags)) {
    vxp_arena__free_handle(ctx, &moved->arena);
    return false;
  }
  moved->in_arena = true;
  vxp_diag__list_free(ctx, &c->diags);
  vxp_ctx__free(ctx, c);
  *cu = moved;
  return true;
}

int vxp_cuda_generate(vxp_cuda **out, vxp_context *ctx, const vxp_analysis *an) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, an, VXP_TAG_ANALYSIS);

  return vxp_cuda_generate_flags(out, ctx, an, 0);
}

/* The verdict comes first: a program the analysis rejected is not generated (its peak is
 * over a capacity, or a tile is unresolved), unless the caller asked for it. The refusal
 * carries the analysis' own error diagnostics, then one saying what was not done. */
static int refuse_rejected(vxp_context *ctx, const vxp_analysis *an, vxp_cuda *cu) {
  for (size_t i = 0; i < an->diags.len; i++) {
    if (an->diags.items[i].severity == VXP_SEVERITY_ERROR &&
        !vxp_diag__copy(ctx, &cu->diags, &an->diags.items[i]))
      return VXP_ENOMEM;
  }
  if (!vxp_diag__add(ctx, &cu->diags, VXP_SEVERITY_ERROR, VXP_CG_REFUSED, NULL, 0, 0,
                     "the analysis rejected the program (%zu error%s above); no CUDA is generated "
                     "for a rejected program unless that is asked for explicitly",
                     an->error_count, an->error_count == 1 ? "" : "s"))
    return VXP_ENOMEM;
  return VXP_OK;
}

/* The text of vxp_cuda_generate_flags, collected from the generator's pieces. */
typedef struct cg_text {
  vxp_context *ctx;
  vxp_sb sb;
} cg_text;

static int append_piece(void *arg, const char *bytes, size_t len) {
  cg_text *t = arg;
  vxp_sb__append(t->ctx, &t->sb, bytes, len);
  return t->sb.failed ? 1 : 0;
}

/* vxp_cuda_generate_flags (`text` set: the pieces are collected into it) and
 * vxp_cuda_generate_write (the pieces go to `write`): *out holds the refusal's diagnostics,
 * or none when the program was written. */
static int generate(vxp_cuda **out, vxp_context *ctx, const vxp_analysis *an, unsigned int flags,
                    vxp_write_fn write, void *arg, cg_text *text) {
  vxp_cuda *cu = vxp_ctx__calloc(ctx, 1, sizeof(*cu));
  if (cu) cu->tag = VXP_TAG_CUDA; /* copied with the rest when it moves (move_into_*) */
  if (!cu) return vxp_ctx__nomem(ctx);
  cu->ctx = ctx;
  int rc = VXP_OK;
  /* A program with syntax errors is not generated: its tree is not the program. */
  const vxp_program *prog = an->prog;
  for (size_t i = 0; rc == VXP_OK && i < prog->diags.len; i++) {
    if (prog->diags.items[i].severity == VXP_SEVERITY_ERROR &&
        !vxp_diag__copy(ctx, &cu->diags, &prog->diags.items[i]))
      rc = VXP_ENOMEM;
  }
  bool syntax_errors = cu->diags.len != 0;
  if (rc == VXP_OK && !syntax_errors && an->error_count && !(flags & VXP_CUDA_ALLOW_REJECTED))
    rc = refuse_rejected(ctx, an, cu);
  bool written = false;
  if (rc == VXP_OK && cu->diags.len == 0) {
    cg G;
    memset(&G, 0, sizeof(G));
    G.ctx = ctx;
    G.an = an;
    G.prog = prog;
    G.m = &prog->model;
    G.src = prog->src;
    G.S = &ctx->syms;
    G.F = &ctx->fields;
    /* Constants as the analysis decided them: its const table and -D overrides. */
    G.env.model = &prog->model;
    G.env.consts = an->const_table;
    G.env.overrides = an->overrides.items;
    G.env.override_count = an->overrides.len;
    G.diags = &cu->diags;
    rc = vxp_cg__generate(&G, write, arg);
    if (rc == VXP_EIO && text && text->sb.failed) rc = VXP_ENOMEM; /* the text's own buffer */
    written = rc == VXP_OK && cu->diags.len == 0;
    if (written && text) {
      cu->text = text->sb.data;
      cu->len = text->sb.len;
      memset(&text->sb, 0, sizeof(text->sb));
    }
    cg_free(&G);
  } else if (rc == VXP_OK && syntax_errors) {
    if (!vxp_diag__add(ctx, &cu->diags, VXP_SEVERITY_ERROR, VXP_CG_REFUSED, NULL, 0, 0,
                       "the program has syntax errors; no CUDA is generated for it"))
      rc = VXP_ENOMEM;
  }
  if (text) vxp_sb__free(ctx, &text->sb);
  if (rc == VXP_OK && cu->text && !cu->diags.items && !move_into_text(&cu)) rc = VXP_ENOMEM;
  if (rc == VXP_OK && !written && !move_into_arena(&cu)) rc = VXP_ENOMEM;
  if (rc != VXP_OK) {
    vxp_cuda_free(cu);
    if (rc == VXP_ECANCELLED) return vxp_ctx__cancelled(ctx);
    if (rc == VXP_EIO) return vxp_ctx__error(ctx, VXP_EIO, "the writer of the CUDA program failed");
    if (rc == VXP_ERROR && vxp_context_errcode(ctx) == VXP_ERROR) return rc; /* reported */
    return rc == VXP_ENOMEM ? vxp_ctx__nomem(ctx)
                            : vxp_ctx__error(ctx, rc, "code generation failed");
  }
  *out = cu;
  return VXP_OK;
}

int vxp_cuda_generate_flags(vxp_cuda **out, vxp_context *ctx, const vxp_analysis *an,
                            unsigned int flags) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, an, VXP_TAG_ANALYSIS);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (!out || !ctx || !an || (flags & ~VXP_CUDA_ALLOW_REJECTED))
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_cuda_generate")
               : VXP_EINVAL;
  cg_text text;
  memset(&text, 0, sizeof(text));
  text.ctx = ctx;
  return generate(out, ctx, an, flags, append_piece, &text, &text);
}

int vxp_cuda_generate_write(vxp_cuda **out, vxp_context *ctx, const vxp_analysis *an,
                            unsigned int flags, vxp_write_fn write, void *arg) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  VXP__TAG_RC(ctx, an, VXP_TAG_ANALYSIS);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (!out || !ctx || !an || !write || (flags & ~VXP_CUDA_ALLOW_REJECTED))
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_cuda_generate_write")
               : VXP_EINVAL;
  return generate(out, ctx, an, flags, write, arg, NULL);
}

void vxp_cuda_free(vxp_cuda *cu) {
  VXP__TAG(cu, VXP_TAG_CUDA, );

  if (!cu) return;
  cu->tag = VXP_TAG_FREED;
  vxp_context *ctx = cu->ctx;
  if (cu->in_text) { /* the handle is in the text's block */
    vxp_ctx__free(ctx, cu->text);
    return;
  }
  if (cu->in_arena) { /* the handle and its diagnostics are the arena's */
    vxp_arena__free_handle(ctx, &cu->arena);
    return;
  }
  vxp_diag__list_free(ctx, &cu->diags);
  vxp_ctx__free(ctx, cu->text);
  vxp_ctx__free(ctx, cu);
}

const char *vxp_cuda_text(const vxp_cuda *cu, size_t *len) {
  VXP__TAG(cu, VXP_TAG_CUDA, NULL);

  if (!cu || !cu->text) {
    if (len) *len = 0;
    return NULL;
  }
  if (len) *len = cu->len;
  return cu->text;
}

size_t vxp_cuda_diagnostic_count(const vxp_cuda *cu) {
  VXP__TAG(cu, VXP_TAG_CUDA, 0);
  return cu ? cu->diags.len : 0;
}

const vxp_diagnostic *vxp_cuda_diagnostic(const vxp_cuda *cu, size_t i) {
  VXP__TAG(cu, VXP_TAG_CUDA, NULL);

  return (cu && i < cu->diags.len) ? &cu->diags.items[i] : NULL;
}
