/* SPDX-License-Identifier: Apache-2.0 */
/* serve.c - the stdio loop of `vxpeak lsp`. A reader thread reads standard input, frames
 * and parses each message and puts it in an inbox; the main thread takes everything the
 * inbox holds, handles it (cancellations of queued requests first), and when the inbox is
 * empty analyses the changed documents and publishes. A burst of keystrokes thus costs one
 * analysis, and a request cancelled while queued is answered as cancelled.
 *
 * Because the reader goes on reading while the main thread analyses, it can interrupt the
 * analysis: while one runs, or a reply is built (lsp_watch's begin/end, called by the
 * server), a `$/cancelRequest` naming the running request, a `didChange`/`didClose` of the
 * document being analysed, or a `workspace/didChangeConfiguration`, raises the cancellation
 * flag the server's context honours (and the reply builders poll with an atomic load). That
 * flag is the only thing the reader touches that the main thread reads, and the library's
 * threading rules allow exactly that (vxpeak.h, Cancellation: any thread may raise it with
 * an atomic store); the context itself, the server and everything written stay on the main
 * thread.
 * The inbox, the flag's raising and lowering and the description of the running analysis
 * are guarded by one mutex. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lsp.h"

/* The reader stops reading while this many messages wait, so a flood costs bounded
 * memory (a cancellation then waits its turn too). */
#define INBOX_MAX 4096

typedef struct inbox_item {
  json_t *msg;             /* parsed, or NULL when the body did not parse */
  const char *frame_error; /* a rejected header (static text), instead of a message */
} inbox_item;

typedef struct inbox {
  pthread_mutex_t mu;
  pthread_cond_t arrived, room;
  inbox_item *items;
  size_t len, cap;
  bool eof, stop, failed;
  int in_fd, wake[2]; /* wake: written by the main thread to stop the reader's poll */
  size_t flag;        /* the context's cancellation flag */
  /* The running analysis, between begin and end. */
  bool watching;
  char *watch_id, *watch_uri; /* the request's id as compact JSON (NULL: diagnostics) */
  int why;                    /* why the flag was raised, or 0 */
} inbox;

static void write_all(void *ud, const char *data, size_t len) {
  int fd = *(int *)ud;
  while (len) {
    ssize_t n = write(fd, data, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return; /* the client is gone; the read side will see EOF */
    data += n;
    len -= (size_t)n;
  }
}

static char *copy_text(const char *t) {
  if (!t) return NULL;
  size_t n = strlen(t) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, t, n);
  return c;
}

/* Whether `msg` makes the running analysis (or reply) useless: 0, LSP_REQUEST_CANCELLED,
 * LSP_CONTENT_MODIFIED or LSP_CONFIGURATION_CHANGED. Called with the mutex held. */
static int interrupts(const inbox *in, json_t *msg) {
  if (!in->watching) return 0;
  const char *method = json_string_value(json_object_get(msg, "method"));
  json_t *params = json_object_get(msg, "params");
  if (!method) return 0;
  if (strcmp(method, "$/cancelRequest") == 0 && in->watch_id) {
    json_t *id = json_object_get(params, "id");
    if (!json_is_integer(id) && !json_is_string(id)) return 0;
    char *text = json_dumps(id, JSON_ENCODE_ANY | JSON_COMPACT);
    bool same = text && strcmp(text, in->watch_id) == 0;
    free(text);
    return same ? LSP_REQUEST_CANCELLED : 0;
  }
  /* Every analysis and reply was made under the configuration being replaced. */
  if (strcmp(method, "workspace/didChangeConfiguration") == 0) return LSP_CONFIGURATION_CHANGED;
  if (strcmp(method, "textDocument/didChange") == 0 ||
      strcmp(method, "textDocument/didClose") == 0) {
    const char *uri =
        json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
    return uri && in->watch_uri && strcmp(uri, in->watch_uri) == 0 ? LSP_CONTENT_MODIFIED : 0;
  }
  return 0;
}

/* Raise the flag if `msg` interrupts the running analysis. Mutex held. */
static void maybe_interrupt(inbox *in, json_t *msg) {
  int why = interrupts(in, msg);
  if (!why || in->why) return;
  in->why = why;
  __atomic_store_n(&in->flag, 1, __ATOMIC_RELAXED);
}

static void watch_begin(void *ud, const char *id, const char *uri) {
  inbox *in = ud;
  pthread_mutex_lock(&in->mu);
  in->watching = true;
  in->watch_id = copy_text(id);
  in->watch_uri = copy_text(uri);
  in->why = 0;
  __atomic_store_n(&in->flag, 0, __ATOMIC_RELAXED);
  /* What arrived since the main thread last took the inbox counts too. */
  for (size_t i = 0; i < in->len; i++)
    if (in->items[i].msg) maybe_interrupt(in, in->items[i].msg);
  pthread_mutex_unlock(&in->mu);
}

static int watch_end(void *ud) {
  inbox *in = ud;
  pthread_mutex_lock(&in->mu);
  int why = in->why;
  in->watching = false;
  free(in->watch_id);
  free(in->watch_uri);
  in->watch_id = in->watch_uri = NULL;
  in->why = 0;
  __atomic_store_n(&in->flag, 0, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&in->mu);
  return why;
}

