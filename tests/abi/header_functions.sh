#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# header_functions.sh [HEADER] - print "name arity" for every function the public header
# declares with VXP_API, one a line, sorted by name. A declaration may span lines and ends
# at its first ';'. `(void)` has arity 0; commas inside nested parentheses (function-pointer
# parameters) do not count. Used by `make check-exports`.
set -eu
export LC_ALL=C
header=${1:-include/vxpeak.h}
awk '
  /^VXP_API/ { decl = ""; collecting = 1 }
  collecting { decl = decl " " $0 }
  collecting && /;/ {
    collecting = 0
    open = index(decl, "(")
    n = split(substr(decl, 1, open - 1), words, /[ *]+/)
    name = words[n]
    depth = 1; arity = 0; seen = 0; args = ""
    for (i = open + 1; i <= length(decl) && depth > 0; i++) {
      c = substr(decl, i, 1)
      if (c == "(") depth++
      else if (c == ")") { depth--; if (depth == 0) break }
      else if (c == "," && depth == 1) arity++
      if (c !~ /[ \t]/) args = args c
    }
    print name, (args == "void" || args == "") ? 0 : arity + 1
  }
' "$header" | sort
