/* SPDX-License-Identifier: Apache-2.0 */
/* test_modelgen.c - vxp_model_generate and vxp_model_parameters: parameter counts as the
 * model cards publish them, and the generated programs analysed by the library itself, so
 * that the bytes of every role come from the analysis of the tiles, not from the generator's
 * own arithmetic. */
#include "support.h"

/* Published configurations (Hugging Face config.json, examples/models/). */
static vxp_model_config llama(uint64_t hidden, uint64_t ffn, uint64_t layers, uint64_t heads,
                              uint64_t kv_heads, uint64_t vocab, const char *dtype) {
  vxp_model_config c = VXP_MODEL_CONFIG_INIT;
  c.model_type = "llama";
  c.hidden_size = hidden;
  c.intermediate_size = ffn;
  c.num_hidden_layers = layers;
  c.num_attention_heads = heads;
  c.num_key_value_heads = kv_heads;
  c.vocab_size = vocab;
  c.torch_dtype = dtype;
  return c;
}

static vxp_model_config llama2_7b(void) { return llama(4096, 11008, 32, 32, 32, 32000, "float16"); }

static vxp_model_config mistral_7b(void) {
  vxp_model_config c = llama(4096, 14336, 32, 32, 8, 32000, "bfloat16");
  c.model_type = "mistral";
  c.sliding_window = 4096;
  return c;
}

static vxp_model_config qwen2_7b(void) {
  vxp_model_config c = llama(3584, 18944, 28, 28, 4, 152064, "bfloat16");
  c.model_type = "qwen2";
  return c;
}

static vxp_model_config mixtral_8x7b(void) {
  vxp_model_config c = llama(4096, 14336, 32, 32, 8, 32000, "bfloat16");
  c.model_type = "mixtral";
  c.num_local_experts = 8;
  c.num_experts_per_tok = 2;
  return c;
}

static uint64_t parameters(const vxp_model_config *c) {
  vxp_context *ctx = test_context();
  uint64_t n = 0;
  assert_int_equal(vxp_model_parameters(ctx, c, &n), VXP_OK);
  vxp_context_free(ctx);
  return n;
}

static void test_modelgen__parameter_counts_are_the_published_ones(void **state) {
  (void)state;
  vxp_model_config c = llama2_7b();
  assert_true(parameters(&c) == 6738415616u);
  c = llama(5120, 13824, 40, 40, 40, 32000, "float16"); /* Llama-2-13B */
  assert_true(parameters(&c) == 13015864320u);
  c = llama(8192, 28672, 80, 64, 8, 32000, "float16"); /* Llama-2-70B, grouped-query */
  assert_true(parameters(&c) == 68976648192u);
  c = llama(4096, 14336, 32, 32, 8, 128256, "bfloat16"); /* Llama-3-8B */
  assert_true(parameters(&c) == 8030261248u);
  c = mistral_7b();
  assert_true(parameters(&c) == 7241732096u);
  c = qwen2_7b(); /* the q, k, v biases are 28 x 4,608 of them */
  assert_true(parameters(&c) == 7615616512u);
  c = mixtral_8x7b();
  assert_true(parameters(&c) == 46702792704u);
  /* Tied embeddings count the table once (Qwen2-0.5B). */
  c = llama(896, 4864, 24, 14, 2, 151936, "bfloat16");
  c.model_type = "qwen2";
  c.tie_word_embeddings = 1;
  assert_true(parameters(&c) == 494032768u);
}

/* The program of `c` and `o`, analysed on `machine` (a built-in name) with `overrides`. */
typedef struct generated {
  test_sink text;
  test_run run;
} generated;

static generated generate(const vxp_model_config *c, const vxp_model_options *o,
                          const char *machine, const vxp_const_override *overrides,
                          size_t override_count) {
  generated g;
  memset(&g, 0, sizeof(g));
  vxp_context *ctx = test_context();
  assert_int_equal(vxp_model_generate(ctx, c, o, test_sink_write, &g.text), VXP_OK);
  vxp_context_free(ctx);
  test_run *r = &g.run;
  r->ctx = test_context();
  assert_int_equal(vxp_source_new(&r->src, r->ctx, "model.vx", g.text.text, g.text.len), VXP_OK);
  assert_int_equal(vxp_program_parse(&r->prog, r->ctx, r->src), VXP_OK);
  assert_int_equal(vxp_program_diagnostic_count(r->prog), 0);
  assert_int_equal(vxp_machine_builtin(&r->machine, r->ctx, machine), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&r->host, r->ctx, "host-default"), VXP_OK);
  vxp_analyze_options ao = VXP_ANALYZE_OPTIONS_INIT;
  ao.machine = r->machine;
  ao.host = r->host;
  ao.overrides = overrides;
  ao.override_count = override_count;
  assert_int_equal(vxp_analyze(&r->an, r->ctx, r->prog, &ao), VXP_OK);
  return g;
}

