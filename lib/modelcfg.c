/* SPDX-License-Identifier: Apache-2.0 */
/* modelcfg.c - check a model configuration and work out its figures (modelcfg.h). Every
 * refusal names the config.json field or the option it comes from, so that the command
 * can say what to fix; nothing is written before the plan is complete. */
#include "modelcfg.h"

#define FAMILIES "llama, mistral, qwen2, mixtral"

const char *vxp_model_workload_name(vxp_model_workload workload) {
  switch (workload) {
  case VXP_WORKLOAD_DECODE: return "decode";
  case VXP_WORKLOAD_PREFILL: return "prefill";
  case VXP_WORKLOAD_TRAIN: return "train";
  }
  return NULL;
}

const char *vxp_model_optimizer_name(vxp_model_optimizer optimizer) {
  switch (optimizer) {
  case VXP_OPTIMIZER_ADAM: return "adam";
  case VXP_OPTIMIZER_SGD: return "sgd";
  }
  return NULL;
}

/* The element types a program may be written in, with their widths; the torch spellings of
 * config.json's torch_dtype map onto them. */
static const struct {
  const char *name, *torch;
  unsigned bits;
} dtypes[] = {
    {"f32", "float32", 32},
    {"f16", "float16", 16},
    {"bf16", "bfloat16", 16},
    {"f8e4m3", "float8_e4m3fn", 8},
    {"f8e5m2", "float8_e5m2", 8},
    {"i8", "int8", 8},
    {"u8", "uint8", 8},
    {"i4", NULL, 4},
    {"u4", NULL, 4},
    {"f4e2m1", NULL, 4},
};

static bool find_dtype(const char *text, const char **name, unsigned *bits) {
  for (size_t i = 0; i < VXP__ARRAY_LEN(dtypes); i++) {
    if (strcmp(text, dtypes[i].name) == 0 ||
        (dtypes[i].torch && strcmp(text, dtypes[i].torch) == 0)) {
      *name = dtypes[i].name;
      *bits = dtypes[i].bits;
      return true;
    }
  }
  return false;
}

/* a x b, refused above VXP__MODEL_LIMIT. */
static bool mul(uint64_t a, uint64_t b, uint64_t *out) {
  u128 p = (u128)a * b;
  if (p > VXP__MODEL_LIMIT) return false;
  *out = (uint64_t)p;
  return true;
}

static bool add(uint64_t a, uint64_t b, uint64_t *out) {
  if (a > VXP__MODEL_LIMIT || b > VXP__MODEL_LIMIT - a) return false;
  *out = a + b;
  return true;
}

static int too_large(vxp_context *ctx, const char *what, const char *fields) {
  return vxp_ctx__error(ctx, VXP_EINVAL,
                        "%s is too large: %s multiply to more than 2^56 elements (check %s)", what,
                        fields, fields);
}

static int positive(vxp_context *ctx, uint64_t value, const char *field) {
  if (value > 0) return VXP_OK;
  return vxp_ctx__error(ctx, VXP_EINVAL, "%s must be a positive integer (it is 0 or missing)",
                        field);
}

static int check_family(vxp_context *ctx, const vxp_model_config *c, vxp_model_plan *p) {
  static const struct {
    const char *name;
    vxp_model_family family;
  } families[] = {{"llama", VXP__FAMILY_LLAMA},
                  {"mistral", VXP__FAMILY_MISTRAL},
                  {"qwen2", VXP__FAMILY_QWEN2},
                  {"mixtral", VXP__FAMILY_MIXTRAL}};
  if (!c->model_type)
    return vxp_ctx__error(ctx, VXP_EINVAL, "model_type is missing (supported: " FAMILIES ")");
  for (size_t i = 0; i < VXP__ARRAY_LEN(families); i++) {
    if (strcmp(c->model_type, families[i].name) == 0) {
      p->family = families[i].family;
      p->model_type = families[i].name;
      return VXP_OK;
    }
  }
  return vxp_ctx__error(ctx, VXP_EINVAL,
                        "model_type '%.64s' is not a supported family (supported: " FAMILIES ")",
                        c->model_type);
}

