/* SPDX-License-Identifier: Apache-2.0 */
/* sarif.c - the analysis' diagnostics as a SARIF 2.1.0 log, for code scanning: one rule
 * per code with its meaning and remedy (codes.def), one result per diagnostic with its
 * region (UTF-16 columns, byte offsets, the source line), its notes as related locations
 * and lines of the message, and a fingerprint that survives edits elsewhere in the file. */
#include <stdio.h>
#include <stdlib.h>

#include "analysis_data.h"
#include "codes.h"
#include "context.h"
#include "jsontext.h"
#include "program.h"
#include "report.h"
#include "source.h"

#define VXP__SARIF_SCHEMA                                                                          \
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

/* ------------------------------------------------------------------ the writer */

/* The log is written straight into a vxp_sb in the layout SARIF viewers and our goldens have
 * always had (the one jansson's JSON_INDENT(2) | JSON_ENSURE_ASCII dump gives): two-space
 * indentation, one member or element per line, "{}" and "[]" when empty, and every character
 * outside ASCII escaped as \uXXXX. Streaming it costs a fraction of building a DOM of the
 * whole rule catalogue for every log (test_sarif checks the layout against jansson's). */
#define SARIF_DEPTH 12 /* the log's structure is fixed and 9 levels deep */

typedef struct sarif_w {
  vxp_context *ctx;
  vxp_sb sb;
  int depth;
  bool has_items[SARIF_DEPTH];
  bool after_key;
} sarif_w;

static void newline_indent(sarif_w *w, int depth) {
  static const char lines[] = "\n                        "; /* a newline, 2 * SARIF_DEPTH spaces */
  vxp_sb__append(w->ctx, &w->sb, lines, 1 + 2 * (size_t)depth);
}

/* Before a member or an element: a comma after the previous one, then its own line. */
static void item_start(sarif_w *w) {
  if (w->after_key) {
    w->after_key = false;
    return;
  }
  if (w->has_items[w->depth]) vxp_sb__putc(w->ctx, &w->sb, ',');
  w->has_items[w->depth] = true;
  newline_indent(w, w->depth);
}

static void w_open(sarif_w *w, char bracket) {
  item_start(w);
  vxp_sb__putc(w->ctx, &w->sb, bracket);
  w->depth++;
  VXP__ASSERT(w->depth < SARIF_DEPTH);
  w->has_items[w->depth] = false;
}

static void w_close(sarif_w *w, char bracket) {
  bool had_items = w->has_items[w->depth];
  w->depth--;
  if (had_items) newline_indent(w, w->depth);
  vxp_sb__putc(w->ctx, &w->sb, bracket);
}

/* `len` bytes of text, and a NUL-terminated string, as JSON strings in ASCII (jsontext.h). */
static void put_text(sarif_w *w, const char *text, size_t len) {
  vxp_json__put_ascii(w->ctx, &w->sb, text, len);
}

static void put_string(sarif_w *w, const char *s) { vxp_json__put_ascii_string(w->ctx, &w->sb, s); }

/* `key` is one of this file's own names: ASCII with nothing to escape. */
static void w_key(sarif_w *w, const char *key) {
  item_start(w);
  vxp_sb__putc(w->ctx, &w->sb, '"');
  vxp_sb__puts(w->ctx, &w->sb, key);
  vxp_sb__append(w->ctx, &w->sb, "\": ", 3);
  w->after_key = true;
}

static void w_string(sarif_w *w, const char *s) {
  item_start(w);
  put_string(w, s ? s : "");
}

static void w_int(sarif_w *w, long long v) {
  item_start(w);
  vxp_sb__printf(w->ctx, &w->sb, "%lld", v);
}

static void member_string(sarif_w *w, const char *key, const char *s) {
  w_key(w, key);
  w_string(w, s);
}

static void member_int(sarif_w *w, const char *key, long long v) {
  w_key(w, key);
  w_int(w, v);
}

/* {"text": ...}, the form of every SARIF message and description. */
static void member_text(sarif_w *w, const char *key, const char *text, size_t len) {
  w_key(w, key);
  w_open(w, '{');
  w_key(w, "text");
  item_start(w);
  put_text(w, text, len);
  w_close(w, '}');
}

