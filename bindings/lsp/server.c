/* SPDX-License-Identifier: Apache-2.0 */
/* server.c - the server's state and its dispatch of JSON-RPC messages: lifecycle
 * (initialize, shutdown, exit), document synchronisation, the requests of features.c,
 * configuration and cancellation. Anything malformed gets a JSON-RPC error naming what is
 * wrong; nothing a client sends can stop the server except `exit`. */
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

lsp_server *lsp_server_new(lsp_write_fn write, void *ud) {
  lsp_server *s = calloc(1, sizeof(*s));
  if (!s) return NULL;
  s->write = write;
  s->ud = ud;
  if (vxp_context_new(&s->ctx, NULL) != VXP_OK) {
    free(s);
    return NULL;
  }
  return s;
}

void lsp_server_lend_defaults(lsp_server *s, const vxp_machine *machine, const vxp_machine *host) {
  s->lent_machine = machine;
  s->lent_host = host;
}

void lsp_server_free(lsp_server *s) {
  if (!s) return;
  for (size_t i = 0; i < s->doc_count; i++)
    lsp_document_free(&s->docs[i]);
  free(s->docs);
  for (size_t i = 0; i < s->queue_len; i++)
    json_decref(s->queue[i].msg);
  free(s->queue);
  lsp_config_free(s);
  vxp_machine_free(s->default_machine);
  vxp_machine_free(s->default_host);
  vxp_context_free(s->ctx);
  free(s);
}

bool lsp_server_exited(const lsp_server *s, int *code) {
  if (s->exited && code) *code = s->shutdown ? 0 : 1;
  return s->exited;
}

void lsp_server_frame_error(lsp_server *s, const char *why) {
  lsp_reply_error(s, NULL, LSP_PARSE_ERROR, why);
}

/* ------------------------------------------------------------------ the queue */

void lsp_server_enqueue(lsp_server *s, const char *body, size_t len) {
  /* A body that does not parse is kept as NULL and answered in order. */
  lsp_server_enqueue_parsed(s, lsp_json_parse(body, len));
}

void lsp_server_enqueue_parsed(lsp_server *s, json_t *msg) {
  if (s->queue_len == s->queue_cap) {
    size_t cap = s->queue_cap ? s->queue_cap * 2 : 16;
    lsp_pending *q = realloc(s->queue, cap * sizeof(*q));
    if (!q) {
      json_decref(msg);
      lsp_reply_error(s, NULL, LSP_INTERNAL_ERROR, "out of memory: message dropped");
      return;
    }
    s->queue = q;
    s->queue_cap = cap;
  }
  s->queue[s->queue_len].msg = msg;
  s->queue[s->queue_len].cancelled = false;
  s->queue_len++;
}

void lsp_server_set_watch(lsp_server *s, const lsp_watch *watch) {
  if (watch)
    s->watch = *watch;
  else
    memset(&s->watch, 0, sizeof(s->watch));
  vxp_context_set_cancel_flag(s->ctx, s->watch.flag);
}

/* The end of the $/logTrace that says why an analysis or a reply was stopped. */
static const char *stopped_because(int why) {
  return why == LSP_REQUEST_CANCELLED       ? "the request was cancelled"
         : why == LSP_CONFIGURATION_CHANGED ? "the configuration changed"
                                            : "the document changed";
}

/* Analyse `d` (if it changed) while the loop's reader may interrupt: *why is 0, or
 * LSP_REQUEST_CANCELLED (request `id` was cancelled) or LSP_CONTENT_MODIFIED (the document
 * changed meanwhile: what was analysed is already stale). False when there is no analysis;
 * an analysis that finished before the interruption took effect is kept. */
