/* SPDX-License-Identifier: Apache-2.0 */
/* modelgen.c - the Vx program of a model configuration (vxp_model_generate): its header
 * works every figure out by hand from the plan (modelcfg.c), and its tiles are the
 * architecture's tensors with their exact shapes, so that the analysis, which knows nothing
 * of models, must reach the same bytes. Indices are loop variables only (no arithmetic in
 * them), so that the roofline counts the model's operations and nothing else. */
#include <stdio.h>

#include "modelcfg.h"
#include "strbuf.h"

/* A number with thousands separators, as the reports print them; a struct so that several
 * can be arguments of one printf. */
typedef struct numtxt {
  char s[32];
} numtxt;

static numtxt N(uint64_t v) {
  char digits[24];
  numtxt out;
  int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
  size_t o = 0;
  for (int i = 0; i < n; i++) {
    if (i > 0 && (n - i) % 3 == 0) out.s[o++] = ',';
    out.s[o++] = digits[i];
  }
  out.s[o] = '\0';
  return out;
}

typedef struct gen {
  vxp_context *ctx;
  vxp_sb sb;
  const vxp_model_plan *p;
} gen;

static void put(gen *g, const char *fmt, ...) VXP__PRINTF(2, 3);
static void put(gen *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vxp_sb__vprintf(g->ctx, &g->sb, fmt, ap);
  va_end(ap);
}

/* The bytes of the tiles the plan places, by role (the header's sums and the tests'). */
typedef struct model_bytes {
  uint64_t weights, embeddings, kv, gradients, optimizer, activations;
} model_bytes;

static const char *kv_tokens_name(const vxp_model_plan *p) {
  return p->window ? "KV_TOKENS" : "CONTEXT";
}

/* ------------------------------------------------------------------ constants */

/* `const NAME : i64 = VALUE;` with the comments aligned, as the hand-written examples are. */
static void put_const(gen *g, const char *name, uint64_t value, const char *why, const char *more) {
  char head[64];
  snprintf(head, sizeof(head), "const %s : i64 = %llu;", name, (unsigned long long)value);
  put(g, "%-30s // %s%s\n", head, why, more ? more : "");
}

static void put_constants(gen *g) {
  const vxp_model_plan *p = g->p;
  put_const(g, "LAYERS", p->layers, "num_hidden_layers", NULL);
  put_const(g, "HIDDEN", p->hidden, "hidden_size", NULL);
  put_const(g, "FFN", p->ffn, "intermediate_size", p->moe ? " (each expert's)" : NULL);
  put_const(g, "HEADS", p->heads, "num_attention_heads", NULL);
  put_const(g, "KV_HEADS", p->kv_heads, "num_key_value_heads",
            p->kv_heads == p->heads ? " (as num_attention_heads)" : NULL);
  put_const(g, "HEAD_DIM", p->head_dim,
            p->head_dim_given ? "head_dim" : "hidden_size / num_attention_heads", NULL);
  put_const(g, "VOCAB", p->vocab, "vocab_size", NULL);
  put(g, "const QKV : i64 = (HEADS + 2 * KV_HEADS) * HEAD_DIM;  // q, k and v outputs\n");
  if (p->moe) {
    put_const(g, "EXPERTS", p->experts, "num_local_experts", NULL);
    put_const(g, "ACTIVE", p->active, "num_experts_per_tok", NULL);
  }
  if (p->window) put_const(g, "WINDOW", p->window, "sliding_window", NULL);
  put_const(g, "CONTEXT", p->context, "tokens per sequence (--context)", NULL);
  put_const(g, "BATCH", p->batch, "sequences (--batch)", NULL);
  if (p->window) {
    /* min(CONTEXT, WINDOW) in the arithmetic const items fold: Q is 0 while CONTEXT <=
     * WINDOW and at least 1 above, so 1 / (Q + 1) is 1 or 0, and -D CONTEXT moves it. */
    put(g, "// The cache keeps min(CONTEXT, WINDOW) tokens. Vx has no min, so: Q = CONTEXT / "
           "(WINDOW + 1)\n"
           "// is 0 while CONTEXT <= WINDOW and at least 1 above; 1 / (Q + 1) is then 1 or 0.\n"
           "const KV_TOKENS : i64 = CONTEXT * (1 / (CONTEXT / (WINDOW + 1) + 1))\n"
           "    + WINDOW * (1 - 1 / (CONTEXT / (WINDOW + 1) + 1));\n");
  }
  if (p->workload == VXP_WORKLOAD_TRAIN) {
    put(g, "// Every parameter (the layer weights and embeddings below, tile for tile).\n");
    put(g,
        "const PARAMS : i64 = LAYERS * (HIDDEN * QKV%s + HEADS * HEAD_DIM * HIDDEN\n"
        "    + %s + 2 * HIDDEN) + %sVOCAB * HIDDEN + HIDDEN;\n",
        p->biases ? " + QKV" : "",
        p->moe ? "EXPERTS * 3 * HIDDEN * FFN + HIDDEN * EXPERTS" : "3 * HIDDEN * FFN",
        p->tied ? "" : "2 * ");
    put(g, "// What a layer keeps per token for the backward pass (see the header).\n");
    put(g, "const SAVED : i64 = 4 * HIDDEN + (2 * HEADS + 2 * KV_HEADS) * HEAD_DIM + 3 * FFN%s;\n",
        p->moe ? " * ACTIVE + EXPERTS" : "");
  }
}

