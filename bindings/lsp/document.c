/* SPDX-License-Identifier: Apache-2.0 */
/* document.c - the open documents: their text as a chain of vxp_source versions (one per
 * change, so that the next reparse reuses the previous syntax tree), and the program and
 * analysis of the last text analysed. Changes only edit the text; analysis waits for the
 * server's idle moment or for a request that needs it. */
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

lsp_document *lsp_document_find(lsp_server *s, const char *uri) {
  if (!uri) return NULL;
  for (size_t i = 0; i < s->doc_count; i++)
    if (strcmp(s->docs[i].uri, uri) == 0) return &s->docs[i];
  return NULL;
}

void lsp_document_free(lsp_document *d) {
  lsp_index_free(d->index);
  vxp_analysis_free(d->an);
  vxp_program_free(d->prog);
  if (d->parsed_src != d->src) vxp_source_free(d->parsed_src);
  vxp_source_free(d->src);
  free(d->uri);
  memset(d, 0, sizeof(*d));
}

static int hex(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

/* The label diagnostics and suggested commands name the document by: the path of a
 * file: URI (percent-decoded), otherwise the URI itself. Allocated; NULL when out of
 * memory. */
static char *label_of(const char *uri) {
  const char *p = strncmp(uri, "file://", 7) == 0 ? uri + 7 : uri;
  size_t n = strlen(p);
  char *out = malloc(n + 1), *o = out;
  if (!out) return NULL;
  for (size_t i = 0; i < n; i++) {
    if (p != uri && p[i] == '%' && i + 2 < n + 1 && hex(p[i + 1]) >= 0 && hex(p[i + 2]) >= 0) {
      char c = (char)(hex(p[i + 1]) * 16 + hex(p[i + 2]));
      *o++ = c ? c : '?';
      i += 2;
    } else {
      *o++ = p[i];
    }
  }
  *o = '\0';
  return out;
}

bool lsp_document_open(lsp_server *s, const char *uri, int64_t version, const char *text,
                       size_t len) {
  vxp_source *src;
  char *label = label_of(uri);
  if (!label) return false;
  int rc = vxp_source_new(&src, s->ctx, label, text, len);
  free(label);
  if (rc != VXP_OK) return false;
  lsp_document *d = lsp_document_find(s, uri);
  if (d) {
    lsp_document_free(d);
  } else {
    if (s->doc_count == s->doc_cap) {
      size_t cap = s->doc_cap ? s->doc_cap * 2 : 8;
      lsp_document *docs = realloc(s->docs, cap * sizeof(*docs));
      if (!docs) {
        vxp_source_free(src);
        return false;
      }
      s->docs = docs;
      s->doc_cap = cap;
    }
    d = &s->docs[s->doc_count++];
  }
  memset(d, 0, sizeof(*d));
  size_t n = strlen(uri) + 1;
  d->uri = malloc(n);
  if (!d->uri) {
    vxp_source_free(src);
    s->doc_count--;
    return false;
  }
  memcpy(d->uri, uri, n);
  d->version = version;
  d->src = src;
  d->dirty = true;
  return true;
}

void lsp_document_close(lsp_server *s, const char *uri) {
  lsp_document *d = lsp_document_find(s, uri);
  if (!d) return;
  lsp_document_free(d);
  *d = s->docs[--s->doc_count];
}

bool lsp_document_change(lsp_server *s, lsp_document *d, json_t *change, const char **why) {
  json_t *text = json_object_get(change, "text");
  if (!json_is_string(text)) {
    *why = "a content change without a text string";
    return false;
  }
  json_t *range = json_object_get(change, "range");
  vxp_source *next;
  if (!range || json_is_null(range)) { /* the whole text */
    if (vxp_source_new(&next, s->ctx, vxp_source_label(d->src), json_string_value(text),
                       json_string_length(text)) != VXP_OK) {
      *why = "out of memory";
      return false;
    }
  } else {
    uint32_t start, end;
    if (!json_is_object(range) ||
        !lsp_position_to_byte(d->src, json_object_get(range, "start"), &start) ||
        !lsp_position_to_byte(d->src, json_object_get(range, "end"), &end)) {
      *why = "a content change whose range is not two positions";
      return false;
    }
    if (end < start) {
      *why = "a content change whose range ends before it starts";
      return false;
    }
    if (vxp_source_edit(&next, d->src, start, end, json_string_value(text),
                        json_string_length(text)) != VXP_OK) {
      *why = vxp_context_errmsg(s->ctx);
      return false;
    }
  }
  /* The version the program was parsed from stays until the reparse; intermediate
   * versions are not needed (each edit remembers its history). */
  if (d->src != d->parsed_src) vxp_source_free(d->src);
  d->src = next;
  d->dirty = true;
  return true;
}

bool lsp_document_analyse(lsp_server *s, lsp_document *d) {
  if (!d->dirty && d->an) return true;
  vxp_program *prog = NULL;
  /* Parsed for editing: the first edit after the open is then reparsed from the window
   * around it, as every later one is. */
  int rc = d->prog ? vxp_program_reparse(&prog, s->ctx, d->prog, d->src)
                   : vxp_program_parse_flags(&prog, s->ctx, d->src, VXP_PROGRAM_FOR_EDITING);
  /* A cancelled call is no failure to show: the server answers for it. */
  if (rc == VXP_ECANCELLED) return false;
  if (rc != VXP_OK) {
    lsp_show_message(s, 1, "vxpeak: cannot parse %s: %s", d->uri, vxp_context_errmsg(s->ctx));
    return false;
  }
  const vxp_machine *machine, *host;
  lsp_machines_for(s, prog, &machine, &host);
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = machine;
  opts.host = host;
  opts.overrides = s->config.define_count ? s->config.defines : NULL;
  opts.override_count = s->config.define_count;
  vxp_analysis *an = NULL;
  /* The previous version's analysis lends what the edit did not touch. */
  if ((rc = vxp_analyze_incremental(&an, s->ctx, prog, d->an, &opts)) != VXP_OK) {
    if (rc != VXP_ECANCELLED)
      lsp_show_message(s, 1, "vxpeak: cannot analyse %s: %s", d->uri, vxp_context_errmsg(s->ctx));
    vxp_program_free(prog);
    return false;
  }
  lsp_index_free(d->index);
  d->index = NULL;
  vxp_analysis_free(d->an);
  vxp_program_free(d->prog);
  if (d->parsed_src && d->parsed_src != d->src) vxp_source_free(d->parsed_src);
  d->prog = prog;
  d->an = an;
  d->parsed_src = d->src;
  d->dirty = false;
  return true;
}

void lsp_documents_invalidate(lsp_server *s) {
  for (size_t i = 0; i < s->doc_count; i++) {
    lsp_index_free(s->docs[i].index);
    s->docs[i].index = NULL;
    vxp_analysis_free(s->docs[i].an);
    s->docs[i].an = NULL;
    s->docs[i].dirty = true;
  }
}
