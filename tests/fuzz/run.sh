#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh BUILD OUT SECONDS SEED HARNESS... - run each libFuzzer harness for SECONDS on its
# seed corpus (tests/fuzz/seeds.py) and the regression corpus (tests/fuzz/regressions/: so
# CI's clang-built smoke replays every past finding, including the clang-only UBSan ones
# that make check's gcc build cannot see) with the grammar's dictionary, one after the other.
# The growing corpora stay in OUT/corpus/NAME/, findings (crash-*, leak-*, timeout-*,
# oom-*) in OUT/findings/. Inputs are at most 1024 bytes for the program harnesses (a
# program's every construct fits; a longer input only costs executions) and 4096 for the
# machine models and the language server's sessions (the fleet's models and a framed
# session of an example are 1-4 KB); FUZZ_MAX_LEN, when set, is the limit for every harness. Prints executions, coverage and findings per harness; fails
# when any harness found something.
set -u
build=$1 out=$2 seconds=$3 seed=$4
shift 4
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out/findings" "$out/seeds"
python3 "$root/tests/fuzz/seeds.py" "$root" "$out/seeds" >/dev/null || exit 1
status=0
for h in "$@"; do
  case $h in
    fuzz_machine) seeds=machine len=4096 ;;
    fuzz_edit) seeds=edit len=1024 ;;
    fuzz_lsp) seeds=lsp len=4096 ;;
    *) seeds=program len=1024 ;;
  esac
  len=${FUZZ_MAX_LEN:-$len}
  corpus="$out/corpus/$h"
  mkdir -p "$corpus"
  log="$out/$h.log"
  # Small inputs, a per-input time limit and a memory limit: a slow or greedy input is a
  # finding (timeout-*, oom-*), as a crash is.
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$build/$h" -max_total_time="$seconds" -seed="$seed" -max_len="$len" -timeout=10 \
      -rss_limit_mb=2048 -dict="$out/seeds/vx.dict" -artifact_prefix="$out/findings/$h-" \
      -print_final_stats=1 "$corpus" "$out/seeds/$seeds" "$root/tests/fuzz/regressions" \
      >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  echo "fuzz: $h: ${execs:-?} executions (${rate:-?}/s), $cov, $ft, corpus $(ls "$corpus" | wc -l) inputs, exit $rc"
  if [ $rc != 0 ]; then
    status=1
    grep -m1 -A12 'ERROR: \|SUMMARY' "$log"
    echo "fuzz: $h: finding kept in $out/findings/ (log $log)"
  fi
done
exit $status
