/* SPDX-License-Identifier: Apache-2.0 */
/* test_report.c - the reports the library renders (lib/report/): explain and sweep as text
 * and JSON, the plot as SVG, their options' versions, and their refusals. Byte-for-byte agreement
 * with the command is the golden tests' (tests/golden/explain-*, sweep-*). */
#include <jansson.h>
#include <stddef.h>

#include <math.h>

#include "support.h"

static const char *MACHINE_TEXT =
    "Memory CPU_DRAM {}\n"
    "Memory W { within: Memory::CPU_DRAM, capacity: 1 GiB, managed: explicit }\n";

/* `n` tiles of distinct sizes in W, all read at the end of main (so all live at its peak). */
static char *many_tiles(size_t n) {
  size_t cap = 256 + n * 112;
  char *text = malloc(cap);
  assert_non_null(text);
  size_t o = (size_t)snprintf(text, cap, "%sfn main() -> f32 {\n", MACHINE_TEXT);
  for (size_t i = 0; i < n; i++)
    o += (size_t)snprintf(text + o, cap - o,
                          "  let t%zu = transfer(Tensor<f32, [%zu]>::new(), Memory::W);\n", i,
                          i + 1);
  o += (size_t)snprintf(text + o, cap - o, "  t0[0]");
  for (size_t i = 1; i < n; i++)
    o += (size_t)snprintf(text + o, cap - o, " + t%zu[0]", i);
  o += (size_t)snprintf(text + o, cap - o, "\n}\n");
  assert_true(o < cap);
  return text;
}

/* `path` analysed on built-in machine `machine` with the default host. */
static test_run test_analyse_file(const char *path, const char *machine) {
  test_run r;
  memset(&r, 0, sizeof(r));
  r.ctx = test_context();
  assert_int_equal(vxp_source_load_file(&r.src, r.ctx, path), VXP_OK);
  assert_int_equal(vxp_program_parse(&r.prog, r.ctx, r.src), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&r.machine, r.ctx, machine), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&r.host, r.ctx, "host-default"), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = r.machine;
  opts.host = r.host;
  assert_int_equal(vxp_analyze(&r.an, r.ctx, r.prog, &opts), VXP_OK);
  return r;
}

static json_t *parse(const vxp_report *rep) {
  size_t len = 0;
  const char *text = vxp_report_text(rep, &len);
  assert_non_null(text);
  assert_int_equal(strlen(text), len);
  json_error_t err;
  json_t *doc = json_loadb(text, len, 0, &err);
  if (!doc) fail_msg("the report is not JSON: %s (line %d)", err.text, err.line);
  return doc;
}

static void test_report__explain_keeps_every_row(void **state) {
  (void)state;
  char *text = many_tiles(300);
  test_run r = test_analyse(text);
  free(text);
  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.format = VXP_REPORT_JSON;
  vxp_report *rep = NULL;
  assert_int_equal(vxp_report_explain(&rep, r.ctx, r.an, &ro), VXP_OK);
  json_t *doc = parse(rep);
  assert_string_equal(json_string_value(json_object_get(doc, "schema")), "vxpeak-explain-v1");
  json_t *sets = json_object_get(doc, "resident_sets");
  assert_int_equal(json_array_size(sets), 1);
  json_t *set = json_array_get(sets, 0);
  assert_int_equal(json_integer_value(json_object_get(set, "tiles")), 300);
  /* Every size differs, so every tile is a site row of its own: past the old 256. */
  assert_int_equal(json_array_size(json_object_get(set, "by_site")), 300);
  json_decref(doc);
  vxp_report_free(rep);
  /* The text has the same rows: one line per site. */
  assert_int_equal(vxp_report_explain(&rep, r.ctx, r.an, NULL), VXP_OK);
  size_t rows = 0;
  for (const char *p = vxp_report_text(rep, NULL); (p = strstr(p, "\n  line ")); p++)
    rows++;
  assert_int_equal(rows, 300);
  vxp_report_free(rep);
  test_done(&r);
}

static void test_report__explain_selects_and_says_when_nothing_matches(void **state) {
  (void)state;
  test_run r =
      test_analyse("Memory CPU_DRAM {}\n"
                   "Memory W { within: Memory::CPU_DRAM, capacity: 1 KiB, managed: explicit }\n"
                   "fn main() -> i32 {\n"
                   "  let a = transfer(Tensor<f32, [4]>::uninit(), Memory::W);\n"
                   "  return 0;\n}\n");
  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.function = "nope";
  vxp_report *rep = NULL;
  assert_int_equal(vxp_report_explain(&rep, r.ctx, r.an, &ro), VXP_OK);
  assert_string_equal(vxp_report_text(rep, NULL),
                      "no tile is placed in a space with a capacity by nope: nothing to explain\n");
  vxp_report_free(rep);
  ro.function = "main";
  ro.space = "W";
  assert_int_equal(vxp_report_explain(&rep, r.ctx, r.an, &ro), VXP_OK);
  assert_non_null(strstr(vxp_report_text(rep, NULL), "main: W peak 16 bytes"));
  vxp_report_free(rep);
  test_done(&r);
}

