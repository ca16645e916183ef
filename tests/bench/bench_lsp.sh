#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench_lsp.sh BUILD_DIR - the language server's latency as an editor feels it: from a
# didChange to its publishDiagnostics, p50 and p99 (tests/bench/lsp_latency.py).
set -eu
python3 "$(dirname "$0")/lsp_latency.py" "$1/vxpeak"