/* Add one item, waiting for room; false when the loop is stopping (the item is dropped). */
static bool put(inbox *in, json_t *msg, const char *frame_error) {
  pthread_mutex_lock(&in->mu);
  while (in->len >= INBOX_MAX && !in->stop)
    pthread_cond_wait(&in->room, &in->mu);
  bool ok = !in->stop;
  if (ok && in->len == in->cap) {
    size_t cap = in->cap ? in->cap * 2 : 64;
    inbox_item *items = realloc(in->items, cap * sizeof(*items));
    if (items) {
      in->items = items;
      in->cap = cap;
    } else {
      in->failed = true;
      ok = false;
    }
  }
  if (ok) {
    if (msg) maybe_interrupt(in, msg);
    in->items[in->len++] = (inbox_item){msg, frame_error};
    pthread_cond_signal(&in->arrived);
  } else {
    json_decref(msg);
  }
  pthread_mutex_unlock(&in->mu);
  return ok;
}

static void *reader(void *arg) {
  inbox *in = arg;
  lsp_reader r = {0};
  char buf[65536];
  for (;;) {
    struct pollfd p[2] = {{in->in_fd, POLLIN, 0}, {in->wake[0], POLLIN, 0}};
    if (poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (p[1].revents) break; /* the main thread is done */
    ssize_t n = read(in->in_fd, buf, sizeof(buf));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) break;
    if (!lsp_reader_feed(&r, buf, (size_t)n)) {
      put(in, NULL, "out of memory reading input");
      break;
    }
    const char *body;
    size_t len;
    lsp_frame_status st;
    bool ok = true;
    while (ok && (st = lsp_reader_next(&r, &body, &len)) != LSP_FRAME_MORE) {
      if (st == LSP_FRAME_BAD) {
        ok = put(in, NULL, body);
      } else {
        ok = put(in, lsp_json_parse(body, len), NULL);
      }
    }
    if (!ok) break;
  }
  lsp_reader_free(&r);
  pthread_mutex_lock(&in->mu);
  in->eof = true;
  pthread_cond_signal(&in->arrived);
  pthread_mutex_unlock(&in->mu);
  return NULL;
}

/* Hand everything in the inbox to the server, waiting for something when it is empty;
 * false once the input ended and nothing is left. */
static bool take(inbox *in, lsp_server *s, bool wait) {
  pthread_mutex_lock(&in->mu);
  while (wait && in->len == 0 && !in->eof)
    pthread_cond_wait(&in->arrived, &in->mu);
  inbox_item *items = in->items;
  size_t len = in->len;
  bool more = len > 0 || !in->eof;
  in->items = NULL;
  in->len = in->cap = 0;
  pthread_cond_signal(&in->room);
  pthread_mutex_unlock(&in->mu);
  for (size_t i = 0; i < len; i++) {
    if (items[i].frame_error)
      lsp_server_frame_error(s, items[i].frame_error);
    else
      lsp_server_enqueue_parsed(s, items[i].msg);
  }
  free(items);
  return more;
}

static bool inbox_empty(inbox *in) {
  pthread_mutex_lock(&in->mu);
  bool empty = in->len == 0;
  pthread_mutex_unlock(&in->mu);
  return empty;
}

int vxpeak_lsp_serve(int in_fd, int out_fd) {
  /* A client that closes its end must not kill the server with SIGPIPE mid-write. */
  signal(SIGPIPE, SIG_IGN);
  /* jansson's one global, its hash seed, is set before a second thread parses. */
  json_object_seed(0);
  lsp_server *s = lsp_server_new(write_all, &out_fd);
  if (!s) return 2;
  inbox in = {.in_fd = in_fd};
  if (pipe(in.wake) != 0) {
    lsp_server_free(s);
    return 2;
  }
  pthread_mutex_init(&in.mu, NULL);
  pthread_cond_init(&in.arrived, NULL);
  pthread_cond_init(&in.room, NULL);
  pthread_t thread;
  int code = 2;
  if (pthread_create(&thread, NULL, reader, &in) == 0) {
    lsp_watch watch = {watch_begin, watch_end, &in, &in.flag};
    lsp_server_set_watch(s, &watch);
    code = 1; /* end of input without `exit` */
    for (;;) {
      bool more = take(&in, s, true);
      lsp_server_drain(s);
      if (lsp_server_exited(s, &code) || !more) break;
      if (inbox_empty(&in)) lsp_server_idle(s);
    }
    lsp_server_set_watch(s, NULL);
    pthread_mutex_lock(&in.mu);
    in.stop = true;
    pthread_cond_signal(&in.room);
    pthread_mutex_unlock(&in.mu);
    ssize_t w;
    do
      w = write(in.wake[1], "x", 1);
    while (w < 0 && errno == EINTR);
    pthread_join(thread, NULL);
    for (size_t i = 0; i < in.len; i++)
      json_decref(in.items[i].msg);
    free(in.items);
  }
  close(in.wake[0]);
  close(in.wake[1]);
  pthread_cond_destroy(&in.room);
  pthread_cond_destroy(&in.arrived);
  pthread_mutex_destroy(&in.mu);
  lsp_server_free(s);
  return code;
}
