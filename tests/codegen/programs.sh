# programs.sh - sourced by tests/codegen/run.sh, tests/codegen/nvcc.sh and tests/gpu/prepare.sh:
# which example programs the CUDA stage is tested on, and how.
#
#   cg_run     generated, compared with its golden .cu, built, and run (CPU emulation in
#              `make check`, a GPU in tests/gpu/): its sizes fit both.
#   cg_build   generated and built with nvcc only: sizes no emulation holds (the full
#              Llama-2-7B prefill needs 17 GB of device memory; its scaled copy runs).
cg_run="examples/blog/*.vx examples/codegen/*.vx examples/llama2/*_small.vx examples/models/stories15m.*.vx"
#   cg_rules   one program per rule of the comparison (tests/codegen/peakcmp.c): run in the
#              emulation with peakcmp's lines checked against NAME.expected, and on a GPU.
cg_rules="tests/codegen/rules/*.vx"
cg_build="examples/llama2/prefill.vx"

# The emit-cuda flags of one program. examples/blog/unrolled.vx is the blog's rejected
# program (its 33 MiB working set is over a 4 MiB HBM): the analysis' verdict is the point
# of it, and a GPU with room still runs it, so it is generated behind --allow-rejected.
cg_flags() {
  case $1 in
  examples/blog/unrolled.vx) echo --allow-rejected ;;
  *) echo "" ;;
  esac
}

# NAME for a program path: examples/codegen/calls.vx -> codegen_calls.
cg_name() {
  echo "${1#examples/}" | sed 's|/|_|g; s|\.vx$||'
}
