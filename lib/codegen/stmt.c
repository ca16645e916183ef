/* SPDX-License-Identifier: Apache-2.0 */
/* stmt.c - statements, blocks and functions of the code generation subset.
 *
 * Blocks follow the analysis' release discipline (model.h, vxp_block__releases): a
 * releasing block (`if`/`else` arms, `for` and `loop` bodies) frees the buffers placed in
 * it at its end, and before a `break` or `continue` leaves it; other blocks (`spawn`,
 * `match` arms, `unsafe`) free nothing, so their tiles belong to the enclosing releasing
 * block or to the function, which frees its own at exit and before each `return`. Every
 * buffer variable is declared at the top of its function, so a tile placed in a
 * non-releasing block outlives the C++ scope it was placed in, as it must. */
#include <stdio.h>

#include "codegen.h"
#include "lower.h"

static void statement(cg *G, TSNode node);
static void block_contents(cg *G, TSNode block, uint32_t first, bool fn_body);

/* ------------------------------------------------------------------ buffers and blocks */

static void release(cg *G, uint32_t id, const char *why) {
  const cg_buffer *b = &G->buffers.items[id];
  if (b->tile)
    vxp_cg__line(G, "vxp_tile_release(&fr, &vxb%u, VXP_SPACE_%s, %lluull);%s%s%s", id,
                 G->spaces.items[b->space].cname, (unsigned long long)b->bytes, why ? " /* " : "",
                 why ? why : "", why ? " */" : "");
  else
    vxp_cg__line(G, "vxp_host_release(&vxb%u);", id);
}

/* Free, newest first, the buffers owned by any block at index >= `from` of the stack. */
static void release_blocks_from(cg *G, size_t from) {
  for (size_t i = G->buffers.len; i-- > 0;) {
    for (size_t k = from; k < G->blocks.len; k++) {
      if (G->buffers.items[i].owner == G->blocks.items[k].serial) {
        release(G, (uint32_t)i, NULL);
        break;
      }
    }
  }
}

static void flush_pending(cg *G) {
  for (size_t i = 0; i < G->pending.len; i++)
    release(G, G->pending.items[i], "never read: released at once");
  G->pending.len = 0;
}

static void open_block(cg *G, uint8_t kind) {
  cg_block b;
  memset(&b, 0, sizeof(b));
  b.kind = kind;
  b.releasing = kind != CG_BLOCK_ROOT && vxp_block__releases((vxp_block_kind)kind);
  b.loop = kind == VXP_BLOCK_FOR || kind == VXP_BLOCK_LOOP;
  b.serial = G->serial++;
  if (!array_push(G->ctx, &G->blocks, b)) {
    G->rc = VXP_ENOMEM;
    return;
  }
  if (b.releasing) G->depth++;
}

static void mark_conditional(cg *G) {
  if (G->blocks.len) array_last(&G->blocks)->conditional = true;
}

/* A `return`, `break` or `continue` under a condition: the tiles after it may not be
 * placed in a run (rule.c's early-exit). */
static void note_exit(cg *G) {
  if (G->in_kernel) return; /* a kernel's loops place nothing */
  for (size_t i = 0; i < G->blocks.len; i++) {
    if (G->blocks.items[i].conditional) G->fn->why |= CG_WHY_EARLY_EXIT;
  }
}

static void close_block(cg *G) {
  if (G->blocks.len == 0) return;
  cg_block *b = array_last(&G->blocks);
  if (b->releasing) {
    release_blocks_from(G, G->blocks.len - 1);
    G->depth--;
  }
  G->blocks.len--;
}

/* A releasing or non-releasing block emitted as `{ ... }` around `body`. */
static void braced_block(cg *G, uint8_t kind, TSNode body, const char *opener) {
  vxp_cg__line(G, "%s", opener);
  G->indent++;
  open_block(G, kind);
  block_contents(G, body, 0, false);
  close_block(G);
  G->indent--;
  vxp_cg__line(G, "}");
}

/* ------------------------------------------------------------------ let and assignment */

static TSNode strip_parens(cg *G, TSNode node) {
  while (vxp_cg__is(node, G->S->parenthesized_expression) && vxp_node__named_count(node) == 1)
    node = ts_node_named_child(node, 0);
  return node;
}

static void poison(cg *G, TSNode name) {
  cg_var *v = vxp_cg__bind(G, name);
  if (v) v->poisoned = true;
}

/* `let x = ..` whose declared or inferred type is placed: a tile made here (LET_TYPE). */
static bool let_tile(cg *G, TSNode node, TSNode type, TSNode value, vxp_sb *sb, cg_value *v) {
  TSNode init = strip_parens(G, value);
  bool declared_device = false;
  TSNode declared = vxp_cg__tensor_of_type(G, type, &declared_device);
  const vxp_record *recs[8];
  size_t n = vxp_cg__records_at(G, node, recs, VXP__ARRAY_LEN(recs));
  if (n > VXP__ARRAY_LEN(recs)) return vxp_cg__refuse(G, node, "a placement of more than 8 tiles");
  /* The tile's shape is the one the analysis decided for this placement. */
  const vxp_event_fact *fact = vxp_cg__place_fact(G, ts_node_start_byte(node));
  cg_tensor t;
  if (vxp_cg__is(init, G->S->tensor_constructor)) {
    TSNode ctype = vxp_cg__field(init, G->F->type);
    if (!vxp_cg__is(ctype, G->S->tensor_type))
      return vxp_cg__refuse(G, init, "a constructor of something other than `Tensor<..>`");
    if (!vxp_cg__placed_tensor_type(G, ts_node_is_null(declared) ? ctype : declared, fact, &t))
      return false;
    if (!ts_node_is_null(declared)) t.device = declared_device;
    vxp_sb ptr;
    memset(&ptr, 0, sizeof(ptr));
    bool ok = vxp_cg__place(G, node, recs, n, &t, !t.device, NULL, NULL, &ptr, v) &&
              vxp_cg__initialise(G, init, &v->t, ptr.data, sb);
    vxp_cg__sb_done(G, &ptr);
    return ok;
  }
  /* Any other initializer is copied into the new tile (`let b = a` of a placed tensor). */
  vxp_sb source;
  memset(&source, 0, sizeof(source));
  cg_value src;
  memset(&src, 0, sizeof(src));
  bool ok = vxp_cg__expr(G, value, &source, &src);
  if (ok && src.kind != CG_TENSOR)
    ok = vxp_cg__refuse(G, value, "a placed `let` whose value is not a tensor");
  if (ok) {
    t = src.t;
    if (!ts_node_is_null(declared)) {
      cg_tensor d;
      ok = vxp_cg__placed_tensor_type(G, declared, fact, &d);
      if (ok && (d.elem != t.elem || d.count != t.count))
        ok = vxp_cg__refuse(G, value, "the value's tensor type differs from the declared one");
      t.device = declared_device;
    }
  }
  if (ok) ok = vxp_cg__place(G, node, recs, n, &t, !t.device, source.data, &src.t, sb, v);
  vxp_cg__sb_done(G, &source);
  return ok;
}

