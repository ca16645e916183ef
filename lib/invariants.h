/* SPDX-License-Identifier: Apache-2.0 */
/* invariants.h - the "Invariant:" comments of the private headers, as checks. Each
 * constructor calls the check of what it built through VXP__CHECK, which compiles to nothing
 * unless VXP_ASSERTIONS is defined (the sanitizer builds: make asan, make tsan); there a
 * broken invariant aborts with the condition and its line (internal.h, VXP__ASSERT). */
#ifndef VXP_INVARIANTS_H
#define VXP_INVARIANTS_H

#include "internal.h"

struct vxp_model;
struct vxp_machine;

#if defined(VXP_ASSERTIONS)
#define VXP__CHECK(call) call
void vxp_check__source(const vxp_source *src);
void vxp_check__model(const struct vxp_model *m);
void vxp_check__program(const vxp_program *prog);
void vxp_check__machine(const struct vxp_machine *machine);
void vxp_check__analysis(const vxp_analysis *an);
#else
#define VXP__CHECK(call) ((void)0)
#endif

#endif /* VXP_INVARIANTS_H */
