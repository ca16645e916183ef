/* SPDX-License-Identifier: Apache-2.0 */
/* jsontext.h - JSON strings of text that may quote a program's bytes. */
#ifndef VXP_JSONTEXT_H
#define VXP_JSONTEXT_H

#include <jansson.h>

/* A JSON string of `s`. jansson refuses text that is not UTF-8, and a message may quote a
 * program's bytes (a token cut in the middle of a character, a stray byte): each byte that
 * does not start a valid UTF-8 sequence becomes U+FFFD, so that such input still has a
 * report. NULL only when jansson's allocator fails. */
json_t *vxp_json__text(const char *s);

/* The length of the valid UTF-8 sequence at `p` (at most `n` bytes, n >= 1), or 0 when there
 * is none: overlong forms, surrogates and values past U+10FFFF are invalid, as jansson says.
 * What every JSON text of the library (this file's strings, the SARIF log) repairs to U+FFFD. */
size_t vxp_json__utf8_len(const unsigned char *p, size_t n);

#endif /* VXP_JSONTEXT_H */
