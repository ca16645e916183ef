/* SPDX-License-Identifier: Apache-2.0 */
/* rpc.c - writing JSON-RPC messages: responses, errors and notifications, each framed
 * with its Content-Length and handed to the server's write callback in one piece. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

void lsp_send(lsp_server *s, json_t *msg) {
  /* Compact, and with non-ASCII text as UTF-8 (LSP's default encoding). */
  char *body = json_dumps(msg, JSON_COMPACT);
  if (!body) return; /* out of memory: the client sees no reply rather than a bad one */
  size_t len = strlen(body);
  char header[64];
  int n = snprintf(header, sizeof(header), "Content-Length: %zu\r\n\r\n", len);
  char *frame = malloc((size_t)n + len);
  if (frame) {
    memcpy(frame, header, (size_t)n);
    memcpy(frame + n, body, len);
    s->write(s->ud, frame, (size_t)n + len);
    free(frame);
  }
  free(body);
}

void lsp_reply(lsp_server *s, json_t *id, json_t *result) {
  json_t *msg = json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id ? id : json_null(),
                          "result", result ? result : json_null());
  if (msg) lsp_send(s, msg);
  json_decref(msg);
}

void lsp_reply_error(lsp_server *s, json_t *id, int code, const char *message) {
  json_t *msg = json_pack("{s:s, s:O, s:{s:i, s:s}}", "jsonrpc", "2.0", "id", id ? id : json_null(),
                          "error", "code", code, "message", message);
  if (msg) lsp_send(s, msg);
  json_decref(msg);
}

void lsp_notify(lsp_server *s, const char *method, json_t *params) {
  json_t *msg = json_pack("{s:s, s:s, s:o}", "jsonrpc", "2.0", "method", method, "params",
                          params ? params : json_object());
  if (msg) lsp_send(s, msg);
  json_decref(msg);
}

json_t *lsp_text(const char *text) {
  if (!text) return json_null();
  json_t *v = json_string(text);
  if (v) return v;
  /* Not UTF-8 (a program's bytes quoted in a message): every byte outside ASCII becomes
   * U+FFFD's stand-in '?', so that the message still goes out. */
  size_t len = strlen(text);
  char *copy = malloc(len + 1);
  if (!copy) return json_null();
  for (size_t i = 0; i <= len; i++)
    copy[i] = (unsigned char)text[i] < 0x80 ? text[i] : '?';
  v = json_string(copy);
  free(copy);
  return v ? v : json_null();
}

void lsp_show_message(lsp_server *s, int type, const char *fmt, ...) {
  char text[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof(text), fmt, ap);
  va_end(ap);
  lsp_notify(s, "window/showMessage",
             json_pack("{s:i, s:o}", "type", type, "message", lsp_text(text)));
}

void lsp_log_trace(lsp_server *s, const char *fmt, ...) {
  if (!s->trace) return;
  char text[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof(text), fmt, ap);
  va_end(ap);
  lsp_notify(s, "$/logTrace", json_pack("{s:o}", "message", lsp_text(text)));
}