static void generated_done(generated *g) {
  test_done(&g->run);
  free(g->text.text);
}

/* The bytes of main's tiles whose role is `role`, as the analysis sized them. */
static uint64_t role_bytes(const generated *g, const char *role) {
  uint64_t sum = 0;
  const vxp_analysis *an = g->run.an;
  for (size_t i = 0; i < vxp_analysis_record_count(an); i++) {
    const vxp_record *rec = vxp_analysis_record(an, i);
    const char *r = vxp_record_role(rec);
    if (strcmp(vxp_record_function(rec), "main") == 0 && r && strcmp(r, role) == 0)
      sum += vxp_record_bytes(rec);
  }
  return sum;
}

/* 2 x layers x kv_heads x head_dim x bytes x batch x tokens: the KV formula. */
static uint64_t kv_formula(uint64_t layers, uint64_t kv_heads, uint64_t head_dim, uint64_t bytes,
                           uint64_t batch, uint64_t tokens) {
  return 2 * layers * kv_heads * head_dim * bytes * batch * tokens;
}

static void test_modelgen__roles_hold_the_parameter_and_kv_bytes_of_every_family(void **state) {
  (void)state;
  const vxp_model_config configs[] = {llama2_7b(), mistral_7b(), qwen2_7b(), mixtral_8x7b()};
  for (size_t i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
    const vxp_model_config *c = &configs[i];
    vxp_model_options o = VXP_MODEL_OPTIONS_INIT;
    o.batch = 3;
    o.context = 1024;
    generated g = generate(c, &o, "h200", NULL, 0);
    uint64_t p = parameters(c);
    assert_true(role_bytes(&g, "layer weights") + role_bytes(&g, "embeddings") == 2 * p);
    uint64_t head_dim = c->hidden_size / c->num_attention_heads;
    assert_true(role_bytes(&g, "KV cache") ==
                kv_formula(c->num_hidden_layers, c->num_key_value_heads, head_dim, 2, 3, 1024));
    assert_true(role_bytes(&g, "gradients") == 0);
    generated_done(&g);
  }
}

static void test_modelgen__batch_override_moves_the_kv_cache_as_the_formula_says(void **state) {
  (void)state;
  vxp_model_config c = llama2_7b();
  vxp_model_options o = VXP_MODEL_OPTIONS_INIT;
  const vxp_const_override batch = {"BATCH", 5};
  generated g = generate(&c, &o, "h200", &batch, 1);
  assert_true(role_bytes(&g, "KV cache") == kv_formula(32, 32, 128, 2, 5, 4096));
  generated_done(&g);
}

static void test_modelgen__sliding_window_bounds_the_kv_cache(void **state) {
  (void)state;
  vxp_model_config c = mistral_7b();
  vxp_model_options o = VXP_MODEL_OPTIONS_INIT;
  o.context = 16384;
  generated g = generate(&c, &o, "h200", NULL, 0);
  assert_true(role_bytes(&g, "KV cache") == kv_formula(32, 8, 128, 2, 1, 4096));
  generated_done(&g);
  /* -D CONTEXT below the window: the cache follows it. */
  const vxp_const_override context = {"CONTEXT", 1000};
  g = generate(&c, &o, "h200", &context, 1);
  assert_true(role_bytes(&g, "KV cache") == kv_formula(32, 8, 128, 2, 1, 1000));
  generated_done(&g);
}

