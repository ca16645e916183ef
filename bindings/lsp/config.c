/* SPDX-License-Identifier: Apache-2.0 */
/* config.c - which machine a document is checked against. The client configures
 *
 *     {"machine": "h100-sxm" | "path/to/model.vx", "host": "default" | "path",
 *      "defines": {"BATCH": 9, ...}}
 *
 * through initializationOptions or workspace/didChangeConfiguration (bare or under
 * "vxpeak"). Without a machine, a program that declares its own model is checked against
 * it, and one that declares none against the built-in a100-40 with the default host, as
 * `vxpeak check` does. A setting that cannot be used (a define that is not an unsigned 64-bit
 * integer, a machine or host that cannot be loaded, a value of the wrong type) is never
 * ignored: each is shown (window/showMessage) and is an error at the top of every open file. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

static char *dup_string(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static void free_machines(lsp_server *s) {
  vxp_machine_free(s->machine);
  vxp_machine_free(s->host);
  vxp_source_free(s->machine_src);
  vxp_source_free(s->host_src);
  s->machine = s->host = NULL;
  s->machine_src = s->host_src = NULL;
}

void lsp_config_free(lsp_server *s) {
  free_machines(s);
  free(s->config.machine);
  free(s->config.host);
  for (size_t i = 0; i < s->config.define_count; i++)
    free((char *)s->config.defines[i].name);
  free(s->config.defines);
  memset(&s->config, 0, sizeof(s->config));
  free(s->config_error);
  s->config_error = NULL;
}

/* A built-in name, or a file (anything with a '/' or ending in ".vx"). */
static int load_machine(lsp_server *s, const char *what, vxp_source **src, vxp_machine **out) {
  size_t n = strlen(what);
  if (!strchr(what, '/') && !(n > 3 && strcmp(what + n - 3, ".vx") == 0))
    return vxp_machine_builtin(out, s->ctx, what);
  int rc = vxp_source_load_file(src, s->ctx, what);
  if (rc == VXP_OK) rc = vxp_machine_load(out, s->ctx, *src);
  return rc;
}

/* Adds a problem of the configuration to s->config_error ("; " between two), which is shown
 * to the user (window/showMessage) and put at the top of every open file (features.c). */
#if defined(__GNUC__)
static void add_error(lsp_server *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif

static void add_error(lsp_server *s, const char *fmt, ...) {
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof(text), fmt, ap);
  va_end(ap);
  size_t old = s->config_error ? strlen(s->config_error) : 0;
  char *grown = realloc(s->config_error, old + strlen(text) + 3);
  if (!grown) return; /* the problems already recorded are still reported */
  if (old) memcpy(grown + old, "; ", 2), old += 2;
  strcpy(grown + old, text);
  s->config_error = grown;
}

static void set_error(lsp_server *s, const char *what, const char *name) {
  add_error(s, "%s '%s': %s", what, name, vxp_context_errmsg(s->ctx));
}

/* A JSON value's kind, for messages. */
static const char *json_kind(const json_t *v) {
  if (lsp_big_integer(v)) return "an integer";
  switch (json_typeof(v)) {
  case JSON_OBJECT: return "an object";
  case JSON_ARRAY: return "an array";
  case JSON_STRING: return "a string";
  case JSON_INTEGER: return "an integer";
  case JSON_REAL: return "a number with a fraction";
  case JSON_TRUE:
  case JSON_FALSE: return "a boolean";
  default: return "null";
  }
}

