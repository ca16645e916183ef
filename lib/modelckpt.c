/* SPDX-License-Identifier: Apache-2.0 */
/* modelckpt.c - a checkpoint's tensors matched to the architecture (`vxpeak model
 * --weights`): each tensor name is parsed into the module it belongs to (a layer's q_proj,
 * an expert's w1, the embedding table...), so that the weights' bytes come from the real
 * tensors, quantized ones included (a module's `qweight`, `scales` and `qzeros` are all its
 * own), and what the architecture does not explain, or expects and does not find, is named. */
#include "modelcfg.h"
#include <stdio.h>

/* The modules of one layer, in slot order: q, k, v, o, then the MLP's three (dense) or the
 * router and EXPERTS x three (mixtral), then the two norms. */
static uint64_t layer_modules(const vxp_model_plan *p) {
  return 4 + (p->moe ? 1 + 3 * p->experts : 3) + 2;
}

/* Slots 0..2 are the embedding table, lm_head and the final norm. */
static uint64_t module_count(const vxp_model_plan *p) { return 3 + p->layers * layer_modules(p); }

/* `s` starts with `prefix`: the rest, or NULL. */
static const char *after(const char *s, const char *prefix) {
  size_t n = strlen(prefix);
  return strncmp(s, prefix, n) == 0 ? s + n : NULL;
}

/* A decimal index below `limit` followed by '.': the rest after the dot, or NULL. */
static const char *index_below(const char *s, uint64_t limit, uint64_t *out) {
  uint64_t v = 0;
  const char *p = s;
  if (*p < '0' || *p > '9' || (*p == '0' && p[1] != '.')) return NULL;
  for (; *p >= '0' && *p <= '9'; p++) {
    v = v * 10 + (uint64_t)(*p - '0');
    if (v >= limit) return NULL;
  }
  if (*p != '.') return NULL;
  *out = v;
  return p + 1;
}

/* The module slot and tile group of tensor `name`, or false when the architecture does not
 * explain it. A name must go on past its module's prefix (".weight", ".qweight"...). */
static bool match(const vxp_model_plan *p, const char *name, uint64_t *slot, int *group) {
  const char *rest;
  if ((rest = after(name, "model.embed_tokens.")) && *rest) {
    *slot = 0, *group = VXP__GROUP_EMBED;
    return true;
  }
  if ((rest = after(name, "lm_head.")) && *rest && !p->tied) {
    *slot = 1, *group = VXP__GROUP_HEAD;
    return true;
  }
  if ((rest = after(name, "model.norm.")) && *rest) {
    *slot = 2, *group = VXP__GROUP_NORMS;
    return true;
  }
  uint64_t layer, expert;
  if (!(rest = after(name, "model.layers.")) || !(rest = index_below(rest, p->layers, &layer)))
    return false;
  uint64_t base = 3 + layer * layer_modules(p), m;
  static const char *const attn[] = {"self_attn.q_proj.", "self_attn.k_proj.", "self_attn.v_proj.",
                                     "self_attn.o_proj."};
  for (m = 0; m < 4; m++) {
    const char *tail = after(rest, attn[m]);
    if (!tail || !*tail) continue;
    *slot = base + m;
    if (m == 3)
      *group = VXP__GROUP_O;
    else if (strcmp(tail, "bias") == 0)
      *group = VXP__GROUP_BIAS;
    else
      *group = VXP__GROUP_QKV;
    /* Biases belong to the families that have them. */
    return *group != VXP__GROUP_BIAS || p->biases;
  }
  static const char *const norms[] = {"input_layernorm.", "post_attention_layernorm."};
  uint64_t norm_base = base + layer_modules(p) - 2;
  for (m = 0; m < 2; m++) {
    const char *tail = after(rest, norms[m]);
    if (tail && *tail) {
      *slot = norm_base + m, *group = VXP__GROUP_NORMS;
      return true;
    }
  }
  if (!p->moe) {
    static const char *const mlp[] = {"mlp.gate_proj.", "mlp.up_proj.", "mlp.down_proj."};
    for (m = 0; m < 3; m++) {
      const char *tail = after(rest, mlp[m]);
      if (tail && *tail) {
        *slot = base + 4 + m, *group = VXP__GROUP_MLP;
        return true;
      }
    }
    return false;
  }
  const char *tail;
  if ((tail = after(rest, "block_sparse_moe.gate.")) && *tail) {
    *slot = base + 4, *group = VXP__GROUP_ROUTER;
    return true;
  }
  if (!(tail = after(rest, "block_sparse_moe.experts.")) ||
      !(tail = index_below(tail, p->experts, &expert)))
    return false;
  static const char *const w[] = {"w1.", "w2.", "w3."};
  for (m = 0; m < 3; m++) {
    const char *t = after(tail, w[m]);
    if (t && *t) {
      *slot = base + 5 + 3 * expert + m, *group = VXP__GROUP_MLP;
      return true;
    }
  }
  return false;
}

