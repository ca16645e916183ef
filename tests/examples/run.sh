#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh BIN_DIR - run the C examples (examples/c/*.c, built into BIN_DIR) on example
# programs and compare what they print and return with tests/examples/expected/. Each case
# is a line of CASES: name, expected exit status, then the command line. UPDATE=1 rewrites
# the expected output (review the diff).
set -u
export LC_ALL=C
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# admit-matrix: examples/admit/admit.vx (every model) against every device model of fleet/.
# The expected bytes, worked out by hand (f16: 2 bytes per element; d = HEADS x HDIM,
# kvd = KVHEADS x HDIM; parameters P = LAYERS x (d(2d + 2kvd) + 3 d FFN + 2d) + 2 VOCAB d + d):
#
#   Llama-2-7B (32 layers, d 4096, kvd 4096, FFN 11008, TP 1, batch 1, 4096 tokens)
#     per layer 4096 x 16384 + 3 x 4096 x 11008 + 8192 = 67,108,864 + 135,266,304 + 8,192
#             = 202,383,360; x 32 = 6,476,267,520; + 2 x 32000 x 4096 + 4096 = 262,148,096
#     P = 6,738,415,616 (the published count); weights 2P = 13,476,831,232
#     kv = 2 x 32 x 1 x 4096 tokens x 4096 x 2 B = 2,147,483,648
#     layer activations: hidden 4096 x 4096 x 2 = 33,554,432; gate/up 4096 x 22016 x 2 =
#     180,355,072; peak = 13,476,831,232 + 2,147,483,648 + 33,554,432 + 180,355,072
#     = 15,838,224,384. l4 and rtx-4090 hold 24,000,000,000: 66%; a100-40 (40 GiB) 37%.
#   Llama-2-13B (40 layers, d = kvd = 5120, FFN 13824)
#     per layer 5120 x 20480 + 3 x 5120 x 13824 + 10240 = 104,857,600 + 212,336,640 + 10,240
#             = 317,204,480; x 40 = 12,688,179,200; + 2 x 32000 x 5120 + 5120 = 327,685,120
#     P = 13,015,864,320; weights 26,031,728,640 > 24,000,000,000: E6009 on l4 and rtx-4090
#     kv = 2 x 40 x 4096 x 5120 x 2 = 3,355,443,200; hidden 4096 x 5120 x 2 = 41,943,040;
#     gate/up 4096 x 27648 x 2 = 226,492,416; peak 29,655,607,296 (m4-uma's 32 GB: 93%)
#   Llama-2-70B (80 layers, d 8192, 8 KV heads: kvd 1024, FFN 28672)
#     per layer 8192 x (16384 + 2048) + 3 x 8192 x 28672 + 16384 = 150,994,944
#             + 704,643,072 + 16,384 = 855,654,400; x 80 = 68,452,352,000
#             + 2 x 32000 x 8192 + 8192 = 524,296,192; P = 68,976,648,192
#     weights 137,953,296,384: over 80 GB (a100-80, h100-sxm, node-8gpu: E6009), under
#     141 GB (h200), 180 GB (b200), 192 GB (mi300x)
#     kv = 2 x 80 x 4096 x 1024 x 2 = 1,342,177,280 (GQA: 8 x smaller than 64 KV heads)
#     hidden 4096 x 8192 x 2 = 67,108,864; gate/up 4096 x 57344 x 2 = 469,762,048
#     peak 139,832,344,576: h200 99% (it fits by 1,167,655,424 bytes)
#   Llama-2-70B at TP 8: weights 2 x P / 8 = 17,244,162,048; kv / 8 = 167,772,160; hidden
#     (not sharded) 67,108,864; gate/up 4096 x 7168 x 2 = 58,720,256; peak 17,537,763,328
#   Mistral-7B (32 layers, d 4096, 8 KV heads: kvd 1024, FFN 14336)
#     per layer 4096 x (8192 + 2048) + 3 x 4096 x 14336 + 8192 = 41,943,040 + 176,160,768
#             + 8,192 = 218,112,000; x 32 = 6,979,584,000; + 262,148,096: P = 7,241,732,096
#     weights 14,483,464,192; kv 2 x 32 x 4096 x 1024 x 2 = 536,870,912; hidden 33,554,432;
#     gate/up 4096 x 28672 x 2 = 234,881,024; peak 15,288,770,560
#   Llama-2-7B at batch 8: weights as above; kv x 8 = 17,179,869,184; hidden x 8 =
#     268,435,456; gate/up x 8 = 1,442,840,576; peak 32,367,976,448: E6010 on the 24 GB
#     machines (135%) and on m4-uma's 32,000,000,000 (101%): every tile fits alone, the sum
#     does not.
#   cortex-m7's HBM (AXI SRAM) is 524,288 bytes: every model's weights alone are E6009.
# A row's peak is its function's call-tree total: it holds nothing across its call, so the
# total is the instance's own peak.
CASES='
admit-matrix 0 admit examples/admit/admit.vx fleet
peak-loop 0 peak examples/blog/peak_not_sum.vx
peak-unrolled 1 peak examples/blog/unrolled.vx
peak-builtin 0 peak tests/examples/plain.vx a100-40
diagnostics-broken 1 diagnostics tests/examples/broken.vx
diagnostics-clean 0 diagnostics examples/blog/peak_not_sum.vx
json-own 0 json examples/blog/peak_not_sum.vx
json-builtin 0 json tests/examples/plain.vx a100-40
json-missing 2 json tests/examples/no-such-file.vx
'
pass=0
fail=0
echo "$CASES" | while read -r name want prog args; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086 # args are words
  "$bin/$prog" $args >"$tmp/out" 2>&1
  got=$?
  expected=tests/examples/expected/$name.out
  if [ "${UPDATE:-0}" = 1 ]; then cp "$tmp/out" "$expected"; fi
  if [ "$got" != "$want" ] || ! cmp -s "$expected" "$tmp/out"; then
    echo "FAIL examples/$name: exit $got (want $want), output:"
    diff -u "$expected" "$tmp/out" | head -30
    echo x >>"$tmp/failed"
  else
    echo x >>"$tmp/passed"
  fi
done
# examples/admit/README.md shows the matrix "at the time of writing": each of its rows must
# be a line of the expected output above (which the program's output must equal), so the
# README cannot keep a verdict or a percentage the program no longer prints.
sed -n '/^model  /,/^```/p' examples/admit/README.md | grep -v '^```' >"$tmp/readme_rows"
if [ "$(wc -l <"$tmp/readme_rows")" -lt 2 ]; then
  echo "FAIL examples/admit-readme: examples/admit/README.md shows no matrix (a 'model' header and rows)"
  echo x >>"$tmp/failed"
elif stale=$(grep -vxF -f tests/examples/expected/admit-matrix.out "$tmp/readme_rows"); then
  echo "FAIL examples/admit-readme: examples/admit/README.md shows rows that admit does not print:"
  printf '%s\n' "$stale"
  echo x >>"$tmp/failed"
else
  echo x >>"$tmp/passed"
fi
# The loop ran in a subshell (a pipe); its results are in the files.
pass=$(cat "$tmp/passed" 2>/dev/null | wc -l)
fail=$(cat "$tmp/failed" 2>/dev/null | wc -l)
echo "examples: $pass passed, $fail failed"
[ "$fail" = 0 ]
