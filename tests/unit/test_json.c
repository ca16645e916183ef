/* SPDX-License-Identifier: Apache-2.0 */
/* test_json.c - the analysis' JSON report (lib/report/json.c) is streamed by the reports'
 * JSON writer rather than built as a jansson tree: its text must stay what it was, the
 * compact dump jansson writes with JSON_ENSURE_ASCII | JSON_REAL_PRECISION(15) for each
 * top-level value and each element of a top-level array, one per line, for any program
 * text (escapes, bytes that are not UTF-8, reals, negative margins, a constant set twice). */
#include <jansson.h>
#include <stdbool.h>

#include "support.h"

/* Re-render `doc` in the report's layout with jansson, member by member. */
static char *as_jansson_would_write_it(json_t *doc) {
  const size_t flags =
      JSON_REAL_PRECISION(15) | JSON_ENSURE_ASCII | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER;
  size_t cap = 1 << 20, len = 0;
  char *out = malloc(cap);
  assert_non_null(out);
#define PUT(s)                                                                                     \
  do {                                                                                             \
    const char *s_ = (s);                                                                          \
    size_t n_ = strlen(s_);                                                                        \
    while (len + n_ + 1 > cap)                                                                     \
      assert_non_null(out = realloc(out, cap *= 2));                                               \
    memcpy(out + len, s_, n_ + 1);                                                                 \
    len += n_;                                                                                     \
  } while (0)
  PUT("{\n");
  const char *key;
  json_t *value;
  size_t members = json_object_size(doc), k = 0;
  json_object_foreach(doc, key, value) {
    PUT("  \"");
    PUT(key);
    PUT("\": ");
    if (json_is_array(value) && json_array_size(value) > 0) {
      PUT("[\n");
      for (size_t i = 0; i < json_array_size(value); i++) {
        char *item = json_dumps(json_array_get(value, i), flags);
        assert_non_null(item);
        PUT("    ");
        PUT(item);
        PUT(i + 1 < json_array_size(value) ? ",\n" : "\n");
        free(item);
      }
      PUT("  ]");
    } else {
      char *item = json_dumps(value, flags);
      assert_non_null(item);
      PUT(item);
      free(item);
    }
    PUT(++k < members ? ",\n" : "\n");
  }
  PUT("}\n");
#undef PUT
  return out;
}

/* The report of `text` (on a100-40 with the default host and `overrides`), checked to be
 * the bytes jansson writes for the document it parses to. Returns the document. */
static json_t *report_as_jansson_would_write_it(const char *text, size_t len,
                                                const vxp_const_override *overrides,
                                                size_t override_count) {
  vxp_context *ctx = test_context();
  vxp_source *src;
  vxp_program *prog;
  vxp_machine *device, *host;
  vxp_analysis *an;
  assert_int_equal(vxp_source_new(&src, ctx, "dir/odd name\xc3\xa9\t\".vx", text, len), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&device, ctx, "a100-40"), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&host, ctx, "host-default"), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = device;
  opts.host = host;
  opts.overrides = overrides;
  opts.override_count = override_count;
  assert_int_equal(vxp_analyze(&an, ctx, prog, &opts), VXP_OK);
  size_t n;
  const char *report = vxp_analysis_json(an, &n);
  assert_non_null(report);
  assert_int_equal(strlen(report), n);
  json_error_t err;
  json_t *doc = json_loadb(report, n, 0, &err);
  if (!doc) fail_msg("not JSON at line %d: %s", err.line, err.text);
  char *again = as_jansson_would_write_it(doc);
  if (strcmp(again, report) != 0) {
    size_t at = 0;
    while (again[at] && again[at] == report[at])
      at++;
    fail_msg("the report differs from jansson's layout at byte %zu: ...%.60s... vs ...%.60s...", at,
             report + at, again + at);
  }
  free(again);
  vxp_analysis_free(an);
  vxp_machine_free(host);
  vxp_machine_free(device);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return doc;
}

/* Over capacity (a negative margin), a fractional utilization, routes with traffic, a
 * constant given twice (its first place, its last value). */
static void test_json__the_report_is_janssons_compact_ascii_dump_line_by_line(void **state) {
  (void)state;
  static const char program[] =
      "const N : i64 = 1024;\n"
      "fn main() -> i32 {\n"
      "  let a = transfer(Tensor<f32, [N, N, N]>::uninit(), Memory::HBM);\n"
      "  let b = transfer(Tensor<f32, [N, 3]>::uninit(), Memory::HBM);\n"
      "  print!(a);\n  print!(b);\n"
      "  return 0;\n"
      "}\n";
  static const vxp_const_override twice[] = {{"N", 1000}, {"N", 4096}};
  json_t *doc = report_as_jansson_would_write_it(program, sizeof(program) - 1, twice, 2);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "defines"), "N")), 4096);
  assert_int_equal(json_object_size(json_object_get(doc, "defines")), 1);
  /* 4096^3 floats do not fit 40 GB: the capacity error's margin is negative. */
  bool negative = false;
  json_t *diags = json_object_get(doc, "diagnostics");
  for (size_t i = 0; i < json_array_size(diags); i++) {
    json_t *cap = json_object_get(json_array_get(diags, i), "capacity");
    if (cap && json_integer_value(json_object_get(cap, "margin_bytes")) < 0) negative = true;
  }
  assert_true(negative);
  json_decref(doc);
  doc = report_as_jansson_would_write_it(program, sizeof(program) - 1, NULL, 0);
  json_t *sets = json_object_get(doc, "resident_sets");
  assert_true(json_array_size(sets) > 0);
  assert_true(json_is_real(json_object_get(json_array_get(sets, 0), "utilization")));
  json_decref(doc);
}

/* Quotes, backslashes, tabs, control bytes, non-ASCII text (two-, three- and four-byte
 * sequences: \uXXXX and surrogate pairs) and bytes that are not UTF-8 (U+FFFD) in the
 * messages, and in the file's name. */
static void test_json__any_bytes_of_the_program_are_escaped_as_jansson_does(void **state) {
  (void)state;
  static const char program[] =
      "fn main() -> i32 {\n"
      "  let s = \"q\\\" \\\\ \t\x01\x1f\x7f é € 😀 \xff\xfe \xc3\";\n"
      "  let t = Tensor<f16, [2, 2], Memory::Nowhere\xe2\x82>::uninit();\n"
      "  let \xc3\xa9t\xc3\xa9 = transfer(Tensor<f32, [8]>::uninit(), Memory::HBM);\n"
      "  print!(\xc3\xa9t\xc3\xa9);\n"
      "  return 0 \x80\x80 é\n"
      "}\n";
  json_t *doc = report_as_jansson_would_write_it(program, sizeof(program) - 1, NULL, 0);
  assert_true(json_array_size(json_object_get(doc, "diagnostics")) > 0);
  json_decref(doc);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_json__the_report_is_janssons_compact_ascii_dump_line_by_line),
      cmocka_unit_test(test_json__any_bytes_of_the_program_are_escaped_as_jansson_does),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
