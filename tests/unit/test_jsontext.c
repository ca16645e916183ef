/* SPDX-License-Identifier: Apache-2.0 */
/* test_jsontext.c - the JSON strings in ASCII of every report (lib/jsontext.c): the byte
 * table of the length-given form and the strcspn set of the NUL-terminated form escape the
 * same bytes, and both write what jansson's JSON_ENSURE_ASCII dump writes. */
#include <jansson.h>

#include "context.h"
#include "jsontext.h"
#include "support.h"

/* Both forms of `text` (no NUL inside), checked to agree; the caller frees the result with
 * vxp_ctx__free. */
static char *both_forms(vxp_context *ctx, const char *text) {
  vxp_sb a = {0}, b = {0};
  vxp_json__put_ascii(ctx, &a, text, strlen(text));
  vxp_json__put_ascii_string(ctx, &b, text);
  size_t alen, blen;
  char *x = vxp_sb__detach(ctx, &a, &alen), *y = vxp_sb__detach(ctx, &b, &blen);
  assert_non_null(x);
  assert_non_null(y);
  assert_string_equal(x, y);
  vxp_ctx__free(ctx, y);
  return x;
}

static char *jansson_dump(const char *utf8) {
  json_t *s = json_string(utf8);
  assert_non_null(s);
  char *dump = json_dumps(s, JSON_ENSURE_ASCII | JSON_ENCODE_ANY);
  json_decref(s);
  assert_non_null(dump);
  return dump;
}

/* Every byte alone and between plain text: what jansson writes for the ASCII ones, U+FFFD
 * for the others (a byte of 0x80 or more alone starts no valid UTF-8 sequence). */
static void test_jsontext__every_byte_is_escaped_as_jansson_does(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  for (unsigned c = 1; c < 256; c++) {
    char text[8] = {'a', (char)c, 'z', '\0'};
    char *ours = both_forms(ctx, text);
    if (c < 0x80) {
      char *theirs = jansson_dump(text);
      assert_string_equal(ours, theirs);
      free(theirs);
    } else {
      assert_string_equal(ours, "\"a\\uFFFDz\"");
    }
    vxp_ctx__free(ctx, ours);
  }
  vxp_context_free(ctx);
}

/* Two-, three- and four-byte sequences (a surrogate pair), quotes and backslashes. */
static void test_jsontext__text_outside_ascii_is_escaped_as_jansson_does(void **state) {
  (void)state;
  vxp_context *ctx = test_context();
  const char *text = "q\" \\ \t\x01 \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 end";
  char *ours = both_forms(ctx, text), *theirs = jansson_dump(text);
  assert_string_equal(ours, theirs);
  free(theirs);
  vxp_ctx__free(ctx, ours);
  vxp_context_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_jsontext__every_byte_is_escaped_as_jansson_does),
      cmocka_unit_test(test_jsontext__text_outside_ascii_is_escaped_as_jansson_does),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