/* The dimensions: present, positive, and dividing as attention needs them to. */
static int check_dimensions(vxp_context *ctx, const vxp_model_config *c, vxp_model_plan *p) {
  int rc;
  if ((rc = positive(ctx, c->hidden_size, "hidden_size")) ||
      (rc = positive(ctx, c->intermediate_size, "intermediate_size")) ||
      (rc = positive(ctx, c->num_hidden_layers, "num_hidden_layers")) ||
      (rc = positive(ctx, c->num_attention_heads, "num_attention_heads")) ||
      (rc = positive(ctx, c->vocab_size, "vocab_size")))
    return rc;
  p->layers = c->num_hidden_layers;
  p->hidden = c->hidden_size;
  p->ffn = c->intermediate_size;
  p->heads = c->num_attention_heads;
  p->vocab = c->vocab_size;
  p->kv_heads = c->num_key_value_heads ? c->num_key_value_heads : c->num_attention_heads;
  p->head_dim_given = c->head_dim != 0;
  if (c->head_dim) {
    p->head_dim = c->head_dim;
  } else {
    if (p->hidden % p->heads != 0)
      return vxp_ctx__error(ctx, VXP_EINVAL,
                            "num_attention_heads (%llu) does not divide hidden_size (%llu), and "
                            "no head_dim is given",
                            (unsigned long long)p->heads, (unsigned long long)p->hidden);
    p->head_dim = p->hidden / p->heads;
  }
  if (p->heads % p->kv_heads != 0)
    return vxp_ctx__error(ctx, VXP_EINVAL,
                          "num_key_value_heads (%llu) does not divide num_attention_heads (%llu): "
                          "grouped-query attention shares each key/value head among a whole "
                          "number of query heads",
                          (unsigned long long)p->kv_heads, (unsigned long long)p->heads);
  p->tied = c->tie_word_embeddings != 0;
  p->biases = p->family == VXP__FAMILY_QWEN2;
  p->moe = p->family == VXP__FAMILY_MIXTRAL;
  if (p->moe) {
    if ((rc = positive(ctx, c->num_local_experts, "num_local_experts")) ||
        (rc = positive(ctx, c->num_experts_per_tok, "num_experts_per_tok")))
      return rc;
    if (c->num_experts_per_tok > c->num_local_experts)
      return vxp_ctx__error(
          ctx, VXP_EINVAL, "num_experts_per_tok (%llu) is more than num_local_experts (%llu)",
          (unsigned long long)c->num_experts_per_tok, (unsigned long long)c->num_local_experts);
    p->experts = c->num_local_experts;
    p->active = c->num_experts_per_tok;
  }
  /* The window bounds the cache of the families whose attention slides; qwen2's optional
   * window (use_sliding_window, by layer) is not modelled: its cache is taken whole. */
  if (p->family == VXP__FAMILY_MISTRAL || p->family == VXP__FAMILY_MIXTRAL)
    p->window = c->sliding_window;
  return VXP_OK;
}