static void let_statement(cg *G, TSNode node) {
  TSNode name = vxp_cg__field(node, G->F->name);
  TSNode type = vxp_cg__field(node, G->F->type);
  TSNode value = vxp_cg__field(node, G->F->value);
  if (ts_node_is_null(name)) {
    vxp_cg__refuse(G, node, "a tuple `let`");
    return;
  }
  if (ts_node_is_null(value)) {
    vxp_cg__refuse(G, node, "a `let` without an initializer");
    poison(G, name);
    return;
  }
  vxp_sb sb;
  memset(&sb, 0, sizeof(sb));
  cg_value v;
  memset(&v, 0, sizeof(v));
  bool ok;
  if (vxp_cg__model_places(G, node)) {
    ok = let_tile(G, node, type, value, &sb, &v);
  } else {
    ok = vxp_cg__expr(G, value, &sb, &v);
    if (ok && v.kind == CG_STRING) ok = vxp_cg__refuse(G, value, "a string value outside `print`");
  }
  if (!ok) {
    poison(G, name);
    vxp_cg__sb_done(G, &sb);
    return;
  }
  const char *ctype = NULL; /* `auto` */
  if (v.kind == CG_SCALAR && !ts_node_is_null(type)) {
    size_t len;
    const char *t = vxp_cg__text(G, type, &len);
    const char *ct = vxp_cg__is(type, G->S->type_identifier)
                         ? vxp_cg__scalar_ctype(vxp_cg__elem(G, t, len))
                         : NULL;
    if (!ct) {
      vxp_cg__refuse(G, type, "a scalar `let` of type '%.*s': only element types", (int)len, t);
      poison(G, name);
      vxp_cg__sb_done(G, &sb);
      return;
    }
    ctype = ct;
  }
  cg_var *var = vxp_cg__bind(G, name);
  if (var) {
    var->tensor = v.kind == CG_TENSOR;
    var->t = v.t;
    var->owner_depth = v.owner_depth;
    var->buffer = v.buffer - 1;
    /* The binding owns a host buffer the value made (a constructor, a call's result). */
    if (var->tensor && v.buffer) vxp_cg__unpend(G, (uint32_t)(v.buffer - 1));
    var->ctype = ctype;
    if (var->tensor)
      vxp_cg__line(G, "%s *%s = %s;", vxp_cg__storage_ctype((vxp_elem)v.t.elem), var->cname,
                   sb.data);
    else if (vxp_cg__narrow_ctype(ctype))
      vxp_cg__line(G, "%s %s = (%s)(float)(%s);", ctype, var->cname, ctype, sb.data);
    else
      vxp_cg__line(G, "%s %s = %s;", ctype ? ctype : "auto", var->cname, sb.data);
    /* A never-read name is legal Vx; keep C++ quiet about it. */
    vxp_cg__line(G, "(void)%s;", var->cname);
  }
  vxp_cg__sb_done(G, &sb);
}

/* `place op= value` for a narrow float: computed in float, stored as the type. */
static void narrow_store(cg *G, const char *place, const char *ctype, const char *op, size_t oplen,
                         const char *value) {
  if (oplen == 1 && op[0] == '=')
    vxp_cg__line(G, "%s = (%s)(float)(%s);", place, ctype, value);
  else
    vxp_cg__line(G, "%s = (%s)((float)%s %.*s (float)(%s));", place, ctype, place, (int)(oplen - 1),
                 op, value);
}

