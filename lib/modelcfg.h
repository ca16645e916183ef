/* SPDX-License-Identifier: Apache-2.0 */
/* modelcfg.h - a model configuration checked and worked out (`vxpeak model`): the families,
 * the dtypes, and every figure the generated program's header states, computed once here
 * with checked arithmetic so that the program text (modelgen.c) only prints them. */
#ifndef VXP_MODELCFG_H
#define VXP_MODELCFG_H

#include "internal.h"

typedef enum vxp_model_family {
  VXP__FAMILY_LLAMA,
  VXP__FAMILY_MISTRAL,
  VXP__FAMILY_QWEN2,
  VXP__FAMILY_MIXTRAL
} vxp_model_family;

/* The weight tiles, in the program's order. */
enum {
  VXP__GROUP_QKV,
  VXP__GROUP_BIAS,
  VXP__GROUP_O,
  VXP__GROUP_ROUTER,
  VXP__GROUP_MLP,
  VXP__GROUP_NORMS,
  VXP__GROUP_EMBED,
  VXP__GROUP_HEAD,
  VXP__GROUP_COUNT
};

/* One weight tile: its elements, and the element type it is written in (the dtype, or with
 * a checkpoint its tensors' own; `raw`: a u8 tile of the checkpoint's bytes). */
typedef struct vxp_model_group {
  bool present; /* the architecture has it */
  uint64_t elems;
  const char *dtype;
  unsigned bits;
  bool raw, mixed;
  uint64_t ckpt_bytes;    /* the checkpoint's tensors' bytes */
  size_t ckpt_tensors;    /* and how many */
  const char *ckpt_dtype; /* their dtype when they share one */
} vxp_model_group;

/* A configuration with its options applied, and its figures.
 * Invariant: every figure (elements and bytes) is at most VXP__MODEL_LIMIT, so that the
 * program's i64 constants and the analysis' products of them cannot overflow. */
typedef struct vxp_model_plan {
  vxp_model_family family;
  const char *model_type, *label, *command;
  vxp_model_workload workload;
  vxp_model_optimizer optimizer;
  bool fused, checkpointing, tied, moe, biases;
  /* The dimensions, as the program's constants name them. */
  uint64_t layers, hidden, ffn, heads, kv_heads, head_dim, vocab, window, experts, active;
  uint64_t batch, context, kv_tokens;
  const char *dtype, *kv_dtype; /* Vx element type names */
  unsigned dtype_bits, kv_bits; /* their widths */
  bool head_dim_given;          /* from config.json's head_dim, not hidden / heads */
  /* Elements of one layer, by tensor group. */
  uint64_t qkv_elems, o_elems, mlp_elems, norm_elems, bias_elems, router_elems, layer_elems;
  uint64_t layers_elems;  /* layers x layer_elems */
  uint64_t final_norm;    /* = hidden */
  uint64_t embed_elems;   /* vocab x hidden, each table */
  uint64_t params;        /* everything */
  uint64_t active_params; /* what one token runs: the active experts' share of the MLP */
  vxp_model_group groups[VXP__GROUP_COUNT];
  /* With a checkpoint (vxp_model_options.tensors): its tensors, what they leave unexplained
   * and the modules they miss (the first's slot, for the header). */
  bool checkpoint;
  const vxp_model_tensor *tensors;
  size_t tensor_count, unexplained;
  uint64_t unexplained_bytes, missing, first_missing;
} vxp_model_plan;

/* The largest figure a plan may hold: 2^56, so that bits x elements (at most 32 bits an
 * element here, and the f32 optimizer state x 3) and any sum the header prints stay far
 * below INT64_MAX. */
#define VXP__MODEL_LIMIT ((uint64_t)1 << 56)

/* Check `config` and `opts` (NULL opts: only the configuration, for the parameter count)
 * and work the plan out. VXP_OK, or VXP_EINVAL / VXP_EVERSION reported on `ctx` with the
 * field named. */
int vxp_model__plan(vxp_context *ctx, const vxp_model_config *config, const vxp_model_options *opts,
                    vxp_model_plan *plan);

/* Match a checkpoint's tensors to the plan's modules and set each weight tile's type from
 * them (modelckpt.c). */
int vxp_model__match_checkpoint(vxp_context *ctx, vxp_model_plan *p, const vxp_model_tensor *t,
                                size_t n);
/* Whether tensor `name` belongs to one of the architecture's modules. */
bool vxp_model__explains(const vxp_model_plan *p, const char *name);
/* The name of module `slot` ("model.layers.3.self_attn.q_proj"). */
void vxp_model__module_name(const vxp_model_plan *p, uint64_t slot, char *out, size_t size);

/* Bytes of `elems` elements of `bits` each, packed (ceil). */
static inline uint64_t vxp_model__bytes(uint64_t elems, unsigned bits) {
  return (uint64_t)(((u128)elems * bits + 7) / 8);
}

#endif /* VXP_MODELCFG_H */