/* ------------------------------------------------------------------ resident tiles */

/* One placement, its comment on the line above, its line broken before the space when it
 * would pass 100 columns (the examples' width). */
static void put_tile(gen *g, const char *name, const char *dtype, const char *shape,
                     const char *init, const char *comment) {
  if (comment) put(g, "  // %s\n", comment);
  char line[256];
  int n = snprintf(line, sizeof(line), "  let %s = transfer(Tensor<%s, [%s]>::%s(),", name, dtype,
                   shape, init);
  if (n > 0 && n + (int)sizeof(" Memory::HBM);") - 1 <= 100)
    put(g, "%s Memory::HBM);\n", line);
  else
    put(g, "%s\n      Memory::HBM);\n", line);
}

/* The weight tiles: their names, shapes and what they hold. */
static const struct {
  const char *name, *shape, *comment;
  int rank;
} tiles[VXP__GROUP_COUNT] = {
    [VXP__GROUP_QKV] = {"attn_qkv", "LAYERS, HIDDEN, QKV", "q_proj, k_proj, v_proj", 3},
    [VXP__GROUP_BIAS] = {"qkv_bias", "LAYERS, QKV", "their biases", 2},
    [VXP__GROUP_O] = {"attn_o", "LAYERS, HEADS * HEAD_DIM, HIDDEN", "o_proj", 3},
    [VXP__GROUP_ROUTER] = {"router", "LAYERS, HIDDEN, EXPERTS", "block_sparse_moe.gate", 3},
    [VXP__GROUP_MLP] = {"mlp", "LAYERS, HIDDEN, 3 * FFN", "gate_proj, up_proj, down_proj", 3},
    [VXP__GROUP_NORMS] = {"norms", "2 * LAYERS + 1, HIDDEN", "2 RMSNorms a layer, model.norm", 2},
    [VXP__GROUP_EMBED] = {"embed", "VOCAB, HIDDEN", "embed_tokens", 2},
    [VXP__GROUP_HEAD] = {"lm_head", "VOCAB, HIDDEN", NULL, 2},
};

static const char *tile_name(const vxp_model_plan *p, int group) {
  return group == VXP__GROUP_MLP && p->moe ? "experts" : tiles[group].name;
}

/* `TILE[0][0]...`: one element of a weight tile (a raw tile is one-dimensional). */
static void put_element(gen *g, int group, const char *first) {
  const vxp_model_group *t = &g->p->groups[group];
  put(g, "%s[%s]", tile_name(g->p, group), first);
  for (int r = 1; !t->raw && r < (group == VXP__GROUP_MLP && g->p->moe ? 4 : tiles[group].rank);
       r++)
    put(g, "[0]");
}

static void put_weight_tile(gen *g, int group) {
  const vxp_model_plan *p = g->p;
  const vxp_model_group *t = &p->groups[group];
  if (!t->present) return;
  const char *shape =
      group == VXP__GROUP_MLP && p->moe ? "LAYERS, EXPERTS, HIDDEN, 3 * FFN" : tiles[group].shape;
  const char *what = group == VXP__GROUP_MLP && p->moe ? "w1, w3, w2"
                     : group == VXP__GROUP_EMBED && p->tied
                         ? "embed_tokens, also lm_head (tie_word_embeddings)"
                         : tiles[group].comment;
  if (!t->raw) {
    put_tile(g, tile_name(p, group), t->dtype, shape, "uninit", what);
    return;
  }
  /* Quantized or mixed: the checkpoint's bytes, whatever their layout. */
  char bytes[32], comment[160];
  snprintf(bytes, sizeof(bytes), "%llu", (unsigned long long)t->ckpt_bytes);
  snprintf(comment, sizeof(comment), "%s: %zu tensors of the checkpoint, %s; their bytes",
           what ? what : "lm_head", t->ckpt_tensors,
           t->mixed        ? "mixed dtypes"
           : t->ckpt_dtype ? t->ckpt_dtype
                           : "?");
  put_tile(g, tile_name(p, group), "u8", bytes, "uninit", comment);
}

static void put_weights(gen *g) {
  put(g, "  // role: layer weights\n");
  for (int group = VXP__GROUP_QKV; group <= VXP__GROUP_NORMS; group++)
    put_weight_tile(g, group);
  put(g, "\n  // role: embeddings\n");
  put_weight_tile(g, VXP__GROUP_EMBED);
  put_weight_tile(g, VXP__GROUP_HEAD);
}

static void put_kv(gen *g) {
  const vxp_model_plan *p = g->p;
  char shape[96];
  snprintf(shape, sizeof(shape), "BATCH, 2 * LAYERS, %s, KV_HEADS * HEAD_DIM", kv_tokens_name(p));
  put(g, "\n  // role: KV cache\n");
  put_tile(g, "kv", p->kv_dtype, shape, "new", "keys and values, every layer");
}

/* ------------------------------------------------------------------ decode */

/* A raw (quantized) tile in a decode step: each byte once per sequence, a multiply-add. */
static void put_raw_reads(gen *g, int group) {
  const vxp_model_plan *p = g->p;
  if (!p->groups[group].present || !p->groups[group].raw) return;
  put(g,
      "    // %s: quantized or mixed, read byte by byte (a multiply-add a byte a sequence).\n"
      "    for i in 0..%llu {\n"
      "      for b in 0..BATCH {\n"
      "        acc = acc + %s[b][0] * %s[i];\n"
      "      }\n"
      "    }\n",
      tile_name(p, group), (unsigned long long)p->groups[group].ckpt_bytes,
      group == VXP__GROUP_O ? "attn" : "x", tile_name(p, group));
}

