/* SPDX-License-Identifier: Apache-2.0 */
/* source.c - sources: copying text, reading files, lines and UTF-16 columns. */
#include "source.h"

#include <errno.h>
#include <stdio.h>

#include "arena.h"
#include "context.h"

#if defined(VXP_ASSERTIONS)
/* source.h's invariant, as a check (VXP__CHECK: the assertion builds only). */
static void check_source(const vxp_source *src) {
  VXP__ASSERT(src->text[src->len] == '\0');
  VXP__CHECK_ARRAY(&src->line_starts);
  VXP__ASSERT(src->line_starts.len >= 1 && src->line_starts.items[0] == 0);
  for (size_t i = 1; i < src->line_starts.len; i++) {
    uint32_t at = src->line_starts.items[i];
    VXP__ASSERT(at > src->line_starts.items[i - 1] && at <= src->len);
    VXP__ASSERT(src->text[at - 1] == '\n');
  }
  for (size_t i = 1; i < src->history.len; i++)
    VXP__ASSERT(src->history.items[i].from_id > src->history.items[i - 1].from_id);
  VXP__ASSERT(src->history.len == 0 || src->history.items[src->history.len - 1].from_id < src->id);
}
#endif

/* Offsets are uint32_t (as in tree-sitter), so a source is limited to 4 GiB - 1. */
#define VXP__MAX_SOURCE_BYTES ((size_t)UINT32_MAX - 1)
/* The largest file vxp_source_load_file reads: past it the read stops, with an error,
 * before taking more memory (`check /dev/zero` once read 4.2 GB before refusing). No Vx
 * program is this large; the analysis' promise of memory at most 25 times the input then
 * stays under 1.6 GiB. */
#define VXP__MAX_FILE_BYTES ((size_t)64 << 20)

/* The newlines in `len` bytes of `text`: a bound on the lines they start. */
static size_t newlines(const char *text, size_t len) {
  size_t n = 0;
  for (const char *p = text, *end = text + len; p < end; p++) {
    p = memchr(p, '\n', (size_t)(end - p));
    if (!p) break;
    n++;
  }
  return n;
}

/* A line start into the index, which has room for it (source_block). */
static void add_line(vxp_source *src, size_t start) {
  VXP__ASSERT(src->line_starts.len < src->line_starts.cap);
  src->line_starts.items[src->line_starts.len++] = (uint32_t)start;
}

/* One block holds a source and everything it owns, so that vxp_source_free is one call: the
 * handle, its edit history (room for `steps`), its line index (room for `lines`), its label
 * and its text (`len` bytes and a NUL). Nothing in it grows, so both counts are bounds known
 * before the source is made. NULL on allocation failure. */
static vxp_source *source_block(vxp_context *ctx, vxp_arena *arena, const char *label, size_t len,
                                size_t lines, size_t steps) {
  size_t label_size = strlen(label) + 1;
  /* The handle and the steps are 8-aligned, the line starts 4, the text and label 1; the
   * sizes are small multiples of the text's (at most 4 GiB), so 64 bits hold them. */
  size_t at_steps = (sizeof(vxp_source) + 7) / 8 * 8;
  size_t at_lines = at_steps + steps * sizeof(vxp_source_step);
  size_t at_label = at_lines + lines * sizeof(uint32_t);
  size_t at_text = at_label + label_size;
  unsigned char *block = arena ? vxp_arena__alloc(ctx, arena, at_text + len + 1)
                               : vxp_ctx__malloc(ctx, at_text + len + 1);
  if (!block) return NULL;
  vxp_source *src = (vxp_source *)(void *)block;
  memset(src, 0, sizeof(*src));
  src->tag = VXP_TAG_SOURCE;
  src->ctx = ctx;
  src->id = ++ctx->next_source_id;
  src->history.items = steps ? (vxp_source_step *)(void *)(block + at_steps) : NULL;
  src->history.cap = steps;
  src->line_starts.items = (uint32_t *)(void *)(block + at_lines);
  src->line_starts.cap = lines;
  src->label = (char *)block + at_label;
  memcpy(src->label, label, label_size);
  src->text = (char *)block + at_text;
  src->len = len;
  src->text[len] = '\0';
  return src;
}

