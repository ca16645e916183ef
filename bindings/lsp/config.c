/* SPDX-License-Identifier: Apache-2.0 */
/* config.c - which machine a document is checked against. The client configures
 *
 *     {"machine": "h100-sxm" | "path/to/model.vx", "host": "default" | "path",
 *      "defines": {"BATCH": 9, ...}}
 *
 * through initializationOptions or workspace/didChangeConfiguration (bare or under
 * "vxpeak"). Without a machine, a program that declares its own model is checked against
 * it, and one that declares none against the built-in a100-40 with the default host, as
 * `vxpeak check` does. */
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

static void set_error(lsp_server *s, const char *what, const char *name) {
  const char *why = vxp_context_errmsg(s->ctx);
  size_t n = strlen(what) + strlen(name) + strlen(why) + 16;
  free(s->config_error);
  s->config_error = malloc(n);
  if (s->config_error) snprintf(s->config_error, n, "%s '%s': %s", what, name, why);
}

void lsp_configure(lsp_server *s, json_t *settings) {
  lsp_documents_invalidate(s); /* analyses borrow the machines about to be freed */
  lsp_config_free(s);
  if (json_is_object(settings) && json_is_object(json_object_get(settings, "vxpeak")))
    settings = json_object_get(settings, "vxpeak");
  if (json_is_object(settings)) {
    json_t *m = json_object_get(settings, "machine"), *h = json_object_get(settings, "host");
    if (json_is_string(m) && json_string_length(m))
      s->config.machine = dup_string(json_string_value(m));
    if (json_is_string(h) && json_string_length(h))
      s->config.host = dup_string(json_string_value(h));
    json_t *defs = json_object_get(settings, "defines");
    if (json_is_object(defs) && json_object_size(defs)) {
      s->config.defines = calloc(json_object_size(defs), sizeof(*s->config.defines));
      const char *key;
      json_t *value;
      json_object_foreach(defs, key, value) {
        if (!s->config.defines) break;
        /* Non-negative integers only: a constant is a 64-bit unsigned value. */
        if (!json_is_integer(value) || json_integer_value(value) < 0) {
          lsp_show_message(s, 2, "vxpeak: ignoring define %s: not a non-negative integer", key);
          continue;
        }
        char *name = dup_string(key);
        if (!name) continue;
        s->config.defines[s->config.define_count].name = name;
        s->config.defines[s->config.define_count].value = (uint64_t)json_integer_value(value);
        s->config.define_count++;
      }
    }
  }
  int rc;
  if (s->config.machine &&
      (rc = load_machine(s, s->config.machine, &s->machine_src, &s->machine)) != VXP_OK) {
    set_error(s, "cannot load machine", s->config.machine);
    free_machines(s);
  }
  if (s->config.host && !s->config_error) {
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
  if (!s->default_machine && vxp_machine_builtin(&s->default_machine, s->ctx, vxp_default_machine()) != VXP_OK)
    return;
  if (!s->default_host && vxp_machine_builtin(&s->default_host, s->ctx, vxp_default_host()) != VXP_OK)
    return;
  *machine = s->default_machine;
  if (!s->host) *host = s->default_host;
}
