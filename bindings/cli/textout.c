/* SPDX-License-Identifier: Apache-2.0 */
/* textout.c - the small pieces of output the command writes itself (advise, calibrate): a
 * figure grouped by thousands as the library's reports print them, a JSON string. */
#include "cli.h"

const char *vxpeak_grouped(uint64_t v, char buf[32]) {
  char digits[24];
  int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v), o = 0;
  for (int i = 0; i < n; i++) {
    buf[o++] = digits[i];
    if ((n - i - 1) % 3 == 0 && i + 1 < n) buf[o++] = ',';
  }
  buf[o] = '\0';
  return buf;
}

void vxpeak_json_string(FILE *out, const char *s) {
  fputc('"', out);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c < 0x20)
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}
