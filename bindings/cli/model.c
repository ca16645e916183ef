/* SPDX-License-Identifier: Apache-2.0 */
/* model.c - `vxpeak model CONFIG.json`: read a Hugging Face config.json with jansson, check
 * the type of every field the programs use, and hand the values to vxp_model_generate,
 * which checks the values and writes the program. A refused configuration writes nothing
 * (the output file is opened at the first byte) and exits 2 with the field named. */
#include <errno.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"

#define FAMILIES "llama, mistral, qwen2, mixtral"

static int config_error(const char *file, const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "vxpeak model: %s: ", file);
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  return VXPEAK_EXIT_USAGE;
}

/* A size field: absent (allowed unless `required`, *out left 0), or a positive integer. */
static int read_size(const char *file, json_t *root, const char *field, bool required,
                     uint64_t *out) {
  json_t *v = json_object_get(root, field);
  if (!v || json_is_null(v)) {
    if (!required) return VXPEAK_EXIT_OK;
    return config_error(file, "the field '%s' is missing (a positive integer)%s", field, "");
  }
  if (!json_is_integer(v))
    return config_error(file, "the field '%s' must be a positive integer, not %s", field,
                        json_is_string(v)    ? "a string"
                        : json_is_real(v)    ? "a number with a fraction"
                        : json_is_boolean(v) ? "a boolean"
                                             : "an array or object");
  json_int_t n = json_integer_value(v);
  if (n <= 0)
    return config_error(file, "the field '%s' must be a positive integer, not %s", field,
                        n == 0 ? "0" : "a negative number");
  *out = (uint64_t)n;
  return VXPEAK_EXIT_OK;
}

static int read_string(const char *file, json_t *root, const char *field, const char **out) {
  json_t *v = json_object_get(root, field);
  if (!v || json_is_null(v)) return VXPEAK_EXIT_OK;
  if (!json_is_string(v)) return config_error(file, "the field '%s' must be a string%s", field, "");
  *out = json_string_value(v);
  return VXPEAK_EXIT_OK;
}

/* An integer too large for jansson fails the whole parse without naming its field: parse
 * again with integers read as reals to say which it is. */
static int name_big_integer(const char *file, const char *text, size_t len) {
  json_error_t err;
  json_t *root = json_loadb(text, len, JSON_DECODE_INT_AS_REAL, &err);
  const char *key = NULL;
  json_t *v;
  if (root && json_is_object(root)) {
    json_object_foreach(root, key, v) {
      if (json_is_real(v) && (json_real_value(v) > 9.2e18 || json_real_value(v) < -9.2e18)) break;
    }
  }
  int rc = config_error(file, "the field '%s' is an integer too large for 64 bits%s",
                        key ? key : "?", "");
  json_decref(root);
  return rc;
}

