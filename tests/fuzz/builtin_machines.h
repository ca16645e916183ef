/* SPDX-License-Identifier: Apache-2.0 */
/* builtin_machines.h - the built-in machines the program harnesses analyse with, made once
 * in LLVMFuzzerInitialize (included by exactly one harness per binary).
 *
 * They are immutable, so inputs on other contexts may read them, and making them once keeps
 * each execution to the input's own work (the language server's loading them per input was
 * 9% of an execution). Each input still gets a context of its own: tree-sitter's parser keeps
 * freed nodes for its next parse, so on a shared context an input's mallocs and frees differ,
 * and libFuzzer then runs it again under a full LeakSanitizer scan (that was most of an
 * execution's time); freeing the context frees the parser with it. */
#ifndef VXPEAK_FUZZ_BUILTIN_MACHINES_H
#define VXPEAK_FUZZ_BUILTIN_MACHINES_H

#include <stdlib.h>

#include "vxpeak.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static vxp_context *machines_ctx;
static vxp_machine *device, *default_host;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  if (vxp_context_new(&machines_ctx, NULL) != VXP_OK ||
      vxp_machine_builtin(&device, machines_ctx, "a100-40") != VXP_OK ||
      vxp_machine_builtin(&default_host, machines_ctx, "host-default") != VXP_OK)
    abort();
  return 0;
}

#endif