/* The same for a NUL-terminated text (NULL is empty). */
static void member_ctext(sarif_w *w, const char *key, const char *text) {
  w_key(w, key);
  w_open(w, '{');
  w_key(w, "text");
  w_string(w, text);
  w_close(w, '}');
}

/* ------------------------------------------------------------------ artifacts */

/* A source label as a URI reference: relative paths stay relative (to the directory the
 * command ran in); absolute paths become file:// URIs; bytes outside the unreserved set
 * are percent-encoded. */
static void member_uri(sarif_w *w, const char *label) {
  vxp_sb uri = {0};
  if (label[0] == '/') vxp_sb__puts(w->ctx, &uri, "file://");
  for (const unsigned char *p = (const unsigned char *)label; *p; p++) {
    bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                 strchr("-._~/", *p) != NULL;
    if (plain)
      vxp_sb__putc(w->ctx, &uri, (char)*p);
    else
      vxp_sb__printf(w->ctx, &uri, "%%%02X", *p);
  }
  if (uri.failed) w->sb.failed = true;
  member_string(w, "uri", vxp_sb__text(&uri));
  vxp_sb__free(w->ctx, &uri);
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

static const char *level_of(vxp_severity s) {
  return s == VXP_SEVERITY_ERROR ? "error" : s == VXP_SEVERITY_WARNING ? "warning" : "note";
}

/* A region of `r` with its flagged text as `snippet`, or, with `context`, the whole first
 * line (a contextRegion). */
static void member_region(sarif_w *w, const vxp_source *src, vxp_range r, bool context) {
  w_key(w, context ? "contextRegion" : "region");
  w_open(w, '{');
  size_t len;
  const char *line = vxp_source_line(src, r.start.line, &len);
  member_int(w, "startLine", (long long)r.start.line + 1);
  if (context) {
    if (line) member_text(w, "snippet", line, len);
    w_close(w, '}');
    return;
  }
  member_int(w, "startColumn", (long long)vxp_source_utf16_column(src, r.start) + 1);
  member_int(w, "endLine", (long long)r.end.line + 1);
  member_int(w, "endColumn", (long long)vxp_source_utf16_column(src, r.end) + 1);
  member_int(w, "byteOffset", (long long)r.start_byte);
  member_int(w, "byteLength", (long long)r.end_byte - (long long)r.start_byte);
  uint32_t end = r.end_byte <= src->len ? r.end_byte : (uint32_t)src->len;
  if (r.start_byte < end) member_text(w, "snippet", src->text + r.start_byte, end - r.start_byte);
  w_close(w, '}');
}

static void member_physical(sarif_w *w, const artifacts *arts, const vxp_source *src, vxp_range r) {
  w_key(w, "physicalLocation");
  w_open(w, '{');
  w_key(w, "artifactLocation");
  w_open(w, '{');
  member_uri(w, src->label);
  for (size_t i = 0; i < arts->len; i++) {
    if (arts->items[i] == src) member_int(w, "index", (long long)i);
  }
  w_close(w, '}');
  member_region(w, src, r, false);
  member_region(w, src, r, true);
  w_close(w, '}');
}

static void write_result(sarif_w *w, const vxp_diagnostic *d, int rule_index, const artifacts *arts,
                         uint64_t fingerprint) {
  w_open(w, '{');
  const char *code = vxp_diagnostic_code(d);
  if (code) member_string(w, "ruleId", code);
  if (rule_index >= 0) member_int(w, "ruleIndex", rule_index);
  member_string(w, "level", level_of(vxp_diagnostic_severity(d)));
  /* The message carries the notes as lines, so that a viewer showing only the message
   * still shows what is live and what to do; located notes are related locations too. */
  vxp_sb text = {0};
  vxp_sb__puts(w->ctx, &text, vxp_diagnostic_message(d));
  size_t located = 0;
  for (size_t i = 0; i < vxp_diagnostic_note_count(d); i++) {
    const vxp_diagnostic *n = vxp_diagnostic_note(d, i);
    vxp_sb__printf(w->ctx, &text, "\n%s: %s", vxp_diagnostic_is_help(n) ? "help" : "note",
                   vxp_diagnostic_message(n));
    located += vxp_diagnostic_has_range(n);
  }
  if (text.failed) w->sb.failed = true;
  member_text(w, "message", text.data ? text.data : "", text.len);
  vxp_sb__free(w->ctx, &text);
  if (vxp_diagnostic_has_range(d)) {
    w_key(w, "locations");
    w_open(w, '[');
    w_open(w, '{');
    member_physical(w, arts, vxp_diagnostic_source(d), vxp_diagnostic_range(d));
    w_close(w, '}');
    w_close(w, ']');
  }
  if (located > 0) {
    w_key(w, "relatedLocations");
    w_open(w, '[');
    for (size_t i = 0; i < vxp_diagnostic_note_count(d); i++) {
      const vxp_diagnostic *n = vxp_diagnostic_note(d, i);
      if (!vxp_diagnostic_has_range(n)) continue;
      w_open(w, '{');
      member_int(w, "id", (long long)i);
      member_physical(w, arts, vxp_diagnostic_source(n), vxp_diagnostic_range(n));
      vxp_sb label = {0};
      vxp_sb__printf(w->ctx, &label, "%s: %s", vxp_diagnostic_is_help(n) ? "help" : "note",
                     vxp_diagnostic_message(n));
      if (label.failed) w->sb.failed = true;
      member_text(w, "message", label.data ? label.data : "", label.len);
      vxp_sb__free(w->ctx, &label);
      w_close(w, '}');
    }
    w_close(w, ']');
  }
  char hex[24];
  snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)fingerprint);
  w_key(w, "partialFingerprints");
  w_open(w, '{');
  member_string(w, "vxpeakDiagnostic/v1", hex);
  w_close(w, '}');
  w_close(w, '}');
}

