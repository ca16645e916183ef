/* SPDX-License-Identifier: Apache-2.0 */
/* program_consts.c - the program's `const` items by index (vxp_program_const_count/_name):
 * what a caller may override with -D, sweep, or write a formula in. */
#include "program.h"

size_t vxp_program_const_count(const vxp_program *prog) {
  return prog ? prog->model.consts.len : 0;
}

const char *vxp_program_const_name(const vxp_program *prog, size_t i) {
  if (!prog || i >= prog->model.consts.len) return NULL;
  return vxp_strtab__str(&prog->model.names, prog->model.consts.items[i].name);
}
