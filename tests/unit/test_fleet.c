/* SPDX-License-Identifier: Apache-2.0 */
/* test_fleet.c - every machine model in fleet/ loads without a diagnostic (alone and
 * merged with a program), matches the copy compiled into the library, and gives the public
 * source of every figure in a `// spec:` comment directly above it. */
#include <dirent.h>

#include "support.h"

#include "machine.h"
#include "source.h"

static char *read_text(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("cannot open %s", path);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  assert_non_null(text);
  assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
  text[size] = '\0';
  fclose(f);
  *len = (size_t)size;
  return text;
}

/* The figures the library read from a machine: every size, rate, clock, count and cost. */
static size_t parsed_figures(const vxp_machine *m) {
  size_t n = 0;
  for (size_t i = 0; i < m->spaces.len; i++) {
    const vxp_space *sp = &m->spaces.items[i];
    n += sp->has_capacity + sp->has_bandwidth + sp->has_clock + sp->has_granule + sp->has_replicas;
  }
  for (size_t i = 0; i < m->topologies.len; i++) {
    const vxp_topology *t = &m->topologies.items[i];
    for (size_t k = 0; k < t->edges.len; k++)
      n += t->edges.items[k].cost_kind != VXP_COST_NONE;
    /* One `// compute:` line may name several element types at one rate. */
    for (size_t k = 0; k < t->compute.len; k++)
      n += k == 0 || t->compute.items[k].start_byte != t->compute.items[k - 1].start_byte;
  }
  return n;
}

static const char *skip_space(const char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  return s;
}

/* Figures written on one line (its code, comment stripped): each field that takes a
 * quantity, and an edge with a `:` cost. */
static int figures_on_line(const char *line, size_t len) {
  /* A topology's arithmetic rate is a comment line of its own (fleet/README.md). */
  if (strncmp(skip_space(line), "// compute:", 11) == 0) return 1;
  char code[512];
  if (len >= sizeof(code)) len = sizeof(code) - 1;
  memcpy(code, line, len);
  code[len] = '\0';
  char *comment = strstr(code, "//");
  if (comment) *comment = '\0';
  static const char *const fields[] = {"capacity", "bandwidth", "clock", "granule", "replicas"};
  int n = 0;
  for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
    for (const char *p = code; (p = strstr(p, fields[k])) != NULL; p += strlen(fields[k])) {
      if (*skip_space(p + strlen(fields[k])) == ':') n++;
    }
  }
  /* An edge's cost follows a lone `:` after the arrow (not the `::` of a path). */
  const char *arrow = strstr(code, "->");
  if (strstr(code, "transfer") && arrow) {
    for (const char *p = arrow; *p; p++) {
      if (*p == ':' && p[1] != ':' && p[-1] != ':') {
        n++;
        break;
      }
    }
  }
  return n;
}

/* The spec rule on `text`: returns the number of figure lines; `*unsourced` receives the
 * first figure line (1-based) without a `// spec:` comment directly above it, and
 * `*crowded` the first line with more than one figure (0 when there is none). */
static size_t scan_spec_comments(const char *text, size_t *unsourced, size_t *crowded) {
  const char *lines[2048];
  size_t lens[2048], count = 0;
  for (const char *p = text; *p && count < 2048;) {
    const char *end = strchr(p, '\n');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    lines[count] = p;
    lens[count++] = len;
    p += len + (end != NULL);
  }
  size_t figures = 0;
  *unsourced = *crowded = 0;
  for (size_t i = 0; i < count; i++) {
    int n = figures_on_line(lines[i], lens[i]);
    if (n == 0) continue;
    if (n > 1 && !*crowded) *crowded = i + 1;
    figures++;
    bool spec = false;
    for (size_t k = i; k-- > 0;) {
      const char *s = skip_space(lines[k]);
      if (strncmp(s, "//", 2) != 0 || strncmp(s, "// compute:", 11) == 0) break;
      if (strncmp(s, "// spec:", 8) == 0) spec = true;
    }
    if (!spec && !*unsourced) *unsourced = i + 1;
  }
  return figures;
}

static size_t check_spec_comments(const char *path, const char *text) {
  size_t unsourced, crowded;
  size_t figures = scan_spec_comments(text, &unsourced, &crowded);
  if (crowded) fail_msg("%s:%zu: several figures on one line; write one per line", path, crowded);
  if (unsourced)
    fail_msg("%s:%zu: this figure has no `// spec:` comment directly above it naming its "
             "public source",
             path, unsourced);
  return figures;
}