bool vxp_model__explains(const vxp_model_plan *p, const char *name) {
  uint64_t slot;
  int group;
  return match(p, name, &slot, &group);
}

/* The name of module `slot`, for the header's list of what is missing. */
void vxp_model__module_name(const vxp_model_plan *p, uint64_t slot, char *out, size_t size) {
  static const char *const fixed[] = {"model.embed_tokens", "lm_head", "model.norm"};
  if (slot < 3) {
    snprintf(out, size, "%s", fixed[slot]);
    return;
  }
  uint64_t layer = (slot - 3) / layer_modules(p), m = (slot - 3) % layer_modules(p);
  static const char *const attn[] = {"self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj",
                                     "self_attn.o_proj"};
  static const char *const mlp[] = {"mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"};
  static const char *const w[] = {"w1", "w2", "w3"};
  uint64_t nmods = layer_modules(p);
  if (m < 4)
    snprintf(out, size, "model.layers.%llu.%s", (unsigned long long)layer, attn[m]);
  else if (m >= nmods - 2)
    snprintf(out, size, "model.layers.%llu.%s", (unsigned long long)layer,
             m == nmods - 2 ? "input_layernorm" : "post_attention_layernorm");
  else if (!p->moe)
    snprintf(out, size, "model.layers.%llu.%s", (unsigned long long)layer, mlp[m - 4]);
  else if (m == 4)
    snprintf(out, size, "model.layers.%llu.block_sparse_moe.gate", (unsigned long long)layer);
  else
    snprintf(out, size, "model.layers.%llu.block_sparse_moe.experts.%llu.%s",
             (unsigned long long)layer, (unsigned long long)((m - 5) / 3), w[(m - 5) % 3]);
}

/* Modules a checkpoint may name at most: the bitmap of found modules is allocated. */
#define MAX_MODULES ((uint64_t)1 << 24)

/* The safetensors dtypes that are a Vx element type. */
static const char *vx_type_of(const char *st, unsigned *bits) {
  static const struct {
    const char *st, *vx;
    unsigned bits;
  } map[] = {{"F32", "f32", 32},       {"F16", "f16", 16},       {"BF16", "bf16", 16},
             {"F8_E4M3", "f8e4m3", 8}, {"F8_E5M2", "f8e5m2", 8}, {"I8", "i8", 8},
             {"U8", "u8", 8},          {"F64", "f64", 64},       {"I32", "i32", 32},
             {"I16", "i16", 16},       {"I64", "i64", 64}};
  for (size_t i = 0; i < VXP__ARRAY_LEN(map); i++) {
    if (strcmp(st, map[i].st) == 0) {
      *bits = map[i].bits;
      return map[i].vx;
    }
  }
  return NULL;
}