static bool shaped(const vxp_model_plan *p, int group) {
  return p->groups[group].present && !p->groups[group].raw;
}

/* One step's reads, each weight once per sequence: the loops of the lesson's decode step. */
static void put_decode_region(gen *g) {
  const vxp_model_plan *p = g->p;
  int head = p->tied ? VXP__GROUP_EMBED : VXP__GROUP_HEAD;
  put(g, "  spawn on(Topology::Device) {\n");
  if (shaped(p, VXP__GROUP_EMBED))
    put(g, "    // The embedding lookup: one row per sequence (row b stands for its token).\n"
           "    for b in 0..BATCH {\n"
           "      for h in 0..HIDDEN {\n"
           "        x[b][h] = embed[b][h];\n"
           "      }\n"
           "    }\n");
  if (shaped(p, VXP__GROUP_NORMS))
    put(g, "    // Each layer's norms scale its input.\n"
           "    for n in 0..2 * LAYERS + 1 {\n"
           "      for h in 0..HIDDEN {\n"
           "        for b in 0..BATCH {\n"
           "          acc = acc + norms[n][h] * x[b][h];\n"
           "        }\n"
           "      }\n"
           "    }\n");
  put(g, "    // Every projection weight times each sequence's input: a multiply and an add.\n"
         "    for l in 0..LAYERS {\n");
  if (shaped(p, VXP__GROUP_QKV))
    put(g, "      for h in 0..HIDDEN {\n"
           "        for c in 0..QKV {\n"
           "          for b in 0..BATCH {\n"
           "            acc = acc + attn_qkv[l][h][c] * x[b][h];\n"
           "          }\n"
           "        }\n"
           "      }\n");
  if (shaped(p, VXP__GROUP_BIAS))
    put(g, "      for c in 0..QKV {\n"
           "        for b in 0..BATCH {\n"
           "          acc = acc + qkv_bias[l][c];\n"
           "        }\n"
           "      }\n");
  if (shaped(p, VXP__GROUP_O))
    put(g, "      for r in 0..HEADS * HEAD_DIM {\n"
           "        for c in 0..HIDDEN {\n"
           "          for b in 0..BATCH {\n"
           "            acc = acc + attn_o[l][r][c] * attn[b][r];\n"
           "          }\n"
           "        }\n"
           "      }\n");
  if (p->moe && shaped(p, VXP__GROUP_ROUTER))
    put(g, "      // The router scores every expert; each sequence then runs ACTIVE of them. At\n"
           "      // batch 1 the step reads those experts alone; the compulsory count takes\n"
           "      // min(ACTIVE x BATCH, EXPERTS) experts a layer: the sequences' picks taken as\n"
           "      // all different until every expert is read (an upper bound).\n"
           "      for h in 0..HIDDEN {\n"
           "        for e in 0..EXPERTS {\n"
           "          for b in 0..BATCH {\n"
           "            acc = acc + router[l][h][e] * x[b][h];\n"
           "          }\n"
           "        }\n"
           "      }\n");
  if (p->moe && shaped(p, VXP__GROUP_MLP))
    put(g, "      for a in 0..ACTIVE {\n"
           "        for b in 0..BATCH {\n"
           "          for h in 0..HIDDEN {\n"
           "            for c in 0..3 * FFN {\n"
           "              acc = acc + experts[l][a][h][c] * x[b][h];\n"
           "            }\n"
           "          }\n"
           "        }\n"
           "      }\n");
  else if (shaped(p, VXP__GROUP_MLP))
    put(g, "      for h in 0..HIDDEN {\n"
           "        for c in 0..3 * FFN {\n"
           "          for b in 0..BATCH {\n"
           "            acc = acc + mlp[l][h][c] * x[b][h];\n"
           "          }\n"
           "        }\n"
           "      }\n");
  put(g, "    }\n");
  for (int group = 0; group < VXP__GROUP_COUNT; group++)
    put_raw_reads(g, group);
  put(g,
      "    // Attention reads every sequence's whole cache, each key and value element times\n"
      "    // the HEADS / KV_HEADS query heads that share it.\n"
      "    for b in 0..BATCH {\n"
      "      for i in 0..2 * LAYERS {\n"
      "        for t in 0..%s {\n"
      "          for j in 0..KV_HEADS * HEAD_DIM {\n"
      "            for q in 0..HEADS / KV_HEADS {\n"
      "              acc = acc + kv[b][i][t][j] * query[b][q][j];\n"
      "            }\n"
      "          }\n"
      "        }\n"
      "      }\n"
      "    }\n"
      "    for s in 0..BATCH * HEADS {\n"
      "      for t in 0..%s {\n"
      "        acc = acc + scores[s][t];\n"
      "      }\n"
      "    }\n"
      "    for b in 0..BATCH {\n"
      "      for c in 0..%s * FFN {\n"
      "        acc = acc + ffn[b][c];\n"
      "      }\n"
      "    }\n",
      kv_tokens_name(p), kv_tokens_name(p), p->moe ? "2 * ACTIVE" : "2");
  if (shaped(p, head))
    put(g,
        "    // The logits: every row of %s times each sequence's last hidden state.\n"
        "    for v in 0..VOCAB {\n"
        "      for h in 0..HIDDEN {\n"
        "        for b in 0..BATCH {\n"
        "          logits[b][v] = logits[b][v] + %s[v][h] * x[b][h];\n"
        "        }\n"
        "      }\n"
        "    }\n",
        tile_name(p, head), tile_name(p, head));
  else
    put(g, "    logits[0][0] = logits[0][0] + x[0][0];\n");
  put(g, "  }\n");
}