static void test_report__options_versions_one_to_current_are_read(void **state) {
  (void)state;
  test_run r = test_analyse("fn main() -> i32 {\n  return 0;\n}\n");
  vxp_report_options ro;
  assert_int_equal(vxp_report_options_init(&ro, 0), VXP_EVERSION);
  assert_int_equal(vxp_report_options_init(&ro, VXP_REPORT_OPTIONS_VERSION + 1), VXP_EVERSION);
  assert_int_equal(vxp_report_options_init(&ro, 1), VXP_OK);
  assert_int_equal(ro.format, VXP_REPORT_TEXT);
  vxp_report *rep = NULL;
  ro.version = VXP_REPORT_OPTIONS_VERSION + 1;
  assert_int_equal(vxp_report_explain(&rep, r.ctx, r.an, &ro), VXP_EVERSION);
  assert_null(rep);
  assert_int_equal(vxp_context_errcode(r.ctx), VXP_EVERSION);
  ro.version = 1;
  ro.format = (vxp_report_format)7;
  assert_int_equal(vxp_report_explain(&rep, r.ctx, r.an, &ro), VXP_EINVAL);
  assert_int_equal(vxp_report_explain(NULL, r.ctx, r.an, NULL), VXP_EINVAL);
  assert_int_equal(vxp_report_explain(&rep, NULL, r.an, NULL), VXP_EINVAL);
  assert_null(vxp_report_text(NULL, NULL));
  vxp_report_free(NULL);
  test_done(&r);
}

static void test_report__sweep_reports_one_question_per_report(void **state) {
  (void)state;
  const char *text = "Memory CPU_DRAM {}\n"
                     "Memory W { within: Memory::CPU_DRAM, capacity: 1 KiB, managed: explicit }\n"
                     "const N: usize = 4;\n"
                     "fn main() -> i32 {\n"
                     "  let a = transfer(Tensor<f32, [N]>::uninit(), Memory::W);\n"
                     "  return 0;\n}\n";
  test_run r = test_analyse(text);
  vxp_sweep_options so = VXP_SWEEP_OPTIONS_INIT;
  so.name = "N";
  so.lo = 1;
  so.hi = 1000;
  vxp_sweep *a = NULL, *b = NULL;
  assert_int_equal(vxp_sweep_run(&a, r.ctx, r.prog, NULL, &so), VXP_OK);
  so.hi = 999;
  assert_int_equal(vxp_sweep_run(&b, r.ctx, r.prog, NULL, &so), VXP_OK);
  const vxp_sweep *one[] = {a};
  const char *names[] = {"w-machine"};
  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.format = VXP_REPORT_JSON;
  vxp_report *rep = NULL;
  assert_int_equal(vxp_report_sweep(&rep, r.ctx, one, names, 1, &ro), VXP_OK);
  json_t *doc = parse(rep);
  assert_string_equal(json_string_value(json_object_get(doc, "const")), "N");
  assert_string_equal(json_string_value(json_object_get(doc, "file")), "test.vx");
  json_t *m = json_array_get(json_object_get(doc, "machines"), 0);
  assert_string_equal(json_string_value(json_object_get(m, "machine")), "w-machine");
  /* 1 KiB holds 256 f32. */
  assert_int_equal(json_integer_value(json_object_get(json_object_get(m, "largest"), "value")),
                   256);
  /* 256 f32 fill the 1 KiB exactly: no room to spare, and none missing (not "-0.00%"). */
  json_t *spare = json_object_get(json_object_get(m, "largest"), "spare");
  assert_true(json_is_number(spare));
  assert_true(json_number_value(spare) == 0.0 && !signbit(json_number_value(spare)));
  json_decref(doc);
  vxp_report_free(rep);
  ro.format = VXP_REPORT_TEXT;
  assert_int_equal(vxp_report_sweep(&rep, r.ctx, one, names, 1, &ro), VXP_OK);
  const char *table = vxp_report_text(rep, NULL);
  if (!strstr(table, " 0.00%")) fail_msg("no 0.00%% in:\n%s", table);
  if (strstr(table, "-0.00%")) fail_msg("a full fit printed as -0.00%%:\n%s", table);
  vxp_report_free(rep);
  /* Two sweeps over different ranges are two questions: refused. */
  const vxp_sweep *two[] = {a, b};
  assert_int_equal(vxp_report_sweep(&rep, r.ctx, two, NULL, 2, &ro), VXP_EINVAL);
  assert_int_equal(vxp_report_sweep(&rep, r.ctx, two, NULL, 0, &ro), VXP_EINVAL);
  vxp_sweep_free(a);
  vxp_sweep_free(b);
  test_done(&r);
}

