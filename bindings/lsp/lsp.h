/* SPDX-License-Identifier: Apache-2.0 */
/* lsp.h - `vxpeak lsp`: a Language Server Protocol server over stdio, a client of
 * include/vxpeak.h only. Messages are JSON-RPC 2.0 bodies framed by a `Content-Length`
 * header (frame.c), read and written through jansson.
 *
 * The server is a value with no global state: the message loop (serve.c) feeds it framed
 * bytes; a test or a fuzzer may instead hand it one message body at a time
 * (lsp_server_message) and run its deferred work (lsp_server_idle). Everything it writes
 * goes through the `write` callback given to lsp_server_new, already framed. */
#ifndef VXPEAK_LSP_H
#define VXPEAK_LSP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vxpeak.h"

/* ------------------------------------------------------------------ framing (frame.c) */

/* The largest header block and body the reader accepts: a client sending more is either
 * broken or hostile, and gets an error instead of an allocation of its choosing. */
#define LSP_MAX_HEADER 8192
#define LSP_MAX_BODY (64u * 1024u * 1024u)

/* Bytes received and not yet consumed. */
typedef struct lsp_reader {
  char *buf;
  size_t len, cap;
  size_t taken; /* the body last returned, dropped on the next call */
} lsp_reader;

typedef enum lsp_frame_status {
  LSP_FRAME_MORE = 0, /* no complete message yet */
  LSP_FRAME_MESSAGE,  /* *body, *len: one message body (borrowed until the next call) */
  LSP_FRAME_BAD       /* a malformed header was skipped; *body says why (static) */
} lsp_frame_status;

/* Append `n` bytes; false when out of memory. */
bool lsp_reader_feed(lsp_reader *r, const char *data, size_t n);
/* The next complete message, or why a header was rejected (then it has been skipped). */
lsp_frame_status lsp_reader_next(lsp_reader *r, const char **body, size_t *len);
void lsp_reader_free(lsp_reader *r);

/* ------------------------------------------------------------------ the server (server.c) */

typedef void (*lsp_write_fn)(void *ud, const char *data, size_t len);

typedef struct lsp_server lsp_server;

/* A server writing framed messages through `write`. NULL when out of memory. */
lsp_server *lsp_server_new(lsp_write_fn write, void *ud);
void lsp_server_free(lsp_server *s);

/* Lend the server the built-in a100-40 and host-default it analyses with when nothing is
 * configured, instead of loading them on first use: immutable machines made once by the
 * caller (on any context) that outlive the server, which never frees them. The fuzzing
 * harness makes a server per input and lends each the same two, so that an input's cost is
 * its own work and not two model parses. */
void lsp_server_lend_defaults(lsp_server *s, const vxp_machine *machine, const vxp_machine *host);

/* Queue one message body (JSON text of `len` bytes, not NUL-terminated) and handle every
 * queued message: a `$/cancelRequest` among them cancels the queued request it names (one
 * already running is interrupted only through lsp_server_set_watch, by the loop).
 * Malformed input is answered with a JSON-RPC error; it never fails the server. */
void lsp_server_message(lsp_server *s, const char *body, size_t len);
/* Queue a message without handling it yet (the loop queues all that has arrived). */
void lsp_server_enqueue(lsp_server *s, const char *body, size_t len);
/* Handle every queued message. */
void lsp_server_drain(lsp_server *s);
/* The deferred work: analyse the documents changed since their last analysis and publish
 * their diagnostics. Called when no input is waiting, so a burst of edits costs one
 * analysis. */
void lsp_server_idle(lsp_server *s);
/* Answer a framing error (a JSON-RPC parse error with a null id). */
void lsp_server_frame_error(lsp_server *s, const char *why);
/* True once `exit` arrived; *code is then the process exit status (0 after `shutdown`). */
bool lsp_server_exited(const lsp_server *s, int *code);
/* Queue a message already parsed (NULL: a body that did not parse); takes `msg`. */
void lsp_server_enqueue_parsed(lsp_server *s, json_t *msg);

/* Interrupting a running analysis. The server brackets each parse and analysis with
 * begin and end; between them another thread (serve.c's reader) may raise `flag`, the
 * flag given to the context with vxp_context_set_cancel_flag (the library's one
 * cross-thread entry), because the running request was cancelled, its document changed or
 * the configuration changed. The server also brackets the building of a reply (hover,
 * inlay hints, code lens, symbols) and of a publishDiagnostics, and its builders poll the
 * flag (lsp_interrupted) per item, so a long reply or list stops too. begin gets the
 * request's id as compact JSON text (NULL for a diagnostics run or a publication) and the
 * document's URI, both borrowed for the call; end returns
 * why the flag was raised (LSP_REQUEST_CANCELLED, LSP_CONTENT_MODIFIED,
 * LSP_CONFIGURATION_CHANGED) or 0, and the flag is lowered again. */
