/* SPDX-License-Identifier: Apache-2.0 */
/* json.c - the JSON report (schema vxpeak-report-v1) for tools: write it to a file or to
 * standard output, and show its lifetime rules.
 *
 *   json PROGRAM.vx [MACHINE] [OUT.json]
 *
 * MACHINE is a built-in machine name ("a100-40", used with the built-in default host) or
 * "-" for the program's own declarations.
 * The report's text belongs to the analysis: it is rendered on the first call, cached, and
 * freed with the analysis, so the caller never frees it and must copy it to keep it.
 */
#include <stdio.h>
#include <string.h>

#include "vxpeak.h"

int main(int argc, char **argv) {
  vxp_context *ctx = NULL;
  vxp_source *src = NULL;
  vxp_program *prog = NULL;
  vxp_machine *machine = NULL, *host = NULL;
  vxp_analysis *an = NULL;
  vxp_analyze_options opts;
  const char *json, *again;
  size_t len = 0;
  FILE *out = stdout;
  int rc, wrote, status = 2;

  if (argc < 2 || argc > 4) {
    fprintf(stderr, "usage: json PROGRAM.vx [MACHINE|-] [OUT.json]\n");
    return 2;
  }
  /* The function form of the options initialiser, for callers without the macros. */
  if (vxp_analyze_options_init(&opts, VXP_ANALYZE_OPTIONS_VERSION) != VXP_OK) return 2;
  if ((rc = vxp_context_new(&ctx, NULL)) != VXP_OK) {
    fprintf(stderr, "json: %s\n", vxp_strerror(rc));
    return 2;
  }
  if ((rc = vxp_source_load_file(&src, ctx, argv[1])) != VXP_OK ||
      (rc = vxp_program_parse(&prog, ctx, src)) != VXP_OK)
    goto failed;
  if (argc >= 3 && strcmp(argv[2], "-") != 0) {
    if ((rc = vxp_machine_builtin(&machine, ctx, argv[2])) != VXP_OK ||
        (rc = vxp_machine_builtin(&host, ctx, "host-default")) != VXP_OK)
      goto failed;
    opts.machine = machine;
    opts.host = host;
  }
  if ((rc = vxp_analyze(&an, ctx, prog, &opts)) != VXP_OK) goto failed;

  json = vxp_analysis_json(an, &len);
  if (!json) goto failed; /* out of memory; the context says so */
  again = vxp_analysis_json(an, NULL);
  if (again != json) {
    fprintf(stderr, "json: the report was rendered twice\n");
    goto done;
  }
  if (argc == 4 && !(out = fopen(argv[3], "w"))) {
    perror(argv[3]);
    goto done;
  }
  wrote = fwrite(json, 1, len, out) == len;
  if (out != stdout && fclose(out) != 0) wrote = 0;
  if (!wrote) {
    perror("json: write");
    goto done;
  }
  fprintf(stderr, "json: %zu bytes, verdict %s\n", len,
          vxp_analysis_admitted(an) ? "admitted" : "rejected");
  status = 0;
  goto done;

failed:
  fprintf(stderr, "json: %s\n", vxp_context_errmsg(ctx));
done:
  vxp_analysis_free(an); /* the report text goes with it */
  vxp_machine_free(host);
  vxp_machine_free(machine);
  vxp_program_free(prog);
  vxp_source_free(src);
  vxp_context_free(ctx);
  return status;
}
