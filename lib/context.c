/* SPDX-License-Identifier: Apache-2.0 */
/* context.c - creating and freeing contexts, allocation through them, error reporting. */
#include "context.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void *libc_malloc(size_t size, void *ud) {
  VXP__UNUSED(ud);
  return malloc(size);
}
static void *libc_realloc(void *ptr, size_t size, void *ud) {
  VXP__UNUSED(ud);
  return realloc(ptr, size);
}
static void libc_free(void *ptr, void *ud) {
  VXP__UNUSED(ud);
  free(ptr);
}

static const vxp_allocator libc_allocator = {libc_malloc, libc_realloc, libc_free, NULL};

int vxp_context_options_init(vxp_context_options *opts, unsigned int version) {
  if (!opts) return VXP_EINVAL;
  if (!VXP__VERSION_OK(version, VXP_CONTEXT_OPTIONS_VERSION)) return VXP_EVERSION;
  memset(opts, 0, sizeof(*opts));
  opts->version = version;
  return VXP_OK;
}

int vxp_context_new(vxp_context **out, const vxp_context_options *opts) {
  if (!out) return VXP_EINVAL;
  if (opts && !VXP__VERSION_OK(opts->version, VXP_CONTEXT_OPTIONS_VERSION)) return VXP_EVERSION;
  const vxp_allocator *alloc = (opts && opts->allocator) ? opts->allocator : &libc_allocator;
  if (!alloc->malloc || !alloc->realloc || !alloc->free) return VXP_EINVAL;

  const TSLanguage *language = tree_sitter_vx();
  uint32_t abi = ts_language_version(language);
  if (abi < TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION || abi > TREE_SITTER_LANGUAGE_VERSION)
    return VXP_EVERSION;

  vxp_context *ctx = alloc->malloc(sizeof(*ctx), alloc->ud);
  if (!ctx) return VXP_ENOMEM;
  memset(ctx, 0, sizeof(*ctx));
  ctx->tag = VXP_TAG_CONTEXT;
  ctx->alloc = *alloc;
  ctx->language = language;
  if (vxp_symbols__load(language, &ctx->syms, &ctx->fields) != NULL) {
    alloc->free(ctx, alloc->ud);
    return VXP_EVERSION;
  }
  /* tree-sitter allocates the parser with its own (global, aborting) allocator. */
  ctx->parser = ts_parser_new();
  if (!ctx->parser || !ts_parser_set_language(ctx->parser, language)) {
    if (ctx->parser) ts_parser_delete(ctx->parser);
    alloc->free(ctx, alloc->ud);
    return VXP_EVERSION;
  }
  *out = ctx;
  return VXP_OK;
}

void vxp_context_free(vxp_context *ctx) {
  VXP__TAG(ctx, VXP_TAG_CONTEXT, );

  if (!ctx) return;
  ts_parser_delete(ctx->parser);
  ctx->tag = VXP_TAG_FREED; /* a second free, or a later use, is refused while it is mapped */
  ctx->alloc.free(ctx, ctx->alloc.ud);
}

const char *vxp_context_errmsg(const vxp_context *ctx) {
  VXP__TAG(ctx, VXP_TAG_CONTEXT, vxp_strerror(VXP_EMISUSE));
  return ctx ? ctx->errmsg : "";
}

int vxp_context_errcode(const vxp_context *ctx) {
  VXP__TAG_RC(NULL, ctx, VXP_TAG_CONTEXT);
  return ctx ? ctx->errcode : VXP_EINVAL;
}

void *vxp_ctx__malloc(vxp_context *ctx, size_t size) {
  return ctx->alloc.malloc(size ? size : 1, ctx->alloc.ud);
}

void *vxp_ctx__calloc(vxp_context *ctx, size_t count, size_t size) {
  size_t total;
  if (__builtin_mul_overflow(count, size, &total)) return NULL;
  void *p = vxp_ctx__malloc(ctx, total);
  if (p) memset(p, 0, total);
  return p;
}

void *vxp_ctx__realloc(vxp_context *ctx, void *ptr, size_t size) {
  return ctx->alloc.realloc(ptr, size ? size : 1, ctx->alloc.ud);
}

void vxp_ctx__free(vxp_context *ctx, void *ptr) {
  if (ptr) ctx->alloc.free(ptr, ctx->alloc.ud);
}

char *vxp_ctx__strndup(vxp_context *ctx, const char *s, size_t len) {
  char *copy = vxp_ctx__malloc(ctx, len + 1);
  if (!copy) return NULL;
  if (len) memcpy(copy, s, len);
  copy[len] = '\0';
  return copy;
}

char *vxp_ctx__strdup(vxp_context *ctx, const char *s) {
  return vxp_ctx__strndup(ctx, s, strlen(s));
}

int vxp_ctx__error(vxp_context *ctx, int code, const char *fmt, ...) {
  if (!ctx) return code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->errmsg, sizeof(ctx->errmsg), fmt, ap);
  va_end(ap);
  ctx->errcode = code;
  return code;
}

