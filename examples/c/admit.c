/* SPDX-License-Identifier: Apache-2.0 */
/* admit.c - an admission matrix: every model of a program against every machine of a fleet.
 *
 *   admit PROGRAM.vx FLEET_DIR
 *
 * A model is a function of PROGRAM.vx that calls a generic instance (examples/admit/
 * admit.vx: `fn llama2_7b() -> i32 { return admit<32, 32, ...>(); }`); a machine is each
 * device model FLEET_DIR/NAME.vx (host models, host-*.vx, are skipped: they describe no
 * device). For each pair the program is analysed, and the cell says whether the model fits:
 * "ok" or the first error the analysis reports in the model's call tree (E6009: one tile
 * alone is too large; E6010: the tiles live together are), with the peak over the model's
 * call tree as a share of the space's capacity (">999%" past ten times). Uses the call-tree
 * accessors (vxp_call_tree_*) and vxp_diagnostic_function. Build against an installed libvxpeak:
 *
 *   cc admit.c $(pkg-config --cflags --libs vxpeak) -o admit
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vxpeak.h"

#define MAX_MACHINES 64
#define MAX_MODELS 64

typedef struct cell {
  char verdict[12];
  double share; /* peak / capacity, in percent */
} cell;

typedef struct model {
  char function[64];  /* the model's function: a row */
  char instance[160]; /* the generic instance it calls */
  char space[32];
  unsigned long long peak; /* over its call tree, from the first machine */
  int peak_varies;         /* another machine gave another peak (a granule) */
  cell cells[MAX_MACHINES];
} model;

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The device models of `dir`, sorted by name. */
static size_t list_machines(const char *dir, char **names, size_t max) {
  DIR *d = opendir(dir);
  struct dirent *e;
  size_t n = 0;
  if (!d) return 0;
  while ((e = readdir(d)) != NULL && n < max) {
    size_t len = strlen(e->d_name);
    if (len < 4 || strcmp(e->d_name + len - 3, ".vx") != 0) continue;
    if (strncmp(e->d_name, "host-", 5) == 0) continue;
    names[n] = malloc(len + 1);
    if (!names[n]) break;
    memcpy(names[n], e->d_name, len + 1);
    n++;
  }
  closedir(d);
  qsort(names, n, sizeof(char *), compare_names);
  return n;
}

/* The first error about `fn` or about the instance it calls, or NULL. */
static const char *first_error(const vxp_analysis *an, const char *fn, const char *instance) {
  size_t i;
  for (i = 0; i < vxp_analysis_diagnostic_count(an); i++) {
    const vxp_diagnostic *d = vxp_analysis_diagnostic(an, i);
    const char *owner = vxp_diagnostic_function(d);
    if (vxp_diagnostic_severity(d) != VXP_SEVERITY_ERROR || !owner) continue;
    if (strcmp(owner, fn) == 0 || strcmp(owner, instance) == 0) return vxp_diagnostic_code(d);
  }
  return NULL;
}

/* Analyse `prog` on the machine in `path` and fill column `col`. */
static int one_machine(vxp_context *ctx, const vxp_program *prog, const char *path, size_t col,
                       model *models, size_t *nmodels) {
  vxp_source *src = NULL;
  vxp_machine *machine = NULL;
  vxp_analysis *an = NULL;
  vxp_analyze_options opts = VXP_ANALYZE_OPTIONS_INIT;
  size_t i, k;
  int rc = vxp_source_load_file(&src, ctx, path);
  if (rc == VXP_OK) rc = vxp_machine_load(&machine, ctx, src);
  opts.machine = machine;
  if (rc == VXP_OK) rc = vxp_analyze(&an, ctx, prog, &opts);
  if (rc != VXP_OK) {
    fprintf(stderr, "admit: %s: %s\n", path, vxp_context_errmsg(ctx));
    vxp_machine_free(machine);
    vxp_source_free(src);
    return rc;
  }
  /* The rows: call trees whose first call is to a generic instance. */
  for (i = 0; i < vxp_analysis_call_tree_count(an); i++) {
    const vxp_call_tree *ct = vxp_analysis_call_tree(an, i);
    const char *fn = vxp_call_tree_function(ct), *callee = vxp_call_tree_callee(ct);
    model *m = NULL;
    if (!callee || !strchr(callee, '<') || strchr(fn, '<')) continue;
    for (k = 0; k < *nmodels && !m; k++)
      if (strcmp(models[k].function, fn) == 0 &&
          strcmp(models[k].space, vxp_call_tree_space(ct)) == 0)
        m = &models[k];
    if (!m) {
      if (*nmodels == MAX_MODELS) continue;
      m = &models[(*nmodels)++];
      memset(m, 0, sizeof(*m));
      snprintf(m->function, sizeof(m->function), "%s", fn);
      snprintf(m->instance, sizeof(m->instance), "%s", callee);
      snprintf(m->space, sizeof(m->space), "%s", vxp_call_tree_space(ct));
      m->peak = (unsigned long long)vxp_call_tree_total_bytes(ct);
    } else if (m->peak != (unsigned long long)vxp_call_tree_total_bytes(ct)) {
      m->peak_varies = 1;
    }
    {
      const char *code = first_error(an, fn, callee);
      cell *c = &m->cells[col];
      snprintf(c->verdict, sizeof(c->verdict), "%s", code ? code : "ok");
      c->share =
          100.0 * (double)vxp_call_tree_total_bytes(ct) / (double)vxp_call_tree_capacity_bytes(ct);
    }
  }
  vxp_analysis_free(an);
  vxp_machine_free(machine);
  vxp_source_free(src);
  return VXP_OK;
}