static void check_file(const char *dir, const char *name) {
  char path[512], stem[128];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  snprintf(stem, sizeof(stem), "%.*s", (int)(strlen(name) - 3), name);
  size_t len;
  char *text = read_text(path, &len);
  vxp_context *ctx = test_context();
  vxp_source *src;
  vxp_machine *m;
  assert_int_equal(vxp_source_new(&src, ctx, path, text, len), VXP_OK);
  assert_int_equal(vxp_machine_load(&m, ctx, src), VXP_OK);
  for (size_t i = 0; i < vxp_machine_diagnostic_count(m); i++)
    fail_msg("%s: %s", path, vxp_diagnostic_message(vxp_machine_diagnostic(m, i)));

  /* Every figure is sourced, one per line, and the scan saw every figure the library read. */
  size_t scanned = check_spec_comments(path, text);
  if (scanned != parsed_figures(m))
    fail_msg("%s: %zu figure lines but the library read %zu figures", path, scanned,
             parsed_figures(m));

  /* The library's built-in copy is this file, byte for byte. */
  vxp_machine *builtin;
  assert_int_equal(vxp_machine_builtin(&builtin, ctx, stem), VXP_OK);
  if (builtin->src->len != len || memcmp(builtin->src->text, text, len) != 0)
    fail_msg("%s: the built-in copy differs from the file (rebuild the library)", path);
  vxp_machine_free(builtin);

  /* Merged with a program (as a device with the default host, or as the host of a100-40),
   * the declarations are coherent: no E6005-E6016, no routes problem. */
  const char *prog_text = "fn main() -> i32 { return 0; }\n";
  vxp_source *prog_src;
  vxp_program *prog;
  vxp_machine *other;
  assert_int_equal(vxp_source_new(&prog_src, ctx, "empty.vx", prog_text, strlen(prog_text)),
                   VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, prog_src), VXP_OK);
  bool host = strncmp(name, "host-", 5) == 0;
  assert_int_equal(vxp_machine_builtin(&other, ctx, host ? "a100-40" : "host-default"), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = host ? other : m;
  opts.host = host ? m : other;
  vxp_analysis *an;
  assert_int_equal(vxp_analyze(&an, ctx, prog, &opts), VXP_OK);
  for (size_t i = 0; i < vxp_analysis_diagnostic_count(an); i++)
    fail_msg("%s merged: %s", path, vxp_diagnostic_message(vxp_analysis_diagnostic(an, i)));
  vxp_analysis_free(an);
  vxp_machine_free(other);
  vxp_program_free(prog);
  vxp_source_free(prog_src);
  vxp_machine_free(m);
  vxp_source_free(src);
  vxp_context_free(ctx);
  free(text);
}

static void test_fleet__every_model_loads_and_sources_every_figure(void **state) {
  (void)state;
  const char *required[] = {"a100-40.vx",   "a100-80.vx", "h100-sxm.vx",  "h200.vx",
                            "b200.vx",      "mi300x.vx",  "l4.vx",        "rtx-4090.vx",
                            "cortex-m7.vx", "m4-uma.vx",  "node-8gpu.vx", "host-default.vx"};
  bool seen[sizeof(required) / sizeof(required[0])] = {false};
  size_t files = 0;
  DIR *d = opendir("fleet");
  assert_non_null(d);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t n = strlen(e->d_name);
    if (n < 4 || strcmp(e->d_name + n - 3, ".vx") != 0) continue;
    check_file("fleet", e->d_name);
    files++;
    for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
      if (strcmp(required[i], e->d_name) == 0) seen[i] = true;
  }
  closedir(d);
  for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
    if (!seen[i]) fail_msg("fleet/%s is missing", required[i]);
  assert_true(files >= sizeof(required) / sizeof(required[0]) + 1); /* and a real host */
}

/* Every GPU model (arch nvptx64 or amdgcn) says what it knows of the overhead a process holds
 * before it places a byte (fleet/README.md, "Overheads"): a comment that no size is published
 * for the part, so none is taken out of its capacity; none carries an `// overhead:` line, which
 * would mean bytes already taken out. */
static void test_fleet__each_gpu_says_what_is_known_of_its_context_overhead(void **state) {
  (void)state;
  const char *gpus[] = {"a100-40", "a100-80", "h100-sxm", "h200",     "b200",
                        "mi300x",  "l4",      "rtx-4090", "node-8gpu"};
  for (size_t i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++) {
    char path[128];
    snprintf(path, sizeof(path), "fleet/%s.vx", gpus[i]);
    size_t len;
    char *text = read_text(path, &len);
    if (!strstr(text, "arch: nvptx64") && !strstr(text, "arch: amdgcn"))
      fail_msg("%s: not a GPU model", path);
    if (!strstr(text, "// Overheads (fleet/README.md, \"Overheads\"):") ||
        !strstr(text, "has no published size for this part"))
      fail_msg("%s: says nothing of the context's overhead", path);
    if (strstr(text, "// overhead:"))
      fail_msg("%s: a fleet model carries no calibrated overhead", path);
    free(text);
  }
}

/* Which element types each part's hardware takes (E6026 on `dtypes:`): the table vxc's
 * fleet pins, cited in each file. FP8 arrives with Hopper, FP4 with Blackwell only, INT4 goes
 * the other way (Ampere has it, Hopper and Blackwell do not), and Metal has no double. */