/* A version-1 caller's struct ends at `machine`: it is read no further (ASan sees a read past
 * a heap block of exactly that size), and the version-2 fields take their defaults. */
static void test_report__a_version_1_options_struct_is_read_no_further_than_its_end(void **state) {
  (void)state;
  test_run r =
      test_analyse("Memory CPU_DRAM {}\n"
                   "Memory W { within: Memory::CPU_DRAM, capacity: 1 KiB, managed: explicit }\n"
                   "fn main() -> i32 {\n"
                   "  let a = transfer(Tensor<f32, [4]>::uninit(), Memory::W);\n"
                   "  return 0;\n}\n");
  size_t v1 = offsetof(vxp_report_options, traffic);
  vxp_report_options full;
  memset(&full, 0, sizeof(full));
  full.version = 1;
  full.format = VXP_REPORT_JSON;
  full.function = "main";
  /* The caller's struct as an older header laid it out: its bytes and no more. */
  void *block = malloc(v1);
  assert_non_null(block);
  memcpy(block, &full, v1);
  const vxp_report_options *old = block;
  vxp_report *rep = NULL;
  assert_int_equal(vxp_report_explain(&rep, r.ctx, r.an, old), VXP_OK);
  json_t *doc = parse(rep);
  assert_int_equal(json_array_size(json_object_get(doc, "resident_sets")), 1);
  json_decref(doc);
  vxp_report_free(rep);
  assert_int_equal(vxp_report_roofline(&rep, r.ctx, r.an, old), VXP_OK);
  doc = parse(rep);
  json_t *fn = json_array_get(json_object_get(doc, "functions"), 0);
  assert_string_equal(json_string_value(json_object_get(fn, "traffic_model")), "compulsory");
  assert_int_equal(json_integer_value(json_object_get(fn, "tokens_per_call")), 1);
  json_decref(doc);
  vxp_report_free(rep);
  free(block);
  test_done(&r);
}

static void test_report__roofline_report_is_the_rooflines_figures(void **state) {
  (void)state;
  test_run r = test_analyse_file("examples/llama2/decode.vx", "a100-40");
  vxp_roofline *rf = NULL;
  assert_int_equal(vxp_roofline_new(&rf, r.ctx, r.an, "main"), VXP_OK);
  uint64_t call = 0, mem = 0;
  assert_true(vxp_roofline_call_time_ps(rf, VXP_TRAFFIC_NO_REUSE, &call));
  assert_true(vxp_roofline_memory_time_ps(rf, VXP_TRAFFIC_NO_REUSE, &mem));
  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.format = VXP_REPORT_JSON;
  ro.traffic = VXP_TRAFFIC_NO_REUSE;
  ro.tokens_per_call = 8;
  ro.tokens_name = "BATCH";
  vxp_report *rep = NULL;
  assert_int_equal(vxp_report_roofline(&rep, r.ctx, r.an, &ro), VXP_OK);
  json_t *doc = parse(rep);
  assert_string_equal(json_string_value(json_object_get(doc, "schema")), "vxpeak-roofline-v1");
  json_t *fns = json_object_get(doc, "functions");
  assert_int_equal(json_array_size(fns), 1); /* only main has a spawn region */
  json_t *fn = json_array_get(fns, 0);
  assert_string_equal(json_string_value(json_object_get(fn, "traffic_model")), "no_reuse");
  assert_int_equal(json_integer_value(json_object_get(fn, "call_time_ps")), call);
  assert_int_equal(json_integer_value(json_object_get(fn, "memory_time_ps")), mem);
  assert_string_equal(json_string_value(json_object_get(fn, "tokens_per_call_from")), "BATCH");
  json_decref(doc);
  vxp_report_free(rep);
  /* The text names the machine it is given, and the tokens. */
  ro.format = VXP_REPORT_TEXT;
  ro.machine = "the test machine";
  assert_int_equal(vxp_report_roofline(&rep, r.ctx, r.an, &ro), VXP_OK);
  assert_non_null(strstr(vxp_report_text(rep, NULL), "main on the test machine"));
  assert_non_null(strstr(vxp_report_text(rep, NULL), "x 8 (BATCH) = "));
  vxp_report_free(rep);
  /* A function without device work, named: its report says so; an unknown traffic model is
   * refused. */
  ro.traffic = (vxp_traffic_model)9;
  assert_int_equal(vxp_report_roofline(&rep, r.ctx, r.an, &ro), VXP_EINVAL);
  vxp_roofline_free(rf);
  test_done(&r);
}

