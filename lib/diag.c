/* SPDX-License-Identifier: Apache-2.0 */
/* diag.c - building diagnostic lists and the public diagnostic accessors. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>

#include "arena.h"
#include "source.h"

static char *vformat(vxp_context *ctx, const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (n < 0) return NULL;
  char *buf = vxp_ctx__malloc(ctx, (size_t)n + 1);
  if (!buf) return NULL;
  vsnprintf(buf, (size_t)n + 1, fmt, ap);
  return buf;
}

static void init_diag(vxp_diagnostic *d, vxp_severity severity, const char *code,
                      const vxp_source *src, uint32_t start_byte, uint32_t end_byte) {
  memset(d, 0, sizeof(*d));
  d->severity = severity;
  if (code) snprintf(d->code, sizeof(d->code), "%s", code);
  if (src) {
    d->source = src;
    d->has_range = true;
    d->range = vxp_source__range(src, start_byte, end_byte);
  }
}

vxp_diagnostic *vxp_diag__vadd(vxp_context *ctx, vxp_diag_list *list, vxp_severity severity,
                               const char *code, const vxp_source *src, uint32_t start_byte,
                               uint32_t end_byte, const char *fmt, va_list ap) {
  if (!array_reserve(ctx, list, 1)) return NULL;
  char *message = vformat(ctx, fmt, ap);
  if (!message) return NULL;
  vxp_diagnostic *d = &list->items[list->len++];
  init_diag(d, severity, code, src, start_byte, end_byte);
  d->message = message;
  return d;
}

vxp_diagnostic *vxp_diag__add(vxp_context *ctx, vxp_diag_list *list, vxp_severity severity,
                              const char *code, const vxp_source *src, uint32_t start_byte,
                              uint32_t end_byte, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vxp_diagnostic *d = vxp_diag__vadd(ctx, list, severity, code, src, start_byte, end_byte, fmt, ap);
  va_end(ap);
  return d;
}

bool vxp_diag__vnote(vxp_context *ctx, vxp_diagnostic *d, bool is_help, const vxp_source *src,
                     uint32_t start_byte, uint32_t end_byte, const char *fmt, va_list ap) {
  if (!array_reserve(ctx, &d->notes, 1)) return false;
  char *message = vformat(ctx, fmt, ap);
  if (!message) return false;
  vxp_diagnostic *n = &d->notes.items[d->notes.len++];
  init_diag(n, VXP_SEVERITY_NOTE, NULL, src, start_byte, end_byte);
  n->message = message;
  n->is_help = is_help;
  return true;
}

bool vxp_diag__note(vxp_context *ctx, vxp_diagnostic *d, bool is_help, const vxp_source *src,
                    uint32_t start_byte, uint32_t end_byte, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  bool ok = vxp_diag__vnote(ctx, d, is_help, src, start_byte, end_byte, fmt, ap);
  va_end(ap);
  return ok;
}

bool vxp_diag__capacity(vxp_context *ctx, vxp_diagnostic *d, const char *space, uint64_t required,
                        uint64_t available, bool has_tiles, uint64_t tiles) {
  char *copy = vxp_ctx__strdup(ctx, space);
  if (!copy) return false;
  vxp_ctx__free(ctx, d->capacity.space);
  d->capacity.present = true;
  d->capacity.space = copy;
  d->capacity.required_bytes = required;
  d->capacity.available_bytes = available;
  d->capacity.has_tiles = has_tiles;
  d->capacity.tiles = tiles;
  return true;
}

static void free_diag(vxp_context *ctx, vxp_diagnostic *d) {
  vxp_ctx__free(ctx, d->message);
  vxp_ctx__free(ctx, d->capacity.space);
  for (size_t i = 0; i < d->notes.len; i++)
    free_diag(ctx, &d->notes.items[i]);
  array_free(ctx, &d->notes);
}

static bool copy_into(vxp_context *ctx, vxp_diagnostic *to, const vxp_diagnostic *from) {
  *to = *from;
  to->message = NULL;
  to->capacity.space = NULL;
  memset(&to->notes, 0, sizeof(to->notes));
  to->message = vxp_ctx__strdup(ctx, from->message);
  if (!to->message) return false;
  if (from->capacity.present) {
    to->capacity.space = vxp_ctx__strdup(ctx, from->capacity.space);
    if (!to->capacity.space) return false;
  }
  if (from->notes.len && !array_reserve(ctx, &to->notes, from->notes.len)) return false;
  for (size_t i = 0; i < from->notes.len; i++) {
    to->notes.len++;
    if (!copy_into(ctx, &to->notes.items[i], &from->notes.items[i])) return false;
  }
  return true;
}

bool vxp_diag__copy(vxp_context *ctx, vxp_diag_list *list, const vxp_diagnostic *from) {
  if (!array_reserve(ctx, list, 1)) return false;
  vxp_diagnostic *to = &list->items[list->len++];
  if (copy_into(ctx, to, from)) return true;
  free_diag(ctx, to);
  list->len--;
  return false;
}

void vxp_diag__remove(vxp_context *ctx, vxp_diag_list *list, size_t index) {
  if (index >= list->len) return;
  free_diag(ctx, &list->items[index]);
  memmove(&list->items[index], &list->items[index + 1],
          (list->len - index - 1) * sizeof(vxp_diagnostic));
  list->len--;
}

void vxp_diag__truncate(vxp_context *ctx, vxp_diag_list *list, size_t len) {
  while (list->len > len)
    free_diag(ctx, &list->items[--list->len]);
}

void vxp_diag__list_free(vxp_context *ctx, vxp_diag_list *list) {
  for (size_t i = 0; i < list->len; i++)
    free_diag(ctx, &list->items[i]);
  array_free(ctx, list);
}

static bool arena_copy(vxp_context *ctx, vxp_arena *arena, vxp_diagnostic *to,
                       const vxp_diagnostic *from) {
  *to = *from;
  memset(&to->notes, 0, sizeof(to->notes));
  to->capacity.space = NULL;
  if (!(to->message = vxp_arena__strdup(ctx, arena, from->message))) return false;
  if (from->capacity.space &&
      !(to->capacity.space = vxp_arena__strdup(ctx, arena, from->capacity.space)))
    return false;
  if (!from->notes.len) return true;
  /* No overflow: the notes already fill an allocation of this size. */
  to->notes.items = vxp_arena__alloc(ctx, arena, from->notes.len * sizeof(vxp_diagnostic));
  if (!to->notes.items) return false;
  to->notes.len = to->notes.cap = from->notes.len;
  for (size_t i = 0; i < from->notes.len; i++)
    if (!arena_copy(ctx, arena, &to->notes.items[i], &from->notes.items[i])) return false;
  return true;
}

