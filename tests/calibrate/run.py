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
        if "// overhead: calibrated " not in text or "capacity: %d B" % (capacity - OVERHEAD) not in text:
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
        failures.append("no measurement: exit %d, expected 2" % rc)
    for f in failures:
        print("FAIL " + f)
    print("calibrate: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
