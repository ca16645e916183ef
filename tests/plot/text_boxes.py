# SPDX-License-Identifier: Apache-2.0
"""text_boxes.py CHROMIUM OUT_DIR FILE.svg... - every label of each picture is readable as a
browser draws it: no two text boxes overlap, and none leaves the canvas.

Each SVG is put inline in a page whose script measures every <text> element as Chromium lays
it out (getBoundingClientRect, so a rotated label is measured as drawn, with the font the
browser actually chose) and writes the boxes into the page; headless Chromium's --dump-dom
hands the page back. Estimating widths from character counts would test the estimate, not
the picture: the frontier's three legend labels were drawn on top of each other while every
count said they fit. Two boxes overlap when they share more than half a pixel each way (a
line of text and the next one may touch). The measured boxes are kept in
OUT_DIR/NAME.boxes.json for a failure's reader.
"""

import html
import json
import os
import re
import subprocess
import sys
import tempfile

# Shared area below this (in px, each way) is touching, not overlapping.
SLACK = 0.5

MEASURE = """
<script>
(function () {
  var svg = document.querySelector('svg');
  var frame = svg.getBoundingClientRect();
  var boxes = [];
  svg.querySelectorAll('text').forEach(function (t) {
    var r = t.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return;
    boxes.push({text: t.textContent, x: r.left - frame.left, y: r.top - frame.top,
                width: r.width, height: r.height});
  });
  var out = document.createElement('pre');
  out.id = 'vxpeak-boxes';
  out.textContent = JSON.stringify({width: frame.width, height: frame.height, boxes: boxes});
  document.body.appendChild(out);
})();
</script>
"""


def measure(chromium, svg_path, profile):
    svg = open(svg_path, encoding="utf-8").read()
    svg = re.sub(r"^<\?xml[^>]*\?>\s*", "", svg)
    page = "<!DOCTYPE html><html><body style=\"margin:0\">" + svg + MEASURE + "</body></html>"
    with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False, encoding="utf-8") as f:
        f.write(page)
        name = f.name
    try:
        run = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update", "--no-first-run",
             "--user-data-dir=" + profile, "--dump-dom", "file://" + name],
            capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(name)
    m = re.search(r'<pre id="vxpeak-boxes">(.*?)</pre>', run.stdout, re.S)
    if not m:
        raise SystemExit("text_boxes: %s: Chromium returned no measurements (exit %d): %s" %
                         (svg_path, run.returncode, run.stderr.strip()[-400:]))
    return json.loads(html.unescape(m.group(1)))


def problems(found):
    out = []
    w, h, boxes = found["width"], found["height"], found["boxes"]
    for b in boxes:
        if b["x"] < -SLACK or b["y"] < -SLACK or b["x"] + b["width"] > w + SLACK or \
                b["y"] + b["height"] > h + SLACK:
            out.append("%r leaves the %gx%g canvas: box x %.1f..%.1f, y %.1f..%.1f" % (
                b["text"], w, h, b["x"], b["x"] + b["width"], b["y"], b["y"] + b["height"]))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            dx = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
            dy = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
            if dx > SLACK and dy > SLACK:
                out.append("%r and %r overlap by %.1f x %.1f px (at x %.1f, y %.1f)" % (
                    a["text"], b["text"], dx, dy, max(a["x"], b["x"]), max(a["y"], b["y"])))
    return out


def main():
    chromium, out_dir, svgs = sys.argv[1], sys.argv[2], sys.argv[3:]
    failed = 0
    with tempfile.TemporaryDirectory() as profile:
        for path in svgs:
            found = measure(chromium, path, profile)
            name = os.path.splitext(os.path.basename(path))[0]
            with open(os.path.join(out_dir, name + ".boxes.json"), "w") as f:
                json.dump(found, f, indent=1)
            bad = problems(found)
            for p in bad:
                print("plot: FAIL %s: %s" % (path, p))
            if not found["boxes"]:
                print("plot: FAIL %s: no text measured" % path)
                bad.append("none")
            failed += bool(bad)
            if not bad:
                print("plot: %s: %d labels, none overlapping, all on the canvas" % (
                    path, len(found["boxes"])))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
