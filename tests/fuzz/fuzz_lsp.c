/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_lsp.c - libFuzzer harness for the language server's message loop (`vxpeak lsp`):
 * the input is the byte stream a client sends, framed or not. It is fed to the frame
 * reader in pieces; every message is handed to a fresh server, whose deferred work (the
 * analyses) runs after each piece, as the loop does when input pauses. Everything the
 * server writes is discarded. The seeds are framed sessions (initialize, didOpen of an
 * example, didChange, hover, shutdown, exit). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "lsp.h"

#include "builtin_machines.h"

static void discard(void *ud, const char *data, size_t len) {
  volatile size_t *sink = ud;
  *sink += len + (len ? (unsigned char)data[0] : 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  volatile size_t written = 0;
  lsp_server *s = lsp_server_new(discard, (void *)&written);
  lsp_reader r = {0};
  if (!s) return 0;
  lsp_server_lend_defaults(s, device, default_host);
  /* Pieces of varying size, so that frames split across reads are exercised. */
  size_t at = 0, piece = 1;
  while (at < size) {
    size_t n = size - at < piece ? size - at : piece;
    if (!lsp_reader_feed(&r, (const char *)data + at, n)) break;
    at += n;
    piece = piece * 3 + 1;
    const char *body;
    size_t len;
    lsp_frame_status st;
    while ((st = lsp_reader_next(&r, &body, &len)) != LSP_FRAME_MORE) {
      if (st == LSP_FRAME_BAD)
        lsp_server_frame_error(s, body);
      else
        lsp_server_message(s, body, len);
    }
    lsp_server_idle(s);
    int code;
    if (lsp_server_exited(s, &code)) break;
  }
  lsp_reader_free(&r);
  lsp_server_free(s);
  return 0;
}