/* Every tensor of the architecture, counted. */
static int count_parameters(vxp_context *ctx, vxp_model_plan *p) {
  uint64_t q_kv_heads, t;
  /* q, k and v: HIDDEN x (HEADS + 2 KV_HEADS) x HEAD_DIM. */
  if (!add(p->heads, 2 * p->kv_heads, &q_kv_heads) || !mul(q_kv_heads, p->head_dim, &t) ||
      !mul(p->hidden, t, &p->qkv_elems))
    return too_large(ctx, "the attention", "hidden_size, num_attention_heads and head_dim");
  if (!mul(p->heads, p->head_dim, &t) || !mul(t, p->hidden, &p->o_elems))
    return too_large(ctx, "the attention", "hidden_size, num_attention_heads and head_dim");
  if (!mul(p->hidden, p->ffn, &t) || !mul(3, t, &p->mlp_elems) ||
      (p->moe && !mul(p->experts, p->mlp_elems, &p->mlp_elems)))
    return too_large(ctx, "the MLP", "hidden_size, intermediate_size and num_local_experts");
  p->norm_elems = 2 * p->hidden;
  p->bias_elems = 0;
  if (p->biases && !mul(q_kv_heads, p->head_dim, &p->bias_elems))
    return too_large(ctx, "the biases", "num_attention_heads and head_dim");
  p->router_elems = 0;
  if (p->moe && !mul(p->hidden, p->experts, &p->router_elems))
    return too_large(ctx, "the router", "hidden_size and num_local_experts");
  uint64_t layer = 0, embed_all;
  if (!add(p->qkv_elems, p->o_elems, &layer) || !add(layer, p->mlp_elems, &layer) ||
      !add(layer, p->norm_elems, &layer) || !add(layer, p->bias_elems, &layer) ||
      !add(layer, p->router_elems, &layer) || !mul(p->layers, layer, &p->layers_elems))
    return too_large(ctx, "the layers", "num_hidden_layers, hidden_size and intermediate_size");
  p->layer_elems = layer;
  p->final_norm = p->hidden;
  if (!mul(p->vocab, p->hidden, &p->embed_elems) ||
      !mul(p->tied ? 1 : 2, p->embed_elems, &embed_all) ||
      !add(p->layers_elems, embed_all, &p->params) || !add(p->params, p->final_norm, &p->params))
    return too_large(ctx, "the embeddings", "vocab_size and hidden_size");
  /* The weight tiles (the layer products are at most layers_elems, checked above). */
  const uint64_t elems[VXP__GROUP_COUNT] = {
      p->layers * p->qkv_elems, p->layers * p->bias_elems,
      p->layers * p->o_elems,   p->layers * p->router_elems,
      p->layers * p->mlp_elems, (2 * p->layers + 1) * p->hidden,
      p->embed_elems,           p->tied ? 0 : p->embed_elems};
  for (int g = 0; g < VXP__GROUP_COUNT; g++) {
    p->groups[g].present = elems[g] > 0;
    p->groups[g].elems = elems[g];
  }
  /* One token runs `active` of the experts: the rest of the MLP is resident but idle. */
  p->active_params = p->params;
  if (p->moe)
    p->active_params -= p->layers * (p->mlp_elems / p->experts) * (p->experts - p->active);
  return VXP_OK;
}