static void assignment(cg *G, TSNode node, bool compound) {
  TSNode left = vxp_cg__field(node, G->F->left);
  TSNode right = vxp_cg__field(node, G->F->right);
  vxp_sb lhs, rhs;
  memset(&lhs, 0, sizeof(lhs));
  memset(&rhs, 0, sizeof(rhs));
  cg_value lv, rv;
  memset(&lv, 0, sizeof(lv));
  memset(&rv, 0, sizeof(rv));
  size_t oplen = 1;
  const char *op = "=";
  if (compound) op = vxp_cg__text(G, vxp_cg__field(node, G->F->operator), &oplen);
  if (vxp_cg__is(left, G->S->identifier)) {
    size_t len;
    const char *name = vxp_cg__text(G, left, &len);
    cg_var *var = vxp_cg__lookup(G, name, len);
    if (var && var->poisoned) return;
    if (!var) {
      vxp_cg__refuse(G, left, "'%.*s' is not a local variable or parameter", (int)len, name);
      return;
    }
    if (G->in_kernel && !var->kernel_local && !var->kernel_written) {
      vxp_cg__refuse(G, node,
                     "a `spawn` region on a device writes '%.*s', a variable of the "
                     "host code around it",
                     (int)len, name);
      return;
    }
    if (!vxp_cg__expr(G, right, &rhs, &rv)) goto done;
    if (var->tensor) {
      if (compound || rv.kind != CG_TENSOR) {
        vxp_cg__refuse(G, node, "tensor '%.*s' assigned something that is not a tensor", (int)len,
                       name);
        goto done;
      }
      if (rv.t.elem != var->t.elem || rv.t.count != var->t.count || rv.t.device != var->t.device) {
        vxp_cg__refuse(G, node, "assignment changes the type or the memory of tensor '%.*s'",
                       (int)len, name);
        goto done;
      }
      if (rv.owner_depth > var->decl_depth) {
        vxp_cg__refuse(G, node,
                       "'%.*s' would outlive the tile assigned to it: the analysis "
                       "releases that tile at the end of an inner block",
                       (int)len, name);
        goto done;
      }
      var->owner_depth = rv.owner_depth > var->owner_depth ? rv.owner_depth : var->owner_depth;
      var->buffer = rv.buffer - 1;
    } else if (rv.kind != CG_SCALAR) {
      vxp_cg__refuse(G, node, "scalar '%.*s' assigned a tensor", (int)len, name);
      goto done;
    }
    if (!var->tensor && vxp_cg__narrow_ctype(var->ctype))
      narrow_store(G, var->cname, var->ctype, op, oplen, rhs.data);
    else
      vxp_cg__line(G, "%s %.*s %s;", var->cname, (int)oplen, op, rhs.data);
  } else if (vxp_cg__is(left, G->S->index_expression)) {
    G->lvalue = true;
    bool ok = vxp_cg__expr(G, left, &lhs, &lv);
    G->lvalue = false;
    if (!ok || !vxp_cg__expr(G, right, &rhs, &rv)) goto done;
    if (rv.kind != CG_SCALAR) {
      vxp_cg__refuse(G, right, "an element assigned something that is not a scalar");
      goto done;
    }
    if (vxp_cg__narrow_float((vxp_elem)lv.t.elem))
      narrow_store(G, lhs.data, vxp_cg__scalar_ctype((vxp_elem)lv.t.elem), op, oplen, rhs.data);
    else
      vxp_cg__line(G, "%s %.*s %s;", lhs.data, (int)oplen, op, rhs.data);
  } else {
    char buf[64];
    vxp_cg__refuse(G, left, "assignment to a %s is outside the CUDA code generation subset",
                   vxp_cg__construct(G, left, buf, sizeof(buf)));
  }
done:
  vxp_cg__sb_done(G, &lhs);
  vxp_cg__sb_done(G, &rhs);
}

/* ------------------------------------------------------------------ control flow */

static void if_statement(cg *G, TSNode node) {
  TSNode cond = vxp_cg__field(node, G->F->condition);
  TSNode then_block = vxp_cg__field(node, G->F->consequence);
  TSNode alternative = vxp_cg__field(node, G->F->alternative);
  TSNode else_arm =
      ts_node_is_null(alternative) ? alternative : ts_node_named_child(alternative, 0);
  if (!ts_node_is_null(vxp_cg__field(node, G->F->comptime))) {
    /* `if comptime`: the analysis keeps only the arm it decided (it prunes the other), and
     * so does the generated code: the arm is the analysis' fact, not a fold of its own. */
    const vxp_event_fact *fact = vxp_cg__block_fact(G, VXP_BLOCK_IF, ts_node_start_byte(node));
    if (!fact || fact->arm == VXP_ARM_RUNTIME) {
      vxp_cg__refuse(G, cond, "an `if comptime` whose condition does not fold to a constant");
      return;
    }
    vxp_fold f = {VXP_FOLD_OK, fact->arm == VXP_ARM_TAKEN, VXP_NONE, false};
    vxp_point at = vxp_cg__at(G, node);
    if (!f.value && ts_node_is_null(else_arm))
      vxp_cg__line(G, "/* if comptime at %u:%u: not taken, and no else arm */", at.line + 1,
                   at.column + 1);
    if (f.value)
      braced_block(G, VXP_BLOCK_IF, then_block, "{ /* if comptime: taken */");
    else if (!ts_node_is_null(else_arm)) {
      if (vxp_cg__is(else_arm, G->S->block))
        braced_block(G, VXP_BLOCK_ELSE, else_arm, "{ /* if comptime: else taken */");
      else {
        vxp_cg__line(G, "{ /* if comptime: else taken */");
        G->indent++;
        open_block(G, VXP_BLOCK_ELSE);
        statement(G, else_arm);
        close_block(G);
        G->indent--;
        vxp_cg__line(G, "}");
      }
    }
    return;
  }
  vxp_sb c;
  memset(&c, 0, sizeof(c));
  cg_value cv;
  memset(&cv, 0, sizeof(cv));
  if (!vxp_cg__expr(G, cond, &c, &cv) || cv.kind != CG_SCALAR) {
    if (vxp_cg__ok(G) && cv.kind != CG_SCALAR && cv.kind != CG_NONE)
      vxp_cg__refuse(G, cond, "an `if` condition that is not a scalar");
    vxp_cg__sb_done(G, &c);
    return;
  }
  vxp_cg__line(G, "if (%s) {", c.data);
  vxp_cg__sb_done(G, &c);
  G->indent++;
  open_block(G, VXP_BLOCK_IF);
  mark_conditional(G);
  block_contents(G, then_block, 0, false);
  close_block(G);
  G->indent--;
  if (ts_node_is_null(else_arm)) {
    vxp_cg__line(G, "}");
    return;
  }
  /* `else if` is an else arm holding an `if`, as lowering models it (two releasing blocks). */
  vxp_cg__line(G, "} else {");
  G->indent++;
  open_block(G, VXP_BLOCK_ELSE);
  mark_conditional(G);
  if (vxp_cg__is(else_arm, G->S->block))
    block_contents(G, else_arm, 0, false);
  else
    statement(G, else_arm);
  close_block(G);
  G->indent--;
  vxp_cg__line(G, "}");
}