typedef struct lsp_watch {
  void (*begin)(void *ud, const char *id, const char *uri);
  int (*end)(void *ud);
  void *ud;
  const size_t *flag;
} lsp_watch;
void lsp_server_set_watch(lsp_server *s, const lsp_watch *watch);
/* Whether the watched flag is raised (an atomic load; always false without a watch): a
 * reply's builder stops when it is, and returns NULL. */
bool lsp_interrupted(const lsp_server *s);

/* ------------------------------------------------------------------ internals */

typedef struct lsp_index lsp_index; /* index.c */

/* An open document: its current text, and the program and analysis of the text last
 * analysed (they lag the text while edits wait for the next idle moment). */
typedef struct lsp_document {
  char *uri;
  int64_t version;
  vxp_source *src;        /* the current text */
  vxp_source *parsed_src; /* the text `prog` was parsed from (== src when not dirty) */
  vxp_program *prog;
  vxp_analysis *an;
  vxp_machine *machine; /* the machine this analysis used (borrowed from the server) */
  lsp_index *index;     /* lookups into `an`, built on first use (NULL: not yet) */
  bool dirty;           /* src differs from what was analysed */
} lsp_document;

/* Configuration: initializationOptions, or workspace/didChangeConfiguration's
 * settings (either bare or under a "vxpeak" key). */
typedef struct lsp_config {
  char *machine; /* a built-in name or a file; NULL: the program's own or a100-40 */
  char *host;    /* a file or "default"; NULL */
  vxp_const_override *defines;
  size_t define_count;
} lsp_config;

typedef struct lsp_pending {
  json_t *msg; /* parsed, or NULL when the body did not parse */
  bool cancelled;
} lsp_pending;

struct lsp_server {
  lsp_write_fn write;
  void *ud;
  vxp_context *ctx;
  bool initialized, shutdown, exited;
  lsp_config config;
  char *config_error; /* why the configured machine could not be loaded, or NULL */
  vxp_source *machine_src, *host_src;
  vxp_machine *machine, *host;                 /* from the configuration, or NULL */
  vxp_machine *default_machine, *default_host; /* a100-40 and host-default, loaded on use */
  const vxp_machine *lent_machine, *lent_host; /* or lent (lsp_server_lend_defaults): not ours */
  lsp_document *docs;
  size_t doc_count, doc_cap;
  lsp_pending *queue;
  size_t queue_len, queue_cap;
  size_t handling; /* the queued message being handled (lsp_server_drain) */
  lsp_watch watch; /* all NULL: nothing can interrupt an analysis (tests, the fuzzer) */
  bool trace;      /* the client asked for $/logTrace (trace "messages" or "verbose") */
};