static void test_modelgen__kv_dtype_sets_the_cache_alone(void **state) {
  (void)state;
  vxp_model_config c = llama2_7b();
  vxp_model_options o = VXP_MODEL_OPTIONS_INIT;
  o.kv_dtype = "f8e4m3";
  generated g = generate(&c, &o, "h200", NULL, 0);
  assert_true(role_bytes(&g, "KV cache") == kv_formula(32, 32, 128, 1, 1, 4096));
  assert_true(role_bytes(&g, "layer weights") + role_bytes(&g, "embeddings") == 2 * 6738415616u);
  generated_done(&g);
}

static void test_modelgen__train_keeps_gradients_and_adam_state_by_role(void **state) {
  (void)state;
  vxp_model_config c = qwen2_7b();
  vxp_model_options o = VXP_MODEL_OPTIONS_INIT;
  o.workload = VXP_WORKLOAD_TRAIN;
  o.context = 512;
  generated g = generate(&c, &o, "mi300x", NULL, 0);
  uint64_t p = 7615616512u;
  assert_true(role_bytes(&g, "gradients") == 2 * p);
  assert_true(role_bytes(&g, "optimizer state") == 12 * p);
  assert_true(role_bytes(&g, "KV cache") == 0);
  assert_true(role_bytes(&g, "activations") > 0);
  generated_done(&g);
  /* SGD keeps the master copy and no moments; in f32 the weights are their own master. */
  o.optimizer = VXP_OPTIMIZER_SGD;
  g = generate(&c, &o, "mi300x", NULL, 0);
  assert_true(role_bytes(&g, "optimizer state") == 4 * p);
  generated_done(&g);
  o.optimizer = VXP_OPTIMIZER_ADAM;
  o.dtype = "f32";
  g = generate(&c, &o, "mi300x", NULL, 0);
  assert_true(role_bytes(&g, "optimizer state") == 8 * p);
  assert_true(role_bytes(&g, "gradients") == 4 * p);
  generated_done(&g);
}

static void test_modelgen__checkpointing_keeps_less_than_every_activation(void **state) {
  (void)state;
  vxp_model_config c = llama2_7b();
  vxp_model_options o = VXP_MODEL_OPTIONS_INIT;
  o.workload = VXP_WORKLOAD_TRAIN;
  o.context = 1024;
  generated all = generate(&c, &o, "mi300x", NULL, 0);
  o.checkpointing = 1;
  generated some = generate(&c, &o, "mi300x", NULL, 0);
  const vxp_resident_set *a = test_resident(all.run.an, "main", "HBM");
  const vxp_resident_set *s = test_resident(some.run.an, "main", "HBM");
  assert_non_null(a);
  assert_non_null(s);
  assert_true(vxp_resident_set_peak_bytes(s) < vxp_resident_set_peak_bytes(a));
  generated_done(&all);
  generated_done(&some);
}

static void test_modelgen__prefill_holds_one_layer_of_activations_at_a_time(void **state) {
  (void)state;
  vxp_model_config c = llama2_7b();
  vxp_model_options o = VXP_MODEL_OPTIONS_INIT;
  o.workload = VXP_WORKLOAD_PREFILL;
  generated g = generate(&c, &o, "a100-40", NULL, 0);
  const vxp_resident_set *rs = test_resident(g.run.an, "main", "HBM");
  assert_non_null(rs);
  uint64_t resident =
      role_bytes(&g, "layer weights") + role_bytes(&g, "embeddings") + role_bytes(&g, "KV cache");
  /* Layer activations at 4096 tokens: normed, q/k/v, scores (32 x 4096 x 4096), attention
   * output, gate and up; plus the residual stream and the logits held through the run. */
  uint64_t tokens = 4096, layer = 2 * tokens * (4096 + 3 * 4096 + 32 * tokens + 4096 + 2 * 11008);
  uint64_t held = 2 * (tokens * 4096 + 32000);
  assert_true(vxp_resident_set_peak_bytes(rs) == resident + held + layer);
  assert_true(vxp_analysis_admitted(g.run.an));
  generated_done(&g);
  /* A fused attention holds no scores. */
  o.fused_attention = 1;
  g = generate(&c, &o, "a100-40", NULL, 0);
  rs = test_resident(g.run.an, "main", "HBM");
  assert_true(vxp_resident_set_peak_bytes(rs) ==
              resident + held + layer - 2 * 32 * tokens * tokens);
  generated_done(&g);
}