static void for_statement(cg *G, TSNode node) {
  TSNode iterable = vxp_cg__field(node, G->F->iterable);
  TSNode start = vxp_cg__field(iterable, G->F->start), end = vxp_cg__field(iterable, G->F->end);
  if (!vxp_cg__is(iterable, G->S->range_expression) || ts_node_is_null(start) ||
      ts_node_is_null(end)) {
    size_t len;
    const char *text = vxp_cg__text(G, iterable, &len);
    vxp_cg__refuse(G, iterable, "`for` over `%.*s`: the subset iterates over ranges `a..b`",
                   (int)(len > 60 ? 60 : len), text);
    return;
  }
  vxp_sb a, b;
  memset(&a, 0, sizeof(a));
  memset(&b, 0, sizeof(b));
  cg_value av, bv;
  memset(&av, 0, sizeof(av));
  memset(&bv, 0, sizeof(bv));
  if (vxp_cg__expr(G, start, &a, &av) && vxp_cg__expr(G, end, &b, &bv)) {
    vxp_cg__push_scope(G);
    cg_var *var = vxp_cg__bind(G, vxp_cg__field(node, G->F->variable));
    if (var) {
      var->ctype = "int64_t";
      unsigned e = G->temps++;
      vxp_cg__line(G, "for (int64_t %s = %s, vxe%u = %s; %s < vxe%u; ++%s) {", var->cname, a.data,
                   e, b.data, var->cname, e, var->cname);
      G->indent++;
      open_block(G, VXP_BLOCK_FOR);
      block_contents(G, vxp_cg__field(node, G->F->body), 0, false);
      close_block(G);
      G->indent--;
      vxp_cg__line(G, "}");
    }
    vxp_cg__pop_scope(G);
  }
  vxp_cg__sb_done(G, &a);
  vxp_cg__sb_done(G, &b);
}

static void loop_statement(cg *G, TSNode node) {
  braced_block(G, VXP_BLOCK_LOOP, vxp_cg__field(node, G->F->body), "for (;;) {");
}

/* `break`/`continue`: free what the blocks being left placed, then jump. */
static void jump(cg *G, TSNode node, const char *what) {
  size_t loop = G->blocks.len;
  for (size_t i = G->blocks.len; i-- > 0;) {
    if (G->blocks.items[i].loop) {
      loop = i;
      break;
    }
    if (G->in_kernel && G->blocks.items[i].kind == VXP_BLOCK_SPAWN) break;
  }
  if (loop == G->blocks.len) {
    vxp_cg__refuse(G, node, "`%s` outside a loop%s", what, G->in_kernel ? " of the kernel" : "");
    return;
  }
  note_exit(G);
  release_blocks_from(G, loop);
  vxp_cg__line(G, "%s;", what);
}

static void return_value(cg *G, TSNode value, TSNode at) {
  if (G->in_kernel) {
    vxp_cg__refuse(G, at, "`return` inside a `spawn` region's kernel");
    return;
  }
  vxp_sb sb;
  memset(&sb, 0, sizeof(sb));
  cg_value v;
  memset(&v, 0, sizeof(v));
  if (ts_node_is_null(value)) {
    vxp_cg__refuse(G, at, "`return` without a value");
    return;
  }
  if (!vxp_cg__expr(G, value, &sb, &v)) {
    vxp_cg__sb_done(G, &sb);
    return;
  }
  if (G->fn->returns_tensor) {
    const cg_tensor *want = G->fn->return_t;
    if (v.kind != CG_TENSOR || v.buffer == 0 || v.t.elem != want->elem ||
        v.t.count != want->count) {
      vxp_cg__refuse(G, value,
                     "a function returning a tensor returns one it made on the host "
                     "(a constructor, or a call's result), of its declared type");
      vxp_cg__sb_done(G, &sb);
      return;
    }
  } else if (v.kind != CG_SCALAR) {
    vxp_cg__refuse(G, value, "returning something that is not a scalar");
    vxp_cg__sb_done(G, &sb);
    return;
  }
  note_exit(G);
  /* The value first (it may read a buffer), then every buffer of the function; a returned
   * host buffer is handed to the caller instead of freed. */
  vxp_cg__line(G, "{");
  G->indent++;
  if (G->fn->returns_tensor) {
    vxp_cg__line(G, "%s *vxr = %s;", G->fn->return_ctype, sb.data);
    vxp_cg__line(G, "vxb%d = NULL; /* the caller's now */", v.buffer - 1);
    vxp_cg__unpend(G, (uint32_t)(v.buffer - 1));
  } else if (vxp_cg__narrow_ctype(G->fn->return_ctype)) {
    vxp_cg__line(G, "%s vxr = (%s)(float)(%s);", G->fn->return_ctype, G->fn->return_ctype, sb.data);
  } else {
    vxp_cg__line(G, "%s vxr = (%s)(%s);", G->fn->return_ctype, G->fn->return_ctype, sb.data);
  }
  release_blocks_from(G, 0);
  vxp_cg__line(G, "vxp_leave(&fr);");
  vxp_cg__line(G, "return vxr;");
  G->indent--;
  vxp_cg__line(G, "}");
  vxp_cg__sb_done(G, &sb);
}