static void test_report__frontier_report_keeps_the_question_it_was_asked(void **state) {
  (void)state;
  test_run r = test_analyse_file("examples/llama2/decode.vx", "l4");
  vxp_const_override other = {"CONTEXT", 128};
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = r.machine;
  opts.host = r.host;
  opts.overrides = &other;
  opts.override_count = 1;
  vxp_frontier_options fo;
  assert_int_equal(vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION), VXP_OK);
  fo.name = "BATCH";
  fo.lo = 1;
  fo.hi = 3;
  fo.margin_ppm = 250000;
  fo.traffic = VXP_TRAFFIC_NO_REUSE;
  fo.tokens_per_call = 5;
  vxp_frontier *f = NULL;
  assert_int_equal(vxp_frontier_run(&f, r.ctx, r.prog, &opts, &fo), VXP_OK);
  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.format = VXP_REPORT_JSON;
  vxp_report *rep = NULL;
  assert_int_equal(vxp_report_frontier(&rep, r.ctx, f, &ro), VXP_OK);
  json_t *doc = parse(rep);
  assert_string_equal(json_string_value(json_object_get(doc, "schema")), "vxpeak-frontier-v1");
  assert_string_equal(json_string_value(json_object_get(doc, "const")), "BATCH");
  assert_int_equal(json_integer_value(json_object_get(doc, "margin_ppm")), 250000);
  assert_string_equal(json_string_value(json_object_get(doc, "traffic_model")), "no_reuse");
  assert_string_equal(json_string_value(json_object_get(doc, "tokens_per_call")), "5");
  assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "defines"), "CONTEXT")),
                   128);
  assert_int_equal(json_array_size(json_object_get(doc, "points")), vxp_frontier_point_count(f));
  json_decref(doc);
  vxp_report_free(rep);
  /* The text names the machine by its label unless told otherwise. */
  assert_int_equal(vxp_report_frontier(&rep, r.ctx, f, NULL), VXP_OK);
  assert_non_null(strstr(vxp_report_text(rep, NULL), " on l4 (built-in): BATCH in 1..3"));
  vxp_report_free(rep);
  /* The picture: one dot per value with a call time, its figures as attributes. */
  ro.format = VXP_REPORT_SVG;
  assert_int_equal(vxp_report_frontier(&rep, r.ctx, f, &ro), VXP_OK);
  const char *svg = vxp_report_text(rep, NULL);
  assert_true(strncmp(svg, "<svg ", 5) == 0);
  assert_non_null(strstr(svg, "data-const=\"BATCH\" data-machine=\"l4 (built-in)\""));
  size_t dots = 0;
  for (const char *p = svg; (p = strstr(p, "<circle class=\"point\"")); p++)
    dots++;
  assert_true(dots >= 1 && dots <= 3);
  vxp_report_free(rep);
  /* A caller's machine name is text, escaped for XML (the command's SVG wrote it raw). */
  ro.machine = "l4 & co <x>";
  assert_int_equal(vxp_report_frontier(&rep, r.ctx, f, &ro), VXP_OK);
  assert_non_null(strstr(vxp_report_text(rep, NULL), "data-machine=\"l4 &amp; co &lt;x&gt;\""));
  assert_null(strstr(vxp_report_text(rep, NULL), "<x>"));
  vxp_report_free(rep);
  assert_int_equal(vxp_report_frontier(&rep, r.ctx, NULL, NULL), VXP_EINVAL);
  vxp_frontier_free(f);
  test_done(&r);
}

/* The largest data-live-bytes="N" of an SVG, and how many panels it draws. */
static uint64_t max_live(const char *svg, size_t *panels) {
  uint64_t best = 0;
  for (const char *p = svg; (p = strstr(p, "data-live-bytes=\"")); p++) {
    uint64_t v = strtoull(p + strlen("data-live-bytes=\""), NULL, 10);
    if (v > best) best = v;
  }
  *panels = 0;
  for (const char *p = svg; (p = strstr(p, "<g class=\"panel\"")); p++)
    (*panels)++;
  return best;
}

static void test_report__plot_draws_the_peak_the_analysis_reports(void **state) {
  (void)state;
  char *text = many_tiles(40);
  test_run r = test_analyse(text);
  free(text);
  const vxp_resident_set *rs = vxp_analysis_resident_set(r.an, 0);
  char want[64];
  snprintf(want, sizeof(want), "data-peak-bytes=\"%llu\"",
           (unsigned long long)vxp_resident_set_peak_bytes(rs));
  vxp_report *rep = NULL;
  assert_int_equal(vxp_report_plot(&rep, r.ctx, r.an, NULL), VXP_OK); /* SVG by default */
  const char *svg = vxp_report_text(rep, NULL);
  assert_true(strncmp(svg, "<?xml", 5) == 0);
  assert_non_null(strstr(svg, want));
  size_t panels = 0;
  assert_int_equal(max_live(svg, &panels), vxp_resident_set_peak_bytes(rs));
  assert_int_equal(panels, 1);
  /* 40 tiles of distinct bindings live at the peak: 10 legend rows and the other 30 counted. */
  assert_non_null(strstr(svg, "and 30 more</text>"));
  assert_non_null(strstr(svg, "test.vx on its own machine model</text>"));
  vxp_report_free(rep);
  test_done(&r);
}

