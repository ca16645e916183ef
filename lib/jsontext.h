/* SPDX-License-Identifier: Apache-2.0 */
/* jsontext.h - JSON strings of text that may quote a program's bytes, as every JSON text of
 * the library writes them (the analysis' report, the SARIF log). */
#ifndef VXP_JSONTEXT_H
#define VXP_JSONTEXT_H

#include "strbuf.h"

/* The length of the valid UTF-8 sequence at `p` (at most `n` bytes, n >= 1), or 0 when there
 * is none: overlong forms, surrogates and values past U+10FFFF are invalid, as jansson says. */
size_t vxp_json__utf8_len(const unsigned char *p, size_t n);

/* `len` bytes of `text` as a quoted JSON string in ASCII, the bytes jansson's
 * JSON_ENSURE_ASCII dump gives: quote, backslash, \b \f \n \r \t by name, other control
 * characters and everything outside ASCII as \uXXXX (upper-case hex; surrogate pairs past
 * U+FFFF). A message may quote a program's bytes (a token cut in the middle of a character,
 * a stray byte), and JSON strings cannot hold those: each byte that starts no valid UTF-8
 * sequence is written as U+FFFD. */
void vxp_json__put_ascii(vxp_context *ctx, vxp_sb *sb, const char *text, size_t len);

/* The same for a NUL-terminated string (no length to compute first). */
void vxp_json__put_ascii_string(vxp_context *ctx, vxp_sb *sb, const char *s);

#endif /* VXP_JSONTEXT_H */
