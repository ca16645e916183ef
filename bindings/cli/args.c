/* SPDX-License-Identifier: Apache-2.0 */
/* args.c - one option parser for every command, and the help generated from the same
 * table: an option a command accepts is in its --help with an example, and one it does
 * not is refused with a one-line reason (exit status 2). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct option_spec {
  vxpeak_opt id;
  const char *name;    /* --long */
  const char *alias;   /* -x, or NULL */
  const char *metavar; /* NULL for a flag */
  const char *help;    /* may hold newlines; indented when printed */
  const char *example; /* "%s" stands for the command name */
} option_spec;

static const option_spec specs[OPT_COUNT] = {
    {OPT_MACHINE, "--machine", NULL, "M",
     "the device model: a file (fleet/h100-sxm.vx) or a fleet name (h100-sxm).\n"
     "Default: the program's own Memory/Topology declarations, or the built-in\n"
     "a100-40 when it declares none. sweep takes several (repeat it, or a,b,c).",
     "vxpeak %s examples/llama2/prefill.vx --machine a100-80 --host default"},
    {OPT_HOST, "--host", NULL, "H",
     "the host model: a file, or 'default' for CPU_DRAM without a capacity.\n"
     "Implied as 'default' with the built-in machine.",
     "vxpeak %s examples/llama2/prefill.vx --machine h200 --host default"},
    {OPT_MACHINE_ONLY, "--machine-only", NULL, NULL,
     "check against --machine's model alone, ignoring the program's own\n"
     "Memory/Topology declarations (which would otherwise be added to it)",
     "vxpeak %s examples/llama2/prefill.vx --machine h100-sxm --machine-only --host default"},
    {OPT_DEFINE, "-D", NULL, "NAME=VALUE",
     "fold NAME as VALUE (a non-negative integer) in place of the program's\n"
     "`const NAME`; repeatable",
     "vxpeak %s examples/llama2/prefill.vx -D BATCH=8"},
    {OPT_FORMAT, "--format", NULL, "F", NULL, /* help generated from the command's formats */
     "vxpeak %s examples/llama2/prefill.vx --format json"},
    {OPT_FUNCTION, "--function", NULL, "F",
     "only the function F (default: every analysed function)",
     "vxpeak %s examples/llama2/prefill.vx --function main"},
    {OPT_SPACE, "--space", NULL, "S",
     "only the memory space S (default: every space with a capacity)",
     "vxpeak %s examples/llama2/prefill.vx --space HBM"},
    {OPT_CONST, "--const", NULL, "NAME=LO..HI",
     "the `const` item to vary and its range (inclusive, non-negative integers);\n"
     "sweep takes two (NAME=LO..HI or NAME=A,B,C each) and prints the grid of what fits",
     "vxpeak %s examples/llama2/prefill.vx --const BATCH=1..64"},
    {OPT_MARGIN, "--margin", NULL, "P%",
     "the share of each capacity that must stay free (0 to 99.9999%; default 0%)",
     "vxpeak %s examples/llama2/prefill.vx --margin 10%%"},
    {OPT_OUTPUT, "--output", "-o", "FILE", NULL, /* help depends on the command */
     "vxpeak %s examples/llama2/prefill.vx -o out"},
    {OPT_SEXP, "--sexp", NULL, NULL, "print the tree as an S-expression",
     "vxpeak %s examples/blog/peak_not_sum.vx --sexp"},
    {OPT_ALLOW_REJECTED, "--allow-rejected", NULL, NULL,
     "generate the program even when the analysis rejects it (its errors are\n"
     "still printed, then a warning); without it a rejected program is refused,\n"
     "exit 1",
     "vxpeak %s examples/llama2/prefill.vx -D BATCH=9 --allow-rejected -o prog.cu"},
    {OPT_TRAFFIC, "--traffic", NULL, "MODEL",
     "the traffic the ceilings use: compulsory (default: each element of a tile\n"
     "once per call, what a kernel with perfect reuse moves) or no-reuse (every\n"
     "access goes to memory); both are reported",
     "vxpeak %s examples/llama2/decode.vx --traffic no-reuse"},
    {OPT_TOKENS, "--tokens-per-call", NULL, "CONST|N",
     "how many tokens (or items) one call produces: a `const` of the program\n"
     "(BATCH) or a number; throughput is then also given in tokens/s",
     "vxpeak %s examples/llama2/decode.vx --tokens-per-call BATCH"},
    {OPT_TIME_LIMIT, "--time-limit", NULL, "SECONDS",
     "stop after SECONDS of wall-clock time (decimals allowed, e.g. 0.5), whatever\n"
     "the command is doing: exit status 2 with \"stopped by --time-limit\"",
     "vxpeak %s examples/llama2/prefill.vx --time-limit 10"},
    {OPT_WORKLOAD, "--workload", NULL, "W",
     "what the program runs: decode (one step, the default), prefill (CONTEXT\n"
     "tokens a sequence) or train (one step of mixed-precision training)",
     "vxpeak %s examples/models/llama-2-7b.json --workload prefill"},
    {OPT_BATCH, "--batch", NULL, "N", "sequences: the program's const BATCH (default 1)",
     "vxpeak %s examples/models/llama-2-7b.json --batch 8"},
    {OPT_CONTEXT, "--context", NULL, "N",
     "tokens per sequence: the program's const CONTEXT (default 4096)",
     "vxpeak %s examples/models/llama-2-7b.json --context 2048"},
    {OPT_DTYPE, "--dtype", NULL, "T",
     "the weights' and activations' element type (f16, bf16, f32, f8e4m3, i8, i4,\n"
     "...; default: the config's torch_dtype)",
     "vxpeak %s examples/models/llama-2-7b.json --dtype bf16"},
    {OPT_KV_DTYPE, "--kv-dtype", NULL, "T", "the KV cache's element type (default: --dtype)",
     "vxpeak %s examples/models/llama-2-7b.json --kv-dtype f8e4m3"},
    {OPT_OPTIMIZER, "--optimizer", NULL, "O",
     "train: adam (default: an f32 master copy and two f32 moments, 12 bytes a\n"
     "parameter) or sgd (the master copy alone)",
     "vxpeak %s examples/models/llama-2-7b.json --workload train --optimizer sgd"},
    {OPT_FUSED, "--fused-attention", NULL, NULL,
     "prefill, train: a fused attention, which holds no CONTEXT x CONTEXT scores",
     "vxpeak %s examples/models/llama-2-7b.json --workload prefill --fused-attention"},
    {OPT_CHECKPOINTING, "--checkpointing", NULL, NULL,
     "train: keep each layer's input only and recompute one layer's activations\n"
     "at a time in the backward pass",
     "vxpeak %s examples/models/llama-2-7b.json --workload train --checkpointing"},
    {OPT_WEIGHTS, "--weights", NULL, "FILE",
     "model: the checkpoint's model.safetensors (its header is enough) or\n"
     "model.safetensors.index.json: the weights' bytes come from its tensors, and\n"
     "tensors the architecture does not explain, or modules it misses, are reported",
     "vxpeak %s examples/models/stories15m.json --weights "
     "tests/golden/model-weights/tiny.safetensors"},
    {OPT_SYMBOLIC, "--symbolic", NULL, "NAME[,NAME...]",
     "also give each peak as an exact formula in these `const` items (at most 8),\n"
     "every other constant folded; a peak that is no polynomial in them says why",
     "vxpeak %s examples/llama2/decode.vx --symbolic BATCH,CONTEXT"},
    {OPT_RETYPE, "--retype", NULL, "ROLE=TYPE",
     "analyse every tile of ROLE (a `// role:` label) with element type TYPE\n"
     "(f8e4m3, i8, i4, bf16, ...) instead of its own; repeatable",
     "vxpeak %s examples/llama2/decode.vx --machine h100-sxm --host default --retype \"KV "
     "cache=f8e4m3\""},
    {OPT_MEASURED, "--measured", NULL, "BYTES",
     "the peak a real run measured, in bytes (calibrate)",
     "vxpeak %s examples/llama2/decode.vx --measured 32858265088 -o calibrated.vx"},
    {OPT_MEASURED_FROM, "--measured-from", NULL, "FILE",
     "read the measured peak from torch.cuda.memory_stats() saved as JSON\n"
     "(reserved_bytes.all.peak, else allocated_bytes.all.peak)",
     "vxpeak %s examples/llama2/decode.vx --measured-from tests/calibrate/memory_stats.json "
     "-o calibrated.vx"},
    {OPT_OVERHEAD, "--overhead", NULL, "NAME=SIZE",
     "an overhead known from a run's log, held beside the program (calibrate):\n"
     "SIZE in bytes or with a unit (9.37GiB, 500MiB, 1.5GB); repeatable",
     "vxpeak %s examples/llama2/decode.vx --overhead \"CUDA context=500MiB\" -o calibrated.vx"},
    {OPT_OFFERED, "--offered", NULL, "SIZE",
     "the space's memory as the framework sees it (torch.cuda.mem_get_info()'s total),\n"
     "in place of the model's capacity; a margin is a share of it (calibrate)",
     "vxpeak %s examples/llama2/decode.vx --offered 39.50GiB -o calibrated.vx"},
    {OPT_HELP, "--help", "-h", NULL, "show this command's options and examples",
     "vxpeak %s --help"},
};