/* The literal `text` ("-5", "1180591620717411303424") as a uint64_t; false with why not. */
static bool literal_u64(const char *text, uint64_t *out, const char **why) {
  if (text[0] == '-') {
    *why = "is negative";
    return false;
  }
  uint64_t v = 0;
  for (const char *p = text; *p; p++) {
    unsigned d = (unsigned)(*p - '0');
    if (d > 9 || v > (UINT64_MAX - d) / 10) {
      *why = d > 9 ? "is not an integer" : "does not fit in 64 bits";
      return false;
    }
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

/* A setting that names a machine: a non-empty string into *out, nothing for absent, null or
 * "", and a problem for any other type. */
static void read_name(lsp_server *s, json_t *settings, const char *key, char **out) {
  json_t *v = json_object_get(settings, key);
  if (!v || json_is_null(v) || (json_is_string(v) && !json_string_length(v))) return;
  if (!json_is_string(v) || lsp_big_integer(v)) {
    add_error(s, "setting '%s' is %s, not a string (a built-in name or a file)", key, json_kind(v));
    return;
  }
  *out = dup_string(json_string_value(v));
}

/* A define: a non-negative integer that fits in 64 bits, else a problem naming it. */
static void read_define(lsp_server *s, const char *key, json_t *value) {
  uint64_t v = 0;
  const char *why = NULL, *big = lsp_big_integer(value);
  if (big) {
    if (!literal_u64(big, &v, &why)) {
      add_error(s, "define %s: %s %s (a constant is an unsigned 64-bit integer)", key, big, why);
      return;
    }
  } else if (!json_is_integer(value)) {
    add_error(s, "define %s: %s, not an integer", key, json_kind(value));
    return;
  } else if (json_integer_value(value) < 0) {
    add_error(s, "define %s: %lld is negative (a constant is an unsigned 64-bit integer)", key,
              (long long)json_integer_value(value));
    return;
  } else {
    v = (uint64_t)json_integer_value(value);
  }
  char *name = dup_string(key);
  if (!name) return;
  s->config.defines[s->config.define_count].name = name;
  s->config.defines[s->config.define_count].value = v;
  s->config.define_count++;
}

void lsp_configure(lsp_server *s, json_t *settings) {
  lsp_documents_invalidate(s); /* analyses borrow the machines about to be freed */
  lsp_config_free(s);
  if (json_is_object(settings) && json_is_object(json_object_get(settings, "vxpeak")))
    settings = json_object_get(settings, "vxpeak");
  if (settings && !json_is_null(settings) && !json_is_object(settings))
    add_error(s, "settings are %s, not an object", json_kind(settings));
  if (json_is_object(settings)) {
    read_name(s, settings, "machine", &s->config.machine);
    read_name(s, settings, "host", &s->config.host);
    json_t *defs = json_object_get(settings, "defines");
    if (defs && !json_is_null(defs) && !json_is_object(defs))
      add_error(s, "setting 'defines' is %s, not an object of names and integers", json_kind(defs));
    if (json_is_object(defs) && json_object_size(defs)) {
      s->config.defines = calloc(json_object_size(defs), sizeof(*s->config.defines));
      const char *key;
      json_t *value;
      json_object_foreach(defs, key, value) {
        if (!s->config.defines) break;
        read_define(s, key, value);
      }
    }
  }
  int rc = VXP_OK;
  if (s->config.machine &&
      (rc = load_machine(s, s->config.machine, &s->machine_src, &s->machine)) != VXP_OK) {
    set_error(s, "cannot load machine", s->config.machine);
    free_machines(s);
  }
  if (s->config.host && rc == VXP_OK) {
    if (strcmp(s->config.host, "default") == 0)
      rc = vxp_machine_builtin(&s->host, s->ctx, vxp_default_host());
    else
      rc = load_machine(s, s->config.host, &s->host_src, &s->host);
    if (rc != VXP_OK) {
      set_error(s, "cannot load host", s->config.host);
      free_machines(s);
    }
  }
  if (s->config_error) lsp_show_message(s, 1, "vxpeak: %s", s->config_error);
}

void lsp_machines_for(lsp_server *s, const vxp_program *prog, const vxp_machine **machine,
                      const vxp_machine **host) {
  *machine = s->machine;
  *host = s->host;
  if (s->machine || s->config_error || vxp_program_declares_machine(prog)) return;
  if (s->lent_machine && s->lent_host) {
    *machine = s->lent_machine;
    if (!s->host) *host = s->lent_host;
    return;
  }
  if (!s->default_machine &&
      vxp_machine_builtin(&s->default_machine, s->ctx, vxp_default_machine()) != VXP_OK)
    return;
  if (!s->default_host &&
      vxp_machine_builtin(&s->default_host, s->ctx, vxp_default_host()) != VXP_OK)
    return;
  *machine = s->default_machine;
  if (!s->host) *host = s->default_host;
}