static void test_modelgen__moe_weights_decide_the_machine(void **state) {
  (void)state;
  vxp_model_config c = mixtral_8x7b();
  vxp_model_options o = VXP_MODEL_OPTIONS_INIT;
  generated small = generate(&c, &o, "a100-80", NULL, 0);
  assert_false(vxp_analysis_admitted(small.run.an));
  generated_done(&small);
  generated big = generate(&c, &o, "h200", NULL, 0);
  assert_true(vxp_analysis_admitted(big.run.an));
  generated_done(&big);
}

/* The compulsory bytes the decode step reads from buffer `name`. */
static uint64_t step_reads(const generated *g, const char *name) {
  vxp_roofline *rf = NULL;
  assert_int_equal(vxp_roofline_new(&rf, g->run.ctx, g->run.an, "main"), VXP_OK);
  uint64_t bytes = UINT64_MAX;
  for (size_t i = 0; i < vxp_roofline_buffer_count(rf); i++)
    if (strcmp(vxp_roofline_buffer_name(rf, i), name) == 0)
      bytes = vxp_roofline_buffer_bytes(rf, i, VXP_TRAFFIC_COMPULSORY, NULL);
  vxp_roofline_free(rf);
  return bytes;
}

static void test_modelgen__moe_decode_reads_the_active_experts_at_batch_one(void **state) {
  (void)state;
  vxp_model_config c = mixtral_8x7b();
  vxp_model_options o = VXP_MODEL_OPTIONS_INIT;
  generated g = generate(&c, &o, "h200", NULL, 0);
  uint64_t expert = 3 * 4096 * 14336 * 2; /* one expert's bytes in bf16 */
  assert_true(step_reads(&g, "experts") == 32 * 2 * expert);
  assert_true(step_reads(&g, "kv") == role_bytes(&g, "KV cache"));
  generated_done(&g);
  /* At batch 3, six picks a layer out of 8 experts; at batch 8, every expert. */
  const vxp_const_override b3 = {"BATCH", 3}, b8 = {"BATCH", 8};
  g = generate(&c, &o, "h200", &b3, 1);
  assert_true(step_reads(&g, "experts") == 32 * 6 * expert);
  generated_done(&g);
  g = generate(&c, &o, "h200", &b8, 1);
  assert_true(step_reads(&g, "experts") == 32 * 8 * expert);
  generated_done(&g);
}

static void test_modelgen__llama3_8b_matches_vllm_published_figures(void **state) {
  (void)state;
  /* vllm-project/vllm#12330 (A100-40): 14.96 GiB of weights, 128 KiB of KV cache a token. */
  vxp_model_config c = llama(4096, 14336, 32, 32, 8, 128256, "bfloat16");
  vxp_model_options o = VXP_MODEL_OPTIONS_INIT;
  o.context = 1;
  generated g = generate(&c, &o, "h200", NULL, 0);
  uint64_t weights = role_bytes(&g, "layer weights") + role_bytes(&g, "embeddings");
  assert_true(weights * 100 / (1ull << 30) == 1495); /* 14.957 GiB */
  assert_true(role_bytes(&g, "KV cache") == 128 * 1024);
  generated_done(&g);
}

/* `c` and `o` refused with VXP_EINVAL, the message holding `field`, nothing written. */
static void assert_refused(const vxp_model_config *c, const vxp_model_options *o,
                           const char *field) {
  vxp_context *ctx = test_context();
  test_sink sink;
  memset(&sink, 0, sizeof(sink));
  assert_int_equal(vxp_model_generate(ctx, c, o, test_sink_write, &sink), VXP_EINVAL);
  if (!strstr(vxp_context_errmsg(ctx), field))
    fail_msg("'%s' lacks '%s'", vxp_context_errmsg(ctx), field);
  assert_int_equal(sink.pieces, 0);
  vxp_context_free(ctx);
}

