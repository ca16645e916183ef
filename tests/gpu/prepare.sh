#!/bin/sh
# prepare.sh [BUILD_DIR] - run HERE (where libvxpeak builds): write, for every example
# program that runs (cg_run in tests/codegen/programs.sh: the blog's and codegen's
# examples, the scaled Llama-2 copies), the generated CUDA and the
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
for vx in $cg_run; do
  name=$(cg_name "$vx")
  "$build/vxpeak" emit-cuda $(cg_flags "$vx") "$vx" -o "$out/$name.cu" 2>"$out/$name.emit.err"
  "$build/tests/peakcmp" "$vx" --list >"$out/$name.peaks"
  n=$((n + 1))
done
echo "prepare: $n programs in $out; carry it to the GPU machine and run tests/gpu/run.sh"
