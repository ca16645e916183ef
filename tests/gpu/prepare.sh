#!/bin/sh
# prepare.sh [BUILD_DIR] - run HERE (where libvxpeak builds): write, for every example
# program that runs (cg_run and cg_rules in tests/codegen/programs.sh: the blog's and
# codegen's examples, the scaled Llama-2 copies, one program per rule of the comparison),
# the generated CUDA and the
# analysis' static peaks into tests/gpu/out/, which tests/gpu/run.sh takes to a GPU.
#   tests/gpu/out/NAME.cu      vxpeak emit-cuda output
#   tests/gpu/out/NAME.peaks   "function space bytes" per resident set (peakcmp --list)
# The GPU machine needs neither tree-sitter nor jansson: only nvcc and python3.
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. tests/codegen/programs.sh
make -s "BUILD=$build" cli "$build/tests/peakcmp" >/dev/null
out=tests/gpu/out
rm -rf "$out"
mkdir -p "$out"
n=0
# The full-size Llama-2-7B prefill too (cg_build): 17 GB of device memory at its peak, which
# a large GPU holds (run.sh skips it where the GPU has less free memory).
for vx in $cg_run $cg_rules $cg_build; do
  name=$(cg_name "$vx")
  "$build/vxpeak" emit-cuda $(cg_flags "$vx") "$vx" -o "$out/$name.cu" 2>"$out/$name.emit.err"
  "$build/tests/peakcmp" "$vx" --list >"$out/$name.peaks"
  n=$((n + 1))
done
echo "prepare: $n programs in $out; carry it to the GPU machine and run tests/gpu/run.sh"
