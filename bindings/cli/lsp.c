/* SPDX-License-Identifier: Apache-2.0 */
/* lsp.c - `vxpeak lsp`: hands standard input and output to the language server
 * (bindings/lsp/), which is linked into the command. */
#include "cli.h"

int vxpeak_lsp(const vxpeak_args *args) {
  (void)args;
  fflush(stdout); /* the server writes to the descriptor, not through stdio */
  return vxpeak_lsp_serve(0, 1);
}
