#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check_frontier.py SVG JSON - `vxpeak frontier --format svg` draws what the JSON report says.

The SVG must parse as XML; every value with a call time has exactly one point whose
data-tokens-per-second, data-fits and data-bound equal the JSON report's; the capacity wall
stands after the largest value that fits (and only when a larger value was tried); each
ceiling has one vertex per value that has that time, and no point lies above the bandwidth
ceiling or the compute ceiling drawn at its value (SVG y grows downwards)."""
import json
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def fail(msg: str) -> None:
    print("FAIL frontier svg: " + msg)
    sys.exit(1)


def main() -> None:
    root = ET.parse(sys.argv[1]).getroot()
    data = json.load(open(sys.argv[2]))
    points = {}
    for c in root.iter(SVG + "circle"):
        if c.get("class") == "point":
            v = int(c.get("data-value"))
            if v in points:
                fail("two points for %d" % v)
            points[v] = c
    with_time = [p for p in data["points"] if p["tokens_per_second"] is not None]
    if not with_time:
        fail("the report has no value with a call time: nothing is checked")
    for p in data["points"]:
        c = points.get(p["value"])
        if p["tokens_per_second"] is None:
            if c is not None:
                fail("a point for %d, which has no call time" % p["value"])
            continue
        if c is None:
            fail("no point for %d" % p["value"])
        tps = float(c.get("data-tokens-per-second"))
        if abs(tps - p["tokens_per_second"]) > 1e-3 + 1e-9 * tps:
            fail("%d: %s tokens/s drawn, %s reported" % (p["value"], tps, p["tokens_per_second"]))
        if (c.get("data-fits") == "true") != p["fits"]:
            fail("%d: fits drawn %s, reported %s" % (p["value"], c.get("data-fits"), p["fits"]))
        if c.get("data-bound") != (p["bound"] or ""):
            fail("%d: bound drawn %s, reported %s" % (p["value"], c.get("data-bound"), p["bound"]))
    walls = [l for l in root.iter(SVG + "line") if l.get("class") == "capacity-wall"]
    largest = data["largest_fit"]
    if largest and largest["value"] < data["hi"]:
        if len(walls) != 1 or int(walls[0].get("data-largest-fit")) != largest["value"]:
            fail("the capacity wall is not after %d" % largest["value"])
        x = float(walls[0].get("x1"))
        for v, c in points.items():
            if (float(c.get("cx")) < x) != (v <= largest["value"]):
                fail("%d is on the wrong side of the capacity wall" % v)
    elif walls:
        fail("a capacity wall, but no value past the largest fit was tried")
    ceilings = {l.get("data-ceiling"): l for l in root.iter(SVG + "polyline")}
    for name, key in (("bandwidth", "memory_time_ps"), ("compute", "compute_time_ps")):
        line = ceilings.get(name)
        if line is None:
            fail("no %s ceiling" % name)
        vertices = [tuple(map(float, xy.split(","))) for xy in line.get("points").split()]
        timed = [p for p in data["points"] if p[key]]
        if len(vertices) != len(timed):
            fail("%s ceiling: %d vertices, %d values with that time" % (name, len(vertices), len(timed)))
        for (x, y), p in zip(vertices, timed):
            c = points.get(p["value"])
            if c is not None and float(c.get("cy")) + 0.11 < y:
                fail("%d lies above the %s ceiling" % (p["value"], name))
    print("frontier svg: %d points, the wall and both ceilings agree with the report" % len(points))


if __name__ == "__main__":
    main()