static void test_report__plot_refuses_other_forms_and_empty_selections(void **state) {
  (void)state;
  test_run r =
      test_analyse("Memory CPU_DRAM {}\n"
                   "Memory W { within: Memory::CPU_DRAM, capacity: 1 KiB, managed: explicit }\n"
                   "fn main() -> i32 {\n"
                   "  let a = transfer(Tensor<f32, [4]>::uninit(), Memory::W);\n"
                   "  return 0;\n}\n");
  vxp_report *rep = NULL;
  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.format = VXP_REPORT_JSON;
  assert_int_equal(vxp_report_plot(&rep, r.ctx, r.an, &ro), VXP_EINVAL);
  assert_null(rep);
  ro.format = VXP_REPORT_SVG;
  assert_int_equal(vxp_report_explain(&rep, r.ctx, r.an, &ro), VXP_EINVAL); /* text or JSON */
  ro.function = "nope";
  assert_int_equal(vxp_report_plot(&rep, r.ctx, r.an, &ro), VXP_ENOTFOUND);
  assert_non_null(strstr(vxp_context_errmsg(r.ctx), "by nope: nothing to plot"));
  ro.function = "main";
  ro.space = "W";
  assert_int_equal(vxp_report_plot(&rep, r.ctx, r.an, &ro), VXP_OK);
  assert_int_equal(vxp_context_errcode(r.ctx), VXP_OK); /* success clears the error */
  assert_non_null(strstr(vxp_report_text(rep, NULL), "data-peak-bytes=\"16\""));
  vxp_report_free(rep);
  test_done(&r);
}

static void test_report__a_streamed_plot_is_the_plot_in_bounded_pieces(void **state) {
  (void)state;
  /* 900 tiles in one function, one position each: a picture of a few hundred KiB. */
  char *text = many_tiles(900);
  test_run r = test_analyse(text);
  free(text);
  vxp_report *rep = NULL;
  assert_int_equal(vxp_report_plot(&rep, r.ctx, r.an, NULL), VXP_OK);
  size_t len = 0;
  const char *whole = vxp_report_text(rep, &len);
  assert_true(len > (200u << 10));
  test_sink p = {0};
  assert_int_equal(vxp_report_plot_write(r.ctx, r.an, NULL, test_sink_write, &p), VXP_OK);
  assert_int_equal(p.len, len);
  assert_memory_equal(p.text, whole, len); /* byte for byte */
  assert_true(p.pieces > 3);
  assert_false(p.empty_piece);
  assert_true(p.largest < (80u << 10)); /* never held whole: pieces of about 64 KiB */
  free(p.text);
  /* A writer that fails stops the picture: VXP_EIO, and nothing after the refused piece. */
  test_sink q = {0};
  q.refuse_at = 2;
  assert_int_equal(vxp_report_plot_write(r.ctx, r.an, NULL, test_sink_write, &q), VXP_EIO);
  assert_int_equal(vxp_context_errcode(r.ctx), VXP_EIO);
  assert_int_equal(q.pieces, 2);
  assert_false(q.empty_piece);
  free(q.text);
  /* Nothing to plot, a format it has not, or no writer: nothing is written. */
  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.format = VXP_REPORT_SVG;
  ro.function = "nope";
  test_sink none = {0};
  assert_int_equal(vxp_report_plot_write(r.ctx, r.an, &ro, test_sink_write, &none), VXP_ENOTFOUND);
  ro.function = NULL;
  ro.format = VXP_REPORT_JSON;
  assert_int_equal(vxp_report_plot_write(r.ctx, r.an, &ro, test_sink_write, &none), VXP_EINVAL);
  assert_int_equal(vxp_report_plot_write(r.ctx, r.an, NULL, NULL, &none), VXP_EINVAL);
  assert_int_equal(none.pieces, 0);
  vxp_report_free(rep);
  test_done(&r);
}