/* `match v { lit => .., x => .., _ => .. }` as an if/else chain; arms do not release. */
static void match_statement(cg *G, TSNode node) {
  TSNode value = vxp_cg__field(node, G->F->value);
  TSNode body = vxp_cg__field(node, G->F->body);
  vxp_sb sb;
  memset(&sb, 0, sizeof(sb));
  cg_value v;
  memset(&v, 0, sizeof(v));
  if (!vxp_cg__expr(G, value, &sb, &v)) {
    vxp_cg__sb_done(G, &sb);
    return;
  }
  if (v.kind != CG_SCALAR) {
    vxp_cg__refuse(G, value, "`match` on something that is not a scalar");
    vxp_cg__sb_done(G, &sb);
    return;
  }
  unsigned m = G->temps++;
  vxp_cg__line(G, "{");
  G->indent++;
  vxp_cg__line(G, "const auto vxm%u = %s;", m, sb.data);
  vxp_cg__sb_done(G, &sb);
  bool caught_all = false;
  unsigned arms = 0;
  uint32_t count = vxp_node__named_count(body);
  for (uint32_t i = 0; i < count && vxp_cg__ok(G); i++) {
    TSNode arm = ts_node_named_child(body, i);
    if (!vxp_cg__is(arm, G->S->match_arm)) continue;
    TSNode pattern = vxp_cg__field(arm, G->X.pattern);
    TSNode arm_value = vxp_cg__field(arm, G->F->value);
    if (caught_all) {
      vxp_cg__refuse(G, arm, "a `match` arm after a catch-all arm never runs");
      break;
    }
    const char *lead = arms ? "} else " : "";
    vxp_cg__push_scope(G);
    if (vxp_cg__is(pattern, G->X.literal_pattern)) {
      vxp_sb lit;
      memset(&lit, 0, sizeof(lit));
      cg_value lv;
      memset(&lv, 0, sizeof(lv));
      TSNode inner = ts_node_named_child(pattern, 0);
      bool negative = ts_node_child_count(pattern) == 2;
      if (!vxp_cg__expr(G, inner, &lit, &lv) || lv.kind != CG_SCALAR) {
        if (vxp_cg__ok(G) && lv.kind == CG_STRING)
          vxp_cg__refuse(G, pattern, "a string pattern is outside the CUDA code generation subset");
        vxp_cg__sb_done(G, &lit);
        vxp_cg__pop_scope(G);
        break;
      }
      vxp_cg__line(G, "%sif (vxm%u == %s%s) {", lead, m, negative ? "-" : "", lit.data);
      vxp_cg__sb_done(G, &lit);
    } else if (vxp_cg__is(pattern, G->X.wildcard_pattern)) {
      vxp_cg__line(G, "%s{", arms ? "} else " : "if (true) ");
      caught_all = true;
    } else if (vxp_cg__is(pattern, G->S->identifier)) {
      vxp_cg__line(G, "%s{", arms ? "} else " : "if (true) ");
      cg_var *var = vxp_cg__bind(G, pattern);
      if (var) {
        G->indent++;
        vxp_cg__line(G, "auto %s = vxm%u;", var->cname, m);
        vxp_cg__line(G, "(void)%s;", var->cname);
        G->indent--;
      }
      caught_all = true;
    } else {
      char buf[64];
      vxp_cg__refuse(G, pattern, "a %s is outside the CUDA code generation subset",
                     vxp_cg__construct(G, pattern, buf, sizeof(buf)));
      vxp_cg__pop_scope(G);
      break;
    }
    arms++;
    G->indent++;
    open_block(G, VXP_BLOCK_MATCH_ARM);
    mark_conditional(G);
    if (vxp_cg__is(arm_value, G->S->block))
      block_contents(G, arm_value, 0, false);
    else if (!ts_node_is_null(arm_value))
      statement(G, arm_value);
    close_block(G);
    G->indent--;
    vxp_cg__pop_scope(G);
  }
  if (arms) vxp_cg__line(G, "}");
  G->indent--;
  vxp_cg__line(G, "}");
}

/* ------------------------------------------------------------------ spawn regions */

/* A kernel parameter: the index of a host variable in G->vars (not a pointer: binding
 * the kernel's own variables may move the array). */
typedef struct capture {
  size_t var;
  bool written; /* a host scalar the region assigns: passed through a device cell */
} capture;

typedef Array(capture) capture_list;

/* The variables of the host code that `node` reads (a kernel's parameters), in order. */
static void collect_captures(cg *G, TSNode node, capture_list *out, unsigned depth) {
  if (ts_node_is_null(node) || depth > VXP_MAX_NESTING || !vxp_cg__ok(G)) return;
  if (vxp_cg__is(node, G->S->identifier)) {
    size_t len;
    const char *name = vxp_cg__text(G, node, &len);
    cg_var *var = vxp_cg__lookup(G, name, len);
    if (!var || var->poisoned) return;
    size_t index = (size_t)(var - G->vars.items);
    for (size_t i = 0; i < out->len; i++) {
      if (out->items[i].var == index) return;
    }
    capture c = {index, false};
    if (!array_push(G->ctx, out, c)) G->rc = VXP_ENOMEM;
    return;
  }
  uint32_t n = vxp_node__named_count(node);
  for (uint32_t i = 0; i < n; i++)
    collect_captures(G, ts_node_named_child(node, i), out, depth + 1);
}

/* Mark the captured scalars that `node` assigns (`x = ..`, `x += ..`). */
static void mark_written(cg *G, TSNode node, capture_list *caps, unsigned depth) {
  if (ts_node_is_null(node) || depth > VXP_MAX_NESTING) return;
  if (vxp_cg__is(node, G->S->assignment_statement) ||
      vxp_cg__is(node, G->S->compound_assignment_statement)) {
    TSNode left = vxp_cg__field(node, G->F->left);
    size_t len;
    const char *name = vxp_cg__text(G, left, &len);
    for (size_t i = 0; vxp_cg__is(left, G->S->identifier) && i < caps->len; i++) {
      const cg_var *v = &G->vars.items[caps->items[i].var];
      if (!v->tensor && v->name_len == len && memcmp(v->name, name, len) == 0)
        caps->items[i].written = true;
    }
  }
  uint32_t n = vxp_node__named_count(node);
  for (uint32_t i = 0; i < n; i++)
    mark_written(G, ts_node_named_child(node, i), caps, depth + 1);
}

/* A leading `let` of a region that places a tile: made by the host before the launch. */
static bool host_prefix(cg *G, TSNode stmt) {
  if (!vxp_cg__is(stmt, G->S->let_declaration)) return false;
  if (vxp_cg__model_places(G, stmt)) return true;
  TSNode value = strip_parens(G, vxp_cg__field(stmt, G->F->value));
  return vxp_cg__is(value, G->S->transfer_expression) ||
         vxp_cg__is(value, G->S->tensor_constructor);
}

static bool is_comment(cg *G, TSNode n) {
  return vxp_cg__is(n, G->S->line_comment) || vxp_cg__is(n, G->S->doc_comment);
}

