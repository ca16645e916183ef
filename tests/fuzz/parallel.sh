#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# parallel.sh BUILD OUT SECONDS SEED HARNESS:PROCS... - run the libFuzzer harnesses at once,
# PROCS processes each (e.g. fuzz_check:4), for SECONDS, with the flags and corpora of run.sh:
# the processes of one harness share its corpus OUT/corpus/NAME/ (libFuzzer reloads it) and
# each has its own seed; the input size limits are run.sh's (FUZZ_MAX_LEN overrides them).
# This is how the volume in docs/limits.md (Fuzzing) was run on a 16-core machine. Prints each process's executions, rate, coverage and findings, then the
# total; fails when any process found something (kept in OUT/findings/).
set -u
build=$1 out=$2 seconds=$3 seed=$4
shift 4
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out/findings" "$out/seeds"
python3 "$root/tests/fuzz/seeds.py" "$root" "$out/seeds" >/dev/null || exit 1
i=0
for spec in "$@"; do
  h=${spec%%:*} n=${spec##*:}
  case $h in
    fuzz_machine) seeds=machine len=4096 ;;
    fuzz_edit) seeds=edit len=1024 ;;
    fuzz_lsp) seeds=lsp len=4096 ;;
    *) seeds=program len=1024 ;;
  esac
  len=${FUZZ_MAX_LEN:-$len}
  mkdir -p "$out/corpus/$h"
  k=1
  while [ "$k" -le "$n" ]; do
    i=$((i + 1))
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      "$build/$h" -max_total_time="$seconds" -seed=$((seed + i)) -max_len="$len" -timeout=10 \
        -rss_limit_mb=2048 -dict="$out/seeds/vx.dict" -artifact_prefix="$out/findings/$h-$k-" \
        -print_final_stats=1 "$out/corpus/$h" "$out/seeds/$seeds" "$root/tests/fuzz/regressions" \
        >"$out/$h.$k.log" 2>&1 &
    k=$((k + 1))
  done
done
wait
status=0
total=0
for log in "$out"/fuzz_*.log; do
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  if grep -q 'ERROR: \|SUMMARY: ' "$log"; then
    status=1
    found="FINDING (see $log)"
  else
    found="no finding"
  fi
  echo "fuzz: $(basename "$log" .log): ${execs:-?} executions (${rate:-?}/s), $cov, $found"
  total=$((total + ${execs:-0}))
done
echo "fuzz: $total executions in all"
exit $status
