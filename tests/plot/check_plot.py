# SPDX-License-Identifier: Apache-2.0
"""check_plot.py OUT_DIR NAME... - each NAME.svg parses, and its numbers are the report's
(NAME.json from `vxpeak check --format json`)."""

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

SVG = "{http://www.w3.org/2000/svg}"
out = Path(sys.argv[1])
passed = failed = 0


def check(name, ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL plot/%s: %s" % (name, what))


for name in sys.argv[2:]:
    try:
        root = ET.parse(out / (name + ".svg")).getroot()
    except ET.ParseError as err:
        check(name, False, "not well-formed XML: %s" % err)
        continue
    check(name, root.tag == SVG + "svg", "the root is <svg>")
    report = json.loads((out / (name + ".json")).read_text())
    sets = {(rs["function"], rs["space"]): rs for rs in report["resident_sets"]}
    panels = [g for g in root.iter(SVG + "g") if g.get("class") == "panel"]
    check(name, len(panels) > 0, "at least one panel")
    for g in panels:
        key = (g.get("data-function"), g.get("data-space"))
        rs = sets.get(key)
        check(name, rs is not None, "panel %s is a resident set of the report" % (key,))
        if rs is None:
            continue
        peak, cap = int(g.get("data-peak-bytes")), int(g.get("data-capacity-bytes"))
        check(name, peak == rs["total_bytes"], "%s peak %d == report %d" % (key, peak, rs["total_bytes"]))
        check(name, cap == rs["capacity_bytes"], "%s capacity %d == report" % (key, cap))
        lives = [int(r.get("data-live-bytes")) for r in g.iter(SVG + "rect") if r.get("data-live-bytes")]
        check(name, lives and max(lives) == peak, "%s: the curve's maximum is the peak" % (key,))
        order = int(g.get("data-peak-order"))
        check(name, order in [int(r.get("data-order")) for r in g.iter(SVG + "rect")
                              if r.get("data-live-bytes") and int(r.get("data-live-bytes")) == peak],
              "%s: the peak marker is where the curve peaks" % (key,))
        titles = [t.text for t in g.iter(SVG + "title") if t.text and t.text.startswith("line ")]
        check(name, len(titles) > 0, "%s: steps name their source lines on hover" % (key,))
        text = " ".join(t.text or "" for t in g.iter(SVG + "text"))
        check(name, "capacity" in text and "peak" in text, "%s: capacity and peak are labelled" % (key,))
    if name == "llama-main":
        text = " ".join(t.text or "" for t in root.iter(SVG + "text"))
        for needle in ("peak 15.94 GiB", "12.06 GiB  layer weights", "2.00 GiB  KV cache",
                       "1.39 GiB  one layer's activations", "0.49 GiB  embeddings",
                       "the sum over the run would say 58.93 GiB"):
            check(name, needle in text, "the picture says %r" % needle)
print("plot: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
