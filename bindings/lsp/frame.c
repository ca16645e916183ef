/* SPDX-License-Identifier: Apache-2.0 */
/* frame.c - the base protocol's framing: header lines ending in CRLF, a blank line, then
 * exactly Content-Length bytes of body. A header block that is too long, lacks a valid
 * Content-Length or announces a body over LSP_MAX_BODY is skipped and reported, so that a
 * client's garbage costs an error reply, never the server. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

bool lsp_reader_feed(lsp_reader *r, const char *data, size_t n) {
  if (n == 0) return true;
  if (r->len + n > r->cap) {
    size_t cap = r->cap ? r->cap : 4096;
    while (cap < r->len + n)
      cap *= 2;
    char *buf = realloc(r->buf, cap);
    if (!buf) return false;
    r->buf = buf;
    r->cap = cap;
  }
  memcpy(r->buf + r->len, data, n);
  r->len += n;
  return true;
}

void lsp_reader_free(lsp_reader *r) {
  free(r->buf);
  memset(r, 0, sizeof(*r));
}

/* Drop the first `n` bytes. */
static void consume(lsp_reader *r, size_t n) {
  memmove(r->buf, r->buf + n, r->len - n);
  r->len -= n;
}

/* The end of the header block (the offset just past "\r\n\r\n"), or 0 when not yet seen. */
static size_t header_end(const lsp_reader *r) {
  for (size_t i = 0; i + 3 < r->len; i++) {
    if (r->buf[i] == '\r' && r->buf[i + 1] == '\n' && r->buf[i + 2] == '\r' &&
        r->buf[i + 3] == '\n')
      return i + 4;
  }
  return 0;
}

/* Content-Length's value in the header block [0, end), or -1 when absent or malformed. */
static long long content_length(const char *h, size_t end) {
  long long found = -1;
  size_t i = 0;
  while (i < end) {
    size_t eol = i;
    while (eol + 1 < end && !(h[eol] == '\r' && h[eol + 1] == '\n'))
      eol++;
    static const char key[] = "content-length:";
    size_t klen = sizeof(key) - 1;
    if (eol - i >= klen) {
      bool match = true;
      for (size_t k = 0; k < klen && match; k++)
        match = tolower((unsigned char)h[i + k]) == key[k];
      if (match) {
        size_t p = i + klen;
        while (p < eol && (h[p] == ' ' || h[p] == '\t'))
          p++;
        if (p == eol) return -1;
        long long v = 0;
        for (; p < eol && isdigit((unsigned char)h[p]); p++) {
          v = v * 10 + (h[p] - '0');
          if (v > (long long)LSP_MAX_BODY) return -2;
        }
        while (p < eol && (h[p] == ' ' || h[p] == '\t'))
          p++;
        if (p != eol) return -1;
        found = v;
      }
    }
    i = eol + 2;
  }
  return found;
}

lsp_frame_status lsp_reader_next(lsp_reader *r, const char **body, size_t *len) {
  if (r->taken) { /* the body handed out by the previous call */
    consume(r, r->taken);
    r->taken = 0;
  }
  size_t end = header_end(r);
  if (end == 0) {
    if (r->len > LSP_MAX_HEADER) {
      r->len = 0;
      *body = "header block over 8192 bytes without an end; input discarded";
      return LSP_FRAME_BAD;
    }
    return LSP_FRAME_MORE;
  }
  if (end > LSP_MAX_HEADER) {
    consume(r, end);
    *body = "header block over 8192 bytes";
    return LSP_FRAME_BAD;
  }
  long long n = content_length(r->buf, end);
  if (n < 0) {
    consume(r, end);
    *body = n == -2 ? "Content-Length over the 64 MiB limit"
                    : "missing or malformed Content-Length header";
    return LSP_FRAME_BAD;
  }
  if (r->len - end < (size_t)n) return LSP_FRAME_MORE;
  /* The body is handed out in place; it is consumed on the next call, by moving it to the
   * front first: the caller's pointer stays valid until then. */
  memmove(r->buf, r->buf + end, r->len - end);
  r->len -= end;
  *body = r->buf;
  *len = (size_t)n;
  r->taken = (size_t)n;
  return LSP_FRAME_MESSAGE;
}