static int check_options(vxp_context *ctx, const vxp_model_config *c, const vxp_model_options *o,
                         vxp_model_plan *p) {
  if (!VXP__VERSION_OK(o->version, VXP_MODEL_OPTIONS_VERSION))
    return vxp_ctx__error(ctx, VXP_EVERSION, "vxp_model_options version %u is not supported",
                          o->version);
  p->workload = o->workload;
  if (!vxp_model_workload_name(o->workload))
    return vxp_ctx__error(ctx, VXP_EINVAL, "--workload must be decode, prefill or train");
  p->optimizer = o->optimizer ? o->optimizer : VXP_OPTIMIZER_ADAM;
  if (!vxp_model_optimizer_name(p->optimizer))
    return vxp_ctx__error(ctx, VXP_EINVAL, "--optimizer must be adam or sgd");
  p->batch = o->batch ? o->batch : 1;
  p->context = o->context ? o->context : 4096;
  if (p->batch > VXP__MODEL_LIMIT || p->context > VXP__MODEL_LIMIT)
    return vxp_ctx__error(ctx, VXP_EINVAL, "--%s is more than 2^56",
                          p->batch > VXP__MODEL_LIMIT ? "batch" : "context");
  p->fused = o->fused_attention != 0;
  p->checkpointing = o->checkpointing != 0;
  p->command = o->command;
  const char *dtype = o->dtype ? o->dtype : c->torch_dtype;
  if (!dtype)
    return vxp_ctx__error(ctx, VXP_EINVAL,
                          "torch_dtype is missing from the configuration: give --dtype");
  if (!find_dtype(dtype, &p->dtype, &p->dtype_bits))
    return vxp_ctx__error(ctx, VXP_EINVAL,
                          "%s '%.64s' is not a dtype vxpeak knows (f32, f16, bf16, f8e4m3, "
                          "f8e5m2, i8, u8, i4, u4, f4e2m1, or float32, float16, bfloat16)",
                          o->dtype ? "--dtype" : "torch_dtype", dtype);
  const char *kv = o->kv_dtype ? o->kv_dtype : p->dtype;
  if (!find_dtype(kv, &p->kv_dtype, &p->kv_bits))
    return vxp_ctx__error(ctx, VXP_EINVAL, "--kv-dtype '%.64s' is not a dtype vxpeak knows", kv);
  p->kv_tokens = p->window && p->window < p->context ? p->window : p->context;
  for (int g = 0; g < VXP__GROUP_COUNT; g++) {
    p->groups[g].dtype = p->dtype;
    p->groups[g].bits = p->dtype_bits;
  }
  /* The largest tiles the program will hold must stay within the limit too. */
  uint64_t t;
  if (!mul(p->batch, p->context, &t) || !mul(t, p->context, &t) || !mul(t, p->heads, &t) ||
      !mul(t, p->layers, &t) || !mul(p->batch, p->context, &t) || !mul(t, p->vocab, &t) ||
      !mul(t, p->layers, &t) || !mul(t, 4, &t))
    return too_large(ctx, "a tile of the program",
                     "--batch, --context, num_hidden_layers, num_attention_heads and vocab_size");
  uint64_t kv_width;
  if (!mul(p->kv_heads, p->head_dim, &kv_width) || !mul(kv_width, 2 * p->layers, &t) ||
      !mul(t, p->batch, &t) || !mul(t, p->context, &t) || !mul(t, 4, &t) || !mul(p->params, 16, &t))
    return too_large(ctx, "the KV cache or the optimizer state",
                     "--batch, --context, num_key_value_heads and head_dim");
  return VXP_OK;
}

int vxp_model__plan(vxp_context *ctx, const vxp_model_config *config, const vxp_model_options *opts,
                    vxp_model_plan *plan) {
  if (!config || !plan) return vxp_ctx__error(ctx, VXP_EINVAL, "vxp_model: a NULL argument");
  if (!VXP__VERSION_OK(config->version, VXP_MODEL_CONFIG_VERSION))
    return vxp_ctx__error(ctx, VXP_EVERSION, "vxp_model_config version %u is not supported",
                          config->version);
  memset(plan, 0, sizeof(*plan));
  plan->label = config->label;
  int rc;
  if ((rc = check_family(ctx, config, plan)) || (rc = check_dimensions(ctx, config, plan)) ||
      (rc = count_parameters(ctx, plan)))
    return rc;
  if (opts && (rc = check_options(ctx, config, opts, plan))) return rc;
  if (opts && opts->tensors) {
    plan->tensors = opts->tensors;
    plan->tensor_count = opts->tensor_count;
    if ((rc = vxp_model__match_checkpoint(ctx, plan, opts->tensors, opts->tensor_count))) return rc;
  }
  return VXP_OK;
}

int vxp_model_parameters(vxp_context *ctx, const vxp_model_config *config, uint64_t *out) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);

  vxp_ctx__begin(ctx);
  if (!out) return vxp_ctx__error(ctx, VXP_EINVAL, "vxp_model_parameters: a NULL argument");
  vxp_model_plan plan;
  int rc = vxp_model__plan(ctx, config, NULL, &plan);
  if (rc == VXP_OK) *out = plan.params;
  return rc;
}