/* ------------------------------------------------------------------ rules and the log */

static void write_rule(sarif_w *w, const vxp_code_info *c) {
  w_open(w, '{');
  member_string(w, "id", c->code);
  member_string(w, "name", c->name);
  member_ctext(w, "shortDescription", c->summary);
  member_ctext(w, "fullDescription", c->detail);
  member_ctext(w, "help", c->help);
  w_key(w, "defaultConfiguration");
  w_open(w, '{');
  member_string(w, "level", level_of(c->severity));
  w_close(w, '}');
  w_close(w, '}');
}

/* Each rule of the catalogue as write_rule writes it at the rules' depth, made once by the
 * preprocessor from codes.def rather than a member at a time per log (about 35 KB, which
 * was a quarter of a log's cost under a fuzzer's instrumentation). The texts need no escape
 * (codes.def says why); test_sarif checks the layout against jansson's and every rule
 * against the table. */
/* clang-format off */
#define SARIF_RULES_DEPTH 6 /* the rules' array: { "runs": [ { "tool": { "driver": { "rules": [ */
#define VXP__SARIF_LEVEL_E "error"
#define VXP__SARIF_LEVEL_W "warning"
#define VXP__SARIF_TEXT(key, text)                                                                 \
  "\n              \"" key "\": {"                                                                 \
  "\n                \"text\": \"" text "\""                                                       \
  "\n              },"
#define VXP__CODE(code, name, summary, detail, help, severity)                                     \
  ",\n            {"                                                                               \
  "\n              \"id\": \"" code "\","                                                          \
  "\n              \"name\": \"" name "\","                                                        \
  VXP__SARIF_TEXT("shortDescription", summary)                                                     \
  VXP__SARIF_TEXT("fullDescription", detail)                                                       \
  VXP__SARIF_TEXT("help", help)                                                                    \
  "\n              \"defaultConfiguration\": {"                                                    \
  "\n                \"level\": \"" VXP__SARIF_LEVEL_##severity "\""                               \
  "\n              }"                                                                              \
  "\n            }"
/* clang-format on */