static void test_modelgen__bad_configurations_name_the_field_and_write_nothing(void **state) {
  (void)state;
  vxp_model_options o = VXP_MODEL_OPTIONS_INIT;
  vxp_model_config c = llama2_7b();
  c.hidden_size = 0;
  assert_refused(&c, &o, "hidden_size");
  c = llama2_7b();
  c.model_type = "gpt2";
  assert_refused(&c, &o, "llama, mistral, qwen2, mixtral");
  c.model_type = NULL;
  assert_refused(&c, &o, "model_type");
  c = llama2_7b();
  c.num_attention_heads = 30; /* 4096 / 30 is not whole */
  assert_refused(&c, &o, "num_attention_heads (30) does not divide hidden_size");
  c = llama2_7b();
  c.num_key_value_heads = 5;
  assert_refused(&c, &o, "num_key_value_heads (5)");
  c = llama2_7b();
  c.vocab_size = (uint64_t)1 << 60; /* the embedding table passes 2^56 elements */
  assert_refused(&c, &o, "vocab_size");
  c = llama2_7b();
  c.intermediate_size = UINT64_MAX;
  assert_refused(&c, &o, "intermediate_size");
  c = mixtral_8x7b();
  c.num_experts_per_tok = 9;
  assert_refused(&c, &o, "num_experts_per_tok (9)");
  c.num_local_experts = 0;
  assert_refused(&c, &o, "num_local_experts");
  c = llama2_7b();
  c.torch_dtype = NULL;
  assert_refused(&c, &o, "torch_dtype");
  c.torch_dtype = "int3";
  assert_refused(&c, &o, "torch_dtype 'int3'");
  c = llama2_7b();
  o.dtype = "f12";
  assert_refused(&c, &o, "--dtype 'f12'");
  o = (vxp_model_options)VXP_MODEL_OPTIONS_INIT;
  o.batch = (uint64_t)1 << 40;
  o.context = (uint64_t)1 << 30;
  assert_refused(&c, &o, "--batch");
}

static void test_modelgen__a_refusing_writer_is_an_io_error(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  vxp_model_config c = llama2_7b();
  vxp_model_options o = VXP_MODEL_OPTIONS_INIT;
  test_sink sink;
  memset(&sink, 0, sizeof(sink));
  sink.refuse_at = 1;
  assert_int_equal(vxp_model_generate(ctx, &c, &o, test_sink_write, &sink), VXP_EIO);
  assert_int_equal(vxp_model_generate(ctx, &c, &o, NULL, NULL), VXP_EINVAL);
  c.version = 99;
  assert_int_equal(vxp_model_generate(ctx, &c, &o, test_sink_write, &sink), VXP_EVERSION);
  vxp_context_free(ctx);
  free(sink.text);
}

/* A tiny llama: hidden 8, MLP 16, 2 layers, 2 heads, vocabulary 32. */
static vxp_model_config tiny(void) { return llama(8, 16, 2, 2, 2, 32, "float16"); }

/* Its checkpoint in F16, every module, with layer 0's q_proj quantized (a packed I32
 * qweight of 8 x 8 / 8 words and F16 scales) and one tensor it does not have. */
static size_t tiny_tensors(vxp_model_tensor *t, char names[][64]) {
  size_t n = 0;
#define T(NAME, DTYPE, BYTES)                                                                      \
  do {                                                                                             \
    snprintf(names[n], 64, "%s", NAME);                                                            \
    t[n].name = names[n];                                                                          \
    t[n].dtype = DTYPE;                                                                            \
    t[n].bytes = BYTES;                                                                            \
    n++;                                                                                           \
  } while (0)
  T("model.embed_tokens.weight", "F16", 32 * 8 * 2);
  T("lm_head.weight", "F16", 32 * 8 * 2);
  T("model.norm.weight", "F16", 8 * 2);
  T("model.rotary_emb.inv_freq", "F32", 4 * 4);
  for (int l = 0; l < 2; l++) {
    char p[64];
    static const char *const attn[] = {"q_proj", "k_proj", "v_proj", "o_proj"};
    static const char *const mlp[] = {"gate_proj", "up_proj", "down_proj"};
    for (int m = 0; m < 4; m++) {
      if (l == 0 && m == 0) {
        T("model.layers.0.self_attn.q_proj.qweight", "I32", 8 * 8 / 2);
        T("model.layers.0.self_attn.q_proj.scales", "F16", 8 * 2);
        continue;
      }
      snprintf(p, sizeof(p), "model.layers.%d.self_attn.%s.weight", l, attn[m]);
      T(p, "F16", 8 * 8 * 2);
    }
    for (int m = 0; m < 3; m++) {
      snprintf(p, sizeof(p), "model.layers.%d.mlp.%s.weight", l, mlp[m]);
      T(p, "F16", 8 * 16 * 2);
    }
    snprintf(p, sizeof(p), "model.layers.%d.input_layernorm.weight", l);
    T(p, "F16", 8 * 2);
    if (l == 0) { /* layer 1 has no post_attention_layernorm: a missing module */
      snprintf(p, sizeof(p), "model.layers.%d.post_attention_layernorm.weight", l);
      T(p, "F16", 8 * 2);
    }
  }
#undef T
  return n;
}

