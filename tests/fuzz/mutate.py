#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""mutate.py - mutation fuzzing of the vxpeak command (`make fuzz`).

Takes the project's own Vx programs (examples/, tests/corpus/, fleet/) as seeds, mutates
them (tokens inserted and repeated thousands of times, bytes deleted, flipped and copied,
invalid UTF-8), and runs an ASan+UBSan build of the command on each: check (text, JSON,
SARIF), parse, explain and emit-cuda. A run fails when the command exits with anything but
0, 1 or 2, when a sanitizer reports, or when it takes longer than --timeout seconds. Failing
inputs are kept in --out. Deterministic for a given --seed (up to the time budget).
"""
import argparse
import glob
import os
import random
import subprocess
import sys
import time

TOKENS = [b"{", b"}", b"(", b")", b"[", b"]", b"<", b">", b"transfer(", b"Memory::HBM",
          b"Tensor<f32, [", b"for i in 0..", b"if ", b"else ", b"spawn on(",
          b"fn f<const N : i32>() -> i32 ", b"99999999999999999999999", b"\xff\xfe", b"\xc3",
          b"/*", b"///", b'"', b"\\", b"loop ", b"match x { _ => ",
          b"const N : i32 = N + 1;", b"capacity: 0 B", b"granule: 3 B",
          b"within: Memory::HBM", b"f(", b"g<N - 1>()", b"?"]


def mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op, pos = rng.random(), rng.randint(0, len(data))
        if op < 0.3:
            data[pos:pos] = rng.choice(TOKENS)
        elif op < 0.5 and len(data) > 10:
            del data[pos:pos + rng.randint(1, 40)]
        elif op < 0.6:
            data[pos:pos] = rng.choice(TOKENS) * rng.randint(50, 2000)
        elif op < 0.8 and data:
            data[min(pos, len(data) - 1)] = rng.randint(0, 255)
        else:
            a = rng.randint(0, len(data))
            data[pos:pos] = data[a:a + rng.randint(1, 200)]
    return bytes(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True, help="a sanitizer build of vxpeak")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--out", default="build/fuzz")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    seeds = [open(f, "rb").read() for f in sorted(
        glob.glob(root + "/examples/**/*.vx", recursive=True) +
        glob.glob(root + "/tests/corpus/*.vx") + glob.glob(root + "/fleet/*.vx"))]
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1", NO_COLOR="1",
               UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")
    case = os.path.join(args.out, "case.vx")
    deadline = time.time() + args.seconds
    runs = failures = 0
    while time.time() < deadline and failures < 5:
        data = mutate(rng, rng.choice(seeds))
        with open(case, "wb") as f:
            f.write(data)
        command = rng.choice(["check", "check", "parse", "explain", "emit-cuda"])
        argv = [args.cli, command, case]
        if command == "check" and rng.random() < 0.5:
            argv += ["--format", rng.choice(["json", "sarif"])]
        if command == "emit-cuda":
            argv += ["-o", os.path.join(args.out, "out.cu")]
        try:
            r = subprocess.run(argv, capture_output=True, env=env, timeout=args.timeout)
            status, err = r.returncode, r.stderr
        except subprocess.TimeoutExpired:
            status, err = "timeout", b""
        runs += 1
        if status not in (0, 1, 2) or b"Sanitizer" in err or b"runtime error" in err:
            failures += 1
            kept = os.path.join(args.out, "failure%d.vx" % failures)
            with open(kept, "wb") as f:
                f.write(data)
            print("FAIL %s (%s): %s\n%s" % (kept, command, status,
                                            err[-800:].decode(errors="replace")))
    print("fuzz: %d runs, %d failures (seed %d, %.0f s)" % (runs, failures, args.seed, args.seconds))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