/* A source of `len` bytes of `text` (NULL when len is 0), one block from `arena` or (NULL)
 * the context's allocator. NULL on allocation failure. */
static vxp_source *source_new(vxp_context *ctx, vxp_arena *arena, const char *label,
                              const char *text, size_t len) {
  size_t lines = 1 + (len ? newlines(text, len) : 0);
  vxp_source *src = source_block(ctx, arena, label, len, lines, 0);
  if (!src) return NULL;
  if (len) memcpy(src->text, text, len);
  add_line(src, 0);
  for (size_t i = 0; i < len; i++)
    if (src->text[i] == '\n' && i + 1 < len) add_line(src, i + 1);
  return src;
}

const vxp_source *vxp_source__new_in(vxp_context *ctx, vxp_arena *arena, const char *label,
                                     const char *text, size_t len) {
  VXP__ASSERT(len <= VXP__MAX_SOURCE_BYTES);
  vxp_source *src = source_new(ctx, arena, label, text, len);
  if (src) VXP__CHECK(check_source(src));
  return src;
}

int vxp_source_new(vxp_source **out, vxp_context *ctx, const char *label, const char *text,
                   size_t len) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (!out || !ctx || (!text && len))
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_source_new") : VXP_EINVAL;
  if (len > VXP__MAX_SOURCE_BYTES)
    return vxp_ctx__error(ctx, VXP_EINVAL, "%s: source of %zu bytes exceeds the 4 GiB limit",
                          label ? label : "<input>", len);
  vxp_source *src = source_new(ctx, NULL, label ? label : "<input>", text, len);
  if (!src) return vxp_ctx__nomem(ctx);
  VXP__CHECK(check_source(src));
  *out = src;
  return VXP_OK;
}

int vxp_source_load_file(vxp_source **out, vxp_context *ctx, const char *path) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);

  vxp_ctx__begin(ctx); /* each call reports its own outcome */
  if (!out || !ctx || !path)
    return ctx ? vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_source_load_file")
               : VXP_EINVAL;
  FILE *f = fopen(path, "rb");
  if (!f) return vxp_ctx__error(ctx, VXP_EIO, "%s: cannot open: %s", path, strerror(errno));
  char *buf = NULL;
  size_t len = 0, cap = 0;
  int rc = VXP_OK;
  for (;;) {
    if (len == cap) {
      size_t new_cap = cap ? cap * 2 : 65536;
      if (new_cap > VXP__MAX_FILE_BYTES + 1) new_cap = VXP__MAX_FILE_BYTES + 1;
      if (new_cap == cap) {
        rc = vxp_ctx__error(ctx, VXP_EIO,
                            "%s: the file is larger than 64 MiB, the most vxpeak reads; it was "
                            "not read further",
                            path);
        break;
      }
      char *grown = vxp_ctx__realloc(ctx, buf, new_cap);
      if (!grown) {
        rc = vxp_ctx__nomem(ctx);
        break;
      }
      buf = grown;
      cap = new_cap;
    }
    size_t n = fread(buf + len, 1, cap - len, f);
    len += n;
    if (n == 0) {
      if (ferror(f)) rc = vxp_ctx__error(ctx, VXP_EIO, "%s: read error: %s", path, strerror(errno));
      break;
    }
  }
  fclose(f);
  if (rc == VXP_OK) rc = vxp_source_new(out, ctx, path, buf, len);
  vxp_ctx__free(ctx, buf);
  return rc;
}

void vxp_source_free(vxp_source *src) {
  VXP__TAG(src, VXP_TAG_SOURCE, );

  if (!src) return;
  src->tag = VXP_TAG_FREED;
  vxp_ctx__free(src->ctx, src); /* one block (source_block) */
}

/* ------------------------------------------------------------------ edits */

/* The line index of `to` (whose text is `from`'s with [start, old_end) replaced by `ins_len`
 * bytes) from `from`'s index: starts before the edit are kept, the inserted text is
 * scanned, starts after it are shifted. Only the edited text is read, so an edit costs
 * O(lines) integer moves, not a scan of the whole file. */