static void spawn_statement(cg *G, TSNode node) {
  TSNode topo = vxp_cg__field(node, G->F->topology);
  TSNode body = vxp_cg__field(node, G->F->body);
  vxp_point at = vxp_cg__at(G, node);
  unsigned line = at.line + 1, column = at.column + 1;
  size_t tlen;
  const char *ttext = vxp_cg__text(G, topo, &tlen);
  if (G->in_kernel) {
    vxp_cg__refuse(G, node, "a `spawn` region inside another region's kernel");
    return;
  }
  if (vxp_cg__place_is_host(G, topo)) {
    vxp_sb opener = {0}; /* the topology's text cut at 100 bytes on purpose: it is a comment */
    vxp_sb__printf(G->ctx, &opener, "{ /* spawn on(%.*s) at %u:%u: a host region, run inline */",
                   (int)(tlen > 100 ? 100 : tlen), ttext, line, column);
    if (opener.failed) G->rc = VXP_ENOMEM;
    braced_block(G, VXP_BLOCK_SPAWN, body, vxp_sb__text(&opener));
    vxp_sb__free(G->ctx, &opener);
    return;
  }
  unsigned k = G->kernel_count++;
  vxp_sb kname_sb = {0}; /* whole, however long the function's name */
  vxp_sb__printf(G->ctx, &kname_sb, "vxk_%s_%u", G->fn->cname + 3, k);
  if (kname_sb.failed) G->rc = VXP_ENOMEM;
  const char *kname = vxp_sb__text(&kname_sb);
  vxp_cg__line(G, "{ /* spawn on(%.*s) at %u:%u: kernel %s */", (int)(tlen > 100 ? 100 : tlen),
               ttext, line, column, kname);
  G->indent++;
  open_block(G, VXP_BLOCK_SPAWN);
  vxp_cg__push_scope(G);
  /* Tiles the region places come first and are made by the host (the region does not
   * release them: they belong to the enclosing block). */
  uint32_t count = vxp_node__named_count(body), first = 0;
  TSNode trailing = vxp_cg__field(body, G->F->value);
  for (; first < count; first++) {
    TSNode s = ts_node_named_child(body, first);
    if (is_comment(G, s)) continue;
    if (!ts_node_is_null(trailing) && ts_node_eq(s, trailing)) break;
    if (!host_prefix(G, s)) break;
    statement(G, s);
  }
  capture_list caps;
  memset(&caps, 0, sizeof(caps));
  for (uint32_t i = first; i < count; i++)
    collect_captures(G, ts_node_named_child(body, i), &caps, 0);
  for (uint32_t i = first; i < count; i++)
    mark_written(G, ts_node_named_child(body, i), &caps, 0);
  /* The kernel: tensors by pointer, scalars by value (templated when their type is `auto`). */
  vxp_sb *host_out = G->out;
  unsigned host_indent = G->indent;
  vxp_sb kernel;
  memset(&kernel, 0, sizeof(kernel));
  unsigned templated = 0;
  for (size_t i = 0; i < caps.len; i++) {
    const cg_var *v = &G->vars.items[caps.items[i].var];
    if (!v->tensor && !v->ctype) templated++;
  }
  vxp_sb__printf(G->ctx, &G->kernels, "/* spawn on(%.*s) at %u:%u in %s */\n",
                 (int)(tlen > 100 ? 100 : tlen), ttext, line, column, G->fn->name);
  if (templated) {
    vxp_sb__append(G->ctx, &G->kernels, "template <", 10);
    unsigned t = 0;
    for (size_t i = 0; i < caps.len; i++) {
      const cg_var *v = &G->vars.items[caps.items[i].var];
      if (!v->tensor && !v->ctype)
        vxp_sb__printf(G->ctx, &G->kernels, "%stypename T_%s", t++ ? ", " : "", v->cname);
    }
    vxp_sb__append(G->ctx, &G->kernels, ">\n", 2);
  }
  vxp_sb__printf(G->ctx, &G->kernels, "__global__ void %s(", kname);
  for (size_t i = 0; i < caps.len; i++) {
    const cg_var *v = &G->vars.items[caps.items[i].var];
    if (i) vxp_sb__append(G->ctx, &G->kernels, ", ", 2);
    const char *star = caps.items[i].written ? " *vxw_" : " ";
    if (v->tensor)
      vxp_sb__printf(G->ctx, &G->kernels, "%s *%s", vxp_cg__storage_ctype((vxp_elem)v->t.elem),
                     v->cname);
    else if (v->ctype)
      vxp_sb__printf(G->ctx, &G->kernels, "%s%s%s", v->ctype, star, v->cname);
    else
      vxp_sb__printf(G->ctx, &G->kernels, "T_%s%s%s", v->cname, star, v->cname);
  }
  vxp_sb__append(G->ctx, &G->kernels, ") {\n", 4);
  G->out = &kernel;
  G->indent = 1;
  /* A written host scalar is its device cell under its own name. */
  for (size_t i = 0; i < caps.len; i++) {
    cg_var *v = &G->vars.items[caps.items[i].var];
    if (!caps.items[i].written) continue;
    v->kernel_written = true;
    if (v->ctype)
      vxp_cg__line(G, "%s &%s = *vxw_%s;", v->ctype, v->cname, v->cname);
    else
      vxp_cg__line(G, "T_%s &%s = *vxw_%s;", v->cname, v->cname, v->cname);
  }
  G->in_kernel = true;
  block_contents(G, body, first, false);
  G->in_kernel = false;
  for (size_t i = 0; i < caps.len; i++)
    G->vars.items[caps.items[i].var].kernel_written = false;
  G->out = host_out;
  G->indent = host_indent;
  vxp_sb__append(G->ctx, &G->kernels, kernel.data ? kernel.data : "", kernel.len);
  vxp_sb__append(G->ctx, &G->kernels, "}\n\n", 3);
  if (kernel.failed) G->rc = VXP_ENOMEM;
  vxp_cg__sb_done(G, &kernel);
  vxp_sb args;
  memset(&args, 0, sizeof(args));
  for (size_t i = 0; i < caps.len; i++) {
    const char *cname = G->vars.items[caps.items[i].var].cname;
    vxp_sb__printf(G->ctx, &args, "%s%s%s", i ? ", " : "", caps.items[i].written ? "vxw_" : "",
                   cname);
    /* Kernels cannot write host memory: a written scalar travels in a device cell (not a
     * tile: the analysis counts registers nowhere, and neither does the allocator). */
    if (caps.items[i].written) vxp_cg__line(G, "auto *vxw_%s = vxp_scalar_in(&%s);", cname, cname);
  }
  vxp_cg__line(G, "VXP_LAUNCH(%s, (%s));", kname, args.data ? args.data : "");
  vxp_cg__line(G, "vxp_launched();");
  for (size_t i = 0; i < caps.len; i++) {
    const char *cname = G->vars.items[caps.items[i].var].cname;
    if (caps.items[i].written) vxp_cg__line(G, "vxp_scalar_out(&%s, vxw_%s);", cname, cname);
  }
  vxp_cg__sb_done(G, &args);
  array_free(G->ctx, &caps);
  vxp_cg__pop_scope(G);
  close_block(G);
  G->indent--;
  vxp_cg__line(G, "}");
  vxp_sb__free(G->ctx, &kname_sb);
}