bool vxp_diag__list_to_arena(vxp_context *ctx, vxp_arena *arena, vxp_diag_list *to,
                             const vxp_diag_list *from) {
  if (!from->len) return true;
  to->items = vxp_arena__alloc(ctx, arena, from->len * sizeof(vxp_diagnostic));
  if (!to->items) return false;
  for (size_t i = 0; i < from->len; i++) {
    if (!arena_copy(ctx, arena, &to->items[i], &from->items[i])) return false;
    to->len = to->cap = i + 1;
  }
  return true;
}

size_t vxp_diag__count(const vxp_diag_list *list, vxp_severity severity) {
  size_t n = 0;
  for (size_t i = 0; i < list->len; i++)
    n += list->items[i].severity == severity;
  return n;
}

/* ------------------------------------------------------------------ public accessors */

vxp_severity vxp_diagnostic_severity(const vxp_diagnostic *d) {
  return d ? d->severity : VXP_SEVERITY_NOTE;
}

const char *vxp_diagnostic_code(const vxp_diagnostic *d) {
  return (d && d->code[0]) ? d->code : NULL;
}

const char *vxp_diagnostic_message(const vxp_diagnostic *d) { return d ? d->message : NULL; }

const char *vxp_diagnostic_function(const vxp_diagnostic *d) { return d ? d->function : NULL; }

int vxp_diagnostic_has_range(const vxp_diagnostic *d) { return d && d->has_range; }

const vxp_source *vxp_diagnostic_source(const vxp_diagnostic *d) { return d ? d->source : NULL; }

vxp_range vxp_diagnostic_range(const vxp_diagnostic *d) {
  vxp_range none;
  memset(&none, 0, sizeof(none));
  return (d && d->has_range) ? d->range : none;
}

size_t vxp_diagnostic_note_count(const vxp_diagnostic *d) { return d ? d->notes.len : 0; }

const vxp_diagnostic *vxp_diagnostic_note(const vxp_diagnostic *d, size_t i) {
  return (d && i < d->notes.len) ? &d->notes.items[i] : NULL;
}

int vxp_diagnostic_is_help(const vxp_diagnostic *d) { return d && d->is_help; }

#if defined(VXP_ASSERTIONS)
void vxp_diag__check_list(const vxp_diag_list *list) {
  VXP__CHECK_ARRAY(list);
  for (size_t i = 0; i < list->len; i++) {
    const vxp_diagnostic *d = &list->items[i];
    VXP__ASSERT(d->message != NULL);
    VXP__ASSERT((d->source != NULL) == d->has_range);
    for (size_t k = 0; k < d->notes.len; k++) {
      const vxp_diagnostic *n = &d->notes.items[k];
      VXP__ASSERT(n->message != NULL && n->severity == VXP_SEVERITY_NOTE);
      VXP__ASSERT((n->source != NULL) == n->has_range);
      VXP__ASSERT(n->notes.len == 0);
    }
  }
}
#endif