static void index_edited_lines(vxp_source *to, const vxp_source *from, uint32_t start,
                               uint32_t old_end, size_t ins_len) {
  const uint32_t *old = from->line_starts.items;
  size_t old_count = from->line_starts.len;
  size_t keep = 0;
  while (keep < old_count && old[keep] <= start)
    keep++;
  memcpy(to->line_starts.items, old, keep * sizeof(uint32_t));
  to->line_starts.len = keep;
  /* A line that started at the edit point ends the text when nothing follows it... */
  if (keep > 1 && to->line_starts.items[keep - 1] == start && start >= to->len)
    to->line_starts.len--;
  /* ...and a newline that ended `from` starts a line in `to` once text follows it. */
  if (start > 0 && to->text[start - 1] == '\n' && *array_last(&to->line_starts) != start &&
      start < to->len)
    add_line(to, start);
  for (size_t i = 0; i < ins_len; i++) {
    size_t next = start + i + 1;
    if (to->text[start + i] == '\n' && next < to->len) add_line(to, next);
  }
  size_t first_after = keep;
  while (first_after < old_count && old[first_after] <= old_end)
    first_after++;
  /* Offsets fit in 32 bits on both sides; the shift is done in 64 to keep it exact. */
  int64_t shift = (int64_t)start + (int64_t)ins_len - (int64_t)old_end;
  for (size_t i = first_after; i < old_count; i++)
    add_line(to, (size_t)((int64_t)old[i] + shift));
}

/* The point of `offset` as tree-sitter counts it: past a final newline is the start of
 * one more row (our line index does not list that empty line). */
static vxp_point tree_point(const vxp_source *src, uint32_t offset) {
  if (offset == src->len && offset > 0 && src->text[offset - 1] == '\n') {
    vxp_point p = {(uint32_t)src->line_starts.len, 0};
    return p;
  }
  return vxp_source__point(src, offset);
}

int vxp_source_edit(vxp_source **out, const vxp_source *src, uint32_t start_byte,
                    uint32_t old_end_byte, const char *text, size_t len) {
  VXP__TAG_RC(NULL, src, VXP_TAG_SOURCE);

  vxp_ctx__begin(src ? src->ctx : NULL); /* each call reports its own outcome */
  if (!src) return VXP_EINVAL;
  vxp_context *ctx = src->ctx;
  if (!out || (!text && len))
    return vxp_ctx__error(ctx, VXP_EINVAL, "invalid argument to vxp_source_edit");
  if (start_byte > old_end_byte || old_end_byte > src->len)
    return vxp_ctx__error(ctx, VXP_EINVAL,
                          "%s: edit range [%u, %u) is not inside the %zu-byte source", src->label,
                          start_byte, old_end_byte, src->len);
  size_t kept = src->len - (old_end_byte - start_byte);
  if (len > VXP__MAX_SOURCE_BYTES - kept)
    return vxp_ctx__error(ctx, VXP_EINVAL, "%s: the edit makes the source exceed the 4 GiB limit",
                          src->label);
  size_t keep_steps =
      src->history.len < VXP__SOURCE_HISTORY ? src->history.len : VXP__SOURCE_HISTORY - 1;
  /* The index keeps at most the old lines, one more where the edit point starts a line,
   * and one per inserted newline. */
  size_t lines = src->line_starts.len + 1 + (len ? newlines(text, len) : 0);
  vxp_source *to = source_block(ctx, NULL, src->label, kept + len, lines, keep_steps + 1);
  if (!to) return vxp_ctx__nomem(ctx);
  memcpy(to->text, src->text, start_byte);
  if (len) memcpy(to->text + start_byte, text, len);
  memcpy(to->text + start_byte + len, src->text + old_end_byte, src->len - old_end_byte);
  index_edited_lines(to, src, start_byte, old_end_byte, len);
  if (keep_steps)
    memcpy(to->history.items, src->history.items + (src->history.len - keep_steps),
           keep_steps * sizeof(vxp_source_step));
  vxp_source_step step;
  step.from_id = src->id;
  step.start_byte = start_byte;
  step.old_end_byte = old_end_byte;
  step.new_end_byte = (uint32_t)(start_byte + len);
  step.start_point = tree_point(src, start_byte);
  step.old_end_point = tree_point(src, old_end_byte);
  step.new_end_point = tree_point(to, step.new_end_byte);
  to->history.items[keep_steps] = step;
  to->history.len = keep_steps + 1;
  VXP__CHECK(check_source(to));
  *out = to;
  return VXP_OK;
}