/* ------------------------------------------------------------------ statements */

/* An expression in statement position: blocks, calls, or a value whose result is unused. */
static void expression_statement(cg *G, TSNode node) {
  const vxp_symbols *S = G->S;
  if (vxp_cg__is(node, S->if_expression)) return if_statement(G, node);
  if (vxp_cg__is(node, S->match_expression)) return match_statement(G, node);
  if (vxp_cg__is(node, S->spawn_expression)) return spawn_statement(G, node);
  if (vxp_cg__is(node, S->unsafe_block)) {
    braced_block(G, VXP_BLOCK_UNSAFE, vxp_cg__field(node, G->F->body), "{ /* unsafe */");
    return;
  }
  vxp_sb sb;
  memset(&sb, 0, sizeof(sb));
  cg_value v;
  memset(&v, 0, sizeof(v));
  if (vxp_cg__expr(G, node, &sb, &v))
    vxp_cg__line(G, vxp_cg__is(node, G->S->call_expression) ? "%s;" : "(void)(%s);", sb.data);
  vxp_cg__sb_done(G, &sb);
}

static void assert_statement(cg *G, TSNode node) {
  if (G->in_kernel) {
    vxp_cg__refuse(G, node, "`assert` inside a `spawn` region's kernel");
    return;
  }
  vxp_sb sb;
  memset(&sb, 0, sizeof(sb));
  cg_value v;
  memset(&v, 0, sizeof(v));
  if (vxp_cg__expr(G, vxp_cg__field(node, G->F->condition), &sb, &v)) {
    vxp_point at = vxp_cg__at(G, node);
    vxp_cg__line(G, "if (!(%s)) {", sb.data);
    vxp_cg__line(G, "  fprintf(stderr, \"assertion failed at %u:%u\\n\");", at.line + 1,
                 at.column + 1);
    vxp_cg__line(G, "  exit(6);");
    vxp_cg__line(G, "}");
  }
  vxp_cg__sb_done(G, &sb);
}

static void statement_inner(cg *G, TSNode node) {
  const vxp_symbols *S = G->S;
  TSSymbol sym = ts_node_symbol(node);
  if (sym == S->let_declaration)
    let_statement(G, node);
  else if (sym == S->assignment_statement)
    assignment(G, node, false);
  else if (sym == S->compound_assignment_statement)
    assignment(G, node, true);
  else if (sym == S->for_statement)
    for_statement(G, node);
  else if (sym == S->loop_statement)
    loop_statement(G, node);
  else if (sym == S->return_statement)
    return_value(G, ts_node_named_child(node, 0), node);
  else if (sym == S->expression_statement) {
    TSNode inner = ts_node_named_child(node, 0);
    if (!ts_node_is_null(inner)) expression_statement(G, inner);
  } else if (sym == S->block)
    braced_block(G, VXP_BLOCK_UNSAFE, node, "{");
  else if (sym == G->X.break_statement)
    jump(G, node, "break");
  else if (sym == G->X.continue_statement)
    jump(G, node, "continue");
  else if (sym == G->X.assert_statement)
    assert_statement(G, node);
  else if (sym == G->X.empty_statement)
    return;
  else if (sym == S->comptime_block)
    vxp_cg__refuse(G, node,
                   "a `comptime` block runs while compiling: it is outside the CUDA "
                   "code generation subset");
  else
    expression_statement(G, node);
}

static void statement(cg *G, TSNode node) {
  if (!vxp_cg__ok(G) || ts_node_is_null(node) || is_comment(G, node)) return;
  if (ts_node_is_missing(node) || vxp_node__is_error(node)) {
    vxp_cg__refuse(G, node, "an incomplete statement");
    return;
  }
  if (G->nesting >= VXP_MAX_NESTING) {
    vxp_cg__refuse(G, node, "statements nested more than %d levels deep", VXP_MAX_NESTING);
    return;
  }
  G->nesting++;
  statement_inner(G, node);
  G->nesting--;
  flush_pending(G);
}

/* The statements of `block` from its `first` named child; the trailing value of a
 * function body is its return value. */
static void block_contents(cg *G, TSNode block, uint32_t first, bool fn_body) {
  vxp_cg__push_scope(G);
  TSNode trailing = vxp_cg__field(block, G->F->value);
  uint32_t count = vxp_node__named_count(block);
  for (uint32_t i = first; i < count && vxp_cg__ok(G); i++) {
    TSNode child = ts_node_named_child(block, i);
    if (is_comment(G, child)) continue;
    if (!ts_node_is_null(trailing) && ts_node_eq(child, trailing)) {
      bool block_like =
          vxp_cg__is(child, G->S->if_expression) || vxp_cg__is(child, G->S->match_expression) ||
          vxp_cg__is(child, G->S->unsafe_block) || vxp_cg__is(child, G->S->spawn_expression);
      if (fn_body && !block_like && (G->fn->returns_scalar || G->fn->returns_tensor)) {
        return_value(G, child, child);
        flush_pending(G);
      } else {
        if (G->nesting < VXP_MAX_NESTING) {
          G->nesting++;
          expression_statement(G, child);
          G->nesting--;
        }
        flush_pending(G);
      }
    } else {
      statement(G, child);
    }
  }
  vxp_cg__pop_scope(G);
}