/* 1,234,567 */
static void print_grouped(unsigned long long v) {
  char digits[32];
  int n = snprintf(digits, sizeof(digits), "%llu", v), i;
  for (i = 0; i < n; i++) {
    putchar(digits[i]);
    if ((n - i - 1) % 3 == 0 && i != n - 1) putchar(',');
  }
  for (i = n + (n - 1) / 3; i < 17; i++)
    putchar(' ');
}

int main(int argc, char **argv) {
  vxp_context *ctx = NULL;
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  char *machines[MAX_MACHINES];
  static model models[MAX_MODELS];
  size_t nmachines, nmodels = 0, i, k;
  int rc, status = 2;

  if (argc != 3) {
    fprintf(stderr, "usage: admit PROGRAM.vx FLEET_DIR\n");
    return 2;
  }
  nmachines = list_machines(argv[2], machines, MAX_MACHINES);
  if (nmachines == 0) {
    fprintf(stderr, "admit: no machine models in %s\n", argv[2]);
    return 2;
  }
  if ((rc = vxp_context_new(&ctx, NULL)) != VXP_OK ||
      (rc = vxp_source_load_file(&src, ctx, argv[1])) != VXP_OK ||
      (rc = vxp_program_parse(&prog, ctx, src)) != VXP_OK) {
    fprintf(stderr, "admit: %s: %s\n", argv[1], ctx ? vxp_context_errmsg(ctx) : vxp_strerror(rc));
    goto done;
  }
  for (k = 0; k < nmachines; k++) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", argv[2], machines[k]);
    if (one_machine(ctx, prog, path, k, models, &nmodels) != VXP_OK) goto done;
  }
  printf("%-18s %-5s %-17s", "model", "space", "peak (bytes)");
  for (k = 0; k < nmachines; k++)
    printf(k + 1 < nmachines ? " %-11.*s" : " %.*s", (int)(strlen(machines[k]) - 3), machines[k]);
  printf("\n");
  for (i = 0; i < nmodels; i++) {
    const model *m = &models[i];
    printf("%-18s %-5s ", m->function, m->space);
    print_grouped(m->peak);
    for (k = 0; k < nmachines; k++) {
      char text[32];
      if (!m->cells[k].verdict[0])
        snprintf(text, sizeof(text), "-");
      else if (m->cells[k].share >= 1000.0)
        snprintf(text, sizeof(text), "%s >999%%", m->cells[k].verdict);
      else
        snprintf(text, sizeof(text), "%s %.0f%%", m->cells[k].verdict, m->cells[k].share);
      printf(k + 1 < nmachines ? " %-11s" : " %s", text);
    }
    printf("%s\n", m->peak_varies ? "  (the peak differs by machine)" : "");
  }
  printf("\n");
  for (i = 0; i < nmodels; i++)
    printf("%-18s = %s\n", models[i].function, models[i].instance);
  status = 0;

done:
  for (k = 0; k < nmachines; k++)
    free(machines[k]);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return status;
}