int vxp_model__match_checkpoint(vxp_context *ctx, vxp_model_plan *p, const vxp_model_tensor *t,
                                size_t n) {
  if (!t && n) return vxp_ctx__error(ctx, VXP_EINVAL, "vxp_model: tensors is NULL");
  uint64_t modules = module_count(p);
  if (modules > MAX_MODULES)
    return vxp_ctx__error(ctx, VXP_EINVAL,
                          "the architecture has %llu modules, more than a checkpoint is matched "
                          "against (2^24): check num_hidden_layers and num_local_experts",
                          (unsigned long long)modules);
  unsigned char *found = vxp_ctx__calloc(ctx, (size_t)((modules + 7) / 8), 1);
  if (!found) return vxp_ctx__nomem(ctx);
  const char *first_dtype[VXP__GROUP_COUNT] = {0};
  bool mixed[VXP__GROUP_COUNT] = {0};
  p->checkpoint = true;
  p->unexplained = 0;
  p->unexplained_bytes = 0;
  for (size_t i = 0; i < n; i++) {
    if (!t[i].name || !t[i].dtype) {
      vxp_ctx__free(ctx, found);
      return vxp_ctx__error(ctx, VXP_EINVAL, "vxp_model: tensor %zu has no name or dtype", i);
    }
    uint64_t slot;
    int group;
    if (!match(p, t[i].name, &slot, &group)) {
      p->unexplained++;
      p->unexplained_bytes += t[i].bytes;
      continue;
    }
    found[slot / 8] |= (unsigned char)(1u << (slot % 8));
    vxp_model_group *g = &p->groups[group];
    if (t[i].bytes > VXP__MODEL_LIMIT || g->ckpt_bytes > VXP__MODEL_LIMIT - t[i].bytes) {
      vxp_ctx__free(ctx, found);
      return vxp_ctx__error(ctx, VXP_EINVAL, "the checkpoint's tensors hold more than 2^56 bytes");
    }
    g->ckpt_bytes += t[i].bytes;
    g->ckpt_tensors++;
    if (!first_dtype[group])
      first_dtype[group] = t[i].dtype;
    else if (strcmp(first_dtype[group], t[i].dtype) != 0)
      mixed[group] = true;
  }
  p->missing = 0;
  p->first_missing = UINT64_MAX;
  for (uint64_t s = 0; s < modules; s++) {
    if (s == 1 && p->tied) continue; /* no lm_head of its own */
    if (!(found[s / 8] & (1u << (s % 8)))) {
      if (!p->missing) p->first_missing = s;
      p->missing++;
    }
  }
  vxp_ctx__free(ctx, found);
  /* Each tile takes its tensors' type when they share one that holds its elements exactly;
   * anything else (quantized, mixed, missing tensors) is its bytes, as u8. */
  for (int gi = 0; gi < VXP__GROUP_COUNT; gi++) {
    vxp_model_group *g = &p->groups[gi];
    if (!g->present || !first_dtype[gi]) continue; /* no tensor: the dtype's tile stays */
    unsigned bits = 0;
    const char *vx = first_dtype[gi] && !mixed[gi] ? vx_type_of(first_dtype[gi], &bits) : NULL;
    if (vx && vxp_model__bytes(g->elems, bits) == g->ckpt_bytes) {
      g->dtype = vx;
      g->bits = bits;
      g->raw = false;
    } else {
      g->dtype = "u8";
      g->bits = 8;
      g->raw = true;
    }
    g->mixed = mixed[gi];
    g->ckpt_dtype = mixed[gi] ? NULL : first_dtype[gi];
  }
  return VXP_OK;
}

int vxp_model_checkpoint(vxp_context *ctx, const vxp_model_config *config,
                         const vxp_model_tensor *tensors, size_t count, uint64_t *explained,
                         size_t *unexplained, size_t *missing) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);

  vxp_ctx__begin(ctx);
  vxp_model_plan plan;
  int rc = vxp_model__plan(ctx, config, NULL, &plan);
  if (rc == VXP_OK) rc = vxp_model__match_checkpoint(ctx, &plan, tensors, count);
  if (rc != VXP_OK) return rc;
  uint64_t sum = 0;
  for (int g = 0; g < VXP__GROUP_COUNT; g++)
    sum += plan.groups[g].ckpt_bytes;
  if (explained) *explained = sum;
  if (unexplained) *unexplained = plan.unexplained;
  if (missing) *missing = (size_t)plan.missing;
  return VXP_OK;
}
