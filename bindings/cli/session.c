/* SPDX-License-Identifier: Apache-2.0 */
/* session.c - read a program, pick its machine models and analyse it: the one place that
 * decides which machine a program is checked against, for every command. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int vxpeak_program_open(vxpeak_program *p, const char *file, unsigned int flags) {
  memset(p, 0, sizeof(*p));
  int rc = vxp_context_new(&p->ctx, NULL);
  if (rc != VXP_OK) {
    fprintf(stderr, "vxpeak: cannot create a context: %s\n", vxp_strerror(rc));
    return VXPEAK_EXIT_USAGE;
  }
  vxpeak_time_limit_watch(p->ctx);
  if ((rc = vxp_source_load_file(&p->src, p->ctx, file)) != VXP_OK)
    return vxpeak_fail(p->ctx, rc, "cannot read the program");
  if ((rc = vxp_program_parse_flags(&p->prog, p->ctx, p->src, flags)) != VXP_OK)
    return vxpeak_fail(p->ctx, rc, "cannot parse the program");
  return VXPEAK_EXIT_OK;
}

void vxpeak_program_close(vxpeak_program *p) {
  vxp_program_free(p->prog);
  vxp_source_free(p->src);
  vxp_context_free(p->ctx);
  memset(p, 0, sizeof(*p));
}

int vxpeak_target_open(vxpeak_target *t, const vxpeak_program *p, const char *machine_arg,
                       const char *host_arg) {
  memset(t, 0, sizeof(*t));
  t->label = machine_arg;
  int rc;
  if (machine_arg) {
    if (vxpeak_load_machine(p->ctx, machine_arg, &t->machine_src, &t->machine) != VXP_OK)
      return VXPEAK_EXIT_USAGE;
  } else if (!vxp_program_declares_machine(p->prog)) {
    /* A program without a machine model of its own runs on the default device compiled
     * into the library (the same from any directory), with the default host for its
     * transfers from CPU_DRAM. */
    if ((rc = vxp_machine_builtin(&t->machine, p->ctx, vxp_default_machine())) != VXP_OK)
      return vxpeak_fail(p->ctx, rc, "cannot load the built-in machine");
    t->label = vxp_default_machine();
    if (!host_arg) host_arg = "default";
  }
  if (host_arg) {
    if (strcmp(host_arg, "default") == 0)
      rc = vxp_machine_builtin(&t->host, p->ctx, vxp_default_host());
    else if ((rc = vxp_source_load_file(&t->host_src, p->ctx, host_arg)) == VXP_OK)
      rc = vxp_machine_load(&t->host, p->ctx, t->host_src);
    if (rc != VXP_OK) return vxpeak_fail(p->ctx, rc, "cannot load the host model");
  }
  return VXPEAK_EXIT_OK;
}

void vxpeak_target_close(vxpeak_target *t) {
  vxp_machine_free(t->host);
  vxp_machine_free(t->machine);
  vxp_source_free(t->host_src);
  vxp_source_free(t->machine_src);
  memset(t, 0, sizeof(*t));
}

vxp_analyze_options vxpeak_target_options(const vxpeak_target *t, const vxpeak_args *args) {
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  opts.machine = t->machine;
  opts.host = t->host;
  opts.machine_only = args && args->machine_only && t->machine;
  if (args && args->define_count) {
    opts.overrides = args->defines;
    opts.override_count = args->define_count;
  }
  if (args && args->retype_count) {
    opts.retypes = args->retypes;
    opts.retype_count = args->retype_count;
  }
  return opts;
}

int vxpeak_session_open(vxpeak_session *s, const vxpeak_args *args) {
  memset(s, 0, sizeof(*s));
  /* Only CUDA generation reads the syntax tree after lowering (it prints statements): it
   * keeps a text parsed whole with its tree, and parses a long text's windows again. */
  unsigned int flags = VXP_PROGRAM_NO_TREE;
  if (strcmp(args->command, "emit-cuda") == 0) flags |= VXP_PROGRAM_KEEP_WHOLE_TREE;
  int exit_code = vxpeak_program_open(&s->program, args->file, flags);
  if (exit_code != VXPEAK_EXIT_OK) return exit_code;
  exit_code = vxpeak_target_open(&s->target, &s->program,
                                 args->machine_count ? args->machines[0] : NULL, args->host);
  if (exit_code != VXPEAK_EXIT_OK) return exit_code;
  vxp_analyze_options opts = vxpeak_target_options(&s->target, args);
  int rc = vxp_analyze(&s->an, s->program.ctx, s->program.prog, &opts);
  if (rc != VXP_OK) return vxpeak_fail(s->program.ctx, rc, "analysis failed");
  return VXPEAK_EXIT_OK;
}

void vxpeak_session_close(vxpeak_session *s) {
  vxp_analysis_free(s->an);
  vxpeak_target_close(&s->target);
  vxpeak_program_close(&s->program);
  memset(s, 0, sizeof(*s));
}

bool vxpeak_check_selection(const vxpeak_args *args, const vxp_analysis *an) {
  if (args->function) {
    bool found = false;
    for (size_t i = 0; i < vxp_analysis_function_count(an) && !found; i++)
      found = strcmp(vxp_analysis_function(an, i), args->function) == 0;
    if (!found) {
      fprintf(stderr, "vxpeak %s: no analysed function '%s' in %s (functions:", args->command,
              args->function, args->file);
      for (size_t i = 0; i < vxp_analysis_function_count(an); i++)
        fprintf(stderr, "%s %s", i ? "," : "", vxp_analysis_function(an, i));
      fprintf(stderr, ")\n");
      return false;
    }
  }
  if (args->space) {
    bool found = false;
    for (size_t i = 0; i < vxp_analysis_resident_set_count(an) && !found; i++)
      found = strcmp(vxp_resident_set_space(vxp_analysis_resident_set(an, i)), args->space) == 0;
    if (!found) {
      fprintf(stderr, "vxpeak %s: no tile is placed in a space '%s' with a capacity (spaces:",
              args->command, args->space);
      const char *seen[64];
      size_t nseen = 0;
      for (size_t i = 0; i < vxp_analysis_resident_set_count(an); i++) {
        const char *sp = vxp_resident_set_space(vxp_analysis_resident_set(an, i));
        bool dup = false;
        for (size_t k = 0; k < nseen; k++)
          dup |= strcmp(seen[k], sp) == 0;
        if (dup || nseen == 64) continue;
        seen[nseen++] = sp;
        fprintf(stderr, "%s %s", nseen > 1 ? "," : "", sp);
      }
      fprintf(stderr, "%s)\n", nseen ? "" : " none");
      return false;
    }
  }
  return true;
}

const char *vxpeak_target_name(const vxpeak_target *t) {
  if (t->label) return t->label;
  return t->machine ? vxp_machine_label(t->machine) : "the program's own declarations";
}

bool vxpeak_tokens_per_call(const vxpeak_args *args, vxp_context *ctx, const vxp_analysis *an,
                            uint64_t *out) {
  *out = 1;
  const char *name = args->tokens_name;
  if (!name) return true;
  if (name[0] >= '0' && name[0] <= '9') {
    *out = strtoull(name, NULL, 10);
    return true;
  }
  int rc = vxp_analysis_const_value(an, name, out);
  if (rc != VXP_OK) {
    fprintf(stderr, "vxpeak: --tokens-per-call %s: %s\n", name, vxp_context_errmsg(ctx));
    return false;
  }
  if (*out == 0) {
    fprintf(stderr, "vxpeak: --tokens-per-call %s: it is 0, and a call must produce a token\n",
            name);
    return false;
  }
  return true;
}