/* ------------------------------------------------------------------ the header */

/* A weight tile's bytes as the program places it. */
static uint64_t group_bytes(const vxp_model_plan *p, int group) {
  const vxp_model_group *t = &p->groups[group];
  if (!t->present) return 0;
  return t->raw ? t->ckpt_bytes : vxp_model__bytes(t->elems, t->bits);
}

static uint64_t weight_bytes(const vxp_model_plan *p) {
  uint64_t b = 0;
  for (int group = VXP__GROUP_QKV; group <= VXP__GROUP_NORMS; group++)
    b += group_bytes(p, group);
  return b;
}

static model_bytes plan_bytes(const vxp_model_plan *p) {
  model_bytes m = {0};
  m.weights = weight_bytes(p);
  m.embeddings = group_bytes(p, VXP__GROUP_EMBED) + group_bytes(p, VXP__GROUP_HEAD);
  uint64_t kvd = p->kv_heads * p->head_dim;
  unsigned db = p->dtype_bits;
  if (p->workload != VXP_WORKLOAD_TRAIN)
    m.kv = vxp_model__bytes(p->batch * 2 * p->layers * p->kv_tokens * kvd, p->kv_bits);
  uint64_t bc = p->batch * p->context, qkv_w = (p->heads + 2 * p->kv_heads) * p->head_dim;
  uint64_t ffn_w = 2 * p->ffn * (p->moe ? p->active : 1);
  switch (p->workload) {
  case VXP_WORKLOAD_DECODE:
    m.activations = vxp_model__bytes(p->batch * p->hidden, db) +
                    vxp_model__bytes(p->batch * p->heads * p->head_dim, db) * 2 +
                    vxp_model__bytes(p->batch * p->heads * p->kv_tokens, db) +
                    vxp_model__bytes(p->batch * ffn_w, db) +
                    vxp_model__bytes(p->batch * p->vocab, db);
    break;
  case VXP_WORKLOAD_PREFILL:
    /* Resident: the residual stream and the last tokens' logits; then one layer's. */
    m.activations =
        vxp_model__bytes(bc * p->hidden, db) + vxp_model__bytes(p->batch * p->vocab, db) +
        vxp_model__bytes(bc * p->hidden, db) + vxp_model__bytes(bc * qkv_w, db) +
        (p->fused ? 0 : vxp_model__bytes(p->batch * p->heads * p->context * p->context, db)) +
        vxp_model__bytes(bc * p->heads * p->head_dim, db) +
        (p->moe ? vxp_model__bytes(bc * p->experts, db) : 0) + vxp_model__bytes(bc * ffn_w, db);
    break;
  case VXP_WORKLOAD_TRAIN: {
    uint64_t saved = 4 * p->hidden + (2 * p->heads + 2 * p->kv_heads) * p->head_dim +
                     3 * p->ffn * (p->moe ? p->active : 1) + (p->moe ? p->experts : 0);
    uint64_t scores =
        p->fused ? 0 : vxp_model__bytes(p->batch * p->heads * p->context * p->context, db);
    uint64_t logits = vxp_model__bytes(bc * p->vocab, db);
    if (p->checkpointing)
      m.activations = vxp_model__bytes(p->layers * bc * p->hidden, db) + logits +
                      vxp_model__bytes(bc * saved, db) + scores;
    else
      m.activations = vxp_model__bytes(p->layers * bc * saved, db) + p->layers * scores + logits;
    m.gradients = vxp_model__bytes(p->params, db);
    uint64_t copies = (p->optimizer == VXP_OPTIMIZER_ADAM ? 2 : 0) + (db != 32 ? 1 : 0);
    m.optimizer = copies * p->params * 4;
    break;
  }
  }
  return m;
}

/* One decode step as the roofline counts it (the loops of put_decode_region): the bytes read
 * and written with each element of a tile counted at most once (compulsory), and the
 * operations. False when a figure passes 64 bits or a dtype is narrower than a byte (whose
 * element accesses the header does not work out). */
typedef struct step_figures {
  uint64_t read, written, ops;
} step_figures;