static int read_config(const char *file, json_t *root, vxp_model_config *c) {
  int rc;
  if (!json_is_object(root)) return config_error(file, "not a JSON object%s%s", "", "");
  json_t *type = json_object_get(root, "model_type");
  if (!type)
    return config_error(file, "the field 'model_type' is missing (supported: %s)%s", FAMILIES, "");
  if (!json_is_string(type))
    return config_error(file, "the field 'model_type' must be a string (supported: %s)%s", FAMILIES,
                        "");
  c->model_type = json_string_value(type);
  if ((rc = read_size(file, root, "hidden_size", true, &c->hidden_size)) ||
      (rc = read_size(file, root, "intermediate_size", true, &c->intermediate_size)) ||
      (rc = read_size(file, root, "num_hidden_layers", true, &c->num_hidden_layers)) ||
      (rc = read_size(file, root, "num_attention_heads", true, &c->num_attention_heads)) ||
      (rc = read_size(file, root, "vocab_size", true, &c->vocab_size)) ||
      (rc = read_size(file, root, "num_key_value_heads", false, &c->num_key_value_heads)) ||
      (rc = read_size(file, root, "head_dim", false, &c->head_dim)) ||
      (rc = read_size(file, root, "sliding_window", false, &c->sliding_window)))
    return rc;
  bool moe = strcmp(c->model_type, "mixtral") == 0;
  if ((rc = read_size(file, root, "num_local_experts", moe, &c->num_local_experts)) ||
      (rc = read_size(file, root, "num_experts_per_tok", moe, &c->num_experts_per_tok)))
    return rc;
  /* Newer transformers write `dtype`; older ones `torch_dtype`. */
  if ((rc = read_string(file, root, "torch_dtype", &c->torch_dtype))) return rc;
  if (!c->torch_dtype && (rc = read_string(file, root, "dtype", &c->torch_dtype))) return rc;
  json_t *tie = json_object_get(root, "tie_word_embeddings");
  if (tie && !json_is_null(tie)) {
    if (!json_is_boolean(tie))
      return config_error(file, "the field '%s' must be true or false%s", "tie_word_embeddings",
                          "");
    c->tie_word_embeddings = json_is_true(tie);
  }
  /* Tensors the programs do not have: refused rather than left out of an exact count. */
  static const char *const unmodelled[] = {"attention_bias", "mlp_bias"};
  for (size_t i = 0; i < sizeof(unmodelled) / sizeof(unmodelled[0]); i++) {
    if (json_is_true(json_object_get(root, unmodelled[i])) && strcmp(c->model_type, "qwen2") != 0)
      return config_error(file, "the field '%s' is true: those biases are not modelled for %s",
                          unmodelled[i], c->model_type);
  }
  return VXPEAK_EXIT_OK;
}

static int read_file(const char *file, char **text, size_t *len) {
  FILE *f = fopen(file, "rb");
  if (!f) {
    fprintf(stderr, "vxpeak model: cannot read '%s': %s\n", file, strerror(errno));
    return VXPEAK_EXIT_USAGE;
  }
  /* A config.json is a few kilobytes: anything past 16 MiB is not one. */
  enum { LIMIT = 16 << 20 };
  char *buf = malloc(LIMIT + 1);
  size_t n = buf ? fread(buf, 1, LIMIT + 1, f) : 0;
  bool failed = !buf || ferror(f);
  fclose(f);
  if (failed || n > LIMIT) {
    free(buf);
    fprintf(stderr, "vxpeak model: cannot read '%s': %s\n", file,
            failed ? "read error or out of memory" : "larger than 16 MiB");
    return VXPEAK_EXIT_USAGE;
  }
  *text = buf;
  *len = n;
  return VXPEAK_EXIT_OK;
}

/* The command line, quoted in the program's header so that it can be made again. */
static void command_line(const vxpeak_args *a, char *out, size_t size) {
  int n = snprintf(out, size, "vxpeak model %s --workload %s", a->file,
                   a->workload ? a->workload : "decode");
  char more[512] = "";
  size_t o = 0;
#define MORE(...)                                                                                  \
  o += (size_t)snprintf(more + o, o < sizeof(more) ? sizeof(more) - o : 0, __VA_ARGS__)
  if (a->model_batch) MORE(" --batch %llu", (unsigned long long)a->model_batch);
  if (a->model_context) MORE(" --context %llu", (unsigned long long)a->model_context);
  if (a->dtype) MORE(" --dtype %s", a->dtype);
  if (a->kv_dtype) MORE(" --kv-dtype %s", a->kv_dtype);
  if (a->optimizer) MORE(" --optimizer %s", a->optimizer);
  if (a->fused_attention) MORE(" --fused-attention");
  if (a->checkpointing) MORE(" --checkpointing");
  if (a->weights) MORE(" --weights %s", a->weights);
#undef MORE
  if (n > 0 && (size_t)n < size) snprintf(out + n, size - (size_t)n, "%s", more);
}

/* What the checkpoint leaves unexplained or misses, said on stderr too (the program's header
 * lists them): the program is written either way. */
