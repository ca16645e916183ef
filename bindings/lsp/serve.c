/* SPDX-License-Identifier: Apache-2.0 */
/* serve.c - the stdio loop of `vxpeak lsp`: read whatever has arrived, queue every
 * complete message, handle the queue (cancellations first), and when no more input is
 * waiting analyse the changed documents and publish. A burst of keystrokes thus costs one
 * analysis, and a request cancelled while queued is answered as cancelled. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include "lsp.h"

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

/* Whether input is waiting on `fd` (without blocking). */
static bool readable(int fd) {
  struct pollfd p = {fd, POLLIN, 0};
  return poll(&p, 1, 0) > 0;
}

int vxpeak_lsp_serve(int in_fd, int out_fd) {
  /* A client that closes its end must not kill the server with SIGPIPE mid-write. */
  signal(SIGPIPE, SIG_IGN);
  lsp_server *s = lsp_server_new(write_all, &out_fd);
  if (!s) return 2;
  lsp_reader r = {0};
  int code = 1; /* end of input without `exit` */
  char buf[65536];
  for (;;) {
    ssize_t n = read(in_fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    bool eof = n <= 0;
    if (!eof) {
      if (!lsp_reader_feed(&r, buf, (size_t)n)) {
        lsp_server_frame_error(s, "out of memory reading input");
        break;
      }
      const char *body;
      size_t len;
      lsp_frame_status st;
      while ((st = lsp_reader_next(&r, &body, &len)) != LSP_FRAME_MORE) {
        if (st == LSP_FRAME_BAD)
          lsp_server_frame_error(s, body);
        else
          lsp_server_enqueue(s, body, len);
      }
      /* More is arriving: queue it before acting (up to a bound, so a flood is handled). */
      if (readable(in_fd) && s->queue_len < 256) continue;
    }
    lsp_server_drain(s);
    if (lsp_server_exited(s, &code) || eof) break;
    if (!readable(in_fd)) lsp_server_idle(s);
  }
  lsp_reader_free(&r);
  lsp_server_free(s);
  return code;
}