static bool decode_figures(const vxp_model_plan *p, step_figures *f) {
  /* A checkpoint's tiles may be in other types, or raw: their reads are not worked here. */
  if (p->dtype_bits % 8 || p->kv_bits % 8) return false;
  for (int g = 0; g < VXP__GROUP_COUNT; g++)
    if (p->groups[g].present && (p->groups[g].raw || p->groups[g].bits != p->dtype_bits))
      return false;
  u128 db = p->dtype_bits / 8, B = p->batch, L = p->layers, H = p->hidden, T = p->kv_tokens;
  u128 V = p->vocab, hd = (u128)p->heads * p->head_dim, kvd = (u128)p->kv_heads * p->head_dim;
  u128 expert = (u128)H * 3 * p->ffn, mlp_run, mlp_read;
  if (p->moe) {
    u128 picks = (u128)p->active * B;
    mlp_run = L * p->active * expert;
    mlp_read = L * (picks < p->experts ? picks : p->experts) * expert;
  } else {
    mlp_run = mlp_read = L * p->mlp_elems;
  }
  u128 norms = (u128)(2 * p->layers + 1) * H;
  u128 weights_read = norms + L * p->qkv_elems + L * p->o_elems + L * p->bias_elems +
                      L * p->router_elems + mlp_read;
  u128 embed_read = p->tied ? V * H : (B < V ? B : V) * H;
  u128 head_read = p->tied ? 0 : V * H;
  u128 ffn_w = (u128)2 * p->ffn * (p->moe ? p->active : 1);
  u128 acts = B * H + 2 * B * hd + B * p->heads * T + B * ffn_w + B * V;
  u128 kv = B * 2 * L * T * kvd;
  u128 read = (weights_read + embed_read + head_read + acts) * db + kv * (p->kv_bits / 8);
  u128 written = (B * H + B * V) * db;
  u128 ops = 2 * B * (norms + L * p->qkv_elems + L * p->o_elems + L * p->router_elems + mlp_run) +
             B * L * p->bias_elems + 4 * B * L * T * hd + B * p->heads * T + B * ffn_w +
             2 * B * V * H;
  if (read > UINT64_MAX || written > UINT64_MAX || ops > UINT64_MAX) return false;
  f->read = (uint64_t)read;
  f->written = (uint64_t)written;
  f->ops = (uint64_t)ops;
  return true;
}

static void put_decode_figures(gen *g) {
  const vxp_model_plan *p = g->p;
  step_figures f;
  if (!decode_figures(p, &f)) return;
  put(g,
      "// One step, by hand (`vxpeak roofline --tokens-per-call BATCH`), each element of a\n"
      "// tile counted once: it reads every weight the step runs%s, BATCH rows of\n"
      "// embed_tokens, %s,\n// every sequence's KV cache and the activations:\n",
      p->moe ? " (the router, and the\n// experts the sequences pick: min(ACTIVE x BATCH, EXPERTS) "
               "a layer)"
             : "",
      p->tied ? "the whole table again for the logits (tied)" : "all of lm_head");
  put(g,
      "//   %s bytes read, %s written; %s operations (a multiply-add\n"
      "//   per weight per sequence is two; attention 4 x LAYERS x HEADS x HEAD_DIM x %s\n"
      "//   per sequence): about BATCH operations per byte, memory-bound far below the\n"
      "//   ridge point of a GPU (200.6 on an A100-40)\n",
      N(f.read).s, N(f.written).s, N(f.ops).s, kv_tokens_name(p));
}

static void put_parameters(gen *g) {
  const vxp_model_plan *p = g->p;
  put(g, "// Parameters, worked by hand (every tensor of the checkpoint):\n");
  put(g, "//   per layer: q, k, v  HIDDEN x QKV = HIDDEN x (HEADS + 2 KV_HEADS) x HEAD_DIM = %s\n",
      N(p->qkv_elems).s);
  if (p->biases)
    put(g, "//              their biases (HEADS + 2 KV_HEADS) x HEAD_DIM = %s\n",
        N(p->bias_elems).s);
  put(g, "//              o       HEADS x HEAD_DIM x HIDDEN = %s\n", N(p->o_elems).s);
  if (p->moe) {
    put(g, "//              router  HIDDEN x EXPERTS = %s\n", N(p->router_elems).s);
    put(g, "//              experts EXPERTS x 3 x HIDDEN x FFN = %s\n", N(p->mlp_elems).s);
  } else {
    put(g, "//              MLP     3 x HIDDEN x FFN = %s\n", N(p->mlp_elems).s);
  }
  put(g, "//              norms   2 x HIDDEN = %s\n", N(p->norm_elems).s);
  put(g, "//              one layer: %s; x %llu layers = %s\n", N(p->layer_elems).s,
      (unsigned long long)p->layers, N(p->layers_elems).s);
  put(g, "//   the final norm HIDDEN = %s\n", N(p->final_norm).s);
  put(g, "//   embed_tokens VOCAB x HIDDEN = %s%s\n", N(p->embed_elems).s,
      p->tied ? " (lm_head is the same table: tie_word_embeddings)" : "; lm_head the same");
  put(g, "//   P = %s parameters", N(p->params).s);
  if (p->moe)
    put(g, ";\n//   a token runs ACTIVE of the EXPERTS experts: %s parameters active",
        N(p->active_params).s);
  put(g, "\n");
}