static bool accepts(const vxpeak_command *cmd, vxpeak_opt id) { return (cmd->options >> id) & 1u; }

static int usage_error(const vxpeak_command *cmd, const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "vxpeak %s: ", cmd->name);
  fprintf(stderr, fmt, a, b);
  fprintf(stderr, " (see 'vxpeak %s --help')\n", cmd->name);
  return VXPEAK_EXIT_USAGE;
}

/* A non-negative decimal integer that fits 64 bits, the whole of [s, end). */
static bool parse_u64(const char *s, const char *end, uint64_t *out) {
  if (s == end) return false;
  uint64_t v = 0;
  for (const char *p = s; p < end; p++) {
    if (*p < '0' || *p > '9' || v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) return false;
    v = v * 10 + (uint64_t)(*p - '0');
  }
  *out = v;
  return true;
}

/* A size: whole or decimal, with an optional unit (B, KB, MB, GB, KiB, MiB, GiB, TiB),
 * rounded to the nearest byte exactly (a log prints 9.37GiB, not a byte count). */
static bool parse_size(const char *s, uint64_t *out) {
  static const struct {
    const char *unit;
    uint64_t bytes;
  } units[] = {{"B", 1},      {"KB", 1000},     {"MB", 1000000},     {"GB", 1000000000},
               {"KiB", 1024}, {"MiB", 1048576}, {"GiB", 1073741824}, {"TiB", 1099511627776ull}};
  const char *p = s;
  unsigned __int128 whole = 0, frac = 0, scale = 1;
  for (; *p >= '0' && *p <= '9'; p++)
    if ((whole = whole * 10 + (unsigned)(*p - '0')) > UINT64_MAX) return false;
  if (p == s) return false;
  if (*p == '.') {
    const char *f = ++p;
    for (; *p >= '0' && *p <= '9'; p++) {
      if (p - f >= 12) return false;
      frac = frac * 10 + (unsigned)(*p - '0');
      scale *= 10;
    }
    if (p == f) return false;
  }
  while (*p == ' ')
    p++;
  uint64_t unit = *p ? 0 : 1;
  for (size_t i = 0; i < sizeof(units) / sizeof(units[0]) && !unit; i++)
    if (strcmp(p, units[i].unit) == 0) unit = units[i].bytes;
  if (!unit) return false;
  /* whole < 2^64, unit < 2^41, scale <= 10^12 < 2^40: (whole x scale + frac) x unit < 2^145
   * could pass 128 bits, so the whole part is multiplied out alone. */
  unsigned __int128 bytes = whole * unit;
  if (bytes > UINT64_MAX) return false;
  bytes += (frac * unit + scale / 2) / scale;
  if (bytes > UINT64_MAX) return false;
  *out = (uint64_t)bytes;
  return true;
}

