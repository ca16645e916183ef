/* SPDX-License-Identifier: Apache-2.0 */
/* sarif.c - the analysis' diagnostics as a SARIF 2.1.0 log, for code scanning: one rule
 * per code with its meaning and remedy (codes.c), one result per diagnostic with its
 * region (UTF-16 columns, byte offsets, the source line), its notes as related locations
 * and lines of the message, and a fingerprint that survives edits elsewhere in the file. */
#include <jansson.h>
#include <stdio.h>

#include "analysis.h"
#include "codes.h"
#include "context.h"
#include "jsontext.h"
#include "program.h"
#include "report.h"
#include "source.h"

#define VXP__SARIF_SCHEMA \
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

typedef struct sarif_buf {
  vxp_context *ctx;
  char *data;
  size_t len, cap;
  bool failed;
} sarif_buf;

static int put_chunk(const char *chunk, size_t size, void *data) {
  sarif_buf *b = data;
  if (b->failed) return -1;
  if (b->len + size + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 8192;
    while (cap < b->len + size + 1) cap *= 2;
    char *grown = vxp_ctx__realloc(b->ctx, b->data, cap);
    if (!grown) {
      b->failed = true;
      return -1;
    }
    b->data = grown;
    b->cap = cap;
  }
  memcpy(b->data + b->len, chunk, size);
  b->len += size;
  b->data[b->len] = '\0';
  return 0;
}

/* Building a JSON tree: every setter reports failure through `ok`. */
static void set(json_t *obj, const char *key, json_t *value, bool *ok) {
  if (!value || json_object_set_new(obj, key, value) != 0) *ok = false;
}

static void push(json_t *arr, json_t *value, bool *ok) {
  if (!value || json_array_append_new(arr, value) != 0) *ok = false;
}

static json_t *text_object(const char *text) {
  json_t *o = json_object();
  if (o && json_object_set_new(o, "text", vxp_json__text(text ? text : "")) != 0) {
    json_decref(o);
    return NULL;
  }
  return o;
}

/* Length of the valid UTF-8 sequence at `p` (at most `n` bytes), or 0 when invalid. */
static size_t utf8_len(const unsigned char *p, size_t n) {
  if (p[0] < 0x80) return 1;
  size_t len = (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3 : (p[0] & 0xF8) == 0xF0 ? 4 : 0;
  if (len == 0 || len > n || (len == 2 && p[0] < 0xC2) || (len == 4 && p[0] > 0xF4)) return 0;
  for (size_t i = 1; i < len; i++)
    if ((p[i] & 0xC0) != 0x80) return 0;
  if (len == 3 && ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0))) return 0;
  if (len == 4 && ((p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] >= 0x90))) return 0;
  return len;
}

/* Source text as a JSON string: bytes that are not UTF-8 become U+FFFD, as a viewer would
 * show them (JSON strings cannot hold them). */
static json_t *source_text(vxp_context *ctx, const char *text, size_t len) {
  char *out = vxp_ctx__malloc(ctx, len * 3 + 1);
  if (!out) return NULL;
  size_t o = 0;
  for (size_t i = 0; i < len;) {
    size_t n = utf8_len((const unsigned char *)text + i, len - i);
    if (n == 0) {
      memcpy(out + o, "\xef\xbf\xbd", 3);
      o += 3;
      i++;
      continue;
    }
    memcpy(out + o, text + i, n);
    o += n;
    i += n;
  }
  json_t *str = json_stringn(out, o);
  vxp_ctx__free(ctx, out);
  if (!str) return NULL;
  json_t *obj = json_object();
  if (!obj || json_object_set_new(obj, "text", str) != 0) {
    json_decref(obj);
    return NULL;
  }
  return obj;
}

/* ------------------------------------------------------------------ artifacts */

/* A source label as a URI reference: relative paths stay relative (to the directory the
 * command ran in); absolute paths become file:// URIs; bytes outside the unreserved set
 * are percent-encoded. */
static json_t *uri_of(const char *label) {
  char out[4096];
  size_t o = 0;
  if (label[0] == '/') o = (size_t)snprintf(out, sizeof(out), "file://");
  for (const unsigned char *p = (const unsigned char *)label; *p && o + 4 < sizeof(out); p++) {
    bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                 strchr("-._~/", *p) != NULL;
    if (plain) out[o++] = (char)*p;
    else o += (size_t)snprintf(out + o, sizeof(out) - o, "%%%02X", *p);
  }
  out[o] = '\0';
  return vxp_json__text(out);
}