/* ------------------------------------------------------------------ functions */

static bool parameter(cg *G, TSNode p, vxp_sb *sig) {
  TSNode name = vxp_cg__field(p, G->F->name);
  TSNode type = vxp_cg__field(p, G->F->type);
  bool device = false;
  TSNode tensor = vxp_cg__tensor_of_type(G, type, &device);
  cg_var *var = NULL;
  if (!ts_node_is_null(tensor)) {
    cg_tensor t;
    if (!vxp_cg__tensor_type(G, tensor, &t)) {
      poison(G, name);
      return false;
    }
    t.device = device;
    var = vxp_cg__bind(G, name);
    if (!var) return false;
    var->tensor = true;
    var->t = t;
    vxp_sb__printf(G->ctx, sig, "%s *%s", vxp_cg__storage_ctype((vxp_elem)t.elem), var->cname);
    return true;
  }
  size_t len;
  const char *text = vxp_cg__text(G, type, &len);
  const char *ct = vxp_cg__is(type, G->S->type_identifier)
                       ? vxp_cg__scalar_ctype(vxp_cg__elem(G, text, len))
                       : NULL;
  if (!ct) {
    poison(G, name);
    return vxp_cg__refuse(G, type,
                          "a parameter of type '%.*s': the subset passes tensors and "
                          "element-typed scalars",
                          (int)len, text);
  }
  var = vxp_cg__bind(G, name);
  if (!var) return false;
  var->ctype = ct;
  vxp_sb__printf(G->ctx, sig, "%s %s", ct, var->cname);
  return true;
}

static void reset_function(cg *G, cg_fn *fn) {
  for (size_t i = 0; i < G->used_names.len; i++)
    vxp_ctx__free(G->ctx, G->used_names.items[i]);
  G->used_names.len = 0;
  vxp_cg__names_clear(G);
  G->buffers.len = G->pending.len = G->blocks.len = G->vars.len = G->scopes.len = 0;
  vxp_scope_index__truncate(&G->lookup.vars, 0);
  G->serial = G->depth = 0;
  G->temps = 0;
  G->indent = 1;
  G->in_kernel = false;
  G->nesting = 0;
  vxp_cg__use_fn(G, fn);
  vxp_sb__free(G->ctx, &G->body);
  G->out = &G->body;
}

/* The signature `static int32_t vx_f(float *v_w, int32_t v_n)` into `sig`. */
static void signature(cg *G, cg_fn *fn, vxp_sb *sig) {
  TSNode params = vxp_cg__field(fn->node, G->F->parameters);
  /* maybe_unused: a function main never calls is still generated (and analysed). */
  vxp_sb__printf(G->ctx, sig, "[[maybe_unused]] static %s%s%s(", fn->return_ctype,
                 fn->returns_tensor ? " *" : " ", fn->cname);
  uint32_t n = vxp_node__named_count(params);
  unsigned k = 0;
  for (uint32_t i = 0; i < n; i++) {
    TSNode p = ts_node_named_child(params, i);
    if (!vxp_cg__is(p, G->S->parameter)) continue;
    if (k++) vxp_sb__append(G->ctx, sig, ", ", 2);
    parameter(G, p, sig);
  }
  if (k == 0) vxp_sb__append(G->ctx, sig, "void", 4);
  vxp_sb__append(G->ctx, sig, ")", 1);
}

void vxp_cg__function(cg *G, cg_fn *fn) {
  reset_function(G, fn);
  open_block(G, CG_BLOCK_ROOT);
  vxp_cg__push_scope(G);
  vxp_sb sig;
  memset(&sig, 0, sizeof(sig));
  signature(G, fn, &sig);
  /* A parameter the body never reads is legal Vx (a loader's `layer`). */
  vxp_sb unused;
  memset(&unused, 0, sizeof(unused));
  for (size_t i = 0; i < G->vars.len; i++)
    vxp_sb__printf(G->ctx, &unused, "  (void)%s;\n", G->vars.items[i].cname);
  block_contents(G, vxp_cg__field(fn->node, G->F->body), 0, true);
  /* Falling off the end: the function's own tiles are freed at its exit. */
  release_blocks_from(G, 0);
  vxp_cg__line(G, "vxp_leave(&fr);");
  if (fn->returns_tensor)
    vxp_cg__line(G, "return nullptr;");
  else
    vxp_cg__line(G, "return %s();", fn->return_ctype);
  vxp_cg__pop_scope(G);
  close_block(G);
  vxp_sb *d = &G->defs;
  vxp_sb__printf(G->ctx, d, "%s {\n  vxp_frame fr;\n  vxp_enter(&fr, VXP_FN_%s);\n", sig.data,
                 fn->cname + 3);
  for (size_t i = 0; i < G->buffers.len; i++) {
    const cg_buffer *b = &G->buffers.items[i];
    if (b->tile)
      vxp_sb__printf(G->ctx, d, "  void *vxb%zu = NULL; /* tile: %llu bytes in %s */\n", i,
                     (unsigned long long)b->bytes, G->spaces.items[b->space].name);
    else
      vxp_sb__printf(G->ctx, d, "  void *vxb%zu = NULL; /* host buffer: %llu bytes */\n", i,
                     (unsigned long long)b->bytes);
  }
  vxp_sb__append(G->ctx, d, unused.data ? unused.data : "", unused.len);
  vxp_cg__sb_done(G, &unused);
  vxp_sb__append(G->ctx, d, G->body.data ? G->body.data : "", G->body.len);
  vxp_sb__append(G->ctx, d, "}\n\n", 3);
  if (sig.failed || G->body.failed || d->failed) G->rc = VXP_ENOMEM;
  /* Kept for the prototypes, which precede every definition (the same text when the
   * definitions are generated a second time). */
  vxp_ctx__free(G->ctx, fn->signature);
  fn->signature = vxp_cg__sb_take(G, &sig);
  if (!fn->signature) G->rc = VXP_ENOMEM;
}
