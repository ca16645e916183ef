#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# verdict_change_test.sh - the re-recording guard itself: verdict_change.sh must see a new
# exit status and a new error line, and nothing else (not an old error whose line moved).
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/case" "$tmp/new"
printf '0\n' >"$tmp/case/expected.status"
printf 'admitted: 0 errors\n' >"$tmp/case/expected.stdout"
printf 'f.vx:1:1: error[E6010]: old\n' >"$tmp/case/expected.stderr"
fail=0
expect() { # expect WANT(0 = a change, 1 = none) WHAT
  sh "$here/verdict_change.sh" "$tmp/case" "$tmp/new" >/dev/null
  [ $? = "$1" ] || { echo "FAIL golden/verdict-guard: $2"; fail=1; }
}
printf '0\n' >"$tmp/new/status"; printf 'admitted: 0 errors\n' >"$tmp/new/stdout"
printf 'f.vx:1:1: error[E6010]: old\n' >"$tmp/new/stderr"
expect 1 "the same output is no verdict change"
printf 'admitted: 1 errors\n' >"$tmp/new/stdout"
expect 1 "other text without an error line is no verdict change"
printf '1\n' >"$tmp/new/status"
expect 0 "a new exit status is a verdict change"
printf '0\n' >"$tmp/new/status"
printf 'f.vx:1:1: error[E6010]: old\nf.vx:2:1: error[E6003]: new\n' >"$tmp/new/stderr"
expect 0 "a new error line is a verdict change"
printf 'f.vx:1:1: error[E6010]: old\n' >"$tmp/new/stderr"
printf '   1  no: error E6003\n' >"$tmp/new/stdout"
expect 0 "a new 'no: error' row is a verdict change"
printf 'admitted: 0 errors\n' >"$tmp/new/stdout"
printf 'f.vx:14:7: error[E6010]: old\n' >"$tmp/new/stderr"
expect 1 "the same error at a moved line and column is no verdict change"
printf 'f.vx:14: error[E6010]: old\n' >"$tmp/new/stderr"
expect 1 "the same error at a moved line (no column) is no verdict change"
printf 'f.vx:14:7: error[E6010]: new\n' >"$tmp/new/stderr"
expect 0 "another error at a moved line is a verdict change"
[ $fail = 0 ] && echo "golden: the verdict guard sees a new status and a new error line"
exit $fail