static void test_report__a_streamed_json_report_is_the_report_in_bounded_pieces(void **state) {
  (void)state;
  /* 3000 tiles in spaces nobody declares, each an E6025 of its own: a report of several
   * hundred KiB. */
  size_t cap = 1024 + 3000 * 96, o = 0;
  char *text = malloc(cap);
  assert_non_null(text);
  o += (size_t)snprintf(text + o, cap - o, "%s", MACHINE_TEXT);
  for (size_t i = 0; i < 3000; i++) /* 30 functions of 100 (an item holds 61440 tokens) */
    o += (size_t)snprintf(
        text + o, cap - o,
        "%s  let t%zu = transfer(Tensor<f32, [4]>::new(), Memory::Nowhere%zu);\n%s",
        i % 100 ? "" : "fn main() -> i32 {\n", i, i, i % 100 == 99 ? "  return 0;\n}\n" : "");
  assert_true(o < cap);
  test_run r = test_analyse(text);
  free(text);
  /* streamed first, so that it is rendered, not the cached text written */
  test_sink p = {0};
  assert_int_equal(vxp_analysis_json_write(r.an, test_sink_write, &p), VXP_OK);
  assert_int_equal(vxp_context_errcode(r.ctx), VXP_OK);
  size_t len = 0;
  const char *whole = vxp_analysis_json(r.an, &len);
  assert_non_null(whole);
  assert_true(len > (200u << 10));
  assert_int_equal(p.len, len);
  assert_memory_equal(p.text, whole, len); /* byte for byte */
  assert_true(p.pieces > 3);
  assert_false(p.empty_piece);
  assert_true(p.largest < (80u << 10)); /* never held whole: pieces of about 64 KiB */
  free(p.text);
  /* Once rendered, the cached text is what is written. */
  test_sink c = {0};
  assert_int_equal(vxp_analysis_json_write(r.an, test_sink_write, &c), VXP_OK);
  assert_int_equal(c.len, len);
  assert_memory_equal(c.text, whole, len);
  assert_false(c.empty_piece);
  free(c.text);
  /* A writer that fails stops the report: VXP_EIO, and nothing after the refused piece. */
  vxp_analysis *again = NULL;
  assert_int_equal(vxp_analyze(&again, r.ctx, r.prog, NULL), VXP_OK);
  test_sink q = {0};
  q.refuse_at = 2;
  assert_int_equal(vxp_analysis_json_write(again, test_sink_write, &q), VXP_EIO);
  assert_int_equal(vxp_context_errcode(r.ctx), VXP_EIO);
  assert_int_equal(q.pieces, 2);
  assert_false(q.empty_piece);
  free(q.text);
  test_sink none = {0};
  assert_int_equal(vxp_analysis_json_write(again, NULL, &none), VXP_EINVAL);
  assert_int_equal(vxp_analysis_json_write(NULL, test_sink_write, &none), VXP_EINVAL);
  assert_int_equal(none.pieces, 0);
  vxp_analysis_free(again);
  test_done(&r);
}

/* A one-value frontier of COLUMN at `column` with ROW set to `row`. */
static vxp_frontier *grid_cell(test_run *r, uint64_t row, uint64_t column) {
  vxp_const_override o = {"ROW", row};
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.overrides = &o;
  opts.override_count = 1;
  vxp_frontier_options fo;
  assert_int_equal(vxp_frontier_options_init(&fo, VXP_FRONTIER_OPTIONS_VERSION), VXP_OK);
  fo.name = "COLUMN";
  fo.lo = fo.hi = column;
  vxp_frontier *f = NULL;
  assert_int_equal(vxp_frontier_run(&f, r->ctx, r->prog, &opts, &fo), VXP_OK);
  return f;
}

static void test_report__sweep_grid_reads_rows_and_columns_from_its_cells(void **state) {
  (void)state;
  test_run r =
      test_analyse("Memory CPU_DRAM {}\n"
                   "Memory W { within: Memory::CPU_DRAM, capacity: 1 KiB, managed: explicit }\n"
                   "const ROW: usize = 1;\nconst COLUMN: usize = 1;\n"
                   "fn main() -> i32 {\n"
                   "  let a = transfer(Tensor<f32, [ROW, COLUMN]>::uninit(), Memory::W);\n"
                   "  return 0;\n}\n");
  /* 2 x 3: ROW 8, 16 down; COLUMN 4, 8, 32 across; 1 KiB holds 256 f32: 16 x 32 does not fit. */
  uint64_t rows[] = {8, 16}, cols[] = {4, 8, 32};
  vxp_frontier *cells[6];
  for (size_t i = 0; i < 6; i++)
    cells[i] = grid_cell(&r, rows[i / 3], cols[i % 3]);
  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.format = VXP_REPORT_JSON;
  vxp_report *rep = NULL;
  assert_int_equal(
      vxp_report_sweep_grid(&rep, r.ctx, (const vxp_frontier *const *)cells, 2, 3, "ROW", &ro),
      VXP_OK);
  json_t *doc = parse(rep);
  json_t *list = json_object_get(doc, "cells");
  assert_int_equal(json_array_size(list), 6);
  assert_int_equal(json_object_size(json_object_get(doc, "defines")), 0); /* ROW is the rows' */
  for (size_t i = 0; i < 6; i++) {
    json_t *c = json_array_get(list, i);
    assert_int_equal(json_integer_value(json_object_get(c, "ROW")), rows[i / 3]);
    assert_int_equal(json_integer_value(json_object_get(c, "COLUMN")), cols[i % 3]);
    assert_int_equal(json_is_true(json_object_get(c, "fits")), rows[i / 3] * cols[i % 3] <= 256);
  }
  json_decref(doc);
  vxp_report_free(rep);
  assert_int_equal(
      vxp_report_sweep_grid(&rep, r.ctx, (const vxp_frontier *const *)cells, 2, 3, "ROW", NULL),
      VXP_OK);
  assert_non_null(strstr(vxp_report_text(rep, NULL), "5 of 6 fit\n"));
  vxp_report_free(rep);
  rep = NULL;
  /* Cells out of place are another question: refused. */
  vxp_frontier *swapped = cells[1];
  cells[1] = cells[4];
  cells[4] = swapped;
  assert_int_equal(
      vxp_report_sweep_grid(&rep, r.ctx, (const vxp_frontier *const *)cells, 2, 3, "ROW", NULL),
      VXP_EINVAL);
  assert_int_equal(
      vxp_report_sweep_grid(&rep, r.ctx, (const vxp_frontier *const *)cells, 2, 3, "NOPE", NULL),
      VXP_EINVAL);
  assert_null(rep);
  for (size_t i = 0; i < 6; i++)
    vxp_frontier_free(cells[i]);
  test_done(&r);
}