static void test_modelgen__checkpoint_bytes_come_from_the_tensors(void **state) {
  (void)state;
  vxp_model_tensor t[64];
  char names[64][64];
  size_t n = tiny_tensors(t, names);
  uint64_t all = 0, rotary = 16;
  for (size_t i = 0; i < n; i++)
    all += t[i].bytes;
  vxp_model_config c = tiny();
  vxp_context *ctx = test_context();
  uint64_t explained = 0;
  size_t unexplained = 0, missing = 0;
  assert_int_equal(vxp_model_checkpoint(ctx, &c, t, n, &explained, &unexplained, &missing), VXP_OK);
  assert_true(explained == all - rotary);
  assert_int_equal(unexplained, 1);
  assert_int_equal(missing, 1);
  vxp_context_free(ctx);
  /* The program places exactly the explained bytes: the quantized q/k/v tile as its bytes,
   * the others in their F16 shapes. */
  vxp_model_options o = VXP_MODEL_OPTIONS_INIT;
  o.tensors = t;
  o.tensor_count = n;
  generated g = generate(&c, &o, "a100-40", NULL, 0);
  assert_true(role_bytes(&g, "layer weights") + role_bytes(&g, "embeddings") == explained);
  assert_non_null(strstr(g.text.text, "Tensor<u8, ["));
  assert_non_null(strstr(g.text.text, "model.rotary_emb.inv_freq"));
  assert_non_null(strstr(g.text.text, "model.layers.1.post_attention_layernorm"));
  assert_true(vxp_analysis_admitted(g.run.an));
  generated_done(&g);
}

static void test_modelgen__checkpoint_names_match_only_the_architecture(void **state) {
  (void)state;
  vxp_model_config c = tiny();
  const vxp_model_tensor odd[] = {
      {"model.layers.2.self_attn.q_proj.weight", "F16", 2},  /* no layer 2 */
      {"model.layers.01.self_attn.q_proj.weight", "F16", 2}, /* not how an index is written */
      {"model.layers.0.self_attn.q_proj.", "F16", 2},        /* nothing after the module */
      {"model.layers.0.self_attn.q_proj.bias", "F16", 2},    /* llama has no biases */
      {"model.layers.0.block_sparse_moe.gate.weight", "F16", 2},
      {"model.layers.0.mlp.up_proj.weight", "F16", 2}, /* this one belongs */
  };
  vxp_context *ctx = test_context();
  uint64_t explained = 0;
  size_t unexplained = 0;
  assert_int_equal(vxp_model_checkpoint(ctx, &c, odd, 6, &explained, &unexplained, NULL), VXP_OK);
  assert_int_equal(unexplained, 5);
  assert_true(explained == 2);
  /* qwen2 has the biases; a tied model has no lm_head of its own. */
  c.model_type = "qwen2";
  c.tie_word_embeddings = 1;
  const vxp_model_tensor more[] = {{"model.layers.0.self_attn.q_proj.bias", "F16", 2},
                                   {"lm_head.weight", "F16", 2}};
  assert_int_equal(vxp_model_checkpoint(ctx, &c, more, 2, &explained, &unexplained, NULL), VXP_OK);
  assert_int_equal(unexplained, 1);
  assert_true(explained == 2);
  const vxp_model_tensor nameless[] = {{NULL, "F16", 2}};
  assert_int_equal(vxp_model_checkpoint(ctx, &c, nameless, 1, NULL, NULL, NULL), VXP_EINVAL);
  vxp_context_free(ctx);
}

/* An allocator that refuses allocation number `fail_at` and counts the live blocks. */
typedef struct refusing {
  size_t calls, fail_at, live;
} refusing;