static void warn_checkpoint(vxp_context *ctx, const vxp_model_config *c, const vxpeak_tensors *t,
                            const char *weights) {
  uint64_t explained = 0;
  size_t unexplained = 0, missing = 0;
  if (vxp_model_checkpoint(ctx, c, t->items, t->count, &explained, &unexplained, &missing) !=
      VXP_OK)
    return;
  if (unexplained)
    fprintf(stderr,
            "vxpeak model: warning: %s: %zu tensor%s the %s architecture does not explain "
            "(listed in the program's header)\n",
            weights, unexplained, unexplained == 1 ? "" : "s", c->model_type);
  if (missing)
    fprintf(stderr,
            "vxpeak model: warning: %s: %zu module%s of the architecture with no tensor "
            "(the first in the program's header)\n",
            weights, missing, missing == 1 ? "" : "s");
}

int vxpeak_model(const vxpeak_args *args) {
  const char *file = args->file;
  vxp_model_options o = VXP_MODEL_OPTIONS_INIT;
  if (args->workload) {
    o.workload = strcmp(args->workload, "decode") == 0    ? VXP_WORKLOAD_DECODE
                 : strcmp(args->workload, "prefill") == 0 ? VXP_WORKLOAD_PREFILL
                 : strcmp(args->workload, "train") == 0   ? VXP_WORKLOAD_TRAIN
                                                          : 0;
  }
  if (args->optimizer)
    o.optimizer = strcmp(args->optimizer, "adam") == 0  ? VXP_OPTIMIZER_ADAM
                  : strcmp(args->optimizer, "sgd") == 0 ? VXP_OPTIMIZER_SGD
                                                        : 0;
  o.batch = args->model_batch;
  o.context = args->model_context;
  o.dtype = args->dtype;
  o.kv_dtype = args->kv_dtype;
  o.fused_attention = args->fused_attention;
  o.checkpointing = args->checkpointing;
  char command[1024];
  command_line(args, command, sizeof(command));
  o.command = command;

  char *text = NULL;
  size_t len = 0;
  vxpeak_tensors tensors = {0};
  int exit_code = read_file(file, &text, &len);
  if (exit_code != VXPEAK_EXIT_OK) return exit_code;
  if (args->weights) {
    if ((exit_code = vxpeak_tensors_read(args->weights, &tensors)) != VXPEAK_EXIT_OK) {
      vxpeak_tensors_free(&tensors);
      free(text);
      return exit_code;
    }
    o.tensors = tensors.items;
    o.tensor_count = tensors.count;
  }
  json_error_t err;
  json_t *root = json_loadb(text, len, 0, &err);
  vxp_context *ctx = NULL;
  if (!root) {
    exit_code = strstr(err.text, "too big integer")
                    ? name_big_integer(file, text, len)
                    : (fprintf(stderr, "vxpeak model: %s:%d:%d: not valid JSON: %s\n", file,
                               err.line, err.column, err.text),
                       VXPEAK_EXIT_USAGE);
    goto done;
  }
  vxp_model_config c = VXP_MODEL_CONFIG_INIT;
  c.label = file;
  if ((exit_code = read_config(file, root, &c)) != VXPEAK_EXIT_OK) goto done;
  if (vxp_context_new(&ctx, NULL) != VXP_OK) {
    fprintf(stderr, "vxpeak model: out of memory\n");
    exit_code = VXPEAK_EXIT_USAGE;
    goto done;
  }
  vxpeak_out_file out;
  vxpeak_out_file_init(&out, args->output ? args->output : "-");
  int rc = vxp_model_generate(ctx, &c, &o, vxpeak_out_file_write, &out);
  bool closed = vxpeak_out_file_close(&out);
  if (rc == VXP_EIO || (rc == VXP_OK && !closed)) {
    fprintf(stderr, "vxpeak model: cannot write '%s': %s\n", out.path, strerror(out.error));
    vxpeak_out_file_discard(&out);
    exit_code = VXPEAK_EXIT_USAGE;
  } else if (rc != VXP_OK) {
    fprintf(stderr, "vxpeak model: %s: %s\n", file, vxp_context_errmsg(ctx));
    exit_code = VXPEAK_EXIT_USAGE;
  } else if (args->weights) {
    warn_checkpoint(ctx, &c, &tensors, args->weights);
  }
done:
  vxpeak_tensors_free(&tensors);
  json_decref(root);
  free(text);
  vxp_context_free(ctx);
  return exit_code;
}
