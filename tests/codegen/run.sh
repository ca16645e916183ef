#!/bin/sh
# run.sh CLI PEAKCMP BUILD_DIR - the CUDA code generation tests that need no GPU.
#
# For every example program that runs (cg_run in tests/codegen/programs.sh):
#   1. `vxpeak emit-cuda` output must equal the golden file tests/codegen/golden/NAME.cu
#      (UPDATE=1 rewrites the golden files from the current output: review the diff);
#   2. the same code is built as C++ against the CPU emulation of the CUDA runtime
#      (tests/codegen/cuda_emul.h), under ASan+UBSan, and run;
#   3. peakcmp compares the high-water marks it measured with the analysis' peaks
#      (vxp_resident_set_peak_bytes) under its rule: equal where the control flow is
#      straight-line or every branch places the same tiles, at most (reason named)
#      elsewhere, never above.
# Then every rule's program under tests/codegen/rules/ runs the same way, with peakcmp's
# lines checked against its .expected file, and peakcmp must fail on reports that break
# the rule (a byte above static; below static where the rule is equal; no reason).
# Then every refusal case under tests/codegen/refuse/ must be refused (exit 1) with the
# diagnostics in its .expected file.
# Every emulated report also goes through tests/gpu/compare.py, the comparison a GPU run
# uses, so that script is tested here and not first on a GPU (where a generic instance's
# name, "stage<1024, f32>", once broke its reading of the static peaks).
set -u
cli=$1
peakcmp=$2
build=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
. tests/codegen/programs.sh
out="$build/codegen"
mkdir -p "$out"
CXX=${CXX:-g++}
pass=0
fail=0
# gpu_compare VX NAME: tests/gpu/compare.py on the emulated report $out/NAME.json.
gpu_compare() {
  "$peakcmp" "$1" --list >"$out/$2.peaks" 2>"$out/$2.compare" &&
    python3 tests/gpu/compare.py "$out/$2.peaks" "$out/$2.json" 0 >>"$out/$2.compare" 2>&1 ||
    { echo "FAIL codegen/$2: tests/gpu/compare.py refuses the emulated report"; tail -5 "$out/$2.compare"; return 1; }
}
for vx in $cg_run; do
  name=$(cg_name "$vx")
  golden="tests/codegen/golden/$name.cu"
  ok=1
  if ! "$cli" emit-cuda $(cg_flags "$vx") "$vx" -o "$out/$name.cu" 2>"$out/$name.emit.err"; then
    echo "FAIL codegen/$name: emit-cuda failed"; cat "$out/$name.emit.err"; ok=0
  elif [ "${UPDATE:-0}" = 1 ]; then
    cp "$out/$name.cu" "$golden"
  elif ! cmp -s "$out/$name.cu" "$golden"; then
    echo "FAIL codegen/$name: output differs from $golden"
    diff -u "$golden" "$out/$name.cu" | head -40
    ok=0
  fi
  if [ $ok = 1 ]; then
    if ! $CXX -std=c++17 -Wall -Wextra -Werror -g -fsanitize=address,undefined \
      -fno-sanitize-recover=all -x c++ -include tests/codegen/cuda_emul.h "$out/$name.cu" \
      -o "$out/$name.emul" 2>"$out/$name.build.err"; then
      echo "FAIL codegen/$name: the generated code does not build against cuda_emul.h"
      head -30 "$out/$name.build.err"; ok=0
    elif ! "$out/$name.emul" >"$out/$name.out" 2>"$out/$name.run.err"; then
      echo "FAIL codegen/$name: the emulated program failed"; tail -20 "$out/$name.run.err"; ok=0
    else
      tail -n 1 "$out/$name.out" >"$out/$name.json"
      "$peakcmp" "$vx" "$out/$name.json" || ok=0
      gpu_compare "$vx" "$name" || ok=0
    fi
  fi
  if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
