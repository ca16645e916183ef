#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# manpage.sh CLI - the man page (bindings/cli/vxpeak.1) keeps step with `vxpeak --help`:
# every command and every option the help lists is in the page. Also lints the page with
# groff when it is installed.
set -eu
export LC_ALL=C
cli=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
page=$root/bindings/cli/vxpeak.1
help=$("$cli" --help)
# The page escapes '-' as '\-'; compare unescaped text.
text=$(sed 's/\\-/-/g' "$page")
missing=""
# Commands: the first word of each line under "commands:" indented by two spaces.
commands=$(echo "$help" | sed -n '/^commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
for c in $commands; do
  echo "$text" | grep -q -- "vxpeak $c" || missing="$missing command:$c"
done
# Options: every -x / --word at the start of an option line.
options=$(echo "$help" | sed -n 's/^  \(-[-a-zA-Z]*\).*/\1/p' | sort -u)
for o in $options; do
  echo "$text" | grep -q -- "$o" || missing="$missing option:$o"
done
if [ -n "$missing" ]; then
  echo "manpage: bindings/cli/vxpeak.1 lacks what vxpeak --help lists:$missing"
  exit 1
fi
if command -v groff >/dev/null 2>&1; then
  warnings=$(groff -man -ww -z "$page" 2>&1)
  [ -z "$warnings" ] || { echo "manpage: groff warns: $warnings"; exit 1; }
fi
echo "manpage: vxpeak.1 has the $(echo $commands | wc -w) commands and $(echo $options | wc -w) options of --help"