/* rpc.c: send a framed message (takes a reference to nothing: `msg` stays the caller's). */
void lsp_send(lsp_server *s, json_t *msg);
void lsp_reply(lsp_server *s, json_t *id, json_t *result); /* steals `result` */
void lsp_reply_error(lsp_server *s, json_t *id, int code, const char *message);
void lsp_notify(lsp_server *s, const char *method, json_t *params); /* steals `params` */
/* A $/logTrace notification, sent only when the client asked for traces. */
void lsp_log_trace(lsp_server *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A JSON string of `text` (null for NULL); bytes that are not UTF-8 become '?'. */
json_t *lsp_text(const char *text);
void lsp_show_message(lsp_server *s, int type, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* JSON-RPC and LSP error codes. */
enum {
  LSP_PARSE_ERROR = -32700,
  LSP_INVALID_REQUEST = -32600,
  LSP_METHOD_NOT_FOUND = -32601,
  LSP_INVALID_PARAMS = -32602,
  LSP_INTERNAL_ERROR = -32603,
  LSP_SERVER_NOT_INITIALIZED = -32002,
  LSP_REQUEST_CANCELLED = -32800,
  LSP_CONTENT_MODIFIED = -32801
};
/* Why a watched analysis or reply was stopped, beside the two codes above: a
 * workspace/didChangeConfiguration made it stale (never sent: answered ContentModified). */
enum { LSP_CONFIGURATION_CHANGED = 1 };

/* document.c */
lsp_document *lsp_document_find(lsp_server *s, const char *uri);
/* Open (or replace) a document; false with a message set when it cannot be. */
bool lsp_document_open(lsp_server *s, const char *uri, int64_t version, const char *text,
                       size_t len);
void lsp_document_close(lsp_server *s, const char *uri);
/* Apply one contentChanges entry; false (and *why) when it is malformed. */
bool lsp_document_change(lsp_server *s, lsp_document *d, json_t *change, const char **why);
/* Analyse `d` if its text changed since the last analysis; true when it has an analysis. */
bool lsp_document_analyse(lsp_server *s, lsp_document *d);
/* Drop every document's analysis and mark it for analysis (the configuration changes). */
void lsp_documents_invalidate(lsp_server *s);
void lsp_document_free(lsp_document *d);

/* positions.c: LSP positions (0-based line, UTF-16 column) and byte offsets. */
/* The byte offset of an LSP position in `src` (clamped to its line and to the text);
 * false when the position is not a pair of non-negative integers. */
bool lsp_position_to_byte(const vxp_source *src, json_t *pos, uint32_t *out);
/* The point (line, byte column) of byte offset `byte`. */
vxp_point lsp_point_of(const vxp_source *src, uint32_t byte);
/* {"line":..,"character":..} of a point whose column counts bytes. */
json_t *lsp_position(const vxp_source *src, vxp_point p);
json_t *lsp_range(const vxp_source *src, vxp_range r);

/* features.c: what the server tells about an analysed document. The builders return NULL
 * when lsp_interrupted says to stop (they poll it per diagnostic, record or item) or when
 * out of memory. lsp_diagnostics builds the params of d's publishDiagnostics. */
json_t *lsp_diagnostics(lsp_server *s, lsp_document *d);
json_t *lsp_hover(lsp_server *s, lsp_document *d, uint32_t byte);
json_t *lsp_inlay_hints(lsp_server *s, lsp_document *d, uint32_t from, uint32_t to);
json_t *lsp_code_lenses(lsp_server *s, lsp_document *d);
json_t *lsp_document_symbols(lsp_server *s, lsp_document *d);

/* index.c: lookups into one analysis, sorted once, so that a reply's builder reads each item
 * of the analysis a bounded number of times instead of scanning it per item. */
lsp_index *lsp_index_new(const vxp_analysis *an); /* NULL when out of memory */
void lsp_index_free(lsp_index *ix);
/* The index of `d`'s analysis, built on first use and kept until the analysis is replaced
 * (the document owns it); NULL without an analysis or when out of memory. */
const lsp_index *lsp_document_index(lsp_document *d);
/* The resident sets (indices, in the analysis' order) of analysed function `fn`. */
const size_t *lsp_index_sets_of(const lsp_index *ix, const char *fn, size_t *count);
/* Its call trees, likewise. */
const size_t *lsp_index_trees_of(const lsp_index *ix, const char *fn, size_t *count);
/* The first resident set of `fn` in `space`, or NULL. */
const vxp_resident_set *lsp_index_resident_set(const lsp_index *ix, const char *fn,
                                               const char *space);
/* Whether `name` is an analysed function; how many `name<...>` (generic instances) are. */
bool lsp_index_has_function(const lsp_index *ix, const char *name);
size_t lsp_index_instance_count(const lsp_index *ix, const char *name);
/* When `record` is the first (lowest index) of the records placing the same text (equal
 * byte ranges): all of them, in the analysis' order, `record` first. NULL otherwise. */
const size_t *lsp_index_same_range(const lsp_index *ix, size_t record, size_t *count);

/* config.c */
/* Read `settings` (an object; NULL or null: defaults) into the server's configuration and
 * load its machines; the documents are re-analysed on the next idle moment. */
void lsp_configure(lsp_server *s, json_t *settings);

/* bigint.c: a message parsed as jansson parses it, except that an integer literal that does
 * not fit in json_int_t is kept as a string: LSP_BIG_INTEGER followed by the literal.
 * lsp_big_integer gives the literal of such a string, else NULL. */
#define LSP_BIG_INTEGER "\x01"
json_t *lsp_json_parse(const char *body, size_t len);
const char *lsp_big_integer(const json_t *value);
void lsp_config_free(lsp_server *s);
/* The machine and host a document's program is analysed against. */
void lsp_machines_for(lsp_server *s, const vxp_program *prog, const vxp_machine **machine,
                      const vxp_machine **host);

/* serve.c: the stdio loop (`vxpeak lsp`). Returns the process exit status. */
int vxpeak_lsp_serve(int in_fd, int out_fd);

#endif /* VXPEAK_LSP_H */
