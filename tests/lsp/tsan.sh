#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tsan.sh CLI - part of `make tsan`: the language server built with -fsanitize=thread,
# driven through tests/lsp/test_cancel.py (its reader thread raising the cancellation flag
# of a running analysis), test_reply_cancel.py (the flag polled by the reply and diagnostics builders, and
# raised by a new configuration) and test_protocol.py. ThreadSanitizer writes any report to a file
# beside CLI (the server's stderr belongs to the client); a report fails the run. Address
# randomisation is turned off for the run, as for test_threads (gcc 12's TSan rejects some
# kernels' mappings).
set -eu
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
python=$(sh "$here/pydeps.sh")
reports=$(dirname "$cli")/lsp-race
rm -f "$reports".*
status=0
TSAN_OPTIONS="halt_on_error=1 exitcode=66 log_path=$reports" VXPEAK=$cli PYTHONDONTWRITEBYTECODE=1 \
  setarch "$(uname -m)" -R "$python" -m pytest -q -p no:cacheprovider -o asyncio_mode=auto \
  -o asyncio_default_fixture_loop_scope=function "$here/test_cancel.py" "$here/test_reply_cancel.py" "$here/test_protocol.py" ||
  status=$?
if ls "$reports".* >/dev/null 2>&1; then
  cat "$reports".*
  echo "make tsan: ThreadSanitizer reported on the language server" >&2
  exit 1
fi
[ "$status" = 0 ] && echo "make tsan: no data race in the language server under ThreadSanitizer"
exit "$status"
