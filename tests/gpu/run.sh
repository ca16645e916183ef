#!/bin/sh
# run.sh [DIR] - run ON A MACHINE WITH AN NVIDIA GPU: build every program that
# tests/gpu/prepare.sh left in DIR (default tests/gpu/out) with nvcc, run it, and check what
# it measured (tests/gpu/compare.py):
#   * each function's high-water mark in each memory space equals the analysis' static
#     peak, byte for byte, and nothing is live at exit;
#   * cudaMemGetInfo's view of the device memory in use at the device high-water mark is
#     that mark within the CUDA allocator's rounding (2 MiB per live allocation).
# A program whose static peaks do not fit the GPU's free memory is reported as needing to
# be shrunk (smaller shapes in its .vx) and not run. Results go to DIR/results.txt and,
# when $OUT is set (the device tool), are copied there. Exit 0 only when every program
# matched.
set -u
dir=${1:-tests/gpu/out}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=${CUDA_ARCH:-native}
results="$dir/results.txt"
: >"$results"
say() { echo "$*" | tee -a "$results"; }
say "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total,memory.free --format=csv,noheader 2>/dev/null | head -1)"
say "nvcc: $("$NVCC" --version 2>&1 | tail -1)"
free_mib=$(nvidia-smi --query-gpu=memory.free --format=csv,noheader,nounits 2>/dev/null | head -1)
pass=0
fail=0
skip=0
for cu in "$dir"/*.cu; do
  [ -f "$cu" ] || continue
  name=$(basename "$cu" .cu)
  need=$(awk '{ s += $3 } END { printf "%d", s / 1048576 + 1 }' "$dir/$name.peaks")
  if [ -n "$free_mib" ] && [ "$need" -gt "$free_mib" ]; then
    say "SKIP $name: its static peaks need ${need} MiB, the GPU has ${free_mib} MiB free; shrink its shapes"
    skip=$((skip + 1))
    continue
  fi
  if ! "$NVCC" -std=c++17 -O2 -arch="$ARCH" -o "$dir/$name" "$cu" >"$dir/$name.nvcc.log" 2>&1; then
    say "FAIL $name: nvcc"; cat "$dir/$name.nvcc.log" | head -20 | tee -a "$results"
    fail=$((fail + 1))
    continue
  fi
  "$dir/$name" >"$dir/$name.stdout" 2>"$dir/$name.stderr"
  status=$?
  tail -n 1 "$dir/$name.stdout" >"$dir/$name.json"
  if python3 tests/gpu/compare.py "$dir/$name.peaks" "$dir/$name.json" "$status" \
    >"$dir/$name.compare" 2>&1; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    cat "$dir/$name.stderr" >>"$dir/$name.compare"
  fi
  tee -a "$results" <"$dir/$name.compare"
done
say "gpu: $pass passed, $fail failed, $skip skipped"
if [ -n "${OUT:-}" ]; then
  cp "$results" "$OUT/" 2>/dev/null
  tar -czf "$OUT/measured.tar.gz" -C "$dir" $(cd "$dir" && ls *.json *.stderr 2>/dev/null) 2>/dev/null
fi
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