static void test_fleet__element_types_follow_each_parts_hardware(void **state) {
  (void)state;
  static const struct {
    const char *machine, *elem;
    int admitted;
  } rows[] = {
      {"a100-80", "f8e4m3", 0}, {"h100-sxm", "f8e4m3", 1}, {"b200", "f8e4m3", 1},
      {"mi300x", "f8e4m3", 1},  {"a100-80", "f4e2m1", 0},  {"h100-sxm", "f4e2m1", 0},
      {"b200", "f4e2m1", 1},    {"mi300x", "f4e2m1", 0},   {"a100-80", "i4", 1},
      {"h100-sxm", "i4", 0},    {"b200", "i4", 0},         {"m4-uma", "f64", 0},
      {"a100-80", "f64", 1},    {"h100-sxm", "f64", 1},    {"a100-80", "f32", 1},
      {"h100-sxm", "f32", 1},   {"b200", "f32", 1},        {"mi300x", "f32", 1},
      {"m4-uma", "f32", 1},     {"m4-uma", "f16", 1},      {"h200", "f8e4m3", 1},
      {"h200", "i4", 0},        {"a100-40", "i4", 1},      {"cortex-m7", "bf16", 0},
  };
  vxp_context *ctx;
  assert_int_equal(vxp_context_new(&ctx, NULL), VXP_OK);
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
    char text[256];
    snprintf(text, sizeof(text),
             "fn main() -> i32 {\n  let t = transfer(Tensor<%s, [8, 8]>::uninit(), Memory::HBM);\n"
             "  print!(t);\n  return 0;\n}\n",
             rows[i].elem);
    vxp_source *src;
    vxp_program *prog;
    vxp_machine *m, *host;
    vxp_analysis *an;
    assert_int_equal(vxp_source_new(&src, ctx, "probe.vx", text, strlen(text)), VXP_OK);
    assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
    assert_int_equal(vxp_machine_builtin(&m, ctx, rows[i].machine), VXP_OK);
    assert_int_equal(vxp_machine_builtin(&host, ctx, "host-default"), VXP_OK);
    vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
    opts.machine = m;
    opts.host = host;
    assert_int_equal(vxp_analyze(&an, ctx, prog, &opts), VXP_OK);
    size_t refused = test_count_diag(an, "E6026");
    if ((refused == 0) != (rows[i].admitted != 0))
      fail_msg("%s %s: expected %s, got %zu E6026", rows[i].machine, rows[i].elem,
               rows[i].admitted ? "admitted" : "refused", refused);
    vxp_analysis_free(an);
    vxp_machine_free(host);
    vxp_machine_free(m);
    vxp_program_free(prog);
    vxp_source_free(src);
  }
  vxp_context_free(ctx);
}

static void test_fleet__an_unsourced_figure_is_caught(void **state) {
  (void)state;
  /* The rule itself, so that the check above cannot pass vacuously. */
  size_t unsourced, crowded;
  const char *ok = "Memory A {\n  // spec: a datasheet\n  // more words\n  capacity: 1 GiB\n}\n";
  assert_int_equal(scan_spec_comments(ok, &unsourced, &crowded), 1);
  assert_int_equal(unsourced, 0);
  const char *bare = "Memory A {\n  // spec: a datasheet\n  capacity: 1 GiB,\n"
                     "  bandwidth: 2 GB/s\n}\n";
  assert_int_equal(scan_spec_comments(bare, &unsourced, &crowded), 2);
  assert_int_equal(unsourced, 4);
  /* A compute line is a figure; the one above it is not its source. */
  const char *twice = "Topology T {\n  memory: Memory::A,\n  // spec: a datasheet\n"
                      "  // compute: f32 1 TFLOP/s\n  // compute: f16 2 TFLOP/s\n}\n";
  assert_int_equal(scan_spec_comments(twice, &unsourced, &crowded), 2);
  assert_int_equal(unsourced, 5);
  const char *gap = "// spec: a datasheet\n\nMemory A { capacity: 1 GiB, granule: 1 KiB }\n";
  scan_spec_comments(gap, &unsourced, &crowded);
  assert_int_equal(unsourced, 3);
  assert_int_equal(crowded, 3);
  assert_int_equal(figures_on_line("  capacity: 1 GiB, bandwidth: 2 GB/s", 36), 2);
  assert_int_equal(figures_on_line("  transfer Memory::A -> Memory::B : 3 GB/s", 42), 1);
  assert_int_equal(figures_on_line("  transfer Memory::A -> Memory::B", 33), 0);
  assert_int_equal(figures_on_line("  // capacity: in a comment", 27), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fleet__every_model_loads_and_sources_every_figure),
      cmocka_unit_test(test_fleet__each_gpu_says_what_is_known_of_its_context_overhead),
      cmocka_unit_test(test_fleet__element_types_follow_each_parts_hardware),
      cmocka_unit_test(test_fleet__an_unsourced_figure_is_caught),
  };
  return cmocka_run_group_tests_name("fleet", tests, NULL, NULL);
}
