/* SPDX-License-Identifier: Apache-2.0 */
/* context.c - creating and freeing contexts, allocation through them, error reporting. */
#include "context.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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
  if (version != VXP_CONTEXT_OPTIONS_VERSION) return VXP_EVERSION;
  memset(opts, 0, sizeof(*opts));
  opts->version = version;
  return VXP_OK;
}

int vxp_context_new(vxp_context **out, const vxp_context_options *opts) {
  if (!out) return VXP_EINVAL;
  if (opts && opts->version != VXP_CONTEXT_OPTIONS_VERSION) return VXP_EVERSION;
  const vxp_allocator *alloc = (opts && opts->allocator) ? opts->allocator : &libc_allocator;
  if (!alloc->malloc || !alloc->realloc || !alloc->free) return VXP_EINVAL;

  const TSLanguage *language = tree_sitter_vx();
  uint32_t abi = ts_language_version(language);
  if (abi < TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION || abi > TREE_SITTER_LANGUAGE_VERSION)
    return VXP_EVERSION;

  vxp_context *ctx = alloc->malloc(sizeof(*ctx), alloc->ud);
  if (!ctx) return VXP_ENOMEM;
  memset(ctx, 0, sizeof(*ctx));
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
  if (!ctx) return;
  ts_parser_delete(ctx->parser);
  ctx->alloc.free(ctx, ctx->alloc.ud);
}

const char *vxp_context_errmsg(const vxp_context *ctx) { return ctx ? ctx->errmsg : ""; }

int vxp_context_errcode(const vxp_context *ctx) { return ctx ? ctx->errcode : VXP_EINVAL; }

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

void vxp_ctx__clear_error(vxp_context *ctx) {
  if (!ctx) return;
  ctx->errcode = VXP_OK;
  ctx->errmsg[0] = '\0';
}