typedef struct artifacts {
  const vxp_source *items[32];
  size_t len;
} artifacts;

/* The artifact index of `src` (added on first sight), or -1 past 32 sources. */
static int artifact_index(artifacts *a, const vxp_source *src) {
  for (size_t i = 0; i < a->len; i++) {
    if (a->items[i] == src) return (int)i;
  }
  if (a->len == VXP__ARRAY_LEN(a->items)) return -1;
  a->items[a->len] = src;
  return (int)a->len++;
}

/* ------------------------------------------------------------------ fingerprints */

/* FNV-1a over the parts of a result that do not move when lines are added elsewhere: the
 * code, the file, the flagged text (whitespace runs collapsed) and which occurrence of
 * that triple it is. Line numbers and byte counts stay out. */
static uint64_t fnv(uint64_t h, const void *data, size_t len) {
  const unsigned char *p = data;
  for (size_t i = 0; i < len; i++) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

static uint64_t flagged_hash(const vxp_diagnostic *d) {
  uint64_t h = 14695981039346656037ull;
  const char *code = vxp_diagnostic_code(d);
  h = fnv(h, code ? code : "", strlen(code ? code : "") + 1);
  if (!vxp_diagnostic_has_range(d)) {
    const char *msg = vxp_diagnostic_message(d);
    return fnv(h, msg, strlen(msg));
  }
  const vxp_source *src = vxp_diagnostic_source(d);
  h = fnv(h, src->label, strlen(src->label) + 1);
  vxp_range r = vxp_diagnostic_range(d);
  bool space = false;
  for (uint32_t i = r.start_byte; i < r.end_byte && i < src->len; i++) {
    char c = src->text[i];
    bool ws = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (ws) {
      space = true;
      continue;
    }
    if (space) h = fnv(h, " ", 1);
    space = false;
    h = fnv(h, &c, 1);
  }
  return h;
}

/* ------------------------------------------------------------------ results */

/* A region object for `r` with its flagged text as `snippet`, or, with `context`, the
 * whole first line (a contextRegion). */
static json_t *region_of(vxp_context *ctx, const vxp_source *src, vxp_range r, bool context,
                         bool *ok) {
  json_t *region = json_object();
  if (!region) {
    *ok = false;
    return NULL;
  }
  size_t len;
  const char *line = vxp_source_line(src, r.start.line, &len);
  set(region, "startLine", json_integer(r.start.line + 1), ok);
  if (context) {
    if (line) set(region, "snippet", source_text(ctx, line, len), ok);
    return region;
  }
  set(region, "startColumn", json_integer(vxp_source_utf16_column(src, r.start) + 1), ok);
  set(region, "endLine", json_integer(r.end.line + 1), ok);
  set(region, "endColumn", json_integer(vxp_source_utf16_column(src, r.end) + 1), ok);
  set(region, "byteOffset", json_integer(r.start_byte), ok);
  set(region, "byteLength", json_integer(r.end_byte - r.start_byte), ok);
  uint32_t end = r.end_byte <= src->len ? r.end_byte : (uint32_t)src->len;
  if (r.start_byte < end)
    set(region, "snippet", source_text(ctx, src->text + r.start_byte, end - r.start_byte), ok);
  return region;
}

static json_t *physical(vxp_context *ctx, artifacts *arts, const vxp_source *src, vxp_range r,
                        bool *ok) {
  json_t *loc = json_object(), *art = json_object();
  if (!loc || !art) {
    json_decref(loc);
    json_decref(art);
    *ok = false;
    return NULL;
  }
  set(art, "uri", uri_of(src->label), ok);
  int index = artifact_index(arts, src);
  if (index >= 0) set(art, "index", json_integer(index), ok);
  set(loc, "artifactLocation", art, ok);
  set(loc, "region", region_of(ctx, src, r, false, ok), ok);
  set(loc, "contextRegion", region_of(ctx, src, r, true, ok), ok);
  return loc;
}

static const char *level_of(vxp_severity s) {
  return s == VXP_SEVERITY_ERROR ? "error" : s == VXP_SEVERITY_WARNING ? "warning" : "note";
}

static json_t *result_of(vxp_context *ctx, const vxp_diagnostic *d, int rule_index,
                         artifacts *arts, uint64_t fingerprint, bool *ok) {
  json_t *res = json_object();
  if (!res) {
    *ok = false;
    return NULL;
  }
  const char *code = vxp_diagnostic_code(d);
  if (code) set(res, "ruleId", vxp_json__text(code), ok);
  if (rule_index >= 0) set(res, "ruleIndex", json_integer(rule_index), ok);
  set(res, "level", vxp_json__text(level_of(vxp_diagnostic_severity(d))), ok);
  /* The message carries the notes as lines, so that a viewer showing only the message
   * still shows what is live and what to do; located notes are related locations too. */
  size_t total = strlen(vxp_diagnostic_message(d)) + 1;
  for (size_t i = 0; i < vxp_diagnostic_note_count(d); i++)
    total += strlen(vxp_diagnostic_message(vxp_diagnostic_note(d, i))) + 8;
  char *text = vxp_ctx__malloc(ctx, total);
  if (!text) {
    *ok = false;
    return res;
  }
  size_t o = (size_t)snprintf(text, total, "%s", vxp_diagnostic_message(d));
  json_t *related = json_array();
  if (!related) *ok = false;
  for (size_t i = 0; i < vxp_diagnostic_note_count(d); i++) {
    const vxp_diagnostic *n = vxp_diagnostic_note(d, i);
    const char *kind = vxp_diagnostic_is_help(n) ? "help" : "note";
    o += (size_t)snprintf(text + o, total - o, "\n%s: %s", kind, vxp_diagnostic_message(n));
    if (!related || !vxp_diagnostic_has_range(n)) continue;
    json_t *rel = json_object();
    if (!rel) {
      *ok = false;
      continue;
    }
    set(rel, "id", json_integer((json_int_t)i), ok);
    set(rel, "physicalLocation",
        physical(ctx, arts, vxp_diagnostic_source(n), vxp_diagnostic_range(n), ok), ok);
    char label[1200];
    snprintf(label, sizeof(label), "%s: %s", kind, vxp_diagnostic_message(n));
    set(rel, "message", source_text(ctx, label, strlen(label)), ok);
    push(related, rel, ok);
  }
  set(res, "message", source_text(ctx, text, strlen(text)), ok);
  vxp_ctx__free(ctx, text);
  if (vxp_diagnostic_has_range(d)) {
    json_t *locs = json_array();
    json_t *loc = json_object();
    if (!locs || !loc) {
      json_decref(locs);
      json_decref(loc);
      *ok = false;
    } else {
      set(loc, "physicalLocation",
          physical(ctx, arts, vxp_diagnostic_source(d), vxp_diagnostic_range(d), ok), ok);
      push(locs, loc, ok);
      set(res, "locations", locs, ok);
    }
  }
  if (related && json_array_size(related) > 0) set(res, "relatedLocations", related, ok);
  else json_decref(related);
  char hex[24];
  snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)fingerprint);
  json_t *fp = json_object();
  if (!fp) *ok = false;
  else {
    set(fp, "vxpeakDiagnostic/v1", vxp_json__text(hex), ok);
    set(res, "partialFingerprints", fp, ok);
  }
  return res;
}