void vxp_source__steps_span(const vxp_source_step *steps, size_t count, uint32_t *prefix,
                            uint32_t *old_end, uint32_t *new_end) {
  /* [p, ne) in the current version and [p, oe) in the first hold every change so far. */
  uint64_t p = steps[0].start_byte, oe = steps[0].old_end_byte, ne = steps[0].new_end_byte;
  for (size_t i = 1; i < count; i++) {
    const vxp_source_step *st = &steps[i];
    /* The union of the span and what this edit replaces, in the version it edits; its end
     * then moves with the edit, and past the span the version is the first one, moved. */
    uint64_t from = st->start_byte < p ? st->start_byte : p;
    uint64_t to = st->old_end_byte > ne ? st->old_end_byte : ne;
    oe += to - ne;
    ne = to - st->old_end_byte + st->new_end_byte;
    p = from;
  }
  *prefix = (uint32_t)p;
  *old_end = (uint32_t)oe;
  *new_end = (uint32_t)ne;
}

const char *vxp_source_label(const vxp_source *src) {
  VXP__TAG(src, VXP_TAG_SOURCE, NULL);
  return src ? src->label : NULL;
}

const char *vxp_source_text(const vxp_source *src, size_t *len) {
  VXP__TAG(src, VXP_TAG_SOURCE, NULL);

  if (!src) return NULL;
  if (len) *len = src->len;
  return src->text;
}

uint32_t vxp_source_line_count(const vxp_source *src) {
  VXP__TAG(src, VXP_TAG_SOURCE, 0);

  return src ? (uint32_t)src->line_starts.len : 0;
}

const char *vxp_source_line(const vxp_source *src, uint32_t line, size_t *len) {
  VXP__TAG(src, VXP_TAG_SOURCE, NULL);

  if (!src || line >= src->line_starts.len) return NULL;
  size_t start = src->line_starts.items[line];
  size_t end = line + 1 < src->line_starts.len ? src->line_starts.items[line + 1] : src->len;
  while (end > start && (src->text[end - 1] == '\n' || src->text[end - 1] == '\r'))
    end--;
  if (len) *len = end - start;
  return src->text + start;
}

vxp_point vxp_source__point(const vxp_source *src, uint32_t offset) {
  if (offset > src->len) offset = (uint32_t)src->len;
  size_t lo = 0, hi = src->line_starts.len;
  while (hi - lo > 1) { /* last line start <= offset */
    size_t mid = lo + (hi - lo) / 2;
    if (src->line_starts.items[mid] <= offset)
      lo = mid;
    else
      hi = mid;
  }
  vxp_point p = {(uint32_t)lo, offset - src->line_starts.items[lo]};
  return p;
}

vxp_range vxp_source__range(const vxp_source *src, uint32_t start, uint32_t end) {
  uint32_t line = 0;
  return vxp_source__range_near(src, start, end, &line);
}

