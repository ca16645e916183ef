/* SPDX-License-Identifier: Apache-2.0 */
/* outfile.c - the file a command streams its output to (plot, emit-cuda, check --format
 * json): the library hands the text over in pieces, and the command writes each as it comes. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

void vxpeak_out_file_init(vxpeak_out_file *of, const char *path) {
  memset(of, 0, sizeof(*of));
  of->path = path;
}

int vxpeak_out_file_write(void *arg, const char *bytes, size_t len) {
  vxpeak_out_file *of = arg;
  if (!of->f) {
    of->f = strcmp(of->path, "-") == 0 ? stdout : fopen(of->path, "wb");
    if (!of->f) {
      of->error = errno;
      return 1;
    }
    struct stat st;
    of->opened = of->f != stdout && fstat(fileno(of->f), &st) == 0 && S_ISREG(st.st_mode);
  }
  if (fwrite(bytes, 1, len, of->f) != len) {
    of->error = errno;
    return 1;
  }
  return 0;
}

bool vxpeak_out_file_close(vxpeak_out_file *of) {
  if (!of->f) return true;
  bool ok = of->f == stdout ? fflush(of->f) == 0 : fclose(of->f) == 0;
  if (!ok && !of->error) of->error = errno;
  of->f = NULL;
  return ok;
}

void vxpeak_out_file_discard(const vxpeak_out_file *of) {
  if (of->opened) remove(of->path);
}
