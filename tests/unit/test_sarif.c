/* SPDX-License-Identifier: Apache-2.0 */
/* test_sarif.c - the SARIF log (lib/report/sarif.c) is streamed into a string buffer rather
 * than built as a jansson tree: its text must stay what jansson's JSON_INDENT(2) |
 * JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER dump of the same document is (the layout every
 * SARIF golden and viewer has seen), for any program text, and its fingerprints must count
 * the occurrences of a flagged text in program order. */
#include <jansson.h>

#include "codes.h"
#include "support.h"

/* The log of `text`, checked to be one JSON document whose re-dump by jansson with the
 * log's flags gives back the same bytes. Returns the parsed document (caller decrefs). */
static json_t *log_as_jansson_would_write_it(const char *text, size_t len) {
  vxp_context *ctx = test_context();
  vxp_source *src;
  vxp_program *prog;
  vxp_machine *device, *host;
  vxp_analysis *an;
  assert_int_equal(vxp_source_new(&src, ctx, "dir/odd name\xc3\xa9.vx", text, len), VXP_OK);
  assert_int_equal(vxp_program_parse(&prog, ctx, src), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&device, ctx, "a100-40"), VXP_OK);
  assert_int_equal(vxp_machine_builtin(&host, ctx, "host-default"), VXP_OK);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = device;
  opts.host = host;
  assert_int_equal(vxp_analyze(&an, ctx, prog, &opts), VXP_OK);
  size_t n;
  const char *sarif = vxp_analysis_sarif(an, &n);
  assert_non_null(sarif);
  assert_int_equal(strlen(sarif), n);
  json_error_t err;
  json_t *doc = json_loadb(sarif, n, 0, &err);
  if (!doc) fail_msg("not JSON at line %d: %s", err.line, err.text);
  char *again = json_dumps(doc, JSON_INDENT(2) | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER);
  assert_non_null(again);
  size_t m = strlen(again);
  /* The log ends with a newline that the dump does not write. */
  if (m + 1 != n || memcmp(again, sarif, m) != 0 || sarif[n - 1] != '\n') {
    size_t at = 0;
    while (at < m && at < n && again[at] == sarif[at])
      at++;
    fail_msg("the log differs from jansson's layout at byte %zu: ...%.40s... vs ...%.40s...", at,
             sarif + at, again + at);
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

static void test_sarif__the_layout_is_jansson_indent_2_ascii(void **state) {
  (void)state;
  static const char program[] =
      "Memory HBM { capacity: 1 MiB, granule: 256 B }\n"
      "fn main() -> i32 {\n"
      "  let a = transfer(Tensor::<f32, [1024, 1024]>::new(), Memory::HBM);\n"
      "  let b = transfer(Tensor::<f32, [1024, 1024]>::new(), Memory::HMB);\n"
      "  return 0;\n"
      "}\n";
  json_decref(log_as_jansson_would_write_it(program, sizeof(program) - 1));
}

static const char *text_of(json_t *rule, const char *key) {
  return json_string_value(json_object_get(json_object_get(rule, key), "text"));
}

/* The catalogue's rules are string literals made by the preprocessor from codes.def (not
 * written member by member): every rule of a log, in order, is its code's entry of the
 * table, texts and level included, and the rules' count is the table's. */
static void test_sarif__every_rule_is_its_catalogue_entry(void **state) {
  (void)state;
  static const char program[] = "fn main() -> i32 {\n"
                                "  let t = Tensor<f16, [2, 2], Memory::Nowhere>::uninit();\n"
                                "  return 0;\n"
                                "}\n";
  json_t *doc = log_as_jansson_would_write_it(program, sizeof(program) - 1);
  json_t *rules = json_object_get(
      json_object_get(json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "tool"),
                      "driver"),
      "rules");
  size_t ncodes;
  const vxp_code_info *codes = vxp_codes__all(&ncodes);
  assert_true(ncodes > 50);
  assert_int_equal(json_array_size(rules), ncodes);
  for (size_t i = 0; i < ncodes; i++) {
    json_t *rule = json_array_get(rules, i);
    assert_string_equal(json_string_value(json_object_get(rule, "id")), codes[i].code);
    assert_string_equal(json_string_value(json_object_get(rule, "name")), codes[i].name);
    assert_string_equal(text_of(rule, "shortDescription"), codes[i].summary);
    assert_string_equal(text_of(rule, "fullDescription"), codes[i].detail);
    assert_string_equal(text_of(rule, "help"), codes[i].help);
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(rule, "defaultConfiguration"), "level")),
        codes[i].severity == VXP_SEVERITY_ERROR ? "error" : "warning");
    assert_int_equal(json_object_size(rule), 6);
  }
  json_decref(doc);
}

/* Quotes, backslashes, tabs, control bytes, non-ASCII text (two-, three- and four-byte
 * sequences: escaped as \uXXXX and surrogate pairs) and bytes that are not UTF-8 (U+FFFD)
 * in the flagged text and the snippet lines. */
static void test_sarif__any_bytes_of_the_program_are_escaped_as_jansson_does(void **state) {
  (void)state;
  static const char program[] =
      "fn main() -> i32 {\n"
      "  let s = \"q\\\" \\\\ \t\x01\x1f\x7f é € 😀 \xff\xfe \xc3\";\n"
      "  let t = Tensor<f16, [2, 2], Memory::Nowhere\xe2\x82>::uninit();\n"
      "  return 0 \x80\x80 é\n"
      "}\n";
  json_t *doc = log_as_jansson_would_write_it(program, sizeof(program) - 1);
  json_t *results = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "results");
  assert_true(json_array_size(results) > 0);
  json_decref(doc);
}

/* Ten identical flagged texts: ten different fingerprints, each the hash of the text and
 * of which occurrence it is, so that an eleventh added above the others moves none of the
 * first ten's... (the check_sarif.py suite checks the stability across edits). */
static void test_sarif__repeated_flagged_text_gets_one_fingerprint_per_occurrence(void **state) {
  (void)state;
  char program[4096];
  size_t o = (size_t)snprintf(program, sizeof(program), "fn main() -> i32 {\n");
  for (int i = 0; i < 10; i++)
    o += (size_t)snprintf(program + o, sizeof(program) - o,
                          "  let t%d = Tensor<f16, [2, 2], Memory::Nowhere>::uninit();\n", i);
  o += (size_t)snprintf(program + o, sizeof(program) - o, "  return 0;\n}\n");
  json_t *doc = log_as_jansson_would_write_it(program, o);
  json_t *results = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "results");
  size_t n = json_array_size(results);
  assert_true(n >= 10);
  for (size_t i = 0; i < n; i++) {
    const char *fi = json_string_value(json_object_get(
        json_object_get(json_array_get(results, i), "partialFingerprints"), "vxpeakDiagnostic/v1"));
    assert_non_null(fi);
    for (size_t k = 0; k < i; k++) {
      const char *fk = json_string_value(
          json_object_get(json_object_get(json_array_get(results, k), "partialFingerprints"),
                          "vxpeakDiagnostic/v1"));
      if (strcmp(fi, fk) == 0) fail_msg("results %zu and %zu share fingerprint %s", k, i, fi);
    }
  }
  json_decref(doc);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sarif__the_layout_is_jansson_indent_2_ascii),
      cmocka_unit_test(test_sarif__every_rule_is_its_catalogue_entry),
      cmocka_unit_test(test_sarif__any_bytes_of_the_program_are_escaped_as_jansson_does),
      cmocka_unit_test(test_sarif__repeated_flagged_text_gets_one_fingerprint_per_occurrence),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