/* ------------------------------------------------------------------ rules and the log */

static json_t *rule_of(const vxp_code_info *c, bool *ok) {
  json_t *rule = json_object(), *config = json_object();
  if (!rule || !config) {
    json_decref(rule);
    json_decref(config);
    *ok = false;
    return NULL;
  }
  set(rule, "id", vxp_json__text(c->code), ok);
  set(rule, "name", vxp_json__text(c->name), ok);
  set(rule, "shortDescription", text_object(c->summary), ok);
  set(rule, "fullDescription", text_object(c->detail), ok);
  set(rule, "help", text_object(c->help), ok);
  set(config, "level", vxp_json__text(level_of(c->severity)), ok);
  set(rule, "defaultConfiguration", config, ok);
  return rule;
}

static json_t *build(const vxp_analysis *an, bool *ok) {
  json_t *log = json_object(), *runs = json_array(), *run = json_object();
  json_t *tool = json_object(), *driver = json_object(), *rules = json_array();
  json_t *results = json_array();
  if (!log || !runs || !run || !tool || !driver || !rules || !results) {
    json_decref(log);
    json_decref(runs);
    json_decref(run);
    json_decref(tool);
    json_decref(driver);
    json_decref(rules);
    json_decref(results);
    *ok = false;
    return NULL;
  }
  set(log, "$schema", vxp_json__text(VXP__SARIF_SCHEMA), ok);
  set(log, "version", vxp_json__text("2.1.0"), ok);
  set(driver, "name", vxp_json__text("vxpeak"), ok);
  set(driver, "version", vxp_json__text(VXP_VERSION_STRING), ok);
  set(driver, "semanticVersion", vxp_json__text(VXP_VERSION_STRING), ok);
  /* Every code of the catalogue is a rule, so a rule's index never depends on what one
   * run happened to report; a code outside the catalogue gets a rule of its own. */
  size_t ncodes;
  const vxp_code_info *codes = vxp_codes__all(&ncodes);
  for (size_t i = 0; i < ncodes; i++) push(rules, rule_of(&codes[i], ok), ok);
  artifacts arts;
  memset(&arts, 0, sizeof(arts));
  artifact_index(&arts, an->prog->src);
  size_t n = vxp_analysis_diagnostic_count(an);
  uint64_t *seen = n ? vxp_ctx__calloc(an->ctx, n, sizeof(uint64_t)) : NULL;
  if (n && !seen) *ok = false;
  for (size_t i = 0; i < n && *ok; i++) {
    if (vxp_ctx__interrupted(an->ctx)) { /* the caller reports the cancellation */
      *ok = false;
      break;
    }
    const vxp_diagnostic *d = vxp_analysis_diagnostic(an, i);
    const char *code = vxp_diagnostic_code(d);
    int rule_index = -1;
    for (size_t k = 0; code && k < json_array_size(rules); k++) {
      const char *id = json_string_value(json_object_get(json_array_get(rules, k), "id"));
      if (id && strcmp(id, code) == 0) rule_index = (int)k;
    }
    if (code && rule_index < 0) {
      vxp_code_info extra = {code, "VxpeakDiagnostic", "A vxpeak diagnostic.",
                             "A diagnostic vxpeak reports.", "Read the message.",
                             vxp_diagnostic_severity(d)};
      push(rules, rule_of(&extra, ok), ok);
      rule_index = (int)json_array_size(rules) - 1;
    }
    uint64_t h = flagged_hash(d);
    seen[i] = h;
    uint64_t occurrence = 0;
    for (size_t k = 0; k < i; k++) occurrence += seen[k] == h;
    uint64_t fingerprint = fnv(h, &occurrence, sizeof(occurrence));
    push(results, result_of(an->ctx, d, rule_index, &arts, fingerprint, ok), ok);
  }
  vxp_ctx__free(an->ctx, seen);
  set(driver, "rules", rules, ok);
  set(tool, "driver", driver, ok);
  set(run, "tool", tool, ok);
  json_t *art_list = json_array();
  if (!art_list) *ok = false;
  for (size_t i = 0; art_list && i < arts.len; i++) {
    json_t *a = json_object(), *loc = json_object();
    if (!a || !loc) {
      json_decref(a);
      json_decref(loc);
      *ok = false;
      continue;
    }
    set(loc, "uri", uri_of(arts.items[i]->label), ok);
    set(a, "location", loc, ok);
    push(art_list, a, ok);
  }
  set(run, "artifacts", art_list, ok);
  set(run, "columnKind", vxp_json__text("utf16CodeUnits"), ok);
  set(run, "results", results, ok);
  push(runs, run, ok);
  set(log, "runs", runs, ok);
  return log;
}

