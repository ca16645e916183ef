#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""run.py CLI - `vxpeak calibrate` (issue 32, item 5), held to its word.

After calibrating 1.5 GB of measured overhead on the decode step, the largest batch that fits
on the calibrated copy must drop by exactly what that overhead costs: the batch the peak's
formula gives for the capacity less 1.5 GB. The overhead is read from torch.cuda.memory_stats()
saved as JSON too (reserved_bytes.all.peak). A negative residual is reported and nothing is
stored. The copy is a machine model `check` reads, with the dated overhead line.
"""
import json
import os
import subprocess
import sys
import tempfile

PROGRAM = "examples/llama2/decode.vx"
OVERHEAD = 1500000000


def run(cli, args):
    p = subprocess.run([cli] + args, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def largest(cli, machine):
    rc, out, err = run(cli, ["sweep", PROGRAM, "--const", "BATCH=1..256", "--machine", machine,
                             "--host", "default", "--format", "json"])
    assert rc == 0, err
    return json.loads(out)["machines"][0]["largest"]["value"]


def largest_with_margin(cli, machine, margin):
    rc, out, err = run(cli, ["sweep", PROGRAM, "--const", "BATCH=1..256", "--machine", machine,
                             "--host", "default", "--margin", margin, "--format", "json"])
    assert rc == 0, err
    return json.loads(out)["machines"][0]["largest"]["value"]


def overheads(cli, tmp, capacity, constant, per_batch):
    """--overhead NAME=SIZE held inside what the device offers: a margin is a share of the
    capacity before the overheads; a copy calibrated again adds its line; sizes are exact;
    a malformed overhead line is refused, not read as prose."""
    failures = []
    once = os.path.join(tmp, "once.vx")
    rc, out, err = run(cli, ["calibrate", PROGRAM, "--overhead", "CUDA context=1.5GB", "-o", once,
                             "--format", "json"])
    doc = json.loads(out) if rc == 0 else {}
    if doc.get("stored_bytes") != OVERHEAD or doc.get("residual_bytes", 0) is not None or \
            doc.get("overheads") != [{"name": "CUDA context", "bytes": OVERHEAD}]:
        failures.append("--overhead CUDA context=1.5GB: exit %d, %s %s" % (rc, out, err))
        return failures
    # With a 19% margin: peak <= capacity x 0.81 - overhead; (capacity - overhead) x 0.81, a
    # margin of what the overhead leaves, would give one sequence more.
    got = largest_with_margin(cli, once, "19%")
    expected = (capacity * 81 // 100 - OVERHEAD - constant) // per_batch
    if got != expected:
        failures.append("--margin 19%% on a calibrated copy: largest BATCH %d, the formula "
                        "with the margin a share of the device's memory gives %d" % (got, expected))
    else:
        print("ok   --margin 19%% on a calibrated copy: BATCH %d, the margin a share of what the "
              "device offers" % got)
    # Every answer reading the copy carries it: frontier and advise find the same batch, and
    # check puts the default BATCH (8) inside a 24% margin, which a margin of what the overhead
    # leaves (31,501,751,449 bytes) would not.
    rc, out, err = run(cli, ["frontier", PROGRAM, "--const", "BATCH=1..64", "--machine", once,
                             "--host", "default", "--margin", "19%", "--format", "json"])
    front = json.loads(out)["largest_fit"]["value"] if rc == 0 else None
    rc, out, err = run(cli, ["advise", PROGRAM, "-D", "BATCH=16", "--machine", once, "--host",
                             "default", "--margin", "19%", "--format", "json"])
    advised = [x["value"] for x in json.loads(out)["suggestions"] if x.get("name") == "BATCH"] \
        if rc in (0, 1) else []
    rc, out, err = run(cli, ["check", PROGRAM, "--machine", once, "--host", "default",
                             "--margin", "24%"])
    inside = "31,141,751,449 bytes" in out and "1 inside the margin" in out and \
        "leave 24% of the 42,949,672,960 bytes" in out
    if front != expected or advised != [expected] or not inside:
        failures.append("the calibrated copy's overhead in frontier (%s), advise (%s), check's "
                        "margin (%s): expected BATCH %d" % (front, advised, inside, expected))
    else:
        print("ok   frontier, advise and check's margin carry the overhead: BATCH %d" % expected)
    # advise on a program that fits: its headroom is what the margin leaves of the device's
    # memory, less the overhead (vxp_resident_set_budget_bytes).
    rc, out, err = run(cli, ["advise", PROGRAM, "--machine", once, "--host", "default",
                             "--margin", "19%", "--format", "json"])
    room = json.loads(out)["headroom"][0] if rc == 0 else {}
    if room.get("budget_bytes") != capacity * 81 // 100 - OVERHEAD:
        failures.append("advise's headroom on the calibrated copy: %s" % room)
    else:
        print("ok   advise's headroom keeps the margin of the device's memory and the overhead: "
              "%d bytes" % room["budget_bytes"])
    twice = os.path.join(tmp, "twice.vx")
    rc, out, err = run(cli, ["calibrate", PROGRAM, "--machine", once, "--overhead",
                             "workspace=0.5GB", "--offered", "41GiB", "-o", twice, "--format", "json"])
    doc = json.loads(out) if rc == 0 else {}
    want = 41 * (1 << 30) - OVERHEAD - 500000000
    text = open(twice).read() if rc == 0 else ""
    if doc.get("calibrated_capacity_bytes") != want or text.count("// overhead: ") != 2:
        failures.append("calibrating a calibrated copy: exit %d, %s %s" % (rc, out, err))
    else:
        got = largest_with_margin(cli, twice, "5%")
        expected = (41 * (1 << 30) * 95 // 100 - OVERHEAD - 500000000 - constant) // per_batch
        if got != expected:
            failures.append("two overhead lines: largest BATCH %d, expected %d" % (got, expected))
        else:
            print("ok   a copy calibrated again holds both overheads inside --offered 41GiB: "
                  "BATCH %d at a 5%% margin" % got)
    for bad in (["--overhead", "x=12 parsecs"], ["--overhead", "=5GB"], ["--overhead", "x=0"],
                ["--offered", "-3GiB"], ["--offered", "1.0000000000001GiB"]):
        rc, out, err = run(cli, ["calibrate", PROGRAM, "-o", os.path.join(tmp, "bad.vx")] + bad)
        if rc != 2:
            failures.append("%s: exit %d, expected 2" % (" ".join(bad), rc))
    broken = os.path.join(tmp, "broken.vx")
    with open(broken, "w") as f:
        f.write(open(once).read().replace("// overhead: %d B," % OVERHEAD, "// overhead: lots,"))
    rc, out, err = run(cli, ["check", PROGRAM, "--machine", broken, "--host", "default"])
    if rc == 0 or "VXP0018" not in out + err:
        failures.append("a malformed overhead line: exit %d, no VXP0018" % rc)
    else:
        print("ok   a malformed overhead line is VXP0018")
    return failures


def main(argv):
    cli = os.path.abspath(argv[1])
    failures = []
    tmp = tempfile.mkdtemp(prefix="vxpeak-calibrate-")
    rc, out, err = run(cli, ["check", PROGRAM, "--symbolic", "BATCH", "--format", "json"])
    sets = json.loads(out)["resident_sets"]
    terms = {tuple(t["constants"]): t["coefficient"] for t in sets[0]["peak_formula"][0]}
    constant, per_batch = terms[()], terms[("BATCH",)]
    capacity = sets[0]["capacity_bytes"]
    static = sets[0]["total_bytes"]
    before = largest(cli, "a100-40")
    for how in (["--measured", str(static + OVERHEAD)],
                ["--measured-from", "tests/calibrate/memory_stats.json"]):
        copy = os.path.join(tmp, "calibrated.vx")
        rc, out, err = run(cli, ["calibrate", PROGRAM, "-o", copy, "--format", "json"] + how)
        if rc != 0:
            failures.append("%s: exit %d: %s" % (how, rc, err))
            continue
        doc = json.loads(out)
        if doc["residual_bytes"] != OVERHEAD or doc["stored_bytes"] != OVERHEAD:
            failures.append("%s: residual %s, stored %s" % (how, doc["residual_bytes"], doc["stored_bytes"]))
        text = open(copy).read()
        if "// overhead: %d B, calibrated " % OVERHEAD not in text or \
                "capacity: %d B" % (capacity - OVERHEAD) not in text:
            failures.append("%s: the copy lacks the overhead line or the lowered capacity" % how)
        after = largest(cli, copy)
        expected = (capacity - OVERHEAD - constant) // per_batch
        if after != expected:
            failures.append("%s: largest batch %d after calibration, the formula gives %d" % (how, after, expected))
        if after >= before:
            failures.append("%s: the largest batch did not drop (%d, then %d)" % (how, before, after))
        print("ok   %s: residual %d bytes, largest BATCH %d -> %d (the formula: %d)" % (
            " ".join(how), OVERHEAD, before, after, expected))
    copy = os.path.join(tmp, "negative.vx")
    rc, out, err = run(cli, ["calibrate", PROGRAM, "--measured", str(static - 1000), "-o", copy,
                             "--format", "json"])
    doc = json.loads(out) if rc == 0 else {}
    if rc != 0 or doc.get("residual_bytes") != -1000 or doc.get("stored_bytes") != 0 or \
            doc.get("calibrated_capacity_bytes") != capacity:
        failures.append("negative residual: exit %d, %s" % (rc, out))
    elif largest(cli, copy) != before:
        failures.append("negative residual: the copy changed the answer")
    else:
        print("ok   a negative residual is reported (-1000 bytes) and nothing is stored")
    rc, out, err = run(cli, ["calibrate", PROGRAM, "-o", os.path.join(tmp, "x.vx")])
    if rc != 2:
        failures.append("nothing to calibrate: exit %d, expected 2" % rc)
    failures += overheads(cli, tmp, capacity, constant, per_batch)
    for f in failures:
        print("FAIL " + f)
    print("calibrate: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