/* The check's text: each peak with the tiles live at it (the set's own, even when another
 * function has the same name: the command's text once listed both functions' tiles under
 * each), the pairs inside the margin, and the verdict line; vxp_analysis_inside_margin
 * counts the same pairs. */
static void
test_report__check_lists_each_sets_own_tiles_and_the_pairs_inside_the_margin(void **state) {
  (void)state;
  static const char *TWO_F = "fn f() -> i32 {\n"
                             "  let a = transfer(Tensor<f32, [256]>::new(), Memory::W);\n"
                             "  let b = transfer(Tensor<f32, [256]>::new(), Memory::W);\n"
                             "  print!(a);\n  print!(b);\n  return 0;\n}\n"
                             "fn f() -> i32 {\n"
                             "  let c = transfer(Tensor<f32, [256]>::new(), Memory::W);\n"
                             "  let d = transfer(Tensor<f32, [256]>::new(), Memory::W);\n"
                             "  print!(c);\n  print!(d);\n  return 0;\n}\n";
  char program[1024];
  snprintf(program, sizeof(program), "%s%s", MACHINE_TEXT, TWO_F);
  test_run r = test_analyse(program);
  vxp_report *rep = NULL;
  assert_int_equal(vxp_report_check(&rep, r.ctx, r.an, NULL), VXP_OK);
  const char *text = vxp_report_text(rep, NULL);
  assert_non_null(strstr(text, "machine: the program's own declarations\n"));
  assert_non_null(strstr(text, "  2.00 KiB: 2 tiles of 1,024 bytes at function scope (a, b)\n"));
  assert_non_null(strstr(text, "  2.00 KiB: 2 tiles of 1,024 bytes at function scope (c, d)\n"));
  assert_null(strstr(text, "4 tiles"));
  assert_null(strstr(text, "inside the margin"));
  vxp_report_free(rep);
  assert_int_equal(vxp_analysis_inside_margin(r.an, 0), 0);
  test_done(&r);

  /* 2 KiB of a 1 GiB space fits with 99.9% free, not with 99.99999%. */
  r = test_analyse_with("fn main() -> i32 {\n"
                        "  let a = transfer(Tensor<f32, [256]>::new(), Memory::W);\n"
                        "  let b = transfer(Tensor<f32, [256]>::new(), Memory::W);\n"
                        "  print!(a);\n  print!(b);\n  return 0;\n}\n",
                        MACHINE_TEXT, 0);
  vxp_report_options ro = VXP_REPORT_OPTIONS_INIT;
  ro.margin_ppm = 999000;
  ro.machine = "w-box";
  assert_int_equal(vxp_report_check(&rep, r.ctx, r.an, &ro), VXP_OK);
  text = vxp_report_text(rep, NULL);
  assert_non_null(strstr(text, "machine: w-box\n"));
  assert_null(strstr(text, "inside the margin"));
  assert_non_null(strstr(text, "admitted: 0 errors, 0 warnings\n"));
  assert_int_equal(vxp_analysis_inside_margin(r.an, ro.margin_ppm), 0);
  vxp_report_free(rep);
  ro.margin_ppm = 999999;
  assert_int_equal(vxp_report_check(&rep, r.ctx, r.an, &ro), VXP_OK);
  text = vxp_report_text(rep, NULL);
  assert_non_null(strstr(text, "main: W needs 2,048 bytes (2.05 kB, 2.00 KiB), more than the "
                               "1,073 bytes (1.07 kB, 1.05 KiB) that leave 99.9999% of it free\n"));
  assert_non_null(strstr(text, "rejected: 0 errors, 0 warnings, 1 inside the margin\n"));
  assert_int_equal(vxp_analysis_inside_margin(r.an, ro.margin_ppm), 1);
  vxp_report_free(rep);
  /* No margin leaves nothing; other forms are refused. */
  ro.margin_ppm = 1000000;
  assert_int_equal(vxp_report_check(&rep, r.ctx, r.an, &ro), VXP_EINVAL);
  ro.margin_ppm = 0;
  ro.format = VXP_REPORT_JSON;
  assert_int_equal(vxp_report_check(&rep, r.ctx, r.an, &ro), VXP_EINVAL);
  assert_null(rep);
  assert_int_equal(vxp_analysis_inside_margin(NULL, 10), 0);
  /* Each call reports its own outcome: a success after a refusal clears the context. */
  ro.format = VXP_REPORT_TEXT;
  assert_int_equal(vxp_report_check(&rep, r.ctx, r.an, &ro), VXP_OK);
  assert_int_equal(vxp_context_errcode(r.ctx), VXP_OK);
  vxp_report_free(rep);
  assert_int_equal(vxp_report_check(NULL, r.ctx, r.an, &ro), VXP_EINVAL);
  assert_int_equal(vxp_report_check(&rep, NULL, r.an, &ro), VXP_EINVAL);
  test_done(&r);
}