/* NAME=SIZE: an overhead known in advance or from a log. */
static int parse_overhead(const vxpeak_command *cmd, vxpeak_args *a, const char *text) {
  const char *eq = strrchr(text, '=');
  uint64_t bytes = 0;
  if (!eq || eq == text || !parse_size(eq + 1, &bytes) || bytes == 0)
    return usage_error(cmd,
                       "--overhead takes NAME=SIZE with a positive size (e.g. --overhead "
                       "\"CUDA context=500MiB\"), not '%s'%s",
                       text, "");
  if ((size_t)(eq - text) >= sizeof(a->overhead_name[0]) || memchr(text, '\n', (size_t)(eq - text)))
    return usage_error(cmd, "--overhead %s: a name of one line, under 128 bytes%s", text, "");
  if (a->overhead_count == VXPEAK_MAX_OVERHEADS)
    return usage_error(cmd, "at most 8 --overhead options%s%s", "", "");
  memcpy(a->overhead_name[a->overhead_count], text, (size_t)(eq - text));
  a->overhead_name[a->overhead_count][eq - text] = '\0';
  a->overhead_bytes[a->overhead_count++] = bytes;
  return VXPEAK_EXIT_OK;
}

static bool valid_name(const char *s, size_t len) {
  if (len == 0 || len >= 128) return false;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    bool ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

static int parse_define(const vxpeak_command *cmd, vxpeak_args *a, const char *text) {
  const char *eq = strchr(text, '=');
  if (!eq || !valid_name(text, (size_t)(eq - text)))
    return usage_error(cmd, "-D takes NAME=VALUE (e.g. -D BATCH=8), not '%s'%s", text, "");
  uint64_t value;
  if (!parse_u64(eq + 1, eq + strlen(eq), &value))
    return usage_error(cmd,
                       "the value of -D %s must be a non-negative integer that fits in 64 "
                       "bits%s",
                       text, "");
  if (a->define_count == VXPEAK_MAX_DEFINES)
    return usage_error(cmd, "at most 64 -D options%s%s", "", "");
  char *name = a->define_names[a->define_count];
  memcpy(name, text, (size_t)(eq - text));
  name[eq - text] = '\0';
  a->defines[a->define_count].name = name;
  a->defines[a->define_count].value = value;
  a->define_count++;
  return VXPEAK_EXIT_OK;
}

/* ROLE=TYPE: the last '=' ends the role, which is free text (`KV cache`). Whether the
 * role and the type exist is the library's to say, with the known ones. */
static int parse_retype(const vxpeak_command *cmd, vxpeak_args *a, const char *text) {
  const char *eq = strrchr(text, '=');
  if (!eq || eq == text || !eq[1])
    return usage_error(
        cmd, "--retype takes ROLE=TYPE (e.g. --retype \"KV cache=f8e4m3\"), not '%s'%s", text, "");
  if (strlen(text) >= sizeof(a->retype_text[0]))
    return usage_error(cmd, "--retype %s: longer than 255 bytes%s", text, "");
  if (a->retype_count == VXPEAK_MAX_RETYPES)
    return usage_error(cmd, "at most 16 --retype options%s%s", "", "");
  char *copy = a->retype_text[a->retype_count];
  strcpy(copy, text);
  copy[eq - text] = '\0';
  a->retypes[a->retype_count].role = copy;
  a->retypes[a->retype_count].type = copy + (eq - text) + 1;
  a->retype_count++;
  return VXPEAK_EXIT_OK;
}

/* NAME[,NAME...]: the constants a formula is written in. */
static int parse_symbolic(const vxpeak_command *cmd, vxpeak_args *a, const char *text) {
  for (const char *p = text;;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (!valid_name(p, len))
      return usage_error(cmd,
                         "--symbolic takes const names separated by commas (e.g. "
                         "--symbolic BATCH,CONTEXT), not '%s'%s",
                         text, "");
    if (a->symbolic_count == VXPEAK_MAX_SYMBOLIC)
      return usage_error(cmd, "--symbolic names at most 8 constants, not '%s'%s", text, "");
    char *name = a->symbolic_names[a->symbolic_count];
    memcpy(name, p, len);
    name[len] = '\0';
    for (size_t i = 0; i < a->symbolic_count; i++)
      if (strcmp(a->symbolic[i], name) == 0)
        return usage_error(cmd, "--symbolic names '%s' twice%s", name, "");
    a->symbolic[a->symbolic_count++] = name;
    if (!comma) break;
    p = comma + 1;
  }
  return VXPEAK_EXIT_OK;
}

/* NAME=A,B,C (sweep's grid): the listed values, in order. */
static int parse_const_list(const vxpeak_command *cmd, vxpeak_args *a, const char *text,
                            const char *values, size_t axis) {
  size_t n = 0;
  for (const char *p = values;;) {
    const char *comma = strchr(p, ',');
    const char *end = comma ? comma : p + strlen(p);
    if (n == VXPEAK_MAX_GRID)
      return usage_error(cmd, "--const %s: at most 64 values on an axis%s", text, "");
    if (!parse_u64(p, end, &a->sweep_values[axis][n++]))
      return usage_error(cmd,
                         "--const %s: the values must be non-negative integers that fit "
                         "in 64 bits%s",
                         text, "");
    if (!comma) break;
    p = comma + 1;
  }
  a->sweep_list[axis] = n;
  uint64_t lo = a->sweep_values[axis][0], hi = lo;
  for (size_t i = 1; i < n; i++) {
    if (a->sweep_values[axis][i] < lo) lo = a->sweep_values[axis][i];
    if (a->sweep_values[axis][i] > hi) hi = a->sweep_values[axis][i];
  }
  if (axis == 0)
    a->sweep_lo = lo, a->sweep_hi = hi;
  else
    a->sweep2_lo = lo, a->sweep2_hi = hi;
  return VXPEAK_EXIT_OK;
}

/* NAME=LO..HI, or NAME=A,B,C; a second --const (sweep only) makes a grid. */
static int parse_const(const vxpeak_command *cmd, vxpeak_args *a, const char *text) {
  const char *eq = strchr(text, '=');
  const char *dots = eq ? strstr(eq, "..") : NULL;
  bool list = eq && !dots && strchr(eq, ',') != NULL;
  if (!eq || (!dots && !list) || !valid_name(text, (size_t)(eq - text)))
    return usage_error(cmd, "--const takes NAME=LO..HI (e.g. --const BATCH=1..64), not '%s'%s",
                       text, "");
  if (a->has_sweep && (strcmp(cmd->name, "sweep") != 0 || a->has_sweep2))
    return usage_error(cmd, "--const %s: %s", text,
                       strcmp(cmd->name, "sweep") == 0 ? "a grid has two constants, not three"
                                                       : "one --const at a time (sweep takes two)");
  size_t axis = a->has_sweep ? 1 : 0;
  char *name = axis ? a->sweep2_name : a->sweep_name;
  if ((size_t)(eq - text) >= sizeof(a->sweep_name))
    return usage_error(cmd, "--const %s: the name is too long%s", text, "");
  if (list) {
    int rc = parse_const_list(cmd, a, text, eq + 1, axis);
    if (rc != VXPEAK_EXIT_OK) return rc;
  } else {
    uint64_t *lo = axis ? &a->sweep2_lo : &a->sweep_lo, *hi = axis ? &a->sweep2_hi : &a->sweep_hi;
    if (!parse_u64(eq + 1, dots, lo) || !parse_u64(dots + 2, dots + strlen(dots), hi))
      return usage_error(cmd,
                         "the bounds of --const %s must be non-negative integers that fit "
                         "in 64 bits%s",
                         text, "");
    if (*lo > *hi)
      return usage_error(cmd, "--const %s: LO must not be greater than HI%s", text, "");
  }
  memcpy(name, text, (size_t)(eq - text));
  name[eq - text] = '\0';
  if (axis)
    a->has_sweep2 = true;
  else
    a->has_sweep = true;
  return VXPEAK_EXIT_OK;
}

/* P% or P, 0 <= P < 100 with at most four decimals: parts per million. */
static int parse_margin(const vxpeak_command *cmd, vxpeak_args *a, const char *text) {
  const char *end = text + strlen(text);
  if (end > text && end[-1] == '%') end--;
  const char *dot = memchr(text, '.', (size_t)(end - text));
  uint64_t whole = 0, frac = 0;
  size_t frac_digits = dot ? (size_t)(end - dot - 1) : 0;
  bool ok = parse_u64(text, dot ? dot : end, &whole) &&
            (!dot || (frac_digits >= 1 && frac_digits <= 4 && parse_u64(dot + 1, end, &frac)));
  if (!ok || whole >= 100)
    return usage_error(cmd,
                       "--margin takes a percentage from 0%% to 99.9999%% (e.g. 10%%), not "
                       "'%s'%s",
                       text, "");
  for (size_t i = frac_digits; i < 4; i++)
    frac *= 10;
  a->margin_ppm = (uint32_t)(whole * 10000 + frac);
  return VXPEAK_EXIT_OK;
}

/* SECONDS or SECONDS.FFFFFF (at most six decimals), more than 0 and at most 10^6 s. */
static int parse_time_limit(const vxpeak_command *cmd, vxpeak_args *a, const char *text) {
  const char *end = text + strlen(text);
  const char *dot = memchr(text, '.', (size_t)(end - text));
  uint64_t whole = 0, frac = 0;
  size_t frac_digits = dot ? (size_t)(end - dot - 1) : 0;
  bool ok = parse_u64(text, dot ? dot : end, &whole) &&
            (!dot || (frac_digits >= 1 && frac_digits <= 6 && parse_u64(dot + 1, end, &frac)));
  for (size_t i = frac_digits; i < 6; i++)
    frac *= 10;
  if (!ok || whole > 1000000 || (whole == 0 && frac == 0) || (whole == 1000000 && frac))
    return usage_error(cmd,
                       "--time-limit takes seconds, more than 0 and at most 1000000 (e.g. "
                       "10 or 0.5), not '%s'%s",
                       text, "");
  a->time_limit_us = whole * 1000000u + frac;
  return VXPEAK_EXIT_OK;
}

static const option_spec *find_spec(const char *arg) {
  for (size_t i = 0; i < OPT_COUNT; i++) {
    if (strcmp(arg, specs[i].name) == 0 || (specs[i].alias && strcmp(arg, specs[i].alias) == 0))
      return &specs[i];
  }
  return NULL;
}

int vxpeak_args_parse(const vxpeak_command *cmd, int argc, char **argv, vxpeak_args *a) {
  memset(a, 0, sizeof(*a));
  a->command = cmd->name;
  a->format = cmd->formats ? cmd->formats[0] : NULL;
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    const char *value = NULL;
    const option_spec *spec = find_spec(arg);
    /* -DNAME=VALUE and --option=value are one word. */
    if (!spec && strncmp(arg, "-D", 2) == 0 && arg[2]) {
      spec = &specs[OPT_DEFINE];
      value = arg + 2;
    } else if (!spec && strncmp(arg, "--", 2) == 0 && strchr(arg, '=')) {
      char name[64];
      size_t len = (size_t)(strchr(arg, '=') - arg);
      if (len < sizeof(name)) {
        memcpy(name, arg, len);
        name[len] = '\0';
        spec = find_spec(name);
        if (spec && spec->metavar)
          value = arg + len + 1;
        else
          spec = NULL;
      }
    }
    if (!spec) {
      /* `lsp` talks over stdio only; clients that name the transport pass --stdio. */
      if (cmd->no_file && strcmp(arg, "--stdio") == 0) continue;
      if (arg[0] == '-' && arg[1] != '\0')
        return usage_error(cmd, "unknown option '%s'%s", arg, "");
      if (cmd->no_file)
        return usage_error(cmd, "unexpected argument '%s' (%s takes no file)", arg, cmd->name);
      if (a->file)
        return usage_error(cmd, "unexpected argument '%s' (one %s at a time)", arg,
                           strcmp(cmd->name, "model") == 0 ? "CONFIG.json" : "FILE.vx");
      a->file = arg;
      continue;
    }
    if (!accepts(cmd, spec->id))
      return usage_error(cmd, "option '%s' does not apply to this command%s", spec->name, "");
    if (spec->id == OPT_HELP) return -1;
    if (spec->metavar && !value) {
      if (i + 1 >= argc)
        return usage_error(cmd, "option '%s' needs a value (%s)", spec->name, spec->metavar);
      value = argv[++i];
    }
    int rc = VXPEAK_EXIT_OK;
    switch (spec->id) {
    case OPT_MACHINE: {
      /* Repeated, or comma-separated: a,b,c. */
      const char *p = value;
      while (rc == VXPEAK_EXIT_OK && *p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0) return usage_error(cmd, "--machine has an empty name in '%s'%s", value, "");
        if (a->machine_count == VXPEAK_MAX_MACHINES)
          return usage_error(cmd, "at most 32 machines%s%s", "", "");
        if (!comma) {
          a->machines[a->machine_count++] = p;
          break;
        }
        /* One name of a list: a copy, since argv is not ours to split. */
        if (len >= sizeof(a->machine_names[0]))
          return usage_error(cmd, "--machine has a name longer than 255 bytes in '%s'%s", value,
                             "");
        char *copy = a->machine_names[a->machine_count];
        memcpy(copy, p, len);
        copy[len] = '\0';
        a->machines[a->machine_count++] = copy;
        p = comma + 1;
      }
      if (a->machine_count > 1 && strcmp(cmd->name, "sweep") != 0)
        return usage_error(cmd, "one --machine at a time (sweep takes several)%s%s", "", "");
      break;
    }
    case OPT_HOST: a->host = value; break;
    case OPT_DEFINE: rc = parse_define(cmd, a, value); break;
    case OPT_FORMAT: {
      bool known = false;
      for (const char *const *f = cmd->formats; f && *f; f++)
        known |= strcmp(*f, value) == 0;
      if (!known) {
        char list[64] = "";
        for (const char *const *f = cmd->formats; f && *f; f++) {
          if (f != cmd->formats)
            strncat(list, f[1] ? ", " : " or ", sizeof(list) - strlen(list) - 1);
          strncat(list, *f, sizeof(list) - strlen(list) - 1);
        }
        return usage_error(cmd, "--format must be %s, not '%s'", list, value);
      }
      a->format = value;
      break;
    }
    case OPT_FUNCTION: a->function = value; break;
    case OPT_SPACE: a->space = value; break;
    case OPT_CONST: rc = parse_const(cmd, a, value); break;
    case OPT_MARGIN: rc = parse_margin(cmd, a, value); break;
    case OPT_OUTPUT: a->output = value; break;
    case OPT_SEXP: a->sexp = true; break;
    case OPT_MACHINE_ONLY: a->machine_only = true; break;
    case OPT_ALLOW_REJECTED: a->allow_rejected = true; break;
    case OPT_TIME_LIMIT: rc = parse_time_limit(cmd, a, value); break;
    case OPT_WORKLOAD:
      if (strcmp(value, "decode") && strcmp(value, "prefill") && strcmp(value, "train"))
        return usage_error(cmd, "--workload must be decode, prefill or train, not '%s'%s", value,
                           "");
      a->workload = value;
      break;
    case OPT_OPTIMIZER:
      if (strcmp(value, "adam") && strcmp(value, "sgd"))
        return usage_error(cmd, "--optimizer must be adam or sgd, not '%s'%s", value, "");
      a->optimizer = value;
      break;
    case OPT_BATCH:
    case OPT_CONTEXT: {
      uint64_t n = 0;
      if (!parse_u64(value, value + strlen(value), &n) || n == 0)
        return usage_error(cmd, "%s takes a positive integer, not '%s'", spec->name, value);
      *(spec->id == OPT_BATCH ? &a->model_batch : &a->model_context) = n;
      break;
    }
    case OPT_DTYPE: a->dtype = value; break;
    case OPT_KV_DTYPE: a->kv_dtype = value; break;
    case OPT_FUSED: a->fused_attention = true; break;
    case OPT_CHECKPOINTING: a->checkpointing = true; break;
    case OPT_WEIGHTS: a->weights = value; break;
    case OPT_SYMBOLIC: rc = parse_symbolic(cmd, a, value); break;
    case OPT_RETYPE: rc = parse_retype(cmd, a, value); break;
    case OPT_MEASURED:
      if (!parse_u64(value, value + strlen(value), &a->measured))
        return usage_error(cmd, "--measured takes a number of bytes, not '%s'%s", value, "");
      a->has_measured = true;
      break;
    case OPT_MEASURED_FROM: a->measured_from = value; break;
    case OPT_OVERHEAD: rc = parse_overhead(cmd, a, value); break;
    case OPT_OFFERED:
      if (!parse_size(value, &a->offered) || a->offered == 0)
        return usage_error(
            cmd, "--offered takes a positive size (39.50GiB, 42412802048), not '%s'%s", value, "");
      break;
    case OPT_TRAFFIC:
      if (strcmp(value, "compulsory") == 0)
        a->no_reuse = false;
      else if (strcmp(value, "no-reuse") == 0)
        a->no_reuse = true;
      else
        return usage_error(cmd, "--traffic must be compulsory or no-reuse, not '%s'%s", value, "");
      break;
    case OPT_TOKENS: {
      size_t len = strlen(value);
      uint64_t n = 0;
      if (!valid_name(value, len) && !(parse_u64(value, value + len, &n) && n > 0))
        return usage_error(cmd,
                           "--tokens-per-call takes a constant's name or a positive "
                           "integer, not '%s'%s",
                           value, "");
      a->tokens_name = value;
      break;
    }
    default: break;
    }
    if (rc != VXPEAK_EXIT_OK) return rc;
  }
  if (!a->file && !cmd->no_file)
    return usage_error(cmd, "missing %s%s",
                       strcmp(cmd->name, "model") == 0 ? "CONFIG.json" : "FILE.vx", "");
  if (a->machine_only && !a->machine_count)
    return usage_error(cmd, "--machine-only needs --machine%s%s", "", "");
  if (cmd->needs_output && !a->output) return usage_error(cmd, "missing -o FILE%s%s", "", "");
  if (accepts(cmd, OPT_CONST) && !a->has_sweep)
    return usage_error(cmd, "missing --const NAME=LO..HI%s%s", "", "");
  if (a->has_sweep) {
    for (size_t i = 0; i < a->define_count; i++) {
      if (strcmp(a->defines[i].name, a->sweep_name) == 0)
        return usage_error(cmd, "-D %s and --const %s name the same constant", a->sweep_name,
                           a->sweep_name);
      if (a->has_sweep2 && strcmp(a->defines[i].name, a->sweep2_name) == 0)
        return usage_error(cmd, "-D %s and --const %s name the same constant", a->sweep2_name,
                           a->sweep2_name);
    }
    if (a->has_sweep2 && strcmp(a->sweep_name, a->sweep2_name) == 0)
      return usage_error(cmd, "the two --const name the same constant, %s%s", a->sweep_name, "");
    if (!a->has_sweep2 && a->sweep_list[0])
      return usage_error(cmd,
                         "a list of values (NAME=A,B,C) is for sweep's grid of two "
                         "constants; write NAME=LO..HI%s%s",
                         "", "");
    if (a->has_sweep2) {
      for (size_t axis = 0; axis < 2; axis++) {
        uint64_t lo = axis ? a->sweep2_lo : a->sweep_lo, hi = axis ? a->sweep2_hi : a->sweep_hi;
        if (!a->sweep_list[axis] && hi - lo >= VXPEAK_MAX_GRID)
          return usage_error(cmd,
                             "--const %s: a grid axis has at most 64 values (a range that "
                             "long, or a list: NAME=1024,2048,4096)%s",
                             axis ? a->sweep2_name : a->sweep_name, "");
      }
      if (a->machine_count > 1)
        return usage_error(cmd, "a grid of two constants is for one machine%s%s", "", "");
    }
  }
  return VXPEAK_EXIT_OK;
}