# build_and_run VX NAME: emulated build and run; the report in $out/NAME.json.
build_and_run() {
  "$cli" emit-cuda "$1" -o "$out/$2.cu" 2>"$out/$2.emit.err" || { cat "$out/$2.emit.err"; return 1; }
  $CXX -std=c++17 -Wall -Wextra -Werror -g -fsanitize=address,undefined -fno-sanitize-recover=all \
    -x c++ -include tests/codegen/cuda_emul.h "$out/$2.cu" -o "$out/$2.emul" 2>"$out/$2.build.err" ||
    { head -30 "$out/$2.build.err"; return 1; }
  "$out/$2.emul" >"$out/$2.out" 2>"$out/$2.run.err" || { tail -20 "$out/$2.run.err"; return 1; }
  tail -n 1 "$out/$2.out" >"$out/$2.json"
}
for vx in $cg_rules; do
  name=rule-$(basename "$vx" .vx)
  expected="${vx%.vx}.expected"
  if ! build_and_run "$vx" "$name"; then
    echo "FAIL codegen/rules/$name: not generated, built or run"; fail=$((fail + 1)); continue
  fi
  "$peakcmp" "$vx" "$out/$name.json" >"$out/$name.peakcmp" 2>&1
  status=$?
  if [ "${UPDATE:-0}" = 1 ]; then cp "$out/$name.peakcmp" "$expected"; fi
  if [ $status != 0 ] || ! cmp -s "$out/$name.peakcmp" "$expected"; then
    echo "FAIL codegen/rules/$name: peakcmp exit $status, or its lines differ from $expected"
    diff -u "$expected" "$out/$name.peakcmp" | head -20; fail=$((fail + 1))
  elif ! gpu_compare "$vx" "$name"; then
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
done
# Reports that break the rule must fail: peakcmp exits 1 naming why.
expect_fail() { # VX JSON WHAT NEEDLE
  "$peakcmp" "$1" "$2" >"$out/broken.txt" 2>&1
  status=$?
  if [ $status = 1 ] && grep -q "$4" "$out/broken.txt"; then
    pass=$((pass + 1))
  else
    echo "FAIL codegen/rules: $3: peakcmp exit $status (expected 1 with '$4')"
    cat "$out/broken.txt"; fail=$((fail + 1))
  fi
}
if [ -f "$out/rule-match_arms.json" ] && [ -f "$out/rule-same_tiles.json" ]; then
  # at most, but a byte above the static peak (9 MiB + 1)
  sed 's/"high_water_bytes": 6291456, "static_peak_bytes"/"high_water_bytes": 9437185, "static_peak_bytes"/' \
    "$out/rule-match_arms.json" >"$out/broken-above.json"
  expect_fail tests/codegen/rules/match_arms.vx "$out/broken-above.json" "above static" "1 above the static peak"
  # equal, but measured below the static peak
  sed 's/"high_water_bytes": 1114112, "static_peak_bytes"/"high_water_bytes": 1048576, "static_peak_bytes"/' \
    "$out/rule-same_tiles.json" >"$out/broken-below.json"
  expect_fail tests/codegen/rules/same_tiles.vx "$out/broken-below.json" "below static where equal" "the rule is equal"
  # at most with no reason named
  sed 's/"reasons": \["match-arms"\]/"reasons": []/g' "$out/rule-match_arms.json" >"$out/broken-noreason.json"
  expect_fail tests/codegen/rules/match_arms.vx "$out/broken-noreason.json" "no reason" "no valid rule"
fi
for vx in tests/codegen/refuse/*.vx; do
  [ -f "$vx" ] || continue
  name=$(basename "$vx" .vx)
  rm -f "$out/refuse-$name.cu"
  NO_COLOR=1 "$cli" emit-cuda "$vx" -o "$out/refuse-$name.cu" >/dev/null 2>"$out/refuse-$name.err"
  status=$?
  sed "s|$root/||g" "$out/refuse-$name.err" >"$out/refuse-$name.txt"
  expected="${vx%.vx}.expected"
  if [ "${UPDATE:-0}" = 1 ]; then cp "$out/refuse-$name.txt" "$expected"; fi
  if [ $status != 1 ] || [ -e "$out/refuse-$name.cu" ]; then
    echo "FAIL codegen/refuse/$name: exit $status (expected 1, and no output file)"
    fail=$((fail + 1))
  elif ! cmp -s "$out/refuse-$name.txt" "$expected"; then
    echo "FAIL codegen/refuse/$name: diagnostics differ from $expected"
    diff -u "$expected" "$out/refuse-$name.txt" | head -40
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
done
echo "codegen: $pass passed, $fail failed"
[ "$fail" = 0 ]
