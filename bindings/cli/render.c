/* SPDX-License-Identifier: Apache-2.0 */
/* render.c - diagnostics on the terminal: the library's compiler form
 * (vxp_diagnostic_render), coloured on a terminal only, at most VXPEAK_MAX_RENDERED. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

bool vxpeak_use_color(FILE *out) {
  const char *no_color = getenv("NO_COLOR");
  if (no_color && no_color[0]) return false;
  return isatty(fileno(out)) != 0;
}

void vxpeak_print_report(const vxp_report *rep) {
  size_t len = 0;
  const char *text = vxp_report_text(rep, &len);
  if (text) fwrite(text, 1, len, stdout);
}

int vxpeak_fail(vxp_context *ctx, int rc, const char *what) {
  uint64_t limit_us;
  if (rc == VXP_ECANCELLED && vxpeak_time_limit_reached(&limit_us)) {
    char frac[8] = "";
    if (limit_us % 1000000u) { /* the decimals given, without trailing zeros */
      snprintf(frac, sizeof(frac), ".%06llu", (unsigned long long)(limit_us % 1000000u));
      for (size_t n = strlen(frac); frac[n - 1] == '0'; n--)
        frac[n - 1] = '\0';
    }
    fprintf(stderr, "vxpeak: %s: stopped by --time-limit (%llu%s s)\n", what,
            (unsigned long long)(limit_us / 1000000u), frac);
    return VXPEAK_EXIT_USAGE;
  }
  const char *msg = ctx ? vxp_context_errmsg(ctx) : "";
  if (!msg || !msg[0]) msg = vxp_strerror(rc);
  fprintf(stderr, "vxpeak: %s: %s\n", what, msg);
  return VXPEAK_EXIT_USAGE;
}

void vxpeak_render_diagnostic(FILE *out, const vxp_diagnostic *d, bool color) {
  /* The library renders (vxp_diagnostic_render); most diagnostics fit the stack buffer. */
  unsigned flags = color ? VXP_RENDER_COLOR : 0;
  char small[2048];
  size_t len = vxp_diagnostic_render(d, flags, small, sizeof(small));
  if (len < sizeof(small)) {
    fwrite(small, 1, len, out);
    return;
  }
  char *big = malloc(len + 1);
  if (!big) {
    fwrite(small, 1, sizeof(small) - 1, out);
    return;
  }
  vxp_diagnostic_render(d, flags, big, len + 1);
  fwrite(big, 1, len, out);
  free(big);
}

bool vxpeak_render_nth(FILE *out, const vxp_diagnostic *d, size_t index, size_t count, bool color) {
  if (index < VXPEAK_MAX_RENDERED) {
    vxpeak_render_diagnostic(out, d, color);
    return true;
  }
  if (index == VXPEAK_MAX_RENDERED)
    fprintf(out, "vxpeak: %zu more diagnostic%s not shown (--format json lists every one)\n",
            count - index, count - index == 1 ? "" : "s");
  return false;
}

void vxpeak_render_all(FILE *out, const vxp_analysis *an) {
  bool color = vxpeak_use_color(out);
  size_t count = vxp_analysis_diagnostic_count(an);
  for (size_t i = 0; i < count && i <= VXPEAK_MAX_RENDERED; i++)
    vxpeak_render_nth(out, vxp_analysis_diagnostic(an, i), i, count, color);
}
