#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run.sh CLI BUILD_DIR - `vxpeak plot` draws what the analysis says.
#
# For each case: the SVG must parse as XML, each panel's data-peak-bytes and
# data-capacity-bytes must equal the resident set's peak and capacity in the JSON report
# of `vxpeak check` on the same program, and the largest data-live-bytes of its steps must
# be the peak (check_plot.py). Then the Llama timeline is rendered once by headless
# Chromium (Debian's `chromium`) into BUILD_DIR/plot/llama-main.png, which must show the
# capacity line's red and the curve's blue, and every picture's labels are measured as
# Chromium lays them out (text_boxes.py): no two may overlap, none may leave the canvas.
# Chromium is installed with apt-get when it is
# missing and this runs as root (or with sudo -n under CI); when it cannot be installed the
# render is skipped with a message saying so, and the rest still runs.
set -eu
cli=$1
build=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=$build/plot
mkdir -p "$out"
# name|plot arguments|check arguments (the same program and machine)
cases='llama-main|examples/llama2/prefill.vx --function main|examples/llama2/prefill.vx
llama-batch9|examples/llama2/prefill.vx -D BATCH=9|examples/llama2/prefill.vx -D BATCH=9
blog-loop|examples/blog/peak_not_sum.vx|examples/blog/peak_not_sum.vx
blog-unrolled|examples/blog/unrolled.vx|examples/blog/unrolled.vx
staged|examples/routes/host_to_smem.vx|examples/routes/host_to_smem.vx'
echo "$cases" | while IFS='|' read -r name plot check; do
  # shellcheck disable=SC2086 # arguments are words
  NO_COLOR=1 "$cli" plot $plot -o "$out/$name.svg" 2>"$out/$name.err" || [ $? = 1 ]
  # shellcheck disable=SC2086
  NO_COLOR=1 "$cli" check $check --format json >"$out/$name.json" 2>/dev/null || [ $? = 1 ]
done
python3 tests/plot/check_plot.py "$out" llama-main llama-batch9 blog-loop blog-unrolled staged

# A picture that cannot be written (a link to /dev/full) is refused with its reason, and only
# a regular file cut short is removed: never what the path names otherwise (the link stays;
# as root, removing the path would have deleted a device node named directly).
if [ -w /dev/full ]; then
  rm -f "$out/full.svg"
  ln -s /dev/full "$out/full.svg"
  rc=0
  NO_COLOR=1 "$cli" plot examples/llama2/prefill.vx --function main -o "$out/full.svg" 2>"$out/full.err" || rc=$?
  [ "$rc" = 2 ] || { echo "plot: writing to /dev/full exited $rc, expected 2"; exit 1; }
  grep -q "cannot write '$out/full.svg'" "$out/full.err" || { echo "plot: no 'cannot write' reason:"; cat "$out/full.err"; exit 1; }
  [ -L "$out/full.svg" ] || { echo "plot: a failed write removed the link it was given"; exit 1; }
  rm -f "$out/full.svg"
fi

# The batch frontier's picture against its JSON report (tests/plot/check_frontier.py), on
# two machines: the A100 (memory turns to compute past the capacity wall) and the H100.
for m in a100-40 h100-sxm; do
  NO_COLOR=1 "$cli" frontier examples/llama2/decode.vx --const BATCH=1..320 --tokens-per-call BATCH \
    --machine $m --host default --format svg -o "$out/frontier-$m.svg" || [ $? = 1 ]
  NO_COLOR=1 "$cli" frontier examples/llama2/decode.vx --const BATCH=1..320 --tokens-per-call BATCH \
    --machine $m --host default --format json >"$out/frontier-$m.json" || [ $? = 1 ]
  python3 tests/plot/check_frontier.py "$out/frontier-$m.svg" "$out/frontier-$m.json"
done
# The sweep of issue 30, whose capacity label once lay on the legend and off the canvas.
NO_COLOR=1 "$cli" frontier examples/llama2/decode.vx --const BATCH=1..40 --tokens-per-call BATCH \
  --machine h100-sxm --host default --format svg -o "$out/frontier-h100-sxm-40.svg" || [ $? = 1 ]

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "plot: installing chromium with apt-get to render the SVG"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >"$out/apt.log" 2>&1 || true
  elif [ -n "${CI:-}" ] && sudo -n true 2>/dev/null; then
    (sudo -n apt-get update -qq && sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >"$out/apt.log" 2>&1 || true
  fi
  chromium=$(command -v chromium || command -v chromium-browser || true)
fi
if [ -z "$chromium" ]; then
  echo "plot: SKIPPED the render: chromium is not installed and could not be (not root; see $out/apt.log)"
  exit 0
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
rm -f "$out/llama-main.png"
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --no-first-run --user-data-dir="$profile" --hide-scrollbars \
  --window-size=960,420 --screenshot="$out/llama-main.png" "file://$(cd "$out" && pwd)/llama-main.svg" \
  >"$out/chromium.log" 2>&1 || true
python3 tests/plot/check_png.py "$out/llama-main.png"
python3 tests/plot/text_boxes.py "$chromium" "$out" "$out/llama-main.svg" "$out/llama-batch9.svg" \
  "$out/blog-loop.svg" "$out/blog-unrolled.svg" "$out/staged.svg" "$out/frontier-a100-40.svg" \
  "$out/frontier-h100-sxm.svg" "$out/frontier-h100-sxm-40.svg"
# The measurement can fail: two labels on top of each other and one past the right edge.
cat >"$out/overlap-selftest.svg" <<'EOF2'
<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" font-size="12">
<text x="20" y="40">bandwidth ceiling</text><text x="40" y="42">compute ceiling</text>
<text x="150" y="80">capacity: BATCH = 30 fits</text></svg>
EOF2
if python3 tests/plot/text_boxes.py "$chromium" "$out" "$out/overlap-selftest.svg" >"$out/selftest.log"; then
  echo "plot: text_boxes.py passed a picture with overlapping labels"; cat "$out/selftest.log"; exit 1
fi
grep -q "overlap by" "$out/selftest.log" && grep -q "leaves the 200x100 canvas" "$out/selftest.log" ||
  { echo "plot: text_boxes.py missed a fault:"; cat "$out/selftest.log"; exit 1; }
echo "plot: text_boxes.py sees overlapping labels and a label off the canvas"
