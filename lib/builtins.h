/* SPDX-License-Identifier: Apache-2.0 */
/* builtins.h - the callable names the language owns, in one place for the two questions
 * asked of them: does a call of this name run user code (instance.c: the call tree), and
 * does the name exist without the program defining it (resolve.c: E2002). */
#ifndef VXP_BUILTINS_H
#define VXP_BUILTINS_H

#include <stdbool.h>
#include <stddef.h>

/* `s[0..len)` heads a path the language owns (`Vec::new`, `raw::load`, `Option::Some`), or
 * is a bare constructor of its prelude (`Some`, `None`, `Ok`, `Err`): calling it runs no
 * user code. */
bool vxp_builtin__path_head(const char *s, size_t len);

/* `s[0..len)` is a bare builtin function whose call runs no user code (`print`, `sizeof`). */
bool vxp_builtin__plain_call(const char *s, size_t len);

/* `name` may be called bare without the program defining it: the prelude's constructors,
 * the plain builtins, and the builtins that do run user code through their argument (`grad(f)`,
 * `vjp`, `jvp`, `Verified`), which the call tree lists as unresolved rather than as edges. */
bool vxp_builtin__known_call(const char *name);

/* `name` is a type the language provides without the program declaring it (`Vec`,
 * `Option`, `String`, `usize`, `Self`, ...); element types are asked of model.h. A name
 * in a signature that is neither this nor declared is E3029 (resolve.c). */
bool vxp_builtin__known_type(const char *name);

#endif /* VXP_BUILTINS_H */