/* With a checkpoint: what its tensors gave each tile, and what does not match. */
static void put_checkpoint(gen *g) {
  const vxp_model_plan *p = g->p;
  if (!p->checkpoint) return;
  uint64_t explained = 0;
  for (int group = 0; group < VXP__GROUP_COUNT; group++)
    explained += p->groups[group].ckpt_bytes;
  put(g,
      "// The checkpoint's %zu tensors (their headers; no tensor data read): %s bytes in the\n"
      "//   architecture's modules, placed as",
      p->tensor_count, N(explained).s);
  int shown = 0;
  for (int group = 0; group < VXP__GROUP_COUNT; group++) {
    const vxp_model_group *t = &p->groups[group];
    if (!t->present) continue;
    put(g, "%s%s %s", shown++ % 3 ? ", " : "\n//     ", tile_name(p, group),
        t->raw ? "u8 (its bytes)" : t->dtype);
  }
  put(g, "\n");
  if (p->unexplained) {
    put(g,
        "// %zu tensor%s the architecture does not explain (%s bytes, not placed):", p->unexplained,
        p->unexplained == 1 ? "" : "s", N(p->unexplained_bytes).s);
    size_t listed = 0;
    for (size_t i = 0; i < p->tensor_count && listed < 5; i++) {
      if (vxp_model__explains(p, p->tensors[i].name)) continue;
      put(g, "\n//   %.120s", p->tensors[i].name);
      listed++;
    }
    put(g, "%s\n", p->unexplained > listed ? "\n//   ..." : "");
  }
  if (p->missing) {
    char name[160];
    vxp_model__module_name(p, p->first_missing, name, sizeof(name));
    put(g, "// %llu module%s of the architecture with no tensor, the first %s\n",
        (unsigned long long)p->missing, p->missing == 1 ? "" : "s", name);
  }
}

static void put_header(gen *g, const model_bytes *m) {
  const vxp_model_plan *p = g->p;
  const char *w = vxp_model_workload_name(p->workload);
  put(g, "// A %s of the %s model of %s,\n// generated by `vxpeak model` (docs/models.md).\n", w,
      p->model_type, p->label ? p->label : "a configuration");
  if (p->command) put(g, "//\n//   %s\n", p->command);
  put(g, "//\n");
  put_parameters(g);
  uint64_t params_bytes = m->weights + m->embeddings;
  if (p->checkpoint)
    put(g,
        "//   as the checkpoint holds them: layer weights %s + embeddings %s\n//     = %s bytes\n",
        N(m->weights).s, N(m->embeddings).s, N(params_bytes).s);
  else
    put(g, "//   in %s (%u bits each): layer weights %s + embeddings %s\n//     = %s bytes\n",
        p->dtype, p->dtype_bits, N(m->weights).s, N(m->embeddings).s, N(params_bytes).s);
  put_checkpoint(g);
  if (p->family == VXP__FAMILY_LLAMA && p->params == 6738415616u && !p->checkpoint)
    put(g, "//   (Llama-2-7B: the blog's 13,476,298,752 bytes and examples/llama2/ leave out the\n"
           "//   266,240 norm weights)\n");
  if (p->workload != VXP_WORKLOAD_TRAIN) {
    uint64_t per_token = vxp_model__bytes(2 * p->layers * p->kv_heads * p->head_dim, p->kv_bits);
    put(g,
        "// KV cache: 2 x LAYERS x KV_HEADS x HEAD_DIM x %u bits = %s bytes a token a "
        "sequence,\n",
        p->kv_bits, N(per_token).s);
    put(g, "//   x BATCH %llu x %s %llu = %s bytes\n", (unsigned long long)p->batch,
        kv_tokens_name(p), (unsigned long long)p->kv_tokens, N(m->kv).s);
    if (p->window)
      put(g, "//   (KV_TOKENS = min(CONTEXT, WINDOW): the sliding window bounds the cache)\n");
  }
  switch (p->workload) {
  case VXP_WORKLOAD_DECODE:
    put(g,
        "// Activations of the step: x, attn, query (BATCH x HIDDEN-wide rows), scores\n"
        "//   (BATCH x HEADS x %s), ffn (BATCH x %s FFN), logits (BATCH x VOCAB) = %s bytes\n",
        kv_tokens_name(p), p->moe ? "2 ACTIVE" : "2", N(m->activations).s);
    put_decode_figures(g);
    break;
  case VXP_WORKLOAD_PREFILL:
    put(g,
        "// Activations: the residual stream (BATCH x CONTEXT x HIDDEN) and the last tokens'\n"
        "//   logits held through the run, then one layer's at a time (released at the end\n"
        "//   of each iteration): the normed input, q/k/v, %sthe attention output,%s\n"
        "//   the MLP's gate and up outputs; at their largest %s bytes\n",
        p->fused ? ""
                 : "the scores as a plain\n//   attention holds them (BATCH x HEADS x CONTEXT x "
                   "CONTEXT; --fused-attention keeps\n//   none), ",
        p->moe ? " the router's scores," : "", N(m->activations).s);
    break;
  case VXP_WORKLOAD_TRAIN:
    put(g, "// Training, mixed precision: weights and gradients in %s;\n//   %s\n", p->dtype,
        p->dtype_bits == 32 ? "the weights are their own master copy"
                            : "an f32 master copy of the weights is optimizer state");
    put(g, "//   gradients PARAMS x %u bits = %s bytes\n", p->dtype_bits, N(m->gradients).s);
    put(g, "//   optimizer state (%s): %s\n//     = %s bytes\n",
        vxp_model_optimizer_name(p->optimizer),
        p->optimizer == VXP_OPTIMIZER_ADAM
            ? (p->dtype_bits == 32 ? "two f32 moments, 8 bytes per parameter"
                                   : "master copy and two f32 moments, 12 bytes per parameter")
            : (p->dtype_bits == 32 ? "none (SGD keeps no moments)"
                                   : "the master copy, 4 bytes per parameter (SGD: no moments)"),
        N(m->optimizer).s);
    put(g,
        "//   activations kept for the backward pass: SAVED values per token per layer (the\n"
        "//   layer's input, both norms' outputs, the residual, q, k, v and the attention\n"
        "//   output, the MLP's gate, up and product%s)%s,\n"
        "//   and the logits (BATCH x CONTEXT x VOCAB)%s: %s bytes\n",
        p->moe ? "\n//   for each active expert, the router's scores" : "",
        p->fused ? ""
                 : ",\n//   the attention probabilities (HEADS x CONTEXT x CONTEXT a sequence)",
        p->checkpointing ? "; with --checkpointing only each layer's input is kept, and one "
                           "layer's\n//   activations are recomputed at a time"
                         : "",
        N(m->activations).s);
    break;
  }
  uint64_t peak = m->weights + m->embeddings + m->kv + m->gradients + m->optimizer + m->activations;
  put(g, "// Peak of main, by hand: %s bytes\n", N(peak).s);
  put(g, "//\n"
         "// SIMPLIFIED: no framework workspace, no fragmentation, no CUDA context; a step's\n"
         "// transient buffers beyond the tiles below are left out.\n\n");
}