/* The rules, each after a comma: the text to copy starts after the first comma. */
static const char catalogue_rules[] =
#include "codes.def"
    ;
#undef VXP__CODE

/* What the log needs before its results are written: each diagnostic's rule (catalogue
 * codes first, then one rule per code outside the catalogue, in order of first use), the
 * fingerprint (which occurrence of its flagged text it is) and the artifacts in order of
 * first sight. */
typedef struct plan {
  int *rule_index;
  uint64_t *fingerprint;
  const vxp_diagnostic **extra; /* the first diagnostic of each code outside the catalogue */
  size_t extra_len;
  artifacts arts;
} plan;

typedef struct hashed {
  uint64_t hash;
  size_t index;
} hashed;

static int by_hash_then_index(const void *a, const void *b) {
  const hashed *x = a, *y = b;
  if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static bool make_plan(vxp_context *ctx, const vxp_analysis *an, size_t n, plan *pl) {
  size_t ncodes;
  const vxp_code_info *codes = vxp_codes__all(&ncodes);
  pl->rule_index = vxp_ctx__calloc(ctx, n ? n : 1, sizeof(int));
  pl->fingerprint = vxp_ctx__calloc(ctx, n ? n : 1, sizeof(uint64_t));
  pl->extra = vxp_ctx__calloc(ctx, n ? n : 1, sizeof(*pl->extra));
  hashed *order = vxp_ctx__calloc(ctx, n ? n : 1, sizeof(hashed));
  if (!pl->rule_index || !pl->fingerprint || !pl->extra || !order) {
    vxp_ctx__free(ctx, order);
    return false;
  }
  artifact_index(&pl->arts, an->prog->src);
  for (size_t i = 0; i < n; i++) {
    const vxp_diagnostic *d = vxp_analysis_diagnostic(an, i);
    const char *code = vxp_diagnostic_code(d);
    int index = -1;
    const vxp_code_info *known = vxp_codes__find(code);
    if (known) index = (int)(known - codes);
    for (size_t k = 0; code && index < 0 && k < pl->extra_len; k++) {
      if (strcmp(vxp_diagnostic_code(pl->extra[k]), code) == 0) index = (int)(ncodes + k);
    }
    if (code && index < 0) {
      pl->extra[pl->extra_len] = d;
      index = (int)(ncodes + pl->extra_len++);
    }
    pl->rule_index[i] = index;
    /* Artifacts in the order the results name them: related locations, then the result's. */
    for (size_t k = 0; k < vxp_diagnostic_note_count(d); k++) {
      const vxp_diagnostic *note = vxp_diagnostic_note(d, k);
      if (vxp_diagnostic_has_range(note)) artifact_index(&pl->arts, vxp_diagnostic_source(note));
    }
    if (vxp_diagnostic_has_range(d)) artifact_index(&pl->arts, vxp_diagnostic_source(d));
    order[i] = (hashed){flagged_hash(d), i};
  }
  /* Which occurrence of its hash each diagnostic is, in program order: sorted by hash,
   * then index, the occurrences of one hash are a run (n log n, where counting the earlier
   * ones for each was n squared). */
  if (n > 1) qsort(order, n, sizeof(hashed), by_hash_then_index);
  uint64_t occurrence = 0;
  for (size_t i = 0; i < n; i++) {
    occurrence = i > 0 && order[i].hash == order[i - 1].hash ? occurrence + 1 : 0;
    pl->fingerprint[order[i].index] = fnv(order[i].hash, &occurrence, sizeof(occurrence));
  }
  vxp_ctx__free(ctx, order);
  return true;
}

static void free_plan(vxp_context *ctx, plan *pl) {
  vxp_ctx__free(ctx, pl->rule_index);
  vxp_ctx__free(ctx, pl->fingerprint);
  vxp_ctx__free(ctx, pl->extra);
}

char *vxp_sarif__render(const vxp_analysis *an, size_t *len) {
  vxp_context *ctx = an->ctx;
  size_t n = vxp_analysis_diagnostic_count(an);
  plan pl;
  memset(&pl, 0, sizeof(pl));
  if (!make_plan(ctx, an, n, &pl)) {
    free_plan(ctx, &pl);
    return NULL;
  }
  sarif_w w;
  memset(&w, 0, sizeof(w));
  w.ctx = ctx;
  /* The top-level object opens on the first line. */
  vxp_sb__putc(ctx, &w.sb, '{');
  w.depth = 1;
  member_string(&w, "$schema", VXP__SARIF_SCHEMA);
  member_string(&w, "version", "2.1.0");
  w_key(&w, "runs");
  w_open(&w, '[');
  w_open(&w, '{');
  w_key(&w, "tool");
  w_open(&w, '{');
  w_key(&w, "driver");
  w_open(&w, '{');
  member_string(&w, "name", "vxpeak");
  member_string(&w, "version", VXP_VERSION_STRING);
  member_string(&w, "semanticVersion", VXP_VERSION_STRING);
  /* Every code of the catalogue is a rule, so a rule's index never depends on what one
   * run happened to report; a code outside the catalogue gets a rule of its own. */
  w_key(&w, "rules");
  w_open(&w, '[');
  VXP__ASSERT(w.depth == SARIF_RULES_DEPTH && !w.has_items[w.depth]);
  vxp_sb__append(ctx, &w.sb, catalogue_rules + 1, sizeof(catalogue_rules) - 2);
  w.has_items[w.depth] = true;
  for (size_t k = 0; k < pl.extra_len; k++) {
    const vxp_diagnostic *d = pl.extra[k];
    vxp_code_info extra = {vxp_diagnostic_code(d), "VxpeakDiagnostic",
                           "A vxpeak diagnostic.", "A diagnostic vxpeak reports.",
                           "Read the message.",    vxp_diagnostic_severity(d)};
    write_rule(&w, &extra);
  }
  w_close(&w, ']');
  w_close(&w, '}');
  w_close(&w, '}');
  w_key(&w, "artifacts");
  w_open(&w, '[');
  for (size_t i = 0; i < pl.arts.len; i++) {
    w_open(&w, '{');
    w_key(&w, "location");
    w_open(&w, '{');
    member_uri(&w, pl.arts.items[i]->label);
    w_close(&w, '}');
    w_close(&w, '}');
  }
  w_close(&w, ']');
  member_string(&w, "columnKind", "utf16CodeUnits");
  w_key(&w, "results");
  w_open(&w, '[');
  bool interrupted = false;
  for (size_t i = 0; i < n && !w.sb.failed; i++) {
    if (vxp_ctx__interrupted(ctx)) { /* the caller reports the cancellation */
      interrupted = true;
      break;
    }
    write_result(&w, vxp_analysis_diagnostic(an, i), pl.rule_index[i], &pl.arts, pl.fingerprint[i]);
  }
  w_close(&w, ']');
  w_close(&w, '}');
  w_close(&w, ']');
  w_close(&w, '}');
  vxp_sb__putc(ctx, &w.sb, '\n');
  free_plan(ctx, &pl);
  if (interrupted) {
    vxp_sb__free(ctx, &w.sb);
    return NULL;
  }
  return vxp_sb__detach(ctx, &w.sb, len);
}

const char *vxp_analysis_sarif(vxp_analysis *an, size_t *len) {
  VXP__TAG(an, VXP_TAG_ANALYSIS, NULL);

  /* Each call reports its own outcome; a cached log is only read (see vxp_analysis_json). */
  if (an && an->sarif)
    vxp_ctx__begin_read(an->ctx);
  else
    vxp_ctx__begin(an ? an->ctx : NULL);
  if (!an) return NULL;
  if (!an->sarif) {
    an->sarif = vxp_ctx__interrupted(an->ctx) ? NULL : vxp_sarif__render(an, &an->sarif_len);
    if (!an->sarif) {
      if (vxp_ctx__interrupted(an->ctx))
        vxp_ctx__cancelled(an->ctx);
      else
        vxp_ctx__nomem(an->ctx);
      return NULL;
    }
  }
  if (len) *len = an->sarif_len;
  return an->sarif;
}