static void *refusing_malloc(size_t size, void *ud) {
  refusing *r = ud;
  if (r->calls++ == r->fail_at) return NULL;
  r->live++;
  return malloc(size);
}
static void *refusing_realloc(void *ptr, size_t size, void *ud) {
  refusing *r = ud;
  if (!ptr) return refusing_malloc(size, ud);
  if (r->calls++ == r->fail_at) return NULL;
  return realloc(ptr, size);
}
static void refusing_free(void *ptr, void *ud) {
  refusing *r = ud;
  if (ptr) r->live--;
  free(ptr);
}

static void sweep_allocations(const vxp_model_config *cp, const vxp_model_options *op) {
  vxp_model_config c = *cp;
  vxp_model_options o = *op;
  size_t failures = 0;
  for (size_t n = 0;; n++) {
    refusing r = {0, n, 0};
    vxp_allocator alloc = {refusing_malloc, refusing_realloc, refusing_free, &r};
    vxp_context_options co = VXP_CONTEXT_OPTIONS_INIT;
    co.allocator = &alloc;
    vxp_context *ctx = NULL;
    if (vxp_context_new(&ctx, &co) != VXP_OK) {
      failures++;
      assert_int_equal(r.live, 0);
      continue;
    }
    test_sink sink;
    memset(&sink, 0, sizeof(sink));
    int rc = vxp_model_generate(ctx, &c, &o, test_sink_write, &sink);
    vxp_context_free(ctx);
    assert_int_equal(r.live, 0);
    free(sink.text);
    if (r.calls <= n) { /* nothing was refused: the sweep is over */
      assert_int_equal(rc, VXP_OK);
      break;
    }
    assert_int_equal(rc, VXP_ENOMEM);
    assert_int_equal(sink.pieces, 0);
    failures++;
  }
  assert_true(failures > 1);
}

static void test_modelgen__every_allocation_failure_is_enomem_with_nothing_written(void **state) {
  (void)state;
  vxp_model_config c = mixtral_8x7b();
  vxp_model_options o = VXP_MODEL_OPTIONS_INIT;
  o.workload = VXP_WORKLOAD_PREFILL;
  sweep_allocations(&c, &o);
  /* With a checkpoint: its module bitmap is allocated too. */
  vxp_model_tensor t[64];
  char names[64][64];
  c = tiny();
  o.tensors = t;
  o.tensor_count = tiny_tensors(t, names);
  sweep_allocations(&c, &o);
}

static void test_modelgen__names_of_the_closed_sets(void **state) {
  (void)state;
  assert_string_equal(vxp_model_workload_name(VXP_WORKLOAD_PREFILL), "prefill");
  assert_string_equal(vxp_model_optimizer_name(VXP_OPTIMIZER_SGD), "sgd");
  assert_null(vxp_model_workload_name((vxp_model_workload)0));
  assert_null(vxp_model_optimizer_name((vxp_model_optimizer)7));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_modelgen__parameter_counts_are_the_published_ones),
      cmocka_unit_test(test_modelgen__roles_hold_the_parameter_and_kv_bytes_of_every_family),
      cmocka_unit_test(test_modelgen__batch_override_moves_the_kv_cache_as_the_formula_says),
      cmocka_unit_test(test_modelgen__sliding_window_bounds_the_kv_cache),
      cmocka_unit_test(test_modelgen__kv_dtype_sets_the_cache_alone),
      cmocka_unit_test(test_modelgen__train_keeps_gradients_and_adam_state_by_role),
      cmocka_unit_test(test_modelgen__checkpointing_keeps_less_than_every_activation),
      cmocka_unit_test(test_modelgen__prefill_holds_one_layer_of_activations_at_a_time),
      cmocka_unit_test(test_modelgen__moe_weights_decide_the_machine),
      cmocka_unit_test(test_modelgen__moe_decode_reads_the_active_experts_at_batch_one),
      cmocka_unit_test(test_modelgen__llama3_8b_matches_vllm_published_figures),
      cmocka_unit_test(test_modelgen__bad_configurations_name_the_field_and_write_nothing),
      cmocka_unit_test(test_modelgen__a_refusing_writer_is_an_io_error),
      cmocka_unit_test(test_modelgen__checkpoint_bytes_come_from_the_tensors),
      cmocka_unit_test(test_modelgen__checkpoint_names_match_only_the_architecture),
      cmocka_unit_test(test_modelgen__every_allocation_failure_is_enomem_with_nothing_written),
      cmocka_unit_test(test_modelgen__names_of_the_closed_sets),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
