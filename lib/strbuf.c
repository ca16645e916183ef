/* SPDX-License-Identifier: Apache-2.0 */
/* strbuf.c - the growable text buffer (strbuf.h). */
#include "strbuf.h"

#include "arena.h"

#include <stdio.h>

static bool reserve(vxp_context *ctx, vxp_sb *sb, size_t extra) {
  if (sb->failed) return false;
  VXP__ASSERT(sb->data ? sb->len < sb->cap : sb->len == 0 && sb->cap == 0);
  if (extra < sb->cap - sb->len) return true; /* room for `extra` bytes and the NUL */
  size_t need;
  if (!vxp_add_u64(sb->len, extra, &need) || need == SIZE_MAX) {
    sb->failed = true;
    return false;
  }
  need += 1;
  size_t cap = sb->cap ? sb->cap : 256;
  while (cap < need) {
    if (cap > SIZE_MAX / 2) {
      cap = need;
      break;
    }
    cap *= 2;
  }
  if (sb->arena) { /* grows in the handle's arena (the text is bytes: elements of one) */
    void *items = sb->data;
    size_t have = sb->cap, kept = sb->data ? sb->len + 1 : 0; /* with the NUL */
    if (!vxp_arena__reserve(ctx, sb->arena, &items, &have, kept, cap - kept, 1)) {
      sb->failed = true;
      return false;
    }
    sb->data = items;
    sb->cap = have;
    return true;
  }
  char *grown = vxp_ctx__realloc(ctx, sb->data, cap);
  if (!grown) {
    sb->failed = true;
    return false;
  }
  sb->data = grown;
  sb->cap = cap;
  return true;
}

bool vxp_sb__drain(vxp_sb *sb, vxp_write_fn write, void *arg, bool *refused) {
  if (sb->failed) return false;
  if (sb->len && write(arg, sb->data, sb->len) != 0) {
    sb->failed = true;
    if (refused) *refused = true;
    return false;
  }
  if (sb->data) sb->data[0] = '\0';
  sb->len = 0;
  return true;
}

vxp_sb vxp_sb__in_arena(struct vxp_arena *arena) {
  vxp_sb sb;
  memset(&sb, 0, sizeof(sb));
  sb.arena = arena;
  return sb;
}

void vxp_sb__append(vxp_context *ctx, vxp_sb *sb, const char *s, size_t len) {
  if (!reserve(ctx, sb, len)) return;
  if (len) memcpy(sb->data + sb->len, s, len);
  sb->len += len;
  sb->data[sb->len] = '\0';
}

void vxp_sb__puts(vxp_context *ctx, vxp_sb *sb, const char *s) {
  vxp_sb__append(ctx, sb, s, strlen(s));
}

void vxp_sb__putc(vxp_context *ctx, vxp_sb *sb, char c) { vxp_sb__append(ctx, sb, &c, 1); }

void vxp_sb__vprintf(vxp_context *ctx, vxp_sb *sb, const char *fmt, va_list ap) {
  if (sb->failed) return;
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (n < 0) {
    sb->failed = true;
    return;
  }
  if (!reserve(ctx, sb, (size_t)n)) return;
  vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
  sb->len += (size_t)n;
}

void vxp_sb__printf(vxp_context *ctx, vxp_sb *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vxp_sb__vprintf(ctx, sb, fmt, ap);
  va_end(ap);
}

void vxp_sb__json_escape(vxp_context *ctx, vxp_sb *sb, const char *s, size_t len) {
  size_t run = 0; /* start of the bytes not yet copied */
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    vxp_sb__append(ctx, sb, s + run, i - run);
    run = i + 1;
    switch (c) {
    case '"': vxp_sb__puts(ctx, sb, "\\\""); break;
    case '\\': vxp_sb__puts(ctx, sb, "\\\\"); break;
    case '\n': vxp_sb__puts(ctx, sb, "\\n"); break;
    case '\r': vxp_sb__puts(ctx, sb, "\\r"); break;
    case '\t': vxp_sb__puts(ctx, sb, "\\t"); break;
    default: vxp_sb__printf(ctx, sb, "\\u%04x", c); break;
    }
  }
  vxp_sb__append(ctx, sb, s + run, len - run);
}

const char *vxp_sb__text(const vxp_sb *sb) { return sb->data ? sb->data : ""; }

char *vxp_sb__detach(vxp_context *ctx, vxp_sb *sb, size_t *len) {
  VXP__ASSERT(!sb->arena);
  if (!sb->failed && !sb->data) reserve(ctx, sb, 0);
  if (sb->failed) {
    vxp_sb__free(ctx, sb);
    return NULL;
  }
  sb->data[sb->len] = '\0';
  char *text = sb->data;
  if (len) *len = sb->len;
  memset(sb, 0, sizeof(*sb));
  return text;
}

void vxp_sb__free(vxp_context *ctx, vxp_sb *sb) {
  struct vxp_arena *arena = sb->arena;
  if (!arena) vxp_ctx__free(ctx, sb->data);
  memset(sb, 0, sizeof(*sb));
  sb->arena = arena;
}
