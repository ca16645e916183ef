#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""vllm_a100.py CLI - a published run reproduced (issue 32, item 6).

vLLM's log for Llama-3-8B on an A100-40 (vllm-project/vllm#12330): the device offers 39.50 GiB
as the framework sees it, 90% of it usable (gpu_memory_utilization 0.9), model weights 14.96
GiB, an activation peak of 9.37 GiB, non-torch memory 0.10 GiB, and the rest, 11.12 GiB, is KV
cache: 5,691 blocks of 16 tokens, 91,056 tokens.

With the log's figures calibrated into the a100-40 model (`vxpeak calibrate --offered 39.50GiB
--overhead "activation peak=9.37GiB" --overhead "non-torch=0.10GiB"`) and `--margin 10%`,
the largest BATCH x CONTEXT of the `vxpeak model` program for examples/models/llama-3-8b.json
(BATCH = 1, so the product is CONTEXT) must land within 0.5% of 91,056 tokens. The weights
are not calibrated: the program states them (16,060,522,496 bytes, the log's 14.96 GiB), as
it states the KV cache (131,072 bytes a token) and the step's attention scores.

The margin must be a share of the 39.50 GiB, the overheads held inside it: the check at the
end takes the same overheads as a lowered capacity alone (no overhead line), where a 10%
margin of what is left would give about 98,900 tokens, 8.6% too many.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

PUBLISHED_TOKENS = 5691 * 16  # 91,056
GIB = 1 << 30


def run(cli, args):
    p = subprocess.run([cli] + args, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise SystemExit("FAIL vxpeak %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
    return p.stdout


def largest(cli, program, machine, margin):
    doc = json.loads(run(cli, ["sweep", program, "-D", "BATCH=1", "--const", "CONTEXT=1..1000000",
                               "--machine", machine, "--host", "default", "--margin", margin,
                               "--format", "json"]))
    return doc["machines"][0]["largest"]["value"]


def main(argv):
    cli = os.path.abspath(argv[1])
    tmp = tempfile.mkdtemp(prefix="vxpeak-vllm-")
    program = os.path.join(tmp, "llama3.vx")
    run(cli, ["model", "examples/models/llama-3-8b.json", "--workload", "decode", "--context", "1",
              "-o", program])
    failures = []
    # fleet/a100-40.vx cites the same log, with the command that applies its figures when
    # asked: the figures must be the ones reproduced here, and the command must run.
    fleet = open("fleet/a100-40.vx").read()
    m = re.search(r"^// (vxpeak calibrate PROGRAM\.vx .*)$", fleet, re.M)
    if not m or "--offered 39.50GiB" not in m.group(1) or \
            '--overhead "non-torch=0.10GiB"' not in m.group(1):
        failures.append("fleet/a100-40.vx does not cite vllm#12330's figures as a command")
    else:
        words = shlex.split(m.group(1))[1:]
        words[words.index("PROGRAM.vx")] = program
        words[words.index("MACHINE.vx")] = os.path.join(tmp, "fleet-cited.vx")
        run(cli, words)
        print("ok   fleet/a100-40.vx's cited command runs: %s" % m.group(1))
    machine = os.path.join(tmp, "vllm-a100.vx")
    doc = json.loads(run(cli, ["calibrate", program, "--machine", "a100-40", "--offered", "39.50GiB",
                               "--overhead", "activation peak=9.37GiB",
                               "--overhead", "non-torch=0.10GiB", "-o", machine,
                               "--format", "json"]))
    held = round(9.37 * GIB) + round(0.10 * GIB)
    if doc["offered_bytes"] != round(39.5 * GIB) or doc["stored_bytes"] != held or \
            doc["calibrated_capacity_bytes"] != round(39.5 * GIB) - held:
        failures.append("calibration: %s" % doc)
    tokens = largest(cli, program, machine, "10%")
    off = abs(tokens - PUBLISHED_TOKENS) / PUBLISHED_TOKENS
    line = "%d tokens of KV cache, vLLM's log %d (%+.3f%%)" % (
        tokens, PUBLISHED_TOKENS, 100.0 * (tokens - PUBLISHED_TOKENS) / PUBLISHED_TOKENS)
    if off > 0.005:
        failures.append("vLLM on an A100-40: " + line + ", more than 0.5% off")
    else:
        print("ok   vLLM's Llama-3-8B on an A100-40: " + line)
    # The same bytes as a plain lower capacity: the margin then shrinks with the overheads.
    with open(machine) as f:
        text = f.read()
    lowered = os.path.join(tmp, "lowered.vx")
    with open(lowered, "w") as f:
        f.write("\n".join(l for l in text.split("\n") if "// overhead:" not in l))
    naive = largest(cli, program, lowered, "10%")
    if naive <= tokens * 1.05:
        failures.append("a margin of the lowered capacity gave %d tokens, expected far more "
                        "than %d: the overhead line is not read" % (naive, tokens))
    else:
        print("ok   without the overhead line the margin is of what the overheads leave: %d "
              "tokens (%+.1f%%)" % (naive, 100.0 * (naive - PUBLISHED_TOKENS) / PUBLISHED_TOKENS))
    for f in failures:
        print("FAIL " + f)
    print("vllm_a100: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