/* ------------------------------------------------------------------ the bodies */

static void put_decode_main(gen *g) {
  const vxp_model_plan *p = g->p;
  put(g, "fn main() -> i32 {\n");
  put_weights(g);
  put_kv(g);
  put(g, "\n  // role: activations\n");
  put_tile(g, "x", p->dtype, "BATCH, HIDDEN", "new", NULL);
  put_tile(g, "query", p->dtype, "BATCH, HEADS / KV_HEADS, KV_HEADS * HEAD_DIM", "new", NULL);
  put_tile(g, "attn", p->dtype, "BATCH, HEADS * HEAD_DIM", "new", NULL);
  char shape[64];
  snprintf(shape, sizeof(shape), "BATCH * HEADS, %s", kv_tokens_name(p));
  put_tile(g, "scores", p->dtype, shape, "new", NULL);
  put_tile(g, "ffn", p->dtype, p->moe ? "BATCH, 2 * ACTIVE * FFN" : "BATCH, 2 * FFN", "new", NULL);
  put_tile(g, "logits", p->dtype, "BATCH, VOCAB", "new", NULL);
  put(g, "  let mut acc : f32 = 0.0;\n");
  put_decode_region(g);
  put(g, "  return 0;\n}\n");
}

/* Reads one element of each resident weight tile, so that they are live where they are read. */
static void put_touch_resident(gen *g, const char *indent) {
  /* Two lines, each within the examples' width. */
  static const int lines[2][4] = {
      {VXP__GROUP_QKV, VXP__GROUP_O, VXP__GROUP_NORMS, VXP__GROUP_EMBED},
      {VXP__GROUP_ROUTER, VXP__GROUP_MLP, VXP__GROUP_BIAS, VXP__GROUP_HEAD}};
  for (int l = 0; l < 2; l++) {
    put(g, "%sacc = acc", indent);
    for (int i = 0; i < 4; i++) {
      if (!g->p->groups[lines[l][i]].present) continue;
      put(g, " + ");
      put_element(g, lines[l][i], "0");
    }
    put(g, ";\n");
  }
}

static void put_prefill_main(gen *g) {
  const vxp_model_plan *p = g->p;
  put(g, "fn main() -> i32 {\n");
  put_weights(g);
  put_kv(g);
  put(g, "\n  // role: activations\n");
  put_tile(g, "x", p->dtype, "BATCH * CONTEXT, HIDDEN", "new", "the residual stream");
  put_tile(g, "logits", p->dtype, "BATCH, VOCAB", "new", "the last tokens'");
  put(g, "  let mut acc : f32 = 0.0;\n\n");
  put(g, "  for layer in 0..LAYERS {\n");
  put(g, "    // One layer's activations, released at the end of every iteration.\n");
  put(g, "    // role: activations\n");
  put(g,
      "    let normed = transfer(Tensor<%s, [BATCH * CONTEXT, HIDDEN]>::uninit(), "
      "Memory::HBM);\n",
      p->dtype);
  put(g, "    let qkv = transfer(Tensor<%s, [BATCH * CONTEXT, QKV]>::uninit(), Memory::HBM);\n",
      p->dtype);
  if (!p->fused)
    put(g,
        "    let scores = transfer(Tensor<%s, [BATCH * HEADS, CONTEXT, CONTEXT]>::uninit(), "
        "Memory::HBM);\n",
        p->dtype);
  put(g,
      "    let attn = transfer(Tensor<%s, [BATCH * CONTEXT, HEADS * HEAD_DIM]>::uninit(), "
      "Memory::HBM);\n",
      p->dtype);
  if (p->moe)
    put(g,
        "    let routing = transfer(Tensor<%s, [BATCH * CONTEXT, EXPERTS]>::uninit(), "
        "Memory::HBM);\n",
        p->dtype);
  put(g, "    let ffn = transfer(Tensor<%s, [BATCH * CONTEXT, %s]>::uninit(), Memory::HBM);\n",
      p->dtype, p->moe ? "2 * ACTIVE * FFN" : "2 * FFN");
  put(g, "    spawn on(Topology::Device) {\n");
  put(g, "      normed[0][0] = x[0][0];\n      qkv[0][0] = normed[0][0] * ");
  put_element(g, VXP__GROUP_QKV, p->groups[VXP__GROUP_QKV].raw ? "0" : "layer");
  put(g, ";\n      kv[0][layer][0][0] = qkv[0][1];\n");
  if (!p->fused) put(g, "      scores[0][0][0] = qkv[0][0] * kv[0][layer][0][0];\n");
  put(g, "      attn[0][0] = %s * kv[0][layer][0][1];\n",
      p->fused ? "qkv[0][0]" : "scores[0][0][0]");
  if (p->moe) {
    put(g, "      routing[0][0] = attn[0][0] * ");
    put_element(g, VXP__GROUP_ROUTER, p->groups[VXP__GROUP_ROUTER].raw ? "0" : "layer");
    put(g, ";\n");
  }
  put(g, "      ffn[0][0] = attn[0][0] * ");
  put_element(g, VXP__GROUP_MLP, p->groups[VXP__GROUP_MLP].raw ? "0" : "layer");
  put(g, ";\n");
  put(g, "      x[0][0] = x[0][0] + ffn[0][1];\n");
  put_touch_resident(g, "      ");
  put(g, "      logits[0][0] = x[0][0];\n");
  put(g, "    }\n  }\n  print(acc);\n  return 0;\n}\n");
}