static bool analyse_watched(lsp_server *s, lsp_document *d, json_t *id, int *why) {
  *why = 0;
  if (!d->dirty && d->an) return true;
  char *id_text = id ? json_dumps(id, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
  if (id && !id_text) return lsp_document_analyse(s, d); /* out of memory: not interruptible */
  int64_t version = d->version;
  lsp_log_trace(s, "analysing %s (version %lld) for %s%s", d->uri, (long long)version,
                id_text ? "request " : "diagnostics", id_text ? id_text : "");
  if (s->watch.begin) s->watch.begin(s->watch.ud, id_text, d->uri);
  bool ok = lsp_document_analyse(s, d);
  if (s->watch.end) *why = s->watch.end(s->watch.ud);
  free(id_text);
  if (!ok && *why)
    lsp_log_trace(s, "analysis of %s (version %lld) stopped: %s", d->uri, (long long)version,
                  stopped_because(*why));
  return ok;
}

bool lsp_interrupted(const lsp_server *s) {
  return s->watch.flag && __atomic_load_n(s->watch.flag, __ATOMIC_RELAXED) != 0;
}

/* Whether two ids are the same (a number or a string). */
static bool same_id(json_t *a, json_t *b) {
  if (json_is_integer(a) && json_is_integer(b))
    return json_integer_value(a) == json_integer_value(b);
  if (json_is_string(a) && json_is_string(b)) return json_equal(a, b);
  return false;
}

/* A `$/cancelRequest` cancels a request still waiting in the queue; one already
 * answered (or never sent) is ignored, as the protocol allows. */
static void mark_cancelled(lsp_server *s, json_t *id) {
  for (size_t i = 0; i < s->queue_len; i++) {
    json_t *m = s->queue[i].msg;
    if (json_is_object(m) && json_object_get(m, "method") && same_id(json_object_get(m, "id"), id))
      s->queue[i].cancelled = true;
  }
}

static void handle(lsp_server *s, json_t *msg, bool cancelled);

void lsp_server_drain(lsp_server *s) {
  /* Cancellations first: they may name requests that arrived before them. */
  for (size_t i = 0; i < s->queue_len; i++) {
    json_t *m = s->queue[i].msg;
    json_t *method = json_object_get(m, "method");
    if (json_is_string(method) && strcmp(json_string_value(method), "$/cancelRequest") == 0)
      mark_cancelled(s, json_object_get(json_object_get(m, "params"), "id"));
  }
  /* Handling may not enqueue, so the queue is stable while it is walked. */
  for (size_t i = 0; i < s->queue_len && !s->exited; i++) {
    s->handling = i;
    handle(s, s->queue[i].msg, s->queue[i].cancelled);
  }
  for (size_t i = 0; i < s->queue_len; i++)
    json_decref(s->queue[i].msg);
  s->queue_len = 0;
}

void lsp_server_message(lsp_server *s, const char *body, size_t len) {
  lsp_server_enqueue(s, body, len);
  lsp_server_drain(s);
}

/* Publish `d`'s diagnostics while the reader may interrupt: false when a didChange or
 * didClose of `d`, or a new configuration, arrived before they were sent. Then nothing is
 * published, even a list already built: it is known to be stale, and the loop applies
 * what arrived before the next idle moment publishes the newer diagnostics. */
static bool publish(lsp_server *s, lsp_document *d) {
  if (s->watch.begin) s->watch.begin(s->watch.ud, NULL, d->uri);
  json_t *params = lsp_diagnostics(s, d);
  int why = s->watch.end ? s->watch.end(s->watch.ud) : 0;
  if (why) {
    /* "stopped": the builder saw the flag; "dropped": it had finished first. */
    lsp_log_trace(s, "publication of %s (version %lld) %s: %s", d->uri, (long long)d->version,
                  params ? "dropped" : "stopped", stopped_because(why));
    json_decref(params);
    return false;
  }
  if (params) lsp_notify(s, "textDocument/publishDiagnostics", params);
  return true;
}

void lsp_server_idle(lsp_server *s) {
  for (size_t i = 0; i < s->doc_count && !s->exited; i++) {
    lsp_document *d = &s->docs[i];
    if (!d->dirty && d->an) continue;
    int why;
    bool ok = analyse_watched(s, d, NULL, &why);
    /* A change (or a new configuration) arrived meanwhile: publish nothing stale, and let
     * the loop apply it (the next idle moment analyses the newer text, or every document
     * under the new configuration). */
    if (why || (ok && !publish(s, d))) return;
  }
}

/* ------------------------------------------------------------------ requests */

static json_t *capabilities(void) {
  return json_pack("{s:{s:b, s:i, s:b, s:{s:b}}, s:b, s:b, s:{s:b}, s:b}", "textDocumentSync",
                   "openClose", 1, "change", 2 /* incremental */, "save", 1, "willSaveWaitUntil",
                   "includeText", 0, "hoverProvider", 1, "inlayHintProvider", 1, "codeLensProvider",
                   "resolveProvider", 0, "documentSymbolProvider", 1);
}

/* Whether a message queued after the one being handled replaces what document `uri` is or
 * how it is analysed: a didChange, didClose or didOpen of it, or a new configuration. A
 * request on it would then be answered from a version the client has already left behind
 * (and analysing that version would publish stale diagnostics); one that arrives while the
 * request is served is caught by the watch instead. */
static bool changed_later(const lsp_server *s, const char *uri) {
  for (size_t i = s->handling + 1; i < s->queue_len; i++) {
    json_t *m = s->queue[i].msg;
    const char *method = json_string_value(json_object_get(m, "method"));
    if (!method || json_object_get(m, "id")) continue;
    if (strcmp(method, "workspace/didChangeConfiguration") == 0) return true;
    if (strcmp(method, "textDocument/didChange") != 0 &&
        strcmp(method, "textDocument/didClose") != 0 && strcmp(method, "textDocument/didOpen") != 0)
      continue;
    const char *u = json_string_value(
        json_object_get(json_object_get(json_object_get(m, "params"), "textDocument"), "uri"));
    if (u && strcmp(u, uri) == 0) return true;
  }
  return false;
}

/* The document a textDocument request names, analysed; NULL with an error sent. */
static lsp_document *document_of(lsp_server *s, json_t *id, json_t *params) {
  json_t *uri = json_object_get(json_object_get(params, "textDocument"), "uri");
  if (!json_is_string(uri)) {
    lsp_reply_error(s, id, LSP_INVALID_PARAMS, "params.textDocument.uri must be a string");
    return NULL;
  }
  lsp_document *d = lsp_document_find(s, json_string_value(uri));
  if (!d) {
    lsp_reply_error(s, id, LSP_INVALID_PARAMS, "the document is not open");
    return NULL;
  }
  if (changed_later(s, d->uri)) {
    lsp_reply_error(s, id, LSP_CONTENT_MODIFIED,
                    "the document (or the configuration) changed after the request was sent");
    return NULL;
  }
  bool was_dirty = d->dirty || !d->an;
  int why;
  if (!analyse_watched(s, d, id, &why)) {
    if (why == LSP_REQUEST_CANCELLED)
      lsp_reply_error(s, id, why, "cancelled by $/cancelRequest while the document was analysed");
    else if (why == LSP_CONTENT_MODIFIED)
      lsp_reply_error(s, id, why, "the document changed while it was analysed");
    else if (why == LSP_CONFIGURATION_CHANGED)
      lsp_reply_error(s, id, LSP_CONTENT_MODIFIED,
                      "the configuration changed while the document was analysed");
    else
      lsp_reply_error(s, id, LSP_INTERNAL_ERROR, "the document could not be analysed");
    return NULL;
  }
  /* A request may run the analysis the idle moment would have: publish as it would
   * (unless the text already changed again: the newer version's will follow). */
  if (was_dirty && why != LSP_CONTENT_MODIFIED && why != LSP_CONFIGURATION_CHANGED) publish(s, d);
  return d;
}

/* initialize's trace or $/setTrace's value: "off" (the default), "messages", "verbose". */
static void set_trace(lsp_server *s, json_t *value) {
  s->trace = json_is_string(value) && strcmp(json_string_value(value), "off") != 0;
}

static void request(lsp_server *s, const char *method, json_t *id, json_t *params) {
  if (strcmp(method, "initialize") == 0) {
    if (s->initialized) {
      lsp_reply_error(s, id, LSP_INVALID_REQUEST, "initialize was already received");
      return;
    }
    s->initialized = true;
    set_trace(s, json_object_get(params, "trace"));
    lsp_configure(s, json_object_get(params, "initializationOptions"));
    lsp_reply(s, id,
              json_pack("{s:o, s:{s:s, s:s}}", "capabilities", capabilities(), "serverInfo", "name",
                        "vxpeak", "version", vxp_version_string()));
    return;
  }
  if (!s->initialized) {
    lsp_reply_error(s, id, LSP_SERVER_NOT_INITIALIZED, "the server is not initialized");
    return;
  }
  if (s->shutdown) {
    lsp_reply_error(s, id, LSP_INVALID_REQUEST, "the server is shutting down");
    return;
  }
  if (strcmp(method, "shutdown") == 0) {
    s->shutdown = true;
    lsp_reply(s, id, json_null());
    return;
  }
  bool hover = strcmp(method, "textDocument/hover") == 0;
  bool hints = strcmp(method, "textDocument/inlayHint") == 0;
  bool lens = strcmp(method, "textDocument/codeLens") == 0;
  bool symbols = strcmp(method, "textDocument/documentSymbol") == 0;
  if (!hover && !hints && !lens && !symbols) {
    lsp_reply_error(s, id, LSP_METHOD_NOT_FOUND, "method not supported by vxpeak");
    return;
  }
  if (!json_is_object(params)) {
    lsp_reply_error(s, id, LSP_INVALID_PARAMS, "params must be an object");
    return;
  }
  lsp_document *d = document_of(s, id, params);
  if (!d) return;
  const vxp_source *src = vxp_program_source(d->prog);
  uint32_t from = 0, to = 0;
  if (hover && !lsp_position_to_byte(src, json_object_get(params, "position"), &from)) {
    lsp_reply_error(s, id, LSP_INVALID_PARAMS, "params.position must be a position");
    return;
  }
  json_t *range = json_object_get(params, "range");
  if (hints && (!lsp_position_to_byte(src, json_object_get(range, "start"), &from) ||
                !lsp_position_to_byte(src, json_object_get(range, "end"), &to))) {
    lsp_reply_error(s, id, LSP_INVALID_PARAMS, "params.range must be a range");
    return;
  }
  /* Building the reply reads the whole analysis (a code lens per function, a hint per
   * placement): it is watched as the analysis is, and each builder polls the flag. */
  char *id_text = json_dumps(id, JSON_ENCODE_ANY | JSON_COMPACT);
  if (id_text) lsp_log_trace(s, "building the reply to request %s (%s)", id_text, method);
  if (id_text && s->watch.begin) s->watch.begin(s->watch.ud, id_text, d->uri);
  json_t *result = hover   ? lsp_hover(s, d, from)
                   : hints ? lsp_inlay_hints(s, d, from, to)
                   : lens  ? lsp_code_lenses(s, d)
                           : lsp_document_symbols(s, d);
  int why = id_text && s->watch.end ? s->watch.end(s->watch.ud) : 0;
  /* A reply finished before the interruption took effect is sent, as a finished
   * analysis is kept. */
  if (!result && why) {
    lsp_log_trace(s, "reply to request %s stopped: %s", id_text, stopped_because(why));
    lsp_reply_error(
        s, id, why == LSP_REQUEST_CANCELLED ? why : LSP_CONTENT_MODIFIED,
        why == LSP_REQUEST_CANCELLED  ? "cancelled by $/cancelRequest while the reply was built"
        : why == LSP_CONTENT_MODIFIED ? "the document changed while the reply was built"
                                      : "the configuration changed while the reply was built");
  } else if (!result) {
    lsp_reply_error(s, id, LSP_INTERNAL_ERROR, "out of memory building the reply");
  } else {
    lsp_reply(s, id, result);
  }
  free(id_text);
}

/* ------------------------------------------------------------------ notifications */

static void notification(lsp_server *s, const char *method, json_t *params) {
  if (strcmp(method, "exit") == 0) {
    s->exited = true;
    return;
  }
  /* Before initialize, notifications are dropped (the protocol says so), except exit. */
  if (!s->initialized || s->shutdown) return;
  if (strcmp(method, "$/setTrace") == 0) {
    set_trace(s, json_object_get(params, "value"));
    return;
  }
  if (strcmp(method, "workspace/didChangeConfiguration") == 0) {
    lsp_configure(s, json_object_get(params, "settings"));
    return;
  }
  json_t *doc = json_object_get(params, "textDocument");
  json_t *uri = json_object_get(doc, "uri");
  if (strcmp(method, "textDocument/didOpen") == 0) {
    json_t *text = json_object_get(doc, "text"), *version = json_object_get(doc, "version");
    if (!json_is_string(uri) || !json_is_string(text)) {
      lsp_show_message(s, 1, "vxpeak: didOpen without a textDocument.uri and text");
      return;
    }
    if (!lsp_document_open(s, json_string_value(uri),
                           json_is_integer(version) ? json_integer_value(version) : 0,
                           json_string_value(text), json_string_length(text)))
      lsp_show_message(s, 1, "vxpeak: cannot open %s: out of memory", json_string_value(uri));
    return;
  }
  if (strcmp(method, "textDocument/didClose") == 0) {
    if (json_is_string(uri)) {
      lsp_document_close(s, json_string_value(uri));
      /* The client forgets the diagnostics of a closed file only when told. */
      lsp_notify(s, "textDocument/publishDiagnostics",
                 json_pack("{s:O, s:[]}", "uri", uri, "diagnostics"));
    }
    return;
  }
  lsp_document *d = json_is_string(uri) ? lsp_document_find(s, json_string_value(uri)) : NULL;
  if (strcmp(method, "textDocument/didChange") == 0) {
    json_t *changes = json_object_get(params, "contentChanges");
    if (!d || !json_is_array(changes)) {
      lsp_show_message(s, 1,
                       "vxpeak: didChange of a document that is not open, or without "
                       "contentChanges");
      return;
    }
    size_t i;
    json_t *change;
    json_array_foreach(changes, i, change) {
      const char *why = NULL;
      if (!json_is_object(change) || !lsp_document_change(s, d, change, &why)) {
        lsp_show_message(s, 1, "vxpeak: change %zu to %s ignored: %s", i, d->uri,
                         why ? why : "not an object");
        break;
      }
    }
    json_t *version = json_object_get(doc, "version");
    if (json_is_integer(version)) d->version = json_integer_value(version);
    return;
  }
  if (strcmp(method, "textDocument/didSave") == 0) {
    /* With includeText false the saved text is the synchronised one; a save re-publishes
     * (a client may have dropped diagnostics). */
    int why;
    if (d && analyse_watched(s, d, NULL, &why) && !why) publish(s, d);
    return;
  }
  /* Other notifications ($/setTrace, initialized, ...) need nothing. */
}

static void handle(lsp_server *s, json_t *msg, bool cancelled) {
  if (!msg) {
    lsp_reply_error(s, NULL, LSP_PARSE_ERROR, "the message is not valid JSON");
    return;
  }
  json_t *id = json_object_get(msg, "id");
  if (!json_is_object(msg)) {
    lsp_reply_error(s, NULL, LSP_INVALID_REQUEST,
                    json_is_array(msg) ? "batches are not part of LSP"
                                       : "a message must be an object");
    return;
  }
  if (id && !json_is_integer(id) && !json_is_string(id) && !json_is_null(id)) {
    lsp_reply_error(s, NULL, LSP_INVALID_REQUEST, "id must be an integer or a string");
    return;
  }
  json_t *version = json_object_get(msg, "jsonrpc"), *method = json_object_get(msg, "method");
  if (!json_is_string(version) || strcmp(json_string_value(version), "2.0") != 0) {
    if (id) lsp_reply_error(s, id, LSP_INVALID_REQUEST, "jsonrpc must be \"2.0\"");
    return;
  }
  if (!method) {
    /* A response to a request of ours: the server sends none that need an answer. */
    if (!json_object_get(msg, "result") && !json_object_get(msg, "error") && id)
      lsp_reply_error(s, id, LSP_INVALID_REQUEST, "a message needs a method");
    return;
  }
  if (!json_is_string(method)) {
    lsp_reply_error(s, id, LSP_INVALID_REQUEST, "method must be a string");
    return;
  }
  json_t *params = json_object_get(msg, "params");
  if (json_is_null(params)) params = NULL; /* shutdown's params may be sent as null */
  if (params && !json_is_object(params) && !json_is_array(params)) {
    if (id) lsp_reply_error(s, id, LSP_INVALID_PARAMS, "params must be an object or an array");
    return;
  }
  const char *name = json_string_value(method);
  if (!id) {
    notification(s, name, params);
    return;
  }
  if (cancelled) {
    lsp_reply_error(s, id, LSP_REQUEST_CANCELLED, "cancelled by $/cancelRequest");
    return;
  }
  request(s, name, id, params);
}