/* ------------------------------------------------------------------ help */

static void print_indented(FILE *out, const char *text, int indent) {
  for (const char *p = text; *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    fprintf(out, "%*s%.*s\n", indent, "", (int)len, p);
    p += len + (nl ? 1 : 0);
  }
}

static void option_help(FILE *out, const vxpeak_command *cmd, const option_spec *s, bool global) {
  char head[64];
  if (s->alias)
    snprintf(head, sizeof(head), "%s, %s%s%s", s->alias, s->name, s->metavar ? " " : "",
             s->metavar ? s->metavar : "");
  else
    snprintf(head, sizeof(head), "%s%s%s", s->name, s->metavar ? " " : "",
             s->metavar ? s->metavar : "");
  char help[512];
  if (s->id == OPT_FORMAT && global) {
    snprintf(help, sizeof(help),
             "the output format: text (the default) or json; check also "
             "writes sarif\n(SARIF 2.1.0 for code scanning)");
  } else if (s->id == OPT_FORMAT) {
    size_t o = (size_t)snprintf(help, sizeof(help), "the output format:");
    for (const char *const *f = cmd->formats; f && *f && o < sizeof(help); f++)
      o += (size_t)snprintf(help + o, sizeof(help) - o, "%s %s%s", f == cmd->formats ? "" : ",", *f,
                            f == cmd->formats ? " (the default)" : "");
  } else if (s->id == OPT_OUTPUT) {
    snprintf(help, sizeof(help), "%s",
             strcmp(cmd->name, "plot") == 0 ? "write the SVG to FILE ('-': standard output)"
             : strcmp(cmd->name, "frontier") == 0
                 ? "with --format svg, write the SVG to FILE (default "
                   "'-': standard output)"
             : strcmp(cmd->name, "model") == 0
                 ? "write the Vx program to FILE (default '-': standard output)"
                 : "write the CUDA program to FILE ('-': standard output)");
  } else {
    snprintf(help, sizeof(help), "%s", s->help);
  }
  /* The help's first line beside the option when it fits, the rest below. */
  size_t width = strlen(head);
  const char *nl = strchr(help, '\n');
  size_t first = nl ? (size_t)(nl - help) : strlen(help);
  if (width <= 16) {
    fprintf(out, "  %-16s  %.*s\n", head, (int)first, help);
    if (nl) print_indented(out, nl + 1, 20);
  } else {
    fprintf(out, "  %s\n", head);
    print_indented(out, help, 20);
  }
  /* Every example is a whole command that runs as shown (make docs-check runs each one):
   * the option's own words, then what the command cannot run without (the varied constant
   * of sweep and frontier, the output file of emit-cuda and plot). */
  char example[320];
  const char *name = cmd->name;
  if (s->id == OPT_OUTPUT)
    snprintf(example, sizeof(example), "vxpeak %s %s", name,
             strcmp(name, "plot") == 0 ? "examples/llama2/prefill.vx -o timeline.svg"
             : strcmp(name, "frontier") == 0
                 ? "examples/llama2/prefill.vx --format svg -o frontier.svg"
             : strcmp(name, "model") == 0 ? "examples/models/llama-2-7b.json -o llama.vx"
             : strcmp(name, "calibrate") == 0
                 ? "examples/llama2/decode.vx --measured 32858265088 -o calibrated.vx"
                 : "examples/blog/peak_not_sum.vx -o prog.cu");
  else if (s->id == OPT_FORMAT)
    snprintf(example, sizeof(example), "vxpeak %s examples/llama2/prefill.vx --format %s", name,
             cmd->formats[1] ? cmd->formats[cmd->formats[2] ? 2 : 1] : cmd->formats[0]);
  else if (accepts(cmd, OPT_CONST) && s->id == OPT_DEFINE)
    snprintf(example, sizeof(example), "vxpeak %s examples/llama2/prefill.vx -D TOKENS=2048", name);
  else
    snprintf(example, sizeof(example), s->example, name);
  if (s->id != OPT_HELP) {
    size_t used = strlen(example);
    if (accepts(cmd, OPT_CONST) && s->id != OPT_CONST && !strstr(example, "--const "))
      used += (size_t)snprintf(example + used, sizeof(example) - used, " --const BATCH=1..64");
    if (accepts(cmd, OPT_MEASURED) && !strstr(example, "--measured") &&
        !strstr(example, "--overhead") && !strstr(example, "--offered"))
      used += (size_t)snprintf(example + used, sizeof(example) - used, " --measured 32858265088");
    if (cmd->needs_output && !strstr(example, " -o "))
      snprintf(example + used, sizeof(example) - used, " -o %s",
               strcmp(name, "plot") == 0        ? "timeline.svg"
               : strcmp(name, "calibrate") == 0 ? "calibrated.vx"
                                                : "prog.cu");
  }
  fprintf(out, "%20se.g. %s\n", "", example);
}