static void put_train_main(gen *g) {
  const vxp_model_plan *p = g->p;
  put(g, "fn main() -> i32 {\n");
  put_weights(g);
  put(g, "\n  // role: gradients\n");
  put_tile(g, "grads", p->dtype, "PARAMS", "new", NULL);
  bool master = p->dtype_bits != 32, adam = p->optimizer == VXP_OPTIMIZER_ADAM;
  if (master || adam) {
    put(g, "\n  // role: optimizer state\n");
    if (master) put_tile(g, "master", "f32", "PARAMS", "uninit", "f32 master copy");
    if (adam) {
      put_tile(g, "moment1", "f32", "PARAMS", "new", "Adam's first moment");
      put_tile(g, "moment2", "f32", "PARAMS", "new", "Adam's second moment");
    }
  }
  put(g, "\n  // role: activations\n");
  if (p->checkpointing) {
    put_tile(g, "saved", p->dtype, "LAYERS * BATCH * CONTEXT, HIDDEN", "new",
             "each layer's input (checkpoints)");
  } else {
    put_tile(g, "saved", p->dtype, "LAYERS * BATCH * CONTEXT, SAVED", "new", NULL);
    if (!p->fused)
      put_tile(g, "probs", p->dtype, "LAYERS * BATCH * HEADS, CONTEXT, CONTEXT", "new",
               "attention probabilities");
  }
  put_tile(g, "logits", p->dtype, "BATCH * CONTEXT, VOCAB", "new", NULL);
  put(g, "  let mut acc : f32 = 0.0;\n");
  if (p->checkpointing) {
    put(g, "\n  // The backward pass recomputes one layer's activations at a time.\n");
    put(g, "  for layer in 0..LAYERS {\n    // role: activations\n");
    put(g, "    let redo = transfer(Tensor<%s, [BATCH * CONTEXT, SAVED]>::new(), Memory::HBM);\n",
        p->dtype);
    if (!p->fused)
      put(g,
          "    let probs = transfer(Tensor<%s, [BATCH * HEADS, CONTEXT, CONTEXT]>::new(), "
          "Memory::HBM);\n",
          p->dtype);
    put(g, "    spawn on(Topology::Device) {\n"
           "      redo[0][0] = saved[layer][0];\n");
    if (!p->fused) put(g, "      probs[0][0][0] = redo[0][1];\n");
    put(g, "      acc = acc + redo[0][0];\n    }\n  }\n");
  }
  put(g, "  // One optimizer step reads every tile (a tile nothing reads is released at once).\n");
  put(g, "  spawn on(Topology::Device) {\n");
  put_touch_resident(g, "    ");
  put(g, "    acc = acc + grads[0] + saved[0][0] + logits[0][0]%s;\n",
      !p->checkpointing && !p->fused ? " + probs[0][0][0]" : "");
  if (master) put(g, "    acc = acc + master[0];\n");
  if (adam) put(g, "    acc = acc + moment1[0] + moment2[0];\n");
  put(g, "  }\n  print(acc);\n  return 0;\n}\n");
}

int vxp_model_generate(vxp_context *ctx, const vxp_model_config *config,
                       const vxp_model_options *opts, vxp_write_fn write, void *arg) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);

  vxp_ctx__begin(ctx);
  if (!ctx || !config || !opts || !write)
    return vxp_ctx__error(ctx, VXP_EINVAL, "vxp_model_generate: a NULL argument");
  vxp_model_plan plan;
  int rc = vxp_model__plan(ctx, config, opts, &plan);
  if (rc != VXP_OK) return rc;
  gen g = {ctx, {0}, &plan};
  model_bytes m = plan_bytes(&plan);
  put_header(&g, &m);
  put_constants(&g);
  put(&g, "\n");
  switch (plan.workload) {
  case VXP_WORKLOAD_DECODE: put_decode_main(&g); break;
  case VXP_WORKLOAD_PREFILL: put_prefill_main(&g); break;
  case VXP_WORKLOAD_TRAIN: put_train_main(&g); break;
  }
  bool refused = false;
  if (!vxp_sb__drain(&g.sb, write, arg, &refused))
    rc = refused ? vxp_ctx__error(ctx, VXP_EIO, "vxp_model_generate: the writer refused the text")
                 : vxp_ctx__nomem(ctx);
  vxp_sb__free(ctx, &g.sb);
  return rc;
}