int vxp_ctx__nomem(vxp_context *ctx) { return vxp_ctx__error(ctx, VXP_ENOMEM, "out of memory"); }

void vxp_ctx__begin_read(vxp_context *ctx) {
  if (ctx && ctx->errcode != VXP_OK) vxp_ctx__clear_error(ctx);
}

void vxp_ctx__clear_error(vxp_context *ctx) {
  if (!ctx) return;
  ctx->errcode = VXP_OK;
  ctx->errmsg[0] = '\0';
}

/* ------------------------------------------------------------------ cancellation */

static uint64_t monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void vxp_context_set_cancel_flag(vxp_context *ctx, const size_t *flag) {
  VXP__TAG(ctx, VXP_TAG_CONTEXT, );

  if (ctx) ctx->cancel_flag = flag;
}

void vxp_context_set_time_budget(vxp_context *ctx, uint64_t microseconds) {
  VXP__TAG(ctx, VXP_TAG_CONTEXT, );

  if (ctx) ctx->budget_us = microseconds;
}

void vxp_ctx__begin(vxp_context *ctx) {
  if (!ctx) return;
  vxp_ctx__clear_error(ctx);
  if (ctx->hold_deadline) return;
  ctx->timed_out = false;
  ctx->polls = 0;
  /* A budget too large to add is no budget. */
  uint64_t now = monotonic_ns(), span;
  ctx->deadline_ns = 0;
  if (ctx->budget_us && vxp_mul_u64(ctx->budget_us, 1000, &span) &&
      !vxp_add_u64(now, span, &ctx->deadline_ns))
    ctx->deadline_ns = 0;
}

bool vxp_ctx__interrupted(vxp_context *ctx) {
  if (ctx->cancel_flag && __atomic_load_n(ctx->cancel_flag, __ATOMIC_RELAXED)) return true;
  if (!ctx->deadline_ns) return false;
  if (ctx->timed_out) return true;
  /* The clock is read at every one of a call's first 64 polls, then at every 64th: a long
   * walk pays for few reads, and a short stage (a roofline of one function polls a handful
   * of times) still sees a deadline that passes while it runs. */
  uint64_t poll = ctx->polls++;
  if (poll >= 64 && (poll & 63) != 0) return false;
  ctx->timed_out = monotonic_ns() >= ctx->deadline_ns;
  return ctx->timed_out;
}

uint64_t vxp_ctx__arm_parser(vxp_context *ctx) {
  ts_parser_set_cancellation_flag(ctx->parser, ctx->cancel_flag);
  uint64_t left = 0;
  if (ctx->deadline_ns) {
    uint64_t now = monotonic_ns();
    left = now < ctx->deadline_ns ? (ctx->deadline_ns - now) / 1000 : 0;
    if (left == 0) left = 1;
  }
  ts_parser_set_timeout_micros(ctx->parser, left);
  return left;
}

int vxp_ctx__cancelled(vxp_context *ctx) {
  if (ctx->cancel_flag && __atomic_load_n(ctx->cancel_flag, __ATOMIC_RELAXED))
    return vxp_ctx__error(ctx, VXP_ECANCELLED, "cancelled: the cancellation flag was raised");
  return vxp_ctx__error(ctx, VXP_ECANCELLED,
                        "cancelled: the call's time budget of %llu microseconds ran out",
                        (unsigned long long)ctx->budget_us);
}

/* ------------------------------------------------------------------ handle tags */

/* Here and not in tag.h's own file: the message goes on the context, which the tags sit
 * below (tag.h is included by internal.h, under everything). */
static const char *tag_kind(uint32_t tag) {
  switch (tag) {
  case VXP_TAG_CONTEXT: return "vxp_context";
  case VXP_TAG_SOURCE: return "vxp_source";
  case VXP_TAG_PROGRAM: return "vxp_program";
  case VXP_TAG_MACHINE: return "vxp_machine";
  case VXP_TAG_ANALYSIS: return "vxp_analysis";
  case VXP_TAG_SWEEP: return "vxp_sweep";
  case VXP_TAG_ROOFLINE: return "vxp_roofline";
  case VXP_TAG_FRONTIER: return "vxp_frontier";
  case VXP_TAG_REPORT: return "vxp_report";
  case VXP_TAG_CUDA: return "vxp_cuda";
  case VXP_TAG_FORMULA: return "vxp_formula";
  default: return "handle";
  }
}

int vxp_tag__misuse(vxp_context *ctx, uint32_t tag) {
  /* The context itself may be the bad handle: write to it only when it is a live one. */
  if (!ctx || ctx->tag != VXP_TAG_CONTEXT) return VXP_EMISUSE;
  return vxp_ctx__error(ctx, VXP_EMISUSE,
                        "misuse: the argument passed as a %s is not one (a handle of another "
                        "kind, or one already freed)",
                        tag_kind(tag));
}
