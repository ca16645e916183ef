#!/bin/sh
# run.sh CLI - the wrong-answer corpus: programs people plausibly get wrong, each with the
# diagnostics vxpeak must give them (tests/wrong/README.md).
#
# Each case is NAME.vx, with its command line in a `// args:` comment on its first line
# (`check %s --machine h100-sxm`; %s is the file; without one, `check %s`), and NAME.expected:
# the command's standard error, standard output and exit status, as run with NO_COLOR. A case
# must not be admitted silently: its status is not 0, or its output has a warning. UPDATE=1
# rewrites the expected files (review the diff before committing).
set -u
cli=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for program in tests/wrong/*.vx; do
  name=$(basename "$program" .vx)
  args=$(sed -n '1s|^// args: ||p' "$program")
  [ -n "$args" ] || args='check %s'
  # shellcheck disable=SC2046 # the args are whitespace-separated words by design
  env NO_COLOR=1 "$cli" $(printf '%s\n' "$args" | sed "s|%s|$program|g") >"$tmp/out" 2>"$tmp/err"
  status=$?
  { cat "$tmp/err" "$tmp/out"; echo "(exit $status)"; } | sed "s|$root|<root>|g" >"$tmp/got"
  if [ "$status" = 0 ] && ! grep -q 'warning\[' "$tmp/got"; then
    echo "FAIL wrong/$name: admitted silently"
    fail=$((fail + 1))
    continue
  fi
  if [ "${UPDATE:-0}" = 1 ]; then
    cp "$tmp/got" "tests/wrong/$name.expected"
    pass=$((pass + 1))
  elif cmp -s "$tmp/got" "tests/wrong/$name.expected"; then
    pass=$((pass + 1))
  else
    echo "FAIL wrong/$name"
    diff -u "tests/wrong/$name.expected" "$tmp/got" | head -30
    fail=$((fail + 1))
  fi
done
echo "wrong-answer corpus: $pass passed, $fail failed"
[ "$fail" = 0 ]
