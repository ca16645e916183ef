#!/bin/sh
# nvcc.sh CLI BUILD_DIR - generate CUDA for every example program (cg_run and cg_build in
# tests/codegen/programs.sh) and compile it with nvcc, warnings as errors, linked against
# the CUDA runtime. No GPU is needed to compile. Two compiles run at a time.
#
# nvcc comes from $NVCC, from PATH, or from a virtual environment made here with pip
# (${VXPEAK_CUDA_VENV:-$HOME/.cache/vxpeak/cuda-venv}). The pip packages that hold the nvcc
# driver are NVIDIA's CUDA 13 wheels `nvidia-cuda-nvcc` (with nvidia-nvvm, nvidia-cuda-crt
# and nvidia-cuda-runtime): the CUDA 12 wheels `nvidia-cuda-nvcc-cu12` (12.0 to 12.9) carry
# only ptxas and libnvvm, not nvcc itself. Programs with f16/bf16/f8 tensors include
# cuda_fp16.h and friends, which include <nv/target> from `nvidia-cuda-cccl`. When nothing can be installed the check is
# skipped with a message saying why; it never passes silently.
set -u
cli=$1
build=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
. tests/codegen/programs.sh
venv=${VXPEAK_CUDA_VENV:-$HOME/.cache/vxpeak/cuda-venv}
nvcc=${NVCC:-}
venv_nvcc() {
  for f in "$venv"/lib/python3*/site-packages/nvidia/cu1*/bin/nvcc; do
    [ -x "$f" ] && { echo "$f"; return 0; }
  done
  return 1
}
if [ -z "$nvcc" ]; then nvcc=$(command -v nvcc 2>/dev/null || true); fi
if [ -z "$nvcc" ]; then nvcc=$(venv_nvcc || true); fi
if [ -z "$nvcc" ]; then
  echo "nvcc: not found; installing NVIDIA's nvcc wheels into $venv"
  if python3 -m venv "$venv" >/dev/null 2>&1 &&
    "$venv/bin/pip" install -q --disable-pip-version-check nvidia-cuda-nvcc nvidia-cuda-runtime \
      nvidia-cuda-cccl; then
    nvcc=$(venv_nvcc || true)
  fi
fi
# A venv made before the narrow float types were generated lacks the CCCL headers.
if [ -n "$nvcc" ] && [ ! -e "$(dirname "$nvcc")/../include/nv/target" ] && [ -x "$venv/bin/pip" ] &&
  [ "$nvcc" = "$(venv_nvcc || true)" ]; then
  echo "nvcc: installing nvidia-cuda-cccl (<nv/target>, for cuda_fp16.h) into $venv"
  "$venv/bin/pip" install -q --disable-pip-version-check nvidia-cuda-cccl ||
    echo "nvcc: nvidia-cuda-cccl could not be installed; programs with f16/bf16/f8 will fail"
fi
if [ -z "$nvcc" ]; then
  echo "nvcc: SKIPPED - no nvcc on PATH and the nvidia-cuda-nvcc wheels could not be installed"
  exit 0
fi
out="$build/nvcc"
mkdir -p "$out"
pass=0
fail=0
names=""
for vx in $cg_run $cg_build; do
  name=$(cg_name "$vx")
  rm -f "$out/$name.ok"
  if ! "$cli" emit-cuda $(cg_flags "$vx") "$vx" -o "$out/$name.cu" 2>"$out/$name.emit.err"; then
    echo "FAIL nvcc/$name: emit-cuda failed"; head -20 "$out/$name.emit.err"
    fail=$((fail + 1))
  else
    names="$names $name"
  fi
done
# nvcc is slow (seconds per program): two compiles at a time; each leaves NAME.ok on success.
export nvcc out
printf '%s\n' $names | xargs -P 2 -I NAME sh -c \
  '"$nvcc" -std=c++17 -Werror all-warnings -o "$out/NAME" "$out/NAME.cu" >"$out/NAME.log" 2>&1 && : >"$out/NAME.ok"'
for name in $names; do
  if [ -e "$out/$name.ok" ]; then
    pass=$((pass + 1))
  else
    echo "FAIL nvcc/$name:"; head -30 "$out/$name.log"
    fail=$((fail + 1))
  fi
done
echo "nvcc ($("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')): $pass passed, $fail failed"
[ "$fail" = 0 ]