void vxpeak_help_command(FILE *out, const vxpeak_command *cmd) {
  fprintf(out, "usage: vxpeak %s %s\n\n", cmd->name, cmd->synopsis);
  print_indented(out, cmd->description, 0);
  fprintf(out, "\noptions:\n");
  for (size_t i = 0; i < OPT_COUNT; i++)
    if (accepts(cmd, specs[i].id)) option_help(out, cmd, &specs[i], false);
  if (cmd->examples) fprintf(out, "\nexamples:\n%s", cmd->examples);
}

void vxpeak_help_all(FILE *out) {
  fprintf(out, "usage: vxpeak COMMAND [FILE.vx] [OPTIONS]   (`vxpeak lsp` takes no file,\n"
               "       `vxpeak model` a config.json)\n"
               "\n"
               "Static peak-memory analysis for Vx programs: the peak working set of every\n"
               "function in every memory space, whether it fits the machine, what fills it,\n"
               "the largest configuration that fits, and how fast it can run once it does.\n"
               "\n"
               "commands:\n");
  for (size_t i = 0; i < vxpeak_command_count; i++) {
    const vxpeak_command *c = &vxpeak_commands[i];
    fprintf(out, "  %-10s %s\n", c->name, c->summary);
    fprintf(out, "  %-10s   vxpeak %s %s\n", "", c->name, c->synopsis);
  }
  fprintf(out, "\noptions (each command's --help lists the ones it takes):\n");
  for (size_t o = 0; o < OPT_COUNT; o++) {
    /* Describe the option with the first command that takes it. */
    for (size_t i = 0; i < vxpeak_command_count; i++) {
      const vxpeak_command *c = &vxpeak_commands[i];
      if (!accepts(c, specs[o].id)) continue;
      option_help(out, c, &specs[o], true);
      break;
    }
  }
  fprintf(out, "  --version         show the version\n"
               "                    e.g. vxpeak --version\n"
               "\n"
               "Diagnostics are coloured on a terminal; NO_COLOR=1 (or a pipe) turns colour off.\n"
               "exit status: 0 admitted (or done), 1 rejected (an error diagnostic; sweep: no\n"
               "value fits on some machine), 2 usage or input/output error.\n");
}