/* The machine model's text with the framework's memory and overheads: the capacity becomes
 * what is offered less every overhead, old and new; a second calibration adds its line; the
 * reader of the copy sees the overheads apart; overheads that leave nothing are refused. */
static void
test_report__calibrated_machine_keeps_what_is_offered_and_the_overheads_apart(void **state) {
  (void)state;
  vxp_context *ctx = NULL;
  assert_int_equal(vxp_context_new(&ctx, NULL), VXP_OK);
  static const char text[] = "Memory HBM {\n  capacity: 40 GiB,\n  managed: explicit\n}\n";
  vxp_source *src = NULL, *src2 = NULL;
  vxp_machine *m = NULL, *m2 = NULL;
  vxp_report *rep = NULL, *rep2 = NULL;
  assert_int_equal(vxp_source_new(&src, ctx, "m.vx", text, sizeof(text) - 1), VXP_OK);
  assert_int_equal(vxp_machine_load(&m, ctx, src), VXP_OK);
  assert_int_equal(vxp_report_machine_calibrate(&rep, ctx, m, "HBM", 1000000, 300000, "a log"),
                   VXP_OK);
  size_t len = 0;
  const char *out = vxp_report_text(rep, &len);
  assert_string_equal(out, "Memory HBM {\n  // overhead: 300000 B, a log\n  capacity: 700000 B,\n"
                           "  managed: explicit\n}\n");
  /* Calibrated again, with the model's offer kept: 1,000,000 less both overheads. */
  assert_int_equal(vxp_source_new(&src2, ctx, "m2.vx", out, len), VXP_OK);
  assert_int_equal(vxp_machine_load(&m2, ctx, src2), VXP_OK);
  assert_int_equal(vxp_machine_diagnostic_count(m2), 0);
  assert_int_equal(vxp_report_machine_overhead(&rep2, ctx, m2, "HBM", 200000, "again"), VXP_OK);
  assert_non_null(strstr(vxp_report_text(rep2, NULL), "// overhead: 300000 B, a log\n"));
  assert_non_null(
      strstr(vxp_report_text(rep2, NULL), "// overhead: 200000 B, again\n  capacity: 500000 B,"));
  vxp_report_free(rep2);
  rep2 = NULL;
  /* 300,000 held already and 700,000 more leave nothing of 1,000,000. */
  assert_int_equal(vxp_report_machine_overhead(&rep2, ctx, m2, "HBM", 700000, "too much"),
                   VXP_EINVAL);
  assert_null(rep2);
  assert_int_equal(vxp_report_machine_calibrate(&rep2, ctx, m2, "HBM", 0, 1, "x\ny"), VXP_EINVAL);
  vxp_report_free(rep);
  vxp_machine_free(m2);
  vxp_machine_free(m);
  vxp_source_free(src2);
  vxp_source_free(src);
  vxp_context_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_report__explain_keeps_every_row),
      cmocka_unit_test(test_report__explain_selects_and_says_when_nothing_matches),
      cmocka_unit_test(test_report__options_versions_one_to_current_are_read),
      cmocka_unit_test(test_report__sweep_reports_one_question_per_report),
      cmocka_unit_test(test_report__a_version_1_options_struct_is_read_no_further_than_its_end),
      cmocka_unit_test(test_report__roofline_report_is_the_rooflines_figures),
      cmocka_unit_test(test_report__frontier_report_keeps_the_question_it_was_asked),
      cmocka_unit_test(test_report__sweep_grid_reads_rows_and_columns_from_its_cells),
      cmocka_unit_test(test_report__plot_draws_the_peak_the_analysis_reports),
      cmocka_unit_test(test_report__plot_refuses_other_forms_and_empty_selections),
      cmocka_unit_test(test_report__a_streamed_json_report_is_the_report_in_bounded_pieces),
      cmocka_unit_test(test_report__a_streamed_plot_is_the_plot_in_bounded_pieces),
      cmocka_unit_test(
          test_report__check_lists_each_sets_own_tiles_and_the_pairs_inside_the_margin),
      cmocka_unit_test(
          test_report__calibrated_machine_keeps_what_is_offered_and_the_overheads_apart),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