vxp_range vxp_source__range_near(const vxp_source *src, uint32_t start, uint32_t end,
                                 uint32_t *line_hint) {
  vxp_range r;
  uint32_t at_start = start > src->len ? (uint32_t)src->len : start;
  size_t hint = *line_hint, lines = src->line_starts.len;
  bool found = false;
  /* From the hint (the line of the range asked before, in a walk through a function) a few
   * lines down before bisecting the file's lines. */
  if (hint < lines && src->line_starts.items[hint] <= at_start) {
    for (int step = 0; step < 8; step++) {
      if (hint + 1 >= lines || src->line_starts.items[hint + 1] > at_start) {
        r.start.line = (uint32_t)hint;
        r.start.column = at_start - src->line_starts.items[hint];
        found = true;
        break;
      }
      hint++;
    }
  }
  if (!found) r.start = vxp_source__point(src, start);
  *line_hint = r.start.line;
  /* A range mostly ends on its own line or a few below: walk down from the start's line
   * before bisecting the file's lines again (an analysis makes a range per placement). */
  size_t line = r.start.line;
  uint32_t at = end > src->len ? (uint32_t)src->len : end;
  for (int step = 0; step < 8 && at >= start; step++) {
    if (line + 1 >= lines || src->line_starts.items[line + 1] > at) {
      r.end.line = (uint32_t)line;
      r.end.column = at - src->line_starts.items[line];
      r.start_byte = start;
      r.end_byte = end;
      return r;
    }
    line++;
  }
  r.end = vxp_source__point(src, end);
  r.start_byte = start;
  r.end_byte = end;
  return r;
}

/* Length of the UTF-8 sequence starting at s[0] (1 for an invalid lead or truncated tail). */
static size_t utf8_sequence_length(const unsigned char *s, size_t avail, uint32_t *codepoint) {
  unsigned char c = s[0];
  size_t n;
  uint32_t cp;
  if (c < 0x80) {
    *codepoint = c;
    return 1;
  }
  if ((c & 0xE0) == 0xC0) {
    n = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4;
    cp = c & 0x07;
  } else {
    *codepoint = 0xFFFD;
    return 1;
  }
  if (n > avail) {
    *codepoint = 0xFFFD;
    return 1;
  }
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) {
      *codepoint = 0xFFFD;
      return 1;
    }
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  *codepoint = cp;
  return n;
}

uint32_t vxp_source_utf16_column(const vxp_source *src, vxp_point point) {
  VXP__TAG(src, VXP_TAG_SOURCE, 0);

  size_t len;
  const char *line = vxp_source_line(src, point.line, &len);
  if (!line) return 0;
  size_t limit = point.column < len ? point.column : len;
  uint32_t units = 0;
  for (size_t i = 0; i < limit;) {
    uint32_t cp;
    size_t n = utf8_sequence_length((const unsigned char *)line + i, len - i, &cp);
    if (i + n > limit) n = limit - i; /* a point inside a sequence counts what precedes it */
    units += cp >= 0x10000 ? 2 : 1;
    i += n;
  }
  return units;
}

const uint32_t *vxp_source_line_starts(const vxp_source *src, size_t *count) {
  VXP__TAG(src, VXP_TAG_SOURCE, NULL);

  if (!src) return NULL;
  if (count) *count = src->line_starts.len;
  return src->line_starts.items;
}

vxp_point vxp_source_point(const vxp_source *src, uint32_t offset) {
  VXP__TAG(src, VXP_TAG_SOURCE, (vxp_point){0});

  if (!src) {
    vxp_point none = {0, 0};
    return none;
  }
  return vxp_source__point(src, offset);
}

/* The inverse of vxp_source_utf16_column, clamped as LSP clamps a Position: a line past the
 * last one is the end of the text, a column past the end of its line is the line's end
 * (before its terminator), and a column inside a surrogate pair is the character's start. */
uint32_t vxp_source_utf16_offset(const vxp_source *src, uint32_t line, uint32_t utf16_column) {
  VXP__TAG(src, VXP_TAG_SOURCE, 0);

  if (!src) return 0;
  size_t len;
  const char *text = vxp_source_line(src, line, &len);
  if (!text) return (uint32_t)src->len; /* also the empty line after a final newline */
  uint32_t units = 0;
  size_t i = 0;
  while (i < len) {
    uint32_t cp;
    size_t n = utf8_sequence_length((const unsigned char *)text + i, len - i, &cp);
    uint32_t width = cp >= 0x10000 ? 2 : 1;
    if (units + width > utf16_column) break;
    units += width;
    i += n;
  }
  return (uint32_t)(text - src->text + i);
}
