/* SPDX-License-Identifier: Apache-2.0 */
/* builtins.c - the callable names the language owns (see builtins.h). */
#include "builtins.h"

#include <string.h>

#include "internal.h"

static const char *const path_heads[] = {"raw",    "Vec", "Option", "Result", "Tensor",
                                         "Matrix", "Box", "String", "std"};
/* The prelude's constructors, written bare (`Some(x)`) or as a path head. */
static const char *const constructors[] = {"Some", "None", "Ok", "Err"};
/* `panic(msg)` and `abort()` stop the program; they are built into the language, and
 * core::panic's `unreachable`/`todo`/`unimplemented` are written with them. The compiler's
 * kernel intrinsics are called without a definition too: `tensor_view_1d/2d(ptr, dims..)`
 * (a view of memory the program got elsewhere), `matmul_into` and `flash_attention_into`
 * (they write their last tensor argument); none of them calls user code. */
static const char *const plain_calls[] = {
    "sizeof", "print",          "println",        "assert",      "panic",
    "abort",  "tensor_view_1d", "tensor_view_2d", "matmul_into", "flash_attention_into"};
/* Builtins that call the function they are given: known names, but not user-code-free. */
static const char *const calling_builtins[] = {"grad", "vjp", "jvp", "Verified"};

/* Types of the language and its prelude that a signature may name without declaring them:
 * the tensor forms (`DynTensor` is refused by vxc with a hint of its own), the prelude's
 * generic containers, the integer and text types that are no tensor element, `void` (the
 * standard library's `-> void`), `Self`, and the placement predicates. */
static const char *const known_types[] = {
    "Tensor", "DynTensor", "Matrix", "Vec",  "Option", "Result", "Box",       "String",  "str",
    "char",   "usize",     "isize",  "void", "Self",   "Bool",   "Reachable", "Transfer"};

static bool in_list(const char *s, size_t len, const char *const *list, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (len && list[i][0] == s[0] && strlen(list[i]) == len && memcmp(list[i], s, len) == 0)
      return true;
  return false;
}

bool vxp_builtin__path_head(const char *s, size_t len) {
  return in_list(s, len, path_heads, VXP__ARRAY_LEN(path_heads)) ||
         in_list(s, len, constructors, VXP__ARRAY_LEN(constructors));
}

bool vxp_builtin__plain_call(const char *s, size_t len) {
  return in_list(s, len, plain_calls, VXP__ARRAY_LEN(plain_calls));
}

bool vxp_builtin__known_call(const char *name) {
  size_t len = strlen(name);
  /* A bare `Vec(..)` or `raw(..)` is no call of the language: only the constructors. */
  return in_list(name, len, constructors, VXP__ARRAY_LEN(constructors)) ||
         vxp_builtin__plain_call(name, len) ||
         in_list(name, len, calling_builtins, VXP__ARRAY_LEN(calling_builtins));
}

bool vxp_builtin__known_type(const char *name) {
  return in_list(name, strlen(name), known_types, VXP__ARRAY_LEN(known_types));
}