char *vxp_sarif__render(const vxp_analysis *an, size_t *len) {
  bool ok = true;
  json_t *log = build(an, &ok);
  sarif_buf b = {an->ctx, NULL, 0, 0, false};
  if (ok && log &&
      json_dump_callback(log, put_chunk, &b, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                                JSON_ENSURE_ASCII) != 0)
    b.failed = true;
  json_decref(log);
  if (ok && !b.failed) put_chunk("\n", 1, &b);
  if (!ok || b.failed) {
    vxp_ctx__free(an->ctx, b.data);
    return NULL;
  }
  *len = b.len;
  return b.data;
}

const char *vxp_analysis_sarif(vxp_analysis *an, size_t *len) {
  /* Each call reports its own outcome; a cached log is only read (see vxp_analysis_json). */
  if (an && an->sarif) vxp_ctx__begin_read(an->ctx);
  else vxp_ctx__begin(an ? an->ctx : NULL);
  if (!an) return NULL;
  if (!an->sarif) {
    an->sarif = vxp_ctx__interrupted(an->ctx) ? NULL : vxp_sarif__render(an, &an->sarif_len);
    if (!an->sarif) {
      if (vxp_ctx__interrupted(an->ctx)) vxp_ctx__cancelled(an->ctx);
      else vxp_ctx__nomem(an->ctx);
      return NULL;
    }
  }
  if (len) *len = an->sarif_len;
  return an->sarif;
}
