#!/bin/sh
# run.sh CLI - the golden tests of the vxpeak command.
#
# Each directory under tests/golden/ is one case: `args` holds the command's arguments
# (paths relative to the repository root), and expected.stdout, expected.stderr and
# expected.status what the command must print and return. UPDATE=1 rewrites the expected
# files from the current output (review the diff before committing it). An optional `env`
# file holds NAME=VALUE words set in the command's environment (paths relative to the root).
set -u
cli=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for case_dir in tests/golden/*/; do
  case_dir=${case_dir%/}
  [ -f "$case_dir/args" ] || continue
  name=${case_dir#tests/golden/}
  # shellcheck disable=SC2046 # args are whitespace-separated words by design
  envs=""
  [ -f "$case_dir/env" ] && envs=$(cat "$case_dir/env")
  # shellcheck disable=SC2086 # env holds whitespace-separated NAME=VALUE words
  env NO_COLOR=1 $envs "$cli" $(cat "$case_dir/args") >"$tmp/stdout" 2>"$tmp/stderr"
  echo $? >"$tmp/status"
  # Absolute paths differ between checkouts: show the repository root as <root>.
  for f in stdout stderr; do
    sed "s|$root|<root>|g" "$tmp/$f" >"$tmp/$f.n" && mv "$tmp/$f.n" "$tmp/$f"
  done
  # A JSON case's output must parse, whatever it is compared with.
  case $name in *-json)
    if ! python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/stdout" 2>"$tmp/jsonerr"; then
      echo "FAIL golden/$name: the output is not JSON: $(cat "$tmp/jsonerr" | tail -1)"
      fail=$((fail + 1))
      continue
    fi;;
  esac
  if [ "${UPDATE:-0}" = 1 ]; then
    # A case that runs an example may not change its verdict quietly: a new exit status or
    # a new error line is refused unless GOLDEN_ACCEPT_VERDICT=1 says it is meant (and the
    # example's own CHECK lines say the same: CONTRIBUTING.md, "Golden files").
    if [ "${GOLDEN_ACCEPT_VERDICT:-0}" != 1 ] && grep -q 'examples/' "$case_dir/args" &&
      verdict_change=$(sh tests/golden/verdict_change.sh "$case_dir" "$tmp"); then
      echo "REFUSED golden/$name: $verdict_change; the expected files are left as they were"
      echo "  (the example is wrong, or the tool is: fix that; if the new verdict is right, change the"
      echo "  example's CHECK lines in the same commit and re-record with GOLDEN_ACCEPT_VERDICT=1)"
      fail=$((fail + 1))
      continue
    fi
    for f in stdout stderr status; do cp "$tmp/$f" "$case_dir/expected.$f"; done
    pass=$((pass + 1))
    continue
  fi
  ok=1
  for f in stdout stderr status; do
    if ! cmp -s "$tmp/$f" "$case_dir/expected.$f"; then
      [ $ok = 1 ] && echo "FAIL golden/$name"
      ok=0
      diff -u "$case_dir/expected.$f" "$tmp/$f" | head -40
    fi
  done
  if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
# Colour: on a terminal (a pseudo-terminal from util-linux's `script`), none when NO_COLOR
# is set or the output is a pipe. Skipped, saying so, where `script` is missing.
esc=$(printf '\033[')
if command -v script >/dev/null 2>&1; then
  for mode in tty no_color pipe; do
    case $mode in
      tty) out=$(script -qec "env -u NO_COLOR '$cli' check examples/blog/unrolled.vx" /dev/null 2>&1); want=yes;;
      no_color) out=$(script -qec "env NO_COLOR=1 '$cli' check examples/blog/unrolled.vx" /dev/null 2>&1); want=no;;
      pipe) out=$(env -u NO_COLOR "$cli" check examples/blog/unrolled.vx 2>&1 | cat); want=no;;
    esac
    got=no
    case $out in *"$esc"*) got=yes;; esac
    if [ "$got" = "$want" ] && printf '%s' "$out" | grep -q 'error\[E6010\]'; then
      pass=$((pass + 1))
    else
      echo "FAIL golden/colour-$mode: escape sequences $got, expected $want"
      fail=$((fail + 1))
    fi
  done
else
  echo "golden: colour checks skipped (no 'script' command to make a terminal)"
fi
echo "golden: $pass passed, $fail failed"
[ "$fail" = 0 ]
