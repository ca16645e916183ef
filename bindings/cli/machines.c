/* SPDX-License-Identifier: Apache-2.0 */
/* machines.c - finding the machine model `--machine` names: a file path, a fleet name
 * looked up in $VXPEAK_FLEET, the installed fleet or the source tree, or a built-in. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

#include "cli.h"

/* Where `make install` puts the fleet, and, for the build-tree binary only, the source
 * tree it was built from (so that build/vxpeak finds fleet/ without being installed; the
 * installed binary is compiled without it). */
#ifndef VXPEAK_FLEET_DIR
#define VXPEAK_FLEET_DIR "/usr/local/share/vxpeak/fleet"
#endif

static bool readable(const char *path) { return access(path, R_OK) == 0; }

static bool looks_like_path(const char *arg) {
  size_t len = strlen(arg);
  return strchr(arg, '/') != NULL || (len > 3 && strcmp(arg + len - 3, ".vx") == 0);
}

static int load_file(vxp_context *ctx, const char *path, vxp_source **out_src,
                     vxp_machine **out_machine) {
  int rc = vxp_source_load_file(out_src, ctx, path);
  if (rc == VXP_OK) rc = vxp_machine_load(out_machine, ctx, *out_src);
  if (rc != VXP_OK) return vxpeak_fail(ctx, rc, "cannot load the machine model"), rc;
  return VXP_OK;
}

int vxpeak_load_machine(vxp_context *ctx, const char *arg, vxp_source **out_src,
                        vxp_machine **out_machine) {
  *out_src = NULL;
  *out_machine = NULL;
  if (looks_like_path(arg) || readable(arg)) return load_file(ctx, arg, out_src, out_machine);

  char candidate[PATH_MAX + 64];
  const char *env = getenv("VXPEAK_FLEET");
  const char *dirs[3];
  size_t ndirs = 0;
  if (env && env[0]) dirs[ndirs++] = env;
  dirs[ndirs++] = VXPEAK_FLEET_DIR;
#ifdef VXPEAK_SOURCE_FLEET_DIR
  dirs[ndirs++] = VXPEAK_SOURCE_FLEET_DIR;
#endif
  for (size_t i = 0; i < ndirs; i++) {
    snprintf(candidate, sizeof(candidate), "%s/%s.vx", dirs[i], arg);
    if (readable(candidate)) return load_file(ctx, candidate, out_src, out_machine);
  }
  int rc = vxp_machine_builtin(out_machine, ctx, arg);
  if (rc == VXP_OK) return VXP_OK;
  if (rc != VXP_ENOTFOUND) return vxpeak_fail(ctx, rc, "cannot load the machine model"), rc;
  fprintf(stderr, "vxpeak: unknown machine '%s': no file of that name, no %s.vx in", arg, arg);
  for (size_t i = 0; i < ndirs; i++)
    fprintf(stderr, "%s %s", i ? "," : "", dirs[i]);
  /* The library's message lists the built-in machines. */
  fprintf(stderr, ", and %s\n", vxp_context_errmsg(ctx));
  return VXP_ENOTFOUND;
}
