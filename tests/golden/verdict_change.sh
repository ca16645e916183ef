#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# verdict_change.sh CASE_DIR NEW_DIR - whether re-recording a golden case would change its
# verdict: exit 0 and one line saying how when NEW_DIR's status differs from the case's
# expected.status, or when NEW_DIR's stdout or stderr has an error line (`error[`, `no: error`)
# that the expected files do not have; exit 1 when the verdict is the same. An error line is
# compared without its leading `path:LINE:COL:` (or `path:LINE:`): an edit that moves the
# line an error points at moves the error, it does not make a new one.
set -u
case_dir=$1
new=$2
old_status=$(cat "$case_dir/expected.status" 2>/dev/null || echo none)
new_status=$(cat "$new/status")
if [ "$old_status" != "$new_status" ]; then
  echo "the exit status would change from $old_status to $new_status"
  exit 0
fi
errors() {
  cat "$@" 2>/dev/null | grep -E 'error\[|no: error' |
    sed -E 's/^[^[:space:]:]+:[0-9]+(:[0-9]+)?:[[:space:]]*//' | sort -u
}
added=$(errors "$new/stdout" "$new/stderr" | comm -13 \
  "$(errors "$case_dir/expected.stdout" "$case_dir/expected.stderr" >"$new/old_errors"; echo "$new/old_errors")" -)
if [ -n "$added" ]; then
  echo "$(printf '%s\n' "$added" | wc -l) new error line(s), the first: $(printf '%s\n' "$added" | head -1)"
  exit 0
fi
exit 1
